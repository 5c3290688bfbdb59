/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the handlers of rate limits (nl_ratelimit.c) share with those of
 * throttle profiles (nl_throttle.c): the attribute helpers, and the steps
 * both kinds of object take the same way (struct ks_rl_kind).
 */
#ifndef KS_NL_RATELIMIT_H
#define KS_NL_RATELIMIT_H

#include <net/genetlink.h>

#include "ratelimit.h"

/* Lengths are checked here, so that the message names the bound. */
#define RL_STR_POLICY	{ .type = NLA_NUL_STRING, .len = 255 }

/*
 * An optional attribute a NEW or SET reads into its conf: the value at
 * offset @val, true at @has.  A number (@size 1, 2 or 4 bytes: the type
 * of the field and of the attribute's policy), or with @max a string of
 * at most @max - 1 bytes whose refusal names @what.
 */
struct ks_rl_opt {
	u16 attr;
	u8 size;
	u16 val, has;
	u16 max;
	const char *what;
};

#define KS_RL_OPT(type, a, t, f, h) \
	{ .attr = L2TPSEL_A_##a, .size = sizeof(t), .val = offsetof(type, f), \
	  .has = offsetof(type, h) }
#define KS_RL_OPT_STR(type, a, f, h, m, w) \
	{ .attr = L2TPSEL_A_##a, .val = offsetof(type, f), .has = offsetof(type, h), \
	  .max = (m), .what = (w) }

/*
 * A rate limit or a throttle profile, for the steps of the handlers both
 * kinds share: NEW and SET once the attributes are read, DEL, GET, dump.
 * The state's calls (ratelimit.c) take the object as its struct ks_obj
 * and the conf its NEW or SET read.
 */
struct ks_rl_kind {
	u8 get_cmd;			/* of GET's reply and the dump's entries */
	const char *what;		/* "rate limit", for messages */
	const char *name_what;		/* "rate limit name" */
	struct ks_table *(*table)(struct l2tpsel_net *ln);
	int (*add)(struct l2tpsel_net *ln, const char *name, const void *conf,
		   struct l2s_err *err);
	int (*set)(struct l2tpsel_net *ln, struct ks_obj *o, const void *conf,
		   struct l2s_err *err);
	int (*del)(struct l2tpsel_net *ln, struct ks_obj *o, struct l2s_err *err);
	int (*fill)(struct sk_buff *msg, struct ks_obj *o, u64 now);
	/* The attribute a refusal (@ret) of NEW or SET is about. */
	const struct nlattr *(*err_attr)(struct genl_info *info, int ret);
};

const char *ks_rl_str(struct genl_info *info, int type, const char *what, size_t max);
const char *ks_rl_name(struct genl_info *info, const char *what);
int ks_rl_noent(struct genl_info *info, const char *what, const char *name);
int ks_rl_read_opts(struct genl_info *info, const struct ks_rl_opt *opts, size_t n, void *conf);
int ks_rl_commit(struct genl_info *info, const struct ks_rl_kind *k, bool is_new,
		 const char *name, const void *conf);
int ks_rl_delete(struct genl_info *info, const struct ks_rl_kind *k);
int ks_rl_get_one(struct genl_info *info, const struct ks_rl_kind *k);
struct netlink_callback;
int ks_rl_dump(struct sk_buff *skb, struct netlink_callback *cb, const struct ks_rl_kind *k);

#endif /* KS_NL_RATELIMIT_H */
