// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld reliable delivery (userspace/l2tpseld/reliable.c), RFC 2661 §5.8
 * and Appendix A/B, with simulated time: S-L2TP-1 (Ns/Nr, window,
 * retransmission with back-off and a maximum count, ZLB acks), S-L2TP-3
 * (duplicates, out-of-window Ns, Nr acknowledging what was never sent,
 * wrap 65535 -> 0), the "no reply" signal that drives S-SEL-4, and acks
 * that never wait behind what cannot go (S-STORM-3).
 */
#include <errno.h>

#include "harness.h"
#include "../../userspace/l2tpseld/reliable.h"

static struct l2tp_rel rel;	/* kept between tests: l2tp_rel_reset() */

static size_t hello(uint8_t *buf, size_t cap)
{
	struct l2tp_builder b;

	l2tp_build_begin(&b, buf, cap, 7, 0, L2TP_MSG_HELLO, NULL);
	return l2tp_build_end(&b);
}

/* A header as the peer would send it. */
static struct l2tp_hdr peer_msg(uint16_t ns, uint16_t nr)
{
	struct l2tp_hdr h = { .flags = L2TP_CTRL_FLAGS, .length = 20, .tunnel_id = 1,
			      .ns = ns, .nr = nr };
	return h;
}

static struct l2tp_hdr peer_zlb(uint16_t ns, uint16_t nr)
{
	struct l2tp_hdr h = peer_msg(ns, nr);

	h.length = 12;
	h.zlb = true;
	return h;
}

static void queue_hello(struct l2tp_rel *r)
{
	uint8_t buf[64];
	size_t len = hello(buf, sizeof(buf));

	EXPECT_TRUE(l2tp_rel_queue(r, buf, len) >= 0);
}

/* Ns and Nr of what went out */
static void expect_tx(const struct l2tp_rel_tx *tx, uint16_t ns, uint16_t nr,
		      bool zlb, const char *file, int line)
{
	struct l2tp_hdr h;

	if (l2tp_hdr_parse(&h, tx->data, tx->len) != L2TP_PERR_NONE) {
		th_fail(file, line, "transmitted header does not parse");
		return;
	}
	if (h.ns != ns || h.nr != nr || h.zlb != zlb || tx->zlb != zlb)
		th_fail(file, line, "sent Ns %u Nr %u zlb %d, expected %u %u %d",
			  h.ns, h.nr, h.zlb, ns, nr, zlb);
}
#define EXPECT_TX(tx, ns, nr, zlb) expect_tx(tx, ns, nr, zlb, __FILE__, __LINE__)

/* S-L2TP-1: Appendix B.1, lock-step tunnel establishment seen from the LAC */
TEST(l2tp_rel_lockstep_b1)
{
	struct l2tp_rel_tx tx;
	struct l2tp_hdr h;

	l2tp_rel_reset(&rel, NULL);
	l2tp_rel_set_peer_tunnel(&rel, 9);
	queue_hello(&rel);	/* stands for the SCCRQ */
	ASSERT_EQ(l2tp_rel_poll(&rel, 0, &tx), L2TP_REL_TRANSMIT);
	EXPECT_TX(&tx, 0, 0, false);
	EXPECT_EQ(l2tp_rel_poll(&rel, 0, &tx), L2TP_REL_IDLE);

	h = peer_msg(0, 1);	/* SCCRP Nr 1, Ns 0 */
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 100), L2TP_REL_DELIVER);
	EXPECT_TRUE(l2tp_rel_all_acked(&rel));
	queue_hello(&rel);	/* SCCCN: piggybacks the ack */
	ASSERT_EQ(l2tp_rel_poll(&rel, 100, &tx), L2TP_REL_TRANSMIT);
	EXPECT_TX(&tx, 1, 1, false);
	EXPECT_EQ(l2tp_rel_poll(&rel, 100, &tx), L2TP_REL_IDLE);	/* no ZLB */

	h = peer_zlb(1, 2);	/* ZLB Nr 2, Ns 1 */
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 200), L2TP_REL_ACK_ONLY);
	EXPECT_TRUE(l2tp_rel_all_acked(&rel));
	EXPECT_EQ(rel.nr, 1);	/* a ZLB takes no slot */
	EXPECT_EQ(l2tp_rel_next_event(&rel, 200), UINT64_MAX);
}

/* S-L2TP-1: a delivered message with no reply is acknowledged by a ZLB */
TEST(l2tp_rel_zlb_when_nothing_piggybacks)
{
	struct l2tp_rel_tx tx;
	struct l2tp_hdr h = peer_msg(0, 0);

	l2tp_rel_reset(&rel, NULL);
	l2tp_rel_set_peer_tunnel(&rel, 9);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_DELIVER);
	EXPECT_EQ(l2tp_rel_next_event(&rel, 0), 0);
	ASSERT_EQ(l2tp_rel_poll(&rel, 0, &tx), L2TP_REL_TRANSMIT);
	EXPECT_TX(&tx, 0, 1, true);
	EXPECT_EQ(l2tp_hdr_parse(&h, tx.data, tx.len), L2TP_PERR_NONE);
	EXPECT_EQ(h.tunnel_id, 9);
	EXPECT_EQ(l2tp_rel_poll(&rel, 0, &tx), L2TP_REL_IDLE);

	/* with an ack delay, a reply queued in time piggybacks instead */
	{
		struct l2tp_rel_config cfg = { .ack_delay_ms = 50 };

		l2tp_rel_reset(&rel, &cfg);
		h = peer_msg(0, 0);
		EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_DELIVER);
		EXPECT_EQ(l2tp_rel_poll(&rel, 10, &tx), L2TP_REL_IDLE);
		EXPECT_EQ(l2tp_rel_next_event(&rel, 10), 50);
		queue_hello(&rel);
		ASSERT_EQ(l2tp_rel_poll(&rel, 20, &tx), L2TP_REL_TRANSMIT);
		EXPECT_TX(&tx, 0, 1, false);
		EXPECT_EQ(l2tp_rel_poll(&rel, 60, &tx), L2TP_REL_IDLE);
	}
}

/*
 * RFC 2661 section 5.8 lets an ack wait for a message to ride on, but a
 * sender with our receive window full waits with it: half the window owed
 * is acknowledged at once, whatever the delay (a storm of ICCNs).
 */
