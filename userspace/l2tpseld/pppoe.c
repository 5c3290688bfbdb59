// SPDX-License-Identifier: GPL-2.0
/*
 * PPPoE discovery, RFC 2516 §4 (header), §5 (PADI to PADT), appendix A
 * (tags); PPP-Max-Payload from RFC 4638 §4; the AC-Cookie is HMAC-MD5
 * (RFC 2104) over the subscriber's MAC address.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "md5.h"
#include "pppoe.h"

#define TAG_HDR_LEN	4	/* TAG_TYPE, TAG_LENGTH (appendix A) */
#define VENDOR_ID_LEN	4

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)get16(p) << 16 | get16(p + 2);
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

static void tag_set(struct pppoe_tagval *tv, const uint8_t *data, uint16_t len)
{
	if (tv->present)	/* the first one counts */
		return;
	tv->data = data;
	tv->len = len;
	tv->present = true;
}

/*
 * A Vendor-Specific tag of the Broadband Forum, as a TR-101 PPPoE
 * intermediate agent adds it: after the vendor id, sub-options of type (1),
 * length (1), value.  A malformed list gives nothing at all.
 */
static void parse_bbf(struct pppoe_disc *p, const uint8_t *v, uint16_t len)
{
	struct pppoe_tagval circuit = { 0 }, remote = { 0 };
	size_t off = VENDOR_ID_LEN;
	uint32_t up = 0, down = 0;

	while (off < len) {
		uint8_t type, sublen;

		if (len - off < 2)
			return;
		type = v[off];
		sublen = v[off + 1];
		if (sublen > len - off - 2)
			return;
		if (type == PPPOE_BBF_CIRCUIT_ID)
			tag_set(&circuit, v + off + 2, sublen);
		else if (type == PPPOE_BBF_REMOTE_ID)
			tag_set(&remote, v + off + 2, sublen);
		else if (type == PPPOE_BBF_RATE_UP && sublen == 4)
			up = get32(v + off + 2);
		else if (type == PPPOE_BBF_RATE_DOWN && sublen == 4)
			down = get32(v + off + 2);
		off += 2 + (size_t)sublen;
	}
	tag_set(&p->bbf, v, len);
	if (circuit.present)
		tag_set(&p->circuit_id, circuit.data, circuit.len);
	if (remote.present)
		tag_set(&p->remote_id, remote.data, remote.len);
	if (up)
		p->rate_up = up;
	if (down)
		p->rate_down = down;
}

static uint32_t kbps_to_bps(uint32_t kbps)
{
	return kbps > UINT32_MAX / 1000 ? UINT32_MAX : kbps * 1000;
}

void pppoe_connect_speed(const struct pppoe_disc *p, uint32_t *tx, uint32_t *rx)
{
	if (p->rate_down)
		*tx = kbps_to_bps(p->rate_down);
	if (p->rate_up)
		*rx = kbps_to_bps(p->rate_up);
}

static void parse_tag(struct pppoe_disc *p, uint16_t type, const uint8_t *v, uint16_t len)
{
	switch (type) {
	case PPPOE_TAG_SERVICE_NAME:
		tag_set(&p->service, v, len);
		break;
	case PPPOE_TAG_AC_NAME:
		tag_set(&p->ac_name, v, len);
		break;
	case PPPOE_TAG_HOST_UNIQ:
		tag_set(&p->host_uniq, v, len);
		break;
	case PPPOE_TAG_AC_COOKIE:
		tag_set(&p->cookie, v, len);
		break;
	case PPPOE_TAG_VENDOR_SPECIFIC:
		/* the first four octets: 0, then the enterprise number */
		if (len >= VENDOR_ID_LEN && get32(v) == PPPOE_VENDOR_BBF)
			parse_bbf(p, v, len);
		break;
	case PPPOE_TAG_RELAY_SESSION_ID:
		tag_set(&p->relay_sid, v, len);
		break;
	case PPPOE_TAG_PPP_MAX_PAYLOAD:
		tag_set(&p->max_payload, v, len);
		break;
	case PPPOE_TAG_SERVICE_NAME_ERROR:
	case PPPOE_TAG_AC_SYSTEM_ERROR:
	case PPPOE_TAG_GENERIC_ERROR:
		if (!p->error.present)
			p->error_type = type;
		tag_set(&p->error, v, len);
		break;
	default:
		/* appendix A: unknown TAG_TYPEs MUST be ignored */
		break;
	}
}

