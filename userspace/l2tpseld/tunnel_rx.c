// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld: a known tunnel's input, RFC 2661 §5.1, §5.7, §5.8: reliable
 * delivery in order, then the state x message switch (SCCRP, SCCRQ,
 * SCCCN, StopCCN, HELLO; call messages to session.c) and the tunnel's
 * establishment.  It ends a tunnel through tunnel.c (tunnel_int.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/l2tpsel.h>

#include "auth.h"
#include "l2d.h"
#include "session.h"
#include "tunnel.h"
#include "tunnel_int.h"

static void tunnel_established(struct l2d_tunnel *t)
{
	struct l2d *d = t->d;
	struct l2d_session *s, *next;
	char peer[64];

	t->state = L2D_T_ESTABLISHED;
	t->tb_adopted = false;
	d->stats.tunnels_up++;
	l2d_lns_setup_done(t);
	if (!t->initiator) {
		t->lns_up = true;
		t->p->lns_up++;
		d->n_lns_up++;
	}
	l2tp_rel_set_max_retries(&t->rel, d->conf->retries_established);
	l2d_timer_cancel(d->loop, &t->setup_timer);
	if (d->conf->hello_ms)
		l2d_timer_arm(d->loop, &t->hello_timer, now_ms(d) + d->conf->hello_ms);
	l2d_addr_str(&t->peer, peer, sizeof(peer), true);
	l2d_log(d, L2D_LOG_INFO, "tunnel %u/%u to %s (%-s) established as %s", t->tid, t->peer_tid,
		peer, t->peer_host, t->initiator ? "LAC" : "LNS");
	if (t->initiator && d->aops && d->aops->tunnel_up)
		d->aops->tunnel_up(d, t);
	if (d->dpops) {
		/* no kernel tunnel, no session can carry PPP: clear it, our fault */
		if (d->dpops->tunnel_add(d, t))
			return l2d_tunnel_stop_end(t, L2D_END_ERROR, L2TP_STOPCCN_GENERAL_ERROR,
					       L2TP_ERR_NO_RESOURCES, "data path not created");
		t->dp_added = true;
	}
	for (s = t->sessions; s; s = next) {
		next = s->next;
		if (s->state == L2D_S_WAIT_TUNNEL)
			l2d_session_tunnel_up(s);
	}
	l2d_tunnel_idle_arm(t);
}

/* The message being received came from another port of the peer: the tunnel takes it. */
static bool take_rx_port(struct l2d_tunnel *t)
{
	if (!t->rx_from.ss.ss_family || l2d_addr_eq(&t->peer, &t->rx_from, true))
		return false;
	t->peer = t->rx_from;
	return true;
}

static void got_sccrp(struct l2d_tunnel *t, const struct l2tp_msg *m)
{
	struct l2tp_builder b;
	uint8_t buf[256];

	if (l2d_tunnel_take_peer_ids(t, m))
		return l2d_tunnel_stop_end(t, L2D_END_STOPCCN, L2TP_STOPCCN_GENERAL_ERROR,
				       L2TP_ERR_BAD_VALUE, "no Assigned Tunnel ID");
	if (l2d_tunnel_check_response(t, m, L2TP_MSG_SCCRP))
		return l2d_tunnel_stop_end(t, L2D_END_STOPCCN, L2TP_STOPCCN_NOT_AUTHORIZED, 0,
				       "Challenge Response missing or wrong");
	/*
	 * Section 8.1: the LNS may answer from a port of its own choosing (accel-ppp
	 * with ephemeral ports does); the tunnel goes on with the port the
	 * SCCRP came from, and only now is its socket connected.
	 */
	if (take_rx_port(t)) {
		char from[64];

		l2d_addr_str(&t->peer, from, sizeof(from), true);
		l2d_log(t->d, L2D_LOG_INFO, "tunnel %u: SCCRP from %s: the tunnel uses that port",
			t->tid, from);
	}
	if (t->d->env->tunnel_connect && t->d->env->tunnel_connect(t->d, t))
		return l2d_tunnel_stop_end(t, L2D_END_ERROR, L2TP_STOPCCN_GENERAL_ERROR,
				       L2TP_ERR_NO_RESOURCES, "cannot connect the tunnel's socket");
	l2d_tunnel_builder(t, &b, buf, sizeof(buf), 0, L2TP_MSG_SCCCN);
	if (l2d_tunnel_put_response(t, &b, m, L2TP_MSG_SCCCN))
		return l2d_tunnel_stop_end(t, L2D_END_STOPCCN, L2TP_STOPCCN_NOT_AUTHORIZED, 0,
				       "challenged, but no secret is configured");
	if (l2d_tunnel_queue(t, buf, l2tp_build_end(&b)))
		return l2d_tunnel_stop_end(t, L2D_END_ERROR, L2TP_STOPCCN_GENERAL_ERROR,
				       L2TP_ERR_NO_RESOURCES, NULL);
	/*
	 * One message may follow SCCCN at once, the rest wait for its ack.
	 * xl2tpd as LNS moves the tunnel to a new connected UDP socket when
	 * SCCCN arrives and reads that socket before its listening one: an ICRQ
	 * sent with SCCCN still reaches the old socket, and one sent after
	 * xl2tpd's ZLB for SCCCN reached the new one and was read first, then
	 * dropped as "out of order control packet (got 3, expected 2)", with
	 * every ICRQ behind it.  Once the first is acknowledged, the
	 * old socket holds nothing more of ours.
	 */
	l2tp_rel_hold(&t->rel, t->rel.ns_next);
	tunnel_established(t);
}

static void got_sccrq(struct l2d_tunnel *t, const struct l2tp_msg *m)
{
	struct l2d *d = t->d;
	struct l2tp_builder b;
	uint8_t buf[512];

	if (l2d_tunnel_take_peer_ids(t, m))
		return l2d_tunnel_kill(t, L2D_END_ERROR);
	/* tunnel_input_sccrq() asked the rate limiter before the tunnel existed */
	if (t->rl_reject)
		return l2d_tunnel_stop_end(t, L2D_END_LOCAL, t->rl_result, t->rl_error, t->rl_message);
	if (!t->has_secret && (m->avp[L2TP_AVP_CHALLENGE].present || d->conf->lns_auth_required))
		return l2d_tunnel_stop_end(t, L2D_END_LOCAL, L2TP_STOPCCN_NOT_AUTHORIZED, 0,
				       "no secret for this peer");
	l2d_tunnel_builder(t, &b, buf, sizeof(buf), 0, L2TP_MSG_SCCRP);
	l2d_tunnel_put_sccrx(t, &b);
	l2d_tunnel_put_response(t, &b, m, L2TP_MSG_SCCRP);
	if (l2d_tunnel_queue(t, buf, l2tp_build_end(&b)))
		return l2d_tunnel_kill(t, L2D_END_ERROR);
	t->state = L2D_T_WAIT_SCCCN;
	l2d_timer_arm(d->loop, &t->setup_timer, now_ms(d) + d->conf->sccrq_timeout_ms);
}

static void got_scccn(struct l2d_tunnel *t, const struct l2tp_msg *m)
{
	char why[96];

	if (l2d_tunnel_check_response(t, m, L2TP_MSG_SCCCN))
		return l2d_tunnel_stop_end(t, L2D_END_LOCAL, L2TP_STOPCCN_NOT_AUTHORIZED, 0,
				       "Challenge Response missing or wrong");
	/*
	 * Answered from a port of our own (tunnel_input_sccrq()): a LAC
	 * that sends its SCCCN to the port it began with does not follow
	 * section 8.1, and its data would reach the other tunnel's socket.
	 */
	if (t->own_port && l2d_port(&t->rx_local) != l2d_port(&t->local)) {
		t->d->stats.port_refused++;
		snprintf(why, sizeof(why), "SCCCN to port %u, not to port %u of the SCCRP",
			 l2d_port(&t->rx_local), l2d_port(&t->local));
		return l2d_tunnel_stop_end(t, L2D_END_LOCAL, L2TP_STOPCCN_GENERAL_ERROR, 0, why);
	}
	/* tunnels of the same peer that came up since its SCCRQ (S-SEC-7) */
	if (l2d_lns_full(t->d, t->p, why, sizeof(why))) {
		t->d->stats.tunnels_capped++;
		return l2d_tunnel_stop_end(t, L2D_END_LOCAL, L2TP_STOPCCN_GENERAL_ERROR,
				       L2TP_ERR_NO_RESOURCES, why);
	}
	tunnel_established(t);
}

static void got_stopccn(struct l2d_tunnel *t, const struct l2tp_msg *m)
{
	char peer[64];

	/*
	 * Closing already (our StopCCN crossed theirs, or they sent another):
	 * acknowledged at the flush; the hold runs from the first, or a peer
	 * that keeps sending could keep the tunnel for ever (§5.7).
	 */
	if (t->state == L2D_T_CLOSING)
		return;
	l2d_tunnel_result_of(m, &t->stop_result, &t->stop_error);
	l2d_addr_str(&t->peer, peer, sizeof(peer), true);
	l2d_log(t->d, L2D_LOG_INFO, "tunnel %u to %s: StopCCN received, result %u (%s) error %u",
		t->tid, peer, t->stop_result, l2tp_stopccn_result_name(t->stop_result), t->stop_error);
	if (t->state != L2D_T_ESTABLISHED)
		t->d->stats.tunnels_failed++;
	t->state = L2D_T_CLOSING;
	t->end = L2D_END_STOPCCN;
	l2d_tunnel_close_sessions(t, L2D_END_STOPCCN, t->stop_result, t->stop_error);
	l2d_tunnel_acct_down(t);
	l2d_tunnel_drop_unsent(t);
	l2d_tunnel_hold(t);		/* the ZLB ack goes at the flush */
}

static void tunnel_fsm(struct l2d_tunnel *t, struct l2tp_msg *m)
{
	if (m->type == L2TP_MSG_STOPCCN)
		return got_stopccn(t, m);
	if (t->state == L2D_T_CLOSING)
		return;		/* acknowledged, nothing more (§5.7) */
	if (l2tp_msg_is_session(m->type)) {
		if (t->state == L2D_T_ESTABLISHED)
			l2d_session_input(t, m);
		else
			l2d_log(t->d, L2D_LOG_INFO, "tunnel %u: %s before the tunnel is up, ignored",
				t->tid, l2tp_msg_name(m->type));
		return;
	}
	switch (m->type) {
	case L2TP_MSG_SCCRQ:
		if (t->state == L2D_T_IDLE && !t->initiator)
			return got_sccrq(t, m);
		break;
	case L2TP_MSG_SCCRP:
		if (t->state == L2D_T_WAIT_SCCRP)
			return got_sccrp(t, m);
		break;
	case L2TP_MSG_SCCCN:
		if (t->state == L2D_T_WAIT_SCCCN)
			return got_scccn(t, m);
		break;
	case L2TP_MSG_HELLO:
		return;
	case L2TP_MSG_CSUN:
	case L2TP_MSG_CSURQ:
		if (t->state == L2D_T_ESTABLISHED)
			l2d_session_csu_input(t, m);
		return;
	default:
		return;		/* a known message we have no use for */
	}
	/* §7.1: a message in the wrong state clears the tunnel */
	l2d_tunnel_stop_end(t, L2D_END_STOPCCN, L2TP_STOPCCN_FSM_ERROR, 0, l2tp_msg_name(m->type));
}

/* The parser asks for a StopCCN or a CDN (§7.1, Documentation/l2tp-protocol.md). */
static void answer_malformed(struct l2d_tunnel *t, struct l2tp_msg *m)
{
	struct l2d_session *s;
	uint8_t buf[256];
	uint16_t peer_sid = 0;
	size_t len;

	l2d_log(t->d, L2D_LOG_INFO, "tunnel %u: malformed %s (%s): %s", t->tid,
		l2tp_msg_name(m->type), l2tp_perr_name(m->answer.reason), m->answer.message);
	if (m->answer.action == L2TP_ACT_STOPCCN) {
		if (m->type == L2TP_MSG_STOPCCN)
			return got_stopccn(t, m);
		if (!t->peer_tid)
			l2tp_msg_get_u16(m, L2TP_AVP_ASSIGNED_TUNNEL_ID, &t->peer_tid);
		if (t->peer_tid)
			l2tp_rel_set_peer_tunnel(&t->rel, t->peer_tid);
		l2d_tunnel_stop_end(t, L2D_END_STOPCCN, m->answer.result_code, m->answer.error_code,
				m->answer.message);
		return;
	}
	/* CDN: the call only */
	s = m->hdr.session_id ? l2d_session_find(t->d, m->hdr.session_id) : NULL;
	if (s && s->t != t)
		s = NULL;
	if (m->type == L2TP_MSG_CDN) {
		if (s)
			l2d_session_close(s, L2D_END_CDN, false, 0, 0, NULL);
		return;
	}
	if (s) {
		l2d_session_close(s, L2D_END_CDN, true, m->answer.result_code, m->answer.error_code,
				  m->answer.message);
		return;
	}
	if (t->state != L2D_T_ESTABLISHED)
		return;
	l2tp_msg_get_u16(m, L2TP_AVP_ASSIGNED_SESSION_ID, &peer_sid);
	len = l2tp_build_answer(buf, sizeof(buf), &m->answer, t->peer_tid, peer_sid, 0);
	if (len)
		l2d_tunnel_queue(t, buf, len);
}

/*
 * A peer behind a NAT whose mapping changed: the same address (l2d_input()
 * matched it), another source port.  Section 8.1 keeps a tunnel's ports
 * for its life, so the NAT moved it; a new message delivered in order from
 * there says the peer is there now, and replies and the kernel's data
 * follow (the tunnel's socket is connected again: the kernel's transmit
 * checks the socket's state under its lock, l2tp_xmit_core()).  A ZLB, a
 * duplicate or a data packet moves nothing.
 */
static void follow_port(struct l2d_tunnel *t)
{
	struct l2d *d = t->d;
	char a[64];

	if (t->state != L2D_T_ESTABLISHED || !take_rx_port(t))
		return;
	l2d_addr_str(&t->peer, a, sizeof(a), true);
	l2d_log(d, L2D_LOG_INFO, "tunnel %u: the peer's port moved to %s: replies follow",
		t->tid, a);
	d->stats.port_moved++;
	if (d->env->tunnel_connect && d->env->tunnel_connect(d, t))
		l2d_log(d, L2D_LOG_ERR, "tunnel %u: its data keeps the old port", t->tid);
}

/* One control message from the peer, in order or not (§5.8). */
static void receive_one(struct l2d_tunnel *t, uint8_t *buf, size_t len)
{
	uint8_t raw[L2TP_REL_MSG_MAX];
	struct l2d *d = t->d;
	enum l2tp_action act;
	enum l2tp_rel_rx rx;
	struct l2tp_msg m;
	bool copied = false;

	/* parsing decodes hidden AVPs in place: a message kept for later needs its bytes */
	if (t->has_secret && len <= sizeof(raw)) {
		memcpy(raw, buf, len);
		copied = true;
	}
	act = l2tp_msg_parse(&m, buf, len, t->has_secret ? &t->sec : NULL);
	if (act == L2TP_ACT_DISCARD) {
		d->stats.rx_discard++;
		return;
	}
	rx = l2tp_rel_receive(&t->rel, &m.hdr, now_ms(d));
	l2d_log(d, L2D_LOG_DEBUG, "tunnel %u: rx %s ns %u nr %u: %s", t->tid,
		m.hdr.zlb ? "ZLB" : l2tp_msg_name(m.type), m.hdr.ns, m.hdr.nr, l2tp_rel_rx_name(rx));
	if (rx == L2TP_REL_OUT_OF_ORDER && (copied || !t->has_secret))
		l2tp_rel_stash(&t->rel, m.hdr.ns, copied ? raw : buf, len);
	if (rx == L2TP_REL_DELIVER && t->state != L2D_T_DEAD) {
		follow_port(t);
		t->heard_ms = now_ms(d);
		if (t->state == L2D_T_ESTABLISHED && d->conf->hello_ms)
			l2d_timer_arm(d->loop, &t->hello_timer, now_ms(d) + d->conf->hello_ms);
		switch (act) {
		case L2TP_ACT_ACCEPT:
			tunnel_fsm(t, &m);
			break;
		case L2TP_ACT_STOPCCN:
		case L2TP_ACT_CDN:
			if (t->state != L2D_T_CLOSING)
				answer_malformed(t, &m);
			break;
		default:
			break;
		}
	}
}

void l2d_tunnel_receive(struct l2d_tunnel *t, uint8_t *buf, size_t len)
{
	uint8_t next[L2TP_REL_MSG_MAX];
	size_t n;

	receive_one(t, buf, len);
	/* what came ahead of its turn and is next now, in order */
	while (t->state != L2D_T_DEAD && (n = l2tp_rel_unstash(&t->rel, next, sizeof(next))))
		receive_one(t, next, n);
	l2d_tunnel_flush(t);
}
