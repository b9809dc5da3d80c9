#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: interruption torture. 50 runs of random analyzers (runqlat, timehist,
#              offcpu, wakeup, funclat with a uprobe) stopped at a random moment by
#              SIGINT, SIGTERM, SIGHUP or SIGPIPE (the reader of their output goes away
#              after a random number of bytes), half of them reading the mapped buffer
#              (--mmap): after each, the global tracefs state,
#              options, events, dynamic events and instance list are what they were
#              (other runs of ftscope, which come and go beside it, apart: lib.sh's
#              state_before). Then SIGKILL in the middle of a probed run, and
#              `ftscope reset`: the same state again, with someone else's instance and
#              uprobe untouched.
# requires: root, tracefs, uprobe_events. TORTURE_SEED=N replays a sequence.
. tests/live/lib.sh
plan 2
need_root torture || exit 0
seed=${TORTURE_SEED:-$$}
RANDOM=$seed
runs=${TORTURE_RUNS:-50}

# Someone else's instance and uprobe: they must outlive everything below.
foreign=foreign-torture
mkdir -p $T/instances/$foreign
echo 1 > $T/instances/$foreign/events/sched/sched_waking/enable
off=$(printf '0x%x' $(( $(stat -c %s /bin/true) / 2 & ~0xf )))
have_uprobe=0
echo "p:foreign_torture/probe /bin/true:$off" >> $T/uprobe_events 2>/dev/null && have_uprobe=1

analyzers=("runqlat" "timehist" "offcpu" "wakeup" "funclat $WL/busyfn:busy_wait")
signals=(INT TERM HUP PIPE)
bad=0 first=
for i in $(seq $runs); do
	an=${analyzers[RANDOM % ${#analyzers[@]}]}
	sig=${signals[RANDOM % ${#signals[@]}]}
	[ $((RANDOM % 2)) = 1 ] && an="$an --mmap"
	state_before
	if [ $sig = PIPE ]; then
		# the moment: after a random number of output bytes (interval output every 50 ms)
		n=$((RANDOM % 400 + 1))
		what="$an | head -c $n"
		# shellcheck disable=SC2086
		ok="0 141"
		ft torture_signals "${ok/ /|}" $an 0.05 2> $OUT/torture.err | head -c $n > /dev/null
		rc=${PIPESTATUS[0]}
	else
		# the moment: a random time from 0 to 600 ms after the start, often mid-setup
		ms=$((RANDOM % 600))
		what="$an, SIG$sig after $ms ms"
		# shellcheck disable=SC2086
		$FTSCOPE $an > /dev/null 2> $OUT/torture.err &
		pid=$!
		sleep "$(printf '0.%03d' $ms)"
		kill -$sig $pid
		# 0 with a report, or killed by the signal itself before the handlers were set
		ok="0 $((128 + $(kill -l $sig)))"
		ft_wait torture_signals "${ok/ /|}" $pid
		rc=$?
	fi
	changed=$(state_changed)
	if [[ " $ok " != *" $rc "* ]]; then
		bad=$((bad + 1))
		[ -z "$first" ] && first="run $i ($what): exit $rc: $(head -1 $OUT/torture.err)"
	elif [ -n "$changed" ]; then
		bad=$((bad + 1))
		[ -z "$first" ] && first="run $i ($what) changed tracefs: $changed"
		ft torture_signals 0 reset > /dev/null 2>&1
	fi
done
if [ $bad -eq 0 ]; then
	pass "torture_signals ($runs runs, seed $seed)"
else
	fail torture_signals "$bad of $runs runs (seed $seed); first: $first"
fi

# SIGKILL while a uprobe is registered: the instance and probe stay; reset takes them.
name=torture_sigkill_reset
state_before
$FTSCOPE funclat $WL/busyfn:busy_wait > /dev/null 2>&1 &
pid=$!
if ! wait_for 10 our_instance $pid; then
	kill -KILL $pid 2>/dev/null
	ft_wait $name 137 $pid 2>/dev/null	# SIGKILL's status: 128 + 9
	fail $name "the run never started tracing"
else
	kill -KILL $pid
	ft_wait $name 137 $pid 2>/dev/null
	left=$(state_changed)
	probes=$(grep "ftscope_${pid}_" $T/uprobe_events)
	ft $name 0 reset > $OUT/torture-reset.txt 2>&1
	rc=$?
	after=$(state_changed)
	if [[ $left != *"left ftscope-$pid-"* ]]; then
		fail $name "SIGKILL left no instance behind to reset: $left"
	elif [ -z "$probes" ]; then
		fail $name "no uprobe of the killed run was registered"
	elif [ $rc -ne 0 ]; then
		fail $name "reset exit $rc: $(head -1 $OUT/torture-reset.txt)"
	elif [ -n "$after" ]; then
		fail $name "state after reset differs: $after"
	elif [ ! -d $T/instances/$foreign ] ||
	     { [ $have_uprobe = 1 ] && ! grep -q foreign_torture $T/uprobe_events; }; then
		fail $name "reset removed someone else's instance or uprobe"
	else
		pass $name
	fi
fi

[ $have_uprobe = 1 ] && echo "-:foreign_torture/probe" >> $T/uprobe_events
rmdir $T/instances/$foreign
