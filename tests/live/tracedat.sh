#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: trace.dat files. Recordings trace-cmd reads (its event count equals what
#              ftscope says it wrote); offline timehist equals the live run over the same
#              events (also under -C with a followed command, whose file keeps the -C set;
#              the footer then counts -C's CPUs only); LISA's trace.dat (v6) and trace-cmd's v7 and zstd v7 conversions of it
#              (and a zlib one) give trace-cmd's sched_switch count and times; a v7 file
#              listing only the CPUs with data reads as trace-cmd reads it; losses a live
#              run reported are read back per CPU; damaged files give one error. The
#              LISA checks have twins on a recording made here (v7, zstd and zlib
#              conversions equal to it; damaged copies at known places), which a plain
#              clone without ../shared still runs.
# requires: trace-cmd (report, convert); root for the recordings; ../shared for LISA
. tests/live/lib.sh
plan 19
SHARED=${FTSCOPE_SHARED:-../shared}
LISA=$SHARED/fixtures/third_party/lisa/sched_load.trace.dat

# tc_events FILE: the events trace-cmd report prints (its "cpus=N" line is not one)
tc_events() {
	trace-cmd report -i "$1" 2>/dev/null | grep -vc '^cpus='
}

# switch_times: "TIME" of each sched_switch, from trace-cmd report (stdin), sorted
tc_switch_times() {
	awk '/ sched_switch: / { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {
		print substr($i, 1, length($i) - 1); break } }' | sort
}

# ft_switch_times: the time column of ftscope timehist rows (stdin), sorted
ft_switch_times() {
	awk '$1 ~ /^[0-9]+\.[0-9]+$/ { print $1 }' | sort
}

# same_times A B: same count, each time within 1 us (trace-cmd rounds, timehist truncates)
same_times() {
	python3 - "$1" "$2" <<'EOF'
import sys
a = [float(x) for x in open(sys.argv[1])]
b = [float(x) for x in open(sys.argv[2])]
if len(a) != len(b):
    sys.exit("%d switches vs %d" % (len(a), len(b)))
bad = [(x, y) for x, y in zip(a, b) if abs(x - y) > 1.5e-6]
if bad:
    sys.exit("%d times differ, first %s vs %s" % (len(bad), bad[0][0], bad[0][1]))
print("%d switches, times within 1 us" % len(a))
EOF
}

have_tc=1
command -v trace-cmd > /dev/null || have_tc=0

# --- LISA's trace.dat, and trace-cmd's own v7 conversions of it ---
if [ ! -f "$LISA" ]; then
	skip tracedat_lisa_switches "no $LISA (../shared fixtures)"
	skip tracedat_v7_and_zstd_equal_v6 "no $LISA (../shared fixtures)"
elif [ $have_tc = 0 ]; then
	skip tracedat_lisa_switches "no trace-cmd"
	skip tracedat_v7_and_zstd_equal_v6 "no trace-cmd"
else
	trace-cmd report -i "$LISA" 2>/dev/null | tc_switch_times > $OUT/lisa-tc.ts
	ft tracedat_lisa_switches 0 timehist -i "$LISA" > $OUT/lisa-th.txt 2>&1
	ft_switch_times < $OUT/lisa-th.txt > $OUT/lisa-ft.ts
	if r=$(same_times $OUT/lisa-tc.ts $OUT/lisa-ft.ts) && [ -s $OUT/lisa-tc.ts ]; then
		pass tracedat_lisa_switches
	else
		fail tracedat_lisa_switches "$r"
	fi
	echo "# LISA sched_load.trace.dat (v6, 6 CPUs): $r"
	rm -f $OUT/lisa7.dat $OUT/lisa7z.dat $OUT/lisa7zl.dat
	trace-cmd convert --file-version 7 --compression none -i "$LISA" -o $OUT/lisa7.dat \
		> /dev/null 2>&1
	trace-cmd convert --file-version 7 --compression zstd -i "$LISA" -o $OUT/lisa7z.dat \
		> /dev/null 2>&1
	# Debian's trace-cmd has no zlib: the same file compressed with zlib by our script
	[ -s $OUT/lisa7.dat ] && python3 tests/live/tdat_craft.py zlib $OUT/lisa7.dat $OUT/lisa7zl.dat
	r=""
	for f in lisa7 lisa7z lisa7zl; do
		if [ ! -s $OUT/$f.dat ]; then
			r="$r trace-cmd convert made no $f.dat;"
			continue
		fi
		ft tracedat_v7_and_zstd_equal_v6 0 timehist -i $OUT/$f.dat > $OUT/$f-th.txt 2>&1
		cmp -s $OUT/lisa-th.txt $OUT/$f-th.txt || r="$r $f differs from v6;"
	done
	if [ -z "$r" ]; then
		pass tracedat_v7_and_zstd_equal_v6
	else
		fail tracedat_v7_and_zstd_equal_v6 "$r"
	fi
fi

