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
	EXPECT_EQ(l2d_kcore_sessions(lac->d), 1);
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
