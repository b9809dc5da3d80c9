#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: offcpu --stacks perf: a sleep 14 user frames deep (tests/workloads/
#              deepblock) keeps its whole chain, where ftrace's 8 user frames cut it;
#              the same frames as perf record -e sched:sched_switch -g on the same run;
#              the known blocked time; -o/-i round trip; bad input.
# requires: root; perf for the peer check (skipped without it)
. tests/live/lib.sh
plan 19
need_root offcpu_stacks_perf_chain || exit 0
PY=tests/live/offcpu_check.py
CHAIN=main,f1,f2,f3,f4,f5,f6,f7,f8,f9,f10,f11,f12


# noted FILE: "M N" of the note "stacks from perf samples ...: M of N switch-outs matched"
noted() {
	sed -n 's/.*stacks from perf samples of sched_switch: \([0-9]*\) of \([0-9]*\) .*/\1 \2/p' $1
}

# outs SCRIPT: perf script's sched_switch lines of dp-sleeper's switch-outs, by the record's
# prev_comm (the kernel's format, or perf 6.12's sched_switch plugin: "dp-sleeper:PID [PRIO] S ==>")
outs() {
	grep -E 'sched:sched_switch: (prev_comm=dp-sleeper prev_pid=|dp-sleeper:[0-9]+ \[)' $1
}

# one run, perf recording every sched_switch with callchains around it: 20 x 50 ms
# asleep under main -> f1 -> ... -> f12 -> nap -> nanosleep; both frame-pointer walks
# (--call-graph fp, as perf's -g: CFI unwinding, the default, is tests/live/unwind.sh's)
have_perf=1
perf record -q -o $OUT/stk-probe.data -e sched:sched_switch -- true >/dev/null 2>&1 || have_perf=0
rm -f $OUT/stk-probe.data
run=(offcpu --stacks perf --call-graph fp -f --delimited -o $OUT/stk.dat -- $WL/deepblock)
if [ $have_perf = 1 ]; then
	FT_WITH="perf record -q -m 1024 -e sched:sched_switch -g -a -o $OUT/stk-perf.data --" \
		ft offcpu_stacks_perf_chain 0 "${run[@]}" > $OUT/stk.folded 2>$OUT/stk.err
else
	ft offcpu_stacks_perf_chain 0 "${run[@]}" > $OUT/stk.folded 2>$OUT/stk.err
fi
rc=$?
st=$(ft_steal)	# the live run's steal, for the read back's check too
if [ $rc != 0 ]; then
	fail offcpu_stacks_perf_chain "exit $rc: $(tail -1 $OUT/stk.err)"
	for n in offcpu_stacks_perf_matches_perf offcpu_stacks_perf_all_matched \
		 offcpu_stacks_perf_file; do
		skip $n "the run failed (offcpu_stacks_perf_chain)"
	done
