#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""hist --key kstack/ustack checks (tests/live/hist_stacks.sh) against stackcalls' design
(leaf under caller_a A times, under caller_b B times, every call one getppid system call)
and against bpftrace's @k[kstack] and @u[ustack] of the same run. Each command prints a
one-line summary and exits 1 with the reason when the check fails."""
import re
import sys

# the tracing code's frames hist leaves out (analyzers/stack_syms.c), and those on
# top of bpftrace's stacks (its probe's)
TRACE = ("trace_", "__traceiter_", "perf_trace_", "__bpf_trace_", "ftrace_", "__ftrace_")
BT_TOP = TRACE + ("perf_", "bpf_")


def folded(path):
    """folded lines FRAME;...;FRAME COUNT as (frames, count)"""
    rows = []
    for line in open(path):
        stack, _, n = line.rstrip("\n").rpartition(" ")
        if stack and n.isdigit():
            rows.append((stack.split(";"), int(n)))
    return rows


def split_at_leaf(frames):
    """(user frames root first up to leaf, kernel frames root first after it)"""
    if "leaf" not in frames:
        sys.exit("row %s: no leaf" % ";".join(frames))
    i = frames.index("leaf")
    return frames[:i + 1], frames[i + 1:]


def callers(path, a, b):
    """every row ends at leaf under caller_a (A records) or caller_b (B); nothing else"""
    got = {}
    for frames, n in folded(path):
        user, _ = split_at_leaf(frames)
        if user[-3:-1] not in (["main", "caller_a"], ["main", "caller_b"]):
            sys.exit("row %s: not main;caller_{a,b};leaf" % ";".join(frames))
        got[user[-2]] = got.get(user[-2], 0) + n
    want = {"caller_a": a, "caller_b": b}
    if got != want:
        sys.exit("records per caller %s, want %s" % (got, want))
    print("caller_a %d, caller_b %d" % (got["caller_a"], got["caller_b"]))


def kernel(path, total):
    """every row's kernel stack: the system call's entry, no tracing frame; sum total"""
    n_all = 0
    for frames, n in folded(path):
        _, k = split_at_leaf(frames)
        if not k or not k[0].startswith("entry_SYSCALL_64") or "do_syscall_64" not in k:
            sys.exit("kernel frames %s: not a system call's path" % ";".join(k))
        if any(f.startswith(TRACE) for f in k):
            sys.exit("kernel frames %s: a tracing frame kept" % ";".join(k))
        n_all += n
    if n_all != total:
        sys.exit("%d records under kernel stacks, want %d" % (n_all, total))
    print("%d records, kernel stacks from entry_SYSCALL_64" % n_all)


def bpftrace_maps(path):
    """bpftrace's printed maps: {map: [(frames innermost first, count)]}"""
    maps, text = {}, open(path).read()
    for m in re.finditer(r"@(\w+)\[\n(.*?)\]: (\d+)", text, re.S):
        frames = [re.sub(r"\+\d+$", "", f.strip()) for f in m.group(2).splitlines()
                  if f.strip()]
        maps.setdefault(m.group(1), []).append((frames, int(m.group(3))))
    return maps


def peer(ours_path, bt_path):
    """bpftrace's stacks of the same records: the kernel's names (its own tracing frames
    on top left out) and counts equal ours; its user stacks split as ours, frame for frame"""
    bt, ours = bpftrace_maps(bt_path), folded(ours_path)
    ok = {}
    for frames, n in ours:
        user, k = split_at_leaf(frames)
        ok.setdefault(("k", tuple(reversed(k))), 0)
        ok[("k", tuple(reversed(k)))] += n
        ok.setdefault(("u", len(user)), []).append(n)
    theirs_k = {}
    for frames, n in bt.get("k", []):
        while frames and frames[0].startswith(BT_TOP):
            frames = frames[1:]
        theirs_k[("k", tuple(frames))] = theirs_k.get(("k", tuple(frames)), 0) + n
    ours_k = {key: v for key, v in ok.items() if key[0] == "k"}
    if theirs_k != ours_k:
        sys.exit("kernel stacks: bpftrace %s, ftscope %s" % (theirs_k, ours_k))
    theirs_u = sorted((len(f), n) for f, n in bt.get("u", []))
    ours_u = sorted((key[1], n) for key, v in ok.items() if key[0] == "u" for n in v)
    if theirs_u != ours_u:
        sys.exit("user stacks (depth, records): bpftrace %s, ftscope %s" % (theirs_u, ours_u))
    print("kernel %s; user (depth, records) %s: equal" % (list(ours_k.values()), ours_u))


