# SPDX-License-Identifier: GPL-2.0
#
# l2tpsel top-level build.  `make` builds the module and the userspace tools;
# `make help` lists the rest.  Every part adds its rules in mk/*.mk.

KVER  ?= $(shell ls -1 /lib/modules 2>/dev/null | sort -V | tail -n 1)
KDIR  ?= /lib/modules/$(KVER)/build
BUILD ?= build

CC ?= gcc
WARN := -Wall -Wextra -Werror -Wno-unused-parameter -Wshadow -Wformat=2 -Wno-format-nonliteral
CFLAGS ?= -O2 -g
USER_CPPFLAGS := -D_GNU_SOURCE -Iuapi -Icore -Iuserspace/lib
USER_CFLAGS := -std=gnu11 $(WARN) $(CFLAGS)
# Unit tests and the simulator's test build run under ASan and UBSan.
SAN_CFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# MD5 and HMAC-MD5 (userspace/l2tpseld/md5.h) come from Nettle.
CRYPTO_LIBS := -lnettle

CORE_SRC := $(sort $(wildcard core/*.c))
LIB_SRC  := userspace/lib/nl.c userspace/lib/attr.c userspace/lib/print.c userspace/lib/conf.c
CLI_SRC  := $(sort $(wildcard userspace/cli/*.c))
HDRS     := $(wildcard uapi/linux/*.h core/*.h userspace/lib/*.h userspace/cli/*.h kmod/*.h)
# The one C test harness: unit tests, netlink tests, core/tests/ (t.h).
HARNESS_SRC      := selftests/lib/harness.c
HARNESS_HDRS     := selftests/lib/harness.h
HARNESS_CPPFLAGS := -Iselftests/lib

# Binaries under build/; parts add theirs to USER_BINS in mk/*.mk, which are
# read here, before any rule uses the variables they extend.
USER_BINS := $(BUILD)/l2tpsel
.DEFAULT_GOAL := all
-include $(sort $(wildcard mk/*.mk))

.PHONY: all kmod userspace deps test test-debug unit demo clean help
all: kmod userspace

kmod:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

userspace: $(USER_BINS)

$(BUILD)/l2tpsel: $(CLI_SRC) $(LIB_SRC) $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(USER_CPPFLAGS) $(CPPFLAGS) $(USER_CFLAGS) $(LDFLAGS) -o $@ $(CLI_SRC) $(LIB_SRC) -lmnl

deps:
	./scripts/deps.sh

# The test suite: unit tests, a bounded fuzz run, the VM suite on the stock
# kernel and on the debug kernel (KASAN, lockdep, kmemleak, KUnit).  Ends
# with a "N passed, N failed" line.  test-debug names the same four stages.
test: deps
	./scripts/test.sh

test-debug: deps
	./scripts/test.sh unit fuzz vm debug

demo: deps
	./scripts/demo.sh

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	rm -rf $(BUILD)

help:
	@echo "make [all]       module (kmod/l2tpsel.ko, KVER=$(KVER)) and userspace tools in $(BUILD)/"
	@echo "make deps        install every Debian package the project needs (idempotent)"
	@echo "make test        unit tests, bounded fuzz, the VM suite on Debian's kernel (the demo included),"
	@echo "                 the module, netlink and data-path tests on the debug kernel"
	@echo "make test-debug  the same four stages (kept for old habits)"
	@echo "make demo        the demo: VM, module, agent (l2tpseld), real LNS peers, PPP"
	@echo "make install     CLI, agent, man pages, systemd unit (PREFIX, DESTDIR; make uninstall)"
	@echo "make unit        userspace unit tests of the core (ASan/UBSan)"
	@echo "make vmtest      the selftests in a VM on the stock kernel"
	@echo "make vmshell     an interactive shell in the VM"
	@echo "make debug-test  build/reuse the debug kernel, run KUnit and the selftests on it"
	@echo "make fuzz-smoke  every parser under libFuzzer, FUZZ_RUNS executions (1M) or 25 s each"
	@echo "make fuzz        the same for FUZZ_TIME seconds (600)"
	@echo "make fuzz-netlink the netlink fuzzer in the VM, NL_FUZZ_MESSAGES messages (2M), NL_FUZZ_SEED"
	@echo "make bench-core  ns per selection decision, hash disruption table"
	@echo "make bench-rl    ns per rate-limit decision, admitted-vs-offered table"
	@echo "make subgen      the PPPoE subscriber load generator and its responder (build/l2tpsel-sub*)"
	@echo "make bench       every benchmark against its peer (host and VM): report + plots in"
	@echo "                 build/bench/<time>/ (BENCH_SIZE=tiny|full); make bench-doc BENCH_DIR=..."