TEST(l2tp_rel_half_window_owed_acked_at_once)
{
	struct l2tp_rel_config cfg = { .ack_delay_ms = 100, .recv_window = 8 };
	struct l2tp_rel_tx tx;
	struct l2tp_hdr h;
	uint16_t ns;

	l2tp_rel_reset(&rel, &cfg);
	l2tp_rel_set_peer_tunnel(&rel, 9);
	for (ns = 0; ns < 3; ns++) {
		h = peer_msg(ns, 0);
		EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_DELIVER);
	}
	EXPECT_EQ(l2tp_rel_poll(&rel, 0, &tx), L2TP_REL_IDLE);
	EXPECT_EQ(l2tp_rel_next_event(&rel, 0), 100);
	h = peer_msg(3, 0);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_DELIVER);
	ASSERT_EQ(l2tp_rel_poll(&rel, 0, &tx), L2TP_REL_TRANSMIT);
	EXPECT_TX(&tx, 0, 4, true);
	/* the count starts again: the next one waits for the delay */
	h = peer_msg(4, 0);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 5), L2TP_REL_DELIVER);
	EXPECT_EQ(l2tp_rel_poll(&rel, 5, &tx), L2TP_REL_IDLE);
	EXPECT_EQ(l2tp_rel_next_event(&rel, 5), 105);
}

/*
 * S-STORM-3: an ack owed never waits behind our own send window (RFC 2661
 * §5.8) nor behind slow start (Appendix A: CWND 1).  Messages of many calls
 * are queued and cannot go; the peer delays its own acks, so the messages
 * it sends us open nothing.  Each time a ZLB with their Nr leaves exactly
 * one ack delay after the first of them, long before the peer's timer (1 s,
 * §5.8), and none of the queued messages goes early.
 */
TEST(l2tp_rel_ack_not_behind_send_window)
{
	static const uint16_t windows[] = { 1, 4, 8, 16 };
	struct l2tp_rel_config cfg = { .ack_delay_ms = 100, .recv_window = 16 };
	struct l2tp_rel_tx tx;
	struct l2tp_hdr h;
	unsigned int i, k;

	for (i = 0; i < sizeof(windows) / sizeof(windows[0]); i++) {
		uint16_t w = windows[i], peer_ns = 0;
		uint32_t waiting;
		uint64_t t;

		l2tp_rel_reset(&rel, &cfg);
		l2tp_rel_set_peer_tunnel(&rel, 9);
		ASSERT_EQ(l2tp_rel_set_peer_window(&rel, w), 0);
		for (k = 0; k < 3u * w + 8; k++)
			queue_hello(&rel);	/* the ICRQs of a storm */

		/* slow start: one message in flight, the rest wait */
		ASSERT_EQ(l2tp_rel_poll(&rel, 0, &tx), L2TP_REL_TRANSMIT);
		EXPECT_TX(&tx, 0, 0, false);
		EXPECT_EQ(l2tp_rel_poll(&rel, 0, &tx), L2TP_REL_IDLE);
		waiting = l2tp_rel_waiting(&rel);
		for (t = 10; t <= 20; t += 10) {
			h = peer_msg(peer_ns++, 0);	/* acks nothing of ours */
			EXPECT_EQ(l2tp_rel_receive(&rel, &h, t), L2TP_REL_DELIVER);
			EXPECT_EQ(l2tp_rel_poll(&rel, t, &tx), L2TP_REL_IDLE);
		}
		EXPECT_EQ(l2tp_rel_next_event(&rel, 20), 110);
		EXPECT_EQ(l2tp_rel_poll(&rel, 109, &tx), L2TP_REL_IDLE);
		ASSERT_EQ(l2tp_rel_poll(&rel, 110, &tx), L2TP_REL_TRANSMIT)
			TH_LOG("window %u, cwnd 1", w);
		EXPECT_TX(&tx, 1, 2, true);
		EXPECT_EQ(l2tp_rel_poll(&rel, 110, &tx), L2TP_REL_IDLE);
		EXPECT_EQ(l2tp_rel_waiting(&rel), waiting);

		/* the window opened up to the peer's by prompt acks, then full */
		t = 200;
		while (rel.cwnd < w) {
			while (l2tp_rel_poll(&rel, t, &tx) == L2TP_REL_TRANSMIT)
				EXPECT_TRUE(!tx.zlb);
			h = peer_zlb(peer_ns, rel.ns_sent);
			EXPECT_EQ(l2tp_rel_receive(&rel, &h, t), L2TP_REL_ACK_ONLY);
			t += 10;
		}
		while (l2tp_rel_poll(&rel, t, &tx) == L2TP_REL_TRANSMIT)
			EXPECT_TRUE(!tx.zlb);
		ASSERT_EQ((uint16_t)(rel.ns_sent - rel.ns_una), w);
		ASSERT_TRUE(l2tp_rel_waiting(&rel) > 0);
		waiting = l2tp_rel_waiting(&rel);
		for (k = 0; k < 3; k++) {
			h = peer_msg(peer_ns++, rel.ns_una);
			EXPECT_EQ(l2tp_rel_receive(&rel, &h, t + k), L2TP_REL_DELIVER);
			EXPECT_EQ(l2tp_rel_poll(&rel, t + k, &tx), L2TP_REL_IDLE);
		}
		EXPECT_EQ(l2tp_rel_next_event(&rel, t + 2), t + 100);
		ASSERT_EQ(l2tp_rel_poll(&rel, t + 100, &tx), L2TP_REL_TRANSMIT)
			TH_LOG("window %u full", w);
		EXPECT_TX(&tx, rel.ns_sent, peer_ns, true);
		EXPECT_EQ(l2tp_rel_poll(&rel, t + 100, &tx), L2TP_REL_IDLE);
		EXPECT_EQ(l2tp_rel_waiting(&rel), waiting);
		EXPECT_EQ(rel.stats.retransmits, 0);
	}
	l2tp_rel_destroy(&rel);
}

/*
 * S-STORM-3: a retransmission does not carry an owed ack.  The peer delays
 * its acks past our timer, so what the timer resends is a copy of a message
 * the peer holds already; RFC 2661 §5.8 asks of a duplicate only that it be
 * acknowledged, and a peer like xl2tpd drops it whole, its Nr unread.  With
 * our window full (here 1, or slow start's 1 of 4) nothing new can carry the
 * ack, so a ZLB still goes by the ack delay, or the peer retransmits.
 */
