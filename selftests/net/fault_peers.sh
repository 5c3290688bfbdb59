#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only real peers: Debian's kernel only (L2TPSEL_PEERS_ON_DEBUG=1 runs it on the debug kernel)
#
# Faults with real peers (S-L2TP-1, S-L2TP-4, S-L2TP-5, S-LIM-1,
# S-SEL-4): the l2tpseld agent as LAC (dataplane kernel: kernel L2TP
# tunnels and sessions, pppd) driven by "l2tpsel login start", two xl2tpd
# LNS.  After each fault every counter of the module (chassis, destination,
# selection tunnel, admission sessions, logins in progress) equals the
# sessions the agent holds established, and the kernel L2TP objects of the
# hub are those of the live sessions (selftests/fault_lib.sh).
#
# 1. loss and reordering: tc netem "loss 20% delay 20ms reorder 25% 50%"
#    both ways on lns1's link while $N logins run, $P at a time: every login
#    succeeds (retransmission on both sides), netem's drop counters prove the
#    loss happened;
# 2. StopCCN from the LNS with live sessions: SIGTERM to lns2's xl2tpd (its
#    death handler sends StopCCN on every tunnel, once, and exits): the agent
#    logs the StopCCN, ends those sessions (SESSION_DOWN: selection and
#    admission), lns2's counts drop to 0, its kernel tunnel and
#    sessions and its pppd are gone, lns1's sessions are untouched;
# 3. kill -9 of the agent mid-handshake and with live sessions: 6 s netem
#    delay (debug kernel: 20 s) each way on both LNS, one login waiting for
#    its SCCRP (lns2, restarted) and one for its ICRP (lns1's tunnel
#    reused), the sessions of 1. and 2. live; right after the kill the
#    kernel holds no login and counts no session (both belonged to the
#    agent's netlink socket) and the kernel L2TP objects are gone with the
#    agent's sockets; after the restart every count is still 0; with the
#    delay gone two logins succeed and count exactly, also while the LNS
#    still answer the dead agent's messages;
#    (logout is left to e2e_spread.sh: this test must fit run.sh's 300 s)
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../peers.sh"
source "$(dirname "$0")/../fault_lib.sh"

require_root
require_module_file
require_cmd jq
peers_require
peers_require_agent

# 3 logins at once on the stock kernel; on the debug kernel (everything
# several times slower under TCG) 1.
# The netem delay that holds two logins mid-handshake while the test sees
# them there and kills the agent: 6 s each way (3 s was too short for the
# test's polling on a loaded host); on the debug kernel, where one "login
# show" takes seconds, 20 s (10 s was too short; the setup timeouts are
# 30 s, the kill comes before them).  The debug kernel gets one login per
# step: with 2 the test ran out of its 900 s there.
case $(uname -r) in
*debug*) N=${FAULT_N:-1} P=${FAULT_P:-1} MID_DELAY=20 DEBUG=1 ;;
*)	 N=${FAULT_N:-3} P=${FAULT_P:-3} MID_DELAY=6 DEBUG=0 ;;
esac

mod_load || fail "insmod $L2TPSEL_KO failed"
peers_init 10.210.0.1 || fail "cannot set up the hub"
peers_add "lns1 10.220.0.11" "lns2 10.220.0.12" || fail "cannot add the peers"
peer_lns_start lns1 host lns-1
check_err $? "xl2tpd lns1 did not start"
peer_lns_start lns2 host lns-2
check_err $? "xl2tpd lns2 did not start"
peers_kconf <<-KCONF
profile add L
tunnel add T1 profile L level 0 dest 10.220.0.11
domain add loss.example profile L
profile add S
tunnel add T2 profile S level 0 dest 10.220.0.12
domain add stop.example profile S
KCONF
check_err $? "the kernel configuration was refused"
# Generous setup timeouts: what is tested is retransmission, not failover.
AGENT_OPTS=(-o "dataplane kernel" -o "sccrq-timeout 30s" -o "icrq-timeout 30s" -o "log-level 2")
peers_agent_start "${AGENT_OPTS[@]}"
check_err $? "l2tpseld did not start"
peers_ready
check_err $? "an xl2tpd LNS did not start"
log_info "setup done at $SECONDS s"
log_test "2 xl2tpd LNS, l2tpseld as LAC with the kernel data path"
[ "$EXIT_STATUS" = 0 ] || { peers_show; exit $EXIT_STATUS; }

HUB=$PEERS_HUB
D=$PEERS_DIR
SOCK=$D/agent.sock
hub() { ip netns exec "$HUB" "$@"; }
show_logs() {
	echo "--- agent.log (last 40 lines)"; tail -n 40 "$D/agent.log"
	peers_show
}

