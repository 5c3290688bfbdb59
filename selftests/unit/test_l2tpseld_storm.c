// SPDX-License-Identifier: GPL-2.0
/*
 * Login storms on l2tpseld's simulated network
 * (S-L2TP-6): many more calls at once than the peer's receive window wait
 * for the window (RFC 2661 §5.8) instead of failing, and no local
 * congestion is reported as the LNS's no-reply (S-SEL-4 locks a
 * destination out only for that); the peer's messages are acknowledged in
 * time whatever waits behind the window (S-STORM-3).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/l2tpsel.h>

#include "harness.h"
#include "l2tpseld_harness.h"

static const char *const lac_one[] = { "route p t1 10.0.0.2", NULL };
static const char *const lns_plain[] = { "listen 10.0.0.2", NULL };

static void storm(struct h_node *lac, unsigned int n)
{
	unsigned int i;
	char user[32];

	for (i = 0; i < n; i++) {
		snprintf(user, sizeof(user), "u%u@x", i);
		h_login(lac, user, NULL);
	}
}

/* One call first, to bring the tunnel up within @ms; true when it did. */
static bool tunnel_up(struct h_node *lac, uint64_t ms)
{
	storm(lac, 1);
	h_run_for(ms);
	return lac->n_done_ok == 1;
}

/*
 * One call brings the tunnel up, then @n at once over it; every one of the
 * 1 + @n must succeed, none be the LNS's no-reply, all be up at the LNS.
 */
static void storm_established(struct h_node *lac, struct h_node *lns, unsigned int n,
			      uint64_t run_ms)
{
	ASSERT_TRUE(tunnel_up(lac, 1000));
	storm(lac, n);
	h_run_for(run_ms);
	EXPECT_EQ(lac->n_done_ok, n + 1);
	EXPECT_EQ(lac->n_done_fail, 0);
	EXPECT_EQ(lac->n_no_reply, 0);
	EXPECT_EQ(h_sessions_in(lns, L2D_S_ESTABLISHED), n + 1);
}

/* 20 logins at once on a new tunnel, as the review's first probe */
TEST(l2tpseld_storm_new_tunnel)
{
	struct h_node *lac, *lns;

	h_reset();
	lac = h_node(lac_one);
	lns = h_node(lns_plain);
	storm(lac, 20);
	h_run_for(2000);
	EXPECT_EQ(lac->n_done_ok, 20);
	EXPECT_EQ(lac->n_done_fail, 0);
	EXPECT_EQ(lac->n_no_reply, 0);
	EXPECT_EQ(lac->sent[L2TP_MSG_SCCRQ], 1);
	EXPECT_EQ(h_sessions_in(lns, L2D_S_ESTABLISHED), 20);
	h_fini();
}

/* 1000 logins, then 1000 logouts, at once over one established tunnel */
TEST(l2tpseld_storm_1000_login_logout)
{
	struct h_node *lac, *lns;
	unsigned int i;

	h_reset();
	lac = h_node(lac_one);
	lns = h_node(lns_plain);
	ASSERT_TRUE(tunnel_up(lac, 100));
	storm(lac, 1000);
	h_run_for(60000);
	EXPECT_EQ(lac->n_done_ok, 1001);
	EXPECT_EQ(lac->n_done_fail, 0);
	EXPECT_EQ(lac->n_no_reply, 0);
	EXPECT_EQ(lac->sent[L2TP_MSG_ICRQ], 1001);
	EXPECT_EQ(lac->sent[L2TP_MSG_SCCRQ], 1);
	EXPECT_EQ(l2d_kernel_none_sessions(lac->d), 1001);
	EXPECT_EQ(l2d_kernel_none_sessions(lns->d), 1001);
	EXPECT_EQ(h_sessions_in(lns, L2D_S_ESTABLISHED), 1001);
	EXPECT_EQ(lac->d->tunnels->rel.stats.queue_full, 0);
	EXPECT_TRUE(lac->d->tunnels->rel.stats.queue_peak > 16);

	/*
	 * Every logout's CDN reaches the LNS: no orphaned session there.  In
	 * an order that is not the logins' (389 is prime to 1001); a second
	 * logout of a session finds none.
	 */
	for (i = 0; i < 1001; i++)
		EXPECT_EQ(l2d_logout(lac->d, 1 + i * 389 % 1001), 0);
	EXPECT_EQ(l2d_logout(lac->d, 1), -1);
	EXPECT_EQ(l2d_logout(lac->d, 1002), -1);
	h_run_for(60000);
	EXPECT_EQ(lac->sent[L2TP_MSG_CDN], 1001);
	EXPECT_EQ(lac->sent[L2TP_MSG_STOPCCN], 1);
	EXPECT_EQ(l2d_kernel_none_sessions(lac->d), 0);
	EXPECT_EQ(l2d_kernel_none_sessions(lns->d), 0);
	EXPECT_EQ(h_sessions_in(lns, L2D_S_ESTABLISHED), 0);
	h_fini();
}

