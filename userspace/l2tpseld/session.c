// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld: the incoming-call state machine, RFC 2661 §5.4.2, §7.4 (LAC)
 * and §7.5 (LNS).
 *
 *   LAC: WAIT_TUNNEL -(tunnel up)-> ICRQ, WAIT_ICRP -ICRP/ICCN-> ESTABLISHED
 *   LNS: ICRQ -(admission)-> ICRP, WAIT_ICCN -ICCN-> ESTABLISHED
 *                        \-> CDN result 4 error 4 when refused (S-LIM-7)
 *
 * The ICRQ setup timer (icrq-timeout) runs beside retransmission: an LNS
 * that acknowledges the ICRQ with a ZLB but never sends ICRP is "no reply".
 * Every end goes through l2d_session_close(), which sends the
 * CDN, releases the kernel counts and tells the login.  The answers to
 * calls without a session of ours are session_refuse.c's, RFC 5515's
 * speed updates session_csu.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/l2tpsel.h>

#include "kernel.h"
#include "l2d.h"
#include "lac.h"
#include "lts.h"
#include "ppp.h"
#include "proxy_lcp.h"
#include "radius.h"
#include "session.h"
#include "session_int.h"
#include "tunnel.h"

static const char *const sstate_names[] = {
	[L2D_S_WAIT_TUNNEL] = "wait-tunnel", [L2D_S_WAIT_ICRP] = "wait-icrp",
	[L2D_S_WAIT_ICCN] = "wait-iccn", [L2D_S_ESTABLISHED] = "established",
	[L2D_S_DEAD] = "dead",
};

const char *l2d_sstate_name(enum l2d_sstate s)
{
	return (unsigned int)s < sizeof(sstate_names) / sizeof(*sstate_names) ? sstate_names[s] : "?";
}

uint64_t l2d_session_key(const struct l2d *d, uint16_t tid, uint16_t sid)
{
	return (uint64_t)d->conf->agent_id << 32 | (uint32_t)tid << 16 | sid;
}

struct l2d_session *l2d_session_find(struct l2d *d, uint16_t sid)
{
	return d->sess_by_id[sid];
}

static bool sid_taken(const struct l2d *d, uint16_t id)
{
	return d->sess_by_id[id] || d->sid_closing[id / 8] & 1u << (id % 8);
}

void l2d_sid_hold(struct l2d *d, uint16_t sid)
{
	d->sid_closing[sid / 8] |= (uint8_t)(1u << (sid % 8));
}

void l2d_sid_release(struct l2d *d, uint16_t sid)
{
	d->sid_closing[sid / 8] &= (uint8_t)~(1u << (sid % 8));
}

static void session_timeout(struct l2d_timer *tm);

struct l2d_session *l2d_session_new(struct l2d_tunnel *t, bool initiator)
{
	struct l2d *d = t->d;
	struct l2d_session *s;
	uint16_t sid = l2d_alloc_id(d, sid_taken);