# login_wave DOMAIN FIRST LAST [DOMAIN FIRST LAST...]: logins uI@DOMAIN
# for I = FIRST..LAST, all at once; their outputs in $D/login.I; prints how
# many succeeded.
login_wave() {
	local i pids=() all=()
	while [ $# -ge 3 ]; do
		for i in $(seq "$2" "$3"); do
			peers_login start "u$i@$1" >"$D/login.$i" 2>&1 &
			pids+=($!)
			all+=("$i")
		done
		shift 3
	done
	wait "${pids[@]}"
	for i in "${all[@]}"; do
		grep -q '^done ok' "$D/login.$i" && echo "$i"
	done | grep -c .
}

# netem_drops NAME: packets netem dropped on NAME's link, both ways.
netem_drops() {
	{
		hub tc -s qdisc show dev "p-$1"
		ip netns exec "$(peer_ns "$1")" tc -s qdisc show dev eth0
	} | sed -n 's/.*(dropped \([0-9]*\),.*/\1/p' | awk '{ n += $1 } END { print n + 0 }'
}

# --- 1. 20 % loss and reordering while logins run ------------------------------
peer_netem lns1 both loss 20% delay 20ms reorder 25% 50%
check_err $? "netem on lns1"
t0=$SECONDS
ok=0
for ((first = 1; first <= N; first += P)); do
	last=$((first + P - 1))
	[ $last -le $N ] || last=$N
	ok=$((ok + $(login_wave loss.example $first $last)))
done
drops=$(netem_drops lns1)
echo "$ok of $N logins ok in $((SECONDS - t0)) s under loss; netem dropped $drops packets"
grep -h '^attempt\|^outcome\|^done' "$D"/login.* | sort | uniq -c | sort -rn | head -n 8
expect "$ok" "$N" "logins that succeeded under 20 % loss and reordering"
[ "$drops" -gt 0 ]
check_err $? "netem dropped nothing: the loss did not happen"
# A session may still end after its login (seen once in 8 runs: 3 of 4 left
# a few seconds later, the LNS's pppd "Modem hangup"): what must hold is
# that every counter follows; L1 = what is live on lns1, read again before
# each check (such an end can come during phase 2 as well).
lns1_live() {
	L1=$(fault_agent_view "$SOCK" | sed -n 's/.* 10\.220\.0\.11=\([0-9]*\).*/\1/p')
	L1=${L1:-0}
}
lns1_live
[ "$L1" = "$N" ] || {
	echo "$((N - L1)) of the $N sessions ended after their login:"
	grep 'established -> closed' "$D/agent.log"
}
fault_check_counts "$HUB" "$SOCK" "after the lossy logins" 10.220.0.11=$L1
expect "$(fault_data_objects "$HUB")" "tunnels 1 sessions $L1" "kernel L2TP objects in the hub"
log_info "phase 1 done at $SECONDS s"
log_test "20 % loss + reordering: $N logins all succeed, counts = the $L1 live"
peer_netem_clear lns1

# --- 2. StopCCN from the LNS in the middle of live sessions ---------------------
S=$(((N + 1) / 2))
ok=$(login_wave stop.example 101 $((100 + S)))
expect "$ok" "$S" "logins to lns2"
lns1_live
fault_check_counts "$HUB" "$SOCK" "before the StopCCN" 10.220.0.11=$L1 10.220.0.12=$S
expect "$(fault_data_objects "$HUB")" "tunnels 2 sessions $((L1 + S))" "kernel L2TP objects before the StopCCN"
kill -TERM "$(cat "$D/lns2.pid")"
check_err $? "no xl2tpd pid for lns2"
lns2_gone() {
	[[ $(fault_agent_view "$SOCK") != *10.220.0.12=* ]]
}
wait_for 20 lns2_gone
check_err $? "the agent still holds lns2's sessions 20 s after xl2tpd's StopCCN"
grep -q 'to 10.220.0.12:1701: StopCCN received' "$D/agent.log"
check_err $? "the agent did not log a StopCCN from lns2"
grep 'StopCCN received' "$D/agent.log" | head -n 2
lns1_live
fault_check_counts "$HUB" "$SOCK" "after the StopCCN" 10.220.0.11=$L1
# polled: the torn-down sessions' pppd and kernel objects take a moment to go
hub_data_follows() {
	lns1_live
	if [ "$L1" -gt 0 ]; then
		[ "$(fault_data_objects "$HUB")" = "tunnels 1 sessions $L1" ]
	else
		[ "$(fault_data_objects "$HUB")" = "tunnels 0 sessions 0" ]
	fi
}
wait_for 10 hub_data_follows
check_err $? "kernel L2TP objects in the hub after the StopCCN: $(fault_data_objects "$HUB"), expected $L1 sessions to lns1 only"
pppd_n() {
	pgrep -P "$PEERS_AGENT_PID" -x pppd | grep -c .
}
pppd_follows() {
	lns1_live
	[ "$(pppd_n)" = "$L1" ]
}
wait_for 10 pppd_follows
check_err $? "the agent has $(pppd_n) pppd, expected $L1 (its live sessions)"
log_info "phase 2 done at $SECONDS s"
log_test "StopCCN from xl2tpd: $S sessions torn down, lns2 counts 0, its kernel objects gone"

# --- 3. kill -9 mid-handshake and with live sessions ------------------------------
peer_lns_start lns2 host lns-2 && peers_ready
check_err $? "xl2tpd lns2 did not restart"
peer_netem lns1 both delay ${MID_DELAY}s
peer_netem lns2 both delay ${MID_DELAY}s
peers_login start mid1@stop.example >"$D/mid1" 2>&1 &
m1=$!
peers_login start mid2@loss.example >"$D/mid2" 2>&1 &
m2=$!
in_flight() {
	local s
	s=$(peers_login show)
	has_line 'peer 10.220.0.12:1701 .* state wait-sccrp' "$s" &&
		has_line ' role lac state wait-tunnel .* user mid1@' "$s" &&
		has_line ' role lac state wait-icrp .* user mid2@' "$s"
}
wait_for $((MID_DELAY * 3 + 5)) in_flight
check_err $? "the two logins were not waiting for SCCRP and ICRP: $(peers_login show | tr '\n' ';')"
kv=$(fault_kernel_view "$HUB")
pre=$(fault_agent_view "$SOCK")
echo "mid-handshake: $kv; agent: $pre"
[[ $kv == *" logins 2 "* ]]
check_err $? "the kernel does not hold the 2 logins in progress"
kill -9 "$PEERS_AGENT_PID"
wait "$PEERS_AGENT_PID" 2>/dev/null
wait $m1 $m2
cat "$D/mid1" "$D/mid2"
grep -q '^done ok' "$D/mid1" "$D/mid2"
check_fail $? "a login reported success although the agent was killed"
kv=$(fault_kernel_view "$HUB")
echo "right after kill -9: $kv"
expect "$kv" "$(fault_want 0)" "the kernel's view right after kill -9 (the dead agent's sessions and logins ended with its socket)"
mv "$D/agent.log" "$D/agent-1.log"
t0=${EPOCHREALTIME/./}000
peers_agent_start "${AGENT_OPTS[@]}"
check_err $? "l2tpseld did not restart"
echo "restart took $(((${EPOCHREALTIME/./}000 - t0) / 1000000)) ms"
fault_check_counts "$HUB" "$SOCK" "after the restart"
expect "$(fault_data_objects "$HUB")" "tunnels 0 sessions 0" "kernel L2TP objects after the restart"
no_ppp() {
	! ip -n "$HUB" -o link show | grep -q ': ppp'
}
# pppd ends with the agent that started it (PR_SET_PDEATHSIG, dp.c): SIGTERM
# at the agent's death, then pppd's own termination (LCP over a dead channel).
orphans() {
	local p
	for p in $(ip netns pids "$HUB"); do
		[ "$(ps -o comm= -p "$p" 2>/dev/null)" = pppd ] &&
			[ "$(ps -o ppid= -p "$p" | tr -d ' ')" = 1 ] && echo "$p"
	done | tr '\n' ' '
}
t0=$SECONDS
wait_for 20 no_ppp
check_err $? "20 s after kill -9 the dead agent's pppd ($(orphans)) still run, with $(ip -n "$HUB" -o link show | grep -c ': ppp') ppp links in the hub"
echo "the dead agent's pppd and ppp links were gone $((SECONDS - t0)) s after the restart"
if [ "$RET" != 0 ]; then
	kill $(orphans) 2>/dev/null	# so that the test goes on
	wait_for 10 no_ppp
fi
log_info "phase 3 done at $SECONDS s"
log_test "kill -9 mid-handshake (SCCRQ and ICRQ in flight) with $(set -- $pre; echo "$2") live: restart, every count 0"

peer_netem_clear lns1
peer_netem_clear lns2
ok=$(login_wave loss.example 201 201 stop.example 202 202)
expect "$ok" 2 "logins after the restart"
fault_check_counts "$HUB" "$SOCK" "after two new logins" 10.220.0.11=1 10.220.0.12=1
expect "$(fault_data_objects "$HUB")" "tunnels 2 sessions 2" "kernel L2TP objects after two new logins"
log_info "phase 3b done at $SECONDS s"
log_test "after the restart: two logins, counts exact"

# (Logout is e2e_spread.sh's; left out here to stay inside run.sh's 300 s on a
# loaded host: this test took 250-310 s at load 15-20.)
# rx-no-tunnel: the LNS's late answers to the dead agent's tunnels
peers_login stats
[ "$EXIT_STATUS" = 0 ] || show_logs
exit $EXIT_STATUS
