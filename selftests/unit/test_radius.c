// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld: the RADIUS codec (S-RAD-1, S-RAD-3; RFC 2865 sections 3, 5.2,
 * 5.26; RFC 3579 section 3.2).  User-Password hiding against RFC 2865
 * section 7.1's example ("arctangent" with secret "xyzzy5461") and a
 * two-block password; the replies below were built independently with
 * Python's hashlib and hmac modules.  Every reason a reply is refused: a
 * wrong secret, a flipped bit anywhere, a short packet, Length beyond the
 * datagram, an attribute running past the end, a zero-length attribute, a
 * second Message-Authenticator, a second or malformed profile attribute.
 */
#include <string.h>

#include "unit.h"
#include "../../userspace/l2tpseld/md5.h"
#include "../../userspace/l2tpseld/radius.h"

static const uint8_t secret[] = "xyzzy5461";
#define SLEN (sizeof(secret) - 1)

static const uint8_t ra[RAD_AUTH_LEN] = {
	0x0f, 0x40, 0x3f, 0x94, 0x73, 0x97, 0x80, 0x57,
	0xbd, 0x83, 0xd5, 0xcb, 0x98, 0xf4, 0x22, 0x7a,
};

/* Access-Accept id 7: Reply-Message "hello", 26-2636-64 "prof-b", Reply-Message "world", M-A */
static const uint8_t accept7[] = {
	0x02, 0x07, 0x00, 0x42, 0x2e, 0x69, 0x60, 0x28, 0x7e, 0x2d, 0x9b, 0xf4, 0xdf, 0xea,
	0xc5, 0xdd, 0x5a, 0x3e, 0xb6, 0x09, 0x12, 0x07, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x1a,
	0x0e, 0x00, 0x00, 0x0a, 0x4c, 0x40, 0x08, 0x70, 0x72, 0x6f, 0x66, 0x2d, 0x62, 0x12,
	0x07, 0x77, 0x6f, 0x72, 0x6c, 0x64, 0x50, 0x12, 0x29, 0x1b, 0x4c, 0xe8, 0xc2, 0x4c,
	0x3a, 0xa2, 0x96, 0xab, 0x20, 0x68, 0x62, 0x7d, 0x96, 0x8a,
};

/* Access-Reject id 9: Reply-Message "bad password", no Message-Authenticator */
static const uint8_t reject9[] = {
	0x03, 0x09, 0x00, 0x22, 0x61, 0xab, 0x1e, 0xa3, 0x67, 0xa9, 0xf1, 0xf3, 0x64, 0xe4,
	0x62, 0xa4, 0x81, 0x16, 0xc5, 0xe9, 0x12, 0x0e, 0x62, 0x61, 0x64, 0x20, 0x70, 0x61,
	0x73, 0x73, 0x77, 0x6f, 0x72, 0x64,
};

static const struct rad_attr_ref juniper = { RAD_VENDOR_JUNIPER, RAD_JUNIPER_TUNNEL_GROUP };

static int parse(const uint8_t *b, size_t n, const struct rad_attr_ref *prof,
		 struct rad_reply *r, const char **why)
{
	*why = "";
	return rad_reply_parse(b, n, ra, secret, SLEN, prof, r, why);
}

/* Re-sign @b (Response Authenticator, not the Message-Authenticator) after an edit. */
static void resign(uint8_t *b, size_t n)
{
	struct md5_ctx ctx;

	md5_init(&ctx);
	md5_update(&ctx, b, 4);
	md5_update(&ctx, ra, RAD_AUTH_LEN);
	md5_update(&ctx, b + RAD_HDR_LEN, n - RAD_HDR_LEN);
	md5_update(&ctx, secret, SLEN);
	md5_final(&ctx, b + 4);
}

