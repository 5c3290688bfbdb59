#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The PPPoE access role (Documentation/access.md) with real subscribers, the
# VM part of `make bench` in a VM boot of its own (scripts/bench.sh; a
# failure here costs only its rows): l2tpseld answering PPPoE and bridging
# each subscriber to an xl2tpd LNS in the kernel, against the same
# subscribers terminated locally by pppoe-server (rp-pppoe), and against
# the kernel forwarding the same traffic without PPP.
#
#   bench/vm/pppoe.sh {tiny|full} OUTDIR
#
# Writes OUTDIR/pppoe.txt:
#   pppoe l2tpseld N count=N up=K ms=.. per_s=..  N subscribers dialing at once,
#                                                 K with IPCP up after ms
#   pppoe server N count=N up=K ms=.. per_s=..    the same against pppoe-server
#   tput l2tpseld 1 bytes=.. ms=.. mbit_s=.. frags=..
#                                                 TCP, subscriber -> LNS's PPP
#                                                 address, across the bridge
#   tput server 1 bytes=.. ms=.. mbit_s=.. frags=..
#                                                 TCP, subscriber -> the
#                                                 pppoe-server's PPP address
#   tput routed 1 bytes=.. ms=.. mbit_s=.. frags=..
#                                                 TCP, no PPP: subscribers' ns
#                                                 -> LNS's ns routed by the LAC
# frags: the IP fragments the three namespaces made during the transfer
# (/proc/net/snmp Ip: FragCreates, summed; S-MTU-1).
# and the daemons' logs into OUTDIR/pppoe-logs/.
#
# Namespaces: the subscribers (pppd with pppoe.so, one macvlan each on sw0),
# the LAC (acc0, the veth peer of sw0, and bl0 towards the LNS) and the LNS
# (xl2tpd with the real pppd).  l2tpseld runs in the LAC's namespace with
# "access pppoe acc0", PAP, "dataplane kernel": no pppd on the LAC, the
# kernel bridges the PPPoE channel to the PPPoL2TP one.  The peer,
# pppoe-server in the same namespace on the same acc0, runs a pppd per
# session.  Debian's pppoe-server (3.15) has no kernel mode (no -k): each
# session's frames go through a /usr/sbin/pppoe process and a pty, so its
# throughput is that of user-space PPPoE, not of the kernel's.  The kernel's
# own forwarding is therefore measured too: the same transfer from the
# subscribers' namespace to the LNS's namespace, plain IPv4 over sw0/acc0 and
# routed by the LAC's namespace (tput routed).
# Sessions per second: all N pppds started at once, timed until every pppN
# in the subscribers' namespace has its IPCP address (polled every 0.1 s).  A
# subscriber that never comes up is counted (up=K < N), not a stop: the wait
# ends 180 s after the start or 60 s after the last one came up.
# Throughput: a Python TCP sender bound to subscriber 1's ppp1 for TPUT
# seconds (5, tiny: 2), the receiver timing from its first byte to EOF; the
# other N-1 sessions stay up, idle, in both PPP runs (every session has the
# same peer address, hence the binding).  The script fails only when a side
# brings no subscriber up at all or a transfer moves nothing.
set -eu

size=${1:-}
out=${2:-}
if [ "$size" != tiny ] && [ "$size" != full ] || [ -z "$out" ]; then
	echo "usage: bench/vm/pppoe.sh {tiny|full} OUTDIR" >&2
	exit 2
fi
if [ -z "${L2TPSEL_VM:-}" ]; then
	echo "pppoe.sh: runs in the VM (scripts/bench.sh starts it there)" >&2
	exit 2
fi
top=$(cd "$(dirname "$0")/../.." && pwd -P)
L=$top/build/l2tpsel
D=$top/build/l2tpseld
KO=$top/kmod/l2tpsel.ko
mkdir -p "$out/pppoe-logs"
res=$out/pppoe.txt
: > "$res"
if [ "$size" = full ]; then NS=20 TPUT=5; else NS=4 TPUT=2; fi
P=$(mktemp -d /tmp/bench-pppoe.XXXXXX)
LNS=bench-plns-$$ LAC=bench-plac-$$ SUB=bench-psub-$$
pids=() subs=()
bad=0

