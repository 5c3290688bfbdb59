// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld message and AVP parsing (userspace/l2tpseld/msg.c, avp.c):
 * S-L2TP-1 round trips of every message type with its required AVPs, and
 * S-L2TP-3 every malformed class refused with RFC 2661's answer (§3.1 and
 * §7.1 discard; §4.1, §4.4.2, §7.1 StopCCN or CDN with result/error code).
 */
#include "harness.h"
#include "../../userspace/l2tpseld/msg.h"

static const uint8_t secret_bytes[] = "tunnel-secret";
static const struct l2tp_secret secret = { secret_bytes, sizeof(secret_bytes) - 1 };
static const uint8_t rv16[16] = { 0xa0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };

/* Put the AVPs §6.x requires for @type, with recognisable values. */
static void put_required(struct l2tp_builder *b, uint16_t type)
{
	switch (type) {
	case L2TP_MSG_SCCRQ:
	case L2TP_MSG_SCCRP:
		l2tp_put_u16(b, L2TP_AVP_PROTOCOL_VERSION, L2TP_PROTOCOL_VERSION);
		l2tp_put_string(b, L2TP_AVP_HOST_NAME, "lac1.example.net");
		l2tp_put_u32(b, L2TP_AVP_FRAMING_CAPS, L2TP_FRAMING_SYNC | L2TP_FRAMING_ASYNC);
		l2tp_put_u16(b, L2TP_AVP_ASSIGNED_TUNNEL_ID, 4242);
		break;
	case L2TP_MSG_STOPCCN:
		l2tp_put_u16(b, L2TP_AVP_ASSIGNED_TUNNEL_ID, 4242);
		l2tp_put_result(b, L2TP_STOPCCN_CLEAR, -1, NULL);
		break;
	case L2TP_MSG_ICRQ:
		l2tp_put_u16(b, L2TP_AVP_ASSIGNED_SESSION_ID, 77);
		l2tp_put_u32(b, L2TP_AVP_CALL_SERIAL_NUMBER, 123456);
		break;
	case L2TP_MSG_ICRP:
	case L2TP_MSG_OCRP:
		l2tp_put_u16(b, L2TP_AVP_ASSIGNED_SESSION_ID, 77);
		break;
	case L2TP_MSG_ICCN:
	case L2TP_MSG_OCCN:
		l2tp_put_u32(b, L2TP_AVP_TX_CONNECT_SPEED, 100000000);
		l2tp_put_u32(b, L2TP_AVP_FRAMING_TYPE, L2TP_FRAMING_SYNC);
		break;
	case L2TP_MSG_OCRQ:
		l2tp_put_u16(b, L2TP_AVP_ASSIGNED_SESSION_ID, 77);
		l2tp_put_u32(b, L2TP_AVP_CALL_SERIAL_NUMBER, 123456);
		l2tp_put_u32(b, L2TP_AVP_MINIMUM_BPS, 9600);
		l2tp_put_u32(b, L2TP_AVP_MAXIMUM_BPS, 100000000);
		l2tp_put_u32(b, L2TP_AVP_BEARER_TYPE, L2TP_BEARER_DIGITAL);
		l2tp_put_u32(b, L2TP_AVP_FRAMING_TYPE, L2TP_FRAMING_SYNC);
		l2tp_put_string(b, L2TP_AVP_CALLED_NUMBER, "5551234");
		break;
	case L2TP_MSG_CDN:
		l2tp_put_result(b, L2TP_CDN_NO_FACILITIES_TEMP, L2TP_ERR_NO_RESOURCES,
				"session limit");
		l2tp_put_u16(b, L2TP_AVP_ASSIGNED_SESSION_ID, 77);
		break;
	case L2TP_MSG_WEN: {
		uint8_t errs[26] = { 0 };

		l2tp_put_avp(b, L2TP_AVP_CALL_ERRORS, errs, sizeof(errs));
		break;
	}
	case L2TP_MSG_SLI: {
		uint8_t accm[10] = { 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0 };

		l2tp_put_avp(b, L2TP_AVP_ACCM, accm, sizeof(accm));
		break;
	}
	default:	/* SCCCN, HELLO: Message Type only */
		break;
	}
}

static size_t build_valid(uint8_t *buf, size_t cap, uint16_t type)
{
	struct l2tp_builder b;

	l2tp_build_begin(&b, buf, cap, 11, l2tp_msg_is_session(type) ? 22 : 0,
			 type, NULL);
	put_required(&b, type);
	return l2tp_build_end(&b);
}

static const uint16_t all_types[] = {
	L2TP_MSG_SCCRQ, L2TP_MSG_SCCRP, L2TP_MSG_SCCCN, L2TP_MSG_STOPCCN,
	L2TP_MSG_HELLO, L2TP_MSG_OCRQ, L2TP_MSG_OCRP, L2TP_MSG_OCCN,
	L2TP_MSG_ICRQ, L2TP_MSG_ICRP, L2TP_MSG_ICCN, L2TP_MSG_CDN,
	L2TP_MSG_WEN, L2TP_MSG_SLI,
};

/* S-L2TP-1: build -> parse for every message type, required AVPs present */
TEST(l2tp_msg_roundtrip_every_type)
{
	uint8_t buf[512];
	struct l2tp_msg m;
	unsigned int i, t;

	for (i = 0; i < sizeof(all_types) / sizeof(all_types[0]); i++) {
		uint16_t type = all_types[i];
		size_t len = build_valid(buf, sizeof(buf), type);

		ASSERT_TRUE(len > L2TP_CTRL_HDR_LEN);
		l2tp_hdr_set_seq(buf, 7, 9);
		if (l2tp_msg_parse(&m, buf, len, NULL) != L2TP_ACT_ACCEPT) {
			th_log("%s: %s", l2tp_msg_name(type), m.answer.message);
			EXPECT_EQ(m.answer.action, L2TP_ACT_ACCEPT);
			continue;
		}
		EXPECT_EQ(m.type, type);
		EXPECT_EQ(m.hdr.length, len);
		EXPECT_EQ(m.hdr.tunnel_id, 11);
		EXPECT_EQ(m.hdr.session_id, l2tp_msg_is_session(type) ? 22 : 0);
		EXPECT_EQ(m.hdr.ns, 7);
		EXPECT_EQ(m.hdr.nr, 9);
		EXPECT_TRUE(!m.hdr.zlb);
		EXPECT_EQ(m.n_ignored, 0);
		for (t = 1; t < L2TP_AVP_TYPE_COUNT; t++) {
			const struct l2tp_avp_rule *r = l2tp_avp_rule(0, (uint16_t)t);

			if (r && (r->required & L2TP_MSG_BIT(type)))
				EXPECT_TRUE(m.avp[t].present);
		}
	}
}

