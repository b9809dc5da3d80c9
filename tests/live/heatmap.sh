#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: --heatmap: runqlat of a workload with a phase of short run-queue waits,
#              a quiet gap and a phase of long ones (spinners on both CPUs beside a
#              sleeper), against the workload's own phase times and schedstat counts;
#              the same map from -i; column count and width; interval resets; the SVG
#              in headless chromium (picture, DOM, a click's zoom); bad input.
# requires: root, tracefs, sched events, chromium, python3
. tests/live/lib.sh
plan 33
need_root heatmap || exit 0
PY=tests/live/heatmap_check.py
H=$OUT/heat

# the workload: 150 ms quiet, 0.9 s of 1 ms sleeps, a 300 ms gap, 0.8 s of 4 spinners
# and the sleeper, its counts read, 150 ms quiet: 2.31 s (5 ms to read the counts; 87
# once beside a build), where 40 columns of 64 ms hold 2.49 s
name=heatmap_run
rm -f $H.svg $H.dat $H.json $H.phases
if ft $name 0 runqlat --json --heatmap $H.svg --heatmap-cols 40 -o $H.dat \
	-- $WL/phases $H.phases 900 300 800 > $H.json 2> $H.err && [ -s $H.phases ]; then
	pass $name
else
	fail $name "exit $? ($(head -1 $H.err))"
	skip_rest "no heatmap_run to read"
	exit 0
fi
check heatmap_count_equals_report total $H.svg $H.json
check heatmap_cols_smallest_2k_ms geometry $H.svg $H.phases cols 40
check heatmap_phase_counts_schedstat counts $H.svg $H.phases $H.json
check heatmap_phase_rows_run_delay rows $H.svg $H.phases

# the recording gives the same cells; a fixed width over it, and the default columns
ft heatmap_input_same_cells 0 runqlat -i $H.dat --heatmap $H-i.svg --heatmap-cols 40 > /dev/null 2>&1
check heatmap_input_same_cells same $H.svg $H-i.svg
ft heatmap_width_fixed 0 runqlat -i $H.dat --json --heatmap $H-w.svg --heatmap-width 0.1 \
	> $H-w.json 2>/dev/null
check heatmap_width_fixed geometry $H-w.svg $H.phases width 100000000
check heatmap_width_phase_counts counts $H-w.svg $H.phases $H-w.json
check heatmap_width_count_equals_report total $H-w.svg $H-w.json
# 0.2 ms columns: 10000 of them end at 2 s, before the run does
ft heatmap_width_bound 0 runqlat -i $H.dat --heatmap $H-b.svg --heatmap-width 0.0002 \
	> /dev/null 2> $H-b.err
check heatmap_width_bound bound $H-b.svg $H-w.svg $H-b.err $H-w.json
# one CPU's map (-C): from that CPU's first record to its last, as trace-cmd reads them
for c in 0 1; do
	ft heatmap_cpu${c}_span 0 runqlat -i $H.dat -C $c --heatmap $H-c$c.svg > /dev/null 2>&1
	trace-cmd report -t --cpu $c $H.dat > $H-c$c.txt 2>/dev/null
	check heatmap_cpu${c}_span cpu_span $H-c$c.svg $H-c$c.txt
done
# a width in seconds that binary doubles do not hold: rounded to the ns, not truncated
ft heatmap_width_rounded 0 runqlat -i $H.dat --heatmap $H-65.svg --heatmap-width 0.000065 \
	> /dev/null 2>&1
check heatmap_width_rounded width $H-65.svg 65000
ft heatmap_cols_default_100 0 runqlat -i $H.dat --heatmap $H-d.svg > /dev/null 2>&1
check heatmap_cols_default_100 geometry $H-d.svg $H.phases cols 100

# interval reports reset the histograms: the map still holds every value
ft heatmap_intervals_keep_all 0 runqlat --json --heatmap $H-iv.svg 0.3 \
	-- $WL/phases $H-iv.phases 500 300 500 > $H-iv.json 2>/dev/null
check heatmap_intervals_keep_all total $H-iv.svg $H-iv.json
check heatmap_intervals_phase_counts counts $H-iv.svg $H-iv.phases $H-iv.json

