#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# profile_bench.sh - bench.sh section 5 (runs alone too): the cost of sampling at
# 999 Hz on every CPU, `ftscope profile -F 999 -a -f -d 10` vs
# `perf record -F 999 -a -g -o F -- sleep 10`, while a CPU-bound program (burn2, one
# per CPU) runs. Each round: the workload alone, then with ftscope, then with perf,
# each profiler its own 10 s over the same workload. Per profiler:
#  - its CPU time (user + sys of the whole process, /usr/bin/time) per 1000 samples;
#  - the samples it lost (ftscope's footer; perf's PERF_RECORD_LOST count);
#  - the workload's slowdown: its work rate (burn2's burn_a rounds per CPU second are
#    fixed, so wall seconds per run at fixed CPU work) against the run alone.
# perf's answer (the same folded stacks) costs `perf script` more: reported apart.
# Target (issue 22): ftscope at most half of perf's CPU per sample, no lost samples.

cd "$(dirname "$0")/../.." || exit 1
[ "$(id -u)" -eq 0 ] || { echo "profile_bench.sh: needs root" >&2; exit 1; }
W=$(mktemp -d /tmp/ftscope-pbench.XXXXXX)
trap 'rm -rf $W' EXIT
NCPU=$(nproc)
ROUNDS=${ROUNDS:-3}

# work SECS OUT: one burner per CPU, each SECS s of its own CPU time; each prints its
# work done (burn2's rounds) and /usr/bin/time its wall time, into OUT.N
work() {
	local i pids=()
	for ((i = 0; i < NCPU; i++)); do
		/usr/bin/time -f "wall %e" -o $2.$i.time tests/workloads/burn2 $(($1 * 1000)) 0 \
			2> $2.$i &
		pids+=($!)
	done
	wait "${pids[@]}"
}

# rate OUT: the work rate, rounds per wall second summed over the burners (the time a
# profiler takes, in the sampling interrupt or on the CPU beside them, lowers it)
rate() {
	local i
	for ((i = 0; i < NCPU; i++)); do
		cat $1.$i $1.$i.time
	done | awk '/^burn2/ { for (i = 2; i <= NF; i++) if ($i ~ /^rounds=/) n = substr($i, 8) }
		    /^wall/ { r += n / $2 } END { print r }'
}

has_profile=1
./ftscope help profile > /dev/null 2>&1 || has_profile=
echo "== 5. sampling at 999 Hz on $NCPU CPUs, 10 s, while burn2 runs on each CPU ($ROUNDS rounds)"
for ((r = 1; r <= ROUNDS; r++)); do
	work 8 $W/alone.$r
	if [ -n "$has_profile" ]; then
		/usr/bin/time -f "cpu %U %S" -o $W/ft.time.$r \
			./ftscope profile -F 999 -a -f -d 10 > $W/ft.folded.$r 2> $W/ft.err.$r &
		fp=$!
		until grep -q Tracing $W/ft.err.$r 2>/dev/null; do sleep 0.05; done
		work 8 $W/ft.wl.$r
		wait $fp
	fi
	/usr/bin/time -f "cpu %U %S" -o $W/perf.time.$r \
		perf record -F 999 -a -g -o $W/perf.data.$r -- sleep 10 > /dev/null 2> $W/perf.err.$r &
	pp=$!
	until [ "$(stat -c %s $W/perf.data.$r 2>/dev/null || echo 0)" -gt 4096 ]; do sleep 0.05; done
	work 8 $W/perf.wl.$r
	wait $pp
	/usr/bin/time -f "cpu %U %S" -o $W/script.time.$r \
		perf script -i $W/perf.data.$r > /dev/null 2>&1
	/usr/bin/time -f "cpu %U %S" -o $W/report.time.$r \
		perf report -i $W/perf.data.$r --stdio --no-children > /dev/null 2>&1
	perf report -i $W/perf.data.$r --stats 2>/dev/null > $W/perf.stats.$r
done

# cpu FILE: user + sys seconds from /usr/bin/time's "cpu U S" line
cpu() { awk '/^cpu/ { print $2 + $3 }' $1; }
for ((r = 1; r <= ROUNDS; r++)); do
	alone=$(rate $W/alone.$r)
	ps=$(awk '/SAMPLE events:/ { print $3; exit }' $W/perf.stats.$r)
	pl=$(awk '/LOST events:/ { print $3; exit }' $W/perf.stats.$r)
	pl=${pl:-0}
	awk -v r=$r -v a="$alone" -v w="$(rate $W/perf.wl.$r)" -v c="$(cpu $W/perf.time.$r)" \
	    -v n="$ps" -v l="$pl" -v s="$(cpu $W/script.time.$r)" -v rp="$(cpu $W/report.time.$r)" 'BEGIN {
		printf "  round %d perf record -g:    %6d samples, %d lost, %.3f s CPU: %.1f ms per 1000 samples; workload %+.1f%%\n",
		       r, n, l, c, c / n * 1e6, (w / a - 1) * 100;
		printf "          then perf script %.3f s, perf report %.3f s CPU: %.1f / %.1f ms per 1000 samples\n",
		       s, rp, s / n * 1e6, rp / n * 1e6 }'
	if [ -n "$has_profile" ]; then
		# the footer: "N samples ..., N lost" (the sampler's losses and throttling)
		fs=$(awk '{ s += $NF } END { print s }' $W/ft.folded.$r)
		fl=$(grep -o '[0-9]* lost' $W/ft.err.$r | awk '{ s += $1 } END { print s + 0 }')
		awk -v r=$r -v a="$alone" -v w="$(rate $W/ft.wl.$r)" -v c="$(cpu $W/ft.time.$r)" \
		    -v n="$fs" -v l="$fl" -v pc="$(cpu $W/perf.time.$r)" -v pn="$ps" 'BEGIN {
			printf "          ftscope profile -f: %6d samples, %d lost, %.3f s CPU: %.1f ms per 1000 samples; workload %+.1f%%\n",
			       n, l, c, c / n * 1e6, (w / a - 1) * 100;
			printf "          ftscope / perf record CPU per sample: %.2f (target <= 0.5)\n", (c / n) / (pc / pn) }'
	fi
done
[ -n "$has_profile" ] || echo "  (ftscope has no profile command yet: its half did not run)"
