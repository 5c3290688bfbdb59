// SPDX-License-Identifier: GPL-2.0
/*
 * The LAC's own PPP for one PPPoE subscriber (ppp.h): LCP, RFC 1661, and
 * the authenticator's side of PAP, RFC 1334, or CHAP MD5, RFC 1994, until
 * the login is known and the call is bridged to the LNS.
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

#define PPP_PKT_MAX	1500	/* RFC 1661 section 6.1: the default MRU */
#define PPP_MRU_MIN	64
#define CHAP_MD5	5	/* RFC 1994 section 3: the Algorithm */
#define CHAP_VALUE_LEN	16

enum { PAP_REQ = 1, PAP_ACK, PAP_NAK };				/* RFC 1334 section 2.2 */
enum { CHAP_CHALLENGE = 1, CHAP_RESPONSE, CHAP_SUCCESS, CHAP_FAILURE };	/* RFC 1994 section 4 */

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

static uint16_t get16(const uint8_t *d)
{
	return (uint16_t)(d[0] << 8 | d[1]);
}

static uint32_t get32(const uint8_t *d)
{
	return (uint32_t)d[0] << 24 | (uint32_t)d[1] << 16 | (uint32_t)d[2] << 8 | d[3];
}

/* ---- frames out ---- */

/* One packet being built: protocol field, Code, Identifier, Length, data. */
struct pkt {
	uint8_t buf[2 + PPP_PKT_MAX];
	size_t len, max;
};

/* @max: the packet's size limit (what may be truncated is, to the peer's MRU). */
static void pkt_begin(struct pkt *k, uint16_t proto, uint8_t code, uint8_t id, size_t max)
{
	k->buf[0] = (uint8_t)(proto >> 8);
	k->buf[1] = (uint8_t)proto;
	k->buf[2] = code;
	k->buf[3] = id;
	k->len = 6;
	k->max = 2 + (max < PPP_PKT_MAX ? max : PPP_PKT_MAX);
}

static void pkt_put(struct pkt *k, const void *d, size_t n)
{
	if (n > k->max - k->len)
		n = k->max - k->len;
	if (n)
		memcpy(k->buf + k->len, d, n);
	k->len += n;
}

static void pkt_u8(struct pkt *k, uint8_t v)
{
	pkt_put(k, &v, 1);
}

static void pkt_u16(struct pkt *k, uint16_t v)
{
	uint8_t b[2] = { (uint8_t)(v >> 8), (uint8_t)v };

	pkt_put(k, b, sizeof(b));
}

static void pkt_u32(struct pkt *k, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v };

	pkt_put(k, b, sizeof(b));
}

static bool pkt_has_data(const struct pkt *k)
{
	return k->len > 6;
}

/* Nothing leaves once quiet or down. */
static void pkt_send(struct l2d_ppp *p, struct pkt *k)
{
	size_t n = k->len - 2;

	k->buf[4] = (uint8_t)(n >> 8);
	k->buf[5] = (uint8_t)n;
	if (p->phase == PPP_PHASE_QUIET || p->phase == PPP_PHASE_DOWN)
		return;
	p->ops->send(p, k->buf, k->len);
}

static size_t peer_limit(const struct l2d_ppp *p)
{
	return p->peer_mru;
}

static void capture(struct ppp_capture *c, const uint8_t *d, size_t n)
{
	c->len = (uint16_t)(n < PPP_CAPTURE_MAX ? n : PPP_CAPTURE_MAX);
	if (c->len)
		memcpy(c->data, d, c->len);
	c->present = true;
}

static void set_why(struct l2d_ppp *p, const char *why)
{
	size_t n = 0;

	if (why != p->why) {
		while (why[n] && n < PPP_WHY_MAX)
			n++;
		memcpy(p->why, why, n);
		p->why[n] = '\0';
	}
}

