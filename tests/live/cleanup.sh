#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: every way a run ends leaves tracefs as it was; concurrent runs and a
#              foreign instance do not disturb each other; reset removes only ours.
# requires: root, tracefs
. tests/live/lib.sh
plan 8
need_root cleanup || exit 0

# A foreign instance with an event enabled must survive everything below.
foreign=foreign-ftscope-test
mkdir -p $T/instances/$foreign
echo 1 > $T/instances/$foreign/events/sched/sched_switch/enable
before=$(snapshot)

# A run ended by each signal: exit 0, a report, and nothing left.
for sig in INT TERM HUP; do
	name=signal_$sig
	$FTSCOPE runqlat > $OUT/sig.txt 2>&1 &
	pid=$!
	if ! wait_for 10 our_instance $pid; then
		kill -KILL $pid 2>/dev/null
		ft_wait $name 137 $pid 2>/dev/null	# SIGKILL's status: 128 + 9
		fail $name "no instance appeared"
		continue
	fi
	kill -$sig $pid
	ft_wait $name 0 $pid
	rc=$?
	after=$(snapshot)
	if [ $rc -ne 0 ]; then
		fail $name "exit status $rc"
	elif ! grep -q 'events processed' $OUT/sig.txt; then
		fail $name "no report after SIG$sig"
	elif [ "$before" != "$after" ]; then
		fail $name "tracefs state changed: $(state_diff "$before" "$after")"
	else
		pass $name
	fi
done

# SIGPIPE: the reader of the output goes away (ftscope runqlat 0.1 | head -1).
name=signal_PIPE
ft $name "0|141" runqlat 0.1 2>/dev/null | head -1 > /dev/null
rc=${PIPESTATUS[0]}
after=$(snapshot)
if [ "$rc" -ne 0 ] && [ "$rc" -ne 141 ]; then
	fail $name "exit status $rc"
elif [ "$before" != "$after" ]; then
	fail $name "tracefs state changed: $(state_diff "$before" "$after")"
else
	pass $name
fi

# Two runs at once: both succeed, both report, nothing left.
name=concurrent_runs
$FTSCOPE runqlat -d 1 > $OUT/c1.txt 2>&1 &
a=$!
$FTSCOPE runqlat -d 1 --per-cpu > $OUT/c2.txt 2>&1 &
b=$!
ft_wait $name 0 $a; ra=$?
ft_wait $name 0 $b; rb=$?
after=$(snapshot)
if [ $ra -eq 0 ] && [ $rb -eq 0 ] && grep -q 'events processed' $OUT/c1.txt &&
   grep -q 'cpu = 0' $OUT/c2.txt && [ "$before" = "$after" ]; then
	pass $name
else
	fail $name "exit $ra/$rb, or state changed"
fi

# SIGKILL leaves an instance behind; reset removes it and only it.
name=reset_after_kill
$FTSCOPE runqlat > /dev/null 2>&1 &
pid=$!
wait_for 10 our_instance $pid
kill -KILL $pid
ft_wait $name 137 $pid 2>/dev/null
# a name that looks like ours but whose owner is alive and is an ftscope: kept
$FTSCOPE runqlat > /dev/null 2>&1 &
live=$!
wait_for 10 our_instance $live
leftover=$(ls $T/instances | grep "^ftscope-$pid-")
ft $name 0 reset > $OUT/reset.txt 2>&1
rc=$?
kill -INT $live
ft_wait $name 0 $live
after=$(snapshot)
if [ -z "$leftover" ]; then
	fail $name "SIGKILL left no instance to reset"
elif [ $rc -ne 0 ] || ! grep -q "removed instance $leftover" $OUT/reset.txt; then
	fail $name "reset did not remove $leftover: $(cat $OUT/reset.txt)"
elif grep -q "ftscope-$live-" $OUT/reset.txt; then
	fail $name "reset removed the instance of a running ftscope"
elif [ "$before" != "$after" ]; then
	fail $name "tracefs state changed: $(state_diff "$before" "$after")"
else
	pass $name
fi

# A stale uprobe group of a dead ftscope goes; a foreign uprobe stays.
name=reset_dynamic_events
true & dead=$!
wait $dead
off=$(printf '0x%x' $(( $(stat -c %s /bin/true) / 2 & ~0xf )))
if echo "p:ftscope_${dead}_deadbeef/probe /bin/true:$off" >> $T/uprobe_events 2>/dev/null &&
   echo "p:foreign_ftscope_test/probe /bin/true:$off" >> $T/uprobe_events 2>/dev/null; then
	ft $name 0 reset > $OUT/reset2.txt 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then
		fail $name "reset exit $rc: $(grep -m1 cannot $OUT/reset2.txt)"
	elif grep -q "ftscope_${dead}_deadbeef" $T/uprobe_events; then
		fail $name "stale probe kept"
	elif ! grep -q foreign_ftscope_test $T/uprobe_events; then
		fail $name "foreign probe removed"
	else
		pass $name
	fi
	echo "-:foreign_ftscope_test/probe" >> $T/uprobe_events
	echo "-:ftscope_${dead}_deadbeef/probe" >> $T/uprobe_events 2>/dev/null
else
	skip $name "cannot create uprobes here"
fi

rmdir $T/instances/$foreign

# tracefs not mounted (this VM boots so): ftscope mounts it, or uses the one under
# debugfs when something (perf, bpftrace) has mounted debugfs, as libtracefs does.
name=mounts_tracefs
# on_t: how many mounts /sys/kernel/tracing has (stacked mounts each count)
on_t() { awk -v t=$T '$2 == t' /proc/mounts | wc -l; }
# fs_mounts: "DIR TYPE" of each tracefs and debugfs mount
fs_mounts() { awk '$3 == "tracefs" || $3 == "debugfs" { print $2 " " $3 }' /proc/mounts; }
n_t=$(on_t)
while mountpoint -q $T && umount $T 2>/dev/null; do :; done
if ! mountpoint -q $T; then
	before_mounts=$(fs_mounts)
	ft $name 0 runqlat -d 0.2 > $OUT/mount.txt 2>&1
	rc=$?
	mounts=$(fs_mounts)
	# where tracefs is now, from the mount table alone (a directory probe under debugfs
	# would mount it itself): at /sys/kernel/tracing, or under debugfs as libtracefs
	# finds it there
	found=$(awk '$3 == "tracefs" { print $2 }' /proc/mounts | tr '\n' ' ')
	if [ $rc -eq 0 ] && [ -n "$found" ] && grep -q 'events processed' $OUT/mount.txt; then
		pass $name
	else
		fail $name "exit $rc; tracefs after the run: ${found:-none}; mounts before: ${before_mounts//$'\n'/, }; after: ${mounts//$'\n'/, }; $(grep -c 'events processed' $OUT/mount.txt) footer lines; last line: $(tail -1 $OUT/mount.txt)"
	fi
	# as found: as many mounts on $T as before
	while [ "$(on_t)" -lt "$n_t" ] && mount -t tracefs nodev $T; do :; done
else
	skip $name "tracefs is busy and cannot be unmounted for the test"
fi
