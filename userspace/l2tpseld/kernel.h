/* SPDX-License-Identifier: GPL-2.0 */
/*
 * l2tpseld: selection and admission as the agent asks for them (struct
 * l2d_kops): the l2tpsel module (kernel_netlink.c) or the core in-process (kernel_none.c).
 */
#ifndef L2D_KERNEL_H
#define L2D_KERNEL_H

#include "l2d.h"

/* What the kernel (or kernel none's core) says to try next, or that the login ended. */
struct l2d_admit {
	bool pass;
	unsigned int level;		/* enum l2tpsel_level that refused */
	uint16_t result, error;		/* the CDN to send on refusal */
};

struct l2d_step {
	bool done;
	bool ok;			/* done */
	unsigned int why;		/* done, enum l2tpsel_why */
	struct l2d_admit admit;		/* done, why L2TPSEL_WHY_ADMISSION */
	bool setup, shortest;		/* attempt */
	char tunnel[L2D_NAME_MAX], profile[L2D_NAME_MAX];
	struct l2d_addr remote, local;	/* remote's port set; local's port 0 */
	bool has_local;
	unsigned int level;
	/*
	 * The login's own rate-limit checks come with its steps (the module's
	 * RL_ASK, or kernel none's core): rl_login refused the login before it
	 * began (nothing else is set), rl_attempt is the attempt's verdict.
	 */
	struct l2d_rlans rl_login, rl_attempt;
};

/* One destination of the selection (S-OPS-3): the kernel's DEST_GET, or the core's. */
struct l2d_dest_info {
	char remote[64], local[64];	/* "" local: any */
	uint16_t port;
	uint32_t lockout_ms;		/* remaining; 0 unlocked */
	uint32_t sessions, in_flight, tunnels, attempts, failures;
};
typedef void (*l2d_dest_fn)(void *ctx, const struct l2d_dest_info *di);

/* Selection and admission: the l2tpsel module (kernel_netlink.c) or the core in-process (kernel_none.c). */
struct l2d_kops {
	const char *name;
	int (*login_begin)(struct l2d *d, struct l2d_login *lg, struct l2d_step *st);
	/*
	 * @outcome: enum l2tpsel_outcome.  OK counts lg->s for selection and
	 * admission in one step (its key and tunnel): done and ok, it is
	 * counted until session_down; done, not ok, why ADMISSION: refused by
	 * a limit (st->admit), nothing counted.
	 */
	int (*login_report)(struct l2d *d, struct l2d_login *lg, unsigned int outcome,
			    uint16_t result, uint16_t error, struct l2d_step *st);
	/* LNS: admit and count an incoming session */
	int (*session_up)(struct l2d *d, struct l2d_session *s, struct l2d_admit *a);
	/* end every count of a session (either kind) */
	int (*session_down)(struct l2d *d, uint64_t key);
	/* the login is freed, done or not; may be NULL */
	void (*login_end)(struct l2d *d, struct l2d_login *lg);
	void (*fini)(struct l2d *d);
	const char *(*errmsg)(struct l2d *d);	/* the last refusal's text, or NULL */
	int (*rl_check)(struct l2d *d, const struct l2d_rlreq *q, struct l2d_rlans *a);
	/* every destination to @fn (l2d_dests()); may be NULL */
	int (*dests)(struct l2d *d, l2d_dest_fn fn, void *ctx);
};

extern const struct l2d_kops l2d_kops_none;	/* kernel none (kernel_none.c) */
extern const struct l2d_kops l2d_kops_netlink;	/* kernel netlink (kernel_netlink.c) */

/* l2d.c: */
/* Each destination to @fn. Return: 0, or -errno (the kernel did not answer). */
int l2d_dests(struct l2d *d, l2d_dest_fn fn, void *ctx);
/* The "destination ..." line of the API's stats for @di. */
int l2d_dest_line(const struct l2d_dest_info *di, char *buf, size_t len);

#endif
