#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside Debian's 6.1 kernel under QEMU with 16 vCPUs (scripts/qemu-run.sh), from
# tests/live/qemu_smp.sh: first tests/qemu/guest.sh's cases (the analyzers as on 2 CPUs),
# which then source this file again for the cases of many CPUs and of CPU hotplug; each
# case's stdout, stderr and exit status go to /tmp/out/CASE.{out,err,rc}, the workloads'
# own counts beside them, and the lot comes back as guest.sh sends it.
if [ -z "$SMP_CASES" ]; then
	SMP_CASES=1 GUEST_EXTRA=tests/qemu/guest_smp.sh exec bash tests/qemu/guest.sh
fi

# sl16.sh P [N]: 16 sleepers, one pinned to each CPU, 20 naps of 10 ms each (N of them
# when given), each writing its switches out as the kernel counted them to P-sl.CPU;
# "CPU PID" of each to P-pids
cat > /tmp/sl16.sh <<'EOS'
for c in $(seq 0 15); do
	SLEEPER_COUNTS=/tmp/out/$1-sl.$c tests/workloads/sleeper $c ${2:-20} 10 &
	echo "$c $!" >> /tmp/out/$1-pids
done
wait
EOS
# calls16.sh: 16 knowncalls 1000, one pinned to each CPU: 16000 getppid calls
cat > /tmp/calls16.sh <<'EOS'
for c in $(seq 0 15); do
	taskset -c $c tests/workloads/knowncalls 1000 > /dev/null &
done
wait
EOS
# hotplug.sh P CPU: a sleeper pinned to CPU (20 naps of 10 ms, its switches out to
# P0-sl.CPU, "CPU PID" to P0-pids) ends, and at once CPU goes offline: what it wrote
# before is read; then CPU back, then a second such sleeper there (P-sl.CPU, P-pids);
# the online masks on the way to P-online
cat > /tmp/hotplug.sh <<'EOS'
f=/sys/devices/system/cpu/cpu$2/online
cat /sys/devices/system/cpu/online > /tmp/out/$1-online
SLEEPER_COUNTS=/tmp/out/${1}0-sl.$2 tests/workloads/sleeper $2 20 10 &
echo "$2 $!" >> /tmp/out/${1}0-pids
wait
echo 0 > $f && cat /sys/devices/system/cpu/online >> /tmp/out/$1-online
sleep 0.3
echo 1 > $f && cat /sys/devices/system/cpu/online >> /tmp/out/$1-online
SLEEPER_COUNTS=/tmp/out/$1-sl.$2 tests/workloads/sleeper $2 20 10 &
echo "$2 $!" >> /tmp/out/$1-pids
wait
EOS

# each kept as a recording too: a sleeper short of a row or over its bound can be read again
run smp_timehist ftscope timehist --state -o $out/smp_timehist.dat -- sh /tmp/sl16.sh th
run smp_runqlat ftscope runqlat -P --json -o $out/smp_runqlat.dat -- sh /tmp/sl16.sh rq
run smp_cpus ftscope timehist --state -C 3,9-12 -- sh /tmp/sl16.sh cs
# the same run live and saved, then read back; the recording comes back for trace-cmd
run smp_live ftscope timehist -o $out/smp.dat -- sh /tmp/sl16.sh lv
run smp_file ftscope timehist -i $out/smp.dat
run smp_rec ftscope record --json -o $out/rec.dat timehist -- sh /tmp/sl16.sh rc 5
# a buffer of 4 KB a CPU against 16 x 1000 getppid calls at once: losses on each CPU
run smp_lost ftscope funccount --json -b 4 -o $out/lost.dat __do_sys_getppid -- sh /tmp/calls16.sh
# CPU 5 offline and back during each: its sleepers' naps before it goes and after it
# returns are read
run hp_runqlat ftscope runqlat -P --json -- sh /tmp/hotplug.sh hpr 5
run hp_timehist ftscope timehist --state -- sh /tmp/hotplug.sh hpt 5
run hp_offcpu ftscope offcpu --json -- sh /tmp/hotplug.sh hpo 5
run hp_record ftscope record -o /tmp/hp.dat timehist -- sh /tmp/hotplug.sh hpc 5
run hp_record_file ftscope timehist --state -i /tmp/hp.dat
# a synthetic uevent (written to cpu5's uevent file: SYNTH_UUID=) is no CPU going away;
# the writes' status to hps-written, the online mask after to hps-online
run hp_synth ftscope timehist --json -- sh -c 'sleep 0.2; u=/sys/devices/system/cpu/cpu5/uevent
	echo offline > $u && echo online > $u; echo $? > /tmp/out/hps-written; sleep 0.2'
cat /sys/devices/system/cpu/online > $out/hps-online
cat /sys/devices/system/cpu/online > $out/online.end
