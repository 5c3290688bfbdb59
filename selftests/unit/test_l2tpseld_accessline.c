// SPDX-License-Identifier: GPL-2.0
/*
 * Access-line information through the state machines (S-AL-1, RFC 5515
 * sections 3 and 4): an l2tpseld LAC whose access call carries a line
 * (a stand-in for the access role's hooks) against an l2tpseld LNS on the
 * simulated network: the ICRQ's AVPs read back exactly at the LNS, the
 * profile selection of access-line, a CSUN's rates taken, a CSURQ
 * answered, CSUN and CSURQ acknowledged at the other role without harm.
 */
#include <errno.h>
#include <string.h>

#include "harness.h"
#include "l2tpseld_harness.h"

static const char *const lac_yes[] = { "route p t1 10.0.0.2", "access-line yes", NULL };
static const char *const lac_other[] = { "route p t1 10.0.0.2", "access-line q", NULL };
static const char *const lac_no[] = { "route p t1 10.0.0.2", NULL };
static const char *const lns_plain[] = { "listen 10.0.0.2", NULL };

static struct access_line line;
static unsigned int done_calls;
/* the "subscriber" of the access call: a stand-in for the access role's */
struct sub {
	char token;
};
static struct sub sub;

static void t_login_done(struct l2d *d, struct l2d_login *lg, struct l2d_session *s,
			 const char *why)
{
	done_calls++;
}

static const struct access_line *t_access_line(struct l2d *d, struct l2d_session *s)
{
	return &line;
}

static void t_iccn_avps(struct l2d *d, struct l2d_session *s, struct l2tp_builder *b)
{
}

static void t_session_gone(struct l2d *d, struct l2d_session *s)
{
}

static const struct l2d_access_ops t_aops = {
	.login_done = t_login_done,
	.access_line = t_access_line,
	.iccn_avps = t_iccn_avps,
	.session_gone = t_session_gone,
};

/* The Message Type AVP's first octet of the first CSUN sent (flags: M is 0x80). */
static int csun_flags = -1;

static void tap(int from, const uint8_t *buf, size_t len)
{
	if (csun_flags < 0 && len >= 20 && (buf[0] & 0x80) && buf[18] == 0 &&
	    buf[19] == L2TP_MSG_CSUN)
		csun_flags = buf[12];
}

static void make_line(void)
{
	static const uint8_t tag[] = {
		0x00, 0x00, 0x0d, 0xe9,
		0x01, 0x04, 'l', 'i', 'n', 'e',
		0x02, 0x03, 'c', 'p', 'e',
		0x81, 0x04, 0x00, 0x00, 0x03, 0xe8,	/* 1000 kb/s */
		0x82, 0x04, 0x00, 0x00, 0x27, 0x10,	/* 10000 kb/s */
		0x90, 0x03, 0x01, 0x02, 0x00,
	};

	ASSERT_EQ(al_parse_tr101(&line, tag, sizeof(tag), NULL), 0);
}

/* An access login of alice on @lac; the established LNS session, or NULL. */
static struct l2d_session *access_call(struct h_node *lac, struct h_node *lns)
{
	char err[128];

	lac->d->aops = &t_aops;
	if (!l2d_login_start(lac->d, &(struct l2d_login_req){
			.access = &sub, .user = "alice@example", .calling = "line",
			.called = "svc" },
		err, sizeof(err)))
		return NULL;
	h_run_for(200);
	if (h_sessions_in(lns, L2D_S_ESTABLISHED) != 1 || !lns->d->tunnels)
		return NULL;
	return lns->d->tunnels->sessions;
}