else
	# the whole chain, main to f12 (nap is missing: libc keeps no frame pointers), over
	# the workload's own off-CPU time, bounded as offcpu.sh's known checks
	check offcpu_stacks_perf_chain chain $OUT/stk.folded $OUT/stk.err dp-sleeper $CHAIN \
		do_nanosleep 1000000
	if [ $have_perf = 1 ]; then
		perf script -i $OUT/stk-perf.data > $OUT/stk-perf.script 2>/dev/null
		check offcpu_stacks_perf_matches_perf perfpeer $OUT/stk.folded $OUT/stk-perf.script \
			dp-sleeper S 20
		# every switch-out offcpu counts (any state but R, and not the exit) had its
		# sample: as many as perf recorded of the workload; none went without one but
		# a switch-out of the command before its exec, when sampling begins (it
		# happens when the command waits for its go before ftscope gives it)
		# The exit's switch-out (Z) has its sample when the task's event is still
		# open then, as perf's -a event had it: it counts when matched, not otherwise.
		# (the state as the kernel prints it, "prev_state=S ==>", or as perf 6.12's
		# sched_switch plugin does, "dp-sleeper:9358 [139] S ==>")
		# The rows are the workload's switch-outs by the record's own prev_comm, not by
		# perf's comm column: perf 6.12 has forgotten the thread at its exit's switch
		# (its EXIT record came first) and names it otherwise (Debian 13: 21 matched,
		# perf's column showed 20 rows and no exit)
		want=$(outs $OUT/stk-perf.script | grep -cvE '(prev_state=|:[0-9]+ \[-?[0-9]+\] )(R|R\+|X|Z) ==> ')
		exits=$(outs $OUT/stk-perf.script | grep -cE '(prev_state=|:[0-9]+ \[-?[0-9]+\] )(X|Z) ==> ')
		got=$(noted $OUT/stk.err | cut -d' ' -f1)
		missed=$(sed -n 's/.* \([0-9]*\) switch-outs without their sample.*/\1/p' $OUT/stk.err)
		[ -n "$got" ] && [ "$got" -gt "$want" ] && [ "$got" -le $((want + exits)) ] &&
			want=$got
		got="$got ${missed:-0}"
		if [ "$got" = "$want 0" ]; then
			pass offcpu_stacks_perf_all_matched
		else
			# what perf lost (4 MB a CPU keeps it at 0 here) and the workload's rows'
			# states, for a failure to be read (Debian 13 once: 21 matched, perf 20)
			lost=$(perf report --stats -i $OUT/stk-perf.data 2>/dev/null |
				awk '/LOST(_SAMPLES)? events:/ { n += $3 } END { print n + 0 }')
			states=$(outs $OUT/stk-perf.script |
				sed -nE 's/.*(prev_state=|:[0-9]+ \[-?[0-9]+\] )([A-Z+]+) ==> .*/\2/p' | tr -d '\n')
			fail offcpu_stacks_perf_all_matched "matched/without a sample '$got', perf saw $want\
 ($exits exits; perf lost $lost; states $states)"
		fi
		echo "# offcpu_stacks_perf_all_matched: matched, without a sample: $got (perf: $want switch-outs)"
	else
		skip offcpu_stacks_perf_matches_perf "perf record cannot record sched_switch here"
		skip offcpu_stacks_perf_all_matched "perf record cannot record sched_switch here"
	fi
	# read back: the same stacks and times from the samples the file kept
	ft offcpu_stacks_perf_file 0 offcpu --stacks perf -f --delimited -i $OUT/stk.dat \
		> $OUT/stk-i.folded 2>$OUT/stk-i.err
	if cmp -s $OUT/stk.folded $OUT/stk-i.folded; then
		STEAL_MS=$st check offcpu_stacks_perf_file chain $OUT/stk-i.folded $OUT/stk.err dp-sleeper \
			$CHAIN do_nanosleep 1000000
	else
		fail offcpu_stacks_perf_file "-i gives other stacks: $(diff $OUT/stk.folded \
			$OUT/stk-i.folded | head -3 | tr '\n' ' ') $(tail -1 $OUT/stk-i.err)"
	fi
fi

# ftrace's userstacktrace (the default of the whole system): 8 user frames,
# clock_nanosleep f12 .. f6: the chain is cut (main absent), the time is the same
ft offcpu_stacks_ftrace_cut 0 offcpu --stacks ftrace -f --delimited -- $WL/deepblock \
	> $OUT/stk-ft.folded 2>$OUT/stk-ft.err
check offcpu_stacks_ftrace_cut cut $OUT/stk-ft.folded dp-sleeper f12 8 main
check offcpu_stacks_ftrace_known known $OUT/stk-ft.folded $OUT/stk-ft.err dp-sleeper f12 \
	do_nanosleep 1000000
if python3 $PY chain $OUT/stk-ft.folded $OUT/stk-ft.err dp-sleeper $CHAIN do_nanosleep \
	1000000 >/dev/null; then
	fail offcpu_stacks_ftrace_differs "ftrace's stacks hold the whole chain: no difference shown"
else
	pass offcpu_stacks_ftrace_differs
fi

