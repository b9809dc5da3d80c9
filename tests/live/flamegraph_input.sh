#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: `ftscope flamegraph` reads bpftrace map output and perf script output
#              (hand-written in both tools' layouts, below): the folded stacks it
#              draws (-f) equal the expected ones byte for byte, the SVG carries their
#              counts, and damaged input is one error line with a non-zero exit;
#              50 MB of generated perf script output folds under a 20 MB
#              address-space cap (memory is the distinct stacks, not the input).
# requires: python3 for the SVG checks and the generator (no root, no tracing)
. tests/live/lib.sh
plan 24
D=$OUT/fg-input
mkdir -p $D

# fixture NAME: standard input to $D/NAME; a '$' ends a line whose trailing blanks
# matter (bpftrace prints "@off[comm, " and ", " before a stack)
fixture() {
	sed 's/\$$//' > $D/$1
}

# folded NAME INPUT [OPTION...]: `flamegraph -f INPUT` is $D/NAME.want, byte for byte
folded() {
	local name=$1 in=$2 rc
	shift 2
	ft $name 0 flamegraph -f "$@" $D/$in > $D/$name.out 2> $D/$name.err
	rc=$?
	if [ $rc -eq 0 ] && cmp -s $D/$name.want $D/$name.out; then
		pass $name
	else
		fail $name "exit $rc: $(diff $D/$name.want $D/$name.out | grep '^[<>]' | head -2 |
			tr '\n' '|') $(head -1 $D/$name.err)"
	fi
}

# damaged NAME WORD ARG...: one error line holding WORD, exit status 1 (a runtime error:
# the man page's FLAMEGRAPH), no output
damaged() {
	local name=flamegraph_input_damaged_$1 word=$2 rc
	shift 2
	ft $name 1 flamegraph "$@" > $D/$name.out 2> $D/$name.err < /dev/null
	rc=$?
	if [ $rc -lt 1 ] || [ $rc -gt 127 ]; then
		fail $name "exit status $rc"
	elif [ "$(wc -l < $D/$name.err)" -ne 1 ]; then
		fail $name "$(wc -l < $D/$name.err) lines on stderr: $(tr '\n' '|' < $D/$name.err)"
	elif ! grep -q "$word" $D/$name.err; then
		fail $name "error line lacks '$word': $(cat $D/$name.err)"
	elif [ -s $D/$name.out ]; then
		fail $name "output on stdout: $(head -1 $D/$name.out)"
	else
		pass $name
	fi
}

# --- bpftrace ---

# offcpu.sh's script (bpftrace 0.17: key stacks indented 4): @off[comm, ustack, kstack]
# beside a map without stacks. The user stack (unresolved addresses) goes first, the
# kernel stack after it; offsets go, so the two bk-reader entries are one stack.
fixture bt-offcpu <<'EOF'
Attaching 3 probes...
ready
ready



@n[bk-reader]: 10
@n[bk-sleeper]: 20
@off[bk-sleeper, $
    0x7f3a10c0e545
    0x5612ab0012c3
    0x5612ab0012f4
    0x7f3a10b981f5
, $
    __traceiter_sched_switch+65
    __schedule+1576
    schedule+35
    do_nanosleep+94
    hrtimer_nanosleep+181
    common_nsleep+48
    __x64_sys_clock_nanosleep+222
    do_syscall_64+113
    entry_SYSCALL_64_after_hwframe+118
]: 1000712
@off[bk-reader, $
    0x7f3a10c372ec
    0x5612ab001342
    0x5612ab001381
    0x7f3a10b981f5
, $
    __traceiter_sched_switch+65
    __schedule+1576
    schedule+35
    anon_pipe_read+915
    vfs_read+919
    ksys_read+195
    do_syscall_64+113
    entry_SYSCALL_64_after_hwframe+118
]: 1000388



EOF
# the reader's stack again, at another offset in __schedule
sed -n '/^@off\[bk-reader/,/^]:/p' $D/bt-offcpu |
	sed 's/__schedule+1576/__schedule+1580/; s/]: 1000388/]: 612/' >> $D/bt-offcpu
