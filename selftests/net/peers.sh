#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only real peers: Debian's kernel only (L2TPSEL_PEERS_ON_DEBUG=1 runs it on the debug kernel)
#
# The end-to-end tests' peers (selftests/peers.sh) do what they promise
# (S-L2TP-4): three xl2tpd LNS on addresses of their own each answer
# an SCCRQ with SCCRP and their own host name; a silent destination swallows
# SCCRQs with no reply and no ICMP (while a closed port does answer with
# ICMP); netem loss and delay act on a peer's link; an xl2tpd LAC gets a PPP
# link through one of the LNS and a ping across it; a "cdn" LNS answers the
# ICRQ with CDN.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../peers.sh"

require_root
peers_require

peers_init 10.210.0.1 || fail "cannot set up the hub"
t0=${EPOCHREALTIME/./}000
peers_add "lns1 10.220.0.11" "lns2 10.220.0.12" "lns3 10.220.0.13" "cdn 10.220.0.14" \
	"quiet 10.220.0.99" "lac 10.220.0.50" "lac2 10.220.0.51" || fail "cannot add the peers"
echo "hub and 7 peer namespaces in $(((${EPOCHREALTIME/./}000 - t0) / 1000000)) ms"
t0=${EPOCHREALTIME/./}000
peer_lns_start lns1 host lns-one
check_err $? "xl2tpd lns1 did not start"
peer_lns_start lns2 host lns-two
check_err $? "xl2tpd lns2 did not start"
peer_lns_start lns3 host lns-three
check_err $? "xl2tpd lns3 did not start"
peer_lns_start cdn cdn
check_err $? "xl2tpd cdn did not start"
peer_silent_start quiet
check_err $? "the silent destination did not start"
peers_ready
check_err $? "a peer did not start"
echo "4 LNS and a silent destination in $(((${EPOCHREALTIME/./}000 - t0) / 1000000)) ms"
log_test "peers: 4 xl2tpd LNS and a silent destination running"
[ "$EXIT_STATUS" = 0 ] || { peers_show; exit $EXIT_STATUS; }

# --- who answers --------------------------------------------------------------
for p in "lns1 lns-one" "lns2 lns-two" "lns3 lns-three"; do
	read -r name host <<<"$p"
	out=$(peers_probe ${PEER_ADDR[$name]} timeout 3000)
	rc=$?
	echo "$out"
	[ $rc = 0 ] && grep -q "host name \"$host\"" <<<"$out"
	check_err $? "$name (${PEER_ADDR[$name]}) did not answer SCCRP as $host (exit $rc)"
done
log_test "each of the three LNS answers SCCRP with its own host name"

out=$(peers_probe ${PEER_ADDR[quiet]} timeout 2500)
rc=$?
echo "$out; it swallowed $(peer_silent_count quiet) datagram(s)"
[ $rc = 2 ]
check_err $? "the silent destination did not stay silent (probe exit $rc)"
[ "$(peer_silent_count quiet)" -ge 2 ]
check_err $? "the silent destination did not receive the SCCRQ and its retransmission"
log_test "the silent destination receives SCCRQs, answers nothing, no ICMP"

out=$(peers_probe ${PEER_ADDR[lns1]}:1702 timeout 2000)
rc=$?
echo "$out"
[ $rc = 3 ]
check_err $? "a closed port on lns1 did not answer with ICMP port unreachable (exit $rc)"
log_test "a closed port (unlike the silent destination) answers with ICMP"

# --- netem --------------------------------------------------------------------
peer_netem lns2 from loss 100%
check_err $? "tc netem on lns2 failed"
peers_probe ${PEER_ADDR[lns2]} timeout 1500
check_err $(($? != 2)) "lns2 answered through 100% loss"
peer_netem_clear lns2
peers_probe ${PEER_ADDR[lns2]} timeout 3000 >/dev/null
check_err $? "lns2 did not answer once the loss was gone"
peer_netem lns3 to delay 400ms
check_err $? "tc netem on lns3 failed"
out=$(peers_probe ${PEER_ADDR[lns3]} timeout 3000)
check_err $? "lns3 did not answer through a 400 ms delay"
echo "$out"
ms=$(sed -n 's/.*SCCRP after \([0-9]*\) ms.*/\1/p' <<<"$out")
[ "${ms:-0}" -ge 400 ]
check_err $? "the SCCRP came after ${ms:-?} ms, not after the 400 ms delay"
peer_netem_clear lns3
peer_netem lns3 sideways loss 1% 2>/dev/null
check_fail $? "peer_netem took a direction that does not exist"
log_test "netem loss and delay act on a peer's link, and go away"

# --- an xl2tpd LAC through an LNS, PPP and ping ------------------------------
peer_lac_start lac ${PEER_ADDR[lns1]} host lac-one && peers_ready
check_err $? "xl2tpd lac did not start"
peer_lac_dial lac
lac_ppp() {
	[ -n "$(ppp_addr "${PEER_NS[lac]}")" ]
}
# Generous: the wait ends when PPP is up (a few seconds), and a loaded CI
# host has made it take over 20.
wait_for 60 lac_ppp
check_err $? "no PPP link in the LAC's namespace within 60 s"
echo "LAC: $(ppp_addr "${PEER_NS[lac]}"), lns1: $(ppp_addr "${PEER_NS[lns1]}")"
ip netns exec "${PEER_NS[lac]}" ping -c 3 -i 0.2 -W 3 "$(peer_lns_ppp_addr lns1)" >/dev/null
check_err $? "no ping from the LAC to lns1's end of the PPP link"
peer_lac_hangup lac
log_test "an xl2tpd LAC gets PPP through lns1, a ping crosses it"

# --- the CDN LNS --------------------------------------------------------------
peers_probe ${PEER_ADDR[cdn]} timeout 3000 >/dev/null
check_err $? "the cdn LNS does not answer SCCRP"
peer_lac_start lac2 ${PEER_ADDR[cdn]} && peers_ready
check_err $? "xl2tpd lac2 did not start"
peer_lac_dial lac2
cdn_seen() {
	# xl2tpd as LAC logs the CDN's error message.
	grep -q "No available IP address" "$PEERS_DIR/lac2-xl2tpd.log"
}
wait_for 30 cdn_seen
check_err $? "no CDN from the cdn LNS within 30 s"
grep -h "No available IP address" "$PEERS_DIR/lac2-xl2tpd.log" | head -n 2
[ -z "$(ppp_addr "${PEER_NS[lac2]}")" ]
check_err $? "lac2 has a PPP link through the cdn LNS"
log_test "the cdn LNS answers the ICRQ with CDN, no PPP"

[ "$EXIT_STATUS" = 0 ] || peers_show
exit $EXIT_STATUS
