# SPDX-License-Identifier: GPL-2.0
# An agent with live subscribers, for the upgrade tests (S-OPS-2):
# l2tpseld_upgrade.sh (SIGUSR2, kill -9) and package_upgrade.sh (dpkg -i of
# a newer package).  Source after lib.sh, peers.sh and access.sh.
#
#   upg_setup AGENT_BINARY  an xl2tpd LNS lns1, the access link, a RADIUS
#                           accounting sink, the agent as LAC with its PPPoE
#                           side and "fd-store yes" under
#                           selftests/fdstore_sup.py (pid in $D/agent.pid,
#                           $AGENT), $NB subscribers up, the checks before
#   upg_ping_start          4 s of pings from subscriber 1, 10 a second
#   upg_kept WHAT           after WHAT: the pings lost at most a second,
#                           every subscriber's ping crosses, every session
#                           on the LAC, the LNS and in the module's count,
#                           accounting one Start each and no Stop
#   upg_adopted             the agent's log line of a snapshot that adopted
#                           everything
#   upg_came_back           after a re-exec: the API is back, that line is
#                           logged, the process ($AGENT) is the same
#
# The VM has no systemd: fdstore_sup.py keeps the descriptor store as
# systemd does (sd_notify(3)) and restarts the agent with LISTEN_FDS and
# LISTEN_FDNAMES.

NB=${UPG_SUBS:-50}

_upg_n_up() {
	local i k=0
	for i in $(seq 1 "$NB"); do sub_up "$i" && kill -0 "${SUBPID[$i]}" 2>/dev/null &&
		k=$((k + 1)); done
	echo $k
}

# until all are up while they keep coming (xl2tpd starts a pppd per call,
# seconds each under TCG): 60 s without one more is a failure
_upg_all_up() {
	local k last=-1 since=$SECONDS
	while k=$(_upg_n_up) && [ "$k" -lt "$NB" ]; do
		[ "$k" -gt "$last" ] && { last=$k; since=$SECONDS; }
		[ $((SECONDS - since)) -lt $((60 * L2TPSEL_WAIT_SCALE)) ] || return 1
		lib_sleep 1
	done
}

acct() { grep -c "^acct $1 " "$D/acct.log"; }
acct_is() { [ "$(acct "$1")" = "$2" ]; }
ksess() { hub ip l2tp show session | grep -c '^Session'; }
lnssess() { ip netns exec "$(peer_ns lns1)" ip l2tp show session | grep -c '^Session'; }
upg_adopted() { echo "snapshot version 1 adopted: 1 tunnels, $NB sessions, $NB subscribers"; }

