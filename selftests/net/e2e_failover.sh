#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only real peers: Debian's kernel only (L2TPSEL_PEERS_ON_DEBUG=1 runs it on the debug kernel)
#
# The reference's failover examples end to end (S-SEL-12, S-SEL-4,
# S-SEL-6, S-SEL-9, S-L2TP-4): l2tpseld as LAC, the l2tpsel module choosing,
# and destinations that really do not answer: their addresses exist and
# swallow every SCCRQ (selftests/peers.sh, "silent destination").  What the
# agent tried is read from the login's output and checked against what the
# silent addresses received.
#
# Between levels (reference 000/002, first example): T1 192.168.10.10 level
# 0, T2 .22.22 and T3 .33.33 level 1, T4 .44.44 level 2, all silent.  Login
# 1 tries 10.10, one of 22.22/33.33 (random), 44.44 and fails; the other
# level-1 destination is never contacted.  Then 10.10 answers (xl2tpd).
# Login 2: 10.10 and the first level-1 pick are locked (not contacted), the
# other level-1 destination is tried and fails, 44.44 is locked; at the
# lowest level the locked-not-contacted ones are unlocked and the walk
# restarts at level 0: 10.10 answers, the login succeeds.
#
# Within a level (second example): T1 .1.1, T2 .2.2, T3 .3.3 level 0 (3.3
# locked, 100 s left), T4 .4.4, T5 .5.5 level 1, all silent.  The login tries
# 1.1 and 2.2 (either order), 4.4 and 5.5 (either order), then 3.3 once
# unlocked, and fails.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../peers.sh"

require_root
require_module_file
peers_require
peers_require_agent

mod_load || fail "insmod $L2TPSEL_KO failed"
peers_init 10.210.0.1 || fail "cannot set up the hub"
peers_add "t1 192.168.10.10" "quiet 192.168.22.22 192.168.33.33 192.168.44.44 \
	192.168.1.1 192.168.2.2 192.168.3.3 192.168.4.4 192.168.5.5" ||
	fail "cannot add the peers"
peer_silent_start t1 || fail "silent destination t1 did not start"
peer_silent_start quiet || fail "silent destinations did not start"
peers_kconf <<-KCONF
profile add B failover between-levels lb random
tunnel add T1 profile B level 0 dest 192.168.10.10
tunnel add T2 profile B level 1 dest 192.168.22.22
tunnel add T3 profile B level 1 dest 192.168.33.33
tunnel add T4 profile B level 2 dest 192.168.44.44
domain add between.example profile B
profile add W failover within-level
tunnel add T1 profile W level 0 dest 192.168.1.1
tunnel add T2 profile W level 0 dest 192.168.2.2
tunnel add T3 profile W level 0 dest 192.168.3.3
tunnel add T4 profile W level 1 dest 192.168.4.4
tunnel add T5 profile W level 1 dest 192.168.5.5
domain add within.example profile W
KCONF
check_err $? "the kernel configuration was refused"
# A silent destination costs one SCCRQ timeout: keep it short.
peers_agent_start -o "sccrq-timeout 3s"
check_err $? "l2tpseld did not start"
peers_ready
check_err $? "the silent destinations did not start"
log_test "silent destinations, kernel configuration, l2tpseld"
[ "$EXIT_STATUS" = 0 ] || { peers_show; exit $EXIT_STATUS; }

# attempts OUTPUT: "LEVEL REMOTE OUTCOME" per attempt of a login's output.
attempts() {
	awk '$1 == "attempt" { for (i = 2; i < NF; i++) { if ($i == "remote") r[$2] = $(i + 1); if ($i == "level") l[$2] = $(i + 1) } n = $2 }
	     $1 == "outcome" { o[$2] = $3 }
	     END { for (k = 1; k <= n; k++) print l[k], r[k], o[k] }' <<<"$1"
}

# expect_walk NAME WANT GOT: the attempts, as "LEVEL REMOTE OUTCOME" lines.
expect_walk() {
	if [ "$2" != "$3" ]; then
		check_err 1 "$1: attempts"
		echo "    expected: $(tr '\n' ';' <<<"$2")"
		echo "    got:      $(tr '\n' ';' <<<"$3")"
	fi
}

