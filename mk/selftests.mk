# SPDX-License-Identifier: GPL-2.0
# C selftests of the netlink API, run in the VM by selftests/net/*.sh:
#   build/nl_contract   the contract of uapi/linux/l2tpsel.h (nl_contract.sh)
# Built by `make` (USER_BINS), so `make vmtest` has it.

NLT_HDRS := $(wildcard selftests/include/*.h) uapi/linux/l2tpsel.h
NLT_CFLAGS := $(USER_CPPFLAGS) -Iselftests/include $(USER_CFLAGS)

USER_BINS += $(BUILD)/nl_contract

$(BUILD)/nl_contract: selftests/net/nl_contract.c $(NLT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(NLT_CFLAGS) -o $@ $< -lmnl
