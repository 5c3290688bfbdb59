// SPDX-License-Identifier: GPL-2.0
/*
 * The LAC's own PPP for one PPPoE subscriber (ppp.h): LCP, RFC 1661, and
 * the authenticator's side of PAP, RFC 1334, or CHAP MD5, RFC 1994, until
 * the login is known and the call is bridged to the LNS.  This file: the
 * automaton, the input and the timers; the packets we build and the
 * option checks are in ppp_pkt.c (ppp_int.h).
 *
 * LCP is section 4.1's automaton with the lower layer Up from the start (the
 * PPPoE session exists) and the Open event given by l2d_ppp_start(): the
 * Initial, Starting, Closed and Stopped states are never stayed in, reaching
 * Closed or Stopped is This-Layer-Finished, that is ops->down().
 *
 *   Req-Sent -RCA-> Ack-Rcvd -RCR+-> Opened     (tlu: phase AUTH)
 *   Req-Sent -RCR+-> Ack-Sent -RCA-> Opened
 *   any -Close-> Closing -RTA or TO- -> down    (str: Terminate-Request)
 *
 * Every call of ops->down() and ops->auth() is the last thing done: the
 * caller may free p in the first and call back into us from the second.
 */
#include <string.h>

#include "ppp.h"
#include "ppp_int.h"

const char *ppp_lcp_state_name(enum ppp_lcp_state s)
{
	static const char *const names[] = {
		[LCP_INITIAL] = "Initial", [LCP_STARTING] = "Starting", [LCP_CLOSED] = "Closed",
		[LCP_STOPPED] = "Stopped", [LCP_CLOSING] = "Closing", [LCP_STOPPING] = "Stopping",
		[LCP_REQ_SENT] = "Req-Sent", [LCP_ACK_RCVD] = "Ack-Rcvd", [LCP_ACK_SENT] = "Ack-Sent",
		[LCP_OPENED] = "Opened",
	};

	return (unsigned int)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}


/* tlf, in Closed or Stopped: the end; nothing may touch p after it. */
static void finish(struct l2d_ppp *p, const char *why)
{
	char copy[PPP_WHY_MAX + 1];
	size_t n = 0;

	while (why[n] && n < PPP_WHY_MAX)
		n++;
	memcpy(copy, why, n);
	copy[n] = '\0';
	ppp_stop_timers(p);
	p->state = p->state == LCP_CLOSING ? LCP_CLOSED : LCP_STOPPED;
	p->phase = PPP_PHASE_DOWN;
	p->ops->down(p, copy);
}

/* ---- LCP actions, RFC 1661 section 4.4 ---- */

/* scr; a new request (not a retransmission) takes a new Identifier, irc. */
static void send_confreq(struct l2d_ppp *p, bool retransmit)
{
	struct ppp_pkt k;

	if (!retransmit) {
		p->req_id = ++p->id;
		p->restart_count = p->conf.max_configure;
	}
	ppp_pkt_begin(&k, PPP_PROTO_LCP, PPP_CONFREQ, p->req_id, PPP_PKT_MAX);
	if (!p->tx_no_mru) {
		ppp_pkt_u8(&k, LCP_OPT_MRU);
		ppp_pkt_u8(&k, 4);
		ppp_pkt_u16(&k, p->tx_mru);
	}
	ppp_pkt_u8(&k, LCP_OPT_AUTH);
	if (p->auth == PPP_AUTH_CHAP) {
		ppp_pkt_u8(&k, 5);
		ppp_pkt_u16(&k, PPP_PROTO_CHAP);
		ppp_pkt_u8(&k, CHAP_MD5);
	} else {
		ppp_pkt_u8(&k, 4);
		ppp_pkt_u16(&k, PPP_PROTO_PAP);
	}
	if (!p->tx_no_magic) {
		ppp_pkt_u8(&k, LCP_OPT_MAGIC);
		ppp_pkt_u8(&k, 6);
		ppp_pkt_u32(&k, p->magic);
	}
	ppp_capture_put(&p->last_tx, k.buf + 6, k.len - 6);
	if (p->restart_count)
		p->restart_count--;
	ppp_arm(p, &p->restart_timer, p->conf.restart_ms);
	ppp_pkt_send(p, &k);
}

