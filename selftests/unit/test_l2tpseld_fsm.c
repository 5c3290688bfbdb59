// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld's tunnel and call state machines (userspace/l2tpseld/tunnel.c,
 * session.c, lac.c) on a simulated network with a fake clock: an l2tpseld
 * LAC against an l2tpseld LNS, and crafted messages.  S-L2TP-1 (the
 * exchange, Ns/Nr, retransmission with back-off, setup timeouts), S-L2TP-2
 * (Challenge/Response, hidden AVPs), S-L2TP-3 (malformed messages, wrong
 * sequence), the LNS's test switches, outcomes and tunnel reuse.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include <linux/l2tpsel.h>

#include <unistd.h>

#include "harness.h"
#include "l2tpseld_harness.h"

/* LAC at 10.0.0.1 with routes to nodes 2.. (profile p), LNS nodes after it. */
static const char *const lac_one[] = { "route p t1 10.0.0.2", NULL };
static const char *const lns_plain[] = { "listen 10.0.0.2", NULL };

TEST(l2tpseld_timer_heap)
{
	struct l2d_loop l;
	struct l2d_timer t[200];
	uint64_t last = 0;
	unsigned int i, ran;
	static unsigned int fired[200];

	l2d_loop_init(&l, false);
	for (i = 0; i < 200; i++) {
		l2d_timer_init(&t[i], NULL, &fired[i]);
		l2d_timer_arm(&l, &t[i], (i * 7919u) % 1000);
	}
	for (i = 0; i < 200; i += 3)
		l2d_timer_cancel(&l, &t[i]);
	for (i = 1; i < 200; i += 3)
		l2d_timer_arm(&l, &t[i], 5000 + i);	/* re-arm later */
	ran = 0;
	while (l2d_timer_next(&l) != UINT64_MAX) {
		struct l2d_timer *x = l.heap[0];

		EXPECT_TRUE(x->when >= last);
		last = x->when;
		l2d_timer_cancel(&l, x);
		ran++;
	}
	EXPECT_EQ(ran, 200 - 67);
	for (i = 0; i < 200; i++)
		EXPECT_TRUE(!l2d_timer_armed(&t[i]));
	l2d_loop_fini(&l);
}

TEST(l2tpseld_conf_errors)
{
	struct l2d_conf c;
	char err[200];

	l2d_conf_defaults(&c);
	EXPECT_EQ(l2d_conf_line(&c, "port 0", err, sizeof(err)), -1);
	EXPECT_STREQ(err, "port: expected 1..65535");
	EXPECT_EQ(l2d_conf_line(&c, "rto-max 2s", err, sizeof(err)), -1);
	EXPECT_TRUE(strstr(err, "at least 8000 ms") != NULL);
	EXPECT_EQ(l2d_conf_line(&c, "bogus 1", err, sizeof(err)), -1);
	EXPECT_STREQ(err, "unknown keyword \"bogus\"");
	EXPECT_EQ(l2d_conf_line(&c, "listen 10.0.0.300", err, sizeof(err)), -1);
	EXPECT_EQ(l2d_conf_line(&c, "lns-mode cdn 70000", err, sizeof(err)), -1);
	EXPECT_EQ(l2d_conf_line(&c, "dataplane maybe", err, sizeof(err)), -1);
	EXPECT_EQ(l2d_conf_line(&c, "  # a comment", err, sizeof(err)), 0);
	EXPECT_EQ(l2d_conf_line(&c, "sccrq-timeout 2500ms", err, sizeof(err)), 0);
	EXPECT_EQ(c.sccrq_timeout_ms, 2500);
	EXPECT_EQ(l2d_conf_line(&c, "retries-setup 3", err, sizeof(err)), 0);
	EXPECT_EQ(l2d_conf_line(&c, "retries-established 9", err, sizeof(err)), 0);
	EXPECT_EQ(c.retries_setup, 3);
	EXPECT_EQ(c.retries_established, 9);
	EXPECT_EQ(l2d_conf_line(&c, "secret t1 s3cret", err, sizeof(err)), 0);
	EXPECT_EQ(l2d_conf_line(&c, "lns-secret * other", err, sizeof(err)), 0);
	EXPECT_STREQ(l2d_conf_secret(&c, false, "t1"), "s3cret");
	EXPECT_TRUE(l2d_conf_secret(&c, false, "t2") == NULL);
	EXPECT_STREQ(l2d_conf_secret(&c, true, "anyhost"), "other");
	EXPECT_EQ(l2d_conf_line(&c, "route p t1 10.0.0.2", err, sizeof(err)), 0);
	EXPECT_EQ(l2d_conf_check(&c, err, sizeof(err)), -1);	/* routes need kernel none */
	EXPECT_EQ(l2d_conf_line(&c, "kernel none", err, sizeof(err)), 0);
	EXPECT_EQ(l2d_conf_check(&c, err, sizeof(err)), 0);
	EXPECT_EQ(l2d_kernel_none_check(&c, err, sizeof(err)), 0);
	/* kernel none: a profile's lines are the core's 8 preference levels */
	{
		char line[64];
		int i;

		for (i = 2; i <= 9; i++) {
			snprintf(line, sizeof(line), "route p t%d 10.0.0.%d", i, i + 1);
			EXPECT_EQ(l2d_conf_line(&c, line, err, sizeof(err)), 0);
		}
		EXPECT_EQ(l2d_conf_check(&c, err, sizeof(err)), 0);
		EXPECT_EQ(l2d_kernel_none_check(&c, err, sizeof(err)), -1);
		EXPECT_TRUE(strstr(err, "at most 8 lines") != NULL);
	}
}

/*
 * RFC 2661 section 8.1: the LNS answers the SCCRQ from a port of its own
 * (accel-ppp's ephemeral ports); the LAC goes on with that port, and its
 * socket is connected only then.
 */
TEST(l2tpseld_lac_follows_sccrp_from_another_port)
{
	struct h_node *lac, *lns;
	const struct sockaddr_in *peer;

	h_reset();
	lac = h_node(lac_one);
	lns = h_node(lns_plain);
	ASSERT_TRUE(lac && lns);
	lns->answer_port = 40000;
	h_login(lac, "alice@example", NULL);
	h_run_for(100);
	EXPECT_TRUE(h_has_line(lac, "done ok"));
	ASSERT_TRUE(lac->d->tunnels != NULL);
	peer = (const struct sockaddr_in *)&lac->d->tunnels->peer.ss;
	EXPECT_EQ(ntohs(peer->sin_port), 40000);
	EXPECT_EQ(lac->connects, 1);
	/* SCCCN, ICRQ and ICCN went to the port the SCCRP came from */
	EXPECT_EQ(lns->to_answer_port, 3);
	EXPECT_EQ(h_sessions_in(lns, L2D_S_ESTABLISHED), 1);
}

/*
 * A LAC behind a NAT whose mapping moves its source
 * port mid-tunnel.  The LNS's replies, and its kernel tunnel's socket
 * (connected again), follow the port of the next message delivered.
 */
TEST(l2tpseld_lns_follows_lac_port_moved_by_nat)
{
	struct h_node *lac, *lns;

	h_reset();
	lac = h_node(lac_one);
	lns = h_node(lns_plain);
	ASSERT_TRUE(lac && lns);
	h_login(lac, "alice@example", NULL);
	h_run_for(100);
	ASSERT_EQ(lac->n_done_ok, 1);
	EXPECT_EQ(lns->connects, 0);
	lac->answer_port = 40001;	/* the NAT's new mapping */
	h_login(lac, "bob@example", NULL);
	h_run_for(100);
	EXPECT_EQ(lac->n_done_ok, 2);
	ASSERT_TRUE(lns->d->tunnels != NULL);
	EXPECT_EQ(l2d_port(&lns->d->tunnels->peer), 40001);
	EXPECT_EQ(lns->connects, 1);		/* its socket connected to the new port */
	EXPECT_EQ(lns->d->stats.port_moved, 1);
	EXPECT_TRUE(lac->to_answer_port >= 2);	/* ICRP and the ack of ICCN went there */
	EXPECT_EQ(h_sessions_in(lns, L2D_S_ESTABLISHED), 2);
}

