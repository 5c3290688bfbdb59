// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld: the RADIUS codec (S-RAD-1, S-RAD-3; RFC 2865 sections 3, 5.2,
 * 5.26; RFC 3579 section 3.2).  User-Password hiding against RFC 2865
 * section 7.1's example ("arctangent" with secret "xyzzy5461") and a
 * two-block password; the replies below were built independently with
 * Python's hashlib and hmac modules.  Every reason a reply is refused: a
 * wrong secret, a flipped bit anywhere, a short packet, Length beyond the
 * datagram, an attribute running past the end, a zero-length attribute, a
 * second Message-Authenticator, a second or malformed profile attribute, no
 * Message-Authenticator in an Access-Accept, -Reject or -Challenge (S-SEC-8,
 * CVE-2024-3596), one over another request's authenticator.  Disconnect-
 * Requests (RFC 5176): decoding, refusals, the answer; what the server does
 * before it acts, on a clock set here (S-SEC-8): authentication before the
 * duplicate cache, the Event-Timestamp window both ways, requests kept until
 * stale, a full cache refusing rather than forgetting.
 * RFC 2868's tunnel attributes (S-RAD-2): tags, untagged strings, the
 * Tunnel-Password encrypted here from section 3.5 (checked against a
 * Python-built reference), every reason a tag is skipped or a reply refused,
 * the levels from Tunnel-Preference, the entries' names, the 31-entry bound.
 */
#include <string.h>

#include "harness.h"
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

/* Access-Reject id 9: Message-Authenticator first (as CVE-2024-3596's advisories ask), "bad password" */
static const uint8_t reject9ma[] = {
	0x03, 0x09, 0x00, 0x34, 0x98, 0x61, 0x68, 0xbd, 0x81, 0xcb, 0x5d, 0x94, 0x70, 0xb4,
	0x79, 0x5d, 0x04, 0x60, 0x73, 0xcb, 0x50, 0x12, 0x16, 0xa4, 0xa5, 0xbf, 0x52, 0x6d,
	0x6a, 0x08, 0x7d, 0x42, 0x07, 0x9d, 0xc6, 0x44, 0x34, 0x32, 0x12, 0x0e, 0x62, 0x61,
	0x64, 0x20, 0x70, 0x61, 0x73, 0x73, 0x77, 0x6f, 0x72, 0x64,
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
	md5_update(&ctx, 4, b);
	md5_update(&ctx, RAD_AUTH_LEN, ra);
	md5_update(&ctx, n - RAD_HDR_LEN, b + RAD_HDR_LEN);
	md5_update(&ctx, SLEN, secret);
	md5_digest(&ctx, MD5_DIGEST_SIZE, b + 4);
}

/*
 * Sign @b as a server would: the Message-Authenticator, when it has one, over
 * the reply with the Request Authenticator in place (RFC 3579 section 3.2),
 * then the Response Authenticator over the result.
 */
static void sign(uint8_t *b, size_t n)
{
	uint8_t copy[RAD_MAX_LEN];
	size_t o;

	for (o = RAD_HDR_LEN; o + 2 <= n && b[o + 1] >= 2; o += b[o + 1]) {
		if (b[o] != RAD_MESSAGE_AUTHENTICATOR || b[o + 1] != 18 || o + 18 > n)
			continue;
		memcpy(copy, b, n);
		memcpy(copy + 4, ra, RAD_AUTH_LEN);
		memset(copy + o + 2, 0, 16);
		hmac_md5(secret, SLEN, copy, n, b + o + 2);
		break;
	}
	resign(b, n);
}

TEST(radius_user_password_rfc2865_example)
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

TEST(radius_request_ends_with_message_authenticator)
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

TEST(radius_accept_names_the_profile)
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
	EXPECT_EQ(parse(reject9ma, sizeof(reject9ma), &juniper, &r, &why), 0);
	EXPECT_EQ(r.code, RAD_ACCESS_REJECT);
	EXPECT_STREQ(r.message, "bad password");
}

TEST(radius_reply_refused_for_every_defect)
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

/* An Access-Accept of @n attribute bytes @attrs, signed, without a Message-Authenticator. */
static size_t make_bare(uint8_t *b, const uint8_t *attrs, size_t n)
{
	b[0] = RAD_ACCESS_ACCEPT;
	b[1] = 1;
	b[2] = (uint8_t)((RAD_HDR_LEN + n) >> 8);
	b[3] = (uint8_t)(RAD_HDR_LEN + n);
	memcpy(b + RAD_HDR_LEN, attrs, n);
	resign(b, RAD_HDR_LEN + n);
	return RAD_HDR_LEN + n;
}

/* The same with a Message-Authenticator after @attrs, both signed: as a server sends it. */
static size_t make(uint8_t *b, const uint8_t *attrs, size_t n)
{
	size_t len = RAD_HDR_LEN + n + 18;

	make_bare(b, attrs, n);
	b[RAD_HDR_LEN + n] = RAD_MESSAGE_AUTHENTICATOR;
	b[RAD_HDR_LEN + n + 1] = 18;
	memset(b + RAD_HDR_LEN + n + 2, 0, 16);
	b[2] = (uint8_t)(len >> 8);
	b[3] = (uint8_t)len;
	sign(b, len);
	return len;
}

/*
 * S-SEC-8: an Access-Accept, -Reject or -Challenge without a valid
 * Message-Authenticator (RFC 3579 section 3.2) is refused, whatever its
 * Response Authenticator: an attacker in the path forges one with an MD5
 * collision (CVE-2024-3596, "BlastRADIUS") but cannot make the HMAC.  An
 * Accounting-Response needs none (RFC 2866 defines none); one that has it is
 * checked all the same.
 */
TEST(radius_reply_needs_message_authenticator)
{
	static const uint8_t codes[] = { RAD_ACCESS_ACCEPT, RAD_ACCESS_REJECT, RAD_ACCESS_CHALLENGE };
	static const uint8_t msg[] = { RAD_REPLY_MESSAGE, 4, 'h', 'i' };
	static const uint8_t other[RAD_AUTH_LEN] = { 1 };
	uint8_t b[RAD_MAX_LEN], copy[RAD_MAX_LEN];
	struct rad_reply r;
	const char *why;
	unsigned int i;
	size_t n;

	/* a genuine Response Authenticator and no Message-Authenticator */
	EXPECT_EQ(parse(reject9, sizeof(reject9), &juniper, &r, &why), -1);
	EXPECT_TRUE(strstr(why, "no Message-Authenticator") != NULL);
	for (i = 0; i < sizeof(codes); i++) {
		n = make_bare(b, msg, sizeof(msg));
		b[0] = codes[i];
		resign(b, n);
		EXPECT_EQ(parse(b, n, &juniper, &r, &why), -1);
		EXPECT_TRUE(strstr(why, "no Message-Authenticator") != NULL);
		n = make(b, msg, sizeof(msg));
		b[0] = codes[i];
		sign(b, n);
		EXPECT_EQ(parse(b, n, &juniper, &r, &why), 0);
		EXPECT_STREQ(r.message, "hi");
	}
	/* one computed over another request's authenticator: refused */
	n = make(b, msg, sizeof(msg));
	memcpy(copy, b, n);
	memcpy(copy + 4, other, RAD_AUTH_LEN);
	memset(copy + n - 16, 0, 16);
	hmac_md5(secret, SLEN, copy, n, b + n - 16);
	resign(b, n);
	EXPECT_EQ(parse(b, n, &juniper, &r, &why), -1);
	EXPECT_STREQ(why, "wrong Message-Authenticator");
	/* an Accounting-Response without one is taken; with a wrong one it is not */
	n = make_bare(b, msg, 0);
	b[0] = RAD_ACCOUNTING_RESPONSE;
	resign(b, n);
	EXPECT_EQ(parse(b, n, NULL, &r, &why), 0);
	EXPECT_EQ(r.code, RAD_ACCOUNTING_RESPONSE);
	n = make(b, msg, 0);
	b[0] = RAD_ACCOUNTING_RESPONSE;
	sign(b, n);
	EXPECT_EQ(parse(b, n, NULL, &r, &why), 0);
	b[n - 1] ^= 0x80;
	resign(b, n);
	EXPECT_EQ(parse(b, n, NULL, &r, &why), -1);
	EXPECT_STREQ(why, "wrong Message-Authenticator");
}

TEST(radius_profile_attribute_checked)
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