	if (!sid) {
		l2d_log(d, L2D_LOG_ERR, "no session id left");
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->t = t;
	s->sid = sid;
	s->initiator = initiator;
	s->state = L2D_S_WAIT_TUNNEL;
	s->ppp_fd = -1;
	s->key = l2d_session_key(d, t->tid, sid);
	l2d_timer_init(&s->setup_timer, session_timeout, s);
	l2d_session_link(s, t);
	d->sess_by_id[sid] = s;
	d->n_sessions++;
	l2d_tunnel_call_started(t);
	return s;
}

void l2d_session_adopt(struct l2d_session *s, struct l2d_tunnel *t, const char *pstat)
{
	struct l2d *d = t->d;
	struct l2d_pstat *p = pstat[0] ? d->lops->pstat_of(d, pstat) : NULL;

	s->state = L2D_S_ESTABLISHED;
	l2d_timer_init(&s->setup_timer, session_timeout, s);
	l2d_session_link(s, t);
	d->sess_by_id[s->sid] = s;
	d->n_sessions++;
	l2d_tunnel_call_started(t);
	if (s->lns_counted) {
		t->p->lns_calls++;
		d->n_lns_calls++;
	}
	if (p) {
		p->sessions++;
		s->pstat = (uint16_t)(p - d->pstats + 1);
	}
	if (s->api_id) {
		uint32_t id = s->api_id;

		s->api_id = 0;
		l2d_session_set_api_id(s, id);
	}
}

static void session_free(struct l2d_session *s)
{
	l2d_session_proxy_done(s);
	free(s);
}

void l2d_session_link(struct l2d_session *s, struct l2d_tunnel *t)
{
	s->t = t;
	s->next = t->sessions;
	if (s->next)
		s->next->pprev = &s->next;
	s->pprev = &t->sessions;
	t->sessions = s;
	t->n_sessions++;
}

void l2d_session_unlink(struct l2d_session *s)
{
	if (!s->pprev)
		return;
	*s->pprev = s->next;
	if (s->next)
		s->next->pprev = s->pprev;
	s->next = NULL;
	s->pprev = NULL;
	s->t->n_sessions--;
}

void l2d_session_set_api_id(struct l2d_session *s, uint32_t id)
{
	struct l2d *d = s->t->d;

	if (s->api_id)
		l2d_idmap_del(&d->sessions_by_api_id, &s->by_api_id);
	s->api_id = id;
	if (id)
		l2d_idmap_add(&d->sessions_by_api_id, &s->by_api_id, id);
}

static void unlink_session(struct l2d_session *s)
{
	struct l2d *d = s->t->d;

	if (s->lns_counted) {
		s->t->p->lns_calls--;
		d->n_lns_calls--;
		s->lns_counted = false;
	}
	l2d_session_unlink(s);
	if (d->sess_by_id[s->sid] == s)
		d->sess_by_id[s->sid] = NULL;
	l2d_session_set_api_id(s, 0);
	d->n_sessions--;
}

void l2d_session_close(struct l2d_session *s, enum l2d_end end, bool send_cdn,
		       uint16_t result, uint16_t error, const char *text)
{
	struct l2d_tunnel *t = s->t;
	struct l2d *d = t->d;
	struct l2d_login *lg = s->login;
	bool was_up = s->state == L2D_S_ESTABLISHED;

	if (s->state == L2D_S_DEAD)
		return;
	/*
	 * Not before the peer's Assigned Session ID is known (an ICRQ not yet
	 * answered): a CDN then carries Session ID 0 in its header, which RFC
	 * 2661 allows (the Assigned Session ID AVP names the call), but xl2tpd
	 * 1.3 takes Session ID 0 for the tunnel itself and tears the tunnel
	 * down with every live session in it.  An ICRP that comes after all is
	 * answered with a CDN then (l2d_session_input_unknown()); a tunnel left
	 * empty is closed by StopCCN, which clears the call as well.
	 */
	if (send_cdn && s->state == L2D_S_WAIT_ICRP && !s->peer_sid)
		l2d_log(d, L2D_LOG_INFO, "session %u: no CDN before the peer's session ID is known",
			s->sid);
	else if (send_cdn && t->state == L2D_T_ESTABLISHED && s->state != L2D_S_WAIT_TUNNEL) {
		struct l2tp_builder b;
		uint8_t buf[256];

		l2d_tunnel_builder(t, &b, buf, sizeof(buf), s->peer_sid, L2TP_MSG_CDN);
		l2tp_put_result(&b, result, error || text ? error : -1, text);
		l2d_tunnel_put_u16(t, &b, L2TP_AVP_ASSIGNED_SESSION_ID, s->sid);
		l2d_tunnel_queue(t, buf, l2tp_build_end(&b));
	}
	l2d_log(d, L2D_LOG_INFO, "session %u/%u in tunnel %u: %s -> closed (%s, result %u error %u)",
		s->sid, s->peer_sid, t->tid, l2d_sstate_name(s->state), l2d_end_name(end), result, error);
	if (s->acct_started && d->lns_acct)
		d->lns_acct(d, s, RAD_ACCT_STOP);
	s->state = L2D_S_DEAD;
	s->end = end;
	s->cdn_result = result;
	s->cdn_error = error;
	l2d_timer_cancel(d->loop, &s->setup_timer);
	l2d_tunnel_txwait_drop(t, s);
	l2d_tunnel_icrq_drop(t, s);
	if (s->dp_added && d->dpops)
		d->dpops->session_del(d, s);
	s->dp_added = false;
	if (s->admitted) {
		int err = d->kops->session_down(d, s->key);

		if (err)
			l2d_log(d, L2D_LOG_ERR, "session %u: SESSION_DOWN: %d", s->sid, err);
		s->admitted = false;
	}
	if (s->pstat) {
		d->pstats[s->pstat - 1].sessions--;
		s->pstat = 0;
	}
	if (!was_up && !lg)
		d->stats.sessions_failed++;
	if (s->access && !lg && d->aops) {
		/* an access call that was up: its subscriber goes too */
		d->aops->session_gone(d, s);
		s->access = NULL;
	}
	unlink_session(s);
	s->dead_next = d->dead_sessions;
	d->dead_sessions = s;
	l2d_reap_later(d);
	if (lg) {
		s->login = NULL;
		lg->s = NULL;
		d->lops->attempt_end(lg, end, result, error);
	}
	l2d_tunnel_session_gone(t);
	l2d_tunnel_flush(t);
}

/*
 * The answer to our ICRQ (LNS: ICRP) is icrq-timeout late.  The peer takes
 * control messages in order (RFC 2661 §5.8) and answers this call after
 * what it received before; while it keeps delivering new messages on the
 * tunnel, this answer is queued behind its backlog or behind our own
 * receive window, a wait that is not its silence (S-L2TP-6, S-SEL-4).  So
 * the call waits on as long as the peer was heard within icrq-timeout,
 * for at most icrq-timeout-max from its message's transmission.
 */
static void session_timeout(struct l2d_timer *tm)
{
	struct l2d_session *s = tm->arg;
	struct l2d_tunnel *t = s->t;
	struct l2d *d = t->d;
	uint64_t now = l2d_now(d->loop), until;

	if (s->txwait || s->icrq_wait) {
		/*
		 * Its message never left: icrq-timeout-max behind the peer's
		 * window (a small window, a long round trip).  The wait is ours
		 * to give up, not the peer's silence: a local failure, and the
		 * login fails over without locking the LNS out (S-SEL-4).
		 */
		l2d_log(d, L2D_LOG_INFO, "session %u: not sent within icrq-timeout-max: "
			"the tunnel's send window is full", s->sid);
		l2d_session_close(s, L2D_END_ERROR, true, L2TP_CDN_TIMEOUT, 0,
				  "queued too long");
		return;
	}
	until = t->heard_ms + d->conf->icrq_timeout_ms;
	if (until > s->tx_ms + d->conf->icrq_timeout_max_ms)
		until = s->tx_ms + d->conf->icrq_timeout_max_ms;
	if (t->heard_ms > s->tx_ms && until > now) {
		l2d_timer_arm(d->loop, &s->setup_timer, until);
		return;
	}
	/* our own sends failing is not the peer's silence (S-SEC-9) */
	l2d_log(d, L2D_LOG_INFO, "session %u: setup timeout in %s%s%s", s->sid,
		l2d_sstate_name(s->state), t->tx_local_err ? ": our sends fail, a local failure: " : "",
		t->tx_local_err ? strerror(t->tx_local_err) : "");
	l2d_session_close(s, t->tx_local_err ? L2D_END_ERROR : L2D_END_NO_REPLY, true,
			  L2TP_CDN_TIMEOUT, 0, "setup timeout");
}

/*
 * S-AL-1: the subscriber's line as RFC 5515's access-line AVPs, and
 * Connect Speed Update Enable (CSUNs will follow), when access-line
 * names the call's profile and discovery told anything of the line.
 */
static void icrq_access_line(struct l2d_session *s, struct l2tp_builder *b)
{
	struct l2d *d = s->t->d;
	const struct access_line *al;

	if (!s->access || !d->aops || !d->aops->access_line ||
	    !l2d_conf_access_line(d->conf, s->login ? s->login->step.profile : NULL))
		return;
	al = d->aops->access_line(d, s);
	if (!al || !al->present)
		return;
	s->al = *al;
	al_put_avps(al, b);
	al_put_csu_enable(b);
	s->al_sent = true;
}

void l2d_session_tunnel_up(struct l2d_session *s)
{
	if (!l2d_tunnel_icrq_wait(s->t, s))
		l2d_session_send_icrq(s);
}

void l2d_session_send_icrq(struct l2d_session *s)
{
	struct l2d_tunnel *t = s->t;
	struct l2d *d = t->d;
	struct l2tp_builder b;
	uint8_t buf[1024];

	s->serial = ++d->next_serial;
	s->icrq_us = l2d_mono_us();
	if (s->login)
		s->login->tunnel_us += s->icrq_us - s->login->attempt_us;
	l2d_tunnel_builder(t, &b, buf, sizeof(buf), 0, L2TP_MSG_ICRQ);
	l2d_tunnel_put_u16(t, &b, L2TP_AVP_ASSIGNED_SESSION_ID, s->sid);
	l2tp_put_u32(&b, L2TP_AVP_CALL_SERIAL_NUMBER, s->serial);
	l2tp_put_u32(&b, L2TP_AVP_BEARER_TYPE, L2TP_BEARER_DIGITAL);
	/* an access call: the subscriber's line (§4.4.5); a dialer: the user */
	if (s->calling[0])
		l2tp_put_string(&b, L2TP_AVP_CALLING_NUMBER, s->calling);
	else if (s->user[0])
		l2tp_put_string(&b, L2TP_AVP_CALLING_NUMBER, s->user);
	if (s->called[0])
		l2tp_put_string(&b, L2TP_AVP_CALLED_NUMBER, s->called);
	icrq_access_line(s, &b);
	if (s->access && d->aops && d->aops->icrq_avps)
		d->aops->icrq_avps(d, s, &b);
	if (l2d_tunnel_queue(t, buf, l2tp_build_end(&b))) {
		l2d_session_close(s, L2D_END_ERROR, false, 0, 0, NULL);
		return;
	}
	t->since_icrq = 0;
	s->state = L2D_S_WAIT_ICRP;
	l2d_tunnel_time_from_tx(t, s);
	l2d_tunnel_flush(t);
	l2d_test_pause("icrq");
}

/*
 * The kernel session, its PPPoL2TP socket and pppd (dataplane kernel).  A
 * call without them carries no PPP: it is cleared with CDN 4 (temporary
 * lack of facilities) and ends as a local failure, never as the peer's.
 * Return: 0, 1 when an access call's bridge is under way
 * (l2d_session_bridged() follows), or -1 with the call closed.
 */
static int session_dataplane(struct l2d_session *s)
{
	struct l2d *d = s->t->d;
	int ret;

	if (!d->dpops || s->dp_added)
		return 0;
	ret = d->dpops->session_add(d, s);
	if (ret < 0) {
		l2d_log(d, L2D_LOG_ERR, "session %u: kernel data path not created", s->sid);
		l2d_session_close(s, L2D_END_ERROR, true, L2TP_CDN_NO_FACILITIES_TEMP, 0,
				  "data path not created");
		return -1;
	}
	s->dp_added = true;
	return ret;
}

static void session_established(struct l2d_session *s)
{
	struct l2d *d = s->t->d;

	s->state = L2D_S_ESTABLISHED;
	l2d_timer_cancel(d->loop, &s->setup_timer);
	d->stats.sessions_up++;
	/* a login's session: its "done ok" line, logged at info, names it */
	l2d_log(d, s->login ? L2D_LOG_DEBUG : L2D_LOG_INFO,
		"session %u/%u in tunnel %u/%u established as %s", s->sid,
		s->peer_sid, s->t->tid, s->t->peer_tid, s->initiator ? "LAC" : "LNS");
	/* a switched call is accounted by its switch (access_switch.c) */
	if (!s->initiator && d->lns_acct && !s->lts)
		d->lns_acct(d, s, RAD_ACCT_START);
}

/* LNS: an incoming call (§6.10). */
/* @m's number AVP @type (Calling, Called Number) into @dst, cut to fit; left when absent. */
static void copy_number(char *dst, size_t cap, const struct l2tp_msg *m, unsigned int type)
{
	size_t n = m->avp[type].len;

	if (!m->avp[type].present)
		return;
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, m->avp[type].data, n);
	dst[n] = '\0';
}

