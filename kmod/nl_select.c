// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink handlers of tunnel selection: profiles, tunnels, the domain map,
 * destinations and lockouts (documented in uapi/linux/l2tpsel.h); the
 * logins' are in nl_login.c.  The state and its rules are in profile.c,
 * lockout.c and the core; this file checks the attributes, takes ln->lock and builds
 * replies and dumps.
 */
#include <net/genetlink.h>
#include <net/sock.h>
#include <linux/l2tpsel.h>

#include "l2tpsel.h"
#include "nl_select.h"

const struct nla_policy ks_profile_policy[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_NAME]		= SNAME_POLICY,
	[L2TPSEL_A_FAILOVER]		= NLA_POLICY_MAX(NLA_U8, L2TPSEL_FAILOVER_WITHIN_LEVEL),
	[L2TPSEL_A_LB]			= NLA_POLICY_MAX(NLA_U8, L2TPSEL_LB_MINMISS_HASH),
	[L2TPSEL_A_FAILOVER_CDN]	= { .type = NLA_U32 },
	[L2TPSEL_A_FAILOVER_STOPCCN]	= { .type = NLA_U32 },
};

const struct nla_policy ks_sname_policy[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_NAME] = SNAME_POLICY,
};

const struct nla_policy ks_tunnel_new_policy[L2TPSEL_A_MAX + 1] = {
	KS_TUNNEL_POLICY,
	[L2TPSEL_A_PROFILE]		= SNAME_POLICY,
};

const struct nla_policy ks_tunnel_del_policy[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_NAME]	= SNAME_POLICY,
	[L2TPSEL_A_PROFILE]	= SNAME_POLICY,
};

const struct nla_policy ks_tunnel_get_policy[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_PROFILE]	= SNAME_POLICY,
};

const struct nla_policy ks_domain_policy[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_DOMAIN]	= SNAME_POLICY,
	[L2TPSEL_A_PROFILE]	= SNAME_POLICY,
};

const struct nla_policy ks_domain_del_policy[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_DOMAIN]	= SNAME_POLICY,
};

const struct nla_policy ks_lockout_set_policy[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_LOCKOUT_TIME]	= { .type = NLA_U32 },
	[L2TPSEL_A_MAX_LOGINS]		= { .type = NLA_U32 },
};

const struct nla_policy ks_lockout_clear_policy[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_REMOTE]	= ADDR_POLICY,
	[L2TPSEL_A_LOCAL]	= ADDR_POLICY,
};

const struct nla_policy ks_tunnel_drain_policy[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_NAME]	= SNAME_POLICY,
	[L2TPSEL_A_PROFILE]	= SNAME_POLICY,
	[L2TPSEL_A_DRAIN]	= NLA_POLICY_MAX(NLA_U8, 1),
};

const struct nla_policy ks_dest_drain_policy[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_REMOTE]	= ADDR_POLICY,
	[L2TPSEL_A_LOCAL]	= ADDR_POLICY,
	[L2TPSEL_A_PORT]	= { .type = NLA_U16 },
	[L2TPSEL_A_DRAIN]	= NLA_POLICY_MAX(NLA_U8, 1),
};

const struct nla_policy ks_dest_lock_policy[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_REMOTE]		= ADDR_POLICY,
	[L2TPSEL_A_LOCAL]		= ADDR_POLICY,
	[L2TPSEL_A_PORT]		= { .type = NLA_U16 },
	[L2TPSEL_A_LOCKOUT_REMAINING]	= { .type = NLA_U32 },
};

/* ---- attribute helpers ----------------------------------------------- */

static int ks_sel_put_addr(struct sk_buff *msg, int type, const struct l2s_addr *a)
{
	if (a->family != 4 && a->family != 6)
		return 0;
	return nla_put(msg, type, a->family == 4 ? 4 : 16, a->bytes);
}

static int ks_sel_put_dest(struct sk_buff *msg, const struct l2s_dest *d)
{
	return ks_sel_put_addr(msg, L2TPSEL_A_REMOTE, &d->key.remote) ||
	       nla_put_u16(msg, L2TPSEL_A_PORT, d->key.port) ||
	       ks_sel_put_addr(msg, L2TPSEL_A_LOCAL, &d->key.local);
}

