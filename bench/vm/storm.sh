#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Subscriber storms at the access edge (S-STORM-1..4), the VM part of
# `make bench` in a VM boot of its own (scripts/bench.sh): PPPoE subscribers
# from l2tpsel-subgen (one process, raw sockets, bench/subgen/) through
# l2tpseld as LAC ("access pppoe", PAP, "dataplane kernel": the kernel
# bridges each PPPoE channel to its PPPoL2TP one) to
#   - l2tpns (Debian's package), an LNS written by others that terminates
#     PPP in one process, its PAP checked by bench/vm/radius_accept.py;
#   - the l2tpseld LNS ("dataplane none": it takes the calls and runs no
#     PPP, so the subscribers stop at authentication; its rows count the
#     logins up to the bridged call, read from the LAC's `watch`);
# beside the floor: the same subscribers against l2tpsel-subresp, a trivial
# PPPoE responder, on the same link (what the generator and the link can do).
#
#   bench/vm/storm.sh {tiny|full} OUTDIR
#
# Writes OUTDIR/storm.txt, one row a line:
#   storm floor|l2tpns|l2tpns-own N rate=R up=.. failed=.. per_s=.. p50_ms=.. p99_ms=..
#         disc_ms=.. lcp_ms=.. auth_ms=.. ipcp_ms=.. gen_rtx=.. gen_cpu_us=..
#         [lns_rtx=.. lac_cpu_us=.. lns_cpu_us=.. lac_rss_kb=..
#         lac_busy_pct=.. lac_demand_pct=.. lns_busy_pct=.. lns_demand_pct=..
#         span_idle_pct=.. lns_rcvbuf_drops=.. lac_rcvbuf_drops=..]
#       N subscribers offered at R a second, PADI to IPCP up at the
#       subscriber (subgen's figures; stage medians; the generator's own
#       retransmissions and CPU a subscriber); lns_rtx the messages the LNS
#       sent again (duplicates the LAC received), CPU a subscriber of the
#       LAC and the LNS, the LAC's resident memory at the peak, the
#       most of one CPU the LAC agent and l2tpns used over a second and
#       the most their main threads wanted, running or waiting to run
#       (which of them is the limit), the guest's idle share while the
#       subscribers came up, the datagrams the LNS's and the LAC's UDP
#       sockets dropped with their receive buffers full
#   storm lns N rate=R ok=.. failed=.. per_s=.. p50_ms=.. p99_ms=.. lns_rtx=..
#         lac_cpu_us=..
#       the same to the l2tpseld LNS, counted at the LAC: login done ok
#       (the call bridged, its ICCN sent) per second from the first PADI,
#       the agent's own setup time of a login (setup-us)
#   storm spread N rate=R ok=.. min=.. max=.. mean=.. spread_pct=..
#       destination-equal over four equal LNS: logins done ok on each,
#       (max - min) / mean
#   storm maxsess N rate=R ok=.. limit=L worst=.. overshoot=.. level1=..
#       four level-0 tunnels of max-sessions L and an unlimited level-1
#       one: the most sessions the module counted on a level-0 tunnel at
#       the peak, less L (never above 0: S-STORM-2)
# and the daemons' logs into OUTDIR/storm-logs/, with the guest's CPU per
# process over each lns and l2tpns row (cpu-lns-N.txt, cpu-l2tpns-N.txt:
# bench/vm/cpu_by_proc.py).  Every row ends with
# idle_pct: the guest's idle CPU share over the row (does something wait,
# or is the CPU used up?).
#
# l2tpns rows share the guest's two CPUs between l2tpns, its RADIUS server,
# the LAC agent and the generator as equals; l2tpns-own rows give the LNS
# side a CPU whenever it wants one (nice -10), as its own machine would.
#
# Environment: STORM_PARTS (floor lns spread maxsess l2tpns l2tpns-own: the parts to
# run), STORM_PERF=1 (perf record of the whole guest over the lns and
# l2tpns rows: storm-logs/perf-lac*.log, perf-l2tpns*.log), STORM_SAMPLE=1 (where the LAC
# agent's wall time goes over the lns and l2tpns rows, bench/vm/sample_proc.py:
# storm-logs/lac-sample-N.log), STORM_L2TPNS_DEBUG (l2tpns's debug
# level, 1: at 3 its log has every packet's handling), STORM_RUNS (the
# rows N:RATE of the floor, lns and l2tpns parts, e.g. "1000:400"),
# STORM_TUNNELS (the LAC's lac-tunnels-per-destination, 1), STORM_RMEM
# (net.core.rmem_default in bytes before l2tpns starts: the receive buffer of
# its one UDP socket, which it does not size itself; the kernel's default
# when unset), STORM_RCVBUF (the LAC agent's socket-rcvbuf, its 4 MiB
# when unset; 0: the kernel's default), STORM_PCAP=1 (tcpdump of the LAC's
# network link over the l2tpns rows: storm-logs/l2tpns-N.pcap, read by
# bench/vm/l2tp_pcap.py), STORM_STRACE=1 (the LAC agent's system calls
# over the l2tpns rows, counted: storm-logs/strace-l2tpns-N.txt; it slows
# the agent several times), STORM_BPF=1 (the time the agent's event loop
# spent in each kind of system call over the l2tpns rows, bpftrace
# bench/vm/loop_syscalls.bt: storm-logs/syscalls-l2tpns-N.txt).
set -eu

