# SPDX-License-Identifier: GPL-2.0
# libFuzzer targets (clang, ASan + UBSan), one per parser of bytes from the
# network, a subscriber or a local user, and per state machine or glue
# behind them: fuzz/fuzz_<target>.c (Documentation/testing.md lists them).  The seed corpus in
# fuzz/corpus/<target>/ is read-only input; what libFuzzer finds goes to
# $(BUILD)/fuzz-corpus/<target>/ and crashes to $(BUILD)/fuzz-artifacts/.
#
#   make fuzz-smoke             bounded run of each (FUZZ_RUNS executions, default 1M,
#                               or FUZZ_SMOKE_TIME seconds, default 10, if sooner)
#   make fuzz FUZZ_TIME=3600    long run of each, seconds
#   make fuzz FUZZ_TARGETS=ppp  one of them
include mk/l2tpseld.mk

FUZZ_CC      ?= clang
FUZZ_RUNS    ?= 1000000
FUZZ_SMOKE_TIME ?= 10
FUZZ_TIME    ?= 600
FUZZ_FLAGS   := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-fno-omit-frame-pointer -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter
# l2tp_msg: control messages and AVPs (RFC 2661); pppoe_disc: PPPoE
# discovery (RFC 2516); ppp: LCP, PAP and CHAP as the LAC answers them;
# radius: the replies of a RADIUS server (RFC 2865).
# radius_dm: the Disconnect- and CoA-Requests of a RADIUS client (RFC 5176);
# das: what the server of dynamic authorization does with a run of them before
# it acts (authentication, the duplicate cache, the Event-Timestamp window).
# subgen: the frames the PPPoE load generator and its responder read
# (bench/subgen/sg_parse.c: PPPoE, PPP control packets, options, ICMP).
# l2tp_fsm: the tunnel and call state machines behind the parser, a fake
# peer's sequences against a LAC and an LNS on the unit tests' simulated
# network (out-of-order stash included).
# api: the local API's line parser and its answers (api.c); config: the
# configuration file's parser, its checks and the SIGHUP merge (config*.c).
# snap: the snapshot an upgrading agent hands the next (snap.c), and the
# tunnels and calls it rebuilds.
# radclient: the RADIUS client's reply matching, retries, failover and queue
# (radclient.c); access: PPPoE discovery and the subscribers' PPP through
# the access role (access*.c) to the login.
FUZZ_TARGETS ?= l2tp_msg pppoe_disc ppp radius radius_dm das subgen l2tp_fsm api config \
		radclient access snap
FUZZ_BINS    := $(addprefix $(BUILD)/fuzz_,$(FUZZ_TARGETS))
FUZZ_SRC_ppp := userspace/l2tpseld/l2d_loop.c

# Targets on the daemon's own files: each links the library and what it
# names here, no more (FUZZ_SRC_x; FUZZ_DEP_x: files it includes;
# FUZZ_LD_x: its link options), and is built by fuzz_build below.
FUZZ_SRC_l2tp_fsm := $(L2TPSELD_FSM_SRC) $(CORE_SRC) $(CONF_SRC) selftests/unit/l2tpseld_harness.c
FUZZ_INC_l2tp_fsm := -Iselftests/unit -Iselftests/lib -DH_MAX_PKTS=256 -DH_STATIC
# api: api.c is included by the target (its parser is static); the rest
# of the agent is stubbed there.
FUZZ_SRC_api := $(addprefix userspace/l2tpseld/,log.c l2d_loop.c)
FUZZ_DEP_api := userspace/l2tpseld/api.c
# config: the parser, and the "kernel none" core its check builds.
FUZZ_SRC_config := $(CONFIG_SRC) $(addprefix userspace/l2tpseld/,kernel_none.c log.c l2d_loop.c) $(CORE_SRC) \
		   $(CONF_SRC)
# radclient: the RADIUS client on its loop and sockets (radclient.c).
FUZZ_SRC_radclient := $(addprefix userspace/l2tpseld/,radclient.c log.c l2d_loop.c)
# access: the access files on their fake kernel (ACCESS_FAKE_*,
# mk/l2tpseld.mk), on the real agent behind them.
FUZZ_SRC_access := $(ACCESS_SRC) $(ACCESS_FAKE_SRC) $(L2TPSELD_FSM_SRC) $(CORE_SRC) $(CONF_SRC) \
		   userspace/l2tpseld/radclient.c
