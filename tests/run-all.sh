#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-all.sh - run every test: cmocka unit suites (TAP), then the live suites, then
# (when built: make check builds them) a short run of every fuzzer, and a representative
# part of the suite again with ftscope built with ASan + UBSan (LeakSanitizer on; make
# check builds it too, and without it that pass is a FAIL unless FT_NO_ASAN=1).
# Prints each result and ends with one line "N passed, N failed, N skipped" (followed by
# " (sanitizer-free subset: no ASan pass)" under FT_NO_ASAN=1).
# Exit status 1 when anything failed. A test program that dies, exits non-zero, or prints
# no plan or another number of results than planned is a FAIL too, and so is a missing
# ASan build (tests/runner_lib.sh; tests/runner_selftest.sh checks those rules first).
#
#   FTSCOPE=path UNIT=dir   the binary and unit-test directory to test (make check SANITIZE=1)
#   FUZZ_TIME=seconds       per fuzzer here (default 15; make fuzz runs them longer)
#   FT_NO_ASAN=1            the sanitizer-free subset: no ASan pass, said in the summary

cd "$(dirname "$0")/.." || exit 1
export OUT=tests/out
mkdir -p $OUT
passed=0 failed=0 skipped=0 subset=''

. tests/runner_lib.sh

# ASan needs llvm-symbolizer for function names, and LeakSanitizer's suppressions need them
if [ -n "$FTSCOPE" ] || [ -x build/fuzz/mkseed ] || [ -x build/asan/ftscope ]; then
	sym=$(command -v llvm-symbolizer || ls /usr/bin/llvm-symbolizer-* 2>/dev/null | sort -V | tail -1)
	if [ -n "$sym" ]; then
		export ASAN_SYMBOLIZER_PATH=$sym
	else
		why="no llvm-symbolizer (Debian package llvm: scripts/install-deps.sh --tests)"
		bad symbolizer "$why: sanitizer stacks have no names, leak suppressions cannot match"
	fi
fi

# the runner's own rules, on fake test programs (seconds)
lives "" tests/runner_selftest.sh
units "${UNIT:-tests/unit}"
# leaks.sh needs the ASan build: it runs in that pass below (or under make check SANITIZE=1)
live=()
for t in tests/live/*.sh; do
	[ "$t" = tests/live/leaks.sh ] && [ -z "$FTSCOPE" ] && continue
	live+=("$t")
done
lives "" "${live[@]}"

if [ -z "$FTSCOPE" ] && [ -x build/fuzz/mkseed ]; then
	export FUZZ_TIME=${FUZZ_TIME:-15}
	lives "" tests/fuzz/run.sh
fi

# The sanitizer build over what parses input and cleans up (the whole suite: make
# check SANITIZE=1). Any ASan, UBSan or leak report fails the run it happened in.
if [ -z "$FTSCOPE" ]; then
	asan_pass build/asan tests/live/bad_input.sh tests/live/tracedat.sh tests/live/leaks.sh \
		tests/live/flamegraph_input.sh
fi

# What a run must never leave behind.
if [ -d /sys/kernel/tracing/instances ]; then
	left=$(ls /sys/kernel/tracing/instances | grep '^ftscope-')
	if [ -n "$left" ]; then
		echo "FAIL no_leftovers: instances left: $left"
		failed=$((failed + 1))
	else
		echo "PASS no_leftovers"
		passed=$((passed + 1))
	fi
fi

summary
[ $failed -eq 0 ]
