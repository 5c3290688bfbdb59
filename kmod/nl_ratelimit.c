// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink handlers of rate limits and RL_CHECK (SPEC §5; the API is
 * documented in uapi/linux/l2tpsel.h), and the steps the throttle
 * profiles' handlers (nl_throttle.c) share with them (nl_ratelimit.h).
 * This file checks attributes, takes ln->lock and builds replies and
 * dumps; the state and its rules are in ratelimit.c and core/rl.c.
 */
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/sock.h>
#include <linux/l2tpsel.h>

#include "nl_ratelimit.h"
#include "ratelimit.h"

/* Lengths are checked here, so that the message names the bound. */
#define RL_ADDR_POLICY	NLA_POLICY_RANGE(NLA_BINARY, 4, 16)

const struct nla_policy ks_rl_policy[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_NAME]	= RL_STR_POLICY,
	[L2TPSEL_A_RL_DIR]	= NLA_POLICY_MAX(NLA_U8, L2TPSEL_RL_EGRESS),
	[L2TPSEL_A_RL_MSG]	= NLA_POLICY_MAX(NLA_U8, L2TPSEL_RL_MSG_PPPOE),
	[L2TPSEL_A_RL_PEER]	= RL_STR_POLICY,
	[L2TPSEL_A_REMOTE]	= RL_ADDR_POLICY,
	[L2TPSEL_A_PORT]	= { .type = NLA_U16 },
	[L2TPSEL_A_DOMAIN]	= RL_STR_POLICY,
	[L2TPSEL_A_PROFILE]	= RL_STR_POLICY,
	[L2TPSEL_A_RL_RATE]	= { .type = NLA_U32 },
	[L2TPSEL_A_RL_BURST]	= { .type = NLA_U32 },
	[L2TPSEL_A_RL_ACTION]	= NLA_POLICY_MAX(NLA_U8, L2TPSEL_RL_DROP),
	[L2TPSEL_A_RESULT_CODE]	= { .type = NLA_U16 },
	[L2TPSEL_A_ERROR_CODE]	= { .type = NLA_U16 },
	[L2TPSEL_A_RL_MESSAGE]	= RL_STR_POLICY,
	[L2TPSEL_A_RL_THROTTLE]	= RL_STR_POLICY,
	[L2TPSEL_A_RL_RESET]	= NLA_POLICY_MAX(NLA_U8, 1),
};

const struct nla_policy ks_rl_name_policy[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_NAME]	= RL_STR_POLICY,
};

const struct nla_policy ks_rl_check_policy[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_RL_DIR]	= NLA_POLICY_MAX(NLA_U8, L2TPSEL_RL_EGRESS),
	[L2TPSEL_A_RL_MSG]	= NLA_POLICY_RANGE(NLA_U8, L2TPSEL_RL_MSG_SCCRQ,
						   L2TPSEL_RL_MSG_PPPOE),
	[L2TPSEL_A_RL_PEER]	= RL_STR_POLICY,
	[L2TPSEL_A_REMOTE]	= RL_ADDR_POLICY,
	[L2TPSEL_A_PORT]	= { .type = NLA_U16 },
	[L2TPSEL_A_DOMAIN]	= RL_STR_POLICY,
	[L2TPSEL_A_PROFILE]	= RL_STR_POLICY,
	[L2TPSEL_A_RL_COUNT]	= NLA_POLICY_RANGE(NLA_U32, 1, KS_RL_MAX_COUNT),
};

/* ---- attribute helpers ----------------------------------------------------- */

/* An optional string of 1..@max bytes: NULL when absent, ERR_PTR with a message when bad. */
const char *ks_rl_str(struct genl_info *info, int type, const char *what, size_t max)
{
	const struct nlattr *a = info->attrs[type];
	const char *s;
	size_t len;

	if (!a)
		return NULL;
	s = nla_data(a);
	len = strlen(s);
	if (!len || len > max) {
		ks_msg(info, a, "%s of %zu bytes: must be 1..%zu bytes", what, len, max);
		return ERR_PTR(-EINVAL);
	}
	return s;
}

/* The required NAME of a limit or profile. */
const char *ks_rl_name(struct genl_info *info, const char *what)
{
	const char *name;

	if (ks_nl_missing(info, L2TPSEL_A_NAME))
		return NULL;
	name = ks_rl_str(info, L2TPSEL_A_NAME, what, L2TPSEL_NAME_MAX - 1);
	return IS_ERR(name) ? NULL : name;
}

