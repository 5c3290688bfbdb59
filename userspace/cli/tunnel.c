// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpsel tunnel: the tunnels of a profile, each to one LNS (SPEC §1).
 * add and del are lines of the batch grammar (userspace/lib/conf.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/l2tpsel.h>

#include "cli.h"
#include "print.h"

static void tunnel_usage(void)
{
	printf("Usage: l2tpsel tunnel add NAME profile PROFILE level LEVEL dest ADDR [ port PORT ]\n"
	       "               [ local ADDR ] [ max-sessions N ] [ group GROUP ] [ secret SECRET ]\n"
	       "       l2tpsel tunnel del NAME profile PROFILE\n"
	       "       l2tpsel tunnel drain NAME profile PROFILE [ on | off ]\n"
	       "       l2tpsel tunnel show [ profile PROFILE ]\n"
	       "LEVEL := 0..7 (0 most preferred);  N := 0 (unlimited) | 1..16777215\n"
	       "ADDR := IPv4 or IPv6 address;  the secret is never shown\n"
	       "drain: no new login through the tunnel, its sessions stay (show: draining\n"
	       "while it has sessions, then drained)\n");
}

void cli_print_tunnel(const struct nlattr **tb, bool full)
{
	char rbuf[64], lbuf[64];
	const char *remote, *local;

	remote = cli_addr_text(tb, L2TPSEL_A_REMOTE, rbuf, sizeof(rbuf), "");
	local = cli_addr_text(tb, L2TPSEL_A_LOCAL, lbuf, sizeof(lbuf), "");
	pr_str("tunnel", "%s", l2s_attr_str(tb, L2TPSEL_A_NAME, "?"));
	pr_str("profile", " profile %s", l2s_attr_str(tb, L2TPSEL_A_PROFILE, "?"));
	pr_u64("level", " level %" PRIu64, l2s_attr_u8(tb, L2TPSEL_A_SEL_LEVEL, 0));
	pr_str("dest", " dest %s", remote);
	pr_u64("port", " port %" PRIu64, l2s_attr_u16(tb, L2TPSEL_A_PORT, 0));
	if (local[0])
		pr_str("local", " local %s", local);
	if (!full)
		return;
	pr_u64("max_sessions", " max-sessions %" PRIu64,
	       l2s_attr_u32(tb, L2TPSEL_A_MAX_SESSIONS, 0));
	if (l2s_attr_str(tb, L2TPSEL_A_TGROUP, NULL))
		pr_str("group", " group %s", l2s_attr_str(tb, L2TPSEL_A_TGROUP, NULL));
	pr_u64("sessions", " sessions %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_SESSIONS, 0));
	pr_u64("in_flight", " in-flight %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_IN_FLIGHT, 0));
	pr_bool("secret", " secret %s", l2s_attr_u8(tb, L2TPSEL_A_HAS_SECRET, 0));
	cli_print_drain(tb);
}

/*
 * S-OPS-1: a drained tunnel or destination shows "drain draining" while
 * it has sessions or logins in flight, then "drain drained", and what
 * drains it; nothing when it is not drained.
 */
void cli_print_drain(const struct nlattr **tb)
{
	uint8_t by = l2s_attr_u8(tb, L2TPSEL_A_DRAIN, 0);
	uint64_t load = (uint64_t)l2s_attr_u32(tb, L2TPSEL_A_SESSIONS, 0) +
			l2s_attr_u32(tb, L2TPSEL_A_IN_FLIGHT, 0);

	if (!by)
		return;
	pr_str("drain", " drain %s", load ? "draining" : "drained");
	pr_str("drained_by", " drained-by %s",
	       by == (L2TPSEL_DRAIN_TUNNEL | L2TPSEL_DRAIN_DEST) ? "tunnel,destination" :
	       by == L2TPSEL_DRAIN_TUNNEL ? "tunnel" : "destination");
}

/* tunnel drain NAME profile PROFILE [ on | off ] (S-OPS-1) */
static int tunnel_drain(struct cli *c, int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	int on;

	if ((argc != 4 && argc != 5) || strcmp(argv[2], "profile"))
		return cli_err("tunnel drain: usage: tunnel drain NAME profile PROFILE [ on | off ]");
	on = argc == 4 || !strcmp(argv[4], "on");
	if (argc == 5 && strcmp(argv[4], "on") && strcmp(argv[4], "off"))
		return cli_err("tunnel drain: \"%s\": on or off", argv[4]);
	if (cli_nl(c))
		return -1;
	nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_TUNNEL_DRAIN, 0);
	mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, argv[1]);
	mnl_attr_put_strz(nlh, L2TPSEL_A_PROFILE, argv[3]);
	mnl_attr_put_u8(nlh, L2TPSEL_A_DRAIN, (uint8_t)on);
	return cli_request(c, nlh, NULL, "tunnel drain");
}

static int tunnel_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];

	l2s_attr_parse(nlh, tb);
	pr_open_obj(NULL);
	cli_print_tunnel(tb, true);
	pr_close_obj();
	pr_text("\n");
	return MNL_CB_OK;
}

