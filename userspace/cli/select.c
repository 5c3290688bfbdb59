// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpsel profile | tunnel | domain | destination | lockout | clear | login:
 * tunnel selection (SPEC §1-§3) as the kernel holds it.  Configuration lines
 * are the batch grammar of userspace/lib/conf.h, parsed by conf_parse(), so
 * the CLI reads exactly what the simulator reads.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/genetlink.h>
#include <linux/l2tpsel.h>

#include "cli.h"
#include "conf.h"
#include "print.h"
#include "why.h"

/* The login this process began last: "login report last ..." in a batch. */
static uint32_t last_login;
static uint64_t report_key;	/* the session a "login report ... ok" counts */

static void put_addr(struct nlmsghdr *nlh, int type, const struct l2s_addr *a)
{
	if (a->family == 4 || a->family == 6)
		mnl_attr_put(nlh, type, a->family == 4 ? 4 : 16, a->bytes);
}

static int request(struct cli *c, struct nlmsghdr *nlh, mnl_cb_t cb, const char *what)
{
	return cli_request(c, nlh, cb, what);
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

/* An address attribute as the batch grammar has it; family 0 when absent. */
static void attr_addr(const struct nlattr *const *tb, int type, struct l2s_addr *x)
{
	unsigned int len;

	memset(x, 0, sizeof(*x));
	len = l2s_attr_addr(tb, type, x->bytes);
	if (len)
		x->family = len == 4 ? 4 : 6;
}

/* An address attribute as text; "" when absent. */
static void a_addr(const struct nlattr *const *tb, int type, char *buf, size_t len)
{
	struct l2s_addr x;

	buf[0] = '\0';
	attr_addr(tb, type, &x);
	if (x.family)
		conf_format_addr(&x, buf, len);
}

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
	attr_addr(tb, L2TPSEL_A_REMOTE, &t->remote);
	attr_addr(tb, L2TPSEL_A_LOCAL, &t->local);
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

/* A GET or dump printed as one JSON array (or lines of text). */
static int show(struct cli *c, struct nlmsghdr *nlh, mnl_cb_t cb, const char *what)
{
	int err;

	pr_reset();
	pr_open_arr(NULL);
	err = l2s_nl_talk(&c->nl, nlh, cb, NULL);
	pr_close_arr();
	if (err)
		return cli_nl_err(c, what, err);
	pr_done();
	return 0;
}

/*
 * profile add (@cmd PROFILE_NEW) or set (PROFILE_SET) with the settings
 * the line gives; @cmd 0: a set of every setting, the defaults (0) for those
 * the line leaves out (core/obj.h; no failover-on codes).
 */
static int profile_put(struct cli *c, const struct conf_cmd *k, uint8_t cmd)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	bool all = !cmd;

	nlh = l2s_nl_req(&c->nl, buf, all ? L2TPSEL_CMD_PROFILE_SET : cmd, 0);
	mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, k->name);
	if (k->has_failover || all)
		mnl_attr_put_u8(nlh, L2TPSEL_A_FAILOVER,
				k->has_failover ? k->failover : L2S_FAILOVER_BETWEEN_LEVELS);
	if (k->has_lb || all)
		mnl_attr_put_u8(nlh, L2TPSEL_A_LB, k->has_lb ? k->lb : L2S_LB_RANDOM);
	if (k->has_fo_cdn || all)
		mnl_attr_put_u32(nlh, L2TPSEL_A_FAILOVER_CDN, k->fo_cdn);
	if (k->has_fo_stopccn || all)
		mnl_attr_put_u32(nlh, L2TPSEL_A_FAILOVER_STOPCCN, k->fo_stopccn);
	return request(c, nlh, NULL, cmd == L2TPSEL_CMD_PROFILE_NEW ? "profile add" : "profile set");
}

