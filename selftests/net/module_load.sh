#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Load and unload l2tpsel 50 times (10 on the debug kernel) while
# namespaces come and go: namespaces created before a load, while loaded
# (pernet init) and deleted while loaded (pernet exit), and some still alive
# at unload.  After each load the family
# answers in the initial namespace and in one created while loaded; after each
# unload the module is gone.
source "$(dirname "$0")/../lib.sh"

# 50 rounds on Debian's kernel, 10 on the debug kernel: every path (pernet
# init of namespaces made before and during a load, exit while loaded, those
# alive at unload) runs in each round; ten rounds give KASAN, lockdep and
# kmemleak all of them ten times, at 6 s a round there.
case $(uname -r) in
*-l2tpsel-debug*) ROUNDS=${L2TPSEL_LOAD_ROUNDS:-10} ;;
*) ROUNDS=${L2TPSEL_LOAD_ROUNDS:-50} ;;
esac

require_root
require_cmd ip insmod rmmod
require_module_file
mod_unload_quiet

prefix=l2s-load-$(mktemp -u XXXX)
defer del_all_ns
del_all_ns() {
	ip netns list | awk -v p="$prefix" 'index($1, p) == 1 {print $1}' |
		while read -r ns; do ns_del "$ns"; done
	mod_unload_quiet
}

# "ip -batch" keeps the namespace churn to one process per step.
nsop() {
	ip -batch - <<<"$(printf 'netns %s\n' "$@")"
}

# Before the first load: a namespace that the module finds already there.
nsop "add $prefix-1-pre" || check_err 1 "netns add failed"
for ((i = 1; i <= ROUNDS; i++)); do
	insmod "$L2TPSEL_KO" || { check_err 1 "round $i: insmod failed"; break; }

	# Loaded: namespaces born under the module, and one dying.
	nsop "add $prefix-$i-a" "add $prefix-$i-b" "del $prefix-$i-pre" ||
		check_err 1 "round $i: netns add/del while loaded failed"
	if ((i % 10 == 1 || i == ROUNDS)); then
		"$L2TPSEL_CLI" info >/dev/null ||
			check_err 1 "round $i: no answer in the initial namespace"
		"$L2TPSEL_CLI" -n "$prefix-$i-a" info >/dev/null ||
			check_err 1 "round $i: no answer in a namespace created while loaded"
	fi

	# Unload with -a and -b of this round still alive.
	rmmod "$L2TPSEL_MOD" || { check_err 1 "round $i: rmmod failed"; break; }
	mod_loaded && check_err 1 "round $i: /sys/module/$L2TPSEL_MOD still there after rmmod"

	# Unloaded: delete what lived through the unload (keeping one -a for the
	# next load to find), and create the next round's -pre.
	ops=("del $prefix-$i-b")
	[ -n "${prev:-}" ] && ops+=("del $prev")
	((i < ROUNDS)) && ops+=("add $prefix-$((i + 1))-pre")
	nsop "${ops[@]}" || check_err 1 "round $i: netns add/del while unloaded failed"
	prev=$prefix-$i-a
	[ "$RET" -eq 0 ] || break
done
log_test "insmod/rmmod $ROUNDS times with namespaces created and deleted between"

# A final load after all that still works.
insmod "$L2TPSEL_KO"
check_err $? "insmod after $ROUNDS rounds failed"
"$L2TPSEL_CLI" info
check_err $? "no answer after $ROUNDS rounds"
rmmod "$L2TPSEL_MOD"
check_err $? "final rmmod failed"
log_test "module still loads and answers afterwards"

exit $EXIT_STATUS
