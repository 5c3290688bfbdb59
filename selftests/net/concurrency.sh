#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Several agents at once: $CONC_PROCS processes x $CONC_CYCLES
# login-begin / report / session-up / session-down cycles against the module
# (build/concurrency, selftests/net/concurrency.c), then every counter of the
# namespace compared with what the agents did: destination sessions,
# attempts and failures, tunnel sessions, tunnel group, session-limit group
# and client counts, the chassis count, the L2TP tunnels counted, logins in
# progress (S-LIM-1, S-LIM-4, S-LIM-9, S-SEL-4, S-LB-3).  First with every
# cycle complete (every live count back to 0), then leaving $CONC_UP
# sessions up per process (counts = processes x $CONC_UP); the CLI's view
# (-j) is checked against the same totals, independently of the program.
#
# The lockout time is 1 s, so that the no-replies (5 %) keep locking
# destinations out and the expiry work runs during the load.
#
# Defaults: 4 x 10000 on the stock kernel (25 s of load on
# an idle host); 4 x 500 on the debug kernel, whose KASAN, lockdep and
# kmemleak make a cycle ~20 times dearer under TCG (Documentation/
# debug-kernel.md, "Netlink cost"): what it adds there is the checkers
# watching every path of a cycle, and 2000 cycles (4 agents at once, 5 %
# no-replies, lockouts expiring under the load) take each path hundreds of
# times; 4 x 3000 took 11 minutes of a loaded make test.  The variant with sessions left up
# runs a quarter of that on the stock kernel and 4 x 250 on the debug kernel
# (what it adds is the count left up, not load).  CONC_CYCLES,
# CONC_VARIANT_CYCLES and CONC_UP override.
source "$(dirname "$0")/../lib.sh"

require_root
require_module_file
require_cmd jq
CONC=$TOP/build/concurrency
[ -x "$CONC" ] || skip "no $CONC (run make)"
mod_load || fail "insmod $L2TPSEL_KO failed"
make_tmpdir T
setup_ns NS || fail "setup_ns"
L=$L2TPSEL_CLI
Lx() { ip netns exec "$NS" "$L" "$@"; }

PROCS=${CONC_PROCS:-4}
# The CLI's view is read only on the stock kernel: on the debug kernel each
# read costs 40-90 s of process starts (the program's own check is exact).
case $(uname -r) in
*debug*) CYCLES=${CONC_CYCLES:-500} UP=${CONC_UP:-10} CLI_CHECK=0
	 VCYCLES=${CONC_VARIANT_CYCLES:-250} ;;
*)	 CYCLES=${CONC_CYCLES:-10000} UP=${CONC_UP:-25} CLI_CHECK=1
	 VCYCLES=${CONC_VARIANT_CYCLES:-$(((CYCLES + 3) / 4))} ;;
esac

{
	echo "lockout time 1"
	echo "profile add CC lb random"
	echo "tunnel add T1 profile CC level 0 dest 10.99.0.1"
	echo "tunnel add T2 profile CC level 0 dest 10.99.0.2"
	echo "tunnel add T3 profile CC level 0 dest 10.99.0.3"
	echo "tunnel add T4 profile CC level 1 dest 10.99.0.4"
	echo "tunnel add T5 profile CC level 1 dest 10.99.0.1 port 1702"
	echo "tunnel add T6 profile CC level 2 dest 10.99.0.2"
	for g in 0 1 2; do echo "group add tg$g type tunnel"; done
	for s in 0 1; do echo "group add s$s type slg"; done
	for c in 0 1 2 3; do echo "client add c$c slg s0"; done
	for c in 4 5 6 7; do echo "client add c$c slg s1"; done
} > "$T/config"
Lx -b "$T/config"
check_err $? "configuration"
log_test "configuration: a 6-tunnel profile, 3 tunnel groups, 2 SLGs, 8 clients"

