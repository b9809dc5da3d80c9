#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""eh_damage.py IN OUT: copy ELF64 file IN to OUT with the CIE pointer of every FDE in
its .eh_frame pointing past the section (a damaged table: the unwinder refuses those
FDEs); prints how many FDEs were damaged"""
import struct
import sys


def sections(data):
    """{name: (offset, size)} of an ELF64 little-endian file's sections"""
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
    heads = [struct.unpack_from('<IIQQQQIIQQ', data, shoff + i * shentsize) for i in range(shnum)]
    stro = heads[shstrndx][4]
    out = {}
    for h in heads:
        name = data[stro + h[0]:data.index(b'\0', stro + h[0])].decode()
        out[name] = (h[4], h[5])
    return out


def main():
    data = bytearray(open(sys.argv[1], 'rb').read())
    off, size = sections(data)['.eh_frame']
    p, n = off, 0
    while p + 8 <= off + size:
        length, cie = struct.unpack_from('<II', data, p)
        if length in (0, 0xffffffff):
            break
        if cie:         # an FDE: its CIE pointer (relative to itself) past the section
            struct.pack_into('<I', data, p + 4, 0x7ffffff0)
            n += 1
        p += 4 + length
    open(sys.argv[2], 'wb').write(data)
    print(n)


main()
