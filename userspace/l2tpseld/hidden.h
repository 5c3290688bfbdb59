/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hidden AVP values, RFC 2661 §4.3.  The hidden subformat is
 *	| Length of Original Value (2) | Original Value | Padding |
 * XORed block by block with
 *	b1 = MD5(attribute type (2 octets) + secret + random vector)
 *	bi = MD5(secret + c(i-1))
 * where c(i-1) is the previous 16 octets of ciphertext.
 */
#ifndef L2D_HIDDEN_H
#define L2D_HIDDEN_H

#include <stddef.h>
#include <stdint.h>

struct l2tp_secret {
	const uint8_t *data;
	size_t len;
};

enum l2tp_hidden_err {
	L2TP_HIDDEN_OK = 0,
	L2TP_HIDDEN_NO_SECRET,		/* H set but no shared secret (§4.3) */
	L2TP_HIDDEN_NO_RANDOM_VECTOR,	/* no Random Vector AVP before it */
	L2TP_HIDDEN_TOO_SHORT,		/* fewer than 2 octets of hidden data */
	L2TP_HIDDEN_BAD_LENGTH,		/* original length beyond hidden data */
	L2TP_HIDDEN_NO_ROOM,		/* encode: output buffer too small */
};

/*
 * Hide @value (@value_len octets) followed by @pad_len octets of @pad into
 * @out.  Writes 2 + @value_len + @pad_len octets.
 * Return: the number of octets written, or -(enum l2tp_hidden_err).
 */
int l2tp_hidden_encode(uint8_t *out, size_t out_cap, uint16_t attr_type,
		       const struct l2tp_secret *secret,
		       const uint8_t *rv, size_t rv_len,
		       const uint8_t *value, size_t value_len,
		       const uint8_t *pad, size_t pad_len);

/*
 * Reveal a hidden value in place: @data (@len octets, the AVP's Attribute
 * Value field) becomes the clear subformat.  On success *@value points at
 * the original value inside @data and *@value_len is its length, which is
 * never more than @len - 2 (the decrypted length is not trusted).
 * Return: L2TP_HIDDEN_OK or an error; on error @data may be partly decoded.
 */
enum l2tp_hidden_err l2tp_hidden_decode(uint8_t *data, size_t len,
					uint16_t attr_type,
					const struct l2tp_secret *secret,
					const uint8_t *rv, size_t rv_len,
					const uint8_t **value, size_t *value_len);

#endif
