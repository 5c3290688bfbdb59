// SPDX-License-Identifier: GPL-2.0
/*
 * Tunnel switching (S-LTS-1, S-LTS-2) on the access files, their kernel
 * faked (selftests/unit/access/fakes.h: a PPPoL2TP socket and /dev/ppp
 * are ends of socketpairs), in the simulated network of
 * l2tpseld_harness.h: node 0 a LAC in front (an access login with the
 * test's own access hooks: its Proxy LCP and authentication, its hop
 * count), node 1 the switch ("listen", "lns-switch", its data path
 * faked), node 2 the LNS behind.
 *
 * - the call is switched: the next ICRQ carries the Calling and Called
 *   Number and the hop count plus one, the next ICCN the proxy AVPs as
 *   they came; both legs up, counted once each;
 * - every end propagates both ways (CDN from the LNS behind, CDN from the
 *   LAC in front, StopCCN), every count back to zero;
 * - loops refused: the LAC's own address, the hop limit (and a malformed
 *   count), a profile that does not switch;
 * - without proxy authentication the switch runs LCP on the incoming
 *   channel (ppp.c) and places no call before the name is known;
 * - the hop-count AVP's parser and the configuration's refusals.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>

#include "harness.h"
#include "../access/fakes.h"
#include "../l2tpseld_harness.h"
#include "../../../userspace/l2tpseld/lts.h"
#include "../../../userspace/l2tpseld/metrics.h"
#include "../../../userspace/l2tpseld/radius.h"

/*
 * RADIUS (mk/l2tpseld.mk wraps the client's calls from the access files):
 * on when a test says so; the Access-Request answered by the test.
 */
static bool rad_on;
static rad_done_fn rad_fn;
static void *rad_arg;
static int rad_dummy;
static unsigned int rad_auths;
static struct rad_auth rad_q;

bool __wrap_l2d_radius_on(const struct l2d *d);
struct rad_call *__wrap_l2d_radius_auth(struct l2d *d, const struct rad_auth *q, rad_done_fn fn,
					void *arg);
void __wrap_l2d_radius_cancel(struct l2d *d, struct rad_call *c);
int __wrap_l2d_radius_acct(struct l2d *d, const uint8_t *a, size_t len);

bool __wrap_l2d_radius_on(const struct l2d *d)
{
	return rad_on;
}

struct rad_call *__wrap_l2d_radius_auth(struct l2d *d, const struct rad_auth *q, rad_done_fn fn,
					void *arg)
{
	rad_auths++;
	rad_q = *q;
	rad_fn = fn;
	rad_arg = arg;
	return (struct rad_call *)&rad_dummy;
}

void __wrap_l2d_radius_cancel(struct l2d *d, struct rad_call *c)
{
}

/* every accounting record: its Acct-Status-Type and Tunnel-Client-Endpoint */
#define MAX_RECS 32
static struct {
	uint32_t status;
	char client[64];
} recs[MAX_RECS];
static unsigned int n_recs;

int __wrap_l2d_radius_acct(struct l2d *d, const uint8_t *a, size_t len)
{
	size_t off = 0;

	if (n_recs == MAX_RECS)
		return -ENOSPC;
	memset(&recs[n_recs], 0, sizeof(recs[n_recs]));
	while (off + 2 <= len && a[off + 1] >= 2 && off + a[off + 1] <= len) {
		const uint8_t *v = a + off + 2;
		size_t vl = a[off + 1] - 2u;

		if (a[off] == RAD_ACCT_STATUS_TYPE && vl == 4)
			recs[n_recs].status = (uint32_t)v[0] << 24 | v[1] << 16 | v[2] << 8 | v[3];
		if (a[off] == RAD_TUNNEL_CLIENT_ENDPOINT && vl >= 1 && vl < sizeof(recs[0].client))
			memcpy(recs[n_recs].client, v + 1, vl - 1);	/* after the tag */
		off += a[off + 1];
	}
	n_recs++;
	return 0;
}

/* ---- the switch's data path, as dataplane_kernel.c has it: a PPPoL2TP socket per call ---- */

static int dp_tunnel_add(struct l2d *d, struct l2d_tunnel *t)
{
	return 0;
}

static void dp_tunnel_del(struct l2d *d, struct l2d_tunnel *t)
{
}

static int dp_session_add(struct l2d *d, struct l2d_session *s)
{
	int fd = fake_pair(), ret;

	if (fd < 0)
		return -EMFILE;
	if (!s->access || !d->aops) {
		close(fd);
		return 0;
	}
	ret = d->aops->bridge(d, s, fd);
	if (ret < 0) {
		close(fd);
		return ret;
	}
	s->ppp_fd = fd;
	return ret;
}

