#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Rate limits and throttling of L2TP signalling through the kernel and the
# CLI (SPEC §5, reference 004, Documentation/ratelimit.md): a per-message-type
# limit that throttles ICRQ and leaves SCCRQ alone (S-RL-1), an egress limit
# that protects one LNS and leaves another untouched (S-RL-1, S-RL-2), a burst
# of login checks refused with the configured code (S-RL-2), the 004 example
# replayed with pushed loads and its hold time scaled from 30 s to 4 s, seen
# by `l2tpsel monitor` (S-RL-4, S-RL-3), the CPU load source, error paths,
# exact counters, namespaces, and the JSON of every show.
source "$(dirname "$0")/../lib.sh"

require_root
require_cmd python3 ip
require_module_file
mod_load || fail "insmod $L2TPSEL_KO failed"
make_tmpdir T
L=$L2TPSEL_CLI

expect() {
	if [ "$1" != "$2" ]; then
		check_err 1 "$3: got \"$1\", expected \"$2\""
	fi
}

# val TEXT KEY: the word after KEY in TEXT.
val() {
	local re="(^| )$2 ([^ ]+)"
	[[ $1 =~ $re ]] && echo "${BASH_REMATCH[2]}"
}

# counters NAME: "passed P rejected R dropped D" of a limit.
counters() {
	local out
	out=$("$L" ratelimit show "$1")
	echo "passed $(val "$out" passed) rejected $(val "$out" rejected) dropped $(val "$out" dropped)"
}

# refused MESSAGE CLI-ARGS...: the command fails and says MESSAGE.
refused() {
	local want=$1 out
	shift
	if out=$("$L" "$@" 2>&1); then
		check_err 1 "\"$*\" was accepted"
		return
	fi
	echo "  l2tpsel $*: $out"
	[[ $out == *"$want"* ]] || check_err 1 "\"$*\": message \"$out\" lacks \"$want\""
}

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

# --- S-RL-4, S-RL-3: the 004 example with pushed loads ------------------------
# Static limit 1000/s, step 20 %, bands >=50 % -> 30 %, >=60 % -> 40 %,
# >=65 % -> 50 %; the hold time is scaled down from 30 s to HOLD (six times
# what one CLI call takes here, at least 3 s).  pgw1 has the dynamic
# profile, pgw2 has none and is never throttled.  Each change is an event on
# the "events" group, seen by `l2tpsel monitor`.  The loads are pushed in
# batches with `ratelimit show` lines between them, so that no revert step
# can fall between a push and the look at its effect; the revert steps are
# awaited as events in the monitor's output.
t0=$(date +%s%N)
"$L" ratelimit show > /dev/null
cli_ms=$((($(date +%s%N) - t0) / 1000000))
HOLD=$(((cli_ms * 6 + 999) / 1000))
[ "$HOLD" -ge 3 ] || HOLD=3
echo "one CLI call: $cli_ms ms; hold $HOLD s"
"$L" -j monitor count 7 > "$T/mon" &
mon=$!
stop_mon() { kill "$mon" 2>/dev/null; }
defer stop_mon
printf '%s\n' "throttle add db-cpu hold $HOLD step 20 band 50:30 60:40 65:50" \
	"ratelimit add pgw1 rate 1000 burst 2 throttle db-cpu ingress sccrq peer pgw1" \
	"ratelimit add pgw2 rate 1000 burst 2 ingress sccrq peer pgw2" > "$T/th"
"$L" -b "$T/th"
check_err $? "throttle add db-cpu, ratelimit add pgw1 pgw2"
sleep 0.5	# the monitor joins the group

# eff FILE: the effective limits of pgw1 and pgw2 in the shows of a batch's output.
eff() {
	awk '$1 == "ratelimit" { for (i = 1; i < NF; i++) if ($i == "effective") printf "%s:%s ", $2, $(i + 1) }' "$1"
}
# percent_is PROFILE PERCENT
percent_is() {
	[ "$(val "$("$L" throttle show "$1")" percent)" = "$2" ]
}
# await_event N: the monitor has printed N events (within 4 holds).
await_event() {
	local deadline=$((SECONDS + 4 * HOLD + 5))
	while [ "$(wc -l < "$T/mon")" -lt "$1" ]; do
		[ $SECONDS -lt $deadline ] || return 1
		sleep 0.1
	done
}

