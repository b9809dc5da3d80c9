#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: a thread's process comes from the kernel, never from its thread id:
#              threadlife's threads (their tids and tgid printed by the workload itself)
#              begin before the trace or during it and end before it does; runqlat -P
#              keeps them in one group, timehist -s names them comm[tid/pid]; -P with -L
#              is a usage error, as in BCC; timehist -s's idle stats of two CPUs kept
#              busy by design against the kernel's idle time (/proc/stat).
# requires: root, tracefs, sched and task events
. tests/live/lib.sh
plan 8
need_root threads || exit 0

TL=$WL/threadlife
[ -x $TL ] || make -s $TL >/dev/null

# groups_check JSON WLOUT: runqlat -P --json's groups hold the workload's pid and none
# of its threads' tids (the oracle: the workload's own getpid()/gettid() lines)
groups_check() {
	python3 - "$1" "$2" <<'PY'
import re, sys
from pct_check import last_json
j = last_json(sys.argv[1])
out = open(sys.argv[2]).read()
pid = int(re.search(r'^pid=(\d+)', out, re.M).group(1))
tids = {int(t) for t, g in re.findall(r'^tid=(\d+) tgid=(\d+)', out, re.M) if int(g) == pid}
keys = {g['pid'] for g in j['groups']}
bad = sorted(keys & tids)
if len(tids) != 3 or pid not in keys or bad:
    print(f"pid {pid} threads {sorted(tids)}: groups hold pid {pid in keys}, tids {bad}")
    sys.exit(1)
print(f"pid {pid} one group; its 3 threads {sorted(tids)} in none of their own")
PY
}

# beside TAG OUTFILE ARGS...: threadlife's 3 threads (600 ms, then 1.5 s of the main
# thread; its lines in $OUT/TAG.wl) begun 300 ms before `ft TAG 0 ARGS > OUTFILE`;
# returns ftscope's status once the workload has ended
beside() {
	local tag=$1 out=$2 wl rc

	shift 2
	$TL 600 1500 3 > $OUT/$tag.wl &
	wl=$!
	sleep 0.3
	ft $tag 0 "$@" > $out 2> $OUT/$tag.err
	rc=$?
	wait $wl
	return $rc
}

# group_result NAME JSON WLOUT: PASS or FAIL NAME by groups_check
group_result() {
	local why

	if why=$(groups_check $2 $3); then
		pass $1
	else
		fail $1 "$why"
	fi
}

# Threads that began 300 ms before the trace and end 300 ms into it (the report reads
# them after they are gone): today's bug gave one group per thread.
name=threads_runqlat_P_before
beside $name $OUT/$name.json runqlat -P --json -d 2 &&
	group_result $name $OUT/$name.json $OUT/$name.wl

# Threads made during the trace (task:task_newtask's CLONE_THREAD) that end within 300 ms.
name=threads_runqlat_P_during
if ft $name 0 runqlat -P --json -- $TL 300 100 3 > $OUT/threads_during.json \
	2> $OUT/threads_during.err; then
	# the command's output went to the same stdout: split it off
	grep -E '^(pid|tid)=' $OUT/threads_during.json > $OUT/threads_during.wl
	group_result $name $OUT/threads_during.json $OUT/threads_during.wl
fi

# -p naming a process just after its fork (sh, then exec of the workload): one group,
# the workload's pid, named by its comm (an early ftscope printed "?" there, and split it).
name=threads_runqlat_P_p_fork
sh -c "exec $TL 300 100 3" > $OUT/$name.wl &
wl=$!
ft $name 0 runqlat -P --json -p $wl -d 1 > $OUT/$name.json 2> $OUT/$name.err
rc=$?
wait $wl
if [ $rc = 0 ]; then
	got=$(json "sorted((g['pid'], g['comm']) for g in j['groups'])" $OUT/$name.json)
	want="[($wl, 'threadlife')]"
	if [ "$got" = "$want" ] && grep -q "^pid=$wl$" $OUT/$name.wl; then
		pass $name
	else
		fail $name "groups $got, want $want"
	fi
fi

# A recording keeps the processes of the threads living when it began (its task table):
# read back, threads that began before it and ended in it are still their process's.
name=threads_record_runqlat_P
beside $name /dev/null record -o $OUT/threads_rec.dat -d 1.5 &&
	ft $name 0 runqlat -P --json -i $OUT/threads_rec.dat > $OUT/threads_rec.json \
		2> $OUT/threads_rec.err2 &&
	group_result $name $OUT/threads_rec.json $OUT/$name.wl

# The same file without its task table (an older ftscope's, trace-cmd's): it still reads,
# and runqlat -P says it could not place threads, the workload's among them, each its own.
name=threads_record_no_table_note
if [ ! -s $OUT/threads_rec.dat ]; then
	fail $name "no recording from threads_record_runqlat_P"
elif ! python3 tests/live/tdat_craft.py no-tgids $OUT/threads_rec.dat $OUT/threads_old.dat; then
	fail $name "tdat_craft.py no-tgids failed"
