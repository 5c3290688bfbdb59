// SPDX-License-Identifier: GPL-2.0
/*
 * "kernel netlink": selection and admission by the l2tpsel module over its
 * generic-netlink family (uapi/linux/l2tpsel.h): LOGIN_BEGIN / LOGIN_REPORT
 * for the walk (the OK counts the session for selection and admission),
 * SESSION_UP for an LNS's admission, SESSION_DOWN when a session ends.  One
 * socket, synchronous requests from the event loop (each is a few
 * microseconds of kernel work); the logins and sessions the kernel holds
 * belong to this socket, so they end if the agent dies.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/genetlink.h>
#include <linux/l2tpsel.h>

#include "attr.h"
#include "kernel.h"
#include "kernel_netlink.h"
#include "l2d.h"
#include "lac.h"
#include "nl.h"
#include "radius.h"
#include "session.h"

struct knl {
	struct l2s_nl nl;
};

static struct l2s_nl *nl_of(struct l2d *d)
{
	return &((struct knl *)d->kctx)->nl;
}

int l2d_kernel_netlink_open(struct l2d *d, int fd, char *err, size_t errlen)
{
	struct knl *k = calloc(1, sizeof(*k));
	int ret;

	if (!k)
		return -ENOMEM;
	/*
	 * S-OPS-2: the socket the module counts our sessions and logins
	 * against, handed over across execve(): the counts go on.
	 */
	ret = fd >= 0 ? l2s_nl_fdopen(&k->nl, fd) : l2s_nl_open(&k->nl);
	if (!ret)
		ret = l2s_nl_resolve(&k->nl);
	if (ret) {
		snprintf(err, errlen, "l2tpsel netlink: %s", k->nl.errmsg[0] ? k->nl.errmsg : strerror(-ret));
		l2s_nl_close(&k->nl);
		free(k);
		return ret;
	}
	d->kctx = k;
	d->knl_fd = mnl_socket_get_fd(k->nl.sock);
	return 0;
}

static void knl_fini(struct l2d *d)
{
	if (!d->kctx)
		return;
	l2s_nl_close(nl_of(d));
	free(d->kctx);
	d->kctx = NULL;
}

/* A string attribute into @dst; "" when absent. */
static void str_copy(const struct nlattr *const *tb, int type, char *dst, size_t cap)
{
	l2d_strcpy(dst, cap, l2s_attr_str(tb, type, ""));
}

/* An address attribute with @port as a socket address; false when absent. */
static bool addr_of(const struct nlattr *const *tb, int type, uint16_t port, struct l2d_addr *out)
{
	uint8_t b[16];

	return l2d_addr_set(out, b, l2s_attr_addr(tb, type, b), port);
}

struct step_ctx {
	struct l2d_login *lg;
	struct l2d_step *st;
	bool got;
};

/* An admission verdict: SESSION_UP's reply, or a refused OK's DONE. */
static void admit_of(const struct nlattr *const *tb, struct l2d_admit *a)
{
	a->level = l2s_attr_u8(tb, L2TPSEL_A_ADMIT, 0);
	a->pass = a->level == L2TPSEL_LEVEL_PASS;
	a->result = l2s_attr_u16(tb, L2TPSEL_A_RESULT_CODE, 4);
	a->error = l2s_attr_u16(tb, L2TPSEL_A_ERROR_CODE, 4);
}

/* RL_CHECK's verdict attributes: its reply, or a login's RL_LOGIN / RL_ATTEMPT nest. */
static void rlans_of(const struct nlattr *const *tb, struct l2d_rlans *a)
{
	a->verdict = l2s_attr_u8(tb, L2TPSEL_A_RL_VERDICT, 0);
	a->result = l2s_attr_u16(tb, L2TPSEL_A_RESULT_CODE, 2);
	a->error = l2s_attr_u16(tb, L2TPSEL_A_ERROR_CODE, 4);
	str_copy(tb, L2TPSEL_A_RL_MESSAGE, a->message, sizeof(a->message));
	str_copy(tb, L2TPSEL_A_NAME, a->name, sizeof(a->name));
}

