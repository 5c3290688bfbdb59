// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpsel limit | group | client | session | summary: session admission
 * (SPEC §4) as the kernel holds it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/l2tpsel.h>

#include "cli.h"
#include "print.h"

static const char *const level_names[] = {
	[L2TPSEL_LEVEL_CHASSIS] = "chassis",
	[L2TPSEL_LEVEL_TUNNEL]  = "tunnel",
	[L2TPSEL_LEVEL_TGROUP]  = "tunnel-group",
	[L2TPSEL_LEVEL_SLG]     = "slg",
	[L2TPSEL_LEVEL_CLIENT]  = "client",
	[L2TPSEL_LEVEL_PASS]    = "pass",
};

const char *cli_level_name(unsigned int level)
{
	return level <= L2TPSEL_LEVEL_PASS ? level_names[level] : "unknown";
}

/* "limit 0" reads as "none" in text and stays 0 in JSON. */
static void print_limit(const char *key, const char *label, uint32_t v)
{
	if (pr_is_json()) {
		pr_u64(key, "", v);
		return;
	}
	if (v)
		printf(" %s %u", label, v);
	else
		printf(" %s none", label);
}

int cli_parse_u32(const char *what, const char *s, uint32_t *v)
{
	char *end;
	unsigned long long x;

	errno = 0;
	x = strtoull(s, &end, 0);
	if (!*s || *end || errno || x > UINT32_MAX || *s == '-')
		return cli_err("%s \"%s\" is not a number in 0..%u", what, s, UINT32_MAX);
	*v = (uint32_t)x;
	return 0;
}

int cli_parse_u64(const char *what, const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	if (!*s || *end || errno || *s == '-')
		return cli_err("%s \"%s\" is not a number", what, s);
	return 0;
}

/* Send a request and print nothing but errors. */
static int simple_request(struct cli *c, struct nlmsghdr *nlh, const char *what)
{
	return cli_request(c, nlh, NULL, what);
}

/* Run a GET (with a name) or a dump (without) and print every reply with @cb. */
static int show_request(struct cli *c, uint8_t cmd, const char *name, mnl_cb_t cb,
			const char *what)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	int err;

	nlh = l2s_nl_req(&c->nl, buf, cmd, name ? 0 : NLM_F_DUMP);
	if (name)
		mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, name);
	pr_open_arr(NULL);
	err = l2s_nl_talk(&c->nl, nlh, cb, NULL);
	if (err == -EMSGSIZE && name) {
		/* Too big for one message (a client in many groups): its dump has it in parts. */
		nlh = l2s_nl_req(&c->nl, buf, cmd, NLM_F_DUMP);
		mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, name);
		err = l2s_nl_talk(&c->nl, nlh, cb, NULL);
	}
	pr_close_arr();
	if (err)
		return cli_nl_err(c, what, err);
	pr_done();
	return 0;
}

#define NEED_ARG(argc, argv, what) do {					\
	if ((argc) < 2)							\
		return cli_err("\"%s\" needs an argument (%s)", (argv)[0], what); \
} while (0)

/* ---- limit ---------------------------------------------------------- */

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
	print_limit("chassis_limit", "chassis", l2s_attr_u32(tb, L2TPSEL_A_CHASSIS_LIMIT, 0));
	print_limit("tunnel_limit", "tunnel", l2s_attr_u32(tb, L2TPSEL_A_TUNNEL_LIMIT, 0));
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

static int get_one(struct cli *c, uint8_t cmd, const char *what)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	int err;

	nlh = l2s_nl_req(&c->nl, buf, cmd, 0);
	err = l2s_nl_talk(&c->nl, nlh, limit_show_cb, NULL);
	if (err)
		return cli_nl_err(c, what, err);
	pr_done();
	return 0;
}

