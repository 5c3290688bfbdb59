// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink handlers of the logins held for agents: LOGIN_BEGIN,
 * LOGIN_REPORT and the dry run LOGIN_TEST (uapi/linux/l2tpsel.h).  The
 * logins' state is in login.c, tunnel_set.c and login_test.c, the walk in
 * the core (core/sel.c).
 */
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/sock.h>
#include <linux/l2tpsel.h>

#include "events.h"
#include "hash.h"
#include "nl_select.h"
#include "ratelimit.h"

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

/* What a login request names, read once per request. */
struct ks_login_name {
	const char *user;	/* USER, or NULL */
	const char *domain;	/* after USER's last '@'; NULL: no '@' */
	u32 key;		/* the hash key: of KEY, else USER, else PROFILE */
};

static void ks_nl_login_name(struct genl_info *info, struct ks_login_name *n)
{
	struct nlattr **a = info->attrs;
	const struct nlattr *k = a[L2TPSEL_A_KEY] ?: a[L2TPSEL_A_USER] ?: a[L2TPSEL_A_PROFILE];
	const char *s = k ? nla_data(k) : "";
	const char *at;

	n->user = a[L2TPSEL_A_USER] ? nla_data(a[L2TPSEL_A_USER]) : NULL;
	at = n->user ? strrchr(n->user, '@') : NULL;
	n->domain = at ? at + 1 : NULL;
	n->key = l2s_hash_key(s, strlen(s));
}

/*
 * The profile of a login: PROFILE if given (S-OBJ-4), else USER's domain
 * (ks_nl_login_check() made sure there is one of the two).
 */
static struct ks_profile *ks_nl_login_profile(struct genl_info *info, struct l2tpsel_net *ln,
					      const struct ks_login_name *n)
{
	const struct nlattr *user = info->attrs[L2TPSEL_A_USER];
	struct l2s_domain *e;
	struct ks_profile *kp;

	if (info->attrs[L2TPSEL_A_PROFILE])
		return ks_nl_profile(info, ln, L2TPSEL_A_PROFILE);
	if (!n->domain) {
		ks_msg(info, user, "user %s has no @domain and no PROFILE was given", n->user);
		return NULL;
	}
	e = l2s_domain_find(&ln->sel.core, n->domain);
	if (!e) {
		ks_msg(info, user, "no domain %s in the domain map", n->domain);
		return NULL;
	}
	kp = ks_profile_find(ln, e->profile);
	if (!kp)
		ks_msg(info, user, "domain %s maps to profile %s, which does not exist",
		       n->domain, e->profile);
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
			     struct sk_buff *msg, const struct ks_login_name *n)
{
	struct ks_rl_req req = { .dir = L2TPSEL_RL_INGRESS, .msg = L2TPSEL_RL_MSG_LOGIN };
	struct nlattr **a = info->attrs;

	if (n->domain && n->domain[0])
		req.domain = n->domain;
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

/* PICKS: the tunnels of @req->kp the first draws take, by name. */
static int ks_nl_login_picks(struct genl_info *info, struct ks_login_req *req)
{
	struct nlattr *pick;
	int rem, t;

	if (!info->attrs[L2TPSEL_A_PICKS])
		return 0;
	nla_for_each_nested(pick, info->attrs[L2TPSEL_A_PICKS], rem) {
		if (req->npicks == KS_PICKS) {
			ks_msg(info, pick, "at most %u PICKS", KS_PICKS);
			return -EINVAL;
		}
		t = l2s_tunnel_find(&req->kp->p, nla_data(pick));
		if (t < 0) {
			ks_msg(info, pick, "PICKS: profile %s has no tunnel %s",
			       req->kp->p.name, (char *)nla_data(pick));
			return -ENOENT;
		}
		req->picks[req->npicks++] = (u8)t;
	}
	return 0;
}

int ks_nl_login_begin(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct ks_login_req req = { };
	struct l2s_err err = { };
	struct l2tpsel_net *ln = ks_ln(info);
	struct ks_login_name name;
	struct ks_login *kl;
	struct sk_buff *msg;
	struct l2s_step st;
	struct l2s_tunnel_conf *tc;
	void *hdr;
	int ret;

	ret = ks_nl_login_check(info);
	if (ret)
		return ret;
	ks_nl_login_name(info, &name);
	req.key = name.key;
	msg = ks_reply_new_size(info, L2TPSEL_CMD_LOGIN_BEGIN, ks_login_reply_size(info), &hdr);
	if (!msg)
		return -ENOMEM;
	ks_lock(ln);
	/* What a former socket at this port id held ends first. */
	ks_owner_sync(ln, info->snd_portid, NETLINK_CB(skb).sk);
	if (nla_get_flag(a[L2TPSEL_A_RL_ASK])) {
		ret = ks_nl_login_rl_in(info, ln, msg, &name);
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
		req.kp = ks_nl_login_profile(info, ln, &name);
		if (!req.kp) {
			ret = -ENOENT;
			goto err_unlock;
		}
	}
	ret = ks_nl_login_picks(info, &req);
	if (ret)
		goto err_unlock;
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
	struct ks_login_name name;
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
	ks_nl_login_name(info, &name);
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
	kp = ks_nl_login_profile(info, ln, &name);
	if (kp)
		ret = ks_login_test(ln, &kp->p, name.key, &tb, steps, KS_TEST_STEPS,
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
