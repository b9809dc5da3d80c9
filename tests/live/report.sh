#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: `ftscope report [-i FILE] ANALYZER...`: several analyzers in one pass over
#              one trace.dat, each section equal to the analyzer run alone on the file
#              (its rows, histograms, summaries), and one footer equal to theirs. On
#              LISA's trace.dat and on a recording made here with stacks; --json gives
#              one object with a report per analyzer. Live: the report of a run equals
#              the report of the file that run wrote, and has the known answers.
# requires: ../shared for LISA; root for the recording
. tests/live/lib.sh
plan 6
SHARED=${FTSCOPE_SHARED:-../shared}
LISA=$SHARED/fixtures/third_party/lisa/sched_load.trace.dat
PY=tests/live/report_check.py

if [ -f "$LISA" ]; then
	ft report_lisa_equals_runs_alone 0 report -i "$LISA" 'timehist -s' timehist 'runqlat -P' \
		'latency -s max' 'wakeup --min-us 0' > $OUT/rep-lisa.txt 2> $OUT/rep-lisa.err
	if [ $? -ne 0 ]; then
		fail report_lisa_equals_runs_alone "exit status: $(head -1 $OUT/rep-lisa.err)"
	elif r=$(python3 $PY $FTSCOPE "$LISA" $OUT/rep-lisa.txt); then
		pass report_lisa_equals_runs_alone
	else
		fail report_lisa_equals_runs_alone "$r"
	fi
	echo "# $r"
else
	skip report_lisa_equals_runs_alone "no $LISA (../shared fixtures)"
fi

# a file with rebuilt switch-ins and wakeups: offcpu alone (which reads no wakeups) and
# beside timehist (which does) must see the same switch chain: its estimates use the
# wakeups whoever reads them (offcpu's sections differed: 995 against 310 us)
F=tests/data/tdat-v7-zstd-cpus-0125.dat
ft report_fixture_equals_runs_alone 0 report -i $F offcpu 'timehist -s' runqlat \
	> $OUT/rep-fix.txt 2> $OUT/rep-fix.err
if r=$(python3 $PY $FTSCOPE $F $OUT/rep-fix.txt); then
	pass report_fixture_equals_runs_alone
else
	fail report_fixture_equals_runs_alone "$r"
fi

need_root report_recording || exit 0
r=
rm -f $OUT/rep.dat
ft report_recording_equals_runs_alone 0 record -o $OUT/rep.dat timehist runqlat offcpu wakeup \
	latency -- taskset -c 0 $WL/blocker 4 20 1 10 > /dev/null 2>&1
ft report_recording_equals_runs_alone 0 report -i $OUT/rep.dat timehist runqlat offcpu \
	'wakeup --wakers' latency > $OUT/rep-own.txt 2> $OUT/rep-own.err
rc=$?
if [ $rc -ne 0 ]; then
	fail report_recording_equals_runs_alone "exit $rc: $(head -1 $OUT/rep-own.err)"
elif ! grep -q 'block_here\|blocker' $OUT/rep-own.txt; then
	fail report_recording_equals_runs_alone "no blocker stacks in offcpu's section"
elif r=$(python3 $PY $FTSCOPE $OUT/rep.dat $OUT/rep-own.txt); then
	pass report_recording_equals_runs_alone
else
	fail report_recording_equals_runs_alone "$r"
fi
echo "# $r"

# --json: one object, "reports" in the order given, events as each run alone counts
ft report_json 0 report --json -i $OUT/rep.dat runqlat wakeup > $OUT/rep.json 2>/dev/null
ft report_json 0 runqlat --json -i $OUT/rep.dat > $OUT/rep-rq.json 2>/dev/null
names=$(json "','.join(r['analyzer'] for r in j['reports'])" $OUT/rep.json 2>/dev/null)
ev=$(json "j['events']" $OUT/rep.json 2>/dev/null)
ev1=$(json "j['events']" $OUT/rep-rq.json 2>/dev/null)
h=$(json "j['reports'][0]['total']" $OUT/rep.json 2>/dev/null)
h1=$(json "j['total']" $OUT/rep-rq.json 2>/dev/null)
if [ "$names" = runqlat,wakeup ] && [ -n "$ev" ] && [ "$ev" = "$ev1" ] && [ "$h" = "$h1" ]; then
	pass report_json
else
	fail report_json "reports '$names', events $ev vs $ev1 alone, histogram equal: $([ "$h" = "$h1" ] && echo yes || echo no)"
fi

# --json with analyzers that print rows as they go: every line is JSON (the rows went
# inside the report's object once: "{"analyzer":"timehist"{"analyzer"..."), each
# analyzer's rows those it prints alone on the same file, the report's line last
name=report_json_rows
ft $name 0 report --json -i $F timehist 'wakeup --min-us 0' runqlat > $OUT/rep-rows.json \
	2> /dev/null
