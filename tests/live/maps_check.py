#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks of user frames across mapping changes (tests/live/maps.sh): a library unloaded
and another loaded at the same place (tests/workloads/dlswap), a binary replaced on disk
while it runs (tests/workloads/swapself), a binary linked by lld. Each check prints one
line of numbers and exits 0 when it holds, 1 with the reason otherwise.

  count FOLDED ERR COMM HZ PCT    COMM's samples under the chain of its "chains comm=COMM
                                  via=CHAIN cpu_us=N" line in ERR (the workload's own CPU
                                  clock): N x HZ / 1e6 of them within PCT%, and 99% of
                                  COMM's samples holding the chain's leaf under the chain
  absent FOLDED COMM NAME...      no sample of COMM has a frame named NAME (or starting
                                  with it when NAME ends in '*')
  same ERR                        the workload's "dlswap same=1": B's code where A's was
"""
import sys

from offcpu_check import folded  # the one reader of folded stacks
from pct_check import steal_ms  # the host's steal over the run (STEAL_MS)
from unwind_check import chains_lines, has_run


def count(path, err, comm, hz, pct):
    own = chains_lines(err, comm)
    if len(own) != 1:
        return f'{comm}: the workload printed {own}'
    chain, us = next(iter(own.items()))
    want = chain.split(',')
    rows = [(f, n) for f, n in folded(path) if f[0] == comm]
    under = sum(n for f, n in rows if has_run(f, want))
    leaf = sum(n for f, n in rows if want[-1] in f)
    expect, steal = us * float(hz) / 1e6, steal_ms() * float(hz) / 1000
    print(f'{comm}: {under} samples under {chain} ({leaf} hold {want[-1]}), the workload\'s '
          f'{us} us of CPU: {expect:.0f} at {hz} Hz (steal {steal_ms():.0f} ms)')
    if not -expect * float(pct) / 100 <= under - expect <= expect * float(pct) / 100 + steal:
        return f'{comm}: {under} samples under {chain}, {expect:.0f} expected (+-{pct}%)'
    if under < 0.99 * leaf:
        return f'{comm}: {leaf - under} of {leaf} samples in {want[-1]} under another chain'
    return None


def absent(path, comm, *names):
    def named(x, n):
        return x.startswith(n[:-1]) if n.endswith('*') else x == n
    rows = [(f, n) for f, n in folded(path) if f[0] == comm]
    bad = sum(n for f, n in rows if any(named(x, m) for x in f[1:] for m in names))
    print(f'{comm}: {bad} of {sum(n for _, n in rows)} samples name {" ".join(names)}')
    return f'{comm}: {bad} samples name {" ".join(names)}' if bad else None


def same(err):
    lines = [x.strip() for x in open(err) if x.startswith('dlswap ')]
    print('; '.join(lines))
    return None if 'dlswap same=1' in lines else 'library B did not land where A was'


CHECKS = {'count': count, 'absent': absent, 'same': same}

if __name__ == '__main__':
    if len(sys.argv) < 3 or sys.argv[1] not in CHECKS:
        sys.exit(__doc__)
    err = CHECKS[sys.argv[1]](*sys.argv[2:])
    if err:
        print(err)
        sys.exit(1)
