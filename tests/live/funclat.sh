#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: funclat on functions with known latencies: a uprobe on busy_wait()
#              (100 x 200 us, 100 x 2000 us), recursion three deep, system calls of a
#              known nanosleep pattern, funcslower's list, percentiles against the
#              calls' own times, probes removed afterwards, and the one-line answer
#              when the kernel offers no method.
# requires: root, tracefs, uprobe events
. tests/live/lib.sh
plan 13
need_root funclat || exit 0
BF=$WL/busyfn

if [ ! -e $T/uprobe_events ]; then
	skip_rest "this kernel has no uprobe events"
	exit 0
fi
before=$(snapshot)

name=funclat_uprobe_known_latencies
# busyfn times each of its calls itself (BUSYFN_TIMES): a stall of the host lengthens
# its own figure as it lengthens ftscope's, so no run needs to be set aside. ftscope's
# 200 calls split at 1024 us as the workload's own times split, but for calls within
# 40 us of the boundary (counted); no call is shorter than the 200 us asked; the
# average is at most the workload's + 5 us and at least it - 2% - 5 us: the workload's
# own time holds the two probe traps (measured 5.2 and 6.0 us less in ftscope).
# SCHED_FIFO: no guest task preempts the spins.
BUSYFN_TIMES=1 ft $name 0 funclat -u --json $BF:busy_wait -- chrt -f 10 $BF 100 200 100 2000 \
	> $OUT/fl.json 2> $OUT/fl.err
rc=$?
n=$(json "j['total']['count']" $OUT/fl.json 2> /dev/null)
b200=$(json "sum(b['count'] for b in j['total']['buckets'] if 128 <= b['low'] < 1024)" $OUT/fl.json 2> /dev/null)
b2000=$(json "sum(b['count'] for b in j['total']['buckets'] if b['low'] >= 1024)" $OUT/fl.json 2> /dev/null)
min=$(json "j['total']['min_ns'] >= 200000" $OUT/fl.json 2> /dev/null)
avg=$(json "j['total']['avg_ns'] / 1000" $OUT/fl.json 2> /dev/null)
read -r own own200 own2000 near ownavg < <(awk '$1 == "call" { n++; s += $3
	if ($3 < 1024) a++; else b++; if ($3 > 984 && $3 < 1064) m++ }
	END { printf "%d %d %d %d %.1f\n", n, a, b, m, n ? s / n : 0 }' $OUT/fl.err)
d200=$(( b200 > own200 ? b200 - own200 : own200 - b200 ))
if [ $rc -ne 0 ] || [ "$n" != 200 ] || [ "$own" != 200 ]; then
	fail $name "exit $rc, count $n, the workload's $own (expected 200): $(grep -v '^call' $OUT/fl.err | head -2)"
elif [ $((b200 + b2000)) != 200 ] || [ $d200 -gt "$near" ] || [ "$min" != True ]; then
	fail $name "128-1023 us: $b200, >= 1024 us: $b2000; the workload's own: $own200 and $own2000 ($near near 1024 us); min >= 200 us: $min"
elif ! awk -v a="$avg" -v o="$ownavg" 'BEGIN { exit !(a >= o * 0.98 - 5 && a <= o + 5) }'; then
	fail $name "average $avg us, the workload's own $ownavg us"
else
	pass "$name (200 calls: $b200 + $b2000, the workload's own $own200 + $own2000; avg $avg us, own $ownavg us)"
fi

name=funclat_nested_recursion
ft $name 0 funclat -F --json $BF:recurse $BF:busy_wait -- $BF 0 0 0 0 10 3 > $OUT/fl-rec.json \
	2> /dev/null
if [ "$(json "[f['hist']['count'] for f in j['functions']] == [30, 10] and j['unpaired'] == 0 and
	     all(f['hist']['min_ns'] >= 100000 for f in j['functions'])" $OUT/fl-rec.json 2>&1)" = True ]; then
	pass "$name (30 nested calls of recurse, 10 of busy_wait, each >= 100 us)"
else
	fail $name "$(head -c 300 $OUT/fl-rec.json)"
fi

