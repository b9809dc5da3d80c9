#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: hist --key kstack / ustack (stackcount on a tracepoint): stackcalls' getppid
#              calls counted under each user call chain as its design makes them, under
#              the system call's kernel path, against bpftrace's @[kstack] and @[ustack] of
#              the same run; a recording gives the same rows (folded, JSON, --svg); bad use;
#              the global tracing state (its stacktrace options) as before.
# requires: root, syscalls tracepoints; bpftrace for the peer check
. tests/live/lib.sh
plan 10
need_root hist_stacks || exit 0
before=$(global_state)
PY=tests/live/hist_stack_check.py
EV=syscalls:sys_enter_getppid
# stackcalls A B MS: leaf's own syscall instruction A times under caller_a, B under
# caller_b; it lives MS ms after, so that ftscope reads its maps (ftrace's user stacks
# are addresses, named against the process's maps while it runs: 100 ms rounds, the
# records handed on 20 ms after they were made)
A=300
B=700
cat > $OUT/hstk.bt << 'BT'
tracepoint:syscalls:sys_enter_getppid /comm == "stackcalls"/ { @k[kstack] = count(); @u[ustack] = count(); }
tracepoint:syscalls:sys_enter_getppid /comm == "ftscope-hstkp"/ { printf("ready\n"); }
BT
PING=$OUT/ftscope-hstkp
cp $WL/stackcalls $PING
attached() {
	$PING 1 0 > /dev/null 2>&1
	grep -q '^ready' $OUT/hstk-bt.out
}
bt_start $OUT/hstk-bt.out attached $OUT/hstk.bt
ft hist_stack_user_callers 0 hist -e $EV --key kstack,ustack -f -o $OUT/hstk.dat -- \
	$WL/stackcalls $A $B 1000 > $OUT/hstk.fold 2> $OUT/hstk.err
[ -n "$bt" ] && stop_bpftrace $bt

# hist_stack_user_callers: the workload's design: leaf's calls under caller_a, A of them,
# and under caller_b, B, each row main;caller;leaf (the frame-pointer walk from leaf's
# own system call), nothing else
check hist_stack_user_callers callers $OUT/hstk.fold $A $B

# hist_stack_kernel_path: every record (A + B) under the system call's kernel path,
# entry_SYSCALL_64 .. do_syscall_64 .., the tracing code's own frames left out
check hist_stack_kernel_path kernel $OUT/hstk.fold $((A + B))

# hist_stack_matches_bpftrace: bpftrace's @k[kstack] and @u[ustack] of the same calls
# (filtered by comm): its kernel stacks, less its own probe's frames on top
# (perf_syscall_enter, __traceiter_sys_enter), name the same functions with the same
# counts; its user stacks (addresses: the process is gone when it prints) split the
# records as ours, with as many frames
name=hist_stack_matches_bpftrace
if [ -z "$bt" ]; then
	fail $name "$bt_why"
else
	check $name peer $OUT/hstk.fold $OUT/hstk-bt.out
fi

# hist_stack_file: the recording gives the live run's rows byte for byte (its maps kept)
name=hist_stack_file
ft $name 0 hist -i $OUT/hstk.dat -e $EV --key kstack,ustack -f > $OUT/hstk-file.fold \
	2> $OUT/hstk-file.err
if [ -s $OUT/hstk.fold ] && cmp -s $OUT/hstk.fold $OUT/hstk-file.fold; then
	pass $name
else
	fail $name "$(diff $OUT/hstk.fold $OUT/hstk-file.fold | head -5)"
fi

# hist_stack_json: with comm as a third key, the JSON rows (stacks innermost first) are
# the folded lines (comm, then roots first) of the same file
name=hist_stack_json
ft $name 0 hist -i $OUT/hstk.dat -e $EV --key comm,kstack,ustack -f > $OUT/hstk-c.fold \
	2> /dev/null
ft $name 0 hist -i $OUT/hstk.dat -e $EV --key comm,kstack,ustack --json > $OUT/hstk.json
check $name json $OUT/hstk.json $OUT/hstk-c.fold

