#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: ftscope stat against perf stat on the same workload, known answers of
#              the faulter workload (64 MB touched: >= 16384 page faults; 300 ms of CPU),
#              unsupported counters, -p, -a, -I, JSON, the command's exit status, and
#              --pmu beside an analyzer (the sched_switch counter against the trace).
# requires: root, perf (linux-perf) for the peer comparison
. tests/live/lib.sh

FA=$WL/faulter
HAVE_PERF=$(command -v perf)

# field CSVFILE EVENT: the value column of EVENT's line in -x, output
field() {
	awk -F, -v e="$2" '$3 == e { print $1 }' "$1"
}

# median PREFIX EVENT: the median of EVENT's values in PREFIX.1 .. PREFIX.3
median() {
	for i in 1 2 3; do field "$1.$i" "$2"; done | sort -g | sed -n 2p
}

# within A B PCT: do A and B differ by at most PCT percent of B?
within() {
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b * p / 100) }'
}

need_root stat || exit 0

# --- the peer: perf stat on the same workload, same events, same CSV layout
name=stat_vs_perf_stat
if [ -z "$HAVE_PERF" ]; then
	skip $name "perf is not installed"
else
	# Three runs of each, alternating, compared by their medians: on this VM the first
	# runs of a series are up to 25% slower whichever tool runs them. A series whose
	# medians disagree while the host stole vCPU time runs again (up to three series).
	for attempt in 1 2 3; do
		s0=$(steal)
		rc1=0
		for i in 1 2 3; do
			$FTSCOPE stat -x, -e task-clock,context-switches,page-faults -- $FA 64 300 \
				2> $OUT/stat.ours.$i || rc1=$?
			perf stat -x, -e task-clock,context-switches,page-faults -- $FA 64 300 \
				2> $OUT/stat.perf.$i
		done
		stolen=$(( $(steal) - s0 ))
		cp $OUT/stat.ours.1 $OUT/stat.ours
		tc=$(median $OUT/stat.ours task-clock) ptc=$(median $OUT/stat.perf task-clock)
		pf=$(median $OUT/stat.ours page-faults) ppf=$(median $OUT/stat.perf page-faults)
		why=
		if [ $rc1 -ne 0 ] || [ -z "$tc" ] || [ -z "$pf" ]; then
			why="exit $rc1: $(head -3 $OUT/stat.ours | tr '\n' '|')"
		elif ! within "$tc" "$ptc" 5; then
			why="task-clock $tc ms vs perf's $ptc ms (more than 5% apart)"
		elif ! within "$pf" "$ppf" 10; then
			why="page-faults $pf vs perf's $ppf (more than 10% apart)"
		fi
		[ -z "$why" ] && break
		notes="$notes series $attempt: $why (host steal $stolen ticks);"
		[ "$stolen" -eq 0 ] && break
	done
	if [ -n "$why" ] && [ "$stolen" -gt 0 ]; then
		skip $name "the host stole vCPU time in all three series:$notes"
	elif [ -n "$why" ]; then
		fail $name "$notes"
	else
		pass "$name (task-clock $tc vs $ptc ms, page-faults $pf vs $ppf; series $attempt)"
	fi
fi

# --- known answers, without any peer
name=stat_known_answers
if [ ! -s $OUT/stat.ours ]; then
	$FTSCOPE stat -x, -e task-clock,context-switches,page-faults -- $FA 64 300 2> $OUT/stat.ours
fi
tc=$(field $OUT/stat.ours task-clock)
pf=$(field $OUT/stat.ours page-faults)
if awk -v t="$tc" -v f="$pf" 'BEGIN { exit !(t >= 300 && t < 3000 && f >= 16384 && f < 20000) }'; then
	pass "$name (task-clock $tc ms >= 300, page-faults $pf >= 16384)"
else
	fail $name "task-clock '$tc' ms, page-faults '$pf'"
fi

# --- a counter the machine lacks: <not supported>, the rest counts, exit 0
name=stat_not_supported
$FTSCOPE stat -e cycles,task-clock -- $FA 0 20 2> $OUT/stat.ns
rc=$?
if [ -n "$HAVE_PERF" ] && perf stat -e cycles true 2>&1 | grep -q 'not supported'; then
	if [ $rc -eq 0 ] && grep -Eq '^ +<not supported> +cycles$' $OUT/stat.ns &&
	   grep -Eq '^ +[0-9.]+ msec task-clock' $OUT/stat.ns; then
		pass $name
	else
		fail $name "exit $rc: $(tr '\n' '|' < $OUT/stat.ns)"
	fi
elif [ $rc -eq 0 ] && grep -Eq '^ +[0-9]+ +cycles' $OUT/stat.ns; then
	pass "$name (this machine counts cycles: counted)"
else
	fail $name "exit $rc: $(tr '\n' '|' < $OUT/stat.ns)"
fi

# --- the command's exit status comes back, as with perf stat
name=stat_exit_status
$FTSCOPE stat -e task-clock -- sh -c 'exit 7' 2> /dev/null
rc=$?
[ $rc -eq 7 ] && pass $name || fail $name "exit $rc, not 7"

# --- perf's way of giving the command, without "--"
name=stat_command_without_dashdash
$FTSCOPE stat -e page-faults $FA 4 0 2> $OUT/stat.nd
pf=$(awk '$2 == "page-faults" { print $1 }' $OUT/stat.nd)
if [ -n "$pf" ] && [ "$pf" -ge 1024 ] && grep -q "for '$FA 4 0'" $OUT/stat.nd; then
	pass "$name ($pf page faults for 4 MB)"
