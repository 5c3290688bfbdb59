#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only real peers: l2tpns, subgen and raw PPPoE floods on Debian's kernel
#
# The access edge under attack (S-SEC-6, S-SEC-7, S-STORM-1): l2tpseld as
# LAC ("access pppoe" on two lines, PAP, dataplane kernel) in front of
# l2tpns (Debian's package, PPP and IPCP to the subscribers), and as LNS
# on a listen address of its own.
#
#   1. without a flood: 50 subscribers (l2tpsel-subgen) dial on line acc1,
#      all 50 calls up at the LAC (bridged to their L2TP sessions);
#   2. with two: 1000 PADI a second from random MACs on line acc0
#      (hostile_edge.py padi), and established L2TP tunnels from one
#      address to the agent's LNS role, one after another
#      (hostile_edge.py tunnels); meanwhile 50 more subscribers dial on
#      acc1.  All 50 calls come up at the LAC, as without the flood;
#      the tunnel flood gets lns-max-tunnels-per-peer (64) established,
#      then StopCCN (counted tunnels-capped), then silence while its
#      refused tunnels are held in setup (lns-max-setup-per-peer, counted
#      sccrq-capped);
#   3. afterwards every count is exact: logins and calls up 100, refused
#      0; no subscriber, session or module session left; the agent's caps
#      counted what the flooder saw.
source "$(dirname "$0")/../lib.sh"

L=$L2TPSEL_CLI
L2D=${L2TPSELD:-$TOP/build/l2tpseld}
GEN=$TOP/build/l2tpsel-subgen
HERE=$(cd "$(dirname "$0")" && pwd)
N=50			# subscribers a run
FLOOD_RATE=1000		# PADI a second
FLOOD_S=40		# seconds of flood
TUNNELS=80		# the tunnel flood's attempts: 64 up, 8 refused, 8 unanswered

require_root
require_cmd python3 l2tpns
[ -x "$L2D" ] || skip "no $L2D (run make)"
[ -x "$GEN" ] || fail "no $GEN (make subgen)"
for m in pppoe l2tp_ppp dummy veth tun; do
	require_kmod "$m"
done
[ -c /dev/net/tun ] || fail "no /dev/net/tun for l2tpns"
mod_load || fail "insmod $L2TPSEL_KO failed"
make_tmpdir P || fail "no temporary directory"
setup_ns SUB LAC LNS || fail "cannot create the namespaces"

# subscribers sw0/sw1 -- acc0/acc1 [LAC 10.80.0.1] bl0 -- bl1 [l2tpns 10.80.0.9,
# the flooder 10.80.0.50]
ip -n "$LAC" link add acc0 type veth peer name sw0 netns "$SUB" &&
	ip -n "$LAC" link add acc1 type veth peer name sw1 netns "$SUB" &&
	ip -n "$LAC" link add bl0 type veth peer name bl1 netns "$LNS" &&
	ip -n "$LAC" addr add 10.80.0.1/24 dev bl0 &&
	ip -n "$LNS" addr add 10.80.0.9/24 dev bl1 &&
	ip -n "$LNS" addr add 10.80.0.50/24 dev bl1 &&
	ip -n "$LNS" link add eth0 type dummy &&
	ip -n "$LNS" addr add 10.81.0.1/24 dev eth0 || fail "cannot set up the links"
for l in acc0 acc1 bl0; do ip -n "$LAC" link set "$l" up; done
for l in sw0 sw1; do ip -n "$SUB" link set "$l" up; done
for l in bl1 eth0; do ip -n "$LNS" link set "$l" up; done

