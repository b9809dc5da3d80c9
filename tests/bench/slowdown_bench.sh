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
[ "$(id -u)" -eq 0 ] || { echo "slowdown_bench.sh: needs root" >&2; exit 1; }
ROUNDS=${ROUNDS:-9}
LOOPS=${LOOPS:-100000}
T=/sys/kernel/tracing
W=$(mktemp -d /tmp/ftscope-slow.XXXXXX)
bare=$T/instances/ftscope-bench-$$	# the unread instance
p=
# cleanup - the tracer of an interrupted round stopped, the instance and files gone
cleanup() {
	[ -n "$p" ] && kill -INT $p 2> /dev/null && wait $p
	rmdir $bare 2> /dev/null
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

# start NAME - the tracer of condition NAME running (its pid in $p), ready to record
start() {
	case $1 in
	unread)
		mkdir $bare
		for e in sched_switch sched_wakeup sched_wakeup_new; do
			echo 1 > $bare/events/sched/$e/enable
		done ;;
	ftscope)
		./ftscope runqlat > /dev/null 2>&1 & p=$!
		until ls $T/instances | grep -q "^ftscope-$p-"; do sleep 0.05; done ;;
	perf)
		perf sched record -a -o $W/perf.data > /dev/null 2>&1 & p=$!
		sleep 1 ;;	# perf has no ready signal; time to set up its ring buffers
	bpftrace)
		bpftrace $W/rq.bt > $W/bt.out 2>&1 & p=$!
		until grep -q Attaching $W/bt.out 2> /dev/null; do sleep 0.05; done ;;
	esac
}

# stop NAME - the tracer of condition NAME gone
stop() {
	[ $1 = unread ] && rmdir $bare
	[ -n "$p" ] && kill -INT $p && wait $p
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
		echo "$r $c $us" >> $W/runs
	done
done

echo "== 3. cost to the traced workload: perf bench sched pipe -l $LOOPS on CPU 0 (usec/op;"
echo "   $ROUNDS rounds, each condition once a round, slowdowns against the same round's nothing)"
python3 - $W/runs "${conds[@]}" <<'PY'
import sys
runs = {}
for line in open(sys.argv[1]):
    r, c, us = line.split()
    runs.setdefault(c, {})[int(r)] = float(us)
conds, base = sys.argv[2:], runs["nothing"]
med = lambda v: sorted(v)[len(v) // 2]
slow = {c: [runs[c][r] / base[r] - 1 for r in base] for c in conds}
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
