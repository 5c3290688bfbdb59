#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only real peers: Debian's kernel only (L2TPSEL_PEERS_ON_DEBUG=1 runs it on the debug kernel)
#
# l2tpseld in the LNS role, every admission level end to end
# (S-LIM-1..5, S-LIM-7, S-LIM-9, S-L2TP-4): the agent listens in the hub and
# asks the l2tpsel module for each incoming session (client = the LAC's Host
# Name, tunnel group = the local address reached, mapped to "tg1").  The
# LACs are l2tpsel-dptest's minimal LAC, which prints the Result and Error
# Code of each CDN as they were on the wire, and, once, xl2tpd.
#
#   chassis 2               three calls: ok ok CDN 4/4
#   tunnel 1                two calls in one tunnel: ok CDN; another tunnel: ok
#   tunnel group tg1 2      lac1 holds one, lac2 calls twice: ok CDN
#   session-limit group 2   hostA (lac1) holds one, hostB (lac2): ok CDN
#   client "shared" 2       two LACs with the same host name share it
#   xl2tpd as LAC           admitted; refused once the chassis is full
#
# and each refusal came from the level under test (the agent's log).
# After each level the LACs clear their tunnels (StopCCN) and the kernel's
# count is back to 0.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../peers.sh"

HUB_ADDR=10.210.0.1

require_root
require_module_file
peers_require
peers_require_agent

mod_load || fail "insmod $L2TPSEL_KO failed"
peers_init $HUB_ADDR || fail "cannot set up the hub"
peers_add "lac1 10.220.0.51" "lac2 10.220.0.52" "xlac 10.220.0.53" ||
	fail "cannot add the peers"
peers_agent_start -o "listen $HUB_ADDR" -o "dataplane none" -o "tgroup-map $HUB_ADDR tg1"
check_err $? "l2tpseld did not start"
log_test "l2tpseld as LNS on $HUB_ADDR, three LAC namespaces"
[ "$EXIT_STATUS" = 0 ] || { peers_show; exit $EXIT_STATUS; }

L() {
	ip netns exec "$PEERS_HUB" "$L2TPSEL_CLI" "$@"
}

# lac NAME ARGS...: the minimal LAC in NAME's namespace towards the hub.
lac() {
	local name=$1
	shift
	ip netns exec "${PEER_NS[$name]}" "$PEERS_DPTEST" lac $HUB_ADDR \
		from "${PEER_ADDR[$name]}:1701" "$@"
}

# calls OUTPUT: "ok", "cdn4/4", "none" per call, blank-separated.
calls() {
	awk '$1 == "call" { w = $3 == "ok" ? "ok" : $3 == "cdn" ? "cdn" $5 "/" $7 : "none"
	     printf "%s%s", n++ ? " " : "", w }' <<<"$1"
}

# expect_calls WHAT WANT OUTPUT
expect_calls() {
	local got
	got=$(calls "$3")
	echo "$1: $got"
	[ "$got" = "$2" ] || check_err 1 "$1: calls \"$got\", expected \"$2\""
}

# hold NAME ARGS...: a LAC that keeps its sessions; its output in
# $PEERS_DIR/NAME.hold, its pid in HOLD_PID.
hold() {
	local name=$1
	shift
	# Not through lac(): $! must be the LAC itself (ip netns exec execs it).
	ip netns exec "${PEER_NS[$name]}" "$PEERS_DPTEST" lac $HUB_ADDR \
		from "${PEER_ADDR[$name]}:1701" "$@" hold >"$PEERS_DIR/$name.hold" 2>&1 &
	HOLD_PID=$!
	defer kill_wait $HOLD_PID
	wait_for 15 grep -q '^holding' "$PEERS_DIR/$name.hold"
}

# release: end the holding LAC (StopCCN), wait for the count to be 0.
sessions() {	# the first " sessions N" (two process starts, not four: polled)
	local out
	out=$(L limit show)
	[[ $out =~ \ sessions\ ([0-9]+) ]] && echo "${BASH_REMATCH[1]}"
}
zero() {
	[ "$(sessions)" = 0 ]
}
release() {
	if [ -n "${HOLD_PID:-}" ]; then
		kill -TERM "$HOLD_PID" 2>/dev/null
		wait "$HOLD_PID" 2>/dev/null
		HOLD_PID=
	fi
	wait_for 10 zero
	check_err $? "the kernel still counts $(sessions) session(s) after the LACs left"
}

