#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: the files a run writes at its end (--svg, --pprof, --heatmap,
#              --prometheus-file; lib/file.c's struct ft_outfile), on recordings read
#              back: a regular file kept byte for byte when the run fails (after the
#              file was opened; a bad option after the path) and replaced when it succeeds, with
#              its mode kept, a new one 0666 less the umask; a symlink's target
#              replaced and the link kept; /dev/null written, never removed; a fifo
#              written in place; /dev/full one error line and exit 1; no temporary
#              file left in the directory after any of these; the open files not
#              inherited by a traced command.
# requires: root (to record)
. tests/live/lib.sh
plan 45		# seven for each of the six writers, and three
need_root outfiles || exit 0
export LC_ALL=C		# ${#magic} in bytes

D=$OUT/of
rm -rf $D
mkdir -p $D/w
# two recordings: a wall-clock profile (offcpu and profile read it) and runqlat's
if ! ft outfiles_record 0 profile --offcpu -F 499 -o $D/wall.dat -- $WL/computesleep 100 100 \
	> /dev/null 2> $D/rec.err ||
   ! ft outfiles_record 0 runqlat -o $D/rq.dat -- $WL/sleeper 0 5 20 > /dev/null 2>> $D/rec.err; then
	fail outfiles_record "$(tail -1 $D/rec.err)"
	skip_rest "no recordings to read (outfiles_record)"
	exit 0
fi
echo garbage > $D/bad.dat

# the six writers: name | analyzer and recording | the option | what a good file
# starts with | a run that fails after the analyzer opened its file (offcpu: its
# init, on samples not of sched_switch; profile: a live run sampling cycles, which
# this VM lacks; runqlat: the heat map is opened before the bad file is read)
writers=(
	"offcpu_svg|offcpu -i $D/wall.dat|--svg|<?xml|offcpu --stacks perf -i $D/wall.dat"
	"offcpu_pprof|offcpu -i $D/wall.dat|--pprof|\x1f\x8b|offcpu --stacks perf -i $D/wall.dat"
	"profile_svg|profile -i $D/wall.dat|--svg|<?xml|profile -e cycles -d 0.2"
	"profile_pprof|profile -i $D/wall.dat|--pprof|\x1f\x8b|profile -e cycles -d 0.2"
	"runqlat_heatmap|runqlat -i $D/rq.dat|--heatmap|<?xml|runqlat -i $D/bad.dat"
	"runqlat_prometheus_file|runqlat -i $D/rq.dat|--prometheus-file||runqlat -i $D/bad.dat"
)
# (--prometheus-file's text: output/prom.c renders nothing yet, so its file is only
# checked to be replaced, and /dev/full is skipped while the text is empty)

# only FILE...: the work directory holds exactly these names (no temporary file)
only() {
	local have want
	have=$(ls -A $D/w | sort | tr '\n' ' ')
	want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	[ "$have" = "$want" ] && return 0
	echo "the directory holds '$have', want '$want'"
	return 1
}

# good FILE MAGIC: FILE starts with MAGIC
good() {
	[ "$(head -c ${#2} "$1")" = "$2" ]
}

# precious FILE: FILE holds what the test put there
precious() {
	cmp -s "$1" <(echo precious)
}

# result NAME WHY: PASS when WHY is empty
result() {
	if [ -z "$2" ]; then pass $1; else fail $1 "$2"; fi
}

