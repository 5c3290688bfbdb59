#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the selftests (in the VM: selftests/vm/vm.sh -- selftests/run.sh) and
# report them as KTAP: one top-level "ok N name", "not ok N name" or
# "ok N name # SKIP reason" line per test, the test's output as "# " lines.
#
#   selftests/run.sh [TEST...]     TEST: module_load, module_load.sh or a path;
#                                  default: every selftests/net/*.sh
#
# Exits 1 when a test failed, 2 when started outside the VM (unless
# L2TPSEL_ALLOW_HOST=1).  L2TPSEL_TEST_TIMEOUT (seconds, default 300) bounds
# each test.
set -u

dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
tmo=${L2TPSEL_TEST_TIMEOUT:-300}

# The tests load modules and build namespaces as root: not on a workstation
# by accident.  vm.sh sets L2TPSEL_VM=1.
if [ -z "${L2TPSEL_VM:-}" ] && [ -z "${L2TPSEL_ALLOW_HOST:-}" ]; then
	echo "run.sh: the selftests run in the VM: selftests/vm/vm.sh -- selftests/run.sh $*" >&2
	echo "run.sh: (set L2TPSEL_ALLOW_HOST=1 to run them on this machine anyway)" >&2
	exit 2
fi

tests=()
if [ $# -eq 0 ]; then
	tests=("$dir"/net/*.sh)
else
	for t in "$@"; do
		if [ -f "$t" ]; then
			tests+=("$(cd "$(dirname "$t")" && pwd -P)/$(basename "$t")")
		elif [ -f "$dir/net/$t" ]; then
			tests+=("$dir/net/$t")
		elif [ -f "$dir/net/$t.sh" ]; then
			tests+=("$dir/net/$t.sh")
		else
			echo "run.sh: no test \"$t\" (tests: $(cd "$dir/net" && echo *.sh))" >&2
			exit 2
		fi
	done
fi

# stock_only TEST: the reason of a "# run.sh: stock-only REASON" line near
# its top, if it has one (bash builtins only: on the debug kernel a test's
# start alone costs ~10 s of process starts, a skip this way none).
stock_only() {
	local line i=0
	while IFS= read -r line && [ $i -lt 8 ]; do
		i=$((i + 1))
		[[ $line == "# run.sh: stock-only "* ]] && { echo "${line#"# run.sh: stock-only "}"; return 0; }
	done <"$1"
	return 1
}
case $(uname -r) in
*-l2tpsel-debug*) on_debug=1 ;;
*) on_debug= ;;
esac

# procs: user processes other than this shell's own, as "comm(pid)": a test's
# leftover process would slow every later test down
procs() {
	local d pid comm arg
	for d in /proc/[0-9]*; do
		pid=${d#/proc/}
		[ "$pid" = $$ ] || [ "$pid" = "$BASHPID" ] && continue
		arg=
		IFS= read -r -d '' arg <"$d/cmdline" 2>/dev/null
		[ -n "$arg" ] || continue	# a kernel thread
		read -r comm <"$d/comm" 2>/dev/null || continue
		echo "$comm($pid)"
	done
}
procs_before=" $(procs | tr '\n' ' ') "

echo "KTAP version 1"
echo "1..${#tests[@]}"
n=0 failed=0 suite_start=$SECONDS
for t in "${tests[@]}"; do
	n=$((n + 1))
	name=$(basename "$t" .sh)
	if [ -n "$on_debug" ] && [ "${L2TPSEL_PEERS_ON_DEBUG:-}" != 1 ] && reason=$(stock_only "$t"); then
		echo "ok $n $name # SKIP $reason"
		continue
	fi
	out=$(mktemp)
	start=$(date +%s%N)
	echo "# $name: starting"
	# The test's output is streamed, so a hang still shows how far it got.
	timeout -k 30 "$tmo" bash "$t" 2>&1 | tee "$out" | sed -u 's/^/# /'
	rc=${PIPESTATUS[0]}
	ms=$((($(date +%s%N) - start) / 1000000))
	echo "# $name: exit $rc, $((ms / 1000)).$(printf '%03d' $((ms % 1000)))s"
	# Each test cleans up after itself (lib.sh's defer); say so when one did
	# not, since the next test would start from its leftovers.
	left=$(ip netns list 2>/dev/null | cut -d ' ' -f 1 | tr '\n' ' ')
	[ -d /sys/module/l2tpsel ] && left+="module l2tpsel "
	for p in $(procs); do
		[[ $procs_before == *" $p "* ]] || [[ $p == procs\(* ]] || left+="$p "
	done
	[ -n "$left" ] && echo "# $name: did not clean up, left behind: $left"
	case $rc in
	0)	echo "ok $n $name" ;;
	4)	reason=$(sed -n 's/^\(# \)\{0,1\}SKIP: //p' "$out" | tail -n 1)
		echo "ok $n $name # SKIP ${reason:-no reason given}" ;;
	124|137) echo "# $name: timed out after ${tmo}s"
		echo "not ok $n $name"
		failed=$((failed + 1)) ;;
	*)	echo "not ok $n $name"
		failed=$((failed + 1)) ;;
	esac
	rm -f "$out"
done
echo "# $n test(s), $failed failed, $((SECONDS - suite_start))s"
[ "$failed" -eq 0 ]
