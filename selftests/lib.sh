#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Helpers for the l2tpsel selftests, in the manner of the kernel's
# tools/testing/selftests/net/lib.sh.  Source it from a test:
#
#   source "$(dirname "$0")/../lib.sh"
#
# A test exits 0 (pass), 1 (fail) or 4 (skip: ksft_skip) and runs as root in
# the VM (selftests/vm/vm.sh).  It prints what it does; run.sh turns that into
# KTAP.  Everything a test sets up it undoes through `defer`, whatever way it
# exits.

ksft_pass=0
ksft_fail=1
ksft_skip=4

LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
TOP=$(cd "$LIB_DIR/.." && pwd -P)
L2TPSEL_KO=${L2TPSEL_KO:-$TOP/kmod/l2tpsel.ko}
L2TPSEL_CLI=${L2TPSEL_CLI:-$TOP/build/l2tpsel}
L2TPSEL_MOD=l2tpsel

# The test's verdict so far: log_test() turns it to ksft_fail on a failure.
EXIT_STATUS=$ksft_pass
# Per-check status, for check_err/log_test.
RET=0

# --- cleanup stack ----------------------------------------------------------

_defer_cmds=()

# defer CMD [ARGS...]: run CMD when the test exits, last deferred first.
defer() {
	local q
	printf -v q ' %q' "$@"
	_defer_cmds+=("$q")
}

