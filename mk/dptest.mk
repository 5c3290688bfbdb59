# SPDX-License-Identifier: GPL-2.0
# l2tpseld's data-path handoff (userspace/l2tpseld/dp.c: the kernel's l2tp
# generic-netlink family, PPPoL2TP sockets, pppd) and its test tool
# l2tpsel-dptest (selftests/net/dataplane.sh, selftests/peers.sh).
# The daemon's build (mk/l2tpseld.mk, read after this file) links DP_SRC.

DP_SRC  := userspace/l2tpseld/dp.c
DP_HDRS := userspace/l2tpseld/dp.h

USER_BINS += $(BUILD)/l2tpsel-dptest

# dp.c resolves the kernel's family with lib/nl.c's GETFAMILY
$(BUILD)/l2tpsel-dptest: selftests/net/dptest.c $(DP_SRC) $(DP_HDRS) userspace/lib/nl.c userspace/lib/nl.h
	@mkdir -p $(@D)
	$(CC) $(USER_CPPFLAGS) -Iuserspace/l2tpseld $(USER_CFLAGS) -o $@ selftests/net/dptest.c $(DP_SRC) \
		userspace/lib/nl.c userspace/lib/attr.c -lmnl
