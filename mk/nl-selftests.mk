# SPDX-License-Identifier: GPL-2.0
# C selftests of the netlink API, run in the VM by selftests/net/*.sh:
#   build/nl_contract   the contract of uapi/linux/l2tpsel.h (nl_contract.sh)
#   build/nl_fuzz       malformed and random l2tpsel messages (nl_fuzz.sh)
#   build/extack_race   two threads' refusals on one socket (extack_race.sh)
#   build/userns_exec   `unshare -Urn` from the VM's chroot (cli_perm.sh, obj_caps.sh)
#   build/obj_caps      one namespace filled with every kind of object (obj_caps.sh)
# All are built by `make` (USER_BINS), so `make vmtest` has them.
#
#   make fuzz-netlink                       the fuzzer in the VM, NL_FUZZ_MESSAGES
#                                           messages (default 2M), seed NL_FUZZ_SEED
#                                           (default: from the clock, printed)

NLT_HDRS := $(wildcard selftests/include/*.h) uapi/linux/l2tpsel.h userspace/lib/attr.h \
	    userspace/lib/nl.h
# The attribute names and types: the one table; the family's GETFAMILY.
NLT_LIB  := userspace/lib/attr.c userspace/lib/nl.c
NLT_CFLAGS := $(USER_CPPFLAGS) -Iselftests/include $(USER_CFLAGS)

USER_BINS += $(BUILD)/nl_contract $(BUILD)/nl_fuzz $(BUILD)/extack_race $(BUILD)/userns_exec \
	     $(BUILD)/obj_caps

$(BUILD)/nl_contract: selftests/net/nl_contract.c $(HARNESS_SRC) $(HARNESS_HDRS) $(NLT_LIB) $(NLT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(NLT_CFLAGS) $(HARNESS_CPPFLAGS) -o $@ $< $(HARNESS_SRC) $(NLT_LIB) -lmnl

$(BUILD)/nl_fuzz: selftests/net/nl_fuzz.c $(NLT_LIB) $(NLT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(NLT_CFLAGS) -o $@ $< $(NLT_LIB) -lmnl

$(BUILD)/extack_race: selftests/net/extack_race.c $(NLT_LIB) $(NLT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(NLT_CFLAGS) -Wno-unused-function -pthread -o $@ $< $(NLT_LIB) -lmnl

$(BUILD)/obj_caps: selftests/net/obj_caps.c $(NLT_LIB) $(NLT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(NLT_CFLAGS) -Wno-unused-function -o $@ $< $(NLT_LIB) -lmnl

$(BUILD)/userns_exec: selftests/net/userns_exec.c
	@mkdir -p $(@D)
	$(CC) -D_GNU_SOURCE $(USER_CFLAGS) -o $@ $<

NL_FUZZ_MESSAGES ?= 2000000
NL_FUZZ_SEED     ?=
NL_FUZZ_TIMEOUT  ?= 3600

.PHONY: fuzz-netlink
fuzz-netlink: all
	KVER=$(KVER) $(VM_SH) --timeout $(NL_FUZZ_TIMEOUT) \
		--env NL_FUZZ_MESSAGES=$(NL_FUZZ_MESSAGES) \
		$(if $(NL_FUZZ_SEED),--env NL_FUZZ_SEED=$(NL_FUZZ_SEED)) \
		--env L2TPSEL_TEST_TIMEOUT=$(NL_FUZZ_TIMEOUT) \
		$(VMFLAGS) -- selftests/run.sh nl_fuzz
