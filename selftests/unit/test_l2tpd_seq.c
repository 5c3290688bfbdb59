// SPDX-License-Identifier: GPL-2.0
/*
 * Ns/Nr on the wire, checked as strictly as xl2tpd does (S-L2TP-1, issue 5):
 * xl2tpd takes a control message, ZLBs included, only when its Ns is the
 * next one expected; anything else is logged "out of order control packet"
 * and dropped, the ZLB's acknowledgement with it.  A tap follows every
 * (sender, tunnel) stream: a new message must carry the next Ns, a ZLB the
 * next Ns too (RFC 2661 §5.8: a ZLB does not consume one), and with no loss
 * nothing is ever sent twice.
 */
#include <string.h>

#include "unit.h"
#include "l2tpd_harness.h"

#define SEQ_STREAMS 64

static struct seq_stream {
	int from;
	uint16_t tid;
	uint16_t next;		/* the next new Ns this sender must use */
	bool used, seen;
} st[SEQ_STREAMS];
static unsigned int bad_zlb, resent, skipped;

static struct seq_stream *stream(int from, uint16_t tid)
{
	unsigned int i;

	for (i = 0; i < SEQ_STREAMS; i++)
		if (st[i].used && st[i].from == from && st[i].tid == tid)
			return &st[i];
	for (i = 0; i < SEQ_STREAMS; i++)
		if (!st[i].used) {
			st[i] = (struct seq_stream){ .from = from, .tid = tid, .used = true };
			return &st[i];
		}
	return NULL;
}

static void seq_tap(int from, const uint8_t *buf, size_t len)
{
	struct l2tp_hdr h;
	struct seq_stream *s;

	if (l2tp_hdr_parse(&h, buf, len) != L2TP_PERR_NONE || !h.tunnel_id)
		return;		/* SCCRQ: Ns 0, counted below by its tunnel */
	s = stream(from, h.tunnel_id);
	if (!s)
		return;
	if (!s->seen && !h.zlb) {
		/* the LAC's SCCRQ went to tunnel 0: its stream starts at 1 */
		s->next = h.ns;
		s->seen = true;
	}
	if (h.zlb) {
		if (h.ns != s->next) {
			UNIT_DIAG("node %d tunnel %u: ZLB ns %u, next new ns is %u", from,
				  h.tunnel_id, h.ns, s->next);
			bad_zlb++;
		}
		return;
	}
	if (h.ns == s->next) {
		s->next++;
	} else if ((uint16_t)(s->next - h.ns) < 0x8000) {
		UNIT_DIAG("node %d tunnel %u: ns %u sent again (next new %u)", from, h.tunnel_id,
			  h.ns, s->next);
		resent++;
	} else {
		UNIT_DIAG("node %d tunnel %u: ns %u skips ahead of %u", from, h.tunnel_id, h.ns,
			  s->next);
		skipped++;
	}
}

static void seq_reset(void)
{
	memset(st, 0, sizeof(st));
	bad_zlb = resent = skipped = 0;
}

static const char *const lac_c[] = { "route p t1 10.0.0.2", NULL };
static const char *const lns_c[] = { "listen 10.0.0.2", NULL };

/* Four logins at once on one tunnel, then logouts and new logins crossing. */
UNIT_TEST(l2tpd_seq_concurrent_calls)
{
	struct h_node *lac, *lns;
	uint32_t id[4];
	unsigned int i;

	h_reset();
	seq_reset();
	lac = h_node(lac_c);
	lns = h_node(lns_c);
	H->tap = seq_tap;
	for (i = 0; i < 4; i++) {
		struct l2d_login *lg = h_login(lac, i & 1 ? "b@x" : "a@x", NULL);

		ASSERT_TRUE(lg != NULL);
		id[i] = lg->id;
	}
	h_run_for(500);
	EXPECT_EQ(h_sessions_in(lac, L2D_S_ESTABLISHED), 4);
	EXPECT_EQ(h_sessions_in(lns, L2D_S_ESTABLISHED), 4);
	/* the calls end while new ones start, as 4 clients logging in do */
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(l2d_logout(lac->d, id[i]), 0);
		EXPECT_TRUE(h_login(lac, "c@x", NULL) != NULL);
	}
	h_run_for(500);
	EXPECT_EQ(h_sessions_in(lac, L2D_S_ESTABLISHED), 4);
	EXPECT_EQ(h_sessions_in(lns, L2D_S_ESTABLISHED), 4);
	EXPECT_EQ(lac->d->n_tunnels, 1);
	EXPECT_EQ(bad_zlb, 0);
	EXPECT_EQ(resent, 0);
	EXPECT_EQ(skipped, 0);
	H->tap = NULL;
	h_fini();
}