else
	fail $name "$(tr '\n' '|' < $OUT/stat.nd)"
fi

# --- -p: a process burning CPU is ~1 CPU busy while counted; no -d needed to stop
name=stat_pid
$FA 0 60000 &
burn=$!
$FTSCOPE stat -p $burn -e task-clock -x, -d 0.5 2> $OUT/stat.p
rc=$?
kill $burn; wait $burn 2> /dev/null
util=$(awk -F, '$3 == "task-clock" { print $6 }' $OUT/stat.p)
if [ $rc -eq 0 ] && awk -v u="$util" 'BEGIN { exit !(u > 0.7 && u <= 1.05) }'; then
	pass "$name ($util CPUs utilized)"
else
	fail $name "exit $rc: $(cat $OUT/stat.p)"
fi

# --- -a: cpu-clock counts every CPU for the whole window
name=stat_system_wide
$FTSCOPE stat -a -e cpu-clock -x, -d 0.5 2> $OUT/stat.a
util=$(awk -F, '$3 == "cpu-clock" { print $6 }' $OUT/stat.a)
if within "$util" "$(nproc)" 5; then
	pass "$name ($util CPUs utilized of $(nproc))"
else
	fail $name "'$util' CPUs utilized, expected $(nproc): $(cat $OUT/stat.a)"
fi

# --- -I: interval lines add up to the whole (the workload burns 400 ms of CPU)
name=stat_interval
$FTSCOPE stat -I 100 -x, -e task-clock -- $FA 0 400 2> $OUT/stat.i
n=$(grep -c ',task-clock,' $OUT/stat.i)
sum=$(awk -F, '$4 == "task-clock" && $2 !~ /not/ { s += $2 } END { print s + 0 }' $OUT/stat.i)
if [ "$n" -ge 3 ] && awk -v s="$sum" 'BEGIN { exit !(s >= 400 && s < 4000) }'; then
	pass "$name ($n lines, $sum ms in all)"
else
	fail $name "$n lines, $sum ms: $(head -3 $OUT/stat.i | tr '\n' '|')"
fi

# --- --json: one object, values and metrics
name=stat_json
$FTSCOPE stat --json -e task-clock,page-faults -- $FA 8 50 2> $OUT/stat.json
if [ "$(json "[c['value'] >= 50 for c in j['pmu'] if c['event'] == 'task-clock'] == [True] and
	    [c['value'] >= 2048 for c in j['pmu'] if c['event'] == 'page-faults'] == [True] and
	    j['user_ns'] + j['sys_ns'] > 0" $OUT/stat.json 2>&1)" = True ]; then
	pass $name
else
	fail $name "$(head -c 300 $OUT/stat.json)"
fi

# --- --pmu: counters over the trace window. The tracepoint counter of the command
# counts its switches; the trace has one more row for it, the switch at its exit
# (counters are detached in do_exit, before that last switch).
name=pmu_beside_timehist
before=$(snapshot)
$FTSCOPE timehist --pmu sched:sched_switch,context-switches,task-clock -- $WL/sleeper 0 20 10 \
	> $OUT/pmu.th 2> $OUT/pmu.err
rc=$?
rows=$(grep -c ' sleeper\[' $OUT/pmu.th)
sw=$(awk '$2 == "sched:sched_switch" { print $1 }' $OUT/pmu.th)
cs=$(awk '$2 == "context-switches" { print $1 }' $OUT/pmu.th)
if [ $rc -ne 0 ] || [ -z "$sw" ]; then
	fail $name "exit $rc: $(tail -3 $OUT/pmu.err)"
elif [ "$sw" -lt 20 ] || [ "$sw" != "$cs" ] || [ $((sw + 1)) -ne "$rows" ]; then
	fail $name "sched_switch counter $sw, context-switches $cs, timehist rows $rows"
elif ! grep -q "over the trace" $OUT/pmu.th || [ "$before" != "$(snapshot)" ]; then
	fail $name "no counter block, or tracefs changed"
else
	pass "$name ($sw switches counted, $rows rows traced)"
fi

name=pmu_json
$FTSCOPE runqlat --json --pmu task-clock,page-faults -- $FA 8 100 > $OUT/pmu.json 2> /dev/null
if [ "$(json "j['analyzer'] == 'runqlat' and
	    [c['value'] >= 100 for c in j['pmu'] if c['event'] == 'task-clock'] == [True]" \
	    $OUT/pmu.json 2>&1)" = True ]; then
	pass $name
else
	fail $name "$(tail -c 300 $OUT/pmu.json)"
fi

# --- a group of software events opens and counts as one
name=stat_group
$FTSCOPE stat -x, -e '{task-clock,page-faults}' -- $FA 4 20 2> $OUT/stat.g
pf=$(field $OUT/stat.g page-faults)
tc=$(field $OUT/stat.g task-clock)
if [ -n "$pf" ] && [ "$pf" -ge 1024 ] && awk -v t="$tc" 'BEGIN { exit !(t >= 20) }'; then
	pass "$name ($pf page faults, $tc ms)"
else
	fail $name "$(tr '\n' '|' < $OUT/stat.g)"
fi