/* A configuration line of the batch grammar: apply it through the kernel. */
static int apply_conf(struct cli *c, const struct conf_cmd *k)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	int err;

	if (cli_nl(c))
		return -1;
	switch (k->kind) {
	case CONF_LOCKOUT_TIME:
		nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_LOCKOUT_SET, 0);
		mnl_attr_put_u32(nlh, L2TPSEL_A_LOCKOUT_TIME, k->secs);
		return request(c, nlh, NULL, "lockout time");
	case CONF_PROFILE_ADD:
	case CONF_PROFILE_SET:
		err = profile_put(c, k, k->kind == CONF_PROFILE_ADD ?
				  L2TPSEL_CMD_PROFILE_NEW : L2TPSEL_CMD_PROFILE_SET);
		/* A batch's add of a profile that exists: every setting as the line says. */
		if (err == -EEXIST)
			err = profile_put(c, k, 0);
		return err;
	case CONF_PROFILE_DEL:
		nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_PROFILE_DEL, 0);
		mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, k->name);
		return request(c, nlh, NULL, "profile del");
	case CONF_TUNNEL_ADD:
		if (k->level > 255)
			return cli_err("tunnel add: level %u out of range", k->level);
		nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_TUNNEL_NEW, 0);
		mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, k->name);
		mnl_attr_put_strz(nlh, L2TPSEL_A_PROFILE, k->profile);
		mnl_attr_put_u8(nlh, L2TPSEL_A_SEL_LEVEL, (uint8_t)k->level);
		put_addr(nlh, L2TPSEL_A_REMOTE, &k->dest.remote);
		put_addr(nlh, L2TPSEL_A_LOCAL, &k->dest.local);
		mnl_attr_put_u16(nlh, L2TPSEL_A_PORT, k->dest.port);
		if (k->max_sessions)
			mnl_attr_put_u32(nlh, L2TPSEL_A_MAX_SESSIONS, k->max_sessions);
		if (k->group[0])
			mnl_attr_put_strz(nlh, L2TPSEL_A_TGROUP, k->group);
		if (k->secret[0])
			mnl_attr_put_strz(nlh, L2TPSEL_A_SECRET, k->secret);
		err = request(c, nlh, NULL, "tunnel add");
		return err == -EEXIST ? tunnel_replace(c, k, nlh) : err;
	case CONF_TUNNEL_DEL:
		nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_TUNNEL_DEL, 0);
		mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, k->name);
		mnl_attr_put_strz(nlh, L2TPSEL_A_PROFILE, k->profile);
		return request(c, nlh, NULL, "tunnel del");
	case CONF_DOMAIN_ADD:
		nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_DOMAIN_NEW, 0);
		mnl_attr_put_strz(nlh, L2TPSEL_A_DOMAIN, k->name);
		mnl_attr_put_strz(nlh, L2TPSEL_A_PROFILE, k->profile);
		return request(c, nlh, NULL, "domain add");
	case CONF_DOMAIN_DEL:
		nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_DOMAIN_DEL, 0);
		mnl_attr_put_strz(nlh, L2TPSEL_A_DOMAIN, k->name);
		return request(c, nlh, NULL, "domain del");
	case CONF_CLEAR_LOCKOUT:
		nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_LOCKOUT_CLEAR, 0);
		if (k->has_local)
			put_addr(nlh, L2TPSEL_A_LOCAL, &k->local);
		if (k->has_remote)
			put_addr(nlh, L2TPSEL_A_REMOTE, &k->remote);
		return request(c, nlh, NULL, "clear lockout");
	}
	return cli_err("unknown configuration command");
}

/*
 * Run "OBJECT VERB ARGS..." through conf_parse(); @verbs are the grammar's
 * verbs of the object, so that a prefix ("prof a") reads as the full word.
 */
static int run_conf(struct cli *c, const char *object, const char *const *verbs,
		    int argc, char **argv)
{
	char *v[CONF_MAX_ARGS + 2], err[256];
	struct conf_cmd k;
	int i, n = 0;

	if (argc + 1 > CONF_MAX_ARGS)
		return cli_err("%s: too many arguments", object);
	v[n++] = (char *)object;
	for (i = 0; i < argc; i++)
		v[n++] = argv[i];
	for (i = 0; argc && verbs[i]; i++) {
		if (cli_matches(argv[0], verbs[i])) {
			v[1] = (char *)verbs[i];
			break;
		}
	}
	if (conf_parse(n, v, &k, err, sizeof(err)))
		return cli_err("%s", err[0] ? err : "syntax error");
	return apply_conf(c, &k);
}

