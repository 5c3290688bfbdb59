/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The AVP dictionary of RFC 2661 §4.4 and AVP building.
 *
 * Every AVP of RFC 2661 has a rule: the length of its (clear) Attribute
 * Value, whether it may be hidden, the M bit a sender must set, and the
 * message types it may and must appear in (from §6.1-6.14).  Parsing lives
 * in msg.c and applies these rules; building appends AVPs to a message.
 */
#ifndef L2D_AVP_H
#define L2D_AVP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hidden.h"
#include "l2tp.h"

#define L2TP_MSG_BIT(t)	(1u << (t))

enum l2tp_avp_hiding {
	L2TP_HIDE_NEVER,	/* "the H-bit MUST be 0" */
	L2TP_HIDE_MAY,		/* "the H-bit may be 0 or 1" */
};

struct l2tp_avp_rule {
	uint16_t min_len;	/* Attribute Value octets, before hiding */
	uint16_t max_len;
	uint8_t hiding;		/* enum l2tp_avp_hiding */
	uint8_t m_bit;		/* what a sender MUST set */
	uint8_t nonzero;	/* a 2-octet value where 0 is out of range */
	uint32_t allowed;	/* L2TP_MSG_BIT() of the messages it may be in */
	uint32_t required;	/* ... and of those it MUST be in */
};

/*
 * Bit T set: a message of @msg_type MUST carry AVP type T (the rules'
 * "required"), so that a parse checks those only, not every type.
 */
uint64_t l2tp_avp_required(uint16_t msg_type);
_Static_assert(L2TP_AVP_TYPE_COUNT <= 64, "l2tp_avp_required() has 64 bits");

/* Return: the rule of an AVP, or NULL when it is not one we know. */
const struct l2tp_avp_rule *l2tp_avp_rule(uint16_t vendor, uint16_t type);

/* Unaligned big-endian access through memcpy. */
static inline uint16_t l2tp_get16(const uint8_t *p)
{
	uint8_t b[2];

	__builtin_memcpy(b, p, 2);
	return (uint16_t)(b[0] << 8 | b[1]);
}

static inline uint32_t l2tp_get32(const uint8_t *p)
{
	return (uint32_t)l2tp_get16(p) << 16 | l2tp_get16(p + 2);
}

static inline void l2tp_put16(uint8_t *p, uint16_t v)
{
	uint8_t b[2] = { (uint8_t)(v >> 8), (uint8_t)v };

	__builtin_memcpy(p, b, 2);
}

/*
 * Building a control message: l2tp_build_begin() writes the header and the
 * Message Type AVP, l2tp_put_*() append AVPs (the M bit from the
 * dictionary), l2tp_build_end() fills in the Length.  Errors are sticky:
 * after a failed put every later call fails and l2tp_build_end() returns 0.
 * Ns and Nr are set by the reliable layer (l2tp_hdr_set_seq()).
 */
struct l2tp_builder {
	uint8_t *buf;
	size_t cap;
	size_t len;
	int error;			/* 0, or the first -errno */
	const struct l2tp_secret *secret;
	const uint8_t *rv;		/* last Random Vector put, in buf */
	size_t rv_len;
};

void l2tp_build_begin(struct l2tp_builder *b, uint8_t *buf, size_t cap,
		      uint16_t tunnel_id, uint16_t session_id, uint16_t msg_type,
		      const struct l2tp_secret *secret);
/* Return: the message length, or 0 when a put failed. */
size_t l2tp_build_end(struct l2tp_builder *b);

/* A ZLB acknowledgement (§5.8). Return: its length, or 0 if @cap is short. */
size_t l2tp_build_zlb(uint8_t *buf, size_t cap, uint16_t tunnel_id,
		      uint16_t ns, uint16_t nr);

int l2tp_put_avp(struct l2tp_builder *b, uint16_t type, const void *value,
		 size_t len);
int l2tp_put_u16(struct l2tp_builder *b, uint16_t type, uint16_t v);
int l2tp_put_u32(struct l2tp_builder *b, uint16_t type, uint32_t v);
int l2tp_put_u64(struct l2tp_builder *b, uint16_t type, uint64_t v);
int l2tp_put_string(struct l2tp_builder *b, uint16_t type, const char *s);
/* Result Code: @error and @text are sent only when @error >= 0. */
int l2tp_put_result(struct l2tp_builder *b, uint16_t result, int error,
		    const char *text);
int l2tp_put_random_vector(struct l2tp_builder *b, const uint8_t *rv,
			   size_t len);
/* Hidden (§4.3) with the last Random Vector put and @pad_len octets of pad. */
int l2tp_put_hidden(struct l2tp_builder *b, uint16_t type, const void *value,
		    size_t len, const uint8_t *pad, size_t pad_len);
/* Anything at all, for tests and the fuzz corpus: no dictionary check. */
int l2tp_put_raw(struct l2tp_builder *b, uint16_t flags_len, uint16_t vendor,
		 uint16_t type, const void *value, size_t len);

/*
 * An AVP as l2tp_avp_walk() gives it: @w its first word (flags and
 * length), @v its value of @len bytes, hidden ones as they are.
 */
typedef void (*l2tp_avp_fn)(void *arg, uint16_t w, uint16_t vendor, uint16_t type,
			    const uint8_t *v, size_t len);
/*
 * @fn on each AVP of the control message @buf (@len bytes, header first)
 * as RFC 2661 section 4.1 lays them out, up to the header's Length; every
 * length is checked, so @buf may be any bytes: the walk ends at an AVP
 * whose length does not fit.  For readers of a few AVPs past the parser
 * (msg.c), which keeps one of each.
 */
void l2tp_avp_walk(const uint8_t *buf, size_t len, l2tp_avp_fn fn, void *arg);

#endif