upg_setup() {
	local bin=$1 i t0
	peers_init 10.210.0.1 || fail "cannot set up the hub"
	peers_add "lns1 10.220.0.11" "lns2 10.220.0.13" || fail "cannot add the LNS"
	peer_lns_start lns1 host lns-one || fail "xl2tpd lns1 did not start"
	D=$PEERS_DIR
	access_init "$((NB + 2))" || fail "cannot set up the subscribers' link"
	printf '%s\n' "profile add P" "tunnel add T1 profile P level 0 dest 10.220.0.11" \
		"domain add example profile P" >"$D/config"
	hub "$L2TPSEL_CLI" -b "$D/config" >/dev/null || fail "hub configuration failed"
	peers_ready || fail "xl2tpd did not start"
	LNS_PPP=$(peer_lns_ppp_addr lns1)
	keep_logs "$D"

	# RADIUS accounting to a sink (no authentication server: the domain map after 1 s)
	hub python3 "$TOP/selftests/acct_sink.py" 127.0.0.1 1813 lac-secret >"$D/acct.log" 2>&1 &
	defer kill_wait $!
	wait_for 10 grep -q '^ready' "$D/acct.log" ||
		fail "acct_sink.py did not start: $(cat "$D/acct.log")"
	printf '%s\n' 'radius-server 127.0.0.1 port 1812 acct-port 1813 secret lac-secret' \
		'radius-accounting yes' 'radius-fallback domain-map' 'radius-timeout 1s' \
		'radius-tries 1' >"$D/agent.conf"
	chmod 0600 "$D/agent.conf"
	ip netns exec "$PEERS_HUB" python3 "$TOP/selftests/fdstore_sup.py" "$D/agent.pid" "$bin" \
		-o 'kernel netlink' \
		-o 'dataplane kernel' -o "socket $D/agent.sock" -o 'hostname lac-agent' \
		-o 'access pppoe acc0 ac-name test-ac' -o 'log-level 2' -o 'access-auth pap' \
		-o 'fd-store yes' -c "$D/agent.conf" 2>>"$D/agent.log" &
	SUP=$!
	defer kill_wait $SUP
	wait_for 10 test -S "$D/agent.sock" || { tail "$D/agent.log"; fail "l2tpseld did not start"; }
	AGENT=$(cat "$D/agent.pid")
	for i in $(seq 1 "$NB"); do
		dial "$i" "user$i@example" lcp-echo-interval 3 lcp-echo-failure 5
	done
	t0=$SECONDS
	_upg_all_up
	check_err $? "only $(_upg_n_up) of $NB subscribers came up"
	log_info "$NB subscribers up in $((SECONDS - t0)) s"
	sub_ping 1 "$LNS_PPP"
	check_err $? "no ping across before the upgrade"
	expect "$(sessions)" "$NB" "sessions counted before the upgrade"
	expect "$(ksess)" "$NB" "kernel sessions on the LAC before"
	# the LNS's kernel sessions as ip l2tp lists them (one more than
	# xl2tpd's calls here): at least one per subscriber, the same number
	# after the upgrade
	LNS0=$(lnssess)
	[ "$LNS0" -ge "$NB" ]
	check_err $? "calls on the LNS before: $LNS0, fewer than $NB"
	wait_for 10 acct_is 1 "$NB"
	check_err $? "accounting Starts: $(acct 1), expected $NB"
	log_test "$NB subscribers up through the agent to xl2tpd"
	[ "$EXIT_STATUS" = 0 ] || { show_logs; exit $EXIT_STATUS; }
}

# 4 s of pings, 10 a second; the caller upgrades 1 s in (not through subs():
# a shell function in the background would be a subshell in between)
upg_ping_start() {
	ip netns exec "$SUBS" ping -c 40 -i 0.1 -W 1 -I ppp1 "$LNS_PPP" >"$D/ping.log" 2>&1 &
	PING=$!
	defer kill_wait $PING
	lib_sleep 1
}

upg_came_back() {
	wait_for 10 test -S "$D/agent.sock"
	check_err $? "the upgraded agent did not come back: $(tail -3 "$D/agent.log")"
	grep -q "$(upg_adopted)" "$D/agent.log"
	check_err $? "the new process did not adopt everything: $(grep -E 'snapshot|upgrade' "$D/agent.log")"
	kill -0 "$AGENT"
	check_err $? "the agent's process is gone"
}

upg_kept() {
	local rx lost i
	wait_for 20 pid_gone $PING
	rx=$(grep -c 'bytes from' "$D/ping.log")
	log_info "ping across the $1: 40 sent, $rx answered"
	[ "$rx" -ge 30 ]
	check_err $? "more than a second of ping lost: $(tail -2 "$D/ping.log")"
	lost=$(for i in $(seq 1 "$NB"); do sub_ping "$i" "$LNS_PPP" || echo -n "$i "; done)
	expect "$lost" "" "subscribers whose ping does not cross after the $1"
	expect "$(_upg_n_up)" "$NB" "subscribers up after the $1"
	expect "$(sessions)" "$NB" "sessions counted after the $1"
	expect "$(ksess)" "$NB" "kernel sessions on the LAC after the $1"
	expect "$(lnssess)" "$LNS0" "calls on the LNS after the $1"
	expect "$(acct 1)/$(acct 2)" "$NB/0" "accounting Starts/Stops after the $1"
}
