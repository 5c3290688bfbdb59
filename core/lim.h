/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Session admission: the five limit levels of SPEC §4 (S-LIM-1..9).
 *
 * The core owns the arithmetic and the order of the checks; the caller owns
 * the objects (chassis, tunnels, tunnel groups, session-limit groups,
 * clients), finds the counters one session touches and passes them as a
 * struct lim_path, under whatever lock makes check + count atomic.
 */
#ifndef L2S_LIM_H
#define L2S_LIM_H

#include "l2s_types.h"

/* Checked in this order (S-LIM-1). */
enum lim_level {
	LIM_CHASSIS,
	LIM_TUNNEL,
	LIM_TUNNEL_GROUP,
	LIM_SLG,
	LIM_CLIENT,
	LIM_NLEVELS,
	LIM_PASS = LIM_NLEVELS,	/* lim_admit(): no level rejected */
};

/* The LAC checks chassis and tunnel only; the LNS all five (S-LIM-1). */
enum lim_role {
	LIM_ROLE_LAC,
	LIM_ROLE_LNS,
};

/* S-LIM-7: an LNS refuses an ICRQ with CDN result code 4, error code 4. */
#define LIM_CDN_RESULT	4
#define LIM_CDN_ERROR	4

/* Default chassis maximum: the hard ceiling no configured limit may exceed (S-LIM-6). */
#define LIM_DEFAULT_CHASSIS_MAX	1000000u

/* One level's counter as a session sees it: @count NULL = the level does not apply. */
struct lim_slot {
	u32 *count;
	u32 limit;		/* 0 = no limit configured */
};

/* The counters one session touches, filled in by the caller. */
struct lim_path {
	struct lim_slot slot[LIM_NLEVELS];
	/*
	 * The client's sessions over all tunnel groups: not a checked level, but
	 * what a session-limit group adds or subtracts when its membership
	 * changes (S-LIM-4).  NULL when there is no client (LAC role).
	 */
	u32 *client_total;
};

/* Chassis-wide settings and the chassis count. */
struct lim_chassis {
	u32 maximum;		/* hard ceiling, LIM_DEFAULT_CHASSIS_MAX by default */
	u32 limit;		/* configured chassis limit, 0 = none */
	u32 tunnel_limit;	/* one value for every tunnel (S-LIM-2), 0 = none */
	u32 count;		/* live sessions on the chassis */
};

/* A session-limit group: one limit on the sum of its clients' sessions (S-LIM-4). */
struct lim_slg {
	u32 limit;
	u32 count;
};

/* Called once per level checked, in order: for traces and the simulator. */
typedef void (*lim_trace_fn)(void *arg, enum lim_level level, bool pass);

const char *lim_level_name(enum lim_level level);

void lim_chassis_init(struct lim_chassis *ch);

/* The chassis slot: the configured limit, or the maximum when it is lower. */
struct lim_slot lim_chassis_slot(struct lim_chassis *ch);

/* Refuse a configured @value above the chassis maximum (S-LIM-6): 0 or -ERANGE. */
int lim_check_value(const struct lim_chassis *ch, u32 value, const char *what,
		    struct l2s_err *err);

/*
 * Change the chassis maximum.  @highest_configured is the highest limit
 * configured anywhere (the caller knows its objects); a maximum below it, or
 * zero, is refused.
 */
int lim_set_maximum(struct lim_chassis *ch, u32 maximum, u32 highest_configured,
		    struct l2s_err *err);

/*
 * Check @path for @role without changing anything.  Returns the first level
 * whose count is at (or above) its limit, or LIM_PASS.  @trace, if not NULL,
 * sees every level checked, up to and including the one that rejected.
 */
enum lim_level lim_check(const struct lim_path *path, enum lim_role role,
			 lim_trace_fn trace, void *arg);

/*
 * Admit one session: lim_check() and, when it passes, count the session on
 * every level of @path.  Returns LIM_PASS or the level that refused.
 * @reached, if not NULL, gets a bit (1 << level) for each level that this
 * session brought to its limit.
 */
enum lim_level lim_admit(const struct lim_path *path, enum lim_role role,
			 lim_trace_fn trace, void *arg, u32 *reached);

/*
 * Count a session that goes down on every level of @path.  All or nothing: if
 * any counter is already zero nothing changes and -ENOENT is returned (the caller
 * reported a session that was never up).  @cleared, if not NULL, gets a bit
 * for each level that was at its limit and now is below it.
 */
int lim_release(const struct lim_path *path, u32 *cleared, struct l2s_err *err);

/*
 * Session-limit group membership (S-LIM-4): adding or removing a client moves
 * that client's current sessions into or out of the group's count.  No
 * session is ever dropped, even when the sum now exceeds the limit.
 */
void lim_slg_add_client(struct lim_slg *slg, u32 client_total);
int lim_slg_remove_client(struct lim_slg *slg, u32 client_total, struct l2s_err *err);

#endif /* L2S_LIM_H */
