#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: the exporters over time (issue 34): `runqlat -P --prometheus` scraped each
#              second and `wakeup -P 1 --prometheus-file` read each second, both with
#              --max-series 100, while tests/workloads/churn makes 300 short-lived
#              processes a second (8 comms) with pid_max lowered to 4096 so that the
#              pids wrap; every SAMPLE s both processes' RSS and open fds and the scrape
#              latency (tests/live/soak_check.py). Judged after the warm-up: RSS
#              growth, fds constant, p99 scrape latency, series never beyond
#              --max-series, nothing going down or away, no lost event; both stopped by
#              SIGINT (exit 0), pid_max and the tracefs state restored.
#              SOAK_MINUTES=2 here (make check: about 2.5 min); `make soak` runs 30.
# requires: root, sched tracepoints
. tests/live/lib.sh
plan 9
need_root soak_churn || exit 0
PY=tests/live/soak_check.py
MIN=${SOAK_MINUTES:-2}
SECS=$((MIN * 60))
RATE=300		# processes a second: 540000 in 30 minutes (churn alone makes ~2400/s here)
PIDMAX=4096		# the pids wrap every ~12 s at RATE (fewer than 200 other tasks here)
MAXS=100		# --max-series: the 3800 pids pass it within the first seconds
# Bounds, from the measured figures (docs/benchmarks.md, "Exporter soak"). RSS: growth
# after the warm-up, runqlat's then wakeup's. runqlat -P keeps a histogram for each
# process it saw (the report at the end prints them), so its RSS grows with the pids
# seen and the spread of their values: bounded by pid_max, not flat. wakeup -P 1's
# groups are the same, but its interval reports keep them from growing much.
if [ "$MIN" -ge 30 ]; then
	WARM=300 SAMPLE=60	# the soak: warm-up 5 minutes, a sample a minute
	RSS_RQ=16384		# measured +12056 KiB (30 min, 2026-11-27)
	RSS_WK=1024		# measured +272 KiB
else
	WARM=30 SAMPLE=10	# the short one: 30 s (2 wraps), a sample each 10 s
	RSS_RQ=6144		# measured +112 .. +2764 KiB in 6 runs (2026-11-27)
	RSS_WK=1024		# measured +4 .. +240 KiB in the same 6
fi
# p99 of a scrape of /metrics (101 series x 38 lines, ~300 KB): measured 17.8 ms (30 min,
# single scrapes up to 76 ms), 8.5 .. 28.2 ms in 6 runs of 2 min; a shared, loaded VM
P99_MS=250

D=$(mktemp -d /tmp/ftscope-soak.XXXXXX)
old_pidmax=$(cat /proc/sys/kernel/pid_max)
BG=()
# restore: pid_max as it was, whatever ends the script; our processes ended
restore() {
	echo "$old_pidmax" > /proc/sys/kernel/pid_max
	bg_cleanup
}
trap restore EXIT
trap 'exit 130' INT TERM
state_before

read -r PORT _ < <(python3 tests/live/prom_check.py ports)
echo $PIDMAX > /proc/sys/kernel/pid_max
$FTSCOPE runqlat -P --max-series $MAXS --prometheus 127.0.0.1:$PORT > $D/rq.out 2> $D/rq.err &
RPID=$!
BG+=($RPID)
# its report each second: the footers are what is kept of it
$FTSCOPE wakeup -P --max-series $MAXS --prometheus-file $D/wk.prom 1 \
	> >(grep 'events processed' > $D/wk.out) 2> $D/wk.err &
WPID=$!
BG+=($WPID)
if ! wait_for 30 grep -q Tracing $D/rq.err || ! wait_for 30 grep -q Tracing $D/wk.err ||
	! wait_for 10 test -s $D/wk.prom; then
	fail soak_churn "the exporters did not start: $(tail -1 $D/rq.err) $(tail -1 $D/wk.err)"
	skip_rest "no exporters"
	exit 0
fi
$WL/churn $SECS $RATE 8 $D/stop > $D/churn.out &
CPID=$!
BG+=($CPID)
python3 $PY run $D/log http://127.0.0.1:$PORT/metrics $RPID $D/wk.prom $WPID $SECS $SAMPLE \
	> $D/run.out 2>&1
run=$?
touch $D/stop	# (the scraper ended early: so does the churn)
wait $CPID
churn=$?
kill -INT $RPID $WPID 2>/dev/null
ft_wait soak_lost 0 $RPID
ft_wait soak_series 0 $WPID
echo "# soak: $(cat $D/run.out); churn: $(cat $D/churn.out)"
echo "$old_pidmax" > /proc/sys/kernel/pid_max

# the workload kept its pace (every process made) and the pids wrapped at least twice
read -r _ n _ wraps _ behind < $D/churn.out
if [ $churn -eq 0 ] && [ "$n" = $((SECS * RATE)) ] && [ "$behind" = 0 ] &&
	[ "$wraps" -ge 2 ]; then
	pass soak_churn
else
	fail soak_churn "churn exit $churn: $(cat $D/churn.out), want $((SECS * RATE)) processes, 0 behind, 2 or more wraps"
fi
echo "# soak_churn: $n processes, pids wrapped $wraps times (pid_max $PIDMAX)"
if [ $run -eq 0 ]; then
	pass soak_run
	check soak_series series $D/log $MAXS
	check soak_monotonic monotonic $D/log
	check soak_lost lost $D/log $D/rq.out $D/wk.out
	check soak_rss rss $D/log $WARM $RSS_RQ $RSS_WK
	check soak_fds fds $D/log $WARM
	check soak_latency latency $D/log $P99_MS
	python3 $PY figures $D/log | sed 's/^/# /'
	[ -n "$SOAK_KEEP" ] && cp $D/log* "$SOAK_KEEP"/
else
	# (an exporter that ended early: the scraper fails at its next sample)
	fail soak_run "the scraper: $(tail -1 $D/run.out)"
	for c in series monotonic lost rss fds latency; do
		skip soak_$c "no whole run to judge"
	done
fi

if [ "$(cat /proc/sys/kernel/pid_max)" = "$old_pidmax" ] && [ -z "$(state_changed)" ]; then
	pass soak_state
else
	fail soak_state "pid_max $(cat /proc/sys/kernel/pid_max) (was $old_pidmax); $(state_changed)"
fi
