// SPDX-License-Identifier: GPL-2.0
/*
 * Each seed of the fuzz corpus (fuzz/corpus/l2tp_msg/, made by
 * fuzz/mk_corpus_l2tp_msg.py) exercises the bug class it is named after
 * and gets the answer S-L2TP-3 asks for.  Run from the
 * repository root, as make unit does.
 */
#include <stdlib.h>

#include "harness.h"
#include "../../userspace/l2tpseld/auth.h"
#include "../../userspace/l2tpseld/msg.h"
#include "../../userspace/l2tpseld/reliable.h"

#define CORPUS "fuzz/corpus/l2tp_msg/"

static const uint8_t fuzz_secret_bytes[] = "fuzz-secret";
static const struct l2tp_secret fuzz_secret = {
	fuzz_secret_bytes, sizeof(fuzz_secret_bytes) - 1
};

static const struct {
	const char *name;
	enum l2tp_action action;
	enum l2tp_perr reason;
	uint16_t error;
} seeds[] = {
	{ "valid-sccrq", L2TP_ACT_ACCEPT, L2TP_PERR_NONE, 0 },
	{ "valid-sccrq-challenge", L2TP_ACT_ACCEPT, L2TP_PERR_NONE, 0 },
	{ "valid-sccrp", L2TP_ACT_ACCEPT, L2TP_PERR_NONE, 0 },
	{ "valid-scccn", L2TP_ACT_ACCEPT, L2TP_PERR_NONE, 0 },
	{ "valid-stopccn", L2TP_ACT_ACCEPT, L2TP_PERR_NONE, 0 },
	{ "valid-hello", L2TP_ACT_ACCEPT, L2TP_PERR_NONE, 0 },
	{ "valid-icrq", L2TP_ACT_ACCEPT, L2TP_PERR_NONE, 0 },
	{ "valid-icrp", L2TP_ACT_ACCEPT, L2TP_PERR_NONE, 0 },
	{ "valid-iccn", L2TP_ACT_ACCEPT, L2TP_PERR_NONE, 0 },
	{ "valid-cdn", L2TP_ACT_ACCEPT, L2TP_PERR_NONE, 0 },
	{ "valid-zlb", L2TP_ACT_ACCEPT, L2TP_PERR_NONE, 0 },
	{ "valid-hidden-icrq", L2TP_ACT_ACCEPT, L2TP_PERR_NONE, 0 },
	{ "cve-2020-15173-avp-length-underflow", L2TP_ACT_STOPCCN, L2TP_PERR_AVP_LENGTH_UNDERFLOW, 2 },
	{ "zero-length-avp-loop", L2TP_ACT_STOPCCN, L2TP_PERR_AVP_LENGTH_UNDERFLOW, 2 },
	{ "avp-length-overflow", L2TP_ACT_STOPCCN, L2TP_PERR_AVP_LENGTH_OVERFLOW, 2 },
	{ "avp-header-truncated", L2TP_ACT_STOPCCN, L2TP_PERR_AVP_TRUNCATED, 2 },
	{ "hidden-avp-length-trust", L2TP_ACT_CDN, L2TP_PERR_HIDDEN_BAD_LENGTH, 2 },
	{ "hidden-avp-before-random-vector", L2TP_ACT_CDN,
	  L2TP_PERR_HIDDEN_NO_RANDOM_VECTOR, 3 },
	{ "hidden-avp-forbidden", L2TP_ACT_STOPCCN, L2TP_PERR_HIDDEN_FORBIDDEN, 3 },
	{ "vendor-id-confusion", L2TP_ACT_STOPCCN, L2TP_PERR_UNKNOWN_MANDATORY_AVP, 8 },
	{ "vendor-id-message-type", L2TP_ACT_STOPCCN, L2TP_PERR_NO_MESSAGE_TYPE, 3 },
	{ "unknown-mandatory-avp", L2TP_ACT_CDN, L2TP_PERR_UNKNOWN_MANDATORY_AVP, 8 },
	{ "unknown-message-type", L2TP_ACT_STOPCCN, L2TP_PERR_UNKNOWN_MESSAGE_TYPE, 3 },
	{ "session-id-collision", L2TP_ACT_CDN, L2TP_PERR_AVP_DUPLICATE, 3 },
	{ "assigned-id-zero", L2TP_ACT_STOPCCN, L2TP_PERR_AVP_BAD_VALUE, 3 },
	{ "tunnel-id-zero-icrq", L2TP_ACT_ACCEPT, L2TP_PERR_NONE, 0 },
	{ "missing-required-avp", L2TP_ACT_STOPCCN, L2TP_PERR_MISSING_AVP, 3 },
	{ "protocol-version-2", L2TP_ACT_STOPCCN, L2TP_PERR_PROTOCOL_VERSION, 0x0100 },
	{ "result-code-length-3", L2TP_ACT_CDN, L2TP_PERR_AVP_BAD_LENGTH, 2 },
	{ "receive-window-zero", L2TP_ACT_STOPCCN, L2TP_PERR_AVP_BAD_VALUE, 3 },
	{ "l2f-version-1", L2TP_ACT_DISCARD, L2TP_PERR_HDR_VERSION, 0 },
	{ "data-message", L2TP_ACT_DISCARD, L2TP_PERR_HDR_DATA, 0 },
	{ "header-length-beyond-datagram", L2TP_ACT_DISCARD, L2TP_PERR_HDR_LENGTH, 0 },
	{ "ns-wrap-65535", L2TP_ACT_ACCEPT, L2TP_PERR_NONE, 0 },
	{ "nr-acks-unsent", L2TP_ACT_ACCEPT, L2TP_PERR_NONE, 0 },
	{ "zlb-stale-nr", L2TP_ACT_ACCEPT, L2TP_PERR_NONE, 0 },
	{ "ns-out-of-window", L2TP_ACT_ACCEPT, L2TP_PERR_NONE, 0 },
	{ "ns-duplicate", L2TP_ACT_ACCEPT, L2TP_PERR_NONE, 0 },
	/* captured from xl2tpd 1.3.18, see fuzz/mk_corpus_l2tp_msg.py */
	{ "xl2tpd-sccrq-challenge", L2TP_ACT_ACCEPT, L2TP_PERR_NONE, 0 },
	{ "xl2tpd-sccrp-challenge", L2TP_ACT_ACCEPT, L2TP_PERR_NONE, 0 },
	{ "xl2tpd-scccn-response", L2TP_ACT_ACCEPT, L2TP_PERR_NONE, 0 },
	{ "xl2tpd-icrq", L2TP_ACT_ACCEPT, L2TP_PERR_NONE, 0 },
	{ "xl2tpd-icrp", L2TP_ACT_ACCEPT, L2TP_PERR_NONE, 0 },
	{ "xl2tpd-iccn", L2TP_ACT_ACCEPT, L2TP_PERR_NONE, 0 },
	{ "xl2tpd-cdn", L2TP_ACT_ACCEPT, L2TP_PERR_NONE, 0 },
	{ "xl2tpd-zlb", L2TP_ACT_ACCEPT, L2TP_PERR_NONE, 0 },
};