TEST(radius_dm_request_decoded)
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

TEST(radius_dm_request_refused_or_dropped)
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

TEST(radius_dm_answer_signed)
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
	md5_update(&ctx, 4, a);
	md5_update(&ctx, RAD_AUTH_LEN, m.auth);
	md5_update(&ctx, alen - 20, a + 20);
	md5_update(&ctx, sizeof(secret) - 1, secret);
	md5_digest(&ctx, MD5_DIGEST_SIZE, want);
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

/* ---- the checks before the server acts: rad_das_check() (S-SEC-8) ---- */

#define T0_MS 1700000000000ull	/* the wall clock of these tests, ms */

/* A Disconnect-Request naming "alice", Identifier @id, Event-Timestamp @ts unless 0, @extra after. */
static size_t das_req(uint8_t *out, uint8_t id, uint32_t ts, const uint8_t *extra, size_t n)
{
	uint8_t attrs[64];
	size_t k = 0;

	memcpy(attrs, "\x01\x07" "alice", 7);
	k = 7;
	if (ts) {
		attrs[k] = RAD_EVENT_TIMESTAMP;
		attrs[k + 1] = 6;
		attrs[k + 2] = (uint8_t)(ts >> 24);
		attrs[k + 3] = (uint8_t)(ts >> 16);
		attrs[k + 4] = (uint8_t)(ts >> 8);
		attrs[k + 5] = (uint8_t)ts;
		k += 6;
	}
	if (n)
		memcpy(attrs + k, extra, n);
	k += n;
	n = dm_make(out, RAD_DISCONNECT_REQUEST, attrs, k, false, secret, SLEN);
	out[1] = id;
	memset(out + 4, 0, RAD_AUTH_LEN);
	{
		struct md5_ctx ctx;

		md5_init(&ctx);
		md5_update(&ctx, n, out);
		md5_update(&ctx, SLEN, secret);
		md5_digest(&ctx, MD5_DIGEST_SIZE, out + 4);
	}
	return n;
}

static enum rad_das_verdict das_in(struct rad_das_cache *c, unsigned int client, const uint8_t *b,
				   size_t n, bool require, uint64_t now, struct rad_dm *m)
{
	const uint8_t *again;
	const char *why = NULL;
	size_t alen;

	return rad_das_check(c, client, b, n, secret, SLEN, 300000, require, now, m, &again, &alen,
			     &why);
}

/* Answer @m as das.c would (ACK unless a cause) and remember it. */
static void das_answered(struct rad_das_cache *c, unsigned int client, const struct rad_dm *m,
			 uint64_t now)
{
	uint8_t a[RAD_MAX_LEN];
	size_t n = rad_dm_answer(m, !m->cause, m->cause, secret, SLEN, a);

	rad_das_remember(c, client, m, 300000, now, a, n);
}

TEST(radius_das_checks_replay_window)
{
	static const uint8_t ts_short[] = { RAD_EVENT_TIMESTAMP, 5, 1, 2, 3 };
	static const uint8_t ts_again[] = { RAD_EVENT_TIMESTAMP, 6, 0x65, 0x53, 0xf1, 0x00 };
	uint32_t t0 = (uint32_t)(T0_MS / 1000);
	uint8_t b[RAD_MAX_LEN], a[RAD_MAX_LEN];
	static struct rad_das_cache c;
	static struct rad_dm m;
	const uint8_t *again;
	const char *why;
	size_t n, alen, len;

	ASSERT_EQ(rad_das_cache_init(&c, 4), 0);
	/* new, answered, then the same bytes: the answer again, from either check time */
	n = das_req(b, 1, t0 - 100, NULL, 0);
	ASSERT_EQ(das_in(&c, 0, b, n, true, T0_MS, &m), RAD_DAS_NEW);
	EXPECT_EQ(m.cause, 0u);
	EXPECT_TRUE(m.has_ts && m.ts == t0 - 100);
	len = rad_dm_answer(&m, true, 0, secret, SLEN, a);
	rad_das_remember(&c, 0, &m, 300000, T0_MS, a, len);
	EXPECT_EQ(rad_das_check(&c, 0, b, n, secret, SLEN, 300000, true, T0_MS + 1000, &m, &again,
				&alen, &why), RAD_DAS_RESEND);
	EXPECT_TRUE(alen == len && !memcmp(again, a, len));
	/* another client with the same bytes (its own secret here the same): not the same request */
	EXPECT_EQ(das_in(&c, 1, b, n, true, T0_MS, &m), RAD_DAS_NEW);
	/* kept while its Event-Timestamp is current, then forgotten and stale */
	EXPECT_EQ(das_in(&c, 0, b, n, true, T0_MS + 300000, &m), RAD_DAS_RESEND);
	EXPECT_EQ(das_in(&c, 0, b, n, true, T0_MS + 300001, &m), RAD_DAS_STALE);
	/* the window both ways, in ms */
	n = das_req(b, 2, t0 + 300, NULL, 0);
	EXPECT_EQ(das_in(&c, 0, b, n, true, T0_MS, &m), RAD_DAS_NEW);
	EXPECT_EQ(das_in(&c, 0, b, n, true, T0_MS - 1, &m), RAD_DAS_STALE);
	n = das_req(b, 3, t0 - 300, NULL, 0);
	EXPECT_EQ(das_in(&c, 0, b, n, true, T0_MS, &m), RAD_DAS_NEW);
	EXPECT_EQ(das_in(&c, 0, b, n, true, T0_MS + 1, &m), RAD_DAS_STALE);
	/* an unauthentic packet is never looked up, nor checked for time */
	b[n - 1] ^= 1;
	EXPECT_EQ(rad_das_check(&c, 0, b, n, secret, SLEN, 300000, true, T0_MS, &m, &again, &alen,
				&why), RAD_DAS_BAD);
	EXPECT_TRUE(again == NULL && strstr(why, "Request Authenticator") != NULL);
	/* without one: NAK 402 when required, else taken and kept for the window from now */
	n = das_req(b, 4, 0, NULL, 0);
	EXPECT_EQ(rad_das_check(&c, 0, b, n, secret, SLEN, 300000, true, T0_MS, &m, &again, &alen,
				&why), RAD_DAS_NEW);
	EXPECT_EQ(m.cause, (uint32_t)RAD_EC_MISSING_ATTRIBUTE);
	EXPECT_TRUE(why && strstr(why, "no Event-Timestamp") != NULL);
	EXPECT_EQ(das_in(&c, 0, b, n, false, T0_MS, &m), RAD_DAS_NEW);
	EXPECT_EQ(m.cause, 0u);
	/* malformed or twice: NAK 407, 404 */
	n = das_req(b, 5, 0, ts_short, sizeof(ts_short));
	EXPECT_EQ(das_in(&c, 0, b, n, true, T0_MS, &m), RAD_DAS_NEW);
	EXPECT_EQ(m.cause, (uint32_t)RAD_EC_INVALID_VALUE);
	n = das_req(b, 6, t0, ts_again, sizeof(ts_again));
	EXPECT_EQ(das_in(&c, 0, b, n, true, T0_MS, &m), RAD_DAS_NEW);
	EXPECT_EQ(m.cause, (uint32_t)RAD_EC_INVALID_REQUEST);
	rad_das_cache_free(&c);
}

/*
 * No current request is forgotten to make room: when the cache is full of
 * them a new request is refused (NAK 506) and acts on nothing; once one is
 * stale its place is free again.
 */
TEST(radius_das_checks_full_cache_refuses)
{
	uint32_t t0 = (uint32_t)(T0_MS / 1000);
	uint8_t b[RAD_MAX_LEN];
	static struct rad_das_cache c;
	static struct rad_dm m;
	unsigned int i;
	size_t n;

	ASSERT_EQ(rad_das_cache_init(&c, 3), 0);
	for (i = 0; i < 3; i++) {
		n = das_req(b, (uint8_t)i, t0 + i, NULL, 0);
		ASSERT_EQ(das_in(&c, 0, b, n, true, T0_MS, &m), RAD_DAS_NEW);
		EXPECT_EQ(m.cause, 0u);
		das_answered(&c, 0, &m, T0_MS);
	}
	n = das_req(b, 9, t0, NULL, 0);
	ASSERT_EQ(das_in(&c, 0, b, n, true, T0_MS, &m), RAD_DAS_NEW);
	EXPECT_EQ(m.cause, (uint32_t)RAD_EC_RESOURCES_UNAVAILABLE);
	das_answered(&c, 0, &m, T0_MS);		/* not remembered: no room */
	for (i = 0; i < 3; i++) {
		n = das_req(b, (uint8_t)i, t0 + i, NULL, 0);
		EXPECT_EQ(das_in(&c, 0, b, n, true, T0_MS + 1000, &m), RAD_DAS_RESEND);
	}
	/* the first is forgotten after its Event-Timestamp + 300 s: room for the refused one */
	n = das_req(b, 9, t0 + 100, NULL, 0);
	ASSERT_EQ(das_in(&c, 0, b, n, true, T0_MS + 300000, &m), RAD_DAS_NEW);
	EXPECT_EQ(m.cause, (uint32_t)RAD_EC_RESOURCES_UNAVAILABLE);
	ASSERT_EQ(das_in(&c, 0, b, n, true, T0_MS + 300001, &m), RAD_DAS_NEW);
	EXPECT_EQ(m.cause, 0u);
	rad_das_cache_free(&c);
}

