#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# install-deps.sh - install the Debian packages ftscope's build, tests and benchmarks need.
# Idempotent; prints nothing when everything is already present.

set -e

# util-linux: losetup, for the loop device of tests/live/biolatency.sh (essential on
# Debian, named for minimal images)
# curl: tests/live/prometheus.sh asks ftscope's /metrics with each Accept
# llvm: /usr/bin/llvm-symbolizer, which clang only recommends; without it ASan prints
# "invalid path to external symbolizer" and LeakSanitizer's suppressions cannot match
PKGS="build-essential pkg-config libtracefs-dev libtraceevent-dev libelf-dev libzstd-dev zlib1g-dev libcmocka-dev \
trace-cmd linux-perf bpftrace util-linux clang libclang-rt-14-dev llvm time curl"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
# Debian's prometheus (tests/live/prometheus.sh scrapes ftscope with it): unpacked, not
# installed, so no system service starts; the test runs $PROM_DIR/usr/bin/prometheus
PROM_DIR=/var/cache/ftscope-deps/prometheus
need_prom=""
[ -x "$PROM_DIR/usr/bin/prometheus" ] && [ -x "$PROM_DIR/usr/bin/promtool" ] || need_prom=1
[ -z "$missing" ] && [ -z "$need_prom" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps.sh: missing packages:$missing${need_prom:+ prometheus (unpacked)}" \
		"(run as root to install them)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
if [ -n "$missing" ]; then
	echo "install-deps.sh: installing$missing" >&2
	apt-get update -qq >/dev/null
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
if [ -n "$need_prom" ]; then
	echo "install-deps.sh: unpacking prometheus into $PROM_DIR" >&2
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	chmod 755 "$tmp"	# apt's _apt user downloads into it
	( cd "$tmp" && apt-get download -qq prometheus >/dev/null 2>&1 ) || {
		apt-get update -qq >/dev/null
		( cd "$tmp" && apt-get download -qq prometheus >/dev/null )
	}
	rm -rf "$PROM_DIR.new"
	mkdir -p "$PROM_DIR.new"
	dpkg-deb -x "$tmp"/prometheus_*.deb "$PROM_DIR.new"
	rm -rf "$PROM_DIR"
	mv "$PROM_DIR.new" "$PROM_DIR"
fi
