#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bounded and charged memory (S-SEC-1).  An unprivileged user's
# own user and network namespace (build/userns_exec -u 65534, what `unshare
# -Urn` gives anyone), inside a memory cgroup with a small limit, is filled
# with every kind of object a request can create (build/obj_caps).  Each
# kind ends at its cap, a module parameter lowered here so that the test is
# short, with -ENOSPC and a message naming the cap; sessions end at
# CHASSIS_MAX, which there may not exceed max_sessions_userns (raising it is
# refused, with a message); the cgroup's slab charge (memory.stat) grew by
# what the objects take; the user cannot change the caps; the initial namespace keeps
# working while that one is full.
source "$(dirname "$0")/../lib.sh"

USERNS_EXEC=${USERNS_EXEC:-$TOP/build/userns_exec}
OBJ_CAPS=${OBJ_CAPS:-$TOP/build/obj_caps}
L=$L2TPSEL_CLI
P=/sys/module/$L2TPSEL_MOD/parameters
CG=/sys/fs/cgroup
CGT=$CG/l2tpsel-obj-caps
# Objects of each kind the flooded namespace may hold (sessions: CHASSIS_MAX
# and max_sessions_userns); each takes 64 bytes of slab or more, charged.
declare -A CAP=([profile]=300 [domain]=500 [tgroup]=700 [slg]=600 [client]=1000 [session]=800)
declare -A PARAM
PARAM=([profile]=max_profiles [domain]=max_domains [tgroup]=max_tgroups [slg]=max_slgs
       [client]=max_clients [session]=max_sessions_userns)
declare -A DEFAULT=([max_profiles]=4096 [max_domains]=16384 [max_tgroups]=16384
		    [max_slgs]=16384 [max_clients]=65536 [max_sessions_userns]=65536)

require_root
require_module_file
[ -x "$USERNS_EXEC" ] || skip "no $USERNS_EXEC (run make)"
[ -x "$OBJ_CAPS" ] || skip "no $OBJ_CAPS (run make)"

mod_load || fail "insmod $L2TPSEL_KO failed"

for p in "${!DEFAULT[@]}"; do
	v=$(<"$P/$p") || { check_err 1 "no module parameter $p"; continue; }
	[ "$v" = "${DEFAULT[$p]}" ] || check_err 1 "$p is $v, documented default ${DEFAULT[$p]}"
done
log_test "the caps' defaults are the documented ones"

for k in "${!CAP[@]}"; do
	echo "${CAP[$k]}" > "$P/${PARAM[$k]}" || check_err 1 "cannot set ${PARAM[$k]}"
done
log_test "root of the initial namespace sets the caps"

# A memory cgroup with a small limit for the flooding process.
if ! mountpoint -q $CG; then
	mount -t cgroup2 none $CG || skip "cannot mount cgroup2 on $CG"
	defer umount $CG
fi
grep -qw memory $CG/cgroup.controllers || skip "no memory controller in $CG"
echo +memory > $CG/cgroup.subtree_control || fail "cannot enable the memory controller"
mkdir -p $CGT || fail "cannot make $CGT"
defer rmdir $CGT
echo $((32 << 20)) > $CGT/memory.max || fail "cannot set $CGT/memory.max"

own=(-u 65534)
if ! "$USERNS_EXEC" "${own[@]}" -- true 2>/dev/null; then
	echo "unprivileged user namespaces are off: root makes the user namespace"
	own=()
fi

out=$("$USERNS_EXEC" "${own[@]}" -- sh -c "echo 1 > $P/max_clients" 2>&1)
[ $? -ne 0 ] || check_err 1 "the user namespace's root changed max_clients"
[ "$(<"$P/max_clients")" = "${CAP[client]}" ] || check_err 1 "max_clients changed to $(<"$P/max_clients")"
echo "user namespace writes max_clients: ${out:-refused}"
log_test "the caps cannot be changed from a user namespace"

# The flood, in the cgroup; it waits on its standard input once full.
T=$(mktemp -d) || fail "mktemp"
defer rm -rf "$T"
mkfifo "$T/in" || fail "mkfifo"
(
	echo $BASHPID > $CGT/cgroup.procs || exit 125
	exec "$USERNS_EXEC" "${own[@]}" -- "$OBJ_CAPS" -n 5000 -c $((CAP[session] + 1)) <"$T/in"
) > "$T/out" 2>&1 &
fpid=$!
exec {hold}> "$T/in"
wait_for 300 grep -qx full "$T/out" ||
	{ kill $fpid; fail "the flood did not finish: $(<"$T/out")"; }
cat "$T/out"
charged_total=$(<$CGT/memory.current)

line=$(grep '^chassis-max ' "$T/out")
[[ $line == *" err 1 "* && $line == *"at most ${CAP[session]} outside the initial user namespace"* ]] ||
	check_err 1 "CHASSIS_MAX $((CAP[session] + 1)) in the user namespace: $line"
grep -qx "chassis-max-now ${CAP[session]} err 0" "$T/out" ||
	check_err 1 "the user namespace's CHASSIS_MAX: $(grep '^chassis-max-now' "$T/out")"
log_test "CHASSIS_MAX there is at most max_sessions_userns, its default"

for k in profile domain tgroup slg client session; do
	line=$(grep "^$k created " "$T/out")
	read -r _ _ n _ e _ c _ <<<"$line"
	msg=${line#* msg }
	[ "$n" = "${CAP[$k]}" ] && [ "$e" = 28 ] && [[ $msg == *"at most ${CAP[$k]} "*"${PARAM[$k]}"* ]] ||
		check_err 1 "$k: $line (expected ${CAP[$k]} then ENOSPC naming ${PARAM[$k]})"
	[ "${c:-0}" -ge $((64 * CAP[$k])) ] ||
		check_err 1 "$k: $n objects charged $c bytes to the memory cgroup"
done
log_test "every kind ends at its cap, with a message, and is charged"

# The initial namespace, while that one is full.
"$L" -b - <<'B'
profile add obj-caps-init
domain add obj-caps.example profile obj-caps-init
group add obj-caps-tg limit 5
group add obj-caps-slg type slg limit 5
client add obj-caps-c slg obj-caps-slg
limit set chassis-max 2000000
B
check_err $? "the initial namespace refused a change while the other was full"
log_test "the initial namespace keeps working"

exec {hold}>&-
wait $fpid
check_err $? "obj_caps ended with $?"
echo "memory.current of the flooding cgroup when full: $charged_total"
log_test "the flood ends cleanly"

exit $EXIT_STATUS
