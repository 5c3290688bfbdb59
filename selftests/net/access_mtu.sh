#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only real peers: the agent's MRU and the kernel's fragments; the kernel bridge runs on the debug kernel in access_pppoe
#
# Full-size frames cross a 1500-byte path to the LNS unfragmented with the
# defaults (S-MTU-1, Documentation/access.md "The MRU").  A PPPoE subscriber
# (pppd with its pppoe plugin, MRU 1492 of its own) dials l2tpseld as LAC,
# whose call goes to l2tpseld as LNS with pppd in LNS mode over a veth link
# of MTU 1500.  The LNS's pppd renegotiates LCP asking the MRU the LAC
# asked (the proxied LCP, RFC 2661 section 4.4.5), so both ways the
# subscriber's frames are at most that MRU.  Across the link a TCP
# transfer each way (python3, $ACCESS_MTU_BYTES each, 2 MB by default);
# fragments counted in the kernel (/proc/net/snmp Ip: FragCreates on
# the LAC and the LNS, ReasmReqds on both) and on the link itself
# (selftests/ipfrag.py on the LNS's end: fragments, the largest packet,
# DF on L2TP data and control).
#
#   - defaults (path-mtu 1500, an LNS maybe over IPv6): MRU 1442, no
#     fragment, DF clear on control messages too (tunnel-df clear);
#   - path-family ipv4: MRU 1462; the full-size data packets are exactly
#     1500 bytes, no fragment; with tunnel-df set control messages carry
#     DF, data packets do not (the kernel's L2TP transmit clears it);
#   - path-family ipv4 and data-sequencing yes: MRU 1458, packets of 1500;
#   - path-mtu 1530 path-family ipv4, i.e. the MRU 1492 the LAC asked
#     before: the same transfer is fragmented both ways, which the checks
#     above would report;
#   - an LNS options file with "mru 1400": it wins over the proxied MRU.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../peers.sh"
source "$(dirname "$0")/../access.sh"

L=$L2TPSEL_CLI
LNS=10.220.0.31
BYTES=${ACCESS_MTU_BYTES:-2000000}

require_root
require_cmd python3
peers_require
access_require
mod_load || fail "insmod $L2TPSEL_KO failed"

peers_init 10.210.0.1 || fail "cannot set up the hub"
peers_add "lns $LNS" || fail "cannot add the LNS's namespace"
HUB=$PEERS_HUB
D=$PEERS_DIR
LNS_NS=$(peer_ns lns)
access_init 5 || fail "cannot set up the subscribers' link"
keep_logs "$D"

# The LNS: l2tpseld, pppd in LNS mode, no mtu or mru of its own.
l2tpseld_lns_start "$LNS_NS" "$D" "$LNS" -o 'hostname lns-mtu' ||
	fail "the LNS l2tpseld did not start"
lns_idle() { [ "$(val "$(ip netns exec "$LNS_NS" "$L" summary)" sessions)" = 0 ]; }

printf '%s\n' "profile add P" "tunnel add T1 profile P level 0 dest $LNS" \
	"domain add example profile P" >"$D/config"
hub "$L" -b "$D/config" >/dev/null || fail "hub configuration failed"

# The far end of the transfers, on the LNS: per connection, read to the
# end, then send as many bytes back.
cat >"$D/sink.py" <<-'PY'
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("0.0.0.0", 5001))
s.listen(4)
print("ready", flush=True)
while True:
    c, _ = s.accept()
    n = 0
    while True:
        b = c.recv(65536)
        if not b:
            break
        n += len(b)
    c.sendall(b"\x5a" * n)
    c.close()
PY
cat >"$D/xfer.py" <<-'PY'
import socket, sys, time
addr, n = sys.argv[1], int(sys.argv[2])
t0 = time.monotonic()
c = socket.create_connection((addr, 5001), timeout=60)
c.sendall(b"\xa5" * n)
c.shutdown(socket.SHUT_WR)
got = 0
while True:
    b = c.recv(65536)
    if not b:
        break
    got += len(b)
print("sent %d received %d in %.1f s" % (n, got, time.monotonic() - t0))
sys.exit(0 if got == n else 1)
PY
ip netns exec "$LNS_NS" python3 "$D/sink.py" >"$D/sink.log" 2>&1 &
defer kill_wait $!
wait_for 10 grep -q '^ready' "$D/sink.log" || fail "the transfer's sink did not start"

# ip_stat NS: "FragCreates ReasmReqds" of NS (/proc/net/snmp is per namespace)
ip_stat() {
	ip netns exec "$1" awk '/^Ip:/ { if (!h) { for (i = 1; i <= NF; i++) k[$i] = i; h = 1 }
		else print $k["FragCreates"], $k["ReasmReqds"] }' /proc/net/snmp
}

show_logs_mtu() {
	show_logs
	echo "--- lns.log"; tail -30 "$D/lns.log"
	echo "--- lns-pppd.log"; tail -30 "$D/lns-pppd.log"
}

