#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: the runner's rules (tests/runner_lib.sh) on fake test programs: a unit
#              binary that crashes, exits 99 (ASan), prints no plan or fewer results
#              than planned or was not built, and a live script that exits 1 or is killed, must each
#              give a FAIL line counted in the totals; clean ones must not.
# requires: nothing (run first by tests/run-all.sh)
. tests/live/lib.sh
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
# tally (its own OUT); its output must hold a line matching WANT ("-": no runner FAIL
# line) and end with the counts "passed failed skipped"
check() {
	local out got name=runner_selftest_$1_$2
	out=$(OUT=$D/out; mkdir -p $OUT; . tests/runner_lib.sh; passed=0 failed=0 skipped=0
	      if [ $1 = unit ]; then units $D/$2 "" $D/$2; else lives "" $D/$2.sh; fi
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

fake live good $'echo "PASS a"; echo "SKIP b: why"'
check live good - "1 0 1"
fake live exit1 $'echo "PASS a"; exit 1'
check live exit1 "^FAIL .*exit1.sh: exited 1$" "1 1 0"
fake live killed $'echo "PASS a"; kill -KILL $$'
check live killed "^FAIL .*killed.sh: killed by SIGKILL$" "1 1 0"
exit 0
