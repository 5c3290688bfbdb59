// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink handlers of throttle profiles (SPEC §5, S-RL-3; the API is
 * documented in uapi/linux/l2tpsel.h): NEW, SET, DEL, GET, dump and the
 * load pushed (THROTTLE_LOAD).  The steps they share with the rate
 * limits' are in nl_ratelimit.c, the state in ratelimit.c and core/rl.c.
 */
#include <net/genetlink.h>
#include <net/sock.h>
#include <linux/l2tpsel.h>

#include "nl_ratelimit.h"
#include "ratelimit.h"

static const struct nla_policy ks_band_policy[L2TPSEL_A_RL_BAND_PERCENT + 1] = {
	[L2TPSEL_A_RL_BAND_LOAD]	= { .type = NLA_U8 },
	[L2TPSEL_A_RL_BAND_PERCENT]	= { .type = NLA_U8 },
};

const struct nla_policy ks_th_policy[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_NAME]	= RL_STR_POLICY,
	[L2TPSEL_A_RL_HOLD]	= { .type = NLA_U32 },
	[L2TPSEL_A_RL_STEP]	= { .type = NLA_U8 },
	[L2TPSEL_A_RL_BANDS]	= NLA_POLICY_NESTED_ARRAY(ks_band_policy),
	[L2TPSEL_A_RL_SOURCE]	= NLA_POLICY_MAX(NLA_U8, L2TPSEL_RL_SOURCE_CPU),
	[L2TPSEL_A_RL_PERIOD]	= { .type = NLA_U32 },
};

const struct nla_policy ks_th_load_policy[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_NAME]	= RL_STR_POLICY,
	[L2TPSEL_A_RL_LOAD]	= { .type = NLA_U8 },
};

static int ks_th_fill(struct sk_buff *msg, struct ks_obj *o, u64 now)
{
	const struct ks_throttle *t = container_of(o, struct ks_throttle, obj);
	const struct rl_throttle_conf *c = &t->th.conf;
	struct nlattr *bands, *band;
	u32 i;

	if (nla_put_string(msg, L2TPSEL_A_NAME, t->obj.name) ||
	    nla_put_u8(msg, L2TPSEL_A_RL_SOURCE, t->source) ||
	    nla_put_u32(msg, L2TPSEL_A_RL_PERIOD, t->period_ms) ||
	    nla_put_u32(msg, L2TPSEL_A_RL_HOLD, c->hold_ms) ||
	    nla_put_u8(msg, L2TPSEL_A_RL_STEP, c->step) ||
	    nla_put_u8(msg, L2TPSEL_A_RL_LOAD, t->th.load) ||
	    nla_put_u8(msg, L2TPSEL_A_RL_PERCENT, t->th.percent) ||
	    nla_put_u32(msg, L2TPSEL_A_RL_USERS, t->users) ||
	    nla_put_u32(msg, L2TPSEL_A_RL_CHANGES, t->changes) ||
	    nla_put_u32(msg, L2TPSEL_A_RL_SAMPLES, t->samples))
		return -EMSGSIZE;
	bands = nla_nest_start(msg, L2TPSEL_A_RL_BANDS);
	if (!bands)
		return -EMSGSIZE;
	for (i = 0; i < c->nbands; i++) {
		band = nla_nest_start(msg, L2TPSEL_A_RL_BAND);
		if (!band ||
		    nla_put_u8(msg, L2TPSEL_A_RL_BAND_LOAD, c->band[i].load) ||
		    nla_put_u8(msg, L2TPSEL_A_RL_BAND_PERCENT, c->band[i].percent))
			return -EMSGSIZE;
		nla_nest_end(msg, band);
	}
	nla_nest_end(msg, bands);
	return 0;
}