/*
 * S-STORM-2 in kernel none: 50 logins wait for a tunnel to a silent LNS,
 * each holding its place; the clients of half of them go away (the session
 * closes, the report gives the place back), the rest are dropped without a
 * report (l2d_login_free(), as when the agent stops): every place goes back.
 */
TEST(l2tpseld_storm_in_flight_given_back)
{
	static const char *const lac_silent[] = { "route p t1 10.0.0.9", NULL };
	struct h_node *lac;
	unsigned int i;

	h_reset();
	lac = h_node(lac_silent);
	storm(lac, 50);
	h_run_for(100);
	EXPECT_EQ(lac->n_done_ok + lac->n_done_fail, 0);
	EXPECT_EQ(l2d_kernel_none_in_flight(lac->d), 50);
	for (i = 0; i < 25; i++)
		l2d_login_client_gone(lac->d->logins);
	EXPECT_EQ(l2d_kernel_none_in_flight(lac->d), 25);
	while (lac->d->logins)
		l2d_login_free(lac->d->logins);
	EXPECT_EQ(l2d_kernel_none_in_flight(lac->d), 0);
	h_run_for(60000);
	EXPECT_EQ(l2d_kernel_none_in_flight(lac->d), 0);
	EXPECT_EQ(l2d_kernel_none_sessions(lac->d), 0);
	h_fini();
}

/* No socket for the first destination: local, the second is tried, no lockout. */
TEST(l2tpseld_local_failure_is_not_no_reply)
{
	static const char *const lac_two[] = { "route p t1 10.0.0.2", "route p t2 10.0.0.3", NULL };
	static const char *const lns3[] = { "listen 10.0.0.3", NULL };
	struct h_node *lac;

	h_reset();
	lac = h_node(lac_two);
	h_node(lns_plain);
	h_node(lns3);
	lac->open_fails = 1;
	h_login(lac, "a@x", NULL);
	h_run_for(1000);
	EXPECT_TRUE(h_has_line(lac, "outcome 1 local"));
	EXPECT_TRUE(h_has_line(lac, "outcome 2 ok"));
	EXPECT_EQ(lac->n_done_ok, 1);
	EXPECT_EQ(lac->n_no_reply, 0);
	h_fini();
}

static struct l2d_addr flood_addr(unsigned int i)
{
	struct l2d_addr a;
	char ip[32];

	snprintf(ip, sizeof(ip), "10.9.%u.%u", (i >> 8) & 255, i & 255);
	l2d_parse_addr(ip, 1701, &a.ss, &a.len);
	return a;
}

/*
 * A flood of SCCRQs (S-L2TP-7): from one address at most
 * lns-max-setup-per-peer tunnels are held; from many, at most lns-max-setup,
 * the oldest making room; malformed ones go through the rate limiter first;
 * the login over the established tunnel and a new LAC's tunnel still work.
 */
TEST(l2tpseld_sccrq_flood_is_bounded)
{
	static const char *const lns_small[] = { "listen 10.0.0.2", "lns-max-setup 20",
						 "lns-max-setup-per-peer 4", NULL };
	struct h_node *lac, *lns;
	struct l2d_addr a;
	uint8_t buf[256];
	unsigned int i;
	size_t len;

	h_reset();
	lac = h_node(lac_one);
	lns = h_node(lns_small);
	ASSERT_TRUE(tunnel_up(lac, 100));
	/* one address, 100 tunnels asked for */
	a = flood_addr(1);
	for (i = 1; i <= 100; i++) {
		len = h_craft_sccrq(buf, sizeof(buf), (uint16_t)i, false);
		h_inject(lns, &a, buf, len);
	}
	h_run_for(10);
	EXPECT_EQ(lns->d->n_lns_setup, 4);
	EXPECT_EQ(lns->d->stats.sccrq_capped, 96);
	/* 1000 addresses, spoofed: never more than 20 in setup */
	for (i = 0; i < 1000; i++) {
		a = flood_addr(100 + i);
		len = h_craft_sccrq(buf, sizeof(buf), 7, (i & 1) != 0);	/* half malformed */
		h_inject(lns, &a, buf, len);
		EXPECT_TRUE(lns->d->n_lns_setup <= 20);
	}
	h_run_for(10);
	EXPECT_EQ(lns->d->n_lns_setup, 20);
	EXPECT_TRUE(lns->d->n_tunnels <= 21 + 20);	/* + the dead ones of this turn */
	EXPECT_TRUE(lns->d->stats.setup_evicted >= 980);
	/* logins over the established tunnel are not affected */
	storm(lac, 10);
	h_run_for(1000);
	EXPECT_EQ(lac->n_done_ok, 11);
	EXPECT_EQ(lac->n_no_reply, 0);
	/* a setup flood ages out; nothing is kept for ever */
	h_run_for(60000);
	EXPECT_EQ(lns->d->n_lns_setup, 0);
	EXPECT_EQ(h_tunnels_in(lns, L2D_T_ESTABLISHED), 1);
	h_fini();
}

