#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only real peers: Debian's kernel only (L2TPSEL_PEERS_ON_DEBUG=1 runs it on the debug kernel)
#
# l2tpseld with the real l2tpsel module (S-L2TP-1, S-L2TP-2,
# S-L2TP-4, S-SEL-4, S-LIM-1, S-LIM-7), control plane only (dataplane none):
#
#   hub ns:   l2tpseld LAC (kernel netlink), the CLI; profile P: level 0 a
#             silent destination, level 1 an xl2tpd LNS with tunnel
#             authentication; profile Q: an l2tpseld LNS
#   peers:    lns1 xl2tpd LNS (challenge, secret), quiet (silent), agl
#             l2tpseld LNS (kernel netlink, its own namespace's limits)
#
# - LOGIN_BEGIN/REPORT: the silent destination is no-reply after the SCCRQ
#   setup timeout, is locked out, the login goes on to xl2tpd and succeeds;
#   the next login skips the locked destination and reuses the tunnel;
# - SESSION_UP role LAC counts the sessions (summary), the destination counts
#   them (destination show);
# - the l2tpseld LNS admits through its namespace's module (client = the
#   LAC's Host Name) and refuses beyond "limit set chassis 1" with CDN 4/4,
#   which the LAC reports as a CDN outcome;
# - kill -9 of both agents: every count back to 0 at once (the kernel ends
#   the sessions of a socket that closes), the restarted pair works;
# - kill -9 of the LAC stopped at each step of a login (L2TPSELD_TEST_PAUSE:
#   after LOGIN_BEGIN, SCCRQ, ICRQ, the OK): every count of the hub 0, no
#   login held (S-LIM-9, S-SEL-10).
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../peers.sh"

L2D=${L2TPSELD:-$TOP/build/l2tpseld}
L=$L2TPSEL_CLI

require_root
peers_require
[ -x "$L2D" ] || skip "no $L2D (run make)"
[ -x "$PEERS_DPTEST" ] || skip "no $PEERS_DPTEST (run make)"
mod_load || fail "insmod $L2TPSEL_KO failed"

peers_init 10.210.0.1 || fail "cannot set up the hub"
peers_add "lns1 10.220.0.11" "quiet 10.220.0.99" "agl 10.220.0.21" ||
	fail "cannot add the peers"
peer_lns_start lns1 host lns-one secret sesame || fail "xl2tpd lns1 did not start"
peer_silent_start quiet || fail "the silent destination did not start"
HUB=$PEERS_HUB
AGL=$(peer_ns agl)
D=$PEERS_DIR
hub() { ip netns exec "$HUB" "$@"; }
agl() { ip netns exec "$AGL" "$@"; }

cat >"$D/config" <<EOF2
profile add P
tunnel add T0 profile P level 0 dest 10.220.0.99
tunnel add T1 profile P level 1 dest 10.220.0.11
domain add example profile P
profile add Q
tunnel add TA profile Q level 0 dest 10.220.0.21
lockout time 300
EOF2
hub "$L" -b "$D/config" >/dev/null
check_err $? "hub configuration failed"
agl "$L" limit set chassis 1
check_err $? "limit in the LNS namespace"
log_test "setup: hub config through l2tpsel -b, chassis limit 1 in the LNS ns"

# Each agent is ready once it has started: the LAC opens its socket (a dead
# agent's socket file must not pass for it), the LNS (no socket) logs
# "started:".
start_lac() {
	rm -f "$D/lac.sock"
	# not through hub(): $! must be the agent (ip netns exec execs it), not
	# a subshell whose kill -9 would leave the agent running
	ip netns exec "$HUB" "$L2D" -o 'kernel netlink' -o "socket $D/lac.sock" \
		-o 'agent-id 7' -o 'hostname hub-lac' -o 'sccrq-timeout 2s' -o 'icrq-timeout 3s' \
		-c <(echo 'secret T1 sesame') -o 'log-level 2' 2>>"$D/lac.log" &
	LAC_PID=$!
	defer kill -9 $LAC_PID
	wait_for 5 test -S "$D/lac.sock"
}

start_lns() {
	ip netns exec "$AGL" "$L2D" -o 'kernel netlink' -o 'listen 10.220.0.21' -o 'socket none' \
		-o 'agent-id 9' -o 'hostname agl' -o 'log-level 2' \
		2>>"$D/agl.log" &
	LNS_PID=$!
	defer kill -9 $LNS_PID
	wait_for 5 lns_started "$1"
}

