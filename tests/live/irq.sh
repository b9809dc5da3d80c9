#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: hardirqs and softirqs against the kernel's own counters: the traced
#              command reads /proc/interrupts and /proc/softirqs at its start and end
#              around 2000 O_DIRECT writes (one block completion interrupt each) and
#              UDP datagrams to loopback (NET_RX), in the JSON and in
#              --prometheus-file; every busy handler's time and the busiest one's
#              histogram and percentiles against the run's recording as trace-cmd
#              reads it, its handlers matched one to one by bpftrace's; softirqs'
#              handler times and raise -> entry latencies (block, net_rx: counts,
#              means, p50s) against bpftrace's records of the same run paired by the
#              same rule; a recording read back; the tracefs state.
# requires: root, the irq tracepoints (irq_handler_*, softirq_*), bpftrace, trace-cmd
. tests/live/lib.sh
plan 11
need_root irq || exit 0
if [ ! -d $T/events/irq/irq_handler_entry ] || [ ! -d $T/events/irq/softirq_entry ]; then
	# the one line a kernel without them gets, exit 3 (engine/tps.c: as any event it lacks)
	name=irq_refused_without_events
	before=$(snapshot)
	ft $name 3 hardirqs -d 1 > $OUT/irq-r.out 2> $OUT/irq-r.err
	rc=$?
	if [ $rc -ne 0 ] && [ "$(wc -l < $OUT/irq-r.err)" = 1 ] &&
	   grep -q 'hardirqs needs irq:irq_handler_entry, which the kernel lacks$' $OUT/irq-r.err &&
	   [ "$before" = "$(snapshot)" ]; then
		pass $name
	else
		fail $name "exit $rc: $(tr '\n' '|' < $OUT/irq-r.err)"
	fi
	skip_rest "no irq tracepoints"
	exit 0
fi
D=$OUT/irq
rm -rf $D
mkdir -p $D
# state NAME: the tracefs state but for the instances of other ftscope runs (other tests
# may run beside this one); an instance of ours (its owner pid gone) is listed
state() {
	snapshot | grep -v '^ftscope-' | awk '/^== .*\/instances\// { skip = 1 } !skip'
	orphans | sed 's/^/left: /'
}
before=$(state)

# the workload: the counters, 2000 direct writes, 200 datagrams to loopback, the counters
cat > $D/work.sh <<EOS
cat /proc/interrupts > $D/irq.a; cat /proc/softirqs > $D/si.a; date +%s.%N > $D/t.a
dd if=/dev/zero of=$D/w.dat bs=4k count=2000 oflag=direct 2> /dev/null
for i in \$(seq 200); do echo x > /dev/udp/127.0.0.1/9; done
date +%s.%N > $D/t.b; cat /proc/interrupts > $D/irq.b; cat /proc/softirqs > $D/si.b
EOS

# check NAME KIND JSON [NAME...]: every handler or vector the kernel counted between the
# command's two reads against ftscope's count over the whole command (tests/live/irq_check.py
# says what is allowed; the NAMEs, or the busiest handler, are the workload's)
check() {
	local name=$1 kind=$2 js=$3 a b r

	shift 3
	if [ $kind = hard ]; then a=$D/irq.a b=$D/irq.b; else a=$D/si.a b=$D/si.b; fi
	r=$(python3 tests/live/irq_check.py $kind $a $b \
		"$(awk -v a="$(cat $D/t.a)" -v b="$(cat $D/t.b)" 'BEGIN { print b - a }')" $js "$@" 2>&1)
	if [ "$(tail -1 <<< "$r")" = OK ]; then
		pass "$name ($(sed '$d' <<< "$r" | tr '\n' ',' | sed 's/,$//'))"
	else
		fail $name "$(grep -v '^[^ ]* kernel [0-9]* ftscope [0-9]*$' <<< "$r" | tr '\n' '|')"
	fi
}

name=irq_hardirqs_counts_vs_proc_interrupts
ft $name 0 hardirqs --count --json -- bash $D/work.sh > $D/h.json 2> $D/h.err
check $name hard $D/h.json

