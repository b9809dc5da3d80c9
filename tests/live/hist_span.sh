#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: hist --from/--to, the time between two events: napclock's 200 naps of
#              3 ms timed from sys_enter_clock_nanosleep to sys_exit_clock_nanosleep
#              against the workload's own CLOCK_MONOTONIC times, and against bpftrace's
#              @start[tid] spans of the same run; sched_wakeup -> sched_switch next_pid
#              against runqlat on one recording; the one-line errors.
# requires: root, syscalls and sched tracepoints; bpftrace for the peer check
. tests/live/lib.sh
plan 10
need_root hist_span || exit 0
before=$(global_state)

# napclock under a name of its own (bpftrace's filter is by comm)
NAP=$OUT/ftscope-hnap
cp $WL/napclock $NAP
ENTER=syscalls:sys_enter_clock_nanosleep
EXIT=syscalls:sys_exit_clock_nanosleep
rm -f $OUT/hs-nap.txt

# pct_of FILE P...: nearest-rank percentiles (ns) of the numbers in FILE's last column
pct_of() {
	python3 - "$@" << 'EOF'
import math, sys
v = sorted(int(l.split()[-1]) for l in open(sys.argv[1]) if l.strip())
print(len(v), *(v[max(0, math.ceil(float(p) * len(v)) - 1)] for p in sys.argv[2:]))
EOF
}

# near WHO OURS THEIRS LO HI: OURS (spans count min p50 p90 p99 max unmatched restarts
# unstarted) against THEIRS (n p50 p90 p99 [max]): equal counts, 200 spans, and each
# percentile p of ours within [p_theirs - p/128 - LO us, p_theirs + p/128 + HI us] (LO,
# HI: one value, or one per percentile, comma-separated); prints the differences in us
near() {
	python3 - "$@" << 'EOF'
import sys
who = sys.argv[1]
lo = [float(x) * 1000 for x in sys.argv[4].split(",")] * 4
hi = [float(x) * 1000 for x in sys.argv[5].split(",")] * 4
o = [int(x) for x in sys.argv[2].split()]
t = [int(x) for x in sys.argv[3].split()]
ok = o[0] == o[1] == t[0] == 200
for i, (a, b) in enumerate(zip(o[3:7], t[1:])):
	ok = ok and b - b / 128 - lo[i] <= a <= b + b / 128 + hi[i]
print("#", who, "- ftscope at p50 p90 p99 [max] (us):",
      *(round((b - a) / 1000, 1) for a, b in zip(o[3:7], t[1:])))
sys.exit(0 if ok else 1)
EOF
}

