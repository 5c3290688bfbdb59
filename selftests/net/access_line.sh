#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only real peers: the agent's behaviour, Debian's kernel suffices
#
# Access-line information (S-AL-1, RFC 5515, RFC 4679,
# Documentation/access.md): a PPPoE subscriber (l2tpsel-subgen) whose PADI
# and PADR carry a TR-101 Vendor-Specific tag, as a DSLAM's intermediate
# agent adds it, logs in through the l2tpseld LAC (access-line yes) to an
# l2tpseld LNS role:
#
#   - the LNS reads back exactly the circuit and remote IDs, the rates
#     (kb/s in the tag, b/s in the AVPs), the delay and the encapsulation,
#     and that the LAC announced Connect Speed Update;
#   - its RADIUS Accounting Start carries them as RFC 4679 VSAs, byte for
#     byte, and the LAC's own Start too;
#   - a CoA-Request with new actual rates to the LAC: CoA-ACK, a CSUN to
#     the LNS, which takes the new rates (show) and sends an
#     Interim-Update with them; the tunnel stays;
#   - a Disconnect-Request ends the call: the LNS's Stop carries the VSAs;
#   - access-line no (the default): the same subscriber's ICRQ has none.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../peers.sh"
source "$(dirname "$0")/../access.sh"

L=$L2TPSEL_CLI
GEN=$TOP/build/l2tpsel-subgen
LNS=10.220.0.13

require_root
require_cmd python3
require_cmd radclient
[ -x "$GEN" ] || skip "no $GEN (run make subgen)"
peers_require
access_require
mod_load || fail "insmod $L2TPSEL_KO failed"

peers_init 10.210.0.1 || fail "cannot set up the hub"
peers_add "lns $LNS" || fail "cannot add the LNS's namespace"
HUB=$PEERS_HUB
D=$PEERS_DIR
access_init 0 || fail "cannot set up the subscribers' link"
keep_logs "$D"
lns() { ip netns exec "$(peer_ns lns)" "$@"; }

# the accounting servers: the LNS's in its namespace, the LAC's in the hub
lns python3 "$TOP/selftests/acct_sink.py" 127.0.0.1 1813 lns-secret >"$D/lns-acct.log" 2>&1 &
defer kill_wait $!
hub python3 "$TOP/selftests/acct_sink.py" 127.0.0.1 1813 lac-secret >"$D/lac-acct.log" 2>&1 &
defer kill_wait $!
wait_for 10 grep -q '^ready' "$D/lns-acct.log" "$D/lac-acct.log" ||
	fail "acct_sink.py did not start: $(cat "$D"/*-acct.log)"

_peer_ppp_options lns
echo "10.240.0.1:10.240.0.2" >>"$D/lns.options"
printf '%s\n' 'radius-server 127.0.0.1 port 1812 acct-port 1813 secret lns-secret' \
	'radius-accounting yes' >"$D/lns.conf"
chmod 0600 "$D/lns.conf"
lns "$L2D" -c "$D/lns.conf" -o 'kernel netlink' -o 'dataplane kernel' -o "socket $D/lns.sock" \
	-o 'hostname lns-al' -o "listen $LNS" -o "lns-pppd-file $D/lns.options" \
	-o 'log-level 1' 2>"$D/lns.log" &
defer kill_wait $!
wait_for 5 test -S "$D/lns.sock" || { cat "$D/lns.log"; fail "the LNS l2tpseld did not start"; }

printf '%s\n' "profile add P" "tunnel add T1 profile P level 0 dest $LNS" \
	"domain add example profile P" >"$D/config"
hub "$L" -b "$D/config" >/dev/null || fail "hub configuration failed"

# The tag: vendor 3561; Agent-Circuit-Id "eth 1/1/2:100"; Agent-Remote-Id
# "cpe-42"; actual up 1024 kb/s, down 16384; maximum up 2048; actual
# interleaving delay up 8 ms; Access-Loop-Encapsulation Ethernet, untagged.
TAG=00000de9
TAG+=010d$(printf 'eth 1/1/2:100' | od -An -tx1 | tr -d ' \n')
TAG+=0206$(printf 'cpe-42' | od -An -tx1 | tr -d ' \n')
TAG+=810400000400820400004000870400000800
TAG+=8c0400000008
TAG+=9003010100

# subscriber: PAP as alice@example, the tag in PADI and PADR, up for a while
subscriber() {
	subs "$GEN" -i sw0 -n 1 -u alice@example -a pap --vendor-tag "$TAG" --hold 120000 \
		>"$D/gen.log" 2>&1 &
	GENPID=$!
	defer kill_wait $GENPID
}
lns_show() { lns "$L" login show socket "$D/lns.sock"; }
lns_line() { lns_show | grep '^access-line '; }
lns_up() { lns_show | grep -q '^session .* role lns state established'; }

# --- access-line yes: the AVPs in the ICRQ ------------------------------------
printf '%s\n' 'radius-server 127.0.0.1 port 1812 acct-port 1813 secret lac-secret' \
	'radius-accounting yes' 'radius-fallback domain-map' 'radius-timeout 1s' 'radius-tries 1' \
	'radius-das 127.0.0.1' 'radius-das-client 127.0.0.1 secret dm-secret' >"$D/agent.conf"
