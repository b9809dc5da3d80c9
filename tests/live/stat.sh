#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: ftscope stat against perf stat on the same workload, known answers of
#              the faulter workload (64 MB touched: >= 16384 page faults; 300 ms of CPU),
#              unsupported counters, -p, -a, -I, JSON, the command's exit status, and
#              --pmu beside an analyzer (the sched_switch counter against the trace).
# requires: root, perf (linux-perf) for the peer comparison
. tests/live/lib.sh
plan 17

FA=$WL/faulter
HAVE_PERF=$(command -v perf)

# field CSVFILE EVENT: the value column of EVENT's line in -x, output
field() {
	awk -F, -v e="$2" '$3 == e { print $1 }' "$1"
}

# within A B PCT: do A and B differ by at most PCT percent of B?
within() {
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b * p / 100) }'
}

need_root stat || exit 0

# kv KEY FILE: the value of KEY=N in selfcount's line
kv() {
	tr ' ' '\n' < "$2" | awk -F= -v k="$1" '$1 == k { print $2 }'
}

# at_gate PID: is selfcount PID asleep at its gate (its only sleep before the gate)?
at_gate() {
	[ "$(cat /proc/$1/comm 2> /dev/null)" = selfcount ] && grep -q '^State:.*S' /proc/$1/status
}

# counting PID: has PID opened a perf_event counter, and gone to sleep (set up)?
counting() {
	ls -l /proc/$1/fd 2> /dev/null | grep -q 'perf_event' && grep -q '^State:.*S' /proc/$1/status
}

# between X LO HI: is LO <= X <= HI (decimals allowed)?
between() {
	awk -v x="$1" -v l="$2" -v h="$3" 'BEGIN { exit !(x != "" && x >= l && x <= h) }'
}

# --- one run, three counters of it: perf stat and ftscope stat attached together to the
# same process (selfcount, held at its stdin gate until both have attached), and the
# process's own kernel counters (schedstat run time, getrusage faults and switches) of
# the work after the gate. After the gate the script moves it between CPU 0 and CPU 1
# (taskset -p) every 30 ms, so that cpu-migrations counts more than the 0 or 1 of an
# unpinned selfcount alone.
name=stat_vs_perf_stat
EVS=task-clock,context-switches,page-faults,cpu-migrations,sched:sched_switch
G=$OUT/stat.gate
rm -f $G && mkfifo $G
# opened read-write first, so that neither open blocks: the workload runs up to its read
exec 9<> $G
$WL/selfcount 64 300 10 5 < $G > $OUT/stat.self &
wl=$!
wait_for 10 at_gate $wl
perf_pid=
if [ -n "$HAVE_PERF" ]; then
	perf stat -x, -e $EVS -p $wl 2> $OUT/stat.perf &
	perf_pid=$!
fi
$FTSCOPE stat -x, -e $EVS -p $wl 2> $OUT/stat.ours &
ft=$!
# attached: each tool holds perf_event descriptors (the target blocks at the gate)
wait_for 10 counting $ft
[ -n "$perf_pid" ] && wait_for 10 counting $perf_pid
steal_mark	# the workload's run, ftscope started before
echo go >&9
exec 9>&-
if [ "$(nproc)" -gt 1 ]; then
	for k in 1 2 3 4 5 6 7 8 9 10; do
		sleep 0.03
		taskset -pc $((k % 2)) $wl > /dev/null 2>&1 || break
	done
fi
wait $wl
ST=$(ft_steal)	# the host's steal over the run: task-clock keeps it, schedstat not
[ -n "$perf_pid" ] && wait $perf_pid
# ftscope stat -p ends when its target has exited, as perf stat -p does
# (stat_pid_ends_with_processes checks that); stopped here if it has not
wait_for 10 gone $ft || kill -INT $ft
ft_wait $name 0 $ft
rc1=$?
tc=$(field $OUT/stat.ours task-clock) cs=$(field $OUT/stat.ours context-switches)
pf=$(field $OUT/stat.ours page-faults) mg=$(field $OUT/stat.ours cpu-migrations)
sw1=$(field $OUT/stat.ours sched:sched_switch)
run=$(awk -v n="$(kv run_ns $OUT/stat.self)" 'BEGIN { printf "%.2f", n / 1e6 }')
mf=$(kv minflt $OUT/stat.self)
sw=$(( $(kv nvcsw $OUT/stat.self) + $(kv nivcsw $OUT/stat.self) ))
echo "# same run: ftscope task-clock $tc ms, $cs switches, $pf faults; own counters $run ms, $sw switches, $mf faults"
if [ -z "$HAVE_PERF" ]; then
	skip $name "perf is not installed"
