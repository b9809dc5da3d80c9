#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside Debian's 6.1 (or 5.10) kernel under QEMU (scripts/qemu-run.sh), from
# tests/live/qemu.sh (and qemu510.sh): each case's stdout, stderr and exit status go to /tmp/out/CASE.{out,err,rc}, with the
# tracefs state before and after; the lot comes back on stdout as a base64 tar.gz, and
# the host checks it.
. tests/live/lib.sh
out=/tmp/out
mkdir -p $out

# run CASE CMD...: run one case, keeping what it printed and its status; a case that
# hangs is stopped with SIGTERM after 60 s (status 143), so the others still report
run() {
	local name=$1

	shift
	echo "guest case: $name" > /dev/ttyS0	# progress on the console, for a hang
	timeout 60 "$@" > $out/$name.out 2> $out/$name.err
	echo $? > $out/$name.rc
}

snapshot > $out/before.state
# whether the kernel found the vCPUs' TSCs unsynchronized (run time then kept by a
# sched_clock clamped to the tick: tests/live/offcpu_check.py, OFFWIN_COARSE_CLOCK)
dmesg | grep -c 'Marking TSC unstable' > $out/tsc_unstable.txt
run uname uname -r
run list ftscope list
run stat ftscope stat -x, -e task-clock,page-faults,cycles -- $WL/faulter 16 100
run runqlat ftscope runqlat -m --json -- $WL/spin3 0 1
run timehist ftscope timehist -- $WL/sleeper 0 20 10
run timehist_mmap ftscope timehist --mmap -v -- $WL/sleeper 0 20 10
run pmu ftscope timehist --state --pmu sched:sched_switch,context-switches -- $WL/sleeper 0 20 10
run offcpu ftscope offcpu -f -- $WL/blocker 10 50 0 0
# whole user stacks by CFI on this kernel (tests/qemu/guest_unwind.sh)
. tests/qemu/guest_unwind.sh
run wakeup ftscope wakeup --json -- $WL/sleeper 0 20 10
run latency ftscope latency -- $WL/spin3 0 1
run funclat_kprobe ftscope funclat -F --json --method kprobe vfs_read syscall:read -- \
	dd if=/ftscope/ftscope of=/dev/null bs=4096 count=100
run funclat_auto ftscope funclat -u vfs_read -- dd if=/ftscope/ftscope of=/dev/null bs=4096 count=10
run funclat_graph ftscope funclat --method graph vfs_read -d 0.1
run funclat_uprobe ftscope funclat -u --json $WL/busyfn:busy_wait -- $WL/busyfn 20 200 20 2000
# the function tracer's counts of the same dd's vfs_read calls, and a glob
run funccount ftscope funccount --json 'vfs_rea*' -- dd if=/ftscope/ftscope of=/dev/null bs=4096 count=100
# known counts: knowncalls N makes N getppid calls and N one-byte reads of /dev/zero,
# its startup a known few reads (tests/live/qemu_check.py)
KC="__do_sys_getppid ksys_read vfs_read read_zero"
run funccount_known0 ftscope funccount --json $KC -- $WL/knowncalls 0
run funccount_known ftscope funccount --json $KC -- $WL/knowncalls 1000
# the same 1000 getppid calls as syscall records counted by hist (no hist triggers needed)
run hist_known ftscope hist -e syscalls:sys_enter_getppid --json -- $WL/knowncalls 1000
# 20 naps (5 x 3, 6, 12, 24 ms), each timed by the workload itself (into $out/naps.txt),
# and do_nanosleep by kprobes, every call listed (--min-us 1)
run funclat_naps ftscope funclat -u -F --json --min-us 1 --method kprobe do_nanosleep -- \
	$WL/napclock $out/naps.txt 5 3 6 12 24
# kprobes recorded to a trace.dat, then read back (the file stays in the guest)
run funclat_kprobe_rec ftscope funclat -F --json --method kprobe vfs_read -o /tmp/fk.dat -- \
	dd if=/ftscope/ftscope of=/dev/null bs=4096 count=50
