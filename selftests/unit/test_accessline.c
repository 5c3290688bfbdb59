// SPDX-License-Identifier: GPL-2.0
/*
 * Access-line information (S-AL-1): the TR-101 PPPoE tag and the RFC 4679
 * VSAs read, the RFC 5515 AVPs written and read, the Connect Speed Update
 * AVPs.  Every expected byte string below is written from the RFCs' text
 * (RFC 2661 section 4.1 AVP header: M, H, 4 reserved bits, 10-bit Length,
 * Vendor ID, Attribute Type; RFC 5515's access-line AVPs: Vendor ID 3561 = 0x0de9,
 * rates 64 bits in b/s, delays 32 bits, Access-Loop-Encapsulation 3
 * octets, M bit 0; its Connect Speed Update 97 = 0x61 and Enable
 * 98 = 0x62; RFC 4679 section 3: Vendor-Specific 26, Vendor-Length counts
 * itself), never produced by the encoder.
 */
#include <errno.h>

#include "harness.h"
#include "../../userspace/l2tpseld/accessline.h"
#include "../../userspace/l2tpseld/msg.h"
#include "../../userspace/l2tpseld/pppoe.h"

/* Header (12) and Message Type AVP (8) of a built message: the AVPs follow. */
#define FIRST_AVP	20

static size_t build_one(const struct access_line *al, uint8_t *buf, size_t cap)
{
	struct l2tp_builder b;

	l2tp_build_begin(&b, buf, cap, 1, 0, L2TP_MSG_ICRQ, NULL);
	al_put_avps(al, &b);
	return l2tp_build_end(&b);
}

/* @al's AVPs are exactly @want (@n bytes) after the Message Type AVP. */
static bool avps_are(const struct access_line *al, const uint8_t *want, size_t n)
{
	uint8_t buf[1024];
	size_t len = build_one(al, buf, sizeof(buf));

	return len == FIRST_AVP + n && !memcmp(buf + FIRST_AVP, want, n);
}

static struct access_line only(uint8_t type)
{
	struct access_line al = { 0 };

	al.present = 1u << al_index(type);
	return al;
}

TEST(accessline_index_round_trip)
{
	int i;

	for (i = 0; i < AL_N_ATTRS; i++)
		EXPECT_EQ(al_index(al_type_at(i)), i);
	EXPECT_EQ(al_index(0x00), -1);
	EXPECT_EQ(al_index(0x03), -1);
	EXPECT_EQ(al_index(0x80), -1);
	EXPECT_EQ(al_index(0x8f), -1);	/* not assigned by RFC 4679 */
	EXPECT_EQ(al_index(0x91), -1);
	EXPECT_EQ(al_index(0xfe), -1);
}

TEST(accessline_avp_agent_circuit_id)
{
	/* M=0 H=0 Length 6+13, Vendor 3561, Type 1, "eth 1/1/2:100" */
	static const uint8_t want[] = {
		0x00, 0x13, 0x0d, 0xe9, 0x00, 0x01,
		'e', 't', 'h', ' ', '1', '/', '1', '/', '2', ':', '1', '0', '0',
	};
	struct access_line al = only(AL_CIRCUIT_ID);

	memcpy(al.circuit_id, "eth 1/1/2:100", 14);
	al.circuit_len = 13;
	EXPECT_TRUE(avps_are(&al, want, sizeof(want)));
}

TEST(accessline_avp_agent_remote_id)
{
	static const uint8_t want[] = {
		0x00, 0x0c, 0x0d, 0xe9, 0x00, 0x02, 'c', 'p', 'e', '-', '4', '2',
	};
	struct access_line al = only(AL_REMOTE_ID);

	memcpy(al.remote_id, "cpe-42", 7);
	al.remote_len = 6;
	EXPECT_TRUE(avps_are(&al, want, sizeof(want)));
}