TEST(l2tp_rel_retransmission_does_not_carry_owed_ack)
{
	static const uint16_t windows[] = { 1, 4 };
	struct l2tp_rel_config cfg = { .ack_delay_ms = 100, .recv_window = 16 };
	struct l2tp_rel_tx tx;
	struct l2tp_hdr h;
	unsigned int i, k;

	for (i = 0; i < sizeof(windows) / sizeof(windows[0]); i++) {
		l2tp_rel_reset(&rel, &cfg);
		l2tp_rel_set_peer_tunnel(&rel, 9);
		l2tp_rel_set_peer_window(&rel, windows[i]);
		for (k = 0; k < 6; k++)
			queue_hello(&rel);
		ASSERT_EQ(l2tp_rel_poll(&rel, 0, &tx), L2TP_REL_TRANSMIT);
		EXPECT_EQ(l2tp_rel_poll(&rel, 0, &tx), L2TP_REL_IDLE);

		/* the peer's message, 50 ms before our timer: the ack is due at 1050 */
		h = peer_msg(0, 0);
		EXPECT_EQ(l2tp_rel_receive(&rel, &h, 950), L2TP_REL_DELIVER);
		EXPECT_EQ(l2tp_rel_poll(&rel, 950, &tx), L2TP_REL_IDLE);
		ASSERT_EQ(l2tp_rel_poll(&rel, 1000, &tx), L2TP_REL_TRANSMIT);
		EXPECT_TRUE(tx.retransmit);
		EXPECT_TX(&tx, 0, 1, false);	/* §5.8: the current Nr, but a duplicate */
		EXPECT_EQ(l2tp_rel_poll(&rel, 1000, &tx), L2TP_REL_IDLE);
		EXPECT_EQ(l2tp_rel_next_event(&rel, 1000), 1050) TH_LOG("window %u", windows[i]);
		ASSERT_EQ(l2tp_rel_poll(&rel, 1050, &tx), L2TP_REL_TRANSMIT)
			TH_LOG("window %u", windows[i]);
		EXPECT_TX(&tx, 1, 1, true);
		EXPECT_EQ(l2tp_rel_waiting(&rel), 5);

		/*
		 * A duplicate (our ZLB was lost) that arrives as our timer
		 * resends again: acknowledged at once, by a ZLB after the copy.
		 */
		h = peer_msg(0, 0);
		EXPECT_EQ(l2tp_rel_receive(&rel, &h, 3000), L2TP_REL_DUPLICATE);
		ASSERT_EQ(l2tp_rel_poll(&rel, 3000, &tx), L2TP_REL_TRANSMIT);
		EXPECT_TRUE(tx.retransmit);
		ASSERT_EQ(l2tp_rel_poll(&rel, 3000, &tx), L2TP_REL_TRANSMIT)
			TH_LOG("window %u", windows[i]);
		EXPECT_TX(&tx, 1, 1, true);
		EXPECT_EQ(l2tp_rel_poll(&rel, 3000, &tx), L2TP_REL_IDLE);
	}
	l2tp_rel_destroy(&rel);
}

/*
 * S-STORM-3: nor does the copy a partial ack after a timeout resends
 * (the settle time above): the peer that acks its backlog one message at a
 * time may hold that copy too.  A message of the peer that arrives 50 ms
 * before the resend is acknowledged by a ZLB one ack delay after it.
 */
TEST(l2tp_rel_partial_ack_resend_does_not_carry_owed_ack)
{
	struct l2tp_rel_config cfg = { .ack_delay_ms = 100 };
	struct l2tp_rel_tx tx;
	struct l2tp_hdr h;
	uint16_t head;
	int i;

	l2tp_rel_reset(&rel, &cfg);
	l2tp_rel_set_peer_tunnel(&rel, 9);
	for (i = 0; i < 12; i++)
		queue_hello(&rel);
	for (i = 0; i < 3; i++) {	/* cwnd 4 */
		while (l2tp_rel_poll(&rel, 0, &tx) == L2TP_REL_TRANSMIT)
			;
		h = peer_zlb(0, rel.ns_sent);
		l2tp_rel_receive(&rel, &h, 0);
	}
	while (l2tp_rel_poll(&rel, 0, &tx) == L2TP_REL_TRANSMIT)
		;
	head = rel.ns_una;
	ASSERT_EQ(l2tp_rel_poll(&rel, 1000, &tx), L2TP_REL_TRANSMIT);
	EXPECT_TRUE(tx.timeout);
	h = peer_zlb(0, (uint16_t)(head + 1));		/* partial: resend at 1350 */
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 1100), L2TP_REL_ACK_ONLY);
	h = peer_msg(0, (uint16_t)(head + 1));		/* no further ack: due at 1400 */
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 1300), L2TP_REL_DELIVER);
	EXPECT_EQ(l2tp_rel_poll(&rel, 1300, &tx), L2TP_REL_IDLE);
	ASSERT_EQ(l2tp_rel_poll(&rel, 1350, &tx), L2TP_REL_TRANSMIT);
	EXPECT_TRUE(tx.retransmit && !tx.timeout);
	EXPECT_EQ(tx.ns, (uint16_t)(head + 1));
	EXPECT_EQ(l2tp_rel_poll(&rel, 1350, &tx), L2TP_REL_IDLE);
	EXPECT_EQ(l2tp_rel_next_event(&rel, 1350), 1400);
	ASSERT_EQ(l2tp_rel_poll(&rel, 1400, &tx), L2TP_REL_TRANSMIT);
	EXPECT_TX(&tx, rel.ns_sent, 1, true);
	l2tp_rel_destroy(&rel);
}

/*
 * S-STORM-3: a datagram the socket refused carried no ack: the ack is owed
 * again, a ZLB due a settle time later (rto_initial_ms / 4: not in the same
 * turn, the socket would refuse that too), unless a new message carries it
 * first.  What settled no ack (a copy, or a message with none owed) owes
 * none when refused.
 */
TEST(l2tp_rel_refused_send_owes_ack_again)
{
	struct l2tp_rel_config cfg = { .ack_delay_ms = 100 };
	struct l2tp_rel_tx tx;
	struct l2tp_hdr h;

	l2tp_rel_reset(&rel, &cfg);
	l2tp_rel_set_peer_tunnel(&rel, 9);
	h = peer_msg(0, 0);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_DELIVER);
	queue_hello(&rel);		/* the reply, carrying the ack */
	ASSERT_EQ(l2tp_rel_poll(&rel, 0, &tx), L2TP_REL_TRANSMIT);
	EXPECT_TX(&tx, 0, 1, false);
	EXPECT_TRUE(tx.ack);
	l2tp_rel_tx_failed(&rel, &tx, 0);
	EXPECT_EQ(l2tp_rel_poll(&rel, 0, &tx), L2TP_REL_IDLE);
	EXPECT_EQ(l2tp_rel_next_event(&rel, 0), 250);
	EXPECT_EQ(l2tp_rel_poll(&rel, 249, &tx), L2TP_REL_IDLE);
	ASSERT_EQ(l2tp_rel_poll(&rel, 250, &tx), L2TP_REL_TRANSMIT);
	EXPECT_TX(&tx, 1, 1, true);
	EXPECT_TRUE(tx.ack);
	l2tp_rel_tx_failed(&rel, &tx, 250);	/* refused again: once more later */
	EXPECT_EQ(l2tp_rel_next_event(&rel, 250), 500);
	ASSERT_EQ(l2tp_rel_poll(&rel, 500, &tx), L2TP_REL_TRANSMIT);
	EXPECT_TX(&tx, 1, 1, true);
	EXPECT_EQ(l2tp_rel_poll(&rel, 500, &tx), L2TP_REL_IDLE);

	/* a new message before the retry carries it: no ZLB */
	h = peer_msg(1, 0);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 600), L2TP_REL_DELIVER);
	rel.stats.zlb_sent = 0;
	h = peer_zlb(2, 1);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 600), L2TP_REL_ACK_ONLY);
	queue_hello(&rel);
	ASSERT_EQ(l2tp_rel_poll(&rel, 600, &tx), L2TP_REL_TRANSMIT);
	l2tp_rel_tx_failed(&rel, &tx, 600);
	queue_hello(&rel);
	ASSERT_EQ(l2tp_rel_poll(&rel, 700, &tx), L2TP_REL_TRANSMIT);
	EXPECT_TX(&tx, 2, 2, false);
	EXPECT_TRUE(tx.ack);
	EXPECT_EQ(l2tp_rel_poll(&rel, 900, &tx), L2TP_REL_IDLE);
	EXPECT_EQ(rel.stats.zlb_sent, 0);

	/* the timer's copy settled nothing: refused, it owes nothing */
	ASSERT_EQ(l2tp_rel_poll(&rel, 1600, &tx), L2TP_REL_TRANSMIT);
	EXPECT_TRUE(tx.retransmit && !tx.ack);
	l2tp_rel_tx_failed(&rel, &tx, 1600);
	EXPECT_TRUE(!rel.ack_pending);
	EXPECT_EQ(l2tp_rel_poll(&rel, 1900, &tx), L2TP_REL_IDLE);
	l2tp_rel_destroy(&rel);
}