# --- a v7 file whose BUFFER option lists only the CPUs with data ---
# tests/data/tdat-v7-zstd-cpus-0125.dat: an ftscope recording (sh running sleeps, 1612
# events) whose pages tdat_craft.py sparse dealt to CPUs 0, 1, 2 and 5 of 6, then
# `trace-cmd convert --file-version 7 --compression zstd`: its BUFFER option counts 4
# CPUs and names CPU 5. Every event, and each CPU's switches, as trace-cmd reads them.
SPARSE=tests/data/tdat-v7-zstd-cpus-0125.dat
if [ $have_tc = 0 ]; then
	skip tracedat_v7_sparse_cpus "no trace-cmd"
else
	tc=$(tc_events $SPARSE)
	r=""
	for a in timehist runqlat; do
		ft tracedat_v7_sparse_cpus 0 $a -i $SPARSE > $OUT/sparse-$a.txt 2> $OUT/sparse-$a.err
		n=$(sed -n 's/^\([0-9]*\) events processed.*/\1/p' $OUT/sparse-$a.txt)
		[ "$n" = "$tc" ] || r="$r $a: '$n' events, trace-cmd $tc ($(head -1 $OUT/sparse-$a.err));"
	done
	# each timehist row (CPU, time) is a switch trace-cmd shows on that CPU (1 us:
	# trace-cmd rounds, timehist truncates), and every CPU with data has rows
	trace-cmd report -i $SPARSE 2>/dev/null > $OUT/sparse-tc.txt
	m=$(python3 - $OUT/sparse-tc.txt $OUT/sparse-timehist.txt <<'EOF'
import re, sys
tc = {}
for line in open(sys.argv[1]):
    # trace-cmd 3.3 (Debian 13) prints each record's flags after its CPU ("[002] d..2.")
    m = re.search(r'\[(\d+)\]\s+(?:\S+\s+)?(\d+\.\d+): sched_switch:', line)
    if m:
        tc.setdefault(int(m.group(1)), []).append(float(m.group(2)))
# rows ending in ^ are switch-ins rebuilt from later records: no switch of their own
rows = [(int(c), float(t)) for t, c, rebuilt in
        re.findall(r'^\s*(\d+\.\d+) \[(\d+)\].*?(\^?)\s*$', open(sys.argv[2]).read(), re.M)
        if not rebuilt]
bad = [(c, t) for c, t in rows if not any(abs(t - x) < 1.5e-6 for x in tc.get(c, []))]
cpus = sorted({c for c, _ in rows})
if bad or cpus != sorted(tc):
    print('%d of %d rows on no switch of their CPU (first %s); CPUs %s vs %s' %
          (len(bad), len(rows), bad[:1], cpus, sorted(tc)))
    sys.exit(1)
print('%d rows on CPUs %s' % (len(rows), cpus))
EOF
	) || r="$r $m;"
	if [ -z "$r" ] && [ "$tc" -gt 0 ]; then
		pass tracedat_v7_sparse_cpus
	else
		fail tracedat_v7_sparse_cpus "$r"
	fi
	echo "# CPUs 0, 1, 2, 5 in a v7 zstd file: $tc events as trace-cmd reads; timehist $m"
fi

# -C, -p and -t on a capture, as perf sched timehist takes them on a perf.data. -C 5:
# the rows (time, CPU, task) are exactly the unfiltered run's rows on CPU 5, each a switch
# trace-cmd shows there. -p 21884 (sh): sh and every descendant trace-cmd shows it forking, of the tasks
# that ran; -t 21885: that thread alone.
name=tracedat_file_filters
if [ $have_tc = 0 ]; then
	skip $name "no trace-cmd"
else
	ft $name 0 timehist -C 5 -i $SPARSE > $OUT/filt-c5.txt 2>&1
	ft $name 0 timehist -s -p 21884 -i $SPARSE > $OUT/filt-p.txt 2>&1
	ft $name 0 timehist -s -t 21885 -i $SPARSE > $OUT/filt-t.txt 2>&1
	ft $name 0 timehist -s -i $SPARSE > $OUT/filt-all.txt 2>&1
	m=$(python3 - $OUT/sparse-tc.txt $OUT/sparse-timehist.txt $OUT/filt-c5.txt \
		$OUT/filt-all.txt $OUT/filt-p.txt $OUT/filt-t.txt <<'PY'
import re, sys
tcf, allrows, c5, alls, ps, ts = (open(f).read() for f in sys.argv[1:])
row = re.compile(r'^\s*\d+\.\d+ \[\d+\]')
# (time, CPU, task) of each row: waits differ, as in a live -C run the wakeups recorded
# on other CPUs are not there
key = lambda l: tuple(l.split()[:3])
want = [key(l) for l in allrows.split('\n') if re.match(r'^\s*\d+\.\d+ \[0005\]', l)]
got = [key(l) for l in c5.split('\n') if row.match(l)]
sw = [float(t) for t in re.findall(r'\[005\]\s+(?:\S+\s+)?(\d+\.\d+): sched_switch:', tcf)]
bad = [l for l in c5.split('\n') if row.match(l) and not l.rstrip().endswith('^') and
       not any(abs(float(l.split()[0]) - x) < 1.5e-6 for x in sw)]
msg = []
if got != want or bad or not got:
    msg.append(f'-C 5: {len(got)} rows, want the {len(want)} on CPU 5; {len(bad)} on no switch')
kids = {}
for par, child in re.findall(r'sched_process_fork:.*? pid=(\d+) .*child_pid=(\d+)', tcf):
    kids.setdefault(int(par), []).append(int(child))
desc, todo = set(), [21884]
while todo:
    t = todo.pop()
    if t not in desc:
        desc.add(t)
        todo += kids.get(t, [])
def tids(text):
    return {int(t) for t in re.findall(r'^\s+\S+\[(\d+)(?:/\d+)?\]\s+-?\d+\s', text, re.M)}
ran = tids(alls)
if tids(ps) != ran & desc or len(ran & desc) < 2:
    msg.append(f'-p: {len(tids(ps))} tasks, want {len(ran & desc)} of sh and its descendants')
if tids(ts) != {21885}:
    msg.append(f'-t: {sorted(tids(ts))}')
print('; '.join(msg) if msg else f'{len(got)} rows on CPU 5; -p {len(tids(ps))} tasks')
sys.exit(1 if msg else 0)
PY
	) && pass $name || fail $name "$m"
	echo "# $name: $m"
