/* SPDX-License-Identifier: GPL-2.0 */
/*
 * l2tpseld: the LAC's logins (lac.c): a login's walk over the kernel's
 * steps, its attempts and outcome, its API lines and counts.
 */
#ifndef L2D_LAC_H
#define L2D_LAC_H

#include "kernel.h"
#include "l2d.h"

struct rad_set_entry;

struct api_conn;	/* an API client (api.c) */
struct sub;		/* a PPPoE subscriber of the access role (access_int.h) */

/* What a login is asked for (l2d_login_start()): by whom, for whom, where to. */
struct l2d_login_req {
	/* who asks: an API client or the access role's subscriber, not both */
	struct api_conn *client;
	bool brief;			/* the client wants the "done" line only */
	struct sub *access;
	const char *user;		/* USER@DOMAIN; NULL or "" with a profile */
	const char *profile;		/* NULL: the domain map's (RADIUS's for access) */
	const char *key;		/* the balancing key, NULL: the user */
	const char *calling, *called;	/* the ICRQ's numbers, NULL: none */
	/* RADIUS's tunnel set (S-RAD-2), @nset entries (copied) instead of a profile */
	const struct rad_set_entry *set;
	unsigned int nset;
};

struct l2d_login {
	struct l2d *d;
	struct l2d_login *next, **pprev;	/* d->logins */
	struct l2d_idnode by_id;	/* d->logins_by_id */
	uint32_t id;			/* ours, given to the API client */
	uint32_t kid;			/* the kernel's LOGIN_ID */
	char user[L2D_USER_MAX], profile[L2D_NAME_MAX], key[L2D_USER_MAX];
	struct api_conn *client;	/* NULL when gone */
	struct l2d_session *s;		/* the current attempt */
	struct l2d_step step;		/* the current attempt's step */
	unsigned int attempts;
	/* the current attempt's tunnel ("reuse", "join", "sccrq"); NULL when
	 * no attempt was sent.  Its event line is formatted from this and
	 * step only when wanted: logged at debug, or at info when it fails */
	const char *attempt_kind;
	bool brief;			/* its API client wants the "done" line only */
	void *kstate;			/* kernel none: the core's walk (kernel_none.c) */
	bool dead;
	/* the access role: the subscriber, told the end through aops->login_done */
	struct sub *access;
	char calling[64], called[64];
	struct l2d_session *ok_s;	/* set when the login ends with a session */
	char why[128];			/* set when it ends without one */
	/* RADIUS's tunnel set (S-RAD-2): the kernel's TUNNELS, and each tag's
	 * secret and Host Name for a tunnel its attempt opens */
	struct rad_set_entry *set;
	unsigned int nset;
	/* where its time went (l2d_mono_us()), told in its "done" line */
	uint64_t t0_us;			/* the request came */
	uint64_t attempt_us;		/* the current attempt began */
	uint64_t kernel_us;		/* in LOGIN_BEGIN and LOGIN_REPORT */
	uint64_t tunnel_us;		/* waiting for a tunnel to come up */
	uint64_t call_us;		/* ICRQ queued to ICRP, over its attempts */
	uint64_t bridge_us;		/* ICRP to ICCN: the data path made */
};

/* ---- LAC logins (lac.c) ---- */
extern const struct l2d_login_ops l2d_login_ops;	/* the core's (l2d.h) */
/* The per-profile line of @name (S-OPS-3), made on first use; NULL when full. */
struct l2d_pstat *l2d_pstat_of(struct l2d *d, const char *name);
/*
 * Start the login of @req.  Return: its id, or 0 with @err set.  The login
 * may have ended already (its lines were sent): look it up with
 * l2d_login_find() rather than keeping a pointer.  An API client's end is
 * told in API lines; an access subscriber's through d->aops->login_done()
 * (also when it ends before this returns), never through API lines.
 */
uint32_t l2d_login_start(struct l2d *d, const struct l2d_login_req *req, char *err, size_t errlen);
struct l2d_login *l2d_login_find(struct l2d *d, uint32_t id);
/* The attempt of @lg's session ended (ok, or how it failed). */
void l2d_login_attempt_end(struct l2d_login *lg, enum l2d_end end, uint16_t result,
			   uint16_t error);
void l2d_login_client_gone(struct l2d_login *lg);
/* Tear an established LAC session down by its API id. Return: 0 or -ENOENT. */
int l2d_logout(struct l2d *d, uint32_t id);
void l2d_login_event(struct l2d_login *lg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void l2d_login_free(struct l2d_login *lg);
/* The name of an enum l2d_login_result ("ok", "exhausted", ..., "kernel-error"). */
const char *l2d_login_result_name(unsigned int r);
/*
 * Count a login's end: @r, its profile's line, and when ok its setup time
 * @setup_us in the histogram and its session @s under the profile until
 * it closes (S-OPS-3).
 */
void l2d_login_count(struct l2d *d, const char *profile, unsigned int r, uint64_t setup_us,
		     struct l2d_session *s);

#endif
