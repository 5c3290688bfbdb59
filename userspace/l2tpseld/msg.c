// SPDX-License-Identifier: GPL-2.0
/* Control message header and AVP parsing, RFC 2661 §3.1, §4, §7.1. */
#include <stdio.h>
#include <string.h>

#include "msg.h"
#include "accessline.h"
#include "lts.h"

static const char *const perr_names[L2TP_PERR_COUNT] = {
	[L2TP_PERR_NONE] = "ok",
	[L2TP_PERR_HDR_SHORT] = "datagram shorter than a control header",
	[L2TP_PERR_HDR_VERSION] = "version is not 2",
	[L2TP_PERR_HDR_DATA] = "data message",
	[L2TP_PERR_HDR_FLAGS] = "control header needs L=1 S=1 O=0 P=0",
	[L2TP_PERR_HDR_LENGTH] = "Length field below 12 or beyond the datagram",
	[L2TP_PERR_AVP_TRUNCATED] = "AVP header cut by the end of the message",
	[L2TP_PERR_AVP_LENGTH_UNDERFLOW] = "AVP length below 6",
	[L2TP_PERR_AVP_LENGTH_OVERFLOW] = "AVP length beyond the message",
	[L2TP_PERR_NO_MESSAGE_TYPE] = "first AVP is not a valid Message Type",
	[L2TP_PERR_UNKNOWN_MESSAGE_TYPE] = "unknown mandatory message type",
	[L2TP_PERR_MISSING_AVP] = "required AVP missing",
	[L2TP_PERR_PROTOCOL_VERSION] = "protocol version not 1.0",
	[L2TP_PERR_UNKNOWN_MANDATORY_AVP] = "unknown AVP with M set",
	[L2TP_PERR_AVP_BAD_LENGTH] = "AVP value length out of bounds",
	[L2TP_PERR_AVP_BAD_VALUE] = "AVP value out of range",
	[L2TP_PERR_AVP_DUPLICATE] = "AVP repeated",
	[L2TP_PERR_HIDDEN_FORBIDDEN] = "AVP may not be hidden",
	[L2TP_PERR_HIDDEN_NO_SECRET] = "hidden AVP without a shared secret",
	[L2TP_PERR_HIDDEN_NO_RANDOM_VECTOR] = "hidden AVP before any Random Vector",
	[L2TP_PERR_HIDDEN_BAD_LENGTH] = "hidden AVP original length beyond its data",
};

const char *l2tp_perr_name(enum l2tp_perr err)
{
	if ((unsigned int)err < L2TP_PERR_COUNT && perr_names[err])
		return perr_names[err];
	return "unknown";
}

enum l2tp_perr l2tp_hdr_parse(struct l2tp_hdr *hdr, const uint8_t *buf,
			      size_t len)
{
	uint16_t flags;

	memset(hdr, 0, sizeof(*hdr));
	if (len < 2)
		return L2TP_PERR_HDR_SHORT;
	flags = l2tp_get16(buf);
	hdr->flags = flags;
	/* §3.1: unknown Ver MUST be discarded (1 is L2F, §8.1) */
	if ((flags & L2TP_HDR_VER_MASK) != L2TP_VERSION)
		return L2TP_PERR_HDR_VERSION;
	/* data messages go to the kernel, never to us */
	if (!(flags & L2TP_HDR_T))
		return L2TP_PERR_HDR_DATA;
	/* §3.1: L and S MUST be 1, O and P MUST be 0 on control messages */
	if (!(flags & L2TP_HDR_L) || !(flags & L2TP_HDR_S) ||
	    (flags & (L2TP_HDR_O | L2TP_HDR_P)))
		return L2TP_PERR_HDR_FLAGS;
	if (len < L2TP_CTRL_HDR_LEN)
		return L2TP_PERR_HDR_SHORT;
	hdr->length = l2tp_get16(buf + 2);
	/* trailing octets beyond Length are ignored, a short datagram is not */
	if (hdr->length < L2TP_CTRL_HDR_LEN || hdr->length > len)
		return L2TP_PERR_HDR_LENGTH;
	hdr->tunnel_id = l2tp_get16(buf + 4);
	hdr->session_id = l2tp_get16(buf + 6);
	hdr->ns = l2tp_get16(buf + 8);
	hdr->nr = l2tp_get16(buf + 10);
	hdr->zlb = hdr->length == L2TP_CTRL_HDR_LEN;
	return L2TP_PERR_NONE;
}

