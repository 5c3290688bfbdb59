/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What the caller gives the selection core for one call: the time, a source
 * of random numbers and an optional event sink.  The module passes
 * ktime-derived milliseconds, get_random_u32_below() and a tracepoint /
 * notification sink; the simulator passes scenario time, a seeded or pinned
 * generator and a JSON printer.
 */
#ifndef L2S_ENV_H
#define L2S_ENV_H

#include "l2s_types.h"

/*
 * One random choice the core needs: a number in [0, bound).  @cand lists the
 * tunnels (profile indexes) the choice is among, in configured order.  When
 * @weighted, cand[i]'s pool has l2s_lb_weight(profile, @lvl, cand[i])
 * numbers, the pools in @cand order; otherwise bound == n and the number is
 * an index into @cand.  Only a simulator that pins choices by tunnel name
 * needs more than @bound.
 */
struct l2s_draw {
	u32 bound;
	u32 n;
	const u8 *cand;
	u8 weighted;
	u8 lvl;			/* index in profile->levels */
};

enum l2s_ev_kind {
	L2S_EV_DLNC = 1,	/* a destination went on this login's DLNC list */
	L2S_EV_LOCKOUT,		/* a lockout started */
	L2S_EV_UNLOCK,		/* a lockout ended early or expired */
};

enum l2s_unlock_why {
	L2S_UNLOCK_DLNC = 1,	/* S-SEL-9 */
	L2S_UNLOCK_SHORTEST,	/* S-SEL-8 */
	L2S_UNLOCK_CLEAR,	/* S-SEL-11 */
	L2S_UNLOCK_EXPIRED,	/* timer ran out */
};

struct l2s_event {
	u8 kind;		/* enum l2s_ev_kind */
	u8 why;			/* enum l2s_unlock_why for L2S_EV_UNLOCK */
	u16 dest;		/* destination slot */
	u32 ms;			/* lockout length for L2S_EV_LOCKOUT */
	const void *login;	/* the login concerned, NULL if none */
};

struct l2s_env {
	u64 now;		/* milliseconds on the caller's monotonic clock */
	u32 (*rand)(void *ctx, const struct l2s_draw *d);
	void (*event)(void *ctx, const struct l2s_event *ev);	/* may be NULL */
	void *ctx;
};

/*
 * Memory for what grows with the configuration (a profile's tunnel array).
 * @alloc returns @size bytes, not zeroed, or NULL; @free gets the size back.
 * The module passes kvmalloc and kvfree, userspace malloc and free
 * (l2s_mem_default, set by l2s_core_init()); the unit tests pass an
 * allocator that fails on demand.
 */
struct l2s_mem {
	void *(*alloc)(void *ctx, size_t size);
	void (*free)(void *ctx, void *ptr, size_t size);
	void *ctx;
};

extern const struct l2s_mem l2s_mem_default;

#endif /* L2S_ENV_H */
