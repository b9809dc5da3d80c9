#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# slowdown_bench.sh - what tracing costs the traced workload (make bench, part 3; runs
# alone too): `perf bench sched pipe` usec/op, both tasks on CPU 0 (no idle CPU, no
# cross-CPU wakeup: two switches and two wakeups an op, at the steadiest), with nothing,
# with runqlat's three events written into an instance nobody reads (the kernel's writes
# alone: the floor of any ftrace reader), with ftscope runqlat, perf sched record -a and
# a bpftrace runqlat. ROUNDS rounds (default 9), each condition once a round in an order
# that turns round by round, each slowdown against its own round's run with nothing,
# so that this VM's drift between minutes falls on all alike; medians and ranges.
#
#   tests/bench/slowdown_bench.sh        (root)
#   ROUNDS=11 LOOPS=100000 tests/bench/slowdown_bench.sh

cd "$(dirname "$0")/../.." || exit 1
# die MSG: one line on stderr, status 1 (the EXIT trap cleans up)
die() {
	echo "slowdown_bench.sh: $*" >&2
	exit 1
}
[ "$(id -u)" -eq 0 ] || die "needs root"
for c in perf bpftrace taskset python3 ./ftscope; do
	command -v $c > /dev/null || die "no $c (scripts/install-deps.sh --tests, make)"
done
. tests/live/lib.sh	# T, our_instance
ROUNDS=${ROUNDS:-9}
LOOPS=${LOOPS:-100000}
W=$(mktemp -d /tmp/ftscope-slow.XXXXXX)
# the unread instance, named as ftscope names its own: `ftscope reset` removes it if a
# SIGKILL leaves it behind. It keeps the kernel's default overwrite mode, so that every
# write is made however full it gets (with overwrite off, a full buffer drops them, cheaper)
bare=$T/instances/ftscope-$$-$(od -An -N4 -tx4 /dev/urandom | tr -d ' ')
p=
# cleanup - the tracer of an interrupted round stopped, the instance and files gone
cleanup() {
	[ -n "$p" ] && kill -INT $p 2> /dev/null && wait $p
	[ -d $bare ] && rmdir $bare
	rm -rf $W
}
trap cleanup EXIT
cat > $W/rq.bt <<'BT'
tracepoint:sched:sched_wakeup, tracepoint:sched:sched_wakeup_new { @q[args->pid] = nsecs; }
tracepoint:sched:sched_switch {
	if ((args->prev_state & 0xff) == 0) { @q[args->prev_pid] = nsecs; }
	$t = @q[args->next_pid];
	if ($t) { @us = hist((nsecs - $t) / 1000); delete(@q[args->next_pid]); }
}
BT

# ready CMD...: poll CMD until it holds while the tracer $p runs (dies if $p ends)
ready() {
	until "$@"; do
		kill -0 $p 2> /dev/null || die "the tracer of this round ended: $(tail -1 $W/tracer.err)"
		sleep 0.05
	done
}

# start NAME - the tracer of condition NAME running (its pid in $p), ready to record
start() {
	case $1 in
	unread)
		mkdir $bare || die "cannot make $bare"
		for e in sched_switch sched_wakeup sched_wakeup_new; do
			echo 1 > $bare/events/sched/$e/enable || die "cannot enable $e in $bare"
		done ;;
	ftscope)
		./ftscope runqlat > /dev/null 2> $W/tracer.err & p=$!
		ready our_instance $p ;;	# events enabled and tracing on
	perf)
		perf sched record -a -o $W/perf.data > /dev/null 2> $W/tracer.err & p=$!
		sleep 1	# perf has no ready signal; time to set up its ring buffers
		ready true ;;
	bpftrace)
		bpftrace $W/rq.bt > $W/bt.out 2> $W/tracer.err & p=$!
		ready grep -q Attaching $W/bt.out ;;
	esac
}

# stop NAME - the tracer of condition NAME gone (dies if it had ended before)
stop() {
	if [ $1 = unread ]; then
		rmdir $bare || die "cannot remove $bare"
	elif [ -n "$p" ]; then
		kill -INT $p 2> /dev/null || die "$1 ended before its round did: $(tail -1 $W/tracer.err)"
		wait $p
	fi
	p=
}

conds=(nothing unread ftscope perf bpftrace)
for ((r = 0; r < ROUNDS; r++)); do
	for ((i = 0; i < ${#conds[@]}; i++)); do
		c=${conds[(i + r) % ${#conds[@]}]}
		start $c
		us=$(taskset -c 0 perf bench sched pipe -l $LOOPS 2> /dev/null |
		     awk '/usecs\/op/ {print $1}')
		stop $c
		[ -n "$us" ] || die "perf bench sched pipe printed no usecs/op (round $r, $c)"
		echo "$r $c $us" >> $W/runs
	done
done

echo "== 3. cost to the traced workload: perf bench sched pipe -l $LOOPS on CPU 0 (usec/op;"
echo "   $ROUNDS rounds, each condition once a round, slowdowns against the same round's nothing)"
python3 - $W/runs "${conds[@]}" <<'PY'
import sys
sys.path.insert(0, "tests/bench")
from rounds import median as med, read_rounds
conds = sys.argv[2:]
runs, _, slow = read_rounds(sys.argv[1], conds, "nothing")
base = runs["nothing"]
words = {"nothing": "nothing", "unread": "kernel writes alone", "ftscope": "ftscope runqlat",
         "perf": "perf sched record -a", "bpftrace": "bpftrace runqlat"}
print("  %-21s %6.2f us/op  (%.2f .. %.2f over the rounds)" %
      ("nothing:", med(base.values()), min(base.values()), max(base.values())))
for c in conds[1:]:
    s = slow[c]
    print("  %-21s %6.2f us/op  %+4.0f%% (rounds %+.0f%% .. %+.0f%%)" %
          (words[c] + ":", med(runs[c].values()), med(s) * 100, min(s) * 100, max(s) * 100))
ft, un, bt = slow["ftscope"], slow["unread"], slow["bpftrace"]
below = sum(1 for a, b in zip(ft, un) if a <= b)
diff = [(a - b) * 100 for a, b in zip(ft, un)]
print("  ftscope minus the unread instance: median %+.1f points (rounds %+.0f .. %+.0f); no more "
      "than it in %d of %d rounds" % (med(diff), min(diff), max(diff), below, len(ft)))
ratio = [a / b for a, b in zip(ft, bt) if b > 0]
kratio = [a / b for a, b in zip(un, bt) if b > 0]
if ratio:
    print("  ftscope adds %.2fx what bpftrace adds (median of %d rounds); the unread instance %.2fx"
          % (med(ratio), len(ratio), med(kratio)))
PY