printf '%s\n' "load set 40" "ratelimit show pgw1" "load set 62" "ratelimit show pgw1" \
	"ratelimit show pgw2" "throttle load db-cpu 60" "throttle load db-cpu 64" \
	"ratelimit show pgw1" "load set 49" "ratelimit show pgw1" > "$T/b1"
"$L" -b "$T/b1" > "$T/b1.out"
check_err $? "the first load batch failed"
expect "$(eff "$T/b1.out")" "pgw1:1000 pgw1:600 pgw2:1000 pgw1:600 pgw1:600 " \
	"40 %, 62 %, 60..64 %, 49 %"
expect "$(grep -c '^changed 0$' "$T/b1.out")" 4 "40, 60, 64 and 49 % change nothing"
t0=$(date +%s%N)
await_event 2
check_err $? "no revert step after the hold"
echo "revert step seen $((($(date +%s%N) - t0) / 1000000)) ms after the push of 49 % (hold $HOLD s)"
printf '%s\n' "ratelimit show pgw1" "load set 57" "ratelimit show pgw1" "load set 67" \
	"ratelimit show pgw1" "ratelimit show pgw2" "load set 55" "ratelimit show pgw1" \
	"load set 49" "ratelimit show pgw1" > "$T/b2"
"$L" -b "$T/b2" > "$T/b2.out"
check_err $? "the second load batch failed"
expect "$(eff "$T/b2.out")" "pgw1:800 pgw1:700 pgw1:500 pgw2:1000 pgw1:700 pgw1:700 " \
	"after the hold, 57 %, 67 %, 55 %, 49 %"
await_event 6
check_err $? "no revert to 10 %"
"$L" ratelimit show pgw1 > "$T/b3.out"
await_event 7
check_err $? "no revert to 0 %"
"$L" ratelimit show > "$T/b4.out"
expect "$(eff "$T/b3.out")$(eff "$T/b4.out" | grep -o 'pgw[12]:[0-9]* ' | tr -d '\n')" \
	"pgw1:900 pgw1:1000 pgw2:1000 " "49 % for one and two hold times"
for _ in $(seq 50); do kill -0 "$mon" 2>/dev/null || break; sleep 0.1; done
kill -0 "$mon" 2>/dev/null && check_err 1 "the monitor saw fewer than 7 events"
cat "$T/mon"
want='{"ev":"throttle","profile":"db-cpu","load":62,"percent":40,"limits":1}
{"ev":"throttle","profile":"db-cpu","load":49,"percent":20,"limits":1}
{"ev":"throttle","profile":"db-cpu","load":57,"percent":30,"limits":1}
{"ev":"throttle","profile":"db-cpu","load":67,"percent":50,"limits":1}
{"ev":"throttle","profile":"db-cpu","load":55,"percent":30,"limits":1}
{"ev":"throttle","profile":"db-cpu","load":49,"percent":10,"limits":1}
{"ev":"throttle","profile":"db-cpu","load":49,"percent":0,"limits":1}'
expect "$(cat "$T/mon")" "$want" "the events"
out=$("$L" throttle show db-cpu)
echo "$out"
expect "$(val "$out" changes) $(val "$out" samples)" "7 9" "changes and samples of db-cpu"
log_test "S-RL-4 the 004 example: 600 600 800 700 500 700 900 1000, one event per change"

# S-RL-3: a throttle of 100 % lets nothing through, even from a full bucket;
# the pushed load applies to push profiles only.
cat > "$T/shed" <<'EOF'
throttle add shed hold 1 step 100 band 90:100
ratelimit add lac9 rate 100 burst 5 throttle shed ingress icrq peer lac9
throttle load shed 95
ratelimit check icrq peer lac9 count 5
throttle load shed 10
ratelimit check icrq peer lac9 count 5
EOF
"$L" -b "$T/shed" > "$T/shed.out"
check_err $? "the shed batch failed"
cat "$T/shed.out"
mapfile -t out < "$T/shed.out"
expect "${out[1]}" "reject by lac9 code 2 error 4 matched 1 passed 0 rejected 5 dropped 0 message \"rate limit exceeded\"" "at 100 %"
wait_for 10 percent_is shed 0
check_err $? "shed does not revert after its hold"
expect "$("$L" ratelimit check icrq peer lac9 count 5)" "pass matched 1 passed 5 rejected 0 dropped 0" "after the revert"
log_test "S-RL-3 at 100 % nothing passes; the bucket is kept for after the revert"

