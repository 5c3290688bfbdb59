#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only real peers: Debian's kernel only (L2TPSEL_PEERS_ON_DEBUG=1 runs it on the debug kernel)
#
# Drain (S-OPS-1): a drained tunnel receives no new login while its
# sessions stay.  l2tpseld as LAC with the kernel data path, two xl2tpd LNS
# behind two tunnels of one level:
#
# - T2 drained, a login takes T1; then T1 drained and T2 not: four logins
#   all go to lns2, none is attempted at lns1, and T1's session stays up
#   (its PPP link, its kernel session at lns1, a ping across it); show and
#   -j say "draining" with T1's session count;
# - lns2's destination drained too: a login attempts nothing and fails as
#   "drained", with no failure, no lockout;
# - T1's last session logged out: "drained"; the drains ended, a login
#   takes T1 again.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../peers.sh"

require_root
require_module_file
peers_require
peers_require_agent
require_cmd python3

mod_load || fail "insmod $L2TPSEL_KO failed"
peers_init 10.212.0.1 || fail "cannot set up the hub"
peers_add "lns1 10.222.0.11" "lns2 10.222.0.12" || fail "cannot add the peers"
for n in 1 2; do
	peer_lns_start lns$n host lns-$n
	check_err $? "xl2tpd lns$n did not start"
done
peers_kconf <<-KCONF
profile add D
tunnel add T1 profile D level 0 dest 10.222.0.11
tunnel add T2 profile D level 0 dest 10.222.0.12
domain add drain.example profile D
KCONF
check_err $? "the kernel configuration was refused"
peers_agent_start -o "dataplane kernel" -o "sccrq-timeout 3s"
check_err $? "l2tpseld did not start"
peers_ready
check_err $? "a peer did not start"
log_test "2 xl2tpd LNS, one level of two tunnels, l2tpseld"
[ "$EXIT_STATUS" = 0 ] || { peers_show; exit $EXIT_STATUS; }

hub=$PEERS_HUB
cli() { ip netns exec "$hub" "$L2TPSEL_CLI" "$@"; }
# the remote of every attempt of a login's lines, space-separated
remotes() {
	awk '$1 == "attempt" { for (i = 2; i < NF; i++) if ($i == "remote") printf "%s ", $(i + 1) }' <<<"$1"
}
# FIELD of tunnel NAME in "tunnel show -j" ("-" when absent)
tjson() {
	cli -j tunnel show | python3 -c '
import json, sys
for t in json.load(sys.stdin):
    if t["tunnel"] == sys.argv[1]:
        print(t.get(sys.argv[2], "-"))' "$1" "$2"
}
session_of() { sed -n 's/^done ok session \([0-9]*\).*/\1/p' <<<"$1"; }

# --- a session on T1 -------------------------------------------------------------
cli tunnel drain T2 profile D
check_err $? "tunnel drain T2 refused"
out=$(peers_login start d1@drain.example)
has_line '^done ok' "$out"
check_err $? "login d1 did not succeed: $(tr '\n' ';' <<<"$out")"
[ "$(remotes "$out")" = "10.222.0.11 " ]
check_err $? "with T2 drained, d1 went to $(remotes "$out")"
d1=$(session_of "$out")
log_test "T2 drained: the login takes T1"

# --- T1 drained: no new login through it, its session stays ---------------------
cli tunnel drain T1 profile D on && cli tunnel drain T2 profile D off
check_err $? "tunnel drain T1 on / T2 off refused"
ids=
for i in 2 3 4 5; do
	out=$(peers_login start d$i@drain.example)
	has_line '^done ok' "$out"
	check_err $? "login d$i did not succeed: $(tr '\n' ';' <<<"$out")"
	[ "$(remotes "$out")" = "10.222.0.12 " ]
	check_err $? "with T1 drained, d$i attempted $(remotes "$out")"
	ids+="$(session_of "$out") "
done
cli tunnel show
[ "$(tjson T1 drain)" = draining ] && [ "$(tjson T1 sessions)" = 1 ] &&
	[ "$(tjson T1 drained_by)" = tunnel ]
check_err $? "T1 does not show as draining with 1 session"
[ "$(tjson T2 drain)" = - ] && [ "$(tjson T2 sessions)" = 4 ]
check_err $? "T2 does not show 4 sessions, undrained"
[ "$(l2tp_data_sessions "${PEER_NS[lns1]}" | wc -l)" = 1 ]
check_err $? "lns1 does not hold d1's kernel session any more"
links() { [ "$(ip -n "$hub" -4 -o addr show | grep -c ' ppp')" = 5 ]; }
wait_for 60 links
check_err $? "not 5 PPP links in the hub"
ip netns exec "$hub" ping -c 1 -W 2 "$(peer_lns_ppp_addr lns1)" >/dev/null
check_err $? "no ping across d1's link to lns1"
log_test "T1 drained: 4 logins to T2, none to T1; T1's session stays up (draining, 1 session)"

# --- lns2's destination drained too: nothing to attempt -------------------------
cli destination drain 10.222.0.12
check_err $? "destination drain refused"
[ "$(tjson T2 drained_by)" = destination ]
check_err $? "T2 is not shown as drained by its destination"
out=$(peers_login start d6@drain.example)
rc=$?
[ $rc = 2 ] && has_line '^done fail reason drained' "$out" && [ -z "$(remotes "$out")" ]
check_err $? "login d6 did not fail as drained without an attempt (exit $rc): $(tr '\n' ';' <<<"$out")"
cli destination show
fl=$(cli destination show | awk '{ for (i = 2; i < NF; i++) { if ($i == "failures") f += $(i + 1); if ($i == "lockout-ms") l += $(i + 1) } } END { print f + 0, l + 0 }')
[ "$fl" = "0 0" ]
check_err $? "a drain counted as failure or lockout (failures, lockout-ms: $fl)"
log_test "every tunnel drained: the login fails as drained, nothing attempted or locked"

# --- the sessions end as they would; the drain ends --------------------------------
peers_login stop "$d1" >/dev/null
check_err $? "logout of d1 failed"
drained() { [ "$(tjson T1 drain)" = drained ] && [ "$(tjson T1 sessions)" = 0 ]; }
wait_for 15 drained
check_err $? "T1 does not show as drained with 0 sessions after d1's logout"
cli tunnel drain T1 profile D off && cli destination drain 10.222.0.12 off
check_err $? "ending the drains refused"
[ "$(tjson T1 drain)" = - ] && [ "$(tjson T2 drain)" = - ]
check_err $? "a drain still shown"
out=$(peers_login start d7@drain.example)
has_line '^done ok' "$out"
check_err $? "login d7 did not succeed after the drains ended: $(tr '\n' ';' <<<"$out")"
ids+="$(session_of "$out") "
for id in $ids; do
	peers_login stop "$id" >/dev/null
done
log_test "T1's last session ends: drained; the drains end, logins come back"

[ "$EXIT_STATUS" = 0 ] || peers_show
exit $EXIT_STATUS
