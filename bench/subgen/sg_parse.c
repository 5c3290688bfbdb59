// SPDX-License-Identifier: GPL-2.0
/*
 * The subscriber load generator's packet input (sg_parse.h): bounds-checked
 * parsing of PPPoE frames, PPP control packets, their options and ICMP.
 */
#include <string.h>

#include "sg_parse.h"

static const char *const sg_errs[SG_E_COUNT] = {
	[SG_OK]		 = "ok",
	[SG_E_SHORT]	 = "short frame",
	[SG_E_ETHERTYPE] = "not PPPoE",
	[SG_E_VERTYPE]	 = "bad PPPoE version/type",
	[SG_E_LENGTH]	 = "PPPoE length beyond frame",
	[SG_E_TAG]	 = "tag beyond PPPoE length",
	[SG_E_PPP]	 = "no PPP protocol",
	[SG_E_CP]	 = "bad control packet length",
};

const char *sg_strerror(int err)
{
	if (err < 0 || err >= SG_E_COUNT)
		return "unknown";
	return sg_errs[err];
}

static void sg_tag_keep(struct sg_bytes *b, const uint8_t *p, uint16_t len)
{
	if (b->present)
		return;		/* the first of each kind counts */
	b->p = p;
	b->len = len;
	b->present = true;
}

static int sg_parse_tags(struct sg_frame *f)
{
	const uint8_t *p = f->payload, *end = f->payload + f->len;
	uint16_t type, tlen;

	while (end - p >= 4) {
		type = sg_get16(p);
		tlen = sg_get16(p + 2);
		p += 4;
		if (tlen > end - p)
			return SG_E_TAG;
		switch (type) {
		case SG_TAG_END:
			return SG_OK;
		case SG_TAG_SERVICE:
			sg_tag_keep(&f->service, p, tlen);
			break;
		case SG_TAG_AC_NAME:
			sg_tag_keep(&f->ac_name, p, tlen);
			break;
		case SG_TAG_HOST_UNIQ:
			sg_tag_keep(&f->host_uniq, p, tlen);
			break;
		case SG_TAG_COOKIE:
			sg_tag_keep(&f->cookie, p, tlen);
			break;
		case SG_TAG_RELAY:
			sg_tag_keep(&f->relay, p, tlen);
			break;
		case SG_TAG_SERVICE_ERR:
		case SG_TAG_AC_ERR:
		case SG_TAG_GENERIC_ERR:
			if (!f->error_tag) {
				f->error_tag = type;
				sg_tag_keep(&f->error, p, tlen);
			}
			break;
		default:
			break;
		}
		p += tlen;
	}
	/* 1 to 3 bytes left over: not a tag header */
	return p == end ? SG_OK : SG_E_TAG;
}

static int sg_parse_session(struct sg_frame *f)
{
	const uint8_t *p = f->payload;
	uint16_t n = f->len, cplen;

	if (n < 1)
		return SG_E_PPP;
	if (p[0] & 1) {
		/* Protocol-Field-Compression: one byte (RFC 1661 §6.5) */
		f->proto = p[0];
		p++;
		n--;
	} else {
		if (n < 2)
			return SG_E_PPP;
		f->proto = sg_get16(p);
		p += 2;
		n -= 2;
	}
	f->info = p;
	f->info_len = n;
	switch (f->proto) {
	case SG_PROTO_LCP:
	case SG_PROTO_IPCP:
	case SG_PROTO_PAP:
	case SG_PROTO_CHAP:
		break;
	default:
		return SG_OK;
	}
	/* Code, Identifier, Length; octets past Length are padding (RFC 1661 §5) */
	if (n < 4)
		return SG_E_CP;
	cplen = sg_get16(p + 2);
	if (cplen < 4 || cplen > n)
		return SG_E_CP;
	f->cp_code = p[0];
	f->cp_id = p[1];
	f->cp_data = p + 4;
	f->cp_dlen = cplen - 4;
	return SG_OK;
}

