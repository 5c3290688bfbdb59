#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Real L2TP peers for l2tpseld's end-to-end tests (S-L2TP-4): any
# number of xl2tpd LNS, silent destinations, xl2tpd LACs, each in a network
# namespace of its own with an address of its own, each linked to a "hub"
# namespace where the agent (or a probe) runs.  Source it after lib.sh:
#
#   source "$(dirname "$0")/../lib.sh"
#   source "$(dirname "$0")/../peers.sh"
#
#   peers_init [HUB_ADDR...]        hub ns $PEERS_HUB with the hub's addresses
#                                   (default 10.210.0.1); $PEERS_DIR
#   peer_add NAME ADDR [ADDR...]    ns for NAME with the ADDRs on its eth0
#   peers_add "NAME ADDR..." ...    several at once (batched: use this)
#   peers_ready                     wait until every LNS, LAC and silent
#                                   destination started so far is up: the
#                                   start functions below return at once
#                                   (peers_login, peers_probe, peer_lac_dial
#                                   call it; call it before using a peer in
#                                   any other way)
#   peer_lns_start NAME [cdn] [host H] [secret S]
#                                   xl2tpd LNS on ADDR:1701, PPP with pppd:
#                                   local 10.230.K.1, pool 10.230.K.10-250
#                                   (K = NAME's index); "cdn": every ICRQ is
#                                   answered with CDN (no address pool)
#   peer_silent_start NAME          a silent destination on all of NAME's
#                                   addresses, port 1701
#   peer_silent_count NAME [ADDR]   datagrams it swallowed so far (for ADDR)
#   peer_silent_stop NAME           end it (NAME may then run an LNS)
#   peer_lac_start NAME LNS_ADDR [host H] [secret S]
#                                   xl2tpd LAC (dials on peer_lac_dial)
#   peer_lac_dial NAME / peer_lac_hangup NAME
#   peer_netem NAME to|from|both ARGS...   tc netem on NAME's link ("to" =
#                                   towards NAME, "from" = from NAME)
#   peer_netem_clear NAME
#   peer_ns NAME                    NAME's namespace (also ${PEER_NS[NAME]})
#   peers_probe ADDR [ARGS...]      l2tpsel-dptest probe from the hub
#   peers_show                      logs and state, for a failing test
#
#   hub ns: HUB_ADDRs/32 on lo, forwarding and proxy ARP on (a router)
#     p-NAME  <veth>  eth0 ADDR/32, default route on-link   (NAME's ns)
#     a route ADDR/32 dev p-NAME per address of NAME
#
# A veth pair per peer and the hub as a router, not a bridge: the debug
# kernel (kernel/debug.config) has no bridge, and a router lets one peer reach
# another (an xl2tpd LAC dialing an xl2tpd LNS) all the same.  The hub
# answers ARP for its own addresses on every link (arp_ignore 0) and, by
# proxy ARP, for the other peers'.
#
# Everything is undone through lib.sh's defer.
#
# The silent destination: a UDP socket bound to ADDR:1701 that reads and
# discards (l2tpsel-dptest sink).  The address answers ARP, nothing ever comes
# back, and because a socket is bound the kernel sends no ICMP port
# unreachable either, which is what an overloaded or wedged LNS looks like
# and what lockout/failover must handle (S-SEL-*).  It counts what it
# swallowed, so a test can prove the agent really tried it (and how often it
# retransmitted).  Rejected alternatives: an address nobody owns (ARP fails,
# the sender's socket gets EHOSTUNREACH after 3 s: a different failure), a
# blackhole route on the return path (the peer's kernel still answers with
# nothing but the test cannot tell a lost SCCRQ from a received one), and
# nftables/iptables (not in scripts/deps.sh).

PEERS_DPTEST=${L2TPSEL_DPTEST:-$TOP/build/l2tpsel-dptest}
PEERS_HUB_ADDR=10.210.0.1
declare -A PEER_NS PEER_ADDR PEER_ADDRS PEER_IDX PEER_KIND PEER_PID
PEERS_N=0