static int ks_rl_parse_bands(struct genl_info *info, struct rl_throttle_conf *c)
{
	const struct nlattr *list = info->attrs[L2TPSEL_A_RL_BANDS], *band;
	struct nlattr *tb[L2TPSEL_A_RL_BAND_PERCENT + 1];
	int rem, ret;

	c->nbands = 0;
	nla_for_each_nested(band, list, rem) {
		if (nla_type(band) != L2TPSEL_A_RL_BAND) {
			ks_msg(info, band, "bands: only RL_BAND entries");
			return -EINVAL;
		}
		if (c->nbands == RL_BANDS_MAX) {
			ks_msg(info, band, "more than %d bands", RL_BANDS_MAX);
			return -ERANGE;
		}
		ret = nla_parse_nested(tb, L2TPSEL_A_RL_BAND_PERCENT, band, ks_band_policy,
				       info->extack);
		if (ret)
			return ret;
		if (!tb[L2TPSEL_A_RL_BAND_LOAD] || !tb[L2TPSEL_A_RL_BAND_PERCENT]) {
			ks_msg(info, band, "band %u: needs a load and a percent", c->nbands + 1);
			return -EINVAL;
		}
		c->band[c->nbands].load = nla_get_u8(tb[L2TPSEL_A_RL_BAND_LOAD]);
		c->band[c->nbands].percent = nla_get_u8(tb[L2TPSEL_A_RL_BAND_PERCENT]);
		c->nbands++;
	}
	if (!c->nbands) {
		ks_msg(info, list, "no bands: a throttle profile has 1..%d", RL_BANDS_MAX);
		return -ERANGE;
	}
	return 0;
}

static const struct ks_rl_opt ks_th_conf_opts[] = {
	KS_RL_OPT(struct ks_th_conf, RL_HOLD, u32, c.hold_ms, has_hold),
	KS_RL_OPT(struct ks_th_conf, RL_STEP, u8, c.step, has_step),
	KS_RL_OPT(struct ks_th_conf, RL_SOURCE, u8, source, has_source),
	KS_RL_OPT(struct ks_th_conf, RL_PERIOD, u32, period_ms, has_period),
};

static struct ks_table *ks_th_table(struct l2tpsel_net *ln)
{
	return &ln->rl->throttles;
}

static int ks_th_add(struct l2tpsel_net *ln, const char *name, const void *conf,
		     struct l2s_err *err)
{
	return ks_th_new(ln, name, conf, err);
}

static int ks_th_change(struct l2tpsel_net *ln, struct ks_obj *o, const void *conf,
			struct l2s_err *err)
{
	return ks_th_set(ln, container_of(o, struct ks_throttle, obj), conf, err);
}

static int ks_th_remove(struct l2tpsel_net *ln, struct ks_obj *o, struct l2s_err *err)
{
	return ks_th_del(ln, container_of(o, struct ks_throttle, obj), err);
}

static const struct nlattr *ks_th_err_attr(struct genl_info *info, int ret)
{
	return info->attrs[L2TPSEL_A_RL_BANDS] ?: info->attrs[L2TPSEL_A_NAME];
}

static const struct ks_rl_kind ks_rl_throttle = {
	.get_cmd = L2TPSEL_CMD_THROTTLE_GET, .what = "throttle profile",
	.name_what = "throttle profile name", .table = ks_th_table, .add = ks_th_add,
	.set = ks_th_change, .del = ks_th_remove, .fill = ks_th_fill,
	.err_attr = ks_th_err_attr,
};

