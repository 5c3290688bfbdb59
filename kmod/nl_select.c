// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink handlers of tunnel selection: profiles, tunnels, the domain map,
 * destinations, lockouts and logins (documented in uapi/linux/l2tpsel.h).
 * The state and its rules are in select.c and the core; this file checks
 * the attributes, takes ln->lock and builds replies, dumps and events.
 */
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/sock.h>
#include <linux/l2tpsel.h>

#include "events.h"
#include "l2tpsel.h"
#include "hash.h"
#include "ratelimit.h"

/* Lengths are checked by the core, so that its message names the bound. */
#define SNAME_POLICY	{ .type = NLA_NUL_STRING, .len = 255 }
#define ADDR_POLICY	NLA_POLICY_RANGE(NLA_BINARY, 4, 16)

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

/* A tunnel's own attributes: TUNNEL_NEW's, and each entry of a login's TUNNELS. */
#define KS_TUNNEL_POLICY						\
	[L2TPSEL_A_NAME]		= SNAME_POLICY,			\
	[L2TPSEL_A_SEL_LEVEL]		= { .type = NLA_U8 },		\
	[L2TPSEL_A_REMOTE]		= ADDR_POLICY,			\
	[L2TPSEL_A_LOCAL]		= ADDR_POLICY,			\
	[L2TPSEL_A_PORT]		= { .type = NLA_U16 },		\
	[L2TPSEL_A_MAX_SESSIONS]	= { .type = NLA_U32 },		\
	[L2TPSEL_A_TGROUP]		= SNAME_POLICY,			\
	[L2TPSEL_A_SECRET]		= SNAME_POLICY

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

static const struct nla_policy ks_picks_policy[L2TPSEL_A_NAME + 1] = {
	[L2TPSEL_A_NAME] = SNAME_POLICY,
};

/* A tunnel of a login's own set: TUNNEL_NEW's attributes without PROFILE. */
static const struct nla_policy ks_set_entry_policy[L2TPSEL_A_MAX + 1] = {
	KS_TUNNEL_POLICY,
};

const struct nla_policy ks_login_begin_policy[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_USER]	= SNAME_POLICY,
	[L2TPSEL_A_PROFILE]	= SNAME_POLICY,
	[L2TPSEL_A_KEY]		= SNAME_POLICY,
	[L2TPSEL_A_PICKS]	= NLA_POLICY_NESTED(ks_picks_policy),
	[L2TPSEL_A_TUNNELS]	= NLA_POLICY_NESTED_ARRAY(ks_set_entry_policy),
	[L2TPSEL_A_RL_ASK]	= { .type = NLA_FLAG },
};

const struct nla_policy ks_login_test_policy[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_USER]	= SNAME_POLICY,
	[L2TPSEL_A_PROFILE]	= SNAME_POLICY,
	[L2TPSEL_A_KEY]		= SNAME_POLICY,
};

const struct nla_policy ks_login_report_policy[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_LOGIN_ID]	= { .type = NLA_U32 },
	[L2TPSEL_A_OUTCOME]	= NLA_POLICY_RANGE(NLA_U8, L2TPSEL_OUTCOME_OK,
						   L2TPSEL_OUTCOME_LOCAL),
	[L2TPSEL_A_RESULT_CODE]	= { .type = NLA_U16 },
	[L2TPSEL_A_ERROR_CODE]	= { .type = NLA_U16 },
	[L2TPSEL_A_SESSION_KEY]	= { .type = NLA_U64 },
	[L2TPSEL_A_TUNNEL_ID]	= { .type = NLA_U32 },
	[L2TPSEL_A_DETACHED]	= { .type = NLA_FLAG },
	[L2TPSEL_A_RL_ASK]	= { .type = NLA_FLAG },
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