name=irq_softirqs_counts_vs_proc_softirqs
ft $name 0 softirqs --count --json -- bash $D/work.sh > $D/s.json 2> $D/s.err
check $name soft $D/s.json block:2000 net_rx:200

# recorded with both, read back: the same checks on the file
name=irq_record_then_file
ft ${name}_hardirqs 0 record -o $D/irq.dat hardirqs softirqs -- bash $D/work.sh \
	> $D/rec.out 2> $D/rec.err
ft ${name}_hardirqs 0 hardirqs --count --json -i $D/irq.dat > $D/hf.json 2> $D/hf.err
ft ${name}_softirqs 0 softirqs --count --json -i $D/irq.dat > $D/sf.json 2> $D/sf.err
check ${name}_hardirqs hard $D/hf.json
check ${name}_softirqs soft $D/sf.json block:2000 net_rx:200

# Prometheus's view: --prometheus-file's _count of each handler and vector (the times
# paired: every handler or softirq inside the bracket is whole in the trace) against the
# kernel's counters, as the JSON's counts above (tests/live/irq_check.py, its bounds)
for kind in hard soft; do
	if [ $kind = hard ]; then
		name=irq_hardirqs_prometheus_vs_proc_interrupts what=hardirqs
	else
		name=irq_softirqs_prometheus_vs_proc_softirqs what=softirqs
	fi
	rm -f $D/$kind.prom
	ft $name 0 $what --prometheus-file $D/$kind.prom -- bash $D/work.sh \
		> $D/$kind-prom.out 2> $D/$kind-prom.err
	if [ $kind = hard ]; then
		check $name hard $D/hard.prom
	else
		check $name soft $D/soft.prom block:2000 net_rx:200
	fi
done

# Handler times against bpftrace, one run for both checks: bpftrace keeps every entry and
# exit (CPU, its nsecs: CLOCK_MONOTONIC, ftscope's clock) in maps printed at its end;
# tests/live/hardirq_check.py cuts them to ftscope's window as softirq_check.py does, and
# pairs them by ftscope's rule (an entry to the next exit on its CPU, of the same irq).
# bpftrace's records lack what it did not run its programs for (recursion_misses in
# their fdinfo: another BPF program on that CPU; 127 a side in 3 s once, while other
# tests ran bpftrace) and what it could not store (-k's warnings): both are counted. They
# also lack, uncounted, every interrupt that comes while some tasks run: tid 75, a
# thread of the VM's agent, was interrupted 9 times in 8 s in ftrace's records and never
# in bpftrace's, whose programs are reached through perf's tracepoint handler (its
# recursion guard, per task since 6.11, seems held for them), while every other task's
# matched. Measured below: 41 runs of this script and 79 of the same run in a trial
# script on 2026-11-27, beside other tests and a Debian make check.
name=irq_hardirqs_time_vs_bpftrace
name2=irq_hardirqs_dist_vs_bpftrace
cat > $D/bt.bt <<'EOS'
tracepoint:irq:irq_handler_entry { @e[cpu, nsecs] = args->irq; if (!@ge) { @ge = 1; } }
tracepoint:irq:irq_handler_exit { @x[cpu, nsecs] = args->irq; if (!@gx) { @gx = 1; } }
interval:ms:20 { if (@ge && @gx && !@ok) { printf("ready\n"); @ok = 1; } }
END { clear(@ge); clear(@gx); clear(@ok); }
EOS
# poke: one direct write, an interrupt for bpftrace's probes to see; is bpftrace ready?
poke() {
	dd if=/dev/zero of=$D/p.dat bs=4k count=1 oflag=direct 2> /dev/null
	grep -q '^ready' $D/bt.out
}
# skipped PID: the records bpftrace PID's tracepoint programs (BPF_PROG_TYPE_TRACEPOINT,
# 5) were not run for, from their fdinfo
skipped() {
	awk 'FNR == 1 { t = 0 } /^prog_type:/ { t = $2 }
	     /^recursion_misses:/ && t == 5 { s += $2 } END { print s + 0 }' /proc/$1/fdinfo/* 2> /dev/null
}
# hard_check NAME MODE SPEC: that run against bpftrace's (tests/live/hardirq_check.py)
hard_check() {
	local r

	r=$(python3 tests/live/hardirq_check.py $2 $D/ht.json $D/bt.out $keys $sk $3 2>&1)
	if [ "$(tail -1 <<< "$r")" = OK ]; then
		pass "$1 ($(sed '$d' <<< "$r" | tr '\n' ',' | sed 's/,$//'), steal $st ms)"
	else
		fail $1 "$(grep -v '^OK$' <<< "$r" | tr '\n' '|') steal $st ms$(head -c 300 \
			$D/ht.rep.err 2> /dev/null | tr '\n' ' ')"
	fi
}
keys=65536
# "ready" once each probe has fired
if ! BPFTRACE_MAP_KEYS_MAX=$keys BT_ERR=$D/bt.err bt_start $D/bt.out poke -k $D/bt.bt; then
	fail $name "$bt_why"
	fail $name2 "bpftrace did not start"