/* A NAME that names nothing: "<what> "<name>" does not exist", -ENOENT. */
int ks_rl_noent(struct genl_info *info, const char *what, const char *name)
{
	ks_msg(info, info->attrs[L2TPSEL_A_NAME], "%s \"%s\" does not exist", what, name);
	return -ENOENT;
}

static int ks_rl_put_addr(struct sk_buff *msg, const struct l2s_addr *a)
{
	return nla_put(msg, L2TPSEL_A_REMOTE, a->family == 4 ? 4 : 16, a->bytes);
}

/* The match of NEW: direction, message type, at most one key. */
static int ks_rl_parse_match(struct genl_info *info, struct ks_rl_conf *rc)
{
	static const int key_attrs[] = { L2TPSEL_A_RL_PEER, L2TPSEL_A_REMOTE,
					 L2TPSEL_A_DOMAIN, L2TPSEL_A_PROFILE };
	struct nlattr **a = info->attrs;
	const struct nlattr *first = NULL;
	size_t i;

	rc->dir = a[L2TPSEL_A_RL_DIR] ? nla_get_u8(a[L2TPSEL_A_RL_DIR]) : L2TPSEL_RL_INGRESS;
	rc->msg = a[L2TPSEL_A_RL_MSG] ? nla_get_u8(a[L2TPSEL_A_RL_MSG]) : L2TPSEL_RL_MSG_ANY;
	rc->key = L2TPSEL_RL_KEY_ANY;
	for (i = 0; i < ARRAY_SIZE(key_attrs); i++) {
		if (!a[key_attrs[i]])
			continue;
		if (first) {
			ks_msg(info, a[key_attrs[i]],
			       "a limit has at most one key: peer, address, domain, profile or destination");
			return -EINVAL;
		}
		first = a[key_attrs[i]];
	}
	if (a[L2TPSEL_A_RL_PEER]) {
		rc->key = L2TPSEL_RL_KEY_PEER;
		rc->skey = ks_rl_str(info, L2TPSEL_A_RL_PEER, "peer name", L2TPSEL_NAME_MAX - 1);
	} else if (a[L2TPSEL_A_DOMAIN]) {
		rc->key = L2TPSEL_RL_KEY_DOMAIN;
		rc->skey = ks_rl_str(info, L2TPSEL_A_DOMAIN, "domain", L2S_DOMAIN_LEN - 1);
	} else if (a[L2TPSEL_A_PROFILE]) {
		rc->key = L2TPSEL_RL_KEY_PROFILE;
		rc->skey = ks_rl_str(info, L2TPSEL_A_PROFILE, "profile name", L2S_NAME_LEN - 1);
	} else if (a[L2TPSEL_A_REMOTE]) {
		rc->key = rc->dir == L2TPSEL_RL_EGRESS ? L2TPSEL_RL_KEY_DEST :
			  L2TPSEL_RL_KEY_ADDRESS;
		if (ks_nl_addr(info, L2TPSEL_A_REMOTE, &rc->addr))
			return -EINVAL;
	}
	if (IS_ERR(rc->skey))
		return -EINVAL;
	if (a[L2TPSEL_A_PORT]) {
		if (rc->key != L2TPSEL_RL_KEY_DEST) {
			ks_msg(info, a[L2TPSEL_A_PORT],
			       "port belongs to a destination: egress limits keyed by address only");
			return -EINVAL;
		}
		rc->port = nla_get_u16(a[L2TPSEL_A_PORT]);
		if (!rc->port) {
			ks_msg(info, a[L2TPSEL_A_PORT], "port 0: must be 1..65535");
			return -EINVAL;
		}
	}
	return 0;
}

/* Read the attributes of @opts that the request has into @conf. */
int ks_rl_read_opts(struct genl_info *info, const struct ks_rl_opt *opts, size_t n,
		    void *conf)
{
	const struct ks_rl_opt *o;
	const struct nlattr *nla;
	const char *s;

	for (o = opts; o < opts + n; o++) {
		nla = info->attrs[o->attr];
		if (!nla)
			continue;
		if (o->max) {
			s = nla_data(nla);
			if (strlen(s) >= o->max) {
				ks_msg(info, nla, "%s of %zu bytes: at most %d", o->what, strlen(s),
				       o->max - 1);
				return -EINVAL;
			}
			*(const char **)(conf + o->val) = s;
		} else if (o->size == 1) {
			*(u8 *)(conf + o->val) = nla_get_u8(nla);
		} else if (o->size == 2) {
			*(u16 *)(conf + o->val) = nla_get_u16(nla);
		} else {
			*(u32 *)(conf + o->val) = nla_get_u32(nla);
		}
		*(bool *)(conf + o->has) = true;
	}
	return 0;
}