/* Run the clock until the peer never answers; record each send time. */
static int retransmit_times(uint64_t *times, int max, enum l2tp_rel_event *last)
{
	struct l2tp_rel_tx tx;
	uint64_t now = 0;
	int n = 0;

	queue_hello(&rel);
	for (;;) {
		enum l2tp_rel_event ev = l2tp_rel_poll(&rel, now, &tx);

		if (ev == L2TP_REL_TRANSMIT) {
			if (n < max)
				times[n] = now;
			n++;
			continue;
		}
		if (ev == L2TP_REL_GIVE_UP) {
			*last = ev;
			times[n < max ? n : max - 1] = now;
			return n;
		}
		now = l2tp_rel_next_event(&rel, now);
		if (now == UINT64_MAX) {
			*last = ev;
			return n;
		}
	}
}

/*
 * S-L2TP-1, S-SEL-4: sends at 0, then retransmissions after 1, 2, 4, 8, 8 s
 * (default 5 retries, cap 8 s), and "no reply" after a last 8 s: 31 s, the
 * full retransmission cycle of §5.7.
 */
TEST(l2tp_rel_backoff_schedule_and_give_up)
{
	static const uint64_t expect[] = { 0, 1000, 3000, 7000, 15000, 23000, 31000 };
	enum l2tp_rel_event last = L2TP_REL_IDLE;
	struct l2tp_rel_tx tx;
	uint64_t t[16];
	int n, i;

	l2tp_rel_reset(&rel, NULL);
	n = retransmit_times(t, 16, &last);
	ASSERT_EQ(n, 6);		/* the first send and 5 retransmissions */
	EXPECT_EQ(last, L2TP_REL_GIVE_UP);
	for (i = 0; i < 7; i++)
		EXPECT_EQ(t[i], expect[i]);
	EXPECT_EQ(rel.stats.retransmits, 5);
	EXPECT_EQ(l2tp_rel_cycle_ms(&rel), 31000);
	/* reported once; nothing more can be queued */
	EXPECT_EQ(l2tp_rel_poll(&rel, 40000, &tx), L2TP_REL_IDLE);
	EXPECT_EQ(l2tp_rel_next_event(&rel, 40000), UINT64_MAX);
	{
		uint8_t buf[64];
		size_t len = hello(buf, sizeof(buf));

		EXPECT_EQ(l2tp_rel_queue(&rel, buf, len), -EPIPE);
	}
}

/* S-L2TP-1: the maximum count and the cap are configurable; cap >= 8 s */
TEST(l2tp_rel_backoff_configurable)
{
	static const uint64_t three[] = { 0, 1000, 3000, 7000, 15000 };
	static const uint64_t cap16[] = { 0, 1000, 3000, 7000, 15000, 31000, 47000, 63000 };
	struct l2tp_rel_config cfg = { .max_retries = 3 };
	enum l2tp_rel_event last;
	uint64_t t[16];
	int n, i;

	l2tp_rel_reset(&rel, &cfg);
	n = retransmit_times(t, 16, &last);
	ASSERT_EQ(n, 4);
	for (i = 0; i < 5; i++)
		EXPECT_EQ(t[i], three[i]);
	EXPECT_EQ(l2tp_rel_cycle_ms(&rel), 15000);

	cfg.max_retries = 6;
	cfg.rto_max_ms = 16000;
	l2tp_rel_reset(&rel, &cfg);
	n = retransmit_times(t, 16, &last);
	ASSERT_EQ(n, 7);
	for (i = 0; i < 8; i++)
		EXPECT_EQ(t[i], cap16[i]);

	/* §5.8: a cap below 8 s is raised to 8 s */
	cfg.max_retries = 5;
	cfg.rto_max_ms = 2000;
	l2tp_rel_reset(&rel, &cfg);
	EXPECT_EQ(rel.cfg.rto_max_ms, 8000);
	EXPECT_EQ(l2tp_rel_cycle_ms(&rel), 31000);

	/* fewer retries before establishment, more after */
	l2tp_rel_reset(&rel, NULL);
	l2tp_rel_set_max_retries(&rel, 2);
	n = retransmit_times(t, 16, &last);
	EXPECT_EQ(n, 3);
	EXPECT_EQ(t[3], 7000);
}

/* S-L2TP-1: an ack in time stops the retransmission; the retry count is per message */
TEST(l2tp_rel_ack_stops_retransmission)
{
	struct l2tp_rel_tx tx;
	struct l2tp_hdr h;

	l2tp_rel_reset(&rel, NULL);
	queue_hello(&rel);
	ASSERT_EQ(l2tp_rel_poll(&rel, 0, &tx), L2TP_REL_TRANSMIT);
	ASSERT_EQ(l2tp_rel_poll(&rel, 1000, &tx), L2TP_REL_TRANSMIT);
	EXPECT_TRUE(tx.retransmit);
	EXPECT_TX(&tx, 0, 0, false);
	/* Appendix B.2: the retransmission carries the current Nr */
	h = peer_msg(0, 0);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 1500), L2TP_REL_DELIVER);
	ASSERT_EQ(l2tp_rel_poll(&rel, 3000, &tx), L2TP_REL_TRANSMIT);
	EXPECT_TX(&tx, 0, 1, false);
	/* S-STORM-3: the copy does not settle the ack owed since 1500, a ZLB does */
	ASSERT_EQ(l2tp_rel_poll(&rel, 3000, &tx), L2TP_REL_TRANSMIT);
	EXPECT_TX(&tx, 1, 1, true);
	EXPECT_EQ(l2tp_rel_poll(&rel, 3000, &tx), L2TP_REL_IDLE);
	h = peer_zlb(1, 1);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 3100), L2TP_REL_ACK_ONLY);
	EXPECT_TRUE(l2tp_rel_all_acked(&rel));
	EXPECT_EQ(l2tp_rel_next_event(&rel, 3100), UINT64_MAX);
	/* the next message starts again at 1 s */
	queue_hello(&rel);
	ASSERT_EQ(l2tp_rel_poll(&rel, 5000, &tx), L2TP_REL_TRANSMIT);
	EXPECT_EQ(l2tp_rel_next_event(&rel, 5000), 6000);
}

