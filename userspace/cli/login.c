// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpsel login: a login's walk over the candidates (SPEC §3) asked of the
 * kernel directly: the dry run (test), a login held by this process (begin,
 * report) and the cost of a decision (bench).  start, stop, show and stats
 * go through the l2tpseld agent (agent.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <linux/genetlink.h>
#include <linux/l2tpsel.h>

#include "cli.h"
#include "print.h"
#include "why.h"

/* The login this process began last: "login report last ..." in a batch. */
static uint32_t last_login;
static uint64_t report_key;	/* the session a "login report ... ok" counts */

static void login_usage(void)
{
	printf("Usage: l2tpsel login test { USER | profile PROFILE } [ profile PROFILE ] [ key KEY ]\n"
	       "       l2tpsel login begin { USER | profile PROFILE } [ profile PROFILE ] [ key KEY ]\n"
	       "                           [ pick TUNNEL ]...\n"
	       "       l2tpsel login report { ID | last } OUTCOME\n"
	       "       l2tpsel login bench COUNT { USER | profile PROFILE }\n"
	       "       l2tpsel login start { USER | profile PROFILE } [ profile PROFILE ] [ key KEY ] [ brief ]\n"
	       "                           [ socket PATH ]\n"
	       "       l2tpsel login stop ID [ socket PATH ]\n"
	       "       l2tpsel login { show | stats | watch } [ socket PATH ]\n"
	       "       l2tpsel login drain [ tunnel NAME | destination ADDR ] [ on | off ]\n"
	       "                           [ socket PATH ]\n"
	       "USER := NAME@DOMAIN (the domain map gives the profile unless one is named)\n"
	       "OUTCOME := { ok [ session KEY ] [ tunnel-id TID ] | no-reply | cdn RESULT ERROR |\n"
	       "             stopccn RESULT ERROR | client-gone | local }\n"
	       "test: the order in which the kernel would try candidates now, every attempt\n"
	       "      assumed to fail with no reply; nothing changes (a dry run)\n"
	       "begin/report: a login held for this process (in a batch: one socket);\n"
	       "      pick pins the next random choice among candidates that include TUNNEL\n"
	       "ok: counts session KEY (default 14056563178426662912 + ID) on the tunnel,\n"
	       "      its destination, the chassis and L2TP tunnel TID (default 0), until\n"
	       "      \"session down key KEY\"; it belongs to no socket, as \"session up\"\n"
	       "bench: ns per login decision round trip (begin; report client-gone) and per\n"
	       "      nlctrl GETFAMILY of this family, on one socket\n"
	       "start/stop/show/stats/watch: through the l2tpseld agent's socket (default\n"
	       "      /run/l2tpseld.sock or $L2TPSELD_SOCKET): start prints each attempt and\n"
	       "      the outcome, exits 0 on success, 2 on failure; watch prints every\n"
	       "      login's lines (subscribers' too) until the agent goes; -j: one JSON\n"
	       "      object a line\n");
}

/*
 * "login report ID ok [ session KEY ] [ tunnel-id TID ]": the session the OK
 * counts, by default key L2S_CLI_KEY_BASE + ID on L2TP tunnel 0.
 */
#define L2S_CLI_KEY_BASE	0xc110000000000000ULL

static int login_ok_args(int argc, char **argv, uint32_t id, uint64_t *key, uint32_t *tid)
{
	const char *cmd = "login report";

	*key = L2S_CLI_KEY_BASE + id;
	*tid = 0;
	while (argc > 0) {
		if (!strcmp(*argv, "session")) {
			NEXT_ARG(cmd, "a session key");
			if (cli_parse_u64("session key", *argv, key))
				return -1;
		} else if (!strcmp(*argv, "tunnel-id")) {
			NEXT_ARG(cmd, "an L2TP tunnel id");
			if (cli_parse_u32("tunnel id", *argv, tid))
				return -1;
		} else {
			return cli_err("login report: ok takes [ session KEY ] [ tunnel-id TID ], not \"%s\"",
				       *argv);
		}
		NEXT_ARG_FWD();
	}
	return 0;
}

/* One step: "attempt tunnel T ... setup sccrq" or "done ok ..." / "done fail reason R". */
static void print_step(const struct nlattr **tb)
{
	if (l2s_attr_u8(tb, L2TPSEL_A_STEP, 0) == L2TPSEL_STEP_ATTEMPT) {
		pr_str("step", " %s", "attempt");
		pr_text(" ");
		cli_print_tunnel(tb, false);
		pr_str("setup", " setup %s",
		       l2s_attr_u8(tb, L2TPSEL_A_SETUP, 0) ? "sccrq" : "icrq");
		if (l2s_attr_u8(tb, L2TPSEL_A_SHORTEST, 0))
			pr_bool("shortest", " shortest %s", true);
		return;
	}
	pr_str("step", " %s", "done");
	if (l2s_attr_u8(tb, L2TPSEL_A_OK, 0)) {
		pr_str("result", " %s ", "ok");
		cli_print_tunnel(tb, false);
		if (report_key)
			pr_u64("session", " session %" PRIu64, report_key);
	} else {
		pr_str("result", " %s", "fail");
		pr_str("reason", " reason %s", l2s_why_name(l2s_attr_u8(tb, L2TPSEL_A_WHY, 0)));
	}
}

static int step_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];

	l2s_attr_parse(nlh, tb);
	last_login = l2s_attr_u32(tb, L2TPSEL_A_LOGIN_ID, 0);
	pr_reset();
	pr_open_obj(NULL);
	pr_u64("login", "login %" PRIu64, last_login);
	print_step(tb);
	pr_close_obj();
	pr_text("\n");
	pr_done();
	return MNL_CB_OK;
}

