#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# install-deps.sh - install the Debian packages ftscope's build, tests and benchmarks need.
# Idempotent; prints nothing when everything is already present.

set -e

# util-linux: losetup, for the loop device of tests/live/biolatency.sh (essential on
# Debian, named for minimal images)
# llvm: /usr/bin/llvm-symbolizer, which clang only recommends; without it ASan prints
# "invalid path to external symbolizer" and LeakSanitizer's suppressions cannot match
PKGS="build-essential pkg-config libtracefs-dev libtraceevent-dev libelf-dev libzstd-dev zlib1g-dev libcmocka-dev \
trace-cmd linux-perf bpftrace util-linux clang libclang-rt-14-dev llvm time"
# chromium: tests/live/heatmap.sh renders the heat map SVG headless (screenshot, DOM)
PKGS="$PKGS chromium"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps.sh: missing packages:$missing (run as root to install them)" >&2
	exit 1
fi
echo "install-deps.sh: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
