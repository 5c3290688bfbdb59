#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only real peers: Debian's kernel only (L2TPSEL_PEERS_ON_DEBUG=1 runs it on the debug kernel)
#
# The agent as LAC end to end (S-SEL-4, S-LB-*, S-L2TP-4,
# S-L2TP-5): l2tpseld with the kernel data path in dialer mode, three
# xl2tpd LNS.
#
# - destination-equal over three LNS at one level: six logins land two on
#   each LNS (each pick goes to a destination with the fewest sessions), the
#   kernel's destination counts say 2/2/2, each LNS holds two data sessions
#   paired with the hub's kernel sessions, six PPP links come up in the hub
#   with addresses from the LNS pools, and a ping crosses each.
# - logout of all six: pppd, PPP links, kernel sessions and tunnels gone
#   (a LAC tunnel left without sessions is closed), counts back to 0.
# - max-sessions exhaustion: a level-0 tunnel with max-sessions 2 takes two
#   logins, the third goes to level 1 without an attempt at the full one.
# - a CDN ends the login without failover: an xl2tpd LNS without an address
#   pool answers the ICRQ with CDN; the level below (a silent destination)
#   receives nothing, and the CDN's destination is not locked.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../peers.sh"

N=6

require_root
require_module_file
peers_require
peers_require_agent

mod_load || fail "insmod $L2TPSEL_KO failed"
peers_init 10.210.0.1 || fail "cannot set up the hub"
peers_add "lns1 10.220.0.11" "lns2 10.220.0.12" "lns3 10.220.0.13" "cdn 10.220.0.14" \
	"quiet 10.220.0.99" || fail "cannot add the peers"
for n in 1 2 3; do
	peer_lns_start lns$n host lns-$n
	check_err $? "xl2tpd lns$n did not start"
done
peer_lns_start cdn cdn
check_err $? "xl2tpd cdn did not start"
peer_silent_start quiet
check_err $? "the silent destination did not start"
peers_kconf <<-KCONF
profile add E lb destination-equal
tunnel add T1 profile E level 0 dest 10.220.0.11
tunnel add T2 profile E level 0 dest 10.220.0.12
tunnel add T3 profile E level 0 dest 10.220.0.13
domain add equal.example profile E
profile add C failover between-levels
tunnel add T1 profile C level 0 dest 10.220.0.14
tunnel add T2 profile C level 1 dest 10.220.0.99
domain add cdn.example profile C
profile add M
tunnel add T1 profile M level 0 dest 10.220.0.11 max-sessions 2
tunnel add T2 profile M level 1 dest 10.220.0.12
domain add max.example profile M
KCONF
check_err $? "the kernel configuration was refused"
peers_agent_start -o "dataplane kernel" -o "sccrq-timeout 3s"
check_err $? "l2tpseld did not start"
peers_ready
check_err $? "a peer did not start"
log_test "3 xl2tpd LNS, a CDN LNS, a silent destination, l2tpseld"
[ "$EXIT_STATUS" = 0 ] || { peers_show; exit $EXIT_STATUS; }

hub=$PEERS_HUB

# --- destination-equal ------------------------------------------------------------
t0=${EPOCHREALTIME/./}000
: >"$PEERS_DIR/spread"
for i in $(seq $N); do
	out=$(peers_login start user$i@equal.example)
	has_line '^done ok' "$out"
	check_err $? "login $i did not succeed: $(tr '\n' ';' <<<"$out")"
	awk '$1 == "attempt" { for (i = 2; i < NF; i++) if ($i == "remote") r = $(i + 1) }
	     $1 == "done" && $2 == "ok" { print r, $4 }' <<<"$out" >>"$PEERS_DIR/spread"
done
echo "$N logins in $(((${EPOCHREALTIME/./}000 - t0) / 1000000)) ms"
got=$(cut -d ' ' -f 1 "$PEERS_DIR/spread" | sort | uniq -c | awk '{ print $2 ":" $1 }' | tr '\n' ' ')
echo "sessions per LNS: $got"
[ "$got" = "10.220.0.11:2 10.220.0.12:2 10.220.0.13:2 " ]
check_err $? "the logins did not land two on each LNS"
kgot=$(ip netns exec "$hub" "$L2TPSEL_CLI" destination show |
	awk '$1 ~ /^10\.220\.0\.1[123]$/ { for (i = 2; i < NF; i++) if ($i == "sessions") print $1 ":" $(i + 1) }' |
	sort | tr '\n' ' ')
echo "kernel destination counts: $kgot"
[ "$kgot" = "10.220.0.11:2 10.220.0.12:2 10.220.0.13:2 " ]
check_err $? "the kernel does not count two sessions per destination"
log_test "destination-equal: $N logins spread 2/2/2 over three xl2tpd LNS"

# The data path is the kernel's: each hub session is paired with an LNS's.
l2tp_data_sessions "$hub" >"$PEERS_DIR/hub.sessions"
for n in 1 2 3; do
	l2tp_data_sessions "${PEER_NS[lns$n]}" >"$PEERS_DIR/lns$n.sessions"
	s=$(wc -l <"$PEERS_DIR/lns$n.sessions")
	[ "$s" = 2 ]
	check_err $? "lns$n holds $s kernel data sessions, not 2"