cat > $D/flamegraph_input_bpftrace_offcpu.want <<'EOF'
bk-reader;0x7f3a10b981f5;0x5612ab001381;0x5612ab001342;0x7f3a10c372ec;entry_SYSCALL_64_after_hwframe;do_syscall_64;ksys_read;vfs_read;anon_pipe_read;schedule;__schedule;__traceiter_sched_switch 1001000
bk-sleeper;0x7f3a10b981f5;0x5612ab0012f4;0x5612ab0012c3;0x7f3a10c0e545;entry_SYSCALL_64_after_hwframe;do_syscall_64;__x64_sys_clock_nanosleep;common_nsleep;hrtimer_nanosleep;do_nanosleep;schedule;__schedule;__traceiter_sched_switch 1000712
EOF
folded flamegraph_input_bpftrace_offcpu bt-offcpu

# @[kstack] as newer bpftrace prints it (indented 8, file:line and inlined frames from
# debug info): decimal and hex offsets and the file:line go, equal stacks merge
fixture bt-kstack <<'EOF'
@[
        do_nanosleep+94@kernel/time/hrtimer.c:2045
        [inlined] hrtimer_nanosleep@kernel/time/hrtimer.c:2100
        common_nsleep+48
        entry_SYSCALL_64_after_hwframe+118
]: 3
@[
        do_nanosleep+0x5e
        [inlined] hrtimer_nanosleep@kernel/time/hrtimer.c:2101
        common_nsleep+0x30
        entry_SYSCALL_64_after_hwframe+0x76
]: 4
@[
        tick_nohz_idle_enter+31
        do_idle+12
        cpu_startup_entry+25
]: 2
EOF
cat > $D/flamegraph_input_bpftrace_kstack.want <<'EOF'
cpu_startup_entry;do_idle;tick_nohz_idle_enter 2
entry_SYSCALL_64_after_hwframe;common_nsleep;[inlined] hrtimer_nanosleep;do_nanosleep 7
EOF
folded flamegraph_input_bpftrace_kstack bt-kstack

# @[kstack, ustack, comm] (the profile one-liner's key): comm is the root; stacks that
# neither addresses nor entry points tell apart read as stackcollapse-bpftrace.pl reads
# the key, leaf first top to bottom (user stack, then kernel stack); empty stacks as
# bpftrace 0.17 ("") and later ("\n") print them
fixture bt-profile <<'EOF'
@[
    finish_task_switch+5
    schedule+35
    do_nanosleep+94
, $
    clock_nanosleep+69
    main+52
    __libc_start_main+243
, napper]: 8
@[, $
    spin+9
    main+30
, spinner]: 40
@[
, $
    spin+12
    main+30
, spinner]: 2
@[
    worker_thread+370
    kthread+232
    ret_from_fork+34
, $
, kworker/0:1]: 7
EOF
cat > $D/flamegraph_input_bpftrace_kstack_ustack_comm.want <<'EOF'
kworker/0:1;ret_from_fork;kthread;worker_thread 7
napper;__libc_start_main;main;clock_nanosleep;do_nanosleep;schedule;finish_task_switch 8
spinner;main;spin 42
EOF
folded flamegraph_input_bpftrace_kstack_ustack_comm bt-profile

# @off[comm, ustack, kstack] with every frame named: the kernel stack, known by its entry
# point, goes after the user stack (not the reverse key order)
fixture bt-named <<'EOF'
@off[napper, $
    clock_nanosleep+69
    main+52
, $
    schedule+35
    do_nanosleep+94
    entry_SYSCALL_64_after_hwframe+118
]: 9
EOF
cat > $D/flamegraph_input_bpftrace_kernel_entry.want <<'EOF'
napper;main;clock_nanosleep;entry_SYSCALL_64_after_hwframe;do_nanosleep;schedule 9
EOF
folded flamegraph_input_bpftrace_kernel_entry bt-named

