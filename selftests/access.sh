#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# PPPoE subscribers for the access role's tests (Documentation/access.md):
# Debian's pppd with its pppoe plugin, one macvlan each on the "line" side
# of a veth whose other end, acc0, is the agent's access interface in the
# hub namespace.  Source it after lib.sh and peers.sh, once peers_init has
# made the hub:
#
#   access_require                  skip without pppd's pppoe.so and the
#                                   kernel's pppoe and macvlan modules (on the
#                                   debug kernel: $L2TPSEL_EXTRA_KOS)
#   access_init N                   namespace $SUBS, acc0, macvlans s0..sN
#   agent_start [-o LINE]...        l2tpseld as LAC on acc0 ($AGENT, $D/agent.log);
#                                   $ACCESS_LINE_OPTS: more words for acc0's
#                                   access line (path-mtu N ...)
#   dial N USER [pppd option...]    subscriber N dials (${SUBPID[N]}, $D/subN.log)
#   sub_up N                        pppN has its address
#   sub_ping N ADDR                 a ping across answered (10 s)
#   sessions / sessions_are N       the kernel's session count (summary)
#   astat KEY                       one of the agent's access counters
#   show_logs                       the agent's, the subscribers', the peers'

L2D=${L2TPSELD:-$TOP/build/l2tpseld}

access_require() {
	local ko m
	[ -x "$L2D" ] || skip "no $L2D (run make)"
	compgen -G '/usr/lib/pppd/*/pppoe.so' >/dev/null || skip "pppd has no pppoe.so plugin"
	if [ -n "${L2TPSEL_EXTRA_KOS:-}" ]; then
		modprobe -q -a pppox ppp_generic 2>/dev/null
		for ko in ${L2TPSEL_EXTRA_KOS//,/ }; do
			m=$(basename "$ko" .ko)
			[ -d "/sys/module/$m" ] && continue
			insmod "$ko" || skip "cannot load $ko"
			defer rmmod "$m"
		done
	fi
	for m in pppoe macvlan; do
		[ -d "/sys/module/$m" ] || modprobe -q "$m" 2>/dev/null || skip "no kernel module $m"
	done
}

hub() { ip netns exec "$PEERS_HUB" "$@"; }
subs() { ip netns exec "$SUBS" "$@"; }

# access_init N: acc0 in the hub, its peer sw0 in the "line" namespace, one
# macvlan per subscriber on sw0 (distinct MAC addresses on one access link,
# as behind a DSLAM).
access_init() {
	local i batch=$'link set sw0 up\n'
	setup_ns SUBS || return 1
	ip -n "$PEERS_HUB" link add acc0 type veth peer name sw0 netns "$SUBS" || return 1
	for i in $(seq 0 "$1"); do
		batch+="link add s$i link sw0 type macvlan mode bridge"$'\n'"link set s$i up"$'\n'
	done
	ip -n "$SUBS" -batch - <<<"$batch" || return 1
	ip -n "$PEERS_HUB" link set acc0 up
}

agent_start() {
	rm -f "$D/agent.sock"
	ip netns exec "$PEERS_HUB" "$L2D" -o 'kernel netlink' -o 'dataplane kernel' \
		-o "socket $D/agent.sock" -o 'hostname lac-agent' \
		-o "access pppoe acc0 ac-name test-ac${ACCESS_LINE_OPTS:+ $ACCESS_LINE_OPTS}" \
		-o 'log-level 2' "$@" 2>>"$D/agent.log" &
	AGENT=$!
	defer kill_wait $AGENT
	wait_for 10 test -S "$D/agent.sock" || {
		tail "$D/agent.log"
		fail "l2tpseld did not start: $(tr '\0' ' ' </proc/$AGENT/cmdline 2>/dev/null || echo exited)"
	}
}

declare -A SUBPID
dial() {
	local n=$1 user=$2
	shift 2
	rm -f "$D/sub$n.log"
	ip netns exec "$SUBS" pppd plugin pppoe.so nic-s"$n" unit "$n" user "$user" \
		password secret noauth nodefaultroute noipdefault mtu 1492 mru 1492 \
		noipv6 noccp novj nodeflate nobsdcomp lcp-echo-interval 0 maxfail 1 \
		ip-up-script /bin/true ip-down-script /bin/true nodetach debug \
		logfile "$D/sub$n.log" "$@" >/dev/null 2>&1 &
	SUBPID[$n]=$!
	defer kill_wait "${SUBPID[$n]}"
}

sub_up() {
	ip -n "$SUBS" -4 addr show dev "ppp$1" 2>/dev/null | grep -q 'inet .* peer '
}
# sub_ping N ADDR: a ping from subscriber N answered within 10 s; IPCP up at
# the subscriber can come before the LNS's pppd has its route in place
sub_ping() {
	wait_for 10 subs ping -c 1 -W 2 -q -I "ppp$1" "$2" >/dev/null 2>&1
}
sessions() { val "$(hub "$L2TPSEL_CLI" summary)" sessions; }
sessions_are() { [ "$(sessions)" = "$1" ]; }
astat() {
	val "$(hub "$L2TPSEL_CLI" login stats socket "$D/agent.sock" | grep '^access ')" "$1"
}
show_logs() {
	echo "--- agent.log (access, sessions, logins)"
	grep -E 'access |closed|login [0-9]+ .*(done|outcome)|CDN|signal|radius' "$D/agent.log" | tail -80
	for f in "$D"/sub*.log; do [ -e "$f" ] && { echo "--- $f"; tail -25 "$f"; }; done
	peers_show
}
