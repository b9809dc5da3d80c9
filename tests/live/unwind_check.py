#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks of user stacks unwound by CFI (--call-graph dwarf), on tests/workloads/chains
and Debian's own binaries. Each check prints one line of numbers and exits 0 when it
holds, 1 with the reason otherwise.

  split FOLDED ERR COMM LEAF POINTS CHAIN...   COMM's samples holding LEAF, split by
                                               the CHAINs (comma-separated, root first,
                                               ending in LEAF, in a row): each CHAIN's
                                               share within POINTS of the workload's
                                               own CPU split (its "chains comm=COMM
                                               via=CHAIN cpu_us=N" lines in ERR), and
                                               99% of LEAF's samples under one of them
  worksplit FOLDED ERR COMM LEAF POINTS CHAIN... as split, where a TCG guest's vCPU
                                               waits for a host CPU: its CPU clock
                                               counts the waits (cpu_us), its rounds
                                               do not (work_us: at the fastest turn's
                                               pace), and the sampling timer fires once
                                               for a wait however long, so a CHAIN's
                                               samples lie between its work and its
                                               CPU time: its share between its work
                                               over its work and the others' CPU time,
                                               and its CPU time over its CPU time and
                                               the others' work, within POINTS (calm,
                                               work = CPU time: split's bound)
  root FOLDED COMM LEAF ROOT                   99% of COMM's samples holding LEAF have
                                               ROOT as their outermost user frame
  nocallers FOLDED COMM LEAF CALLER...         at most 2% of COMM's samples holding LEAF
                                               name a CALLER (a frame-pointer walk of
                                               code without frame pointers: none)
  perfpeer FOLDED SCRIPT COMM BINARY PCT       COMM's user stacks against perf script's
                                               (perf record --call-graph dwarf on the
                                               same run), frames of BINARY's own
                                               functions (nm) root first: the two
                                               distributions overlap by PCT% at least
  reaches FOLDED COMM FRAME FUNC N             COMM's count (us, samples) on stacks
                                               holding FRAME is N at least, 99% of it
                                               on stacks that also hold FUNC
  cut FOLDED COMM FRAME MARKER CHAIN           COMM's stacks holding FRAME (a kernel
                                               frame) all end in MARKER (a stopped
                                               walk's, outermost), and their user
                                               frames after it are CHAIN's leaf side
                                               (CHAIN: comma-separated, root first), two
                                               of them at least, not all of CHAIN
  whole FOLDED COMM FRAME CHAIN                COMM's stacks holding FRAME: none ends in
                                               a marker, each holds CHAIN in a row

A stopped walk's marker ("[unwind stopped: ...]", the outermost user frame of a stack
the unwinder could not finish) is no function: perfpeer leaves it out by name (and
says how many samples had one), so that the frames before it are compared.
"""
import subprocess
import sys

from offcpu_check import folded  # the one reader of folded stacks
from profile_check import perf_script  # the one reader of perf script callchains


def has_run(frames, want):
    """does @frames hold @want in a row?"""
    n = len(want)
    return any(frames[i:i + n] == want for i in range(len(frames) - n + 1))


def chains_lines(err, comm, key='cpu_us'):
    """{chain: N} from the workload's "chains comm=COMM via=CHAIN cpu_us=N loops=N" lines"""
    out = {}
    for line in open(err):
        if line.startswith('chains '):
            f = dict(x.split('=', 1) for x in line.split()[1:] if '=' in x)
            if f.get('comm') == comm and key in f:
                out[f['via']] = int(f[key])
    return out


def chain_counts(path, comm, leaf, chains):
    """COMM's samples holding LEAF: their total, each CHAIN's count, and what is wrong
    when under 99% of them lie under one of the chains (else None)"""
    rows = [(f, n) for f, n in folded(path) if f[0] == comm and leaf in f]
    total = sum(n for _, n in rows)
    n = {c: sum(k for f, k in rows if has_run(f, c.split(','))) for c in chains}
    under = sum(n.values())
    return total, n, (f'{total - under} of {total} samples in {leaf} under no chain'
                      if under < total * 0.99 else None)


