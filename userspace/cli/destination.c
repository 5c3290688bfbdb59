// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpsel destination: the LNS destinations the tunnels name, with their
 * lockout, sessions, logins in flight, attempts and failures (SPEC §3).
 */
#include <inttypes.h>
#include <stdio.h>
#include <linux/genetlink.h>
#include <linux/l2tpsel.h>

#include "cli.h"
#include "print.h"

static void destination_usage(void)
{
	printf("Usage: l2tpsel destination show\n"
	       "Each destination (remote address, port, local address) with its lockout time\n"
	       "remaining (ms), session count, logins in flight to it, tunnels naming it,\n"
	       "attempts and failures.\n");
}

static int dest_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];
	char rbuf[64], lbuf[64];
	const char *remote, *local;

	l2s_attr_parse(nlh, tb);
	remote = cli_addr_text(tb, L2TPSEL_A_REMOTE, rbuf, sizeof(rbuf), "");
	local = cli_addr_text(tb, L2TPSEL_A_LOCAL, lbuf, sizeof(lbuf), "");
	pr_open_obj(NULL);
	pr_str("dest", "%s", remote);
	pr_u64("port", " port %" PRIu64, l2s_attr_u16(tb, L2TPSEL_A_PORT, 0));
	if (local[0] || !pr_is_json())
		pr_str("local", " local %s", local[0] ? local : "any");
	pr_u64("lockout_ms", " lockout-ms %" PRIu64,
	       l2s_attr_u32(tb, L2TPSEL_A_LOCKOUT_REMAINING, 0));
	pr_u64("sessions", " sessions %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_SESSIONS, 0));
	pr_u64("in_flight", " in-flight %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_IN_FLIGHT, 0));
	pr_u64("tunnels", " tunnels %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_N_TUNNELS, 0));
	pr_u64("attempts", " attempts %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_ATTEMPTS, 0));
	pr_u64("failures", " failures %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_FAILURES, 0));
	pr_close_obj();
	pr_text("\n");
	return MNL_CB_OK;
}

static int destination_run(struct cli *c, int argc, char **argv)
{
	if (argc && !cli_matches(argv[0], "show") && !cli_matches(argv[0], "list"))
		return cli_err("destination: command \"%s\" is unknown, try \"l2tpsel destination help\"",
			       argv[0]);
	if (argc > 1)
		return cli_err("destination show: unexpected argument \"%s\"", argv[1]);
	return cli_nl(c) ?: cli_show_named(c, L2TPSEL_CMD_DEST_GET, 0, NULL, dest_cb,
					   "destination show");
}

const struct cli_object cli_obj_destination = { "destination", destination_run, destination_usage };