/* S-L2TP-3: duplicates are dropped and acknowledged at once (§5.8, B.2) */
TEST(l2tp_rel_duplicate_acknowledged)
{
	struct l2tp_rel_tx tx;
	struct l2tp_hdr h;
	uint16_t ns;

	l2tp_rel_reset(&rel, NULL);
	for (ns = 0; ns < 3; ns++) {
		h = peer_msg(ns, 0);
		EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_DELIVER);
	}
	while (l2tp_rel_poll(&rel, 0, &tx) == L2TP_REL_TRANSMIT)
		;
	h = peer_msg(2, 0);	/* the ZLB was lost: the peer retransmits */
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 10), L2TP_REL_DUPLICATE);
	ASSERT_EQ(l2tp_rel_poll(&rel, 10, &tx), L2TP_REL_TRANSMIT);
	EXPECT_TX(&tx, 0, 3, true);
	/* §5.8's example: last received 15: 0..15 and 32784..65535 are old */
	l2tp_rel_reset(&rel, NULL);
	rel.nr = 16;
	h = peer_msg(0, 0);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_DUPLICATE);
	h = peer_msg(15, 0);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_DUPLICATE);
	h = peer_msg(32784, 0);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_DUPLICATE);
	h = peer_msg(65535, 0);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_DUPLICATE);
	h = peer_msg(32783, 0);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_OUT_OF_WINDOW);
	EXPECT_EQ(rel.nr, 16);
	EXPECT_EQ(rel.stats.duplicates, 4);
}

/* S-L2TP-3: ahead of the expected Ns: dropped (our choice), nothing changes */
TEST(l2tp_rel_out_of_order_and_window)
{
	struct l2tp_rel_config cfg = { .recv_window = 4 };
	struct l2tp_rel_tx tx;
	struct l2tp_hdr h;

	l2tp_rel_reset(&rel, &cfg);
	h = peer_msg(1, 0);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_OUT_OF_ORDER);
	h = peer_msg(3, 0);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_OUT_OF_ORDER);
	h = peer_msg(4, 0);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_OUT_OF_WINDOW);
	h = peer_msg(30000, 0);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_OUT_OF_WINDOW);
	EXPECT_EQ(rel.nr, 0);
	EXPECT_EQ(l2tp_rel_poll(&rel, 0, &tx), L2TP_REL_IDLE);	/* no ack owed */
	h = peer_msg(0, 0);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_DELIVER);
	h = peer_msg(1, 0);	/* the peer's retransmission now fits */
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_DELIVER);
	EXPECT_EQ(rel.nr, 2);
	EXPECT_EQ(rel.stats.out_of_order, 2);
	EXPECT_EQ(rel.stats.out_of_window, 2);
}

/* A HELLO from the peer with Ns @ns, as bytes; its header in @h. */
static size_t peer_bytes(uint8_t *buf, size_t cap, uint16_t ns, struct l2tp_hdr *h)
{
	size_t len = hello(buf, cap);

	l2tp_hdr_set_seq(buf, ns, 0);
	EXPECT_EQ(l2tp_hdr_parse(h, buf, len), L2TP_PERR_NONE);
	return len;
}

/*
 * §5.8 lets a receiver queue what arrives ahead of its turn: kept, the
 * messages a reordering path swapped are delivered in order once the gap
 * fills, with no retransmission (before: dropped, and every swap cost the
 * peer its 1 s timer, which under a storm stalled the tunnel).
 */
TEST(l2tp_rel_reordered_kept_and_handed_back)
{
	struct l2tp_rel_config cfg = { .recv_window = 4 };
	uint8_t buf[64], out[L2TP_REL_MSG_MAX];
	struct l2tp_hdr h;
	size_t len, n;

	l2tp_rel_reset(&rel, &cfg);
	EXPECT_EQ(l2tp_rel_unstash(&rel, out, sizeof(out)), 0);	/* nothing kept, no memory */
	EXPECT_TRUE(rel.held == NULL);
	len = peer_bytes(buf, sizeof(buf), 2, &h);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_OUT_OF_ORDER);
	EXPECT_EQ(l2tp_rel_stash(&rel, 2, buf, len), 0);
	len = peer_bytes(buf, sizeof(buf), 1, &h);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_OUT_OF_ORDER);
	EXPECT_EQ(l2tp_rel_stash(&rel, 1, buf, len), 0);
	EXPECT_EQ(l2tp_rel_stash(&rel, 1, buf, len), 0);	/* a copy replaces it */
	/* not ahead inside the window: refused */
	EXPECT_EQ(l2tp_rel_stash(&rel, 4, buf, len), -ERANGE);
	EXPECT_EQ(l2tp_rel_stash(&rel, 0, buf, len), -ERANGE);
	EXPECT_EQ(l2tp_rel_stash(&rel, 65535, buf, len), -ERANGE);
	EXPECT_EQ(l2tp_rel_stash(&rel, 3, buf, L2TP_REL_MSG_MAX + 1), -EMSGSIZE);
	EXPECT_EQ(l2tp_rel_unstash(&rel, out, sizeof(out)), 0);	/* Ns 0 is missing */

	len = peer_bytes(buf, sizeof(buf), 0, &h);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_DELIVER);
	for (uint16_t want = 1; want <= 2; want++) {
		n = l2tp_rel_unstash(&rel, out, sizeof(out));
		EXPECT_EQ(n, len);
		EXPECT_EQ(l2tp_hdr_parse(&h, out, n), L2TP_PERR_NONE);
		EXPECT_EQ(h.ns, want);
		EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_DELIVER);
	}
	EXPECT_EQ(l2tp_rel_unstash(&rel, out, sizeof(out)), 0);
	EXPECT_EQ(rel.nr, 3);
	EXPECT_EQ(rel.stats.stashed, 3);
	EXPECT_EQ(rel.stats.unstashed, 2);

	/* kept, then its copy delivered in order directly: the kept one goes */
	len = peer_bytes(buf, sizeof(buf), 4, &h);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_OUT_OF_ORDER);
	EXPECT_EQ(l2tp_rel_stash(&rel, 4, buf, len), 0);
	len = peer_bytes(buf, sizeof(buf), 3, &h);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_DELIVER);
	len = peer_bytes(buf, sizeof(buf), 4, &h);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_DELIVER);
	EXPECT_EQ(l2tp_rel_unstash(&rel, out, sizeof(out)), 0);
	EXPECT_TRUE(rel.held[4 & (rel.heldcap - 1)].m == NULL);

	/* one left behind (Ns 7) is freed with the rest (ASan: no leak) */
	len = peer_bytes(buf, sizeof(buf), 7, &h);
	EXPECT_EQ(l2tp_rel_stash(&rel, 7, buf, len), 0);
	l2tp_rel_reset(&rel, &cfg);
	EXPECT_TRUE(rel.held == NULL);
}