def split(path, err, comm, leaf, points, *chains):
    own = chains_lines(err, comm)
    total, n, stray = chain_counts(path, comm, leaf, chains)
    cpu = sum(own.get(c, 0) for c in chains)
    if not total or not cpu or any(c not in own for c in chains):
        return f'{comm}: {total} samples in {leaf}; the workload\'s lines: {own}'
    bad = []
    for c in chains:
        got, want = 100.0 * n[c] / total, 100.0 * own[c] / cpu
        print(f'{comm}: {c}: {n[c]} of {total} samples in {leaf}, {got:.1f}% '
              f'(the workload: {own[c]} us, {want:.1f}%)')
        if abs(got - want) > float(points):
            bad.append(f'{c} {got:.1f}% against {want:.1f}%')
    bad += [stray] if stray else []
    return f'{comm}: ' + '; '.join(bad) if bad else None


def worksplit(path, err, comm, leaf, points, *chains):
    cpu, work = chains_lines(err, comm, 'cpu_us'), chains_lines(err, comm, 'work_us')
    # rounds in turns under 1 ms, left out of the pace, can put work a little above CPU
    work = {c: min(w, cpu.get(c, w)) for c, w in work.items()}
    total, n, stray = chain_counts(path, comm, leaf, chains)
    if not total or any(not cpu.get(c) or c not in work for c in chains):
        return f'{comm}: {total} samples in {leaf}; the workload\'s lines: {cpu} {work}'
    bad = []
    for c in chains:
        others_cpu = sum(cpu[o] for o in chains if o != c)
        others_work = sum(work[o] for o in chains if o != c)
        got = 100.0 * n[c] / total
        lo = 100.0 * work[c] / (work[c] + others_cpu)
        hi = 100.0 * cpu[c] / (cpu[c] + others_work)
        print(f'{comm}: {c}: {n[c]} of {total} samples in {leaf}, {got:.1f}% (the workload: '
              f'{work[c]} us of work, {cpu[c]} us of CPU: {lo:.1f} .. {hi:.1f}%)')
        if not lo - float(points) <= got <= hi + float(points):
            bad.append(f'{c} {got:.1f}% outside {lo:.1f} .. {hi:.1f}% +-{points}')
    bad += [stray] if stray else []
    return f'{comm}: ' + '; '.join(bad) if bad else None


def root(path, comm, leaf, first):
    rows = [(f, n) for f, n in folded(path) if f[0] == comm and leaf in f]
    total = sum(n for _, n in rows)
    hit = sum(n for f, n in rows if len(f) > 1 and f[1] == first)
    print(f'{comm}: {hit} of {total} samples in {leaf} start at {first}')
    if not total or hit < total * 0.99:
        return f'{comm}: {hit} of {total} samples in {leaf} reach {first}'
    return None


def nocallers(path, comm, leaf, *callers):
    rows = [(f, n) for f, n in folded(path) if f[0] == comm and leaf in f]
    total = sum(n for _, n in rows)
    named = sum(n for f, n in rows if any(c in f for c in callers))
    print(f'{comm}: {named} of {total} samples in {leaf} name one of {",".join(callers)}')
    if not total:
        return f'{comm}: no sample in {leaf}'
    if named > total * 0.02:
        return f'{comm}: {named} of {total} samples name the callers'
    return None


def own_functions(binary):
    """the names of BINARY's functions, from its symbol table (none: the check cannot
    tell stacks apart, so it fails here)"""
    out = subprocess.run(['nm', binary], capture_output=True, text=True, check=True).stdout
    names = {x.split()[2] for x in out.splitlines() if len(x.split()) == 3 and
             x.split()[1] in 'tTwW'}
    if not names:
        sys.exit("nm %s: no function names" % binary)
    return names


MARKER = '[unwind stopped'


def is_marker(frame):
    """is @frame a stopped walk's marker (events/usyms.c's names)?"""
    return frame.startswith(MARKER) and frame.endswith(']')


def dist(rows, comm, names):
    """{frames of NAMES root first: share} over COMM's rows (a marker left out)"""
    d, total = {}, 0
    for f, n in rows:
        if f[0] != comm:
            continue
        k = tuple(x for x in f[1:] if x in names and not is_marker(x))
        d[k] = d.get(k, 0) + n
        total += n
    return {k: v / total for k, v in d.items()} if total else {}, total


