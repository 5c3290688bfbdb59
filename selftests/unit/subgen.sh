#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The PPPoE subscriber load generator against its trivial responder
# (bench/subgen/, Documentation/performance.md): two network namespaces
# joined by a veth pair, l2tpsel-subresp in one, l2tpsel-subgen in the
# other.  200 subscribers with PAP and pings, 100 with CHAP (and 20 with
# the wrong secret: refused), 100 through a responder that drops 5% of what
# it receives (every one still comes up, the retransmissions are counted),
# and 20 with nobody answering (all fail in discovery).  Needs root and
# network namespaces: without them the whole script is one KTAP skip (exit
# 4, which `make subgen-test` takes for a pass).  Part of `make unit`;
# about 10 s.
#
# Usage: selftests/unit/subgen.sh BUILD_DIR
set -u
B=$(cd "${1:-build}" && pwd)
GEN=$B/l2tpsel-subgen
RESP=$B/l2tpsel-subresp
NG=sgt-gen-$$
NR=sgt-resp-$$
T=$(mktemp -d /tmp/subgen-test.XXXXXX)
rpid=

cleanup() {
	[ -n "$rpid" ] && kill "$rpid" 2>/dev/null
	wait 2>/dev/null
	ip netns del "$NG" 2>/dev/null
	ip netns del "$NR" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

# shellcheck source=ktap.sh
source "$(dirname "${BASH_SOURCE[0]}")/ktap.sh"

echo "KTAP version 1"
skip_all() {
	echo "1..0 # SKIP $1"
	exit 4
}
[ "$(id -u)" = 0 ] || skip_all "needs root (network namespaces, raw sockets)"
command -v ip >/dev/null || skip_all "no ip(8)"
command -v python3 >/dev/null || skip_all "no python3 to read the JSON"
ip netns add "$NG" 2>/dev/null || skip_all "cannot create a network namespace"
ip netns add "$NR" 2>/dev/null || skip_all "cannot create a second network namespace"
ip link add sgt0 netns "$NG" type veth peer name sgt1 netns "$NR" 2>/dev/null ||
	skip_all "cannot create a veth pair"
if ! ip -n "$NG" link set sgt0 up || ! ip -n "$NR" link set sgt1 up; then
	skip_all "cannot bring the veth pair up"
fi

echo "1..17"

# json FILE EXPR: EXPR in Python over the object j; exit 0 when true
json() {
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
sys.exit(0 if eval("(" + sys.argv[2] + ")") else 1)' "$1" "$2" 2>/dev/null
}

# say FILE: the JSON as "# " lines, for a failure's log
say() {
	sed 's/^/# /' "$1"
}

resp_start() {	# resp_start ARGS...: the responder in its namespace, ready
	ip netns exec "$NR" "$RESP" -i sgt1 -j "$@" >"$T/resp.json" 2>"$T/resp.err" &
	rpid=$!
	for _ in $(seq 50); do
		grep -q answering "$T/resp.err" && return 0
		sleep 0.1
	done
	return 1
}

resp_stop() {	# its counters into resp.json
	kill -INT "$rpid" 2>/dev/null
	wait "$rpid" 2>/dev/null
	rpid=
}

gen() {	# gen NAME ARGS...: the generator's JSON summary into NAME.json
	local name=$1
	shift
	ip netns exec "$NG" "$GEN" -i sgt0 -j "$@" >"$T/$name.json" 2>"$T/$name.err"
	echo $? >"$T/$name.rc"
}

# 1. PAP, a ping every 200 ms for half a second, then teardown
resp_start -a pap -p secret
ok "responder answers on the veth" $?
gen pap -n 200 -r 400 --ping 200 --hold 500 --ping-wait 300 --csv "$T/pap.csv"
resp_stop
json "$T/pap.json" 'j["up"] == 200 and j["failed"] == 0'
r=$?; [ $r = 0 ] || say "$T/pap.json"
ok "pap: 200 of 200 subscribers up, none failed" $r
[ "$(cat "$T/pap.rc")" = 0 ]
ok "pap: exit 0 when all came up" $?
json "$T/pap.json" 'j["traffic"]["sent"] > 200 and j["traffic"]["lost"] == 0'
ok "pap: pings answered, none lost" $?
json "$T/pap.json" 'j["teardown"]["acked"] == 200 and j["retransmissions"]["total"] == 0'
ok "pap: 200 torn down with an LCP Terminate-Ack, no retransmission" $?
json "$T/pap.json" 'j["setup_ms"]["p50"] > 0 and j["setup_ms"]["max"] >= j["setup_ms"]["p99"] and
	j["rate"]["up"] > 0 and j["cpu"]["us_per_subscriber"] > 0'
ok "pap: setup times, rate and CPU reported" $?
json "$T/resp.json" 'j["up"] == 200 and j["live"] == 0 and j["padt"] == 200 and
	j["icmp_echoed"] > 200'
r=$?; [ $r = 0 ] || say "$T/resp.json"
ok "pap: the responder saw 200 up, 200 PADT, none left" $r
[ "$(grep -c ',up,' "$T/pap.csv")" = 200 ] && head -n 1 "$T/pap.csv" | grep -q '^number,mac,'
ok "pap: the CSV has a line per subscriber" $?

# 2. CHAP-MD5, the responses checked against the secret
resp_start -a chap -p secret
gen chap -n 100 -r 500 -p secret
resp_stop
json "$T/chap.json" 'j["up"] == 100 and j["failed"] == 0'
r=$?; [ $r = 0 ] || say "$T/chap.json"
ok "chap: 100 of 100 up" $r
json "$T/resp.json" 'j["up"] == 100 and j["live"] == 0 and j["refused"] == 0'
ok "chap: the responder checked them, saw them up and gone" $?
resp_start -a chap -p other
gen wrong -n 20 -r 500 -p secret
resp_stop
json "$T/wrong.json" 'j["up"] == 0 and j["failed_by_stage"]["auth"]["refused"] == 20'
r=$?; [ $r = 0 ] || say "$T/wrong.json"
ok "chap: a wrong secret fails all 20 in auth, refused" $r
json "$T/resp.json" 'j["refused"] == 20 and j["live"] == 0'
ok "chap: the responder refused 20 and freed them at the PADT" $?

# 3. a lossy link: 5% of what the responder receives is dropped
resp_start --loss 5 --restart 200
gen loss -n 100 -r 200 --restart 200 --disc-timeout 200 --deadline 20000
resp_stop
json "$T/loss.json" 'j["up"] == 100 and j["failed"] == 0'
r=$?; [ $r = 0 ] || say "$T/loss.json"
ok "loss: 100 of 100 up through 5% loss" $r
json "$T/loss.json" 'j["retransmissions"]["total"] > 0 and
	j["retransmissions"]["total"] == sum(v for k, v in j["retransmissions"].items() if k != "total")'
r=$?; [ $r = 0 ] || say "$T/loss.json"
ok "loss: retransmissions counted by kind" $r

# 4. nobody answers: every subscriber fails in discovery
gen none -n 20 -r 200 --disc-timeout 50 --disc-retries 2 --deadline 2000
json "$T/none.json" 'j["up"] == 0 and j["failed"] == 20 and
	j["failed_by_stage"]["discovery"]["retries"] == 20 and j["retransmissions"]["padi"] == 40'
r=$?; [ $r = 0 ] || say "$T/none.json"
ok "none: 20 failed in discovery after 2 PADI resends each" $r
[ "$(cat "$T/none.rc")" = 3 ]
ok "none: exit 3 when some did not come up" $?

# 5. options
"$GEN" -n 0 -i sgt0 >/dev/null 2>"$T/opt.err"
[ $? = 2 ] && grep -q -- "--count" "$T/opt.err"
ok "a count of 0 is refused with the option named" $?

echo "# subgen: $((n - fail)) passed, $fail failed"
[ "$fail" = 0 ]
