// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpsel-subgen: a PPPoE subscriber load generator.  One process, one
 * epoll loop and raw AF_PACKET sockets emulate many subscribers, each with
 * a MAC address of its own: PPPoE discovery (RFC 2516), LCP (RFC 1661),
 * PAP (RFC 1334) or CHAP-MD5 (RFC 1994) as the peer asks, IPCP (RFC 1332),
 * then optionally a ping a second, and at the end LCP Terminate and PADT.
 * Subscribers start at a set rate (a token bucket, not bursts); the summary
 * gives the rate they came up at, setup times by stage, retransmissions,
 * failures by stage and the generator's own CPU a subscriber
 * (Documentation/performance.md).
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/random.h>

#include "sg.h"
#include "md5.h"
#include "../../kmod/version.h"

enum stage {
	ST_IDLE, ST_PADI, ST_PADR, ST_LCP, ST_AUTH, ST_IPCP, ST_UP, ST_TERM, ST_DOWN, ST_FAILED
};
enum fstage { FS_DISC, FS_LCP, FS_AUTH, FS_IPCP, FS_COUNT };
enum why { W_DEADLINE, W_RETRIES, W_REFUSED, W_TERMINATED, W_NEGOTIATION, W_COUNT };
enum rtx { RTX_PADI, RTX_PADR, RTX_LCP, RTX_PAP, RTX_IPCP, RTX_TERM, RTX_COUNT };

static const char *const fstage_name[FS_COUNT] = { "discovery", "lcp", "auth", "ipcp" };
static const char *const why_name[W_COUNT] = {
	"deadline", "retries", "refused", "terminated", "negotiation"
};
static const char *const rtx_name[RTX_COUNT] = {
	"padi", "padr", "lcp", "pap", "ipcp", "terminate"
};

/* LCP and IPCP state bits */
#define F_OUR_ACKED	0x01	/* our Configure-Request was acked */
#define F_PEER_ACKED	0x02	/* we acked the peer's */
#define F_NO_MRU	0x04	/* the peer rejected our MRU */
#define F_NO_MAGIC	0x08	/* ... our Magic-Number */

#define AUTH_PAP	1
#define AUTH_CHAP	2

#define COOKIE_MAX	64
#define RELAY_MAX	64
#define HOST_UNIQ_LEN	8
#define NAK_ROOM	1400	/* bytes of a Nak, Reject or Code-Reject we build */
#define PING_DATA	56

/* timer queues: restart, discovery backoff 0..7, deadline, ping */
#define Q_RESTART	0
#define Q_DISC		1
#define DISC_LEVELS	8
#define Q_DEADLINE	(Q_DISC + DISC_LEVELS)
#define Q_PING		(Q_DEADLINE + 1)
#define Q_COUNT		(Q_PING + 1)

struct sub {
	struct sg_tnode tproto;		/* retransmission, ping */
	struct sg_tnode tdead;		/* the subscriber's deadline */
	uint64_t t0, t_disc, t_lcp, t_auth, t_up;
	uint64_t t_lcp1;			/* LCP first opened (t_lcp: last) */
	uint32_t k;			/* 0 .. n-1; its number is first + k */
	uint8_t ifi;
	uint8_t stage;
	uint8_t fail_stage, fail_why;
	uint8_t mac[SG_ETH_ALEN], ac[SG_ETH_ALEN];
	uint16_t sid;
	uint16_t mru;
	uint8_t retries;		/* of what is retransmitted now */
	uint8_t naks;			/* Configure-Naks and -Rejects received */
	uint8_t lcp, ipcp;		/* F_* */
	uint8_t lcp_id, ipcp_id, auth_id, term_id;
	uint8_t auth;			/* AUTH_* from the peer's Configure-Request */
	uint8_t counted;		/* reached up or failed once */
	uint8_t rtx;			/* its retransmissions, all kinds */
	uint8_t cookie_len, relay_len;
	uint32_t magic;
	uint8_t addr[4], peer_addr[4];
	uint16_t ping_seq;
	uint32_t ping_sent, ping_rcvd;
	uint8_t cookie[COOKIE_MAX], relay[RELAY_MAX];
};

enum phase { P_RAMP, P_HOLD, P_DRAIN, P_DOWN, P_END };

static struct {
	/* options */
	uint64_t n, rate, burst, first, down_rate;
	uint8_t prefix[5];
	unsigned int plen;
	const char *ifnames[SG_MAX_IFS];
	unsigned int nifs;
	const char *user, *password, *service;
	/* --vendor-tag: a Vendor-Specific tag (0x0105) in each PADI and PADR,
	 * as a TR-101 intermediate agent adds it (S-AL-1) */
	uint8_t vendor_tag[255];
	uint16_t vendor_tag_len;
	int auth_allowed;		/* AUTH_PAP | AUTH_CHAP */
	uint64_t mru;
	uint64_t restart_ns, disc_ns, deadline_ns, hold_ns, ping_ns, drain_ns;
	uint64_t max_configure, max_terminate, max_failure, disc_retries;
	bool json, verbose;
	const char *csv;

	/* state */
	struct sub *subs;
	struct sg_if ifs[SG_MAX_IFS];
	struct sg_rx rx;
	struct sg_tq q[Q_COUNT];
	uint32_t nonce;
	enum phase phase;
	uint64_t started, ndone, nup, nfailed, down_k, ndown_started, ndown_done;
	uint64_t sched_base, sched_i;	/* start i is due at base + i / rate */
	uint64_t t_first, t_last_start, t_last_up, t_setup_end, t_phase_end, t_down0, t_down1;
	double cpu_setup, cpu_total;
	volatile int sig;

	/* counters */
	uint64_t failed[FS_COUNT][W_COUNT];
	uint64_t rtx[RTX_COUNT];
	uint64_t rx_frames, rx_bad, rx_ignored, echo_replies, reneg, protrej, coderej;
	uint64_t lost_after_up, term_acked, term_unacked;
	uint64_t ping_sent, ping_rcvd;
} G;

/* ---- sending -------------------------------------------------------------- */

static struct sg_if *sub_if(const struct sub *s)
{
	return &G.ifs[s->ifi];
}

static void send_padi(struct sub *s)
{
	static const uint8_t bcast[SG_ETH_ALEN] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	struct sg_if *i = sub_if(s);
	uint8_t *b = sg_tx_slot(i), *p, hu[HOST_UNIQ_LEN];

	sg_put32(hu, G.nonce);
	sg_put32(hu + 4, s->k);
	p = sg_hdr(b, bcast, s->mac, SG_ETH_DISC, SG_PADI, 0);
	p = sg_put_tag(p, SG_TAG_SERVICE, G.service, strlen(G.service));
	p = sg_put_tag(p, SG_TAG_HOST_UNIQ, hu, sizeof(hu));
	if (G.vendor_tag_len)
		p = sg_put_tag(p, SG_TAG_VENDOR, G.vendor_tag, G.vendor_tag_len);
	sg_tx_commit(i, sg_end(b, p));
}

static void send_padr(struct sub *s)
{
	struct sg_if *i = sub_if(s);
	uint8_t *b = sg_tx_slot(i), *p, hu[HOST_UNIQ_LEN];

	sg_put32(hu, G.nonce);
	sg_put32(hu + 4, s->k);
	p = sg_hdr(b, s->ac, s->mac, SG_ETH_DISC, SG_PADR, 0);
	p = sg_put_tag(p, SG_TAG_SERVICE, G.service, strlen(G.service));
	p = sg_put_tag(p, SG_TAG_HOST_UNIQ, hu, sizeof(hu));
	if (s->cookie_len)
		p = sg_put_tag(p, SG_TAG_COOKIE, s->cookie, s->cookie_len);
	if (s->relay_len)
		p = sg_put_tag(p, SG_TAG_RELAY, s->relay, s->relay_len);
	if (G.vendor_tag_len)
		p = sg_put_tag(p, SG_TAG_VENDOR, G.vendor_tag, G.vendor_tag_len);
	sg_tx_commit(i, sg_end(b, p));
}

static void send_padt(struct sub *s)
{
	struct sg_if *i = sub_if(s);
	uint8_t *b = sg_tx_slot(i), *p, hu[HOST_UNIQ_LEN];

	sg_put32(hu, G.nonce);
	sg_put32(hu + 4, s->k);
	p = sg_hdr(b, s->ac, s->mac, SG_ETH_DISC, SG_PADT, s->sid);
	p = sg_put_tag(p, SG_TAG_HOST_UNIQ, hu, sizeof(hu));
	sg_tx_commit(i, sg_end(b, p));
}

static uint8_t *cp_begin(struct sub *s, uint16_t proto, uint8_t code, uint8_t id)
{
	return sg_cp(sg_tx_slot(sub_if(s)), s->ac, s->mac, s->sid, proto, code, id);
}

static void cp_finish(struct sub *s, uint8_t *end)
{
	struct sg_if *i = sub_if(s);

	sg_tx_commit(i, sg_cp_end(i->txb[i->ntx], end));
}