# peers_require [debug]: skip unless xl2tpd, pppd with pppol2tp.so, tc,
# netem, l2tp_ppp and the dptest tool are here.
peers_require() {
	# On the debug kernel only the tests that say "debug" run (they drive
	# the module and the kernel data path under a live agent: fault_module,
	# l2tpseld_ppp); the others are the agent's and xl2tpd's work, which
	# KASAN adds nothing to, and cost about 20 minutes there
	# (Documentation/testing.md, "Real peers on the debug kernel").
	# L2TPSEL_PEERS_ON_DEBUG=1 runs them all, 0 none.
	if [ -n "$L2TPSEL_DEBUG_KERNEL" ]; then
		case "${L2TPSEL_PEERS_ON_DEBUG:-}:${1:-}" in
		1:*|:debug) ;;
		0:*) skip "real-peer tests left out on the debug kernel (L2TPSEL_PEERS_ON_DEBUG=0)" ;;
		*) skip "Debian's kernel only (L2TPSEL_PEERS_ON_DEBUG=1 runs it on the debug kernel)" ;;
		esac
	fi
	require_cmd ip tc xl2tpd pppd ping sysctl
	local m missing=()
	for m in veth l2tp_ppp sch_netem; do
		[ -d "/sys/module/$m" ] || missing+=("$m")
	done
	# One modprobe for all: a process start costs a second or more in the
	# emulated guest (several on the debug kernel).
	if [ ${#missing[@]} -gt 0 ]; then
		modprobe -q -a "${missing[@]}" 2>/dev/null
		for m in "${missing[@]}"; do
			[ -d "/sys/module/$m" ] || skip "kernel module $m is not available"
		done
	fi
	compgen -G '/usr/lib/pppd/*/pppol2tp.so' >/dev/null || skip "pppd has no pppol2tp.so plugin"
	[ -x "$PEERS_DPTEST" ] || skip "no $PEERS_DPTEST (run make)"
}

# peers_init [HUB_ADDR...]: the hub namespace, a router for its peers.
# Process starts are what setting up costs in the guest (seconds each on the
# debug kernel), so everything here and in peers_add is batched.
peers_init() {
	local a batch=$'link set lo up\n'
	PEERS_HUB=$(lib_ns_name PEERS_HUB)
	ip netns add "$PEERS_HUB" || { echo "cannot create netns $PEERS_HUB"; return 1; }
	defer ns_del "$PEERS_HUB"
	make_tmpdir PEERS_DIR || return 1
	[ $# -gt 0 ] || set -- $PEERS_HUB_ADDR
	PEERS_HUB_ADDR=$1
	for a in "$@"; do
		batch+="addr add $a/32 dev lo"$'\n'
	done
	ip -n "$PEERS_HUB" -batch - <<<"$batch" || return 1
	ip netns exec "$PEERS_HUB" sysctl -q -w net.ipv4.ip_forward=1 \
		net.ipv4.conf.all.proxy_arp=1 net.ipv4.conf.all.rp_filter=0 \
		net.ipv4.conf.default.rp_filter=0 >/dev/null
}

peer_ns() {
	echo "${PEER_NS[$1]}"
}

# peer_add NAME ADDR [ADDR...]: NAME's namespace, its veth pair to the hub,
# the addresses on it (the first is NAME's main address).
peer_add() {
	peers_add "$*"
}

# peers_add "NAME ADDR [ADDR...]" ...: peer_add for each, batched: one ip
# for the namespaces and veth pairs, one for the hub's side, one per peer
# (in parallel) for the peer's side.
peers_add() {
	local p name addr ns a root_batch= hub_batch= ns_batch pids=() rc=0 names=()
	[ -n "${PEERS_HUB:-}" ] || { echo "peer_add: peers_init first"; return 1; }
	for p in "$@"; do
		read -r name addr _ <<<"$p"
		[ -n "$addr" ] || { echo "peer_add: \"$p\" is not NAME ADDR [ADDR...]"; return 1; }
		[ ${#name} -le 12 ] || { echo "peer_add: name \"$name\" longer than 12"; return 1; }
		[ -z "${PEER_NS[$name]:-}" ] || { echo "peer_add: \"$name\" exists"; return 1; }
		ns=$(lib_ns_name "$name")
		PEERS_N=$((PEERS_N + 1))
		PEER_NS[$name]=$ns
		PEER_ADDR[$name]=$addr
		PEER_ADDRS[$name]=${p#"$name" }
		PEER_IDX[$name]=$PEERS_N
		names+=("$name")
		root_batch+="netns add $ns"$'\n'
		root_batch+="link add p-$name netns $PEERS_HUB type veth peer name eth0 netns $ns"$'\n'
		hub_batch+="link set p-$name up"$'\n'
		for a in ${PEER_ADDRS[$name]}; do
			hub_batch+="route add $a/32 dev p-$name"$'\n'
		done
	done
	# A namespace is deleted at exit even when the batch failed half way.
	for name in "${names[@]}"; do
		defer ns_del "${PEER_NS[$name]}"
	done
	ip -batch - <<<"$root_batch" || return 1
	ip -n "$PEERS_HUB" -batch - <<<"$hub_batch" || return 1
	for name in "${names[@]}"; do
		ns_batch=$'link set lo up\n'
		for a in ${PEER_ADDRS[$name]}; do
			ns_batch+="addr add $a/32 dev eth0"$'\n'
		done
		ns_batch+=$'link set eth0 up\nroute add default dev eth0\n'
		ip -n "${PEER_NS[$name]}" -batch - <<<"$ns_batch" &
		pids+=($!)
	done
	for p in "${pids[@]}"; do
		wait "$p" || rc=1
	done
	return $rc
}

# The pppd options of NAME's xl2tpd: no authentication, IPv4 only, quick
# LCP/IPCP restarts, a log of its own, none of the host's ip-up scripts.
_peer_ppp_options() {
	_peers_write "$PEERS_DIR/$1.options" <<-OPT
	noauth
	ipcp-accept-local
	ipcp-accept-remote
	nodefaultroute
	noipdefault
	mtu 1400
	mru 1400
	lcp-echo-interval 0
	lcp-restart 1
	ipcp-restart 1
	noipv6
	noccp
	ip-up-script /bin/true
	ip-down-script /bin/true
	logfile $PEERS_DIR/$1-pppd.log
	debug
	OPT
}

# _peers_write FILE: stdin (a here-document) into FILE, with builtins only.
_peers_write() {
	local t
	IFS= read -r -d '' t
	printf '%s' "$t" >"$1"
}

# Peers are started in the background and waited for together: the start
# functions return at once, peers_ready (called by peers_login, peers_probe
# and peer_lac_dial, and by a test before it uses its peers otherwise) waits
# until each has come up.  PEERS_PENDING[NAME] = "PID TEST FILE": NAME is up
# when "test TEST FILE" holds, dead when PID is gone.
declare -A PEERS_PENDING

# _peer_xl2tpd NAME: run xl2tpd with $PEERS_DIR/NAME.conf in NAME's ns.
_peer_xl2tpd() {
	local name=$1 d=$PEERS_DIR
	rm -f "$d/$name.ctrl"
	ip netns exec "${PEER_NS[$name]}" xl2tpd -D -c "$d/$name.conf" -p "$d/$name.pid" \
		-C "$d/$name.ctrl" -s "$d/$name.secrets" >"$d/$name-xl2tpd.log" 2>&1 &
	defer kill_wait $!
	PEERS_PENDING[$name]="$! -p $d/$name.ctrl"
}

_peer_up_or_dead() {
	test "$2" "$3" || ! kill -0 "$1" 2>/dev/null
}

# peers_ready: wait until every peer started since the last call is up;
# name the ones that are not.
peers_ready() {
	local name pid t f rc=0
	for name in "${!PEERS_PENDING[@]}"; do
		read -r pid t f <<<"${PEERS_PENDING[$name]}"
		unset "PEERS_PENDING[$name]"
		wait_for 10 _peer_up_or_dead "$pid" "$t" "$f"
		test "$t" "$f" && continue
		rc=1
		echo "peers: ${PEER_KIND[$name]:-} $name did not start (test $t $f):"
		tail -n 5 "$PEERS_DIR/$name"-*.log 2>/dev/null
	done
	return $rc
}

# _peer_secret NAME SECRET: an l2tp-secrets file ("*" both ways).
_peer_secret() {
	# Mode 600 from the start (a subshell, not a chmod process).
	(
		umask 077
		if [ -n "$2" ]; then
			printf '* * %s\n' "$2" >"$PEERS_DIR/$1.secrets"
		else
			: >"$PEERS_DIR/$1.secrets"
		fi
	)
}

# peer_lns_start NAME [cdn] [host H] [secret S]
peer_lns_start() {
	local name=$1 cdn= host=$1 secret= k range auth=no
	shift
	while [ $# -gt 0 ]; do
		case $1 in
		cdn)	cdn=1 ;;
		host)	host=$2; shift ;;
		secret)	secret=$2; auth=yes; shift ;;
		*)	echo "peer_lns_start: unknown option $1"; return 1 ;;
		esac
		shift
	done
	k=${PEER_IDX[$name]:?peer_lns_start: no peer $name}
	PEER_KIND[$name]=lns
	# No address pool: xl2tpd answers every ICRQ with CDN ("No available
	# IP address"), the tunnel itself comes up.
	range="ip range = 10.230.$k.10-10.230.$k.250"
	[ -n "$cdn" ] && range="assign ip = yes"
	_peer_ppp_options "$name"
	_peer_secret "$name" "$secret"
	_peers_write "$PEERS_DIR/$name.conf" <<-CONF
	[global]
	listen-addr = ${PEER_ADDR[$name]}
	port = 1701
	access control = no

	[lns default]
	$range
	local ip = 10.230.$k.1
	require authentication = no
	refuse pap = yes
	refuse chap = yes
	challenge = $auth
	length bit = yes
	hostname = $host
	name = $host
	pppoptfile = $PEERS_DIR/$name.options
	CONF
	_peer_xl2tpd "$name"
}

# peer_lns_ppp_addr NAME: the PPP address of NAME's end of its links.
peer_lns_ppp_addr() {
	echo "10.230.${PEER_IDX[$1]}.1"
}

# peer_silent_start NAME: swallow UDP port 1701 on every address of NAME
# (see the top of the file).
peer_silent_start() {
	local name=$1
	PEER_KIND[$name]=silent
	rm -f "$PEERS_DIR/$name.count"
	ip netns exec "${PEER_NS[$name]}" "$PEERS_DPTEST" sink 0.0.0.0:1701 \
		"$PEERS_DIR/$name.count" >"$PEERS_DIR/$name-sink.log" 2>&1 &
	PEER_PID[$name]=$!
	defer kill_wait $!
	PEERS_PENDING[$name]="$! -s $PEERS_DIR/$name.count"
}

# peer_silent_count NAME [ADDR]: datagrams swallowed (sent to ADDR).
peer_silent_count() {	# builtins only: polled, and a process start is seconds
	local k v n=0
	if [ -r "$PEERS_DIR/$1.count" ]; then
		while read -r k v _; do
			[ "$k" = "${2:-total}" ] && [[ $v =~ ^[0-9]+$ ]] && n=$v
		done <"$PEERS_DIR/$1.count"
	fi
	echo "$n"
}

peer_silent_stop() {
	unset "PEERS_PENDING[$1]"
	[ -n "${PEER_PID[$1]:-}" ] && kill_wait "${PEER_PID[$1]}"
	PEER_PID[$1]=
	PEER_KIND[$1]=
}

# peer_lac_start NAME LNS_ADDR [host H] [secret S]: xl2tpd as LAC in NAME's
# ns towards LNS_ADDR (the agent in the hub, for the LNS-role tests).
peer_lac_start() {
	local name=$1 lns=$2 host=$1 secret= auth=no
	shift 2
	while [ $# -gt 0 ]; do
		case $1 in
		host)	host=$2; shift ;;
		secret)	secret=$2; auth=yes; shift ;;
		*)	echo "peer_lac_start: unknown option $1"; return 1 ;;
		esac
		shift
	done
	PEER_KIND[$name]=lac
	_peer_ppp_options "$name"
	_peer_secret "$name" "$secret"
	_peers_write "$PEERS_DIR/$name.conf" <<-CONF
	[global]
	listen-addr = ${PEER_ADDR[$name]}
	port = 1701
	access control = no

	[lac l]
	lns = $lns
	require authentication = no
	refuse pap = yes
	refuse chap = yes
	challenge = $auth
	autodial = no
	redial = no
	length bit = yes
	hostname = $host
	name = $host
	pppoptfile = $PEERS_DIR/$name.options
	CONF
	_peer_xl2tpd "$name"
}

