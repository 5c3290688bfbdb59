#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Soak (S-LIM-1, S-LIM-4, S-LIM-9, S-SEL-4, S-LB-3): build/soak
# (selftests/net/soak.c) holds $SOAK_HELD sessions with churn for
# $SOAK_SECS s through the module's generic-netlink API directly (no real
# peers: the agent's side is simulated by the workers, as in concurrency.c),
# and every $SOAK_INTERVAL s stops its workers and compares every counter
# (chassis, L2TP tunnels, destinations, selection tunnels, tunnel groups,
# clients, session-limit groups, the session dump, logins in progress) with
# the sessions they hold; at the end it tears everything down and wants 0
# everywhere.  One tunnel group has a limit, so admission refusals are part
# of the churn; the lockout time is 1 s, so lockouts (3 % no-replies) arm and
# expire all along.  The CLI's own view is compared once more at the end.
#
# Stock kernel: 4 workers, 10000 sessions, 30 s.  Debug kernel (KASAN,
# lockdep, kmemleak; a request costs ~100 times more under TCG): 2 workers,
# 200 sessions, 40 s.
source "$(dirname "$0")/../lib.sh"

require_root
require_module_file
require_cmd jq
SOAK=$TOP/build/soak
[ -x "$SOAK" ] || skip "no $SOAK (run make)"
case $(uname -r) in
*debug*) P=${SOAK_PROCS:-2} H=${SOAK_HELD:-200} S=${SOAK_SECS:-20} I=${SOAK_INTERVAL:-6} ;;
*)	 P=${SOAK_PROCS:-4} H=${SOAK_HELD:-10000} S=${SOAK_SECS:-30} I=${SOAK_INTERVAL:-5} ;;
esac

mod_load || fail "insmod $L2TPSEL_KO failed"
make_tmpdir T
setup_ns NS || fail "setup_ns"
Lx() { ip netns exec "$NS" "$L2TPSEL_CLI" "$@"; }

{
	echo "lockout time 1"
	echo "profile add SK lb destination-equal"
	for i in 1 2 3 4; do
		echo "tunnel add T$i profile SK level 0 dest 10.98.0.$i"
		echo "tunnel add T$((i + 4)) profile SK level 1 dest 10.98.0.$i port 1702"
	done
	# tg0 is limited to an eighth of the sessions (it would get 3/16): refusals
	echo "group add tg0 type tunnel limit $((H / 8))"
	for g in 1 2 3; do echo "group add tg$g type tunnel"; done
	echo "group add s0 type slg"
	echo "group add s1 type slg"
	for c in $(seq 0 15); do echo "client add c$c slg s$((c / 8))"; done
} >"$T/config"
Lx -b "$T/config"
check_err $? "configuration"
log_test "configuration: 8 tunnels on 8 destinations, 4 tunnel groups, 2 SLGs, 16 clients"

ip netns exec "$NS" "$SOAK" -P "$P" -H "$H" -t "$S" -i "$I" ${SOAK_SEED:+-s $SOAK_SEED} SK >"$T/out" 2>&1
rc=$?
sed 's/^/  /' "$T/out" | head -n 60
expect "$rc" 0 "soak's exit status"
grep -q '^check 2 ' "$T/out"
check_err $? "fewer than two checks under load"
grep -q '^final check after teardown: 0 sessions held, every counter 0' "$T/out"
check_err $? "the final check"
! grep -q MISMATCH "$T/out"
check_err $? "a counter differed from the sessions held"
log_test "$H sessions held with churn for $S s: every counter equal at every check, 0 after teardown"

# The CLI's view of the torn-down namespace, independently of the program.
printf '%s\n' "summary" "group show type tunnel" "group show type slg" "client show" \
	"destination show" "tunnel show" "lockout show" >"$T/shows"
got=$(Lx -j -b "$T/shows" | jq -rs '
	def total: if type == "array" then ([.[].sessions] | add // 0) else .sessions end;
	"chassis \(.[0].sessions) tg \(.[1] | total) slg \(.[2] | total) client \(.[3] | total) " +
	"dest \(.[4] | total) tun \(.[5] | total) logins \(.[6].logins)"')
expect "$got" "chassis 0 tg 0 slg 0 client 0 dest 0 tun 0 logins 0" "the CLI's totals after the soak"
log_test "the CLI's view after the soak: every count 0"

exit $EXIT_STATUS
