#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Replay every scenario with the simulator and compare its trace with the
# expected trace written from the reference documents (NAME.out beside
# NAME.scen).  A scenario may give simulator options on a first line
# "#! --seed N".  KTAP output, one top-level line per scenario.
#
#   run.sh SIMULATOR SCENARIO...
sim=$1
shift
n=$#
i=0
bad=0
echo "KTAP version 1"
echo "1..$n"
for scen in "$@"; do
	i=$((i + 1))
	name=scenario_$(basename "$scen" .scen | tr -c 'a-zA-Z0-9_\n' _)
	want=${scen%.scen}.out
	opts=$(sed -n '1s/^#! *//p' "$scen")
	got=$("$sim" $opts "$scen" 2>&1)
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "$got" | sed 's/^/# /'
		echo "not ok $i $name"
		bad=$((bad + 1))
	elif ! printf '%s\n' "$got" | diff -u "$want" - >/tmp/l2s-scen-diff.$$ 2>&1; then
		sed 's/^/# /' /tmp/l2s-scen-diff.$$
		echo "not ok $i $name"
		bad=$((bad + 1))
	else
		echo "ok $i $name"
	fi
done
rm -f /tmp/l2s-scen-diff.$$
echo "# scenarios: $((n - bad)) passed, $bad failed"
[ $bad -eq 0 ]