/* S-L2TP-1: SCCRQ with every optional AVP, values read back */
TEST(l2tp_msg_sccrq_values)
{
	uint8_t buf[512], chal[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct l2tp_builder b;
	struct l2tp_msg m;
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;
	size_t len;

	l2tp_build_begin(&b, buf, sizeof(buf), 0, 0, L2TP_MSG_SCCRQ, NULL);
	put_required(&b, L2TP_MSG_SCCRQ);
	l2tp_put_u32(&b, L2TP_AVP_BEARER_CAPS, L2TP_BEARER_ANALOG);
	l2tp_put_u16(&b, L2TP_AVP_RECEIVE_WINDOW_SIZE, 8);
	l2tp_put_avp(&b, L2TP_AVP_CHALLENGE, chal, sizeof(chal));
	l2tp_put_u64(&b, L2TP_AVP_TIE_BREAKER, 0x0102030405060708ull);
	l2tp_put_u16(&b, L2TP_AVP_FIRMWARE_REVISION, 0x0105);
	l2tp_put_string(&b, L2TP_AVP_VENDOR_NAME, "l2tpsel");
	len = l2tp_build_end(&b);
	ASSERT_TRUE(len > 0);
	ASSERT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_ACCEPT);
	EXPECT_TRUE(l2tp_msg_get_u16(&m, L2TP_AVP_ASSIGNED_TUNNEL_ID, &v16) && v16 == 4242);
	EXPECT_TRUE(l2tp_msg_get_u16(&m, L2TP_AVP_RECEIVE_WINDOW_SIZE, &v16) && v16 == 8);
	EXPECT_TRUE(l2tp_msg_get_u32(&m, L2TP_AVP_FRAMING_CAPS, &v32) && v32 == 3);
	EXPECT_TRUE(l2tp_msg_get_u64(&m, L2TP_AVP_TIE_BREAKER, &v64) &&
		    v64 == 0x0102030405060708ull);
	EXPECT_EQ(m.avp[L2TP_AVP_HOST_NAME].len, strlen("lac1.example.net"));
	EXPECT_TRUE(!memcmp(m.avp[L2TP_AVP_HOST_NAME].data, "lac1.example.net", 16));
	EXPECT_EQ(m.avp[L2TP_AVP_CHALLENGE].len, 8);
	EXPECT_TRUE(!l2tp_msg_get_u16(&m, L2TP_AVP_ASSIGNED_SESSION_ID, &v16));
	/* the M bit a sender sets comes from the dictionary: Tie Breaker M=0 */
	EXPECT_TRUE(l2tp_avp_rule(0, L2TP_AVP_TIE_BREAKER)->m_bit == 0);
}

/* S-L2TP-1: ZLB (§5.8) round trip */
TEST(l2tp_msg_zlb_roundtrip)
{
	uint8_t buf[16];
	struct l2tp_msg m;
	size_t len = l2tp_build_zlb(buf, sizeof(buf), 300, 65535, 0);

	ASSERT_EQ(len, 12);
	ASSERT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_ACCEPT);
	EXPECT_TRUE(m.hdr.zlb);
	EXPECT_EQ(m.type, 0);
	EXPECT_EQ(m.hdr.tunnel_id, 300);
	EXPECT_EQ(m.hdr.ns, 65535);
	EXPECT_EQ(m.hdr.nr, 0);
	EXPECT_EQ(l2tp_build_zlb(buf, 11, 1, 0, 0), 0);
}

/* S-L2TP-3: a malformed header is discarded silently (§3.1, §7.1) */
TEST(l2tp_msg_header_discards)
{
	uint8_t good[64], buf[80];
	struct l2tp_msg m;
	size_t len = build_valid(good, sizeof(good), L2TP_MSG_HELLO);

#define TRY(mutate, n, expect_reason) do {				\
		memcpy(buf, good, len);					\
		mutate;							\
		EXPECT_EQ(l2tp_msg_parse(&m, buf, n, NULL), L2TP_ACT_DISCARD); \
		EXPECT_EQ(m.answer.reason, expect_reason);		\
	} while (0)
	TRY((void)0, 0, L2TP_PERR_HDR_SHORT);
	TRY((void)0, 1, L2TP_PERR_HDR_SHORT);
	TRY((void)0, 11, L2TP_PERR_HDR_SHORT);
	TRY(buf[1] = (buf[1] & 0xf0) | 1, len, L2TP_PERR_HDR_VERSION);	/* L2F */
	TRY(buf[1] = (buf[1] & 0xf0) | 3, len, L2TP_PERR_HDR_VERSION);	/* L2TPv3 */
	TRY(buf[0] &= 0x7f, len, L2TP_PERR_HDR_DATA);
	TRY(buf[0] &= ~0x40, len, L2TP_PERR_HDR_FLAGS);		/* L = 0 */
	TRY(buf[0] &= ~0x08, len, L2TP_PERR_HDR_FLAGS);		/* S = 0 */
	TRY(buf[0] |= 0x02, len, L2TP_PERR_HDR_FLAGS);		/* O = 1 */
	TRY(buf[0] |= 0x01, len, L2TP_PERR_HDR_FLAGS);		/* P = 1 */
	TRY(l2tp_put16(buf + 2, 11), len, L2TP_PERR_HDR_LENGTH);
	TRY(l2tp_put16(buf + 2, 0), len, L2TP_PERR_HDR_LENGTH);
	TRY(l2tp_put16(buf + 2, (uint16_t)(len + 1)), len, L2TP_PERR_HDR_LENGTH);
	TRY((void)0, len - 1, L2TP_PERR_HDR_LENGTH);	/* datagram cut short */
#undef TRY
	/* reserved x bits are ignored (§3.1); octets past Length too */
	memcpy(buf, good, len);
	buf[0] |= 0x30;
	buf[1] |= 0xf0;
	memset(buf + len, 0xee, 8);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len + 8, NULL), L2TP_ACT_ACCEPT);
	EXPECT_EQ(m.type, L2TP_MSG_HELLO);
}