static void dp_session_del(struct l2d *d, struct l2d_session *s)
{
	if (s->ppp_fd >= 0)
		close(s->ppp_fd);
	s->ppp_fd = -1;
}

static const struct l2d_dpops dp_ops = {
	.tunnel_add = dp_tunnel_add, .tunnel_del = dp_tunnel_del,
	.session_add = dp_session_add, .session_del = dp_session_del,
};

/* ---- the LAC in front: an access login with the test's hooks ---- */

static struct {
	unsigned int done, done_ok, gone;
	bool proxy;			/* its ICCN carries Proxy LCP and authentication */
	int hops;			/* its ICRQ carries this hop count; -1: none; -2: malformed */
	struct l2d_session *s;
	struct l2tp_msg icrq, iccn, cdn;	/* node 1's to node 2, node 1's CDN to node 0 */
	uint8_t icrq_buf[1500], iccn_buf[1500], cdn_buf[1500];
	bool have_icrq, have_iccn, have_cdn;
} L;

static struct sub lac_token;

static void t_login_done(struct l2d *d, struct l2d_login *lg, struct l2d_session *s,
			 const char *why)
{
	L.done++;
	if (s) {
		L.done_ok++;
		L.s = s;
	}
}

static const uint8_t lcp_init[] = { 1, 4, 0x05, 0xd4, 5, 6, 1, 2, 3, 4 };
static const uint8_t lcp_sent[] = { 1, 4, 0x05, 0xa2, 3, 4, 0xc0, 0x23, 5, 6, 9, 8, 7, 6 };

static void t_iccn_avps(struct l2d *d, struct l2d_session *s, struct l2tp_builder *b)
{
	if (!L.proxy)
		return;
	l2tp_put_avp(b, L2TP_AVP_INITIAL_RCVD_LCP_CONFREQ, lcp_init, sizeof(lcp_init));
	l2tp_put_avp(b, L2TP_AVP_LAST_SENT_LCP_CONFREQ, lcp_sent, sizeof(lcp_sent));
	l2tp_put_u16(b, L2TP_AVP_PROXY_AUTHEN_TYPE, PPP_AUTH_PAP);
	l2tp_put_avp(b, L2TP_AVP_PROXY_AUTHEN_NAME, "alice@example", 13);
	l2tp_put_avp(b, L2TP_AVP_PROXY_AUTHEN_RESPONSE, "pw", 2);
}

static void t_icrq_avps(struct l2d *d, struct l2d_session *s, struct l2tp_builder *b)
{
	if (L.hops >= 0)
		lts_put_hops(b, (unsigned int)L.hops);
	else if (L.hops == -2)
		l2tp_put_raw(b, L2TP_AVP_HDR_LEN + 1, LTS_VENDOR, LTS_AVP_HOPS, "\x01", 1);
}

static void t_session_gone(struct l2d *d, struct l2d_session *s)
{
	L.gone++;
}

/* the subscriber's line as the LAC in front knows it (S-AL-1) */
static struct access_line lac_al;

static const struct access_line *t_access_line(struct l2d *d, struct l2d_session *s)
{
	return &lac_al;
}

static void t_connect_speed(struct l2d *d, struct l2d_session *s, uint32_t *tx, uint32_t *rx)
{
	*tx = 24000000;
	*rx = 1000000;
}

static const struct l2d_access_ops lac_ops = {
	.login_done = t_login_done,
	.access_line = t_access_line,
	.connect_speed = t_connect_speed,
	.iccn_avps = t_iccn_avps,
	.icrq_avps = t_icrq_avps,
	.session_gone = t_session_gone,
};

static void keep(struct l2tp_msg *m, uint8_t *store, bool *have, const uint8_t *buf, size_t len)
{
	if (*have)
		return;
	memcpy(store, buf, len);
	l2tp_msg_parse(m, store, len, NULL);
	*have = true;
}

static void tap(int from, const uint8_t *buf, size_t len)
{
	uint8_t copy[1500];
	struct l2tp_msg m;

	if (from != 1 || len > sizeof(copy))
		return;
	memcpy(copy, buf, len);
	if (l2tp_msg_parse(&m, copy, len, NULL) != L2TP_ACT_ACCEPT)
		return;
	if (m.type == L2TP_MSG_ICRQ)
		keep(&L.icrq, L.icrq_buf, &L.have_icrq, buf, len);
	else if (m.type == L2TP_MSG_ICCN)
		keep(&L.iccn, L.iccn_buf, &L.have_iccn, buf, len);
	else if (m.type == L2TP_MSG_CDN && m.hdr.tunnel_id == H->node[0].d->tunnels->tid)
		keep(&L.cdn, L.cdn_buf, &L.have_cdn, buf, len);
}

