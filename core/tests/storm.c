// SPDX-License-Identifier: GPL-2.0
/*
 * Logins in flight (core/sel.c, core/lb.c, core/obj.c; SPEC §3,
 * S-STORM-1, S-STORM-2): many logins picked before any is answered, as in
 * a login storm.  A login's attempt holds a place on its tunnel and
 * destination from the pick to the report; load balancing and max-sessions
 * count it as a session there, and every way a login ends gives it back.
 * The KUnit suite l2tpsel_storm and the userspace tests storm_*, one case
 * each (core/tests/t.h says how).
 */
#include "fix.h"

/* Logins begun and not yet done, with the step each is at. */
struct storm {
	struct l2s_login *lg;
	struct l2s_step *st;
	int *rc;
	u32 n;
};

/* Room for @cnt logins, with the test (a kernel stack cannot hold them); NULL without. */
static struct storm *storm_alloc(t_test *test, u32 cnt)
{
	struct storm *s = T_ZALLOC(sizeof(*s));

	if (!s)
		return NULL;
	s->lg = T_ZALLOC(cnt * sizeof(*s->lg));
	s->st = T_ZALLOC(cnt * sizeof(*s->st));
	s->rc = T_ZALLOC(cnt * sizeof(*s->rc));
	s->n = cnt;
	return s->lg && s->st && s->rc ? s : NULL;
}

/* In a case: the logins' room or the end of the case. */
#define storm_new(test, cnt) ({						\
	struct storm *_s = storm_alloc(test, cnt);			\
	T_ASSERT_NOT_NULL(_s);						\
	_s;								\
})

static void storm_begin(struct fix *f, struct l2s_profile *p, struct storm *s, u32 i)
{
	f->cur = p;
	s->rc[i] = l2s_sel_begin(&s->lg[i], &f->core, p, i * 2654435761u, &f->env, &s->st[i]);
}

static void storm_report(struct fix *f, struct l2s_profile *p, struct storm *s, u32 i, u8 kind)
{
	struct l2s_outcome o = { .kind = kind, .result = 2 };

	f->cur = p;
	s->rc[i] = l2s_sel_report(&s->lg[i], &f->core, p, &o, &f->env, &s->st[i]);
}

/* Every login of @s begun before any is answered. */
static void storm_begin_all(struct fix *f, struct l2s_profile *p, struct storm *s)
{
	u32 i;

	for (i = 0; i < s->n; i++)
		storm_begin(f, p, s, i);
}

/* Answer every login's attempt with the LNS's scripted answer, a round at a time. */
static void storm_answer_all(struct fix *f, struct l2s_profile *p, struct storm *s)
{
	u32 i, live = 1;

	while (live) {
		live = 0;
		for (i = 0; i < s->n; i++) {
			u8 kind;

			if (s->rc[i] != L2S_STEP_ATTEMPT)
				continue;
			kind = f->answer[fix_lns(f, s->st[i].dest)].kind;
			storm_report(f, p, s, i, kind ? kind : L2S_OUT_OK);
			live += s->rc[i] == L2S_STEP_ATTEMPT;
		}
	}
}

/* Logins of @s whose attempt is in flight on tunnel @t of @p. */
static u32 storm_on(const struct l2s_profile *p, const struct storm *s, u32 t)
{
	u32 i, n = 0;

	for (i = 0; i < s->n; i++)
		n += s->rc[i] == L2S_STEP_ATTEMPT && s->st[i].tunnel == t;
	return n;
}

/* No tunnel of @p above its max-sessions, sessions and logins in flight together. */
static bool none_above(const struct l2s_profile *p)
{
	u32 t;

	for (t = 0; t < p->ntunnels; t++)
		if (p->t[t].max_sessions && l2s_tunnel_load(&p->t[t]) > p->t[t].max_sessions)
			return false;
	return true;
}

/* Every session of @p ends; false when a count refused to go down. */
static bool sessions_down_all(struct fix *f, struct l2s_profile *p)
{
	u32 t;

	for (t = 0; t < p->ntunnels; t++)
		while (p->t[t].sessions)
			if (l2s_tunnel_session_down(&f->core, p, t))
				return false;
	return true;
}

