#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: the runner's rules (tests/runner_lib.sh) on fake test programs: a unit
#              binary that crashes, exits 99 (ASan), prints no plan or fewer results
#              than planned or was not built, and a live script that exits 1 or is killed,
#              declares no plan or reports fewer or more results than planned, must each
#              give a FAIL line counted in the totals; clean ones must not. A live script's
#              ftscope run that ends with another status than stated (tests/live/lib.sh's
#              ft, ft_wait) is a FAIL of that check, the count of results unchanged; a
#              missing ASan build is a FAIL unless FT_NO_ASAN=1, which the summary says.
# requires: nothing (run first by tests/run-all.sh)
. tests/live/lib.sh
plan 23
D=$OUT/runner-selftest
rm -rf $D && mkdir -p $D

# fake KIND NAME BODY: a fake unit binary (D/NAME/test_NAME) or live script (D/NAME.sh)
fake() {
	local f
	if [ "$1" = unit ]; then
		mkdir -p $D/$2
		touch $D/$2/test_$2.c
		f=$D/$2/test_$2
	else
		f=$D/$2.sh
	fi
	printf '#!/bin/bash\n%s\n' "$3" > $f
	chmod +x $f
}

# check KIND NAME WANT COUNTS: run the runner's units/lives over the fake in a fresh
# tally (its own OUT), or (KIND asan) its ASan pass over the build directory D/NAME and
# then its summary line; its output must hold a line matching WANT ("-": no runner FAIL
# line) and end with the counts "passed failed skipped"
check() {
	local out got name=runner_selftest_$1_$2
	out=$(OUT=$D/out; mkdir -p $OUT; . tests/runner_lib.sh; passed=0 failed=0 skipped=0 subset=''
	      case $1 in
	      unit)	units $D/$2 "" $D/$2 ;;
	      live)	lives "" $D/$2.sh ;;
	      asan)	asan_pass $D/$2 $D/good.sh; summary ;;
	      esac
	      echo "= $passed $failed $skipped")
	got=${out##*= }
	if [ "$3" = - ]; then
		if echo "$out" | grep -q "^FAIL .*$2[.a-z]*: "; then
			fail $name "a runner FAIL for a clean program: $(echo "$out" | grep -m1 '^FAIL')"
			return
		fi
	elif ! echo "$out" | grep -Eq "$3"; then
		fail $name "no line /$3/ in: $(echo "$out" | tr '\n' '|')"
		return
	fi
	if [ "$got" != "$4" ]; then
		fail $name "counts $got, want $4: $(echo "$out" | tr '\n' '|')"
	else
		pass $name
	fi
}

fake unit good $'echo 1..2; echo "ok 1 - a"; echo "ok 2 - b"'
check unit good - "2 0 0"
# cmocka exits with the number of failed tests: that "not ok" is the only FAIL
fake unit cmockafail $'echo 1..2; echo "ok 1 - a"; echo "not ok 2 - b"; exit 1'
check unit cmockafail - "1 1 0"
fake unit crash $'echo 1..3; echo "ok 1 - a"; kill -SEGV $$'
check unit crash "^FAIL .*test_crash: killed by SIGSEGV after 1 of 3 results$" "1 1 0"
fake unit asan $'echo 1..3; echo "ok 1 - a"; echo "==1==ERROR: AddressSanitizer: heap-buffer-overflow" >&2; exit 99'
check unit asan "^FAIL .*test_asan: exited 99 after 1 of 3 results$" "1 1 0"
fake unit noplan $'echo "ok 1 - a"'
check unit noplan "^FAIL .*test_noplan: no TAP plan" "1 1 0"
fake unit fewer $'echo 1..3; echo "ok 1 - a"; echo "ok 2 - b"'
check unit fewer "^FAIL .*test_fewer: 2 of 3 results$" "2 1 0"
fake unit skipped $'echo 1..2; echo "ok 1 - a"; echo "ok 2 # SKIP b"'
check unit skipped - "1 0 1"
# a suite whose source is there but whose binary was not built
fake unit unbuilt 'exit 0'
rm $D/unbuilt/test_unbuilt
check unit unbuilt "^FAIL .*test_unbuilt: not built in " "0 1 0"