static bool avp_is(const struct l2tp_msg *m, uint16_t type, const void *v, size_t len)
{
	return m->avp[type].present && m->avp[type].len == len && !memcmp(m->avp[type].data, v, len);
}

static struct h_node *LAC, *SW, *LNS;

/* The three nodes; @sw_lines: the switch's configuration. */
static bool setup(const char *const *sw_lines, bool proxy, int hops)
{
	static const char *const lac_lines[] = { "route p t1 10.0.0.2", NULL };
	static const char *const lns_lines[] = { "listen 10.0.0.3", NULL };
	char err[200];

	memset(&L, 0, sizeof(L));
	rad_on = false;
	rad_fn = NULL;
	rad_auths = 0;
	n_recs = 0;
	L.proxy = proxy;
	L.hops = hops;
	fake_reset();
	h_reset();
	LAC = h_node(lac_lines);
	SW = h_node(sw_lines);
	LNS = h_node(lns_lines);
	if (!LAC || !SW || !LNS)
		return false;
	LAC->d->aops = &lac_ops;
	SW->loop.epfd = epoll_create1(EPOLL_CLOEXEC);
	SW->d->dpops = &dp_ops;
	if (l2d_access_open(SW->d, err, sizeof(err))) {
		TH_LOG("l2d_access_open: %s", err);
		return false;
	}
	H->tap = tap;
	return true;
}

static void teardown(void)
{
	l2d_access_close(SW->d);
	h_fini();
	fake_reset();
}

static uint32_t lac_login(void)
{
	char err[128];

	return l2d_login_start(LAC->d, &(struct l2d_login_req){
			.access = &lac_token, .user = "alice@example",
			.calling = "02:00:00:00:00:01", .called = "internet" },
		err, sizeof(err));
}

static struct acc *sw_acc(void)
{
	return SW->d->actx;
}

/* Nothing left anywhere: no call, no count, no subscriber. */
static void expect_all_gone(void)
{
	EXPECT_EQ(LAC->d->n_sessions, 0u);
	EXPECT_EQ(SW->d->n_sessions, 0u);
	EXPECT_EQ(LNS->d->n_sessions, 0u);
	EXPECT_EQ(SW->d->n_lns_calls, 0u);
	EXPECT_EQ(LNS->d->n_lns_calls, 0u);
	EXPECT_EQ(l2d_kernel_none_sessions(LAC->d), 0u);
	EXPECT_EQ(l2d_kernel_none_sessions(SW->d), 0u);
	EXPECT_EQ(l2d_kernel_none_sessions(LNS->d), 0u);
	EXPECT_EQ(sw_acc()->n_subs, 0u);
	EXPECT_EQ(sw_acc()->lts_if.n_subs, 0u);
}

static const char *const sw_yes[] = { "listen 10.0.0.2", "dataplane kernel", "lns-switch yes",
				      "route q t2 10.0.0.3", NULL };

/* The call up through the switch: what the LNS behind was told, the counts. */
static void expect_switched(void)
{
	uint16_t v;
	unsigned int hops = 0;

	EXPECT_EQ(L.done_ok, 1u);
	EXPECT_EQ(h_sessions_in(SW, L2D_S_ESTABLISHED), 2u);	/* both legs */
	EXPECT_EQ(h_sessions_in(LNS, L2D_S_ESTABLISHED), 1u);
	EXPECT_EQ(sw_acc()->lts_calls, 1u);
	EXPECT_EQ(sw_acc()->lts_up, 1u);
	EXPECT_EQ(fake_kernel.bridges, 1u);		/* PPPIOCBRIDGECHAN once */
	/* the incoming call admitted (LNS role), the outgoing one (login): one count each */
	EXPECT_EQ(l2d_kernel_none_sessions(SW->d), 2u);
	EXPECT_EQ(l2d_kernel_none_sessions(LNS->d), 1u);
	ASSERT_TRUE(L.have_icrq && L.have_iccn);
	EXPECT_TRUE(avp_is(&L.icrq, L2TP_AVP_CALLING_NUMBER, "02:00:00:00:00:01", 17));
	EXPECT_TRUE(avp_is(&L.icrq, L2TP_AVP_CALLED_NUMBER, "internet", 8));
	EXPECT_EQ(lts_hops_from_msg(L.icrq.raw, L.icrq.raw_len, &hops), 1);
	EXPECT_EQ(hops, (unsigned int)(L.hops > 0 ? L.hops : 0) + 1);
	EXPECT_TRUE(avp_is(&L.iccn, L2TP_AVP_INITIAL_RCVD_LCP_CONFREQ, lcp_init, sizeof(lcp_init)));
	EXPECT_TRUE(avp_is(&L.iccn, L2TP_AVP_LAST_SENT_LCP_CONFREQ, lcp_sent, sizeof(lcp_sent)));
	EXPECT_TRUE(avp_is(&L.iccn, L2TP_AVP_PROXY_AUTHEN_NAME, "alice@example", 13));
	EXPECT_TRUE(avp_is(&L.iccn, L2TP_AVP_PROXY_AUTHEN_RESPONSE, "pw", 2));
	EXPECT_TRUE(l2tp_msg_get_u16(&L.iccn, L2TP_AVP_PROXY_AUTHEN_TYPE, &v) && v == PPP_AUTH_PAP);
	/* the ICCN's connect speeds go on (RFC 2661 section 4.4.5) */
	EXPECT_EQ(LNS->d->tunnels->sessions->tx_bps, 24000000u);
	EXPECT_EQ(LNS->d->tunnels->sessions->rx_bps, 1000000u);
	/* the LNS behind sees the subscriber's Calling Number */
	EXPECT_STREQ(LNS->d->tunnels->sessions->user, "02:00:00:00:00:01");
	EXPECT_EQ(LNS->d->tunnels->sessions->proxy_mru, 1442);
}

