# SPDX-License-Identifier: GPL-2.0
"""ftscope hardirqs --dist -N --json against bpftrace's records of the same tracepoints in the
same run (tests/live/irq.sh).

  hardirq_check.py time JSON BT KEYS SKIPPED MIN:LO:HI:PLO:PHI:MORE
  hardirq_check.py dist JSON BT KEYS SKIPPED REPORT

BT is bpftrace's maps @e and @x [CPU, NS]: IRQ (irq_handler_entry and _exit; NS its nsecs,
CLOCK_MONOTONIC, ftscope's default trace clock), each under KEYS entries, read and cut to
ftscope's window as tests/live/softirq_check.py does (its load()). Over that window they
are paired by ftscope's rule (docs/irqs.md, analyzers/hardirqs.c): an entry opens its CPU,
the next exit on that CPU closes it, timed when its irq is the open one's.

SKIPPED is what bpftrace's two tracepoint programs were not run for, from its start to
ftscope's end (the recursion_misses of their fdinfo: another BPF program was running on
the CPU the interrupt came to), and bpftrace -k's warnings that it could not store one
add to it: each record bpftrace lacks that way is counted there.

time: every line that ftscope or bpftrace saw handled MIN times or more, one handler on
it, with softirq_check.py's judge(): ftscope's entries and timed pairs less bpftrace's in
0 .. SKIPPED + MORE% of bpftrace's, its mean in LO .. HI% and its p50 in PLO .. PHI% of
bpftrace's (nearest rank).

dist: the busiest handler's rows, sum, min, max and p50, p90, p99 (what --dist prints)
against the same run's records: REPORT is trace-cmd report -t of the run's -o file (the
kernel's records, read by another decoder), paired by the rule above. Rows, sum, min and
max equal those of the recording's times exactly; each percentile lies within 1/128 of
their nearest-rank value (output/hist.h: the middle of a slot 1/64 of its power of two
wide). That the recording holds the handlers bpftrace saw: each of bpftrace's handlers
of that line in the window is matched, one to one, by the recording's on its CPU whose
times overlap it (one handler runs at a time on a CPU; bpftrace's entry stamp comes
before ftrace's entry record and its exit stamp before ftrace's exit record), at most
SKIPPED of the recording's go unmatched, each exit record comes at or after bpftrace's
exit stamp, and the median delays behind bpftrace's stamps are under 3 us (measured
0.5-0.8 us; a host stall between the two makes a delay of up to 150 us, which is why
bpftrace's times are not the oracle for single handlers: 23% of the ratios lie outside
0.7 .. 1.0 though the distributions agree).

One line per handler (time) or two (dist: rows, percentiles), then OK or BAD lines.
"""
import re
import sys

from pct_check import nearest_rank  # the one nearest-rank percentile of the checks
from softirq_check import judge, load  # bpftrace's records cut to ftscope's window


def pair(recs):
    """ftscope's pairing over recs: entries and sorted handler times per irq"""
    n, time, run = {}, {}, {}
    for ns, cpu, kind, irq in recs:
        if kind == 'E':
            n[irq] = n.get(irq, 0) + 1
            run[cpu] = (irq, ns)
        elif kind == 'X':
            o = run.pop(cpu, None)
            if o and o[0] == irq:
                time.setdefault(irq, []).append(ns - o[1])
    return n, {k: sorted(v) for k, v in time.items()}


def below(vals, edge):
    """how many of sorted vals are <= edge"""
    lo, hi = 0, len(vals)
    while lo < hi:
        mid = (lo + hi) // 2
        if vals[mid] <= edge:
            lo = mid + 1
        else:
            hi = mid
    return lo


def handlers(j, n, time, skipped, spec):
    """time: each line handled MIN times or more against bpftrace's (judge()); bad"""
    least, *bounds = (float(x) for x in spec.split(':'))
    lines, bad = {}, []
    for h in j['hardirqs']:
        lines.setdefault(h['irq'], []).append(h)
    busy = [i for i in set(lines) | set(time)
            if max([len(time.get(i, []))] + [h['hist']['count'] for h in lines.get(i, [])])
            >= least]
    for i in sorted(busy):
        if len(lines.get(i, [])) != 1 or not time.get(i):
            bad.append('line %d: ftscope\'s handlers %s, bpftrace %d times'
                       % (i, [h['name'] for h in lines.get(i, [])], len(time.get(i, []))))
            continue
        # judge's MISSED, in % of bpftrace's times: the records it skipped, and MORE%
        missed = 100 * skipped / len(time[i]) + bounds[4]
        bad += judge('time', lines[i][0]['name'], lines[i][0], n.get(i, 0), time[i],
                     bounds[:4] + [missed])
    if not busy:
        bad.append('no line handled %d times' % least)
    return bad


def handlers_of(recs, irq):
    """ftscope's pairing over recs for one irq: {cpu: sorted (entry ns, exit ns)}"""
    out, run = {}, {}
    for ns, cpu, kind, i in recs:
        if kind == 'E':
            run[cpu] = (i, ns)
        elif kind == 'X':
            o = run.pop(cpu, None)
            if o and o[0] == i == irq:
                out.setdefault(cpu, []).append((o[1], ns))
    return {c: sorted(v) for c, v in out.items()}


