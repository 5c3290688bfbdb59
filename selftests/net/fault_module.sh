#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The module and the namespace pulled from under a live agent
# (S-LIM-1, S-SEL-4, S-L2TP-4, S-L2TP-5).  l2tpseld as LAC (dataplane
# kernel) in the hub with $N sessions to an xl2tpd LNS, and (after step 2) a
# bystander namespace with admission state of its own (through the CLI).
#
# 1. rmmod l2tpsel while the agent is live with $N sessions: the unload
#    succeeds (a generic-netlink socket holds no reference on the module),
#    the agent does not die; what it does then is what this test pins down:
#    a login is refused at once with an error, a logout still tears its
#    session down (the SESSION_DOWN the agent cannot deliver is logged),
#    the other sessions stay up on the wire;
# 2. insmod and the configuration again (and the bystander's state: an
#    unload frees every namespace's): the agent holds the generic-netlink
#    family id of the module that went away (ids are allocated cyclically,
#    the new module gets another); on the core's bare ENOENT it looks the
#    family up again, so a login through the running agent works;
# 3. the agent restarted (SIGTERM, start): every count is 0 (the counts
#    of the new module's logins were its socket's), logins count exactly
#    again;
# 4. the agent's namespace deleted with live state: sessions up, the
#    selection tunnels counting them, a destination locked out (its timer
#    armed), kernel L2TP tunnel and sessions, pppd; the namespace goes
#    (its processes killed first, as "ip netns del" alone would leave it
#    alive); the bystander's counts are untouched and the module then
#    unloads (every per-namespace object released, or rmmod would hang or
#    the kernel report it).
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../peers.sh"
source "$(dirname "$0")/../fault_lib.sh"

require_root
require_module_file
require_cmd jq
peers_require debug
peers_require_agent

case $(uname -r) in
*debug*) N=${FAULT_N:-1} ;;
*)	 N=${FAULT_N:-3} ;;
esac

mod_load || fail "insmod $L2TPSEL_KO failed"
peers_init 10.210.0.1 || fail "cannot set up the hub"
peer_add lns1 10.220.0.11 || fail "cannot add lns1"
peer_lns_start lns1 host lns-1
check_err $? "xl2tpd lns1 did not start"
setup_ns BY || fail "cannot create the bystander namespace"
KCONF="profile add L
tunnel add T1 profile L level 0 dest 10.220.0.11
tunnel add T9 profile L level 1 dest 10.220.0.99
domain add example profile L"
peers_kconf <<<"$KCONF"
check_err $? "the kernel configuration was refused"
# The bystander (made after the reload, as an unload frees every namespace's
# state): sessions counted on the chassis, a tunnel group, a client.
by_setup() {
	ip netns exec "$BY" "$L2TPSEL_CLI" -b - <<-EOB
	group add tgb type tunnel
	client add cb
	session up key 1 role lns tunnel-id 1 group tgb client cb
	session up key 2 role lns tunnel-id 1 group tgb client cb
	session up key 3 role lac tunnel-id 2
	EOB
}
by_view() {
	printf '%s\n' "summary" "group show type tunnel" "client show" "session show" |
		ip netns exec "$BY" "$L2TPSEL_CLI" -j -b - | jq -rs '
		def arr: if type == "array" then . else [.] end;
		"chassis \(.[0].sessions) tg \(.[1] | arr | map(.sessions) | add) " +
		"client \(.[2] | arr | map(.sessions) | add) sess \(.[3] | arr | length)"'
}
BY_WANT="chassis 3 tg 2 client 2 sess 3"
AGENT_OPTS=(-o "dataplane kernel" -o "sccrq-timeout 3s" -o "icrq-timeout 5s")
peers_agent_start "${AGENT_OPTS[@]}"
check_err $? "l2tpseld did not start"
peers_ready
check_err $? "xl2tpd lns1 did not start"
HUB=$PEERS_HUB
D=$PEERS_DIR
SOCK=$D/agent.sock
AGENT=$PEERS_AGENT_PID
log_info "setup done at $SECONDS s"
log_test "xl2tpd LNS, l2tpseld as LAC"
[ "$EXIT_STATUS" = 0 ] || { peers_show; exit $EXIT_STATUS; }

show_logs() {
	echo "--- agent.log (last 40 lines)"; tail -n 40 "$D"/agent*.log
	peers_show
}
# logins FIRST LAST: logins uFIRST..uLAST at once, output in $D/login.I;
# prints how many succeeded.
logins() {
	local i pids=()
	for i in $(seq "$1" "$2"); do
		peers_login start "u$i@example" >"$D/login.$i" 2>&1 &
		pids+=($!)
	done
	wait "${pids[@]}"
	for i in $(seq "$1" "$2"); do
		grep -q '^done ok' "$D/login.$i" && echo "$i"
	done | grep -c .
}
login_id() {
	sed -n 's/^done ok session \([0-9]*\).*/\1/p' "$D/login.$1"
}
hub_data_is() {
	[ "$(fault_data_objects "$HUB")" = "$1" ]
}

expect "$(logins 1 $N)" $N "logins"
fault_check_counts "$HUB" "$SOCK" "before the unload" 10.220.0.11=$N
expect "$(fault_data_objects "$HUB")" "tunnels 1 sessions $N" "kernel L2TP objects"
log_test "$N sessions live through the module"

