# SPDX-License-Identifier: GPL-2.0
# The rate limiter's benchmark, bench-rl (core/rl.c).  Its unit tests and
# scenario replays run with `make unit` (mk/core.mk picks up every test and
# scenario).
#
#   make bench-rl    ns per limiter decision and the admitted-vs-offered table

RL_BENCH_SRC := $(wildcard bench/rl/*.c)

.PHONY: bench-rl

$(BUILD)/bench-rl: $(RL_BENCH_SRC) core/rl.c core/rl.h core/l2s_types.h
	@mkdir -p $(@D)
	$(CC) $(USER_CPPFLAGS) $(USER_CFLAGS) -O2 -o $@ $(RL_BENCH_SRC) core/rl.c -lm

bench-rl: $(BUILD)/bench-rl
	$(BUILD)/bench-rl
