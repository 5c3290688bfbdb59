#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only the CLI's side; the module paths it drives (dumps resumed, LOGIN_TEST, events, lockout expiry, permissions) run on the debug kernel in nl_contract and concurrency
#
# Tunnel selection through the kernel and the CLI (SPEC §1-§3): the
# configuration lines of a simulator scenario loaded with "l2tpsel -b",
# destination figures, lockout time / clear / expiry with events (S-SEL-4,
# S-SEL-11), bound refusals with their messages (S-OBJ-3), secrets never
# shown, "login test" order, logins freed with their socket, max-logins, and
# the first reference example (S-SEL-12, between levels, two logins) replayed
# through login begin/report and compared with the simulator's end state.
source "$(dirname "$0")/../lib.sh"

require_root
require_cmd python3
require_module_file
mod_load || fail "insmod $L2TPSEL_KO failed"
make_tmpdir T
L=$L2TPSEL_CLI
SIM=$TOP/build/l2tpsel-sim
SCEN=$TOP/selftests/unit/scenarios
[ -x "$SIM" ] || skip "no simulator $SIM (run make unit)"
# The bulk parts (5000 domains, the login benches) at a tenth on the debug
# kernel (L2TPSEL_PEERS_ON_DEBUG=1 runs it there): the same code paths for
# KASAN and lockdep, a tenth of the time.
S=1
[ -z "$L2TPSEL_DEBUG_KERNEL" ] || S=${SELECTION_SCALE:-10}
[ "$S" = 1 ] || echo "# bulk counts divided by $S (debug kernel)"
ND=$((5000 / S)) NB=$((2000 / S)) NP=$((500 / S))

# refused EXPECTED-MESSAGE CMD...: CMD must fail and print the message.
refused() {
	local want=$1 out
	shift
	if out=$(Lx "$@" 2>&1); then
		check_err 1 "\"$*\" was accepted"
	elif [[ $out != *"$want"* ]]; then
		check_err 1 "\"$*\": message \"$out\" lacks \"$want\""
	fi
}

# --- S-SEL-12: reference examples replayed -----------------------------------
# replay NAME: run scenario NAME in the simulator, turn it into a batch for
# the kernel in a namespace of its own (config lines as they are; each
# "login" becomes "login begin" with the scenario's pinned picks and one
# "login report last OUTCOME" per attempt the simulator made, OUTCOME being
# what the LNS answers at that time), run it, and compare the attempts and
# the results with the simulator's trace.  "time advance" past every lockout
# is replayed as "clear lockout": the lockouts end either way; "state lock"
# is "lockout dest ... remaining".
replay() {
	local name=$1 scen=$SCEN/$1.scen d=$T/replay.$1 ns
	mkdir -p "$d"
	cp "$scen" "$d/scen"
	setup_ns ns || return 1
	"$SIM" "$scen" > "$d/trace" 2>&1 || { echo "  simulator failed on $name"; return 1; }
	awk '
		FNR == NR { tr[++m] = $0; next }
		/^[ \t]*#/ || NF == 0 { next }
		$1 ~ /^(profile|tunnel|domain|lockout|clear)$/ { print; next }
		$1 == "lns" && $3 == "answer" {
			ans[$2] = $4 == "silent" ? "no-reply" : $4 ~ /^(cdn|stopccn)$/ ? $4 " " $5 " " $6 : $4
			next
		}
		$1 == "pick" && $2 == "next" && $3 == "tunnel" { pend = pend " pick " $4; next }
		$1 == "time" && $2 == "advance" { print "clear lockout"; next }
		$1 == "state" && $2 == "lock" && $4 == "remaining" {
			print "lockout dest " $3 " remaining " $5
			next
		}
		$1 == "login" && NF % 2 == 0 {
			k++
			line = "login begin " $2
			for (i = 3; i < NF; i += 2) {
				if ($i != "profile" && $i != "key") { print "# unsupported: " $0; next }
				line = line " " $i " " $(i + 1)
			}
			print line pend
			pend = ""
			for (i = 1; i <= m; i++) {
				if (index(tr[i], "\"ev\":\"attempt\",\"login\":" k ",") == 0) continue
				match(tr[i], /"dest":"[^"]*"/)
				dst = substr(tr[i], RSTART + 8, RLENGTH - 9)
				print "login report last " (dst in ans ? ans[dst] : "ok")
			}
			next
		}
		{ print "# unsupported: " $0 }' "$d/trace" "$scen" > "$d/batch"
	if grep -q unsupported "$d/batch"; then
		echo "  $name: $(grep unsupported "$d/batch" | head -1)"
		return 1
	fi
	ip netns exec "$ns" "$L" -b "$d/batch" > "$d/steps" || { echo "  $name: batch failed"; return 1; }
	grep '"ev":"attempt"' "$d/trace" | grep -o '"tunnel":"[^"]*","dest":"[^"]*"' > "$d/sim_att"
	awk '$3 == "attempt" { print "\"tunnel\":\"" $4 "\",\"dest\":\"" $10 "\"" }' \
		"$d/steps" > "$d/k_att"
	diff -u "$d/sim_att" "$d/k_att" || { echo "  $name: attempts differ"; return 1; }
	grep '"ev":"login"' "$d/trace" |
		sed -E 's/.*"result":"ok".*/ok/; s/.*"reason":"([^"]*)".*/fail \1/' > "$d/sim_res"
	awk '$3 == "done" { print $4 == "ok" ? "ok" : "fail " $6 }' "$d/steps" > "$d/k_res"
	diff -u "$d/sim_res" "$d/k_res" || { echo "  $name: results differ"; return 1; }
	ip netns exec "$ns" "$L" -j destination show > "$d/dest.json"
	log_info "$name: $(wc -l < "$d/k_att") attempts, results $(tr '\n' ',' < "$d/k_res")"
}

