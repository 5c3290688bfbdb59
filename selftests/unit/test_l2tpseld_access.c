// SPDX-License-Identifier: GPL-2.0
/*
 * The access role's logins through the state machines: a login a
 * subscriber asked for (l2d_login_req.access) is told its end once, through
 * aops->login_done(), never through API lines; its ICRQ carries the
 * subscriber's Calling and Called Number, its ICCN what aops->iccn_avps()
 * adds (Proxy LCP / Proxy Authentication, RFC 2661 section 4.4.5); an
 * established call that the LNS clears is told through aops->session_gone()
 * once; a subscriber that leaves during setup is told nothing more
 * (S-ACC-2, S-ACC-3, S-ACC-5).
 */
#include <stdlib.h>

#include "harness.h"
#include "l2tpseld_harness.h"
#include "../../userspace/l2tpseld/avp.h"
#include "../../userspace/l2tpseld/l2tp.h"
#include "../../userspace/l2tpseld/proxy_lcp.h"
#include "../../userspace/l2tpseld/radius.h"

static const char *const lac_one[] = { "route p t1 10.0.0.2", NULL };
static const char *const lns_plain[] = { "listen 10.0.0.2", NULL };
static const char *const lns_proxy[] = { "listen 10.0.0.2", "proxy-lcp yes", NULL };
static const char *const lns_cdn[] = { "listen 10.0.0.2", "test-mode yes", "lns-mode cdn 2 6", NULL };

static struct {
	unsigned int done, done_ok, gone, avps, bridge;
	char why[128];
	struct l2d_session *s;
	struct l2tp_msg icrq, iccn;
	uint8_t icrq_buf[1500], iccn_buf[1500];
	bool have_icrq, have_iccn;
	bool full_proxy;	/* Last Received and the PAP password too */
} A;

/* the "subscriber" the logins carry: a stand-in for the access role's */
struct sub {
	int token;
};
static struct sub sub_token;

static void t_login_done(struct l2d *d, struct l2d_login *lg, struct l2d_session *s,
			 const char *why)
{
	EXPECT_TRUE(lg->access == &sub_token);
	A.done++;
	if (s) {
		A.done_ok++;
		A.s = s;
	} else {
		snprintf(A.why, sizeof(A.why), "%s", why);
	}
}

static const uint8_t lcp_opts[] = { 1, 4, 0x05, 0xd4, 5, 6, 1, 2, 3, 4 };
/* the LAC's Configure-Request: MRU 1442 (a 1500-byte path, S-MTU-1), PAP, magic */
static const uint8_t lcp_sent[] = { 1, 4, 0x05, 0xa2, 3, 4, 0xc0, 0x23, 5, 6, 9, 8, 7, 6 };

static void t_iccn_avps(struct l2d *d, struct l2d_session *s, struct l2tp_builder *b)
{
	A.avps++;
	l2tp_put_avp(b, L2TP_AVP_INITIAL_RCVD_LCP_CONFREQ, lcp_opts, sizeof(lcp_opts));
	l2tp_put_avp(b, L2TP_AVP_LAST_SENT_LCP_CONFREQ, lcp_sent, sizeof(lcp_sent));
	l2tp_put_u16(b, L2TP_AVP_PROXY_AUTHEN_TYPE, 3);
	l2tp_put_avp(b, L2TP_AVP_PROXY_AUTHEN_NAME, "alice@example", 13);
	if (A.full_proxy) {
		l2tp_put_avp(b, L2TP_AVP_LAST_RCVD_LCP_CONFREQ, lcp_opts, sizeof(lcp_opts));
		l2tp_put_avp(b, L2TP_AVP_PROXY_AUTHEN_RESPONSE, "secret", 6);
	}
}

/* the access side knows the line: 24 Mb/s down, 1 Mb/s up */
static void t_connect_speed(struct l2d *d, struct l2d_session *s, uint32_t *tx, uint32_t *rx)
{
	*tx = 24000000;
	*rx = 1000000;
}

static int t_bridge(struct l2d *d, struct l2d_session *s, int fd)
{
	A.bridge++;
	return 0;
}

static void t_session_gone(struct l2d *d, struct l2d_session *s)
{
	EXPECT_TRUE(s->access == &sub_token);
	A.gone++;
}

static const struct l2d_access_ops t_ops = {
	.login_done = t_login_done,
	.connect_speed = t_connect_speed,
	.iccn_avps = t_iccn_avps,
	.bridge = t_bridge,
	.session_gone = t_session_gone,
};

