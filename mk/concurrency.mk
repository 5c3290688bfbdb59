# SPDX-License-Identifier: GPL-2.0
# The module's load test, selftests/net/concurrency.sh (Documentation/testing.md):
#
#   make                 also builds $(BUILD)/concurrency, the agents of
#                        selftests/net/concurrency.sh (libmnl)
#   make vmtest TESTS="concurrency unload_busy"

CONC_SRC := selftests/net/concurrency.c userspace/lib/nl.c userspace/lib/attr.c

USER_BINS += $(BUILD)/concurrency

$(BUILD)/concurrency: $(CONC_SRC) selftests/net/kclient.h $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(USER_CPPFLAGS) $(USER_CFLAGS) -o $@ $(CONC_SRC) -lmnl
