/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * One login's walk through a tunnel profile (S-SEL-1..11) as a step API that
 * the module can drive across netlink calls and the simulator in a loop:
 *
 *	l2s_sel_begin()  -> ATTEMPT (tunnel, destination) | DONE (result)
 *	l2s_sel_report() -> ATTEMPT (tunnel, destination) | DONE (result)
 *
 * Between the calls the caller sets up the tunnel (SCCRQ when the step says
 * so) and the session (ICRQ), then reports how that went; a login that ends
 * without a report (aborted, timed out, its owner gone) goes through
 *
 *	l2s_sel_end()    -> the place its attempt holds is given back
 *
 * An attempt holds a place on its tunnel and destination from the step that
 * names it to its report: load balancing and max-sessions count logins in
 * flight as sessions there (S-STORM-1, S-STORM-2).  All per-login
 * state is the small struct l2s_login; destinations and their lockouts are in
 * the struct l2s_core and shared by every login.  The caller holds its lock
 * around each call.
 */
#ifndef L2S_SEL_H
#define L2S_SEL_H

#include "obj.h"
#include "env.h"

/* Restarts after unlocking DLNC (S-SEL-9) are bounded so a login ends even
 * when other logins keep locking destinations between its steps.
 */
#define L2S_MAX_RESTARTS	(L2S_DESTS_PER_PROFILE + 1)

/* How an attempt ended. */
enum l2s_outcome_kind {
	L2S_OUT_OK = 1,		/* session established: login succeeds (S-SEL-3) */
	L2S_OUT_NO_REPLY,	/* no SCCRP / ICRP after the last retransmission (S-SEL-4) */
	L2S_OUT_CDN,		/* LNS sent CDN during session setup */
	L2S_OUT_STOPCCN,	/* LNS refused or closed the tunnel */
	L2S_OUT_CLIENT_GONE,	/* the PPP client went away */
	L2S_OUT_LOCAL,		/* a local failure (socket, ID, queue, own rate limit) */
};

struct l2s_outcome {
	u8 kind;		/* enum l2s_outcome_kind */
	u16 result;		/* CDN / StopCCN result code */
	u16 error;		/* CDN / StopCCN error code */
};

enum l2s_step_kind {
	L2S_STEP_ATTEMPT = 1,
	L2S_STEP_DONE = 2,
};

/* Why a login failed. */
enum l2s_fail_why {
	L2S_FAIL_NONE = 0,
	L2S_FAIL_EXHAUSTED,	/* every valid destination tried, DLNC empty */
	L2S_FAIL_CDN,		/* CDN not configured to fail over */
	L2S_FAIL_STOPCCN,	/* StopCCN not configured to fail over */
	L2S_FAIL_CLIENT_GONE,
	L2S_FAIL_NO_TUNNELS,	/* empty profile */
	L2S_FAIL_STALE,		/* OK for a tunnel deleted during the login */
	L2S_FAIL_RESTARTS,	/* L2S_MAX_RESTARTS reached */
	L2S_FAIL_ADMISSION,	/* the module: the OK was refused by a session limit */
	L2S_FAIL_DRAINED,	/* nothing attempted: every valid tunnel drained (S-OPS-1) */
};

/* What the caller does next. */
struct l2s_step {
	u8 kind;		/* enum l2s_step_kind */
	u8 ok;			/* DONE: login succeeded */
	u8 why;			/* DONE and !ok: enum l2s_fail_why */
	u8 level;		/* ATTEMPT: preference level of the tunnel */
	u8 setup;		/* ATTEMPT: tunnel has no sessions, send SCCRQ first */
	u8 shortest;		/* ATTEMPT: the S-SEL-8 shortest-lockout case */
	u16 tunnel;		/* ATTEMPT, DONE ok: profile tunnel index */
	u16 dest;		/* ATTEMPT, DONE ok: destination slot */
};

/*
 * The per-login state, 96 bytes.  Its indexes (tunnel, lvl, the bits of
 * contacted and dlnc) refer to the profile version @gen; pdest[] is that
 * version's destination list, so that a report on a later version can
 * carry them over (l2s_sel_report()).
 */
struct l2s_login {
	u32 gen;		/* profile generation the indexes refer to */
	u32 key;		/* key hash for the hash modes */
	u32 contacted;		/* profile destinations attempted in this login */
	u32 dlnc;		/* DestinationsLockedNotContacted */
	u64 tuid;		/* uid of the tunnel of the attempt in progress */
	u16 tunnel;		/* tunnel of the attempt in progress */
	u8 lvl;			/* index in profile->levels */
	u8 level;		/* the preference value of levels[lvl] */
	u8 state;
	u8 tried_here;		/* attempts during this visit of the level */
	u8 restarts;
	u8 attempts;
	u8 ndests;		/* entries of pdest */
	u8 drained;		/* a tunnel was passed over as drained (S-OPS-1) */
	u16 pdest[L2S_DESTS_PER_PROFILE];
};

int l2s_sel_begin(struct l2s_login *lg, struct l2s_core *c,
		  struct l2s_profile *p, u32 key,
		  const struct l2s_env *env, struct l2s_step *st);
int l2s_sel_report(struct l2s_login *lg, struct l2s_core *c,
		   struct l2s_profile *p, const struct l2s_outcome *o,
		   const struct l2s_env *env, struct l2s_step *st);
bool l2s_sel_end(struct l2s_login *lg, struct l2s_core *c, struct l2s_profile *p);

u32 l2s_lockout_clear(struct l2s_core *c, const struct l2s_addr *local,
		      const struct l2s_addr *remote, const struct l2s_env *env);
u32 l2s_lockout_expire(struct l2s_core *c, const struct l2s_env *env);

const char *l2s_fail_name(u32 why);

#endif /* L2S_SEL_H */