/* str, with the reason as the Data (section 5.5: uninterpreted). */
static void send_termreq(struct l2d_ppp *p)
{
	struct ppp_pkt k;

	ppp_pkt_begin(&k, PPP_PROTO_LCP, PPP_TERMREQ, ++p->id, ppp_peer_limit(p));
	ppp_pkt_put(&k, p->why, strlen(p->why));
	if (p->restart_count)
		p->restart_count--;
	ppp_arm(p, &p->restart_timer, p->conf.restart_ms);
	ppp_pkt_send(p, &k);
}

void ppp_send_challenge(struct l2d_ppp *p, bool retransmit);

/* tlu: the first time, the Authentication phase begins (section 3.5). */
static void this_layer_up(struct l2d_ppp *p)
{
	p->neg_rounds = 0;
	l2d_timer_cancel(p->loop, &p->restart_timer);
	if (p->conf.echo_interval_ms && !p->echo_off) {
		p->echo_missed = 0;
		ppp_arm(p, &p->echo_timer, p->conf.echo_interval_ms);
	}
	if (p->phase == PPP_PHASE_LCP) {
		p->phase = PPP_PHASE_AUTH;
		ppp_arm(p, &p->auth_timer, p->conf.auth_timeout_ms);
	}
	if (p->phase == PPP_PHASE_AUTH && p->auth == PPP_AUTH_CHAP)
		ppp_send_challenge(p, false);
}

/* tld: what runs only while Opened stops (the auth timer keeps running). */
static void this_layer_down(struct l2d_ppp *p)
{
	l2d_timer_cancel(p->loop, &p->echo_timer);
	l2d_timer_cancel(p->loop, &p->restart_timer);
}

/* irc, str: to Closing (the Close event) or Stopping (RXJ- when Opened). */
static void terminate(struct l2d_ppp *p, const char *why, enum ppp_lcp_state next)
{
	if (p->state == LCP_OPENED)
		this_layer_down(p);
	ppp_set_why(p, why);
	l2d_timer_cancel(p->loop, &p->auth_timer);
	p->state = next;
	p->phase = PPP_PHASE_TERMINATING;
	p->restart_count = p->conf.max_terminate;
	send_termreq(p);
}

/* The Close event (section 4.3). */
static void lcp_close(struct l2d_ppp *p, const char *why)
{
	switch (p->state) {
	case LCP_REQ_SENT:
	case LCP_ACK_RCVD:
	case LCP_ACK_SENT:
	case LCP_OPENED:
		terminate(p, why, LCP_CLOSING);
		break;
	default:
		break;		/* already terminating */
	}
}

/*
 * RFC 1661 section 4.6 bounds our Naks (Max-Failure) but not a peer that
 * never converges: Configure-Naks and Rejects, either way, since LCP last
 * opened; twice Max-Configure of them ends it.
 */
static bool diverging(struct l2d_ppp *p)
{
	return ++p->neg_rounds > 2 * p->conf.max_configure;
}

static void restart_expired(struct l2d_timer *t);
static void auth_expired(struct l2d_timer *t);
static void echo_expired(struct l2d_timer *t);

