#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""rebuilt_check.py FT_JSON BT_OUT COMM [T0_NS T1_NS [FT_DAT]] [--wakeup] [--bound=K=V ...]

ftscope runqlat's (--wakeup: wakeup's) figures of all the threads it traced (its --json -L
total; COMM names them in messages) against every latency bpftrace printed for the same
thread ids in the same run (tests/live/rebuilt.bt: by tid, so that a command's switch-ins before its exec
count on both sides), those whose switch-in lies in [T0_NS, T1_NS] when given
(CLOCK_MONOTONIC: a -p run's window). Prints one line of both sets of figures; with
bounds, fails (exit 1) on the first figure off its bound.

Neither side sees every event here, and each says which it missed; those widen the
comparison, never silently:
  E (ftscope may hold latencies bpftrace has not): switch-ins bpftrace missed (it saw
    the thread switch out where it had not seen it switched in), and, with FT_DAT
    (ftscope's recording, read by trace-cmd), wakeups ftrace recorded and bpftrace did
    not within 50 us (a BPF program does not run while another runs on that CPU), and
    switch-ins whose two records lie more than 50 us apart (both probes run in one call
    of the tracepoint, so only the host taking the vCPU between them parts them: once
    1.5 ms, with the task's next record 3 us after ftrace's);
  F (ftscope may lack latencies bpftrace has): latencies ftscope says it did not
    measure ("unmeasured"), wakeups bpftrace saw that ftrace did not record;
  both: bpftrace's probes that took over 20 us (@slow): ftrace's probe runs after it,
    so that record, and a rebuilt switch-in's evidence after it, come that much later
    (106 us once, inside a run of 200 switches).
count=N: ftscope's count minus bpftrace's in -(N + F) .. N + E. missed=N+PCT: what rests
on ftscope's side (its unmeasured latencies, and its recording's events without
bpftrace's or bpftrace's without its recording's) at most N plus PCT % of bpftrace's count
(the widening is bounded: an ftscope that left most latencies unmeasured fails here), less
those ftscope says it left unmeasured before it had learned how long an idle CPU takes a
woken task ("unmeasured_before_learned", at most its unmeasured ones: the start of a run,
a cause it names, 16 at most: the chain learns from 16 recorded delays, and one that never
learned would leave more; a fresh root's hopper run had 8 of its 8 there, 12 in all
against 11);
bpftrace's own reports (@miss, @slow) widen without a bound (52 slow probes of 500
switches were seen once, with figures still equal). pXX=US or pXX=US+PCT (max too): ftscope's figure
within US microseconds (plus PCT % of bpftrace's figure) of bpftrace's values N + E + F
ranks either side of that rank, and above, of bpftrace's values with each switch-in the
recording holds apart ended at ftrace's record instead (ftscope's end: a CI run's p99 of
371 us against bpftrace's max of 280 us, 5 switch-ins apart); the max is not compared
when E > 0, and above it may reach a latency of bpftrace's plus how long after its
switch-in the task's next record of its own came, where the recording lacks that
switch-in (ftscope rebuilds it before that record: a max of 316 us against bpftrace's 75
once, one switch-in rebuilt on CPU 0). avg=US+PCT: the sum
of ftscope's latencies within US per latency plus PCT % of bpftrace's sum, and beyond
that, up to N + E latencies more (each at most the largest bpftrace saw, or the
recording's longest wakeup or preemption -> the task's next record; bpftrace's slow probes move
theirs by the probe's time instead) or N + F fewer (bpftrace's
largest). rows=US+PCT: each histogram row, as its cumulative count (the rows up to
it): ftscope's within bpftrace's count of latencies below the row's upper edge once
each is moved by US plus PCT % of it either way, and N + E + F more either side."""
import bisect
import json
import re
import subprocess
import sys

from pct_check import nearest_rank  # the one nearest-rank percentile of the checks


def unmatched(dat, tids, seen, woken):
    """events of @tids that one side has and the other has not within 50 us (bpftrace's
    probe, which runs before ftrace's, takes 2-24 us here, median 7 us): ftrace's
    switch-ins (recording @dat) without bpftrace's (@seen, by tid), ftrace's wakeups
    without bpftrace's (@woken) and bpftrace's wakeups without ftrace's"""
    out = subprocess.run(["trace-cmd", "report", "-t", dat], capture_output=True,
                         text=True, check=True).stdout
    ft_sw, ft_wk, ready = {}, {}, {}
    for m in re.finditer(r"\s(\d+)\.(\d{9}): (sched_switch|sched_wakeup|sched_wakeup_new):"
                         r" +(.*)", out):
        ts = int(m.group(1)) * 10**9 + int(m.group(2))
        if m.group(3) == "sched_switch":
            # preempted (R): runnable from here, a latency's start as a wakeup is
            pre = re.match(r".*?:(\d+) \[\d+\] R\+? ==> ", m.group(4))
            if pre and int(pre.group(1)) in tids:
                ready.setdefault(int(pre.group(1)), []).append(ts)
            tid = re.search(r"==> .*?:(\d+) \[", m.group(4))
            side = ft_sw
        else:
            tid = re.match(r".*?:(\d+) \[", m.group(4))
            side = ft_wk
        if tid and int(tid.group(1)) in tids:
            side.setdefault(int(tid.group(1)), []).append(ts)
    # each wakeup or preemption to the task's next record of its own (it runs then): the
    # longest latency either can have started, from the recording alone (a sleeper
    # preempted by tokio-rt-worker, whose switches neither tool records, waited 2.4 ms
    # once: a latency bpftrace missed, ftscope right)
    own, gap = {}, 0
    for m in re.finditer(r"-(\d+) +\[\d+\] +(\d+)\.(\d{9}): ", out):
        if int(m.group(1)) in tids:
            own.setdefault(int(m.group(1)), []).append(int(m.group(2)) * 10**9 +
                                                       int(m.group(3)))
    for tid in set(ft_wk) | set(ready):
        w = sorted(own.get(tid, []))
        for ts in ft_wk.get(tid, []) + ready.get(tid, []):
            i = bisect.bisect_right(w, ts)
            gap = max(gap, w[i] - ts if i < len(w) else 0)
    t0 = min([v for l in list(ft_sw.values()) + list(ft_wk.values()) for v in l] or [0])
    t1 = max([v for l in list(ft_sw.values()) + list(ft_wk.values()) for v in l] or [0])

    def alone(a, b, lo=0, hi=1 << 63):
        """the events of @a (by tid) in [lo, hi] with none of @b within 50 us"""
        n = 0
        for tid, v in a.items():
            w = sorted(b.get(tid, []))
            for ts in v:
                i = bisect.bisect_left(w, ts)
                near = [abs(w[k] - ts) for k in (i - 1, i) if 0 <= k < len(w)]
                n += lo <= ts <= hi and (not near or min(near) > 50000)
        return n
    return (alone(ft_sw, seen), alone(ft_wk, woken), alone(woken, ft_wk, t0, t1), gap,
            ft_sw, own)


def latest(lats, ft_sw, own, rebuilt=True):
    """the largest each latency of bpftrace's (@lats: tid, switch-in, value) can be as
    ftscope times it, sorted: where the recording holds the switch-in apart from
    bpftrace's (over 50 us after it, before the task's next record of its own, @own: the
    host held the vCPU between the two probes of one call), ftrace's record ends it;
    with @rebuilt, where the recording lacks it, ftscope rebuilds it before that record
    of its own, so its value may be later than bpftrace's by at most that record's
    distance from it (a way back to user space that long, or an interrupt on it); the
    value itself where the switch-in was recorded within 50 us"""
    top = []
    for tid, at, v in lats:
        w = sorted(ft_sw.get(tid, []))
        i = bisect.bisect_left(w, at)
        late = 0
        if not any(0 <= k < len(w) and abs(w[k] - at) <= 50000 for k in (i - 1, i)):
            o = sorted(own.get(tid, []))
            j = bisect.bisect_right(o, at)
            if i < len(w) and (j == len(o) or w[i] <= o[j]):
                late = w[i] - at	# no record of its own before: this switch-in's
            elif rebuilt and j < len(o):
                late = o[j] - at
        top.append(v + late)
    return sorted(top)


def sum_check(tot, lat, us, pct, more, fewer, shift, gap):
    """ftscope's sum of latencies (@tot, its JSON total) against bpftrace's (@lat): each
    latency within @us ns plus @pct of it, and @shift ns more (bpftrace's slow probes);
    ftscope may hold @more latencies bpftrace has not, each at most bpftrace's largest or
    @gap, the recording's longest wakeup or preemption -> the task's next record (never
    ftscope's own max, which would widen the bound by the figure under test), and lack
    @fewer (bpftrace's largest)"""
    n, ours, theirs = len(lat), tot["sum_ns"], sum(lat)
    tol = us * n + pct * theirs + shift
    lo = theirs - tol - sum(lat[n - min(n, fewer):])
    hi = theirs + tol + more * max(lat[-1], gap)
    if not lo <= ours <= hi:
        sys.exit("avg %.1f us (sum %.3f ms), bpftrace %.1f us (sum %.3f ms; bound %.3f .. "
                 "%.3f ms)" % (tot["avg_ns"] / 1e3, ours / 1e6, theirs / n / 1e3,
                               theirs / 1e6, lo / 1e6, hi / 1e6))


def rows_check(buckets, lat, us, pct, d):
    """ftscope's histogram rows (@buckets: low and high in whole us, log2 as BCC's) as
    cumulative counts against bpftrace's latencies @lat below each row's upper edge, each
    latency moved by @us ns plus @pct of it either way, and @d ranks either side"""
    cum = 0
    for b in buckets:
        cum += b["count"]
        edge = (b["high"] + 1) * 1000
        lo = sum(1 for v in lat if v + us + pct * v < edge)
        hi = sum(1 for v in lat if v - us - pct * v < edge)
        if not lo - d <= cum <= hi + d:
            sys.exit("rows up to %d us: %d latencies, bpftrace %d .. %d (+-%d ranks)" % (
                b["high"], cum, lo, hi, d))


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    kind = "v" if "--wakeup" in sys.argv else "l"
    # pylint: disable=too-many-locals
    bounds = [a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--bound=")]
    ftj, bto, comm = args[0], args[1], args[2]
    t0, t1 = (int(args[3]), int(args[4])) if len(args) > 4 else (0, 1 << 63)
    dat = args[5] if len(args) > 5 else None
    with open(ftj) as f:
        j = json.load(f)
    # every thread ftscope traced (the command's, or -p's), on both sides: ftscope's
    # total, bpftrace's latencies of the same thread ids
    tids = {g["tid"] for g in j["groups"]}
    if not tids:
        sys.exit("ftscope printed no thread (%s)" % comm)
    tot = j["total"]
    ours = {"count": tot["count"], "p50": tot["p50_ns"], "p90": tot["p90_ns"],
            "p99": tot["p99_ns"], "max": tot["max_ns"], "avg": tot["avg_ns"]}
    lat, lats = [], []
    miss = slow = slow_ns = parted = 0
    seen, woken = {}, {}
    with open(bto) as f:
        for line in f:
            m = re.match(r"@(sw|wk)\[(\d+), (\d+)\]: ", line)
            if m and int(m.group(2)) in tids:
                (seen if m.group(1) == "sw" else woken).setdefault(
                    int(m.group(2)), []).append(int(m.group(3)))
            m = re.match(r"@%s\[(\d+), (\d+)\]: (\d+)" % kind, line)
            if m and int(m.group(1)) in tids and t0 <= int(m.group(2)) <= t1:
                lat.append(int(m.group(3)))
                lats.append((int(m.group(1)), int(m.group(2)), int(m.group(3))))
            m = re.match(r"@miss\[(\d+)\]: (\d+)", line)
            if m and int(m.group(1)) in tids:
                miss += int(m.group(2))
            m = re.match(r"@slow\[(\d+), (\d+)\]: (\d+)", line)
            if m and int(m.group(1)) in tids and t0 <= int(m.group(2)) <= t1:
                slow += 1
                slow_ns += int(m.group(3))
                parted += int(m.group(3)) > 50000
    if not lat:
        sys.exit("bpftrace printed no latency of %s" % comm)
    lat.sort()
    n = len(lat)
    skew, bt_nowk, ft_nowk, gap, ft_sw, own = (unmatched(dat, tids, seen, woken) if dat else
                                               (0, 0, 0, 0, {}, {}))
    theirs = {"count": n, "p50": nearest_rank(lat, 50), "p90": nearest_rank(lat, 90),
              "p99": nearest_rank(lat, 99), "max": lat[-1], "avg": sum(lat) / n}
    print("ftscope/bpftrace: count %d/%d, avg %.1f/%.1f, p50 %.1f/%.1f, p90 %.1f/%.1f, "
          "p99 %.1f/%.1f, max %.1f/%.1f us; %d estimated, %d unmeasured; bpftrace missed %d switch-ins "
          "and %d wakeups, ftrace %d wakeups; %d switch-ins apart, %d slow probes" % (
              ours["count"], n, ours["avg"] / 1e3, theirs["avg"] / 1e3,
              ours["p50"] / 1e3, theirs["p50"] / 1e3,
              ours["p90"] / 1e3, theirs["p90"] / 1e3, ours["p99"] / 1e3,
              theirs["p99"] / 1e3, ours["max"] / 1e3, theirs["max"] / 1e3,
              j.get("estimated", 0), j.get("unmeasured", 0), miss, bt_nowk, ft_nowk, skew,
              slow))
    bounds = dict(b.split("=", 1) for b in bounds)
    # ranks apart: the counts may differ by the count bound (a run's edges); ftscope may
    # hold the latencies of switch-ins bpftrace missed, and leaves out those it says it
    # could not measure
    slack = int(bounds.get("count", 0))
    unmeasured = j.get("unmeasured", 0)
    # a slow probe of bpftrace's delays ftrace's record after it: the latency it starts
    # or ends moves, one way or the other
    extra = miss + bt_nowk + skew + slow	# ftscope may have latencies bpftrace has not
    fewer = unmeasured + ft_nowk + slow	# ftscope may lack latencies bpftrace has
    d = slack + extra + fewer
    # the percentiles' only where the recording holds the switch-in apart (a rebuilt one
    # is bounded by the calibrated figures above); the max's where it is rebuilt too
    late, late_max = latest(lats, ft_sw, own, False), latest(lats, ft_sw, own)
    for k, v in bounds.items():
        if k == "missed":
            # what rests on ftscope's side: its unmeasured latencies, and what the
            # recording shows against bpftrace's events; bpftrace's own reports (@miss,
            # @slow) widen the comparison without a bound: the oracle's noise, not ours
            # a probe of bpftrace's over 50 us parts the two records of one event by
            # more than the match window: the event then looks missed on one side and
            # the other (a wakeup) or apart (a switch-in), two at most; those are the
            # oracle's too (make check once: 15 such with 10 such probes, every figure
            # equal)
            # at most FT_GAP_MIN (16): a chain that never learned would leave more
            learning = j.get("unmeasured_before_learned", 0)
            if not 0 <= learning <= min(unmeasured, 16):
                sys.exit("%d unmeasured before the idle delay was learned, of %d unmeasured" %
                         (learning, unmeasured))
            ours_missed = unmeasured - learning + max(0, ft_nowk + skew + bt_nowk - 2 * parted)
            most, _, pct = v.partition("+")
            lim = int(most) + float(pct or 0) / 100 * n
            if ours_missed > lim:
                sys.exit("%d latencies ftscope or its recording missed (%d unmeasured, %d of "
                         "them before the idle delay was learned, not counted), more than %.0f" %
                         (ours_missed, unmeasured, learning, lim))
            continue
        if k == "count":
            if not -(slack + fewer) <= ours[k] - n <= slack + extra:
                sys.exit("count %d, bpftrace %d (bound -%d .. +%d)" % (
                    ours[k], n, slack + fewer, slack + extra))
            continue
        us, _, pct = v.partition("+")
        if k == "avg":
            sum_check(tot, lat, float(us) * 1e3, float(pct or 0) / 100,
                      slack + miss + bt_nowk + skew, slack + unmeasured + ft_nowk, slow_ns,
                      gap)
            continue
        if k == "rows":
            rows_check(tot["buckets"], lat, float(us) * 1e3, float(pct or 0) / 100, d)
            continue
        tol = float(us) * 1e3 + float(pct or 0) / 100 * theirs[k]
        if k == "max" and extra:
            print("max not compared: ftscope may have %d latencies bpftrace has not" % extra)
            continue
        r = n if k == "max" else max(1, -(-int(k[1:]) * n // 100))
        # above, a switch-in the recording holds apart ends at ftrace's record (a p99 of
        # 371 us beyond the ranks' reach once), a rebuilt one (the max) before its evidence
        lo = lat[max(1, r - d) - 1] - tol
        top = late_max if k == "max" else late
        hi = max(lat[min(n, r + d) - 1], top[min(n, r + d) - 1]) + tol
        if not lo <= ours[k] <= hi:
            sys.exit("%s %.1f us, bpftrace %.1f us (bound %.1f .. %.1f us: ranks +-%d, "
                     "+-%.1f us)" % (k, ours[k] / 1e3, theirs[k] / 1e3, lo / 1e3,
                                     hi / 1e3, d, tol / 1e3))


if __name__ == "__main__":
    main()