# Recorded with -o, read back with -i: the same report, and a pattern picks a subset.
name=funclat_file_equals_live
rm -f $OUT/fl-rec.dat
ft $name 0 funclat -F $BF:recurse $BF:busy_wait -o $OUT/fl-rec.dat -- $BF 0 0 0 0 10 3 \
	> $OUT/fl-rec-live.txt 2>&1
ft $name 0 funclat -F -i $OUT/fl-rec.dat $BF:recurse $BF:busy_wait > $OUT/fl-rec-file.txt 2>&1
ft $name 0 funclat --json -i $OUT/fl-rec.dat 'busyfn:busy*' > $OUT/fl-rec-one.json 2>&1
one=$(json "(j['total']['count'], len(j['functions']) if 'functions' in j else 1)" $OUT/fl-rec-one.json 2>&1)
if ! cmp -s $OUT/fl-rec-live.txt $OUT/fl-rec-file.txt; then
	fail $name "the report from the file differs: $(diff $OUT/fl-rec-live.txt $OUT/fl-rec-file.txt |
		grep '^[<>]' | head -2 | tr '\n' ' ')"
elif ! grep -q 'count 30' $OUT/fl-rec-file.txt; then
	fail $name "no 'count 30' (recurse) in: $(grep count $OUT/fl-rec-file.txt | head -2 | tr '\n' ' ')"
elif [ "$one" != "(10, 1)" ]; then
	fail $name "busyfn:busy* from the file: (count, functions) $one, expected (10, 1)"
else
	pass "$name (uprobes: identical report; a pattern selects busy_wait's 10 calls)"
fi

name=funclat_syscall_file_equals_live
rm -f $OUT/fl-sys.dat
ft $name 0 funclat -F syscall:clock_nanosleep syscall:read -o $OUT/fl-sys.dat \
	-- $WL/sleeper 0 20 5 > $OUT/fl-sys-live.txt 2>&1
ft $name 0 funclat -F -i $OUT/fl-sys.dat syscall:clock_nanosleep syscall:read \
	> $OUT/fl-sys-file.txt 2>&1
if cmp -s $OUT/fl-sys-live.txt $OUT/fl-sys-file.txt && grep -q 'count 20' $OUT/fl-sys-file.txt; then
	pass $name
else
	fail $name "$(diff $OUT/fl-sys-live.txt $OUT/fl-sys-file.txt | grep '^[<>]' | head -2 | tr '\n' ' ')"
fi

# 20 naps of 10 ms: exactly 20 calls; none shorter than 10 ms (nanosleep never returns
# early: a shorter one is a wrong pairing or a wrong clock); the average 10.0 .. 11.0 ms:
# measured 10.035 .. 10.523 ms over 30 runs on 2026-11-27 (min 10.017 .. 10.104, max
# 10.078 .. 18.223, beside another engineer's profile.sh), + a margin of 0.48 ms (the
# measured spread). min and max are printed; max is not bounded (one nap took 18.2 ms).
name=funclat_syscall_nanosleep
ft $name 0 funclat -m --json syscall:clock_nanosleep -- $WL/sleeper 0 20 10 > $OUT/fl-sys.json \
	2> /dev/null
