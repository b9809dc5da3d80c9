#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: every libFuzzer harness (build/fuzz/fuzz_*), under ASan and UBSan:
#              first the saved regression inputs of tests/fuzz/regress/NAME/ (each crash
#              ever found), then FUZZ_TIME seconds of fuzzing from seed corpora built
#              here from this repository's data, ../shared's fixtures (read in place)
#              and, with trace-cmd, its v7 and zstd conversions of our own trace.dat
#              and a zlib one (tests/live/tdat_craft.py zlib); the CFI sections of
#              the system's libc and of our own binaries (mkseed --cfi).
#              A crash leaves its input in tests/out/fuzz/NAME/ (kept in tests/out/fuzz-kept/,
#              with whether it crashes alone) and fails the case.
# requires: clang's libFuzzer (make fuzzers); ../shared is optional
. tests/live/lib.sh
# the harnesses are tests/fuzz/fuzz_NAME.c, each built as build/fuzz/fuzz_NAME
names=()
nreg=0
for s in tests/fuzz/fuzz_*.c; do
	s=${s##*/fuzz_}
	names+=("${s%.c}")
	[ -n "$(ls tests/fuzz/regress/${s%.c} 2>/dev/null)" ] && nreg=$((nreg + 1))
done
# a result for the symbolizer, each harness, and each one's saved regression inputs
plan $((1 + ${#names[@]} + nreg))
FUZZ_TIME=${FUZZ_TIME:-60}
SHARED=${FTSCOPE_SHARED:-../shared}
FX=$SHARED/fixtures/third_party
B=build/fuzz
W=$OUT/fuzz
# malloc_context_size: libtraceevent parses a nested print fmt recursively, and the
# suppressed leak's tep_parse_event frame must be within the recorded stack
asan_own=$ASAN_OPTIONS
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:malloc_context_size=255}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export LSAN_OPTIONS=suppressions=$PWD/tests/fuzz/lsan.supp
if asan_symbolizer; then
	pass fuzz_symbolizer
else
	fail fuzz_symbolizer "no llvm-symbolizer (Debian package llvm: scripts/install-deps.sh --tests): leak suppressions cannot match"
fi

# ASan records each allocation's stack with its fast unwinder, which follows frame
# pointers and stops at the first function built without them: Debian 13's
# libtraceevent (1.8.4) has none (12's 1.7.1 keeps them), so its known leak is recorded
# as realloc and one libtraceevent frame, without the tep_parse_event lsan.supp names,
# and every harness that parses a format reports it. Where the saved input of that leak
# fails so and runs clean with the slow unwinder (DWARF, from the library's
# .eh_frame), the harnesses run with the slow one, which costs every allocation its
# walk (measured on Debian 13 in 15 s: fuzz_page 1929 inputs against 74840, fuzz_tdat
# 1819 against 5247, fuzz_format 1454 against 1992)
leak_input=tests/fuzz/regress/format/print-fmt-deep-nesting
if [ -z "$asan_own" ] && [ -x $B/fuzz_format ] && [ -f $leak_input ] &&
   ! $B/fuzz_format $leak_input > /dev/null 2>&1 &&
   ASAN_OPTIONS=$ASAN_OPTIONS:fast_unwind_on_malloc=0 $B/fuzz_format $leak_input \
	> /dev/null 2>&1; then
	ASAN_OPTIONS=$ASAN_OPTIONS:fast_unwind_on_malloc=0
	echo "# the fast unwinder does not reach tep_parse_event in libtraceevent's known leak: the slow one"
fi

# seeds NAME: fill $W/NAME-seed with the seed corpus of one harness
seeds() {
	local d=$W/$1-seed f e
	rm -rf "$d" && mkdir -p "$d"
	case $1 in
	page)
		cp tests/data/cap-sleeper/cpu*.raw "$d"/
		# byte 0 picks the kernel, byte 1 two CPUs: both pages of our capture
		{ printf '\0\1'; cat tests/data/cap-sleeper/cpu0.raw tests/data/cap-sleeper/cpu1.raw; } \
			> "$d/two-cpus"
		;;
	tdat)
		$B/mkseed tests/data/cap-sleeper "$d/v6.dat" || return 1
		# the same, zeros after the last CPU's data so that its length picks profile
		# (fuzz_tdat: the registry's analyzer size % N, -B none when size / N % 3 == 0):
		# its samples read
		local all=($(analyzers)) i=0 n e
		while [ $i -lt ${#all[@]} ] && [ "${all[i]}" != profile ]; do i=$((i + 1)); done
		[ $i -lt ${#all[@]} ] || return 1
		n=$(stat -c %s "$d/v6.dat")
		e=$((3 * ${#all[@]}))
		{ cat "$d/v6.dat"; head -c $(( (i - n % e + e) % e )) /dev/zero; } > "$d/v6-profile.dat"
		if command -v trace-cmd > /dev/null; then
			trace-cmd convert -i "$d/v6.dat" -o "$d/v7.dat" --file-version 7 \
				--compression none > /dev/null 2>&1
			trace-cmd convert -i "$d/v6.dat" -o "$d/v7z.dat" --file-version 7 \
				--compression zstd > /dev/null 2>&1
			# Debian's trace-cmd has no zlib: our script writes the zlib sections
			python3 tests/live/tdat_craft.py zlib "$d/v7.dat" "$d/v7zl.dat" || return 1
		fi
		# v7 zstd whose BUFFER option lists CPUs 0, 1, 2 and 5 only
		cp tests/data/tdat-v7-zstd-cpus-0125.dat "$d/"
		;;
	format)
		for e in sched/sched_switch sched/sched_waking sched/sched_wakeup \
			 sched/sched_wakeup_new sched/sched_process_fork sched/sched_migrate_task \
			 rseq/rseq_update ftrace/kernel_stack ftrace/user_stack; do
			f=tests/data/k6.18/events/$e/format
			[ -f $f ] && cat $f
			printf '\0'
		done > "$d/k6.18"
		for f in "$FX"/perfetto/formats/*/*.format "$FX"/perfetto/formats/device/*/*.format; do
			[ -f "$f" ] && { printf '\0'; cat "$f"; } > "$d/$(basename "$(dirname "$f")")-$(basename "$f")"
		done
		;;
	options)
		# byte 0 picks the analyzer (its place in the registry: lib.sh's analyzers),
		# then NUL-separated words
		local all=($(analyzers)) i w
		for i in "${!all[@]}"; do
			case ${all[i]} in
			runqlat)	w='-p\0001,2\0-C\0000-1\0-d\0000.5\0--json\0001\0003' ;;
			timehist)	w='-s\0-w\0--time\0001,5\0-i\0x.dat' ;;
			wakeup)		w='--top\0005\0--min-us\00010\0--\0sleep\0001' ;;
			offcpu)		w='-u\0--state\0D\0-m\0001000\0-f\0--svg\0o.svg' ;;
			profile)	w='-F\099\0--offcpu\0--state\0S\0-f\0--pprof\0p.pb.gz' ;;
			funclat)	w='-u\0-F\0--min-us\0005\0libc:malloc\0syscall:read\0--method\0graph' ;;
			hist)		w='-e\0sched:sched_switch\0--key\0prev_pid,prev_comm\0--filter\0prev_pid > 1' ;;
			*)		continue ;;
			esac
			{ printf "\\$(printf %03o $i)"; printf -- "$w"; } > "$d/${all[i]}"
		done
		[ -s "$d/runqlat" ] || return 1
		;;
	cfi)
		# .eh_frame, its header and .debug_frame of the system's libc and ld.so and of
		# binaries built here, read in place (tests/fuzz/mkseed.c --cfi cuts them to
		# their first entries and adds a stack of return addresses into them); and a
		# .debug_frame of our own: chains.c built without unwind tables
		for f in /lib/x86_64-linux-gnu/libc.so.6 /lib64/ld-linux-x86-64.so.2 $B/mkseed \
			 ftscope tests/workloads/chains; do
			[ -f "$f" ] && $B/mkseed --cfi "$f" "$d/$(basename "$f")"
		done
		${CC:-cc} -O2 -g -fno-asynchronous-unwind-tables -pthread -o "$W/cfi-dbg" \
			tests/workloads/chains.c && $B/mkseed --cfi "$W/cfi-dbg" "$d/debug-frame"
		rm -f "$W/cfi-dbg"
		[ -s "$d/libc.so.6" ] || return 1
		;;
	esac
	return 0
}

