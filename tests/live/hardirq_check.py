# SPDX-License-Identifier: GPL-2.0
"""ftscope hardirqs --dist -N --json against bpftrace's records of the same tracepoints in the
same run, and (dist) against the run's own recording as trace-cmd reads it (tests/live/irq.sh).

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
wide). That the recording holds the handlers bpftrace saw (bpftrace's records uncut
here): each of bpftrace's handlers of that line stamped within the recording's span on its
CPU (a record of that CPU at or before its entry stamp and one at or after its exit
stamp) is matched, one to one, by the recording's on that CPU whose times overlap it (one
handler runs at a time on a CPU; bpftrace's entry stamp comes before ftrace's entry
record and its exit stamp before ftrace's exit record); at least one matched, and at
most SKIPPED + 1.5% of the recording's (as time allows) go unmatched; no entry or exit
record comes before bpftrace's stamp, and the median delays behind bpftrace's stamps are
under 3 us (medians measured 0.45-0.76 us; a host stall between the two makes a delay of
up to 0.33 ms, which is why bpftrace's times are not the oracle for single handlers: 23%
of the ratios lie outside 0.7 .. 1.0 though the distributions agree).

One line per handler (time) or two (dist: against the recording, then the match), then
OK or BAD lines.
"""
import re
import sys
from bisect import bisect_right

from pct_check import nearest_rank  # the one nearest-rank percentile of the checks
from softirq_check import judge, load, records, trace_cmd  # bpftrace's records


def spans(recs):
    """ftscope's pairing over recs: entries per irq, and {irq: {cpu: [(entry ns, exit ns)]}}
    in time order"""
    n, out, run = {}, {}, {}
    for ns, cpu, kind, irq in recs:
        if kind == 'E':
            n[irq] = n.get(irq, 0) + 1
            run[cpu] = (irq, ns)
        elif kind == 'X':
            o = run.pop(cpu, None)
            if o and o[0] == irq:
                out.setdefault(irq, {}).setdefault(cpu, []).append((o[1], ns))
    return n, out


def pair(recs):
    """entries and sorted handler times per irq (spans())"""
    n, s = spans(recs)
    return n, {i: sorted(x - e for hs in c.values() for e, x in hs) for i, c in s.items()}


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


def report(path):
    """trace-cmd report -t's irq_handler_entry/exit lines: sorted (ns, cpu, kind, irq)"""
    return trace_cmd(path, {'irq_handler_entry': 'E', 'irq_handler_exit': 'X'}, 'irq')


def match(bt_recs, rec, irq, skipped):
    """bpftrace's handlers of irq (bt_recs, uncut) against the recording's (rec): line, bad"""
    bt, ft = spans(bt_recs)[1].get(irq, {}), spans(rec)[1].get(irq, {})
    span = {}	# each CPU's first and last record in the recording
    for ns, cpu, _, _ in rec:
        span[cpu] = (span.get(cpu, (ns, ns))[0], ns)
    de, dx, used, bad, alone, want = [], [], set(), [], [], 0
    for cpu, theirs in bt.items():
        ours = ft.get(cpu, [])
        starts = [h[0] for h in ours]
        for be, bx in theirs:
            # ftrace's records of it come after bpftrace's stamps, in the CPU's order
            if cpu not in span or not span[cpu][0] <= be or not bx <= span[cpu][1]:
                continue
            want += 1
            i = bisect_right(starts, bx) - 1	# the latest of ours entered before its exit
            if i < 0 or ours[i][1] < be or (cpu, i) in used:
                alone.append('CPU %d at %d ns (%d ns)' % (cpu, be, bx - be))
                continue
            used.add((cpu, i))
            de.append(ours[i][0] - be)
            dx.append(ours[i][1] - bx)
    if alone:
        bad.append('%d of bpftrace\'s handlers overlapped by none of the recording\'s: %s%s'
                   % (len(alone), ', '.join(alone[:3]), ' ...' if len(alone) > 3 else ''))
    # the recording's handlers but one entered at its CPU's first record (bpftrace stamped
    # it before that record, where the rule above asks for no match)
    n_ft = sum(fe > span[cpu][0] for cpu, v in ft.items() for fe, _ in v)
    # bpftrace's programs skip some interrupts and never add one, as the time check
    # allows: the skipped records and 1.5% more
    if not used or n_ft - len(used) > skipped + 0.015 * n_ft:
        bad.append('%d of the recording\'s %d handlers not bpftrace\'s (%d skipped, 1.5%% '
                   'more allowed)' % (n_ft - len(used), n_ft, skipped))
    de.sort()
    dx.sort()
    if de and de[0] < 0 or dx and dx[0] < 0:
        bad.append('a record before bpftrace\'s stamp: entry %d ns, exit %d ns'
                   % (de[0], dx[0]))
    med = [nearest_rank(v, 50) if v else 0 for v in (de, dx)]
    if max(med) >= 3000:
        bad.append('median delays behind bpftrace\'s %d, %d ns (want < 3000)' % tuple(med))
    text = ('%d of bpftrace\'s %d handlers in the recording\'s span matched, of the '
            'recording\'s %d; delays behind bpftrace\'s stamps: entry median %d ns (%d .. %d), '
            'exit median %d ns (%d .. %d)'
            % (len(used), want, n_ft, med[0], de and de[0] or 0, de and de[-1] or 0,
               med[1], dx and dx[0] or 0, dx and dx[-1] or 0))
    return text, bad


def exact(h, rec, irq):
    """--dist's rows, sum, min, max and percentiles against the recording's times: line, bad"""
    vals = pair(rec)[1].get(irq, [])
    if not vals:
        return 'the recording has none of its handlers', ['no handler in the recording']
    rows = [bisect_right(vals, b['high']) - bisect_right(vals, b['low'] - 1) for b in h['buckets']]
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


def dist(j, bt, rep, skipped):
    """dist: the busiest handler's --dist against the recording, which bpftrace vouches for"""
    top = max(j['hardirqs'], key=lambda h: h['hist']['count'], default=None)
    if not top or [h['irq'] for h in j['hardirqs']].count(top['irq']) != 1:
        return ['the busiest handler: %s' % (top and top['name'])]
    rec, bad = report(rep), []
    for line, b in (exact(top['hist'], rec, top['irq']),
                    match(records(bt)[0], rec, top['irq'], skipped)):
        print('%s: %s' % (top['name'], line))
        bad += [top['name'] + ': ' + x for x in b]
    return bad


def main():
    mode, js, bt, keys, skipped = sys.argv[1:6]
    j, recs, bad, edge = load(js, bt, keys)
    if recs is None:
        print('\n'.join('BAD ' + x for x in bad))
        return
    failed = len(re.findall(r'WARNING: Failed to map_update_elem', open(bt).read()))
    print('bpftrace\'s window starts %d ns and ends %d ns before ftscope\'s records; '
          'it skipped %s records, failed to store %d' % (edge + (skipped, failed)))
    if mode == 'time':
        n, time = pair(recs)
        bad += handlers(j, n, time, int(skipped) + failed, sys.argv[6])
    else:
        bad += dist(j, bt, sys.argv[6], int(skipped) + failed)
    print('\n'.join('BAD ' + x for x in bad) or 'OK')


if __name__ == '__main__':
    main()
