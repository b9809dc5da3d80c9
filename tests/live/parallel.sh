#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: four ftscope runs at once, each with known answers: two funclat runs
#              whose uprobes sit on the same function (each counts only its own
#              command's calls), runqlat and timehist over sleepers with a known number
#              of wakeups. All succeed, all answers hold, and nothing is left behind.
# requires: root, tracefs, uprobe_events
. tests/live/lib.sh
plan 1
need_root parallel || exit 0
BF=$WL/busyfn
before=$(snapshot)

# busyfn N1 US1 N2 US2: N1 + N2 calls of busy_wait
$FTSCOPE funclat --json $BF:busy_wait -- $BF 50 100 0 0 > $OUT/par-a.json 2> $OUT/par-a.err & a=$!
$FTSCOPE funclat --json $BF:busy_wait -- $BF 30 100 10 300 > $OUT/par-b.json 2> $OUT/par-b.err & b=$!
# sleeper CPU N MS: N naps of MS ms, each one wakeup and one switch-out asleep;
# SCHED_FIFO, so that the busy runs beside them never preempt them (a requeue counts):
# chrt first, so that taskset and the exec already run under it
$FTSCOPE runqlat -L --json -- chrt -f 10 taskset -c 0 $WL/sleeper 0 40 5 > $OUT/par-c.json 2> $OUT/par-c.err & c=$!
$FTSCOPE timehist -- chrt -f 10 taskset -c 1 $WL/sleeper 1 30 5 > $OUT/par-d.txt 2> $OUT/par-d.err & d=$!
ft_wait parallel_runs 0 $a; ra=$?
ft_wait parallel_runs 0 $b; rb=$?
ft_wait parallel_runs 0 $c; rc=$?
ft_wait parallel_runs 0 $d; rd=$?

na=$(json "j['total']['count']" $OUT/par-a.json 2> /dev/null)
nb=$(json "j['total']['count']" $OUT/par-b.json 2> /dev/null)
nc=$(json '[g["hist"]["count"] for g in j["groups"] if g["comm"] == "sleeper"][0]' \
	$OUT/par-c.json 2> /dev/null)
# timehist: rows of the sleeper switched out asleep (state S in perf's sense: not R)
nd=$(awk '$3 ~ /^sleeper\[/ { n++ } END { print n + 0 }' $OUT/par-d.txt)
after=$(snapshot)

if [ $ra$rb$rc$rd != 0000 ]; then
	fail parallel_runs "exit statuses $ra $rb $rc $rd: $(head -qn1 $OUT/par-?.err | tr '\n' ' ')"
elif [ "$na" != 50 ] || [ "$nb" != 40 ]; then
	fail parallel_runs "funclat on the same function counted $na and $nb calls (expected 50, 40)"
elif [ -z "$nc" ] || [ "$nc" -lt 40 ] || [ "$nc" -gt 48 ]; then
	# 40 naps, and a few more before them, one per wakeup of the same thread as it
	# becomes the sleeper: its fork, D sleeps in chrt's and taskset's exec and in the
	# move to CPU 0 (41-43 on an idle VM, 45 once under `make check`); a run counted
	# twice would be 80
	fail parallel_runs "runqlat saw $nc wakeups of the sleeper's 40"
elif [ "$nd" -lt 30 ] || [ "$nd" -gt 32 ]; then
	fail parallel_runs "timehist has $nd sleeper rows for its 30 naps"
elif [ "$before" != "$after" ]; then
	fail parallel_runs "tracefs state changed: $(state_diff "$before" "$after")"
else
	pass parallel_runs
fi
