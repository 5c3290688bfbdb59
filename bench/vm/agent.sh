#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The agent part of the VM benchmark (bench/vm/guest.sh runs it with a fresh
# l2tpsel.ko loaded), control plane only: sessions per second through
# l2tpseld as LAC and through xl2tpd as LAC, against the same xl2tpd LNS and
# against the same l2tpseld LNS; l2tpseld's setup and logout rates against
# the number of logins at once, with their latency, CPU and where a login's
# time goes; the same message exchange between two bare UDP sockets (the
# floor); and the failover cost: how long a login waits when the top-level
# LNS is dead, the first one and the ones after it inside the lockout, next
# to the same logins to a live LNS.
#
#   bench/vm/agent.sh {tiny|full} RESULT_FILE
#
# Appends lines to RESULT_FILE:
#   agent serial N count=N ms=.. per_s=..       l2tpseld LAC, N logins one after another (xl2tpd LNS)
#   agent xl2tpd N count=N ms=.. per_s=..       xl2tpd LAC, N calls one after another (xl2tpd LNS)
#   agent serial-sel N ...                      the same two against the l2tpseld LNS
#   agent xl2tpd-sel N ...
#   agent scale C count=N ok=.. per_s=.. p50_ms=.. p99_ms=.. kernel_us=.. tunnel_us=..
#         call_us=.. own_us=.. lac_cpu_us=.. lns_cpu_us=.. best_of=R
#                                               l2tpseld LAC, N logins C at a time (l2tpseld LNS)
#   agent logout C count=N ok=.. per_s=.. p50_ms=.. p99_ms=.. lns_left=.. lac_cpu_us=.. best_of=R
#                                               their logouts, C at a time, until the LNS has none
#   agent floor C count=N per_s=.. p50_ms=.. p99_ms=..
#                                               bench-nl udp-floor: N exchanges, C at a time
#   agent failover-first 1 ms=..                 top LNS silent, first login
#   agent live-first 1 ms=..                     live LNS, first login (tunnel setup)
#   agent failover-later K ms=..                 median of K logins inside the lockout
#   agent live-later K ms=..                     median of K logins, tunnel up
#   agent sccrq-timeout 1 ms=..                  the agent's setting in this run
#
# The agent's logins come from bench-nl agent, a connection per login, each
# asking "brief" (the done line only).
#
# Control plane only: the agents run "dataplane none" (the l2tpseld LNS
# "kernel none" too: the module is the LAC's), and the xl2tpd LNS and
# LAC run in a mount namespace of their own where /usr/sbin/pppd is a stub
# that sleeps (xl2tpd starts pppd once a call is up; it cannot run without).
# xl2tpd as LAC carries one session per "lac" section, each in a tunnel of
# its own, and takes one control command at a time: its calls are made one
# after another, each waited for, and so are the agent's in the row compared
# with it.  The agent's logins go through its API from bench-nl (one
# connection per login at a time, each carrying its logins one after
# another, as a front end's control connection would; `l2tpsel login
# start` would add a process start per login); each xl2tpd call is one write
# to its control pipe, its end read from its log as it is written.
set -eu

size=$1
res=$2
top=$(cd "$(dirname "$0")/../.." && pwd -P)
L=$top/build/l2tpsel
D=$top/build/l2tpseld
T=$(mktemp -d /tmp/bench-agent.XXXXXX)
logs=$(dirname "$res")/agent-logs
SOCK=$T/lac.sock
pids=()

# SCALE: "C:N" pairs, N logins C at a time
if [ "$size" = full ]; then
	N=100 K=7 XN=60 SCCRQ=10s SCALE="1:100 10:200 100:500 1000:1000" REPS=3
else
	N=20 K=3 XN=5 SCCRQ=1s SCALE="1:20 10:20 100:100" REPS=1
fi