static const struct ks_rl_opt ks_rl_conf_opts[] = {
	KS_RL_OPT(struct ks_rl_conf, RL_RATE, u32, rate, has_rate),
	KS_RL_OPT(struct ks_rl_conf, RL_BURST, u32, burst, has_burst),
	KS_RL_OPT(struct ks_rl_conf, RL_ACTION, u8, action, has_action),
	KS_RL_OPT(struct ks_rl_conf, RESULT_CODE, u16, result, has_result),
	KS_RL_OPT(struct ks_rl_conf, ERROR_CODE, u16, error, has_error),
	KS_RL_OPT_STR(struct ks_rl_conf, RL_MESSAGE, message, has_message, KS_RL_MSG_LEN,
		      "message"),
	KS_RL_OPT_STR(struct ks_rl_conf, RL_THROTTLE, throttle, has_throttle,
		      L2TPSEL_NAME_MAX, "throttle profile name"),
};

/* Rate, burst, action, answer and throttle of NEW and SET. */
static int ks_rl_parse_conf(struct genl_info *info, struct ks_rl_conf *rc)
{
	struct nlattr **a = info->attrs;
	int ret;

	ret = ks_rl_read_opts(info, ks_rl_conf_opts, ARRAY_SIZE(ks_rl_conf_opts), rc);
	if (ret)
		return ret;
	rc->reset = a[L2TPSEL_A_RL_RESET] && nla_get_u8(a[L2TPSEL_A_RL_RESET]);
	return 0;
}

/* The attribute a core refusal is about, for the extack. */
static const struct nlattr *ks_rl_err_attr(struct genl_info *info, int ret)
{
	struct nlattr **a = info->attrs;

	if (ret == -ERANGE)
		return a[L2TPSEL_A_RL_RATE] ?: a[L2TPSEL_A_RL_BURST];
	if (ret == -ENOENT)
		return a[L2TPSEL_A_RL_THROTTLE];
	return a[L2TPSEL_A_NAME];
}

/* ---- fills ------------------------------------------------------------------- */

static int ks_rl_fill(struct sk_buff *msg, struct ks_obj *o, u64 now)
{
	struct ks_rlimit *r = container_of(o, struct ks_rlimit, obj);
	int key = 0;

	switch (r->key) {
	case L2TPSEL_RL_KEY_PEER:
		key = nla_put_string(msg, L2TPSEL_A_RL_PEER, r->skey);
		break;
	case L2TPSEL_RL_KEY_DOMAIN:
		key = nla_put_string(msg, L2TPSEL_A_DOMAIN, r->skey);
		break;
	case L2TPSEL_RL_KEY_PROFILE:
		key = nla_put_string(msg, L2TPSEL_A_PROFILE, r->skey);
		break;
	case L2TPSEL_RL_KEY_ADDRESS:
		key = ks_rl_put_addr(msg, &r->addr);
		break;
	case L2TPSEL_RL_KEY_DEST:
		key = ks_rl_put_addr(msg, &r->addr) ||
		      (r->port && nla_put_u16(msg, L2TPSEL_A_PORT, r->port));
		break;
	}
	return key ||
	       nla_put_string(msg, L2TPSEL_A_NAME, r->obj.name) ||
	       nla_put_u8(msg, L2TPSEL_A_RL_DIR, r->dir) ||
	       nla_put_u8(msg, L2TPSEL_A_RL_MSG, r->msg) ||
	       nla_put_u8(msg, L2TPSEL_A_RL_KEY, r->key) ||
	       nla_put_u32(msg, L2TPSEL_A_RL_RATE, r->l.rate) ||
	       nla_put_u32(msg, L2TPSEL_A_RL_BURST, r->l.burst) ||
	       nla_put_u8(msg, L2TPSEL_A_RL_ACTION, r->action) ||
	       nla_put_u16(msg, L2TPSEL_A_RESULT_CODE, r->result) ||
	       nla_put_u16(msg, L2TPSEL_A_ERROR_CODE, r->error) ||
	       nla_put_string(msg, L2TPSEL_A_RL_MESSAGE, r->message) ||
	       (r->th && nla_put_string(msg, L2TPSEL_A_RL_THROTTLE, r->th->obj.name)) ||
	       nla_put_u8(msg, L2TPSEL_A_RL_PERCENT, r->l.throttle) ||
	       nla_put_u32(msg, L2TPSEL_A_RL_EFFECTIVE,
			   rl_effective_rate(r->l.rate, r->l.throttle)) ||
	       nla_put_u32(msg, L2TPSEL_A_RL_TOKENS, ks_rl_tokens(r, now)) ||
	       nla_put_u64_64bit(msg, L2TPSEL_A_RL_PASSED, r->passed, L2TPSEL_A_PAD) ||
	       nla_put_u64_64bit(msg, L2TPSEL_A_RL_REJECTED, r->rejected, L2TPSEL_A_PAD) ||
	       nla_put_u64_64bit(msg, L2TPSEL_A_RL_DROPPED, r->dropped, L2TPSEL_A_PAD) ?
	       -EMSGSIZE : 0;
}

