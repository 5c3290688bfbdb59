/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tunnel authentication, RFC 2661 §5.1.1 and §4.4.3 (Challenge, Challenge
 * Response): a CHAP-style response (RFC 1994) whose ID octet is the Message
 * Type of the message carrying the response (2 in SCCRP, 3 in SCCCN):
 *
 *	response = MD5(message type (1 octet) + shared secret + challenge)
 */
#ifndef L2D_AUTH_H
#define L2D_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define L2TP_CHALLENGE_RESPONSE_LEN 16

void l2tp_auth_response(uint8_t response[L2TP_CHALLENGE_RESPONSE_LEN],
			uint8_t msg_type, const uint8_t *secret, size_t secret_len,
			const uint8_t *challenge, size_t challenge_len);

/*
 * Check a received Challenge Response against the challenge we sent.  The
 * comparison takes the same time whatever the mismatch.
 * Return: true when it matches.
 */
bool l2tp_auth_verify(const uint8_t *received, size_t received_len,
		      uint8_t msg_type, const uint8_t *secret, size_t secret_len,
		      const uint8_t *challenge, size_t challenge_len);

#endif
