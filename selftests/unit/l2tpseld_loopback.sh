#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# l2tpseld LAC against l2tpseld LNS instances on the host's loopback, control
# plane only (kernel none, dataplane none): real sockets, real timers, the
# CLI's "login start/stop/show" through the LAC's UNIX socket
# (S-L2TP-1, S-L2TP-2).  Four LNS: normal (127.0.0.2, with tunnel
# authentication and hidden AVPs), silent (.3), silent-after-ZLB (.4),
# always-CDN (.5), and one with an admission limit of 1 (.6); relays in
# front of .2 that move ports and reorder; the LAC's metrics endpoint
# (S-OPS-3).  Part of `make unit`; about 7
# seconds.
#
# Usage: selftests/unit/l2tpseld_loopback.sh BUILD_DIR
# With L2TPSEL_KEEP=DIR, a run with a failed check copies its logs to DIR.
set -u
B=${1:-build}
D=$(cd "$B" && pwd)
L2D=$D/l2tpseld
CLI=$D/l2tpsel
T=$(mktemp -d /tmp/l2tpseld-loopback.XXXXXX)
P=$((20000 + RANDOM % 20000))		# LNS port
PL=$((P + 1))				# LAC port
SOCK=$T/lac.sock
pids=()

cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	# L2TPSEL_KEEP=DIR keeps the logs of a run with a failure there
	if [ -n "${L2TPSEL_KEEP:-}" ] && [ "${fail:-0}" -ne 0 ]; then
		mkdir -p "$L2TPSEL_KEEP" && cp -r "$T"/. "$L2TPSEL_KEEP"/
	fi
	rm -rf "$T"
}
trap cleanup EXIT

# shellcheck source=ktap.sh
source "$(dirname "${BASH_SOURCE[0]}")/ktap.sh"

has() {	# has FILE REGEX
	grep -Eq -- "$2" "$1"
}

wait_has() {	# wait_has FILE REGEX: up to 5 s (the machine may be loaded)
	local i
	for i in $(seq 50); do
		has "$1" "$2" && return 0
		sleep 0.1
	done
	return 1
}

common=(-o 'kernel none' -o 'log-level 2' -o 'test-mode yes')

echo "KTAP version 1"
echo "1..45"

TOPDIR=$(cd "$(dirname "$0")/../.." && pwd)
install -m 0600 "$TOPDIR/contrib/l2tpseld.conf.example" "$T/example.conf"	# as installed
"$L2D" -t -c "$T/example.conf" 2>"$T/err"
ok "config: contrib/l2tpseld.conf.example is valid" $?

# configuration errors are refused with the keyword named, before any socket
"$L2D" -o 'kernel none' -o 'rto-max 1s' -t 2>"$T/err" >/dev/null
ok "config: rto-max below 8 s refused" $([ $? -eq 1 ] && has "$T/err" 'rto-max: .*at least 8000 ms'; echo $?)
"$L2D" -o 'route p t 10.0.0.1' -t 2>"$T/err" >/dev/null
ok "config: route lines need kernel none" $([ $? -eq 1 ] && has "$T/err" 'kernel none'; echo $?)
"$CLI" login start a@x socket "$T/nobody.sock" >/dev/null 2>"$T/err"
ok "cli: no agent is an error (exit 1)" $([ $? -eq 1 ] && has "$T/err" 'cannot reach l2tpseld'; echo $?)

