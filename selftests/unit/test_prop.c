// SPDX-License-Identifier: GPL-2.0
/*
 * Property tests of the walk over thousands of random profiles, states and
 * failure patterns (S-SEL-1..11, S-LB-1..4, S-LIM-9 for the core's counters).
 */
#include "tests/fix.h"

static u32 prng(u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (u32)(*s >> 32);
}

/* A random profile: 1..8 levels, 1..31 destinations, 1..2 tunnels each. */
static void random_profile(struct fix *f, u64 *s)
{
	u32 nd = 1 + prng(s) % 31, d, i;
	char name[16], addr[32];

	f->prof.failover = prng(s) % 2;
	f->prof.lb = prng(s) % 5;
	f->prof.failover_cdn = prng(s) % 2 ? 1u << 4 : 0;
	f->prof.failover_stopccn = prng(s) % 2 ? 1u << 2 : 0;
	for (d = 0; d < nd; d++) {
		u32 nt = 1 + prng(s) % 2;

		snprintf(addr, sizeof(addr), "10.0.0.%u", d + 1);
		for (i = 0; i < nt; i++) {
			u32 max = prng(s) % 3 ? 0 : 1 + prng(s) % 3;
			int t;

			snprintf(name, sizeof(name), "T%u.%u", d, i);
			t = fix_tunnel(f, &f->prof, name, prng(s) % 8, addr, max);
			if (t < 0)
				continue;
			if (max) {
				u32 have = prng(s) % (max + 1);

				f->prof.t[t].sessions = have;
				f->dests[f->prof.t[t].dest].sessions += have;
			}
		}
		if (prng(s) % 3 == 0)
			f->dests[f->prof.pdest[f->prof.ndests - 1]].lock_until =
				f->env.now + 1 + prng(s) % 600000;
	}
}

static struct l2s_outcome random_outcome(u64 *s)
{
	struct l2s_outcome o = { 0 };
	u32 r = prng(s) % 100;

	if (r < 30)
		o.kind = L2S_OUT_OK;
	else if (r < 80)
		o.kind = L2S_OUT_NO_REPLY;
	else if (r < 90)
		o.kind = L2S_OUT_CDN, o.result = prng(s) % 2 ? 4 : 2;
	else if (r < 97)
		o.kind = L2S_OUT_STOPCCN, o.result = prng(s) % 2 ? 2 : 6;
	else
		o.kind = L2S_OUT_CLIENT_GONE;
	return o;
}

static u32 n_shortest, n_restart, n_dlnc;

static void count_events(struct fix *f)
{
	int i;

	for (i = 0; i < f->nev; i++) {
		n_dlnc += f->ev[i].kind == L2S_EV_DLNC;
		n_shortest += f->ev[i].kind == L2S_EV_UNLOCK && f->ev[i].why == L2S_UNLOCK_SHORTEST;
		n_restart += f->ev[i].kind == L2S_EV_UNLOCK && f->ev[i].why == L2S_UNLOCK_DLNC;
	}
	f->nev = 0;
}

static int check_login(struct fix *f, u64 *s)
{
	struct l2s_profile *p = &f->prof;
	struct l2s_login lg;
	struct l2s_step st;
	u32 seen = 0, attempts = 0, last_restarts = 0;
	u32 visited[L2S_DESTS_PER_PROFILE + 2] = { 0 };	/* per pass: levels attempted */
	int rc, last_level = -1, bad = 0;

	rc = l2s_sel_begin(&lg, &f->core, p, prng(s), &f->env, &st);
	while (rc == L2S_STEP_ATTEMPT) {
		const struct l2s_tunnel *t = &p->t[st.tunnel];
		u32 bit = 1u << t->pdest;
		struct l2s_outcome o;

		attempts++;
		/* every attempt is a valid destination, through a tunnel below max */
		bad |= st.tunnel >= p->ntunnels;
		bad |= t->dest != st.dest;
		bad |= t->max_sessions && t->sessions >= t->max_sessions;
		/* the attempt holds its place, and nothing else does (S-STORM-2) */
		bad |= t->inflight != 1 || f->dests[st.dest].inflight != 1;
		bad |= l2s_dest_locked(&f->dests[st.dest], f->env.now);
		/* no destination attempted twice in one login */
		bad |= !!(seen & bit);
		seen |= bit;
		/* DLNC never holds a contacted destination */
		bad |= !!(lg.dlnc & lg.contacted);
		/* levels only go down within a pass (S-SEL-1, S-SEL-7) ... */
		if (lg.restarts != last_restarts)
			last_level = -1;
		bad |= (int)t->level < last_level;
		/* ... and between levels, one attempt per level per pass (S-SEL-5) */
		if (p->failover == L2S_FAILOVER_BETWEEN_LEVELS)
			bad |= !!(visited[lg.restarts] & (1u << t->level));
		visited[lg.restarts] |= 1u << t->level;
		last_level = t->level;
		last_restarts = lg.restarts;
		if (bad) {
			th_log("bad attempt %s (level %u) in attempt %u", t->name, t->level, attempts);
			return 1;
		}
		o = random_outcome(s);
		rc = l2s_sel_report(&lg, &f->core, &f->prof, &o, &f->env, &st);
		if (lg.dlnc & lg.contacted)
			return 1;
	}
	count_events(f);
	/* every login ends, with at most one attempt per destination */
	if (rc != L2S_STEP_DONE || attempts > p->ndests)
		return 1;
	if (!st.ok && st.why == L2S_FAIL_EXHAUSTED && lg.dlnc)
		return 1;
	/* without concurrent lockouts the restart bound is never what ends it */
	if (!st.ok && st.why == L2S_FAIL_RESTARTS)
		return 1;
	return 0;
}