static int parse_fail(const char **why, const char *reason)
{
	if (why)
		*why = reason;
	return -EBADMSG;
}

int pppoe_disc_parse(const uint8_t *buf, size_t len, struct pppoe_disc *p, const char **why)
{
	size_t off, end;

	memset(p, 0, sizeof(*p));
	if (len < PPPOE_HDR_LEN)
		return parse_fail(why, "shorter than the PPPoE header");
	/* §4: VER and TYPE MUST both be 0x1 */
	if (buf[0] != PPPOE_VER_TYPE)
		return parse_fail(why, "version/type not 0x11");
	p->code = buf[1];
	p->sid = get16(buf + 2);
	p->length = get16(buf + 4);
	/* octets after LENGTH are Ethernet padding, a short frame is bad */
	if (p->length > len - PPPOE_HDR_LEN)
		return parse_fail(why, "LENGTH beyond the frame");

	switch (p->code) {
	case PPPOE_CODE_PADI:
		/* §5.1: "The SESSION_ID MUST be set to 0x0000" */
		if (p->sid)
			return parse_fail(why, "PADI with a session id");
		break;
	case PPPOE_CODE_PADR:
		/* §5.3: likewise */
		if (p->sid)
			return parse_fail(why, "PADR with a session id");
		break;
	case PPPOE_CODE_PADT:
		/* §5.5: the SESSION_ID says which session ends */
		if (!p->sid)
			return parse_fail(why, "PADT without a session id");
		break;
	case PPPOE_CODE_PADO:
	case PPPOE_CODE_PADS:
		break;
	default:
		return parse_fail(why, "unknown code");
	}

	end = PPPOE_HDR_LEN + (size_t)p->length;
	for (off = PPPOE_HDR_LEN; off < end;) {
		uint16_t type, tlen;

		if (end - off < TAG_HDR_LEN)
			return parse_fail(why, "tag header truncated");
		type = get16(buf + off);
		tlen = get16(buf + off + 2);
		if (tlen > end - off - TAG_HDR_LEN)
			return parse_fail(why, "tag beyond LENGTH");
		/* appendix A: End-Of-List, "no further TAGs in the list" */
		if (type == PPPOE_TAG_END_OF_LIST)
			break;
		p->n_tags++;
		parse_tag(p, type, buf + off + TAG_HDR_LEN, tlen);
		off += TAG_HDR_LEN + (size_t)tlen;
	}
	return 0;
}

const char *pppoe_code_name(uint8_t code, char tmp[16])
{
	switch (code) {
	case PPPOE_CODE_PADI:
		return "PADI";
	case PPPOE_CODE_PADO:
		return "PADO";
	case PPPOE_CODE_PADR:
		return "PADR";
	case PPPOE_CODE_PADS:
		return "PADS";
	case PPPOE_CODE_PADT:
		return "PADT";
	}
	snprintf(tmp, 16, "code 0x%02x", code);
	return tmp;
}

void pppoe_build_start(struct pppoe_builder *b, uint8_t *buf, size_t cap, uint8_t code,
		       uint16_t sid)
{
	b->buf = buf;
	b->cap = cap;
	b->len = 0;
	b->overflow = false;
	if (cap < PPPOE_HDR_LEN) {
		b->overflow = true;
		return;
	}
	buf[0] = PPPOE_VER_TYPE;
	buf[1] = code;
	put16(buf + 2, sid);
	put16(buf + 4, 0);
	b->len = PPPOE_HDR_LEN;
}