static void tap(int from, const uint8_t *buf, size_t len)
{
	uint8_t copy[1500];
	struct l2tp_msg m;

	if (from != 0 || len > sizeof(copy))
		return;
	memcpy(copy, buf, len);
	if (l2tp_msg_parse(&m, copy, len, NULL) != L2TP_ACT_ACCEPT)
		return;
	if (m.type == L2TP_MSG_ICRQ && !A.have_icrq) {
		memcpy(A.icrq_buf, buf, len);
		l2tp_msg_parse(&A.icrq, A.icrq_buf, len, NULL);
		A.have_icrq = true;
	} else if (m.type == L2TP_MSG_ICCN && !A.have_iccn) {
		memcpy(A.iccn_buf, buf, len);
		l2tp_msg_parse(&A.iccn, A.iccn_buf, len, NULL);
		A.have_iccn = true;
	}
}

static bool avp_is(const struct l2tp_msg *m, uint16_t type, const void *v, size_t len)
{
	return m->avp[type].present && m->avp[type].len == len && !memcmp(m->avp[type].data, v, len);
}

static struct h_node *setup(const char *const *lns_lines)
{
	struct h_node *lac;

	memset(&A, 0, sizeof(A));
	h_reset();
	lac = h_node(lac_one);
	if (!lac || !h_node(lns_lines))
		return NULL;
	lac->d->aops = &t_ops;
	H->tap = tap;
	return lac;
}

TEST(l2tpseld_access_login_up_and_lns_clears)
{
	struct h_node *lac = setup(lns_plain), *lns;
	char err[128];
	uint32_t id, speed;
	uint16_t v;

	ASSERT_TRUE(lac != NULL);
	lns = &H->node[1];
	id = l2d_login_start(lac->d, &(struct l2d_login_req){
			.access = &sub_token, .user = "alice@example",
			.calling = "02:00:00:00:00:01", .called = "internet" },
		err, sizeof(err));
	ASSERT_TRUE(id != 0);
	h_run_for(200);
	EXPECT_EQ(A.done, 1);
	EXPECT_EQ(A.done_ok, 1);
	EXPECT_EQ(A.avps, 1);
	EXPECT_EQ(A.bridge, 0);			/* dataplane none: no data path */
	EXPECT_EQ(lac->n_lines, 0);		/* no API lines for an access login */
	ASSERT_TRUE(A.have_icrq && A.have_iccn);
	EXPECT_TRUE(avp_is(&A.icrq, L2TP_AVP_CALLING_NUMBER, "02:00:00:00:00:01", 17));
	EXPECT_TRUE(avp_is(&A.icrq, L2TP_AVP_CALLED_NUMBER, "internet", 8));
	EXPECT_TRUE(avp_is(&A.iccn, L2TP_AVP_INITIAL_RCVD_LCP_CONFREQ, lcp_opts, sizeof(lcp_opts)));
	EXPECT_TRUE(avp_is(&A.iccn, L2TP_AVP_PROXY_AUTHEN_NAME, "alice@example", 13));
	EXPECT_TRUE(l2tp_msg_get_u16(&A.iccn, L2TP_AVP_PROXY_AUTHEN_TYPE, &v) && v == 3);
	/* RFC 2661 section 4.4.5: the line's speeds, as the access side gave them */
	EXPECT_TRUE(l2tp_msg_get_u32(&A.iccn, L2TP_AVP_TX_CONNECT_SPEED, &speed) && speed == 24000000);
	EXPECT_TRUE(l2tp_msg_get_u32(&A.iccn, L2TP_AVP_RX_CONNECT_SPEED, &speed) && speed == 1000000);
	EXPECT_TRUE(A.iccn.avp[L2TP_AVP_FRAMING_TYPE].present);
	EXPECT_EQ(l2d_kernel_none_sessions(lac->d), 1);
	EXPECT_STREQ(lns->d->tunnels->sessions->user, "02:00:00:00:00:01");
	/* S-MTU-1: the LNS role's pppd will ask the MRU the LAC asked */
	EXPECT_TRUE(avp_is(&A.iccn, L2TP_AVP_LAST_SENT_LCP_CONFREQ, lcp_sent, sizeof(lcp_sent)));
	EXPECT_EQ(lns->d->tunnels->sessions->proxy_mru, 1442);
	ASSERT_TRUE(A.s != NULL);
	EXPECT_TRUE(A.s->access == &sub_token);

	/* the LNS clears the call: session_gone once, counts back */
	l2d_session_close(lns->d->tunnels->sessions, L2D_END_LOCAL, true, L2TP_CDN_ADMIN, 0, "bye");
	h_run_for(200);
	EXPECT_EQ(A.gone, 1);
	EXPECT_EQ(A.done, 1);
	EXPECT_EQ(l2d_kernel_none_sessions(lac->d), 0);
	h_fini();
}