/* a control packet whose data is @len bytes at @data */
static void send_cp(struct sub *s, uint16_t proto, uint8_t code, uint8_t id,
		    const uint8_t *data, size_t len)
{
	uint8_t *p = cp_begin(s, proto, code, id);

	if (len)
		memcpy(p, data, len);
	cp_finish(s, p + len);
}

static uint8_t *lcp_opts(const struct sub *s, uint8_t *p)
{
	if (!(s->lcp & F_NO_MRU)) {
		p[0] = SG_LCP_MRU;
		p[1] = 4;
		sg_put16(p + 2, s->mru);
		p += 4;
	}
	if (!(s->lcp & F_NO_MAGIC)) {
		p[0] = SG_LCP_MAGIC;
		p[1] = 6;
		sg_put32(p + 2, s->magic);
		p += 6;
	}
	return p;
}

static void send_lcp_cr(struct sub *s)
{
	uint8_t *p = cp_begin(s, SG_PROTO_LCP, SG_CONFREQ, s->lcp_id);

	cp_finish(s, lcp_opts(s, p));
}

static void send_ipcp_cr(struct sub *s)
{
	uint8_t *p = cp_begin(s, SG_PROTO_IPCP, SG_CONFREQ, s->ipcp_id);

	p[0] = SG_IPCP_ADDR;
	p[1] = 6;
	memcpy(p + 2, s->addr, 4);
	cp_finish(s, p + 6);
}

static void send_termreq(struct sub *s)
{
	send_cp(s, SG_PROTO_LCP, SG_TERMREQ, s->term_id, NULL, 0);
}

/* the user name: G.user with "%d" the subscriber's number, "%%" a '%' */
static size_t user_name(const struct sub *s, char *out, size_t cap)
{
	const char *u = G.user;
	size_t n = 0;
	int w;

	while (*u && n + 1 < cap) {
		if (u[0] == '%' && u[1] == 'd') {
			w = snprintf(out + n, cap - n, "%" PRIu64, G.first + s->k);
			if (w < 0 || (size_t)w >= cap - n)
				break;
			n += w;
			u += 2;
		} else if (u[0] == '%' && u[1] == '%') {
			out[n++] = '%';
			u += 2;
		} else {
			out[n++] = *u++;
		}
	}
	out[n] = 0;
	return n;
}

static void send_pap(struct sub *s)
{
	uint8_t *p = cp_begin(s, SG_PROTO_PAP, SG_PAP_REQ, s->auth_id);
	char name[256];
	size_t nl = user_name(s, name, sizeof(name)), pl = strlen(G.password);

	p[0] = (uint8_t)nl;
	memcpy(p + 1, name, nl);
	p += 1 + nl;
	p[0] = (uint8_t)pl;
	memcpy(p + 1, G.password, pl);
	cp_finish(s, p + 1 + pl);
}

static void send_ping(struct sub *s)
{
	uint8_t *p = sg_hdr(sg_tx_slot(sub_if(s)), s->ac, s->mac, SG_ETH_SESS, SG_SESSION, s->sid);
	uint8_t *ip = p + 2, *ic = ip + 20;
	uint16_t tot = 20 + 8 + PING_DATA;

	sg_put16(p, SG_PROTO_IP);
	memset(ip, 0, tot);
	ip[0] = 0x45;
	sg_put16(ip + 2, tot);
	sg_put16(ip + 4, s->ping_seq);
	ip[8] = 64;
	ip[9] = 1;
	memcpy(ip + 12, s->addr, 4);
	memcpy(ip + 16, s->peer_addr, 4);
	sg_put16(ip + 10, sg_csum(ip, 20));
	ic[0] = 8;
	sg_put16(ic + 4, (uint16_t)s->k);
	sg_put16(ic + 6, s->ping_seq++);
	sg_put32(ic + 8, s->k);
	sg_put16(ic + 2, sg_csum(ic, 8 + PING_DATA));
	sg_tx_commit(sub_if(s), sg_end(sub_if(s)->txb[sub_if(s)->ntx], ic + 8 + PING_DATA));
	s->ping_sent++;
	G.ping_sent++;
}

/* ---- subscriber life ------------------------------------------------------ */

static enum fstage stage_of(const struct sub *s)
{
	switch (s->stage) {
	case ST_PADI:
	case ST_PADR:
		return FS_DISC;
	case ST_LCP:
		return FS_LCP;
	case ST_AUTH:
		return FS_AUTH;
	default:
		return FS_IPCP;
	}
}

static void count_done(struct sub *s)
{
	if (s->counted)
		return;
	s->counted = 1;
	G.ndone++;
}

static void fail(struct sub *s, enum why w)
{
	s->fail_stage = stage_of(s);
	s->fail_why = w;
	G.failed[s->fail_stage][w]++;
	G.nfailed++;
	sg_tq_disarm(&s->tproto);
	sg_tq_disarm(&s->tdead);
	if (s->sid)
		send_padt(s);		/* so that the AC frees it now */
	s->stage = ST_FAILED;
	count_done(s);
	if (G.verbose)
		fprintf(stderr, "subgen: subscriber %" PRIu64 " failed in %s: %s\n",
			G.first + s->k, fstage_name[s->fail_stage], why_name[w]);
}

static void retransmit_timer(struct sub *s, uint64_t now)
{
	sg_tq_arm(&G.q[Q_RESTART], &s->tproto, now);
}

static void disc_timer(struct sub *s, uint64_t now)
{
	unsigned int lvl = s->retries < DISC_LEVELS ? s->retries : DISC_LEVELS - 1;

	sg_tq_arm(&G.q[Q_DISC + lvl], &s->tproto, now);
}

static void sub_start(struct sub *s, uint64_t now)
{
	s->t0 = now;
	s->stage = ST_PADI;
	s->retries = 0;
	send_padi(s);
	disc_timer(s, now);
	sg_tq_arm(&G.q[Q_DEADLINE], &s->tdead, now);
	if (!G.started)
		G.t_first = now;
	G.t_last_start = now;
	G.started++;
}

static void ipcp_start(struct sub *s, uint64_t now)
{
	s->stage = ST_IPCP;
	s->t_auth = now;
	s->ipcp_id++;
	s->naks = 0;
	s->retries = 0;
	/* the peer's Configure-Request may have been acked already */
	s->ipcp &= ~F_OUR_ACKED;
	send_ipcp_cr(s);
	retransmit_timer(s, now);
}

static void lcp_opened(struct sub *s, uint64_t now)
{
	s->t_lcp = now;
	if (!s->t_lcp1)
		s->t_lcp1 = now;
	s->retries = 0;
	sg_tq_disarm(&s->tproto);
	if (s->auth == AUTH_PAP) {
		s->stage = ST_AUTH;
		s->auth_id++;
		send_pap(s);
		retransmit_timer(s, now);
	} else if (s->auth == AUTH_CHAP) {
		s->stage = ST_AUTH;	/* the authenticator's Challenge comes */
	} else {
		ipcp_start(s, now);
	}
}

static void sub_up(struct sub *s, uint64_t now)
{
	s->stage = ST_UP;
	sg_tq_disarm(&s->tproto);
	if (s->counted)
		return;		/* renegotiated after it was up once */
	s->t_up = now;
	sg_tq_disarm(&s->tdead);
	G.nup++;
	G.t_last_up = now;
	count_done(s);
	if (G.ping_ns && G.phase <= P_HOLD) {
		send_ping(s);
		sg_tq_arm(&G.q[Q_PING], &s->tproto, now);
	}
}

/* the peer is gone: PADT or Terminate-Request */
static void peer_down(struct sub *s)
{
	if (s->stage == ST_UP) {
		G.lost_after_up++;
		s->stage = ST_DOWN;
		sg_tq_disarm(&s->tproto);
	} else if (s->stage == ST_TERM) {
		G.term_acked++;
		G.ndown_done++;
		s->stage = ST_DOWN;
		sg_tq_disarm(&s->tproto);
	} else if (s->stage < ST_UP) {
		s->sid = 0;	/* no PADT back for a PADT */
		fail(s, W_TERMINATED);
	}
}

/* ---- LCP ------------------------------------------------------------------ */

struct optbuf {
	uint8_t b[NAK_ROOM];
	size_t n;
};

static void ob_add(struct optbuf *o, uint8_t type, const uint8_t *v, uint8_t vlen)
{
	if (o->n + 2 + vlen > sizeof(o->b))
		return;		/* enough said */
	o->b[o->n] = type;
	o->b[o->n + 1] = vlen + 2;
	if (vlen)
		memcpy(o->b + o->n + 2, v, vlen);
	o->n += 2 + vlen;
}

