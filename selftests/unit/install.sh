#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make install and make uninstall (mk/install.mk), into a scratch DESTDIR:
# the programs, man pages, the systemd unit, the example configuration and
# the bash completion land where PREFIX, SBINDIR and MANDIR say, with their
# modes; the installed unit runs the installed agent and passes systemd-analyze verify
# (when systemd-analyze is there); the installed programs run; uninstall
# leaves no file behind.  Part of `make unit`; a few seconds.
#
# Usage: selftests/unit/install.sh   (from the top of the tree)
set -u
T=$(mktemp -d /tmp/l2tpsel-install.XXXXXX)
trap 'rm -rf "$T"' EXIT

# shellcheck source=ktap.sh
source "$(dirname "${BASH_SOURCE[0]}")/ktap.sh"

mode() { stat -c %a "$1" 2>/dev/null; }

for layout in "PREFIX=/usr" "PREFIX=/opt/x SBINDIR=/opt/x/bin MANDIR=/opt/x/man"; do
	D=$T/root
	rm -rf "$D"
	# shellcheck disable=SC2086
	make -s install DESTDIR="$D" $layout >"$T/out" 2>&1
	ok "make install DESTDIR $layout" $?
	eval "$layout"
	SBINDIR=${SBINDIR:-$PREFIX/sbin}
	MANDIR=${MANDIR:-$PREFIX/share/man}
	unit=$D$PREFIX/lib/systemd/system/l2tpseld.service
	[ "$(mode "$D$SBINDIR/l2tpsel")" = 755 ] && [ "$(mode "$D$SBINDIR/l2tpseld")" = 755 ]
	ok "programs in $SBINDIR, mode 755" $?
	[ "$(mode "$D$MANDIR/man8/l2tpsel.8")" = 644 ] && [ "$(mode "$D$MANDIR/man8/l2tpseld.8")" = 644 ]
	ok "man pages in $MANDIR/man8, mode 644" $?
	[ "$(mode "$unit")" = 644 ] && grep -q "^ExecStart=$SBINDIR/l2tpseld -c /etc/l2tpsel/l2tpseld.conf$" "$unit" &&
		grep -q "^ExecStartPre=$SBINDIR/l2tpsel -b /etc/l2tpsel/l2tpsel.conf$" "$unit" &&
		grep -q "^ExecReload=$SBINDIR/l2tpsel -sync -b /etc/l2tpsel/l2tpsel.conf$" "$unit" &&
		{ ! grep -q "/usr/sbin/l2tpsel" "$unit" || [ "$SBINDIR" = /usr/sbin ]; }
	ok "the unit applies /etc/l2tpsel/l2tpsel.conf with $SBINDIR/l2tpsel and starts $SBINDIR/l2tpseld" $?
	[ -f "$D$PREFIX/share/doc/l2tpsel/examples/l2tpseld.conf" ] &&
		[ -f "$D$PREFIX/share/doc/l2tpsel/examples/l2tpsel.conf" ]
	ok "example configurations in $PREFIX/share/doc/l2tpsel/examples" $?
	[ "$(mode "$D$PREFIX/share/bash-completion/completions/l2tpsel")" = 644 ]
	ok "bash completion in $PREFIX/share/bash-completion/completions" $?
	if [ -e build/pppd_proxy_lcp.so ]; then
		[ "$(mode "$D$PREFIX/lib/l2tpsel/pppd_proxy_lcp.so")" = 644 ]
		ok "proxy-lcp's pppd plugin in $PREFIX/lib/l2tpsel, mode 644" $?
	fi
	# as the operator installs it: mode 0600, it holds secrets
	install -m 0600 "$D$PREFIX/share/doc/l2tpsel/examples/l2tpseld.conf" "$T/l2tpseld.conf"
	out=$("$D$SBINDIR/l2tpseld" -t -c "$T/l2tpseld.conf" 2>&1)
	ok "the installed agent accepts the example: ${out:-valid}" $?
	"$D$SBINDIR/l2tpsel" -V >/dev/null
	ok "the installed CLI runs" $?
	out=$("$D$SBINDIR/l2tpsel" -b "$D$PREFIX/share/doc/l2tpsel/examples/l2tpsel.conf" 2>&1)
	ok "the installed CLI reads the kernel example (comments only): ${out:-nothing to do}" $?
	if command -v systemd-analyze >/dev/null; then
		# its programs as DESTDIR has them, in a copy of the unit
		sed "s|=\\(-\\?\\)$SBINDIR/|=\\1$D$SBINDIR/|" "$unit" >"$T/l2tpseld.service"
		# what it says of the units it pulls in (multi-user.target's, say
		# freeradius.service's MemoryLimit=) is theirs, not ours
		out=$(systemd-analyze verify --man=no "$T/l2tpseld.service" 2>&1 | grep -F l2tpseld)
		[ -z "$out" ]
		ok "systemd-analyze verify: ${out:-clean}" $?
	fi
	# shellcheck disable=SC2086
	make -s uninstall DESTDIR="$D" $layout >"$T/out" 2>&1
	ok "make uninstall" $?
	left=$(find "$D" -type f -o -type l)
	[ -z "$left" ]
	ok "nothing left after uninstall: ${left:-none}" $?
	unset PREFIX SBINDIR MANDIR
done
# make install-etc: the examples as /etc/l2tpsel/*.conf, 0600, never over an edited one
make -s install-etc DESTDIR="$T/etc-root" >"$T/out" 2>&1 &&
	[ "$(mode "$T/etc-root/etc/l2tpsel/l2tpsel.conf")" = 600 ] &&
	[ "$(mode "$T/etc-root/etc/l2tpsel/l2tpseld.conf")" = 600 ] &&
	cmp -s contrib/l2tpsel.conf.example "$T/etc-root/etc/l2tpsel/l2tpsel.conf"
ok "make install-etc: /etc/l2tpsel/l2tpsel.conf and l2tpseld.conf, mode 600" $?
echo "edited" >"$T/etc-root/etc/l2tpsel/l2tpsel.conf"
make -s install-etc DESTDIR="$T/etc-root" >"$T/out" 2>&1 &&
	[ "$(cat "$T/etc-root/etc/l2tpsel/l2tpsel.conf")" = edited ]
ok "make install-etc leaves an existing configuration as it is" $?
echo "# install: $((n - fail)) passed, $fail failed"
[ $fail = 0 ]
