#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: user stacks unwound by CFI (--call-graph dwarf, issue unwind) on code
#              built without frame pointers (tests/workloads/chains, -O2
#              -fomit-frame-pointer) and Debian's python3: profile's split of one leaf
#              between two callers against the workload's own CPU clocks, and against
#              perf record --call-graph dwarf on the same run; offcpu's designed chains
#              against the workload's own off-CPU clocks; the frame-pointer walk shown
#              to lose what these checks look for; -o/-i; bad input; a stack
#              deeper than the copy ends in a marker, in every printer.
# requires: root; perf for the peer check (skipped without it)
. tests/live/lib.sh
plan 25
need_root unwind_profile_split || exit 0
PY=tests/live/unwind_check.py
AB=main,via_a,via_b,burn_leaf
C=main,via_c,burn_leaf

# 1. profile: ch-burn spends 3/4 of its CPU in burn_leaf under main -> via_a -> via_b,
# 1/4 under main -> via_c, in turns of 10 ms, and times each by its own thread clock.
# perf record --call-graph dwarf samples the same run (ftscope and its command).
have_perf=1
perf record -q -o $OUT/uw-probe.data --call-graph dwarf -- true >/dev/null 2>&1 || have_perf=0
rm -f $OUT/uw-probe.data
run=(profile --call-graph dwarf -F 999 -f -o $OUT/uw.dat -- $WL/chains)
if [ $have_perf = 1 ]; then
	FT_WITH="perf record -q -F 999 --call-graph dwarf -o $OUT/uw-perf.data --" \
		ft unwind_profile_split 0 "${run[@]}" > $OUT/uw.folded 2> $OUT/uw.err
else
	ft unwind_profile_split 0 "${run[@]}" > $OUT/uw.folded 2> $OUT/uw.err
fi
# each chain's share of burn_leaf's samples within 2 points of the workload's own split
# (measured: see docs/testing.md's row), 99% of them under one of the two chains
check unwind_profile_split split $OUT/uw.folded $OUT/uw.err ch-burn burn_leaf 2 $AB $C
# through libc (no frame pointers) to the outermost frame: _start (gdb's backtrace
# past main: main, __libc_start_call_main, __libc_start_main_impl, _start)
check unwind_profile_root root $OUT/uw.folded ch-burn burn_leaf _start
if [ $have_perf = 1 ]; then
	perf script -i $OUT/uw-perf.data -F comm,tid,ip,sym > $OUT/uw-perf.script 2>/dev/null
	# the chains binary's own frames (main, via_*, burn_leaf, _start ...) of each
	# sample: the same as perf's for 95% of ch-burn's samples at least
	check unwind_profile_perf_peer perfpeer $OUT/uw.folded $OUT/uw-perf.script ch-burn \
		$WL/chains 95
else
	skip unwind_profile_perf_peer "perf record --call-graph dwarf does not run here"
fi
# read back: the file keeps the unwound frames
ft unwind_profile_file 0 profile -f -i $OUT/uw.dat > $OUT/uw-i.folded 2> $OUT/uw-i.err
if [ -s $OUT/uw.folded ] && cmp -s <(sort $OUT/uw.folded) <(sort $OUT/uw-i.folded); then
	pass unwind_profile_file
else
	fail unwind_profile_file "-i gives other stacks: $(diff <(sort $OUT/uw.folded) \
		<(sort $OUT/uw-i.folded) | head -3 | tr '\n' ' ')$(tail -1 $OUT/uw-i.err)"
fi

# 2. the frame-pointer walk of the same code: burn_leaf's callers are lost (what the
# checks above look for is really missing without the unwinder)
ft unwind_profile_fp_loses 0 profile --call-graph fp -F 999 -f -- $WL/chains \
	> $OUT/uw-fp.folded 2> $OUT/uw-fp.err
check unwind_profile_fp_loses nocallers $OUT/uw-fp.folded ch-burn burn_leaf via_a via_b via_c

