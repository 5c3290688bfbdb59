#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only real peers: Debian's kernel only (L2TPSEL_PEERS_ON_DEBUG=1 runs it on the debug kernel)
#
# Tunnel switching (S-LTS-1, S-LTS-2) end to end with real peers, three
# namespaces:
#
#   front: xl2tpd LAC + pppd (user alice@example) --L2TP--> sw: l2tpseld
#          (listen, lns-switch yes, kernel none, dataplane kernel)
#          --L2TP--> back: xl2tpd LNS + pppd (local ip $PEER_LNS_PPP)
#
# xl2tpd as a LAC sends no proxy authentication: the switch runs LCP and
# CHAP with the subscriber's pppd on the incoming PPPoL2TP channel, places
# the call to the LNS behind with the proxy AVPs and its hop-count AVP
# (which xl2tpd must ignore), and bridges the two channels in the kernel.
#
# - PPP comes up end to end and a ping crosses both tunnels;
# - the switch holds two kernel sessions and counts one switched call;
# - the LAC in front hangs up: the LNS behind loses its call and the switch
#   has none left;
# - a PPPoE subscriber through l2tpseld as the LAC in front, whose ICCN
#   carries proxy LCP and CHAP: the switch takes the name from it, PPP up
#   and a ping across; the subscriber leaving ends the call behind;
# - dialled again (a second xl2tpd LAC), the LNS behind goes away (xl2tpd stopped: StopCCN): the
#   PPP link in front goes down.
#
# About 42 s in the VM.
source "$(dirname "$0")/../lib.sh"

L2D=${L2TPSELD:-$TOP/build/l2tpseld}
L=$L2TPSEL_CLI

require_root
require_l2tp_peers
[ -z "$L2TPSEL_DEBUG_KERNEL" ] || [ "${L2TPSEL_PEERS_ON_DEBUG:-}" = 1 ] ||
	skip "Debian's kernel only (L2TPSEL_PEERS_ON_DEBUG=1 runs it on the debug kernel)"
[ -x "$L2D" ] || skip "no $L2D (run make)"
[ -x "$L" ] || skip "no $L (run make)"

FRONT=10.210.0.2
FRONT2=10.210.0.3
SW_IN=10.210.0.1
SW_OUT=10.211.0.1
BACK=10.211.0.2

setup_ns front sw back || fail "cannot create namespaces"
make_tmpdir d || fail "cannot create a temporary directory"
ip -n "$front" link add v0 type veth peer name vin netns "$sw" &&
	ip -n "$sw" link add vout type veth peer name v0 netns "$back" &&
	ip -n "$front" addr add $FRONT/24 dev v0 && ip -n "$front" link set v0 up &&
	ip -n "$sw" addr add $SW_IN/24 dev vin && ip -n "$sw" link set vin up &&
	ip -n "$sw" addr add $SW_OUT/24 dev vout && ip -n "$sw" link set vout up &&
	ip -n "$back" addr add $BACK/24 dev v0 && ip -n "$back" link set v0 up
check_err $? "cannot set up the veth pairs"
[ "$EXIT_STATUS" = 0 ] || exit $EXIT_STATUS

# pppd: as lib.sh's peers_write_config; the subscriber authenticates (CHAP)
peers_write_config "$d" $BACK
printf '%s\n' 'user alice@example' 'password secret' >>"$d/lac.options"
cat >"$d/lac.conf" <<-CONF
[global]
listen-addr = $FRONT
port = 1701
access control = no

[lac sw]
lns = $SW_IN
require authentication = no
autodial = no
redial = no
length bit = yes
name = front-lac
pppoptfile = $d/lac.options
CONF

