#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: the flight recorder (--flight SECS --trigger MS -o FILE) against spiker's
#              own clock: sp-waiter is woken every ms on CPU 1 and, at known times, waits
#              for a 25 ms spin of a SCHED_FIFO thread. A trigger between the normal
#              waits and the spike writes exactly one file: its line names the spike's
#              wait and window, its records cover the window around the spike, timehist
#              and trace-cmd read it, -i prints its line, its size follows the window,
#              not the run (against a plain -o of the same run); a trigger above every
#              wait (the spike's too) writes nothing; --trigger-max 3 writes three files, each with its
#              own spike; without --trigger, the last SECS at the end (-d, SIGINT); bad
#              input; the tracefs state.
# requires: root, sched tracepoints, 2 CPUs, trace-cmd
. tests/live/lib.sh
plan 21
need_root flight_one_file || exit 0
if [ "$(nproc)" -lt 2 ]; then
	skip_rest "needs CPU 1"
	exit 0
fi
state_before
PY=tests/live/flight_check.py
F=$OUT/flight.dat
TRIG=10		# ms: spiker's normal waits here 0.08 .. 0.85 ms alone, its spikes 25
rm -f $F $F.*
# ftscope and so the command it starts (its child before exec, sh, spiker's main thread)
# real-time: beside a loaded machine's builds (load 140) the child's gated start waited
# 158 and 213 ms as SCHED_OTHER and fired the trigger; spiker's threads set their own
FT_WITH="chrt -f 20"

# events N ERR: the event count of line N (0: the first) of a flight run's stderr
events() {
	grep 'flight: ' "$2" | sed -n "$(($1 + 1))p" | sed -n 's/.*, \([0-9]*\) events, .*/\1/p'
}

# wait_out FILE: wait (15 s at most) for spiker's last line in FILE (--keep-command:
# it runs on after ftscope)
wait_out() {
	local k
	for ((k = 0; k < 150; k++)); do
		grep -q '^spike_wait\|^normal_max_ns=' "$1" 2>/dev/null &&
			[ "$(grep -c '^spike_wait' "$1")" -ge "$(grep -c '^spike ' "$1")" ] && return 0
		sleep 0.1
	done
	return 1
}

# the one spike, 9 s into a 12 s run; a 2 s window before it and 1 s after; spiker runs
# on to its end (--keep-command) so that its normal waits are counted
WO=$OUT/flight-wl.txt
ft flight_one_file 0 runqlat --flight 2 --trigger $TRIG -o $F --keep-command -- \
	sh -c "exec $WL/spiker 1 12 1 25 9 > $WO" > $OUT/flight.out 2> $OUT/flight.err
# the host's steal on CPU 1 (the waits') over the live run, for the checks of its file
# made after other runs (a timehist -i of it took its own: 0 ms, a spike's wait 0.757 ms
# over the spin)
st=$(ft_steal 1)
wait_out $WO || echo "# spiker did not end: $(tail -1 $WO)"
echo "# spiker: $(grep -h 'normal_max\|spike_wait' $WO | tr '\n' ' ')"
name=flight_one_file
n=$(ls $F $F.* 2>/dev/null | wc -l)
if [ "$n" != 1 ]; then
	fail $name "$n files: $(ls $F* 2>/dev/null | tr '\n' ' ')"
	echo "# $name: $(head -c 300 $OUT/flight.err)"
else
	STEAL_MS=$st check $name lines $OUT/flight.err $WO $F 1 2 1
fi

# flight_tracecmd_reads: trace-cmd report reads the file, with no complaint
name=flight_tracecmd_reads
trace-cmd report $F > $OUT/flight.report 2> $OUT/flight.report.err
rc=$?
if [ $rc = 0 ] && ! grep -qi 'error\|fail\|warn\|bad' $OUT/flight.report.err &&
   grep -q 'sched_switch' $OUT/flight.report; then
	pass $name
else
	fail $name "exit $rc: $(head -c 200 $OUT/flight.report.err)"
fi

