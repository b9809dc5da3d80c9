#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: offcpu --locks (periods that block in a lock's contention, marked with its
#              type) against bpftrace on the same events in the same run
#              (tests/live/offcpu_locks.bt, the same pairing rule): lockstorm's threads
#              queue on their mmap_lock (rwsem) and on a pipe's mutex: periods per mark
#              exact; the marks against the kernel stacks (the lock's slow path); the
#              folded frame and the SVG; --wakers beside; the pprof label (go tool pprof); a capture without the lock
#              events (nothing marked, said); the tracefs state.
# requires: root, lock:contention_begin/end (Linux 5.19), bpftrace, go (go tool pprof)
. tests/live/lib.sh
plan 7
need_root offcpu_locks_rwsem_peer || exit 0
PY=tests/live/offcpu_locks_check.py
before=$(global_state)

# offcpu_locks_without_events: a capture without the lock events runs, marks nothing, says so
name=offcpu_locks_without_events
ft $name 0 offcpu --locks -f -i tests/data/cap-sleeper > $OUT/offlk-none.out 2> $OUT/offlk-none.err
if grep -q '^offcpu: --locks: the capture has no lock:contention_begin/end (Linux 5.19 and later): no period marked$' \
	$OUT/offlk-none.err && [ -s $OUT/offlk-none.out ] && ! grep -q '\[lock ' $OUT/offlk-none.out; then
	pass $name
else
	fail $name "$(tr '\n' '|' < $OUT/offlk-none.err)"
fi
if [ ! -d $T/events/lock/contention_begin ]; then
	skip_rest "no lock:contention_* tracepoints"
	exit 0
fi

# storm NAME OUT MODE ARGS...: (the check NAME of) ftscope offcpu --locks -m 0 ARGS on `lockstorm MODE 4 2` with
# bpftrace's offcpu_locks.bt on the same run (OUT.bt); 1 when bpftrace did not attach
storm() {
	local name=$1 out=$2 mode=$3
	shift 3
	bt_start $out.bt "" tests/live/offcpu_locks.bt lockstorm || return 1
	ft $name 0 offcpu --locks -m 0 "$@" -- $WL/lockstorm $mode 4 2 \
		> $out 2> $out.err
	stop_bpftrace $bt
}

# offcpu_locks_rwsem_peer: the mmap storm (rwsem:W of mmap and munmap, rwsem:R of page
# faults), perf's stacks (the default: a light run, where bpftrace keeps up)
if storm offcpu_locks_rwsem_peer $OUT/offlk-mm.json mmap --json; then
	check offcpu_locks_rwsem_peer peer $OUT/offlk-mm.json $OUT/offlk-mm.json.bt rwsem:W
else
	skip offcpu_locks_rwsem_peer "$bt_why"
fi

# offcpu_locks_rwsem_stacks: the mmap storm with ftrace's stacks (recorded after each
# switch-out: exact), alone: every event then takes two stacks, and bpftrace beside it
# lost track (16 periods marked spinlock, which no thread sleeps in; 5% fewer periods)
ft offcpu_locks_rwsem_stacks 0 offcpu --locks --stacks ftrace --json -- $WL/lockstorm mmap 4 2 \
	> $OUT/offlk-st.json 2> $OUT/offlk-st.err
check offcpu_locks_rwsem_stacks stacks $OUT/offlk-st.json rwsem:W rwsem_down_write_slowpath

# offcpu_locks_pipe_peer: the pipe storm, perf's stacks (the pipe's mutex spins, then
# sleeps: here its writers mostly wait for room, 0 or 1 of 45000 periods marked mutex;
# mutex marks have their known answer in tests/unit/test_offcpu_lock.c)
if storm offcpu_locks_pipe_peer $OUT/offlk-pipe.json pipe --json; then
	check offcpu_locks_pipe_peer peer $OUT/offlk-pipe.json $OUT/offlk-pipe.json.bt -
else
	skip offcpu_locks_pipe_peer "$bt_why"
fi

# offcpu_locks_folded_svg_wakers: with --wakers, folded lines and the SVG carry the mark
# after the comm, as frames; the waker's side after "--"
name=offcpu_locks_folded_svg_wakers
ft $name 0 offcpu --locks --wakers -f --svg $OUT/offlk.svg -- $WL/lockstorm mmap 4 1 \
	> $OUT/offlk.folded 2> $OUT/offlk.folded.err
n=$(grep -c '^lockstorm;\[lock rwsem:W\];.*rwsem_down_write_slowpath.*;--;' $OUT/offlk.folded)
if [ "$n" -gt 0 ] && grep -q '\[lock rwsem:W\]' $OUT/offlk.svg &&
   grep -q '^offcpu: --locks: [1-9][0-9]* periods blocked in a lock' $OUT/offlk.folded.err; then
	pass $name
else
	fail $name "$n marked lines with a waker; $(tail -2 $OUT/offlk.folded.err | tr '\n' '|')"
fi

# offcpu_locks_pprof_label: the pprof profile of a run labels its samples lock TYPE, with
# the time the folded output gives that [lock TYPE] frame
name=offcpu_locks_pprof_label
if command -v go > /dev/null && go tool pprof -h > /dev/null 2>&1; then
	ft $name 0 offcpu --locks -f --pprof $OUT/offlk.pb.gz -- $WL/lockstorm mmap 4 1 \
		> $OUT/offlk-pp.folded 2> $OUT/offlk-pp.err
	go tool pprof -raw $OUT/offlk.pb.gz > $OUT/offlk-pp.raw 2>&1
	PYTHONPATH=tests/live check $name pprof $OUT/offlk-pp.raw $OUT/offlk-pp.folded
else
	fail $name "go tool pprof missing (scripts/install-deps.sh installs golang-go)"
fi

name=offcpu_locks_state_restored
after=$(global_state)
if [ "$before" = "$after" ]; then
	pass $name
else
	fail $name "$(state_diff "$before" "$after")"
fi