void l2tp_hdr_set_seq(uint8_t *buf, uint16_t ns, uint16_t nr)
{
	l2tp_put16(buf + 8, ns);
	l2tp_put16(buf + 10, nr);
}

/* The message fails: clear the tunnel or the session (§4.1, §7.1). */
static enum l2tp_action msg_fail(struct l2tp_msg *msg, enum l2tp_perr reason,
				 uint16_t result, uint16_t error,
				 uint16_t vendor, uint16_t type)
{
	struct l2tp_answer *a = &msg->answer;

	a->action = l2tp_msg_is_session(msg->type) ? L2TP_ACT_CDN : L2TP_ACT_STOPCCN;
	a->reason = reason;
	a->result_code = result;
	a->error_code = error;
	a->avp_vendor = vendor;
	a->avp_type = type;
	if (reason == L2TP_PERR_UNKNOWN_MANDATORY_AVP)
		/* §4.4.2 error 8: the message SHOULD name the attribute */
		snprintf(a->message, sizeof(a->message),
			 "unknown mandatory AVP vendor %u type %u", vendor, type);
	else if (type < L2TP_AVP_TYPE_COUNT && reason >= L2TP_PERR_MISSING_AVP &&
		 reason != L2TP_PERR_PROTOCOL_VERSION)
		snprintf(a->message, sizeof(a->message), "%s: %s",
			 l2tp_avp_name(type), l2tp_perr_name(reason));
	else
		snprintf(a->message, sizeof(a->message), "%s",
			 l2tp_perr_name(reason));
	return a->action;
}

/*
 * A known AVP is malformed: with M set the message fails, without M the AVP
 * is treated as absent (§7.1).  Return: true when the message fails.
 */
static bool avp_bad(struct l2tp_msg *msg, bool m_bit, enum l2tp_perr reason,
		    uint16_t error, uint16_t type)
{
	if (m_bit) {
		msg_fail(msg, reason, 2, error, 0, type);
		return true;
	}
	msg->n_ignored++;
	msg->last_ignored = reason;
	msg->last_ignored_type = type;
	return false;
}

static uint16_t hidden_error_code(enum l2tp_hidden_err herr)
{
	return herr == L2TP_HIDDEN_BAD_LENGTH || herr == L2TP_HIDDEN_TOO_SHORT ?
		L2TP_ERR_BAD_LENGTH : L2TP_ERR_BAD_VALUE;
}

static enum l2tp_perr hidden_perr(enum l2tp_hidden_err herr)
{
	switch (herr) {
	case L2TP_HIDDEN_NO_SECRET:
		return L2TP_PERR_HIDDEN_NO_SECRET;
	case L2TP_HIDDEN_NO_RANDOM_VECTOR:
		return L2TP_PERR_HIDDEN_NO_RANDOM_VECTOR;
	default:
		return L2TP_PERR_HIDDEN_BAD_LENGTH;
	}
}

/* The first AVP: Message Type, vendor 0, not hidden, 2 octets (§4.4.1). */
static enum l2tp_action parse_message_type(struct l2tp_msg *msg, uint16_t w,
					   uint16_t vendor, uint16_t type,
					   const uint8_t *val, size_t vlen)
{
	if (vendor != 0 || type != L2TP_AVP_MESSAGE_TYPE ||
	    (w & (L2TP_AVP_H | L2TP_AVP_RSVD)) || vlen != 2)
		return msg_fail(msg, L2TP_PERR_NO_MESSAGE_TYPE, 2,
				vlen != 2 && type == L2TP_AVP_MESSAGE_TYPE ?
				L2TP_ERR_BAD_LENGTH : L2TP_ERR_BAD_VALUE,
				vendor, type);
	msg->type = l2tp_get16(val);
	msg->avp[0].data = val;
	msg->avp[0].len = 2;
	msg->avp[0].present = true;
	if (msg->type == 0 || msg->type > L2TP_MSG_MAX ||
	    !strcmp(l2tp_msg_name(msg->type), "unknown")) {
		uint16_t unknown = msg->type;

		msg->type = 0;	/* neither a tunnel nor a session message */
		if (!(w & L2TP_AVP_M)) {
			/* §4.4.1: M clear: the message may be ignored */
			msg->answer.action = L2TP_ACT_IGNORE;
			msg->answer.reason = L2TP_PERR_UNKNOWN_MESSAGE_TYPE;
			return L2TP_ACT_IGNORE;
		}
		/* §4.4.1: M set: the tunnel MUST be cleared */
		msg_fail(msg, L2TP_PERR_UNKNOWN_MESSAGE_TYPE, 2,
			 L2TP_ERR_BAD_VALUE, 0, 0);
		snprintf(msg->answer.message, sizeof(msg->answer.message),
			 "unknown message type %u", unknown);
		return L2TP_ACT_STOPCCN;
	}
	return L2TP_ACT_ACCEPT;
}

