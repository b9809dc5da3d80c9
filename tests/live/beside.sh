#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: ftscope beside other tracers (issue 34 item 7): trace-cmd record on the
#              top buffer, perf sched record and bpftrace's runqlat run at the same time
#              as ftscope timehist over one known workload; each counts the workload's
#              events as it does alone (its naps, by design), and ftscope changes nothing
#              of theirs: the top buffer's state trace-cmd set and a foreign instance stay
#              as they were, during and after ftscope's run; afterwards tracefs is as
#              before.
# requires: root, trace-cmd, perf, bpftrace (scripts/install-deps.sh --tests installs them)
# Takes about 7 s here (26 s with BESIDE_RUNS=6).
. tests/live/lib.sh
plan 6
need_root beside_tracecmd_counts || exit 0

# The workload: sleeper under a name of its own (no other test's tasks counted), started
# by taskset on CPU 0 (no migration wakeup of it at its start). NAPS naps of MS ms: by
# design NAPS switches out to sleep and NAPS wakeups, each tool counting them its way.
NAPS=20 MS=20
NAP=besidenap
cp $WL/sleeper $OUT/$NAP
WORK="taskset -c 0 $OUT/$NAP 0 $NAPS $MS"
FOREIGN=foreign-beside-$$
want="$NAPS $NAPS"

# trace_cmd ARGS...: trace-cmd in a mount namespace of its own, where the function tracer's
# files this kernel refuses to open (set_ftrace_pid, ..., EPERM in this VM) and the sysctl
# ftrace_enabled it may not write are stood in for by plain files: trace-cmd 3.1 writes
# them whatever it records (then dies: "Can't enable ftrace", or a segfault on
# set_ftrace_pid). It records events only; where the kernel allows them, nothing is bound.
# Called in the background: exec, so that $! is trace-cmd's own pid (SIGINT ends it).
trace_cmd() {
	exec unshare -m --propagation private bash -c '
		s=$1; shift
		: > $s.empty; echo 1 > $s.one
		for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
			for f in set_ftrace_pid set_ftrace_notrace_pid set_ftrace_filter \
				 set_ftrace_notrace; do
				[ -e $d/$f ] && ! cat $d/$f > /dev/null 2>&1 &&
					mount --bind $s.empty $d/$f
			done
		done
		echo 1 2> /dev/null > /proc/sys/kernel/ftrace_enabled ||
			mount --bind $s.one /proc/sys/kernel/ftrace_enabled
		exec trace-cmd "$@"' - $OUT/beside-shim "$@"
}

# tc_on: is trace-cmd recording (the top buffer on, with its two events)?
tc_on() {
	[ "$(cat $T/tracing_on)" = 1 ] && grep -q '^sched:sched_switch$' $T/set_event &&
		grep -q '^sched:sched_wakeup$' $T/set_event
}

# peers_start TAG WHICH...: start the peers named (tc, perf, bt) and wait until each
# traces; 1 with the reason in $why when one does not
peers_start() {
	local tag=$1 p
	shift
	why=
	for p in "$@"; do
		case $p in
		tc)
			rm -f $OUT/beside-$tag.dat
			trace_cmd record -e sched_switch -e sched_wakeup -o $OUT/beside-$tag.dat \
				> $OUT/beside-$tag.tc 2>&1 &
			tc=$!
			wait_for 30 tc_on || { why+="trace-cmd did not start: $(tail -1 $OUT/beside-$tag.tc) "; }
			;;
		perf)
			# started disabled, enabled through its control fifo: its "ack" says
			# the events are on
			rm -f $OUT/beside-ctl $OUT/beside-ack $OUT/beside-$tag.perf
			mkfifo $OUT/beside-ctl $OUT/beside-ack
			perf sched record -D -1 --control fifo:$OUT/beside-ctl,$OUT/beside-ack \
				-o $OUT/beside-$tag.perf > $OUT/beside-$tag.perflog 2>&1 &
			pf=$!
			exec {ctl}<> $OUT/beside-ctl {ack}<> $OUT/beside-ack
			echo enable >&$ctl
			read -r -t 30 -u $ack a || a=
			exec {ctl}>&- {ack}>&-
			[ "$a" = ack ] || why+="perf sched record did not start: $(tail -1 $OUT/beside-$tag.perflog) "
			;;
		bt)
			bt_start $OUT/beside-$tag.bt "" tests/live/beside.bt $NAP || why+="$bt_why "
			;;
		esac
	done
	[ -z "$why" ]
}

