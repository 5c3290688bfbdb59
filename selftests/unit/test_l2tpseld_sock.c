// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld's sockets and addresses against local users and spoofed peers
 * (S-SEC-9): which destination a tunnel is reused for, which local
 * addresses take LNS tunnels, the secret chosen by an SCCRQ's Host Name,
 * the Tie Breaker from a spoofed source, and local send failures, on the
 * simulated network of l2tpseld_harness.h.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include <linux/l2tpsel.h>

#include "harness.h"
#include "l2tpseld_harness.h"

static const char *const lac_one[] = { "route p t1 10.0.0.2", NULL };
static const char *const lns_plain[] = { "listen 10.0.0.2", NULL };

/*
 * RFC 2661 section 8.1: the LNS answers from a port of its own, and the
 * tunnel follows it.  The next login to the same destination, as
 * configured (port 1701), still reuses the tunnel: one SCCRQ, one tunnel.
 */
TEST(l2tpseld_sock_reuse_when_lns_answers_from_another_port)
{
	struct h_node *lac, *lns;

	h_reset();
	lac = h_node(lac_one);
	lns = h_node(lns_plain);
	ASSERT_TRUE(lac && lns);
	lns->answer_port = 40000;
	h_login(lac, "a@x", NULL);
	h_run_for(100);
	ASSERT_EQ(lac->n_done_ok, 1);
	ASSERT_EQ(l2d_port(&lac->d->tunnels->peer), 40000);
	h_login(lac, "b@x", NULL);
	h_run_for(100);
	EXPECT_EQ(lac->n_done_ok, 2);
	EXPECT_EQ(lac->sent[L2TP_MSG_SCCRQ], 1);
	EXPECT_EQ(lac->d->n_tunnels, 1);
	EXPECT_TRUE(h_has_line(lac, "attempt 1 tunnel t1 profile p remote 10.0.0.2 port 1701 local any level 0 reuse"));
	EXPECT_EQ(h_sessions_in(lns, L2D_S_ESTABLISHED), 2);
	h_fini();
}

static struct l2d_addr addr_of(const char *ip, uint16_t port)
{
	struct l2d_addr a;

	memset(&a, 0, sizeof(a));
	l2d_parse_addr(ip, port, &a.ss, &a.len);
	return a;
}

/* An SCCRQ from 10.0.0.9:1701 to @to_ip:@to_port of @n. */
static void sccrq_to(struct h_node *n, const char *to_ip, uint16_t to_port, uint16_t ptid)
{
	struct l2d_addr from = addr_of("10.0.0.9", 1701), to = addr_of(to_ip, to_port);
	uint8_t buf[256];
	size_t len = h_craft_sccrq(buf, sizeof(buf), ptid, false);

	l2d_input(n->d, &to, &from, buf, len);
}

/*
 * "listen ADDR [port N]" names where LNS tunnels are taken: an SCCRQ that
 * reached another local address, or another port, creates nothing and
 * gets no answer.
 */
TEST(l2tpseld_sock_sccrq_only_on_listen_addresses)
{
	static const char *const any_c[] = { "listen 0.0.0.0 port 1702", NULL };
	struct h_node *lns, *any;

	h_reset();
	lns = h_node(lns_plain);
	ASSERT_TRUE(lns != NULL);
	sccrq_to(lns, "10.0.0.99", 1701, 71);	/* another address of the host */
	sccrq_to(lns, "10.0.0.2", 1702, 72);	/* another port */
	h_run_for(10);
	EXPECT_EQ(lns->d->n_tunnels, 0);
	EXPECT_EQ(lns->sent[L2TP_MSG_SCCRP], 0);
	sccrq_to(lns, "10.0.0.2", 1701, 73);	/* the listen address */
	h_run_for(10);
	EXPECT_EQ(lns->d->n_tunnels, 1);
	EXPECT_EQ(lns->sent[L2TP_MSG_SCCRP], 1);

	/* a wildcard listen address takes every address, at its port only */
	any = h_node(any_c);
	ASSERT_TRUE(any != NULL);
	sccrq_to(any, "10.0.0.3", 1701, 74);
	h_run_for(10);
	EXPECT_EQ(any->d->n_tunnels, 0);
	sccrq_to(any, "10.0.0.77", 1702, 75);
	h_run_for(10);
	EXPECT_EQ(any->d->n_tunnels, 1);
	h_fini();
}

