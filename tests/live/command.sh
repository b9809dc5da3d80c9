#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: `-a -- command`: the whole system while the command runs.
#              `-- command` when the run ends first (-d, interval count, SIGINT): the
#              command itself is ended (SIGTERM, SIGKILL 2 s later, as timeout(1) but
#              not its children),
#              said on stderr, and never left running; --keep-command leaves it.
# requires: root
. tests/live/lib.sh
plan 8
need_root command_ended_at_duration || exit 0

# running PID: is PID a process still (not a zombie)? /proc, no procps needed
running() {
	local st
	st=$(awk '{ sub(/.*\) /, ""); print $1 }' /proc/$1/stat 2> /dev/null)
	[ -n "$st" ] && [ "$st" != Z ]
}

# child_of PID COMM: the pid of PID's child named COMM, or nothing
child_of() {
	awk -v p="$1" -v c="($2)" '$2 == c && $4 == p { print $1 }' /proc/[0-9]*/stat 2> /dev/null
}

# has_child PID COMM: has PID a child named COMM yet?
has_child() {
	[ -n "$(child_of "$1" "$2")" ]
}

# ended NAME SIGNALS ARGS...: run ftscope ARGS; it must exit 0 and say on stderr that
# it ended the command (its pid) with SIGNALS, and that pid must be gone
ended() {
	local name=$1 sig=$2 rc pid
	shift 2
	ft $name 0 "$@" > $OUT/cmd.out 2> $OUT/cmd.err
	rc=$?
	pid=$(sed -n 's/.*the run ended before .* (pid \([0-9]*\)): ended it with.*/\1/p' $OUT/cmd.err)
	if [ $rc != 0 ]; then
		fail $name "exit $rc: $(tr '\n' '|' < $OUT/cmd.err)"
	elif [ -z "$pid" ] ||
	     ! grep -q "the run ended before .*: ended it with $sig (--keep-command" $OUT/cmd.err; then
		fail $name "no line saying so: $(tr '\n' '|' < $OUT/cmd.err)"
	elif running $pid; then
		fail $name "pid $pid still runs after ftscope returned"
		kill -KILL $pid
	else
		pass $name
	fi
}

ended command_ended_at_duration SIGTERM runqlat -d 1 -- sleep 4.321
ended command_ended_at_interval_count SIGTERM runqlat 0.5 1 -- sleep 4.322
ended command_ended_by_stat_duration SIGTERM stat -e task-clock -d 0.5 -- sleep 4.323
# a command that ignores SIGTERM is killed after the grace period
ended command_killed_after_grace "SIGTERM, then SIGKILL 2 s later" \
	runqlat -d 0.5 -- bash -c 'trap "" TERM; sleep 6'

# SIGINT to ftscope alone (not to the command, as a terminal's Ctrl-C would be), once
# its command runs
name=command_ended_at_sigint
$FTSCOPE runqlat -- sleep 4.324 > $OUT/cmd.out 2> $OUT/cmd.err &
ft=$!
wait_for 10 has_child $ft sleep
pid=$(child_of $ft sleep)
sleep 0.3
kill -INT $ft
ft_wait $name 0 $ft
rc=$?
if [ -z "$pid" ]; then
	kill $ft 2> /dev/null
	fail $name "ftscope's command never ran: exit $rc: $(tr '\n' '|' < $OUT/cmd.err)"
elif running $pid; then
	fail $name "sleep (pid $pid) still runs after ftscope returned $rc"
	kill -KILL $pid
elif [ $rc != 0 ] || ! grep -q "(pid $pid): ended it with SIGTERM" $OUT/cmd.err; then
	fail $name "exit $rc: $(tr '\n' '|' < $OUT/cmd.err)"
else
	pass $name
fi

# --keep-command: the command runs on, and ftscope says so
name=command_kept
ft $name 0 runqlat -d 0.5 --keep-command -- sleep 4.325 > $OUT/cmd.out 2> $OUT/cmd.err
rc=$?
pid=$(sed -n 's/.*(pid \([0-9]*\)) runs on, untraced (--keep-command).*/\1/p' $OUT/cmd.err)
if [ $rc != 0 ] || [ -z "$pid" ]; then
	fail $name "exit $rc: $(tr '\n' '|' < $OUT/cmd.err)"
elif ! running $pid || [ "$(cat /proc/$pid/comm 2> /dev/null)" != sleep ]; then
	fail $name "the command (pid $pid) was ended"
else
	pass $name
fi
[ -n "$pid" ] && kill $pid 2> /dev/null

# -a -- COMMAND (perf record -a -- CMD): the whole system while the command runs. A
# sleeper that is no child of the command naps 20 x 10 ms once the command has begun
# (it waits for the command's mark: a fixed delay missed the first nap when the start
# was slow), inside the command's 1.5 s: all 20 naps are S rows of the recording with
# -a, none without.
name=command_all_whole_system
r= bad=
for a in -a ""; do
	rm -f $OUT/cmd-all.pid $OUT/cmd-all.go
	sh -c "i=0; while [ ! -e $OUT/cmd-all.go ] && [ \$i -lt 1000 ]; do
			sleep 0.01; i=\$((i + 1)); done	# 10 s at most: the run may fail
		$WL/sleeper 0 20 10 & echo \$! > $OUT/cmd-all.pid; wait" &
	bg=$!
	f=$OUT/cmd-all${a:+-a}	# each arm's recording kept, for a failure to be read
	ft $name 0 record $a -o $f.dat -- \
		sh -c "touch $OUT/cmd-all.go; exec sleep 1.5" > /dev/null 2> $f.err
	wait $bg
	$FTSCOPE timehist --state -i $f.dat > $f.th 2>&1
	# a row whose run starts or ends at a rebuilt switch ends in '^' after its state
	n=$(awk -v p="[$(cat $OUT/cmd-all.pid)]" '{ st = $NF == "^" ? $(NF - 1) : $NF }
		index($3, p) && st == "S"' $f.th | wc -l)
	want=$([ -n "$a" ] && echo 20 || echo 0)
	r+="${a:-no -a}: $n S rows of the sleeper (want $want); "
	# a failing arm says what its recording holds (its events and losses)
	[ "$n" = "$want" ] || { bad=1; r+="[$(tail -1 $f.th)] "; }
done
if [ -z "$bad" ]; then
	pass "$name ($r)"
else
	fail $name "$r"
fi

# a command that exits first is not touched, and nothing is said
name=command_exits_first
ft $name 0 runqlat -d 5 -- sleep 0.2 > $OUT/cmd.out 2> $OUT/cmd.err
rc=$?
if [ $rc = 0 ] && ! grep -q "the run ended before\|runs on" $OUT/cmd.err; then
	pass $name
else
	fail $name "exit $rc: $(tr '\n' '|' < $OUT/cmd.err)"
fi
exit 0