# 3. offcpu: --call-graph dwarf (which implies --stacks perf): the sleeper's 20 x 50 ms
# under sleeper -> sleep_outer -> sleep_inner -> nap, the reader's 10 pipe reads under
# reader -> read_outer -> take, against their own off-CPU clocks (offcpu_check.py's
# chain: the bounds of offcpu.sh's known checks)
ft unwind_offcpu_sleep 0 offcpu --call-graph dwarf -f -o $OUT/uw-off.dat -- $WL/chains 200 \
	> $OUT/uw-off.folded 2> $OUT/uw-off.err
st=$(ft_steal)	# the host's steal over the run, allowed above
STEAL_MS=$st python3 tests/live/offcpu_check.py chain $OUT/uw-off.folded $OUT/uw-off.err ch-sleeper \
	sleeper,sleep_outer,sleep_inner,nap do_nanosleep 1000000 > $OUT/uw-off.c1 2>&1 &&
	pass unwind_offcpu_sleep || fail unwind_offcpu_sleep "$(tail -1 $OUT/uw-off.c1)"
echo "# unwind_offcpu_sleep: $(head -1 $OUT/uw-off.c1)"
STEAL_MS=$st python3 tests/live/offcpu_check.py chain $OUT/uw-off.folded $OUT/uw-off.err ch-reader \
	reader,read_outer,take pipe_read 1000000 > $OUT/uw-off.c2 2>&1 &&
	pass unwind_offcpu_pipe || fail unwind_offcpu_pipe "$(tail -1 $OUT/uw-off.c2)"
echo "# unwind_offcpu_pipe: $(head -1 $OUT/uw-off.c2)"
ft unwind_offcpu_file 0 offcpu --stacks perf -f -i $OUT/uw-off.dat > $OUT/uw-off-i.folded \
	2> $OUT/uw-off-i.err
if [ -s $OUT/uw-off.folded ] && cmp -s $OUT/uw-off.folded $OUT/uw-off-i.folded; then
	pass unwind_offcpu_file
else
	fail unwind_offcpu_file "-i gives other stacks: $(diff $OUT/uw-off.folded \
		$OUT/uw-off-i.folded | head -3 | tr '\n' ' ')$(tail -1 $OUT/uw-off-i.err)"
fi

# 4. Debian's python3 (no frame pointers, symbols in .dynsym): the 500 ms sleep's
# stack reaches Py_BytesMain; with the frame-pointer walk it does not
py=(-f -- /usr/bin/python3 -c 'import time; time.sleep(0.5)')
if [ -x /usr/bin/python3 ]; then
	ft unwind_python 0 offcpu --call-graph dwarf "${py[@]}" > $OUT/uw-py.folded \
		2> $OUT/uw-py.err
	check unwind_python reaches $OUT/uw-py.folded python3 do_nanosleep Py_BytesMain 490000
	ft unwind_python_fp_differs 0 offcpu --call-graph fp "${py[@]}" > $OUT/uw-pyfp.folded \
		2> $OUT/uw-pyfp.err
	# the sleep is there (every stack holds the comm), but not reaching Py_BytesMain
	if ! python3 $PY reaches $OUT/uw-pyfp.folded python3 do_nanosleep python3 490000 \
		> /dev/null; then
		fail unwind_python_fp_differs "no 490 ms in do_nanosleep with the frame-pointer walk"
	elif python3 $PY reaches $OUT/uw-pyfp.folded python3 do_nanosleep Py_BytesMain 490000 \
		> /dev/null; then
		fail unwind_python_fp_differs "the frame-pointer walk reaches Py_BytesMain too"
	else
		pass unwind_python_fp_differs
	fi
	# a loop on time.monotonic(): samples in the vDSO (no file: the unwinder reads its
	# own image of it) go on through libc's __clock_gettime to Py_BytesMain, and no walk
	# stops at code in no file (without the vDSO's mapping: 9 of 1004 did, the rest
	# passed it by its frame pointer)
	ft unwind_python_vdso 0 profile -F 999 -f -- /usr/bin/python3 -c 'import time