else
	ptc=$(field $OUT/stat.perf task-clock) pcs=$(field $OUT/stat.perf context-switches)
	ppf=$(field $OUT/stat.perf page-faults) pmg=$(field $OUT/stat.perf cpu-migrations)
	psw=$(field $OUT/stat.perf sched:sched_switch)
	echo "# perf stat -p on it: task-clock $ptc ms, $pcs switches, $ppf faults, $pmg migrations, $psw sched_switch"
	# Same counters of the same task, both enabled while it sleeps at the gate, so both
	# see the same context time from then on: 10 runs idle and 10 beside `perf bench
	# sched messaging -g 10 -l 100000` (task-clock 542-689 ms, 25-495 switches) gave
	# identical values. Allowed: 0.01 ms (the printed digits), counts equal.
	# cpu-migrations and the sched:sched_switch tracepoint counter (the task's switches
	# out: the tracepoint fires in its context): identical in 8 runs on 2026-11-27 (5-11
	# migrations with the hops, 68-1031 sched_switch, one run beside others' load), so
	# equal too. A migration added to ftscope's count, or a switch taken off, fails.
	if [ $rc1 -ne 0 ] || [ -z "$tc" ] || [ -z "$ptc" ] || [ -z "$mg" ] || [ -z "$sw1" ]; then
		fail $name "exit $rc1: $(head -5 $OUT/stat.ours | tr '\n' '|') perf: $(head -5 $OUT/stat.perf | tr '\n' '|')"
	elif ! between "$tc" "$(awk -v p="$ptc" 'BEGIN { print p - 0.01 }')" \
			"$(awk -v p="$ptc" 'BEGIN { print p + 0.01 }')" || [ "$cs" != "$pcs" ] ||
	     [ "$pf" != "$ppf" ] || [ "$mg" != "$pmg" ] || [ "$sw1" != "$psw" ]; then
		fail $name "task-clock $tc vs perf's $ptc ms, switches $cs vs $pcs, faults $pf vs $ppf, migrations $mg vs $pmg, sched_switch $sw1 vs $psw"
	else
		pass "$name (task-clock $tc vs $ptc ms, switches $cs vs $pcs, faults $pf vs $ppf, migrations $mg vs $pmg, sched_switch $sw1 vs $psw)"
	fi
fi

# The kernel's own counters of the same run. The tools also count the wakeup at the gate,
# the process's first and last readings, its printf and its exit, and task-clock and
# schedstat read different clocks (perf's context time, the scheduler's clock_task).
# Measured (the same 20 runs): ftscope - schedstat = -0.58% to +1.29% (-3.4 to +7.4 ms),
# faults +7 to +9, switches 0 to +1; with the CPU hops (8 runs): +0.35% to +1.28%, +7 to
# +9, 0. Allowed: run time -2% to +3% + 5 ms, faults 0 to +50 of the kernel's count,
# switches 0 to +5; and above, the host's steal over the run (ft_steal: a fresh
# root read 360.21 ms against 342.51, +5.2%, with the host stealing 6% of the CPUs).
name=stat_vs_kernel_counters
if [ $rc1 -ne 0 ] || [ -z "$run" ] || [ -z "$mf" ]; then
	fail $name "exit $rc1, workload said '$(cat $OUT/stat.self)'"
elif ! between "$tc" "$(awk -v r="$run" 'BEGIN { print r * 0.98 }')" \
		"$(awk -v r="$run" -v st="$ST" 'BEGIN { print r * 1.03 + 5 + st }')" ||
     ! between "$pf" "$mf" $((mf + 50)) || ! between "$cs" $sw $((sw + 5)); then
	fail $name "task-clock $tc ms vs schedstat $run ms (steal $ST ms), faults $pf vs $mf, switches $cs vs $sw"