else
	# -o: the kernel's records of the run, for the dist check's pairs handler by handler
	ft $name 0 hardirqs --dist -N --json -o $D/ht.dat -- dd if=/dev/zero of=$D/w.dat bs=4k \
		count=2000 oflag=direct > $D/ht.json 2> $D/ht.err
	st=$(ft_steal)	# printed: a stall between the two sides' probes makes an outlier
	sk=$(skipped $bt)
	stop_bpftrace $bt
	# Every line handled 100 times or more (the disk's here; the others 0 .. 4 times):
	# entries and timed handlers 0 .. the skipped + 1.5% more in ftscope (measured 0 ..
	# +5 beyond them in 119 runs, +18 in one: the tasks above); mean -28% .. 0%, p50
	# -30% .. 0% of bpftrace's (measured -20.4 .. -7.3%, -24.5 .. -6.7%: its entry probe,
	# the first code to run in the interrupt, delays ftrace's entry record by 0.4-2 us,
	# more than its exit probe the exit record, and more as the VM slows; in recordings
	# matched handler by handler ftscope's less bpftrace's was -0.5 .. -1 us at the 1st
	# percentile, -0.1 .. -0.3 us at the median, +0.2 .. +0.4 us at the 99th)
	hard_check $name time 100:-28:0:-30:0:1.5
	# The busiest handler's rows, sum, min, max and p50, p90, p99 against the run's
	# recording as trace-cmd decodes it (exact; percentiles to 1/128), and the recording
	# against bpftrace's handlers one by one (hardirq_check.py). bpftrace's times alone
	# cannot judge the rows: a stall between its stamp and ftrace's record moves single
	# handlers by up to 0.33 ms (measured: 23% of the pairs' ratios outside 0.7 .. 1.0;
	# the model that bounded the rows by it failed once in some 125 runs, with 6 stalls)
	trace-cmd report -t -i $D/ht.dat > $D/ht.rep 2> $D/ht.rep.err
	hard_check $name2 dist $D/ht.rep
fi

