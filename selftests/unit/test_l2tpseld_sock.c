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
