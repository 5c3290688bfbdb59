// SPDX-License-Identifier: GPL-2.0
/*
 * S-SEC-7 on l2tpseld's simulated network: what an LNS-role peer can
 * create is capped per peer and in total, the LAC role keeps IDs of its
 * own, and the two roles never share a tunnel; SCCRQ rate limits are
 * keyed by what the sender cannot forge before authentication.
 */
#include <arpa/inet.h>
#include <string.h>

#include <linux/l2tpsel.h>

#include "harness.h"
#include "l2tpseld_harness.h"

/*
 * Role separation (a): an agent with `listen` dialled an LNS as LAC; that
 * LNS places calls on the LAC's tunnel.  They would be LNS-role calls that
 * skipped every LNS-role check (lns-max-calls-per-peer, lns-auth-required,
 * the tunnel group): each gets a CDN, is counted, and nothing is created.
 */
TEST(l2tpseld_lnscap_icrq_on_lac_tunnel_refused)
{
	static const char *const lac_c[] = { "route p t1 10.0.0.2", "listen 10.0.0.1",
					     "lns-max-calls-per-peer 2", NULL };
	static const char *const lns_c[] = { "listen 10.0.0.2", NULL };
	struct h_node *lac, *lns;
	unsigned int i;

	h_reset();
	lac = h_node(lac_c);
	lns = h_node(lns_c);
	h_login(lac, "a@x", NULL);
	h_run_for(100);
	ASSERT_EQ(lac->n_done_ok, 1);
	ASSERT_TRUE(lac->d->tunnels && lac->d->tunnels->initiator);
	for (i = 0; i < 6; i++) {
		struct l2d_session *s = l2d_session_new(lns->d->tunnels, true);

		ASSERT_TRUE(s != NULL);
		l2d_session_tunnel_up(s);	/* an ICRQ from the LNS */
	}
	h_run_for(1000);
	EXPECT_EQ(lns->sent[L2TP_MSG_ICRQ], 6);
	EXPECT_EQ(lac->sent[L2TP_MSG_ICRP], 0);
	EXPECT_EQ(lac->sent[L2TP_MSG_CDN], 6);
	EXPECT_EQ(lac->d->stats.calls_wrong_role, 6);
	EXPECT_EQ(lac->d->n_sessions, 1);		/* the login's own */
	EXPECT_EQ(l2d_kernel_none_sessions(lac->d), 1);
	EXPECT_EQ(lns->d->n_sessions, 1);		/* its calls were cleared */
	EXPECT_EQ(h_tunnels_in(lac, L2D_T_ESTABLISHED), 1);
	h_fini();
}

/* The LAC-role tunnels of @n (we sent their SCCRQ), in @st. */
static unsigned int lac_tunnels(const struct h_node *n, enum l2d_tstate st)
{
	const struct l2d_tunnel *t;
	unsigned int c = 0;

	for (t = n->d->tunnels; t; t = t->next)
		c += t->initiator && t->state == st;
	return c;
}

/*
 * Role separation (b): the destination of a route with a secret opened an
 * unauthenticated tunnel to us (it is a LAC to our LNS role).  A login on
 * that route opens a tunnel of its own with the route's secret, so that the
 * subscriber's PAP password is hidden, instead of reusing the other.
 */
TEST(l2tpseld_lnscap_login_never_reuses_lns_tunnel)
{
	static const char *const a_c[] = { "listen 10.0.0.1", "route p t1 10.0.0.2",
					   "secret t1 sesame", "hide-avps yes", NULL };
	static const char *const b_c[] = { "listen 10.0.0.2", "route p t2 10.0.0.1",
					   "lns-secret * sesame", NULL };
	struct h_node *a, *b;
	const struct l2d_tunnel *t;

	h_reset();
	a = h_node(a_c);
	b = h_node(b_c);
	h_login(b, "b@x", NULL);		/* b -> a, no secret: a's LNS role */
	h_run_for(200);
	ASSERT_EQ(b->n_done_ok, 1);
	ASSERT_EQ(h_tunnels_in(a, L2D_T_ESTABLISHED), 1);
	ASSERT_TRUE(!a->d->tunnels->has_secret);
	h_login(a, "a@x", NULL);		/* a -> b with the route's secret */
	h_run_for(200);
	EXPECT_EQ(a->n_done_ok, 1);
	EXPECT_EQ(a->sent[L2TP_MSG_SCCRQ], 1);
	EXPECT_EQ(lac_tunnels(a, L2D_T_ESTABLISHED), 1);
	for (t = a->d->tunnels; t; t = t->next) {
		if (t->initiator) {
			EXPECT_TRUE(t->has_secret && t->n_sessions == 1);
		} else {
			EXPECT_EQ(t->n_sessions, 1);	/* b's call only */
		}
	}
	h_fini();
}

