#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The netlink contract of uapi/linux/l2tpsel.h against the real module
# (build/nl_contract, selftests/net/nl_contract.c): EPERM for every change
# from unprivileged callers and from user namespaces that do not own the
# network namespace (GENL_UNS_ADMIN_PERM), strict policies with an extack
# message on every refusal, dumps across datagrams and NLM_F_DUMP_INTR,
# namespace isolation, exact event contents.
source "$(dirname "$0")/../lib.sh"

NL_CONTRACT=${NL_CONTRACT:-$TOP/build/nl_contract}

require_root
require_module_file
[ -x "$NL_CONTRACT" ] || skip "no $NL_CONTRACT (run make)"

mod_load || fail "insmod $L2TPSEL_KO failed"

# Each test runs in namespaces of its own; nothing is left in the initial one.
"$NL_CONTRACT"
rc=$?

# Every namespace the tests made is gone with their processes: the module
# must unload cleanly now.
mod_unload
check_err $? "rmmod l2tpsel failed after the contract tests"
log_test "module unloads after the contract tests"

[ "$rc" -eq 0 ] || EXIT_STATUS=$ksft_fail
exit $EXIT_STATUS