UNIT_TEST(radius_user_password_rfc2865_example)
{
	static const uint8_t want[16] = {
		0x0d, 0xbe, 0x70, 0x8d, 0x93, 0xd4, 0x13, 0xce,
		0x31, 0x96, 0xe4, 0x3f, 0x78, 0x2a, 0x0a, 0xee,
	};
	static const uint8_t want2[32] = {
		0x0d, 0xe1, 0x63, 0x98, 0x81, 0xc9, 0x03, 0xc4, 0x2d, 0x86, 0xc9, 0x50,
		0x1e, 0x07, 0x7e, 0x99, 0x13, 0xb7, 0xb3, 0x4b, 0xc6, 0x8f, 0xd2, 0x73,
		0xd7, 0xba, 0xa8, 0xca, 0x4d, 0x2a, 0xe4, 0x50,
	};
	struct rad_pkt p;

	rad_pkt_init(&p, RAD_ACCESS_REQUEST, 0, ra);
	rad_put_str(&p, RAD_USER_NAME, "nemo");
	rad_put_password(&p, (const uint8_t *)"arctangent", 10, secret, SLEN);
	EXPECT_EQ(p.len, 20u + 6 + 18);
	EXPECT_EQ(p.buf[26], RAD_USER_PASSWORD);
	EXPECT_EQ(p.buf[27], 18);
	EXPECT_TRUE(!memcmp(p.buf + 28, want, 16));
	/* 22 bytes: two blocks, the second chained on the first's ciphertext */
	rad_pkt_init(&p, RAD_ACCESS_REQUEST, 0, ra);
	rad_put_password(&p, (const uint8_t *)"a-password-of-twenty-t", 22, secret, SLEN);
	EXPECT_EQ(p.buf[21], 34);
	EXPECT_TRUE(!memcmp(p.buf + 22, want2, 32));
	EXPECT_TRUE(!p.full);
	/* over 128 bytes (section 5.2) does not fit */
	rad_pkt_init(&p, RAD_ACCESS_REQUEST, 0, ra);
	rad_put_password(&p, p.buf, 129, secret, SLEN);
	EXPECT_TRUE(p.full);
}

UNIT_TEST(radius_request_ends_with_message_authenticator)
{
	uint8_t mac[16], copy[RAD_MAX_LEN];
	struct rad_pkt p;

	rad_pkt_init(&p, RAD_ACCESS_REQUEST, 42, ra);
	rad_put_str(&p, RAD_USER_NAME, "alice@example");
	rad_put_u32(&p, RAD_SERVICE_TYPE, RAD_SERVICE_FRAMED);
	EXPECT_EQ(rad_finish(&p, secret, SLEN), 0);
	EXPECT_EQ(p.buf[0], RAD_ACCESS_REQUEST);
	EXPECT_EQ(p.buf[1], 42);
	EXPECT_EQ((size_t)(p.buf[2] << 8 | p.buf[3]), p.len);
	EXPECT_EQ(p.buf[p.len - 18], RAD_MESSAGE_AUTHENTICATOR);
	memcpy(copy, p.buf, p.len);
	memset(copy + p.len - 16, 0, 16);
	hmac_md5(secret, SLEN, copy, p.len, mac);
	EXPECT_TRUE(!memcmp(mac, p.buf + p.len - 16, 16));
	/* an attribute of more than 253 bytes does not fit, nor does the packet then */
	rad_put(&p, RAD_REPLY_MESSAGE, copy, 254);
	EXPECT_TRUE(p.full);
	EXPECT_EQ(rad_finish(&p, secret, SLEN), -1);
}