void pppoe_build_tag(struct pppoe_builder *b, uint16_t type, const void *data, size_t len)
{
	uint8_t *p;

	if (b->overflow)
		return;
	/* TAG_LENGTH and LENGTH are 16 bits */
	if (len > 0xffff || b->cap - b->len < TAG_HDR_LEN + len ||
	    b->len - PPPOE_HDR_LEN + TAG_HDR_LEN + len > 0xffff) {
		b->overflow = true;
		return;
	}
	p = b->buf + b->len;
	put16(p, type);
	put16(p + 2, (uint16_t)len);
	if (len)
		memcpy(p + TAG_HDR_LEN, data, len);
	b->len += TAG_HDR_LEN + len;
}

size_t pppoe_build_end(struct pppoe_builder *b)
{
	if (b->overflow)
		return 0;
	put16(b->buf + 4, (uint16_t)(b->len - PPPOE_HDR_LEN));
	return b->len;
}

/* The MAC over epoch (4, big-endian), client MAC (6), ifindex (4, big-endian). */
static void cookie_mac(const uint8_t secret[PPPOE_SECRET_LEN], uint32_t epoch,
		       const uint8_t mac[6], uint32_t ifindex, uint8_t out[MD5_DIGEST_LEN])
{
	uint8_t msg[4 + 6 + 4];

	put32(msg, epoch);
	memcpy(msg + 4, mac, 6);
	put32(msg + 10, ifindex);
	hmac_md5(secret, PPPOE_SECRET_LEN, msg, sizeof(msg), out);
}

void pppoe_cookie_make(const struct pppoe_cookie_keys *k, const uint8_t mac[6],
		       uint32_t ifindex, uint8_t out[PPPOE_COOKIE_LEN])
{
	put32(out, k->epoch);
	cookie_mac(k->cur, k->epoch, mac, ifindex, out + 4);
}

bool pppoe_cookie_check(const struct pppoe_cookie_keys *k, const uint8_t mac[6],
			uint32_t ifindex, const uint8_t *c, size_t len)
{
	uint8_t want[MD5_DIGEST_LEN], diff = 0;
	const uint8_t *secret;
	uint32_t epoch;
	unsigned int i;

	if (!c || len != PPPOE_COOKIE_LEN)
		return false;
	/* the epoch is in clear: choosing the key by it leaks nothing */
	epoch = get32(c);
	if (epoch == k->epoch)
		secret = k->cur;
	else if (k->has_prev && epoch == k->epoch - 1)
		secret = k->prev;
	else
		return false;
	cookie_mac(secret, epoch, mac, ifindex, want);
	for (i = 0; i < MD5_DIGEST_LEN; i++)
		diff |= want[i] ^ c[4 + i];
	explicit_bzero(want, sizeof(want));
	return diff == 0;
}

void pppoe_cookie_rotate(struct pppoe_cookie_keys *k, const uint8_t fresh[PPPOE_SECRET_LEN])
{
	memcpy(k->prev, k->cur, PPPOE_SECRET_LEN);
	memcpy(k->cur, fresh, PPPOE_SECRET_LEN);
	k->has_prev = true;
	k->epoch++;
}

bool pppoe_service_ok(const struct pppoe_offer *o, const struct pppoe_tagval *sv)
{
	unsigned int i;

	/* §5.1, §5.3: the PADI and the PADR MUST carry a Service-Name */
	if (!sv || !sv->present)
		return false;
	if (!sv->len || !o->n_services)
		return true;
	for (i = 0; i < o->n_services; i++) {
		const char *s = o->services[i];

		if (s && strlen(s) == sv->len && !memcmp(s, sv->data, sv->len))
			return true;
	}
	return false;
}

static void build_str(struct pppoe_builder *b, uint16_t type, const char *s)
{
	pppoe_build_tag(b, type, s, s ? strlen(s) : 0);
}