lns_started() {
	[ "$(grep -c 'l2tpseld: started:' "$D/agl.log" 2>/dev/null)" -gt "$1" ]
}

show_logs() {
	echo "--- lac.log"; tail -40 "$D/lac.log"
	echo "--- agl.log"; tail -20 "$D/agl.log"
	peers_show
}

start_lac || { show_logs; fail "l2tpseld LAC did not start"; }
start_lns 0 || fail "l2tpseld LNS did not start"
peers_ready || { show_logs; fail "a peer did not start"; }

# --- LAC: silent destination, lockout, failover to xl2tpd ---------------------
t0=${EPOCHREALTIME/./}000
hub "$L" login start u1@example socket "$D/lac.sock" >"$D/o1" 2>&1
rc=$?
ms=$(((${EPOCHREALTIME/./}000 - t0) / 1000000))
cat "$D/o1"
echo "login took $ms ms"
expect $rc 0 "login u1 exit"
grep -q '^attempt 1 tunnel T0 profile P remote 10.220.0.99 port 1701 local any level 0 sccrq$' "$D/o1"
check_err $? "attempt 1 is not T0 (silent)"
grep -q '^outcome 1 no-reply$' "$D/o1"
check_err $? "the silent destination was not no-reply"
grep -q '^attempt 2 tunnel T1 profile P remote 10.220.0.11 port 1701 local any level 1 sccrq$' "$D/o1"
check_err $? "attempt 2 is not T1 (xl2tpd)"
grep -q '^done ok session 1 tunnel T1 profile P' "$D/o1"
check_err $? "login u1 did not succeed through T1"
[ "$(peer_silent_count quiet)" -ge 2 ]
check_err $? "the silent destination did not see the SCCRQ and a retransmission"
out=$(hub "$L" destination show)
echo "$out"
[ "$(val "$(grep '^10.220.0.99 ' <<<"$out")" lockout-ms)" -gt 0 ]
check_err $? "the silent destination is not locked out"
expect "$(val "$(grep '^10.220.0.11 ' <<<"$out")" sessions)" 1 "sessions on lns1"
expect "$(val "$(hub "$L" summary)" sessions)" 1 "chassis count (SESSION_UP role LAC)"
log_test "LAC: silent = no-reply after the SCCRQ setup timeout, lockout, failover to xl2tpd"

grep -q 'tunnel .* (lns-one) established as LAC' "$D/lac.log"
check_err $? "no tunnel to xl2tpd with its Host Name"
log_test "LAC vs xl2tpd LNS with Challenge/Response: tunnel and session up"

hub "$L" login start u2@example socket "$D/lac.sock" >"$D/o2" 2>&1
expect $? 0 "login u2 exit"
cat "$D/o2"
grep -q '^attempt 1 tunnel T1 profile P .* level 1 reuse$' "$D/o2"
check_err $? "u2 did not go straight to T1 reusing the tunnel"
expect "$(val "$(hub "$L" destination show | grep '^10.220.0.11 ')" sessions)" 2 "sessions on lns1"
expect "$(val "$(hub "$L" summary)" sessions)" 2 "chassis count"
log_test "LAC: the locked destination is skipped, the tunnel reused"

# --- LNS role: l2tpseld with the module's admission ----------------------------
hub "$L" login start profile Q socket "$D/lac.sock" >"$D/o3" 2>&1
expect $? 0 "login 3 exit"
hub "$L" login start profile Q socket "$D/lac.sock" >"$D/o4" 2>&1
expect $? 2 "login 4 exit (refused)"
cat "$D/o3" "$D/o4"
grep -q '^outcome 1 cdn result 4 error 4$' "$D/o4"
check_err $? "the LNS's refusal was not CDN 4/4"
out=$(agl "$L" session show)
echo "$out"
has_line 'client hub-lac' "$out"
check_err $? "the LNS did not admit with client = the LAC's Host Name"
has_line 'group 10.220.0.21' "$out"
check_err $? "the LNS did not use the local address as tunnel group"
expect "$(val "$(agl "$L" summary)" sessions)" 1 "LNS chassis count"
expect "$(val "$(hub "$L" summary)" sessions)" 3 "LAC chassis count"
log_test "LNS: admission by the module, refusal answered with CDN 4/4"