/* Every count of the instance, in flight and live, is 0. */
static bool all_zero(const struct fix *f, const struct l2s_profile *p)
{
	u32 i;

	for (i = 0; i < p->ntunnels; i++)
		if (p->t[i].inflight || p->t[i].sessions)
			return false;
	for (i = 0; i < FIX_DESTS; i++)
		if (f->dests[i].inflight || f->dests[i].sessions)
			return false;
	return true;
}

/* max - min of @v[0..n) */
static u32 spread(const u32 *v, u32 n)
{
	u32 i, lo = v[0], hi = v[0];

	for (i = 1; i < n; i++) {
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	return hi - lo;
}

static void four_dests(struct fix *f, u32 max)
{
	fix_tunnel(f, &f->prof, "T1", 0, "10.0.0.1", max);
	fix_tunnel(f, &f->prof, "T2", 0, "10.0.0.2", max);
	fix_tunnel(f, &f->prof, "T3", 0, "10.0.0.3", max);
	fix_tunnel(f, &f->prof, "T4", 0, "10.0.0.4", max);
}

/*
 * S-STORM-1: N logins at once over four equal destinations with
 * destination-equal: each pick sees the logins already on their way, so
 * they spread evenly (the requirement: max - min within 10 % of the mean;
 * the rule gives at most 1).  Once answered, the sessions are as even, and
 * a second storm on top of them stays even.
 */
T_CASE(storm_1_dest_equal_at_once)
{
	static const u32 sizes[] = { 400, 1000 };
	u32 k, t;

	for (k = 0; k < L2S_ARRAY_SIZE(sizes); k++) {
		struct fix *f = fix_new(test, 3 + k);
		struct storm *s = storm_new(test, sizes[k]);
		u32 n = sizes[k], on[4], mean = n / 4;

		f->prof.lb = L2S_LB_DEST_EQUAL;
		four_dests(f, 0);
		storm_begin_all(f, &f->prof, s);
		for (t = 0; t < 4; t++) {
			on[t] = storm_on(&f->prof, s, t);
			T_EXPECT_EQ(f->prof.t[t].inflight, on[t]);
			T_EXPECT_EQ(f->dests[f->prof.t[t].dest].inflight, on[t]);
		}
		T_INFO("%u logins at once, destination-equal: %u/%u/%u/%u in flight", n,
		       on[0], on[1], on[2], on[3]);
		T_EXPECT_LE_MSG(spread(on, 4), mean / 10, "in flight %u/%u/%u/%u", on[0], on[1],
				on[2], on[3]);
		T_EXPECT_LE(spread(on, 4), 1u);
		storm_answer_all(f, &f->prof, s);
		for (t = 0; t < 4; t++) {
			on[t] = f->dests[f->prof.t[t].dest].sessions;
			T_EXPECT_EQ(f->prof.t[t].inflight, 0u);
		}
		T_EXPECT_LE(spread(on, 4), mean / 10);
		/* a second storm on top of the sessions */
		storm_begin_all(f, &f->prof, s);
		storm_answer_all(f, &f->prof, s);
		for (t = 0; t < 4; t++)
			on[t] = f->dests[f->prof.t[t].dest].sessions;
		T_EXPECT_LE_MSG(spread(on, 4), 2 * mean / 10, "sessions %u/%u/%u/%u", on[0], on[1],
				on[2], on[3]);
		T_EXPECT_LE(spread(on, 4), 1u);
	}
}

/*
 * S-STORM-1 as it was seen: 400 logins arriving at 200/s (2 per 10 ms),
 * each answered 2 s after its pick, destination-equal over four equal LNS.
 * The first 2 s of picks see no session at all, only logins in flight.
 */
T_CASE(storm_1_dest_equal_arrivals)
{
	struct fix *f = fix_new(test, 7);
	struct storm *s = storm_new(test, 400);
	u32 tick, i, t, on[4];

	f->prof.lb = L2S_LB_DEST_EQUAL;
	four_dests(f, 0);
	for (tick = 0; tick < 200 + 200; tick++) {
		f->env.now += 10;
		/* the answers due now: picked 2 s ago */
		for (i = 0; tick >= 200 && i < 2; i++)
			storm_report(f, &f->prof, s, (tick - 200) * 2 + i, L2S_OUT_OK);
		for (i = 0; tick < 200 && i < 2; i++)
			storm_begin(f, &f->prof, s, tick * 2 + i);
	}
	for (i = 0; i < 400; i++)
		T_ASSERT_TRUE(s->rc[i] == L2S_STEP_DONE && s->st[i].ok);
	for (t = 0; t < 4; t++)
		on[t] = f->dests[f->prof.t[t].dest].sessions;
	T_INFO("400 logins at 200/s, answered after 2 s: %u/%u/%u/%u sessions",
	       on[0], on[1], on[2], on[3]);
	T_EXPECT_LE_MSG(spread(on, 4), 10u, "sessions %u/%u/%u/%u", on[0], on[1], on[2], on[3]);
	T_EXPECT_LE(spread(on, 4), 1u);
	for (t = 0; t < 4; t++)
		T_EXPECT_EQ(f->dests[f->prof.t[t].dest].inflight, 0u);
}

/*
 * S-STORM-1, destination-equal with sessions already up: a storm fills the
 * least loaded destinations first, counting its own logins in flight, and
 * ends level with the rest.
 */
T_CASE(storm_1_dest_equal_fills_the_gap)
{
	struct fix *f = fix_new(test, 5);
	struct storm *s = storm_new(test, 1000);
	u32 t, on[4];

	f->prof.lb = L2S_LB_DEST_EQUAL;
	four_dests(f, 0);
	/* 300 sessions on 10.0.0.1 already: the storm brings the others up to it */
	f->prof.t[0].sessions = 300;
	f->dests[f->prof.t[0].dest].sessions = 300;
	storm_begin_all(f, &f->prof, s);
	for (t = 0; t < 4; t++)
		on[t] = (u32)l2s_dest_load(&f->dests[f->prof.t[t].dest]);
	T_INFO("1000 logins at once over 300/0/0/0 sessions: %u/%u/%u/%u", on[0], on[1], on[2],
	       on[3]);
	T_EXPECT_LE(spread(on, 4), 1u);
	T_EXPECT_LE(storm_on(&f->prof, s, 0), 26u);
}

/*
 * S-STORM-1 with weighted balancing: N logins at once keep to the weights
 * (max-sessions 1000/2000/3000/4000: 10/20/30/40 %), each tunnel within 3
 * logins of its share, the load per unit of weight within 10 % across the
 * tunnels; an unlimited level (weight 1 each) spreads evenly.
 */
T_CASE(storm_1_weighted_at_once)
{
	struct fix *f = fix_new(test, 11);
	struct storm *s = storm_new(test, 1000);
	u32 t, on[4], rel[4];

	f->prof.lb = L2S_LB_WEIGHTED;
	fix_tunnel(f, &f->prof, "W1", 0, "10.0.0.1", 1000);
	fix_tunnel(f, &f->prof, "W2", 0, "10.0.0.2", 2000);
	fix_tunnel(f, &f->prof, "W3", 0, "10.0.0.3", 3000);
	fix_tunnel(f, &f->prof, "W4", 0, "10.0.0.4", 4000);
	storm_begin_all(f, &f->prof, s);
	for (t = 0; t < 4; t++) {
		u32 share = 100 * (t + 1);	/* 1000 x w / 10000 */

		on[t] = storm_on(&f->prof, s, t);
		T_EXPECT_EQ(f->prof.t[t].inflight, on[t]);
		T_EXPECT_LE_MSG(on[t] > share ? on[t] - share : share - on[t], 3u,
				"tunnel W%u: %u in flight, its share %u", t + 1, on[t], share);
		rel[t] = on[t] * 1000 / share;	/* per mille of its share */
	}
	T_INFO("1000 logins at once, weighted 1:2:3:4: %u/%u/%u/%u in flight", on[0], on[1],
	       on[2], on[3]);
	T_EXPECT_LE_MSG(spread(rel, 4), 100u, "per mille of share %u/%u/%u/%u", rel[0], rel[1],
			rel[2], rel[3]);
	storm_answer_all(f, &f->prof, s);
	for (t = 0; t < 4; t++) {
		T_EXPECT_EQ(f->prof.t[t].sessions, on[t]);
		T_EXPECT_EQ(f->prof.t[t].inflight, 0u);
	}

	/* unlimited tunnels weigh 1 each */
	f = fix_new(test, 12);
	s = storm_new(test, 1000);
	f->prof.lb = L2S_LB_WEIGHTED;
	four_dests(f, 0);
	storm_begin_all(f, &f->prof, s);
	for (t = 0; t < 4; t++)
		on[t] = storm_on(&f->prof, s, t);
	T_INFO("1000 logins at once, weighted, unlimited: %u/%u/%u/%u", on[0], on[1], on[2],
	       on[3]);
	T_EXPECT_LE(spread(on, 4), 25u);
	T_EXPECT_LE(spread(on, 4), 3u);
}

/*
 * S-STORM-1: one login alone walks as without the count: with nothing in
 * flight, weighted draws over every candidate's pool (S-LB-2's pinned pools
 * of the 000 example), and a login never sees its own place.
 */
T_CASE(storm_1_single_login_unchanged)
{
	struct l2s_outcome nr = { .kind = L2S_OUT_NO_REPLY };
	struct fix *f = fix_new(test, 1);
	struct l2s_login lg;
	struct l2s_step st;

	f->prof.lb = L2S_LB_WEIGHTED;
	f->prof.failover = L2S_FAILOVER_WITHIN_LEVEL;
	fix_tunnel(f, &f->prof, "T1", 0, "10.0.0.1", 1000);
	fix_tunnel(f, &f->prof, "T2", 0, "10.0.0.2", 2000);
	fix_tunnel(f, &f->prof, "T3", 0, "10.0.0.3", 1);
	f->pins[f->npins++] = 1000;		/* T2's pool */
	T_ASSERT_EQ(l2s_sel_begin(&lg, &f->core, &f->prof, 0, &f->env, &st), L2S_STEP_ATTEMPT);
	T_EXPECT_EQ(st.tunnel, 1);
	T_EXPECT_EQ(f->prof.t[1].inflight, 1u);
	/* T3 (max 1) is not full for this login's next pick: its own place went back */
	f->pins[f->npins++] = 1000;		/* T3's pool: after T1's 1000 */
	T_ASSERT_EQ(l2s_sel_report(&lg, &f->core, &f->prof, &nr, &f->env, &st),
		    L2S_STEP_ATTEMPT);
	T_EXPECT_EQ(st.tunnel, 2);
	T_EXPECT_EQ(f->prof.t[1].inflight, 0u);
	T_EXPECT_EQ(f->prof.t[2].inflight, 1u);
	T_EXPECT_EQ(f->pin_at, f->npins);
	T_EXPECT_TRUE(l2s_sel_end(&lg, &f->core, &f->prof));
	T_EXPECT_TRUE(all_zero(f, &f->prof));
}

/* The load-balancing modes a max-sessions storm runs under. */
struct storm_lb_row {
	u8 lb;
	const char *name;
};

static const struct storm_lb_row storm_lb_rows[] = {
	{ L2S_LB_RANDOM, "random" },
	{ L2S_LB_WEIGHTED, "weighted" },
	{ L2S_LB_DEST_EQUAL, "destination-equal" },
	{ L2S_LB_HASH, "hash" },
	{ L2S_LB_MINMISS_HASH, "minmiss-hash" },
};

/*
 * S-STORM-2: three tunnels of max-sessions 100 and 1000 logins at once:
 * after every pick no tunnel holds more than 100, sessions and logins in
 * flight together; the 700 beyond have no valid destination and fail
 * (S-SEL-10: exhausted); answered, each tunnel has exactly 100 sessions;
 * one session down makes room for exactly one login more.  In every
 * load-balancing mode.
 */
T_PARAM_CASE(storm_2_max_sessions, struct storm_lb_row, storm_lb_rows, name)
{
	struct fix *f = fix_new(test, 21);
	struct storm *s = storm_new(test, 1000);
	u32 i, t, placed = 0, refused = 0, worst = 0;
	struct l2s_step st;

	f->prof.lb = c->lb;
	fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 100);
	fix_tunnel(f, &f->prof, "B", 0, "10.0.0.2", 100);
	fix_tunnel(f, &f->prof, "C", 0, "10.0.0.3", 100);
	for (i = 0; i < s->n; i++) {
		storm_begin(f, &f->prof, s, i);
		for (t = 0; t < 3; t++)
			worst = (u32)l2s_tunnel_load(&f->prof.t[t]) > worst ?
				(u32)l2s_tunnel_load(&f->prof.t[t]) : worst;
		if (s->rc[i] == L2S_STEP_ATTEMPT) {
			placed++;
		} else {
			refused++;
			T_EXPECT_EQ(s->st[i].why, L2S_FAIL_EXHAUSTED);
		}
	}
	T_INFO("%s: 1000 logins at once on 3 x max-sessions 100: %u/%u/%u in flight, %u refused",
	       c->name, f->prof.t[0].inflight, f->prof.t[1].inflight, f->prof.t[2].inflight,
	       refused);
	T_EXPECT_LE_MSG(worst, 100u, "a tunnel held %u", worst);
	T_EXPECT_EQ(placed, 300u);
	T_EXPECT_EQ(refused, 700u);
	storm_answer_all(f, &f->prof, s);
	for (t = 0; t < 3; t++) {
		T_EXPECT_EQ(f->prof.t[t].sessions, 100u);
		T_EXPECT_EQ(f->prof.t[t].inflight, 0u);
	}
	T_EXPECT_FALSE(fix_login(f, &f->prof, 1, NULL, 0).ok);
	T_ASSERT_EQ(l2s_tunnel_session_down(&f->core, &f->prof, 1), 0);
	st = fix_login(f, &f->prof, 2, NULL, 0);
	T_EXPECT_TRUE(st.ok);
	T_EXPECT_EQ(st.tunnel, 1);
	T_EXPECT_FALSE(fix_login(f, &f->prof, 3, NULL, 0).ok);
}

