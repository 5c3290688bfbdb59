#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The l2tpsel netlink fuzzer (build/nl_fuzz, selftests/net/nl_fuzz.c):
# NL_FUZZ_MESSAGES (100000; 25000 on the debug kernel) malformed and random
# messages from three workers (one unprivileged) in a namespace of its own,
# then the module's health: consistent counters, no login left, a teardown
# to zero, a clean unload.  Any kernel warning fails the VM run.  Issue 8.
#
#   NL_FUZZ_SEED=N        replay a seed (printed by every run)
#   NL_FUZZ_MESSAGES=N    more messages (make fuzz-netlink: 2M)
source "$(dirname "$0")/../lib.sh"

NL_FUZZ=${NL_FUZZ:-$TOP/build/nl_fuzz}

require_root
require_module_file
[ -x "$NL_FUZZ" ] || skip "no $NL_FUZZ (run make)"

mod_load || fail "insmod $L2TPSEL_KO failed"

# The debug kernel (KASAN, lockdep, kmemleak) answers about 75 messages/s
# under emulation against 2500-5800 on the stock kernel (every allocation
# there saves stack traces: Documentation/debug-kernel.md, "Netlink cost"):
# 100000 messages would take 20 minutes there, so it gets a quarter.
msgs=100000
if grep -q ' kasan_report$' /proc/kallsyms 2>/dev/null; then
	msgs=25000
	echo "debug kernel (KASAN): $msgs messages by default (100000 on the stock kernel)"
fi
msgs=${NL_FUZZ_MESSAGES:-$msgs}

NL_FUZZ_MESSAGES=$msgs "$NL_FUZZ"
check_err $? "the fuzzer found a problem (its seed is printed above)"
log_test "nl_fuzz: $msgs messages, module consistent afterwards"

# The fuzzer's namespace is gone with it: the module must unload cleanly.
mod_unload
check_err $? "rmmod l2tpsel failed after the fuzzer"
log_test "module unloads after the fuzzer"

exit $EXIT_STATUS