/* A refusal nest of RL_ASK into @a; a pass when absent. */
static void rl_nest(const struct nlattr *nest, struct l2d_rlans *a)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];

	memset(a, 0, sizeof(*a));
	if (nest && l2s_attr_parse_nest(nest, tb) >= 0)
		rlans_of(tb, a);
}

static int step_cb(const struct nlmsghdr *nlh, void *data)
{
	struct step_ctx *c = data;
	struct l2d_step *st = c->st;
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];

	l2s_attr_parse(nlh, tb);
	memset(st, 0, sizeof(*st));
	c->got = true;
	rl_nest(tb[L2TPSEL_A_RL_LOGIN], &st->rl_login);
	rl_nest(tb[L2TPSEL_A_RL_ATTEMPT], &st->rl_attempt);
	if (tb[L2TPSEL_A_RL_LOGIN])
		return MNL_CB_OK;	/* refused before it began: no step */
	/* A reply without LOGIN_ID leaves the id the login has. */
	c->lg->kid = l2s_attr_u32(tb, L2TPSEL_A_LOGIN_ID, c->lg->kid);
	str_copy(tb, L2TPSEL_A_NAME, st->tunnel, sizeof(st->tunnel));
	str_copy(tb, L2TPSEL_A_PROFILE, st->profile, sizeof(st->profile));
	st->level = l2s_attr_u8(tb, L2TPSEL_A_SEL_LEVEL, 0);
	if (l2s_attr_u8(tb, L2TPSEL_A_STEP, 0) == L2TPSEL_STEP_DONE) {
		st->done = true;
		st->ok = l2s_attr_u8(tb, L2TPSEL_A_OK, 0);
		st->why = l2s_attr_u8(tb, L2TPSEL_A_WHY, 0);
		if (tb[L2TPSEL_A_ADMIT])
			admit_of(tb, &st->admit);
		return MNL_CB_OK;
	}
	st->setup = l2s_attr_u8(tb, L2TPSEL_A_SETUP, 0);
	st->shortest = l2s_attr_u8(tb, L2TPSEL_A_SHORTEST, 0);
	if (!addr_of(tb, L2TPSEL_A_REMOTE, l2s_attr_u16(tb, L2TPSEL_A_PORT, 1701), &st->remote)) {
		c->got = false;
		return MNL_CB_OK;
	}
	st->has_local = addr_of(tb, L2TPSEL_A_LOCAL, 0, &st->local);
	return MNL_CB_OK;
}

/*
 * The module answers every refusal of its own with an extack message, so an
 * ENOENT without one comes from the generic-netlink core: no family has that
 * id any more.  The module was unloaded, or unloaded and loaded again under a
 * new id.  Look the family up again and, when it is back, send the request
 * once more under the new id; when it is not, the error says that the module
 * is not loaded (-ENODEV), not that a profile or domain is unknown.
 */
static int family_gone(struct l2d *d, struct nlmsghdr *nlh)
{
	struct l2s_nl *nl = nl_of(d);
	uint16_t old = nl->family;
	int ret;

	nl->family = 0;
	ret = l2s_nl_resolve(nl);
	if (ret)
		return ret == -ENOENT ? -ENODEV : ret;
	if (nl->family != old)
		l2d_log(d, L2D_LOG_INFO, "the l2tpsel module was loaded again: family id %u",
			nl->family);
	nlh->nlmsg_type = nl->family;
	nlh->nlmsg_seq = ++nl->seq;
	return 0;
}

static int talk(struct l2d *d, struct nlmsghdr *nlh, mnl_cb_t cb, void *data, const char *what)
{
	struct l2s_nl *nl = nl_of(d);
	int ret;

	/* No family since the module went away: try again before sending. */
	if (!nl->family) {
		ret = family_gone(d, nlh);
		if (ret)
			goto out;
	}
	ret = l2s_nl_talk(nl, nlh, cb, data);
	if (ret == -ENOENT && !nl->errmsg[0]) {
		ret = family_gone(d, nlh);
		if (!ret)
			ret = l2s_nl_talk(nl, nlh, cb, data);
	}
out:
	if (ret)
		l2d_log(d, L2D_LOG_ERR, "%s: %s", what, nl->errmsg[0] ? nl->errmsg : strerror(-ret));
	return ret;
}

