#!/bin/bash
# Run every test stage, keep going after a failing stage, and end with one
# totals line.  Each stage prints KTAP; its top-level "ok N"/"not ok N" lines
# are counted ("# SKIP" ones as skipped).  A stage that exits non-zero without
# a failing test line counts as one failure of its own.
#
#   scripts/test.sh [STAGE...]      stages: unit fuzz vm debug
#
# The default runs all four.  The debug stage (KASAN, lockdep, kmemleak,
# KUnit on a kernel built from linux-source-6.1: the module, netlink and
# the data path) is the longest; "scripts/test.sh debug" runs it alone.
# When its kernel is not cached, it is built from the start, at the lowest
# CPU priority, beside the other stages: they leave a 2-core machine idle
# much of the time (the VM's tests wait on timers and peers), and the
# debug stage then finds it built (kernel/build-debug-kernel.sh holds a
# lock per kernel: the stage's own call waits for this build, then reuses
# it).
set -u
cd "$(dirname "$0")/.."

stages=${*:-unit fuzz vm debug}
logdir=build/logs
mkdir -p "$logdir"

declare -A target=([unit]=unit [fuzz]=fuzz-ktap [vm]=vmtest-all [debug]=debug-test)
# The fuzz stage is mostly compiling its 13 targets (clang, ASan): one
# compiler a core; its fuzzers still run one after the other.
declare -A jobs=([fuzz]=-j"$(nproc)")
pass=0 fail=0 skip=0
summary=""

if [[ " $stages " == *" debug "* ]] &&
   ! [ -f "$(./kernel/build-debug-kernel.sh --print-dir)/bzImage" ]; then
	echo "=== the debug kernel is not cached: building it beside the other stages" \
	     "(nice 19; $logdir/debug-kernel.log)"
	nice -n 19 ./kernel/build-debug-kernel.sh >"$logdir/debug-kernel.log" 2>&1 &
fi

for s in $stages; do
	t=${target[$s]:-}
	if [ -z "$t" ]; then
		echo "test.sh: unknown stage $s (stages: ${!target[*]})" >&2
		exit 2
	fi
	echo "=== stage $s: make $t"
	start=$(date +%s)
	make --no-print-directory ${jobs[$s]:-} "$t" 2>&1 | tee "$logdir/$s.log"
	rc=${PIPESTATUS[0]}
	secs=$(( $(date +%s) - start ))
	p=$(grep -cE '^ok [0-9]+' "$logdir/$s.log" | head -1)
	k=$(grep -E '^ok [0-9]+' "$logdir/$s.log" | grep -ciE '#[[:space:]]*skip')
	f=$(grep -cE '^not ok [0-9]+' "$logdir/$s.log")
	p=$((p - k))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "stage $s: make $t exited $rc with no failing test line; counting it as a failure"
		f=1
	fi
	if [ "$rc" -eq 0 ] && [ $((p + f + k)) -eq 0 ]; then
		echo "stage $s: ran no test; counting it as a failure"
		f=1
	fi
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + k))
	summary="$summary$(printf '  %-6s %4d passed %3d failed %3d skipped  %5ds  (exit %d)' "$s" "$p" "$f" "$k" "$secs" "$rc")\n"
done

echo "=== summary"
printf "%b" "$summary"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
