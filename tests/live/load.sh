#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: load without silent loss. LOAD_TIME seconds (60) of `perf bench sched
#              messaging` while runqlat and timehist trace the whole system. At the end
#              the test stops each run's instance itself and reads the kernel's own
#              per-CPU stats: every event the kernel kept (read + still buffered) must
#              be processed, and every event it dropped must be reported as lost, CPU
#              by CPU. Resident memory is sampled each second: it must stay flat
#              (it grows with tasks, at most 512 bytes each, not with events); the peak
#              is printed.
#              A second pass with a 16 KB buffer makes losses certain and checks them.
#              runqlat reads the buffers mapped (--mmap), timehist with read(): both
#              ways are held to the kernel's counts.
# requires: root, tracefs, perf (linux-perf)
. tests/live/lib.sh
plan 2
need_root load || exit 0
LOAD_TIME=${LOAD_TIME:-60}
if ! perf bench sched messaging -g 1 -l 1 > /dev/null 2>&1; then
	skip_rest "perf bench sched messaging does not run here"
	exit 0
fi

# whether this kernel maps the buffer (6.10+)
mapped=1
kernel_maps load_default_buffer || mapped=0

# kstats PID: "read entries dropped" summed over the CPUs of PID's instance, then per CPU
kstats() {
	local d cpu
	d=$(instance_of $1)
	[ -n "$d" ] || return 1
	for cpu in $d/per_cpu/cpu*; do
		awk -F: '/^read events/ { r = $2 } /^entries/ { e = $2 } /^dropped events/ { x = $2 }
			END { printf "%d %d %d\n", r, e, x }' $cpu/stats
	done
}

# rss PID: resident KB
rss() {
	awk '/^VmRSS/ { print $2 }' /proc/$1/status 2>/dev/null
}

# check NAME JSON KSTATS: events processed == kept by the kernel, lost == dropped, per CPU
check() {
	python3 - "$2" "$3" <<'PYEOF'
import sys
from pct_check import last_json
j = last_json(sys.argv[1])
k = [list(map(int, l.split())) for l in open(sys.argv[2]) if l.strip()]
kept = sum(r + e for r, e, x in k)
dropped = [x for r, e, x in k]
if j["events"] != kept:
    sys.exit("processed %d events, the kernel kept %d (read + buffered)" % (j["events"], kept))
if j["lost_per_cpu"] != dropped:
    sys.exit("reported lost %s, the kernel dropped %s" % (j["lost_per_cpu"], dropped))
print("%d events, %d lost" % (kept, sum(dropped)))
PYEOF
}

# pass_load NAME BUFKB SECONDS: one pass, its runs' exit status NAME's (ft_wait); sets $why
# (empty when it held) and $summary
pass_load() {
	local name=$1 buf=$2 secs=$3 rq th i end r0 rmid rmax s rq_rss th_rss
	local bopt=()
	[ "$buf" != default ] && bopt=(-b $buf)
	$FTSCOPE runqlat --mmap -v --json "${bopt[@]}" > $OUT/load-rq.json 2> $OUT/load-rq.err & rq=$!
	$FTSCOPE timehist -s --json "${bopt[@]}" > $OUT/load-th.json 2> $OUT/load-th.err & th=$!
	wait_for 10 our_instance $rq && wait_for 10 our_instance $th
	end=$((SECONDS + secs))
	( while [ $SECONDS -lt $end ]; do perf bench sched messaging -g 10 -l 200 > /dev/null 2>&1; done ) &
	load=$!
	rq_rss=() th_rss=()
	while [ $SECONDS -lt $end ]; do
		rq_rss+=($(rss $rq)) th_rss+=($(rss $th))
		sleep 1		# the sampling period, not a synchronisation
	done
	wait $load
	echo "# resident KB each second, runqlat: ${rq_rss[*]}"
	echo "# resident KB each second, timehist: ${th_rss[*]}"
	# stop both instances, then read what the kernel kept and dropped
	for i in $rq $th; do
		echo 0 > $(instance_of $i)/tracing_on
	done
	kstats $rq > $OUT/load-rq.k
	kstats $th > $OUT/load-th.k
	kill -INT $rq $th
	ft_wait $name 0 $rq; r0=$?
	ft_wait $name 0 $th; s=$?
	why= summary=
	if [ $r0 -ne 0 ] || [ $s -ne 0 ]; then
		why="exit $r0/$s: $(tail -qn1 $OUT/load-rq.err $OUT/load-th.err | tr '\n' ' ')"
		return
	fi
	# on 6.10+ runqlat must have read the mapped buffers (-v says how)
	if [ $mapped = 1 ] && ! grep -q 'read by mmap of the ring buffer' $OUT/load-rq.err; then
		why="runqlat --mmap did not map: $(head -2 $OUT/load-rq.err | tr '\n' ' ')"
		return
	fi
	r=$(check runqlat $OUT/load-rq.json $OUT/load-rq.k) || { why="runqlat: $r"; return; }
	summary="runqlat $r"
	r=$(check timehist $OUT/load-th.json $OUT/load-th.k) || { why="timehist: $r"; return; }
	summary="$summary; timehist $r"
	# flat: the last third no higher than the first third's peak + 10% + 2 MB, plus
	# 512 bytes per task seen (timehist -s keeps every task's totals for its summary,
	# as perf's does: about 230 bytes each measured here); a leak of even 8 bytes per
	# event would pass that by megabytes
	ntasks=$(json "len(j['tasks'])" $OUT/load-th.json)
	summary="$summary; $ntasks tasks"
	for v in rq th; do
		eval "set -- \${${v}_rss[@]}"
		n=$#
		rmid=0 rmax=0 i=0
		for s in "$@"; do
			i=$((i + 1))
			[ $s -gt $rmax ] && rmax=$s
			[ $i -le $((n / 3)) ] && [ $s -gt $rmid ] && rmid=$s
		done
		[ $rmax -gt $((rmid * 11 / 10 + 2048 + ntasks / 2)) ] &&
			why="$v resident memory grew from $rmid KB to $rmax KB"
		summary="$summary; $v peak RSS $((rmax / 1024)) MB"
	done
}

pass_load load_default_buffer default $LOAD_TIME
if [ -z "$why" ]; then
	pass "load_default_buffer ($summary)"
else
	fail load_default_buffer "$why"
fi

# A buffer too small for the load: the losses happen, and each one is counted.
pass_load load_small_buffer 16 $((LOAD_TIME / 6 + 2))
if [ -n "$why" ]; then
	fail load_small_buffer "$why"
elif [ "$(awk '{ x += $3 } END { print x + 0 }' $OUT/load-rq.k)" -eq 0 ]; then
	skip load_small_buffer "no event was dropped even with 16 KB per CPU ($summary)"
else
	pass "load_small_buffer ($summary)"
fi