UNIT_TEST(radius_accept_names_the_profile)
{
	struct rad_reply r;
	const char *why;

	EXPECT_EQ(parse(accept7, sizeof(accept7), &juniper, &r, &why), 0);
	EXPECT_EQ(r.code, RAD_ACCESS_ACCEPT);
	EXPECT_EQ(r.id, 7);
	EXPECT_STREQ(r.profile, "prof-b");
	EXPECT_STREQ(r.message, "hello world");
	EXPECT_EQ(r.ignored, 0u);
	/* another vendor attribute configured: the VSA is ignored, no profile */
	{
		struct rad_attr_ref other = { 9, 1 };

		EXPECT_EQ(parse(accept7, sizeof(accept7), &other, &r, &why), 0);
		EXPECT_STREQ(r.profile, "");
		EXPECT_EQ(r.ignored, 1u);
	}
	/* octets beyond Length are padding (section 3) */
	{
		uint8_t pad[sizeof(accept7) + 7];

		memcpy(pad, accept7, sizeof(accept7));
		memset(pad + sizeof(accept7), 0xee, 7);
		EXPECT_EQ(parse(pad, sizeof(pad), &juniper, &r, &why), 0);
	}
	EXPECT_EQ(parse(reject9, sizeof(reject9), &juniper, &r, &why), 0);
	EXPECT_EQ(r.code, RAD_ACCESS_REJECT);
	EXPECT_STREQ(r.message, "bad password");
}

UNIT_TEST(radius_reply_refused_for_every_defect)
{
	uint8_t b[RAD_MAX_LEN];
	struct rad_reply r;
	const char *why;
	size_t i;

	/* the wrong secret */
	EXPECT_EQ(rad_reply_parse(accept7, sizeof(accept7), ra, (const uint8_t *)"xyzzy5462", SLEN,
				  &juniper, &r, &why), -1);
	EXPECT_TRUE(strstr(why, "Response Authenticator") != NULL);
	/* any flipped bit: the Response Authenticator catches it */
	for (i = 0; i < sizeof(accept7) * 8; i++) {
		memcpy(b, accept7, sizeof(accept7));
		b[i / 8] ^= (uint8_t)(1u << (i % 8));
		EXPECT_EQ(parse(b, sizeof(accept7), &juniper, &r, &why), -1);
	}
	/* a flipped Message-Authenticator with the Response Authenticator redone */
	memcpy(b, accept7, sizeof(accept7));
	b[sizeof(accept7) - 1] ^= 1;
	resign(b, sizeof(accept7));
	EXPECT_EQ(parse(b, sizeof(accept7), &juniper, &r, &why), -1);
	EXPECT_STREQ(why, "wrong Message-Authenticator");
	/* short, Length beyond the datagram, Length below 20 */
	EXPECT_EQ(parse(accept7, 19, &juniper, &r, &why), -1);
	EXPECT_EQ(parse(accept7, sizeof(accept7) - 1, &juniper, &r, &why), -1);
	memcpy(b, reject9, sizeof(reject9));
	b[3] = 19;
	EXPECT_EQ(parse(b, sizeof(reject9), &juniper, &r, &why), -1);
	/* an attribute running past the end, one of length 0 or 1 */
	memcpy(b, reject9, sizeof(reject9));
	b[21] = 15;
	resign(b, sizeof(reject9));
	EXPECT_EQ(parse(b, sizeof(reject9), &juniper, &r, &why), -1);
	EXPECT_TRUE(strstr(why, "length") != NULL);
	for (i = 0; i < 2; i++) {
		b[21] = (uint8_t)i;
		resign(b, sizeof(reject9));
		EXPECT_EQ(parse(b, sizeof(reject9), &juniper, &r, &why), -1);
	}
	/* not a reply: an Access-Request */
	memcpy(b, reject9, sizeof(reject9));
	b[0] = RAD_ACCESS_REQUEST;
	resign(b, sizeof(reject9));
	EXPECT_EQ(parse(b, sizeof(reject9), &juniper, &r, &why), -1);
}

/* A reply of @n attribute bytes @attrs, signed, into @b; its length. */
static size_t make(uint8_t *b, const uint8_t *attrs, size_t n)
{
	b[0] = RAD_ACCESS_ACCEPT;
	b[1] = 1;
	b[2] = (uint8_t)((RAD_HDR_LEN + n) >> 8);
	b[3] = (uint8_t)(RAD_HDR_LEN + n);
	memcpy(b + RAD_HDR_LEN, attrs, n);
	resign(b, RAD_HDR_LEN + n);
	return RAD_HDR_LEN + n;
}