/* S-L2TP-1: SCCRQ/SCCRP/SCCCN, ICRQ/ICRP/ICCN; logout: CDN, StopCCN, hold */
TEST(l2tpseld_lac_lns_login_logout)
{
	struct h_node *lac, *lns;
	const char *l;

	h_reset();
	lac = h_node(lac_one);
	lns = h_node(lns_plain);
	ASSERT_TRUE(lac && lns);
	h_login(lac, "alice@example", NULL);
	h_run_for(100);
	l = h_line(lac, "done");
	ASSERT_TRUE(l != NULL);
	EXPECT_TRUE(!strncmp(l, "done ok session 1 tunnel t1 profile p", 37));
	EXPECT_TRUE(h_has_line(lac, "attempt 1 tunnel t1 profile p remote 10.0.0.2 port 1701 local any level 0 sccrq"));
	EXPECT_TRUE(h_has_line(lac, "outcome 1 ok"));
	EXPECT_EQ(h_tunnels_in(lac, L2D_T_ESTABLISHED), 1);
	EXPECT_EQ(h_tunnels_in(lns, L2D_T_ESTABLISHED), 1);
	EXPECT_EQ(h_sessions_in(lac, L2D_S_ESTABLISHED), 1);
	EXPECT_EQ(h_sessions_in(lns, L2D_S_ESTABLISHED), 1);
	EXPECT_EQ(l2d_kernel_none_sessions(lac->d), 1);	/* SESSION_UP, role LAC */
	EXPECT_EQ(l2d_kernel_none_sessions(lns->d), 1);	/* SESSION_UP, role LNS */
	EXPECT_EQ(lns->sent[L2TP_MSG_SCCRP], 1);
	EXPECT_EQ(lac->sent[L2TP_MSG_SCCCN], 1);
	EXPECT_EQ(lns->sent[L2TP_MSG_ICRP], 1);
	EXPECT_EQ(lac->sent[L2TP_MSG_ICCN], 1);
	/* the LNS learnt the caller and the LAC's Host Name */
	EXPECT_STREQ(lns->d->tunnels->peer_host, "10.0.0.1");
	EXPECT_STREQ(lns->d->tunnels->sessions->user, "alice@example");
	EXPECT_STREQ(lns->d->tunnels->tgroup, "10.0.0.2");	/* the local address reached */

	EXPECT_EQ(l2d_logout(lac->d, 1), 0);
	EXPECT_EQ(l2d_logout(lac->d, 1), -1);
	h_run_for(100);
	EXPECT_EQ(lac->sent[L2TP_MSG_CDN], 1);
	EXPECT_EQ(lac->sent[L2TP_MSG_STOPCCN], 1);	/* no session left: tunnel closed */
	EXPECT_EQ(l2d_kernel_none_sessions(lac->d), 0);
	EXPECT_EQ(l2d_kernel_none_sessions(lns->d), 0);
	EXPECT_EQ(h_sessions_in(lns, L2D_S_ESTABLISHED), 0);
	EXPECT_EQ(h_tunnels_in(lac, L2D_T_CLOSING), 1);
	EXPECT_EQ(h_tunnels_in(lns, L2D_T_CLOSING), 1);
	/* §5.7: state kept one full retransmission cycle (31 s), then freed */
	h_run_for(30000);
	EXPECT_EQ(lac->d->n_tunnels, 1);
	h_run_for(1500);
	EXPECT_EQ(lac->d->n_tunnels, 0);
	EXPECT_EQ(lns->d->n_tunnels, 0);
	h_fini();
}

/* A second login to the same destination reuses the established tunnel. */
TEST(l2tpseld_tunnel_reuse)
{
	struct h_node *lac, *lns;

	h_reset();
	lac = h_node(lac_one);
	lns = h_node(lns_plain);
	h_login(lac, "a@x", NULL);
	h_login(lac, "b@x", NULL);	/* joins the tunnel being set up */
	h_run_for(100);
	h_login(lac, "c@x", NULL);	/* reuses the established one */
	h_run_for(100);
	EXPECT_EQ(lac->sent[L2TP_MSG_SCCRQ], 1);
	EXPECT_EQ(lac->sent[L2TP_MSG_ICRQ], 3);
	EXPECT_TRUE(h_has_line(lac, "attempt 1 tunnel t1 profile p remote 10.0.0.2 port 1701 local any level 0 join"));
	EXPECT_TRUE(h_has_line(lac, "attempt 1 tunnel t1 profile p remote 10.0.0.2 port 1701 local any level 0 reuse"));
	EXPECT_EQ(h_sessions_in(lns, L2D_S_ESTABLISHED), 3);
	EXPECT_EQ(lac->d->n_tunnels, 1);
	/* closing two keeps the tunnel; the last one closes it */
	l2d_logout(lac->d, 1);
	l2d_logout(lac->d, 2);
	h_run_for(100);
	EXPECT_EQ(lac->sent[L2TP_MSG_STOPCCN], 0);
	l2d_logout(lac->d, 3);
	h_run_for(100);
	EXPECT_EQ(lac->sent[L2TP_MSG_STOPCCN], 1);
	EXPECT_EQ(l2d_kernel_none_sessions(lns->d), 0);
	h_fini();
}

/* S-L2TP-2: Challenge/Response both ways and hidden AVPs with the secret. */
static unsigned int hidden_seen, hidden_short;

/* Every hidden AVP's value length (after the 6-octet header). */
static void tap_hidden(int from, const uint8_t *buf, size_t len)
{
	size_t off = 12;

	if (len < 12 || !(buf[0] & 0x80))
		return;
	while (off + 6 <= len) {
		uint16_t fl = l2tp_get16(buf + off), alen = fl & 0x3ff;

		if (alen < 6 || off + alen > len)
			return;
		if (fl & 0x4000) {
			hidden_seen++;
			hidden_short += alen - 6 < 16;
		}
		off += alen;
	}
}

TEST(l2tpseld_auth_hidden)
{
	static const char *const lac_c[] = { "route p t1 10.0.0.2", "secret t1 sesame", "hide-avps yes", NULL };
	static const char *const lns_c[] = { "listen 10.0.0.2", "lns-secret * sesame", "hide-avps yes", NULL };
	struct h_node *lac, *lns;

	h_reset();
	hidden_seen = hidden_short = 0;
	H->tap = tap_hidden;
	lac = h_node(lac_c);
	lns = h_node(lns_c);
	h_login(lac, "alice@example", NULL);
	h_run_for(100);
	EXPECT_TRUE(h_has_line(lac, "done ok"));
	EXPECT_TRUE(lac->d->tunnels && lac->d->tunnels->challenged);
	EXPECT_TRUE(lns->d->tunnels && lns->d->tunnels->challenged);
	/* Assigned Tunnel ID, Session ID, Challenge Response hidden, padded to 16 */
	EXPECT_TRUE(hidden_seen >= 5);
	EXPECT_EQ(hidden_short, 0);
	h_fini();
}

/* tgroup-map: the tunnel group of an address reached; or none */
TEST(l2tpseld_tgroup_map)
{
	static const char *const lns_c[] = { "listen 10.0.0.2", "tgroup-map 10.0.0.2 gw-a", NULL };
	static const char *const lns_n[] = { "listen 10.0.0.2", "tgroup-by-address no", NULL };
	struct h_node *lac, *lns;

	h_reset();
	lac = h_node(lac_one);
	lns = h_node(lns_c);
	h_login(lac, "a@x", NULL);
	h_run_for(100);
	ASSERT_TRUE(lns->d->tunnels != NULL);
	EXPECT_STREQ(lns->d->tunnels->tgroup, "gw-a");
	h_reset();
	lac = h_node(lac_one);
	lns = h_node(lns_n);
	h_login(lac, "a@x", NULL);
	h_run_for(100);
	ASSERT_TRUE(lns->d->tunnels != NULL);
	EXPECT_STREQ(lns->d->tunnels->tgroup, "");
	h_fini();
}

TEST(l2tpseld_auth_wrong_secret)
{
	static const char *const lac_c[] = { "route p t1 10.0.0.2", "secret t1 sesame", NULL };
	static const char *const lns_c[] = { "listen 10.0.0.2", "lns-secret * other", NULL };
	struct h_node *lac, *lns;

	h_reset();
	lac = h_node(lac_c);
	lns = h_node(lns_c);
	h_login(lac, "alice@example", NULL);
	h_run_for(100);
	/* the LAC finds the SCCRP's response wrong and clears with StopCCN 4 */
	EXPECT_EQ(lac->sent[L2TP_MSG_STOPCCN], 1);
	EXPECT_TRUE(h_has_line(lac, "outcome 1 stopccn result 4 error 0"));
	EXPECT_TRUE(h_has_line(lac, "done fail reason stopccn"));
	EXPECT_EQ(h_tunnels_in(lns, L2D_T_ESTABLISHED), 0);
	EXPECT_EQ(l2d_kernel_none_sessions(lns->d), 0);
	h_fini();
}

TEST(l2tpseld_auth_lns_requires)
{
	static const char *const lns_c[] = { "listen 10.0.0.2", "lns-auth-required yes", NULL };
	struct h_node *lac;

	h_reset();
	lac = h_node(lac_one);
	h_node(lns_c);
	h_login(lac, "alice@example", NULL);
	h_run_for(100);
	EXPECT_TRUE(h_has_line(lac, "outcome 1 stopccn result 4 error 0"));
	h_fini();
}

/*
 * Silent LNS: SCCRQ sent at 0, 1, 3, 7 s (back-off 1 s doubling), the
 * sccrq-timeout (10 s) ends it as no-reply before retransmission would.
 */
TEST(l2tpseld_silent_setup_timeout)
{
	static const char *const lns_c[] = { "listen 10.0.0.2", "lns-mode silent", NULL };
	struct h_node *lac;
	uint64_t t0;

	h_reset();
	lac = h_node(lac_one);
	h_node(lns_c);
	t0 = H->now;
	h_login(lac, "alice@example", NULL);
	h_run_for(9999);
	EXPECT_TRUE(!h_has_line(lac, "outcome"));
	EXPECT_EQ(lac->sent[L2TP_MSG_SCCRQ], 4);
	EXPECT_EQ(lac->sent_at[1] - t0, 1000);
	EXPECT_EQ(lac->sent_at[2] - t0, 3000);
	EXPECT_EQ(lac->sent_at[3] - t0, 7000);
	h_run_for(1);
	EXPECT_TRUE(h_has_line(lac, "outcome 1 no-reply"));
	EXPECT_TRUE(h_has_line(lac, "done fail reason exhausted attempts 1"));
	EXPECT_EQ(lac->sent[L2TP_MSG_STOPCCN], 0);	/* nobody to address it to */
	h_run_for(100);
	EXPECT_EQ(lac->d->n_tunnels, 0);
	h_fini();
}