/* Build a message: Message Type, then raw AVPs; returns its length. */
static size_t build_with(uint8_t *buf, size_t cap, uint16_t type,
			 void (*extra)(struct l2tp_builder *b), bool required)
{
	struct l2tp_builder b;
	size_t len;

	l2tp_build_begin(&b, buf, cap, 11, l2tp_msg_is_session(type) ? 22 : 0,
			 type, &secret);
	if (required)
		put_required(&b, type);
	if (extra)
		extra(&b);
	len = l2tp_build_end(&b);
	return len;
}

#define AVP_FL(m, h, len) ((uint16_t)(((m) ? L2TP_AVP_M : 0) | ((h) ? L2TP_AVP_H : 0) | (len)))

static void avp_len0(struct l2tp_builder *b) { l2tp_put_raw(b, AVP_FL(1, 0, 0), 0, 7, NULL, 0); }
static void avp_len5(struct l2tp_builder *b) { l2tp_put_raw(b, AVP_FL(0, 0, 5), 0, 7, NULL, 0); }
/* claims 40 octets, has 6 */
static void avp_len40(struct l2tp_builder *b) { l2tp_put_raw(b, AVP_FL(1, 0, 40), 0, 7, NULL, 0); }

static void expect_answer(const struct l2tp_msg *m, enum l2tp_action act,
			  enum l2tp_perr reason, uint16_t result, uint16_t error,
			  const char *file, int line)
{
	if (m->answer.action != act || m->answer.reason != reason ||
	    m->answer.result_code != result || m->answer.error_code != error)
		th_fail(file, line, "answer %d reason %s result %u error %u (%s), "
			  "expected %d %s %u %u", m->answer.action,
			  l2tp_perr_name(m->answer.reason), m->answer.result_code,
			  m->answer.error_code, m->answer.message, act,
			  l2tp_perr_name(reason), result, error);
}
#define EXPECT_ANSWER(m, act, reason, res, err) \
	expect_answer(m, act, reason, res, err, __FILE__, __LINE__)

/*
 * S-L2TP-3 cve-2020-15173-avp-length-underflow (accel-ppp CVE-2020-15173) and
 * zero-length-avp-loop (xl2tpd): an AVP length below 6 ends parsing and
 * clears the tunnel (StopCCN 2/2) or the session (CDN 2/2).
 */
TEST(l2tp_msg_avp_length_underflow_and_zero_loop)
{
	uint8_t buf[512];
	struct l2tp_msg m;
	size_t len;

	len = build_with(buf, sizeof(buf), L2TP_MSG_SCCRQ, avp_len0, true);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_STOPCCN);
	EXPECT_ANSWER(&m, L2TP_ACT_STOPCCN, L2TP_PERR_AVP_LENGTH_UNDERFLOW,
		      L2TP_STOPCCN_GENERAL_ERROR, L2TP_ERR_BAD_LENGTH);

	len = build_with(buf, sizeof(buf), L2TP_MSG_ICRQ, avp_len5, true);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_CDN);
	EXPECT_ANSWER(&m, L2TP_ACT_CDN, L2TP_PERR_AVP_LENGTH_UNDERFLOW,
		      L2TP_CDN_GENERAL_ERROR, L2TP_ERR_BAD_LENGTH);
}

/* S-L2TP-3: an AVP running past the header's Length, even into the datagram */
TEST(l2tp_msg_avp_length_overflow_and_truncation)
{
	uint8_t buf[512];
	struct l2tp_msg m;
	size_t len;

	len = build_with(buf, sizeof(buf), L2TP_MSG_HELLO, avp_len40, false);
	memset(buf + len, 0, 64);	/* the datagram is longer than Length */
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len + 64, NULL), L2TP_ACT_STOPCCN);
	EXPECT_ANSWER(&m, L2TP_ACT_STOPCCN, L2TP_PERR_AVP_LENGTH_OVERFLOW,
		      L2TP_STOPCCN_GENERAL_ERROR, L2TP_ERR_BAD_LENGTH);

	/* 3 octets after the Message Type: not even an AVP header */
	len = build_valid(buf, sizeof(buf), L2TP_MSG_HELLO);
	memset(buf + len, 0, 3);
	l2tp_put16(buf + 2, (uint16_t)(len + 3));
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len + 3, NULL), L2TP_ACT_STOPCCN);
	EXPECT_ANSWER(&m, L2TP_ACT_STOPCCN, L2TP_PERR_AVP_TRUNCATED,
		      L2TP_STOPCCN_GENERAL_ERROR, L2TP_ERR_BAD_LENGTH);

	/* the Message Type AVP itself cut: the tunnel is cleared (§7.1) */
	len = build_valid(buf, sizeof(buf), L2TP_MSG_HELLO);
	l2tp_put16(buf + 2, 16);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, 16, NULL), L2TP_ACT_STOPCCN);
	EXPECT_EQ(m.answer.reason, L2TP_PERR_AVP_TRUNCATED);
}

static void unknown_m(struct l2tp_builder *b) { l2tp_put_raw(b, AVP_FL(1, 0, 8), 0, 200, "ab", 2); }
static void unknown_nom(struct l2tp_builder *b) { l2tp_put_raw(b, AVP_FL(0, 0, 8), 0, 200, "ab", 2); }
static void type20_m(struct l2tp_builder *b) { l2tp_put_raw(b, AVP_FL(1, 0, 6), 0, 20, NULL, 0); }
static void reserved_bits(struct l2tp_builder *b)
{
	/* a known type (Bearer Capabilities) with a reserved bit: unrecognized */
	l2tp_put_raw(b, (uint16_t)(AVP_FL(1, 0, 10) | 0x0400), 0,
		     L2TP_AVP_BEARER_CAPS, "\0\0\0\1", 4);
}

