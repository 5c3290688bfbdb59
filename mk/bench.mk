# SPDX-License-Identifier: GPL-2.0
# The benchmark report (Documentation/performance.md).
#
#   make bench                   every benchmark, host and VM, side by side with
#                                its peer; writes build/bench/<time>/report.md
#                                and PNG plots and prints the folder
#   make bench BENCH_SIZE=tiny   the same on a tiny size (seconds, not minutes)
#   make bench-smoke             host part on the tiny size, checks the report
#                                (run by `make unit`; never the full benchmarks)
#   make bench-doc BENCH_DIR=D   copy report D into Documentation/perf/

BENCH_SIZE ?= full
BENCH_DIR  ?=
BENCH_HOST_SRC := $(wildcard bench/host/*.c)
BENCH_NL_SRC   := $(wildcard bench/vm/*.c)

.PHONY: bench bench-smoke bench-doc

$(BUILD)/bench-host: $(BENCH_HOST_SRC) $(CORE_SRC) $(CORE_HDRS)
	@mkdir -p $(@D)
	$(CC) $(USER_CPPFLAGS) $(USER_CFLAGS) -O2 -o $@ $(BENCH_HOST_SRC) $(CORE_SRC) -lm

# Built by `make` too: selftests/net/l2tpseld_storm.sh uses its agent client.
USER_BINS += $(BUILD)/bench-nl
BENCH_NL_LIB   := userspace/lib/nl.c userspace/lib/attr.c
$(BUILD)/bench-nl: $(BENCH_NL_SRC) $(BENCH_NL_LIB) userspace/lib/nl.h userspace/lib/attr.h \
		   uapi/linux/l2tpsel.h
	@mkdir -p $(@D)
	$(CC) $(USER_CPPFLAGS) $(USER_CFLAGS) -O2 -o $@ $(BENCH_NL_SRC) $(BENCH_NL_LIB) -lmnl

bench: all $(BUILD)/bench-host $(BUILD)/bench-nl $(BUILD)/bench-core $(BUILD)/bench-rl \
	$(BUILD)/l2tpsel-subgen $(BUILD)/l2tpsel-subresp
	KVER=$(KVER) scripts/bench.sh --size $(BENCH_SIZE)

bench-smoke: $(BUILD)/bench-host
	scripts/bench.sh --smoke

bench-doc:
	scripts/bench.sh --doc $(BENCH_DIR)

unit: bench-smoke
