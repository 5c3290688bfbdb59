// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpsel destination: the LNS destinations the tunnels name, with their
 * lockout, sessions, logins in flight, attempts and failures (SPEC §3).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/l2tpsel.h>

#include "cli.h"
#include "print.h"

static void destination_usage(void)
{
	printf("Usage: l2tpsel destination show\n"
	       "       l2tpsel destination drain ADDR [ port PORT ] [ local ADDR ] [ on | off ]\n"
	       "Each destination (remote address, port, local address) with its lockout time\n"
	       "remaining (ms), session count, logins in flight to it, tunnels naming it,\n"
	       "attempts and failures, and \"drain draining\" or \"drain drained\" when drained.\n"
	       "drain: no new login to the destinations with that address (narrowed by port\n"
	       "and local address), through any tunnel; their sessions stay.\n");
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
	cli_print_drain(tb);
	pr_close_obj();
	pr_text("\n");
	return MNL_CB_OK;
}

static int drain_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];

	l2s_attr_parse(nlh, tb);
	pr_reset();
	pr_open_obj(NULL);
	pr_u64("destinations", "%" PRIu64 " destination(s)", l2s_attr_u32(tb, L2TPSEL_A_N_DESTS, 0));
	pr_close_obj();
	pr_text("\n");
	return MNL_CB_OK;
}

/* destination drain ADDR [ port PORT ] [ local ADDR ] [ on | off ] (S-OPS-1) */
static int destination_drain(struct cli *c, int argc, char **argv)
{
	const char *cmd = "destination drain";
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct l2s_addr remote, local;
	bool has_port = false, has_local = false, has_on = false;
	uint32_t port = 0;
	struct nlmsghdr *nlh;
	int on = 1;

	if (argc < 2 || conf_parse_addr(argv[1], &remote))
		return cli_err("destination drain: ADDR (IPv4 or IPv6) required");
	for (argc -= 2, argv += 2; argc > 0; argc--, argv++) {
		if (!strcmp(*argv, "port") && !has_port && argc > 1) {
			argc--, argv++;
			if (cli_parse_u32("port", *argv, &port))
				return -1;
			if (!port || port > 65535)
				return cli_err("%s: port %u: 1..65535", cmd, port);
			has_port = true;
		} else if (!strcmp(*argv, "local") && !has_local && argc > 1) {
			argc--, argv++;
			if (conf_parse_addr(*argv, &local))
				return cli_err("%s: local \"%s\" is not an address", cmd, *argv);
			has_local = true;
		} else if ((!strcmp(*argv, "on") || !strcmp(*argv, "off")) && !has_on) {
			on = !strcmp(*argv, "on");
			has_on = true;
		} else {
			return cli_err("%s: \"%s\" is unknown or repeated; usage: destination drain ADDR [ port PORT ] [ local ADDR ] [ on | off ]",
				       cmd, *argv);
		}
	}
	if (cli_nl(c))
		return -1;
	nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_DEST_DRAIN, 0);
	cli_put_addr(nlh, L2TPSEL_A_REMOTE, &remote);
	if (has_local)
		cli_put_addr(nlh, L2TPSEL_A_LOCAL, &local);
	if (port)
		mnl_attr_put_u16(nlh, L2TPSEL_A_PORT, (uint16_t)port);
	mnl_attr_put_u8(nlh, L2TPSEL_A_DRAIN, (uint8_t)on);
	return cli_request(c, nlh, drain_cb, cmd);
}

static int destination_run(struct cli *c, int argc, char **argv)
{
	if (argc && !strcmp(argv[0], "drain"))
		return destination_drain(c, argc, argv);
	if (argc && !cli_matches(argv[0], "show") && !cli_matches(argv[0], "list"))
		return cli_err("destination: command \"%s\" is unknown, try \"l2tpsel destination help\"",
			       argv[0]);
	if (argc > 1)
		return cli_err("destination show: unexpected argument \"%s\"", argv[1]);
	return cli_nl(c) ?: cli_show_named(c, L2TPSEL_CMD_DEST_GET, 0, NULL, dest_cb,
					   "destination show");
}

const struct cli_object cli_obj_destination = { "destination", destination_run, destination_usage };
