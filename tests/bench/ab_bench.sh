#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ab_bench.sh - two builds of ftscope on the same work, in alternating rounds (not a
# test): a refactor's "the CPU figures do not move beyond the noise" (issue house).
#
#   tests/bench/ab_bench.sh OLD_FTSCOPE NEW_FTSCOPE [ROUNDS]
#
#  1. offline: task-clock of each analyzer over one recording of perf bench sched
#     messaging (runqlat -P, timehist -s, wakeup, latency, offcpu -f, report of four),
#     OLD and NEW alternating, ROUNDS (default 5) each;
#  2. live: ftscope runqlat's task-clock per million events over the same workload
#     (whole system, 4 s), OLD and NEW alternating.
# Prints per case the median of each build, NEW/OLD, and each build's spread
# (max/min - 1): a ratio inside the spreads is noise.

cd "$(dirname "$0")/../.." || exit 1
[ "$(id -u)" -eq 0 ] || { echo "ab_bench.sh: needs root" >&2; exit 1; }
OLD=$(realpath "${1:?usage: ab_bench.sh OLD_FTSCOPE NEW_FTSCOPE [ROUNDS]}")
NEW=$(realpath "${2:?usage: ab_bench.sh OLD_FTSCOPE NEW_FTSCOPE [ROUNDS]}")
R=${3:-5}
W=$(mktemp -d /tmp/ftscope-ab.XXXXXX)
trap 'rm -rf $W' EXIT
MSG="perf bench sched messaging -g 20 -l 600"

# clock OUT CMD...: CMD's task-clock in ms (perf stat), its output in OUT
clock() {
	local out=$1
	shift
	perf stat -x, -e task-clock -o $out.stat "$@" > $out 2>&1
	awk -F, '$3 == "task-clock" { print $1 }' $out.stat
}

# summary NAME FILE_OLD FILE_NEW: medians, ratio and spreads of two lists of numbers
summary() {
	python3 - "$@" << 'PY'
import statistics, sys
name, a, b = sys.argv[1], sys.argv[2], sys.argv[3]
old = [float(x) for x in open(a).read().split()]
new = [float(x) for x in open(b).read().split()]
mo, mn = statistics.median(old), statistics.median(new)
spread = lambda v: max(v) / min(v) - 1 if min(v) > 0 else float("nan")
print("%-28s old %9.2f  new %9.2f  new/old %.3f  spread old %+.1f%% new %+.1f%%" %
      (name, mo, mn, mn / mo, 100 * spread(old), 100 * spread(new)))
PY
}

echo "== 1. offline: task-clock (ms) over one recording of $MSG, $R alternating rounds"
$NEW record -b 32768 -o $W/cap.dat runqlat timehist wakeup offcpu -- $MSG > $W/rec.log 2>&1 ||
	{ echo "record failed: $(tail -2 $W/rec.log)"; exit 1; }
i=0
while read -r args; do
	i=$((i + 1))
	: > $W/o$i
	: > $W/n$i
	for r in $(seq $R); do
		# shellcheck disable=SC2086
		clock $W/out $OLD $args -i $W/cap.dat >> $W/o$i
		# shellcheck disable=SC2086
		clock $W/out $NEW $args -i $W/cap.dat >> $W/n$i
	done
	summary "$args" $W/o$i $W/n$i
done << 'EOF'
runqlat -P
timehist -s
wakeup --top 5
latency
offcpu -f
report runqlat timehist wakeup offcpu
EOF

echo
echo "== 2. live: runqlat's task-clock (ms) per 1M events, whole system, $MSG, $R rounds"
: > $W/lo
: > $W/ln
for r in $(seq $R); do
	for b in OLD NEW; do
		bin=${!b}
		( sleep 0.5; $MSG > /dev/null 2>&1 ) &
		ms=$(clock $W/live $bin runqlat -d 4)
		wait
		ev=$(sed -n 's/^\([0-9]*\) events processed.*/\1/p' $W/live | tail -1)
		[ -n "$ev" ] && [ "$ev" -gt 0 ] || { echo "no event count: $(tail -2 $W/live)"; exit 1; }
		python3 -c "print($ms / $ev * 1e6)" >> $W/l$( [ $b = OLD ] && echo o || echo n)
	done
done
summary "runqlat -d 4 (per 1M events)" $W/lo $W/ln