/* A login's own tunnel set cannot be changed: true, with a message, for one. */
static bool ks_nl_set_refused(struct genl_info *info, const struct ks_profile *kp, int type)
{
	if (!kp->set)
		return false;
	ks_msg(info, info->attrs[type],
	       "profile %s is a login's own tunnel set: it cannot be changed",
	       (char *)nla_data(info->attrs[type]));
	return true;
}

/* The end of a change: its refusal's message on @attr, or the generation moved. */
static int ks_sel_changed(struct genl_info *info, struct l2tpsel_net *ln,
			  const struct nlattr *attr, const struct l2s_err *err, int ret)
{
	if (ret)
		return ks_nl_err(info, attr, err, ret);
	ks_gen_bump(ln);
	return 0;
}

/* A profile named by a required attribute; NULL with a message otherwise (ln->lock). */
struct ks_profile *ks_nl_profile(struct genl_info *info, struct l2tpsel_net *ln, int type)
{
	struct ks_profile *kp = ks_profile_find(ln, nla_data(info->attrs[type]));

	if (!kp)
		ks_msg(info, info->attrs[type], "profile %s does not exist",
		       (char *)nla_data(info->attrs[type]));
	return kp;
}

/*
 * The profile PROFILE names, for a change of its tunnels: an ERR_PTR with
 * a message when there is none (-ENOENT) or it is a login's own tunnel set
 * (-EPERM).
 */
static struct ks_profile *ks_sel_tunnels_of(struct genl_info *info, struct l2tpsel_net *ln)
{
	struct ks_profile *kp = ks_nl_profile(info, ln, L2TPSEL_A_PROFILE);

	if (!kp)
		return ERR_PTR(-ENOENT);
	if (ks_nl_set_refused(info, kp, L2TPSEL_A_PROFILE))
		return ERR_PTR(-EPERM);
	return kp;
}

static u32 ks_lockout_left(const struct l2s_dest *d, u64 now)
{
	u64 left = d->lock_until > now ? d->lock_until - now : 0;

	return left > U32_MAX ? U32_MAX : (u32)left;
}

/* ---- fills ----------------------------------------------------------- */

static int ks_sel_fill_profile(struct sk_buff *msg, const struct l2s_profile *p)
{
	return nla_put_string(msg, L2TPSEL_A_NAME, p->name) ||
	       nla_put_u8(msg, L2TPSEL_A_FAILOVER, p->failover) ||
	       nla_put_u8(msg, L2TPSEL_A_LB, p->lb) ||
	       nla_put_u32(msg, L2TPSEL_A_FAILOVER_CDN, p->failover_cdn) ||
	       nla_put_u32(msg, L2TPSEL_A_FAILOVER_STOPCCN, p->failover_stopccn) ||
	       nla_put_u32(msg, L2TPSEL_A_N_TUNNELS, p->ntunnels) ||
	       nla_put_u32(msg, L2TPSEL_A_N_LEVELS, p->nlevels) ||
	       nla_put_u32(msg, L2TPSEL_A_N_DESTS, p->ndests) ||
	       nla_put_u8(msg, L2TPSEL_A_DYNAMIC, l2s_profile_is_set(p->name)) ? -EMSGSIZE : 0;
}

/*
 * A tunnel as GET and steps show it (HAS_SECRET: one was given; the module
 * keeps no secret, l2tpseld holds them).  @d is its destination.
 */
static int ks_sel_fill_tunnel(struct sk_buff *msg, const struct l2s_core *c,
			      const struct l2s_profile *p, u32 i)
{
	const struct l2s_tunnel *t = &p->t[i];
	const struct l2s_dest *d = l2s_dest_at(c, t->dest);
	u8 drain = (t->drain ? L2TPSEL_DRAIN_TUNNEL : 0) |
		   (l2s_dest_drained(c, t->dest) ? L2TPSEL_DRAIN_DEST : 0);

	return nla_put_string(msg, L2TPSEL_A_NAME, t->name) ||
	       nla_put_string(msg, L2TPSEL_A_PROFILE, p->name) ||
	       nla_put_u8(msg, L2TPSEL_A_SEL_LEVEL, t->level) ||
	       ks_sel_put_dest(msg, d) ||
	       nla_put_u32(msg, L2TPSEL_A_MAX_SESSIONS, t->max_sessions) ||
	       (t->group[0] && nla_put_string(msg, L2TPSEL_A_TGROUP, t->group)) ||
	       nla_put_u32(msg, L2TPSEL_A_SESSIONS, t->sessions) ||
	       nla_put_u8(msg, L2TPSEL_A_HAS_SECRET, t->has_secret) ||
	       nla_put_u32(msg, L2TPSEL_A_IN_FLIGHT, t->inflight) ||
	       nla_put_u8(msg, L2TPSEL_A_DRAIN, drain) ? -EMSGSIZE : 0;
}

