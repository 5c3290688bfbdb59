/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MD5 (RFC 1321), written from the RFC's description.  Used only where
 * a protocol prescribes it: L2TP AVP hiding and tunnel authentication
 * (RFC 2661 §4.3, §5.1.1), the PPPoE AC-Cookie, RADIUS authenticators and
 * attribute hiding (RFC 2865 §3, §5.2; RFC 2868 §3.5; RFC 3579 §3.2).  Not a general-purpose hash for anything security-critical.
 */
#ifndef L2TPSELD_MD5_H
#define L2TPSELD_MD5_H

#include <stddef.h>
#include <stdint.h>

#define MD5_DIGEST_LEN 16

struct md5_ctx {
	uint32_t state[4];
	uint64_t bytes;		/* total message length so far */
	uint8_t block[64];	/* pending partial block */
};

void md5_init(struct md5_ctx *ctx);
void md5_update(struct md5_ctx *ctx, const void *data, size_t len);
void md5_final(struct md5_ctx *ctx, uint8_t digest[MD5_DIGEST_LEN]);
void md5(const void *data, size_t len, uint8_t digest[MD5_DIGEST_LEN]);
/* HMAC-MD5 (RFC 2104); a key longer than 64 bytes is hashed first. */
void hmac_md5(const uint8_t *key, size_t klen, const void *data, size_t len,
	      uint8_t out[MD5_DIGEST_LEN]);

#endif