/* The peer's Configure-Request: Ack, Nak or Reject; true if acked. */
static bool lcp_rcr(struct sub *s, const struct sg_frame *f)
{
	static struct optbuf nak, rej;
	struct sg_opt_iter it;
	const uint8_t *v;
	uint8_t t, vl, sug[6];
	uint16_t ap = 0;
	int r;

	if (!sg_opts_ok(f->cp_data, f->cp_dlen)) {
		G.rx_bad++;
		return false;
	}
	nak.n = rej.n = 0;
	s->auth = 0;
	sg_opt_init(&it, f->cp_data, f->cp_dlen);
	while ((r = sg_opt_next(&it, &t, &v, &vl)) > 0) {
		switch (t) {
		case SG_LCP_MRU:
			if (vl != 2) {
				ob_add(&rej, t, v, vl);
			} else if (sg_get16(v) < 64) {
				sg_put16(sug, 1492);
				ob_add(&nak, t, sug, 2);
			}
			break;
		case SG_LCP_ACCM:
			if (vl != 4)
				ob_add(&rej, t, v, vl);
			break;
		case SG_LCP_AUTH:
			ap = vl >= 2 ? sg_get16(v) : 0;
			if (ap == SG_PROTO_PAP && vl == 2 && (G.auth_allowed & AUTH_PAP)) {
				s->auth = AUTH_PAP;
			} else if (ap == SG_PROTO_CHAP && vl == 3 && v[2] == SG_CHAP_MD5 &&
				   (G.auth_allowed & AUTH_CHAP)) {
				s->auth = AUTH_CHAP;
			} else if (G.auth_allowed & AUTH_CHAP) {
				sg_put16(sug, SG_PROTO_CHAP);
				sug[2] = SG_CHAP_MD5;
				ob_add(&nak, t, sug, 3);
			} else if (G.auth_allowed & AUTH_PAP) {
				sg_put16(sug, SG_PROTO_PAP);
				ob_add(&nak, t, sug, 2);
			} else {
				ob_add(&rej, t, v, vl);
			}
			break;
		case SG_LCP_MAGIC:
			if (vl != 4) {
				ob_add(&rej, t, v, vl);
			} else if (!(s->lcp & F_NO_MAGIC) && sg_get32(v) == s->magic) {
				/* looped back, or a clash: suggest another (RFC 1661 §6.4) */
				sg_put32(sug, (uint32_t)sg_rand() | 1);
				ob_add(&nak, t, sug, 4);
			}
			break;
		case SG_LCP_PFC:
			if (vl)
				ob_add(&rej, t, v, vl);
			break;
		default:	/* ACFC (RFC 2516 §7), quality, callback, ... */
			ob_add(&rej, t, v, vl);
			break;
		}
	}
	if (rej.n) {
		send_cp(s, SG_PROTO_LCP, SG_CONFREJ, f->cp_id, rej.b, rej.n);
		s->auth = 0;
		return false;
	}
	if (nak.n) {
		send_cp(s, SG_PROTO_LCP, SG_CONFNAK, f->cp_id, nak.b, nak.n);
		s->auth = 0;
		return false;
	}
	send_cp(s, SG_PROTO_LCP, SG_CONFACK, f->cp_id, f->cp_data, f->cp_dlen);
	return true;
}

/* a Configure-Ack must carry exactly the options we sent */
static bool lcp_ack_ok(const struct sub *s, const struct sg_frame *f)
{
	uint8_t mine[16];
	size_t n = lcp_opts(s, mine) - mine;

	return f->cp_dlen == n && !memcmp(f->cp_data, mine, n);
}

static void lcp_nak_rej(struct sub *s, const struct sg_frame *f, uint64_t now)
{
	struct sg_opt_iter it;
	const uint8_t *v;
	uint8_t t, vl;

	if (!sg_opts_ok(f->cp_data, f->cp_dlen)) {
		G.rx_bad++;
		return;
	}
	sg_opt_init(&it, f->cp_data, f->cp_dlen);
	while (sg_opt_next(&it, &t, &v, &vl) > 0) {
		if (f->cp_code == SG_CONFREJ) {
			if (t == SG_LCP_MRU)
				s->lcp |= F_NO_MRU;
			else if (t == SG_LCP_MAGIC)
				s->lcp |= F_NO_MAGIC;
		} else if (t == SG_LCP_MRU && vl == 2 && sg_get16(v) >= 64) {
			s->mru = sg_get16(v);
		} else if (t == SG_LCP_MAGIC && vl == 4) {
			s->magic = (uint32_t)sg_rand() | 1;
		}
	}
	if (++s->naks > G.max_failure) {
		fail(s, W_NEGOTIATION);
		return;
	}
	s->lcp &= ~F_OUR_ACKED;
	s->lcp_id++;
	s->retries = 0;
	send_lcp_cr(s);
	retransmit_timer(s, now);
}

/* The peer renegotiates LCP after it was open (RFC 1661 §4.4, "This-Layer-Down"). */
static void lcp_restart(struct sub *s, uint64_t now)
{
	G.reneg++;
	s->stage = ST_LCP;
	s->lcp &= F_NO_MRU | F_NO_MAGIC;
	s->ipcp = 0;
	s->naks = 0;
	s->retries = 0;
	s->lcp_id++;
	send_lcp_cr(s);
	retransmit_timer(s, now);
}

static void code_reject(struct sub *s, uint16_t proto, const struct sg_frame *f)
{
	size_t n = (size_t)f->info_len;

	if (n > NAK_ROOM)
		n = NAK_ROOM;
	G.coderej++;
	/* an Identifier of its own: our Configure-Request keeps its one */
	send_cp(s, proto, SG_CODEREJ, (uint8_t)(s->lcp_id + 128), f->info, n);
}

static void lcp_input(struct sub *s, const struct sg_frame *f, uint64_t now)
{
	bool open = s->stage >= ST_AUTH && s->stage <= ST_UP;

	switch (f->cp_code) {
	case SG_CONFREQ:
		if (s->stage == ST_TERM)
			return;
		if (open)
			lcp_restart(s, now);
		if (lcp_rcr(s, f)) {
			s->lcp |= F_PEER_ACKED;
			if (s->lcp & F_OUR_ACKED)
				lcp_opened(s, now);
		} else {
			s->lcp &= ~F_PEER_ACKED;
		}
		return;
	case SG_CONFACK:
		if (s->stage != ST_LCP || f->cp_id != s->lcp_id || (s->lcp & F_OUR_ACKED))
			break;
		if (!lcp_ack_ok(s, f)) {
			G.rx_bad++;
			return;
		}
		s->lcp |= F_OUR_ACKED;
		if (s->lcp & F_PEER_ACKED)
			lcp_opened(s, now);
		return;
	case SG_CONFNAK:
	case SG_CONFREJ:
		if (s->stage != ST_LCP || f->cp_id != s->lcp_id)
			break;
		lcp_nak_rej(s, f, now);
		return;
	case SG_TERMREQ:
		send_cp(s, SG_PROTO_LCP, SG_TERMACK, f->cp_id, NULL, 0);
		if (s->stage == ST_TERM)
			send_padt(s);
		peer_down(s);
		return;
	case SG_TERMACK:
		if (s->stage != ST_TERM)
			break;
		send_padt(s);
		peer_down(s);
		return;
	case SG_ECHOREQ:
		if (!open || f->cp_dlen < 4)
			break;
		{
			uint8_t *p = cp_begin(s, SG_PROTO_LCP, SG_ECHOREP, f->cp_id);
			size_t n = f->cp_dlen - 4;

			if (n > NAK_ROOM)
				n = NAK_ROOM;
			sg_put32(p, (s->lcp & F_NO_MAGIC) ? 0 : s->magic);
			memcpy(p + 4, f->cp_data + 4, n);
			cp_finish(s, p + 4 + n);
			G.echo_replies++;
		}
		return;
	case SG_CODEREJ:
	case SG_PROTREJ:
		if (f->cp_code == SG_PROTREJ && f->cp_dlen >= 2 &&
		    sg_get16(f->cp_data) == SG_PROTO_IPCP && s->stage == ST_IPCP) {
			fail(s, W_REFUSED);
			return;
		}
		break;
	case SG_ECHOREP:
	case SG_DISCREQ:
		break;
	default:
		code_reject(s, SG_PROTO_LCP, f);
		return;
	}
	G.rx_ignored++;
}

/* ---- authentication ------------------------------------------------------- */

static void pap_input(struct sub *s, const struct sg_frame *f, uint64_t now)
{
	if (s->stage != ST_AUTH || s->auth != AUTH_PAP || f->cp_id != s->auth_id) {
		G.rx_ignored++;
		return;
	}
	if (f->cp_code == SG_PAP_ACK)
		ipcp_start(s, now);
	else if (f->cp_code == SG_PAP_NAK)
		fail(s, W_REFUSED);
	else
		G.rx_ignored++;
}

