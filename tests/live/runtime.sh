#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: run time where the kernel drops switches: threads hopping between CPU 0
#              and CPU 1 (2 ms of spin, 3 ms of sleep, x150; alone and beside busy
#              threads), each thread's run time in timehist -s and latency, live and
#              from a recording, against the kernel's own schedstat of that thread.
# requires: root, two CPUs
. tests/live/lib.sh
need_root runtime_vs_schedstat || exit 0
PY=tests/live/runtime_check.py
if [ "$(nproc)" -lt 2 ]; then
	skip runtime_vs_schedstat "needs CPUs 0 and 1"
	exit 0
fi

# Tolerance: the bar, 5% per thread. Measured error against schedstat on this
# VM (2 vCPUs), threads x runs:
#   live, alone:          -2.1 .. +1.9%  (2026-11-24: 24 threads, alone and beside
#                         perf bench sched pipe/messaging, a compile, callgrind)
#   live, beside busy:    -2.0 .. +1.8%  (40 threads, busy ones included)
#   live, beside foreign: -2.0 .. +2.2%  (12 threads; an untraced spinner on one CPU,
#                         bursts on the other)
#   record, then -i:      -1.9 .. +0.9%  (10 threads)
# A pid-filtered live run records every task's switches (tracer/run.c whole_stream):
# with the kernel's pid filter an untraced task's CPU looked silent, and its time was
# charged to the traced task switched in there: -3.9 .. +8.2% (34 threads, 4 beyond
# 5%) while other jobs ran, once +211%.
# Before the chain's fix: -49% on an idle VM (156 of 305 ms, issue 19).
# schedstat leaves out steal and irq time, which switch-to-switch times keep: a thread
# pinned to CPU 0, where every switch is recorded, reads +2.3%.
TOL=5

# check NAME KIND WORKLOAD_OUT OUTPUT: one result line
check() {
	local r
	if r=$(python3 $PY $2 $3 $4 $TOL); then
		pass $1
	else
		fail $1 "$r"
	fi
	echo "# $1: $r"
}

# foreign_load: 4 s of an untraced spinner and an untraced loop of short bursts and 1 ms naps
foreign_load() {
	timeout 4 sh -c 'while :; do :; done' &
	timeout 4 sh -c 'while :; do i=0; while [ $i -lt 300 ]; do i=$((i+1)); done; sleep 0.001; done' &
}

for v in alone:0 busy:2 foreign:0; do
	name=${v%:*}
	busy=${v#*:}
	wl="$WL/hopper 2 150 2 3 $busy"
	[ $name = foreign ] && foreign_load
	$FTSCOPE timehist -s -- $wl > $OUT/rt-th-$name.txt 2>&1
	check runtime_timehist_${name}_vs_schedstat timehist $OUT/rt-th-$name.txt \
		$OUT/rt-th-$name.txt
	$FTSCOPE latency --pids -- $wl > $OUT/rt-lat-$name.txt 2>&1
	check runtime_latency_${name}_vs_schedstat latency $OUT/rt-lat-$name.txt \
		$OUT/rt-lat-$name.txt
	wait
done

# a recording, read back by both
$FTSCOPE record -o $OUT/rt.dat -- $WL/hopper 2 150 2 3 > $OUT/rt-rec.txt 2>&1
$FTSCOPE timehist -s -i $OUT/rt.dat > $OUT/rt-th-file.txt 2>&1
check runtime_timehist_file_vs_schedstat timehist $OUT/rt-rec.txt $OUT/rt-th-file.txt
$FTSCOPE latency --pids -i $OUT/rt.dat > $OUT/rt-lat-file.txt 2>&1
check runtime_latency_file_vs_schedstat latency $OUT/rt-rec.txt $OUT/rt-lat-file.txt