/* S-L2TP-3: unknown AVP with M: StopCCN 2/8 or CDN 2/8 (§4.1, §4.4.2) */
TEST(l2tp_msg_unknown_mandatory_avp)
{
	uint8_t buf[512];
	struct l2tp_msg m;
	size_t len;

	len = build_with(buf, sizeof(buf), L2TP_MSG_SCCRQ, unknown_m, true);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_STOPCCN);
	EXPECT_ANSWER(&m, L2TP_ACT_STOPCCN, L2TP_PERR_UNKNOWN_MANDATORY_AVP,
		      L2TP_STOPCCN_GENERAL_ERROR, L2TP_ERR_UNKNOWN_MANDATORY_AVP);
	EXPECT_EQ(m.answer.avp_type, 200);
	/* §4.4.2: the Error Message SHOULD name the attribute */
	EXPECT_STREQ(m.answer.message, "unknown mandatory AVP vendor 0 type 200");

	len = build_with(buf, sizeof(buf), L2TP_MSG_ICCN, unknown_m, true);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_CDN);
	EXPECT_ANSWER(&m, L2TP_ACT_CDN, L2TP_PERR_UNKNOWN_MANDATORY_AVP,
		      L2TP_CDN_GENERAL_ERROR, L2TP_ERR_UNKNOWN_MANDATORY_AVP);

	/* type 20 is not assigned by RFC 2661 */
	len = build_with(buf, sizeof(buf), L2TP_MSG_HELLO, type20_m, true);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_STOPCCN);
	EXPECT_EQ(m.answer.error_code, L2TP_ERR_UNKNOWN_MANDATORY_AVP);

	/* §4.1: a reserved bit set makes a known AVP unrecognized */
	len = build_with(buf, sizeof(buf), L2TP_MSG_SCCRQ, reserved_bits, true);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_STOPCCN);
	EXPECT_EQ(m.answer.error_code, L2TP_ERR_UNKNOWN_MANDATORY_AVP);
	EXPECT_EQ(m.answer.avp_type, L2TP_AVP_BEARER_CAPS);

	/* without M: ignored, the message goes on (§4.1) */
	len = build_with(buf, sizeof(buf), L2TP_MSG_ICRQ, unknown_nom, true);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_ACCEPT);
	EXPECT_EQ(m.n_ignored, 1);
	EXPECT_EQ(m.last_ignored_type, 200);
}

static void vendor_host_name_m(struct l2tp_builder *b)
{
	l2tp_put_raw(b, AVP_FL(1, 0, 11), 9, L2TP_AVP_HOST_NAME, "cisco", 5);
}

static void vendor_tunnel_id(struct l2tp_builder *b)
{
	l2tp_put_raw(b, AVP_FL(0, 0, 8), 311, L2TP_AVP_ASSIGNED_TUNNEL_ID, "\0\1", 2);
}

/* S-L2TP-3 vendor-id-confusion: vendor != 0 is never an IETF attribute */
TEST(l2tp_msg_vendor_id_confusion)
{
	uint8_t buf[512];
	struct l2tp_msg m;
	uint16_t tid;
	size_t len;

	len = build_with(buf, sizeof(buf), L2TP_MSG_SCCRQ, vendor_host_name_m, true);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_STOPCCN);
	EXPECT_ANSWER(&m, L2TP_ACT_STOPCCN, L2TP_PERR_UNKNOWN_MANDATORY_AVP,
		      L2TP_STOPCCN_GENERAL_ERROR, L2TP_ERR_UNKNOWN_MANDATORY_AVP);
	EXPECT_EQ(m.answer.avp_vendor, 9);

	/* without M: ignored, and it does not overwrite the real tunnel ID */
	len = build_with(buf, sizeof(buf), L2TP_MSG_SCCRQ, vendor_tunnel_id, true);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_ACCEPT);
	EXPECT_TRUE(l2tp_msg_get_u16(&m, L2TP_AVP_ASSIGNED_TUNNEL_ID, &tid));
	EXPECT_EQ(tid, 4242);
	EXPECT_EQ(m.n_ignored, 1);

	/* a vendor AVP where the Message Type should be */
	len = build_valid(buf, sizeof(buf), L2TP_MSG_HELLO);
	l2tp_put16(buf + 14, 9);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_STOPCCN);
	EXPECT_EQ(m.answer.reason, L2TP_PERR_NO_MESSAGE_TYPE);
}

/* S-L2TP-3: the Message Type AVP (§4.4.1) */
TEST(l2tp_msg_message_type_rules)
{
	uint8_t buf[512];
	struct l2tp_msg m;
	size_t len;

	/* unknown type with M: the tunnel MUST be cleared */
	len = build_valid(buf, sizeof(buf), L2TP_MSG_HELLO);
	l2tp_put16(buf + 18, 5);	/* 5 is reserved */
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_STOPCCN);
	EXPECT_ANSWER(&m, L2TP_ACT_STOPCCN, L2TP_PERR_UNKNOWN_MESSAGE_TYPE,
		      L2TP_STOPCCN_GENERAL_ERROR, L2TP_ERR_BAD_VALUE);
	EXPECT_STREQ(m.answer.message, "unknown message type 5");
	l2tp_put16(buf + 18, 999);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_STOPCCN);

	/* ... without M: may be ignored */
	buf[12] &= 0x7f;
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_IGNORE);

	/* hidden Message Type: not allowed */
	len = build_valid(buf, sizeof(buf), L2TP_MSG_HELLO);
	buf[12] |= 0x40;
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_STOPCCN);
	EXPECT_EQ(m.answer.reason, L2TP_PERR_NO_MESSAGE_TYPE);

	/* Message Type not first */
	len = build_valid(buf, sizeof(buf), L2TP_MSG_HELLO);
	l2tp_put16(buf + 16, L2TP_AVP_RANDOM_VECTOR);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_STOPCCN);
	EXPECT_EQ(m.answer.reason, L2TP_PERR_NO_MESSAGE_TYPE);
}

static void drop_host_name(struct l2tp_builder *b)
{
	l2tp_put_u16(b, L2TP_AVP_PROTOCOL_VERSION, L2TP_PROTOCOL_VERSION);
	l2tp_put_u32(b, L2TP_AVP_FRAMING_CAPS, 1);
	l2tp_put_u16(b, L2TP_AVP_ASSIGNED_TUNNEL_ID, 1);
}

static void serial_only(struct l2tp_builder *b)
{
	l2tp_put_u32(b, L2TP_AVP_CALL_SERIAL_NUMBER, 1);
}

