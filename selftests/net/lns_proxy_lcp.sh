#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only real peers: pppd and its plugin, Debian's kernel suffices
#
# The LNS role with `proxy-lcp yes` takes the proxied LCP and PAP (RFC 2661
# section 4.4.5, Documentation/l2tpseld.md "Proxy LCP").  A PPPoE subscriber
# (pppd with its pppoe plugin) dials l2tpseld as LAC (access-auth pap),
# whose call goes to l2tpseld as LNS; the LNS's pppd checks the password in
# its pap-secrets (a tmpfs on /etc/ppp in the LNS's mount namespace).
#
#   - proxy-lcp yes: the subscriber sees one LCP Configure-Request and one
#     Configure-Ack (the LAC's), sends one PAP request, gets the LNS's
#     Ack, IPCP comes up and a ping crosses; LCP Echo both ways with the
#     proxied magic numbers; the LNS's pppd sent no Configure-Request; the
#     LNS counts proxy-lcp-taken 1;
#   - the LNS's options file says another mru: the plugin leaves LCP to
#     pppd, which negotiates again (a second Configure-Request at the
#     subscriber), and the call still comes up;
#   - CHAP (access-auth chap): the LCP is taken, the LNS's pppd challenges
#     the subscriber again (its CHAP server checks only its own
#     challenges), and the call comes up.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../peers.sh"
source "$(dirname "$0")/../access.sh"

L=$L2TPSEL_CLI
LNS=10.220.0.41
PLUGIN=${L2TPSEL_PROXY_LCP_PLUGIN:-$TOP/build/pppd_proxy_lcp.so}

require_root
peers_require
access_require
[ -r "$PLUGIN" ] || skip "no $PLUGIN (make, with pppd's headers: ppp-dev)"
mod_load || fail "insmod $L2TPSEL_KO failed"

peers_init 10.210.0.1 || fail "cannot set up the hub"
peers_add "lns $LNS" || fail "cannot add the LNS's namespace"
D=$PEERS_DIR
LNS_NS=$(peer_ns lns)
access_init 3 || fail "cannot set up the subscribers' link"
keep_logs "$D"

lns_pppd_options "$D" auth 'lcp-echo-interval 1' 'lcp-echo-failure 3'

# lns_start PROXY: the LNS l2tpseld with proxy-lcp PROXY, pap-secrets of its own
lns_start() {
	LNS_PPP_SECRETS='"alice@example" * "secret" *' l2tpseld_lns_start "$LNS_NS" "$D" "$LNS" \
		-o 'hostname lns-proxy' -o "proxy-lcp $1" -o "proxy-lcp-plugin $PLUGIN" ||
		fail "the LNS l2tpseld did not start"
}
lns_idle() { [ "$(val "$(ip netns exec "$LNS_NS" "$L" summary)" sessions)" = 0 ]; }
lns_stat() { val "$(ip netns exec "$LNS_NS" "$L" login stats socket "$D/lns.sock" | head -1)" "$1"; }

printf '%s\n' "profile add P" "tunnel add T1 profile P level 0 dest $LNS" \
	"domain add example profile P" >"$D/config"
hub "$L" -b "$D/config" >/dev/null || fail "hub configuration failed"
agent_start -o 'access-auth pap'

show_logs_proxy() {
	show_logs
	echo "--- lns.log"; tail -30 "$D/lns.log"
	echo "--- lns-pppd.log"; tail -40 "$D/lns-pppd.log"
}

