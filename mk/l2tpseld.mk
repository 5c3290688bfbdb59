# SPDX-License-Identifier: GPL-2.0
# l2tpseld: the protocol library (RFC 2661 control messages, AVPs, hidden
# AVPs, tunnel authentication, reliable delivery: plain C, no sockets, linked
# into the unit tests (mk/core.mk) and the fuzz target (mk/fuzz.mk)), and the
# daemon build/l2tpseld built on it.
ifndef L2TPSELD_MK_INCLUDED
L2TPSELD_MK_INCLUDED := 1

# Listed, not globbed: the daemon's own files live in the same folder.
L2TPSELD_LIB_SRC  := $(addprefix userspace/l2tpseld/,names.c auth.c hidden.c avp.c msg.c reliable.c \
		    pppoe.c discrate.c radius.c radius_das.c accessline.c lts.c lcp_opt.c proxy_lcp.c)
L2TPSELD_LIB_HDRS := $(addprefix userspace/l2tpseld/,l2tp.h md5.h auth.h hidden.h avp.h msg.h reliable.h \
		    pppoe.h discrate.h radius.h accessline.h lts.h lcp_opt.h proxy_lcp.h)

# The daemon's state machines and everything else without sockets or
# netlink, "kernel none" (kernel_none.c, on core/*.c) included: also linked into
# the unit tests (selftests/unit/test_l2tpseld_*.c).
# The LAC's own PPP (ppp_int.h says what ppp_pkt.c does).
PPP_SRC           := $(addprefix userspace/l2tpseld/,ppp.c ppp_pkt.c)
# The configuration parser (config_int.h says which file has which lines).
CONFIG_SRC        := $(addprefix userspace/l2tpseld/,config.c config_access.c config_radius.c config_tunnel.c \
		    config_word.c)
L2TPSELD_FSM_SRC  := $(CONFIG_SRC) $(PPP_SRC) $(addprefix userspace/l2tpseld/,agent.c l2d.c l2d_loop.c log.c \
		    tunnel.c tunnel_rx.c tunnel_accept.c tunnel_peer.c tunnel_msg.c session.c session_refuse.c \
		    session_csu.c lac.c kernel_none.c idmap.c offload.c mtu.c snap.c)
L2TPSELD_FSM_HDRS := $(addprefix userspace/l2tpseld/,l2d.h l2d_conf.h config_int.h l2d_loop.h ppp.h ppp_int.h \
		    idmap.h offload.h mtu.h snap.h agent.h tunnel.h tunnel_int.h session.h session_int.h lac.h \
		    kernel.h kernel_none.h api.h sock.h)
# The access role (access_int.h says which file does what).
ACCESS_SRC        := $(addprefix userspace/l2tpseld/,access.c access_disc.c access_sub.c access_call.c \
		    access_acct.c access_switch.c access_snap.c)
# The rest of the daemon: sockets, the local API, the l2tpsel module, main;
# DP_SRC (the kernel data path, mk/dptest.mk) when that part is there.
L2TPSELD_BIN_SRC  := $(addprefix userspace/l2tpseld/,main.c sock.c api.c kernel_netlink.c dataplane_kernel.c \
		    radclient.c das.c lnsacct.c metrics.c metrics_http.c fdstore.c) $(ACCESS_SRC) \
		  userspace/lib/nl.c userspace/lib/attr.c userspace/lib/conf.c \
		  $(DP_SRC)
L2TPSELD_BIN_HDRS := $(addprefix userspace/l2tpseld/,kernel_netlink.h dataplane_kernel.h metrics.h access.h \
		    access_int.h)
L2TPSELD_CFLAGS   := $(if $(DP_SRC),-DL2D_HAVE_DP=1)

USER_BINS += $(BUILD)/l2tpseld

$(BUILD)/l2tpseld: $(L2TPSELD_LIB_SRC) $(L2TPSELD_FSM_SRC) $(L2TPSELD_BIN_SRC) $(CORE_SRC) $(L2TPSELD_LIB_HDRS) \
		   $(L2TPSELD_FSM_HDRS) $(L2TPSELD_BIN_HDRS) $(DP_HDRS) $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(USER_CPPFLAGS) $(CPPFLAGS) $(L2TPSELD_CFLAGS) $(USER_CFLAGS) $(LDFLAGS) -o $@ \
		$(L2TPSELD_LIB_SRC) $(L2TPSELD_FSM_SRC) $(L2TPSELD_BIN_SRC) $(CORE_SRC) -lmnl -lmicrohttpd \
		$(CRYPTO_LIBS)

