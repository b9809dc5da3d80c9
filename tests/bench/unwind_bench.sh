#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# unwind_bench.sh - bench.sh sections 6 to 8 (runs alone too, as root): what whole user
# stacks by call frame information (--call-graph dwarf, issue 35) cost, against perf's
# --call-graph dwarf measured in the same run on the same workload. Not a test: it
# prints figures, and whether each target of the issue is met.
#  6. ftscope profile -F 999 -a (dwarf: profile's default with -F) against perf record
#     -F 999 -a --call-graph dwarf followed by perf report (what a perf user runs for the
#     same answer), D s each over the same CPU-bound workload: tests/bench/sortburn (-O2
#     -fomit-frame-pointer, through libc's qsort) and Debian's python3, one per CPU.
#     Per tool: CPU per 1000 samples (user + sys of the process, /usr/bin/time: ftscope's
#     one run; perf record's plus perf report's), bytes written (ftscope -o FILE against
#     perf.data), samples lost (ftscope's footer; perf report --stats). Target: ftscope at
#     most a quarter of perf's CPU per sample, no sample lost at 999 Hz.
#  7. offcpu on a switch-heavy workload, the traced command only: perf bench sched pipe
#     -l LOOPS (both tasks on CPU 0), its own usecs/op untraced, under ftscope offcpu with
#     its default stacks (ftrace's), --call-graph fp and --call-graph dwarf, and under perf
#     record -e sched:sched_switch --call-graph dwarf; PIPE_ROUNDS rounds, each condition once
#     a round in an order that turns round by round, each slowdown against the same
#     round's untraced run (this VM's speed drifts between minutes). Target: ftscope's
#     dwarf slowdown less than perf's.
#  8. the unwinder's cost per frame on real samples (tests/bench/unwind_speed), beside
#     libdw's on the same bytes: sortburn and python3.
#
#   tests/bench/unwind_bench.sh                       (root)
#   ROUNDS=3 SECS=8 PIPE_ROUNDS=7 LOOPS=20000 tests/bench/unwind_bench.sh

cd "$(dirname "$0")/../.." || exit 1
# die MSG: one line on stderr, status 1 (the EXIT trap cleans up)
die() {
	echo "unwind_bench.sh: $*" >&2
	exit 1
}
[ "$(id -u)" -eq 0 ] || die "needs root"
for c in perf /usr/bin/python3 taskset /usr/bin/time ./ftscope tests/bench/sortburn tests/bench/unwind_speed; do
	command -v $c > /dev/null || die "no $c (scripts/install-deps.sh --tests, make bench)"
done
ROUNDS=${ROUNDS:-3}
SECS=${SECS:-8}
LOOPS=${LOOPS:-20000}
PIPE_ROUNDS=${PIPE_ROUNDS:-7}
NCPU=$(nproc)
W=$(mktemp -d /tmp/ftscope-ubench.XXXXXX)
p=
trap '[ -n "$p" ] && kill $p 2> /dev/null; rm -rf $W' EXIT
# Debian's python3 (by its path: a python3 earlier in PATH, pyenv's shim, is a bash script
# that execs another build, and samples of the shim are walked against the wrong maps),
# CPU-bound for SECS s through the interpreter, json and sorted
PYTHON=/usr/bin/python3
PY='import json, time
t = time.process_time() + float(__import__("sys").argv[1])
while time.process_time() < t:
    json.loads(json.dumps(sorted(range(2000), key=lambda x: -x)))'

# cpu FILE: user + sys seconds from /usr/bin/time's "cpu U S" line
cpu() { awk '/^cpu/ { print $2 + $3 }' $1; }

# workload SECS: sortburn and python3 by turns, one per CPU, SECS s of CPU each (pids in $p)
workload() {
	local i
	p=
	for ((i = 0; i < NCPU; i++)); do
		if ((i % 2)); then
			$PYTHON -c "$PY" $1 &
		else
			tests/bench/sortburn $1 2> /dev/null &
		fi
		p="$p $!"
	done
}