peer_lac_dial() {
	peers_ready || return 1
	echo "c l" >"$PEERS_DIR/$1.ctrl"
}

peer_lac_hangup() {
	peers_ready || return 1
	echo "d l" >"$PEERS_DIR/$1.ctrl"
}

# peer_netem NAME to|from|both ARGS...: netem on NAME's veth pair.
peer_netem() {
	local name=$1 dir=$2 rc=0
	shift 2
	case $dir in
	to|from|both) ;;
	*) echo "peer_netem: direction \"$dir\" is not to, from or both"; return 1 ;;
	esac
	case $dir in
	to|both) ip netns exec "$PEERS_HUB" tc qdisc replace dev "p-$name" root netem "$@" || rc=1 ;;
	esac
	case $dir in
	from|both) ip netns exec "${PEER_NS[$name]}" tc qdisc replace dev eth0 root netem "$@" || rc=1 ;;
	esac
	return $rc
}

peer_netem_clear() {
	ip netns exec "$PEERS_HUB" tc qdisc del dev "p-$1" root 2>/dev/null
	ip netns exec "${PEER_NS[$1]}" tc qdisc del dev eth0 root 2>/dev/null
	return 0
}

# peers_probe ADDR [timeout MS]: one SCCRQ from the hub; exit 0 SCCRP,
# 2 no reply, 3 ICMP error (l2tpsel-dptest probe).
peers_probe() {
	local addr=$1
	shift
	peers_ready || return 1
	ip netns exec "$PEERS_HUB" "$PEERS_DPTEST" probe "$addr" from "$PEERS_HUB_ADDR:0" "$@"
}

