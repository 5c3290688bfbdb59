// SPDX-License-Identifier: GPL-2.0
/*
 * Whether the LNS role takes a call's proxied LCP and authentication
 * (RFC 2661 section 4.4.5, `proxy-lcp yes`): see proxy_lcp.h.  Plain C on
 * the AVPs' clear values, no I/O (the unit tests and fuzz/fuzz_ppp.c call it
 * on any bytes).
 */
#include <string.h>

#include "lcp_opt.h"
#include "proxy_lcp.h"

#define PROTO_PAP	0xc023
#define PROTO_CHAP	0xc223
#define CHAP_MD5	5

#define AUTH_TYPE_CHAP	2	/* Proxy Authen Type values, section 4.4.5 */
#define AUTH_TYPE_PAP	3

#define MRU_MIN_LAC	64	/* what ppp.c asks at least */
#define MRU_MIN_PPPD	128	/* pppd's MINMRU: below, it would Nak */

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* An MRU option (RFC 1661 section 6.1) of at least @min into *@mru.  Return: false if not. */
static bool opt_mru(const struct lcp_opt *opt, uint16_t min, uint16_t *mru)
{
	if (opt->len != 4 || get16(opt->v) < min)
		return false;
	*mru = get16(opt->v);
	return true;
}

/* A Magic-Number option (section 6.4), not zero, into *@magic.  Return: false if not. */
static bool opt_magic(const struct lcp_opt *opt, uint32_t *magic)
{
	if (opt->len != 6 || !get32(opt->v))
		return false;
	*magic = get32(opt->v);
	return true;
}

/* The LAC's Configure-Request, as the subscriber acked it (AVP 27). */
static const char *lac_opts(const uint8_t *o, size_t n, struct l2d_proxy_lcp *p)
{
	struct lcp_opt opt;
	size_t off = 0;

	while (lcp_opt_next(o, n, &off, &opt)) {
		const uint8_t *v = opt.v;
		uint8_t len = opt.len;

		switch (opt.type) {
		case LCP_OPT_MRU:
			if (!opt_mru(&opt, MRU_MIN_LAC, &p->our_mru))
				return "the LAC's MRU option is malformed or below 64";
			break;
		case LCP_OPT_MAGIC:
			if (!opt_magic(&opt, &p->our_magic))
				return "the LAC's Magic-Number option is malformed or zero";
			break;
		case LCP_OPT_AUTH:
			if (p->auth_proto)
				return "the LAC asked two authentication protocols";
			if (len == 4 && get16(v) == PROTO_PAP)
				p->auth_proto = PROTO_PAP;
			else if (len == 5 && get16(v) == PROTO_CHAP && v[2] == CHAP_MD5)
				p->auth_proto = PROTO_CHAP;
			else
				return "the LAC asked an authentication other than PAP or CHAP with MD5";
			break;
		default:
			return "the LAC asked an option other than MRU, Magic-Number and authentication";
		}
	}
	if (!p->auth_proto)
		return "the LAC asked no authentication";
	return NULL;
}

/* The subscriber's Configure-Request, as the LAC acked it (AVP 28). */
static const char *sub_opts(const uint8_t *o, size_t n, struct l2d_proxy_lcp *p)
{
	struct lcp_opt opt;
	size_t off = 0;

	while (lcp_opt_next(o, n, &off, &opt)) {
		switch (opt.type) {
		case LCP_OPT_MRU:
			if (!opt_mru(&opt, MRU_MIN_PPPD, &p->peer_mru))
				return "the subscriber's MRU option is malformed or below 128";
			break;
		case LCP_OPT_ACCM:
			if (opt.len != 6)
				return "the subscriber's ACCM option is malformed";
			p->peer_has_accm = 1;
			p->peer_accm = get32(opt.v);
			break;
		case LCP_OPT_MAGIC:
			if (!opt_magic(&opt, &p->peer_magic))
				return "the subscriber's Magic-Number option is malformed or zero";
			break;
		default:
			return "the subscriber asked an option other than MRU, ACCM and Magic-Number";
		}
	}
	if (p->peer_magic && p->peer_magic == p->our_magic)
		return "the subscriber's magic number is the LAC's (a looped-back link)";
	return NULL;
}

const char *l2d_proxy_lcp_decide(const struct l2d_proxy_in *in, struct l2d_proxy_lcp *out)
{
	struct l2d_proxy_lcp p;
	const char *why;
	uint16_t type;

	memset(&p, 0, sizeof(p));
	p.magic = L2D_PROXY_LCP_MAGIC;
	p.size = sizeof(p);
	if (!in->last_tx.present || !in->last_rx.present)
		return "no proxied LCP (Last Sent and Last Received LCP CONFREQ)";
	if (!lcp_opts_valid(in->last_tx.data, in->last_tx.len) ||
	    !lcp_opts_valid(in->last_rx.data, in->last_rx.len))
		return "the proxied LCP options are malformed";
	why = lac_opts(in->last_tx.data, in->last_tx.len, &p);
	if (!why)
		why = sub_opts(in->last_rx.data, in->last_rx.len, &p);
	if (why)
		return why;

	if (!in->type.present || in->type.len != 2)
		return "no Proxy Authen Type";
	type = get16(in->type.data);
	if (type != AUTH_TYPE_PAP && type != AUTH_TYPE_CHAP)
		return "a Proxy Authen Type other than PAP and CHAP";
	if ((type == AUTH_TYPE_PAP) != (p.auth_proto == PROTO_PAP))
		return "the Proxy Authen Type is not the proxied LCP's authentication";
	if (!in->name.present || in->name.len > sizeof(p.name))
		return "no Proxy Authen Name, or longer than 255 octets";
	if (type == AUTH_TYPE_PAP) {
		if (!in->response.present || in->response.len > sizeof(p.pw))
			return "no PAP Proxy Authen Response, or longer than 255 octets";
		p.pap = 1;
		/* section 4.4.5: an ID only for CHAP; the PAP Ack's is ours to pick */
		p.pap_id = in->id.present && in->id.len == 2 ? in->id.data[1] : 1;
		p.name_len = (uint8_t)in->name.len;
		if (p.name_len)
			memcpy(p.name, in->name.data, p.name_len);
		p.pw_len = (uint8_t)in->response.len;
		if (p.pw_len)
			memcpy(p.pw, in->response.data, p.pw_len);
	}
	*out = p;
	return NULL;
}