/* ---- RFC 2868 tunnel attributes of an Access-Accept (S-RAD-2) ---- */

/* The attributes of a reply being built. */
struct tattrs {
	uint8_t b[RAD_MAX_LEN];
	size_t n;
};

static void t_raw(struct tattrs *a, uint8_t type, const void *v, size_t len)
{
	a->b[a->n] = type;
	a->b[a->n + 1] = (uint8_t)(2 + len);
	memcpy(a->b + a->n + 2, v, len);
	a->n += 2 + len;
}

/* Section 3.1's form: Tag, then a 3-octet Value. */
static void t_int(struct tattrs *a, uint8_t type, uint8_t tag, uint32_t v)
{
	uint8_t b[4] = { tag, (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v };

	t_raw(a, type, b, sizeof(b));
}

/* A string attribute: the Tag octet @tag before @s, none when @tag < 0. */
static void t_str(struct tattrs *a, uint8_t type, int tag, const char *s)
{
	uint8_t b[256];
	size_t n = strlen(s), at = 0;

	if (tag >= 0)
		b[at++] = (uint8_t)tag;
	memcpy(b + at, s, n);
	t_raw(a, type, b, at + n);
}

/*
 * Tunnel-Password (RFC 2868 section 3.5), written here from the RFC rather
 * than with radius.c's decoder: the plain text P is the length octet @lenoct,
 * the @pwlen bytes of @pw, zero padding up to @clen octets; b(1) =
 * MD5(S + R + A), b(i) = MD5(S + c(i-1)), c(i) = p(i) xor b(i), with S the
 * secret, R the Request Authenticator @auth and A the 2-octet Salt.  A last
 * block shorter than 16 (only for malformed cases) is the prefix of the xor.
 */
static void t_pw_raw(struct tattrs *a, uint8_t tag, uint16_t salt, uint8_t lenoct,
		     const void *pw, size_t pwlen, size_t clen, const uint8_t *auth)
{
	uint8_t v[253], p[256] = { 0 }, b[MD5_DIGEST_LEN];
	uint8_t *c = v + 3;
	struct md5_ctx ctx;
	size_t i, j;

	v[0] = tag;
	v[1] = (uint8_t)(salt >> 8);
	v[2] = (uint8_t)salt;
	p[0] = lenoct;
	memcpy(p + 1, pw, pwlen);
	for (i = 0; i < clen; i += 16) {
		md5_init(&ctx);
		md5_update(&ctx, SLEN, secret);
		if (!i) {
			md5_update(&ctx, RAD_AUTH_LEN, auth);
			md5_update(&ctx, 2, v + 1);
		} else {
			md5_update(&ctx, 16, c + i - 16);
		}
		md5_digest(&ctx, MD5_DIGEST_SIZE, b);
		for (j = 0; j < 16 && i + j < clen; j++)
			c[i + j] = p[i + j] ^ b[j];
	}
	t_raw(a, RAD_TUNNEL_PASSWORD, v, 3 + clen);
}

static void t_pw(struct tattrs *a, uint8_t tag, uint16_t salt, const char *pw)
{
	size_t n = strlen(pw);

	t_pw_raw(a, tag, salt, (uint8_t)n, pw, n, (1 + n + 15) / 16 * 16, ra);
}

/* A whole L2TP tunnel of @tag: Type, Medium IPv4, Server-Endpoint @server. */
static void t_l2tp(struct tattrs *a, uint8_t tag, const char *server)
{
	t_int(a, RAD_TUNNEL_TYPE, tag, RAD_TUNNEL_L2TP);
	t_int(a, RAD_TUNNEL_MEDIUM_TYPE, tag, RAD_MEDIUM_IPV4);
	t_str(a, RAD_TUNNEL_SERVER_ENDPOINT, tag, server);
}

/* @a as a signed reply of @code (Response Authenticator over ra), parsed into @r. */
static int t_parse(uint8_t code, const struct tattrs *a, struct rad_reply *r, const char **why)
{
	static uint8_t b[RAD_MAX_LEN];
	size_t n = make(b, a->b, a->n);

	b[0] = code;
	sign(b, n);
	return parse(b, n, NULL, r, why);
}

TEST(radius_tunnel_password_encryptor_matches_reference)
{
	/* built with Python's hashlib from section 3.5: secret xyzzy5461, ra */
	static const uint8_t one[16] = {
		0xbb, 0xcd, 0xc1, 0x66, 0x24, 0x7f, 0x5a, 0x7e,
		0x10, 0xb3, 0x40, 0x28, 0x8c, 0x3b, 0x62, 0xb1,
	};
	static const uint8_t two[32] = {
		0xcb, 0x6e, 0x60, 0x02, 0x7c, 0x56, 0x5a, 0xbf, 0x4c, 0x78, 0x4d, 0x3b,
		0x77, 0x2d, 0x4f, 0x17, 0x2b, 0x3c, 0xd6, 0x2b, 0xbe, 0x5f, 0xe4, 0xf1,
		0x3f, 0x2a, 0xbf, 0x9d, 0x15, 0x14, 0x2d, 0x7e,
	};
	static struct tattrs a;
	static struct rad_reply r;
	const char *why;

	a.n = 0;
	t_pw(&a, 1, 0x8123, "tunnelsecret");
	EXPECT_EQ(a.n, 2u + 3 + 16);
	EXPECT_TRUE(!memcmp(a.b, "\x45\x15\x01\x81\x23", 5));
	EXPECT_TRUE(!memcmp(a.b + 5, one, 16));
	a.n = 0;
	t_pw(&a, 2, 0xfffe, "0123456789abcdefghij");
	EXPECT_EQ(a.n, 2u + 3 + 32);
	EXPECT_TRUE(!memcmp(a.b + 5, two, 32));
	/* both decode, the second chained on the first block's ciphertext */
	t_int(&a, RAD_TUNNEL_TYPE, 2, RAD_TUNNEL_L2TP);
	ASSERT_EQ(t_parse(RAD_ACCESS_ACCEPT, &a, &r, &why), 0);
	EXPECT_STREQ(r.tun[2].password, "0123456789abcdefghij");
}

TEST(radius_tunnel_two_tags_make_the_set)
{
	static struct tattrs a;
	static struct rad_reply r;
	struct rad_set_entry out[RAD_SET_MAX];
	unsigned int n, skipped = 99;
	const char *why;

	/* tag 2 first in the packet: the set is still in tag order */
	a.n = 0;
	t_int(&a, RAD_TUNNEL_TYPE, 2, RAD_TUNNEL_L2TP);
	t_int(&a, RAD_TUNNEL_MEDIUM_TYPE, 2, RAD_MEDIUM_IPV4);
	t_str(&a, RAD_TUNNEL_SERVER_ENDPOINT, 2, "10.1.0.2");
	t_int(&a, RAD_TUNNEL_PREFERENCE, 2, 20);
	t_int(&a, RAD_TUNNEL_TYPE, 1, RAD_TUNNEL_L2TP);
	t_int(&a, RAD_TUNNEL_MEDIUM_TYPE, 1, RAD_MEDIUM_IPV4);
	t_str(&a, RAD_TUNNEL_SERVER_ENDPOINT, 1, "10.1.0.1");
	t_int(&a, RAD_TUNNEL_PREFERENCE, 1, 10);
	t_pw(&a, 1, 0x8123, "tunnelsecret");
	t_str(&a, RAD_TUNNEL_ASSIGNMENT_ID, 1, "lns-a");
	t_str(&a, RAD_TUNNEL_CLIENT_AUTH_ID, 1, "lac1");
	t_str(&a, RAD_TUNNEL_SERVER_AUTH_ID, 1, "lnsA");
	t_str(&a, RAD_REPLY_MESSAGE, -1, "welcome");
	why = "";
	ASSERT_EQ(t_parse(RAD_ACCESS_ACCEPT, &a, &r, &why), 0);
	EXPECT_EQ(r.code, RAD_ACCESS_ACCEPT);
	EXPECT_EQ(r.tags, (1u << 1) | (1u << 2));
	EXPECT_EQ(r.ignored, 0u);
	EXPECT_STREQ(r.message, "welcome");
	EXPECT_EQ(r.tun[1].type, (uint32_t)RAD_TUNNEL_L2TP);
	EXPECT_EQ(r.tun[1].medium, (uint32_t)RAD_MEDIUM_IPV4);
	EXPECT_EQ(r.tun[1].preference, 10u);
	EXPECT_EQ(r.tun[2].preference, 20u);
	EXPECT_STREQ(r.tun[1].server, "10.1.0.1");
	EXPECT_STREQ(r.tun[1].password, "tunnelsecret");
	EXPECT_STREQ(r.tun[1].assignment, "lns-a");
	EXPECT_EQ(r.tun[1].seen, 0x1ffu & ~(1u << RAD_TK_CLIENT));
	EXPECT_EQ(r.tun[2].seen, (1u << RAD_TK_TYPE) | (1u << RAD_TK_MEDIUM) |
		  (1u << RAD_TK_SERVER) | (1u << RAD_TK_PREFERENCE));
	EXPECT_STREQ(r.tun[2].password, "");
	n = rad_tunnel_set(&r, out, &skipped, &why);
	ASSERT_EQ(n, 2u);
	EXPECT_EQ(skipped, 0u);
	EXPECT_TRUE(why == NULL);
	EXPECT_EQ(out[0].tag, 1);
	EXPECT_EQ(out[0].level, 0);
	EXPECT_STREQ(out[0].name, "lns-a");
	EXPECT_STREQ(out[0].remote, "10.1.0.1");
	EXPECT_STREQ(out[0].local, "");
	EXPECT_STREQ(out[0].secret, "tunnelsecret");
	EXPECT_STREQ(out[0].client_auth, "lac1");
	EXPECT_STREQ(out[0].server_auth, "lnsA");
	EXPECT_EQ(out[1].tag, 2);
	EXPECT_EQ(out[1].level, 1);
	EXPECT_STREQ(out[1].name, "tag2");
	EXPECT_STREQ(out[1].remote, "10.1.0.2");
	EXPECT_STREQ(out[1].local, "");
	EXPECT_STREQ(out[1].secret, "");
	EXPECT_STREQ(out[1].client_auth, "");
	EXPECT_STREQ(out[1].server_auth, "");
	/* the Message-Authenticator first (RFC 3579 section 3.2 allows it anywhere) */
	{
		static uint8_t b[RAD_MAX_LEN];
		static struct tattrs m;
		size_t len;

		memcpy(m.b, "\x50\x12", 2);
		memset(m.b + 2, 0, 16);
		memcpy(m.b + 18, a.b, a.n);
		len = make_bare(b, m.b, 18 + a.n);
		sign(b, len);
		ASSERT_EQ(parse(b, len, NULL, &r, &why), 0);
		EXPECT_STREQ(r.tun[1].password, "tunnelsecret");
		EXPECT_EQ(rad_tunnel_set(&r, out, &skipped, &why), 2u);
	}
}

TEST(radius_tunnel_preference_levels)
{
	static const uint32_t pref9[9] = { 90, 10, 80, 20, 70, 30, 60, 40, 50 };
	static const uint8_t want9[9] = { 7, 0, 7, 1, 6, 2, 5, 3, 4 };
	static struct tattrs a;
	static struct rad_reply r;
	struct rad_set_entry out[RAD_SET_MAX];
	unsigned int n, skipped, i;
	const char *why;
	char ip[16];

	/* equal preferences, the same level; the next distinct one the next level */
	a.n = 0;
	t_l2tp(&a, 1, "10.1.0.1");
	t_int(&a, RAD_TUNNEL_PREFERENCE, 1, 5);
	t_l2tp(&a, 2, "10.1.0.2");
	t_int(&a, RAD_TUNNEL_PREFERENCE, 2, 1000);
	t_l2tp(&a, 3, "10.1.0.3");
	t_int(&a, RAD_TUNNEL_PREFERENCE, 3, 5);
	ASSERT_EQ(t_parse(RAD_ACCESS_ACCEPT, &a, &r, &why), 0);
	n = rad_tunnel_set(&r, out, &skipped, &why);
	ASSERT_EQ(n, 3u);
	EXPECT_EQ(out[0].level, 0);
	EXPECT_EQ(out[1].level, 1);
	EXPECT_EQ(out[2].level, 0);
	/* nine distinct ones, out of order: the 8th and 9th smallest are both level 7 */
	a.n = 0;
	for (i = 0; i < 9; i++) {
		snprintf(ip, sizeof(ip), "10.1.0.%u", i + 1);
		t_l2tp(&a, (uint8_t)(i + 1), ip);
		t_int(&a, RAD_TUNNEL_PREFERENCE, (uint8_t)(i + 1), pref9[i]);
	}
	ASSERT_EQ(t_parse(RAD_ACCESS_ACCEPT, &a, &r, &why), 0);
	n = rad_tunnel_set(&r, out, &skipped, &why);
	ASSERT_EQ(n, 9u);
	for (i = 0; i < 9; i++) {
		EXPECT_EQ(out[i].tag, i + 1);
		EXPECT_EQ(out[i].level, want9[i]);
	}
	/* no Tunnel-Preference: 0, the most preferred, level with an explicit 0 */
	a.n = 0;
	t_l2tp(&a, 1, "10.1.0.1");
	t_int(&a, RAD_TUNNEL_PREFERENCE, 1, 3);
	t_l2tp(&a, 2, "10.1.0.2");
	t_l2tp(&a, 3, "10.1.0.3");
	t_int(&a, RAD_TUNNEL_PREFERENCE, 3, 0);
	t_l2tp(&a, 4, "10.1.0.4");
	t_int(&a, RAD_TUNNEL_PREFERENCE, 4, 1);
	ASSERT_EQ(t_parse(RAD_ACCESS_ACCEPT, &a, &r, &why), 0);
	n = rad_tunnel_set(&r, out, &skipped, &why);
	ASSERT_EQ(n, 4u);
	EXPECT_EQ(out[0].level, 2);
	EXPECT_EQ(out[1].level, 0);
	EXPECT_EQ(out[2].level, 0);
	EXPECT_EQ(out[3].level, 1);
	/* the largest 3-octet preference is still above 0 */
	a.n = 0;
	t_l2tp(&a, 1, "10.1.0.1");
	t_int(&a, RAD_TUNNEL_PREFERENCE, 1, 0xffffff);
	t_l2tp(&a, 2, "10.1.0.2");
	ASSERT_EQ(t_parse(RAD_ACCESS_ACCEPT, &a, &r, &why), 0);
	EXPECT_EQ(r.tun[1].preference, 0xffffffu);
	ASSERT_EQ(rad_tunnel_set(&r, out, &skipped, &why), 2u);
	EXPECT_EQ(out[0].level, 1);
	EXPECT_EQ(out[1].level, 0);
}

TEST(radius_tunnel_untagged_strings_are_tag_0)
{
	static struct tattrs a;
	static struct rad_reply r;
	struct rad_set_entry out[RAD_SET_MAX];
	unsigned int n, skipped;
	const char *why;

	/* section 3: a first octet above 0x1f is the string's own; Tag 0 integers */
	a.n = 0;
	t_int(&a, RAD_TUNNEL_TYPE, 0, RAD_TUNNEL_L2TP);
	t_int(&a, RAD_TUNNEL_MEDIUM_TYPE, 0, RAD_MEDIUM_IPV4);
	t_str(&a, RAD_TUNNEL_SERVER_ENDPOINT, -1, "10.1.0.3");
	t_str(&a, RAD_TUNNEL_ASSIGNMENT_ID, -1, "lns-c");
	t_str(&a, RAD_TUNNEL_CLIENT_AUTH_ID, 0, "lac0");	/* an explicit Tag 0 */
	t_str(&a, RAD_TUNNEL_SERVER_AUTH_ID, -1, " lns");	/* 0x20: the string's */
	ASSERT_EQ(t_parse(RAD_ACCESS_ACCEPT, &a, &r, &why), 0);
	EXPECT_EQ(r.tags, 1u);
	EXPECT_STREQ(r.tun[0].server, "10.1.0.3");
	EXPECT_STREQ(r.tun[0].assignment, "lns-c");
	EXPECT_STREQ(r.tun[0].client_auth, "lac0");
	EXPECT_STREQ(r.tun[0].server_auth, " lns");
	n = rad_tunnel_set(&r, out, &skipped, &why);
	ASSERT_EQ(n, 1u);
	EXPECT_EQ(skipped, 0u);
	EXPECT_EQ(out[0].tag, 0);
	EXPECT_EQ(out[0].level, 0);
	EXPECT_STREQ(out[0].name, "lns-c");
	EXPECT_STREQ(out[0].remote, "10.1.0.3");
	EXPECT_STREQ(out[0].client_auth, "lac0");
	/* an untagged endpoint with tag-1 integers: two tags, neither a tunnel */
	a.n = 0;
	t_int(&a, RAD_TUNNEL_TYPE, 1, RAD_TUNNEL_L2TP);
	t_str(&a, RAD_TUNNEL_SERVER_ENDPOINT, -1, "10.1.0.3");
	ASSERT_EQ(t_parse(RAD_ACCESS_ACCEPT, &a, &r, &why), 0);
	EXPECT_EQ(r.tags, (1u << 0) | (1u << 1));
	EXPECT_EQ(rad_tunnel_set(&r, out, &skipped, &why), 0u);
	EXPECT_EQ(skipped, 2u);
	EXPECT_STREQ(why, "no Tunnel-Type L2TP");
	/* a first octet 0x1f is a Tag: the string is what follows */
	a.n = 0;
	t_l2tp(&a, 0x1f, "10.1.0.31");
	ASSERT_EQ(t_parse(RAD_ACCESS_ACCEPT, &a, &r, &why), 0);
	EXPECT_EQ(r.tags, 1u << 0x1f);
	EXPECT_STREQ(r.tun[0x1f].server, "10.1.0.31");
	ASSERT_EQ(rad_tunnel_set(&r, out, &skipped, &why), 1u);
	EXPECT_EQ(out[0].tag, 0x1f);
	EXPECT_STREQ(out[0].name, "tag31");
}

TEST(radius_tunnel_tags_skipped)
{
	static const struct {
		uint32_t type;
		int medium;		/* -1: none */
		const char *server, *client;	/* NULL: none */
		const char *why;
	} bad[] = {
		{ 1, RAD_MEDIUM_IPV4, "10.1.0.1", NULL, "no Tunnel-Type L2TP" },	/* PPTP */
		{ 0, RAD_MEDIUM_IPV4, "10.1.0.1", NULL, "no Tunnel-Type L2TP" },	/* none */
		{ RAD_TUNNEL_L2TP, RAD_MEDIUM_IPV4, NULL, NULL, "no Tunnel-Server-Endpoint" },
		{ RAD_TUNNEL_L2TP, RAD_MEDIUM_IPV4, "lns.example.net", NULL,
		  "Tunnel-Server-Endpoint is not an IPv4 or IPv6 address" },
		{ RAD_TUNNEL_L2TP, -1, "10.1.0.256", NULL,
		  "Tunnel-Server-Endpoint is not an IPv4 or IPv6 address" },
		{ RAD_TUNNEL_L2TP, RAD_MEDIUM_IPV6, "10.1.0.1", NULL,
		  "Tunnel-Medium-Type is not the server endpoint's family" },
		{ RAD_TUNNEL_L2TP, RAD_MEDIUM_IPV4, "2001:db8::1", NULL,
		  "Tunnel-Medium-Type is not the server endpoint's family" },
		{ RAD_TUNNEL_L2TP, 3, "10.1.0.1", NULL,
		  "Tunnel-Medium-Type is not the server endpoint's family" },
		{ RAD_TUNNEL_L2TP, RAD_MEDIUM_IPV4, "10.1.0.1", "2001:db8::9",
		  "Tunnel-Client-Endpoint is not an address of the server endpoint's family" },
		{ RAD_TUNNEL_L2TP, RAD_MEDIUM_IPV4, "10.1.0.1", "lac.example.net",
		  "Tunnel-Client-Endpoint is not an address of the server endpoint's family" },
	};
	static struct tattrs a;
	static struct rad_reply r;
	struct rad_set_entry out[RAD_SET_MAX];
	unsigned int n, skipped, i;
	const char *why;

	/* each alone, between two good tags: no entry, counted, named */
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		a.n = 0;
		t_l2tp(&a, 1, "10.1.0.1");
		if (bad[i].type)
			t_int(&a, RAD_TUNNEL_TYPE, 2, bad[i].type);
		if (bad[i].medium >= 0)
			t_int(&a, RAD_TUNNEL_MEDIUM_TYPE, 2, (uint32_t)bad[i].medium);
		if (bad[i].server)
			t_str(&a, RAD_TUNNEL_SERVER_ENDPOINT, 2, bad[i].server);
		if (bad[i].client)
			t_str(&a, RAD_TUNNEL_CLIENT_ENDPOINT, 2, bad[i].client);
		t_str(&a, RAD_TUNNEL_ASSIGNMENT_ID, 2, "bad");
		t_l2tp(&a, 3, "10.1.0.3");
		ASSERT_EQ(t_parse(RAD_ACCESS_ACCEPT, &a, &r, &why), 0);
		EXPECT_EQ(r.tags, 0xeu);
		why = NULL;
		n = rad_tunnel_set(&r, out, &skipped, &why);
		EXPECT_EQ(n, 2u);
		EXPECT_EQ(skipped, 1u);
		EXPECT_TRUE(why && !strncmp(why, bad[i].why, strlen(bad[i].why)));
		if (why && strncmp(why, bad[i].why, strlen(bad[i].why)))
			th_log("case %u: why \"%s\"", i, why);
		EXPECT_EQ(out[0].tag, 1);
		EXPECT_EQ(out[1].tag, 3);
	}
	/* all of them at once: the first one's reason */
	a.n = 0;
	t_int(&a, RAD_TUNNEL_TYPE, 1, 1);				/* PPTP */
	t_str(&a, RAD_TUNNEL_SERVER_ENDPOINT, 1, "10.1.0.1");
	t_int(&a, RAD_TUNNEL_TYPE, 2, RAD_TUNNEL_L2TP);			/* no endpoint */
	t_pw(&a, 2, 0x8001, "pw2");
	t_int(&a, RAD_TUNNEL_TYPE, 3, RAD_TUNNEL_L2TP);			/* a name */
	t_str(&a, RAD_TUNNEL_SERVER_ENDPOINT, 3, "lns.example.net");
	t_int(&a, RAD_TUNNEL_TYPE, 4, RAD_TUNNEL_L2TP);			/* medium IPv6 */
	t_int(&a, RAD_TUNNEL_MEDIUM_TYPE, 4, RAD_MEDIUM_IPV6);
	t_str(&a, RAD_TUNNEL_SERVER_ENDPOINT, 4, "10.1.0.4");
	t_l2tp(&a, 5, "10.1.0.5");					/* client IPv6 */
	t_str(&a, RAD_TUNNEL_CLIENT_ENDPOINT, 5, "2001:db8::5");
	t_int(&a, RAD_TUNNEL_TYPE, 6, RAD_TUNNEL_L2TP);			/* IPv6: good */
	t_int(&a, RAD_TUNNEL_MEDIUM_TYPE, 6, RAD_MEDIUM_IPV6);
	t_str(&a, RAD_TUNNEL_SERVER_ENDPOINT, 6, "2001:db8::1");
	t_str(&a, RAD_TUNNEL_CLIENT_ENDPOINT, 6, "2001:db8::2");
	t_l2tp(&a, 7, "10.1.0.7");					/* a local address: good */
	t_str(&a, RAD_TUNNEL_CLIENT_ENDPOINT, 7, "192.0.2.7");
	t_int(&a, RAD_TUNNEL_TYPE, 8, RAD_TUNNEL_L2TP);			/* IPv6, no medium: good */
	t_str(&a, RAD_TUNNEL_SERVER_ENDPOINT, 8, "2001:db8::8");
	ASSERT_EQ(t_parse(RAD_ACCESS_ACCEPT, &a, &r, &why), 0);
	EXPECT_EQ(r.tags, 0x1feu);
	n = rad_tunnel_set(&r, out, &skipped, &why);
	ASSERT_EQ(n, 3u);
	EXPECT_EQ(skipped, 5u);
	EXPECT_STREQ(why, "no Tunnel-Type L2TP");
	EXPECT_EQ(out[0].tag, 6);
	EXPECT_STREQ(out[0].remote, "2001:db8::1");
	EXPECT_STREQ(out[0].local, "2001:db8::2");
	EXPECT_STREQ(out[0].name, "tag6");
	EXPECT_EQ(out[1].tag, 7);
	EXPECT_STREQ(out[1].remote, "10.1.0.7");
	EXPECT_STREQ(out[1].local, "192.0.2.7");
	EXPECT_EQ(out[2].tag, 8);
	EXPECT_STREQ(out[2].remote, "2001:db8::8");
	/* only a skipped tag: no entry at all */
	a.n = 0;
	t_int(&a, RAD_TUNNEL_TYPE, 4, RAD_TUNNEL_L2TP);
	t_str(&a, RAD_TUNNEL_SERVER_ENDPOINT, 4, "lns.example.net");
	ASSERT_EQ(t_parse(RAD_ACCESS_ACCEPT, &a, &r, &why), 0);
	EXPECT_EQ(rad_tunnel_set(&r, out, &skipped, &why), 0u);
	EXPECT_EQ(skipped, 1u);
	EXPECT_TRUE(why && strstr(why, "names are not resolved"));
	/* no tunnel attribute: nothing, nothing skipped */
	a.n = 0;
	t_str(&a, RAD_REPLY_MESSAGE, -1, "hi");
	ASSERT_EQ(t_parse(RAD_ACCESS_ACCEPT, &a, &r, &why), 0);
	EXPECT_EQ(r.tags, 0u);
	EXPECT_EQ(rad_tunnel_set(&r, out, &skipped, &why), 0u);
	EXPECT_EQ(skipped, 0u);
	EXPECT_TRUE(why == NULL);
}