static int ks_sel_fill_domain(struct sk_buff *msg, const struct l2s_domain *e)
{
	return nla_put_string(msg, L2TPSEL_A_DOMAIN, e->name) ||
	       nla_put_string(msg, L2TPSEL_A_PROFILE, e->profile) ? -EMSGSIZE : 0;
}

static int ks_sel_fill_dest(struct sk_buff *msg, const struct l2s_core *c, u32 slot, u64 now)
{
	const struct l2s_dest *d = l2s_dest_at(c, slot);

	return ks_sel_put_dest(msg, d) ||
	       nla_put_u32(msg, L2TPSEL_A_LOCKOUT_REMAINING, ks_lockout_left(d, now)) ||
	       nla_put_u32(msg, L2TPSEL_A_SESSIONS, d->sessions) ||
	       nla_put_u32(msg, L2TPSEL_A_N_TUNNELS, d->refs) ||
	       nla_put_u32(msg, L2TPSEL_A_ATTEMPTS, d->attempts) ||
	       nla_put_u32(msg, L2TPSEL_A_FAILURES, d->failures) ||
	       nla_put_u32(msg, L2TPSEL_A_IN_FLIGHT, d->inflight) ||
	       nla_put_u8(msg, L2TPSEL_A_DRAIN,
			  l2s_dest_drained(c, slot) ? L2TPSEL_DRAIN_DEST : 0) ? -EMSGSIZE : 0;
}

/*
 * One step of a login: ATTEMPT with its tunnel, or DONE with the result.
 * @c: the core the step was taken on (live under ln->lock, or a dry run's).
 */
int ks_sel_fill_step(struct sk_buff *msg, const struct l2s_core *c,
		     const struct l2s_profile *p, const struct l2s_step *st)
{
	if (nla_put_u8(msg, L2TPSEL_A_STEP, st->kind))
		return -EMSGSIZE;
	if (st->kind == L2S_STEP_DONE &&
	    (nla_put_u8(msg, L2TPSEL_A_OK, st->ok) || nla_put_u8(msg, L2TPSEL_A_WHY, st->why)))
		return -EMSGSIZE;
	if (!p || st->tunnel == L2S_NO_INDEX || st->tunnel >= p->ntunnels)
		return 0;
	return ks_sel_fill_tunnel(msg, c, p, st->tunnel) ||
	       nla_put_u8(msg, L2TPSEL_A_SETUP, st->setup) ||
	       nla_put_u8(msg, L2TPSEL_A_SHORTEST, st->shortest) ? -EMSGSIZE : 0;
}

/* ---- profiles -------------------------------------------------------- */

int ks_nl_profile_change(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	u8 cmd = info->genlhdr->cmd;
	struct l2s_err err = { };
	struct l2tpsel_net *ln = ks_ln(info);
	struct ks_profile *kp;
	struct l2s_profile *p;
	const char *name;
	int ret = 0;

	name = ks_nl_name(info, L2TPSEL_A_NAME, "profile");
	if (!name)
		return -EINVAL;
	if (cmd == L2TPSEL_CMD_PROFILE_NEW) {
		ret = ks_profile_new(ln, name, &kp, &err);
		if (ret) {
			ks_nl_err(info, a[L2TPSEL_A_NAME], &err, ret);
			return ret;
		}
	} else {
		kp = ks_nl_profile(info, ln, L2TPSEL_A_NAME);
		if (!kp)
			return -ENOENT;
	}
	if (cmd == L2TPSEL_CMD_PROFILE_SET && ks_nl_set_refused(info, kp, L2TPSEL_A_NAME))
		return -EPERM;
	if (cmd == L2TPSEL_CMD_PROFILE_DEL) {
		ret = ks_profile_del(ln, kp, &err);
		return ks_sel_changed(info, ln, a[L2TPSEL_A_NAME], &err, ret);
	}
	p = &kp->p;
	if (a[L2TPSEL_A_FAILOVER])
		p->failover = nla_get_u8(a[L2TPSEL_A_FAILOVER]);
	if (a[L2TPSEL_A_LB])
		p->lb = nla_get_u8(a[L2TPSEL_A_LB]);
	if (a[L2TPSEL_A_FAILOVER_CDN])
		p->failover_cdn = nla_get_u32(a[L2TPSEL_A_FAILOVER_CDN]);
	if (a[L2TPSEL_A_FAILOVER_STOPCCN])
		p->failover_stopccn = nla_get_u32(a[L2TPSEL_A_FAILOVER_STOPCCN]);
	ks_gen_bump(ln);
	return ret;
}