static int limit_run(struct cli *c, int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	uint32_t v;

	if (!argc || cli_matches(argv[0], "show")) {
		if (argc > 1)
			return cli_err("limit show: unexpected argument \"%s\"", argv[1]);
		return cli_nl(c) ?: get_one(c, L2TPSEL_CMD_LIMIT_GET, "limit show");
	}
	if (!cli_matches(argv[0], "set"))
		return cli_err("limit: command \"%s\" is unknown, try \"l2tpsel limit help\"", argv[0]);
	if (argc == 1)
		return cli_err("limit set: nothing to set; give chassis-max, chassis or tunnel");
	if (cli_nl(c))
		return -1;
	nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_LIMIT_SET, 0);
	for (argc--, argv++; argc; argc -= 2, argv += 2) {
		int type;

		if (!strcmp(argv[0], "chassis-max"))
			type = L2TPSEL_A_CHASSIS_MAX;
		else if (cli_matches(argv[0], "chassis"))
			type = L2TPSEL_A_CHASSIS_LIMIT;
		else if (cli_matches(argv[0], "tunnel"))
			type = L2TPSEL_A_TUNNEL_LIMIT;
		else
			return cli_err("limit set: \"%s\" is unknown, try \"l2tpsel limit help\"", argv[0]);
		NEED_ARG(argc, argv, "a number");
		if (cli_parse_u32(argv[0], argv[1], &v))
			return -1;
		mnl_attr_put_u32(nlh, type, v);
	}
	return simple_request(c, nlh, "limit set");
}

/* ---- group (tunnel groups and session-limit groups) ----------------- */

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
	print_limit("limit", "limit", l2s_attr_u32(tb, L2TPSEL_A_LIMIT, 0));
	pr_u64("sessions", " sessions %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_COUNT, 0));
	if (slg)
		pr_u64("clients", " clients %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_MEMBERS, 0));
	pr_close_obj();
	pr_text("\n");
	return MNL_CB_OK;
}

static int group_run(struct cli *c, int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	const char *verb, *name = NULL;
	struct nlmsghdr *nlh;
	bool slg = false, has_limit = false, typed = false;
	uint32_t limit = 0;
	uint8_t cmd;
	int err;

	verb = argc ? argv[0] : "show";
	if (argc) {
		argc--;
		argv++;
	}
	for (; argc; argc--, argv++) {
		if (!strcmp(argv[0], "type")) {
			NEED_ARG(argc, argv, "tunnel or slg");
			if (cli_matches(argv[1], "tunnel"))
				slg = false;
			else if (!strcmp(argv[1], "slg") || cli_matches(argv[1], "session-limit"))
				slg = true;
			else
				return cli_err("group: type \"%s\" is unknown: tunnel or slg", argv[1]);
			typed = true;
			argc--, argv++;
		} else if (!strcmp(argv[0], "limit")) {
			NEED_ARG(argc, argv, "a number");
			if (cli_parse_u32("limit", argv[1], &limit))
				return -1;
			has_limit = true;
			argc--, argv++;
		} else if (!name) {
			name = argv[0];
		} else {
			return cli_err("group: unexpected argument \"%s\"", argv[0]);
		}
	}
	if (cli_nl(c))
		return -1;
	if (cli_matches(verb, "show") || cli_matches(verb, "list")) {
		if (has_limit)
			return cli_err("group show: \"limit\" is for add and set");
		if (typed || name)
			return show_request(c, slg ? L2TPSEL_CMD_SLG_GET : L2TPSEL_CMD_TGROUP_GET,
					    name, group_show_cb, "group show");
		/* Both kinds, one JSON array. */
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
	if (!name)
		return cli_err("group %s: which group? (a NAME is required)", verb);
	if (cli_matches(verb, "add"))
		cmd = slg ? L2TPSEL_CMD_SLG_NEW : L2TPSEL_CMD_TGROUP_NEW;
	else if (cli_matches(verb, "set") || cli_matches(verb, "change"))
		cmd = slg ? L2TPSEL_CMD_SLG_SET : L2TPSEL_CMD_TGROUP_SET;
	else if (cli_matches(verb, "delete"))
		cmd = slg ? L2TPSEL_CMD_SLG_DEL : L2TPSEL_CMD_TGROUP_DEL;
	else
		return cli_err("group: command \"%s\" is unknown, try \"l2tpsel group help\"", verb);
	if (has_limit && cmd == (slg ? L2TPSEL_CMD_SLG_DEL : L2TPSEL_CMD_TGROUP_DEL))
		return cli_err("group del: \"limit\" is for add and set");
	nlh = l2s_nl_req(&c->nl, buf, cmd, 0);
	mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, name);
	if (has_limit)
		mnl_attr_put_u32(nlh, L2TPSEL_A_LIMIT, limit);
	err = simple_request(c, nlh, "group");
	if (err != -EEXIST)
		return err;
	/* A batch's add of a group that exists: its limit as the line says (none: 0). */
	nlh = l2s_nl_req(&c->nl, buf, slg ? L2TPSEL_CMD_SLG_SET : L2TPSEL_CMD_TGROUP_SET, 0);
	mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, name);
	mnl_attr_put_u32(nlh, L2TPSEL_A_LIMIT, limit);
	return simple_request(c, nlh, "group set");
}

