#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: hist shows a key as the kernel means it: unsigned fields unsigned,
#              pointers in hex with a note for user pointers (a workload that knows its
#              own addresses and counts), system call ids by name (perf trace -s on another
#              run of the same deterministic dd, counts equal), fields through the event's
#              __print_flags and __print_symbolic (bpftrace on the same run, its raw
#              values named through the format file's own table), --raw, names in
#              --filter, and kernel pointers against trace-cmd report of one recording.
# requires: root, syscalls, raw_syscalls, sched, timer (and lock) tracepoints; bpftrace,
#           perf, trace-cmd
. tests/live/lib.sh
plan 8
need_root hist_names || exit 0
before=$(global_state)
T=${T:-/sys/kernel/tracing}

# workloads under names no other process has (the filters are by comm)
# (python renames itself with prctl: a copy of its binary may not find its library,
# and python3 may be a wrapper script)
PY=$(python3 -c 'import sys; print(sys.executable)')
NAME_SELF='import ctypes; ctypes.CDLL(None).prctl(15, b"ftscope-hpy", 0, 0, 0)'
DD=$OUT/ftscope-hnd
cp "$(command -v dd)" $DD
# opens a buffer at an address it prints 7 times; read(-1, NULL, 2^64-1) 5 times
cat > $OUT/hist-ptr.py << EOF
$NAME_SELF
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
buf = ctypes.create_string_buffer(b"/nonexistent/ftscope-hist")
for i in range(7):
    libc.openat(-100, buf, 0)
libc.read.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t]
for i in range(5):
    libc.read(-1, None, 2 ** 64 - 1)
print("0x%x" % ctypes.addressof(buf))
EOF
# 20 sleeps of 10 ms: 20 switches out in S, 20 hrtimers on CLOCK_MONOTONIC
cat > $OUT/hist-sleep.py << EOF
$NAME_SELF
import time
for i in range(20):
    time.sleep(0.01)
EOF

# hist_user_pointer_hex: openat's filename is the address the workload printed, in hex
# (main printed it in decimal), with the note that it is a user pointer; read's
# size_t count of 2^64-1 is 18446744073709551615 (main: -1), as the workload passed
# it, in the table and in --json (a JSON number)
name=hist_user_pointer_hex
ft $name 0 hist -e syscalls:sys_enter_openat --key filename,dfd --filter "comm == ftscope-hpy" \
	-- $PY $OUT/hist-ptr.py > $OUT/hist-ptr.out 2> $OUT/hist-ptr.err
addr=$(sed -n 's/^\(0x[0-9a-f]*\)$/\1/p' $OUT/hist-ptr.out)
row=$(awk -v a="$addr" '$1 "" == a "" && NF == 3 { print $2 " " $3 }' $OUT/hist-ptr.out)
note=$(grep -c '^hist: filename (const char \*) is an address in the calling process' \
	$OUT/hist-ptr.out)
BADFD="comm == ftscope-hpy && fd == 4294967295"
ft $name 0 hist -e syscalls:sys_enter_read --key count --filter "$BADFD" -- $PY $OUT/hist-ptr.py \
	> $OUT/hist-u64.out 2>> $OUT/hist-ptr.err
u64=$(awk '/^ *COUNT/ { t = 1; next } /^hist:/ { t = 0 } t { print $1 ":" $2 }' $OUT/hist-u64.out)
ft $name 0 hist -e syscalls:sys_enter_read --key count --filter "$BADFD" --json -- $PY \
	$OUT/hist-ptr.py > $OUT/hist-u64.json 2>> $OUT/hist-ptr.err
ju=$(sed -n '/^{/,$p' $OUT/hist-u64.json > $OUT/hist-u64.j; \
	json '[(r["key"]["count"], r["count"]) for r in j["rows"]]' $OUT/hist-u64.j)
if [ -n "$addr" ] && [ "$row" = "-100 7" ] && [ "$note" = 1 ] &&
   [ "$u64" = "18446744073709551615:5" ] && [ "$ju" = "[(18446744073709551615, 5)]" ]; then
	pass $name
else
	fail $name "address $addr: row '$row', note $note; count '$u64', json $ju"
fi

# hist_syscall_names_perf_trace: dd bs=1 count=3000 makes the same system calls each run:
# 3000 writes of a byte and 3 of its closing lines (3003, the workload's design), 3000
# reads and ld.so's. perf trace -s names and counts them on one run, hist -e
# raw_syscalls:sys_enter --key id on another: the same names, the same counts, but for
# read and write where perf trace -s counted up to 2 fewer (3001-3003 in 3 runs; hist:
# 3003 in 5), so within 3. On a later machine perf trace -s counted fewer under load,
# with no loss said (2919 .. 2991 of 3003 in 6 runs, with 1024 or 8192 pages or its
# default; 3003 in 4 runs quiet with 1024), so for read and write it may count up to 5%
# fewer: the counts' oracle is the design (3003 writes, checked exactly), perf's the
# names; hist counted 3001 reads once in a fresh root (3003 in 4 runs here), so 3 below
# perf allowed. execve left out (perf trace counts the exec that
# starts dd, the filter on dd's comm does not), exit_group too (it never returns, and
# perf trace -s counts calls at their return)
name=hist_syscall_names_perf_trace
ft $name 0 hist -e raw_syscalls:sys_enter --key id --filter "comm == ftscope-hnd" --json \
	-- $DD if=/dev/zero of=/dev/null bs=1 count=3000 > $OUT/hist-sc.json 2> $OUT/hist-sc.err