/* Without the setup timeout, retransmission gives up: 0,1,3,7,15,23 s, no reply at 31 s. */
TEST(l2tpseld_silent_retransmission_gives_up)
{
	static const char *const lac_c[] = { "route p t1 10.0.0.2", "sccrq-timeout 60s", NULL };
	static const char *const lns_c[] = { "listen 10.0.0.2", "lns-mode silent", NULL };
	struct h_node *lac;
	uint64_t t0;

	h_reset();
	lac = h_node(lac_c);
	h_node(lns_c);
	t0 = H->now;
	h_login(lac, "alice@example", NULL);
	h_run_for(30999);
	EXPECT_EQ(lac->sent[L2TP_MSG_SCCRQ], 6);
	EXPECT_EQ(lac->sent_at[4] - t0, 15000);
	EXPECT_EQ(lac->sent_at[5] - t0, 23000);
	EXPECT_TRUE(!h_has_line(lac, "outcome"));
	h_run_for(1);
	EXPECT_TRUE(h_has_line(lac, "outcome 1 no-reply"));
	h_fini();
}

/* retries-setup 2: 0, 1, 3 s, no reply at 7 s */
TEST(l2tpseld_retries_setup_count)
{
	static const char *const lac_c[] = { "route p t1 10.0.0.2", "sccrq-timeout 60s", "retries-setup 2", NULL };
	static const char *const lns_c[] = { "listen 10.0.0.2", "lns-mode silent", NULL };
	struct h_node *lac;

	h_reset();
	lac = h_node(lac_c);
	h_node(lns_c);
	h_login(lac, "alice@example", NULL);
	h_run_for(6999);
	EXPECT_EQ(lac->sent[L2TP_MSG_SCCRQ], 3);
	EXPECT_TRUE(!h_has_line(lac, "outcome"));
	h_run_for(1);
	EXPECT_TRUE(h_has_line(lac, "outcome 1 no-reply"));
	h_fini();
}

/*
 * Silent after ZLB: the LNS acknowledges the ICRQ and never answers; the
 * ICRQ setup timeout (not retransmission, which stopped at the ack) makes
 * it no-reply, and the login fails over to the next destination.
 */
TEST(l2tpseld_silent_after_zlb_failover)
{
	static const char *const lac_c[] = { "route p t1 10.0.0.2", "route p t2 10.0.0.3",
					     "icrq-timeout 5s", NULL };
	static const char *const zlb_c[] = { "listen 10.0.0.2", "lns-mode silent-after-zlb", NULL };
	static const char *const ok_c[] = { "listen 10.0.0.3", NULL };
	struct h_node *lac, *zlb, *ok;
	uint64_t t0;

	h_reset();
	lac = h_node(lac_c);
	zlb = h_node(zlb_c);
	ok = h_node(ok_c);
	t0 = H->now;
	h_login(lac, "alice@example", NULL);
	h_run_for(4999);
	EXPECT_EQ(lac->sent[L2TP_MSG_ICRQ], 1);		/* acked: never resent */
	EXPECT_TRUE(zlb->sent[0] >= 1);			/* the ZLB */
	EXPECT_EQ(zlb->sent[L2TP_MSG_ICRP], 0);
	EXPECT_TRUE(!h_has_line(lac, "outcome"));
	h_run_for(1);
	EXPECT_TRUE(h_has_line(lac, "outcome 1 no-reply"));
	EXPECT_TRUE(h_has_line(lac, "attempt 2 tunnel t2 profile p remote 10.0.0.3"));
	h_run_for(100);
	EXPECT_TRUE(h_has_line(lac, "outcome 2 ok"));
	EXPECT_TRUE(h_has_line(lac, "done ok session 1 tunnel t2"));
	/* no CDN without the LNS's session ID: its empty tunnel's StopCCN clears the call */
	EXPECT_EQ(lac->sent[L2TP_MSG_CDN], 0);
	EXPECT_EQ(lac->sent[L2TP_MSG_STOPCCN], 1);
	EXPECT_EQ(h_sessions_in(ok, L2D_S_ESTABLISHED), 1);
	EXPECT_EQ(H->now - t0, 5100);
	h_fini();
}

/*
 * At log level info a login that succeeds logs one line, its "done": the
 * steps of its successful attempt are debug.  A failed attempt logs its
 * "attempt" line (held back until it failed) and its "outcome".  The API
 * client gets every step either way.
 */
TEST(l2tpseld_info_log_one_line_a_login)
{
	static const char *const lac_c[] = { "route p t1 10.0.0.2", "route p t2 10.0.0.3",
					     "icrq-timeout 5s", NULL };
	static const char *const zlb_c[] = { "listen 10.0.0.2", "lns-mode silent-after-zlb", NULL };
	static const char *const ok_c[] = { "listen 10.0.0.3", NULL };
	struct h_node *lac;
	char log[16384], *line;
	FILE *f = tmpfile();
	int saved;
	size_t n;

	ASSERT_TRUE(f != NULL);
	h_reset();
	lac = h_node(lac_c);
	h_node(zlb_c);
	h_node(ok_c);
	lac->d->log_level = L2D_LOG_INFO;
	fflush(stderr);
	saved = dup(2);
	ASSERT_TRUE(saved >= 0);
	dup2(fileno(f), 2);
	h_login(lac, "alice@example", NULL);
	h_run_for(5100);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	n = fread(log, 1, sizeof(log) - 1, f);
	log[n] = '\0';
	fclose(f);
	EXPECT_TRUE(h_has_line(lac, "attempt 2 tunnel t2"));	/* the client's lines */
	EXPECT_TRUE(h_has_line(lac, "outcome 2 ok"));
	EXPECT_TRUE(strstr(log, "login 1 (alice@example): attempt 1 tunnel t1 profile p remote 10.0.0.2") != NULL)
		TH_LOG("%s", log);
	EXPECT_TRUE(strstr(log, "login 1 (alice@example): outcome 1 no-reply") != NULL) TH_LOG("%s", log);
	EXPECT_TRUE(strstr(log, "login 1 (alice@example): done ok session 1 tunnel t2") != NULL)
		TH_LOG("%s", log);
	EXPECT_TRUE(strstr(log, "attempt 2") == NULL) TH_LOG("%s", log);
	EXPECT_TRUE(strstr(log, "outcome 2") == NULL) TH_LOG("%s", log);
	EXPECT_TRUE(strstr(log, "user alice@example") == NULL) TH_LOG("%s", log);
	/* the session's "established" line is debug, the tunnel's stays */
	for (line = strtok(log, "\n"); line; line = strtok(NULL, "\n")) {
		EXPECT_TRUE(!strstr(line, "established as LAC") ||
			    !strncmp(line, "l2tpseld: tunnel ", 17)) TH_LOG("%s", line);
	}
	h_fini();
}

/*
 * "kernel none" runs the module's core: the destination that did not answer
 * is locked out (S-SEL-4), so the next login goes straight to the second
 * route; a profile naming only the locked one still tries it (DLNC
 * unlocked, S-SEL-9); the lockout ends after its 300 s.
 */
TEST(l2tpseld_core_lockout)
{
	static const char *const lac_c[] = { "route p t1 10.0.0.2", "route p t2 10.0.0.3",
					     "route q t1 10.0.0.2", "icrq-timeout 5s", NULL };
	static const char *const zlb_c[] = { "listen 10.0.0.2", "lns-mode silent-after-zlb", NULL };
	static const char *const ok_c[] = { "listen 10.0.0.3", NULL };
	struct h_node *lac, *zlb;
	uint64_t t0;

	h_reset();
	lac = h_node(lac_c);
	zlb = h_node(zlb_c);
	h_node(ok_c);
	h_login(lac, "alice@example", "p");
	h_run_for(5100);
	EXPECT_TRUE(h_has_line(lac, "done ok session 1 tunnel t2"));
	EXPECT_EQ(lac->sent[L2TP_MSG_ICRQ], 2);
	t0 = H->now;
	h_login(lac, "bob@example", "p");
	h_run_for(100);
	EXPECT_TRUE(h_has_line(lac, "done ok session 2 tunnel t2"));
	EXPECT_EQ(lac->sent[L2TP_MSG_ICRQ], 3);		/* t1 skipped: locked out */
	EXPECT_EQ(H->now - t0, 100);
	EXPECT_EQ(l2d_kernel_none_sessions(lac->d), 2);
	h_login(lac, "carol@example", "q");
	h_run_for(10);
	EXPECT_EQ(lac->sent[L2TP_MSG_ICRQ], 4);		/* its only destination: tried */
	EXPECT_EQ(zlb->sent[L2TP_MSG_ICRP], 0);
	/* carol's no-reply locked it again for 300 s: after that p tries t1 first */
	h_run_for(5000 + 300000);
	h_login(lac, "dave@example", "p");
	h_run_for(10);
	EXPECT_EQ(lac->sent[L2TP_MSG_ICRQ], 5);
	EXPECT_TRUE(h_has_line(lac, "attempt 1 tunnel t1 profile p"));
	h_fini();
}