# hist_stack_svg: --svg's flame graph holds each caller with its records
name=hist_stack_svg
ft $name 0 hist -i $OUT/hstk.dat -e $EV --key ustack --svg $OUT/hstk.svg > /dev/null
if grep -q "<title>caller_a ($A records" $OUT/hstk.svg &&
   grep -q "<title>caller_b ($B records" $OUT/hstk.svg; then
	pass $name
else
	fail $name "$(grep -o '<title>caller_[ab] ([^)]*)' $OUT/hstk.svg 2>&1 | head -2)"
fi

# hist_stack_unmapped_noted: stackcalls without a pause exits before the reader has
# read its maps (ftrace's user stacks are addresses): its records stand under
# [unknown] user frames, exactly as many as the note counts (any the reader named in
# time stand under the designed rows)
name=hist_stack_unmapped_noted
ft $name 0 hist -e $EV --key ustack --json -- $WL/stackcalls 30 70 0 > $OUT/hstk-gone.json \
	2> /dev/null
check $name unmapped $OUT/hstk-gone.json 30 70

# hist_stack_unread_records: a whole-system recording with kernel stacks of wakeups
# beside interrupt, softirq and timer records that hist does not read: every wakeup's
# stack is a wakeup's (the tracepoint lies inside try_to_wake_up, or a remote wakeup's
# sched_ttwu_pending), never the stack of a record hist passed over (before: 356 of
# 1045 wakeups under handlers' stacks, where a wakeup made from idle got none). A
# process writing a pipe every 5 ms for 3 s makes wakeups from a task (a quiet fresh
# root made 38 in 2 s, 33 of them from idle, without a stack)
name=hist_stack_unread_records
python3 -c '
import os, time
r, w = os.pipe()
if os.fork() == 0:
    os.close(w)
    while os.read(r, 1):
        pass
    os._exit(0)
os.close(r)
end = time.time() + 3
while time.time() < end:
    os.write(w, b"x")
    time.sleep(0.005)
os.close(w)
os.wait()' &
pinger=$!
ft $name 0 record -o $OUT/hstk-wk.dat -e sched:sched_wakeup -e irq:irq_handler_entry \
	-e irq:softirq_entry -e timer:hrtimer_expire_entry offcpu -d 2 > /dev/null 2>&1
wait $pinger
ft $name 0 hist -i $OUT/hstk-wk.dat -e sched:sched_wakeup --key kstack -f \
	> $OUT/hstk-wk.fold 2> /dev/null
check $name wakeups $OUT/hstk-wk.fold

# hist_stack_bad_usage: a stack as --value, in --filter, -f without a stack key: exit 2,
# one line each
name=hist_stack_bad_usage
r=
for args in "--value kstack" "--filter kstack==1" "-f" "--svg $OUT/x.svg"; do
	# shellcheck disable=SC2086
	$FTSCOPE hist -i $OUT/hstk.dat -e $EV $args > /dev/null 2> $OUT/hstk-bad.err
	rc=$?
	[ $rc = 2 ] && [ "$(wc -l < $OUT/hstk-bad.err)" = 1 ] || r+="'$args': exit $rc, $(head -c 200 $OUT/hstk-bad.err); "
done
# a span has no stacks: -f with --from/--to is refused too
$FTSCOPE hist -i $OUT/hstk.dat --from $EV --to syscalls:sys_exit_getppid -f > /dev/null \
	2> $OUT/hstk-bad.err
rc=$?
[ $rc = 2 ] && [ "$(wc -l < $OUT/hstk-bad.err)" = 1 ] || r+="span -f: exit $rc; "
if [ -z "$r" ]; then
	pass $name
else
	fail $name "$r"
fi

rm -f $PING
# hist_stack_state_restored: the stack options were the run's instance's only
name=hist_stack_state_restored
after=$(global_state)
if [ "$before" = "$after" ]; then
	pass $name
else
	fail $name "$(state_diff "$before" "$after")"
fi
