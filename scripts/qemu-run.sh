#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# qemu-run.sh - run a command as root inside Debian's full kernel under QEMU (TCG).
#
#   scripts/qemu-run.sh COMMAND [ARGS...]
#
# The guest is a busybox initramfs holding ./ftscope (also on PATH as ftscope), its
# shared libraries, bash, the test workloads and the test scripts (tests/live,
# tests/qemu), in /ftscope laid out as this tree.
# tracefs is mounted at /sys/kernel/tracing. COMMAND's stdout and stderr come back
# on stdout and stderr, and its exit status is this script's. Exit 125 when the guest
# could not be prepared or did not report a status.
#
# Environment:
#   FTSCOPE_QEMU_CACHE   where the kernel package is cached (/var/cache/ftscope-qemu)
#   FTSCOPE_QEMU_TIMEOUT seconds before the guest is killed (300)
#   FTSCOPE_QEMU_SMP     guest CPUs (2)
#   FTSCOPE_QEMU_FILES   more files or directories to copy into /ftscope (space separated)
#   FTSCOPE_QEMU_LOGLEVEL kernel console loglevel (1: only emergencies)
#   FTSCOPE_QEMU_SUITE   Debian suite of the kernel: the system's (default), bookworm
#                        (6.1, with bookworm-security: tests/live/qemu.sh, whatever the
#                        host's release) or bookworm-backports (6.12: function_graph in
#                        instances), fetched with a private apt state, the system's apt
#                        sources untouched

set -o pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${FTSCOPE_QEMU_CACHE:-/var/cache/ftscope-qemu}
TIMEOUT=${FTSCOPE_QEMU_TIMEOUT:-300}
SMP=${FTSCOPE_QEMU_SMP:-2}

# die MSG: one line on stderr, status 125
die() {
	echo "qemu-run.sh: $*" >&2
	exit 125
}

[ $# -ge 1 ] || die "usage: scripts/qemu-run.sh COMMAND [ARGS...]"

# need_tools: install what the guest is built and booted with
need_tools() {
	local p missing=""

	for p in qemu-system-x86 busybox-static cpio; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	[ "$(id -u)" -eq 0 ] || die "missing packages:$missing (run as root to install them)"
	echo "qemu-run.sh: installing$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -qq --no-install-recommends $missing >/dev/null 2>&1 ||
		{ apt-get update -qq >/dev/null 2>&1 &&
		  apt-get install -y -qq --no-install-recommends $missing >/dev/null 2>&1; } ||
		die "could not install$missing"
}

# apt_suite ARGS...: apt-get/apt-cache on FTSCOPE_QEMU_SUITE's package list alone (a
# private state under the cache); plain apt on the system's sources without a suite
APT_OPTS=()
apt_suite() {
	local tool=$1

	shift
	"$tool" "${APT_OPTS[@]}" "$@"
}

# use_suite: point APT_OPTS at FTSCOPE_QEMU_SUITE, updating its private list
use_suite() {
	local st=$CACHE/apt-$FTSCOPE_QEMU_SUITE

	[ -n "$FTSCOPE_QEMU_SUITE" ] || return 0
	mkdir -p "$st/lists/partial" "$st/cache/archives/partial" || die "cannot create $st"
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]" \
	     "http://deb.debian.org/debian $FTSCOPE_QEMU_SUITE main" > "$st/sources.list"
	# a release's kernel is updated by its security suite (bookworm: 6.1.0-56 there,
	# 6.1.0-50 in the point release): the same package a system of that release boots
	case $FTSCOPE_QEMU_SUITE in
	*-*) ;;
	*) echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]" \
		"http://deb.debian.org/debian-security $FTSCOPE_QEMU_SUITE-security main" \
		>> "$st/sources.list" ;;
	esac
	APT_OPTS=(-o Dir::Etc::sourcelist="$st/sources.list" -o Dir::Etc::sourceparts=/nonexistent
		  -o Dir::State::lists="$st/lists" -o Dir::Cache="$st/cache"
		  -o Debug::NoLocking=1)
	# the list once a day is enough: a kernel package stays for weeks
	[ -n "$(find "$st/lists" -name '*Packages*' -mtime -1 2>/dev/null)" ] ||
		apt_suite apt-get -qq update >/dev/null 2>&1 ||
		die "cannot download the package list of $FTSCOPE_QEMU_SUITE"
}

# fetch_kernel: print the path of the cached vmlinuz of Debian's current kernel package
fetch_kernel() {
	local pkg dir vmlinuz

	pkg=$(apt_suite apt-cache depends linux-image-amd64 2>/dev/null |
	      awk '/Depends: linux-image-/ { print $2; exit }')
	[ -n "$pkg" ] || die "apt-cache does not know linux-image-amd64 (run apt-get update)"
	dir=$CACHE/$pkg
	vmlinuz=$(ls "$dir"/boot/vmlinuz-* 2>/dev/null | head -1)
	if [ -z "$vmlinuz" ]; then
		mkdir -p "$dir" || die "cannot create $dir"
		(cd "$dir" && apt_suite apt-get download -q "$pkg" >/dev/null 2>&1) ||
			die "cannot download $pkg"
		dpkg-deb --fsys-tarfile "$dir"/"$pkg"_*.deb | tar -x -C "$dir" ./boot ||
			die "cannot unpack $pkg"
		rm -f "$dir"/"$pkg"_*.deb
		vmlinuz=$(ls "$dir"/boot/vmlinuz-* 2>/dev/null | head -1)
		[ -n "$vmlinuz" ] || die "$pkg holds no vmlinuz"
	fi
	echo "$vmlinuz"
}

