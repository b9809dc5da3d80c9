#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks for tests/live/runtime.sh: each thread's run time in ftscope's output
against the kernel's own count, which the workload prints ("NAME TID RUN_NS", from
/proc/self/task/TID/schedstat). Prints what it measured; exit status 1 on a failure."""
import re
import sys

from pct_check import steal_ms  # the host's steal over the run (STEAL_MS)


def kernel(path):
    """{tid: run ns} from the workload's own lines"""
    out = {}
    for line in open(path, errors='replace'):
        p = line.split()
        if len(p) == 3 and p[0] in ('hopper', 'busy') and p[1].isdigit() and p[2].isdigit():
            out[int(p[1])] = (p[0], int(p[2]))
    return out


def timehist(path):
    """{tid: run ns} from timehist's Runtime summary: comm[tid]  ppid  count  run-time"""
    out = {}
    for line in open(path, errors='replace'):
        m = re.match(r'^\s*(\S+)\[(\d+)(?:/\d+)?\]\s+-?\d+\s+\d+\s+(\d+\.\d{3})\s', line)
        if m:
            out[int(m.group(2))] = float(m.group(3)) * 1e6
    return out


def latency(path):
    """{tid: run ns} from latency --pids: comm:tid | runtime ms"""
    out = {}
    for line in open(path, errors='replace'):
        m = re.match(r'^\s+\S+:(\d+)\s+\|\s*(\d+\.\d{3}) ms \|', line)
        if m:
            out[int(m.group(1))] = float(m.group(2)) * 1e6
    return out


def marked(path, kind):
    """does the output say which run times rest on rebuilt switches, when it rebuilt any?"""
    text = open(path, errors='replace').read()
    m = re.search(r'(\d+) switch-ins reconstructed', text)
    if not m or m.group(1) == '0':
        return True
    if kind == 'timehist':
        return re.search(r'^\^N: N runs of the task start or end', text, re.M) is not None
    return 'latency: ^N: the run time of' in text


def main():
    kind, wl, path, tol = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    # the host's steal over the run (STEAL_MS, all CPUs: lib.sh's ft_steal): schedstat
    # leaves it out, switch-to-switch times keep it, so it is allowed above the tolerance
    steal = steal_ms() * 1e6
    want = kernel(wl)
    got = (timehist if kind == 'timehist' else latency)(path)
    msgs, ok = [], bool(want)
    for tid, (name, ns) in sorted(want.items()):
        if tid not in got:
            msgs.append(f'{name}[{tid}] missing')
            ok = False
            continue
        err = 100.0 * (got[tid] - ns) / ns
        msgs.append(f'{name}[{tid}] {got[tid] / 1e6:.1f}/{ns / 1e6:.1f} ms {err:+.1f}%')
        ok = ok and -tol <= err <= tol + 100.0 * steal / ns
    if steal:
        msgs.append(f'steal {steal / 1e6:.0f} ms')
    if not marked(path, kind):
        msgs.append('rebuilt switches not marked')
        ok = False
    print(('' if ok else f'off by more than {tol}%: ') + ', '.join(msgs or ['no threads']))
    sys.exit(0 if ok else 1)


main()
