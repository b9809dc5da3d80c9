# SPDX-License-Identifier: GPL-2.0
"""Crafted trace.dat files for the reader's bounds (trace-cmd.dat.v6(5), .v7(5)).

  tdat_craft.py small-section OUT   v7 zlib: a compressed section of 4 bytes, less than
                                    its own 8-byte header, claiming 65535 bytes
  tdat_craft.py budget OUT          v7 zlib, about 100 KB: ten options name the same
                                    section of 100 MiB, 1000 MiB in all
  tdat_craft.py cpu-id OUT          v7: a BUFFER option names CPU 70000
  tdat_craft.py sparse IN OUT       ftscope's v6 IN with its CPUs' pages dealt to
                                    CPUs 0, 1, 2 and 5 of 6 (each CPU keeps its order),
                                    without kallsyms and printk formats
  tdat_craft.py no-clock IN OUT     ftscope's v6 IN without its TRACECLOCK option (as
                                    trace-cmd files older than the option), kallsyms
                                    and printk formats
  tdat_craft.py no-tgids IN OUT     ftscope's v6 IN without its task table (option
                                    0x4655), as an older ftscope's or trace-cmd's file
  tdat_craft.py zlib IN OUT         v7 IN (trace-cmd convert --compression none) with
                                    every section, its options and its CPU data in
                                    chunks of 10 pages compressed with zlib, as
                                    trace-cmd writes them (Debian's trace-cmd has no zlib)
"""
import struct
import sys
import zlib

MAGIC = b'\x17\x08\x44tracing'
HEADER_INFO, KALLSYMS, BUFFER = 16, 19, 3


def u(v, n):
    """a little-endian unsigned of n bytes"""
    return v.to_bytes(n, 'little')


def head7(comp):
    """a v7 file's fixed header up to the first options section's offset"""
    return MAGIC + b'7\0' + u(0, 1) + u(8, 1) + u(4096, 4) + comp + b'\0' + b'1.2\0'


def section(sid, body, flags=0):
    """a v7 section: id, flags, description id, size, body"""
    return u(sid, 2) + u(flags, 2) + u(0, 4) + u(len(body), 8) + body


def option(oid, data):
    """one option: id, size, data"""
    return u(oid, 2) + u(len(data), 4) + data


def v7(options, tail=b'', comp=b'zlib'):
    """a v7 file: header, one options section holding @options, then @tail; each
    option's data may hold {tail} for the tail's file offset"""
    h = head7(comp)
    opt_off = len(h) + 8
    size = sum(len(option(i, d.replace(b'{tail}', u(0, 8)))) for i, d in options) + 14
    tail_off = opt_off + 16 + size
    body = b''.join(option(i, d.replace(b'{tail}', u(tail_off, 8))) for i, d in options)
    body += option(0, u(0, 8))
    return h + u(opt_off, 8) + section(0, body) + tail


def small_section():
    """a compressed HEADER_INFO section whose size (4) is less than its 8-byte header"""
    bad = u(HEADER_INFO, 2) + u(1, 2) + u(0, 4) + u(4, 8) + u(65535, 4) + u(65535, 4)
    # a zlib stream that starts a stored block of 65535 bytes: inflate copies them
    stored = b'\x78\x01' + b'\x01' + u(0xffff, 2) + u(0, 2)
    return v7([(HEADER_INFO, b'{tail}')], bad + stored + b'\0' * 59)


def budget():
    """ten KALLSYMS options naming one compressed section of 100 MiB of zeros"""
    n = 100 << 20
    z = zlib.compress(b'\0' * n, 9)
    sec = section(KALLSYMS, u(len(z), 4) + u(n, 4) + z, flags=1)
    return v7([(KALLSYMS, b'{tail}')] * 10, sec)


def cpu_id():
    """a BUFFER option for the top instance that names CPU 70000"""
    buf = u(0, 8) + b'\0' + b'mono\0' + u(4096, 4) + u(1, 4) + u(70000, 4) + u(0, 8) + u(0, 8)
    return v7([(BUFFER, buf)], comp=b'none')


def drop_symbols(d):
    """a v6 file's metadata up to its CPU count, with empty kallsyms and printk
    formats: the fixture stays small, and no analyzer that reads it needs them"""
    i = 18
    for name in (b'header_page\0', b'header_event\0'):
        assert d[i:i + len(name)] == name
        i += len(name)
        i += 8 + struct.unpack_from('<Q', d, i)[0]
    n = struct.unpack_from('<I', d, i)[0]
    i += 4
    for _ in range(n):
        i += 8 + struct.unpack_from('<Q', d, i)[0]
    nsys = struct.unpack_from('<I', d, i)[0]
    i += 4
    for _ in range(nsys):
        i = d.index(b'\0', i) + 1
        n = struct.unpack_from('<I', d, i)[0]
        i += 4
        for _ in range(n):
            i += 8 + struct.unpack_from('<Q', d, i)[0]
    k = i + 4 + struct.unpack_from('<I', d, i)[0]
    p = k + 4 + struct.unpack_from('<I', d, k)[0]
    return d[:i] + u(0, 4) + u(0, 4) + d[p:]


def v6_parts(d):
    """a v6 file's parts: its metadata up to its CPU count, its options as (id, data),
    its page size and each CPU's data"""
    opts = d.index(b'options  \0')
    fly = d.index(b'flyrecord\0', opts)
    ncpus = struct.unpack_from('<I', d, opts - 4)[0]
    options, i = [], opts + 10
    while True:
        oid = struct.unpack_from('<H', d, i)[0]
        if oid == 0:
            break
        size = struct.unpack_from('<I', d, i + 2)[0]
        options.append((oid, d[i + 6:i + 6 + size]))
        i += 6 + size
    table = [struct.unpack_from('<QQ', d, fly + 10 + 16 * c) for c in range(ncpus)]
    page = struct.unpack_from('<I', d, 14)[0]
    return d[:opts - 4], options, page, [d[o:o + size] for o, size in table]