# secrets come through a pipe (-c <(...)): never on a command line
secret_file() { printf '%s\n' "$@"; }
lns_ok_secret=$(secret_file 'lns-secret * sesame')
lns() {	# lns IP NAME EXTRA-LINES...
	local ip=$1 name=$2
	shift 2
	local args=("${common[@]}" -o "listen $ip port $P" -o 'socket none' -o "hostname $name")
	local l
	for l in "$@"; do args+=(-o "$l"); done
	if [ "$name" = lns-ok ]; then
		"$L2D" -c <(echo "$lns_ok_secret") "${args[@]}" 2>"$T/$name.log" &
	else
		"$L2D" "${args[@]}" 2>"$T/$name.log" &
	fi
	pids+=($!)
}
lns 127.0.0.2 lns-ok 'hide-avps yes'
lns 127.0.0.3 lns-silent 'lns-mode silent'
lns 127.0.0.4 lns-zlb 'lns-mode silent-after-zlb'
lns 127.0.0.5 lns-cdn 'lns-mode cdn 2 6'
lns 127.0.0.6 lns-full 'test-chassis-limit 1'
PM=$((P + 7))				# LAC's metrics (S-OPS-3)
lac=("${common[@]}" -o "port $PL" -o "socket $SOCK" -o 'sccrq-timeout 1s' -o 'icrq-timeout 1s'
     -o "metrics 127.0.0.1 port $PM"
     -o 'hide-avps yes'
     -o "route ok t-ok 127.0.0.2 port $P"
     -o "route fo t-silent 127.0.0.3 port $P" -o "route fo t-zlb 127.0.0.4 port $P"
     -o "route fo t-ok 127.0.0.2 port $P"
     -o "route cdn t-cdn 127.0.0.5 port $P" -o "route cdn t-ok 127.0.0.2 port $P"
     -o "route full t-full 127.0.0.6 port $P"
     -o "route dead t-silent 127.0.0.3 port $P"
     -o "route moved t-ok 127.0.0.7 port $P"
     -o "route nat t-ok 127.0.0.9 port $P"
     -o "route reorder t-ok 127.0.0.11 port $P")
"$L2D" -c <(secret_file 'secret t-ok sesame') "${lac[@]}" 2>"$T/lac.log" &
pids+=($!)
for i in $(seq 50); do [ -S "$SOCK" ] && break; sleep 0.05; done
for l in lns-ok lns-silent lns-zlb lns-cdn lns-full; do
	wait_has "$T/$l.log" '^l2tpseld: started' || echo "# $l did not start: $(cat "$T/$l.log")"
done

# 1. a login through an authenticated tunnel with hidden AVPs
"$CLI" login start alice@x profile ok socket "$SOCK" >"$T/o1" 2>&1
rc=$?
ok "login ok (exit 0, done ok)" $([ $rc -eq 0 ] && has "$T/o1" '^done ok session 1 tunnel t-ok profile ok'; echo $?)
ok "login ok: attempt line names tunnel and destination" \
	$(has "$T/o1" "^attempt 1 tunnel t-ok profile ok remote 127.0.0.2 port $P local any level 0 sccrq"; echo $?)

# 2. a second login reuses the tunnel
"$CLI" login start bob@x profile ok socket "$SOCK" >"$T/o2" 2>&1
ok "second login reuses the established tunnel" $(has "$T/o2" '^attempt 1 .* reuse$' && has "$T/o2" '^done ok'; echo $?)
"$CLI" login show socket "$SOCK" >"$T/show" 2>&1
ok "show: one LAC tunnel with two established sessions" \
	$([ "$(grep -c '^session .* state established' "$T/show")" -eq 2 ] &&
	  [ "$(grep -c '^tunnel ' "$T/show")" -eq 1 ] && has "$T/show" 'state established sessions 2 host lns-ok'; echo $?)
ok "show: the tunnel's reliable-delivery figures" \
	$(has "$T/show" 'host lns-ok retransmits [0-9]+ out-of-order [0-9]+ stashed [0-9]+ send-window [1-9][0-9]*$'; echo $?)