for w in "${writers[@]}"; do
	IFS='|' read -r name an opt magic failing <<< "$w"
	magic=$(printf "$magic")
	rm -rf $D/w/* $D/w/.[!.]*
	f=$D/w/out

	# 1. a failed run: the file as it was, byte for byte
	echo precious > $f
	chmod 640 $f
	# shellcheck disable=SC2086
	ft outfiles_${name}_kept_on_failed_run 1 $failing $opt $f > /dev/null 2> $D/err
	rc=$?
	why=
	[ $rc = 1 ] || why="exit $rc, want 1: $(tail -1 $D/err)"
	[ -z "$why" ] && ! precious $f && why="the file changed: $(head -c 40 $f | tr -d '\0')"
	[ -z "$why" ] && why=$(only out)
	result outfiles_${name}_kept_on_failed_run "$why"

	# 2. a bad option after the path: usage error, the file as it was
	# shellcheck disable=SC2086
	ft outfiles_${name}_kept_on_bad_option 2 $an $opt $f --no-such-option > /dev/null 2> $D/err
	rc=$?
	why=
	[ $rc = 2 ] || why="exit $rc, want 2"
	[ -z "$why" ] && ! precious $f && why="the file changed"
	[ -z "$why" ] && why=$(only out)
	result outfiles_${name}_kept_on_bad_option "$why"

	# 3. a run that succeeds replaces it; its mode (640) is kept as fopen keeps it
	# shellcheck disable=SC2086
	ft outfiles_${name}_replaced 0 $an $opt $f > /dev/null 2> $D/err
	rc=$?
	why=
	[ $rc = 0 ] || why="exit $rc: $(tail -1 $D/err)"
	[ -z "$why" ] && precious $f && why="not replaced"
	[ -z "$why" ] && ! good $f "$magic" && why="not replaced: starts $(head -c 8 $f | od -c | head -1)"
	empty=; [ -s $f ] || empty=1
	[ -z "$why" ] && [ "$(stat -c %a $f)" != 640 ] && why="mode $(stat -c %a $f), want 640"
	[ -z "$why" ] && why=$(only out)
	result outfiles_${name}_replaced "$why"

	# 4. a new file: 0666 less the umask (027: 640), not mkstemp's 600
	rm -f $f
	# shellcheck disable=SC2086
	(umask 027; ft outfiles_${name}_new_mode 0 $an $opt $f > /dev/null 2> $D/err)
	why=
	[ -e $f ] || why="not written: $(tail -1 $D/err)"
	[ -z "$why" ] && [ "$(stat -c %a $f)" != 640 ] && why="mode $(stat -c %a $f), want 640"
	[ -z "$why" ] && why=$(only out)
	result outfiles_${name}_new_mode "$why"

	# 5. a symlink: a failed run leaves link and target; a good one replaces the target
	rm -f $f
	echo precious > $D/w/target
	ln -s target $D/w/link
	# shellcheck disable=SC2086
	ft outfiles_${name}_symlink 1 $failing $opt $D/w/link > /dev/null 2> /dev/null
	why=
	precious $D/w/target || why="a failed run changed the target"
	# shellcheck disable=SC2086
	[ -z "$why" ] && ! ft outfiles_${name}_symlink 0 $an $opt $D/w/link > /dev/null 2> $D/err &&
		why="exit non-zero: $(tail -1 $D/err)"
	[ -z "$why" ] && [ "$(readlink $D/w/link)" != target ] && why="the link is no longer a link to target"
	[ -z "$why" ] && precious $D/w/target && why="the target was not replaced"
	[ -z "$why" ] && ! good $D/w/target "$magic" && why="the target was not replaced"
	[ -z "$why" ] && why=$(only link target)
	result outfiles_${name}_symlink "$why"

	# 6. /dev/null: a failed run and a good one; it stays the character device it was
	# shellcheck disable=SC2086
	ft outfiles_${name}_dev_null 1 $failing $opt /dev/null > /dev/null 2> /dev/null
	# shellcheck disable=SC2086
	ft outfiles_${name}_dev_null 0 $an $opt /dev/null > /dev/null 2> $D/err
	rc=$?
	why=
	[ $rc = 0 ] || why="exit $rc: $(tail -1 $D/err)"
	[ -c /dev/null ] || why="/dev/null is no longer a character device"
	result outfiles_${name}_dev_null "$why"

	# 7. /dev/full: one line naming the path and ENOSPC, exit 1
	if [ -n "$empty" ]; then
		skip outfiles_${name}_dev_full "the run writes an empty file: nothing to fail on /dev/full"
		continue
	fi
	# shellcheck disable=SC2086
	ft outfiles_${name}_dev_full 1 $an $opt /dev/full > /dev/null 2> $D/err
	rc=$?
	why=
	[ $rc = 1 ] || why="exit $rc, want 1"
	[ -z "$why" ] && [ "$(wc -l < $D/err)" != 1 ] && why="$(wc -l < $D/err) lines: $(tr '\n' '|' < $D/err)"
	[ -z "$why" ] && ! grep -q "/dev/full: No space left on device" $D/err && why="$(cat $D/err)"
	[ -c /dev/full ] || why="/dev/full is no longer a character device"
	[ -z "$why" ] && why=$(only link target)
	result outfiles_${name}_dev_full "$why"
done

# 8. a fifo is written in place: what a reader gets is the file, and the fifo stays
rm -rf $D/w/*
mkfifo $D/w/fifo
cat $D/w/fifo > $D/fifo.out &
reader=$!
ft outfiles_fifo 0 offcpu -i $D/wall.dat --svg $D/w/fifo > /dev/null 2> $D/err
rc=$?
wait $reader
why=
[ $rc = 0 ] || why="exit $rc: $(tail -1 $D/err)"
[ -z "$why" ] && [ ! -p $D/w/fifo ] && why="the fifo is gone"
[ -z "$why" ] && ! good $D/fifo.out "<?xml" && why="the reader got no SVG"
[ -z "$why" ] && why=$(only fifo)
result outfiles_fifo "$why"

# 9. ftscope flamegraph -o FILE (no analyzer: the same helper): a file replaced
# with its mode kept, /dev/full one line and exit 1 and still a device, /dev/null
rm -rf $D/w/*
printf 'main;a;b 10\nmain;a 5\n' > $D/in.folded
echo precious > $D/w/fg.svg
chmod 640 $D/w/fg.svg
why=
ft outfiles_flamegraph_out 0 flamegraph -o $D/w/fg.svg $D/in.folded 2> $D/err ||
	why="exit non-zero: $(tail -1 $D/err)"
[ -z "$why" ] && ! good $D/w/fg.svg "<?xml" && why="not replaced"
[ -z "$why" ] && [ "$(stat -c %a $D/w/fg.svg)" != 640 ] && why="mode $(stat -c %a $D/w/fg.svg), want 640"
ft outfiles_flamegraph_out 1 flamegraph -o /dev/full $D/in.folded 2> $D/err
rc=$?
[ -z "$why" ] && [ $rc != 1 ] && why="/dev/full: exit $rc, want 1"
[ -z "$why" ] && [ "$(wc -l < $D/err)" != 1 ] && why="/dev/full: $(wc -l < $D/err) lines"
[ -c /dev/full ] || why="/dev/full is no longer a character device"
[ -z "$why" ] && ! ft outfiles_flamegraph_out 0 flamegraph -o /dev/null $D/in.folded 2> $D/err &&
	why="/dev/null: $(cat $D/err)"
[ -c /dev/null ] || why="/dev/null is no longer a character device"
[ -z "$why" ] && why=$(only fg.svg)
result outfiles_flamegraph_out "$why"

# 10. the files are not inherited by the traced command (O_CLOEXEC): its own fds.
# The heat map is opened before the command is forked (without O_CLOEXEC the
# command holds .h.svg.PID-N.tmp: seen); offcpu's files after, kept as a guard.
rm -rf $D/w/*
ft outfiles_not_inherited 0 offcpu --svg $D/w/o.svg --pprof $D/w/o.pb.gz -- ls -l /proc/self/fd \
	> $D/fds 2> $D/err
rc=$?
ft outfiles_not_inherited 0 runqlat --heatmap $D/w/h.svg -- ls -l /proc/self/fd >> $D/fds 2>> $D/err
rc2=$?
why=
[ $rc = 0 ] && [ $rc2 = 0 ] || why="exit non-zero: $(tail -1 $D/err)"
[ -z "$why" ] && grep -q -- "-> .*$D/w" $D/fds && why="the command holds $(grep -o -- "-> .*$D/w.*" $D/fds | head -1)"
[ -z "$why" ] && ! grep -q -- "-> /proc/.*/fd" $D/fds && why="no fd listing from the command"
result outfiles_not_inherited "$why"
rm -rf $D