/* The switch line and the metrics say the same (S-OPS-3). */
static void expect_figures(unsigned int now, unsigned int calls, unsigned int up)
{
	char line[256], want[128], *m;
	size_t len;

	ASSERT_TRUE(l2d_access_lts_stats(SW->d, line, sizeof(line)) > 0);
	snprintf(want, sizeof(want), "switch calls-now %u calls %u up %u ", now, calls, up);
	EXPECT_TRUE(!strncmp(line, want, strlen(want))) TH_LOG("%s", line);
	m = l2d_metrics_render(SW->d, &len);
	ASSERT_TRUE(m != NULL);
	snprintf(want, sizeof(want), "\nl2tpsel_switch_calls %u\n", now);
	EXPECT_TRUE(strstr(m, want) != NULL) TH_LOG("%s", want);
	snprintf(want, sizeof(want), "\nl2tpsel_switch_calls_total %u\n", calls);
	EXPECT_TRUE(strstr(m, want) != NULL) TH_LOG("%s", want);
	snprintf(want, sizeof(want), "\nl2tpsel_switch_up_total %u\n", up);
	EXPECT_TRUE(strstr(m, want) != NULL) TH_LOG("%s", want);
	free(m);
}

TEST(lts_switched_lns_behind_clears)
{
	ASSERT_TRUE(setup(sw_yes, true, -1));
	ASSERT_TRUE(lac_login() != 0);
	h_run_for(500);
	expect_switched();
	expect_figures(1, 1, 1);
	/* the LNS behind clears the call: the LAC in front is told, all counts back */
	l2d_session_close(LNS->d->tunnels->sessions, L2D_END_LOCAL, true, L2TP_CDN_ADMIN, 0, "bye");
	h_run_for(500);
	EXPECT_EQ(L.gone, 1u);
	ASSERT_TRUE(L.have_cdn);
	EXPECT_TRUE(L.cdn.avp[L2TP_AVP_RESULT_CODE].present);
	expect_all_gone();
	expect_figures(0, 1, 1);
	teardown();
}

TEST(lts_switched_lac_in_front_clears)
{
	ASSERT_TRUE(setup(sw_yes, true, 2));
	ASSERT_TRUE(lac_login() != 0);
	h_run_for(500);
	expect_switched();
	ASSERT_TRUE(L.s != NULL);
	l2d_session_close(L.s, L2D_END_LOCAL, true, L2TP_CDN_ADMIN, 0, "user logout");
	h_run_for(500);
	EXPECT_EQ(LNS->d->n_sessions, 0u);		/* the CDN went on */
	expect_all_gone();
	teardown();
}

TEST(lts_tunnel_to_lns_behind_lost)
{
	ASSERT_TRUE(setup(sw_yes, true, -1));
	ASSERT_TRUE(lac_login() != 0);
	h_run_for(500);
	expect_switched();
	/* StopCCN from the LNS behind: the call in front is cleared too */
	l2d_tunnel_stop(LNS->d->tunnels, L2TP_STOPCCN_CLEAR, 0, "going away");
	h_run_for(500);
	EXPECT_EQ(L.gone, 1u);
	expect_all_gone();
	teardown();
}

