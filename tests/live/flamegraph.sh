#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: `ftscope flamegraph` on folded stacks with known shares: widths,
#              details text, differential colours (two files, or two-count lines).
# requires: python3 (no root)
. tests/live/lib.sh
plan 4
PY=tests/live/offcpu_check.py

printf 'main;a;b 30\nmain;a;c 10\nmain;d 60\n' > $OUT/fg.folded
printf 'main;a 50\nmain;b 50\n' > $OUT/fg-before.folded
printf 'main;a 80\nmain;b 20\n' > $OUT/fg-after.folded
printf 'main;a 50 80\nmain;b 50 20\n' > $OUT/fg-2col.folded

# widths: "all" spans 1180 px of a 1200 px image; a frame's share of it is its value's
if ft flamegraph_widths 0 flamegraph --countname us $OUT/fg.folded > $OUT/fg.svg &&
   r=$(python3 - $OUT/fg.svg <<'PYEOF'
import sys, xml.dom.minidom
doc = xml.dom.minidom.parse(sys.argv[1])
w, t = {}, {}
for g in doc.getElementsByTagName('g'):
    r = g.getElementsByTagName('rect')
    if r:
        w[g.getAttribute('data-n')] = float(r[0].getAttribute('width'))
        t[g.getAttribute('data-n')] = g.getElementsByTagName('title')[0].firstChild.data
want = {'all': 1180, 'main': 1180, 'a': 472, 'b': 354, 'c': 118, 'd': 708}
bad = [k for k in want if abs(w.get(k, -1) - want[k]) > 0.05]
print(w)
if bad or t['a'] != 'a (40 us, 40.00%)':
    sys.exit(f'widths {bad} wrong, or details {t["a"]!r}')
PYEOF
); then
	pass flamegraph_widths
else
	fail flamegraph_widths "$(echo "$r" | tail -1)"
fi

for mode in files columns; do
	if [ $mode = files ]; then
		ft flamegraph_diff_$mode 0 flamegraph --diff $OUT/fg-before.folded $OUT/fg-after.folded \
			> $OUT/fg-diff.svg
	else
		ft flamegraph_diff_$mode 0 flamegraph $OUT/fg-2col.folded > $OUT/fg-diff.svg
	fi
	if r=$(python3 $PY diff $OUT/fg-diff.svg a b); then
		pass flamegraph_diff_$mode
	else
		fail flamegraph_diff_$mode "$(echo "$r" | tail -1)"
	fi
done

# standard input, an output file, and a title
if ft flamegraph_stdin_title 0 flamegraph --title 'T & <t>' -o $OUT/fg-stdin.svg < $OUT/fg.folded &&
   python3 $PY svg $OUT/fg-stdin.svg a b c d >/dev/null &&
   grep -q 'T &amp; &lt;t&gt;' $OUT/fg-stdin.svg; then
	pass flamegraph_stdin_title
else
	fail flamegraph_stdin_title "no valid SVG with the escaped title from standard input"
fi