static int ks_sel_profile_fill(struct sk_buff *msg, struct l2tpsel_net *ln, const void *name)
{
	struct ks_profile *kp = ks_profile_find(ln, name);

	return kp ? ks_sel_fill_profile(msg, &kp->p) : -ENOENT;
}

int ks_nl_profile_get(struct sk_buff *skb, struct genl_info *info)
{
	const char *name = ks_nl_name(info, L2TPSEL_A_NAME, "profile");
	int ret;

	if (!name)
		return -EINVAL;
	ret = ks_reply_get(info, L2TPSEL_CMD_PROFILE_GET, ks_sel_profile_fill, name);
	if (ret == -ENOENT)
		ks_msg(info, info->attrs[L2TPSEL_A_NAME], "profile %s does not exist", name);
	return ret;
}

/*
 * Dumps resume from cb->ctx: [0] the next object id (or destination slot),
 * [1] the next tunnel index within that profile.  Each part is built under
 * ln->lock (ks_dump_begin()).
 */
struct ks_sel_dump_ctx {
	unsigned long next;
	unsigned long sub;
};

int ks_nl_profile_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct ks_sel_dump_ctx *ctx = (void *)cb->ctx;
	struct l2tpsel_net *ln;
	struct ks_obj *o;
	unsigned long id;
	int ret = 0;
	void *hdr;

	BUILD_BUG_ON(sizeof(*ctx) > sizeof(cb->ctx));
	ln = l2tpsel_pernet(sock_net(skb->sk));
	ks_dump_begin(cb, ln);
	xa_for_each_start(&ln->sel.profiles.xa, id, o, ctx->next) {
		const struct ks_profile *kp = container_of(o, struct ks_profile, obj);

		hdr = ks_dump_put(skb, cb, L2TPSEL_CMD_PROFILE_GET);
		ret = ks_dump_close(skb, hdr, hdr && ks_sel_fill_profile(skb, &kp->p));
		if (ret)
			break;
		ctx->next = id + 1;
	}
	return ks_dump_end(skb, ln, ret);
}

/* ---- tunnels --------------------------------------------------------- */

/*
 * A tunnel's settings from TUNNEL_NEW's attributes or a TUNNELS entry's
 * (@a); @where prefixes the messages ("" or "TUNNELS entry N: ").  The
 * strings point into the request.
 */
int ks_nl_tunnel_conf(struct genl_info *info, struct nlattr **a, const char *where,
		      struct l2s_tunnel_conf *tc)
{
	static const int req[] = { L2TPSEL_A_NAME, L2TPSEL_A_SEL_LEVEL, L2TPSEL_A_REMOTE };
	static const char *const req_name[] = { "NAME", "SEL_LEVEL", "REMOTE" };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(req); i++) {
		if (a == info->attrs && ks_nl_missing(info, req[i]))
			return -EINVAL;
		if (!a[req[i]]) {
			ks_msg(info, NULL, "%smissing attribute %s", where, req_name[i]);
			return -EINVAL;
		}
	}
	memset(tc, 0, sizeof(*tc));
	tc->name = nla_data(a[L2TPSEL_A_NAME]);
	tc->group = a[L2TPSEL_A_TGROUP] ? nla_data(a[L2TPSEL_A_TGROUP]) : NULL;
	tc->secret = a[L2TPSEL_A_SECRET] ? nla_data(a[L2TPSEL_A_SECRET]) : NULL;
	tc->level = nla_get_u8(a[L2TPSEL_A_SEL_LEVEL]);
	tc->max_sessions = a[L2TPSEL_A_MAX_SESSIONS] ? nla_get_u32(a[L2TPSEL_A_MAX_SESSIONS]) : 0;
	tc->dest.port = a[L2TPSEL_A_PORT] ? nla_get_u16(a[L2TPSEL_A_PORT]) : L2S_DEFAULT_PORT;
	if (ks_nl_addr_attr(info, a[L2TPSEL_A_REMOTE], where, &tc->dest.remote) ||
	    ks_nl_addr_attr(info, a[L2TPSEL_A_LOCAL], where, &tc->dest.local))
		return -EINVAL;
	if (tc->dest.local.family && tc->dest.local.family != tc->dest.remote.family) {
		ks_msg(info, a[L2TPSEL_A_LOCAL],
		       "%slocal and remote addresses of different families", where);
		return -EINVAL;
	}
	return 0;
}

