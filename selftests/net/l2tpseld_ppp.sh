#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only real peers: the agent's pppd roles; the kernel data path runs on the debug kernel in dataplane and access_pppoe
#
# l2tpseld with "dataplane kernel" (S-L2TP-4, S-L2TP-5): one agent
# in the hub namespace plays both roles, with the l2tpsel module:
#
# - LAC: a login through the module to an xl2tpd LNS; the agent creates the
#   kernel tunnel on its own UDP socket, the session, a PPPoL2TP socket and
#   pppd in dialer mode; PPP comes up and a ping crosses it;
# - LNS: an xl2tpd LAC dials the agent; admission by the module, kernel
#   data path, pppd in LNS mode; PPP up and a ping across;
# - logout / hang-up: pppd gone, the kernel session and tunnel deleted,
#   the counts back to 0;
# - no pppd to start: the call is cleared with a CDN,
#   the login fails as a local failure, the LNS is neither locked out nor
#   charged, nothing stays counted.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../peers.sh"

L2D=${L2TPSELD:-$TOP/build/l2tpseld}
L=$L2TPSEL_CLI

require_root
peers_require debug
[ -x "$L2D" ] || skip "no $L2D (run make)"
mod_load || fail "insmod $L2TPSEL_KO failed"

peers_init 10.210.0.1 || fail "cannot set up the hub"
peers_add "lns1 10.220.0.11" "lac1 10.220.0.50" || fail "cannot add the peers"
peer_lns_start lns1 host lns-one || fail "xl2tpd lns1 did not start"
peer_lac_start lac1 10.210.0.1 host lac-one || fail "xl2tpd lac1 did not start"
HUB=$PEERS_HUB
D=$PEERS_DIR
hub() { ip netns exec "$HUB" "$@"; }

for role in lac lns; do
	cat >"$D/agent-$role.options" <<-OPT
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
	logfile $D/agent-$role-pppd.log
	debug
	OPT
done
echo "10.240.0.1:10.240.0.2" >>"$D/agent-lns.options"

printf '%s\n' "profile add P" "tunnel add T1 profile P level 0 dest 10.220.0.11" \
	"domain add example profile P" >"$D/config"
hub "$L" -b "$D/config" >/dev/null || fail "hub configuration failed"

# ip netns exec, not hub(): $! is then the agent itself (ip execs it)
ip netns exec "$HUB" "$L2D" -o 'kernel netlink' -o 'dataplane kernel' -o "socket $D/agent.sock" \
	-o 'hostname hub-agent' -o 'listen 10.210.0.1' \
	-o "pppd-file $D/agent-lac.options" -o "lns-pppd-file $D/agent-lns.options" \
	-o 'log-level 2' 2>"$D/agent.log" &
AGENT=$!
defer kill_wait $AGENT
wait_for 5 test -S "$D/agent.sock" || { cat "$D/agent.log"; fail "l2tpseld did not start"; }
peers_ready || fail "an xl2tpd did not start"

show_logs() {
	echo "--- agent.log"; tail -40 "$D/agent.log"
	for f in "$D"/agent-*-pppd.log; do echo "--- $f"; tail -15 "$f"; done
	peers_show
}

# --- LAC role -------------------------------------------------------------------
t0=${EPOCHREALTIME/./}000
hub "$L" login start alice@example socket "$D/agent.sock" >"$D/o1" 2>&1
check_err $? "login failed: $(cat "$D/o1")"
cat "$D/o1"
ppp_up() {	# ppp_up NS: a ppp interface with an IPv4 address and a peer
	ip -n "$1" -4 addr show | grep -q 'inet .* peer '
}
wait_for 15 ppp_up "$HUB"
check_err $? "no PPP link in the hub"
echo "login to PPP up: $(((${EPOCHREALTIME/./}000 - t0) / 1000000)) ms"
hub ip l2tp show tunnel | grep -q '^Tunnel'
check_err $? "no kernel tunnel in the hub"
hub ip l2tp show session | grep -q '^Session'
check_err $? "no kernel session in the hub"
lns_ppp=$(peer_lns_ppp_addr lns1)
hub ping -c 2 -W 2 "$lns_ppp" >/dev/null 2>&1 || hub busybox ping -c 2 -W 2 "$lns_ppp" >/dev/null
check_err $? "no ping across the PPP link to $lns_ppp"
log_test "LAC: login, kernel tunnel and session, pppd dialer, ping across PPP"