/*
 * A late ICRP on a tunnel with a live session.  The LAC gives up the call
 * before the LNS's session ID is known: it must not send a CDN with Session
 * ID 0 (xl2tpd takes that for the tunnel and tears down every session in it:
 * the benchmark's runs of "Can not find tunnel"); the ICRP that comes later
 * is answered with a CDN naming the LNS's session; the live session and the
 * tunnel stay and carry the next login.
 */
static unsigned int cdn_sid0;

/* a CDN from the LAC (node 0) with Session ID 0 in its header */
static void tap_cdn_sid0(int from, const uint8_t *buf, size_t len)
{
	if (from == 0 && len >= 20 && l2tp_get16(buf + 6) == 0 &&
	    l2tp_get16(buf + 18) == L2TP_MSG_CDN)
		cdn_sid0++;
}

TEST(l2tpseld_late_icrp_cdn_keeps_tunnel)
{
	static const char *const lac_c[] = { "route p t1 10.0.0.2", "icrq-timeout 2s", NULL };
	struct h_node *lac, *lns;

	h_reset();
	lac = h_node(lac_c);
	lns = h_node(lns_plain);
	cdn_sid0 = 0;
	H->tap = tap_cdn_sid0;
	h_login(lac, "a@x", NULL);
	h_run_for(100);
	ASSERT_TRUE(h_has_line(lac, "done ok session 1"));

	lac->down = true;	/* the ICRP and its first retransmission are lost */
	h_login(lac, "b@x", NULL);
	h_run_for(2050);
	EXPECT_TRUE(h_has_line(lac, "outcome 1 no-reply"));
	EXPECT_EQ(lac->sent[L2TP_MSG_CDN], 0);
	EXPECT_EQ(h_sessions_in(lns, L2D_S_WAIT_ICCN), 1);
	lac->down = false;
	h_run_for(2000);	/* the LNS's ICRP again, at 3 s */
	EXPECT_EQ(lac->sent[L2TP_MSG_CDN], 1);
	EXPECT_EQ(h_sessions_in(lns, L2D_S_WAIT_ICCN), 0);
	EXPECT_EQ(h_sessions_in(lns, L2D_S_ESTABLISHED), 1);
	EXPECT_EQ(h_tunnels_in(lns, L2D_T_ESTABLISHED), 1);
	EXPECT_EQ(h_tunnels_in(lac, L2D_T_ESTABLISHED), 1);
	EXPECT_EQ(lac->sent[L2TP_MSG_STOPCCN], 0);

	h_login(lac, "c@x", NULL);
	h_run_for(100);
	EXPECT_TRUE(h_has_line(lac, "done ok session 3"));
	EXPECT_EQ(h_sessions_in(lns, L2D_S_ESTABLISHED), 2);
	EXPECT_EQ(lac->sent[L2TP_MSG_SCCRQ], 1);	/* one tunnel throughout */
	EXPECT_EQ(cdn_sid0, 0);
	H->tap = NULL;
	h_fini();
}

/* An always-CDN LNS: the login ends with the CDN, no failover. */
TEST(l2tpseld_cdn_ends_login)
{
	static const char *const lac_c[] = { "route p t1 10.0.0.2", "route p t2 10.0.0.3", NULL };
	static const char *const cdn_c[] = { "listen 10.0.0.2", "lns-mode cdn 5 7", NULL };
	struct h_node *lac;

	h_reset();
	lac = h_node(lac_c);
	h_node(cdn_c);
	h_node(lns_plain);
	h_login(lac, "alice@example", NULL);
	h_run_for(100);
	EXPECT_TRUE(h_has_line(lac, "outcome 1 cdn result 5 error 7"));
	EXPECT_TRUE(h_has_line(lac, "done fail reason cdn attempts 1"));
	EXPECT_TRUE(!h_has_line(lac, "attempt 2"));
	EXPECT_EQ(lac->sent[L2TP_MSG_STOPCCN], 1);
	h_fini();
}

/* S-LIM-7: the LNS's admission refuses with CDN 4/4. */
TEST(l2tpseld_lns_admission_refusal)
{
	static const char *const lns_c[] = { "listen 10.0.0.2", "test-chassis-limit 1", NULL };
	struct h_node *lac, *lns;

	h_reset();
	lac = h_node(lac_one);
	lns = h_node(lns_c);
	h_login(lac, "a@x", NULL);
	h_run_for(100);
	h_login(lac, "b@x", NULL);
	h_run_for(100);
	EXPECT_TRUE(h_has_line(lac, "outcome 1 cdn result 4 error 4"));
	EXPECT_EQ(lns->d->stats.sessions_refused, 1);
	EXPECT_EQ(l2d_kernel_none_sessions(lns->d), 1);
	EXPECT_EQ(l2d_kernel_none_sessions(lac->d), 1);
	EXPECT_EQ(h_sessions_in(lac, L2D_S_ESTABLISHED), 1);
	h_fini();
}

/* LAC-role admission refuses after the login succeeded: CDN 4/4 to the LNS. */
TEST(l2tpseld_lac_admission_refusal)
{
	static const char *const lac_c[] = { "route p t1 10.0.0.2", "test-chassis-limit 1", NULL };
	struct h_node *lac, *lns;

	h_reset();
	lac = h_node(lac_c);
	lns = h_node(lns_plain);
	h_login(lac, "a@x", NULL);
	h_login(lac, "b@x", NULL);
	h_run_for(100);
	EXPECT_TRUE(h_has_line(lac, "done fail reason refused level 0"));
	EXPECT_EQ(lac->sent[L2TP_MSG_CDN], 1);
	EXPECT_EQ(h_sessions_in(lns, L2D_S_ESTABLISHED), 1);
	EXPECT_EQ(l2d_kernel_none_sessions(lns->d), 1);
	h_fini();
}

/* StopCCN from the LNS: established sessions go down, counts released. */
TEST(l2tpseld_peer_stopccn)
{
	struct h_node *lac, *lns;

	h_reset();
	lac = h_node(lac_one);
	lns = h_node(lns_plain);
	h_login(lac, "a@x", NULL);
	h_run_for(100);
	ASSERT_TRUE(lns->d->tunnels != NULL);
	l2d_tunnel_stop(lns->d->tunnels, L2TP_STOPCCN_SHUTTING_DOWN, 0, NULL);
	h_run_for(100);
	EXPECT_EQ(l2d_kernel_none_sessions(lac->d), 0);
	EXPECT_EQ(l2d_kernel_none_sessions(lns->d), 0);
	EXPECT_EQ(h_tunnels_in(lac, L2D_T_CLOSING), 1);
	EXPECT_EQ(lac->d->tunnels->stop_result, L2TP_STOPCCN_SHUTTING_DOWN);
	EXPECT_EQ(lac->sent[L2TP_MSG_STOPCCN], 0);	/* never answer a StopCCN with one */
	EXPECT_TRUE(lac->sent[0] >= 1);			/* it is acknowledged */
	h_fini();
}

/* StopCCN during setup: outcome stopccn with the LNS's result and error. */
TEST(l2tpseld_stopccn_during_setup)
{
	static const char *const lns_c[] = { "listen 10.0.0.2", "lns-mode silent-after-zlb", NULL };
	struct h_node *lac, *lns;

	h_reset();
	lac = h_node(lac_one);
	lns = h_node(lns_c);
	h_login(lac, "a@x", NULL);
	h_run_for(100);
	l2d_tunnel_stop(lns->d->tunnels, L2TP_STOPCCN_GENERAL_ERROR, 6, "vendor");
	h_run_for(100);
	EXPECT_TRUE(h_has_line(lac, "outcome 1 stopccn result 2 error 6"));
	EXPECT_TRUE(h_has_line(lac, "done fail reason stopccn"));
	h_fini();
}

/* The API client goes away during setup: outcome client-gone, CDN to the LNS. */
TEST(l2tpseld_client_gone)
{
	static const char *const lns_c[] = { "listen 10.0.0.2", "lns-mode silent-after-zlb", NULL };
	struct h_node *lac;
	struct l2d_login *lg;

	h_reset();
	lac = h_node(lac_one);
	h_node(lns_c);
	lg = h_login(lac, "a@x", NULL);
	h_run_for(100);
	ASSERT_TRUE(lg != NULL);
	lg->client = NULL;	/* the harness's client line sink is gone too */
	l2d_login_client_gone(lg);
	h_run_for(100);
	/* the LNS never gave its session ID: no CDN, the tunnel's StopCCN clears the call */
	EXPECT_EQ(lac->sent[L2TP_MSG_CDN], 0);
	EXPECT_EQ(lac->sent[L2TP_MSG_STOPCCN], 1);
	EXPECT_TRUE(lac->d->logins == NULL);
	EXPECT_EQ(lac->d->stats.logins_failed, 1);
	h_fini();
}

/* A lost SCCRP: the LAC retransmits its SCCRQ, the LNS keeps one tunnel. */
TEST(l2tpseld_lost_sccrp_duplicate_sccrq)
{
	struct h_node *lac, *lns;

	h_reset();
	lac = h_node(lac_one);
	lns = h_node(lns_plain);
	H->drop_from = 1;
	H->drop_nth = 1;	/* the LNS's first datagram, the SCCRP */
	h_login(lac, "a@x", NULL);
	h_run_for(3000);
	EXPECT_EQ(H->dropped, 1);
	EXPECT_EQ(lac->sent[L2TP_MSG_SCCRQ], 2);
	EXPECT_EQ(lns->d->n_tunnels, 1);
	EXPECT_TRUE(h_has_line(lac, "done ok"));
	h_fini();
}