/* S-L2TP-3: Nr acknowledging what was never sent: the message is dropped */
TEST(l2tp_rel_nr_beyond_sent)
{
	struct l2tp_rel_tx tx;
	struct l2tp_hdr h;

	l2tp_rel_reset(&rel, NULL);
	queue_hello(&rel);
	queue_hello(&rel);	/* queued, but only one sent (slow start) */
	ASSERT_EQ(l2tp_rel_poll(&rel, 0, &tx), L2TP_REL_TRANSMIT);
	EXPECT_EQ(l2tp_rel_poll(&rel, 0, &tx), L2TP_REL_IDLE);
	h = peer_msg(0, 2);	/* acks Ns 1, queued but never sent */
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 10), L2TP_REL_BAD_NR);
	h = peer_zlb(0, 100);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 10), L2TP_REL_BAD_NR);
	EXPECT_EQ(rel.nr, 0);
	EXPECT_EQ(rel.ns_una, 0);
	EXPECT_EQ(rel.stats.bad_nr, 2);
	/* an old Nr (behind what is acked) is harmless: reordering */
	h = peer_msg(0, 1);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 20), L2TP_REL_DELIVER);
	h = peer_msg(1, 0);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 20), L2TP_REL_DELIVER);
	EXPECT_EQ(rel.ns_una, 1);
}

/* S-L2TP-1: the peer's window bounds what is in flight; slow start (App. A) */
TEST(l2tp_rel_send_window)
{
	struct l2tp_rel_config cfg = { .peer_window = 4 };
	struct l2tp_rel_tx tx;
	struct l2tp_hdr h;
	int i, sent;
	uint16_t acked = 0, ns_out = 0;

	l2tp_rel_reset(&rel, &cfg);
	for (i = 0; i < 12; i++)
		queue_hello(&rel);
	/* rounds: 1, 2, 4, 4 (cwnd grows by one per ack up to the window) */
	{
		static const int round_size[] = { 1, 2, 4, 4, 1 };

		for (i = 0; i < 5; i++) {
			sent = 0;
			while (l2tp_rel_poll(&rel, 0, &tx) == L2TP_REL_TRANSMIT) {
				EXPECT_EQ(tx.ns, ns_out);
				ns_out++;
				sent++;
			}
			EXPECT_EQ(sent, round_size[i]);
			acked = (uint16_t)(acked + sent);
			h = peer_zlb(0, acked);
			EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_ACK_ONLY);
		}
	}
	EXPECT_TRUE(l2tp_rel_all_acked(&rel));
	EXPECT_EQ(l2tp_rel_set_peer_window(&rel, 0), -EINVAL);

	/* the queue has a bound, counted */
	{
		struct l2tp_rel_config small = { .queue_max = 40 };
		uint8_t buf[64];
		size_t len = hello(buf, sizeof(buf));

		l2tp_rel_reset(&rel, &small);
		for (i = 0; i < 40; i++)
			queue_hello(&rel);
		EXPECT_EQ(l2tp_rel_queue(&rel, buf, len), -ENOBUFS);
		EXPECT_EQ(rel.stats.queue_full, 1);
		EXPECT_EQ(rel.stats.queue_peak, 40);
		EXPECT_EQ(l2tp_rel_queue(&rel, buf, 4), -EMSGSIZE);
	}
}

/*
 * A storm: far more messages than the window wait for it, in order, none
 * refused; each goes out once the window opens and the ring is given back
 * when everything is acknowledged.
 */
TEST(l2tp_rel_storm_waits_for_window)
{
	struct l2tp_rel_tx tx;
	struct l2tp_hdr h;
	uint16_t ns_out = 0;
	int i, rounds = 0;

	l2tp_rel_reset(&rel, NULL);
	l2tp_rel_set_peer_window(&rel, 16);
	for (i = 0; i < 3000; i++)
		queue_hello(&rel);
	EXPECT_EQ(l2tp_rel_queued(&rel), 3000);
	EXPECT_EQ(l2tp_rel_waiting(&rel), 3000);
	EXPECT_TRUE(rel.qcap >= 3000);
	while (!l2tp_rel_all_acked(&rel) && rounds++ < 1000) {
		while (l2tp_rel_poll(&rel, 0, &tx) == L2TP_REL_TRANSMIT) {
			if (tx.zlb)
				continue;
			EXPECT_EQ(tx.ns, ns_out);
			EXPECT_EQ(tx.retransmit, false);
			ns_out++;
		}
		h = peer_zlb(0, ns_out);
		EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_ACK_ONLY);
	}
	EXPECT_EQ(ns_out, 3000);
	EXPECT_EQ(rel.stats.retransmits, 0);
	EXPECT_EQ(rel.stats.queue_full, 0);
	EXPECT_EQ(rel.stats.queue_peak, 3000);
	EXPECT_TRUE(rel.q == NULL);	/* nothing held when idle */
	/* wrap: Ns 65535 -> 0 with a grown ring */
	rel.ns_una = rel.ns_sent = rel.ns_next = 65530;
	ns_out = 65530;
	for (i = 0; i < 100; i++)
		queue_hello(&rel);
	rounds = 0;
	while (!l2tp_rel_all_acked(&rel) && rounds++ < 100) {
		while (l2tp_rel_poll(&rel, 0, &tx) == L2TP_REL_TRANSMIT)
			if (!tx.zlb)
				EXPECT_EQ(tx.ns, ns_out++);
		h = peer_zlb(0, ns_out);
		l2tp_rel_receive(&rel, &h, 0);
	}
	EXPECT_EQ(ns_out, (uint16_t)(65530 + 100));
	l2tp_rel_destroy(&rel);
}

