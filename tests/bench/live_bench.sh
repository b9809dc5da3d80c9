#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# live_bench.sh - the live reader against perf, measured in the same run (not a test;
# issue 24, docs/live.md). Runs alone too (as root):
#  a. consumer CPU per 1M events: ftscope runqlat (read()), ftscope runqlat --mmap,
#     perf sched record -a, and perf record -a of the three events runqlat reads (the
#     same events as ftscope), each for 8 s around the same workload, three rounds that
#     alternate the tools (this VM's speed drifts between minutes); whole-process
#     task-clock from start to exit, and system calls per 1000 events, from perf stat;
#  b. the idle cost of a 1 s run (mean of 10);
#  c. the highest event rate with no loss at the default buffer size: ftscope runqlat,
#     ftscope runqlat --realtime 10 and perf sched record -a at the same time over perf
#     bench sched messaging with growing group counts.

cd "$(dirname "$0")/../.." || exit 1
[ "$(id -u)" -eq 0 ] || { echo "live_bench.sh: needs root" >&2; exit 1; }
W=$(mktemp -d /tmp/ftscope-live.XXXXXX)
trap 'rm -rf $W' EXIT
MSG="perf bench sched messaging -g 20 -l 800"

# stat_run OUT CMD...: CMD under perf stat (task-clock, system calls); OUT.stat holds them
stat_run() {
	local out=$1
	shift
	perf stat -x, -e task-clock,raw_syscalls:sys_enter -o $out.stat "$@" > $out.out 2> $out.err
}

# field FILE EVENT: the value perf stat -x, gave EVENT
field() {
	awk -F, -v e="$2" '$3 == e { print $1 }' "$1"
}

echo "== a. live consumer CPU per 1M events, 8 s beside: $MSG (3 alternating rounds)"
declare -A cpu ev sc
for round in 1 2 3; do
	for tool in read mmap perf perf3; do
		case $tool in
		read) stat_run $W/$tool ./ftscope runqlat -d 8 & ;;
		mmap) stat_run $W/$tool ./ftscope runqlat --mmap -d 8 & ;;
		perf) stat_run $W/$tool perf sched record -a -o $W/perf.data -- sleep 8 & ;;
		perf3) stat_run $W/$tool perf record -a -e sched:sched_switch -e sched:sched_wakeup \
			-e sched:sched_wakeup_new -o $W/perf.data -- sleep 8 & ;;
		esac
		p=$!
		sleep 0.5	# both set up in well under this (perf has no ready signal)
		$MSG > /dev/null 2>&1
		wait $p
		if [ $tool != read ] && [ $tool != mmap ]; then
			n=$(perf report -i $W/perf.data --stats 2>/dev/null |
			    awk '/SAMPLE events:/ { print $3; exit }')
		else
			n=$(sed -n 's/^\([0-9]*\) events processed.*/\1/p' $W/$tool.out)
		fi
		cpu[$tool]=$(echo "${cpu[$tool]:-0} $(field $W/$tool.stat task-clock)" | awk '{ print $1 + $2 }')
		sc[$tool]=$(( ${sc[$tool]:-0} + $(field $W/$tool.stat raw_syscalls:sys_enter) ))
		ev[$tool]=$(( ${ev[$tool]:-0} + n ))
	done
done
declare -A label=([read]="ftscope runqlat:" [mmap]="ftscope runqlat --mmap:"
		 [perf]="perf sched record -a:" [perf3]="perf record -a, runqlat's 3 events:")
for tool in read mmap perf perf3; do
	awk -v t="${label[$tool]}" -v c=${cpu[$tool]} -v e=${ev[$tool]} -v s=${sc[$tool]} 'BEGIN {
		printf "  %-36s %9d events, %8.1f ms CPU: %.3f s per 1M events, %6.1f syscalls per 1000\n",
		       t, e, c, c / 1e3 / (e / 1e6), s / e * 1000 }'
done
awk -v fr=${cpu[read]} -v er=${ev[read]} -v fm=${cpu[mmap]} -v em=${ev[mmap]} \
    -v pc=${cpu[perf]} -v pe=${ev[perf]} -v qc=${cpu[perf3]} -v qe=${ev[perf3]} 'BEGIN {
	f = fr / er; m = fm / em; p = pc / pe; q = qc / qe;
	printf "  perf sched record / ftscope, CPU per event: %.1fx (read()), %.1fx (--mmap)\n", p / f, p / m;
	printf "  perf record of the same 3 events / ftscope, CPU per event: %.1fx (read()), %.1fx (--mmap)\n",
	       q / f, q / m;
	printf "  the same 8 s windows, whole CPU: perf sched record %.1fx ftscope, perf record -e %.1fx\n",
	       pc / fr, qc / fr }'

echo
echo "== b. idle: a 1 s run's task-clock (perf stat -r 10)"
for args in "./ftscope runqlat -d 1" "./ftscope runqlat --mmap -d 1" \
	    "perf sched record -a -o $W/idle.data -- sleep 1"; do
	ms=$(perf stat -r 10 -x, -e task-clock $args 2>&1 > /dev/null | awk -F, '$3 == "task-clock" { print $1 }')
	printf "  %-48s %6.2f ms\n" "${args/$W\//}" "$ms"
done

echo
echo "== c. events lost at the default buffer size: ftscope runqlat, ftscope runqlat --realtime 10"
echo "   and perf sched record -a at once over perf bench sched messaging -g G -l 300"
for g in 10 20 40 80; do
	./ftscope runqlat > $W/lad.out 2>&1 & fp=$!
	./ftscope runqlat --realtime 10 > $W/lad-rt.out 2>&1 & rp=$!
	perf sched record -a -o $W/lad.data > /dev/null 2>&1 & pp=$!
	for i in $(seq 200); do		# 10 s at most: a run that failed has no instance
		ls /sys/kernel/tracing/instances | grep -q "^ftscope-$fp-" &&
			ls /sys/kernel/tracing/instances | grep -q "^ftscope-$rp-" && break
		sleep 0.05
	done
	sleep 1
	t0=$(date +%s.%N)
	perf bench sched messaging -g $g -l 300 > /dev/null 2>&1
	t1=$(date +%s.%N)
	kill -INT $fp $rp $pp
	wait $fp $rp $pp
	fe=$(sed -n 's/^\([0-9]*\) events processed.*/\1/p' $W/lad.out)
	fl=$(sed -n 's/^[0-9]* events processed, \([0-9]*\) lost.*/\1/p' $W/lad.out)
	rl=$(sed -n 's/^[0-9]* events processed, \([0-9]*\) lost.*/\1/p' $W/lad-rt.out)
	pl=$(perf report -i $W/lad.data --stats 2>/dev/null |
	     awk '/LOST_SAMPLES events:/ { n += $3 } END { print n + 0 }')
	awk -v g=$g -v e=$fe -v t0=$t0 -v t1=$t1 -v fl=$fl -v rl=$rl -v pl=$pl 'BEGIN {
		printf "  -g %-3d %8d events in %5.1f s (%6.0f/s): lost: ftscope %d, --realtime %d, perf %d samples\n",
		       g, e, t1 - t0, e / (t1 - t0), fl, rl, pl }'
done
