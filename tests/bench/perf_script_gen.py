#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""perf_script_gen.py - perf script output (perf record -g) of a given size, for
`ftscope flamegraph`'s memory: a few hundred distinct callchains, repeated.

  perf_script_gen.py [--mb N] [--stacks N] [--seed N] [--folded FILE] > out.perf

The samples are as `perf script` prints them: a header "comm tid [cpu] time: period
event:", the callchain leaf first (kernel frames, then user frames, some of them
"[unknown] (dso)"), a blank line. --folded FILE gets what the input folds to, as
stackcollapse-perf.pl folds it (comm;root;...;leaf COUNT, in byte order), worked out
here from the stacks made, not by ftscope: tests compare ftscope's -f output with it.
"""
import argparse
import random
import sys

COMMS = ['napper', 'V8 Worker', 'kworker/0:1', 'postgres', 'java', 'swapper']
KDSO = '[kernel.kallsyms]'
UDSOS = ['/usr/lib/x86_64-linux-gnu/libc.so.6', '/opt/app/bin/app', '/usr/lib/libssl.so.3']


def frame(rng, kernel):
    """one frame: its perf script line and its name in the folded stack"""
    if kernel:
        fn = 'k_func_%d' % rng.randrange(400)
        return ('\tffffffff8a%06x %s+0x%x (%s)\n' % (rng.randrange(1 << 24), fn,
                                                    rng.randrange(1, 4096), KDSO), fn)
    dso = rng.choice(UDSOS)
    if rng.random() < 0.1:
        return ('\t    5612ab%06x [unknown] (%s)\n' % (rng.randrange(1 << 24), dso),
                '[%s]' % dso.rsplit('/', 1)[1])
    fn = 'u_func_%d' % rng.randrange(600)
    return ('\t    7f3a10%06x %s+0x%x (%s)\n' % (rng.randrange(1 << 24), fn,
                                                rng.randrange(1, 4096), dso), fn)


def stacks(rng, n):
    """@n distinct stacks: (comm, callchain text, folded stack)"""
    out, seen = [], set()
    while len(out) < n:
        comm = rng.choice(COMMS)
        nk, nu = rng.randrange(0, 25), rng.randrange(0, 25)
        frames = [frame(rng, True) for _ in range(nk)] + [frame(rng, False) for _ in range(nu)]
        folded = ';'.join([comm.replace(' ', '_')] + [f[1] for f in reversed(frames)])
        if nk + nu == 0 or folded in seen:
            continue
        seen.add(folded)
        out.append((comm, ''.join(f[0] for f in frames), folded))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--mb', type=float, default=200, help='size of the output in MB')
    ap.add_argument('--stacks', type=int, default=300, help='distinct stacks')
    ap.add_argument('--seed', type=int, default=20)
    ap.add_argument('--folded', help='write the expected folded stacks here')
    a = ap.parse_args()
    rng = random.Random(a.seed)
    st = stacks(rng, a.stacks)
    weights = [1.0 / (i + 1) for i in range(len(st))]	# a few hot stacks, a long tail
    counts = [0] * len(st)
    out, size, want, t = [], 0, int(a.mb * 1e6), 5210.0
    w = sys.stdout.buffer
    while size < want:
        for i in rng.choices(range(len(st)), weights, k=1024):
            comm, chain, _ = st[i]
            t += 0.000101
            s = '%16s %6d [%03d] %.6f:   10101010 cpu-clock:ppp: \n%s\n' % (
                comm, 4000 + i, i % 8, t, chain)
            out.append(s)
            size += len(s)
            counts[i] += 1
            if size >= want:
                break
        w.write(''.join(out).encode())
        out = []
    if a.folded:
        with open(a.folded, 'w') as f:
            for folded, c in sorted((s[2], c) for s, c in zip(st, counts) if c):
                f.write('%s %d\n' % (folded, c))


if __name__ == '__main__':
    main()