/*
 * A teardown names the ID its sender assigned, and one that tears down
 * before assigning any says 0: a CDN refusing an ICRQ before a session
 * exists (accel-ppp does so), a StopCCN refusing an SCCRQ.  Rejecting
 * those would keep the call or tunnel the peer meant to clear.
 */
static bool zero_id_ok(uint16_t msg_type, uint16_t avp_type)
{
	return (msg_type == L2TP_MSG_CDN && avp_type == L2TP_AVP_ASSIGNED_SESSION_ID) ||
	       (msg_type == L2TP_MSG_STOPCCN && avp_type == L2TP_AVP_ASSIGNED_TUNNEL_ID);
}

bool l2tp_msg_find_plain(const uint8_t *buf, size_t len, uint16_t type,
			 const uint8_t **val, size_t *vlen)
{
	struct l2tp_hdr hdr;
	size_t off, end;

	if (l2tp_hdr_parse(&hdr, buf, len) != L2TP_PERR_NONE || hdr.zlb)
		return false;
	end = hdr.length;
	for (off = L2TP_CTRL_HDR_LEN; end - off >= L2TP_AVP_HDR_LEN;) {
		uint16_t w = l2tp_get16(buf + off), alen = w & L2TP_AVP_LEN_MASK;

		if (alen < L2TP_AVP_HDR_LEN || alen > end - off)
			return false;
		if (!l2tp_get16(buf + off + 2) && l2tp_get16(buf + off + 4) == type) {
			if (w & L2TP_AVP_H)
				return false;
			*val = buf + off + L2TP_AVP_HDR_LEN;
			*vlen = alen - L2TP_AVP_HDR_LEN;
			return true;
		}
		off += alen;
	}
	return false;
}

/*
 * Longer than 80 lines on purpose: one pass over the AVPs in RFC 2661's own
 * order of checks (section 4.1 lengths and bits, section 4.3 hiding,
 * section 4.4 values, then sections 6 and 7.1 required AVPs), each check
 * ending in "refuse the message" (return) or "ignore this AVP" (continue).
 * Split into helpers, every step would have to carry that three-way answer
 * out and back, and the order, which decides the Result and Error Codes,
 * would no longer be read in one place.
 */