/*
 * S-LTS-2: the switches the call passed (lts.h); one at the limit, or whose
 * count cannot be read, goes no further.  Return: false when @s was cleared.
 */
static bool icrq_hops_ok(struct l2d_session *s, const struct l2tp_msg *m)
{
	struct l2d_tunnel *t = s->t;
	struct l2d *d = t->d;
	char why[96];
	int hr;

	if (!m->raw || !l2d_conf_lns_switch_on(d->conf) || !d->aops || !d->aops->switch_call)
		return true;
	hr = lts_hops_from_msg(m->raw, m->raw_len, &s->lts_hops);
	if (hr >= 0 && s->lts_hops < d->conf->lns_switch_hops)
		return true;
	if (hr < 0)
		snprintf(why, sizeof(why), "switching loop: malformed hop count");
	else
		snprintf(why, sizeof(why), "switching loop: hop limit %u reached",
			 d->conf->lns_switch_hops);
	d->stats.lts_hops_refused++;
	l2d_log(d, L2D_LOG_INFO, "session %u from %-s: %s", s->sid, t->peer_host, why);
	l2d_session_close(s, L2D_END_LOCAL, true, L2TP_CDN_NO_FACILITIES_PERM, 0, why);
	return false;
}

/* S-AL-1: RFC 5515's access-line AVPs and Connect Speed Update Enable of the ICRQ. */
static void icrq_take_access_line(struct l2d_session *s, const struct l2tp_msg *m)
{
	unsigned int ign = 0;

	if (!m->raw)
		return;
	if (al_from_msg(&s->al, m->raw, m->raw_len, &ign) || ign) {
		char line[768];

		l2d_log(s->t->d, L2D_LOG_INFO, "session %u: access line %s%s", s->sid,
			al_format(&s->al, line, sizeof(line)),
			ign ? " (AVPs skipped: hidden, repeated or of a wrong length)" : "");
	}
	s->csu_enabled = al_csu_enabled(m->raw, m->raw_len);
}