# flight_window_span: its records, per CPU, in the window around the spike (the whole
# pages that hold it) and CPU 1's covering it; as many as the line says
check flight_window_span span $OUT/flight.report $WO 0 2 1 1 "$(events 0 $OUT/flight.err)"

# flight_timehist_spike: timehist -i shows sp-waiter's spike wait, the only one over
# the trigger
ft flight_timehist_spike 0 timehist -i $F > $OUT/flight.th 2>&1
STEAL_MS=$st check flight_timehist_spike timehist $OUT/flight.th $WO 0 $TRIG

# flight_line_in_file: -i prints the line the run printed (without its event count,
# which the file's writing gives)
name=flight_line_in_file
ft $name 0 runqlat -i $F > $OUT/flight-i.out 2> $OUT/flight-i.err
check $name iline $OUT/flight.err $OUT/flight-i.out $OUT/flight-i.err

# flight_size_window: the same 12 s run with a plain -o: the flight file's pages (its
# CPUs' data; the rest, formats and kallsyms, 5.5 MB in both, does not depend on the
# run) are the 3 s of it: 0.7 .. 1.6 of the plain file's pages' 3 s share (whole pages at
# the window's ends, the plain run's density: 3.7 .. 4.5 MB in 12 s; measured 0.95 .. 1.19;
# 4 times that is the whole run's)
name=flight_size_window
ft $name 0 runqlat -o $OUT/flight-plain.dat -- \
	sh -c "exec $WL/spiker 1 12 1 25 9 > $WO.plain" > /dev/null 2> $OUT/flight-plain.err