done
[ "$(ip -n "$hub" l2tp show tunnel | grep -c '^Tunnel')" = 3 ]
check_err $? "not one kernel tunnel per LNS in the hub"
paired=$(cat "$PEERS_DIR"/lns?.sessions |
	awk 'NR == FNR { hub[$1] = $2; next } hub[$2] == $1 { n++ } END { print n + 0 }' \
		"$PEERS_DIR/hub.sessions" -)
[ "$paired" = $N ]
check_err $? "$paired of the hub's kernel sessions are paired with an LNS's, not $N"
links() {
	[ "$(ip -n "$hub" -4 -o addr show | grep -c ' ppp')" = $N ]
}
wait_for 60 links
check_err $? "not $N PPP links with addresses in the hub within 60 s"
echo "PPP links in the hub: $(ip -n "$hub" -4 -o addr show | awk '$2 ~ /^ppp/ { printf "%s %s, ", $2, $4 }')"
for n in 1 2 3; do
	ip netns exec "$hub" ping -c 1 -W 2 "$(peer_lns_ppp_addr lns$n)" >/dev/null
	check_err $? "no ping to lns$n's end of its PPP links"
done
log_test "kernel sessions paired, $N PPP links up, a ping to each LNS"

# --- a CDN ends the login ------------------------------------------------------
out=$(peers_login start user@cdn.example)
echo "$out"
has_line '^outcome 1 cdn' "$out"
check_err $? "the first attempt's outcome is not cdn"
[ "$(grep -c '^attempt' <<<"$out")" = 1 ]
check_err $? "the login went on after the CDN"
has_line '^done fail reason cdn' "$out"
check_err $? "the login did not end with reason cdn"
[ "$(peer_silent_count quiet)" = 0 ]
check_err $? "the level-1 destination received $(peer_silent_count quiet) datagram(s) after a CDN"
lock=$(ip netns exec "$hub" "$L2TPSEL_CLI" destination show |
	awk '$1 == "10.220.0.14" { for (i = 2; i < NF; i++) if ($i == "lockout-ms") print $(i + 1) }')
echo "10.220.0.14 lockout-ms ${lock:-?}"
[ "${lock:-x}" = 0 ]
check_err $? "the CDN's destination is locked (lockout-ms ${lock:-?})"
log_test "a CDN ends the login: no failover, no lockout"

# --- logout ------------------------------------------------------------------------
while read -r remote id; do
	out=$(peers_login stop "$id")
	check_err $? "logout of session $id ($remote) failed: $out"
done <"$PEERS_DIR/spread"
gone() {
	! ip -n "$hub" -o link show | grep -q ': ppp' &&
		[ -z "$(ip -n "$hub" l2tp show tunnel)" ]
}
wait_for 30 gone
check_err $? "PPP links or kernel tunnels still in the hub 30 s after logout"
# (a zombie counts too: the agent must reap its pppd)
left=$(pgrep -P "$PEERS_AGENT_PID" -x pppd | tr '\n' ' ')
[ -z "$left" ]
check_err $? "pppd $left of the agent still there"
kgot=$(ip netns exec "$hub" "$L2TPSEL_CLI" destination show |
	awk '$1 ~ /^10\.220\.0\.1[123]$/ { for (i = 2; i < NF; i++) if ($i == "sessions") s += $(i + 1) } END { print s + 0 }')
[ "$kgot" = 0 ]
check_err $? "the kernel still counts $kgot sessions"
log_test "logout: pppd, PPP links, kernel sessions and tunnels gone, counts 0"

# --- max-sessions exhaustion ---------------------------------------------------
walk=
for i in 1 2 3; do
	out=$(peers_login start max$i@max.example)
	has_line '^done ok' "$out"
	check_err $? "login max$i did not succeed: $(tr '\n' ';' <<<"$out")"
	walk+=$(awk '$1 == "attempt" { for (i = 2; i < NF; i++) { if ($i == "remote") r = $(i + 1); if ($i == "level") l = $(i + 1) }; printf "%s%s:%s", n++ ? "," : "", l, r }' <<<"$out")" "
	id=$(sed -n 's/^done ok session \([0-9]*\).*/\1/p' <<<"$out")
	[ -n "$id" ] && echo "$id" >>"$PEERS_DIR/max.ids"
done
echo "attempts (level:remote) per login: $walk"
[ "$walk" = "0:10.220.0.11 0:10.220.0.11 1:10.220.0.12 " ]
check_err $? "max-sessions 2 at level 0 did not send the third login to level 1 directly"
while read -r id; do
	peers_login stop "$id" >/dev/null
done <"$PEERS_DIR/max.ids"
log_test "max-sessions 2 exhausted: the third login goes to level 1"

[ "$EXIT_STATUS" = 0 ] || peers_show
exit $EXIT_STATUS
