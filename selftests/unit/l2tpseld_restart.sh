#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A crash without loss (S-OPS-2, "fd-store yes", Documentation/l2tpseld.md):
# the real binary as LAC, control plane only (kernel none), under
# selftests/fdstore_sup.py, which keeps a file descriptor store as systemd
# does (sd_notify(3) FDSTORE=1/FDNAME=/FDSTOREREMOVE=1, restart with
# LISTEN_FDS/LISTEN_FDNAMES).  An l2tpseld LNS on 127.0.0.21.
#
#   - two logins, one tunnel; kill -9 of the LAC: restarted by the
#     supervisor, it adopts the tunnel and both calls from the store;
#   - the LNS saw nothing: both calls and the tunnel still up there;
#   - a logout on the restarted LAC: its CDN reaches the LNS in sequence
#     (the LNS clears the call), a new login reuses the adopted tunnel;
#   - without fd-store the same kill -9 restarts the LAC with nothing.
set -u
B=${1:-build}
D=$(cd "$B" && pwd)
L2D=$D/l2tpseld
CLI=$D/l2tpsel
T=$(mktemp -d /tmp/l2tpseld-restart.XXXXXX)
P=$((20000 + RANDOM % 20000))
pids=()
TOPDIR=$(cd "$(dirname "$0")/../.." && pwd)

cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	if [ -n "${L2TPSEL_KEEP:-}" ] && [ "${fail:-0}" -ne 0 ]; then
		mkdir -p "$L2TPSEL_KEEP" && cp -r "$T"/. "$L2TPSEL_KEEP"/
	fi
	rm -rf "$T"
}
trap cleanup EXIT

source "$(dirname "${BASH_SOURCE[0]}")/ktap.sh"

has() { grep -Eq -- "$2" "$1"; }
wait_has() {
	local i
	for i in $(seq 50); do has "$1" "$2" && return 0; sleep 0.1; done
	return 1
}
lns_sessions() { "$CLI" login show socket "$T/lns.sock" 2>/dev/null | grep -c '^session .* state established'; }
lns_tunnels() { "$CLI" login show socket "$T/lns.sock" 2>/dev/null | grep -c '^tunnel .* state established'; }

echo "KTAP version 1"
echo "1..7"

"$L2D" -o 'kernel none' -o 'log-level 2' -o "listen 127.0.0.21 port $P" -o 'hostname lns' \
	-o "socket $T/lns.sock" 2>"$T/lns.log" &
pids+=($!)
# the supervisor restarts the LAC as systemd's Restart=on-failure would
lac() {
	python3 "$TOPDIR/selftests/fdstore_sup.py" "$T/lac.pid" "$L2D" -o 'kernel none' \
		-o 'log-level 2' -o "route p t 127.0.0.21 port $P" -o 'hostname lac' \
		-o "socket $T/lac.sock" "$@" 2>>"$T/lac.log" &
	pids+=($!)
	SUP=$!
	wait_has "$T/lac.log" '^l2tpseld: started'
}
lac -o 'fd-store yes'
"$CLI" login start alice@x profile p socket "$T/lac.sock" >"$T/o1" 2>&1
"$CLI" login start bob@x profile p socket "$T/lac.sock" >"$T/o2" 2>&1
ok "two logins, one tunnel" $(has "$T/o1" '^done ok session 1' && has "$T/o2" '^done ok session 2 .*' &&
	has "$T/o2" '^attempt 1 .* reuse$'; echo $?)
pid=$(cat "$T/lac.pid")
sleep 0.3
kill -9 "$pid"
for i in $(seq 50); do [ "$(cat "$T/lac.pid")" != "$pid" ] && break; sleep 0.1; done
wait_has "$T/lac.log" 'snapshot version 1 adopted: 1 tunnels, 2 sessions'
ok "kill -9: the restarted LAC adopts the tunnel and both calls" $?
[ "$(lns_sessions)" = 2 ] && [ "$(lns_tunnels)" = 1 ]
ok "the LNS keeps both calls and the tunnel" $?
"$CLI" login stop 1 socket "$T/lac.sock" >"$T/o3" 2>&1
wait_has "$T/lns.log" 'established -> closed \(cdn'
ok "a logout on the restarted LAC: the LNS takes its CDN" $([ "$(lns_sessions)" = 1 ]; echo $?)
"$CLI" login start carol@x profile p socket "$T/lac.sock" >"$T/o4" 2>&1
ok "a new login reuses the adopted tunnel" $(has "$T/o4" '^attempt 1 .* reuse$' && has "$T/o4" '^done ok'; echo $?)
! has "$T/lns.log" 'out of order|out-of-window|bad nr|StopCCN received'
ok "the LNS saw no sequence error and no StopCCN" $?
kill "$SUP"
wait "$SUP" 2>/dev/null

# without fd-store: the restart has nothing
: >"$T/lac.log"
lac
"$CLI" login start dave@x profile p socket "$T/lac.sock" >"$T/o5" 2>&1
pid=$(cat "$T/lac.pid")
kill -9 "$pid"
for i in $(seq 50); do [ "$(cat "$T/lac.pid")" != "$pid" ] && break; sleep 0.1; done
wait_has "$T/lac.log" 'started.*' && sleep 0.3
! has "$T/lac.log" 'adopted' && [ "$(grep -c '^l2tpseld: started' "$T/lac.log")" = 2 ]
ok "without fd-store a restart adopts nothing" $?
kill "$SUP"
exit "$([ "$fail" -eq 0 ] && echo 0 || echo 1)"