static size_t read_seed(const char *name, uint8_t *buf, size_t cap)
{
	char path[256];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), CORPUS "%s", name);
	f = fopen(path, "rb");
	if (!f)
		return 0;
	n = fread(buf, 1, cap, f);
	fclose(f);
	return n;
}

/* S-L2TP-3: every seed, its class, its answer */
TEST(l2tp_corpus_seeds_hit_their_class)
{
	uint8_t buf[2048];
	struct l2tp_msg m;
	unsigned int i;

	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		size_t n = read_seed(seeds[i].name, buf, sizeof(buf));

		if (!n) {
			th_log("%s: cannot read " CORPUS "%s", seeds[i].name, seeds[i].name);
			EXPECT_TRUE(n > 0);
			continue;
		}
		l2tp_msg_parse(&m, buf, n, &fuzz_secret);
		if (m.answer.action != seeds[i].action || m.answer.reason != seeds[i].reason ||
		    (m.answer.action >= L2TP_ACT_STOPCCN &&
		     m.answer.error_code != seeds[i].error)) {
			th_log("%s: action %d reason %s error %u (%s)", seeds[i].name,
				  m.answer.action, l2tp_perr_name(m.answer.reason),
				  m.answer.error_code, m.answer.message);
			EXPECT_EQ(m.answer.action, seeds[i].action);
		}
	}
}

/* S-L2TP-3: the Ns/Nr seeds against a tunnel expecting Ns 65535 */
TEST(l2tp_corpus_seq_seeds)
{
	static struct l2tp_rel rel;
	static const struct { const char *name; enum l2tp_rel_rx rx; } cases[] = {
		{ "ns-wrap-65535", L2TP_REL_DELIVER },
		{ "nr-acks-unsent", L2TP_REL_BAD_NR },
		{ "zlb-stale-nr", L2TP_REL_ACK_ONLY },
		{ "ns-out-of-window", L2TP_REL_OUT_OF_WINDOW },
		{ "ns-duplicate", L2TP_REL_DUPLICATE },
	};
	uint8_t buf[512];
	struct l2tp_msg m;
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = read_seed(cases[i].name, buf, sizeof(buf));

		ASSERT_TRUE(n > 0);
		l2tp_rel_reset(&rel, NULL);
		rel.nr = 65535;
		rel.ns_una = rel.ns_sent = rel.ns_next = 65535;
		ASSERT_TRUE(l2tp_msg_parse(&m, buf, n, NULL) == L2TP_ACT_ACCEPT);
		EXPECT_EQ(l2tp_rel_receive(&rel, &m.hdr, 0), cases[i].rx);
	}
}