/* @a refused with a reason containing @want. */
static void t_refused(const struct tattrs *a, const char *want, int line)
{
	static struct rad_reply r;
	const char *why = NULL;
	int ret = t_parse(RAD_ACCESS_ACCEPT, a, &r, &why);

	if (ret != -1)
		th_fail(__FILE__, line, "accepted, expected refused with \"%s\"", want);
	else if (!why || !strstr(why, want))
		th_fail(__FILE__, line, "why \"%s\", expected \"%s\"", why ? why : "(null)", want);
}

#define T_REFUSED(a, want) t_refused(a, want, __LINE__)

TEST(radius_tunnel_refused_replies)
{
	static const char twice[] = "twice in one tag";
	static const char notfour[] = "not 4 octets";
	static const char tag[] = "Tag is missing or above 0x1f";
	static const char pw[] = "Tunnel-Password";
	static const char text[] = "text is empty, longer than 63 octets or has a NUL";
	static const uint8_t other[RAD_AUTH_LEN] = "another-req-auth";
	static struct tattrs a;
	static struct rad_reply r;
	char t63[64], t64[65], p63[64];
	const char *why;
	uint8_t v[8];

	memset(t63, 'x', 63);
	t63[63] = '\0';
	memset(t64, 'x', 64);
	t64[64] = '\0';
	/* the same attribute twice in one tag, of each form */
	a.n = 0;
	t_l2tp(&a, 1, "10.1.0.1");
	t_int(&a, RAD_TUNNEL_TYPE, 1, RAD_TUNNEL_L2TP);
	T_REFUSED(&a, twice);
	a.n = 0;
	t_l2tp(&a, 1, "10.1.0.1");
	t_str(&a, RAD_TUNNEL_SERVER_ENDPOINT, 1, "10.1.0.2");
	T_REFUSED(&a, twice);
	a.n = 0;
	t_int(&a, RAD_TUNNEL_PREFERENCE, 3, 1);
	t_int(&a, RAD_TUNNEL_PREFERENCE, 3, 2);
	T_REFUSED(&a, twice);
	a.n = 0;
	t_pw(&a, 1, 0x8123, "one");
	t_pw(&a, 1, 0x8124, "two");
	T_REFUSED(&a, twice);
	a.n = 0;
	t_str(&a, RAD_TUNNEL_ASSIGNMENT_ID, 5, "a");
	t_str(&a, RAD_TUNNEL_ASSIGNMENT_ID, 5, "b");
	T_REFUSED(&a, twice);
	a.n = 0;
	t_str(&a, RAD_TUNNEL_CLIENT_AUTH_ID, 5, "a");
	t_str(&a, RAD_TUNNEL_CLIENT_AUTH_ID, 5, "b");
	T_REFUSED(&a, twice);
	a.n = 0;
	t_str(&a, RAD_TUNNEL_SERVER_AUTH_ID, 5, "a");
	t_str(&a, RAD_TUNNEL_SERVER_AUTH_ID, 5, "b");
	T_REFUSED(&a, twice);
	a.n = 0;
	t_str(&a, RAD_TUNNEL_CLIENT_ENDPOINT, 5, "10.0.0.1");
	t_str(&a, RAD_TUNNEL_CLIENT_ENDPOINT, 5, "10.0.0.2");
	T_REFUSED(&a, twice);
	a.n = 0;
	t_int(&a, RAD_TUNNEL_MEDIUM_TYPE, 0, 1);
	t_int(&a, RAD_TUNNEL_MEDIUM_TYPE, 0, 1);
	T_REFUSED(&a, twice);
	/* untagged and explicitly tag 0: the same tag */
	a.n = 0;
	t_str(&a, RAD_TUNNEL_SERVER_ENDPOINT, -1, "10.1.0.3");
	t_str(&a, RAD_TUNNEL_SERVER_ENDPOINT, 0, "10.1.0.4");
	T_REFUSED(&a, twice);
	/* tagged integers of 3 or 5 octets, or with no Tag at all */
	memcpy(v, "\x01\x00\x00\x03\x00", 5);
	a.n = 0;
	t_raw(&a, RAD_TUNNEL_TYPE, v, 3);
	T_REFUSED(&a, notfour);
	a.n = 0;
	t_raw(&a, RAD_TUNNEL_TYPE, v, 5);
	T_REFUSED(&a, notfour);
	a.n = 0;
	t_raw(&a, RAD_TUNNEL_PREFERENCE, v, 1);
	T_REFUSED(&a, notfour);
	a.n = 0;
	t_raw(&a, RAD_TUNNEL_MEDIUM_TYPE, v, 0);
	T_REFUSED(&a, tag);
	/* an integer's Tag above 0x1f */
	a.n = 0;
	t_int(&a, RAD_TUNNEL_TYPE, 0x20, RAD_TUNNEL_L2TP);
	T_REFUSED(&a, tag);
	a.n = 0;
	t_int(&a, RAD_TUNNEL_MEDIUM_TYPE, 0xff, RAD_MEDIUM_IPV4);
	T_REFUSED(&a, tag);
	a.n = 0;
	t_int(&a, RAD_TUNNEL_PREFERENCE, 0x80, 1);
	T_REFUSED(&a, tag);
	/* Tunnel-Password: Tag above 0x1f, a Salt without its high bit */
	a.n = 0;
	t_pw_raw(&a, 0x20, 0x8123, 3, "abc", 3, 16, ra);
	T_REFUSED(&a, tag);
	a.n = 0;
	t_pw_raw(&a, 1, 0x0123, 3, "abc", 3, 16, ra);
	T_REFUSED(&a, pw);
	a.n = 0;
	t_pw_raw(&a, 1, 0x7fff, 3, "abc", 3, 16, ra);
	T_REFUSED(&a, pw);
	/* the encrypted String not a multiple of 16, shorter than 16, absent */
	a.n = 0;
	t_pw_raw(&a, 1, 0x8123, 3, "abc", 3, 17, ra);
	T_REFUSED(&a, pw);
	a.n = 0;
	t_pw_raw(&a, 1, 0x8123, 3, "abc", 3, 31, ra);
	T_REFUSED(&a, pw);
	a.n = 0;
	t_pw_raw(&a, 1, 0x8123, 3, "abc", 3, 15, ra);
	T_REFUSED(&a, pw);
	a.n = 0;
	t_pw_raw(&a, 1, 0x8123, 3, "abc", 3, 0, ra);
	T_REFUSED(&a, pw);
	a.n = 0;
	t_raw(&a, RAD_TUNNEL_PASSWORD, "\x01\x81", 2);
	T_REFUSED(&a, pw);
	a.n = 0;
	t_raw(&a, RAD_TUNNEL_PASSWORD, "", 0);
	T_REFUSED(&a, tag);
	/* the decrypted length octet 0, beyond the data, beyond 63 */
	a.n = 0;
	t_pw_raw(&a, 1, 0x8123, 0, "abc", 3, 16, ra);
	T_REFUSED(&a, pw);
	a.n = 0;
	t_pw_raw(&a, 1, 0x8123, 16, "abcdefghijklmno", 15, 16, ra);
	T_REFUSED(&a, pw);
	a.n = 0;
	t_pw_raw(&a, 1, 0x8123, 200, "abc", 3, 32, ra);
	T_REFUSED(&a, pw);
	memset(p63, 'p', 63);
	p63[63] = '\0';
	a.n = 0;
	t_pw_raw(&a, 1, 0x8123, 64, t64, 64, 80, ra);
	T_REFUSED(&a, pw);
	/* a NUL inside the password */
	a.n = 0;
	t_pw_raw(&a, 1, 0x8123, 3, "a\0c", 3, 16, ra);
	T_REFUSED(&a, pw);
	/* the bounds themselves decode: 15 octets in one block, 63 in four */
	a.n = 0;
	t_pw_raw(&a, 1, 0x8123, 15, "abcdefghijklmno", 15, 16, ra);
	ASSERT_EQ(t_parse(RAD_ACCESS_ACCEPT, &a, &r, &why), 0);
	EXPECT_STREQ(r.tun[1].password, "abcdefghijklmno");
	a.n = 0;
	t_pw_raw(&a, 1, 0xffff, 63, p63, 63, 64, ra);
	ASSERT_EQ(t_parse(RAD_ACCESS_ACCEPT, &a, &r, &why), 0);
	EXPECT_STREQ(r.tun[1].password, p63);
	/* padding beyond the length octet is not the password's */
	a.n = 0;
	t_pw_raw(&a, 1, 0x8123, 2, "abc", 3, 48, ra);
	ASSERT_EQ(t_parse(RAD_ACCESS_ACCEPT, &a, &r, &why), 0);
	EXPECT_STREQ(r.tun[1].password, "ab");
	/* encrypted for another request: refused, or at least not the password */
	a.n = 0;
	t_pw_raw(&a, 1, 0x8123, 12, "tunnelsecret", 12, 16, other);
	if (t_parse(RAD_ACCESS_ACCEPT, &a, &r, &why) == 0)
		EXPECT_TRUE(strcmp(r.tun[1].password, "tunnelsecret") != 0);
	/* another Salt than the one it was encrypted with: the same */
	a.n = 0;
	t_pw(&a, 1, 0x8123, "tunnelsecret");
	a.b[4] ^= 1;
	if (t_parse(RAD_ACCESS_ACCEPT, &a, &r, &why) == 0)
		EXPECT_TRUE(strcmp(r.tun[1].password, "tunnelsecret") != 0);
	/* texts: 63 octets fit, 64 do not, tagged or not; none empty or with a NUL */
	a.n = 0;
	t_str(&a, RAD_TUNNEL_SERVER_AUTH_ID, 1, t63);
	t_str(&a, RAD_TUNNEL_ASSIGNMENT_ID, -1, t63);
	ASSERT_EQ(t_parse(RAD_ACCESS_ACCEPT, &a, &r, &why), 0);
	EXPECT_STREQ(r.tun[1].server_auth, t63);
	EXPECT_STREQ(r.tun[0].assignment, t63);
	a.n = 0;
	t_str(&a, RAD_TUNNEL_SERVER_ENDPOINT, 1, t64);
	T_REFUSED(&a, text);
	a.n = 0;
	t_str(&a, RAD_TUNNEL_ASSIGNMENT_ID, -1, t64);
	T_REFUSED(&a, text);
	a.n = 0;
	t_str(&a, RAD_TUNNEL_CLIENT_AUTH_ID, 2, t64);
	T_REFUSED(&a, text);
	a.n = 0;
	t_raw(&a, RAD_TUNNEL_SERVER_ENDPOINT, "\x01" "10.1\0.0.1", 10);
	T_REFUSED(&a, text);
	a.n = 0;
	t_raw(&a, RAD_TUNNEL_CLIENT_ENDPOINT, "10.1.0.1\0", 9);
	T_REFUSED(&a, text);
	a.n = 0;
	t_raw(&a, RAD_TUNNEL_ASSIGNMENT_ID, "\x03", 1);		/* a Tag, no text */
	T_REFUSED(&a, text);
	a.n = 0;
	t_raw(&a, RAD_TUNNEL_SERVER_AUTH_ID, "", 0);
	T_REFUSED(&a, text);
	/* a refused attribute after good ones still refuses the whole reply */
	a.n = 0;
	t_l2tp(&a, 1, "10.1.0.1");
	t_str(&a, RAD_REPLY_MESSAGE, -1, "ok");
	t_int(&a, RAD_TUNNEL_TYPE, 0x1f + 1, RAD_TUNNEL_L2TP);
	T_REFUSED(&a, tag);
}