def json_rows(path, folded_path):
    """the JSON rows: key.comm, key.ustack and key.kstack (innermost first) and count
    are the folded lines' (comm first, roots first)"""
    import json
    j = json.load(open(path))
    rows = sorted((tuple([r["key"]["comm"]] + list(reversed(r["key"]["ustack"])) +
                         list(reversed(r["key"]["kstack"]))), r["count"]) for r in j["rows"])
    want = sorted((tuple(f), n) for f, n in folded(folded_path))
    if rows != want:
        sys.exit("JSON rows %s, folded %s" % (rows, want))
    print("%d rows equal" % len(rows))


def unmapped(path, a, b):
    """a command gone before its maps were read: its records under [unknown] user
    frames, as many as the note counts; any others under the designed rows"""
    import json
    j = json.load(open(path))
    lost = sum(r["count"] for r in j["rows"] if r["key"]["ustack"] == ["[unknown]"])
    named = {}
    for r in j["rows"]:
        u = r["key"]["ustack"]
        if u == ["[unknown]"]:
            continue
        if u[:3] not in (["leaf", "caller_a", "main"], ["leaf", "caller_b", "main"]):
            sys.exit("row %s: neither [unknown] nor the design" % u)
        named[u[1]] = named.get(u[1], 0) + r["count"]
    if not lost:
        sys.exit("no record under [unknown]: the command outlived a round (it exits within "
                 "ms of its calls, before the 100 ms round that would read its maps)")
    if lost != j["user_stacks_unmapped"]:
        sys.exit("%d records under [unknown], the note says %d" % (lost, j["user_stacks_unmapped"]))
    if lost + sum(named.values()) != a + b or any(n > {"caller_a": a, "caller_b": b}[c]
                                                  for c, n in named.items()):
        sys.exit("%d unmapped + named %s: not %d + %d" % (lost, named, a, b))
    print("%d under [unknown] as the note counts, named %s" % (lost, named))


WAKE = ("ttwu_do_activate", "try_to_wake_up", "sched_ttwu_pending", "ttwu_do_wakeup")


def wakeups(path):
    """every sched_wakeup record's kernel stack is a wakeup's (the tracepoint lies in
    the wakeup path: try_to_wake_up, or a remote wakeup's sched_ttwu_pending), or none"""
    bad, total, none = [], 0, 0
    for frames, n in folded(path):
        total += n
        none += n if frames == ["[no kernel stack]"] else 0
        if frames != ["[no kernel stack]"] and not any(f in WAKE for f in frames):
            bad.append((";".join(frames[-3:]), n))
    # wakeups from idle come without a stack (the kernel writes none where RCU is not
    # watching: 10 to 45% of them here, by how idle the machine was); a pairing that lost
    # every stack would pass the rest: at least 10 with theirs (175 to 930 seen)
    if total - none < 10:
        sys.exit("%d wakeups, %d without a kernel stack" % (total, none))
    if bad:
        sys.exit("%d of %d records under another record's stack: %s" %
                 (sum(n for _, n in bad), total, bad[:3]))
    print("%d records, each under a wakeup's kernel stack (%d without one)" % (total, none))


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "callers":
        callers(args[0], int(args[1]), int(args[2]))
    elif cmd == "kernel":
        kernel(args[0], int(args[1]))
    elif cmd == "peer":
        peer(args[0], args[1])
    elif cmd == "wakeups":
        wakeups(args[0])
    elif cmd == "unmapped":
        unmapped(args[0], int(args[1]), int(args[2]))
    elif cmd == "json":
        json_rows(args[0], args[1])
    else:
        sys.exit("unknown check " + cmd)
