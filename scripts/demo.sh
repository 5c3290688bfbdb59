#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The demo: build, boot a VM, load l2tpsel, then l2tpseld as LAC choosing
# among real LNS peers (selftests/peers.sh: each in a network namespace of
# its own behind a "hub" namespace where the agent runs): a tunnel profile
# with a silent destination at level 0 and two xl2tpd LNS at level 1 with
# load balancing (destination-equal).  A login tries the silent one, gets no
# reply, locks it out and fails over to level 1; a second login skips the
# locked destination and goes to the other LNS.  PPP comes up over the
# kernel's L2TP data path, a ping crosses each link, logout brings the counts
# back to 0.  Each step says what it does.  Exits 0 when every step worked.
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
# field LINE_PREFIX KEY: the value after KEY on the destination show line of
# the destination LINE_PREFIX (last output in $dests).
field() {
	awk -v d="$1" -v k="$2" '$1 == d { for (i = 2; i < NF; i++) if ($i == k) print $(i + 1) }' <<<"$dests"
}
# attempts OUT: "LEVEL REMOTE OUTCOME" per attempt of a login's output.
attempts() {
	awk '$1 == "attempt" { for (i = 2; i < NF; i++) { if ($i == "remote") r[$2] = $(i + 1); if ($i == "level") l[$2] = $(i + 1) } n = $2 }
	     $1 == "outcome" { o[$2] = $3 }
	     END { for (k = 1; k <= n; k++) print l[k], r[k], o[k] }' <<<"$1"
}

cli=$L2TPSEL_CLI
SILENT=10.220.0.10
LNS1=10.220.0.11
LNS2=10.220.0.12

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
peers_init 10.210.0.1 || die "cannot set up the hub namespace"
peer_add quiet $SILENT || die "cannot add the silent peer"
peer_add lns1 $LNS1 || die "cannot add peer lns1"
peer_add lns2 $LNS2 || die "cannot add peer lns2"
peer_silent_start quiet || die "the silent destination did not start"
peer_lns_start lns1 host lns-1 || die "xl2tpd lns1 did not start"
peer_lns_start lns2 host lns-2 || die "xl2tpd lns2 did not start"
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

say "Start l2tpseld in the hub as LAC, PPP over the kernel's L2TP data path"
echo "l2tpseld -o 'dataplane kernel' -o 'sccrq-timeout 3s' (and its socket, journal, pppd options)"
peers_agent_start -o "dataplane kernel" -o "sccrq-timeout 3s" || die "l2tpseld did not start"
echo "l2tpseld pid $PEERS_AGENT_PID, API socket $PEERS_DIR/agent.sock"

