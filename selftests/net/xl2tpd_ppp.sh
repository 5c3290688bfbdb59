#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only real peers: Debian's kernel only (L2TPSEL_PEERS_ON_DEBUG=1 runs it on the debug kernel)
#
# Real L2TP peers in the harness: xl2tpd as LNS in one namespace, xl2tpd as
# LAC in another, joined by a veth pair.  The LAC dials, the kernel gets a
# tunnel and a session (l2tp_ppp), pppd brings up a PPP link on both ends,
# and a ping crosses it.  l2tpsel is loaded alongside and must not get in the
# way.  Every address lives in namespaces this test creates.
#
# The layout and the daemons' settings are lib.sh's "real L2TP peers".
source "$(dirname "$0")/../lib.sh"

require_root
require_module_file
require_l2tp_peers
# xl2tpd's and the kernel's work, l2tpsel only loaded: nothing for KASAN to
# see in l2tpsel (as peers.sh's peers_require without "debug")
[ -z "$L2TPSEL_DEBUG_KERNEL" ] || [ "${L2TPSEL_PEERS_ON_DEBUG:-}" = 1 ] ||
	skip "Debian's kernel only (L2TPSEL_PEERS_ON_DEBUG=1 runs it on the debug kernel)"

mod_load || fail "insmod $L2TPSEL_KO failed"
setup_ns lac lns || fail "cannot create namespaces"
make_tmpdir d || fail "cannot create a temporary directory"

veth_link "$lac" $PEER_LAC_ADDR "$lns" $PEER_LNS_ADDR
check_err $? "cannot set up the veth pair"
ip netns exec "$lac" ping -q -c 1 -W 2 $PEER_LNS_ADDR >/dev/null
check_err $? "the underlay does not ping"
log_test "veth underlay between $lac and $lns"
[ "$EXIT_STATUS" = 0 ] || exit $EXIT_STATUS

peers_write_config "$d"
xl2tpd_start lns "$lns" "$d"
check_err $? "xl2tpd (LNS) did not start"
xl2tpd_start lac "$lac" "$d"
check_err $? "xl2tpd (LAC) did not start"
log_test "xl2tpd LNS in $lns and LAC in $lac are running"
[ "$EXIT_STATUS" = 0 ] || { peers_show "$d" "$lac" "$lns"; exit $EXIT_STATUS; }

ppp_up() {
	[ -n "$(ppp_addr "$lac")" ] && [ -n "$(ppp_addr "$lns")" ]
}
# xl2tpd against xl2tpd races itself now and then: the LNS moves the tunnel
# to a new connected socket when the SCCCN comes, the LAC's ICRQ sent with
# it is read late and the LAC closes the tunnel on "Received out of order
# control packet".  That is neither l2tpsel's doing nor what this test is
# about: the LAC dials once more when it happened.
xl2tpd_raced() {
	grep -q 'Received out of order control packet' "$d/lac-xl2tpd.log" &&
		grep -q 'control_finish: Connection closed' "$d/lac-xl2tpd.log"
}
t0=$(date +%s%N)
echo "c lns" >"$d/lac.ctrl"
wait_for 20 ppp_up
rc=$?
if [ $rc != 0 ] && xl2tpd_raced; then
	echo "# xl2tpd's own race closed the first tunnel: dialling again"
	echo "d lns" >"$d/lac.ctrl"
	sleep 1
	t0=$(date +%s%N)
	echo "c lns" >"$d/lac.ctrl"
	wait_for 20 ppp_up
	rc=$?
fi
check_err $rc "no PPP link with addresses on both ends within 20 s"
echo "PPP up after $((($(date +%s%N) - t0) / 1000000)) ms"
read -r lac_if lac_addr <<<"$(ppp_addr "$lac")"
read -r lns_if lns_addr <<<"$(ppp_addr "$lns")"
echo "LAC ${lac_if:-?} ${lac_addr:-?}, LNS ${lns_if:-?} ${lns_addr:-?}"
[ "${lns_addr:-}" = "$PEER_LNS_PPP" ]
check_err $? "the LNS end of the link has ${lns_addr:-no address}, not $PEER_LNS_PPP"
log_test "PPP link up"

# The data path is the kernel's: one tunnel on each side, and one data
# session whose peer is the other side's.
for ns in "$lac" "$lns"; do
	tunnels=$(ip -n "$ns" l2tp show tunnel | grep -c '^Tunnel')
	sessions=$(l2tp_data_sessions "$ns")
	echo "$ns: $tunnels tunnel(s), data session(s) (id peer): ${sessions:-none}"
	[ "$tunnels" = 1 ]
	check_err $? "$ns: not exactly one kernel L2TP tunnel"
	[ -n "$sessions" ] && [ "$(wc -l <<<"$sessions")" = 1 ]
	check_err $? "$ns: not exactly one kernel L2TP data session"
done
read -r lac_sid lac_peer <<<"$(l2tp_data_sessions "$lac")"
read -r lns_sid lns_peer <<<"$(l2tp_data_sessions "$lns")"
[ -n "${lac_sid:-}" ] && [ "$lac_sid" = "${lns_peer:-}" ] && [ "${lac_peer:-}" = "${lns_sid:-}" ]
check_err $? "the two sessions are not each other's peer"
log_test "one kernel tunnel and one data session on each side, paired"

ip netns exec "$lac" ping -c 3 -i 0.2 -W 2 "$PEER_LNS_PPP"
check_err $? "ping from the LAC to $PEER_LNS_PPP over PPP failed"
ip netns exec "$lns" ping -c 3 -i 0.2 -W 2 "${lac_addr:-0.0.0.0}"
check_err $? "ping from the LNS to ${lac_addr:-?} over PPP failed"
log_test "ping crosses the PPP link both ways"

# Hang up from the LAC side: the PPP link goes away cleanly.
echo "d lns" >"$d/lac.ctrl"
ppp_gone() {
	! ip -n "$lac" -o link show | grep -q ': ppp'
}
wait_for 10 ppp_gone
check_err $? "the LAC's PPP interface is still there 10 s after hanging up"
log_test "hang-up removes the PPP link"

[ "$EXIT_STATUS" = 0 ] || peers_show "$d" "$lac" "$lns"
exit $EXIT_STATUS
