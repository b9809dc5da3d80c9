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

# Tolerance: 5% per thread, the bar. Measured spread of the error against
# schedstat on this VM (2 vCPUs, loaded by other work), 6 runs each, threads x runs:
#   timehist -s live   -2.3 .. +0.9%  (before the fix: -6.0 .. -1.4%; idle host: -49%)
#   latency live       -2.8 .. +0.6%
#   with 2 busy threads -3.1 .. +1.2%
# schedstat leaves out steal and irq time, which ftscope's switch-to-switch times keep:
# a thread pinned to CPU 0, where every switch is recorded, reads +2.3%.
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

for v in alone:0 busy:2; do
	name=${v%:*}
	busy=${v#*:}
	wl="$WL/hopper 2 150 2 3 $busy"
	$FTSCOPE timehist -s -- $wl > $OUT/rt-th-$name.txt 2>&1
	check runtime_timehist_${name}_vs_schedstat timehist $OUT/rt-th-$name.txt $OUT/rt-th-$name.txt
	$FTSCOPE latency --pids -- $wl > $OUT/rt-lat-$name.txt 2>&1
	check runtime_latency_${name}_vs_schedstat latency $OUT/rt-lat-$name.txt $OUT/rt-lat-$name.txt
done

# a recording, read back by both
$FTSCOPE record -o $OUT/rt.dat -- $WL/hopper 2 150 2 3 > $OUT/rt-rec.txt 2>&1
$FTSCOPE timehist -s -i $OUT/rt.dat > $OUT/rt-th-file.txt 2>&1
check runtime_timehist_file_vs_schedstat timehist $OUT/rt-rec.txt $OUT/rt-th-file.txt
$FTSCOPE latency --pids -i $OUT/rt.dat > $OUT/rt-lat-file.txt 2>&1
check runtime_latency_file_vs_schedstat latency $OUT/rt-rec.txt $OUT/rt-lat-file.txt
