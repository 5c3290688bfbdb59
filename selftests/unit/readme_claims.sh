#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What README and `make help` say about commands holds: every make target
# they name exists, every script and path they name is there, and the
# demo they describe is a test of the VM suite (selftests/net/demo.sh).
# Times are not claimed there: Documentation/testing.md says what to
# expect of each stage.  Part of `make unit`; a second.
set -u
cd "$(dirname "$0")/../.."
# shellcheck source=ktap.sh
source selftests/unit/ktap.sh

# every rule make knows, from its database (nothing is run)
targets=" $(make -pRrq -f Makefile : 2>/dev/null |
	awk -F: '/^[a-zA-Z0-9][^$#\/\t=%]*:([^=]|$)/ { print $1 }' | sort -u | tr '\n' ' ') "

echo "KTAP version 1"
help=$(make --no-print-directory help)
mapfile -t named < <({ sed -n 's/^make \([a-z][a-z0-9-]*\).*/\1/p' <<<"$help"
	grep -oE '\bmake [a-z][a-z0-9-]+' README | cut -d' ' -f2; } | sort -u)
echo "1..$((${#named[@]} + 4))"
for t in "${named[@]}"; do
	[[ $targets == *" $t "* ]]
	ok "make $t (named by README or make help) is a target" $?
done
missing=
for p in $(grep -oE '\b(scripts|selftests|Documentation|contrib|kernel)/[A-Za-z0-9_./-]+[A-Za-z0-9]' README | sort -u); do
	[ -e "$p" ] || missing+=" $p"
done
ok "every path README names exists${missing:+ (missing:$missing)}" $([ -z "$missing" ]; echo $?)
grep -q 'scripts/demo.sh" --in-vm' selftests/net/demo.sh && ! grep -q '^# run.sh: skip' selftests/net/demo.sh
ok "the demo README describes runs in the VM suite (selftests/net/demo.sh)" $?
# scripts/demo.sh judges from the API and JSON: no check reads agent.log
bad=$(grep -nE '(grep|sed|awk)[^|]*agent\.log' scripts/demo.sh | grep -E '\|\||&&|\bdie\b|if ' || true)
ok "scripts/demo.sh bases no check on the agent's log${bad:+: $bad}" $([ -z "$bad" ]; echo $?)
# a stated number of minutes goes stale: README points at testing.md instead
stale=$(grep -nE '[0-9]+ minutes?' README || true)
ok "README states no run times (testing.md has them)${stale:+: $stale}" $([ -z "$stale" ]; echo $?)
[ "$fail" -eq 0 ]