r=$(python3 -c "import re, subprocess, sys
def pages(f):
	out = subprocess.run(['trace-cmd', 'dump', '--flyrecord', f], capture_output=True,
			     text=True).stdout
	return sum(int(m or 0) for m in
		   re.findall(r'(?m)^\s*\d+\s+(\d*)\s+\[offset, size of cpu', out))
f, p = pages(sys.argv[1]), pages(sys.argv[2])
share = p * 3 / 12
print('%s flight pages %d bytes, plain -o of the run %d, its 3 s share %d: %.2f of it' %
      (p > 0 and 0.7 * share <= f <= 1.6 * share, f, p, share, f / max(share, 1)))" \
	$F $OUT/flight-plain.dat 2>&1)
if [ "${r%% *}" = True ]; then pass $name; else fail $name "$r"; fi
echo "# $name: ${r#* }"

# flight_trigger_above_waits: a trigger above every wait, the spike's included, never
# fires: no file, no line, exit 0 (spiker's own largest waits below it; a trigger taken
# ten times too low, 4 ms, fires on the spike: seen failing so)
name=flight_trigger_above_waits
HIGH=40
rm -f $F $F.*
ft $name 0 runqlat --flight 2 --trigger $HIGH -o $F -- \
	sh -c "exec $WL/spiker 1 6 1 25 3 > $WO.none" > /dev/null 2> $OUT/flight-none.err
max=$(sed -n 's/^normal_max_ns=\([0-9]*\).*/\1/p; s/^spike_wait 0 max_ns=\([0-9]*\)/\1/p' \
	$WO.none | sort -n | tail -1)
if [ -z "$max" ] || [ "$max" -ge $((HIGH * 1000000)) ]; then
	fail $name "spiker's largest wait ${max:-?} ns is not below the trigger: no answer"
elif ls $F $F.* > /dev/null 2>&1 || grep -q 'flight' $OUT/flight-none.err; then
	fail $name "$(ls $F* 2>/dev/null | tr '\n' ' ') $(grep flight $OUT/flight-none.err | head -1)"
else
	pass $name
fi
echo "# $name: spiker's largest wait $max ns, $(grep -h normal_max $WO.none)"

# flight_three_*: three spikes 3 s apart, --trigger-max 3: FILE, FILE.1, FILE.2, each
# with its own spike, then the run ends (spiker's 14 s cut short)
rm -f $F $F.*
ft flight_three_lines 0 runqlat --flight 2 --trigger $TRIG --trigger-max 3 -o $F -- \
	sh -c "exec $WL/spiker 1 14 3 25 3 > $WO.three" > /dev/null 2> $OUT/flight-three.err
st=$(ft_steal 1)
name=flight_three_lines
if ls $F.3 > /dev/null 2>&1; then
	fail $name "a fourth file $F.3"
else
	STEAL_MS=$st check $name lines $OUT/flight-three.err $WO.three $F 3 2 1
fi
name=flight_three_spikes
bad=
for k in 0 1 2; do
	f=$F
	[ $k = 0 ] || f=$F.$k
	ft $name 0 timehist -i $f > $OUT/flight-three-$k.th 2>&1
	r=$(STEAL_MS=$st python3 $PY timehist $OUT/flight-three-$k.th $WO.three $k $TRIG 2>&1) ||
		bad+="[file $k: $(echo "$r" | tail -1)] "
	echo "# $name $k: $(echo "$r" | head -1)"
done
if [ -z "$bad" ]; then pass $name; else fail $name "$bad"; fi

# flight_at_end_*: no --trigger: the last 2 s of the run when it ends, -d 5 and SIGINT
# after 5 s: spiker's second spike (4 s) is in them, its first (2 s) is not
for how in d int; do
	name=flight_at_end_$how
	rm -f $F $F.*
	if [ $how = d ]; then
		ft $name 0 runqlat --flight 2 -o $F -d 5 -- \
			sh -c "exec $WL/spiker 1 8 2 25 2 > $WO.$how" > /dev/null 2> $OUT/flight-$how.err
	else
		steal_mark	# as ft does: the run is in the background
		$FT_WITH "$FTSCOPE" runqlat --flight 2 -o $F -- \
			sh -c "exec $WL/spiker 1 8 2 25 2 > $WO.$how" > /dev/null 2> $OUT/flight-$how.err &
		pid=$!
		sleep 5
		kill -INT $pid
		ft_wait $name 0 $pid
	fi
	st=$(ft_steal 1)
	if ! grep -q "flight: $F: the last 2 s, window" $OUT/flight-$how.err; then
		fail $name "no line: $(head -c 300 $OUT/flight-$how.err)"
		continue
	fi
	trace-cmd report $F > $OUT/flight-$how.report 2> /dev/null
	ft $name 0 timehist -i $F > $OUT/flight-$how.th 2>&1
	r=$(python3 $PY span $OUT/flight-$how.report $WO.$how -1 2 0 1 \
		"$(events 0 $OUT/flight-$how.err)" 2>&1) &&
	r2=$(STEAL_MS=$st python3 $PY timehist $OUT/flight-$how.th $WO.$how 1 $TRIG 2>&1)
	if [ $? = 0 ]; then pass $name; else fail $name "$(echo "$r $r2" | tail -1)"; fi
	echo "# $name: $(echo "$r" | head -1); $(echo "$r2" | head -1)"
done

# flight_record_trigger: record --flight 2 --trigger 'runqlat>TRIG': runqlat runs on the
# pages unprinted (no histogram on stdout), its measure fires one window around the
# spike (4 s into a 6 s run), which timehist -i shows
name=flight_record_trigger
rm -f $F $F.*
ft $name 0 record --flight 2 --trigger "runqlat>${TRIG}ms" -o $F -- \
	sh -c "exec $WL/spiker 1 6 1 25 4 > $WO.rec" > $OUT/flight-rec.out 2> $OUT/flight-rec.err
st=$(ft_steal 1)
n=$(ls $F $F.* 2>/dev/null | wc -l)
ft $name 0 timehist -i $F > $OUT/flight-rec.th 2>&1
r=$(STEAL_MS=$st python3 $PY timehist $OUT/flight-rec.th $WO.rec 0 $TRIG 2>&1)
if [ $? = 0 ] && [ "$n" = 1 ] && grep -q "^ftscope record: flight: $F: .* wait of sp-waiter" \
	$OUT/flight-rec.err && ! grep -q usecs $OUT/flight-rec.out; then
	pass $name
else
	fail $name "$n files; $(echo "$r" | tail -1); $(grep -m1 flight: $OUT/flight-rec.err)"
fi
echo "# $name: $(echo "$r" | head -1)"

# flight_sigusr2: no --trigger: a SIGUSR2 2 s into a 4 s run writes the last 1 s then
# and the run goes on (perf's --switch-output=signal); the end writes the next file: two
# files, two lines, exit 0; CPU 1's records (spiker's, every ms) in the first from 1 s
# before the kill to it, in the second the 1 s before the run's end, by CLOCK_MONOTONIC
# (the trace clock) read around the start, the kill and the exit (flight_check.py
# SIG_*_TOL)
name=flight_sigusr2
rm -f $F $F.*
MONO="import time; print(time.clock_gettime(time.CLOCK_MONOTONIC))"
$WL/spiker 1 6 0 25 9 > $OUT/flight-usr-wl.txt &
wlp=$!
sleep 0.3
python3 -c "$MONO" > $OUT/flight-usr.times
$FT_WITH "$FTSCOPE" runqlat --flight 1 -o $F -d 4 > /dev/null 2> $OUT/flight-usr.err &
pid=$!
sleep 2
python3 -c "import os, signal, sys, time
m = lambda: time.clock_gettime(time.CLOCK_MONOTONIC)
a = m()
os.kill(int(sys.argv[1]), signal.SIGUSR2)
print(a, m())" $pid >> $OUT/flight-usr.times
if ft_wait $name 0 $pid; then
	python3 -c "$MONO" >> $OUT/flight-usr.times
	wait $wlp
	if [ "$(grep -c "flight: $F\(\.1\)\?: the last 1 s, window" $OUT/flight-usr.err)" = 2 ] &&
	   [ -s $F ] && [ -s $F.1 ] && ! [ -e $F.2 ]; then
		trace-cmd report $F > $OUT/flight-usr.r0 2> /dev/null
		trace-cmd report $F.1 > $OUT/flight-usr.r1 2> /dev/null
		check $name signal $OUT/flight-usr.r0 $OUT/flight-usr.r1 $OUT/flight-usr.times 1 4 1
	else
		fail $name "$(ls $F* 2>/dev/null | tr '\n' ' ') $(tr '\n' '|' < $OUT/flight-usr.err)"
	fi
else
	wait $wlp
fi

# flight_memory_bound: the store within --flight-size over a 12 s run beside perf bench
# sched messaging (its rate fills 1 MB a CPU in 1.4 s here), --flight 5 --flight-size
# NPROC (1 MB a CPU, the least), by the kernel's own counts every 0.5 s (smaps, exact;
# RssAnon is approximate since 6.2, its per-CPU counters): the store is the process's
# mappings with huge pages asked (VmFlags hg: the rings' arenas, nothing else asks),
# their Anonymous memory at most NPROC MB at its peak, and at least a CPU's full 1 MB
# (the window was shortened: the end's line says so, and one line said so when the
# store first dropped a page of the last 5 s); the rest of the process (its Anonymous
# memory less the store) within 1 MB of runqlat alone in the same run, at their peaks.
# Each process keeps the merge's page buffers as many as its largest backlog needed,
# most of the difference: 352 .. 464 pages (1.4 .. 1.9 MB) in runs here, the two up to
# 48 apart in one run, and the rest once 548 KB over (a fresh Debian 13 root); a buffer
# leaked for each page kept would be 17 MB. The first 2 samples (the start) and the last
# one that holds both (an end's writing) not compared. A 2 s window was not shortened
# once beside the host's heavy steal (messaging slowed): 5 s leaves the rate room to
# fall by more than two thirds.
name=flight_memory_bound
rm -f $F $F.*
size=$(nproc)
# anon PID: the process's anonymous memory and that of its mappings with huge pages
# asked, KB (nothing when it has gone)
anon() {
	awk '/^[0-9a-f]+-[0-9a-f]+ / { a = 0 } /^Anonymous:/ { a = $2; t += $2 }
	     /^VmFlags:/ && / hg/ { s += a } END { if (NR) print t, s }' /proc/$1/smaps 2>/dev/null
}
if [ ! -d /sys/kernel/mm/transparent_hugepage ]; then
	skip $name "the kernel has no transparent huge pages: the store's mappings are not marked"
else
	"$FTSCOPE" runqlat -d 12 > /dev/null 2> $OUT/flight-mem-plain.err &
	pp=$!
	"$FTSCOPE" runqlat -d 12 --flight 5 --flight-size $size -o $F > /dev/null 2> $OUT/flight-mem.err &
	fp=$!
	(while kill -0 $fp 2>/dev/null; do perf bench sched messaging -g 10 -l 500 > /dev/null 2>&1; done) &
	bp=$!
	: > $OUT/flight-mem.samples
	while kill -0 $pp 2>/dev/null && kill -0 $fp 2>/dev/null; do
		sleep 0.5
		pa=$(anon $pp) fa=$(anon $fp)
		[ -n "$pa" ] && [ -n "$fa" ] && echo "${pa% *} $fa" >> $OUT/flight-mem.samples
	done
	ft_wait $name 0 $pp
	prc=$?
	ft_wait $name 0 $fp
	frc=$?
	wait $bp
	r=$(awk -v mb=$size 'NF == 3 { n++; p[n] = $1; f[n] = $2 - $3; st[n] = $3 }
		END { for (k = 3; k < n; k++) {
			      pm = p[k] > pm ? p[k] : pm; fm = f[k] > fm ? f[k] : fm
			      sm = st[k] > sm ? st[k] : sm }
		      ok = n > 4 && sm >= 1024 && sm <= mb * 1024 && fm - pm <= 1024
		      printf "%s %d samples: the store %d KB at its peak (1 .. %d MB), the " \
			     "rest %d KB over runqlat alone at their peaks (1 MB)\n",
			     ok ? "ok" : "bad", n - 3, sm, mb, fm - pm }' $OUT/flight-mem.samples)
	if [ $prc != 0 ] || [ $frc != 0 ]; then
		:	# ft_wait said it
	elif [ "${r%% *}" = ok ] && grep -q "flight: $F: the last 5 s, window .*(shortened" $OUT/flight-mem.err &&
	     [ "$(grep -c "flight: --flight-size $size MB holds the last [0-9.]* s of CPU [0-9]*'s events at this rate, not 5 s" \
		$OUT/flight-mem.err)" = 1 ]; then
		pass $name
	else
		fail $name "${r#* }; $(grep -h 'flight' $OUT/flight-mem.err | tr '\n' '|')"
	fi
	echo "# $name: ${r#* }"
fi

# flight_bad_*: one line, a non-zero exit, nothing on stdout, no file, tracefs as found
bad_case() {
	local name=$1 rc
	shift
	rm -f $F $F.*
	$FT_WITH "$FTSCOPE" runqlat "$@" > $OUT/flight-bad.out 2> $OUT/flight-bad.err < /dev/null
	rc=$?
	if [ $rc != 0 ] && [ "$(wc -l < $OUT/flight-bad.err)" = 1 ] && [ ! -s $OUT/flight-bad.out ] &&
	   ! ls $F $F.* /nonexistent-ftscope > /dev/null 2>&1 && [ -z "$(state_changed)" ]; then
		pass $name
	else
		fail $name "exit $rc, $(ls $F* 2>/dev/null) $(state_changed) $(tr '\n' '|' < $OUT/flight-bad.err)"
	fi
	echo "# $name: $(head -1 $OUT/flight-bad.err)"
}
bad_case flight_bad_trigger_without_o --flight 2 --trigger $TRIG -d 1
bad_case flight_bad_trigger_without_flight --trigger $TRIG -o $F -d 1
bad_case flight_bad_flight_0 --flight 0 -o $F -d 1
bad_case flight_bad_unwritable --flight 2 --trigger $TRIG -o /nonexistent-ftscope/f.dat -d 1
bad_case flight_bad_size --flight 2 --flight-size 1 -o $F -d 1
mkdir -p $OUT/flight-dir
bad_case flight_bad_directory --flight 2 --trigger $TRIG -o $OUT/flight-dir -d 1

name=flight_state_restored
r=$(state_changed)
if [ -z "$r" ]; then pass $name; else fail $name "$r"; fi