# near_ranks OURS THEIRS NAPS LO HI: as near's bpftrace arm, each percentile of rank r
# against THEIRS' values (a file: one span per line) at ranks r - K .. r + K, where K is
# how many of the workload's own naps (NAPS) lasted over 200 us more than its median:
# the host held those, and a hold between the two tools' callbacks moves that span in
# one tool alone (the normal spread: p90 within 40 us of p50)
near_ranks() {
	python3 - "$@" << 'EOF'
import math, sys
lo = [float(x) * 1000 for x in sys.argv[4].split(",")]
hi = [float(x) * 1000 for x in sys.argv[5].split(",")]
o = [int(x) for x in sys.argv[1].split()]
t = sorted(int(l.split()[-1]) for l in open(sys.argv[2]) if l.strip())
w = sorted(int(l.split()[-1]) for l in open(sys.argv[3]) if l.strip())
k = sum(x > w[len(w) // 2] + 200000 for x in w)
ok = o[0] == o[1] == len(t) == 200
for i, (a, p) in enumerate(zip(o[3:6], (0.5, 0.9, 0.99))):
	r = math.ceil(p * len(t))
	down, up = t[max(1, r - k) - 1], t[min(len(t), r + k) - 1]
	ok = ok and down - down / 128 - lo[i] <= a <= up + up / 128 + hi[i]
print("# bpftrace - ftscope at p50 p90 p99 (us):",
      *(round((t[math.ceil(p * len(t)) - 1] - a) / 1000, 1)
        for a, p in zip(o[3:6], (0.5, 0.9, 0.99))), "; K = %d naps held" % k)
sys.exit(0 if ok else 1)
EOF
}

# bpftrace: one span per nap, keyed by tid as its tools do; "e"/"x" once each probe
# is attached (fired by ftscope-hping's naps), no BEGIN/END (see hist.sh)
cat > $OUT/hs.bt << 'BT'
tracepoint:syscalls:sys_enter_clock_nanosleep {
	if (comm == "ftscope-hping" && @e == 0) { @e = 1; printf("e\n"); }
	if (comm == "ftscope-hnap") { @s[tid] = nsecs; }
}
tracepoint:syscalls:sys_exit_clock_nanosleep {
	if (comm == "ftscope-hping" && @x == 0) { @x = 1; printf("x\n"); }
	if (@s[tid] && args->ret == 0) { printf("span %llu\n", nsecs - @s[tid]); delete(@s[tid]); }
}
BT
PING=$OUT/ftscope-hping
cp $WL/napclock $PING
attached() {
	$PING /dev/null 1 1
	grep -q '^e' $OUT/hs-bt.out && grep -q '^x' $OUT/hs-bt.out
}
bt=
if command -v bpftrace > /dev/null; then
	bt_start $OUT/hs-bt.out attached $OUT/hs.bt
fi

# The run both checks read: ftscope follows napclock (200 naps of 3 ms), bpftrace beside.
# SCHED_FIFO (ftscope's, which napclock inherits): no other task preempts napclock
# between its clock reads and the tracepoints, nor between bpftrace's callback and
# ftrace's on this kernel's faultable syscall tracepoints (beside another test's load:
# p99 440 us apart, the workload's max 1.4 ms over ftscope's)
FT_WITH="chrt -f 10" ft hist_span_nanosleep_known 0 hist --from $ENTER --to $EXIT --to-filter 'ret == 0' --json -- $NAP $OUT/hs-nap.txt \
	200 3 > $OUT/hs-nap.json 2> $OUT/hs-nap.err
early=
if [ -n "$bt" ]; then
	early=$(gone $bt && echo "bpftrace had ended before the workload did; ")
	stop_bpftrace $bt
fi
ours=$(json '*(j["spans"], j["total"]["count"], j["total"]["min_ns"], j["total"]["p50_ns"], j["total"]["p90_ns"], j["total"]["p99_ns"], j["total"]["max_ns"], j["unmatched_starts"], j["restarts"], j["ends_without_start"])' $OUT/hs-nap.json 2>&1)

# hist_span_nanosleep_known: napclock's 200 clock_nanosleep calls are 200 spans (its
# first call, refused with EINVAL, ends at a return the filter leaves out: its start is
# replaced by the next call's, one restart, as onmatch and bpftrace's map do), each
# inside the workload's own CLOCK_MONOTONIC interval around its call and no shorter
# than the 3 ms asked: min >= 3 ms; ftscope's p50, p90, p99 and max each at most the
# workload's same percentile + 1/128 (the histogram's precision) and at least it
# - 1/128 - 30 us (the call's way in and out of the kernel, outside the tracepoints,
# with bpftrace's probes beside ftscope's: the workload's time less ftscope's was
# -11.2 to 30.1 us over p50, p90, p99 and max in 13 runs beside other tests)
name=hist_span_nanosleep_known
theirs=$(pct_of $OUT/hs-nap.txt 0.5 0.9 0.99 1 2>&1)
if near napclock "$ours" "$theirs" 30 0 && [ "$(echo $ours | cut -d' ' -f8-)" = "0 1 0" ] &&
	[ "$(echo $ours | cut -d' ' -f3)" -ge 3000000 ]; then
	pass $name
else
	fail $name "ftscope $ours; napclock $theirs: $(head -1 $OUT/hs-nap.err)"
fi

# hist_span_matches_bpftrace: bpftrace's @s[tid] spans of the same naps: the same count,
# and ftscope's p50, p90, p99 within 1/128 (its precision) + 45, 60, 120 us of the
# nearest-rank percentiles of bpftrace's 200 values, K ranks either side (near_ranks: K
# the naps the host held by the workload's own clock). Each tool's clock is read in its
# own callback of the same tracepoints, so either span holds the other's probe costs
# (and an interrupt between them): bpftrace's spans were 10.8 to 154 us (median 14)
# shorter than the workload's own interval, call by call; ftscope's percentiles less
# bpftrace's were 3.5 to 36.0 us at p50, -1.2 to 43.5 at p90, -3.6 to 88.5 at p99 over
# 22 runs beside other tests. In a fresh root ftscope's p99 was 205 us over bpftrace's
# with no ranks' slack: the workload's six held naps (3.9 to 6.19 ms) were ftscope's six
# longest (its max 6.18 ms), bpftrace's max 4.22 ms. A span 100 us too long fails at p50
name=hist_span_matches_bpftrace
if [ -z "$bt" ]; then
	fail $name "bpftrace is not installed or did not attach: $(grep -m1 ERROR $OUT/hs-bt.out 2>/dev/null)"
else
	grep '^span ' $OUT/hs-bt.out > $OUT/hs-bt.spans
	theirs=$(pct_of $OUT/hs-bt.spans 0.5 0.9 0.99 2>&1)
	if near_ranks "$ours" $OUT/hs-bt.spans $OUT/hs-nap.txt 45,60,120 45,60,120; then
		pass $name
	else
		fail $name "${early}ftscope $ours; bpftrace $theirs"
	fi
fi

# hist_span_restart_latest: napclock's 21 clock_nanosleep calls (its refused first and 20
# naps of 3 ms) are starts of one key, its exit (sched_process_exit, pid) their one
# end: 20 restarts, 1 span, which starts at the last nap (the latest start wins): at
# least the workload's own time of that nap - 1/128 - 30 us (as above) and at most it +
# 5 ms (napclock writes its 20 lines and exits: measured 0.18 to 0.53 ms after the nap).
# Were the first start kept, the span would hold all 20 naps (60 ms and more)
name=hist_span_restart_latest
FT_WITH="chrt -f 10" ft $name 0 hist --from $ENTER --to sched:sched_process_exit \
	--match common_pid=pid --json -- $NAP $OUT/hs-last.txt 20 3 > $OUT/hs-last.json \
	2> $OUT/hs-last.err
got=$(json '*(j["spans"], j["restarts"], j["unmatched_starts"], j["total"]["min_ns"])' $OUT/hs-last.json 2>&1)
last=$(tail -1 $OUT/hs-last.txt 2>/dev/null | awk '{ print $3 }')
echo "# restart: ftscope (spans restarts unmatched span_ns) $got; the last nap $last ns"
if python3 - "$got" "$last" << 'EOF'
import sys
o = [int(x) for x in sys.argv[1].split()]
b = int(sys.argv[2])
sys.exit(0 if o[:3] == [1, 20, 0] and b - b / 128 - 30000 <= o[3] <= b + 5000000 else 1)
EOF
then
	pass $name
else
	fail $name "ftscope $got, the last nap $last: $(head -1 $OUT/hs-last.err)"
fi

# hist_span_matches_runqlat: one recording of the whole system (a recording of -p keeps
# the records the kernel filters to the sleeper's, and its switch-ins from the idle
# task are not among them) while a sleeper at SCHED_FIFO naps 300 x 1 ms (-t its
# thread at -i), read by runqlat --exact and by three spans into the switch-in: from
# sched_wakeup, sched_wakeup_new, and a switch-out while runnable (prev_state 0:
# preempted), runqlat's three starts. runqlat's count is at least the sum of the
# wakeup and wakeup_new spans and at most that plus the preempted ones (a wakeup while
# preempted is one wait to runqlat, its last start, and two spans); with no preemption
# (none in 10 runs) the wakeup span's count and percentiles are runqlat's exactly: the
# same records through the same histogram code (consistency). The sleeper's 300 naps
# and its FIFO read are 300 to 302 waits: the spans, or switch-ins the kernel left out
# of the records (unpinned, 297 to 301 of them in 5 of 11 runs here; the chain rebuilds them,
# and runqlat --exact leaves them out as the spans, which read records, do): such a
# recording is made again, up to 3 times, until at least 290 of its waits are records
name=hist_span_matches_runqlat
# rq_run: record the sleeper, then read the recording with the spans and runqlat
rq_run() {
	# the sleeper waits on a FIFO until the recording is on, so that its naps are all in it
	rm -f $OUT/hs.fifo
	mkfifo $OUT/hs.fifo
	# pinned to CPU 0 beside a SCHED_IDLE filler: no switch-in comes out of idle (this
	# VM's kernel leaves such switches out of its records, on CPU 1 always: unpinned, 5 of
	# 11 recordings lost 297 to 301 of the 300 waits' switch-ins)
	chrt -i 0 taskset -c 0 $WL/burn2 4000 0 2> /dev/null &
	filler=$!
	chrt -f 10 taskset -c 0 sh -c "read go < $OUT/hs.fifo; exec $NAP /dev/null 300 1" &
	napper=$!
	$FTSCOPE record -o $OUT/hs.dat -d 2 runqlat > $OUT/hs-rec.out 2> $OUT/hs-rec.err &
	rp=$!
	wait_for 30 our_instance $rp
	echo go > $OUT/hs.fifo
	wait $napper
	ft_wait $name 0 $rp
	kill $filler 2> /dev/null
	wait $filler 2> /dev/null
	rm -f $OUT/hs.fifo
	ft $name 0 hist -i $OUT/hs.dat -t $napper --from sched:sched_wakeup --to $SW \
		--match pid=next_pid --json > $OUT/hs-w.json 2> $OUT/hs-rq.err
	ft $name 0 hist -i $OUT/hs.dat -t $napper --from sched:sched_wakeup_new --to $SW \
		--match pid=next_pid --json > $OUT/hs-wn.json 2>> $OUT/hs-rq.err
	ft $name 0 hist -i $OUT/hs.dat -t $napper --from $SW --from-filter 'prev_state == 0' \
		--to $SW --match prev_pid=next_pid --json > $OUT/hs-p.json 2>> $OUT/hs-rq.err
	ft $name 0 runqlat -i $OUT/hs.dat -t $napper --exact --json > $OUT/hs-rq.json \
		2>> $OUT/hs-rq.err
	w=$(json "$q" $OUT/hs-w.json 2>&1)
	wc=$(json 'j["total"]["count"]' $OUT/hs-w.json 2>&1)
	wn=$(json 'j["total"]["count"]' $OUT/hs-wn.json 2>&1)
	p=$(json 'j["total"]["count"]' $OUT/hs-p.json 2>&1)
	rq=$(json "$q" $OUT/hs-rq.json 2>&1)
	rqc=$(json 'j["total"]["count"]' $OUT/hs-rq.json 2>&1)
	rqx=$(json 'j["left_out_exact"]' $OUT/hs-rq.json 2>&1)
}
SW=sched:sched_switch
q='j["total"]["count"], j["total"]["p50_ns"], j["total"]["p90_ns"], j["total"]["p99_ns"]'
# a recording whose sleeper's switch-ins the kernel left out compares nothing: up to 3
for try in 1 2 3; do
	rq_run
	[ "$wc" -ge 290 ] 2>/dev/null && break
done
echo "# runqlat $rq, $rqx left out; spans: wakeup $w, wakeup_new $wn, preempted $p"
if [ "$rqc" -ge "$((wc + wn))" ] 2>/dev/null && [ "$rqc" -le "$((wc + wn + p))" ] &&
	[ "$((wc + rqx))" -ge 300 ] && [ "$((wc + rqx))" -le 302 ] && [ "$wc" -ge 290 ] &&
	{ [ "$p" != 0 ] || [ "$w" = "$rq" ]; }; then
	pass $name
else
	why="runqlat $rq, $rqx left out; spans: wakeup $w, wakeup_new $wn, preempted $p"
	fail $name "$why (try $try): $(head -1 $OUT/hs-rq.err)"
fi
[ -n "$HS_KEEP" ] || rm -f $OUT/hs.dat

# hist_span_reads_exact, hist_span_losses_bounded: dd bs=1 count=200000 reads fd 0 200000
# times; the spans from sys_enter_read (fd 0) to sys_exit_read are those calls. Each
# record the kernel lost (its count, the footer's) breaks at most one of them, and a
# pending start dropped at a loss is one of those: N - lost - dropped <= spans <= N
# (exact when nothing is lost). The default buffer lost nothing in 5 runs here; with
# -b 4 (4 KB a CPU) the kernel lost 33633 to 47340 records and spans were 176312 to
# 183156: there the check needs losses, and pending starts dropped after them
DD=$OUT/ftscope-hsdd
cp "$(command -v dd)" $DD
for b in exact 4; do
	name=hist_span_reads_exact
	opt=
	if [ $b = 4 ]; then
		name=hist_span_losses_bounded
		opt="-b 4"
	fi
	ft $name 0 hist --from syscalls:sys_enter_read --from-filter 'fd == 0' \
		--to syscalls:sys_exit_read $opt --json -- $DD if=/dev/zero of=/dev/null bs=1 \
		count=200000 > $OUT/hs-dd.json 2> $OUT/hs-dd.err
	got=$(json '*(j["spans"], j["lost"], j["dropped_after_lost"], j["unmatched_starts"])' \
		$OUT/hs-dd.json 2>&1)
	echo "# $name: spans lost dropped unmatched: $got"
	if python3 - "$got" $b << 'EOF'
import sys
spans, lost, dropped, unmatched = (int(x) for x in sys.argv[1].split())
ok = 200000 - lost - dropped <= spans <= 200000 and unmatched <= 1
if sys.argv[2] == "4":
	ok = ok and lost > 0 and dropped > 0
sys.exit(0 if ok else 1)
EOF
	then
		pass $name
	else
		fail $name "spans lost dropped unmatched: $got: $(head -1 $OUT/hs-dd.err)"
	fi
done
rm -f $DD

# hist_span_bad_*: one line each, and the exit status the man page gives: 2 for the
# command line, 1 for an event field the format lacks, the kernel's answer for an event
# it lacks (3: what the kernel lacks; 1 on a binary before issue 36's item 5)
name=hist_span_bad_usage
ft $name 2 hist --to $EXIT > /dev/null 2> $OUT/hs-bad1.err
ft $name 2 hist -e $ENTER --from $ENTER --to $EXIT > /dev/null 2> $OUT/hs-bad2.err
ft $name 2 hist --from nocolon --to $EXIT > /dev/null 2> $OUT/hs-bad3.err
ft $name 2 hist --from $ENTER --to $EXIT --filter 'ret == 0' > /dev/null 2> $OUT/hs-bad7.err
# plain hist has no histogram to export (it took --prometheus and printed nothing once)
ft $name 2 hist -e $ENTER --heatmap $OUT/hs-bad.svg -d 1 > /dev/null 2> $OUT/hs-bad8.err
if [ "$(cat $OUT/hs-bad1.err)" = "ftscope hist: a span needs --from SYS:EVENT and --to SYS:EVENT: --from is missing" ] &&
	[ "$(wc -l < $OUT/hs-bad2.err)" = 1 ] && grep -q -- '--from-filter\|--key' $OUT/hs-bad2.err &&
	[ "$(cat $OUT/hs-bad3.err)" = "ftscope hist: bad --from 'nocolon': expected SYSTEM:EVENT" ] &&
	[ "$(cat $OUT/hs-bad7.err)" = "ftscope hist: --filter reads one event: with --from and --to, use --from-filter and --to-filter" ] &&
	[ "$(cat $OUT/hs-bad8.err)" = "ftscope hist: --prometheus and --heatmap export a span's histogram (--from/--to); hist -e has none" ]; then
	pass $name
else
	fail $name "$(cat $OUT/hs-bad[12378].err | tr '\n' '|')"
fi
name=hist_span_bad_field
ft $name 1 hist --from $ENTER --to $EXIT --match nosuch -d 1 > /dev/null 2> $OUT/hs-bad4.err
ft $name 1 hist --from $ENTER --to $EXIT --to-filter 'nosuch == 1' -d 1 > /dev/null \
	2> $OUT/hs-bad5.err
if [ "$(wc -l < $OUT/hs-bad4.err)" = 1 ] && grep -q "no field 'nosuch'" $OUT/hs-bad4.err &&
	[ "$(wc -l < $OUT/hs-bad5.err)" = 1 ] && grep -q "no field 'nosuch'" $OUT/hs-bad5.err; then
	pass $name
else
	fail $name "$(cat $OUT/hs-bad4.err $OUT/hs-bad5.err | tr '\n' '|')"
fi
name=hist_span_bad_event
ft $name 3 hist --from sched:nosuch --to $EXIT -d 1 > /dev/null 2> $OUT/hs-bad6.err
if [ "$(wc -l < $OUT/hs-bad6.err)" = 1 ] && grep -q "^ftscope hist: .*sched:nosuch" $OUT/hs-bad6.err; then
	pass $name
else
	fail $name "$(tr '\n' '|' < $OUT/hs-bad6.err)"
fi

rm -f $NAP $PING
name=hist_span_state_restored
after=$(global_state)
if [ "$before" = "$after" ]; then
	pass $name
else
	fail $name "$(state_diff "$before" "$after")"
fi