# --- l2tpns and its RADIUS (it takes ~15 s to become cluster master) --------
ip netns exec "$LNS" python3 "$TOP/bench/vm/radius_accept.py" edge 10.100 >"$P/radius.log" 2>&1 &
defer kill_wait $!
cat >"$P/l2tpns.conf" <<CONF
set debug 1
set log_file "$P/l2tpns.log"
set pid_file "$P/l2tpns.pid"
set bind_address 10.80.0.9
set primary_radius 127.0.0.1
set radius_secret "edge"
set radius_accounting no
set primary_dns 10.81.0.1
set cli_bind_address 127.0.0.1
set ppp_keepalive no
CONF
# a session of its own: at its end l2tpns signals its whole process group
ip netns exec "$LNS" setsid /usr/sbin/l2tpns -c "$P/l2tpns.conf" >"$P/l2tpns.out" 2>&1 &
defer kill_l2tpns
kill_l2tpns() { [ -f "$P/l2tpns.pid" ] && kill "$(cat "$P/l2tpns.pid")" 2>/dev/null; return 0; }

# --- the agent: LAC on two access lines, LNS on 10.80.0.1 ---------------------
printf '%s\n' "profile add N" "tunnel add t-l2tpns profile N level 0 dest 10.80.0.9" \
	"domain add l2tpns profile N" | ip netns exec "$LAC" "$L" -b - >/dev/null ||
	fail "LAC configuration failed"
SOCK=$P/lac.sock
ip netns exec "$LAC" "$L2D" -o 'kernel netlink' -o 'dataplane kernel' -o "socket $SOCK" \
	-o 'access pppoe acc0' -o 'access pppoe acc1' -o 'access-auth pap' \
	-o 'listen 10.80.0.1' -o 'hostname lac' -o 'log-level 1' 2>"$P/lac.log" &
defer kill_wait $!
wait_for 5 test -S "$SOCK" || { cat "$P/lac.log"; fail "the agent did not start"; }
master() { grep -qsi master "$P/l2tpns.log"; }
wait_for 60 master || { tail -n 5 "$P/l2tpns.log" "$P/l2tpns.out"; fail "l2tpns did not become master"; }

