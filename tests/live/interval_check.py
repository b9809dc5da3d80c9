#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks of interval-mode output (issue 20). Prints one line; exit 0 when it holds.

  interval_check.py footer-json FILE K      runqlat --json intervals of `sleeper`, whose
                                            switches out the kernel counted K
  interval_check.py footer-text FILE        the same run's text footers and "total:" line
  interval_check.py timehist JSONS WHOLE SELF   timehist -s --json intervals, the whole
                                            run (-i of the run's own -o file), spinself's
                                            schedstat lines (STEAL_MS: the steal on
                                            their CPU, allowed above)
"""
import json
import re
import sys

from pct_check import steal_ms  # the host's steal over the run (STEAL_MS)

FIELDS = ("events", "lost", "switch_ins_reconstructed", "runs_ended_on_another_cpu",
          "bad_pages", "malformed_records", "unordered_records")
ARRAYS = ("lost_per_cpu", "switch_ins_reconstructed_per_cpu")


def reports(path):
    """the JSON objects of a run, one a line"""
    with open(path) as f:
        return [json.loads(l) for l in f if l.startswith("{")]


def footer_json(path, naps):
    """per-interval figures add up to the whole run's; none exceeds its interval"""
    r = reports(path)
    if len(r) < 2 or not r[-1]["final"] or any("whole_run" in j for j in r[:-1]):
        return "want >= 2 reports, whole_run in the last only; got %d" % len(r)
    whole = r[-1]["whole_run"]
    for k in FIELDS:
        if sum(j[k] for j in r) != whole[k]:
            return "%s: intervals %s add up to %d, whole run %d" % (
                k, [j[k] for j in r], sum(j[k] for j in r), whole[k])
    for k in ARRAYS:
        if [sum(x) for x in zip(*(j[k] for j in r))] != whole[k]:
            return "%s: intervals %s, whole run %s" % (k, [j[k] for j in r], whole[k])
    for j in r:
        if j["switch_ins_reconstructed"] > j["events"] or \
           j["estimated"] + j["unmeasured"] > j["switch_ins_reconstructed"]:
            return "an interval rebuilt more than it read: %s" % {
                k: j[k] for k in ("events", "switch_ins_reconstructed", "estimated",
                                  "unmeasured")}
    # a latency ftscope says it could not measure (unmeasured) is one of the kernel's
    count = sum(j["total"]["count"] + j["unmeasured"] for j in r)
    if naps < 20 or not naps - 2 <= count <= naps + 1:
        return "latencies (and unmeasured) over intervals %d, want %d .. %d (the kernel's " \
            "%d switches out)" % (count, naps - 2, naps + 1, naps)
    return "%d intervals: events %s, rebuilt %s, latencies %d" % (
        len(r), [j["events"] for j in r], [j["switch_ins_reconstructed"] for j in r], count)


def figures(line):
    """events processed and switch-ins reconstructed of a footer line"""
    ev = int(re.search(r"(\d+) events processed", line).group(1))
    m = re.search(r"(\d+) switch-ins reconstructed", line)
    return ev, int(m.group(1)) if m else 0


def footer_text(path):
    """the text footers add up to the "total:" line, the last one"""
    with open(path) as f:
        lines = [l for l in f if "events processed" in l]
    totals = [l for l in lines if l.startswith("total: ")]
    if len(lines) < 3 or totals != lines[-1:]:
        return "want >= 2 footers and one last total: line, got %d lines" % len(lines)
    per = [figures(l) for l in lines[:-1]]
    total = figures(lines[-1])
    if tuple(map(sum, zip(*per))) != total:
        return "intervals %s add up to %s, total: %s" % (per, tuple(map(sum, zip(*per))), total)
    if any(rb > ev for ev, rb in per):
        return "an interval rebuilt more than it read: %s" % per
    return "%d footers %s, total %s" % (len(per), per, total)


def timehist(path, whole_path, self_path):
    """each interval lists the spinners; their run times add up to the whole run's"""
    r = reports(path)
    whole = {t["tid"]: t["run_ns"] for t in reports(whole_path)[-1]["tasks"]}
    with open(self_path) as f:
        kernel = {int(m.group(1)): int(m.group(2))
                  for m in re.finditer(r"tid=(\d+) run_ns=(\d+)", f.read())}
    if len(r) < 3 or len(kernel) != 3:
        return "want >= 3 intervals and 3 spinners, got %d, %d" % (len(r), len(kernel))
    sums = {}
    for i, j in enumerate(r):
        tids = {t["tid"] for t in j["tasks"]}
        if not set(kernel) <= tids:
            return "interval %d lists %s, not every spinner %s" % (i, sorted(tids), sorted(kernel))
        for t in j["tasks"]:
            sums[t["tid"]] = sums.get(t["tid"], 0) + t["run_ns"]
    for tid, run in kernel.items():
        if sums[tid] != whole.get(tid):
            return "tid %d: intervals add up to %d ns, whole run %s" % (tid, sums[tid], whole.get(tid))
        # switch-to-switch run times keep the host's steal on the spinners' CPU,
        # schedstat leaves it out: allowed above (+37 ms over 295 in a fresh root)
        if not -(run * 0.05 + 2e6) <= sums[tid] - run <= run * 0.05 + 2e6 + steal_ms() * 1e6:
            return "tid %d: intervals add up to %d ns, schedstat %d (steal %.0f ms)" % (
                tid, sums[tid], run, steal_ms())
    return "%d intervals; spinners %s ms over intervals, schedstat %s ms (steal %.0f ms)" % (
        len(r), [round(sums[t] / 1e6, 1) for t in kernel],
        [round(kernel[t] / 1e6, 1) for t in kernel], steal_ms())


def main():
    mode = sys.argv[1]
    if mode == "footer-json":
        msg = footer_json(sys.argv[2], int(sys.argv[3]))
    elif mode == "footer-text":
        msg = footer_text(sys.argv[2])
    else:
        msg = timehist(sys.argv[2], sys.argv[3], sys.argv[4])
    print(msg)
    return 0 if msg[0].isdigit() else 1


if __name__ == "__main__":
    sys.exit(main())
