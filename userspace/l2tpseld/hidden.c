// SPDX-License-Identifier: GPL-2.0
/* Hidden AVP values, RFC 2661 §4.3. */
#include <string.h>

#include "hidden.h"
#include "md5.h"

/* b1 = MD5(type + S + RV); bi = MD5(S + c(i-1)) */
static void hidden_key(uint8_t key[MD5_DIGEST_LEN], uint16_t attr_type,
		       const struct l2tp_secret *secret, const uint8_t *rv,
		       size_t rv_len, const uint8_t *prev_cipher)
{
	struct md5_ctx ctx;
	uint8_t type_be[2] = { (uint8_t)(attr_type >> 8), (uint8_t)attr_type };

	md5_init(&ctx);
	if (!prev_cipher)
		md5_update(&ctx, 2, type_be);
	md5_update(&ctx, secret->len, secret->data);
	if (prev_cipher)
		md5_update(&ctx, MD5_DIGEST_LEN, prev_cipher);
	else
		md5_update(&ctx, rv_len, rv);
	md5_digest(&ctx, MD5_DIGEST_SIZE, key);
}

int l2tp_hidden_encode(uint8_t *out, size_t out_cap, uint16_t attr_type,
		       const struct l2tp_secret *secret,
		       const uint8_t *rv, size_t rv_len,
		       const uint8_t *value, size_t value_len,
		       const uint8_t *pad, size_t pad_len)
{
	size_t total = 2 + value_len + pad_len, off, i;
	uint8_t key[MD5_DIGEST_LEN];

	if (!secret || !secret->len)
		return -L2TP_HIDDEN_NO_SECRET;
	if (!rv)
		return -L2TP_HIDDEN_NO_RANDOM_VECTOR;
	if (value_len > 0xffff || total > out_cap)
		return -L2TP_HIDDEN_NO_ROOM;
	out[0] = (uint8_t)(value_len >> 8);
	out[1] = (uint8_t)value_len;
	if (value_len)
		memcpy(out + 2, value, value_len);
	if (pad_len)
		memcpy(out + 2 + value_len, pad, pad_len);

	for (off = 0; off < total; off += MD5_DIGEST_LEN) {
		hidden_key(key, attr_type, secret, rv, rv_len,
			   off ? out + off - MD5_DIGEST_LEN : NULL);
		/* a short last segment: only the octets present are changed */
		for (i = 0; i < MD5_DIGEST_LEN && off + i < total; i++)
			out[off + i] ^= key[i];
	}
	return (int)total;
}

enum l2tp_hidden_err l2tp_hidden_decode(uint8_t *data, size_t len,
					uint16_t attr_type,
					const struct l2tp_secret *secret,
					const uint8_t *rv, size_t rv_len,
					const uint8_t **value, size_t *value_len)
{
	uint8_t key[MD5_DIGEST_LEN], cipher[MD5_DIGEST_LEN];
	size_t off, i, orig;

	if (!secret || !secret->len)
		return L2TP_HIDDEN_NO_SECRET;
	if (!rv)
		return L2TP_HIDDEN_NO_RANDOM_VECTOR;
	if (len < 2)
		return L2TP_HIDDEN_TOO_SHORT;

	for (off = 0; off < len; off += MD5_DIGEST_LEN) {
		size_t seg = len - off < MD5_DIGEST_LEN ? len - off : MD5_DIGEST_LEN;

		/* the key of block i is made from ciphertext i-1: keep it */
		hidden_key(key, attr_type, secret, rv, rv_len, off ? cipher : NULL);
		memcpy(cipher, data + off, seg);
		for (i = 0; i < seg; i++)
			data[off + i] ^= key[i];
	}

	orig = (size_t)data[0] << 8 | data[1];
	if (orig > len - 2)
		return L2TP_HIDDEN_BAD_LENGTH;
	*value = data + 2;
	*value_len = orig;
	return L2TP_HIDDEN_OK;
}
