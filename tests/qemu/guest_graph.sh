#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside Debian's backports kernel (6.12: function_graph in instances) under QEMU,
# from tests/live/qemu_graph.sh: the function_graph method live, against kprobes and the
# function tracer on the same reads. Output as tests/qemu/guest.sh.
. tests/live/lib.sh
out=/tmp/out
mkdir -p $out
DD="dd if=/ftscope/ftscope of=/dev/null bs=4096 count=100"

# run CASE CMD...: one case, its output and status kept (60 s at most)
run() {
	local name=$1

	shift
	echo "guest case: $name" > /dev/ttyS0
	timeout 60 "$@" > $out/$name.out 2> $out/$name.err
	echo $? > $out/$name.rc
}

snapshot > $out/before.state
run uname uname -r
# vfs_read runs inside every ksys_read (the read system call): nested calls, one each
run graph ftscope funclat -F --json --method graph ksys_read vfs_read -- $DD
run kprobe ftscope funclat -F --json --method kprobe ksys_read vfs_read -- $DD
run graph_rec ftscope funclat -F --json --method graph ksys_read vfs_read -o /tmp/g.dat -- $DD
run graph_file ftscope funclat -F --json -i /tmp/g.dat ksys_read vfs_read
run funccount ftscope funccount --json ksys_read vfs_read -- $DD
# whole user stacks by CFI on this kernel (tests/qemu/guest_unwind.sh)
. tests/qemu/guest_unwind.sh
# known counts and known naps, as tests/qemu/guest.sh: the function tracer, and the
# function_graph method on do_nanosleep against the workload's own clock
KC="__do_sys_getppid ksys_read vfs_read read_zero"
run funccount_known0 ftscope funccount --json $KC -- tests/workloads/knowncalls 0
run funccount_known ftscope funccount --json $KC -- tests/workloads/knowncalls 1000
run graph_naps ftscope funclat -u -F --json --min-us 1 --method graph do_nanosleep -- \
	tests/workloads/napclock $out/naps.txt 5 3 6 12 24
# a snapshot armed on the top buffer: the kernel then refuses to map that buffer
# (EBUSY), not a run's own instance; list must say what a run does
TRIG=/sys/kernel/tracing/events/sched/sched_process_exec/trigger
TOP=/sys/kernel/tracing/per_cpu/cpu0/trace_pipe_raw
echo snapshot > $TRIG
cat $TRIG > $out/trigger_armed.out
run top_armed tests/workloads/mapmeta $TOP
run list_snapshot ftscope list
run mmap_snapshot ftscope runqlat --mmap -v -d 1
echo '!snapshot' > $TRIG
echo 0 > /sys/kernel/tracing/snapshot	# the trigger allocated it; freed, as it was before
cat $TRIG > $out/trigger_after.out
run top_after tests/workloads/mapmeta $TOP
snapshot > $out/after.state
tar c -C $out . | gzip | base64