void l2d_ppp_start(struct l2d_ppp *p)
{
	struct l2d_ppp_conf *c = &p->conf;
	size_t off = offsetof(struct l2d_ppp, state);

	if (!c->mru)
		c->mru = 1492;
	if (c->mru < PPP_MRU_MIN)
		c->mru = PPP_MRU_MIN;
	if (!c->restart_ms)
		c->restart_ms = 3000;
	if (!c->max_configure)
		c->max_configure = 10;
	if (!c->max_terminate)
		c->max_terminate = 2;
	if (!c->max_failure)
		c->max_failure = 5;
	if (!c->auth_timeout_ms)
		c->auth_timeout_ms = 30000;
	if (!c->echo_failures)
		c->echo_failures = 3;
	ppp_stop_timers(p);
	memset((uint8_t *)p + off, 0, sizeof(*p) - off);
	l2d_timer_init(&p->restart_timer, restart_expired, p);
	l2d_timer_init(&p->auth_timer, auth_expired, p);
	l2d_timer_init(&p->echo_timer, echo_expired, p);
	p->phase = PPP_PHASE_LCP;
	p->peer_mru = 1500;
	p->tx_mru = c->mru;
	p->auth = c->chap ? PPP_AUTH_CHAP : PPP_AUTH_PAP;
	p->magic = ppp_new_magic(p, 0);
	/* Initial -Open-> Starting -Up-> irc, scr, Req-Sent */
	p->state = LCP_REQ_SENT;
	send_confreq(p, false);
}

/* ---- the subscriber's Configure-Request ---- */

/* RCR: classify (Reject before Nak before Ack, section 5.2 to 5.4) and answer. */
static void lcp_rcr(struct l2d_ppp *p, uint8_t id, const uint8_t *o, size_t n)
{
	uint16_t mru = 1500;
	uint32_t magic = 0;
	struct ppp_pkt rej, nak;
	bool good;

	if (n > PPP_PKT_MAX - 4 || !lcp_opts_valid(o, n)) {
		p->rx_bad++;
		return;
	}
	if (p->state == LCP_CLOSING || p->state == LCP_STOPPING)
		return;
	if (!p->init_rx.present)
		ppp_capture_put(&p->init_rx, o, n);
	ppp_capture_put(&p->last_rx, o, n);

	ppp_pkt_begin(&rej, PPP_PROTO_LCP, PPP_CONFREJ, id, PPP_PKT_MAX);
	ppp_pkt_begin(&nak, PPP_PROTO_LCP, PPP_CONFNAK, id, PPP_PKT_MAX);
	ppp_rcr_classify(p, o, n, &rej, &nak, &mru, &magic);

	good = !ppp_pkt_has_data(&rej) && !ppp_pkt_has_data(&nak);
	if (p->state == LCP_OPENED) {
		/* tld, scr, then the answer: renegotiation */
		this_layer_down(p);
		send_confreq(p, false);
	}
	if (ppp_pkt_has_data(&rej)) {
		ppp_pkt_send(p, &rej);
	} else if (ppp_pkt_has_data(&nak)) {
		p->failure_count++;
		ppp_pkt_send(p, &nak);
	} else {
		p->failure_count = 0;
		p->peer_mru = mru;
		p->peer_magic = magic;
		ppp_send_answer(p, PPP_CONFACK, id, o, n);
	}

	switch (p->state) {
	case LCP_REQ_SENT:
	case LCP_ACK_SENT:
	case LCP_OPENED:
		p->state = good ? LCP_ACK_SENT : LCP_REQ_SENT;
		break;
	case LCP_ACK_RCVD:
		if (good) {
			p->state = LCP_OPENED;
			this_layer_up(p);
		}
		break;
	default:
		break;
	}
	if (!good && diverging(p))
		lcp_close(p, "LCP negotiation does not converge");
}

/* ---- the subscriber's answers to our Configure-Request ---- */