enum l2tp_action l2tp_msg_parse(struct l2tp_msg *msg, uint8_t *buf, size_t len,
				const struct l2tp_secret *secret)
{
	const uint8_t *rv = NULL;
	size_t rv_len = 0, off, end;
	enum l2tp_perr herr;
	unsigned int t;
	uint64_t req;

	memset(msg, 0, sizeof(*msg));
	herr = l2tp_hdr_parse(&msg->hdr, buf, len);
	if (herr != L2TP_PERR_NONE) {
		msg->answer.action = L2TP_ACT_DISCARD;
		msg->answer.reason = herr;
		snprintf(msg->answer.message, sizeof(msg->answer.message), "%s",
			 l2tp_perr_name(herr));
		return L2TP_ACT_DISCARD;
	}
	if (msg->hdr.zlb)
		return L2TP_ACT_ACCEPT;
	msg->raw = buf;
	msg->raw_len = msg->hdr.length;

	end = msg->hdr.length;
	for (off = L2TP_CTRL_HDR_LEN; off < end;) {
		const struct l2tp_avp_rule *rule;
		uint16_t w, alen, vendor, type;
		const uint8_t *val;
		size_t vlen;
		bool m_bit, h_bit;

		/* every length is checked before anything is read */
		if (end - off < L2TP_AVP_HDR_LEN)
			return msg_fail(msg, L2TP_PERR_AVP_TRUNCATED, 2,
					L2TP_ERR_BAD_LENGTH, 0, 0);
		w = l2tp_get16(buf + off);
		alen = w & L2TP_AVP_LEN_MASK;
		vendor = l2tp_get16(buf + off + 2);
		type = l2tp_get16(buf + off + 4);
		/* a length of 0..5 would loop or underflow (§4.1: minimum 6) */
		if (alen < L2TP_AVP_HDR_LEN)
			return msg_fail(msg, L2TP_PERR_AVP_LENGTH_UNDERFLOW, 2,
					L2TP_ERR_BAD_LENGTH, vendor, type);
		if (alen > end - off)
			return msg_fail(msg, L2TP_PERR_AVP_LENGTH_OVERFLOW, 2,
					L2TP_ERR_BAD_LENGTH, vendor, type);
		val = buf + off + L2TP_AVP_HDR_LEN;
		vlen = alen - L2TP_AVP_HDR_LEN;
		m_bit = w & L2TP_AVP_M;
		h_bit = w & L2TP_AVP_H;
		off += alen;
		msg->n_avps++;

		if (msg->n_avps == 1) {
			enum l2tp_action act = parse_message_type(msg, w, vendor,
								  type, val, vlen);
			if (act != L2TP_ACT_ACCEPT)
				return act;
			continue;
		}

		/* §4.1: a reserved bit set makes it unrecognized */
		rule = (w & L2TP_AVP_RSVD) ? NULL : l2tp_avp_rule(vendor, type);
		/* RFC 5515: recognized, read by al_from_msg(), M or not */
		if (!rule && !(w & L2TP_AVP_RSVD) && vendor == AL_VENDOR_BBF && type <= 0xff &&
		    al_index((uint8_t)type) >= 0)
			continue;
		/* S-LTS-2: a switched call's hop count, read by lts_hops_from_msg() */
		if (!rule && !(w & L2TP_AVP_RSVD) && vendor == LTS_VENDOR && type == LTS_AVP_HOPS)
			continue;
		if (!rule) {
			if (m_bit)
				return msg_fail(msg, L2TP_PERR_UNKNOWN_MANDATORY_AVP,
						2, L2TP_ERR_UNKNOWN_MANDATORY_AVP,
						vendor, type);
			msg->n_ignored++;
			msg->last_ignored = L2TP_PERR_UNKNOWN_MANDATORY_AVP;
			msg->last_ignored_type = type;
			continue;
		}

		if (h_bit) {
			enum l2tp_hidden_err e;
			const uint8_t *clear;
			size_t clear_len;

			if (rule->hiding != L2TP_HIDE_MAY) {
				if (avp_bad(msg, m_bit, L2TP_PERR_HIDDEN_FORBIDDEN,
					    L2TP_ERR_BAD_VALUE, type))
					return msg->answer.action;
				continue;
			}
			/* cast: revealing happens in place, in the caller's buffer */
			e = l2tp_hidden_decode((uint8_t *)val, vlen, type, secret,
					       rv, rv_len, &clear, &clear_len);
			if (e != L2TP_HIDDEN_OK) {
				if (avp_bad(msg, m_bit, hidden_perr(e),
					    hidden_error_code(e), type))
					return msg->answer.action;
				continue;
			}
			val = clear;
			vlen = clear_len;
		}

		if (vlen < rule->min_len || vlen > rule->max_len ||
		    (type == L2TP_AVP_RESULT_CODE && vlen == 3)) {
			if (avp_bad(msg, m_bit, L2TP_PERR_AVP_BAD_LENGTH,
				    L2TP_ERR_BAD_LENGTH, type))
				return msg->answer.action;
			continue;
		}
		if (rule->nonzero && l2tp_get16(val) == 0 && !zero_id_ok(msg->type, type)) {
			/* §4.4.3, §4.4.4: assigned IDs are non-zero; §5.8: RWS 0 */
			if (avp_bad(msg, m_bit, L2TP_PERR_AVP_BAD_VALUE,
				    L2TP_ERR_BAD_VALUE, type))
				return msg->answer.action;
			continue;
		}
		if (type == L2TP_AVP_RANDOM_VECTOR) {
			/* §4.3: a hidden AVP uses the closest preceding one */
			rv = val;
			rv_len = vlen;
		}
		if (!(rule->allowed & L2TP_MSG_BIT(msg->type))) {
			/* a known AVP in a message it does not belong to */
			msg->n_ignored++;
			msg->last_ignored = L2TP_PERR_AVP_BAD_VALUE;
			msg->last_ignored_type = type;
			continue;
		}
		if (msg->avp[type].present && type != L2TP_AVP_RANDOM_VECTOR) {
			/* two values of one attribute: which one holds? */
			if (avp_bad(msg, m_bit, L2TP_PERR_AVP_DUPLICATE,
				    L2TP_ERR_BAD_VALUE, type))
				return msg->answer.action;
			continue;
		}
		msg->avp[type].data = val;
		msg->avp[type].len = (uint16_t)vlen;
		msg->avp[type].present = true;
		msg->avp[type].hidden = h_bit;
	}

	/* §6, §7.1: a message missing a required AVP is malformed (the lowest type first) */
	for (req = l2tp_avp_required(msg->type); req; req &= req - 1) {
		t = (unsigned int)__builtin_ctzll(req);
		if (!msg->avp[t].present)
			return msg_fail(msg, L2TP_PERR_MISSING_AVP, 2,
					L2TP_ERR_BAD_VALUE, 0, (uint16_t)t);
	}

	/* §4.4.2 StopCCN result 5: the error code is the highest version */
	if ((msg->type == L2TP_MSG_SCCRQ || msg->type == L2TP_MSG_SCCRP) &&
	    l2tp_get16(msg->avp[L2TP_AVP_PROTOCOL_VERSION].data) !=
	    L2TP_PROTOCOL_VERSION)
		return msg_fail(msg, L2TP_PERR_PROTOCOL_VERSION,
				L2TP_STOPCCN_BAD_PROTOCOL, L2TP_PROTOCOL_VERSION,
				0, L2TP_AVP_PROTOCOL_VERSION);

	msg->answer.action = L2TP_ACT_ACCEPT;
	return L2TP_ACT_ACCEPT;
}