/* A nonzero Magic-Number other than @avoid (RFC 1661 section 6.4). */
static uint32_t new_magic(struct l2d_ppp *p, uint32_t avoid)
{
	uint32_t m = 0;
	uint8_t b[4];
	int i;

	for (i = 0; i < 4 && (!m || m == avoid); i++) {
		p->ops->random(p, b, sizeof(b));
		m = get32(b);		/* on the wire as drawn */
	}
	if (!m || m == avoid)
		m = avoid ^ 0x6c327473;		/* the source is stuck */
	return m;
}

static void arm(struct l2d_ppp *p, struct l2d_timer *t, unsigned int ms)
{
	l2d_timer_arm(p->loop, t, l2d_now(p->loop) + ms);
}

static void stop_timers(struct l2d_ppp *p)
{
	l2d_timer_cancel(p->loop, &p->restart_timer);
	l2d_timer_cancel(p->loop, &p->auth_timer);
	l2d_timer_cancel(p->loop, &p->echo_timer);
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
	stop_timers(p);
	p->state = p->state == LCP_CLOSING ? LCP_CLOSED : LCP_STOPPED;
	p->phase = PPP_PHASE_DOWN;
	p->ops->down(p, copy);
}

/* ---- LCP actions, RFC 1661 section 4.4 ---- */

/* scr; a new request (not a retransmission) takes a new Identifier, irc. */
static void send_confreq(struct l2d_ppp *p, bool retransmit)
{
	struct pkt k;

	if (!retransmit) {
		p->req_id = ++p->id;
		p->restart_count = p->conf.max_configure;
	}
	pkt_begin(&k, PPP_PROTO_LCP, PPP_CONFREQ, p->req_id, PPP_PKT_MAX);
	if (!p->tx_no_mru) {
		pkt_u8(&k, LCP_OPT_MRU);
		pkt_u8(&k, 4);
		pkt_u16(&k, p->tx_mru);
	}
	pkt_u8(&k, LCP_OPT_AUTH);
	if (p->auth == PPP_AUTH_CHAP) {
		pkt_u8(&k, 5);
		pkt_u16(&k, PPP_PROTO_CHAP);
		pkt_u8(&k, CHAP_MD5);
	} else {
		pkt_u8(&k, 4);
		pkt_u16(&k, PPP_PROTO_PAP);
	}
	if (!p->tx_no_magic) {
		pkt_u8(&k, LCP_OPT_MAGIC);
		pkt_u8(&k, 6);
		pkt_u32(&k, p->magic);
	}
	capture(&p->last_tx, k.buf + 6, k.len - 6);
	if (p->restart_count)
		p->restart_count--;
	arm(p, &p->restart_timer, p->conf.restart_ms);
	pkt_send(p, &k);
}

/* str, with the reason as the Data (section 5.5: uninterpreted). */
static void send_termreq(struct l2d_ppp *p)
{
	struct pkt k;

	pkt_begin(&k, PPP_PROTO_LCP, PPP_TERMREQ, ++p->id, peer_limit(p));
	pkt_put(&k, p->why, strlen(p->why));
	if (p->restart_count)
		p->restart_count--;
	arm(p, &p->restart_timer, p->conf.restart_ms);
	pkt_send(p, &k);
}

/* sca, sta, scj and the Echo-Reply: an answer with @id echoing @d. */
static void send_answer(struct l2d_ppp *p, uint8_t code, uint8_t id, const uint8_t *d, size_t n)
{
	struct pkt k;

	/* an Ack is whole; the rest is truncated to the MRU (sections 5.6, 5.8) */
	pkt_begin(&k, PPP_PROTO_LCP, code, id, code == PPP_CONFACK ? PPP_PKT_MAX : peer_limit(p));
	if (code == PPP_ECHOREP)
		pkt_u32(&k, p->tx_no_magic ? 0 : p->magic);
	pkt_put(&k, d, n);
	pkt_send(p, &k);
}

static void send_challenge(struct l2d_ppp *p, bool retransmit);

