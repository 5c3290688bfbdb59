// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpsel session: the sessions the kernel counts, and SESSION_UP/DOWN by
 * hand (what l2tpseld reports; by hand for tests), admitted at the five
 * levels of SPEC §4.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/l2tpsel.h>

#include "cli.h"
#include "print.h"

static void session_usage(void)
{
	printf("Usage: l2tpsel session show\n"
	       "       l2tpsel session up key KEY role { lac | lns } tunnel-id ID\n"
	       "                          [ group TUNNEL-GROUP ] [ client HOST-NAME ]\n"
	       "       l2tpsel session down key KEY\n"
	       "up and down are what l2tpseld reports; by hand they are for tests.\n");
}

static int session_show_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];
	const char *s;

	l2s_attr_parse(nlh, tb);
	pr_open_obj(NULL);
	pr_u64("key", "key %" PRIu64, l2s_attr_u64(tb, L2TPSEL_A_SESSION_KEY, 0));
	pr_str("role", " role %s",
	       l2s_attr_u8(tb, L2TPSEL_A_ROLE, 0) == L2TPSEL_ROLE_LNS ? "lns" : "lac");
	pr_u64("tunnel_id", " tunnel-id %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_TUNNEL_ID, 0));
	s = l2s_attr_str(tb, L2TPSEL_A_TGROUP, NULL);
	if (s)
		pr_str("group", " group %s", s);
	s = l2s_attr_str(tb, L2TPSEL_A_CLIENT, NULL);
	if (s)
		pr_str("client", " client %s", s);
	pr_close_obj();
	pr_text("\n");
	return MNL_CB_OK;
}

static int session_up_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];
	unsigned int admit;

	l2s_attr_parse(nlh, tb);
	admit = l2s_attr_u8(tb, L2TPSEL_A_ADMIT, L2TPSEL_LEVEL_PASS);
	*(unsigned int *)data = admit;
	pr_open_obj(NULL);
	pr_str("admit", "admit %s", admit == L2TPSEL_LEVEL_PASS ? "pass" : "reject");
	if (admit != L2TPSEL_LEVEL_PASS) {
		pr_str("level", " level %s", cli_level_name(admit));
		if (tb[L2TPSEL_A_RESULT_CODE])
			pr_u64("result_code", " cdn %" PRIu64,
			       l2s_attr_u16(tb, L2TPSEL_A_RESULT_CODE, 0));
		if (tb[L2TPSEL_A_ERROR_CODE])
			pr_u64("error_code", "/%" PRIu64,
			       l2s_attr_u16(tb, L2TPSEL_A_ERROR_CODE, 0));
	}
	pr_close_obj();
	pr_text("\n");
	return MNL_CB_OK;
}

/* The words of "session up" and "session down" into @nlh. */
static int session_args(struct nlmsghdr *nlh, bool up, int argc, char **argv)
{
	const char *cmd = up ? "session up" : "session down";
	bool has_key = false, has_role = false, has_tid = false, has_group = false;
	bool has_client = false;
	uint64_t key = 0;
	uint32_t tid = 0;

	for (; argc > 0; NEXT_ARG_FWD()) {
		if (!strcmp(*argv, "key")) {
			if (has_key)
				return duparg(cmd, *argv);
			NEXT_ARG(cmd, "a session key");
			if (cli_parse_u64("key", *argv, &key))
				return -1;
			mnl_attr_put_u64(nlh, L2TPSEL_A_SESSION_KEY, key);
			has_key = true;
		} else if (up && !strcmp(*argv, "role")) {
			if (has_role)
				return duparg(cmd, *argv);
			NEXT_ARG(cmd, "lac or lns");
			if (strcmp(*argv, "lac") && strcmp(*argv, "lns"))
				return invarg(cmd, "role", *argv, "lac or lns");
			mnl_attr_put_u8(nlh, L2TPSEL_A_ROLE,
					strcmp(*argv, "lns") ? L2TPSEL_ROLE_LAC : L2TPSEL_ROLE_LNS);
			has_role = true;
		} else if (up && !strcmp(*argv, "tunnel-id")) {
			if (has_tid)
				return duparg(cmd, *argv);
			NEXT_ARG(cmd, "an L2TP tunnel id");
			if (cli_parse_u32("tunnel-id", *argv, &tid))
				return -1;
			mnl_attr_put_u32(nlh, L2TPSEL_A_TUNNEL_ID, tid);
			has_tid = true;
		} else if (up && !strcmp(*argv, "group")) {
			if (has_group)
				return duparg(cmd, *argv);
			NEXT_ARG(cmd, "a tunnel group");
			mnl_attr_put_strz(nlh, L2TPSEL_A_TGROUP, *argv);
			has_group = true;
		} else if (up && !strcmp(*argv, "client")) {
			if (has_client)
				return duparg(cmd, *argv);
			NEXT_ARG(cmd, "the client's host name");
			mnl_attr_put_strz(nlh, L2TPSEL_A_CLIENT, *argv);
			has_client = true;
		} else {
			return cli_err("%s: \"%s\" is unknown, try \"l2tpsel session help\"",
				       cmd, *argv);
		}
	}
	if (!has_key)
		return cli_err("%s: \"key KEY\" is required", cmd);
	if (up && (!has_role || !has_tid))
		return cli_err("session up: \"role\" and \"tunnel-id\" are required");
	return 0;
}

static int session_run(struct cli *c, int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	const char *verb = argc ? argv[0] : "show";
	unsigned int admit = L2TPSEL_LEVEL_PASS;
	struct nlmsghdr *nlh;
	bool up;
	int err;

	if (cli_matches(verb, "show") || cli_matches(verb, "list")) {
		if (argc > 1)
			return cli_err("session show: unexpected argument \"%s\"", argv[1]);
		return cli_nl(c) ?: cli_show_named(c, L2TPSEL_CMD_SESSION_GET, 0, NULL,
						   session_show_cb, "session show");
	}
	if (cli_matches(verb, "up"))
		up = true;
	else if (cli_matches(verb, "down"))
		up = false;
	else
		return cli_err("session: command \"%s\" is unknown, try \"l2tpsel session help\"", verb);
	if (cli_nl(c))
		return -1;
	nlh = l2s_nl_req(&c->nl, buf, up ? L2TPSEL_CMD_SESSION_UP : L2TPSEL_CMD_SESSION_DOWN, 0);
	/* By hand: a session of no socket, so that it outlives this command. */
	if (up)
		mnl_attr_put(nlh, L2TPSEL_A_DETACHED, 0, NULL);
	if (session_args(nlh, up, argc - 1, argv + 1))
		return -1;
	if (!up)
		return cli_request(c, nlh, NULL, "session down");
	err = l2s_nl_talk(&c->nl, nlh, session_up_cb, &admit);
	if (err)
		return cli_nl_err(c, "session up", err);
	pr_done();
	/* A refusal is an answer, not an error: exit 2 so scripts can tell. */
	return admit == L2TPSEL_LEVEL_PASS ? 0 : 2;
}

const struct cli_object cli_obj_session = { "session", session_run, session_usage };