# --- logout through the API ---------------------------------------------------
hub "$L" login stop 2 socket "$D/lac.sock" >/dev/null
check_err $? "login stop 2"
sleep 0.3
expect "$(val "$(hub "$L" destination show | grep '^10.220.0.11 ')" sessions)" 1 "lns1 after logout"
expect "$(val "$(hub "$L" summary)" sessions)" 2 "LAC chassis count after logout"
log_test "logout: one SESSION_DOWN ends the selection and admission counts"

# --- kill -9 and restart: counts exact ------------------------------------------
kill -9 $LAC_PID $LNS_PID
wait $LAC_PID $LNS_PID 2>/dev/null
expect "$(val "$(hub "$L" summary)" sessions)" 0 "LAC chassis count right after kill -9"
expect "$(val "$(hub "$L" destination show | grep '^10.220.0.11 ')" sessions)" 0 "lns1 count after kill -9"
expect "$(val "$(hub "$L" destination show | grep '^10.220.0.21 ')" sessions)" 0 "agl count after kill -9"
expect "$(val "$(agl "$L" summary)" sessions)" 0 "LNS chassis count after kill -9"
log_test "kill -9: every count back to 0 at once, no restart needed"
start_lac || fail "l2tpseld LAC did not restart"
start_lns 1 || fail "l2tpseld LNS did not restart"

# and the restarted pair works
hub "$L" login start profile Q socket "$D/lac.sock" >"$D/o5" 2>&1
expect $? 0 "login after restart"
expect "$(val "$(agl "$L" summary)" sessions)" 1 "LNS count after a new login"
log_test "after the restart a login succeeds again"

# --- RL_CHECK: the module's rate limiter decides a login ------------------------
hub "$L" ratelimit add slow ingress login domain example rate 1 burst 1 message "slow down"
check_err $? "ratelimit add"
# two logins at once (a token comes back every second: do not race the refill)
hub "$L" login start u7@example socket "$D/lac.sock" >"$D/o7" 2>&1 &
p7=$!
hub "$L" login start u8@example socket "$D/lac.sock" >"$D/o8" 2>&1
rc8=$?
wait $p7
rc7=$?
cat "$D/o7" "$D/o8"
grep 'RL_CHECK\|rate limit' "$D/lac.log"
expect "$(cat "$D/o7" "$D/o8" | grep -c 'rate limited by slow: slow down')" 1 "logins refused by the limit"
expect "$((rc7 + rc8))" 1 "exit codes (0 and 1)"
log_test "RL_CHECK: a login beyond the limit's burst is refused with its message"

# --- kill -9 at every step of a login ------------------------------------------
# The LAC stops itself at STEP (SIGSTOP); the test reads the hub's counts,
# kills it and wants every count 0 and no login held.  agl's limit is
# raised: its half-open calls end on its own timers.
agl "$L" limit set chassis 1000
hub_counts() {	# sessions, lns-agl sessions, tunnel sessions of Q, logins in progress
	echo "$(val "$(hub "$L" summary)" sessions)" \
		"$(val "$(hub "$L" destination show | grep '^10.220.0.21 ')" sessions)" \
		"$(hub "$L" -j tunnel show | python3 -c 'import json, sys; print(sum(t["sessions"] for t in json.load(sys.stdin)))')" \
		"$(val "$(hub "$L" lockout show)" logins)"
}
stopped() { [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" = T ]; }
echo "before: $(hub_counts)"
for step in begin sccrq icrq ok; do
	kill -9 $LAC_PID 2>/dev/null; wait $LAC_PID 2>/dev/null
	L2TPSELD_TEST_PAUSE=$step start_lac || fail "l2tpseld LAC did not start (pause $step)"
	hub "$L" login start profile Q socket "$D/lac.sock" >"$D/step.$step" 2>&1 &
	cli=$!
	wait_for 10 stopped $LAC_PID
	check_err $? "the LAC did not stop at $step: $(tail -3 "$D/lac.log")"
	echo "stopped at $step: sessions, on agl, on tunnels, logins: $(hub_counts)"
	kill -9 $LAC_PID 2>/dev/null; wait $LAC_PID 2>/dev/null
	wait $cli 2>/dev/null
	expect "$(hub_counts)" "0 0 0 0" "the hub's counts after kill -9 at $step"
done
log_test "kill -9 at every step of a login (begin, sccrq, icrq, ok): every count 0 at once"
start_lac || fail "l2tpseld LAC did not restart"
hub "$L" login start profile Q socket "$D/lac.sock" >"$D/o6" 2>&1
expect $? 0 "login after the killed steps"
log_test "after them a login succeeds"

[ "$EXIT_STATUS" = 0 ] || show_logs
exit $EXIT_STATUS
