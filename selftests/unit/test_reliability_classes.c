// SPDX-License-Identifier: GPL-2.0
/*
 * The reliability campaign's bug classes, each with the corpus entry or
 * test named after it (Documentation/reliability.md, "Bug classes"), so
 * that the list cannot shrink without this test failing: every entry below
 * must exist (a file of fuzz/corpus/l2tp_msg/, a TEST in selftests/unit/,
 * a VM test selftests/net/NAME.sh) and be named in reliability.md.  Run
 * from the repository root, as make unit does.
 *
 * And the two classes that a single corpus datagram cannot show, as tests
 * of the reliable layer: a ZLB flood and Ns/Nr wrapping 65535 -> 0 over a
 * whole window.
 */
#include <stdlib.h>

#include "harness.h"
#include "../../userspace/l2tpseld/msg.h"
#include "../../userspace/l2tpseld/reliable.h"

enum kind { CORPUS, UNIT, VM };

static const struct {
	const char *class;
	enum kind kind;
	const char *name;
} classes[] = {
	/* AVP parsing (accel-ppp CVE-2020-15173: an AVP length below its header) */
	{ "AVP length underflow (CVE-2020-15173)", CORPUS, "cve-2020-15173-avp-length-underflow" },
	{ "AVP length beyond the message", CORPUS, "avp-length-overflow" },
	{ "AVP header truncated", CORPUS, "avp-header-truncated" },
	{ "zero-length AVP loop (xl2tpd)", CORPUS, "zero-length-avp-loop" },
	/* hidden AVPs */
	{ "trusting the decrypted length of a hidden AVP", CORPUS, "hidden-avp-length-trust" },
	{ "hidden AVP before its Random Vector", CORPUS, "hidden-avp-before-random-vector" },
	{ "hidden AVP where hiding is forbidden", CORPUS, "hidden-avp-forbidden" },
	/* vendor IDs */
	{ "vendor-ID confusion", CORPUS, "vendor-id-confusion" },
	{ "vendor-ID on the Message Type AVP", CORPUS, "vendor-id-message-type" },
	/* IDs */
	{ "session-ID collision", CORPUS, "session-id-collision" },
	{ "assigned ID 0", CORPUS, "assigned-id-zero" },
	{ "tunnel ID 0 on a call message", CORPUS, "tunnel-id-zero-icrq" },
	/* Ns/Nr */
	{ "Ns duplicate", CORPUS, "ns-duplicate" },
	{ "Ns out of window", CORPUS, "ns-out-of-window" },
	{ "Ns/Nr wrap 65535 -> 0", CORPUS, "ns-wrap-65535" },
	{ "Ns/Nr wrap 65535 -> 0 over a window", UNIT, "reliability_ns_nr_wrap_65535_to_0" },
	{ "Nr acknowledging what was never sent", CORPUS, "nr-acks-unsent" },
	{ "ZLB with a stale Nr", CORPUS, "zlb-stale-nr" },
	{ "ZLB flood", UNIT, "reliability_zlb_flood" },
	/* the kernel: delete vs teardown (CVE-2020-0429, CVE-2024-49940), timers vs frees */
	{ "kernel session/tunnel delete vs teardown (CVE-2020-0429, CVE-2024-49940)", VM, "fault_peers" },
	{ "namespace and module gone under live L2TP state", VM, "fault_module" },
	{ "data-path teardown", VM, "dataplane" },
	{ "lockout timers vs unload and namespace deletion", VM, "unload_busy" },
	{ "counters under churn with expiring lockouts", VM, "soak" },
	{ "user space sending on the kernel tunnel's socket (route cache race)", VM, "l2tpseld_dst" },
};

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	fclose(f);
	return buf;
}

static int file_exists(const char *path)
{
	FILE *f = fopen(path, "rb");

	if (f)
		fclose(f);
	return f != NULL;
}