static int test_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1], *st[L2TPSEL_A_MAX + 1];
	const struct nlattr *e;
	unsigned int i = 0;

	l2s_attr_parse(nlh, tb);
	pr_reset();
	pr_open_obj(NULL);
	pr_open_arr("attempts");
	if (tb[L2TPSEL_A_STEPS]) {
		mnl_attr_for_each_nested(e, tb[L2TPSEL_A_STEPS]) {
			uint32_t n;

			l2s_attr_parse_nest(e, st);
			n = l2s_attr_u32(st, L2TPSEL_A_N_CANDIDATES, 0);
			pr_open_obj(NULL);
			pr_u64("n", "%" PRIu64 " ", ++i);
			cli_print_tunnel(st, false);
			pr_str("setup", " setup %s",
			       l2s_attr_u8(st, L2TPSEL_A_SETUP, 0) ? "sccrq" : "icrq");
			if (l2s_attr_u8(st, L2TPSEL_A_SHORTEST, 0))
				pr_bool("shortest", " shortest %s", true);
			pr_u64("candidates", " candidates %" PRIu64, n);
			if (n > 1)
				pr_text(" (random pick shown as the first)");
			pr_close_obj();
			pr_text("\n");
		}
	}
	pr_close_arr();
	if (pr_is_json()) {
		pr_str("result", "", l2s_attr_u8(tb, L2TPSEL_A_OK, 0) ? "ok" : "fail");
		pr_str("reason", "", l2s_why_name(l2s_attr_u8(tb, L2TPSEL_A_WHY, 0)));
	} else {
		printf("then: login fails, reason %s\n",
		       l2s_why_name(l2s_attr_u8(tb, L2TPSEL_A_WHY, 0)));
	}
	pr_close_obj();
	pr_done();
	return MNL_CB_OK;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int bench_step_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];
	unsigned int *step = data;

	l2s_attr_parse(nlh, tb);
	last_login = l2s_attr_u32(tb, L2TPSEL_A_LOGIN_ID, 0);
	*step = l2s_attr_u8(tb, L2TPSEL_A_STEP, 0);
	return MNL_CB_OK;
}

static int bench_nop_cb(const struct nlmsghdr *nlh, void *data)
{
	return MNL_CB_OK;
}

/*
 * login bench COUNT { USER | profile P }: the cost of a login decision round
 * trip (LOGIN_BEGIN, then LOGIN_REPORT client-gone, which ends it without a
 * lockout) against a bare nlctrl GETFAMILY of this family, on one socket.
 */
