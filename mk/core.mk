# SPDX-License-Identifier: GPL-2.0
# The selection core in userspace: unit tests, the simulator and its scenario
# replays, and the core benchmark.  The module build compiles the same
# core/*.c through Kbuild.

# core/tests/*.c are the cases shared with the KUnit module:
# kmod/kunit/suites.c includes them, the unit tests link them.
UNIT_SRC  := $(sort $(wildcard selftests/unit/*.c core/tests/*.c)) $(HARNESS_SRC)
UNIT_HDRS := $(wildcard selftests/unit/*.h core/tests/*.h) $(HARNESS_HDRS)
CONF_SRC  := userspace/lib/conf.c
# The simulator (userspace/sim/sim.h says which file does what).
SIM_SRC   := $(addprefix userspace/sim/,sim.c sim_env.c sim_state.c sim_login.c sim_rl.c) $(CONF_SRC)
SIM_HDRS  := userspace/sim/sim.h
CORE_HDRS := $(wildcard core/*.h) userspace/lib/conf.h
SCENARIOS := $(sort $(wildcard selftests/unit/scenarios/*.scen))

USER_BINS += $(BUILD)/l2tpsel-sim

.PHONY: unit bench-core

$(BUILD)/unit-tests: $(UNIT_SRC) $(UNIT_HDRS) $(CORE_SRC) $(CORE_HDRS) $(CONF_SRC) $(L2TPSELD_LIB_SRC)
	@mkdir -p $(@D)
	$(CC) $(USER_CPPFLAGS) -Iselftests/unit $(HARNESS_CPPFLAGS) $(USER_CFLAGS) $(SAN_CFLAGS) -o $@ \
		$(UNIT_SRC) $(CORE_SRC) $(CONF_SRC) $(L2TPSELD_LIB_SRC) $(CRYPTO_LIBS)

$(BUILD)/l2tpsel-sim: $(SIM_SRC) $(SIM_HDRS) $(CORE_SRC) $(CORE_HDRS)
	@mkdir -p $(@D)
	$(CC) $(USER_CPPFLAGS) $(USER_CFLAGS) -o $@ $(SIM_SRC) $(CORE_SRC)

# The scenario replays run the simulator under the sanitizers too.
$(BUILD)/l2tpsel-sim-san: $(SIM_SRC) $(SIM_HDRS) $(CORE_SRC) $(CORE_HDRS)
	@mkdir -p $(@D)
	$(CC) $(USER_CPPFLAGS) $(USER_CFLAGS) $(SAN_CFLAGS) -o $@ $(SIM_SRC) $(CORE_SRC)

unit: $(BUILD)/unit-tests $(BUILD)/l2tpsel-sim-san
	$(BUILD)/unit-tests
	selftests/unit/scenarios/run.sh $(BUILD)/l2tpsel-sim-san $(SCENARIOS)

$(BUILD)/bench-core: $(wildcard bench/core/*.c) $(CORE_SRC) $(CORE_HDRS)
	@mkdir -p $(@D)
	$(CC) $(USER_CPPFLAGS) $(USER_CFLAGS) -O2 -o $@ $(wildcard bench/core/*.c) $(CORE_SRC)

bench-core: $(BUILD)/bench-core
	$(BUILD)/bench-core