/* A profile named by a required attribute; NULL with a message otherwise (ln->lock). */
static struct ks_profile *ks_nl_profile(struct genl_info *info, struct l2tpsel_net *ln,
					int type)
{
	struct ks_profile *kp = ks_profile_find(ln, nla_data(info->attrs[type]));

	if (!kp)
		ks_msg(info, info->attrs[type], "profile %s does not exist",
		       (char *)nla_data(info->attrs[type]));
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
static int ks_sel_fill_step(struct sk_buff *msg, const struct l2s_core *c,
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
	ks_lock(ln);
	if (cmd == L2TPSEL_CMD_PROFILE_NEW) {
		ret = ks_profile_new(ln, name, &kp, &err);
		if (ret) {
			ks_nl_err(info, a[L2TPSEL_A_NAME], &err, ret);
			goto out;
		}
	} else {
		kp = ks_nl_profile(info, ln, L2TPSEL_A_NAME);
		if (!kp) {
			ret = -ENOENT;
			goto out;
		}
	}
	if (cmd == L2TPSEL_CMD_PROFILE_SET && ks_nl_set_refused(info, kp, L2TPSEL_A_NAME)) {
		ret = -EPERM;
		goto out;
	}
	if (cmd == L2TPSEL_CMD_PROFILE_DEL) {
		ret = ks_profile_del(ln, kp, &err);
		if (ret)
			ks_nl_err(info, a[L2TPSEL_A_NAME], &err, ret);
		else
			ks_gen_bump(ln);
		goto out;
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
out:
	ks_unlock(ln);
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
 * ln->lock; cb->seq carries the namespace's generation, so that a change
 * between two parts flags the next one NLM_F_DUMP_INTR.
 */
struct ks_sel_dump_ctx {
	unsigned long next;
	unsigned long sub;
};

static void *ks_sel_dump_put(struct sk_buff *skb, struct netlink_callback *cb, u8 cmd)
{
	void *hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
				&l2tpsel_genl_family, NLM_F_MULTI, cmd);

	if (hdr)
		genl_dump_check_consistent(cb, hdr);
	return hdr;
}

/* Start of one dump part: takes ln->lock. */
static void ks_sel_dump_begin(struct netlink_callback *cb, struct l2tpsel_net *ln)
{
	ks_lock(ln);
	cb->seq = ln->gen;
}

/* End of one dump part; an entry too big for an empty message is an error. */
static int ks_sel_dump_end(struct sk_buff *skb, struct l2tpsel_net *ln, int ret)
{
	ks_unlock(ln);
	if (ret == -EMSGSIZE && !skb->len)
		return -EMSGSIZE;
	return skb->len;
}

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
	ks_sel_dump_begin(cb, ln);
	xa_for_each_start(&ln->sel.profiles.xa, id, o, ctx->next) {
		const struct ks_profile *kp = container_of(o, struct ks_profile, obj);

		hdr = ks_sel_dump_put(skb, cb, L2TPSEL_CMD_PROFILE_GET);
		if (!hdr || ks_sel_fill_profile(skb, &kp->p)) {
			if (hdr)
				genlmsg_cancel(skb, hdr);
			ret = -EMSGSIZE;
			break;
		}
		genlmsg_end(skb, hdr);
		ctx->next = id + 1;
	}
	return ks_sel_dump_end(skb, ln, ret);
}

/* ---- tunnels --------------------------------------------------------- */

/*
 * A tunnel's settings from TUNNEL_NEW's attributes or a TUNNELS entry's
 * (@a); @where prefixes the messages ("" or "TUNNELS entry N: ").  The
 * strings point into the request.
 */
static int ks_nl_tunnel_conf(struct genl_info *info, struct nlattr **a, const char *where,
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
	ks_lock(ln);
	kp = ks_nl_profile(info, ln, L2TPSEL_A_PROFILE);
	if (!kp) {
		ret = -ENOENT;
		goto out;
	}
	if (ks_nl_set_refused(info, kp, L2TPSEL_A_PROFILE)) {
		ret = -EPERM;
		goto out;
	}
	ret = ks_tunnel_add(ln, kp, &tc, &err);
	if (ret < 0) {
		ks_nl_err(info, NULL, &err, ret);
		goto out;
	}
	ret = 0;
	ks_gen_bump(ln);
out:
	ks_unlock(ln);
	return ret;
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
	ks_lock(ln);
	kp = ks_nl_profile(info, ln, L2TPSEL_A_PROFILE);
	if (!kp) {
		ret = -ENOENT;
		goto out;
	}
	if (ks_nl_set_refused(info, kp, L2TPSEL_A_PROFILE)) {
		ret = -EPERM;
		goto out;
	}
	ret = ks_tunnel_del(ln, kp, nla_data(info->attrs[L2TPSEL_A_NAME]), &err);
	if (ret)
		ks_nl_err(info, info->attrs[L2TPSEL_A_NAME], &err, ret);
	else
		ks_gen_bump(ln);
out:
	ks_unlock(ln);
	return ret;
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
	ks_sel_dump_begin(cb, ln);
	xa_for_each_start(&ln->sel.profiles.xa, id, o, ctx->next) {
		const struct l2s_profile *p = &container_of(o, struct ks_profile, obj)->p;

		/* The profile the cursor stopped inside is gone: start this one whole. */
		if (id != ctx->next)
			ctx->sub = 0;
		if (filter && strcmp(p->name, nla_data(filter)))
			goto next;
		for (; ctx->sub < p->ntunnels; ctx->sub++) {
			hdr = ks_sel_dump_put(skb, cb, L2TPSEL_CMD_TUNNEL_GET);
			if (!hdr || ks_sel_fill_tunnel(skb, &ln->sel.core, p, ctx->sub)) {
				if (hdr)
					genlmsg_cancel(skb, hdr);
				ctx->next = id;
				ret = -EMSGSIZE;
				goto out;
			}
			genlmsg_end(skb, hdr);
		}
next:
		ctx->next = id + 1;
		ctx->sub = 0;
	}
out:
	return ks_sel_dump_end(skb, ln, ret);
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
	ks_lock(ln);
	ret = ks_domain_set(ln, domain, profile, &err);
	if (ret)
		ks_nl_err(info, NULL, &err, ret);
	else
		ks_gen_bump(ln);
	ks_unlock(ln);
	return ret;
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
	ks_lock(ln);
	ret = ks_domain_del(ln, domain, &err);
	if (ret)
		ks_nl_err(info, info->attrs[L2TPSEL_A_DOMAIN], &err, ret);
	else
		ks_gen_bump(ln);
	ks_unlock(ln);
	return ret;
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
	ks_sel_dump_begin(cb, ln);
	pos = ctx->next;
	while ((e = l2s_dmap_next(&ln->sel.core.domains, &pos))) {
		hdr = ks_sel_dump_put(skb, cb, L2TPSEL_CMD_DOMAIN_GET);
		if (!hdr || ks_sel_fill_domain(skb, e)) {
			if (hdr)
				genlmsg_cancel(skb, hdr);
			ret = -EMSGSIZE;
			break;
		}
		genlmsg_end(skb, hdr);
		ctx->next = pos;
	}
	return ks_sel_dump_end(skb, ln, ret);
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
	ks_sel_dump_begin(cb, ln);
	for (i = ctx->next; (d = l2s_dest_walk(&ln->sel.core, i)); i++) {
		if (!d->refs)
			continue;
		hdr = ks_sel_dump_put(skb, cb, L2TPSEL_CMD_DEST_GET);
		if (!hdr || ks_sel_fill_dest(skb, &ln->sel.core, i, now)) {
			if (hdr)
				genlmsg_cancel(skb, hdr);
			ret = -EMSGSIZE;
			break;
		}
		genlmsg_end(skb, hdr);
		ctx->next = i + 1;
	}
	return ks_sel_dump_end(skb, ln, ret);
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
	ks_lock(ln);
	if (a[L2TPSEL_A_LOCKOUT_TIME]) {
		/* Running lockouts keep their deadline; new ones use the new time. */
		ret = l2s_set_lockout_time(&ln->sel.core, nla_get_u32(a[L2TPSEL_A_LOCKOUT_TIME]),
					   &err);
		if (ret) {
			ks_nl_err(info, a[L2TPSEL_A_LOCKOUT_TIME], &err, ret);
			goto out;
		}
	}
	if (a[L2TPSEL_A_MAX_LOGINS])
		ln->sel.max_logins = nla_get_u32(a[L2TPSEL_A_MAX_LOGINS]);
	ks_gen_bump(ln);
out:
	ks_unlock(ln);
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

int ks_nl_lockout_clear(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct l2s_addr local, remote;
	struct ks_env_ctx ec = { };
	struct l2tpsel_net *ln;
	struct sk_buff *msg;
	struct l2s_env env;
	void *hdr;
	u32 n;

	if (a[L2TPSEL_A_LOCAL] && a[L2TPSEL_A_REMOTE]) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[L2TPSEL_A_REMOTE],
				    "clear by LOCAL or by REMOTE, not both");
		return -EINVAL;
	}
	if (ks_nl_addr(info, L2TPSEL_A_LOCAL, &local) ||
	    ks_nl_addr(info, L2TPSEL_A_REMOTE, &remote))
		return -EINVAL;
	msg = ks_reply_new(info, L2TPSEL_CMD_LOCKOUT_CLEAR, &hdr);
	if (!msg)
		return -ENOMEM;
	ln = ks_ln(info);
	ks_lock(ln);
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
	if (ks_nl_addr(info, L2TPSEL_A_REMOTE, &remote) ||
	    ks_nl_addr(info, L2TPSEL_A_LOCAL, &local))
		return -EINVAL;
	msg = ks_reply_new(info, L2TPSEL_CMD_DEST_LOCK, &hdr);
	if (!msg)
		return -ENOMEM;
	ks_lock(ln);
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
	int ret = 0, t;

	if (!ks_nl_name(info, L2TPSEL_A_NAME, "tunnel") ||
	    !ks_nl_name(info, L2TPSEL_A_PROFILE, "profile") ||
	    ks_nl_missing(info, L2TPSEL_A_DRAIN))
		return -EINVAL;
	ks_lock(ln);
	kp = ks_nl_profile(info, ln, L2TPSEL_A_PROFILE);
	if (!kp) {
		ret = -ENOENT;
		goto out;
	}
	if (ks_nl_set_refused(info, kp, L2TPSEL_A_PROFILE)) {
		ret = -EPERM;
		goto out;
	}
	t = l2s_tunnel_find(&kp->p, nla_data(info->attrs[L2TPSEL_A_NAME]));
	if (t < 0) {
		ks_msg(info, info->attrs[L2TPSEL_A_NAME], "no tunnel %s in profile %s",
		       (char *)nla_data(info->attrs[L2TPSEL_A_NAME]), kp->p.name);
		ret = -ENOENT;
		goto out;
	}
	kp->p.t[t].drain = nla_get_u8(info->attrs[L2TPSEL_A_DRAIN]);
	ks_gen_bump(ln);
out:
	ks_unlock(ln);
	return ret;
}

