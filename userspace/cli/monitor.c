// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpsel monitor: print the namespace's events as they happen.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/l2tpsel.h>

#include "cli.h"
#include "print.h"
#include "why.h"

static void monitor_usage(void)
{
	printf("Usage: l2tpsel monitor [ count N ]\n"
	       "Prints each event of this namespace (one JSON object per line with -j);\n"
	       "stops after N events when count is given.\n");
}

static const char *const unlock_why[] = {
	[L2TPSEL_UNLOCK_DLNC] = "dlnc",
	[L2TPSEL_UNLOCK_SHORTEST] = "shortest",
	[L2TPSEL_UNLOCK_CLEAR] = "clear",
	[L2TPSEL_UNLOCK_EXPIRED] = "expired",
};

/* The attributes print in the order the module puts them. */
static void print_limit_event(const struct nlattr *const *tb, bool reached)
{
	pr_str("ev", "%s", reached ? "limit-reached" : "limit-cleared");
	if (tb[L2TPSEL_A_LEVEL])
		pr_str("level", " level %s", cli_level_name(l2s_attr_u8(tb, L2TPSEL_A_LEVEL, 0)));
	if (tb[L2TPSEL_A_NAME])
		pr_str("name", " name %s", l2s_attr_str(tb, L2TPSEL_A_NAME, NULL));
	if (tb[L2TPSEL_A_TUNNEL_ID])
		pr_u64("tunnel_id", " tunnel-id %" PRIu64,
		       l2s_attr_u32(tb, L2TPSEL_A_TUNNEL_ID, 0));
	if (tb[L2TPSEL_A_LIMIT])
		pr_u64("limit", " limit %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_LIMIT, 0));
	if (tb[L2TPSEL_A_COUNT])
		pr_u64("sessions", " sessions %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_COUNT, 0));
}

/* Lockout start / end: the names the simulator's trace uses. */
static void print_dest_event(const struct nlattr *const *tb, bool start)
{
	char buf[INET6_ADDRSTRLEN];

	pr_str("ev", "%s", start ? "lockout" : "unlock");
	if (tb[L2TPSEL_A_REMOTE])
		pr_str("dest", " dest %s",
		       cli_addr_text(tb, L2TPSEL_A_REMOTE, buf, sizeof(buf), "?"));
	if (tb[L2TPSEL_A_PORT])
		pr_u64("port", " port %" PRIu64, l2s_attr_u16(tb, L2TPSEL_A_PORT, 0));
	if (tb[L2TPSEL_A_LOCAL])
		pr_str("local", " local %s",
		       cli_addr_text(tb, L2TPSEL_A_LOCAL, buf, sizeof(buf), "?"));
	if (tb[L2TPSEL_A_LOCKOUT_REMAINING])
		pr_u64("ms", " ms %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_LOCKOUT_REMAINING, 0));
	if (tb[L2TPSEL_A_UNLOCK_WHY])
		pr_str("why", " why %s",
		       NAME_OF(unlock_why, l2s_attr_u8(tb, L2TPSEL_A_UNLOCK_WHY, 0)));
}

static void print_login_event(const struct nlattr *const *tb)
{
	bool ok = l2s_attr_u8(tb, L2TPSEL_A_OK, 0);

	pr_str("ev", "%s", "login");
	if (tb[L2TPSEL_A_LOGIN_ID])
		pr_u64("login", " %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_LOGIN_ID, 0));
	if (tb[L2TPSEL_A_PROFILE])
		pr_str("profile", " profile %s", l2s_attr_str(tb, L2TPSEL_A_PROFILE, NULL));
	if (tb[L2TPSEL_A_NAME])
		pr_str("tunnel", " tunnel %s", l2s_attr_str(tb, L2TPSEL_A_NAME, NULL));
	pr_str("result", " result %s", ok ? "ok" : "fail");
	if (tb[L2TPSEL_A_WHY] && !ok)
		pr_str("reason", " reason %s", l2s_why_name(l2s_attr_u8(tb, L2TPSEL_A_WHY, 0)));
}

struct monitor_ctx {
	uint32_t seen;
};

static int monitor_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];
	struct monitor_ctx *ctx = data;

	l2s_attr_parse(nlh, tb);
	pr_reset();
	pr_open_obj(NULL);
	switch (g->cmd) {
	case L2TPSEL_CMD_EV_LIMIT_REACHED:
	case L2TPSEL_CMD_EV_LIMIT_CLEARED:
		print_limit_event(tb, g->cmd == L2TPSEL_CMD_EV_LIMIT_REACHED);
		break;
	case L2TPSEL_CMD_EV_LOCKOUT:
	case L2TPSEL_CMD_EV_UNLOCK:
		print_dest_event(tb, g->cmd == L2TPSEL_CMD_EV_LOCKOUT);
		break;
	case L2TPSEL_CMD_EV_LOGIN:
		print_login_event(tb);
		break;
	case L2TPSEL_CMD_EV_THROTTLE:
		cli_print_throttle_event(nlh);
		break;
	default:
		pr_str("ev", "%s", "unknown");
		pr_u64("cmd", " cmd %" PRIu64, g->cmd);
	}
	pr_close_obj();
	pr_text("\n");
	pr_done();
	ctx->seen++;
	return MNL_CB_OK;
}

static int monitor_run(struct cli *c, int argc, char **argv)
{
	struct monitor_ctx ctx = { 0 };
	bool has_count = false;
	uint32_t count = 0;
	unsigned int grp;
	int ret;

	for (; argc > 0; NEXT_ARG_FWD()) {
		if (!strcmp(*argv, "count")) {
			if (has_count)
				return duparg("monitor", *argv);
			NEXT_ARG("monitor", "a number of events");
			if (cli_parse_u32("count", *argv, &count))
				return -1;
			has_count = true;
		} else {
			return cli_err("monitor: unexpected argument \"%s\", try \"l2tpsel monitor help\"",
				       *argv);
		}
	}
	if (cli_nl(c))
		return -1;
	if (!c->nl.events_grp)
		return cli_err("monitor: the kernel's l2tpsel family has no \"%s\" group", L2TPSEL_MCGRP_EVENTS);
	grp = c->nl.events_grp;
	if (mnl_socket_setsockopt(c->nl.sock, NETLINK_ADD_MEMBERSHIP, &grp, sizeof(grp)) < 0) {
		if (errno == EPERM)
			return cli_err("monitor: " L2S_NL_PERM_MSG " (%s)", "reading events",
				       strerror(errno));
		return cli_err("monitor: cannot join the events group: %s", strerror(errno));
	}
	while (!count || ctx.seen < count) {
		ret = mnl_socket_recvfrom(c->nl.sock, c->nl.buf, MNL_SOCKET_BUFFER_SIZE);
		if (ret < 0) {
			if (errno == ENOBUFS) {
				cli_err("monitor: events were lost (receive buffer overrun)");
				continue;
			}
			return cli_err("monitor: %s", strerror(errno));
		}
		ret = mnl_cb_run(c->nl.buf, ret, 0, 0, monitor_cb, &ctx);
		if (ret < 0)
			return cli_err("monitor: bad message from the kernel: %s", strerror(errno));
	}
	return 0;
}

const struct cli_object cli_obj_monitor = { "monitor", monitor_run, monitor_usage };
