/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Control message parsing (RFC 2661 §3.1, §4.1-4.4, §7.1).
 *
 * l2tp_msg_parse() never reads outside [buf, buf + len), never allocates,
 * and says what to answer:
 *
 *   L2TP_ACT_DISCARD  malformed header (§3.1, §7.1 "should be discarded"):
 *                     drop silently, do not even give it to the reliable
 *                     layer.
 *   L2TP_ACT_ACCEPT   the header is good and so is the message (or it is a
 *                     ZLB): the reliable layer takes Ns/Nr, the FSM the rest.
 *   L2TP_ACT_IGNORE   the header is good, the Message Type is unknown and
 *                     not mandatory (§4.4.1): acknowledge, do nothing else.
 *   L2TP_ACT_STOPCCN  the header is good, the message is not: the reliable
 *   L2TP_ACT_CDN      layer takes Ns/Nr, then the FSM clears the tunnel
 *                     (StopCCN) or the session (CDN) with answer.result_code,
 *                     answer.error_code and answer.message (§4.1, §4.4.2).
 *
 * Hidden AVPs are revealed in place, so @buf is modified.
 */
#ifndef L2D_MSG_H
#define L2D_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "avp.h"
#include "hidden.h"
#include "l2tp.h"

struct l2tp_hdr {
	uint16_t flags;		/* the first 16 bits, version included */
	uint16_t length;	/* the Length field: the message ends there */
	uint16_t tunnel_id;
	uint16_t session_id;
	uint16_t ns;
	uint16_t nr;
	bool zlb;		/* no AVP at all: an acknowledgement only */
};

enum l2tp_action {
	L2TP_ACT_ACCEPT,
	L2TP_ACT_DISCARD,
	L2TP_ACT_IGNORE,
	L2TP_ACT_STOPCCN,
	L2TP_ACT_CDN,
};

/* Why a message, or an AVP, was refused. */
enum l2tp_perr {
	L2TP_PERR_NONE,
	/* header: discard */
	L2TP_PERR_HDR_SHORT,
	L2TP_PERR_HDR_VERSION,
	L2TP_PERR_HDR_DATA,
	L2TP_PERR_HDR_FLAGS,
	L2TP_PERR_HDR_LENGTH,
	/* AVP framing: the rest of the message cannot be found */
	L2TP_PERR_AVP_TRUNCATED,
	L2TP_PERR_AVP_LENGTH_UNDERFLOW,
	L2TP_PERR_AVP_LENGTH_OVERFLOW,
	/* message level */
	L2TP_PERR_NO_MESSAGE_TYPE,
	L2TP_PERR_UNKNOWN_MESSAGE_TYPE,
	L2TP_PERR_MISSING_AVP,
	L2TP_PERR_PROTOCOL_VERSION,
	/* one AVP: fatal with M set, ignored with M clear (§7.1) */
	L2TP_PERR_UNKNOWN_MANDATORY_AVP,
	L2TP_PERR_AVP_BAD_LENGTH,
	L2TP_PERR_AVP_BAD_VALUE,
	L2TP_PERR_AVP_DUPLICATE,
	L2TP_PERR_HIDDEN_FORBIDDEN,
	L2TP_PERR_HIDDEN_NO_SECRET,
	L2TP_PERR_HIDDEN_NO_RANDOM_VECTOR,
	L2TP_PERR_HIDDEN_BAD_LENGTH,
	L2TP_PERR_COUNT,
};

const char *l2tp_perr_name(enum l2tp_perr err);

struct l2tp_answer {
	enum l2tp_action action;
	enum l2tp_perr reason;
	uint16_t result_code;	/* for StopCCN / CDN */
	uint16_t error_code;
	uint16_t avp_vendor;	/* the offending AVP, when there is one */
	uint16_t avp_type;
	char message[64];	/* Error Message text (§4.4.2, error 8) */
};

struct l2tp_avp_val {
	const uint8_t *data;	/* clear value, inside the caller's buffer */
	uint16_t len;
	bool present;
	bool hidden;		/* it came hidden */
};

struct l2tp_msg {
	struct l2tp_hdr hdr;
	uint16_t type;		/* Message Type; 0 for a ZLB */
	struct l2tp_avp_val avp[L2TP_AVP_TYPE_COUNT];
	uint16_t n_avps;	/* all AVPs seen */
	uint16_t n_ignored;	/* unknown, misplaced or bad without M */
	enum l2tp_perr last_ignored;	/* for a log line */
	uint16_t last_ignored_type;
	struct l2tp_answer answer;
	const uint8_t *raw;	/* the message parsed (hidden AVPs revealed) */
	size_t raw_len;
};

/* Header only (§3.1). Return: L2TP_PERR_NONE or an L2TP_PERR_HDR_* code. */
enum l2tp_perr l2tp_hdr_parse(struct l2tp_hdr *hdr, const uint8_t *buf,
			      size_t len);
/* Set Ns and Nr in a built message (the reliable layer does, §5.8). */
void l2tp_hdr_set_seq(uint8_t *buf, uint16_t ns, uint16_t nr);

/*
 * Parse a datagram.  @secret may be NULL (no hidden AVP is then accepted).
 * Return: msg->answer.action.
 */
enum l2tp_action l2tp_msg_parse(struct l2tp_msg *msg, uint8_t *buf, size_t len,
				const struct l2tp_secret *secret);

/*
 * Build the StopCCN or CDN that @answer asks for (§6.4, §6.12): to the peer's
 * @peer_tunnel_id / @peer_session_id, with our @assigned_id as Assigned
 * Tunnel ID (StopCCN) or Assigned Session ID (CDN), and the Result Code AVP
 * with result, error and message.
 * Return: its length (Ns/Nr still to be set by the reliable layer), or 0
 * when the answer sends nothing or @cap is too small.
 */
size_t l2tp_build_answer(uint8_t *buf, size_t cap, const struct l2tp_answer *answer,
			 uint16_t peer_tunnel_id, uint16_t peer_session_id,
			 uint16_t assigned_id);

/*
 * The first AVP of IETF @type in a control message, found without parsing
 * or revealing anything (§4.1 framing only): false when it is absent,
 * hidden, or the message ends before it.  For the Host Name of an SCCRQ,
 * which chooses the secret the rest is revealed with (§4.3: never hidden).
 */
bool l2tp_msg_find_plain(const uint8_t *buf, size_t len, uint16_t type,
			 const uint8_t **val, size_t *vlen);

/* Typed getters; false when the AVP is absent (lengths were checked). */
bool l2tp_msg_get_u16(const struct l2tp_msg *msg, uint16_t type, uint16_t *v);
bool l2tp_msg_get_u32(const struct l2tp_msg *msg, uint16_t type, uint32_t *v);
bool l2tp_msg_get_u64(const struct l2tp_msg *msg, uint16_t type, uint64_t *v);

#endif
