#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: function_graph live. Boots Debian's backports kernel (6.12, whose tracefs
#              instances offer function_graph) under QEMU and runs tests/qemu/guest_graph.sh:
#              funclat --method graph and --method kprobe on the same 100 reads count the
#              same calls of ksys_read and of vfs_read nested in it (one each, the inner
#              calls' time inside the outer's); the graph recording read back with -i
#              equals the live run; funccount's function tracer counts the same, and
#              exactly the calls of a known workload; function_graph on do_nanosleep
#              against the workload's own time of each nap; with a
#              snapshot armed on the top buffer (which then refuses a mapping) list says
#              --mmap works, as a run's own instance maps; tracefs is left as found.
# requires: root, network on first use (the backports kernel package, cached)
. tests/live/lib.sh
plan 11

guest qemu_graph guest_graph.sh FTSCOPE_QEMU_SUITE=bookworm-backports || exit 0

# counts CASE: "[ksys_read, vfs_read]" call counts of a funclat case
counts() {
	json "[f['hist']['count'] for f in j['functions']]" $Q/$1.out 2>&1
}

name=qemu_graph_equals_kprobe
g=$(counts graph)
k=$(counts kprobe)
m=$(json "j['method']" $Q/graph.out 2>&1)
if ok graph && ok kprobe && [ "$m" = function_graph ] && [ "$g" = "$k" ] &&
   [ "$(json "j['functions'][0]['hist']['count'] >= 100" $Q/graph.out)" = True ]; then
	pass "$name (function_graph $g, kprobe $k)"
else
	fail $name "method $m, graph $g, kprobe $k: $(head -1 $Q/graph.err) $(head -1 $Q/kprobe.err)"
fi

# nesting: one vfs_read inside each ksys_read, the inner calls' time within the outer's
name=qemu_graph_nested
r=$(json "(j['functions'][0]['hist']['count'] == j['functions'][1]['hist']['count'],
	j['functions'][1]['hist']['sum_ns'] < j['functions'][0]['hist']['sum_ns'],
	j['unpaired'])" $Q/graph.out 2>&1)
if ok graph && [ "$r" = "(True, True, 0)" ]; then
	pass $name
else
	fail $name "(equal counts, inner time < outer time, unpaired) = $r"
fi

file_equals_live qemu_graph_file_equals_live graph_rec graph_file 100

name=qemu_graph_funccount
fc=$(json "sorted((f['name'], f['count']) for f in j['functions'])" $Q/funccount.out 2>&1)
want=$(json "sorted((f['name'], f['hist']['count']) for f in j['functions'])" $Q/graph.out 2>&1)
if ok funccount && [ "$fc" = "$want" ]; then
	pass "$name ($fc)"
else
	fail $name "funccount $fc, function_graph $want: $(head -1 $Q/funccount.err)"
fi

# as qemu_funccount_known_calls on 6.1 (tests/live/qemu_check.py)
known_calls qemu_graph_funccount_known_calls

# function_graph on do_nanosleep against napclock's own time of each of its 20 naps, as
# qemu_funclat_kprobe_vs_workload_clock on 6.1 (the same bounds)
name=qemu_graph_vs_workload_clock
if ok graph_naps &&
   r=$(python3 tests/live/qemu_check.py naps $Q/graph_naps.out $Q/naps.txt do_nanosleep 2>&1) &&
   [ "$(json "j['method']" $Q/graph_naps.out)" = function_graph ]; then
	pass "$name ($r)"
else
	fail $name "exit $(cat $Q/graph_naps.rc), method $(json "j['method']" $Q/graph_naps.out 2>&1): \
$(tail -1 <<< "$r") $(head -1 $Q/graph_naps.err)"
fi

# The snapshot trigger on the top buffer makes the kernel refuse to map that buffer
# (mapmeta asks the kernel directly: refused while armed, mapped once the trigger is
# gone), not a run's own instance: list must say yes, as the --mmap run beside it maps
# (list said "no (Device or resource busy)" when it tried the top buffer).
name=qemu_list_mmap_snapshot
if ! grep -q '^snapshot' $Q/trigger_armed.out || grep -q '^snapshot' $Q/trigger_after.out ||
   ok top_armed || ! grep -q 'busy' $Q/top_armed.out || ! ok top_after; then
	fail $name "no refusal to test: trigger $(head -1 $Q/trigger_armed.out), top buffer armed: \
$(cat $Q/top_armed.out $Q/top_armed.err), after: $(cat $Q/top_after.out $Q/top_after.err)"
elif ok list_snapshot && ok mmap_snapshot &&
   grep -Eq '^  ring buffer mmap \(--mmap\) +yes$' $Q/list_snapshot.out &&
   grep -q 'read by mmap of the ring buffer (--mmap)$' $Q/mmap_snapshot.err; then
	pass "$name (top buffer armed: $(cat $Q/top_armed.out))"
else
	fail $name "list: $(grep 'mmap' $Q/list_snapshot.out); \
run: $(grep -m1 'read by' $Q/mmap_snapshot.err) $(head -1 $Q/mmap_snapshot.err)"
fi

qemu_unwind_checks qemu_graph

name=qemu_graph_state_restored
if [ -s $Q/before.state ] && same_state $Q/before.state $Q/after.state > $Q/state.diff; then
	pass $name
else
	fail $name "$(grep '^[<>]' $Q/state.diff | head -3 | tr '\n' ' ')"
fi
