#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: symbols a user can read (issue 35): a stripped -O2 program of our own
#              (static noinline functions) named from its debug file, found by build ID
#              under /usr/lib/debug/.build-id (installed for the test, then removed) and
#              by .gnu_debuglink (beside it, in .debug/, by CRC without a build ID), a
#              debug file of another build refused, and each address no symbol covers as BIN+0xADDR inside the
#              function nm names for it; rows merged by what is printed (folded, JSON,
#              offcpu -i -f); the vDSO and a tracepoint's leaf against perf on the
#              same run.
# requires: root, gcc, objcopy, strip, nm; perf for the peer checks (skipped without it)
. tests/live/lib.sh
plan 12
need_root syms_unnamed || exit 0
PY=tests/live/syms_check.py
D=$OUT/syms
rm -rf $D
mkdir -p $D
for t in gcc objcopy strip nm; do
	command -v $t > /dev/null || { skip syms_unnamed "no $t"; skip_rest "no $t"; exit 0; }
done

# The program: -O2 (frame pointers kept, so that the callers of the static functions are
# on the stack too), a full copy for nm, its debug part, a stripped copy to run.
# build NAME FLAGS...: $D/NAME.full, $D/NAME.debug, $D/NAME (stripped, a debuglink to NAME.debug)
build() {
	local name=$1
	shift
	gcc -O2 -fno-omit-frame-pointer "$@" -o $D/$name.full $WL/symprog.c -I$WL \
		-lpthread &&
		objcopy --only-keep-debug $D/$name.full $D/$name.debug &&
		strip --strip-all -o $D/$name.stripped $D/$name.full &&
		objcopy --add-gnu-debuglink=$D/$name.debug $D/$name.stripped $D/$name &&
		rm $D/$name.stripped && chmod +x $D/$name
}
if ! build symprog || ! build symprog_np -no-pie || ! build other -DSPIN_MUL=3935559000370003845UL ||
	! build nobid -Wl,--build-id=none || ! build nobid2 -Wl,--build-id=none -DSPIN_MUL=3; then
	fail syms_unnamed "cannot build tests/workloads/symprog.c"
	skip_rest "no workload"
	exit 0
fi
nm --print-size $D/symprog.full > $D/symprog.nm
nm --print-size $D/symprog_np.full > $D/symprog_np.nm
# the debug file ftscope must find beside the binary: moved away until its checks
mkdir -p $D/away $D/.debug
mv $D/symprog.debug $D/symprog_np.debug $D/nobid.debug $D/nobid2.debug $D/away/

