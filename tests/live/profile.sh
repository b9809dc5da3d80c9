#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: ftscope profile (issue 22) on workloads with known answers: against
#              perf record -a -g on the same run of burn2; samples = F x the thread's
#              own CPU time; page faults and malloc calls counted exactly per function;
#              a wall-clock profile (--offcpu) against the thread's own clocks; the
#              -o/-i round trip, the text view and --json against the folded data;
#              bad input.
# requires: root; perf for the peer check (skipped without it)
. tests/live/lib.sh
plan 30
need_root profile || exit 0
PY=tests/live/profile_check.py


# run NAME OUTFILE ARGS...: ftscope profile ARGS > OUTFILE (stderr in OUTFILE.err);
# FAIL NAME and return 1 when it exits non-zero
run() {
	local name=$1 out=$2 rc
	shift 2
	ft $name 0 profile "$@" > $out 2> $out.err
	rc=$?
	[ $rc = 0 ] && return 0
	fail $name "exit $rc: $(tail -1 $out.err)"
	return 1
}

if ! ft profile_command 0 help profile > /dev/null 2>&1; then
	fail profile_command "this ftscope has no profile command"
	skip_rest "no profile command"
	exit 0
fi

# 1. perf record -a -g and ftscope profile -a over the same run of burn2 (1.2 s of CPU
# in burn_a, then 0.8 s in burn_b). Each function's share of burn2's samples against
# perf's, within 5 points (the issue's bound). Measured with two perf records on the
# same runs (5 runs): shares differ by 0.00 .. 0.34 points, and each saw
# F x CPU time -0.15% .. +0.15% of burn2.
# perf is ready when its file holds more than the header: it writes the processes'
# mmaps it synthesizes after opening its events (perf prints nothing to wait for).
perf_ready() {
	[ "$(stat -c %s $OUT/prof-peer.data 2>/dev/null || echo 0)" -gt 4096 ]
}
if command -v perf > /dev/null; then
	rm -f $OUT/prof-peer.data
	perf record -q -F 499 -a -g -o $OUT/prof-peer.data > /dev/null 2> $OUT/prof-peer.perf.err &
	pp=$!
	$FTSCOPE profile -F 499 -a -f > $OUT/prof-peer.folded 2> $OUT/prof-peer.err &
	fp=$!
	if wait_for 30 perf_ready && wait_for 30 grep -q Tracing $OUT/prof-peer.err; then
		steal_mark	# the workload's run, for the rate checks
		$WL/burn2 1200 800 2> $OUT/prof-peer.wl
		st=$(ft_steal)
		kill -INT $pp $fp
		ft_wait profile_peer_perf_shares 0 $fp
		frc=$?
		wait $pp
		perf script -i $OUT/prof-peer.data -F comm,tid,ip,sym > $OUT/prof-peer.script 2>/dev/null
		if [ $frc != 0 ]; then
			fail profile_peer_perf_shares "exit $frc: $(tail -1 $OUT/prof-peer.err)"
			skip profile_peer_perf_saw_run "the run failed (profile_peer_perf_shares)"
			skip profile_all_cpus_rate "the run failed (profile_peer_perf_shares)"
		else
			# perf's own count first: it shows that perf sampled the whole run
			python3 -c "import sys; sys.path.insert(0, 'tests/live'); import profile_check as p
agg = {}
for f, n in p.perf_script(sys.argv[1]):
    agg[';'.join(f)] = agg.get(';'.join(f), 0) + n
print('\n'.join(f'{k} {n}' for k, n in agg.items()))" $OUT/prof-peer.script > $OUT/prof-peer.perf.folded
			STEAL_MS=$st check profile_peer_perf_saw_run rate $OUT/prof-peer.perf.folded $OUT/prof-peer.wl burn2 499 5
			# shares within 1 point of perf's (measured -0.58 .. +0.36 over 12 runs on
			# 2026-11-27 beside other tests, 0 .. 0.34 in 5 before: 1 point is 10 of
			# 1000 samples; it was 5)
			check profile_peer_perf_shares peer $OUT/prof-peer.folded $OUT/prof-peer.script burn2 1 \
				burn_a burn_b
			# -a samples per CPU at wall time: burn2's share is still its CPU time
			STEAL_MS=$st check profile_all_cpus_rate rate $OUT/prof-peer.folded $OUT/prof-peer.wl burn2 499 5
		fi
	else
		kill -INT $pp $fp 2> /dev/null
		wait $pp
		ft_wait profile_peer_perf_shares 0 $fp
		fail profile_peer_perf_shares "not both ready: $(tail -1 $OUT/prof-peer.err) $(tail -1 $OUT/prof-peer.perf.err)"
		skip profile_peer_perf_saw_run "not both ready (profile_peer_perf_shares)"
		skip profile_all_cpus_rate "not both ready (profile_peer_perf_shares)"
	fi
