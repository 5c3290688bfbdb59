#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only the package upgrade (make vmtest-dkms)
#
# The package's upgrade path keeps every session (S-OPS-2): `make
# vmtest-dkms` (scripts/debian-test.sh) installs the packages on the host,
# whose root the guest shares, and hands this test a newer l2tpsel .deb in
# $L2TPSEL_UPGRADE_DEB (the same files, a higher version).  In the other
# runs it skips.
#
# The guest's root is read only, so the test lays a tmpfs over it
# (overlayfs) and works in that copy: the installed agent
# (/usr/sbin/l2tpseld of the copy) runs as LAC with $UPG_SUBS subscribers
# up through it to an xl2tpd LNS (selftests/upgrade.sh), under
# selftests/fdstore_sup.py in place of systemd; 10 unless set, since what
# the package adds to l2tpseld_upgrade.sh's 50 is dpkg's replacement of
# the binary and the postinst, not more sessions.  Then `dpkg -i` of
# the newer package in the copy (chroot; its triggers deferred) replaces
# the binary and runs the package's postinst, which, finding the unit
# active, has systemd signal the agent; a stand-in systemctl records the
# call and sends the signal:
#   - the postinst asked for SIGUSR2 to the unit's main process;
#   - the same process now runs the new file (not the old, deleted one)
#     and adopted every tunnel, call and subscriber;
#   - 0 sessions lost, ping loss within a second, counts and accounting
#     exact (upg_kept).
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../peers.sh"
source "$(dirname "$0")/../access.sh"
UPG_SUBS=${UPG_SUBS:-10}
source "$(dirname "$0")/../upgrade.sh"

require_root
[ "$(dpkg-query -W -f '${Status}' l2tpsel 2>/dev/null)" = "install ok installed" ] ||
	skip "the l2tpsel package is not installed (make vmtest-dkms installs it)"
[ -r "${L2TPSEL_UPGRADE_DEB:-}" ] || skip "no newer package in L2TPSEL_UPGRADE_DEB"
require_cmd chroot dpkg
peers_require
access_require
L2TPSEL_CLI=/usr/sbin/l2tpsel
mod_unload_quiet
modprobe l2tpsel || fail "modprobe l2tpsel (the installed module) failed"
defer mod_unload_quiet

# --- a writable copy of the root ------------------------------------------------
R=$(mktemp -d /tmp/pkgroot.XXXXXX)
defer rm -rf "$R"
mount -t tmpfs tmpfs "$R" && mkdir "$R/upper" "$R/work" "$R/root" &&
	mount -t overlay overlay -o "lowerdir=/,upperdir=$R/upper,workdir=$R/work" "$R/root" ||
	fail "cannot lay an overlay over the root"
defer umount -l "$R"
defer umount "$R/root"
ROOT=$R/root
BIN=$ROOT/usr/sbin/l2tpseld
old=$(dpkg-query -W -f '${Version}' l2tpsel)
new=$(dpkg-deb -f "$L2TPSEL_UPGRADE_DEB" Version)
dpkg --compare-versions "$new" gt "$old" || fail "$L2TPSEL_UPGRADE_DEB is $new, not newer than $old"

upg_setup "$BIN"

# the unit is active; systemctl's stand-in records its arguments and
# signals the agent as "systemctl kill --kill-whom=main" would
mkdir -p "$ROOT/run/systemd/system"
cat >"$ROOT/usr/local/sbin/systemctl" <<SH
#!/bin/sh
echo "systemctl \$*" >>/tmp/systemctl.log
case "\$*" in
"--quiet is-active l2tpseld.service") kill -0 $AGENT ;;
"kill --kill-whom=main --signal=USR2 l2tpseld.service") kill -USR2 $AGENT ;;
*) exit 1 ;;
esac
SH
chmod 0755 "$ROOT/usr/local/sbin/systemctl"
cp "$L2TPSEL_UPGRADE_DEB" "$ROOT/tmp/new.deb"
ino0=$(stat -c %i "$BIN")

# --- dpkg -i ------------------------------------------------------------------------
upg_ping_start
rm -f "$D/agent.sock"
chroot "$ROOT" env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	dpkg --no-triggers -i /tmp/new.deb >"$D/dpkg.log" 2>&1
check_err $? "dpkg -i $new failed: $(tail -3 "$D/dpkg.log")"
expect "$(chroot "$ROOT" dpkg-query -W -f '${Version}' l2tpsel)" "$new" "the package's version after dpkg -i"
expect "$(cat "$ROOT/tmp/systemctl.log" 2>/dev/null | tr '\n' ';')" \
	"systemctl --quiet is-active l2tpseld.service;systemctl kill --kill-whom=main --signal=USR2 l2tpseld.service;" \
	"what the postinst asked of systemd"
upg_came_back
exe=$(readlink "/proc/$AGENT/exe")
ino=$(stat -L -c %i "/proc/$AGENT/exe")
log_info "the agent runs $exe, inode $ino (the old file $ino0, the new $(stat -c %i "$BIN"))"
# the path as /proc shows it depends on the guest's mounts: the inode decides
[[ $exe != *" (deleted)" ]] && [ "$ino" = "$(stat -c %i "$BIN")" ] && [ "$ino" != "$ino0" ]
check_err $? "the agent does not run the new binary: $exe, inode $ino"
log_test "dpkg -i $new: the postinst signals the agent, which runs the new binary"
upg_kept "package upgrade"
log_test "package upgrade: 0 sessions lost, ping loss within a second, counts exact"

[ "$EXIT_STATUS" = 0 ] || { show_logs; cat "$D/dpkg.log"; }
exit $EXIT_STATUS
