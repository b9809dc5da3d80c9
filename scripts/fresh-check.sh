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
# Prints each command's output, then its exit status, how long it took and what apt
# downloaded for it, and exits with the status of the first that failed. The root is
# removed afterwards (FTSCOPE_FRESH_KEEP=1 keeps it for a look). Needs root.
#
# Environment:
#   FTSCOPE_FRESH_SUITE   the Debian release: bookworm (12, the default) or trixie (13)
#   FTSCOPE_FRESH_CACHE   where the base root is cached (/var/cache/ftscope-fresh)
#   FTSCOPE_FRESH_MIRROR  Debian mirror for debootstrap (default: the first in this
#                         machine's apt sources, else debootstrap's own default)
#   FTSCOPE_FRESH_KEEP    1: leave the root in place

set -o pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${FTSCOPE_FRESH_CACHE:-/var/cache/ftscope-fresh}
SUITE=${FTSCOPE_FRESH_SUITE:-bookworm}
BASE=$CACHE/$SUITE-minbase.tar
REV=${1:-HEAD}
MNTS=()
DIR=""

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

# cleanup: unmount in reverse order and remove the root
cleanup() {
	local i

	for ((i = ${#MNTS[@]} - 1; i >= 0; i--)); do
		umount -l "${MNTS[i]}" 2>/dev/null
	done
	[ -n "$DIR" ] && [ "$FTSCOPE_FRESH_KEEP" != 1 ] && rm -rf --one-file-system "$DIR"
}

# debs: bytes of the packages apt has downloaded into the root so far
debs() {
	du -cb "$DIR"/var/cache/apt/archives/*.deb 2>/dev/null | tail -n 1 | cut -f1
}

[ "$(id -u)" -eq 0 ] || die "must run as root (debootstrap, chroot, mounts)"
case $SUITE in
bookworm|trixie) ;;
*) die "FTSCOPE_FRESH_SUITE: bookworm or trixie, not '$SUITE'" ;;
esac
git -C "$ROOT" rev-parse --verify -q "$REV^{commit}" >/dev/null || die "no such revision: $REV"
base
DIR=$(mktemp -d /var/tmp/ftscope-fresh.XXXXXX) || die "cannot create a root in /var/tmp"
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
tar -C "$DIR" -xf "$BASE" || die "cannot unpack $BASE"
chmod 755 "$DIR"	# mktemp's 0700 would keep the tests' unprivileged user out of /
cp /etc/resolv.conf "$DIR/etc/resolv.conf" 2>/dev/null
git clone -q --no-hardlinks "$ROOT" "$DIR/root/ftscope" &&
	git -C "$DIR/root/ftscope" checkout -q --detach "$REV" || die "cannot clone $ROOT"
echo "fresh-check.sh: $(git -C "$DIR/root/ftscope" log -1 --format='%h %s' | cut -c1-100)"
mnt -t proc proc "$DIR/proc"
mnt -t sysfs sysfs "$DIR/sys"
mnt -t tracefs nodev "$DIR/sys/kernel/tracing"
[ -d /sys/kernel/debug/tracing ] && mnt -t debugfs nodev "$DIR/sys/kernel/debug"
mnt --bind /dev "$DIR/dev"
mount --make-rslave "$DIR/dev"	# the pts and shm below must not reach the host's /dev
mnt -t devpts -o newinstance devpts "$DIR/dev/pts"
mnt -t tmpfs tmpfs "$DIR/dev/shm"
if [ -d "$ROOT/../shared" ]; then
	mkdir -p "$DIR/root/shared"
	mnt --bind -o ro "$ROOT/../shared" "$DIR/root/shared"
	mount -o remount,bind,ro "$DIR/root/shared" 2>/dev/null
fi

status=0
echo "fresh-check.sh: Debian $(cat "$DIR/etc/debian_version") ($SUITE)"
for cmd in "scripts/install-deps.sh && make && ./ftscope runqlat -d 5" \
	   "scripts/install-deps.sh --tests && make check"; do
	echo "fresh-check.sh: # $cmd"
	t0=$(date +%s)
	d0=$(debs)
	env -i HOME=/root TERM=dumb PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		chroot "$DIR" /bin/bash -c "cd /root/ftscope && $cmd" < /dev/null
	status=$?
	echo "fresh-check.sh: exit $status after $(($(date +%s) - t0)) s;" \
		"apt downloaded $((($(debs) - d0) / 1048576)) MB"
	[ $status -eq 0 ] || break
done
exit $status