/* S-L2TP-3: a message missing a required AVP is malformed (§6, §7.1) */
TEST(l2tp_msg_missing_required_avp)
{
	uint8_t buf[512];
	struct l2tp_msg m;
	size_t len;

	len = build_with(buf, sizeof(buf), L2TP_MSG_SCCRQ, drop_host_name, false);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_STOPCCN);
	EXPECT_ANSWER(&m, L2TP_ACT_STOPCCN, L2TP_PERR_MISSING_AVP,
		      L2TP_STOPCCN_GENERAL_ERROR, L2TP_ERR_BAD_VALUE);
	EXPECT_EQ(m.answer.avp_type, L2TP_AVP_HOST_NAME);
	EXPECT_STREQ(m.answer.message, "Host Name: required AVP missing");

	len = build_with(buf, sizeof(buf), L2TP_MSG_ICRQ, serial_only, false);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_CDN);
	EXPECT_EQ(m.answer.avp_type, L2TP_AVP_ASSIGNED_SESSION_ID);

	len = build_with(buf, sizeof(buf), L2TP_MSG_CDN, NULL, false);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_CDN);
	EXPECT_EQ(m.answer.avp_type, L2TP_AVP_RESULT_CODE);
}

/* The per-message masks the parse checks say what the rule table says. */
TEST(l2tp_avp_required_masks_match_rules)
{
	unsigned int m, t;

	for (m = 0; m < 40; m++) {
		for (t = 0; t < 64; t++) {
			const struct l2tp_avp_rule *r = t < L2TP_AVP_TYPE_COUNT ?
				l2tp_avp_rule(0, (uint16_t)t) : NULL;
			bool want = m < 32 && t > 0 && r && (r->required & L2TP_MSG_BIT(m));

			EXPECT_EQ(!!(l2tp_avp_required((uint16_t)m) & (1ull << t)), want);
		}
	}
}

static void tunnel_id_len3(struct l2tp_builder *b)
{
	l2tp_put_raw(b, AVP_FL(1, 0, 9), 0, L2TP_AVP_ASSIGNED_TUNNEL_ID, "\0\1\2", 3);
}

static void rx_speed_len2(struct l2tp_builder *b)
{
	/* §7.1's own example: Rx Connect Speed in 2 octets, M clear */
	l2tp_put_raw(b, AVP_FL(0, 0, 8), 0, L2TP_AVP_RX_CONNECT_SPEED, "\1\2", 2);
}

static void result_len3(struct l2tp_builder *b)
{
	l2tp_put_raw(b, AVP_FL(1, 0, 9), 0, L2TP_AVP_RESULT_CODE, "\0\1\0", 3);
	l2tp_put_u16(b, L2TP_AVP_ASSIGNED_SESSION_ID, 5);
}

static void zero_session_id(struct l2tp_builder *b)
{
	l2tp_put_raw(b, AVP_FL(1, 0, 8), 0, L2TP_AVP_ASSIGNED_SESSION_ID, "\0\0", 2);
	l2tp_put_u32(b, L2TP_AVP_CALL_SERIAL_NUMBER, 1);
}

/* accel-ppp refusing an ICRQ before it has a session: Assigned Session ID 0 */
static void cdn_zero_session_id(struct l2tp_builder *b)
{
	l2tp_put_result(b, 4, 0, "no session yet");
	l2tp_put_raw(b, AVP_FL(1, 0, 8), 0, L2TP_AVP_ASSIGNED_SESSION_ID, "\0\0", 2);
}

static void stopccn_zero_tunnel_id(struct l2tp_builder *b)
{
	l2tp_put_result(b, 2, 6, NULL);
	l2tp_put_raw(b, AVP_FL(1, 0, 8), 0, L2TP_AVP_ASSIGNED_TUNNEL_ID, "\0\0", 2);
}

static void zero_window(struct l2tp_builder *b)
{
	l2tp_put_raw(b, AVP_FL(1, 0, 8), 0, L2TP_AVP_RECEIVE_WINDOW_SIZE, "\0\0", 2);
}

static void twice_session_id(struct l2tp_builder *b)
{
	l2tp_put_u16(b, L2TP_AVP_ASSIGNED_SESSION_ID, 5);	/* required ones follow */
}

static void bad_version(struct l2tp_builder *b)
{
	l2tp_put_u16(b, L2TP_AVP_PROTOCOL_VERSION, 0x0200);
	l2tp_put_string(b, L2TP_AVP_HOST_NAME, "h");
	l2tp_put_u32(b, L2TP_AVP_FRAMING_CAPS, 1);
	l2tp_put_u16(b, L2TP_AVP_ASSIGNED_TUNNEL_ID, 1);
}

static void misplaced(struct l2tp_builder *b)
{
	l2tp_put_u16(b, L2TP_AVP_ASSIGNED_SESSION_ID, 5);	/* not in HELLO */
}