# peers_stop WHICH...: end the peers started (SIGINT, as a user does); their counts are
# read from their files; a peer ending badly adds to $why
peers_stop() {
	local p rc
	for p in "$@"; do
		case $p in
		tc)
			kill -INT $tc 2> /dev/null
			wait $tc
			rc=$?
			[ $rc = 0 ] || why+="trace-cmd exited $rc "
			;;
		perf)
			kill -INT $pf 2> /dev/null
			wait $pf
			rc=$?
			# perf record's status on SIGINT is 130 when it ends by it
			[[ $rc =~ ^(0|130)$ ]] || why+="perf exited $rc "
			;;
		bt)
			stop_bpftrace $bt || why+="bpftrace did not end on SIGINT "
			;;
		esac
	done
}

# count_tc TAG: the workload's switches out to sleep and wakeups in trace-cmd's file
count_tc() {
	trace-cmd report -i $OUT/beside-$1.dat 2> /dev/null | awk -v c=$NAP '
		$0 ~ "sched_switch: +" c ":[0-9]+ \\[[0-9]+\\] S ==>" { s++ }
		$0 ~ "sched_wakeup: +" c ":" { w++ }
		END { print s + 0, w + 0 }'
}

# lost TAG: what the peers say they lost in run TAG (trace-cmd: events, perf: LOST records)
lost() {
	echo "trace-cmd lost: $(grep -h 'events lost' $OUT/beside-$1.tc | tr '\n' ' ')" \
		"perf: $(perf report -i $OUT/beside-$1.perf --stats 2> /dev/null | grep -i lost |
			tr -s ' ' | tr '\n' ' ')"
}

# count_perf TAG: the same in perf's file (perf sched record takes sched_waking here)
count_perf() {
	perf script -i $OUT/beside-$1.perf 2> /dev/null | awk -v c=$NAP '
		$0 ~ "sched_switch: prev_comm=" c " .* prev_state=S " { s++ }
		$0 ~ "sched_switch: " c ":[0-9]+ \\[-?[0-9]+\\] S ==> " { s++ }	# the sched_switch plugin of perf 6.12
		$0 ~ "sched_wak(e|ing): comm=" c " " { w++ }
		END { print s + 0, w + 0 }'
}

# count_bt TAG: bpftrace's switches out to sleep, and runqlat latencies begun by a wakeup,
# with those whose switch-in the kernel's tracepoint did not report (the switch out of
# idle this kernel sometimes drops: 0-1 a run, in 1 of 6 runs alone)
count_bt() {
	awk '/^@sleeps:/ { s = $2 } /^@woken:/ { w = $2 } /^@missed:/ { m = $2 }
		END { print s + 0, w + m }' $OUT/beside-$1.bt
}

# count_ft TAG: timehist's rows of the workload after a nap (wait >= MS - 0.5 ms), each a
# nap's switch-in; twice (the pair as the peers print theirs: each nap also one wakeup)
count_ft() {
	awk -v c="^$NAP\\\\[" -v ms=$MS '$3 ~ c && $4 >= ms - 0.5 { n++ }
		END { print n + 0, n + 0 }' $OUT/beside-$1.ft
}

