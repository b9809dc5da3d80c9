#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: the layers of docs/design.md, from the sources: each directory includes
#              only itself and the layers below it (cmd -> engine -> analyzers, tracer ->
#              output -> events -> lib), and a new analyzer is one file plus one registry line
#              (the Makefile finds analyzers/*.c; registry.c lists X(NAME)).
# requires: nothing (no root, no kernel)
. tests/live/lib.sh
plan 5

# allowed DIR: the directories DIR's files may include from
allowed() {
	case $1 in
	lib)		echo "lib" ;;
	events)		echo "lib events" ;;
	output)		echo "lib events output" ;;
	tracer)		echo "lib events output tracer" ;;
	analyzers)	echo "lib events output analyzers" ;;
	engine)		echo "lib events output tracer analyzers engine" ;;
	cmd)		echo "lib events output tracer analyzers engine cmd" ;;
	esac
}

# violations: "file -> header" for every include outside the file's allowed layers
violations() {
	local d f inc

	for d in lib events output tracer analyzers engine cmd; do
		for f in $d/*.[ch]; do
			[ -e "$f" ] || continue
			for inc in $(sed -n 's/^#include "\([a-z_]*\)\/.*"/\1/p' "$f" | sort -u); do
				grep -qw "$inc" <<< "$(allowed $d)" || echo "$f -> $inc/"
			done
		done
	done
}

name=layers_include_only_below
v=$(violations)
if [ -z "$v" ]; then
	pass "$name ($(ls lib events output tracer analyzers engine cmd | grep -c '\.[ch]$') files)"
else
	fail $name "$(echo "$v" | head -5 | tr '\n' ' ')"
fi

# an analyzer includes nothing of tracer/, engine/ or cmd/ (analyzer.h is its whole interface,
# and names no tracer type); the tracer sees no options (struct ft_trace_desc is what it
# is asked); no layer below tracer/ touches tracefs; no include climbs out of its
# directory with "../"
name=layers_analyzers_see_only_analyzer_h
v=$(grep -l '#include "\(tracer\|engine\|cmd\)/\|tracefs_\|<tracefs\|struct ft_opts\|struct ft_session\|struct ft_probes' \
	analyzers/*.[ch] 2> /dev/null
    grep -l 'struct ft_opts' tracer/*.[ch] 2> /dev/null
    grep -l '#include <tracefs\|#include "\.\./' lib/*.[ch] events/*.[ch] output/*.[ch] 2> /dev/null
    grep -l '#include "\.\./' tracer/*.[ch] engine/*.[ch] cmd/*.[ch] 2> /dev/null)
if [ -z "$v" ]; then
	pass $name
else
	fail $name "$v"
fi

# every analyzers/*.c that defines an analyzer is in the registry (one line, X(NAME)),
# and the Makefile names no analyzer file: it finds them
name=layers_one_registry_line_per_analyzer
missing=
for f in analyzers/*.c; do
	for a in $(sed -n 's/^const struct ft_analyzer ft_\([a-z0-9_]*\) = {/\1/p' "$f"); do
		grep -q "^	X($a)" analyzers/registry.c || missing="$missing $a"
	done
done
listed=$(grep -c '^	X(' analyzers/registry.c)
defined=$(cat analyzers/*.c | grep -c '^const struct ft_analyzer ft_')
if [ -z "$missing" ] && [ "$listed" = "$defined" ] && ! grep -q 'analyzers/[a-z_]*\.c' Makefile; then
	pass "$name ($defined analyzers)"
else
	fail $name "not listed:$missing; $listed listed, $defined defined; Makefile: $(grep -o 'analyzers/[a-z_]*\.c' Makefile | head -3 | tr '\n' ' ')"
fi

# layers_no_call_circles: no two source files call each other, directly or round a
# circle (scripts/circles.py over the built objects' symbols, calls and variables: a
# function shared by two files goes in a header of its own or in one of them)
name=layers_no_call_circles
# the objects of the binary under test: $FTSCOPE's directory (build/asan/ under
# make check SANITIZE=1), which make check built just before
obj=$(dirname "$FTSCOPE")/
[ "$obj" = ./ ] && obj=
if r=$(CIRCLES_OBJ=$obj CIRCLES_CALLS_ONLY=1 python3 scripts/circles.py 2>&1); then
	pass $name
else
	fail $name "$(echo "$r" | head -3 | tr '\n' ' ')"
fi

# layers_no_include_circles: nor with includes counted (a file naming what X.h declares
# uses X.c): types several files share go in a header of their own (hist_int.h,
# offcpu_int.h), not in one of the files' header
name=layers_no_include_circles
if r=$(CIRCLES_OBJ=$obj python3 scripts/circles.py 2>&1); then
	pass $name
else
	fail $name "$(echo "$r" | head -3 | tr '\n' ' ')"
fi