TEST(l2tpseld_access_login_refused_told_once)
{
	struct h_node *lac = setup(lns_cdn);
	char err[128];

	ASSERT_TRUE(lac != NULL);
	ASSERT_TRUE(l2d_login_start(lac->d, &(struct l2d_login_req){
			.access = &sub_token, .user = "bob@example", .calling = "02:00:00:00:00:02",
			.called = "acc0" },
		err, sizeof(err)) != 0);
	h_run_for(500);
	EXPECT_EQ(A.done, 1);
	EXPECT_EQ(A.done_ok, 0);
	EXPECT_EQ(A.gone, 0);
	EXPECT_EQ(A.avps, 0);			/* no ICCN for a refused call */
	EXPECT_TRUE(A.why[0] != '\0');
	th_log("refusal: %s", A.why);
	EXPECT_EQ(l2d_kernel_none_sessions(lac->d), 0);
	EXPECT_EQ(lac->n_lines, 0);
	h_fini();
}

/* No candidate at all: told once, at once or later, never counted. */
TEST(l2tpseld_access_login_no_route)
{
	static const char *const lac_none[] = { "hostname lac", NULL };
	struct h_node *lac;
	char err[128] = "";
	uint32_t id;

	memset(&A, 0, sizeof(A));
	h_reset();
	lac = h_node(lac_none);
	ASSERT_TRUE(lac != NULL);
	lac->d->aops = &t_ops;
	id = l2d_login_start(lac->d, &(struct l2d_login_req){
			.access = &sub_token, .user = "carol@example", .calling = "m",
			.called = "c" },
		err, sizeof(err));
	h_run_for(100);
	/* either refused at once (err) or told once through login_done */
	EXPECT_EQ(A.done + (id ? 0 : 1), 1);
	EXPECT_EQ(A.done_ok, 0);
	EXPECT_EQ(l2d_kernel_none_sessions(lac->d), 0);
	h_fini();
}

/* The subscriber leaves during setup (PADT): nothing told after, nothing counted. */
TEST(l2tpseld_access_subscriber_leaves_during_setup)
{
	struct h_node *lac = setup(lns_plain);
	struct l2d_login *lg;
	char err[128];
	uint32_t id;

	ASSERT_TRUE(lac != NULL);
	H->latency_ms = 50;
	id = l2d_login_start(lac->d, &(struct l2d_login_req){
			.access = &sub_token, .user = "dave@example", .calling = "m",
			.called = "c" },
		err, sizeof(err));
	ASSERT_TRUE(id != 0);
	h_run_for(60);			/* SCCRQ out, no answer yet */
	lg = l2d_login_find(lac->d, id);
	ASSERT_TRUE(lg != NULL);
	/* what access.c does on a PADT during setup */
	lg->access = NULL;
	if (lg->s)
		lg->s->access = NULL;
	l2d_login_client_gone(lg);
	h_run_for(2000);
	EXPECT_EQ(A.done, 0);
	EXPECT_EQ(A.gone, 0);
	EXPECT_EQ(l2d_kernel_none_sessions(lac->d), 0);
	EXPECT_EQ(h_sessions_in(lac, L2D_S_ESTABLISHED), 0);
	h_fini();
}

/*
 * RADIUS's tunnel set (S-RAD-2) under kernel none: a profile of the login's
 * own, walked by the core as the module walks LOGIN_BEGIN TUNNELS; counted
 * while the call is up, freed with it.
 */
TEST(l2tpseld_access_radius_set_kernel_none)
{
	struct h_node *lac = setup(lns_plain), *lns;
	struct rad_set_entry set[2] = {
		{ .tag = 1, .level = 0, .name = "rad-a", .remote = "10.0.0.2" },
		{ .tag = 2, .level = 1, .name = "rad-b", .remote = "10.0.0.9" },
	};
	char err[128];

	ASSERT_TRUE(lac != NULL);
	lns = &H->node[1];
	ASSERT_TRUE(l2d_login_start(lac->d, &(struct l2d_login_req){
			.access = &sub_token, .user = "erin@example", .calling = "m", .called = "c",
			.set = set, .nset = 2 },
		err, sizeof(err)) != 0);
	h_run_for(200);
	EXPECT_EQ(A.done_ok, 1);
	EXPECT_EQ(l2d_kernel_none_sessions(lac->d), 1);
	l2d_session_close(lns->d->tunnels->sessions, L2D_END_LOCAL, true, L2TP_CDN_ADMIN, 0, "bye");
	h_run_for(200);
	EXPECT_EQ(A.gone, 1);
	EXPECT_EQ(l2d_kernel_none_sessions(lac->d), 0);
	h_fini();
}

