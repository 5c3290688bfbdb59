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

_lib_exit() {
	local rc=$?
	set +e
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

require_root() {
	[ "$(id -u)" = 0 ] || skip "needs root (run it in the VM: selftests/vm/vm.sh -- $0)"
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
			sleep 0.1
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
		name=$var-$(mktemp -u XXXXXX)
		ip netns add "$name" || { echo "cannot create netns $name"; return 1; }
		defer ns_del "$name"
		ip -n "$name" link set lo up
		printf -v "$var" '%s' "$name"
	done
}

# --- waiting ----------------------------------------------------------------

# wait_for TIMEOUT_SECS CMD [ARGS...]: poll CMD every 0.1 s until it succeeds.
wait_for() {
	local deadline=$((SECONDS + $1))
	shift
	while ! "$@"; do
		[ $SECONDS -lt $deadline ] || return 1
		sleep 0.1
	done
}

# make_tmpdir VAR: a fresh directory under /tmp, removed at exit.
make_tmpdir() {
	local _dir
	_dir=$(mktemp -d /tmp/l2tpsel-test.XXXXXX) || return 1
	defer rm -rf "$_dir"
	printf -v "$1" '%s' "$_dir"
}