/* ---- caps on what an LNS-role peer creates ---- */

static struct l2d_addr addr_of(const char *ip)
{
	struct l2d_addr a;

	l2d_parse_addr(ip, 1701, &a.ss, &a.len);
	return a;
}

/* @lns's tunnel of the peer @a with Assigned Tunnel ID @ptid, or NULL */
static struct l2d_tunnel *peer_tunnel(struct h_node *lns, const struct l2d_addr *a, uint16_t ptid)
{
	struct l2d_tunnel *t;

	for (t = lns->d->tunnels; t; t = t->next)
		if (!t->initiator && t->peer_tid == ptid && l2d_addr_eq(&t->peer, a, true))
			return t;
	return NULL;
}

/*
 * A crafted LAC at @a brings a tunnel up with @lns: SCCRQ, then the SCCCN
 * a real LAC sends after the SCCRP (Ns 1, Nr 1).  True when it came up.
 */
static bool crafted_tunnel(struct h_node *lns, const struct l2d_addr *a, uint16_t ptid)
{
	struct l2tp_builder b;
	struct l2d_tunnel *t;
	uint8_t buf[256];
	size_t len;

	len = h_craft_sccrq(buf, sizeof(buf), ptid, false);
	h_inject(lns, a, buf, len);
	t = peer_tunnel(lns, a, ptid);
	if (!t || t->state != L2D_T_WAIT_SCCCN)
		return false;
	l2tp_build_begin(&b, buf, sizeof(buf), t->tid, 0, L2TP_MSG_SCCCN, NULL);
	len = l2tp_build_end(&b);
	l2tp_put16(buf + 8, 1);		/* Ns */
	l2tp_put16(buf + 10, 1);	/* Nr */
	h_inject(lns, a, buf, len);
	return t->state == L2D_T_ESTABLISHED;
}

/*
 * Established LNS-role tunnels are capped per peer with the defaults:
 * one address bringing up 100 tunnels one after the other gets
 * lns-max-tunnels-per-peer (64); the rest are refused (StopCCN 2/4, or
 * dropped) and counted; when they are gone every count is back to nothing.
 */
TEST(l2tpseld_lnscap_established_tunnels_per_peer_default)
{
	static const char *const lns_c[] = { "listen 10.0.0.1", NULL };	/* the only node */
	struct h_node *lns;
	struct l2d_addr a = addr_of("10.9.0.1");
	unsigned int i, up = 0;

	h_reset();
	lns = h_node(lns_c);
	for (i = 1; i <= 100; i++)
		up += crafted_tunnel(lns, &a, (uint16_t)i);
	h_run_for(10);
	EXPECT_EQ(up, 64);
	EXPECT_EQ(h_tunnels_in(lns, L2D_T_ESTABLISHED), 64);
	/*
	 * refused with a StopCCN while lns-max-setup-per-peer (8) lets it
	 * answer (a refused tunnel holds its place until its StopCCN's
	 * cycle ends), then dropped unanswered
	 */
	EXPECT_EQ(lns->d->stats.tunnels_capped, 8);
	EXPECT_EQ(lns->d->stats.sccrq_capped, 28);
	EXPECT_EQ(lns->d->n_lns_up, 64);
	/* idle, closed, their StopCCN never acknowledged: all gone, no drift */
	h_run_for(300000);
	EXPECT_EQ(lns->d->n_tunnels, 0);
	EXPECT_EQ(lns->d->n_lns_up, 0);
	EXPECT_EQ(lns->d->n_lns_setup, 0);
	EXPECT_EQ(lns->d->n_peers, 0);
	h_fini();
}

/*
 * The caps as configured, per peer and in total; tunnels in set-up count
 * for neither.  A real LAC whose tunnel came up first keeps logging in.
 */
