/* SPDX-License-Identifier: GPL-2.0 */
/*
 * l2tpseld: a call (an L2TPv2 session, RFC 2661 sections 7.4, 7.5) on its
 * tunnel, and what the rest of the agent may ask of it.
 */
#ifndef L2D_SESSION_H
#define L2D_SESSION_H

#include "accessline.h"
#include "l2d.h"
#include "tunnel.h"

enum l2d_sstate {
	L2D_S_WAIT_TUNNEL,	/* LAC: the tunnel is being set up */
	L2D_S_WAIT_ICRP,	/* LAC: ICRQ sent */
	L2D_S_WAIT_ICCN,	/* LNS: ICRP sent */
	L2D_S_ESTABLISHED,
	L2D_S_DEAD,
};

struct l2d_session {
	struct l2d_tunnel *t;
	struct l2d_session *next, **pprev;	/* t->sessions */
	uint16_t sid, peer_sid;
	enum l2d_sstate state;
	bool initiator;			/* we sent the ICRQ (LAC) */
	bool seq;			/* data messages carry Ns/Nr (RFC 2661 section 4.4.6) */
	uint16_t proxy_mru;		/* LNS: the MRU the LAC asked of the subscriber, 0 */
	struct l2d_proxy_lcp *proxy;	/* LNS, proxy-lcp: the proxied LCP taken, until pppd starts */
	uint32_t serial;
	uint64_t key;			/* SESSION_UP key */
	bool admitted;			/* counted (SESSION_UP, or a login's OK): SESSION_DOWN owed */
	uint16_t pstat;			/* d->pstats index + 1 it is counted in, 0: none */
	bool lns_counted;		/* an LNS-role call: in t->p->lns_calls, d->n_lns_calls */
	struct l2d_login *login;	/* LAC, during setup */
	uint64_t icrq_us;		/* LAC: when its ICRQ was queued */
	uint64_t icrp_us;		/* LAC: when its ICRP came */
	uint16_t cdn_result, cdn_error;
	enum l2d_end end;
	char user[L2D_USER_MAX];
	struct l2d_session *dead_next;	/* d->dead_sessions */
	struct l2d_timer setup_timer;
	/* on t->txwait_*: setup_timer starts when message txwait_ns leaves */
	bool txwait;
	uint16_t txwait_ns;
	struct l2d_session *txwait_next;
	/* on t->icrq_*: its ICRQ waits for its turn (tunnel.c) */
	bool icrq_wait;
	uint64_t wait_until;		/* icrq-timeout-max from its first wait; 0: none */
	struct l2d_session *icrq_next;
	uint64_t tx_ms;			/* when that message first left */
	bool dp_added;
	int pppd_pid;			/* dataplane kernel: its pppd, 0 when none */
	uint32_t api_id;		/* the login id the API gave out */
	struct l2d_idnode by_api_id;	/* d->sessions_by_api_id, when @api_id */
	/* the access role (access*.c): the PPPoE subscriber, NULL for an API login */
	void *access;
	int ppp_fd;			/* its PPPoL2TP socket while bridged, -1 */
	struct l2d_job *bridge_job;	/* the bridge under way (access_call.c) */
	char calling[64], called[64];	/* ICRQ Calling / Called Number, "" = none */
	/* S-AL-1, RFC 5515: the subscriber's line.  LAC: what its ICRQ
	 * carried (al_sent: with Connect Speed Update Enable, so CSUNs follow
	 * rate changes); LNS: what the ICRQ carried, rates updated by CSUN */
	struct access_line al;
	bool al_sent;
	bool csu_enabled;		/* LNS: the LAC sent Connect Speed Update Enable */
	uint32_t tx_bps, rx_bps;	/* LNS: the ICCN's connect speeds, then the CSUNs' */
	bool acct_started;		/* LNS: RADIUS Accounting Start sent (lnsacct.c) */
	uint64_t acct_start_ms;
	/* S-LTS-1/2: LNS, the switches the call passed before us (its ICRQ's
	 * hop-count AVP, lts.h); LAC, the count its ICRQ carries on */
	unsigned int lts_hops;
	bool lts;			/* LNS: the call is switched (s->access its switch) */
};

/* ---- calls (session.c) ---- */
extern const struct l2d_session_ops l2d_session_ops;	/* the core's (l2d.h) */
struct l2d_session *l2d_session_new(struct l2d_tunnel *t, bool initiator);
void l2d_session_tunnel_up(struct l2d_session *s);	/* tunnel established: ICRQ */
/* The ICRQ now, its turn come (l2d_tunnel_icrq_wait()). */
void l2d_session_send_icrq(struct l2d_session *s);
void l2d_session_input(struct l2d_tunnel *t, struct l2tp_msg *m);
/* RFC 5515 (S-AL-1): CSUN and CSURQ in, CSUN out. */
void l2d_session_csu_input(struct l2d_tunnel *t, const struct l2tp_msg *m);
int l2d_session_send_csun(struct l2d_session *s, uint32_t tx_bps, uint32_t rx_bps);
/* LAC: the access side's bridge of @s is made (@err 0) or failed: the ICCN,
 * or the call cleared (CDN 4, a local failure). */
void l2d_session_bridged(struct l2d_session *s, int err);
/* The session ends: CDN when @send_cdn, hooks, counts; freed later. */
void l2d_session_close(struct l2d_session *s, enum l2d_end end, bool send_cdn,
		       uint16_t result, uint16_t error, const char *text);
/* proxy-lcp: forget the call's proxied LCP (its password wiped). */
void l2d_session_proxy_done(struct l2d_session *s);
/* S-OPS-2: @s from a snapshot, established on @t, counted under profile @pstat ("": none). */
void l2d_session_adopt(struct l2d_session *s, struct l2d_tunnel *t, const char *pstat);
struct l2d_session *l2d_session_find(struct l2d *d, uint16_t sid);
/*
 * Session id @sid stays out of l2d_session_new()'s reach from hold to
 * release: the kernel keeps a session until its socket's last close,
 * which a worker makes (l2d_offload_close()), and refuses another of the
 * same id meanwhile.
 */
void l2d_sid_hold(struct l2d *d, uint16_t sid);
void l2d_sid_release(struct l2d *d, uint16_t sid);
/* Put @s on @t's list of sessions, or take it off its tunnel's. */
void l2d_session_link(struct l2d_session *s, struct l2d_tunnel *t);
void l2d_session_unlink(struct l2d_session *s);
/* The login id @s answers to in the API (logout ID); 0: none. */
void l2d_session_set_api_id(struct l2d_session *s, uint32_t id);
uint64_t l2d_session_key(const struct l2d *d, uint16_t tid, uint16_t sid);
const char *l2d_sstate_name(enum l2d_sstate s);

#endif
