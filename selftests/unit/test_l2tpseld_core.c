// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld's core (l2d.c) alone: it reaches the parts above it (tunnels,
 * calls, logins) only through the tables of l2d.h, so a core with tables
 * of its own dispatches to them: a peer's SCCRQ (Tunnel ID 0, RFC 2661
 * section 5.1), a datagram of a known tunnel, the end-of-turn reaping,
 * shutdown (StopCCN 6) and the end.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "l2tpseld_harness.h"

static struct {
	unsigned int input, input_new, stop, end, free_t, free_s, gone, free_lg;
	uint16_t stop_result;
	struct l2d_tunnel *last;
} seen;

static void f_input(struct l2d_tunnel *t, uint8_t *buf, size_t len)
{
	seen.input++;
	seen.last = t;
}

static void f_input_new(struct l2d *d, const struct l2d_addr *local, const struct l2d_addr *peer,
			uint8_t *buf, size_t len)
{
	seen.input_new++;
}

static void f_stop(struct l2d_tunnel *t, uint16_t result, uint16_t error, const char *text)
{
	seen.stop++;
	seen.stop_result = result;
}

static void f_end(struct l2d_tunnel *t)
{
	seen.end++;
	t->state = L2D_T_DEAD;
}

static void f_free_t(struct l2d_tunnel *t)
{
	seen.free_t++;
}

static void f_free_s(struct l2d_session *s)
{
	seen.free_s++;
}

static void f_gone(struct l2d_login *lg)
{
	seen.gone++;
	lg->d->logins = NULL;
}

static void f_free_lg(struct l2d_login *lg)
{
	seen.free_lg++;
	lg->d->logins = NULL;
}

static const struct l2d_tunnel_ops f_tops = {
	.input = f_input, .input_new = f_input_new, .stop = f_stop, .end = f_end, .free = f_free_t,
};
static const struct l2d_session_ops f_sops = { .free = f_free_s };
static const struct l2d_login_ops f_lops = { .client_gone = f_gone, .free = f_free_lg };
static const struct l2d_kops f_kops = { .name = "none" };

/* A control message's header alone: T, L, S, version 2 (RFC 2661 section 3.1). */
static size_t hdr(uint8_t *b, uint16_t tid)
{
	static const uint8_t h[12] = { 0xc8, 0x02, 0x00, 0x0c };

	memcpy(b, h, sizeof(h));
	b[4] = tid >> 8;
	b[5] = tid & 0xff;
	return sizeof(h);
}

TEST(l2tpseld_core_dispatches_through_the_tables)
{
	struct l2d_conf conf;
	struct l2d_loop loop;
	struct l2d *d = calloc(1, sizeof(*d));
	struct l2d_tunnel *t = calloc(1, sizeof(*t));
	struct l2d_session *s = calloc(1, sizeof(*s));
	struct l2d_login *lg = calloc(1, sizeof(*lg));
	struct l2d_addr local, peer, other;
	uint8_t buf[64];
	size_t n;

	ASSERT_TRUE(d && t && s && lg);
	memset(&seen, 0, sizeof(seen));
	l2d_conf_defaults(&conf);
	conf.log_level = 0;
	l2d_loop_init(&loop, false);
	ASSERT_EQ(l2d_init(d, &conf, &loop, NULL, &f_kops), 0);
	d->tops = &f_tops;
	d->sops = &f_sops;
	d->lops = &f_lops;
	l2d_addr_set(&local, "\x0a\x00\x00\x01", 4, 1701);
	l2d_addr_set(&peer, "\x0a\x00\x00\x02", 4, 1701);
	l2d_addr_set(&other, "\x0a\x00\x00\x03", 4, 1701);

	/* Tunnel ID 0: a new peer's */
	n = hdr(buf, 0);
	l2d_input(d, &local, &peer, buf, n);
	EXPECT_EQ(seen.input_new, 1);
	EXPECT_EQ(seen.input, 0);

	/* a known tunnel's, from its peer; from another address it is no tunnel's */
	t->d = d;
	t->tid = 7;
	t->peer = peer;
	t->state = L2D_T_ESTABLISHED;
	d->tunnels = t;
	d->tun_by_id[7] = t;
	n = hdr(buf, 7);
	l2d_input(d, &local, &peer, buf, n);
	EXPECT_EQ(seen.input, 1);
	EXPECT_TRUE(seen.last == t);
	EXPECT_TRUE(l2d_addr_eq(&t->rx_local, &local, true));
	l2d_input(d, &local, &other, buf, n);
	EXPECT_EQ(seen.input, 1);
	EXPECT_EQ(d->stats.rx_no_tunnel, 1);
	l2d_input(d, &local, &peer, buf, 5);
	EXPECT_EQ(d->stats.rx_discard, 1);
	EXPECT_EQ(d->stats.rx, 4);

	/* shutdown: the logins end as their clients left, each tunnel gets StopCCN 6 */
	lg->d = d;
	d->logins = lg;
	l2d_shutdown(d);
	EXPECT_EQ(seen.gone, 1);
	EXPECT_EQ(seen.stop, 1);
	EXPECT_EQ(seen.stop_result, L2TP_STOPCCN_SHUTTING_DOWN);

	/* the end of the turn frees the dead calls; the end frees the rest */
	d->dead_sessions = s;
	l2d_reap_later(d);
	l2d_timers_run(&loop, l2d_now(&loop));
	EXPECT_EQ(seen.free_s, 1);
	EXPECT_EQ(seen.free_t, 0);
	d->logins = lg;
	l2d_fini(d);
	EXPECT_EQ(seen.free_lg, 1);
	EXPECT_EQ(seen.end, 1);
	EXPECT_EQ(seen.free_t, 1);
	EXPECT_TRUE(d->tunnels == NULL);
	l2d_loop_fini(&loop);
	free(lg);
	free(s);
	free(t);
	free(d);
}

