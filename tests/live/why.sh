#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: wakeup --why against a known answer: fifowake's SCHED_FIFO thread on CPU 1
#              wakes a normal thread there and spins 20 ms by its own clock; the normal
#              thread's slowest waits name the FIFO thread, running at the wakeup, with
#              its spin (its interrupts apart), and every breakdown adds up to its wait;
#              the same from the recording (-o) and in report; --why alone implies
#              --top 10; other analyzers refuse it; latency --why names the FIFO thread in
#              waiter's maximum delay, live, from the recording and in report; record
#              'wakeup --why' keeps the interrupt events and gives the same answer; the
#              global tracing state as before.
# requires: root, sched and irq tracepoints, 2 CPUs
. tests/live/lib.sh
plan 12
need_root why_fifo_named || exit 0
if [ "$(nproc)" -lt 2 ]; then
	skip_rest "needs CPU 1"
	exit 0
fi
before=$(global_state)
PY=tests/live/why_check.py
WLOUT=$OUT/why-wl.txt

# the known answer, whole system (-a: every task that ran on CPU 1 by name); the
# workload's own lines go to a file (exec: the command's pid is fifowake's)
# The host's steal on CPU 1, where the waits are, over the run: allowed below the spins
# (why_check.py); the checks of the recording take the live run's
ft why_fifo_named 0 wakeup --why --top 10 --json -a -o $OUT/why.dat -- \
	sh -c "exec $WL/fifowake 1 8 20 > $WLOUT" > $OUT/why.json 2> $OUT/why.err
export STEAL_MS=$(ft_steal 1)
check why_fifo_named named $OUT/why.json $WLOUT
check why_parts_add_up add_up $OUT/why.json $WLOUT
check why_irqs_apart irqs $OUT/why.json $WLOUT

# why_from_file: the recording keeps the interrupt events: the same answer from it
ft why_from_file 0 wakeup --why --top 10 --json -i $OUT/why.dat > $OUT/why-file.json 2>&1
check why_from_file named $OUT/why-file.json $WLOUT

# why_report: report's wakeup --why over the recording, as text: the FIFO thread's line
# under each of the 4 or more slowest waiter rows
name=why_report
fifo=$(awk '$1 == "fifo" {print $2}' $WLOUT)
ft $name 0 report -i $OUT/why.dat 'wakeup --why --top 10' > $OUT/why-report.txt 2>&1
n=$(grep -c "fifospin\[$fifo\] rt 50, running at the wakeup" $OUT/why-report.txt)
if [ -n "$fifo" ] && [ "$n" -ge 4 ]; then
	pass $name
else
	fail $name "$n lines name fifospin[$fifo] running at the wakeup, want 4 or more"
fi

# why_implies_top: --why without --top explains the 10 slowest (perf's habit: a useful
# default, not an error)
name=why_implies_top
ft $name 0 wakeup --why -i $OUT/why.dat > $OUT/why-notop.txt 2>&1
if grep -q '^10 slowest wakeups:' $OUT/why-notop.txt; then
	pass $name
else
	fail $name "$(grep slowest $OUT/why-notop.txt | head -1)"
fi

# why_latency_*: latency --why: waiter's maximum delay, live (a run of its own), from the
# recording, and in report
live=$STEAL_MS
ft why_latency_live 0 latency --why --pids --json -a -- \
	sh -c "exec $WL/fifowake 1 8 20 > $WLOUT.lat" > $OUT/why-lat.json 2> $OUT/why-lat.err
STEAL_MS=$(ft_steal 1) check why_latency_live latency $OUT/why-lat.json $WLOUT.lat
STEAL_MS=$live
ft why_latency_file 0 latency --why --pids --json -i $OUT/why.dat > $OUT/why-lat-file.json 2>&1
check why_latency_file latency $OUT/why-lat-file.json $WLOUT
name=why_latency_report
waiter=$(awk '$1 == "waiter" {print $2}' $WLOUT)
ft $name 0 report -i $OUT/why.dat 'latency --why --pids' > $OUT/why-lat-report.txt 2>&1
if [ -n "$waiter" ] && grep -A1 "^  waiter:$waiter " $OUT/why-lat-report.txt | tail -1 |
	grep -q "fifospin\[$fifo\] rt 50, running at the wakeup"; then
	pass $name
else
	fail $name "$(grep -A2 "waiter:$waiter " $OUT/why-lat-report.txt | head -3)"
fi

# why_record_opts: record takes an analyzer's options quoted with it, as report does:
# 'wakeup --why' records the interrupt events, and wakeup --why reads the same answer
name=why_record_opts
ft $name 0 record -o $OUT/why-rec.dat -a 'wakeup --why' -- \
	sh -c "exec $WL/fifowake 1 8 20 > $WLOUT.rec" > $OUT/why-rec.err 2>&1
st=$(ft_steal 1)	# CPU 1's steal over the recorded run, not the first run's
ft $name 0 wakeup --why --json -i $OUT/why-rec.dat > $OUT/why-rec.json 2>&1
if ! grep -q '"why_hardirq_events":true' $OUT/why-rec.json; then
	fail $name "the recording has no hard interrupt events: $(head -c 200 $OUT/why-rec.err)"
else
	STEAL_MS=$st check $name named $OUT/why-rec.json $WLOUT.rec
fi

# why_other_analyzers: only wakeup and latency have --why: another refuses it, exit 2, one line
name=why_other_analyzers
ft $name 2 runqlat --why -i $OUT/why.dat > /dev/null 2> $OUT/why-bad.err
if [ "$(wc -l < $OUT/why-bad.err)" = 1 ] && grep -q 'unknown option --why' $OUT/why-bad.err; then
	pass $name
else
	fail $name "$(head -c 200 $OUT/why-bad.err)"
fi

name=why_state_restored
after=$(global_state)
if [ "$before" = "$after" ]; then
	pass $name
else
	fail $name "$(state_diff "$before" "$after")"
fi