# call N WHAT [pppd option...]: subscriber N up, a ping across; sets
# CONFREQS (LCP Configure-Requests the subscriber received), ACKS
# (Configure-Acks it received), PAPS (PAP requests it sent), CHALS (CHAP
# Challenges it received), LNSREQ (the LNS pppd's requests)
call() {
	local n=$1 what=$2
	shift 2
	: >"$D/lns-pppd.log"
	dial "$n" alice@example "$@"
	wait_for 30 sub_up "$n"
	check_err $? "$what: subscriber $n: no IPCP"
	sub_ping "$n" 10.240.0.1
	check_err $? "$what: subscriber $n: no answer to a ping to the LNS"
	CONFREQS=$(grep -c 'rcvd \[LCP ConfReq' "$D/sub$n.log")
	ACKS=$(grep -c 'rcvd \[LCP ConfAck' "$D/sub$n.log")
	PAPS=$(grep -c 'sent \[PAP AuthReq' "$D/sub$n.log")
	CHALS=$(grep -c 'rcvd \[CHAP Challenge' "$D/sub$n.log")
	LNSREQ=$(grep -c 'sent \[LCP ConfReq' "$D/lns-pppd.log")
	log_info "$what: the subscriber received $CONFREQS LCP Configure-Requests and $ACKS Acks, sent $PAPS PAP requests, received $CHALS CHAP Challenges; the LNS's pppd sent $LNSREQ Configure-Requests"
	kill_wait "${SUBPID[$n]}"
	wait_for 15 sessions_are 0
	check_err $? "$what: the session is still counted after the subscriber left"
	wait_for 15 lns_idle
	check_err $? "$what: the LNS still has the call"
}

lns_start yes
# the subscriber's echoes too, until its link is checked both ways
call 0 "proxy-lcp yes" lcp-echo-interval 1 lcp-echo-failure 3
expect "$CONFREQS" 1 "LCP Configure-Requests at the subscriber"
expect "$ACKS" 1 "LCP Configure-Acks at the subscriber"
expect "$PAPS" 1 "PAP requests the subscriber sent"
expect "$LNSREQ" 0 "LCP Configure-Requests of the LNS's pppd"
grep -q 'rcvd \[PAP AuthAck' "$D/sub0.log"
check_err $? "the subscriber got no PAP Ack"
grep -q 'LCP opened with the proxied options' "$D/lns-pppd.log"
check_err $? "the LNS's pppd did not open LCP by proxy"
expect "$(lns_stat proxy-lcp-taken)" 1 "the LNS's proxy-lcp-taken"
grep -q 'rcvd \[LCP EchoRep' "$D/sub0.log" && grep -q 'rcvd \[LCP EchoReq' "$D/sub0.log"
check_err $? "the subscriber saw no LCP Echo with the LNS"
! grep -Eq 'own echo|looped back|appears to be disconnected' "$D/sub0.log" "$D/lns-pppd.log"
check_err $? "LCP Echo: a magic number was wrong or echoes were lost"
log_test "proxy-lcp yes: one LCP negotiation at the subscriber, PAP checked once, IPCP and a ping"

# pppd reads its options file at each start: another mru than the proxied one
cp "$D/lns.options" "$D/lns.options.orig"
echo "mru 1400" >>"$D/lns.options"
call 1 "LNS mru 1400"
[ "$CONFREQS" -ge 2 ] && [ "$LNSREQ" -ge 1 ]
check_err $? "LNS mru 1400: LCP was not negotiated again"
grep -q 'l2tpsel proxy LCP: not used, pppd.s mru' "$D/lns-pppd.log"
check_err $? "LNS mru 1400: the plugin did not say why"
cp "$D/lns.options.orig" "$D/lns.options"
log_test "an LNS mru other than the proxied one: pppd negotiates LCP again, the call comes up"

kill_wait "$AGENT"
agent_start -o 'access-auth chap'
call 2 "CHAP"
expect "$CONFREQS" 1 "CHAP: LCP Configure-Requests at the subscriber"
expect "$ACKS" 1 "CHAP: LCP Configure-Acks at the subscriber"
expect "$CHALS" 2 "CHAP: Challenges at the subscriber (the LAC's, the LNS's)"
expect "$LNSREQ" 0 "CHAP: LCP Configure-Requests of the LNS's pppd"
grep -q 'rcvd \[CHAP Success' "$D/sub2.log"
check_err $? "CHAP: the subscriber got no CHAP Success"
# the agent took all three for pppd; in the second pppd's mru said no
expect "$(lns_stat proxy-lcp-taken)" 3 "the LNS's proxy-lcp-taken"
log_test "CHAP: the LCP taken, the LNS's pppd challenges again, IPCP and a ping"

[ "$EXIT_STATUS" = 0 ] || show_logs_proxy
exit $EXIT_STATUS
