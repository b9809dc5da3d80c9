#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make-recordings.sh DIR [FTSCOPE] - a set of trace.dat files for scripts/same-output.sh
# that holds every analyzer's events (scheduler with rebuilt switches and stacks,
# interrupts, block I/O, function probes, system calls, perf samples with stack copies,
# hist's stacks), made here in a minute, as root; no make check needed. Workloads from
# tests/workloads (make builds them). A failing recording says so and the rest go on.
set -u
dir=${1:?usage: make-recordings.sh DIR [FTSCOPE]}
ft=$(realpath "${2:-./ftscope}")
WL=tests/workloads
mkdir -p "$dir"
[ "$(id -u)" -eq 0 ] || { echo "make-recordings.sh: needs root" >&2; exit 1; }

# rec NAME ARGS...: ftscope ARGS, its output in DIR/NAME.log; a line when it fails
rec() {
	local name=$1
	shift
	"$ft" "$@" > "$dir/$name.log" 2>&1 || echo "make-recordings.sh: $name failed: $(tail -1 "$dir/$name.log")"
}

rec sched record -o "$dir/sched.dat" runqlat timehist wakeup offcpu -- \
	perf bench sched messaging -g 4 -l 200
# the whole system 2 s, a sleeper pinned to CPU 1 (its switch-ins out of idle rebuilt)
taskset -c 1 $WL/sleeper 300 5 > /dev/null 2>&1 &
rec system record -o "$dir/system.dat" -d 2 runqlat timehist offcpu
wait
rec irq record -o "$dir/irq.dat" -d 2 hardirqs softirqs -- sh -c \
	'dd if=/dev/zero of=/var/tmp/ftscope-rec.img bs=64k count=256 oflag=direct 2>/dev/null; rm -f /var/tmp/ftscope-rec.img; sleep 1'
rec bio biolatency -o "$dir/bio.dat" -- sh -c \
	'dd if=/dev/zero of=/var/tmp/ftscope-bio.img bs=4k count=2000 oflag=direct 2>/dev/null; rm -f /var/tmp/ftscope-bio.img'
rec funclat funclat -F $WL/busyfn:recurse $WL/busyfn:busy_wait -o "$dir/funclat.dat" -- \
	$WL/busyfn 0 0 0 0 10 3
rec syscalls funclat syscall:clock_nanosleep syscall:read -o "$dir/syscalls.dat" -- \
	sh -c 'sleep 0.2; head -c 100 /dev/zero > /dev/null; sleep 0.1'
rec profile profile -F 499 -o "$dir/profile.dat" -- $WL/chains
rec offcpu offcpu -o "$dir/offcpu.dat" -- $WL/deepblock
rec hist record -o "$dir/hist.dat" -e raw_syscalls:sys_enter -e sched:sched_switch \
	-e sched:sched_wakeup -e task:task_rename -- dd if=/dev/zero of=/dev/null bs=1 count=2000
rec hstack hist -e syscalls:sys_enter_getppid --key kstack,ustack -o "$dir/hstack.dat" -- \
	$WL/stackcalls 300 700 500
ls "$dir"/*.dat