static void chap_input(struct sub *s, const struct sg_frame *f, uint64_t now)
{
	struct sg_bytes val, nm;
	struct md5_ctx c;
	uint8_t *p;
	char name[256];
	size_t nl;

	if (s->auth != AUTH_CHAP || s->stage < ST_AUTH || s->stage > ST_UP) {
		G.rx_ignored++;
		return;
	}
	switch (f->cp_code) {
	case SG_CHAP_CHALLENGE:
		if (sg_chap_parse(f, &val, &nm) || !val.len) {
			G.rx_bad++;
			return;
		}
		/* Response: MD5(Identifier, secret, Challenge) (RFC 1994 §4.1) */
		s->auth_id = f->cp_id;
		p = cp_begin(s, SG_PROTO_CHAP, SG_CHAP_RESPONSE, f->cp_id);
		md5_init(&c);
		md5_update(&c, 1, &f->cp_id);
		md5_update(&c, strlen(G.password), (const uint8_t *)G.password);
		md5_update(&c, val.len, val.p);
		p[0] = MD5_DIGEST_LEN;
		md5_digest(&c, MD5_DIGEST_SIZE, p + 1);
		p += 1 + MD5_DIGEST_LEN;
		nl = user_name(s, name, sizeof(name));
		memcpy(p, name, nl);
		cp_finish(s, p + nl);
		return;
	case SG_CHAP_SUCCESS:
		if (s->stage == ST_AUTH && f->cp_id == s->auth_id)
			ipcp_start(s, now);
		return;
	case SG_CHAP_FAILURE:
		if (s->stage == ST_AUTH && f->cp_id == s->auth_id)
			fail(s, W_REFUSED);
		return;
	}
	G.rx_ignored++;
}

/* ---- IPCP ----------------------------------------------------------------- */

static bool ipcp_rcr(struct sub *s, const struct sg_frame *f)
{
	static struct optbuf rej;
	struct sg_opt_iter it;
	const uint8_t *v;
	uint8_t t, vl, addr[4] = { 0 };

	if (!sg_opts_ok(f->cp_data, f->cp_dlen)) {
		G.rx_bad++;
		return false;
	}
	rej.n = 0;
	sg_opt_init(&it, f->cp_data, f->cp_dlen);
	while (sg_opt_next(&it, &t, &v, &vl) > 0) {
		if (t == SG_IPCP_ADDR && vl == 4 && sg_get32(v))
			memcpy(addr, v, 4);
		else		/* compression, DNS, a peer with no address ... */
			ob_add(&rej, t, v, vl);
	}
	if (rej.n) {
		send_cp(s, SG_PROTO_IPCP, SG_CONFREJ, f->cp_id, rej.b, rej.n);
		return false;
	}
	memcpy(s->peer_addr, addr, 4);
	send_cp(s, SG_PROTO_IPCP, SG_CONFACK, f->cp_id, f->cp_data, f->cp_dlen);
	return true;
}

static void ipcp_input(struct sub *s, const struct sg_frame *f, uint64_t now)
{
	struct sg_opt_iter it;
	const uint8_t *v;
	uint8_t t, vl;

	/* network packets count from the LCP's opening on (RFC 1661 §3.5) */
	if (s->stage < ST_AUTH || s->stage > ST_UP) {
		G.rx_ignored++;
		return;
	}
	switch (f->cp_code) {
	case SG_CONFREQ:
		if (s->stage == ST_UP) {
			/* renegotiation: start again from our Configure-Request */
			s->stage = ST_IPCP;
			s->ipcp = 0;
			s->ipcp_id++;
			s->retries = 0;
			send_ipcp_cr(s);
			retransmit_timer(s, now);
		}
		if (ipcp_rcr(s, f)) {
			s->ipcp |= F_PEER_ACKED;
			if (s->stage == ST_IPCP && (s->ipcp & F_OUR_ACKED))
				sub_up(s, now);
		} else {
			s->ipcp &= ~F_PEER_ACKED;
		}
		return;
	case SG_CONFACK:
		if (s->stage != ST_IPCP || f->cp_id != s->ipcp_id || f->cp_dlen != 6 ||
		    f->cp_data[0] != SG_IPCP_ADDR || memcmp(f->cp_data + 2, s->addr, 4))
			break;
		s->ipcp |= F_OUR_ACKED;
		if (s->ipcp & F_PEER_ACKED)
			sub_up(s, now);
		return;
	case SG_CONFNAK:
	case SG_CONFREJ:
		if (s->stage != ST_IPCP || f->cp_id != s->ipcp_id)
			break;
		if (!sg_opts_ok(f->cp_data, f->cp_dlen)) {
			G.rx_bad++;
			return;
		}
		sg_opt_init(&it, f->cp_data, f->cp_dlen);
		while (sg_opt_next(&it, &t, &v, &vl) > 0) {
			if (t != SG_IPCP_ADDR)
				continue;
			if (f->cp_code == SG_CONFREJ) {
				fail(s, W_NEGOTIATION);	/* no address, no session */
				return;
			}
			if (vl == 4)
				memcpy(s->addr, v, 4);
		}
		if (++s->naks > G.max_failure) {
			fail(s, W_NEGOTIATION);
			return;
		}
		s->ipcp &= ~F_OUR_ACKED;
		s->ipcp_id++;
		s->retries = 0;
		send_ipcp_cr(s);
		retransmit_timer(s, now);
		return;
	case SG_TERMREQ:
		send_cp(s, SG_PROTO_IPCP, SG_TERMACK, f->cp_id, NULL, 0);
		if (s->stage == ST_UP) {
			G.lost_after_up++;
			s->stage = ST_DOWN;
			sg_tq_disarm(&s->tproto);
		} else {
			fail(s, W_TERMINATED);
		}
		return;
	case SG_TERMACK:
	case SG_CODEREJ:
		break;
	default:
		code_reject(s, SG_PROTO_IPCP, f);
		return;
	}
	G.rx_ignored++;
}

static void ip_input(struct sub *s, const struct sg_frame *f, uint64_t now)
{
	struct sg_icmp ic;

	if (sg_icmp_parse(f, &ic) || ic.type != 0 || ic.id != (uint16_t)s->k ||
	    memcmp(&ic.saddr, s->peer_addr, 4)) {
		G.rx_ignored++;
		return;
	}
	if (s->ping_rcvd < s->ping_sent) {
		s->ping_rcvd++;
		G.ping_rcvd++;
	}
}

static void protocol_reject(struct sub *s, const struct sg_frame *f, uint64_t now)
{
	uint8_t *p;
	size_t n = f->info_len;

	if (s->stage < ST_AUTH || s->stage > ST_UP) {
		G.rx_ignored++;
		return;
	}
	if (n > NAK_ROOM)
		n = NAK_ROOM;
	/* Protocol-Reject (RFC 1661 §5.7), an Identifier of its own */
	p = cp_begin(s, SG_PROTO_LCP, SG_PROTREJ, (uint8_t)(s->lcp_id + 128));
	sg_put16(p, f->proto);
	memcpy(p + 2, f->info, n);
	cp_finish(s, p + 2 + n);
	G.protrej++;
}

/* ---- input ---------------------------------------------------------------- */

static struct sub *sub_by_mac(const uint8_t *mac)
{
	uint64_t num = 0;
	unsigned int k;

	if (memcmp(mac, G.prefix, G.plen))
		return NULL;
	for (k = G.plen; k < SG_ETH_ALEN; k++)
		num = num << 8 | mac[k];
	if (num < G.first || num - G.first >= G.n)
		return NULL;
	return &G.subs[num - G.first];
}

static bool host_uniq_ok(const struct sub *s, const struct sg_frame *f)
{
	uint8_t hu[HOST_UNIQ_LEN];

	if (!f->host_uniq.present)
		return true;	/* the MAC says whose it is */
	sg_put32(hu, G.nonce);
	sg_put32(hu + 4, s->k);
	return f->host_uniq.len == HOST_UNIQ_LEN && !memcmp(f->host_uniq.p, hu, HOST_UNIQ_LEN);
}

static void disc_input(struct sub *s, const struct sg_frame *f, uint64_t now)
{
	if (!host_uniq_ok(s, f))
		goto ignore;
	switch (f->code) {
	case SG_PADO:
		/* the first offer that has no error is taken */
		if (s->stage != ST_PADI || f->error_tag)
			goto ignore;
		if (f->cookie.len > COOKIE_MAX || f->relay.len > RELAY_MAX)
			goto ignore;
		memcpy(s->ac, f->src, SG_ETH_ALEN);
		s->cookie_len = f->cookie.len;
		if (f->cookie.len)
			memcpy(s->cookie, f->cookie.p, f->cookie.len);
		s->relay_len = f->relay.len;
		if (f->relay.len)
			memcpy(s->relay, f->relay.p, f->relay.len);
		s->stage = ST_PADR;
		s->retries = 0;
		send_padr(s);
		disc_timer(s, now);
		return;
	case SG_PADS:
		if (s->stage != ST_PADR || memcmp(f->src, s->ac, SG_ETH_ALEN))
			goto ignore;
		if (f->error_tag || !f->sid) {
			fail(s, W_REFUSED);
			return;
		}
		s->sid = f->sid;
		s->t_disc = now;
		s->stage = ST_LCP;
		s->lcp = 0;
		s->naks = 0;
		s->retries = 0;
		s->lcp_id = 1;
		send_lcp_cr(s);
		retransmit_timer(s, now);
		return;
	case SG_PADT:
		if (!s->sid || f->sid != s->sid || memcmp(f->src, s->ac, SG_ETH_ALEN))
			goto ignore;
		peer_down(s);
		return;
	}
ignore:
	G.rx_ignored++;
}

