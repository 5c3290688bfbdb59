// SPDX-License-Identifier: GPL-2.0
/* The AVP dictionary (RFC 2661 §4.4, §6) and AVP building. */
#include <errno.h>
#include <string.h>

#include "avp.h"

#define B(t)	L2TP_MSG_BIT(L2TP_MSG_##t)
#define ALL	(B(SCCRQ) | B(SCCRP) | B(SCCCN) | B(STOPCCN) | B(HELLO) | \
		 B(OCRQ) | B(OCRP) | B(OCCN) | B(ICRQ) | B(ICRP) | B(ICCN) | \
		 B(CDN) | B(WEN) | B(SLI))
#define ANY	L2TP_AVP_MAX_VALUE

/* Value lengths are those of §4.4 minus the 6-octet AVP header. */
#define RULE(t, lo, hi, hide, m, nz, may, must)				\
	[L2TP_AVP_##t] = { lo, hi, L2TP_HIDE_##hide, m, nz, (may) | (must), must }

static const struct l2tp_avp_rule avp_rules[L2TP_AVP_TYPE_COUNT] = {
	/* §4.4.1 */
	RULE(MESSAGE_TYPE, 2, 2, NEVER, 1, 0, 0, ALL),
	RULE(RANDOM_VECTOR, 0, ANY, NEVER, 1, 0, ALL, 0),
	/* §4.4.2: 2 octets, or 4 plus an optional message (see msg.c) */
	RULE(RESULT_CODE, 2, ANY, NEVER, 1, 0, 0, B(STOPCCN) | B(CDN)),
	/* §4.4.3 */
	RULE(PROTOCOL_VERSION, 2, 2, NEVER, 1, 0, 0, B(SCCRQ) | B(SCCRP)),
	RULE(FRAMING_CAPS, 4, 4, MAY, 1, 0, 0, B(SCCRQ) | B(SCCRP)),
	RULE(BEARER_CAPS, 4, 4, MAY, 1, 0, B(SCCRQ) | B(SCCRP), 0),
	RULE(TIE_BREAKER, 8, 8, NEVER, 0, 0, B(SCCRQ), 0),
	RULE(FIRMWARE_REVISION, 2, 2, MAY, 0, 0, B(SCCRQ) | B(SCCRP), 0),
	RULE(HOST_NAME, 1, ANY, NEVER, 1, 0, 0, B(SCCRQ) | B(SCCRP)),
	RULE(VENDOR_NAME, 0, ANY, MAY, 0, 0, B(SCCRQ) | B(SCCRP), 0),
	RULE(ASSIGNED_TUNNEL_ID, 2, 2, MAY, 1, 1, 0,
	     B(SCCRQ) | B(SCCRP) | B(STOPCCN)),
	RULE(RECEIVE_WINDOW_SIZE, 2, 2, NEVER, 1, 1, B(SCCRQ) | B(SCCRP), 0),
	RULE(CHALLENGE, 1, ANY, MAY, 1, 0, B(SCCRQ) | B(SCCRP), 0),
	RULE(CHALLENGE_RESPONSE, 16, 16, MAY, 1, 0, B(SCCRP) | B(SCCCN), 0),
	/* §4.4.4 */
	RULE(Q931_CAUSE, 3, ANY, NEVER, 1, 0, B(CDN), 0),
	RULE(ASSIGNED_SESSION_ID, 2, 2, MAY, 1, 1, 0,
	     B(CDN) | B(ICRP) | B(ICRQ) | B(OCRP) | B(OCRQ)),
	RULE(CALL_SERIAL_NUMBER, 4, 4, MAY, 1, 0, 0, B(ICRQ) | B(OCRQ)),
	RULE(MINIMUM_BPS, 4, 4, MAY, 1, 0, 0, B(OCRQ)),
	RULE(MAXIMUM_BPS, 4, 4, MAY, 1, 0, 0, B(OCRQ)),
	RULE(BEARER_TYPE, 4, 4, MAY, 1, 0, B(ICRQ), B(OCRQ)),
	RULE(FRAMING_TYPE, 4, 4, MAY, 1, 0, 0, B(ICCN) | B(OCCN) | B(OCRQ)),
	RULE(CALLED_NUMBER, 0, ANY, MAY, 1, 0, B(ICRQ), B(OCRQ)),
	RULE(CALLING_NUMBER, 0, ANY, MAY, 1, 0, B(ICRQ), 0),
	RULE(SUB_ADDRESS, 0, ANY, MAY, 1, 0, B(ICRQ) | B(OCRQ), 0),
	RULE(TX_CONNECT_SPEED, 4, 4, MAY, 1, 0, 0, B(ICCN) | B(OCCN)),
	RULE(RX_CONNECT_SPEED, 4, 4, MAY, 0, 0, B(ICCN) | B(OCCN), 0),
	RULE(PHYSICAL_CHANNEL_ID, 4, 4, MAY, 0, 0, B(ICRQ) | B(OCRP), 0),
	RULE(PRIVATE_GROUP_ID, 0, ANY, MAY, 0, 0, B(ICCN), 0),
	RULE(SEQUENCING_REQUIRED, 0, 0, NEVER, 1, 0, B(ICCN) | B(OCCN), 0),
	/* §4.4.5 */
	RULE(INITIAL_RCVD_LCP_CONFREQ, 0, ANY, MAY, 0, 0, B(ICCN), 0),
	RULE(LAST_SENT_LCP_CONFREQ, 0, ANY, MAY, 0, 0, B(ICCN), 0),
	RULE(LAST_RCVD_LCP_CONFREQ, 0, ANY, MAY, 0, 0, B(ICCN), 0),
	RULE(PROXY_AUTHEN_TYPE, 2, 2, MAY, 0, 0, B(ICCN), 0),
	RULE(PROXY_AUTHEN_NAME, 0, ANY, MAY, 0, 0, B(ICCN), 0),
	RULE(PROXY_AUTHEN_CHALLENGE, 1, ANY, MAY, 0, 0, B(ICCN), 0),
	RULE(PROXY_AUTHEN_ID, 2, 2, MAY, 0, 0, B(ICCN), 0),
	RULE(PROXY_AUTHEN_RESPONSE, 0, ANY, MAY, 0, 0, B(ICCN), 0),
	/* §4.4.6: Call Errors = 2 reserved + 6 counters of 4; ACCM = 2 + 4 + 4 */
	RULE(CALL_ERRORS, 26, 26, MAY, 1, 0, 0, B(WEN)),
	RULE(ACCM, 10, 10, MAY, 1, 0, 0, B(SLI)),
};

const struct l2tp_avp_rule *l2tp_avp_rule(uint16_t vendor, uint16_t type)
{
	/* Vendor-specific AVPs are not ours: unknown (§4.1) */
	if (vendor != L2TP_VENDOR_IETF || type >= L2TP_AVP_TYPE_COUNT)
		return NULL;
	if (!avp_rules[type].allowed)	/* type 20: not assigned */
		return NULL;
	return &avp_rules[type];
}

uint64_t l2tp_avp_required(uint16_t msg_type)
{
	static uint64_t req[32];
	static bool built;
	unsigned int t, m;

	if (!built) {
		for (t = 1; t < L2TP_AVP_TYPE_COUNT; t++)
			for (m = 0; m < 32; m++)
				if (avp_rules[t].required & (1u << m))
					req[m] |= 1ull << t;
		built = true;
	}
	return msg_type < 32 ? req[msg_type] : 0;
}

static int build_fail(struct l2tp_builder *b, int err)
{
	if (!b->error)
		b->error = err;
	return b->error;
}

/* Reserve an AVP of @len value octets and write its header. */
static uint8_t *avp_reserve(struct l2tp_builder *b, uint16_t flags,
			    uint16_t vendor, uint16_t type, size_t len)
{
	uint8_t *p;

	if (b->error)
		return NULL;
	if (len > L2TP_AVP_MAX_VALUE) {
		build_fail(b, -EMSGSIZE);
		return NULL;
	}
	if (b->cap - b->len < L2TP_AVP_HDR_LEN + len ||
	    b->len + L2TP_AVP_HDR_LEN + len > 0xffff) {
		build_fail(b, -ENOBUFS);
		return NULL;
	}
	p = b->buf + b->len;
	l2tp_put16(p, (uint16_t)(flags | (L2TP_AVP_HDR_LEN + len)));
	l2tp_put16(p + 2, vendor);
	l2tp_put16(p + 4, type);
	b->len += L2TP_AVP_HDR_LEN + len;
	return p + L2TP_AVP_HDR_LEN;
}

int l2tp_put_raw(struct l2tp_builder *b, uint16_t flags_len, uint16_t vendor,
		 uint16_t type, const void *value, size_t len)
{
	uint8_t *p;

	if (b->error)
		return b->error;
	if (b->cap - b->len < L2TP_AVP_HDR_LEN + len)
		return build_fail(b, -ENOBUFS);
	p = b->buf + b->len;
	l2tp_put16(p, flags_len);
	l2tp_put16(p + 2, vendor);
	l2tp_put16(p + 4, type);
	if (len)
		memcpy(p + L2TP_AVP_HDR_LEN, value, len);
	b->len += L2TP_AVP_HDR_LEN + len;
	return 0;
}

int l2tp_put_avp(struct l2tp_builder *b, uint16_t type, const void *value,
		 size_t len)
{
	const struct l2tp_avp_rule *rule = l2tp_avp_rule(0, type);
	uint8_t *p;

	if (!rule || len < rule->min_len || len > rule->max_len)
		return build_fail(b, -EINVAL);
	p = avp_reserve(b, rule->m_bit ? L2TP_AVP_M : 0, 0, type, len);
	if (!p)
		return b->error;
	if (len)
		memcpy(p, value, len);
	return 0;
}

int l2tp_put_u16(struct l2tp_builder *b, uint16_t type, uint16_t v)
{
	uint8_t be[2] = { (uint8_t)(v >> 8), (uint8_t)v };

	return l2tp_put_avp(b, type, be, 2);
}

int l2tp_put_u32(struct l2tp_builder *b, uint16_t type, uint32_t v)
{
	uint8_t be[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16),
			  (uint8_t)(v >> 8), (uint8_t)v };

	return l2tp_put_avp(b, type, be, 4);
}

