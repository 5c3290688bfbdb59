#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Static rate limits of L2TP signalling through the kernel and the CLI
# (SPEC §5, reference 004, Documentation/ratelimit.md): a per-message-type
# limit that throttles ICRQ and leaves SCCRQ alone (S-RL-1), an egress limit
# that protects one LNS and leaves another untouched (S-RL-1, S-RL-2), a burst
# of login checks refused with the configured code (S-RL-2), error paths,
# exact counters, namespaces, bounds, and the JSON of every show.  Dynamic
# throttling is in ratelimit_throttle.sh.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../ratelimit_lib.sh"

require_root
require_cmd python3 ip
require_module_file
mod_load || fail "insmod $L2TPSEL_KO failed"
make_tmpdir T
L=$L2TPSEL_CLI

# --- S-RL-1: a per-message-type limit: ICRQ throttled, SCCRQ untouched -------
# 004: "Die Schwellenwerte koennen fuer jeden Nachrichtentyp definiert werden,
# um sicherzustellen, dass nur der Burst-Datenverkehr gedrosselt wird."  Here
# an LNS limits the ICRQs of LAC "lac1" to 1/s with a burst of 5 and lets its
# SCCRQs through; a second, peer-wide limit (004's 1000/s for pGW2) sees both.
cat > "$T/icrq" <<'EOF'
ratelimit add lac1-icrq rate 1 burst 5 ingress icrq peer lac1 code 2 error 4 message "ICRQ rate exceeded"
ratelimit add lac1-all rate 1000 burst 100 ingress peer lac1
ratelimit check icrq peer lac1 address 10.200.0.2 count 20
ratelimit check sccrq peer lac1 address 10.200.0.2 count 20
ratelimit check icrq peer lac2 count 20
ratelimit check icrq peer lac1
EOF
"$L" -b "$T/icrq" > "$T/icrq.out"
check_err $? "the ICRQ batch failed"
cat "$T/icrq.out"
mapfile -t out < "$T/icrq.out"
# 20 ICRQs at one instant: exactly the burst passes; the peer-wide limit
# gives a token only for those (a refused request takes none).
expect "${out[0]}" "reject by lac1-icrq code 2 error 4 matched 2 passed 5 rejected 15 dropped 0 message \"ICRQ rate exceeded\"" "20 ICRQs of lac1"
expect "${out[1]}" "pass matched 1 passed 20 rejected 0 dropped 0" "20 SCCRQs of lac1"
expect "${out[2]}" "pass matched 0 passed 20 rejected 0 dropped 0" "20 ICRQs of lac2"
[[ ${out[3]} == "reject by lac1-icrq code 2 error 4 matched 2 message \"ICRQ rate exceeded\"" ]]
check_err $? "one more ICRQ of lac1: ${out[3]}"
expect "$(counters lac1-icrq)" "passed 5 rejected 16 dropped 0" "lac1-icrq counters"
expect "$(counters lac1-all)" "passed 25 rejected 0 dropped 0" "lac1-all counters (5 ICRQ + 20 SCCRQ)"
log_test "S-RL-1 a per-message-type limit throttles ICRQ and leaves SCCRQ alone"

# --- S-RL-1, S-RL-2: an egress limit protects one LNS, not another ------------
# 004 "Grenzwert fuer Ausgangs-Uebertragungsrate": the LAC throttles attempts
# toward LNS 10.0.0.1 before sending them (drop: no attempt, no answer).
cat > "$T/egress" <<'EOF'
ratelimit add lns1 egress attempt dest 10.0.0.1 port 1701 rate 1 burst 3 action drop
ratelimit check attempt dest 10.0.0.1 profile isp count 10
ratelimit check attempt dest 10.0.0.2 profile isp count 10
ratelimit check attempt dest 10.0.0.1 port 1702 count 10
ratelimit check egress attempt dest 10.0.0.1
EOF
"$L" -b "$T/egress" > "$T/egress.out"
check_err $? "the egress batch failed"
cat "$T/egress.out"
mapfile -t out < "$T/egress.out"
expect "${out[0]}" "drop by lns1 matched 1 passed 3 rejected 0 dropped 7" "10 attempts toward 10.0.0.1"
expect "${out[1]}" "pass matched 0 passed 10 rejected 0 dropped 0" "10 attempts toward 10.0.0.2"
expect "${out[2]}" "pass matched 0 passed 10 rejected 0 dropped 0" "10 attempts toward 10.0.0.1 port 1702"
expect "${out[3]}" "drop by lns1 matched 1" "one more attempt toward 10.0.0.1"
expect "$(counters lns1)" "passed 3 rejected 0 dropped 8" "lns1 counters"
log_test "S-RL-1/S-RL-2 an egress limit protects one LNS and leaves another untouched"