# @name[comm, kstack]: comm first in the key, still the root
fixture bt-comm-kstack <<'EOF'
@blk[dd, $
    blk_mq_submit_bio+1234
    submit_bio_noacct+100
    ext4_io_submit+60
]: 11
@blk[kworker/u8:2, $
    blk_mq_submit_bio+1234
    submit_bio_noacct+100
    wb_workfn+300
]: 3
EOF
cat > $D/flamegraph_input_bpftrace_comm_kstack.want <<'EOF'
dd;ext4_io_submit;submit_bio_noacct;blk_mq_submit_bio 11
kworker/u8:2;wb_workfn;submit_bio_noacct;blk_mq_submit_bio 3
EOF
folded flamegraph_input_bpftrace_comm_kstack bt-comm-kstack

# kstack(perf) (address, symbol) between two values; kstack(raw) (bare addresses);
# a value after a stack without ", " before it
fixture bt-modes <<'EOF'
@io[4242, $
	ffffffff8a3c1d2e blk_mq_submit_bio+1234
	ffffffff8a3c1e00 submit_bio_noacct+100
, dd]: 6
@io[4243, $
ffffffff8a3c1d2e
ffffffff8a3c1e00
, dd]: 2
@io[4244, $
        0x7f3a10c0e545
        0x5612ab0012c3
napper]: 5
EOF
cat > $D/flamegraph_input_bpftrace_stack_modes.want <<'EOF'
4242;dd;submit_bio_noacct;blk_mq_submit_bio 6
4243;dd;ffffffff8a3c1e00;ffffffff8a3c1d2e 2
4244;napper;0x5612ab0012c3;0x7f3a10c0e545 5
EOF
folded flamegraph_input_bpftrace_stack_modes bt-modes

# --- perf script ---

# perf record -g -a: "comm tid [cpu] time: period event:", frames leaf first; one
# count a sample; [unknown] becomes the module's name; C++ arguments go, Go's
# "(*T)" stays; a comm with a space gets '_', as stackcollapse-perf.pl does
fixture perf-cg <<'EOF'
# ========
# captured on    : Sat Jan  4 10:00:00 2025
# cmdline : /usr/bin/perf record -g -a -F 99 -- sleep 1
# ========
#
napper  4242 [001]  5210.123456:   10101010 cpu-clock:ppp: $
	ffffffff8a3c1d2e do_nanosleep+0x5e ([kernel.kallsyms])
	ffffffff8a3c1e00 hrtimer_nanosleep+0xb5 ([kernel.kallsyms])
	ffffffff8a000070 entry_SYSCALL_64_after_hwframe+0x76 ([kernel.kallsyms])
	    7f3a10c0e545 clock_nanosleep+0x45 (/usr/lib/x86_64-linux-gnu/libc.so.6)
	    5612ab0012c3 [unknown] (/tmp/napper)
	    7f3a10b981f5 __libc_start_main+0xf3 (/usr/lib/x86_64-linux-gnu/libc.so.6)

V8 Worker  4250 [000]  5210.133600:   10101010 cpu-clock:ppp: $
	    5612ab036000 ns::Worker::run(int) const+0x1c (/opt/app/bin/app)
	    5612ab036100 (anonymous namespace)::dispatch(long)+0x10 (/opt/app/bin/app)
	    5612ab036200 net/http.(*Client).Do+0x10 (/opt/app/bin/app)
	    7f3a10c372ec [unknown] ([unknown])

swapper     0 [002]  5210.133700:   10101010 cpu-clock:ppp: $
	ffffffff8a5a1a10 intel_idle+0x20 ([kernel.kallsyms])
	ffffffff8a5a2000 cpuidle_enter_state+0x89 ([kernel.kallsyms])
	ffffffff8a0c3000 do_idle+0x1e5 ([kernel.kallsyms])
	ffffffff8a0c3100 cpu_startup_entry+0x1d ([kernel.kallsyms])
	ffffffff8a000100 secondary_startup_64_no_verify+0x15e ([kernel.kallsyms])

EOF
# napper's sample again, 10 ms later, at another offset in do_nanosleep
sed -n '/^napper/,/^$/p' $D/perf-cg | sed 's/5210.123456/5210.133556/;
	s/ffffffff8a3c1d2e do_nanosleep+0x5e/ffffffff8a3c1d31 do_nanosleep+0x61/' >> $D/perf-cg
