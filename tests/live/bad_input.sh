#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: bad input gets one clear line on stderr, its exit status (2: the command
#              line alone is wrong; 1: the machine or a file refuses it), nothing on
#              stdout, and tracefs as it was.
# requires: root (for the tracing cases; the rest run anywhere)
. tests/live/lib.sh

true & dead=$!
wait $dead
echo 'echo hi' > $OUT/noexec
chmod 644 $OUT/noexec
# crafted trace.dat v7 files (tests/live/tdat_craft.py says what each holds)
for f in small-section budget cpu-id; do
	python3 tests/live/tdat_craft.py $f $OUT/tdat-$f.dat
done

# name | exit status (or several: 1,2) | command line | a word the error line must contain
cases=(
	"unknown_command|2|nosuch|unknown command"
	"unknown_option|2|runqlat --bogus|unknown option"
	"bad_duration|2|runqlat -d abc|invalid value"
	"missing_value|2|runqlat -d|needs a value"
	"bad_cpu|2|runqlat -C 4096|invalid value"
	"bad_interval|2|runqlat 0|invalid interval"
	"extra_argument|2|runqlat 1 2 3|unexpected argument"
	"dead_pid|1|runqlat -p $dead -d 1|no process"
	"dead_tid|1|runqlat -t $dead -d 1|no thread"
	"missing_command|1|runqlat -- /nonexistent/ftscope-cmd|cannot run"
	"not_executable|1|runqlat -- $OUT/noexec|cannot run"
	"bad_input_missing|1|runqlat -i /nonexistent|/nonexistent: No such file or directory"
	"help_unknown_command|2|help nosuch|unknown command 'nosuch'"
	"funclat_file_pid|2|funclat -i tests/data -p 1 vfs_read|not funclat's probes"
	"funclat_no_such_user_function|1|funclat $WL/busyfn:no_such_fn -d 0.1|'$WL/busyfn:no_such_fn' matches no function of $WL/busyfn\$"
	"damaged_capture|1|runqlat -i tests/data|not a trace.dat file"
	"tdat_compressed_section_under_its_header|1|timehist -i $OUT/tdat-small-section.dat|compressed section 16 at offset 79 is damaged"
	"tdat_decompression_budget|1|runqlat -i $OUT/tdat-budget.dat|compressed blocks claim more than 171718656 bytes"
	"tdat_buffer_cpu_id|1|timehist -i $OUT/tdat-cpu-id.dat|names CPU 70000 (at most 4095)"
	"tdat_cpu_count_negative_as_int|1|timehist -i tests/fuzz/regress/tdat/v6-cpu-count-negative|bad CPU count 2667577346"
	"record_needs_output|2|record -d 0.1|needs -o"
	"record_unknown_event|3|record -o $OUT/bad-e.dat -e bogus:nothing -d 0.1|no bogus:nothing event"
	"unwritable_output|1|runqlat -d 0.1 -o /proc/ftscope-cap|cannot write"
	"reset_argument|2|reset now|unexpected argument"
	"timehist_bad_time|2|timehist --time 5,1|bad --time"
	"latency_bad_sort|2|latency -s bogus|bad sort key"
	"wakeup_bad_top|2|wakeup --top 0|bad --top"
	"wakeup_bad_min|2|wakeup --min-us -5|bad --min-us"
	"offcpu_unwritable_svg|1|offcpu -d 0.1 --svg /nonexistent/dir/off.svg|cannot write"
	"offcpu_user_and_kernel|2|offcpu -u -k -d 0.1|exclude each other"
	"offcpu_bad_state|2|offcpu --state Q|invalid value"
	"offcpu_bad_min|2|offcpu -m abc|invalid value"
	"offcpu_chain_and_wakers|2|offcpu --chain --wakers -d 0.1|exclude each other"
	"offcpu_chain_perf_stacks|2|offcpu --chain --stacks perf -d 0.1|stacks from ftrace"
	"offcpu_chain_depth_zero|2|offcpu --chain-depth 0 -d 0.1|invalid value"
	"offcpu_chain_depth_nine|2|offcpu --chain-depth 9 -d 0.1|invalid value"
	"offcpu_freq_without_chain|2|offcpu -F 99 -d 0.1|not without --chain"
	"flight_without_output|2|runqlat --flight 2 -d 0.1|needs -o FILE"
	"trigger_without_flight|2|runqlat --trigger 5 -o $OUT/bad-fl.dat -d 0.1|give it"
	"after_without_trigger|2|runqlat --flight 2 --after 1 -o $OUT/bad-fl.dat -d 0.1|give it"
	"flight_with_input|2|runqlat --flight 2 -o $OUT/bad-fl.dat -i tests/data/cap-sleeper|not with -i"
	"flight_unwritable|1|runqlat --flight 2 --trigger 5 -o /nonexistent/dir/x.dat -d 0.1|cannot write"
	"flight_size_below_cpus|2|runqlat --flight 2 --flight-size 1 -o $OUT/bad-fl.dat -d 0.1|at least"
	"flight_size_over_memory|2|runqlat --flight 2 --flight-size 1048576 -o $OUT/bad-fl.dat -d 0.1|more than this machine's memory"
	"trigger_bad_unit|2|runqlat --flight 2 --trigger 5xs -o $OUT/bad-fl.dat -d 0.1|invalid value"
	"trigger_record_form|2|runqlat --flight 2 --trigger runqlat>5ms -o $OUT/bad-fl.dat -d 0.1|record's"
	"flight_not_latency|2|timehist --flight 2 -o $OUT/bad-fl.dat -d 0.1|unknown option"
	"record_trigger_no_latency|2|record --flight 2 --trigger timehist>5ms -o $OUT/bad-fl.dat -d 0.1|measures no latency"
	"record_trigger_no_analyzer|2|record --flight 2 --trigger 5ms -o $OUT/bad-fl.dat -d 0.1|ANALYZER>VALUE"
	"flamegraph_missing_file|1|flamegraph /nonexistent/x.folded|cannot read"
	"flamegraph_not_folded|1|flamegraph $OUT/noexec|not folded stacks"
	"flamegraph_bad_format|2|flamegraph --format xml $OUT/fg-ok.folded|unknown input format"
	"flamegraph_diff_one_file|2|flamegraph --diff $OUT/noexec|two files"
	"flamegraph_bad_palette|2|flamegraph --colors pink|unknown palette"
	"flamegraph_unwritable|1|flamegraph -o /nonexistent/dir/x.svg $OUT/fg-ok.folded|cannot write"
	"stat_bad_event|2|stat -e cyclez -- true|unknown event"
	"stat_bad_tracepoint|2|stat -e sched:nosuch -- true|no tracepoint"
	"stat_open_group|2|stat -e {cycles,cs -- true|without"
	"stat_bad_interval|2|stat -I 5 -- true|invalid value"
	"stat_dead_pid|1|stat -p $dead -d 0.1|no process"
	"stat_missing_command|1|stat -- /nonexistent/ftscope-cmd|cannot run"
	"stat_missing_command_perf_style|1|stat /nonexistent/ftscope-cmd|cannot run"
	"stat_unwritable|1|stat -o /nonexistent/dir/x -- true|cannot write"
	"stat_no_capture|2|stat -i $OUT -d 0.1|do not apply"
	"pmu_bad_event|2|runqlat --pmu cyclez -d 0.1|unknown event"
	"pmu_offline|2|runqlat -i tests/data --pmu cs|cannot be combined"
	"funclat_no_pattern|2|funclat -d 0.1|at least one PATTERN"
	"funclat_unknown_kernel_function|1|funclat no_such_kernel_fn_xyz -d 0.1|matches no kernel"
	"funclat_missing_binary|1|funclat /nonexistent/bin:main -d 0.1|cannot open"
	"funclat_not_elf|1|funclat $OUT/noexec:main -d 0.1|not an ELF"
	"funclat_unknown_library|1|funclat nosuchlibxyz:malloc -d 0.1|cannot find library"
	"funclat_too_many|1|funclat --max-funcs 5 c:* -d 0.1|more than the limit"
	"funclat_bad_method|2|funclat --method foo vfs_read|invalid value"
	"funclat_unknown_syscall|1|funclat syscall:nosuchcall -d 0.1|matches no system call"
	"funclat_capture|1|funclat -i tests/data x|not a trace.dat file"
	"funccount_no_pattern|2|funccount -d 0.1|at least one PATTERN"
	"funccount_user_function|1|funccount c:malloc -d 0.1|kernel functions only"
	"funccount_unknown_function|1|funccount no_such_kernel_fn_xyz -d 0.1|matches no kernel"
	"funccount_bad_top|2|funccount --top 0 vfs_read|invalid value"
	"bad_clock|1|timehist --clock nosuch -d 0.1|this kernel has no trace clock 'nosuch' (it has: "
	"clock_with_input|2|timehist --clock perf -i tests/data/cap-sleeper|cannot be combined with -b, --clock"
	"instance_without_input|2|runqlat -B foo -d 0.1|picks a buffer of a trace.dat: it needs -i FILE"
	"instance_missing|1|runqlat -i tests/data/tdat-v7-zstd-cpus-0125.dat -B foo|no buffer 'foo' (the file holds: top)"
	"instance_of_capture|1|runqlat -i tests/data/cap-sleeper -B foo|a capture directory has one buffer"
	"cgroup_missing|1|runqlat --cgroup ftscope-no-such-cgroup -d 0.1|no cgroup 'ftscope-no-such-cgroup'"
	"cgroup_with_input|2|runqlat --cgroup x -i tests/data/cap-sleeper|not with -i or a command"
	"hardirqs_count_and_dist|2|hardirqs --count --dist|exclude each other"
	"softirqs_count_and_dist|2|softirqs --count --dist -d 0.1|exclude each other"
	"hardirqs_tid|2|hardirqs -t 1 -d 0.1|belong to no task"
	"softirqs_pid|2|softirqs -p 1 -d 0.1|belong to no task"
	"hardirqs_capture_lacks_events|1|hardirqs -i tests/data/cap-sleeper|hardirqs needs irq:irq_handler_entry, which the capture lacks\$"
	"softirqs_capture_lacks_events|1|softirqs -i tests/data/cap-sleeper|softirqs needs irq:softirq_entry, which the capture lacks\$"
	"record_irqs_beside_task_events|2|record -o $OUT/bad-rec.dat hardirqs runqlat -- true|record them apart"
	"report_irqs_beside_task_events|2|report softirqs timehist -- true|run them apart"
	"report_irqs_pid|2|report hardirqs -p 1 -d 0.1|belong to no task"
	"hist_no_event|2|hist -d 0.1|hist needs -e SYSTEM:EVENT"
	"hist_bad_event|2|hist -e sys_enter_read -d 0.1|bad event 'sys_enter_read': expected SYSTEM:EVENT"
	"hist_two_events|2|hist -e a:b -e c:d -d 0.1|reads one event"
	"hist_unknown_event|3|hist -e syscalls:nosuch -d 0.1|hist needs syscalls:nosuch, which the kernel lacks"
	"hist_unknown_key|1|hist -e syscalls:sys_enter_read --key bogus -d 0.1|has no field 'bogus' (it has: __syscall_nr, fd, buf, count)"
	"hist_unknown_value|1|hist -e syscalls:sys_enter_read --value bogus -d 0.1|has no field 'bogus'"
	"hist_unknown_filter_field|1|hist -e syscalls:sys_enter_read --filter bogus==1 -d 0.1|has no field 'bogus'"
	"hist_filter_syntax|2|hist -e syscalls:sys_enter_read --filter count=1|bad --filter 'count=1': expected == != < <= > >= or ~ at '=1'"
	"hist_filter_unbalanced|2|hist -e syscalls:sys_enter_read --filter (count==1|expected ')' at the end"
	"hist_filter_string_order|1|hist -e syscalls:sys_enter_read --filter comm<a -d 0.1|comm is a string"
	"hist_filter_not_a_number|1|hist -e syscalls:sys_enter_read --filter count==dd -d 0.1|count is a number, and 'dd' is not"
	"hist_string_value|1|hist -e sched:sched_process_exec --value filename -d 0.1|a histogram needs a number field"
	"hist_too_many_keys|2|hist -e a:b --key a,b,c,d,e|at most 4 fields"
	"hist_bad_top|2|hist -e a:b --top 0|invalid value"
	"hist_capture_lacks_event|1|hist -i tests/data/tdat-v7-zstd-cpus-0125.dat -e syscalls:sys_enter_read|which the capture lacks"
)
# Every tracing command: the same mistakes with the common options, one line each. The
# analyzers are the registry's (lib.sh's analyzers), so a new one is covered here, with
# what it cannot run without (lib.sh's analyzer_args).
tracers=()
for n in $(analyzers); do
	tracers+=("$n $(analyzer_args $n)")
