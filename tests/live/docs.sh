#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: the documents' claims about the suite: docs/testing.md's counts line
#              (checks by kind) as its table of live checks gives it.
# requires: python3
. tests/live/lib.sh
plan 1

name=testing_counts_true
if r=$(python3 tests/live/testing_counts.py --check docs/testing.md 2>&1); then
	pass "$name ($r)"
else
	fail $name "$(tr '\n' '|' <<< "$r")"
fi