read -r n minns avgns min avg max < <(json "j['total']['count'], j['total']['min_ns'],
	j['total']['avg_ns'], '%.3f' % (j['total']['min_ns'] / 1e6),
	'%.3f' % (j['total']['avg_ns'] / 1e6), '%.3f' % (j['total']['max_ns'] / 1e6)" $OUT/fl-sys.json \
	2> /dev/null)
if [ "$n" = 20 ] && awk -v m="$minns" -v a="$avgns" \
	'BEGIN { exit !(m >= 10000000 && a >= 10000000 && a <= 11000000) }'; then
	pass "$name (20 calls, min $min avg $avg max $max ms)"
else
	fail $name "count $n min $min avg $avg max $max ms (expected 20 calls, min >= 10 ms, avg 10.0 .. 11.0 ms)"
fi

name=funclat_min_us_list
ft $name 0 funclat --min-us 1500 $BF:busy_wait -- $BF 3 200 2 2000 > $OUT/fl-slow.txt 2> /dev/null
rows=$(awk '$NF == "busyfn:busy_wait" && $3 > 0 && $4 >= 2000 && $5 == 2000' $OUT/fl-slow.txt | wc -l)
if grep -q '^TIME(s) *COMM *PID *LAT(us) *RVAL FUNC$' $OUT/fl-slow.txt && [ "$rows" -eq 2 ]; then
	pass "$name (2 slow calls listed, with their return value)"
else
	fail $name "$rows rows: $(head -3 $OUT/fl-slow.txt | tr '\n' '|')"
fi

# --min-us 0 lists every call (as wakeup and biolatency do; it listed none before):
# exactly the workload's 8 calls, in its order, each row's RVAL the workload's argument,
# each LAT(us) at least the spin asked (the probes sit outside it) and at most the
# workload's own time of that call (its clock reads sit outside the probes' traps; its
# one decimal: + 0.05 us).
name=funclat_min_us_zero_lists_all
BUSYFN_TIMES=1 ft $name 0 funclat --min-us 0 $BF:busy_wait -- $BF 5 20 3 100 \
	> $OUT/fl-zero.txt 2> $OUT/fl-zero.err
rows=$(awk '$NF == "busyfn:busy_wait" { print $5, $4 }' $OUT/fl-zero.txt)
own=$(awk '$1 == "call" { print $2, $3 }' $OUT/fl-zero.err)
bad=$(paste -d' ' <(echo "$rows") <(echo "$own") |
	awk '$1 != $3 || $2 < $1 || $2 > $4 + 0.05 { print }' | head -2 | tr '\n' '|')
comms=$(awk '$NF == "busyfn:busy_wait" { print $2 }' $OUT/fl-zero.txt | sort -u | tr '\n' ' ')
if [ "$(echo "$rows" | awk '{ print $1 }' | tr '\n' ' ')" != "20 20 20 20 20 100 100 100 " ]; then
	fail $name "rows (RVAL LAT): $(echo "$rows" | tr '\n' '|'), expected 5 x 20 then 3 x 100"
elif [ "$comms" != "busyfn " ]; then
	# the command's name from its exec's task_rename ("?" before: gone before /proc)
	fail $name "COMM column: $comms, expected busyfn"
elif [ -n "$bad" ]; then
	fail $name "RVAL LAT against the workload's own US TOOK: $bad"
else
	pass "$name (8 calls listed, each within its own time: $(echo "$rows" | awk '{ printf "%s ", $2 }'))"
fi

# --json: the same calls as rows, a JSON line each as they come, before the report's
# line: RVAL and the latency against the workload's own (as above, to the ns)
name=funclat_min_us_json_rows
BUSYFN_TIMES=1 ft $name 0 funclat --min-us 0 --json $BF:busy_wait -- $BF 5 20 3 100 \
	> $OUT/fl-rows.json 2> $OUT/fl-rows.err
if r=$(python3 - $OUT/fl-rows.json $OUT/fl-rows.err <<'PY'
import sys
from pct_check import json_lines, json_rows
objs, rows = json_lines(sys.argv[1]), json_rows(sys.argv[1])
own = [(int(l.split()[1]), float(l.split()[2])) for l in open(sys.argv[2]) if l.startswith('call ')]
got = [(r['ret'], r['latency_ns'] / 1e3, r['comm']) for r in rows]
print(f'{len(rows)} rows {[g[0] for g in got]}, own {[o[0] for o in own]}; last line final: '
      f'{objs[-1].get("final") if objs else None}')
ok = len(got) == len(own) == 8 and objs[-1].get('final') and \
    all(g[0] == o[0] and o[0] <= g[1] <= o[1] + 0.05 and g[2] == 'busyfn' for g, o in zip(got, own))
sys.exit(0 if ok else 1)
PY
); then
	pass $name
else
	fail $name "$r"
fi
echo "# $r"

# The printed p50, p90 and p99 against the exact nearest-rank values of the calls the
# same run listed (every call: all take >= 20 us). The list gives LAT(us) with 2
# decimals, so each value to within 5 ns; the summary is in ns. Allowed: the
# documented bound, 1/128 (0.78%, inside the 1% goal) of the exact value, plus those
# 5 ns. Both sides come from the same calls: noise moves them alike. 2000 calls over
# about 6 octaves: more than a list would hold, so the percentiles come from the
# slots. The former 1/8-octave slots were 2.8-3.5% off here.
name=funclat_percentiles_exact
ft $name 0 funclat --min-us 1 $BF:busy_wait -- chrt -f 10 $BF 1200 20 800 200 \
	> $OUT/fl-pct.txt 2> /dev/null
if r=$(python3 tests/live/pct_check.py funclat $OUT/fl-pct.txt); then
	pass "$name ($r)"
else
	fail $name "$r"
fi

# The printed p50, p90, p99 and max (JSON) against the workload's own times of the same
# calls (an independent clock: busyfn times each call itself, BUSYFN_TIMES), at the
# nearest ranks: 1200 x 20 us (p50), 750 x 200 us (p90), 50 x 1000 us (p99, max; each
# rank 20 or more into its group). ftscope's time of a call lies inside the workload's,
# by 0.94 to 4.3 us but for 2 to 10 calls of 5 to 92 us a run (the first call's setup,
# and slower traps); pct_check.py own holds each value between the workload's value of
# that rank and the one 20 ranks lower - 5 us, widened by the slots' 1/128 but for the
# max. Measured on 2026-11-27 in 16 runs, ftscope - the workload's own: p50 -0.98 ..
# -1.38 us, p90 -0.67 .. -1.57, p99 -2.19 .. +0.62 (slot midpoints), max -1.14 .. -1.95
# but for three runs whose longest own call held a slow trap (-8.5, -12.1, -23.6 us:
# within the rank bound). SCHED_FIFO: no guest task preempts the spins.
name=funclat_percentiles_vs_own_times
BUSYFN_TIMES=1 BUSYFN_MORE=50,1000 ft $name 0 funclat -u --json $BF:busy_wait -- \
	chrt -f 10 $BF 1200 20 750 200 > $OUT/fl-own.json 2> $OUT/fl-own.err
if r=$(python3 tests/live/pct_check.py own $OUT/fl-own.json $OUT/fl-own.err 2>&1); then
	pass "$name ($r)"
else
	fail $name "$(echo "$r" | tail -1)"
fi

name=funclat_kernel_method
if grep -Eq 'kprobe events +yes' <<< "$(ft $name 0 list)"; then
	skip $name "this kernel has kprobe events (tested in the QEMU tier for kernels without)"
else
	ft $name 3 funclat vfs_read -d 0.1 > $OUT/fl-k.out 2> $OUT/fl-k.err
	rc=$?
	if [ $rc -eq 3 ] && [ "$(wc -l < $OUT/fl-k.err)" -eq 1 ] && grep -q 'neither function_graph' $OUT/fl-k.err; then
		pass "$name (exit 3: $(cat $OUT/fl-k.err))"
	else
		fail $name "exit $rc: $(tr '\n' '|' < $OUT/fl-k.err)"
	fi
fi

name=funclat_probes_removed
if [ "$before" = "$(snapshot)" ] && [ -z "$(grep ftscope_ $T/dynamic_events 2>/dev/null)" ]; then
	pass $name
else
	fail $name "tracefs state changed: $(grep ftscope_ $T/dynamic_events | head -2)"
fi

# funccount where the kernel refuses function filters (this VM: EPERM): exit 3, one line, and
# the instance, its tracer and filter gone. Kernels that accept them: the QEMU tier.
name=funccount_filter_refused
mkdir -p $T/instances/filter-probe-test
refused=0
echo vfs_read > $T/instances/filter-probe-test/set_ftrace_filter 2>/dev/null || refused=1
rmdir $T/instances/filter-probe-test
if [ $refused = 0 ]; then
	skip $name "this kernel accepts function filters (funccount is tested in the QEMU tier)"
else
	before=$(snapshot)
	ft $name 3 funccount vfs_read -d 0.1 > $OUT/fc.out 2> $OUT/fc.err
	rc=$?
	# exit 3: a kernel feature is missing (the man page; funclat vfs_read exits 3 too)
	if [ $rc = 3 ] && [ "$(wc -l < $OUT/fc.err)" = 1 ] &&
	   grep -q 'refuses function filters' $OUT/fc.err && [ "$before" = "$(snapshot)" ]; then
		pass $name
	else
		fail $name "exit $rc: $(tr '\n' '|' < $OUT/fc.err)"
	fi
fi