/* An address text (checked by rad_tunnel_set()) as the kernel's 4 or 16 bytes. */
static void put_addr_text(struct nlmsghdr *nlh, uint16_t type, const char *text)
{
	uint8_t a[16];

	if (inet_pton(AF_INET, text, a) == 1)
		mnl_attr_put(nlh, type, 4, a);
	else if (inet_pton(AF_INET6, text, a) == 1)
		mnl_attr_put(nlh, type, 16, a);
}

/* RADIUS's tunnel set as LOGIN_BEGIN's TUNNELS (uapi/linux/l2tpsel.h). */
static void put_set(struct nlmsghdr *nlh, const struct rad_set_entry *e, unsigned int n)
{
	struct nlattr *list = mnl_attr_nest_start(nlh, L2TPSEL_A_TUNNELS), *one;
	unsigned int i;

	for (i = 0; i < n; i++) {
		one = mnl_attr_nest_start(nlh, L2TPSEL_A_TUNNEL_ENTRY);
		mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, e[i].name);
		mnl_attr_put_u8(nlh, L2TPSEL_A_SEL_LEVEL, e[i].level);
		put_addr_text(nlh, L2TPSEL_A_REMOTE, e[i].remote);
		if (e[i].local[0])
			put_addr_text(nlh, L2TPSEL_A_LOCAL, e[i].local);
		/* the kernel keeps only that there is one (HAS_SECRET); the password is ours */
		if (e[i].secret[0])
			mnl_attr_put_strz(nlh, L2TPSEL_A_SECRET, e[i].secret);
		mnl_attr_nest_end(nlh, one);
	}
	mnl_attr_nest_end(nlh, list);
}

/*
 * LOGIN_BEGIN and LOGIN_REPORT always answer with a step (or refuse with
 * an error and its message): asked without NLM_F_ACK, each is one
 * datagram back instead of two, a receive and an skb less per request
 * (the LAC's CPU per login).
 */
static void req_noack(struct nlmsghdr *nlh)
{
	nlh->nlmsg_flags &= (uint16_t)~NLM_F_ACK;
}

static int knl_begin(struct l2d *d, struct l2d_login *lg, struct l2d_step *st)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct step_ctx c = { lg, st, false };
	struct nlmsghdr *nlh = l2s_nl_req(nl_of(d), buf, L2TPSEL_CMD_LOGIN_BEGIN, 0);
	int ret;

	req_noack(nlh);

	if (lg->user[0])
		mnl_attr_put_strz(nlh, L2TPSEL_A_USER, lg->user);
	if (lg->profile[0])
		mnl_attr_put_strz(nlh, L2TPSEL_A_PROFILE, lg->profile);
	if (lg->key[0])
		mnl_attr_put_strz(nlh, L2TPSEL_A_KEY, lg->key);
	if (lg->nset)
		put_set(nlh, lg->set, lg->nset);
	if (d->conf->ratelimit)
		mnl_attr_put(nlh, L2TPSEL_A_RL_ASK, 0, NULL);
	ret = talk(d, nlh, step_cb, &c, "LOGIN_BEGIN");
	if (ret)
		return ret == -ENOENT ? -2 : ret;
	return c.got ? 0 : -EPROTO;
}

