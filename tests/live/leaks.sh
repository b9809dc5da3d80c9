#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: live runs of every command with ftscope built with ASan + UBSan and
#              LeakSanitizer on: each ends with status 0, its normal report, and no
#              sanitizer report (use-after-free, overflow, undefined behaviour, leak).
# requires: root, tracefs, FTSCOPE pointing at the ASan build (run-all.sh does so)
. tests/live/lib.sh
reg=($(analyzers))
if [ ${#reg[@]} = 0 ]; then	# a registry read wrong must not pass as nothing to run
	plan 1
	fail leaks_registry "ftscope list named no analyzer"
	exit 0
fi
plan $((24 + ${#reg[@]}))	# the cases below, and each analyzer of the registry
need_root leaks || exit 0
if ! nm "$FTSCOPE" 2>/dev/null | grep -q __asan_init; then
	skip_rest "$FTSCOPE is not an ASan build (make check runs this with build/asan/ftscope)"
	exit 0
fi
export LSAN_OPTIONS=suppressions=$PWD/tests/fuzz/lsan.supp
# a free port for --prometheus, scraped by the traced command itself in both formats
LPORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
SCRAPE="curl -s -o /dev/null http://127.0.0.1:$LPORT/metrics"

# name | command line | a word its output must contain
cases=(
	"runqlat|runqlat -- $WL/sleeper 0 20 5|events processed"
	"runqlat_interval|runqlat -T 0.2 2|events processed"
	"offcpu_interval|offcpu -p 1 0.05 2|events processed"
	"timehist|timehist -s -- $WL/sleeper 0 20 5|events processed"
	"wakeup|wakeup -- $WL/sleeper 0 20 5|events processed"
	"wakeup_tids_interval|wakeup -L 0.2 2|events processed"
	"runqlat_pids|runqlat -P -- $WL/sleeper 0 20 5|events processed"
	"latency_interval|latency 0.2 2|events processed"
	"latency|latency -- $WL/sleeper 0 20 5|events processed"
	"offcpu_stacks|offcpu -f -- $WL/blocker 4 20 1 10|nap_or_block"
	"funclat_uprobe|funclat $WL/busyfn:busy_wait -- $WL/busyfn 10 100 10 300|count"
	"funclat_per_func|funclat -F $WL/busyfn:busy_wait $WL/busyfn:recurse -- $WL/busyfn 5 100 5 300 3 2|count"
	"record_then_read|record -o $OUT/leaks.dat -- $WL/sleeper 0 20 5|written"
	"read_file|timehist -i $OUT/leaks.dat|events processed"
	"report_live|report 'timehist -s' runqlat offcpu -- $WL/sleeper 0 20 5|==> runqlat"
	"report_file|report -i $OUT/leaks.dat timehist runqlat wakeup latency|==> latency"
	"funclat_record|funclat $WL/busyfn:busy_wait -o $OUT/leaks-fl.dat -- $WL/busyfn 5 100 0 0|count"
	"funclat_read_file|funclat -i $OUT/leaks-fl.dat busyfn:busy_wait|count"
	"offcpu_read_file|offcpu -f -i $OUT/leaks.dat|events processed"
	"runqlat_prometheus|runqlat -L --max-series 2 --prometheus $LPORT -- sh -c 'sleep 0.5; $SCRAPE -H \"Accept: application/openmetrics-text\"; $SCRAPE; $SCRAPE -I'|events processed"
	"runqlat_prometheus_file|runqlat -P 0.2 3 --prometheus-file $OUT/leaks.prom|events processed"
	"runqlat_prometheus_file_input|runqlat 0.01 -i $OUT/leaks.dat --prometheus-file $OUT/leaks.prom|events processed"
	"stat|stat -e cs,task-clock -- $WL/sleeper 0 20 5|task-clock"
	"list|list|sched_switch"
)
for c in "${cases[@]}"; do
	IFS='|' read -r name args word <<< "$c"
	name=leaks_$name
	# eval: report's analyzer words are quoted with their options
	eval "ft $name 0 $args" > $OUT/leaks.out 2> $OUT/leaks.err < /dev/null
	rc=$?
	san=$(grep -m1 -E 'ERROR: (Address|Leak)Sanitizer|runtime error:' $OUT/leaks.err)
	if [ -n "$san" ]; then
		fail $name "$san"
	elif [ $rc -ne 0 ]; then
		fail $name "exit status $rc: $(head -1 $OUT/leaks.err)"
	elif [ "$word" = nap_or_block ]; then
		grep -q 'nap_here\|block_here\|blocker' $OUT/leaks.out && pass $name ||
			fail $name "no blocker stack in the folded output"
	elif ! grep -q "$word" $OUT/leaks.out $OUT/leaks.err; then
		fail $name "no '$word' in its output"
	else
		pass $name
	fi
done

# Every analyzer of the registry (lib.sh's analyzers: a new one is covered without an
# edit), live for 0.3 s with what it cannot run without; exit 3 (this kernel lacks what
# it needs: funccount's function tracer here) is a SKIP
for n in "${reg[@]}"; do
	name=leaks_registry_$n
	# shellcheck disable=SC2046
	ft $name '0|3' $n $(analyzer_args $n) -d 0.3 > $OUT/leaks.out 2> $OUT/leaks.err < /dev/null
	rc=$?
	san=$(grep -m1 -E 'ERROR: (Address|Leak)Sanitizer|runtime error:' $OUT/leaks.err)
	if [ -n "$san" ]; then
		fail $name "$san"
	elif [ $rc -eq 3 ]; then
		skip $name "this kernel lacks what it needs: $(tail -1 $OUT/leaks.err)"
	elif ! grep -q 'events processed' $OUT/leaks.out $OUT/leaks.err; then
		fail $name "no 'events processed' in its output"
	else
		pass $name
	fi
done