say() { echo "pppoe: $*" >&2; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

cleanup() {
	set +e	# a daemon already gone must not end the cleanup
	local p
	for p in "${subs[@]}" "${pids[@]}"; do kill "$p" 2> /dev/null; done
	[ -f "$P/server.pid" ] && kill "$(cat "$P/server.pid")" 2> /dev/null
	[ -f "$P/lns.pid" ] && kill "$(cat "$P/lns.pid")" 2> /dev/null
	wait 2> /dev/null
	cp "$P"/*.log "$P"/*.conf "$P"/*.options "$out/pppoe-logs/" 2> /dev/null
	ip netns del "$SUB" 2> /dev/null
	ip netns del "$LAC" 2> /dev/null
	ip netns del "$LNS" 2> /dev/null
	rm -rf "$P"
}
trap cleanup EXIT

[ -x "$D" ] || { say "$D is missing"; exit 1; }
for c in xl2tpd pppd pppoe-server python3; do
	command -v "$c" > /dev/null || { say "$c is not installed (scripts/deps.sh)"; exit 1; }
done
compgen -G '/usr/lib/pppd/*/pppoe.so' > /dev/null || { say "pppd has no pppoe.so plugin"; exit 1; }
for m in pppoe macvlan l2tp_ppp; do
	[ -d "/sys/module/$m" ] || modprobe -q "$m" || { say "no kernel module $m"; exit 1; }
done
[ -d /sys/module/l2tpsel ] || insmod "$KO"

# --- namespaces: subscribers -- acc0 [LAC] bl0 -- bl1 [LNS] -------------------
ip netns add "$LNS"
ip netns add "$LAC"
ip netns add "$SUB"
ip -n "$LAC" link add bl0 type veth peer name bl1 netns "$LNS"
ip -n "$LAC" link add acc0 type veth peer name sw0 netns "$SUB"
ip -n "$LAC" addr add 10.78.0.1/24 dev bl0
ip -n "$LNS" addr add 10.78.0.2/24 dev bl1
for n in "$LAC" "$LNS"; do ip -n "$n" link set lo up; done
ip -n "$LAC" link set bl0 up
ip -n "$LAC" link set acc0 up
ip -n "$LNS" link set bl1 up
{
	echo "link set sw0 up"
	echo "link set lo up"
	for i in $(seq "$NS"); do
		echo "link add s$i link sw0 type macvlan mode bridge"
		echo "link set s$i up"
	done
} | ip -n "$SUB" -batch -

# --- the LNS: xl2tpd with pppd ----------------------------------------------
printf '%s\n' noauth nodefaultroute noipdefault 'mtu 1400' 'mru 1400' 'lcp-echo-interval 0' \
	'lcp-restart 1' 'ipcp-restart 1' 'lcp-max-configure 60' 'ipcp-max-configure 60' \
	noipv6 noccp 'ip-up-script /bin/true' 'ip-down-script /bin/true' \
	"logfile $P/lns-pppd.log" > "$P/lns.options"
printf '%s\n' '[global]' 'listen-addr = 10.78.0.2' 'port = 1701' 'access control = no' '' \
	'[lns default]' 'ip range = 10.99.0.10-10.99.0.250' 'local ip = 10.99.0.1' \
	'require authentication = no' 'refuse pap = yes' 'refuse chap = yes' 'length bit = yes' \
	"pppoptfile = $P/lns.options" > "$P/lns.conf"
ip netns exec "$LNS" xl2tpd -D -c "$P/lns.conf" -p "$P/lns.pid" -C "$P/lns.ctl" > "$P/lns.log" 2>&1 &
pids+=($!)

# --- helpers -------------------------------------------------------------------
# dial_all: subscriber i (macvlan si, unit i -> ppp i) dials, all at once.
dial_all() {
	local i
	subs=()
	for i in $(seq "$NS"); do
		ip netns exec "$SUB" pppd plugin pppoe.so nic-s"$i" unit "$i" user "sub$i@example" \
			password secret noauth nodefaultroute noipdefault mtu 1492 mru 1492 \
			noipv6 noccp novj nodeflate nobsdcomp lcp-echo-interval 0 maxfail 1 \
			lcp-restart 1 ipcp-restart 1 lcp-max-configure 60 ipcp-max-configure 60 \
			ip-up-script /bin/true ip-down-script /bin/true nodetach \
			logfile "$P/$1-sub$i.log" > /dev/null 2>&1 &
		subs+=($!)
	done
}
nup() { ip -n "$SUB" -4 -o addr show 2> /dev/null | grep -c ' peer ' || true; }
# row WHO T0: wait for the N subscribers' IPCP, one line of pppoe.txt
row() {
	local who=$1 t0=$2 n=0 k last t
	last=$t0
	while :; do
		k=$(nup)
		t=$(now_ms)
		[ "$k" -gt "$n" ] && n=$k last=$t
		[ "$n" -ge "$NS" ] && break
		[ $((t - t0)) -gt 180000 ] && break
		[ "$n" -gt 0 ] && [ $((t - last)) -gt 60000 ] && break
		sleep 0.1
	done
	echo "pppoe $who $NS count=$NS up=$n ms=$((last - t0)) per_s=$(awk -v n="$n" -v ms="$((last - t0))" \
		'BEGIN { printf "%.2f", n * 1000 / (ms ? ms : 1) }')" >> "$res"
	[ "$n" = "$NS" ] || say "$who: $n of $NS subscribers up"
	[ "$n" -gt 0 ] || bad=1
}
cat > "$P/tput.py" << 'PY'
import socket, sys, time
if sys.argv[1] == "recv":
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("0.0.0.0", 5001))
    s.listen(1)
    open(sys.argv[2] + ".ready", "w").close()
    c, _ = s.accept()
    n = 0
    t0 = None
    while True:
        b = c.recv(262144)
        if not b:
            break
        if t0 is None:
            t0 = time.monotonic()
        n += len(b)
    ms = (time.monotonic() - t0) * 1000 if t0 else 0
    with open(sys.argv[2], "w") as f:
        f.write("bytes=%d ms=%d mbit_s=%.2f\n" % (n, ms, n * 8 / 1000 / ms if ms else 0))
else:
    s = socket.socket()
    if sys.argv[4] != "-":
        s.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, sys.argv[4].encode())
    s.settimeout(30)
    s.connect((sys.argv[2], 5001))
    buf = b"\0" * 65536
    end = time.monotonic() + float(sys.argv[3])
    while time.monotonic() < end:
        s.sendall(buf)
    s.shutdown(socket.SHUT_WR)
    s.recv(1)
    s.close()
