# SPDX-License-Identifier: GPL-2.0
"""ftscope softirqs --json against bpftrace's records of the same tracepoints in the same run
(tests/live/irq.sh).

  softirq_check.py time|raise JSON BT KEYS [skipped=N] [report=FILE] VEC:LO:HI:PLO:PHI:MISSED...

BT is bpftrace's maps @r, @e, @x [CPU, NS]: VEC (softirq_raise, _entry, _exit; NS its
nsecs, CLOCK_MONOTONIC, ftscope's default trace clock "mono"), each under KEYS entries
(a full map lost records). bpftrace ran before ftscope and ended after it: its records
are cut to ftscope's window, from its record of ftscope's first one (its latest at or
before JSON's start_ns: bpftrace's probe runs before ftrace's on each tracepoint, so its
stamp is the earlier) to its latest at or before time_ns (ftscope's last record). Over
that window they are paired by ftscope's rule (docs/irqs.md, analyzers/softirqs.c),
written again here:

  time   an entry opens its CPU; the next exit on that CPU closes it, timed when its
         vector is the open one's
  raise  a raise marks its vector pending on its own CPU from its first raise, and the
         last raise while pending is kept; an entry of a pending vector ends the wait
         from the first raise, and keeps the repeat for the vector's next entry, which
         takes it when nothing is pending then; else the entry counts as unraised

For each VEC (a name, as ftscope prints it): ftscope's count (entries and timed pairs
for time, latencies for raise) less bpftrace's in 0 .. MISSED percent of bpftrace's
(bpftrace's tracepoint programs skip some records, never add one) and the N records its
programs were not run for (skipped=N: their recursion_misses), ftscope's mean in LO .. HI
and its p50 (bpftrace's: nearest rank) in PLO .. PHI percent of bpftrace's. With
report=FILE (trace-cmd report -t of the run's -o file) the line says which of the
recording's entries bpftrace lacks: how many, the longest run of them in a row on one
CPU, and the first few (CPU, time), for a count out of bounds to be read.
One line per VEC, then OK or BAD lines.
"""
import re
import sys
from bisect import bisect_right

from pct_check import last_json, nearest_rank  # the one nearest-rank percentile and --json reader

# a line of trace-cmd report -t: CPU, seconds, ns, event, fields (an optional flags column
# between the CPU and the time; the comm before the CPU may hold brackets and colons)
TRACE_CMD = re.compile(r'\s\[(\d+)\]\s+(?:\S+\s+)?(\d+)\.(\d{9}): (\w+):\s*(.*)$')

NAMES = ['hi', 'timer', 'net_tx', 'net_rx', 'block', 'irq_poll', 'tasklet', 'sched',
         'hrtimer', 'rcu']


def records(path):
    """bpftrace's maps as (ns, cpu, kind, value) in time order, and each map's size"""
    r, size = [], {'R': 0, 'E': 0, 'X': 0}
    for line in open(path):
        m = re.match(r'@([rex])\[(\d+), (\d+)\]: (\d+)$', line)
        if m:
            r.append((int(m[3]), int(m[2]), m[1].upper(), int(m[4])))
            size[m[1].upper()] += 1
    r.sort()
    return r, size


def pair(recs):
    """ftscope's pairing over recs: entries, handler times, raise latencies per vector"""
    n, time, wait = {}, {}, {}
    run, pend, again, nxt, unraised = {}, {}, {}, {}, 0
    for ns, cpu, kind, v in recs:
        key = (cpu, v)
        if kind == 'R':
            if key in pend:
                again[key] = ns
            else:
                pend[key] = ns
        elif kind == 'E':
            n[v] = n.get(v, 0) + 1
            run[cpu] = (v, ns)
            if key in pend:
                wait.setdefault(v, []).append(ns - pend.pop(key))
                if key in again:
                    nxt[key] = again.pop(key)
                else:
                    nxt.pop(key, None)
            elif key in nxt:
                wait.setdefault(v, []).append(ns - nxt.pop(key))
            else:
                unraised += 1
        else:
            o = run.pop(cpu, None)
            if o and o[0] == v:
                time.setdefault(v, []).append(ns - o[1])
    return n, time, wait, unraised


def trace_cmd(path, kinds, field):
    """trace-cmd report -t's lines of the events in KINDS ({event: kind}): sorted (ns, cpu,
    kind, the value of FIELD)"""
    r = []
    for line in open(path):
        m = TRACE_CMD.search(line)
        f = m and m[4] in kinds and re.match(field + r'=(\d+)', m[5])
        if f:
            r.append((int(m[2]) * 1000000000 + int(m[3]), int(m[1]), kinds[m[4]], int(f[1])))
    return sorted(r)