int l2tp_put_u64(struct l2tp_builder *b, uint16_t type, uint64_t v)
{
	uint8_t be[8];
	unsigned int i;

	for (i = 0; i < 8; i++)
		be[i] = (uint8_t)(v >> (56 - 8 * i));
	return l2tp_put_avp(b, type, be, 8);
}

int l2tp_put_string(struct l2tp_builder *b, uint16_t type, const char *s)
{
	return l2tp_put_avp(b, type, s, strlen(s));
}

int l2tp_put_result(struct l2tp_builder *b, uint16_t result, int error,
		    const char *text)
{
	uint8_t v[4 + 64];
	size_t len = 2, tlen;

	l2tp_put16(v, result);
	if (error >= 0) {
		l2tp_put16(v + 2, (uint16_t)error);
		len = 4;
		tlen = text ? strnlen(text, sizeof(v) - 4) : 0;
		memcpy(v + 4, text ? text : "", tlen);
		len += tlen;
	}
	return l2tp_put_avp(b, L2TP_AVP_RESULT_CODE, v, len);
}

int l2tp_put_random_vector(struct l2tp_builder *b, const uint8_t *rv,
			   size_t len)
{
	if (l2tp_put_avp(b, L2TP_AVP_RANDOM_VECTOR, rv, len))
		return b->error;
	b->rv = b->buf + b->len - len;
	b->rv_len = len;
	return 0;
}