size_t l2tp_build_answer(uint8_t *buf, size_t cap, const struct l2tp_answer *answer,
			 uint16_t peer_tunnel_id, uint16_t peer_session_id,
			 uint16_t assigned_id)
{
	struct l2tp_builder b;

	switch (answer->action) {
	case L2TP_ACT_STOPCCN:
		/* §5.7: a StopCCN clears the whole tunnel: Session ID 0 */
		l2tp_build_begin(&b, buf, cap, peer_tunnel_id, 0, L2TP_MSG_STOPCCN, NULL);
		l2tp_put_u16(&b, L2TP_AVP_ASSIGNED_TUNNEL_ID, assigned_id);
		break;
	case L2TP_ACT_CDN:
		l2tp_build_begin(&b, buf, cap, peer_tunnel_id, peer_session_id,
				 L2TP_MSG_CDN, NULL);
		l2tp_put_u16(&b, L2TP_AVP_ASSIGNED_SESSION_ID, assigned_id);
		break;
	default:
		return 0;
	}
	l2tp_put_result(&b, answer->result_code, answer->error_code, answer->message);
	return l2tp_build_end(&b);
}

bool l2tp_msg_get_u16(const struct l2tp_msg *msg, uint16_t type, uint16_t *v)
{
	if (type >= L2TP_AVP_TYPE_COUNT || !msg->avp[type].present ||
	    msg->avp[type].len < 2)
		return false;
	*v = l2tp_get16(msg->avp[type].data);
	return true;
}

bool l2tp_msg_get_u32(const struct l2tp_msg *msg, uint16_t type, uint32_t *v)
{
	if (type >= L2TP_AVP_TYPE_COUNT || !msg->avp[type].present ||
	    msg->avp[type].len < 4)
		return false;
	*v = l2tp_get32(msg->avp[type].data);
	return true;
}

bool l2tp_msg_get_u64(const struct l2tp_msg *msg, uint16_t type, uint64_t *v)
{
	if (type >= L2TP_AVP_TYPE_COUNT || !msg->avp[type].present ||
	    msg->avp[type].len < 8)
		return false;
	*v = (uint64_t)l2tp_get32(msg->avp[type].data) << 32 |
	     l2tp_get32(msg->avp[type].data + 4);
	return true;
}