int ks_nl_tunnel_new(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct l2s_tunnel_conf tc = { };
	struct l2s_err err = { };
	struct l2tpsel_net *ln = ks_ln(info);
	struct ks_profile *kp;
	int ret;

	if (ks_nl_missing(info, L2TPSEL_A_PROFILE))
		return -EINVAL;
	ret = ks_nl_tunnel_conf(info, a, "", &tc);
	if (ret)
		return ret;
	kp = ks_sel_tunnels_of(info, ln);
	if (IS_ERR(kp))
		return PTR_ERR(kp);
	ret = ks_tunnel_add(ln, kp, &tc, &err);
	if (ret < 0) {
		ks_nl_err(info, NULL, &err, ret);
		return ret;
	}
	ks_gen_bump(ln);
	return 0;
}

int ks_nl_tunnel_del(struct sk_buff *skb, struct genl_info *info)
{
	struct l2s_err err = { };
	struct l2tpsel_net *ln = ks_ln(info);
	struct ks_profile *kp;
	int ret;

	if (!ks_nl_name(info, L2TPSEL_A_NAME, "tunnel") ||
	    !ks_nl_name(info, L2TPSEL_A_PROFILE, "profile"))
		return -EINVAL;
	kp = ks_sel_tunnels_of(info, ln);
	if (IS_ERR(kp))
		return PTR_ERR(kp);
	ret = ks_tunnel_del(ln, kp, nla_data(info->attrs[L2TPSEL_A_NAME]), &err);
	return ks_sel_changed(info, ln, info->attrs[L2TPSEL_A_NAME], &err, ret);
}

int ks_nl_tunnel_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_dumpit_info *di = genl_dumpit_info(cb);
	struct ks_sel_dump_ctx *ctx = (void *)cb->ctx;
	const struct nlattr *filter = di->attrs[L2TPSEL_A_PROFILE];
	struct l2tpsel_net *ln;
	struct ks_obj *o;
	unsigned long id;
	int ret = 0;
	void *hdr;

	ln = l2tpsel_pernet(sock_net(skb->sk));
	ks_dump_begin(cb, ln);
	xa_for_each_start(&ln->sel.profiles.xa, id, o, ctx->next) {
		const struct l2s_profile *p = &container_of(o, struct ks_profile, obj)->p;

		/* The profile the cursor stopped inside is gone: start this one whole. */
		if (id != ctx->next)
			ctx->sub = 0;
		if (filter && strcmp(p->name, nla_data(filter)))
			goto next;
		for (; ctx->sub < p->ntunnels; ctx->sub++) {
			hdr = ks_dump_put(skb, cb, L2TPSEL_CMD_TUNNEL_GET);
			ret = ks_dump_close(skb, hdr, hdr &&
					    ks_sel_fill_tunnel(skb, &ln->sel.core, p, ctx->sub));
			if (ret) {
				ctx->next = id;
				goto out;
			}
		}
next:
		ctx->next = id + 1;
		ctx->sub = 0;
	}
out:
	return ks_dump_end(skb, ln, ret);
}

/* ---- domains --------------------------------------------------------- */

int ks_nl_domain_new(struct sk_buff *skb, struct genl_info *info)
{
	struct l2s_err err = { };
	struct l2tpsel_net *ln = ks_ln(info);
	const char *domain, *profile;
	int ret;

	domain = ks_nl_name(info, L2TPSEL_A_DOMAIN, "domain");
	profile = domain ? ks_nl_name(info, L2TPSEL_A_PROFILE, "profile") : NULL;
	if (!profile)
		return -EINVAL;
	ret = ks_domain_set(ln, domain, profile, &err);
	return ks_sel_changed(info, ln, NULL, &err, ret);
}

