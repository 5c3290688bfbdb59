#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# l2tpseld's data-path handoff without any control plane (S-L2TP-5):
# two namespaces joined by a veth pair, a connected UDP socket on each side,
# and l2tpsel-dptest (userspace/l2tpseld/dp.c) creating the kernel L2TPv2
# tunnel and PPP session with matching ids, a PPPoL2TP socket and pppd (LNS
# mode on one side, dialer mode on the other).  The PPP link comes up and a
# ping crosses it; dptest never reads its UDP socket, so the frames are the
# kernel's.  Teardown leaves nothing behind.  First, every refusal of dp.c is
# checked against the errno dp.h promises.
source "$(dirname "$0")/../lib.sh"

DPTEST=${L2TPSEL_DPTEST:-$TOP/build/l2tpsel-dptest}
A_ADDR=10.202.0.1
B_ADDR=10.202.0.2
A_PPP=10.203.0.1
B_PPP=10.203.0.2

require_root
require_cmd ip pppd ping
[ -x "$DPTEST" ] || skip "no $DPTEST (run make)"
ls /usr/lib/pppd/*/pppol2tp.so >/dev/null 2>&1 || skip "pppd has no pppol2tp.so plugin"

# The stock Debian kernel's L2TP and PPP modules: l2tp_ppp pulls in the rest
# (a modprobe costs about a second in the emulated guest, even a no-op one).
for m in veth l2tp_ppp; do
	[ -d "/sys/module/$m" ] || modprobe -q "$m"
done
mods=
for m in veth l2tp_core l2tp_netlink l2tp_ppp pppox ppp_generic; do
	[ -d "/sys/module/$m" ]
	check_err $? "kernel module $m is not loaded"
	mods+=" $m"
done
log_test "modules load:$mods"
[ "$EXIT_STATUS" = 0 ] || exit $EXIT_STATUS

setup_ns a b || fail "cannot create namespaces"
make_tmpdir d || fail "cannot create a temporary directory"
veth_link "$a" $A_ADDR "$b" $B_ADDR
check_err $? "cannot set up the veth pair"
log_test "veth underlay between $a and $b"

# --- the refusals -------------------------------------------------------------
t0=$(date +%s%N)
ip netns exec "$a" "$DPTEST" errors $A_ADDR:1702 $B_ADDR:1702
check_err $? "dp.c's errors are not the ones dp.h promises"
echo "error checks: $((($(date +%s%N) - t0) / 1000000)) ms"
log_test "every refusal of dp.c has the promised errno and a sentence"
[ -z "$(ip -n "$a" l2tp show tunnel)" ]
check_err $? "the error checks left a kernel tunnel behind"
log_test "the error checks leave no kernel tunnel"

# --- the handoff ----------------------------------------------------------------
for side in a b; do
	cat >"$d/$side.options" <<-OPT
	noauth
	nodefaultroute
	noipdefault
	ipcp-accept-local
	ipcp-accept-remote
	mtu 1400
	mru 1400
	lcp-echo-interval 0
	noipv6
	noccp
	lcp-restart 1
	ipcp-restart 1
	ip-up-script /bin/true
	ip-down-script /bin/true
	debug
	OPT
done
echo "$A_PPP:$B_PPP" >>"$d/a.options"

# Side a: tunnel 11 / session 21, peer's 12 / 22; side b the mirror image.
t0=$(date +%s%N)
ip netns exec "$a" "$DPTEST" up $A_ADDR:1701 $B_ADDR:1701 11 12 21 22 lns \
	optfile "$d/a.options" logfile "$d/a-pppd.log" >"$d/a.log" 2>&1 &
a_pid=$!
defer kill_wait $a_pid
ip netns exec "$b" "$DPTEST" up $B_ADDR:1701 $A_ADDR:1701 12 11 22 21 \
	optfile "$d/b.options" logfile "$d/b-pppd.log" >"$d/b.log" 2>&1 &
b_pid=$!
defer kill_wait $b_pid

ready() {
	grep -q '^ready' "$d/a.log" && grep -q '^ready' "$d/b.log"
}
# Generous: on the debug kernel under load each step is 10-40 times slower.
wait_for 60 ready
check_err $? "dptest did not get to pppd on both sides within 60 s"
for ns in "$a" "$b"; do
	ip -n "$ns" l2tp show tunnel | grep -q '^Tunnel'
	check_err $? "$ns: no kernel tunnel"
	ip -n "$ns" l2tp show session | grep -q '^Session'
	check_err $? "$ns: no kernel session"
done
read -r sid peer < <(ip -n "$a" l2tp show session |
	awk '/^Session/ { s = $2 } /Peer session/ { sub(",", "", $3); print s, $3 }')
[ "${sid:-}" = 21 ] && [ "${peer:-}" = 22 ]
check_err $? "$a: session ${sid:-?} peer ${peer:-?}, not 21 peer 22"
log_test "kernel tunnel + PPP session + PPPoL2TP + pppd on both sides"
[ "$EXIT_STATUS" = 0 ] || { tail -n 20 "$d"/*.log; exit $EXIT_STATUS; }

ppp_up() {
	[ "$(ppp_addr "$a" | cut -d ' ' -f 2)" = $A_PPP ] &&
		[ "$(ppp_addr "$b" | cut -d ' ' -f 2)" = $B_PPP ]
}
wait_for 120 ppp_up
check_err $? "no PPP link with $A_PPP and $B_PPP within 120 s"
echo "PPP up $((($(date +%s%N) - t0) / 1000000)) ms after start: $(ppp_addr "$a") / $(ppp_addr "$b")"
log_test "PPP link up over the kernel's L2TP data path"

ip netns exec "$b" ping -c 3 -i 0.2 -W 2 $A_PPP
check_err $? "ping from $B_PPP to $A_PPP over PPP failed"
ip netns exec "$a" ping -c 2 -i 0.2 -W 2 $B_PPP
check_err $? "ping from $A_PPP to $B_PPP over PPP failed"
log_test "ping crosses the PPP link both ways"

# --- teardown ---------------------------------------------------------------
# a first: its pppd ends the link, b's pppd sees the LCP terminate and exits
# on its own; b's dptest must still delete its session and tunnel cleanly.
for side in a b; do
	pid_var=${side}_pid
	t0=$(date +%s%N)
	kill -TERM "${!pid_var}"
	wait "${!pid_var}"
	check_err $? "dptest on side $side did not tear down cleanly"
	echo "side $side torn down in $((($(date +%s%N) - t0) / 1000000)) ms"
	grep -q '^session .*: deleted' "$d/$side.log" && grep -q '^tunnel .*: deleted' "$d/$side.log"
	check_err $? "side $side: session or tunnel not deleted"
done
for ns in "$a" "$b"; do
	[ -z "$(ip -n "$ns" l2tp show tunnel)" ] && [ -z "$(ip -n "$ns" l2tp show session)" ]
	check_err $? "$ns: kernel tunnel or session left"
	! ip -n "$ns" -o link show | grep -q ': ppp'
	check_err $? "$ns: a PPP interface is left"
	[ -z "$(ip netns pids "$ns")" ]
	check_err $? "$ns: processes left: $(ip netns pids "$ns" | tr '\n' ' ')"
done
log_test "teardown: pppd gone, session and tunnel deleted, nothing left"
sed "s/^/a: /" "$d/a.log"
sed "s/^/b: /" "$d/b.log"

if [ "$EXIT_STATUS" != 0 ]; then
	for f in "$d"/*.log; do
		echo "--- $(basename "$f")"
		tail -n 30 "$f"
	done
fi
exit $EXIT_STATUS
