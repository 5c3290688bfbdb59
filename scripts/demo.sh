#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The demo: build, boot a VM, load l2tpsel, then l2tpseld as the access
# concentrator (LAC) between PPPoE subscribers (Debian's pppd with its pppoe
# plugin, on an access link of their own) and real LNS peers
# (selftests/peers.sh: each in a network namespace of its own behind a "hub"
# namespace where the agent runs): a tunnel profile with a silent
# destination at level 0 and two xl2tpd LNS at level 1 with load balancing
# (destination-equal).  The first subscriber's login tries the silent one,
# gets no reply, locks it out and fails over to level 1; the second skips
# the locked destination and goes to the other LNS.  PPP comes up between
# each subscriber and its LNS through the kernel's PPPoE-to-L2TP bridge, a
# ping crosses each.  The agent asks FreeRADIUS about every subscriber; a
# third one's Access-Accept carries RFC 2868 tunnel attributes naming an LNS
# no profile has, with its tunnel password: the kernel selects among them.
# The subscribers hang up and the counts go back to 0.
# Each step says what it does.  Exits 0 when every step worked.
#
# What happened is judged from the agent's API ("l2tpsel -j login watch":
# every login's attempts and outcomes as JSON) and the CLI's JSON, never
# from the wording of a log line: selftests/net/demo.sh runs this with the
# agent's log reworded (DEMO_REWORD=1) and it must still pass.
#
#   scripts/demo.sh            on the host: builds with make, then runs the
#                              second half in the VM (selftests/vm/vm.sh)
#   scripts/demo.sh --in-vm    that second half (root, in the VM)
set -u

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)

if [ "${1:-}" != --in-vm ]; then
	cd "$top" || exit 1
	echo "== demo: building the module, the CLI and the agent (make)"
	make --no-print-directory -s all || { echo "demo: make failed" >&2; exit 1; }
	echo "== demo: booting $(ls -1 /lib/modules | sort -V | tail -n 1) in qemu (software emulation, a few seconds)"
	exec selftests/vm/vm.sh -- scripts/demo.sh --in-vm
fi

source "$top/selftests/lib.sh"
source "$top/selftests/peers.sh"

step=0
t_start=$SECONDS
say() {
	step=$((step + 1))
	printf '\n== %d. %s  [%ds]\n' "$step" "$*" $((SECONDS - t_start))
}
# run CMD...: show a command, then run it.
run() {
	printf '$ %s\n' "$*"
	"$@"
}
# hub CMD...: show a command, then run it in the hub namespace (where the
# agent runs: the LAC).
hub() {
	printf '[hub]$ %s\n' "$*"
	ip netns exec "$PEERS_HUB" "$@"
}
die() {
	echo "demo: FAILED: $*"
	peers_show 2>/dev/null
	[ -n "${PEERS_DIR:-}" ] && [ -e "$PEERS_DIR/agent.log" ] &&
		{ echo "--- agent.log"; tail -n 40 "$PEERS_DIR/agent.log"; }
	exit 1
}
# dests_json: the kernel's destinations as JSON (l2tpsel -j destination show).
dests_json() {
	dests=$(ip netns exec "$PEERS_HUB" "$cli" -j destination show) || die "destination show -j failed"
}
# field DEST KEY: KEY of destination DEST in the last dests_json.
field() {
	jq -r --arg d "$1" --arg k "$2" '.[] | select(.dest == $d) | .[$k]' <<<"$dests"
}
# attempts USER: "LEVEL REMOTE RESULT" per attempt of USER's login, from
# the agent's API (the watch in $LOGINS, one JSON object a line).
attempts() {
	jq -rs --arg u "$1" '
		(map(select(.event == "login" and .user == $u)) | last | .login) as $id
		| map(select(.login == $id)) as $l
		| $l[] | select(.event == "attempt") | . as $a
		| ($l | map(select(.event == "outcome" and .outcome == $a.attempt)) | first) as $o
		| "\($a.level) \($a.remote) \($o.result // "none")"' "$LOGINS"
}
# login_done USER: USER's login's result as the API gave it ("ok", "fail").
login_done() {
	jq -rs --arg u "$1" '
		(map(select(.event == "login" and .user == $u)) | last | .login) as $id
		| map(select(.login == $id and .event == "done")) | last | .result // "none"' "$LOGINS"
}
# login_lines USER: USER's login as the API gave it, for the reader.
login_lines() {
	jq -cs --arg u "$1" '
		(map(select(.event == "login" and .user == $u)) | last | .login) as $id
		| .[] | select(.login == $id) | del(.login)' "$LOGINS" | sed 's/^/  /'
}

