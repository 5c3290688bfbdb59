#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only the upgrade needs nothing of the debug kernel; access_pppoe runs the bridge there
#
# Upgrade without loss (S-OPS-2, Documentation/l2tpseld.md "Upgrade without
# loss"): l2tpseld as LAC with its PPPoE access side, $UPG_SUBS subscribers
# (Debian's pppd with its pppoe plugin; 50 unless set) up through it to an
# xl2tpd LNS, a ping running across.  SIGUSR2:
# the agent writes its snapshot, keeps its descriptors and executes the
# binary at its path again (the same pid).
#
#   - the new process says what it adopted: every tunnel, call and
#     subscriber;
#   - no subscriber lost: each one's ping crosses, every kernel L2TP
#     session is still on the LAC, every call on the LNS, the module's
#     count unchanged (its counting socket crossed);
#   - the ping lost at most a second of packets;
#   - RADIUS accounting (selftests/acct_sink.py): one Start per subscriber,
#     no Stop and no second Start across either;
#   - kill -9 of the agent, which runs with "fd-store yes" under
#     selftests/fdstore_sup.py (the VM has no systemd: it keeps the
#     descriptor store as systemd does, sd_notify(3), and restarts the
#     agent with LISTEN_FDS/LISTEN_FDNAMES): the restarted agent adopts
#     everything from the store, with the same checks as the upgrade;
#   - a new subscriber logs in at once on the restarted agent, ping across;
#   - l2tpseld as the LNS (pppd in LNS mode), one subscriber's call to it,
#     SIGUSR2: the call, its pppd (the same process) and the LNS's count
#     stay, the ping crosses;
#   - a snapshot of another version is refused, with the reason, exit 1.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../peers.sh"
source "$(dirname "$0")/../access.sh"
source "$(dirname "$0")/../upgrade.sh"

L=$L2TPSEL_CLI

require_root
peers_require
access_require
mod_load || fail "insmod $L2TPSEL_KO failed"
upg_setup "$L2D"

# --- upgrade ------------------------------------------------------------------
upg_ping_start
rm -f "$D/agent.sock"
kill -USR2 "$AGENT"
upg_came_back
upg_kept upgrade
log_test "upgrade by re-exec: 0 sessions lost, ping loss within a second, counts exact"

# --- kill -9, restarted with what the store kept ----------------------------------
upg_ping_start
rm -f "$D/agent.sock"
kill -9 "$AGENT"
wait_for 10 test -S "$D/agent.sock"
check_err $? "the agent was not restarted: $(tail -3 "$D/agent.log")"
[ "$(cat "$D/agent.pid")" != "$AGENT" ]
check_err $? "the supervisor did not start a new process"
[ "$(grep -c "$(upg_adopted)" "$D/agent.log")" = 2 ]
check_err $? "the restarted agent did not adopt everything: $(grep -E 'snapshot|store' "$D/agent.log")"
upg_kept crash
log_test "kill -9, restarted from the descriptor store: 0 sessions lost, counts exact"

# --- a new login at once ----------------------------------------------------------
N=$((NB + 1))
dial "$N" "user$N@example"
wait_for 30 sub_up "$N"
check_err $? "a new subscriber did not come up on the restarted agent"
sub_ping "$N" "$LNS_PPP"
check_err $? "no ping from the new subscriber"
expect "$(sessions)" "$N" "sessions counted with the new subscriber"
wait_for 10 acct_is 1 "$N"
check_err $? "accounting Starts with the new subscriber: $(acct 1), expected $N"
log_test "a new subscriber logs in at once on the restarted agent"

# --- l2tpseld as the LNS, upgraded under its call ------------------------------------
_peer_ppp_options lns2
echo "10.240.0.1:10.240.0.2" >>"$D/lns2.options"
ip netns exec "$(peer_ns lns2)" "$L2D" -o 'kernel netlink' -o 'dataplane kernel' \
	-o "socket $D/lns2.sock" -o 'hostname lns-two' -o 'listen 10.220.0.13' \
	-o "lns-pppd-file $D/lns2.options" -o 'log-level 1' 2>"$D/lns2.log" &
LNS2=$!
defer kill_wait $LNS2
wait_for 5 test -S "$D/lns2.sock" || { cat "$D/lns2.log"; fail "the LNS l2tpseld did not start"; }
printf '%s\n' "profile add Q" "tunnel add TQ profile Q level 0 dest 10.220.0.13" \
	"domain add agent.example profile Q" >"$D/config2"
hub "$L" -b "$D/config2" >/dev/null || fail "hub configuration failed"
M=$((NB + 2))
dial "$M" "grace@agent.example"
wait_for 30 sub_up "$M"
check_err $? "no IPCP through l2tpseld as the LNS"
lns2_sessions() { val "$(ip netns exec "$(peer_ns lns2)" "$L" summary)" sessions; }
pppd=$(sed -n 's/.*: pppd \([0-9]*\) started$/\1/p' "$D/lns2.log" | tail -1)
rm -f "$D/lns2.sock"
kill -USR2 "$LNS2"
wait_for 10 test -S "$D/lns2.sock"
check_err $? "the upgraded LNS did not come back: $(tail -3 "$D/lns2.log")"
grep -q 'snapshot version 1 adopted: 1 tunnels, 1 sessions, 0 subscribers' "$D/lns2.log"
check_err $? "the LNS did not adopt its call: $(grep -E 'snapshot|upgrade' "$D/lns2.log")"
[ -n "$pppd" ] && kill -0 "$pppd"
check_err $? "the LNS's pppd (${pppd:-none}) is gone"
sub_ping "$M" 10.240.0.1
check_err $? "no ping to the LNS's PPP address after its upgrade"
expect "$(lns2_sessions)" 1 "sessions counted by the LNS after its upgrade"
log_test "l2tpseld as the LNS upgraded under its call: pppd, call and count stay"

# --- a snapshot of another version --------------------------------------------------
printf 'L2DSNAP\0\0\x09\0\0\0\0\0\0' >"$D/snap9"
out=$(L2TPSELD_SNAPSHOT=7 "$L2D" -o 'kernel none' -o 'socket none' 7<"$D/snap9" 2>&1)
rc=$?
[ "$rc" = 1 ] && grep -q 'format version 9, this l2tpseld reads version 1 only' <<<"$out"
check_err $? "another version: exit $rc, \"$out\""
log_test "a snapshot of another version is refused, saying so"

[ "$EXIT_STATUS" = 0 ] || show_logs
exit $EXIT_STATUS