replay sel12_between_levels
check_err $? "sel12_between_levels"
log_test "S-SEL-12: between-levels example, 2 logins: the simulator's attempts and results"
replay sel12_within_level
check_err $? "sel12_within_level"
log_test "S-SEL-12: within-level example (3.3 locked by hand): as the simulator"
replay sel12_shortest_lockout
check_err $? "sel12_shortest_lockout"
log_test "S-SEL-12, S-SEL-8: shortest-lockout example: as the simulator"
replay sel4_outcomes
check_err $? "sel4_outcomes"
log_test "S-SEL-4: CDN, StopCCN, client gone, failover-on codes: as the simulator"

# The rest runs in one namespace, on the first example's configuration.
setup_ns NS || fail "setup_ns"
Lx() { ip netns exec "$NS" "$L" "$@"; }
grep -E '^(profile|tunnel|domain|lockout|clear) ' "$SCEN/sel12_between_levels.scen" > "$T/config"
Lx -b "$T/config"
check_err $? "the scenario's configuration lines"
out=$(Lx destination show)
expect "$(echo "$out" | wc -l)" 4 "destinations after the config"
expect "$(val "$(echo "$out" | grep '^192.168.22.22 ')" tunnels)" 1 "tunnels naming 22.22"
expect "$(val "$(echo "$out" | grep '^192.168.22.22 ')" lockout-ms)" 0 "22.22 unlocked"
grep '^login ' "$T/replay.sel12_between_levels/batch" > "$T/logins"
Lx -b "$T/logins" > "$T/logins.out"
check_err $? "the logins of the first example"
# the sessions their OKs counted (by hand: no socket's, "session down" ends them)
okkeys=$(sed -n 's/.* done ok .* session \([0-9][0-9]*\)$/\1/p' "$T/logins.out")
[ -n "$okkeys" ]
check_err $? "no session key in the logins' output: $(cat "$T/logins.out")"
Lx -j profile show > "$T/profile.json"
# The lockout left running by the logins (192.168.33.33) goes before the next part.
expect "$(Lx clear lockout)" "cleared 1" "33.33 still locked after the logins"
log_test "S-OBJ-1: config lines through l2tpsel -b, destination show"

# --- secrets, login test ------------------------------------------------------
Lx tunnel add TS profile P level 3 dest 192.168.55.55 secret s3cr3t-XYZ
check_err $? "tunnel with a secret"
Lx -j tunnel show > "$T/tunnels.json"
! grep -q s3cr3t "$T/tunnels.json"
check_err $? "the secret appears in tunnel show -j"
! Lx tunnel show | grep -q s3cr3t
check_err $? "the secret appears in tunnel show"
Lx tunnel del TS profile P
log_test "S-OBJ-2: a tunnel's secret is accepted and never shown"

