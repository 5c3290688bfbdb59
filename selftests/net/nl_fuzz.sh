#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The l2tpsel netlink fuzzer (build/nl_fuzz, selftests/net/nl_fuzz.c):
# NL_FUZZ_MESSAGES (100000; 30000 on the debug kernel) malformed and random
# messages from three workers (one unprivileged) in a namespace of its own,
# then the module's health: consistent counters, no login left, a teardown
# to zero, a clean unload.  Any kernel warning fails the VM run.
# Documentation/reliability.md.
#
#   NL_FUZZ_SEED=N        replay a seed (printed by every run)
#   NL_FUZZ_MESSAGES=N    more messages (make fuzz-netlink: 2M)
source "$(dirname "$0")/../lib.sh"

NL_FUZZ=${NL_FUZZ:-$TOP/build/nl_fuzz}

require_root
require_module_file
[ -x "$NL_FUZZ" ] || skip "no $NL_FUZZ (run make)"

mod_load || fail "insmod $L2TPSEL_KO failed"

# 100000 messages on the stock kernel, 30000 on the debug one.  The debug kernel (KASAN,
# lockdep, kmemleak) is the slow one: every allocation there saves stack
# traces (Documentation/debug-kernel.md, "Netlink cost").  Measured on the
# idle 2-core build machine: 926 messages/s there (a clean-clone make test),
# so about 110 s (23000-33000/s on stock); with seven other VMs beside it 72-119/s,
# which would not fit the debug stage's 900 s per test: run it alone.
# On the debug kernel 30000 (about 35 s): the stage's time goes on the
# checkers, and 30000 messages reach every handler and policy many times.
case $(uname -r) in
*-l2tpsel-debug*) msgs=30000 ;;
*) msgs=100000 ;;
esac
msgs=${NL_FUZZ_MESSAGES:-$msgs}

NL_FUZZ_MESSAGES=$msgs "$NL_FUZZ"
check_err $? "the fuzzer found a problem (its seed is printed above)"
log_test "nl_fuzz: $msgs messages, module consistent afterwards"

# The fuzzer's namespace is gone with it: the module must unload cleanly.
mod_unload
check_err $? "rmmod l2tpsel failed after the fuzzer"
log_test "module unloads after the fuzzer"

exit $EXIT_STATUS