TEST(l2tpseld_lnscap_established_tunnels_capped)
{
	static const char *const lac_c[] = { "route p t1 10.0.0.2", NULL };
	static const char *const lns_c[] = { "listen 10.0.0.2", "lns-max-tunnels 10",
					     "lns-max-tunnels-per-peer 4", NULL };
	struct h_node *lac, *lns;
	struct l2d_addr a = addr_of("10.9.0.1");
	unsigned int i, up = 0;
	char ip[32];

	h_reset();
	lac = h_node(lac_c);
	lns = h_node(lns_c);
	h_login(lac, "first@x", NULL);
	h_run_for(100);
	ASSERT_EQ(lac->n_done_ok, 1);
	for (i = 1; i <= 20; i++)
		up += crafted_tunnel(lns, &a, (uint16_t)i);
	EXPECT_EQ(up, 4);
	for (i = 0; i < 20; i++) {
		struct l2d_addr b;

		snprintf(ip, sizeof(ip), "10.9.1.%u", i + 1);
		b = addr_of(ip);
		up += crafted_tunnel(lns, &b, 7);
	}
	EXPECT_EQ(up, 9);			/* + the real LAC's: 10 */
	EXPECT_EQ(lns->d->n_lns_up, 10);
	EXPECT_EQ(lns->d->stats.tunnels_capped, 8 + 15);
	EXPECT_EQ(lns->d->stats.sccrq_capped, 8);
	h_login(lac, "second@x", NULL);
	h_run_for(1000);
	EXPECT_EQ(lac->n_done_ok, 2);
	h_fini();
}

/*
 * An IPv6 peer is one /64: a flood of SCCRQs from addresses of one prefix
 * holds lns-max-setup-per-peer tunnels, not one per address.
 */
TEST(l2tpseld_lnscap_ipv6_prefix_is_one_peer)
{
	static const char *const lns_c[] = { "listen 10.0.0.1", NULL };	/* the only node */
	struct h_node *lns;
	uint8_t buf[256];
	unsigned int i;
	char ip[64];
	size_t len;

	h_reset();
	lns = h_node(lns_c);
	for (i = 1; i <= 50; i++) {
		struct l2d_addr a;

		snprintf(ip, sizeof(ip), "2001:db8:1:2::%x", i);
		a = addr_of(ip);
		len = h_craft_sccrq(buf, sizeof(buf), 5, false);
		h_inject(lns, &a, buf, len);
	}
	EXPECT_EQ(lns->d->n_lns_setup, 8);
	EXPECT_EQ(lns->d->stats.sccrq_capped, 42);
	h_fini();
}

/*
 * Calls of the LNS role in all: lns-max-calls over every peer; beyond,
 * CDN 4 and calls-capped.  The LAC role's session IDs are its own: the
 * LNS role's caps cannot exceed half of the ID space.
 */
TEST(l2tpseld_lnscap_calls_total_capped)
{
	static const char *const lac1_c[] = { "route p t1 10.0.0.2", NULL };
	static const char *const lns_c[] = { "listen 10.0.0.2", "lns-max-calls 5", NULL };
	static const char *const lac2_c[] = { "route p t2 10.0.0.2", NULL };
	struct h_node *lac1, *lac2, *lns;
	struct l2d_conf c;
	char user[32], err[200];
	unsigned int i;

	h_reset();
	lac1 = h_node(lac1_c);
	lns = h_node(lns_c);
	lac2 = h_node(lac2_c);
	for (i = 0; i < 4; i++) {
		snprintf(user, sizeof(user), "a%u@x", i);
		h_login(lac1, user, NULL);
		snprintf(user, sizeof(user), "b%u@x", i);
		h_login(lac2, user, NULL);
	}
	h_run_for(2000);
	EXPECT_EQ(lac1->n_done_ok + lac2->n_done_ok, 5);
	EXPECT_EQ(lns->d->n_sessions, 5);
	EXPECT_EQ(lns->d->n_lns_calls, 5);
	EXPECT_EQ(lns->d->stats.calls_capped, 3);
	/* every call cleared: nothing stays counted */
	for (i = 1; i <= 4; i++) {
		l2d_logout(lac1->d, i);
		l2d_logout(lac2->d, i);
	}
	h_run_for(2000);
	EXPECT_EQ(lns->d->n_sessions, 0);
	EXPECT_EQ(lns->d->n_lns_calls, 0);

	l2d_conf_defaults(&c);
	EXPECT_EQ(c.lns_max_calls, 16384);
	EXPECT_EQ(c.lns_max_calls_per_peer, 8192);
	EXPECT_EQ(c.lns_max_tunnels, 4096);
	EXPECT_EQ(c.lns_max_tunnels_per_peer, 64);
	EXPECT_EQ(l2d_conf_line(&c, "lns-max-calls 32768", err, sizeof(err)), -1);
	EXPECT_EQ(l2d_conf_line(&c, "lns-max-calls 32767", err, sizeof(err)), 0);
	EXPECT_EQ(l2d_conf_line(&c, "lns-max-tunnels 32767", err, sizeof(err)), 0);
	EXPECT_EQ(l2d_conf_check(&c, err, sizeof(err)), -1);	/* + lns-max-setup */
	EXPECT_TRUE(strstr(err, "LAC role") != NULL);
	h_fini();
}

