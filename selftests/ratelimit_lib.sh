#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Helpers of the rate-limit tests (ratelimit.sh, ratelimit_throttle.sh),
# sourced after lib.sh; $L is the CLI.

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
