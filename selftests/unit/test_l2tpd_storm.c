// SPDX-License-Identifier: GPL-2.0
/*
 * Login storms on l2tpseld's simulated network (issue 15, finding 1): many
 * more calls at once than the peer's receive window wait for the window
 * (RFC 2661 §5.8) instead of failing, and no local congestion is reported
 * as the LNS's no-reply (S-SEL-4 locks a destination out only for that).
 */
#include <string.h>

#include <linux/l2tpsel.h>

#include "unit.h"
#include "l2tpd_harness.h"

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

/* 20 logins at once on a new tunnel, as the review's first probe */
UNIT_TEST(l2tpd_storm_new_tunnel)
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
UNIT_TEST(l2tpd_storm_1000_login_logout)
{
	struct h_node *lac, *lns;
	unsigned int i;

	h_reset();
	lac = h_node(lac_one);
	lns = h_node(lns_plain);
	storm(lac, 1);
	h_run_for(100);
	ASSERT_EQ(lac->n_done_ok, 1);
	storm(lac, 1000);
	h_run_for(60000);
	EXPECT_EQ(lac->n_done_ok, 1001);
	EXPECT_EQ(lac->n_done_fail, 0);
	EXPECT_EQ(lac->n_no_reply, 0);
	EXPECT_EQ(lac->sent[L2TP_MSG_ICRQ], 1001);
	EXPECT_EQ(lac->sent[L2TP_MSG_SCCRQ], 1);
	EXPECT_EQ(lac->d->stub_count, 1001);
	EXPECT_EQ(lns->d->stub_count, 1001);
	EXPECT_EQ(h_sessions_in(lns, L2D_S_ESTABLISHED), 1001);
	EXPECT_EQ(lac->d->tunnels->rel.stats.queue_full, 0);
	EXPECT_TRUE(lac->d->tunnels->rel.stats.queue_peak > 16);

	/* every logout's CDN reaches the LNS: no orphaned session there */
	for (i = 1; i <= 1001; i++)
		EXPECT_EQ(l2d_logout(lac->d, i), 0);
	h_run_for(60000);
	EXPECT_EQ(lac->sent[L2TP_MSG_CDN], 1001);
	EXPECT_EQ(lac->sent[L2TP_MSG_STOPCCN], 1);
	EXPECT_EQ(lac->d->stub_count, 0);
	EXPECT_EQ(lns->d->stub_count, 0);
	EXPECT_EQ(h_sessions_in(lns, L2D_S_ESTABLISHED), 0);
	h_fini();
}

/* No socket for the first destination: local, the second is tried, no lockout. */
UNIT_TEST(l2tpd_local_failure_is_not_no_reply)
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