# --- S-RL-2: a burst of login checks, refusals carry the configured code -------
# LAC role: subscribers of isp.example log in at most 1/s with a burst of 10.
# 40 logins, each its own check as the agent would ask; whatever the clock
# did meanwhile, the counters are exactly the verdicts printed.
"$L" ratelimit add isp-logins ingress login domain isp.example rate 1 burst 10 \
	code 3 error 0 message "too many logins, retry later"
check_err $? "ratelimit add isp-logins"
for i in $(seq 40); do echo "ratelimit check login domain isp.example profile isp"; done > "$T/logins"
"$L" -b "$T/logins" > "$T/logins.out"
check_err $? "the login batch failed"
pass=$(grep -c '^pass matched 1$' "$T/logins.out")
rej=$(grep -c '^reject by isp-logins code 3 error 0 matched 1 message "too many logins, retry later"$' "$T/logins.out")
echo "40 logins: $pass passed, $rej rejected"
expect "$((pass + rej))" 40 "every login has a verdict of the expected form"
[ "$pass" -ge 10 ] && [ "$pass" -le 15 ]
check_err $? "passed $pass: expected the burst of 10 plus what 1/s earned during the batch"
expect "$(counters isp-logins)" "passed $pass rejected $rej dropped 0" "isp-logins counters"
# Another domain is not limited.
expect "$("$L" ratelimit check login domain other.example)" "pass matched 0" "other.example"
log_test "S-RL-2 a burst of logins: refusals carry code 3 and the message, counters exact"

# --- S-RL-1: PPPoE discovery on one access interface (LAC role) ----------------
# The agent checks each PADI and PADR as type pppoe, keyed by the access
# interface's name (Documentation/access.md); a limit on acc0 leaves acc1 alone.
cat > "$T/pppoe" <<'EOF'
ratelimit add acc0-disc ingress pppoe peer acc0 rate 1 burst 4 action drop
ratelimit check pppoe peer acc0 count 10
ratelimit check pppoe peer acc1 count 10
ratelimit check login domain acc0
EOF
"$L" -b "$T/pppoe" > "$T/pppoe.out"
check_err $? "the pppoe batch failed"
mapfile -t out < "$T/pppoe.out"
expect "${out[0]}" "drop by acc0-disc matched 1 passed 4 rejected 0 dropped 6" "10 discovery messages on acc0"
expect "${out[1]}" "pass matched 0 passed 10 rejected 0 dropped 0" "10 discovery messages on acc1"
expect "${out[2]}" "pass matched 0" "a login is not a discovery message"
expect "$(counters acc0-disc)" "passed 4 rejected 0 dropped 6" "acc0-disc counters"
"$L" ratelimit del acc0-disc
log_test "S-RL-1 a limit of type pppoe throttles discovery on one access interface"

# A throttle profile in use, for the error paths and set below (S-RL-3).
printf '%s\n' "throttle add prof hold 30 step 20 band 50:30 60:40 65:50" \
	"ratelimit add throttled rate 10 burst 1 ingress peer t throttle prof" > "$T/prof"
"$L" -b "$T/prof"
check_err $? "throttle add prof, ratelimit add throttled"