peers_show() {
	local f name
	for f in "$PEERS_DIR"/*.log; do
		[ -e "$f" ] || continue
		echo "--- $(basename "$f")"
		grep -v '^xl2tpd\[[0-9]*\]: "' "$f" | tail -n 30
	done
	echo "--- hub $PEERS_HUB"
	ip -n "$PEERS_HUB" -br addr
	ip -n "$PEERS_HUB" l2tp show tunnel
	for name in "${!PEER_NS[@]}"; do
		echo "--- $name (${PEER_KIND[$name]:-idle}) ${PEER_NS[$name]}"
		ip -n "${PEER_NS[$name]}" -br addr
		ip -n "${PEER_NS[$name]}" l2tp show tunnel
	done
}

# --- the agent under test ------------------------------------------------------
#
#   peers_require_agent             skip unless l2tpseld and a CLI with
#                                   "login" are built
#   peers_kconf                     the l2tpsel kernel configuration for the
#                                   hub, batch lines on stdin (l2tpsel -b)
#   peers_agent_start [ARGS...]     l2tpseld in the hub: API socket in
#                                   $PEERS_DIR, log
#                                   $PEERS_DIR/agent.log, dialer-mode pppd
#                                   options $PEERS_DIR/agent.options (log
#                                   agent-pppd.log); ARGS: more -o 'LINE'
#   peers_login ARGS...             l2tpsel login ARGS against that socket
#                                   (start USER@DOMAIN, stop ID, show, stats)

L2TPSELD=${L2TPSELD:-$TOP/build/l2tpseld}

peers_require_agent() {
	[ -x "$L2TPSELD" ] || skip "no agent at $L2TPSELD (run make)"
	grep -q -a 'login start' "$L2TPSEL_CLI" ||
		skip "$L2TPSEL_CLI has no \"login start\" command"
}

peers_kconf() {
	ip netns exec "$PEERS_HUB" "$L2TPSEL_CLI" -b -
}

peers_agent_start() {
	local d=$PEERS_DIR
	_peer_ppp_options agent
	# The agent opens its socket once it serves, but only if a dead agent's
	# (kill -9 leaves it) is not mistaken for it.
	[ -e "$d/agent.sock" ] && rm -f "$d/agent.sock"
	# PEERS_AGENT_LOG_SED: a sed script the agent's log goes through (a
	# test that no check reads the log's wording)
	if [ -n "${PEERS_AGENT_LOG_SED:-}" ]; then
		ip netns exec "$PEERS_HUB" "$L2TPSELD" -o "socket $d/agent.sock" \
			-o "hostname l2tpsel-hub" -o "pppd-file $d/agent.options" "$@" \
			> >(sed -u -e "$PEERS_AGENT_LOG_SED" >"$d/agent.log") 2>&1 &
	else
		ip netns exec "$PEERS_HUB" "$L2TPSELD" -o "socket $d/agent.sock" \
			-o "hostname l2tpsel-hub" \
			-o "pppd-file $d/agent.options" "$@" >"$d/agent.log" 2>&1 &
	fi
	PEERS_AGENT_PID=$!
	defer kill_wait $PEERS_AGENT_PID
	wait_for 10 _peer_up_or_dead $PEERS_AGENT_PID -S "$d/agent.sock"
	test -S "$d/agent.sock"
}

# A UNIX socket's path reaches across network namespaces: no ip netns exec
# (two process starts and a mount namespace less per login).
peers_login() {
	peers_ready || return 1
	"$L2TPSEL_CLI" login "$@" socket "$PEERS_DIR/agent.sock"
}

# peer_radius_prepare DIR: Debian's FreeRADIUS tree copied to DIR, with four
# changes: it runs as root (the copy is root's), answers a reject at once,
# takes realms without a dot ("example"), and writes its logs and
# accounting detail files under DIR/log; Juniper's Tunnel-Group (26-2636-64)
# in its dictionary.  The users go to DIR/mods-config/files/authorize.
peer_radius_prepare() {
	local r=$1

	cp -a /etc/freeradius/3.0 "$r" || return 1
	mkdir -p "$r/log"
	sed -i 's/^\s*user = freerad/#&/; s/^\s*group = freerad/#&/; s/^\(\s*reject_delay = \).*/\10/' \
		"$r/radiusd.conf"
	sed -i "s|^logdir = .*|logdir = $r/log|" "$r/radiusd.conf"
	sed -i 's/^\(\s*\)filter_username$/\1#filter_username/' "$r/sites-enabled/default"
	# every Access-Accept and Access-Reject with a Message-Authenticator,
	# which l2tpseld requires (S-SEC-8; FreeRADIUS 3.2.1 adds none itself)
	sed -i -e 's/^post-auth {$/&\n\tupdate reply {\n\t\tMessage-Authenticator := 0x00\n\t}/' \
		-e 's/^\tPost-Auth-Type REJECT {$/&\n\t\tupdate reply {\n\t\t\tMessage-Authenticator := 0x00\n\t\t}/' \
		"$r/sites-enabled/default"
	grep -c 'Message-Authenticator := 0x00' "$r/sites-enabled/default" | grep -qx 2 || return 1
	printf '%s\n' 'BEGIN-VENDOR	Juniper' 'ATTRIBUTE	Juniper-Tunnel-Group	64	string' \
		'END-VENDOR	Juniper' >>"$r/dictionary"
}

# peer_radius_start DIR LOG: FreeRADIUS -X with DIR in the hub (on its
# loopback, ports 1812 and 1813), every request and reply in LOG; its pid in
# PEER_RADIUSD, killed by defer_run.
peer_radius_start() {
	ip netns exec "$PEERS_HUB" freeradius -X -d "$1" >"$2" 2>&1 &
	PEER_RADIUSD=$!
	defer kill_wait $PEER_RADIUSD
	wait_for 60 grep -q 'Ready to process requests' "$2"
}
