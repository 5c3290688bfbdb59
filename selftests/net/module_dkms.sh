#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only DKMS builds for Debian's kernel (make vmtest-dkms)
#
# The module as DKMS installed it: `make vmtest-dkms`
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
#   generic-netlink family alias): modprobe needs nothing more;
# - the demo's login through the installed unit's own command lines, with
#   /etc/l2tpsel/ of the test's (a tmpfs over it, in a mount namespace of
#   this test's): ExecStartPre applies l2tpsel.conf and checks
#   l2tpseld.conf, ExecStart runs the agent in the hub, a login reaches an
#   xl2tpd LNS; then l2tpsel.conf gains a tunnel and loses one and the
#   unit's ExecReload lines run: the live session stays, the kernel has the
#   new file's tunnels, and the reloaded agent logs in again.
if [ -z "${MODULE_DKMS_MNTNS:-}" ] && [ -d /etc/l2tpsel ]; then
	MODULE_DKMS_MNTNS=1 exec unshare -m --propagation private "$BASH" "$0" "$@"
fi
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../peers.sh"

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

# --- the unit's command lines, end to end -------------------------------------------
[ -n "${MODULE_DKMS_MNTNS:-}" ] || { echo "# no /etc/l2tpsel (no package installed): unit lines not run"; exit $EXIT_STATUS; }
peers_require
[ -x /usr/sbin/l2tpseld ] && L2TPSELD=/usr/sbin/l2tpseld
mount -t tmpfs -o mode=0755 l2tpsel-test /etc/l2tpsel || fail "cannot mount a tmpfs on /etc/l2tpsel"
defer umount /etc/l2tpsel
peers_init 10.210.0.1 || fail "cannot set up the hub"
peer_add lns1 10.220.0.11 && peer_add lns2 10.220.0.12 || fail "cannot add the peers"
peer_lns_start lns1 host lns-1 && peer_lns_start lns2 host lns-2 || fail "xl2tpd did not start"
_peer_ppp_options agent
example=/usr/share/doc/l2tpsel/examples/l2tpseld.conf
[ -f $example ] || example=$TOP/contrib/l2tpseld.conf.example
{ cat $example; printf '%s\n' "socket $PEERS_DIR/agent.sock" \
	"hostname l2tpsel-hub" "pppd-file $PEERS_DIR/agent.options" "dataplane kernel"; } \
	>/etc/l2tpsel/l2tpseld.conf
chmod 0600 /etc/l2tpsel/l2tpseld.conf
cat >/etc/l2tpsel/l2tpsel.conf <<-KCONF
profile add demo
tunnel add lns-1 profile demo level 0 dest 10.220.0.11
tunnel add spare profile demo level 1 dest 10.220.0.13
domain add example profile demo
KCONF
chmod 0600 /etc/l2tpsel/l2tpsel.conf
hub() { ip netns exec "$PEERS_HUB" "$@"; }
# unit_lines KEY: the unit's KEY= command lines, without systemd's prefixes
unit_lines() { sed -n "s/^$1=[-+@!:]*//p" "$unit"; }
while read -r line; do
	echo "ExecStartPre: $line"
	out=$(hub $line 2>&1)
	check_err $? "ExecStartPre \"$line\": $out"
done < <(unit_lines ExecStartPre)
line=$(unit_lines ExecStart)
echo "ExecStart: $line"
ip netns exec "$PEERS_HUB" $line >"$PEERS_DIR/agent.log" 2>&1 &
agent=$!	# ip netns exec becomes the agent: this is its MAINPID
defer kill_wait $agent
wait_for 10 test -S "$PEERS_DIR/agent.sock"
check_err $? "the agent of \"$line\" did not open its socket: $(tail -5 "$PEERS_DIR/agent.log")"
out=$(peers_login start user@example)
echo "$out"
has_line '^done ok' "$out"
check_err $? "the login through the unit's agent failed"
id=$(sed -n 's/^done ok session \([0-9]*\).*/\1/p' <<<"$out")
sessions() { hub "$L2TPSEL_CLI" tunnel show | awk -v t="$1" '$1 == t { for (i = 2; i < NF; i++) if ($i == "sessions") print $(i + 1) }'; }
[ "$(sessions lns-1)" = 1 ]
check_err $? "the kernel does not count the session on lns-1: $(hub "$L2TPSEL_CLI" tunnel show)"
log_test "the unit's ExecStartPre and ExecStart lines: configuration applied, agent up, a login to lns-1"

# reload: "spare" removed, lns-2 added; the live session stays
cat >/etc/l2tpsel/l2tpsel.conf <<-KCONF
profile add demo
tunnel add lns-1 profile demo level 0 dest 10.220.0.11
tunnel add lns-2 profile demo level 0 dest 10.220.0.12
domain add example profile demo
KCONF
while read -r line; do
	line=${line//\$MAINPID/$agent}
	echo "ExecReload: $line"
	out=$(hub $line 2>&1)
	check_err $? "ExecReload \"$line\": $out"
	[ -z "$out" ] || echo "$out"
done < <(unit_lines ExecReload)
wait_for 10 grep -q 'SIGHUP: configuration reloaded' "$PEERS_DIR/agent.log"
check_err $? "the agent logged no reload: $(tail -5 "$PEERS_DIR/agent.log")"
tunnels=$(hub "$L2TPSEL_CLI" tunnel show | awk '{ print $1 }' | sort | tr '\n' ' ')
[ "$tunnels" = "lns-1 lns-2 " ]
check_err $? "after the reload the kernel has tunnels: $tunnels"
[ "$(sessions lns-1)" = 1 ]
check_err $? "the live session on lns-1 is no longer counted"
kill -0 $agent && peers_login show | grep -q "user@example"
check_err $? "the agent lost the live login: $(peers_login show 2>&1)"
out=$(peers_login start user2@example)
has_line '^done ok' "$out"
check_err $? "a login after the reload failed: $out"
log_test "the unit's ExecReload lines: a tunnel added, one removed, the live session kept"
peers_login stop "$id" >/dev/null

exit $EXIT_STATUS
