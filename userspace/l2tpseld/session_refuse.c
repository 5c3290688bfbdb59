// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld: the answers to calls that have no session of ours (RFC 2661
 * §6.14, §4.4.2): a call refused before one exists, the caps and the rate
 * limiter on an ICRQ (S-SEC-7), a late ICRP.  Called by session.c
 * (session_int.h); calls none of the session files.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/l2tpsel.h>

#include "l2d.h"
#include "session.h"
#include "session_int.h"
#include "tunnel.h"

/*
 * A call we will not take, answered before any session exists: CDN result 5
 * (permanent lack of facilities, §4.4.2) to the peer's session, Assigned
 * Session ID 0 (we assigned none).
 */
void l2d_call_refuse(struct l2d_tunnel *t, const struct l2tp_msg *m, uint16_t peer_sid,
		     const char *why)
{
	struct l2tp_answer ans = { .action = L2TP_ACT_CDN, .result_code = L2TP_CDN_NO_FACILITIES_PERM };
	uint8_t buf[256];
	size_t len;

	l2d_strcpy(ans.message, sizeof(ans.message), why);
	l2d_log(t->d, L2D_LOG_INFO, "tunnel %u: %s from peer session %u: %s", t->tid,
		l2tp_msg_name(m->type), peer_sid, why);
	if (!peer_sid)
		return;		/* nobody to address the CDN to */
	len = l2tp_build_answer(buf, sizeof(buf), &ans, t->peer_tid, peer_sid, 0);
	if (len)
		l2d_tunnel_queue(t, buf, len);
}

/*
 * The rate limiter's verdict on an ICRQ of @t.  The Host Name keys the
 * limit only when the tunnel proved it with the secret (Challenge/Response,
 * RFC 2661 section 5.1.1); else the peer's address alone (S-SEC-7).
 */
unsigned int l2d_icrq_rl_check(struct l2d_tunnel *t, struct l2d_rlans *a)
{
	struct l2d_rlreq q = { .dir = L2TPSEL_RL_INGRESS, .msg = L2TPSEL_RL_MSG_ICRQ,
			       .peer = t->has_secret && t->peer_host[0] ? t->peer_host : NULL,
			       .remote = &t->peer };

	return l2d_rl_check(t->d, &q, a);
}

/* CDN 4/4 (RFC 2661 sections 6.14, 4.4.2: no facilities, no resources) to the
 * peer's call @peer_sid, which has no session of ours. */
void l2d_call_cdn_unheld(struct l2d_tunnel *t, uint16_t peer_sid, const char *message)
{
	struct l2tp_answer ans = { .action = L2TP_ACT_CDN, .result_code = L2TP_CDN_NO_FACILITIES_TEMP,
				   .error_code = L2TP_ERR_NO_RESOURCES };
	uint8_t buf[256];
	size_t len;

	if (message)
		l2d_strcpy(ans.message, sizeof(ans.message), message);
	len = l2tp_build_answer(buf, sizeof(buf), &ans, t->peer_tid, peer_sid, 0);
	if (len)
		l2d_tunnel_queue(t, buf, len);
}

/*
 * One peer may not take the session IDs, the calls or the pppd processes
 * of all (lns-max-calls-per-peer), nor all peers together the LAC role's
 * (lns-max-calls, S-SEC-7).  Return: true when the ICRQ was refused.
 */
bool l2d_icrq_capped(struct l2d_tunnel *t, uint16_t peer_sid)
{
	struct l2d *d = t->d;
	bool peer = t->p->lns_calls >= d->conf->lns_max_calls_per_peer;
	char why[128];

	if (!peer && d->n_lns_calls < d->conf->lns_max_calls)
		return false;
	snprintf(why, sizeof(why), "call limit: %s %u reached",
		 peer ? "lns-max-calls-per-peer" : "lns-max-calls",
		 peer ? d->conf->lns_max_calls_per_peer : d->conf->lns_max_calls);
	l2d_log(d, L2D_LOG_INFO, "tunnel %u: ICRQ from peer session %u refused: %s",
		t->tid, peer_sid, why);
	d->stats.calls_capped++;
	l2d_call_cdn_unheld(t, peer_sid, why);
	return true;
}

/*
 * A message for a session this agent does not hold.  An ICRP for a call
 * already given up (its setup timed out, the login moved on) is answered
 * with a CDN (result 10: not established in the time allotted), so the
 * LNS does not keep a half-open call and its pppd; anything else is logged
 * and dropped.
 */
void l2d_session_input_unknown(struct l2d_tunnel *t, struct l2tp_msg *m)
{
	const struct l2tp_avp_val *v = &m->avp[L2TP_AVP_ASSIGNED_SESSION_ID];
	const struct l2d_session *s;
	struct l2tp_builder b;
	uint8_t buf[256];
	uint16_t peer_sid;

	peer_sid = v->len == 2 ? l2tp_get16(v->data) : 0;
	/* never a CDN that would clear a call we hold (a replayed ICRP) */
	for (s = t->sessions; s && peer_sid; s = s->next)
		if (s->peer_sid == peer_sid)
			peer_sid = 0;
	if (m->type != L2TP_MSG_ICRP || !peer_sid || !m->hdr.session_id ||
	    t->state != L2D_T_ESTABLISHED) {
		l2d_log(t->d, L2D_LOG_INFO, "tunnel %u: %s for unknown session %u, ignored",
			t->tid, l2tp_msg_name(m->type), m->hdr.session_id);
		return;
	}
	l2d_log(t->d, L2D_LOG_INFO, "tunnel %u: late ICRP for session %u (peer %u), answered with CDN",
		t->tid, m->hdr.session_id, peer_sid);
	l2d_tunnel_builder(t, &b, buf, sizeof(buf), peer_sid, L2TP_MSG_CDN);
	l2tp_put_result(&b, L2TP_CDN_TIMEOUT, 0, "setup timeout");
	l2d_tunnel_put_u16(t, &b, L2TP_AVP_ASSIGNED_SESSION_ID, m->hdr.session_id);
	l2d_tunnel_queue(t, buf, l2tp_build_end(&b));
}
