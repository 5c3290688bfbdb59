# SPDX-License-Identifier: GPL-2.0
# libFuzzer targets (clang, ASan + UBSan).  The seed corpus in
# fuzz/corpus/<target>/ is read-only input; what libFuzzer finds goes to
# $(BUILD)/fuzz-corpus/<target>/ and crashes to $(BUILD)/fuzz-artifacts/.
#
#   make fuzz-smoke             bounded run (FUZZ_RUNS executions, default 1M)
#   make fuzz FUZZ_TIME=3600    long run, seconds
include mk/l2tpseld.mk

FUZZ_CC    ?= clang
FUZZ_RUNS  ?= 1000000
FUZZ_TIME  ?= 600
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	      -fno-omit-frame-pointer -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter
FUZZ_BIN   := $(BUILD)/fuzz_l2tp_msg

.PHONY: fuzz fuzz-smoke

$(BUILD)/fuzz_l2tp_msg: fuzz/fuzz_l2tp_msg.c $(L2TPD_LIB_SRC) $(L2TPD_LIB_HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -Iuserspace/l2tpseld -o $@ fuzz/fuzz_l2tp_msg.c $(L2TPD_LIB_SRC)

# $(1): extra libFuzzer options
define fuzz_run
	@mkdir -p $(BUILD)/fuzz-corpus/l2tp_msg $(BUILD)/fuzz-artifacts
	$(BUILD)/fuzz_l2tp_msg $(1) -max_len=4096 -print_final_stats=1 \
		-artifact_prefix=$(BUILD)/fuzz-artifacts/ \
		$(BUILD)/fuzz-corpus/l2tp_msg fuzz/corpus/l2tp_msg
endef

fuzz-smoke: $(FUZZ_BIN)
	$(call fuzz_run,-runs=$(FUZZ_RUNS))

fuzz: $(FUZZ_BIN)
	$(call fuzz_run,-max_total_time=$(FUZZ_TIME))

# The test command's bounded run (scripts/test.sh stage "fuzz"), as KTAP.
.PHONY: fuzz-ktap
fuzz-ktap: $(FUZZ_BIN)
	@echo "KTAP version 1"; echo "1..1"; \
	if $(MAKE) --no-print-directory fuzz-smoke > $(BUILD)/fuzz-smoke.log 2>&1; then \
		grep -E "stat::number_of_executed_units|stat::average_exec_per_sec|Done [0-9]+ runs" \
			$(BUILD)/fuzz-smoke.log | sed 's/^/# /'; \
		echo "ok 1 fuzz_l2tp_msg_$(FUZZ_RUNS)_runs"; \
	else \
		tail -n 60 $(BUILD)/fuzz-smoke.log | sed 's/^/# /'; \
		echo "not ok 1 fuzz_l2tp_msg_$(FUZZ_RUNS)_runs"; exit 1; \
	fi
