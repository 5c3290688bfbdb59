#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Real L2TP peers in the harness: xl2tpd as LNS in one namespace, xl2tpd as
# LAC in another, joined by a veth pair.  The LAC dials, the kernel gets a
# tunnel and a session (l2tp_ppp), pppd brings up a PPP link on both ends,
# and a ping crosses it.  l2tpsel is loaded alongside and must not get in the
# way.  Every address lives in namespaces this test creates.
#
#   lac-XXXX  veth0 10.200.0.2/24  <--->  veth0 10.200.0.1/24  lns-XXXX
#             pppN  10.201.0.x      <--PPP over L2TP-->  pppN 10.201.0.1
source "$(dirname "$0")/../lib.sh"

LNS_UNDERLAY=10.200.0.1
LAC_UNDERLAY=10.200.0.2
LNS_PPP=10.201.0.1
POOL=10.201.0.10-10.201.0.20

require_root
require_cmd ip xl2tpd pppd ping
require_module_file
require_kmod veth l2tp_ppp
ls /usr/lib/pppd/*/pppol2tp.so >/dev/null 2>&1 || skip "pppd has no pppol2tp.so plugin"

mod_load || fail "insmod $L2TPSEL_KO failed"
setup_ns lac lns || fail "cannot create namespaces"
make_tmpdir d || fail "cannot create a temporary directory"

ip -n "$lac" link add veth0 type veth peer name veth0 netns "$lns" &&
	ip -n "$lac" addr add $LAC_UNDERLAY/24 dev veth0 &&
	ip -n "$lns" addr add $LNS_UNDERLAY/24 dev veth0 &&
	ip -n "$lac" link set veth0 up &&
	ip -n "$lns" link set veth0 up
check_err $? "cannot set up the veth pair"
ip netns exec "$lac" ping -q -c 1 -W 2 $LNS_UNDERLAY >/dev/null
check_err $? "the underlay does not ping"
log_test "veth underlay between $lac and $lns"
[ "$EXIT_STATUS" = 0 ] || exit $EXIT_STATUS

# pppd: no authentication either way, addresses from the LNS, IPv4 only, a
# log of its own; nothing through syslog (there is none in the VM), none of
# the host's /etc/ppp/ip-up.d scripts.
ppp_options() {
	cat <<-OPT
	noauth
	ipcp-accept-local
	ipcp-accept-remote
	nodefaultroute
	noipdefault
	mtu 1400
	mru 1400
	lcp-echo-interval 0
	noipv6
	ip-up-script /bin/true
	ip-down-script /bin/true
	logfile $d/$1-pppd.log
	debug
	OPT
}
ppp_options lns >"$d/lns.options"
ppp_options lac >"$d/lac.options"

cat >"$d/lns.conf" <<EOF2
[global]
listen-addr = $LNS_UNDERLAY
port = 1701
access control = no

[lns default]
ip range = $POOL
local ip = $LNS_PPP
require authentication = no
refuse pap = yes
refuse chap = yes
length bit = yes
name = l2tpsel-lns
pppoptfile = $d/lns.options
EOF2

cat >"$d/lac.conf" <<EOF2
[global]
listen-addr = $LAC_UNDERLAY
port = 1701
access control = no

[lac lns]
lns = $LNS_UNDERLAY
require authentication = no
refuse pap = yes
refuse chap = yes
autodial = no
redial = no
length bit = yes
name = l2tpsel-lac
pppoptfile = $d/lac.options
EOF2

# start_xl2tpd ROLE NS: in the foreground (-D) as far as xl2tpd knows, in the
# background here, logging to $d/ROLE-xl2tpd.log.
start_xl2tpd() {
	ip netns exec "$2" xl2tpd -D -c "$d/$1.conf" -p "$d/$1.pid" -C "$d/$1.ctrl" \
		-s /dev/null >"$d/$1-xl2tpd.log" 2>&1 &
	defer kill_quiet $!
	wait_for 5 test -p "$d/$1.ctrl"
}
kill_quiet() {
	kill "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

show_logs() {
	local f
	for f in "$d"/*.log; do
		echo "--- $(basename "$f")"
		tail -n 40 "$f"
	done
	for ns in "$lac" "$lns"; do
		echo "--- $ns"
		ip -n "$ns" -br addr
		ip -n "$ns" l2tp show tunnel
		ip -n "$ns" l2tp show session
	done
}

# ppp_addr NS: the PPP interface of NS with an IPv4 address, as "IF ADDR".
ppp_addr() {
	ip -n "$1" -4 -o addr show 2>/dev/null |
		awk '$2 ~ /^ppp/ { split($4, a, "/"); print $2, a[1]; exit }'
}
ppp_up() {
	[ -n "$(ppp_addr "$lac")" ] && [ -n "$(ppp_addr "$lns")" ]
}

start_xl2tpd lns "$lns"
check_err $? "xl2tpd (LNS) did not start"
start_xl2tpd lac "$lac"
check_err $? "xl2tpd (LAC) did not start"
log_test "xl2tpd LNS in $lns and LAC in $lac are running"
[ "$EXIT_STATUS" = 0 ] || { show_logs; exit $EXIT_STATUS; }

t0=$(date +%s%N)
echo "c lns" >"$d/lac.ctrl"
wait_for 20 ppp_up
check_err $? "no PPP link with addresses on both ends within 20 s"
echo "PPP up after $((($(date +%s%N) - t0) / 1000000)) ms"
read -r lac_if lac_addr <<<"$(ppp_addr "$lac")"
read -r lns_if lns_addr <<<"$(ppp_addr "$lns")"
echo "LAC $lac_if $lac_addr, LNS $lns_if $lns_addr"
[ "${lns_addr:-}" = "$LNS_PPP" ]
check_err $? "the LNS end of the link has ${lns_addr:-no address}, not $LNS_PPP"
log_test "PPP link up"

# The data path is the kernel's: one tunnel on each side, and one data
# session whose peer is the other side's (xl2tpd also keeps a session 0 per
# tunnel for its control socket).
# sessions NS: "SID PEER_SID" per data session of NS.
sessions() {
	ip -n "$1" l2tp show session |
		awk '/^Session [0-9]+ in tunnel/ { sid = $2 }
		     /^  Peer session/ { sub(",", "", $3); if (sid != 0) print sid, $3 }'
}
for ns in "$lac" "$lns"; do
	echo "$ns: $(ip -n "$ns" l2tp show tunnel | grep -c '^Tunnel') tunnel(s), data sessions: $(sessions "$ns" | tr '\n' ' ')"
	[ "$(ip -n "$ns" l2tp show tunnel | grep -c '^Tunnel')" = 1 ]
	check_err $? "$ns: not exactly one kernel L2TP tunnel"
	[ "$(sessions "$ns" | wc -l)" = 1 ]
	check_err $? "$ns: not exactly one kernel L2TP data session"
done
read -r lac_sid lac_peer <<<"$(sessions "$lac")"
read -r lns_sid lns_peer <<<"$(sessions "$lns")"
[ -n "${lac_sid:-}" ] && [ "$lac_sid" = "${lns_peer:-}" ] && [ "${lac_peer:-}" = "${lns_sid:-}" ]
check_err $? "the two sessions are not each other's peer"
log_test "one kernel tunnel and one data session on each side, paired"

ip netns exec "$lac" ping -c 3 -i 0.2 -W 2 "$LNS_PPP"
check_err $? "ping from the LAC to $LNS_PPP over PPP failed"
ip netns exec "$lns" ping -c 3 -i 0.2 -W 2 "${lac_addr:-0.0.0.0}"
check_err $? "ping from the LNS to ${lac_addr:-?} over PPP failed"
log_test "ping crosses the PPP link both ways"

# Hang up from the LAC side: the session goes away cleanly.
echo "d lns" >"$d/lac.ctrl"
wait_for 10 bash -c "[ -z \"\$(ip -n $lac -o link show type ppp 2>/dev/null)\" ]"
check_err $? "the LAC's PPP interface is still there 10 s after hanging up"
log_test "hang-up removes the PPP link"

[ "$EXIT_STATUS" = 0 ] || show_logs
exit $EXIT_STATUS