# The default for a command: perf samples, user stacks unwound by CFI (deepblock keeps
# frame pointers, libc has none: the frame-pointer walk loses nap, 8 frames cut main):
# the whole chain, the known time; -o keeps the samples and -i without options reads
# them back (the same lines)
ft offcpu_stacks_default_whole 0 offcpu -f --delimited -o $OUT/stk-dflt.dat -- $WL/deepblock \
	> $OUT/stk-dflt.folded 2>$OUT/stk-dflt.err
check offcpu_stacks_default_whole chain $OUT/stk-dflt.folded $OUT/stk-dflt.err dp-sleeper \
	$CHAIN,nap do_nanosleep 1000000
ft offcpu_stacks_default_file 0 offcpu -f --delimited -i $OUT/stk-dflt.dat \
	> $OUT/stk-dflt-i.folded 2>$OUT/stk-dflt-i.err
# (its notes too: the unwinding counts are kept in the file)
if cmp -s $OUT/stk-dflt.folded $OUT/stk-dflt-i.folded && grep -q 'stacks from perf samples' \
	$OUT/stk-dflt-i.err && grep -q 'unwound by CFI' $OUT/stk-dflt-i.err &&
   diff <(grep -v '^offwin ' $OUT/stk-dflt.err) $OUT/stk-dflt-i.err > /dev/null; then
	pass offcpu_stacks_default_file
else
	fail offcpu_stacks_default_file "-i gives other stacks: $(diff $OUT/stk-dflt.folded \
		$OUT/stk-dflt-i.folded | head -3 | tr '\n' ' ') $(diff <(grep -v '^offwin ' \
		$OUT/stk-dflt.err) $OUT/stk-dflt-i.err | head -3 | tr '\n' ' ')"
fi
# A process that execs on CPU 1 and maps a library (zlib) on CPU 0: the exec's COMM
# record and the library's MMAP2 sit in two CPUs' sampling rings, and are applied in
# time order (in ring order the exec came last, forgot the library, and 11 of 12 stacks
# stopped at its code). The chain main -> inflateInit2_ (libz) -> nap_alloc, 10 x 20 ms.
if [ "$(nproc)" -ge 2 ]; then
	ft offcpu_stacks_exec_moved 0 offcpu -f -- $WL/execmove > $OUT/stk-em.folded \
		2>$OUT/stk-em.err
	if grep -q '^execmove: exec cpu 1, map cpu 0$' $OUT/stk-em.err; then
		check offcpu_stacks_exec_moved chain $OUT/stk-em.folded $OUT/stk-em.err em-napper \
			main,inflateInit2_,nap_alloc do_nanosleep 200000
	else
		fail offcpu_stacks_exec_moved "the workload did not move: $(head -2 $OUT/stk-em.err)"
	fi
else
	skip offcpu_stacks_exec_moved "one CPU: no second ring"
fi
# the whole system keeps ftrace's stacks (every switch of the machine would copy 8 KB)
ft offcpu_stacks_default_system 0 offcpu -f -d 1 > /dev/null 2>$OUT/stk-sys.err
if ! grep -q 'perf samples\|samples,' $OUT/stk-sys.err; then
	pass offcpu_stacks_default_system
else
	fail offcpu_stacks_default_system "$(grep 'samples' $OUT/stk-sys.err | head -2)"
fi
# another analyzer samples: offcpu says so in one line and takes ftrace's stacks
ft offcpu_stacks_default_declined 0 report offcpu profile -- $WL/deepblock 4 10 \
	> $OUT/stk-rep.out 2>$OUT/stk-rep.err