/* A session's PPP frames, by protocol (sg_ppp_of()). */
static void (*const ppp_input[SG_PPP_N])(struct sub *s, const struct sg_frame *f, uint64_t now) = {
	[SG_PPP_LCP]	= lcp_input,
	[SG_PPP_PAP]	= pap_input,
	[SG_PPP_CHAP]	= chap_input,
	[SG_PPP_IPCP]	= ipcp_input,
	[SG_PPP_IP]	= ip_input,
	[SG_PPP_OTHER]	= protocol_reject,
};

static void frame_input(const uint8_t *buf, size_t len, uint64_t now)
{
	struct sg_frame f;
	struct sub *s;

	G.rx_frames++;
	if (sg_parse(buf, len, &f)) {
		G.rx_bad++;
		return;
	}
	s = sub_by_mac(f.dst);
	if (!s || s->stage == ST_IDLE) {
		G.rx_ignored++;
		return;
	}
	if (f.ethertype == SG_ETH_DISC) {
		disc_input(s, &f, now);
		return;
	}
	if (s->stage < ST_LCP || s->stage > ST_TERM || f.sid != s->sid ||
	    memcmp(f.src, s->ac, SG_ETH_ALEN)) {
		G.rx_ignored++;
		return;
	}
	ppp_input[sg_ppp_of(f.proto)](s, &f, now);
}

/* ---- timers --------------------------------------------------------------- */

static void proto_timeout(struct sub *s, uint64_t now)
{
	switch (s->stage) {
	case ST_PADI:
	case ST_PADR:
		if (s->retries >= G.disc_retries) {
			fail(s, W_RETRIES);
			return;
		}
		s->retries++;
		s->rtx++;
		if (s->stage == ST_PADI) {
			G.rtx[RTX_PADI]++;
			send_padi(s);
		} else {
			G.rtx[RTX_PADR]++;
			send_padr(s);
		}
		disc_timer(s, now);
		return;
	case ST_LCP:
		if (s->retries + 1u >= G.max_configure) {
			fail(s, W_RETRIES);
			return;
		}
		s->lcp &= ~F_OUR_ACKED;	/* Ack-Rcvd goes back to Req-Sent */
		G.rtx[RTX_LCP]++;
		send_lcp_cr(s);
		break;
	case ST_AUTH:
		if (s->auth != AUTH_PAP)
			return;
		if (s->retries + 1u >= G.max_configure) {
			fail(s, W_RETRIES);
			return;
		}
		G.rtx[RTX_PAP]++;
		send_pap(s);
		break;
	case ST_IPCP:
		if (s->retries + 1u >= G.max_configure) {
			fail(s, W_RETRIES);
			return;
		}
		s->ipcp &= ~F_OUR_ACKED;
		G.rtx[RTX_IPCP]++;
		send_ipcp_cr(s);
		break;
	case ST_UP:
		if (G.phase <= P_HOLD) {
			send_ping(s);
			sg_tq_arm(&G.q[Q_PING], &s->tproto, now);
		}
		return;
	case ST_TERM:
		if (s->retries + 1u >= G.max_terminate) {
			send_padt(s);
			s->stage = ST_DOWN;
			G.term_unacked++;
			G.ndown_done++;
			return;
		}
		G.rtx[RTX_TERM]++;
		send_termreq(s);
		break;
	default:
		return;
	}
	s->retries++;
	s->rtx++;
	retransmit_timer(s, now);
}

static void run_timers(uint64_t now)
{
	struct sg_tnode *n;
	unsigned int q;

	for (q = 0; q < Q_COUNT; q++) {
		while ((n = sg_tq_pop(&G.q[q], now))) {
			if (q == Q_DEADLINE) {
				struct sub *s = SG_CONTAINER(n, struct sub, tdead);

				if (s->stage < ST_UP)
					fail(s, W_DEADLINE);
			} else {
				proto_timeout(SG_CONTAINER(n, struct sub, tproto), now);
			}
		}
	}
}

/* ---- pacing and phases ---------------------------------------------------- */

/* when start number @i of the current schedule is due */
static uint64_t due(uint64_t rate, uint64_t i)
{
	return G.sched_base + (uint64_t)((__uint128_t)i * NS_PER_S / rate);
}

/*
 * A token bucket of G.burst tokens at @rate: starts are due at base + i /
 * rate; a loop that fell behind by more than the bucket catches up by at
 * most G.burst at once and the schedule moves, so the offered rate is
 * never above the set one.
 */
static uint64_t pace(uint64_t now, uint64_t rate, uint64_t *done, uint64_t total,
		     void (*one)(uint64_t))
{
	uint64_t lag = (uint64_t)((__uint128_t)G.burst * NS_PER_S / rate);

	if (*done >= total)
		return UINT64_MAX;
	if (now > due(rate, G.sched_i) + lag) {
		G.sched_base = now - lag;
		G.sched_i = 0;
	}
	while (*done < total && due(rate, G.sched_i) <= now) {
		one(now);
		G.sched_i++;
	}
	return *done < total ? due(rate, G.sched_i) : UINT64_MAX;
}

static uint64_t down_target;	/* sessions to tear down */

static void start_one(uint64_t now)
{
	sub_start(&G.subs[G.started], now);
}

static void down_one(uint64_t now)
{
	struct sub *s;

	while (G.down_k < G.n) {
		s = &G.subs[G.down_k++];
		if (s->stage != ST_UP)
			continue;
		sg_tq_disarm(&s->tproto);
		s->stage = ST_TERM;
		s->retries = 0;
		s->term_id = s->lcp_id + 64;
		send_termreq(s);
		retransmit_timer(s, now);
		G.ndown_started++;
		return;
	}
	down_target = G.ndown_started;	/* the rest went down by themselves */
}

static uint64_t n_up_now(void)
{
	uint64_t k, c = 0;

	for (k = 0; k < G.n; k++)
		c += G.subs[k].stage == ST_UP;
	return c;
}

static void phase_down(uint64_t now)
{
	G.phase = P_DOWN;
	G.t_down0 = now;
	G.down_k = 0;
	down_target = n_up_now();
	G.sched_base = now;
	G.sched_i = 0;
}

/* the next time the phase logic wants to run, after moving on */
static uint64_t phases(uint64_t now)
{
	uint64_t next = UINT64_MAX;

	if (G.sig && G.phase < P_DOWN) {
		if (!G.t_setup_end) {
			G.t_setup_end = now;
			G.cpu_setup = sg_cpu_seconds();
		}
		phase_down(now);
	}
	switch (G.phase) {
	case P_RAMP:
		next = pace(now, G.rate, &G.started, G.n, start_one);
		if (G.ndone < G.n)
			return next;
		G.t_setup_end = now;
		G.cpu_setup = sg_cpu_seconds();
		G.phase = P_HOLD;
		G.t_phase_end = now + G.hold_ns;
		/* fall through */
	case P_HOLD:
		if (now < G.t_phase_end)
			return G.t_phase_end;
		G.phase = P_DRAIN;
		G.t_phase_end = now + (G.ping_ns ? G.drain_ns : 0);
		/* fall through */
	case P_DRAIN:
		if (now < G.t_phase_end)
			return G.t_phase_end;
		phase_down(now);
		/* fall through */
	case P_DOWN:
		next = pace(now, G.down_rate, &G.ndown_started, down_target, down_one);
		if (G.ndown_done < G.ndown_started || G.ndown_started < down_target)
			return next;
		G.t_down1 = now;
		G.phase = P_END;
		/* fall through */
	case P_END:
		break;
	}
	return UINT64_MAX;
}

/* ---- the loop ------------------------------------------------------------- */

static void flush_all(void)
{
	unsigned int k;

	for (k = 0; k < G.nifs; k++)
		sg_tx_flush(&G.ifs[k]);
}

