#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# flight_bench.sh - what the flight recorder costs (issue 39; docs/record.md), measured
# in the same run (not a test). Runs alone too (as root):
#  a. consumer CPU per 1M events: ftscope runqlat, and ftscope runqlat --flight 10
#     --trigger 10s -o FILE (a trigger that never fires: the cost of keeping the pages,
#     a copy of each), 30 s each beside the same workload, alternating, 3 rounds (in 8 s
#     runs the rings' first touch of their pages weighs: +24% there, +11% in 30 s); then
#     the cost of writing one window (no trigger: the last 10 s at the end), whose
#     metadata (/proc/kallsyms, the formats) a plain -o writes too;
#  b. memory: the peak RSS of runqlat --flight 2 with --flight-size 8 over 12 s of the
#     workload, beside runqlat alone: the rings stay within their bound (8 MB), and
#     the window's file against a plain -o of the same run.

cd "$(dirname "$0")/../.." || exit 1
[ "$(id -u)" -eq 0 ] || { echo "flight_bench.sh: needs root" >&2; exit 1; }
W=$(mktemp -d /tmp/ftscope-flight.XXXXXX)
trap 'rm -rf $W' EXIT
MSG="perf bench sched messaging -g 10 -l 2000"

# run OUT SECS ARGS...: ftscope runqlat ARGS for SECS beside the workload, under perf stat;
# prints "task-clock-ms events"
run() {
	local out=$1 secs=$2
	shift 2
	perf stat -x, -e task-clock -o $out.stat ./ftscope runqlat -d "$secs" "$@" \
		> $out.out 2> $out.err &
	local p=$!
	sleep 0.5
	while kill -0 $p 2>/dev/null; do $MSG > /dev/null 2>&1; done
	wait $p
	echo "$(awk -F, '$3 == "task-clock" { print $1 }' $out.stat)" \
	     "$(sed -n 's/^\([0-9]*\) events processed.*/\1/p' $out.out | tail -1)"
}

echo "== a. consumer CPU per 1M events, 30 s beside: $MSG (3 alternating rounds)"
for round in 1 2 3; do
	read -r c e <<< "$(run $W/plain 30)"
	echo "plain  round $round: $c ms, $e events, $(awk -v c=$c -v e=$e 'BEGIN { printf "%.1f", c / e * 1e6 }') ms/1M"
	read -r c e <<< "$(run $W/flight 30 --flight 10 --trigger 10s -o $W/fl.dat)"
	echo "flight round $round: $c ms, $e events, $(awk -v c=$c -v e=$e 'BEGIN { printf "%.1f", c / e * 1e6 }') ms/1M"
	[ -e $W/fl.dat ] && echo "flight round $round: a file was written (the trigger fired?)"
done
read -r c e <<< "$(run $W/write 6 --flight 10 -o $W/fl.dat)"
echo "one window written at the end: $c ms in all, $e events"
read -r c e <<< "$(run $W/output 6 -o $W/o6.dat)"
echo "beside a plain -o of the run: $c ms in all, $e events"
rm -f $W/fl.dat* $W/o6.dat

echo
echo "== b. peak RSS over 12 s: runqlat, runqlat --flight 2 --flight-size 8, runqlat -o"
for how in plain flight output; do
	case $how in
	plain) args=() ;;
	flight) args=(--flight 2 --flight-size 8 -o $W/b.dat) ;;
	output) args=(-o $W/o.dat) ;;
	esac
	/usr/bin/time -f "%M" -o $W/$how.rss ./ftscope runqlat -d 12 "${args[@]}" \
		> $W/$how.out 2> $W/$how.err &
	p=$!
	sleep 0.5
	while kill -0 $p 2>/dev/null; do $MSG > /dev/null 2>&1; done
	wait $p
	echo "$how: peak RSS $(cat $W/$how.rss) KB$(grep -o 'window.*' $W/$how.err | sed 's/^/; /')"
done
ls -l $W/b.dat $W/o.dat | awk '{ print $NF ": " $5 " bytes" }'