# the other histogram analyzers: each map's rows hold the buckets their report prints
ph="$WL/phases $H-a.phases 200 50 200"
anal() {
	local name=$1 a=$2
	shift 2
	rm -f $H-$name.svg
	ft heatmap_$name 0 $a --json --heatmap $H-$name.svg "$@" > $H-$name.json 2>/dev/null
	check heatmap_$name analyzer $a $H-$name.svg $H-$name.json
}
anal wakeup_groups wakeup -P -- $ph
anal funclat_functions funclat -F -u syscall:clock_nanosleep syscall:nanosleep -- $ph
anal latency_comm latency -- $ph
anal latency_pids latency --pids -- $ph
# direct writes: the disk's interrupts, their softirqs and the requests
io="dd if=/dev/zero of=$H-io bs=4k count=200 oflag=direct"
anal hardirqs_ns hardirqs -N -- $io
anal softirqs softirqs -- $io
anal biolatency_disks biolatency -D -- $io
rm -f $H-io

# in a real browser: a picture of the cells, the DOM's cells, a click's zoom
if ! command -v chromium > /dev/null; then
	for n in picture dom_cells click_zooms; do
		skip heatmap_chromium_$n "no chromium (scripts/install-deps.sh installs it)"
	done
else
	prof=$(mktemp -d)
	chrome() {
		timeout 60 chromium --headless --no-sandbox --disable-gpu --user-data-dir=$prof \
			--window-size=1200,700 "$@" 2>/dev/null
	}
	rm -f $H.png
	chrome --screenshot=$H.png file://$PWD/$H.svg > /dev/null
	check heatmap_chromium_picture picture $H.png $H.svg
	chrome --dump-dom file://$PWD/$H.svg > $H.dom
	check heatmap_chromium_dom_cells dom $H.dom $H.json
	# a click event on a cell of column 30 (phase 2), dispatched at load to the element
	# at the cell's centre by a test-only copy of the map
	python3 $PY clickpage $H.svg 30 $H-zoom.svg
	chrome --dump-dom file://$PWD/$H-zoom.svg > $H-zoom.dom
	check heatmap_chromium_click_zooms zoom $H-zoom.dom $H.svg 30
	rm -rf $prof
fi

# nothing measured: a sleeping process, no wakeup in 0.3 s
sleep 60 & sp=$!
rm -f $H-none.svg
if ft heatmap_no_values 0 runqlat -p $sp -d 0.3 --heatmap $H-none.svg > /dev/null 2>&1; then
	check heatmap_no_values novalue $H-none.svg
else
	fail heatmap_no_values "exit $?"
fi
kill $sp; wait $sp 2>/dev/null

# values measured, none drawn: LISA's 83 wakeups all come after 10000 columns of 1 us
SHARED=${FTSCOPE_SHARED:-../shared}
LISA=$SHARED/fixtures/third_party/lisa/sched_load.trace.dat
if [ -f "$LISA" ]; then
	ft heatmap_all_undrawn 0 runqlat -i "$LISA" --json --heatmap $H-u.svg \
		--heatmap-width 0.000001 > $H-u.json 2>/dev/null
	check heatmap_all_undrawn undrawn $H-u.svg $H-u.json
else
	skip heatmap_all_undrawn "no $LISA (../shared)"
fi

# bad input: one line, exit 1 (a path that cannot be written) or 2 (usage)
bad() {
	local name=$1 want=$2 rc
	shift 2
	ft $name $want "$@" > /dev/null 2> $OUT/heat-bad.err
	rc=$?
	if [ $rc -eq $want ] && [ "$(wc -l < $OUT/heat-bad.err)" -eq 1 ]; then
		pass $name
	else
		fail $name "exit $rc, stderr: $(head -3 $OUT/heat-bad.err | tr '\n' '|')"
	fi
}
bad heatmap_unwritable_path 1 runqlat -d 0.1 --heatmap /nonexistent/dir/h.svg
bad heatmap_cols_zero 2 runqlat -d 0.1 --heatmap $H-bad.svg --heatmap-cols 0
bad heatmap_width_zero 2 runqlat -d 0.1 --heatmap $H-bad.svg --heatmap-width 0
bad heatmap_cols_without_map 2 runqlat -d 0.1 --heatmap-cols 10
[ ! -e $H-bad.svg ] && pass heatmap_bad_input_no_file || fail heatmap_bad_input_no_file "$H-bad.svg left"