/* ---- rate limits keyed by what cannot be forged ---- */

static struct l2d_kops rec_kops;
static char rec_peer[L2TPSEL_RL_MSG_PPPOE + 1][64];
static unsigned int rec_n[L2TPSEL_RL_MSG_PPPOE + 1];
static bool rec_remote[L2TPSEL_RL_MSG_PPPOE + 1];

static int rec_rl_check(struct l2d *d, const struct l2d_rlreq *q, struct l2d_rlans *a)
{
	if (q->msg <= L2TPSEL_RL_MSG_PPPOE) {
		rec_n[q->msg]++;
		snprintf(rec_peer[q->msg], sizeof(rec_peer[0]), "%s", q->peer ? q->peer : "");
		rec_remote[q->msg] = q->remote && q->remote->ss.ss_family;
	}
	memset(a, 0, sizeof(*a));
	return 0;
}

/* What the agent asks the rate limiter for each SCCRQ and ICRQ of @lac's login. */
static void rl_keys(const char *const *lac_c, const char *const *lns_c)
{
	struct h_node *lac, *lns;

	memset(rec_n, 0, sizeof(rec_n));
	h_reset();
	lac = h_node(lac_c);
	lns = h_node(lns_c);
	rec_kops = *lns->d->kops;
	rec_kops.rl_check = rec_rl_check;
	lns->d->kops = &rec_kops;
	h_login(lac, "a@x", NULL);
	h_run_for(200);
	EXPECT_EQ(lac->n_done_ok, 1);
	EXPECT_EQ(rec_n[L2TPSEL_RL_MSG_SCCRQ], 1);
	EXPECT_EQ(rec_n[L2TPSEL_RL_MSG_ICRQ], 1);
	EXPECT_TRUE(rec_remote[L2TPSEL_RL_MSG_SCCRQ] && rec_remote[L2TPSEL_RL_MSG_ICRQ]);
	h_fini();
}

/*
 * A SCCRQ's Host Name is anyone's claim before the tunnel authenticated:
 * its rate limits are keyed by the source address only, so spoofed
 * SCCRQs naming another LAC cannot spend that LAC's budget.  An ICRQ
 * names its peer only on a tunnel that authenticated with a secret.
 */
TEST(l2tpseld_lnscap_rl_keys_not_forgeable)
{
	static const char *const lac_c[] = { "route p t1 10.0.0.2", NULL };
	static const char *const lns_c[] = { "listen 10.0.0.2", NULL };
	static const char *const lac_s[] = { "route p t1 10.0.0.2", "secret t1 sesame", NULL };
	static const char *const lns_s[] = { "listen 10.0.0.2", "lns-secret * sesame", NULL };

	rl_keys(lac_c, lns_c);
	EXPECT_STREQ(rec_peer[L2TPSEL_RL_MSG_SCCRQ], "");
	EXPECT_STREQ(rec_peer[L2TPSEL_RL_MSG_ICRQ], "");
	rl_keys(lac_s, lns_s);
	EXPECT_STREQ(rec_peer[L2TPSEL_RL_MSG_SCCRQ], "");
	EXPECT_STREQ(rec_peer[L2TPSEL_RL_MSG_ICRQ], "10.0.0.1");
}