/* ---- profile --------------------------------------------------------- */

static void profile_usage(void)
{
	printf("Usage: l2tpsel profile { add | set } NAME [ failover { between-levels | within-level } ]\n"
	       "               [ lb { random | weighted | destination-equal | hash | minmiss-hash } ]\n"
	       "               [ failover-on { cdn | stopccn } CODE[,CODE...] ]\n"
	       "       l2tpsel profile del NAME\n"
	       "       l2tpsel profile show [ NAME ]\n"
	       "CODE := 0..31 (result codes that also lock out and fail over)\n");
}

static void print_codes(const char *key, const char *label, uint32_t mask)
{
	unsigned int i;
	bool first = true;

	if (pr_is_json()) {
		pr_open_arr(key);
		for (i = 0; i < 32; i++)
			if (mask & (1u << i))
				pr_u64(NULL, "", i);
		pr_close_arr();
		return;
	}
	if (!mask)
		return;
	printf(" failover-on %s ", label);
	for (i = 0; i < 32; i++) {
		if (mask & (1u << i)) {
			printf("%s%u", first ? "" : ",", i);
			first = false;
		}
	}
}

static int profile_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];

	l2s_attr_parse(nlh, tb);
	pr_open_obj(NULL);
	pr_str("name", "%s", l2s_attr_str(tb, L2TPSEL_A_NAME, "?"));
	pr_str("failover", " failover %s",
	       conf_failover_name(l2s_attr_u8(tb, L2TPSEL_A_FAILOVER, 0)));
	pr_str("lb", " lb %s", conf_lb_name(l2s_attr_u8(tb, L2TPSEL_A_LB, 0)));
	print_codes("failover_on_cdn", "cdn", l2s_attr_u32(tb, L2TPSEL_A_FAILOVER_CDN, 0));
	print_codes("failover_on_stopccn", "stopccn",
		    l2s_attr_u32(tb, L2TPSEL_A_FAILOVER_STOPCCN, 0));
	pr_u64("tunnels", " tunnels %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_N_TUNNELS, 0));
	pr_u64("levels", " levels %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_N_LEVELS, 0));
	pr_u64("destinations", " destinations %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_N_DESTS, 0));
	/* a login's own tunnel set (RADIUS), made and freed by the kernel */
	if (l2s_attr_u8(tb, L2TPSEL_A_DYNAMIC, 0))
		pr_bool("dynamic", " dynamic %s", true);
	pr_close_obj();
	pr_text("\n");
	return MNL_CB_OK;
}

static const char *const profile_verbs[] = { "add", "set", "del", NULL };

static int profile_run(struct cli *c, int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	if (!argc || cli_matches(argv[0], "show") || cli_matches(argv[0], "list")) {
		if (argc > 2)
			return cli_err("profile show: unexpected argument \"%s\"", argv[2]);
		if (cli_nl(c))
			return -1;
		nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_PROFILE_GET, argc == 2 ? 0 : NLM_F_DUMP);
		if (argc == 2)
			mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, argv[1]);
		return show(c, nlh, profile_cb, "profile show");
	}
	if (cli_matches(argv[0], "delete"))
		argv[0] = "del";
	return run_conf(c, "profile", profile_verbs, argc, argv);
}

/* ---- tunnel ---------------------------------------------------------- */

static void tunnel_usage(void)
{
	printf("Usage: l2tpsel tunnel add NAME profile PROFILE level LEVEL dest ADDR [ port PORT ]\n"
	       "               [ local ADDR ] [ max-sessions N ] [ group GROUP ] [ secret SECRET ]\n"
	       "       l2tpsel tunnel del NAME profile PROFILE\n"
	       "       l2tpsel tunnel show [ profile PROFILE ]\n"
	       "LEVEL := 0..7 (0 most preferred);  N := 0 (unlimited) | 1..16777215\n"
	       "ADDR := IPv4 or IPv6 address;  the secret is never shown\n");
}