else
	pass "$name (task-clock $tc vs $run ms, steal $ST ms, faults $pf vs $mf, switches $cs vs $sw)"
fi

# The command form (fork, counters enabled at exec): the same counters from the first
# instruction of the command, which does its startup (the loader, libc) before the gate;
# nothing of ftscope's own may be counted. Measured (20 runs, half under messaging):
# -0.25% to +1.90% (-1.8 to +10.7 ms), faults +55 to +59, switches 0 to +5 (startup
# preemptions under load). Allowed: -2% to +3% + 10 ms, faults 0 to +200, switches 0 to +12;
# and above, the host's steal over the run, as stat_vs_kernel_counters (362.93 ms against
# 341.97, +6.1%, beside the host's steal here)
name=stat_command_vs_kernel_counters
ft $name 0 stat -x, -e task-clock,context-switches,page-faults -- $WL/selfcount 64 300 10 5 \
	< /dev/null > $OUT/stat.cself 2> $OUT/stat.cmd
rc=$?
ST=$(ft_steal)
tc=$(field $OUT/stat.cmd task-clock) pf=$(field $OUT/stat.cmd page-faults)
cs=$(field $OUT/stat.cmd context-switches)
run=$(awk -v n="$(kv run_ns $OUT/stat.cself)" 'BEGIN { printf "%.2f", n / 1e6 }')
mf=$(kv minflt $OUT/stat.cself)
sw=$(( $(kv nvcsw $OUT/stat.cself) + $(kv nivcsw $OUT/stat.cself) ))
if [ $rc -ne 0 ] || [ -z "$tc" ] || [ -z "$mf" ]; then
	fail $name "exit $rc: $(head -2 $OUT/stat.cmd | tr '\n' '|') $(cat $OUT/stat.cself)"
elif ! between "$tc" "$(awk -v r="$run" 'BEGIN { print r * 0.98 }')" \
		"$(awk -v r="$run" -v st="$ST" 'BEGIN { print r * 1.03 + 10 + st }')" ||
     ! between "$pf" "$mf" $((mf + 200)) || ! between "$cs" $sw $((sw + 12)); then
	fail $name "task-clock $tc ms vs schedstat $run ms (steal $ST ms), faults $pf vs $mf, switches $cs vs $sw"
else
	pass "$name (task-clock $tc vs $run ms, steal $ST ms, faults $pf vs $mf, switches $cs vs $sw)"
fi

# --- known answers, without any peer
# faulter 64 300: 16384 page faults, then 300 ms of CPU (on its own CPU clock, from after
# the faults): task-clock is 300 ms + the faults' time + exec, faults 16384 + the loader's
# and libc's. task-clock 313 .. 350 ms: measured 325.41 .. 337.44 ms over 20 runs on
# 2026-11-27, +- 12 ms (the measured spread); faults 16420 .. 16460: measured 16436 ..
# 16440 over the same 20 runs, +- 16 (four times the spread; the excess over 16384 is
# this Debian's loader and libc). Both above the known minimums, 300 ms and 16384. The
# 300 ms are the faulter's own CPU clock, which leaves out the host's steal that
# task-clock keeps: the steal over the run allowed above 350 (361.75 ms seen in a fresh
# root while the host stole 6% of the CPUs).
name=stat_known_answers
ft $name 0 stat -x, -e task-clock,context-switches,page-faults -- $FA 64 300 2> $OUT/stat.known
ST=$(ft_steal)
tc=$(field $OUT/stat.known task-clock)
pf=$(field $OUT/stat.known page-faults)
if awk -v t="$tc" -v f="$pf" -v st="$ST" \
	'BEGIN { exit !(t >= 313 && t <= 350 + st && f >= 16420 && f <= 16460) }'; then
	pass "$name (task-clock $tc ms in 313 .. 350, steal $ST ms, page-faults $pf in 16420 .. 16460)"
else
	fail $name "task-clock '$tc' ms, steal $ST ms, page-faults '$pf' (want 313 .. 350 ms, 16420 .. 16460)"