/*
 * Secrets chosen by the peer's Host Name (lns-secret HOST): an SCCRQ whose
 * hidden Assigned Tunnel ID comes before its Host Name (RFC 2661 section
 * 4.3 lets AVPs come in any order after Message Type; Host Name itself is
 * never hidden) is answered with the secret of that host.
 */
TEST(l2tpseld_sock_hidden_avp_before_host_name)
{
	static const char *const lns_c[] = { "listen 10.0.0.1", "lns-secret lac7 s3cret",
					     "lns-secret other wrong", NULL };
	static const struct l2tp_secret sec = { (const uint8_t *)"s3cret", 6 };
	static const uint8_t rv[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
	struct l2d_addr from = addr_of("10.0.0.9", 1701);
	struct l2tp_builder b;
	struct h_node *lns;
	uint8_t buf[256], tid[2], pad[8] = { 0 };
	size_t len;

	h_reset();
	lns = h_node(lns_c);
	ASSERT_TRUE(lns != NULL);
	l2tp_put16(tid, 81);
	l2tp_build_begin(&b, buf, sizeof(buf), 0, 0, L2TP_MSG_SCCRQ, &sec);
	l2tp_put_u16(&b, L2TP_AVP_PROTOCOL_VERSION, L2TP_PROTOCOL_VERSION);
	l2tp_put_random_vector(&b, rv, sizeof(rv));
	l2tp_put_hidden(&b, L2TP_AVP_ASSIGNED_TUNNEL_ID, tid, sizeof(tid), pad, sizeof(pad));
	l2tp_put_string(&b, L2TP_AVP_HOST_NAME, "lac7");
	l2tp_put_u32(&b, L2TP_AVP_FRAMING_CAPS, 3);
	len = l2tp_build_end(&b);
	ASSERT_TRUE(len > 0);
	h_inject(lns, &from, buf, len);
	h_run_for(10);
	ASSERT_EQ(lns->d->n_tunnels, 1);
	EXPECT_EQ(lns->sent[L2TP_MSG_SCCRP], 1);
	EXPECT_EQ(lns->d->tunnels->peer_tid, 81);
	EXPECT_TRUE(lns->d->tunnels->has_secret);
	EXPECT_STREQ(lns->d->tunnels->peer_host, "lac7");
	h_fini();
}

/*
 * RFC 2661 section 4.4.3 with "listen" on a LAC: while our SCCRQ to a
 * healthy LNS is outstanding (20 ms each way), an SCCRQ claiming to be
 * from the LNS's address arrives with Tie Breaker 0, which would win.
 */
static struct h_node *spoofed_tie(uint16_t from_port)
{
	static const char *const a_c[] = { "listen 10.0.0.1", "route p ta 10.0.0.2", NULL };
	struct l2d_addr p = addr_of("10.0.0.2", from_port);
	struct l2tp_builder b;
	struct h_node *a;
	uint8_t buf[256];

	H->latency_ms = 20;
	a = h_node(a_c);
	h_node(lns_plain);
	h_login(a, "u@x", NULL);
	h_run_for(5);
	if (!a->d->tunnels || a->d->tunnels->state != L2D_T_WAIT_SCCRP)
		return NULL;
	l2tp_build_begin(&b, buf, sizeof(buf), 0, 0, L2TP_MSG_SCCRQ, NULL);
	l2tp_put_u16(&b, L2TP_AVP_PROTOCOL_VERSION, L2TP_PROTOCOL_VERSION);
	l2tp_put_string(&b, L2TP_AVP_HOST_NAME, "spoof");
	l2tp_put_u32(&b, L2TP_AVP_FRAMING_CAPS, 3);
	l2tp_put_u16(&b, L2TP_AVP_ASSIGNED_TUNNEL_ID, 4242);
	l2tp_put_u64(&b, L2TP_AVP_TIE_BREAKER, 0);
	h_inject(a, &p, buf, l2tp_build_end(&b));
	return a;
}

/* From another port than the one our SCCRQ went to: no tie, our call stays. */
TEST(l2tpseld_sock_spoofed_tie_breaker_other_port)
{
	struct h_node *a;

	h_reset();
	a = spoofed_tie(5555);
	ASSERT_TRUE(a != NULL);
	h_run_for(30000);
	EXPECT_EQ(a->n_done_ok, 1);
	EXPECT_EQ(a->n_no_reply, 0);
	EXPECT_TRUE(!h_has_line(a, "outcome 1 no-reply"));
	EXPECT_EQ(a->sent[L2TP_MSG_SCCRQ], 1);
	EXPECT_EQ(h_sessions_in(a, L2D_S_ESTABLISHED), 1);
	h_fini();
}

/*
 * From the very port: the tie is honoured (the calls wait for the peer's
 * tunnel), but when that tunnel never comes up the destination is not
 * blamed: outcome local, no lockout, and the next login to it works.
 */
TEST(l2tpseld_sock_spoofed_tie_breaker_not_blamed)
{
	struct h_node *a;

	h_reset();
	a = spoofed_tie(1701);
	ASSERT_TRUE(a != NULL);
	h_run_for(30000);
	EXPECT_EQ(a->n_no_reply, 0);
	EXPECT_TRUE(!h_has_line(a, "outcome 1 no-reply"));
	EXPECT_TRUE(h_has_line(a, "outcome 1 local"));
	h_login(a, "v@x", NULL);
	h_run_for(200);
	EXPECT_TRUE(h_has_line(a, "attempt 1 tunnel ta profile p remote 10.0.0.2 port 1701 local any level 0 sccrq"));
	EXPECT_EQ(h_sessions_in(a, L2D_S_ESTABLISHED), 1);
	EXPECT_EQ(a->d->stats.logins_failed + a->d->stats.logins_ok, 2);
	h_fini();
}

/*
 * A send our own host refuses is a local failure: the login's outcome is
 * "local", the destination is not locked out, and the log says why.
 * With EPERM (a local firewall) the attempt ends at once; with EAGAIN for
 * ever (a full socket) it ends when the retransmissions give up.  Two
 * routes: a locked-out first one would be skipped by the next login.
 */
static const char *const lac_two[] = { "route p t1 10.0.0.2", "route p t2 10.0.0.3",
				       "sccrq-timeout 60s", NULL };

static void send_fails(int err)
{
	static const char *const lns3[] = { "listen 10.0.0.3", NULL };
	struct h_node *lac;
	uint64_t t0;

	h_reset();
	lac = h_node(lac_two);
	h_node(lns_plain);
	h_node(lns3);
	ASSERT_TRUE(lac != NULL);
	H->refuse_from = 0;
	H->refuse_any = true;
	H->refuse_n = 1000000;
	H->refuse_errno = err;
	t0 = H->now;
	h_login(lac, "a@x", NULL);
	h_run_for(70000);
	EXPECT_EQ(lac->n_no_reply, 0);
	EXPECT_TRUE(h_has_line(lac, "outcome 1 local"));
	EXPECT_TRUE(!h_has_line(lac, "outcome 1 no-reply"));
	EXPECT_EQ(lac->n_done_fail, 1);
	EXPECT_EQ(lac->d->stats.tx, 0);
	if (err == EPERM)
		EXPECT_TRUE(lac->d->stats.tx_err <= 4);	/* no retransmissions */
	EXPECT_TRUE(H->now - t0 >= 70000);
	/* the host lets it through again: t1 is tried first, not locked out */
	H->refuse_from = -1;
	lac->n_lines = 0;
	h_login(lac, "b@x", NULL);
	h_run_for(200);
	EXPECT_TRUE(h_has_line(lac, "attempt 1 tunnel t1 profile p remote 10.0.0.2"));
	EXPECT_EQ(lac->n_done_ok, 1);
	h_fini();
}

TEST(l2tpseld_sock_send_eperm_is_local)
{
	send_fails(EPERM);
}

TEST(l2tpseld_sock_send_eagain_for_ever_is_local)
{
	send_fails(EAGAIN);
}

/* A call on an established tunnel whose ICRQ our host keeps refusing. */
TEST(l2tpseld_sock_icrq_send_fails_is_local)
{
	struct h_node *lac;

	h_reset();
	lac = h_node(lac_one);
	h_node(lns_plain);
	ASSERT_TRUE(lac != NULL);
	h_login(lac, "a@x", NULL);
	h_run_for(100);
	ASSERT_EQ(lac->n_done_ok, 1);
	H->refuse_from = 0;
	H->refuse_type = L2TP_MSG_ICRQ;
	H->refuse_n = 1000000;
	h_login(lac, "b@x", NULL);
	h_run_for(40000);
	EXPECT_EQ(lac->n_no_reply, 0);
	EXPECT_TRUE(h_has_line(lac, "outcome 1 local"));
	EXPECT_EQ(lac->n_done_fail, 1);
	h_fini();
}
