#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""rebuilt_check.py FT_JSON BT_OUT COMM [T0_NS T1_NS] [--bound=K=V ...]

ftscope runqlat's figures of all the threads it traced (its --json -L total; one must be
named COMM) against every latency bpftrace printed for the same thread ids in the same
run (tests/live/rebuilt.bt: by tid, so that a command's switch-ins before its exec count
on both sides), those whose
switch-in lies in [T0_NS, T1_NS] when given (CLOCK_MONOTONIC: a -p run's window).
Prints one line of both sets of figures; with bounds, fails (exit 1) on the first
figure off its bound: count=N (|ftscope - bpftrace| at most N), p50=US, p90=US,
p99=US, max=US (|difference| at most US microseconds), or pXX=US+PCT (US plus PCT % of
bpftrace's figure)."""
import json
import re
import sys


def rank(vals, p):
    """the value of nearest rank ceil(p * n) in sorted @vals"""
    k = max(1, -(-int(p * 1000) * len(vals) // 1000))
    return vals[min(k, len(vals)) - 1]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--bound")]
    bounds = [a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--bound=")]
    ftj, bto, comm = args[0], args[1], args[2]
    t0, t1 = (int(args[3]), int(args[4])) if len(args) > 4 else (0, 1 << 63)
    with open(ftj) as f:
        j = json.load(f)
    # every thread ftscope traced (the command's, or -p's), on both sides: ftscope's
    # total, bpftrace's latencies of the same thread ids
    tids = {g["tid"] for g in j["groups"]}
    if comm not in {g["comm"] for g in j["groups"]}:
        sys.exit("ftscope printed no thread named %s" % comm)
    tot = j["total"]
    ours = {"count": tot["count"], "p50": tot["p50_ns"], "p90": tot["p90_ns"],
            "p99": tot["p99_ns"], "max": tot["max_ns"]}
    lat = []
    with open(bto) as f:
        for line in f:
            m = re.match(r"@l\[(\d+), (\d+)\]: (\d+)", line)
            if m and int(m.group(1)) in tids and t0 <= int(m.group(2)) <= t1:
                lat.append(int(m.group(3)))
    if not lat:
        sys.exit("bpftrace printed no latency of %s" % comm)
    lat.sort()
    theirs = {"count": len(lat), "p50": rank(lat, 0.5), "p90": rank(lat, 0.9),
              "p99": rank(lat, 0.99), "max": lat[-1]}
    est = j.get("estimated", 0)
    print("ftscope/bpftrace: count %d/%d, p50 %.1f/%.1f, p90 %.1f/%.1f, p99 %.1f/%.1f, "
          "max %.1f/%.1f us; %d estimated" % (
              ours["count"], theirs["count"], ours["p50"] / 1e3, theirs["p50"] / 1e3,
              ours["p90"] / 1e3, theirs["p90"] / 1e3, ours["p99"] / 1e3,
              theirs["p99"] / 1e3, ours["max"] / 1e3, theirs["max"] / 1e3, est))
    for b in bounds:
        k, v = b.split("=")
        if k == "count":
            if abs(ours[k] - theirs[k]) > int(v):
                sys.exit("count %d, bpftrace %d (bound %s)" % (ours[k], theirs[k], v))
            continue
        us, _, pct = v.partition("+")
        lim = float(us) * 1e3 + float(pct or 0) / 100 * theirs[k]
        if abs(ours[k] - theirs[k]) > lim:
            sys.exit("%s %.1f us, bpftrace %.1f us (bound %.1f us)" % (
                k, ours[k] / 1e3, theirs[k] / 1e3, lim / 1e3))


if __name__ == "__main__":
    main()