fi

# --- a counter the machine lacks: <not supported>, the rest counts, exit 0
name=stat_not_supported
ft $name 0 stat -e cycles,task-clock -- $FA 0 20 2> $OUT/stat.ns
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
ft $name 7 stat -e task-clock -- sh -c 'exit 7' 2> /dev/null
rc=$?
[ $rc -eq 7 ] && pass $name || fail $name "exit $rc, not 7"

# --- perf's way of giving the command, without "--"
name=stat_command_without_dashdash
ft $name 0 stat -e page-faults $FA 4 0 2> $OUT/stat.nd
pf=$(awk '$2 == "page-faults" { print $1 }' $OUT/stat.nd)
if [ -n "$pf" ] && [ "$pf" -ge 1024 ] && grep -q "for '$FA 4 0'" $OUT/stat.nd; then
	pass "$name ($pf page faults for 4 MB)"
else
	fail $name "$(tr '\n' '|' < $OUT/stat.nd)"
fi

# --- -p: a process burning CPU, counted for -d 0.5 s, against the kernel's run time of
# it (schedstat) read before ftscope starts and after it ends, inside two clock readings:
# the window lies inside that interval, so task-clock is at most the process's run time over the interval and
# at least that minus the interval's wall time outside the window (one thread runs at
# most 1 s per s). Holds however busy the machine is (the old ">= 0.7 CPUs utilized"
# failed at 0.61 with four other suites on 2 vCPUs); 1% + 1 ms each side for the two
# clocks (task-clock against schedstat: within 0.6% in the same-run checks above), and
# above, the host's steal over the run, which task-clock keeps and schedstat leaves out
# (a fresh root: 474.71 ms against at most 433.20).
name=stat_pid
$FA 0 60000 &
burn=$!
wait_for 5 grep -q faulter /proc/$burn/comm
t0=$(date +%s%N)
s0=$(cut -d' ' -f1 /proc/$burn/schedstat)
ft $name 0 stat -p $burn -e task-clock -x, -d 0.5 2> $OUT/stat.p
rc=$?
ST=$(ft_steal)
s1=$(cut -d' ' -f1 /proc/$burn/schedstat)
t1=$(date +%s%N)
kill $burn; wait $burn 2> /dev/null
tc=$(field $OUT/stat.p task-clock)
# the counters are on for at least the asked 500 ms (enabled before -d's clock starts):
# in that window the burner ran at least its run time less the rest of the wall time
read -r lo hi < <(awk -v s0="$s0" -v s1="$s1" -v t0="$t0" -v t1="$t1" -v st="$ST" 'BEGIN {
	run = (s1 - s0) / 1e6; wall = (t1 - t0) / 1e6
	printf "%.2f %.2f\n", (run - (wall - 500)) * 0.99 - 1, run * 1.01 + 1 + st }')
if [ $rc -eq 0 ] && [ -n "$tc" ] && between "$tc" "$lo" "$hi"; then
	pass "$name (task-clock $tc ms, the kernel's bounds $lo .. $hi ms, steal $ST ms)"
else
	fail $name "exit $rc: task-clock '$tc' ms outside the kernel's $lo .. $hi ms (steal $ST ms): $(cat $OUT/stat.p)"
fi

# --- -p ends when its processes have exited, as perf stat -p does (it ran until -d):
# two sleepers of 0.5 and 1 s, -d 60 under timeout 30. Exit 124 means it kept counting;
# a sleeper still there means it ended too early.
name=stat_pid_ends_with_processes
sleep 0.5 & s1=$!
sleep 1.0 & s2=$!
FT_WITH="timeout 30" ft $name 0 stat -p $s1,$s2 -e task-clock -d 60 > $OUT/stat.pe 2>&1
rc=$?
alive=$(kill -0 $s2 2> /dev/null && echo " sleeper $s2 still runs")
wait $s1 $s2 2> /dev/null
if [ $rc = 0 ] && [ -z "$alive" ] && grep -q 'task-clock' $OUT/stat.pe; then
	pass $name
