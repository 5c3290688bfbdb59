// SPDX-License-Identifier: GPL-2.0
/*
 * The LAC's own PPP (ppp.c): the packets it builds and sends (RFC 1661
 * section 5, RFC 1334 section 2.2, RFC 1994 section 4), the subscriber's
 * Configure-Request options classified (RFC 1661 sections 5.2 to 5.4, 6)
 * and our Authentication-Protocol after a Nak.
 */
#include <string.h>

#include "ppp.h"
#include "ppp_int.h"

/* @max: the packet's size limit (what may be truncated is, to the peer's MRU). */
void ppp_pkt_begin(struct ppp_pkt *k, uint16_t proto, uint8_t code, uint8_t id, size_t max)
{
	k->buf[0] = (uint8_t)(proto >> 8);
	k->buf[1] = (uint8_t)proto;
	k->buf[2] = code;
	k->buf[3] = id;
	k->len = 6;
	k->max = 2 + (max < PPP_PKT_MAX ? max : PPP_PKT_MAX);
}

void ppp_pkt_put(struct ppp_pkt *k, const void *d, size_t n)
{
	if (n > k->max - k->len)
		n = k->max - k->len;
	if (n)
		memcpy(k->buf + k->len, d, n);
	k->len += n;
}

void ppp_pkt_u8(struct ppp_pkt *k, uint8_t v)
{
	ppp_pkt_put(k, &v, 1);
}

void ppp_pkt_u16(struct ppp_pkt *k, uint16_t v)
{
	uint8_t b[2] = { (uint8_t)(v >> 8), (uint8_t)v };

	ppp_pkt_put(k, b, sizeof(b));
}

void ppp_pkt_u32(struct ppp_pkt *k, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v };

	ppp_pkt_put(k, b, sizeof(b));
}

bool ppp_pkt_has_data(const struct ppp_pkt *k)
{
	return k->len > 6;
}

/* Nothing leaves once quiet or down. */
void ppp_pkt_send(struct l2d_ppp *p, struct ppp_pkt *k)
{
	size_t n = k->len - 2;

	k->buf[4] = (uint8_t)(n >> 8);
	k->buf[5] = (uint8_t)n;
	if (p->phase == PPP_PHASE_QUIET || p->phase == PPP_PHASE_DOWN)
		return;
	p->ops->send(p, k->buf, k->len);
}

size_t ppp_peer_limit(const struct l2d_ppp *p)
{
	return p->peer_mru;
}

void ppp_capture_put(struct ppp_capture *c, const uint8_t *d, size_t n)
{
	c->len = (uint16_t)(n < PPP_CAPTURE_MAX ? n : PPP_CAPTURE_MAX);
	if (c->len)
		memcpy(c->data, d, c->len);
	c->present = true;
}

void ppp_set_why(struct l2d_ppp *p, const char *why)
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
uint32_t ppp_new_magic(struct l2d_ppp *p, uint32_t avoid)
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

void ppp_arm(struct l2d_ppp *p, struct l2d_timer *t, unsigned int ms)
{
	l2d_timer_arm(p->loop, t, l2d_now(p->loop) + ms);
}

void ppp_stop_timers(struct l2d_ppp *p)
{
	l2d_timer_cancel(p->loop, &p->restart_timer);
	l2d_timer_cancel(p->loop, &p->auth_timer);
	l2d_timer_cancel(p->loop, &p->echo_timer);
}

/* sca, sta, scj and the Echo-Reply: an answer with @id echoing @d. */
void ppp_send_answer(struct l2d_ppp *p, uint8_t code, uint8_t id, const uint8_t *d, size_t n)
{
	struct ppp_pkt k;

	/* an Ack is whole; the rest is truncated to the MRU (sections 5.6, 5.8) */
	ppp_pkt_begin(&k, PPP_PROTO_LCP, code, id, code == PPP_CONFACK ? PPP_PKT_MAX : ppp_peer_limit(p));
	if (code == PPP_ECHOREP)
		ppp_pkt_u32(&k, p->tx_no_magic ? 0 : p->magic);
	ppp_pkt_put(&k, d, n);
	ppp_pkt_send(p, &k);
}

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
void ppp_rcr_classify(struct l2d_ppp *p, const uint8_t *o, size_t n, struct ppp_pkt *rej,
		      struct ppp_pkt *nak, uint16_t *mru, uint32_t *magic)
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
					ppp_pkt_u8(nak, LCP_OPT_MRU);
					ppp_pkt_u8(nak, 4);
					ppp_pkt_u16(nak, p->conf.mru);
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
					ppp_pkt_u8(nak, LCP_OPT_MAGIC);
					ppp_pkt_u8(nak, 6);
					ppp_pkt_u32(nak, ppp_new_magic(p, p->magic));
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
		ppp_pkt_put(rej, opt.at, len);
	}
}

bool ppp_auth_allowed(const struct l2d_ppp *p, enum ppp_auth a)
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
bool ppp_auth_nak(struct l2d_ppp *p, const uint8_t *v, uint8_t len)
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
	if (want != PPP_AUTH_NONE && ppp_auth_allowed(p, want))
		p->auth = want;
	else if (ppp_auth_allowed(p, PPP_AUTH_CHAP))
		p->auth = PPP_AUTH_CHAP;
	else if (ppp_auth_allowed(p, PPP_AUTH_PAP))
		p->auth = PPP_AUTH_PAP;
	else
		return false;
	return true;
}

/* Our Authenticate-Nak or CHAP Failure with the refusal's text. */
void ppp_send_refusal(struct l2d_ppp *p, uint8_t id)
{
	size_t n = strlen(p->why);
	struct ppp_pkt k;

	if (p->auth == PPP_AUTH_PAP) {
		/* Msg-Length, then the Message, within the peer's MRU */
		if (n > ppp_peer_limit(p) - 5)
			n = ppp_peer_limit(p) - 5;
		ppp_pkt_begin(&k, PPP_PROTO_PAP, PAP_NAK, id, ppp_peer_limit(p));
		ppp_pkt_u8(&k, (uint8_t)n);		/* n <= PPP_WHY_MAX */
	} else {
		ppp_pkt_begin(&k, PPP_PROTO_CHAP, CHAP_FAILURE, id, ppp_peer_limit(p));
	}
	ppp_pkt_put(&k, p->why, n);
	ppp_pkt_send(p, &k);
}

/*
 * RFC 1994 section 4.1: the Identifier changes with each new Challenge; a
 * retransmission is the same Challenge, so that a Response to any of them
 * answers the one the ICCN's Proxy Authen AVPs carry.
 */
void ppp_send_challenge(struct l2d_ppp *p, bool retransmit)
{
	static const char name[] = PPP_CHAP_NAME;
	struct ppp_pkt k;

	if (!retransmit) {
		p->chap_id = ++p->id;
		p->ops->random(p, p->challenge, sizeof(p->challenge));
		p->restart_count = p->conf.max_configure;
	}
	ppp_pkt_begin(&k, PPP_PROTO_CHAP, CHAP_CHALLENGE, p->chap_id, PPP_PKT_MAX);
	ppp_pkt_u8(&k, sizeof(p->challenge));
	ppp_pkt_put(&k, p->challenge, sizeof(p->challenge));
	ppp_pkt_put(&k, name, sizeof(name) - 1);
	if (p->restart_count)
		p->restart_count--;
	ppp_arm(p, &p->restart_timer, p->conf.restart_ms);
	ppp_pkt_send(p, &k);
}