cat > "$T/cfg2" <<EOF
profile add Q
tunnel add Q1 profile Q level 0 dest 10.0.0.1
tunnel add Q2 profile Q level 1 dest 10.0.0.2 port 1702 local 10.9.9.9
tunnel add Q3 profile Q level 2 dest 2001:db8::3
domain add q.example profile Q
EOF
Lx -b "$T/cfg2"
check_err $? "profile Q"
Lx login test bob@q.example > "$T/test"
check_err $? "login test"
expect "$(awk '{ print $2 }' "$T/test" | head -3 | tr '\n' ' ')" "Q1 Q2 Q3 " "login test order"
expect "$(val "$(sed -n 2p "$T/test")" local)" 10.9.9.9 "local address of Q2"
expect "$(val "$(sed -n 2p "$T/test")" port)" 1702 "port of Q2"
expect "$(tail -1 "$T/test")" "then: login fails, reason exhausted" "login test end"
expect "$(val "$(Lx destination show | grep '^10.0.0.1 ')" attempts)" 0 "login test changed nothing"
Lx login test x profile Q > /dev/null
check_err $? "login test with a profile"
refused "no domain nowhere.example in the domain map" login test bob@nowhere.example
log_test "login test: order of a small profile, a dry run"

# --- lockout time, expiry with events, clear ------------------------------------
Lx monitor > "$T/events" 2>&1 &
mon=$!	# ns_del kills it too, should the test stop early
sleep 0.5
Lx lockout time 3
expect "$(val "$(Lx lockout show)" time)" 3 "lockout time"
cat > "$T/lock" <<EOF
login begin u@q.example
login report last no-reply
login report last no-reply
login report last client-gone
EOF
# The shows in the same batch: no process start (0.3 s here) in between.
{ cat "$T/lock"; echo "destination show"; echo "lockout show"; } > "$T/lock+show"
Lx -b "$T/lock+show" > "$T/lock.out"
check_err $? "locking Q1 and Q2"
left=$(val "$(grep '^10.0.0.1 ' "$T/lock.out")" lockout-ms)
[ -n "$left" ] && [ "$left" -gt 0 ] && [ "$left" -le 3000 ]
check_err $? "10.0.0.1 locked for at most 3000 ms, shows $left"
expect "$(val "$(grep '^time ' "$T/lock.out")" locked)" 2 "two locked"
sleep 3.3
expect "$(val "$(Lx destination show | grep '^10.0.0.1 ')" lockout-ms)" 0 "lockout expired"
expect "$(val "$(Lx lockout show)" locked)" 0 "none locked after expiry"
log_test "S-SEL-4: lockout time 3 s, exact expiry"

Lx lockout time 300
Lx -b "$T/lock" > /dev/null
out=$(Lx clear lockout remote 10.0.0.2)
expect "$out" "cleared 1" "clear by remote"
expect "$(val "$(Lx destination show | grep '^10.0.0.2 ')" lockout-ms)" 0 "10.0.0.2 cleared"
out=$(Lx clear lockout local 10.9.9.9)
expect "$out" "cleared 0" "clear by local (10.0.0.2 already clear)"
out=$(Lx clear lockout)
expect "$out" "cleared 1" "clear all"
expect "$(val "$(Lx lockout show)" locked)" 0 "none locked after clear"
log_test "S-SEL-11: clear lockout by remote, by local, all"

sleep 0.3
kill "$mon" 2>/dev/null
wait "$mon" 2>/dev/null
nlock=$(grep -c '^lockout dest ' "$T/events")
nunlock=$(grep -c '^unlock dest ' "$T/events")
nlogin=$(grep -c '^login [0-9]' "$T/events")
expect "$(grep -c '^unlock dest .* why expired$' "$T/events")" 2 "expired unlock events"
expect "$(grep -c '^unlock dest .* why clear$' "$T/events")" 2 "cleared unlock events"
log_info "events: $nlock lockout, $nunlock unlock, $nlogin login"
expect "$nlock" 4 "lockout events (2 logins x 2)"
expect "$nunlock" 4 "unlock events (2 expired, 2 cleared)"
expect "$nlogin" 2 "login events"
log_test "events: lockout start, expiry and clear, login end"

# --- bounds ------------------------------------------------------------------
{
	echo "profile add B"
	for i in $(seq 1 31); do echo "tunnel add B$i profile B level 0 dest 10.1.0.$i"; done
} > "$T/bounds"
Lx -b "$T/bounds"
check_err $? "31 destinations on one level"
refused "at most 31 destinations per level (level 0 has 31)" \
	tunnel add B32 profile B level 0 dest 10.1.0.32