cat > $D/flamegraph_input_perf_callchains.want <<'EOF'
V8_Worker;[unknown];net/http.(*Client).Do;(anonymous namespace)::dispatch;ns::Worker::run 1
napper;__libc_start_main;[napper];clock_nanosleep;entry_SYSCALL_64_after_hwframe;hrtimer_nanosleep;do_nanosleep 2
swapper;secondary_startup_64_no_verify;cpu_startup_entry;do_idle;cpuidle_enter_state;intel_idle 1
EOF
folded flamegraph_input_perf_callchains perf-cg

# "comm pid/tid time:" (perf script -F +pid), two events: the first one's samples only,
# and a note says so; the file ends without a blank line
fixture perf-events <<'EOF'
napper  4242/4242  5210.123456:     250000 cycles: $
	ffffffff8a3c1d2e do_nanosleep+0x5e ([kernel.kallsyms])
	    7f3a10c0e545 clock_nanosleep+0x45 (/usr/lib/x86_64-linux-gnu/libc.so.6)

napper  4242/4242  5210.123999:     100000 instructions: $
	ffffffff8a3c1d2e do_nanosleep+0x5e ([kernel.kallsyms])

napper  4242/4242  5210.124456:     250000 cycles: $
	    7f3a10c0e545 clock_nanosleep+0x45 (/usr/lib/x86_64-linux-gnu/libc.so.6)
EOF
cat > $D/flamegraph_input_perf_first_event.want <<'EOF'
napper;clock_nanosleep 1
napper;clock_nanosleep;do_nanosleep 1
EOF
folded flamegraph_input_perf_first_event perf-events
if grep -q 'drew the 2 samples of cycles, left out 1 of other events' \
	$D/flamegraph_input_perf_first_event.err; then
	pass flamegraph_input_perf_first_event_note
else
	fail flamegraph_input_perf_first_event_note "$(cat $D/flamegraph_input_perf_first_event.err)"
fi

# perf record without -g: the sample's own ip on its header line
fixture perf-nocg <<'EOF'
            perf  1234 [000]  100.000001:          1 cycles:  ffffffff81001234 native_write_msr+0x4 ([kernel.kallsyms])
            perf  1234 [000]  100.000002:          1 cycles:  ffffffff81001234 native_write_msr+0x4 ([kernel.kallsyms])
         swapper     0 [001]  100.000003:          1 cycles:  ffffffff81001300 intel_idle+0x20 ([kernel.kallsyms])
EOF
cat > $D/flamegraph_input_perf_no_callchain.want <<'EOF'
perf;native_write_msr 2
swapper;intel_idle 1
EOF
folded flamegraph_input_perf_no_callchain perf-nocg

# --diff of two bpftrace maps: each stack's count before and after
sed 's/]: 11/]: 5/; s/]: 3/]: 9/' $D/bt-comm-kstack > $D/bt-comm-kstack-after
cat > $D/flamegraph_input_diff_bpftrace.want <<'EOF'
dd;ext4_io_submit;submit_bio_noacct;blk_mq_submit_bio 11 5
kworker/u8:2;wb_workfn;submit_bio_noacct;blk_mq_submit_bio 3 9
EOF
folded flamegraph_input_diff_bpftrace bt-comm-kstack-after --diff $D/bt-comm-kstack

# svg NAME INPUT TITLE...: the SVG of INPUT parses and has a frame with each title
svg() {
	local name=$1 in=$2 r
	shift 2
	if ft $name 0 flamegraph $D/$in > $D/$name.svg 2> $D/$name.err &&
	   r=$(python3 - $D/$name.svg "$@" 2>&1 <<'PY'
import sys, xml.dom.minidom
doc = xml.dom.minidom.parse(sys.argv[1])
titles = {g.getElementsByTagName('title')[0].firstChild.data
          for g in doc.getElementsByTagName('g') if g.getElementsByTagName('rect')}
missing = [t for t in sys.argv[2:] if t not in titles]
if missing:
    sys.exit(f'missing {missing}; has {sorted(titles)[:6]}')
PY
	); then
		pass $name
	else
		fail $name "$(echo "$r" | tail -1) $(head -1 $D/$name.err)"
	fi
}