/* S-L2TP-3: known AVPs with bad lengths or values: M decides (§7.1) */
TEST(l2tp_msg_malformed_known_avps)
{
	uint8_t buf[512];
	struct l2tp_msg m;
	size_t len;

	len = build_with(buf, sizeof(buf), L2TP_MSG_SCCRQ, tunnel_id_len3, false);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_STOPCCN);
	EXPECT_ANSWER(&m, L2TP_ACT_STOPCCN, L2TP_PERR_AVP_BAD_LENGTH,
		      L2TP_STOPCCN_GENERAL_ERROR, L2TP_ERR_BAD_LENGTH);
	EXPECT_EQ(m.answer.avp_type, L2TP_AVP_ASSIGNED_TUNNEL_ID);

	len = build_with(buf, sizeof(buf), L2TP_MSG_ICCN, rx_speed_len2, true);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_ACCEPT);
	EXPECT_TRUE(!m.avp[L2TP_AVP_RX_CONNECT_SPEED].present);
	EXPECT_EQ(m.n_ignored, 1);
	EXPECT_EQ(m.last_ignored, L2TP_PERR_AVP_BAD_LENGTH);

	len = build_with(buf, sizeof(buf), L2TP_MSG_CDN, result_len3, false);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_CDN);
	EXPECT_ANSWER(&m, L2TP_ACT_CDN, L2TP_PERR_AVP_BAD_LENGTH,
		      L2TP_CDN_GENERAL_ERROR, L2TP_ERR_BAD_LENGTH);

	len = build_with(buf, sizeof(buf), L2TP_MSG_ICRQ, zero_session_id, false);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_CDN);
	EXPECT_ANSWER(&m, L2TP_ACT_CDN, L2TP_PERR_AVP_BAD_VALUE,
		      L2TP_CDN_GENERAL_ERROR, L2TP_ERR_BAD_VALUE);

	/* a teardown may name ID 0: its sender had assigned none */
	len = build_with(buf, sizeof(buf), L2TP_MSG_CDN, cdn_zero_session_id, false);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_ACCEPT);
	EXPECT_EQ(l2tp_get16(m.avp[L2TP_AVP_RESULT_CODE].data), 4);
	EXPECT_EQ(m.avp[L2TP_AVP_ASSIGNED_SESSION_ID].len, 2);
	len = build_with(buf, sizeof(buf), L2TP_MSG_STOPCCN, stopccn_zero_tunnel_id, false);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_ACCEPT);
	EXPECT_EQ(l2tp_get16(m.avp[L2TP_AVP_RESULT_CODE].data + 2), 6);

	len = build_with(buf, sizeof(buf), L2TP_MSG_SCCRP, zero_window, true);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_STOPCCN);
	EXPECT_EQ(m.answer.avp_type, L2TP_AVP_RECEIVE_WINDOW_SIZE);

	/* session-ID collision inside one message: two Assigned Session IDs */
	len = build_with(buf, sizeof(buf), L2TP_MSG_ICRQ, twice_session_id, true);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_CDN);
	EXPECT_ANSWER(&m, L2TP_ACT_CDN, L2TP_PERR_AVP_DUPLICATE,
		      L2TP_CDN_GENERAL_ERROR, L2TP_ERR_BAD_VALUE);

	/* §4.4.2: StopCCN result 5, error code = highest version (1.0) */
	len = build_with(buf, sizeof(buf), L2TP_MSG_SCCRQ, bad_version, false);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_STOPCCN);
	EXPECT_ANSWER(&m, L2TP_ACT_STOPCCN, L2TP_PERR_PROTOCOL_VERSION,
		      L2TP_STOPCCN_BAD_PROTOCOL, 0x0100);

	/* a known AVP in a message it does not belong to: ignored */
	len = build_with(buf, sizeof(buf), L2TP_MSG_HELLO, misplaced, true);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_ACCEPT);
	EXPECT_TRUE(!m.avp[L2TP_AVP_ASSIGNED_SESSION_ID].present);
	EXPECT_EQ(m.n_ignored, 1);
}

static void hidden_sccrq(struct l2tp_builder *b)
{
	static const uint8_t pad[5] = { 1, 2, 3, 4, 5 };
	uint8_t tid[2] = { 0x12, 0x34 }, resp[16];

	memset(resp, 0x5a, sizeof(resp));
	l2tp_put_u16(b, L2TP_AVP_PROTOCOL_VERSION, L2TP_PROTOCOL_VERSION);
	l2tp_put_string(b, L2TP_AVP_HOST_NAME, "lns");
	l2tp_put_random_vector(b, rv16, sizeof(rv16));
	l2tp_put_hidden(b, L2TP_AVP_ASSIGNED_TUNNEL_ID, tid, 2, pad, sizeof(pad));
	l2tp_put_hidden(b, L2TP_AVP_FRAMING_CAPS, "\0\0\0\3", 4, NULL, 0);
	l2tp_put_hidden(b, L2TP_AVP_VENDOR_NAME, "a vendor name over 16 octets",
			28, pad, 3);
	l2tp_put_hidden(b, L2TP_AVP_CHALLENGE_RESPONSE, resp, 16, NULL, 0);
}

/* S-L2TP-2: hidden AVPs round trip through build and parse */
TEST(l2tp_msg_hidden_roundtrip)
{
	uint8_t buf[512];
	struct l2tp_msg m;
	uint16_t tid;
	uint32_t caps;
	size_t len;

	len = build_with(buf, sizeof(buf), L2TP_MSG_SCCRP, hidden_sccrq, false);
	ASSERT_TRUE(len > 0);
	/* on the wire the tunnel ID is not in clear: H set, 2 + 2 + 5 octets */
	ASSERT_EQ(l2tp_msg_parse(&m, buf, len, &secret), L2TP_ACT_ACCEPT);
	EXPECT_TRUE(l2tp_msg_get_u16(&m, L2TP_AVP_ASSIGNED_TUNNEL_ID, &tid));
	EXPECT_EQ(tid, 0x1234);
	EXPECT_TRUE(m.avp[L2TP_AVP_ASSIGNED_TUNNEL_ID].hidden);
	EXPECT_TRUE(l2tp_msg_get_u32(&m, L2TP_AVP_FRAMING_CAPS, &caps));
	EXPECT_EQ(caps, 3);
	EXPECT_EQ(m.avp[L2TP_AVP_VENDOR_NAME].len, 28);
	EXPECT_TRUE(!memcmp(m.avp[L2TP_AVP_VENDOR_NAME].data,
			    "a vendor name over 16 octets", 28));
	EXPECT_EQ(m.avp[L2TP_AVP_CHALLENGE_RESPONSE].len, 16);
}

/* S-L2TP-2/3: hidden AVPs without a secret, with the wrong secret */
TEST(l2tp_msg_hidden_without_secret)
{
	static const struct l2tp_secret other = { (const uint8_t *)"other", 5 };
	uint8_t buf[512], copy[512];
	struct l2tp_msg m;
	size_t len;

	len = build_with(buf, sizeof(buf), L2TP_MSG_SCCRP, hidden_sccrq, false);
	memcpy(copy, buf, len);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_STOPCCN);
	EXPECT_ANSWER(&m, L2TP_ACT_STOPCCN, L2TP_PERR_HIDDEN_NO_SECRET,
		      L2TP_STOPCCN_GENERAL_ERROR, L2TP_ERR_BAD_VALUE);
	/* the wrong secret: garbage lengths are caught, never trusted */
	memcpy(buf, copy, len);
	if (l2tp_msg_parse(&m, buf, len, &other) != L2TP_ACT_ACCEPT) {
		EXPECT_EQ(m.answer.action, L2TP_ACT_STOPCCN);
	} else {
		EXPECT_TRUE(memcmp(m.avp[L2TP_AVP_ASSIGNED_TUNNEL_ID].data, "\x12\x34", 2));
	}
}

