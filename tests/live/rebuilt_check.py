#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""rebuilt_check.py FT_JSON BT_OUT COMM [T0_NS T1_NS [FT_DAT]] [--bound=K=V ...]

ftscope runqlat's figures of all the threads it traced (its --json -L total; COMM names
them in messages) against every latency bpftrace printed for the same thread ids in the same
run (tests/live/rebuilt.bt: by tid, so that a command's switch-ins before its exec count
on both sides), those whose
switch-in lies in [T0_NS, T1_NS] when given (CLOCK_MONOTONIC: a -p run's window).
Prints one line of both sets of figures; with bounds, fails (exit 1) on the first
figure off its bound. count=N: ftscope's count minus bpftrace's in -(N + U) .. N + M,
where U is the latencies ftscope says it could not measure ("unmeasured") and M the
switch-ins bpftrace itself missed (it saw the thread switch out where it had not seen
it switched in: that latency is missing from the oracle). pXX=US or pXX=US+PCT (max
too): ftscope's figure within US microseconds (plus PCT % of bpftrace's figure) of
bpftrace's values N + M + U + S ranks either side of that rank; the max is not compared
when bpftrace missed a switch-in, or S > 0: with FT_DAT, ftscope's recording, S is the
switch-ins of the same threads that ftrace recorded more than 20 us from any bpftrace
saw (both probes run in one call of the tracepoint, one after the other, so only the
host taking the vCPU away between them parts them: 1.5 ms once, with the task's next
record 3 us after ftrace's)."""
import bisect
import json
import re
import subprocess
import sys


def rank(vals, p):
    """the value of nearest rank ceil(p * n) in sorted @vals"""
    k = max(1, -(-int(p * 1000) * len(vals) // 1000))
    return vals[min(k, len(vals)) - 1]


def skewed(dat, tids, seen):
    """the switch-ins of @tids in the recording @dat with no bpftrace switch-in (@seen,
    by tid) within 20 us"""
    out = subprocess.run(["trace-cmd", "report", "-t", dat], capture_output=True,
                         text=True, check=True).stdout
    for v in seen.values():
        v.sort()
    n = 0
    for m in re.finditer(r"\s(\d+)\.(\d{9}): sched_switch: .* ==> .*?:(\d+) \[", out):
        tid, ts = int(m.group(3)), int(m.group(1)) * 10**9 + int(m.group(2))
        v = seen.get(tid, [])
        i = bisect.bisect_left(v, ts)
        near = [abs(v[k] - ts) for k in (i - 1, i) if 0 <= k < len(v)]
        if tid in tids and (not near or min(near) > 20000):
            n += 1
    return n


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--bound")]
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
            "p99": tot["p99_ns"], "max": tot["max_ns"]}
    lat = []
    miss = 0
    seen = {}
    with open(bto) as f:
        for line in f:
            m = re.match(r"@sw\[(\d+), (\d+)\]: ", line)
            if m and int(m.group(1)) in tids:
                seen.setdefault(int(m.group(1)), []).append(int(m.group(2)))
            m = re.match(r"@l\[(\d+), (\d+)\]: (\d+)", line)
            if m and int(m.group(1)) in tids and t0 <= int(m.group(2)) <= t1:
                lat.append(int(m.group(3)))
            m = re.match(r"@miss\[(\d+)\]: (\d+)", line)
            if m and int(m.group(1)) in tids:
                miss += int(m.group(2))
    if not lat:
        sys.exit("bpftrace printed no latency of %s" % comm)
    lat.sort()
    n = len(lat)
    skew = skewed(dat, tids, seen) if dat else 0
    theirs = {"count": n, "p50": rank(lat, 0.5), "p90": rank(lat, 0.9),
              "p99": rank(lat, 0.99), "max": lat[-1]}
    print("ftscope/bpftrace: count %d/%d, p50 %.1f/%.1f, p90 %.1f/%.1f, p99 %.1f/%.1f, "
          "max %.1f/%.1f us; %d estimated, %d unmeasured; bpftrace missed %d switch-ins, "
          "%d apart" % (
              ours["count"], n, ours["p50"] / 1e3, theirs["p50"] / 1e3,
              ours["p90"] / 1e3, theirs["p90"] / 1e3, ours["p99"] / 1e3,
              theirs["p99"] / 1e3, ours["max"] / 1e3, theirs["max"] / 1e3,
              j.get("estimated", 0), j.get("unmeasured", 0), miss, skew))
    bounds = dict(b.split("=", 1) for b in bounds)
    # ranks apart: the counts may differ by the count bound (a run's edges); ftscope may
    # hold the latencies of switch-ins bpftrace missed, and leaves out those it says it
    # could not measure
    slack = int(bounds.get("count", 0))
    unmeasured = j.get("unmeasured", 0)
    d = slack + miss + unmeasured + skew
    for k, v in bounds.items():
        if k == "count":
            if not -(slack + unmeasured) <= ours[k] - n <= slack + miss:
                sys.exit("count %d, bpftrace %d (bound -%d .. +%d)" % (
                    ours[k], n, slack + unmeasured, slack + miss))
            continue
        us, _, pct = v.partition("+")
        tol = float(us) * 1e3 + float(pct or 0) / 100 * theirs[k]
        if k == "max" and (miss or skew):
            print("max not compared: bpftrace missed %d switch-ins, %d apart" % (miss, skew))
            continue
        r = n if k == "max" else max(1, -(-int(k[1:]) * n // 100))
        lo, hi = lat[max(1, r - d) - 1] - tol, lat[min(n, r + d) - 1] + tol
        if not lo <= ours[k] <= hi:
            sys.exit("%s %.1f us, bpftrace %.1f us (bound %.1f .. %.1f us: ranks +-%d, "
                     "+-%.1f us)" % (k, ours[k] / 1e3, theirs[k] / 1e3, lo / 1e3,
                                     hi / 1e3, d, tol / 1e3))


if __name__ == "__main__":
    main()
