#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh - ftscope against its peers, measured in the same run (not a test):
#  1. offline: events/s of `ftscope runqlat -i` vs tracefs_iterate_raw_events on the
#     same recorded pages; events/s of `ftscope timehist -i` vs `perf sched timehist -i`
#     (recordings of the same workload window) and vs `trace-cmd report` (same file),
#     per event and per row, beside the floor: only mapping the file and reading it;
#  2. live (tests/bench/live_bench.sh, which runs alone too): consumer CPU per million
#     events and system calls per 1000, ftscope runqlat with read() and with --mmap vs
#     perf sched record -a, three alternating rounds; a 1 s run's idle cost; events lost
#     at the default buffer size as the load grows, ftscope and perf at once;
#  3. what tracing costs the traced workload: `perf bench sched pipe` usec/op with
#     nothing, the kernel's writes alone (an instance nobody reads), ftscope runqlat,
#     perf sched record -a, and a bpftrace runqlat, in alternating rounds
#     (tests/bench/slowdown_bench.sh, which runs alone too).
#  4. offline: peak memory of `ftscope flamegraph` on 20 and 200 MB of perf script
#     output, as a ratio to the input and beside a stackcollapse-perf peer when one
#     is installed (tests/bench/flame_mem.sh, which runs alone too).
#  5. live: profiler CPU per 1000 samples, lost samples and the slowdown of a CPU-bound
#     workload, ftscope profile -F 999 -a vs perf record -F 999 -a -g
#     (tests/bench/profile_bench.sh, which runs alone too).
#  6-8. whole user stacks by call frame information (--call-graph dwarf): ftscope profile
#     against perf record --call-graph dwarf + perf report, offcpu's cost to a traced
#     command against perf's, the unwinder per frame beside libdw's
#     (tests/bench/unwind_bench.sh, which runs alone too).
#  9. the flight recorder: live CPU with --flight and a trigger that never fires against
#     the same analyzer without it, one window's writing, its memory against its bound
#     (tests/bench/flight_bench.sh, which runs alone too).

cd "$(dirname "$0")/../.." || exit 1
[ "$(id -u)" -eq 0 ] || { echo "bench.sh: needs root" >&2; exit 1; }
W=$(mktemp -d /tmp/ftscope-bench.XXXXXX)
trap 'rm -rf $W' EXIT
MSG="perf bench sched messaging -g 20 -l 2000"

echo "== 1. offline decode, same pages"
./ftscope record -b 65536 -o $W/cap.dat -- $MSG > $W/cap.log 2>&1
tests/bench/decode_bench $W/cap.dat

echo
echo "== 1b. offline timehist, one workload window recorded by both: $MSG"
TIMEFORMAT='%U %S'
perf sched record -a -o $W/win.perf > /dev/null 2>&1 & pp=$!
./ftscope record -b 65536 -o $W/win.dat > $W/win.log 2>&1 & fp=$!
until ls /sys/kernel/tracing/instances | grep -q "^ftscope-$fp-"; do
	kill -0 $fp 2>/dev/null || { cat $W/win.log >&2; kill -INT $pp; exit 1; }
	sleep 0.05
done
sleep 1	# perf has no ready signal; give it time to set up its ring buffers
$MSG > /dev/null 2>&1
kill -INT $fp $pp; wait $fp $pp
# cpu_of N CMD...: user+sys seconds of one run, the mean of N, output discarded (one
# ftscope run over a million events takes a few hundredths of a second: time's
# millisecond figures need several)
cpu_of() {
	local n=$1 i
	shift
	{ time for ((i = 0; i < n; i++)); do "$@" > /dev/null 2>&1; done; } 2>&1 |
		awk -v n=$n '{print ($1 + $2) / n}'
}
ft_ev=$(sed -n 's/^\([0-9]*\) events (.*written.*/\1/p' $W/win.log)
perf_ev=$(perf report -i $W/win.perf --stats 2>/dev/null | awk '/SAMPLE events:/ {print $3; exit}')
# three rounds, each tool in each round, so that this VM's drift in speed (up to 2x
# between minutes) falls on all of them alike; the floor is mapping ftscope's file and
# loading each cache line, timed the same way
# add_round VAR N CMD...: add a third of cpu_of N CMD (one round's share) to $VAR
add_round() {
	local var=$1
	shift
	printf -v "$var" %s "$(echo "${!var} $(cpu_of "$@")" | awk '{print $1 + $2 / 3}')"
}
ft_s=0 fs_s=0 perf_s=0 touch_s=0
for round in 1 2 3; do
	add_round ft_s 7 ./ftscope timehist -i $W/win.dat
	add_round fs_s 7 ./ftscope timehist -s -i $W/win.dat
	add_round perf_s 1 perf sched timehist -i $W/win.perf
	add_round touch_s 7 tests/bench/touch_pages $W/win.dat
done
tc_s=$(cpu_of 1 trace-cmd report -i $W/win.dat)
# rows: both print one per switch (perf's file also holds sched_stat_runtime records)
ft_rows=$(./ftscope timehist -i $W/win.dat 2>/dev/null | grep -c '^ *[0-9]*\.[0-9]* \[')
perf_rows=$(perf sched timehist -i $W/win.perf 2>/dev/null | grep -c '^ *[0-9]*\.[0-9]* \[')
awk -v fe="$ft_ev" -v pe="$perf_ev" -v fs="$ft_s" -v ps="$perf_s" -v ts="$tc_s" -v ss="$fs_s" \
    -v th="$touch_s" -v fr="$ft_rows" -v pr="$perf_rows" 'BEGIN {
	f = fe / fs; p = pe / ps; t = fe / ts; s = fe / ss; need = fe / (30 * p);
	printf "  ftscope timehist -i:      %9d events, %7.3f s CPU: %8.2f M events/s (mean of 21 runs)\n", fe, fs, f / 1e6;
	printf "  ftscope timehist -s -i:   %9s         %7.3f s CPU: %8.2f M events/s (no rows: the summary)\n", "", ss, s / 1e6;
	printf "  perf sched timehist -i:   %9d events, %7.3f s CPU: %8.2f M events/s (mean of 3)\n", pe, ps, p / 1e6;
	printf "  trace-cmd report (same file): %5s        %7.3f s CPU: %8.2f M events/s\n", "", ts, t / 1e6;
	printf "  per event: ftscope is %.1fx perf sched timehist, %.1fx trace-cmd report\n", f / p, f / t;
	printf "  per switch row (%d and %d rows): ftscope is %.1fx perf sched timehist\n", fr, pr,
	       (fr / fs) / (pr / ps);
	printf "  only mapping ftscope'"'"'s file, a load per cache line: %.3f s CPU (mean of 21);\n", th;
	printf "  30x perf per event needs the whole run in %.3f s: the read alone is %.0f%% of it\n",
	       need, th / need * 100 }'

echo
echo "== 2. live (tests/bench/live_bench.sh)"
tests/bench/live_bench.sh

echo
tests/bench/slowdown_bench.sh

echo
echo "== 4. flamegraph memory on perf script output (tests/bench/flame_mem.sh)"
tests/bench/flame_mem.sh

echo
tests/bench/profile_bench.sh

echo
tests/bench/unwind_bench.sh

echo
echo "== 9. the flight recorder (tests/bench/flight_bench.sh)"
tests/bench/flight_bench.sh
