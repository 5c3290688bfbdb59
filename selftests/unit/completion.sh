#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# contrib/l2tpsel.bash-completion with the built CLI: objects, options,
# each object's commands and a command's keywords, as the CLI's own help
# lists them.  Part of `make unit`; a second.
#
# Usage: selftests/unit/completion.sh BUILD_DIR
set -u
B=$(cd "${1:-build}" && pwd)
cd "$(dirname "$0")/../.."
# shellcheck disable=SC1091
source contrib/l2tpsel.bash-completion
# shellcheck source=ktap.sh
source selftests/unit/ktap.sh

# expect "WORDS" "CANDIDATES": completing the last of WORDS offers exactly CANDIDATES
expect() {
	local got
	read -r -a COMP_WORDS <<<"$B/l2tpsel $1"
	[[ $1 == *" " || -z $1 ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_l2tpsel
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ')
	want=$(printf '%s\n' $2 | sort | tr '\n' ' ')
	if [ "$got" = "$want" ]; then
		ok "l2tpsel $1<TAB>: $2" 0
	else
		ok "l2tpsel $1<TAB>: got \"$got\", expected \"$want\"" 1
	fi
}

expect "" "info limit group client session summary monitor profile tunnel domain destination lockout clear login ratelimit throttle load"
expect "pro" "profile"
expect "-j " "info limit group client session summary monitor profile tunnel domain destination lockout clear login ratelimit throttle load"
expect "-V" "-V -Version"
expect "profile " "add set del show help"
expect "tunnel add T " "dest group level local max-sessions port profile secret"
expect "group add G " "limit slg tunnel type"
expect "-n x lockout " "time max-logins dest show help"
expect "session up " "client group key lac lns role tunnel-id"
expect "limit set " "chassis-max chassis tunnel"
expect "nosuchobject " ""
echo "# completion: $((n - fail)) passed, $fail failed"
[ $fail = 0 ]
