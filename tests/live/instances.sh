#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: the buffers of named instances in a trace.dat (trace-cmd extract -B of
#              two instances, and its v7 zstd conversion): -B NAME reads that instance's
#              events, as many as trace-cmd report prints of it; without -B, the empty top
#              buffer gives the first instance's events and a note that names the buffers;
#              a NAME the file lacks is one error line that names them.
# requires: root, trace-cmd (scripts/install-deps.sh installs it)
. tests/live/lib.sh
need_root tdat_instances || exit 0
if ! command -v trace-cmd > /dev/null; then
	fail tdat_instances "no trace-cmd (scripts/install-deps.sh installs it)"
	exit 0
fi

# two instances: one records the switches, the other the wakings, of the same run
A=ftscope-test-sw-$$
B=ftscope-test-wk-$$
mkdir $T/instances/$A $T/instances/$B
echo sched:sched_switch > $T/instances/$A/set_event
echo sched:sched_waking > $T/instances/$B/set_event
$WL/blocker 4 20 2 20 2> /dev/null
echo 0 > $T/instances/$A/tracing_on
echo 0 > $T/instances/$B/tracing_on
rm -f $OUT/inst.dat $OUT/inst7.dat
trace-cmd extract -B $A -B $B -o $OUT/inst.dat > $OUT/inst-extract.out 2>&1
for i in $A $B; do	# trace-cmd extract removes the instances it read; else we do
	if [ -d $T/instances/$i ]; then
		echo > $T/instances/$i/set_event
		rmdir $T/instances/$i
	fi
done
trace-cmd convert --file-version 7 --compression zstd -i $OUT/inst.dat -o $OUT/inst7.dat \
	> /dev/null 2>&1
# the events trace-cmd report prints of each (its report merges the buffers)
trace-cmd report -i $OUT/inst.dat > $OUT/inst-tc.txt 2>/dev/null
nsw=$(grep -c ' sched_switch: ' $OUT/inst-tc.txt)
nwk=$(grep -c ' sched_waking: ' $OUT/inst-tc.txt)
echo "# trace-cmd report: $nsw sched_switch in $A, $nwk sched_waking in $B"

# events F [ARGS]: "N" of ftscope's "N events processed" over file F
events() {
	local f=$1
	shift
	$FTSCOPE runqlat -i $f "$@" 2> $OUT/inst-ft.err | sed -n 's/^\([0-9]*\) events processed.*/\1/p'
}

for f in $OUT/inst.dat $OUT/inst7.dat; do
	v=v$(head -c 11 $f | tail -c 1)
	[ -s $f ] || { fail tdat_instance_file "$f was not written"; continue; }
	a=$(events $f -B $A)
	b=$(events $f -B $B)
	if [ "$nsw" -gt 0 ] && [ "$nwk" -gt 0 ] && [ "$a" = "$nsw" ] && [ "$b" = "$nwk" ]; then
		pass "tdat_instance_named_$v ($a switches, $b wakings)"
	else
		fail tdat_instance_named_$v "-B $A: '$a' events, -B $B: '$b'; trace-cmd: $nsw, $nwk"
	fi
	d=$(events $f)
	note="reading instance '$A' (-B NAME picks another of: top, $A, $B)"
	if [ "$d" = "$nsw" ] && grep -qF "the top buffer holds no events; $note" $OUT/inst-ft.err; then
		pass tdat_instance_default_$v
	else
		fail tdat_instance_default_$v "'$d' events (want $nsw): $(head -1 $OUT/inst-ft.err)"
	fi
	t=$(events $f -B top)
	$FTSCOPE runqlat -i $f -B nosuch > /dev/null 2> $OUT/inst-miss.err
	rc=$?
	want="no buffer 'nosuch' (the file holds: top, $A, $B)"
	if [ "$t" = 0 ] && [ $rc = 1 ] && [ "$(wc -l < $OUT/inst-miss.err)" = 1 ] &&
	   grep -qF "$want" $OUT/inst-miss.err; then
		pass tdat_instance_top_and_missing_$v
	else
		fail tdat_instance_top_and_missing_$v "-B top: '$t' events; -B nosuch: exit $rc, $(head -1 $OUT/inst-miss.err)"
	fi
done