# theirs: the tracefs state of others that ftscope must leave as it is: the top buffer's
# (trace-cmd's settings) and the foreign instance's, and the instances not ftscope's
theirs() {
	local d f
	for d in $T $T/instances/$FOREIGN; do
		echo "== $d"
		for f in tracing_on current_tracer buffer_size_kb buffer_percent set_event \
			 set_event_pid trace_clock tracing_cpumask trace_options; do
			[ -e $d/$f ] && echo "$f: $(tr '\n' ' ' < $d/$f)"
		done
		grep -H . $d/events/sched/*/enable | sed "s|^$d/||"
	done
	ls $T/instances | grep -v '^ftscope-'
}

state_before

# Alone: ftscope, then each peer, on the workload (BESIDE_RUNS=5 repeats them: the
# spread written beside the checks below).
for ((r = 0; r < ${BESIDE_RUNS:-1}; r++)); do
	ft beside_ftscope_counts 0 timehist -- $WORK > $OUT/beside-alone.ft 2> $OUT/beside-alone.fterr
	alone_ft=$(count_ft alone)
	alone_why=
	for p in tc perf bt; do
		peers_start alone $p && $WORK
		peers_stop $p
		alone_why+=$why
		eval alone_$p='$(count_$p alone)'
	done
	echo "# alone: ftscope $alone_ft, trace-cmd $alone_tc, perf $alone_perf, bpftrace $alone_bt;" \
		"$(lost alone)"
done

# Together: a foreign instance recording, then trace-cmd, perf and bpftrace; ftscope
# starts the workload. theirs() between trace-cmd's start and ftscope's, while ftscope
# traces, and after it ended, trace-cmd still recording.
mkdir $T/instances/$FOREIGN
echo 1 > $T/instances/$FOREIGN/events/sched/sched_switch/enable
echo 1 > $T/instances/$FOREIGN/tracing_on
echo 2048 > $T/instances/$FOREIGN/buffer_size_kb
peers_start both tc perf bt
start_why=$why
theirs > $OUT/beside-theirs.0
$FTSCOPE timehist -- $WORK > $OUT/beside-both.ft 2> $OUT/beside-both.fterr &
ftp=$!
if wait_for 20 our_instance $ftp; then
	theirs > $OUT/beside-theirs.1
else
	echo "ftscope's instance not seen" > $OUT/beside-theirs.1
fi
ft_wait beside_ftscope_counts 0 $ftp
theirs > $OUT/beside-theirs.2
peers_stop tc perf bt
stop_why=$why
echo > $T/instances/$FOREIGN/set_event
rmdir $T/instances/$FOREIGN
both_ft=$(count_ft both)
for p in tc perf bt; do
	eval both_$p='$(count_$p both)'
done
echo "# together: ftscope $both_ft, trace-cmd $both_tc, perf $both_perf, bpftrace $both_bt;" \
	"$(lost both)"

# same NAME TOOL ALONE BOTH WANT: the tool's counts (switches out to sleep, wakeups)
# alone and beside the others both match WANT (a regular expression), the workload's
# design: NAPS each. A failed start or end of a peer fails its check.
same() {
	local w="$start_why$stop_why$alone_why"
	if grep -q "$2" <<< "$w"; then
		fail $1 "$(grep -o "$2.*" <<< "$w" | cut -c1-120)"
	elif [[ $3 =~ ^($5)$ ]] && [[ $4 =~ ^($5)$ ]]; then
		pass $1
	else
		fail $1 "counts alone '$3', beside the others '$4'; want '$5' (the workload's design)"
	fi
}
# Measured alone in 17 runs and together in 12 (BESIDE_RUNS=6 once, the script 11
# times): trace-cmd and ftscope counted 20 20 every time, so no tolerance. perf
# counted 20 sleeps every time and 20 wakings but once alone 19 (in 8 more runs of perf
# alone, 20 every time; the cause not found: its LOST records were not looked at then,
# the comment lines above show them now). bpftrace counted 20 sleeps every time, and
# 20 wakeup latencies (with those it saw missed) but in 4 runs alone 19: that wakeup's
# probe did not run (neither its latency nor a missed one), most likely skipped by the
# kernel: a tracepoint's BPF program does not run when it fires in an interrupt on a CPU
# where a BPF tracing program runs (bpf_prog_active; bpftrace 0.17 shows no count of it). So the wakeups of those two: 19 or 20, alone and together.
same beside_tracecmd_counts trace-cmd "$alone_tc" "$both_tc" "$want"
same beside_perf_counts perf "$alone_perf" "$both_perf" "$NAPS ($NAPS|$((NAPS - 1)))"
same beside_bpftrace_counts bpftrace "$alone_bt" "$both_bt" "$NAPS ($NAPS|$((NAPS - 1)))"
same beside_ftscope_counts ftscope "$alone_ft" "$both_ft" "$want"

# ftscope touched nothing of theirs: their state before its start, while it traced and
# after it ended is the same (trace-cmd and the foreign instance still on)
name=beside_untouched
if ! grep -q '^tracing_on: 1' $OUT/beside-theirs.0; then
	fail $name "trace-cmd was not recording when ftscope started ($start_why)"
elif ! cmp -s $OUT/beside-theirs.0 $OUT/beside-theirs.1; then
	fail $name "while ftscope traced: $(state_diff "$(cat $OUT/beside-theirs.0)" "$(cat $OUT/beside-theirs.1)")"
elif ! cmp -s $OUT/beside-theirs.0 $OUT/beside-theirs.2; then
	fail $name "after ftscope ended: $(state_diff "$(cat $OUT/beside-theirs.0)" "$(cat $OUT/beside-theirs.2)")"
else
	pass $name
fi

# And when all have ended, tracefs is as it was before the first of them
name=beside_state_restored
d=$(state_changed)
if [ -z "$d" ]; then
	pass $name
else
	fail $name "tracefs after the tracers: $d"
fi