/* ---- what rate limits and throttle profiles share ------------------------------- */

/*
 * NEW or SET of the object NAME names, its attributes read into @conf:
 * made, or found and changed; a refusal's message in the extack.
 */
int ks_rl_commit(struct genl_info *info, const struct ks_rl_kind *k, bool is_new,
		 const char *name, const void *conf)
{
	struct l2tpsel_net *ln = ks_ln(info);
	struct l2s_err err = { };
	struct ks_obj *o;
	int ret;

	if (is_new) {
		ret = k->add(ln, name, conf, &err);
	} else {
		o = ks_table_find(k->table(ln), name);
		if (!o)
			return ks_rl_noent(info, k->what, name);
		ret = k->set(ln, o, conf, &err);
	}
	if (ret)
		ks_nl_err(info, k->err_attr(info, ret), &err, ret);
	return ret;
}

/* DEL of the object NAME names. */
int ks_rl_delete(struct genl_info *info, const struct ks_rl_kind *k)
{
	const char *name = ks_rl_name(info, k->name_what);
	struct l2tpsel_net *ln = ks_ln(info);
	struct l2s_err err = { };
	struct ks_obj *o;
	int ret;

	if (!name)
		return -EINVAL;
	o = ks_table_find(k->table(ln), name);
	if (!o)
		return ks_rl_noent(info, k->what, name);
	ret = k->del(ln, o, &err);
	if (ret)
		ks_nl_err(info, info->attrs[L2TPSEL_A_NAME], &err, ret);
	return ret;
}

/* What a GET looks for: the kind and NAME. */
struct ks_rl_key {
	const struct ks_rl_kind *kind;
	const char *name;
};

static int ks_rl_get_fill(struct sk_buff *msg, struct l2tpsel_net *ln, const void *key)
{
	const struct ks_rl_key *q = key;
	struct ks_obj *o = ks_table_find(q->kind->table(ln), q->name);

	return o ? q->kind->fill(msg, o, ks_rl_now()) : -ENOENT;
}

/* GET of the object NAME names. */
int ks_rl_get_one(struct genl_info *info, const struct ks_rl_kind *k)
{
	struct ks_rl_key key = { .kind = k, .name = ks_rl_name(info, k->name_what) };
	int ret;

	if (!key.name)
		return -EINVAL;
	ret = ks_reply_get(info, k->get_cmd, ks_rl_get_fill, &key);
	return ret == -ENOENT ? ks_rl_noent(info, k->what, key.name) : ret;
}

/* Dumps resume from cb->ctx: the next object id; each part under ln->lock. */
struct ks_rl_dump_ctx {
	unsigned long next;
};

int ks_rl_dump(struct sk_buff *skb, struct netlink_callback *cb, const struct ks_rl_kind *k)
{
	struct ks_rl_dump_ctx *ctx = (void *)cb->ctx;
	struct l2tpsel_net *ln = l2tpsel_pernet(sock_net(skb->sk));
	u64 now = ks_rl_now();
	struct ks_obj *o;
	unsigned long id;
	int ret = 0;
	void *hdr;

	BUILD_BUG_ON(sizeof(*ctx) > sizeof(cb->ctx));
	ks_dump_begin(cb, ln);
	xa_for_each_start(&k->table(ln)->xa, id, o, ctx->next) {
		hdr = ks_dump_put(skb, cb, k->get_cmd);
		ret = ks_dump_close(skb, hdr, hdr && k->fill(skb, o, now));
		if (ret)
			break;
		ctx->next = id + 1;
	}
	return ks_dump_end(skb, ln, ret);
}

