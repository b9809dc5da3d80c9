#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# flame_mem.sh - peak memory and CPU time of `ftscope flamegraph -f` on perf script
# output of 20 MB and 200 MB (tests/bench/perf_script_gen.py: the same 300 callchains,
# repeated), beside stackcollapse-perf.pl or inferno-collapse-perf on the same files
# when one is installed (measured in the same run; none is downloaded). Offline: no
# root, no tracing; bench.sh runs it as its section 4, and it runs alone too.
#
# Targets (issue 20): the peak RSS on the 200 MB input is at most 5% of the input,
# and at most 1.5x the peak on the 20 MB input: memory follows the distinct stacks,
# not the input. Printed as met or not met: a benchmark, not a test.

cd "$(dirname "$0")/../.." || exit 1
FTSCOPE=${FTSCOPE:-./ftscope}
[ -x /usr/bin/time ] || { echo "flame_mem.sh: needs GNU time (/usr/bin/time)" >&2; exit 1; }
W=$(mktemp -d /tmp/ftscope-flame.XXXXXX)
trap 'rm -rf $W' EXIT

# peak CMD...: "PEAK_KB CPU_S" of the run (the least CPU of 3; the peak is the same each time)
peak() {
	local i
	for i in 1 2 3; do
		/usr/bin/time -f '%M %U %S' "$@" 2>&1 > /dev/null | tail -1
	done | awk '{ c = $2 + $3; if (NR == 1 || c < cpu) cpu = c; kb = $1 }
		    END { printf "%d %.2f\n", kb, cpu }'
}

# row NAME MB PEAK_KB CPU_S: one line of the table
row() {
	awk -v n="$1" -v mb="$2" -v kb="$3" -v s="$4" 'BEGIN {
		printf "  %-26s %4d MB in: peak RSS %8.1f MB (%6.3fx the input), %5.2f s CPU (%4.0f MB/s)\n",
		       n, mb, kb / 1024, kb / 1024 / (mb * 1e6 / 1048576), s, mb / (s > 0 ? s : 0.01) }'
}

peers=()
for p in stackcollapse-perf.pl inferno-collapse-perf; do
	command -v $p > /dev/null && peers+=($p)
done
for mb in 20 200; do
	python3 tests/bench/perf_script_gen.py --mb $mb > $W/p$mb.perf
	read -r kb s < <(peak $FTSCOPE flamegraph -f $W/p$mb.perf)
	row "ftscope flamegraph -f" $mb $kb $s
	eval "ft_kb_$mb=$kb"
	for p in "${peers[@]}"; do
		read -r kb s < <(peak $p $W/p$mb.perf)
		row "$p" $mb $kb $s
	done
	rm -f $W/p$mb.perf
done
[ ${#peers[@]} -eq 0 ] && echo "  (no peer installed: stackcollapse-perf.pl, inferno-collapse-perf)"
awk -v a="$ft_kb_20" -v b="$ft_kb_200" 'BEGIN {
	r = b / 1024 / (200e6 / 1048576);
	printf "  target: peak at most 5%% of the 200 MB input: %.2f%%, %s\n", r * 100,
	       r <= 0.05 ? "met" : "NOT met";
	printf "  target: 200 MB peak at most 1.5x the 20 MB peak: %.2fx, %s\n", b / a,
	       b / a <= 1.5 ? "met" : "NOT met" }'
