#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: biolatency on a loop device with a known answer: 2000 O_DIRECT 4 KiB
#              writes are 2000 requests (the disk's own write counter says so), as
#              bpftrace sees them on the same run; -Q, -F, --min-us, record + -i,
#              bad input.
# requires: root, tracefs, block events, losetup (util-linux), bpftrace, trace-cmd
. tests/live/lib.sh
plan 18
need_root biolatency || exit 0
[ -d $T/events/block/block_rq_issue ] || { skip_rest "no block events"; exit 0; }
command -v losetup >/dev/null || { skip_rest "no losetup"; exit 0; }
command -v trace-cmd >/dev/null || {
	fail biolatency "no trace-cmd (scripts/install-deps.sh installs it)"
	skip_rest "no trace-cmd"
	exit 0
}

N=2000
IMG=$(mktemp /var/tmp/ftscope-bio.XXXXXX)
LOOP=
SCHED=
# cleanup - detach the loop device, its old scheduler back, the image gone: on any exit
cleanup() {
	[ -n "$LOOP" ] && losetup -d $LOOP 2>/dev/null
	rm -f "$IMG"
}
trap cleanup EXIT
truncate -s 64M "$IMG"
if ! LOOP=$(losetup -f --show "$IMG" 2>$OUT/bio-losetup.err); then
	LOOP=
	skip_rest "no loop device: $(head -1 $OUT/bio-losetup.err)"
	exit 0