/* Each rate: Length 14, 64-bit b/s; 0x81 .. 0x8a. */
TEST(accessline_avp_rates)
{
	uint8_t t;

	for (t = AL_ACT_RATE_UP; t <= AL_MIN_RATE_DOWN_LP; t++) {
		/* 5 000 000 000 b/s: above 32 bits, 0x00000001 2a05f200 */
		const uint8_t want[] = {
			0x00, 0x0e, 0x0d, 0xe9, 0x00, t,
			0x00, 0x00, 0x00, 0x01, 0x2a, 0x05, 0xf2, 0x00,
		};
		struct access_line al = only(t);

		al.rate[t - AL_ACT_RATE_UP] = 5000000000ull;
		EXPECT_TRUE(avps_are(&al, want, sizeof(want)));
	}
}

/* Each interleaving delay: Length 10, 32-bit ms; 0x8b .. 0x8e. */
TEST(accessline_avp_delays)
{
	uint8_t t;

	for (t = AL_MAX_DELAY_UP; t <= AL_ACT_DELAY_DOWN; t++) {
		const uint8_t want[] = {
			0x00, 0x0a, 0x0d, 0xe9, 0x00, t, 0x00, 0x00, 0x00, 0x10,
		};
		struct access_line al = only(t);

		al.delay[t - AL_MAX_DELAY_UP] = 16;
		EXPECT_TRUE(avps_are(&al, want, sizeof(want)));
	}
}

TEST(accessline_avp_access_loop_encapsulation)
{
	/* Length 9: Data Link 1 (Ethernet), Encaps 1: 2 (single-tagged), Encaps 2: 0 */
	static const uint8_t want[] = {
		0x00, 0x09, 0x0d, 0xe9, 0x00, 0x90, 0x01, 0x02, 0x00,
	};
	struct access_line al = only(AL_ENCAP);

	al.encap[0] = 1;
	al.encap[1] = 2;
	EXPECT_TRUE(avps_are(&al, want, sizeof(want)));
}

TEST(accessline_avp_connect_speed_update_enable)
{
	static const uint8_t want[] = { 0x00, 0x06, 0x00, 0x00, 0x00, 0x62 };
	struct l2tp_builder b;
	uint8_t buf[64];

	l2tp_build_begin(&b, buf, sizeof(buf), 1, 0, L2TP_MSG_ICRQ, NULL);
	al_put_csu_enable(&b);
	ASSERT_EQ(l2tp_build_end(&b), FIRST_AVP + sizeof(want));
	EXPECT_EQ(memcmp(buf + FIRST_AVP, want, sizeof(want)), 0);
	EXPECT_TRUE(al_csu_enabled(buf, FIRST_AVP + sizeof(want)));
}

TEST(accessline_avp_connect_speed_update)
{
	/* Length 18: Reserved, Remote Session ID 0x1234, Tx 16 000 000, Rx 1 000 000 */
	static const uint8_t want[] = {
		0x00, 0x12, 0x00, 0x00, 0x00, 0x61,
		0x00, 0x00, 0x12, 0x34,
		0x00, 0xf4, 0x24, 0x00,
		0x00, 0x0f, 0x42, 0x40,
	};
	struct al_csu c[2];
	struct l2tp_builder b;
	unsigned int ign = 0;
	uint8_t buf[64];

	l2tp_build_begin(&b, buf, sizeof(buf), 1, 0, L2TP_MSG_CSUN, NULL);
	al_put_csu(&b, 0x1234, 16000000, 1000000);
	ASSERT_EQ(l2tp_build_end(&b), FIRST_AVP + sizeof(want));
	EXPECT_EQ(memcmp(buf + FIRST_AVP, want, sizeof(want)), 0);
	ASSERT_EQ(al_csu_from_msg(buf, FIRST_AVP + sizeof(want), c, 2, &ign), 1u);
	EXPECT_EQ(c[0].sid, 0x1234);
	EXPECT_EQ(c[0].tx_bps, 16000000u);
	EXPECT_EQ(c[0].rx_bps, 1000000u);
	EXPECT_EQ(ign, 0u);
	EXPECT_FALSE(al_csu_enabled(buf, FIRST_AVP + sizeof(want)));
}