/* Lost ICCN: the LNS acks nothing, the LAC retransmits, the LNS comes up. */
TEST(l2tpseld_lost_iccn)
{
	struct h_node *lac, *lns;

	h_reset();
	lac = h_node(lac_one);
	lns = h_node(lns_plain);
	H->drop_from = 0;
	H->drop_nth = 4;	/* SCCRQ, SCCCN, ICRQ, ICCN */
	h_login(lac, "a@x", NULL);
	h_run_for(100);
	EXPECT_EQ(h_sessions_in(lns, L2D_S_WAIT_ICCN), 1);
	h_run_for(2000);
	EXPECT_EQ(lac->sent[L2TP_MSG_ICCN], 2);
	EXPECT_EQ(h_sessions_in(lns, L2D_S_ESTABLISHED), 1);
	h_fini();
}

/* §4.4.3 Tie Breaker: two agents set up tunnels to each other at once. */
TEST(l2tpseld_tie_breaker)
{
	static const char *const a_c[] = { "listen 10.0.0.1", "route p ta 10.0.0.2", NULL };
	static const char *const b_c[] = { "listen 10.0.0.2", "route p tb 10.0.0.1", NULL };
	struct h_node *a, *b;

	h_reset();
	a = h_node(a_c);
	b = h_node(b_c);
	h_login(a, "a@x", NULL);
	h_login(b, "b@x", NULL);
	h_run_for(200);
	EXPECT_TRUE(h_has_line(a, "done ok"));
	EXPECT_TRUE(h_has_line(b, "done ok"));
	/* one tunnel survives on each side, carrying both calls */
	EXPECT_EQ(h_tunnels_in(a, L2D_T_ESTABLISHED), 1);
	EXPECT_EQ(h_tunnels_in(b, L2D_T_ESTABLISHED), 1);
	EXPECT_EQ(h_sessions_in(a, L2D_S_ESTABLISHED), 2);
	EXPECT_EQ(h_sessions_in(b, L2D_S_ESTABLISHED), 2);
	h_fini();
}

/*
 * §4.4.3: "If a tie breaker is received, and an outstanding SCCRQ had no tie
 * breaker value, the initiator which included the Tie Breaker AVP wins": a
 * sends none, b does; a's tunnel goes, both calls ride b's.
 */
TEST(l2tpseld_tie_breaker_only_peer)
{
	static const char *const a_c[] = { "listen 10.0.0.1", "route p ta 10.0.0.2",
					   "tie-breaker no", NULL };
	static const char *const b_c[] = { "listen 10.0.0.2", "route p tb 10.0.0.1", NULL };
	struct h_node *a, *b;

	h_reset();
	a = h_node(a_c);
	b = h_node(b_c);
	h_login(a, "a@x", NULL);
	h_login(b, "b@x", NULL);
	h_run_for(200);
	EXPECT_TRUE(h_has_line(a, "done ok"));
	EXPECT_TRUE(h_has_line(b, "done ok"));
	EXPECT_EQ(h_tunnels_in(a, L2D_T_ESTABLISHED), 1);
	EXPECT_EQ(h_tunnels_in(b, L2D_T_ESTABLISHED), 1);
	EXPECT_EQ(h_sessions_in(a, L2D_S_ESTABLISHED), 2);
	EXPECT_EQ(h_sessions_in(b, L2D_S_ESTABLISHED), 2);
	/* a answered b's SCCRQ; b never answered a's */
	EXPECT_EQ(a->sent[L2TP_MSG_SCCRP], 1);
	EXPECT_EQ(b->sent[L2TP_MSG_SCCRP], 0);
	h_fini();
}

/*
 * An agent with @calls logins waiting on its outstanding tunnel to
 * 10.0.0.2 gets that peer's SCCRQ carrying a Tie Breaker equal to its own.
 */
static struct h_node *equal_tie(unsigned int calls)
{
	static const char *const a_c[] = { "listen 10.0.0.1", "route p ta 10.0.0.2", NULL };
	struct l2tp_builder b;
	struct l2d_tunnel *t;
	struct h_node *a;
	struct l2d_addr p;
	uint8_t buf[256];
	char user[16];
	unsigned int i;

	a = h_node(a_c);
	for (i = 0; i < calls; i++) {
		snprintf(user, sizeof(user), "u%u@x", i);
		h_login(a, user, NULL);
	}
	h_run_for(10);
	t = a->d->tunnels;
	if (!t || !t->tb_sent || t->state != L2D_T_WAIT_SCCRP || t->n_sessions != calls)
		return NULL;
	l2d_parse_addr("10.0.0.2", 1701, &p.ss, &p.len);
	l2tp_build_begin(&b, buf, sizeof(buf), 0, 0, L2TP_MSG_SCCRQ, NULL);
	l2tp_put_u16(&b, L2TP_AVP_PROTOCOL_VERSION, L2TP_PROTOCOL_VERSION);
	l2tp_put_string(&b, L2TP_AVP_HOST_NAME, "peer");
	l2tp_put_u32(&b, L2TP_AVP_FRAMING_CAPS, 3);
	l2tp_put_u16(&b, L2TP_AVP_ASSIGNED_TUNNEL_ID, 99);
	l2tp_put_u64(&b, L2TP_AVP_TIE_BREAKER, t->tie_breaker);
	h_inject(a, &p, buf, l2tp_build_end(&b));
	h_run_for(10);
	return a;
}

/*
 * Equal Tie Breakers: both sides silently discard their tunnels; the SCCRQ
 * that tied gets no SCCRP, and the call on the lost tunnel fails as a local
 * failure (the LNS is not locked out).
 */
TEST(l2tpseld_tie_breaker_equal_no_sccrp)
{
	struct h_node *a;

	h_reset();
	a = equal_tie(1);
	ASSERT_TRUE(a != NULL);
	EXPECT_EQ(a->sent[L2TP_MSG_SCCRP], 0);
	EXPECT_EQ(h_tunnels_in(a, L2D_T_WAIT_SCCRP), 0);
	if (!h_has_line(a, "outcome 1 local"))
		h_dump_lines(a);
	EXPECT_TRUE(h_has_line(a, "outcome 1 local"));
	h_fini();
}

/*
 * Equal Tie Breakers with three calls waiting on the lost tunnel: every one
 * ends as a local failure, none is left behind on the discarded tunnel.
 */
TEST(l2tpseld_tie_breaker_equal_every_call_ends)
{
	struct h_node *a;

	h_reset();
	a = equal_tie(3);
	ASSERT_TRUE(a != NULL);
	EXPECT_TRUE(h_has_line(a, "outcome 1 local"));
	EXPECT_EQ(a->n_done_ok + a->n_done_fail, 3);
	EXPECT_EQ(a->d->n_sessions, 0);
	EXPECT_TRUE(a->d->logins == NULL);
	h_fini();
}

/* Established tunnel: HELLO keepalives; a dead peer drops the sessions. */
TEST(l2tpseld_hello_dead_peer)
{
	static const char *const lac_c[] = { "route p t1 10.0.0.2", "hello-interval 20s",
					     "retries-established 3", NULL };
	struct h_node *lac, *lns;

	h_reset();
	lac = h_node(lac_c);
	lns = h_node(lns_plain);
	h_login(lac, "a@x", NULL);
	h_run_for(100);
	EXPECT_EQ(l2d_kernel_none_sessions(lac->d), 1);
	h_run_for(20000);
	EXPECT_EQ(lac->sent[L2TP_MSG_HELLO], 1);
	lns->down = true;
	/* next HELLO at 40 s, resent at 41, 43, 47, given up at 55 s */
	h_run_for(33000);
	EXPECT_EQ(l2d_kernel_none_sessions(lac->d), 1);
	h_run_for(2000);
	EXPECT_EQ(lac->sent[L2TP_MSG_HELLO], 5);
	EXPECT_EQ(l2d_kernel_none_sessions(lac->d), 0);
	EXPECT_EQ(h_sessions_in(lac, L2D_S_ESTABLISHED), 0);
	h_fini();
}

/* ---- crafted messages (S-L2TP-3) ---- */

static struct l2d_addr peer_addr(void)
{
	struct l2d_addr a;

	l2d_parse_addr("10.0.0.9", 1701, &a.ss, &a.len);
	return a;
}