run funclat_kprobe_file ftscope funclat -F --json -i /tmp/fk.dat vfs_read
# hardirqs and softirqs: the command reads the kernel's counters at its start and end
# (irq-P.a/.b, si-P.a/.b, t-P.a/.b for prefix P) around 200 lines to the serial port of
# stderr (its interrupts) and 200 datagrams to loopback (NET_RX)
cat > /tmp/irqwork.sh <<'EOS'
p=/tmp/out/$1
cat /proc/interrupts > $p-irq.a; cat /proc/softirqs > $p-si.a; cut -d' ' -f1 /proc/uptime > $p-t.a
for i in $(seq 200); do echo "irq workload: a line of 64 bytes to the serial port .........." > /dev/ttyS2; done
ip link set lo up
for i in $(seq 200); do echo x > /dev/udp/127.0.0.1/9; done
cut -d' ' -f1 /proc/uptime > $p-t.b; cat /proc/interrupts > $p-irq.b; cat /proc/softirqs > $p-si.b
EOS
run irq_hard ftscope hardirqs --count --json -- bash /tmp/irqwork.sh hard
run irq_soft ftscope softirqs --count --json -- bash /tmp/irqwork.sh soft
run irq_dist ftscope hardirqs --dist -- bash /tmp/irqwork.sh dist
run irq_rec ftscope record -o /tmp/irq.dat hardirqs softirqs -- bash /tmp/irqwork.sh rec
run irq_rec_hard ftscope hardirqs --count --json -i /tmp/irq.dat
run irq_rec_soft ftscope softirqs --count --json -i /tmp/irq.dat
# wakeup --why: fifowake's waiter waits on the CPU the serial port's interrupt goes to
# (CPU 1, where the kernel lets it move) while its FIFO thread
# spins there, the port written to all the while; /proc/interrupts before and after
# names every handler that ran there (tests/live/why_check.py guest)
cat > /tmp/whywork.sh <<'EOS'
p=/tmp/out/why
irq=$(cat /sys/class/tty/ttyS2/irq)	# the port written to (4, shared with ttyS0)
# its move to CPU 1 comes with its next interrupt (effective_affinity says so only then);
# where the kernel refuses it, the CPU it goes to now
cpu=1
echo 1 > /proc/irq/$irq/smp_affinity_list ||
	cpu=$(cut -d, -f1 /proc/irq/$irq/effective_affinity_list | cut -d- -f1)
cat /proc/interrupts > $p-irq.a
rm -f /tmp/why.stop
( while [ ! -e /tmp/why.stop ]; do
	echo "why workload: a line of 64 bytes to the serial port .........." > /dev/ttyS2
  done ) &
$WL/fifowake ${cpu:-1} 8 20 > $p-fifo.txt
touch /tmp/why.stop
wait
cat /proc/interrupts > $p-irq.b
EOS
# --top 40: its 8 rounds' waits among the other tasks' caught behind the same spins
# (on a Debian 13 host's QEMU rcu_preempt's took 7 of the slowest 8)
WL=$WL run why_irqs ftscope wakeup --why --top 40 --json -a -- bash /tmp/whywork.sh
# the flight recorder where the ring buffer is read, not mapped (6.1, 5.10), and on 16
# vCPUs: spiker's one spike of 400 ms 4 s into an 8 s run, a trigger at 200 ms (under TCG
# a thread's first wait took 27 and 67 ms), the 2 s before and 1 s after; spiker runs on
# to its end (--keep-command: its own wait of the spike, the check's upper bound); the
# file read back here, then removed (its kallsyms need not come back); flight_check.py
run flight ftscope runqlat --flight 2 --trigger 200 -o /tmp/flight.dat --keep-command -- \
	sh -c "exec $WL/spiker 1 8 1 400 4 > $out/flight-wl.txt"
for i in $(seq 150); do grep -q '^spike_wait' $out/flight-wl.txt && break; sleep 0.1; done
run flight_th ftscope timehist -i /tmp/flight.dat
run flight_i ftscope runqlat -i /tmp/flight.dat
ls /tmp/flight.dat* > $out/flight.ls 2>&1
rm -f /tmp/flight.dat*
[ -n "$GUEST_EXTRA" ] && . "$GUEST_EXTRA"
snapshot > $out/after.state
tar c -C $out . | gzip | base64