# prof ft|perf R: one profiler's SECS s beside the workload, its figures as one line of $W/prof
prof() {
	local t=$1 r=$2 n l
	workload $((SECS + 2))
	sleep 0.5	# the workload started: its maps are there to read
	if [ $t = ft ]; then
		rm -f $W/ft.dat
		# a failed -o run is said, and its round's CPU taken from a run without -o
		# (no bytes figure then): `-o FILE` fails on a sample of tid -1 (benchmarks.md)
		if ! /usr/bin/time -f "cpu %U %S" -o $W/t.time ./ftscope profile -F 999 -a -d $SECS \
			-o $W/ft.dat > $W/t.out 2> $W/t.err; then
			echo "  round $r ftscope profile -o FAILED: $(tail -1 $W/t.err); again without -o"
			/usr/bin/time -f "cpu %U %S" -o $W/t.time ./ftscope profile -F 999 -a -d $SECS \
				> $W/t.out 2> $W/t.err || die "ftscope profile: $(tail -1 $W/t.err)"
		fi
		# the footer: "N events processed, N lost; N samples, N lost"
		read -r n l < <(cat $W/t.out $W/t.err |
				sed -n 's/.*; \([0-9]*\) samples, \([0-9]*\) lost.*/\1 \2/p')
		echo "$r ft $(cpu $W/t.time) 0 $n $l $(stat -c %s $W/ft.dat 2> /dev/null || echo 0)" >> $W/prof
	else
		/usr/bin/time -f "cpu %U %S" -o $W/t.time perf record -F 999 -a --call-graph dwarf \
			-o $W/perf.data -- sleep $SECS > /dev/null 2> $W/t.err ||
			die "perf record: $(tail -1 $W/t.err)"
		/usr/bin/time -f "cpu %U %S" -o $W/r.time perf report -i $W/perf.data --stdio \
			> /dev/null 2>&1 || die "perf report failed"
		perf report -i $W/perf.data --stats > $W/stats 2> /dev/null
		n=$(awk '/ SAMPLE events:/ { print $3; exit }' $W/stats)
		l=$(awk '/LOST(_SAMPLES)? events:/ { s += $3 } END { print s + 0 }' $W/stats)
		echo "$r perf $(cpu $W/t.time) $(cpu $W/r.time) $n $l $(stat -c %s $W/perf.data)" >> $W/prof
		rm -f $W/perf.data
	fi
	wait $p
	p=
}

echo "== 6. profile -F 999 -a, CFI stacks: ftscope against perf record --call-graph dwarf + perf report"
echo "   ($SECS s each beside sortburn and python3 on $NCPU CPUs; $ROUNDS rounds, the order turning)"
for ((r = 1; r <= ROUNDS; r++)); do
	if ((r % 2)); then prof ft $r; prof perf $r; else prof perf $r; prof ft $r; fi
done
python3 - $W/prof <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1])]
per = {"ft": [], "perf": []}
for r, t, c1, c2, n, lost, size in rows:
    c1, c2, n, lost, size = float(c1), float(c2), int(n), int(lost), int(size)
    per[t].append((int(r), c1, c2, n, lost, size))
    if t == "ft":
        print("  round %s ftscope profile:  %6d samples, %4d lost, %.3f s CPU: %6.1f ms per 1000; " %
              (r, n, lost, c1, c1 / n * 1e6) + ("%6.1f MB written (%5.0f B a sample)" %
              (size / 1e6, size / n) if size else "(no -o: nothing written)"))
    else:
        print("  round %s perf record + report: %6d samples, %4d lost, %.3f + %.3f s CPU: %6.1f + %6.1f "
              "ms per 1000; %6.1f MB (%5.0f B a sample)" % (r, n, lost, c1, c2, c1 / n * 1e6,
              c2 / n * 1e6, size / 1e6, size / n))
ft = {x[0]: x for x in per["ft"]}
ratios = []
for x in per["perf"]:
    f = ft.get(x[0])
    if f:
        ratios.append((f[1] / f[3]) / ((x[1] + x[2]) / x[3]))
if ratios:
    lost = sum(x[4] for x in per["ft"])
    print("  ftscope / (perf record + perf report), CPU per sample: %.3f .. %.3f over %d rounds "
          "(target <= 0.25: %s); ftscope lost %d samples (target 0: %s)" %
          (min(ratios), max(ratios), len(ratios), "met" if max(ratios) <= 0.25 else "NOT met",
           lost, "met" if lost == 0 else "NOT met"))
    rec = [(f[1] / f[3]) / (x[1] / x[3]) for x in per["perf"] for f in [ft.get(x[0])] if f]
    print("  against perf record alone (no answer yet): %.2f .. %.2f" % (min(rec), max(rec)))
PY

