# SPDX-License-Identifier: GPL-2.0
# runner_lib.sh - how tests/run-all.sh runs a test program and tallies it (sourced by it
# and by tests/runner_selftest.sh). The caller sets passed, failed and skipped to 0 (and
# subset to '', which summary prints after them).
#
# A result is a line "ok N ..."/"not ok N ..." (TAP, from the cmocka unit suites) or
# "PASS name"/"FAIL name: why"/"SKIP name: why" (live scripts). Besides its own results,
# a program gets a FAIL line of its own when:
#   - a unit binary prints no TAP plan "1..N", or fewer than N results (it died), or
#     exits with a status other than 0 or its number of "not ok" (cmocka's status);
#   - a live script exits with any status but 0 (or is killed by a signal), declares no
#     plan (the line "1..N" that tests/live/lib.sh's plan N prints), or reports another
#     number of results than it declared: "reported 2 of 28 results".
# And the ASan pass has a FAIL line of its own when its build is missing, unless the run
# is the sanitizer-free subset on purpose (FT_NO_ASAN=1), which the summary then says.

RUNNER_RC=${OUT:-tests/out}/.runner-rc

# count - tally result lines read from stdin, echoing them; sets plan, results, nfail
count() {
	local line
	plan='' results=0 nfail=0
	while IFS= read -r line; do
		case "$line" in
		1..[0-9]*)
			plan=${line#1..} ;;
		*"ok "*"# SKIP"*|*"ok "*"# skip"*|SKIP\ *)
			skipped=$((skipped + 1)); results=$((results + 1)); echo "$line" ;;
		"ok "*|PASS\ *)
			passed=$((passed + 1)); results=$((results + 1)); echo "$line" ;;
		"not ok "*|FAIL\ *)
			failed=$((failed + 1)); results=$((results + 1)); nfail=$((nfail + 1))
			echo "$line" ;;
		"#"*|"[  ERROR"*|"[   LINE"*)
			echo "$line" ;;
		*"ERROR: AddressSanitizer"*|*"ERROR: LeakSanitizer"*|*"runtime error:"*|*"SUMMARY: "*)
			echo "# $line" ;;
		esac
	done
}

# exit_text RC - "exited N" or "killed by SIGNAME"
exit_text() {
	if [ "$1" -gt 128 ] && [ "$1" -lt 160 ]; then
		echo "killed by SIG$(kill -l $(($1 - 128)) 2>/dev/null || echo $(($1 - 128)))"
	else
		echo "exited $1"
	fi
}

# bad NAME WHY - a FAIL line of the runner's own
bad() {
	echo "FAIL $1: $2"
	failed=$((failed + 1))
}

# units DIR [PREFIX [SRC]]: the cmocka suites built in DIR, one for each SRC/test_*.c
# (tests/unit): a suite that was not built is a FAIL, not a silence
units() {
	local s t rc why
	for s in "${3:-tests/unit}"/test_*.c; do
		t=$1/$(basename "$s" .c)
		if [ ! -x "$t" ]; then
			bad "$2${t##*/}" "not built in $1"
			continue
		fi
		echo "## $t"
		rm -f "$RUNNER_RC"
		count < <({ CMOCKA_MESSAGE_OUTPUT=tap "$t" 2>&1; echo $? > "$RUNNER_RC"; } |
			 sed "s/^\(\(not \)\?ok [0-9]* - \)/\1$2/")
		rc=$(cat "$RUNNER_RC" 2>/dev/null || echo 255)
		why=''
		[ "$rc" -ne 0 ] && [ "$rc" -ne "$nfail" ] && why=$(exit_text "$rc")
		if [ -z "$plan" ]; then
			why="${why:+$why, }no TAP plan (1..N)"
		elif [ "$results" -lt "$plan" ]; then
			why="${why:+$why after }$results of $plan results"
		fi
		[ -n "$why" ] && bad "$2${t##*/}" "$why"
	done
	return 0
}

# lives PREFIX SCRIPT...: live suites, result names prefixed; each must exit 0 and report
# as many results as its plan says
lives() {
	local t rc why prefix=$1
	shift
	for t in "$@"; do
		[ "$t" = tests/live/lib.sh ] && continue
		echo "## $t"
		rm -f "$RUNNER_RC"
		count < <({ bash "$t" 2>&1; echo $? > "$RUNNER_RC"; } |
			 sed -E "s/^(PASS|FAIL|SKIP) /\1 $prefix/")
		rc=$(cat "$RUNNER_RC" 2>/dev/null || echo 255)
		why=''
		[ "$rc" -ne 0 ] && why=$(exit_text "$rc")
		if [ -z "$plan" ]; then
			why="${why:+$why, }no plan (a line \"plan N\" after sourcing tests/live/lib.sh)"
		elif [ "$results" -ne "$plan" ]; then
			why="${why:+$why, }reported $results of $plan results"
		fi
		[ -n "$why" ] && bad "$prefix$t" "$why"
	done
	return 0
}

# asan_pass DIR SCRIPT...: the ASan build's unit suites (DIR/tests/unit) and live SCRIPTs
# with FTSCOPE=DIR/ftscope; a FAIL when DIR/ftscope was not built, unless FT_NO_ASAN=1
asan_pass() {
	local dir=$1
	shift
	if [ "$FT_NO_ASAN" = 1 ]; then
		subset=" (sanitizer-free subset: no ASan pass)"
	elif [ ! -x "$dir/ftscope" ]; then
		bad asan "$dir/ftscope is not built, so no ASan pass (make check builds it; FT_NO_ASAN=1 runs the sanitizer-free subset, and the summary says so)"
	else
		export FTSCOPE=$dir/ftscope
		export ASAN_OPTIONS=detect_leaks=1:exitcode=99
		export UBSAN_OPTIONS=halt_on_error=1:exitcode=99:print_stacktrace=1
		units "$dir/tests/unit" "asan: "
		lives "asan:" "$@"
		unset FTSCOPE ASAN_OPTIONS UBSAN_OPTIONS
	fi
	return 0
}

# summary: the last line, which CI reads ("N passed, N failed, N skipped" at its start)
summary() {
	echo "$passed passed, $failed failed, $skipped skipped$subset"
}
