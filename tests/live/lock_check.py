#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""lock_check.py CHECK BT JSON [ARGS]: ftscope lock's --json report (the last JSON line of
JSON) against bpftrace's records of the same run (tests/live/lock.bt's maps in BT).
Prints one line (what was compared, the measured gaps); exit 0 when it holds, 1 when not.

  counts            the waits per lock type: exactly bpftrace's (none lost, none unpaired;
                    spinlocks: a few more, 1%, where bpftrace's probe interrupted itself,
                    and those on bpftrace's own maps' bucket locks, inside its probes)
  totals            the total wait per type: within 2 us a wait + 100 us of bpftrace's
                    (the two stamp the same tracepoints from their own probes)
  callers           the waits per (type, caller): bpftrace's stacks named by ftscope lock's
                    rule (a wait bpftrace could not name, up to 1%, may be in any row) (the first frame outside the tracing code, __sched_text and
                    __lock_text, as function+0xOFF from /proc/kallsyms)
  known TYPE FN,..  the workload's lock: TYPE has the largest total wait, and its callers
                    are the functions FN (all of them, no other)
  addr TYPE         -l: all of TYPE's waits on one address (the process's one lock)
  threads N BYCALLER  --threads: N threads or more, their waits adding up to bpftrace's
                    (and the spinlock waits it did not see, as counts allows: BYCALLER is
                    the same run's JSON by caller, for those on bpftrace's own maps)
"""
import re
import sys
from collections import Counter

from pct_check import last_json
from pct_check import steal_ms  # the host's steal over the run (STEAL_MS)

TYPES = {0: "semaphore", 1: "spinlock", 3: "rwlock:R", 5: "rwlock:W", 2: "rwsem:R",
         4: "rwsem:W", 8: "rt-mutex", 10: "rwlock-rt:R", 12: "rwlock-rt:W",
         18: "pcpu-sem:R", 20: "pcpu-sem:W", 32: "mutex", 33: "mutex"}
TRACE = ("trace_", "__traceiter_", "perf_trace_", "__bpf_trace_", "ftrace_", "__ftrace_")


def bt_maps(path):
    """bpftrace's maps: n and ns per type, c per (type, stack), rep, unpaired"""
    text = open(path).read()
    n, ns, c = Counter(), Counter(), Counter()
    for m in re.finditer(r"^@(n|ns)\[(\d+)\]: (\d+)$", text, re.M):
        (n if m[1] == "n" else ns)[TYPES.get(int(m[2]), "unknown")] += int(m[3])
    for m in re.finditer(r"^@c\[(\d+), (\n.*?)?\]: (\d+)$", text, re.M | re.S):
        frames = [l.split()[:2] for l in (m[2] or "").strip().splitlines()]
        c[(TYPES.get(int(m[1]), "unknown"), tuple((int(a, 16), s) for a, s in frames))] += \
            int(m[3])
    one = lambda k: int((re.search(r"^@%s: (\d+)$" % k, text, re.M) or [0, 0])[1])
    return n, ns, c, one("rep"), one("unpaired")


def kallsyms():
    """the text symbols sorted by address, and the locking code's sections"""
    syms, marks = [], {}
    for line in open("/proc/kallsyms"):
        a, t, name = line.split()[:3]
        if name in ("__sched_text_start", "__sched_text_end", "__lock_text_start",
                    "__lock_text_end"):
            marks[name] = int(a, 16)
        if t in "tTwW":
            syms.append((int(a, 16), name))
    syms.sort()
    return syms, [(marks["__sched_text_start"], marks["__sched_text_end"]),
                  (marks["__lock_text_start"], marks["__lock_text_end"])]


def caller(frames, syms, sections):
    """the caller of a stack by ftscope lock's rule, or None (not within the frames)"""
    import bisect
    i = 0
    while i < len(frames) and frames[i][1].startswith(TRACE):
        i += 1
    for a, _ in frames[i:]:
        if any(lo <= a - 1 < hi for lo, hi in sections):
            continue
        k = bisect.bisect_right(syms, (a - 1, "\x7f")) - 1
        start, name = syms[k]
        return "%s+%#x" % (name, a - start) if a > start else name
    return None


def bpf_own(rows):
    """the spinlock waits of rows (by caller) on bpftrace's own hash maps' bucket locks"""
    return sum(r["contended"] for r in rows if r.get("type") == "spinlock" and
               r.get("caller", "").startswith("htab_lock_bucket+"))


def per_type(rows, field):
    s = Counter()
    for r in rows:
        s[r.get("type", "all")] += r[field]
    return s


