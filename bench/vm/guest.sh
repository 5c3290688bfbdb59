#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The VM half of `make bench` (scripts/bench.sh runs it with
# selftests/vm/vm.sh): load l2tpsel.ko, grow its tables step by step and at
# every step time the decisions (login round trip, admission round trip)
# next to a bare nlctrl GETFAMILY on the same socket, read the kernel's
# memory, and time dumps next to an rtnetlink route dump of as many routes.
#
#   bench/vm/guest.sh {tiny|full} OUTDIR
#
# Writes OUTDIR/vm.txt, one measurement a line:
#   login  WHAT N count=C begin_ns=.. report_ns=.. getfamily_ns=.. best_of=R
#   admit  sessions N count=C up_ns=.. down_ns=.. getfamily_ns=.. best_of=R
#          (medians of C round trips, each followed by a GETFAMILY; the lowest of R runs)
#   login-cli domain N ...  `l2tpsel login bench` once (means), as a cross-check
#   mem    WHAT N free_kb=.. sunreclaim_kb=..     (after the step, caches dropped;
#                                               N = 0: right before the steps of WHAT;
#                                               dest, dest-same: and cg_slab_b=..)
#   dump   WHAT N count=.. ns=.. per_ns=..
#   load   WHAT N count=.. ns=.. per_ns=..
set -eu

size=${1:-}
out=${2:-}
if [ "$size" != tiny ] && [ "$size" != full ] || [ -z "$out" ]; then
	echo "usage: bench/vm/guest.sh {tiny|full} OUTDIR" >&2
	exit 2
fi
if [ -z "${L2TPSEL_VM:-}" ]; then
	echo "guest.sh: runs in the VM (scripts/bench.sh starts it there)" >&2
	exit 2
fi
top=$(cd "$(dirname "$0")/../.." && pwd -P)
L=$top/build/l2tpsel
B=$top/build/bench-nl
KO=$top/kmod/l2tpsel.ko
mkdir -p "$out"
res=$out/vm.txt
: > "$res"

if [ "$size" = full ]; then
	PROFILES="1 1000 10000 100000"
	DOMAINS="1 1000 10000 100000"
	SESSIONS="1 1000 10000 100000 1000000"
	ROUTES="10000 100000"
	DUMPS=" 10000 100000 "
	C=300
	REPS=3
	TUN_PROFILES=100
	DESTS=4065
else
	PROFILES="1 100"
	DOMAINS="1 100 1000"
	SESSIONS="1 100 1000"
	ROUTES="1000"
	DUMPS=" 1000 "
	C=100
	REPS=2
	TUN_PROFILES=4
	DESTS=40
fi

say() { echo "guest: $*" >&2; }
rec() { echo "$*" >> "$res"; }
# m KIND WHAT N CMD...: record CMD's NAME=VALUE line; a failure ends the run.
m() {
	local kind=$1 what=$2 n=$3 v
	shift 3
	v=$("$@") || { echo "guest: $kind $what $n: $* failed" >&2; exit 1; }
	rec "$kind $what $n $v"
}

# mem: MemFree and SUnreclaim once they settle (what the kernel frees
# after an RCU grace period, sockets and skbs among it, is freed in
# batches): read until two readings 0.5 s apart differ by under 64 kB, at
# most 20 times
mem() {
	local a b i
	read_mem() {
		sync
		echo 3 > /proc/sys/vm/drop_caches
		awk '/^MemFree:/ { f = $2 } /^SUnreclaim:/ { s = $2 }
		     END { printf "free_kb=%d sunreclaim_kb=%d\n", f, s }' /proc/meminfo
	}
	a=$(read_mem)
	for ((i = 0; i < 20; i++)); do
		sleep 0.5
		b=$(read_mem)
		awk -v a="${a#free_kb=}" -v b="${b#free_kb=}" 'BEGIN { d = a - b; exit !(d < 64 && d > -64) }' && break
		a=$b
	done
	echo "$b"
}

# best CMD...: run CMD (which prints NAME=VALUE words) REPS times; keep the
# lowest of every value but count, and say how many runs: the other VMs on
# this machine only ever add time.
best() {
	local r
	for ((r = 0; r < REPS; r++)); do
		"$@" || return 1
	done | awk -v reps="$REPS" '{ for (i = 1; i <= NF; i++) { split($i, kv, "=")
			if (!(kv[1] in v)) { order[++n] = kv[1]; v[kv[1]] = kv[2] }
			else if (kv[1] != "count" && kv[2] + 0 < v[kv[1]] + 0) v[kv[1]] = kv[2] } }
		END { if (!n) exit 1
		      for (i = 1; i <= n; i++) printf "%s=%s ", order[i], v[order[i]]
		      printf "best_of=%d\n", reps }'
}

# The CLI's own bench (means, GETFAMILY after all logins), once, as a cross-check:
# "count 2000 begin-ns 1 report-ns 2 getfamily-ns 3 ..."
login_cli() {
	"$L" login bench "$@" | awk '{ for (i = 1; i < NF; i++) {
		if ($i == "count") c = $(i + 1); if ($i == "begin-ns") b = $(i + 1)
		if ($i == "report-ns") r = $(i + 1); if ($i == "getfamily-ns") g = $(i + 1) } }
		END { if (c == "") exit 1
		      printf "count=%s begin_ns=%s report_ns=%s getfamily_ns=%s\n", c, b, r, g }'
}
login_bench() { best "$B" login-bench "$@"; }

dumps_at() { case "$DUMPS" in *" $1 "*) return 0 ;; esac; return 1; }

# Pages freed into the per-CPU lists are not in MemFree: with the lists at
# their default size (megabytes in a 2 GB guest) a dump or a login bench
# between two readings moved them by up to 13 MB.  The lists kept at their
# smallest (a fraction this high clamps each to four batches) leave a
# reading within a megabyte or two.
echo 1000000 > /proc/sys/vm/percpu_pagelist_high_fraction