chmod 0600 "$D/agent.conf"
agent_start -c "$D/agent.conf" -o 'access-auth pap' -o 'access-line yes'
subscriber
wait_for 40 lns_up
check_err $? "no established call at the LNS: $(lns_show | tr '\n' ' ')"
want='csu yes circuit-id "eth 1/1/2:100" remote-id "cpe-42" act-up 1024000 act-down 16384000'
want+=' max-up 2048000 act-delay-up 8 encap 010100'
got=$(lns_line)
[ "${got#access-line session * }" = "$want" ] && [[ $got == "access-line session "* ]]
check_err $? "the LNS read: '$got', expected '... $want'"
log_info "LNS: $got"
log_test "S-AL-1 TR-101 tag -> RFC 5515 AVPs in the ICRQ -> the LNS reads them back exactly"

# the VSAs of RFC 4679: rates in b/s, 4 bytes
VSAS="vsa 3561 1 $(printf 'eth 1/1/2:100' | od -An -tx1 | tr -d ' \n') vsa 3561 2 6370652d3432"
VSAS+=" vsa 3561 129 000fa000 vsa 3561 130 00fa0000 vsa 3561 135 001f4000"
VSAS+=" vsa 3561 140 00000008 vsa 3561 144 010100"
acct_has() {	# acct_has LOG STATUS TEXT: a record of STATUS containing TEXT
	grep "^acct $2 " "$1" | grep -qF "$3"
}
wait_for 10 acct_has "$D/lns-acct.log" 1 "$VSAS"
check_err $? "the LNS's Accounting Start lacks the VSAs: $(grep '^acct 1' "$D/lns-acct.log")"
# the LNS's Connect-Info (77): the ICCN's Tx/Rx Connect Speed, "16384000/1024000"
acct_has "$D/lns-acct.log" 1 "attr 77 $(printf 16384000/1024000 | od -An -tx1 | tr -d ' \n')"
check_err $? "the LNS's Start has no Connect-Info 16384000/1024000"
wait_for 10 acct_has "$D/lac-acct.log" 1 "$VSAS"
check_err $? "the LAC's Accounting Start lacks the VSAs: $(grep '^acct 1' "$D/lac-acct.log")"
log_test "S-AL-1 the LNS's and the LAC's RADIUS Accounting Start carry the RFC 4679 VSAs"

# --- CoA with new rates: CSUN -------------------------------------------------
das() {	# das KIND ATTRIBUTE...: a CoA- or Disconnect-Request to the LAC
	local kind=$1
	shift
	printf '%s\n' "$@" "Event-Timestamp = $(date +%s)" |
		hub radclient -x -t 2 -r 1 127.0.0.1:3799 "$kind" dm-secret 2>&1
}
out=$(das coa 'User-Name = "alice@example"' 'Actual-Data-Rate-Downstream = 20000000' \
	'Actual-Data-Rate-Upstream = 2000000')
[[ $out == *"CoA-ACK"* ]]
check_err $? "the CoA-Request with new rates: no CoA-ACK: $out"
csun_taken() { lns_line | grep -q 'act-up 2000000 act-down 20000000 '; }
wait_for 10 csun_taken
check_err $? "the LNS did not take the CSUN's rates: $(lns_line)"
grep -q 'CSUN sent, tx 20000000 rx 2000000' "$D/agent.log"
check_err $? "the LAC logged no CSUN"
wait_for 10 acct_has "$D/lns-acct.log" 3 "vsa 3561 129 001e8480 vsa 3561 130 01312d00"
check_err $? "the LNS's Interim-Update lacks the new rates: $(grep '^acct 3' "$D/lns-acct.log")"
lns_up
check_err $? "the call did not survive the CSUN"
grep -q 'StopCCN\|malformed' "$D/lns.log"
check_fail $? "the LNS refused something: $(grep 'StopCCN\|malformed' "$D/lns.log")"
out=$(das coa 'User-Name = "alice@example"' 'Session-Timeout = 60')
[[ $out == *"CoA-NAK"* ]]
check_err $? "a CoA-Request without line rates was not refused: $out"
log_test "S-AL-1 CoA with new rates: CoA-ACK, CSUN (RFC 5515), the LNS's Interim-Update"

# --- the end: Stop --------------------------------------------------------------
out=$(das disconnect 'User-Name = "alice@example"')
[[ $out == *"Disconnect-ACK"* ]]
check_err $? "Disconnect-Request: $out"
wait_for 15 acct_has "$D/lns-acct.log" 2 "vsa 3561 1 "
check_err $? "the LNS's Stop lacks the VSAs: $(grep '^acct 2' "$D/lns-acct.log")"
log_test "S-AL-1 the call ends: the LNS's Stop carries the VSAs"

# --- access-line no (the default) -------------------------------------------------
kill_wait "$GENPID"
kill_wait "$AGENT"
no_call() { ! lns_show | grep -q '^session '; }
wait_for 15 no_call
agent_start -o 'access-auth pap'
subscriber
wait_for 40 lns_up
check_err $? "no call at the LNS with access-line no"
[ -z "$(lns_line)" ]
check_err $? "access-line no, yet the LNS read: $(lns_line)"
log_test "S-AL-1 access-line no (the default): no access-line AVPs"

[ "$EXIT_STATUS" = 0 ] || { show_logs; cat "$D/lns.log" "$D/lns-acct.log" "$D/gen.log"; }
exit $EXIT_STATUS
