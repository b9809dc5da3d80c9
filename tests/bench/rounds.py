# SPDX-License-Identifier: GPL-2.0
"""
rounds.py - results of a benchmark run in alternating rounds (slowdown_bench.sh,
unwind_bench.sh): lines "ROUND CONDITION VALUE [MORE...]", each condition once a round.
"""


def median(v):
    """median - the middle value (the mean of the two middle ones for an even count)"""
    v = sorted(v)
    return (v[(len(v) - 1) // 2] + v[len(v) // 2]) / 2


def read_rounds(path, conds, base):
    """read_rounds - {cond: {round: value}}, {cond: [the more fields, a list a line]}, and
    each condition's slowdown per round against the same round's @base run"""
    runs, more = {}, {}
    for line in open(path):
        r, c, v, *rest = line.split()
        runs.setdefault(c, {})[int(r)] = float(v)
        more.setdefault(c, []).append(rest)
    slow = {c: [runs[c][r] / runs[base][r] - 1 for r in runs[base]] for c in conds}
    return runs, more, slow
