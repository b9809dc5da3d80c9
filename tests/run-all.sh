#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-all.sh - run every test: cmocka unit suites (TAP), then the live suites, then
# (when built: make check builds them) a short run of every fuzzer and a representative
# part of the suite again with ftscope built with ASan + UBSan (LeakSanitizer on).
# Prints each result and ends with one line "N passed, N failed, N skipped".
# Exit status 1 when anything failed.
#
#   FTSCOPE=path UNIT=dir   the binary and unit-test directory to test (make check SANITIZE=1)
#   FUZZ_TIME=seconds       per fuzzer here (default 15; make fuzz runs them longer)

cd "$(dirname "$0")/.." || exit 1
export OUT=tests/out
mkdir -p $OUT
passed=0 failed=0 skipped=0

# count - tally result lines read from stdin, echoing them
count() {
	local line
	while IFS= read -r line; do
		case "$line" in
		*"ok "*"# SKIP"*|*"ok "*"# skip"*|SKIP\ *)
			skipped=$((skipped + 1)); echo "$line" ;;
		"ok "*|PASS\ *)
			passed=$((passed + 1)); echo "$line" ;;
		"not ok "*|FAIL\ *)
			failed=$((failed + 1)); echo "$line" ;;
		"#"*|"[  ERROR"*|"[   LINE"*)
			echo "$line" ;;
		esac
	done
}

# units DIR [PREFIX]: the cmocka suites built in DIR
units() {
	local t
	for t in "$1"/test_*; do
		[ -x "$t" ] || continue
		echo "## $t"
		count < <(CMOCKA_MESSAGE_OUTPUT=tap "$t" 2>&1 | sed "s/^\(\(not \)\?ok [0-9]* - \)/\1$2/")
	done
}

# lives PREFIX SCRIPT...: live suites, result names prefixed
lives() {
	local t prefix=$1
	shift
	for t in "$@"; do
		[ "$t" = tests/live/lib.sh ] && continue
		echo "## $t"
		count < <(bash "$t" 2>&1 | sed -E "s/^(PASS|FAIL|SKIP) /\1 $prefix/")
	done
}

units "${UNIT:-tests/unit}"
# leaks.sh needs the ASan build: it runs in that pass below (or under make check SANITIZE=1)
live=()
for t in tests/live/*.sh; do
	[ "$t" = tests/live/leaks.sh ] && [ -z "$FTSCOPE" ] && continue
	live+=("$t")
done
lives "" "${live[@]}"

if [ -z "$FTSCOPE" ] && [ -x build/fuzz/mkseed ]; then
	echo "## tests/fuzz/run.sh"
	count < <(FUZZ_TIME=${FUZZ_TIME:-15} bash tests/fuzz/run.sh 2>&1)
fi

# The sanitizer build over what parses input and cleans up (the whole suite: make
# check SANITIZE=1). Any ASan, UBSan or leak report fails the run it happened in.
if [ -z "$FTSCOPE" ] && [ -x build/asan/ftscope ]; then
	export FTSCOPE=build/asan/ftscope
	export ASAN_OPTIONS=detect_leaks=1:exitcode=99
	export UBSAN_OPTIONS=halt_on_error=1:exitcode=99:print_stacktrace=1
	units build/asan/tests/unit "asan: "
	lives "asan:" tests/live/bad_input.sh tests/live/tracedat.sh tests/live/leaks.sh
	unset FTSCOPE
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

echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