/* The tunnel attributes of a reply, a step or a candidate. */
static void print_tunnel(const struct nlattr **tb, bool full)
{
	char remote[64], local[64];

	a_addr(tb, L2TPSEL_A_REMOTE, remote, sizeof(remote));
	a_addr(tb, L2TPSEL_A_LOCAL, local, sizeof(local));
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
	pr_bool("secret", " secret %s", l2s_attr_u8(tb, L2TPSEL_A_HAS_SECRET, 0));
}

static int tunnel_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];

	l2s_attr_parse(nlh, tb);
	pr_open_obj(NULL);
	print_tunnel(tb, true);
	pr_close_obj();
	pr_text("\n");
	return MNL_CB_OK;
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
		return show(c, nlh, tunnel_cb, "tunnel show");
	}
	if (cli_matches(argv[0], "delete"))
		argv[0] = "del";
	return run_conf(c, "tunnel", tunnel_verbs, argc, argv);
}

/* ---- domain ---------------------------------------------------------- */

static void domain_usage(void)
{
	printf("Usage: l2tpsel domain add DOMAIN profile PROFILE\n"
	       "       l2tpsel domain del DOMAIN\n"
	       "       l2tpsel domain show [ DOMAIN ]\n"
	       "DOMAIN: what follows the last '@' of a user name, 1..63 bytes\n");
}

static int domain_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];

	l2s_attr_parse(nlh, tb);
	pr_open_obj(NULL);
	pr_str("domain", "%s", l2s_attr_str(tb, L2TPSEL_A_DOMAIN, "?"));
	pr_str("profile", " profile %s", l2s_attr_str(tb, L2TPSEL_A_PROFILE, "?"));
	pr_close_obj();
	pr_text("\n");
	return MNL_CB_OK;
}

static const char *const domain_verbs[] = { "add", "del", NULL };

static int domain_run(struct cli *c, int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	if (!argc || cli_matches(argv[0], "show") || cli_matches(argv[0], "list")) {
		if (argc > 2)
			return cli_err("domain show: unexpected argument \"%s\"", argv[2]);
		if (cli_nl(c))
			return -1;
		nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_DOMAIN_GET, argc == 2 ? 0 : NLM_F_DUMP);
		if (argc == 2)
			mnl_attr_put_strz(nlh, L2TPSEL_A_DOMAIN, argv[1]);
		return show(c, nlh, domain_cb, "domain show");
	}
	if (cli_matches(argv[0], "delete"))
		argv[0] = "del";
	return run_conf(c, "domain", domain_verbs, argc, argv);
}

/* ---- destination ------------------------------------------------------ */

static void destination_usage(void)
{
	printf("Usage: l2tpsel destination show\n"
	       "Each destination (remote address, port, local address) with its lockout time\n"
	       "remaining (ms), session count, tunnels naming it, attempts and failures.\n");
}