else
	fail $name "exit $rc$alive: $(tail -2 $OUT/stat.pe | tr '\n' '|')"
fi

# --- -j: perf stat -j's layout, against perf stat -j itself on the same events: each
# line one JSON object with perf's keys in perf's order and of perf's types, plain and
# with -I; a counter the machine lacks (cycles here, or counted where it has one) with
# the same keys. The values are checked against perf in the same-run checks above.
name=stat_perf_json_layout
ev=task-clock,context-switches,page-faults,cycles
perf stat -j -e $ev -- $FA 1 0 > /dev/null 2> $OUT/stat-j-perf.txt
ft $name 0 stat -j -e $ev -- $FA 1 0 > /dev/null 2> $OUT/stat-j-ours.txt
perf stat -j -I 100 -e task-clock -- sleep 0.25 > /dev/null 2> $OUT/stat-ji-perf.txt
ft $name 0 stat -j -I 100 -e task-clock -- sleep 0.25 > /dev/null 2> $OUT/stat-ji-ours.txt
if r=$(python3 - $OUT/stat-j-perf.txt $OUT/stat-j-ours.txt $OUT/stat-ji-perf.txt \
	$OUT/stat-ji-ours.txt <<'PY'
import json, sys
# metric-value: a number up to perf 6.1 (Debian 12), the same number quoted in later
# perfs (6.12 on Debian 13: "metric-value" : "0.005815"); ftscope writes the number, so
# perf's quoted number counts as one (perf's own, not ftscope's: a quoted one from
# ftscope is still a string against either perf)
def vtype(k, v, perf):
    if perf and k == 'metric-value' and isinstance(v, str):
        try:
            float(v)
            return 'float'
        except ValueError:
            pass
    return type(v).__name__
def shape(path, perf):
    out = []
    for line in open(path):
        if line.startswith('{'):
            o = json.loads(line)
            out.append((o.get('event'), [(k, vtype(k, v, perf)) for k, v in o.items()]))
    return out
msg = []
for perf, ours in ((sys.argv[1], sys.argv[2]), (sys.argv[3], sys.argv[4])):
    p, o = shape(perf, True), shape(ours, False)
    if not p or not o or {e for e, _ in p} != {e for e, _ in o}:
        msg.append(f'{ours}: events {[e for e, _ in o]}, perf {[e for e, _ in p]}')
        continue
    keys = dict(p)
    for e, k in o:
        if k != keys[e]:
            msg.append(f'{e}: {k} against perf {keys[e]}')
print('; '.join(msg) or 'same keys, order and types as perf stat -j')
sys.exit(1 if msg else 0)
PY
); then
	pass $name
else
	fail $name "$r"
fi

# --- -r 5: the command runs 5 times (each run appends a line), the header says so, and
# the mean page faults of faulter (4 MB: its count varies by 0.07% between runs) are
# perf stat -r 5's mean on the same workload within 1%, with perf's ( +- x% ) column.
name=stat_repeat
rm -f $OUT/stat-r.runs $OUT/stat-r.perf
ft $name 0 stat -r 5 -e page-faults,task-clock -- sh -c "echo run >> $OUT/stat-r.runs; exec $FA 4 0" \
	> /dev/null 2> $OUT/stat-r.txt
rc=$?
perf stat -r 5 -e page-faults,task-clock -- sh -c "echo run >> $OUT/stat-r.perf; exec $FA 4 0" \
	> /dev/null 2> $OUT/stat-r-perf.txt
ours=$(awk '$2 == "page-faults" { print $1 }' $OUT/stat-r.txt)
theirs=$(awk '$2 == "page-faults" { print $1 }' $OUT/stat-r-perf.txt)
runs=$(wc -l < $OUT/stat-r.runs 2> /dev/null)
if [ $rc = 0 ] && [ "$runs" = 5 ] && grep -q "^ Performance counter stats for .* (5 runs):" $OUT/stat-r.txt &&
   [ -n "$ours" ] && within "$ours" "$theirs" 1 &&
   grep -q 'task-clock .*( +- *[0-9.]*% )$' $OUT/stat-r.txt &&
   grep -q '^ *[0-9.]* +- [0-9.]* seconds time elapsed' $OUT/stat-r.txt; then
	pass "$name (5 runs: $ours page faults, perf $theirs)"