refused "level 8 out of range: at most 8 levels (0..7)" \
	tunnel add B33 profile B level 8 dest 10.1.1.1
refused "at most 31 destinations per profile (it has 31)" \
	tunnel add B34 profile B level 1 dest 10.1.1.2
refused "max-sessions 16777216 above the bound 16777215" \
	tunnel add B35 profile B level 1 dest 10.1.0.1 max-sessions 16777216
refused "too long: at most 31 bytes" \
	tunnel add B0123456789012345678901234567890 profile B level 1 dest 10.1.0.1
refused "lockout time 0: must be 1..86400 seconds" lockout time 0
refused "profile B already exists" profile add B
refused "no destination with that remote address" lockout dest 9.9.9.9 remaining 5
refused "no destination with that remote address, port and local address" \
	lockout dest 10.0.0.1 port 1702 remaining 5
refused "profile P: tunnel T1 has 1 live sessions" profile del P
refused "tunnel T1 has 1 live sessions" tunnel del T1 profile P
for k in $okkeys; do
	Lx session down key "$k"
	check_err $? "session down of the replay's session $k"
done
expect "$(val "$(Lx destination show | grep '^192.168.10.10 ')" sessions)" 0 "10.10 sessions after logout"
for k in $okkeys; do
	refused "no session with key $k is up" session down key "$k"
done
Lx profile del B
check_err $? "profile del B"
expect "$(Lx destination show | grep -c '^10.1.0.')" 0 "B's destinations gone"
Lx profile del P
check_err $? "profile del P without sessions"
expect "$(Lx destination show | grep -c '^192.168.')" 0 "P's destinations gone"
log_test "S-OBJ-3: bounds refused with a message naming them"

# --- logins belong to their socket; max-logins ---------------------------------
Lx login begin u@q.example > /dev/null
expect "$(val "$(Lx lockout show)" logins)" 0 "the login went with its socket"
Lx lockout max-logins 2
printf 'login begin a@q.example\nlogin begin b@q.example\nlogin begin c@q.example\n' > "$T/many"
out=$(Lx -b "$T/many" 2>&1)
[[ $out == *"at most 2 logins in progress (max-logins)"* ]]
check_err $? "third login: $out"
refused "no login 12345 in progress for this socket" login report 12345 ok
Lx lockout max-logins 4096
Lx clear lockout > /dev/null
log_test "logins: freed when their socket closes, bounded by max-logins"

# --- permissions, filters, dumps over many messages ----------------------------
if command -v setpriv > /dev/null; then
	nobody() { ip netns exec "$NS" setpriv --reuid=65534 --regid=65534 --clear-groups "$L" "$@"; }
	for c in "profile add X" "tunnel del Q1 profile Q" "domain add x.example profile Q" \
		 "lockout time 5" "clear lockout" "login begin u@q.example" "login test u@q.example"; do
		out=$(nobody $c 2>&1) && check_err 1 "unprivileged \"$c\" was accepted"
		[[ $out == *"Operation not permitted"* ]] || check_err 1 "unprivileged \"$c\": $out"
	done
	for c in "destination show" "tunnel show" "profile show" "lockout show"; do
		out=$(nobody $c 2>&1) && check_err 1 "unprivileged \"$c\" was accepted"
		[[ $out == *"reading needs CAP_NET_ADMIN"* ]] || check_err 1 "unprivileged \"$c\": $out"
	done
	log_test "permissions: changes, logins, login test and shows need CAP_NET_ADMIN"
fi

expect "$(Lx tunnel show profile Q | awk '{ print $1 }' | tr '\n' ' ')" "Q1 Q2 Q3 " "tunnel show profile Q"
expect "$(Lx tunnel show profile nothing | wc -l)" 0 "tunnel show of an unknown profile"
seq 1 $ND | sed 's/.*/domain add d&.example profile Q/' > "$T/domains"
Lx -b "$T/domains"
check_err $? "$ND domains"
expect "$(Lx domain show | grep -c '^d[0-9]*\.example profile Q$')" $ND "domain dump over many messages"
expect "$(Lx domain show d$((ND - 289)).example)" "d$((ND - 289)).example profile Q" "domain get"
expect "$(Lx login test u@d$((ND - 1)).example | head -1 | awk '{ print $2 }')" Q1 "a login through domain $((ND - 1))"
seq 1 $ND | sed 's/.*/domain del d&.example/' > "$T/domains"
Lx -b "$T/domains"
check_err $? "$ND domains deleted"
log_test "dumps resume across messages ($ND domains); tunnel show filters by profile"

