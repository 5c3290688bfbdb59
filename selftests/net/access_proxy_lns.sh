#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only real peers: the agent's behaviour, Debian's kernel suffices
#
# A subscriber's PAP request reaches an LNS that takes the proxy LCP
# (RFC 2661 section 4.4.5) at once, not at the subscriber's retransmission
# (S-STORM-4).  The LAC holds the subscriber's Authenticate-Request while it
# logs in and places the call; an LNS that keeps the proxied LCP and waits
# for the authentication (selftests/proxy_lns.py, what RFC 2661 allows and
# pppd-based LNS do not do) answers the first request it receives through
# the bridge.  pppd's PAP restart timer is 3 s: without the hand-over the
# subscriber sends its request twice and waits 3 s for the Ack.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../peers.sh"
source "$(dirname "$0")/../access.sh"

L=$L2TPSEL_CLI
PLNS=10.220.0.21

require_root
require_cmd python3
peers_require
access_require
mod_load || fail "insmod $L2TPSEL_KO failed"

peers_init 10.210.0.1 || fail "cannot set up the hub"
peers_add "plns $PLNS" || fail "cannot add the LNS's namespace"
HUB=$PEERS_HUB
D=$PEERS_DIR
access_init 1 || fail "cannot set up the subscribers' link"
keep_logs "$D"

ip netns exec "$(peer_ns plns)" python3 "$TOP/selftests/proxy_lns.py" "$PLNS" >"$D/plns.log" 2>&1 &
defer kill_wait $!
wait_for 10 grep -q '^ready' "$D/plns.log" || fail "proxy_lns.py did not start: $(cat "$D/plns.log")"

printf '%s\n' "profile add P" "tunnel add T1 profile P level 0 dest $PLNS" \
	"domain add example profile P" >"$D/config"
hub "$L" -b "$D/config" >/dev/null || fail "hub configuration failed"
agent_start -o 'access-auth pap' -o 'access-pap-handover yes'

t0=$(date +%s%N)
dial 0 alice@example pap-restart 3 pap-max-authreq 5
acked() { grep -q 'rcvd \[PAP AuthAck' "$D/sub0.log" 2>/dev/null; }
wait_for 20 acked
check_err $? "the subscriber got no PAP Authenticate-Ack: $(tail -5 "$D/plns.log" | tr '\n' ' ')"
ms=$((($(date +%s%N) - t0) / 1000000))
sent=$(grep -c 'sent \[PAP AuthReq' "$D/sub0.log")
log_info "PADI to PAP Ack at the subscriber: $ms ms; PAP requests sent: $sent; at the LNS: $(grep -c '^pap-request' "$D/plns.log")"
grep -q '^call' "$D/plns.log"
check_err $? "the LNS has no call"
expect "$sent" 1 "PAP requests the subscriber sent"
log_test "PAP: the LNS that keeps the proxy LCP answers the subscriber's first request"

kill_wait "${SUBPID[0]}"
wait_for 15 sessions_are 0
check_err $? "the session is still counted after the subscriber left"
log_test "the subscriber leaves: counts 0"

[ "$EXIT_STATUS" = 0 ] || show_logs
exit $EXIT_STATUS
