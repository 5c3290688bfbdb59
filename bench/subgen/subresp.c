// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpsel-subresp: the trivial PPPoE access concentrator that
 * l2tpsel-subgen is measured against.  One process, one epoll loop, raw
 * sockets: it answers discovery (RFC 2516), negotiates LCP (RFC 1661),
 * accepts every PAP (RFC 1334) or CHAP-MD5 (RFC 1994) login, hands out an
 * address by IPCP (RFC 1332: the pool's base plus the session id) and
 * echoes ICMP, with no delay and no per-packet allocation.  Against it the
 * generator's figures are its own floor (Documentation/performance.md).
 * Runs until SIGINT or SIGTERM, then prints its counters.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/random.h>

#include "sg.h"
#include "md5.h"
#include "../../kmod/version.h"

#define F_OUR_ACKED	0x01
#define F_PEER_ACKED	0x02
#define F_NO_MRU	0x04
#define F_NO_MAGIC	0x08
#define F_SEEN		0x10	/* a session frame came: a PADR now is a new session */

#define AUTH_NONE	0
#define AUTH_PAP	1
#define AUTH_CHAP	2

#define MAX_SID		65534
#define HU_MAX		32	/* Host-Uniq kept to answer a repeated PADR */
#define ROOM		1400
#define COOKIE_LEN	8

enum rstate { R_FREE, R_LCP, R_AUTH, R_IPCP, R_UP };

struct sess {
	struct sg_tnode t;
	uint8_t mac[SG_ETH_ALEN];
	uint8_t ifi, state, lcp, ipcp, auth;
	uint8_t lcp_id, ipcp_id, chap_id, retries, hu_len;
	uint32_t magic;
	uint8_t challenge[16];
	uint8_t hu[HU_MAX];
};

static struct {
	const char *ifnames[SG_MAX_IFS];
	unsigned int nifs;
	const char *ac_name;
	const char *password;		/* NULL: every login is accepted */
	int auth;
	uint64_t mru, max_sess, restart_ns, max_configure;
	uint64_t loss;			/* received frames dropped, per million */
	uint32_t pool, local;		/* host order */
	bool cookie, json, verbose;

	struct sg_if ifs[SG_MAX_IFS];
	struct sg_rx rx;
	struct sg_tq tq;
	struct sess *sess;		/* by session id, 1 .. max_sess */
	uint16_t *free_sids;
	unsigned int nfree;
	uint32_t *hash;			/* MAC -> session id, open addressing */
	uint32_t hmask;
	uint64_t secret;
	volatile int sig;

	uint64_t padi, pado, padr, pads, padr_dup, bad_cookie, padt_rx, full;
	uint64_t refused;
	uint64_t nup, ended, gave_up, echo, lcp_echo, rx_frames, rx_bad, rx_ignored, rx_lost;
} R;

/* ---- MAC to session -------------------------------------------------------- */

static uint64_t mac_key(const uint8_t *m)
{
	return (uint64_t)m[0] << 40 | (uint64_t)m[1] << 32 | (uint64_t)m[2] << 24 |
	       (uint64_t)m[3] << 16 | (uint64_t)m[4] << 8 | m[5];
}

static uint32_t mac_slot(const uint8_t *m)
{
	uint64_t h = mac_key(m) * 0x9e3779b97f4a7c15ULL;

	return (uint32_t)(h >> 32) & R.hmask;
}

static uint16_t hash_find(const uint8_t *m)
{
	uint32_t i = mac_slot(m);

	for (; R.hash[i]; i = (i + 1) & R.hmask)
		if (!memcmp(R.sess[R.hash[i]].mac, m, SG_ETH_ALEN))
			return (uint16_t)R.hash[i];
	return 0;
}

static void hash_add(uint16_t sid)
{
	uint32_t i = mac_slot(R.sess[sid].mac);

	while (R.hash[i])
		i = (i + 1) & R.hmask;
	R.hash[i] = sid;
}

/* linear probing's deletion: shift back what would lose its way */
static void hash_del(uint16_t sid)
{
	uint32_t i = mac_slot(R.sess[sid].mac), j, h;

	while (R.hash[i] != sid) {
		if (!R.hash[i])
			return;
		i = (i + 1) & R.hmask;
	}
	R.hash[i] = 0;
	for (j = (i + 1) & R.hmask; R.hash[j]; j = (j + 1) & R.hmask) {
		h = mac_slot(R.sess[R.hash[j]].mac);
		/* does h lie cyclically in (i, j]?  Then it stays */
		if (i <= j ? (i < h && h <= j) : (i < h || h <= j))
			continue;
		R.hash[i] = R.hash[j];
		R.hash[j] = 0;
		i = j;
	}
}

/* ---- sending -------------------------------------------------------------- */

static struct sg_if *s_if(const struct sess *s)
{
	return &R.ifs[s->ifi];
}

static uint16_t sid_of(const struct sess *s)
{
	return (uint16_t)(s - R.sess);
}

static uint8_t *cp_begin(struct sess *s, uint16_t proto, uint8_t code, uint8_t id)
{
	struct sg_if *i = s_if(s);

	return sg_cp(sg_tx_slot(i), s->mac, i->mac, sid_of(s), proto, code, id);
}

static void cp_finish(struct sess *s, uint8_t *end)
{
	struct sg_if *i = s_if(s);

	sg_tx_commit(i, sg_cp_end(i->txb[i->ntx], end));
}

static void send_cp(struct sess *s, uint16_t proto, uint8_t code, uint8_t id,
		    const uint8_t *data, size_t len)
{
	uint8_t *p = cp_begin(s, proto, code, id);

	if (len > ROOM)
		len = ROOM;
	if (len)
		memcpy(p, data, len);
	cp_finish(s, p + len);
}

static void send_lcp_cr(struct sess *s)
{
	uint8_t *p = cp_begin(s, SG_PROTO_LCP, SG_CONFREQ, s->lcp_id);

	if (!(s->lcp & F_NO_MRU)) {
		p[0] = SG_LCP_MRU;
		p[1] = 4;
		sg_put16(p + 2, (uint16_t)R.mru);
		p += 4;
	}
	if (s->auth == AUTH_PAP) {
		p[0] = SG_LCP_AUTH;
		p[1] = 4;
		sg_put16(p + 2, SG_PROTO_PAP);
		p += 4;
	} else if (s->auth == AUTH_CHAP) {
		p[0] = SG_LCP_AUTH;
		p[1] = 5;
		sg_put16(p + 2, SG_PROTO_CHAP);
		p[4] = SG_CHAP_MD5;
		p += 5;
	}
	if (!(s->lcp & F_NO_MAGIC)) {
		p[0] = SG_LCP_MAGIC;
		p[1] = 6;
		sg_put32(p + 2, s->magic);
		p += 6;
	}
	cp_finish(s, p);
}

static void send_ipcp_cr(struct sess *s)
{
	uint8_t *p = cp_begin(s, SG_PROTO_IPCP, SG_CONFREQ, s->ipcp_id);

	p[0] = SG_IPCP_ADDR;
	p[1] = 6;
	sg_put32(p + 2, R.local);
	cp_finish(s, p + 6);
}

static void send_challenge(struct sess *s)
{
	uint8_t *p = cp_begin(s, SG_PROTO_CHAP, SG_CHAP_CHALLENGE, s->chap_id);
	size_t nl = strlen(R.ac_name);

	p[0] = sizeof(s->challenge);
	memcpy(p + 1, s->challenge, sizeof(s->challenge));
	p += 1 + sizeof(s->challenge);
	memcpy(p, R.ac_name, nl);
	cp_finish(s, p + nl);
}

static void send_padt(struct sess *s)
{
	struct sg_if *i = s_if(s);
	uint8_t *b = sg_tx_slot(i), *p;

	p = sg_hdr(b, s->mac, i->mac, SG_ETH_DISC, SG_PADT, sid_of(s));
	sg_tx_commit(i, sg_end(b, p));
}

/* ---- sessions ------------------------------------------------------------- */

static void sess_free(struct sess *s)
{
	if (s->state == R_FREE)
		return;
	if (s->state == R_UP)
		R.ended++;
	sg_tq_disarm(&s->t);
	hash_del(sid_of(s));
	s->state = R_FREE;
	R.free_sids[R.nfree++] = sid_of(s);
}

static void arm(struct sess *s, uint64_t now)
{
	s->retries = 0;
	sg_tq_arm(&R.tq, &s->t, now);
}

static void ipcp_start(struct sess *s, uint64_t now)
{
	s->state = R_IPCP;
	s->ipcp_id++;
	s->ipcp &= ~F_OUR_ACKED;
	send_ipcp_cr(s);
	arm(s, now);
}

static void lcp_opened(struct sess *s, uint64_t now)
{
	sg_tq_disarm(&s->t);
	if (s->auth == AUTH_NONE) {
		ipcp_start(s, now);
		return;
	}
	s->state = R_AUTH;
	if (s->auth == AUTH_CHAP) {
		uint64_t a = sg_rand(), b = sg_rand();

		memcpy(s->challenge, &a, 8);
		memcpy(s->challenge + 8, &b, 8);
		s->chap_id++;
		send_challenge(s);
		arm(s, now);
	}
}

static void timeout(struct sess *s, uint64_t now)
{
	if (++s->retries >= R.max_configure) {
		R.gave_up++;
		send_padt(s);
		sess_free(s);
		return;
	}
	switch (s->state) {
	case R_LCP:
		s->lcp &= ~F_OUR_ACKED;
		send_lcp_cr(s);
		break;
	case R_AUTH:
		if (s->auth != AUTH_CHAP)
			return;
		send_challenge(s);
		break;
	case R_IPCP:
		s->ipcp &= ~F_OUR_ACKED;
		send_ipcp_cr(s);
		break;
	default:
		return;
	}
	sg_tq_arm(&R.tq, &s->t, now);
}

/* ---- discovery ------------------------------------------------------------ */

static void cookie_of(const uint8_t *mac, uint8_t *out)
{
	uint64_t h = (mac_key(mac) ^ R.secret) * 0xff51afd7ed558ccdULL;

	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 29;
	memcpy(out, &h, COOKIE_LEN);
}

/* PADO or PADS: the tags a discovery answer echoes (RFC 2516 §5.2, §5.4) */
static uint8_t *echo_tags(uint8_t *p, const struct sg_frame *f)
{
	if (f->service.present)
		p = sg_put_tag(p, SG_TAG_SERVICE, f->service.p, f->service.len);
	else
		p = sg_put_tag(p, SG_TAG_SERVICE, NULL, 0);
	if (f->host_uniq.present)
		p = sg_put_tag(p, SG_TAG_HOST_UNIQ, f->host_uniq.p, f->host_uniq.len);
	if (f->relay.present)
		p = sg_put_tag(p, SG_TAG_RELAY, f->relay.p, f->relay.len);
	return p;
}

/* the echoed tags must leave room in one frame */
static bool tags_fit(const struct sg_frame *f)
{
	return (size_t)f->service.len + f->host_uniq.len + f->relay.len + strlen(R.ac_name) +
	       COOKIE_LEN + 5 * 4 <= ROOM;
}

static void padi_input(struct sg_if *i, const struct sg_frame *f)
{
	uint8_t *b, *p, ck[COOKIE_LEN];

	R.padi++;
	if (!tags_fit(f)) {
		R.rx_bad++;
		return;
	}
	b = sg_tx_slot(i);
	p = sg_hdr(b, f->src, i->mac, SG_ETH_DISC, SG_PADO, 0);
	p = sg_put_tag(p, SG_TAG_AC_NAME, R.ac_name, strlen(R.ac_name));
	p = echo_tags(p, f);
	if (R.cookie) {
		cookie_of(f->src, ck);
		p = sg_put_tag(p, SG_TAG_COOKIE, ck, COOKIE_LEN);
	}
	sg_tx_commit(i, sg_end(b, p));
	R.pado++;
}

static void send_pads(struct sg_if *i, const struct sg_frame *f, uint16_t sid)
{
	uint8_t *b = sg_tx_slot(i), *p;

	p = sg_hdr(b, f->src, i->mac, SG_ETH_DISC, SG_PADS, sid);
	p = echo_tags(p, f);
	sg_tx_commit(i, sg_end(b, p));
	R.pads++;
}

static void padr_input(struct sg_if *i, unsigned int ifi, const struct sg_frame *f, uint64_t now)
{
	uint8_t ck[COOKIE_LEN];
	struct sess *s;
	uint16_t sid;

	R.padr++;
	if (memcmp(f->dst, i->mac, SG_ETH_ALEN) || !tags_fit(f)) {
		R.rx_ignored++;
		return;
	}
	if (R.cookie) {
		cookie_of(f->src, ck);
		if (f->cookie.len != COOKIE_LEN || memcmp(f->cookie.p, ck, COOKIE_LEN)) {
			R.bad_cookie++;
			return;
		}
	}
	sid = hash_find(f->src);
	if (sid) {
		s = &R.sess[sid];
		if (!(s->lcp & F_SEEN) && f->host_uniq.len == s->hu_len &&
		    (!s->hu_len || !memcmp(f->host_uniq.p, s->hu, s->hu_len))) {
			/* our PADS was lost: the same again */
			R.padr_dup++;
			send_pads(i, f, sid);
			return;
		}
		sess_free(s);	/* the subscriber started over */
	}
	if (!R.nfree) {
		R.full++;
		return;
	}
	sid = R.free_sids[--R.nfree];
	s = &R.sess[sid];
	memset(s, 0, sizeof(*s));
	memcpy(s->mac, f->src, SG_ETH_ALEN);
	s->ifi = (uint8_t)ifi;
	s->state = R_LCP;
	s->auth = (uint8_t)R.auth;
	s->magic = (uint32_t)sg_rand() | 1;
	s->lcp_id = 1;
	if (f->host_uniq.len <= HU_MAX) {
		s->hu_len = (uint8_t)f->host_uniq.len;
		memcpy(s->hu, f->host_uniq.p, f->host_uniq.len);
	}
	hash_add(sid);
	send_pads(i, f, sid);
	/* the AC's side of LCP starts at once */
	send_lcp_cr(s);
	arm(s, now);
}

/* ---- session -------------------------------------------------------------- */

static void lcp_rcr(struct sess *s, const struct sg_frame *f, uint64_t now)
{
	static uint8_t rej[ROOM];
	struct sg_opt_iter it;
	const uint8_t *v;
	uint8_t t, vl;
	size_t n = 0;

	if (!sg_opts_ok(f->cp_data, f->cp_dlen)) {
		R.rx_bad++;
		return;
	}
	sg_opt_init(&it, f->cp_data, f->cp_dlen);
	while (sg_opt_next(&it, &t, &v, &vl) > 0) {
		bool ok = (t == SG_LCP_MRU && vl == 2) || (t == SG_LCP_ACCM && vl == 4) ||
			  (t == SG_LCP_MAGIC && vl == 4 && sg_get32(v) != s->magic) ||
			  (t == SG_LCP_PFC && !vl);

		if (ok || n + 2 + vl > sizeof(rej))
			continue;
		rej[n] = t;
		rej[n + 1] = vl + 2;
		memcpy(rej + n + 2, v, vl);
		n += 2 + vl;
	}
	if (n) {
		send_cp(s, SG_PROTO_LCP, SG_CONFREJ, f->cp_id, rej, n);
		s->lcp &= ~F_PEER_ACKED;
		return;
	}
	send_cp(s, SG_PROTO_LCP, SG_CONFACK, f->cp_id, f->cp_data, f->cp_dlen);
	s->lcp |= F_PEER_ACKED;
	if (s->state == R_LCP && (s->lcp & F_OUR_ACKED))
		lcp_opened(s, now);
}

static void lcp_nak_rej(struct sess *s, const struct sg_frame *f, uint64_t now)
{
	struct sg_opt_iter it;
	const uint8_t *v;
	uint8_t t, vl;

	if (!sg_opts_ok(f->cp_data, f->cp_dlen)) {
		R.rx_bad++;
		return;
	}
	sg_opt_init(&it, f->cp_data, f->cp_dlen);
	while (sg_opt_next(&it, &t, &v, &vl) > 0) {
		if (t == SG_LCP_MRU)
			s->lcp |= F_NO_MRU;
		else if (t == SG_LCP_MAGIC)
			s->lcp |= F_NO_MAGIC;
		else if (t == SG_LCP_AUTH && f->cp_code == SG_CONFNAK && vl >= 2 &&
			 sg_get16(v) == SG_PROTO_PAP)
			s->auth = AUTH_PAP;
		else if (t == SG_LCP_AUTH && f->cp_code == SG_CONFNAK && vl == 3 &&
			 sg_get16(v) == SG_PROTO_CHAP && v[2] == SG_CHAP_MD5)
			s->auth = AUTH_CHAP;
		else if (t == SG_LCP_AUTH)
			s->auth = AUTH_NONE;	/* accept all: even no login */
	}
	s->lcp &= ~F_OUR_ACKED;
	s->lcp_id++;
	send_lcp_cr(s);
	arm(s, now);
}

static void lcp_input(struct sess *s, const struct sg_frame *f, uint64_t now)
{
	uint8_t *p;
	size_t n;

	switch (f->cp_code) {
	case SG_CONFREQ:
		if (s->state != R_LCP) {
			/* renegotiation: LCP from the start */
			s->state = R_LCP;
			s->lcp &= F_SEEN | F_NO_MRU | F_NO_MAGIC;
			s->ipcp = 0;
			s->lcp_id++;
			send_lcp_cr(s);
			arm(s, now);
		}
		lcp_rcr(s, f, now);
		return;
	case SG_CONFACK:
		if (s->state != R_LCP || f->cp_id != s->lcp_id)
			break;
		s->lcp |= F_OUR_ACKED;
		if (s->lcp & F_PEER_ACKED)
			lcp_opened(s, now);
		return;
	case SG_CONFNAK:
	case SG_CONFREJ:
		if (s->state != R_LCP || f->cp_id != s->lcp_id)
			break;
		lcp_nak_rej(s, f, now);
		return;
	case SG_TERMREQ:
		send_cp(s, SG_PROTO_LCP, SG_TERMACK, f->cp_id, NULL, 0);
		sess_free(s);
		return;
	case SG_ECHOREQ:
		if (s->state == R_LCP || f->cp_dlen < 4)
			break;
		p = cp_begin(s, SG_PROTO_LCP, SG_ECHOREP, f->cp_id);
		n = f->cp_dlen - 4 > ROOM ? ROOM : f->cp_dlen - 4;
		sg_put32(p, (s->lcp & F_NO_MAGIC) ? 0 : s->magic);
		memcpy(p + 4, f->cp_data + 4, n);
		cp_finish(s, p + 4 + n);
		R.lcp_echo++;
		return;
	default:
		break;
	}
	R.rx_ignored++;
}

static void auth_ok(struct sess *s, uint64_t now)
{
	if (s->state == R_AUTH)
		ipcp_start(s, now);
}

static void pap_input(struct sess *s, const struct sg_frame *f, uint64_t now)
{
	struct sg_bytes u, pw;
	static const uint8_t msg[] = { 2, 'o', 'k' };

	if (s->auth != AUTH_PAP || s->state < R_AUTH || f->cp_code != SG_PAP_REQ ||
	    sg_pap_req_parse(f, &u, &pw)) {
		R.rx_ignored++;
		return;
	}
	if (R.password && (pw.len != strlen(R.password) || memcmp(pw.p, R.password, pw.len))) {
		send_cp(s, SG_PROTO_PAP, SG_PAP_NAK, f->cp_id, msg, sizeof(msg));
		R.refused++;
		return;
	}
	/* a repeat after the Ack (lost) gets the Ack again */
	send_cp(s, SG_PROTO_PAP, SG_PAP_ACK, f->cp_id, msg, sizeof(msg));
	auth_ok(s, now);
}

static void chap_input(struct sess *s, const struct sg_frame *f, uint64_t now)
{
	struct sg_bytes val, nm;
	uint8_t want[MD5_DIGEST_LEN];
	struct md5_ctx c;

	if (s->auth != AUTH_CHAP || s->state < R_AUTH || f->cp_code != SG_CHAP_RESPONSE ||
	    f->cp_id != s->chap_id || sg_chap_parse(f, &val, &nm)) {
		R.rx_ignored++;
		return;
	}
	if (R.password) {
		/* MD5(Identifier, secret, Challenge) (RFC 1994 §4.1) */
		md5_init(&c);
		md5_update(&c, 1, &f->cp_id);
		md5_update(&c, strlen(R.password), (const uint8_t *)R.password);
		md5_update(&c, sizeof(s->challenge), s->challenge);
		md5_digest(&c, MD5_DIGEST_SIZE, want);
		if (val.len != MD5_DIGEST_LEN || memcmp(val.p, want, MD5_DIGEST_LEN)) {
			send_cp(s, SG_PROTO_CHAP, SG_CHAP_FAILURE, f->cp_id,
				(const uint8_t *)"no", 2);
			R.refused++;
			return;
		}
	}
	send_cp(s, SG_PROTO_CHAP, SG_CHAP_SUCCESS, f->cp_id, (const uint8_t *)"ok", 2);
	auth_ok(s, now);
}

static void ipcp_input(struct sess *s, const struct sg_frame *f, uint64_t now)
{
	static uint8_t rej[ROOM];
	uint8_t nak[6], mine[4];
	struct sg_opt_iter it;
	const uint8_t *v;
	uint8_t t, vl;
	size_t n = 0;
	bool want_nak = false;

	if (s->state < R_IPCP) {
		R.rx_ignored++;
		return;
	}
	switch (f->cp_code) {
	case SG_CONFREQ:
		if (!sg_opts_ok(f->cp_data, f->cp_dlen)) {
			R.rx_bad++;
			return;
		}
		sg_put32(mine, R.pool + sid_of(s));
		sg_opt_init(&it, f->cp_data, f->cp_dlen);
		while (sg_opt_next(&it, &t, &v, &vl) > 0) {
			if (t == SG_IPCP_ADDR && vl == 4) {
				want_nak = memcmp(v, mine, 4) != 0;
				continue;
			}
			if (n + 2 + vl > sizeof(rej))
				continue;
			rej[n] = t;
			rej[n + 1] = vl + 2;
			memcpy(rej + n + 2, v, vl);
			n += 2 + vl;
		}
		if (n) {
			send_cp(s, SG_PROTO_IPCP, SG_CONFREJ, f->cp_id, rej, n);
		} else if (want_nak) {
			nak[0] = SG_IPCP_ADDR;
			nak[1] = 6;
			memcpy(nak + 2, mine, 4);
			send_cp(s, SG_PROTO_IPCP, SG_CONFNAK, f->cp_id, nak, 6);
		} else {
			send_cp(s, SG_PROTO_IPCP, SG_CONFACK, f->cp_id, f->cp_data, f->cp_dlen);
			s->ipcp |= F_PEER_ACKED;
			if (s->state == R_IPCP && (s->ipcp & F_OUR_ACKED))
				goto up;
			return;
		}
		s->ipcp &= ~F_PEER_ACKED;
		return;
	case SG_CONFACK:
		if (s->state != R_IPCP || f->cp_id != s->ipcp_id)
			break;
		s->ipcp |= F_OUR_ACKED;
		if (s->ipcp & F_PEER_ACKED)
			goto up;
		return;
	case SG_TERMREQ:
		send_cp(s, SG_PROTO_IPCP, SG_TERMACK, f->cp_id, NULL, 0);
		return;
	default:
		break;
	}
	R.rx_ignored++;
	return;
up:
	s->state = R_UP;
	sg_tq_disarm(&s->t);
	R.nup++;
}

static void ip_input(struct sess *s, const struct sg_frame *f, uint64_t now)
{
	struct sg_icmp ic;
	struct sg_if *i = s_if(s);
	uint8_t *b, *p, *ip, *icmp;

	if (s->state != R_UP || sg_icmp_parse(f, &ic) || ic.type != 8 || ic.ip_len > ROOM) {
		R.rx_ignored++;
		return;
	}
	b = sg_tx_slot(i);
	p = sg_hdr(b, s->mac, i->mac, SG_ETH_SESS, SG_SESSION, sid_of(s));
	sg_put16(p, SG_PROTO_IP);
	ip = p + 2;
	memcpy(ip, ic.ip, ic.ip_len);
	memcpy(ip + 12, &ic.daddr, 4);
	memcpy(ip + 16, &ic.saddr, 4);
	ip[8] = 64;
	ip[10] = ip[11] = 0;
	sg_put16(ip + 10, sg_csum(ip, ic.ihl));
	icmp = ip + ic.ihl;
	icmp[0] = 0;
	icmp[2] = icmp[3] = 0;
	sg_put16(icmp + 2, sg_csum(icmp, ic.ip_len - ic.ihl));
	sg_tx_commit(i, sg_end(b, ip + ic.ip_len));
	R.echo++;
}

static void ppp_ignored(struct sess *s, const struct sg_frame *f, uint64_t now)
{
	R.rx_ignored++;
}

/* A session's PPP frames, by protocol (sg_ppp_of()). */
static void (*const ppp_input[SG_PPP_N])(struct sess *s, const struct sg_frame *f, uint64_t now) = {
	[SG_PPP_LCP]	= lcp_input,
	[SG_PPP_PAP]	= pap_input,
	[SG_PPP_CHAP]	= chap_input,
	[SG_PPP_IPCP]	= ipcp_input,
	[SG_PPP_IP]	= ip_input,
	[SG_PPP_OTHER]	= ppp_ignored,
};

static void frame_input(unsigned int ifi, const uint8_t *buf, size_t len, uint64_t now)
{
	struct sg_if *i = &R.ifs[ifi];
	struct sg_frame f;
	struct sess *s;

	R.rx_frames++;
	if (R.loss && sg_rand() % 1000000 < R.loss) {
		R.rx_lost++;
		return;
	}
	if (sg_parse(buf, len, &f)) {
		R.rx_bad++;
		return;
	}
	if (f.src[0] & 1) {
		R.rx_ignored++;
		return;
	}
	if (f.ethertype == SG_ETH_DISC) {
		switch (f.code) {
		case SG_PADI:
			padi_input(i, &f);
			return;
		case SG_PADR:
			padr_input(i, ifi, &f, now);
			return;
		case SG_PADT:
			R.padt_rx++;
			if (f.sid && f.sid <= R.max_sess && R.sess[f.sid].state != R_FREE &&
			    !memcmp(R.sess[f.sid].mac, f.src, SG_ETH_ALEN))
				sess_free(&R.sess[f.sid]);
			return;
		}
		R.rx_ignored++;
		return;
	}
	if (!f.sid || f.sid > R.max_sess || f.code != SG_SESSION) {
		R.rx_ignored++;
		return;
	}
	s = &R.sess[f.sid];
	if (s->state == R_FREE || memcmp(s->mac, f.src, SG_ETH_ALEN) || s->ifi != ifi) {
		R.rx_ignored++;
		return;
	}
	s->lcp |= F_SEEN;
	ppp_input[sg_ppp_of(f.proto)](s, &f, now);
}

/* ---- the loop ------------------------------------------------------------- */

static int run(void)
{
	struct epoll_event ev[SG_MAX_IFS];
	struct sg_tnode *n;
	struct timespec ts;
	uint64_t now, next;
	unsigned int k, b;
	int ep, ne, e, r;

	ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0)
		return -1;
	for (k = 0; k < R.nifs; k++) {
		struct epoll_event add = { .events = EPOLLIN, .data.u32 = k };

		if (epoll_ctl(ep, EPOLL_CTL_ADD, R.ifs[k].fd, &add))
			return -1;
	}
	while (!R.sig) {
		now = sg_now();
		while ((n = sg_tq_pop(&R.tq, now)))
			timeout(SG_CONTAINER(n, struct sess, t), now);
		for (k = 0; k < R.nifs; k++)
			sg_tx_flush(&R.ifs[k]);
		next = sg_tq_next(&R.tq, 1);
		now = sg_now();
		next = next == UINT64_MAX || next - now > NS_PER_S ? NS_PER_S :
		       next > now ? next - now : 0;
		ts.tv_sec = next / NS_PER_S;
		ts.tv_nsec = next % NS_PER_S;
		ne = epoll_pwait2(ep, ev, SG_MAX_IFS, &ts, NULL);
		if (ne < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		for (e = 0; e < ne; e++) {
			unsigned int ifi = ev[e].data.u32;
			int fd = R.ifs[ifi].fd;

			for (b = 0; b < 8; b++) {
				r = sg_rx(fd, &R.rx);
				if (r <= 0)
					break;
				now = sg_now();
				for (k = 0; k < (unsigned int)r; k++) {
					if (R.rx.m[k].msg_hdr.msg_flags & MSG_TRUNC) {
						R.rx_frames++;
						R.rx_bad++;
						continue;
					}
					frame_input(ifi, R.rx.b[k], R.rx.m[k].msg_len, now);
				}
				if (r < SG_BATCH)
					break;
			}
		}
		for (k = 0; k < R.nifs; k++)
			sg_tx_flush(&R.ifs[k]);
	}
	close(ep);
	return 0;
}

static void report(void)
{
	uint64_t drops = 0, txf = 0, live = R.max_sess - R.nfree;
	double cpu = sg_cpu_seconds();
	unsigned int k;

	for (k = 0; k < R.nifs; k++) {
		sg_if_stats(&R.ifs[k]);
		drops += R.ifs[k].rx_drops;
		txf += R.ifs[k].tx_frames;
	}
	if (R.json) {
		printf("{\"padi\":%" PRIu64 ",\"pado\":%" PRIu64 ",\"padr\":%" PRIu64
		       ",\"pads\":%" PRIu64 ",\"padr_repeated\":%" PRIu64 ",\"bad_cookie\":%" PRIu64
		       ",\"full\":%" PRIu64 ",\"padt\":%" PRIu64 ",\"refused\":%" PRIu64
		       ",\"up\":%" PRIu64
		       ",\"ended\":%" PRIu64 ",\"gave_up\":%" PRIu64 ",\"live\":%" PRIu64
		       ",\"icmp_echoed\":%" PRIu64 ",\"lcp_echoed\":%" PRIu64
		       ",\"frames\":{\"received\":%" PRIu64 ",\"sent\":%" PRIu64
		       ",\"malformed\":%" PRIu64 ",\"ignored\":%" PRIu64 ",\"socket_drops\":%" PRIu64
		       ",\"lost_on_purpose\":%" PRIu64 "},\"cpu_s\":%.3f,\"cpu_us_per_session\":%.1f}\n",
		       R.padi, R.pado, R.padr, R.pads, R.padr_dup, R.bad_cookie, R.full, R.padt_rx,
		       R.refused, R.nup, R.ended, R.gave_up, live, R.echo, R.lcp_echo, R.rx_frames, txf,
		       R.rx_bad, R.rx_ignored, drops, R.rx_lost, cpu, R.nup ? cpu * 1e6 / R.nup : 0);
	} else {
		printf("subresp: PADI %" PRIu64 ", PADO %" PRIu64 ", PADR %" PRIu64 " (%" PRIu64
		       " repeated, %" PRIu64 " bad cookie), PADS %" PRIu64 ", full %" PRIu64
		       ", PADT %" PRIu64 "\n", R.padi, R.pado, R.padr, R.padr_dup, R.bad_cookie,
		       R.pads, R.full, R.padt_rx);
		printf("subresp: logins refused %" PRIu64 "\n", R.refused);
		printf("subresp: sessions up %" PRIu64 ", ended %" PRIu64 ", given up %" PRIu64
		       ", live %" PRIu64 "; ICMP echoed %" PRIu64 ", LCP echoed %" PRIu64 "\n",
		       R.nup, R.ended, R.gave_up, live, R.echo, R.lcp_echo);
		printf("subresp: frames received %" PRIu64 ", sent %" PRIu64 ", malformed %" PRIu64
		       ", ignored %" PRIu64 ", socket drops %" PRIu64 ", lost on purpose %" PRIu64
		       "\n", R.rx_frames, txf, R.rx_bad, R.rx_ignored, drops, R.rx_lost);
		printf("subresp: cpu %.3f s, %.1f us a session up\n", cpu,
		       R.nup ? cpu * 1e6 / R.nup : 0);
	}
	fflush(stdout);
}

/* ---- options -------------------------------------------------------------- */

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: l2tpsel-subresp -i IFACE [-i IFACE]... [options]\n"
		"A trivial PPPoE access concentrator for l2tpsel-subgen: answers discovery,\n"
		"LCP, PAP or CHAP (accepts all), IPCP and ICMP echo until SIGINT or SIGTERM,\n"
		"then prints its counters.\n"
		"  -i, --interface IF      answer on IF (repeatable)\n"
		"  -a, --auth pap|chap|none what LCP asks for (pap)\n"
		"      --ac-name NAME      AC-Name and CHAP name (subresp)\n"
		"  -p, --password S        refuse a PAP password or CHAP response not made\n"
		"                          with S (default: accept all)\n"
		"      --no-cookie         no AC-Cookie in PADO, none checked in PADR\n"
		"  -m, --mru N             LCP MRU (1492)\n"
		"      --pool A.B.C.D      subscriber addresses: A.B.C.D plus the session id\n"
		"                          (10.64.0.0)\n"
		"      --local A.B.C.D     own IPCP address (10.63.255.254)\n"
		"      --max-sessions N    at most N sessions (65534)\n"
		"      --restart MS        LCP/CHAP/IPCP restart timer (1000)\n"
		"      --max-configure N   requests before a session is dropped (10)\n"
		"      --loss PCT          drop this share of received frames, as a lossy\n"
		"                          link would (0; 2.5 is 2.5%%)\n"
		"  -j, --json              the counters as one JSON object\n"
		"  -h, --help              this text\n"
		"  -V, --version           the version\n");
}