/*
 * S-STORM-2: the overflow goes to the next level, which has its own
 * max-sessions, and beyond it the logins are refused; sessions already up
 * count as before.  Places given back (clients gone) are taken again by
 * logins failing over from a silent LNS, and never more than were given.
 */
T_CASE(storm_2_overflow_next_level)
{
	struct fix *f = fix_new(test, 23);
	struct storm *s = storm_new(test, 1000);
	u32 i, on[4], ok = 0, exhausted = 0, gone = 0;

	fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 100);
	fix_tunnel(f, &f->prof, "B", 0, "10.0.0.2", 100);
	fix_tunnel(f, &f->prof, "C", 0, "10.0.0.3", 100);
	fix_tunnel(f, &f->prof, "D", 1, "10.0.0.4", 700);
	/* 40 sessions on B already: 60 places left there */
	f->prof.t[1].sessions = 40;
	f->dests[f->prof.t[1].dest].sessions = 40;
	storm_begin_all(f, &f->prof, s);
	for (i = 0; i < 4; i++)
		on[i] = storm_on(&f->prof, s, i);
	for (i = 0; i < s->n; i++)
		exhausted += s->rc[i] == L2S_STEP_DONE && s->st[i].why == L2S_FAIL_EXHAUSTED;
	T_INFO("1000 logins at once: A/B/C/D %u/%u/%u/%u in flight, %u refused", on[0], on[1],
	       on[2], on[3], exhausted);
	T_EXPECT_EQ(on[0], 100u);
	T_EXPECT_EQ(on[1], 60u);
	T_EXPECT_EQ(on[2], 100u);
	T_EXPECT_EQ(on[3], 700u);
	T_EXPECT_EQ(exhausted, 40u);
	T_EXPECT_TRUE(none_above(&f->prof));
	/* 50 of D's clients go away: 50 places there */
	for (i = 0; i < s->n && gone < 50; i++) {
		if (s->rc[i] != L2S_STEP_ATTEMPT || s->st[i].tunnel != 3)
			continue;
		storm_report(f, &f->prof, s, i, L2S_OUT_CLIENT_GONE);
		gone++;
	}
	T_EXPECT_EQ(f->prof.t[3].inflight, 650u);
	/* A's LNS is silent: 50 of its 100 logins fail over into them, 50 find none */
	fix_silent(f, 1);
	for (i = 0; i < s->n; i++) {
		if (s->rc[i] != L2S_STEP_ATTEMPT || s->st[i].tunnel != 0)
			continue;
		storm_report(f, &f->prof, s, i, L2S_OUT_NO_REPLY);
		T_EXPECT_TRUE(none_above(&f->prof));
	}
	T_EXPECT_EQ(f->prof.t[0].inflight, 0u);
	T_EXPECT_EQ(f->prof.t[3].inflight, 700u);
	storm_answer_all(f, &f->prof, s);
	T_EXPECT_TRUE(none_above(&f->prof));
	exhausted = 0;
	for (i = 0; i < s->n; i++) {
		ok += s->st[i].ok;
		exhausted += !s->st[i].ok && s->st[i].why == L2S_FAIL_EXHAUSTED;
	}
	T_EXPECT_EQ(f->prof.t[0].sessions, 0u);
	T_EXPECT_EQ(f->prof.t[1].sessions, 100u);
	T_EXPECT_EQ(f->prof.t[2].sessions, 100u);
	T_EXPECT_EQ(f->prof.t[3].sessions, 700u);
	T_EXPECT_EQ(ok, 60u + 100u + 700u);
	T_EXPECT_EQ(exhausted, 40u + 50u);
	for (i = 0; i < 4; i++)
		T_EXPECT_EQ(f->prof.t[i].inflight, 0u);
}