static int dest_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];
	char remote[64], local[64];

	l2s_attr_parse(nlh, tb);
	a_addr(tb, L2TPSEL_A_REMOTE, remote, sizeof(remote));
	a_addr(tb, L2TPSEL_A_LOCAL, local, sizeof(local));
	pr_open_obj(NULL);
	pr_str("dest", "%s", remote);
	pr_u64("port", " port %" PRIu64, l2s_attr_u16(tb, L2TPSEL_A_PORT, 0));
	if (local[0] || !pr_is_json())
		pr_str("local", " local %s", local[0] ? local : "any");
	pr_u64("lockout_ms", " lockout-ms %" PRIu64,
	       l2s_attr_u32(tb, L2TPSEL_A_LOCKOUT_REMAINING, 0));
	pr_u64("sessions", " sessions %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_SESSIONS, 0));
	pr_u64("tunnels", " tunnels %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_N_TUNNELS, 0));
	pr_u64("attempts", " attempts %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_ATTEMPTS, 0));
	pr_u64("failures", " failures %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_FAILURES, 0));
	pr_close_obj();
	pr_text("\n");
	return MNL_CB_OK;
}

static int destination_run(struct cli *c, int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	if (argc && !cli_matches(argv[0], "show") && !cli_matches(argv[0], "list"))
		return cli_err("destination: command \"%s\" is unknown, try \"l2tpsel destination help\"",
			       argv[0]);
	if (argc > 1)
		return cli_err("destination show: unexpected argument \"%s\"", argv[1]);
	if (cli_nl(c))
		return -1;
	nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_DEST_GET, NLM_F_DUMP);
	return show(c, nlh, dest_cb, "destination show");
}

/* ---- lockout and clear ------------------------------------------------ */

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

static int lockout_run(struct cli *c, int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	static const char *const verbs[] = { "time", NULL };
	struct nlmsghdr *nlh;
	uint32_t n;

	if (!argc || cli_matches(argv[0], "show")) {
		if (cli_nl(c))
			return -1;
		nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_LOCKOUT_GET, 0);
		pr_reset();
		if (request(c, nlh, lockout_cb, "lockout show"))
			return -1;
		pr_done();
		return 0;
	}
	if (cli_matches(argv[0], "max-logins")) {
		if (argc != 2)
			return cli_err("lockout max-logins: usage: lockout max-logins N");
		if (cli_parse_u32("max-logins", argv[1], &n) || cli_nl(c))
			return -1;
		nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_LOCKOUT_SET, 0);
		mnl_attr_put_u32(nlh, L2TPSEL_A_MAX_LOGINS, n);
		return request(c, nlh, NULL, "lockout max-logins");
	}
	if (cli_matches(argv[0], "dest")) {
		struct l2s_addr remote, local;
		uint32_t port = 0, secs = 0;
		bool has_local = false, has_secs = false;
		int i;

		if (argc < 2 || conf_parse_addr(argv[1], &remote))
			return cli_err("lockout dest: ADDR (IPv4 or IPv6) required");
		for (i = 2; i + 1 < argc; i += 2) {
			if (!strcmp(argv[i], "port")) {
				if (cli_parse_u32("port", argv[i + 1], &port))
					return -1;
				if (!port || port > 65535)
					return cli_err("lockout dest: port %u: 1..65535", port);
			} else if (!strcmp(argv[i], "local")) {
				if (conf_parse_addr(argv[i + 1], &local))
					return cli_err("lockout dest: local \"%s\" is not an address",
						       argv[i + 1]);
				has_local = true;
			} else if (!strcmp(argv[i], "remaining")) {
				if (cli_parse_u32("remaining", argv[i + 1], &secs))
					return -1;
				if (secs > 86400)
					return cli_err("lockout dest: remaining %u: 0..86400 seconds", secs);
				has_secs = true;
			} else {
				return cli_err("lockout dest: \"%s\" is unknown", argv[i]);
			}
		}
		if (i != argc || !has_secs)
			return cli_err("lockout dest: usage: lockout dest ADDR [ port PORT ] [ local ADDR ] remaining SECS");
		if (cli_nl(c))
			return -1;
		nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_DEST_LOCK, 0);
		put_addr(nlh, L2TPSEL_A_REMOTE, &remote);
		if (has_local)
			put_addr(nlh, L2TPSEL_A_LOCAL, &local);
		if (port)
			mnl_attr_put_u16(nlh, L2TPSEL_A_PORT, (uint16_t)port);
		mnl_attr_put_u32(nlh, L2TPSEL_A_LOCKOUT_REMAINING, secs * 1000);
		return request(c, nlh, NULL, "lockout dest");
	}
	return run_conf(c, "lockout", verbs, argc, argv);
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

