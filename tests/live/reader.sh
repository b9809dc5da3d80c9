#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: how the ring buffers are read. --mmap (the buffer mapped into ftscope,
#              Linux 6.10+) and read() give the same rows: two timehist runs at once over
#              the same load, one each way, see the same switches on each CPU in the same
#              order at the same times (each instance stamps its own copy of an event, a
#              few microseconds apart), with sub-buffers the mapped reader took in parts;
#              -v says which way each read. --realtime runs the reader at SCHED_FIFO and
#              not the command it traces; list says whether this kernel maps the buffer;
#              bad values are one line and exit 2. (load.sh checks --mmap's counts against
#              the kernel's own per-CPU stats; qemu.sh its fallback to read() on 6.1.)
#              A mapped run's -o FILE is read by trace-cmd as ftscope counted it.
# requires: root, tracefs, perf (linux-perf), trace-cmd
. tests/live/lib.sh
plan 12
need_root reader || exit 0
# whether this kernel maps the buffer (6.10+): else --mmap falls back (qemu.sh checks that)
mapped=1
kernel_maps reader_list_mmap || mapped=0

# --- --realtime: the reader at SCHED_FIFO, the traced command not ---
# chrt -p: "POLICY[|SCHED_RESET_ON_FORK]/PRIORITY" (a child the reader forked would not
# keep the policy; the command was forked before it was set)
name=reader_realtime
rt_ok=1
chrt -f 1 true 2> /dev/null || rt_ok=0	# a cgroup with no real-time runtime refuses it
policy() {
	chrt -p $1 2>/dev/null | awk -F': ' '/policy/ { p = $2 } /priority/ { print p "/" $2 }'
}
# 100 naps of 10 ms: a second in which to look (the reader drops to SCHED_OTHER once the
# buffers are drained at the end, before its report)
if [ $rt_ok = 0 ]; then
	skip $name "SCHED_FIFO is refused here (chrt -f 1 true fails)"
else
	$FTSCOPE timehist --realtime 7 -- $WL/sleeper 0 100 10 > $OUT/rd-rt.txt 2> $OUT/rd-rt.err & p=$!
	wait_for 10 our_instance $p
	child=$(pgrep -P $p | head -1)
	pp=$(policy $p) cp=$(policy "$child")
	ft_wait $name 0 $p; rc=$?
	rows=$(nap_rows $OUT/rd-rt.txt)
	if [ $rc -ne 0 ]; then
		fail $name "exit $rc: $(head -1 $OUT/rd-rt.err)"
	elif [ "$pp" != "SCHED_FIFO|SCHED_RESET_ON_FORK/7" ] || [ "$cp" != SCHED_OTHER/0 ]; then
		fail $name "policy/priority of ftscope '$pp' (want SCHED_FIFO|SCHED_RESET_ON_FORK/7), of its command '$cp' (want SCHED_OTHER/0)"
	elif [ "$rows" -lt 99 ] || [ "$rows" -gt 100 ]; then
		# 100 rows with that wait (the first may come before tracing)
		fail $name "$rows rows of a 10 ms wait for 100 naps"
	else
		pass "$name (ftscope SCHED_FIFO|SCHED_RESET_ON_FORK 7, its command SCHED_OTHER; $rows rows of a 10 ms nap)"
	fi
fi

# --- list: whether this kernel maps the buffer (since 6.10) ---
name=reader_list_mmap
want=no
IFS=. read -r maj min _ <<< "$(uname -r)"
[ $((maj * 1000 + ${min%%[!0-9]*})) -ge 6010 ] && want=yes
line=$(ft $name 0 list | grep -E '^  ring buffer mmap \(--mmap\)')
if [[ $line =~ \)\ +$want ]]; then
	pass "$name (kernel $(uname -r): $want)"
else
	fail $name "kernel $(uname -r), want $want: '$line'"
fi