/* RCN and RCJ (sections 5.3, 5.4): the next request, or no authentication. */
static void lcp_rcn(struct l2d_ppp *p, uint8_t code, const uint8_t *o, size_t n)
{
	bool auth_seen = false, can_auth = true;
	struct lcp_opt opt;
	size_t off = 0;

	if (!lcp_opts_valid(o, n)) {
		p->rx_bad++;
		return;
	}
	if (p->state < LCP_REQ_SENT)
		return;		/* Closing, Stopping: ignored */
	while (lcp_opt_next(o, n, &off, &opt)) {
		const uint8_t *v = opt.v;
		uint8_t len = opt.len;

		switch (opt.type) {
		case LCP_OPT_MRU:
			if (code == PPP_CONFREJ)
				p->tx_no_mru = true;
			else if (len == 4 && get16(v) >= PPP_MRU_MIN && get16(v) <= p->conf.mru)
				p->tx_mru = get16(v);
			break;
		case LCP_OPT_MAGIC:
			if (code == PPP_CONFREJ) {
				p->tx_no_magic = true;
				p->magic = 0;
			} else {
				p->magic = ppp_new_magic(p, p->magic);
			}
			break;
		case LCP_OPT_AUTH:
			if (auth_seen)
				break;	/* the first suggestion is the one */
			auth_seen = true;
			/* once the credentials are taken, the protocol is theirs */
			can_auth = code == PPP_CONFNAK && p->phase <= PPP_PHASE_AUTH &&
				   ppp_auth_nak(p, v, len);
			break;
		default:
			break;	/* we asked for nothing else */
		}
	}
	if (!can_auth)
		return lcp_close(p, "subscriber refused authentication");
	if (diverging(p))
		return lcp_close(p, "LCP negotiation does not converge");
	switch (p->state) {
	case LCP_OPENED:
		this_layer_down(p);
		/* fall through */
	case LCP_ACK_RCVD:
		p->state = LCP_REQ_SENT;
		/* fall through */
	default:		/* Req-Sent, Ack-Sent: irc, scr */
		send_confreq(p, false);
		break;
	}
}

/* RCA (section 5.2): the options exactly as sent, else silently discarded. */
static void lcp_rca(struct l2d_ppp *p, const uint8_t *o, size_t n)
{
	if (n != p->last_tx.len || memcmp(o, p->last_tx.data, n))
		return;
	switch (p->state) {
	case LCP_REQ_SENT:
		p->restart_count = p->conf.max_configure;
		p->state = LCP_ACK_RCVD;
		break;
	case LCP_ACK_RCVD:	/* crossed */
		send_confreq(p, false);
		p->state = LCP_REQ_SENT;
		break;
	case LCP_ACK_SENT:
		p->state = LCP_OPENED;
		this_layer_up(p);
		break;
	case LCP_OPENED:
		this_layer_down(p);
		send_confreq(p, false);
		p->state = LCP_REQ_SENT;
		break;
	default:
		break;
	}
}

/* RXJ- (section 4.3): LCP itself is refused. */
static void lcp_rxj_bad(struct l2d_ppp *p)
{
	static const char why[] = "subscriber rejected LCP";

	switch (p->state) {
	case LCP_OPENED:
		terminate(p, why, LCP_STOPPING);
		break;
	case LCP_CLOSING:
	case LCP_STOPPING:
		finish(p, p->why);
		break;
	default:
		finish(p, why);
		break;
	}
}

/* RTA (section 4.3): the end of our Close, else back to Req-Sent. */
static void lcp_rta(struct l2d_ppp *p)
{
	switch (p->state) {
	case LCP_CLOSING:
	case LCP_STOPPING:
		return finish(p, p->why);
	case LCP_ACK_RCVD:
		p->state = LCP_REQ_SENT;
		return;
	case LCP_OPENED:
		this_layer_down(p);
		send_confreq(p, false);
		p->state = LCP_REQ_SENT;
		return;
	default:
		return;
	}
}