/* A TR-101 tag as a DSLAM adds it: rates in kb/s become b/s. */
static const uint8_t tr101[] = {
	0x00, 0x00, 0x0d, 0xe9,
	0x01, 0x0d, 'e', 't', 'h', ' ', '1', '/', '1', '/', '2', ':', '1', '0', '0',
	0x02, 0x06, 'c', 'p', 'e', '-', '4', '2',
	0x81, 0x04, 0x00, 0x00, 0x04, 0x00,	/* up 1024 kb/s */
	0x82, 0x04, 0x00, 0x00, 0x40, 0x00,	/* down 16384 kb/s */
	0x87, 0x04, 0x00, 0x00, 0x08, 0x00,	/* max up 2048 */
	0x8c, 0x04, 0x00, 0x00, 0x00, 0x08,	/* act delay up 8 ms */
	0x90, 0x03, 0x01, 0x01, 0x00,		/* Ethernet, untagged */
	0xfe, 0x00,				/* a type we do not carry */
};

TEST(accessline_parse_tr101)
{
	struct access_line al;
	const char *why = NULL;

	ASSERT_EQ(al_parse_tr101(&al, tr101, sizeof(tr101), &why), 0);
	EXPECT_STREQ(al.circuit_id, "eth 1/1/2:100");
	EXPECT_EQ(al.circuit_len, 13);
	EXPECT_STREQ(al.remote_id, "cpe-42");
	EXPECT_EQ(al_rate(&al, AL_ACT_RATE_UP), 1024000ull);
	EXPECT_EQ(al_rate(&al, AL_ACT_RATE_DOWN), 16384000ull);
	EXPECT_EQ(al_rate(&al, AL_MAX_RATE_UP), 2048000ull);
	EXPECT_TRUE(!al_has(&al, AL_MIN_RATE_UP));
	EXPECT_EQ(al.delay[AL_ACT_DELAY_UP - AL_MAX_DELAY_UP], 8u);
	EXPECT_TRUE(al_has(&al, AL_ENCAP) && al.encap[0] == 1 && al.encap[1] == 1);
	EXPECT_EQ(__builtin_popcount(al.present), 7);
}

static const char *tr101_why(const uint8_t *v, size_t len)
{
	struct access_line al;
	const char *why = "(parsed)";
	int err = al_parse_tr101(&al, v, len, &why);

	if (err == -ENOENT)
		return "(other vendor)";
	if (err && al.present)
		return "(kept something)";
	return why;
}

TEST(accessline_parse_tr101_refusals)
{
	static const uint8_t other[] = { 0, 0, 0, 9, 0x01, 0x01, 'x' };
	static const uint8_t short_vid[] = { 0, 0, 0x0d };
	static const uint8_t hdr[] = { 0, 0, 0x0d, 0xe9, 0x01 };
	static const uint8_t beyond[] = { 0, 0, 0x0d, 0xe9, 0x01, 0x05, 'a', 'b' };
	static const uint8_t empty_id[] = { 0, 0, 0x0d, 0xe9, 0x02, 0x00 };
	static const uint8_t rate3[] = { 0, 0, 0x0d, 0xe9, 0x81, 0x03, 0, 0, 1 };
	static const uint8_t encap2[] = { 0, 0, 0x0d, 0xe9, 0x90, 0x02, 1, 1 };
	static const uint8_t twice[] = { 0, 0, 0x0d, 0xe9, 0x01, 0x01, 'a', 0x01, 0x01, 'b' };
	uint8_t long_id[4 + 2 + 64] = { 0, 0, 0x0d, 0xe9, 0x01, 64 };

	memset(long_id + 6, 'x', 64);
	EXPECT_STREQ(tr101_why(other, sizeof(other)), "(other vendor)");
	EXPECT_STREQ(tr101_why(short_vid, sizeof(short_vid)), "vendor id truncated");
	EXPECT_STREQ(tr101_why(hdr, sizeof(hdr)), "sub-option header truncated");
	EXPECT_STREQ(tr101_why(beyond, sizeof(beyond)), "sub-option beyond the tag");
	EXPECT_STREQ(tr101_why(empty_id, sizeof(empty_id)), "identifier empty or longer than 63 bytes");
	EXPECT_STREQ(tr101_why(long_id, sizeof(long_id)), "identifier empty or longer than 63 bytes");
	EXPECT_STREQ(tr101_why(rate3, sizeof(rate3)), "rate or delay not 4 bytes");
	EXPECT_STREQ(tr101_why(encap2, sizeof(encap2)), "Access-Loop-Encapsulation not 3 bytes");
	EXPECT_STREQ(tr101_why(twice, sizeof(twice)), "sub-option repeated");
	/* 63 bytes is the bound, and fine */
	long_id[5] = 63;
	EXPECT_STREQ(tr101_why(long_id, sizeof(long_id) - 1), "(parsed)");
}

