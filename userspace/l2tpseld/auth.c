// SPDX-License-Identifier: GPL-2.0
/* Tunnel authentication Challenge/Response, RFC 2661 §5.1.1. */
#include "auth.h"
#include "md5.h"

void l2tp_auth_response(uint8_t response[L2TP_CHALLENGE_RESPONSE_LEN],
			uint8_t msg_type, const uint8_t *secret, size_t secret_len,
			const uint8_t *challenge, size_t challenge_len)
{
	struct md5_ctx ctx;

	md5_init(&ctx);
	md5_update(&ctx, 1, &msg_type);
	md5_update(&ctx, secret_len, secret);
	md5_update(&ctx, challenge_len, challenge);
	md5_digest(&ctx, MD5_DIGEST_SIZE, response);
}

bool l2tp_auth_verify(const uint8_t *received, size_t received_len,
		      uint8_t msg_type, const uint8_t *secret, size_t secret_len,
		      const uint8_t *challenge, size_t challenge_len)
{
	uint8_t expect[L2TP_CHALLENGE_RESPONSE_LEN], diff = 0;
	unsigned int i;

	if (received_len != L2TP_CHALLENGE_RESPONSE_LEN)
		return false;
	l2tp_auth_response(expect, msg_type, secret, secret_len, challenge,
			   challenge_len);
	for (i = 0; i < L2TP_CHALLENGE_RESPONSE_LEN; i++)
		diff |= expect[i] ^ received[i];
	return diff == 0;
}