static int knl_report(struct l2d *d, struct l2d_login *lg, unsigned int outcome,
		      uint16_t result, uint16_t error, struct l2d_step *st)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct step_ctx c = { lg, st, false };
	struct nlmsghdr *nlh = l2s_nl_req(nl_of(d), buf, L2TPSEL_CMD_LOGIN_REPORT, 0);
	int ret;

	req_noack(nlh);

	mnl_attr_put_u32(nlh, L2TPSEL_A_LOGIN_ID, lg->kid);
	mnl_attr_put_u8(nlh, L2TPSEL_A_OUTCOME, (uint8_t)outcome);
	if (outcome == L2TPSEL_OUTCOME_CDN || outcome == L2TPSEL_OUTCOME_STOPCCN) {
		mnl_attr_put_u16(nlh, L2TPSEL_A_RESULT_CODE, result);
		mnl_attr_put_u16(nlh, L2TPSEL_A_ERROR_CODE, error);
	}
	if (outcome == L2TPSEL_OUTCOME_OK && lg->s) {
		/* counted with its selection: one session of this socket */
		mnl_attr_put_u64(nlh, L2TPSEL_A_SESSION_KEY, lg->s->key);
		mnl_attr_put_u32(nlh, L2TPSEL_A_TUNNEL_ID, lg->s->t->tid);
	}
	if (d->conf->ratelimit)
		mnl_attr_put(nlh, L2TPSEL_A_RL_ASK, 0, NULL);
	ret = talk(d, nlh, step_cb, &c, "LOGIN_REPORT");
	if (ret)
		return ret;
	return c.got ? 0 : -EPROTO;
}

struct admit_ctx {
	struct l2d_admit *a;
	bool got;
};

static int admit_cb(const struct nlmsghdr *nlh, void *data)
{
	struct admit_ctx *c = data;
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];

	l2s_attr_parse(nlh, tb);
	if (!tb[L2TPSEL_A_ADMIT])
		return MNL_CB_OK;
	c->got = true;
	admit_of(tb, c->a);
	return MNL_CB_OK;
}

static int knl_session_up(struct l2d *d, struct l2d_session *s, struct l2d_admit *a)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct admit_ctx c = { a, false };
	struct nlmsghdr *nlh = l2s_nl_req(nl_of(d), buf, L2TPSEL_CMD_SESSION_UP, 0);
	int ret;

	memset(a, 0, sizeof(*a));
	mnl_attr_put_u64(nlh, L2TPSEL_A_SESSION_KEY, s->key);
	mnl_attr_put_u8(nlh, L2TPSEL_A_ROLE, s->initiator ? L2TPSEL_ROLE_LAC : L2TPSEL_ROLE_LNS);
	mnl_attr_put_u32(nlh, L2TPSEL_A_TUNNEL_ID, s->t->tid);
	if (!s->initiator) {
		if (s->t->tgroup[0])
			mnl_attr_put_strz(nlh, L2TPSEL_A_TGROUP, s->t->tgroup);
		if (s->t->peer_host[0])
			mnl_attr_put_strz(nlh, L2TPSEL_A_CLIENT, s->t->peer_host);
	}
	ret = talk(d, nlh, admit_cb, &c, "SESSION_UP");
	if (ret)
		return ret;
	return c.got ? 0 : -EPROTO;
}

static int knl_session_down(struct l2d *d, uint64_t key)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = l2s_nl_req(nl_of(d), buf, L2TPSEL_CMD_SESSION_DOWN, 0);

	mnl_attr_put_u64(nlh, L2TPSEL_A_SESSION_KEY, key);
	return talk(d, nlh, NULL, NULL, "SESSION_DOWN");
}

struct rl_ctx {
	struct l2d_rlans *a;
	bool got;
};

static int rl_cb(const struct nlmsghdr *nlh, void *data)
{
	struct rl_ctx *c = data;
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];

	l2s_attr_parse(nlh, tb);
	if (!tb[L2TPSEL_A_RL_VERDICT])
		return MNL_CB_OK;
	c->got = true;
	rlans_of(tb, c->a);
	return MNL_CB_OK;
}

