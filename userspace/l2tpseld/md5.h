/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MD5 (RFC 1321) and HMAC-MD5 (RFC 2104) from Nettle (Debian's
 * nettle-dev), used only where a protocol prescribes them: L2TP AVP hiding
 * and tunnel authentication (RFC 2661 §4.3, §5.1.1), the PPPoE AC-Cookie,
 * RADIUS authenticators and attribute hiding (RFC 2865 §3, §5.2; RFC 2868
 * §3.5; RFC 3579 §3.2).  Not a general-purpose hash for anything
 * security-critical.
 *
 * Incremental hashing is Nettle's own API: struct md5_ctx, md5_init(),
 * md5_update(ctx, length, data), md5_digest(ctx, MD5_DIGEST_SIZE, out).
 * The two one-shot helpers below are what the callers use besides.
 */
#ifndef L2D_MD5_H
#define L2D_MD5_H

#include <stddef.h>
#include <stdint.h>
#include <nettle/hmac.h>
#include <nettle/md5.h>

#define MD5_DIGEST_LEN MD5_DIGEST_SIZE

static inline void md5(const void *data, size_t len, uint8_t digest[MD5_DIGEST_LEN])
{
	struct md5_ctx ctx;

	md5_init(&ctx);
	md5_update(&ctx, len, data);
	md5_digest(&ctx, MD5_DIGEST_SIZE, digest);
}

/* HMAC-MD5 (RFC 2104); a key longer than 64 bytes is hashed first. */
static inline void hmac_md5(const uint8_t *key, size_t klen, const void *data, size_t len,
			    uint8_t out[MD5_DIGEST_LEN])
{
	struct hmac_md5_ctx ctx;

	hmac_md5_set_key(&ctx, klen, key);
	hmac_md5_update(&ctx, len, data);
	hmac_md5_digest(&ctx, MD5_DIGEST_SIZE, out);
}

#endif