# pipe CMD...: perf bench sched pipe's usecs/op, on CPU 0, run by CMD (nothing: ""); what
# the tool printed in $W/tool.out and .err
pipe() {
	"$@" taskset -c 0 perf bench sched pipe -l $LOOPS > $W/tool.out 2> $W/tool.err
	awk '/usecs\/op/ { print $1 }' $W/tool.out
}

# pipe_lost COND: the samples the tool of condition COND lost ("-": it takes none)
pipe_lost() {
	case $1 in
	none|ftrace) echo - ;;
	perf) perf report -i $W/off.data --stats 2> /dev/null |
	      awk '/LOST(_SAMPLES)? events:/ { s += $3 } END { print s + 0 }' ;;
	*) cat $W/tool.out $W/tool.err | sed -n 's/.*; [0-9]* samples, \([0-9]*\) lost.*/\1/p' ;;
	esac
}

echo
echo "== 7. offcpu's cost to the traced command: perf bench sched pipe -l $LOOPS on CPU 0 (usecs/op;"
echo "   $PIPE_ROUNDS rounds, each condition once a round, slowdowns against the same round's untraced run)"
conds=(none ftrace fp dwarf perf)
for ((r = 0; r < PIPE_ROUNDS; r++)); do
	for ((i = 0; i < ${#conds[@]}; i++)); do
		c=${conds[(i + r) % ${#conds[@]}]}
		case $c in
		none) us=$(pipe) ;;
		ftrace) us=$(pipe ./ftscope offcpu --) ;;
		fp|dwarf) us=$(pipe ./ftscope offcpu --call-graph $c --) ;;
		perf) us=$(pipe perf record -q -e sched:sched_switch --call-graph dwarf -o $W/off.data --) ;;
		esac
		[ -n "$us" ] || die "perf bench sched pipe printed no usecs/op (round $r, $c)"
		size=$(stat -c %s $W/off.data 2> /dev/null)
		echo "$r $c $us ${size:-0} $(pipe_lost $c)" >> $W/pipe
		rm -f $W/off.data
	done
done
python3 - $W/pipe "${conds[@]}" <<'PY'
import sys
sys.path.insert(0, "tests/bench")
from rounds import median as mid, read_rounds
conds = sys.argv[2:]
runs, more, slow = read_rounds(sys.argv[1], conds, "none")
base = runs["none"]
size = {c: [int(m[0]) for m in more[c]] for c in conds}
lost = {c: [m[1] for m in more[c]] for c in conds}
say = {"none": "untraced", "ftrace": "ftscope offcpu (ftrace stacks)", "fp": "ftscope --call-graph fp",
       "dwarf": "ftscope --call-graph dwarf", "perf": "perf record --call-graph dwarf"}
for c in conds:
    v = list(runs[c].values())
    line = "  %-31s %6.2f us/op (%.2f .. %.2f)" % (say[c] + ":", mid(v), min(v), max(v))
    if c != "none":
        line += "  %+5.0f%% (rounds %+.0f%% .. %+.0f%%)" % (
            mid(slow[c]) * 100, min(slow[c]) * 100, max(slow[c]) * 100)
    if lost[c][0] != "-":
        line += "; lost %s" % ",".join(lost[c])
    if c == "perf":
        line += "; %.0f MB of perf.data" % (mid(size[c]) / 1e6)
    print(line)
d, p = slow["dwarf"], slow["perf"]
# what the stack copies and their unwinding add to offcpu's own tracing (its fp run
# traces the same events, with the kernel's frame-pointer walk), beside perf's whole cost
inc = [(runs["dwarf"][r] - runs["fp"][r]) / base[r] for r in base]
print("  ftscope dwarf over its fp run: %+.0f%% (rounds %+.0f%% .. %+.0f%%), perf's whole slowdown %+.0f%%"
      % (mid(inc) * 100, min(inc) * 100, max(inc) * 100, mid(p) * 100))
below = sum(1 for a, b in zip(d, p) if a < b)
print("  ftscope dwarf's slowdown below perf's in %d of %d rounds (target: less than perf's: %s)" %
      (below, len(d), "met" if below == len(d) else "met in the median" if mid(d) < mid(p) else "NOT met"))
PY

echo
echo "== 8. the unwinder per frame on the same samples, ftscope and libdw (tests/bench/unwind_speed)"
tests/bench/unwind_speed -n 3000 -- tests/bench/sortburn 30 || die "unwind_speed failed"
tests/bench/unwind_speed -n 3000 -- $PYTHON -c "$PY" 30 || die "unwind_speed failed"
