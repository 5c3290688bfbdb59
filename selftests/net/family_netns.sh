#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The l2tpsel family is visible in every network namespace, and each
# namespace answers with its own netns cookie: namespaces that existed before
# the load and namespaces created after it, asked both from inside
# (ip netns exec) and through the CLI's -n option.
source "$(dirname "$0")/../lib.sh"

require_root
require_cmd ip
require_module_file

setup_ns before1 before2 || fail "cannot create namespaces"
mod_load || fail "insmod $L2TPSEL_KO failed"
setup_ns after1 after2 || fail "cannot create namespaces"

# cookie_of [ip netns exec NS | -n NS]: the netns cookie the family reports.
# The JSON is matched whole and strictly (cli_info.sh parses it with python;
# here a python start per namespace would cost seconds under emulation).
cookie_of() {
	local out pre=() opt=()
	if [ "${1:-}" = -n ]; then
		opt=(-n "$2")
	else
		pre=("$@")
	fi
	out=$(${pre[@]+"${pre[@]}"} "$L2TPSEL_CLI" ${opt[@]+"${opt[@]}"} -j info) || return 1
	[[ $out =~ ^\{\"version\":\"[0-9]+\.[0-9]+\.[0-9]+\",\"api\":[0-9]+,\"netns_cookie\":([0-9]+)\}$ ]] || {
		echo "unexpected JSON: $out" >&2
		return 1
	}
	echo "${BASH_REMATCH[1]}"
}

declare -A seen
init=$(cookie_of)
check_err $? "the initial namespace does not answer"
echo "init: cookie $init"
seen[$init]=init
log_test "family answers in the initial namespace"

for ns in "$before1" "$before2" "$after1" "$after2"; do
	c_exec=$(cookie_of ip netns exec "$ns")
	check_err $? "$ns: no answer through ip netns exec"
	c_opt=$(cookie_of -n "$ns")
	check_err $? "$ns: no answer through l2tpsel -n"
	echo "$ns: cookie $c_exec (ip netns exec), $c_opt (-n)"
	[ -n "$c_exec" ] && [ "$c_exec" = "$c_opt" ]
	check_err $? "$ns: the two ways of asking give different cookies"
	if [ -n "$c_exec" ] && [ -n "${seen[$c_exec]:-}" ]; then
		check_err 1 "$ns: cookie $c_exec is already the cookie of ${seen[$c_exec]}"
	fi
	[ -n "$c_exec" ] && seen[$c_exec]=$ns
	log_test "family answers in $ns with a cookie of its own"
done

exit $EXIT_STATUS
