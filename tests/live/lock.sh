#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: lock (perf lock contention's report) against bpftrace on the same
#              tracepoints in the same run (tests/live/lock.bt, paired by the same
#              rule): lockstorm's threads queue on their process's mmap_lock (an
#              rwsem, mmap and munmap) and on a pipe's mutex: waits per type exact,
#              total wait per type within 2 us a wait, waits per (type, caller) with
#              the callers named from bpftrace's stacks, the workload's lock and
#              callers; the recording read back, -l, --threads, -Y, -L; bad usage; the
#              tracefs state.
# requires: root, lock:contention_begin/end (Linux 5.19), bpftrace
. tests/live/lib.sh
plan 14
need_root lock || exit 0
PY=tests/live/lock_check.py
if [ ! -d $T/events/lock/contention_begin ]; then
	# the one line a kernel without them gets (engine/tps.c: as any event it lacks)
	name=lock_refused_without_events
	ft $name '[1-9]' lock -d 1 > $OUT/lock-r.out 2> $OUT/lock-r.err
	if [ "$(wc -l < $OUT/lock-r.err)" = 1 ] &&
	   grep -q 'lock needs lock:contention_begin, which the kernel lacks$' $OUT/lock-r.err; then
		pass $name
	else
		fail $name "$(tr '\n' '|' < $OUT/lock-r.err)"
	fi
	skip_rest "no lock:contention_* tracepoints"
	exit 0
fi
before=$(global_state)

# storm NAME OUT MODE STACKS ARGS...: (a check NAME of) ftscope lock ARGS on `lockstorm MODE
# 4 2` with bpftrace's lock.bt (its stacks when STACKS is 1) on the same run (OUT.bt);
# ready once a begin fired: a copy of lockstorm by another name (not the traced comm)
# contends meanwhile
storm() {
	local name=$1 out=$2 mode=$3 stacks=$4 warm
	shift 4
	ln -sf "$(realpath $WL/lockstorm)" $OUT/warmstorm
	$OUT/warmstorm pipe 2 3 > /dev/null &
	warm=$!
	if ! bt_start $out.bt "" tests/live/lock.bt lockstorm $stacks; then
		wait $warm
		return 1
	fi
	wait $warm
	ft $name 0 lock "$@" -- $WL/lockstorm $mode 4 2 > $out 2> $out.err
	# the host's steal over the run (ft_steal): a vCPU held between bpftrace's
	# probe and the ring buffer's reserve parts the two times of a wait by it
	export STEAL_MS=$(ft_steal)
	stop_bpftrace $bt
}

# lock_counts_per_type, lock_wait_totals, lock_callers, lock_known_rwsem: the mmap
# storm (rwsem:W of vm_mmap_pgoff and __vm_munmap) against bpftrace
if storm lock_counts_per_type $OUT/lock-mm.json mmap 1 --json -o $OUT/lock-mm.dat; then
	check lock_counts_per_type counts $OUT/lock-mm.json.bt $OUT/lock-mm.json
	check lock_wait_totals totals $OUT/lock-mm.json.bt $OUT/lock-mm.json
	check lock_callers callers $OUT/lock-mm.json.bt $OUT/lock-mm.json
	check lock_known_rwsem known $OUT/lock-mm.json.bt $OUT/lock-mm.json rwsem:W \
		vm_mmap_pgoff,__vm_munmap
else
	for n in counts_per_type wait_totals callers known_rwsem; do skip lock_$n "$bt_why"; done
fi

# lock_pipe_mutex_counts, lock_known_mutex: the pipe storm (a mutex that spins, then
# sleeps: its repeated begins counted as bpftrace counts them)
if storm lock_pipe_mutex_counts $OUT/lock-pipe.json pipe 0 --json; then
	check lock_pipe_mutex_counts counts $OUT/lock-pipe.json.bt $OUT/lock-pipe.json
	check lock_known_mutex known $OUT/lock-pipe.json.bt $OUT/lock-pipe.json mutex \
		anon_pipe_write,anon_pipe_read
else
	skip lock_pipe_mutex_counts "$bt_why"
	skip lock_known_mutex "$bt_why"
fi

