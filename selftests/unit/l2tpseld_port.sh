#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Nobody else may share l2tpseld's UDP port (S-SEC-5): an LNS
# listens on 127.0.0.7, then another user tries to bind the same address
# and port with SO_REUSEADDR and with SO_REUSEPORT; both must fail with
# EADDRINUSE, while the agent's own tunnel sockets share the port (the
# loopback test's logins).  Runs as root on the host (control plane only,
# kernel none); the port is above 1024 so that the privileged-port check
# does not hide the answer.  Part of `make unit`; about a second.
#
# Usage: selftests/unit/l2tpseld_port.sh BUILD_DIR
set -u
B=${1:-build}
L2D=$(cd "$B" && pwd)/l2tpseld
T=$(mktemp -d /tmp/l2tpseld-port.XXXXXX)
P=$((20000 + RANDOM % 20000))
PY=/usr/bin/python3
pid=

cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

# shellcheck source=ktap.sh
source "$(dirname "${BASH_SOURCE[0]}")/ktap.sh"

# bind_as USER OPTION: prints the errno name of bind(127.0.0.7:P), or "bound"
bind_as() {
	setpriv --reuid="$1" --regid="$1" --clear-groups "$PY" -c '
import errno, socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, getattr(socket, sys.argv[1]), 1)
try:
    s.bind(("127.0.0.7", int(sys.argv[2])))
    print("bound")
except OSError as e:
    print(errno.errorcode.get(e.errno, e.errno))
' "$2" "$P"
}

echo "KTAP version 1"
echo "1..3"
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
echo "# port: $((n - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
