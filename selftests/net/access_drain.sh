#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only real peers: Debian's kernel only (L2TPSEL_PEERS_ON_DEBUG=1 runs it on the debug kernel)
#
# The access side's PADO delay and the whole LAC's drain (S-OPS-1), with
# Debian's pppoe-discovery and pppd's pppoe plugin as subscribers
# (selftests/access.sh) and an xl2tpd LNS behind the agent:
#
#   - "pado-delay 0:400,1:off": with no subscriber the PADO comes after
#     400 ms, not before; a subscriber dials and comes up (its PADR for the
#     delayed PADO served); with one subscriber there is no PADO;
#   - "login drain on": the subscriber stays up (ping across), then leaves;
#     with no subscriber still no PADO (drained), and the drain's answer
#     says drained; "login drain off": PADOs again.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../peers.sh"
source "$(dirname "$0")/../access.sh"

L=$L2TPSEL_CLI

require_root
peers_require
access_require
require_cmd pppoe-discovery
mod_load || fail "insmod $L2TPSEL_KO failed"

peers_init 10.213.0.1 || fail "cannot set up the hub"
peers_add "lns1 10.223.0.11" || fail "cannot add the peer"
peer_lns_start lns1 host lns-one || fail "xl2tpd lns1 did not start"
HUB=$PEERS_HUB
D=$PEERS_DIR
access_init 2 || fail "cannot set up the subscribers' link"
printf '%s\n' "profile add P" "tunnel add T1 profile P level 0 dest 10.223.0.11" \
	"domain add example profile P" | hub "$L" -b - >/dev/null || fail "hub configuration failed"
peers_ready || fail "xl2tpd did not start"
LNS_PPP=$(peer_lns_ppp_addr lns1)
keep_logs "$D"

rm -f "$D/agent.sock"
ip netns exec "$HUB" "$L2D" -o 'kernel netlink' -o 'dataplane kernel' \
	-o "socket $D/agent.sock" -o 'hostname lac-agent' -o 'access-auth pap' \
	-o 'access pppoe acc0 ac-name test-ac pado-delay 0:400,1:off' -o 'log-level 2' \
	2>>"$D/agent.log" &
AGENT=$!
defer kill_wait $AGENT
wait_for 10 test -S "$D/agent.sock" || fail "l2tpseld did not start: $(tail -3 "$D/agent.log")"
agent() { "$L" login "$@" socket "$D/agent.sock"; }

# discover N: pppoe-discovery from subscriber interface sN, one PADI, 2 s;
# prints the ms from its PADI to the PADO by its debug log's timestamps
# (-1 when none came) and whether an offer came (1/0)
discover() {
	local out
	rm -f "$D/disc.log"
	out=$(subs timeout 10 pppoe-discovery -I "s$1" -t 2 -a 1 -D "$D/disc.log" 2>&1)
	echo "$(awk 'function ms(t, a) { split(t, a, ":"); return (a[1] * 3600 + a[2] * 60 + a[3]) * 1000 }
		$2 == "SENT" && / PADI / { s = ms($1) } $2 == "RCVD" && / PADO / && !r { r = ms($1) }
		END { printf "%d", r ? r - s : -1 }' "$D/disc.log") $(grep -c 'Access-Concentrator: test-ac' <<<"$out")"
}

# --- the delay, on the loop's timer --------------------------------------------
read -r ms got <<<"$(discover 1)"
echo "PADO after a PADI with no subscriber: offer $got in $ms ms (pado-delay 400)"
[ "$got" = 1 ] && [ "$ms" -ge 400 ] && [ "$ms" -lt 1000 ]
check_err $? "no PADO, or not after 400 ms ($got in $ms ms)"
expect "$(astat pado-delayed)" 1 "pado-delayed"
log_test "pado-delay 400: the PADO comes after 400 ms"

dial 0 alice@example
wait_for 30 sub_up 0
check_err $? "subscriber 0 did not come up through a delayed PADO"
sub_ping 0 "$LNS_PPP"
check_err $? "no ping from subscriber 0"
read -r ms got <<<"$(discover 1)"
echo "with one subscriber: offer $got in $ms ms (1:off)"
[ "$got" = 0 ]
check_err $? "a PADO with one subscriber (step 1:off)"
[ "$(astat pado-withheld)" -ge 1 ]
check_err $? "pado-withheld not counted"
log_test "a subscriber up through a delayed PADO; from 1 subscriber on, no PADO"

# --- the whole LAC drained -------------------------------------------------------
out=$(agent drain on)
echo "$out"
has_line '^drain draining sessions 1 api on config no' "$out"
check_err $? "drain on did not answer draining with 1 session"
sub_ping 0 "$LNS_PPP"
check_err $? "the subscriber lost its session when the LAC was drained"
kill "${SUBPID[0]}"
wait_for 15 sessions_are 0
check_err $? "the session is still counted after the subscriber left"
read -r ms got <<<"$(discover 1)"
echo "drained, no subscriber: offer $got in $ms ms"
[ "$got" = 0 ] && [ "$(astat pado-drained)" -ge 1 ]
check_err $? "a PADO from a drained LAC"
has_line '^drain drained sessions 0' "$(agent drain)"
check_err $? "the drain does not say drained with no session"
log_test "drained: the subscriber's session stays; no PADO; drained when it left"

agent drain off >/dev/null
read -r ms got <<<"$(discover 2)"
echo "drain off: offer $got in $ms ms"
[ "$got" = 1 ]
check_err $? "no PADO after drain off"
log_test "drain off: PADOs again"

[ "$EXIT_STATUS" = 0 ] || show_logs
exit $EXIT_STATUS