/* A tunnel as the kernel has it, for a batch's "tunnel add" of one that exists. */
struct tunnel_now {
	const char *name;
	bool found;
	unsigned int level, port;
	uint32_t max_sessions, sessions;
	struct l2s_addr remote, local;
	char group[L2S_NAME_LEN];
};

static int tunnel_now_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];
	struct tunnel_now *t = data;
	const char *name;

	l2s_attr_parse(nlh, tb);
	name = l2s_attr_str(tb, L2TPSEL_A_NAME, NULL);
	if (!name || strcmp(name, t->name))
		return MNL_CB_OK;
	t->found = true;
	t->level = l2s_attr_u8(tb, L2TPSEL_A_SEL_LEVEL, 0);
	t->port = l2s_attr_u16(tb, L2TPSEL_A_PORT, 0);
	t->max_sessions = l2s_attr_u32(tb, L2TPSEL_A_MAX_SESSIONS, 0);
	t->sessions = l2s_attr_u32(tb, L2TPSEL_A_SESSIONS, 0);
	cli_get_addr(tb, L2TPSEL_A_REMOTE, &t->remote);
	cli_get_addr(tb, L2TPSEL_A_LOCAL, &t->local);
	snprintf(t->group, sizeof(t->group), "%s", l2s_attr_str(tb, L2TPSEL_A_TGROUP, ""));
	return MNL_CB_OK;
}

static bool addr_eq(const struct l2s_addr *a, const struct l2s_addr *b)
{
	if (a->family != 4 && a->family != 6)
		return b->family != 4 && b->family != 6;
	return a->family == b->family && !memcmp(a->bytes, b->bytes, a->family == 4 ? 4 : 16);
}

/*
 * A batch's "tunnel add" of a tunnel that exists: nothing to do when it is
 * as the line says; otherwise it is deleted and added again, which only a
 * tunnel without live sessions may be (the kernel has no tunnel set: its
 * destination is its identity).  The secret is not compared, as the kernel
 * never shows one.
 */