# The build-ID path, installed for the test and removed after (directories made too)
BID=$(readelf -n $D/symprog | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p')
BDIR=/usr/lib/debug/.build-id/${BID:0:2}
BFILE=$BDIR/${BID:2}.debug
MADE=""
for d in /usr/lib/debug /usr/lib/debug/.build-id $BDIR; do
	[ -d $d ] || MADE="$d $MADE"
done
uninstall() {
	rm -f $BFILE
	for d in $MADE; do rmdir $d 2>/dev/null; done
}
trap uninstall EXIT
trap "exit 1" INT TERM HUP
if [ -z "$BID" ] || [ -e $BFILE ]; then
	fail syms_unnamed "no build ID in the workload, or $BFILE exists already"
	skip_rest "no build ID to install under"
	exit 0
fi

# prof NAME OUT BIN MODE MS: profile -F 999 -f of BIN; its stderr in OUT.err
prof() {
	ft $1 0 profile -F 999 -f -- $3 $4 $5 > $2 2> $2.err
}

# 1. stripped, no debug file anywhere: no names, each leaf BIN+0xADDR, its ELF address
# (non-PIE: 0x401000 and up, its file offset 0x1000 less) inside burn_a or burn_b by nm
if prof syms_unnamed $D/np.folded $D/symprog_np burn 300; then
	check syms_unnamed unnamed $D/np.folded $D/symprog_np.nm symprog_np
fi

# 2. the debug file by build ID: the static functions named, burn_a's share the
# workload's own CPU split, under outer_a
install -D -m 644 $D/away/symprog.debug $BFILE
if prof syms_build_id $D/bid.folded $D/symprog burn 300; then
	check syms_build_id named $D/bid.folded $D/bid.folded.err symprog
fi
# 3. the same run: each folded stack once, its counts the notes' samples
check syms_merged_folded merged $D/bid.folded $D/bid.folded.err
uninstall

# 4. by .gnu_debuglink, beside the binary; 5. in its .debug/
cp $D/away/symprog.debug $D/symprog.debug
if prof syms_debuglink $D/link.folded $D/symprog burn 300; then
	check syms_debuglink named $D/link.folded $D/link.folded.err symprog
fi
mv $D/symprog.debug $D/.debug/symprog.debug
if prof syms_debuglink_dir $D/linkdir.folded $D/symprog burn 300; then
	check syms_debuglink_dir named $D/linkdir.folded $D/linkdir.folded.err symprog
fi
rm -f $D/.debug/symprog.debug

# 6. a debug file of another build under the debuglink's name: refused (its build ID
# differs), the leaves stay symprog+0xADDR
cp $D/other.debug $D/symprog.debug
if prof syms_debug_mismatch $D/other.folded $D/symprog burn 300; then
	check syms_debug_mismatch unnamed $D/other.folded $D/symprog.nm symprog
fi
rm -f $D/symprog.debug

# 11. a binary without a build ID: its .gnu_debuglink file taken by the link's CRC;
# 12. another build's file under that name refused (its CRC differs)
nm --print-size $D/nobid.full > $D/nobid.nm
cp $D/away/nobid.debug $D/nobid.debug
if prof syms_debuglink_crc $D/crc.folded $D/nobid burn 300; then
	check syms_debuglink_crc named $D/crc.folded $D/crc.folded.err nobid
fi
cp $D/away/nobid2.debug $D/nobid.debug
if prof syms_debuglink_crc_mismatch $D/crc2.folded $D/nobid burn 300; then
	check syms_debuglink_crc_mismatch unnamed $D/crc2.folded $D/nobid.nm nobid
fi
rm -f $D/nobid.debug

# 7. profile --json: each (thread, stack) once, samples adding up to the header's
cp $D/away/symprog.debug $D/symprog.debug
if ft syms_merged_json 0 profile -F 999 --json -- $D/symprog burn 200 > $D/prof.json \
	2> $D/prof.json.err; then
	check syms_merged_json json_merged $D/prof.json
fi

# 8. offcpu -o FILE, then -i FILE -f: each folded stack once
if ft syms_merged_offcpu 0 offcpu -o $D/off.dat -- $D/symprog sleep 200 > /dev/null \
	2> $D/off.err && ft syms_merged_offcpu 0 offcpu -i $D/off.dat -f > $D/off.folded \
	2> $D/off.folded.err; then
	check syms_merged_offcpu offcpu_merged $D/off.folded
fi

# peer RESULT OUT EVENT RATE ARGS...: the workload (ARGS, held at its gate) under perf
# record -g -e EVENT and ftscope profile --json -e EVENT at once (both -p, both RATE:
# -F N or -c N), the gate opened once both record; then perf report's leaf table.
# perf is ready when its file holds more than the header (the mmaps it synthesizes).
peer() {
	local name=$1 out=$2 ev=$3 rate=$4 wl fp pp
	shift 4
	rm -f $D/gate $out.data
	mkfifo $D/gate
	SYMPROG_GATE=$D/gate "$@" 2> $out.wl &
	wl=$!
	perf record -q -e $ev $rate -g -p $wl -o $out.data > /dev/null 2> $out.perf.err &
	pp=$!
	$FTSCOPE profile -e $ev $rate --json -p $wl > $out.json 2> $out.err &
	fp=$!
	wait_for 30 perf_ready $out.data && wait_for 30 grep -q Tracing $out.err
	echo go > $D/gate
	wait $wl
	kill -INT $pp $fp 2>/dev/null
	wait $pp
	ft_wait $name 0 $fp || return 1
	perf report -i $out.data --no-children --sort dso,sym --stdio -q > $out.report 2>/dev/null
}
perf_ready() {
	[ "$(stat -c %s $1 2>/dev/null || echo 0)" -gt 4096 ]
}
if command -v perf > /dev/null; then
	# 9. the vDSO: clock_gettime's time under [vdso] and its function, as perf names it
	if peer syms_vdso $D/vdso cpu-clock '-F 999' $D/symprog vdso 1500; then
		check syms_vdso vdso $D/vdso.json $D/vdso.report symprog
	fi
	# 10. sched:sched_switch: the leaf is the function that hit the tracepoint, perf's
	# first frame below the tracing code on the same samples (perf alone, its probe the
	# tracepoint's only one, begins there: __schedule; beside another probe, ftscope's
	# or any other tool's, the static call goes through __traceiter_sched_switch first)
	if peer syms_tracepoint_leaf $D/tp sched:sched_switch '-c 1' $D/symprog sleep 300; then
		perf script -i $D/tp.data -F ip,sym > $D/tp.script 2>/dev/null
		check syms_tracepoint_leaf tp_leaf $D/tp.json $D/tp.script symprog
	fi
else
	skip syms_vdso "no perf"
	skip syms_tracepoint_leaf "no perf"
fi