int ks_nl_domain_del(struct sk_buff *skb, struct genl_info *info)
{
	struct l2s_err err = { };
	struct l2tpsel_net *ln = ks_ln(info);
	const char *domain;
	int ret;

	domain = ks_nl_name(info, L2TPSEL_A_DOMAIN, "domain");
	if (!domain)
		return -EINVAL;
	ret = ks_domain_del(ln, domain, &err);
	return ks_sel_changed(info, ln, info->attrs[L2TPSEL_A_DOMAIN], &err, ret);
}

int ks_nl_domain_get(struct sk_buff *skb, struct genl_info *info)
{
	struct l2tpsel_net *ln;
	struct l2s_domain *e;
	struct sk_buff *msg;
	const char *domain;
	void *hdr;
	int fail;

	domain = ks_nl_name(info, L2TPSEL_A_DOMAIN, "domain");
	if (!domain)
		return -EINVAL;
	msg = ks_reply_new(info, L2TPSEL_CMD_DOMAIN_GET, &hdr);
	if (!msg)
		return -ENOMEM;
	ln = ks_ln(info);
	ks_lock(ln);
	e = l2s_domain_find(&ln->sel.core, domain);
	fail = e ? ks_sel_fill_domain(msg, e) : 0;
	ks_unlock(ln);
	if (!e) {
		nlmsg_free(msg);
		ks_msg(info, info->attrs[L2TPSEL_A_DOMAIN], "no domain %s", domain);
		return -ENOENT;
	}
	return ks_reply_send(info, msg, hdr, fail);
}

/*
 * In the map's (hash, name) order; ctx->next is the map's cursor
 * (l2s_dmap_next()) past the last entry sent, so a part resumes where the
 * last one ended whatever was added, deleted or rehashed since.
 */
int ks_nl_domain_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct ks_sel_dump_ctx *ctx = (void *)cb->ctx;
	struct l2tpsel_net *ln;
	struct l2s_domain *e;
	int ret = 0;
	void *hdr;
	u64 pos;

	BUILD_BUG_ON(sizeof(ctx->next) < sizeof(pos));
	ln = l2tpsel_pernet(sock_net(skb->sk));
	ks_dump_begin(cb, ln);
	pos = ctx->next;
	while ((e = l2s_dmap_next(&ln->sel.core.domains, &pos))) {
		hdr = ks_dump_put(skb, cb, L2TPSEL_CMD_DOMAIN_GET);
		ret = ks_dump_close(skb, hdr, hdr && ks_sel_fill_domain(skb, e));
		if (ret)
			break;
		ctx->next = pos;
	}
	return ks_dump_end(skb, ln, ret);
}

/* ---- destinations and lockouts --------------------------------------- */

int ks_nl_dest_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct ks_sel_dump_ctx *ctx = (void *)cb->ctx;
	struct l2tpsel_net *ln;
	const struct l2s_dest *d;
	int ret = 0;
	void *hdr;
	u64 now;
	u32 i;

	/* A lockout whose deadline passed shows 0 ms left; the expiry work reports its end. */
	ln = l2tpsel_pernet(sock_net(skb->sk));
	now = ktime_to_ms(ktime_get_boottime());
	ks_dump_begin(cb, ln);
	for (i = ctx->next; (d = l2s_dest_walk(&ln->sel.core, i)); i++) {
		if (!d->refs)
			continue;
		hdr = ks_dump_put(skb, cb, L2TPSEL_CMD_DEST_GET);
		ret = ks_dump_close(skb, hdr, hdr && ks_sel_fill_dest(skb, &ln->sel.core, i, now));
		if (ret)
			break;
		ctx->next = i + 1;
	}
	return ks_dump_end(skb, ln, ret);
}