PY
# frags: the IP fragments made so far in the three namespaces
frags() {
	local n t=0
	for n in "$SUB" "$LAC" "$LNS"; do
		t=$((t + $(ip netns exec "$n" awk '/^Ip:/ { if (!h) { for (i = 1; i <= NF; i++)
			if ($i == "FragCreates") k = i; h = 1 } else print $k }' /proc/net/snmp)))
	done
	echo "$t"
}
# tput WHO RECV_NS ADDR [DEV]: TCP from the subscribers' namespace (bound
# to DEV, default ppp1) to ADDR, received in RECV_NS
tput() {
	local who=$1 r=$P/tput-$1 rp f0
	rm -f "$r" "$r.ready"
	f0=$(frags)
	ip netns exec "$2" timeout $((TPUT + 60)) python3 "$P/tput.py" recv "$r" 2> "$P/tput-$who-recv.log" &
	rp=$!
	for _ in $(seq 100); do [ -f "$r.ready" ] && break; sleep 0.1; done
	ip netns exec "$SUB" timeout $((TPUT + 60)) python3 "$P/tput.py" send "$3" "$TPUT" "${4:-ppp1}" 2> "$P/tput-$who-send.log" || true
	wait "$rp" || true
	if [ -s "$r" ]; then
		echo "tput $who 1 $(cat "$r") frags=$(($(frags) - f0))" >> "$res"
	else
		say "$who: no transfer (tput-$who-*.log)"
		bad=1
	fi
}
hangup() {	# end the subscribers, wait for their pppds
	local p
	for p in "${subs[@]}"; do kill "$p" 2> /dev/null || true; done
	for p in "${subs[@]}"; do wait "$p" 2> /dev/null || true; done
	subs=()
}

# --- l2tpseld: access pppoe, bridge to the LNS ------------------------------
SOCK=$P/agent.sock
printf '%s\n' 'profile add P' 'tunnel add T1 profile P level 0 dest 10.78.0.2' \
	'domain add example profile P' > "$P/conf"
ip netns exec "$LAC" "$L" -b "$P/conf" > /dev/null
ip netns exec "$LAC" "$D" -o 'kernel netlink' -o 'dataplane kernel' \
	-o "socket $SOCK" -o 'access pppoe acc0' -o 'access-auth pap' -o 'log-level 1' \
	2> "$P/l2tpseld.log" &
AGENT=$!
pids+=($AGENT)
for _ in $(seq 200); do [ -S "$SOCK" ] && [ -p "$P/lns.ctl" ] && break; sleep 0.05; done
[ -S "$SOCK" ] && [ -p "$P/lns.ctl" ] ||
	{ tail -n 5 "$P"/*.log >&2; say "l2tpseld or the xl2tpd LNS did not start"; exit 1; }

say "l2tpseld: $NS PPPoE subscribers at once, bridged to the xl2tpd LNS"
t0=$(now_ms)
dial_all l2tpseld
row l2tpseld "$t0"
say "l2tpseld: TCP for $TPUT s, subscriber 1 -> LNS 10.99.0.1 across the bridge"
tput l2tpseld "$LNS" 10.99.0.1
hangup
kill "$AGENT" 2> /dev/null || true
wait "$AGENT" 2> /dev/null || true

# --- the peer: pppoe-server, PPP terminated in the LAC's namespace ------------
printf '%s\n' noauth nodefaultroute 'lcp-echo-interval 0' 'lcp-restart 1' 'ipcp-restart 1' \
	'lcp-max-configure 60' 'ipcp-max-configure 60' noipv6 noccp novj nodeflate nobsdcomp \
	'ip-up-script /bin/true' 'ip-down-script /bin/true' "logfile $P/server-pppd.log" \
	> "$P/server.options"
ip netns exec "$LAC" pppoe-server -I acc0 -L 10.99.1.1 -R 10.99.1.10 -N "$NS" \
	-O "$P/server.options" -X "$P/server.pid" > "$P/server.log" 2>&1 ||
	{ cat "$P/server.log" >&2; say "pppoe-server did not start"; exit 1; }
for _ in $(seq 100); do [ -s "$P/server.pid" ] && break; sleep 0.05; done

say "pppoe-server: $NS PPPoE subscribers at once, terminated locally"
t0=$(now_ms)
dial_all server
row server "$t0"
say "pppoe-server: TCP for $TPUT s, subscriber 1 -> 10.99.1.1"
tput server "$LAC" 10.99.1.1
hangup
[ -f "$P/server.pid" ] && kill "$(cat "$P/server.pid")" 2> /dev/null || true

# --- the kernel's own forwarding: no PPP, routed by the LAC's namespace --------
ip -n "$SUB" addr add 10.79.0.2/24 dev sw0
ip -n "$LAC" addr add 10.79.0.1/24 dev acc0
ip netns exec "$LAC" sysctl -qw net.ipv4.ip_forward=1
ip -n "$SUB" route add 10.78.0.0/24 via 10.79.0.1
ip -n "$LNS" route add 10.79.0.0/24 via 10.78.0.1
say "routed: TCP for $TPUT s, subscribers' namespace -> 10.78.0.2, forwarded by the LAC's"
tput routed "$LNS" 10.78.0.2 -
cat "$res" >&2
say "done"
exit $bad
