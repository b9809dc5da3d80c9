#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: runqlat's figures where this kernel does not record every switch, against
# bpftrace on the same tracepoints in the same run (it sees every switch): the count,
# p50, p90, p99 and max of the same tasks' latencies (BCC runqlat's pairing).
# requires: root, bpftrace with tracepoints (scripts/install-deps.sh installs it)
. tests/live/lib.sh
PY=tests/live/rebuilt_check.py
CASES="sleeper_cpu0 sleeper_cpu1 spin3_pid hopper messaging"
if ! need_root rebuilt_runqlat; then
	for c in $CASES; do skip rebuilt_runqlat_$c "needs root and tracefs"; done
	exit 0
fi

# watch NAME: start the bpftrace oracle; 1 (a FAIL printed)
# when it does not attach (install-deps.sh installs it: not a reason to skip)
watch() {
	BPFTRACE_MAP_KEYS_MAX=1000000 bpftrace tests/live/rebuilt.bt > $OUT/rebuilt.bt.out 2>&1 &
	bt=$!
	if ! wait_for 30 grep -q '^ready' $OUT/rebuilt.bt.out; then
		kill $bt 2>/dev/null
		wait $bt 2>/dev/null
		fail "$1" "bpftrace did not attach: $(grep -m1 ERROR $OUT/rebuilt.bt.out)"
		return 1
	fi
}

# compare NAME COMM STATUS BOUNDS...: end the oracle, then ftscope's exit STATUS and its
# figures against bpftrace's at the bounds (rebuilt_check.py)
compare() {
	local name=$1 comm=$2 rc=$3 r
	shift 3
	stop_bpftrace $bt
	if [ "$rc" -ne 0 ]; then
		fail $name "ftscope exited $rc: $(tail -1 $OUT/rebuilt.err)"
		return
	fi
	# the latencies whose switch-in lies in ftscope's run (-p joins a running process)
	read -r t0 t1 < <(json '"%d %d" % (j["start_ns"], j["time_ns"])' $OUT/rebuilt.json)
	if r=$(python3 $PY $OUT/rebuilt.json $OUT/rebuilt.bt.out $comm $t0 $t1 "$@" 2>&1); then
		pass $name
	else
		fail $name "$(echo "$r" | tail -1)"
	fi
	echo "# $name: $(echo "$r" | head -1)"
}

# runqlat -L --json of the command ARGS..., tasks named COMM, bounds BOUNDS (one word)
cmd_case() {
	local name=rebuilt_runqlat_$1 comm=$2 bounds=$3 rc
	shift 3
	watch $name $comm || return
	# the command's own output apart from the JSON
	$FTSCOPE runqlat -L --json -- sh -c 'exec "$@" > /dev/null' sh "$@" \
		> $OUT/rebuilt.json 2> $OUT/rebuilt.err
	rc=$?
	# shellcheck disable=SC2086
	compare $name $comm $rc $bounds
}

# Bounds: measured spread (docs/testing.md, rebuilt_runqlat_*) plus a margin
cmd_case sleeper_cpu0 sleeper "${B_SLEEPER0:---bound=count=2}" $WL/sleeper 0 200 5
cmd_case sleeper_cpu1 sleeper "${B_SLEEPER1:---bound=count=2}" $WL/sleeper 1 200 5

# a CPU hog joined with -p after it started: three threads pinned to CPU 1
name=rebuilt_runqlat_spin3_pid
$WL/spin3 1 6 &
hog=$!
if watch $name spin3; then
	sleep 1
	$FTSCOPE runqlat -L --json -p $hog -d 2 > $OUT/rebuilt.json 2> $OUT/rebuilt.err
	rc=$?
	# shellcheck disable=SC2086
	compare $name spin3 $rc ${B_SPIN3:---bound=count=3}
fi
kill $hog 2>/dev/null
wait $hog 2>/dev/null

cmd_case hopper hopper "${B_HOPPER:---bound=count=2}" $WL/hopper 2 150 2 3
cmd_case messaging sched-messaging "${B_MSG:---bound=count=2}" \
	perf bench sched messaging -g 2 -l 100
