#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every requirement ID the tree cites (S-OBJ-1 ...) is defined on
# Documentation/requirements.md, and every ID that page does not mark
# "not yet" is cited by at least one test: the references resolve inside
# the tree.  Part of `make unit`.
set -u
cd "$(dirname "$0")/../.."
page=Documentation/requirements.md
if ! git rev-parse --git-dir >/dev/null 2>&1; then
	echo "ok 1 requirements # SKIP not a git tree (git grep lists the files)"
	exit 0
fi
fail=0
n=0
defined=$(grep -o '^| S-[A-Z0-9]*-[0-9]*' "$page" | cut -c3- | sort -u)
cited=$(git grep -h -o -w -E 'S-(OBJ|SEL|LB|LIM|RL|L2TP|STORM|ACC|RAD|SEC|MTU|AL|OPS|LTS)-[0-9]+' -- . ":!$page" | sort -u)
for id in $cited; do
	grep -qx -- "$id" <<<"$defined" && continue
	echo "not ok: $id is cited ($(git grep -l -w -e "$id" | head -3 | tr '\n' ' ')) but not defined on $page"
	fail=$((fail + 1))
done
n=$((n + 1))
[ $fail = 0 ] && echo "ok $n every cited ID ($(wc -w <<<"$cited")) is defined on $page" ||
	echo "not ok $n cited IDs missing from $page"
f2=0
for id in $defined; do
	grep -E "^\| $id \|" "$page" | grep -q 'not yet' && continue
	git grep -q -w -e "$id" -- selftests fuzz kmod/kunit core/tests && continue
	echo "# $id: built, but no test cites it"
	f2=$((f2 + 1))
done
n=$((n + 1))
[ $f2 = 0 ] && echo "ok $n every built requirement is cited by a test" ||
	echo "not ok $n $f2 built requirement(s) without a citing test"
[ $fail = 0 ] && [ $f2 = 0 ]