/*
 * LNS: the call's admission, all five levels, client = the peer's Host Name
 * (S-LIM-1), then the ICRP (RFC 2661 section 6.7).
 */
static void icrq_admit(struct l2d_session *s)
{
	struct l2d_tunnel *t = s->t;
	struct l2d *d = t->d;
	struct l2d_admit a = { 0 };
	struct l2tp_builder b;
	uint8_t buf[256];
	int err;

	err = d->kops->session_up(d, s, &a);
	if (err) {
		l2d_log(d, L2D_LOG_ERR, "session %u: admission request failed: %d", s->sid, err);
		return l2d_session_close(s, L2D_END_ERROR, true, L2TP_CDN_NO_FACILITIES_TEMP,
					 L2TP_ERR_NO_RESOURCES, "admission unavailable");
	}
	if (!a.pass) {
		d->stats.sessions_refused++;
		l2d_log(d, L2D_LOG_INFO, "session %u from %-s: refused at level %u", s->sid,
			t->peer_host, a.level);
		return l2d_session_close(s, L2D_END_LOCAL, true, a.result, a.error, "session limit");
	}
	s->admitted = true;
	l2d_tunnel_builder(t, &b, buf, sizeof(buf), s->peer_sid, L2TP_MSG_ICRP);
	l2d_tunnel_put_u16(t, &b, L2TP_AVP_ASSIGNED_SESSION_ID, s->sid);
	if (l2d_tunnel_queue(t, buf, l2tp_build_end(&b)))
		return l2d_session_close(s, L2D_END_ERROR, true, L2TP_CDN_GENERAL_ERROR,
					 L2TP_ERR_NO_RESOURCES, NULL);
	l2d_tunnel_time_from_tx(t, s);
}