def lacks(rec, bt, v):
    """the recording's entries (rec: trace_cmd()'s) of vector v that bpftrace's records (bt,
    uncut) lack: a line"""
    if not rec:
        return 'no softirq entries in the recording'
    theirs = {}
    for ns, cpu, kind, vec in bt:
        if kind == 'E' and vec == v:
            theirs.setdefault(cpu, []).append(ns)
    missing, longest, prev, row = [], 0, {}, {}
    for fe, cpu, _, vec in rec:
        if vec == v:
            # bpftrace's stamp comes first: one of its entries since the CPU's last
            bt_ns = theirs.get(cpu, [])
            k = bisect_right(bt_ns, fe) - 1
            if k >= 0 and bt_ns[k] > prev.get(cpu, 0):
                row[cpu] = 0
            else:
                missing.append('CPU %d at %d' % (cpu, fe))
                row[cpu] = row.get(cpu, 0) + 1
                longest = max(longest, row[cpu])
        prev[cpu] = fe
    return ('bpftrace lacks %d of the recording\'s entries (%d in a row at most)%s'
            % (len(missing), longest, missing and ': ' + ', '.join(missing[:4]) or ''))


def judge(mode, name, f, n, vals, bounds):
    """One vector: its line, and what is out of bounds (LO, HI, PLO, PHI, MISSED)"""
    lo, hi, plo, phi, missed = bounds
    h = f['hist']
    if mode == 'time':
        counts = [('entries', f['count'], n), ('timed', h['count'], len(vals))]
    else:
        counts = [('latencies', h['count'], len(vals))]
    fm, bm = h['avg_ns'], sum(vals) / len(vals)
    fp, bp = h['p50_ns'], nearest_rank(vals, 50)
    dm, dp = 100 * (fm - bm) / bm, 100 * (fp - bp) / bp
    print('%s: %s; mean %.0f/%.0f ns (%+.1f%%), p50 %.0f/%.0f ns (%+.1f%%)'
          % (name, ', '.join('%s %d/%d' % c for c in counts), fm, bm, dm, fp, bp, dp))
    bad = ['%s: %s ftscope %d, bpftrace %d, allowed 0 .. %g%% more' % (name, what, a, b, missed)
           for what, a, b in counts if not 0 <= a - b <= missed / 100 * b]
    bad += ['%s: %s %+.1f%% of bpftrace\'s, allowed %+g .. %+g%%' % (name, what, d, a, b)
            for what, d, a, b in (('mean', dm, lo, hi), ('p50', dp, plo, phi))
            if not a <= d <= b]
    return bad


def load(js, bt, keys):
    """ftscope's JSON (its last line), bpftrace's records cut to its window (None when
    bpftrace has none at or before ftscope's first), what makes them unlike, and the
    window's start and end before ftscope's first and last records, in ns"""
    j = last_json(js)
    recs, size = records(bt)
    bad = []
    if j.get('lost') or j.get('lost_unknown_count'):
        bad.append('ftscope lost records: no like for like')
    bad += ['bpftrace\'s @%s is full (%d entries)' % (k.lower(), s)
            for k, s in size.items() if s >= int(keys)]
    first = [r for r in recs if r[0] <= j['start_ns']]
    last = [r for r in recs if r[0] <= j['time_ns']]
    if not first:
        bad.append('bpftrace has no record at or before ftscope\'s first')
        return j, None, bad, None
    w0, w1 = first[-1][0], last[-1][0]
    recs = [r for r in recs if w0 <= r[0] <= w1]
    return j, recs, bad, (j['start_ns'] - w0, j['time_ns'] - w1)


def main():
    mode, js, bt, keys = sys.argv[1:5]
    j, recs, bad, edge = load(js, bt, keys)
    if recs is None:
        print('\n'.join('BAD ' + x for x in bad))
        return
    n, time, wait, unraised = pair(recs)
    print('bpftrace\'s window starts %d ns and ends %d ns before ftscope\'s records; '
          'unraised entries: ftscope %d, bpftrace %d'
          % (edge + (j.get('unraised_entries', -1), unraised)))
    ft = {x['name']: x for x in j['softirqs' if mode == 'time' else 'raise_to_entry']}
    opt = dict(a.split('=', 1) for a in sys.argv[5:] if '=' in a)
    if 'report' in opt:	# read once: the recording's entries, bpftrace's records uncut
        try:
            rec = trace_cmd(opt['report'], {'softirq_entry': 'E'}, 'vec')
        except OSError as e:
            rec = 'no recording to say which entries bpftrace lacks (%s)' % e.strerror
        uncut = records(bt)[0]
    for spec in (a for a in sys.argv[5:] if '=' not in a):
        name, *bounds = spec.split(':')
        v = NAMES.index(name)
        vals = sorted((time if mode == 'time' else wait).get(v, []))
        if name not in ft or not vals:
            bad.append('%s: ftscope %s, bpftrace %d' % (name, 'has it' if name in ft else 'none',
                                                         len(vals)))
            continue
        if 'report' in opt:
            print('%s: %s' % (name, rec if isinstance(rec, str) else lacks(rec, uncut, v)))
        bounds = [float(b) for b in bounds]
        bounds[4] += 100 * int(opt.get('skipped', 0)) / len(vals)	# MISSED, in %
        bad += judge(mode, name, ft[name], n.get(v, 0), vals, bounds)
    print('\n'.join('BAD ' + x for x in bad) or 'OK')


if __name__ == '__main__':
    main()
