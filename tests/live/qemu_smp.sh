#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: many CPUs and CPU hotplug. Boots Debian's 6.1 kernel under QEMU with 16
#              vCPUs and runs tests/qemu/guest_smp.sh: tests/qemu/guest.sh's cases, checked
#              by tests/live/qemu.sh as on 2 CPUs (the checks named qemu16_*), then 16
#              sleepers pinned one to each CPU (timehist, runqlat, -C 3,9-12, a recording
#              read back and by trace-cmd), per-CPU losses of a 4 KB buffer against known
#              calls, and CPU 5 taken offline and back during runqlat, timehist, offcpu and
#              record: each checked against the workloads' design and the guest kernel's
#              own counts (tests/live/smp_check.py); a synthetic uevent written to cpu5's
#              uevent file names no CPU.
# requires: root (apt-get for qemu and the kernel package), network on first use; trace-cmd
if [ -z "$QEMU_MORE" ]; then
	QEMU_P=qemu16 QEMU_SMP=16 QEMU_GUEST=guest_smp.sh QEMU_MORE=tests/live/qemu_smp.sh \
		QEMU_MORE_PLAN=11 exec bash tests/live/qemu.sh
fi

# Sourced by tests/live/qemu.sh after its checks, with $Q the guest's results.
C=tests/live/smp_check.py

# smp NAME "CASE..." ARGS...: PASS NAME when each CASE exited 0 and smp_check.py ARGS agrees
smp() {
	local name=$1 cases=$2 c r

	shift 2
	for c in $cases; do
		if ! ok $c; then
			fail $name "$c: exit $(cat $Q/$c.rc): $(head -2 $Q/$c.err | tr '\n' '|')"
			return
		fi
	done
	if r=$(python3 $C "$@" 2>&1); then
		pass "$name ($r)"
	elif [ -f $Q/$c.dat ]; then
		fail $name "$r (the run's recording: $Q/$c.dat; its footer: $(tail -1 $Q/$c.out |
			tail -c 200))"
	else
		fail $name "$r"
	fi
}

# gone NAME CASE FILE PREFIX ARGS...: CPU 5 went offline and came back during CASE
# (PREFIX-online: the masks before, while away, after), which exited 0 (a hang is 143);
# FILE (its footer: stdout, or stderr under offcpu's folded output) says so, as text or
# JSON; and smp_check.py ARGS agrees for the sleeper pinned to CPU 5 after it came
# back (ARGS' prefix, PREFIX) and for the one whose naps ended just before it went
# (PREFIX0): what an offline CPU wrote before it went is read
gone() {
	local name=$1 c=$2 f=$3 p=$4 r r0 masks

	shift 4
	masks=$(tr '\n' ' ' < $Q/$p-online 2> /dev/null)
	if ! ok $c; then
		fail $name "exit $(cat $Q/$c.rc): $(head -2 $Q/$c.err | tr '\n' '|')"
	elif [ "$masks" != "0-15 0-4,6-15 0-15 " ]; then
		fail $name "the online masks: $masks"
	elif ! grep -q '^cpu5 went offline 1 time during the run (online again at the end)' $f &&
	     ! grep -q '"cpus_went_offline":\[{"cpu":5,"times":1,"online_at_end":true}\]' $f; then
		fail $name "the footer does not say cpu5 went offline: $(tail -2 $f | tail -c 300 | tr "\n" "|")"
	elif ! r=$(python3 $C "$@" 2>&1); then
		fail $name "after: $r"
	elif ! r0=$(python3 $C "$1" "$2" "${p}0" "${@:4}" 2>&1); then
		fail $name "before it went: $r0"
	else
		pass "$name (before it went: $r0; after: $r)"
	fi
}

# 16 sleepers, one pinned to each CPU, 20 naps each: timehist's S rows of each sleeper
# are its naps, all on its CPU, and its rows its switches out as the guest kernel counted them
smp qemu16_timehist_per_cpu smp_timehist timehist $Q th smp_timehist
smp qemu16_runqlat_per_task smp_runqlat runqlat $Q rq smp_runqlat
# -C 3,9-12 follows the command's children forked on the other CPUs (the kernel records
# every CPU for the pid filter, ftscope keeps the five): their sleepers' naps, nothing else
smp qemu16_cpus_subset smp_cpus timehist $Q cs smp_cpus 3,9-12

