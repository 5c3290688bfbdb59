#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Nobody else may share l2tpseld's UDP ports (S-SEC-5, S-SEC-9): an LNS
# listens on 127.0.0.7, then another user tries to bind the same address
# and port with SO_REUSEADDR and with SO_REUSEPORT; both must fail with
# EADDRINUSE, while the agent's own tunnel sockets share the port (the
# loopback test's logins).  A LAC's tunnels leave from a port the kernel
# picks, so another user holding the LAC's configured port first does not
# stop its logins, and cannot bind the port they use; a listen port held
# by another user is a startup error.  Runs as root on the host (control
# plane only, kernel none); the ports are above 1024 so that the
# privileged-port check does not hide the answer.  Part of `make unit`; a
# few seconds.
#
# Usage: selftests/unit/l2tpseld_port.sh BUILD_DIR
set -u
B=${1:-build}
L2D=$(cd "$B" && pwd)/l2tpseld
CLI=$(cd "$B" && pwd)/l2tpsel
T=$(mktemp -d /tmp/l2tpseld-port.XXXXXX)
P=$((20000 + RANDOM % 20000))
PY=/usr/bin/python3
pid=
pids=()

cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

# shellcheck source=ktap.sh
source "$(dirname "${BASH_SOURCE[0]}")/ktap.sh"

# bind_as USER OPTION [ADDR PORT]: the errno name of bind(127.0.0.7:P), or "bound"
bind_as() {
	setpriv --reuid="$1" --regid="$1" --clear-groups "$PY" -c '
import errno, socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, getattr(socket, sys.argv[1]), 1)
try:
    s.bind((sys.argv[3], int(sys.argv[2])))
    print("bound")
except OSError as e:
    print(errno.errorcode.get(e.errno, e.errno))
' "$2" "${4:-$P}" "${3:-127.0.0.7}"
}

# hold_as USER ADDR PORT: another user's socket holds ADDR:PORT (SO_REUSEADDR
# too) until the test ends; prints "bound" once it does
hold_as() {
	setpriv --reuid="$1" --regid="$1" --clear-groups "$PY" -c '
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[1], int(sys.argv[2])))
print("bound", flush=True)
time.sleep(60)
' "$2" "$3" >"$T/hold.$3" 2>&1 &
	pids+=($!)
	for i in $(seq 50); do grep -q bound "$T/hold.$3" && return 0; sleep 0.05; done
	return 1
}

echo "KTAP version 1"
echo "1..6"
"$L2D" -o 'kernel none' -o "listen 127.0.0.7 port $P" -o 'socket none' \
	-o 'hostname lns' 2>"$T/lns.log" &
pid=$!
for i in $(seq 50); do
	[ "$(bind_as 0 SO_RCVBUF)" = EADDRINUSE ] && break
	sleep 0.1
done
ok "the LNS listens on 127.0.0.7:$P" $([ "$(bind_as 0 SO_RCVBUF)" = EADDRINUSE ]; echo $?)
r=$(bind_as 65534 SO_REUSEADDR)
ok "another user's bind with SO_REUSEADDR is refused ($r)" $([ "$r" = EADDRINUSE ]; echo $?)
r=$(bind_as 65534 SO_REUSEPORT)
ok "another user's bind with SO_REUSEPORT is refused ($r)" $([ "$r" = EADDRINUSE ]; echo $?)

# A LAC whose configured port (here PL, as "port" set it for every tunnel
# before) another user holds on 127.0.0.1 first: its logins still work.
PL=$((P + 1))
SOCK=$T/lac.sock
hold_as 65534 127.0.0.1 "$PL" || echo "# could not hold 127.0.0.1:$PL"
"$L2D" -o 'kernel none' -o "port $PL" -o "socket $SOCK" -o 'sccrq-timeout 2s' \
	-o "route p t 127.0.0.7 port $P" 2>"$T/lac.log" &
pids+=($!)
for i in $(seq 50); do [ -S "$SOCK" ] && break; sleep 0.05; done
"$CLI" login start a@x profile p socket "$SOCK" >"$T/o1" 2>&1
ok "a LAC login works while another user holds 127.0.0.1:$PL" \
	$(grep -q '^done ok' "$T/o1"; echo $?)
[ "$fail" -eq 0 ] || { cat "$T/o1" "$T/lac.log" | sed 's/^/# /'; }
# the port the LAC's tunnel uses (the LNS's log), and another user's binds there
lp=$(sed -n 's/.* to 127\.0\.0\.1:\([0-9]*\) (.*established as LNS.*/\1/p' "$T/lns.log" | head -n 1)
r1=$(bind_as 65534 SO_REUSEADDR 127.0.0.1 "${lp:-0}")
r2=$(bind_as 65534 SO_REUSEPORT 0.0.0.0 "${lp:-0}")
ok "another user cannot bind the LAC tunnel's port ${lp:-?} ($r1, $r2)" \
	$([ -n "$lp" ] && [ "$lp" != "$PL" ] && [ "$r1" = EADDRINUSE ] && [ "$r2" = EADDRINUSE ]; echo $?)

# A listen port another user holds (the wildcard) is a clear startup error.
P3=$((P + 2))
hold_as 65534 0.0.0.0 "$P3" || echo "# could not hold 0.0.0.0:$P3"
timeout 5 "$L2D" -o 'kernel none' -o "listen 127.0.0.7 port $P3" -o 'socket none' 2>"$T/l3.log"
rc=$?
ok "a listen port held by another user stops the start (exit $rc)" \
	$([ "$rc" -eq 1 ] && grep -q "listen 127.0.0.7:$P3: Address already in use: another socket holds this port" "$T/l3.log"; echo $?)
[ "$rc" -eq 1 ] || cat "$T/l3.log" | sed 's/^/# /'

echo "# port: $((n - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
