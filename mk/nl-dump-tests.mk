# SPDX-License-Identifier: GPL-2.0
# Unit tests of the netlink library (userspace/lib/nl.c: the dump retry;
# attr.c: the attribute table and parser): a binary of their own, since
# they need libmnl and the core's do not.
# `make unit` runs them.

NLDUMP_TEST_SRC := $(wildcard selftests/nl/*.c)

.PHONY: nl-dump-tests

$(BUILD)/nl-dump-tests: $(NLDUMP_TEST_SRC) $(HARNESS_SRC) $(HARNESS_HDRS) \
		userspace/lib/nl.c userspace/lib/nl.h userspace/lib/attr.c userspace/lib/attr.h \
		uapi/linux/l2tpsel.h
	@mkdir -p $(@D)
	$(CC) $(USER_CPPFLAGS) $(HARNESS_CPPFLAGS) $(USER_CFLAGS) $(SAN_CFLAGS) \
		-DL2S_UAPI_HEADER='"$(CURDIR)/uapi/linux/l2tpsel.h"' -o $@ \
		$(NLDUMP_TEST_SRC) $(HARNESS_SRC) userspace/lib/nl.c userspace/lib/attr.c -lmnl

nl-dump-tests: $(BUILD)/nl-dump-tests
	$(BUILD)/nl-dump-tests

unit: nl-dump-tests
