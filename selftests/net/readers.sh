#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# readers: GETs, dumps and the dry run read under the namespace mutex, a
# dump part at a time (Documentation/design.md).  Readers show every
# object kind, LIMIT/SUMMARY/LOCKOUT and run `login test` in a loop while a
# writer adds and deletes tunnels, remaps and deletes
# domains, creates and deletes clients and groups, brings sessions up and
# down and changes the chassis limits.  On the debug kernel KASAN, lockdep
# and kmemleak watch it (vm.sh fails the run on any report).
#
# Checks: every reader batch succeeds, or fails only with the CLI's "dump
# interrupted" message after its retries (userspace/lib/nl.c); no reader
# output names an object the writer never made; in every batch that
# succeeded each client's total is the sum of its per-group counts (a
# change between two dump parts is flagged and the dump read again, never
# shown half made); the writer's batch has no error; afterwards the state is
# exactly the configured one.
source "$(dirname "$0")/../lib.sh"

require_root
require_module_file
mod_load || fail "insmod $L2TPSEL_KO failed"
make_tmpdir T
setup_ns NS || fail "setup_ns"
L=$L2TPSEL_CLI
Lx() { ip netns exec "$NS" "$L" "$@"; }
case $(uname -r) in
*debug*) ROUNDS=${READERS_ROUNDS:-30} ;;
*)	 ROUNDS=${READERS_ROUNDS:-1200} ;;
esac

# The configuration that stays: 10 profiles x 8 tunnels, 50 domains, 10
# clients in one session-limit group, 3 tunnel groups.
awk 'BEGIN {
	print "group add s0 type slg limit 1000"
	for (g = 0; g < 3; g++) print "group add tg" g " limit 500"
	for (c = 0; c < 10; c++) print "client add c" c " limit 100 slg s0"
	for (p = 0; p < 10; p++) {
		print "profile add P" p " lb " (p % 2 ? "weighted" : "destination-equal")
		for (t = 0; t < 8; t++)
			print "tunnel add T" t " profile P" p " level " (t % 4) \
				" dest 10.8." p "." (t + 1) (t == 3 ? " secret s" p : "")
	}
	for (d = 0; d < 50; d++) print "domain add d" d ".example profile P" (d % 10)
}' > "$T/base"
Lx -b "$T/base" > /dev/null
check_err $? "base configuration"

# The writer: ROUNDS rounds of changes that each reader kind can meet midway.
awk -v rounds="$ROUNDS" 'BEGIN {
	for (r = 0; r < rounds; r++) {
		p = "P" (r % 10)
		print "tunnel add X" r " profile " p " level " (r % 8) " dest 10.9." (r % 200) "." (r % 31 + 1) " secret x" r
		print "domain add w" r ".example profile " p
		print "domain add d" (r % 50) ".example profile P" ((r + 1) % 10)
		print "client add w" r " limit 5"
		print "group add wg" r " limit 7"
		print "session up key " (r + 1) " role lns tunnel-id " (r % 20 + 1) " group tg" (r % 3) " client c" (r % 10)
		print "profile set " p " lb " (r % 2 ? "hash" : "random")
		print "limit set chassis " (100000 - r) " tunnel " (50000 - r)
		print "tunnel del X" r " profile " p
		print "domain del w" r ".example"
		print "domain add d" (r % 50) ".example profile P" (r % 50 % 10)
		print "client del w" r
		print "group del wg" r
		print "session down key " (r + 1)
		print "profile set " p " lb " (r % 10 % 2 ? "weighted" : "destination-equal")
	}
	print "limit set chassis 0 tunnel 0"
}' > "$T/writes"
printf '%s\n' "tunnel show" "destination show" "domain show" "profile show" "profile show P3" \
	"login test u@d7.example" "login test profile P4" "client show" "client show c3" \
	"group show" "group show type slg" "session show" "summary" "limit show" \
	"lockout show" "domain show d9.example" > "$T/reads"