int sg_parse(const uint8_t *buf, size_t len, struct sg_frame *f)
{
	memset(f, 0, sizeof(*f));
	if (len < SG_HDRS)
		return SG_E_SHORT;
	f->dst = buf;
	f->src = buf + SG_ETH_ALEN;
	f->ethertype = sg_get16(buf + 12);
	if (f->ethertype != SG_ETH_DISC && f->ethertype != SG_ETH_SESS)
		return SG_E_ETHERTYPE;
	if (buf[SG_ETH_HLEN] != SG_VER_TYPE)
		return SG_E_VERTYPE;
	f->code = buf[SG_ETH_HLEN + 1];
	f->sid = sg_get16(buf + SG_ETH_HLEN + 2);
	f->len = sg_get16(buf + SG_ETH_HLEN + 4);
	/* an Ethernet frame may be padded: LENGTH counts, not the frame */
	if (f->len > len - SG_HDRS)
		return SG_E_LENGTH;
	f->payload = buf + SG_HDRS;
	if (f->ethertype == SG_ETH_DISC)
		return sg_parse_tags(f);
	return sg_parse_session(f);
}

void sg_opt_init(struct sg_opt_iter *it, const uint8_t *p, size_t len)
{
	it->p = p;
	it->end = p + len;
}

int sg_opt_next(struct sg_opt_iter *it, uint8_t *type, const uint8_t **val, uint8_t *vlen)
{
	uint8_t olen;

	if (it->p == it->end)
		return 0;
	if (it->end - it->p < 2)
		return -1;
	olen = it->p[1];
	if (olen < 2 || olen > it->end - it->p)
		return -1;
	*type = it->p[0];
	*val = it->p + 2;
	*vlen = olen - 2;
	it->p += olen;
	return 1;
}

bool sg_opts_ok(const uint8_t *p, size_t len)
{
	struct sg_opt_iter it;
	const uint8_t *v;
	uint8_t t, vl;
	int r;

	sg_opt_init(&it, p, len);
	while ((r = sg_opt_next(&it, &t, &v, &vl)) > 0)
		;
	return r == 0;
}

/* A one-byte length and that many bytes, from *p up to end. */
static int sg_lv(const uint8_t **p, const uint8_t *end, struct sg_bytes *b)
{
	uint8_t n;

	if (end - *p < 1)
		return -1;
	n = **p;
	if (n > end - *p - 1)
		return -1;
	b->p = *p + 1;
	b->len = n;
	b->present = true;
	*p += 1 + n;
	return 0;
}

int sg_pap_req_parse(const struct sg_frame *f, struct sg_bytes *user, struct sg_bytes *pass)
{
	const uint8_t *p = f->cp_data, *end;

	if (f->proto != SG_PROTO_PAP || !p)
		return -1;
	end = p + f->cp_dlen;
	if (sg_lv(&p, end, user) || sg_lv(&p, end, pass))
		return -1;
	return 0;
}

int sg_chap_parse(const struct sg_frame *f, struct sg_bytes *value, struct sg_bytes *name)
{
	const uint8_t *p = f->cp_data, *end;

	if (f->proto != SG_PROTO_CHAP || !p)
		return -1;
	end = p + f->cp_dlen;
	if (sg_lv(&p, end, value))
		return -1;
	name->p = p;
	name->len = end - p;
	name->present = true;
	return 0;
}

int sg_icmp_parse(const struct sg_frame *f, struct sg_icmp *ic)
{
	const uint8_t *ip = f->info;
	uint16_t tot, ihl;

	if (f->proto != SG_PROTO_IP || !ip || f->info_len < 20)
		return -1;
	if ((ip[0] >> 4) != 4)
		return -1;
	ihl = (ip[0] & 0x0f) * 4;
	tot = sg_get16(ip + 2);
	if (ihl < 20 || tot < ihl || tot > f->info_len)
		return -1;
	if (ip[9] != 1)				/* ICMP */
		return -1;
	if (sg_get16(ip + 6) & 0x3fff)		/* a fragment: MF or an offset */
		return -1;
	if (tot - ihl < 8)
		return -1;
	ic->ip = ip;
	ic->ip_len = tot;
	ic->ihl = ihl;
	memcpy(&ic->saddr, ip + 12, 4);
	memcpy(&ic->daddr, ip + 16, 4);
	ic->type = ip[ihl];
	ic->code = ip[ihl + 1];
	ic->id = sg_get16(ip + ihl + 4);
	ic->seq = sg_get16(ip + ihl + 6);
	return 0;
}
