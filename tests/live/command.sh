#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: `-- command` when the run ends first (-d, interval count, SIGINT): the
#              command is ended as timeout(1) ends it (SIGTERM, SIGKILL 2 s later),
#              said on stderr, and never left running; --keep-command leaves it.
# requires: root
. tests/live/lib.sh
need_root command_ended_at_duration || exit 0

# ended NAME MARK SIGNALS COMMAND...: run ftscope COMMAND...; the process whose command
# line holds MARK must be gone once ftscope has returned, and stderr must name SIGNALS
ended() {
	local name=$1 mark=$2 sig=$3 rc left
	shift 3
	"$@" > $OUT/cmd.out 2> $OUT/cmd.err
	rc=$?
	left=$(pgrep -f -- "$mark")
	if [ -n "$left" ]; then
		fail $name "'$mark' still runs (pid $left) after ftscope returned $rc"
		pkill -KILL -f -- "$mark"
	elif [ $rc != 0 ]; then
		fail $name "exit $rc: $(tr '\n' '|' < $OUT/cmd.err)"
	elif ! grep -q "the run ended before .*: ended it with $sig (--keep-command" $OUT/cmd.err; then
		fail $name "no line saying so: $(tr '\n' '|' < $OUT/cmd.err)"
	else
		pass $name
	fi
}

ended command_ended_at_duration "sleep 4.321" SIGTERM $FTSCOPE runqlat -d 1 -- sleep 4.321
ended command_ended_at_interval_count "sleep 4.322" SIGTERM \
	$FTSCOPE runqlat 0.5 1 -- sleep 4.322
ended command_ended_by_stat_duration "sleep 4.323" SIGTERM \
	$FTSCOPE stat -e task-clock -d 0.5 -- sleep 4.323
# a command that ignores SIGTERM is killed after the grace period
ended command_killed_after_grace "ftscope-ignores-term" "SIGTERM, then SIGKILL 2 s later" \
	$FTSCOPE runqlat -d 0.5 -- bash -c 'trap "" TERM; exec -a ftscope-ignores-term sleep 6'

# SIGINT to ftscope alone (not to the command, as a terminal's Ctrl-C would be)
name=command_ended_at_sigint
$FTSCOPE runqlat -- sleep 4.324 > $OUT/cmd.out 2> $OUT/cmd.err &
ft=$!
wait_for 5 pgrep -f "sleep 4.324" > /dev/null
sleep 0.5
kill -INT $ft
wait $ft
rc=$?
if pgrep -f "sleep 4.324" > /dev/null; then
	fail $name "sleep still runs after ftscope returned $rc"
	pkill -KILL -f "sleep 4.324"
elif [ $rc != 0 ] || ! grep -q "ended it with SIGTERM" $OUT/cmd.err; then
	fail $name "exit $rc: $(tr '\n' '|' < $OUT/cmd.err)"
else
	pass $name
fi

# --keep-command: the command runs on, and ftscope says so
name=command_kept
$FTSCOPE runqlat -d 0.5 --keep-command -- sleep 4.325 > $OUT/cmd.out 2> $OUT/cmd.err
rc=$?
left=$(pgrep -f "sleep 4.325")
if [ -z "$left" ]; then
	fail $name "the command was ended: $(tr '\n' '|' < $OUT/cmd.err)"
elif [ $rc != 0 ] || ! grep -q "(pid $left) runs on, untraced (--keep-command)" $OUT/cmd.err; then
	fail $name "exit $rc: $(tr '\n' '|' < $OUT/cmd.err)"
else
	pass $name
fi
[ -n "$left" ] && kill $left

# a command that exits first is not touched, and nothing is said
name=command_exits_first
$FTSCOPE runqlat -d 5 -- sleep 0.2 > $OUT/cmd.out 2> $OUT/cmd.err
rc=$?
if [ $rc = 0 ] && ! grep -q "the run ended before\|runs on" $OUT/cmd.err; then
	pass $name
else
	fail $name "exit $rc: $(tr '\n' '|' < $OUT/cmd.err)"
fi
exit 0
