#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: the buffers of named instances in a trace.dat (trace-cmd extract -B of
#              two instances, and its v7 zstd conversion): -B NAME reads that instance's
#              events, as many as trace-cmd report prints of it; without -B, the empty top
#              buffer gives the first instance's events and a note that names the buffers;
#              a NAME the file lacks is one error line that names them.
# requires: root, trace-cmd (scripts/install-deps.sh --tests installs it)
. tests/live/lib.sh
plan 12		# four for each of the three files
need_root tdat_instances || exit 0
if ! command -v trace-cmd > /dev/null; then
	fail tdat_instances "no trace-cmd (scripts/install-deps.sh --tests installs it)"
	skip_rest "no trace-cmd"
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
rm -f $OUT/inst.dat $OUT/inst6.dat $OUT/inst7.dat
trace-cmd extract -B $A -B $B -o $OUT/inst.dat > $OUT/inst-extract.out 2>&1
for i in $A $B; do	# trace-cmd extract removes the instances it read; else we do
	if [ -d $T/instances/$i ]; then
		echo > $T/instances/$i/set_event
		rmdir $T/instances/$i
	fi
done
# extract writes version 7 with an empty top buffer; convert keeps it in version 6
# and drops it in a zstd version 7
trace-cmd convert --file-version 6 -i $OUT/inst.dat -o $OUT/inst6.dat > /dev/null 2>&1
trace-cmd convert --file-version 7 --compression zstd -i $OUT/inst.dat -o $OUT/inst7.dat \
	> /dev/null 2>&1
# the events trace-cmd report prints of each buffer ("NAME:" before each line)
trace-cmd report -i $OUT/inst.dat > $OUT/inst-tc.txt 2>/dev/null
nsw=$(grep -c "^$A: .* sched_switch: " $OUT/inst-tc.txt)
nwk=$(grep -c "^$B: .* sched_waking: " $OUT/inst-tc.txt)
echo "# trace-cmd report: $nsw sched_switch in $A, $nwk sched_waking in $B"

# events NAME WANT F [ARGS]: "N" of ftscope's "N events processed" over file F, its exit
# status WANT (ft)
events() {
	local name=$1 want=$2 f=$3
	shift 3
	ft $name $want runqlat -i $f "$@" 2> $OUT/inst-ft.err |
		sed -n 's/^\([0-9]*\) events processed.*/\1/p'
}

for v in "" 6 7; do
	f=$OUT/inst$v.dat
	name=${v:-7_extract}
	[ -n "$v" ] && name=${v}_convert
	if [ ! -s $f ]; then
		fail tdat_instance_named_$name "$f was not written"
		for n in missing default top; do
			skip tdat_instance_${n}_$name "$f was not written"
		done
		continue
	fi
	a=$(events tdat_instance_named_$name 0 $f -B $A)
	b=$(events tdat_instance_named_$name 0 $f -B $B)
	if [ "$nsw" -gt 0 ] && [ "$nwk" -gt 0 ] && [ "$a" = "$nsw" ] && [ "$b" = "$nwk" ]; then
		pass "tdat_instance_named_$name ($a switches, $b wakings)"
	else
		fail tdat_instance_named_$name "-B $A: '$a' events, -B $B: '$b'; trace-cmd: $nsw, $nwk"
	fi
	# the file's buffers, in its order: the error for a NAME it lacks lists them
	ft tdat_instance_missing_$name 1 runqlat -i $f -B nosuch > /dev/null 2> $OUT/inst-miss.err
	rc=$?
	list=$(sed -n "s/.*no buffer 'nosuch' (the file holds: \(.*\))$/\1/p" $OUT/inst-miss.err)
	first=$(echo "$list" | tr -d ' ' | tr ',' '\n' | grep -vx top | head -1)
	want=$([ "$first" = $A ] && echo $nsw || echo $nwk)
	top="the top buffer holds no events"
	[ "$v" = 7 ] && top="the file has no top buffer"
	d=$(events tdat_instance_default_$name 0 $f)
	if [ $rc = 1 ] && [ "$(wc -l < $OUT/inst-miss.err)" = 1 ] &&
	   [ "$(echo "$list" | tr -d ' ' | tr ',' '\n' | sort | paste -sd,)" = \
	     "$(printf '%s\n' $A $B $([ "$v" = 7 ] || echo top) | sort | paste -sd,)" ]; then
		pass tdat_instance_missing_$name
	else
		fail tdat_instance_missing_$name "exit $rc: $(head -1 $OUT/inst-miss.err)"
	fi
	if [ "$d" = "$want" ] && grep -qF "$top; reading instance '$first' (-B NAME picks one of: $list)" \
	   $OUT/inst-ft.err; then
		pass tdat_instance_default_$name
	else
		fail tdat_instance_default_$name "'$d' events (want $want of $first): $(head -1 $OUT/inst-ft.err)"
	fi
	# the top buffer: empty, or (a zstd version 7) no buffer of that name, exit 1
	top_rc=0
	[ "$v" = 7 ] && top_rc=1
	t=$(events tdat_instance_top_$name $top_rc $f -B top)
	if [ "$v" = 7 ] && grep -qF "no buffer 'top' (the file holds: $list)" $OUT/inst-ft.err; then
		pass tdat_instance_top_$name
	elif [ "$v" != 7 ] && [ "$t" = 0 ]; then
		pass tdat_instance_top_$name
	else
		fail tdat_instance_top_$name "-B top: '$t' events: $(head -1 $OUT/inst-ft.err)"
	fi
done
