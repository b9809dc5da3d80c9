#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: run time where the kernel drops switches: threads hopping between CPU 0
#              and CPU 1 (2 ms of spin, 3 ms of sleep, x150; alone, beside busy threads,
#              beside untraced ones), each thread's run time in timehist -s and latency,
#              live and from a recording, against the kernel's own schedstat of that
#              thread.
# requires: root, two CPUs
. tests/live/lib.sh
plan 8
need_root runtime_vs_schedstat || exit 0
PY=tests/live/runtime_check.py
if [ "$(nproc)" -lt 2 ]; then
	skip_rest "needs CPUs 0 and 1"
	exit 0
fi

# Tolerance: 5% of the kernel's figure per thread. Measured against schedstat on this VM
# (2 vCPUs) on 2026-11-27, with the chain timing rebuilt switch-ins by the task's return
# to user space (rseq_update) and the delays it learned:
#   live, alone:              -0.8 .. -0.4%  (6 runs x 2 threads x timehist and latency)
#   live, beside busy:        -0.7 .. -0.1%  (busy threads of the same command included)
#   live, beside foreign load -0.8 .. +0.7%  (untraced: spinners on both CPUs, perf bench
#   (untraced tasks):                         sched messaging in a loop, sleepers, another
#                                             hopper; the same without rseq_update: -0.8 ..
#                                             +0.7%, so the learned delays alone hold it)
#   record, then -i:          -0.8 .. -0.4%
# Earlier chains were off by -3.9 .. +8.2% alone (4 of 34 threads beyond 5%: an untraced
# task on a CPU the pid-filtered stream showed as silent, its time counted to the traced
# task switched in there; once +211% beside callgrind): the "foreign" case keeps an
# untraced hopper and busy threads running beside the traced one. Before issue 19's fix:
# -49% on an idle VM. schedstat leaves out steal and irq time, which switch-to-switch
# times keep: a thread pinned to CPU 0, where every switch is recorded, reads +2.3%. The
# host's steal over each run is allowed above the tolerance (lib.sh's ft_steal: a
# fresh root read +10.9% and +15.7% with the host stealing 6% of the CPUs).
TOL=5

# check NAME KIND WORKLOAD_OUT OUTPUT [TOLERANCE]: one result line; the host's steal over
# the workload's run ($ST, ms: ft_steal) allowed above the tolerance
check() {
	local r
	if r=$(STEAL_MS=$ST python3 $PY $2 $3 $4 ${5:-$TOL}); then
		pass $1
	else
		fail $1 "$r"
	fi
	echo "# $1: $r"
}

# checked NAME KIND OUTPUT TOL: check NAME, unless the untraced hopper of the foreign case
# ($fl) ended before its run did (then the case ran alone: a FAIL)
checked() {
	if [ -n "$fl" ] && ! kill -0 $fl 2> /dev/null; then
		fail $1 "the untraced hopper ended before this run did"
	else
		check $1 $2 $3 $3 $4
	fi
}

for v in alone:0 busy:2 foreign:0; do
	name=${v%:*}
	busy=${v#*:}
	wl="$WL/hopper 2 150 2 3 $busy"
	# foreign: an untraced hopper with two busy threads, hopping and sleeping beside
	# the traced one through both runs (about 0.8 s each; its 4000 rounds last 20 s,
	# it is stopped after them)
	fl=''
	if [ $name = foreign ]; then
		$WL/hopper 2 4000 2 3 2 > /dev/null &
		fl=$!
	fi
	ft runtime_timehist_${name}_vs_schedstat 0 timehist -s -- $wl > $OUT/rt-th-$name.txt 2>&1
	ST=$(ft_steal)
	checked runtime_timehist_${name}_vs_schedstat timehist $OUT/rt-th-$name.txt $TOL
	ft runtime_latency_${name}_vs_schedstat 0 latency --pids -- $wl > $OUT/rt-lat-$name.txt 2>&1
	ST=$(ft_steal)
	checked runtime_latency_${name}_vs_schedstat latency $OUT/rt-lat-$name.txt $TOL
	[ -n "$fl" ] && { kill $fl; wait $fl; } 2> /dev/null
done

# a recording, read back by both
ft runtime_timehist_file_vs_schedstat 0 record -o $OUT/rt.dat -- $WL/hopper 2 150 2 3 \
	> $OUT/rt-rec.txt 2>&1
ST=$(ft_steal)
ft runtime_timehist_file_vs_schedstat 0 timehist -s -i $OUT/rt.dat > $OUT/rt-th-file.txt 2>&1
check runtime_timehist_file_vs_schedstat timehist $OUT/rt-rec.txt $OUT/rt-th-file.txt
ft runtime_latency_file_vs_schedstat 0 latency --pids -i $OUT/rt.dat > $OUT/rt-lat-file.txt 2>&1
check runtime_latency_file_vs_schedstat latency $OUT/rt-rec.txt $OUT/rt-lat-file.txt