cli=$L2TPSEL_CLI
SILENT=10.220.0.10
LNS1=10.220.0.11
LNS2=10.220.0.12
LNS3=10.220.0.13

say "In the VM: kernel $(uname -r), the host's files read-only, this work tree at $top"
require_root
require_module_file
peers_require
peers_require_agent
echo "xl2tpd, pppd with pppol2tp.so, l2tp_ppp, veth, netem, build/l2tpseld: all here"

say "Before loading: the CLI says plainly that the module is not there"
mod_unload_quiet
run "$cli" info
echo "(exit status $?)"

say "Load the module; what it says about itself"
run insmod "$L2TPSEL_KO" || die "insmod failed"
defer mod_unload_quiet
grep "^$L2TPSEL_MOD " /proc/modules
run "$cli" info || die "l2tpsel info failed"

say "Real peers, each in a namespace of its own behind the hub (the LAC's namespace)"
echo "  $SILENT  silent: swallows every SCCRQ, never answers (a wedged LNS)"
echo "  $LNS1  xl2tpd LNS lns-1 (PPP pool 10.230.2.0/24)"
echo "  $LNS2  xl2tpd LNS lns-2 (PPP pool 10.230.3.0/24)"
echo "  $LNS3  xl2tpd LNS lns-3, tunnel secret required; in no profile: only RADIUS names it"
peers_init 10.210.0.1 || die "cannot set up the hub namespace"
peer_add quiet $SILENT || die "cannot add the silent peer"
peer_add lns1 $LNS1 || die "cannot add peer lns1"
peer_add lns2 $LNS2 || die "cannot add peer lns2"
peer_add lns3 $LNS3 || die "cannot add peer lns3"
peer_silent_start quiet || die "the silent destination did not start"
peer_lns_start lns1 host lns-1 || die "xl2tpd lns1 did not start"
peer_lns_start lns2 host lns-2 || die "xl2tpd lns2 did not start"
peer_lns_start lns3 host lns-3 secret lns3-secret || die "xl2tpd lns3 did not start"
grep -h 'Listening on' "$PEERS_DIR"/lns?-xl2tpd.log
echo "hub $PEERS_HUB: $(ip -n "$PEERS_HUB" -br link | awk '$1 ~ /^p-/ { sub(/@.*/, "", $1); printf "%s ", $1 }')"

say "Configure l2tpsel in the hub: one profile, two preference levels, load balancing at level 1"
cat >"$PEERS_DIR/demo.conf" <<-KCONF
profile add demo failover between-levels lb destination-equal
tunnel add silent profile demo level 0 dest $SILENT
tunnel add lns-1 profile demo level 1 dest $LNS1
tunnel add lns-2 profile demo level 1 dest $LNS2
domain add example profile demo
KCONF
cat "$PEERS_DIR/demo.conf"
hub "$cli" -b "$PEERS_DIR/demo.conf" || die "the configuration was refused"
hub "$cli" tunnel show || die "tunnel show failed"

