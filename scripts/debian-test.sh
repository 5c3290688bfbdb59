#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Debian packages end to end (Documentation/install.md), as root on a
# throwaway test machine: build l2tpsel and l2tpsel-dkms from a copy of the
# tree, run lintian, install both (DKMS builds the module for every kernel
# with headers), verify the installed unit, boot the stock guest (which
# shares this machine's root) for selftests/net/module_dkms.sh and
# package_upgrade.sh (dpkg -i of a newer l2tpsel under live subscribers),
# then purge both and check that no file of theirs is left.  Prints KTAP.
#
#   scripts/debian-test.sh [VM_SH_OPTIONS...]     (make vmtest-dkms)
set -u
cd "$(dirname "$0")/.."
B=build/deb
n=0 fail=0
ok() {	# ok DESCRIPTION RC
	n=$((n + 1))
	if [ "$2" = 0 ]; then echo "ok $n $1"; else echo "not ok $n $1"; fail=$((fail + 1)); fi
}
skip_all() { echo "1..1"; echo "ok 1 debian packages # SKIP $1"; exit 0; }

[ "$(id -u)" = 0 ] || skip_all "needs root (it installs the packages)"
for c in dpkg-buildpackage dh_dkms dkms lintian; do
	command -v "$c" >/dev/null || skip_all "no $c (make deps)"
done
echo "KTAP version 1"
ver=$(dpkg-parsechangelog -l debian/changelog -S Version)

# --- build, in a copy: dpkg-buildpackage writes its packages next to it ---------
rm -rf "$B"
mkdir -p "$B/l2tpsel-$ver"
{ git ls-files -co --exclude-standard 2>/dev/null || find . -path ./build -prune -o -type f -print; } |
	grep -v '^build/' | tar -cf - -T - | tar -C "$B/l2tpsel-$ver" -xf -
(cd "$B/l2tpsel-$ver" && dpkg-buildpackage -us -uc -b) >"$B/build.log" 2>&1
ok "dpkg-buildpackage -us -uc -b: l2tpsel and l2tpsel-dkms $ver" $?
debs="$B/l2tpsel_${ver}_amd64.deb $B/l2tpsel-dkms_${ver}_all.deb"
ls $debs >/dev/null 2>&1 || { tail -30 "$B/build.log"; ok "packages built" 1; exit 1; }

# lintian: errors and warnings fail; the one info tag is explained in install.md
tags=$(lintian "$B/l2tpsel_${ver}_amd64.changes" 2>&1 | grep -E '^[EW]: ')
[ -z "$tags" ]
ok "lintian: no error or warning${tags:+: $tags}" $?

# --- install ----------------------------------------------------------------------
dpkg -i $debs >"$B/install.log" 2>&1
ok "dpkg -i both packages" $?
files=$(dpkg -L l2tpsel l2tpsel-dkms 2>/dev/null | while read -r f; do [ -d "$f" ] || echo "$f"; done)
kos=$(ls /lib/modules/*/updates/dkms/l2tpsel.ko* 2>/dev/null)
echo "# $(wc -l <<<"$files") files installed; DKMS built: ${kos:-nothing}"
[ -n "$kos" ]
ok "DKMS built and installed the module" $?
if command -v systemd-analyze >/dev/null; then
	# only what it says of ours: the units it pulls in have their own warnings
	out=$(systemd-analyze verify --man=no /usr/lib/systemd/system/l2tpseld.service 2>&1 |
	      grep -F l2tpseld)
	[ -z "$out" ]
	ok "systemd-analyze verify of the installed unit${out:+: $out}" $?
fi

# A newer l2tpsel for package_upgrade: the same files, a higher version.
# dpkg-deb unpacks and packs again in seconds; a second build would take
# minutes and test nothing more.
up=$B/upgrade up_ver="$ver+upgradetest"
rm -rf "$up"
dpkg-deb -R "$B/l2tpsel_${ver}_amd64.deb" "$up" &&
	sed -i "s/^Version: .*/Version: $up_ver/" "$up/DEBIAN/control" &&
	dpkg-deb -b "$up" "$B/l2tpsel_${up_ver}_amd64.deb" >/dev/null
ok "l2tpsel $up_ver, the same files under a newer version" $?

# --- the guest: modprobe, the unit's command line, the alias; an upgrade ------------
selftests/vm/vm.sh --timeout 900 --env "L2TPSEL_UPGRADE_DEB=$PWD/$B/l2tpsel_${up_ver}_amd64.deb" \
	"$@" -- selftests/run.sh module_dkms package_upgrade | sed 's/^/# /'
[ "${PIPESTATUS[0]}" = 0 ]
ok "module_dkms and package_upgrade in the guest (the installed module, unit, CLI; dpkg -i)" $?

# --- purge: nothing left ------------------------------------------------------------
dpkg --purge l2tpsel l2tpsel-dkms >>"$B/install.log" 2>&1
ok "dpkg --purge both packages" $?
left=$(for f in $files; do [ -e "$f" ] && echo "$f"; done; ls /lib/modules/*/updates/dkms/l2tpsel.ko* \
	/var/lib/dkms/l2tpsel 2>/dev/null)
[ -z "$left" ]
ok "nothing left after purge${left:+: $left}" $?
echo "1..$n"
[ $fail = 0 ]