/*
 * proxy-lcp yes (RFC 2661 section 4.4.5): the LNS role takes the proxied
 * LCP and PAP of a LAC's ICCN for its pppd (its plugin), or leaves LCP to
 * pppd when they are not acceptable: here Last Received LCP CONFREQ absent.
 */
TEST(l2tpseld_access_lns_proxy_lcp)
{
	struct h_node *lac = setup(lns_proxy), *lns;
	struct l2d_session *ls;
	char err[128];
	uint32_t id;

	ASSERT_TRUE(lac != NULL);
	lns = &H->node[1];
	A.full_proxy = true;
	id = l2d_login_start(lac->d, &(struct l2d_login_req){
			.access = &sub_token, .user = "alice@example",
			.calling = "02:00:00:00:00:01", .called = "internet" },
		err, sizeof(err));
	ASSERT_TRUE(id != 0);
	h_run_for(200);
	ASSERT_EQ(A.done_ok, 1);
	ls = lns->d->tunnels->sessions;
	ASSERT_TRUE(ls != NULL && ls->proxy != NULL);	/* dataplane none: kept, no pppd */
	EXPECT_EQ(ls->proxy->auth_proto, 0xc023);
	EXPECT_EQ(ls->proxy->our_mru, 1442);
	EXPECT_EQ(ls->proxy->our_magic, 0x09080706);
	EXPECT_EQ(ls->proxy->peer_mru, 1492);
	EXPECT_EQ(ls->proxy->peer_magic, 0x01020304);
	EXPECT_EQ(ls->proxy->pap, 1);
	EXPECT_EQ(ls->proxy->name_len, 13);
	EXPECT_EQ(ls->proxy->pw_len, 6);
	EXPECT_TRUE(!memcmp(ls->proxy->pw, "secret", 6));
	EXPECT_EQ(lns->d->stats.proxy_lcp_taken, 1);
	EXPECT_EQ(lns->d->stats.proxy_lcp_renegotiated, 0);
	EXPECT_EQ(lac->d->stats.proxy_lcp_taken, 0);	/* the LAC role takes none */

	/* a second call without Last Received: pppd negotiates */
	A.full_proxy = false;
	id = l2d_login_start(lac->d, &(struct l2d_login_req){
			.access = &sub_token, .user = "bob@example", .calling = "02:00:00:00:00:02",
			.called = "internet" },
		err, sizeof(err));
	ASSERT_TRUE(id != 0);
	h_run_for(200);
	ASSERT_EQ(A.done_ok, 2);
	EXPECT_EQ(lns->d->stats.proxy_lcp_taken, 1);
	EXPECT_EQ(lns->d->stats.proxy_lcp_renegotiated, 1);
	for (ls = lns->d->tunnels->sessions; ls; ls = ls->next)
		if (!strcmp(ls->user, "02:00:00:00:00:02"))
			EXPECT_TRUE(ls->proxy == NULL);
	h_fini();	/* the sessions, with the proxied LCP held, freed (ASan: no leak) */
}

/* proxy-lcp no (the default): nothing is kept, nothing counted */
TEST(l2tpseld_access_lns_proxy_lcp_off)
{
	struct h_node *lac = setup(lns_plain), *lns;
	char err[128];

	ASSERT_TRUE(lac != NULL);
	lns = &H->node[1];
	A.full_proxy = true;
	ASSERT_TRUE(l2d_login_start(lac->d, &(struct l2d_login_req){
			.access = &sub_token, .user = "alice@example",
			.calling = "02:00:00:00:00:01", .called = "internet" },
		err, sizeof(err)) != 0);
	h_run_for(200);
	ASSERT_EQ(A.done_ok, 1);
	EXPECT_TRUE(lns->d->tunnels->sessions->proxy == NULL);
	EXPECT_EQ(lns->d->stats.proxy_lcp_taken + lns->d->stats.proxy_lcp_renegotiated, 0);
	h_fini();
}