/* The whole path: a PADR's tag through pppoe_disc_parse(), then the ICRQ's AVPs. */
TEST(accessline_padr_to_icrq_avps)
{
	static const uint8_t want[] = {
		0x00, 0x13, 0x0d, 0xe9, 0x00, 0x01,
		'e', 't', 'h', ' ', '1', '/', '1', '/', '2', ':', '1', '0', '0',
		0x00, 0x0c, 0x0d, 0xe9, 0x00, 0x02, 'c', 'p', 'e', '-', '4', '2',
		/* 1 024 000 b/s = 0x000fa000 */
		0x00, 0x0e, 0x0d, 0xe9, 0x00, 0x81, 0, 0, 0, 0, 0x00, 0x0f, 0xa0, 0x00,
		/* 16 384 000 b/s = 0x00fa0000 */
		0x00, 0x0e, 0x0d, 0xe9, 0x00, 0x82, 0, 0, 0, 0, 0x00, 0xfa, 0x00, 0x00,
		/* 2 048 000 b/s = 0x001f4000 */
		0x00, 0x0e, 0x0d, 0xe9, 0x00, 0x87, 0, 0, 0, 0, 0x00, 0x1f, 0x40, 0x00,
		0x00, 0x0a, 0x0d, 0xe9, 0x00, 0x8c, 0, 0, 0, 8,
		0x00, 0x09, 0x0d, 0xe9, 0x00, 0x90, 1, 1, 0,
	};
	uint8_t pkt[256] = { 0x11, PPPOE_CODE_PADR, 0, 0, 0, 0 };
	struct access_line al, back;
	struct pppoe_disc p;
	uint8_t icrq[1024];
	unsigned int ign = 0;
	size_t off = 6, len;

	pkt[off++] = 0x01; pkt[off++] = 0x01; pkt[off++] = 0; pkt[off++] = 0;	/* Service-Name "" */
	pkt[off++] = 0x01; pkt[off++] = 0x05; pkt[off++] = 0; pkt[off++] = sizeof(tr101);
	memcpy(pkt + off, tr101, sizeof(tr101));
	off += sizeof(tr101);
	pkt[5] = (uint8_t)(off - 6);
	ASSERT_EQ(pppoe_disc_parse(pkt, off, &p, NULL), 0);
	ASSERT_TRUE(p.bbf.present);
	ASSERT_EQ(al_parse_tr101(&al, p.bbf.data, p.bbf.len, NULL), 0);
	EXPECT_TRUE(avps_are(&al, want, sizeof(want)));
	/* and the LNS reads back exactly what was sent */
	len = build_one(&al, icrq, sizeof(icrq));
	EXPECT_EQ(al_from_msg(&back, icrq, len, &ign), 7u);
	EXPECT_EQ(ign, 0u);
	EXPECT_EQ(memcmp(&al, &back, sizeof(al)), 0);
}