count() {
	peer_silent_count quiet "$1"
}

# --- between levels -------------------------------------------------------------
t0=${EPOCHREALTIME/./}000
out1=$(peers_login start user@between.example)
echo "$out1"
echo "login 1: $(((${EPOCHREALTIME/./}000 - t0) / 1000000)) ms"
walk1=$(attempts "$out1")
first=$(awk '$1 == 1 { print $2 }' <<<"$walk1")
case $first in
192.168.22.22) other=192.168.33.33 ;;
192.168.33.33) other=192.168.22.22 ;;
*) other=none; check_err 1 "login 1 did not try one of 192.168.22.22/33.33 at level 1" ;;
esac
expect_walk "login 1" "0 192.168.10.10 no-reply
1 $first no-reply
2 192.168.44.44 no-reply" "$walk1"
has_line '^done fail' "$out1"
check_err $? "login 1 did not fail"
[ "$(peer_silent_count t1 192.168.10.10)" -ge 1 ] && [ "$(count "$first")" -ge 1 ] &&
	[ "$(count 192.168.44.44)" -ge 1 ]
check_err $? "a destination the agent says it tried received no SCCRQ"
[ "$(count "$other")" = 0 ]
check_err $? "$other received $(count "$other") datagram(s) though login 1 must not contact it"
echo "swallowed: 10.10 $(peer_silent_count t1 192.168.10.10), $first $(count "$first"), $other $(count "$other"), 44.44 $(count 192.168.44.44)"
log_test "between levels, login 1: 10.10, $first, 44.44 silent; fails"

# 192.168.10.10 answers from now on: an xl2tpd LNS where the sink was.
peer_silent_stop t1
peer_lns_start t1 host lns-t1 && peers_ready
check_err $? "xl2tpd on 192.168.10.10 did not start"
before=$(count "$first")
t0=${EPOCHREALTIME/./}000
out2=$(peers_login start user@between.example)
echo "$out2"
echo "login 2: $(((${EPOCHREALTIME/./}000 - t0) / 1000000)) ms"
expect_walk "login 2" "1 $other no-reply
0 192.168.10.10 ok" "$(attempts "$out2")"
has_line '^done ok' "$out2"
check_err $? "login 2 did not succeed"
[ "$(count "$first")" = "$before" ]
check_err $? "$first (locked, not to be contacted) received an SCCRQ in login 2"
log_test "between levels, login 2: $other fails, unlock, 10.10 answers"
id=$(sed -n 's/^done ok session \([0-9]*\).*/\1/p' <<<"$out2")
[ -n "$id" ] && peers_login stop "$id" >/dev/null

# --- within a level -------------------------------------------------------------
ip netns exec "$PEERS_HUB" "$L2TPSEL_CLI" lockout dest 192.168.3.3 remaining 100
check_err $? "cannot lock 192.168.3.3 for 100 s"
t0=${EPOCHREALTIME/./}000
out3=$(peers_login start user@within.example)
echo "$out3"
echo "login: $(((${EPOCHREALTIME/./}000 - t0) / 1000000)) ms"
walk3=$(attempts "$out3")
# Within a level the order is random: compare each level's set, in order.
norm=$(awk '{ k = $1 ":" (NR <= 2 ? "a" : NR <= 4 ? "b" : "c") } { print k, $2, $3 }' <<<"$walk3" | sort)
expect_walk "within level" "0:a 192.168.1.1 no-reply
0:a 192.168.2.2 no-reply
0:c 192.168.3.3 no-reply
1:b 192.168.4.4 no-reply
1:b 192.168.5.5 no-reply" "$norm"
has_line '^done fail' "$out3"
check_err $? "the login did not fail"
for a in 192.168.1.1 192.168.2.2 192.168.3.3 192.168.4.4 192.168.5.5; do
	[ "$(count $a)" -ge 1 ]
	check_err $? "$a received no SCCRQ"
done
log_test "within a level: 1.1+2.2, 4.4+5.5, then 3.3 unlocked; fails"

[ "$EXIT_STATUS" = 0 ] || peers_show
exit $EXIT_STATUS
