#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only real peers: the agent's ports; the kernel data path runs on the debug kernel in dataplane and access_pppoe
#
# The agent's ports with the kernel data path.  Two kernel tunnels whose
# sockets are connected to the same addresses and ports black-hole data:
# the kernel hands each datagram to one socket and looks its session up in
# that socket's tunnel only.  An l2tpseld LNS answers the second tunnel's
# SCCRQ from a port of its own (RFC 2661 section 8.1) and refuses a LAC
# that does not follow.  A LAC's tunnels leave from a port the kernel
# picks, which no local user can hold first (S-SEC-9).
#
# - an l2tpseld LAC with lac-port 1701 (dataplane kernel, its own namespace
#   and tables) logs out of its only call, which closes the tunnel, and
#   logs in again at once: the new tunnel comes from the address and port
#   of the one the LNS still holds closing.  The LNS separates it, the LAC
#   follows, and the call's PPP (LCP echoes, which cross the kernel data
#   path both ways) works;
# - an l2tpseld LAC with the default lac-port 0 in a namespace where the
#   user nobody holds 127.0.0.1:1701, its own address's port 1701 and
#   0.0.0.0:1701: its login works, the tunnel leaves from another port
#   (the LNS's log, the kernel tunnel's source port), the call's PPP
#   crosses the kernel data path and keeps doing so;
# - an xl2tpd LAC with two "lac" sections to the same LNS: xl2tpd does not
#   follow the port, its second tunnel is refused with StopCCN (never
#   established on the shared port), its first call carries on.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../peers.sh"

L2D=${L2TPSELD:-$TOP/build/l2tpseld}
L=$L2TPSEL_CLI

require_root
peers_require debug
[ -x "$L2D" ] || skip "no $L2D (run make)"
mod_load || fail "insmod $L2TPSEL_KO failed"

peers_init 10.213.0.1 || fail "cannot set up the hub"
peers_add "lacd 10.223.0.50" "xlac 10.223.0.60" "lace 10.223.0.70" || fail "cannot add the peers"
HUB=$PEERS_HUB
D=$PEERS_DIR
LACNS=$(peer_ns lacd)

# IPV6CP only (noip, +ipv6: no IPv4 addresses to clash between calls):
# LCP, then IPV6CP ("remote LL address") cross the call's data path both
# ways; LCP echoes every second keep crossing it
for role in lac lns; do
	cat >"$D/$role.options" <<-OPT
	noauth
	noip
	+ipv6
	noccp
	nodefaultroute
	lcp-echo-interval 1
	lcp-echo-failure 10
	lcp-restart 1
	logfile $D/$role-pppd.log
	debug
	OPT
done

ip netns exec "$HUB" "$L2D" -o 'kernel netlink' -o 'dataplane kernel' -o "socket $D/lns.sock" \
	-o 'hostname hub-lns' -o 'listen 10.213.0.1' -o "lns-pppd-file $D/lns.options" \
	-o 'log-level 2' 2>"$D/lns.log" &
defer kill_wait $!
wait_for 5 test -S "$D/lns.sock" || { cat "$D/lns.log"; fail "the LNS did not start"; }

printf '%s\n' "profile add P" "tunnel add T1 profile P level 0 dest 10.213.0.1" \
	"domain add p.example profile P" |
	ip netns exec "$LACNS" "$L" -b - >/dev/null || fail "LAC configuration failed"
# lac-port 1701: the LAC's tunnels leave from one fixed port, as many LACs'
# do (the default, a port the kernel picks per tunnel, would never come from
# the port of the tunnel held closing)
ip netns exec "$LACNS" "$L2D" -o 'kernel netlink' -o 'dataplane kernel' -o "socket $D/lac.sock" \
	-o 'lac-port 1701' -o 'hostname lacd' -o "pppd-file $D/lac.options" -o 'log-level 2' \
	2>"$D/lac.log" &
