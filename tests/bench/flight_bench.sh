#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# flight_bench.sh - what the flight recorder costs (issue 39; docs/record.md), measured
# in the same run (not a test). Runs alone too (as root):
#  a. consumer CPU: ftscope runqlat, and ftscope runqlat --flight 10 --trigger 10s -o
#     FILE (a trigger that never fires: the cost of keeping the pages, a copy of each
#     and, once, the kernel's zeroing of the 12 s of pages the rings keep), both at once
#     beside the same workload (the same events for both: alternating runs differed by
#     up to 12% in their events, more than the cost measured), which starts first
#     alternating; 2 rounds of 20 s and 2 of 60 s. Printed: each 60 s run's ratio (the
#     fill included: target at most 1.15), and the steady state's, the CPU a run's
#     last 40 s added (60 s runs less 20 s ones, per event: target at most 1.10;
#     docs/record.md); then the cost of writing one window (no trigger: the last 10 s
#     at the end), whose metadata (/proc/kallsyms, the formats) a plain -o writes too;
#  b. memory: the peak RSS of runqlat --flight 2 with --flight-size 8 over 12 s of the
#     workload, beside runqlat alone: the rings stay within their bound (8 MB), and
#     the window's file against a plain -o of the same run.

cd "$(dirname "$0")/../.." || exit 1
[ "$(id -u)" -eq 0 ] || { echo "flight_bench.sh: needs root" >&2; exit 1; }
W=$(mktemp -d /tmp/ftscope-flight.XXXXXX)
trap 'rm -rf $W' EXIT
MSG="perf bench sched messaging -g 10 -l 2000"

# start OUT SECS ARGS...: ftscope runqlat ARGS for SECS under perf stat, in the background
start() {
	local out=$1 secs=$2
	shift 2
	perf stat -x, -e task-clock -o $out.stat ./ftscope runqlat -d "$secs" "$@" \
		> $out.out 2> $out.err &
}

# result OUT: "task-clock-ms events" of a run start began
result() {
	echo "$(awk -F, '$3 == "task-clock" { print $1 }' $1.stat)" \
	     "$(sed -n 's/^\([0-9]*\) events processed.*/\1/p' $1.out | tail -1)"
}

# run OUT SECS ARGS...: one run beside the workload; prints "task-clock-ms events"
run() {
	start "$@"
	local p=$!
	sleep 0.5
	while kill -0 $p 2>/dev/null; do $MSG > /dev/null 2>&1; done
	wait $p
	result $1
}

# pair SECS FIRST: runqlat and runqlat --flight at once (FIRST started first) beside the
# workload; prints "plain-ms plain-events flight-ms flight-events"
pair() {
	local how p=()

	for how in $2 $([ $2 = plain ] && echo flight || echo plain); do
		if [ $how = plain ]; then
			start $W/plain "$1"
		else
			start $W/flight "$1" --flight 10 --trigger 10s -o $W/fl.dat
		fi
		p+=($!)
	done
	sleep 0.5
	while kill -0 ${p[0]} 2>/dev/null || kill -0 ${p[1]} 2>/dev/null; do
		$MSG > /dev/null 2>&1
	done
	wait "${p[@]}"
	echo "$(result $W/plain) $(result $W/flight)"
}

echo "== a. consumer CPU, runqlat and runqlat --flight at once beside: $MSG"
: > $W/a.txt
for secs in 20 60; do
	for first in plain flight; do
		read -r pc pe fc fe <<< "$(pair $secs $first)"
		echo "$secs $pc $pe $fc $fe" >> $W/a.txt
		echo "$secs s, $first first: plain $pc ms, $pe events; flight $fc ms, $fe" \
		     "events: $(awk -v a=$pc -v b=$pe -v c=$fc -v d=$fe \
				'BEGIN { printf "%.3f", c / d / (a / b) }') a event"
		[ -e $W/fl.dat ] && echo "a file was written (the trigger fired?)"
	done
done
awk '$1 == 20 { n20++; pc20 += $2; pe20 += $3; fc20 += $4; fe20 += $5 }
     $1 == 60 { n60++; pc60 += $2; pe60 += $3; fc60 += $4; fe60 += $5
		r = $4 / $5 / ($2 / $3); w = r > w ? r : w }
     END { fs = (fc60 / n60 - fc20 / n20) / (fe60 / n60 - fe20 / n20)
	   ps = (pc60 / n60 - pc20 / n20) / (pe60 / n60 - pe20 / n20)
	   s = fs / ps
	   f = "60 s runs: at most %.3f a event (target at most 1.15: %s); "
	   f = f "steady state (the last 40 s): %.3f (target at most 1.10: %s)\n"
	   printf f, w, w <= 1.15 ? "met" : "not met", s, s <= 1.10 ? "met" : "not met" }' $W/a.txt
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