/* ---- rate limits ---------------------------------------------------------------- */

static struct ks_table *ks_rl_table(struct l2tpsel_net *ln)
{
	return &ln->rl->limits;
}

static int ks_rl_add(struct l2tpsel_net *ln, const char *name, const void *conf,
		     struct l2s_err *err)
{
	return ks_rl_new(ln, name, conf, err);
}

static int ks_rl_change(struct l2tpsel_net *ln, struct ks_obj *o, const void *conf,
			struct l2s_err *err)
{
	return ks_rl_set(ln, container_of(o, struct ks_rlimit, obj), conf, err);
}

static int ks_rl_remove(struct l2tpsel_net *ln, struct ks_obj *o, struct l2s_err *err)
{
	ks_rl_del(ln, container_of(o, struct ks_rlimit, obj));
	return 0;
}

static const struct ks_rl_kind ks_rl_limit = {
	.get_cmd = L2TPSEL_CMD_RL_GET, .what = "rate limit", .name_what = "rate limit name",
	.table = ks_rl_table, .add = ks_rl_add, .set = ks_rl_change, .del = ks_rl_remove,
	.fill = ks_rl_fill, .err_attr = ks_rl_err_attr,
};

int ks_nl_rl_change(struct sk_buff *skb, struct genl_info *info)
{
	static const int match_attrs[] = { L2TPSEL_A_RL_DIR, L2TPSEL_A_RL_MSG, L2TPSEL_A_RL_PEER,
					   L2TPSEL_A_REMOTE, L2TPSEL_A_PORT, L2TPSEL_A_DOMAIN,
					   L2TPSEL_A_PROFILE };
	bool is_new = info->genlhdr->cmd == L2TPSEL_CMD_RL_NEW;
	struct ks_rl_conf rc = { };
	const char *name;
	size_t i;
	int ret;

	name = ks_rl_name(info, "rate limit name");
	if (!name)
		return -EINVAL;
	if (is_new) {
		if (ks_nl_missing(info, L2TPSEL_A_RL_RATE) ||
		    ks_nl_missing(info, L2TPSEL_A_RL_BURST))
			return -EINVAL;
		ret = ks_rl_parse_match(info, &rc);
		if (ret)
			return ret;
	} else {
		for (i = 0; i < ARRAY_SIZE(match_attrs); i++) {
			if (info->attrs[match_attrs[i]]) {
				ks_msg(info, info->attrs[match_attrs[i]],
				       "the match of a limit cannot change: delete and add it again");
				return -EINVAL;
			}
		}
	}
	ret = ks_rl_parse_conf(info, &rc);
	if (ret)
		return ret;
	if (is_new && info->attrs[L2TPSEL_A_RL_RESET]) {
		ks_msg(info, info->attrs[L2TPSEL_A_RL_RESET],
		       "a new limit has no counters to reset");
		return -EINVAL;
	}
	return ks_rl_commit(info, &ks_rl_limit, is_new, name, &rc);
}

int ks_nl_rl_del(struct sk_buff *skb, struct genl_info *info)
{
	return ks_rl_delete(info, &ks_rl_limit);
}

int ks_nl_rl_get(struct sk_buff *skb, struct genl_info *info)
{
	return ks_rl_get_one(info, &ks_rl_limit);
}

int ks_nl_rl_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	return ks_rl_dump(skb, cb, &ks_rl_limit);
}

/**
 * ks_rl_put_verdict() - RL_CHECK's reply attributes for a verdict
 * @msg: the reply, or a nest in it (LOGIN_BEGIN's RL_LOGIN, RL_ATTEMPT)
 * @v: the verdict
 *
 * Return: 0, or -EMSGSIZE.
 */