/* A login is an API client's or a subscriber's: one asked for by both is refused. */
TEST(l2tpseld_core_login_req_one_requester)
{
	struct l2d_conf conf;
	struct l2d_loop loop;
	struct l2d *d = calloc(1, sizeof(*d));
	int client, sub;
	char err[128] = "";

	ASSERT_TRUE(d != NULL);
	l2d_conf_defaults(&conf);
	conf.log_level = 0;
	l2d_loop_init(&loop, false);
	ASSERT_EQ(l2d_agent_init(d, &conf, &loop, NULL, &l2d_kops_none), 0);
	EXPECT_EQ(l2d_login_start(d, &(struct l2d_login_req){
			.client = (struct api_conn *)&client, .access = (struct sub *)&sub,
			.user = "a@b" }, err, sizeof(err)), 0u);
	EXPECT_STREQ(err, "a login is an API client's or a subscriber's, not both");
	EXPECT_EQ(l2d_login_start(d, &(struct l2d_login_req){ .user = "a@b", .nset = 2 },
				  err, sizeof(err)), 0u);
	EXPECT_STREQ(err, "a tunnel set without its entries");
	EXPECT_TRUE(d->logins == NULL);
	EXPECT_EQ(d->next_login_id, 0u);
	l2d_fini(d);
	l2d_loop_fini(&loop);
	free(d);
}

/* ---- l2d_alloc_id(): the one allocator of Tunnel and Session IDs ---- */

static uint16_t draw;
static unsigned int draws;

static void fixed_random(struct l2d *d, void *buf, size_t len)
{
	draws++;
	memcpy(buf, &draw, len < sizeof(draw) ? len : sizeof(draw));
}

static bool below_5(const struct l2d *d, uint16_t id)
{
	return id < 5;
}

static bool all(const struct l2d *d, uint16_t id)
{
	return true;
}

TEST(l2tpseld_core_alloc_id)
{
	static const struct l2d_env env = { .random = fixed_random };
	struct l2d *d = calloc(1, sizeof(*d));

	ASSERT_TRUE(d != NULL);
	d->env = &env;
	draw = 9;
	draws = 0;
	EXPECT_EQ(l2d_alloc_id(d, below_5), 9);	/* a free draw */
	EXPECT_EQ(draws, 1u);
	draw = 3;
	draws = 0;
	EXPECT_EQ(l2d_alloc_id(d, below_5), 5);	/* 64 taken draws: the lowest free */
	EXPECT_EQ(draws, 64u);
	draw = 0;
	EXPECT_EQ(l2d_alloc_id(d, below_5), 5);	/* 0 is never an ID (RFC 2661 3.1) */
	EXPECT_EQ(l2d_alloc_id(d, all), 0);		/* none left */
	free(d);
}