/* Malformed SCCRQs are rate limited too: a drop verdict keeps no state. */
TEST(l2tpseld_malformed_sccrq_rate_limited)
{
	static const char *const lns_drop[] = { "listen 10.0.0.2", "test-ratelimit-verdict sccrq drop", NULL };
	struct h_node *lns;
	struct l2d_addr a = flood_addr(5);
	uint8_t buf[256];
	size_t len;

	h_reset();
	h_node(lac_one);
	lns = h_node(lns_drop);
	len = h_craft_sccrq(buf, sizeof(buf), 9, true);		/* version 2.0 */
	h_inject(lns, &a, buf, len);
	h_run_for(10);
	EXPECT_EQ(lns->d->stats.rl_dropped, 1);
	EXPECT_EQ(lns->d->n_tunnels, 0);
	EXPECT_EQ(lns->sent[L2TP_MSG_STOPCCN], 0);
	h_fini();
}

/* An LNS tunnel without calls is closed after lns-idle-timeout. */
TEST(l2tpseld_lns_idle_tunnel_closed)
{
	static const char *const lac_keep[] = { "route p t1 10.0.0.2", NULL };
	static const char *const lns_idle[] = { "listen 10.0.0.2", "lns-idle-timeout 5s", NULL };
	struct h_node *lac, *lns;
	uint8_t buf[256];
	struct l2d_addr a = flood_addr(6);
	size_t len;

	h_reset();
	lac = h_node(lac_keep);
	lns = h_node(lns_idle);
	/* a tunnel that comes up and never carries a call: a crafted LAC */
	(void)lac;
	len = h_craft_sccrq(buf, sizeof(buf), 33, false);
	h_inject(lns, &a, buf, len);
	h_run_for(10);
	EXPECT_EQ(h_tunnels_in(lns, L2D_T_WAIT_SCCCN), 1);
	/* a real LAC: one call, then logout; the LAC closes its side itself */
	storm(lac, 1);
	h_run_for(100);
	EXPECT_EQ(h_tunnels_in(lns, L2D_T_ESTABLISHED), 1);
	/* an established tunnel left idle by its LAC: keep the LAC from closing it */
	lac->d->shutting_down = true;
	EXPECT_EQ(l2d_logout(lac->d, 1), 0);
	h_run_for(100);
	lac->d->shutting_down = false;
	EXPECT_EQ(h_tunnels_in(lns, L2D_T_ESTABLISHED), 1);
	h_run_for(4000);
	EXPECT_EQ(h_tunnels_in(lns, L2D_T_ESTABLISHED), 1);
	h_run_for(1500);
	EXPECT_EQ(h_tunnels_in(lns, L2D_T_ESTABLISHED), 0);
	EXPECT_EQ(lns->d->stats.tunnels_idle, 1);
	EXPECT_EQ(lns->sent[L2TP_MSG_STOPCCN] >= 1, true);
	h_fini();
}

/* One peer may not take the session ID space: lns-max-calls-per-peer. */
TEST(l2tpseld_lns_calls_per_peer_capped)
{
	static const char *const lns_cap[] = { "listen 10.0.0.2", "lns-max-calls-per-peer 5", NULL };
	struct h_node *lac, *lns;

	h_reset();
	lac = h_node(lac_one);
	lns = h_node(lns_cap);
	storm(lac, 8);
	h_run_for(2000);
	EXPECT_EQ(lac->n_done_ok, 5);
	EXPECT_EQ(lns->d->n_sessions, 5);
	EXPECT_EQ(lns->d->stats.calls_capped, 3);
	EXPECT_EQ(lac->n_no_reply, 0);
	h_fini();
}

/*
 * The ICRQ's timer counts from its transmission, not from its queueing
 * (S-L2TP-6): with an ICRQ timeout shorter than the time the 500th call's
 * ICRQ waits for the window, a call whose ICRQ has not even left is not
 * the LNS's silence.
 */
