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

#define NAME_OF(tab, v) ((v) < sizeof(tab) / sizeof((tab)[0]) && (tab)[v] ? (tab)[v] : "unknown")

/* An address attribute (4 or 16 bytes) as text. */
static const char *addr_str(const struct nlattr *a, char *buf, size_t len)
{
	uint16_t n = mnl_attr_get_payload_len(a);

	if ((n != 4 && n != 16) ||
	    !inet_ntop(n == 4 ? AF_INET : AF_INET6, mnl_attr_get_payload(a), buf, len))
		return "?";
	return buf;
}

/* Lockout start / end: the names the simulator's trace uses. */
static void print_dest_event(const struct nlmsghdr *nlh, bool start)
{
	const struct nlattr *a;
	char buf[INET6_ADDRSTRLEN];

	pr_str("ev", "%s", start ? "lockout" : "unlock");
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(a)) {
		case L2TPSEL_A_REMOTE:
			pr_str("dest", " dest %s", addr_str(a, buf, sizeof(buf)));
			break;
		case L2TPSEL_A_PORT:
			pr_u64("port", " port %" PRIu64, mnl_attr_get_u16(a));
			break;
		case L2TPSEL_A_LOCAL:
			pr_str("local", " local %s", addr_str(a, buf, sizeof(buf)));
			break;
		case L2TPSEL_A_LOCKOUT_REMAINING:
			pr_u64("ms", " ms %" PRIu64, mnl_attr_get_u32(a));
			break;
		case L2TPSEL_A_UNLOCK_WHY:
			pr_str("why", " why %s", NAME_OF(unlock_why, mnl_attr_get_u8(a)));
			break;
		}
	}
}

static void print_login_event(const struct nlmsghdr *nlh)
{
	const struct nlattr *a, *ok = NULL, *why = NULL;

	pr_str("ev", "%s", "login");
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(a)) {
		case L2TPSEL_A_LOGIN_ID:
			pr_u64("login", " %" PRIu64, mnl_attr_get_u32(a));
			break;
		case L2TPSEL_A_PROFILE:
			if (!mnl_attr_validate(a, MNL_TYPE_NUL_STRING))
				pr_str("profile", " profile %s", mnl_attr_get_str(a));
			break;
		case L2TPSEL_A_NAME:
			if (!mnl_attr_validate(a, MNL_TYPE_NUL_STRING))
				pr_str("tunnel", " tunnel %s", mnl_attr_get_str(a));
			break;
		case L2TPSEL_A_OK:
			ok = a;
			break;
		case L2TPSEL_A_WHY:
			why = a;
			break;
		}
	}
	pr_str("result", " result %s", ok && mnl_attr_get_u8(ok) ? "ok" : "fail");
	if (why && !(ok && mnl_attr_get_u8(ok)))
		pr_str("reason", " reason %s", l2s_why_name(mnl_attr_get_u8(why)));
}

struct monitor_ctx {
	uint32_t seen;
};

static int monitor_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	struct monitor_ctx *ctx = data;
	const struct nlattr *a;

	pr_reset();
	pr_open_obj(NULL);
	switch (g->cmd) {
	case L2TPSEL_CMD_EV_LIMIT_REACHED:
	case L2TPSEL_CMD_EV_LIMIT_CLEARED:
		pr_str("ev", "%s", g->cmd == L2TPSEL_CMD_EV_LIMIT_REACHED ?
		       "limit-reached" : "limit-cleared");
		mnl_attr_for_each(a, nlh, sizeof(*g)) {
			switch (mnl_attr_get_type(a)) {
			case L2TPSEL_A_LEVEL:
				pr_str("level", " level %s", cli_level_name(mnl_attr_get_u8(a)));
				break;
			case L2TPSEL_A_NAME:
				if (!mnl_attr_validate(a, MNL_TYPE_NUL_STRING))
					pr_str("name", " name %s", mnl_attr_get_str(a));
				break;
			case L2TPSEL_A_TUNNEL_ID:
				pr_u64("tunnel_id", " tunnel-id %" PRIu64, mnl_attr_get_u32(a));
				break;
			case L2TPSEL_A_LIMIT:
				pr_u64("limit", " limit %" PRIu64, mnl_attr_get_u32(a));
				break;
			case L2TPSEL_A_COUNT:
				pr_u64("sessions", " sessions %" PRIu64, mnl_attr_get_u32(a));
				break;
			}
		}
		break;
	case L2TPSEL_CMD_EV_LOCKOUT:
	case L2TPSEL_CMD_EV_UNLOCK:
		print_dest_event(nlh, g->cmd == L2TPSEL_CMD_EV_LOCKOUT);
		break;
	case L2TPSEL_CMD_EV_LOGIN:
		print_login_event(nlh);
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
	uint32_t count = 0;
	unsigned int grp;
	int ret;

	if (argc == 2 && !strcmp(argv[0], "count")) {
		if (cli_parse_u32("count", argv[1], &count))
			return -1;
	} else if (argc) {
		return cli_err("monitor: unexpected argument \"%s\", try \"l2tpsel monitor help\"", argv[0]);
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