/* @d, @n: the packet up to its Length, n >= 4. */
static void lcp_input(struct l2d_ppp *p, const uint8_t *d, size_t n)
{
	uint8_t code = d[0], id = d[1];

	switch (code) {
	case PPP_CONFREQ:
		return lcp_rcr(p, id, d + 4, n - 4);
	case PPP_CONFACK:
		if (id == p->req_id)
			lcp_rca(p, d + 4, n - 4);
		return;
	case PPP_CONFNAK:
	case PPP_CONFREJ:
		if (id == p->req_id)
			lcp_rcn(p, code, d + 4, n - 4);
		return;
	case PPP_TERMREQ:
		ppp_send_answer(p, PPP_TERMACK, id, NULL, 0);
		if (p->state == LCP_CLOSING || p->state == LCP_STOPPING)
			return;		/* ours is out: its Ack or TO- ends it */
		/*
		 * Opened: tld, zrc, sta, Stopping; the zero-restart wait that
		 * lets the Ack reach the peer is not needed, the PADT follows
		 * the Ack on the same link.  Elsewhere sta leaves us in
		 * Req-Sent: the subscriber has given up, so have we.
		 */
		return finish(p, "subscriber sent Terminate-Request");
	case PPP_TERMACK:
		return lcp_rta(p);
	case PPP_CODEREJ:
		if (n < 5) {
			p->rx_bad++;
			return;
		}
		/* the codes LCP cannot do without are catastrophic (section 5.6) */
		if (d[4] >= PPP_CONFREQ && d[4] <= PPP_CODEREJ)
			return lcp_rxj_bad(p);
		if (d[4] == PPP_ECHOREQ) {
			p->echo_off = true;
			l2d_timer_cancel(p->loop, &p->echo_timer);
		}
		return;
	case PPP_PROTREJ:
		if (n < 6) {
			p->rx_bad++;
			return;
		}
		if (p->state != LCP_OPENED)
			return;		/* section 5.7: silently discarded */
		if (get16(d + 4) == PPP_PROTO_LCP)
			return lcp_rxj_bad(p);
		if (p->phase == PPP_PHASE_AUTH &&
		    get16(d + 4) == (p->auth == PPP_AUTH_CHAP ? PPP_PROTO_CHAP : PPP_PROTO_PAP))
			return lcp_close(p, "subscriber refused authentication");
		return;
	case PPP_ECHOREQ:
	case PPP_ECHOREP:
	case PPP_DISCREQ:
		if (n < 8) {
			p->rx_bad++;
			return;
		}
		if (p->state != LCP_OPENED)
			return;		/* section 5.8: silently discarded */
		if (code == PPP_ECHOREQ)
			ppp_send_answer(p, PPP_ECHOREP, id, d + 8, n - 8);
		else if (code == PPP_ECHOREP && (p->tx_no_magic || get32(d + 4) != p->magic))
			p->echo_missed = 0;	/* our own magic back: a loop, no answer */
		return;
	default:
		/* RUC: scj with the packet, truncated to the MRU (section 5.6) */
		ppp_send_answer(p, PPP_CODEREJ, ++p->id, d, n);
		return;
	}
}

/* ---- the Authentication phase ---- */

/* The credentials are known: to the caller, last (it may answer at once). */
static void login(struct l2d_ppp *p, const uint8_t *name, size_t name_len,
		  const uint8_t *resp, size_t resp_len)
{
	memcpy(p->name, name, name_len);
	p->name[name_len] = '\0';
	p->name_len = (uint8_t)name_len;
	memcpy(p->response, resp, resp_len);
	p->response_len = (uint8_t)resp_len;
	p->phase = PPP_PHASE_LOGIN;
	l2d_timer_cancel(p->loop, &p->auth_timer);
	l2d_timer_cancel(p->loop, &p->restart_timer);
	p->ops->auth(p);
}

/*
 * RFC 1334 section 2.2.1: Peer-ID Length, Peer-ID, Passwd-Length, Password
 * (a 255-byte one does not fit PPP_NAME_MAX, PPP_SECRET_MAX: bad).
 */