TEST(l2tpseld_storm_icrq_timer_from_transmission)
{
	static const char *const lac_short[] = { "route p t1 10.0.0.2", "icrq-timeout 300ms", NULL };
	struct h_node *lac, *lns;

	h_reset();
	H->latency_ms = 10;
	lac = h_node(lac_short);
	lns = h_node(lns_plain);
	storm_established(lac, lns, 500, 60000);
	h_fini();
}

/*
 * An answer late behind the peer's own backlog is not silence (S-L2TP-6,
 * S-SEL-4): the LNS's answers to this LAC can go only one at a time (the
 * LAC advertises a receive window of 1, a local choice), so the 400th ICRP
 * leaves the LNS seconds after its ICRQ was sent and acknowledged.  The LNS
 * is answering all the while, in order: no call times out, none is the
 * LNS's no-reply.  A peer silent for the timeout still times a call out.
 */
TEST(l2tpseld_storm_answer_behind_backlog)
{
	static const char *const lac_narrow[] = { "route p t1 10.0.0.2", "receive-window 1",
						  "icrq-timeout 2s", NULL };
	struct h_node *lac, *lns;

	h_reset();
	H->latency_ms = 5;
	lac = h_node(lac_narrow);
	lns = h_node(lns_plain);
	storm_established(lac, lns, 400, 60000);

	/* the LNS goes silent: a new call's ICRQ times out as no-reply */
	lns->down = true;
	storm(lac, 1);
	h_run_for(3000);
	EXPECT_EQ(lac->n_no_reply, 1);
	h_fini();
}

/*
 * A call has a deadline while its ICRQ waits for the peer's window: an LNS
 * with a receive window of 1 and a 0.9 s round trip takes a call every
 * 0.9 s, so the 150th of a storm would wait over two minutes with no
 * failover.  A call whose ICRQ has not left after icrq-timeout-max ends as
 * a local failure (the wait is ours: the LNS is not locked out) and its
 * login fails over; none waits longer.
 */
static void queued_call_deadline(const char *window)
{
	static const char *const lac_cap[] = { "route p t1 10.0.0.2", "icrq-timeout 2s",
					       "icrq-timeout-max 5s", NULL };
	const char *const lns_narrow[] = { "listen 10.0.0.2", window, NULL };
	struct h_node *lac, *lns;

	h_reset();
	H->latency_ms = 450;
	lac = h_node(lac_cap);
	lns = h_node(lns_narrow);
	ASSERT_TRUE(tunnel_up(lac, 3000));
	storm(lac, 150);
	h_run_for(6500);
	/* every login has ended: the first few up, the rest failed, none no-reply */
	EXPECT_EQ(lac->n_done_ok + lac->n_done_fail, 151);
	EXPECT_TRUE(lac->n_done_ok >= 4);
	EXPECT_TRUE(lac->n_done_fail >= 100);
	EXPECT_EQ(lac->n_no_reply, 0);
	EXPECT_TRUE(lns->d != NULL);
	h_fini();
}

TEST(l2tpseld_storm_queued_call_has_a_deadline)
{
	queued_call_deadline("receive-window 1");
}

/*
 * With a window of 4 a waiting call's ICRQ may be queued behind the calls
 * under way's messages (l2d_tunnel_icrq_wait()): its deadline still runs
 * from its first wait, not again from its queueing.
 */
TEST(l2tpseld_storm_queued_call_keeps_its_first_deadline)
{
	queued_call_deadline("receive-window 4");
}

/*
 * The LAC itself stalls mid-storm (a starved process: 1.5 s reading
 * nothing, longer than the LNS's retransmission timer), then catches up:
 * the LNS's spurious retransmissions and slow start must not leave the
 * tunnel so slow that calls still queued time out (S-SEL-4: our stall is
 * not the LNS's no-reply).
 */
TEST(l2tpseld_storm_lac_stall)
{
	struct h_node *lac, *lns;
	int round;

	h_reset();
	H->latency_ms = 2;
	lac = h_node(lac_one);
	lns = h_node(lns_plain);
	ASSERT_TRUE(tunnel_up(lac, 1000));
	storm(lac, 1000);
	for (round = 0; round < 5; round++) {
		h_run_for(40);
		lac->stall_until = H->now + 1500;
		h_run_for(1600);
	}
	h_run_for(60000);
	EXPECT_EQ(lac->n_done_ok, 1001);
	EXPECT_EQ(lac->n_done_fail, 0);
	EXPECT_EQ(lac->n_no_reply, 0);
	EXPECT_EQ(h_sessions_in(lns, L2D_S_ESTABLISHED), 1001);
	h_fini();
}

