# SPDX-License-Identifier: GPL-2.0
"""ftscope hardirqs --dist -N --json against bpftrace's records of the same tracepoints in the
same run (tests/live/irq.sh).

  hardirq_check.py time JSON BT KEYS SKIPPED MIN:LO:HI:PLO:PHI:MORE
  hardirq_check.py dist JSON BT KEYS SKIPPED SLO:SHI:K

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

dist: the busiest handler's rows and p50, p90, p99 (what --dist prints) against its
line's times in bpftrace. Model: each of ftscope's times is bpftrace's of the same
handler times 1 + s/100, SLO <= s <= SHI (bpftrace's probes run before ftrace's on each
tracepoint: its entry probe delays ftrace's entry record more than its exit probe the
exit, by an amount that grows as the VM slows), but for K times (a host stall between
bpftrace's stamp and ftrace's record lengthens one side's time) and the pairs bpftrace
missed (ftscope's count less bpftrace's). So at each row's upper edge E ftscope's rows
up to it hold at least bpftrace's times <= E / (1 + SHI/100) less K, and at most its
times <= E / (1 + SLO/100) plus K and the missed; each percentile, of rank r (nearest
rank of ftscope's count), lies between bpftrace's time of rank r less K and the missed,
times 1 + SLO/100, and its time of rank r + K times 1 + SHI/100. The max is not compared:
one stall on one side makes it.

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


def rows(h, vals, slo, shi, k):
    """the rows' cumulative counts at each upper edge against bpftrace's vals: its line, bad"""
    extra = max(0, h['count'] - len(vals))
    cum, bad, used = 0, [], 0
    for b in h['buckets']:
        cum += b['count']
        least = below(vals, b['high'] / (1 + shi / 100))
        most = below(vals, b['high'] / (1 + slo / 100)) + extra
        used = max(used, least - cum, cum - most)
        if not least - k <= cum <= most + k:
            bad.append('rows up to %d ns hold %d, bpftrace\'s times allow %d .. %d'
                       % (b['high'], cum, least - k, most + k))
    return ('%d rows, %d handlers: the sum up to each row in bpftrace\'s band, %d of the K '
            'outliers used' % (len(h['buckets']), cum, used)), bad


def percentiles(h, vals, slo, shi, k):
    """p50, p90 and p99 against bpftrace's vals: its line, bad"""
    extra = max(0, h['count'] - len(vals))
    text, bad = [], []
    for key, pct in (('p50', 50), ('p90', 90), ('p99', 99)):
        r = nearest_rank(range(1, h['count'] + 1), pct)
        lo = vals[min(len(vals), max(1, r - k - extra)) - 1] * (1 + slo / 100)
        hi = vals[min(len(vals), r + k) - 1] * (1 + shi / 100)
        got, theirs = h[key + '_ns'], nearest_rank(vals, pct)
        text.append('%s %d/%d ns (%+.1f%%)' % (key, got, theirs, 100 * (got - theirs) / theirs))
        if not lo <= got <= hi:
            bad.append('%s %d ns, bpftrace\'s allow %.0f .. %.0f' % (key, got, lo, hi))
    return 'ftscope/bpftrace ' + ', '.join(text), bad


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


def dist(j, time, spec):
    """dist: the busiest handler's rows and percentiles against bpftrace's times; bad"""
    slo, shi, k = (float(x) for x in spec.split(':'))
    top = max(j['hardirqs'], key=lambda h: h['hist']['count'], default=None)
    if not top or [h['irq'] for h in j['hardirqs']].count(top['irq']) != 1 or \
            not time.get(top['irq']):
        return ['the busiest handler: %s, bpftrace %d times'
                % (top and top['name'], len(time.get(top and top['irq'], [])))]
    bad = []
    for line, b in (rows(top['hist'], time[top['irq']], slo, shi, int(k)),
                    percentiles(top['hist'], time[top['irq']], slo, shi, int(k))):
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
        bad += dist(j, time, spec)
    print('\n'.join('BAD ' + x for x in bad) or 'OK')


if __name__ == '__main__':
    main()
