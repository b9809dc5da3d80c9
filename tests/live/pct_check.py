# SPDX-License-Identifier: GPL-2.0
"""Percentiles printed by ftscope against the exact nearest-rank percentiles of the
values the same run listed one by one (tests/live/funclat.sh and sched.sh).

  pct_check.py funclat FILE   text of `funclat --min-us 1 ...` (ns histogram): rows
                              of funcslower's list, LAT(us) with 2 decimals, and the
                              summary line "count N, avg A ns, p50 X ns, ..."
  pct_check.py wakeup FILE    JSON of `wakeup --top N --json ...`: slowest[] holds
                              every wakeup's latency_ns when N >= the count

The exact value is the one of rank ceil(n * p) in the sorted list. Prints one line and
exits 1 when a percentile is off by more than the documented bound, 1/128 (0.78%, inside
the 1% goal) of it, plus, for funclat, the rounding of the listed values. Both sides
come from the same values: no noise to allow for.
"""
import json
import re
import sys

PCTS = ((50, 'p50'), (90, 'p90'), (99, 'p99'))


def nearest_rank(vals, pct):
    """The nearest-rank percentile of sorted vals: rank ceil(n * pct / 100)."""
    rank = max(1, (len(vals) * pct + 99) // 100)
    return vals[rank - 1]


def compare(vals, got, slack):
    """Each printed percentile within 1/128 of the exact one, widened by slack ns."""
    vals.sort()
    bad, worst, text = [], 0.0, []
    for pct, key in PCTS:
        exact = nearest_rank(vals, pct)
        off = abs(got[key] - exact)
        worst = max(worst, off / exact)
        text.append(f'{key} {got[key]} vs {exact}')
        if off > (exact + slack) / 128 + slack:
            bad.append(key)
    line = f'{len(vals)} values: ' + ', '.join(text) + f' ns; worst {100 * worst:.3f}% off'
    return bad, line


def funclat(path):
    """funcslower's rows and the ns summary of one funclat run."""
    vals, got, count = [], None, None
    for line in open(path):
        f = line.split()
        if len(f) == 6 and re.fullmatch(r'\d+\.\d{6}', f[0]) and f[5].endswith(':busy_wait'):
            # LAT(us) has 2 decimals: the value to 10 ns, so within 5 ns of the truth
            vals.append(round(float(f[3]) * 1000))
        m = re.match(r'count (\d+), avg \d+ ns, p50 (\d+) ns, p90 (\d+) ns, '
                     r'p99 (\d+) ns, max (\d+) ns$', line)
        if m:
            count = int(m.group(1))
            got = dict(zip(('p50', 'p90', 'p99', 'max'), map(int, m.group(2, 3, 4, 5))))
    if got is None or count != len(vals) or count < 1000:
        return ['list'], f'{len(vals)} calls listed, summary count {count} (want equal, >= 1000)'
    # a listed value v stands for a true one in [v - 5, v + 5] ns: so does the exact rank's
    bad, line = compare(vals, got, 5)
    if abs(got['max'] - max(vals)) > 5:
        bad.append('max')
    return bad, line + f"; max {got['max']} vs {max(vals)}"


def wakeup(path):
    """Every wakeup's exact latency_ns (--top) and the total histogram's percentiles."""
    j = json.load(open(path))
    tot = j['total']
    vals = [s['latency_ns'] for s in j['slowest']]
    if tot['count'] != len(vals) or len(vals) < 1000:
        return ['list'], f"{len(vals)} wakeups listed, count {tot['count']} (want equal, >= 1000)"
    return compare(vals, {k: tot[k + '_ns'] for _, k in PCTS}, 0)


def main():
    bad, line = {'funclat': funclat, 'wakeup': wakeup}[sys.argv[1]](sys.argv[2])
    print(('off: ' + ' '.join(bad) + '; ' if bad else '') + line)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