def perfpeer(path, script, comm, binary, pct):
    # perf 6.1 ends these stacks at libc's __libc_start_call_main, where gdb (and
    # ftscope) go on through __libc_start_main to _start: _start is left out
    names = own_functions(binary) - {'_start'}
    ours, n_o = dist(folded(path), comm, names)
    cut = sum(n for f, n in folded(path) if f[0] == comm and len(f) > 1 and is_marker(f[1]))
    print(f'{comm}: {cut} samples of ftscope end in a marker (left out by name, the '
          f'frames before it compared)')
    theirs, n_p = dist(perf_script(script), comm, names)
    if not n_o or not n_p:
        return f'{comm}: ftscope {n_o} samples, perf {n_p}'
    overlap = 100.0 * sum(min(v, theirs.get(k, 0)) for k, v in ours.items())
    top = sorted(theirs, key=theirs.get, reverse=True)[:3]
    print(f'{comm}: {n_o} samples (ftscope), {n_p} (perf); the same user frames of '
          f'{binary.split("/")[-1]} for {overlap:.1f}% of them; perf\'s commonest: ' +
          ', '.join(f'{";".join(k)} {100 * theirs[k]:.1f}% (ours {100 * ours.get(k, 0):.1f}%)'
                    for k in top))
    if overlap < float(pct):
        return f'{comm}: the same frames for {overlap:.1f}% of the samples, under {pct}%'
    return None


def reaches(path, comm, kframe, func, us):
    rows = [(f, n) for f, n in folded(path) if f[0] == comm and kframe in f]
    total = sum(n for _, n in rows)
    hit = sum(n for f, n in rows if func in f)
    print(f'{comm}: {total} (us or samples) on stacks with {kframe}, {hit} of them with {func}')
    if total < int(us):
        return f'{comm}: {total} with {kframe}, under {us}'
    if hit < total * 0.99:
        return f'{comm}: only {hit} of {total} on stacks reaching {func}'
    return None


def cut(path, comm, frame, marker, chain):
    chain = chain.split(',')
    rows = [(f, n) for f, n in folded(path) if f[0] == comm and frame in f]
    bad, depths = [], {}
    for f, n in rows:
        if len(f) < 2 or f[1] != marker:
            bad.append(f'no {marker}: {";".join(f[:4])}')
            continue
        if chain[-1] not in f:
            bad.append(f'no {chain[-1]}: {";".join(f[:4])}')
            continue
        seg = f[2:f.index(chain[-1]) + 1]
        if len(seg) < 2 or len(seg) >= len(chain) or seg != chain[len(chain) - len(seg):]:
            bad.append(f'not a leaf side of the chain: {";".join(seg)}')
        depths[len(seg)] = depths.get(len(seg), 0) + n
    print(f'{comm}: {len(rows)} stacks with {frame}, {len(bad)} wrong; frames after the '
          f'marker (of {len(chain)}): {depths}')
    if not rows:
        return f'{comm}: no stack with {frame}'
    return f'{comm}: ' + '; '.join(bad[:3]) if bad else None


def whole(path, comm, frame, chain):
    chain = chain.split(',')
    rows = [(f, n) for f, n in folded(path) if f[0] == comm and frame in f]
    marked = [f for f, _ in rows if any(is_marker(x) for x in f)]
    short = [f for f, _ in rows if not has_run(f, chain)]
    print(f'{comm}: {len(rows)} stacks with {frame}, {len(marked)} with a marker, '
          f'{len(short)} without the whole chain')
    if not rows:
        return f'{comm}: no stack with {frame}'
    if marked or short:
        return f'{comm}: ' + '; '.join(';'.join(f[:5]) for f in (marked + short)[:3])
    return None


CHECKS = {'split': split, 'worksplit': worksplit, 'root': root,
          'nocallers': nocallers, 'perfpeer': perfpeer, 'reaches': reaches, 'cut': cut,
          'whole': whole}

if __name__ == '__main__':
    if len(sys.argv) < 3 or sys.argv[1] not in CHECKS:
        sys.exit(__doc__)
    try:
        err = CHECKS[sys.argv[1]](*sys.argv[2:])
    except TypeError as e:
        sys.exit(f'{e}\n{__doc__}')
    if err:
        print(err)
        sys.exit(1)