else
	for n in profile_peer_perf_saw_run profile_peer_perf_shares profile_all_cpus_rate; do
		skip $n "perf is not installed (scripts/install-deps.sh)"
	done
fi

# 2. Known answers from the workloads' own accounts.
# samples of burn2's thread = 499 x its CPU time (its schedstat at exit), +-5%.
# Measured with perf record -F 499 -g -- burn2 1200 800 (5 runs): -0.17% .. -0.06%.
if run profile_known_rate $OUT/prof-rate.folded -F 499 -f -- $WL/burn2 1200 800; then
	check profile_known_rate rate $OUT/prof-rate.folded $OUT/prof-rate.folded.err burn2 499 5
fi
# Child processes: a shell runs burn2 twice, one after the other. Every child is
# sampled from its birth (inherited events), before ftscope reads its fork record:
# both children's samples = 499 x their summed CPU time, +-5%, live and read back
# from the file the run kept, and the live run's steal above (schedstat leaves it
# out: a fresh root read +8% in both). (A filter on the trace's task set lost the
# first round of each child: -20% here, and every child's samples with -i.)
if run profile_children $OUT/prof-kids.folded -F 499 -f -o $OUT/prof-kids.dat -- \
	sh -c "$WL/burn2 300 200; $WL/burn2 200 300"; then
	ST=$(ft_steal)
	STEAL_MS=$ST check profile_children rates $OUT/prof-kids.folded \
		$OUT/prof-kids.folded.err burn2 499 5 2
	if run profile_children_file $OUT/prof-kids-back.folded -i $OUT/prof-kids.dat -f; then
		STEAL_MS=$ST check profile_children_file rates $OUT/prof-kids-back.folded \
			$OUT/prof-kids.folded.err burn2 499 5 2
	fi
else
	skip profile_children_file "the run failed (profile_children)"
fi
# ftscope record -o F profile keeps the samples (99 Hz, both frame kinds), report -i
# F profile reads them: 99 x burn2's CPU time, +-5% (5 samples of 100).
# The host's steal over a run (lib.sh's ft_steal) is allowed above, here and in
# the wall clock's CPU time below: burn2's schedstat leaves it out (a fresh root read
# +17% here, +52% and +33% below, with the host stealing 6% of the CPUs).
if ft profile_record_report 0 record -o $OUT/prof-rec.dat profile -- $WL/burn2 600 400 \
	> $OUT/prof-rec.out 2> $OUT/prof-rec.err; then
	ST=$(ft_steal)
	if ft profile_record_report 0 report -i $OUT/prof-rec.dat profile > /dev/null 2>&1 &&
	   run profile_record_report $OUT/prof-rec.folded -i $OUT/prof-rec.dat -f; then
		STEAL_MS=$ST check profile_record_report rate $OUT/prof-rec.folded \
			$OUT/prof-rec.err burn2 99 5
	else
		fail profile_record_report "report -i of the recording failed"
	fi
else
	fail profile_record_report "record exit $?: $(tail -1 $OUT/prof-rec.err)"
fi
# A -p target that exits: ftscope goes on to -d without spinning. A ring whose task
# is gone polls as hung up at once, ever after; it spun at 100% CPU for the rest of
# the run (about 2.5 s of CPU here). Its own CPU time must stay under 0.5 s.
sleep 0.5 &
target=$!
FT_WITH="/usr/bin/time -f %U,%S -o $OUT/prof-exit.time" ft profile_target_exits 0 \
	profile -p $target -d 3 -f > $OUT/prof-exit.folded 2> $OUT/prof-exit.err
cpu=$(awk -F, '{printf "%.2f", $1 + $2}' $OUT/prof-exit.time 2>/dev/null)
if [ -n "$cpu" ] && awk -v c="$cpu" 'BEGIN { exit !(c < 0.5) }'; then
	pass "profile_target_exits ($cpu s of CPU over a 3 s run)"