enum { O_ACNAME = 256, O_NOCOOKIE, O_POOL, O_LOCAL, O_MAXSESS, O_RESTART, O_MAXCONF, O_LOSS };

static int ip4(const char *opt, const char *s, uint32_t *out)
{
	struct in_addr a;

	if (inet_pton(AF_INET, s, &a) != 1) {
		fprintf(stderr, "l2tpsel-subresp: --%s: \"%s\" is not an IPv4 address\n", opt, s);
		return -1;
	}
	*out = ntohl(a.s_addr);
	return 0;
}

static int options(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "interface", required_argument, NULL, 'i' },
		{ "auth", required_argument, NULL, 'a' },
		{ "ac-name", required_argument, NULL, O_ACNAME },
		{ "password", required_argument, NULL, 'p' },
		{ "no-cookie", no_argument, NULL, O_NOCOOKIE },
		{ "mru", required_argument, NULL, 'm' },
		{ "pool", required_argument, NULL, O_POOL },
		{ "local", required_argument, NULL, O_LOCAL },
		{ "max-sessions", required_argument, NULL, O_MAXSESS },
		{ "restart", required_argument, NULL, O_RESTART },
		{ "max-configure", required_argument, NULL, O_MAXCONF },
		{ "loss", required_argument, NULL, O_LOSS },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int o, rc = 0;

	R.ac_name = "subresp";
	R.auth = AUTH_PAP;
	R.cookie = true;
	R.mru = 1492;
	R.max_sess = MAX_SID;
	R.restart_ns = 1000 * NS_PER_MS;
	R.max_configure = 10;
	R.pool = 0x0a400000;
	R.local = 0x0a3ffffe;
	while ((o = getopt_long(argc, argv, "i:a:p:m:jhV", lo, NULL)) != -1) {
		switch (o) {
		case 'i':
			if (R.nifs == SG_MAX_IFS) {
				fprintf(stderr, "l2tpsel-subresp: at most %d interfaces\n", SG_MAX_IFS);
				return -1;
			}
			R.ifnames[R.nifs++] = optarg;
			break;
		case 'a':
			if (!strcmp(optarg, "pap")) {
				R.auth = AUTH_PAP;
			} else if (!strcmp(optarg, "chap")) {
				R.auth = AUTH_CHAP;
			} else if (!strcmp(optarg, "none")) {
				R.auth = AUTH_NONE;
			} else {
				fprintf(stderr, "l2tpsel-subresp: --auth is pap, chap or none\n");
				return -1;
			}
			break;
		case O_ACNAME:
			R.ac_name = optarg;
			if (strlen(optarg) > 64) {
				fprintf(stderr, "l2tpsel-subresp: --ac-name: at most 64 bytes\n");
				return -1;
			}
			break;
		case 'p':
			R.password = optarg;
			break;
		case O_NOCOOKIE:
			R.cookie = false;
			break;
		case 'm':
			rc = sg_parse_u64(optarg, 64, 65535, &R.mru);
			break;
		case O_POOL:
			rc = ip4("pool", optarg, &R.pool);
			break;
		case O_LOCAL:
			rc = ip4("local", optarg, &R.local);
			break;
		case O_MAXSESS:
			rc = sg_parse_u64(optarg, 1, MAX_SID, &R.max_sess);
			break;
		case O_RESTART:
			rc = sg_parse_ms(optarg, &R.restart_ns);
			if (!rc && !R.restart_ns)
				rc = -1;
			break;
		case O_MAXCONF:
			rc = sg_parse_u64(optarg, 1, 255, &R.max_configure);
			break;
		case O_LOSS:
			/* a percentage, with a fraction: milliseconds are thousandths */
			rc = sg_parse_ms(optarg, &R.loss);
			R.loss /= 100;
			if (!rc && R.loss > 1000000)
				rc = -1;
			break;
		case 'j':
			R.json = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			printf("l2tpsel-subresp %s\n", L2TPSEL_VERSION);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
		if (rc) {
			fprintf(stderr, "l2tpsel-subresp: bad value \"%s\" (try --help)\n", optarg);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "l2tpsel-subresp: unexpected argument \"%s\"\n", argv[optind]);
		return -1;
	}
	if (!R.nifs) {
		fprintf(stderr, "l2tpsel-subresp: no interface (-i IFACE)\n");
		usage(stderr);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t seed;
	unsigned int k;

	if (options(argc, argv))
		return 2;
	if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
		seed = sg_now() ^ ((uint64_t)getpid() << 32);
	sg_rand_seed(seed);
	R.secret = sg_rand();
	for (k = 0; k < R.nifs; k++) {
		if (sg_if_open(&R.ifs[k], R.ifnames[k], true, 16 << 20)) {
			fprintf(stderr, "l2tpsel-subresp: %s: %s\n", R.ifnames[k], strerror(errno));
			return 1;
		}
	}
	R.sess = calloc(R.max_sess + 1, sizeof(*R.sess));
	R.free_sids = calloc(R.max_sess, sizeof(*R.free_sids));
	for (R.hmask = 1; R.hmask < 2 * R.max_sess; R.hmask <<= 1)
		;
	R.hash = calloc(R.hmask, sizeof(*R.hash));
	R.hmask--;
	if (!R.sess || !R.free_sids || !R.hash || sg_rx_init(&R.rx)) {
		fprintf(stderr, "l2tpsel-subresp: out of memory\n");
		return 1;
	}
	/* the lowest ids first */
	for (k = R.max_sess; k >= 1; k--)
		R.free_sids[R.nfree++] = (uint16_t)k;
	sg_tq_init(&R.tq, R.restart_ns);
	sg_on_signal(&R.sig);
	/* ready: the test scripts wait for this line */
	fprintf(stderr, "l2tpsel-subresp: answering on %s\n", R.ifnames[0]);
	if (run()) {
		fprintf(stderr, "l2tpsel-subresp: %s\n", strerror(errno));
		return 1;
	}
	report();
	for (k = 0; k < R.nifs; k++)
		sg_if_close(&R.ifs[k]);
	return 0;
}