# --- chassis ----------------------------------------------------------------------
L limit set chassis 2
check_err $? "limit set chassis 2"
expect_calls "chassis 2" "ok ok cdn4/4" "$(lac lac1 host hostA calls 3)"
release
L limit set chassis 0
log_test "chassis limit 2: ok ok, then CDN result 4 error 4"

# --- tunnel -----------------------------------------------------------------------
L limit set tunnel 1
check_err $? "limit set tunnel 1"
hold lac1 host hostA calls 2
check_err $? "lac1 did not get to hold its sessions"
expect_calls "tunnel 1, lac1" "ok cdn4/4" "$(cat "$PEERS_DIR/lac1.hold")"
expect_calls "tunnel 1, lac2 (another tunnel)" "ok" "$(lac lac2 host hostB calls 1)"
release
L limit set tunnel 0
log_test "tunnel limit 1: per tunnel, the second call CDN 4/4"

# --- tunnel group -----------------------------------------------------------------
L group add tg1 limit 2
check_err $? "group add tg1 limit 2"
hold lac1 host hostA calls 1
check_err $? "lac1 did not get to hold its session"
expect_calls "tunnel group tg1 2, lac2" "ok cdn4/4" "$(lac lac2 host hostB calls 2)"
release
L group set tg1 limit 0
log_test "tunnel group limit 2 across two tunnels: CDN 4/4"

# --- session-limit group ------------------------------------------------------
L group add s1 type slg limit 2 && L client add hostA slg s1 && L client add hostB slg s1
check_err $? "session-limit group s1 with clients hostA, hostB"
hold lac1 host hostA calls 1
check_err $? "lac1 did not get to hold its session"
expect_calls "slg s1 2, hostB" "ok cdn4/4" "$(lac lac2 host hostB calls 2)"
release
L client set hostA slg none && L client set hostB slg none
check_err $? "clients out of s1"
log_test "session-limit group 2 over two clients: CDN 4/4"

# --- client, shared by two LACs -------------------------------------------------
L client add shared limit 2
check_err $? "client add shared limit 2"
hold lac1 host shared calls 1
check_err $? "lac1 did not get to hold its session"
expect_calls "client shared 2, second LAC" "ok cdn4/4" "$(lac lac2 host shared calls 2)"
release
log_test "client limit 2 shared by two LACs with one host name: CDN 4/4"

# --- xl2tpd as LAC ------------------------------------------------------------------
peer_lac_start xlac $HUB_ADDR host xl2tpd-lac && peers_ready
check_err $? "xl2tpd LAC did not start"
peer_lac_dial xlac
admitted() {
	grep -q '(xl2tpd-lac) established as LNS' "$PEERS_DIR/agent.log" &&
		grep -q 'in tunnel .* established as LNS' "$PEERS_DIR/agent.log" &&
		[ "$(sessions)" = 1 ]
}
wait_for 15 admitted
check_err $? "xl2tpd's session was not admitted and counted"
peer_lac_hangup xlac
wait_for 10 zero
check_err $? "xl2tpd hung up, the kernel still counts $(sessions)"
L limit set chassis 1
hold lac1 host hostA calls 1
check_err $? "lac1 did not get to hold its session"
grep -c 'refused at level' "$PEERS_DIR/agent.log" >"$PEERS_DIR/refused.before"
peer_lac_dial xlac
refused() {
	[ "$(grep -c 'refused at level' "$PEERS_DIR/agent.log")" -gt "$(cat "$PEERS_DIR/refused.before")" ]
}
wait_for 15 refused
check_err $? "xl2tpd's second call was not refused with the chassis full"
grep 'xl2tpd\|refused' "$PEERS_DIR/agent.log" | tail -n 3
[ "$(sessions)" = 1 ]
check_err $? "the refusal changed the count ($(sessions))"
release
log_test "xl2tpd as LAC: admitted, then refused (chassis full), counts exact"

# Each refusal came from the level under test (the agent logs the level the
# module named: 0 chassis, 1 tunnel, 2 tunnel group, 3 slg, 4 client).
levels=$(sed -n 's/.*refused at level \([0-9]*\).*/\1/p' "$PEERS_DIR/agent.log" | tr '\n' ' ')
echo "refusing levels, in order: $levels"
[ "$levels" = "0 1 2 3 4 0 " ]
check_err $? "the refusals did not come from chassis, tunnel, group, slg, client, chassis"
log_test "each refusal names the level under test"

[ "$EXIT_STATUS" = 0 ] || peers_show
exit $EXIT_STATUS