# merge past 8 CPUs: the run's recording read back with -i prints what the run printed,
# rows on all 16 CPUs. But for the live footer's "N records came after later ones": a
# vCPU the host holds between a record's reserve and its commit for more than the live
# merge's 20 ms hands it on late (docs/design.md), which the file, merged whole, does
# not see (once in a fresh root under TCG, the rows the same)
name=qemu16_file_equals_live
n=$(grep -oE '^ +[0-9.]+ \[[0-9]{4}\]' $Q/smp_live.out | awk '{ print $2 }' | sort -u | wc -l)
late=$(grep -oE '[0-9]+ records came after later ones' $Q/smp_live.out | cut -d' ' -f1)
sed -E 's/; [0-9]+ records came after later ones//' $Q/smp_live.out > $Q/smp_live.cmp
if ok smp_live && ok smp_file && cmp -s $Q/smp_live.cmp $Q/smp_file.out && [ "$n" = 16 ]; then
	pass "$name ($(grep -c '^ ' $Q/smp_live.out) lines, rows on $n CPUs; ${late:-0} late live)"
else
	fail $name "exit $(cat $Q/smp_live.rc) $(cat $Q/smp_file.rc), rows on $n CPUs:\
 $(diff $Q/smp_live.cmp $Q/smp_file.out | head -3 | tr '\n' '|')"
fi

# the host's trace-cmd reads the guest's 16-CPU recording: the same records per CPU as
# ftscope's footer says it wrote; and against known calls on each CPU, the losses of a 4 KB
# buffer per CPU: the calls the recording holds plus those ftscope says it lost
if command -v trace-cmd > /dev/null; then
	smp qemu16_record_trace_cmd smp_rec tracecmd $Q smp_rec $Q/rec.dat
	smp qemu16_losses_per_cpu smp_lost lost $Q smp_lost $Q/lost.dat 1000
else
	skip qemu16_record_trace_cmd "no trace-cmd (scripts/install-deps.sh --tests)"
	skip qemu16_losses_per_cpu "no trace-cmd (scripts/install-deps.sh --tests)"
fi

# CPU 5 offline and back during each run, a sleeper pinned to it before and one after:
# no hang, exit 0, the footer names cpu5, and each sleeper's 20 naps on CPU 5 are read
gone qemu16_hotplug_runqlat hp_runqlat $Q/hp_runqlat.out hpr runqlat $Q hpr hp_runqlat
gone qemu16_hotplug_timehist hp_timehist $Q/hp_timehist.out hpt timehist $Q hpt hp_timehist
gone qemu16_hotplug_offcpu hp_offcpu $Q/hp_offcpu.out hpo offcpu $Q hpo hp_offcpu
# the recording read back holds them too; every CPU online at the end
if ok hp_record_file && [ "$(cat $Q/online.end)" = 0-15 ]; then
	gone qemu16_hotplug_record hp_record $Q/hp_record.out hpc timehist $Q hpc hp_record_file
else
	fail qemu16_hotplug_record "read back: exit $(cat $Q/hp_record_file.rc), online at the end\
 $(cat $Q/online.end): $(head -1 $Q/hp_record_file.err)"
fi

# `echo offline > .../cpu5/uevent` sends offline@.../cpu5 with SYNTH_UUID=: no CPU went
# (cpu5 online throughout), so the footer names none (before: cpu5 "went offline")
name=qemu16_hotplug_synthetic_uevent
went=$(tail -1 $Q/hp_synth.out | grep -o '"cpus_went_offline":[^]]*]')
if ok hp_synth && [ "$(cat $Q/hps-written)" = 0 ] && [ "$(cat $Q/hps-online)" = 0-15 ] &&
   [ -z "$went" ] && grep -q '"events":[1-9]' $Q/hp_synth.out; then
	pass "$name (offline and online written to cpu5's uevent file; no CPU named)"
else
	fail $name "exit $(cat $Q/hp_synth.rc), written $(cat $Q/hps-written), online $(cat $Q/hps-online): $went"
fi