xl2tpd_start lns "$back" "$d"
check_err $? "xl2tpd (LNS behind) did not start"
LNS_PID=$(cat "$d/lns.pid" 2>/dev/null)
xl2tpd_start lac "$front" "$d"
check_err $? "xl2tpd (LAC in front) did not start"
ip netns exec "$sw" "$L2D" -o 'kernel none' -o 'dataplane kernel' -o "listen $SW_IN" \
	-o 'lns-switch yes' -o "route isp t-back $BACK" -o "socket $d/sw.sock" \
	-o 'hostname switch' -o 'log-level 2' 2>"$d/sw.log" &
defer kill_wait $!
wait_for 10 test -S "$d/sw.sock"
check_err $? "l2tpseld (the switch) did not start: $(tail -5 "$d/sw.log")"
log_test "xl2tpd LAC in $front, l2tpseld switch in $sw, xl2tpd LNS in $back"
show() { peers_show "$d" "$front" "$sw" "$back"; }
[ "$EXIT_STATUS" = 0 ] || { show; exit $EXIT_STATUS; }

swstat() { val "$(ip netns exec "$sw" "$L" login stats socket "$d/sw.sock" | grep '^switch ')" "$1"; }
ppp_up() { [ -n "$(ppp_addr "$front")" ] && [ -n "$(ppp_addr "$back")" ]; }
front_gone() { ! ip -n "$front" -o link show | grep -q ': ppp'; }
back_gone() { ! ip -n "$back" -o link show | grep -q ': ppp'; }
calls_now() { [ "$(swstat calls-now)" = "$1" ]; }

t0=$(date +%s%N)
echo "c sw" >"$d/lac.ctrl"
wait_for 30 ppp_up
check_err $? "no PPP link with addresses at both ends within 30 s"
echo "# PPP up after $((($(date +%s%N) - t0) / 1000000)) ms"
read -r f_if f_addr <<<"$(ppp_addr "$front")"
echo "# front ${f_if:-?} ${f_addr:-?}, back $(ppp_addr "$back")"
wait_for 10 ip netns exec "$front" ping -c 1 -W 2 -q "$PEER_LNS_PPP" >/dev/null 2>&1
check_err $? "ping from the subscriber to $PEER_LNS_PPP across the switch failed"
log_test "PPP up end to end through the switch, ping across"
[ "$EXIT_STATUS" = 0 ] || { show; exit $EXIT_STATUS; }

# two kernel sessions on the switch, bridged; one switched call counted
n=$(l2tp_data_sessions "$sw" | wc -l)
echo "# switch: $n kernel data sessions; $(ip netns exec "$sw" "$L" login stats socket "$d/sw.sock" | grep '^switch ')"
[ "$n" = 2 ]
check_err $? "the switch has $n kernel data sessions, not 2"
[ "$(swstat calls)" = 1 ] && [ "$(swstat up)" = 1 ] && calls_now 1
check_err $? "the switch does not count one switched call up"
grep -q 'switch: session .*no proxy authentication: LCP here, hop 1' "$d/sw.log"
check_err $? "the switch did not run LCP on the incoming call"
log_test "two legs on the switch, one switched call counted"

# the LAC in front hangs up: the LNS behind loses the call
echo "d sw" >"$d/lac.ctrl"
wait_for 10 back_gone
check_err $? "the LNS behind still has its PPP link 10 s after the LAC in front hung up"
wait_for 10 calls_now 0
check_err $? "the switch still holds a switched call"
log_test "an end in front reaches the LNS behind"

# With proxy authentication: a PPPoE subscriber (pppd with pppoe.so in
# namespace $subs) through l2tpseld as the LAC in front, whose ICCN carries
# the Proxy LCP and CHAP (RFC 2661 section 4.4.5): the switch takes the
# name from it, runs no LCP of its own, and hands the AVPs on.
wait_for 10 front_gone
if ! compgen -G '/usr/lib/pppd/*/pppoe.so' >/dev/null ||
	! { [ -d /sys/module/pppoe ] || modprobe -q pppoe 2>/dev/null; }; then
	log_info "no pppoe.so or pppoe module: the proxied case is not run"
