#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: stock-only the CLI's side; the module's read permissions run on the debug kernel in nl_contract (perm_*)
#
# Who may read (S-SEC-2): every read of the CLI (shows, the
# summary, the events monitor) needs CAP_NET_ADMIN in the user namespace
# that owns the network namespace, as the kernel's own l2tp family asks for
# its GETs.  uid 65534 is refused, and the CLI says so plainly; root reads;
# an unprivileged user's own `unshare -Urn` namespaces (build/userns_exec,
# since the VM runs the tests chrooted) are its to read, and show nothing of
# the namespace they were made in.  `info` stays open.
source "$(dirname "$0")/../lib.sh"

USERNS_EXEC=${USERNS_EXEC:-$TOP/build/userns_exec}
L=$L2TPSEL_CLI
PERM_MSG="reading needs CAP_NET_ADMIN in the network namespace's user namespace"

require_root
require_module_file
require_cmd setpriv ip timeout
[ -x "$USERNS_EXEC" ] || skip "no $USERNS_EXEC (run make)"

mod_load || fail "insmod $L2TPSEL_KO failed"
setup_ns NS || fail "cannot create a namespace"

# State to read, made by root in $NS.
"$L" -n "$NS" -b - <<'B'
group add g1 limit 5
group add s1 type slg limit 9
client add c1 slg s1
profile add P
tunnel add T1 profile P level 0 dest 10.0.0.1 secret s3cr3t
domain add d.example profile P
ratelimit add r1 rate 10 burst 5 ingress peer lac1
throttle add th1 hold 1 step 10 band 50:30
B
check_err $? "root's configuration was refused"
log_test "root configures $NS"

READS=("limit show" "group show" "group show type slg" "client show" "session show"
       "summary" "profile show" "tunnel show" "domain show" "destination show"
       "lockout show" "ratelimit show" "throttle show")
# Reads of one object, in $NS.
NAMED=("group show g1" "group show type slg s1" "client show c1" "profile show P"
       "domain show d.example" "ratelimit show r1" "throttle show th1")

nobody() { ip netns exec "$NS" setpriv --reuid=65534 --regid=65534 --clear-groups "$L" "$@"; }

for c in "${READS[@]}" "${NAMED[@]}"; do
	# shellcheck disable=SC2086  # the words of the command
	out=$(nobody $c 2>&1)
	rc=$?
	[ $rc -ne 0 ] || check_err 1 "uid 65534 \"$c\" was not refused: $out"
	[[ $out == *"$PERM_MSG"* ]] || check_err 1 "uid 65534 \"$c\": $out"
done
echo "uid 65534 \"group show\": $(nobody group show 2>&1)"
log_test "uid 65534: every show refused, saying it needs CAP_NET_ADMIN"

# A process start takes seconds on the debug kernel: the limit is generous.
out=$(timeout $((30 * L2TPSEL_WAIT_SCALE)) ip netns exec "$NS" \
	setpriv --reuid=65534 --regid=65534 --clear-groups "$L" monitor count 1 2>&1)
rc=$?
echo "uid 65534 monitor: $out"
[[ $out == *"monitor: reading events needs CAP_NET_ADMIN in the network namespace's user namespace"* ]]
check_err $? "uid 65534 monitor: no refusal (exit $rc): $out"
[ $rc -ne 0 ] && [ $rc -ne 124 ]
check_err $? "uid 65534 monitor: exit $rc"
log_test "uid 65534: the events monitor refused, saying why"

out=$(nobody info 2>&1)
check_err $? "uid 65534 info: $out"
log_test "uid 65534: info still works"

for c in "${READS[@]}" "${NAMED[@]}"; do
	# shellcheck disable=SC2086
	out=$("$L" -n "$NS" $c 2>&1)
	check_err $? "root \"$c\": $out"
done
[[ $("$L" -n "$NS" group show g1) == *g1* ]] || check_err 1 "root does not see g1"
[[ $("$L" -n "$NS" client show) == *c1* ]] || check_err 1 "root does not see c1"
# root's monitor gets an event: lockouts of T1's destination until it has one.
make_tmpdir T || fail "no temporary directory"
ip netns exec "$NS" "$L" monitor count 1 > "$T/mon" 2>&1 &
mpid=$!
for ((i = 0; i < 40 * L2TPSEL_WAIT_SCALE; i++)); do
	"$L" -n "$NS" lockout dest 10.0.0.1 remaining 1 > /dev/null 2>&1
	lib_sleep 0.5
	pid_gone $mpid && break
done
pid_gone $mpid || kill $mpid 2>/dev/null
wait $mpid
check_err $? "root's monitor got no event: $(<"$T/mon")"
echo "root's monitor: $(<"$T/mon")"
log_test "root: every show and the monitor work"

# An unprivileged user's own user and network namespace (unshare -Urn).
own=(-u 65534)
if ! "$USERNS_EXEC" "${own[@]}" -- true 2>/dev/null; then
	echo "unprivileged user namespaces are off: root makes the user namespace"
	own=()
fi
out=$("$USERNS_EXEC" "${own[@]}" -- bash -c '
	L=$1 tries=$2
	shift 2
	"$L" group add mine limit 3 || exit 10
	"$L" client add mine-c || exit 11
	"$L" profile add MP || exit 12
	"$L" tunnel add MT profile MP level 0 dest 10.0.0.9 || exit 12
	for c in "$@"; do
		# shellcheck disable=SC2086
		o=$("$L" $c 2>&1) || { echo "own netns \"$c\": $o"; exit 13; }
	done
	"$L" group show mine | grep -q mine || { echo "no group mine"; exit 14; }
	"$L" client show mine-c | grep -q mine-c || { echo "no client mine-c"; exit 14; }
	"$L" group show g1 >/dev/null 2>&1 && { echo "sees the parent namespace'\''s g1"; exit 15; }
	"$L" profile show P >/dev/null 2>&1 && { echo "sees the parent namespace'\''s P"; exit 16; }
	# Its monitor gets an event of its own namespace (a lockout of MT'\''s destination).
	mon=$(mktemp) || exit 17
	"$L" monitor count 1 > "$mon" 2>&1 &
	m=$!
	for i in $(seq 1 "$tries"); do
		"$L" lockout dest 10.0.0.9 remaining 1 > /dev/null 2>&1
		sleep 0.5
		kill -0 $m 2>/dev/null || break
	done
	kill $m 2>/dev/null
	wait $m || { echo "own netns: the monitor got no event: $(cat "$mon")"; exit 17; }
	echo "its monitor: $(cat "$mon")"
	echo "uid_map$(tr -s " " </proc/self/uid_map): in its own namespaces, all reads work"
' _ "$L" $((40 * L2TPSEL_WAIT_SCALE)) "${READS[@]}" 2>&1)
check_err $? "in its own user and network namespace: $out"
echo "$out"
log_test "unshare -Urn: its own namespace's tables are its to read"

mod_unload
check_err $? "rmmod l2tpsel failed"
exit $EXIT_STATUS