/*
 * S-STORM-1, S-STORM-2: a destination's logins in flight are every
 * profile's (S-OBJ-1): a storm of profile Q sees P's logins on their way to
 * 10.0.0.1 and goes to 10.0.0.2.  A profile deleted with logins in flight
 * takes their places on the shared destinations with it.
 */
T_CASE(storm_2_shared_destination)
{
	struct fix *f = fix_new(test, 29);
	struct l2s_profile *q = fix_profile(test, "Q");
	struct storm *s = storm_new(test, 200), *s2 = storm_new(test, 200);
	u32 on[2];

	q->lb = L2S_LB_DEST_EQUAL;
	fix_tunnel(f, &f->prof, "P1", 0, "10.0.0.1", 0);
	fix_tunnel(f, q, "Q1", 0, "10.0.0.1", 0);
	fix_tunnel(f, q, "Q2", 0, "10.0.0.2", 0);
	storm_begin_all(f, &f->prof, s);
	T_EXPECT_EQ(f->dests[q->t[0].dest].inflight, 200u);
	storm_begin_all(f, q, s2);
	on[0] = (u32)l2s_dest_load(&f->dests[q->t[0].dest]);
	on[1] = (u32)l2s_dest_load(&f->dests[q->t[1].dest]);
	T_INFO("P's 200 logins on 10.0.0.1, then Q's 200: %u/%u in flight", on[0], on[1]);
	T_EXPECT_EQ(q->t[1].inflight, 200u);
	T_EXPECT_LE(spread(on, 2), 1u);
	l2s_profile_release(&f->core, q);
	T_EXPECT_EQ(f->dests[f->prof.t[0].dest].inflight, 200u);
	T_EXPECT_EQ(f->dests[f->prof.t[0].dest].inflight, f->prof.t[0].inflight);
	storm_answer_all(f, &f->prof, s);
	T_EXPECT_EQ(f->prof.t[0].sessions, 200u);
	T_EXPECT_EQ(f->dests[f->prof.t[0].dest].inflight, 0u);
	T_EXPECT_EQ(f->dests[f->prof.t[0].dest].sessions, 200u);
}