/*
 * A tunnel cleared mid-storm sends nothing more it had queued (RFC 2661
 * §5.7): the LNS's ICRPs wait behind the LAC's receive window of 1 when the
 * LAC sends StopCCN; the LNS then sends none of them (the one in flight
 * may be retransmitted until acknowledged), only the ZLB for the StopCCN.
 */
TEST(l2tpseld_storm_cleared_sends_no_backlog)
{
	static const char *const lac_narrow[] = { "route p t1 10.0.0.2", "receive-window 1", NULL };
	struct h_node *lac, *lns;
	unsigned int icrp;

	h_reset();
	H->latency_ms = 5;
	lac = h_node(lac_narrow);
	lns = h_node(lns_plain);
	ASSERT_TRUE(tunnel_up(lac, 1000));
	storm(lac, 100);
	h_run_for(200);		/* the ICRQs are in, the ICRPs trickle out one by one */
	icrp = lns->sent[L2TP_MSG_ICRP];
	ASSERT_TRUE(icrp > 1 && icrp < 80);
	l2d_tunnel_stop(lac->d->tunnels, L2TP_STOPCCN_CLEAR, 0, "test");
	h_run_for(10);		/* the StopCCN reaches the LNS */
	icrp = lns->sent[L2TP_MSG_ICRP];
	h_run_for(40000);
	EXPECT_TRUE(lns->sent[L2TP_MSG_ICRP] <= icrp + 1);
	EXPECT_EQ(h_tunnels_in(lns, L2D_T_ESTABLISHED), 0);

	h_fini();
}

/*
 * A scripted LNS at 10.0.0.2 (no node there: what the LAC sends reaches
 * the tap, the script answers with h_inject()).  It is as strict as
 * xl2tpd: it takes a datagram, ZLB or message, only when its Ns is the next
 * it expects, and drops anything else whole, its Nr unread.  It delays its
 * own acknowledgements: the Nr it sends lags behind what it received.
 */
static struct {
	uint16_t lac_tid;	/* the LAC's Tunnel ID, from its SCCRQ */
	uint16_t nr;		/* the next Ns it takes from the LAC */
	uint16_t acked;		/* the LAC's last Nr it took: what it sent before is acked */
	uint64_t acked_at;
	unsigned int dups;	/* copies of what it held already, dropped whole */
} sc;

static void script_tap(int from, const uint8_t *buf, size_t len)
{
	uint8_t copy[1500];
	struct l2tp_msg m;

	if (from != 0 || len > sizeof(copy))
		return;
	memcpy(copy, buf, len);
	if (l2tp_msg_parse(&m, copy, len, NULL) == L2TP_ACT_DISCARD)
		return;
	if (m.hdr.ns != sc.nr) {
		sc.dups += (uint16_t)(sc.nr - m.hdr.ns) < 0x8000;
		return;
	}
	if (!m.hdr.zlb) {
		sc.nr++;
		if (m.type == L2TP_MSG_SCCRQ)
			l2tp_msg_get_u16(&m, L2TP_AVP_ASSIGNED_TUNNEL_ID, &sc.lac_tid);
	}
	if (m.hdr.nr != sc.acked) {
		sc.acked = m.hdr.nr;
		sc.acked_at = H->now;
	}
}

static void script_send(struct h_node *lac, uint16_t type, uint16_t ns, uint16_t nr,
			uint16_t window)
{
	struct l2tp_builder b;
	struct l2d_addr a;
	uint8_t buf[256];
	size_t len;

	l2d_parse_addr("10.0.0.2", 1701, &a.ss, &a.len);
	l2tp_build_begin(&b, buf, sizeof(buf), sc.lac_tid, 0, type, NULL);
	if (type == L2TP_MSG_SCCRP) {
		l2tp_put_u16(&b, L2TP_AVP_PROTOCOL_VERSION, L2TP_PROTOCOL_VERSION);
		l2tp_put_string(&b, L2TP_AVP_HOST_NAME, "scripted");
		l2tp_put_u32(&b, L2TP_AVP_FRAMING_CAPS, 3);
		l2tp_put_u16(&b, L2TP_AVP_ASSIGNED_TUNNEL_ID, 77);
		l2tp_put_u16(&b, L2TP_AVP_RECEIVE_WINDOW_SIZE, window);
	}
	len = l2tp_build_end(&b);
	ASSERT_TRUE(len > 0);
	l2tp_hdr_set_seq(buf, ns, nr);
	h_inject(lac, &a, buf, len);
}

