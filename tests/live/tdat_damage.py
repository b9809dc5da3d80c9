# SPDX-License-Identifier: GPL-2.0
"""Damaged copies of a v6 trace.dat that ftscope record wrote (trace-cmd.dat.v6(5)),
each damaged at a known place, with what `ftscope timehist -i` must say of it.

  tdat_damage.py IN DIR     writes DIR/NAME.dat for each damage and prints one line
                            each: NAME, the exit status wanted, and the message: for
                            status 1 the one stderr line after "ftscope timehist: "
                            (%s is the file), for status 0 a text the report's footer
                            holds; "-" where the damage is random (flipped bits: an
                            error or a report, never a crash)
"""
import random
import struct
import sys


def parts(d):
    """offsets of a v6 file's CPU count, options, flyrecord table and CPU data"""
    opts = d.index(b'options  \0')
    fly = d.index(b'flyrecord\0', opts)
    ncpus = struct.unpack_from('<I', d, opts - 4)[0]
    table = [struct.unpack_from('<QQ', d, fly + 10 + 16 * c) for c in range(ncpus)]
    return opts, fly, ncpus, table


def main():
    src, out = sys.argv[1], sys.argv[2]
    d0 = open(src, 'rb').read()
    assert d0[:10] == b'\x17\x08Dtracing' and d0[10:12] == b'6\0', 'not a v6 trace.dat'
    opts, fly, ncpus, table = parts(d0)
    first_opt = struct.unpack_from('<H', d0, opts + 10)[0]
    data0, size0 = table[0]
    last = ncpus - 1
    lo, lsize = table[last]
    assert lsize > 4096 and data0 > 0x2000, 'too little data to damage'
    cases = []

    def put(name, data, want, msg):
        open(f'{out}/{name}.dat', 'wb').write(data)
        cases.append((name, want, msg))

    def patch(at, fmt, value):
        d = bytearray(d0)
        struct.pack_into(fmt, d, at, value)
        return bytes(d)

    put('magic', b'\0\0\0' + d0[3:], '1', '%s is not a trace.dat file or an ftscope capture directory')
    put('version', d0[:10] + b'9' + d0[11:], '1', '%s: trace.dat version 9 is not supported (6, 7)')
    put('page-size', patch(14, '<I', 0), '1', '%s: bad page size 0')
    # 100 bytes: inside the header_page section (it starts at byte 18)
    put('cut-header', d0[:100], '1', '%s: no header_event')
    put('cpu-count', patch(opts - 4, '<I', 100000), '1', '%s: bad CPU count 100000')
    # in the first option's data (its id and size are the 6 bytes after "options  \0")
    put('cut-option', d0[:opts + 10 + 6 + 1], '1', f'%s: option {first_opt} is truncated')
    put('cut-cpu-table', d0[:fly + 10 + 8], '1', '%s: the CPU table is truncated')
    put('cpu0-offset', patch(fly + 10, '<Q', len(d0) + 4096), '1',
        "%s: CPU 0's data lies beyond the end of the file")
    put('cut-data', d0[:lo + lsize // 2], '1', f"%s: CPU {last}'s data lies beyond the end of the file")
    # CPU 0's first page: its commit word (8 bytes after its timestamp) claims 1 MB
    put('commit', patch(data0 + 8, '<Q', 0xfffff), '0', ' 1 damaged pages')
    # 40 flipped bits in the metadata, and 40 in the CPU data, five seeds each
    for seed in range(1, 6):
        r = random.Random(seed)
        for name, a, b in (('meta', 0, 0x2000), ('data', data0, len(d0))):
            d = bytearray(d0)
            for _ in range(40):
                d[r.randrange(a, b)] ^= 1 << r.randrange(8)
            put(f'flip-{name}{seed}', bytes(d), '0|1', '-')
    for c in cases:
        print('\t'.join(c))


if __name__ == '__main__':
    main()
