#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: the documents' claims about the suite: docs/testing.md's counts line
#              (checks by kind) as its table of live checks gives it; the scripts that
#              table names exist; its "Where a new test goes" has a row for every
#              analyzer of the registry, and the files its rows name exist.
# requires: python3
. tests/live/lib.sh
plan 3

name=testing_counts_true
if r=$(python3 tests/live/testing_counts.py --check docs/testing.md 2>&1); then
	pass "$name ($r)"
else
	fail $name "$(tr '\n' '|' <<< "$r")"
fi

# where FILE SECTION files|analyzers: the files the section's table rows name, one a line
# (backquoted; a bare x.sh is in the directory of the path before it in the row, else in
# tests/live), or the analyzers they name ("| analyzer NAME |")
where() {
	python3 - "$@" <<'PY'
import re, sys
path, section, what = sys.argv[1:4]
on = False
for line in open(path):
    if line.startswith('## '):
        on = line.strip() == '## ' + section
        continue
    if not on or not line.startswith('| '):
        continue
    if what == 'analyzers':
        m = re.match(r'\| analyzer (\w+) \|', line)
        if m:
            print(m.group(1))
        continue
    base = 'tests/live'
    for p in re.findall(r'`([^`]+)`', line.split('|')[2]):
        if re.search(r'[A-Z]{3,}|\*|\s', p) or not re.search(r'\.(sh|py|c|h)$|/$', p):
            continue   # a pattern (NAME.sh, test_AREA.c, qemu*.sh) or not a file
        if '/' in p:
            base = p.rsplit('/', 1)[0]
            print(p)
        else:
            print(base + '/' + p)
PY
}

# The live checks' table: every script its rows name (the script column) exists.
name=testing_scripts_exist
scripts=$(python3 - docs/testing.md <<'PY'
import re, sys
on = False
for line in open(sys.argv[1]):
    if line.startswith('## '):
        on = line.startswith('## Live checks')
        continue
    f = [c.strip() for c in line.split('|')]
    if on and len(f) >= 7 and f[4] in ('evidence', 'consistency', 'behaviour'):
        for s in re.findall(r'[\w/.-]+\.sh', f[2]):
            print(s if '/' in s else 'tests/live/' + s)
PY
)
missing=$(for s in $(sort -u <<< "$scripts"); do [ -f "$s" ] || echo "$s"; done)
if [ -z "$scripts" ]; then
	fail $name "no script named in docs/testing.md's table of live checks"
elif [ -n "$missing" ]; then
	fail $name "named but not there: $(echo $missing)"
else
	pass "$name ($(sort -u <<< "$scripts" | wc -l) scripts)"
fi

# Where a new test goes: a row for each analyzer of the registry, every file named there
name=testing_where_analyzers
rows=$(where docs/testing.md "Where a new test goes" analyzers | sort)
have=$(analyzers | sort)
files=$(where docs/testing.md "Where a new test goes" files | sort -u)
missing=$(for f in $files; do [ -e "$f" ] || echo "$f"; done)
if [ -z "$have" ]; then
	fail $name "ftscope list names no analyzer"
elif [ "$rows" != "$have" ]; then
	fail $name "rows for: $(echo $rows); the registry: $(echo $have)"
elif [ -n "$missing" ]; then
	fail $name "named but not there: $(echo $missing)"
else
	pass "$name ($(wc -l <<< "$have") analyzers, $(wc -l <<< "$files") files)"
fi