fi

# --- damaged files: one error line, no crash; LISA's (its twin on our own recording:
# tracedat_own_damaged) ---
src=$LISA
[ -f "$src" ] || src=""
if [ -z "$src" ]; then
	skip tracedat_damaged "no trace.dat to damage (../shared fixtures)"
else
	size=$(stat -c %s "$src")
	printf 'not a trace' > $OUT/bad-magic.dat
	head -c 100 "$src" > $OUT/bad-trunc-header.dat
	head -c $((size - 20000)) "$src" > $OUT/bad-trunc-data.dat
	# flipped bytes in the metadata (sizes, formats) and in the pages (headers, records):
	# 0x316000 is where LISA's CPU data starts (trace-cmd report --stat)
	python3 - "$src" $OUT/bad-flip <<'EOF'
import random, sys
d0 = open(sys.argv[1], 'rb').read()
for seed in range(1, 6):
    r = random.Random(seed)
    for name, lo, hi in (('meta', 0, 0x2000), ('data', 0x316000, len(d0))):
        d = bytearray(d0)
        for _ in range(40):
            d[r.randrange(lo, hi)] ^= 1 << r.randrange(8)
        open('%s-%s%d.dat' % (sys.argv[2], name, seed), 'wb').write(d)
EOF
	# every page's commit word (8 bytes after the timestamp) claims more than a page
	python3 - "$src" $OUT/bad-commit.dat <<'EOF'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
off = 0x316000                      # CPU 0's data in LISA's file (trace-cmd report --stat)
struct.pack_into('<Q', d, off + 8, 0xfffff)
open(sys.argv[2], 'wb').write(d)
EOF
	r=""
	for f in bad-magic bad-trunc-header bad-trunc-data bad-commit \
		 bad-flip-meta{1..5} bad-flip-data{1..5}; do
		# not a trace.dat at all: an error (1); damaged inside: an error, or a report that
		# says what it left out (0); never a crash (128 + a signal)
		want="0|1"
		[[ $f = bad-magic || $f = bad-trunc-header ]] && want=1
		ft tracedat_damaged "$want" timehist -i $OUT/$f.dat > $OUT/$f.out 2> $OUT/$f.err
		rc=$?
		lines=$(wc -l < $OUT/$f.err)
		if [ $rc -ge 128 ]; then
			r="$r $f: crashed ($rc);"
		elif [ $rc -ne 0 ] && [ "$lines" -ne 1 ]; then
			r="$r $f: $lines error lines;"
		elif [ $rc -eq 0 ] && [[ $f != bad-flip-* ]] &&
		     ! grep -q 'damaged pages\|malformed' $OUT/$f.out; then
			r="$r $f: accepted without a word;"
		fi
		echo "# $f: exit $rc: $(head -1 $OUT/$f.err)$(grep -o '[0-9]* damaged pages' $OUT/$f.out)"
	done
	if [ -z "$r" ]; then
		pass tracedat_damaged
	else
		fail tracedat_damaged "$r"
	fi
fi

# wakeup --wakers prints the 20 most frequent pairs and says how many more there are;
# --wakers-top N prints N (0: all). Oracle: the JSON of the same file, which lists all.
name=wakeup_wakers_top
ft $name 0 wakeup --wakers --json -i $SPARSE > $OUT/wk.json 2>&1
r=""
for top in default 5 0; do
	opt=""
	[ $top = default ] || opt="--wakers-top $top"
	# shellcheck disable=SC2086
	ft $name 0 wakeup --wakers $opt -i $SPARSE > $OUT/wk-$top.txt 2>&1
	r="$r$(python3 - $OUT/wk.json $OUT/wk-$top.txt $top <<'PY'