static int run(void)
{
	struct epoll_event ev[SG_MAX_IFS];
	struct timespec ts;
	uint64_t now, next, t;
	unsigned int k, b;
	int ep, n, e, r;

	ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0)
		return -1;
	for (k = 0; k < G.nifs; k++) {
		struct epoll_event add = { .events = EPOLLIN, .data.u32 = k };

		if (epoll_ctl(ep, EPOLL_CTL_ADD, G.ifs[k].fd, &add))
			return -1;
	}
	now = sg_now();
	G.sched_base = now;
	G.sched_i = 0;
	for (;;) {
		now = sg_now();
		run_timers(now);
		next = phases(now);
		flush_all();
		if (G.phase == P_END)
			break;
		t = sg_tq_next(G.q, Q_COUNT);
		if (t < next)
			next = t;
		now = sg_now();
		if (next <= now) {
			ts.tv_sec = ts.tv_nsec = 0;
		} else {
			t = next - now;
			if (t > NS_PER_S)
				t = NS_PER_S;
			ts.tv_sec = t / NS_PER_S;
			ts.tv_nsec = t % NS_PER_S;
		}
		n = epoll_pwait2(ep, ev, SG_MAX_IFS, &ts, NULL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		for (e = 0; e < n; e++) {
			int fd = G.ifs[ev[e].data.u32].fd;

			/* a few batches, then the timers and the other sockets get a turn */
			for (b = 0; b < 8; b++) {
				r = sg_rx(fd, &G.rx);
				if (r <= 0)
					break;
				now = sg_now();
				for (k = 0; k < (unsigned int)r; k++) {
					if (G.rx.m[k].msg_hdr.msg_flags & MSG_TRUNC) {
						G.rx_frames++;
						G.rx_bad++;
						continue;
					}
					frame_input(G.rx.b[k], G.rx.m[k].msg_len, now);
				}
				if (r < SG_BATCH)
					break;
			}
		}
		flush_all();
	}
	close(ep);
	return 0;
}

/* ---- report --------------------------------------------------------------- */

static double ms(uint64_t ns)
{
	return ns / 1e6;
}

struct dist {
	uint64_t *v;
	size_t n;
};

static void dist_add(struct dist *d, uint64_t x)
{
	d->v[d->n++] = x;
}

static void csv_write(const char *path)
{
	FILE *fp = fopen(path, "w");
	uint64_t k;

	if (!fp) {
		fprintf(stderr, "subgen: %s: %s\n", path, strerror(errno));
		return;
	}
	fprintf(fp, "number,mac,result,stage,reason,start_ms,discovery_ms,lcp_ms,auth_ms,ipcp_ms,"
		"setup_ms,retransmissions,pings_sent,pings_received,first_lcp_ms\n");
	for (k = 0; k < G.n; k++) {
		const struct sub *s = &G.subs[k];
		bool up = s->t_up != 0;

		fprintf(fp, "%" PRIu64 ",%02x:%02x:%02x:%02x:%02x:%02x,%s,%s,%s,", G.first + k,
			s->mac[0], s->mac[1], s->mac[2], s->mac[3], s->mac[4], s->mac[5],
			up ? "up" : s->stage == ST_FAILED ? "failed" : "not-started",
			s->stage == ST_FAILED ? fstage_name[s->fail_stage] : "",
			s->stage == ST_FAILED ? why_name[s->fail_why] : "");
		if (s->t0)
			fprintf(fp, "%.3f", ms(s->t0 - G.t_first));
		fputc(',', fp);
		/* each stage a subscriber finished, failed ones too */
		if (s->t_disc)
			fprintf(fp, "%.3f", ms(s->t_disc - s->t0));
		fputc(',', fp);
		if (s->t_disc && s->t_lcp)
			fprintf(fp, "%.3f", ms(s->t_lcp - s->t_disc));
		fputc(',', fp);
		if (s->t_lcp && s->t_auth)
			fprintf(fp, "%.3f", ms(s->t_auth - s->t_lcp));
		fputc(',', fp);
		if (up)
			fprintf(fp, "%.3f,%.3f", ms(s->t_up - s->t_auth), ms(s->t_up - s->t0));
		else
			fputc(',', fp);
		fprintf(fp, ",%u,%u,%u,", s->rtx, s->ping_sent, s->ping_rcvd);
		if (s->t_disc && s->t_lcp1)
			fprintf(fp, "%.3f", ms(s->t_lcp1 - s->t_disc));
		fputc('\n', fp);
	}
	if (fclose(fp))
		fprintf(stderr, "subgen: %s: %s\n", path, strerror(errno));
}

static void report(void)
{
	struct dist tot, st[FS_COUNT];
	uint64_t k, rtx_all = 0, fs_tot[FS_COUNT] = { 0 }, drops = 0, txf = 0, txe = 0;
	double up_rate = 0, off_rate = 0, cpu_us;
	unsigned int f, w;

	tot.v = calloc(G.n + 1, sizeof(uint64_t));
	tot.n = 0;
	for (f = 0; f < FS_COUNT; f++) {
		st[f].v = calloc(G.n + 1, sizeof(uint64_t));
		st[f].n = 0;
		if (!st[f].v)
			exit(1);
	}
	if (!tot.v)
		exit(1);
	for (k = 0; k < G.n; k++) {
		const struct sub *s = &G.subs[k];

		if (!s->t_up)
			continue;
		dist_add(&tot, s->t_up - s->t0);
		dist_add(&st[FS_DISC], s->t_disc - s->t0);
		dist_add(&st[FS_LCP], s->t_lcp - s->t_disc);
		dist_add(&st[FS_AUTH], s->t_auth - s->t_lcp);
		dist_add(&st[FS_IPCP], s->t_up - s->t_auth);
	}
	sg_sort_u64(tot.v, tot.n);
	for (f = 0; f < FS_COUNT; f++) {
		sg_sort_u64(st[f].v, st[f].n);
		for (w = 0; w < W_COUNT; w++)
			fs_tot[f] += G.failed[f][w];
	}
	for (k = 0; k < RTX_COUNT; k++)
		rtx_all += G.rtx[k];
	for (k = 0; k < G.nifs; k++) {
		sg_if_stats(&G.ifs[k]);
		drops += G.ifs[k].rx_drops;
		txf += G.ifs[k].tx_frames;
		txe += G.ifs[k].tx_errors;
	}
	if (G.nup > 1 && G.t_last_up > G.t_first)
		up_rate = G.nup / ((G.t_last_up - G.t_first) / 1e9);
	if (G.started > 1 && G.t_last_start > G.t_first)
		off_rate = (G.started - 1) / ((G.t_last_start - G.t_first) / 1e9);
	cpu_us = G.n ? G.cpu_setup * 1e6 / G.n : 0;

	if (G.json) {
		printf("{\"offered\":%" PRIu64 ",\"started\":%" PRIu64 ",\"up\":%" PRIu64
		       ",\"failed\":%" PRIu64 ",", G.n, G.started, G.nup, G.nfailed);
		printf("\"failed_by_stage\":{");
		for (f = 0; f < FS_COUNT; f++) {
			printf("%s\"%s\":{\"total\":%" PRIu64, f ? "," : "", fstage_name[f], fs_tot[f]);
			for (w = 0; w < W_COUNT; w++)
				printf(",\"%s\":%" PRIu64, why_name[w], G.failed[f][w]);
			printf("}");
		}
		printf("},\"rate\":{\"set\":%" PRIu64 ",\"offered\":%.1f,\"up\":%.1f},", G.rate,
		       off_rate, up_rate);
		printf("\"setup_ms\":{\"p50\":%.3f,\"p90\":%.3f,\"p99\":%.3f,\"max\":%.3f},",
		       ms(sg_pct(tot.v, tot.n, 50)), ms(sg_pct(tot.v, tot.n, 90)),
		       ms(sg_pct(tot.v, tot.n, 99)), ms(tot.n ? tot.v[tot.n - 1] : 0));
		printf("\"stage_ms\":{");
		for (f = 0; f < FS_COUNT; f++)
			printf("%s\"%s\":{\"p50\":%.3f,\"p99\":%.3f}", f ? "," : "", fstage_name[f],
			       ms(sg_pct(st[f].v, st[f].n, 50)), ms(sg_pct(st[f].v, st[f].n, 99)));
		printf("},\"retransmissions\":{");
		for (k = 0; k < RTX_COUNT; k++)
			printf("\"%s\":%" PRIu64 ",", rtx_name[k], G.rtx[k]);
		printf("\"total\":%" PRIu64 "},", rtx_all);
		printf("\"traffic\":{\"sent\":%" PRIu64 ",\"received\":%" PRIu64 ",\"lost\":%" PRIu64
		       "},", G.ping_sent, G.ping_rcvd, G.ping_sent - G.ping_rcvd);
		printf("\"lost_after_up\":%" PRIu64 ",", G.lost_after_up);
		printf("\"teardown\":{\"sessions\":%" PRIu64 ",\"acked\":%" PRIu64
		       ",\"unacked\":%" PRIu64 ",\"seconds\":%.3f},", G.ndown_started, G.term_acked,
		       G.term_unacked, G.t_down1 > G.t_down0 ? (G.t_down1 - G.t_down0) / 1e9 : 0);
		printf("\"frames\":{\"sent\":%" PRIu64 ",\"received\":%" PRIu64 ",\"malformed\":%"
		       PRIu64 ",\"ignored\":%" PRIu64 ",\"socket_drops\":%" PRIu64
		       ",\"send_errors\":%" PRIu64 ",\"echo_replies\":%" PRIu64
		       ",\"lcp_renegotiations\":%" PRIu64 ",\"code_rejects\":%" PRIu64
		       ",\"protocol_rejects\":%" PRIu64 "},", txf, G.rx_frames, G.rx_bad,
		       G.rx_ignored, drops, txe, G.echo_replies, G.reneg, G.coderej, G.protrej);
		printf("\"cpu\":{\"setup_s\":%.3f,\"total_s\":%.3f,\"us_per_subscriber\":%.1f}}\n",
		       G.cpu_setup, G.cpu_total, cpu_us);
	} else {
		printf("subscribers  offered %" PRIu64 ", started %" PRIu64 ", up %" PRIu64
		       ", failed %" PRIu64 "\n", G.n, G.started, G.nup, G.nfailed);
		for (f = 0; f < FS_COUNT; f++) {
			if (!fs_tot[f])
				continue;
			printf("  failed in %-9s %" PRIu64 ":", fstage_name[f], fs_tot[f]);
			for (w = 0; w < W_COUNT; w++)
				if (G.failed[f][w])
					printf(" %s %" PRIu64, why_name[w], G.failed[f][w]);
			printf("\n");
		}
		printf("rate         set %" PRIu64 "/s, offered %.1f/s, up %.1f/s "
		       "(first PADI to last IPCP up)\n", G.rate, off_rate, up_rate);
		printf("setup ms     p50 %.3f  p90 %.3f  p99 %.3f  max %.3f\n",
		       ms(sg_pct(tot.v, tot.n, 50)), ms(sg_pct(tot.v, tot.n, 90)),
		       ms(sg_pct(tot.v, tot.n, 99)), ms(tot.n ? tot.v[tot.n - 1] : 0));
		for (f = 0; f < FS_COUNT; f++)
			printf("  %-10s p50 %.3f  p99 %.3f\n", fstage_name[f],
			       ms(sg_pct(st[f].v, st[f].n, 50)), ms(sg_pct(st[f].v, st[f].n, 99)));
		printf("retransmit   %" PRIu64 ":", rtx_all);
		for (k = 0; k < RTX_COUNT; k++)
			printf(" %s %" PRIu64, rtx_name[k], G.rtx[k]);
		printf("\n");
		printf("traffic      pings sent %" PRIu64 ", received %" PRIu64 ", lost %" PRIu64
		       "; sessions lost after up %" PRIu64 "\n", G.ping_sent, G.ping_rcvd,
		       G.ping_sent - G.ping_rcvd, G.lost_after_up);
		printf("teardown     %" PRIu64 " sessions, %" PRIu64 " acked, %" PRIu64
		       " unacked, %.3f s\n", G.ndown_started, G.term_acked, G.term_unacked,
		       G.t_down1 > G.t_down0 ? (G.t_down1 - G.t_down0) / 1e9 : 0);
		printf("frames       sent %" PRIu64 ", received %" PRIu64 ", malformed %" PRIu64
		       ", ignored %" PRIu64 ", socket drops %" PRIu64 ", send errors %" PRIu64 "\n",
		       txf, G.rx_frames, G.rx_bad, G.rx_ignored, drops, txe);
		printf("cpu          %.3f s to all up or failed (%.1f us a subscriber), "
		       "%.3f s in all\n", G.cpu_setup, cpu_us, G.cpu_total);
	}
	free(tot.v);
	for (f = 0; f < FS_COUNT; f++)
		free(st[f].v);
	if (G.csv)
		csv_write(G.csv);
}

