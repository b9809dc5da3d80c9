#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fresh-check.sh - run the README's two commands in a pristine Debian root.
#
#   scripts/fresh-check.sh [REV]
#   FTSCOPE_FRESH_SUITE=trixie scripts/fresh-check.sh [REV]     (Debian 13)
#
# Builds (once, then cached) a minimal Debian 12 (or 13) root with debootstrap (--variant=minbase,
# plus git and ca-certificates), unpacks a new copy of it, clones this repository at REV
# (default HEAD: what is committed, not the work tree) into it, with ../shared beside it
# bind-mounted read-only when it exists, mounts proc, sys, tracefs and dev, and runs as
# root inside:
#
#   scripts/install-deps.sh && make && ./ftscope runqlat -d 5
#   scripts/install-deps.sh --tests && make check
#
# then builds the package there (dpkg-buildpackage in a copy of REV's files), and in a
# second fresh copy of the base root installs it with apt, runs `ftscope runqlat -d 1` and
# reads `man ftscope` (after installing man-db, which minbase lacks, as a user would).
# Prints each command's output, then its exit status, how long it took and what apt
# downloaded for it, and exits with the status of the first that failed. The roots are
# removed afterwards (FTSCOPE_FRESH_KEEP=1 keeps them for a look). Needs root.
#
# Environment:
#   FTSCOPE_FRESH_SUITE   the Debian release: bookworm (12, the default) or trixie (13)
#   FTSCOPE_FRESH_CACHE   where the base root is cached (/var/cache/ftscope-fresh)
#   FTSCOPE_FRESH_MIRROR  Debian mirror for debootstrap (default: the first in this
#                         machine's apt sources, else debootstrap's own default)
#   FTSCOPE_FRESH_KEEP    1: leave the roots in place
#   FTSCOPE_FRESH_ONLY    package: the package steps alone (a few minutes); the first root
#                         then gets the build dependencies debian/control declares, with
#                         `apt-get build-dep`, and nothing else

set -o pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${FTSCOPE_FRESH_CACHE:-/var/cache/ftscope-fresh}
SUITE=${FTSCOPE_FRESH_SUITE:-bookworm}
BASE=$CACHE/$SUITE-minbase.tar
REV=${1:-HEAD}
ONLY=${FTSCOPE_FRESH_ONLY:-}
MNTS=()
DIR=""
DIR2=""

# die MSG: one line on stderr, status 2
die() {
	echo "fresh-check.sh: $*" >&2
	exit 2
}

# mirror: the Debian mirror this machine's apt uses, if one can be read
mirror() {
	[ -n "$FTSCOPE_FRESH_MIRROR" ] && { echo "$FTSCOPE_FRESH_MIRROR"; return; }
	{
		sed -n 's/^URIs:[[:space:]]*\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null
		sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^ ]*\)[[:space:]]\+bookworm[[:space:]].*/\2/p' \
			/etc/apt/sources.list 2>/dev/null
	} | grep -v security | head -n 1
}

# base: the cached minimal root, made on first use
base() {
	local tmp

	[ -s "$BASE" ] && return 0
	command -v debootstrap >/dev/null || {
		echo "fresh-check.sh: installing debootstrap" >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
			debootstrap >/dev/null 2>&1 ||
			{ apt-get update -qq >/dev/null 2>&1 &&
			  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
				--no-install-recommends debootstrap >/dev/null 2>&1; } ||
			die "cannot install debootstrap"
	}
	mkdir -p "$CACHE" || die "cannot create $CACHE"
	tmp=$(mktemp -d "$CACHE/base.XXXXXX") || die "cannot create a directory in $CACHE"
	echo "fresh-check.sh: debootstrap --variant=minbase $SUITE (once; cached in $BASE)" >&2
	# shellcheck disable=SC2046
	debootstrap --variant=minbase --include=git,ca-certificates "$SUITE" "$tmp" \
		$(mirror) > "$CACHE/debootstrap.log" 2>&1 || {
		rm -rf "$tmp"
		die "debootstrap failed: see $CACHE/debootstrap.log"
	}
	tar -C "$tmp" -cf "$BASE.new" . && mv "$BASE.new" "$BASE" || die "cannot write $BASE"
	rm -rf "$tmp"
}

# mnt ARGS... TARGET: mount, remembering TARGET for cleanup
mnt() {
	mount "$@" || die "cannot mount ${*: -1}"
	MNTS+=("${*: -1}")
}