fi
DEV=${LOOP#/dev/}
MAJMIN=$(cat /sys/block/$DEV/dev)
KDEV=$(( ${MAJMIN%:*} << 20 | ${MAJMIN#*:} ))	# the tracepoints' dev_t: MAJOR << 20 | MINOR
# mq-deadline: requests pass block_rq_insert before their issue, so -Q has a queue
# time to add (with "none" the loop device issues them directly). Detaching the device
# drops the setting with it.
echo mq-deadline > /sys/block/$DEV/queue/scheduler 2>/dev/null
DD="dd if=/dev/zero of=$LOOP bs=4096 count=$N oflag=direct status=none"

# writes - the disk's own count of completed write requests (field 5 of its stat)
writes() {
	awk '{ print $5 }' /sys/block/$DEV/stat
}

# bpftrace on the same run: requests of this device paired by sector (dd's are all
# distinct), issue -> complete and insert -> complete in log2 histograms of us
WARM=100000	# a sector beyond dd's: one write there before the run shows bpftrace attached
cat > $OUT/bio.bt <<BT
tracepoint:block:block_rq_insert /args->dev == $KDEV/ { @q[args->sector] = nsecs; }
tracepoint:block:block_rq_issue /args->dev == $KDEV/ { @s[args->sector] = nsecs; }
tracepoint:block:block_rq_complete /args->dev == $KDEV/ {
	if (args->sector == $WARM) { printf("ready\\n"); return; }
	@completed = count();
	\$t = @s[args->sector];
	\$u = @q[args->sector];
	if (\$t) { @lat = hist((nsecs - \$t) / 1000); @r[args->sector] = nsecs - \$t; }
	if (\$u) { @qlat = hist((nsecs - \$u) / 1000); @rq[args->sector] = nsecs - \$u; }
	delete(@s[args->sector]);
	delete(@q[args->sector]);
}
END { clear(@s); clear(@q); }
BT
# ready: write the warm-up sector until bpftrace has seen it complete (probes attach in
# order, so issue and insert are on by then)
warm() {
	dd if=/dev/zero of=$LOOP bs=4096 count=1 seek=$((WARM / 8)) oflag=direct status=none
	grep -q '^ready' $OUT/bio-bt.out
}
if ! bt_start $OUT/bio-bt.out warm $OUT/bio.bt; then
	fail biolatency_matches_bpftrace "$bt_why"
	skip_rest "bpftrace did not attach (biolatency_matches_bpftrace)"
	exit 0
fi
w0=$(writes)
ft biolatency_loop_2000_writes 0 biolatency -D --json -o $OUT/bio-live.dat -- $DD \
	> $OUT/bio-live.json 2> $OUT/bio-live.err
rc=$?
w1=$(writes)
# the events bpftrace's programs missed (a fresh root: 1999 of 2000 completions seen)
export BT_MISSED=$(bt_misses $bt)
stop_bpftrace $bt

# group FILE KEY VALUE: the histogram of the group whose KEY is VALUE, as JSON ({} if none)
group() {
	python3 - "$@" <<'PY'
import json, sys
from pct_check import last_json
j = last_json(sys.argv[1])
print(json.dumps(next((g["hist"] for g in j["groups"] if g.get(sys.argv[2]) == sys.argv[3]), {})))
PY
}

# The loop device's histogram holds exactly the requests the device completed: 2000
# (one request per O_DIRECT 4 KiB write: no merges, no splits), by its own counter.
name=biolatency_loop_2000_writes
got=$(group $OUT/bio-live.json disk $DEV | python3 -c 'import json,sys; print(json.load(sys.stdin).get("count", -1))')
if [ $rc -ne 0 ]; then
	fail $name "exit $rc ($(head -1 $OUT/bio-live.err))"
elif [ $((w1 - w0)) -eq $N ] && [ "$got" -eq $N ]; then
	pass $name
else
	fail $name "disk $DEV: ftscope $got requests, /sys/block/$DEV/stat $((w1 - w0)), dd wrote $N"
fi

# The same requests through bpftrace at the same time: the same count, and log2 buckets
# that differ only near their edges. The two tools time the same tracepoint calls a
# little apart (the BPF program's clock read, then ftrace's, 0.5 .. 1.1 us later at
# the median; now and then 20 .. 60 us: see biolatency_per_request_matches_bpftrace):
# per request, median 0.5-0.7 us and p99 1.3-1.7 us apart over 8 runs
# (biolatency_per_request_matches_bpftrace). dd's requests take 8-20 us, astride the
# 16 us edge, so 24-388 of 2000 crossed it. So at each edge the counts below it may
# differ by the requests bpftrace timed within 2 us of it (the p90 apart, rounded up),
# plus 2% (40) for those whose two times lie farther apart: p99 1.3-3.3 us in quiet
# runs, 12 us once beside other tests' I/O; 2 crossed the sparse 64 us edge, 1 near it.
name=biolatency_matches_bpftrace
if python3 tests/live/bio_check.py peer $OUT/bio-bt.out $OUT/bio-live.json $DEV $N lat r 2; then
	pass $name
else
	fail $name "ftscope and bpftrace differ (see $OUT/bio-live.json $OUT/bio-bt.out)"
fi

# -Q from the run's recording (a file names the disk MAJ:MIN): the same 2000, now from
# block_rq_insert, against bpftrace's insert -> complete of the same run (same tolerance).
name=biolatency_queued_matches_bpftrace
# (measured: 7-100 of 2000 crossed an edge over 8 runs)
ft $name 0 biolatency -D -Q --json -i $OUT/bio-live.dat > $OUT/bio-q.json 2> $OUT/bio-q.err
if [ "$(json 'j["without_insert"]' $OUT/bio-q.json)" = 0 ] &&
   python3 tests/live/bio_check.py peer $OUT/bio-bt.out $OUT/bio-q.json $MAJMIN $N qlat rq 2; then
	pass $name
else
	fail $name "-Q differs from bpftrace's insert -> complete (see $OUT/bio-q.json $OUT/bio-bt.out)"
fi

# -Q per request: both listings in one report over the same file; every request's
# QUE + LAT with -Q is at least its LAT without, which is the same; every QUE is the
# insert -> issue trace-cmd reports for that sector from the same file, to the 0.001 ms
# the column prints (most are 1-2 us: a QUE of 0 fails on nearly every row, one 1 us
# off on every row); and QUE is within 1 us of bpftrace's insert -> issue of the same
# request at the median (0.13-0.80 us over 14 runs here, 0.17 in CI; the two tools
# read their clocks apart: ftscope's runs about 0.5 us lower). How many rows show a
# queue time is the machine's, not ftscope's: 1831-2000 of 2000 here, 1583 in CI.
name=biolatency_queued_per_request
ft $name 0 report -i $OUT/bio-live.dat 'biolatency --min-us 0' 'biolatency -Q --min-us 0' \
	> $OUT/bio-report.txt 2> $OUT/bio-report.err
sed -n '/^==> biolatency --min-us 0 <==/,/^==> /p' $OUT/bio-report.txt > $OUT/bio-plain.txt
sed -n '/^==> biolatency -Q --min-us 0 <==/,$p' $OUT/bio-report.txt > $OUT/bio-queued.txt
trace-cmd report -t -F 'block_rq_insert,block_rq_issue' $OUT/bio-live.dat \
	> $OUT/bio-tc.txt 2> $OUT/bio-tc.err
if python3 tests/live/bio_check.py queued $OUT/bio-bt.out $OUT/bio-plain.txt $OUT/bio-queued.txt \
	$MAJMIN $N 1 $OUT/bio-tc.txt; then
	pass $name
else
	fail $name "see $OUT/bio-report.txt ($(head -1 $OUT/bio-report.err)) $OUT/bio-tc.txt ($(head -1 $OUT/bio-tc.err))"
fi

# Per request, against bpftrace's latency of the same sector (same run), with and without
# -Q: measured over 20 runs, median 0.44-1.01 us apart, p90 1.04-1.63 us, p99 1.3-12 us
# (12 beside other tests' I/O), max 4.9-72 us (the listing prints whole us). Allowed:
# median 2 us, p90 5 us. A wrong pairing or unit is off by tens of us, or 1000 times.
# p99 at most 20 us: measured 1.32 .. 4.66 us in 24 of 28 runs on 2026-11-27, and 9.77,
# 11.60, 12.14, 17.66 in 4 beside others' work loading both CPUs (perf bench sched
# messaging, a build, apt); 0 .. 60 requests over 5 us apart, max 2.3 .. 89 us; + 2.3
# us (13%) over the highest. 40 requests (2%) 25 us off fail it. Each tool reads its
# clock in its own probe on the same tracepoint call, bpftrace's first (ftrace's record
# comes 0.5 .. 1.1 us later at the median), so a request's two latencies differ by how
# that delay changed between issue and completion. The few 20 .. 60 us apart lost that
# time between the two probes of one call; bpftrace on the interrupt tracepoints
# (timer, device irq, softirq, IPIs) found a whole interrupt there for 6 of 31 requests
# 3 us or more apart in 7 runs, of 0.7 .. 11.4 us, less than the gap, and none for the
# other 25: the cause is not found.
name=biolatency_per_request_matches_bpftrace
if python3 tests/live/bio_check.py perreq $OUT/bio-bt.out $OUT/bio-plain.txt $OUT/bio-queued.txt \
	$MAJMIN $N 2 5 20; then
	pass $name
else
	fail $name "see $OUT/bio-report.txt $OUT/bio-bt.out"
fi

# --min-us with --json: each request a line of its own ({"type":"row"}), jq's to filter,
# before the report's line. The loop device's rows are the workload's N writes (its
# design), each the text list's request: sector, queue and latency equal to the 0.001 ms
# the text prints (the same file, -Q: consistency, the count evidence). It was refused
# ("does not go with --json") before.
name=biolatency_min_us_json_rows
ft $name 0 biolatency -Q --min-us 0 --json -i $OUT/bio-live.dat > $OUT/bio-rows.json \
	2> $OUT/bio-rows.err
if r=$(python3 - $OUT/bio-rows.json $OUT/bio-queued.txt $MAJMIN $N <<'PY'
import sys
from pct_check import json_lines, json_rows
objs, rows = json_lines(sys.argv[1]), json_rows(sys.argv[1])
last = objs[-1] if objs else {}
mine = sorted((r['sector'], round(r['queued_ns'] / 1e6, 3), round(r['latency_ns'] / 1e6, 3))
              for r in rows if r['dev'] == sys.argv[3] and r['analyzer'] == 'biolatency')
disk = next((r['disk'] for r in rows if r['dev'] == sys.argv[3]), None)
text = []
for l in open(sys.argv[2]):
    f = l.split()
    if len(f) == 9 and f[3] == disk and f[5].isdigit():
        text.append((int(f[5]), float(f[7]), float(f[8])))
text.sort()
print(f'{len(mine)} rows of {sys.argv[3]} ({disk}), {len(text)} in the text list, '
      f'{len(rows)} rows in all; last line final: {last.get("final")}')
if len(mine) != int(sys.argv[4]) or 'final' not in last or rows[-1] is last:
    sys.exit(1)
bad = sum(abs(a[1] - b[1]) > 0.0011 or abs(a[2] - b[2]) > 0.0011 or a[0] != b[0]
          for a, b in zip(mine, text))
print(f'{bad} rows unlike the text list')
sys.exit(1 if bad or len(text) != len(mine) else 0)
PY
); then
	pass $name
else
	fail $name "$r"
fi
echo "# $r"

# -F: the loop device's 2000 O_DIRECT writes are Sync-Write (REQ_SYNC, rwbs "WS"). The
# file also holds other disks' requests (-F does not split disks, as in BCC): Sync-Write
# holds 2000 plus at most all of theirs, and no other group more than theirs.
name=biolatency_flags_sync_write
ft $name 0 biolatency -F --json -i $OUT/bio-live.dat > $OUT/bio-flags.json 2> $OUT/bio-flags.err
ft $name 0 biolatency -D --json -i $OUT/bio-live.dat > $OUT/bio-file.json 2>> $OUT/bio-flags.err
if python3 - $OUT/bio-flags.json $OUT/bio-file.json $MAJMIN $N <<'PY'
import sys
from pct_check import last_json
f, d = (last_json(p) for p in sys.argv[1:3])
disk, n = sys.argv[3], int(sys.argv[4])
others = sum(g["hist"]["count"] for g in d["groups"] if g["disk"] != disk)
flags = {g["flags"]: g["hist"]["count"] for g in f["groups"]}
sw = flags.pop("Sync-Write", 0)
print("# Sync-Write %d, other disks %d, other flags %s" % (sw, others, flags))
sys.exit(0 if n <= sw <= n + others and all(c <= others for c in flags.values()) and
         f["total"]["count"] == d["total"]["count"] else 1)
PY
then
	pass $name
else
	fail $name "see $OUT/bio-flags.json ($(head -1 $OUT/bio-flags.err))"
fi

# --min-us 0 lists every request (2000 rows of the loop device, its latency the same
# as the histogram's sum to the printed 1 us); --min-us one hour lists none.
name=biolatency_min_us_lists
rows=$(awk -v d=$MAJMIN '$4 == d' $OUT/bio-plain.txt | wc -l)
ft $name 0 biolatency --min-us 3600000000 -i $OUT/bio-live.dat > $OUT/bio-none.txt 2>&1
none=$(grep -Ec '^[0-9]+\.[0-9]{6} ' $OUT/bio-none.txt)
head=$(grep -c '^TIME(s)     COMM           PID    DISK    T SECTOR     BYTES   LAT(ms)$' $OUT/bio-plain.txt)
if [ "$rows" -eq $N ] && [ "$none" -eq 0 ] && [ "$head" -eq 1 ]; then
	pass $name
else
	fail $name "--min-us 0: $rows rows of $MAJMIN (want $N), header $head; --min-us 3600000000: $none rows"
fi

# --min-us 16 lists exactly the requests of the 16 us buckets and up of the same file's
# histogram (a latency of N us is in the bucket of N, whole us, as BCC's).
name=biolatency_min_us_threshold
ft $name 0 biolatency --min-us 16 -i $OUT/bio-live.dat > $OUT/bio-16.txt 2>&1
rows=$(awk -v d=$MAJMIN '$4 == d' $OUT/bio-16.txt | wc -l)
want=$(python3 -c '
import sys
from pct_check import last_json
j = last_json(sys.argv[1])
g = next(g["hist"] for g in j["groups"] if g["disk"] == sys.argv[2])
print(sum(b["count"] for b in g["buckets"] if b["low"] >= 16))' $OUT/bio-file.json $MAJMIN)
if [ "$rows" -eq "$want" ] && [ "$rows" -gt 0 ] && [ "$rows" -lt $N ]; then
	pass $name
else
	fail $name "--min-us 16 listed $rows requests of $MAJMIN, its histogram has $want of 16 us or more"
fi

# The live run's histogram of the loop device equals its own recording's.
name=biolatency_live_equals_file
if python3 - $OUT/bio-live.json $OUT/bio-file.json $DEV $MAJMIN <<'PY'
import sys
from pct_check import last_json
a, b = (last_json(p) for p in sys.argv[1:3])
ga = next(g["hist"] for g in a["groups"] if g["disk"] == sys.argv[3])
gb = next(g["hist"] for g in b["groups"] if g["disk"] == sys.argv[4])
sys.exit(0 if ga == gb and a["total"] == b["total"] else 1)
PY
then
	pass $name
else
	fail $name "see $OUT/bio-live.json $OUT/bio-file.json"
fi

# record + -i: `ftscope record -o F biolatency -- dd` keeps what biolatency needs; the
# file gives the same 2000, by the disk's own counter over the recorded run.
name=biolatency_record_then_input
w0=$(writes)
ft $name 0 record -o $OUT/bio-rec.dat biolatency -- $DD > $OUT/bio-rec.out 2>&1
w1=$(writes)
ft $name 0 biolatency -i $OUT/bio-rec.dat -D > $OUT/bio-rec.txt 2> $OUT/bio-rec.err
got=$(sed -n "/^disk = $MAJMIN\$/,/^count/s/^count \([0-9]*\).*/\1/p" $OUT/bio-rec.txt)
if [ $((w1 - w0)) -eq $N ] && [ "$got" = $N ] && ! grep -q 'not timed' $OUT/bio-rec.txt; then
	pass $name
else
	fail $name "disk $MAJMIN: '$got' requests from the file, stat $((w1 - w0)) ($(head -1 $OUT/bio-rec.err))"
fi

# Two processes write the same 4 KiB block with O_DIRECT 3000 times each: their
# requests share (dev, write, sector) while in flight (measured: 2283 of 6000), and those
# are counted ambiguous, not paired at a guess. Every request the disk's counter saw is
# timed or counted, and none is "issued before the trace" (the writers start after it).
name=biolatency_same_sector_accounted
cat > $OUT/bio-same.py <<'PY'
import mmap, os, sys
def writer():
    fd = os.open(sys.argv[1], os.O_WRONLY | os.O_DIRECT)
    buf = mmap.mmap(-1, 4096)
    for _ in range(int(sys.argv[2])):
        os.pwritev(fd, [buf], 0)
for _ in range(2):
    if os.fork() == 0:
        writer()
        os._exit(0)
os.wait()
os.wait()
PY
w0=$(writes)
ft $name 0 biolatency -D --json -- python3 $OUT/bio-same.py $LOOP 3000 > $OUT/bio-same.json \
	2> $OUT/bio-same.err
w1=$(writes)
if python3 - $OUT/bio-same.json $DEV $((w1 - w0)) <<'PY'
import sys
from pct_check import last_json
j = last_json(sys.argv[1])
g = next(g for g in j["groups"] if g["disk"] == sys.argv[2])
timed, amb, early = g["hist"]["count"], g["ambiguous"], g["not_issued_in_trace"]
print("# %s: %d timed, %d ambiguous, %d without issue; the disk counted %s" %
      (sys.argv[2], timed, amb, early, sys.argv[3]))
sys.exit(0 if timed + amb == int(sys.argv[3]) == 6000 and amb > 0 and early == 0 and
         j["in_flight_at_end"] == 0 else 1)
PY
then
	pass $name
else
	fail $name "see $OUT/bio-same.json ($(head -1 $OUT/bio-same.err))"
fi

# Bad input: one line on stderr, nothing on stdout, exit status 2 (the command line is
# wrong) or 1 (the file lacks the events).
# bad NAME STATUS WORD ARGS...: ftscope ARGS is bad input that exits STATUS, its line holds WORD
bad() {
	local name=$1 status=$2 want=$3 rc
	shift 3
	ft $name $status "$@" > $OUT/bio-bad.out 2> $OUT/bio-bad.err
	rc=$?
	if [ $rc -ge 1 ] && [ $rc -le 127 ] && [ ! -s $OUT/bio-bad.out ] &&
	   [ "$(wc -l < $OUT/bio-bad.err)" -eq 1 ] && grep -q -- "$want" $OUT/bio-bad.err; then
		pass $name
	else
		fail $name "exit $rc, stdout $(wc -c < $OUT/bio-bad.out) bytes, stderr: $(head -2 $OUT/bio-bad.err | tr '\n' '|')"
	fi
}
bad biolatency_bad_min_us 2 "bad --min-us 'abc'" biolatency --min-us abc -d 0.1
bad biolatency_negative_min_us 2 "bad --min-us '-1'" biolatency --min-us -1 -d 0.1
bad biolatency_min_us_too_big 2 "bad --min-us '3600000001'" biolatency --min-us 3600000001 -d 0.1
bad biolatency_disks_and_flags 2 "-D and -F exclude each other" biolatency -D -F -d 0.1
bad biolatency_pid 2 "-p, -t and --cgroup do not apply" biolatency -p 1 -d 0.1
bad biolatency_file_without_block 1 "biolatency needs block:block_rq_issue" \
	biolatency -i tests/data/tdat-v7-zstd-cpus-0125.dat
