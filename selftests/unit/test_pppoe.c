// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld: PPPoE discovery (S-ACC-1, RFC 2516 §4, §5, appendix A; RFC 4638
 * PPP-Max-Payload): every reason the parser gives, a PADI as Linux pppd's
 * rp-pppoe plugin sends it, the PADO, PADS and PADT we answer, the builders
 * at every capacity, the AC-Cookie, HMAC-MD5 against RFC 2202 and the
 * TR-101 relay tags.  The cookie vector was computed independently with
 * Python's hmac module.
 */
#include <errno.h>
#include <stdlib.h>

#include "harness.h"
#include "../../userspace/l2tpseld/md5.h"
#include "../../userspace/l2tpseld/pppoe.h"

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))
#define CANARY		0xa5

static const uint8_t mac1[6] = { 0x02, 0x00, 0x5e, 0x10, 0x20, 0x30 };
static const uint8_t mac2[6] = { 0x02, 0x00, 0x5e, 0x10, 0x20, 0x31 };

/*
 * A PADI as pppd 2.4.9's rp-pppoe plugin sends it with no "rp_pppoe_service":
 * an empty Service-Name and a Host-Uniq of its pid (4242, host order on
 * x86), padded by Ethernet to the 46-byte minimum payload.
 */
static const uint8_t padi_rp_pppoe[46] = {
	0x11, 0x09, 0x00, 0x00, 0x00, 0x0c,
	0x01, 0x01, 0x00, 0x00,				/* Service-Name "" */
	0x01, 0x03, 0x00, 0x04, 0x92, 0x10, 0x00, 0x00,	/* Host-Uniq */
	/* 28 bytes of Ethernet padding */
};

static const uint8_t cookie20[PPPOE_COOKIE_LEN] = {
	0x00, 0x00, 0x00, 0x07, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
};

/* Append a tag to a hand-made packet; LENGTH is fixed up by pkt_end(). */
static size_t pkt_tag(uint8_t *buf, size_t off, uint16_t type, const void *v, size_t len)
{
	buf[off] = (uint8_t)(type >> 8);
	buf[off + 1] = (uint8_t)type;
	buf[off + 2] = (uint8_t)(len >> 8);
	buf[off + 3] = (uint8_t)len;
	if (len)
		memcpy(buf + off + 4, v, len);
	return off + 4 + len;
}

static size_t pkt_start(uint8_t *buf, uint8_t code, uint16_t sid)
{
	buf[0] = PPPOE_VER_TYPE;
	buf[1] = code;
	buf[2] = (uint8_t)(sid >> 8);
	buf[3] = (uint8_t)sid;
	buf[4] = buf[5] = 0;
	return PPPOE_HDR_LEN;
}

static size_t pkt_end(uint8_t *buf, size_t off)
{
	buf[4] = (uint8_t)((off - PPPOE_HDR_LEN) >> 8);
	buf[5] = (uint8_t)(off - PPPOE_HDR_LEN);
	return off;
}

/* The @nth (from 0) tag of @type, found without the parser; -1 when none. */
static int find_tag(const uint8_t *buf, size_t len, uint16_t type, unsigned int nth,
		    const uint8_t **val)
{
	size_t off = PPPOE_HDR_LEN;

	while (off + 4 <= len) {
		uint16_t t = (uint16_t)(buf[off] << 8 | buf[off + 1]);
		uint16_t l = (uint16_t)(buf[off + 2] << 8 | buf[off + 3]);

		if (off + 4 + l > len)
			return -1;
		if (t == type && nth-- == 0) {
			*val = buf + off + 4;
			return l;
		}
		off += 4 + l;
	}
	return -1;
}

static unsigned int count_tags(const uint8_t *buf, size_t len, uint16_t type)
{
	const uint8_t *v;
	unsigned int n = 0;

	while (find_tag(buf, len, type, n, &v) >= 0)
		n++;
	return n;
}

static bool tv_eq(const struct pppoe_tagval *tv, const void *data, size_t len)
{
	return tv->present && tv->len == len && (!len || !memcmp(tv->data, data, len));
}

static const char *parse_why(const uint8_t *buf, size_t len)
{
	struct pppoe_disc p;
	const char *why = NULL;

	if (pppoe_disc_parse(buf, len, &p, &why) != -EBADMSG)
		return "(parsed)";
	return why;
}

/* --- parser errors ----------------------------------------------------- */

TEST(pppoe_parse_short_header)
{
	uint8_t b[6] = { 0x11, 0x09, 0, 0, 0, 0 };
	size_t n;

	for (n = 0; n < PPPOE_HDR_LEN; n++)
		EXPECT_STREQ(parse_why(b, n), "shorter than the PPPoE header");
	EXPECT_STREQ(parse_why(b, 6), "(parsed)");
}

TEST(pppoe_parse_bad_ver_type)
{
	static const uint8_t vt[] = { 0x00, 0x01, 0x10, 0x12, 0x21, 0x22, 0xff };
	uint8_t b[6] = { 0x11, 0x09, 0, 0, 0, 0 };
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(vt); i++) {
		b[0] = vt[i];
		EXPECT_STREQ(parse_why(b, sizeof(b)), "version/type not 0x11");
	}
}

TEST(pppoe_parse_length_beyond_frame)
{
	uint8_t b[10] = { 0x11, 0x09, 0, 0, 0, 4, 0x01, 0x01, 0, 0 };

	EXPECT_STREQ(parse_why(b, 10), "(parsed)");
	EXPECT_STREQ(parse_why(b, 9), "LENGTH beyond the frame");
	b[5] = 5;
	EXPECT_STREQ(parse_why(b, 10), "LENGTH beyond the frame");
	b[4] = 0xff;
	b[5] = 0xff;
	EXPECT_STREQ(parse_why(b, 10), "LENGTH beyond the frame");
}

TEST(pppoe_parse_tag_header_truncated)
{
	/* LENGTH 3 or 7: the (second) tag header has 3 of its 4 bytes */
	uint8_t b[16] = { 0x11, 0x09, 0, 0, 0, 3, 0x01, 0x01, 0x00 };

	EXPECT_STREQ(parse_why(b, sizeof(b)), "tag header truncated");
	b[5] = 7;
	b[9] = 0;
	b[10] = 0x01;
	b[11] = 0x03;
	b[12] = 0x00;
	EXPECT_STREQ(parse_why(b, sizeof(b)), "tag header truncated");
	b[5] = 1;
	EXPECT_STREQ(parse_why(b, sizeof(b)), "tag header truncated");
}

TEST(pppoe_parse_tag_beyond_length)
{
	/* the value would fit in the frame, but not in LENGTH */
	uint8_t b[20] = { 0x11, 0x09, 0, 0, 0, 6, 0x01, 0x01, 0x00, 0x03, 'a', 'b', 'c' };

	EXPECT_STREQ(parse_why(b, sizeof(b)), "tag beyond LENGTH");
	b[5] = 7;
	EXPECT_STREQ(parse_why(b, sizeof(b)), "(parsed)");
	b[8] = 0xff;
	b[9] = 0xff;
	EXPECT_STREQ(parse_why(b, sizeof(b)), "tag beyond LENGTH");
}