# the SVGs: each frame's title carries its count and share
svg flamegraph_input_svg_bpftrace bt-comm-kstack 'all (14 samples, 100.00%)' \
	'dd (11 samples, 78.57%)' 'ext4_io_submit (11 samples, 78.57%)' \
	'kworker/u8:2 (3 samples, 21.43%)' 'wb_workfn (3 samples, 21.43%)'
svg flamegraph_input_svg_perf perf-cg 'all (4 samples, 100.00%)' 'napper (2 samples, 50.00%)' \
	'[napper] (2 samples, 50.00%)' 'V8_Worker (1 samples, 25.00%)' \
	'intel_idle (1 samples, 25.00%)'

# --- a large input streams: memory is the distinct stacks, not the input ---

# 50 MB of perf script output (tests/bench/perf_script_gen.py: 300 distinct callchains,
# 29018 samples, 890340 lines), from a file and from a pipe, folds to the generator's
# own totals under an address-space cap of 20 MB (ulimit -v 20480). Measured by
# bisecting ulimit -v (x86_64, Debian 12, gcc 12 -O2, glibc 2.36): the streaming
# reader needs 6.5 MB of address space for it, the whole-input reader before it
# 125 MB (2.5 times the input), so that one fails here. ASan's shadow memory takes
# terabytes of address space: under ASan the cap is left off, the totals still held.
CAP=20480
nm "$FTSCOPE" 2>/dev/null | grep -q __asan_init && CAP=unlimited
python3 tests/bench/perf_script_gen.py --mb 50 --folded $D/stream.want > $D/stream.perf
for how in file pipe; do
	name=flamegraph_input_stream_$how
	if [ $how = file ]; then
		(ulimit -v $CAP && ft $name 0 flamegraph -f $D/stream.perf) > $D/$name.out 2> $D/$name.err
		rc=$?
	else
		cat $D/stream.perf | (ulimit -v $CAP && ft $name 0 flamegraph -f) > $D/$name.out \
			2> $D/$name.err
		rc=${PIPESTATUS[1]}
	fi
	if [ $rc -eq 0 ] && cmp -s $D/stream.want $D/$name.out; then
		pass $name
	else
		fail $name "ulimit -v $CAP: exit $rc, $(wc -l < $D/$name.out) of $(wc -l < \
			$D/stream.want) stacks: $(head -c 200 $D/$name.err)"
	fi
done
rm -f $D/stream.perf

# --- damaged input: one error line, never a graph ---
head -20 $D/bt-offcpu > $D/bad-cut
sed 's/]: 3$/]: count 3, average 1, total 3/' $D/bt-kstack > $D/bad-stats
sed '3s/.*/hello world/' $D/bt-kstack > $D/bad-stray
sed '7s/^@\[/@other[/' $D/bt-kstack > $D/bad-maps
printf '@n[bk-reader]: 10\n@n[bk-sleeper]: 20\n' > $D/bad-nostacks
sed '9s/.*/\tnot an address here/' $D/perf-cg > $D/bad-perf
printf 'main;a 5\nmain;b five\n' > $D/bad-folded
head -5 $D/perf-cg > $D/bad-nosamples
damaged bpftrace_cut_short "line 9: the key of @off\[ never ends" $D/bad-cut
damaged bpftrace_not_a_count "line 6: the value of @\[ (line 1) is not a count" $D/bad-stats
damaged bpftrace_stray_line "line 3: 'hello world' in the key of @\[" $D/bad-stray
damaged bpftrace_two_maps "line 7: stacks of two maps" $D/bad-maps
damaged bpftrace_no_stacks "holds no bpftrace map with stacks" $D/bad-nostacks
damaged perf_frame "line 9: neither a perf script" $D/bad-perf
damaged perf_no_samples "holds no perf script samples" --format perf $D/bad-nosamples
damaged perf_forced_on_bpftrace "line 1: neither a perf script" --format perf $D/bt-kstack
damaged folded_line "line 2: not folded stacks" $D/bad-folded