# --- cost of a login decision round trip ----------------------------------------
out=$(Lx login bench $NB u@q.example)
check_err $? "login bench"
log_info "login bench ($NB, 3-level profile): $out"
Lx -j login bench 200 profile Q > "$T/bench.json"
check_err $? "login bench -j"
log_test "bench: login round trip and GETFAMILY measured in the same run"

# Four agents at once, each 500 logins (attempt Q1, client gone): every
# attempt counted once, no login left behind.
before=$(val "$(Lx destination show | grep '^10.0.0.1 ')" attempts)
for i in 1 2 3 4; do Lx login bench $NP profile Q > "$T/par.$i" & done
wait
after=$(val "$(Lx destination show | grep '^10.0.0.1 ')" attempts)
expect "$((after - before))" $((4 * NP)) "attempts on 10.0.0.1 by 4 x $NP logins"
expect "$(val "$(Lx lockout show)" logins)" 0 "logins in progress after the agents"
log_test "4 agents x $NP logins at once: counters exact, nothing left"

# --- JSON, and the end state against the simulator -----------------------------
Lx -j domain show > "$T/domain.json"
Lx -j lockout show > "$T/lockout.json"
Lx -j login test bob@q.example > "$T/test.json"
python3 - "$T" <<'PY'
import json, sys, os
d = sys.argv[1]
j = lambda n: json.load(open(os.path.join(d, n)))
# The simulator's end state of the replayed scenario: per destination the
# attempts, the lockouts (failures), the sessions and whether it is locked.
for r in sorted(f for f in os.listdir(d) if f.startswith("replay.")):
    sim = {}
    for line in open(os.path.join(d, r, "scen")):
        w = line.split()
        if w[:2] == ["state", "lock"] and int(w[4]) > 0:
            sim.setdefault(w[2], {"attempts": 0, "failures": 0, "sessions": 0,
                                  "locked": False})["locked"] = True
    for line in open(os.path.join(d, r, "trace")):
        e = json.loads(line)
        s = sim.setdefault(e.get("dest"), {"attempts": 0, "failures": 0, "sessions": 0,
                                           "locked": False})
        if e["ev"] == "attempt": s["attempts"] += 1
        if e["ev"] == "lockout": s["failures"] += 1; s["locked"] = True
        if e["ev"] == "unlock": s["locked"] = False
        if e["ev"] == "login" and e["result"] == "ok": s["sessions"] += 1
    sim.pop(None, None)
    kern = {x["dest"]: {"attempts": x["attempts"], "failures": x["failures"],
                        "sessions": x["sessions"], "locked": x["lockout_ms"] > 0}
            for x in j(os.path.join(r, "dest.json"))}
    # Destinations never attempted are in the kernel's table, not in the trace.
    kern = {k: v for k, v in kern.items() if k in sim or v["attempts"]}
    assert kern == sim, (r, kern, sim)
    print(r, "end state equal:", sim)
t = j("tunnels.json")
assert all("secret" in x and x["secret"] in (True, False) for x in t), t
assert [x["tunnel"] for x in t if x["profile"] == "P"] == ["T1", "T2", "T3", "T4", "TS"], t
p = {x["name"]: x for x in j("profile.json")}
assert p["P"]["failover"] == "between-levels" and p["P"]["lb"] == "random", p
assert p["P"]["tunnels"] == 4 and p["P"]["levels"] == 3 and p["P"]["destinations"] == 4, p
assert {"domain": "q.example", "profile": "Q"} in j("domain.json")
lo = j("lockout.json")
assert lo["time"] == 300 and lo["max_logins"] == 4096 and lo["locked"] == 0, lo
tj = j("test.json")
assert [a["tunnel"] for a in tj["attempts"]] == ["Q1", "Q2", "Q3"], tj
assert tj["result"] == "fail" and tj["reason"] == "exhausted", tj
b = j("bench.json")
assert b["count"] == 200 and b["begin_ns"] > 0 and b["getfamily_ns"] > 0, b
print("json ok")
PY
check_err $? "JSON and the simulator's end state"
log_test "S-SEL-12: destination show -j equals the simulator's end state; JSON"

exit $EXIT_STATUS