/*
 * S-STORM-2: every way a login ends gives its place back.  1000 logins in
 * flight over two levels, ended by: no reply everywhere (failover, then
 * exhausted), CDN, StopCCN, client gone, a local failure, OK and the
 * session's end, and without a report (l2s_sel_end(): aborted, timed out,
 * its owner gone).  Afterwards every count is 0.
 */
T_CASE(storm_2_released_on_every_end)
{
	static const u8 kinds[] = {
		L2S_OUT_NO_REPLY, L2S_OUT_CDN, L2S_OUT_STOPCCN, L2S_OUT_CLIENT_GONE,
		L2S_OUT_LOCAL, L2S_OUT_OK, 0,
	};
	u32 k, i, t;

	for (k = 0; k < L2S_ARRAY_SIZE(kinds); k++) {
		struct fix *f = fix_new(test, 31 + k);
		struct storm *s = storm_new(test, 1000);

		f->prof.lb = L2S_LB_DEST_EQUAL;
		fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 300);
		fix_tunnel(f, &f->prof, "B", 0, "10.0.0.2", 300);
		fix_tunnel(f, &f->prof, "C", 1, "10.0.0.3", 0);
		fix_tunnel(f, &f->prof, "D", 1, "10.0.0.1", 0);
		storm_begin_all(f, &f->prof, s);
		T_EXPECT_EQ(f->prof.t[0].inflight + f->prof.t[1].inflight, 600u);
		T_EXPECT_EQ(f->dests[f->prof.t[0].dest].inflight,
			    f->prof.t[0].inflight + f->prof.t[3].inflight);
		for (i = 0; i < s->n; i++) {
			if (kinds[k])
				while (s->rc[i] == L2S_STEP_ATTEMPT)
					storm_report(f, &f->prof, s, i, kinds[k]);
			else
				T_EXPECT_TRUE(l2s_sel_end(&s->lg[i], &f->core, &f->prof));
		}
		if (kinds[k] == L2S_OUT_OK) {
			for (i = 0; i < s->n; i++)
				T_ASSERT_TRUE(s->st[i].ok);
			for (t = 0; t < f->prof.ntunnels; t++)
				T_EXPECT_EQ(f->prof.t[t].inflight, 0u);
			T_EXPECT_TRUE(sessions_down_all(f, &f->prof));
		}
		T_EXPECT_TRUE_MSG(all_zero(f, &f->prof), "outcome %u leaves counts behind",
				  kinds[k]);
		/* an ended login gives back nothing twice, and takes no report */
		T_EXPECT_FALSE(l2s_sel_end(&s->lg[0], &f->core, &f->prof));
		storm_report(f, &f->prof, s, 0, L2S_OUT_OK);
		T_EXPECT_EQ(s->rc[0], -1);
		T_EXPECT_TRUE(all_zero(f, &f->prof));
	}
}

