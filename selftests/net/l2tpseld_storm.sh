#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only real peers: Debian's kernel only (L2TPSEL_PEERS_ON_DEBUG=1 runs it on the debug kernel)
#
# A login storm through l2tpseld with the real module
# (S-SEL-4, S-L2TP-1, S-L2TP-6): N logins at once, each on an API connection of its
# own as a PPP front end makes them, then N logouts at once.
#
#   hub ns:   l2tpseld LAC (kernel netlink); profile ONE: one tunnel to lnsa;
#             profile MANY: one tunnel to each of lnsa..lnsd, random
#   peers:    lnsa..lnsd, l2tpseld LNS (kernel none, control plane only)
#
# - all N logins over one tunnel succeed, far more calls than the LNS's
#   receive window (16) wait for it, nothing is locked out, the LNS holds N
#   sessions; N logouts at once leave it none (each CDN reached it);
# - the same over four tunnels;
# - 20000 spoofed SCCRQs (half malformed) at one LNS while 50 logins need a
#   new tunnel there: the logins succeed, the LNS's descriptors, tunnels and
#   memory stay bounded.
# Debian's kernel only: the storm is the agent's (userspace) work, and the
# module's side of it (SESSION_UP/DOWN, LOGIN_*) is what concurrency.sh
# already runs on the debug kernel 12000 times; L2TPSEL_STORM_N sets N.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../peers.sh"

L2D=${L2TPSELD:-$TOP/build/l2tpseld}
BNL=$TOP/build/bench-nl
L=$L2TPSEL_CLI
N=${L2TPSEL_STORM_N:-1000}

require_root
[ -z "$L2TPSEL_DEBUG_KERNEL" ] || [ -n "${L2TPSEL_STORM_N:-}" ] ||
	skip "Debian's kernel only (concurrency.sh covers the module's side on this one)"
peers_require
require_cmd python3
[ -x "$L2D" ] || skip "no $L2D (run make)"
[ -x "$BNL" ] || skip "no $BNL (run make)"
mod_load || fail "insmod $L2TPSEL_KO failed"

peers_init 10.240.0.1 || fail "cannot set up the hub"
peers_add "lnsa 10.250.0.21" "lnsb 10.250.0.22" "lnsc 10.250.0.23" "lnsd 10.250.0.24" ||
	fail "cannot add the peers"
HUB=$PEERS_HUB
D=$PEERS_DIR
hub() { ip netns exec "$HUB" "$@"; }

cat >"$D/config" <<EOF2
profile add ONE
tunnel add TA profile ONE level 0 dest 10.250.0.21
profile add MANY lb random
tunnel add MA profile MANY level 0 dest 10.250.0.21
tunnel add MB profile MANY level 0 dest 10.250.0.22
tunnel add MC profile MANY level 0 dest 10.250.0.23
tunnel add MD profile MANY level 0 dest 10.250.0.24
EOF2
hub "$L" -b "$D/config" >/dev/null
check_err $? "hub configuration failed"

# N API connections at once: the client needs more than the default 1024
# descriptors (the agent raises its own limit)
ulimit -n 65536
hub "$L2D" -o 'kernel netlink' -o "socket $D/lac.sock" \
	-o 'hostname hub-lac' -o 'log-level 1' 2>>"$D/lac.log" &
defer kill -9 $!
for p in "a 21" "b 22" "c 23" "d 24"; do
	set -- $p
	ip netns exec "$(peer_ns lns$1)" "$L2D" -o 'kernel none' \
		-o "listen 10.250.0.$2" -o "socket $D/lns$1.sock" \
		-o "hostname lns$1" -o 'log-level 2' 2>>"$D/lns$1.log" &
	defer kill -9 $!
done
keep_logs "$D/lac.log" "$D/lnsa.log" "$D/lnsb.log" "$D/lnsc.log" "$D/lnsd.log"
for s in lac lnsa lnsb lnsc lnsd; do
	wait_for 5 test -S "$D/$s.sock" || fail "l2tpseld $s did not start"
done

# kv TEXT KEY: the value of KEY=VALUE in TEXT (bench-nl's output)
kv() {
	local re="(^| )$2=([^ ]+)"
	[[ $1 =~ $re ]] && echo "${BASH_REMATCH[2]}"
}

show_logs() {
	local f
	for f in lac lnsa; do echo "--- $f.log"; tail -20 "$D/$f.log"; done
	# how the calls ended, by cause, on each side
	grep -ho 'outcome [0-9]* [a-z-]*\|done fail.*' "$D/lac.log" | sed 's/ session .*//' | sort | uniq -c
	for f in lnsa lnsb lnsc lnsd; do
		echo "--- $f: $(grep -ho 'closed ([^)]*)\|setup timeout\|StopCCN.*' "$D/$f.log" |
			grep -v 'protocol version' | sort | uniq -c | tr '\n' ';')"
	done
}

# sessions NAME: the agent's session count (its API's stats line)
sessions() {
	local s
	s=$("$L" login stats socket "$D/$1.sock" 2>/dev/null)
	val "$s" sessions
}

lns_total() {
	echo $(( $(sessions lnsa) + $(sessions lnsb) + $(sessions lnsc) + $(sessions lnsd) ))
}

lns_empty() {
	[ "$(lns_total)" = 0 ]
}

# no destination locked out or charged with a failed attempt (a lockout can
# be gone by the time the storm ends: S-SEL-8 unlocks for later logins)
no_lockout() {
	local out
	out=$(hub "$L" destination show)
	! grep -Eq 'lockout-ms [1-9]|failures [1-9]' <<<"$out"
}