# --- 1. rmmod under the live agent ------------------------------------------------
rmmod "$L2TPSEL_MOD"
check_err $? "rmmod with a live agent failed"
sleep 0.5
kill -0 "$AGENT"
check_err $? "the agent died when the module went away"
peers_login start late@example >"$D/late" 2>&1
rc=$?
cat "$D/late"
expect "$rc" 1 "exit status of a login without the module (1: an error)"
grep -q 'kernel: ' "$D/late"
check_err $? "the login without the module did not end with a \"kernel: ...\" error"
# ENOENT from the generic-netlink core (no such family) is not the
# module's ENOENT for LOGIN_BEGIN: the error says the module is not loaded.
grep -q 'kernel: the l2tpsel kernel module is not loaded' "$D/late"
check_err $? "without the module a login says \"$(grep -m1 'kernel: ' "$D/late")\", not that the module is not loaded"
# A logout still ends the session; the count it cannot release is logged.
peers_login stop "$(login_id 1)" >"$D/stop1" 2>&1
check_err $? "logout of $(login_id 1) without the module: $(cat "$D/stop1")"
# The agent closes a tunnel left without sessions: with N = 1 (the debug
# kernel's size) the logout takes the tunnel's kernel objects too.
wait_for 10 hub_data_is "tunnels $((N > 1)) sessions $((N - 1))"
check_err $? "kernel L2TP objects after a logout without the module: $(fault_data_objects "$HUB")"
grep -E 'SESSION_DOWN' "$D/agent.log" | head -n 3
grep -q 'SESSION_DOWN' "$D/agent.log"
check_err $? "the agent did not log the SESSION_DOWN it could not deliver"
av=$(fault_agent_view "$SOCK")
# (the agent lists a destination only while it has sessions there)
want="live 0"
[ "$N" -gt 1 ] && want="live $((N - 1)) 10.220.0.11=$((N - 1))"
expect "$av" "$want" "the agent's sessions after the logout"
kill -0 "$AGENT"
check_err $? "the agent died without the module"
log_info "phase 1 done at $SECONDS s"
log_test "rmmod under a live agent: no crash, a login refused with an error, a logout works"

# --- 2. the module back, the agent still running ----------------------------------
insmod "$L2TPSEL_KO"
check_err $? "insmod again"
peers_kconf <<<"$KCONF"
check_err $? "the configuration again"
by_setup
check_err $? "the bystander's state was refused"
expect "$(by_view)" "$BY_WANT" "the bystander's counts"
peers_login start back@example >"$D/back" 2>&1
rc=$?
cat "$D/back"
grep -i 'LOGIN_BEGIN\|netlink\|family' "$D/agent.log" | tail -n 3
# What the running agent does with a reloaded module (measured, see
# Documentation/reliability.md): RELOAD_OK=1 when a login works through it.
RELOAD_OK=0
grep -q '^done ok' "$D/back" && RELOAD_OK=1
echo "a login through the running agent after the reload: $([ $RELOAD_OK = 1 ] && echo ok || echo refused), exit $rc"
kill -0 "$AGENT"
check_err $? "the agent died after the reload"
log_info "phase 2 done at $SECONDS s"
log_test "insmod again under the running agent: no crash"
# The running agent looks the family up again when its id is gone.
expect "$RELOAD_OK" 1 "a login through the running agent after rmmod + insmod (\"$(grep -m1 'kernel\|^done' "$D/back")\")"
grep -q 'the l2tpsel module was loaded again' "$D/agent.log"
check_err $? "the agent did not log that it found the module again"
log_test "the running agent finds the reloaded module: a login works without a restart"

# --- 3. restart the agent: exact counts again ----------------------------------------
kill -TERM "$AGENT"
wait "$AGENT" 2>/dev/null
mv "$D/agent.log" "$D/agent-1.log"
peers_agent_start "${AGENT_OPTS[@]}"
check_err $? "l2tpseld did not restart"
AGENT=$PEERS_AGENT_PID
fault_check_counts "$HUB" "$SOCK" "after the restart"
wait_for 10 hub_data_is "tunnels 0 sessions 0"
check_err $? "kernel L2TP objects of the stopped agent: $(fault_data_objects "$HUB")"
expect "$(logins 11 $((10 + N)))" $N "logins after the restart"
fault_check_counts "$HUB" "$SOCK" "after $N new logins" 10.220.0.11=$N
log_info "phase 3 done at $SECONDS s"
log_test "agent restarted on the new module: counts 0, then $N logins counted exactly"

# --- 4. the agent's namespace deleted with live state -------------------------------
ip netns exec "$HUB" "$L2TPSEL_CLI" lockout dest 10.220.0.99 remaining 300
check_err $? "lockout dest"
kv=$(fault_kernel_view "$HUB")
echo "the hub before its deletion: $kv, $(fault_data_objects "$HUB"), pppd $(pgrep -P "$AGENT" -x pppd | grep -c .)"
expect "$kv" "$(fault_want $N 10.220.0.11=$N)" "the hub's counts before its deletion"
pids=$(ip netns pids "$HUB")
kill -9 $pids
ip netns del "$HUB"
check_err $? "ip netns del"
wait "$AGENT" 2>/dev/null
# The namespace is freed by the kernel's cleanup work once its last process
# is gone; until then the module's namespace exit has not run and rmmod
# waits for it (it unregisters the pernet ops).
expect "$(by_view)" "$BY_WANT" "the bystander's counts after the hub's deletion"
t0=${EPOCHREALTIME/./}000
rmmod "$L2TPSEL_MOD"
check_err $? "rmmod after the namespace deletion"
echo "rmmod after the deletion took $(((${EPOCHREALTIME/./}000 - t0) / 1000000)) ms"
mod_loaded
check_fail $? "the module is still loaded"
log_info "phase 4 done at $SECONDS s"
log_test "the agent's namespace deleted with $N live sessions and a lockout: bystander intact, clean unload"

[ "$EXIT_STATUS" = 0 ] || show_logs
exit $EXIT_STATUS