/* A hand-made ICRQ: what the LNS takes and what it skips. */
TEST(accessline_from_msg_skips)
{
	static const uint8_t icrq[] = {
		0xc8, 0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x80, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0a,		/* ICRQ */
		/* M set: understood and taken */
		0x80, 0x08, 0x0d, 0xe9, 0x00, 0x01, 'c', '1',
		/* hidden: skipped */
		0x40, 0x08, 0x0d, 0xe9, 0x00, 0x02, 0x11, 0x22,
		/* a rate of 4 bytes (RFC 4679's size): skipped */
		0x00, 0x0a, 0x0d, 0xe9, 0x00, 0x81, 0, 0, 0, 1,
		/* the same identifier again: skipped */
		0x00, 0x08, 0x0d, 0xe9, 0x00, 0x01, 'c', '2',
		/* unknown type of the vendor: skipped */
		0x00, 0x07, 0x0d, 0xe9, 0x00, 0xfe, 0x01,
		/* another vendor's type 1: not ours */
		0x00, 0x07, 0x00, 0x09, 0x00, 0x01, 'z',
		/* a good rate */
		0x00, 0x0e, 0x0d, 0xe9, 0x00, 0x82, 0, 0, 0, 0, 0, 0, 0x27, 0x10,
	};
	uint8_t buf[sizeof(icrq)];
	struct access_line al;
	unsigned int ign = 0;

	memcpy(buf, icrq, sizeof(buf));
	buf[3] = sizeof(buf);
	EXPECT_EQ(al_from_msg(&al, buf, sizeof(buf), &ign), 2u);
	EXPECT_EQ(ign, 4u);
	EXPECT_STREQ(al.circuit_id, "c1");
	EXPECT_EQ(al_rate(&al, AL_ACT_RATE_DOWN), 10000ull);
	EXPECT_TRUE(!al_has(&al, AL_REMOTE_ID) && !al_has(&al, AL_ACT_RATE_UP));
}

/* An ICRQ with a mandatory access-line AVP parses (it is one we know). */
TEST(accessline_msg_parse_accepts_m_bit)
{
	uint8_t icrq[] = {
		0xc8, 0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x80, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0a,		/* ICRQ */
		0x80, 0x08, 0x00, 0x00, 0x00, 0x0e, 0x00, 0x05,		/* Assigned Session ID */
		0x80, 0x0a, 0x00, 0x00, 0x00, 0x0f, 0, 0, 0, 1,		/* Call Serial Number */
		0x80, 0x08, 0x0d, 0xe9, 0x00, 0x01, 'c', '1',
		0x80, 0x07, 0x0d, 0xe9, 0x00, 0xfe, 0x01,		/* not a type we know */
	};
	struct l2tp_msg m;

	icrq[3] = sizeof(icrq) - 7;	/* without the last AVP */
	EXPECT_EQ(l2tp_msg_parse(&m, icrq, sizeof(icrq) - 7, NULL), L2TP_ACT_ACCEPT);
	icrq[3] = sizeof(icrq);
	EXPECT_EQ(l2tp_msg_parse(&m, icrq, sizeof(icrq), NULL), L2TP_ACT_CDN);
}

/* CSUN and CSURQ are message types the parser knows (RFC 5515). */
TEST(accessline_msg_parse_csun_csurq)
{
	uint8_t csun[] = {
		0xc8, 0x02, 0x00, 0x26, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x80, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1c,		/* CSUN, M set */
		0x00, 0x12, 0x00, 0x00, 0x00, 0x61,
		0, 0, 0, 7, 0, 0, 0x27, 0x10, 0, 0, 0x03, 0xe8,
	};
	struct l2tp_msg m;

	EXPECT_EQ(l2tp_msg_parse(&m, csun, sizeof(csun), NULL), L2TP_ACT_ACCEPT);
	EXPECT_EQ(m.type, L2TP_MSG_CSUN);
	EXPECT_STREQ(l2tp_msg_name(L2TP_MSG_CSUN), "CSUN");
	csun[19] = 0x1d;
	EXPECT_EQ(l2tp_msg_parse(&m, csun, sizeof(csun), NULL), L2TP_ACT_ACCEPT);
	EXPECT_EQ(m.type, L2TP_MSG_CSURQ);
	EXPECT_STREQ(l2tp_msg_name(L2TP_MSG_CSURQ), "CSURQ");
}