size=${1:-}
out=${2:-}
if [ "$size" != tiny ] && [ "$size" != full ] || [ -z "$out" ]; then
	echo "usage: bench/vm/storm.sh {tiny|full} OUTDIR" >&2
	exit 2
fi
if [ -z "${L2TPSEL_VM:-}" ]; then
	echo "storm.sh: runs in the VM (scripts/bench.sh starts it there)" >&2
	exit 2
fi
top=$(cd "$(dirname "$0")/../.." && pwd -P)
L=$top/build/l2tpsel
D=$top/build/l2tpseld
GEN=$top/build/l2tpsel-subgen
RESP=$top/build/l2tpsel-subresp
KO=$top/kmod/l2tpsel.ko
mkdir -p "$out/storm-logs"
res=$out/storm.txt
: > "$res"
if [ "$size" = full ]; then
	RUNS="100:100 1000:400 5000:1000"
	AT_ONCE=1000 LIMIT=100
else
	RUNS="100:100"
	AT_ONCE=200 LIMIT=25
fi
RUNS=${STORM_RUNS:-$RUNS}
P=$(mktemp -d /tmp/bench-storm.XXXXXX)
LNS=bench-slns-$$ LAC=bench-slac-$$ SUB=bench-ssub-$$
pids=()
first=1			# the next subscriber number: MACs never repeat

