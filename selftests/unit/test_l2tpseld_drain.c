// SPDX-License-Identifier: GPL-2.0
/*
 * "kernel none" drain (S-OPS-1): the agent's own selection passes a drained
 * tunnel or destination over as the module's does (the same core/), the
 * drain is set by tunnel name or destination address (l2d_kernel_none_drain(),
 * the API's "drain tunnel|destination"), and a new core built when SIGHUP
 * changes the route lines keeps the marks.
 */
#include "harness.h"
#include "l2tpseld_harness.h"

static const char *const lac_two[] = { "route p t1 10.0.0.2", "route p t2 10.0.0.3", NULL };
static const char *const lns_a[] = { "listen 10.0.0.2", NULL };
static const char *const lns_b[] = { "listen 10.0.0.3", NULL };

TEST(l2tpseld_kernel_none_drain_and_reload)
{
	struct h_node *lac, *a, *b;
	char err[160] = "";

	h_reset();
	lac = h_node(lac_two);
	a = h_node(lns_a);
	b = h_node(lns_b);
	ASSERT_TRUE(lac && a && b);
	EXPECT_EQ(l2d_kernel_none_drain(lac->d, false, "t1", true, err, sizeof(err)), 1);
	h_login(lac, "u1@example", "p");
	h_run_for(200);
	EXPECT_EQ(lac->n_done_ok, 1);
	EXPECT_EQ(h_sessions_in(a, L2D_S_ESTABLISHED), 0);	/* t1 drained: level 1 */
	EXPECT_EQ(h_sessions_in(b, L2D_S_ESTABLISHED), 1);
	/* SIGHUP with a changed route list: a new core, t1 still drained */
	ASSERT_EQ(l2d_conf_line(lac->d->conf, "route q t3 10.0.0.3", err, sizeof(err)), 0);
	h_login(lac, "u2@example", "p");
	h_run_for(200);
	EXPECT_EQ(lac->n_done_ok, 2);
	EXPECT_EQ(h_sessions_in(a, L2D_S_ESTABLISHED), 0);
	EXPECT_EQ(h_sessions_in(b, L2D_S_ESTABLISHED), 2);
	/* the drain ends; a destination drained instead, kept over a reload too */
	EXPECT_EQ(l2d_kernel_none_drain(lac->d, false, "t1", false, err, sizeof(err)), 1);
	EXPECT_EQ(l2d_kernel_none_drain(lac->d, true, "10.0.0.2", true, err, sizeof(err)), 1);
	ASSERT_EQ(l2d_conf_line(lac->d->conf, "route r t4 10.0.0.2", err, sizeof(err)), 0);
	h_login(lac, "u3@example", "p");
	h_run_for(200);
	EXPECT_EQ(lac->n_done_ok, 3);
	EXPECT_EQ(h_sessions_in(a, L2D_S_ESTABLISHED), 0);
	EXPECT_EQ(h_sessions_in(b, L2D_S_ESTABLISHED), 3);
	/* both drained: nothing attempted, the login fails as drained */
	EXPECT_EQ(l2d_kernel_none_drain(lac->d, false, "t2", true, err, sizeof(err)), 1);
	h_login(lac, "u4@example", "p");
	h_run_for(200);
	EXPECT_TRUE(h_has_line(lac, "done fail reason drained attempts 0"));
	EXPECT_EQ(lac->n_done_ok, 3);
	/* refusals say what was wrong */
	EXPECT_EQ(l2d_kernel_none_drain(lac->d, false, "nope", true, err, sizeof(err)), -1);
	EXPECT_TRUE(strstr(err, "no tunnel nope") != NULL) TH_LOG("%s", err);
	EXPECT_EQ(l2d_kernel_none_drain(lac->d, true, "10.9.9.9", true, err, sizeof(err)), -1);
	EXPECT_TRUE(strstr(err, "no destination 10.9.9.9") != NULL) TH_LOG("%s", err);
	EXPECT_EQ(l2d_kernel_none_drain(lac->d, true, "not-an-address", true, err, sizeof(err)), -1);
	EXPECT_TRUE(strstr(err, "is not an address") != NULL) TH_LOG("%s", err);
	h_fini();
}