say "Three PPPoE subscribers on the access link acc0 (Debian's pppd with its pppoe plugin)"
compgen -G '/usr/lib/pppd/*/pppoe.so' >/dev/null || die "pppd has no pppoe.so plugin"
modprobe -q -a pppoe macvlan || die "no pppoe or macvlan kernel module"
setup_ns SUBS || die "cannot create the subscribers' namespace"
ip -n "$PEERS_HUB" link add acc0 type veth peer name sw0 netns "$SUBS" || die "veth acc0"
ip -n "$SUBS" -batch - <<-IPB || die "macvlans"
link set sw0 up
link add sub1 link sw0 type macvlan mode bridge
link add sub2 link sw0 type macvlan mode bridge
link add sub3 link sw0 type macvlan mode bridge
link set sub1 up
link set sub2 up
link set sub3 up
IPB
ip -n "$PEERS_HUB" link set acc0 up
echo "hub acc0 <-> sw0 in $SUBS; subscribers:"
ip -n "$SUBS" -br link show type macvlan | sed 's/^/  /'

say "FreeRADIUS in the hub (Debian's, a configuration of its own): who may log in, and radius@example's tunnel"
R=$PEERS_DIR/raddb
peer_radius_prepare "$R" || die "cannot copy /etc/freeradius/3.0"
cat >"$R/mods-config/files/authorize" <<USERS
user@example	Cleartext-Password := "secret"
user2@example	Cleartext-Password := "secret"
radius@example	Cleartext-Password := "secret"
		Tunnel-Type:1 = L2TP, Tunnel-Medium-Type:1 = IPv4,
		Tunnel-Server-Endpoint:1 = "$LNS3", Tunnel-Preference:1 = 1,
		Tunnel-Password:1 = "lns3-secret", Tunnel-Assignment-Id:1 = "lns-3"
USERS
sed 's/^/  /' "$R/mods-config/files/authorize"
peer_radius_start "$R" "$PEERS_DIR/radiusd.log" ||
	die "freeradius did not start: $(tail -n 5 "$PEERS_DIR/radiusd.log")"
echo "freeradius pid $PEER_RADIUSD on the hub's 127.0.0.1:1812/1813"

say "Start l2tpseld in the hub as the access concentrator (LAC): PPPoE in, RADIUS, L2TP out"
printf '%s\n' 'radius-server 127.0.0.1 secret testing123' 'radius-accounting yes' >"$PEERS_DIR/agent.conf"
chmod 0600 "$PEERS_DIR/agent.conf"
echo "l2tpseld -c agent.conf (radius-server 127.0.0.1 secret ..., radius-accounting yes) -o 'dataplane kernel' -o 'access pppoe acc0 ac-name l2tpsel-demo' -o 'access-auth chap pap' -o 'sccrq-timeout 3s'"
peers_agent_start -c "$PEERS_DIR/agent.conf" -o "dataplane kernel" \
	-o "access pppoe acc0 ac-name l2tpsel-demo" \
	-o "access-auth chap pap" -o "sccrq-timeout 3s" || die "l2tpseld did not start"
echo "l2tpseld pid $PEERS_AGENT_PID, API socket $PEERS_DIR/agent.sock"
LOGINS=$PEERS_DIR/logins.json
echo "Every login's attempts and outcomes, from the agent's API, as JSON:"
printf '$ %s >%s &\n' "$cli -j login watch socket $PEERS_DIR/agent.sock" "$LOGINS"
"$cli" -j login watch socket "$PEERS_DIR/agent.sock" >"$LOGINS" &
defer kill_wait $!
watching() { grep -q '"event":"watching"' "$LOGINS"; }
wait_for 10 watching || die "l2tpsel login watch did not start"