TEST(radius_tunnel_ignored_outside_accept)
{
	static struct tattrs a;
	static struct rad_reply r;
	struct rad_set_entry out[RAD_SET_MAX];
	unsigned int skipped;
	const char *why;

	/* well formed, and ones an Access-Accept would refuse: all ignored */
	a.n = 0;
	t_l2tp(&a, 1, "10.1.0.1");
	t_pw(&a, 1, 0x8123, "tunnelsecret");
	t_int(&a, RAD_TUNNEL_TYPE, 1, RAD_TUNNEL_L2TP);		/* twice */
	t_raw(&a, RAD_TUNNEL_PREFERENCE, "\x01\x00\x05", 3);		/* 3 octets */
	t_int(&a, RAD_TUNNEL_MEDIUM_TYPE, 0x40, 1);			/* Tag 0x40 */
	t_pw_raw(&a, 1, 0x0001, 0, "", 0, 5, ra);			/* bad Salt */
	t_str(&a, RAD_TUNNEL_ASSIGNMENT_ID, 1, "lns-a");
	t_str(&a, RAD_REPLY_MESSAGE, -1, "no");
	ASSERT_EQ(t_parse(RAD_ACCESS_REJECT, &a, &r, &why), 0);
	EXPECT_EQ(r.code, RAD_ACCESS_REJECT);
	EXPECT_EQ(r.ignored, 9u);
	EXPECT_EQ(r.tags, 0u);
	EXPECT_STREQ(r.message, "no");
	EXPECT_STREQ(r.tun[1].password, "");
	EXPECT_EQ(rad_tunnel_set(&r, out, &skipped, &why), 0u);
	EXPECT_EQ(skipped, 0u);
	/* nor in an Access-Challenge */
	ASSERT_EQ(t_parse(RAD_ACCESS_CHALLENGE, &a, &r, &why), 0);
	EXPECT_EQ(r.ignored, 9u);
	EXPECT_EQ(r.tags, 0u);
}

