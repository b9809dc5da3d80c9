#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# install-deps.sh - install the Debian packages ftscope needs (Debian 12 and 13).
#
#   scripts/install-deps.sh           what building and running ftscope needs
#   scripts/install-deps.sh --tests   that, and what make check and make bench run
#                                     (the peers, the sanitizers, the headless browser)
#
# Idempotent; prints nothing when everything is already present. The names are the
# same on both releases (libclang-rt-dev follows the release's clang); what differs is
# where prometheus's promtool lives (below).

set -e

# usage: the one line for a bad argument, exit 2
usage() {
	echo "usage: scripts/install-deps.sh [--tests]" >&2
	exit 2
}

tests=""
case "$#:$1" in
0:) ;;
1:--tests) tests=1 ;;
*) usage ;;
esac

# Building: the tracefs libraries, libelf, the zstd and zlib readers of trace.dat
# sections, and --pprof's encoder, generated at build time by protoc-c from the
# profile.proto that golang-github-google-pprof-dev ships (Makefile: PPROF_PROTO)
PKGS="build-essential pkg-config libtracefs-dev libtraceevent-dev libelf-dev libzstd-dev \
zlib1g-dev protobuf-c-compiler libprotobuf-c-dev golang-github-google-pprof-dev"

if [ -n "$tests" ]; then
	# The tests: cmocka; the peers compared with ftscope (trace-cmd, perf, bpftrace);
	# util-linux: losetup, for the loop device of tests/live/biolatency.sh (essential on
	# Debian, named for minimal images); clang and its runtime for the ASan, UBSan and
	# libFuzzer builds (libclang-rt-dev follows the release's clang: 14 on Debian 12, 19
	# on 13); llvm: llvm-symbolizer, which clang only recommends (without it ASan prints
	# "invalid path to external symbolizer" and LeakSanitizer's suppressions cannot
	# match); golang-go: `go tool pprof`, which tests/live/pprof.sh reads the files with;
	# curl: tests/live/prometheus.sh asks ftscope's /metrics with each Accept; chromium:
	# tests/live/heatmap.sh renders the heat map SVG headless (screenshot, DOM);
	# debhelper, dpkg-dev, lintian, man-db: tests/live/package.sh builds the .deb
	# (dpkg-buildpackage), checks it with lintian and renders its man page with man;
	# lld: tests/live/maps.sh links a workload with it (code at another base than its
	# first segment; lld 14 on Debian 12, 19 on 13); libdw-dev: make bench's
	# unwind_speed times libdw's unwinder beside ftscope's
	PKGS="$PKGS libcmocka-dev trace-cmd linux-perf bpftrace util-linux clang \
libclang-rt-dev llvm time curl golang-go chromium debhelper dpkg-dev lintian man-db lld libdw-dev"
fi

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
# Debian's prometheus (tests/live/prometheus.sh scrapes ftscope with it): unpacked, not
# installed, so no system service starts; the test runs $PROM_DIR/usr/bin/prometheus and
# promtool, which Debian 12 ships in the prometheus package and 13 in its own
PROM_DIR=/var/cache/ftscope-deps/prometheus
need_prom=""
if [ -n "$tests" ] && { [ ! -x "$PROM_DIR/usr/bin/prometheus" ] ||
			 [ ! -x "$PROM_DIR/usr/bin/promtool" ]; }; then
	need_prom=1
fi
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
	# as root into a private directory: apt's _apt user could not write there
	# shellcheck disable=SC2086
	dl() { ( cd "$tmp" && apt-get download -qq -o APT::Sandbox::User=root $prom_pkgs ) \
		>/dev/null 2>&1; }
	# prom_pkgs: the packages that hold prometheus and promtool, as apt's lists offer
	# them (asked again after an update)
	prom_pkgs() {
		prom_pkgs=prometheus
		if apt-cache show promtool >/dev/null 2>&1; then
			prom_pkgs="prometheus promtool"
		fi
	}
	prom_pkgs
	dl || { apt-get update -qq >/dev/null 2>&1; prom_pkgs; dl; } || {
		echo "install-deps.sh: cannot download Debian's $prom_pkgs package (network? apt sources?)" >&2
		exit 1
	}
	rm -rf "$PROM_DIR.new"
	mkdir -p "$PROM_DIR.new"
	for deb in "$tmp"/*.deb; do
		dpkg-deb -x "$deb" "$PROM_DIR.new"
	done
	for t in prometheus promtool; do
		[ -x "$PROM_DIR.new/usr/bin/$t" ] || {
			echo "install-deps.sh: no usr/bin/$t in Debian's $prom_pkgs package" >&2
			exit 1
		}
	done
	rm -rf "$PROM_DIR"
	mv "$PROM_DIR.new" "$PROM_DIR"
fi