/* ---- options -------------------------------------------------------------- */

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: l2tpsel-subgen -i IFACE [-i IFACE]... [-n COUNT] [-r RATE] [options]\n"
		"PPPoE subscribers from one process: discovery, LCP, PAP or CHAP, IPCP,\n"
		"started at RATE a second; prints a summary when all are up or failed.\n"
		"  -i, --interface IF      send and receive on IF (repeat: round robin)\n"
		"  -n, --count N           subscribers (100)\n"
		"  -r, --rate R            subscribers started a second (100)\n"
		"      --burst B           token bucket depth: most started at once after a\n"
		"                          stall of the loop (1 + R/20: 50 ms)\n"
		"      --first N           number of the first subscriber (1): user name, MAC\n"
		"      --mac-prefix P      first 1-5 bytes of the MACs (02:53:47); the rest\n"
		"                          is the subscriber's number\n"
		"  -u, --user PATTERN      user name, %%d the number (user%%d@example)\n"
		"  -p, --password S        password or CHAP secret (secret)\n"
		"  -s, --service NAME      PPPoE Service-Name (empty: any)\n"
		"      --vendor-tag HEX    a Vendor-Specific tag's value (vendor id first, up\n"
		"                          to 255 bytes) in each PADI and PADR, as a TR-101\n"
		"                          intermediate agent adds one\n"
		"  -a, --auth any|pap|chap what to accept when the peer asks (any)\n"
		"  -m, --mru N             LCP MRU asked for (1492)\n"
		"      --restart MS        LCP/PAP/IPCP restart timer (1000)\n"
		"      --max-configure N   Configure-Requests before giving up (10)\n"
		"      --max-terminate N   Terminate-Requests before the PADT anyway (2)\n"
		"      --max-failure N     Naks and Rejects before giving up (5)\n"
		"      --disc-timeout MS   first PADI/PADR wait, doubled each resend (1000)\n"
		"      --disc-retries N    PADI or PADR resends before giving up (5)\n"
		"  -d, --deadline MS       a subscriber not up this long after its first\n"
		"                          PADI has failed (30000)\n"
		"      --hold MS           after all are up or failed, stay up this long (0)\n"
		"      --ping MS           an ICMP echo to the peer's IPCP address every MS\n"
		"                          from each subscriber that is up (0: none)\n"
		"      --ping-wait MS      before teardown, wait this long for replies (1000)\n"
		"      --down-rate R       teardowns a second (RATE)\n"
		"  -j, --json              the summary as one JSON object\n"
		"      --csv FILE          per-subscriber times into FILE\n"
		"  -v, --verbose           a line per failed subscriber on stderr\n"
		"  -h, --help              this text\n"
		"  -V, --version           the version\n"
		"Example: l2tpsel-subgen -i veth0 -n 2000 -r 1000 --ping 1000 --hold 5000 -j\n");
}

static int opt_u64(const char *name, const char *s, uint64_t min, uint64_t max, uint64_t *v)
{
	if (!sg_parse_u64(s, min, max, v))
		return 0;
	fprintf(stderr, "l2tpsel-subgen: --%s: \"%s\" is not a number from %" PRIu64 " to %"
		PRIu64 "\n", name, s, min, max);
	return -1;
}

static int opt_ms(const char *name, const char *s, uint64_t *v)
{
	if (!sg_parse_ms(s, v))
		return 0;
	fprintf(stderr, "l2tpsel-subgen: --%s: \"%s\" is not a time in milliseconds\n", name, s);
	return -1;
}

/* @s: hex digits, two a byte, at most @cap bytes. */
static int opt_hex(const char *name, const char *s, uint8_t *out, size_t cap, uint16_t *len)
{
	size_t n = strlen(s), i;

	if (!n || n % 2 || n / 2 > cap) {
		fprintf(stderr, "l2tpsel-subgen: --%s: expected 2 to %zu hex digits, two a byte, "
			"got %zu\n", name, cap * 2, n);
		return -1;
	}
	for (i = 0; i < n; i += 2) {
		unsigned int b;

		if (sscanf(s + i, "%2x", &b) != 1 || !isxdigit((unsigned char)s[i]) ||
		    !isxdigit((unsigned char)s[i + 1])) {
			fprintf(stderr, "l2tpsel-subgen: --%s: \"%.2s\" at offset %zu is not a hex "
				"byte\n", name, s + i, i);
			return -1;
		}
		out[i / 2] = (uint8_t)b;
	}
	*len = (uint16_t)(n / 2);
	return 0;
}

enum {
	O_BURST = 256, O_FIRST, O_PREFIX, O_RESTART, O_MAXCONF, O_MAXTERM, O_MAXFAIL, O_DISCTO,
	O_DISCRT, O_HOLD, O_PING, O_PINGWAIT, O_DOWNRATE, O_CSV, O_VENDORTAG,
};