int ks_rl_put_verdict(struct sk_buff *msg, const struct ks_rl_verdict *v)
{
	if (nla_put_u8(msg, L2TPSEL_A_RL_VERDICT, v->verdict) ||
	    nla_put_u32(msg, L2TPSEL_A_RL_MATCHED, v->matched) ||
	    (v->by && nla_put_string(msg, L2TPSEL_A_NAME, v->by->obj.name)))
		return -EMSGSIZE;
	if (v->verdict == L2TPSEL_RL_REJECTED &&
	    (nla_put_u16(msg, L2TPSEL_A_RESULT_CODE, v->by->result) ||
	     nla_put_u16(msg, L2TPSEL_A_ERROR_CODE, v->by->error) ||
	     nla_put_string(msg, L2TPSEL_A_RL_MESSAGE, v->by->message)))
		return -EMSGSIZE;
	return 0;
}

int ks_nl_rl_check(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	u64 counts[3] = { }, now;
	struct ks_rl_req req = { };
	struct ks_rl_verdict v = { };
	struct l2tpsel_net *ln = ks_ln(info);
	struct sk_buff *msg;
	u32 n = 1, i, work = 0;
	void *hdr;
	int fail;

	if (ks_nl_missing(info, L2TPSEL_A_RL_DIR) ||
	    ks_nl_missing(info, L2TPSEL_A_RL_MSG))
		return -EINVAL;
	req.dir = nla_get_u8(a[L2TPSEL_A_RL_DIR]);
	req.msg = nla_get_u8(a[L2TPSEL_A_RL_MSG]);
	if (req.dir != (req.msg == L2TPSEL_RL_MSG_ATTEMPT ? L2TPSEL_RL_EGRESS :
			L2TPSEL_RL_INGRESS)) {
		ks_msg(info, a[L2TPSEL_A_RL_MSG], req.dir == L2TPSEL_RL_EGRESS ?
		       "an egress check is for an attempt" :
		       "an ingress check is for an sccrq, icrq, login or pppoe");
		return -EINVAL;
	}
	req.peer = ks_rl_str(info, L2TPSEL_A_RL_PEER, "peer name", L2TPSEL_NAME_MAX - 1);
	req.domain = ks_rl_str(info, L2TPSEL_A_DOMAIN, "domain", L2S_DOMAIN_LEN - 1);
	req.profile = ks_rl_str(info, L2TPSEL_A_PROFILE, "profile name", L2S_NAME_LEN - 1);
	if (IS_ERR(req.peer) || IS_ERR(req.domain) || IS_ERR(req.profile) ||
	    ks_nl_addr(info, L2TPSEL_A_REMOTE, &req.addr))
		return -EINVAL;
	req.port = a[L2TPSEL_A_PORT] ? nla_get_u16(a[L2TPSEL_A_PORT]) : L2S_DEFAULT_PORT;
	if (a[L2TPSEL_A_RL_COUNT])
		n = nla_get_u32(a[L2TPSEL_A_RL_COUNT]);
	msg = ks_reply_new(info, L2TPSEL_CMD_RL_CHECK, &hdr);
	if (!msg)
		return -ENOMEM;
	ks_lock(ln);
	now = ks_rl_now();
	for (i = 0; i < n; i++) {
		ks_rl_check(ln, &req, now, &v);
		counts[v.verdict]++;
		/*
		 * Up to 10000 checks of 2 x 1024 limits: in slices, the lock
		 * let go and the CPU yielded between them, so that neither
		 * this namespace's other requests and works nor other tasks
		 * on this CPU wait for the whole of it.  The last check and
		 * the reply (v.by points into the table) share one slice.
		 */
		work += 1 + 2 * ln->rl->limits.n;
		if (work < KS_RL_CHECK_SLICE || i + 1 == n)
			continue;
		work = 0;
		ks_unlock(ln);
		cond_resched();
		if (fatal_signal_pending(current)) {
			nlmsg_free(msg);
			return -EINTR;
		}
		ks_lock(ln);
	}
	fail = ks_rl_put_verdict(msg, &v) ||
	       (a[L2TPSEL_A_RL_COUNT] &&
		(nla_put_u64_64bit(msg, L2TPSEL_A_RL_PASSED, counts[L2TPSEL_RL_PASS],
				   L2TPSEL_A_PAD) ||
		 nla_put_u64_64bit(msg, L2TPSEL_A_RL_REJECTED, counts[L2TPSEL_RL_REJECTED],
				   L2TPSEL_A_PAD) ||
		 nla_put_u64_64bit(msg, L2TPSEL_A_RL_DROPPED, counts[L2TPSEL_RL_DROPPED],
				   L2TPSEL_A_PAD)));
	ks_unlock(ln);
	return ks_reply_send(info, msg, hdr, fail);
}