static int clear_run(struct cli *c, int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE], *v[CONF_MAX_ARGS + 2], err[256];
	struct conf_cmd k;
	struct nlmsghdr *nlh;
	int i, n = 0;

	if (argc + 1 > CONF_MAX_ARGS)
		return cli_err("clear: too many arguments");
	v[n++] = "clear";
	for (i = 0; i < argc; i++)
		v[n++] = argv[i];
	if (argc && cli_matches(argv[0], "lockout"))
		v[1] = "lockout";
	if (conf_parse(n, v, &k, err, sizeof(err)))
		return cli_err("%s", err[0] ? err : "syntax error");
	if (cli_nl(c))
		return -1;
	nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_LOCKOUT_CLEAR, 0);
	if (k.has_local)
		put_addr(nlh, L2TPSEL_A_LOCAL, &k.local);
	if (k.has_remote)
		put_addr(nlh, L2TPSEL_A_REMOTE, &k.remote);
	return request(c, nlh, clear_cb, "clear lockout");
}

/* ---- login ----------------------------------------------------------- */

static void login_usage(void)
{
	printf("Usage: l2tpsel login test { USER | profile PROFILE } [ profile PROFILE ] [ key KEY ]\n"
	       "       l2tpsel login begin { USER | profile PROFILE } [ profile PROFILE ] [ key KEY ]\n"
	       "                           [ pick TUNNEL ]...\n"
	       "       l2tpsel login report { ID | last } OUTCOME\n"
	       "       l2tpsel login bench COUNT { USER | profile PROFILE }\n"
	       "       l2tpsel login start { USER | profile PROFILE } [ profile PROFILE ] [ key KEY ] [ socket PATH ]\n"
	       "       l2tpsel login stop ID [ socket PATH ]\n"
	       "       l2tpsel login { show | stats } [ socket PATH ]\n"
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
	       "start/stop/show/stats: through the l2tpseld agent's socket (default\n"
	       "      /run/l2tpseld.sock or $L2TPSELD_SOCKET): start prints each attempt and\n"
	       "      the outcome, exits 0 on success, 2 on failure\n");
}

/*
 * "login report ID ok [ session KEY ] [ tunnel-id TID ]": the session the OK
 * counts, by default key L2S_CLI_KEY_BASE + ID on L2TP tunnel 0.
 */
#define L2S_CLI_KEY_BASE	0xc110000000000000ULL

static int login_ok_args(int argc, char **argv, uint32_t id, uint64_t *key, uint32_t *tid)
{
	*key = L2S_CLI_KEY_BASE + id;
	*tid = 0;
	for (; argc >= 2; argc -= 2, argv += 2) {
		if (!strcmp(argv[0], "session")) {
			if (cli_parse_u64("session key", argv[1], key))
				return -1;
		} else if (!strcmp(argv[0], "tunnel-id")) {
			if (cli_parse_u32("tunnel id", argv[1], tid))
				return -1;
		} else {
			break;
		}
	}
	if (argc)
		return cli_err("login report: ok takes [ session KEY ] [ tunnel-id TID ], not \"%s\"",
			       argv[0]);
	return 0;
}