show_logs() {
	echo "--- lac.log"; tail -n 40 "$P/lac.log"
	echo "--- l2tpns.log"; tail -n 20 "$P/l2tpns.log"
	for f in "$P"/*-gen.log "$P"/*.out; do echo "--- $f"; tail -n 10 "$f"; done
}
# stat FIELD [LINE]: a number of the agent's stats (LINE: stats, access, control)
stat() {
	"$L" login stats socket "$SOCK" 2>/dev/null |
		awk -v f="$1" -v l="${2:-stats}" '$1 == l { for (i = 2; i < NF; i++) if ($i == f) { print $(i + 1); exit } }'
}
j() { python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
# gen NAME FIRST: N subscribers on sw1 from number FIRST, PADI to IPCP, then down
gen() {
	ip netns exec "$SUB" "$GEN" -i sw1 -n "$N" -r 50 --first "$2" -u "s%d@l2tpns" -p secret \
		-a pap -d 30000 --hold 1000 -j -v >"$P/$1.json" 2>"$P/$1-gen.log"
}
# fig NAME: a run's figures
fig() {
	j "$P/$1.json" '"%d of %d up, p50 %.0f ms, p99 %.0f ms; failed by stage %s" % (j["up"], j["offered"], j["setup_ms"]["p50"], j["setup_ms"]["p99"], {k: v["total"] for k, v in j["failed_by_stage"].items() if v["total"]})'
}
# subscribers, sessions and module sessions all gone
idle() {
	[ "$(stat subscribers access)" = 0 ] && [ "$(stat sessions)" = 0 ] &&
		! ip netns exec "$LAC" "$L" -j tunnel show 2>/dev/null | grep -q '"sessions": *[1-9]'
}

# --- 1. without a flood -----------------------------------------------------------
# A call is up when the LAC bridged it to its L2TP session (the access
# "up" count), a subscriber when its IPCP is up.  Past the LAC, l2tpns
# renegotiates LCP and asks PAP again through the bridge; with the held
# PAP request handed down the call as well (access-pap-handover yes) it
# checked some passwords twice and 4 to 17 of 50 subscribers failed in
# authentication, with and without the floods (S-STORM-4).
gen base 1
base_calls=$(stat up access)
[ "$base_calls" = "$N" ] && [ "$(j "$P/base.json" 'j["up"]')" = "$N" ]
check_err $? "without a flood: $base_calls calls up at the LAC, $(fig base)"
log_test "without a flood: $N calls up at the LAC; subscribers: $(fig base)"
wait_for 30 idle
check_err $? "the first subscribers did not all go"

# --- 2. with the floods ---------------------------------------------------------------
ip netns exec "$SUB" python3 "$HERE/hostile_edge.py" padi sw0 "$FLOOD_RATE" "$FLOOD_S" >"$P/padi.out" 2>&1 &
PADI=$!
defer kill_wait $PADI
ip netns exec "$LNS" python3 "$HERE/hostile_edge.py" tunnels 10.80.0.50 10.80.0.1 "$TUNNELS" 25 \
	>"$P/tunnels.out" 2>&1 &
TUN=$!
defer kill_wait $TUN
lib_sleep 2
gen flood 1001
pid_gone "$PADI"
check_fail $? "the PADI flood ended before the subscribers did"
flood_calls=$(($(stat up access) - base_calls))
[ "$flood_calls" = "$N" ] && [ "$(j "$P/flood.json" 'j["up"]')" = "$N" ]
check_err $? "with the floods: $flood_calls calls up at the LAC, $(fig flood)"
wait "$PADI"
sent=$(awk '/^padi sent/ { print $3 }' "$P/padi.out")
[ "${sent:-0}" -ge $((FLOOD_RATE * FLOOD_S * 9 / 10)) ]
check_err $? "the flooder sent ${sent:-0} PADI, not $FLOOD_RATE a second"
log_test "1000 PADI/s on acc0 (${sent:-?} sent in $FLOOD_S s), a tunnel flood: $flood_calls calls up; subscribers: $(fig flood)"
echo "# $("$L" login stats socket "$SOCK" | grep '^access')"

wait "$TUN"
read -r _ _ est _ ref _ sil _ _ < <(grep '^tunnels established' "$P/tunnels.out")
[ "${est:-}" = 64 ] && [ $((ref + sil)) = $((TUNNELS - 64)) ]
check_err $? "the tunnel flood: $(cat "$P/tunnels.out")"
capped=$(stat tunnels-capped) dropped=$(stat sccrq-capped)
[ "$capped" = "$ref" ] && [ "$dropped" = "$sil" ]
check_err $? "tunnels-capped $capped (the flooder saw $ref StopCCN), sccrq-capped $dropped (it saw $sil unanswered)"
log_test "the tunnel flood from one address: ${est:-?} established, ${ref:-?} refused, ${sil:-?} unanswered, counted so"

# --- 3. every count exact -----------------------------------------------------------------
wait_for 30 idle
check_err $? "subscribers or sessions left: $("$L" login stats socket "$SOCK")"
ok=$(stat logins-ok) up=$(stat up access) logins=$(stat logins access) refused=$(stat refused access)
[ "$ok" = $((2 * N)) ] && [ "$up" = $((2 * N)) ] && [ "$logins" = $((2 * N)) ] && [ "$refused" = 0 ]
check_err $? "logins-ok $ok, access logins $logins up $up refused $refused (want $((2 * N)), 0)"
# every PADI the agent read was answered or dropped by the line's rate
padi=$(stat padi access) pado=$(stat pado access) rd=$(stat rate-dropped access)
[ "$padi" = $((pado + rd)) ]
check_err $? "padi $padi, pado $pado + rate-dropped $rd"
log_test "afterwards: logins $logins, calls up $up, refused $refused; padi $padi = pado $pado + rate-dropped $rd; no subscriber, session or module session left"
echo "# $("$L" login stats socket "$SOCK" | grep '^access')"

[ "$EXIT_STATUS" = 0 ] || show_logs
exit $EXIT_STATUS
