# SPDX-License-Identifier: GPL-2.0
# The PPPoE subscriber load generator and its trivial responder
# (bench/subgen/, Documentation/performance.md): raw sockets, one epoll loop
# each.  Its packet parser is a fuzz target (mk/fuzz.mk, fuzz/fuzz_subgen.c).
#
#   make subgen        build/l2tpsel-subgen and build/l2tpsel-subresp
#   make subgen-test   200 subscribers against the responder across a veth
#                      pair between two network namespaces (root; skipped
#                      without); part of make unit

SUBGEN_COMMON := bench/subgen/sg.c bench/subgen/sg_parse.c userspace/lib/conf.c
SUBGEN_HDRS   := bench/subgen/sg.h bench/subgen/sg_parse.h kmod/version.h userspace/lib/conf.h

.PHONY: subgen subgen-test

$(BUILD)/l2tpsel-subgen: bench/subgen/subgen.c $(SUBGEN_COMMON) $(SUBGEN_HDRS) \
			 userspace/l2tpseld/md5.h
	@mkdir -p $(@D)
	$(CC) $(USER_CPPFLAGS) $(CPPFLAGS) -Iuserspace/l2tpseld $(USER_CFLAGS) -O2 $(LDFLAGS) -o $@ \
		bench/subgen/subgen.c $(SUBGEN_COMMON) $(CRYPTO_LIBS)

$(BUILD)/l2tpsel-subresp: bench/subgen/subresp.c $(SUBGEN_COMMON) $(SUBGEN_HDRS) \
			  userspace/l2tpseld/md5.h
	@mkdir -p $(@D)
	$(CC) $(USER_CPPFLAGS) $(CPPFLAGS) -Iuserspace/l2tpseld $(USER_CFLAGS) -O2 $(LDFLAGS) -o $@ \
		bench/subgen/subresp.c $(SUBGEN_COMMON) $(CRYPTO_LIBS)

subgen: $(BUILD)/l2tpsel-subgen $(BUILD)/l2tpsel-subresp

# Exit 4 is the script's KTAP skip (no root, no network namespaces).
subgen-test: $(BUILD)/l2tpsel-subgen $(BUILD)/l2tpsel-subresp
	selftests/unit/subgen.sh $(BUILD) || [ $$? = 4 ]
unit: subgen-test
