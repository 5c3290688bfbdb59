/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rate limits and throttle profiles of one namespace (SPEC §5, reference
 * 004): the state in ratelimit.c, the netlink handlers in nl_ratelimit.c
 * and nl_throttle.c.
 * Everything here is used under ln->lock.
 */
#ifndef KS_RATELIMIT_H
#define KS_RATELIMIT_H

#include "l2tpsel.h"
#include "obj.h"
#include "rl.h"

#define KS_RL_MAX_LIMITS	1024
#define KS_RL_MAX_THROTTLES	64
#define KS_RL_MSG_LEN		128	/* the Result Code AVP's message, with the NUL */
#define KS_RL_MAX_COUNT		10000	/* requests of one RL_CHECK */
/*
 * Limits one RL_CHECK looks at (each check reads every limit, twice when
 * the request passes) before it lets go of ln->lock and yields the CPU.
 */
#define KS_RL_CHECK_SLICE	8192
#define KS_RL_PERIOD_MIN	100	/* CPU sampling period, ms */
#define KS_RL_PERIOD_MAX	60000
#define KS_RL_PERIOD_DEFAULT	1000
#define KS_RL_RESULT_DEFAULT	2	/* "general error" (StopCCN and CDN) */
#define KS_RL_ERROR_DEFAULT	4	/* "insufficient resources" */
#define KS_RL_MESSAGE_DEFAULT	"rate limit exceeded"

/* A dynamic profile (S-RL-3). */
struct ks_throttle {
	struct ks_obj obj;
	struct rl_throttle th;
	u8 source;			/* enum l2tpsel_rl_source */
	u32 period_ms;
	u32 users;			/* limits naming it */
	u32 changes;			/* throttle changes so far */
	u32 samples;			/* loads pushed or sampled */
	u64 next_sample;		/* CPU source: ns */
	u64 cpu_busy, cpu_stamp;	/* CPU source: busy and clock at the last sample, ns */
};

/* A rate limit: a match, a bucket, an action and its counters (S-RL-1, S-RL-2). */
struct ks_rlimit {
	struct ks_obj obj;
	u8 dir;				/* enum l2tpsel_rl_dir */
	u8 msg;				/* enum l2tpsel_rl_msg */
	u8 key;				/* enum l2tpsel_rl_key */
	u8 action;			/* enum l2tpsel_rl_action */
	char skey[L2TPSEL_NAME_MAX];	/* peer, domain or profile */
	struct l2s_addr addr;		/* address or destination */
	u16 port;			/* destination port, 0 = any */
	u16 result, error;
	char message[KS_RL_MSG_LEN];
	struct ks_throttle *th;
	struct rl_limiter l;
	u64 passed, rejected, dropped;
};

struct ks_rlnet {
	struct l2tpsel_net *ln;
	struct ks_table limits;
	struct ks_table throttles;
	/* Revert steps and CPU samples, at the earliest due time. */
	struct delayed_work work;
	u64 armed_until;		/* ns, 0 when not armed */
};

/* What an RL_CHECK request knows about the request to decide. */
struct ks_rl_req {
	u8 dir, msg;
	const char *peer, *domain, *profile;	/* NULL when not given */
	struct l2s_addr addr;			/* family 0 when not given */
	u16 port;
};

/* The decision of RL_CHECK. */
struct ks_rl_verdict {
	u8 verdict;			/* enum l2tpsel_rl_verdict */
	u32 matched;
	const struct ks_rlimit *by;	/* the deciding limit when refused */
};

/* A limit's configuration as NEW / SET give it; has_* say what was given. */
struct ks_rl_conf {
	u8 dir, msg, key, action;
	const char *skey;
	struct l2s_addr addr;
	u16 port;
	u32 rate, burst;
	u16 result, error;
	const char *message;
	const char *throttle;		/* "" = none */
	bool has_rate, has_burst, has_action, has_result, has_error, has_message;
	bool has_throttle, reset;
};

struct ks_th_conf {
	struct rl_throttle_conf c;
	u8 source;
	u32 period_ms;
	bool has_hold, has_step, has_bands, has_source, has_period;
};

u64 ks_rl_now(void);
struct ks_throttle *ks_th_find(struct l2tpsel_net *ln, const char *name);
int ks_rl_new(struct l2tpsel_net *ln, const char *name, const struct ks_rl_conf *rc,
	      struct l2s_err *err);
int ks_rl_set(struct l2tpsel_net *ln, struct ks_rlimit *r, const struct ks_rl_conf *rc,
	      struct l2s_err *err);
void ks_rl_del(struct l2tpsel_net *ln, struct ks_rlimit *r);
void ks_rl_check(struct l2tpsel_net *ln, const struct ks_rl_req *req, u64 now,
		 struct ks_rl_verdict *v);
u32 ks_rl_tokens(struct ks_rlimit *r, u64 now);
int ks_th_new(struct l2tpsel_net *ln, const char *name, const struct ks_th_conf *tc,
	      struct l2s_err *err);
int ks_th_set(struct l2tpsel_net *ln, struct ks_throttle *t, const struct ks_th_conf *tc,
	      struct l2s_err *err);
int ks_th_del(struct l2tpsel_net *ln, struct ks_throttle *t, struct l2s_err *err);
bool ks_th_load(struct l2tpsel_net *ln, struct ks_throttle *t, u32 load, u64 now);
void ks_rl_arm(struct l2tpsel_net *ln);

/* nl_ratelimit.c */
struct sk_buff;
int ks_rl_put_verdict(struct sk_buff *msg, const struct ks_rl_verdict *v);

#endif /* KS_RATELIMIT_H */
