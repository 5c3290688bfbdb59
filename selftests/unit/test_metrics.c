// SPDX-License-Identifier: GPL-2.0
/*
 * The metrics' text (S-OPS-3, userspace/l2tpseld/metrics.c) from a known
 * agent state: a LAC node of the simulated network with one login through
 * an LNS, one login whose LNS never answers (its destination locked out),
 * counters set by hand, and an access interface standing in for access.c.
 * Exact lines are checked; when promtool is installed the whole text must
 * pass "promtool check metrics" (format and naming lint) too.  The
 * "metrics" configuration lines are checked here as well.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "l2tpseld_harness.h"
#include "../../userspace/l2tpseld/access.h"
#include "../../userspace/l2tpseld/metrics.h"

/* access.c is not linked here: test_l2tpseld_api.c's stand-in gives this one */
extern const struct l2d_access_if_stats *l2d_test_access_if;

static struct l2d_access_if_stats fake_if = {
	.ifname = "e\"t\\h\n", .subscribers = 3, .padi = 10, .pado = 9, .padr = 8, .pads = 7,
	.pads_refused = 1, .padt_rx = 2, .padt_tx = 4, .bad = 5, .rate_dropped = 6,
	.no_service = 11, .logins = 7, .up = 6, .refused = 1,
};