# every login's lines as JSON, from a connection that watches (the demo's way)
"$CLI" -j login watch socket "$SOCK" >"$T/watch" 2>&1 &
pids+=($!)
wait_has "$T/watch" '"event":"watching"'
# 3. failover: silent (SCCRQ setup timeout), silent after ZLB (ICRQ setup timeout), then ok
start=$(date +%s%N)
"$CLI" login start carol@x profile fo socket "$SOCK" >"$T/o3" 2>&1
rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
ok "failover: attempt 1 silent LNS is no-reply" $(has "$T/o3" '^outcome 1 no-reply'; echo $?)
ok "failover: attempt 2 ZLB-only LNS is no-reply (ICRQ setup timeout)" $(has "$T/o3" '^attempt 2 tunnel t-zlb' && has "$T/o3" '^outcome 2 no-reply'; echo $?)
ok "failover: attempt 3 succeeds (exit 0)" $([ $rc -eq 0 ] && has "$T/o3" '^done ok session 3 tunnel t-ok .* attempts 3'; echo $?)
echo "# failover login took $ms ms (two 1 s setup timeouts)"
walk=$(jq -rs '(map(select(.event == "login" and .user == "carol@x")) | last | .login) as $id
	| map(select(.login == $id)) as $l | $l[] | select(.event == "attempt") | . as $a
	| ($l | map(select(.event == "outcome" and .outcome == $a.attempt)) | first) as $o
	| "\($a.level) \($a.tunnel) \($a.kind) \($o.result)"' "$T/watch" 2>&1 | tr '\n' ';')
ok "watch -j: the failover login's attempts and outcomes as JSON" \
	$([ "$walk" = "0 t-silent sccrq no-reply;1 t-zlb sccrq no-reply;2 t-ok reuse ok;" ] &&
	  jq -es 'map(select(.event == "done" and .result == "ok" and .attempts == 3)) | length == 1' \
		"$T/watch" >/dev/null; echo $?)
[ "$walk" = "0 t-silent sccrq no-reply;1 t-zlb sccrq no-reply;2 t-ok reuse ok;" ] || echo "# watch: $walk"
ok "failover: took the two setup timeouts, not the 31 s retransmission cycle" $([ $ms -ge 1900 ] && [ $ms -lt 8000 ]; echo $?)
# What the ZLB-only LNS must do: one ICRQ delivered, the first thing sent
# after it a ZLB acknowledging it, no message (ICRP) ever after it.  On a
# loaded machine the LAC may resend the ICRQ before the ZLB reaches it: a
# duplicate of the same Ns is fine (acknowledged again).
zlb_only() {	# zlb_only LOG
	awk '
	/ rx ICRQ ns [0-9]+ .*: deliver$/ { n++; ns = $7; after = 1; next }
	/ rx ICRQ / { if (!after || $7 != ns || $NF != "duplicate") bad = 1; next }
	after && / tx message / { bad = 1 }
	after && !acked && / tx / { if ($5 != "ZLB" || $NF != (ns + 1) % 65536) bad = 1; acked = 1 }
	/^l2tpseld: tunnel .* established as LNS$/ { up = 1 }
	/^l2tpseld: session .* established/ { bad = 1 }
	END { exit !(up && n == 1 && acked && !bad) }' "$1"
}
for i in $(seq 50); do zlb_only "$T/lns-zlb.log" && break; sleep 0.1; done
# On a loaded machine the LNS's SCCRP may also reach the LAC after its 1 s
# setup timeout: the attempt ends before any ICRQ, nothing to check here.
if ! has "$T/lns-zlb.log" 'rx ICRQ' && has "$T/lns-zlb.log" 'rx SCCRQ ns 0 nr 0: deliver' &&
   has "$T/lns-zlb.log" 'tx message ns 0 nr 1$' &&
   has "$T/lac.log" "to 127.0.0.4:$P: StopCCN result 2 error 0: setup timeout"; then
	n=$((n + 1))
	echo "ok $n the ZLB-only LNS acknowledged the ICRQ and never answered it # SKIP SCCRP came after the LAC's setup timeout (machine loaded)"
else
	ok "the ZLB-only LNS acknowledged the ICRQ and never answered it" $(zlb_only "$T/lns-zlb.log"; echo $?)
fi

# 4. a CDN ends the login, no failover
"$CLI" login start dave@x profile cdn socket "$SOCK" >"$T/o4" 2>&1
rc=$?
ok "CDN ends the login (exit 2, no second attempt)" \
	$([ $rc -eq 2 ] && has "$T/o4" '^outcome 1 cdn result 2 error 6' && has "$T/o4" '^done fail reason cdn' && ! has "$T/o4" '^attempt 2'; echo $?)

# 5. LNS admission refuses the second session with CDN 4/4
"$CLI" login start e1@x profile full socket "$SOCK" >"$T/o5" 2>&1
"$CLI" login start e2@x profile full socket "$SOCK" >"$T/o6" 2>&1
ok "LNS admission: second session refused with CDN 4/4" \
	$(has "$T/o5" '^done ok' && has "$T/o6" '^outcome 1 cdn result 4 error 4'; echo $?)

# 6. the client goes away during setup: client-gone, nothing left behind
timeout 0.4 "$CLI" login start gone@x profile dead socket "$SOCK" >"$T/o7" 2>&1
ok "client gone during setup is reported" $(wait_has "$T/lac.log" 'login [0-9]+ \(gone@x\): outcome 1 client-gone'; echo $?)

# 7. errors through the API
"$CLI" login stop 999 socket "$SOCK" >/dev/null 2>"$T/err"
ok "logout of an unknown session: exit 1, message" $([ $? -eq 1 ] && has "$T/err" 'no established session 999'; echo $?)
"$CLI" login start profile nope socket "$SOCK" >"$T/o8" 2>&1
ok "a profile without destinations fails (exit 2)" $([ $? -eq 2 ] && has "$T/o8" '^done fail reason no-tunnels'; echo $?)
# brief: the result line only (a failed login to the CDN LNS: two steps left out)
"$CLI" login start dave2@x profile cdn brief socket "$SOCK" >"$T/o9" 2>&1
rc=$?
ok "brief: the done line only (exit 2, one line)" \
	$([ $rc -eq 2 ] && [ "$(wc -l < "$T/o9")" = 1 ] && has "$T/o9" '^done fail reason cdn attempts 1 '; echo $?)

# 8. logout: CDN, and the last session of a tunnel closes it with StopCCN
"$CLI" login stop 1 socket "$SOCK" >/dev/null 2>&1 && "$CLI" login stop 2 socket "$SOCK" >/dev/null 2>&1 &&
	"$CLI" login stop 3 socket "$SOCK" >/dev/null 2>&1
ok "logout of three sessions" $?
wait_has "$T/lns-ok.log" 'StopCCN received, result 1'
"$CLI" login show socket "$SOCK" >"$T/show2" 2>&1
ok "the tunnel left without sessions is closing" \
	$(has "$T/show2" 'peer 127.0.0.2.* state closing sessions 0' && ! has "$T/show2" '^session .*127.0.0.2'; echo $?)
ok "the LNS got the StopCCN" $(has "$T/lns-ok.log" 'StopCCN received, result 1'; echo $?)

# 9. the LNS goes down (SIGTERM): StopCCN 6 reaches the LAC, its session ends
kill "${pids[4]}"
ok "LNS shutdown: the LAC's session there ends on StopCCN 6" \
	$(wait_has "$T/lac.log" 'StopCCN received, result 6' && wait_has "$T/lac.log" 'established -> closed \(stopccn'; echo $?)
"$CLI" login stats socket "$SOCK" >"$T/stats" 2>&1
ok "stats: logins-ok 4 (alice, bob, carol, e1)" $(has "$T/stats" 'logins-ok 4 ' ; echo $?)
# reliable delivery over every tunnel, closed ones included: the silent
# LNS's SCCRQs were sent again (RFC 2661 section 5.8)
ok "stats: control messages sent and retransmitted, tunnels gone included" \
	$(has "$T/stats" '^control sent [1-9][0-9]* retransmits [1-9][0-9]* duplicates [0-9]'; echo $?)
# what the metrics endpoint reads too (S-OPS-3): logins by result, the setup
# time of those that succeeded, per profile, the core's destinations
ok "stats: logins by result and their setup-time histogram" \
	$(has "$T/stats" '^logins ok 4 exhausted [0-9]+ cdn [1-9][0-9]* .* no-tunnels 1 ' &&
	  has "$T/stats" '^login-setup le-5ms [0-9]+ .* le-30000ms 4 count 4 sum-us [1-9][0-9]*$'; echo $?)
ok "stats: per profile, and the silent destination with its attempts and failure" \
	$(has "$T/stats" '^profile ok logins-ok 2 logins-failed 0 sessions 0$' &&
	  has "$T/stats" "^destination 127.0.0.3 port $P local any lockout-ms [0-9]+ sessions 0 in-flight 0 tunnels [0-9]+ attempts [1-9][0-9]* failures [1-9]"; echo $?)

# 9b. the whole LAC drained over the API (S-OPS-1): a login is refused and
# says so, the answer and -j say drained; drain off, logins come back
"$CLI" login drain on socket "$SOCK" >"$T/drain1" 2>&1
ok "drain on: drain drained sessions 0 api on config no" \
	$(has "$T/drain1" '^drain drained sessions 0 api on config no$'; echo $?)
"$CLI" login start f1@x profile ok socket "$SOCK" >"$T/of1" 2>&1
rc=$?
ok "drained: a login is refused (exit 1) and says drained" \
	$([ $rc = 1 ] && has "$T/of1" 'drained: this LAC takes no new login'; echo $?)
"$CLI" -j login drain socket "$SOCK" >"$T/drain2" 2>&1
ok "drain -j: {\"event\":\"drain\",\"state\":\"drained\",...,\"api\":\"on\"}" \
	$(has "$T/drain2" '"state": ?"drained"' && has "$T/drain2" '"sessions": ?0' &&
	  has "$T/drain2" '"api": ?"on"'; echo $?)
"$CLI" login stats socket "$SOCK" >"$T/stats2" 2>&1
ok "stats: logins-drained 1, drain drained" \
	$(has "$T/stats2" 'logins-drained 1 drain drained'; echo $?)
"$CLI" login drain off socket "$SOCK" >"$T/drain3" 2>&1
"$CLI" login start f2@x profile ok socket "$SOCK" >"$T/of2" 2>&1
ok "drain off: drain off, a login succeeds again" \
	$(has "$T/drain3" '^drain off sessions' && has "$T/of2" '^done ok'; echo $?)
"$CLI" login drain maybe socket "$SOCK" >"$T/drain4" 2>&1
ok "drain maybe: refused with the usage" $([ $? != 0 ] && has "$T/drain4" 'usage'; echo $?)

# 9c. kernel none: the agent's own tunnels and destinations drained over
# the API (S-OPS-1): the login goes to the next tunnel; all drained, it
# fails as drained with no attempt; drain off, logins come back
"$CLI" login drain tunnel t-cdn socket "$SOCK" >"$T/dr1" 2>&1
"$CLI" login start g1@x profile cdn socket "$SOCK" >"$T/og1" 2>&1
ok "drain tunnel t-cdn: matched 1; the login goes to t-ok, t-cdn not attempted" \
	$(has "$T/dr1" '^drain on tunnel t-cdn matched 1$' && has "$T/og1" '^attempt 1 tunnel t-ok' &&
	  ! has "$T/og1" 't-cdn' && has "$T/og1" '^done ok'; echo $?)
"$CLI" login drain destination 127.0.0.2 on socket "$SOCK" >"$T/dr2" 2>&1
"$CLI" login start g2@x profile ok socket "$SOCK" >"$T/og2" 2>&1
rc=$?
ok "drain destination 127.0.0.2: a login to it fails as drained, nothing attempted" \
	$(has "$T/dr2" '^drain on destination 127.0.0.2 matched 1$' && [ $rc = 2 ] &&
	  has "$T/og2" '^done fail reason drained attempts 0' && ! has "$T/og2" '^attempt'; echo $?)
"$CLI" login drain destination 127.0.0.2 off socket "$SOCK" >/dev/null 2>&1
"$CLI" login drain tunnel t-cdn off socket "$SOCK" >/dev/null 2>&1
"$CLI" login start g3@x profile ok socket "$SOCK" >"$T/og3" 2>&1
ok "drains ended: a login succeeds again" $(has "$T/og3" '^done ok'; echo $?)
"$CLI" login drain tunnel nope socket "$SOCK" >"$T/dr3" 2>&1
ok "drain tunnel nope: refused, no such tunnel" \
	$([ $? = 1 ] && has "$T/dr3" 'no tunnel nope in the route lines'; echo $?)
for f in og1 og3; do
	id=$(sed -n 's/^done ok session \([0-9]*\).*/\1/p' "$T/$f")
	[ -n "$id" ] && "$CLI" login stop "$id" socket "$SOCK" >/dev/null 2>&1
done

# 10. RFC 2661 section 8.1: an LNS that answers from another port (a relay
# in front of lns-ok: what the LAC sends to 127.0.0.7 port P or P+2 goes on
# to lns-ok, what lns-ok answers comes back from port P+2)
python3 - "$P" <<'PY' 2>"$T/relay.log" &
import select, socket, sys, time
p = int(sys.argv[1])
a = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
a.bind(("127.0.0.7", p))
b = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
b.bind(("127.0.0.7", p + 2))
up = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
up.bind(("127.0.0.7", 0))
up.connect(("127.0.0.2", p))
print("ready", file=sys.stderr, flush=True)
lac, end = None, time.time() + 60
while time.time() < end:
    for s in select.select([a, b, up], [], [], 0.5)[0]:
        if s is up:
            data = up.recv(4096)
            if lac:
                b.sendto(data, lac)
        else:
            data, lac = s.recvfrom(4096)
            up.send(data)
PY
pids+=($!)
wait_has "$T/relay.log" '^ready'
"$CLI" login start frank@x profile moved socket "$SOCK" >"$T/o9" 2>&1
ok "an LNS answering from another port: the login goes on on that port (exit 0)" \
	$([ $? -eq 0 ] && has "$T/o9" '^done ok' && wait_has "$T/lac.log" "SCCRP from 127.0.0.7:$((P + 2)): the tunnel uses that port"; echo $?)

# 11. a NAT in front of the LAC moves its source port mid-tunnel (a relay:
# what the LAC sends to 127.0.0.9 port P leaves 127.0.0.10 for lns-ok from
# one port, then, once $T/nat-move exists, from another; the old mapping is
# gone).  The LNS's replies follow the port of the next message.
python3 - "$P" "$T/nat-move" <<'PY' 2>"$T/nat.log" &
import os, select, socket, sys, time
p, trigger = int(sys.argv[1]), sys.argv[2]
a = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
a.bind(("127.0.0.9", p))
def mapping():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.10", 0))
    s.connect(("127.0.0.2", p))
    print("mapping", s.getsockname()[1], file=sys.stderr, flush=True)
    return s
up, lac, moved, end = mapping(), None, False, time.time() + 60
print("ready", file=sys.stderr, flush=True)
while time.time() < end:
    if not moved and os.path.exists(trigger):
        up.close()
        up, moved = mapping(), True
    for s in select.select([a, up], [], [], 0.1)[0]:
        try:
            if s is up:
                data = up.recv(4096)
                if lac:
                    a.sendto(data, lac)
            else:
                data, lac = a.recvfrom(4096)
                up.send(data)
        except OSError:
            pass
PY
pids+=($!)
wait_has "$T/nat.log" '^ready'
"$CLI" login start g1@x profile nat socket "$SOCK" >"$T/o10" 2>&1
rc=$?
touch "$T/nat-move"
for i in $(seq 50); do [ "$(grep -c '^mapping' "$T/nat.log")" -ge 2 ] && break; sleep 0.1; done
"$CLI" login start g2@x profile nat socket "$SOCK" >"$T/o11" 2>&1
rc2=$?
ok "behind a NAT: the first login (exit 0)" $([ $rc -eq 0 ] && has "$T/o10" '^done ok'; echo $?)
newport=$(awk '/^mapping/ { p = $2 } END { print p }' "$T/nat.log")
ok "behind a NAT that moved the LAC's port: the next login on the tunnel (exit 0), the LNS follows" \
	$([ $rc2 -eq 0 ] && has "$T/o11" '^attempt 1 .* reuse$' && has "$T/o11" '^done ok' &&
	  has "$T/lns-ok.log" "the peer's port moved to 127.0.0.10:$newport: replies follow"; echo $?)


# 12. a path that reorders (RFC 2661 §5.8): a relay in front of lns-ok
# (127.0.0.11, hidden AVPs) that, once $T/reo-arm exists, holds each control
# message from the LNS until the LNS's next datagram has gone ahead of it
# (or 0.3 s).  Logins at once make ICRPs arrive swapped; the LAC keeps the
# one ahead of its turn, so the LNS never has to resend (the relay sees
# every Ns it sends once).  A LAC that drops it waits for the LNS's 1 s
# timer, and the relay logs the copy as "resent".
python3 - "$P" "$T/reo-arm" <<'PY' 2>"$T/reo.log" &
import os, select, socket, struct, sys, time
p, arm = int(sys.argv[1]), sys.argv[2]
a = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
a.bind(("127.0.0.11", p))
up = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
up.bind(("127.0.0.12", 0))
up.connect(("127.0.0.2", p))
lac, held, held_at, seen, end = None, None, 0, set(), time.time() + 60
def is_msg(d):  # a control message that takes an Ns (not a ZLB, §5.8)
    return len(d) > 12 and struct.unpack("!H", d[:2])[0] & 0x8000
print("ready", file=sys.stderr, flush=True)
while time.time() < end:
    if held and time.time() - held_at > 0.3:
        a.sendto(held, lac)
        held = None
    for s in select.select([a, up], [], [], 0.05)[0]:
        if s is a:
            data, lac = a.recvfrom(4096)
            up.send(data)
            continue
        data = up.recv(4096)
        if is_msg(data):
            key = struct.unpack("!HH", data[4:6] + data[8:10])
            if key in seen:
                print("resent tunnel %d ns %d" % key, file=sys.stderr, flush=True)
            seen.add(key)
        if held:
            a.sendto(data, lac)
            a.sendto(held, lac)
            if is_msg(data):
                print("swapped", file=sys.stderr, flush=True)
            held = None
        elif is_msg(data) and os.path.exists(arm):
            held, held_at = data, time.time()
        else:
            a.sendto(data, lac)
PY
pids+=($!)
wait_has "$T/reo.log" '^ready'
for i in 1 2 3; do	# the tunnel, and its window opened (Appendix A slow start)
	"$CLI" login start w$i@x profile reorder socket "$SOCK" >"$T/ow$i" 2>&1
done
touch "$T/reo-arm"
rpids=()
for i in 1 2 3 4 5 6; do
	"$CLI" login start r$i@x profile reorder socket "$SOCK" >"$T/or$i" 2>&1 &
	rpids+=($!)
done
rok=0
for i in 1 2 3 4 5 6; do
	wait "${rpids[$((i - 1))]}" && has "$T/or$i" '^done ok' && rok=$((rok + 1))
done
ok "a path that reorders: 6 logins at once all done ok, messages swapped, none resent" \
	$([ $rok -eq 6 ] && has "$T/reo.log" '^swapped' && ! has "$T/reo.log" '^resent' &&
	  has "$T/ow3" '^done ok'; echo $?)
[ $rok -eq 6 ] || echo "# reorder: $rok of 6 ok; relay: $(tr '\n' ' ' < "$T/reo.log")"

# 11. the Prometheus endpoint (S-OPS-3): served from the agent's loop, the
# figures the API gives, a text promtool takes (when installed)
"$CLI" login stats socket "$SOCK" >"$T/stats3" 2>&1
python3 - "$PM" >"$T/metrics" 2>"$T/metrics.err" <<'PY'
import http.client, sys
c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=5)
c.request("GET", "/metrics")
r = c.getresponse()
sys.stdout.buffer.write(r.read())
print("HTTP %d %s" % (r.status, r.getheader("Content-Type")), file=sys.stderr)
PY
"$CLI" login stats socket "$SOCK" >"$T/stats4" 2>&1
ok_logins=$(sed -n 's/^logins ok \([0-9]*\) .*/\1/p' "$T/stats3")
ok "metrics: GET /metrics, 200 text/plain version 0.0.4, logins as the API counts them" \
	$(has "$T/metrics.err" '^HTTP 200 text/plain; version=0.0.4; charset=utf-8$' &&
	  [ "$(grep '^logins ' "$T/stats3")" = "$(grep '^logins ' "$T/stats4")" ] &&
	  has "$T/metrics" "^l2tpsel_logins_total\{result=\"ok\"\} $ok_logins\$" &&
	  has "$T/metrics" "^l2tpsel_destination_failures_total\{destination=\"127.0.0.3\",port=\"$P\",local=\"any\"\} [1-9]"; echo $?)
if command -v promtool >/dev/null; then
	promtool check metrics <"$T/metrics" >"$T/promtool" 2>&1
	ok "metrics: promtool check metrics takes the text" $?
else
	n=$((n + 1))
	echo "ok $n metrics: promtool check metrics takes the text # SKIP no promtool"
fi

echo "# l2tpseld loopback: $((n - fail)) passed, $fail failed"
[ $fail -eq 0 ]