/* S-SEL-1..11 properties over 3000 random profiles x 8 logins. */
TEST(prop_sel_random_profiles_and_failures)
{
	static struct fix f;
	u64 s = 0x1234567887654321ull;
	u32 i, j, failed = 0, logins = 0;

	for (i = 0; i < 3000; i++) {
		fix_init(&f, s ^ i);
		random_profile(&f, &s);
		for (j = 0; j < 8; j++) {
			if (check_login(&f, &s)) {
				failed++;
				th_log("profile %u login %u: property broken (lb %u, failover %u)",
					  i, j, f.prof.lb, f.prof.failover);
			}
			logins++;
			f.env.now += prng(&s) % 200000;
		}
	}
	th_log("%u logins over 3000 random profiles: %u DLNC entries, %u shortest-lockout unlocks, %u DLNC unlocks",
		  logins, n_dlnc, n_shortest, n_restart);
	EXPECT_EQ(failed, 0);
	/* the random cases do reach S-SEL-8 and S-SEL-9 */
	EXPECT_TRUE(n_shortest > 0 && n_restart > 0);
}

/* S-LIM-9 (core's counters), S-SEL-10: after random logins and logouts every
 * tunnel and destination count equals the live sessions; no tunnel exceeds
 * its max-sessions.
 */
TEST(prop_counters_equal_live_sessions)
{
	static struct fix f;
	static u16 live[20000];
	u64 s = 99;
	u32 round, nlive = 0, i, bad = 0;

	fix_init(&f, 5);
	f.prof.lb = L2S_LB_DEST_EQUAL;
	for (i = 0; i < 12; i++) {
		char name[8], addr[32];

		snprintf(name, sizeof(name), "T%u", i);
		snprintf(addr, sizeof(addr), "10.0.0.%u", 1 + i % 6);	/* shared dests */
		fix_tunnel(&f, &f.prof, name, i % 3, addr, i % 4 ? 5 + i : 0);
	}
	for (round = 0; round < 20000; round++) {
		if (prng(&s) % 3 && nlive < 20000) {
			struct l2s_login lg;
			struct l2s_step st;
			int rc = l2s_sel_begin(&lg, &f.core, &f.prof, 0, &f.env, &st);

			while (rc == L2S_STEP_ATTEMPT) {
				struct l2s_outcome o = random_outcome(&s);

				rc = l2s_sel_report(&lg, &f.core, &f.prof, &o, &f.env, &st);
			}
			if (st.ok)
				live[nlive++] = st.tunnel;
		} else if (nlive) {
			u32 k = prng(&s) % nlive;

			bad += l2s_tunnel_session_down(&f.core, &f.prof, live[k]) != 0;
			live[k] = live[--nlive];
		}
		f.env.now += 1000;
	}
	for (i = 0; i < f.prof.ntunnels; i++) {
		u32 n = 0, k;

		for (k = 0; k < nlive; k++)
			n += live[k] == i;
		bad += f.prof.t[i].sessions != n;
		bad += f.prof.t[i].max_sessions && n > f.prof.t[i].max_sessions;
	}
	for (i = 0; i < f.prof.ndests; i++) {
		u32 n = 0, k;

		for (k = 0; k < nlive; k++)
			n += f.prof.t[live[k]].pdest == i;
		bad += f.dests[f.prof.pdest[i]].sessions != n;
	}
	/* and a down without a session is refused instead of going negative */
	for (i = 0; i < f.prof.ntunnels; i++)
		while (f.prof.t[i].sessions)
			l2s_tunnel_session_down(&f.core, &f.prof, i);
	bad += l2s_tunnel_session_down(&f.core, &f.prof, 0) != -1;
	th_log("%u live sessions at the end", nlive);
	EXPECT_EQ(bad, 0);
}