done
if [ ${#tracers[@]} = 0 ]; then	# a registry read wrong must not pass as nothing to run
	plan 1
	fail bad_input_registry "ftscope list named no analyzer"
	exit 0
fi
tracers+=("record -o $OUT/bad-rec.dat")
for cmd in "${tracers[@]}"; do
	n=${cmd%% *}
	notrace="not a trace.dat file" tracerc=1
	[ $n = record ] && notrace="does not read one" tracerc=2
	cases+=(
		"${n}_unknown_option|2|$cmd --bogus|unknown option"
		"${n}_bad_number|2|$cmd -d abc|invalid value"
		"${n}_bad_buffer|2|$cmd -b 99999999999|invalid value"
		"${n}_bad_cpus|2|$cmd -C 0-9999|invalid value"
		# a task's, or a usage error where the events belong to no task (interrupts, I/O)
		"${n}_dead_pid|1,2|$cmd -p $dead -d 1|no process\\|belong to no task"
		"${n}_not_a_trace_file|$tracerc|$cmd -i $OUT/noexec|$notrace"
		"${n}_unwritable_output|1|$cmd -d 0.1 -o /nonexistent/dir/x.dat|cannot write"
		"${n}_output_is_a_directory|1|$cmd -d 0.1 -o $OUT|cannot write"
	)
done
cases+=(
	"stat_unknown_option|2|stat --bogus -- true|unknown option"
	"stat_bad_number|2|stat -d abc|invalid value"
	"stat_bad_cpus|2|stat -C 0-9999 -- true|invalid value"
	"flamegraph_unknown_option|2|flamegraph --bogus x|unknown option"
	"flamegraph_bad_number|2|flamegraph --width abc $OUT/fg-ok.folded|invalid value"
	"list_unknown_option|2|list --bogus|unexpected argument"
	"list_argument|2|list extra|unexpected argument"
	"reset_unknown_option|2|reset --bogus|unexpected argument"
	"report_unknown_option|2|report --bogus timehist|unknown option"
	"report_no_analyzer|2|report -i tests/data/cap-sleeper|at least one ANALYZER"
	"report_not_an_analyzer|2|report -i tests/data/cap-sleeper record|not an analyzer"
	"report_not_a_trace_file|1|report -i $OUT/noexec timehist|not a trace.dat file"
)
# Not root: each command that traces, and reset
notroot=()
for cmd in "${tracers[@]}"; do
	notroot+=("$cmd -d 1")
done
notroot+=(reset)
# a result for each case, each not-root run, and four more below
plan $((${#cases[@]} + ${#notroot[@]} + 4))
# errors found while parsing: the same as root or not
parse_errors='unknown|invalid|unexpected|needs a value|needs -o|needs -i|bad |exclude|without|two files|palette|at least one|does not read|not an analyzer|not a trace|no task|apart|capture lacks'
echo 'main;a 1' > $OUT/fg-ok.folded

if [ "$(id -u)" -eq 0 ] && grep -q tracefs /proc/filesystems; then
	[ -d $T/instances ] || mount -t tracefs nodev $T
	root=1
fi

# tracefs around each run: as before it, but for other runs of ftscope (lib.sh's
# state_before and state_changed)
for c in "${cases[@]}"; do
	IFS='|' read -r name want args word <<< "$c"
	want=${want//,/|}
	name=bad_input_$name
	if [ -z "$root" ] && [[ "$args" != flamegraph* ]] && ! grep -qE "$parse_errors" <<< "$word"; then
		skip $name "needs root"
		continue
	fi
	[ -n "$root" ] && state_before
	# shellcheck disable=SC2086
	ft $name $want $args > $OUT/bad.out 2> $OUT/bad.err < /dev/null
	rc=$?
	[ -n "$root" ] && changed=$(state_changed)
	lines=$(wc -l < $OUT/bad.err)
	if [ $rc -lt 1 ] || [ $rc -gt 127 ]; then
		fail $name "exit status $rc"
	elif [ "$lines" -ne 1 ]; then
		fail $name "$lines lines on stderr: $(tr '\n' '|' < $OUT/bad.err)"
	elif ! grep -q "$word" $OUT/bad.err; then
		fail $name "error line lacks '$word': $(cat $OUT/bad.err)"
	elif grep -q 'belong to no task' $OUT/bad.err && [ $rc != 2 ]; then
		fail $name "exit status $rc for a usage error: $(cat $OUT/bad.err)"
	elif [ -s $OUT/bad.out ]; then
		fail $name "output on stdout: $(head -1 $OUT/bad.out)"
	elif [ -n "$changed" ]; then
		fail $name "tracefs state changed: $changed"
	else
		pass $name
	fi
done

# Not root: one line that says so (exit 1), nothing touched, for each command that traces.
NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"
for args in "${notroot[@]}"; do
	name=bad_input_not_root_${args%% *}
	if ! command -v setpriv > /dev/null || [ -z "$root" ]; then
		skip $name "needs root and setpriv to drop to an unprivileged user"
		continue
	fi
	state_before
	# shellcheck disable=SC2086
	FT_WITH=$NOBODY ft $name 1 $args > $OUT/bad.out 2> $OUT/bad.err
	rc=$?
	changed=$(state_changed)
	if [ $rc -ge 1 ] && [ $rc -le 127 ] && [ "$(wc -l < $OUT/bad.err)" -eq 1 ] &&
	   grep -q root $OUT/bad.err && [ -z "$changed" ]; then
		pass $name
	else
		fail $name "exit $rc: $(tr '\n' '|' < $OUT/bad.err)${changed:+ tracefs: $changed}"
	fi
done

# Not root, counting the whole system: one line that says what to change.
name=bad_input_stat_not_root
if command -v setpriv > /dev/null && [ -n "$root" ] &&
   [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 1 ]; then
	FT_WITH=$NOBODY ft $name 1 stat -a -d 0.1 > $OUT/bad.out 2> $OUT/bad.err
	rc=$?
	if [ $rc -ge 1 ] && [ $rc -le 127 ] && [ "$(wc -l < $OUT/bad.err)" -eq 1 ] &&
	   grep -q perf_event_paranoid $OUT/bad.err; then
		pass $name
	else
		fail $name "exit $rc: $(tr '\n' '|' < $OUT/bad.err)"
	fi
else
	skip $name "needs root, setpriv and perf_event_paranoid >= 1"
fi

# Every command in the README's table is in `ftscope list` and `ftscope --help`, and the
# reverse: a command missing from either (stat and flamegraph once were) fails here.
name=list_matches_readme
readme=$(sed -n 's/^| `ftscope \([a-z]*\).*/\1/p' README.md | sort -u)
listed=$(ft $name 0 list 2>/dev/null | sed -n '/^Commands:/,/^$/s/^  \([a-z]\+\) .*/\1/p' | sort -u)
helped=$(ft $name 0 --help 2>/dev/null | sed -n '/^Commands:/,/^$/s/^  \([a-z]\+\) .*/\1/p' | sort -u)
if [ "$(echo "$readme" | wc -l)" -lt 10 ]; then
	fail $name "only $(echo $readme) found in README.md's command table"
elif [ "$readme" != "$listed" ] || [ "$readme" != "$helped" ]; then
	fail $name "README: $(echo $readme); list: $(echo $listed); --help: $(echo $helped)"
else
	pass $name
fi

# `ftscope help NAME` is `ftscope NAME --help` (it printed the top-level usage); a
# recorder's help offers its own -o once and no -i
name=help_command
r=""
for c in runqlat record stat list; do
	ft $name 0 help $c > $OUT/help-$c.txt 2>&1
	ft $name 0 $c --help > $OUT/help-$c-2.txt 2>&1
	cmp -s $OUT/help-$c.txt $OUT/help-$c-2.txt || r="$r help $c differs from $c --help;"
done
grep -q '^Usage: ftscope runqlat ' $OUT/help-runqlat.txt || r="$r help runqlat: $(head -1 $OUT/help-runqlat.txt);"
o=$(grep -c '^  -o, ' $OUT/help-record-2.txt)
i=$(grep -c '^  -i, ' $OUT/help-record-2.txt)
[ "$o" = 1 ] && [ "$i" = 0 ] || r="$r record --help lists -o $o times, -i $i times;"
if [ -z "$r" ]; then
	pass $name
else
	fail $name "$r"
fi

# The README's examples run after the README's own `make` (issue 20: its first one needed
# tests/workloads/spin3, which only `make check` built): every workload an example of
# the README or docs/ names is a target of `make all`.
name=examples_built_by_make
want=$(grep -ho '^# \(\./\)\?ftscope .*' README.md docs/*.md | grep -o 'tests/workloads/[a-z0-9]*' | sort -u)
built=$(make -n -B all 2>/dev/null | grep -o -- '-o tests/workloads/[a-z0-9]*' | sed 's/^-o //' | sort -u)
missing=$(comm -23 <(echo "$want") <(echo "$built"))
if [ -z "$want" ]; then
	fail $name "no example names a workload"
elif [ -n "$missing" ]; then
	fail $name "make all does not build $(echo $missing)"
else
	pass $name
fi