TEST(l2tpseld_crafted_sccrq_duplicate_and_version)
{
	static const char *const lns_c[] = { "listen 10.0.0.1", NULL };	/* the only node */
	struct h_node *lns;
	struct l2d_addr p = peer_addr();
	uint8_t buf[256];
	size_t len;

	h_reset();
	lns = h_node(lns_c);
	len = h_craft_sccrq(buf, sizeof(buf), 77, false);
	h_inject(lns, &p, buf, len);
	h_inject(lns, &p, buf, len);	/* retransmission: same tunnel, acked */
	h_run_for(10);
	EXPECT_EQ(lns->d->n_tunnels, 1);
	EXPECT_EQ(lns->sent[L2TP_MSG_SCCRP], 1);
	EXPECT_TRUE(lns->sent[0] >= 1);
	EXPECT_EQ(h_tunnels_in(lns, L2D_T_WAIT_SCCCN), 1);
	/*
	 * no SCCCN, no ack: SCCRP resent at 1, 3, 7 s; the setup timer (10 s)
	 * clears the tunnel; its StopCCN waits behind the unacked SCCRP (CWND 1)
	 */
	h_run_for(10000);
	EXPECT_EQ(lns->sent[L2TP_MSG_SCCRP], 4);
	EXPECT_EQ(h_tunnels_in(lns, L2D_T_CLOSING), 1);
	/* a wrong protocol version: StopCCN result 5, error 0x100 (§4.4.2) */
	len = h_craft_sccrq(buf, sizeof(buf), 78, true);
	h_inject(lns, &p, buf, len);
	h_run_for(10);
	EXPECT_EQ(lns->sent[L2TP_MSG_STOPCCN], 1);
	EXPECT_EQ(lns->sent[L2TP_MSG_SCCRP], 4);
	/* no Assigned Tunnel ID: dropped, nothing created */
	len = h_craft_sccrq(buf, sizeof(buf), 0, false);
	h_inject(lns, &p, buf, len);
	h_run_for(10);
	EXPECT_EQ(lns->d->n_tunnels, 2);
	EXPECT_EQ(lns->sent[L2TP_MSG_SCCRP], 4);
	h_fini();
}

TEST(l2tpseld_crafted_garbage_and_unknown_tunnel)
{
	struct h_node *lns;
	struct l2d_addr p = peer_addr();
	uint8_t buf[64] = { 0xc8, 0x02, 0x00, 0x0c, 0x12, 0x34, 0, 0, 0, 0, 0, 0 };
	unsigned int i;

	h_reset();
	lns = h_node(lns_plain);
	h_inject(lns, &p, buf, 12);		/* ZLB for a tunnel we do not have */
	h_inject(lns, &p, buf, 5);		/* short */
	for (i = 0; i < 64; i++)
		buf[i] = (uint8_t)(i * 37);
	h_inject(lns, &p, buf, sizeof(buf));	/* garbage */
	h_run_for(10);
	EXPECT_EQ(lns->d->n_tunnels, 0);
	EXPECT_EQ(lns->d->stats.rx_no_tunnel, 1);
	EXPECT_EQ(lns->d->stats.rx_discard, 2);
	h_fini();
}

/* A message out of sequence (SCCRP on an established tunnel): StopCCN 7 (§7.1). */
TEST(l2tpseld_crafted_wrong_state)
{
	struct h_node *lac, *lns;
	struct l2tp_builder b;
	struct l2d_tunnel *t;
	uint8_t buf[256];
	size_t len;

	h_reset();
	lac = h_node(lac_one);
	lns = h_node(lns_plain);
	h_login(lac, "a@x", NULL);
	h_run_for(100);
	t = lac->d->tunnels;
	ASSERT_TRUE(t && t->state == L2D_T_ESTABLISHED);
	/* as the LNS would: next Ns in sequence */
	l2tp_build_begin(&b, buf, sizeof(buf), t->tid, 0, L2TP_MSG_SCCRP, NULL);
	l2tp_put_u16(&b, L2TP_AVP_PROTOCOL_VERSION, L2TP_PROTOCOL_VERSION);
	l2tp_put_string(&b, L2TP_AVP_HOST_NAME, "x");
	l2tp_put_u32(&b, L2TP_AVP_FRAMING_CAPS, 3);
	l2tp_put_u16(&b, L2TP_AVP_ASSIGNED_TUNNEL_ID, 5);
	len = l2tp_build_end(&b);
	l2tp_hdr_set_seq(buf, t->rel.nr, t->rel.ns_sent);
	h_inject(lac, &lns->addr, buf, len);
	h_run_for(10);
	EXPECT_EQ(lac->sent[L2TP_MSG_STOPCCN], 1);
	EXPECT_EQ(l2d_kernel_none_sessions(lac->d), 0);
	h_fini();
}

/* An ICRQ without its Call Serial Number: CDN (required AVP missing), no session. */
TEST(l2tpseld_crafted_bad_icrq)
{
	struct h_node *lac, *lns;
	struct l2tp_builder b;
	struct l2d_tunnel *t;
	uint8_t buf[256];
	size_t len;

	h_reset();
	lac = h_node(lac_one);
	lns = h_node(lns_plain);
	h_login(lac, "a@x", NULL);
	h_run_for(100);
	t = lns->d->tunnels;
	ASSERT_TRUE(t && t->state == L2D_T_ESTABLISHED);
	l2tp_build_begin(&b, buf, sizeof(buf), t->tid, 0, L2TP_MSG_ICRQ, NULL);
	l2tp_put_u16(&b, L2TP_AVP_ASSIGNED_SESSION_ID, 99);
	len = l2tp_build_end(&b);
	l2tp_hdr_set_seq(buf, t->rel.nr, t->rel.ns_sent);
	h_inject(lns, &lac->addr, buf, len);
	h_run_for(10);
	EXPECT_EQ(lns->sent[L2TP_MSG_CDN], 1);
	EXPECT_EQ(h_sessions_in(lns, L2D_S_ESTABLISHED), 1);
	EXPECT_EQ(lns->d->n_sessions, 1);
	EXPECT_EQ(l2d_kernel_none_sessions(lns->d), 1);
	h_fini();
}

/* ---- the rate limiter's verdicts (RL_CHECK, Documentation/ratelimit.md) ---- */

TEST(l2tpseld_rl_login_and_attempt)
{
	static const char *const lac_r[] = { "route p t1 10.0.0.2", "test-ratelimit-verdict login reject",
					     NULL };
	static const char *const lac_a[] = { "route p t1 10.0.0.2", "route p t2 10.0.0.3",
					     "test-ratelimit-verdict attempt drop", NULL };
	struct h_node *lac;
	char err[128];

	h_reset();
	lac = h_node(lac_r);
	h_node(lns_plain);
	EXPECT_EQ(l2d_login_start(lac->d, &(struct l2d_login_req){
			.client = (struct api_conn *)&lac->client, .user = "a@x" },
		err, sizeof(err)), 0);
	EXPECT_STREQ(err, "rate limited by test-ratelimit-verdict: rate limit exceeded");
	EXPECT_EQ(lac->sent[L2TP_MSG_SCCRQ], 0);
	EXPECT_EQ(lac->d->stats.rl_rejected, 1);
	/* an attempt our own limiter refuses is not sent: local, nobody blamed */
	h_reset();
	lac = h_node(lac_a);
	h_node(lns_plain);
	h_login(lac, "a@x", NULL);
	h_run_for(100);
	EXPECT_TRUE(h_has_line(lac, "attempt 1 tunnel t1 profile p remote 10.0.0.2 "
			       "rate-limited by test-ratelimit-verdict"));
	EXPECT_TRUE(h_has_line(lac, "outcome 1 local"));
	EXPECT_TRUE(h_has_line(lac, "outcome 2 local"));
	EXPECT_EQ(lac->n_no_reply, 0);
	EXPECT_TRUE(h_has_line(lac, "done fail reason exhausted attempts 2"));
	EXPECT_EQ(lac->sent[L2TP_MSG_SCCRQ], 0);
	EXPECT_EQ(lac->d->n_tunnels, 0);
	h_fini();
}

TEST(l2tpseld_rl_lns_sccrq_icrq)
{
	static const char *const sr[] = { "listen 10.0.0.2", "test-ratelimit-verdict sccrq reject", NULL };
	static const char *const sd[] = { "listen 10.0.0.2", "test-ratelimit-verdict sccrq drop", NULL };
	static const char *const ir[] = { "listen 10.0.0.2", "test-ratelimit-verdict icrq reject", NULL };
	static const char *const id[] = { "listen 10.0.0.2", "test-ratelimit-verdict icrq drop", NULL };
	struct h_node *lac, *lns;

	/* SCCRQ rejected: StopCCN with the limit's codes */
	h_reset();
	lac = h_node(lac_one);
	lns = h_node(sr);
	h_login(lac, "a@x", NULL);
	h_run_for(100);
	EXPECT_EQ(lns->sent[L2TP_MSG_SCCRP], 0);
	EXPECT_EQ(lns->sent[L2TP_MSG_STOPCCN], 1);
	EXPECT_TRUE(h_has_line(lac, "outcome 1 stopccn result 2 error 4"));
	/* SCCRQ dropped: nothing at all, the LAC's setup timeout */
	h_reset();
	lac = h_node(lac_one);
	lns = h_node(sd);
	h_login(lac, "a@x", NULL);
	h_run_for(10100);
	EXPECT_EQ(lns->sent[0] + lns->sent[L2TP_MSG_SCCRP] + lns->sent[L2TP_MSG_STOPCCN], 0);
	EXPECT_EQ(lns->d->stats.rl_dropped, 4);	/* the SCCRQ and its 3 retransmissions */
	EXPECT_TRUE(h_has_line(lac, "outcome 1 no-reply"));
	/* ICRQ rejected: CDN with the codes; the tunnel stays for other calls */
	h_reset();
	lac = h_node(lac_one);
	lns = h_node(ir);
	h_login(lac, "a@x", NULL);
	h_run_for(100);
	EXPECT_TRUE(h_has_line(lac, "outcome 1 cdn result 2 error 4"));
	EXPECT_EQ(l2d_kernel_none_sessions(lns->d), 0);
	/* ICRQ dropped: acknowledged, never answered: the ICRQ timeout */
	h_reset();
	lac = h_node(lac_one);
	lns = h_node(id);
	h_login(lac, "a@x", NULL);
	h_run_for(10100);
	EXPECT_EQ(lns->sent[L2TP_MSG_ICRP] + lns->sent[L2TP_MSG_CDN], 0);
	EXPECT_TRUE(h_has_line(lac, "outcome 1 no-reply"));
	h_fini();
}