/* S-L2TP-1: a retransmission halves the window and restarts slow start */
TEST(l2tp_rel_congestion_on_timeout)
{
	struct l2tp_rel_tx tx;
	struct l2tp_hdr h;
	int i;

	l2tp_rel_reset(&rel, NULL);
	for (i = 0; i < 12; i++)
		queue_hello(&rel);
	/* grow cwnd to 4 */
	for (i = 0; i < 3; i++) {
		while (l2tp_rel_poll(&rel, 0, &tx) == L2TP_REL_TRANSMIT)
			;
		h = peer_zlb(0, rel.ns_sent);
		l2tp_rel_receive(&rel, &h, 0);
	}
	EXPECT_EQ(rel.cwnd, 4);
	while (l2tp_rel_poll(&rel, 0, &tx) == L2TP_REL_TRANSMIT)
		;
	ASSERT_EQ(l2tp_rel_poll(&rel, 1000, &tx), L2TP_REL_TRANSMIT);
	EXPECT_TRUE(tx.retransmit);
	EXPECT_EQ(tx.ns, rel.ns_una);
	EXPECT_EQ(rel.cwnd, 1);
	EXPECT_EQ(rel.ssthresh, 2);
	EXPECT_EQ(l2tp_rel_poll(&rel, 1000, &tx), L2TP_REL_IDLE);

	/*
	 * A partial ack after the timeout: the peer got the resent head but
	 * dropped the three after it as out of order; with no further ack the
	 * next one goes after the settle time (250 ms), not a second later.
	 * A full ack ends the recovery.
	 */
	{
		uint16_t head = rel.ns_una;

		h = peer_zlb(0, (uint16_t)(head + 1));
		EXPECT_EQ(l2tp_rel_receive(&rel, &h, 1100), L2TP_REL_ACK_ONLY);
		EXPECT_EQ(l2tp_rel_next_event(&rel, 1100), 1350);
		EXPECT_EQ(l2tp_rel_poll(&rel, 1349, &tx), L2TP_REL_IDLE);
		ASSERT_EQ(l2tp_rel_poll(&rel, 1350, &tx), L2TP_REL_TRANSMIT);
		EXPECT_TRUE(tx.retransmit);
		EXPECT_EQ(tx.ns, (uint16_t)(head + 1));
		EXPECT_EQ(rel.retries, 0);
		h = peer_zlb(0, rel.ns_sent);
		EXPECT_EQ(l2tp_rel_receive(&rel, &h, 1400), L2TP_REL_ACK_ONLY);
		EXPECT_TRUE(!rel.recovering);
		EXPECT_EQ(rel.ns_una, rel.ns_sent);
	}
}

/*
 * S-L2TP-1: a peer stalled past our timer (a loaded VM) holds all
 * four messages in flight and the timeout's copy of the first; when it runs
 * again it acks them one by one as it works through its backlog.  Nothing
 * but the one timeout retransmission may go out: a partial ack that is
 * followed by more is no loss.  Before the fix every partial ack resent the
 * next oldest at once, and xl2tpd logged "out of order control packet, got
 * N, expected N+k" for each Ns it already had.
 */
TEST(l2tp_rel_stalled_peer_no_spurious_resend)
{
	struct l2tp_rel_tx tx;
	struct l2tp_hdr h;
	unsigned int sent_again = 0;
	uint16_t head, i;

	l2tp_rel_reset(&rel, NULL);
	for (i = 0; i < 11; i++)
		queue_hello(&rel);
	/* open the window to 4 with prompt acks: 1, 2 then 4 messages */
	for (i = 0; i < 3; i++) {
		while (l2tp_rel_poll(&rel, 0, &tx) == L2TP_REL_TRANSMIT)
			;
		h = peer_zlb(0, rel.ns_sent);
		l2tp_rel_receive(&rel, &h, 0);
	}
	while (l2tp_rel_poll(&rel, 0, &tx) == L2TP_REL_TRANSMIT)
		;
	head = rel.ns_una;
	ASSERT_EQ((uint16_t)(rel.ns_sent - head), 4);	/* the last 4 of 11 */
	/* the peer stalls: the timer resends the head, once */
	ASSERT_EQ(l2tp_rel_poll(&rel, 1000, &tx), L2TP_REL_TRANSMIT);
	EXPECT_TRUE(tx.retransmit);
	EXPECT_EQ(tx.ns, head);
	/* it wakes: an ack per message of its backlog, 1 ms apart */
	for (i = 1; i <= 4; i++) {
		h = peer_msg((uint16_t)(i - 1), (uint16_t)(head + i));
		EXPECT_EQ(l2tp_rel_receive(&rel, &h, 1200 + i), L2TP_REL_DELIVER);
		while (l2tp_rel_poll(&rel, 1200 + i, &tx) == L2TP_REL_TRANSMIT)
			if (!tx.zlb && tx.retransmit) {
				th_log("Ns %u resent after the peer acked Ns %u", tx.ns,
					  (uint16_t)(head + i - 1));
				sent_again++;
			}
	}
	EXPECT_EQ(sent_again, 0);
	EXPECT_TRUE(l2tp_rel_all_acked(&rel));
	EXPECT_TRUE(!rel.recovering);
	EXPECT_EQ(rel.stats.retransmits, 1);
}

/* S-L2TP-3: wrap 65535 -> 0 on both directions, with real traffic */
TEST(l2tp_rel_wrap)
{
	struct l2tp_rel_tx tx;
	struct l2tp_hdr h;
	uint32_t i;

	l2tp_rel_reset(&rel, NULL);
	/* receive 65540 messages in order, each acked by a ZLB */
	for (i = 0; i < 65540; i++) {
		h = peer_msg((uint16_t)i, 0);
		if (l2tp_rel_receive(&rel, &h, i) != L2TP_REL_DELIVER) {
			EXPECT_EQ(i, -1);
			break;
		}
		ASSERT_EQ(l2tp_rel_poll(&rel, i, &tx), L2TP_REL_TRANSMIT);
		ASSERT_TRUE(tx.zlb);
	}
	EXPECT_EQ(rel.nr, 4);
	EXPECT_TX(&tx, 0, 4, true);
	/* across the wrap, 65535 and 0..3 are old, 4 is next, 5 ahead */
	h = peer_msg(65535, 0);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_DUPLICATE);
	h = peer_msg(3, 0);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_DUPLICATE);
	h = peer_msg(5, 0);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_OUT_OF_ORDER);

	/* send 65538 messages, each acked; Nr wraps on the peer's side */
	l2tp_rel_reset(&rel, NULL);
	for (i = 0; i < 65538; i++) {
		queue_hello(&rel);
		ASSERT_EQ(l2tp_rel_poll(&rel, i, &tx), L2TP_REL_TRANSMIT);
		ASSERT_EQ(tx.ns, (uint16_t)i);
		h = peer_zlb(0, (uint16_t)(i + 1));
		ASSERT_EQ(l2tp_rel_receive(&rel, &h, i), L2TP_REL_ACK_ONLY);
	}
	EXPECT_EQ(rel.ns_una, 2);
	EXPECT_TRUE(l2tp_rel_all_acked(&rel));
	/* in flight across the wrap: 65535 and 0 sent, an ack of 1 covers both */
	l2tp_rel_reset(&rel, NULL);
	rel.ns_una = rel.ns_sent = rel.ns_next = 65535;
	rel.cwnd = 2;
	queue_hello(&rel);
	queue_hello(&rel);
	ASSERT_EQ(l2tp_rel_poll(&rel, 0, &tx), L2TP_REL_TRANSMIT);
	EXPECT_EQ(tx.ns, 65535);
	ASSERT_EQ(l2tp_rel_poll(&rel, 0, &tx), L2TP_REL_TRANSMIT);
	EXPECT_EQ(tx.ns, 0);
	h = peer_zlb(0, 2);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_BAD_NR);
	h = peer_zlb(0, 1);
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_ACK_ONLY);
	EXPECT_TRUE(l2tp_rel_all_acked(&rel));
}

