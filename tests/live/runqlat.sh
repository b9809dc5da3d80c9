#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: runqlat on workloads with known answers; live run equals the analysis
#              of its own capture; interval output; per-process filter.
# requires: root, tracefs, sched events
. tests/live/lib.sh
plan 10
need_root runqlat || exit 0

# Three CPU-bound threads on one CPU: each waits about two slices, >= 1 ms.
name=runqlat_three_spinners_wait_ms
if ft $name 0 runqlat -m --json -- $WL/spin3 0 2 > $OUT/spin3.json 2> $OUT/spin3.err; then
	n=$(json 'j["total"]["count"]' $OUT/spin3.json)
	p90=$(json 'j["total"]["p90_ns"]' $OUT/spin3.json)
	if [ "$n" -ge 20 ] && [ "$p90" -ge 1000000 ]; then
		pass $name
	else
		fail $name "expected >= 20 waits with p90 >= 1 ms, got count=$n p90=${p90}ns"
	fi
else
	fail $name "exit $? ($(head -1 $OUT/spin3.err))"
fi

# The same, as BCC's text layout in msecs with our summary line.
name=runqlat_text_layout
ft $name 0 runqlat -m -- $WL/spin3 0 1 > $OUT/spin3.txt 2>/dev/null
if grep -q '^     msecs               : count     distribution$' $OUT/spin3.txt &&
   grep -Eq '^ +[0-9]+ -> [0-9]+ +: [0-9]+ +\|\**\ *\|$' $OUT/spin3.txt &&
   grep -Eq '^count [0-9]+, avg .* ms, p50 .* ms, p90 .* ms, p99 .* ms, max .* ms$' $OUT/spin3.txt &&
   grep -Eq '^[0-9]+ events processed, [0-9]+ lost' $OUT/spin3.txt; then
	pass $name
else
	fail $name "unexpected layout: $(head -3 $OUT/spin3.txt | tr '\n' '|')"
fi

# Record and analyze at once; the capture analyzed later gives the same numbers.
name=runqlat_live_equals_capture
rm -rf $OUT/cap
ft $name 0 runqlat -L --json -o $OUT/cap.dat -- $WL/sleeper 0 30 2 > $OUT/live.json 2>/dev/null &&
ft $name 0 runqlat -L --json -i $OUT/cap.dat > $OUT/offline.json 2>/dev/null
if python3 - $OUT/live.json $OUT/offline.json <<'PY'
import json, sys
a, b = (json.loads(open(f).read()) for f in sys.argv[1:3])
keys = ("total", "groups", "events", "lost", "switch_ins_reconstructed")
sys.exit(0 if all(a[k] == b[k] for k in keys) and a["total"]["count"] >= 30 else 1)
PY
then
	pass $name
else
	fail $name "live and offline reports differ (see $OUT/live.json $OUT/offline.json)"
fi

# Interval output: count reports, each with a timestamp and a footer, then the run's total.
name=runqlat_interval_count
ft $name 0 runqlat -T 0.3 3 > $OUT/interval.txt 2>/dev/null
reports=$(grep -Ec '^[0-9]+ events processed' $OUT/interval.txt)
stamps=$(grep -Ec '^[0-9]{2}:[0-9]{2}:[0-9]{2}$' $OUT/interval.txt)
totals=$(grep -Ec '^total: [0-9]+ events processed' $OUT/interval.txt)
if [ "$reports" -eq 3 ] && [ "$stamps" -eq 3 ] && [ "$totals" -eq 1 ]; then
	pass $name
else
	fail $name "want 3 timestamped reports and a total: $reports, $stamps, $totals"
fi

# The last of count intervals holds what the final drain read. edge naps 100 us from 8 ms
# before the end of the second interval to 8 ms after it (tracing stops 20 ms after it:
# the commit lag); its wakeups there are its naps and the end of its long sleep, and
# wakeup counts wakeups only (runqlat adds preemptions, which other load can add).
# The last report must count exactly the times edge slept from its long sleep on, its
# own count of voluntary switches: the naps + 1 unless a nap's timer fired while the host
# held the vCPU and it came back without sleeping (104 counted of 104 naps once, beside
# the host's steal) (before the fix: only those before the end, about half); the first
# holds the command's start (1 or 2 wakeups, measured).
# SCHED_FIFO (ftscope, and the command it forks) keeps the naps at the edge under load:
# at load average 150 a normal edge overslept its first sleep by the whole 16 ms.
name=interval_count_last_drain
cpu=$(( $(nproc) > 1 ? 1 : 0 ))
FT_WITH="chrt -f 20" ft $name 0 wakeup --json 0.5 2 -- $WL/edge $cpu 1 8 > $OUT/edge.json \
	2> $OUT/edge.err