/* The LNS places a call to a LAC without listen: CDN 5, nothing counted. */
TEST(l2tpseld_lac_refuses_incoming_call)
{
	struct h_node *lac, *lns;
	struct l2d_session *s;

	h_reset();
	lac = h_node(lac_one);
	lns = h_node(lns_plain);
	h_login(lac, "a@x", NULL);
	h_run_for(100);
	ASSERT_EQ(lac->n_done_ok, 1);
	s = l2d_session_new(lns->d->tunnels, true);
	ASSERT_TRUE(s != NULL);
	l2d_session_tunnel_up(s);	/* ICRQ from the LNS */
	h_run_for(100);
	EXPECT_EQ(lns->sent[L2TP_MSG_ICRQ], 1);
	EXPECT_EQ(lac->sent[L2TP_MSG_ICRP], 0);
	EXPECT_EQ(lac->sent[L2TP_MSG_CDN], 1);
	EXPECT_EQ(lac->d->stats.calls_refused, 1);
	EXPECT_EQ(l2d_kernel_none_sessions(lac->d), 1);		/* only the login's session */
	EXPECT_EQ(h_sessions_in(lac, L2D_S_ESTABLISHED), 1);
	EXPECT_EQ(lac->d->n_sessions, 1);
	EXPECT_EQ(lns->d->n_sessions, 1);		/* its call was cleared by the CDN */
	EXPECT_EQ(h_tunnels_in(lac, L2D_T_ESTABLISHED), 1);
	h_fini();
}

/* §6.7: an OCRQ is refused with a CDN to the peer's session; the tunnel stays. */
TEST(l2tpseld_ocrq_refused_with_cdn)
{
	static const char *const both[] = { "route p t1 10.0.0.2", "listen 10.0.0.1", NULL };
	struct h_node *lac, *lns;
	struct l2tp_builder b;
	uint8_t buf[256];
	struct l2d_tunnel *t;

	h_reset();
	lac = h_node(both);
	lns = h_node(lns_plain);
	h_login(lac, "a@x", NULL);
	h_run_for(100);
	ASSERT_EQ(lac->n_done_ok, 1);
	t = lns->d->tunnels;
	l2d_tunnel_builder(t, &b, buf, sizeof(buf), 0, L2TP_MSG_OCRQ);
	l2tp_put_u16(&b, L2TP_AVP_ASSIGNED_SESSION_ID, 4242);
	l2tp_put_u32(&b, L2TP_AVP_CALL_SERIAL_NUMBER, 1);
	l2tp_put_u32(&b, L2TP_AVP_MINIMUM_BPS, 1);
	l2tp_put_u32(&b, L2TP_AVP_MAXIMUM_BPS, 1000000);
	l2tp_put_u32(&b, L2TP_AVP_BEARER_TYPE, 2);
	l2tp_put_u32(&b, L2TP_AVP_FRAMING_TYPE, 1);
	l2tp_put_string(&b, L2TP_AVP_CALLED_NUMBER, "5551234");
	ASSERT_EQ(l2d_tunnel_queue(t, buf, l2tp_build_end(&b)), 0);
	l2d_tunnel_flush(t);
	h_run_for(100);
	EXPECT_EQ(lac->sent[L2TP_MSG_CDN], 1);
	EXPECT_EQ(lac->sent[L2TP_MSG_OCRP], 0);
	EXPECT_EQ(lac->d->stats.calls_refused, 1);
	EXPECT_EQ(lac->d->n_sessions, 1);
	EXPECT_EQ(h_tunnels_in(lac, L2D_T_ESTABLISHED), 1);
	EXPECT_EQ(h_tunnels_in(lns, L2D_T_ESTABLISHED), 1);
	h_fini();
}

/* ---- the data path (dataplane kernel) failing ---- */

static int fake_dp_tunnels_fail, fake_dp_sessions_fail, fake_dp_sessions, fake_dp_seq;

static int fake_tunnel_add(struct l2d *d, struct l2d_tunnel *t)
{
	return fake_dp_tunnels_fail ? (fake_dp_tunnels_fail--, -1) : 0;
}

static void fake_tunnel_del(struct l2d *d, struct l2d_tunnel *t)
{
}

static int fake_session_add(struct l2d *d, struct l2d_session *s)
{
	if (fake_dp_sessions_fail) {
		fake_dp_sessions_fail--;
		return -1;
	}
	fake_dp_sessions++;
	fake_dp_seq += s->seq;
	return 0;
}

static void fake_session_del(struct l2d *d, struct l2d_session *s)
{
	fake_dp_sessions--;
}

static const struct l2d_dpops fake_dp = {
	.tunnel_add = fake_tunnel_add, .tunnel_del = fake_tunnel_del,
	.session_add = fake_session_add, .session_del = fake_session_del,
};

/*
 * No kernel session or pppd for the call: it is cleared with CDN 4, the
 * login tries the next LNS (outcome local, nobody blamed), nothing stays
 * counted; on the LNS side the same for its half.
 */
TEST(l2tpseld_dataplane_failure_ends_the_call)
{
	static const char *const lac_two[] = { "route p t1 10.0.0.2", "route p t2 10.0.0.3", NULL };
	static const char *const lns3[] = { "listen 10.0.0.3", NULL };
	struct h_node *lac, *lns, *lnsb;

	h_reset();
	lac = h_node(lac_two);
	lns = h_node(lns_plain);
	lnsb = h_node(lns3);
	lac->d->dpops = &fake_dp;
	fake_dp_sessions = 0;
	fake_dp_sessions_fail = 1;
	fake_dp_tunnels_fail = 0;
	h_login(lac, "a@x", NULL);
	h_run_for(1000);
	EXPECT_TRUE(h_has_line(lac, "outcome 1 local"));
	EXPECT_TRUE(h_has_line(lac, "outcome 2 ok"));
	EXPECT_EQ(lac->n_done_ok, 1);
	EXPECT_EQ(lac->sent[L2TP_MSG_ICCN], 1);		/* only to the second LNS */
	EXPECT_EQ(lac->sent[L2TP_MSG_CDN], 1);
	EXPECT_EQ(l2d_kernel_none_sessions(lac->d), 1);
	EXPECT_EQ(l2d_kernel_none_sessions(lns->d), 0);		/* the first LNS released its call */
	EXPECT_EQ(l2d_kernel_none_sessions(lnsb->d), 1);
	EXPECT_EQ(fake_dp_sessions, 1);

	/* no kernel tunnel: StopCCN, the login goes on elsewhere */
	h_reset();
	lac = h_node(lac_two);
	h_node(lns_plain);
	h_node(lns3);
	lac->d->dpops = &fake_dp;
	fake_dp_sessions = 0;
	fake_dp_tunnels_fail = 1;
	h_login(lac, "b@x", NULL);
	h_run_for(1000);
	EXPECT_TRUE(h_has_line(lac, "outcome 1 local"));
	EXPECT_TRUE(h_has_line(lac, "outcome 2 ok"));
	EXPECT_EQ(lac->sent[L2TP_MSG_STOPCCN], 1);
	EXPECT_EQ(l2d_kernel_none_sessions(lac->d), 1);
	EXPECT_EQ(fake_dp_sessions, 1);

	/* the LNS without a data path for the call: CDN 4 after the ICCN */
	h_reset();
	lac = h_node(lac_one);
	lns = h_node(lns_plain);
	lns->d->dpops = &fake_dp;
	fake_dp_sessions = 0;
	fake_dp_tunnels_fail = 0;
	fake_dp_sessions_fail = 1;
	h_login(lac, "c@x", NULL);
	h_run_for(1000);
	EXPECT_EQ(lns->sent[L2TP_MSG_CDN], 1);
	EXPECT_EQ(l2d_kernel_none_sessions(lns->d), 0);
	EXPECT_EQ(l2d_kernel_none_sessions(lac->d), 0);		/* the LAC's session ended by that CDN */
	EXPECT_EQ(lns->d->stats.sessions_failed, 1);
	EXPECT_EQ(fake_dp_sessions, 0);
	h_fini();
}

/*
 * RFC 2661 section 4.4.6: with data-sequencing, the LAC's ICCN carries
 * Sequencing Required and both sides create the kernel session with
 * numbered data; without it, neither does.
 */
TEST(l2tpseld_sequencing_required_numbers_the_data)
{
	static const char *const lac_seq[] = { "route p t1 10.0.0.2", "data-sequencing yes", NULL };
	struct h_node *lac, *lns;
	int with;

	for (with = 0; with < 2; with++) {
		h_reset();
		lac = h_node(with ? lac_seq : lac_one);
		lns = h_node(lns_plain);
		lac->d->dpops = &fake_dp;
		lns->d->dpops = &fake_dp;
		fake_dp_sessions = fake_dp_seq = fake_dp_tunnels_fail = fake_dp_sessions_fail = 0;
		h_login(lac, "a@x", NULL);
		h_run_for(1000);
		EXPECT_EQ(lac->n_done_ok, 1);
		EXPECT_EQ(fake_dp_sessions, 2);			/* the LAC's and the LNS's */
		EXPECT_EQ(fake_dp_seq, with ? 2 : 0);
		h_fini();
	}
}

