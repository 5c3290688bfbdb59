#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A hostile peer against an l2tpseld LNS while real logins run
# (S-L2TP-3), on the host's loopback, control plane only (kernel
# none): l2tpseld_hostile.py sends truncated, oversized, malformed,
# reordered, duplicated, wrong-Nr and wrong-Tunnel-ID datagrams and checks
# the answers RFC 2661 gives for each; meanwhile an l2tpseld LAC makes 30
# logins to the same LNS, one after another, and every one must succeed;
# at the end the LNS's counters show the dropped datagrams.  The peer is
# plain Python (struct, socket): every datagram is built by hand anyway.
# Part of `make unit`; about 10 seconds.
#
# Usage: selftests/unit/l2tpseld_hostile.sh BUILD_DIR
set -u
B=${1:-build}
D=$(cd "$B" && pwd)
L2D=$D/l2tpseld
CLI=$D/l2tpsel
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d /tmp/l2tpseld-hostile.XXXXXX)
P=$((20000 + RANDOM % 20000))		# LNS port
PL=$((P + 1))				# LAC port
LOGINS=30
pids=()

cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

# shellcheck source=ktap.sh
source "$HERE/ktap.sh"

has() {	# has FILE REGEX
	grep -Eq -- "$2" "$1"
}

echo "KTAP version 1"
echo "1..14"

common=(-o 'kernel none' -o 'log-level 1')
"$L2D" "${common[@]}" -o "listen 127.0.0.8 port $P" -o "socket $T/lns.sock" -o 'hostname lns-h' \
	2>"$T/lns.log" &
pids+=($!)
"$L2D" "${common[@]}" -o "port $PL" -o "socket $T/lac.sock" -o "route p t1 127.0.0.8 port $P" \
	2>"$T/lac.log" &
pids+=($!)
for i in $(seq 50); do [ -S "$T/lac.sock" ] && [ -S "$T/lns.sock" ] && break; sleep 0.1; done

# the real logins, one after another, while the hostile peer runs
(
	for i in $(seq "$LOGINS"); do
		"$CLI" login start "u$i@x" profile p socket "$T/lac.sock" >>"$T/logins" 2>&1
	done
) &
logins=$!

# the peer's checks are KTAP lines of its own: taken into ours
python3 "$HERE/l2tpseld_hostile.py" 127.0.0.8 "$P" 127.0.0.9 >"$T/peer" 2>&1
checks=0
while IFS= read -r line; do
	if [[ $line =~ ^(not )?ok\ [0-9]+\ (.*)$ ]]; then
		ok "${BASH_REMATCH[2]}" $([ -z "${BASH_REMATCH[1]}" ]; echo $?)
		checks=$((checks + 1))
	fi
done <"$T/peer"
[ "$checks" -eq 10 ] || { echo "# the peer's output:"; sed 's/^/# /' "$T/peer"; }

wait "$logins"
ok "all $LOGINS real logins succeeded meanwhile" \
	$([ "$(grep -c '^done ok' "$T/logins")" -eq "$LOGINS" ]; echo $?)
"$CLI" login stats socket "$T/lns.sock" >"$T/stats" 2>&1
sed 's/^/# LNS: /' "$T/stats"
discard=$(sed -n 's/.* rx-discard \([0-9]*\) .*/\1/p' "$T/stats")
notun=$(sed -n 's/.* rx-no-tunnel \([0-9]*\) .*/\1/p' "$T/stats")
ok "the LNS counted the malformed datagrams (rx-discard ${discard:-?})" $([ "${discard:-0}" -ge 40 ]; echo $?)
# (the loopback's receive buffer may drop some of the 65535 before the LNS reads them)
ok "the LNS counted the wrong-Tunnel-ID datagrams (rx-no-tunnel ${notun:-?})" \
	$([ "${notun:-0}" -ge 10000 ]; echo $?)
kill -0 "${pids[0]}" 2>/dev/null
ok "the LNS is still running" $?

echo "# l2tpseld hostile: $((n - fail)) passed, $fail failed"
[ $fail -eq 0 ]