# --- bad values: one line, exit 2, nothing left ---
bad_case reader_realtime_zero 2 "invalid value '0' for --realtime" - runqlat --realtime 0 -d 1
bad_case reader_realtime_high 2 "invalid value '100' for --realtime" - runqlat --realtime 100 -d 1
bad_case reader_realtime_word 2 "invalid value 'high' for --realtime" - runqlat --realtime high -d 1
bad_case reader_mmap_record 2 '--mmap: a recording splices' $OUT/rd-rec.dat \
	record --mmap -o $OUT/rd-rec.dat -d 1
bad_case reader_mmap_input 2 '-i reads a capture: .*--mmap' - \
	runqlat --mmap -i tests/data/tdat-v7-zstd-cpus-0125.dat
bad_case reader_verbose_input 2 '-i reads a capture: .*-v' - \
	runqlat -v -i tests/data/tdat-v7-zstd-cpus-0125.dat
bad_case reader_stat_verbose 2 'do not apply to stat' - stat -v -- true
bad_case reader_report_stage 2 'go to report itself' - report 'runqlat --mmap' -d 1

# --- the mapped reader, where this kernel maps the buffer ---
if [ $mapped = 0 ]; then
	skip reader_mmap_equals_read "this kernel cannot map the ring buffer ($(uname -r))"
	skip reader_mmap_file "this kernel cannot map the ring buffer ($(uname -r))"
	exit 0
fi

# --- a mapped run's -o FILE: whole sub-buffers, as trace-cmd reads them ---
name=reader_mmap_file
rm -f $OUT/rd-map.dat
ft $name 0 timehist --mmap -o $OUT/rd-map.dat -- taskset -c 0 $WL/sleeper 0 20 5 \
	> $OUT/rd-live.txt 2> $OUT/rd-live.err
ft $name 0 timehist -i $OUT/rd-map.dat > $OUT/rd-file.txt 2>&1
ours=$(sed -n 's/^\([0-9]*\) events processed.*/\1/p' $OUT/rd-live.txt)
theirs=$(trace-cmd report -i $OUT/rd-map.dat 2>/dev/null | grep -vc '^cpus=')
sw=$(grep -c '^ *[0-9.]* \[0000\]  sleeper\[' $OUT/rd-live.txt)
if [ -n "$ours" ] && [ "$ours" = "$theirs" ] && [ "$sw" -ge 20 ] &&
   cmp -s $OUT/rd-live.txt $OUT/rd-file.txt; then
	pass "$name ($ours events, as many as trace-cmd reads; the file's rows equal the live run's)"
else
	fail $name "ftscope processed '$ours', trace-cmd reads $theirs, sleeper rows $sw; $(diff $OUT/rd-live.txt $OUT/rd-file.txt | head -2 | tr '\n' ' ')"
fi

if ! perf bench sched messaging -g 1 -l 1 > /dev/null 2>&1; then
	skip reader_mmap_equals_read "perf bench sched messaging does not run here"
	exit 0
fi

