#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: runqlat agrees with a bpftrace runqlat watching the same run.
# requires: root, bpftrace with tracepoints
. tests/live/lib.sh
name=runqlat_matches_bpftrace
need_root $name || exit 0
command -v bpftrace >/dev/null || { skip $name "bpftrace not installed"; exit 0; }

# BCC runqlat semantics in bpftrace, for one command name. (prev_state & 0xff) == 0:
# runnable, with or without the preempt bit.
cat > $OUT/rq.bt <<'BT'
tracepoint:sched:sched_wakeup, tracepoint:sched:sched_wakeup_new { @q[args->pid] = nsecs; }
tracepoint:sched:sched_switch {
	if ((args->prev_state & 0xff) == 0 && args->prev_pid != 0) { @q[args->prev_pid] = nsecs; }
	$t = @q[args->next_pid];
	if ($t != 0 && args->next_comm == "sleeper") { printf("lat %d\n", nsecs - $t); }
	delete(@q[args->next_pid]);
}
END { clear(@q); }
BT
bpftrace $OUT/rq.bt > $OUT/bt.out 2>&1 &
bt=$!
if ! wait_for 30 grep -q Attaching $OUT/bt.out; then
	kill $bt 2>/dev/null
	skip $name "bpftrace did not attach: $(grep ERROR $OUT/bt.out | tail -1)"
	exit 0
fi
# Pinned to CPU 0, where this VM records every switch: exact pairs on both sides.
$FTSCOPE runqlat -L --json -- $WL/sleeper 0 100 5 > $OUT/ft.json 2>/dev/null
kill -INT $bt
wait $bt
n=$(grep -c '^lat ' $OUT/bt.out)
if [ "$n" -eq 0 ]; then
	fail $name "no bpftrace result: $(tail -2 $OUT/bt.out | tr '\n' ' ')"
	exit 0
fi
btp50=$(awk '/^lat /{print $2}' $OUT/bt.out | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
ours=$(json '[g["hist"]["count"] for g in j["groups"] if g["comm"] == "sleeper"][0]' $OUT/ft.json)
p50=$(json '[g["hist"]["p50_ns"] for g in j["groups"] if g["comm"] == "sleeper"][0]' $OUT/ft.json)
echo "# ftscope: $ours wakeups, median ${p50} ns; bpftrace: $n wakeups, median ${btp50} ns"
# Same events: the counts match, except that ftscope also counts the command's one or
# two switch-ins before exec (its first, and the one after the start gate opens), when
# its comm is still "ftscope" and bpftrace's comm filter leaves them out. The medians must agree within 25% (+2 us): our percentiles are
# within 6.25%, and bpftrace's probes add their own cost to every wakeup.
d=$((p50 > btp50 ? p50 - btp50 : btp50 - p50))
if [ $((ours - n)) -ge 0 ] && [ $((ours - n)) -le 2 ] && [ $d -le $((btp50 / 4 + 2000)) ]; then
	pass $name
else
	fail $name "ftscope $ours/${p50}ns vs bpftrace $n/${btp50}ns"
fi
