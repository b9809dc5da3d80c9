#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# description: the package: make install and make uninstall (PREFIX, DESTDIR) put exactly the
#              binary and the man page and remove exactly them; debian/ builds a .deb with
#              dpkg-buildpackage whose contents, Depends (against the binary's own NEEDED
#              libraries) and lintian report are checked; the packaged binary traces
#              (runqlat -d 1) and its man page renders without warnings. Builds in a copy
#              of the work tree (its files known to git, not build/ or tests/out) in a
#              temporary directory, so nothing lands beside the repository: about 40 s
#              on 2 vCPUs, most of it the package's build.
# requires: dpkg-buildpackage (dpkg-dev), dh (debhelper), lintian, man (man-db); root and
#           tracefs for the packaged binary's run
. tests/live/lib.sh
plan 8

TMP=$(mktemp -d "${TMPDIR:-/tmp}/ftscope-package.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
SRC=$TMP/ftscope-src
# what the sub-makes and the package build must not inherit from a make check around
# this script (SANITIZE=1 in MAKEFLAGS would install build/asan's binary)
unset MAKEFLAGS MFLAGS MAKELEVEL SANITIZE O CFLAGS CPPFLAGS LDFLAGS

# tree_copy DIR: the work tree's files as a user's clone would have them, uncommitted
# changes and new files included, ignored ones (build/, tests/out, binaries) left out
tree_copy() {
	mkdir -p "$1" || return 1
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git ls-files -z --cached --others --exclude-standard |
			while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
			tar --null -T - -cf - | tar -C "$1" -xf -
	else
		tar --exclude=./build --exclude=./tests/out --exclude='./debian/ftscope*' \
			--exclude=./debian/.debhelper -cf - . | tar -C "$1" -xf -
	fi
}

# files DIR: every path under DIR that is not a directory, relative, sorted, with its mode
files() {
	(cd "$1" && find . ! -type d -printf '%P %m\n' | sort)
}

missing=""
for t in dpkg-buildpackage dh lintian man dpkg-deb; do
	command -v $t >/dev/null || missing="$missing $t"
done
# the tools are installed by scripts/install-deps.sh --tests: a missing one is a FAIL
if [ -n "$missing" ]; then
	fail package_deb_builds "missing:$missing (debhelper, dpkg-dev, lintian, man-db: scripts/install-deps.sh --tests)"
	skip_rest "package_deb_builds failed"
	exit 0
fi
if ! tree_copy "$SRC"; then
	fail package_deb_builds "cannot copy the work tree to $SRC"
	skip_rest "package_deb_builds failed"
	exit 0
fi

# The package first: its build leaves the copy's ./ftscope built, which make install then
# installs without building again.
name=package_deb_builds
t0=$(date +%s)
(cd "$SRC" && dpkg-buildpackage -us -uc -b) > "$OUT/package-build.log" 2>&1
rc=$?
base=ftscope_$(cd "$SRC" && dpkg-parsechangelog -S Version)_$(dpkg --print-architecture)
DEB=$TMP/$base.deb
[ -s "$DEB" ] || DEB=""
echo "# $name: dpkg-buildpackage exit $rc after $(($(date +%s) - t0)) s; $(basename "${DEB:-none}")"
if [ $rc -eq 0 ] && [ -s "$DEB" ]; then
	pass $name
else
	why=$(grep -E '(^|: )error: |\*\*\* ' "$OUT/package-build.log" | tail -n 1)
	fail $name "dpkg-buildpackage -us -uc -b: exit $rc, deb '${DEB##*/}': ${why:-$(tail -n 1 "$OUT/package-build.log")}"
fi

# The contents: the binary, the man page (compressed by dh_compress) and what debhelper
# adds (copyright, changelog), nothing else.
name=package_deb_contents
want="usr/bin/ftscope
usr/share/doc/ftscope/changelog.gz
usr/share/doc/ftscope/copyright
usr/share/man/man1/ftscope.1.gz"
got=$(dpkg-deb -c "$DEB" 2>/dev/null | awk '$1 !~ /^d/ { sub(/^\.\//, "", $6); print $6 }' | sort)
if [ -n "$DEB" ] && [ "$got" = "$want" ]; then
	pass $name
else
	fail $name "dpkg-deb -c: $(echo $got), want $(echo $want)"
fi

# Depends: exactly the packages of the libraries the packaged binary needs (its NEEDED
# entries, as this machine's dpkg owns them), libtracefs and libtraceevent among them.
name=package_deb_depends
X=$TMP/x
mkdir -p "$X"
[ -n "$DEB" ] && dpkg-deb -x "$DEB" "$X"
dep=$(dpkg-deb -f "$DEB" Depends 2>/dev/null)
echo "# $name: Depends: $dep"
why=""
needed=$(readelf -d "$X/usr/bin/ftscope" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
[ -n "$needed" ] || why="no NEEDED libraries read from the packaged binary;"
pkgs=""
for lib in $needed; do
	path=$(ldconfig -p | awk -v l="$lib" '$1 == l { print $NF; exit }')
	# bookworm's dpkg knows some libraries by /lib, trixie's by /usr/lib
	pkg=$(dpkg -S "$(readlink -f "$path")" 2>/dev/null | head -n 1 | cut -d: -f1)
	[ -n "$pkg" ] || pkg=$(dpkg -S "$path" 2>/dev/null | head -n 1 | cut -d: -f1)
	[ -n "$pkg" ] || why+=" no package owns $lib ($path);"
	pkgs+=" $pkg"
done
want=$(tr ' ' '\n' <<< "$pkgs" | sed '/^$/d' | sort -u | tr '\n' ' ')
got=$(tr ',' '\n' <<< "$dep" | sed 's/^ *//; s/[ (].*//' | sed '/^$/d' | sort -u | tr '\n' ' ')
[ "$got" = "$want" ] || why+=" Depends names '$got', the binary needs '$want';"
for pkg in libtracefs1 libtraceevent1; do
	[[ " $got" = *" $pkg "* ]] || why+=" no $pkg;"
done
if [ -z "$why" ]; then
	pass "$name ($got)"
else
	fail $name "${why# }"
fi

# lintian on what the build made (the binary packages): no error; its warnings shown.
name=package_lintian_no_errors
CHANGES=$TMP/$base.changes
lintian "$CHANGES" > "$OUT/package-lintian.txt" 2>&1
lrc=$?
sed -n 's/^\([EW]\): /# package lintian \1: /p' "$OUT/package-lintian.txt"
errors=$(grep -c '^E: ' "$OUT/package-lintian.txt")
if [ -s "$CHANGES" ] && [ "$errors" -eq 0 ] && [ $lrc -eq 0 ]; then
	pass $name
else
	fail $name "lintian exit $lrc, $errors E: lines: $(grep -m1 '^E: ' "$OUT/package-lintian.txt")"
fi

# The packaged man page renders, with no warning from man (lintian's own command), and
# holds the page's name line.
name=package_man_renders
MAN=$X/usr/share/man/man1/ftscope.1.gz
warn=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$MAN" 2>&1 >/dev/null)
page=$(LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$MAN" 2>/dev/null)
mrc=$?
if [ -s "$MAN" ] && [ $mrc -eq 0 ] && [ -z "$warn" ] &&
   grep -q '^ *ftscope - kernel latency tracer built on ftrace' <<< "$page"; then
	pass "$name ($(wc -l <<< "$page") lines)"
else
	fail $name "man -l: exit $mrc, warnings '$(head -n 1 <<< "$warn")', name line: $(grep -c 'ftscope - kernel' <<< "$page")"
fi

# The packaged binary traces: runqlat for 1 s, exit 0, BCC's histogram header.
# (need_root would skip the rest too: the install checks below need no root)
name=package_binary_runs
if [ "$(id -u)" -ne 0 ]; then
	skip $name "needs root"
elif ! grep -q tracefs /proc/filesystems; then
	skip $name "kernel has no tracefs"
else
	[ -d $T/instances ] || mount -t tracefs nodev $T 2>/dev/null
	out=$(FTSCOPE=$X/usr/bin/ftscope ft $name 0 runqlat -d 1 2>&1)
	if grep -q 'usecs *: count' <<< "$out"; then
		pass $name
	else
		fail $name "no histogram header in: $(head -n 3 <<< "$out" | tr '\n' '|')"
	fi
fi

# make install (DESTDIR, PREFIX=/usr) puts exactly the binary (0755, the one built) and the
# man page (0644, docs/ftscope.1) there, and the default PREFIX is /usr/local.
name=make_install_exact
D=$TMP/dest
mkdir -p "$D/usr/bin"
echo other > "$D/usr/bin/other"		# someone else's file: uninstall must keep it
chmod 644 "$D/usr/bin/other"		# whatever the umask
make -s -C "$SRC" install DESTDIR="$D" PREFIX=/usr > "$OUT/package-install.log" 2>&1
irc=$?
make -s -C "$SRC" install DESTDIR="$TMP/dest2" >> "$OUT/package-install.log" 2>&1
irc2=$?
got=$(files "$D")
want="usr/bin/ftscope 755
usr/bin/other 644
usr/share/man/man1/ftscope.1 644"
why=""
[ $irc -eq 0 ] && [ $irc2 -eq 0 ] || why+=" make install: exit $irc, $irc2;"
[ "$got" = "$want" ] || why+=" installed: $(echo $got);"
cmp -s "$D/usr/bin/ftscope" "$SRC/ftscope" || why+=" the binary is not the one built;"
cmp -s "$D/usr/share/man/man1/ftscope.1" docs/ftscope.1 || why+=" the man page is not docs/ftscope.1;"
got2=$(files "$TMP/dest2" | tr '\n' ' ')
[ "$got2" = "usr/local/bin/ftscope 755 usr/local/share/man/man1/ftscope.1 644 " ] ||
	why+=" default PREFIX: $got2;"
if [ -z "$why" ]; then
	pass $name
else
	fail $name "${why# }"
fi

# make uninstall with the same variables removes exactly those two files.
name=make_uninstall_exact
make -s -C "$SRC" uninstall DESTDIR="$D" PREFIX=/usr >> "$OUT/package-install.log" 2>&1
urc=$?
got=$(files "$D")
if [ $urc -eq 0 ] && [ "$got" = "usr/bin/other 644" ]; then
	pass $name
else
	fail $name "make uninstall: exit $urc, left: $(echo $got), want usr/bin/other alone"
fi