/* Is "TEST(name)" in one of the unit test sources? */
static int unit_test_exists(const char *name)
{
	static const char *const files[] = {
		"selftests/unit/test_reliability_classes.c",
		"selftests/unit/test_l2tp_corpus.c",
		"selftests/unit/test_l2tp_rel.c",
		"selftests/unit/test_l2tpseld_fsm.c",
		"selftests/unit/test_l2tpseld_robust.c",
	};
	char want[128];
	unsigned int i;
	int found = 0;

	snprintf(want, sizeof(want), "TEST(%s)", name);
	for (i = 0; i < sizeof(files) / sizeof(files[0]) && !found; i++) {
		char *s = slurp(files[i]);

		found = s && strstr(s, want);
		free(s);
	}
	return found;
}

TEST(reliability_every_bug_class_has_its_named_entry)
{
	char *doc = slurp("Documentation/reliability.md");
	char path[256];
	unsigned int i;

	ASSERT_TRUE(doc != NULL);
	/* the classes reliability.md lists, none gone */
	EXPECT_TRUE(sizeof(classes) / sizeof(classes[0]) >= 24);
	for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		int ok;

		switch (classes[i].kind) {
		case CORPUS:
			snprintf(path, sizeof(path), "fuzz/corpus/l2tp_msg/%s", classes[i].name);
			ok = file_exists(path);
			break;
		case UNIT:
			ok = unit_test_exists(classes[i].name);
			break;
		default:
			snprintf(path, sizeof(path), "selftests/net/%s.sh", classes[i].name);
			ok = file_exists(path);
			break;
		}
		if (!ok)
			th_log("%s: no %s \"%s\"", classes[i].class,
				  classes[i].kind == CORPUS ? "corpus entry" :
				  classes[i].kind == UNIT ? "unit test" : "VM test", classes[i].name);
		EXPECT_TRUE(ok);
		if (!strstr(doc, classes[i].name)) {
			th_log("%s: \"%s\" is not in Documentation/reliability.md",
				  classes[i].class, classes[i].name);
			EXPECT_TRUE(0);
		}
	}
	free(doc);
}

static struct l2tp_hdr hdr(uint16_t ns, uint16_t nr, bool zlb)
{
	struct l2tp_hdr h = { .flags = 0xc802, .length = 12, .tunnel_id = 17, .ns = ns, .nr = nr,
			      .zlb = zlb };

	return h;
}

static const uint8_t hello[] = {
	0xc8, 0x02, 0x00, 0x14, 0x00, 0x2a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x80, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x06,
};

/*
 * A ZLB flood: 30000 ZLBs with current, old and never-sent Nr against a
 * tunnel with one message in flight.  None is answered (a ZLB never owes a
 * ZLB: no amplification), none acknowledges what was not sent, the
 * message in flight stays unacknowledged and is retransmitted when its
 * timer says, not earlier or later; one right ZLB then acknowledges it.
 */