say "Login 1: l2tpsel login start user@example (the silent LNS first: no reply, lockout, failover)"
printf '[hub]$ %s\n' "$cli login start user@example"
t0=$(date +%s%N)
out1=$(peers_login start user@example)
echo "$out1"
echo "(login took $((($(date +%s%N) - t0) / 1000000)) ms)"
walk1=$(attempts "$out1")
first=$(awk 'NR == 2 { print $2 }' <<<"$walk1")
case $first in
$LNS1) other=$LNS2 ;;
$LNS2) other=$LNS1 ;;
*) die "login 1 did not go to $LNS1 or $LNS2 at level 1" ;;
esac
[ "$walk1" = "0 $SILENT no-reply
1 $first ok" ] || die "login 1: expected $SILENT no-reply then $first ok, got: $(tr '\n' ';' <<<"$walk1")"
grep -q '^done ok' <<<"$out1" || die "login 1 did not succeed"
id1=$(sed -n 's/^done ok session \([0-9]*\).*/\1/p' <<<"$out1")
n=$(peer_silent_count quiet $SILENT)
[ "$n" -ge 1 ] || die "the silent destination received nothing"
echo "the silent destination really was tried: it swallowed $n datagram(s) (SCCRQ and retransmissions)"

say "What the kernel now knows: $SILENT locked out, one session on $first"
dests=$(hub "$cli" destination show) || die "destination show failed"
echo "$dests"
lock=$(field $SILENT lockout-ms)
[ "${lock:-0}" -gt 0 ] || die "$SILENT is not locked out (lockout-ms ${lock:-?})"
[ "$(field $SILENT failures)" -ge 1 ] || die "no failure counted for $SILENT"
[ "$(field "$first" sessions)" = 1 ] || die "$first does not count 1 session"
echo "$SILENT: locked for another $((lock / 1000)) s, $(field $SILENT failures) failure(s); $first: 1 session"

say "Login 2: l2tpsel login start user2@example (the locked one is skipped; load balancing picks the other LNS)"
printf '[hub]$ %s\n' "$cli login start user2@example"
before=$n
out2=$(peers_login start user2@example)
echo "$out2"
walk2=$(attempts "$out2")
[ "$walk2" = "1 $other ok" ] || die "login 2: expected one attempt, $other ok; got: $(tr '\n' ';' <<<"$walk2")"
grep -q '^done ok' <<<"$out2" || die "login 2 did not succeed"
id2=$(sed -n 's/^done ok session \([0-9]*\).*/\1/p' <<<"$out2")
[ "$(peer_silent_count quiet $SILENT)" = "$before" ] || die "the locked destination was contacted again"
echo "the locked destination received nothing more; destination-equal sent this login to $other"

say "destination show and summary: one session on each LNS"
dests=$(hub "$cli" destination show) || die "destination show failed"
echo "$dests"
[ "$(field $LNS1 sessions)" = 1 ] && [ "$(field $LNS2 sessions)" = 1 ] ||
	die "the kernel does not count one session on each LNS"
hub "$cli" summary || die "summary failed"

say "Two PPP links in the hub, carried by the kernel's L2TP sessions"
links() {
	[ "$(ip -n "$PEERS_HUB" -4 -o addr show | grep -c ' ppp')" = 2 ]
}
wait_for 60 links || die "not two PPP links with addresses in the hub within 60 s"
ip -n "$PEERS_HUB" -4 -o addr show | awk '$2 ~ /^ppp/ { print "  " $2, $4, $5, $6 }'
hub ip l2tp show tunnel | grep -E '^Tunnel|From|Peer'
echo "(one kernel tunnel per LNS; each LNS's xl2tpd holds the other end)"

say "Ping each LNS across its PPP link"
hub ping -c 2 -i 0.3 -W 2 "$(peer_lns_ppp_addr lns1)" || die "no ping across the PPP link to lns1"
hub ping -c 2 -i 0.3 -W 2 "$(peer_lns_ppp_addr lns2)" || die "no ping across the PPP link to lns2"

say "Logout: l2tpsel login stop $id1, l2tpsel login stop $id2"
peers_login stop "$id1" || die "logout of session $id1 failed"
peers_login stop "$id2" || die "logout of session $id2 failed"
gone() {
	! ip -n "$PEERS_HUB" -o link show | grep -q ': ppp' &&
		[ -z "$(ip -n "$PEERS_HUB" l2tp show tunnel)" ]
}
wait_for 30 gone || die "PPP links or kernel tunnels still in the hub 30 s after logout"
echo "PPP links and kernel tunnels gone"
dests=$(hub "$cli" destination show) || die "destination show failed"
echo "$dests"
[ "$(field $LNS1 sessions)" = 0 ] && [ "$(field $LNS2 sessions)" = 0 ] ||
	die "the kernel still counts sessions after logout"
hub "$cli" summary || die "summary failed"

say "Stop the agent and the peers, delete the namespaces, unload the module"
defer_run
"$cli" info >/dev/null 2>&1 && die "the module is still loaded"
echo "done: $(grep -c "^$L2TPSEL_MOD " /proc/modules) l2tpsel module(s) loaded, $(ip netns list | wc -l) namespace(s) left"

printf '\n== demo: every step worked (%d s in the VM)\n' $((SECONDS - t_start))
exit 0