UNIT_TEST(radius_profile_attribute_checked)
{
	static const uint8_t twice[] = {
		26, 12, 0, 0, 0x0a, 0x4c, 64, 6, 'a', 'b', 'c', 'd',
		26, 12, 0, 0, 0x0a, 0x4c, 64, 6, 'a', 'b', 'c', 'd',
	};
	static const uint8_t badlen[] = { 26, 12, 0, 0, 0x0a, 0x4c, 64, 7, 'a', 'b', 'c', 'd' };
	static const uint8_t nul[] = { 26, 12, 0, 0, 0x0a, 0x4c, 64, 6, 'a', 0, 'c', 'd' };
	static const uint8_t empty[] = { 26, 8, 0, 0, 0x0a, 0x4c, 64, 2 };
	static const uint8_t plain[] = { 25, 6, 'P', 'r', 'o', 'f', 18, 3, '!' };
	static const struct rad_attr_ref class_attr = { 0, 25 };
	uint8_t b[RAD_MAX_LEN];
	struct rad_reply r;
	const char *why;
	size_t n;

	n = make(b, twice, sizeof(twice));
	EXPECT_EQ(parse(b, n, &juniper, &r, &why), -1);
	EXPECT_TRUE(strstr(why, "twice") != NULL);
	n = make(b, badlen, sizeof(badlen));
	EXPECT_EQ(parse(b, n, &juniper, &r, &why), -1);
	n = make(b, nul, sizeof(nul));
	EXPECT_EQ(parse(b, n, &juniper, &r, &why), -1);
	n = make(b, empty, sizeof(empty));
	EXPECT_EQ(parse(b, n, &juniper, &r, &why), -1);
	/* a plain attribute configured (Class here) names the profile */
	n = make(b, plain, sizeof(plain));
	EXPECT_EQ(parse(b, n, &class_attr, &r, &why), 0);
	EXPECT_STREQ(r.profile, "Prof");
	EXPECT_STREQ(r.message, "!");
	EXPECT_EQ(parse(b, n, &juniper, &r, &why), 0);
	EXPECT_STREQ(r.profile, "");
	EXPECT_EQ(r.ignored, 1u);
}

/* ---- Disconnect-Request (RFC 5176) ---- */

/* A request of @code with @attrs (whole attributes), a Message-Authenticator when @ma. */
static size_t dm_make(uint8_t *out, uint8_t code, const uint8_t *attrs, size_t n, bool ma,
		      const uint8_t *key, size_t klen)
{
	static const uint8_t zero[RAD_AUTH_LEN];
	static struct rad_pkt p;

	rad_pkt_init(&p, code, 77, zero);
	memcpy(p.buf + p.len, attrs, n);
	p.len += n;
	if (ma)
		rad_finish(&p, key, klen);	/* over the zero Request Authenticator (section 3.5) */
	rad_finish_acct(&p, key, klen);		/* section 2.3: as RFC 2866's */
	memcpy(out, p.buf, p.len);
	return p.len;
}

static const uint8_t dm_user[] = {
	RAD_USER_NAME, 11, 'a', 'l', 'i', 'c', 'e', '@', 'i', 's', 'p',
	RAD_ACCT_SESSION_ID, 6, 'S', '0', '0', '1',
	RAD_PROXY_STATE, 5, 'p', 's', '1',
	RAD_NAS_IDENTIFIER, 5, 'l', 'a', 'c',
};

UNIT_TEST(radius_dm_request_decoded)
{
	uint8_t b[RAD_MAX_LEN];
	const char *why = NULL;
	size_t n = dm_make(b, RAD_DISCONNECT_REQUEST, dm_user, sizeof(dm_user), true, secret,
			   sizeof(secret) - 1);
	static struct rad_dm m;

	ASSERT_TRUE(rad_dm_parse(b, n, secret, sizeof(secret) - 1, &m, &why) == 0);
	EXPECT_EQ(m.cause, 0u);
	EXPECT_STREQ(m.user, "alice@isp");
	EXPECT_STREQ(m.acct_id, "S001");
	EXPECT_STREQ(m.nas_id, "lac");
	EXPECT_EQ(m.n_ids, 2u);
	EXPECT_TRUE(m.ma);
	EXPECT_EQ(m.proxy_len, 5u);
	EXPECT_EQ(m.id, 77);
	/* without a Message-Authenticator it is as good (section 3.5: optional) */
	n = dm_make(b, RAD_DISCONNECT_REQUEST, dm_user, sizeof(dm_user), false, secret,
		    sizeof(secret) - 1);
	ASSERT_TRUE(rad_dm_parse(b, n, secret, sizeof(secret) - 1, &m, &why) == 0);
	EXPECT_TRUE(!m.ma);
}