FUZZ_DEP_access := $(ACCESS_FAKE_HDRS)
FUZZ_LD_access  := $(ACCESS_FAKE_LDFLAGS)
# snap: the agent on the harness, as l2tp_fsm.
FUZZ_SRC_snap := $(FUZZ_SRC_l2tp_fsm)
FUZZ_INC_snap := $(FUZZ_INC_l2tp_fsm)
FUZZ_OWN := l2tp_fsm api config radclient access snap

.PHONY: fuzz fuzz-smoke

$(BUILD)/fuzz_%: fuzz/fuzz_%.c $(L2TPSELD_LIB_SRC) $(L2TPSELD_LIB_HDRS) $(L2TPSELD_FSM_HDRS) \
		 $(PPP_SRC) userspace/l2tpseld/ppp.h userspace/l2tpseld/ppp_int.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -Iuserspace/l2tpseld -o $@ $< $(L2TPSELD_LIB_SRC) \
		$(if $(filter fuzz_ppp,$(@F)),$(PPP_SRC) $(FUZZ_SRC_ppp)) $(CRYPTO_LIBS)

# $(1): a target of FUZZ_OWN
define fuzz_build
$(BUILD)/fuzz_$(1): fuzz/fuzz_$(1).c $(L2TPSELD_LIB_SRC) $(L2TPSELD_LIB_HDRS) $(L2TPSELD_FSM_HDRS) \
		 $(FUZZ_SRC_$(1)) $(FUZZ_DEP_$(1)) fuzz/fuzz_in.h
	@mkdir -p $$(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(USER_CPPFLAGS) -Iuserspace/l2tpseld $(FUZZ_INC_$(1)) -o $$@ $$< \
		$(L2TPSELD_LIB_SRC) $(FUZZ_SRC_$(1)) $(FUZZ_LD_$(1)) $(CRYPTO_LIBS)
endef
$(foreach t,$(FUZZ_OWN),$(eval $(call fuzz_build,$(t))))

# The load generator's parser stands alone: not the l2tpseld library.
$(BUILD)/fuzz_subgen: fuzz/fuzz_subgen.c bench/subgen/sg_parse.c bench/subgen/sg_parse.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -Ibench/subgen -o $@ $< bench/subgen/sg_parse.c

# $(1): target, $(2): extra libFuzzer options
define fuzz_run
	@mkdir -p $(BUILD)/fuzz-corpus/$(1) $(BUILD)/fuzz-artifacts
	$(BUILD)/fuzz_$(1) $(2) -max_len=4096 -print_final_stats=1 \
		-artifact_prefix=$(BUILD)/fuzz-artifacts/$(1)- \
		$(BUILD)/fuzz-corpus/$(1) fuzz/corpus/$(1)

endef

# Each target FUZZ_RUNS executions, or FUZZ_SMOKE_TIME seconds when that
# comes first (the test command's stage stays bounded as targets are added).
fuzz-smoke: $(FUZZ_BINS)
	$(foreach t,$(FUZZ_TARGETS),$(call fuzz_run,$(t),-runs=$(FUZZ_RUNS) -max_total_time=$(FUZZ_SMOKE_TIME)))

fuzz: $(FUZZ_BINS)
	$(foreach t,$(FUZZ_TARGETS),$(call fuzz_run,$(t),-max_total_time=$(FUZZ_TIME)))

# The test command's bounded run (scripts/test.sh stage "fuzz"), as KTAP:
# one line per target.
.PHONY: fuzz-ktap
fuzz-ktap: $(FUZZ_BINS)
	@echo "KTAP version 1"; echo "1..$(words $(FUZZ_TARGETS))"; n=0; bad=0; \
	for t in $(FUZZ_TARGETS); do \
		n=$$((n + 1)); \
		if $(MAKE) --no-print-directory fuzz-smoke FUZZ_TARGETS=$$t \
				> $(BUILD)/fuzz-smoke-$$t.log 2>&1; then \
			grep -E "stat::number_of_executed_units|stat::average_exec_per_sec|Done [0-9]+ runs" \
				$(BUILD)/fuzz-smoke-$$t.log | sed 's/^/# /'; \
			echo "ok $$n fuzz_$${t}"; \
		else \
			tail -n 60 $(BUILD)/fuzz-smoke-$$t.log | sed 's/^/# /'; \
			echo "not ok $$n fuzz_$${t}"; bad=1; \
		fi; \
	done; exit $$bad