defer kill_wait $!
wait_for 5 test -S "$D/lac.sock" || { cat "$D/lac.log"; fail "the LAC did not start"; }

show_logs() {
	echo "--- lns.log"; tail -40 "$D/lns.log"
	echo "--- lac.log"; tail -30 "$D/lac.log"
	echo "--- lace.log"; tail -30 "$D/lace.log"
	for f in "$D"/*-pppd.log; do echo "--- $f"; tail -15 "$f"; done
	peers_show
}

# --- an l2tpseld LAC: a new tunnel while the last one is held closing ------------
"$L" login start alice@p.example socket "$D/lac.sock" >"$D/o1" 2>&1
check_err $? "first login: $(cat "$D/o1")"
first_up() { grep -q '^remote LL address' "$D/lac-pppd.log"; }
wait_for 20 first_up
check_err $? "the first call's IPV6CP did not come up"
"$L" login stop 1 socket "$D/lac.sock" >/dev/null
check_err $? "logout"
held() { grep -q 'StopCCN received, result 1' "$D/lns.log"; }
wait_for 5 held
check_err $? "the LNS did not get the StopCCN of the emptied tunnel"
# within the LNS's hold of that tunnel (a retransmission cycle), the same
# address and port again: a new login opens a new tunnel
"$L" login start bob@p.example socket "$D/lac.sock" >"$D/o2" 2>&1
check_err $? "second login: $(cat "$D/o2")"
grep -q 'its peer has a tunnel on our port 1701: answered from port' "$D/lns.log"
check_err $? "the LNS did not answer the second SCCRQ from a port of its own"
grep -Eq 'SCCRP from 10.213.0.1:[0-9]+: the tunnel uses that port' "$D/lac.log"
check_err $? "the LAC did not follow the LNS's port"
second_up() { [ "$(grep -c '^remote LL address' "$D/lac-pppd.log")" -ge 2 ]; }
wait_for 20 second_up
check_err $? "the new call's IPV6CP did not come up (data black-holed)"
out=$("$L" login stats socket "$D/lns.sock")
grep -q ' port-separated 1 port-refused 0' <<<"$out"
check_err $? "LNS stats: $out"
log_test "l2tpseld LAC: a tunnel from the address and port of one held closing is separated, PPP on it"

# --- the default LAC while another user holds port 1701 --------------------------
LACE=$(peer_ns lace)
ip netns exec "$LACE" setpriv --reuid=65534 --regid=65534 --clear-groups python3 -c '
import socket, sys, time
held = []
for a in ("127.0.0.1", "10.223.0.70", "0.0.0.0"):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((a, 1701))
    held.append(s)
print("held", flush=True)
time.sleep(600)
' >"$D/nobody.out" 2>&1 &
defer kill_wait $!
wait_for 30 grep -q held "$D/nobody.out"
check_err $? "nobody could not hold port 1701: $(cat "$D/nobody.out")"
sed "s|$D/lac-pppd.log|$D/lace-pppd.log|" "$D/lac.options" >"$D/lace.options"
printf '%s\n' "profile add P" "tunnel add T1 profile P level 0 dest 10.213.0.1" \
	"domain add p.example profile P" |
	ip netns exec "$LACE" "$L" -b - >/dev/null || fail "LAC configuration failed"
ip netns exec "$LACE" "$L2D" -o 'kernel netlink' -o 'dataplane kernel' -o "socket $D/lace.sock" \
	-o 'hostname lace' -o "pppd-file $D/lace.options" -o 'log-level 2' 2>"$D/lace.log" &
defer kill_wait $!
wait_for 5 test -S "$D/lace.sock" || { cat "$D/lace.log"; fail "the LAC did not start"; }
"$L" login start carol@p.example socket "$D/lace.sock" >"$D/o3" 2>&1
check_err $? "login while nobody holds port 1701: $(cat "$D/o3")"
lace_up() { grep -q '^remote LL address' "$D/lace-pppd.log"; }
wait_for 20 lace_up
check_err $? "the call's IPV6CP did not come up (data black-holed)"
lp=$(sed -n 's/.* to 10\.223\.0\.70:\([0-9]*\) (lace) established as LNS.*/\1/p' "$D/lns.log" | head -n 1)
[ -n "$lp" ] && [ "$lp" != 1701 ]
check_err $? "the LAC's tunnel did not leave from a port of the kernel's (${lp:-none})"
ip -n "$LACE" l2tp show tunnel | grep -q "UDP source / dest ports: $lp/1701"
check_err $? "the kernel tunnel's source port is not $lp: $(ip -n "$LACE" l2tp show tunnel)"
ip netns exec "$LACE" ss -Hulpn | grep -q 'python3'
check_err $? "nobody's sockets are gone"
log_test "l2tpseld LAC: a login while nobody holds 127.0.0.1:1701 and 0.0.0.0:1701 (port ${lp:-?}), PPP on it"

# --- an xl2tpd LAC with two lac sections: follows or is refused -------------------
sed "s|$D/lac-pppd.log|$D/xlac-pppd.log|" "$D/lac.options" >"$D/xlac.options"
{
	printf '[global]\nlisten-addr = 10.223.0.60\nport = 1701\naccess control = no\n'
	for sec in l m; do
		printf '\n[lac %s]\nlns = 10.213.0.1\nrequire authentication = no\n' "$sec"
		printf 'refuse pap = yes\nrefuse chap = yes\nautodial = no\nredial = no\n'
		printf 'length bit = yes\nhostname = xlac\nname = xlac\npppoptfile = %s\n' "$D/xlac.options"
	done
} >"$D/xlac.conf"
: >"$D/xlac.secrets"
PEER_KIND[xlac]=lac
_peer_xl2tpd xlac
peers_ready || fail "xl2tpd did not start"
echo "c l" >"$D/xlac.ctrl"
lns_tunnels() { grep -c '^l2tpseld: tunnel [0-9/]* to .* established as LNS' "$D/lns.log"; }
xl_first() { [ "$(lns_tunnels)" -ge 4 ]; }
wait_for 15 xl_first
check_err $? "xl2tpd's first tunnel did not come up"
xl_lcp() { grep -q '^remote LL address' "$D/xlac-pppd.log"; }
wait_for 20 xl_lcp
check_err $? "xl2tpd's first call did not carry PPP"
echo "c m" >"$D/xlac.ctrl"
xl_refused() { grep -q 'SCCCN to port 1701, not to port' "$D/lns.log"; }
wait_for 15 xl_refused
check_err $? "xl2tpd's second tunnel (it does not follow the port) was not refused"
grep -q 'Connection closed to 10.213.0.1, port 1701 (SCCCN to port 1701, not to port' "$D/xlac-xl2tpd.log"
check_err $? "xl2tpd did not get the StopCCN's message"
[ "$(lns_tunnels)" = 4 ]
check_err $? "a tunnel was established on the shared port"
out=$("$L" login stats socket "$D/lns.sock")
grep -q ' port-separated 2 port-refused 1' <<<"$out"
check_err $? "LNS stats after the refusal: $out"
sleep 12	# LCP echoes every second, 10 unanswered end the link
grep -q 'No response to .* echo-requests\|Connection terminated' "$D/xlac-pppd.log"
check_fail $? "xl2tpd's first call stopped carrying PPP"
log_test "xl2tpd LAC: a second tunnel from one address and port is refused, the first carries on"

grep -q 'No response to .* echo-requests\|Connection terminated' "$D/lace-pppd.log"
check_fail $? "the call from the kernel's port stopped carrying PPP"
grep -q 'Address already in use' "$D/lace.log"
check_fail $? "the LAC reported a port in use"
log_test "l2tpseld LAC: the call from the kernel's port still carries PPP 12 s later"

[ "$EXIT_STATUS" = 0 ] || show_logs
exit $EXIT_STATUS