fake live good $'echo 1..2; echo "PASS a"; echo "SKIP b: why"'
check live good - "1 0 1"
fake live exit1 $'echo 1..1; echo "PASS a"; exit 1'
check live exit1 "^FAIL .*exit1.sh: exited 1$" "1 1 0"
fake live killed $'echo 1..1; echo "PASS a"; kill -KILL $$'
check live killed "^FAIL .*killed.sh: killed by SIGKILL$" "1 1 0"

# A live script declares its number of results (lib.sh's plan N prints "1..N"); fewer
# (an early exit 0), more, or no plan at all is the script's FAIL
fake live fewer $'. tests/live/lib.sh; plan 3; pass a; exit 0; pass b; pass c'
check live fewer "^FAIL .*fewer.sh: reported 1 of 3 results$" "1 1 0"
fake live more $'. tests/live/lib.sh; plan 1; pass a; pass b'
check live more "^FAIL .*more.sh: reported 2 of 1 results$" "2 1 0"
fake live noplan $'echo "PASS a"'
check live noplan "^FAIL .*noplan.sh: no plan " "1 1 0"
fake live exit1_fewer $'echo 1..2; echo "PASS a"; exit 1'
check live exit1_fewer "^FAIL .*exit1_fewer.sh: exited 1, reported 1 of 2 results$" "1 1 0"
# an early exit that says what it drops (skip_rest; need_root does so) keeps the count
fake live skip_rest $'. tests/live/lib.sh; plan 3; pass a; skip_rest "no such tool"; exit 0; pass b; pass c'
check live skip_rest "^SKIP skip_rest_3_of_3: no such tool$" "1 0 2"

# Every ftscope run states its exit status (ft NAME WANT ARGS, ft_wait NAME WANT PID). A
# fake ftscope prints a whole report and exits 3 (a crash after the output, a refused
# feature): the checks that read it fail, each once, and the plan still holds
printf '#!/bin/bash\necho "20 events processed, 0 lost"\nexit 3\n' > $D/ftscope3
chmod +x $D/ftscope3
fake live status $'. tests/live/lib.sh; plan 1; FTSCOPE='$D$'/ftscope3
ft status_report 0 runqlat -d 1 > $OUT/status.out
grep -q "events processed" $OUT/status.out && pass status_report || fail status_report "no report"'
check live status "^FAIL status_report: ftscope runqlat -d 1: exit status 3, want 0$" "0 1 0"
fake live status_bg $'. tests/live/lib.sh; plan 1; FTSCOPE='$D$'/ftscope3
$FTSCOPE runqlat -d 1 > /dev/null & p=$!
ft_wait status_background 0 $p
pass status_background'
check live status_bg "^FAIL status_background: ftscope \(pid [0-9]+\): exit status 3, want 0$" "0 1 0"
# a bad-input check states 1 or 2: 3 fails it; a status it states passes
fake live status_bad $'. tests/live/lib.sh; plan 2; FTSCOPE='$D$'/ftscope3
ft status_usage "1|2" runqlat --bogus > /dev/null; pass status_usage
ft status_refused 3 funclat vfs_read > /dev/null; pass status_refused'
check live status_bad "^FAIL status_usage: ftscope runqlat --bogus: exit status 3, want 1\|2$" "1 1 0"
# $(...) and a redirection do not hide the FAIL line, nor does a second run of the check
fake live status_subst $'. tests/live/lib.sh; plan 1; FTSCOPE='$D$'/ftscope3
n=$(ft status_subst 0 runqlat --json | wc -l)
ft status_subst 0 runqlat -d 2 2>&1 > /dev/null
[ "$n" = 1 ] && pass status_subst || fail status_subst "$n lines"'
check live status_subst "^# status_subst: also ftscope runqlat -d 2: exit status 3, want 0$" "0 1 0"

# The ASan pass: its build missing is a FAIL, unless FT_NO_ASAN=1 says the run is the
# sanitizer-free subset on purpose, which the summary line then says after the counts
FT_NO_ASAN='' check asan unbuilt "^FAIL asan: .*/unbuilt/ftscope is not built, so no ASan pass" "0 1 0"
FT_NO_ASAN='' check asan unbuilt_summary "^0 passed, 1 failed, 0 skipped$" "0 1 0"
FT_NO_ASAN=1 check asan subset "^0 passed, 0 failed, 0 skipped \(sanitizer-free subset: no ASan pass\)$" "0 0 0"
exit 0