/* tlu: the first time, the Authentication phase begins (section 3.5). */
static void this_layer_up(struct l2d_ppp *p)
{
	p->neg_rounds = 0;
	l2d_timer_cancel(p->loop, &p->restart_timer);
	if (p->conf.echo_interval_ms && !p->echo_off) {
		p->echo_missed = 0;
		arm(p, &p->echo_timer, p->conf.echo_interval_ms);
	}
	if (p->phase == PPP_PHASE_LCP) {
		p->phase = PPP_PHASE_AUTH;
		arm(p, &p->auth_timer, p->conf.auth_timeout_ms);
	}
	if (p->phase == PPP_PHASE_AUTH && p->auth == PPP_AUTH_CHAP)
		send_challenge(p, false);
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
	set_why(p, why);
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
	stop_timers(p);
	memset((uint8_t *)p + off, 0, sizeof(*p) - off);
	l2d_timer_init(&p->restart_timer, restart_expired, p);
	l2d_timer_init(&p->auth_timer, auth_expired, p);
	l2d_timer_init(&p->echo_timer, echo_expired, p);
	p->phase = PPP_PHASE_LCP;
	p->peer_mru = 1500;
	p->tx_mru = c->mru;
	p->auth = c->chap ? PPP_AUTH_CHAP : PPP_AUTH_PAP;
	p->magic = new_magic(p, 0);
	/* Initial -Open-> Starting -Up-> irc, scr, Req-Sent */
	p->state = LCP_REQ_SENT;
	send_confreq(p, false);
}

/* ---- the subscriber's Configure-Request ---- */

uint16_t ppp_opts_mru(const uint8_t *o, size_t n)
{
	struct lcp_opt opt;
	uint16_t mru = 0;
	size_t off = 0;

	if (!lcp_opts_valid(o, n))
		return 0;
	while (lcp_opt_next(o, n, &off, &opt))
		if (opt.type == LCP_OPT_MRU && opt.len == 4) {
			mru = get16(opt.v);
			break;
		}
	return mru < PPP_MRU_MIN ? 0 : mru;
}

/*
 * The subscriber's options @o (well formed): each one to Reject into @rej
 * or Nak into @nak (sections 5.3, 5.4; a Nak becomes a Reject past
 * Max-Failure, section 4.6), the MRU and magic number it asked into *@mru
 * and *@magic.
 */
static void rcr_classify(struct l2d_ppp *p, const uint8_t *o, size_t n, struct pkt *rej,
			 struct pkt *nak, uint16_t *mru, uint32_t *magic)
{
	bool naking = p->failure_count < p->conf.max_failure;
	struct lcp_opt opt;
	size_t off = 0;

	while (lcp_opt_next(o, n, &off, &opt)) {
		const uint8_t *v = opt.v;
		uint8_t len = opt.len;
		bool bad_value = false;
		uint32_t m;

		switch (opt.type) {
		case LCP_OPT_MRU:
			if (len != 4)
				goto reject;
			if (get16(v) < PPP_MRU_MIN) {
				bad_value = true;
				if (naking) {
					pkt_u8(nak, LCP_OPT_MRU);
					pkt_u8(nak, 4);
					pkt_u16(nak, p->conf.mru);
				}
			} else {
				*mru = get16(v);
			}
			break;
		case LCP_OPT_ACCM:
			if (len != 6)
				goto reject;
			break;		/* no async framing on PPPoE */
		case LCP_OPT_MAGIC:
			if (len != 6)
				goto reject;
			m = get32(v);
			/* zero is illegal; ours back may be a loop (section 6.4) */
			if (!m || (m == p->magic && !p->tx_no_magic)) {
				bad_value = true;
				if (naking) {
					pkt_u8(nak, LCP_OPT_MAGIC);
					pkt_u8(nak, 6);
					pkt_u32(nak, new_magic(p, p->magic));
				}
			} else {
				*magic = m;
			}
			break;
		default:
			/*
			 * PFC and ACFC SHOULD NOT be used on PPPoE (RFC 2516
			 * section 7); Authentication-Protocol: the LAC does not
			 * authenticate itself; Quality-Protocol and the unknown.
			 */
			goto reject;
		}
		if (!bad_value || naking)
			continue;
reject:		/* also a Nak past Max-Failure (section 4.6) */
		pkt_put(rej, opt.at, len);
	}
}