static int login_bench(struct cli *c, uint32_t count, const char *user, const char *profile)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	uint64_t t0, t_begin = 0, t_report = 0, t_family;
	struct nlmsghdr *nlh;
	unsigned int step;
	uint32_t i, reports = 0;
	int err;

	if (!count)
		return cli_err("login bench: COUNT must be at least 1");
	if (cli_nl(c))
		return -1;
	for (i = 0; i < count; i++) {
		nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_LOGIN_BEGIN, 0);
		if (user)
			mnl_attr_put_strz(nlh, L2TPSEL_A_USER, user);
		if (profile)
			mnl_attr_put_strz(nlh, L2TPSEL_A_PROFILE, profile);
		t0 = mono_ns();
		err = l2s_nl_talk(&c->nl, nlh, bench_step_cb, &step);
		t_begin += mono_ns() - t0;
		if (err)
			return cli_nl_err(c, "login bench", err);
		if (step != L2TPSEL_STEP_ATTEMPT)
			continue;
		nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_LOGIN_REPORT, 0);
		mnl_attr_put_u32(nlh, L2TPSEL_A_LOGIN_ID, last_login);
		mnl_attr_put_u8(nlh, L2TPSEL_A_OUTCOME, L2TPSEL_OUTCOME_CLIENT_GONE);
		t0 = mono_ns();
		err = l2s_nl_talk(&c->nl, nlh, bench_step_cb, &step);
		t_report += mono_ns() - t0;
		if (err)
			return cli_nl_err(c, "login bench", err);
		reports++;
	}
	t0 = mono_ns();
	for (i = 0; i < count; i++) {
		nlh = l2s_nl_getfamily_req(buf, ++c->nl.seq, L2TPSEL_GENL_NAME);
		err = l2s_nl_talk(&c->nl, nlh, bench_nop_cb, NULL);
		if (err)
			return cli_nl_err(c, "login bench: getfamily", err);
	}
	t_family = mono_ns() - t0;
	pr_reset();
	pr_open_obj(NULL);
	pr_u64("count", "count %" PRIu64, count);
	pr_u64("begin_ns", " begin-ns %" PRIu64, t_begin / count);
	pr_u64("report_ns", " report-ns %" PRIu64, reports ? t_report / reports : 0);
	pr_u64("getfamily_ns", " getfamily-ns %" PRIu64, t_family / count);
	pr_u64("begin_per_getfamily_pct", " begin/getfamily %" PRIu64 "%%",
	       t_family ? t_begin * 100 / t_family : 0);
	pr_close_obj();
	pr_text("\n");
	pr_done();
	return 0;
}

/* login report { ID | last } OUTCOME */
static int login_report(struct cli *c, int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	uint64_t skey = 0;
	uint32_t id, r = 0, e = 0, tid = 0;
	uint8_t out;
	int err;

	if (argc < 3)
		return cli_err("login report: usage: login report { ID | last } OUTCOME");
	if (!strcmp(argv[1], "last"))
		id = last_login;
	else if (cli_parse_u32("login id", argv[1], &id))
		return -1;
	if (cli_matches(argv[2], "ok")) {
		out = L2TPSEL_OUTCOME_OK;
		if (login_ok_args(argc - 3, argv + 3, id, &skey, &tid))
			return -1;
		argc = 3;
	} else if (cli_matches(argv[2], "no-reply") || !strcmp(argv[2], "silent")) {
		out = L2TPSEL_OUTCOME_NO_REPLY;
	} else if (cli_matches(argv[2], "client-gone")) {
		out = L2TPSEL_OUTCOME_CLIENT_GONE;
	} else if (!strcmp(argv[2], "local")) {
		out = L2TPSEL_OUTCOME_LOCAL;
	} else if (!strcmp(argv[2], "cdn") || !strcmp(argv[2], "stopccn")) {
		out = !strcmp(argv[2], "cdn") ? L2TPSEL_OUTCOME_CDN : L2TPSEL_OUTCOME_STOPCCN;
		if (argc != 5)
			return cli_err("login report: %s needs RESULT ERROR", argv[2]);
		if (cli_parse_u32("result code", argv[3], &r) ||
		    cli_parse_u32("error code", argv[4], &e))
			return -1;
		if (r > 65535 || e > 65535)
			return cli_err("login report: result and error codes are 0..65535");
	} else {
		return cli_err("login report: outcome \"%s\" is unknown", argv[2]);
	}
	if ((out == L2TPSEL_OUTCOME_CDN || out == L2TPSEL_OUTCOME_STOPCCN) ? argc != 5 : argc != 3)
		return cli_err("login report: unexpected argument");
	if (cli_nl(c))
		return -1;
	nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_LOGIN_REPORT, 0);
	mnl_attr_put_u32(nlh, L2TPSEL_A_LOGIN_ID, id);
	mnl_attr_put_u8(nlh, L2TPSEL_A_OUTCOME, out);
	if (out == L2TPSEL_OUTCOME_CDN || out == L2TPSEL_OUTCOME_STOPCCN) {
		mnl_attr_put_u16(nlh, L2TPSEL_A_RESULT_CODE, (uint16_t)r);
		mnl_attr_put_u16(nlh, L2TPSEL_A_ERROR_CODE, (uint16_t)e);
	}
	if (out == L2TPSEL_OUTCOME_OK) {
		/* a session of nobody: it outlives this command ("session down") */
		mnl_attr_put_u64(nlh, L2TPSEL_A_SESSION_KEY, skey);
		mnl_attr_put_u32(nlh, L2TPSEL_A_TUNNEL_ID, tid);
		mnl_attr_put(nlh, L2TPSEL_A_DETACHED, 0, NULL);
	}
	report_key = skey;
	err = cli_request(c, nlh, step_cb, "login report");
	report_key = 0;
	return err;
}