static void got_icrq(struct l2d_tunnel *t, const struct l2tp_msg *m)
{
	struct l2d *d = t->d;
	struct l2d_session *s;
	uint16_t peer_sid = 0;
	struct l2d_rlans rla;
	unsigned int rl;

	if (d->conf->lns_mode == L2D_LNS_SILENT_AFTER_ZLB || d->conf->lns_mode == L2D_LNS_SILENT)
		return;		/* test switch: the ZLB goes, nothing else ever */
	l2tp_msg_get_u16(m, L2TP_AVP_ASSIGNED_SESSION_ID, &peer_sid);
	if (!d->conf->n_listen) {
		/* a LAC only: the LNS it dialled may not place calls to it */
		d->stats.calls_refused++;
		return l2d_call_refuse(t, m, peer_sid,
				       "incoming call refused: not an LNS (no listen)");
	}
	if (!t->lns || (d->conf->lns_auth_required && !t->has_secret)) {
		/*
		 * The LNS we dialled as LAC places a call: the LNS role takes
		 * calls only on tunnels a LAC opened to it, where its checks
		 * (lns-auth-required, the caps, the tunnel group) applied
		 * (S-SEC-7: the two roles never share a tunnel; a tie of RFC
		 * 2661 section 4.4.3 is the one exception, authenticated when
		 * lns-auth-required asks for it).
		 */
		d->stats.calls_wrong_role++;
		return l2d_call_refuse(t, m, peer_sid, !t->lns ?
				       "incoming call refused: a tunnel we opened as LAC takes no calls" :
				       "incoming call refused: the tunnel is not authenticated");
	}
	rl = l2d_icrq_rl_check(t, &rla);
	if (rl == L2TPSEL_RL_DROPPED)
		return;		/* acknowledged (the tunnel), never answered */
	if (l2d_icrq_capped(t, peer_sid))
		return;
	s = l2d_session_new(t, false);
	if (!s) {
		/* no session id left: CDN without one of ours */
		l2d_call_cdn_unheld(t, peer_sid, NULL);
		return;
	}
	s->lns_counted = true;
	t->p->lns_calls++;
	d->n_lns_calls++;
	s->peer_sid = peer_sid;
	s->state = L2D_S_WAIT_ICCN;
	copy_number(s->user, sizeof(s->user), m, L2TP_AVP_CALLING_NUMBER);
	copy_number(s->called, sizeof(s->called), m, L2TP_AVP_CALLED_NUMBER);
	if (!icrq_hops_ok(s, m))
		return;
	icrq_take_access_line(s, m);
	if (rl == L2TPSEL_RL_REJECTED)
		return l2d_session_close(s, L2D_END_LOCAL, true, rla.result, rla.error, rla.message);
	if (d->conf->lns_mode == L2D_LNS_CDN)
		return l2d_session_close(s, L2D_END_LOCAL, true, d->conf->lns_cdn_result,
					 d->conf->lns_cdn_error, "test mode: always CDN");
	icrq_admit(s);
}

