#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The module's and the core's files (kmod/, core/; Documentation/design.md):
# none in a circle of calls (scripts/l2d-structure.py), none over 800
# lines, no function over 80.  KTAP-ish lines, exit 1 on a failure.
cd "$(dirname "$0")/../.." || exit 1
n=0 fail=0
ok() {
	n=$((n + 1))
	if [ "$2" = 0 ]; then echo "ok $n $1"; else echo "not ok $n $1"; fail=$((fail + 1)); fi
}
for d in kmod core; do
	out=$(python3 scripts/l2d-structure.py --dir $d) || exit 1
	loops=$(printf '%s\n' "$out" | sed -n '/^== circles/,/^== functions/p' | grep -v '^==' | grep .)
	[ -n "$loops" ] && printf '# %s\n' "$loops"
	ok "$d: no circle of calls, no pair calling each other" $([ -z "$loops" ]; echo $?)
	long=$(printf '%s\n' "$out" | sed -n '/^== functions over/,$p' | grep -v '^==')
	[ -n "$long" ] && printf '# %s\n' "$long"
	ok "$d: no function over 80 lines" $([ -z "$long" ]; echo $?)
	big=$(wc -l $d/*.c $d/*.h | awk '$2 != "total" && $1 > 800 { print $2 ": " $1 " lines" }')
	[ -n "$big" ] && printf '# %s\n' "$big"
	ok "$d: no file over 800 lines" $([ -z "$big" ]; echo $?)
done
echo "# kmod structure: $((n - fail)) passed, $fail failed"
[ $fail -eq 0 ]