# dial N USER: subscriber N's pppd (interface pppN in the subscribers' namespace).
dial() {
	printf '[sub%s]$ pppd plugin pppoe.so nic-sub%s user %s password secret noauth ...\n' "$1" "$1" "$2"
	ip netns exec "$SUBS" pppd plugin pppoe.so nic-sub"$1" unit "$1" user "$2" password secret \
		noauth nodefaultroute noipdefault mtu 1492 mru 1492 noipv6 noccp novj maxfail 1 \
		lcp-echo-interval 0 ip-up-script /bin/true ip-down-script /bin/true nodetach \
		logfile "$PEERS_DIR/sub$1.log" >/dev/null 2>&1 &
	eval "SUB$1=\$!"
	defer kill_wait $!
}
sub_up() { ip -n "$SUBS" -4 addr show dev "ppp$1" 2>/dev/null | grep -q 'inet .* peer '; }
# logged USER: USER's login has ended, as the API says
logged() { [ "$(login_done "$1")" != none ]; }

say "Subscriber 1 dials as user@example: PAP/CHAP name -> selection: the silent LNS first, no reply, lockout, failover"
t0=$(date +%s%N)
dial 1 user@example
wait_for 60 sub_up 1 || die "subscriber 1: no IPCP within 60 s"
echo "(PADI to IPCP up at the subscriber: $((($(date +%s%N) - t0) / 1000000)) ms)"
wait_for 10 logged user@example || die "login 1: the API gave no result"
login_lines user@example
[ "$(login_done user@example)" = ok ] || die "login 1: the API says $(login_done user@example)"
walk1=$(attempts user@example)
first=$(awk 'NR == 2 { print $2 }' <<<"$walk1")
case $first in
$LNS1) other=$LNS2 ;;
$LNS2) other=$LNS1 ;;
*) die "login 1 did not go to $LNS1 or $LNS2 at level 1" ;;
esac
[ "$walk1" = "0 $SILENT no-reply
1 $first ok" ] || die "login 1: expected $SILENT no-reply then $first ok, got: $(tr '\n' ';' <<<"$walk1")"
n=$(peer_silent_count quiet $SILENT)
[ "$n" -ge 1 ] || die "the silent destination received nothing"
echo "the silent destination really was tried: it swallowed $n datagram(s) (SCCRQ and retransmissions)"

say "What the kernel now knows: $SILENT locked out, one session on $first"
hub "$cli" destination show || die "destination show failed"
dests_json
lock=$(field $SILENT lockout_ms)
[ "${lock:-0}" -gt 0 ] || die "$SILENT is not locked out (lockout-ms ${lock:-?})"
[ "$(field $SILENT failures)" -ge 1 ] || die "no failure counted for $SILENT"
[ "$(field "$first" sessions)" = 1 ] || die "$first does not count 1 session"
echo "$SILENT: locked for another $((lock / 1000)) s, $(field $SILENT failures) failure(s); $first: 1 session"

say "Subscriber 2 dials as user2@example (the locked one is skipped; load balancing picks the other LNS)"
before=$n
dial 2 user2@example
wait_for 60 sub_up 2 || die "subscriber 2: no IPCP within 60 s"
wait_for 10 logged user2@example || die "login 2: the API gave no result"
login_lines user2@example
walk2=$(attempts user2@example)
[ "$walk2" = "1 $other ok" ] || die "login 2: expected one attempt, $other ok; got: $(tr '\n' ';' <<<"$walk2")"
[ "$(peer_silent_count quiet $SILENT)" = "$before" ] || die "the locked destination was contacted again"
echo "the locked destination received nothing more; destination-equal sent this login to $other"

say "Subscriber 3 dials as radius@example: RADIUS's tunnel attributes are its tunnel set"
dial 3 radius@example
wait_for 60 sub_up 3 || die "subscriber 3: no IPCP within 60 s"
grep -E 'RADIUS (Access-Accept|tunnel tag)' "$PEERS_DIR/agent.log" | tail -n 2 | sed 's/^l2tpseld: /  /'
wait_for 10 logged radius@example || die "login 3: the API gave no result"
login_lines radius@example
walk3=$(attempts radius@example)
[ "$walk3" = "0 $LNS3 ok" ] || die "login 3: expected $LNS3 ok at level 0; got: $(tr '\n' ';' <<<"$walk3")"
hub "$cli" profile show
[ "$(ip netns exec "$PEERS_HUB" "$cli" -j profile show | jq '[.[] | select(.dynamic == true)] | length')" = 1 ] ||
	die "no tunnel set in the kernel"
echo "(the set is the kernel's profile ~1: its destination is shared, like any configured tunnel's)"
ip netns exec "$SUBS" ping -c 2 -i 0.3 -W 2 -I ppp3 "$(peer_lns_ppp_addr lns3)" ||
	die "no ping from subscriber 3 to lns-3"

say "destination show and summary: one session on each LNS"
hub "$cli" destination show || die "destination show failed"
dests_json
[ "$(field $LNS1 sessions)" = 1 ] && [ "$(field $LNS2 sessions)" = 1 ] &&
	[ "$(field $LNS3 sessions)" = 1 ] || die "the kernel does not count one session on each LNS"
hub "$cli" summary || die "summary failed"

say "PPP at the subscribers, bridged in the kernel: PPPoE session <-> PPPoL2TP session, no pppd on the LAC"
ip -n "$SUBS" -4 -o addr show | awk '$2 ~ /^ppp/ { print "  " $2, $4, $5, $6 }'
hub ip l2tp show session | grep -E '^Session|Peer'
for p in $(ip netns pids "$PEERS_HUB"); do
	[ "$(cat "/proc/$p/comm" 2>/dev/null)" != pppd ] || die "a pppd runs in the hub (pid $p)"
done
echo "(no pppd in the hub: the LAC's PPP ended at login, the kernel bridges the rest)"
hub "$cli" -j login stats socket "$PEERS_DIR/agent.sock" | jq -c 'select(.event == "access")'

say "Ping each LNS from its subscriber: PPPoE -> kernel bridge -> L2TP -> LNS"
ip netns exec "$SUBS" ping -c 2 -i 0.3 -W 2 -I ppp1 "$(peer_lns_ppp_addr "$([ "$first" = "$LNS1" ] && echo lns1 || echo lns2)")" ||
	die "no ping from subscriber 1 to its LNS"
ip netns exec "$SUBS" ping -c 2 -i 0.3 -W 2 -I ppp2 "$(peer_lns_ppp_addr "$([ "$other" = "$LNS1" ] && echo lns1 || echo lns2)")" ||
	die "no ping from subscriber 2 to its LNS"

say "The subscribers hang up (PADT): the agent clears the calls (CDN), the counts go back to 0"
kill "$SUB1" "$SUB2" "$SUB3"
gone() {
	[ -z "$(ip -n "$PEERS_HUB" l2tp show session)" ] &&
		[ "$(ip netns exec "$PEERS_HUB" "$cli" -j summary | jq .sessions)" = 0 ]
}
wait_for 30 gone || die "kernel sessions or counts left 30 s after the subscribers hung up"
echo "kernel sessions gone"
hub "$cli" destination show || die "destination show failed"
dests_json
[ "$(field $LNS1 sessions)" = 0 ] && [ "$(field $LNS2 sessions)" = 0 ] &&
	[ "$(field $LNS3 sessions)" = 0 ] || die "the kernel still counts sessions after the hang-up"
cat "$R"/log/radacct/*/detail-* 2>/dev/null | grep -c 'Acct-Status-Type = Stop' |
	xargs printf 'FreeRADIUS has %s Stop records (one per subscriber)\n'
hub "$cli" summary || die "summary failed"

say "Stop the agent and the peers, delete the namespaces, unload the module"
defer_run
"$cli" info >/dev/null 2>&1 && die "the module is still loaded"
echo "done: $(grep -c "^$L2TPSEL_MOD " /proc/modules) l2tpsel module(s) loaded, $(ip netns list | wc -l) namespace(s) left"

printf '\n== demo: every step worked (%d s in the VM)\n' $((SECONDS - t_start))
exit 0