/*
 * S-STORM-2 under reconfiguration: a tunnel deleted with logins in flight
 * takes their places on the shared destination with it, and those logins
 * give back nothing when they end; a profile changed in between still finds
 * each login's tunnel by its uid.
 */
T_CASE(storm_2_released_with_the_tunnel)
{
	struct fix *f = fix_new(test, 41);
	struct storm *s = storm_new(test, 300);
	struct l2s_err err = { 0 };
	u32 i, t;

	f->prof.lb = L2S_LB_DEST_EQUAL;
	fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "A2", 0, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "B", 0, "10.0.0.2", 0);
	fix_tunnel(f, &f->prof, "C", 1, "10.0.0.3", 0);
	storm_begin_all(f, &f->prof, s);
	T_EXPECT_EQ(f->dests[f->prof.t[0].dest].inflight, 150u);
	t = f->prof.t[1].inflight;
	T_ASSERT_EQ(l2s_tunnel_del(&f->core, &f->prof, "A", &err), 0);
	T_EXPECT_EQ(f->dests[f->prof.t[0].dest].inflight, t);
	/* a tunnel added in front moves every index */
	fix_tunnel(f, &f->prof, "Z", 0, "10.0.0.26", 0);
	for (i = 0; i < s->n; i++) {
		if (i % 2)
			l2s_sel_end(&s->lg[i], &f->core, &f->prof);
		else
			while (s->rc[i] == L2S_STEP_ATTEMPT)
				storm_report(f, &f->prof, s, i, L2S_OUT_NO_REPLY);
	}
	T_EXPECT_TRUE(all_zero(f, &f->prof));
}

