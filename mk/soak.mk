# SPDX-License-Identifier: GPL-2.0
# The reliability campaign's load test (Documentation/reliability.md):
#   build/soak   workers holding thousands of sessions with churn, every
#                counter checked at intervals (selftests/net/soak.sh)
# Built by `make` (USER_BINS), so `make vmtest TESTS=soak` has it.

SOAK_SRC := selftests/net/soak.c userspace/lib/nl.c userspace/lib/attr.c

USER_BINS += $(BUILD)/soak

$(BUILD)/soak: $(SOAK_SRC) selftests/net/kclient.h $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(USER_CPPFLAGS) $(USER_CFLAGS) -o $@ $(SOAK_SRC) -lmnl
