#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: user frames across mapping changes (--call-graph dwarf): a library
#              dlclosed and another dlopened where it was (tests/workloads/dlswap), a
#              binary renamed over while it runs (tests/workloads/swapself), a binary
#              linked by lld (code at another base than its first segment) profiled
#              with -p (its mappings read from /proc), a binary renamed over while a
#              profile -p of it runs (its mappings read from /proc, with their files'
#              device and inode): each chain's samples against the workload's own CPU
#              clock, its naps against its own off-CPU clocks, and no frame named from
#              the wrong file.
# requires: root, gcc; lld for the lld check (skipped without it)
. tests/live/lib.sh
plan 14
need_root maps_dlswap_same || exit 0
PY=tests/live/maps_check.py
D=$OUT/maps
mkdir -p $D
command -v gcc > /dev/null || { skip maps_dlswap_same "no gcc"; skip_rest "no gcc"; exit 0; }

# 1. dlswap: A (600 ms of CPU, 10 naps of 30 ms), dlclose, B where A was (300 ms, 10
# naps). The two libraries are one source, built -O2 without frame pointers, of one
# size, each one's chain where the other has a pad function (a_pad, b_pad).
for l in a b; do
	gcc -O2 -g -fomit-frame-pointer -shared -fPIC -I$WL -DDLSWAP_LIB=$l \
		$([ $l = b ] && echo -DDLSWAP_PAD_FIRST) -o $D/lib$l.so $WL/dlswap.c ||
		{ fail maps_dlswap_same "cannot build lib$l.so"; skip_rest "no lib"; exit 0; }
done
ft maps_dlswap_a 0 profile --call-graph dwarf -F 999 -f -o $D/dl.dat -- $WL/dlswap $D/liba.so \
	$D/libb.so 600 > $D/dl.folded 2> $D/dl.err
# the host's steal over the run, allowed above (lib.sh's ft_steal: the CPU times the
# workload prints leave it out, cpu-clock samples keep it; a fresh root read dl-b +7%)
export STEAL_MS=$(ft_steal)
check maps_dlswap_same same $D/dl.err
# each thread's samples under its own library's chain: 999 x its CPU time, +-5%
# (measured: see docs/testing.md's row); none of them named from the other library
check maps_dlswap_a count $D/dl.folded $D/dl.err dl-a 999 5
check maps_dlswap_b count $D/dl.folded $D/dl.err dl-b 999 5
if python3 $PY absent $D/dl.folded dl-b a_outer a_nap a_pad 'liba.so*' > $D/dl.c1 2>&1 &&
	python3 $PY absent $D/dl.folded dl-a b_outer b_nap b_pad 'libb.so*' > $D/dl.c2 2>&1; then
	pass maps_dlswap_not_other
else
	fail maps_dlswap_not_other "$(tail -1 $D/dl.c1) $(tail -1 $D/dl.c2)"
fi
echo "# maps_dlswap_not_other: $(head -1 $D/dl.c1); $(head -1 $D/dl.c2)"
# the recording read back: each thread under its own library's chain as live (+-5% of
# 999 x its CPU time), none named from the other: the file keeps the mappings as they
# changed (FTSAMP3), where it kept the last ones (libb's) and named 598 of dl-a's 601
# samples from libb
ft maps_dlswap_file 0 profile -f -i $D/dl.dat > $D/dl-i.folded 2> $D/dl-i.err
if python3 $PY count $D/dl-i.folded $D/dl.err dl-a 999 5 > $D/dl.f1 2>&1 &&
   python3 $PY count $D/dl-i.folded $D/dl.err dl-b 999 5 > $D/dl.f2 2>&1 &&
   python3 $PY absent $D/dl-i.folded dl-a b_outer b_nap b_pad 'libb.so*' > $D/dl.f3 2>&1 &&
   python3 $PY absent $D/dl-i.folded dl-b a_outer a_nap a_pad 'liba.so*' > $D/dl.f4 2>&1; then
	pass maps_dlswap_file
else
	fail maps_dlswap_file "$(tail -qn1 $D/dl.f[1-4] | tr '\n' ' ')"
fi
echo "# maps_dlswap_file: $(head -qn1 $D/dl.f[1-4] | tr '\n' ' ')"
unset STEAL_MS
# off the CPU: each thread's naps under its library's chain, against its own clocks
ft maps_dlswap_offcpu_a 0 offcpu --call-graph dwarf -f -- $WL/dlswap $D/liba.so $D/libb.so 200 \
	> $D/dl-off.folded 2> $D/dl-off.err
st=$(ft_steal)	# the host's steal over the run, allowed above
for l in a b; do
	STEAL_MS=$st python3 tests/live/offcpu_check.py chain $D/dl-off.folded $D/dl-off.err dl-$l \
		nap_turn,lib_nap,${l}_nap do_nanosleep 300000 > $D/dl-off.$l 2>&1 &&
		pass maps_dlswap_offcpu_$l || fail maps_dlswap_offcpu_$l "$(tail -1 $D/dl-off.$l)"
	echo "# maps_dlswap_offcpu_$l: $(head -1 $D/dl-off.$l)"
