#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: timehist offline on known bytes: perfetto's six sched_switch page (read
#              in place from ../shared) against a reference computed from the kernel's own
#              text of the same records; and our own 6.18 capture of 20 x 5 ms sleeps.
# requires: nothing (no root: captures are files)
. tests/live/lib.sh
plan 2
PY=tests/live/sched_check.py
SHARED=${FTSCOPE_SHARED:-../shared}
P=$SHARED/fixtures/third_party/perfetto

if [ -f $P/g_six_sched_switch.bin ]; then
	# a capture directory of links to the fixture: header_page, format, cpu0.raw
	rm -rf $OUT/six && mkdir -p $OUT/six
	ln -s "$(realpath $P/formats/synthetic/header_page)" $OUT/six/header_page
	ln -s "$(realpath $P/formats/synthetic/sched_switch.format)" $OUT/six/sched_switch.format
	ln -s "$(realpath $P/g_six_sched_switch.bin)" $OUT/six/cpu0.raw
	ft timehist_golden_six_switches 0 timehist --state -i $OUT/six > $OUT/six.txt 2>&1
	if r=$(python3 $PY golden $OUT/six.txt $P/g_six_sched_switch.expected.txt); then
		pass timehist_golden_six_switches
	else
		fail timehist_golden_six_switches "$r"
	fi
	echo "# $r"
else
	skip timehist_golden_six_switches "no $P (../shared fixtures)"
fi

ft timehist_golden_own_capture 0 timehist -i tests/data/cap-sleeper > $OUT/cap-sleeper.txt 2>&1
if r=$(python3 $PY sleeps $OUT/cap-sleeper.txt sleeper 20 5); then
	pass timehist_golden_own_capture
else
	fail timehist_golden_own_capture "$r"
fi
echo "# $r"