# add_bin FILE: copy an executable and every shared library it loads into the guest tree
add_bin() {
	local lib

	mkdir -p "$G/$(dirname "$1")"
	cp -L "$1" "$G/$1"
	for lib in $(ldd "$1" 2>/dev/null | grep -o '/[^ ]*'); do
		[ -e "$G$lib" ] && continue
		mkdir -p "$G$(dirname "$lib")"
		cp -L "$lib" "$G$lib"
	done
}

# write_init: the guest's /init, which runs the command stored in /cmd
write_init() {
	cat > "$G/init" <<'EOF'
#!/bin/sh
/bin/busybox --install -s /bin
export PATH=/bin:/usr/bin:/sbin:/usr/sbin HOME=/root
mkdir -p /proc /sys /dev /tmp /root /etc
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs tmpfs /tmp
mount -t tracefs nodev /sys/kernel/tracing
echo "root:x:0:0:root:/root:/bin/sh" > /etc/passwd
echo 0 > /proc/sys/kernel/kptr_restrict
for t in /dev/ttyS1 /dev/ttyS2; do stty -F $t raw -echo -onlcr 2>/dev/null; done
cd /ftscope
. /cmd > /dev/ttyS1 2> /dev/ttyS2 < /dev/null
echo "FTSCOPE_QEMU_RC=$?" > /dev/ttyS0
sync
poweroff -f
EOF
	chmod 755 "$G/init"
}

need_tools
use_suite
VMLINUZ=$(fetch_kernel) || exit 125
[ -x "$ROOT/ftscope" ] || die "build ftscope first (make)"

W=$(mktemp -d /tmp/ftscope-qemu.XXXXXX) || die "mktemp failed"
[ -n "$FTSCOPE_QEMU_KEEP" ] || trap 'rm -rf "$W"' EXIT
G=$W/root
mkdir -p "$G/bin" "$G/usr/bin" "$G/ftscope/tests"
cp /bin/busybox "$G/bin/busybox"
ln -s busybox "$G/bin/sh"
add_bin /bin/bash
add_bin "$ROOT/ftscope"
mkdir -p "$G/ftscope/tests/workloads"
for w in "$ROOT"/tests/workloads/*; do
	[ -x "$w" ] && [ -f "$w" ] || continue
	add_bin "$w"
	mv "$G/$w" "$G/ftscope/tests/workloads/"
done
mv "$G/$ROOT/ftscope" "$G/ftscope/ftscope"
for d in tests/live tests/qemu; do
	[ -d "$ROOT/$d" ] && mkdir -p "$G/ftscope/$d" && cp "$ROOT/$d"/* "$G/ftscope/$d/"
done
rm -rf "${G:?}/${ROOT#/}"
ln -s /ftscope/ftscope "$G/usr/bin/ftscope"
for f in $FTSCOPE_QEMU_FILES; do
	cp -a "$f" "$G/ftscope/" || die "cannot copy $f"
done
write_init
# The command, quoted word by word so that it survives the trip.
printf '%q ' "$@" > "$G/cmd"
echo >> "$G/cmd"

(cd "$G" && find . | cpio -o -H newc 2>/dev/null | gzip -1 > "$W/initrd.gz") ||
	die "cannot build the initramfs"

timeout "$TIMEOUT" qemu-system-x86_64 -accel tcg,thread=single -cpu max -m 1024 -smp "$SMP" \
	-kernel "$VMLINUZ" -initrd "$W/initrd.gz" \
	-append "console=ttyS0 quiet loglevel=${FTSCOPE_QEMU_LOGLEVEL:-1} panic=-1" \
	-display none -monitor none -no-reboot \
	-serial file:"$W/console" -serial file:"$W/stdout" -serial file:"$W/stderr" \
	</dev/null >/dev/null 2>"$W/qemu.err"
qrc=$?

cat "$W/stdout" 2>/dev/null
cat "$W/stderr" >&2 2>/dev/null
rc=$(tr -d '\r' < "$W/console" 2>/dev/null | sed -n 's/^FTSCOPE_QEMU_RC=\([0-9]*\)$/\1/p' | tail -1)
if [ -z "$rc" ]; then
	[ $qrc -eq 124 ] && die "the guest did not finish in ${TIMEOUT}s; its console ends:" \
		"$(tr -d '\r' < "$W/console" | grep -v '^ *$' | tail -3 | tr '\n' '|')"
	die "the guest reported no exit status (qemu status $qrc: $(head -c 300 "$W/qemu.err"))"
fi
exit "$rc"