else
	fail profile_target_exits "${cpu:-?} s of CPU over a 3 s run (spinning?)"
fi
wait $target 2>/dev/null
# -F above what the kernel gives (its cpu-clock timer fires at most every 10 us, and it
# throttles): the header says the rate obtained, not the one asked (it claimed "100000
# Hz" where the samples came at about 60 000 a second of the thread's CPU time). Oracle:
# the samples (and lost ones) over burn2's own CPU time (schedstat); measured -0.1 ..
# -2.0% in 6 runs beside other builds: within 5%. The kernel's count of the time sampled
# (cpu-clock) keeps the host's steal, schedstat leaves it out: the steal over the run
# lowers the bound (a fresh root: -19.15%, the samples over CPU time and steal within it)
if run profile_rate_obtained $OUT/prof-rate.out -F 100000 -- $WL/burn2 300 300; then
	if r=$(STEAL_MS=$(ft_steal) python3 $PY obtained $OUT/prof-rate.out \
		$OUT/prof-rate.out.err 5); then
		pass profile_rate_obtained
	else
		fail profile_rate_obtained "$r"
	fi
	echo "# $r"
fi
# Interval reports on another trace clock, of a task that makes no record (-p of a
# CPU-bound burn2, no fork): each 0.5 s interval holds its own samples (before the merge
# had a time, samples were held back: 0, 0, 0 and then all of them in the last report).
# Oracle: the thread's own CPU time and share over ftscope's life (schedstat against
# the wall clock, read before ftscope starts and after it exits). The sampling is no
# longer than that life: the sum is at most 499 x that CPU time (+2). It is longer
# than the 4 x 0.5 s: the first report holds the samples from before its clock started
# (257 .. 260 where 249.5 fit, idle), and the last every sample until the sampler
# stops, after the loop has seen the due time: late beside other work (280 and 288
# samples in a last 0.5 s, +8.2% and +5.2% over 499 x 2 s x share; likely the +15.4%
# seen once beside other tests, which failed the +-8% this had). So the sum is at least
# 499 x 2 s x share - 3%: measured -0.3 .. +8.2% in 57 runs on 2026-11-27 (alone,
# beside two spinners, spinners at ftscope's start, other tests, perf bench sched
# messaging -l 400; shares 0.44 .. 1), -0.7 .. +5.2% in the runs before; margin 2.3
# points below -0.7. (At a load of 22, perf bench -l 2000 beside it, intervals had no
# sample and the sum went -54 .. +13%: no bound holds there.) Each interval within 0.5
# .. 1.5 of their mean (0.77 .. 1.18 in 8 runs beside other tests, CFS sharing the CPU
# unevenly; the last up to 1.12 after a late stop; alone 0.98 .. 1.04)
$WL/burn2 5000 0 2>/dev/null &
spin=$!
sleep 0.2
c0=$(cut -d' ' -f1 /proc/$spin/schedstat); w0=$(date +%s%N)
ft profile_intervals_other_clock 0 profile --clock boot -p $spin -F 499 --json 0.5 4 \
	> $OUT/prof-int.json 2> $OUT/prof-int.err
c1=$(cut -d' ' -f1 /proc/$spin/schedstat); w1=$(date +%s%N)
kill $spin 2>/dev/null
wait $spin 2>/dev/null
check profile_intervals_other_clock intervals $OUT/prof-int.json $((c1 - c0)) $((w1 - w0)) \
	499 4 0.5 3
# every page fault: 20000 under touch_pages +-3% (and the workload's own minflt too).
# Measured with perf record -e page-faults -c 1 -g (3 runs): exactly 20000, minflt 20000.
if run profile_known_page_faults $OUT/prof-pf.folded -e page-faults -c 1 -f -- $WL/pagetouch 20000; then
	check profile_known_page_faults under $OUT/prof-pf.folded $OUT/prof-pf.folded.err \
		pagetouch touch_pages 3