static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *p;

	for (p = text; (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return true;
	return false;
}

/*
 * promtool check metrics on @text: 0 passed, 1 failed, -1 no promtool.
 * Its verdict and problems go to the test's output.
 */
static int promtool(const char *text, size_t len)
{
	char path[] = "/tmp/l2tpsel-metrics.XXXXXX", cmd[128];
	int fd, rc;

	if (system("command -v promtool >/dev/null 2>&1"))
		return -1;
	fd = mkstemp(path);
	if (fd < 0)
		return 1;
	if (write(fd, text, len) != (ssize_t)len) {
		close(fd);
		unlink(path);
		return 1;
	}
	close(fd);
	snprintf(cmd, sizeof(cmd), "promtool check metrics < %s 1>&2", path);
	rc = system(cmd);
	unlink(path);
	return rc ? 1 : 0;
}

static const char *const lac_lines[] = {
	"route p t1 10.0.0.2", "route q t2 10.0.0.9", "sccrq-timeout 1s", NULL
};
static const char *const lns_lines[] = { "listen 10.0.0.2", NULL };

TEST(metrics_text_of_a_known_agent)
{
	struct h_node *lac, *lns;
	struct l2d_tunnel *t;
	char *text, line[512], tl[128];
	size_t len;
	int pt;

	h_reset();
	lac = h_node(lac_lines);
	lns = h_node(lns_lines);
	ASSERT_TRUE(lac && lns);
	h_login(lac, "alice@example", "p");
	h_run_for(100);
	ASSERT_TRUE(h_has_line(lac, "done ok"));
	h_login(lac, "bob@example", "q");	/* 10.0.0.9: nobody there */
	h_run_for(20000);
	ASSERT_TRUE(h_has_line(lac, "done fail reason exhausted"));
	/* figures the network did not make */
	lac->d->stats.rx_discard = 7;
	lac->d->stats.rl_dropped = 12;
	for (t = lac->d->tunnels; t && t->state != L2D_T_ESTABLISHED; t = t->next)
		;
	ASSERT_TRUE(t != NULL);
	t->rel.stats.retransmits = 3;
	t->rel.stats.out_of_order = 2;
	t->rel.stats.stashed = 1;
	l2d_test_access_if = &fake_if;
	lac->d->actx = &fake_if;

	text = l2d_metrics_render(lac->d, &len);
	lac->d->actx = NULL;
	l2d_test_access_if = NULL;
	ASSERT_TRUE(text != NULL);
	EXPECT_EQ(strlen(text), len);
	EXPECT_TRUE(has_line(text, "# HELP l2tpsel_tunnels Tunnels the agent holds now, any state."));
	EXPECT_TRUE(has_line(text, "# TYPE l2tpsel_tunnels gauge"));
	EXPECT_TRUE(has_line(text, "l2tpsel_sessions 1"));
	EXPECT_TRUE(has_line(text, "# TYPE l2tpsel_datagrams_discarded_total counter"));
	EXPECT_TRUE(has_line(text, "l2tpsel_datagrams_discarded_total 7"));
	EXPECT_TRUE(has_line(text, "l2tpsel_ratelimit_dropped_total 12"));
	EXPECT_TRUE(has_line(text, "l2tpsel_tunnels_established_total 1"));
	EXPECT_TRUE(has_line(text, "l2tpsel_tunnels_failed_total 1"));
	/* logins by result, and the setup time of the one that succeeded */
	EXPECT_TRUE(has_line(text, "l2tpsel_logins_total{result=\"ok\"} 1"));
	EXPECT_TRUE(has_line(text, "l2tpsel_logins_total{result=\"exhausted\"} 1"));
	EXPECT_TRUE(has_line(text, "l2tpsel_logins_total{result=\"cdn\"} 0"));
	EXPECT_TRUE(has_line(text, "# TYPE l2tpsel_login_setup_seconds histogram"));
	EXPECT_TRUE(has_line(text, "l2tpsel_login_setup_seconds_bucket{le=\"30\"} 1"));
	EXPECT_TRUE(has_line(text, "l2tpsel_login_setup_seconds_bucket{le=\"+Inf\"} 1"));
	EXPECT_TRUE(has_line(text, "l2tpsel_login_setup_seconds_count 1"));
	EXPECT_TRUE(strstr(text, "\nl2tpsel_login_setup_seconds_bucket{le=\"0.005\"} ") != NULL);
	EXPECT_TRUE(strstr(text, "\nl2tpsel_login_setup_seconds_sum 0.") != NULL);
	/* per profile */
	EXPECT_TRUE(has_line(text, "l2tpsel_profile_logins_total{profile=\"p\",result=\"ok\"} 1"));
	EXPECT_TRUE(has_line(text, "l2tpsel_profile_logins_total{profile=\"q\",result=\"failed\"} 1"));
	EXPECT_TRUE(has_line(text, "l2tpsel_profile_sessions{profile=\"p\"} 1"));
	EXPECT_TRUE(has_line(text, "l2tpsel_profile_sessions{profile=\"q\"} 0"));
	/* per tunnel */
	snprintf(tl, sizeof(tl), "tunnel=\"%u\",peer=\"10.0.0.2:1701\",role=\"lac\"", t->tid);
	snprintf(line, sizeof(line), "l2tpsel_tunnel_state{%s,state=\"established\"} 1", tl);
	EXPECT_TRUE(has_line(text, line));
	snprintf(line, sizeof(line), "l2tpsel_tunnel_state{%s,state=\"wait-sccrp\"} 0", tl);
	EXPECT_TRUE(has_line(text, line));
	snprintf(line, sizeof(line), "l2tpsel_tunnel_sessions{%s} 1", tl);
	EXPECT_TRUE(has_line(text, line));
	snprintf(line, sizeof(line), "l2tpsel_tunnel_retransmissions_total{%s} 3", tl);
	EXPECT_TRUE(has_line(text, line));
	snprintf(line, sizeof(line), "l2tpsel_tunnel_out_of_order_total{%s} 2", tl);
	EXPECT_TRUE(has_line(text, line));
	snprintf(line, sizeof(line), "l2tpsel_tunnel_stashed_total{%s} 1", tl);
	EXPECT_TRUE(has_line(text, line));
	snprintf(line, sizeof(line), "l2tpsel_tunnel_send_window_messages{%s} %u", tl, t->rel.cwnd);
	EXPECT_TRUE(has_line(text, line));
	/* per destination: the core's, as the module's DEST_GET would give them */
	EXPECT_TRUE(has_line(text, "l2tpsel_destination_sessions{destination=\"10.0.0.2\",port=\"1701\",local=\"any\"} 1"));
	EXPECT_TRUE(has_line(text, "l2tpsel_destination_attempts_total{destination=\"10.0.0.2\",port=\"1701\",local=\"any\"} 1"));
	EXPECT_TRUE(has_line(text, "l2tpsel_destination_failures_total{destination=\"10.0.0.2\",port=\"1701\",local=\"any\"} 0"));
	EXPECT_TRUE(has_line(text, "l2tpsel_destination_locked_out{destination=\"10.0.0.2\",port=\"1701\",local=\"any\"} 0"));
	EXPECT_TRUE(has_line(text, "l2tpsel_destination_attempts_total{destination=\"10.0.0.9\",port=\"1701\",local=\"any\"} 1"));
	EXPECT_TRUE(has_line(text, "l2tpsel_destination_failures_total{destination=\"10.0.0.9\",port=\"1701\",local=\"any\"} 1"));
	EXPECT_TRUE(has_line(text, "l2tpsel_destination_locked_out{destination=\"10.0.0.9\",port=\"1701\",local=\"any\"} 1"));
	/* per access interface; the name's quote, backslash and newline as the API quotes them */
	EXPECT_TRUE(has_line(text, "l2tpsel_access_subscribers{interface=\"e\\\\x22t\\\\x5ch\\\\x0a\"} 3"));
	EXPECT_TRUE(has_line(text, "l2tpsel_access_padi_received_total{interface=\"e\\\\x22t\\\\x5ch\\\\x0a\"} 10"));
	EXPECT_TRUE(has_line(text, "l2tpsel_access_pads_sent_total{interface=\"e\\\\x22t\\\\x5ch\\\\x0a\"} 7"));
	EXPECT_TRUE(has_line(text, "l2tpsel_access_pads_refused_total{interface=\"e\\\\x22t\\\\x5ch\\\\x0a\"} 1"));
	EXPECT_TRUE(has_line(text, "l2tpsel_access_logins_refused_total{interface=\"e\\\\x22t\\\\x5ch\\\\x0a\"} 1"));
	/* no RADIUS client: no RADIUS family */
	EXPECT_TRUE(strstr(text, "l2tpsel_radius_") == NULL);

	pt = promtool(text, len);
	if (pt < 0)
		printf("# promtool not installed: format not checked by it\n");
	EXPECT_EQ(pt <= 0, 1);
	free(text);
	h_fini();
}

/* The check above can fail: promtool refuses a malformed text. */
TEST(metrics_promtool_refuses_a_malformed_text)
{
	static const char bad[] = "# TYPE l2tpsel_x counter\nl2tpsel_x{a=\"1} 2\n";

	if (promtool("", 0) < 0)
		return;
	EXPECT_EQ(promtool(bad, sizeof(bad) - 1), 1);
}

TEST(metrics_conf_lines)
{
	struct l2d_conf c;
	char err[256];

	l2d_conf_defaults(&c);
	EXPECT_EQ(l2d_conf_line(&c, "kernel none", err, sizeof(err)), 0);
	EXPECT_EQ(c.metrics_len, 0);		/* off by default */
	EXPECT_EQ(l2d_conf_line(&c, "metrics 127.0.0.1", err, sizeof(err)), 0);
	EXPECT_EQ(l2d_port(&(struct l2d_addr){ c.metrics_addr, c.metrics_len }), L2D_METRICS_PORT);
	EXPECT_EQ(l2d_conf_check(&c, err, sizeof(err)), 0);
	EXPECT_EQ(l2d_conf_line(&c, "metrics ::1 port 9100", err, sizeof(err)), 0);
	EXPECT_EQ(l2d_port(&(struct l2d_addr){ c.metrics_addr, c.metrics_len }), 9100);
	EXPECT_EQ(l2d_conf_check(&c, err, sizeof(err)), 0);
	EXPECT_EQ(l2d_conf_line(&c, "metrics 127.0.0.1 port 0", err, sizeof(err)), -1);
	EXPECT_STREQ(err, "metrics: usage: metrics ADDRESS [port N] (1..65535, 9717 by default)");
	EXPECT_EQ(l2d_conf_line(&c, "metrics localhost", err, sizeof(err)), -1);
	EXPECT_STREQ(err, "metrics: \"localhost\" is not an IPv4 or IPv6 address");
	/* off the host only when asked */
	EXPECT_EQ(l2d_conf_line(&c, "metrics 0.0.0.0", err, sizeof(err)), 0);
	EXPECT_EQ(l2d_conf_check(&c, err, sizeof(err)), -1);
	EXPECT_STREQ(err, "metrics: not a loopback address: the endpoint has no authentication, "
		     "so listening off this host needs \"metrics-remote yes\"");
	EXPECT_EQ(l2d_conf_line(&c, "metrics 192.0.2.1 port 9717", err, sizeof(err)), 0);
	EXPECT_EQ(l2d_conf_check(&c, err, sizeof(err)), -1);
	EXPECT_EQ(l2d_conf_line(&c, "metrics-remote yes", err, sizeof(err)), 0);
	EXPECT_EQ(l2d_conf_check(&c, err, sizeof(err)), 0);
}