TEST(lts_loop_back_to_the_lac_refused)
{
	static const char *const sw_loop[] = { "listen 10.0.0.2", "dataplane kernel",
					       "lns-switch yes", "route q t2 10.0.0.1", NULL };

	ASSERT_TRUE(setup(sw_loop, true, -1));
	ASSERT_TRUE(lac_login() != 0);
	h_run_for(2000);
	EXPECT_EQ(sw_acc()->lts_loops, 1u);
	EXPECT_EQ(SW->sent[L2TP_MSG_SCCRQ], 0u);	/* nothing left the switch */
	EXPECT_EQ(L.gone, 1u);				/* the call in front cleared */
	expect_all_gone();
	teardown();
}

/* A silent LNS first: the switched login locks it out and fails over (§3). */
TEST(lts_failover_behind_the_switch)
{
	static const char *const sw_fo[] = { "listen 10.0.0.2", "dataplane kernel", "lns-switch yes",
					     "route q t1 10.0.0.4", "route q t2 10.0.0.3", NULL };

	ASSERT_TRUE(setup(sw_fo, true, -1));
	ASSERT_TRUE(lac_login() != 0);
	h_run_for(60000);
	EXPECT_EQ(SW->sent[L2TP_MSG_SCCRQ] >= 2, 1);	/* the silent one, then the LNS */
	expect_switched();
	EXPECT_EQ(L.gone, 0u);
	l2d_session_close(L.s, L2D_END_LOCAL, true, L2TP_CDN_ADMIN, 0, "bye");
	h_run_for(500);
	expect_all_gone();
	teardown();
}

/* A loop at level 0 is a local failure: the next level takes the call, nobody locked out. */
TEST(lts_loop_then_next_level)
{
	static const char *const sw_lf[] = { "listen 10.0.0.2", "dataplane kernel", "lns-switch yes",
					     "route q t1 10.0.0.1", "route q t2 10.0.0.3", NULL };

	ASSERT_TRUE(setup(sw_lf, true, -1));
	ASSERT_TRUE(lac_login() != 0);
	h_run_for(1000);
	EXPECT_EQ(sw_acc()->lts_loops, 1u);
	expect_switched();
	EXPECT_EQ(SW->sent[L2TP_MSG_SCCRQ], 1u);	/* only to the LNS */
	l2d_session_close(L.s, L2D_END_LOCAL, true, L2TP_CDN_ADMIN, 0, "bye");
	h_run_for(500);
	expect_all_gone();
	teardown();
}

TEST(lts_loop_to_own_address_refused)
{
	static const char *const sw_self[] = { "listen 10.0.0.2", "dataplane kernel",
					       "lns-switch yes", "route q t2 10.0.0.2", NULL };

	ASSERT_TRUE(setup(sw_self, true, -1));
	ASSERT_TRUE(lac_login() != 0);
	h_run_for(2000);
	EXPECT_EQ(sw_acc()->lts_loops, 1u);
	EXPECT_EQ(SW->sent[L2TP_MSG_SCCRQ], 0u);
	EXPECT_EQ(L.gone, 1u);
	expect_all_gone();
	teardown();
}

TEST(lts_hop_limit_refused)
{
	uint16_t v;

	ASSERT_TRUE(setup(sw_yes, true, 4));		/* lns-switch-hops 4 by default */
	ASSERT_TRUE(lac_login() != 0);
	h_run_for(2000);
	EXPECT_EQ(L.done_ok, 0u);			/* the call in front refused at its ICRQ */
	EXPECT_EQ(SW->d->stats.lts_hops_refused, 1u);
	EXPECT_EQ(SW->sent[L2TP_MSG_SCCRQ], 0u);
	EXPECT_EQ(sw_acc()->lts_calls, 0u);
	ASSERT_TRUE(L.have_cdn);
	EXPECT_TRUE(L.cdn.avp[L2TP_AVP_RESULT_CODE].len >= 2 &&
		    (v = l2tp_get16(L.cdn.avp[L2TP_AVP_RESULT_CODE].data)) == L2TP_CDN_NO_FACILITIES_PERM);
	expect_all_gone();
	teardown();
}

TEST(lts_hop_count_malformed_refused)
{
	ASSERT_TRUE(setup(sw_yes, true, -2));
	ASSERT_TRUE(lac_login() != 0);
	h_run_for(2000);
	EXPECT_EQ(SW->d->stats.lts_hops_refused, 1u);
	EXPECT_EQ(SW->sent[L2TP_MSG_SCCRQ], 0u);
	expect_all_gone();
	teardown();
}