/* One step: "attempt tunnel T ... setup sccrq" or "done ok ..." / "done fail reason R". */
static void print_step(const struct nlattr **tb)
{
	if (l2s_attr_u8(tb, L2TPSEL_A_STEP, 0) == L2TPSEL_STEP_ATTEMPT) {
		pr_str("step", " %s", "attempt");
		pr_text(" ");
		print_tunnel(tb, false);
		pr_str("setup", " setup %s",
		       l2s_attr_u8(tb, L2TPSEL_A_SETUP, 0) ? "sccrq" : "icrq");
		if (l2s_attr_u8(tb, L2TPSEL_A_SHORTEST, 0))
			pr_bool("shortest", " shortest %s", true);
		return;
	}
	pr_str("step", " %s", "done");
	if (l2s_attr_u8(tb, L2TPSEL_A_OK, 0)) {
		pr_str("result", " %s ", "ok");
		print_tunnel(tb, false);
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
			print_tunnel(st, false);
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
	struct genlmsghdr *g;
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
		nlh = mnl_nlmsg_put_header(buf);
		nlh->nlmsg_type = GENL_ID_CTRL;
		nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
		nlh->nlmsg_seq = ++c->nl.seq;
		g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
		g->cmd = CTRL_CMD_GETFAMILY;
		g->version = 1;
		mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, L2TPSEL_GENL_NAME);
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

static int login_run(struct cli *c, int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	const char *user = NULL, *profile = NULL, *key = NULL;
	const char *picks[16];
	struct nlmsghdr *nlh;
	bool test, begin;
	int npicks = 0, i;
	uint32_t id, r, e;

	if (!argc)
		return cli_err("login: which command? try \"l2tpsel login help\"");
	if (!strcmp(argv[0], "start") || !strcmp(argv[0], "stop") ||
	    !strcmp(argv[0], "show") || !strcmp(argv[0], "stats"))
		return agent_login_run(c, argc, argv);	/* through l2tpseld */
	if (!strcmp(argv[0], "bench")) {
		uint32_t count;

		if (argc == 3 && cli_parse_u32("count", argv[1], &count) == 0)
			return login_bench(c, count, argv[2], NULL);
		if (argc == 4 && !strcmp(argv[2], "profile") &&
		    cli_parse_u32("count", argv[1], &count) == 0)
			return login_bench(c, count, NULL, argv[3]);
		return cli_err("login bench: usage: login bench COUNT { USER | profile PROFILE }");
	}
	test = cli_matches(argv[0], "test");
	begin = cli_matches(argv[0], "begin");
	if (cli_matches(argv[0], "report")) {
		uint8_t out;

		uint64_t skey = 0;
		uint32_t tid = 0;

		if (argc < 3)
			return cli_err("login report: usage: login report { ID | last } OUTCOME");
		if (!strcmp(argv[1], "last"))
			id = last_login;
		else if (cli_parse_u32("login id", argv[1], &id))
			return -1;
		r = e = 0;
		if (cli_matches(argv[2], "ok")) {
			out = L2TPSEL_OUTCOME_OK;
			if (login_ok_args(argc - 3, argv + 3, id, &skey, &tid))
				return -1;
			argc = 3;
		} else if (cli_matches(argv[2], "no-reply") || !strcmp(argv[2], "silent"))
			out = L2TPSEL_OUTCOME_NO_REPLY;
		else if (cli_matches(argv[2], "client-gone"))
			out = L2TPSEL_OUTCOME_CLIENT_GONE;
		else if (!strcmp(argv[2], "local"))
			out = L2TPSEL_OUTCOME_LOCAL;
		else if (!strcmp(argv[2], "cdn") || !strcmp(argv[2], "stopccn")) {
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
		i = request(c, nlh, step_cb, "login report");
		report_key = 0;
		return i;
	}
	if (!test && !begin)
		return cli_err("login: command \"%s\" is unknown, try \"l2tpsel login help\"", argv[0]);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "profile") || !strcmp(argv[i], "key") ||
		    (begin && !strcmp(argv[i], "pick"))) {
			if (i + 1 >= argc)
				return cli_err("login: \"%s\" needs an argument", argv[i]);
			if (argv[i][0] == 'p' && argv[i][1] == 'r')
				profile = argv[i + 1];
			else if (argv[i][0] == 'k')
				key = argv[i + 1];
			else if (npicks < 16)
				picks[npicks++] = argv[i + 1];
			else
				return cli_err("login: at most 16 picks");
			i++;
		} else if (!user) {
			user = argv[i];
		} else {
			return cli_err("login: unexpected argument \"%s\"", argv[i]);
		}
	}
	if (!user && !profile)
		return cli_err("login %s: give USER@DOMAIN or profile PROFILE", argv[0]);
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
	return request(c, nlh, test ? test_cb : step_cb, test ? "login test" : "login begin");
}

const struct cli_object cli_obj_profile = { "profile", profile_run, profile_usage };
const struct cli_object cli_obj_tunnel = { "tunnel", tunnel_run, tunnel_usage };
const struct cli_object cli_obj_domain = { "domain", domain_run, domain_usage };
const struct cli_object cli_obj_destination = { "destination", destination_run, destination_usage };
const struct cli_object cli_obj_lockout = { "lockout", lockout_run, lockout_usage };
const struct cli_object cli_obj_clear = { "clear", clear_run, lockout_usage };
const struct cli_object cli_obj_login = { "login", login_run, login_usage };