else
	fail $name "exit $rc, $runs runs, page faults $ours, perf $theirs: $(tr '\n' '|' < $OUT/stat-r.txt)"
fi

# --- -a: cpu-clock counts every CPU for the whole window
name=stat_system_wide
ft $name 0 stat -a -e cpu-clock -x, -d 0.5 2> $OUT/stat.a
util=$(awk -F, '$3 == "cpu-clock" { print $6 }' $OUT/stat.a)
if within "$util" "$(nproc)" 5; then
	pass "$name ($util CPUs utilized of $(nproc))"
else
	fail $name "'$util' CPUs utilized, expected $(nproc): $(cat $OUT/stat.a)"
fi

# --- -I: interval lines add up to the whole (the workload burns 400 ms of CPU)
# 400 ms of CPU in lines of 100 ms: 4 .. 7 lines (measured 4 .. 6 on 2026-11-27: 4 .. 5
# over 20 runs of stat.sh, 6 in a 22nd, where the faulter lost 185 ms to another
# engineer's profile.sh workloads (0.43 and 0.17 CPUs in two lines), and 4 in 3, 5 in
# 37 of 40 runs of this command alone; + 1 line for another 100 ms lost: the count
# follows the wall clock, not the CPU time), summing to 400 .. 402 ms (measured
# 400.48 .. 401.08 ms over 22 runs, + 0.92 ms margin, twice the spread: exec and exit
# beside the 400 ms; never below 400); the faulter's 400 ms are its own CPU clock's, which
# leaves out the host's steal that task-clock keeps: the steal over the run allowed above
# (a fresh root read 413.19 ms with the host stealing 6% of the CPUs), and a line for
# each 100 ms of it. /proc/stat counts steal in ticks, so a run's steal reads up to a
# tick short (a fresh root: 402.34 ms with 0 ms read): the steal allowed is at most the
# reading and a tick, and at most the faulter's own wall time beyond its CPU time (the
# time it was held off its CPU, 0.1 ms or less on a quiet host) and the wall time of the
# run outside the faulter's own clocks (exec and exit: the last line's time less the
# faulter's wall time; a fresh root read 411.69 ms, held off 8.505 ms, steal 30 ms)
name=stat_interval
rm -f $OUT/stat.i.self
ft $name 0 stat -I 100 -x, -e task-clock -- $FA 0 400 $OUT/stat.i.self 2> $OUT/stat.i
ST=$(ft_steal)
n=$(grep -c ',task-clock,' $OUT/stat.i)
sum=$(awk -F, '$4 == "task-clock" && $2 !~ /not/ { s += $2 } END { print s + 0 }' $OUT/stat.i)
read -r held wall < <(awk '{ print $4 - $2, $4 }' $OUT/stat.i.self 2>/dev/null)
outside=$(awk -F, -v w="${wall:-0}" \
	'$4 == "task-clock" { t = $1 } END { o = t * 1000 - w; print (o > 0 ? o : 0) }' $OUT/stat.i)
allow=$(awk -v st="$ST" -v tick="$((1000 / $(getconf CLK_TCK)))" -v held="${held:-0}" \
	-v out="$outside" 'BEGIN { a = st + tick; if (held + out < a) a = held + out; print (a > 0 ? a : 0) }')
if [ -n "$held" ] && [ "$n" -ge 4 ] && [ "$n" -le $((7 + ST / 100)) ] &&
   awk -v s="$sum" -v a="$allow" 'BEGIN { exit !(s >= 400 && s <= 402 + a) }'; then
	pass "$name ($n lines, $sum ms in all, steal $ST ms, held off $held ms, $outside ms outside)"
else
	fail $name "$n lines, $sum ms, steal $ST ms, held off ${held:-?} ms, $outside ms outside (want 4 .. 7 lines, 400 .. 402 + $allow ms): $(head -3 $OUT/stat.i | tr '\n' '|')"
fi