int ks_nl_th_change(struct sk_buff *skb, struct genl_info *info)
{
	bool is_new = info->genlhdr->cmd == L2TPSEL_CMD_THROTTLE_NEW;
	struct nlattr **a = info->attrs;
	struct ks_th_conf tc = { };
	const char *name;
	int ret;

	name = ks_rl_name(info, "throttle profile name");
	if (!name)
		return -EINVAL;
	if (is_new && (ks_nl_missing(info, L2TPSEL_A_RL_HOLD) ||
		       ks_nl_missing(info, L2TPSEL_A_RL_STEP) ||
		       ks_nl_missing(info, L2TPSEL_A_RL_BANDS)))
		return -EINVAL;
	ks_rl_read_opts(info, ks_th_conf_opts, ARRAY_SIZE(ks_th_conf_opts), &tc);
	if (a[L2TPSEL_A_RL_BANDS]) {
		ret = ks_rl_parse_bands(info, &tc.c);
		if (ret)
			return ret;
		tc.has_bands = true;
	}
	if (tc.has_period) {
		if (tc.period_ms < KS_RL_PERIOD_MIN || tc.period_ms > KS_RL_PERIOD_MAX) {
			ks_msg(info, a[L2TPSEL_A_RL_PERIOD],
			       "sampling period %u ms: must be %u..%u ms", tc.period_ms,
			       KS_RL_PERIOD_MIN, KS_RL_PERIOD_MAX);
			return -ERANGE;
		}
	}
	if (!is_new && !tc.has_hold && !tc.has_step && !tc.has_bands && !tc.has_source &&
	    !tc.has_period) {
		ks_msg(info, NULL, "nothing to set: give hold, step, bands, source or period");
		return -EINVAL;
	}
	return ks_rl_commit(info, &ks_rl_throttle, is_new, name, &tc);
}

int ks_nl_th_del(struct sk_buff *skb, struct genl_info *info)
{
	return ks_rl_delete(info, &ks_rl_throttle);
}

int ks_nl_th_get(struct sk_buff *skb, struct genl_info *info)
{
	return ks_rl_get_one(info, &ks_rl_throttle);
}

int ks_nl_th_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	return ks_rl_dump(skb, cb, &ks_rl_throttle);
}

int ks_nl_th_load(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct ks_throttle *t = NULL;
	struct l2tpsel_net *ln = ks_ln(info);
	u32 load, changed = 0;
	struct sk_buff *msg;
	const char *name;
	struct ks_obj *o;
	unsigned long id;
	void *hdr;
	int ret = 0;
	u64 now;

	if (ks_nl_missing(info, L2TPSEL_A_RL_LOAD))
		return -EINVAL;
	load = nla_get_u8(a[L2TPSEL_A_RL_LOAD]);
	if (load > 100) {
		ks_msg(info, a[L2TPSEL_A_RL_LOAD], "load %u %%: must be 0..100 %%", load);
		return -ERANGE;
	}
	name = ks_rl_str(info, L2TPSEL_A_NAME, "throttle profile name", L2TPSEL_NAME_MAX - 1);
	if (IS_ERR(name))
		return -EINVAL;
	msg = ks_reply_new(info, L2TPSEL_CMD_THROTTLE_LOAD, &hdr);
	if (!msg)
		return -ENOMEM;
	ks_lock(ln);
	now = ks_rl_now();
	if (name) {
		t = ks_th_find(ln, name);
		if (!t) {
			ret = ks_rl_noent(info, "throttle profile", name);
		} else if (t->source != L2TPSEL_RL_SOURCE_PUSH) {
			ks_msg(info, a[L2TPSEL_A_NAME],
			       "throttle profile \"%s\" samples the CPU: its load cannot be pushed",
			       name);
			ret = -EINVAL;
		} else {
			changed = ks_th_load(ln, t, load, now);
		}
	} else {
		xa_for_each(&ln->rl->throttles.xa, id, o) {
			t = container_of(o, struct ks_throttle, obj);
			if (t->source == L2TPSEL_RL_SOURCE_PUSH)
				changed += ks_th_load(ln, t, load, now);
		}
	}
	if (!ret)
		ks_rl_arm(ln);
	ks_unlock(ln);
	if (ret) {
		nlmsg_free(msg);
		return ret;
	}
	return ks_reply_send(info, msg, hdr, nla_put_u32(msg, L2TPSEL_A_RL_CHANGES, changed));
}
