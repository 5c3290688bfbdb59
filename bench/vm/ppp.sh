#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Sessions per second WITH PPP, the VM part of `make bench` that runs in a
# VM boot of its own (scripts/bench.sh; a failure here costs only its row):
# l2tpseld as LAC and xl2tpd as LAC against the same xl2tpd LNS, the kernel
# data path and the real pppd at both ends.
#
#   bench/vm/ppp.sh {tiny|full} OUTDIR
#
# Writes OUTDIR/ppp.txt:
#   ppp l2tpseld N count=N up=K ms=.. per_s=..   N logins, K PPP links up in ms
#   ppp xl2tpd N count=N up=K ms=.. per_s=..     N xl2tpd LACs, a call each
# and the daemons' logs into OUTDIR/ppp-logs/.
#
# The LNS: xl2tpd with the real pppd in a network namespace of its own behind
# a veth pair.  l2tpseld ("dataplane kernel": kernel tunnel, PPPoL2TP, pppd
# in dialer mode) makes its N logins one after another through its API.  The
# peer is N xl2tpd LACs, each on a source address of its own, one call each:
# the kernel data path finds a UDP tunnel by its socket, and one xl2tpd gives
# every tunnel to the same LNS the same address pair, so PPP would come up on
# only one of them ("c <tunnel id>" would add calls to one tunnel, but
# xl2tpd 1.3.18 then reads the call's missing lac section: a NULL
# dereference in its ICRP handling).  Both sides issue their N setups
# without waiting for PPP; the figure is the time until the LNS's pppd has
# run ip-up (IPCP up at both ends) once per session, read from its script's
# log as it is written.  A session whose PPP does not come up is counted
# (up=K < N), not a stop: the wait ends 90 s after the last link came up.
# pppd may send 60 Configure-Requests a second apart (10 by default): under
# emulation on a loaded host LCP took longer than 10 s and pppd gave up.
set -eu

size=${1:-}
out=${2:-}
if [ "$size" != tiny ] && [ "$size" != full ] || [ -z "$out" ]; then
	echo "usage: bench/vm/ppp.sh {tiny|full} OUTDIR" >&2
	exit 2
fi
if [ -z "${L2TPSEL_VM:-}" ]; then
	echo "ppp.sh: runs in the VM (scripts/bench.sh starts it there)" >&2
	exit 2
fi
top=$(cd "$(dirname "$0")/../.." && pwd -P)
L=$top/build/l2tpsel
D=$top/build/l2tpseld
B=$top/build/bench-nl
KO=$top/kmod/l2tpsel.ko
mkdir -p "$out/ppp-logs"
res=$out/ppp.txt
: > "$res"
[ "$size" = full ] && NP=10 || NP=3
P=$(mktemp -d /tmp/bench-ppp.XXXXXX)
PNS=bench-lns-$$
pids=()

