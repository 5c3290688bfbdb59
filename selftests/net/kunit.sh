#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the module's KUnit suite "l2tpsel" (kmod/l2tpsel_kunit.c): load
# $L2TPSEL_KO, which runs the suite, and read its KTAP result from
# /sys/kernel/debug/kunit/l2tpsel/results (or, without KUnit's debugfs, from
# the kernel log).  Every case is printed as a "# " line; failing cases also
# get their diagnostics.
#
# Exit: 0 every case passed, 1 a case failed or the suite did not run,
# 4 (skip) the running kernel has no KUnit (Debian's stock kernel): the suite
# runs on the debug kernel, `make debug-test`.
set -u

ksft_pass=0 ksft_fail=1 ksft_skip=4
suite=l2tpsel
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
ko=${L2TPSEL_KO:-$top/kmod/l2tpsel.ko}
dbg=/sys/kernel/debug

say() { printf '# %s\n' "$@"; }
fail() { say "FAIL: $*"; exit $ksft_fail; }

[ "$(id -u)" = 0 ] || { say "SKIP: needs root"; exit $ksft_skip; }
# KUnit built in shows as /sys/module/kunit (it has parameters).
if [ ! -d $dbg/kunit ] && [ ! -d /sys/module/kunit ]; then
	say "SKIP: kernel $(uname -r) has no KUnit (the debug kernel has: make debug-test)"
	exit $ksft_skip
fi
# It loads and unloads modules as root: only in the VM, as every selftest.
if [ -z "${L2TPSEL_VM:-}" ] && [ -z "${L2TPSEL_ALLOW_HOST:-}" ]; then
	say "SKIP: runs in the VM (selftests/vm/vm.sh -- $0), or set L2TPSEL_ALLOW_HOST=1"
	exit $ksft_skip
fi
[ -d $dbg/kunit ] || mount -t debugfs debugfs $dbg 2>/dev/null
[ -r "$ko" ] || fail "no module at $ko (set L2TPSEL_KO)"
modinfo -F depends "$ko" >/dev/null 2>&1 || fail "$ko is not a kernel module"

# The suite runs when the module is loaded: start from an unloaded module.
was_loaded=0
if [ -d /sys/module/$suite ]; then
	was_loaded=1
	rmmod $suite || fail "l2tpsel is loaded and cannot be unloaded"
fi
restore() {
	if [ "$was_loaded" = 0 ]; then
		[ -d /sys/module/$suite ] && rmmod $suite
	elif [ ! -d /sys/module/$suite ]; then
		insmod "$ko"
	fi
}
trap restore EXIT

marker="l2tpsel-kunit.sh: loading $ko ($$ $(date +%s%N))"
echo "$marker" >/dev/kmsg
for dep in $(modinfo -F depends "$ko" | tr ',' ' '); do
	modprobe "$dep" || fail "cannot load $dep, which l2tpsel needs"
done
insmod "$ko" || fail "insmod $ko failed"

# KTAP of the suite: debugfs keeps the last run's log while the module is
# loaded; the kernel log has it too, between our marker and the suite line.
if [ -r $dbg/kunit/$suite/results ]; then
	ktap=$(cat $dbg/kunit/$suite/results)
	from="$dbg/kunit/$suite/results"
else
	ktap=$(dmesg | sed 's/^\[[ 0-9.]*\] //' |
		awk -v m="$marker" -v s="$suite" '
			index($0, m) { on = 1; next }
			on && $0 ~ "# Subtest: " s "$" { keep = 1 }
			keep { print }
			keep && $0 ~ "^(ok|not ok) [0-9]+ " s "( |$)" { exit }')
	from="the kernel log"
fi

suite_line=$(grep -E "^(ok|not ok) [0-9]+ $suite( |\$)" <<<"$ktap" | tail -n 1)
if [ -z "$suite_line" ]; then
	say "no result of suite $suite in $from; what it holds:"
	sed 's/^/#   /' <<<"$ktap"
	fail "the KUnit suite $suite did not run (is $ko built with KUnit? see Kbuild)"
fi

# Cases are indented once, parameters twice.
cases=$(grep -E '^    (ok|not ok) [0-9]+ ' <<<"$ktap" | sed 's/^    //')
ncases=$(grep -c . <<<"$cases")
nfail=$(grep -c '^not ok' <<<"$cases")
nskip=$(grep -c '# SKIP' <<<"$cases")
nparam=$(grep -cE '^        (ok|not ok) [0-9]+ ' <<<"$ktap")
while IFS= read -r c; do
	say "$suite: $c"
done <<<"$cases"
say "$suite: $ncases cases ($nparam parameter rows), $nfail failed, $nskip skipped (from $from)"

if [ "$nfail" -gt 0 ] || [ "${suite_line#not ok}" != "$suite_line" ]; then
	say "KTAP of the failed run:"
	sed 's/^/#   /' <<<"$ktap"
	fail "KUnit suite $suite: $suite_line"
fi
if [ "$ncases" = 0 ] || [ "$nskip" = "$ncases" ]; then
	say "SKIP: every case of $suite skipped"
	exit $ksft_skip
fi
exit $ksft_pass