# lock_file_equals_live: the recording of the mmap storm gives its rows
name=lock_file_equals_live
ft $name 0 lock --json -i $OUT/lock-mm.dat > $OUT/lock-file.json 2> $OUT/lock-file.err
r=$(python3 -c "import sys
from pct_check import last_json
a, b = (last_json(f)['rows'] for f in sys.argv[1:3])
print(a == b and len(a) > 0)" $OUT/lock-mm.json $OUT/lock-file.json 2>&1)
if [ "$r" = True ]; then pass $name; else fail $name "$r"; fi

# lock_by_address (-l): the rwsem:W waits on one address; lock_threads (--threads): the
# four workers and their waits; lock_type_filter (-Y rwsem): rwsem rows only, bpftrace's
# counts. All from the recording, against the live run's bpftrace
ft lock_by_address 0 lock -l --json -i $OUT/lock-mm.dat > $OUT/lock-l.json 2>&1
check lock_by_address addr $OUT/lock-mm.json.bt $OUT/lock-l.json rwsem:W
ft lock_threads 0 lock --threads --json -i $OUT/lock-mm.dat > $OUT/lock-t.json 2>&1
check lock_threads threads $OUT/lock-mm.json.bt $OUT/lock-t.json 4 $OUT/lock-mm.json
name=lock_type_filter
ft $name 0 lock -Y rwsem --json -i $OUT/lock-mm.dat > $OUT/lock-y.json 2>&1
r=$(python3 -c "import sys, re
from pct_check import last_json
from lock_check import bt_maps
n = bt_maps(sys.argv[2])[0]
rows = last_json(sys.argv[1])['rows']
got = {t: sum(r['contended'] for r in rows if r['type'] == t) for t in {r['type'] for r in rows}}
want = {t: n[t] for t in ('rwsem:R', 'rwsem:W') if n[t]}
print(got == want or '%s want %s' % (got, want))" $OUT/lock-y.json $OUT/lock-mm.json.bt 2>&1)
if [ "$r" = True ]; then pass $name; else fail $name "$r"; fi

# lock_lock_filter (-L): the mmap_lock's address (from -l) keeps its rows alone, all of
# bpftrace's rwsem waits
name=lock_lock_filter
addr=$(json "[r['address'][2:] for r in j['rows'] if r['type'] == 'rwsem:W'][0]" $OUT/lock-l.json)
ft $name 0 lock -l -L "$addr" --json -i $OUT/lock-mm.dat > $OUT/lock-L.json 2>&1
r=$(python3 -c "import sys
from pct_check import last_json
from lock_check import bt_maps
n = bt_maps(sys.argv[2])[0]
rows = last_json(sys.argv[1])['rows']
got = {r['type']: r['contended'] for r in rows}
ok = {r['address'][2:] for r in rows} == {sys.argv[3]} and \\
	got == {t: n[t] for t in ('rwsem:R', 'rwsem:W') if n[t]}
print(ok or '%s want %s at %s' % (rows, dict(n), sys.argv[3]))" $OUT/lock-L.json $OUT/lock-mm.json.bt "$addr" 2>&1)
if [ "$r" = True ]; then pass $name; else fail $name "$r"; fi

# lock_bad_usage: perf's keys, types and exclusions: exit 2, one line each
name=lock_bad_usage
bad=
for args in "-k nosuch" "-Y nosuch" "-l --threads" "--stack -l" "-E 0"; do
	# shellcheck disable=SC2086
	"$FTSCOPE" lock $args -d 1 > $OUT/lock-bad.out 2> $OUT/lock-bad.err < /dev/null
	rc=$?
	[ $rc = 2 ] && [ "$(wc -l < $OUT/lock-bad.err)" = 1 ] && [ ! -s $OUT/lock-bad.out ] ||
		bad+="[$args: exit $rc, $(tr '\n' '|' < $OUT/lock-bad.err)] "
done
if [ -z "$bad" ]; then pass $name; else fail $name "$bad"; fi

# lock_refused_without_events: a capture without the lock events: one line, not 0
name=lock_refused_without_events
"$FTSCOPE" lock -i tests/data/cap-sleeper > $OUT/lock-r.out 2> $OUT/lock-r.err
rc=$?
if [ $rc != 0 ] && [ "$(wc -l < $OUT/lock-r.err)" = 1 ] &&
   grep -q 'lock needs lock:contention_begin' $OUT/lock-r.err; then
	pass $name
else
	fail $name "exit $rc: $(tr '\n' '|' < $OUT/lock-r.err)"
fi

name=lock_state_restored
after=$(global_state)
if [ "$before" = "$after" ]; then
	pass $name
else
	fail $name "$(state_diff "$before" "$after")"
fi