static int options(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "interface", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'n' },
		{ "rate", required_argument, NULL, 'r' },
		{ "burst", required_argument, NULL, O_BURST },
		{ "first", required_argument, NULL, O_FIRST },
		{ "mac-prefix", required_argument, NULL, O_PREFIX },
		{ "user", required_argument, NULL, 'u' },
		{ "password", required_argument, NULL, 'p' },
		{ "service", required_argument, NULL, 's' },
		{ "auth", required_argument, NULL, 'a' },
		{ "mru", required_argument, NULL, 'm' },
		{ "restart", required_argument, NULL, O_RESTART },
		{ "max-configure", required_argument, NULL, O_MAXCONF },
		{ "max-terminate", required_argument, NULL, O_MAXTERM },
		{ "max-failure", required_argument, NULL, O_MAXFAIL },
		{ "disc-timeout", required_argument, NULL, O_DISCTO },
		{ "disc-retries", required_argument, NULL, O_DISCRT },
		{ "deadline", required_argument, NULL, 'd' },
		{ "hold", required_argument, NULL, O_HOLD },
		{ "ping", required_argument, NULL, O_PING },
		{ "ping-wait", required_argument, NULL, O_PINGWAIT },
		{ "down-rate", required_argument, NULL, O_DOWNRATE },
		{ "vendor-tag", required_argument, NULL, O_VENDORTAG },
		{ "json", no_argument, NULL, 'j' },
		{ "csv", required_argument, NULL, O_CSV },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t top;
	bool burst_set = false;
	int o, rc = 0;

	G.n = 100;
	G.rate = 100;
	G.first = 1;
	memcpy(G.prefix, "\x02\x53\x47", 3);
	G.plen = 3;
	G.user = "user%d@example";
	G.password = "secret";
	G.service = "";
	G.auth_allowed = AUTH_PAP | AUTH_CHAP;
	G.mru = 1492;
	G.restart_ns = 1000 * NS_PER_MS;
	G.disc_ns = 1000 * NS_PER_MS;
	G.deadline_ns = 30000 * NS_PER_MS;
	G.drain_ns = 1000 * NS_PER_MS;
	G.max_configure = 10;
	G.max_terminate = 2;
	G.max_failure = 5;
	G.disc_retries = 5;
	while ((o = getopt_long(argc, argv, "i:n:r:u:p:s:a:m:d:jvhV", lo, NULL)) != -1) {
		switch (o) {
		case 'i':
			if (G.nifs == SG_MAX_IFS) {
				fprintf(stderr, "l2tpsel-subgen: at most %d interfaces\n", SG_MAX_IFS);
				return -1;
			}
			G.ifnames[G.nifs++] = optarg;
			break;
		case 'n':
			rc = opt_u64("count", optarg, 1, 1000000, &G.n);
			break;
		case 'r':
			rc = opt_u64("rate", optarg, 1, 10000000, &G.rate);
			break;
		case O_BURST:
			rc = opt_u64("burst", optarg, 1, 1000000, &G.burst);
			burst_set = true;
			break;
		case O_FIRST:
			rc = opt_u64("first", optarg, 0, UINT32_MAX, &G.first);
			break;
		case O_PREFIX:
			if (sg_parse_mac_prefix(optarg, G.prefix, &G.plen) || (G.prefix[0] & 1)) {
				fprintf(stderr, "l2tpsel-subgen: --mac-prefix: \"%s\" is not 1 to 5 "
					"bytes of a unicast MAC (02:53:47)\n", optarg);
				return -1;
			}
			break;
		case 'u':
			G.user = optarg;
			break;
		case 'p':
			G.password = optarg;
			if (strlen(G.password) > 255) {
				fprintf(stderr, "l2tpsel-subgen: --password: at most 255 bytes\n");
				return -1;
			}
			break;
		case 's':
			G.service = optarg;
			if (strlen(G.service) > 255) {
				fprintf(stderr, "l2tpsel-subgen: --service: at most 255 bytes\n");
				return -1;
			}
			break;
		case 'a':
			if (!strcmp(optarg, "any")) {
				G.auth_allowed = AUTH_PAP | AUTH_CHAP;
			} else if (!strcmp(optarg, "pap")) {
				G.auth_allowed = AUTH_PAP;
			} else if (!strcmp(optarg, "chap")) {
				G.auth_allowed = AUTH_CHAP;
			} else {
				fprintf(stderr, "l2tpsel-subgen: --auth is any, pap or chap\n");
				return -1;
			}
			break;
		case 'm':
			rc = opt_u64("mru", optarg, 64, 65535, &G.mru);
			break;
		case O_RESTART:
			rc = opt_ms("restart", optarg, &G.restart_ns);
			break;
		case O_MAXCONF:
			rc = opt_u64("max-configure", optarg, 1, 255, &G.max_configure);
			break;
		case O_MAXTERM:
			rc = opt_u64("max-terminate", optarg, 1, 255, &G.max_terminate);
			break;
		case O_MAXFAIL:
			rc = opt_u64("max-failure", optarg, 0, 255, &G.max_failure);
			break;
		case O_DISCTO:
			rc = opt_ms("disc-timeout", optarg, &G.disc_ns);
			break;
		case O_DISCRT:
			rc = opt_u64("disc-retries", optarg, 0, 255, &G.disc_retries);
			break;
		case 'd':
			rc = opt_ms("deadline", optarg, &G.deadline_ns);
			break;
		case O_HOLD:
			rc = opt_ms("hold", optarg, &G.hold_ns);
			break;
		case O_PING:
			rc = opt_ms("ping", optarg, &G.ping_ns);
			break;
		case O_PINGWAIT:
			rc = opt_ms("ping-wait", optarg, &G.drain_ns);
			break;
		case O_DOWNRATE:
			rc = opt_u64("down-rate", optarg, 1, 10000000, &G.down_rate);
			break;
		case O_VENDORTAG:
			rc = opt_hex("vendor-tag", optarg, G.vendor_tag, sizeof(G.vendor_tag),
				     &G.vendor_tag_len);
			break;
		case 'j':
			G.json = true;
			break;
		case O_CSV:
			G.csv = optarg;
			break;
		case 'v':
			G.verbose = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			printf("l2tpsel-subgen %s\n", L2TPSEL_VERSION);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
		if (rc)
			return -1;
	}
	if (optind < argc) {
		fprintf(stderr, "l2tpsel-subgen: unexpected argument \"%s\"\n", argv[optind]);
		return -1;
	}
	if (!G.nifs) {
		fprintf(stderr, "l2tpsel-subgen: no interface (-i IFACE)\n");
		usage(stderr);
		return -1;
	}
	if (!G.restart_ns || !G.disc_ns || !G.deadline_ns) {
		fprintf(stderr, "l2tpsel-subgen: timers must be above 0 ms\n");
		return -1;
	}
	top = (1ULL << (8 * (SG_ETH_ALEN - G.plen))) - 1;
	if (G.first + G.n - 1 > top || G.first + G.n - 1 > UINT32_MAX) {
		fprintf(stderr, "l2tpsel-subgen: --first %" PRIu64 " and %" PRIu64
			" subscribers do not fit in the MAC after a %u-byte prefix\n",
			G.first, G.n, G.plen);
		return -1;
	}
	if (!burst_set)
		G.burst = 1 + G.rate / 20;
	if (!G.down_rate)
		G.down_rate = G.rate;
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t k, seed;
	unsigned int q, j;

	if (options(argc, argv))
		return 2;
	if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
		seed = sg_now() ^ ((uint64_t)getpid() << 32);
	sg_rand_seed(seed);
	G.nonce = (uint32_t)sg_rand();
	for (j = 0; j < G.nifs; j++) {
		if (sg_if_open(&G.ifs[j], G.ifnames[j], true, 16 << 20)) {
			fprintf(stderr, "l2tpsel-subgen: %s: %s\n", G.ifnames[j], strerror(errno));
			return 1;
		}
	}
	G.subs = calloc(G.n, sizeof(*G.subs));
	if (!G.subs || sg_rx_init(&G.rx)) {
		fprintf(stderr, "l2tpsel-subgen: out of memory\n");
		return 1;
	}
	for (k = 0; k < G.n; k++) {
		struct sub *s = &G.subs[k];
		uint64_t num = G.first + k;

		s->k = (uint32_t)k;
		s->ifi = k % G.nifs;
		memcpy(s->mac, G.prefix, G.plen);
		for (j = SG_ETH_ALEN; j-- > G.plen; num >>= 8)
			s->mac[j] = num & 0xff;
		s->mru = (uint16_t)G.mru;
		s->magic = (uint32_t)sg_rand() | 1;
		s->stage = ST_IDLE;
	}
	sg_tq_init(&G.q[Q_RESTART], G.restart_ns);
	for (q = 0; q < DISC_LEVELS; q++)
		sg_tq_init(&G.q[Q_DISC + q], G.disc_ns << q);
	sg_tq_init(&G.q[Q_DEADLINE], G.deadline_ns);
	sg_tq_init(&G.q[Q_PING], G.ping_ns ? G.ping_ns : NS_PER_S);
	sg_on_signal(&G.sig);
	if (run()) {
		fprintf(stderr, "l2tpsel-subgen: %s\n", strerror(errno));
		return 1;
	}
	G.cpu_total = sg_cpu_seconds();
	report();
	fflush(stdout);
	for (j = 0; j < G.nifs; j++)
		sg_if_close(&G.ifs[j]);
	free(G.subs);
	return G.nup == G.n ? 0 : 3;
}