# --- --json: one object, values and metrics
name=stat_json
ft $name 0 stat --json -e task-clock,page-faults -- $FA 8 50 2> $OUT/stat.json
if [ "$(json "[c['value'] >= 50 for c in j['pmu'] if c['event'] == 'task-clock'] == [True] and
	    [c['value'] >= 2048 for c in j['pmu'] if c['event'] == 'page-faults'] == [True] and
	    j['user_ns'] + j['sys_ns'] > 0" $OUT/stat.json 2>&1)" = True ]; then
	pass $name
else
	fail $name "$(head -c 300 $OUT/stat.json)"
fi

# --- --pmu: counters over the trace window, against the trace of the same run. The
# counters are attached from the command's exec until the kernel detaches them in its
# exit (perf_event_exit_task), and the trace shows every switch of the task, including
# the exit's: its last (X or Z) and, when exit_mm or its like block, D rows after the
# counters have gone (seen: one or two D rows, woken by kdamond, 88 ms long; that is
# what made the old "rows = counter + 1" fail with counter 20 and 22 rows). So the
# counter lies between the rows up to the sleeper's 20th nap and all rows but its last;
# the two counters count the same switches. Measured 30 runs idle and 20 beside
# messaging: counter = rows - 1 in 48, rows - 2 in 2 (earlier, by hand: rows - 3 in 3 of
# 30), never outside the range; context-switches always equal to sched:sched_switch.
name=pmu_beside_timehist
before=$(snapshot)
ft $name 0 timehist --state --pmu sched:sched_switch,context-switches,task-clock -- \
	$WL/sleeper 0 20 10 > $OUT/pmu.th 2> $OUT/pmu.err
rc=$?
# rows: all the sleeper's; naps: its S rows; upto: rows through its 20th S (a row whose
# run starts or ends at a rebuilt switch ends in '^' after its state: such a nap once
# went uncounted in a fresh root, 19 naps)
read -r rows naps upto < <(awk '/ sleeper\[/ { n++; st = $NF == "^" ? $(NF - 1) : $NF
	if (st == "S") { s++; if (s == 20) u = n } }
	END { print n + 0, s + 0, u + 0 }' $OUT/pmu.th)
sw=$(awk '$2 == "sched:sched_switch" { print $1 }' $OUT/pmu.th)
cs=$(awk '$2 == "context-switches" { print $1 }' $OUT/pmu.th)
if [ $rc -ne 0 ] || [ -z "$sw" ]; then
	fail $name "exit $rc: $(tail -3 $OUT/pmu.err)"
elif [ "$naps" -ne 20 ] || [ "$sw" -lt "$upto" ] || [ "$sw" -gt $((rows - 1)) ] || [ "$sw" != "$cs" ]; then
	fail $name "sched_switch counter $sw, context-switches $cs; timehist rows $rows, $naps naps, the 20th at row $upto"
elif ! grep -q "over the trace" $OUT/pmu.th || [ "$before" != "$(snapshot)" ]; then
	fail $name "no counter block, or tracefs changed"
else
	pass "$name ($sw switches counted, $rows rows traced, the 20th nap at row $upto)"
fi

name=pmu_json
ft $name 0 runqlat --json --pmu task-clock,page-faults -- $FA 8 100 > $OUT/pmu.json 2> /dev/null
if [ "$(json "j['analyzer'] == 'runqlat' and
	    [c['value'] >= 100 for c in j['pmu'] if c['event'] == 'task-clock'] == [True]" \
	    $OUT/pmu.json 2>&1)" = True ]; then
	pass $name
else
	fail $name "$(tail -c 300 $OUT/pmu.json)"
fi

# --- a group of software events opens and counts as one
name=stat_group
ft $name 0 stat -x, -e '{task-clock,page-faults}' -- $FA 4 20 2> $OUT/stat.g
pf=$(field $OUT/stat.g page-faults)
tc=$(field $OUT/stat.g task-clock)
if [ -n "$pf" ] && [ "$pf" -ge 1024 ] && awk -v t="$tc" 'BEGIN { exit !(t >= 20) }'; then
	pass "$name ($pf page faults, $tc ms)"
else
	fail $name "$(tr '\n' '|' < $OUT/stat.g)"
fi