[ -d /sys/module/l2tpsel ] && rmmod l2tpsel
# The tables' sizes go past the per-namespace caps' defaults (4096 profiles,
# 16384 domains: Documentation/design.md); the caps are raised for the run.
insmod "$KO" max_profiles=200000 max_domains=200000
# The chassis refuses sessions at its maximum (1M by default).
"$B" limit-max 2000000 > /dev/null
m mem base 0 mem

# Profiles, one tunnel each (to 10.201.0.1).
say "profiles: $PROFILES"
have=0
for n in $PROFILES; do
	m load profile $n "$B" profiles $have "$n"
	have=$n
	m mem profile $n mem
	m login profile $n login_bench "$C" "p$((n - 1))"
	dumps_at "$n" && m dump profile $n "$B" dump profile
done
# Tunnels: fill profiles p1.. up to 8 levels x 31 (the 8x31 shape).
say "tunnels: $TUN_PROFILES profiles x 248"
m mem tunnel 0 mem
m load tunnel $((TUN_PROFILES * 247)) "$B" tunnels 1 $((TUN_PROFILES + 1)) 248
m mem tunnel $((TUN_PROFILES * 247)) mem
m login tunnels-8x31 1 login_bench "$C" p1

# Domains, all mapped to p0; the login names the last one.
say "domains: $DOMAINS"
m mem domain 0 mem
have=0
for n in $DOMAINS; do
	m load domain $n "$B" domains $have "$n" p0
	have=$n
	m mem domain $n mem
	m login domain $n login_bench "$C" "u@d$((n - 1)).example"
	dumps_at "$n" && m dump domain $n "$B" dump domain
done
m login-cli domain "$have" login_cli "$C" "u@d$((have - 1)).example"

# The read path against a login: logins to p0 while another process dumps
# every domain over and over (each dump part under the namespace mutex),
# next to the same logins with no dump.
m readpath none "$have" "$B" login-under-dump "$C" p0 none
m readpath dump "$have" "$B" login-under-dump "$C" p0 domain

# Live sessions (admission counters on chassis and 1000 L2TP tunnels).
say "sessions: $SESSIONS"
m mem session 0 mem
have=0
for n in $SESSIONS; do
	m load session $n "$B" sessions $have "$n"
	have=$n
	m mem session $n mem
	m admit sessions $n best "$B" session-bench "$C"
	m login sessions $n login_bench "$C" p0
	dumps_at "$n" && m dump session $n "$B" dump session
done

# The peer for memory and dumps: IPv4 routes (blackhole /32s in main).
say "routes: $ROUTES"
m mem route 0 mem
have=0
for n in $ROUTES; do
	m load route $n "$B" routes $have "$n"
	have=$n
	m mem route $n mem
	m dump route $n "$B" dump route
done

# Destinations: the tunnels so far name 31 (10.201.0.1-31, the first of the
# table's 64-slot chunks).  A second tunnel in each of DESTS one-tunnel
# profiles, each to a new address (10.202.x.y): full, the table's 4096 slots
# filled, 63 more chunks by need.  The control: a second tunnel in each of
# as many other one-tunnel profiles, all to 10.201.0.2 (there already), the
# same growth of their arrays and destination lists with no new slot.  The
# difference of the two steps is the destinations' (scripts/bench.sh).
# The table's 252 KiB are under the readings' noise, so the loader runs in
# a memory cgroup of its own too: the module charges what a request
# allocates to the requester's cgroup (GFP_KERNEL_ACCOUNT), and the cgroup's
# slab_unreclaimable counts it in bytes, per object (cg_slab_b=).
say "destinations: $DESTS"
cg=
cgroot=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
if [ -z "$cgroot" ] && mount -t cgroup2 none /sys/fs/cgroup; then
	cgroot=/sys/fs/cgroup
fi
if [ -n "$cgroot" ] && echo +memory > "$cgroot/cgroup.subtree_control" &&
   mkdir -p "$cgroot/l2tpsel-bench"; then
	cg=$cgroot/l2tpsel-bench
else
	say "no memory cgroup: the destination rows go without their slab figure"
fi
# mem_cg: mem and the cgroup's slab_unreclaimable
mem_cg() {
	local v
	v=$(mem)
	[ -n "$cg" ] && v="$v $(awk '$1 == "slab_unreclaimable" { print "cg_slab_b=" $2 }' "$cg/memory.stat")"
	echo "$v"
}
# incg CMD...: CMD in the cgroup (when there is one)
incg() { ( [ -z "$cg" ] || echo "$BASHPID" > "$cg/cgroup.procs"; exec "$@" ); }
from=$((TUN_PROFILES + 1))
m mem dest 0 mem_cg
m load dest "$DESTS" incg "$B" dests "$from" $((from + DESTS))
m mem dest "$DESTS" mem_cg
from=$((from + DESTS))
m mem dest-same 0 mem_cg
m load dest-same "$DESTS" incg "$B" dests "$from" $((from + DESTS)) 10.201.0.2
m mem dest-same "$DESTS" mem_cg

# The agent (bench/vm/agent.sh) on a fresh module: sessions per second
# against xl2tpd as LAC, failover cost.  Its failure costs only its rows.
rmmod l2tpsel
if [ -x "$top/build/l2tpseld" ]; then
	say "agent"
	insmod "$KO"
	if ! timeout 600 "$top/bench/vm/agent.sh" "$size" "$res" 2> "$out/agent.log"; then
		tail -n 20 "$out/agent.log" >&2
		rec "agent failed 1"
	fi
	rmmod l2tpsel
else
	rec "agent missing 1"
fi
say "done"