static void icrp_connect(struct l2d_session *s);

/* LAC: the LNS accepted the call; connect it (§6.11, §6.12). */
static void got_icrp(struct l2d_session *s, const struct l2tp_msg *m)
{
	struct l2d *d = s->t->d;

	if (s->bridge_job)
		return;		/* the ICCN follows the bridge */
	s->icrp_us = l2d_mono_us();
	if (s->login)
		s->login->call_us += s->icrp_us - s->icrq_us;
	if (!l2tp_msg_get_u16(m, L2TP_AVP_ASSIGNED_SESSION_ID, &s->peer_sid) || !s->peer_sid)
		return l2d_session_close(s, L2D_END_CDN, true, L2TP_CDN_GENERAL_ERROR,
					 L2TP_ERR_BAD_VALUE, "no Assigned Session ID");
	/* section 4.4.6: with data-sequencing, the LAC asks for numbered data both ways */
	s->seq = d->conf->data_seq;
	/* the data path before the ICCN: a call that cannot carry PPP is not connected */
	if (session_dataplane(s))
		return;
	icrp_connect(s);
}

/*
 * The data path made off the loop (a worker's result, offload.h): the ICCN
 * or the CDN is queued here, outside the tunnel's own input, timers and
 * logins, so it is sent here too; else it would wait for the tunnel's next
 * event, on a quiet tunnel the peer's HELLO.
 */
void l2d_session_bridged(struct l2d_session *s, int err)
{
	struct l2d_tunnel *t = s->t;

	if (err) {
		l2d_log(t->d, L2D_LOG_ERR, "session %u: kernel data path not created", s->sid);
		l2d_session_close(s, L2D_END_ERROR, true, L2TP_CDN_NO_FACILITIES_TEMP, 0,
				  "data path not created");
	} else {
		icrp_connect(s);
	}
	l2d_tunnel_flush(t);
}

