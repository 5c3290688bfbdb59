# SPDX-License-Identifier: GPL-2.0
# Unit tests of the netlink library's dump retry (userspace/lib/nl.c): a
# binary of their own, since they need libmnl and the core's do not.
# `make unit` runs them.

NLDUMP_TEST_SRC := $(wildcard selftests/nl/*.c)

.PHONY: nl-dump-tests

$(BUILD)/nl-dump-tests: $(NLDUMP_TEST_SRC) selftests/unit/unit.c selftests/unit/unit.h \
		userspace/lib/nl.c userspace/lib/nl.h
	@mkdir -p $(@D)
	$(CC) $(USER_CPPFLAGS) -Iselftests/unit $(USER_CFLAGS) $(SAN_CFLAGS) -o $@ \
		$(NLDUMP_TEST_SRC) selftests/unit/unit.c userspace/lib/nl.c -lmnl

nl-dump-tests: $(BUILD)/nl-dump-tests
	$(BUILD)/nl-dump-tests

unit: nl-dump-tests