static void pap_input(struct l2d_ppp *p, const uint8_t *d, size_t n)
{
	size_t idl, pwl;

	if (d[0] != PAP_REQ)
		return;		/* we do not authenticate ourselves */
	if (n < 6 || (idl = d[4]) > n - 6 || (pwl = d[5 + idl]) > n - 6 - idl ||
	    idl > PPP_NAME_MAX || pwl > PPP_SECRET_MAX) {
		p->rx_bad++;
		return;
	}
	if (p->auth != PPP_AUTH_PAP)
		return;
	switch (p->phase) {
	case PPP_PHASE_AUTH:
		if (p->state != LCP_OPENED)
			return;
		p->chap_id = p->reply_id = d[1];
		return login(p, d + 5, idl, d + 6 + idl, pwl);
	case PPP_PHASE_LOGIN:
		/* a retransmission (pppd's takes a new Identifier): answer the last */
		if (idl == p->name_len && pwl == p->response_len &&
		    !memcmp(d + 5, p->name, idl) && !memcmp(d + 6 + idl, p->response, pwl))
			p->reply_id = d[1];
		return;
	case PPP_PHASE_TERMINATING:
		/* section 2.2.1: a lost Nak; the same answer again */
		if (p->answered)
			ppp_send_refusal(p, d[1]);
		return;
	default:
		return;
	}
}

/* RFC 1994 section 4.1: Value-Size, Value, Name (the rest). */
static void chap_input(struct l2d_ppp *p, const uint8_t *d, size_t n)
{
	size_t vl, nl;

	if (d[0] != CHAP_RESPONSE)
		return;
	if (n < 5 || (vl = d[4]) > n - 5 || vl > PPP_SECRET_MAX || (nl = n - 5 - vl) > PPP_NAME_MAX) {
		p->rx_bad++;
		return;
	}
	if (p->auth != PPP_AUTH_CHAP || d[1] != p->chap_id)
		return;		/* not an answer to our Challenge */
	switch (p->phase) {
	case PPP_PHASE_AUTH:
		if (p->state != LCP_OPENED)
			return;
		return login(p, d + 5 + vl, nl, d + 5, vl);
	case PPP_PHASE_TERMINATING:
		/* section 4.2: a repeated Response gets the same reply */
		if (p->answered)
			ppp_send_refusal(p, d[1]);
		return;
	default:
		return;		/* LOGIN: the LNS is being asked */
	}
}

void l2d_ppp_input(struct l2d_ppp *p, const uint8_t *f, size_t len)
{
	uint16_t proto;
	size_t n;

	if (p->phase == PPP_PHASE_QUIET || p->phase == PPP_PHASE_DOWN || p->state < LCP_CLOSING)
		return;
	if (len >= 2 && f[0] == 0xff && f[1] == 0x03) {
		f += 2;		/* Address and Control, from some peers */
		len -= 2;
	}
	/* RFC 1661 section 2: the Protocol field's low octet odd, high even */
	if (len < 2 || (f[0] & 1) || !(f[1] & 1)) {
		p->rx_bad++;
		return;
	}
	proto = get16(f);
	f += 2;
	len -= 2;
	if (proto == PPP_PROTO_LCP || proto == PPP_PROTO_PAP || proto == PPP_PROTO_CHAP) {
		/* section 5: Length within the frame; octets beyond it are padding */
		if (len < 4 || (n = get16(f + 2)) < 4 || n > len) {
			p->rx_bad++;
			return;
		}
		if (proto == PPP_PROTO_LCP)
			return lcp_input(p, f, n);
		if (p->phase == PPP_PHASE_LCP)
			return;		/* section 3.4: not before LCP opens */
		if (proto == PPP_PROTO_PAP)
			return pap_input(p, f, n);
		return chap_input(p, f, n);
	}
	p->rx_unknown_proto++;
	if (p->state != LCP_OPENED)
		return;
	/* network layer, NCPs, LQR: for the LNS to negotiate (section 3.5) */
	if (proto < 0x4000 || (proto >= 0x8000 && proto < 0xc000) || proto == 0xc025)
		return;
	{
		struct ppp_pkt k;

		ppp_pkt_begin(&k, PPP_PROTO_LCP, PPP_PROTREJ, ++p->id, ppp_peer_limit(p));
		ppp_pkt_u16(&k, proto);
		ppp_pkt_put(&k, f, len);
		ppp_pkt_send(p, &k);
	}
}

/* ---- timers ---- */