t = time.monotonic() + 1
while time.monotonic() < t: pass' > $OUT/uw-vdso.folded 2> $OUT/uw-vdso.err
	if python3 $PY reaches $OUT/uw-vdso.folded python3 __clock_gettime Py_BytesMain 20 \
		> $OUT/uw-vdso.c 2>&1 && ! grep -q 'at code in no file' $OUT/uw-vdso.err &&
		grep -qE '(__vdso_|\[vdso\])' $OUT/uw-vdso.folded; then
		pass unwind_python_vdso
	else
		fail unwind_python_vdso "$(tail -1 $OUT/uw-vdso.c); $(grep -h 'unwound by' $OUT/uw-vdso.err)"
	fi
	echo "# unwind_python_vdso: $(head -1 $OUT/uw-vdso.c)"
else
	skip unwind_python "no /usr/bin/python3"
	skip unwind_python_fp_differs "no /usr/bin/python3"
	skip unwind_python_vdso "no /usr/bin/python3"
fi

# 5. a copy too small for the stack: the walks stop there, counted in the note
ft unwind_small_copy 0 profile --call-graph dwarf,64 -F 999 -f -- $WL/chains 300 \
	> $OUT/uw-small.folded 2> $OUT/uw-small.err
if grep -q 'beyond the stack copy' $OUT/uw-small.err &&
	! python3 $PY split $OUT/uw-small.folded $OUT/uw-small.err ch-burn burn_leaf 3 $AB $C \
		> /dev/null; then
	pass unwind_small_copy
else
	fail unwind_small_copy "$(grep -h 'unwound by CFI' $OUT/uw-small.err)"
fi

# 6. bad input: one line, exit 2, nothing on stdout
bad() {
	local name=$1 rc
	shift
	ft $name 2 "$@" > $OUT/uw-bad.out 2> $OUT/uw-bad.err
	rc=$?
	if [ $rc = 2 ] && [ "$(wc -l < $OUT/uw-bad.err)" = 1 ] && [ ! -s $OUT/uw-bad.out ]; then
		pass $name
	else
		fail $name "exit $rc: $(head -2 $OUT/uw-bad.err | tr '\n' ' ')"
	fi
}
bad unwind_bad_size_zero profile --call-graph dwarf,0 -d 1
bad unwind_bad_size_odd profile --call-graph dwarf,12 -d 1
bad unwind_bad_size_over profile --call-graph dwarf,65536 -d 1
bad unwind_bad_size_junk profile --call-graph dwarf,8k -d 1
bad unwind_bad_mode offcpu --call-graph lbr -d 1
bad unwind_bad_with_ftrace offcpu --stacks ftrace --call-graph dwarf -d 1
bad unwind_bad_with_file profile --call-graph fp -f -i $OUT/uw.dat

# 7. a binary whose .eh_frame is damaged (every FDE's CIE pointer past the section, by
# tests/live/eh_damage.py): the run ends well, one line names the file and the entries
# refused (as many as were damaged), and its stacks stop in its code, marked (burn_leaf's
# callers gone, no frame invented: the marker of a walk without CFI is the outermost)
cp $WL/chains $OUT/chains-bad
nfde=$(python3 tests/live/eh_damage.py $WL/chains $OUT/chains-bad)
ft unwind_damaged_eh_frame 0 profile -f -- $OUT/chains-bad > $OUT/uw-dmg.folded \
	2> $OUT/uw-dmg.err
lines=$(grep -c "^ftscope profile: $(realpath $OUT/chains-bad): $nfde entries of its call frame information .* damaged" \
	$OUT/uw-dmg.err)
if [ "$lines" = 1 ] && [ "${nfde:-0}" -gt 0 ] &&
   grep -q '^ch-burn;\[unwind stopped: no CFI\];burn_leaf ' $OUT/uw-dmg.folded &&
   ! grep -q 'main;via_.*burn_leaf' $OUT/uw-dmg.folded; then
	pass "unwind_damaged_eh_frame ($nfde FDEs damaged, one line)"