else
	setup_ns subs || fail "cannot create a namespace"
	ip -n "$front" link add acc0 type veth peer name sub0 netns "$subs" &&
		ip -n "$front" link set acc0 up && ip -n "$subs" link set sub0 up
	check_err $? "cannot set up the access link"
	ip netns exec "$front" "$L2D" -o 'kernel none' -o 'dataplane kernel' \
		-o 'access pppoe acc0' -o "route isp t-sw $SW_IN" -o "socket $d/front.sock" \
		-o 'hostname front-agent' -o 'log-level 2' 2>"$d/front.log" &
	defer kill_wait $!
	wait_for 10 test -S "$d/front.sock"
	check_err $? "l2tpseld (the LAC in front) did not start: $(tail -5 "$d/front.log")"
	ip netns exec "$subs" pppd plugin pppoe.so nic-sub0 user alice@example password secret \
		noauth nodefaultroute noipdefault mtu 1400 mru 1400 noipv6 noccp novj \
		lcp-echo-interval 0 maxfail 1 ip-up-script /bin/true ip-down-script /bin/true \
		nodetach debug logfile "$d/sub.log" >/dev/null 2>&1 &
	SUB=$!
	defer kill_wait $SUB
	sub_up() { ip -n "$subs" -4 addr show dev ppp0 2>/dev/null | grep -q 'inet .* peer '; }
	wait_for 30 sub_up
	check_err $? "the PPPoE subscriber got no address through the two LACs"
	wait_for 10 ip netns exec "$subs" ping -c 1 -W 2 -q "$PEER_LNS_PPP" >/dev/null 2>&1
	check_err $? "ping from the PPPoE subscriber to $PEER_LNS_PPP failed"
	grep -q 'switch: session .*: proxy authentication, hop 1' "$d/sw.log"
	check_err $? "the switch did not take the name from the proxy AVPs"
	[ "$(swstat up)" = 2 ] && calls_now 1
	check_err $? "the switch does not count the second switched call up"
	log_test "proxy LCP and CHAP from an l2tpseld LAC: PPP up through both, ping across"
	kill_wait $SUB
	wait_for 10 back_gone
	check_err $? "the LNS behind still has its PPP link after the subscriber left"
	wait_for 10 calls_now 0
	check_err $? "the switch still holds a switched call"
	log_test "the subscriber leaves: PADT, CDN to the switch, CDN to the LNS behind"
fi

# again, from a second LAC (the first one's tunnel is held closing for a
# retransmission cycle, RFC 2661 section 5.7, and xl2tpd does not follow an
# SCCRP from another port: Documentation/l2tpseld.md), and the LNS behind
# goes away: the subscriber in front is told
wait_for 10 front_gone
ip -n "$front" addr add $FRONT2/24 dev v0
sed "s/^listen-addr = .*/listen-addr = $FRONT2/; s/^name = .*/name = front-lac2/" \
	"$d/lac.conf" >"$d/lac2.conf"
xl2tpd_start lac2 "$front" "$d"
check_err $? "the second xl2tpd LAC did not start"
echo "c sw" >"$d/lac2.ctrl"
wait_for 30 ppp_up
check_err $? "no PPP link the second time"
kill "$LNS_PID" 2>/dev/null
wait_for 15 front_gone
check_err $? "the subscriber's PPP link is still up 15 s after the LNS behind stopped"
wait_for 10 calls_now 0
check_err $? "the switch still holds a switched call"
ncalls=$(swstat calls)
[ "$(swstat up)" = "$ncalls" ] && [ "$ncalls" -ge 2 ]
check_err $? "the switch counted $ncalls calls and $(swstat up) up"
log_test "an end behind reaches the subscriber in front"

[ "$EXIT_STATUS" = 0 ] || { show; grep -E 'switch|access l2tp|closed|CDN|StopCCN|login' "$d/sw.log" | tail -40; }
exit $EXIT_STATUS
