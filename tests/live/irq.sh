#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: hardirqs and softirqs against the kernel's own counters: the traced
#              command reads /proc/interrupts and /proc/softirqs at its start and end
#              around 2000 O_DIRECT writes (one block completion interrupt each) and
#              UDP datagrams to loopback (NET_RX); handler times against bpftrace on the
#              same events at the same time; a recording read back; the tracefs state.
# requires: root, the irq tracepoints (irq_handler_*, softirq_*), bpftrace
. tests/live/lib.sh
plan 6
need_root irq || exit 0
if [ ! -d $T/events/irq/irq_handler_entry ] || [ ! -d $T/events/irq/softirq_entry ]; then
	# the one line a kernel without them gets, exit 1 (cmd/run.c: as any event it lacks)
	name=irq_refused_without_events
	before=$(snapshot)
	ft $name 1 hardirqs -d 1 > $OUT/irq-r.out 2> $OUT/irq-r.err
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

# Handler time: bpftrace pairs the same entries and exits per CPU at the same time (its
# window holds ftscope's). The mean time of the block line's handler: ftscope's -18% ..
# +5% of bpftrace's. Measured 22 runs on 2026-11-27: -13.7 .. -6.8% (-112 .. -304 ns on
# 1.7-2.3 us handlers): bpftrace's probes run before ftrace's on each tracepoint (it
# attaches first), and its entry probe, two map writes, delays ftrace's entry record
# more than its exit probe delays the exit record (as tests/live/rebuilt.bt found for
# sched_switch); margin 4 points below, 5 above for an oracle made fairer. It was
# +-15% after three runs read -3 .. -7%.
name=irq_hardirqs_time_vs_bpftrace
cat > $D/bt.bt <<'EOS'
tracepoint:irq:irq_handler_entry { @s[cpu] = nsecs; @q[cpu] = args->irq; }
tracepoint:irq:irq_handler_exit /@s[cpu] && @q[cpu] == args->irq/ {
	@ns[args->irq] = sum(nsecs - @s[cpu]); @n[args->irq] = count(); delete(@s[cpu]);
}
END { clear(@s); clear(@q); }
EOS
bpftrace $D/bt.bt > $D/bt.out 2> $D/bt.err &
bp=$!
if ! wait_for 30 grep -q Attaching $D/bt.out; then
	stop_bpftrace $bp
	fail $name "bpftrace did not start: $(head -2 $D/bt.err | tr '\n' '|')"
else
	ft $name 0 hardirqs -N --json -- dd if=/dev/zero of=$D/w.dat bs=4k count=2000 oflag=direct \
		> $D/ht.json 2> $D/ht.err
	stop_bpftrace $bp
	r=$(python3 -c "
import json, re, sys
j = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
h = max(j['hardirqs'], key=lambda h: h['hist']['count'])
bt = dict(re.findall(r'^@(ns|n)\[%d\]: (\d+)' % h['irq'], open(sys.argv[2]).read(), re.M))
ft, bp = h['total_ns'] / h['hist']['count'], int(bt['ns']) / int(bt['n'])
print(h['name'], h['hist']['count'], round(ft), int(bt['n']), round(bp), -0.18 * bp <= ft - bp <= 0.05 * bp)
" $D/ht.json $D/bt.out 2>&1)
	if [ "${r##* }" = True ] && [ "$(awk '{ print $2 }' <<< "$r")" -ge 2000 ]; then
		pass "$name ($(awk '{ printf "%s: ftscope %d handlers, %d ns each; bpftrace %d, %d ns", $1, $2, $3, $4, $5 }' <<< "$r"))"
	else
		fail $name "$r"
	fi
fi

name=irq_state_restored
rm -f $D/w.dat
if [ "$before" = "$(state)" ]; then
	pass $name
else
	fail $name "$(state_diff "$before" "$(state)")"
fi