/* S-OPS-1: every destination with that remote address (narrowed by PORT, LOCAL). */
int ks_nl_dest_drain(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct l2tpsel_net *ln = ks_ln(info);
	struct l2s_dest_key k = { };
	struct sk_buff *msg;
	void *hdr;
	u32 n;

	if (ks_nl_missing(info, L2TPSEL_A_REMOTE) || ks_nl_missing(info, L2TPSEL_A_DRAIN))
		return -EINVAL;
	if (ks_nl_addr(info, L2TPSEL_A_REMOTE, &k.remote) ||
	    ks_nl_addr(info, L2TPSEL_A_LOCAL, &k.local))
		return -EINVAL;
	if (a[L2TPSEL_A_PORT])
		k.port = nla_get_u16(a[L2TPSEL_A_PORT]);
	msg = ks_reply_new(info, L2TPSEL_CMD_DEST_DRAIN, &hdr);
	if (!msg)
		return -ENOMEM;
	ks_lock(ln);
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

/* ---- logins ---------------------------------------------------------- */

/* The profile of a login: PROFILE if given (S-OBJ-4), else USER's domain. */
static struct ks_profile *ks_nl_login_profile(struct genl_info *info, struct l2tpsel_net *ln)
{
	struct nlattr **a = info->attrs;
	const char *user, *at;
	struct l2s_domain *e;
	struct ks_profile *kp;

	if (a[L2TPSEL_A_PROFILE])
		return ks_nl_profile(info, ln, L2TPSEL_A_PROFILE);
	user = nla_data(a[L2TPSEL_A_USER]);
	at = strrchr(user, '@');
	if (!at) {
		ks_msg(info, a[L2TPSEL_A_USER], "user %s has no @domain and no PROFILE was given",
		       user);
		return NULL;
	}
	e = l2s_domain_find(&ln->sel.core, at + 1);
	if (!e) {
		ks_msg(info, a[L2TPSEL_A_USER], "no domain %s in the domain map", at + 1);
		return NULL;
	}
	kp = ks_profile_find(ln, e->profile);
	if (!kp)
		ks_msg(info, a[L2TPSEL_A_USER],
		       "domain %s maps to profile %s, which does not exist", at + 1, e->profile);
	return kp;
}

static int ks_nl_login_check(struct genl_info *info)
{
	struct nlattr *prof = info->attrs[L2TPSEL_A_PROFILE];

	if (!info->attrs[L2TPSEL_A_USER] && !prof && !info->attrs[L2TPSEL_A_TUNNELS]) {
		NL_SET_ERR_MSG_MOD(info->extack, "a login needs USER, PROFILE or TUNNELS");
		return -EINVAL;
	}
	if (prof && info->attrs[L2TPSEL_A_TUNNELS]) {
		NL_SET_ERR_MSG_ATTR(info->extack, prof, "PROFILE and TUNNELS exclude each other");
		return -EINVAL;
	}
	if (prof && l2s_profile_is_set(nla_data(prof))) {
		NL_SET_ERR_MSG_ATTR(info->extack, prof,
				    "a profile beginning with ~ is a login's own tunnel set: give TUNNELS");
		return -EINVAL;
	}
	return 0;
}

/* The hash key of a login: KEY, else USER, else the profile name. */
static u32 ks_nl_login_key(struct genl_info *info)
{
	const struct nlattr *k = info->attrs[L2TPSEL_A_KEY] ?: info->attrs[L2TPSEL_A_USER] ?:
				 info->attrs[L2TPSEL_A_PROFILE];
	const char *s = k ? nla_data(k) : "";

	return l2s_hash_key(s, strlen(s));
}

/*
 * A login's own tunnel set (TUNNELS): its entries parsed into @tc (at most
 * L2S_DESTS_PER_LEVEL, *@n of them) and found or made (ks_set_get()).
 */
static int ks_nl_login_set(struct genl_info *info, struct l2tpsel_net *ln,
			   struct l2s_tunnel_conf *tc, struct ks_profile **kpp)
{
	struct nlattr *tb[L2TPSEL_A_MAX + 1], *e;
	struct l2s_err err = { };
	char where[32];
	u32 n = 0, bad;
	int rem, ret;

	nla_for_each_nested(e, info->attrs[L2TPSEL_A_TUNNELS], rem) {
		snprintf(where, sizeof(where), "TUNNELS entry %u: ", n);
		if (nla_type(e) != L2TPSEL_A_TUNNEL_ENTRY) {
			ks_msg(info, e, "%snot a TUNNEL_ENTRY", where);
			return -EINVAL;
		}
		if (n == L2S_DESTS_PER_LEVEL) {
			ks_msg(info, e, "at most %u TUNNELS entries", L2S_DESTS_PER_LEVEL);
			return -EINVAL;
		}
		ret = nla_parse_nested(tb, L2TPSEL_A_MAX, e, ks_set_entry_policy, info->extack);
		if (ret)
			return ret;
		ret = ks_nl_tunnel_conf(info, tb, where, &tc[n]);
		if (ret)
			return ret;
		n++;
	}
	if (!n) {
		ks_msg(info, info->attrs[L2TPSEL_A_TUNNELS], "TUNNELS has no entry");
		return -EINVAL;
	}
	ret = ks_set_get(ln, tc, n, kpp, &bad, &err);
	if (ret) {
		if (bad < n)
			ks_msg(info, info->attrs[L2TPSEL_A_TUNNELS], "TUNNELS entry %u: %s",
			       bad, err.msg);
		else
			ks_nl_err(info, info->attrs[L2TPSEL_A_TUNNELS], &err, ret);
	}
	return ret;
}

/*
 * RL_ASK: a login's own rate-limit checks ride on its LOGIN_BEGIN and
 * LOGIN_REPORT, decided as RL_CHECK decides them (Documentation/ratelimit.md),
 * so that a login costs the agent two round trips, not four.  A refusal is
 * put as a nest of @type, a pass puts nothing.
 * Return: the verdict (enum l2tpsel_rl_verdict), or -EMSGSIZE.
 */
static int ks_nl_login_rl(struct l2tpsel_net *ln, struct sk_buff *msg, int type,
			  const struct ks_rl_req *req)
{
	struct ks_rl_verdict v = { };
	struct nlattr *nest;

	ks_rl_check(ln, req, ks_rl_now(), &v);
	if (v.verdict == L2TPSEL_RL_PASS)
		return L2TPSEL_RL_PASS;
	nest = nla_nest_start(msg, type);
	if (!nest || ks_rl_put_verdict(msg, &v))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return v.verdict;
}

/* The ingress LOGIN check: USER's domain and PROFILE, before the login begins. */
static int ks_nl_login_rl_in(struct genl_info *info, struct l2tpsel_net *ln,
			     struct sk_buff *msg)
{
	struct ks_rl_req req = { .dir = L2TPSEL_RL_INGRESS, .msg = L2TPSEL_RL_MSG_LOGIN };
	struct nlattr **a = info->attrs;
	const char *at;

	if (a[L2TPSEL_A_USER]) {
		at = strrchr(nla_data(a[L2TPSEL_A_USER]), '@');
		if (at && at[1])
			req.domain = at + 1;
	}
	if (a[L2TPSEL_A_PROFILE])
		req.profile = nla_data(a[L2TPSEL_A_PROFILE]);
	return ks_nl_login_rl(ln, msg, L2TPSEL_A_RL_LOGIN, &req);
}

/* The egress ATTEMPT check of the tunnel an ATTEMPT step names. */
static int ks_nl_login_rl_out(struct l2tpsel_net *ln, struct sk_buff *msg,
			      const struct l2s_profile *p, const struct l2s_step *st)
{
	struct ks_rl_req req = { .dir = L2TPSEL_RL_EGRESS, .msg = L2TPSEL_RL_MSG_ATTEMPT };
	const struct l2s_dest *d;

	if (st->kind == L2S_STEP_DONE || !p || st->tunnel >= p->ntunnels)
		return L2TPSEL_RL_PASS;
	d = l2s_dest_at(&ln->sel.core, p->t[st->tunnel].dest);
	req.addr = d->key.remote;
	req.port = d->key.port;
	req.profile = p->name;
	return ks_nl_login_rl(ln, msg, L2TPSEL_A_RL_ATTEMPT, &req);
}

/*
 * The most a LOGIN_BEGIN or LOGIN_REPORT reply's attributes take: the
 * login's id, the step (ks_sel_fill_step(): DONE's verdict, an ATTEMPT's
 * tunnel and destination), an OK's admission verdict and, when the
 * request has RL_ASK, a rate limiter's refusal nest (ks_rl_put_verdict()):
 * RL_LOGIN or RL_ATTEMPT, never both, since a login RL_LOGIN refuses gets
 * no step.  Sized to what it carries, the reply is one allocation of 1 kB
 * that netlink_trim() keeps: a page-sized one is cleared in full
 * (init_on_alloc) and then copied into a smaller one: less of the LAC's
 * CPU per login.
 */
static size_t ks_login_reply_size(const struct genl_info *info)
{
	const size_t name = nla_total_size(L2S_NAME_LEN);
	const size_t rl = nla_total_size(0) +		/* RL_LOGIN or RL_ATTEMPT */
		nla_total_size(sizeof(u8)) +		/* RL_VERDICT */
		nla_total_size(sizeof(u32)) +		/* RL_MATCHED */
		nla_total_size(L2TPSEL_NAME_MAX) +	/* NAME */
		2 * nla_total_size(sizeof(u16)) +	/* RESULT_CODE, ERROR_CODE */
		nla_total_size(KS_RL_MSG_LEN);		/* RL_MESSAGE */

	return nla_total_size(sizeof(u32)) +		/* LOGIN_ID */
	       3 * nla_total_size(sizeof(u8)) +		/* STEP, OK, WHY */
	       3 * name +				/* NAME, PROFILE, TGROUP */
	       nla_total_size(sizeof(u8)) +		/* SEL_LEVEL */
	       2 * nla_total_size(16) +			/* REMOTE, LOCAL */
	       nla_total_size(sizeof(u16)) +		/* PORT */
	       3 * nla_total_size(sizeof(u32)) +	/* MAX_SESSIONS, SESSIONS, IN_FLIGHT */
	       4 * nla_total_size(sizeof(u8)) +		/* HAS_SECRET, DRAIN, SETUP, SHORTEST */
	       nla_total_size(sizeof(u8)) +		/* ADMIT */
	       2 * nla_total_size(sizeof(u16)) +	/* its RESULT_CODE, ERROR_CODE */
	       (nla_get_flag(info->attrs[L2TPSEL_A_RL_ASK]) ? rl : 0);
}

/* Reply with a login's step; a login that is DONE is announced and freed. */
static int ks_nl_login_reply(struct genl_info *info, struct l2tpsel_net *ln,
			     struct sk_buff *msg, void *hdr, struct ks_login *kl,
			     struct ks_profile *kp, const struct l2s_step *st)
{
	const struct l2s_profile *p = kp ? &kp->p : NULL;
	int fail;

	fail = nla_put_u32(msg, L2TPSEL_A_LOGIN_ID, kl->id) ||
	       ks_sel_fill_step(msg, &ln->sel.core, p, st) ||
	       (nla_get_flag(info->attrs[L2TPSEL_A_RL_ASK]) &&
		ks_nl_login_rl_out(ln, msg, p, st) < 0);
	if (st->kind == L2S_STEP_DONE) {
		const char *tunnel = NULL;

		if (p && st->ok && st->tunnel < p->ntunnels)
			tunnel = p->t[st->tunnel].name;
		ks_event_login(ln, kl->id, p ? p->name : NULL, st, tunnel);
		ks_login_finish(ln, kl);
	}
	ks_unlock(ln);
	return ks_reply_send(info, msg, hdr, fail);
}

int ks_nl_login_begin(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct ks_login_req req = { };
	struct l2s_err err = { };
	struct l2tpsel_net *ln = ks_ln(info);
	struct ks_login *kl;
	struct sk_buff *msg;
	struct l2s_step st;
	struct l2s_tunnel_conf *tc;
	struct nlattr *pick;
	void *hdr;
	int ret, rem, t;

	ret = ks_nl_login_check(info);
	if (ret)
		return ret;
	req.key = ks_nl_login_key(info);
	msg = ks_reply_new_size(info, L2TPSEL_CMD_LOGIN_BEGIN, ks_login_reply_size(info), &hdr);
	if (!msg)
		return -ENOMEM;
	ks_lock(ln);
	/* What a former socket at this port id held ends first. */
	ks_owner_sync(ln, info->snd_portid, NETLINK_CB(skb).sk);
	if (nla_get_flag(a[L2TPSEL_A_RL_ASK])) {
		ret = ks_nl_login_rl_in(info, ln, msg);
		if (ret != L2TPSEL_RL_PASS) {
			/* refused by a rate limit: the reply is the verdict */
			ks_unlock(ln);
			return ks_reply_send(info, msg, hdr, ret < 0);
		}
	}
	if (a[L2TPSEL_A_TUNNELS]) {
		tc = kmalloc_array(L2S_DESTS_PER_LEVEL, sizeof(*tc), GFP_KERNEL);
		ret = tc ? ks_nl_login_set(info, ln, tc, &req.kp) : -ENOMEM;
		kfree(tc);
		if (ret)
			goto err_unlock;
	} else {
		req.kp = ks_nl_login_profile(info, ln);
		if (!req.kp) {
			ret = -ENOENT;
			goto err_unlock;
		}
	}
	if (a[L2TPSEL_A_PICKS]) {
		nla_for_each_nested(pick, a[L2TPSEL_A_PICKS], rem) {
			if (req.npicks == KS_PICKS) {
				ks_msg(info, pick, "at most %u PICKS", KS_PICKS);
				ret = -EINVAL;
				goto err_unlock;
			}
			t = l2s_tunnel_find(&req.kp->p, nla_data(pick));
			if (t < 0) {
				ks_msg(info, pick, "PICKS: profile %s has no tunnel %s",
				       req.kp->p.name, (char *)nla_data(pick));
				ret = -ENOENT;
				goto err_unlock;
			}
			req.picks[req.npicks++] = (u8)t;
		}
	}
	ret = ks_login_begin(ln, info->snd_portid, NETLINK_CB(skb).sk, &req, &kl, &st, &err);
	if (ret) {
		ks_nl_err(info, NULL, &err, ret);
		goto err_unlock;
	}
	return ks_nl_login_reply(info, ln, msg, hdr, kl, req.kp, &st);

err_unlock:
	if (req.kp && req.kp->set)
		ks_set_put(ln, req.kp);
	ks_unlock(ln);
	nlmsg_free(msg);
	return ret;
}

/*
 * An OK: the session is admitted at the LAC's levels and counted there, as a
 * session of the reporting socket that also holds the tunnel's count the
 * core just made; refused, that count is undone and the login fails
 * (L2S_FAIL_ADMISSION, the LNS not blamed).  One step for both ledgers.
 */
static int ks_login_count(struct genl_info *info, struct sock *sk, struct l2tpsel_net *ln,
			  struct ks_profile *kp, struct l2s_step *st,
			  enum lim_level *verdict, struct l2s_err *err)
{
	struct l2s_profile *p = &kp->p;
	struct ks_session_req req = {
		.key = nla_get_u64(info->attrs[L2TPSEL_A_SESSION_KEY]),
		.role = L2TPSEL_ROLE_LAC,
		.tid = nla_get_u32(info->attrs[L2TPSEL_A_TUNNEL_ID]),
		.portid = info->snd_portid,
		.sk = sk,
		.detached = nla_get_flag(info->attrs[L2TPSEL_A_DETACHED]),
		.kp = kp,
		.tuid = p->t[st->tunnel].uid,
	};
	int ret = ks_session_up(ln, &req, verdict, err);

	if (!ret && *verdict == LIM_PASS)
		return 0;
	WARN_ON_ONCE(l2s_tunnel_session_down(&ln->sel.core, p, st->tunnel));
	ks_set_check(ln, kp);
	st->ok = false;
	st->why = L2S_FAIL_ADMISSION;
	return ret;
}

int ks_nl_login_report(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	enum lim_level verdict = LIM_PASS;
	struct l2s_outcome o = { };
	struct l2s_err err = { };
	struct l2tpsel_net *ln = ks_ln(info);
	struct ks_profile *kp;
	struct ks_login *kl;
	struct sk_buff *msg;
	struct l2s_step st;
	void *hdr;
	int ret;

	if (ks_nl_missing(info, L2TPSEL_A_LOGIN_ID) ||
	    ks_nl_missing(info, L2TPSEL_A_OUTCOME))
		return -EINVAL;
	BUILD_BUG_ON((int)L2TPSEL_OUTCOME_LOCAL != (int)L2S_OUT_LOCAL);
	BUILD_BUG_ON((int)L2TPSEL_WHY_ADMISSION != (int)L2S_FAIL_ADMISSION);
	BUILD_BUG_ON((int)L2TPSEL_WHY_DRAINED != (int)L2S_FAIL_DRAINED);
	o.kind = nla_get_u8(a[L2TPSEL_A_OUTCOME]);
	if (o.kind == L2S_OUT_CDN || o.kind == L2S_OUT_STOPCCN) {
		if (ks_nl_missing(info, L2TPSEL_A_RESULT_CODE))
			return -EINVAL;
		o.result = nla_get_u16(a[L2TPSEL_A_RESULT_CODE]);
		o.error = a[L2TPSEL_A_ERROR_CODE] ? nla_get_u16(a[L2TPSEL_A_ERROR_CODE]) : 0;
	}
	/* The session an OK counts: its key, and its L2TP tunnel (S-LIM-1). */
	if (o.kind == L2S_OUT_OK &&
	    (ks_nl_missing(info, L2TPSEL_A_SESSION_KEY) ||
	     ks_nl_missing(info, L2TPSEL_A_TUNNEL_ID)))
		return -EINVAL;
	msg = ks_reply_new_size(info, L2TPSEL_CMD_LOGIN_REPORT, ks_login_reply_size(info), &hdr);
	if (!msg)
		return -ENOMEM;
	ks_lock(ln);
	/* Only a login of this very socket matches its port id. */
	ks_owner_sync(ln, info->snd_portid, NETLINK_CB(skb).sk);
	ret = ks_login_report(ln, info->snd_portid, nla_get_u32(a[L2TPSEL_A_LOGIN_ID]), &o,
			      &kl, &kp, &st, &err);
	if (ret) {
		ks_unlock(ln);
		nlmsg_free(msg);
		return ks_nl_err(info, a[L2TPSEL_A_LOGIN_ID], &err, ret);
	}
	if (st.kind == L2S_STEP_DONE && st.ok) {
		ret = ks_login_count(info, NETLINK_CB(skb).sk, ln, kp, &st, &verdict, &err);
		if (ret) {
			/* Nothing counted; the login is over, as for a refusal. */
			ks_event_login(ln, kl->id, kp->p.name, &st, NULL);
			ks_login_finish(ln, kl);
			ks_unlock(ln);
			nlmsg_free(msg);
			return ks_nl_err(info, a[L2TPSEL_A_SESSION_KEY], &err, ret);
		}
		/* ks_login_reply_size() keeps room for these three. */
		WARN_ON_ONCE(verdict != LIM_PASS &&
			     (nla_put_u8(msg, L2TPSEL_A_ADMIT, verdict) ||
			      nla_put_u16(msg, L2TPSEL_A_RESULT_CODE, LIM_CDN_RESULT) ||
			      nla_put_u16(msg, L2TPSEL_A_ERROR_CODE, LIM_CDN_ERROR)));
	}
	return ks_nl_login_reply(info, ln, msg, hdr, kl, kp, &st);
}

#define KS_TEST_STEPS	64

/* The dry run runs on copies made under ln->lock; the reply is built from them. */
int ks_nl_login_test(struct sk_buff *skb, struct genl_info *info)
{
	struct ks_test_step *steps;
	struct l2s_err err = { };
	struct nlattr *list, *one;
	struct ks_test_buf tb = { };
	struct l2tpsel_net *ln;
	struct ks_profile *kp;
	struct sk_buff *msg;
	struct l2s_step last;
	u32 i, n = 0;
	void *hdr;
	int ret = 0, fail = 0;

	ret = ks_nl_login_check(info);
	if (ret)
		return ret;
	steps = kcalloc(KS_TEST_STEPS, sizeof(*steps), GFP_KERNEL_ACCOUNT);
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!steps || !msg || ks_test_buf_alloc(&tb)) {
		ret = -ENOMEM;
		goto err_free;
	}
	hdr = genlmsg_put_reply(msg, info, &l2tpsel_genl_family, 0, L2TPSEL_CMD_LOGIN_TEST);
	if (!hdr) {
		ret = -EMSGSIZE;
		goto err_free;
	}
	ln = ks_ln(info);
	ks_lock(ln);
	kp = ks_nl_login_profile(info, ln);
	if (kp)
		ret = ks_login_test(ln, &kp->p, ks_nl_login_key(info), &tb, steps, KS_TEST_STEPS,
				    &n, &last, &err);
	ks_unlock(ln);
	if (!kp) {
		ret = -ENOENT;
		goto err_free;
	}
	if (ret) {
		ks_nl_err(info, NULL, &err, ret);
		goto err_free;
	}
	list = nla_nest_start(msg, L2TPSEL_A_STEPS);
	fail = !list;
	for (i = 0; !fail && i < n; i++) {
		one = nla_nest_start(msg, L2TPSEL_A_STEP_ENTRY);
		fail = !one || ks_sel_fill_step(msg, tb.core, &tb.p, &steps[i].st) ||
		       nla_put_u32(msg, L2TPSEL_A_N_CANDIDATES, steps[i].ncand);
		if (!fail)
			nla_nest_end(msg, one);
	}
	if (!fail) {
		nla_nest_end(msg, list);
		fail = nla_put_u8(msg, L2TPSEL_A_OK, last.ok) ||
		       nla_put_u8(msg, L2TPSEL_A_WHY, last.why);
	}
	ks_test_buf_free(&tb);
	kfree(steps);
	return ks_reply_send(info, msg, hdr, fail);

err_free:
	nlmsg_free(msg);
	ks_test_buf_free(&tb);
	kfree(steps);
	return ret;
}
