# SPDX-License-Identifier: GPL-2.0
# Netlink round-trip rates, to compare the stock and the debug kernel
# (Documentation/debug-kernel.md, "Netlink cost").
#
#   make                 also builds $(BUILD)/nl_rate (selftests/net/nl_rate.c)

NL_RATE_SRC := selftests/net/nl_rate.c userspace/lib/nl.c userspace/lib/attr.c

USER_BINS += $(BUILD)/nl_rate

$(BUILD)/nl_rate: $(NL_RATE_SRC) $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(USER_CPPFLAGS) $(USER_CFLAGS) -o $@ $(NL_RATE_SRC) -lmnl
