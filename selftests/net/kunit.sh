#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run l2tpsel's KUnit suites: load the test module l2tpsel_kunit.ko
# (kmod/kunit/, built only against a kernel with KUnit), which runs them,
# read each suite's KTAP result from /sys/kernel/debug/kunit/SUITE/results
# (or, without KUnit's debugfs, from the kernel log), then unload it.  Every
# case is printed as a "# " line; failing cases also get their diagnostics.
# Every suite named in $suites must have run.  l2tpsel.ko itself must carry
# no suite (Linux 6.1 would run it at each of its ~35 loads by the selftests,
# ~30 s each on the debug kernel): checked too.
#
# The test module is $L2TPSEL_KUNIT_KO, by default kunit/l2tpsel_kunit.ko
# next to $L2TPSEL_KO (the build puts it there).
#
# Exit: 0 every case passed, 1 a case failed, a suite did not run or the
# test module is missing or does not unload, 4 (skip) the running kernel has
# no KUnit (Debian's stock kernel): the suite runs on the debug kernel,
# `make debug-test`.
set -u

ksft_pass=0 ksft_fail=1 ksft_skip=4
mod=l2tpsel_kunit
suites="l2tpsel l2tpsel_obj l2tpsel_sel l2tpsel_lb l2tpsel_storm l2tpsel_hash l2tpsel_dmap l2tpsel_rl l2tpsel_gen"
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
main_ko=${L2TPSEL_KO:-$top/kmod/l2tpsel.ko}
ko=${L2TPSEL_KUNIT_KO:-$(dirname "$main_ko")/kunit/$mod.ko}
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
[ -r "$ko" ] || fail "no test module at $ko (built by Kbuild only against a kernel with CONFIG_KUNIT; set L2TPSEL_KUNIT_KO)"
# One modinfo for name and dependencies: each process costs on this kernel.
info=$(modinfo "$ko" 2>/dev/null) || fail "$ko is not a kernel module"
name= deps=
while read -r key val; do
	case $key in name:) name=$val ;; depends:) deps=$val ;; esac
done <<<"$info"
[ "$name" = $mod ] || fail "$ko is not $mod but '$name'"
# The suites live in the test module only: a suite section in l2tpsel.ko
# would run at every one of its loads again.
if [ -r "$main_ko" ] && grep -qa '\.kunit_test_suites' "$main_ko"; then
	fail "$main_ko has a .kunit_test_suites section: the KUnit suites belong in $mod.ko only (kmod/kunit/)"
fi

# The suites run when the module is loaded: start from an unloaded one.
if [ -d /sys/module/$mod ]; then
	rmmod $mod || fail "$mod is loaded (a previous run?) and cannot be unloaded"
fi
trap '[ -d /sys/module/$mod ] && rmmod $mod' EXIT

marker="l2tpsel-kunit.sh: loading $ko ($$ $(date +%s%N))"
echo "$marker" >/dev/kmsg
for dep in ${deps//,/ }; do
	modprobe "$dep" || fail "cannot load $dep, which $mod needs"
done
insmod "$ko" || fail "insmod $ko failed"

# KTAP of each suite: debugfs keeps the last run's log while the module is
# loaded; the kernel log has it too, after our marker.  One awk reads them
# all: every process start costs seconds on the debug kernel under TCG.
files=()
for suite in $suites; do
	[ -r $dbg/kunit/$suite/results ] && files+=("$dbg/kunit/$suite/results")
done
if [ ${#files[@]} -gt 0 ]; then
	from="$dbg/kunit/SUITE/results"
	ktap() { cat "${files[@]}"; }
else
	from="the kernel log"
	ktap() { dmesg | sed 's/^\[[ 0-9.]*\] //' | awk -v m="$marker" 'on; index($0, m) { on = 1 }'; }
fi

# Suites start at "    # Subtest: SUITE" and end at "ok N SUITE"; cases are
# indented once ("    ok N case"), parameter rows twice.  Prints the cases,
# the cases' own diagnostics (kunit_info) and a line per suite; a failed
# suite's whole KTAP.  Exit 0 all passed, 1 a failure or a suite missing,
# 4 every case skipped.  The test module is unloaded afterwards, which must
# work (it has no exit function, nor init) and take the suites' debugfs
# entries along.
ktap | awk -v want="$suites" -v from="$from" '
	function say(x) { print "# " x }
	BEGIN { n = split(want, order, " "); for (i = 1; i <= n; i++) wanted[order[i]] = 1 }
	/^    # Subtest: / { s = $3; if ((s in wanted) && !(s in done)) { cur = s; log_[cur] = "" } else if (!cur) next }
	!cur { next }
	{ log_[cur] = log_[cur] "\n" $0 }
	/^    1\.\.[0-9]+$/ { plan[cur] = substr($1, 4) + 0; next }
	/^    (ok|not ok) [0-9]+ / {
		line = $0; sub(/^    /, "", line); say(cur ": " line)
		cases[cur]++; total++
		if (line ~ /^not ok/) fails[cur]++
		if (line ~ /# SKIP/) skips[cur]++
		next
	}
	/^        (ok|not ok) [0-9]+ / { params[cur]++; next }
	/^    # [a-z_0-9]+: / && !/: (pass|fail|skip):[0-9]/ && !/EXPECTATION FAILED/ {
		if (diag[cur]++ < 40) { line = $0; sub(/^    # /, "", line); say(cur ": " line) }
		next
	}
	$0 ~ "^(ok|not ok) [0-9]+ " cur "( |$)" {
		done[cur] = $0
		say(sprintf("%s: %d cases (%d parameter rows), %d failed, %d skipped (from %s)",
			cur, cases[cur], params[cur], fails[cur], skips[cur], from))
		short = (cur in plan) && cases[cur] != plan[cur]
		if (short)
			say(sprintf("FAIL: %s planned %d cases, %d results (a case that logs more than 512 bytes loses its result line)",
				cur, plan[cur], cases[cur]))
		if (fails[cur] || $0 ~ /^not ok/ || short) {
			say("KTAP of the failed suite " cur ":")
			m = split(log_[cur], l, "\n")
			for (i = 2; i <= m; i++) say("  " l[i])
			bad++
		}
		skipped += skips[cur]
		cur = ""
	}
	END {
		for (i = 1; i <= n; i++)
			if (!(order[i] in done)) { say("FAIL: the KUnit suite " order[i] " did not run (is it listed in kunit_test_suites() of kmod/kunit/suites.c?)"); bad++ }
		if (bad) { say("FAIL: " bad " KUnit suite(s) failed or did not run"); exit 1 }
		if (total == skipped) { say("SKIP: every case skipped"); exit 4 }
		say(n " suites, " total - skipped " cases run, all passed")
	}'
rc=$?

trap - EXIT
rmmod $mod || fail "rmmod $mod failed"
if [ ${#files[@]} -gt 0 ] && [ -e "${files[0]}" ]; then
	fail "${files[0]} is still there after rmmod $mod"
fi
exit $rc
