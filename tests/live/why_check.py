# SPDX-License-Identifier: GPL-2.0
"""why_check.py MODE JSON WORKLOAD_OUT: wakeup --why against fifowake's own clock.

fifowake (tests/workloads/fifowake.c) prints "fifo TID", "waiter TID" and one
"spin NS" per round: its SCHED_FIFO thread's spin, by its own CLOCK_MONOTONIC, from
just before the write that wakes waiter to just before it sleeps again, which is when
waiter runs. MODES:
  named     each of waiter's waits among the slowest (4 or more) has the FIFO thread,
            running at the wakeup, as its largest part, within 3% of the median spin
  add_up    every slowest wakeup's parts (and its woken CPU's) add up to its latency
  irqs      some of waiter's waits hold hard interrupt time, and in each the FIFO part
            plus the interrupt parts is the spin within 25 us (the FIFO thread's clock
            runs on in its interrupts: counted in it too, they would exceed)
The first line printed says what was measured; the last, on failure, why.
"""
import statistics
import sys

from pct_check import last_json

IRQ_SLACK_NS = 25000


def workload(path):
    """fifowake's tids and spins"""
    tids, spins = {}, []
    for line in open(path):
        w = line.split()
        if len(w) == 2 and w[0] in ("fifo", "waiter"):
            tids[w[0]] = int(w[1])
        elif len(w) == 2 and w[0] == "spin":
            spins.append(int(w[1]))
    if "fifo" not in tids or "waiter" not in tids or not spins:
        sys.exit("fifowake printed no tids or spins: %s" % open(path).read()[:200])
    return tids, spins


def waits_of(j, tid):
    """the slowest wakeups of @tid"""
    return [s for s in j.get("slowest", []) if s["tid"] == tid]


def named(j, tids, spins):
    med = statistics.median(spins)
    ws = waits_of(j, tids["waiter"])
    devs = []
    for s in ws:
        p = s["why"][0] if s.get("why") else {}
        if p.get("kind") != "task" or p.get("pid") != tids["fifo"] or not p.get("at_wakeup"):
            sys.exit("wait of %d ns: largest part %s, not fifospin[%d] running at the wakeup"
                     % (s["latency_ns"], p, tids["fifo"]))
        devs.append((p["ns"] - med) / med)
    print("%d waits, fifo part vs median spin %.0f ns (spins %d..%d): %s" %
          (len(ws), med, min(spins), max(spins),
           " ".join("%+.2f%%" % (100 * d) for d in devs)))
    if len(ws) < 4:
        sys.exit("only %d of waiter's waits among the slowest, want 4" % len(ws))
    bad = [d for d in devs if abs(d) > 0.03]
    if bad:
        sys.exit("fifo part off the spin by more than 3%%: %s" % bad)


def add_up(j, tids, spins):
    n = 0
    for s in j.get("slowest", []):
        for key in ("why", "why_woken"):
            if key not in s:
                continue
            total = sum(p["ns"] for p in s[key])
            n += 1
            if total != s["latency_ns"]:
                sys.exit("wait of %d ns at %d: %s parts add up to %d" %
                         (s["latency_ns"], s["time_ns"], key, total))
    print("%d breakdowns add up to their waits" % n)
    if not n:
        sys.exit("no breakdown (why) in the report")


def irqs(j, tids, spins):
    med = statistics.median(spins)
    res, with_irq = [], 0
    for s in waits_of(j, tids["waiter"]):
        fifo = sum(p["ns"] for p in s["why"] if p.get("pid") == tids["fifo"])
        irq = sum(p["ns"] for p in s["why"] if p["kind"] in ("hardirq", "softirq"))
        with_irq += irq > 0
        res.append(fifo + irq - med)
    print("%d of %d waits with interrupt parts; fifo + interrupts - median spin (ns): %s" %
          (with_irq, len(res), " ".join("%+d" % r for r in res)))
    if not with_irq:
        sys.exit("no interrupt time in any of waiter's waits")
    bad = [r for r in res if abs(r) > IRQ_SLACK_NS]
    if bad:
        sys.exit("fifo + interrupts off the spin by more than %d ns: %s" % (IRQ_SLACK_NS, bad))


def main():
    mode, path, wl = sys.argv[1:4]
    tids, spins = workload(wl)
    {"named": named, "add_up": add_up, "irqs": irqs}[mode](last_json(path), tids, spins)


if __name__ == "__main__":
    main()