/*
 * The invariants of storm_counts_never_drift: how many counts are off.
 * @live[i]: login i has an attempt in progress, on the tunnel of uid @uid[i].
 */
static u32 counts_drifted(const struct fix *f, const bool *live, const u32 *uid)
{
	const struct l2s_profile *p = &f->prof;
	u32 t, j, bad = 0;

	for (t = 0; t < p->ntunnels; t++) {
		u32 n = 0, d = 0;

		for (j = 0; j < 64; j++)
			n += live[j] && uid[j] == p->t[t].uid;
		for (j = 0; j < p->ntunnels; j++)
			if (p->t[j].dest == p->t[t].dest)
				d += p->t[j].inflight;
		bad += p->t[t].inflight != n;
		bad += f->dests[p->t[t].dest].inflight != d;
	}
	return bad + !none_above(p);
}

/*
 * Counters never drift (S-STORM-2, S-LIM-9): logins begun, reported with
 * every outcome, ended without a report, sessions going down, tunnels added
 * and deleted and load-balancing modes changed, in random order; at every
 * step each tunnel's count of logins in flight is the number of logins
 * whose attempt is on it, each destination's the sum of its tunnels', no
 * tunnel is above its max-sessions; at the end everything is 0.
 */
T_CASE(storm_counts_never_drift)
{
	struct fix *f = fix_new(test, 97);
	struct l2s_login *lg = T_ZALLOC(64 * sizeof(*lg));
	struct l2s_step *st = T_ZALLOC(64 * sizeof(*st));
	u32 *uid = T_ZALLOC(64 * sizeof(*uid));
	u32 round, i, t, bad = 0, begun = 0, ended = 0;
	bool live[64] = { false }, stepped;
	char name[32], ip[16];

	T_ASSERT_TRUE(lg && st && uid);
	for (round = 0; round < 12000 && !bad; round++) {
		u32 r = fix_rand(f, &(struct l2s_draw){ .bound = 1000 });

		i = r % 64;
		stepped = false;
		if (r < 60) {
			snprintf(name, sizeof(name), "t%u", round);
			snprintf(ip, sizeof(ip), "10.0.0.%u", r % 12 + 1);
			if (f->prof.ntunnels < 40)
				fix_tunnel(f, &f->prof, name, r % 3, ip, r % 4 ? 3 + r % 7 : 0);
		} else if (r < 90 && f->prof.ntunnels) {
			struct l2s_err err = { 0 };

			t = r % f->prof.ntunnels;
			while (f->prof.t[t].sessions)
				l2s_tunnel_session_down(&f->core, &f->prof, t);
			snprintf(name, sizeof(name), "%s", f->prof.t[t].name);
			bad += l2s_tunnel_del(&f->core, &f->prof, name, &err) != 0;
		} else if (r < 100) {
			f->prof.lb = (u8)(r % 5);
		} else if (r < 300 && f->prof.ntunnels) {
			t = r % f->prof.ntunnels;
			if (f->prof.t[t].sessions)
				l2s_tunnel_session_down(&f->core, &f->prof, t);
		} else if (!live[i]) {
			live[i] = l2s_sel_begin(&lg[i], &f->core, &f->prof, r, &f->env, &st[i]) ==
				  L2S_STEP_ATTEMPT;
			stepped = true;
			begun++;
		} else if (r < 380) {
			l2s_sel_end(&lg[i], &f->core, &f->prof);
			live[i] = false;
			ended++;
		} else {
			static const u8 kinds[] = {
				L2S_OUT_OK, L2S_OUT_NO_REPLY, L2S_OUT_NO_REPLY, L2S_OUT_CDN,
				L2S_OUT_STOPCCN, L2S_OUT_CLIENT_GONE, L2S_OUT_LOCAL,
			};
			struct l2s_outcome o = { .kind = kinds[r % L2S_ARRAY_SIZE(kinds)] };

			live[i] = l2s_sel_report(&lg[i], &f->core, &f->prof, &o, &f->env, &st[i]) ==
				  L2S_STEP_ATTEMPT;
			stepped = true;
		}
		if (stepped && live[i])
			uid[i] = f->prof.t[st[i].tunnel].uid;
		f->env.now += r % 40;
		/* the invariants, every 8th round */
		if (round % 8)
			continue;
		bad += counts_drifted(f, live, uid);
		if (bad)
			T_INFO("round %u: the counts drifted", round);
	}
	T_EXPECT_EQ(bad, 0u);
	for (i = 0; i < 64; i++)
		if (live[i])
			l2s_sel_end(&lg[i], &f->core, &f->prof);
	T_EXPECT_TRUE(sessions_down_all(f, &f->prof));
	T_INFO("%u logins begun, %u ended without a report, %u tunnels left", begun, ended,
	       f->prof.ntunnels);
	T_EXPECT_TRUE(all_zero(f, &f->prof));
	T_EXPECT_GT(ended, 100u);
}

T_SUITE(l2tpsel_storm,
	T_ENTRY(storm_1_dest_equal_at_once)
	T_ENTRY(storm_1_dest_equal_arrivals)
	T_ENTRY(storm_1_dest_equal_fills_the_gap)
	T_ENTRY(storm_1_weighted_at_once)
	T_ENTRY(storm_1_single_login_unchanged)
	T_PARAM_ENTRY(storm_2_max_sessions)
	T_ENTRY(storm_2_overflow_next_level)
	T_ENTRY(storm_2_shared_destination)
	T_ENTRY(storm_2_released_on_every_end)
	T_ENTRY(storm_2_released_with_the_tunnel)
	T_ENTRY(storm_counts_never_drift));
