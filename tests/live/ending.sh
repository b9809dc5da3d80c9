#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: a run on -p/-t ends when every target has exited (as perf record -p and
#              perf stat -p end), with its report and status 0; several targets: the
#              last; with -a beside: the duration; a reader that goes away (| head)
#              ends it, its instance removed (issue 36, defect 2).
# requires: root
. tests/live/lib.sh
plan 8
need_root ending_p_runqlat || exit 0

# elapsed NAME WANT LO HI ARGS...: ftscope ARGS (exit WANT), its wall time in [LO, HI] s;
# prints the seconds; returns 1 (after FAIL) when outside
elapsed() {
	local name=$1 want=$2 lo=$3 hi=$4 t0 t1 s
	shift 4
	t0=$(date +%s%N)
	ft $name $want "$@" > $OUT/end-$name.out 2> $OUT/end-$name.err < /dev/null
	t1=$(date +%s%N)
	s=$(awk -v a=$t0 -v b=$t1 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
	echo "$s"
	awk -v s=$s -v lo=$lo -v hi=$hi 'BEGIN { exit !(s >= lo && s <= hi) }'
}

# A -p target that lives 1.5 s from ftscope's start: the run ends within 1.2 s after its
# exit (ftscope's own start and the commit lag of its last records: 0.3 .. 0.5 s measured)
# and not before it, with the analyzer's report. Before: it ran on until Ctrl-C (a
# `timeout 6` here: 6 s). One case per analyzer family.
for a in runqlat offcpu timehist funclat; do
	name=ending_p_$a
	args=$a
	[ $a = timehist ] && args="timehist -s"
	[ $a = funclat ] && args="funclat c:nanosleep"
	sleep 1.5 &
	tgt=$!
	# shellcheck disable=SC2086
	if s=$(FT_WITH="timeout 6" elapsed $name 0 1.4 2.7 $args -p $tgt); then
		if [ -s $OUT/end-$name.out ] && grep -q "events processed" $OUT/end-$name.out \
		   $OUT/end-$name.err; then
			pass "$name (${s} s for a 1.5 s target)"
		else
			fail $name "no report: $(head -2 $OUT/end-$name.err | tr '\n' '|')"
		fi
	else
		fail $name "${s} s for a target of 1.5 s (want 1.4 .. 2.7)"
	fi
	wait $tgt 2>/dev/null
done

# Two processes: the run lasts until the later one is gone (0.5 and 1.8 s)
name=ending_p_two
sleep 0.5 &
t1=$!
sleep 1.8 &
t2=$!
if s=$(FT_WITH="timeout 6" elapsed $name 0 1.7 3.0 runqlat -p $t1,$t2); then
	pass "$name (${s} s, the later target 1.8 s)"
else
	fail $name "${s} s, want 1.7 .. 3.0 (the later of 0.5 and 1.8 s)"
fi
wait $t1 $t2 2>/dev/null

# -t of a thread (no pidfd: looked up in /proc each round)
name=ending_t_thread
sleep 1 &
tgt=$!
if s=$(FT_WITH="timeout 6" elapsed $name 0 0.9 2.7 runqlat -t $tgt); then
	pass "$name (${s} s for a 1 s thread)"
else
	fail $name "${s} s, want 0.9 .. 2.7"
fi
wait $tgt 2>/dev/null

# -a beside -p: the whole system was asked for, the run goes on to -d 2.5
name=ending_p_with_all
sleep 0.5 &
tgt=$!
if s=$(FT_WITH="timeout 8" elapsed $name 0 2.4 4.5 runqlat -a -p $tgt -d 2.5); then
	pass "$name (${s} s with -d 2.5)"
else
	fail $name "${s} s, want 2.4 .. 4.5 (-d 2.5)"
fi
wait $tgt 2>/dev/null

# | head -3 of a list that goes on: the pipe's reader gone, ftscope's next write ends it
# (SIGPIPE caught: the instance removed). The target naps 1 ms at a time for 20 s (rows
# all along); the run must end within 10 s of head's exit (the report that filed the
# issue saw `funclat --min-us 0 ... -p PID | head -3` hang for 10 minutes).
name=ending_pipe_head
$WL/sleeper 0 20000 1 > /dev/null 2>&1 &
tgt=$!
before=$(ls $T/instances)
t0=$(date +%s)
FT_WITH="timeout 20" ft $name 0 timehist -p $tgt 2> $OUT/end-head.err < /dev/null |
	head -3 > $OUT/end-head.out
rc=${PIPESTATUS[0]}
t1=$(date +%s)
kill $tgt 2>/dev/null
wait $tgt 2>/dev/null
left=$(comm -13 <(echo "$before") <(ls $T/instances) | grep '^ftscope-')
# exit: 0 (ended on SIGPIPE as on Ctrl-C), never timeout's 124
if [ $((t1 - t0)) -le 12 ] && [ -z "$left" ] && [ "$(wc -l < $OUT/end-head.out)" = 3 ] &&
   [ "$rc" != 124 ]; then
	pass "$name ($((t1 - t0)) s, exit $rc)"
else
	fail $name "$((t1 - t0)) s, exit $rc, $(wc -l < $OUT/end-head.out) lines, left: $left"
fi