UNIT_TEST(radius_dm_request_refused_or_dropped)
{
	static const uint8_t framed_ip[] = { RAD_USER_NAME, 3, 'a', 8, 6, 10, 0, 0, 1 };
	static const uint8_t nas_only[] = { RAD_NAS_IDENTIFIER, 5, 'l', 'a', 'c' };
	static const uint8_t twice[] = { RAD_USER_NAME, 3, 'a', RAD_USER_NAME, 3, 'b' };
	static const uint8_t nul[] = { RAD_USER_NAME, 5, 'a', 0, 'b' };
	static const uint8_t cause[] = { RAD_USER_NAME, 3, 'a', RAD_ACCT_TERMINATE_CAUSE, 6, 0, 0, 0, 5 };
	static const uint8_t wrong[] = "another-secret";
	uint8_t b[RAD_MAX_LEN];
	const char *why = NULL;
	static struct rad_dm m;
	size_t n;

	/* dropped: another secret, a changed byte, a bad attribute length, short */
	n = dm_make(b, RAD_DISCONNECT_REQUEST, dm_user, sizeof(dm_user), true, wrong, sizeof(wrong) - 1);
	EXPECT_EQ(rad_dm_parse(b, n, secret, sizeof(secret) - 1, &m, &why), -1);
	n = dm_make(b, RAD_DISCONNECT_REQUEST, dm_user, sizeof(dm_user), true, secret, sizeof(secret) - 1);
	b[n - 1] ^= 1;
	EXPECT_EQ(rad_dm_parse(b, n, secret, sizeof(secret) - 1, &m, &why), -1);
	EXPECT_EQ(rad_dm_parse(b, 19, secret, sizeof(secret) - 1, &m, &why), -1);
	n = dm_make(b, RAD_ACCESS_REQUEST, dm_user, sizeof(dm_user), false, secret, sizeof(secret) - 1);
	EXPECT_EQ(rad_dm_parse(b, n, secret, sizeof(secret) - 1, &m, &why), -1);
	/* answered with a NAK's Error-Cause (section 3.6) */
	n = dm_make(b, RAD_DISCONNECT_REQUEST, framed_ip, sizeof(framed_ip), false, secret, sizeof(secret) - 1);
	ASSERT_TRUE(rad_dm_parse(b, n, secret, sizeof(secret) - 1, &m, &why) == 0);
	EXPECT_EQ(m.cause, (uint32_t)RAD_EC_UNSUPPORTED_ATTRIBUTE);
	n = dm_make(b, RAD_DISCONNECT_REQUEST, nas_only, sizeof(nas_only), false, secret, sizeof(secret) - 1);
	ASSERT_TRUE(rad_dm_parse(b, n, secret, sizeof(secret) - 1, &m, &why) == 0);
	EXPECT_EQ(m.cause, (uint32_t)RAD_EC_MISSING_ATTRIBUTE);
	n = dm_make(b, RAD_DISCONNECT_REQUEST, twice, sizeof(twice), false, secret, sizeof(secret) - 1);
	ASSERT_TRUE(rad_dm_parse(b, n, secret, sizeof(secret) - 1, &m, &why) == 0);
	EXPECT_EQ(m.cause, (uint32_t)RAD_EC_INVALID_REQUEST);
	n = dm_make(b, RAD_DISCONNECT_REQUEST, nul, sizeof(nul), false, secret, sizeof(secret) - 1);
	ASSERT_TRUE(rad_dm_parse(b, n, secret, sizeof(secret) - 1, &m, &why) == 0);
	EXPECT_EQ(m.cause, (uint32_t)RAD_EC_INVALID_VALUE);
	n = dm_make(b, RAD_COA_REQUEST, dm_user, sizeof(dm_user), false, secret, sizeof(secret) - 1);
	ASSERT_TRUE(rad_dm_parse(b, n, secret, sizeof(secret) - 1, &m, &why) == 0);
	EXPECT_EQ(m.cause, (uint32_t)RAD_EC_UNSUPPORTED_EXTENSION);
	n = dm_make(b, RAD_DISCONNECT_REQUEST, cause, sizeof(cause), false, secret, sizeof(secret) - 1);
	ASSERT_TRUE(rad_dm_parse(b, n, secret, sizeof(secret) - 1, &m, &why) == 0);
	EXPECT_EQ(m.cause, 0u);
	EXPECT_EQ(m.term_cause, 5u);
}