static void build_echo(struct pppoe_builder *b, uint16_t type, const struct pppoe_tagval *tv)
{
	if (tv && tv->present)
		pppoe_build_tag(b, type, tv->data, tv->len);
}

/* RFC 4638 §4: a 2-octet TAG_VALUE, returned as received. */
static void build_max_payload(struct pppoe_builder *b, const struct pppoe_tagval *tv)
{
	if (tv->present && tv->len == 2)
		pppoe_build_tag(b, PPPOE_TAG_PPP_MAX_PAYLOAD, tv->data, tv->len);
}

size_t pppoe_build_pado(const struct pppoe_offer *o, const struct pppoe_disc *padi,
			const uint8_t *cookie, uint8_t *out, size_t cap)
{
	struct pppoe_builder b;
	unsigned int i;

	/* §5.2: SESSION_ID 0x0000, one AC-Name, the PADI's Service-Name */
	pppoe_build_start(&b, out, cap, PPPOE_CODE_PADO, 0);
	build_str(&b, PPPOE_TAG_AC_NAME, o->ac_name);
	if (padi->service.present && padi->service.len) {
		build_echo(&b, PPPOE_TAG_SERVICE_NAME, &padi->service);
	} else {
		/* ... "and any number of other Service-Name TAGs" */
		pppoe_build_tag(&b, PPPOE_TAG_SERVICE_NAME, NULL, 0);
		for (i = 0; i < o->n_services; i++)
			if (o->services[i] && o->services[i][0])
				build_str(&b, PPPOE_TAG_SERVICE_NAME, o->services[i]);
	}
	if (cookie)
		pppoe_build_tag(&b, PPPOE_TAG_AC_COOKIE, cookie, PPPOE_COOKIE_LEN);
	/* appendix A: Host-Uniq and Relay-Session-Id go back unmodified */
	build_echo(&b, PPPOE_TAG_HOST_UNIQ, &padi->host_uniq);
	build_echo(&b, PPPOE_TAG_RELAY_SESSION_ID, &padi->relay_sid);
	build_max_payload(&b, &padi->max_payload);
	return pppoe_build_end(&b);
}

size_t pppoe_build_pads(const struct pppoe_disc *padr, uint16_t sid, bool service_error,
			const char *error_text, uint8_t *out, size_t cap)
{
	struct pppoe_builder b;

	pppoe_build_start(&b, out, cap, PPPOE_CODE_PADS, sid);
	if (padr->service.present)
		build_echo(&b, PPPOE_TAG_SERVICE_NAME, &padr->service);
	else
		pppoe_build_tag(&b, PPPOE_TAG_SERVICE_NAME, NULL, 0);
	build_echo(&b, PPPOE_TAG_HOST_UNIQ, &padr->host_uniq);
	build_echo(&b, PPPOE_TAG_RELAY_SESSION_ID, &padr->relay_sid);
	if (sid) {
		build_max_payload(&b, &padr->max_payload);
	} else {
		/* §5.4: a refusal has SESSION_ID 0x0000 and an error tag */
		build_str(&b, service_error ? PPPOE_TAG_SERVICE_NAME_ERROR :
			  PPPOE_TAG_AC_SYSTEM_ERROR, error_text);
	}
	return pppoe_build_end(&b);
}

size_t pppoe_build_padt(uint16_t sid, const struct pppoe_tagval *host_uniq, const char *text,
			uint8_t *out, size_t cap)
{
	struct pppoe_builder b;

	/* §5.5: the SESSION_ID names the session; no tag is required */
	if (!sid)
		return 0;
	pppoe_build_start(&b, out, cap, PPPOE_CODE_PADT, sid);
	build_echo(&b, PPPOE_TAG_HOST_UNIQ, host_uniq);
	if (text)
		build_str(&b, PPPOE_TAG_GENERIC_ERROR, text);
	return pppoe_build_end(&b);
}