# The pppd plugin of `proxy-lcp yes` (the LNS role, RFC 2661 section 4.4.5):
# built against pppd's headers (Debian's ppp-dev) when they are there; a
# build without them has no plugin and its LNS role renegotiates LCP.
PPPD_INC ?= /usr/include/pppd
ifneq ($(wildcard $(PPPD_INC)/pppd.h),)
USER_BINS += $(BUILD)/pppd_proxy_lcp.so
endif
$(BUILD)/pppd_proxy_lcp.so: userspace/l2tpseld/pppd_proxy_lcp.c userspace/l2tpseld/proxy_lcp.h
	@mkdir -p $(@D)
	$(CC) -O2 -g -Wall -Wextra -Werror -fPIC -shared -I$(dir $(PPPD_INC)) -Iuserspace/l2tpseld \
		$(LDFLAGS) -o $@ $<

# The plugin against a stand-in pppd built from pppd's headers (part of
# make unit when they are there).
$(BUILD)/pppd-plugin-tests: selftests/unit/pppd/test_proxy_lcp_plugin.c userspace/l2tpseld/pppd_proxy_lcp.c \
			    userspace/l2tpseld/proxy_lcp.h
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter -g $(SAN_CFLAGS) \
		-I$(dir $(PPPD_INC)) -Iuserspace/l2tpseld -o $@ $<
.PHONY: pppd-plugin-tests
pppd-plugin-tests: $(BUILD)/pppd-plugin-tests
	$(BUILD)/pppd-plugin-tests
ifneq ($(wildcard $(PPPD_INC)/pppd.h),)
unit: pppd-plugin-tests
endif

# mk/core.mk is read before this file, so its prerequisite list cannot see
# these yet (its recipe can): add the prerequisites here, and the state
# machines to the unit-test link only (the fuzz target keeps the library).
# The RADIUS client, the server of dynamic authorization, the local API and
# the tunnels' sockets run there on their real loop and sockets
# (test_radclient.c, test_das.c, test_l2tpseld_api.c, test_l2tpseld_sock.c;
# the second and third stand in for access.c's l2d_access_disconnect(),
# l2d_access_stats() and l2d_access_if_stats()).  The metrics' text
# (metrics.c) is rendered there too; its HTTP server (metrics_http.c) is
# the daemon's only.
$(BUILD)/unit-tests: $(L2TPSELD_LIB_SRC) $(L2TPSELD_LIB_HDRS) $(L2TPSELD_FSM_SRC) $(L2TPSELD_FSM_HDRS) \
		     userspace/l2tpseld/radclient.c userspace/l2tpseld/das.c userspace/l2tpseld/api.c \
		     userspace/l2tpseld/sock.c userspace/l2tpseld/metrics.c userspace/l2tpseld/metrics.h \
		     $(L2TPSELD_BIN_HDRS)
$(BUILD)/unit-tests: L2TPSELD_LIB_SRC += $(L2TPSELD_FSM_SRC) userspace/l2tpseld/radclient.c \
		     userspace/l2tpseld/das.c userspace/l2tpseld/api.c userspace/l2tpseld/sock.c \
		     userspace/l2tpseld/metrics.c

# The loopback test: an l2tpseld LAC against l2tpseld LNS instances on
# 127.0.0.x, control plane only (kernel none); a few seconds, part of make unit.
.PHONY: l2tpseld-loopback
l2tpseld-loopback: $(BUILD)/l2tpseld $(BUILD)/l2tpsel
	selftests/unit/l2tpseld_loopback.sh $(BUILD)
	selftests/unit/l2tpseld_port.sh $(BUILD)
	selftests/unit/l2tpseld_restart.sh $(BUILD)
unit: l2tpseld-loopback

# Operational safety of the real binary: test
# switches, secrets, core dumps, the API socket's mode and credentials,
# SIGHUP, getrandom, hostile peer strings; a few seconds, part of make unit.
.PHONY: l2tpseld-safety
l2tpseld-safety: $(BUILD)/l2tpseld $(BUILD)/l2tpsel
	selftests/unit/l2tpseld_safety.sh $(BUILD)
unit: l2tpseld-safety

# A hostile peer while real logins run: truncated,
# oversized, reordered, duplicated, wrong-Nr and wrong-Tunnel-ID datagrams
# against an l2tpseld LNS on 127.0.0.8; about 10 s, part of make unit.
.PHONY: l2tpseld-hostile
l2tpseld-hostile: $(BUILD)/l2tpseld $(BUILD)/l2tpsel
	selftests/unit/l2tpseld_hostile.sh $(BUILD)
unit: l2tpseld-hostile

# -h/--help, -V/--version and unknown options of the three programs.
.PHONY: tools-options
tools-options: $(BUILD)/l2tpseld $(BUILD)/l2tpsel $(BUILD)/l2tpsel-sim
	selftests/unit/tools_options.sh $(BUILD)