/* login { test | begin } { USER | profile PROFILE } [ profile P ] [ key KEY ] [ pick T ]... */
static int login_ask(struct cli *c, int argc, char **argv)
{
	bool test = cli_matches(argv[0], "test");
	const char *cmd = test ? "login test" : "login begin";
	const char *user = NULL, *profile = NULL, *key = NULL, *picks[16];
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	int npicks = 0, i;

	for (NEXT_ARG_FWD(); argc > 0; NEXT_ARG_FWD()) {
		if (!strcmp(*argv, "profile")) {
			if (profile)
				return duparg(cmd, *argv);
			NEXT_ARG(cmd, "a profile name");
			profile = *argv;
		} else if (!strcmp(*argv, "key")) {
			if (key)
				return duparg(cmd, *argv);
			NEXT_ARG(cmd, "a load-balancing key");
			key = *argv;
		} else if (!test && !strcmp(*argv, "pick")) {
			NEXT_ARG(cmd, "a tunnel name");
			if (npicks == 16)
				return cli_err("login: at most 16 picks");
			picks[npicks++] = *argv;
		} else if (!user) {
			user = *argv;
		} else {
			return cli_err("login: unexpected argument \"%s\"", *argv);
		}
	}
	if (!user && !profile)
		return cli_err("%s: give USER@DOMAIN or profile PROFILE", cmd);
	if (cli_nl(c))
		return -1;
	nlh = l2s_nl_req(&c->nl, buf, test ? L2TPSEL_CMD_LOGIN_TEST : L2TPSEL_CMD_LOGIN_BEGIN, 0);
	if (user)
		mnl_attr_put_strz(nlh, L2TPSEL_A_USER, user);
	if (profile)
		mnl_attr_put_strz(nlh, L2TPSEL_A_PROFILE, profile);
	if (key)
		mnl_attr_put_strz(nlh, L2TPSEL_A_KEY, key);
	if (npicks) {
		struct nlattr *nest = mnl_attr_nest_start(nlh, L2TPSEL_A_PICKS);

		for (i = 0; i < npicks; i++)
			mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, picks[i]);
		mnl_attr_nest_end(nlh, nest);
	}
	return cli_request(c, nlh, test ? test_cb : step_cb, cmd);
}

static int login_run(struct cli *c, int argc, char **argv)
{
	uint32_t count;

	if (!argc)
		return cli_err("login: which command? try \"l2tpsel login help\"");
	if (!strcmp(argv[0], "start") || !strcmp(argv[0], "stop") ||
	    !strcmp(argv[0], "show") || !strcmp(argv[0], "stats") || !strcmp(argv[0], "watch") ||
	    !strcmp(argv[0], "drain"))
		return agent_login_run(c, argc, argv);	/* through l2tpseld */
	if (!strcmp(argv[0], "bench")) {
		if (argc == 3 && cli_parse_u32("count", argv[1], &count) == 0)
			return login_bench(c, count, argv[2], NULL);
		if (argc == 4 && !strcmp(argv[2], "profile") &&
		    cli_parse_u32("count", argv[1], &count) == 0)
			return login_bench(c, count, NULL, argv[3]);
		return cli_err("login bench: usage: login bench COUNT { USER | profile PROFILE }");
	}
	if (cli_matches(argv[0], "report"))
		return login_report(c, argc, argv);
	if (cli_matches(argv[0], "test") || cli_matches(argv[0], "begin"))
		return login_ask(c, argc, argv);
	return cli_err("login: command \"%s\" is unknown, try \"l2tpsel login help\"", argv[0]);
}

const struct cli_object cli_obj_login = { "login", login_run, login_usage };
