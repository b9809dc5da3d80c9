# SPDX-License-Identifier: GPL-2.0
# Sourced by the guest scripts (tests/qemu/guest.sh, guest_graph.sh) with their run():
# whole user stacks on the guest's kernel (issue unwind), checked on the host by
# lib.sh's qemu_unwind_checks. offcpu's default for a command (perf samples of every
# switch, user stacks unwound by CFI) on deepblock's 12-frame chain through Debian's libc;
# profile's CFI walk of chains' two callers of one leaf (-O2, no frame pointers in the
# program or in libc).
dmesg | grep -c 'Marking TSC unstable' > $out/tsc_unstable.txt
run offcpu_chain ftscope offcpu -f --delimited -- $WL/deepblock
run profile_dwarf ftscope profile --call-graph dwarf -F 999 -f -- $WL/chains 800
