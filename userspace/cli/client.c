// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpsel client: the LNS role's clients (a peer's Host Name), their limit
 * in each tunnel group and their session-limit group (SPEC §4).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/l2tpsel.h>

#include "cli.h"
#include "print.h"

static void client_usage(void)
{
	printf("Usage: l2tpsel client { add | set } NAME [ limit N ] [ slg { GROUP | none } ]\n"
	       "       l2tpsel client del NAME\n"
	       "       l2tpsel client show [ NAME ]\n"
	       "NAME: the peer's Host Name; the limit applies in each tunnel group separately\n");
}

/*
 * A client in many tunnel groups comes in several entries, each but the
 * last with MORE; the next one carries only NAME and more counts.  They are
 * printed as one client.
 */
static bool client_continues;

static int client_show_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1], *in[L2TPSEL_A_MAX + 1];
	const struct nlattr *a;

	l2s_attr_parse(nlh, tb);
	if (!client_continues) {
		pr_open_obj(NULL);
		pr_str("name", "client %s", l2s_attr_str(tb, L2TPSEL_A_NAME, "?"));
		cli_print_limit("limit", "limit", l2s_attr_u32(tb, L2TPSEL_A_LIMIT, 0));
		pr_str("slg", " slg %s",
		       l2s_attr_str(tb, L2TPSEL_A_SLG, NULL) ?: (pr_is_json() ? "" : "none"));
		pr_u64("sessions", " sessions %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_COUNT, 0));
		pr_open_arr("tunnel_groups");
	}
	if (tb[L2TPSEL_A_TGROUP_COUNTS]) {
		mnl_attr_for_each_nested(a, tb[L2TPSEL_A_TGROUP_COUNTS]) {
			const char *tg;

			l2s_attr_parse_nest(a, in);
			tg = l2s_attr_str(in, L2TPSEL_A_NAME, NULL);
			pr_open_obj(NULL);
			pr_str("group", " [%s", tg ?: (pr_is_json() ? "" : "-"));
			pr_u64("sessions", " %" PRIu64 "]", l2s_attr_u32(in, L2TPSEL_A_COUNT, 0));
			pr_close_obj();
		}
	}
	client_continues = l2s_attr_flag(tb, L2TPSEL_A_MORE);
	if (client_continues)
		return MNL_CB_OK;
	pr_close_arr();
	pr_close_obj();
	pr_text("\n");
	return MNL_CB_OK;
}

static const uint8_t client_ops[] = {
	L2TPSEL_CMD_CLIENT_NEW, L2TPSEL_CMD_CLIENT_SET, L2TPSEL_CMD_CLIENT_DEL,
};

static int client_run(struct cli *c, int argc, char **argv)
{
	const char *cmd = "client", *verb, *name = NULL, *slg = NULL;
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	bool has_limit = false;
	uint32_t limit = 0;
	uint8_t op;
	int err;

	verb = cli_verb(&argc, &argv);
	for (; argc > 0; NEXT_ARG_FWD()) {
		if (!strcmp(*argv, "limit")) {
			if (cli_arg_u32(cmd, "a number", &argc, &argv, &limit, &has_limit))
				return -1;
		} else if (!strcmp(*argv, "slg")) {
			if (slg)
				return duparg(cmd, *argv);
			NEXT_ARG(cmd, "a session-limit group or none");
			slg = strcmp(*argv, "none") ? *argv : "";
		} else if (!name) {
			name = *argv;
		} else {
			return cli_err("client: unexpected argument \"%s\"", *argv);
		}
	}
	if (cli_nl(c))
		return -1;
	if (cli_matches(verb, "show") || cli_matches(verb, "list")) {
		client_continues = false;
		return cli_show_named(c, L2TPSEL_CMD_CLIENT_GET, L2TPSEL_A_NAME, name,
				      client_show_cb, "client show");
	}
	if (!name)
		return cli_err("client %s: which client? (a NAME is required)", verb);
	op = cli_edit_op(verb, client_ops);
	if (!op)
		return cli_err("client: command \"%s\" is unknown, try \"l2tpsel client help\"", verb);
	if (op == L2TPSEL_CMD_CLIENT_DEL && (has_limit || slg))
		return cli_err("client del: takes only the NAME");
	nlh = l2s_nl_req(&c->nl, buf, op, 0);
	mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, name);
	if (has_limit)
		mnl_attr_put_u32(nlh, L2TPSEL_A_LIMIT, limit);
	if (slg)
		mnl_attr_put_strz(nlh, L2TPSEL_A_SLG, slg);
	err = cli_request(c, nlh, NULL, "client");
	if (err != -EEXIST)
		return err;
	/* A batch's add of a client that exists: limit and group as the line says. */
	nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_CLIENT_SET, 0);
	mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, name);
	mnl_attr_put_u32(nlh, L2TPSEL_A_LIMIT, limit);
	mnl_attr_put_strz(nlh, L2TPSEL_A_SLG, slg ?: "");
	return cli_request(c, nlh, NULL, "client set");
}

const struct cli_object cli_obj_client = { "client", client_run, client_usage };
