// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpsel limit: the chassis and L2TP tunnel levels of session admission
 * (SPEC §4) and the chassis maximum.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/l2tpsel.h>

#include "cli.h"
#include "print.h"

static void limit_usage(void)
{
	printf("Usage: l2tpsel limit show\n"
	       "       l2tpsel limit set [ chassis-max N ] [ chassis N ] [ tunnel N ]\n"
	       "N := 0 (no limit) | 1..chassis-max;  chassis-max := 1..4294967295\n");
}

static int limit_show_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];

	l2s_attr_parse(nlh, tb);
	pr_open_obj(NULL);
	pr_u64("chassis_max", "chassis-max %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_CHASSIS_MAX, 0));
	cli_print_limit("chassis_limit", "chassis", l2s_attr_u32(tb, L2TPSEL_A_CHASSIS_LIMIT, 0));
	cli_print_limit("tunnel_limit", "tunnel", l2s_attr_u32(tb, L2TPSEL_A_TUNNEL_LIMIT, 0));
	if (tb[L2TPSEL_A_N_TUNNELS]) {
		pr_u64("tunnels", " tunnels %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_N_TUNNELS, 0));
		pr_u64("tunnel_groups", " tunnel-groups %" PRIu64,
		       l2s_attr_u32(tb, L2TPSEL_A_N_TGROUPS, 0));
		pr_u64("slgs", " slgs %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_N_SLGS, 0));
		pr_u64("clients", " clients %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_N_CLIENTS, 0));
	}
	pr_u64("sessions", " sessions %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_COUNT, 0));
	pr_close_obj();
	pr_text("\n");
	return MNL_CB_OK;
}

int cli_limit_show(struct cli *c, uint8_t cmd, const char *what)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	int err;

	if (cli_nl(c))
		return -1;
	nlh = l2s_nl_req(&c->nl, buf, cmd, 0);
	err = l2s_nl_talk(&c->nl, nlh, limit_show_cb, NULL);
	if (err)
		return cli_nl_err(c, what, err);
	pr_done();
	return 0;
}

static int limit_run(struct cli *c, int argc, char **argv)
{
	const char *cmd = "limit set";
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	static const uint16_t types[] = {
		L2TPSEL_A_CHASSIS_MAX, L2TPSEL_A_CHASSIS_LIMIT, L2TPSEL_A_TUNNEL_LIMIT,
	};
	unsigned int seen = 0;
	uint32_t v;
	int i;

	if (!argc || cli_matches(argv[0], "show")) {
		if (argc > 1)
			return cli_err("limit show: unexpected argument \"%s\"", argv[1]);
		return cli_limit_show(c, L2TPSEL_CMD_LIMIT_GET, "limit show");
	}
	if (!cli_matches(argv[0], "set"))
		return cli_err("limit: command \"%s\" is unknown, try \"l2tpsel limit help\"", argv[0]);
	if (argc == 1)
		return cli_err("limit set: nothing to set; give chassis-max, chassis or tunnel");
	if (cli_nl(c))
		return -1;
	nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_LIMIT_SET, 0);
	for (NEXT_ARG_FWD(); argc > 0; NEXT_ARG_FWD()) {
		if (!strcmp(*argv, "chassis-max"))
			i = 0;
		else if (cli_matches(*argv, "chassis"))
			i = 1;
		else if (cli_matches(*argv, "tunnel"))
			i = 2;
		else
			return cli_err("limit set: \"%s\" is unknown, try \"l2tpsel limit help\"", *argv);
		if (seen & (1u << i))
			return duparg(cmd, *argv);
		seen |= 1u << i;
		NEXT_ARG(cmd, "a number");
		if (cli_parse_u32(argv[-1], *argv, &v))
			return -1;
		mnl_attr_put_u32(nlh, types[i], v);
	}
	return cli_request(c, nlh, NULL, cmd);
}

const struct cli_object cli_obj_limit = { "limit", limit_run, limit_usage };