ft $name 0 timehist --json -i $F > $OUT/rep-rows-th.json 2> /dev/null
ft $name 0 wakeup --min-us 0 --json -i $F > $OUT/rep-rows-wk.json 2> /dev/null
if r=$(python3 - $OUT/rep-rows.json $OUT/rep-rows-th.json $OUT/rep-rows-wk.json <<'PY'
import sys
from pct_check import json_lines, json_rows
rep, th, wk = sys.argv[1:4]
try:
    last = (json_lines(rep) or [{}])[-1]
    got = {(p, a): json_rows(p, a) for p in (rep, th, wk) for a in ('timehist', 'wakeup')}
except ValueError as e:
    sys.exit(f'not JSON lines ({e})')
rows = lambda p, a: got[p, a]
names = [x['analyzer'] for x in last.get('reports', [])]
print(f'{len(rows(rep, "timehist"))} timehist rows ({len(rows(th, "timehist"))} alone), '
      f'{len(rows(rep, "wakeup"))} wakeup rows ({len(rows(wk, "wakeup"))} alone), reports {names}')
ok = rows(rep, 'timehist') == rows(th, 'timehist') and rows(rep, 'wakeup') == rows(wk, 'wakeup') \
    and rows(th, 'timehist') and rows(wk, 'wakeup') and names == ['timehist', 'wakeup', 'runqlat']
sys.exit(0 if ok else 1)
PY
); then
	pass $name
else
	fail $name "$r"
fi
echo "# $r"

# live, writing a file: the live report equals the report of its file, with known answers
rm -f $OUT/rep-live.dat $OUT/rep-live.counts
SLEEPER_COUNTS=$OUT/rep-live.counts ft report_live 0 report timehist 'runqlat -L' \
	'wakeup --top 3' -o $OUT/rep-live.dat -- taskset -c 0 chrt -f 10 $WL/sleeper 0 20 5 \
	> $OUT/rep-live.txt 2> $OUT/rep-live.err
rc=$?
ft report_live 0 report -i $OUT/rep-live.dat timehist 'runqlat -L' 'wakeup --top 3' \
	> $OUT/rep-live-file.txt 2>&1
# runqlat -L: the sleeper's 20 naps, each one wakeup, its first run as sleeper, and its
# start: before exec the thread is ftscope's child, then taskset and chrt, SCHED_OTHER
# until chrt's call, and may be preempted (30 switch-ins beside perf bench). A latency
# ends at a switch-in, so the count is at most the thread's rows in the same report's
# timehist (a row per switch-out). Those rows are the thread's switches out that the
# kernel counted (the sleeper's last act prints its RUSAGE_THREAD counts, which exec
# keeps), less the one or two before tracing began (the start gate), plus its exit and
# a preemption after the print: -2 .. +2.
tid=$(awk '/^==> runqlat -L <==/ { f = 1 } f && /^tid = .* sleeper$/ { print $3; exit }' $OUT/rep-live.txt)
n=$(awk '/^==> runqlat -L <==/ { f = 1 } /^==> wakeup/ { f = 0 }
	f && /^tid = .* sleeper$/ { s = 1 } f && s && /^count / { print $2 + 0; exit }' $OUT/rep-live.txt)
rows=$(awk -v t="[$tid]" '/^==> timehist <==/ { f = 1 } /^==> runqlat/ { f = 0 }
	f && index($3, t) { k++ } END { print k + 0 }' $OUT/rep-live.txt)
k=$(switches_out $OUT/rep-live.counts)
if [ $rc -ne 0 ]; then
	fail report_live "exit $rc: $(head -1 $OUT/rep-live.err)"
elif [ "$(grep -c '^==> ' $OUT/rep-live.txt)" -ne 3 ]; then
	fail report_live "not three sections: $(grep '^==> ' $OUT/rep-live.txt | tr '\n' ' ')"
elif [ -z "$n" ] || [ -z "$k" ] || [ "$n" -lt 20 ] || [ "$n" -gt "$rows" ] ||
     [ "$rows" -lt $((k - 2)) ] || [ "$rows" -gt $((k + 2)) ]; then
	fail report_live "runqlat's section counts $n wakeups of the sleeper's 20, timehist $rows rows of it, the kernel $k switches out ($(cat $OUT/rep-live.counts))"
elif ! cmp -s $OUT/rep-live.txt $OUT/rep-live-file.txt; then
	fail report_live "the file's report differs: $(diff $OUT/rep-live.txt $OUT/rep-live-file.txt |
		grep '^[<>]' | head -2 | tr '\n' ' ')"
else
	pass "report_live (3 sections, $n sleeper wakeups, $rows rows, the kernel's $k, equal to the report of its file)"
fi
