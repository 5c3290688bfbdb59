#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Replay every scenario with the simulator and compare its trace with the
# expected trace written from the reference documents (NAME.out beside
# NAME.scen).  A scenario may give simulator options on a first line
# "#! --seed N".  A scenario with NAME.err instead must make the simulator
# fail with exactly that message on stderr (and the trace up to the error on
# stdout, in NAME.out).  KTAP output, one top-level line per scenario.
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
	experr=${scen%.scen}.err
	"$sim" $opts "$scen" >/tmp/l2s-scen-out.$$ 2>/tmp/l2s-scen-err.$$
	rc=$?
	if [ -f "$experr" ] && { [ $rc -eq 0 ] || ! diff -u "$experr" /tmp/l2s-scen-err.$$ >/tmp/l2s-scen-diff.$$; }; then
		echo "# exit $rc; stderr:"
		sed 's/^/# /' /tmp/l2s-scen-err.$$ /tmp/l2s-scen-diff.$$
		echo "not ok $i $name"
		bad=$((bad + 1))
	elif [ ! -f "$experr" ] && [ $rc -ne 0 ]; then
		sed 's/^/# /' /tmp/l2s-scen-err.$$
		echo "not ok $i $name"
		bad=$((bad + 1))
	elif ! diff -u "$want" /tmp/l2s-scen-out.$$ >/tmp/l2s-scen-diff.$$ 2>&1; then
		sed 's/^/# /' /tmp/l2s-scen-diff.$$
		echo "not ok $i $name"
		bad=$((bad + 1))
	else
		echo "ok $i $name"
	fi
done
rm -f /tmp/l2s-scen-diff.$$ /tmp/l2s-scen-err.$$ /tmp/l2s-scen-out.$$
echo "# scenarios: $((n - bad)) passed, $bad failed"
[ $bad -eq 0 ]
