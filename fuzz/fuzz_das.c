// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for what l2tpseld's server of dynamic authorization does
 * with a request before it acts (das.c's rad_das_check() and
 * rad_das_remember(); S-RAD-5, S-SEC-8; RFC 5176 section 2.3 and its replay
 * protection): authentication, the duplicate cache, the Event-Timestamp
 * window, and the answer.  One input is a run of datagrams from two clients
 * through one small cache on a clock that only moves forward:
 *
 *	byte 0		bit 0: radius-das-require-event-timestamp;
 *			bits 1-2: radius-das-event-window 1, 30, 300 or 3600 s
 *	then records	ctl, arg, length (2 octets), the datagram
 *	ctl		bit 0: sign it (the Request Authenticator, then a
 *			Message-Authenticator when it has one, as a client
 *			would); bit 1: first set its Event-Timestamp to the
 *			clock + (int8_t)arg * 5 s; bit 2: from client 1 (its
 *			own secret), else client 0; bits 4-7: the clock moves
 *			on by that many times 20 s first
 *
 * A datagram the harness did not sign is always dropped (the fuzzer cannot
 * forge MD5).  What the checks must never do: act (RAD_DAS_NEW without an
 * Error-Cause) twice on one request with an Event-Timestamp, however many
 * others came between; act on a stale one; act on one without when it is
 * required.  Each answer, new or sent again, must be a well-formed packet of
 * the request's kind answering its Identifier.  Every datagram is an exactly
 * sized copy, so ASan catches a read past it.
 *
 *	make fuzz-smoke FUZZ_TARGETS=das	bounded run (mk/fuzz.mk)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "md5.h"
#include "radius.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

#define T0_MS		1700000000000ull
#define CACHE		8
#define MAX_ACTED	64

static const uint8_t *const secrets[2] = { (const uint8_t *)"fuzz-das-0",
					   (const uint8_t *)"fuzz-das-client-1" };

static size_t slen(unsigned int k)
{
	return strlen((const char *)secrets[k]);
}

/* The first attribute of @type among those Length covers, as far as they walk: its offset, or 0. */
static size_t find_attr(const uint8_t *b, size_t plen, uint8_t type, uint8_t alen)
{
	size_t o;

	for (o = RAD_HDR_LEN; o + 2 <= plen && b[o + 1] >= 2 && o + b[o + 1] <= plen; o += b[o + 1])
		if (b[o] == type && b[o + 1] == alen)
			return o;
	return 0;
}

/*
 * Sign @b as client @k would: a Message-Authenticator (when it has one) over
 * the request with a zero Request Authenticator, then the Request
 * Authenticator, MD5 over the request with 16 zero octets and the secret.
 */
static void sign(uint8_t *b, size_t n, unsigned int k)
{
	size_t plen = (size_t)(b[2] << 8 | b[3]), ma;
	struct md5_ctx ctx;

	if (plen < RAD_HDR_LEN || plen > n)
		return;
	memset(b + 4, 0, RAD_AUTH_LEN);
	ma = find_attr(b, plen, RAD_MESSAGE_AUTHENTICATOR, 18);
	if (ma) {
		memset(b + ma + 2, 0, 16);
		hmac_md5(secrets[k], slen(k), b, plen, b + ma + 2);
	}
	md5_init(&ctx);
	md5_update(&ctx, plen, b);
	md5_update(&ctx, slen(k), secrets[k]);
	md5_digest(&ctx, MD5_DIGEST_SIZE, b + 4);
}

static void check_answer(const uint8_t *a, size_t alen, const struct rad_dm *m)
{
	CHECK(alen >= RAD_HDR_LEN && alen <= RAD_MAX_LEN);
	CHECK((size_t)(a[2] << 8 | a[3]) == alen && a[1] == m->id);
	CHECK(a[0] == m->code + 1 || a[0] == m->code + 2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint64_t windows[4] = { 1000, 30000, 300000, 3600000 };
	static struct rad_dm m;
	static uint8_t out[RAD_MAX_LEN];
	struct { uint8_t client, auth[RAD_AUTH_LEN]; } acted[MAX_ACTED];
	unsigned int n_acted = 0, i;
	struct rad_das_cache c;
	uint64_t now = T0_MS, window;
	bool require;
	size_t at = 1;

	if (size < 1)
		return 0;
	require = data[0] & 1;
	window = windows[(data[0] >> 1) & 3];
	if (rad_das_cache_init(&c, CACHE))
		return 0;
	while (at + 4 <= size) {
		uint8_t ctl = data[at], arg = data[at + 1];
		size_t n = (size_t)(data[at + 2] << 8 | data[at + 3]), alen;
		unsigned int k = (ctl >> 2) & 1;
		const uint8_t *again;
		const char *why = NULL;
		enum rad_das_verdict v;
		uint8_t *b;

		at += 4;
		if (n > size - at)
			n = size - at;
		b = malloc(n ? n : 1);
		if (!b)
			break;
		memcpy(b, data + at, n);
		at += n;
		now += (uint64_t)(ctl >> 4) * 20000;
		if ((ctl & 2) && n >= RAD_HDR_LEN) {
			size_t plen = (size_t)(b[2] << 8 | b[3]), o;

			o = plen <= n ? find_attr(b, plen, RAD_EVENT_TIMESTAMP, 6) : 0;
			if (o) {
				uint32_t ts = (uint32_t)((int64_t)(now / 1000) + (int8_t)arg * 5);

				b[o + 2] = (uint8_t)(ts >> 24);
				b[o + 3] = (uint8_t)(ts >> 16);
				b[o + 4] = (uint8_t)(ts >> 8);
				b[o + 5] = (uint8_t)ts;
			}
		}
		if ((ctl & 1) && n >= RAD_HDR_LEN)
			sign(b, n, k);
		v = rad_das_check(&c, k, b, n, secrets[k], slen(k), window, require, now, &m,
				  &again, &alen, &why);
		switch (v) {
		case RAD_DAS_BAD:
			CHECK(why && *why && !again);
			break;
		case RAD_DAS_STALE:
			CHECK(ctl & 1);
			CHECK(m.has_ts && why && *why);
			CHECK((int64_t)m.ts * 1000 - (int64_t)now > (int64_t)window ||
			      (int64_t)now - (int64_t)m.ts * 1000 > (int64_t)window);
			break;
		case RAD_DAS_RESEND:
			CHECK(ctl & 1);
			CHECK(again != NULL);
			check_answer(again, alen, &m);
			break;
		case RAD_DAS_NEW:
			CHECK(ctl & 1);
			CHECK(m.code == RAD_DISCONNECT_REQUEST || m.code == RAD_COA_REQUEST);
			CHECK(m.has_ts || !require || m.cause);
			if (!m.cause && m.has_ts) {
				/* it acts: never twice on the same request */
				for (i = 0; i < n_acted; i++)
					CHECK(acted[i].client != k ||
					      memcmp(acted[i].auth, m.auth, RAD_AUTH_LEN));
				if (n_acted < MAX_ACTED) {
					acted[n_acted].client = (uint8_t)k;
					memcpy(acted[n_acted++].auth, m.auth, RAD_AUTH_LEN);
				}
			}
			/* ACK or NAK as das.c would, and remembered */
			alen = rad_dm_answer(&m, !m.cause && (arg & 1), m.cause ?: RAD_EC_SESSION_NOT_FOUND,
					     secrets[k], slen(k), out);
			check_answer(out, alen, &m);
			rad_das_remember(&c, k, &m, window, now, out, alen);
			break;
		}
		free(b);
	}
	rad_das_cache_free(&c);
	return 0;
}