TEST(accessline_radius_vsa_parse)
{
	/* two VSAs of RFC 4679: Actual-Data-Rate-Upstream 1 000 000 b/s, Agent-Circuit-Id "x" */
	static const uint8_t rate[] = { 0, 0, 0x0d, 0xe9, 0x81, 0x06, 0x00, 0x0f, 0x42, 0x40 };
	static const uint8_t id[] = { 0, 0, 0x0d, 0xe9, 0x01, 0x03, 'x' };
	static const uint8_t bad[] = { 0, 0, 0x0d, 0xe9, 0x81, 0x01 };
	struct access_line al = { 0 };
	const char *why = NULL;

	EXPECT_EQ(al_parse_radius_vsa(&al, rate, sizeof(rate), &why), 0);
	EXPECT_EQ(al_parse_radius_vsa(&al, id, sizeof(id), &why), 0);
	EXPECT_EQ(al_rate(&al, AL_ACT_RATE_UP), 1000000ull);
	EXPECT_STREQ(al.circuit_id, "x");
	EXPECT_EQ(al_parse_radius_vsa(&al, bad, sizeof(bad), &why), -EBADMSG);
	EXPECT_STREQ(why, "sub-option header truncated");
	EXPECT_EQ(al_rate(&al, AL_ACT_RATE_UP), 1000000ull);	/* untouched */
}

TEST(accessline_radius_vsa_build)
{
	/* 26, Length 8+2, Vendor-Id 3561, Vendor-Type 2, Vendor-Length 4, "ab" */
	static const uint8_t want[] = {
		26, 10, 0, 0, 0x0d, 0xe9, 0x02, 0x04, 'a', 'b',
		/* Actual-Data-Rate-Downstream above 32 bits: 0xffffffff */
		26, 12, 0, 0, 0x0d, 0xe9, 0x82, 0x06, 0xff, 0xff, 0xff, 0xff,
		/* Access-Loop-Encapsulation */
		26, 11, 0, 0, 0x0d, 0xe9, 0x90, 0x05, 0x00, 0x00, 0x03,
	};
	struct access_line al = { 0 };
	uint8_t out[64];

	al.present = 1u << al_index(AL_REMOTE_ID) | 1u << al_index(AL_ACT_RATE_DOWN) |
		     1u << al_index(AL_ENCAP);
	memcpy(al.remote_id, "ab", 3);
	al.remote_len = 2;
	al.rate[AL_ACT_RATE_DOWN - AL_ACT_RATE_UP] = 5000000000ull;
	al.encap[2] = 3;
	ASSERT_EQ(al_put_radius(&al, out, sizeof(out)), sizeof(want));
	EXPECT_EQ(memcmp(out, want, sizeof(want)), 0);
	EXPECT_EQ(al_put_radius(&al, out, sizeof(want) - 1), 0u);
}

TEST(accessline_format)
{
	struct access_line al;
	char buf[512];

	ASSERT_EQ(al_parse_tr101(&al, tr101, sizeof(tr101), NULL), 0);
	EXPECT_STREQ(al_format(&al, buf, sizeof(buf)),
		     "circuit-id \"eth 1/1/2:100\" remote-id \"cpe-42\" act-up 1024000 "
		     "act-down 16384000 max-up 2048000 act-delay-up 8 encap 010100");
	al.circuit_id[0] = '"';
	al.circuit_id[1] = 0x01;
	EXPECT_EQ(strncmp(al_format(&al, buf, sizeof(buf)), "circuit-id \"\\x22\\x01h 1", 23), 0);
	al_format(&al, buf, 10);
	EXPECT_EQ(strlen(buf), 9u);
}