# logout_all FIRST LAST: every logout on one connection at once, then the answers
logout_all() {
	hub python3 - "$D/lac.sock" "$1" "$2" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
first, last = int(sys.argv[2]), int(sys.argv[3])
s.sendall("".join("logout %d\n" % i for i in range(first, last + 1)).encode())
buf, lines = b"", []
while len(lines) < last - first + 1:
    d = s.recv(65536)
    if not d:
        break
    buf += d
    *lines_new, buf = buf.split(b"\n")
    lines += lines_new
ok = sum(1 for l in lines if l == b"ok")
print("ok %d of %d" % (ok, last - first + 1))
for l in lines:
    if l != b"ok":
        print(l.decode(errors="replace"))
        break
PY
}

# storm PROFILE PREFIX FIRST-ID: N logins at once, then N logouts at once
storm() {
	local r t0 ms out
	t0=${EPOCHREALTIME/./}
	r=$(hub "$BNL" agent "$D/lac.sock" "$1" "$2" "$N" "$N" 2>&1)
	ms=$(( (${EPOCHREALTIME/./} - t0) / 1000 ))
	echo "$1: $r"
	echo "# storm: $N logins at once through profile $1: ok $(kv "$r" ok) in $ms ms"
	expect "$(kv "$r" ok)" "$N" "logins that succeeded"
	expect "$(sessions lac)" "$N" "LAC sessions"
	expect "$(lns_total)" "$N" "LNS sessions"
	expect "$(val "$(hub "$L" summary)" sessions)" "$N" "LAC chassis count"
	hub "$L" destination show
	no_lockout
	check_err $? "a destination was locked out"
	grep -q 'no-reply' "$D/lac.log"
	check_fail $? "the LAC reported no-reply"
	grep -q 'cannot queue' "$D/lac.log"
	check_fail $? "the LAC failed to queue a message"
	log_test "$N logins at once through profile $1: all succeed, no lockout"

	t0=${EPOCHREALTIME/./}
	out=$(logout_all "$3" $(( $3 + N - 1 )))
	echo "$out"
	expect "$(head -1 <<<"$out")" "ok $N of $N" "logouts accepted"
	wait_for 60 lns_empty
	ms=$(( (${EPOCHREALTIME/./} - t0) / 1000 ))
	echo "# storm: $N logouts at once through profile $1: LNS sessions left $(lns_total) after $ms ms"
	expect "$(lns_total)" 0 "sessions left on the LNS"
	expect "$(sessions lac)" 0 "LAC sessions after the logouts"
	expect "$(val "$(hub "$L" summary)" sessions)" 0 "LAC chassis count after the logouts"
	log_test "$N logouts at once through profile $1: no session left on the LNS"
}

storm ONE one 1
storm MANY many $((N + 1))

# --- a flood of spoofed SCCRQs at lnsa while logins set up a new tunnel -------
# (S-L2TP-7): raw IPv4 from the hub, 20000 SCCRQs from
# random 10.251.x.y sources, every other one malformed (protocol version 2.0).
flood() {
	hub python3 - <<'PY'
import random, socket, struct
def avp(t, v):
    return struct.pack("!HHH", 0x8000 | (6 + len(v)), 0, t) + v
def sccrq(bad):
    body = (avp(0, struct.pack("!H", 1)) + avp(2, struct.pack("!H", 0x0200 if bad else 0x0100))
            + avp(7, b"flood") + avp(3, struct.pack("!I", 3))
            + avp(9, struct.pack("!H", random.randint(1, 65535))))
    return struct.pack("!HHHHHH", 0xc802, 12 + len(body), 0, 0, 0, 0) + body
s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
dst = socket.inet_aton("10.250.0.21")
for i in range(20000):
    src = socket.inet_aton("10.251.%d.%d" % (random.randint(0, 255), random.randint(1, 254)))
    l2tp = sccrq(i & 1)
    udp = struct.pack("!HHHH", random.randint(1024, 65535), 1701, 8 + len(l2tp), 0) + l2tp
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0, 64, 17, 0, src, dst) + udp
    s.sendto(ip, ("10.250.0.21", 0))
PY
}

lnsa_pid=$(ip netns pids "$(peer_ns lnsa)" | head -1)
flood &
fpid=$!
r=$(hub "$BNL" agent "$D/lac.sock" ONE flood 50 50 2>&1)
wait $fpid
echo "logins during the flood: $r"
fds=$(ls /proc/"$lnsa_pid"/fd | wc -l)
rss=$(awk '/^VmRSS/ { print $2 }' /proc/"$lnsa_pid"/status)
st=$("$L" login stats socket "$D/lnsa.sock")
echo "# storm: lnsa after 20000 spoofed SCCRQs: $fds descriptors, VmRSS $rss kB, $st"
expect "$(kv "$r" ok)" 50 "logins that succeeded during the flood"
[ "$fds" -lt 400 ]
check_err $? "lnsa holds $fds descriptors"
# lns-max-setup (256) in setup, the tunnels the last turn's burst of 64
# datagrams (L2D_RX_BURST) evicted and the loop reaps after it, and a few
# established ones carrying the logins
[ "$(val "$st" tunnels)" -le $((256 + 64 + 8)) ]
check_err $? "lnsa holds $(val "$st" tunnels) tunnels"
[ "$rss" -lt 65536 ]
check_err $? "lnsa's RSS is $rss kB"
log_test "20000 spoofed and malformed SCCRQs: logins succeed, lnsa's state bounded"
[ "$EXIT_STATUS" = 0 ] || show_logs
exit $EXIT_STATUS
