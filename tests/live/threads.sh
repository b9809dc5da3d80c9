#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: a thread's process comes from the kernel, never from its thread id:
#              threadlife's threads (their tids and tgid printed by the workload itself)
#              begin before the trace or during it and end before it does; runqlat -P
#              keeps them in one group, timehist -s names them comm[tid/pid]; -P with -L
#              is a usage error, as in BCC.
# requires: root, tracefs, sched and task events
. tests/live/lib.sh
plan 4
need_root threads || exit 0

TL=$WL/threadlife
[ -x $TL ] || make -s $TL >/dev/null

# groups_check JSON WLOUT: runqlat -P --json's groups hold the workload's pid and none
# of its threads' tids (the oracle: the workload's own getpid()/gettid() lines)
groups_check() {
	python3 - "$1" "$2" <<'PY'
import json, re, sys
j = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
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

# Threads that began 300 ms before the trace and end 300 ms into it (the report reads
# them after they are gone): today's bug gave one group per thread.
name=threads_runqlat_P_before
$TL 600 1500 3 > $OUT/threads_before.wl &
wl=$!
sleep 0.3
if ft $name 0 runqlat -P --json -d 2 > $OUT/threads_before.json 2> $OUT/threads_before.err; then
	wait $wl
	if why=$(groups_check $OUT/threads_before.json $OUT/threads_before.wl); then
		pass $name
	else
		fail $name "$why"
	fi
else
	wait $wl
fi

# Threads made during the trace (task:task_newtask's CLONE_THREAD) that end within 300 ms.
name=threads_runqlat_P_during
if ft $name 0 runqlat -P --json -- $TL 300 100 3 > $OUT/threads_during.json \
	2> $OUT/threads_during.err; then
	# the command's output went to the same stdout: split it off
	grep -E '^(pid|tid)=' $OUT/threads_during.json > $OUT/threads_during.wl
	if why=$(groups_check $OUT/threads_during.json $OUT/threads_during.wl); then
		pass $name
	else
		fail $name "$why"
	fi
fi

# timehist -s: each thread as comm[tid/pid] (perf's form), read after the threads ended.
name=threads_timehist_summary_pid
$TL 600 1500 3 > $OUT/threads_th.wl &
wl=$!
sleep 0.3
if ft $name 0 timehist -s -d 2 > $OUT/threads_th.txt 2> $OUT/threads_th.err; then
	wait $wl
	pid=$(sed -n 's/^pid=//p' $OUT/threads_th.wl)
	want=$(sed -n 's/^tid=\([0-9]*\) .*/\1/p' $OUT/threads_th.wl | sort -n | tr '\n' ' ')
	got=$(grep -oE "threadlife\[[0-9]+/$pid\]" $OUT/threads_th.txt |
	      sed 's/.*\[\([0-9]*\)\/.*/\1/' | sort -nu | tr '\n' ' ')
	bare=$(grep -oE "threadlife\[[0-9]+\]" $OUT/threads_th.txt | grep -v "\[$pid\]" | head -3)
	if [ -n "$pid" ] && [ "$got" = "$want" ] && [ -z "$bare" ]; then
		pass $name
	else
		fail $name "pid $pid threads '$want': named with the pid '$got', without '$bare'"
	fi
else
	wait $wl
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