naps=$(sed -n 's/^naps //p' $OUT/edge.json)
slept=$(sed -n 's/^slept //p' $OUT/edge.json)
# A wakeup whose rebuilt switch-in came with no evidence of its time before tracing
# stopped (CPU 1 records no switch out of idle) is "unmeasured", not lost: it counts
# here, at most one (a fresh-check once: 127 measured of 128, the last unmeasured)
got=$(grep '^{' $OUT/edge.json | python3 -c '
import json, sys
print(" ".join("%d+%d" % (json.loads(l)["total"]["count"], json.loads(l).get("unmeasured", 0))
               for l in sys.stdin))')
last=${got##* }
if [ -n "$slept" ] && [ "$(echo $got | wc -w)" -eq 2 ] && [ "${last#*+}" -le 1 ] &&
   [ $((last)) -eq $slept ] && [ $slept -le $((naps + 1)) ]; then
	pass $name
else
	fail $name "naps $naps, slept $slept; intervals counted (+unmeasured): $got (want 2, the last as the times it slept)"
fi
echo "# naps $naps, slept $slept; intervals counted (+unmeasured): $got"

# -p PID -P: only that process's threads, grouped by process.
name=runqlat_pid_filter
$WL/spin3 1 3 &
spin=$!
# three spinners and the main thread
wait_for 5 has_threads $spin 4
ft $name 0 runqlat -P -p $spin -d 1 --json > $OUT/pid.json 2>/dev/null
kill $spin 2>/dev/null
wait $spin 2>/dev/null
groups=$(json '" ".join(str(g["pid"]) for g in j["groups"])' $OUT/pid.json)
if [ "$groups" = "$spin" ]; then
	pass $name
else
	fail $name "expected one group for pid $spin, got '$groups'"
fi

# A thread is named by its latest name (libbpf-tools' runqlat takes next->comm at each
# switch-in): the command's shell waits for a sleep (a latency as sh), then execs cat,
# whose exit switch-out names the thread cat. Its own pid ($$) tells which group is it.
# (The code before the pipeline named tasks gave sh, from before the exec.)
name=runqlat_latest_name
rm -f $OUT/exec.pid
if ft $name 0 runqlat -L --json -- sh -c "echo \$\$ > $OUT/exec.pid; sleep 0.05; exec cat /dev/null" \
	> $OUT/exec.json 2> $OUT/exec.err; then
	got=$(json "[(g['tid'], g['comm']) for g in j['groups'] if g['tid'] == $(cat $OUT/exec.pid)]" \
		$OUT/exec.json 2>&1)
	if [ "$got" = "[($(cat $OUT/exec.pid), 'cat')]" ]; then
		pass "$name (the command's thread: $got)"
	else
		fail $name "want the command's thread $(cat $OUT/exec.pid) named cat, got $got"
	fi
fi

# Interval footers (issue 20): each gives its own interval's figures, and the last adds
# the whole run's ("total:", JSON whole_run). sleeper naps 20 x 30 ms on CPU 1, whose
# switches out of idle the kernel does not record here, so intervals rebuild switch-ins.
# Per interval: events, losses, switch-ins rebuilt (per CPU too) add up to the whole run
# exactly, none rebuilds more than it read, estimated and unmeasured latencies <= rebuilt
# switch-ins; the latencies (with those ftscope says it could not measure) over intervals
# are the sleeper's switch-ins: its switches out as the kernel
# counted them (its RUSAGE_THREAD counts at the end), less the one or two before tracing
# began (the start gate), plus a preemption after its count: -2 .. +1 (20 naps, and
# preemptions: 24 beside perf bench).
cpu=$(( $(nproc) > 1 ? 1 : 0 ))
name=interval_footer_json_per_interval
rm -f $OUT/ivf.counts
SLEEPER_COUNTS=$OUT/ivf.counts ft $name 0 runqlat --json 0.2 -- $WL/sleeper $cpu 20 30 \
	> $OUT/ivf.json 2> $OUT/ivf.err
k=$(switches_out $OUT/ivf.counts)
if r=$(python3 tests/live/interval_check.py footer-json $OUT/ivf.json ${k:-0} 2>&1); then
	pass "$name ($r; the kernel's $k)"
else
	fail $name "$r"
fi
name=interval_footer_text_total
ft $name 0 runqlat 0.2 -- $WL/sleeper $cpu 20 30 > $OUT/ivf.txt 2> $OUT/ivf.err
if r=$(python3 tests/live/interval_check.py footer-text $OUT/ivf.txt); then
	pass "$name ($r)"
else
	fail $name "$r"
fi

# runqlat_per_cpu_pinned: --per-cpu of a sleeper (20 naps of 10 ms) pinned to CPU c
# from its fork (ftscope runs under taskset -c c, so the command starts there: the
# sleeper's own pinning comes after its start, whose wakeup another CPU may take): all
# its latencies are in CPU c's group, none in another's, for c = 0 and, where this
# kernel records no switch-in out of idle (every latency timed at a rebuilt one), 1.
# Their count is the sleeper's switches out as the kernel counted them (its
# RUSAGE_THREAD counts), -2 .. +1 as above (measured -1 .. +1 in 30 runs, 15 a CPU).
name=runqlat_per_cpu_pinned
r=
for c in $(seq 0 $(( $(nproc) > 1 ? 1 : 0 ))); do
	rm -f $OUT/pcpu.counts
	SLEEPER_COUNTS=$OUT/pcpu.counts FT_WITH="taskset -c $c" ft $name 0 runqlat --per-cpu \
		--json -- $WL/sleeper $c 20 10 > $OUT/pcpu.json 2> $OUT/pcpu.err
	k=$(switches_out $OUT/pcpu.counts)
	got=$(json '[(g["cpu"], g["hist"]["count"]) for g in j["groups"] if g["hist"]["count"]], j["total"]["count"]' \
		$OUT/pcpu.json 2>&1)
	n=${got##* }
	echo "# $name: pinned to CPU $c: groups, total $got; the kernel's switches out ${k:-none}"
	if ! [[ $n =~ ^[0-9]+$ ]] || [ "$got" != "[($c, $n)] $n" ] || [ -z "$k" ] ||
	   [ "$n" -lt $((k - 2)) ] || [ "$n" -gt $((k + 1)) ]; then
		r+="CPU $c: (cpu, count) groups, total: $got, the kernel's ${k:-none} $(head -1 $OUT/pcpu.err); "
	fi
done
if [ -z "$r" ]; then
	pass $name
else
	fail $name "$r"
fi