def v6_file(head, options, page, cpus):
    """a v6 file of metadata @head (kallsyms and printk formats dropped), @options and
    the CPUs' data @cpus, each CPU's data at a page boundary"""
    meta = drop_symbols(head) + u(len(cpus), 4) + b'options  \0' + \
        b''.join(option(oid, data) for oid, data in options) + u(0, 2) + b'flyrecord\0'
    off = -(-(len(meta) + 16 * len(cpus)) // page) * page
    for c in cpus:
        meta += u(off, 8) + u(len(c), 8)
        off += len(c)
    meta += b'\0' * (-len(meta) % page)
    return meta + b''.join(cpus)


def sparse(src):
    """ftscope's v6 file with its pages dealt to CPUs 0, 1 (from its CPU 0) and 2, 5
    (from its CPU 1): what a 6-CPU machine with data on 0, 1, 2 and 5 records"""
    head, options, page, data = v6_parts(open(src, 'rb').read())
    cpus = [b''] * 6
    for src_cpu, (a, b) in enumerate(((0, 1), (2, 5))):
        for k in range(0, len(data[src_cpu]), page):
            cpus[(a, b)[k // page % 2]] += data[src_cpu][k:k + page]
    # the options: CPUCOUNT (8) says 6, the CPUSTAT texts (2) are dropped
    options = [(oid, u(6, 4) if oid == 8 else x) for oid, x in options if oid != 2]
    return v6_file(head, options, page, cpus)


def zblock(data):
    """a compressed block: compressed size, size, zlib stream"""
    z = zlib.compress(data, 6)
    return u(len(z), 4) + u(len(data), 4) + z


def v7_options(d):
    """the options of every options section of v7 @d, in order, without DONE"""
    i = 18
    for _ in range(2):
        i = d.index(b'\0', i) + 1
    off, opts = struct.unpack_from('<Q', d, i)[0], []
    while off:
        size = struct.unpack_from('<Q', d, off + 8)[0]
        j, end, off = off + 16, off + 16 + size, 0
        while j < end:
            oid, osz = struct.unpack_from('<HI', d, j)
            data = d[j + 6:j + 6 + osz]
            j += 6 + osz
            if oid == 0:
                off = struct.unpack_from('<Q', data)[0]
                break
            opts.append((oid, data))
    return opts, d[18:i]


def zlib7(src):
    """v7 @src (uncompressed) rewritten with zlib: sections, options and CPU data"""
    d = open(src, 'rb').read()
    opts, comp = v7_options(d)
    h = head7(b'zlib')
    out, new = bytearray(h + u(0, 8)), []
    for oid, data in opts:
        if 16 <= oid <= 21:
            so = struct.unpack_from('<Q', data)[0]
            sid, _, desc, size = struct.unpack_from('<HHIQ', d, so)
            new.append((oid, u(len(out), 8)))
            out += section(sid, zblock(d[so + 16:so + 16 + size]), flags=1)
        elif oid == BUFFER:
            name_end = data.index(b'\0', 8)
            if data[8:name_end]:
                continue        # the top instance's buffer only
            clock_end = data.index(b'\0', name_end + 1)
            page, n = struct.unpack_from('<II', data, clock_end + 1)
            ents = [struct.unpack_from('<IQQ', data, clock_end + 9 + 20 * k) for k in range(n)]
            body, tab = b'', b''
            start = len(out) + 16
            for cpu, off, size in ents:
                raw = d[off:off + size]
                chunks = [raw[k:k + 10 * page] for k in range(0, len(raw), 10 * page)]
                z = b''.join(zblock(c) for c in chunks)
                tab += u(cpu, 4) + u(start + len(body), 8) + u(len(z), 8)
                body += u(len(chunks), 4) + z
            so = len(out)
            out += u(BUFFER, 2) + u(1, 2) + u(0, 4) + u(len(body), 8) + body
            new.append((oid, u(so, 8) + data[8:clock_end + 1] + u(page, 4) + u(n, 4) + tab))
        else:
            new.append((oid, data))
    body = b''.join(option(i, x) for i, x in new) + option(0, u(0, 8))
    struct.pack_into('<Q', out, len(h), len(out))
    out += section(0, zblock(body), flags=1)
    return bytes(out)


def no_clock(src):
    """ftscope's v6 file without its TRACECLOCK option (4), kallsyms and printk formats
    (a small fixture); the CPU data's offsets are written again"""
    head, options, page, cpus = v6_parts(open(src, 'rb').read())
    return v6_file(head, [(oid, x) for oid, x in options if oid != 4], page, cpus)


def no_tgids(src):
    """ftscope's v6 file without its task table (0x4655), kallsyms and printk formats"""
    head, options, page, cpus = v6_parts(open(src, 'rb').read())
    return v6_file(head, [(oid, x) for oid, x in options if oid != 0x4655], page, cpus)


def main():
    what, out = sys.argv[1], sys.argv[-1]
    make = {'small-section': small_section, 'budget': budget, 'cpu-id': cpu_id}
    if what in ('sparse', 'zlib', 'no-clock', 'no-tgids'):
        data = {'sparse': sparse, 'zlib': zlib7, 'no-clock': no_clock,
                'no-tgids': no_tgids}[what](sys.argv[2])
    else:
        data = make[what]()
    open(out, 'wb').write(data)


main()