TEST(reliability_zlb_flood)
{
	static struct l2tp_rel rel;
	struct l2tp_rel_tx tx;
	struct l2tp_hdr h;
	uint64_t due;
	unsigned int i;

	l2tp_rel_reset(&rel, NULL);
	l2tp_rel_set_peer_tunnel(&rel, 42);
	ASSERT_TRUE(l2tp_rel_queue(&rel, hello, sizeof(hello)) >= 0);
	ASSERT_EQ(l2tp_rel_poll(&rel, 0, &tx), L2TP_REL_TRANSMIT);
	EXPECT_EQ(tx.ns, 0);
	due = l2tp_rel_next_event(&rel, 0);
	EXPECT_EQ(due, 1000);
	for (i = 0; i < 30000; i++) {
		enum l2tp_rel_rx rx;
		/* current, ahead of what was sent, behind (old) */
		uint16_t nr = i % 3 == 0 ? 0 : i % 3 == 1 ? (uint16_t)(2 + i % 30000) :
			      (uint16_t)(40000 + i % 25000);
		enum l2tp_rel_rx want = i % 3 == 1 ? L2TP_REL_BAD_NR : L2TP_REL_ACK_ONLY;

		h = hdr(0, nr, true);
		rx = l2tp_rel_receive(&rel, &h, 10);
		if (rx != want) {
			th_log("ZLB %u with Nr %u: %s", i, nr, l2tp_rel_rx_name(rx));
			EXPECT_EQ(rx, want);
			break;
		}
	}
	EXPECT_TRUE(!l2tp_rel_all_acked(&rel));
	EXPECT_EQ(rel.nr, 0);
	EXPECT_EQ(rel.stats.zlb_sent, 0);
	/* nothing owed before the retransmission time */
	EXPECT_EQ(l2tp_rel_next_event(&rel, 10), due);
	EXPECT_EQ(l2tp_rel_poll(&rel, 999, &tx), L2TP_REL_IDLE);
	ASSERT_EQ(l2tp_rel_poll(&rel, 1000, &tx), L2TP_REL_TRANSMIT);
	EXPECT_TRUE(tx.retransmit && !tx.zlb && tx.ns == 0);
	/* the right acknowledgement */
	h = hdr(0, 1, true);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 1001), L2TP_REL_ACK_ONLY);
	EXPECT_TRUE(l2tp_rel_all_acked(&rel));
	EXPECT_EQ(l2tp_rel_poll(&rel, 5000, &tx), L2TP_REL_IDLE);
	EXPECT_EQ(rel.stats.zlb_sent, 0);
}

/*
 * Ns and Nr across 65535 -> 0 on both sides for three windows: every
 * message delivered in order exactly once, every one of ours acknowledged
 * by an Nr that has wrapped, no duplicate or out-of-window verdict.
 */
TEST(reliability_ns_nr_wrap_65535_to_0)
{
	static struct l2tp_rel rel;
	struct l2tp_rel_tx tx;
	struct l2tp_hdr h;
	uint16_t peer_ns = 65500, i;
	uint64_t t = 0;

	l2tp_rel_reset(&rel, NULL);
	l2tp_rel_set_peer_tunnel(&rel, 42);
	rel.nr = peer_ns;
	rel.ns_una = rel.ns_sent = rel.ns_next = 65520;
	for (i = 0; i < 48; i++) {
		enum l2tp_rel_rx rx;

		ASSERT_TRUE(l2tp_rel_queue(&rel, hello, sizeof(hello)) >= 0);
		ASSERT_EQ(l2tp_rel_poll(&rel, t, &tx), L2TP_REL_TRANSMIT);
		EXPECT_EQ(tx.ns, (uint16_t)(65520 + i));
		/* the peer's next message acknowledges ours */
		h = hdr(peer_ns, (uint16_t)(tx.ns + 1), false);
		rx = l2tp_rel_receive(&rel, &h, t);
		if (rx != L2TP_REL_DELIVER) {
			th_log("message %u (Ns %u, Nr %u): %s", i, h.ns, h.nr, l2tp_rel_rx_name(rx));
			EXPECT_EQ(rx, L2TP_REL_DELIVER);
			return;
		}
		EXPECT_TRUE(l2tp_rel_all_acked(&rel));
		/* the same again is a duplicate, dropped */
		EXPECT_EQ(l2tp_rel_receive(&rel, &h, t), L2TP_REL_DUPLICATE);
		peer_ns++;
		t += 10;
		/* drain the ZLB owed for the duplicate */
		while (l2tp_rel_poll(&rel, t + 1000, &tx) == L2TP_REL_TRANSMIT)
			EXPECT_TRUE(tx.zlb);
	}
	EXPECT_EQ(rel.nr, (uint16_t)(65500 + 48));
	EXPECT_EQ(rel.stats.out_of_window, 0);
	EXPECT_EQ(rel.stats.bad_nr, 0);
}