/* LAC: the data path is there; ICCN (section 6.12). */
static void icrp_connect(struct l2d_session *s)
{
	struct l2d_tunnel *t = s->t;
	struct l2d *d = t->d;
	struct l2tp_builder b;
	uint8_t buf[2048];
	/* no line speed known: 100 Mb/s, as an Ethernet access port */
	uint32_t tx = 100000000, rx = 100000000;

	/* section 4.4.5: the line's speeds when the access side knows them */
	if (s->access && d->aops && d->aops->connect_speed)
		d->aops->connect_speed(d, s, &tx, &rx);
	l2d_tunnel_builder(t, &b, buf, sizeof(buf), s->peer_sid, L2TP_MSG_ICCN);
	l2tp_put_u32(&b, L2TP_AVP_TX_CONNECT_SPEED, tx);
	l2tp_put_u32(&b, L2TP_AVP_FRAMING_TYPE, L2TP_FRAMING_SYNC);
	if (s->seq)
		l2tp_put_avp(&b, L2TP_AVP_SEQUENCING_REQUIRED, NULL, 0);
	if (s->access && d->aops) {
		l2tp_put_u32(&b, L2TP_AVP_RX_CONNECT_SPEED, rx);
		d->aops->iccn_avps(d, s, &b);
	}
	if (l2d_tunnel_queue(t, buf, l2tp_build_end(&b)))
		return l2d_session_close(s, L2D_END_ERROR, true, L2TP_CDN_GENERAL_ERROR,
					 L2TP_ERR_NO_RESOURCES, NULL);
	session_established(s);
	if (s->login) {
		struct l2d_login *lg = s->login;

		lg->bridge_us += l2d_mono_us() - s->icrp_us;
		d->lops->attempt_end(lg, L2D_END_NONE, 0, 0);
	}
}

static void proxy_avp(struct l2d_proxy_avp *a, const struct l2tp_msg *m, int type)
{
	a->data = m->avp[type].data;
	a->len = m->avp[type].len;
	a->present = m->avp[type].present;
}

/*
 * proxy-lcp yes (RFC 2661 section 4.4.5): the ICCN's proxied LCP and
 * authentication, when acceptable (l2d_proxy_lcp_decide()), for the call's
 * pppd (dataplane_kernel.c); otherwise pppd renegotiates, as without the option.
 */
static void iccn_proxy_lcp(struct l2d_session *s, const struct l2tp_msg *m)
{
	struct l2d *d = s->t->d;
	struct l2d_proxy_in in;
	struct l2d_proxy_lcp p;
	const char *why;

	if (!d->conf->proxy_lcp || s->initiator)
		return;
	proxy_avp(&in.init_rx, m, L2TP_AVP_INITIAL_RCVD_LCP_CONFREQ);
	proxy_avp(&in.last_tx, m, L2TP_AVP_LAST_SENT_LCP_CONFREQ);
	proxy_avp(&in.last_rx, m, L2TP_AVP_LAST_RCVD_LCP_CONFREQ);
	proxy_avp(&in.type, m, L2TP_AVP_PROXY_AUTHEN_TYPE);
	proxy_avp(&in.name, m, L2TP_AVP_PROXY_AUTHEN_NAME);
	proxy_avp(&in.challenge, m, L2TP_AVP_PROXY_AUTHEN_CHALLENGE);
	proxy_avp(&in.id, m, L2TP_AVP_PROXY_AUTHEN_ID);
	proxy_avp(&in.response, m, L2TP_AVP_PROXY_AUTHEN_RESPONSE);
	why = l2d_proxy_lcp_decide(&in, &p);
	if (!why) {
		s->proxy = malloc(sizeof(*s->proxy));
		if (!s->proxy)
			why = "out of memory";
	}
	if (why) {
		d->stats.proxy_lcp_renegotiated++;
		l2d_log(d, L2D_LOG_INFO, "session %u: proxy LCP not taken: %s; pppd negotiates LCP",
			s->sid, why);
		return;
	}
	*s->proxy = p;
	memset(&p, 0, sizeof(p));
	d->stats.proxy_lcp_taken++;
	l2d_log(d, L2D_LOG_INFO, "session %u: proxy LCP taken (%s, mru %u/%u)", s->sid,
		s->proxy->auth_proto == 0xc023 ? "pap" : "chap", s->proxy->our_mru,
		s->proxy->peer_mru);
}

void l2d_session_proxy_done(struct l2d_session *s)
{
	if (!s->proxy)
		return;
	memset(s->proxy, 0, sizeof(*s->proxy));	/* it holds a password */
	free(s->proxy);
	s->proxy = NULL;
}