TEST(pppoe_parse_padi_with_sid)
{
	uint8_t b[10] = { 0x11, PPPOE_CODE_PADI, 0x00, 0x01, 0, 4, 0x01, 0x01, 0, 0 };

	EXPECT_STREQ(parse_why(b, sizeof(b)), "PADI with a session id");
	b[2] = 0x80;
	b[3] = 0;
	EXPECT_STREQ(parse_why(b, sizeof(b)), "PADI with a session id");
}

TEST(pppoe_parse_padr_with_sid)
{
	uint8_t b[10] = { 0x11, PPPOE_CODE_PADR, 0xff, 0xff, 0, 4, 0x01, 0x01, 0, 0 };

	EXPECT_STREQ(parse_why(b, sizeof(b)), "PADR with a session id");
	b[2] = b[3] = 0;
	EXPECT_STREQ(parse_why(b, sizeof(b)), "(parsed)");
}

TEST(pppoe_parse_padt_without_sid)
{
	uint8_t b[6] = { 0x11, PPPOE_CODE_PADT, 0, 0, 0, 0 };

	EXPECT_STREQ(parse_why(b, sizeof(b)), "PADT without a session id");
	b[3] = 1;
	EXPECT_STREQ(parse_why(b, sizeof(b)), "(parsed)");
}

TEST(pppoe_parse_unknown_code)
{
	static const uint8_t bad[] = { PPPOE_CODE_SESSION, 0x01, 0x08, 0x0a, 0x42, 0x66,
				       0xa6, 0xa8, 0xff };
	static const uint8_t good[] = { PPPOE_CODE_PADI, PPPOE_CODE_PADO, PPPOE_CODE_PADR,
					PPPOE_CODE_PADS, PPPOE_CODE_PADT };
	uint8_t b[6] = { 0x11, 0, 0, 1, 0, 0 };
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(bad); i++) {
		b[1] = bad[i];
		EXPECT_STREQ(parse_why(b, sizeof(b)), "unknown code");
	}
	for (i = 0; i < ARRAY_LEN(good); i++) {
		b[1] = good[i];
		b[3] = good[i] == PPPOE_CODE_PADI || good[i] == PPPOE_CODE_PADR ? 0 : 1;
		EXPECT_STREQ(parse_why(b, sizeof(b)), "(parsed)");
	}
}

/* Each reason is its own string; a NULL why is fine; success leaves it. */
TEST(pppoe_parse_reasons_distinct)
{
	static const uint8_t cases[][10] = {
		{ 0x11 },
		{ 0x12, 0x09 },
		{ 0x11, 0x09, 0, 0, 0, 9 },
		{ 0x11, 0x42, 0, 0, 0, 0 },
		{ 0x11, 0x09, 0, 1, 0, 0 },
		{ 0x11, 0x19, 0, 1, 0, 0 },
		{ 0x11, 0xa7, 0, 0, 0, 0 },
		{ 0x11, 0x09, 0, 0, 0, 2, 1, 1 },
		{ 0x11, 0x09, 0, 0, 0, 4, 1, 1, 0, 1 },
	};
	static const size_t lens[] = { 5, 10, 10, 10, 10, 10, 10, 10, 10 };
	const char *why[ARRAY_LEN(cases)];
	struct pppoe_disc p;
	const char *w = "unchanged";
	unsigned int i, j;

	for (i = 0; i < ARRAY_LEN(cases); i++) {
		why[i] = NULL;
		EXPECT_EQ(pppoe_disc_parse(cases[i], lens[i], &p, &why[i]), -EBADMSG);
		EXPECT_EQ(pppoe_disc_parse(cases[i], lens[i], &p, NULL), -EBADMSG);
		ASSERT_TRUE(why[i] != NULL);
		for (j = 0; j < i; j++)
			EXPECT_TRUE(strcmp(why[i], why[j]) != 0);
	}
	EXPECT_EQ(pppoe_disc_parse(padi_rp_pppoe, sizeof(padi_rp_pppoe), &p, &w), 0);
	EXPECT_STREQ(w, "unchanged");
}

/* --- what subscribers send --------------------------------------------- */

TEST(pppoe_padi_rp_pppoe)
{
	struct pppoe_disc p;

	ASSERT_EQ(pppoe_disc_parse(padi_rp_pppoe, sizeof(padi_rp_pppoe), &p, NULL), 0);
	EXPECT_EQ(p.code, PPPOE_CODE_PADI);
	EXPECT_EQ(p.sid, 0);
	EXPECT_EQ(p.length, 12);
	EXPECT_EQ(p.n_tags, 2);
	EXPECT_TRUE(p.service.present);
	EXPECT_EQ(p.service.len, 0);
	EXPECT_TRUE(p.service.data == padi_rp_pppoe + 10);
	EXPECT_TRUE(tv_eq(&p.host_uniq, "\x92\x10\x00\x00", 4));
	EXPECT_TRUE(p.host_uniq.data == padi_rp_pppoe + 14);
	EXPECT_TRUE(!p.ac_name.present && !p.cookie.present && !p.relay_sid.present);
	EXPECT_TRUE(!p.max_payload.present && !p.circuit_id.present && !p.remote_id.present);
	EXPECT_TRUE(!p.error.present && p.error_type == 0);
	EXPECT_TRUE(p.ac_name.data == NULL && p.cookie.data == NULL);
}

/* The PADO to that PADI, byte for byte. */
TEST(pppoe_pado_rp_pppoe_exact)
{
	static const uint8_t want[] = {
		0x11, 0x07, 0x00, 0x00, 0x00, 0x2f,
		0x01, 0x02, 0x00, 0x07, 'l', '2', 't', 'p', 's', 'e', 'l',
		0x01, 0x01, 0x00, 0x00,
		0x01, 0x04, 0x00, 0x14, 0x00, 0x00, 0x00, 0x07,
		1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
		0x01, 0x03, 0x00, 0x04, 0x92, 0x10, 0x00, 0x00,
	};
	const struct pppoe_offer o = { "l2tpsel", NULL, 0 };
	struct pppoe_disc p, a;
	uint8_t out[PPPOE_MAX_PAYLOAD];
	size_t n;

	ASSERT_EQ(pppoe_disc_parse(padi_rp_pppoe, sizeof(padi_rp_pppoe), &p, NULL), 0);
	EXPECT_TRUE(pppoe_service_ok(&o, &p.service));
	n = pppoe_build_pado(&o, &p, cookie20, out, sizeof(out));
	ASSERT_EQ(n, sizeof(want));
	EXPECT_TRUE(!memcmp(out, want, n));
	ASSERT_EQ(pppoe_disc_parse(out, n, &a, NULL), 0);
	EXPECT_EQ(a.code, PPPOE_CODE_PADO);
	EXPECT_TRUE(tv_eq(&a.ac_name, "l2tpsel", 7));
}

