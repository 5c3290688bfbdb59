// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for l2tpseld's Disconnect-Request decoding and its
 * answer (S-RAD-5; RFC 5176 sections 2.3, 3 and 3.5, RFC 3579 section
 * 3.2).  Each input after its first byte is one datagram from a Dynamic
 * Authorization Client.  With bit 0 of the first byte the harness signs it
 * first (the Request Authenticator over the bytes Length covers): an
 * unsigned one must always be dropped, as the fuzzer cannot forge MD5; a
 * signed one reaches the attribute walk.  A request that parses is answered
 * (ACK, or NAK with its Error-Cause) and the answer must be a well-formed
 * packet of the request's kind inside RAD_MAX_LEN; the input copy is
 * exactly sized, so ASan catches a read past it.
 *
 *	make fuzz-smoke FUZZ_TARGETS=radius_dm	bounded run (mk/fuzz.mk)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "md5.h"
#include "radius.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static const uint8_t secret[] = "fuzz-das-secret";

/* Section 2.3: MD5(Code + ID + Length + 16 zero octets + Attributes + Secret). */
static void sign(uint8_t *b, size_t n)
{
	size_t plen = (size_t)(b[2] << 8 | b[3]);
	struct md5_ctx ctx;

	if (plen < RAD_HDR_LEN || plen > n)
		return;
	memset(b + 4, 0, RAD_AUTH_LEN);
	md5_init(&ctx);
	md5_update(&ctx, plen, b);
	md5_update(&ctx, sizeof(secret) - 1, secret);
	md5_digest(&ctx, MD5_DIGEST_SIZE, b + 4);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rad_dm m;
	static uint8_t out[RAD_MAX_LEN];
	const char *why = NULL;
	uint8_t *b;
	size_t n, alen;
	int ret;

	if (size < 1 || size > RAD_MAX_LEN + 1)
		return 0;
	n = size - 1;
	b = malloc(n ? n : 1);
	if (!b)
		return 0;
	memcpy(b, data + 1, n);
	if ((data[0] & 1) && n >= RAD_HDR_LEN)
		sign(b, n);
	ret = rad_dm_parse(b, n, secret, sizeof(secret) - 1, &m, &why);
	if (ret) {
		CHECK(why && *why);
	} else {
		CHECK(data[0] & 1);
		CHECK(m.code == RAD_DISCONNECT_REQUEST || m.code == RAD_COA_REQUEST);
		CHECK(m.code == RAD_DISCONNECT_REQUEST || m.cause);
		CHECK(m.cause || m.n_ids);
		CHECK(strlen(m.user) < sizeof(m.user) && strlen(m.acct_id) < sizeof(m.acct_id));
		CHECK(m.proxy_len <= n);
		alen = rad_dm_answer(&m, !m.cause && (data[0] & 2), m.cause, secret,
				     sizeof(secret) - 1, out);
		CHECK(alen >= RAD_HDR_LEN && alen <= RAD_MAX_LEN);
		CHECK((size_t)(out[2] << 8 | out[3]) == alen && out[1] == m.id);
		CHECK(out[0] == m.code + 1 || out[0] == m.code + 2);
	}
	free(b);
	return 0;
}
