#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""cpudist checks (tests/live/cpudist.sh) against runlens's own clock: its runner makes
RUNS runs of known lengths (timed by itself) between 1 ms naps, SCHED_FIFO beside a
SCHED_IDLE filler on one CPU. Each command prints a summary; exit 1 when the check
fails, 2 when the runner was preempted (a run split: run again)."""
import sys

from pct_check import last_json
from pct_check import runlens_own  # the one reader of runlens's own lines
from pct_check import steal_ms  # the host's steal over the run (STEAL_MS)

MS = 1000000


def own(path):
    """the runner's own run lengths (ns) (pct_check.runlens_own: exit 2 when its runs
    were split or merged)"""
    r = runlens_own(path)
    if r is None:
        sys.exit("runlens printed no runner line: %s" % open(path).read()[:200])
    return r[1]


def runner(path):
    """the runner's histogram in cpudist -L --json"""
    for g in last_json(path)["groups"]:
        if g["comm"] == "runner":
            return g["hist"]
    sys.exit("no runner in %s" % path)


def check(ok, what):
    """fail with @what unless @ok"""
    if not ok:
        sys.exit(what)


def runs(self_path, out_path):
    """on-CPU: one stay per run; the sum, min and max of the stays within the runs' own
    plus the way into and out of nanosleep around them (6 .. 20 us a run measured by
    timehist on the same runs: 70 us allowed; the last run ends at the thread's exit,
    its end 154 .. 180 us later: 1 ms allowed in the sum)"""
    mine = own(self_path)
    h = runner(out_path)
    n = len(mine)
    # the runs are the stays of 2 ms and more; the thread's exit may add one short stay
    # after its last run (a fresh root: blocked 9 us, then 18 us more)
    long_ = sum(b["count"] for b in h["buckets"] if b["low"] >= 2048)
    short = sum(b["count"] for b in h["buckets"] if b["high"] < 1024)
    check(long_ == n and h["count"] - n == short <= 1,
          "%d stays (%d of 2 ms or more, %d under 1 ms), %d runs" % (h["count"], long_, short, n))
    d = h["sum_ns"] - sum(mine)
    check(-50000 <= d <= n * 70000 + MS, "sum %d ns, runs' %d: %+d" % (h["sum_ns"], sum(mine), d))
    checks = (("max_ns", max(mine)),) + ((("min_ns", min(mine)),) if not short else ())
    for key, v in checks:
        check(-10000 <= h[key] - v <= 70000, "%s %d, runs' %d" % (key, h[key], v))
    print("%d stays (%d after the last run); sum %+d us, min %+d us, max %+d us of the runs' own" %
          (h["count"], short, d // 1000, (h["min_ns"] - min(mine)) // 1000,
           (h["max_ns"] - max(mine)) // 1000))


def naps(self_path, out_path):
    """off-CPU (-O): the RUNS - 1 naps of 1 ms between the runs (the thread's start ends
    none; its exit may start one short one), each at least the 1 ms asked less the way
    from nanosleep's start to the switch-out (50 us allowed), and at most 1.5 ms
    (a SCHED_FIFO runner woken on a CPU whose only other task is SCHED_IDLE runs at once;
    the timer's own lateness on this VM: up to 0.2 ms seen)"""
    mine = own(self_path)
    h = runner(out_path)
    n = len(mine) - 1
    # the naps are the times off of 1 ms and more; the thread's exit may add one short
    # time off after its last run (the stay runs() allows: blocked 9 us)
    naps = sum(b["count"] for b in h["buckets"] if b["low"] >= 512)
    short = sum(b["count"] for b in h["buckets"] if b["high"] < 512)
    check(naps == n and h["count"] - n == short <= 1,
          "%d times off (%d of 0.5 ms and more, %d shorter), %d naps" % (h["count"], naps, short, n))
    # the timer starts in nanosleep before the switch-out: a time off may be short of
    # the ms by that way (2.5 us here, 21.3 us in a fresh Debian 12 root): 50 us allowed;
    # the host's steal on the runner's CPU over the run (STEAL_MS: lib.sh's
    # ft_steal) below and above: a vCPU the host held when the timer fired ends
    # the nap late (3.09 ms seen in a fresh root while the host stole 6% of the CPUs),
    # one held between the timer's start and the switch-out starts it late (a fresh
    # root: 908 us off with 60 ms stolen; below, at most 0.25 ms of it, so that a
    # stealing host still bounds the naps from below: /proc/stat's 10 ms ticks)
    steal = steal_ms() * 1e6
    check((short or h["min_ns"] >= MS - 50000 - min(steal, 250000)) and
          h["max_ns"] <= 1.5 * MS + steal,
          "naps %d .. %d ns, not 0.95 .. 1.5 ms (steal %.0f ms)" %
          (h["min_ns"], h["max_ns"], steal / 1e6))
    print("%d naps (and %d short times off) up to %.3f ms" % (naps, short, h["max_ns"] / MS))


if __name__ == "__main__":
    {"runs": runs, "naps": naps}[sys.argv[1]](sys.argv[2], sys.argv[3])