elif ft $name 0 runqlat -P -i $OUT/threads_old.dat > $OUT/threads_old.txt \
	2> $OUT/threads_old.err; then
	tids=$(sed -n 's/^tid=\([0-9]*\) .*/\1/p' $OUT/threads_record_runqlat_P.wl)
	own=0
	for t in $tids; do
		grep -q "^pid = $t threadlife\$" $OUT/threads_old.txt && own=$((own + 1))
	done
	if grep -Eq '^runqlat: [0-9]+ tasks of no known process \(the recording keeps no task table: trace-cmd.s, an older ftscope.s\): each counted as a process of its own \(right for a single-threaded one\)$' $OUT/threads_old.txt &&
	   [ $own = 3 ]; then
		pass $name
	else
		fail $name "$own of 3 threads their own group; note: '$(grep 'no known' $OUT/threads_old.txt)'"
	fi
fi
rm -f $OUT/threads_rec.dat $OUT/threads_old.dat

# timehist -s: each thread as comm[tid/pid] (perf's form), read after the threads ended.
name=threads_timehist_summary_pid
if beside $name $OUT/threads_th.txt timehist -s -d 2; then
	pid=$(sed -n 's/^pid=//p' $OUT/$name.wl)
	want=$(sed -n 's/^tid=\([0-9]*\) .*/\1/p' $OUT/$name.wl | sort -n | tr '\n' ' ')
	got=$(grep -oE "threadlife\[[0-9]+/$pid\]" $OUT/threads_th.txt |
	      sed 's/.*\[\([0-9]*\)\/.*/\1/' | sort -nu | tr '\n' ' ')
	bare=$(grep -oE "threadlife\[[0-9]+\]" $OUT/threads_th.txt | grep -v "\[$pid\]" | head -3)
	if [ -n "$pid" ] && [ "$got" = "$want" ] && [ -z "$bare" ]; then
		pass $name
	else
		fail $name "pid $pid threads '$want': named with the pid '$got', without '$bare'"
	fi
fi

# -P and -L exclude each other (BCC: argparse's mutually exclusive group): one line, exit 2.
name=threads_runqlat_P_L_refused
ft $name 2 runqlat -P -L -d 1 > $OUT/threads_pl.out 2> $OUT/threads_pl.err
if [ $? = 2 ] && [ "$(wc -l < $OUT/threads_pl.err)" = 1 ] &&
   grep -q -- '-L/--tids: not allowed with -P/--pids' $OUT/threads_pl.err &&
   [ ! -s $OUT/threads_pl.out ]; then
	pass $name
else
	fail $name "stderr '$(head -2 $OUT/threads_pl.err)'"
fi

# Idle stats with both CPUs busy by design (spinself: three spinners pinned to each of
# CPUs 0 and 1): each CPU's idle time as the kernel counts it (/proc/stat idle+iowait,
# read around the run) within 20 ms (two ticks). Measured: 0 ms both ways, 3 of 3 runs;
# the old binary said "CPU 0 idle entire time window" (no number) and fails.
name=timehist_idle_busy_cpus
cpu_idle() { awk '$1=="cpu0"||$1=="cpu1"{printf "%d ", $5+$6}' /proc/stat; }
if [ "$(nproc)" -lt 2 ]; then
	skip $name "needs 2 CPUs"
else
	$WL/spinself 0 2 > /dev/null 2>&1 &
	s0=$!
	$WL/spinself 1 2 > /dev/null 2>&1 &
	s1=$!
	sleep 0.2
	i0=$(cpu_idle)
	ft $name 0 timehist -s -d 1 > $OUT/threads_idle.txt 2> $OUT/threads_idle.err
	rc=$?
	i1=$(cpu_idle)
	wait $s0 $s1
	if [ $rc = 0 ]; then
		if why=$(python3 - "$i0" "$i1" "$(getconf CLK_TCK)" $OUT/threads_idle.txt <<'PY'
import re, sys
a = [int(x) for x in sys.argv[1].split()]
b = [int(x) for x in sys.argv[2].split()]
hz = int(sys.argv[3])
text = open(sys.argv[4]).read()
bad = []
for cpu in (0, 1):
    kern = (b[cpu] - a[cpu]) * 1000.0 / hz
    m = re.search(r'^ +CPU +%d idle for +([0-9.]+) +msec' % cpu, text, re.M)
    line = re.search(r'^ +CPU +%d .*$' % cpu, text, re.M)
    if not m or abs(float(m.group(1)) - kern) > 20:
        bad.append(f"CPU {cpu}: kernel {kern:.0f} ms idle, ftscope '{line.group(0).strip() if line else None}'")
if bad:
    print("; ".join(bad))
    sys.exit(1)
print("both CPUs' idle time within 20 ms of the kernel's")
PY
		); then
			pass $name
		else
			fail $name "$why"
		fi
	fi
fi