/* RCR: classify (Reject before Nak before Ack, section 5.2 to 5.4) and answer. */
static void lcp_rcr(struct l2d_ppp *p, uint8_t id, const uint8_t *o, size_t n)
{
	uint16_t mru = 1500;
	uint32_t magic = 0;
	struct pkt rej, nak;
	bool good;

	if (n > PPP_PKT_MAX - 4 || !lcp_opts_valid(o, n)) {
		p->rx_bad++;
		return;
	}
	if (p->state == LCP_CLOSING || p->state == LCP_STOPPING)
		return;
	if (!p->init_rx.present)
		capture(&p->init_rx, o, n);
	capture(&p->last_rx, o, n);

	pkt_begin(&rej, PPP_PROTO_LCP, PPP_CONFREJ, id, PPP_PKT_MAX);
	pkt_begin(&nak, PPP_PROTO_LCP, PPP_CONFNAK, id, PPP_PKT_MAX);
	rcr_classify(p, o, n, &rej, &nak, &mru, &magic);

	good = !pkt_has_data(&rej) && !pkt_has_data(&nak);
	if (p->state == LCP_OPENED) {
		/* tld, scr, then the answer: renegotiation */
		this_layer_down(p);
		send_confreq(p, false);
	}
	if (pkt_has_data(&rej)) {
		pkt_send(p, &rej);
	} else if (pkt_has_data(&nak)) {
		p->failure_count++;
		pkt_send(p, &nak);
	} else {
		p->failure_count = 0;
		p->peer_mru = mru;
		p->peer_magic = magic;
		send_answer(p, PPP_CONFACK, id, o, n);
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

static bool auth_allowed(const struct l2d_ppp *p, enum ppp_auth a)
{
	if (a == PPP_AUTH_CHAP)
		return p->conf.chap && !p->auth_rejected_chap;
	return (p->conf.pap || !p->conf.chap) && !p->auth_rejected_pap;
}

/*
 * A Nak of our Authentication-Protocol: what it suggests if we allow it,
 * else the other one we allow that it has not refused.
 * Return: false when nothing is left.
 */
static bool auth_nak(struct l2d_ppp *p, const uint8_t *v, uint8_t len)
{
	enum ppp_auth want = PPP_AUTH_NONE;

	if (len >= 4 && get16(v) == PPP_PROTO_PAP)
		want = PPP_AUTH_PAP;
	else if (len >= 5 && get16(v) == PPP_PROTO_CHAP && v[2] == CHAP_MD5)
		want = PPP_AUTH_CHAP;
	if (p->auth == PPP_AUTH_CHAP)
		p->auth_rejected_chap = true;
	else
		p->auth_rejected_pap = true;
	if (want != PPP_AUTH_NONE && auth_allowed(p, want))
		p->auth = want;
	else if (auth_allowed(p, PPP_AUTH_CHAP))
		p->auth = PPP_AUTH_CHAP;
	else if (auth_allowed(p, PPP_AUTH_PAP))
		p->auth = PPP_AUTH_PAP;
	else
		return false;
	return true;
}

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
				p->magic = new_magic(p, p->magic);
			}
			break;
		case LCP_OPT_AUTH:
			if (auth_seen)
				break;	/* the first suggestion is the one */
			auth_seen = true;
			/* once the credentials are taken, the protocol is theirs */
			can_auth = code == PPP_CONFNAK && p->phase <= PPP_PHASE_AUTH &&
				   auth_nak(p, v, len);
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
		send_answer(p, PPP_TERMACK, id, NULL, 0);
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
			send_answer(p, PPP_ECHOREP, id, d + 8, n - 8);
		else if (code == PPP_ECHOREP && (p->tx_no_magic || get32(d + 4) != p->magic))
			p->echo_missed = 0;	/* our own magic back: a loop, no answer */
		return;
	default:
		/* RUC: scj with the packet, truncated to the MRU (section 5.6) */
		send_answer(p, PPP_CODEREJ, ++p->id, d, n);
		return;
	}
}