cleanup() {
	set +e	# a daemon already gone must not end the cleanup
	local p f
	for p in "${pids[@]}"; do kill "$p" 2> /dev/null || true; done
	for f in "$P"/*.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2> /dev/null; done
	wait "${pids[@]}" 2> /dev/null || true
	cp "$P"/*.log "$P"/*.conf "$P"/*.options "$out/ppp-logs/" 2> /dev/null
	ip netns del "$PNS" 2> /dev/null
	ip link del bv0 2> /dev/null
	rm -rf "$P"
}
trap cleanup EXIT

say() { echo "ppp: $*" >&2; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
field() { tr ' ' '\n' | sed -n "s/^$1=//p"; }

[ -x "$D" ] || { echo "ppp: $D is missing" >&2; exit 1; }
command -v xl2tpd > /dev/null || { echo "ppp: xl2tpd is not installed" >&2; exit 1; }
[ -d /sys/module/l2tpsel ] || insmod "$KO"

ppp_opts() {	# ppp_opts FILE LOG [IPUP]: no auth, IPv4 only, quick restarts
	printf '%s\n' noauth ipcp-accept-local ipcp-accept-remote nodefaultroute noipdefault \
		'mtu 1400' 'mru 1400' 'lcp-echo-interval 0' 'lcp-restart 1' 'ipcp-restart 1' \
		'lcp-max-configure 60' 'ipcp-max-configure 60' \
		noipv6 noccp "ip-up-script ${3:-/bin/true}" 'ip-down-script /bin/true' \
		"logfile $2" > "$1"
}
printf '#!/bin/sh\necho "$1 $4 $5" >> %s\n' "$P/up.log" > "$P/ipup"
chmod +x "$P/ipup"
: > "$P/up.log"
ppp_opts "$P/lns.options" "$P/lns-pppd.log" "$P/ipup"
ppp_opts "$P/lac.options" "$P/lac-pppd.log"
ip netns add "$PNS"
{
	echo "link add bv0 type veth peer name bv1 netns $PNS"
	echo "addr add 10.77.0.1/24 dev bv0"
	for i in $(seq "$NP"); do echo "addr add 10.77.0.$((10 + i))/32 dev bv0"; done
	echo "link set bv0 up"
} | ip -batch -
ip -n "$PNS" addr add 10.77.0.2/24 dev bv1
ip -n "$PNS" link set bv1 up
ip -n "$PNS" link set lo up
printf '%s\n' '[global]' 'listen-addr = 10.77.0.2' 'port = 1701' 'access control = no' '' \
	'[lns default]' 'ip range = 10.98.0.10-10.98.0.250' 'local ip = 10.98.0.1' \
	'require authentication = no' 'refuse pap = yes' 'refuse chap = yes' 'length bit = yes' \
	"pppoptfile = $P/lns.options" > "$P/lns.conf"
ip netns exec "$PNS" xl2tpd -D -c "$P/lns.conf" -p "$P/lns.pid" -C "$P/lns.ctl" > "$P/lns.log" 2>&1 &
pids+=($!)
for i in $(seq "$NP"); do
	printf '%s\n' '[global]' "listen-addr = 10.77.0.$((10 + i))" 'port = 1701' 'access control = no' '' \
		'[lac b]' 'lns = 10.77.0.2' 'autodial = no' 'redial = no' 'length bit = yes' \
		"pppoptfile = $P/lac.options" > "$P/lac$i.conf"
	xl2tpd -D -c "$P/lac$i.conf" -p "$P/lac$i.pid" -C "$P/lac$i.ctl" > "$P/lac$i.log" 2>&1 &
	pids+=($!)
done
SOCK=$P/agent.sock
"$D" -o 'log-level 1' -o 'dataplane kernel' -o 'port 17012' \
	-o "socket $SOCK" -o "pppd-file $P/lac.options" 2> "$P/l2tpseld.log" &
pids+=($!)
printf '%s\n' 'profile add ppp' 'tunnel add t-ppp profile ppp level 0 dest 10.77.0.2' > "$P/conf"
"$L" -b "$P/conf"
ready() {
	local i
	[ -S "$SOCK" ] && [ -p "$P/lns.ctl" ] || return 1
	for i in $(seq "$NP"); do [ -p "$P/lac$i.ctl" ] || return 1; done
}
for _ in $(seq 200); do ready && break; sleep 0.05; done
ready || { tail -n 5 "$P"/*.log >&2; echo "ppp: l2tpseld or an xl2tpd did not start" >&2; exit 1; }

# Each ip-up of the LNS's pppd, as it is written.
exec 4< <(tail -n +1 -F --pid=$$ "$P/up.log" 2> /dev/null)
# ups T0: read up to NP ip-up lines (180 s for the first, then 90 s after the
# last: under emulation on a loaded host a pppd takes tens of seconds);
# prints "UP MS", MS from T0 to the last one read
ups() {
	local t0=$1 n=0 last t=180
	last=$t0
	while [ "$n" -lt "$NP" ] && read -r -t "$t" -u 4 _; do
		n=$((n + 1)) last=$(now_ms) t=90
	done
	echo "$n $((last - t0))"
}
row() {	# row WHO T0: one line of ppp.txt
	local u ms
	read -r u ms < <(ups "$2")
	echo "ppp $1 $NP count=$NP up=$u ms=$ms per_s=$(awk -v n="$u" -v ms="$ms" 'BEGIN { printf "%.2f", n * 1000 / (ms ? ms : 1) }')" >> "$res"
	[ "$u" = "$NP" ] || say "$1: $u of $NP PPP links up"
}

say "l2tpseld: $NP logins, PPP at both ends"
t0=$(now_ms)
r=$("$B" agent "$SOCK" ppp pl "$NP" 1) || say "l2tpseld logins: $r"
[ "$(field ok <<< "$r")" = "$NP" ] || say "l2tpseld logins: $r"
row l2tpseld "$t0"

say "xl2tpd: $NP LACs, a call each, PPP at both ends"
t0=$(now_ms)
for i in $(seq "$NP"); do echo "c b" > "$P/lac$i.ctl"; done
row xl2tpd "$t0"
exec 4<&-
say "done"
