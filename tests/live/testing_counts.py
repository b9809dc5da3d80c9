#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Counts the checks of docs/testing.md's table of live checks by kind, as its counts line
says they are counted: names split at the commas and semicolons outside braces, `{a,b}` expanded, the
outfiles row's `W` over the values its row lists, `NAME and N more` as N + 1; a name with
`*`, `CASE` or `COMMAND` counts once. Prints the line the document should hold; with
--check, exit status 1 (and both lines) when the document's line says otherwise."""
import re
import sys

KINDS = ('evidence', 'consistency', 'behaviour')


def split_top(text):
    """the parts of text between commas or semicolons outside braces and parentheses"""
    parts, depth, cur = [], 0, ''
    for c in text:
        depth += c in '{(' and 1 or (c in '})' and -1 or 0)
        if c in ',;' and depth == 0:
            parts.append(cur.strip())
            cur = ''
        else:
            cur += c
    return parts + [cur.strip()] if cur.strip() else parts


def count_names(cell):
    """how many checks one row's name cell stands for"""
    w = re.search(r'\(W: ([^)]*)\)', cell)
    ws = len(split_top(w.group(1))) if w else 1
    cell = re.sub(r'\([^)]*\)', '', cell)
    n = 0
    for name in split_top(cell):
        more = re.match(r'(.*) and (\d+) more$', name)
        k = int(more.group(2)) + 1 if more else 1
        for b in re.findall(r'\{([^}]*)\}', name):
            k *= len(b.split(','))
        if '_W_' in name:
            k *= ws
        n += k
    return n


def table(path):
    """[(names, kind)] of the rows of the live checks' table"""
    rows, on = [], False
    for line in open(path):
        if line.startswith('## '):
            on = line.startswith('## Live checks')
            continue
        f = [c.strip() for c in line.split('|')]
        if on and len(f) >= 7 and f[4] in KINDS:
            rows.append((f[1], f[4]))
    return rows


def main():
    """print the counts line of the table in the file named last; --check: compare"""
    path = sys.argv[-1]
    checks = dict.fromkeys(KINDS, 0)
    nrows = dict.fromkeys(KINDS, 0)
    for names, kind in table(path):
        checks[kind] += count_names(names)
        nrows[kind] += 1
    want = ('Of %d checks in the table: %d evidence, %d consistency, %d behaviour '
            '(%d rows: %d, %d and %d).' % (sum(checks.values()), *checks.values(),
                                           sum(nrows.values()), *nrows.values()))
    print(want)
    if '--check' in sys.argv:
        text = ' '.join(open(path).read().split())
        have = re.search(r'Of \d+ checks in the table: .*?\)\.', text)
        if not have or have.group(0) != want:
            print('the document says: ' + (have.group(0) if have else 'no counts line'))
            sys.exit(1)


main()