int l2tp_put_hidden(struct l2tp_builder *b, uint16_t type, const void *value,
		    size_t len, const uint8_t *pad, size_t pad_len)
{
	const struct l2tp_avp_rule *rule = l2tp_avp_rule(0, type);
	uint8_t *p;
	int n;

	if (!rule || rule->hiding != L2TP_HIDE_MAY ||
	    len < rule->min_len || len > rule->max_len)
		return build_fail(b, -EINVAL);
	if (!b->secret || !b->secret->len || !b->rv)
		return build_fail(b, -EPERM);	/* §4.3: secret and RV first */
	p = avp_reserve(b, (rule->m_bit ? L2TP_AVP_M : 0) | L2TP_AVP_H, 0, type,
			2 + len + pad_len);
	if (!p)
		return b->error;
	n = l2tp_hidden_encode(p, 2 + len + pad_len, type, b->secret, b->rv,
			       b->rv_len, value, len, pad, pad_len);
	if (n < 0)
		return build_fail(b, -EINVAL);
	return 0;
}

static void hdr_write(uint8_t *buf, uint16_t tunnel_id, uint16_t session_id)
{
	l2tp_put16(buf, L2TP_CTRL_FLAGS);
	l2tp_put16(buf + 2, L2TP_CTRL_HDR_LEN);
	l2tp_put16(buf + 4, tunnel_id);
	l2tp_put16(buf + 6, session_id);
	l2tp_put16(buf + 8, 0);
	l2tp_put16(buf + 10, 0);
}

