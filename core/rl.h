/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Rate limiting of L2TP signalling: SPEC §5 (S-RL-1..4), reference 004.
 *
 * A limiter (struct rl_limiter, 24 bytes) is a token bucket refilled at
 * @rate × (100 − throttle) / 100 tokens per second, @burst tokens deep.  It
 * starts full.  Tokens are counted in RL_TOKEN units so that a refill of
 * elapsed_ns × rate × (100 − throttle) units is exact: no division, no
 * rounding, no drift over any run.
 *
 * A throttle (struct rl_throttle) turns a load metric, pushed in by the
 * caller, into a throttle percent through a band table with a hold time and
 * a revert step (S-RL-3).  The caller applies the percent to every limiter
 * that uses the profile with rl_set_throttle().
 *
 * Time is the caller's, in nanoseconds, and must not go backwards (a step
 * back is treated as no time passing).  The caller serialises calls on one
 * limiter or throttle.
 */
#ifndef L2S_RL_H
#define L2S_RL_H

#include "l2s_types.h"

#define RL_NSEC_PER_SEC		1000000000ull
#define RL_NSEC_PER_MSEC	1000000ull

/* One token in bucket units: a refill of 1 ns at 1/s with no throttle is 100 units. */
#define RL_TOKEN		(RL_NSEC_PER_SEC * 100)

/* Bounds of the configuration (refused beyond, with the bound named). */
#define RL_RATE_MAX		10000000u	/* requests per second */
#define RL_BURST_MAX		1000000u	/* tokens */
#define RL_BANDS_MAX		8
#define RL_HOLD_MAX_MS		86400000u	/* one day */

/*
 * A token bucket in three words (24 bytes), so that there can be one per
 * peer, message type, destination and profile.
 */
struct rl_limiter {
	u64 tokens;		/* content, in RL_TOKEN units per token */
	u64 stamp;		/* time of the last refill, ns */
	u32 rate;		/* configured limit, requests per second */
	u32 burst : 24;		/* depth, tokens (RL_BURST_MAX < 2^24) */
	u32 throttle : 8;	/* percent taken off @rate (S-RL-3), 0..100 */
};

/* The decision for one request (S-RL-1); the action on RL_OVER is the caller's (S-RL-2). */
enum rl_verdict {
	RL_PASS,
	RL_OVER,
};

/* One row of a throttle's band table: load >= @load sets @percent (S-RL-3). */
struct rl_band {
	u8 load;	/* threshold, percent 1..100, strictly increasing */
	u8 percent;	/* throttle, 0..100, never decreasing */
};

/* A dynamic profile's configuration (004 "Dynamic Throttling ... Profile"). */
struct rl_throttle_conf {
	u32 hold_ms;	/* "Umgekehrte Haltezeit": time below the bands per revert step */
	u8 step;	/* "Umkehrschritt": percentage points taken off per step, 1..100 */
	u8 nbands;
	struct rl_band band[RL_BANDS_MAX];
};

/* A dynamic profile's state: the configuration, the last load and the percent. */
struct rl_throttle {
	struct rl_throttle_conf conf;
	u64 below_since;	/* start of the current hold period below the bands, ns */
	u8 load;		/* last load pushed, percent */
	u8 percent;		/* throttle in force */
	bool below;		/* the last load was below the lowest band */
};

int rl_check(u32 rate, u32 burst, struct l2s_err *err);
int rl_init(struct rl_limiter *l, u32 rate, u32 burst, u64 now, struct l2s_err *err);
int rl_set_rate(struct rl_limiter *l, u32 rate, u32 burst, u64 now, struct l2s_err *err);
void rl_set_throttle(struct rl_limiter *l, u32 percent, u64 now);
enum rl_verdict rl_admit(struct rl_limiter *l, u64 now);
enum rl_verdict rl_peek(struct rl_limiter *l, u64 now);
u32 rl_effective_rate(u32 rate, u32 percent);
const char *rl_verdict_name(enum rl_verdict v);

int rl_throttle_check(const struct rl_throttle_conf *conf, struct l2s_err *err);
int rl_throttle_init(struct rl_throttle *th, const struct rl_throttle_conf *conf,
		     struct l2s_err *err);
int rl_throttle_reconf(struct rl_throttle *th, const struct rl_throttle_conf *conf,
		       u64 now, struct l2s_err *err);
u32 rl_throttle_update(struct rl_throttle *th, u32 load, u64 now, bool *changed);
u32 rl_throttle_tick(struct rl_throttle *th, u64 now, bool *changed);
bool rl_throttle_next_step(const struct rl_throttle *th, u64 *when);

#endif /* L2S_RL_H */