/*
 * S-STORM-3: an acknowledgement never waits behind our own send window or
 * a message that cannot go (RFC 2661 §5.8).  The LNS advertises a window of
 * 1, then 4; eight calls queue their ICRQs behind SCCCN.  It acks nothing
 * for 950 ms, then sends a HELLO, 50 ms before our timer resends SCCCN: a
 * copy it holds already and drops whole, the HELLO's ack in it.  With the
 * window full only a ZLB can carry that ack, and it must go by the ack
 * delay (100 ms), long before the LNS's own timer (1 s) resends the HELLO.
 */
TEST(l2tpseld_storm_ack_not_behind_window)
{
	static const uint16_t windows[] = { 1, 4 };
	struct l2d_tunnel *t;
	uint64_t t_hello;
	unsigned int i;

	for (i = 0; i < sizeof(windows) / sizeof(windows[0]); i++) {
		struct h_node *lac;

		h_reset();
		memset(&sc, 0, sizeof(sc));
		lac = h_node(lac_one);
		H->tap = script_tap;
		storm(lac, 8);
		h_run_for(1);
		ASSERT_EQ(sc.nr, 1);		/* the SCCRQ */
		ASSERT_TRUE(sc.lac_tid != 0);
		script_send(lac, L2TP_MSG_SCCRP, 0, sc.nr, windows[i]);
		t = lac->d->tunnels;
		ASSERT_EQ(t->state, L2D_T_ESTABLISHED);
		/* ICRQs behind the window, queued or waiting their turn */
		ASSERT_TRUE(l2tp_rel_waiting(&t->rel) + t->n_icrq_wait >= 6);
		sc.acked_at = 0;
		h_run_for(950);
		EXPECT_EQ(t->rel.stats.retransmits, 0);
		t_hello = H->now;
		script_send(lac, L2TP_MSG_HELLO, 1, 1, 0);	/* acks only the SCCRQ */
		h_run_for(100);
		EXPECT_EQ(t->rel.stats.retransmits, 1);		/* SCCCN, at 1000 ms */
		EXPECT_TRUE(sc.dups >= 1);
		EXPECT_EQ(sc.acked, 2)
			TH_LOG("window %u: the HELLO is not acknowledged", windows[i]);
		EXPECT_TRUE(sc.acked_at >= t_hello && sc.acked_at <= t_hello + 100)
			TH_LOG("window %u: acknowledged at %llu ms, the HELLO sent at %llu ms",
			       windows[i], (unsigned long long)sc.acked_at,
			       (unsigned long long)t_hello);
		/* nothing queued went early: the ack went by a ZLB */
		EXPECT_EQ(lac->sent[0], 1);
		EXPECT_TRUE(l2tp_rel_waiting(&t->rel) + t->n_icrq_wait >= 6);
		H->tap = NULL;
		h_fini();
	}
}

/*
 * S-STORM-3: nor behind a message whose send failed.  The LAC's ICCN, the
 * only message that would carry the ack of the LNS's ICRP, is refused by
 * its socket (full, say); it goes again only on its timer (1 s), when the
 * LNS has resent its ICRP already.  The ack is owed still, and a ZLB goes
 * well inside the LNS's timer: the LNS resends nothing.
 */
TEST(l2tpseld_storm_ack_when_send_refused)
{
	struct h_node *lac, *lns;

	h_reset();
	H->latency_ms = 5;
	lac = h_node(lac_one);
	lns = h_node(lns_plain);
	H->refuse_from = 0;
	H->refuse_type = L2TP_MSG_ICCN;
	storm(lac, 1);
	h_run_for(3000);
	EXPECT_EQ(H->refused, 1);
	EXPECT_EQ(lac->n_done_ok, 1);
	EXPECT_EQ(h_sessions_in(lns, L2D_S_ESTABLISHED), 1);
	ASSERT_TRUE(lns->d->tunnels != NULL);
	EXPECT_EQ(lns->d->tunnels->rel.stats.retransmits, 0);
	EXPECT_EQ(lac->d->tunnels->rel.stats.retransmits, 1);	/* the ICCN, on its timer */
	h_fini();
}

/*
 * Runs 200 logins at once to an LNS of receive window 4 and 10 ms one way,
 * with up to @per_dest tunnels to it: the time until every call is up at
 * the LNS.
 */