void l2tp_build_begin(struct l2tp_builder *b, uint8_t *buf, size_t cap,
		      uint16_t tunnel_id, uint16_t session_id, uint16_t msg_type,
		      const struct l2tp_secret *secret)
{
	memset(b, 0, sizeof(*b));
	b->buf = buf;
	b->cap = cap;
	b->secret = secret;
	if (cap < L2TP_CTRL_HDR_LEN) {
		b->error = -ENOBUFS;
		return;
	}
	hdr_write(buf, tunnel_id, session_id);
	b->len = L2TP_CTRL_HDR_LEN;
	/* §4.4.1: Message Type first, M set for every type defined */
	l2tp_put_u16(b, L2TP_AVP_MESSAGE_TYPE, msg_type);
}

size_t l2tp_build_end(struct l2tp_builder *b)
{
	if (b->error)
		return 0;
	l2tp_put16(b->buf + 2, (uint16_t)b->len);
	return b->len;
}

size_t l2tp_build_zlb(uint8_t *buf, size_t cap, uint16_t tunnel_id,
		      uint16_t ns, uint16_t nr)
{
	if (cap < L2TP_CTRL_HDR_LEN)
		return 0;
	hdr_write(buf, tunnel_id, 0);
	l2tp_put16(buf + 8, ns);
	l2tp_put16(buf + 10, nr);
	return L2TP_CTRL_HDR_LEN;
}

void l2tp_avp_walk(const uint8_t *buf, size_t len, l2tp_avp_fn fn, void *arg)
{
	size_t off, end;

	if (len < L2TP_CTRL_HDR_LEN)
		return;
	end = l2tp_get16(buf + 2);
	if (end > len)
		end = len;
	for (off = L2TP_CTRL_HDR_LEN; end >= off + L2TP_AVP_HDR_LEN;) {
		uint16_t w = l2tp_get16(buf + off), alen = w & L2TP_AVP_LEN_MASK;

		if (alen < L2TP_AVP_HDR_LEN || alen > end - off)
			return;
		fn(arg, w, l2tp_get16(buf + off + 2), l2tp_get16(buf + off + 4),
		   buf + off + L2TP_AVP_HDR_LEN, alen - L2TP_AVP_HDR_LEN);
		off += alen;
	}
}