fi
# every malloc call: exact under each site. perf record -e probe_libc:malloc -g gives
# exactly 3000 and 2000 (2 runs) and loses the immediate caller (malloc_one): see
# tests/workloads/mallocs.c. No bound: each call is one event.
if run profile_known_malloc_calls $OUT/prof-malloc.folded -e c:malloc -c 1 -f -- $WL/mallocs 3000 2000; then
	check profile_known_malloc_calls exact $OUT/prof-malloc.folded mallocs site_one 3000 site_two 2000
fi
# wall clock: computesleep's stacks add up to its own elapsed time +-3% (the issue's
# bound; its life from fork to exit is longer than main's by the exec, about 1 ms of
# 1.5 s), the stacks through sleep_here to its own slept time +-5% and all end in an
# off-CPU frame, those through compute_here to its own CPU time there +-5% (at 99 Hz
# per-task cpu-clock sampling perf counts F x CPU time within 0.2%, above).
if run profile_offcpu_wall_clock $OUT/prof-wall.folded --offcpu -f -- $WL/computesleep 1000 500; then
	STEAL_MS=$(ft_steal) check profile_offcpu_wall_clock wall \
		$OUT/prof-wall.folded $OUT/prof-wall.folded.err computesleep 3 sleep_here 5 compute_here 5
fi
# --state: the same, the sleep's time ends in [sleeping]_[o] (nanosleep: TASK_INTERRUPTIBLE)
if run profile_offcpu_state $OUT/prof-state.folded --offcpu --state -f -- $WL/computesleep 1000 500; then
	STEAL_MS=$(ft_steal) check profile_offcpu_state wall $OUT/prof-state.folded \
		$OUT/prof-state.folded.err computesleep 3 sleep_here 5 compute_here 5 '[sleeping]_[o]'
fi

# --offcpu's off-CPU stacks where a process is chosen: samples of every sched_switch
# beside the cpu-clock ones, with the same call graph. deepblock sleeps 20 x 50 ms under
# main -> f1 -> ... -> f12 -> nap -> nanosleep; it keeps frame pointers, Debian's libc
# has none: CFI (the default) gives the whole chain through libc to nap, the frame-
# pointer walk (--call-graph fp) loses nap only, ftrace's stacks (before) kept 8 user
# frames (f6..f12, clock_nanosleep: no main). The time on the chain is the workload's
# own off-CPU time (its offwin line: the kernel's counters), within offcpu's bounds
# (offcpu_check.py against_offwin), the design's 1 s.
CHAIN=main,f1,f2,f3,f4,f5,f6,f7,f8,f9,f10,f11,f12
if run profile_offcpu_stacks_whole $OUT/prof-deep.folded --offcpu -f -- $WL/deepblock; then
	PY=tests/live/offcpu_check.py check profile_offcpu_stacks_whole chain \
		$OUT/prof-deep.folded $OUT/prof-deep.folded.err dp-sleeper $CHAIN,nap do_nanosleep 1000000
	# every switch-out of the run had its sample (deepblock's 20 sleeps at least; a
	# switch-out of the command before its exec, when sampling begins, has none and is
	# counted apart, as offcpu_stacks_perf_all_matched allows), none lost (the footer:
	# "N samples, 0 lost")
	m=$(sed -n 's/^profile: off-CPU stacks from samples of sched_switch: \([0-9]*\) of [0-9]* switch-outs matched, 0 without.*/\1/p' \
		$OUT/prof-deep.folded.err)
	if [ -n "$m" ] && [ "$m" -ge 20 ] && grep -qE '[0-9]+ samples, 0 lost' $OUT/prof-deep.folded.err; then
		pass profile_offcpu_stacks_matched
	else
		fail profile_offcpu_stacks_matched "$(grep -E 'switch-outs|samples,' $OUT/prof-deep.folded.err | tr '\n' ' ')"
	fi
else
	skip profile_offcpu_stacks_matched "the run failed (profile_offcpu_stacks_whole)"
fi
if run profile_offcpu_stacks_fp $OUT/prof-deepfp.folded --offcpu --call-graph fp -f -- $WL/deepblock; then
	PY=tests/live/offcpu_check.py check profile_offcpu_stacks_fp chain \
		$OUT/prof-deepfp.folded $OUT/prof-deepfp.folded.err dp-sleeper $CHAIN do_nanosleep 1000000
