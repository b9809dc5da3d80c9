#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: timehist offline on known bytes: perfetto's six sched_switch page (read
#              in place from ../shared) against a reference computed from the kernel's own
#              text of the same records; and our own 6.18 capture of 20 x 5 ms sleeps.
#              The golden page's twin on a file made here (a plain clone has no
#              ../shared): timehist -i of an ftscope recording against perf sched
#              timehist of the same run, which perf recorded beside it.
# requires: nothing for the first two (captures are files); root and perf for the twin
. tests/live/lib.sh
plan 3
PY=tests/live/sched_check.py
SHARED=${FTSCOPE_SHARED:-../shared}
P=$SHARED/fixtures/third_party/perfetto

if [ -f $P/g_six_sched_switch.bin ]; then
	# a capture directory of links to the fixture: header_page, format, cpu0.raw
	rm -rf $OUT/six && mkdir -p $OUT/six
	ln -s "$(realpath $P/formats/synthetic/header_page)" $OUT/six/header_page
	ln -s "$(realpath $P/formats/synthetic/sched_switch.format)" $OUT/six/sched_switch.format
	ln -s "$(realpath $P/g_six_sched_switch.bin)" $OUT/six/cpu0.raw
	ft timehist_golden_six_switches 0 timehist --state -i $OUT/six > $OUT/six.txt 2>&1
	if r=$(python3 $PY golden $OUT/six.txt $P/g_six_sched_switch.expected.txt); then
		pass timehist_golden_six_switches
	else
		fail timehist_golden_six_switches "$r"
	fi
	echo "# $r"
else
	skip timehist_golden_six_switches "no $P (../shared fixtures)"
fi

ft timehist_golden_own_capture 0 timehist -i tests/data/cap-sleeper > $OUT/cap-sleeper.txt 2>&1
if r=$(python3 $PY sleeps $OUT/cap-sleeper.txt sleeper 20 5); then
	pass timehist_golden_own_capture
else
	fail timehist_golden_own_capture "$r"
fi
echo "# $r"

# the twin of timehist_golden_six_switches on a file of our own: ftscope record (on perf's
# clock) under perf sched record -a, then timehist -i of our trace.dat against perf sched
# timehist of perf's perf.data of the same run: each thread of tests/workloads/waits
# (napper: 20 naps of 50 ms; ping and pong: 200 wakeups each other) row for row, wait and
# run within 3% or 20 us, sums within 3% (sched_check.py peer, as sched.sh does live), and
# napper's rows at the times perf printed, within 20 us (times). perf reads its own
# recording of the same events, not our file: two clocks read at two points of each
# tracepoint, so not equal to the ns as the golden page's rows are; and perf 6.1 reads a
# preempted task's R+ as W, so sch delay is not compared (sched.sh checks it apart)
name=timehist_golden_own_recording_vs_perf
if [ "$(id -u)" -ne 0 ]; then
	skip $name "needs root (a recording)"
elif ! perf sched record -o $OUT/golden-probe.data -- true > /dev/null 2>&1; then
	skip $name "perf sched record does not work here"
else
	rm -f $OUT/golden-own.dat $OUT/golden-own.data
	FT_WITH="perf sched record -a -o $OUT/golden-own.data --" ft $name 0 record --clock perf \
		-o $OUT/golden-own.dat -- taskset -c 0 $WL/waits 0 20 50 200 > $OUT/golden-own.rec 2>&1
	ft $name 0 timehist -i $OUT/golden-own.dat > $OUT/golden-own.txt 2>&1
	perf sched timehist -i $OUT/golden-own.data > $OUT/golden-own-perf.txt 2>/dev/null
	r="" ok=1
	for c in "peer napper" "peer ping" "peer pong" "times napper"; do
		set -- $c
		if m=$(python3 $PY $1 $OUT/golden-own.txt $OUT/golden-own-perf.txt $2 2>&1); then
			r="$r $(echo "$m" | tail -1);"
		else
			ok=0 r="$r $1 $(echo "$m" | tail -1);"
		fi
	done
	if [ $ok = 1 ]; then
		pass $name
	else
		fail $name "$r"
	fi
	echo "# $name:$r"
fi
