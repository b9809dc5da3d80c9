# SPDX-License-Identifier: GPL-2.0
"""The kernel's own interrupt counters around a traced command against ftscope's counts.

  irq_check.py hard|soft BEFORE AFTER SECONDS JSON|PROM [NAME[:N[:W]]...]

BEFORE and AFTER are /proc/interrupts (hard) or /proc/softirqs (soft) as the traced
command read them at its start and end, SECONDS apart. ftscope counts from tracing on
to off, which holds that bracket: for each handler or vector, its count less the
kernel's must be 0 or more, and at most what the time outside the bracket can add.
The NAMEs are what the workload drives, N times each (default IRQ_MIN: 2000 hard, 100
soft; no NAME: the busiest handler): the kernel must count N or more. Allowed over the
kernel: 3 + 1% (measured +0 to +7 over 2000 here, +0 over 10 to 400 in QEMU), and what the
rest of the system adds at its rate in the bracket (counts beyond N) over 2 s more (ftscope
notices the command's end within its 1 s read period); 22 more for the NAMEs not driven.
W, when given, is what the workload did (default N) and N only the least that shows it
ran: the rest of the system's rate then counts what is beyond W.
PROM, a file of --prometheus-file (its name ends in .prom), gives each handler's or
vector's _count of ftscope_hardirqs_seconds or ftscope_softirqs_seconds instead: the
times it paired, which are the entries but for a handler cut by the trace's ends or by
lost records (none inside the bracket).
One line per handler or vector, then OK or BAD lines.
"""
import os
import sys

from prom_check import parse_text  # the one reader of an exposition

from pct_check import last_json  # the one reader of a --json output


def interrupts(path):
    """/proc/interrupts: the action names of each numbered line -> count over all CPUs"""
    lines = open(path).read().splitlines()
    ncpu = len(lines[0].split())
    r = {}
    for line in lines[1:]:
        p = line.split()
        if not p[0].rstrip(':').isdigit():
            continue
        # NN: counts per CPU, chip, hwirq-type, then the actions ("a, b" when shared)
        r[' '.join(p[1 + ncpu + 2:])] = sum(int(x) for x in p[1:1 + ncpu])
    return r


def softirqs(path):
    """/proc/softirqs: vector name (lower case, as BCC prints it) -> count over all CPUs"""
    r = {}
    for line in open(path).read().splitlines()[1:]:
        p = line.split()
        r[p[0].rstrip(':').lower()] = sum(int(x) for x in p[1:])
    return r


def counts(kind, path):
    """ftscope's count per handler or vector: the JSON's entries, or a .prom file's _count"""
    key = 'hardirqs' if kind == 'hard' else 'softirqs'
    if path.endswith('.prom'):
        label = 'irq' if kind == 'hard' else 'vector'
        return {dict(k)[label]: int(v['count'])
                for k, v in parse_text(open(path).read(), key).items()}
    j = last_json(path)
    return {x['name']: x['count'] for x in j[key]}


def main():
    kind, before, after, secs, js = sys.argv[1:6]
    read = interrupts if kind == 'hard' else softirqs
    a, b = read(before), read(after)
    ft = counts(kind, js)
    delta = {k: b[k] - a.get(k, 0) for k in b}
    least = int(os.environ.get('IRQ_MIN', 2000 if kind == 'hard' else 100))
    driven, work = {}, {}
    for x in sys.argv[6:]:
        p = x.split(':')
        driven[p[0]] = int(p[1]) if len(p) > 1 else least
        work[p[0]] = int(p[2]) if len(p) > 2 else driven[p[0]]
    if not driven:
        driven = work = {max(delta, key=delta.get): least}
    bad = []
    for k in sorted(set(delta) | set(ft)):
        d, f = delta.get(k, 0), ft.get(k, 0)
        if not d and not f:
            continue
        # what the rest of the system adds at its rate in the bracket, over 2 s more
        slack = 3 + d / 100 + max(0, d - work.get(k, 0)) / float(secs) * 2
        if k not in driven:
            slack += 22
        print(k, 'kernel', d, 'ftscope', f)
        if not 0 <= f - d <= slack:
            bad.append('%s: kernel %d, ftscope %d, allowed +%d' % (k, d, f, slack))
    for k, n in driven.items():
        if delta.get(k, 0) < n:
            bad.append('%s: the workload drove only %d' % (k, delta.get(k, 0)))
    print('\n'.join('BAD ' + x for x in bad) or 'OK')


main()