unit: tools-options

# The tunnel, session, LAC and access files, and those of the CLI and the
# simulator: no circle of calls, none over 800 lines, no function over 80
# (scripts/l2d-structure.py); the kernel and data path files' functions
# named after their file; under a second.
.PHONY: l2tpseld-structure
l2tpseld-structure:
	selftests/unit/l2tpseld_structure.sh
unit: l2tpseld-structure

# The access files' kernel faked for their tests and fuzz target
# (selftests/unit/access/fakes.h): ld's --wrap sends these calls to it.
ACCESS_FAKE_SRC     := selftests/unit/access/fakes.c
ACCESS_FAKE_HDRS    := selftests/unit/access/fakes.h $(L2TPSELD_BIN_HDRS)
ACCESS_FAKE_LDFLAGS := -Wl,--wrap=socket,--wrap=connect,--wrap=ioctl,--wrap=open,--wrap=sendto \
		       -Wl,--wrap=l2d_offload_submit,--wrap=l2d_offload_close,--wrap=close

# The access side's PADO delay and drain on the access files, their kernel
# faked: a binary of its own, since the unit-test binary stands in for two
# of access.c's functions.
ACCESS_TEST_SRC := $(wildcard selftests/unit/access/*.c)
$(BUILD)/access-tests: $(ACCESS_TEST_SRC) $(ACCESS_SRC) $(ACCESS_FAKE_HDRS) $(HARNESS_SRC) $(HARNESS_HDRS) \
		       $(L2TPSELD_LIB_SRC) $(L2TPSELD_LIB_HDRS) $(L2TPSELD_FSM_SRC) $(L2TPSELD_FSM_HDRS) \
		       $(CORE_SRC) $(CONF_SRC) userspace/l2tpseld/radclient.c
	@mkdir -p $(@D)
	$(CC) $(USER_CPPFLAGS) $(HARNESS_CPPFLAGS) -Iuserspace/l2tpseld $(USER_CFLAGS) $(SAN_CFLAGS) -o $@ \
		$(ACCESS_TEST_SRC) $(ACCESS_SRC) $(HARNESS_SRC) $(L2TPSELD_LIB_SRC) $(L2TPSELD_FSM_SRC) \
		$(CORE_SRC) $(CONF_SRC) userspace/l2tpseld/radclient.c $(ACCESS_FAKE_LDFLAGS) $(CRYPTO_LIBS)

.PHONY: access-tests
access-tests: $(BUILD)/access-tests
	$(BUILD)/access-tests
unit: access-tests

# Tunnel switching (S-LTS-1, S-LTS-2) on the access files, faked as above
# and their RADIUS client's calls wrapped too, in the simulated network of
# l2tpseld_harness.c: a LAC, the switch, an LNS.
LTS_TEST_SRC := $(wildcard selftests/unit/lts/*.c) selftests/unit/l2tpseld_harness.c
$(BUILD)/lts-tests: $(LTS_TEST_SRC) selftests/unit/l2tpseld_harness.h $(ACCESS_SRC) $(ACCESS_FAKE_SRC) \
		    $(ACCESS_FAKE_HDRS) $(HARNESS_SRC) $(HARNESS_HDRS) $(L2TPSELD_LIB_SRC) $(L2TPSELD_LIB_HDRS) \
		    $(L2TPSELD_FSM_SRC) $(L2TPSELD_FSM_HDRS) $(CORE_SRC) $(CONF_SRC) \
		    userspace/l2tpseld/radclient.c userspace/l2tpseld/metrics.c userspace/l2tpseld/metrics.h
	@mkdir -p $(@D)
	$(CC) $(USER_CPPFLAGS) $(HARNESS_CPPFLAGS) -Iuserspace/l2tpseld $(USER_CFLAGS) $(SAN_CFLAGS) -o $@ \
		$(LTS_TEST_SRC) $(ACCESS_SRC) $(ACCESS_FAKE_SRC) $(HARNESS_SRC) $(L2TPSELD_LIB_SRC) \
		$(L2TPSELD_FSM_SRC) $(CORE_SRC) $(CONF_SRC) userspace/l2tpseld/radclient.c \
		userspace/l2tpseld/metrics.c $(ACCESS_FAKE_LDFLAGS) \
		-Wl,--wrap=l2d_radius_on,--wrap=l2d_radius_auth,--wrap=l2d_radius_cancel,--wrap=l2d_radius_acct \
		$(CRYPTO_LIBS)

.PHONY: lts-tests
lts-tests: $(BUILD)/lts-tests
	$(BUILD)/lts-tests
unit: lts-tests

endif

