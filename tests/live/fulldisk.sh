#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: a full disk: `record -o` and an analyzer's `-o` on a small tmpfs that
#              fills while pages are written, and on one that holds the pages but not
#              the trace.dat written at the end (its metadata; the copy of the pages
#              after it); the files written at the end (--svg, --pprof, --heatmap,
#              --prometheus-file, flamegraph -o, stat -o) on a tmpfs already full. Each: exit
#              status 1, one line on stderr naming the file and ENOSPC, no file left
#              in the tmpfs, tracefs as before (no ftscope instance left), the traced
#              command not left running. About 4 s.
# requires: root, tracefs, a tmpfs mount
. tests/live/lib.sh
plan 15
need_root fulldisk_record_fill || exit 0

D=$OUT/fulldisk
M=$D/mnt
ENOSPC="No space left on device"
LOOPS=20000	# the command's naps of 0 ms: about 2 s untraced
rm -rf $D
mkdir -p $M
trap 'umount $M 2>/dev/null' EXIT

# mount_tmpfs KIB: a new empty tmpfs of KIB KiB on $M
mount_tmpfs() {
	umount $M 2>/dev/null
	mount -t tmpfs -o size=${1}k,mode=755 ftscope-fulldisk $M
}

if ! mount_tmpfs 256 2> $D/mount.err; then
	fail fulldisk_record_fill "cannot mount a tmpfs: $(head -1 $D/mount.err)"
	skip_rest "no tmpfs (fulldisk_record_fill)"
	exit 0
fi

# sleeper_left: the traced command (it wrote its pid to $D/cmd.pid), if it still runs
sleeper_left() {
	local pid
	pid=$(cat $D/cmd.pid 2>/dev/null)
	[ -n "$pid" ] && [ "$(cat /proc/$pid/comm 2>/dev/null)" = sleeper ] && echo $pid
}

# CMD: a sleeper of $LOOPS 0 ms naps as the traced command, its pid in $D/cmd.pid
CMD=(sh -c "echo \$\$ > $D/cmd.pid; exec $WL/sleeper 0 $LOOPS 0")

# judge NAME FILE ERR LEFT [offline]: one result for a run that met a full disk: besides
# the banner (no command) and the notice that the command was ended (SIGTERM), ERR holds
# exactly one line, ending "FILE: ENOSPC"; the tmpfs holds LEFT (names, space-separated);
# tracefs is as state_before found it (not for an offline run); the run took under 20 s
# ($ms, when set); the traced command does not run on
judge() {
	local name=$1 file=$2 err=$3 left=$4 why='' rest have st
	rest=$(grep -v -e '^Tracing\.\.\. Hit Ctrl-C to end\.$' \
		-e "the run ended before '[^']*' (pid [0-9]*): ended it with SIGTERM" $err)
	if [ "$(grep -c . <<< "$rest")" != 1 ]; then
		why="stderr: $(grep -c . <<< "$rest") lines, want 1: $(head -c 300 $err | tr '\n' '|')"
	elif [[ $rest != *"$file: $ENOSPC" ]]; then
		why="stderr: '$rest', want a line ending '$file: $ENOSPC'"
	fi
	have=$(ls -A $M | tr '\n' ' ')
	[ -z "$why" ] && [ "$have" != "$left" ] && why="the tmpfs holds '$have', want '$left'"
	if [ -z "$why" ] && [ "$5" != offline ]; then
		st=$(state_changed)
		[ -n "$st" ] && why="tracefs changed: $st"
	fi
	# the run ends at the full disk, long before -d 60 and before the command's own end
	# (1.5 s untraced): 0.18 to 0.48 s here in 7 runs (0.2 .. 0.3 s in 2 more); 1 s is
	# before any command case could end by itself, so a check only at the end fails
	[ -z "$why" ] && [ -n "$ms" ] && [ $ms -gt 1000 ] && why="the run took $ms ms: not ended at the full disk"
	st=$(sleeper_left)
	if [ -n "$st" ]; then
		[ -z "$why" ] && why="the traced command still runs: pid $st"
		kill $st
	fi
	rm -f $D/cmd.pid
	if [ -n "$why" ]; then
		fail $name "$why"
	else
		pass $name
	fi
}

# fill NAME KIB ARGS...: ftscope ARGS (writing $M/t.dat) on a new tmpfs of KIB KiB, judged,
# with its time in $ms
fill() {
	local name=$1 kib=$2
	shift 2
	mount_tmpfs $kib
	state_before
	t0=$(date +%s%N)
	ft $name 1 "$@" > /dev/null 2> $D/$name.err
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	echo "# $name: $ms ms"
	judge $name $M/t.dat $D/$name.err ""
	ms=
}