static void hidden_before_rv(struct l2tp_builder *b)
{
	/* hide properly, then swap the order: hidden AVP first, RV after */
	uint8_t tmp[64];
	size_t hlen, rvlen;

	l2tp_put_random_vector(b, rv16, sizeof(rv16));
	l2tp_put_hidden(b, L2TP_AVP_ASSIGNED_SESSION_ID, "\0\7", 2, NULL, 0);
	l2tp_put_u32(b, L2TP_AVP_CALL_SERIAL_NUMBER, 1);
	hlen = 6 + 4;
	rvlen = 6 + 16;
	memcpy(tmp, b->buf + b->len - 10 - hlen - rvlen, rvlen);
	memmove(b->buf + b->len - 10 - hlen - rvlen, b->buf + b->len - 10 - hlen, hlen);
	memcpy(b->buf + b->len - 10 - rvlen, tmp, rvlen);
}

static void hidden_length_lie(struct l2tp_builder *b)
{
	uint8_t *v;

	l2tp_put_random_vector(b, rv16, sizeof(rv16));
	l2tp_put_hidden(b, L2TP_AVP_ASSIGNED_SESSION_ID, "\0\7", 2, NULL, 0);
	l2tp_put_u32(b, L2TP_AVP_CALL_SERIAL_NUMBER, 1);
	/* flip the clear length 0x0002 -> 0x03f2 through the XOR stream */
	v = b->buf + b->len - 10 - 4;
	v[0] ^= 0x03;
	v[1] ^= 0xf0;
}

static void hidden_host_name(struct l2tp_builder *b)
{
	l2tp_put_random_vector(b, rv16, sizeof(rv16));
	l2tp_put_raw(b, AVP_FL(1, 1, 10), 0, L2TP_AVP_HOST_NAME, "abcd", 4);
}

/* S-L2TP-3 hidden-avp-length-trust, and the other hidden AVP rules (§4.3) */
TEST(l2tp_msg_hidden_refusals)
{
	uint8_t buf[512];
	struct l2tp_msg m;
	size_t len;

	len = build_with(buf, sizeof(buf), L2TP_MSG_ICRQ, hidden_length_lie, false);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, &secret), L2TP_ACT_CDN);
	EXPECT_ANSWER(&m, L2TP_ACT_CDN, L2TP_PERR_HIDDEN_BAD_LENGTH,
		      L2TP_CDN_GENERAL_ERROR, L2TP_ERR_BAD_LENGTH);

	len = build_with(buf, sizeof(buf), L2TP_MSG_ICRQ, hidden_before_rv, false);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, &secret), L2TP_ACT_CDN);
	EXPECT_EQ(m.answer.reason, L2TP_PERR_HIDDEN_NO_RANDOM_VECTOR);

	len = build_with(buf, sizeof(buf), L2TP_MSG_SCCRQ, hidden_host_name, true);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, len, &secret), L2TP_ACT_STOPCCN);
	EXPECT_EQ(m.answer.reason, L2TP_PERR_HIDDEN_FORBIDDEN);
	EXPECT_EQ(m.answer.avp_type, L2TP_AVP_HOST_NAME);
}

/* The builder refuses what the dictionary forbids, and running out of room. */
TEST(l2tp_msg_builder_refusals)
{
	uint8_t buf[64];
	struct l2tp_builder b;

	l2tp_build_begin(&b, buf, sizeof(buf), 1, 0, L2TP_MSG_HELLO, NULL);
	EXPECT_TRUE(l2tp_put_u16(&b, L2TP_AVP_HOST_NAME + 100, 1) != 0);
	EXPECT_EQ(l2tp_build_end(&b), 0);

	l2tp_build_begin(&b, buf, sizeof(buf), 1, 0, L2TP_MSG_HELLO, NULL);
	EXPECT_TRUE(l2tp_put_u32(&b, L2TP_AVP_ASSIGNED_TUNNEL_ID, 1) != 0); /* 4 != 2 */
	EXPECT_EQ(l2tp_build_end(&b), 0);

	l2tp_build_begin(&b, buf, sizeof(buf), 1, 0, L2TP_MSG_HELLO, NULL);
	l2tp_put_random_vector(&b, rv16, 16);
	EXPECT_TRUE(l2tp_put_hidden(&b, L2TP_AVP_ASSIGNED_TUNNEL_ID, "\0\1", 2, NULL, 0) != 0);

	l2tp_build_begin(&b, buf, sizeof(buf), 1, 0, L2TP_MSG_HELLO, &secret);
	EXPECT_TRUE(l2tp_put_hidden(&b, L2TP_AVP_ASSIGNED_TUNNEL_ID, "\0\1", 2, NULL, 0) != 0);

	l2tp_build_begin(&b, buf, sizeof(buf), 1, 0, L2TP_MSG_HELLO, NULL);
	EXPECT_TRUE(l2tp_put_string(&b, L2TP_AVP_HOST_NAME,
				    "a host name far too long for sixty-four octets of room") != 0);
	EXPECT_EQ(l2tp_build_end(&b), 0);
}

/* Code -> name tables cover every defined code. */
TEST(l2tp_names)
{
	EXPECT_STREQ(l2tp_msg_name(L2TP_MSG_SCCRQ), "SCCRQ");
	EXPECT_STREQ(l2tp_msg_name(5), "unknown");
	EXPECT_STREQ(l2tp_msg_name(60000), "unknown");
	EXPECT_STREQ(l2tp_avp_name(L2TP_AVP_SEQUENCING_REQUIRED), "Sequencing Required");
	EXPECT_STREQ(l2tp_avp_name(20), "unknown");
	EXPECT_STREQ(l2tp_stopccn_result_name(L2TP_STOPCCN_FSM_ERROR),
		     "finite state machine error");
	EXPECT_STREQ(l2tp_cdn_result_name(L2TP_CDN_NO_FACILITIES_TEMP),
		     "no facilities (temporary)");
	EXPECT_STREQ(l2tp_error_name(L2TP_ERR_UNKNOWN_MANDATORY_AVP),
		     "unknown mandatory AVP");
	EXPECT_STREQ(l2tp_perr_name(L2TP_PERR_AVP_LENGTH_UNDERFLOW), "AVP length below 6");
}