say() { echo "storm: $*" >&2; }
cleanup() {
	set +e
	local p
	for p in "${pids[@]}"; do kill "$p" 2> /dev/null; done
	[ -f "$P/l2tpns.pid" ] && kill "$(cat "$P/l2tpns.pid")" 2> /dev/null
	wait 2> /dev/null
	cp "$P"/*.log "$P"/*.json "$P"/*.conf "$P"/*.csv "$P"/*.pcap "$P"/*.txt "$out/storm-logs/" 2> /dev/null
	ip netns del "$SUB" 2> /dev/null
	ip netns del "$LAC" 2> /dev/null
	ip netns del "$LNS" 2> /dev/null
	rm -rf "$P"
}
trap cleanup EXIT

for x in "$D" "$GEN" "$RESP" "$L"; do
	[ -x "$x" ] || { say "$x is missing (make; make subgen)"; exit 1; }
done
for c in l2tpns python3; do
	command -v "$c" > /dev/null || { say "$c is not installed (scripts/deps.sh)"; exit 1; }
done
for m in pppoe l2tp_ppp tun dummy; do
	[ -d "/sys/module/$m" ] || modprobe -q "$m" || { say "no kernel module $m"; exit 1; }
done
[ -d /sys/module/l2tpsel ] && rmmod l2tpsel
insmod "$KO"

# --- namespaces: subscribers sw0 -- acc0 [LAC] bl0 -- bl1 [LNS] ---------------
ip netns add "$LNS"
ip netns add "$LAC"
ip netns add "$SUB"
ip -n "$LAC" link add bl0 type veth peer name bl1 netns "$LNS"
ip -n "$LAC" link add acc0 type veth peer name sw0 netns "$SUB"
ip -n "$LAC" addr add 10.80.0.1/24 dev bl0
for a in 2 3 4 5 6 9; do ip -n "$LNS" addr add "10.80.0.$a/24" dev bl1; done
for n in "$LAC" "$LNS" "$SUB"; do ip -n "$n" link set lo up; done
ip -n "$LAC" link set bl0 up
ip -n "$LAC" link set acc0 up
ip -n "$LNS" link set bl1 up
ip -n "$SUB" link set sw0 up
# l2tpns wants an eth0 for its cluster heartbeat
ip -n "$LNS" link add eth0 type dummy
ip -n "$LNS" link set eth0 up
ip -n "$LNS" addr add 10.81.0.1/24 dev eth0

# --- l2tpns and its RADIUS (it takes ~15 s to become cluster master) ----------
ip netns exec "$LNS" python3 "$top/bench/vm/radius_accept.py" bench 10.100 \
	> "$P/radius.log" 2>&1 &
RADIUS=$!
pids+=($RADIUS)
cat > "$P/l2tpns.conf" << CONF
set debug ${STORM_L2TPNS_DEBUG:-1}
set log_file "$P/l2tpns.log"
set pid_file "$P/l2tpns.pid"
set bind_address 10.80.0.9
set primary_radius 127.0.0.1
set radius_secret "bench"
set radius_accounting no
set primary_dns 10.81.0.1
set cli_bind_address 127.0.0.1
set bind_portremotelac 1702
set ppp_keepalive no
CONF
[ -n "${STORM_RMEM:-}" ] && sysctl -qw net.core.rmem_max="$STORM_RMEM" net.core.rmem_default="$STORM_RMEM"
# a session of its own: at its end l2tpns signals its whole process group
ip netns exec "$LNS" setsid /usr/sbin/l2tpns -c "$P/l2tpns.conf" > "$P/l2tpns.out" 2>&1 &
pids+=($!)
t_l2tpns=$SECONDS

# --- the l2tpseld LNS: five addresses, no PPP ---------------------------------
ip netns exec "$LNS" "$D" -o 'kernel none' -o 'dataplane none' -o "socket $P/lns.sock" \
	-o 'listen 10.80.0.2' -o 'listen 10.80.0.3' -o 'listen 10.80.0.4' \
	-o 'listen 10.80.0.5' -o 'listen 10.80.0.6' -o 'hostname lns' -o 'log-level 1' \
	-o 'lns-idle-timeout 0' 2> "$P/lns.log" &
pids+=($!)

# --- the LAC: profiles on the module, the agent -------------------------------
cat > "$P/lac.conf" << CONF
profile add S
tunnel add t-lns profile S level 0 dest 10.80.0.2
domain add lns profile S
profile add N
tunnel add t-l2tpns profile N level 0 dest 10.80.0.9
domain add l2tpns profile N
profile add E lb destination-equal
tunnel add e1 profile E level 0 dest 10.80.0.2
tunnel add e2 profile E level 0 dest 10.80.0.3
tunnel add e3 profile E level 0 dest 10.80.0.4
tunnel add e4 profile E level 0 dest 10.80.0.5
domain add eq profile E
profile add M lb destination-equal
tunnel add m1 profile M level 0 dest 10.80.0.2 max-sessions $LIMIT
tunnel add m2 profile M level 0 dest 10.80.0.3 max-sessions $LIMIT
tunnel add m3 profile M level 0 dest 10.80.0.4 max-sessions $LIMIT
tunnel add m4 profile M level 0 dest 10.80.0.5 max-sessions $LIMIT
tunnel add m5 profile M level 1 dest 10.80.0.6
domain add max profile M
CONF
ip netns exec "$LAC" "$L" -b "$P/lac.conf" > /dev/null
SOCK=$P/lac.sock
# PADI at up to 1000/s on one interface: the per-interface budget is raised
# (an operator expecting such storms would); per MAC it stays as shipped.
# l2tpns gives no Receive Window Size (4), so a storm's calls queue behind
# one tunnel's window; STORM_TUNNELS (lac-tunnels-per-destination, 1) opens
# more, which l2tpns's one UDP socket does not keep up with (its receive
# buffer overflows, lns_rcvbuf_drops, and it kills tunnels).
ip netns exec "$LAC" "$D" -o 'kernel netlink' -o 'dataplane kernel' -o "socket $SOCK" \
	-o 'access pppoe acc0' -o 'access-auth pap' -o 'pppoe-padi-rate 4000' \
	-o 'hostname lac' -o 'log-level 1' -o "lac-tunnels-per-destination ${STORM_TUNNELS:-1}" \
	${STORM_RCVBUF:+-o "socket-rcvbuf $STORM_RCVBUF"} 2> "$P/lac.log" &
AGENT=$!
pids+=($AGENT)
for _ in $(seq 200); do [ -S "$SOCK" ] && [ -S "$P/lns.sock" ] && break; sleep 0.05; done
[ -S "$SOCK" ] && [ -S "$P/lns.sock" ] || { tail -n 5 "$P"/*.log >&2; say "an agent did not start"; exit 1; }

# --- helpers --------------------------------------------------------------------
parts=" ${STORM_PARTS:-floor lns spread maxsess l2tpns l2tpns-own} "
part() { case $parts in *" $1 "*) return 0 ;; esac; return 1; }
# idle_mark / idle_pct: the guest's idle share since the mark
idle_mark() { IDLE0=$(awk '/^cpu / { print $5 + $6, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat); }
idle_pct() {
	awk -v a="$IDLE0" '/^cpu / { split(a, x, " "); i = $5 + $6 - x[1]
		t = $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 - x[2]
		printf "idle_pct=%.0f", t ? 100 * i / t : 0 }' /proc/stat
}
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2> /dev/null || echo 0; }
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2> /dev/null || echo 0; }
hz=$(getconf CLK_TCK)
# us_per TICKS N: CPU microseconds a subscriber
us_per() { awk -v t="$1" -v n="$2" -v hz="$hz" 'BEGIN { printf "%.0f", n ? t * 1e6 / hz / n : 0 }'; }
# stat SOCK FIELD: one number of the agent's `stats` (the stats or control line)
stat() { "$L" login stats socket "$1" 2> /dev/null |
	 awk -v f="$2" '{ for (i = 2; i < NF; i++) if ($i == f) { print $(i + 1); exit } }'; }
# idle: both agents without sessions (the last storm fully torn down)
idle() {
	local i
	for i in $(seq 600); do
		[ "$(stat "$SOCK" sessions)" = 0 ] && [ "$(stat "$P/lns.sock" sessions)" = 0 ] && return 0
		sleep 0.1
	done
	say "sessions left after 60 s: LAC $(stat "$SOCK" sessions), LNS $(stat "$P/lns.sock" sessions)"
}
# busy_start PID...: sample the guest's idle time and the processes' CPU
# every half second into $P/busy.txt.  busy_peak NAME... [SPAN]: the
# largest share of one CPU each had over a second ("NAME_busy_pct=", in
# the order busy_start had them), the largest share of a second its main
# thread wanted a CPU, on one or waiting on a run queue for one
# ("NAME_demand_pct=", /proc/PID/schedstat: l2tpns's only thread, the
# agent's event loop; near 100 it is the limit, whether it runs or is kept
# waiting), and the guest's idle share over the first SPAN seconds
# ("span_idle_pct=": the storm's setup, not its hang-ups).  Bash builtins
# only: a process forked twice a second is CPU the busy ones share.
busy_start() {
	( exec 9<> <(:)	# an fd that never reads: read -t is the sleep
	while :; do
		read -r _ us ni sy id io hi si st _ < /proc/stat
		line="$EPOCHREALTIME $((id + io)) $((us + ni + sy + id + io + hi + si + st))"
		for p in "$@"; do
			# a process gone ends the sampling (the row failed)
			read -r ps 2> /dev/null < "/proc/$p/stat" || exit 0
			f=(${ps##*) })
			read -r on wait _ 2> /dev/null < "/proc/$p/schedstat" || on=0 wait=0
			line="$line $((${f[11]:-0} + ${f[12]:-0})) $((on + wait))"
		done
		echo "$line"
		read -r -t 0.5 -u 9 || true
	done ) > "$P/busy.txt" &
	BUSY=$!
}
busy_peak() {	# busy_peak NAME... [SPAN]
	local span=0
	kill "$BUSY" 2> /dev/null; wait "$BUSY" 2> /dev/null || true
	case ${!#} in [0-9]*) span=${!#}; set -- "${@:1:$#-1}";; esac
	awk -v hz="$hz" -v names="$*" -v span="$span" 'BEGIN { n = split(names, nm, " ") }
		{ t[NR] = $1; idle[NR] = $2; all[NR] = $3
		  for (i = 1; i <= n; i++) { c[NR, i] = $(2 + 2 * i); w[NR, i] = $(3 + 2 * i) } }
		END { for (r = 3; r <= NR; r++) for (i = 1; i <= n; i++) {
			dt = t[r] - t[r - 2]
			b = 100 * (c[r, i] - c[r - 2, i]) / hz / dt
			if (b > pk[i]) pk[i] = b
			d = 100 * (w[r, i] - w[r - 2, i]) / 1e9 / dt
			if (d > dk[i]) dk[i] = d }
		      for (i = 1; i <= n; i++) printf "%s_busy_pct=%.0f %s_demand_pct=%.0f ", nm[i], pk[i], nm[i], dk[i]
		      for (e = 1; e < NR && t[e + 1] - t[1] <= span; e++) ;
		      printf "span_idle_pct=%.0f", (all[e] > all[1] ? 100 * (idle[e] - idle[1]) / (all[e] - all[1]) : 0) }' "$P/busy.txt"
}
# rcvbuf_err NS: datagrams the namespace's UDP sockets dropped, their
# receive buffers full (RcvbufErrors of /proc/net/snmp)
rcvbuf_err() { ip netns exec "$1" awk '/^Udp:/ && ++n == 2 { print $6 }' /proc/net/snmp; }
# j FILE EXPR: a value from a JSON file (Python expression over j)
j() { python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
# gen NAME N RATE DOMAIN NS IF [ARGS...]: subgen with N subscribers from
# number $first on; JSON in $P/NAME.json (the caller moves $first on)
gen() {
	local name=$1 n=$2 rate=$3 dom=$4 ns=$5 ifc=$6
	shift 6
	ip netns exec "$ns" "$GEN" -i "$ifc" -n "$n" -r "$rate" --first "$first" \
		-u "s%d@$dom" -p secret -a pap -j --csv "$P/$name.csv" "$@" \
		> "$P/$name.json" 2> "$P/$name-gen.log" ||
		say "$name: subgen exited $? ($(tail -n 2 "$P/$name-gen.log" | tr '\n' ' '))"
}
# watch_start NAME N: follow the LAC's logins until N have ended
watch_start() {
	rm -f "$P/$1.ready"
	python3 "$top/bench/vm/storm_watch.py" "$SOCK" "$P/$1.ready" "$P/$1-watch.json" "$2" 30 &
	WATCH=$!
	for _ in $(seq 100); do [ -f "$P/$1.ready" ] && break; sleep 0.05; done
}
# access_fields NAME: the access side's medians over every subscriber, up or
# not: PADI to PADS (disc_all_ms) and PADS to the LCP first opened
# (lcp1_ms: the LAC's own LCP, before any the LNS renegotiates)
access_fields() {
	python3 - "$P/$1.csv" << 'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def p50(k):
    v = sorted(float(r[k]) for r in rows if r.get(k))
    return v[len(v) // 2] if v else 0
print("disc_all_ms=%.1f lcp1_ms=%.1f" % (p50("discovery_ms"), p50("first_lcp_ms")))
PY
}
gen_fields() {	# subgen's figures as row fields
	j "$1" '"up=%d failed=%d per_s=%.1f p50_ms=%.1f p99_ms=%.1f disc_ms=%.1f lcp_ms=%.1f auth_ms=%.1f ipcp_ms=%.1f gen_rtx=%d gen_cpu_us=%.0f" % (j["up"], j["failed"], j["rate"]["up"], j["setup_ms"]["p50"], j["setup_ms"]["p99"], j["stage_ms"]["discovery"]["p50"], j["stage_ms"]["lcp"]["p50"], j["stage_ms"]["auth"]["p50"], j["stage_ms"]["ipcp"]["p50"], j["retransmissions"]["total"], j["cpu"]["us_per_subscriber"])'
}

# --- 1. the floor: subresp in the LAC's namespace on a veth pair of its own ----
if part floor; then
ip -n "$LAC" link add fl0 type veth peer name fl1 netns "$SUB"
ip -n "$LAC" link set fl0 up
ip -n "$SUB" link set fl1 up
ip netns exec "$LAC" "$RESP" -i fl0 -a pap -j > "$P/subresp.json" 2> "$P/subresp.log" &
RESPID=$!
pids+=($RESPID)
sleep 0.2
for r in $RUNS; do
	n=${r%%:*} rate=${r##*:}
	say "floor: $n subscribers at $rate/s against subresp"
	idle_mark
	gen "floor-$n" "$n" "$rate" floor "$SUB" fl1
	first=$((first + n))
	echo "storm floor $n rate=$rate $(gen_fields "$P/floor-$n.json") $(idle_pct)" >> "$res"
done
kill -INT "$RESPID" 2> /dev/null || true
fi

# STORM_PERF=1: perf of the whole guest (perf cannot follow a process into
# another namespace) over a part's rows, reported by process and symbol
PERF=
perf_start() {
	PERF=
	if [ "${STORM_PERF:-0}" = 1 ] && command -v perf > /dev/null; then
		perf record -q -a -g -F 499 -o "$P/perf-$1.data" 2> "$P/perf-$1-record.log" &
		PERF=$!
	fi
}
perf_stop() {
	[ -n "$PERF" ] || return 0
	kill -INT "$PERF"; wait "$PERF" || true
	perf report -i "$P/perf-$1.data" --stdio --no-children --percent-limit 0.5 \
		> "$P/perf-$1.log" 2>&1 || true
	perf report -i "$P/perf-$1.data" --stdio --no-children -g none --sort comm,dso,sym \
		--percent-limit 0.3 > "$P/perf-$1-flat.log" 2>&1 || true
	perf report -i "$P/perf-$1.data" --stdio --no-children -g none --sort comm,dso \
		> "$P/perf-$1-comm.log" 2>&1 || true
	PERF=
}

# --- 2. the l2tpseld LNS: logins up to the bridged call ---------------------------
# Its subscribers stay in authentication (their PAP sent again every second,
# 10 times, unanswered), so every session is still counted when the storm's
# last login ends; then they give up and send PADT.
if part lns; then
perf_start lac
for r in $RUNS; do
	n=${r%%:*} rate=${r##*:}
	idle
	say "l2tpseld LNS: $n subscribers at $rate/s"
	c0=$(cpu_ticks "$AGENT") d0=$(stat "$SOCK" duplicates)
	python3 "$top/bench/vm/cpu_by_proc.py" snap "$P/cpu0.json" || true
	idle_mark
	SAMPLER=
	if [ "${STORM_SAMPLE:-0}" = 1 ]; then
		python3 "$top/bench/vm/sample_proc.py" "$AGENT" "$P/lac-sample-$n.log" &
		SAMPLER=$!
	fi
	watch_start "lns-$n" "$n"
	gen "lns-$n" "$n" "$rate" lns "$SUB" sw0 -d 15000 &
	GENPID=$! first=$((first + n))
	wait "$WATCH" || true
	c1=$(cpu_ticks "$AGENT") d1=$(stat "$SOCK" duplicates)
	python3 "$top/bench/vm/cpu_by_proc.py" diff "$P/cpu0.json" "$n" "$P/cpu-lns-$n.txt" || true
	[ -z "$SAMPLER" ] || { kill "$SAMPLER"; wait "$SAMPLER" || true; }
	wait "$GENPID" || true
	echo "storm lns $n rate=$rate $(j "$P/lns-$n-watch.json" '"ok=%d failed=%d per_s=%.1f p50_ms=%.1f p99_ms=%.1f call_ms=%.1f kernel_ms=%.1f" % (j["ok"], j["failed"], j["per_s"], j["setup_ms"]["p50"], j["setup_ms"]["p99"], j["call_ms"]["p50"], j["kernel_ms"]["p50"])') lns_rtx=$((d1 - d0)) lac_cpu_us=$(us_per $((c1 - c0)) "$n") $(access_fields "lns-$n") $(idle_pct)" >> "$res"
done
perf_stop lac
fi

# --- 3. destination-equal over four equal LNS, AT_ONCE logins at once -----------
if part spread; then
idle
say "spread: $AT_ONCE at once over four equal LNS"
watch_start spread "$AT_ONCE"
gen spread "$AT_ONCE" "$AT_ONCE" eq "$SUB" sw0 -d 15000 &
GENPID=$! first=$((first + AT_ONCE))
wait "$WATCH" || true
wait "$GENPID" || true
echo "storm spread $AT_ONCE rate=$AT_ONCE $(j "$P/spread-watch.json" '"ok=%d min=%d max=%d mean=%.1f spread_pct=%.1f" % ((lambda v: (j["ok"], min(v), max(v), sum(v) / 4, (max(v) - min(v)) * 400.0 / sum(v) if sum(v) else 0))([j["tunnels"].get(t, 0) for t in ("e1", "e2", "e3", "e4")]))')" >> "$res"
fi

# --- 4. max-sessions: four level-0 tunnels of LIMIT, a level-1 one unlimited ---
if part maxsess; then
idle
say "max-sessions: $AT_ONCE at once, level 0 max-sessions $LIMIT x 4"
watch_start maxsess "$AT_ONCE"
gen maxsess "$AT_ONCE" "$AT_ONCE" max "$SUB" sw0 -d 15000 &
GENPID=$! first=$((first + AT_ONCE))
wait "$WATCH" || true
# the module's own counts at the peak (every login done, none ended yet)
ip netns exec "$LAC" "$L" -j tunnel show > "$P/maxsess-tunnels.json" 2> /dev/null || true
wait "$GENPID" || true
worst=$(python3 - "$P/maxsess-tunnels.json" << 'PY'
import json, sys
try:
    t = json.load(open(sys.argv[1]))
except Exception:
    print(-1); sys.exit()
if isinstance(t, dict):
    t = t.get("tunnels", [])
print(max([x.get("sessions", 0) for x in t if x.get("tunnel") in ("m1", "m2", "m3", "m4")] or [-1]))
PY
)
echo "storm maxsess $AT_ONCE rate=$AT_ONCE $(j "$P/maxsess-watch.json" '"ok=%d level1=%d" % (j["ok"], j["tunnels"].get("m5", 0))') limit=$LIMIT worst=$worst overshoot=$((worst > LIMIT ? worst - LIMIT : 0))" >> "$res"
fi

# --- 5. l2tpns: PADI to IPCP up at the subscriber --------------------------------
# l2tpns_rows NAME: the rows "storm NAME N ..." against l2tpns; "l2tpns"
# with l2tpns and its RADIUS server sharing the guest's two CPUs with the
# LAC agent and the generator as equals, "l2tpns-own" with the two of them
# at nice -10: first to a CPU whenever they want one, as on the LNS's own
# machine (an operator's LNS does not run on the LAC), so that the rows
# measure the LAC and not the scheduler's sharing
l2tpns_rows() {
local name=$1 r n rate c0 c1 l0 l1 d0 d1 b0 a0 CAP SAMPLER STOPSIG
idle
while [ $((SECONDS - t_l2tpns)) -lt 60 ] && ! grep -qsi 'master' "$P/l2tpns.log"; do sleep 0.5; done
grep -qsi 'master' "$P/l2tpns.log" || { tail -n 5 "$P/l2tpns.log" "$P/l2tpns.out" >&2; say "l2tpns did not become master"; exit 1; }
LPID=$(cat "$P/l2tpns.pid")
if [ "$name" = l2tpns-own ]; then renice -n -10 -p "$LPID" "$RADIUS" > /dev/null
else renice -n 0 -p "$LPID" "$RADIUS" > /dev/null; fi
perf_start "$name"
for r in $RUNS; do
	n=${r%%:*} rate=${r##*:}
	idle
	say "$name: $n subscribers at $rate/s"
	c0=$(cpu_ticks "$AGENT") l0=$(cpu_ticks "$LPID") d0=$(stat "$SOCK" duplicates)
	b0=$(rcvbuf_err "$LNS") a0=$(rcvbuf_err "$LAC")
	python3 "$top/bench/vm/cpu_by_proc.py" snap "$P/cpu0.json" || true
	idle_mark
	busy_start "$AGENT" "$LPID"
	CAP=
	if [ "${STORM_PCAP:-0}" = 1 ] && command -v tcpdump > /dev/null; then
		ip netns exec "$LAC" tcpdump -q -n -i bl0 -s 256 -B 16384 -w "$P/$name-$n.pcap" udp 2> "$P/tcpdump.log" &
		CAP=$!
		sleep 1
	fi
	SAMPLER= STOPSIG=TERM
	if [ "${STORM_SAMPLE:-0}" = 1 ]; then
		python3 "$top/bench/vm/sample_proc.py" "$AGENT" "$P/lac-sample-$name-$n.log" 50 &
		SAMPLER=$!
	elif [ "${STORM_STRACE:-0}" = 1 ] && command -v strace > /dev/null; then
		strace -c -f -p "$AGENT" -o "$P/strace-$name-$n.txt" 2> /dev/null &
		SAMPLER=$!
		sleep 1
	elif [ "${STORM_BPF:-0}" = 1 ] && command -v bpftrace > /dev/null; then
		bpftrace "$top/bench/vm/loop_syscalls.bt" "$AGENT" > "$P/bpf-$name-$n.raw" 2>&1 &
		SAMPLER=$! STOPSIG=INT
		# it compiles its program first: minutes, in TCG
		for _ in $(seq 600); do grep -qs '^Attaching' "$P/bpf-$name-$n.raw" && break; sleep 0.5; done
	fi
	gen "$name-$n" "$n" "$rate" l2tpns "$SUB" sw0 --hold 1000
	[ -z "$SAMPLER" ] || { kill -"$STOPSIG" "$SAMPLER"; wait "$SAMPLER" || true; }
	[ ! -f "$P/bpf-$name-$n.raw" ] ||
		python3 "$top/bench/vm/loop_syscalls.py" "$P/bpf-$name-$n.raw" "$n" "$P/syscalls-$name-$n.txt"
	[ -n "$CAP" ] && { kill -INT "$CAP"; wait "$CAP" 2> /dev/null || true; }
	first=$((first + n))
	c1=$(cpu_ticks "$AGENT") l1=$(cpu_ticks "$LPID") d1=$(stat "$SOCK" duplicates)
	python3 "$top/bench/vm/cpu_by_proc.py" diff "$P/cpu0.json" "$n" "$P/cpu-$name-$n.txt" || true
	echo "storm $name $n rate=$rate $(gen_fields "$P/$name-$n.json") lns_rtx=$((d1 - d0)) lac_cpu_us=$(us_per $((c1 - c0)) "$n") lns_cpu_us=$(us_per $((l1 - l0)) "$n") lac_rss_kb=$(rss_kb "$AGENT") $(access_fields "$name-$n") $(busy_peak lac lns "$(j "$P/$name-$n.json" '"%.1f" % (j["up"] / j["rate"]["up"] if j["rate"]["up"] else 0)')") lns_rcvbuf_drops=$(($(rcvbuf_err "$LNS") - b0)) lac_rcvbuf_drops=$(($(rcvbuf_err "$LAC") - a0)) $(idle_pct)" >> "$res"
done
perf_stop "$name"
}
part l2tpns && l2tpns_rows l2tpns
part l2tpns-own && l2tpns_rows l2tpns-own
cat "$res" >&2
say "done"