/* ---- client --------------------------------------------------------- */

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
		print_limit("limit", "limit", l2s_attr_u32(tb, L2TPSEL_A_LIMIT, 0));
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

static int client_run(struct cli *c, int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	const char *verb, *name = NULL, *slg = NULL;
	struct nlmsghdr *nlh;
	bool has_limit = false;
	uint32_t limit = 0;
	uint8_t cmd;
	int err;

	verb = argc ? argv[0] : "show";
	if (argc) {
		argc--;
		argv++;
	}
	for (; argc; argc--, argv++) {
		if (!strcmp(argv[0], "limit")) {
			NEED_ARG(argc, argv, "a number");
			if (cli_parse_u32("limit", argv[1], &limit))
				return -1;
			has_limit = true;
			argc--, argv++;
		} else if (!strcmp(argv[0], "slg")) {
			NEED_ARG(argc, argv, "a session-limit group or none");
			slg = strcmp(argv[1], "none") ? argv[1] : "";
			argc--, argv++;
		} else if (!name) {
			name = argv[0];
		} else {
			return cli_err("client: unexpected argument \"%s\"", argv[0]);
		}
	}
	if (cli_nl(c))
		return -1;
	if (cli_matches(verb, "show") || cli_matches(verb, "list"))
	{
		client_continues = false;
		return show_request(c, L2TPSEL_CMD_CLIENT_GET, name, client_show_cb, "client show");
	}
	if (!name)
		return cli_err("client %s: which client? (a NAME is required)", verb);
	if (cli_matches(verb, "add"))
		cmd = L2TPSEL_CMD_CLIENT_NEW;
	else if (cli_matches(verb, "set") || cli_matches(verb, "change"))
		cmd = L2TPSEL_CMD_CLIENT_SET;
	else if (cli_matches(verb, "delete"))
		cmd = L2TPSEL_CMD_CLIENT_DEL;
	else
		return cli_err("client: command \"%s\" is unknown, try \"l2tpsel client help\"", verb);
	if (cmd == L2TPSEL_CMD_CLIENT_DEL && (has_limit || slg))
		return cli_err("client del: takes only the NAME");
	nlh = l2s_nl_req(&c->nl, buf, cmd, 0);
	mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, name);
	if (has_limit)
		mnl_attr_put_u32(nlh, L2TPSEL_A_LIMIT, limit);
	if (slg)
		mnl_attr_put_strz(nlh, L2TPSEL_A_SLG, slg);
	err = simple_request(c, nlh, "client");
	if (err != -EEXIST)
		return err;
	/* A batch's add of a client that exists: limit and group as the line says. */
	nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_CLIENT_SET, 0);
	mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, name);
	mnl_attr_put_u32(nlh, L2TPSEL_A_LIMIT, limit);
	mnl_attr_put_strz(nlh, L2TPSEL_A_SLG, slg ?: "");
	return simple_request(c, nlh, "client set");
}

