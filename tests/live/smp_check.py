#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks of the 16-vCPU guest's cases (tests/qemu/guest_smp.sh) against the workloads'
design and the guest kernel's own counts, for tests/live/qemu_smp.sh. Each sleeper is
pinned to one CPU and naps 20 times (P-pids: "CPU PID"; P-sl.CPU: its switches out as
the kernel counted them, nvcsw + nivcsw, read before it exits). One line on success;
the reason on stderr and exit status 1 otherwise.

  smp_check.py timehist DIR P CASE [CPUS]  timehist --state rows (CASE.out) of P's
                                           sleepers; CPUS: the -C set (all when absent)
  smp_check.py runqlat DIR P CASE          runqlat -P --json: each sleeper's count
  smp_check.py offcpu DIR P CASE           offcpu --json: the sleeper's naps
  smp_check.py tracecmd DIR CASE FILE      record --json's events per CPU against
                                           trace-cmd report FILE's records per CPU
  smp_check.py lost DIR CASE FILE N        funccount --json -b of N getppid calls a
                                           CPU, saved to FILE: per CPU, the records
                                           trace-cmd reads plus ftscope's lost
"""
import os
import re
import subprocess
import sys

from pct_check import last_json  # the one reader of a --json output

NAPS = 20
ROW = re.compile(r'\s*[\d.]+ \[(\d+)\]\s+\S+\[(\d+)\]\s+[\d.]+\s+[\d.]+\s+[\d.]+(?:\s+(\S+))?')


def fail(why):
    """the reason, exit status 1"""
    sys.stderr.write(why + '\n')
    sys.exit(1)


def sleepers(d, p, voluntary=None):
    """{pid: (cpu, the kernel's switches out)} of prefix p's sleepers; @voluntary, a
    dict, gets {pid: (nvcsw, nivcsw)}"""
    out = {}
    for line in open(f'{d}/{p}-pids'):
        cpu, pid = (int(x) for x in line.split())
        m = re.search(r'nvcsw=(\d+) nivcsw=(\d+)', open(f'{d}/{p}-sl.{cpu}').read())
        if not m:
            fail(f'no counts from the sleeper of CPU {cpu}')
        out[pid] = (cpu, int(m[1]) + int(m[2]))
        if voluntary is not None:
            voluntary[pid] = (int(m[1]), int(m[2]))
    return out


def rows_of(path):
    """{pid: [(cpu, state)]}: timehist --state's rows in @path"""
    rows = {}
    for line in open(path):
        m = ROW.match(line)
        if m:
            rows.setdefault(int(m[2]), []).append((int(m[1]), m[3]))
    return rows


def cpu_set(text):
    """the CPUs of a -C list (3,9-12)"""
    cpus = set()
    for part in text.split(','):
        a, _, b = part.partition('-')
        cpus.update(range(int(a), int(b or a) + 1))
    return cpus


def timehist(d, p, case, cpus=None):
    """each sleeper in the set: its naps as S rows, all on its own CPU; a nap that did
    not sleep was preempted past its end, so 20 - nivcsw .. 20 of them (16 vCPUs under
    TCG on a 2-CPU host: a sleeper held 25 ms in nanosleep came back with its 10 ms
    gone: 19 S rows, nvcsw 19); with -C exactly 20 unless the kernel counted fewer
    sleeps (then 20 - nivcsw .. nvcsw). Without -C, the kernel's count of its sleeps
    (nvcsw, read after its last nap) between its S and D rows up to its last nap (D rows
    before its pinning, on other CPUs, too) and those up to its exit (once a D row came
    between the last nap and the count: 21 rows to 21 counted), and the kernel's count of all its
    switches out between its rows up to its last nap and its rows but the exit's: the
    bracket is the design (a preemption may come after the count; measured over 5
    boots, 90 sleepers: the count equal to the rows to the last nap in 90, one row more
    before the exit in 6). With -C, every row on the set's CPUs, the sleepers of the
    other CPUs without a nap row (rows before a sleeper's pinning, on other CPUs, are
    left out: no count against the kernel's)"""
    rows = rows_of(f'{d}/{case}.out')
    if not rows:
        fail('no rows')
    if cpus is not None:
        off = sorted({c for r in rows.values() for c, _ in r} - cpus)
        if off:
            fail(f'rows on CPUs outside -C: {off}')
    bad, n, vol = [], 0, {}
    for pid, (cpu, k) in sorted(sleepers(d, p, vol).items(), key=lambda x: x[1]):
        r = rows.get(pid, [])
        own = sum(1 for c, s in r if c == cpu and s == 'S')
        other = sum(1 for c, s in r if c != cpu and s == 'S')
        if cpus is not None and cpu not in cpus:
            if own or other:
                bad.append(f'CPU {cpu} (outside -C): {own + other} S rows')
            continue
        n += 1
        last_s = max((i for i, (c, s) in enumerate(r) if s == 'S'), default=-1)
        lo, hi = last_s + 1, len(r) - sum(1 for c, s in r if s in ('Z', 'X'))
        nv, ni = vol[pid]
        # its sleeps up to the last nap, and up to its exit: the kernel's count, read
        # after the last nap, may take one more (counts() faulting its code in, in D)
        slept = sum(1 for c, s in r[:last_s + 1] if s in ('S', 'D'))
        slept_hi = sum(1 for c, s in r[:hi] if s in ('S', 'D'))
        if cpus is None:
            ok = slept <= nv <= slept_hi and own <= NAPS <= own + ni and lo <= k <= hi
        else:	# its switches before the pinning may be outside -C: nvcsw a bound
            ok = own == NAPS if nv >= NAPS else NAPS - ni <= own <= nv
        if not ok or other:
            bad.append(f'CPU {cpu}: {own} S rows there, {other} elsewhere, {len(r)} rows '
                       f'({lo} to its last nap, {hi} before its exit), kernel {k} '
                       f'(nvcsw {nv}, nivcsw {ni})')
    if not n:
        fail('no sleepers counted')
    if bad:
        fail('; '.join(bad))
    print(f"{n} sleepers: their naps on their CPUs" +
          ("" if cpus is not None else ", S and D rows to the last as the kernel's sleeps, "
           "the kernel's switches out within its rows"))


def runqlat(d, p, case):
    """each sleeper's latencies: its switches out as the kernel counted them, plus its
    first switch-in (a new task's) and its preemptions after its count: +1, and at most
    one more for each R row after its last nap in the run's recording (CASE.dat, read
    by timehist --state, when the case made one: a bound, as some may come before the
    count; at least one allowed, measured over 5 boots, 85 sleepers: +1
    in 79, +2 in 6; 16 vCPUs under TCG once took 41 ms to exit, preempted twice after
    the count: +3)"""
    j = last_json(f'{d}/{case}.out')
    got = {g['pid']: g['hist']['count'] for g in j['groups']}
    rows = {}
    if os.path.exists(f'{d}/{case}.dat'):	# a case without a recording: 0 .. 1
        th = subprocess.run([os.environ.get('FTSCOPE', './ftscope'), 'timehist', '--state', '-i', f'{d}/{case}.dat'],
                            capture_output=True, text=True)
        if th.returncode:
            fail(f'timehist -i {d}/{case}.dat: exit {th.returncode}: {th.stderr[:200]}')
        for line in th.stdout.splitlines():
            m = ROW.match(line)
            if m:
                rows.setdefault(int(m[2]), []).append(m[3])
    bad, diffs = [], []
    own = sleepers(d, p)
    if not own:
        fail('no sleepers counted')
    for pid, (cpu, k) in sorted(own.items(), key=lambda x: x[1]):
        n = got.get(pid, 0)
        r = rows.get(pid, [])
        last_s = max((i for i, s in enumerate(r) if s == 'S'), default=-1)
        after = sum(1 for s in r[last_s + 1:] if s == 'R')
        diffs.append(n - k)
        if not 1 <= n - k <= 1 + max(1, after):
            bad.append(f'CPU {cpu}: {n} latencies, kernel {k} switches out, '
                       f'{after} preemptions after its last nap recorded')
    if bad:
        fail('; '.join(bad))
    print(f'{len(diffs)} sleepers: latencies - switches out {min(diffs)} .. {max(diffs)}')


def offcpu(d, p, case):
    """the sleeper's off-CPU periods in do_nanosleep: its 20 naps exactly"""
    j = last_json(f'{d}/{case}.out')
    for pid, (cpu, k) in sleepers(d, p).items():
        n = sum(s['count'] for s in j['stacks'] if s['pid'] == pid and
                'do_nanosleep' in s['kernel'])
        if n != NAPS:
            fail(f'CPU {cpu}: {n} periods in do_nanosleep, want {NAPS}')
    print(f'{NAPS} naps in do_nanosleep')


def per_cpu_records(path, match=None):
    """trace-cmd report's records per CPU of a trace.dat (those whose text has match)"""
    r = subprocess.run(['trace-cmd', 'report', path], capture_output=True, text=True)
    if r.returncode:
        fail(f'trace-cmd report {path}: exit {r.returncode}: {r.stderr.strip()[:200]}')
    text = r.stdout
    n = {}
    for line in text.splitlines():
        m = re.search(r'\[(\d{3})\](?: \S+)? +\d+\.\d+:', line)
        if m and (match is None or match in line):
            n[int(m[1])] = n.get(int(m[1]), 0) + 1
    return n


def tracecmd(d, case, path):
    """the recording's records per CPU, as ftscope's footer and trace-cmd count them"""
    j = last_json(f'{d}/{case}.out')
    tc = per_cpu_records(path)
    ft = j['events_per_cpu']
    tcl = [tc.get(c, 0) for c in range(len(ft))]
    if ft != tcl or sum(1 for x in ft if x) < 16:
        fail(f'ftscope {ft}, trace-cmd {tcl}')
    print(f'{sum(ft)} records on {len(ft)} CPUs, the same per CPU')


def lost(d, case, path, calls):
    """-b 4 against CALLS getppid calls on each CPU: losses on every CPU, and per CPU
    the calls trace-cmd reads in the recording plus ftscope's losses there make the
    calls made, but for the shell's forks (the run's only other events, 17 of them)
    lost beside them: 0 .. 3 a CPU (measured over 3 boots: 0 on 45 CPUs, 1 on the
    shell's CPU in each). A recording now keeps task:task_newtask too (a thread's
    process, issue 36): two records a fork, so up to 6 (4 on one CPU seen once, fresh
    Debian 13 root)"""
    j = last_json(f'{d}/{case}.out')
    seen = per_cpu_records(path, 'getppid')
    lostc = j['lost_per_cpu']
    count = sum(f['count'] for f in j['functions'])
    bad = []
    for c, l in enumerate(lostc):
        if not l or not 0 <= seen.get(c, 0) + l - calls <= 6:
            bad.append(f'CPU {c}: {seen.get(c, 0)} read + {l} lost')
    if count != sum(seen.values()):
        bad.append(f'funccount {count}, the recording {sum(seen.values())}')
    if bad:
        fail('; '.join(bad))
    print(f'{count} calls read, {j["lost"]} events lost on {len(lostc)} CPUs '
          f'({min(lostc)} .. {max(lostc)} a CPU)')


if __name__ == '__main__':
    a = sys.argv[1:]
    if a[0] == 'timehist':
        timehist(a[1], a[2], a[3], cpu_set(a[4]) if len(a) > 4 else None)
    elif a[0] == 'runqlat':
        runqlat(*a[1:4])
    elif a[0] == 'offcpu':
        offcpu(*a[1:4])
    elif a[0] == 'tracecmd':
        tracecmd(*a[1:4])
    elif a[0] == 'lost':
        lost(a[1], a[2], a[3], int(a[4]))
    else:
        fail(__doc__)