# --- S-RL-3: the CPU load source --------------------------------------------
"$L" throttle add cpu hold 1 step 10 band 95:50 source cpu period 0.2
check_err $? "throttle add cpu"
sleep 1.2
out=$("$L" throttle show cpu)
echo "$out"
[ "$(val "$out" samples)" -ge 3 ]
check_err $? "fewer than 3 CPU samples in 1.2 s at a 0.2 s period"
load=$(val "$out" load)
[ "$load" -ge 0 ] && [ "$load" -le 100 ]
check_err $? "CPU load $load"
refused "samples the CPU: its load cannot be pushed" throttle load cpu 50
"$L" throttle del cpu
check_err $? "throttle del cpu"
log_test "S-RL-3 the CPU source samples every period; its load cannot be pushed"

# --- errors: every refusal says what is wrong ------------------------------------
# One batch: each line is refused with its message; nothing of it is created.
errs=(
"rate 0: must be 1..10000000 requests per second|ratelimit add bad rate 0 burst 1"
"burst 0: must be 1..1000000 requests|ratelimit add bad rate 10 burst 0"
"rate 20000000: must be 1..10000000|ratelimit set pgw1 rate 20000000"
"rate limit \"pgw1\" already exists|ratelimit add pgw1 rate 10 burst 1"
"throttle profile \"nope\" does not exist|ratelimit add bad rate 1 burst 1 throttle nope"
"rate limit \"nope\" does not exist|ratelimit del nope"
"rate limit \"nope\" does not exist|ratelimit show nope"
"rate limit \"nope\" does not exist|ratelimit set nope rate 5"
"the match of a limit cannot change|ratelimit set pgw1 peer x"
"message type sccrq is ingress only|ratelimit add bad rate 1 burst 1 egress sccrq"
"message type attempt is egress only|ratelimit add bad rate 1 burst 1 ingress attempt"
"an ingress limit on login cannot be keyed by peer|ratelimit add bad rate 1 burst 1 ingress login peer a"
"an egress limit on attempt cannot be keyed by peer|ratelimit add bad rate 1 burst 1 egress attempt peer a"
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
"throttle profile \"db-cpu\" already exists|throttle add db-cpu hold 1 step 1 band 1:1"
"throttle profile \"db-cpu\" is used by 1 rate limit(s)|throttle del db-cpu"
"throttle profile \"nope\" does not exist|throttle load nope 50"
"load 101 %: must be 0..100 %|throttle load db-cpu 101"
"sampling period 50 ms: must be 100..60000 ms|throttle set db-cpu period 0.05"
"nothing to set|throttle set db-cpu"
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
# Nothing of the refused lines was created, the counters did not move.
expect "$("$L" ratelimit show | awk '{ print $2 }' | tr '\n' ' ')" \
	"lac1-icrq lac1-all lns1 isp-logins pgw1 pgw2 lac9 " "the limits after the refusals"
expect "$("$L" throttle show | awk '{ print $2 }' | tr '\n' ' ')" "db-cpu shed " "the profiles"
expect "$(counters lac1-icrq)" "passed 5 rejected 16 dropped 0" "lac1-icrq counters unchanged"
log_test "errors: bad rates, unknown names, duplicates, bad bands, each with a message"

# --- set: rate, action, throttle; counters reset --------------------------------
cat > "$T/set" <<'EOF'
ratelimit set lac1-icrq action drop reset-counters
ratelimit check icrq peer lac1 count 10
ratelimit set pgw1 throttle none
throttle del db-cpu
EOF
"$L" -b "$T/set" > "$T/set.out"
check_err $? "the set batch failed"
mapfile -t out < "$T/set.out"
[[ ${out[0]} == "drop by lac1-icrq matched 2 passed "* ]]
check_err $? "drop after set: ${out[0]}"
p=$(val "${out[0]}" passed)
expect "$(counters lac1-icrq)" "passed $p rejected 0 dropped $((10 - p))" "lac1-icrq after the reset"
out=$("$L" ratelimit show pgw1)
[[ $out != *throttle* ]]
check_err $? "pgw1 still names a throttle: $out"
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

# --- S-RL-3: one batch file for the simulator and the kernel -----------------------
# The configuration lines of the simulator's S-RL-4 scenario (throttle add,
# ratelimit add, load set) run unchanged through the CLI, in a namespace of
# their own, and end at the same throttle as in the simulator: 30 % after
# 40, 62, 60, 64, 49, 57, 67, 55, 49 with no time passing.
SIM=$TOP/build/l2tpsel-sim
grep -E '^(throttle|ratelimit|load) ' "$TOP/selftests/unit/scenarios/rl4_reference_example.scen" \
	> "$T/both"
sim_th=$("$SIM" "$T/both" | grep '"ev":"throttle"' | sed 's/.*"load":\([0-9]*\),"percent":\([0-9]*\)}/\1:\2/' |
	 tr '\n' ' ')
echo "simulator: $sim_th"
setup_ns both || fail "cannot create a namespace"
"$L" -n "$both" -b "$T/both" > /dev/null
check_err $? "the simulator's lines in the CLI"
out=$("$L" -n "$both" throttle show db-cpu)
echo "kernel: $out"
expect "$sim_th" "62:40 57:30 67:50 55:30 " "the simulator's throttle events"
expect "$(val "$out" percent) $(val "$out" changes)" "30 4" "the kernel's throttle and its changes"
expect "$(val "$("$L" -n "$both" ratelimit show pgw1)" effective)" 700 "pgw1 in the kernel"
ns_del "$both"
log_test "S-RL-3 the simulator's configuration lines give the same throttle in the kernel"

# --- JSON of every show, the check and the events --------------------------------------
"$L" -j ratelimit show > "$T/rl.json"
"$L" -j ratelimit show lns1 > "$T/rl1.json"
"$L" -j throttle show > "$T/th.json"
"$L" -j ratelimit check icrq peer lac1 address 10.200.0.2 > "$T/ck.json"
python3 - "$T" <<'EOF'
import json, sys
t = sys.argv[1]
rl = json.load(open(t + "/rl.json"))
assert [r["name"] for r in rl] == ["lac1-icrq", "lac1-all", "lns1", "isp-logins", "pgw1", "pgw2", "lac9"], rl
one = json.load(open(t + "/rl1.json"))
assert one == [{"name": "lns1", "direction": "egress", "type": "attempt", "dest": "10.0.0.1",
                "port": 1701, "rate": 1, "burst": 3, "percent": 0, "effective": 1, "tokens": one[0]["tokens"],
                "action": "drop", "code": 2, "error": 4, "passed": 3, "rejected": 0, "dropped": 8,
                "message": "rate limit exceeded"}], one
th = json.load(open(t + "/th.json"))
assert th == [{"name": "shed", "source": "push", "period_ms": 1000, "hold_ms": 1000, "step": 100,
               "bands": [{"load": 90, "percent": 100}], "load": 10, "percent": 0, "users": 1,
               "changes": 2, "samples": 2}], th
ck = json.load(open(t + "/ck.json"))
assert ck["verdict"] in ("pass", "drop") and ck["matched"] == 2, ck
for line in open(t + "/mon"):
    ev = json.loads(line)
    assert ev["ev"] == "throttle" and ev["profile"] == "db-cpu", ev
print("JSON ok")
EOF
check_err $? "JSON"
log_test "JSON of ratelimit show, throttle show, check and the monitor"

# --- module unload with limits, profiles and a pending work in place ---------------------
"$L" throttle add busy hold 1 step 1 band 50:50 source cpu period 0.1
mod_unload
check_err $? "rmmod with rate limits and a CPU profile"
log_test "the module unloads with limits and a sampling profile in place"

exit $EXIT_STATUS