# Softirqs against bpftrace, one run for both checks: bpftrace keeps every raise, entry and
# exit (CPU, its nsecs: CLOCK_MONOTONIC, ftscope's clock) in maps printed at its end, and
# tests/live/softirq_check.py cuts them to ftscope's window (its first and last records'
# times in the JSON) and pairs them by ftscope's rule, written again there: handler time
# from an entry to the next exit on its CPU, of the same vector; raise -> entry from the
# first raise of a vector pending on its CPU, a repeat while pending kept for the entry
# after (the kernel clears its mask before it runs the vectors it read). The vectors the
# workload drives: block (2000 writes) and net_rx (200 datagrams); timer and rcu (6 to 80
# entries a run) moved 5-15% from run to run and gained or lost one at the window's edges.
# Counts: ftscope's less bpftrace's in 0 .. 1%. bpftrace's tracepoint programs skip some
# records and never add one: a raise that comes while its own probe runs (counted in its
# recursion_misses), and whole softirqs run nested in another program's thread (6 block
# softirqs in a row once, not counted); measured 0 .. +1 entries and 0 .. +5 latencies in
# 25 runs of this script on 2026-11-27, 0 .. +11 of 2000 in 30 trial runs before it.
# Measured below: 25 runs of this script and 14 of the same run in a trial script.
name=irq_softirqs_time_vs_bpftrace
name2=irq_softirqs_raise_vs_bpftrace
cat > $D/si.bt <<'EOS'
tracepoint:irq:softirq_raise { @r[cpu, nsecs] = args->vec; if (!@gr) { @gr = 1; } }
tracepoint:irq:softirq_entry { @e[cpu, nsecs] = args->vec; if (!@ge) { @ge = 1; } }
tracepoint:irq:softirq_exit { @x[cpu, nsecs] = args->vec; if (!@gx) { @gx = 1; } }
interval:ms:20 { if (@gr && @ge && @gx && !@ok) { printf("ready\n"); @ok = 1; } }
END { clear(@gr); clear(@ge); clear(@gx); clear(@ok); }
EOS
# bt_check NAME MODE SPEC...: that run against bpftrace's (tests/live/softirq_check.py,
# MODE time or raise, SPEC VEC:LO:HI:PLO:PHI:MISSED: mean, p50 and count bounds in %;
# the records bpftrace's programs were not run for are allowed beside MISSED)
bt_check() {
	local name=$1 r

	r=$(python3 tests/live/softirq_check.py $2 $D/st.json $D/si-bt.out $keys skipped=$sk \
		report=$D/st.rep "${@:3}" 2>&1)
	if [ "$(tail -1 <<< "$r")" = OK ]; then
		pass "$name ($(sed '1d;$d' <<< "$r" | tr '\n' ',' | sed 's/,$//'))"
	else
		fail $name "$(grep -v '^OK$' <<< "$r" | tr '\n' '|')"
	fi
}
# "ready" once each probe has fired
keys=65536
if ! BPFTRACE_MAP_KEYS_MAX=$keys BT_ERR=$D/si-bt.err bt_start $D/si-bt.out "" $D/si.bt; then
	fail $name "$bt_why"
	fail $name2 "bpftrace did not start"
else
	# -o: the kernel's records, for the lines to say which entries bpftrace lacks
	ft $name 0 softirqs -N --json -o $D/st.dat -- bash $D/work.sh > $D/st.json 2> $D/st.err
	sk=$(skipped $bt)
	stop_bpftrace $bt
	trace-cmd report -t -i $D/st.dat > $D/st.rep 2> $D/st.rep.err
	# Handler time: ftscope's mean -12% .. +12% of bpftrace's, p50 -6% .. +6%, both
	# vectors. Measured: mean -8.5 .. +6.6%, p50 -3.4 .. +3.4%; bpftrace's entry and exit
	# probes cost the same (net_rx's sums 16 ns apart over 200 once), but the host or an
	# interrupt delaying ftrace's record behind bpftrace's probe lengthens one side's
	# handler, and the mean with it (block's -8.5%: 0.7 ms over 2049 handlers, p50
	# -0.8%); margin 3.5 points on the mean, 2.6 on the p50
	bt_check $name time block:-12:12:-6:6:1 net_rx:-12:12:-6:6:1
	# Raise -> entry: ftscope's below bpftrace's, as the hardirq check's handler times:
	# bpftrace's probe runs first, and its raise probe (in the hard interrupt, or with
	# interrupts off) delays ftrace's record more than its entry probe does (median
	# 0.55-0.99 us against 0.48-0.68 us in a recording matched record by record): 54-462
	# ns less on 0.8-2 us waits. block: mean -28% .. +5%, p50 -30% .. +2% (measured
	# -18.9 .. -2.2%, -21.6 .. -6.1%); net_rx: mean -42% .. +5%, p50 -38% .. +2%
	# (measured -32.4 .. -3.9%, -28.6 .. -4.4%); margins 8-10 points below, 6-9 above
	bt_check $name2 raise block:-28:5:-30:2:1 net_rx:-42:5:-38:2:1
fi

name=irq_state_restored
rm -f $D/w.dat
if [ "$before" = "$(state)" ]; then
	pass $name
else
	fail $name "$(state_diff "$before" "$(state)")"
fi
