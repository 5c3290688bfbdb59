// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpsel group: tunnel groups (type tunnel, the LNS role's limit on a
 * group of tunnels) and session-limit groups (type slg, a limit on the sum
 * of their clients' sessions), two levels of session admission (SPEC §4).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/l2tpsel.h>

#include "cli.h"
#include "print.h"

static void group_usage(void)
{
	printf("Usage: l2tpsel group { add | set } NAME [ type { tunnel | slg } ] [ limit N ]\n"
	       "       l2tpsel group del NAME [ type { tunnel | slg } ]\n"
	       "       l2tpsel group show [ type { tunnel | slg } ] [ NAME ]\n"
	       "type tunnel (the default): a tunnel group, limiting its sessions (LNS role)\n"
	       "type slg: a session-limit group, limiting the sum of its clients' sessions\n"
	       "N := 0 (no limit) | 1..chassis-max\n");
}

static int group_show_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];
	bool slg = g->cmd == L2TPSEL_CMD_SLG_GET;

	l2s_attr_parse(nlh, tb);
	pr_open_obj(NULL);
	pr_str("type", "%s", slg ? "slg" : "tunnel");
	pr_str("name", " %s", l2s_attr_str(tb, L2TPSEL_A_NAME, "?"));
	cli_print_limit("limit", "limit", l2s_attr_u32(tb, L2TPSEL_A_LIMIT, 0));
	pr_u64("sessions", " sessions %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_COUNT, 0));
	if (slg)
		pr_u64("clients", " clients %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_MEMBERS, 0));
	pr_close_obj();
	pr_text("\n");
	return MNL_CB_OK;
}

/* Both kinds, one JSON array. */
static int group_show_all(struct cli *c)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	int err;

	pr_reset();
	pr_open_arr(NULL);
	nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_TGROUP_GET, NLM_F_DUMP);
	err = l2s_nl_talk(&c->nl, nlh, group_show_cb, NULL);
	if (!err) {
		nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_SLG_GET, NLM_F_DUMP);
		err = l2s_nl_talk(&c->nl, nlh, group_show_cb, NULL);
	}
	pr_close_arr();
	if (err)
		return cli_nl_err(c, "group show", err);
	pr_done();
	return 0;
}

static const uint8_t tgroup_ops[] = {
	L2TPSEL_CMD_TGROUP_NEW, L2TPSEL_CMD_TGROUP_SET, L2TPSEL_CMD_TGROUP_DEL,
};
static const uint8_t slg_ops[] = { L2TPSEL_CMD_SLG_NEW, L2TPSEL_CMD_SLG_SET, L2TPSEL_CMD_SLG_DEL };

static int group_run(struct cli *c, int argc, char **argv)
{
	const char *cmd = "group", *verb, *name = NULL;
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	bool slg = false, has_limit = false, typed = false;
	uint32_t limit = 0;
	uint8_t op;
	int err;

	verb = cli_verb(&argc, &argv);
	for (; argc > 0; NEXT_ARG_FWD()) {
		if (!strcmp(*argv, "type")) {
			if (typed)
				return duparg(cmd, *argv);
			NEXT_ARG(cmd, "tunnel or slg");
			if (cli_matches(*argv, "tunnel"))
				slg = false;
			else if (!strcmp(*argv, "slg") || cli_matches(*argv, "session-limit"))
				slg = true;
			else
				return invarg(cmd, "type", *argv, "tunnel or slg");
			typed = true;
		} else if (!strcmp(*argv, "limit")) {
			if (cli_arg_u32(cmd, "a number", &argc, &argv, &limit, &has_limit))
				return -1;
		} else if (!name) {
			name = *argv;
		} else {
			return cli_err("group: unexpected argument \"%s\"", *argv);
		}
	}
	if (cli_nl(c))
		return -1;
	if (cli_matches(verb, "show") || cli_matches(verb, "list")) {
		if (has_limit)
			return cli_err("group show: \"limit\" is for add and set");
		if (typed || name)
			return cli_show_named(c, slg ? L2TPSEL_CMD_SLG_GET : L2TPSEL_CMD_TGROUP_GET,
					      L2TPSEL_A_NAME, name, group_show_cb, "group show");
		return group_show_all(c);
	}
	if (!name)
		return cli_err("group %s: which group? (a NAME is required)", verb);
	op = cli_edit_op(verb, slg ? slg_ops : tgroup_ops);
	if (!op)
		return cli_err("group: command \"%s\" is unknown, try \"l2tpsel group help\"", verb);
	if (has_limit && op == (slg ? L2TPSEL_CMD_SLG_DEL : L2TPSEL_CMD_TGROUP_DEL))
		return cli_err("group del: \"limit\" is for add and set");
	nlh = l2s_nl_req(&c->nl, buf, op, 0);
	mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, name);
	if (has_limit)
		mnl_attr_put_u32(nlh, L2TPSEL_A_LIMIT, limit);
	err = cli_request(c, nlh, NULL, "group");
	if (err != -EEXIST)
		return err;
	/* A batch's add of a group that exists: its limit as the line says (none: 0). */
	nlh = l2s_nl_req(&c->nl, buf, slg ? L2TPSEL_CMD_SLG_SET : L2TPSEL_CMD_TGROUP_SET, 0);
	mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, name);
	mnl_attr_put_u32(nlh, L2TPSEL_A_LIMIT, limit);
	return cli_request(c, nlh, NULL, "group set");
}

const struct cli_object cli_obj_group = { "group", group_run, group_usage };