TEST(accessline_icrq_to_lns)
{
	struct h_node *lac, *lns;
	struct l2d_session *s, *ls;

	make_line();
	h_reset();
	lac = h_node(lac_yes);
	lns = h_node(lns_plain);
	ASSERT_TRUE(lac && lns);
	s = access_call(lac, lns);
	ASSERT_TRUE(s != NULL);
	EXPECT_EQ(memcmp(&s->al, &line, sizeof(line)), 0);
	EXPECT_TRUE(s->csu_enabled);
	ls = lac->d->tunnels->sessions;
	ASSERT_TRUE(ls != NULL);
	EXPECT_TRUE(ls->al_sent);

	/* a CSUN: the LNS takes the rates, Tx the downstream one */
	csun_flags = -1;
	H->tap = tap;
	EXPECT_EQ(l2d_session_send_csun(ls, 20000000, 2000000), 0);
	h_run_for(100);
	H->tap = NULL;
	EXPECT_EQ(lac->sent[L2TP_MSG_CSUN], 1);
	/* sent with the Message Type's M bit clear: length 8, no flag */
	EXPECT_EQ(csun_flags, 0x00);
	EXPECT_EQ(al_rate(&s->al, AL_ACT_RATE_DOWN), 20000000ull);
	EXPECT_EQ(al_rate(&s->al, AL_ACT_RATE_UP), 2000000ull);
	EXPECT_EQ(s->tx_bps, 20000000u);
	EXPECT_EQ(s->rx_bps, 2000000u);
	EXPECT_STREQ(s->al.circuit_id, "line");	/* the rest as it was */

	/* the LNS's session, asked of the LAC the wrong way round: acknowledged, nothing more */
	EXPECT_EQ(l2d_session_send_csun(s, 1, 1), -EAGAIN);
	EXPECT_EQ(h_sessions_in(lns, L2D_S_ESTABLISHED), 1);
	EXPECT_EQ(h_sessions_in(lac, L2D_S_ESTABLISHED), 1);
	EXPECT_EQ(h_tunnels_in(lns, L2D_T_ESTABLISHED), 1);
	h_fini();
}

/* A CSURQ from the LNS (built here as the LNS would send it) gets a CSUN. */
TEST(accessline_csurq_answered)
{
	struct h_node *lac, *lns;
	struct l2d_session *s;
	struct l2d_tunnel *t;
	struct l2tp_builder b;
	uint8_t buf[128];

	make_line();
	h_reset();
	lac = h_node(lac_yes);
	lns = h_node(lns_plain);
	ASSERT_TRUE(lac && lns);
	s = access_call(lac, lns);
	ASSERT_TRUE(s != NULL);
	t = lns->d->tunnels;
	l2d_tunnel_builder(t, &b, buf, sizeof(buf), 0, L2TP_MSG_CSURQ);
	al_put_csu(&b, s->peer_sid, 0, 0);
	ASSERT_EQ(l2d_tunnel_queue(t, buf, l2tp_build_end(&b)), 0);
	l2d_tunnel_flush(t);
	h_run_for(100);
	EXPECT_EQ(lac->sent[L2TP_MSG_CSUN], 1);
	/* the CSUN carries what the LAC knows: the line's actual rates */
	EXPECT_EQ(s->tx_bps, 10000000u);
	EXPECT_EQ(s->rx_bps, 1000000u);
	/* a CSUN sent to the LAC: acknowledged and logged, the call stays */
	l2d_tunnel_builder(t, &b, buf, sizeof(buf), 0, L2TP_MSG_CSUN);
	al_put_csu(&b, s->peer_sid, 5, 5);
	ASSERT_EQ(l2d_tunnel_queue(t, buf, l2tp_build_end(&b)), 0);
	l2d_tunnel_flush(t);
	h_run_for(100);
	EXPECT_EQ(h_sessions_in(lac, L2D_S_ESTABLISHED), 1);
	EXPECT_EQ(h_tunnels_in(lac, L2D_T_ESTABLISHED), 1);
	h_fini();
}

/* access-line names another profile, or is off: the ICRQ has no line. */
TEST(accessline_by_profile)
{
	const char *const *confs[] = { lac_other, lac_no };
	unsigned int i;

	make_line();
	for (i = 0; i < 2; i++) {
		struct h_node *lac, *lns;
		struct l2d_session *s;

		h_reset();
		lac = h_node(confs[i]);
		lns = h_node(lns_plain);
		ASSERT_TRUE(lac && lns);
		s = access_call(lac, lns);
		ASSERT_TRUE(s != NULL);
		EXPECT_EQ(s->al.present, 0u);
		EXPECT_FALSE(s->csu_enabled);
		EXPECT_FALSE(lac->d->tunnels->sessions->al_sent);
		EXPECT_EQ(l2d_session_send_csun(lac->d->tunnels->sessions, 1, 1), -EAGAIN);
		h_fini();
	}
}