int ks_nl_lockout_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct l2s_err err = { };
	struct l2tpsel_net *ln = ks_ln(info);
	int ret = 0;

	if (!a[L2TPSEL_A_LOCKOUT_TIME] && !a[L2TPSEL_A_MAX_LOGINS]) {
		NL_SET_ERR_MSG_MOD(info->extack, "nothing to set: give LOCKOUT_TIME or MAX_LOGINS");
		return -EINVAL;
	}
	if (a[L2TPSEL_A_MAX_LOGINS]) {
		u32 m = nla_get_u32(a[L2TPSEL_A_MAX_LOGINS]);

		if (m < 1 || m > KS_MAX_LOGINS_LIMIT) {
			ks_msg(info, a[L2TPSEL_A_MAX_LOGINS], "max-logins %u: must be 1..%u",
			       m, KS_MAX_LOGINS_LIMIT);
			return -ERANGE;
		}
	}
	if (a[L2TPSEL_A_LOCKOUT_TIME]) {
		/* Running lockouts keep their deadline; new ones use the new time. */
		ret = l2s_set_lockout_time(&ln->sel.core, nla_get_u32(a[L2TPSEL_A_LOCKOUT_TIME]),
					   &err);
		if (ret) {
			ks_nl_err(info, a[L2TPSEL_A_LOCKOUT_TIME], &err, ret);
			return ret;
		}
	}
	if (a[L2TPSEL_A_MAX_LOGINS])
		ln->sel.max_logins = nla_get_u32(a[L2TPSEL_A_MAX_LOGINS]);
	ks_gen_bump(ln);
	return ret;
}

static int ks_sel_lockout_fill(struct sk_buff *msg, struct l2tpsel_net *ln, const void *unused)
{
	u32 lockout_s = ln->sel.core.lockout_ms / 1000;

	return nla_put_u32(msg, L2TPSEL_A_LOCKOUT_TIME, lockout_s) ||
	       nla_put_u32(msg, L2TPSEL_A_MAX_LOGINS, ln->sel.max_logins) ||
	       nla_put_u32(msg, L2TPSEL_A_N_LOGINS, ln->sel.n_logins) ||
	       nla_put_u32(msg, L2TPSEL_A_N_LOCKED, ks_locked_count(ln)) ? -EMSGSIZE : 0;
}

int ks_nl_lockout_get(struct sk_buff *skb, struct genl_info *info)
{
	return ks_reply_get(info, L2TPSEL_CMD_LOCKOUT_GET, ks_sel_lockout_fill, NULL);
}

/*
 * The start of a request on destinations by address: REMOTE and LOCAL
 * read (each optional here), the reply of @cmd made, ln->lock taken.
 * Return: 0, or -EINVAL (a bad address, with a message) or -ENOMEM.
 */
static int ks_sel_dest_begin(struct genl_info *info, u8 cmd, struct l2s_addr *remote,
			     struct l2s_addr *local, struct sk_buff **msg, void **hdr)
{
	if (ks_nl_addr(info, L2TPSEL_A_REMOTE, remote) ||
	    ks_nl_addr(info, L2TPSEL_A_LOCAL, local))
		return -EINVAL;
	*msg = ks_reply_new(info, cmd, hdr);
	if (!*msg)
		return -ENOMEM;
	ks_lock(ks_ln(info));
	return 0;
}

int ks_nl_lockout_clear(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct l2s_addr local, remote;
	struct ks_env_ctx ec = { };
	struct l2tpsel_net *ln;
	struct sk_buff *msg;
	struct l2s_env env;
	void *hdr;
	int ret;
	u32 n;

	/* One of the two at most: the order they are read in does not matter. */
	if (a[L2TPSEL_A_LOCAL] && a[L2TPSEL_A_REMOTE]) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[L2TPSEL_A_REMOTE],
				    "clear by LOCAL or by REMOTE, not both");
		return -EINVAL;
	}
	ret = ks_sel_dest_begin(info, L2TPSEL_CMD_LOCKOUT_CLEAR, &remote, &local, &msg, &hdr);
	if (ret)
		return ret;
	ln = ks_ln(info);
	ec.ln = ln;
	ks_sel_env(ln, &env, &ec);
	n = l2s_lockout_clear(&ln->sel.core, a[L2TPSEL_A_LOCAL] ? &local : NULL,
			      a[L2TPSEL_A_REMOTE] ? &remote : NULL, &env);
	if (n)
		ks_gen_bump(ln);
	ks_unlock(ln);
	return ks_reply_send(info, msg, hdr, nla_put_u32(msg, L2TPSEL_A_N_LOCKED, n));
}