perf trace -m 1024 -s -o $OUT/hist-sc.perf -- $DD if=/dev/zero of=/dev/null bs=1 count=3000 2> /dev/null
awk '/^ +-+ -+/ { t = 1; next } t && NF >= 3 { print $1, $2 }' $OUT/hist-sc.perf > $OUT/hist-sc.pt
res=$(python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
ours = {r["key"]["id"]: r["count"] for r in j["rows"]}
perf = {l.split()[0]: int(l.split()[1]) for l in open(sys.argv[2])}
bad = []
for n in sorted(set(ours) | set(perf)):
    if n in ("execve", "exit_group"):
        continue
    a, b = ours.get(n), perf.get(n)
    ok = a is not None and b is not None and (a == b or (n in ("read", "write") and -3 <= a - b <= 150))
    if not ok:
        bad.append("%s ftscope %s perf %s" % (n, a, b))
if ours.get("write") != 3003:
    bad.append("write %s, not 3003" % ours.get("write"))
print("; ".join(bad) if bad else "ok %d" % len(ours))' $OUT/hist-sc.json $OUT/hist-sc.pt 2>&1)
if [[ $res == ok* ]] && [ "${res#ok }" -ge 10 ]; then
	pass $name
else
	fail $name "$res"
fi

# hist_filter_by_name: --filter compares a named field with a name: 'id == write' keeps
# dd's 3003 writes (3000 bytes, 3 closing lines), and nothing else (main: "'write' is
# not a number", exit 1)
name=hist_filter_by_name
ft $name 0 hist -e raw_syscalls:sys_enter --key comm,id \
	--filter "comm == ftscope-hnd && id == write" --json -- $DD if=/dev/zero of=/dev/null bs=1 count=3000 > $OUT/hist-fn.json 2> $OUT/hist-fn.err
fn=$(json '[(r["key"]["comm"], r["key"]["id"], r["count"]) for r in j["rows"]]' $OUT/hist-fn.json)
if [ "$fn" = "[('ftscope-hnd', 'write', 3003)]" ]; then
	pass $name
else
	fail $name "rows $fn: $(head -1 $OUT/hist-fn.err)"
fi

# name_by_format EVENT FIELD: python reading raw "value count" lines, printing the names
# the format file's own print fmt gives them (__print_symbolic's pairs; __print_flags'
# bits joined by its delimiter, 0 as the "? :" text around it, sched_switch's "+")
name_by_format() {
	python3 -c '
import re, sys
fmt = open(sys.argv[1]).read().split("print fmt:", 1)[1]
field = sys.argv[2]
m = re.search(r"__print_(symbolic|flags)\(REC->" + field + r"\b[^\"]*(\"([^\"]*)\",)?((?:\s*\{ [^}]*\},?)*)\)( : \"(\w*)\")?", fmt)
pairs = [(int(v, 0), s) for v, s in re.findall(r"\{ (0x[0-9a-fA-F]+|\d+), \"([^\"]*)\" \}", m.group(4))]
zero = m.group(6)
plus = re.search(r"REC->" + field + r" & ([^?]*) \? \"\+\" : \"\"", fmt)
res = {}
for l in sys.stdin:
    v, n = map(int, l.split())
    if m.group(1) == "symbolic":
        name = dict(pairs).get(v, str(v))
    else:
        x = v & 0xff
        if x == 0:
            name = zero
        else:
            name = m.group(3).join(s for b, s in pairs if x & b == b)
        if plus and v & 0x100:
            name += "+"
    res[name] = res.get(name, 0) + n
print(sorted(res.items()))' "$@"
}

# print_fmt_case NAME EVENT FIELD COMMFIELD [--raw]: the sleeper under hist --key FIELD,
# and bpftrace counting FIELD's raw values of the same run; hist's names must be
# bpftrace's values named by the format file (with --raw: bpftrace's values)
print_fmt_case() {
	local name=$1 ev=$2 field=$3 cf=$4 raw=$5 bt ours theirs
	cat > $OUT/hist-pf.bt << BT
tracepoint:${ev} {
	if (@r == 0) { @r = 1; printf("ready\n"); }
	if (args->${cf} == "ftscope-hpy") { @v[args->${field}] = count(); }
}
BT
	[ "$cf" = comm ] && sed -i 's/args->comm/comm/' $OUT/hist-pf.bt
	# the probe fires on any task's event: wait until one has
	if ! bt_start $OUT/hist-pf.bto "" $OUT/hist-pf.bt; then
		fail $name "$bt_why"
		return
	fi
	ft $name 0 hist $raw -e $ev --key $field --filter "$cf == ftscope-hpy" --json \
		-- $PY $OUT/hist-sleep.py > $OUT/hist-pf.json 2> $OUT/hist-pf.err
	sleep 0.2
	stop_bpftrace $bt
	ours=$(json "sorted((r['key']['$field'], r['count']) for r in j['rows'])" $OUT/hist-pf.json)
	sed -n 's/^@v\[\(-*[0-9]*\)\]: \([0-9]*\)$/\1 \2/p' $OUT/hist-pf.bto > $OUT/hist-pf.raw
	if [ -n "$raw" ]; then
		theirs=$(python3 -c 'import sys
print(sorted(tuple(map(int, l.split())) for l in sys.stdin))' < $OUT/hist-pf.raw)
	else
		theirs=$(name_by_format $T/events/${ev/://}/format $field < $OUT/hist-pf.raw)
	fi
	if [ -n "$ours" ] && [ "$ours" = "$theirs" ] && [ "$ours" != "[]" ]; then
		pass $name
	else
		fail $name "ftscope $ours; bpftrace named by the format $theirs"
	fi
}

# hist_print_flags_prev_state: sched_switch's prev_state through its __print_flags
# (S, D, R, R+ ...); hist_print_symbolic_clockid: hrtimer_setup's clockid through its
# __print_symbolic (CLOCK_MONOTONIC)
if ! command -v bpftrace > /dev/null; then
	fail hist_print_flags_prev_state "bpftrace is not installed"
	fail hist_print_symbolic_clockid "bpftrace is not installed"
else
	print_fmt_case hist_print_flags_prev_state sched:sched_switch prev_state prev_comm
	print_fmt_case hist_print_symbolic_clockid timer:hrtimer_setup clockid comm
fi

# hist_raw_prev_state: --raw keeps the numbers: bpftrace's own values of the same run
if command -v bpftrace > /dev/null; then
	print_fmt_case hist_raw_prev_state sched:sched_switch prev_state prev_comm --raw
else
	fail hist_raw_prev_state "bpftrace is not installed"
fi

# hist_kernel_pointer_trace_cmd: trace-cmd report on the same recording (perf bench sched
# messaging contends on spinlocks) prints each contention_begin's lock_addr (%p) and its
# flags (__print_flags over (1U << n) values); hist -i --key lock_addr,flags gives the
# same pairs, in hex and by name, with the same counts (main: negative decimals, fails)
name=hist_kernel_pointer_trace_cmd
if [ ! -d $T/events/lock/contention_begin ]; then
	skip $name "the kernel has no lock:contention_begin"
elif ! command -v trace-cmd > /dev/null || ! command -v perf > /dev/null; then
	fail $name "trace-cmd and perf are needed (scripts/install-deps.sh)"
else
	# under the command's pid filter the kernel records some events of other tasks (a
	# kworker's contention_begin in the same tick as its switch to a traced task), which
	# trace-cmd prints and ftscope leaves out as untraced (432 against 433 once): trace-cmd's
	# lines of the command's tasks only (perf and its sched-messaging children)
	ft $name 0 record -o $OUT/hist-lock.dat -e lock:contention_begin \
		-- perf bench sched messaging -g 2 -l 50 > /dev/null 2> $OUT/hist-lock.err
	ft $name 0 hist -i $OUT/hist-lock.dat -e lock:contention_begin --key lock_addr,flags \
		--json > $OUT/hist-lock.json 2>> $OUT/hist-lock.err
	trace-cmd report $OUT/hist-lock.dat 2> /dev/null |
		grep -E '^ *(sched-messaging|perf)-[0-9]+ ' |
		sed -n 's/.* contention_begin: *\(0x[0-9a-f]*\) (flags=\([A-Z|]*\))$/\1 \2/p' \
		> $OUT/hist-lock.tc
	res=$(python3 -c '
import collections, json, sys
j = json.load(open(sys.argv[1]))
ours = {(r["key"]["lock_addr"], r["key"]["flags"]): r["count"] for r in j["rows"]}
tc = collections.Counter(tuple(l.split()) for l in open(sys.argv[2]))
print("ok %d" % sum(tc.values()) if ours == dict(tc) else "ftscope %s; trace-cmd %s" %
      (sorted(ours.items())[:4], sorted(tc.items())[:4]))' $OUT/hist-lock.json $OUT/hist-lock.tc)
	if [[ $res == ok* ]] && [ "${res#ok }" -gt 0 ]; then
		pass $name
	else
		fail $name "$res"
	fi
fi

# hist_names_state_restored: no instance or event left behind
name=hist_names_state_restored
after=$(global_state)
if [ "$before" = "$after" ]; then
	pass $name
else
	fail $name "tracefs changed: $(state_diff "$before" "$after")"
fi