N=0
# transfer WHAT MRU WANT_FRAGMENTS [-o LINE]...: one subscriber through a
# LAC started with $ACCESS_LINE_OPTS and the -o lines; checks the MRU the
# LAC logged, the MRU the LNS's pppd asked and the subscriber's MTU (both
# MRU, or $LNS_MRU), the transfer, and fragments none (WANT_FRAGMENTS 0)
# or some (1).  Sets LINK (ipfrag.py's counts).
transfer() {
	local what=$1 mru=$2 want=$3 link_mru=${LNS_MRU:-$2} s1 l1 frag reasm out sniff mtu lf lr hf hr
	shift 3
	N=$((N + 1))
	: >"$D/agent.log"
	agent_start -o 'access-auth pap' "$@"
	grep -q "access acc0: LCP MRU $mru " "$D/agent.log"
	check_err $? "the LAC did not log MRU $mru: $(grep 'LCP MRU' "$D/agent.log")"

	rm -f "$D/link$N"
	ip netns exec "$LNS_NS" python3 "$TOP/selftests/ipfrag.py" eth0 "$D/link$N" \
		>"$D/ipfrag$N.log" 2>&1 &
	sniff=$!
	defer kill_wait $sniff
	wait_for 10 grep -q '^ready' "$D/ipfrag$N.log" || fail "ipfrag.py did not start"
	read -r hf hr <<<"$(ip_stat "$HUB")"
	read -r lf lr <<<"$(ip_stat "$LNS_NS")"

	dial "$N" alice@example
	wait_for 30 sub_up "$N"
	check_err $? "$what: subscriber $N: no IPCP"
	mtu=$(subs cat "/sys/class/net/ppp$N/mtu")
	expect "$mtu" "$link_mru" "$what: the subscriber's MTU (the MRU it was asked)"
	grep -q "sent \[LCP ConfReq id=0x[0-9a-f]* <mru $link_mru>" "$D/lns-pppd.log"
	check_err $? "$what: the LNS's pppd did not ask MRU $link_mru: $(grep 'sent \[LCP ConfReq' "$D/lns-pppd.log" | tail -1)"
	out=$(subs timeout 120 python3 "$D/xfer.py" 10.240.0.1 "$BYTES" 2>&1)
	check_err $? "$what: the transfer failed: $out"

	read -r s1 l1 <<<"$(ip_stat "$HUB")"
	frag=$((s1 - hf)); reasm=$((l1 - hr))
	read -r s1 l1 <<<"$(ip_stat "$LNS_NS")"
	frag="LAC FragCreates $frag ReasmReqds $reasm, LNS FragCreates $((s1 - lf)) ReasmReqds $((l1 - lr))"
	kill "$sniff"
	wait_for 10 test -s "$D/link$N" || fail "ipfrag.py wrote nothing"
	LINK=$(cat "$D/link$N")
	log_info "$what: MRU $mru; $out; $frag; on the link: $LINK"
	if [ "$want" = 0 ]; then
		[[ $frag =~ ^LAC\ FragCreates\ 0\ ReasmReqds\ 0,\ LNS\ FragCreates\ 0\ ReasmReqds\ 0$ ]]
		check_err $? "$what: IP fragments: $frag"
		expect "$(val "$LINK" fragments)" 0 "$what: fragments on the LAC-LNS link"
	else
		[ "$(val "$LINK" fragments)" -gt 0 ] && [[ ! $frag =~ ^LAC\ FragCreates\ 0\  ]] &&
			[[ ! $frag =~ LNS\ FragCreates\ 0\  ]]
		check_err $? "$what: expected fragments both ways: $frag; link: $LINK"
	fi

	kill_wait "${SUBPID[$N]}"
	wait_for 15 sessions_are 0
	check_err $? "$what: the session is still counted after the subscriber left"
	kill_wait "$AGENT"
	wait_for 15 lns_idle
	check_err $? "$what: the LNS still has the call"
}

transfer "defaults" 1442 0
expect "$(val "$LINK" control-df)" 0 "control messages with DF (tunnel-df clear)"
[ "$(val "$LINK" data-max-len)" -le 1500 ] && [ "$(val "$LINK" data-max-len)" -ge 1400 ]
check_err $? "L2TP data packets: the largest is not full-size: $LINK"
log_test "defaults: MRU 1442, a full-size TCP transfer without a fragment"

ACCESS_LINE_OPTS="path-family ipv4" transfer "IPv4 path" 1462 0 -o 'tunnel-df set'
expect "$(val "$LINK" data-max-len)" 1500 "the largest L2TP data packet"
[ "$(val "$LINK" control-df)" -gt 0 ]
check_err $? "tunnel-df set: no control message carried DF: $LINK"
expect "$(val "$LINK" data-df)" 0 "data packets with DF (the kernel's L2TP transmit clears it)"
log_test "path-family ipv4: MRU 1462, data packets of exactly 1500, no fragment"

ACCESS_LINE_OPTS="path-family ipv4" transfer "IPv4 path, sequencing" 1458 0 -o 'data-sequencing yes'
expect "$(val "$LINK" data-max-len)" 1500 "the largest L2TP data packet"
log_test "data-sequencing yes: MRU 1458 (Ns, Nr), packets of 1500, no fragment"

ACCESS_LINE_OPTS="path-mtu 1530 path-family ipv4" transfer "MRU 1492" 1492 1
log_test "MRU 1492 (path-mtu 1530 on a 1500-byte path): fragments both ways"

# pppd reads its options file at each start: the next call's has its own mru
echo "mru 1400" >>"$D/lns.options"
LNS_MRU=1400 transfer "LNS mru 1400" 1442 0
log_test "the LNS's options file says mru 1400: it wins over the proxied 1442"

[ "$EXIT_STATUS" = 0 ] || show_logs_mtu
exit $EXIT_STATUS
