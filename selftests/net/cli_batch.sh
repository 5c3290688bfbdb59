#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only the CLI's side; the kernel requests it makes (NEW, SET, DEL, dumps) run on the debug kernel in nl_contract and selection
#
# The boot-time configuration file (Documentation/install.md):
# "l2tpsel -b FILE" run twice gives the same state as once, with no error;
# an edited file applied over the old state gives exactly the state the
# file gives in an empty namespace (settings a line leaves out go back to
# their defaults, a changed tunnel is replaced); "-sync -b FILE" (the unit's
# reload) also deletes what the file no longer names, keeps every live
# session (a tunnel that has one stays, with a warning), and deletes nothing
# when a line fails.
source "$(dirname "$0")/../lib.sh"

require_root
require_cmd python3
require_module_file
mod_load || fail "insmod $L2TPSEL_KO failed"
make_tmpdir T
L=$L2TPSEL_CLI

# state NS: every object's configuration as sorted JSON lines (counters
# that a configuration does not set are left out).
state() {
	local k
	for k in "limit show" "lockout show" "profile show" "tunnel show" "domain show" \
		"group show" "client show" "ratelimit show" "throttle show"; do
		echo "== $k"
		ip netns exec "$1" "$L" -j $k
	done | python3 -c '
import json, sys
drop = {"sessions", "chassis_sessions", "hits", "passed", "rejected", "dropped", "tokens",
	"effective", "percent", "changes", "samples", "locked", "logins", "tunnel_groups"}
for line in sys.stdin:
	if line.startswith("=="):
		print(line, end="")
		continue
	v = json.loads(line)
	rows = v if isinstance(v, list) else [v]
	for r in sorted(json.dumps({k: x for k, x in r.items() if k not in drop}, sort_keys=True)
			for r in rows):
		print(r)'
}

# apply NS ARGS...: l2tpsel ARGS in NS; stdout+stderr in $out, status in $rc.
apply() {
	local ns=$1
	shift
	out=$(ip netns exec "$ns" "$L" "$@" 2>&1)
	rc=$?
}

cat >"$T/a.conf" <<'EOF'
# every kind of object the file can hold
limit set chassis 1000 tunnel 100
lockout time 120
lockout max-logins 50
throttle add th1 hold 10 step 5 band 50:10 80:50 source push
ratelimit add rl1 rate 100 burst 10 throttle th1 ingress sccrq
ratelimit add rl2 rate 50 burst 5 egress attempt dest 10.0.0.1
group add tg1 limit 50
group add slg1 type slg limit 20
client add lac-1 limit 5 slg slg1
profile add p1 failover within-level lb destination-equal failover-on cdn 2,4
tunnel add t1 profile p1 level 0 dest 10.0.0.1 max-sessions 10 group tg1 secret s
tunnel add t2 profile p1 level 1 dest 10.0.0.2
profile add p2
tunnel add t3 profile p2 level 0 dest 2001:db8::1 port 1702 local 2001:db8::2
domain add example.com profile p1
domain add example.net profile p2
EOF

# --- twice: the same state, no error ------------------------------------------
setup_ns A || fail "netns"
apply "$A" -b "$T/a.conf"
check_err $rc "first run: $out"
state "$A" >"$T/a1"
apply "$A" -b "$T/a.conf"
check_err $rc "second run failed: $out"
[ -z "$out" ]
check_err $? "second run printed: $out"
state "$A" >"$T/a2"
diff -u "$T/a1" "$T/a2"
check_err $? "the second run changed the state"
grep -q '"tunnel": "t3"' "$T/a1" && grep -q '"failover": "within-level"' "$T/a1"
check_err $? "the state lacks what the file set: $(cat "$T/a1")"
log_test "-b FILE twice: identical dumps of every object kind, no error on the second run"

# --- an edited file over the old state == the file in an empty namespace -------
# p1: settings left out (defaults again); t2: another destination and level;
# tg1: no limit; lac-1: no group; rl1: another rate and match; th1: no source.
sed -e 's/^profile add p1 .*/profile add p1/' \
    -e 's/^tunnel add t2 .*/tunnel add t2 profile p1 level 2 dest 10.0.0.9 max-sessions 3/' \
    -e 's/^group add tg1 .*/group add tg1/' \
    -e 's/^client add lac-1 .*/client add lac-1 limit 7/' \
    -e 's/^ratelimit add rl1 .*/ratelimit add rl1 rate 200 burst 20 ingress icrq/' \
    -e 's/^throttle add th1 .*/throttle add th1 hold 20 step 10 band 60:20/' \
    -e 's/^domain add example.net .*/domain add example.net profile p1/' \
    "$T/a.conf" >"$T/b.conf"