if [ "$(grep -c "^ftscope report: offcpu's stacks from ftrace .*: profile samples this run" \
	$OUT/stk-rep.err)" = 1 ] &&
   ! grep -q 'stacks from perf samples' $OUT/stk-rep.out $OUT/stk-rep.err &&
   grep -q '^offcpu: user stacks (frame-pointer walk)' $OUT/stk-rep.out; then
	pass offcpu_stacks_default_declined
else
	fail offcpu_stacks_default_declined "$(head -3 $OUT/stk-rep.err | tr '\n' ' ')"
fi

# offcpu.sh's known blocks with perf's stacks: 20 x 50 ms asleep, 10 x 100 ms reading
ft offcpu_stacks_perf_known_sleep 0 offcpu --stacks perf -f -- $WL/blocker > $OUT/stk-bk.folded \
	2>$OUT/stk-bk.err
check offcpu_stacks_perf_known_sleep known $OUT/stk-bk.folded $OUT/stk-bk.err bk-sleeper \
	sleep_here do_nanosleep 1000000
check offcpu_stacks_perf_known_pipe_read known $OUT/stk-bk.folded $OUT/stk-bk.err bk-reader \
	read_here pipe_read 1000000

# bad NAME WANT ARGS...: bad input: one line, exit WANT: 2 (usage) or 1 (a file without samples)
bad() {
	local name=$1 want=$2 rc
	shift 2
	ft $name $want "$@" > $OUT/stk-bad.out 2>$OUT/stk-bad.err
	rc=$?
	if [ $rc = $want ] && [ "$(wc -l < $OUT/stk-bad.err)" = 1 ] && [ ! -s $OUT/stk-bad.out ]; then
		pass $name
	else
		fail $name "exit $rc (want $want): $(head -2 $OUT/stk-bad.err | tr '\n' ' ')"
	fi
}
bad offcpu_stacks_bad_source 2 offcpu --stacks dwarf -d 1
# --wakers with perf stacks: the waker's stack from its sample of sched_waking (one
# event per CPU, filtered on the wakee: the command and the threads it makes). chains
# is built -O2 without frame pointers: ch-writer wakes ch-reader by a pipe write every
# 100 ms, from writer() (a static function, start_thread's callee); its whole stack
# holds writer and the kernel's pipe_write, where a frame-pointer walk (ftrace's, or
# --call-graph fp) keeps `write` alone. (Not start_thread: libc's local symbols are
# named only where its debug file is installed, libc6-dbg; a fresh root has none and
# shows libc.so.6+0x891f4.) Time: ch-reader's own off-CPU
# time in its reads (10 x 100 ms), within offcpu's bounds.
ft offcpu_stacks_perf_wakers 0 offcpu --wakers --stacks perf -f -- $WL/chains \
	> $OUT/stk-wk.folded 2>$OUT/stk-wk.err
check offcpu_stacks_perf_wakers wchain $OUT/stk-wk.folded $OUT/stk-wk.err ch-reader ch-writer \
	writer pipe_write 1000000
# the same with no option: --wakers with a command takes perf stacks for both sides (its
# default before took ftrace's, whose waker stack keeps `write` alone: this check fails so)
ft offcpu_stacks_default_wakers 0 offcpu --wakers -f -- $WL/chains > $OUT/stk-wkd.folded \
	2>$OUT/stk-wkd.err
check offcpu_stacks_default_wakers wchain $OUT/stk-wkd.folded $OUT/stk-wkd.err ch-reader \
	ch-writer writer pipe_write 1000000
ft offcpu_stacks_perf_file_without_samples 0 offcpu --stacks ftrace -o $OUT/stk-ft.dat -- \
	$WL/deepblock 2 10 >/dev/null 2>&1
bad offcpu_stacks_perf_file_without_samples 1 offcpu --stacks perf -i $OUT/stk-ft.dat
# the same file read with the default: ftrace's stack records, as --stacks ftrace reads them
ft offcpu_stacks_default_file_ftrace 0 offcpu -f -i $OUT/stk-ft.dat > $OUT/stk-fti.folded \
	2>$OUT/stk-fti.err
ft offcpu_stacks_default_file_ftrace 0 offcpu --stacks ftrace -f -i $OUT/stk-ft.dat \
	> $OUT/stk-fti2.folded 2>/dev/null
if [ -s $OUT/stk-fti.folded ] && cmp -s $OUT/stk-fti.folded $OUT/stk-fti2.folded &&
   ! grep -q 'perf samples\|holds no' $OUT/stk-fti.err; then
	pass offcpu_stacks_default_file_ftrace
else
	fail offcpu_stacks_default_file_ftrace "$(diff $OUT/stk-fti.folded $OUT/stk-fti2.folded |
		head -3 | tr '\n' ' ') $(head -2 $OUT/stk-fti.err)"
fi
