// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld: MD5 against the RFC 1321 test suite, tunnel authentication
 * (S-L2TP-2, RFC 2661 §5.1.1) and hidden AVPs (S-L2TP-2, RFC 2661 §4.3)
 * against vectors computed independently from the RFCs' definitions (a
 * few lines of Python over hashlib, see Documentation/l2tp-protocol.md).
 */
#include <stdlib.h>

#include "harness.h"
#include "../../userspace/l2tpseld/auth.h"
#include "../../userspace/l2tpseld/hidden.h"
#include "../../userspace/l2tpseld/md5.h"

static const uint8_t secret_bytes[] = "tunnel-secret";
static const struct l2tp_secret secret = { secret_bytes, sizeof(secret_bytes) - 1 };
static const uint8_t rv16[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };

static void hex(char *out, const uint8_t *d, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

/* RFC 1321 appendix A.5 */
TEST(l2tp_md5_rfc1321_suite)
{
	static const struct { const char *in, *out; } v[] = {
		{ "", "d41d8cd98f00b204e9800998ecf8427e" },
		{ "a", "0cc175b9c0f1b6a831c399e269772661" },
		{ "abc", "900150983cd24fb0d6963f7d28e17f72" },
		{ "message digest", "f96b697d7cb7938d525a2f31aaf161d0" },
		{ "abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b" },
		{ "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
		  "d174ab98d277d9f5a5611c2c9f419d9f" },
		{ "1234567890123456789012345678901234567890"
		  "1234567890123456789012345678901234567890",
		  "57edf4a22be3c955ac49da2e2107b67a" },
	};
	uint8_t d[16];
	char h[33];
	unsigned int i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		md5(v[i].in, strlen(v[i].in), d);
		hex(h, d, 16);
		EXPECT_STREQ(h, v[i].out);
	}
}

/* Feeding MD5 in pieces gives the same digest, for every split point. */
TEST(l2tp_md5_incremental)
{
	uint8_t data[200], whole[16], parts[16];
	struct md5_ctx ctx;
	size_t split, i;

	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 7 + 3);
	md5(data, sizeof(data), whole);
	for (split = 0; split <= sizeof(data); split++) {
		md5_init(&ctx);
		md5_update(&ctx, split, data);
		md5_update(&ctx, sizeof(data) - split, data + split);
		md5_digest(&ctx, MD5_DIGEST_SIZE, parts);
		if (memcmp(whole, parts, 16)) {
			EXPECT_EQ(split, -1);
			break;
		}
	}
}

/* S-L2TP-2: response = MD5(message type octet + secret + challenge) */
TEST(l2tp_auth_challenge_response_vector)
{
	static const uint8_t challenge[] = { 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4 };
	static const uint8_t sccrp[16] = {
		0x43, 0xdf, 0xee, 0x42, 0x45, 0xbc, 0xa8, 0xfa,
		0x83, 0xa9, 0x6d, 0x94, 0xc8, 0xdd, 0xa5, 0x9a };
	static const uint8_t scccn[16] = {
		0x2f, 0xfc, 0x48, 0xf1, 0x9d, 0x64, 0xb1, 0xa4,
		0x6a, 0x74, 0x32, 0x47, 0x47, 0xd4, 0x23, 0x14 };
	uint8_t r[16];

	l2tp_auth_response(r, 2, secret.data, secret.len, challenge, sizeof(challenge));
	EXPECT_TRUE(!memcmp(r, sccrp, 16));
	l2tp_auth_response(r, 3, secret.data, secret.len, challenge, sizeof(challenge));
	EXPECT_TRUE(!memcmp(r, scccn, 16));

	EXPECT_TRUE(l2tp_auth_verify(sccrp, 16, 2, secret.data, secret.len,
				     challenge, sizeof(challenge)));
	/* the ID octet matters: an SCCRP response is not an SCCCN response */
	EXPECT_TRUE(!l2tp_auth_verify(sccrp, 16, 3, secret.data, secret.len,
				      challenge, sizeof(challenge)));
	/* the wrong secret, a wrong length: refused (§5.1.1 MUST disallow) */
	EXPECT_TRUE(!l2tp_auth_verify(sccrp, 16, 2, (const uint8_t *)"x", 1,
				      challenge, sizeof(challenge)));
	EXPECT_TRUE(!l2tp_auth_verify(sccrp, 15, 2, secret.data, secret.len,
				      challenge, sizeof(challenge)));
}