# cleanup: unmount in reverse order and remove the roots
cleanup() {
	local i

	for ((i = ${#MNTS[@]} - 1; i >= 0; i--)); do
		umount -l "${MNTS[i]}" 2>/dev/null
	done
	[ "$FTSCOPE_FRESH_KEEP" = 1 ] && return
	[ -n "$DIR" ] && rm -rf --one-file-system "$DIR"
	[ -n "$DIR2" ] && rm -rf --one-file-system "$DIR2"
}

# debs ROOT: bytes of the packages apt has downloaded into ROOT so far
debs() {
	du -cb "$1"/var/cache/apt/archives/*.deb 2>/dev/null | tail -n 1 | cut -f1
}

# new_root: a new copy of the base root under /var/tmp, its path on stdout
new_root() {
	local d

	d=$(mktemp -d /var/tmp/ftscope-fresh.XXXXXX) || die "cannot create a root in /var/tmp"
	tar -C "$d" -xf "$BASE" || { rm -rf "$d"; die "cannot unpack $BASE"; }
	chmod 755 "$d"	# mktemp's 0700 would keep the tests' unprivileged user out of /
	cp /etc/resolv.conf "$d/etc/resolv.conf" 2>/dev/null
	echo "$d"
}

# mounts ROOT: ROOT on itself (a root that is a mount point, as a machine's: unshare -m
# makes / private, which fails on a plain directory), proc, sysfs, tracefs (and
# debugfs), dev and a private devpts and shm
mounts() {
	mnt --bind "$1" "$1"
	mnt -t proc proc "$1/proc"
	mnt -t sysfs sysfs "$1/sys"
	mnt -t tracefs nodev "$1/sys/kernel/tracing"
	[ -d /sys/kernel/debug/tracing ] && mnt -t debugfs nodev "$1/sys/kernel/debug"
	mnt --bind /dev "$1/dev"
	mount --make-rslave "$1/dev"	# the pts and shm below must not reach the host's /dev
	mnt -t devpts -o newinstance devpts "$1/dev/pts"
	mnt -t tmpfs tmpfs "$1/dev/shm"
}

# step ROOT DIR CMD: run CMD as root in ROOT's DIR with an empty environment, print its
# status, time and download; returns its status
step() {
	local t0 d0 rc

	echo "fresh-check.sh: # $3"
	t0=$(date +%s)
	d0=$(debs "$1")
	env -i HOME=/root TERM=dumb PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		chroot "$1" /bin/bash -c "cd $2 && $3" < /dev/null
	rc=$?
	echo "fresh-check.sh: exit $rc after $(($(date +%s) - t0)) s;" \
		"apt downloaded $((($(debs "$1") - d0) / 1048576)) MB"
	return $rc
}

[ "$(id -u)" -eq 0 ] || die "must run as root (debootstrap, chroot, mounts)"
case $SUITE in
bookworm|trixie) ;;
*) die "FTSCOPE_FRESH_SUITE: bookworm or trixie, not '$SUITE'" ;;
esac
case $ONLY in
""|package) ;;
*) die "FTSCOPE_FRESH_ONLY: package or nothing, not '$ONLY'" ;;
esac
git -C "$ROOT" rev-parse --verify -q "$REV^{commit}" >/dev/null || die "no such revision: $REV"
base
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
DIR=$(new_root) || exit 2
git clone -q --no-hardlinks "$ROOT" "$DIR/root/ftscope" &&
	git -C "$DIR/root/ftscope" checkout -q --detach "$REV" || die "cannot clone $ROOT"
echo "fresh-check.sh: $(git -C "$DIR/root/ftscope" log -1 --format='%h %s' | cut -c1-100)"
mounts "$DIR"
if [ -d "$ROOT/../shared" ]; then
	mkdir -p "$DIR/root/shared"
	mnt --bind -o ro "$ROOT/../shared" "$DIR/root/shared"
	mount -o remount,bind,ro "$DIR/root/shared" 2>/dev/null
fi

echo "fresh-check.sh: Debian $(cat "$DIR/etc/debian_version") ($SUITE)"
if [ -z "$ONLY" ]; then
	for cmd in "scripts/install-deps.sh && make && ./ftscope runqlat -d 5" \
		   "scripts/install-deps.sh --tests && make check"; do
		step "$DIR" /root/ftscope "$cmd" || exit
	done
fi

# The package, built from REV's files alone (not the tree make check used) in a copy:
# dpkg-buildpackage writes it beside that copy, in /root/pkg. install-deps.sh --tests has
# installed debhelper and dpkg-dev; alone, apt installs what debian/control declares.
PKG=/root/pkg
cmd="rm -rf $PKG && mkdir -p $PKG/ftscope && git archive HEAD | tar -x -C $PKG/ftscope"
cmd+=" && cd $PKG/ftscope && "
[ -n "$ONLY" ] && cmd+="apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get build-dep"
[ -n "$ONLY" ] && cmd+=" -y -qq --no-install-recommends ./ > /dev/null && "
cmd+="dpkg-buildpackage -us -uc -b > ../build.log 2>&1; rc=\$?;"
cmd+=" tail -n \$([ \$rc -eq 0 ] && echo 4 || echo 40) ../build.log; exit \$rc"
step "$DIR" /root/ftscope "$cmd" || exit
deb=""
for f in "$DIR$PKG"/ftscope_*.deb; do
	[[ $f = *dbgsym* ]] || deb=$f
done
[ -s "$deb" ] || die "no ftscope_*.deb in $PKG"

# ... and installed with apt in a second fresh root, as a user would: the binary traces,
# and the man page reads once man-db (not in minbase, not a dependency) is installed
DIR2=$(new_root) || exit 2
mounts "$DIR2"
cp "$deb" "$DIR2/root/" || die "cannot copy $deb"
apt="DEBIAN_FRONTEND=noninteractive apt-get -y -qq"
cmd="apt-get update -qq && $apt install ./${deb##*/} > /dev/null"
cmd+=" && dpkg-query -W -f='\${Package} \${Version}: \${Depends}\n' ftscope"
cmd+=" && ftscope runqlat -d 1"
cmd+=" && $apt --no-install-recommends install man-db > /dev/null"
cmd+=" && man ftscope > man.txt && head -n 6 man.txt"
step "$DIR2" /root "$cmd"