# --- errors: every refusal says what is wrong ------------------------------------
# One batch: each line is refused with its message; nothing of it is created.
errs=(
"rate 0: must be 1..10000000 requests per second|ratelimit add bad rate 0 burst 1"
"burst 0: must be 1..1000000 requests|ratelimit add bad rate 10 burst 0"
"rate 20000000: must be 1..10000000|ratelimit set lac1-icrq rate 20000000"
"throttle profile \"nope\" does not exist|ratelimit add bad rate 1 burst 1 throttle nope"
"rate limit \"nope\" does not exist|ratelimit del nope"
"rate limit \"nope\" does not exist|ratelimit show nope"
"rate limit \"nope\" does not exist|ratelimit set nope rate 5"
"the match of a limit cannot change|ratelimit set lac1-icrq peer x"
"message type sccrq is ingress only|ratelimit add bad rate 1 burst 1 egress sccrq"
"message type attempt is egress only|ratelimit add bad rate 1 burst 1 ingress attempt"
"an ingress limit on login cannot be keyed by peer|ratelimit add bad rate 1 burst 1 ingress login peer a"
"an egress limit on attempt cannot be keyed by peer|ratelimit add bad rate 1 burst 1 egress attempt peer a"
"message type pppoe is ingress only|ratelimit add bad rate 1 burst 1 egress pppoe"
"an ingress limit on pppoe cannot be keyed by domain|ratelimit add bad rate 1 burst 1 ingress pppoe domain a"
"at most one key|ratelimit add bad rate 1 burst 1 peer a domain b"
"dest is an egress key|ratelimit add bad rate 1 burst 1 dest 10.0.0.9"
"is not an IPv4 or IPv6 address|ratelimit add bad rate 1 burst 1 address 10.0.0.300"
"message of 200 bytes: at most 127|ratelimit add bad rate 1 burst 1 message $(printf 'x%.0s' $(seq 200))"
"rate limit name of 64 bytes: must be 1..63 bytes|ratelimit add $(printf 'n%.0s' $(seq 64)) rate 1 burst 1"
"an egress check is for an attempt|ratelimit check egress sccrq"
"which message?|ratelimit check peer lac1"
"thresholds must increase|throttle add bad hold 30 step 20 band 60:40 50:30"
"a higher load must not throttle less|throttle add bad hold 30 step 20 band 50:40 60:30"
"revert step 0 %: must be 1..100 %|throttle add bad hold 30 step 0 band 50:30"
"hold time 0 ms|throttle add bad hold 0 step 20 band 50:30"
"more than 8 bands|throttle add bad hold 1 step 1 band 1:1 2:2 3:3 4:4 5:5 6:6 7:7 8:8 9:9"
"throttle profile \"prof\" is used by 1 rate limit(s)|throttle del prof"
"throttle profile \"nope\" does not exist|throttle load nope 50"
"load 101 %: must be 0..100 %|throttle load prof 101"
"sampling period 50 ms: must be 100..60000 ms|throttle set prof period 0.05"
"nothing to set|throttle set prof"
)
: > "$T/errs"
for e in "${errs[@]}"; do echo "${e#*|}" >> "$T/errs"; done
"$L" -b "$T/errs" > "$T/errs.out" 2> "$T/errs.err"
check_fail $? "the batch of bad lines succeeded"
cat "$T/errs.err"
expect "$(grep -c 'command failed$' "$T/errs.err")" "${#errs[@]}" "every bad line failed"
n=0
while IFS= read -r line; do
	if [[ $line == *"command failed" ]]; then
		n=$((n + 1))
		continue
	fi
	e=${errs[$n]}
	[[ $line == *"${e%%|*}"* ]] ||
		check_err 1 "line $((n + 1)) (${e#*|}): \"$line\" lacks \"${e%%|*}\""
done < "$T/errs.err"
# An add of an existing name outside a batch (a batch replaces, cli_batch.sh).
out=$("$L" ratelimit add lac1-icrq rate 10 burst 1 2>&1)
check_fail $? "ratelimit add of an existing limit succeeded"
[[ $out == *'rate limit "lac1-icrq" already exists'* ]]
check_err $? "ratelimit add of an existing limit: $out"
out=$("$L" throttle add prof hold 1 step 1 band 1:1 2>&1)
check_fail $? "throttle add of an existing profile succeeded"
[[ $out == *'throttle profile "prof" already exists'* ]]
check_err $? "throttle add of an existing profile: $out"
# Nothing of the refused lines was created, the counters did not move.
expect "$("$L" ratelimit show | awk '{ print $2 }' | tr '\n' ' ')" \
	"lac1-icrq lac1-all lns1 isp-logins throttled " "the limits after the refusals"
expect "$("$L" throttle show | awk '{ print $2 }' | tr '\n' ' ')" "prof " "the profiles"
expect "$(counters lac1-icrq)" "passed 5 rejected 16 dropped 0" "lac1-icrq counters unchanged"
log_test "errors: bad rates, unknown names, duplicates, bad bands, each with a message"