cleanup() {
	set +e	# a daemon already gone must not end the cleanup
	local p
	for p in "${pids[@]}"; do kill "$p" 2> /dev/null || true; done
	[ -f "$T/x/lns.pid" ] && kill "$(cat "$T/x/lns.pid")" 2> /dev/null
	[ -f "$T/x/lac.pid" ] && kill "$(cat "$T/x/lac.pid")" 2> /dev/null
	# only the daemons: the log reader (tail --pid) ends after this script
	wait "${pids[@]}" 2> /dev/null || true
	# the daemons' logs beside the results (vm/agent-logs/): why a login failed
	mkdir -p "$logs"
	cp "$T/lac.log" "$logs/l2tpseld-lac.log" 2> /dev/null
	cp "$T/lns.log" "$logs/l2tpseld-lns.log" 2> /dev/null
	cp "$T/x/lns.log" "$logs/xl2tpd-lns.log" 2> /dev/null
	cp "$T/x/lac.log" "$logs/xl2tpd-lac.log" 2> /dev/null
	rm -rf "$T"
}
trap cleanup EXIT

say() { echo "agent: $*" >&2; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
per_s() { awk -v n="$1" -v ms="$2" 'BEGIN { printf "%.1f", n * 1000 / (ms ? ms : 1) }'; }

[ -x "$D" ] || { echo "agent: $D is missing" >&2; exit 1; }
command -v xl2tpd > /dev/null || { echo "agent: xl2tpd is not installed" >&2; exit 1; }

common=(-o 'log-level 1' -o 'dataplane none')
# The dead LNS: an l2tpseld that answers nothing (kernel none: the module
# belongs to the LAC here).
"$D" "${common[@]}" -o 'kernel none' -o 'listen 127.0.0.3 port 1701' -o 'socket none' \
	-o 'hostname dead' -o 'test-mode yes' -o 'lns-mode silent' 2> "$T/dead.log" &
pids+=($!)

# The l2tpseld LNS: the peer that is not the bottleneck.
"$D" "${common[@]}" -o 'kernel none' -o 'listen 127.0.0.4 port 1701' -o "socket $T/lns.sock" \
	-o 'hostname lns' 2> "$T/lns.log" &
LNS_PID=$!
pids+=($LNS_PID)

# The xl2tpd LNS, and xl2tpd as LAC with XN lac sections to each LNS; pppd stubbed.
mkdir -p "$T/x"
printf '#!/bin/sh\nexec sleep 600\n' > "$T/x/pppd"
chmod +x "$T/x/pppd"
echo noauth > "$T/x/options"
printf '%s\n' '[global]' 'listen-addr = 127.0.0.2' 'port = 1701' 'access control = no' '' \
	'[lns default]' 'ip range = 10.99.0.10-10.99.3.250' 'local ip = 10.99.0.1' \
	'require authentication = no' 'refuse pap = yes' 'refuse chap = yes' \
	"pppoptfile = $T/x/options" > "$T/x/lns.conf"
{
	printf '%s\n' '[global]' 'listen-addr = 127.0.0.10' 'port = 1701' 'access control = no'
	for i in $(seq "$XN"); do
		printf '\n[lac b%d]\nlns = 127.0.0.2\nautodial = no\nredial = no\npppoptfile = %s\n' \
			"$i" "$T/x/options"
		printf '\n[lac s%d]\nlns = 127.0.0.4\nautodial = no\nredial = no\npppoptfile = %s\n' \
			"$i" "$T/x/options"
	done
} > "$T/x/lac.conf"
unshare -m sh -c "mount --bind '$T/x/pppd' /usr/sbin/pppd || exit 1
	xl2tpd -D -c '$T/x/lns.conf' -p '$T/x/lns.pid' -C '$T/x/lns.ctl' > '$T/x/lns.log' 2>&1 &
	xl2tpd -D -c '$T/x/lac.conf' -p '$T/x/lac.pid' -C '$T/x/lac.ctl' > '$T/x/lac.log' 2>&1 &
	wait" &
pids+=($!)

# The agent as LAC, on the module's selection.
"$D" "${common[@]}" -o 'port 17011' -o "socket $SOCK" -o "sccrq-timeout $SCCRQ" \
	-o "icrq-timeout $SCCRQ" 2> "$T/lac.log" &
LAC_PID=$!
pids+=($LAC_PID)
printf '%s\n' 'profile add ok' 'tunnel add t-ok profile ok level 0 dest 127.0.0.2' \
	'profile add fo' 'tunnel add t-dead profile fo level 0 dest 127.0.0.3' \
	'tunnel add t-ok2 profile fo level 1 dest 127.0.0.2' \
	'profile add sel' 'tunnel add t-sel profile sel level 0 dest 127.0.0.4' > "$T/conf"
"$L" -b "$T/conf"
for _ in $(seq 200); do
	[ -S "$SOCK" ] && [ -S "$T/lns.sock" ] && [ -p "$T/x/lac.ctl" ] && [ -p "$T/x/lns.ctl" ] && break
	sleep 0.05
done
if ! [ -S "$SOCK" ] || ! [ -S "$T/lns.sock" ] || ! [ -p "$T/x/lac.ctl" ] || ! [ -p "$T/x/lns.ctl" ]; then
	cat "$T/lac.log" "$T/lns.log" "$T"/x/*.log >&2
	echo "agent: the agent or xl2tpd did not start" >&2
	exit 1
fi

B=$top/build/bench-nl
# why: what the agent and the LNS said about failed logins
why() {
	grep -E 'outcome [0-9]+ ' "$T/lac.log" | grep -v 'outcome [0-9]* ok' | sort | uniq -c | sort -rn | head -n 5 >&2
	grep -v '^xl2tpd.*: "' "$T/x/lns.log" | grep -viE 'call established|start_pppd|connection established' |
		tail -n 10 >&2
}
# agent PROFILE PREFIX N CLIENTS: N logins through the agent's API (bench-nl:
# a connection per login, as a PPP front end would open)
agent() {
	"$B" agent "$SOCK" "$@" || { why; tail -n 20 "$T/lac.log" >&2; exit 1; }
}
field() { tr ' ' '\n' | sed -n "s/^$1=//p"; }

# -- failover cost, and the same logins to a live LNS
say "failover"
r=$(agent ok live 1 1)
echo "agent live-first 1 ms=$(field median_ms <<< "$r")" >> "$res"
r=$(agent fo fofirst 1 1)
[ "$(field max_attempts <<< "$r")" = 2 ] && [ "$(field ok <<< "$r")" = 1 ] ||
	{ echo "agent: the first login of profile fo did not fail over once: $r" >&2; exit 1; }
echo "agent failover-first 1 ms=$(field median_ms <<< "$r")" >> "$res"
r=$(agent fo folater "$K" 1)
[ "$(field max_attempts <<< "$r")" = 1 ] && [ "$(field ok <<< "$r")" = "$K" ] ||
	{ echo "agent: logins inside the lockout tried the dead LNS again: $r" >&2; exit 1; }
echo "agent failover-later $K ms=$(field median_ms <<< "$r")" >> "$res"
r=$(agent ok livelater "$K" 1)
echo "agent live-later $K ms=$(field median_ms <<< "$r")" >> "$res"
echo "agent sccrq-timeout 1 ms=$(( ${SCCRQ%s} * 1000 ))" >> "$res"

# cpu PID: its user + system time so far, in clock ticks
cpu() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
tick_us=$(( 1000000 / $(getconf CLK_TCK) ))
# cpu_us TICKS N: microseconds of CPU per item
cpu_us() { echo $(( $1 * tick_us / $2 )); }

# xl2tpd_calls PREFIX N: N calls through xl2tpd as LAC, one after another; ms
xl2tpd_calls() {
	local t0 i
	# Each "Call established" line of its log, as it is written: no polling.
	# tail ends with this script (--pid), grep with tail.
	exec 3< <(tail -n 0 -F --pid=$$ "$T/x/lac.log" 2> /dev/null | grep --line-buffered 'Call established')
	sleep 0.2	# tail's start, so that it sees the first call's line
	t0=$(now_ms)
	for i in $(seq "$2"); do
		echo "c $1$i" > "$T/x/lac.ctl"
		if ! read -r -t 300 -u 3 _; then
			grep -v '^xl2tpd.*: "' "$T/x/lac.log" | tail -n 20 >&2
			echo "agent: xl2tpd call $1$i of $2 was not established within 300 s" >&2
			exit 1
		fi
	done
	echo $(( $(now_ms) - t0 ))
	exec 3<&-
}

# -- sessions per second, one after another: the agent, then xl2tpd
for lns in xl2tpd sel; do
	if [ $lns = xl2tpd ]; then prof=ok xsec=b suf= ; else prof=sel xsec=s suf=-sel; fi
	say "l2tpseld: $N logins one after another to the $lns LNS"
	r=$(agent $prof "serial$suf" "$N" 1)
	[ "$(field ok <<< "$r")" = "$N" ] || { why; echo "agent: $r" >&2; exit 1; }
	echo "agent serial$suf $N count=$N ms=$(field ms <<< "$r") per_s=$(field per_s <<< "$r")" >> "$res"

	say "xl2tpd: $XN calls one after another to the $lns LNS"
	ms=$(xl2tpd_calls $xsec "$XN") || exit 1
	echo "agent xl2tpd$suf $XN count=$XN ms=$ms per_s=$(per_s "$XN" "$ms")" >> "$res"
done

# -- against concurrency: logins C at a time to the l2tpseld LNS, their
# logouts C at a time, and the floor.  Failed logins are a result here, not
# a stop: counted, and their reasons logged.  Each row is the fastest of
# REPS runs (logins, then their logouts), its figures all from that run:
# the other load on this machine only ever adds time, and a row of a few
# hundred milliseconds catches it whole.  A run with a failed login, or
# logouts that left sessions at the LNS, is the row instead: no failure
# is hidden.
ids=$T/ids
# faster A B: whether line B's per_s is above line A's (A empty: yes)
faster() { [ -z "$1" ] || awk -v a="$(field per_s <<< "$1")" -v b="$(field per_s <<< "$2")" 'BEGIN { exit !(b + 0 > a + 0) }'; }
for cn in $SCALE; do
	c=${cn%%:*} n=${cn##*:}
	best_in= best_out= failed= left=
	for ((rep = 1; rep <= REPS; rep++)); do
		say "l2tpseld: $n logins, $c at a time (run $rep of $REPS)"
		l0=$(cpu "$LAC_PID") s0=$(cpu "$LNS_PID")
		r=$("$B" agent "$SOCK" sel "c$c-$rep-" "$n" "$c" "$ids") || { why; tail -n 20 "$T/lac.log" >&2; exit 1; }
		l1=$(cpu "$LAC_PID") s1=$(cpu "$LNS_PID")
		line="count=$n $(tr ' ' '\n' <<< "$r" | grep -E '^(ok|ms|per_s|p50_ms|p99_ms|kernel_us|tunnel_us|call_us|own_us)=' | tr '\n' ' ')lac_cpu_us=$(cpu_us $((l1 - l0)) "$n") lns_cpu_us=$(cpu_us $((s1 - s0)) "$n")"
		# a run with a failed login is the row, whatever the others did
		if [ "$(field ok <<< "$r")" != "$n" ]; then
			why
			[ -n "$failed" ] || best_in=$line
			failed=1
		elif [ -z "$failed" ] && faster "$best_in" "$line"; then
			best_in=$line
		fi

		say "l2tpseld: their logouts, $c at a time"
		l0=$(cpu "$LAC_PID")
		r=$("$B" logout "$SOCK" "$ids" "$c" "$T/lns.sock") || { tail -n 20 "$T/lac.log" >&2; exit 1; }
		l1=$(cpu "$LAC_PID")
		line="$r lac_cpu_us=$(cpu_us $((l1 - l0)) "$(field count <<< "$r")")"
		# so is a run that left sessions at the LNS
		if [ "$(field lns_left <<< "$r")" != 0 ]; then
			[ -n "$left" ] || best_out=$line
			left=1
		elif [ -z "$left" ] && faster "$best_out" "$line"; then
			best_out=$line
		fi
	done
	echo "agent scale $c $best_in best_of=$REPS" >> "$res"
	echo "agent logout $c $best_out best_of=$REPS" >> "$res"

	r=$("$B" udp-floor "$n" "$c") || exit 1
	echo "agent floor $c $r" >> "$res"
done
say "done"
