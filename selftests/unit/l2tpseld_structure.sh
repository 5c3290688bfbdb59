#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The tunnel, session, LAC and access files of l2tpseld (Documentation/l2tpseld.md),
# and every file of the CLI and the simulator (userspace/cli, userspace/sim):
# none in a circle of calls (scripts/l2d-structure.py), none over 800
# lines, no function of theirs over 80.  The functions the kernel and data
# path files give the agent carry their file's name (l2d_kernel_none_*
# in kernel_none.c).  KTAP-ish lines, exit 1 on a failure.
cd "$(dirname "$0")/../.." || exit 1
FILES="tunnel.c tunnel_rx.c tunnel_accept.c tunnel_peer.c tunnel_msg.c session.c session_refuse.c \
session_csu.c lac.c dataplane_kernel.c access.c access_disc.c access_sub.c access_snap.c access_call.c \
access_acct.c access_switch.c"
n=0 fail=0
ok() {
	n=$((n + 1))
	if [ "$2" = 0 ]; then echo "ok $n $1"; else echo "not ok $n $1"; fail=$((fail + 1)); fi
}
# check DIR FILE...: each FILE of DIR against scripts/l2d-structure.py --dir DIR
check() {
	D=$1
	shift
	out=$(python3 scripts/l2d-structure.py --dir "$D") || exit 1
	circles=$(printf '%s\n' "$out" | sed -n '/^== circles/,/^$/p')
	pairs=$(printf '%s\n' "$out" | sed -n '/^== pairs/,/^$/p')
	long=$(printf '%s\n' "$out" | sed -n '/^== functions over/,$p')
	for f in "$@"; do
		[ -f "$D/$f" ] || continue
		c=0
		printf '%s\n%s\n' "$circles" "$pairs" | grep -qw -- "$f" && c=1
		ok "$D/$f: in no circle of calls" $c
		l=$(wc -l <"$D/$f")
		ok "$D/$f: $l lines, at most 800" "$([ "$l" -le 800 ]; echo $?)"
		c=0
		printf '%s\n' "$long" | grep -q " $f:" && c=1
		ok "$D/$f: no function over 80 lines" $c
	done
}
# shellcheck disable=SC2086 # FILES is a list of words
check userspace/l2tpseld $FILES
for d in userspace/cli userspace/sim; do
	set --
	for f in "$d"/*.c; do
		set -- "$@" "${f##*/}"
	done
	check "$d" "$@"
done
for f in kernel_none kernel_netlink dataplane_kernel; do
	other=$(grep -E '^[a-z]' "userspace/l2tpseld/$f.c" | grep -v -e '^static' -e ';$' |
		grep -oE '\bl2d_[a-z0-9_]+\(' | tr -d '(' | grep -v "^l2d_${f}_" | tr '\n' ' ')
	ok "userspace/l2tpseld/$f.c: its functions are l2d_${f}_*${other:+ (not: ${other% })}" \
		"$([ -z "$other" ]; echo $?)"
done
echo "# l2tpseld structure: $((n - fail)) passed, $fail failed"
[ $fail -eq 0 ]