/* TO+ and TO- (section 4.3); while Opened, the CHAP Challenge's. */
static void restart_expired(struct l2d_timer *t)
{
	struct l2d_ppp *p = t->arg;

	switch (p->state) {
	case LCP_OPENED:
		if (p->phase != PPP_PHASE_AUTH || p->auth != PPP_AUTH_CHAP)
			return;
		if (p->restart_count)
			return ppp_send_challenge(p, true);
		return lcp_close(p, "authentication timeout");
	case LCP_CLOSING:
	case LCP_STOPPING:
		if (p->restart_count)
			return send_termreq(p);
		return finish(p, p->why);
	case LCP_REQ_SENT:
	case LCP_ACK_RCVD:
	case LCP_ACK_SENT:
		if (p->restart_count) {
			if (p->state == LCP_ACK_RCVD)
				p->state = LCP_REQ_SENT;
			return send_confreq(p, true);
		}
		return finish(p, "LCP negotiation timeout");
	default:
		return;
	}
}

static void auth_expired(struct l2d_timer *t)
{
	struct l2d_ppp *p = t->arg;

	if (p->phase == PPP_PHASE_AUTH)
		lcp_close(p, "authentication timeout");
}

static void echo_expired(struct l2d_timer *t)
{
	struct l2d_ppp *p = t->arg;
	struct ppp_pkt k;

	if (p->state != LCP_OPENED)
		return;
	if (p->echo_missed >= p->conf.echo_failures)
		return finish(p, "no echo reply");
	p->echo_missed++;
	ppp_arm(p, &p->echo_timer, p->conf.echo_interval_ms);
	ppp_pkt_begin(&k, PPP_PROTO_LCP, PPP_ECHOREQ, ++p->id, PPP_PKT_MAX);
	ppp_pkt_u32(&k, p->tx_no_magic ? 0 : p->magic);
	ppp_pkt_send(p, &k);
}

/* ---- the caller's events ---- */

void l2d_ppp_auth_result(struct l2d_ppp *p, bool ok, const char *message)
{
	if (p->phase != PPP_PHASE_LOGIN || ok)
		return;		/* ok: the LNS answers the subscriber */
	ppp_set_why(p, message && *message ? message : "authentication failed");
	p->answered = true;
	ppp_send_refusal(p, p->auth == PPP_AUTH_PAP ? p->reply_id : p->chap_id);
	lcp_close(p, p->why);
}

void l2d_ppp_quiet(struct l2d_ppp *p)
{
	if (p->phase == PPP_PHASE_DOWN)
		return;
	ppp_stop_timers(p);
	p->phase = PPP_PHASE_QUIET;
}

size_t l2d_ppp_pap_request(const struct l2d_ppp *p, uint8_t *buf, size_t cap)
{
	size_t n = 2 + 4 + 1 + p->name_len + 1 + p->response_len;

	if (p->auth != PPP_AUTH_PAP || n > cap ||
	    (p->phase != PPP_PHASE_LOGIN && p->phase != PPP_PHASE_QUIET))
		return 0;
	buf[0] = PPP_PROTO_PAP >> 8;
	buf[1] = PPP_PROTO_PAP & 0xff;
	buf[2] = PAP_REQ;
	buf[3] = p->reply_id;
	buf[4] = (uint8_t)((n - 2) >> 8);
	buf[5] = (uint8_t)(n - 2);
	buf[6] = p->name_len;
	memcpy(buf + 7, p->name, p->name_len);
	buf[7 + p->name_len] = p->response_len;
	memcpy(buf + 8 + p->name_len, p->response, p->response_len);
	return n;
}

void l2d_ppp_close(struct l2d_ppp *p, const char *why)
{
	if (p->phase == PPP_PHASE_DOWN || p->state < LCP_CLOSING)
		return;
	if (p->phase == PPP_PHASE_QUIET)
		return finish(p, why);
	lcp_close(p, why);
}

void l2d_ppp_stop(struct l2d_ppp *p)
{
	ppp_stop_timers(p);
	p->phase = PPP_PHASE_DOWN;
}
