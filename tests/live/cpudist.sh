#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: cpudist (BCC's) against runlens's own clock: its runner's stays on the
#              CPU are its runs (count, sum, min, max), its times off it the 1 ms naps
#              between them (-O); a recording gives the live run's histograms; -P with
#              -L refused; the global tracing state as before.
# requires: root, sched tracepoints
. tests/live/lib.sh
plan 5
need_root cpudist || exit 0
before=$(global_state)
PY=tests/live/cpudist_check.py

# the runner's stays (-L) and times off (-O), against its own times (lib.sh's
# runlens_check; cpudist_check.py)
runlens_check cpudist_runs_own runs $OUT/cd-on.json cpudist -L --json -o $OUT/cd-on.dat
runlens_check cpudist_offcpu_naps naps $OUT/cd-off.json cpudist -L --json -O

# cpudist_file_equals_live: the recording of the first run gives its histograms (the
# JSON's groups and notes; the footer's times differ)
name=cpudist_file_equals_live
ft $name 0 cpudist -L --json -i $OUT/cd-on.dat > $OUT/cd-file.json 2>&1
strip='{k: v for k, v in j.items() if k in ("total", "groups", "estimated", "unmeasured")}'
if [ "$(json "$strip" $OUT/cd-on.json)" = "$(json "$strip" $OUT/cd-file.json)" ] &&
   [ -n "$(json "$strip" $OUT/cd-on.json)" ]; then
	pass $name
else
	fail $name "$(diff <(json "$strip" $OUT/cd-on.json) <(json "$strip" $OUT/cd-file.json) | head -3)"
fi

# cpudist_bad_usage: -P and -L exclude each other (BCC's rule): exit 2, one line
name=cpudist_bad_usage
ft $name 2 cpudist -P -L -d 1 > /dev/null 2> $OUT/cd-bad.err
if [ "$(wc -l < $OUT/cd-bad.err)" = 1 ] && grep -q 'not allowed' $OUT/cd-bad.err; then
	pass $name
else
	fail $name "$(head -c 200 $OUT/cd-bad.err)"
fi

name=cpudist_state_restored
after=$(global_state)
if [ "$before" = "$after" ]; then
	pass $name
else
	fail $name "$(state_diff "$before" "$after")"
fi
