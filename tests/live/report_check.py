# SPDX-License-Identifier: GPL-2.0
"""report's output against separate runs of each analyzer on the same file.

usage: report_check.py FTSCOPE FILE REPORT_OUTPUT
Each "==> SPEC <==" section must equal `FTSCOPE SPEC -i FILE` (which must exit 0) without its footer,
and report's one footer must equal each run's footer. Prints a summary; exit 1 on a
difference.
"""
import subprocess
import sys


def die(msg):
    """the reason on stdout (the test shows it), exit 1"""
    print(msg)
    sys.exit(1)


def split_footer(text):
    """(body, footer): the footer starts at the last blank line."""
    i = text.rstrip('\n').rfind('\n\n')
    return text[:i + 1], text[i:]


def main():
    ftscope, path, out = sys.argv[1:4]
    body, footer = split_footer(open(out).read())
    sections, cur = {}, None
    for line in body.splitlines(True):
        if line.startswith('==> ') and line.rstrip('\n').endswith(' <=='):
            cur = line[4:-5]
            sections[cur] = []
        elif cur is None:
            die('output before the first "==> NAME <==" line: %r' % line)
        else:
            sections[cur].append(line)
    if not sections:
        die('no sections')
    names = list(sections)
    for n, spec in enumerate(names):
        text = ''.join(sections[spec])
        if n < len(names) - 1:
            text = text[:-1]        # the blank line before the next header
        run = subprocess.run([ftscope] + spec.split() + ['-i', path],
                             capture_output=True, text=True)
        if run.returncode != 0:
            die('%s -i alone: exit status %d, want 0: %s'
                % (spec, run.returncode, run.stderr.strip().split('\n')[-1]))
        alone = run.stdout
        abody, afoot = split_footer(alone)
        if abody != text:
            die('%s: the section differs from the run alone (%d vs %d lines)'
                     % (spec, text.count('\n'), abody.count('\n')))
        if afoot != footer:
            die('%s: footer %r, alone %r' % (spec, footer.strip(), afoot.strip()))
    print('%d sections equal to the runs alone, one footer: %s' % (len(names), footer.strip()))


main()