TEST(radius_tunnel_names_and_bound)
{
	static struct tattrs a;
	static struct rad_reply r;
	struct rad_set_entry out[RAD_SET_MAX];
	unsigned int n, skipped, i;
	const char *why;
	char s[64];

	/* the same Assignment-Id twice: the second is "tagN" */
	a.n = 0;
	t_l2tp(&a, 1, "10.1.0.1");
	t_str(&a, RAD_TUNNEL_ASSIGNMENT_ID, 1, "lns-a");
	t_l2tp(&a, 2, "10.1.0.2");
	t_str(&a, RAD_TUNNEL_ASSIGNMENT_ID, 2, "lns-a");
	t_l2tp(&a, 3, "10.1.0.3");
	t_str(&a, RAD_TUNNEL_ASSIGNMENT_ID, 3, "lns-a");
	ASSERT_EQ(t_parse(RAD_ACCESS_ACCEPT, &a, &r, &why), 0);
	ASSERT_EQ(rad_tunnel_set(&r, out, &skipped, &why), 3u);
	EXPECT_STREQ(out[0].name, "lns-a");
	EXPECT_STREQ(out[1].name, "tag2");
	EXPECT_STREQ(out[2].name, "tag3");
	/* 31 octets fit name[32]; 32 do not, nor a leading '~' (a login's own set) */
	a.n = 0;
	memset(s, 'n', 31);
	s[31] = '\0';
	t_l2tp(&a, 1, "10.1.0.1");
	t_str(&a, RAD_TUNNEL_ASSIGNMENT_ID, 1, s);
	memset(s, 'm', 32);
	s[32] = '\0';
	t_l2tp(&a, 2, "10.1.0.2");
	t_str(&a, RAD_TUNNEL_ASSIGNMENT_ID, 2, s);
	memset(s, 'o', 63);
	s[63] = '\0';
	t_l2tp(&a, 3, "10.1.0.3");
	t_str(&a, RAD_TUNNEL_ASSIGNMENT_ID, 3, s);
	t_l2tp(&a, 4, "10.1.0.4");
	t_str(&a, RAD_TUNNEL_ASSIGNMENT_ID, 4, "~1");
	t_l2tp(&a, 5, "10.1.0.5");
	t_str(&a, RAD_TUNNEL_ASSIGNMENT_ID, 5, "a~");
	ASSERT_EQ(t_parse(RAD_ACCESS_ACCEPT, &a, &r, &why), 0);
	ASSERT_EQ(rad_tunnel_set(&r, out, &skipped, &why), 5u);
	EXPECT_EQ(strlen(out[0].name), 31u);
	EXPECT_STREQ(out[1].name, "tag2");
	EXPECT_STREQ(out[2].name, "tag3");
	EXPECT_STREQ(out[3].name, "tag4");
	EXPECT_STREQ(out[4].name, "a~");
	/* an Assignment-Id of the fallback's form is not used: names stay unique */
	a.n = 0;
	t_l2tp(&a, 1, "10.1.0.1");
	t_str(&a, RAD_TUNNEL_ASSIGNMENT_ID, 1, "x");
	t_l2tp(&a, 2, "10.1.0.2");
	t_str(&a, RAD_TUNNEL_ASSIGNMENT_ID, 2, "tag1");
	ASSERT_EQ(t_parse(RAD_ACCESS_ACCEPT, &a, &r, &why), 0);
	ASSERT_EQ(rad_tunnel_set(&r, out, &skipped, &why), 2u);
	EXPECT_STREQ(out[0].name, "x");
	EXPECT_STREQ(out[1].name, "tag2");
	a.n = 0;
	t_l2tp(&a, 1, "10.1.0.1");
	t_str(&a, RAD_TUNNEL_ASSIGNMENT_ID, 1, "tag2");
	t_l2tp(&a, 2, "10.1.0.2");
	ASSERT_EQ(t_parse(RAD_ACCESS_ACCEPT, &a, &r, &why), 0);
	ASSERT_EQ(rad_tunnel_set(&r, out, &skipped, &why), 2u);
	EXPECT_STREQ(out[0].name, "tag1");
	EXPECT_STREQ(out[1].name, "tag2");
	a.n = 0;
	t_l2tp(&a, 1, "10.1.0.1");
	t_str(&a, RAD_TUNNEL_ASSIGNMENT_ID, 1, "tag2x");
	ASSERT_EQ(t_parse(RAD_ACCESS_ACCEPT, &a, &r, &why), 0);
	ASSERT_EQ(rad_tunnel_set(&r, out, &skipped, &why), 1u);
	EXPECT_STREQ(out[0].name, "tag2x");
	a.n = 0;
	t_l2tp(&a, 1, "10.1.0.1");
	t_l2tp(&a, 2, "10.1.0.2");
	t_str(&a, RAD_TUNNEL_ASSIGNMENT_ID, 2, "tag1");
	ASSERT_EQ(t_parse(RAD_ACCESS_ACCEPT, &a, &r, &why), 0);
	ASSERT_EQ(rad_tunnel_set(&r, out, &skipped, &why), 2u);
	EXPECT_STREQ(out[0].name, "tag1");
	EXPECT_STREQ(out[1].name, "tag2");
	/* 32 tags (0 untagged .. 31), all good: 31 entries, the last one skipped */
	a.n = 0;
	for (i = 0; i < RAD_TAGS; i++) {
		snprintf(s, sizeof(s), "10.2.0.%u", i + 1);
		if (i) {
			t_l2tp(&a, (uint8_t)i, s);
		} else {
			t_int(&a, RAD_TUNNEL_TYPE, 0, RAD_TUNNEL_L2TP);
			t_str(&a, RAD_TUNNEL_SERVER_ENDPOINT, -1, s);
		}
		t_int(&a, RAD_TUNNEL_PREFERENCE, (uint8_t)i, i);
	}
	ASSERT_EQ(t_parse(RAD_ACCESS_ACCEPT, &a, &r, &why), 0);
	EXPECT_EQ(r.tags, 0xffffffffu);
	n = rad_tunnel_set(&r, out, &skipped, &why);
	ASSERT_EQ(n, (unsigned int)RAD_SET_MAX);
	EXPECT_EQ(skipped, 1u);
	EXPECT_STREQ(why, "more than 31 tunnels");
	for (i = 0; i < n; i++) {
		snprintf(s, sizeof(s), "10.2.0.%u", i + 1);
		EXPECT_EQ(out[i].tag, i);
		EXPECT_STREQ(out[i].remote, s);
		EXPECT_EQ(out[i].level, i > 7 ? 7 : i);
	}
	EXPECT_STREQ(out[0].name, "tag0");
	EXPECT_STREQ(out[30].name, "tag30");
	/* a skipped tag among them leaves room for tag 31 */
	a.n = 0;
	for (i = 1; i < RAD_TAGS; i++) {
		snprintf(s, sizeof(s), "10.2.0.%u", i + 1);
		t_l2tp(&a, (uint8_t)i, s);
	}
	t_int(&a, RAD_TUNNEL_TYPE, 0, 1);
	t_str(&a, RAD_TUNNEL_SERVER_ENDPOINT, -1, "10.2.0.1");
	ASSERT_EQ(t_parse(RAD_ACCESS_ACCEPT, &a, &r, &why), 0);
	n = rad_tunnel_set(&r, out, &skipped, &why);
	ASSERT_EQ(n, (unsigned int)RAD_SET_MAX);
	EXPECT_EQ(skipped, 1u);
	EXPECT_STREQ(why, "no Tunnel-Type L2TP");
	EXPECT_EQ(out[0].tag, 1);
	EXPECT_EQ(out[30].tag, 31);
}