/*
 * A data path made off the loop (the access side's bridge waits for a
 * worker, offload.h): the ICCN is queued when the worker is done, after
 * the ICRP's acknowledgement has gone.  It is sent then, not at the
 * tunnel's next event (the LNS's HELLO, 60 s later on a quiet tunnel).
 */
static struct l2d_session *async_dp_s;

static int async_session_add(struct l2d *d, struct l2d_session *s)
{
	fake_dp_sessions++;
	async_dp_s = s;
	return 1;		/* under way: l2d_session_bridged() follows */
}

static const struct l2d_dpops async_dp = {
	.tunnel_add = fake_tunnel_add, .tunnel_del = fake_tunnel_del,
	.session_add = async_session_add, .session_del = fake_session_del,
};

TEST(l2tpseld_iccn_sent_when_the_bridge_is_made)
{
	struct h_node *lac, *lns;

	h_reset();
	lac = h_node(lac_one);
	lns = h_node(lns_plain);
	lac->d->dpops = &async_dp;
	fake_dp_sessions = fake_dp_tunnels_fail = fake_dp_sessions_fail = 0;
	async_dp_s = NULL;
	h_login(lac, "a@x", NULL);
	h_run_for(2000);		/* the ICRP in and acknowledged, the bridge under way */
	ASSERT_TRUE(async_dp_s != NULL);
	EXPECT_EQ(lac->sent[L2TP_MSG_ICCN], 0);
	l2d_session_bridged(async_dp_s, 0);
	EXPECT_EQ(lac->sent[L2TP_MSG_ICCN], 1);	/* at once */
	h_run_for(500);
	EXPECT_EQ(lac->n_done_ok, 1);
	EXPECT_EQ(l2d_kernel_none_sessions(lns->d), 1);
	h_fini();
}

/*
 * Whatever queues a message, a path that forgets to flush included, it
 * leaves by the end of the loop's turn (S-STORM-4): a HELLO queued on a
 * quiet tunnel, and nothing else done, is on the wire a millisecond later.
 */
TEST(l2tpseld_queued_message_leaves_by_the_end_of_the_turn)
{
	struct h_node *lac, *lns;
	struct l2tp_builder b;
	struct l2d_tunnel *t;
	uint8_t buf[128];

	h_reset();
	lac = h_node(lac_one);
	lns = h_node(lns_plain);
	h_login(lac, "a@x", NULL);
	h_run_for(1000);
	ASSERT_EQ(lac->n_done_ok, 1);
	t = lac->d->tunnels;
	ASSERT_TRUE(t != NULL && l2tp_rel_all_acked(&t->rel));
	ASSERT_EQ(lac->sent[L2TP_MSG_HELLO], 0);
	l2d_tunnel_builder(t, &b, buf, sizeof(buf), 0, L2TP_MSG_HELLO);
	ASSERT_EQ(l2d_tunnel_queue(t, buf, l2tp_build_end(&b)), 0);
	h_run_for(1);
	EXPECT_EQ(lac->sent[L2TP_MSG_HELLO], 1);
	EXPECT_TRUE(lns->d != NULL);
	h_fini();
}

/* §5.7: a second StopCCN while closing is acknowledged; the hold runs from the first. */
TEST(l2tpseld_stopccn_while_closing_keeps_the_hold)
{
	struct h_node *lac, *lns;
	struct l2tp_builder b;
	struct l2d_tunnel *t;
	uint8_t buf[128];

	h_reset();
	lac = h_node(lac_one);
	lns = h_node(lns_plain);
	h_login(lac, "a@x", NULL);
	h_run_for(100);
	t = lns->d->tunnels;
	ASSERT_TRUE(t != NULL);
	l2d_tunnel_stop(t, L2TP_STOPCCN_SHUTTING_DOWN, 0, NULL);
	h_run_for(20000);
	EXPECT_EQ(h_tunnels_in(lac, L2D_T_CLOSING), 1);
	/* the LNS says it again, 20 s later */
	l2d_tunnel_builder(t, &b, buf, sizeof(buf), 0, L2TP_MSG_STOPCCN);
	l2tp_put_u16(&b, L2TP_AVP_ASSIGNED_TUNNEL_ID, t->tid);
	l2tp_put_result(&b, L2TP_STOPCCN_SHUTTING_DOWN, -1, NULL);
	ASSERT_EQ(l2d_tunnel_queue(t, buf, l2tp_build_end(&b)), 0);
	l2d_tunnel_flush(t);
	h_run_for(100);
	EXPECT_EQ(lac->sent[L2TP_MSG_STOPCCN], 0);
	h_run_for(11500);	/* 31.6 s after the first */
	EXPECT_EQ(lac->d->n_tunnels, 0);
	h_fini();
}

/* The LNS tunnel made for an SCCRQ with Assigned Tunnel ID @ptid from @from. */
static struct l2d_tunnel *sccrq_from(struct h_node *lns, const struct l2d_addr *from,
				     uint16_t ptid)
{
	struct l2d_tunnel *t;
	uint8_t buf[256];

	h_inject(lns, from, buf, h_craft_sccrq(buf, sizeof(buf), ptid, false));
	for (t = lns->d->tunnels; t; t = t->next)
		if (t->peer_tid == ptid)
			return t;
	return NULL;
}

/* An SCCCN for @t (Ns 1, Nr 1: after SCCRQ and SCCRP) sent to @t's port @port. */
static void scccn_to(struct h_node *lns, uint16_t port, const struct l2d_addr *from,
		     const struct l2d_tunnel *t)
{
	struct l2tp_builder b;
	uint8_t buf[64];
	size_t len;

	l2tp_build_begin(&b, buf, sizeof(buf), t->tid, 0, L2TP_MSG_SCCCN, NULL);
	len = l2tp_build_end(&b);
	l2tp_put16(buf + 8, 1);
	l2tp_put16(buf + 10, 1);
	h_inject_to(lns, port, from, buf, len);
}

/*
 * With the kernel data path, a second tunnel from the
 * address and port of a live one would share its socket's 4-tuple and
 * black-hole data.  The LNS answers it from a port of its own (RFC 2661
 * section 8.1); a LAC that follows gets the tunnel, one that sends its
 * SCCCN to the old port gets StopCCN.  Without the kernel data path,
 * Tunnel IDs tell the tunnels apart and nothing changes.
 */
TEST(l2tpseld_lns_second_tunnel_same_ports_separated)
{
	struct l2d_tunnel *t2, *t3;
	struct h_node *lac, *lns;
	uint16_t p2, p3;

	h_reset();
	lac = h_node(lac_one);
	lns = h_node(lns_plain);
	ASSERT_TRUE(lac && lns);
	lns->d->dpops = &fake_dp;
	h_login(lac, "alice@example", NULL);
	h_run_for(100);
	ASSERT_EQ(lac->n_done_ok, 1);
	EXPECT_EQ(l2d_port(&lns->d->tunnels->local), 1701);

	/* a LAC that does not follow: its SCCCN comes to 1701 */
	t2 = sccrq_from(lns, &lac->addr, 77);
	ASSERT_TRUE(t2 != NULL);
	EXPECT_TRUE(t2->own_port);
	p2 = l2d_port(&t2->local);
	EXPECT_TRUE(p2 != 1701);
	EXPECT_EQ(lns->d->stats.port_separated, 1);
	h_run_for(10);
	EXPECT_EQ(lns->sent[L2TP_MSG_SCCRP], 2);
	scccn_to(lns, 1701, &lac->addr, t2);
	h_run_for(10);
	EXPECT_EQ(lns->d->stats.port_refused, 1);
	EXPECT_EQ(lns->sent[L2TP_MSG_STOPCCN], 1);
	EXPECT_TRUE(t2->state != L2D_T_ESTABLISHED);

	/* one that follows: its SCCCN comes to the SCCRP's port */
	t3 = sccrq_from(lns, &lac->addr, 78);
	ASSERT_TRUE(t3 != NULL && t3->own_port);
	p3 = l2d_port(&t3->local);
	EXPECT_TRUE(p3 != 1701 && p3 != p2);
	scccn_to(lns, p3, &lac->addr, t3);
	h_run_for(10);
	EXPECT_EQ(t3->state, L2D_T_ESTABLISHED);
	EXPECT_EQ(lns->d->stats.port_refused, 1);
	/* the first tunnel and its call are untouched */
	EXPECT_EQ(h_sessions_in(lns, L2D_S_ESTABLISHED), 1);
	EXPECT_EQ(h_sessions_in(lac, L2D_S_ESTABLISHED), 1);

	/* dataplane none: the second tunnel shares the port as before */
	lns->d->dpops = NULL;
	t3 = sccrq_from(lns, &lac->addr, 79);
	ASSERT_TRUE(t3 != NULL);
	EXPECT_TRUE(!t3->own_port);
	EXPECT_EQ(l2d_port(&t3->local), 1701);
	EXPECT_EQ(lns->d->stats.port_separated, 2);
	lns->d->dpops = &fake_dp;
}