import json, re, sys
pairs = json.load(open(sys.argv[1]))['wakers']
text = open(sys.argv[2]).read().split('\n')
top = 20 if sys.argv[3] == 'default' else int(sys.argv[3])
want = pairs if top == 0 else pairs[:top]
rows = [tuple(int(x) for x in m.groups()) for m in
        (re.match(r'^.{16} (\d+)\s+-> .{16} (\d+)\s+(\d+) ', l) for l in text) if m]
more = [int(m.group(1)) for m in (re.match(r'^\.\.\. (\d+) more pairs', l) for l in text) if m]
exp = [(p['waker'], p['wakee'], p['count']) for p in want]
left = len(pairs) - len(want)
if len(pairs) <= 20 or rows != exp or more != ([left] if left else []):
    print(f' top {sys.argv[3]}: {len(rows)} rows, more {more}; JSON {len(pairs)} pairs;', end='')
PY
)"
done
if [ -z "$r" ]; then
	pass $name
else
	fail $name "$r"
fi

# --- recordings (root) ---
need_root tracedat_record_trace_cmd_count || exit 0
if [ $have_tc = 0 ]; then
	skip tracedat_record_trace_cmd_count "no trace-cmd"
	skip tracedat_record_cpustat_cpu_lines "no trace-cmd"
else
	rm -f $OUT/rec.dat
	ft tracedat_record_trace_cmd_count 0 record --json -o $OUT/rec.dat -- \
		taskset -c 0 $WL/sleeper 0 20 5 > $OUT/rec.json 2> $OUT/rec.err
	ours=$(json "j['events']" $OUT/rec.json 2>/dev/null)
	theirs=$(tc_events $OUT/rec.dat)
	sw=$(trace-cmd report -i $OUT/rec.dat 2>/dev/null | grep -c 'sleeper.*sched_switch:.*==>')
	if [ -n "$ours" ] && [ "$ours" = "$theirs" ] && [ "$sw" -ge 20 ]; then
		pass tracedat_record_trace_cmd_count
	else
		fail tracedat_record_trace_cmd_count "ftscope wrote '$ours', trace-cmd reads $theirs, sleeper switches $sw: $(head -1 $OUT/rec.err)"
	fi
	echo "# record: $ours events written, trace-cmd report: $theirs; sleeper switch-outs $sw"
	# each CPU's kernel counters under "CPU: N", as trace-cmd writes them: the CPUs
	# trace-cmd lists are 0 .. nproc-1, in order
	cpus=$(trace-cmd report --stat -i $OUT/rec.dat 2>/dev/null | sed -n 's/^CPU: \([0-9]*\)$/\1/p' | tr '\n' ' ')
	if [ "$cpus" = "$(seq -s ' ' 0 $(($(nproc) - 1))) " ]; then
		pass tracedat_record_cpustat_cpu_lines
	else
		fail tracedat_record_cpustat_cpu_lines "trace-cmd report --stat lists CPUs '$cpus'"
	fi
fi

# the live report and the report of the file it wrote: the same rows
ft tracedat_timehist_file_equals_live 0 timehist -o $OUT/th-live.dat -- \
	taskset -c 0 $WL/sleeper 0 20 5 > $OUT/th-live.txt 2>&1
ft tracedat_timehist_file_equals_live 0 timehist -i $OUT/th-live.dat > $OUT/th-file.txt 2>&1
rows=$(ft_switch_times < $OUT/th-live.txt | wc -l)
if [ "$rows" -ge 20 ] && cmp -s $OUT/th-live.txt $OUT/th-file.txt; then
	pass tracedat_timehist_file_equals_live
else
	fail tracedat_timehist_file_equals_live "$rows rows; $(diff $OUT/th-live.txt $OUT/th-file.txt | head -3 | tr '\n' ' ')"
fi
echo "# timehist live and from its trace.dat: $rows rows, identical"