/* RL_CHECK: the rate limiter's verdict for one request (Documentation/ratelimit.md). */
static int knl_rl_check(struct l2d *d, const struct l2d_rlreq *q, struct l2d_rlans *a)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct rl_ctx c = { a, false };
	struct nlmsghdr *nlh = l2s_nl_req(nl_of(d), buf, L2TPSEL_CMD_RL_CHECK, 0);
	int ret;

	memset(a, 0, sizeof(*a));
	mnl_attr_put_u8(nlh, L2TPSEL_A_RL_DIR, q->dir);
	mnl_attr_put_u8(nlh, L2TPSEL_A_RL_MSG, q->msg);
	if (q->peer && *q->peer)
		mnl_attr_put_strz(nlh, L2TPSEL_A_RL_PEER, q->peer);
	if (q->remote && q->remote->ss.ss_family == AF_INET) {
		const struct sockaddr_in *s = (const void *)&q->remote->ss;

		mnl_attr_put(nlh, L2TPSEL_A_REMOTE, 4, &s->sin_addr);
		mnl_attr_put_u16(nlh, L2TPSEL_A_PORT, ntohs(s->sin_port));
	} else if (q->remote && q->remote->ss.ss_family == AF_INET6) {
		const struct sockaddr_in6 *s = (const void *)&q->remote->ss;

		mnl_attr_put(nlh, L2TPSEL_A_REMOTE, 16, &s->sin6_addr);
		mnl_attr_put_u16(nlh, L2TPSEL_A_PORT, ntohs(s->sin6_port));
	}
	if (q->domain && *q->domain)
		mnl_attr_put_strz(nlh, L2TPSEL_A_DOMAIN, q->domain);
	if (q->profile && *q->profile)
		mnl_attr_put_strz(nlh, L2TPSEL_A_PROFILE, q->profile);
	ret = talk(d, nlh, rl_cb, &c, "RL_CHECK");
	if (ret)
		return ret;
	return c.got ? 0 : -EPROTO;
}

static const char *knl_errmsg(struct l2d *d)
{
	return d->kctx && nl_of(d)->errmsg[0] ? nl_of(d)->errmsg : NULL;
}

struct dest_ctx {
	l2d_dest_fn fn;
	void *ctx;
};

static void addr_text(const struct nlattr *const *tb, int type, char *buf, size_t len)
{
	uint8_t a[16];
	unsigned int n = l2s_attr_addr(tb, type, a);

	buf[0] = '\0';
	if (n == 4 || n == 16)
		inet_ntop(n == 4 ? AF_INET : AF_INET6, a, buf, (socklen_t)len);
}

static int dest_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];
	struct dest_ctx *c = data;
	struct l2d_dest_info di = { 0 };

	l2s_attr_parse(nlh, tb);
	addr_text(tb, L2TPSEL_A_REMOTE, di.remote, sizeof(di.remote));
	addr_text(tb, L2TPSEL_A_LOCAL, di.local, sizeof(di.local));
	di.port = l2s_attr_u16(tb, L2TPSEL_A_PORT, 0);
	di.lockout_ms = l2s_attr_u32(tb, L2TPSEL_A_LOCKOUT_REMAINING, 0);
	di.sessions = l2s_attr_u32(tb, L2TPSEL_A_SESSIONS, 0);
	di.in_flight = l2s_attr_u32(tb, L2TPSEL_A_IN_FLIGHT, 0);
	di.tunnels = l2s_attr_u32(tb, L2TPSEL_A_N_TUNNELS, 0);
	di.attempts = l2s_attr_u32(tb, L2TPSEL_A_ATTEMPTS, 0);
	di.failures = l2s_attr_u32(tb, L2TPSEL_A_FAILURES, 0);
	c->fn(c->ctx, &di);
	return MNL_CB_OK;
}

/* The module's destinations: a DEST_GET dump, what "l2tpsel destination show" reads. */
static int knl_dests(struct l2d *d, l2d_dest_fn fn, void *ctx)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct dest_ctx c = { fn, ctx };
	struct nlmsghdr *nlh = l2s_nl_req(nl_of(d), buf, L2TPSEL_CMD_DEST_GET, NLM_F_DUMP);

	return talk(d, nlh, dest_cb, &c, "DEST_GET");
}

const struct l2d_kops l2d_kops_netlink = {
	.dests = knl_dests,
	.errmsg = knl_errmsg,
	.rl_check = knl_rl_check,
	.name = "netlink",
	.login_begin = knl_begin,
	.login_report = knl_report,
	.session_up = knl_session_up,
	.session_down = knl_session_down,
	.fini = knl_fini,
};