static uint64_t small_window_storm(unsigned int per_dest, unsigned int *sccrq)
{
	static const char *const lns_w4[] = { "listen 10.0.0.2", "receive-window 4", NULL };
	const char *lac_spread[] = { "route p t1 10.0.0.2", NULL, NULL };
	char line[64];
	struct h_node *lac, *lns;
	uint64_t t0, ms = 0;
	unsigned int i;

	snprintf(line, sizeof(line), "lac-tunnels-per-destination %u", per_dest);
	lac_spread[1] = line;
	h_reset();
	H->latency_ms = 10;
	lac = h_node(lac_spread);
	lns = h_node(lns_w4);
	ASSERT_TRUE(tunnel_up(lac, 1000));
	t0 = H->now;
	storm(lac, 200);
	/* up at the LNS: its ICCN taken (the LAC is done once it is queued) */
	for (i = 0; i < 20000 && h_sessions_in(lns, L2D_S_ESTABLISHED) < 201; i++)
		h_run_for(1);
	ms = H->now - t0;
	EXPECT_EQ(lac->n_done_ok, 201);
	EXPECT_EQ(lac->n_done_fail, 0);
	EXPECT_EQ(h_sessions_in(lns, L2D_S_ESTABLISHED), 201);
	*sccrq = lac->sent[L2TP_MSG_SCCRQ];
	for (i = 1; i <= 201; i++)
		EXPECT_EQ(l2d_logout(lac->d, i), 0);
	h_run_for(60000);
	EXPECT_EQ(l2d_kernel_none_sessions(lac->d), 0);
	EXPECT_EQ(l2d_kernel_none_sessions(lns->d), 0);
	EXPECT_EQ(lac->sent[L2TP_MSG_STOPCCN], *sccrq);	/* every tunnel closed */
	h_fini();
	return ms;
}

/*
 * A peer's small window (l2tpns gives none: 4) holds a storm's calls in
 * one queue; with lac-tunnels-per-destination 4 the calls that would wait
 * open up to three more tunnels and the storm is up in about a quarter of
 * the time (S-STORM-4: the wait is the windows, not one window).  The
 * default keeps one tunnel a destination.
 */
TEST(l2tpseld_storm_small_window_spread_over_tunnels)
{
	unsigned int one_sccrq, four_sccrq;
	uint64_t one = small_window_storm(1, &one_sccrq);
	uint64_t four = small_window_storm(4, &four_sccrq);

	EXPECT_EQ(one_sccrq, 1);
	EXPECT_EQ(four_sccrq, 4);
	EXPECT_TRUE(four * 2 < one);
	printf("# 200 calls, window 4, 10 ms one way: 1 tunnel %llu ms, 4 tunnels %llu ms\n",
	       (unsigned long long)one, (unsigned long long)four);
}

/* what the LAC (node 0) sent first: ICRQs before its first ICCN */
static struct {
	unsigned int icrq, icrq_before_iccn, iccn;
	uint16_t next_ns;
	bool counting;
} ord;

/*
 * A message the LAC (node 0) sent for the first time, not a ZLB or a copy
 * sent again: true, its type in @type, *@next_ns moved past it.
 */
static bool lac_first_send(int from, const uint8_t *buf, size_t len, uint16_t *next_ns,
			   unsigned int *type)
{
	uint8_t copy[1500];
	struct l2tp_msg m;

	if (from != 0 || len > sizeof(copy))
		return false;
	memcpy(copy, buf, len);
	if (l2tp_msg_parse(&m, copy, len, NULL) == L2TP_ACT_DISCARD || m.hdr.zlb ||
	    (uint16_t)(m.hdr.ns - *next_ns) >= 0x8000)
		return false;
	*next_ns = (uint16_t)(m.hdr.ns + 1);
	*type = m.type;
	return true;
}

static void order_tap(int from, const uint8_t *buf, size_t len)
{
	unsigned int type;

	if (!ord.counting || !lac_first_send(from, buf, len, &ord.next_ns, &type))
		return;
	if (type == L2TP_MSG_ICRQ && ++ord.icrq && !ord.iccn)
		ord.icrq_before_iccn++;
	ord.iccn += type == L2TP_MSG_ICCN;
}

/*
 * A call under way goes before a new one (S-STORM-4): 200 logins at once on
 * a tunnel to an LNS with a receive window of 4 and a 20 ms round trip.
 * Queued in the order they came, the first call's ICCN would leave after
 * the 200 ICRQs, 50 round trips later, while its subscriber and its LNS
 * wait; ICRQs wait their turn outside the queue, so the first ICCN leaves
 * within the first window or two.  Every call still comes up.
 */