# cli_totals: "limit N tg N slg N client N dest N tun N lockout N", the
# chassis count, the summed session counts of every tunnel group, SLG,
# client, destination and tunnel of CC, and the logins in progress, from
# the CLI's JSON (one batch, one jq: process starts are slow under TCG).
printf '%s\n' "limit show" "group show type tunnel" "group show type slg" "client show" \
	"destination show" "tunnel show profile CC" "lockout show" > "$T/shows"
cli_totals() {
	[ "$CLI_CHECK" = 1 ] || { echo "$want"; return; }
	Lx -j -b "$T/shows" | jq -rs '
		def total: if type == "array" then ([.[].sessions] | add // 0) else .sessions end;
		"limit \(.[0] | total) tg \(.[1] | total) slg \(.[2] | total) " +
		"client \(.[3] | total) dest \(.[4] | total) tun \(.[5] | total) lockout \(.[6].logins)"'
}

run() {
	local what=$1 up=$2 keybase=$3 out=$T/conc.$2 start=$SECONDS
	ip netns exec "$NS" "$CONC" -P "$PROCS" -n "$CYCLES" -u "$up" -k "$keybase" CC > "$out" 2>&1
	check_err $? "$what: the agents or the counters (below)"
	sed 's/^/  /' "$out" | grep -v '^  destination #' | head -n 40
	grep '^destination #' "$out" | sed 's/^/  /'
	log_info "$what: $((SECONDS - start)) s in all"
}

run "$PROCS agents, every cycle complete" 0 $((1 << 40))
want="limit 0 tg 0 slg 0 client 0 dest 0 tun 0 lockout 0"
got=$(cli_totals)
[ "$got" = "$want" ] || check_err 1 "CLI totals: \"$got\", expected \"$want\""
log_test "$PROCS x $CYCLES cycles at once: every counter exact, nothing left live"
log_info "CLI check done at $SECONDS s"

# The variant runs fewer cycles: what it adds is the count of sessions left
# up, not more load.
n=$((PROCS * UP))
CYCLES=$VCYCLES
[ "$CYCLES" -ge "$UP" ] || CYCLES=$UP
run "$PROCS agents, $UP sessions each left up" "$UP" $((2 << 40))
# Each login left up is two sessions on the chassis (the LAC's, counted
# by the OK, and the LNS's); the LNS's counts on its tunnel group, its
# client (and through it the SLG), the LAC's on its destination and its
# selection tunnel.
want="limit $((2 * n)) tg $n slg $n client $n dest $n tun $n lockout 0"
got=$(cli_totals)
[ "$got" = "$want" ] || check_err 1 "CLI totals: \"$got\", expected \"$want\""
log_info "CLI check done at $SECONDS s"
sessions=$((2 * n))
[ "$CLI_CHECK" = 1 ] && sessions=$(Lx session show | grep -c .)
[ "$sessions" = "$((2 * n))" ] || check_err 1 "session show lists $sessions sessions, expected $((2 * n))"
log_test "$PROCS x $CYCLES cycles, $UP logins each left up: counts = $n everywhere (chassis $((2 * n)))"

# Errors are refused, with the kernel's message.
out=$(Lx session down key 1 2>&1) && check_err 1 "session down of an unknown key was accepted"
[[ $out == *"no session with key 1 is up"* ]] || check_err 1 "session down unknown: $out"
ip netns exec "$NS" "$CONC" -P 1 -n 1 -u 2 CC > /dev/null 2>&1
[ $? = 2 ] || check_err 1 "concurrency -u 2 -n 1 (UP above CYCLES) was not refused as usage"
ip netns exec "$NS" "$CONC" -P 1 -n 1 NOPROFILE > "$T/noprof" 2>&1 &&
	check_err 1 "concurrency on a profile without tunnels was accepted"
grep -q "has no tunnels" "$T/noprof" || check_err 1 "no profile: $(cat "$T/noprof")"
log_test "refusals: an unknown session, bad arguments"

log_info "refusals done at $SECONDS s"
# The namespace goes with its sessions up (ns_del at exit), then the module.
exit $EXIT_STATUS