/* ---- the Authentication phase ---- */

/* Our Authenticate-Nak or CHAP Failure with the refusal's text. */
static void send_refusal(struct l2d_ppp *p, uint8_t id)
{
	size_t n = strlen(p->why);
	struct pkt k;

	if (p->auth == PPP_AUTH_PAP) {
		/* Msg-Length, then the Message, within the peer's MRU */
		if (n > peer_limit(p) - 5)
			n = peer_limit(p) - 5;
		pkt_begin(&k, PPP_PROTO_PAP, PAP_NAK, id, peer_limit(p));
		pkt_u8(&k, (uint8_t)n);		/* n <= PPP_WHY_MAX */
	} else {
		pkt_begin(&k, PPP_PROTO_CHAP, CHAP_FAILURE, id, peer_limit(p));
	}
	pkt_put(&k, p->why, n);
	pkt_send(p, &k);
}

/*
 * RFC 1994 section 4.1: the Identifier changes with each new Challenge; a
 * retransmission is the same Challenge, so that a Response to any of them
 * answers the one the ICCN's Proxy Authen AVPs carry.
 */
static void send_challenge(struct l2d_ppp *p, bool retransmit)
{
	static const char name[] = PPP_CHAP_NAME;
	struct pkt k;

	if (!retransmit) {
		p->chap_id = ++p->id;
		p->ops->random(p, p->challenge, sizeof(p->challenge));
		p->restart_count = p->conf.max_configure;
	}
	pkt_begin(&k, PPP_PROTO_CHAP, CHAP_CHALLENGE, p->chap_id, PPP_PKT_MAX);
	pkt_u8(&k, sizeof(p->challenge));
	pkt_put(&k, p->challenge, sizeof(p->challenge));
	pkt_put(&k, name, sizeof(name) - 1);
	if (p->restart_count)
		p->restart_count--;
	arm(p, &p->restart_timer, p->conf.restart_ms);
	pkt_send(p, &k);
}

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
			send_refusal(p, d[1]);
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
			send_refusal(p, d[1]);
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
		struct pkt k;

		pkt_begin(&k, PPP_PROTO_LCP, PPP_PROTREJ, ++p->id, peer_limit(p));
		pkt_u16(&k, proto);
		pkt_put(&k, f, len);
		pkt_send(p, &k);
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
			return send_challenge(p, true);
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
	struct pkt k;

	if (p->state != LCP_OPENED)
		return;
	if (p->echo_missed >= p->conf.echo_failures)
		return finish(p, "no echo reply");
	p->echo_missed++;
	arm(p, &p->echo_timer, p->conf.echo_interval_ms);
	pkt_begin(&k, PPP_PROTO_LCP, PPP_ECHOREQ, ++p->id, PPP_PKT_MAX);
	pkt_u32(&k, p->tx_no_magic ? 0 : p->magic);
	pkt_send(p, &k);
}

/* ---- the caller's events ---- */

void l2d_ppp_auth_result(struct l2d_ppp *p, bool ok, const char *message)
{
	if (p->phase != PPP_PHASE_LOGIN || ok)
		return;		/* ok: the LNS answers the subscriber */
	set_why(p, message && *message ? message : "authentication failed");
	p->answered = true;
	send_refusal(p, p->auth == PPP_AUTH_PAP ? p->reply_id : p->chap_id);
	lcp_close(p, p->why);
}

void l2d_ppp_quiet(struct l2d_ppp *p)
{
	if (p->phase == PPP_PHASE_DOWN)
		return;
	stop_timers(p);
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
	stop_timers(p);
	p->phase = PPP_PHASE_DOWN;
}