/* ---- session (what the agent reports; by hand for tests) ------------ */

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

static int session_run(struct cli *c, int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	const char *verb = argc ? argv[0] : "show";
	struct nlmsghdr *nlh;
	bool up, has_key = false, has_role = false, has_tid = false;
	unsigned int admit = L2TPSEL_LEVEL_PASS;
	uint64_t key = 0;
	uint32_t tid = 0;
	int err;

	if (cli_matches(verb, "show") || cli_matches(verb, "list")) {
		if (argc > 1)
			return cli_err("session show: unexpected argument \"%s\"", argv[1]);
		if (cli_nl(c))
			return -1;
		nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_SESSION_GET, NLM_F_DUMP);
		pr_open_arr(NULL);
		err = l2s_nl_talk(&c->nl, nlh, session_show_cb, NULL);
		pr_close_arr();
		if (err)
			return cli_nl_err(c, "session show", err);
		pr_done();
		return 0;
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
	for (argc--, argv++; argc; argc -= 2, argv += 2) {
		NEED_ARG(argc, argv, "a value");
		if (!strcmp(argv[0], "key")) {
			if (cli_parse_u64("key", argv[1], &key))
				return -1;
			mnl_attr_put_u64(nlh, L2TPSEL_A_SESSION_KEY, key);
			has_key = true;
		} else if (up && !strcmp(argv[0], "role")) {
			if (strcmp(argv[1], "lac") && strcmp(argv[1], "lns"))
				return cli_err("session up: role \"%s\" is unknown: lac or lns", argv[1]);
			mnl_attr_put_u8(nlh, L2TPSEL_A_ROLE,
					strcmp(argv[1], "lns") ? L2TPSEL_ROLE_LAC : L2TPSEL_ROLE_LNS);
			has_role = true;
		} else if (up && !strcmp(argv[0], "tunnel-id")) {
			if (cli_parse_u32("tunnel-id", argv[1], &tid))
				return -1;
			mnl_attr_put_u32(nlh, L2TPSEL_A_TUNNEL_ID, tid);
			has_tid = true;
		} else if (up && !strcmp(argv[0], "group")) {
			mnl_attr_put_strz(nlh, L2TPSEL_A_TGROUP, argv[1]);
		} else if (up && !strcmp(argv[0], "client")) {
			mnl_attr_put_strz(nlh, L2TPSEL_A_CLIENT, argv[1]);
		} else {
			return cli_err("session %s: \"%s\" is unknown, try \"l2tpsel session help\"",
				       verb, argv[0]);
		}
	}
	if (!has_key)
		return cli_err("session %s: \"key KEY\" is required", verb);
	if (!up)
		return simple_request(c, nlh, "session down");
	if (!has_role || !has_tid)
		return cli_err("session up: \"role\" and \"tunnel-id\" are required");
	err = l2s_nl_talk(&c->nl, nlh, session_up_cb, &admit);
	if (err)
		return cli_nl_err(c, "session up", err);
	pr_done();
	/* A refusal is an answer, not an error: exit 2 so scripts can tell. */
	return admit == L2TPSEL_LEVEL_PASS ? 0 : 2;
}

/* ---- summary -------------------------------------------------------- */

static void summary_usage(void)
{
	printf("Usage: l2tpsel summary [ show ]\n");
}

static int summary_run(struct cli *c, int argc, char **argv)
{
	if (argc && !cli_matches(argv[0], "show"))
		return cli_err("summary: command \"%s\" is unknown, try \"l2tpsel summary help\"", argv[0]);
	return cli_nl(c) ?: get_one(c, L2TPSEL_CMD_SUMMARY_GET, "summary");
}

const struct cli_object cli_obj_limit = { "limit", limit_run, limit_usage };
const struct cli_object cli_obj_group = { "group", group_run, group_usage };
const struct cli_object cli_obj_client = { "client", client_run, client_usage };
const struct cli_object cli_obj_session = { "session", session_run, session_usage };
const struct cli_object cli_obj_summary = { "summary", summary_run, summary_usage };