/* ZLB floods: any number of ZLBs change nothing but the acks they carry */
TEST(l2tp_rel_zlb_flood)
{
	struct l2tp_rel_tx tx;
	struct l2tp_hdr h;
	int i;

	l2tp_rel_reset(&rel, NULL);
	queue_hello(&rel);
	ASSERT_EQ(l2tp_rel_poll(&rel, 0, &tx), L2TP_REL_TRANSMIT);
	for (i = 0; i < 10000; i++) {
		h = peer_zlb((uint16_t)(i * 7919), 0);
		EXPECT_EQ(l2tp_rel_receive(&rel, &h, 1), L2TP_REL_ACK_ONLY);
	}
	EXPECT_EQ(rel.nr, 0);
	EXPECT_EQ(rel.ns_una, 0);
	EXPECT_EQ(l2tp_rel_poll(&rel, 1, &tx), L2TP_REL_IDLE);	/* ZLBs are never acked */
	EXPECT_STREQ(l2tp_rel_rx_name(L2TP_REL_BAD_NR), "Nr acknowledges unsent");
}

/*
 * S-L2TP-1 end to end: two peers over a channel that loses 20 % of the
 * datagrams and delays each by 1..400 ms (so it reorders), simulated time.
 * Each side sends 300 messages; each must be delivered exactly once and in
 * order, and everything acknowledged, with no give-up.
 */
#define CH_MAX 4096
struct ch_pkt {
	uint64_t at;
	int to;
	size_t len;
	uint8_t data[32];
};

static struct ch_pkt chan[CH_MAX];
static struct l2tp_rel peers[2];
static uint32_t ch_rng = 12345;

static uint32_t ch_rand(void)
{
	ch_rng = ch_rng * 1103515245u + 12345u;
	return ch_rng >> 8;
}

TEST(l2tp_rel_lossy_reordering_channel)
{
	struct l2tp_rel_config cfg = { .max_retries = 10 };
	int queued[2] = { 0, 0 }, delivered[2] = { 0, 0 }, n_chan = 0, p, i;
	const int total = 300;
	uint64_t now = 0, steps = 0;
	uint8_t buf[64];
	size_t len = hello(buf, sizeof(buf));

	for (p = 0; p < 2; p++) {
		l2tp_rel_reset(&peers[p], &cfg);
		l2tp_rel_set_peer_tunnel(&peers[p], (uint16_t)(p + 1));
	}
	while (steps++ < 1000000) {
		uint64_t next = UINT64_MAX;
		struct l2tp_rel_tx tx;

		for (p = 0; p < 2; p++) {
			enum l2tp_rel_event ev;

			while (queued[p] < total && l2tp_rel_queue(&peers[p], buf, len) >= 0)
				queued[p]++;
			while ((ev = l2tp_rel_poll(&peers[p], now, &tx)) == L2TP_REL_TRANSMIT) {
				if (ch_rand() % 100 < 20)
					continue;	/* lost */
				ASSERT_TRUE(n_chan < CH_MAX);
				chan[n_chan].at = now + 1 + ch_rand() % 400;
				chan[n_chan].to = !p;
				chan[n_chan].len = tx.len;
				memcpy(chan[n_chan].data, tx.data, tx.len);
				n_chan++;
			}
			ASSERT_EQ(ev, L2TP_REL_IDLE);
		}
		for (i = 0; i < n_chan; i++) {
			struct l2tp_msg m;
			enum l2tp_rel_rx rx;

			if (chan[i].at > now)
				continue;
			ASSERT_EQ(l2tp_msg_parse(&m, chan[i].data, chan[i].len, NULL),
				  L2TP_ACT_ACCEPT);
			rx = l2tp_rel_receive(&peers[chan[i].to], &m.hdr, now);
			ASSERT_TRUE(rx != L2TP_REL_BAD_NR);
			if (rx == L2TP_REL_DELIVER) {
				/* in order, exactly once */
				ASSERT_EQ(m.hdr.ns, (uint16_t)delivered[chan[i].to]);
				delivered[chan[i].to]++;
			}
			chan[i--] = chan[--n_chan];
		}
		if (delivered[0] == total && delivered[1] == total &&
		    l2tp_rel_all_acked(&peers[0]) && l2tp_rel_all_acked(&peers[1]))
			break;
		for (i = 0; i < n_chan; i++)
			if (chan[i].at < next)
				next = chan[i].at;
		for (p = 0; p < 2; p++) {
			uint64_t t = l2tp_rel_next_event(&peers[p], now);

			if (t < next)
				next = t;
		}
		ASSERT_TRUE(next != UINT64_MAX);
		now = next > now ? next : now;
	}
	EXPECT_EQ(delivered[0], total);
	EXPECT_EQ(delivered[1], total);
	th_log("600 messages over 20%% loss and reordering in %llu simulated ms, "
		  "%llu + %llu retransmissions, %llu + %llu dropped out of order",
		  (unsigned long long)now,
		  (unsigned long long)peers[0].stats.retransmits,
		  (unsigned long long)peers[1].stats.retransmits,
		  (unsigned long long)peers[0].stats.out_of_order,
		  (unsigned long long)peers[1].stats.out_of_order);
}

/*
 * The peer clears the tunnel (§5.7): what waits behind the window is
 * forgotten, what is in flight stays until acknowledged, and the next
 * message takes the next Ns after the last one sent.
 */
TEST(l2tp_rel_drop_unsent_on_clear)
{
	struct l2tp_rel_tx tx;
	struct l2tp_hdr h;
	int i, sent = 0;

	l2tp_rel_reset(&rel, NULL);
	l2tp_rel_set_peer_window(&rel, 2);
	for (i = 0; i < 10; i++)
		queue_hello(&rel);
	while (l2tp_rel_poll(&rel, 0, &tx) == L2TP_REL_TRANSMIT)
		sent += !tx.zlb;
	EXPECT_EQ(sent, 1);			/* slow start: cwnd 1 */
	EXPECT_EQ(l2tp_rel_drop_unsent(&rel), 9);
	EXPECT_EQ(l2tp_rel_waiting(&rel), 0);
	EXPECT_EQ(l2tp_rel_queued(&rel), 1);
	EXPECT_EQ(l2tp_rel_drop_unsent(&rel), 0);
	queue_hello(&rel);
	h = peer_zlb(0, 1);			/* the one in flight acknowledged */
	EXPECT_EQ(l2tp_rel_receive(&rel, &h, 0), L2TP_REL_ACK_ONLY);
	ASSERT_EQ(l2tp_rel_poll(&rel, 0, &tx), L2TP_REL_TRANSMIT);
	EXPECT_EQ(tx.ns, 1);
	EXPECT_TRUE(!tx.zlb);
	EXPECT_EQ(l2tp_rel_poll(&rel, 0, &tx), L2TP_REL_IDLE);
	l2tp_rel_destroy(&rel);
}