# --- set: rate, action, throttle; counters reset --------------------------------
cat > "$T/set" <<'EOF'
ratelimit set lac1-icrq action drop reset-counters
ratelimit check icrq peer lac1 count 10
ratelimit set throttled throttle none
throttle del prof
EOF
"$L" -b "$T/set" > "$T/set.out"
check_err $? "the set batch failed"
mapfile -t out < "$T/set.out"
[[ ${out[0]} == "drop by lac1-icrq matched 2 passed "* ]]
check_err $? "drop after set: ${out[0]}"
p=$(val "${out[0]}" passed)
expect "$(counters lac1-icrq)" "passed $p rejected 0 dropped $((10 - p))" "lac1-icrq after the reset"
out=$("$L" ratelimit show throttled)
[[ $out != *" throttle prof"* ]]
check_err $? "throttled still names a throttle: $out"
log_test "S-RL-2 set changes the action and resets the counters; profiles go when unused"

# --- namespaces: per-namespace state, freed with the namespace ----------------------
setup_ns other || fail "cannot create a namespace"
"$L" -n "$other" ratelimit add only-there rate 5 burst 5 ingress peer x
check_err $? "ratelimit add in $other"
"$L" -n "$other" throttle add p hold 1 step 1 band 50:50 source cpu period 0.1
check_err $? "throttle add in $other"
expect "$("$L" -n "$other" ratelimit show | awk '{ print $2 }')" "only-there" "the other namespace's limits"
[[ $("$L" ratelimit show) != *only-there* ]]
check_err $? "a limit of $other is seen in the initial namespace"
expect "$("$L" ratelimit check icrq peer x)" "pass matched 0" "the initial namespace does not use it"
ns_del "$other"
log_test "limits and profiles are per namespace and go with it"

# Bounded: 1024 limits and 64 profiles per namespace; the dump of 1024
# limits spans several messages and resumes where it stopped.
setup_ns full || fail "cannot create a namespace"
{ seq 1025 | sed 's/.*/ratelimit add r& rate 1 burst 1/'
  seq 65 | sed 's/.*/throttle add t& hold 1 step 1 band 50:50/'; } > "$T/full"
"$L" -n "$full" -b "$T/full" 2> "$T/full.err"
check_fail $? "1025 limits and 65 profiles were accepted"
grep -v 'command failed$' "$T/full.err"
expect "$(grep -c 'command failed$' "$T/full.err")" 2 "refused lines"
grep -q 'ratelimit add: at most 1024 rate limits per namespace' "$T/full.err"
check_err $? "no message for the 1025th limit"
grep -q 'throttle add: at most 64 throttle profiles per namespace' "$T/full.err"
check_err $? "no message for the 65th profile"
expect "$("$L" -n "$full" ratelimit show | awk '{ n++; s = s $2 " " } END { print n, $2 }')" \
	"1024 r1024" "the dump of 1024 limits"
ns_del "$full"
log_test "at most 1024 limits and 64 profiles per namespace, with a message"

# --- JSON of every show and of the check --------------------------------------
"$L" -j ratelimit show > "$T/rl.json"
"$L" -j ratelimit show lns1 > "$T/rl1.json"
"$L" -j ratelimit check icrq peer lac1 address 10.200.0.2 > "$T/ck.json"
python3 - "$T" <<'EOF'
import json, sys
t = sys.argv[1]
rl = json.load(open(t + "/rl.json"))
assert [r["name"] for r in rl] == ["lac1-icrq", "lac1-all", "lns1", "isp-logins", "throttled"], rl
one = json.load(open(t + "/rl1.json"))
assert one == [{"name": "lns1", "direction": "egress", "type": "attempt", "dest": "10.0.0.1",
                "port": 1701, "rate": 1, "burst": 3, "percent": 0, "effective": 1, "tokens": one[0]["tokens"],
                "action": "drop", "code": 2, "error": 4, "passed": 3, "rejected": 0, "dropped": 8,
                "message": "rate limit exceeded"}], one
ck = json.load(open(t + "/ck.json"))
assert ck["verdict"] in ("pass", "drop") and ck["matched"] == 2, ck
print("JSON ok")
EOF
check_err $? "JSON"
log_test "JSON of ratelimit show and ratelimit check"

# --- module unload with limits in place ---------------------------------------
mod_unload
check_err $? "rmmod with rate limits"
log_test "the module unloads with limits in place"

exit $EXIT_STATUS
