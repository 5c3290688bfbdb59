#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The three programs answer -h/--help and -V/--version with exit 0 on
# standard output, and refuse an option they do not know with a message and
# a non-zero exit, without taking it for a file name (l2tpsel-sim opened a
# file named "--help", l2tpseld called --help an invalid option).  Part of
# `make unit`; well under a second.
#
# Usage: selftests/unit/tools_options.sh BUILD_DIR
set -u
B=$(cd "${1:-build}" && pwd)

# shellcheck source=ktap.sh
source "$(dirname "${BASH_SOURCE[0]}")/ktap.sh"

ver=$(sed -n 's/^#define L2TPSEL_VERSION "\(.*\)"/\1/p' "$(dirname "$0")/../../kmod/version.h")
for prog in l2tpsel l2tpseld l2tpsel-sim; do
	for o in -h --help; do
		out=$("$B/$prog" $o 2>/dev/null)
		rc=$?
		[ $rc = 0 ] && [[ $out == [Uu]sage:* ]]
		ok "$prog $o: usage on stdout, exit 0 (exit $rc)" $?
	done
	for o in -V --version; do
		out=$("$B/$prog" $o 2>/dev/null)
		rc=$?
		[ $rc = 0 ] && [ "$out" = "$prog $ver" ]
		ok "$prog $o: \"$prog $ver\", exit 0 (got \"$out\", exit $rc)" $?
	done
	err=$(cd /tmp && "$B/$prog" --no-such-option 2>&1 >/dev/null)
	rc=$?
	[ $rc != 0 ] && [[ $err == *no-such-option* ]] && [[ $err != *"No such file"* ]]
	ok "$prog --no-such-option: refused as an option (exit $rc: $err)" $?
done
echo "# tools options: $((n - fail)) passed, $fail failed"
[ $fail = 0 ]