TEST(lts_profile_not_switching_refused)
{
	static const char *const sw_other[] = { "listen 10.0.0.2", "dataplane kernel",
						"lns-switch other", "route q t2 10.0.0.3", NULL };

	ASSERT_TRUE(setup(sw_other, true, -1));
	ASSERT_TRUE(lac_login() != 0);
	h_run_for(2000);
	EXPECT_EQ(SW->sent[L2TP_MSG_SCCRQ], 0u);
	EXPECT_EQ(sw_acc()->lts_loops, 0u);
	EXPECT_EQ(L.gone, 1u);
	expect_all_gone();
	teardown();
}

TEST(lts_without_proxy_runs_lcp_here)
{
	uint8_t f[256];
	ssize_t n;

	ASSERT_TRUE(setup(sw_yes, false, -1));
	ASSERT_TRUE(lac_login() != 0);
	h_run_for(500);
	EXPECT_EQ(L.done_ok, 1u);			/* the call in front is up */
	EXPECT_EQ(sw_acc()->lts_calls, 1u);
	EXPECT_EQ(SW->sent[L2TP_MSG_SCCRQ], 0u);	/* no name yet: no call onward */
	/* our LCP Configure-Request on the incoming call's channel (RFC 1661 5.1) */
	ASSERT_TRUE(sw_acc()->subs != NULL);
	n = read(fake_peer_of(sw_acc()->subs->chan_fd), f, sizeof(f));
	ASSERT_TRUE(n >= 6);
	EXPECT_EQ(f[0], 0xc0);
	EXPECT_EQ(f[1], 0x21);
	EXPECT_EQ(f[2], PPP_CONFREQ);
	/* the LAC in front clears it: nothing left */
	l2d_session_close(L.s, L2D_END_LOCAL, true, L2TP_CDN_ADMIN, 0, "bye");
	h_run_for(500);
	expect_all_gone();
	teardown();
}

/* How many records of @status were sent, and the Tunnel-Client-Endpoint of the last. */
static unsigned int recs_of(uint32_t status, const char **client)
{
	unsigned int i, n = 0;

	for (i = 0; i < n_recs; i++)
		if (recs[i].status == status) {
			n++;
			if (client)
				*client = recs[i].client;
		}
	return n;
}

/*
 * RADIUS names the profile, which switches (lns-switch q); both legs are
 * accounted: one Start/Stop for the user, a Tunnel-Link pair per leg (RFC
 * 2867 section 2.1), the incoming one with the LAC in front as client.
 */
TEST(lts_radius_profile_and_both_legs_accounted)
{
	static const char *const sw_rad[] = { "listen 10.0.0.2", "dataplane kernel", "lns-switch q",
					      "route other t0 10.0.0.4", "route q t2 10.0.0.3",
					      "radius-server 10.0.0.9 secret s",
					      "radius-accounting yes", "radius-accounting-tunnel yes",
					      NULL };
	struct rad_reply r;
	const char *client = NULL;
	unsigned int i, links = 0;

	ASSERT_TRUE(setup(sw_rad, true, -1));
	rad_on = true;
	ASSERT_TRUE(lac_login() != 0);
	h_run_for(500);
	EXPECT_EQ(rad_auths, 1u);			/* asked about the proxied name */
	EXPECT_STREQ(rad_q.user, "alice@example");
	EXPECT_FALSE(rad_q.chap);				/* the proxied PAP password */
	EXPECT_EQ(rad_q.secret_len, 2u);
	EXPECT_EQ(rad_q.port_type, (uint32_t)RAD_PORT_TYPE_VIRTUAL);
	EXPECT_STREQ(rad_q.calling, "02:00:00:00:00:01");
	EXPECT_EQ(SW->sent[L2TP_MSG_SCCRQ], 0u);	/* nothing before the answer */
	ASSERT_TRUE(rad_fn != NULL);
	memset(&r, 0, sizeof(r));
	r.code = RAD_ACCESS_ACCEPT;
	strcpy(r.profile, "q");
	rad_fn(rad_arg, RAD_RES_ACCEPT, &r);
	h_run_for(500);
	expect_switched();
	EXPECT_EQ(recs_of(RAD_ACCT_START, NULL), 1u);
	EXPECT_EQ(recs_of(RAD_ACCT_TUNNEL_START, NULL), 1u);	/* the LAC tunnel behind */
	EXPECT_EQ(recs_of(RAD_ACCT_TUNNEL_LINK_START, NULL), 2u);
	/* the leg in front: the LAC is the client; the one behind: our local
	 * address (which the simulated network leaves unset) */
	for (i = 0; i < n_recs; i++)
		if (recs[i].status == RAD_ACCT_TUNNEL_LINK_START)
			links += !strcmp(recs[i].client, "10.0.0.1") ? 1u : 16u;
	EXPECT_EQ(links, 17u);
	l2d_session_close(LNS->d->tunnels->sessions, L2D_END_LOCAL, true, L2TP_CDN_ADMIN, 0, "bye");
	h_run_for(500);
	EXPECT_EQ(recs_of(RAD_ACCT_TUNNEL_LINK_STOP, &client), 2u);
	EXPECT_EQ(recs_of(RAD_ACCT_STOP, NULL), 1u);
	EXPECT_EQ(recs_of(RAD_ACCT_START, NULL), 1u);	/* nothing twice */
	expect_all_gone();
	teardown();
}

