#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-all.sh - run every test: cmocka unit suites (TAP), then the live suites.
# Prints each result and ends with one line "N passed, N failed, N skipped".
# Exit status 1 when anything failed.

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

for t in tests/unit/test_*; do
	[ -x "$t" ] || continue
	echo "## $t"
	count < <(CMOCKA_MESSAGE_OUTPUT=tap "$t" 2>&1)
done

for t in tests/live/*.sh; do
	[ "$t" = tests/live/lib.sh ] && continue
	echo "## $t"
	count < <(bash "$t" 2>&1)
done

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