UNIT_TEST(radius_dm_answer_signed)
{
	uint8_t b[RAD_MAX_LEN], a[RAD_MAX_LEN], copy[RAD_MAX_LEN], want[MD5_DIGEST_LEN];
	const char *why = NULL;
	static struct rad_dm m;
	struct md5_ctx ctx;
	size_t n, alen;

	n = dm_make(b, RAD_DISCONNECT_REQUEST, dm_user, sizeof(dm_user), true, secret, sizeof(secret) - 1);
	ASSERT_TRUE(rad_dm_parse(b, n, secret, sizeof(secret) - 1, &m, &why) == 0);
	alen = rad_dm_answer(&m, false, RAD_EC_SESSION_NOT_FOUND, secret, sizeof(secret) - 1, a);
	/* NAK, Error-Cause 503, the Proxy-State, a Message-Authenticator: 20 + 6 + 5 + 18 */
	ASSERT_TRUE(alen == 49);
	EXPECT_EQ(a[0], RAD_DISCONNECT_NAK);
	EXPECT_EQ(a[1], 77);
	EXPECT_EQ(a[2] << 8 | a[3], 49);
	EXPECT_TRUE(a[20] == RAD_ERROR_CAUSE && a[21] == 6 && a[24] == 503 >> 8 && a[25] == (503 & 0xff));
	EXPECT_TRUE(!memcmp(a + 26, "\x21\x05ps1", 5));
	/* Response Authenticator: MD5(Code+ID+Length+Request Authenticator+Attributes+Secret) */
	md5_init(&ctx);
	md5_update(&ctx, a, 4);
	md5_update(&ctx, m.auth, RAD_AUTH_LEN);
	md5_update(&ctx, a + 20, alen - 20);
	md5_update(&ctx, secret, sizeof(secret) - 1);
	md5_final(&ctx, want);
	EXPECT_TRUE(!memcmp(want, a + 4, 16));
	/* Message-Authenticator over the answer with the Request Authenticator in place */
	memcpy(copy, a, alen);
	memcpy(copy + 4, m.auth, RAD_AUTH_LEN);
	memset(copy + alen - 16, 0, 16);
	hmac_md5(secret, sizeof(secret) - 1, copy, alen, want);
	EXPECT_TRUE(a[alen - 18] == RAD_MESSAGE_AUTHENTICATOR && !memcmp(want, a + alen - 16, 16));
	/* an ACK has no Error-Cause; without the request's Message-Authenticator, none */
	n = dm_make(b, RAD_DISCONNECT_REQUEST, dm_user, sizeof(dm_user), false, secret, sizeof(secret) - 1);
	ASSERT_TRUE(rad_dm_parse(b, n, secret, sizeof(secret) - 1, &m, &why) == 0);
	alen = rad_dm_answer(&m, true, 0, secret, sizeof(secret) - 1, a);
	EXPECT_EQ(alen, (size_t)25);
	EXPECT_EQ(a[0], RAD_DISCONNECT_ACK);
}