/* S-AL-1 through the switch: the line's RFC 5515 AVPs go on with access-line */
TEST(lts_access_line_carried)
{
	static const char *const sw_al[] = { "listen 10.0.0.2", "dataplane kernel", "lns-switch yes",
					     "access-line yes", "route q t2 10.0.0.3", NULL };
	static const uint8_t tag[] = { 0, 0, 0x0d, 0xe9, 0x01, 5, 'd', 's', 'l', '/', '1',
				       0x82, 4, 0, 0, 0x5d, 0xc0 };	/* 24000 kb/s down */
	const struct access_line *got;
	const char *why = NULL;
	char err[200];

	memset(&lac_al, 0, sizeof(lac_al));
	ASSERT_EQ(0, al_parse_tr101(&lac_al, tag, sizeof(tag), &why)) TH_LOG("%s", why);
	ASSERT_TRUE(setup(sw_al, true, -1));
	ASSERT_EQ(0, l2d_conf_line(&LAC->conf, "access-line yes", err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_TRUE(lac_login() != 0);
	h_run_for(500);
	expect_switched();
	ASSERT_TRUE(LNS->d->tunnels && LNS->d->tunnels->sessions);
	got = &LNS->d->tunnels->sessions->al;
	EXPECT_TRUE(al_has(got, AL_CIRCUIT_ID));
	EXPECT_STREQ(got->circuit_id, "dsl/1");
	EXPECT_EQ(al_rate(got, AL_ACT_RATE_DOWN), 24000000u);
	EXPECT_TRUE(LNS->d->tunnels->sessions->csu_enabled);
	/* a CSUN from the LAC in front reaches the LNS behind */
	ASSERT_TRUE(L.s != NULL);
	EXPECT_EQ(l2d_session_send_csun(L.s, 16000000, 800000), 0);
	h_run_for(500);
	EXPECT_EQ(LNS->d->tunnels->sessions->tx_bps, 16000000u);
	EXPECT_EQ(LNS->d->tunnels->sessions->rx_bps, 800000u);
	l2d_session_close(L.s, L2D_END_LOCAL, true, L2TP_CDN_ADMIN, 0, "bye");
	h_run_for(500);
	expect_all_gone();
	memset(&lac_al, 0, sizeof(lac_al));
	teardown();
}

TEST(lts_hop_avp_parse)
{
	struct l2tp_builder b;
	uint8_t buf[256];
	unsigned int hops = 7;
	size_t n;

	l2tp_build_begin(&b, buf, sizeof(buf), 1, 0, L2TP_MSG_ICRQ, NULL);
	n = l2tp_build_end(&b);
	EXPECT_EQ(lts_hops_from_msg(buf, n, &hops), 0);
	EXPECT_EQ(hops, 0u);
	l2tp_build_begin(&b, buf, sizeof(buf), 1, 0, L2TP_MSG_ICRQ, NULL);
	EXPECT_EQ(lts_put_hops(&b, 3), 0);
	n = l2tp_build_end(&b);
	EXPECT_EQ(lts_hops_from_msg(buf, n, &hops), 1);
	EXPECT_EQ(hops, 3u);
	/* M bit 0: an RFC 2661 peer ignores it (section 4.1) */
	EXPECT_EQ(l2tp_get16(buf + n - 8) & L2TP_AVP_M, 0);
	/* the parser takes the message as it is: the AVP is known, nothing ignored */
	{
		struct l2tp_msg m;

		l2tp_build_begin(&b, buf, sizeof(buf), 1, 0, L2TP_MSG_HELLO, NULL);
		lts_put_hops(&b, 3);
		n = l2tp_build_end(&b);
		EXPECT_EQ(l2tp_msg_parse(&m, buf, n, NULL), L2TP_ACT_ACCEPT);
		EXPECT_EQ(m.n_ignored, 0u);
	}
	/* twice, of a wrong length, hidden: refused, count 0 */
	l2tp_build_begin(&b, buf, sizeof(buf), 1, 0, L2TP_MSG_ICRQ, NULL);
	lts_put_hops(&b, 1);
	lts_put_hops(&b, 1);
	n = l2tp_build_end(&b);
	EXPECT_EQ(lts_hops_from_msg(buf, n, &hops), -EBADMSG);
	EXPECT_EQ(hops, 0u);
	l2tp_build_begin(&b, buf, sizeof(buf), 1, 0, L2TP_MSG_ICRQ, NULL);
	l2tp_put_raw(&b, L2TP_AVP_HDR_LEN + 3, LTS_VENDOR, LTS_AVP_HOPS, "\0\0\1", 3);
	n = l2tp_build_end(&b);
	EXPECT_EQ(lts_hops_from_msg(buf, n, &hops), -EBADMSG);
	l2tp_build_begin(&b, buf, sizeof(buf), 1, 0, L2TP_MSG_ICRQ, NULL);
	l2tp_put_raw(&b, L2TP_AVP_H | (L2TP_AVP_HDR_LEN + 2), LTS_VENDOR, LTS_AVP_HOPS, "\0\1", 2);
	n = l2tp_build_end(&b);
	EXPECT_EQ(lts_hops_from_msg(buf, n, &hops), -EBADMSG);
	/* truncated: a length past the end stops the walk, nothing read */
	EXPECT_EQ(lts_hops_from_msg(buf, 5, &hops), 0);
}

TEST(lts_config)
{
	struct l2d_conf c;
	char err[200];

	l2d_conf_defaults(&c);
	EXPECT_FALSE(l2d_conf_lns_switch_on(&c));
	EXPECT_EQ(c.lns_switch_hops, 4u);
	EXPECT_EQ(0, l2d_conf_line(&c, "lns-switch a b", err, sizeof(err)));
	EXPECT_TRUE(l2d_conf_lns_switch_on(&c));
	EXPECT_TRUE(l2d_conf_lns_switch(&c, "b"));
	EXPECT_FALSE(l2d_conf_lns_switch(&c, "c"));
	EXPECT_FALSE(l2d_conf_lns_switch(&c, NULL));
	/* no listen, no kernel data path: refused with the reason */
	EXPECT_EQ(-1, l2d_conf_check(&c, err, sizeof(err)));
	EXPECT_TRUE(strstr(err, "lns-switch needs listen") != NULL) TH_LOG("%s", err);
	EXPECT_EQ(0, l2d_conf_line(&c, "lns-switch no", err, sizeof(err)));
	EXPECT_FALSE(l2d_conf_lns_switch_on(&c));
	EXPECT_EQ(-1, l2d_conf_line(&c, "lns-switch", err, sizeof(err)));
	EXPECT_TRUE(strstr(err, "usage: lns-switch no | yes | PROFILE") != NULL) TH_LOG("%s", err);
	EXPECT_EQ(-1, l2d_conf_line(&c, "lns-switch a b c d e f g h i", err, sizeof(err)));
	EXPECT_EQ(-1, l2d_conf_line(&c, "lns-switch-hops 0", err, sizeof(err)));
	EXPECT_EQ(-1, l2d_conf_line(&c, "lns-switch-hops 256", err, sizeof(err)));
	EXPECT_EQ(0, l2d_conf_line(&c, "lns-switch-hops 2", err, sizeof(err)));
	EXPECT_EQ(c.lns_switch_hops, 2u);
	/* SIGHUP: on or off stays (the access side is opened at start), the list may change */
	{
		struct l2d_conf run, fresh;
		char kept[128];

		l2d_conf_defaults(&run);
		l2d_conf_defaults(&fresh);
		EXPECT_EQ(0, l2d_conf_line(&run, "lns-switch a", err, sizeof(err)));
		EXPECT_EQ(0, l2d_conf_line(&fresh, "lns-switch b c", err, sizeof(err)));
		kept[0] = '\0';
		l2d_conf_reload(&run, &fresh, kept, sizeof(kept));
		EXPECT_STREQ(kept, "");
		EXPECT_TRUE(l2d_conf_lns_switch(&run, "c"));
		EXPECT_FALSE(l2d_conf_lns_switch(&run, "a"));
		l2d_conf_defaults(&fresh);
		l2d_conf_reload(&run, &fresh, kept, sizeof(kept));
		EXPECT_STREQ(kept, "lns-switch");
		EXPECT_TRUE(l2d_conf_lns_switch(&run, "b"));
	}
}