# --- the same rows both ways ---
name=reader_mmap_equals_read
$FTSCOPE timehist --mmap -v -d 4 > $OUT/rd-map.txt 2> $OUT/rd-map.err & a=$!
$FTSCOPE timehist -v -d 4 > $OUT/rd-read.txt 2> $OUT/rd-read.err & b=$!
wait_for 10 our_instance $a && wait_for 10 our_instance $b
perf bench sched messaging -g 4 -l 300 > /dev/null 2>&1
ft_wait $name 0 $a; ra=$?
ft_wait $name 0 $b; rb=$?
r=$(python3 - $OUT/rd-map.txt $OUT/rd-read.txt $OUT/rd-map.err $OUT/rd-read.err <<'PYEOF' 2>&1
import re, sys

def rows(path):
    """per CPU: (time in us, task) of each row, but ftscope's own (each run sees the other)"""
    cpus = {}
    for line in open(path):
        m = re.match(r"\s*(\d+\.\d+) \[(\d+)\]\s+(\S+)", line)
        if m and not m.group(3).startswith("ftscope"):
            cpus.setdefault(m.group(2), []).append((float(m.group(1)) * 1e6, m.group(3)))
    return cpus

a, b = rows(sys.argv[1]), rows(sys.argv[2])
em, er = open(sys.argv[3]).read(), open(sys.argv[4]).read()
if "read by mmap of the ring buffer" not in em or "read by read()" not in er:
    sys.exit("-v does not say mmap and read(): %r | %r" % (em[:200], er[:200]))
parts = re.search(r"\((\d+) taken after their start\)", em)
if not parts or int(parts.group(1)) == 0:
    sys.exit("the mapped reader took no sub-buffer in parts: %r" % em)
if not all(re.search(r"^\d+ events processed, 0 lost", open(f).read(), re.M) for f in sys.argv[1:3]):
    sys.exit("a run lost events: the rows cannot be compared")
# the window both runs traced, less 1 ms at each end (they started and ended apart)
lo = max(min(r[0][0] for r in a.values()), min(r[0][0] for r in b.values())) + 1000
hi = min(max(r[-1][0] for r in a.values()), max(r[-1][0] for r in b.values())) - 1000
total, diffs = 0, []
for cpu in sorted(set(a) | set(b)):
    x = [r for r in a.get(cpu, []) if lo <= r[0] <= hi]
    y = [r for r in b.get(cpu, []) if lo <= r[0] <= hi]
    # a row within 2 ms of the window's edge may fall on either side of it in one run:
    # each run stamps its own copy, and times a rebuilt switch by the delays it learned
    # from what it saw (issue 33), so two runs' estimates differ (38 us apart once, where
    # this was 50 us and failed at the window's first row), and a host that preempts the
    # vCPU between the two writes of one event parts them by milliseconds (below; a fresh
    # root with 270 ms of steal in a 1 s run: the first row, 106 us from the other's, with
    # 200 us here)
    while x and y and x[0][1] != y[0][1] and min(x[0][0], y[0][0]) < lo + 2000:
        (x if x[0][0] < y[0][0] else y).pop(0)
    while x and y and x[-1][1] != y[-1][1] and max(x[-1][0], y[-1][0]) > hi - 2000:
        (x if x[-1][0] > y[-1][0] else y).pop()
    if [t for _, t in x] != [t for _, t in y]:
        i = next((i for i in range(min(len(x), len(y))) if x[i][1] != y[i][1]), None)
        sys.exit("cpu %s: %d rows mapped, %d read; first difference at row %s: %s / %s" %
                 (cpu, len(x), len(y), i, x[i] if i is not None else "-",
                  y[i] if i is not None else "-"))
    total += len(x)
    diffs += [abs(p[0] - q[0]) for p, q in zip(x, y)]
# measured here: the two instances' stamps of one event differ by 10-55 us at most in
# eight runs under this load (an interrupt between the two writes); a part stamped from
# the wrong base (the sub-buffer's own start) shifted its rows by up to 2.98 s. The
# unit test test_page_parts checks the stamps to the nanosecond.
diffs.sort()
worst = diffs[-1] if diffs else 0.0
p999 = diffs[int(len(diffs) * 0.999)] if diffs else 0.0
# The bound is on the 99.9th percentile: a host that preempts the vCPU between the two
# writes of one event (steal time) parts a few stamps by milliseconds; a wrong base
# shifts every row of a part (tens of rows each), and the maximum stays under 100 ms
if total < 2000 or p999 > 500 or worst > 100000:
    sys.exit("%d rows compared (want >= 2000), times differ by %.0f us at the 99.9th "
             "percentile (bound 500), %.0f at most (bound 100000)" % (total, p999, worst))
print("%d rows equal on every CPU, times within %.0f us (99.9%%: %.0f), %s sub-buffers taken "
      "in parts" % (total, worst, p999, parts.group(1)))
PYEOF
)
if [ $ra$rb != 00 ]; then
	fail $name "exit $ra/$rb: $(head -qn1 $OUT/rd-map.err $OUT/rd-read.err | tr '\n' ' ')"
elif [[ $r == *rows\ equal* ]]; then
	pass "$name ($r)"
else
	fail $name "$(echo "$r" | tail -1)"
fi