TEST(l2tpseld_storm_iccn_before_new_icrqs)
{
	static const char *const lns_four[] = { "listen 10.0.0.2", "receive-window 4", NULL };
	struct h_node *lac, *lns;

	h_reset();
	H->latency_ms = 10;
	lac = h_node(lac_one);
	lns = h_node(lns_four);
	ASSERT_TRUE(tunnel_up(lac, 1000));
	memset(&ord, 0, sizeof(ord));
	ord.next_ns = lac->d->tunnels->rel.ns_next;
	ord.counting = true;
	H->tap = order_tap;
	storm(lac, 200);
	h_run_for(30000);
	H->tap = NULL;
	EXPECT_EQ(ord.icrq, 200);
	EXPECT_TRUE(ord.icrq_before_iccn <= 8) TH_LOG("%u ICRQs left before the first ICCN",
						      ord.icrq_before_iccn);
	EXPECT_EQ(lac->n_done_ok, 201);
	EXPECT_EQ(lac->n_done_fail, 0);
	EXPECT_EQ(h_sessions_in(lns, L2D_S_ESTABLISHED), 201);
	h_fini();
}

/*
 * Bridges take time (a worker's grace period in the kernel, offload.h):
 * here each is made 30 ms after its ICRP.  An ICCN goes ahead of new
 * calls' ICRQs, but not of all of them: were every new call held while
 * any message waited for the window, the storm's ICCNs would hold its
 * ICRQs back, these then leave together, their bridges be made together,
 * and the window stand idle meanwhile (seen against l2tpns: ICRQs in
 * bursts of 100-200, none for a second while 300 ICCNs went).  So while
 * calls wait, an ICRQ leaves among every few messages (S-STORM-4).
 */
struct slow_bridge {
	struct l2d_timer tm;
	struct l2d_session *s;
};

static struct h_node *slow_lac;

static void slow_bridge_fire(struct l2d_timer *tm)
{
	struct slow_bridge *b = tm->arg;

	l2d_session_bridged(b->s, 0);
	free(b);
}

static int slow_session_add(struct l2d *d, struct l2d_session *s)
{
	struct slow_bridge *b = calloc(1, sizeof(*b));

	if (!b)
		return -ENOMEM;
	b->s = s;
	l2d_timer_init(&b->tm, slow_bridge_fire, b);
	l2d_timer_arm(d->loop, &b->tm, l2d_now(d->loop) + 30);
	return 1;		/* under way */
}

static int slow_tunnel_add(struct l2d *d, struct l2d_tunnel *t)
{
	return 0;
}

static void slow_tunnel_del(struct l2d *d, struct l2d_tunnel *t)
{
}

static void slow_session_del(struct l2d *d, struct l2d_session *s)
{
}

static const struct l2d_dpops slow_dp = {
	.tunnel_add = slow_tunnel_add, .tunnel_del = slow_tunnel_del,
	.session_add = slow_session_add, .session_del = slow_session_del,
};

/* the longest run of the LAC's messages without an ICRQ while calls waited */
static struct {
	unsigned int run, longest, icrq, iccn;
	uint16_t next_ns;
} starve;

static void starve_tap(int from, const uint8_t *buf, size_t len)
{
	unsigned int type;

	if (!lac_first_send(from, buf, len, &starve.next_ns, &type))
		return;
	starve.iccn += type == L2TP_MSG_ICCN;
	if (type == L2TP_MSG_ICRQ) {
		starve.icrq++;
		starve.run = 0;
	} else if (slow_lac->d->tunnels && slow_lac->d->tunnels->n_icrq_wait &&
		   ++starve.run > starve.longest) {
		starve.longest = starve.run;
	}
}

TEST(l2tpseld_storm_new_calls_not_held_behind_every_iccn)
{
	static const char *const lns_four[] = { "listen 10.0.0.2", "receive-window 4", NULL };
	struct h_node *lac, *lns;

	h_reset();
	H->latency_ms = 10;
	lac = h_node(lac_one);
	lns = h_node(lns_four);
	lac->d->dpops = &slow_dp;
	slow_lac = lac;
	ASSERT_TRUE(tunnel_up(lac, 1000));
	memset(&starve, 0, sizeof(starve));
	starve.next_ns = lac->d->tunnels->rel.ns_next;
	H->tap = starve_tap;
	storm(lac, 200);
	h_run_for(30000);
	H->tap = NULL;
	EXPECT_EQ(starve.icrq, 200);
	EXPECT_EQ(starve.iccn, 200);
	/* half a window of ICCNs, and what the window holds, between two ICRQs */
	EXPECT_TRUE(starve.longest <= 4) TH_LOG("%u messages in a row while calls waited",
						  starve.longest);
	EXPECT_EQ(lac->n_done_ok, 201);
	EXPECT_EQ(lac->n_done_fail, 0);
	EXPECT_EQ(h_sessions_in(lns, L2D_S_ESTABLISHED), 201);
	h_fini();
}