static size_t make_padi(uint8_t *b, const char *service, bool relay, const uint8_t *maxp,
			size_t maxp_len)
{
	size_t off = pkt_start(b, PPPOE_CODE_PADI, 0);

	off = pkt_tag(b, off, PPPOE_TAG_SERVICE_NAME, service, strlen(service));
	off = pkt_tag(b, off, PPPOE_TAG_HOST_UNIQ, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
	if (relay)
		off = pkt_tag(b, off, PPPOE_TAG_RELAY_SESSION_ID, "relay-12", 8);
	if (maxp)
		off = pkt_tag(b, off, PPPOE_TAG_PPP_MAX_PAYLOAD, maxp, maxp_len);
	return pkt_end(b, off);
}

TEST(pppoe_pado_named_service)
{
	static const char *const svc[] = { "internet", "voip" };
	const struct pppoe_offer o = { "ac1", svc, 2 };
	struct pppoe_disc p, a;
	uint8_t in[128], out[256];
	const uint8_t *v;
	size_t n;

	n = make_padi(in, "voip", false, NULL, 0);
	ASSERT_EQ(pppoe_disc_parse(in, n, &p, NULL), 0);
	EXPECT_TRUE(pppoe_service_ok(&o, &p.service));
	n = pppoe_build_pado(&o, &p, cookie20, out, sizeof(out));
	ASSERT_TRUE(n > 0);
	/* §5.2: the Service-Name identical to the PADI's, and only it */
	EXPECT_EQ(count_tags(out, n, PPPOE_TAG_SERVICE_NAME), 1);
	EXPECT_EQ(find_tag(out, n, PPPOE_TAG_SERVICE_NAME, 0, &v), 4);
	EXPECT_TRUE(!memcmp(v, "voip", 4));
	EXPECT_EQ(count_tags(out, n, PPPOE_TAG_AC_NAME), 1);
	ASSERT_EQ(pppoe_disc_parse(out, n, &a, NULL), 0);
	EXPECT_TRUE(tv_eq(&a.service, "voip", 4));
	EXPECT_TRUE(tv_eq(&a.ac_name, "ac1", 3));
}

TEST(pppoe_pado_several_services)
{
	static const char *const svc[] = { "internet", "voip", "iptv" };
	const struct pppoe_offer o = { "ac1", svc, 3 };
	struct pppoe_disc p;
	uint8_t in[128], out[256];
	const uint8_t *v;
	size_t n;

	n = make_padi(in, "", false, NULL, 0);
	ASSERT_EQ(pppoe_disc_parse(in, n, &p, NULL), 0);
	n = pppoe_build_pado(&o, &p, cookie20, out, sizeof(out));
	ASSERT_TRUE(n > 0);
	/* the empty one first (identical to the PADI's), then each offered */
	EXPECT_EQ(count_tags(out, n, PPPOE_TAG_SERVICE_NAME), 4);
	EXPECT_EQ(find_tag(out, n, PPPOE_TAG_SERVICE_NAME, 0, &v), 0);
	EXPECT_EQ(find_tag(out, n, PPPOE_TAG_SERVICE_NAME, 1, &v), 8);
	EXPECT_TRUE(!memcmp(v, "internet", 8));
	EXPECT_EQ(find_tag(out, n, PPPOE_TAG_SERVICE_NAME, 2, &v), 4);
	EXPECT_TRUE(!memcmp(v, "voip", 4));
	EXPECT_EQ(find_tag(out, n, PPPOE_TAG_SERVICE_NAME, 3, &v), 4);
	EXPECT_TRUE(!memcmp(v, "iptv", 4));
}

/* An offer of no service answers an empty request with one empty name. */
TEST(pppoe_pado_any_service)
{
	const struct pppoe_offer o = { NULL, NULL, 0 };
	struct pppoe_disc p, a;
	uint8_t in[128], out[256];
	const uint8_t *v;
	size_t n;

	n = make_padi(in, "", false, NULL, 0);
	ASSERT_EQ(pppoe_disc_parse(in, n, &p, NULL), 0);
	n = pppoe_build_pado(&o, &p, cookie20, out, sizeof(out));
	ASSERT_TRUE(n > 0);
	EXPECT_EQ(count_tags(out, n, PPPOE_TAG_SERVICE_NAME), 1);
	EXPECT_EQ(find_tag(out, n, PPPOE_TAG_SERVICE_NAME, 0, &v), 0);
	/* a NULL AC name gives an empty AC-Name: the tag is required */
	EXPECT_EQ(find_tag(out, n, PPPOE_TAG_AC_NAME, 0, &v), 0);
	ASSERT_EQ(pppoe_disc_parse(out, n, &a, NULL), 0);
	EXPECT_TRUE(tv_eq(&a.ac_name, "", 0));
	EXPECT_TRUE(tv_eq(&a.service, "", 0));
}

TEST(pppoe_pado_echoes)
{
	static const char *const svc[] = { "internet", "voip" };
	const struct pppoe_offer o = { "ac1", svc, 2 };
	struct pppoe_disc p, a;
	uint8_t in[128], out[256];
	const uint8_t *v;
	size_t n;

	n = make_padi(in, "", true, (const uint8_t *)"\x05\xdc", 2);
	ASSERT_EQ(pppoe_disc_parse(in, n, &p, NULL), 0);
	EXPECT_TRUE(tv_eq(&p.max_payload, "\x05\xdc", 2));
	n = pppoe_build_pado(&o, &p, cookie20, out, sizeof(out));
	ASSERT_TRUE(n > 0);
	EXPECT_EQ(out[1], PPPOE_CODE_PADO);
	EXPECT_EQ(out[2] | out[3], 0);
	EXPECT_EQ(count_tags(out, n, PPPOE_TAG_HOST_UNIQ), 1);
	EXPECT_EQ(count_tags(out, n, PPPOE_TAG_RELAY_SESSION_ID), 1);
	EXPECT_EQ(count_tags(out, n, PPPOE_TAG_AC_COOKIE), 1);
	EXPECT_EQ(find_tag(out, n, PPPOE_TAG_AC_COOKIE, 0, &v), PPPOE_COOKIE_LEN);
	EXPECT_TRUE(!memcmp(v, cookie20, PPPOE_COOKIE_LEN));
	ASSERT_EQ(pppoe_disc_parse(out, n, &a, NULL), 0);
	EXPECT_TRUE(tv_eq(&a.host_uniq, "\x01\x02\x03\x04\x05\x06\x07\x08", 8));
	EXPECT_TRUE(tv_eq(&a.relay_sid, "relay-12", 8));
	EXPECT_TRUE(tv_eq(&a.cookie, cookie20, PPPOE_COOKIE_LEN));
	EXPECT_TRUE(tv_eq(&a.max_payload, "\x05\xdc", 2));
	EXPECT_TRUE(!a.error.present);

	/* no PPP-Max-Payload asked, none given; a malformed one is not echoed */
	n = make_padi(in, "", false, NULL, 0);
	ASSERT_EQ(pppoe_disc_parse(in, n, &p, NULL), 0);
	n = pppoe_build_pado(&o, &p, cookie20, out, sizeof(out));
	ASSERT_TRUE(n > 0);
	EXPECT_EQ(count_tags(out, n, PPPOE_TAG_PPP_MAX_PAYLOAD), 0);
	EXPECT_EQ(count_tags(out, n, PPPOE_TAG_RELAY_SESSION_ID), 0);
	n = make_padi(in, "", false, (const uint8_t *)"\x05\xdc\x00", 3);
	ASSERT_EQ(pppoe_disc_parse(in, n, &p, NULL), 0);
	n = pppoe_build_pado(&o, &p, cookie20, out, sizeof(out));
	ASSERT_TRUE(n > 0);
	EXPECT_EQ(count_tags(out, n, PPPOE_TAG_PPP_MAX_PAYLOAD), 0);

	/* without a cookie, no AC-Cookie tag */
	n = pppoe_build_pado(&o, &p, NULL, out, sizeof(out));
	ASSERT_TRUE(n > 0);
	EXPECT_EQ(count_tags(out, n, PPPOE_TAG_AC_COOKIE), 0);
}

TEST(pppoe_service_ok)
{
	static const char *const svc[] = { "internet", "voip" };
	const struct pppoe_offer named = { "ac", svc, 2 }, any = { "ac", NULL, 0 };
	struct pppoe_tagval empty = { (const uint8_t *)"", 0, true };
	struct pppoe_tagval voip = { (const uint8_t *)"voip", 4, true };
	struct pppoe_tagval vo = { (const uint8_t *)"voip", 2, true };
	struct pppoe_tagval iptv = { (const uint8_t *)"iptv", 4, true };
	struct pppoe_tagval absent = { NULL, 0, false };

	EXPECT_TRUE(pppoe_service_ok(&named, &empty));
	EXPECT_TRUE(pppoe_service_ok(&named, &voip));
	EXPECT_TRUE(!pppoe_service_ok(&named, &vo));
	EXPECT_TRUE(!pppoe_service_ok(&named, &iptv));
	EXPECT_TRUE(!pppoe_service_ok(&named, &absent));
	EXPECT_TRUE(!pppoe_service_ok(&named, NULL));
	EXPECT_TRUE(pppoe_service_ok(&any, &empty));
	EXPECT_TRUE(pppoe_service_ok(&any, &iptv));
	EXPECT_TRUE(!pppoe_service_ok(&any, &absent));
}

static size_t make_padr(uint8_t *b, const char *service, bool maxp)
{
	size_t off = pkt_start(b, PPPOE_CODE_PADR, 0);

	off = pkt_tag(b, off, PPPOE_TAG_SERVICE_NAME, service, strlen(service));
	off = pkt_tag(b, off, PPPOE_TAG_HOST_UNIQ, "hu", 2);
	off = pkt_tag(b, off, PPPOE_TAG_AC_COOKIE, cookie20, sizeof(cookie20));
	off = pkt_tag(b, off, PPPOE_TAG_RELAY_SESSION_ID, "\xde\xad\xbe\xef", 4);
	if (maxp)
		off = pkt_tag(b, off, PPPOE_TAG_PPP_MAX_PAYLOAD, "\x05\xdc", 2);
	return pkt_end(b, off);
}

TEST(pppoe_pads_success)
{
	struct pppoe_disc p, a;
	uint8_t in[128], out[256];
	size_t n;

	n = make_padr(in, "internet", true);
	ASSERT_EQ(pppoe_disc_parse(in, n, &p, NULL), 0);
	EXPECT_EQ(p.code, PPPOE_CODE_PADR);
	EXPECT_TRUE(tv_eq(&p.cookie, cookie20, sizeof(cookie20)));
	/* error text and flag are ignored with a session id */
	n = pppoe_build_pads(&p, 0x1234, true, "ignored", out, sizeof(out));
	ASSERT_TRUE(n > 0);
	ASSERT_EQ(pppoe_disc_parse(out, n, &a, NULL), 0);
	EXPECT_EQ(a.code, PPPOE_CODE_PADS);
	EXPECT_EQ(a.sid, 0x1234);
	EXPECT_TRUE(tv_eq(&a.service, "internet", 8));
	EXPECT_TRUE(tv_eq(&a.host_uniq, "hu", 2));
	EXPECT_TRUE(tv_eq(&a.relay_sid, "\xde\xad\xbe\xef", 4));
	EXPECT_TRUE(tv_eq(&a.max_payload, "\x05\xdc", 2));
	EXPECT_TRUE(!a.error.present && !a.cookie.present && a.error_type == 0);
	EXPECT_EQ(a.n_tags, 4);
}

static void check_refusal(bool service_error, uint16_t want_type)
{
	static const char text[] = "no such service";
	struct pppoe_disc p, a;
	uint8_t in[128], out[256];
	const uint8_t *v;
	size_t n;

	n = make_padr(in, "iptv", true);
	ASSERT_EQ(pppoe_disc_parse(in, n, &p, NULL), 0);
	n = pppoe_build_pads(&p, 0, service_error, text, out, sizeof(out));
	ASSERT_TRUE(n > 0);
	ASSERT_EQ(pppoe_disc_parse(out, n, &a, NULL), 0);
	EXPECT_EQ(a.code, PPPOE_CODE_PADS);
	EXPECT_EQ(a.sid, 0);
	EXPECT_EQ(a.error_type, want_type);
	/* the text without its NUL */
	EXPECT_TRUE(tv_eq(&a.error, text, strlen(text)));
	EXPECT_EQ(find_tag(out, n, want_type, 0, &v), (int)strlen(text));
	EXPECT_EQ(count_tags(out, n, service_error ? PPPOE_TAG_AC_SYSTEM_ERROR :
			     PPPOE_TAG_SERVICE_NAME_ERROR), 0);
	EXPECT_TRUE(tv_eq(&a.host_uniq, "hu", 2));
	EXPECT_TRUE(tv_eq(&a.relay_sid, "\xde\xad\xbe\xef", 4));
	EXPECT_TRUE(!a.max_payload.present);

	/* without a text, an empty error value */
	n = pppoe_build_pads(&p, 0, service_error, NULL, out, sizeof(out));
	ASSERT_TRUE(n > 0);
	ASSERT_EQ(pppoe_disc_parse(out, n, &a, NULL), 0);
	EXPECT_EQ(a.error_type, want_type);
	EXPECT_TRUE(tv_eq(&a.error, "", 0));
}

TEST(pppoe_pads_service_name_error)
{
	check_refusal(true, PPPOE_TAG_SERVICE_NAME_ERROR);
}

TEST(pppoe_pads_ac_system_error)
{
	check_refusal(false, PPPOE_TAG_AC_SYSTEM_ERROR);
}

TEST(pppoe_padt)
{
	const struct pppoe_tagval hu = { (const uint8_t *)"\x11\x22\x33", 3, true };
	const struct pppoe_tagval no_hu = { NULL, 0, false };
	static const uint8_t bare[] = { 0x11, 0xa7, 0xbe, 0xef, 0x00, 0x00 };
	struct pppoe_disc a;
	uint8_t out[128];
	size_t n;

	n = pppoe_build_padt(0xbeef, NULL, NULL, out, sizeof(out));
	ASSERT_EQ(n, sizeof(bare));
	EXPECT_TRUE(!memcmp(out, bare, n));
	n = pppoe_build_padt(0xbeef, &no_hu, NULL, out, sizeof(out));
	ASSERT_EQ(n, sizeof(bare));
	EXPECT_TRUE(!memcmp(out, bare, n));

	n = pppoe_build_padt(0xbeef, &hu, "session closed", out, sizeof(out));
	ASSERT_EQ(n, PPPOE_HDR_LEN + 4 + 3 + 4 + 14);
	ASSERT_EQ(pppoe_disc_parse(out, n, &a, NULL), 0);
	EXPECT_EQ(a.code, PPPOE_CODE_PADT);
	EXPECT_EQ(a.sid, 0xbeef);
	EXPECT_TRUE(tv_eq(&a.host_uniq, "\x11\x22\x33", 3));
	EXPECT_EQ(a.error_type, PPPOE_TAG_GENERIC_ERROR);
	EXPECT_TRUE(tv_eq(&a.error, "session closed", 14));

	n = pppoe_build_padt(0xbeef, &hu, NULL, out, sizeof(out));
	ASSERT_TRUE(n > 0);
	ASSERT_EQ(pppoe_disc_parse(out, n, &a, NULL), 0);
	EXPECT_TRUE(!a.error.present && a.error_type == 0);

	/* §5.5: a PADT names its session */
	EXPECT_EQ(pppoe_build_padt(0, &hu, "x", out, sizeof(out)), 0);
}

/* --- builders at every capacity ---------------------------------------- */

enum answer { ANS_PADO, ANS_PADS, ANS_PADS_REFUSAL, ANS_PADT, ANS_COUNT };

static size_t build_answer(enum answer w, const struct pppoe_disc *req, uint8_t *out, size_t cap)
{
	static const char *const svc[] = { "internet", "voip" };
	const struct pppoe_offer o = { "access-concentrator", svc, 2 };

	switch (w) {
	case ANS_PADO:
		return pppoe_build_pado(&o, req, cookie20, out, cap);
	case ANS_PADS:
		return pppoe_build_pads(req, 7, false, NULL, out, cap);
	case ANS_PADS_REFUSAL:
		return pppoe_build_pads(req, 0, true, "refused", out, cap);
	default:
		return pppoe_build_padt(7, &req->host_uniq, "bye", out, cap);
	}
}

TEST(pppoe_build_overflow_every_cap)
{
	uint8_t in[128], ref[256], out[256 + 16];
	unsigned int w, bad_len, bad_write;
	struct pppoe_disc p;
	size_t n, cap, i, full;

	n = make_padi(in, "", true, (const uint8_t *)"\x05\xdc", 2);
	ASSERT_EQ(pppoe_disc_parse(in, n, &p, NULL), 0);
	for (w = 0; w < ANS_COUNT; w++) {
		full = build_answer(w, &p, ref, sizeof(ref));
		ASSERT_TRUE(full > PPPOE_HDR_LEN);
		bad_len = bad_write = 0;
		for (cap = 0; cap <= full; cap++) {
			memset(out, CANARY, sizeof(out));
			n = build_answer(w, &p, out, cap);
			if (n != (cap == full ? full : 0)) {
				th_log("answer %u cap %zu: length %zu", w, cap, n);
				bad_len++;
			}
			for (i = cap; i < sizeof(out); i++)
				if (out[i] != CANARY) {
					th_log("answer %u cap %zu: wrote at %zu", w, cap, i);
					bad_write++;
					break;
				}
		}
		EXPECT_EQ(bad_len, 0);
		EXPECT_EQ(bad_write, 0);
		EXPECT_TRUE(!memcmp(out, ref, full));
	}
}

TEST(pppoe_builder)
{
	struct pppoe_builder b;
	uint8_t buf[64], *big;

	memset(buf, CANARY, sizeof(buf));
	pppoe_build_start(&b, buf, 5, PPPOE_CODE_PADO, 0);
	EXPECT_TRUE(b.overflow);
	pppoe_build_tag(&b, PPPOE_TAG_AC_NAME, "x", 1);
	EXPECT_EQ(pppoe_build_end(&b), 0);
	EXPECT_EQ(buf[0], CANARY);

	/* after an overflow, not even a tag that would fit is written */
	pppoe_build_start(&b, buf, 16, PPPOE_CODE_PADO, 0);
	pppoe_build_tag(&b, PPPOE_TAG_AC_NAME, "0123456789", 10);
	EXPECT_TRUE(b.overflow);
	pppoe_build_tag(&b, PPPOE_TAG_SERVICE_NAME, NULL, 0);
	EXPECT_EQ(b.len, PPPOE_HDR_LEN);
	EXPECT_EQ(pppoe_build_end(&b), 0);
	EXPECT_EQ(buf[6], CANARY);

	pppoe_build_start(&b, buf, 10, PPPOE_CODE_PADS, 0x0102);
	pppoe_build_tag(&b, PPPOE_TAG_SERVICE_NAME, NULL, 0);
	ASSERT_EQ(pppoe_build_end(&b), 10);
	EXPECT_TRUE(!memcmp(buf, "\x11\x65\x01\x02\x00\x04\x01\x01\x00\x00", 10));

	/* TAG_LENGTH and LENGTH are 16 bits, whatever the capacity */
	big = calloc(1, 0x30000);
	ASSERT_TRUE(big != NULL);
	pppoe_build_start(&b, big, 0x20000, PPPOE_CODE_PADO, 0);
	pppoe_build_tag(&b, PPPOE_TAG_AC_NAME, big + 0x20000, 0x10000);
	EXPECT_TRUE(b.overflow);
	pppoe_build_start(&b, big, 0x20000, PPPOE_CODE_PADO, 0);
	pppoe_build_tag(&b, PPPOE_TAG_AC_NAME, big + 0x20000, 0xfffc);
	EXPECT_TRUE(b.overflow);
	pppoe_build_start(&b, big, 0x20000, PPPOE_CODE_PADO, 0);
	pppoe_build_tag(&b, PPPOE_TAG_AC_NAME, big + 0x20000, 0xfff0);
	pppoe_build_tag(&b, PPPOE_TAG_SERVICE_NAME, big + 0x20000, 12);
	EXPECT_TRUE(b.overflow);
	EXPECT_EQ(pppoe_build_end(&b), 0);
	pppoe_build_start(&b, big, 0x20000, PPPOE_CODE_PADO, 0);
	pppoe_build_tag(&b, PPPOE_TAG_AC_NAME, big + 0x20000, 0xfffb);
	EXPECT_TRUE(!b.overflow);
	EXPECT_EQ(pppoe_build_end(&b), PPPOE_HDR_LEN + 0xffff);
	EXPECT_EQ(big[4], 0xff);
	EXPECT_EQ(big[5], 0xff);
	free(big);
}

/* --- the AC-Cookie ----------------------------------------------------- */

static void keys_init(struct pppoe_cookie_keys *k)
{
	unsigned int i;

	memset(k, 0, sizeof(*k));
	k->epoch = 7;
	for (i = 0; i < PPPOE_SECRET_LEN; i++)
		k->cur[i] = (uint8_t)i;
}

static void secret_fill(uint8_t s[PPPOE_SECRET_LEN], uint8_t seed)
{
	unsigned int i;

	for (i = 0; i < PPPOE_SECRET_LEN; i++)
		s[i] = (uint8_t)(seed * 31 + i * 7);
}

TEST(pppoe_cookie_vector)
{
	static const uint8_t want[PPPOE_COOKIE_LEN] = {
		0x00, 0x00, 0x00, 0x07, 0x5c, 0xa0, 0xd9, 0xe4, 0x0d, 0x08,
		0x4e, 0x95, 0xd4, 0xd9, 0x27, 0x55, 0xc9, 0xdb, 0x45, 0x7c,
	};
	struct pppoe_cookie_keys k;
	uint8_t c[PPPOE_COOKIE_LEN];

	keys_init(&k);
	pppoe_cookie_make(&k, mac1, 3, c);
	EXPECT_TRUE(!memcmp(c, want, sizeof(want)));
	EXPECT_TRUE(pppoe_cookie_check(&k, mac1, 3, want, sizeof(want)));
}

TEST(pppoe_cookie_epochs)
{
	struct pppoe_cookie_keys k;
	uint8_t c[PPPOE_COOKIE_LEN], fresh[PPPOE_SECRET_LEN];

	keys_init(&k);
	pppoe_cookie_make(&k, mac1, 3, c);
	EXPECT_TRUE(pppoe_cookie_check(&k, mac1, 3, c, sizeof(c)));
	secret_fill(fresh, 1);
	pppoe_cookie_rotate(&k, fresh);
	EXPECT_EQ(k.epoch, 8);
	EXPECT_TRUE(k.has_prev);
	/* the previous epoch's cookie is still good */
	EXPECT_TRUE(pppoe_cookie_check(&k, mac1, 3, c, sizeof(c)));
	secret_fill(fresh, 2);
	pppoe_cookie_rotate(&k, fresh);
	/* two rotations later it is not */
	EXPECT_TRUE(!pppoe_cookie_check(&k, mac1, 3, c, sizeof(c)));
	pppoe_cookie_make(&k, mac1, 3, c);
	EXPECT_TRUE(pppoe_cookie_check(&k, mac1, 3, c, sizeof(c)));
	EXPECT_EQ(c[3], 9);
}

/* A cookie of epoch - 1 before any rotation, or of a future epoch, is bad. */
TEST(pppoe_cookie_other_epoch)
{
	struct pppoe_cookie_keys k, other;
	uint8_t c[PPPOE_COOKIE_LEN], same[PPPOE_SECRET_LEN];

	keys_init(&k);
	other = k;
	other.epoch = k.epoch - 1;
	pppoe_cookie_make(&other, mac1, 3, c);
	EXPECT_TRUE(!pppoe_cookie_check(&k, mac1, 3, c, sizeof(c)));
	other.epoch = k.epoch + 1;
	pppoe_cookie_make(&other, mac1, 3, c);
	EXPECT_TRUE(!pppoe_cookie_check(&k, mac1, 3, c, sizeof(c)));

	/* the epoch wraps */
	k.epoch = 0xffffffff;
	pppoe_cookie_make(&k, mac1, 3, c);
	memcpy(same, k.cur, sizeof(same));
	pppoe_cookie_rotate(&k, same);
	EXPECT_EQ(k.epoch, 0);
	EXPECT_TRUE(pppoe_cookie_check(&k, mac1, 3, c, sizeof(c)));
}

TEST(pppoe_cookie_other_mac_ifindex)
{
	struct pppoe_cookie_keys k;
	uint8_t c[PPPOE_COOKIE_LEN], fresh[PPPOE_SECRET_LEN];

	keys_init(&k);
	pppoe_cookie_make(&k, mac1, 3, c);
	EXPECT_TRUE(!pppoe_cookie_check(&k, mac2, 3, c, sizeof(c)));
	EXPECT_TRUE(!pppoe_cookie_check(&k, mac1, 4, c, sizeof(c)));
	EXPECT_TRUE(!pppoe_cookie_check(&k, mac1, 3u | 1u << 24, c, sizeof(c)));
	secret_fill(fresh, 1);
	pppoe_cookie_rotate(&k, fresh);
	EXPECT_TRUE(pppoe_cookie_check(&k, mac1, 3, c, sizeof(c)));
	EXPECT_TRUE(!pppoe_cookie_check(&k, mac2, 3, c, sizeof(c)));
	EXPECT_TRUE(!pppoe_cookie_check(&k, mac1, 4, c, sizeof(c)));
}

TEST(pppoe_cookie_flipped_bits)
{
	struct pppoe_cookie_keys k;
	uint8_t c[PPPOE_COOKIE_LEN], fresh[PPPOE_SECRET_LEN];
	unsigned int i, bit, bad = 0;

	keys_init(&k);
	secret_fill(fresh, 1);
	pppoe_cookie_rotate(&k, fresh);
	pppoe_cookie_make(&k, mac1, 3, c);
	for (i = 0; i < PPPOE_COOKIE_LEN; i++)
		for (bit = 0; bit < 8; bit++) {
			c[i] ^= (uint8_t)(1u << bit);
			if (pppoe_cookie_check(&k, mac1, 3, c, sizeof(c)))
				bad++;
			c[i] ^= (uint8_t)(1u << bit);
		}
	EXPECT_EQ(bad, 0);
	EXPECT_TRUE(pppoe_cookie_check(&k, mac1, 3, c, sizeof(c)));
}

TEST(pppoe_cookie_wrong_length)
{
	struct pppoe_cookie_keys k;
	uint8_t c[PPPOE_COOKIE_LEN + 1];
	size_t len;

	keys_init(&k);
	pppoe_cookie_make(&k, mac1, 3, c);
	c[PPPOE_COOKIE_LEN] = 0;
	for (len = 0; len <= sizeof(c); len++)
		EXPECT_EQ(pppoe_cookie_check(&k, mac1, 3, c, len), len == PPPOE_COOKIE_LEN);
	EXPECT_TRUE(!pppoe_cookie_check(&k, mac1, 3, NULL, 0));
}

/* The cookie goes out in the PADO and comes back in the PADR. */
TEST(pppoe_cookie_round_trip)
{
	const struct pppoe_offer o = { "ac1", NULL, 0 };
	struct pppoe_cookie_keys k;
	struct pppoe_disc p, a;
	uint8_t c[PPPOE_COOKIE_LEN], out[256];
	size_t n;

	keys_init(&k);
	ASSERT_EQ(pppoe_disc_parse(padi_rp_pppoe, sizeof(padi_rp_pppoe), &p, NULL), 0);
	pppoe_cookie_make(&k, mac1, 3, c);
	n = pppoe_build_pado(&o, &p, c, out, sizeof(out));
	ASSERT_TRUE(n > 0);
	ASSERT_EQ(pppoe_disc_parse(out, n, &a, NULL), 0);
	EXPECT_TRUE(pppoe_cookie_check(&k, mac1, 3, a.cookie.data, a.cookie.len));
	EXPECT_TRUE(!pppoe_cookie_check(&k, mac2, 3, a.cookie.data, a.cookie.len));
}

/* RFC 2202 §2, test cases 1 to 7 */
TEST(hmac_md5_rfc2202)
{
	static const struct {
		uint8_t key_byte;
		size_t key_len;
		uint8_t data_byte;	/* 0: data is the string */
		size_t data_len;
		const char *data, *digest;
	} v[] = {
		{ 0x0b, 16, 0, 0, "Hi There", "9294727a3638bb1c13f48ef8158bfc9d" },
		{ 0, 0, 0, 0, "what do ya want for nothing?", "750c783e6ab0b503eaa86e310a5db738" },
		{ 0xaa, 16, 0xdd, 50, NULL, "56be34521d144c88dbb8c733f0e8b3f6" },
		{ 0, 25, 0xcd, 50, NULL, "697eaf0aca3a3aea3a75164746ffaa79" },
		{ 0x0c, 16, 0, 0, "Test With Truncation", "56461ef2342edc00f9bab995690efd4c" },
		{ 0xaa, 80, 0, 0, "Test Using Larger Than Block-Size Key - Hash Key First",
		  "6b1ab7fe4bd7bf8f0b62e6ce61b9d0cd" },
		{ 0xaa, 80, 0, 0, "Test Using Larger Than Block-Size Key and Larger "
		  "Than One Block-Size Data", "6f630fad67cda0ee1fb1f562db3aa53e" },
	};
	uint8_t key[80], data[50], d[16];
	char h[33];
	unsigned int i, j;

	for (i = 0; i < ARRAY_LEN(v); i++) {
		const uint8_t *kp = key, *dp = data;
		size_t klen = v[i].key_len, dlen = v[i].data_len;

		if (i == 1) {			/* key "Jefe" */
			kp = (const uint8_t *)"Jefe";
			klen = 4;
		} else if (i == 3) {		/* key 0x01 0x02 ... 0x19 */
			for (j = 0; j < 25; j++)
				key[j] = (uint8_t)(j + 1);
		} else {
			memset(key, v[i].key_byte, klen);
		}
		if (v[i].data) {
			dp = (const uint8_t *)v[i].data;
			dlen = strlen(v[i].data);
		} else {
			memset(data, v[i].data_byte, dlen);
		}
		hmac_md5(kp, klen, dp, dlen, d);
		for (j = 0; j < 16; j++)
			sprintf(h + 2 * j, "%02x", d[j]);
		EXPECT_STREQ(h, v[i].digest);
	}
}

/* --- tags ------------------------------------------------------------- */

static size_t bbf_tag(uint8_t *b, size_t off, const uint8_t *subs, size_t len)
{
	uint8_t v[300] = { 0x00, 0x00, 0x0d, 0xe9 };

	if (len)
		memcpy(v + 4, subs, len);
	return pkt_tag(b, off, PPPOE_TAG_VENDOR_SPECIFIC, v, 4 + len);
}

TEST(pppoe_tr101_ids)
{
	static const uint8_t subs[] = {
		0x01, 0x0d, 'e', 't', 'h', ' ', '1', '/', '1', '/', '2', ':', '1', '0', '0',
		0x81, 0x04, 0x00, 0x00, 0x27, 0x10,	/* actual data rate upstream */
		0x02, 0x06, 'c', 'p', 'e', '-', '4', '2',
	};
	struct pppoe_disc p;
	uint8_t b[128];
	size_t off;

	off = pkt_start(b, PPPOE_CODE_PADI, 0);
	off = pkt_tag(b, off, PPPOE_TAG_SERVICE_NAME, NULL, 0);
	off = bbf_tag(b, off, subs, sizeof(subs));
	off = pkt_end(b, off);
	ASSERT_EQ(pppoe_disc_parse(b, off, &p, NULL), 0);
	EXPECT_TRUE(tv_eq(&p.circuit_id, "eth 1/1/2:100", 13));
	EXPECT_TRUE(tv_eq(&p.remote_id, "cpe-42", 6));
	EXPECT_EQ(p.n_tags, 2);
	EXPECT_EQ(p.rate_up, 10000u);
	EXPECT_EQ(p.rate_down, 0u);
}

/*
 * TR-101's Actual-Data-Rate sub-options (0x81 upstream, 0x82 downstream,
 * kb/s, RFC 4679 section 3) become the ICCN's Rx and (Tx) Connect Speed in
 * bits per second (RFC 2661 section 4.4.5); a rate not given leaves the
 * default, one of another length is ignored, a huge one is clamped.
 */
TEST(pppoe_tr101_line_rates)
{
	static const uint8_t both[] = { 0x82, 0x04, 0x00, 0x01, 0x86, 0xa0,	/* 100000 kb/s */
					0x81, 0x04, 0x00, 0x00, 0x4e, 0x20 };	/* 20000 kb/s */
	static const uint8_t huge[] = { 0x82, 0x04, 0x00, 0x4c, 0x4b, 0x40,	/* 5000000 kb/s */
					0x81, 0x03, 0x00, 0x4e, 0x20 };		/* 3 octets */
	struct pppoe_disc p;
	uint32_t tx, rx;
	uint8_t b[128];
	size_t off;

	off = pkt_start(b, PPPOE_CODE_PADR, 0);
	off = bbf_tag(b, off, both, sizeof(both));
	ASSERT_EQ(pppoe_disc_parse(b, pkt_end(b, off), &p, NULL), 0);
	tx = rx = 7;
	pppoe_connect_speed(&p, &tx, &rx);
	EXPECT_EQ(tx, 100000000u);
	EXPECT_EQ(rx, 20000000u);

	off = pkt_start(b, PPPOE_CODE_PADR, 0);
	off = bbf_tag(b, off, huge, sizeof(huge));
	ASSERT_EQ(pppoe_disc_parse(b, pkt_end(b, off), &p, NULL), 0);
	tx = rx = 7;
	pppoe_connect_speed(&p, &tx, &rx);
	EXPECT_EQ(tx, UINT32_MAX);
	EXPECT_EQ(rx, 7u);

	/* no BBF tag: both left as they were */
	off = pkt_start(b, PPPOE_CODE_PADR, 0);
	ASSERT_EQ(pppoe_disc_parse(b, pkt_end(b, off), &p, NULL), 0);
	tx = rx = 7;
	pppoe_connect_speed(&p, &tx, &rx);
	EXPECT_EQ(tx, 7u);
	EXPECT_EQ(rx, 7u);
}

TEST(pppoe_tr101_malformed)
{
	/* the remote id's length runs past the tag: neither id is taken */
	static const uint8_t bad[] = { 0x01, 0x02, 'c', '1', 0x02, 0x07, 'r', '1' };
	static const uint8_t odd[] = { 0x01, 0x02, 'c', '1', 0x02 };
	static const uint8_t good[] = { 0x01, 0x02, 'c', '2', 0x02, 0x00 };
	uint8_t b[128], other[] = { 0x00, 0x00, 0x00, 0x09, 0x01, 0x01, 'x' };
	struct pppoe_disc p;
	size_t off;

	off = pkt_start(b, PPPOE_CODE_PADR, 0);
	off = bbf_tag(b, off, bad, sizeof(bad));
	ASSERT_EQ(pppoe_disc_parse(b, pkt_end(b, off), &p, NULL), 0);
	EXPECT_TRUE(!p.circuit_id.present && !p.remote_id.present);

	off = pkt_start(b, PPPOE_CODE_PADR, 0);
	off = bbf_tag(b, off, odd, sizeof(odd));
	ASSERT_EQ(pppoe_disc_parse(b, pkt_end(b, off), &p, NULL), 0);
	EXPECT_TRUE(!p.circuit_id.present && !p.remote_id.present);

	/* another vendor's tag, one too short for a vendor id: ignored */
	off = pkt_start(b, PPPOE_CODE_PADR, 0);
	off = pkt_tag(b, off, PPPOE_TAG_VENDOR_SPECIFIC, other, sizeof(other));
	off = pkt_tag(b, off, PPPOE_TAG_VENDOR_SPECIFIC, "\x00\x00\x0d", 3);
	/* then a bad BBF tag and a good one: the good one counts */
	off = bbf_tag(b, off, bad, sizeof(bad));
	off = bbf_tag(b, off, good, sizeof(good));
	off = bbf_tag(b, off, (const uint8_t *)"\x01\x01z", 3);
	ASSERT_EQ(pppoe_disc_parse(b, pkt_end(b, off), &p, NULL), 0);
	EXPECT_TRUE(tv_eq(&p.circuit_id, "c2", 2));
	EXPECT_TRUE(tv_eq(&p.remote_id, "", 0));
	EXPECT_EQ(p.n_tags, 5);

	/* a BBF tag of only the vendor id carries nothing */
	off = pkt_start(b, PPPOE_CODE_PADR, 0);
	off = bbf_tag(b, off, NULL, 0);
	ASSERT_EQ(pppoe_disc_parse(b, pkt_end(b, off), &p, NULL), 0);
	EXPECT_TRUE(!p.circuit_id.present && !p.remote_id.present);
}

TEST(pppoe_end_of_list)
{
	struct pppoe_disc p;
	uint8_t b[64];
	size_t off;

	off = pkt_start(b, PPPOE_CODE_PADI, 0);
	off = pkt_tag(b, off, PPPOE_TAG_SERVICE_NAME, NULL, 0);
	off = pkt_tag(b, off, PPPOE_TAG_END_OF_LIST, NULL, 0);
	off = pkt_tag(b, off, PPPOE_TAG_HOST_UNIQ, "late", 4);
	/* and a truncated tag header: never reached */
	b[off++] = 0x01;
	b[off++] = 0x03;
	off = pkt_end(b, off);
	ASSERT_EQ(pppoe_disc_parse(b, off, &p, NULL), 0);
	EXPECT_TRUE(p.service.present);
	EXPECT_TRUE(!p.host_uniq.present);
	EXPECT_EQ(p.n_tags, 1);
}

TEST(pppoe_padding_ignored)
{
	struct pppoe_disc p;
	uint8_t b[64];
	size_t off;

	memset(b, 0xff, sizeof(b));
	off = pkt_start(b, PPPOE_CODE_PADR, 0);
	off = pkt_tag(b, off, PPPOE_TAG_SERVICE_NAME, "isp", 3);
	pkt_end(b, off);
	/* 0xff after LENGTH would be a truncated tag if read */
	ASSERT_EQ(pppoe_disc_parse(b, sizeof(b), &p, NULL), 0);
	EXPECT_EQ(p.length, 7);
	EXPECT_EQ(p.n_tags, 1);
	EXPECT_TRUE(tv_eq(&p.service, "isp", 3));
	/* zeros after LENGTH would be End-Of-List tags if read */
	ASSERT_EQ(pppoe_disc_parse(padi_rp_pppoe, sizeof(padi_rp_pppoe), &p, NULL), 0);
	EXPECT_EQ(p.n_tags, 2);
}

TEST(pppoe_first_tag_counts)
{
	struct pppoe_disc p;
	uint8_t b[128];
	size_t off;

	off = pkt_start(b, PPPOE_CODE_PADO, 0);
	off = pkt_tag(b, off, 0x0199, "unknown", 7);
	off = pkt_tag(b, off, PPPOE_TAG_AC_NAME, "first", 5);
	off = pkt_tag(b, off, PPPOE_TAG_AC_NAME, "second", 6);
	off = pkt_tag(b, off, PPPOE_TAG_SERVICE_NAME, NULL, 0);
	off = pkt_tag(b, off, PPPOE_TAG_SERVICE_NAME, "named", 5);
	off = pkt_tag(b, off, PPPOE_TAG_AC_SYSTEM_ERROR, "busy", 4);
	off = pkt_tag(b, off, PPPOE_TAG_GENERIC_ERROR, "generic", 7);
	off = pkt_tag(b, off, PPPOE_TAG_AC_COOKIE, "c", 1);
	off = pkt_end(b, off);
	ASSERT_EQ(pppoe_disc_parse(b, off, &p, NULL), 0);
	EXPECT_EQ(p.n_tags, 8);
	EXPECT_TRUE(tv_eq(&p.ac_name, "first", 5));
	EXPECT_TRUE(tv_eq(&p.service, "", 0));
	EXPECT_EQ(p.error_type, PPPOE_TAG_AC_SYSTEM_ERROR);
	EXPECT_TRUE(tv_eq(&p.error, "busy", 4));
	EXPECT_TRUE(tv_eq(&p.cookie, "c", 1));
}

TEST(pppoe_code_name)
{
	char tmp[16];

	EXPECT_STREQ(pppoe_code_name(PPPOE_CODE_PADI, tmp), "PADI");
	EXPECT_STREQ(pppoe_code_name(PPPOE_CODE_PADO, tmp), "PADO");
	EXPECT_STREQ(pppoe_code_name(PPPOE_CODE_PADR, tmp), "PADR");
	EXPECT_STREQ(pppoe_code_name(PPPOE_CODE_PADS, tmp), "PADS");
	EXPECT_STREQ(pppoe_code_name(PPPOE_CODE_PADT, tmp), "PADT");
	EXPECT_STREQ(pppoe_code_name(0x42, tmp), "code 0x42");
	EXPECT_STREQ(pppoe_code_name(0x00, tmp), "code 0x00");
}