int ks_nl_dest_lock(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct l2s_addr local, remote;
	struct l2s_err err = { };
	struct l2tpsel_net *ln = ks_ln(info);
	struct sk_buff *msg;
	u32 ms;
	void *hdr;
	int ret;

	if (ks_nl_missing(info, L2TPSEL_A_REMOTE) ||
	    ks_nl_missing(info, L2TPSEL_A_LOCKOUT_REMAINING))
		return -EINVAL;
	ms = nla_get_u32(a[L2TPSEL_A_LOCKOUT_REMAINING]);
	if (ms > L2S_MAX_LOCKOUT_MS) {
		ks_msg(info, a[L2TPSEL_A_LOCKOUT_REMAINING], "lockout of %u ms: at most %u ms",
		       ms, L2S_MAX_LOCKOUT_MS);
		return -ERANGE;
	}
	ret = ks_sel_dest_begin(info, L2TPSEL_CMD_DEST_LOCK, &remote, &local, &msg, &hdr);
	if (ret)
		return ret;
	ret = ks_dest_lock(ln, &remote, a[L2TPSEL_A_PORT] ? nla_get_u16(a[L2TPSEL_A_PORT]) : 0,
			   a[L2TPSEL_A_LOCAL] ? &local : NULL, ms, &err);
	if (ret > 0)
		ks_gen_bump(ln);
	ks_unlock(ln);
	if (ret < 0) {
		nlmsg_free(msg);
		return ks_nl_err(info, a[L2TPSEL_A_REMOTE], &err, ret);
	}
	return ks_reply_send(info, msg, hdr, nla_put_u32(msg, L2TPSEL_A_N_LOCKED, ret));
}

/*
 * S-OPS-1: a tunnel takes no new login while drained; its sessions stay.
 * Not for a login's own tunnel set (-EPERM), as no change of it is.
 */
int ks_nl_tunnel_drain(struct sk_buff *skb, struct genl_info *info)
{
	struct l2tpsel_net *ln = ks_ln(info);
	struct ks_profile *kp;
	int t;

	if (!ks_nl_name(info, L2TPSEL_A_NAME, "tunnel") ||
	    !ks_nl_name(info, L2TPSEL_A_PROFILE, "profile") ||
	    ks_nl_missing(info, L2TPSEL_A_DRAIN))
		return -EINVAL;
	kp = ks_sel_tunnels_of(info, ln);
	if (IS_ERR(kp))
		return PTR_ERR(kp);
	t = l2s_tunnel_find(&kp->p, nla_data(info->attrs[L2TPSEL_A_NAME]));
	if (t < 0) {
		ks_msg(info, info->attrs[L2TPSEL_A_NAME], "no tunnel %s in profile %s",
		       (char *)nla_data(info->attrs[L2TPSEL_A_NAME]), kp->p.name);
		return -ENOENT;
	}
	kp->p.t[t].drain = nla_get_u8(info->attrs[L2TPSEL_A_DRAIN]);
	ks_gen_bump(ln);
	return 0;
}

/* S-OPS-1: every destination with that remote address (narrowed by PORT, LOCAL). */
int ks_nl_dest_drain(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct l2tpsel_net *ln = ks_ln(info);
	struct l2s_dest_key k = { };
	struct sk_buff *msg;
	void *hdr;
	int ret;
	u32 n;

	if (ks_nl_missing(info, L2TPSEL_A_REMOTE) || ks_nl_missing(info, L2TPSEL_A_DRAIN))
		return -EINVAL;
	if (a[L2TPSEL_A_PORT])
		k.port = nla_get_u16(a[L2TPSEL_A_PORT]);
	ret = ks_sel_dest_begin(info, L2TPSEL_CMD_DEST_DRAIN, &k.remote, &k.local, &msg, &hdr);
	if (ret)
		return ret;
	n = l2s_dest_drain_match(&ln->sel.core, &k, !!k.port, !!a[L2TPSEL_A_LOCAL],
				 nla_get_u8(a[L2TPSEL_A_DRAIN]));
	if (n)
		ks_gen_bump(ln);
	ks_unlock(ln);
	if (!n) {
		nlmsg_free(msg);
		ks_msg(info, a[L2TPSEL_A_REMOTE], "no destination with that remote address%s",
		       a[L2TPSEL_A_PORT] || a[L2TPSEL_A_LOCAL] ? ", port and local address" : "");
		return -ENOENT;
	}
	return ks_reply_send(info, msg, hdr, nla_put_u32(msg, L2TPSEL_A_N_DESTS, n));
}