# --- LNS role: an xl2tpd LAC dials the agent ------------------------------------
LACNS=$(peer_ns lac1)
peer_lac_dial lac1
wait_for 15 ppp_up "$LACNS"
check_err $? "no PPP link on the xl2tpd LAC"
ip netns exec "$LACNS" ping -c 2 -W 2 10.240.0.1 >/dev/null 2>&1 ||
	ip netns exec "$LACNS" busybox ping -c 2 -W 2 10.240.0.1 >/dev/null
check_err $? "no ping from the xl2tpd LAC across PPP to the agent"
out=$(hub "$L" session show)
echo "$out"
grep -q 'role lns .*client lac-one' <<<"$out"
check_err $? "the LNS session was not admitted with client lac-one"
expect "$(val "$(hub "$L" summary)" sessions)" 2 "sessions counted (one LAC, one LNS)"
log_test "LNS: xl2tpd LAC, admission, kernel data path, pppd LNS mode, ping"

# --- teardown -------------------------------------------------------------------
hub "$L" login stop 1 socket "$D/agent.sock" >/dev/null
check_err $? "login stop 1"
peer_lac_hangup lac1
pppd_pids=$(sed -n 's/.*: pppd \([0-9]*\) started$/\1/p' "$D/agent.log")
[ "$(wc -w <<<"$pppd_pids")" = 2 ]
check_err $? "the agent did not start two pppd: $pppd_pids"
gone() {
	local p
	[ -z "$(hub ip l2tp show session)" ] || return 1
	for p in $pppd_pids; do
		! kill -0 "$p" 2>/dev/null || return 1
	done
}
wait_for 10 gone
check_err $? "kernel sessions or pppd left: $(hub ip l2tp show session) pppd $pppd_pids"
no_ktunnel() { ! hub ip l2tp show tunnel | grep -q 10.220.0.11; }
wait_for 5 no_ktunnel
check_err $? "the LAC tunnel's kernel tunnel was not deleted"
expect "$(val "$(hub "$L" summary)" sessions)" 0 "sessions counted after teardown"
log_test "teardown: pppd gone, kernel session and tunnel deleted, counts 0"

# --- no data path for the call: the login fails as local, nobody blamed ------
kill_wait "$AGENT"
rm -f "$D/agent.sock"
ip netns exec "$HUB" "$L2D" -o 'kernel netlink' -o 'dataplane kernel' -o "socket $D/agent.sock" \
	-o 'hostname hub-agent' -o 'pppd /nonexistent/pppd' \
	-o "pppd-file $D/agent-lac.options" -o 'log-level 2' 2>"$D/agent2.log" &
defer kill_wait $!
wait_for 5 test -S "$D/agent.sock" || { cat "$D/agent2.log"; fail "l2tpseld did not restart"; }
hub "$L" login start bob@example socket "$D/agent.sock" >"$D/o2" 2>&1
rc=$?
cat "$D/o2"
[ "$rc" != 0 ]
check_err $? "the login succeeded without pppd"
has_line 'outcome 1 local' "$(cat "$D/o2")"
check_err $? "the attempt was not reported as a local failure"
grep -q 'data path not created' "$D/agent2.log"
check_err $? "the agent did not say the data path failed"
out=$(hub "$L" destination show)
echo "$out"
grep -Eq '^10.220.0.11 .*lockout-ms 0 .*failures 0' <<<"$out"
check_err $? "the LNS was locked out or charged with a failure"
expect "$(val "$(hub "$L" summary)" sessions)" 0 "sessions counted"
no_ksession() { [ -z "$(hub ip l2tp show session)" ]; }
wait_for 5 no_ksession
check_err $? "a kernel session was left: $(hub ip l2tp show session)"
log_test "no pppd: the call is cleared (CDN), the login fails as local, no lockout"

[ "$EXIT_STATUS" = 0 ] || show_logs
exit $EXIT_STATUS
