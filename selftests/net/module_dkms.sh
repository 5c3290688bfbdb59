#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only DKMS builds for Debian's kernel (make vmtest-dkms)
#
# The module as DKMS installed it (issue 21): `make vmtest-dkms`
# (scripts/debian-test.sh) installs the Debian packages on the host, whose
# root the guest shares, runs this test alone in the VM, then purges them;
# `make dkms-install` serves as well.  In the other runs it skips, since an
# installed module would be autoloaded where tests need it absent.
#
# - modinfo finds l2tpsel under updates/dkms of the running kernel, with
#   the tree's version;
# - the systemd unit's own ExecStartPre line (modprobe -a l2tpsel
#   l2tp_netlink l2tp_ppp) loads it and its companions, the CLI talks to it;
# - after rmmod, the CLI's first request loads it again by itself (the
#   generic-netlink family alias): modprobe needs nothing more.
source "$(dirname "$0")/../lib.sh"

require_root
require_cmd modinfo modprobe rmmod
path=$(modinfo -n l2tpsel 2>/dev/null)
[[ $path == /lib/modules/$(uname -r)/updates/dkms/l2tpsel.ko* ]] ||
	skip "l2tpsel is not installed through DKMS for $(uname -r) (make vmtest-dkms installs it)"
mod_unload_quiet
defer mod_unload_quiet

ver=$(sed -n 's/^#define L2TPSEL_VERSION "\(.*\)"/\1/p' "$TOP/kmod/version.h")
echo "modinfo: $path version $(modinfo -F version l2tpsel)"
[ "$(modinfo -F version l2tpsel)" = "$ver" ]
check_err $? "the DKMS module is not version $ver"
log_test "DKMS: l2tpsel.ko under updates/dkms of $(uname -r), version $ver"

# the installed unit and CLI when the package put them there
unit=/usr/lib/systemd/system/l2tpseld.service
[ -f "$unit" ] || unit=$TOP/contrib/l2tpseld.service
[ -x /usr/sbin/l2tpsel ] && L2TPSEL_CLI=/usr/sbin/l2tpsel
line=$(sed -n 's/^ExecStartPre=+//p' "$unit" | grep modprobe)
echo "$unit: $line; CLI $L2TPSEL_CLI"
$line
check_err $? "the unit's \"$line\" failed"
for m in l2tpsel l2tp_netlink l2tp_ppp; do
	[ -d /sys/module/$m ]
	check_err $? "$m is not loaded"
done
out=$("$L2TPSEL_CLI" info 2>&1)
check_err $? "l2tpsel info: $out"
echo "$out"
log_test "the unit's modprobe loads l2tpsel and the kernel's L2TP parts; the CLI answers"

rmmod l2tpsel
check_err $? "rmmod"
out=$("$L2TPSEL_CLI" info 2>&1)
check_err $? "l2tpsel info after rmmod: $out"
[ -d /sys/module/l2tpsel ]
check_err $? "the family alias did not load the module"
log_test "after rmmod, the CLI's request loads the module through its alias"

exit $EXIT_STATUS