/*
 * Acct-Interim-Interval (RFC 2869 section 5.16) in an Access-Accept: the
 * period of the call's Interim-Updates; twice, 0 or not 4 octets refuses the
 * reply; outside an Access-Accept it is ignored.
 */
TEST(radius_acct_interim_interval)
{
	static const uint8_t v600[4] = { 0, 0, 2, 0x58 }, v0[4] = { 0 }, v3[3] = { 0, 0, 1 };
	struct tattrs a = { .n = 0 };
	struct rad_reply r;
	const char *why;

	t_raw(&a, RAD_ACCT_INTERIM_INTERVAL, v600, 4);
	ASSERT_EQ(t_parse(RAD_ACCESS_ACCEPT, &a, &r, &why), 0);
	EXPECT_EQ(r.interim, 600u);
	EXPECT_EQ(r.ignored, 0u);
	ASSERT_EQ(t_parse(RAD_ACCESS_REJECT, &a, &r, &why), 0);
	EXPECT_EQ(r.interim, 0u);
	EXPECT_EQ(r.ignored, 1u);
	t_raw(&a, RAD_ACCT_INTERIM_INTERVAL, v600, 4);
	EXPECT_EQ(t_parse(RAD_ACCESS_ACCEPT, &a, &r, &why), -1);
	EXPECT_STREQ(why, "Acct-Interim-Interval twice, 0 or not 4 octets");
	a.n = 0;
	t_raw(&a, RAD_ACCT_INTERIM_INTERVAL, v0, 4);
	EXPECT_EQ(t_parse(RAD_ACCESS_ACCEPT, &a, &r, &why), -1);
	a.n = 0;
	t_raw(&a, RAD_ACCT_INTERIM_INTERVAL, v3, 3);
	EXPECT_EQ(t_parse(RAD_ACCESS_ACCEPT, &a, &r, &why), -1);
}