mkdir -p $W
for name in "${names[@]}"; do
	bin=$B/fuzz_$name
	reg=tests/fuzz/regress/$name
	# a harness whose source is there but which was not built: a FAIL, not a silence
	if [ ! -x "$bin" ]; then
		fail fuzz_$name "not built: no $bin (make fuzzers)"
		[ -n "$(ls $reg 2>/dev/null)" ] && skip fuzz_${name}_regressions "fuzz_$name is not built"
		continue
	fi
	# the saved crashes: each must now run clean (fuzz_tdat: through every analyzer)
	if [ -n "$(ls $reg 2>/dev/null)" ]; then
		if FT_FUZZ_EVERY=1 $bin $reg/* > $W/$name-regress.log 2>&1; then
			pass fuzz_${name}_regressions
		else
			fail fuzz_${name}_regressions "$(grep -m1 -E 'ERROR|runtime error' $W/$name-regress.log)"
		fi
	fi
	if ! seeds $name; then
		fail fuzz_$name "no seed corpus"
		continue
	fi
	rm -rf $W/$name $W/$name-corpus-new && mkdir -p $W/$name $W/$name-corpus-new
	extra=()
	[ $name = page ] && [ -d "$FX/perfetto" ] && extra=("$FX/perfetto")
	# DWARF's CFA opcodes with their operands: without them 3 minutes against the old
	# cfi.c did not reach the factored DW_CFA_offset_extended overflow, with them 2
	[ -f tests/fuzz/$name.dict ] && extra+=("-dict=tests/fuzz/$name.dict")
	$bin -max_total_time=$FUZZ_TIME -timeout=20 -rss_limit_mb=2048 -close_fd_mask=3 \
		-artifact_prefix=$W/$name/ $W/$name-corpus-new "$W/$name-seed" "${extra[@]}" \
		> $W/$name.log 2>&1 < /dev/null
	rc=$?
	runs=$(grep -o 'Done [0-9]* runs' $W/$name.log | awk '{ print $2 }')
	art=$(ls $W/$name/ 2>/dev/null | head -1)
	if [ $rc -eq 0 ] && [ -z "$art" ]; then
		pass "fuzz_$name ($runs inputs in ${FUZZ_TIME}s, no crash)"
	else
		# kept where the next run does not clear it, and run alone once: does it crash so?
		mkdir -p $OUT/fuzz-kept && cp $W/$name/$art $W/$name.log $OUT/fuzz-kept/ 2>/dev/null
		$bin $W/$name/$art > $W/$name-art.log 2>&1 && again="runs clean alone" ||
			again="crashes alone: $(grep -m1 -E 'ERROR|runtime error' $W/$name-art.log)"
		fail fuzz_$name "exit $rc, input $OUT/fuzz-kept/$art ($again): \
$(grep -m1 -E 'ERROR|runtime error' $W/$name.log)"
	fi
	rm -rf $W/$name-corpus-new
done