# defer_run: run and forget every deferred command (also done at exit).
defer_run() {
	local i
	for ((i = ${#_defer_cmds[@]} - 1; i >= 0; i--)); do
		eval "${_defer_cmds[$i]}" || true
	done
	_defer_cmds=()
}

# keep_logs PATH...: when the test fails, copy PATHs, files or directories
# (whole, where the test prints only their tails), to build/test-logs/NAME/
# in the work tree.
_keep_files=()
keep_logs() {
	_keep_files+=("$@")
}

_lib_keep() {
	local dir f
	[ ${#_keep_files[@]} -gt 0 ] || return 0
	dir=$TOP/build/test-logs/$(basename "$0" .sh)
	mkdir -p "$dir" 2>/dev/null || return 0
	for f in "${_keep_files[@]}"; do
		[ -e "$f" ] && cp -rf "$f" "$dir/" 2>/dev/null
	done
	echo "INFO: logs kept in ${dir#"$TOP"/}"
}

_lib_exit() {
	local rc=$?
	set +e
	[ "$rc" = 0 ] || [ "$rc" = "$ksft_skip" ] || _lib_keep
	defer_run
	exit $rc
}
trap _lib_exit EXIT
trap 'exit 130' INT TERM

# --- verdicts ---------------------------------------------------------------

log_info() {
	echo "INFO: $*"
}

# skip REASON: this test cannot run here.  run.sh shows REASON in the KTAP line.
skip() {
	echo "SKIP: $*"
	exit $ksft_skip
}

# fail MSG: stop the test now, as failed.
fail() {
	echo "FAIL: $*"
	exit $ksft_fail
}

# check_err RC [MSG]: a non-zero RC marks the current check as failed.
check_err() {
	if [ "$RET" -eq 0 ] && [ "$1" -ne 0 ]; then
		RET=$1
		[ -n "${2:-}" ] && echo "  $2"
	fi
	return 0
}

# check_fail RC [MSG]: a zero RC (something that should have failed did not)
# marks the current check as failed.
check_fail() {
	if [ "$RET" -eq 0 ] && [ "$1" -eq 0 ]; then
		RET=1
		[ -n "${2:-}" ] && echo "  $2"
	fi
	return 0
}

# log_test DESCRIPTION: print the verdict of the checks since the last
# log_test and fold it into EXIT_STATUS.
log_test() {
	if [ "$RET" -eq 0 ]; then
		printf "TEST: %-60s [ OK ]\n" "$1"
	else
		printf "TEST: %-60s [FAIL]\n" "$1"
		EXIT_STATUS=$ksft_fail
	fi
	RET=0
}

# --- requirements -----------------------------------------------------------

# val TEXT KEY: the word after KEY in TEXT (the CLI's text output is
# "key value" pairs; bash is much cheaper than python3 in the guest).
val() {
	local re="(^| )$2 ([^ ]+)"
	[[ $1 =~ $re ]] && echo "${BASH_REMATCH[2]}"
}

# expect GOT WANT WHAT: a failed check when GOT is not WANT.
expect() {
	[ "$1" = "$2" ] || check_err 1 "$3: got \"$1\", expected \"$2\""
}

require_root() {
	[ "$(id -u)" = 0 ] || skip "needs root (run it in the VM: selftests/vm/vm.sh -- $0)"
	[ -n "${L2TPSEL_VM:-}" ] || [ -n "${L2TPSEL_ALLOW_HOST:-}" ] ||
		skip "runs in the VM (selftests/vm/vm.sh -- $0), or set L2TPSEL_ALLOW_HOST=1"
}

require_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || skip "\"$c\" is not installed (make deps)"
	done
}

require_module_file() {
	local name
	[ -r "$L2TPSEL_KO" ] || skip "no module at $L2TPSEL_KO (run make)"
	[ -x "$L2TPSEL_CLI" ] || skip "no CLI at $L2TPSEL_CLI (run make)"
	# The kernel knows a module by the name built into it, which is what
	# rmmod and /sys/module use: it must be "l2tpsel", whatever the path.
	name=$(modinfo -F name "$L2TPSEL_KO" 2>/dev/null)
	[ "$name" = "$L2TPSEL_MOD" ] ||
		fail "$L2TPSEL_KO calls itself \"$name\", not \"$L2TPSEL_MOD\": \"rmmod $L2TPSEL_MOD\" cannot unload it (Kbuild: a module built as obj-m := dir/name.o is named \"dir/name\")"
}

# require_kmod MODULE...: load kernel modules (l2tp_ppp, veth...), skip if
# this kernel lacks them.
require_kmod() {
	local m
	for m in "$@"; do
		modprobe -q "$m" 2>/dev/null || [ -d "/sys/module/$m" ] ||
			skip "kernel module $m is not available"
	done
}

# --- the l2tpsel module -----------------------------------------------------

mod_loaded() {
	[ -d "/sys/module/$L2TPSEL_MOD" ]
}

# mod_load: insmod $L2TPSEL_KO (unloading a stale copy first) and unload it
# again when the test exits.
mod_load() {
	mod_loaded && rmmod "$L2TPSEL_MOD"
	insmod "$L2TPSEL_KO" || return 1
	defer mod_unload_quiet
}

mod_unload() {
	rmmod "$L2TPSEL_MOD"
}

mod_unload_quiet() {
	! mod_loaded || rmmod "$L2TPSEL_MOD" 2>/dev/null
}

# --- network namespaces -----------------------------------------------------

# lib_sleep SECS: sleep without starting a process.  sleep(1) is a process
# start, and on the debug kernel under TCG a process start costs 0.5-3 s
# (Documentation/debug-kernel.md), longer than most of the naps it takes.
# read -t on a pipe that nobody writes to (opened once, below) is a builtin.
exec {_lib_sleep_fd}<> <(:)
lib_sleep() {
	read -r -t "$1" -u "$_lib_sleep_fd" _ 2>/dev/null
	return 0
}

# ns_del NS: kill what runs in NS, then delete it.
ns_del() {
	local pids
	pids=$(ip netns pids "$1" 2>/dev/null)
	if [ -n "$pids" ]; then
		kill $pids 2>/dev/null
		# Give daemons a moment to exit cleanly, then insist.
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			pids=$(ip netns pids "$1" 2>/dev/null)
			[ -z "$pids" ] && break
			lib_sleep 0.1
		done
		[ -n "$pids" ] && kill -9 $pids 2>/dev/null
	fi
	ip netns del "$1" 2>/dev/null
}

# setup_ns VAR...: create one namespace per VAR, uniquely named after it
# ("lac" -> "lac-Xk3p9q"), store the name in VAR, bring lo up, and delete it
# when the test exits.
setup_ns() {
	local var name
	for var in "$@"; do
		name=$(lib_ns_name "$var")
		ip netns add "$name" || { echo "cannot create netns $name"; return 1; }
		defer ns_del "$name"
		ip -n "$name" link set lo up
		printf -v "$var" '%s' "$name"
	done
}

# lib_ns_name PREFIX: PREFIX-XXXXXX, a namespace name not in use (no
# mktemp: a process start).
lib_ns_name() {
	local n
	while :; do
		printf -v n '%s-%06x' "$1" $(((RANDOM << 15 | RANDOM) & 0xffffff))
		[ -e "/run/netns/$n" ] || break
	done
	echo "$n"
}

# --- waiting ----------------------------------------------------------------

# The kernel's release, read without a process start (uname).  The debug
# kernel (kernel/debug.config: KASAN, lockdep, kmemleak) is several times
# slower than the stock one in the TCG guest, and its speed follows the
# host's load more: a process start takes 0.5 s on an idle host and 3 s under
# a load of 12 (stock: 0.05-0.3 s).  wait_for's limits are sized for the
# stock kernel and multiplied by L2TPSEL_WAIT_SCALE there (default 6 on the
# debug kernel, 1 elsewhere).  A limit only matters when the wait fails: a
# wait ends as soon as its condition holds.
read -r L2TPSEL_KREL </proc/sys/kernel/osrelease 2>/dev/null || L2TPSEL_KREL=
case $L2TPSEL_KREL in
*-l2tpsel-debug*) L2TPSEL_DEBUG_KERNEL=1 ;;
*) L2TPSEL_DEBUG_KERNEL= ;;
esac
if [ -z "${L2TPSEL_WAIT_SCALE:-}" ]; then
	L2TPSEL_WAIT_SCALE=1
	[ -n "$L2TPSEL_DEBUG_KERNEL" ] && L2TPSEL_WAIT_SCALE=6
fi

# wait_for TIMEOUT_SECS CMD [ARGS...]: poll CMD every 0.1 s until it succeeds
# (TIMEOUT_SECS times L2TPSEL_WAIT_SCALE).  When the limits are scaled (the
# debug kernel) the naps grow to 1 s: a CMD that starts processes, polled
# every 0.1 s, would take the guest's CPU from what it waits for.
wait_for() {
	local deadline=$((SECONDS + $1 * L2TPSEL_WAIT_SCALE)) naps=(0.1) i=0
	[ "$L2TPSEL_WAIT_SCALE" -gt 1 ] && naps=(0.1 0.2 0.4 0.7 1)
	shift
	while ! "$@"; do
		[ $SECONDS -lt $deadline ] || return 1
		lib_sleep "${naps[i]}"
		[ $i -lt $((${#naps[@]} - 1)) ] && i=$((i + 1))
	done
	return 0
}

# pid_gone PID: PID has exited: gone, or a zombie this shell has not reaped
# yet (wait_for's builtin sleeps fork nothing, so bash may not reap a
# background child while polling; /proc/PID then still exists).
pid_gone() {
	local st
	read -r st 2>/dev/null < "/proc/$1/stat" || return 0
	st=${st##*) }
	[ "${st%% *}" = Z ]
}

# has_line ERE TEXT: TEXT has a line that matches ERE (grep -qE, but with
# builtins: a process start costs seconds on the debug kernel).
has_line() {
	local l
	while IFS= read -r l; do
		[[ $l =~ $1 ]] && return 0
	done <<<"$2"
	return 1
}

# make_tmpdir VAR: a fresh directory under /tmp, removed at exit.
make_tmpdir() {
	local _dir
	_dir=$(mktemp -d /tmp/l2tpsel-test.XXXXXX) || return 1
	defer rm -rf "$_dir"
	printf -v "$1" '%s' "$_dir"
}

# --- real L2TP peers: xl2tpd and pppd ----------------------------------------
#
# An LNS and a LAC in two namespaces joined by a veth pair:
#
#   LAC ns  veth0 $PEER_LAC_ADDR/24  <--->  veth0 $PEER_LNS_ADDR/24  LNS ns
#           pppN  from $PEER_POOL    <--PPP over L2TP-->  pppN $PEER_LNS_PPP

PEER_LNS_ADDR=10.200.0.1
PEER_LAC_ADDR=10.200.0.2
PEER_LNS_PPP=10.201.0.1
PEER_POOL=10.201.0.10-10.201.0.20

require_l2tp_peers() {
	require_cmd ip xl2tpd pppd ping
	require_kmod veth l2tp_ppp
	ls /usr/lib/pppd/*/pppol2tp.so >/dev/null 2>&1 || skip "pppd has no pppol2tp.so plugin"
}

# veth_link NS1 ADDR1 NS2 ADDR2: veth0 in each namespace, addresses /24, up.
veth_link() {
	ip -n "$1" link add veth0 type veth peer name veth0 netns "$3" &&
		ip -n "$1" addr add "$2/24" dev veth0 &&
		ip -n "$3" addr add "$4/24" dev veth0 &&
		ip -n "$1" link set veth0 up &&
		ip -n "$3" link set veth0 up
}

# peers_write_config DIR [LNS_ADDR]: DIR/{lns,lac}.conf for xl2tpd and
# DIR/{lns,lac}.options for their pppd.  pppd: no authentication either way,
# addresses from the LNS, IPv4 only, a log of its own (DIR/ROLE-pppd.log);
# nothing through syslog (the VM has none), none of the host's
# /etc/ppp/ip-up.d scripts.  The LNS listens on LNS_ADDR (default
# $PEER_LNS_ADDR).
peers_write_config() {
	local dir=$1 lns_addr=${2:-$PEER_LNS_ADDR} role
	for role in lns lac; do
		cat >"$dir/$role.options" <<-OPT
		noauth
		ipcp-accept-local
		ipcp-accept-remote
		nodefaultroute
		noipdefault
		mtu 1400
		mru 1400
		lcp-echo-interval 0
		noipv6
		ip-up-script /bin/true
		ip-down-script /bin/true
		logfile $dir/$role-pppd.log
		debug
		OPT
	done
	cat >"$dir/lns.conf" <<-CONF
	[global]
	listen-addr = $lns_addr
	port = 1701
	access control = no

	[lns default]
	ip range = $PEER_POOL
	local ip = $PEER_LNS_PPP
	require authentication = no
	refuse pap = yes
	refuse chap = yes
	length bit = yes
	name = l2tpsel-lns
	pppoptfile = $dir/lns.options
	CONF
	cat >"$dir/lac.conf" <<-CONF
	[global]
	listen-addr = $PEER_LAC_ADDR
	port = 1701
	access control = no

	[lac lns]
	lns = $PEER_LNS_ADDR
	require authentication = no
	refuse pap = yes
	refuse chap = yes
	autodial = no
	redial = no
	length bit = yes
	name = l2tpsel-lac
	pppoptfile = $dir/lac.options
	CONF
}

# xl2tpd_start ROLE NS DIR: xl2tpd with DIR/ROLE.conf in NS, in the
# foreground as far as it knows (-D, logging to DIR/ROLE-xl2tpd.log) and in
# the background here; killed at exit.  Returns once its control FIFO
# DIR/ROLE.ctrl exists ("c lns" / "d lns" into lac.ctrl dials / hangs up).
xl2tpd_start() {
	ip netns exec "$2" xl2tpd -D -c "$3/$1.conf" -p "$3/$1.pid" -C "$3/$1.ctrl" \
		-s /dev/null >"$3/$1-xl2tpd.log" 2>&1 &
	defer kill_wait $!
	wait_for 5 test -p "$3/$1.ctrl"
}

kill_wait() {
	kill "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

# --- l2tpseld as the LNS behind a LAC under test ------------------------------
#
# l2tpseld_lns_start NS DIR ADDR [-o LINE...]: l2tpseld's LNS role in NS
# listening on ADDR (kernel netlink, dataplane kernel, log level 2), the -o
# LINEs after; its API on DIR/lns.sock, its log DIR/lns.log, killed at
# exit, its pid in LNSPID.  Its pppd (LNS mode) reads DIR/lns.options,
# written first by lns_pppd_options unless it is there.  With
# LNS_PPP_SECRETS (lines of pap-secrets) pppd checks PAP and CHAP against
# them: a tmpfs on /etc/ppp in the LNS's own mount namespace (ip netns exec
# gives it one).  Returns once its socket is there; else prints its log and
# returns 1.
l2tpseld_lns_start() {
	local ns=$1 dir=$2 addr=$3 wrap=()
	shift 3
	[ -e "$dir/lns.options" ] || lns_pppd_options "$dir"
	# the tmpfs costs a shell: a process start, seconds in the guest
	[ -z "${LNS_PPP_SECRETS:-}" ] || wrap=(sh -c '
		mount -t tmpfs -o mode=0700 l2tpsel-test /etc/ppp || exit 1
		printf "%s\n" "$1" >/etc/ppp/pap-secrets
		cp /etc/ppp/pap-secrets /etc/ppp/chap-secrets
		chmod 600 /etc/ppp/pap-secrets /etc/ppp/chap-secrets
		shift
		exec "$@"' sh "$LNS_PPP_SECRETS")
	rm -f "$dir/lns.sock"
	ip netns exec "$ns" "${wrap[@]}" "${L2TPSELD:-$TOP/build/l2tpseld}" -o 'kernel netlink' \
		-o 'dataplane kernel' -o "socket $dir/lns.sock" -o "listen $addr" \
		-o "lns-pppd-file $dir/lns.options" -o 'log-level 2' "$@" 2>>"$dir/lns.log" &
	LNSPID=$!
	defer kill_wait $LNSPID
	wait_for 5 test -S "$dir/lns.sock" && return 0
	cat "$dir/lns.log"
	return 1
}

# lns_pppd_options DIR [LINE...]: DIR/lns.options, pppd's options for
# l2tpseld_lns_start: the LINEs (default noauth, no LCP echoes), then IPv4
# only, 10.240.0.1 here and 10.240.0.2 for the subscriber, quick LCP and
# IPCP restarts, no compression, none of the host's ip-up scripts, a log
# of its own (DIR/lns-pppd.log).
lns_pppd_options() {
	local dir=$1
	shift
	[ $# -gt 0 ] || set -- noauth 'lcp-echo-interval 0'
	printf '%s\n' "$@" >"$dir/lns.options"
	cat >>"$dir/lns.options" <<-OPT
	nodefaultroute
	noipdefault
	lcp-restart 1
	ipcp-restart 1
	noipv6
	noccp
	novj
	ip-up-script /bin/true
	ip-down-script /bin/true
	logfile $dir/lns-pppd.log
	debug
	10.240.0.1:10.240.0.2
	OPT
}

# peers_show DIR NS...: the daemons' logs and the namespaces' state.
peers_show() {
	local dir=$1 f ns
	shift
	for f in "$dir"/*.log; do
		[ -e "$f" ] || continue
		echo "--- $(basename "$f")"
		grep -v '^xl2tpd\[[0-9]*\]: "' "$f" | tail -n 40
	done
	for ns in "$@"; do
		echo "--- $ns"
		ip -n "$ns" -br addr
		ip -n "$ns" l2tp show tunnel
		ip -n "$ns" l2tp show session
	done
}

# ppp_addr NS: NS's PPP interface that has an IPv4 address, as "IF ADDR".
ppp_addr() {
	ip -n "$1" -4 -o addr show 2>/dev/null |
		awk '$2 ~ /^ppp/ { split($4, a, "/"); print $2, a[1]; exit }'
}

# l2tp_data_sessions NS: "SID PEER_SID" per kernel L2TP data session of NS
# (xl2tpd also keeps a session 0 per tunnel for its control socket).
l2tp_data_sessions() {
	ip -n "$1" l2tp show session |
		awk '/^Session [0-9]+ in tunnel/ { sid = $2 }
		     /^  Peer session/ { sub(",", "", $3); if (sid != 0) print sid, $3 }'
}