fi
# a recording keeps one sampled event: -o FILE declines the switches' samples with one
# line, the off-CPU stacks are ftrace's (8 user frames: f12 kept), the time still known
if run profile_offcpu_stacks_recorded $OUT/prof-deeprec.folded --offcpu -f -o $OUT/prof-deep.dat \
	-- $WL/deepblock; then
	st=$(ft_steal)	# the live run's steal, for its file's check
	if [ "$(grep -c "^ftscope profile: profile's off-CPU stacks from ftrace .*: a recording keeps one sampled event" \
		$OUT/prof-deeprec.folded.err)" != 1 ]; then
		fail profile_offcpu_stacks_recorded "not one decline line: $(head -2 $OUT/prof-deeprec.folded.err | tr '\n' ' ')"
	elif run profile_offcpu_stacks_recorded $OUT/prof-deepi.folded --offcpu -f -i $OUT/prof-deep.dat; then
		STEAL_MS=$st PY=tests/live/offcpu_check.py check profile_offcpu_stacks_recorded known \
			$OUT/prof-deepi.folded $OUT/prof-deeprec.folded.err dp-sleeper f12 do_nanosleep 1000000
	fi
fi

# 3. The file: -o FILE keeps the run, -i FILE -f prints the same folded stacks. This
# compares ftscope with itself: a round trip of the file, no evidence that the numbers
# are right (the checks above are).
if run profile_file_round_trip $OUT/prof-live.folded -F 499 -f -o $OUT/prof.dat -- $WL/burn2 600 400 &&
   run profile_file_round_trip $OUT/prof-back.folded -i $OUT/prof.dat -f; then
	check profile_file_round_trip same $OUT/prof-live.folded $OUT/prof-back.folded
fi

# 4. The text view and --json against the folded stacks of the same run (read back
# from its file): consistency of each output with the data it shows, not evidence of
# correctness. main's rows tell self (about 0) from total (about 100%).
if run profile_text_view $OUT/prof-text.txt -F 499 -o $OUT/prof2.dat -- $WL/burn2 600 400 &&
   run profile_text_view $OUT/prof-text.folded -i $OUT/prof2.dat -f; then
	check profile_text_view text $OUT/prof-text.txt $OUT/prof-text.folded burn_a burn_b main
	if run profile_json $OUT/prof-text.json -i $OUT/prof2.dat --json; then
		check profile_json json $OUT/prof-text.json $OUT/prof-text.folded
	fi
else
	skip profile_json "a run failed (profile_text_view)"
fi

# 5. Bad input: one line on stderr, nothing on stdout, exit 2 for what the command
# line alone shows wrong (as every command: tests/live/bad_input.sh), 1 for what the
# machine refuses at run time (a process that is gone, as runqlat -p); nothing left
# open: no instance ftscope-PID-* and no probe group ftscope_PID_* of that run.
true & dead=$!
wait $dead
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
# name | arguments | exit status | a regular expression the error line must match
cases=(
	"unknown_event|-e cyclez -d 0.1|2|unknown event"
	"zero_frequency|-F 0 -d 0.1|2|invalid value"
	"frequency_above_max|-F 1000000 -d 0.1|[12]|perf_event_max_sample_rate|$max"
	"dead_pid|-p $dead -d 0.1|1|no process"
	"missing_tracepoint|-e sched:no_such_event -d 0.1|2|no tracepoint"
	"state_without_offcpu|--state -d 0.1|2|--offcpu"
	"frequency_and_period|-F 99 -c 10 -d 0.1|2|exclude each other"
	"user_and_kernel|-u -k -d 0.1|2|exclude each other"
)
# an event the machine lacks: a hardware one where perf stat finds no PMU (this VM);
# where there is one, it must be sampled instead
if perf stat -e cycles -x, true 2>&1 | grep -q 'not supported'; then
	cases+=("hardware_event_missing|-e cycles -d 0.1|1|does not support")
elif ft profile_hardware_event 0 profile -e cycles -c 1000000 -a -f -d 0.3 \
	> $OUT/prof-hw.folded 2>&1; then
	pass "profile_hardware_event (the PMU has cycles: sampled)"
else
	fail profile_hardware_event "perf counts cycles, profile -e cycles failed: $(tail -1 $OUT/prof-hw.folded)"
fi
for c in "${cases[@]}"; do
	IFS='|' read -r name args want word <<< "$c"
	# shellcheck disable=SC2086
	bad_case profile_bad_input_$name "$want" "$word" - profile $args
done