void l2d_session_input(struct l2d_tunnel *t, struct l2tp_msg *m)
{
	struct l2d *d = t->d;
	struct l2d_session *s;
	uint16_t result, error;

	if (m->type == L2TP_MSG_ICRQ || m->type == L2TP_MSG_OCRQ) {
		uint16_t peer_sid = 0;

		if (m->hdr.session_id)
			l2d_log(d, L2D_LOG_INFO, "tunnel %u: %s with Session ID %u, ignored",
				t->tid, l2tp_msg_name(m->type), m->hdr.session_id);
		else if (m->type == L2TP_MSG_ICRQ)
			got_icrq(t, m);
		else {
			/* §6.7: we place no outgoing calls for anyone */
			l2tp_msg_get_u16(m, L2TP_AVP_ASSIGNED_SESSION_ID, &peer_sid);
			d->stats.calls_refused++;
			l2d_call_refuse(t, m, peer_sid, "outgoing calls are not supported");
		}
		return;
	}
	s = m->hdr.session_id ? l2d_session_find(d, m->hdr.session_id) : NULL;
	if (!s || s->t != t)
		return l2d_session_input_unknown(t, m);
	switch (m->type) {
	case L2TP_MSG_ICRP:
		if (s->state == L2D_S_WAIT_ICRP)
			return got_icrp(s, m);
		break;
	case L2TP_MSG_ICCN:
		/* section 4.4.6: the LAC asks that every data message be numbered */
		if (s->state == L2D_S_WAIT_ICCN) {
			const struct l2tp_avp_val *v = &m->avp[L2TP_AVP_LAST_SENT_LCP_CONFREQ];

			s->seq = m->avp[L2TP_AVP_SEQUENCING_REQUIRED].present;
			/*
			 * section 4.4.5: the LAC's last Configure-Request to the
			 * subscriber; its MRU fits the path (S-MTU-1), pppd asks
			 * the same when it renegotiates LCP (dataplane_kernel.c)
			 */
			s->proxy_mru = v->present ? ppp_opts_mru(v->data, v->len) : 0;
			/* RFC 2661 section 4.4.5: Rx Connect Speed absent, the same as Tx */
			l2tp_msg_get_u32(m, L2TP_AVP_TX_CONNECT_SPEED, &s->tx_bps);
			s->rx_bps = s->tx_bps;
			l2tp_msg_get_u32(m, L2TP_AVP_RX_CONNECT_SPEED, &s->rx_bps);
			iccn_proxy_lcp(s, m);
		}
		/*
		 * S-LTS-1: a switched call is the access side's (access_switch.c): its
		 * PPPoL2TP channel is kept for the bridge to the next LNS
		 */
		if (s->state == L2D_S_WAIT_ICCN && l2d_conf_lns_switch_on(d->conf) && d->aops &&
		    d->aops->switch_call && d->aops->switch_call(d, s, m))
			return l2d_session_close(s, L2D_END_ERROR, true, L2TP_CDN_NO_FACILITIES_TEMP, 0,
						 "switch unavailable");
		if (s->state == L2D_S_WAIT_ICCN && !session_dataplane(s))
			return session_established(s);
		if (s->state == L2D_S_DEAD)
			return;		/* no data path: cleared */
		break;
	case L2TP_MSG_CDN: {
		const struct l2tp_avp_val *v = &m->avp[L2TP_AVP_RESULT_CODE];

		result = v->len >= 2 ? l2tp_get16(v->data) : 0;
		error = v->len >= 4 ? l2tp_get16(v->data + 2) : 0;
		l2d_log(d, L2D_LOG_INFO, "session %u: CDN received, result %u (%s) error %u", s->sid,
			result, l2tp_cdn_result_name(result), error);
		return l2d_session_close(s, L2D_END_CDN, false, result, error, NULL);
	}
	case L2TP_MSG_SLI:
	case L2TP_MSG_WEN:
		return;
	default:
		break;
	}
	/* §7.1: a call message out of sequence clears the call */
	l2d_session_close(s, L2D_END_CDN, true, L2TP_CDN_GENERAL_ERROR, L2TP_ERR_BAD_VALUE,
			  l2tp_msg_name(m->type));
}

const struct l2d_session_ops l2d_session_ops = {
	.free = session_free,
	.close = l2d_session_close,
	.send_icrq = l2d_session_send_icrq,
};
