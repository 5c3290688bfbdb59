// SPDX-License-Identifier: GPL-2.0
/* MD5 from the description in RFC 1321 §3.1-3.5. */
#include <string.h>

#include "md5.h"

/* §3.4: T[i] = floor(4294967296 * abs(sin(i))), i = 1..64 */
static const uint32_t md5_t[64] = {
	0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee,
	0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
	0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be,
	0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
	0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa,
	0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
	0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed,
	0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
	0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c,
	0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
	0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05,
	0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
	0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039,
	0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
	0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1,
	0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

/* §3.4: per-round left-rotation amounts, four per round */
static const uint8_t md5_shift[4][4] = {
	{ 7, 12, 17, 22 }, { 5, 9, 14, 20 }, { 4, 11, 16, 23 }, { 6, 10, 15, 21 },
};

static uint32_t rotl32(uint32_t x, unsigned int n)
{
	return (x << n) | (x >> (32 - n));
}

static void md5_block(uint32_t state[4], const uint8_t *p)
{
	uint32_t x[16], a = state[0], b = state[1], c = state[2], d = state[3];
	unsigned int i;

	/* §3.4: the block as sixteen little-endian words */
	for (i = 0; i < 16; i++)
		x[i] = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 |
		       (uint32_t)p[4 * i + 2] << 16 | (uint32_t)p[4 * i + 3] << 24;

	for (i = 0; i < 64; i++) {
		unsigned int round = i / 16, k;
		uint32_t f, tmp;

		/* §3.4: the auxiliary function and message word of each round */
		switch (round) {
		case 0:
			f = (b & c) | (~b & d);
			k = i;
			break;
		case 1:
			f = (b & d) | (c & ~d);
			k = (5 * i + 1) % 16;
			break;
		case 2:
			f = b ^ c ^ d;
			k = (3 * i + 5) % 16;
			break;
		default:
			f = c ^ (b | ~d);
			k = (7 * i) % 16;
			break;
		}
		tmp = d;
		d = c;
		c = b;
		b = b + rotl32(a + f + x[k] + md5_t[i], md5_shift[round][i % 4]);
		a = tmp;
	}
	state[0] += a;
	state[1] += b;
	state[2] += c;
	state[3] += d;
}

void md5_init(struct md5_ctx *ctx)
{
	/* §3.3 */
	ctx->state[0] = 0x67452301;
	ctx->state[1] = 0xefcdab89;
	ctx->state[2] = 0x98badcfe;
	ctx->state[3] = 0x10325476;
	ctx->bytes = 0;
}

void md5_update(struct md5_ctx *ctx, const void *data, size_t len)
{
	const uint8_t *p = data;
	size_t have = ctx->bytes % 64;

	ctx->bytes += len;
	if (have) {
		size_t take = 64 - have < len ? 64 - have : len;

		memcpy(ctx->block + have, p, take);
		p += take;
		len -= take;
		if (have + take < 64)
			return;
		md5_block(ctx->state, ctx->block);
	}
	for (; len >= 64; p += 64, len -= 64)
		md5_block(ctx->state, p);
	if (len)
		memcpy(ctx->block, p, len);
}

void md5_final(struct md5_ctx *ctx, uint8_t digest[MD5_DIGEST_LEN])
{
	/* §3.1-3.2: a 1 bit, zeros to 56 mod 64, the bit length little-endian */
	static const uint8_t pad[64] = { 0x80 };
	uint64_t bits = ctx->bytes * 8;
	size_t have = ctx->bytes % 64;
	uint8_t len_le[8];
	unsigned int i;

	md5_update(ctx, pad, have < 56 ? 56 - have : 120 - have);
	for (i = 0; i < 8; i++)
		len_le[i] = (uint8_t)(bits >> (8 * i));
	md5_update(ctx, len_le, 8);
	for (i = 0; i < 16; i++)
		digest[i] = (uint8_t)(ctx->state[i / 4] >> (8 * (i % 4)));
	memset(ctx, 0, sizeof(*ctx));
}

void md5(const void *data, size_t len, uint8_t digest[MD5_DIGEST_LEN])
{
	struct md5_ctx ctx;

	md5_init(&ctx);
	md5_update(&ctx, data, len);
	md5_final(&ctx, digest);
}

#define HMAC_BLOCK	64	/* MD5's block size, RFC 2104 §2 "B" */

/* RFC 2104 §2: H(K XOR opad, H(K XOR ipad, text)) */
void hmac_md5(const uint8_t *key, size_t klen, const void *data, size_t len,
	      uint8_t out[MD5_DIGEST_LEN])
{
	uint8_t k[HMAC_BLOCK], pad[HMAC_BLOCK], inner[MD5_DIGEST_LEN];
	struct md5_ctx ctx;
	unsigned int i;

	memset(k, 0, sizeof(k));
	/* keys longer than B bytes are first hashed */
	if (klen > HMAC_BLOCK)
		md5(key, klen, k);
	else if (klen)
		memcpy(k, key, klen);

	for (i = 0; i < HMAC_BLOCK; i++)
		pad[i] = k[i] ^ 0x36;
	md5_init(&ctx);
	md5_update(&ctx, pad, HMAC_BLOCK);
	md5_update(&ctx, data, len);
	md5_final(&ctx, inner);

	for (i = 0; i < HMAC_BLOCK; i++)
		pad[i] = k[i] ^ 0x5c;
	md5_init(&ctx);
	md5_update(&ctx, pad, HMAC_BLOCK);
	md5_update(&ctx, inner, MD5_DIGEST_LEN);
	md5_final(&ctx, out);

	explicit_bzero(k, sizeof(k));
	explicit_bzero(pad, sizeof(pad));
	explicit_bzero(inner, sizeof(inner));
}