/* S-L2TP-2: one short segment: c = p xor MD5(type + S + RV), first 8 octets */
TEST(l2tp_hidden_vector_short)
{
	static const uint8_t expect[] = { 0xd8, 0xc3, 0x8a, 0xb3, 0x9d, 0x70, 0xca, 0x69 };
	static const uint8_t value[] = { 0x12, 0x34 }, pad[] = { 0xaa, 0xaa, 0xaa, 0xaa };
	uint8_t out[32];
	const uint8_t *clear;
	size_t clear_len;
	int n;

	n = l2tp_hidden_encode(out, sizeof(out), 9, &secret, rv16, 16, value, 2,
			       pad, sizeof(pad));
	ASSERT_EQ(n, 8);
	EXPECT_TRUE(!memcmp(out, expect, 8));
	EXPECT_EQ(l2tp_hidden_decode(out, 8, 9, &secret, rv16, 16, &clear, &clear_len),
		  L2TP_HIDDEN_OK);
	EXPECT_EQ(clear_len, 2);
	EXPECT_TRUE(!memcmp(clear, value, 2));
}

/* S-L2TP-2: three segments chained through b(i) = MD5(S + c(i-1)) */
TEST(l2tp_hidden_vector_chained)
{
	static const uint8_t expect[35] = {
		0x7c, 0x2f, 0xfb, 0x0c, 0x19, 0x4a, 0x27, 0x57, 0xff, 0xf8, 0xa1, 0x3f,
		0x90, 0xeb, 0x34, 0x09, 0xb0, 0x2c, 0x0f, 0x0a, 0x86, 0x41, 0xea, 0xf0,
		0xff, 0xc1, 0x99, 0xc7, 0xb9, 0x46, 0x5c, 0x7b, 0xf9, 0x91, 0xcc };
	static const char name[] = "user@example.net-with-a-long-name";
	uint8_t out[64];
	const uint8_t *clear;
	size_t clear_len;
	int n;

	n = l2tp_hidden_encode(out, sizeof(out), 30, &secret, rv16, 16,
			       (const uint8_t *)name, strlen(name), NULL, 0);
	ASSERT_EQ(n, 35);
	EXPECT_TRUE(!memcmp(out, expect, 35));
	EXPECT_EQ(l2tp_hidden_decode(out, 35, 30, &secret, rv16, 16, &clear, &clear_len),
		  L2TP_HIDDEN_OK);
	ASSERT_EQ(clear_len, strlen(name));
	EXPECT_TRUE(!memcmp(clear, name, clear_len));
}

/* S-L2TP-3 hidden-avp-length-trust: the decrypted length is checked */
TEST(l2tp_hidden_decode_refusals)
{
	uint8_t buf[40], clear_in[8] = { 0x03, 0xff, 1, 2, 3, 4, 5, 6 };
	static const uint8_t no_pad[1];
	const uint8_t *clear;
	size_t clear_len;
	int n;

	/* hide a subformat that claims 1023 octets in 6: encode raw, pad only */
	n = l2tp_hidden_encode(buf, sizeof(buf), 9, &secret, rv16, 16, NULL, 0,
			       clear_in + 2, 6);
	ASSERT_EQ(n, 8);
	/* patch the clear length field: xor in the difference */
	buf[0] ^= clear_in[0];
	buf[1] ^= clear_in[1];
	EXPECT_EQ(l2tp_hidden_decode(buf, 8, 9, &secret, rv16, 16, &clear, &clear_len),
		  L2TP_HIDDEN_BAD_LENGTH);

	EXPECT_EQ(l2tp_hidden_decode(buf, 1, 9, &secret, rv16, 16, &clear, &clear_len),
		  L2TP_HIDDEN_TOO_SHORT);
	EXPECT_EQ(l2tp_hidden_decode(buf, 8, 9, NULL, rv16, 16, &clear, &clear_len),
		  L2TP_HIDDEN_NO_SECRET);
	EXPECT_EQ(l2tp_hidden_decode(buf, 8, 9, &secret, NULL, 0, &clear, &clear_len),
		  L2TP_HIDDEN_NO_RANDOM_VECTOR);
	EXPECT_EQ(l2tp_hidden_encode(buf, 2, 9, &secret, rv16, 16, no_pad, 1, NULL, 0),
		  -L2TP_HIDDEN_NO_ROOM);
}

/* Round trips at every length around the 16-octet segment boundaries. */
TEST(l2tp_hidden_roundtrip_lengths)
{
	uint8_t value[80], buf[100], pad[7] = { 9, 8, 7, 6, 5, 4, 3 };
	const uint8_t *clear;
	size_t len, clear_len;
	int n;

	for (len = 0; len < sizeof(value); len++) {
		value[len] = (uint8_t)(len * 13);
		n = l2tp_hidden_encode(buf, sizeof(buf), 33, &secret, rv16, 5,
				       value, len, pad, len % 8);
		ASSERT_EQ(n, (int)(2 + len + len % 8));
		ASSERT_EQ(l2tp_hidden_decode(buf, (size_t)n, 33, &secret, rv16, 5,
					     &clear, &clear_len), L2TP_HIDDEN_OK);
		ASSERT_EQ(clear_len, len);
		ASSERT_TRUE(!len || !memcmp(clear, value, len));
	}
}