/*
 * S-L2TP-2 against a real peer: xl2tpd's SCCRP answers our-style challenge
 * with MD5(2 + secret + challenge), its SCCCN with MD5(3 + ...), and both
 * verify here; a wrong secret does not.  Also the reliable layer follows
 * xl2tpd's Ns/Nr through the whole exchange (LAC side).
 */
TEST(l2tp_corpus_xl2tpd_challenge_response)
{
	static const struct l2tp_secret wrong = { (const uint8_t *)"tunnel-secreT", 13 };
	static uint8_t q[512], p[512], c[512];
	struct l2tp_msg mq, mp, mc;
	const struct l2tp_avp_val *chal_q, *chal_p, *resp_p, *resp_c;

	ASSERT_EQ(l2tp_msg_parse(&mq, q, read_seed("xl2tpd-sccrq-challenge", q, sizeof(q)),
				 &fuzz_secret), L2TP_ACT_ACCEPT);
	ASSERT_EQ(l2tp_msg_parse(&mp, p, read_seed("xl2tpd-sccrp-challenge", p, sizeof(p)),
				 &fuzz_secret), L2TP_ACT_ACCEPT);
	ASSERT_EQ(l2tp_msg_parse(&mc, c, read_seed("xl2tpd-scccn-response", c, sizeof(c)),
				 &fuzz_secret), L2TP_ACT_ACCEPT);
	chal_q = &mq.avp[L2TP_AVP_CHALLENGE];
	chal_p = &mp.avp[L2TP_AVP_CHALLENGE];
	resp_p = &mp.avp[L2TP_AVP_CHALLENGE_RESPONSE];
	resp_c = &mc.avp[L2TP_AVP_CHALLENGE_RESPONSE];
	ASSERT_TRUE(chal_q->present && chal_p->present && resp_p->present && resp_c->present);
	EXPECT_TRUE(l2tp_auth_verify(resp_p->data, resp_p->len, L2TP_MSG_SCCRP,
				     (const uint8_t *)"tunnel-secret", 13,
				     chal_q->data, chal_q->len));
	EXPECT_TRUE(l2tp_auth_verify(resp_c->data, resp_c->len, L2TP_MSG_SCCCN,
				     (const uint8_t *)"tunnel-secret", 13,
				     chal_p->data, chal_p->len));
	EXPECT_TRUE(!l2tp_auth_verify(resp_p->data, resp_p->len, L2TP_MSG_SCCRP,
				      wrong.data, wrong.len, chal_q->data, chal_q->len));
}

TEST(l2tp_corpus_xl2tpd_sequence_lac_side)
{
	static struct l2tp_rel rel;
	static const struct { const char *name; bool from_lns; enum l2tp_rel_rx rx; } seq[] = {
		{ "xl2tpd-sccrq-challenge", false, 0 },
		{ "xl2tpd-sccrp-challenge", true, L2TP_REL_DELIVER },
		{ "xl2tpd-scccn-response", false, 0 },
		{ "xl2tpd-icrq", false, 0 },
		{ "xl2tpd-zlb", true, L2TP_REL_ACK_ONLY },
		{ "xl2tpd-icrp", true, L2TP_REL_DELIVER },
		{ "xl2tpd-iccn", false, 0 },
		{ "xl2tpd-cdn", true, L2TP_REL_DELIVER },
	};
	struct l2tp_rel_tx tx;
	uint8_t buf[512];
	struct l2tp_msg m;
	unsigned int i;

	l2tp_rel_reset(&rel, NULL);
	for (i = 0; i < sizeof(seq) / sizeof(seq[0]); i++) {
		size_t n = read_seed(seq[i].name, buf, sizeof(buf));

		ASSERT_EQ(l2tp_msg_parse(&m, buf, n, &fuzz_secret), L2TP_ACT_ACCEPT);
		if (seq[i].from_lns) {
			EXPECT_EQ(l2tp_rel_receive(&rel, &m.hdr, i), seq[i].rx);
			continue;
		}
		/* what we would send: the same Ns and Nr as xl2tpd's LAC did */
		ASSERT_TRUE(l2tp_rel_queue(&rel, buf, n) >= 0);
		ASSERT_EQ(l2tp_rel_poll(&rel, i, &tx), L2TP_REL_TRANSMIT);
		EXPECT_EQ(tx.ns, m.hdr.ns);
		EXPECT_TRUE(!memcmp(tx.data + 8, buf + 8, 4));
	}
	/* the CDN is still owed an ack: a ZLB */
	ASSERT_EQ(l2tp_rel_poll(&rel, 100, &tx), L2TP_REL_TRANSMIT);
	EXPECT_TRUE(tx.zlb);
	/* the CDN's Nr 4 acknowledged our ICCN (Ns 3): nothing left in flight */
	EXPECT_TRUE(l2tp_rel_all_acked(&rel));
}