# 1-4. The tmpfs fills while pages are written: 256 KiB, a sleeper of 0 ms naps makes
# about 5 records (240 bytes) a nap, so it fills after some 1100 naps of its 20011.
# record splices the pages; an analyzer's -o writes them as it reads them.
fill fulldisk_record_fill 256 record -o $M/t.dat -- "${CMD[@]}"
fill fulldisk_runqlat_fill 256 runqlat -o $M/t.dat -- "${CMD[@]}"
# without a command: the whole system for -d 60 (a sleeper beside it makes the events),
# and offcpu's stacks of a sleeper's pid: each ends at the full disk, long before -d
$WL/sleeper 0 $LOOPS 0 &
bg=$!
fill fulldisk_record_fill_whole 256 record -o $M/t.dat -d 60
kill $bg 2>/dev/null
wait $bg 2>/dev/null
$WL/sleeper 0 $LOOPS 0 &
bg=$!
fill fulldisk_offcpu_fill_pid 256 offcpu -o $M/t.dat -p $bg -d 60
kill $bg 2>/dev/null
wait $bg 2>/dev/null

# 5-6. The pages fit (200 naps: about 48 KiB) and the metadata written at the end does
# not: it holds /proc/kallsyms, and the tmpfs is half its size
half=$(( $(wc -c < /proc/kallsyms) / 2048 ))
fill fulldisk_record_metadata_end $half record -o $M/t.dat -- $WL/sleeper 0 200 0
fill fulldisk_runqlat_metadata_end $half runqlat -o $M/t.dat -- $WL/sleeper 0 200 0

# 7. The pages and the metadata fit, the copy of the pages after it does not. Measured
# on a large tmpfs first: the file's size F and the pages' P (the footer's "KiB of
# pages"); at the end the tmpfs holds the page files (P), then the metadata (F - P),
# then the copy (P): a tmpfs of F + P/2 fails half way through the copy. 2000 naps:
# P was 472 to 476 KiB and F 6000640 to 6037504 bytes (kallsyms varies) in 12 runs; strace showed
# copy_file_range's ENOSPC at F + P/2 and F + 3P/4 (the sleeper not followed)
name=fulldisk_record_copy_end
mount_tmpfs 65536
ft $name 0 record -o $M/t.dat -- $WL/sleeper 0 2000 0 > $D/cal.err 2>&1
F=$(stat -c %s $M/t.dat 2>/dev/null)
P=$(sed -n 's/.*(\([0-9]*\) KiB of pages).*/\1/p' $D/cal.err)
if [ -z "$F" ] || [ -z "$P" ] || [ "$P" -lt 64 ]; then
	fail $name "no calibration: file '$F' bytes, pages '$P' KiB: $(head -1 $D/cal.err)"
else
	echo "# $name: calibration $F bytes, $P KiB of pages: a tmpfs of $(( F / 1024 + P / 2 )) KiB"
	fill $name $(( F / 1024 + P / 2 )) record -o $M/t.dat -- $WL/sleeper 0 2000 0
fi

# 8-13. The files written at the end, on recordings read back, into a tmpfs that a
# filler has left without a free block: the temporary file beside the path goes too
mount_tmpfs 256
ft fulldisk_offcpu_svg 0 profile --offcpu -F 499 -o $D/wall.dat -- $WL/computesleep 100 100 \
	> /dev/null 2> $D/wall.err
ft fulldisk_runqlat_heatmap 0 runqlat -o $D/rq.dat -- $WL/sleeper 0 5 20 > /dev/null 2> $D/rq.err
dd if=/dev/zero of=$M/fill bs=4k 2> /dev/null
writers=(
	"offcpu_svg|offcpu -i $D/wall.dat --svg|o.svg"
	"offcpu_pprof|offcpu -i $D/wall.dat --pprof|o.pb.gz"
	"profile_svg|profile -i $D/wall.dat --svg|p.svg"
	"runqlat_heatmap|runqlat -i $D/rq.dat --heatmap|h.svg"
	"runqlat_prometheus_file|runqlat -i $D/rq.dat --prometheus-file|r.prom"
)
for w in "${writers[@]}"; do
	IFS='|' read -r n args file <<< "$w"
	# shellcheck disable=SC2086
	ft fulldisk_$n 1 $args $M/$file > /dev/null 2> $D/$n.err
	judge fulldisk_$n $M/$file $D/$n.err "fill " offline
	find $M -mindepth 1 ! -name fill -delete	# each case on its own
done
printf 'main;work 10\nmain;wait 5\n' |
	ft fulldisk_flamegraph_out 1 flamegraph -o $M/f.svg 2> $D/flamegraph.err
judge fulldisk_flamegraph_out $M/f.svg $D/flamegraph.err "fill " offline
# 14. stat -o: its report goes through a temporary file too (perf stat -o writes in
# place and leaves a partial file); the counters are perf's, tracefs is not touched
ft fulldisk_stat_out 1 stat -o $M/s.txt -- $WL/sleeper 0 2 1 2> $D/stat.err
judge fulldisk_stat_out $M/s.txt $D/stat.err "fill "
# 15. the same when the command fails: stat's status is the command's (3), but a
# report lost is the error (the line and 1; once the commit failed silently here)
ft fulldisk_stat_out_failing_command 1 stat -o $M/s.txt -- sh -c 'exit 3' 2> $D/stat3.err
judge fulldisk_stat_out_failing_command $M/s.txt $D/stat3.err "fill "