else
	fail unwind_damaged_eh_frame "$lines lines for $nfde FDEs: $(grep -v '^profile:' \
		$OUT/uw-dmg.err | head -2 | tr '\n' ' ') $(grep -c 'main;via_' $OUT/uw-dmg.folded) whole"
fi

# 8. a stack deeper than the copy ends in a marker: deepblock's sleeps under main -> f1 ..
# f12 -> nap (its design) with 384-byte copies stop inside that chain (measured: after
# f8 .. nap, 6 of its 14 frames); the outermost frame is then the marker, the frames
# before it the chain's leaf side. With the default size the same stacks are whole.
MK='[unwind stopped: stack copy too small]'
DEEP=main,f1,f2,f3,f4,f5,f6,f7,f8,f9,f10,f11,f12,nap
ft unwind_marker_cut 0 offcpu --call-graph dwarf,384 -f -o $OUT/uw-cut.dat -- \
	$WL/deepblock 5 10 > $OUT/uw-cut.folded 2> $OUT/uw-cut.err
check unwind_marker_cut cut $OUT/uw-cut.folded dp-sleeper do_nanosleep "$MK" $DEEP
ft unwind_marker_whole 0 offcpu -f -- $WL/deepblock 5 10 > $OUT/uw-whole.folded \
	2> $OUT/uw-whole.err
check unwind_marker_whole whole $OUT/uw-whole.folded dp-sleeper do_nanosleep $DEEP
# the recording keeps it: -i prints the same stacks, and JSON, --svg and pprof carry the
# marker as the outermost user frame (pprof: a location of no mapping named by it); the
# stacks of the sleeps (nap) only: a page fault of the exec can block too, its stack
# ending in another marker (code in no file: the new image's mappings not yet known)
ft unwind_marker_file 0 offcpu -f -i $OUT/uw-cut.dat > $OUT/uw-cut-i.folded 2> $OUT/uw-cut-i.err
if grep -qF "$MK" $OUT/uw-cut.folded && cmp -s $OUT/uw-cut.folded $OUT/uw-cut-i.folded; then
	pass unwind_marker_file
else
	fail unwind_marker_file "-i: $(diff $OUT/uw-cut.folded $OUT/uw-cut-i.folded | head -2 |
		tr '\n' ' ')$(tail -1 $OUT/uw-cut-i.err)"
fi
ft unwind_marker_printers 0 offcpu -i $OUT/uw-cut.dat --json --svg $OUT/uw-cut.svg \
	> $OUT/uw-cut.json 2> $OUT/uw-cut-j.err
n=$(python3 -c 'import json, sys
s = [x for x in json.load(open(sys.argv[1]))["stacks"] if x["comm"] == "dp-sleeper" and
     "nap" in x["user"]]
print(sum(x["user"][-1] == sys.argv[2] for x in s), len(s))' $OUT/uw-cut.json "$MK" 2>&1)
if [ "${n% *}" = "${n#* }" ] && [ "${n% *}" -gt 0 ] 2>/dev/null && grep -qF "$MK" $OUT/uw-cut.svg
then
	pass unwind_marker_printers
else
	fail unwind_marker_printers "JSON: $n stacks end in the marker; svg: $(grep -cF "$MK" \
		$OUT/uw-cut.svg) $(tail -1 $OUT/uw-cut-j.err)"
fi
if command -v go > /dev/null && go tool pprof -h > /dev/null 2>&1; then
	ft unwind_marker_pprof 0 offcpu -i $OUT/uw-cut.dat --pprof $OUT/uw-cut.pb.gz \
		> /dev/null 2> $OUT/uw-cut-p.err
	go tool pprof -symbolize=none -traces -unit=ns $OUT/uw-cut.pb.gz > $OUT/uw-cut.traces 2>&1
	PY=tests/live/pprof_check.py check unwind_marker_pprof traces $OUT/uw-cut.traces \
		$OUT/uw-cut-i.folded 1000
else
	skip unwind_marker_pprof "go tool pprof is not installed (golang-go)"
fi
