#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only hold times in guest seconds; the module's limiter and throttle paths (RL_CHECK, THROTTLE) run on the debug kernel in ratelimit and nl_fuzz
#
# Dynamic throttling of rate limits through the kernel and the CLI (SPEC §5,
# reference 004, Documentation/ratelimit.md): the 004 example replayed with
# pushed loads and its hold time scaled down, seen by `l2tpsel monitor`
# (S-RL-4, S-RL-3), a band of 100 %, the CPU load source, the simulator's
# configuration lines in the kernel, and the JSON of throttle show and of the
# events.  Static limits are in ratelimit.sh.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../ratelimit_lib.sh"

require_root
require_cmd python3 ip
require_module_file
mod_load || fail "insmod $L2TPSEL_KO failed"
make_tmpdir T
L=$L2TPSEL_CLI

# --- S-RL-4, S-RL-3: the 004 example with pushed loads ------------------------
# Static limit 1000/s, step 20 %, bands >=50 % -> 30 %, >=60 % -> 40 %,
# >=65 % -> 50 %; the hold time is scaled down from 30 s to HOLD (three times
# what one CLI call takes here, at least 3 s).  pgw1 has the dynamic
# profile, pgw2 has none and is never throttled.  Each change is an event on
# the "events" group, seen by `l2tpsel monitor`.  The loads are pushed in
# batches with `ratelimit show` lines between them, so that no revert step
# can fall between a push and the look at its effect; the revert steps are
# awaited as events in the monitor's output.
t0=$(date +%s%N)
"$L" ratelimit show > /dev/null
cli_ms=$((($(date +%s%N) - t0) / 1000000))
HOLD=$(((cli_ms * 3 + 999) / 1000))
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

# --- the CPU source across CPU hotplug and in a user namespace
# A busy loop on CPU 0 while CPU 1 goes offline and comes back: every sample
# shows it (before: the sample after each change was a bogus 0 %, the sums
# of the online CPUs' times having lost or gained a CPU).  The lowest load
# the polls see over two samples after each change is kept.
cpu1=/sys/devices/system/cpu/cpu1/online
if [ -w $cpu1 ] && [ "$(<$cpu1)" = 1 ] && command -v taskset >/dev/null; then
	taskset -c 0 bash -c 'while :; do :; done' &
	spin=$!
	stop_spin() { kill "$spin" 2>/dev/null; echo 1 > $cpu1 2>/dev/null; }
	defer stop_spin
	"$L" throttle add hot hold 1 step 10 band 95:50 source cpu period 1
	check_err $? "throttle add hot"
	samples() { val "$("$L" throttle show hot)" samples; }
	# min_load_over N: the lowest load shown until N more samples were taken.
	min_load_over() {
		local until=$(($(samples) + $1)) low=100 out l
		while :; do
			out=$("$L" throttle show hot)
			[ "$(val "$out" samples)" -ge "$until" ] && break
			l=$(val "$out" load)
			[ "$l" -lt "$low" ] && low=$l
			lib_sleep 0.2
		done
		echo "$low"
	}
	wait_for 30 test "$(samples)" -ge 2
	echo 0 > $cpu1
	check_err $? "cpu1 offline"
	low_off=$(min_load_over 2)
	echo 1 > $cpu1
	check_err $? "cpu1 online"
	low_on=$(min_load_over 2)
	echo "lowest CPU load seen, CPU 0 busy: after cpu1 went offline $low_off %, back online $low_on %"
	[ "$low_off" -ge 40 ] || check_err 1 "CPU load $low_off % after cpu1 went offline, CPU 0 busy"
	[ "$low_on" -ge 25 ] || check_err 1 "CPU load $low_on % after cpu1 came back, CPU 0 busy"
	"$L" throttle del hot
	stop_spin
	log_test "the CPU source keeps its load across CPU hotplug"
else
	echo "SKIP: no CPU 1 to take offline, or no taskset"
fi

USERNS_EXEC=${USERNS_EXEC:-$TOP/build/userns_exec}
if [ -x "$USERNS_EXEC" ]; then
	out=$("$USERNS_EXEC" -u 65534 -- "$L" throttle add mine hold 1 step 10 band 50:50 source cpu 2>&1)
	rc=$?
	echo "user namespace, source cpu: $out"
	[ $rc -ne 0 ] && [[ $out == *"only in the initial user namespace"* ]] ||
		check_err 1 "a user namespace's owner made a CPU-sampling profile: $out"
	out=$("$USERNS_EXEC" -u 65534 -- bash -c '"$1" throttle add mine hold 1 step 10 band 50:50 &&
		"$1" throttle set mine source cpu' _ "$L" 2>&1)
	[ $? -ne 0 ] && [[ $out == *"only in the initial user namespace"* ]] ||
		check_err 1 "a user namespace's owner switched a profile to source cpu: $out"
	log_test "the CPU source, which reads the host's load, is refused in a user namespace"
fi

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

# --- JSON of throttle show and of the events ------------------------------------
"$L" -j throttle show > "$T/th.json"
python3 - "$T" "$HOLD" <<'EOF'
import json, sys
t, hold = sys.argv[1], int(sys.argv[2])
th = json.load(open(t + "/th.json"))
assert th == [{"name": "db-cpu", "source": "push", "period_ms": 1000, "hold_ms": hold * 1000, "step": 20,
               "bands": [{"load": 50, "percent": 30}, {"load": 60, "percent": 40}, {"load": 65, "percent": 50}],
               "load": 49, "percent": 0, "users": 1, "changes": 7, "samples": 9},
              {"name": "shed", "source": "push", "period_ms": 1000, "hold_ms": 1000, "step": 100,
               "bands": [{"load": 90, "percent": 100}], "load": 10, "percent": 0, "users": 1,
               "changes": 2, "samples": 2}], th
for line in open(t + "/mon"):
    ev = json.loads(line)
    assert ev["ev"] == "throttle" and ev["profile"] == "db-cpu", ev
print("JSON ok")
EOF
check_err $? "JSON"
log_test "JSON of throttle show and of the monitor's events"

# --- module unload with a pending work in place ---------------------------------
"$L" throttle add busy hold 1 step 1 band 50:50 source cpu period 0.1
mod_unload
check_err $? "rmmod with rate limits and a CPU profile"
log_test "the module unloads with limits and a sampling profile in place"

exit $EXIT_STATUS