/* S-L2TP-3: the answer is built as a valid StopCCN / CDN carrying the codes */
TEST(l2tp_msg_build_answer)
{
	uint8_t buf[512], out[256];
	struct l2tp_msg m, a;
	uint16_t v;
	size_t len, n;

	/* an ICCN with an unknown mandatory AVP -> CDN 2/8 naming it */
	len = build_with(buf, sizeof(buf), L2TP_MSG_ICCN, unknown_m, true);
	ASSERT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_CDN);
	n = l2tp_build_answer(out, sizeof(out), &m.answer, 300, 400, 55);
	ASSERT_TRUE(n > 0);
	ASSERT_EQ(l2tp_msg_parse(&a, out, n, NULL), L2TP_ACT_ACCEPT);
	EXPECT_EQ(a.type, L2TP_MSG_CDN);
	EXPECT_EQ(a.hdr.tunnel_id, 300);
	EXPECT_EQ(a.hdr.session_id, 400);
	EXPECT_TRUE(l2tp_msg_get_u16(&a, L2TP_AVP_ASSIGNED_SESSION_ID, &v) && v == 55);
	ASSERT_TRUE(a.avp[L2TP_AVP_RESULT_CODE].len > 4);
	EXPECT_EQ(l2tp_get16(a.avp[L2TP_AVP_RESULT_CODE].data), L2TP_CDN_GENERAL_ERROR);
	EXPECT_EQ(l2tp_get16(a.avp[L2TP_AVP_RESULT_CODE].data + 2),
		  L2TP_ERR_UNKNOWN_MANDATORY_AVP);
	EXPECT_TRUE(!memcmp(a.avp[L2TP_AVP_RESULT_CODE].data + 4,
			    "unknown mandatory AVP vendor 0 type 200",
			    a.avp[L2TP_AVP_RESULT_CODE].len - 4));

	/* an SCCRQ with a short AVP -> StopCCN 2/2, Session ID 0 */
	len = build_with(buf, sizeof(buf), L2TP_MSG_SCCRQ, avp_len0, true);
	ASSERT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_STOPCCN);
	n = l2tp_build_answer(out, sizeof(out), &m.answer, 4242, 9, 17);
	ASSERT_EQ(l2tp_msg_parse(&a, out, n, NULL), L2TP_ACT_ACCEPT);
	EXPECT_EQ(a.type, L2TP_MSG_STOPCCN);
	EXPECT_EQ(a.hdr.session_id, 0);
	EXPECT_TRUE(l2tp_msg_get_u16(&a, L2TP_AVP_ASSIGNED_TUNNEL_ID, &v) && v == 17);
	EXPECT_EQ(l2tp_get16(a.avp[L2TP_AVP_RESULT_CODE].data + 2), L2TP_ERR_BAD_LENGTH);

	/* nothing to send for an accepted or discarded message */
	len = build_valid(buf, sizeof(buf), L2TP_MSG_HELLO);
	ASSERT_EQ(l2tp_msg_parse(&m, buf, len, NULL), L2TP_ACT_ACCEPT);
	EXPECT_EQ(l2tp_build_answer(out, sizeof(out), &m.answer, 1, 0, 1), 0);
	EXPECT_EQ(l2tp_msg_parse(&m, buf, 3, NULL), L2TP_ACT_DISCARD);
	EXPECT_EQ(l2tp_build_answer(out, sizeof(out), &m.answer, 1, 0, 1), 0);
}

struct walked {
	unsigned int n;
	uint16_t w[8], vendor[8], type[8];
	size_t len[8];
};

static void walk_one(void *arg, uint16_t w, uint16_t vendor, uint16_t type, const uint8_t *v,
		     size_t len)
{
	struct walked *k = arg;

	if (k->n < 8) {
		k->w[k->n] = w;
		k->vendor[k->n] = vendor;
		k->type[k->n] = type;
		k->len[k->n] = len;
	}
	k->n++;
}

/* §4.1: l2tp_avp_walk() gives every AVP up to the header's Length, no AVP that does not fit */
TEST(l2tp_avp_walk_checks_every_length)
{
	uint8_t buf[128];
	struct l2tp_builder b;
	struct walked k = { 0 };
	size_t len;

	l2tp_build_begin(&b, buf, sizeof(buf), 11, 22, L2TP_MSG_ICRQ, NULL);
	l2tp_put_u16(&b, L2TP_AVP_ASSIGNED_SESSION_ID, 77);
	l2tp_put_raw(&b, AVP_FL(0, 1, 10), 32473, 1, "abcd", 4);
	len = l2tp_build_end(&b);
	l2tp_avp_walk(buf, len, walk_one, &k);
	ASSERT_EQ(k.n, 3);
	EXPECT_EQ(k.type[0], L2TP_AVP_MESSAGE_TYPE);
	EXPECT_EQ(k.type[1], L2TP_AVP_ASSIGNED_SESSION_ID);
	EXPECT_EQ(k.len[1], 2);
	EXPECT_EQ(k.vendor[2], 32473);
	EXPECT_EQ(k.type[2], 1);
	EXPECT_EQ(k.len[2], 4);
	EXPECT_TRUE(k.w[2] & L2TP_AVP_H);
	/* the header's Length cuts the last AVP off */
	memset(&k, 0, sizeof(k));
	l2tp_put16(buf + 2, (uint16_t)(len - 1));
	l2tp_avp_walk(buf, len, walk_one, &k);
	EXPECT_EQ(k.n, 2);
	/* a Length past the bytes given: only the bytes count */
	memset(&k, 0, sizeof(k));
	l2tp_put16(buf + 2, 0xffff);
	l2tp_avp_walk(buf, len - 1, walk_one, &k);
	EXPECT_EQ(k.n, 2);
	/* an AVP length under its header ends the walk there */
	memset(&k, 0, sizeof(k));
	l2tp_put16(buf + 2, (uint16_t)len);
	l2tp_put16(buf + L2TP_CTRL_HDR_LEN + 8, AVP_FL(1, 0, 5));
	l2tp_avp_walk(buf, len, walk_one, &k);
	EXPECT_EQ(k.n, 1);
	/* less than a header: nothing */
	memset(&k, 0, sizeof(k));
	l2tp_avp_walk(buf, L2TP_CTRL_HDR_LEN - 1, walk_one, &k);
	EXPECT_EQ(k.n, 0);
}
