// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for l2tpseld's RADIUS reply decoding (S-RAD-1, S-RAD-3,
 * S-SEC-8; RFC 2865 sections 3 and 5, RFC 3579 section 3.2).  Each input
 * after its first byte is one datagram from a server.  The first byte
 * chooses where the profile is named (bit 0: Juniper's 26-2636-64, or a
 * plain attribute), whether the harness signs the datagram as it stands
 * after mutation (bit 1: the first Message-Authenticator in it over the
 * reply with the Request Authenticator in place, then the Response
 * Authenticator) and whether it first appends a Message-Authenticator when
 * the reply has none (bit 2).  An unsigned one must always be refused (the
 * fuzzer cannot forge MD5), as must an Access-Accept, -Reject or -Challenge
 * without a Message-Authenticator; a signed one reaches the attribute walk
 * and the decoding after it.  A reply that parses must keep its texts inside
 * their buffers; the copy is exactly sized, so ASan catches any read past
 * it.
 *
 *	make fuzz-smoke FUZZ_TARGETS=radius	bounded run (mk/fuzz.mk)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "md5.h"
#include "radius.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static const uint8_t secret[] = "fuzz-secret";
static const uint8_t req_auth[RAD_AUTH_LEN] = "0123456789abcdef";

/*
 * The first Message-Authenticator among the attributes Length covers, as far
 * as they walk: its offset; 0 when there is none or Length is out of bounds.
 */
static size_t find_ma(const uint8_t *b, size_t n)
{
	size_t plen = (size_t)(b[2] << 8 | b[3]), o;

	if (plen < RAD_HDR_LEN || plen > n)
		return 0;
	for (o = RAD_HDR_LEN; o + 2 <= plen && b[o + 1] >= 2 && o + b[o + 1] <= plen; o += b[o + 1])
		if (b[o] == RAD_MESSAGE_AUTHENTICATOR && b[o + 1] == 2 + MD5_DIGEST_LEN)
			return o;
	return 0;
}

/*
 * Sign @b as a server would, over the bytes Length covers, when it fits:
 * the Message-Authenticator at @ma (when not 0) over the reply with the
 * Request Authenticator in place, then the Response Authenticator.
 */
static void sign(uint8_t *b, size_t n, size_t ma)
{
	size_t plen = (size_t)(b[2] << 8 | b[3]);
	struct md5_ctx ctx;

	if (plen < RAD_HDR_LEN || plen > n)
		return;
	if (ma) {
		memcpy(b + 4, req_auth, RAD_AUTH_LEN);
		memset(b + ma + 2, 0, MD5_DIGEST_LEN);
		hmac_md5(secret, sizeof(secret) - 1, b, plen, b + ma + 2);
	}
	md5_init(&ctx);
	md5_update(&ctx, 4, b);
	md5_update(&ctx, RAD_AUTH_LEN, req_auth);
	md5_update(&ctx, plen - RAD_HDR_LEN, b + RAD_HDR_LEN);
	md5_update(&ctx, sizeof(secret) - 1, secret);
	md5_digest(&ctx, MD5_DIGEST_SIZE, b + 4);
}

/*
 * Bit 2: a copy of @b with a Message-Authenticator appended to the
 * attributes Length covers (the octets beyond it, padding, move up) and
 * Length raised, exactly sized; @b is freed.  Return: the copy, with
 * *@n and *@ma updated; @b itself when Length is out of bounds or the reply
 * would exceed 4096 octets.
 */
static uint8_t *add_ma(uint8_t *b, size_t *n, size_t *ma)
{
	size_t plen = (size_t)(b[2] << 8 | b[3]);
	uint8_t *c;

	if (plen < RAD_HDR_LEN || plen > *n || plen + 18 > RAD_MAX_LEN || !(c = malloc(*n + 18)))
		return b;
	memcpy(c, b, plen);
	c[plen] = RAD_MESSAGE_AUTHENTICATOR;
	c[plen + 1] = 18;
	memset(c + plen + 2, 0, 16);
	memcpy(c + plen + 18, b + plen, *n - plen);
	c[2] = (uint8_t)((plen + 18) >> 8);
	c[3] = (uint8_t)(plen + 18);
	free(b);
	*n += 18;
	*ma = plen;
	return c;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rad_set_entry set[RAD_SET_MAX];
	unsigned int skipped, i, j;
	struct rad_attr_ref prof;
	struct rad_reply r;
	const char *why = NULL;
	uint8_t *b;
	size_t n, ma = 0;
	int ret;

	if (size < 1 || size > RAD_MAX_LEN + 1)
		return 0;
	n = size - 1;
	prof.vendor = data[0] & 1 ? RAD_VENDOR_JUNIPER : 0;
	prof.type = data[0] & 1 ? RAD_JUNIPER_TUNNEL_GROUP : 25;
	b = malloc(n ? n : 1);
	if (!b)
		return 0;
	memcpy(b, data + 1, n);
	if ((data[0] & 2) && n >= RAD_HDR_LEN) {
		ma = find_ma(b, n);
		if (!ma && (data[0] & 4))
			b = add_ma(b, &n, &ma);
		sign(b, n, ma);
	}
	ret = rad_reply_parse(b, n, req_auth, secret, sizeof(secret) - 1, &prof, &r, &why);
	if (ret) {
		CHECK(why && *why);
	} else {
		CHECK(data[0] & 2);
		CHECK(r.code == RAD_ACCESS_ACCEPT || r.code == RAD_ACCESS_REJECT ||
		      r.code == RAD_ACCESS_CHALLENGE || r.code == RAD_ACCOUNTING_RESPONSE);
		/* S-SEC-8: an access reply parses only with the Message-Authenticator signed here */
		CHECK(r.code == RAD_ACCOUNTING_RESPONSE || ma);
		CHECK(strlen(r.message) <= RAD_MSG_MAX);
		CHECK(strlen(r.profile) < sizeof(r.profile));
		CHECK(r.code == RAD_ACCESS_ACCEPT || !r.tags);
		/* the tunnel set: bounded, unique names, levels 0..7 (S-RAD-2) */
		n = rad_tunnel_set(&r, set, &skipped, &why);
		CHECK(n <= RAD_SET_MAX && (!skipped || why));
		for (i = 0; i < (unsigned int)n; i++) {
			CHECK(set[i].level < 8 && set[i].name[0] && set[i].remote[0]);
			for (j = 0; j < i; j++)
				CHECK(strcmp(set[i].name, set[j].name));
		}
	}
	free(b);
	return 0;
}
