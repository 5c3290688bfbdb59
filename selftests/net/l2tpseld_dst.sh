#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only real peers: Debian's kernel only (L2TPSEL_PEERS_ON_DEBUG=1 runs it on the debug kernel)
#
# l2tpseld's control messages and the kernel's data frames on one tunnel,
# while the routes change (S-L2TP-4).  On Linux 6.1 a send() on the UDP
# socket that carries a kernel tunnel races the kernel's own transmit over
# the socket's route cache: once a route change makes the cached route
# obsolete, both release it ("dst_release underflow", a use-after-free).
# The agent sends its control messages on a second socket bound to the same
# address and port (userspace/l2tpseld/sock.c, tx_socket()).
#
# - the technique: l2tpsel-dptest dstrace, data frames on a kernel tunnel,
#   control datagrams on a second socket and route-cache flushes, IPv4 and
#   IPv6; its "connected" mode (send() on the tunnel's socket) makes the
#   WARN within seconds, so it is not run here (the guest panics on a WARN);
# - the agent: LAC with the kernel data path to an xl2tpd LNS, a HELLO
#   every 10 ms, a ping flood across PPP and route-cache flushes in the
#   hub; strace shows every control message leaving on the second socket
#   (none on the kernel's), the tunnel stays up, the kernel log clean.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../peers.sh"

L=$L2TPSEL_CLI
DPT=$TOP/build/l2tpsel-dptest
SECS=${DST_SECONDS:-10}

require_root
peers_require
peers_require_agent
[ -x "$DPT" ] || skip "no $DPT (run make)"
require_cmd strace
modprobe -q l2tp_netlink
mod_load || fail "insmod $L2TPSEL_KO failed"

no_warn() {
	! dmesg | grep -q 'dst_release underflow'
}

# --- the technique ----------------------------------------------------------------
ns=dst-$$
ip netns add "$ns" || fail "ip netns add"
defer ip netns del "$ns"
ip -n "$ns" link set lo up
ip netns exec "$ns" "$DPT" dstrace 127.0.0.1:1701 127.0.0.1:1702 "$SECS" separate
check_err $? "dstrace over IPv4"
ip netns exec "$ns" "$DPT" dstrace '[::1]:1701' '[::1]:1702' "$SECS" separate
check_err $? "dstrace over IPv6"
no_warn
check_err $? "the kernel released a route twice"
log_test "control on a second socket, kernel data on the tunnel's: no double release"

# --- the agent --------------------------------------------------------------------
peers_init 10.211.0.1 || fail "cannot set up the hub"
peers_add "lns1 10.221.0.11" || fail "cannot add the peer"
peer_lns_start lns1 host lns-one || fail "xl2tpd lns1 did not start"
HUB=$PEERS_HUB
hub() { ip netns exec "$HUB" "$@"; }
printf '%s\n' "profile add P" "tunnel add T1 profile P level 0 dest 10.221.0.11" \
	"domain add example profile P" | peers_kconf >/dev/null || fail "hub configuration failed"
peers_agent_start -o 'kernel netlink' -o 'dataplane kernel' -o 'hello-interval 10ms' \
	-o 'log-level 2' || fail "l2tpseld did not start: $(cat "$PEERS_DIR/agent.log")"
peers_login start alice@example >"$PEERS_DIR/o1" 2>&1
check_err $? "login failed: $(cat "$PEERS_DIR/o1")"
ppp_up() { ip -n "$HUB" -4 addr show | grep -q 'inet .* peer '; }
wait_for 15 ppp_up
check_err $? "no PPP link in the hub"
lns_ppp=$(peer_lns_ppp_addr lns1)

# Which socket each control message leaves on, while the kernel holds the
# tunnel's: strace on the agent for the flood.
strace -f -qq -e trace=sendto,sendmsg -o "$PEERS_DIR/sends" -p "$PEERS_AGENT_PID" &
tracer=$!
defer kill_wait $tracer
hub bash -c 'while :; do echo 1 > /proc/sys/net/ipv4/route/flush; done' &
flusher=$!
defer kill_wait $flusher
hub ping -f -q -s 1000 -w "$SECS" "$lns_ppp" >"$PEERS_DIR/ping" 2>&1
kill_wait $flusher
kill_wait $tracer
grep -E 'transmitted|rtt' "$PEERS_DIR/ping"
grep -Eq ' [1-9][0-9]* received' "$PEERS_DIR/ping"
check_err $? "no ping reply across PPP: $(cat "$PEERS_DIR/ping")"
# L2TP control messages start with 0xc8 0x02 (T, L, S; version 2)
on_tunnel=$(grep -c '"\\310\\2.*, NULL, 0) = ' "$PEERS_DIR/sends")
addressed=$(grep '"\\310\\2' "$PEERS_DIR/sends" | grep -c 'inet_addr("10.221.0.11")')
echo "control messages in the flood: $addressed on the control socket, $on_tunnel on the tunnel's"
[ "$on_tunnel" = 0 ] && [ "$addressed" -ge 10 ]
check_err $? "control messages were sent on the kernel tunnel's socket: $(grep -m3 NULL "$PEERS_DIR/sends")"
hub ip l2tp show tunnel | grep -q '^Tunnel'
check_err $? "the kernel tunnel is gone"
no_warn
check_err $? "the kernel released a route twice"
log_test "agent: HELLOs every 10 ms, ping flood and route flushes, no double release"

[ "$EXIT_STATUS" = 0 ] || { tail -30 "$PEERS_DIR/agent.log"; peers_show; }
exit $EXIT_STATUS
