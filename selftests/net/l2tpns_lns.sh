#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only real peers: Debian's kernel only (L2TPSEL_PEERS_ON_DEBUG=1 runs it on the debug kernel)
#
# l2tpseld as LAC against l2tpns, an L2TP implementation written by others
# (Debian's package, S-L2TP-1), control plane only
# (kernel none, dataplane none) in the test's namespace: l2tpns needs an
# interface named eth0 (a dummy one) and becomes cluster master after
# about 15 s before it takes tunnels.
#
# - a login (SCCRQ/SCCRP/SCCCN, ICRQ/ICRP/ICCN) and a second one reusing
#   the tunnel; a logout (CDN) and the tunnel's StopCCN when its last call
#   goes, both taken by l2tpns;
# - the same with tunnel authentication (l2tp_secret) and hidden AVPs
#   (l2tpns wants at least 8 value octets in a hidden AVP: the agent pads).
# l2tpns as LAC needs RADIUS tunnel attributes to forward a session; not
# tested here.
source "$(dirname "$0")/../lib.sh"

L2D=${L2TPSELD:-$TOP/build/l2tpseld}
L=$L2TPSEL_CLI

require_root
require_cmd l2tpns
[ -z "$L2TPSEL_DEBUG_KERNEL" ] || [ "${L2TPSEL_PEERS_ON_DEBUG:-}" = 1 ] ||
	skip "Debian's kernel only (L2TPSEL_PEERS_ON_DEBUG=1 runs it on the debug kernel)"
[ -x "$L2D" ] || skip "no $L2D (run make)"
[ -c /dev/net/tun ] || modprobe tun 2>/dev/null
[ -c /dev/net/tun ] || skip "no /dev/net/tun for l2tpns"

make_tmpdir T || fail "no temporary directory"
ip link set lo up
ip link add eth0 type dummy || fail "no dummy eth0"
ip link set eth0 up
ip addr add 10.250.0.1/24 dev eth0

l2tpns_start() {	# l2tpns_start NAME ADDRESS
	cat >"$T/$1.conf" <<-CONF
	set debug 3
	set log_file "$T/$1.log"
	set pid_file "$T/$1.pid"
	set bind_address $2
	set l2tp_secret "sesame"
	set primary_radius 127.0.0.250
	set radius_secret "unused"
	set cli_bind_address 127.0.0.1
	set bind_portremotelac 1702
	CONF
	# a session of its own: at its end l2tpns signals its whole process group
	setsid /usr/sbin/l2tpns -c "$T/$1.conf" >"$T/$1.out" 2>&1 &
	defer kill $!
}

show_logs() {
	echo "--- l2tpns"; tail -30 "$T/a.log" 2>/dev/null
	echo "--- lac"; tail -30 "$T/lac.log"
}

l2tpns_start a 127.0.0.9
t0=$SECONDS
wait_for 40 grep -qsi 'master' "$T/a.log"
check_err $? "l2tpns did not become master: $(tail -5 "$T/a.log" "$T/a.out" 2>&1)"
log_info "l2tpns up (master) after $((SECONDS - t0)) s"

lac() {	# lac NAME EXTRA-LINES...: an l2tpseld LAC with API socket $T/NAME.sock
	local name=$1 args=(-o 'kernel none' -o 'dataplane none' -o 'log-level 2'
			    -o "socket $T/$1.sock" -o 'hostname lac-t')
	shift
	local l
	for l in "$@"; do args+=(-o "$l"); done
	"$L2D" -c <(echo 'secret t2 sesame') "${args[@]}" 2>>"$T/lac.log" &
	defer kill $!
	wait_for 5 test -S "$T/$name.sock"
}

# 1. plain: two logins (the second reuses the tunnel), logouts
lac plain 'route p t1 127.0.0.9' 'port 1711'
check_err $? "the LAC did not start"
"$L" login start a@x profile p socket "$T/plain.sock" >"$T/o1" 2>&1
expect $? 0 "login 1 exit"
grep -q '^done ok session 1 tunnel t1' "$T/o1"
check_err $? "login 1 through l2tpns: $(cat "$T/o1")"
"$L" login start b@x profile p socket "$T/plain.sock" >"$T/o2" 2>&1
grep -q '^attempt 1 .* reuse$' "$T/o2" && grep -q '^done ok' "$T/o2"
check_err $? "login 2 did not reuse the tunnel: $(cat "$T/o2")"
log_test "l2tpns LNS: two calls on one tunnel"
"$L" login stop 1 socket "$T/plain.sock" >/dev/null && "$L" login stop 2 socket "$T/plain.sock" >/dev/null
check_err $? "logouts"
wait_for 10 grep -q 'StopCCN received\|tunnel .* closed\|-> closed' "$T/lac.log"
"$L" login show socket "$T/plain.sock" >"$T/show" 2>&1
grep -q 'state established' "$T/show"
check_fail $? "a session or tunnel stayed established after the logouts: $(cat "$T/show")"
wait_for 5 grep -q 'Received StopCCN' "$T/a.log"
check_err $? "l2tpns did not log the StopCCN"
expect "$(grep -c 'Received CDN' "$T/a.log")" 2 "CDNs l2tpns received"
log_test "l2tpns LNS: logouts (CDN), the empty tunnel closes (StopCCN)"

# 2. tunnel authentication and hidden AVPs
lac auth 'route q t2 127.0.0.9' 'port 1712' 'hide-avps yes'
check_err $? "the second LAC did not start"
"$L" login start c@x profile q socket "$T/auth.sock" >"$T/o3" 2>&1
expect $? 0 "login 3 exit"
grep -q '^done ok' "$T/o3"
check_err $? "login with tunnel authentication and hidden AVPs: $(cat "$T/o3")"
log_test "l2tpns LNS: tunnel authentication with hidden AVPs (padded to 16 octets)"

[ "$EXIT_STATUS" = 0 ] || show_logs
exit $EXIT_STATUS