def main():
    check, bt, js = sys.argv[1:4]
    j = last_json(js)
    n, ns, c, rep, unpaired = bt_maps(bt)
    rows = j["rows"]
    fc = per_type(rows, "contended")
    if j.get("lost"):
        print("ftscope lost %d events: no exact comparison" % j["lost"])
        return 1
    # a spinlock waited for in an interrupt that came while bpftrace's own probe ran on
    # that CPU is not bpftrace's (BPF does not nest a program in itself): ftscope may
    # have a few more of them, never fewer; and the waits on its hash maps' bucket locks
    # (htab_lock_bucket), taken inside its own probes as they update its maps, all
    # more: 200 in a fresh root's pipe storm under the host's steal (ftscope's 1239
    # against 1038; a vCPU held with a bucket locked makes the other wait)
    spin = fc["spinlock"] - n["spinlock"]
    own = bpf_own(rows)
    if check == "counts":
        print("waits per type: ftscope %s, bpftrace %s (repeated begins %d/%d, unpaired "
              "ends %d/%d; on bpftrace's own maps %d)"
              % (dict(fc), dict(n), j["repeated_begins"], rep, j["unpaired_ends"],
                 unpaired, own))
        same = all(fc[t] == n[t] for t in set(fc) | set(n) if t != "spinlock")
        return 0 if same and n and 0 <= spin - own <= max(5, n["spinlock"] // 100) and \
            j["repeated_begins"] == rep and j["unpaired_ends"] == unpaired == 0 else 1
    if check == "totals":
        ft, bad = per_type(rows, "total_ns"), []
        steal = steal_ms() * 1e6
        for t in n:
            gap = ft[t] - ns[t]
            print("%s: %d waits, ftscope %d ns, bpftrace %d ns, gap %+d ns (%+.0f ns a wait)"
                  % (t, n[t], ft[t], ns[t], gap, gap / n[t]), end="; ")
            # bpftrace times a wait inside its own probes, ftscope at the ring buffer's
            # reserve: -38 .. +460 ns a wait where the bound was set; +554 .. +1270 ns (and
            # +999, +1042 for rwsem:W in helpers' runs) on a later machine of this kind,
            # ftscope always the longer: 2 us a wait; and above it the host's steal over
            # the run (STEAL_MS: +2352 ns a wait seen in a fresh root while the host
            # stole 6% of the CPUs)
            if not -2000 * n[t] - 100000 <= gap <= 2000 * n[t] + 100000 + steal:
                bad.append(t)
        print()
        print("totals outside 2 us a wait + 100 us (steal %.0f ms): %s" % (steal / 1e6, bad)
              if bad else "totals agree (steal %.0f ms)" % (steal / 1e6))
        return 1 if bad or not n else 0
    if check == "callers":
        syms, sections = kallsyms()
        want, unnamed = Counter(), 0
        for (t, frames), k in c.items():
            name = caller(list(frames), syms, sections)
            if name is None:
                unnamed += k
            want[(t, name)] += k
        got = Counter({(r["type"], r["caller"]): r["contended"] for r in rows})
        diff = {k: (got[k], want[k]) for k in set(got) | set(want)
                if got[k] != want[k] and k[1] is not None}
        # a wait bpftrace could not name (its stack empty, or past its frames), or one
        # it did not see (above), is in one of ftscope's rows that have more; one
        # whose stack ftrace did not write is in ftscope's Unknown
        more = sum(a - b for (t, c), (a, b) in diff.items() if a > b and c != "Unknown")
        less = sum(b - a for a, b in diff.values() if a < b)
        unknown = sum(a for (t, c), (a, b) in diff.items() if c == "Unknown")
        print("%d (type, caller) rows, %d waits bpftrace could not name, %d spinlock waits "
              "it did not see, %d without ftrace's stack; differing (ftscope, bpftrace): %s"
              % (len(want), unnamed, spin, unknown, diff or "none"))
        return 1 if more != unnamed + spin or less != unknown or unknown > 2 or \
            unnamed > sum(want.values()) // 100 or not want else 0
    if check == "known":
        t, fns = sys.argv[4], set(sys.argv[5].split(","))
        tot = per_type(rows, "total_ns")
        seen = {r["caller"].split("+")[0] for r in rows if r["type"] == t}
        print("largest total: %s; %s's callers %s (want %s)"
              % (max(tot, key=tot.get) if tot else None, t, sorted(seen), sorted(fns)))
        return 0 if tot and max(tot, key=tot.get) == t and seen == fns else 1
    if check == "addr":
        t = sys.argv[4]
        mine = [r for r in rows if r["type"] == t]
        print("%s: %d address rows, %d waits (bpftrace %d)"
              % (t, len(mine), sum(r["contended"] for r in mine), n[t]))
        return 0 if len(mine) == 1 and mine[0]["contended"] == n[t] else 1
    if check == "threads":
        # the same run by caller (its waits on bpftrace's own maps: own above)
        want, own = int(sys.argv[4]), bpf_own(last_json(sys.argv[5])["rows"])
        total = sum(r["contended"] for r in rows)
        print("%d threads, %d waits (bpftrace %d; on bpftrace's own maps %d)"
              % (len(rows), total, sum(n.values()), own))
        more = total - sum(n.values()) - own
        return 0 if len(rows) >= want and 0 <= more <= max(5, n["spinlock"] // 100) else 1
    print("unknown check %s" % check)
    return 1


if __name__ == "__main__":
    sys.exit(main())