static int tunnel_replace(struct cli *c, const struct conf_cmd *k, struct nlmsghdr *add)
{
	struct tunnel_now t = { .name = k->name };
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	int err;

	nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_TUNNEL_GET, NLM_F_DUMP);
	mnl_attr_put_strz(nlh, L2TPSEL_A_PROFILE, k->profile);
	err = l2s_nl_talk(&c->nl, nlh, tunnel_now_cb, &t);
	if (err)
		return cli_nl_err(c, "tunnel add", err);
	if (!t.found)
		return cli_err("tunnel add: profile %s: tunnel %s exists but is not in its dump",
			       k->profile, k->name);
	if (t.level == k->level && t.port == k->dest.port && t.max_sessions == k->max_sessions &&
	    addr_eq(&t.remote, &k->dest.remote) && addr_eq(&t.local, &k->dest.local) &&
	    !strcmp(t.group, k->group))
		return 0;
	if (t.sessions) {
		fprintf(stderr, "l2tpsel: warning: tunnel add: profile %s: tunnel %s has %u live session%s: "
			"it keeps its old settings until they end (a reload never ends a session)\n",
			k->profile, k->name, t.sessions, t.sessions == 1 ? "" : "s");
		return 0;
	}
	nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_TUNNEL_DEL, 0);
	mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, k->name);
	mnl_attr_put_strz(nlh, L2TPSEL_A_PROFILE, k->profile);
	err = l2s_nl_talk(&c->nl, nlh, NULL, NULL);
	if (err)
		return cli_nl_err(c, "tunnel add: replacing the tunnel", err);
	add->nlmsg_seq = ++c->nl.seq;
	err = l2s_nl_talk(&c->nl, add, NULL, NULL);
	return err ? cli_nl_err(c, "tunnel add", err) : 0;
}

static int tunnel_apply(struct cli *c, const struct conf_cmd *k)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	int err;

	switch (k->kind) {
	case CONF_TUNNEL_ADD:
		if (k->level > 255)
			return cli_err("tunnel add: level %u out of range", k->level);
		nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_TUNNEL_NEW, 0);
		mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, k->name);
		mnl_attr_put_strz(nlh, L2TPSEL_A_PROFILE, k->profile);
		mnl_attr_put_u8(nlh, L2TPSEL_A_SEL_LEVEL, (uint8_t)k->level);
		cli_put_addr(nlh, L2TPSEL_A_REMOTE, &k->dest.remote);
		cli_put_addr(nlh, L2TPSEL_A_LOCAL, &k->dest.local);
		mnl_attr_put_u16(nlh, L2TPSEL_A_PORT, k->dest.port);
		if (k->max_sessions)
			mnl_attr_put_u32(nlh, L2TPSEL_A_MAX_SESSIONS, k->max_sessions);
		if (k->group[0])
			mnl_attr_put_strz(nlh, L2TPSEL_A_TGROUP, k->group);
		if (k->secret[0])
			mnl_attr_put_strz(nlh, L2TPSEL_A_SECRET, k->secret);
		err = cli_request(c, nlh, NULL, "tunnel add");
		return err == -EEXIST ? tunnel_replace(c, k, nlh) : err;
	case CONF_TUNNEL_DEL:
		nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_TUNNEL_DEL, 0);
		mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, k->name);
		mnl_attr_put_strz(nlh, L2TPSEL_A_PROFILE, k->profile);
		return cli_request(c, nlh, NULL, "tunnel del");
	default:
		return cli_err("unknown configuration command");
	}
}

static const char *const tunnel_verbs[] = { "add", "del", NULL };

static int tunnel_run(struct cli *c, int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	if (!argc || cli_matches(argv[0], "show") || cli_matches(argv[0], "list")) {
		if (argc != 0 && argc != 1 && !(argc == 3 && cli_matches(argv[1], "profile")))
			return cli_err("tunnel show: usage: tunnel show [ profile PROFILE ]");
		if (cli_nl(c))
			return -1;
		nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_TUNNEL_GET, NLM_F_DUMP);
		if (argc == 3)
			mnl_attr_put_strz(nlh, L2TPSEL_A_PROFILE, argv[2]);
		return cli_show(c, nlh, tunnel_cb, "tunnel show");
	}
	if (!strcmp(argv[0], "drain"))
		return tunnel_drain(c, argc, argv);
	if (cli_matches(argv[0], "delete"))
		argv[0] = "del";
	return cli_run_conf(c, "tunnel", tunnel_verbs, argc, argv, tunnel_apply);
}

const struct cli_object cli_obj_tunnel = { "tunnel", tunnel_run, tunnel_usage };
