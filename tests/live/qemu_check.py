#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks of the guest kernels' funccount and funclat runs against what the workload
knows (tests/live/qemu.sh, tests/live/qemu_graph.sh). Each check prints one line of
numbers and exits 0 when it holds, 1 with the reason on its last line otherwise.

  calls ZERO OUT N     funccount --json of tests/workloads/knowncalls 0 (ZERO) and
                       knowncalls N (OUT): exactly the calls the workload makes (below)
  naps OUT NAPS FUNC   funclat -u -F --json --min-us 1 FUNC of tests/workloads/napclock
                       (OUT: the slow-call list, then the report) against the
                       workload's own time of each of its naps (NAPS)
"""
import sys

from pct_check import json_rows, last_json  # the readers of --json output

# knowncalls N makes N getppid calls and N one-byte reads of /dev/zero. Its startup
# (the dynamic loader, glibc 2.36) adds one read() (libc's ELF header: ksys_read and
# vfs_read) and two pread64() (its program headers: vfs_read, not ksys_read), and no
# getppid and no /dev/zero: measured with N = 0 in 21 runs on 6.1 and 15 on 6.12,
# always these counts; N = 1000 gave N more of each in every run (2026-11-27).
STARTUP = {'ksys_read': 1, 'vfs_read': 3}
PER_N = {'__do_sys_getppid': 1, 'read_zero': 1, 'ksys_read': 1, 'vfs_read': 1}

# The kernel function runs inside the interval the workload times around its system
# call on the same clock (CLOCK_MONOTONIC, the trace clock mono), so ftscope's time of a
# call is at most the workload's. How much less (the gap: system call entry and exit,
# the probes' own work, QEMU's TCG) measured under TCG in 20 kprobe runs (6.1) and 14
# function_graph runs (6.12) of 20 naps, host loads of 2 to 118 (2026-11-27):
#   per call but the first: kprobe 17 .. 543 us, graph 13 .. 275 (all but 6 under 150)
#   the first call: kprobe 105 .. 873 us, graph 88 .. 294 (most likely the probes'
#     new code, which TCG translates when first run: napclock runs its own path once
#     before it times a nap)
#   mean: kprobe 38 .. 86 us, graph 28 .. 64; max: kprobe 44 .. 92, graph 41 .. 201
# Bounds: a call but the first, and the max, within 1000 us; the first call within
# 2000 us; the mean within 250 us. A call that ftscope makes 1% longer than the
# workload's fails at once (the 24 ms naps' gap is under 100 us); 3% shorter moves the
# mean 350 us and fails.
GAP_US = 1000
FIRST_GAP_US = 2000
# A run whose own naps came back more than STALL_US late (a 24 ms nap of 27.66 ms; in
# quiet runs up to 1.29 ms late) had its guest stalled by the host: there one
# call's gap may reach FIRST_GAP_US (a fresh root's such run: 1342 us, call 10, with the
# mean 209 us and every other call within 1000 us). 1500 us: a run beside the host's
# heavy steal had naps 1.86 .. 1.96 ms late with gaps of 662 .. 1006 us, their mean
# among the calm ones 286 us; above 1.5 ms late, the 12 calls left had a mean gap of 148
STALL_US = 1500
# And a call whose own nap came back more than STALL_US late was stalled itself: its gap
# may reach its lateness (the kernel function sleeps at least the nap asked, so ftscope's
# time of it is at least that: a right answer's gap is at most the lateness), and the
# mean is of the other calls (a fresh root under the host's heavy steal: 5 of 20 naps
# over 2 ms late, call 2 a 6 ms nap the workload timed at 10.55 ms, gap 3838 us; the
# other calls' mean gap 160 us). ftscope's own mean is then the listed calls' mean.
# That bound holds for every call: one whose nap came back 1.95 ms late (Debian 13's
# QEMU, 5.10) had a gap of 1516 us
MEAN_GAP_US = 250


def counts(path):
    """{function: count} of a funccount --json output, and its unmatched records"""
    j = last_json(path)
    return {f['name']: f['count'] for f in j['functions']}, j['unmatched']


def check_calls(zero, out, n):
    """both runs count exactly the calls the workload and its startup make"""
    n = int(n)
    runs = ((zero, 0), (out, n))
    seen = []
    for path, k in runs:
        got, unmatched = counts(path)
        want = {f: STARTUP.get(f, 0) + PER_N[f] * k for f in PER_N}
        want = {f: c for f, c in want.items() if c}	# funccount lists called ones
        seen.append('N=%d: %s' % (k, ', '.join('%s %d' % (f, got[f]) for f in sorted(got))))
        if got != want or unmatched:
            print('; '.join(seen))
            print('knowncalls %d: %s, %d unmatched; want %s' % (k, got, unmatched, want))
            return 1
    print('; '.join(seen))
    return 0


def bucket(ns):
    """the log2 bucket (in us, as funclat -u prints) of a duration"""
    return max(int(ns // 1000).bit_length() - 1, 0)


def check_naps(out, naps, func):
    """count, each call, the mean, the max and the histogram's buckets against the
    workload's own times"""
    j = last_json(out)
    # --min-us with --json: each call a row line before the report's
    rows = json_rows(out)
    lat = [r['latency_ns'] for r in rows]
    names = {r['func'] for r in rows}
    asked = [line.split() for line in open(naps) if line.startswith('nap ')]
    wl = [int(w[2]) for w in asked]
    lates = [int(w[2]) - int(w[1]) * 1000000 for w in asked]	# each nap's, ns
    late = max(lates, default=0)
    fn = [f for f in j['functions'] if f['name'] == func]
    if names != {func} or len(fn) != 1:
        print('functions listed %s, reported %s; want %s' %
              (sorted(names), [f['name'] for f in j['functions']], func))
        return 1
    h = fn[0]['hist']
    n = len(wl)
    if not n or len(lat) != n or h['count'] != n or j['total']['count'] != n:
        print('%d naps by the workload; ftscope listed %d calls, counted %d' %
              (n, len(lat), h['count']))
        return 1
    gaps = [(w - k) / 1000 for w, k in zip(wl, lat)]
    mean_gap = (sum(wl) / n - h['avg_ns']) / 1000
    max_gap = (max(wl) - h['max_ns']) / 1000
    # buckets: the workload's own, but a call whose time may lie either side of a
    # bucket's edge (within the gap allowed below its own) may count in either bucket:
    # each bucket between the calls surely in it and the calls that may be
    allowed = [FIRST_GAP_US] + [GAP_US] * (n - 1)
    if late > STALL_US * 1000 and n > 1:	# a stalled run: its largest gap but the first
        allowed[max(range(1, n), key=lambda i: gaps[i])] = FIRST_GAP_US
    stalled = [i for i in range(n) if lates[i] > STALL_US * 1000]
    for i in range(n):		# late itself: up to its own lateness
        allowed[i] = max(allowed[i], lates[i] / 1000)
    calm = [gaps[i] for i in range(n) if i not in stalled]
    if stalled and calm:	# the mean of the calls the host did not stall; ftscope's, the rows'
        mean_gap = sum(calm) / len(calm)
        if abs(h['avg_ns'] - sum(lat) / n) > 1000:
            print('ftscope\'s mean %.0f ns, its calls\' %.0f' % (h['avg_ns'], sum(lat) / n))
            return 1
    lo, hi, loose = {}, {}, 0
    for w, g in zip(wl, allowed):
        b, b_low = bucket(w), bucket(w - g * 1000)
        loose += b_low != b
        if b_low == b:
            lo[b] = lo.get(b, 0) + 1
        for k in range(b_low, b + 1):
            hi[k] = hi.get(k, 0) + 1
    got = {i: b['count'] for i, b in enumerate(h['buckets']) if b['count']}
    off = [i for i in set(got) | set(hi) if not lo.get(i, 0) <= got.get(i, 0) <= hi.get(i, 0)]
    print('%d calls; workload - ftscope per call %.1f .. %.1f us (the first %.1f), '
          'mean %.3f ms (workload %.3f), max %.3f ms (%.3f); buckets %s (%d near an edge); '
          'naps up to %.0f us late%s'
          % (n, min(gaps[1:] or gaps), max(gaps[1:] or gaps), gaps[0], h['avg_ns'] / 1e6,
             sum(wl) / n / 1e6, h['max_ns'] / 1e6, max(wl) / 1e6,
             'as the workload\'s' if not off else 'not as the workload\'s', loose,
             late / 1000, ' (stalled: one call to %d us; %d calls to their own lateness)' %
             (FIRST_GAP_US, len(stalled)) if late > STALL_US * 1000 else ''))
    bad = [i for i, g in enumerate(gaps) if g < 0 or g > allowed[i]]
    if bad:
        print('call %d: ftscope %.2f us, the workload %.2f us (gap allowed 0 .. %.0f us)' %
              (bad[0] + 1, lat[bad[0]] / 1000, wl[bad[0]] / 1000, allowed[bad[0]]))
        return 1
    if not 0 <= mean_gap <= MEAN_GAP_US or not 0 <= max_gap <= max(allowed[1:] or allowed):
        print('mean %.1f us, max %.1f us under the workload\'s (allowed 0 .. %d and 0 .. %.0f us)'
              % (mean_gap, max_gap, MEAN_GAP_US, max(allowed[1:] or allowed)))
        return 1
    if off:
        print('buckets (log2 us: count) %s, the workload\'s from %s to %s' % (got, lo, hi))
        return 1
    return 0


def main():
    """dispatch"""
    checks = {'calls': (check_calls, 3), 'naps': (check_naps, 3)}
    if len(sys.argv) < 2 or sys.argv[1] not in checks or \
       len(sys.argv) - 2 != checks[sys.argv[1]][1]:
        print(__doc__)
        return 2
    try:
        return checks[sys.argv[1]][0](*sys.argv[2:])
    except (OSError, ValueError, KeyError, IndexError) as e:
        print('cannot read the runs: %s: %s' % (type(e).__name__, e))
        return 1


if __name__ == '__main__':
    sys.exit(main())