done

# 2. swapself: halfway through its 600 ms of CPU, a build whose pad_code lies where
# this one's chain is renamed over its file: every sample still named from the file
# the process maps (held open), none from the new one
cp $WL/swapself $D/swapself
gcc -O2 -g -fomit-frame-pointer -DPAD -I$WL -o $D/swapself.new $WL/swapself.c
ft maps_swap_count 0 profile --call-graph dwarf -F 999 -f -- $D/swapself $D/swapself.new \
	> $D/sw.folded 2> $D/sw.err
if grep -qx "swapself replaced=$(realpath $D/swapself)" $D/sw.err; then
	check maps_swap_count count $D/sw.folded $D/sw.err swapself 999 5
else
	fail maps_swap_count "the workload did not replace its file: $(tail -1 $D/sw.err)"
fi
check maps_swap_not_new absent $D/sw.folded swapself pad_code frame_dummy
cp $WL/swapself $D/swapself
gcc -O2 -g -fomit-frame-pointer -DPAD -I$WL -o $D/swapself.new $WL/swapself.c
ft maps_swap_offcpu_chain 0 offcpu --call-graph dwarf -f -- $D/swapself $D/swapself.new 200 \
	> $D/sw-off.folded 2> $D/sw-off.err
# the host's steal over the run allowed above (offcpu_check.py's against_offwin)
STEAL_MS=$(ft_steal) python3 tests/live/offcpu_check.py chain \
	$D/sw-off.folded $D/sw-off.err swapself \
	main,nap_outer,nap do_nanosleep 300000 > $D/sw-off.c 2>&1 &&
	pass maps_swap_offcpu_chain || fail maps_swap_offcpu_chain "$(tail -1 $D/sw-off.c)"
echo "# maps_swap_offcpu_chain: $(head -1 $D/sw-off.c)"

# 2b. the same with -p: swapself already running (asleep 500 ms first) when profile -p
# reads its mappings from /proc, which say each file's device and inode: the file is
# held open, and the unwinder and the names read it after the rename, not the new build
# (without them every sample was named pad_code: 1200 of 1201)
cp $WL/swapself $D/swapself
gcc -O2 -g -fomit-frame-pointer -DPAD -I$WL -o $D/swapself.new $WL/swapself.c
$D/swapself $D/swapself.new 1200 500 > /dev/null 2> $D/swp.err &
sp=$!
sleep 0.25
ft maps_swap_pid_count 0 profile --call-graph dwarf -F 999 -f -p $sp -d 5 > $D/swp.folded \
	2> $D/swp.ft.err
wait $sp
if grep -qx "swapself replaced=$(realpath $D/swapself)" $D/swp.err; then
	check maps_swap_pid_count count $D/swp.folded $D/swp.err swapself 999 5
else
	fail maps_swap_pid_count "the workload did not replace its file: $(tail -1 $D/swp.err)"
fi
check maps_swap_pid_not_new absent $D/swp.folded swapself pad_code frame_dummy

# 3. lld: tests/workloads/chains linked by lld, its code at another base than its
# first segment (readelf: the R E segment's vaddr - offset differs), already running
# when profile -p reads its mappings from /proc: burn_leaf split 3:1 between its two
# chains as the workload's own clocks say
if command -v ld.lld > /dev/null &&
	gcc -O2 -g -fomit-frame-pointer -fuse-ld=lld -pthread -I$WL -o $D/lldchains \
		$WL/chains.c 2> $D/lld.build; then
	bases=$(readelf -lW $D/lldchains | python3 -c 'import sys
print(len({int(f[2], 16) - int(f[1], 16) for f in map(str.split, sys.stdin) if f[:1] == ["LOAD"]}))')
	if [ "$bases" -gt 1 ]; then
		pass maps_lld_layout
	else
		fail maps_lld_layout "lld laid every segment at one base: the check below proves nothing"
	fi
	$D/lldchains 2500 > /dev/null 2> $D/lld.err &
	lp=$!
	sleep 0.3
	ft maps_lld_split 0 profile --call-graph dwarf -F 999 -f -p $lp -d 1.5 \
		> $D/lld.folded 2> $D/lld.ft.err
	wait $lp
	python3 tests/live/unwind_check.py split $D/lld.folded $D/lld.err ch-burn burn_leaf 3 \
		main,via_a,via_b,burn_leaf main,via_c,burn_leaf > $D/lld.c 2>&1 &&
		pass maps_lld_split || fail maps_lld_split "$(tail -1 $D/lld.c)"
	echo "# maps_lld_split: $(head -2 $D/lld.c | tr '\n' ' ')"
else
	skip maps_lld_layout "no lld (scripts/install-deps.sh)"
	skip maps_lld_split "no lld"
fi
