#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: the oldest kernel. tests/live/qemu.sh's guest suite and checks on Debian 11's
#              5.10 kernel (FTSCOPE_QEMU_SUITE=bullseye), the checks named qemu510_*: the
#              same known answers; what 5.10 lacks (hist triggers, the mapped ring buffer,
#              function_graph in instances) is checked as such.
# requires: root (apt-get for qemu and the kernel package), network on first use
QEMU_P=qemu510 QEMU_SUITE=bullseye exec bash tests/live/qemu.sh