def report(path):
    """trace-cmd report -t's irq_handler_entry/exit lines: sorted (ns, cpu, kind, irq)"""
    r = []
    for line in open(path):
        m = re.search(r'\[(\d+)\][^:]*?(\d+)\.(\d{9}): irq_handler_(entry|exit):\s+irq=(\d+)',
                      line)
        if m:
            r.append((int(m[2]) * 1000000000 + int(m[3]), int(m[1]),
                      'E' if m[4] == 'entry' else 'X', int(m[5])))
    return sorted(r)


def match(recs, rec, irq, skipped):
    """bpftrace's handlers of irq (recs) against the recording's (rec): its line, bad"""
    bt, ft = handlers_of(recs, irq), handlers_of(rec, irq)
    de, dx, used, bad, alone = [], [], set(), [], []
    for cpu, theirs in bt.items():
        ours = ft.get(cpu, [])
        starts = [h[0] for h in ours]
        for be, bx in theirs:
            i = below(starts, bx) - 1	# the latest of ours entered before bpftrace's exit
            if i < 0 or ours[i][1] < be or (cpu, i) in used:
                alone.append('CPU %d at %d ns (%d ns)' % (cpu, be, bx - be))
                continue
            used.add((cpu, i))
            de.append(ours[i][0] - be)
            dx.append(ours[i][1] - bx)
    if alone:
        bad.append('%d of bpftrace\'s handlers overlapped by none of the recording\'s: %s%s'
                   % (len(alone), ', '.join(alone[:3]), ' ...' if len(alone) > 3 else ''))
    n_ft = sum(len(v) for v in ft.values())
    if n_ft - len(used) > skipped:
        bad.append('%d of the recording\'s handlers not bpftrace\'s, %d skipped'
                   % (n_ft - len(used), skipped))
    if dx and min(dx) < 0:
        bad.append('an exit record %d ns before bpftrace\'s exit stamp' % -min(dx))
    de.sort()
    dx.sort()
    med = [nearest_rank(v, 50) if v else 0 for v in (de, dx)]
    if max(med) >= 3000:
        bad.append('median delays behind bpftrace\'s %d, %d ns (want < 3000)' % tuple(med))
    text = ('%d of bpftrace\'s %d handlers matched, of the recording\'s %d; delays behind '
            'bpftrace\'s stamps: entry median %d ns (max %d), exit median %d ns (max %d)'
            % (len(used), sum(len(v) for v in bt.values()), n_ft, med[0], de and de[-1] or 0,
               med[1], dx and dx[-1] or 0))
    return text, bad


def exact(h, rec, irq):
    """--dist's rows, sum, min, max and percentiles against the recording's times: line, bad"""
    vals = sorted(x - e for hs in handlers_of(rec, irq).values() for e, x in hs)
    if not vals:
        return 'the recording has none of its handlers', ['no handler in the recording']
    rows = [below(vals, b['high']) - below(vals, b['low'] - 1) for b in h['buckets']]
    bad = ['rows %s, the recording\'s %s' % ([b['count'] for b in h['buckets']], rows)] \
        if rows != [b['count'] for b in h['buckets']] or sum(rows) != len(vals) else []
    for key, want in (('count', len(vals)), ('sum_ns', sum(vals)), ('min_ns', vals[0]),
                      ('max_ns', vals[-1])):
        if h[key] != want:
            bad.append('%s %d, the recording\'s %d' % (key, h[key], want))
    text = []
    for pct in (50, 90, 99):
        got, want = h['p%d_ns' % pct], nearest_rank(vals, pct)
        text.append('p%d %d/%d ns' % (pct, got, want))
        if abs(got - want) > want / 128:
            bad.append('p%d %d ns, the recording\'s %d (1/128 allowed)' % (pct, got, want))
    return ('%d rows, %d handlers, sum %d ns, max %d ns as recorded; %s'
            % (len(rows), len(vals), sum(vals), vals[-1], ', '.join(text))), bad


def dist(j, recs, rep, skipped):
    """dist: the busiest handler's --dist against the recording, which bpftrace vouches for"""
    top = max(j['hardirqs'], key=lambda h: h['hist']['count'], default=None)
    if not top or [h['irq'] for h in j['hardirqs']].count(top['irq']) != 1:
        return ['the busiest handler: %s' % (top and top['name'])]
    rec, bad = report(rep), []
    for line, b in (exact(top['hist'], rec, top['irq']),
                    match(recs, rec, top['irq'], skipped)):
        print('%s: %s' % (top['name'], line))
        bad += [top['name'] + ': ' + x for x in b]
    return bad


def main():
    mode, js, bt, keys, skipped, spec = sys.argv[1:7]
    j, recs, bad, edge = load(js, bt, keys)
    if recs is None:
        print('\n'.join('BAD ' + x for x in bad))
        return
    failed = len(re.findall(r'WARNING: Failed to map_update_elem', open(bt).read()))
    n, time = pair(recs)
    print('bpftrace\'s window starts %d ns and ends %d ns before ftscope\'s records; '
          'it skipped %s records, failed to store %d' % (edge + (skipped, failed)))
    if mode == 'time':
        bad += handlers(j, n, time, int(skipped) + failed, spec)
    else:
        bad += dist(j, recs, spec, int(skipped) + failed)
    print('\n'.join('BAD ' + x for x in bad) or 'OK')


if __name__ == '__main__':
    main()
