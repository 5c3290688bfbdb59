// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpsel lockout | clear: the lockout of destinations that do not answer
 * (SPEC §3): its time, the bound on logins in progress, a lockout by hand,
 * and "clear lockout", which ends lockouts.  "lockout time" and "clear
 * lockout" are lines of the batch grammar.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/l2tpsel.h>

#include "cli.h"
#include "print.h"

static void lockout_usage(void)
{
	printf("Usage: l2tpsel lockout time SECS\n"
	       "       l2tpsel lockout max-logins N\n"
	       "       l2tpsel lockout dest ADDR [ port PORT ] [ local ADDR ] remaining SECS\n"
	       "       l2tpsel lockout show\n"
	       "       l2tpsel clear lockout [ local ADDR | remote ADDR ]\n"
	       "SECS := 1..86400 (default 300);  N := 1..65536 logins in progress (default 4096)\n"
	       "lockout dest: lock destinations out by hand for SECS (0..86400, 0 unlocks),\n"
	       "      e.g. an LNS going into maintenance; not counted as a failure\n");
}

static int lockout_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];

	l2s_attr_parse(nlh, tb);
	pr_open_obj(NULL);
	pr_u64("time", "time %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_LOCKOUT_TIME, 0));
	pr_u64("locked", " locked %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_N_LOCKED, 0));
	pr_u64("logins", " logins %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_N_LOGINS, 0));
	pr_u64("max_logins", " max-logins %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_MAX_LOGINS, 0));
	pr_close_obj();
	pr_text("\n");
	return MNL_CB_OK;
}

static int clear_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];

	l2s_attr_parse(nlh, tb);
	pr_reset();
	pr_open_obj(NULL);
	pr_u64("cleared", "cleared %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_N_LOCKED, 0));
	pr_close_obj();
	pr_text("\n");
	pr_done();
	return MNL_CB_OK;
}

/* "lockout time SECS" (a CLI command, or a batch line) and "clear lockout ...". */
static int lockout_apply(struct cli *c, const struct conf_cmd *k)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	switch (k->kind) {
	case CONF_LOCKOUT_TIME:
		nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_LOCKOUT_SET, 0);
		mnl_attr_put_u32(nlh, L2TPSEL_A_LOCKOUT_TIME, k->secs);
		return cli_request(c, nlh, NULL, "lockout time");
	case CONF_CLEAR_LOCKOUT:
		nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_LOCKOUT_CLEAR, 0);
		if (k->has_local)
			cli_put_addr(nlh, L2TPSEL_A_LOCAL, &k->local);
		if (k->has_remote)
			cli_put_addr(nlh, L2TPSEL_A_REMOTE, &k->remote);
		return cli_request(c, nlh, clear_cb, "clear lockout");
	default:
		return cli_err("unknown configuration command");
	}
}

/* lockout dest ADDR [ port PORT ] [ local ADDR ] remaining SECS */
static int lockout_dest(struct cli *c, int argc, char **argv)
{
	const char *cmd = "lockout dest";
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct l2s_addr remote, local;
	bool has_port = false, has_local = false, has_secs = false;
	uint32_t port = 0, secs = 0;
	struct nlmsghdr *nlh;

	if (argc < 2 || conf_parse_addr(argv[1], &remote))
		return cli_err("lockout dest: ADDR (IPv4 or IPv6) required");
	argc -= 2;
	argv += 2;
	while (argc > 0) {
		if (!strcmp(*argv, "port")) {
			if (has_port)
				return duparg(cmd, *argv);
			NEXT_ARG(cmd, "a UDP port");
			if (cli_parse_u32("port", *argv, &port))
				return -1;
			if (!port || port > 65535)
				return cli_err("lockout dest: port %u: 1..65535", port);
			has_port = true;
		} else if (!strcmp(*argv, "local")) {
			if (has_local)
				return duparg(cmd, *argv);
			NEXT_ARG(cmd, "an address");
			if (conf_parse_addr(*argv, &local))
				return cli_err("lockout dest: local \"%s\" is not an address", *argv);
			has_local = true;
		} else if (!strcmp(*argv, "remaining")) {
			if (has_secs)
				return duparg(cmd, *argv);
			NEXT_ARG(cmd, "seconds");
			if (cli_parse_u32("remaining", *argv, &secs))
				return -1;
			if (secs > 86400)
				return cli_err("lockout dest: remaining %u: 0..86400 seconds", secs);
			has_secs = true;
		} else {
			return cli_err("lockout dest: \"%s\" is unknown", *argv);
		}
		NEXT_ARG_FWD();
	}
	if (!has_secs)
		return cli_err("lockout dest: usage: lockout dest ADDR [ port PORT ] [ local ADDR ] remaining SECS");
	if (cli_nl(c))
		return -1;
	nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_DEST_LOCK, 0);
	cli_put_addr(nlh, L2TPSEL_A_REMOTE, &remote);
	if (has_local)
		cli_put_addr(nlh, L2TPSEL_A_LOCAL, &local);
	if (port)
		mnl_attr_put_u16(nlh, L2TPSEL_A_PORT, (uint16_t)port);
	mnl_attr_put_u32(nlh, L2TPSEL_A_LOCKOUT_REMAINING, secs * 1000);
	return cli_request(c, nlh, NULL, "lockout dest");
}

static int lockout_run(struct cli *c, int argc, char **argv)
{
	static const char *const verbs[] = { "time", NULL };
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	uint32_t n;

	if (!argc || cli_matches(argv[0], "show")) {
		if (cli_nl(c))
			return -1;
		nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_LOCKOUT_GET, 0);
		pr_reset();
		return cli_talk(c, nlh, lockout_cb, "lockout show");
	}
	if (cli_matches(argv[0], "max-logins")) {
		if (argc != 2)
			return cli_err("lockout max-logins: usage: lockout max-logins N");
		if (cli_parse_u32("max-logins", argv[1], &n) || cli_nl(c))
			return -1;
		nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_LOCKOUT_SET, 0);
		mnl_attr_put_u32(nlh, L2TPSEL_A_MAX_LOGINS, n);
		return cli_request(c, nlh, NULL, "lockout max-logins");
	}
	if (cli_matches(argv[0], "dest"))
		return lockout_dest(c, argc, argv);
	return cli_run_conf(c, "lockout", verbs, argc, argv, lockout_apply);
}

static int clear_run(struct cli *c, int argc, char **argv)
{
	static const char *const verbs[] = { "lockout", NULL };

	return cli_run_conf(c, "clear", verbs, argc, argv, lockout_apply);
}

const struct cli_object cli_obj_lockout = { "lockout", lockout_run, lockout_usage };
const struct cli_object cli_obj_clear = { "clear", clear_run, lockout_usage };