# Every client whose total differs from the sum of its per-group counts.
CLIENT_SUM='.. | objects | select(has("slg") and (.tunnel_groups | type) == "array")
	| select(.sessions != ([.tunnel_groups[].sessions] | add // 0))
	| "\(.name) \(.sessions) \([.tunnel_groups[].sessions])"'

reader() {
	local n=0 bad=0 seen=0 i=$1 last=
	# Batches while the writer runs, then one after it: a batch whose
	# dumps all gave up (allowed, said) reads nothing, and on a slow VM a
	# reader may get only two batches in, so the last one shows that the
	# reader reads at all.
	while [ -z "$last" ]; do
		[ -e "$T/writer.done" ] && last=1
		if ! Lx -j -b "$T/reads" > "$T/r$i.out" 2> "$T/r$i.err"; then
			# Only the bounded dump retry may give up, and it must say so.
			if grep -v -e "dump interrupted by concurrent changes" \
				-e "command failed" "$T/r$i.err" | grep -q .; then
				bad=$((bad + 1))
				sed 's/^/# reader: /' "$T/r$i.err" | head -n 5
			fi
		elif ! torn=$(jq -r "$CLIENT_SUM" "$T/r$i.out" 2>&1) || [ -n "$torn" ]; then
			# A client's total and its per-group counts change in one
			# session up/down: a dump that a change overlapped is
			# flagged and read again, never shown torn.
			bad=$((bad + 1))
			echo "# reader: client total is not the sum of its groups: $(echo "$torn" | head -n 3 | tr '\n' ' ')"
		fi
		# Nothing the writer never made (names X*, w*, wg*, T*, P*, c*, d*, tg*, s0).
		if grep -o '"name":"[^"]*"' "$T/r$i.out" | grep -vqE '"name":"(X[0-9]+|w[0-9]+|wg[0-9]+|T[0-7]|P[0-9]|c[0-9]|tg[0-2]|s0)"'; then
			bad=$((bad + 1))
			echo "# reader: unexpected name: $(grep -o '"name":"[^"]*"' "$T/r$i.out" | grep -vE '"name":"(X[0-9]+|w[0-9]+|wg[0-9]+|T[0-7]|P[0-9]|c[0-9]|tg[0-2]|s0)"' | head -n 3 | tr '\n' ' ')"
		fi
		# The batch did read the configuration (the checks above saw something).
		grep -q '"tunnel":"T7","profile":"P9"' "$T/r$i.out" && seen=$((seen + 1))
		n=$((n + 1))
	done
	echo "$n $bad $seen" > "$T/r$i.sum"
}

reader 1 & r1=$!
reader 2 & r2=$!
t0=$(date +%s%N)
Lx -b "$T/writes" > /dev/null 2> "$T/writes.err"
wrc=$?
touch "$T/writer.done"
wait "$r1" "$r2"
t1=$(date +%s%N)
[ "$wrc" = 0 ] || { head -n 5 "$T/writes.err" | sed 's/^/# writer: /'; }
check_err "$wrc" "the writer's batch ($(wc -l < "$T/writes") changes)"
read -r n1 b1 s1 < "$T/r1.sum"
read -r n2 b2 s2 < "$T/r2.sum"
log_info "$ROUNDS writer rounds in $(( (t1 - t0) / 1000000 )) ms; reader batches $n1 + $n2 ($(wc -l < "$T/reads") requests each)"
[ "$s1" -ge 1 ] && [ "$s2" -ge 1 ]
check_err $? "the readers ran and read the tunnels ($s1 of $n1, $s2 of $n2 batches)"
[ "$b1" = 0 ] && [ "$b2" = 0 ]
check_err $? "readers: $b1 + $b2 bad batches"
log_test "readers while a writer changes every object kind"

# The state afterwards is the configured one, through the same reads.
got=$(Lx -j -b <(printf '%s\n' "tunnel show" "domain show" "client show" "group show type tunnel" \
	"session show" "limit show") | jq -rs '
	"tunnels \(.[0] | length) domains \(.[1] | length) clients \(.[2] | length) " +
	"groups \(.[3] | length) sessions \(.[4] | length) chassis \(.[5].chassis_limit) " +
	"remap \([.[1][] | select(.profile != ("P" + ((.domain | ltrimstr("d") | rtrimstr(".example") | tonumber) % 10 | tostring)))] | length)"' 2>&1)
want="tunnels 80 domains 50 clients 10 groups 3 sessions 0 chassis 0 remap 0"
[ "$got" = "$want" ]
check_err $? "final state \"$got\", want \"$want\""
log_test "afterwards: exactly the configuration, every remap undone"

exit "$EXIT_STATUS"