apply "$A" -b "$T/b.conf"
check_err $rc "edited file: $out"
setup_ns F || fail "netns"
apply "$F" -b "$T/b.conf"
check_err $rc "edited file in an empty namespace: $out"
state "$A" >"$T/b-over"
state "$F" >"$T/b-fresh"
diff -u "$T/b-fresh" "$T/b-over"
check_err $? "the edited file over the old state differs from the file alone"
grep -q '"dest": "10.0.0.9"' "$T/b-over" && ! grep -q '"dest": "10.0.0.2"' "$T/b-over"
check_err $? "tunnel t2 was not replaced"
ip netns exec "$A" "$L" destination show | grep -q '^10\.0\.0\.2 '
check_fail $? "the old destination of t2 is still there"
log_test "an edited file over the old state gives the state it gives alone (defaults back, t2 replaced)"

# --- -sync: what the file no longer names goes, live sessions stay -------------
# one live session on t1 (user@example.com -> p1, level 0)
out=$(printf 'login begin user@example.com\nlogin report last ok\n' | ip netns exec "$A" "$L" -b -)
okkey=$(echo "$out" | sed -n 's/.* done ok .* session \([0-9][0-9]*\)$/\1/p')
ses() {	# ses NS TUNNEL: the sessions the kernel counts on TUNNEL
	ip netns exec "$1" "$L" -j tunnel show |
		python3 -c 'import json, sys; print(sum(t["sessions"] for t in json.load(sys.stdin) if t["tunnel"] == sys.argv[1]))' "$2"
}
[ "$(ses "$A" t1)" = 1 ]
check_err $? "no live session on t1 to keep"
# c.conf: p2 with t3, example.net, rl2, lac-1 and slg1 removed; t4 added
grep -v -e ' p2' -e 'example.net' -e '^ratelimit add rl2' -e '^client add' -e 'slg1' "$T/b.conf" >"$T/c.conf"
echo "tunnel add t4 profile p1 level 1 dest 10.0.0.4" >>"$T/c.conf"
apply "$A" -sync -b "$T/c.conf"
check_err $rc "-sync: $out"
echo "$out"
[ "$(ses "$A" t1)" = 1 ]
check_err $? "the live session on t1 is gone after -sync"
ip netns exec "$A" "$L" destination show | grep -q '^10\.0\.0\.1 .*sessions 1'
check_err $? "destination 10.0.0.1 no longer counts the session: $(ip netns exec "$A" "$L" destination show)"
setup_ns G || fail "netns"
apply "$G" -b "$T/c.conf"
check_err $rc "c.conf in an empty namespace: $out"
state "$A" >"$T/c-sync"
state "$G" >"$T/c-fresh"
diff -u "$T/c-fresh" "$T/c-sync"
check_err $? "after -sync the state is not the file's"
log_test "-sync: t4 added; p2, t3, example.net, rl2, lac-1, slg1 deleted; the live session kept"

# a tunnel with a live session that the file drops: kept, with a warning
grep -v '^tunnel add t1 ' "$T/c.conf" >"$T/d.conf"
apply "$A" -sync -b "$T/d.conf"
check_err $rc "-sync without t1 failed: $out"
[[ $out == *"warning: -sync: tunnel t1 (profile p1) has 1 live session"* ]]
check_err $? "no warning for the live tunnel t1: $out"
[ "$(ses "$A" t1)" = 1 ]
check_err $? "t1 or its session is gone"
ip netns exec "$A" "$L" session down key "$okkey" >/dev/null
check_err $? "session down $okkey (the login's): $out"
apply "$A" -sync -b "$T/d.conf"
check_err $rc "-sync after the logout: $out"
ip netns exec "$A" "$L" tunnel show | grep -q '^t1 '
check_fail $? "t1 is still there after its session ended and the file ran again"
log_test "-sync keeps a tunnel with a live session (warning) and deletes it once the session ended"

# a failed line: nothing deleted
{ grep -v '^tunnel add t4 ' "$T/d.conf"; echo "tunnel add bad profile p1 level 9 dest 10.0.0.5"; } >"$T/e.conf"
apply "$A" -sync -b "$T/e.conf"
[ $rc = 1 ]
check_err $? "a failed line: exit $rc"
[[ $out == *"-sync: 1 line of $T/e.conf failed: nothing deleted"* ]]
check_err $? "message: $out"
ip netns exec "$A" "$L" tunnel show | grep -q '^t4 '
check_err $? "t4 was deleted although a line failed"
apply "$A" -sync tunnel show
[ $rc = 1 ] && [[ $out == *"-sync is for -b FILE"* ]]
check_err $? "-sync without -b: exit $rc, $out"
# a file that adds one object twice: the second line is its mistake, refused
{ cat "$T/d.conf"; echo "tunnel add t4 profile p1 level 3 dest 10.0.0.6"; } >"$T/f.conf"
apply "$A" -sync -b "$T/f.conf"
[ $rc = 1 ] && [[ $out == *"f.conf:$(wc -l <"$T/f.conf"): tunnel t4 was added on line"*"already"* ]]
check_err $? "a second add of t4 in one file: exit $rc, $out"
ip netns exec "$A" "$L" tunnel show | grep -q '^t4 .*level 1 dest 10.0.0.4'
check_err $? "t4 was changed by the file's second line"
log_test "-sync deletes nothing when a line fails; -sync without -b is refused; one object added twice by a file is refused"

exit $EXIT_STATUS