# -C with a followed command: the kernel records the command's tasks on every CPU (a
# fork elsewhere must be seen) and ftscope reports -C's; the file keeps the -C set
# (its VERSION text), so -i without -C prints what the live run printed, and an
# explicit -C on -i wins. Two sleepers of 10 naps, the first pinned to CPU 1, the
# second to CPU 0: live and file equal, the CPU 0 sleeper's 10 naps, no row on CPU 1;
# -i -C 1: the other sleeper's 10 naps. (Before the file kept -C: 7 more rows on CPU 1.)
name=tracedat_cpus_file_equals_live
C2="$WL/sleeper 1 10 5; $WL/sleeper 0 10 5"
ft $name 0 timehist --state -C 0 -o $OUT/cs.dat -- sh -c "$C2" > $OUT/cs-live.txt 2>&1
ft $name 0 timehist --state -i $OUT/cs.dat > $OUT/cs-file.txt 2>&1
ft $name 0 timehist --state -C 1 -i $OUT/cs.dat > $OUT/cs-file1.txt 2>&1
# naps CPU FILE: the sleeper's S rows on CPU (a "^" may follow the state); rows on other CPUs
naps() {
	awk -v c=$(printf '[%04d]' $1) '{ st = $NF == "^" ? $(NF - 1) : $NF }
		$3 ~ /^sleeper\[/ && $2 == c && st == "S" { n++ }
		$1 ~ /^[0-9]+\.[0-9]+$/ && $2 != c { o++ } END { print n + 0, o + 0 }' $2
}
n0=$(naps 0 $OUT/cs-live.txt) n1=$(naps 1 $OUT/cs-file1.txt)
if cmp -s $OUT/cs-live.txt $OUT/cs-file.txt && [ "$n0" = "10 0" ] && [ "$n1" = "10 0" ]; then
	pass "$name (CPU 0: 10 naps, no other row; -i -C 1: 10 naps)"
else
	fail $name "naps, rows elsewhere: live -C 0 '$n0', -i -C 1 '$n1'; $(diff $OUT/cs-live.txt \
$OUT/cs-file.txt | head -3 | tr '\n' ' ')"
fi

# an analyzer's footer under -C counts -C's CPUs only, though the kernel recorded every
# CPU: the same command (--json): events equal to the CPU 0 records trace-cmd reads in
# the file, losses and rebuilt switch-ins per CPU zero for CPU 1 (this kernel rebuilds
# some there: -i -C 0,1 shows them, in the pass line), the same figures from -i -C 0.
# (Before: events counted every CPU's records, the switch-ins CPU 1's.)
name=tracedat_cpus_footer_counts
ft $name 0 timehist --json -C 0 -o $OUT/cj.dat -- sh -c "$C2" > $OUT/cj-live.json 2>&1
ft $name 0 timehist --json -C 0 -i $OUT/cj.dat > $OUT/cj-file.json 2>&1
ft $name 0 timehist --json -C 0,1 -i $OUT/cj.dat > $OUT/cj-both.json 2>&1
if [ $have_tc = 0 ]; then
	skip $name "no trace-cmd"
elif r=$(python3 - $OUT/cj-live.json $OUT/cj-file.json $OUT/cj-both.json \
	"$(trace-cmd report -i $OUT/cj.dat 2>/dev/null | grep -c ' \[000\] ')" 2>&1 <<'PY'
import sys
from pct_check import last_json
def foot(path):
    j = last_json(path)
    return j['events'], j['lost_per_cpu'], j['switch_ins_reconstructed_per_cpu']
live, file, both, tc = foot(sys.argv[1]), foot(sys.argv[2]), foot(sys.argv[3]), int(sys.argv[4])
if live != file or live[0] != tc or live[1][1] or live[2][1] or both[0] <= live[0]:
    sys.exit(f'live {live}, -i -C 0 {file}, -i -C 0,1 {both}, trace-cmd CPU 0 records {tc}')
print(f'{live[0]} events = trace-cmd CPU 0 records; -C 0,1: {both[0]} events, '
      f'switch-ins rebuilt {both[2]}')
PY
); then
	pass "$name ($r)"
else
	fail $name "$r"
fi

# --- the twins of the LISA checks, on a recording made here (a plain clone has no ../shared) ---
# two shells forking 300 sleeps each, one pinned to each of CPUs 0 and 1: over 10 pages of
# each CPU's (in trace-cmd's compressed files, more than one chunk of 10 pages)
W='for i in $(seq 300); do sleep 0.001 & wait; done'
rm -f $OUT/own.dat $OUT/own7.dat $OUT/own7z.dat $OUT/own7zl.dat
ft tracedat_own_v7_zstd_zlib_equal_v6 0 record -o $OUT/own.dat -- \
	sh -c "taskset -c 0 sh -c '$W' & taskset -c 1 sh -c '$W' & wait" > $OUT/own.txt 2>&1
echo "# own recording: $(head -1 $OUT/own.txt)"

# trace-cmd's v7 conversions of it (none, zstd) and the zlib one of our script: timehist's
# and runqlat's reports of each equal the v6 original's, byte for byte (as
# tracedat_v7_and_zstd_equal_v6 on LISA's); each file is the version and compression it
# claims (the v7 header: version "7", then after the page size the compression's name)
name=tracedat_own_v7_zstd_zlib_equal_v6
if [ $have_tc = 0 ]; then
	skip $name "no trace-cmd"
elif [ ! -s $OUT/own.dat ]; then
	fail $name "ftscope record wrote no $OUT/own.dat: $(tail -1 $OUT/own.txt)"
else
	trace-cmd convert --file-version 7 --compression none -i $OUT/own.dat -o $OUT/own7.dat \
		> /dev/null 2>&1
	trace-cmd convert --file-version 7 --compression zstd -i $OUT/own.dat -o $OUT/own7z.dat \
		> /dev/null 2>&1
	[ -s $OUT/own7.dat ] && python3 tests/live/tdat_craft.py zlib $OUT/own7.dat $OUT/own7zl.dat
	r=""
	for a in timehist runqlat; do
		ft $name 0 $a -i $OUT/own.dat > $OUT/own-$a.txt 2>&1
	done
	grep -q '^[0-9]* events processed' $OUT/own-timehist.txt || r="$r v6: no report;"
	for f in own7:none own7z:zstd own7zl:zlib; do
		comp=${f#*:} f=${f%:*}
		if [ ! -s $OUT/$f.dat ]; then
			r="$r no $f.dat made;"
			continue
		fi
		# the fixed header: magic (10), version "7\0", endian, long size, page size (4)
		got=$(head -c 40 $OUT/$f.dat | tail -c +11 | tr -c '[:print:]' ' ' | awk '{ print $1, $2 }')
		[ "$got" = "7 $comp" ] || r="$r $f.dat: header says '$got', want '7 $comp';"
		for a in timehist runqlat; do
			ft $name 0 $a -i $OUT/$f.dat > $OUT/$f-$a.txt 2>&1
			cmp -s $OUT/own-$a.txt $OUT/$f-$a.txt || r="$r $a of $f differs from v6;"
		done
	done
	if [ -z "$r" ]; then
		pass $name
	else
		fail $name "$r"
	fi
	echo "# $name: $(tail -1 $OUT/own-timehist.txt | cut -c1-60); sizes v6 $(stat -c %s $OUT/own.dat), v7 $(stat -c %s $OUT/own7.dat 2>/dev/null), zstd $(stat -c %s $OUT/own7z.dat 2>/dev/null), zlib $(stat -c %s $OUT/own7zl.dat 2>/dev/null)"
fi

# damaged copies of it, made by tests/live/tdat_damage.py at known places: each gives the
# exact one error line and exit 1 it lists (or, for a page's commit word, a report that
# counts the damaged page, exit 0); 40 flipped bits in the metadata or the pages (five
# seeds each, as tracedat_damaged does to LISA's file): an error of one line or a
# report, never a crash
name=tracedat_own_damaged
if [ ! -s $OUT/own.dat ]; then
	fail $name "ftscope record wrote no $OUT/own.dat: $(tail -1 $OUT/own.txt)"
else
	rm -rf $OUT/own-dmg && mkdir -p $OUT/own-dmg
	r="" n=0
	if ! python3 tests/live/tdat_damage.py $OUT/own.dat $OUT/own-dmg > $OUT/own-dmg/cases 2>&1; then
		r="tdat_damage.py: $(tail -1 $OUT/own-dmg/cases)"
		: > $OUT/own-dmg/cases
	fi
	while IFS=$'\t' read -r f want msg; do
		n=$((n + 1))
		F=$OUT/own-dmg/$f.dat
		ft $name "$want" timehist -i $F < /dev/null > $OUT/own-dmg/$f.out 2> $OUT/own-dmg/$f.err
		rc=$?
		lines=$(wc -l < $OUT/own-dmg/$f.err)
		err=$(head -1 $OUT/own-dmg/$f.err)
		# shellcheck disable=SC2059
		exp=$(printf "$msg" "$F")
		if [ $rc -ge 128 ]; then
			r="$r $f: crashed ($rc);"
		elif [ "$msg" = - ]; then
			[ $rc -eq 0 ] || [ "$lines" -eq 1 ] || r="$r $f: exit $rc, $lines error lines;"
		elif [ "$want" = 1 ]; then
			[ $rc -eq 1 ] && [ "$lines" -eq 1 ] && [ "$err" = "ftscope timehist: $exp" ] ||
				r="$r $f: exit $rc, $lines lines '$err', want 'ftscope timehist: $exp';"
		elif [ $rc -ne 0 ] || [ "$lines" -ne 0 ] || ! grep -qF -- "$msg" $OUT/own-dmg/$f.out; then
			r="$r $f: exit $rc, '$err', footer '$(tail -1 $OUT/own-dmg/$f.out)', want '$msg';"
		fi
		echo "# $f: exit $rc: $err$(grep -o ' [0-9]* damaged pages' $OUT/own-dmg/$f.out)"
	done < $OUT/own-dmg/cases
	[ -n "$r" ] || [ $n -eq 20 ] || r="$n damaged files, want 20"
	if [ -z "$r" ]; then
		pass $name
	else
		fail $name "$r"
	fi
fi

# -p of a process making a thread every ms: threads born between ftscope's first look at
# /proc and tracing on are added to the kernel's filter then (rescan_threads), with no fork
# record in the file; the file's pid filter must name them too, or -i drops their latencies
# (it did: a file read back with 1-3 of the live run's 200-700 latencies). The live run's
# report and its file's: the same count, and the same rows
$WL/threadmill 3.5 1000 & tm=$!
sleep 0.3
ft tracedat_pid_threads_born_at_start 0 runqlat --json -p $tm -d 2 -o $OUT/tm.dat \
	> $OUT/tm-live.json 2> $OUT/tm-live.err
ft tracedat_pid_threads_born_at_start 0 runqlat --json -i $OUT/tm.dat > $OUT/tm-file.json \
	2> $OUT/tm-file.err
wait $tm
r=$(python3 -c '
import sys
from pct_check import last_json
a, b = (last_json(f)["total"] for f in sys.argv[1:3])
print(a["count"], b["count"], "same" if a == b else "differ")' $OUT/tm-live.json $OUT/tm-file.json 2>&1)
set -- $r
if [ "$3" = same ] && [ "$1" -ge 1000 ]; then
	pass tracedat_pid_threads_born_at_start
else
	fail tracedat_pid_threads_born_at_start "live, file: $r $(head -1 $OUT/tm-live.err)"
fi
echo "# runqlat -p of threadmill, live and from its file: $1 and $2 latencies"

# -e: an event no analyzer needs is in the file, as trace-cmd shows it
rm -f $OUT/rec-e.dat
ft tracedat_record_extra_event 0 record -o $OUT/rec-e.dat -e syscalls:sys_enter_getppid -- \
	sh -c 'for i in 1 2 3 4 5 6 7; do cat /proc/self/stat > /dev/null; done; ps -o ppid= -p $$ > /dev/null' \
	> $OUT/rec-e.txt 2>&1
n=$(trace-cmd report -i $OUT/rec-e.dat 2>/dev/null | grep -c 'sys_enter_getppid:')
m=$(trace-cmd report -i $OUT/rec-e.dat 2>/dev/null | grep -c 'sched_switch:')
if [ $have_tc = 1 ] && [ "$n" -ge 1 ] && [ "$m" -ge 1 ]; then
	pass tracedat_record_extra_event
elif [ $have_tc = 0 ]; then
	skip tracedat_record_extra_event "no trace-cmd"
else
	fail tracedat_record_extra_event "getppid entries $n, switches $m: $(tail -1 $OUT/rec-e.txt)"
fi

# offcpu's events and stack options recorded, then analyzed from the file
rm -f $OUT/rec-off.dat
ft tracedat_record_offcpu_stacks 0 record -o $OUT/rec-off.dat offcpu -- \
	taskset -c 0 $WL/sleeper 0 10 5 > /dev/null 2>&1
ft tracedat_record_offcpu_stacks 0 offcpu -i $OUT/rec-off.dat > $OUT/rec-off.txt 2>&1
if grep -q 'sleeper' $OUT/rec-off.txt && grep -qE 'nanosleep|schedule' $OUT/rec-off.txt; then
	pass tracedat_record_offcpu_stacks
else
	fail tracedat_record_offcpu_stacks "$(tail -2 $OUT/rec-off.txt | tr '\n' ' ')"
fi

# user stacks from a file: named through the maps the file keeps (PROCMAPS), as live
rm -f $OUT/rec-us.dat
ft tracedat_user_stacks_offline 0 offcpu -f -o $OUT/rec-us.dat -- $WL/blocker 10 50 1 10 \
	> $OUT/rec-us-live.txt 2>$OUT/rec-us-live.err
ft tracedat_user_stacks_offline 0 offcpu -f -i $OUT/rec-us.dat > $OUT/rec-us-file.txt \
	2>$OUT/rec-us-file.err
if ! grep -q 'bk-sleeper;.*sleep_here;.*do_nanosleep' $OUT/rec-us-file.txt; then
	fail tracedat_user_stacks_offline "no bk-sleeper;...;sleep_here;...;do_nanosleep stack from the file"
elif ! cmp -s $OUT/rec-us-live.txt $OUT/rec-us-file.txt; then
	fail tracedat_user_stacks_offline "differs from the live run (kept in $OUT/rec-us-*)"
	# the whole difference and both runs' notes, for a failure seen only in CI
	diff $OUT/rec-us-live.txt $OUT/rec-us-file.txt | head -12 | sed 's/^/# /'
	sed 's/^/# live: /' $OUT/rec-us-live.err
	sed 's/^/# file: /' $OUT/rec-us-file.err
else
	pass tracedat_user_stacks_offline
fi

# --- losses: what a live run reported, read back from its file, per CPU ---
# lost_of FILE: "cpu0 N, cpu1 M" from a footer's "N lost (...)" or "N events lost (...)"
lost_of() {
	sed -n 's/.* lost (\([^;]*\);.*/\1/p' "$1" | tail -1
}

# stats_lost FILE: "cpu0 N, cpu1 M" from the kernel's counters an ftscope file keeps, as
# trace-cmd report --stat prints them (overrun + commit overrun + dropped events), for
# the CPUs with a loss: one stats text per CPU in order (ftscope writes no "CPU: N")
stats_lost() {
	trace-cmd report --stat -i "$1" 2>/dev/null | awk '
		/^entries:/ { cpu++ }
		/^(overrun|commit overrun|dropped events):/ { n[cpu - 1] += $NF }
		END { s = ""; for (c = 0; c < 4096; c++) if (n[c]) { printf "%scpu%d %d", s, c, n[c]; s = ", " } }'
}

# load SECS: rounds of perf bench sched messaging for SECS seconds, in the background
load() {
	local end=$((SECONDS + $1))
	( while [ $SECONDS -lt $end ]; do perf bench sched messaging -g 4 -l 200 > /dev/null 2>&1; done ) &
	load_pid=$!
}

if ! perf bench sched messaging -g 1 -l 1 > /dev/null 2>&1; then
	skip tracedat_losses_read_back "perf bench sched messaging does not run here"
else
	# a 4 KB buffer per CPU beside 4 groups of messaging overflows on both CPUs
	rm -f $OUT/loss-rq.dat $OUT/loss-rec.dat
	load 5
	ft tracedat_losses_read_back 0 runqlat -b 4 -a -d 3 -o $OUT/loss-rq.dat \
		> $OUT/loss-rq-live.txt 2>&1
	wait $load_pid
	load 5
	ft tracedat_losses_read_back 0 record -b 4 -a -d 3 -o $OUT/loss-rec.dat \
		> $OUT/loss-rec-live.txt 2>&1
	wait $load_pid
	r=""
	for f in rq rec; do
		live=$(lost_of $OUT/loss-$f-live.txt)
		[ -n "$live" ] || r="$r $f: no loss live, the load did not overflow the buffers;"
		# the peer's reading of the file's stats (install-deps.sh --tests installs trace-cmd)
		if [ $have_tc = 0 ]; then
			r="$r trace-cmd is missing;"
		elif [ "$(stats_lost $OUT/loss-$f.dat)" != "$live" ]; then
			r="$r $f: live '$live', the file's stats by trace-cmd '$(stats_lost $OUT/loss-$f.dat)';"
		fi
		for a in runqlat timehist latency wakeup offcpu "report runqlat timehist"; do
			n=${a// /-}
			ft tracedat_losses_read_back 0 $a -i $OUT/loss-$f.dat > $OUT/loss-$f-$n.txt 2>&1
			got=$(lost_of $OUT/loss-$f-$n.txt)
			[ "$got" = "$live" ] || r="$r $f: live '$live', $a -i '$got';"
		done
		echo "# $f: lost live and from the file: $live"
	done
	if [ -z "$r" ]; then
		pass tracedat_losses_read_back
	else
		fail tracedat_losses_read_back "$r"
	fi
fi

# trace-cmd's own file of a buffer in overwrite mode (an instance's, extracted with
# trace-cmd extract -B: the file's top buffer is empty, the events are the instance's):
# its pages mark the overruns (with a count, or without one when the page had no room)
# and its CPUSTAT counts the same overruns: each is counted once, as the kernel's own
# per-CPU counters say; and the events are trace-cmd's (less its "EVENTS DROPPED"
# lines). trace-cmd record cannot run here (it writes /proc/sys/kernel/ftrace_enabled);
# extract writes the same file format.
if [ $have_tc = 0 ]; then
	skip tracedat_trace_cmd_instance_file "no trace-cmd"
elif ! perf bench sched messaging -g 1 -l 1 > /dev/null 2>&1; then
	skip tracedat_trace_cmd_instance_file "perf bench sched messaging does not run here"
else
	name=ftscope-test-tdat-$$
	I=$T/instances/$name
	mkdir $I
	echo 4 > $I/buffer_size_kb
	echo 1 > $I/options/overwrite
	echo 'sched:sched_switch sched:sched_waking sched:sched_wakeup' > $I/set_event
	perf bench sched messaging -g 2 -l 300 > /dev/null 2>&1
	echo 0 > $I/tracing_on
	kernel=$(for c in $(ls -d $I/per_cpu/cpu* | sed 's/.*cpu//' | sort -n); do
		awk -v c=$c '/^(overrun|commit overrun|dropped events):/ { n += $NF }
			     END { if (n) printf "cpu%d %d\n", c, n }' $I/per_cpu/cpu$c/stats
	done | paste -sd, | sed 's/,/, /g')
	rm -f $OUT/tc-ext.dat
	trace-cmd extract -B $name -o $OUT/tc-ext.dat > $OUT/tc-ext.out 2>&1
	# trace-cmd extract removes the instance it read; else we do
	if [ -d $I ]; then
		echo > $I/set_event
		rmdir $I
	fi
	trace-cmd report -i $OUT/tc-ext.dat 2>/dev/null > $OUT/tc-ext-tc.txt
	marked=$(grep -c 'EVENTS DROPPED' $OUT/tc-ext-tc.txt)
	tc=$(grep -vc '^cpus=\|EVENTS DROPPED' $OUT/tc-ext-tc.txt)
	ft tracedat_trace_cmd_instance_file 0 runqlat -i $OUT/tc-ext.dat > $OUT/tc-ext-rq.txt 2>&1
	got=$(lost_of $OUT/tc-ext-rq.txt)
	n=$(sed -n 's/^\([0-9]*\) events processed.*/\1/p' $OUT/tc-ext-rq.txt)
	if [ -n "$kernel" ] && [ "$got" = "$kernel" ] && [ "$marked" -gt 0 ] && [ "$n" = "$tc" ]; then
		pass tracedat_trace_cmd_instance_file
	else
		fail tracedat_trace_cmd_instance_file "kernel's counters '$kernel', runqlat -i '$got', pages marked $marked; events $n, trace-cmd $tc: $(tail -1 $OUT/tc-ext-rq.txt)"
	fi
	echo "# trace-cmd extract -B of an overwritten buffer: kernel '$kernel', runqlat -i '$got', $marked pages mark losses; $n events as trace-cmd"
fi
