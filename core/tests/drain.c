// SPDX-License-Identifier: GPL-2.0
/*
 * Drain (S-OPS-1): a drained tunnel, or every tunnel to a drained
 * destination, takes no new login while its sessions stay.  Selection passes
 * it over as it passes over a full tunnel (S-SEL-10): the login goes to the
 * next eligible tunnel of the level, then down the levels; a drained
 * destination is not valid, so it never goes on DLNC, never counts for
 * S-SEL-8 and is never unlocked by S-SEL-9; a drain is not a lockout and
 * not a failure (no event, no lock, no attempt).  The KUnit suite
 * l2tpsel_drain and the userspace tests drain_*.
 */
#include "fix.h"

/* A drained tunnel is passed over; the level's other tunnel takes the login. */
T_CASE(drain_tunnel_skipped_in_level)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_step st;
	char tr[64];
	int i;

	fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "B", 0, "10.0.0.2", 0);
	f->prof.t[0].drain = 1;
	for (i = 0; i < 20; i++) {
		st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
		T_EXPECT_TRUE(st.ok);
		T_EXPECT_STREQ(tr, "B");
	}
	T_EXPECT_EQ(f->prof.t[0].sessions, 0u);
	T_EXPECT_EQ(f->prof.t[1].sessions, 20u);
	T_EXPECT_EQ(f->nev, 0);
}

/* Every tunnel of a level drained: the next level, in both failover modes (S-SEL-7). */
T_CASE(drain_level_dropped)
{
	static const u8 modes[] = { L2S_FAILOVER_BETWEEN_LEVELS, L2S_FAILOVER_WITHIN_LEVEL };
	struct l2s_step st;
	char tr[64];
	size_t m;

	for (m = 0; m < L2S_ARRAY_SIZE(modes); m++) {
		struct fix *f = fix_new(test, 1);

		f->prof.failover = modes[m];
		fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 0);
		fix_tunnel(f, &f->prof, "B", 0, "10.0.0.2", 0);
		fix_tunnel(f, &f->prof, "C", 1, "10.0.0.3", 0);
		f->prof.t[0].drain = 1;
		f->prof.t[1].drain = 1;
		st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
		T_EXPECT_TRUE(st.ok);
		T_EXPECT_STREQ(tr, "C");
		T_EXPECT_EQ(st.level, 1);
		T_EXPECT_EQ(f->nev, 0);	/* no DLNC, no lockout */
	}
}

/* A drained destination drains every tunnel to it, in every profile. */
T_CASE(drain_dest_every_tunnel)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_profile *q = fix_profile(test, "Q");
	struct l2s_step st;
	char tr[64];

	fix_tunnel(f, &f->prof, "A1", 0, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "A2", 1, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "B", 2, "10.0.0.2", 0);
	fix_tunnel(f, q, "QA", 0, "10.0.0.1", 0);
	fix_tunnel(f, q, "QC", 1, "10.0.0.3", 0);
	l2s_dest_set_drain(&f->core, f->prof.t[0].dest, true);
	T_EXPECT_TRUE(l2s_tunnel_drained(&f->core, &f->prof.t[0]));
	T_EXPECT_TRUE(l2s_tunnel_drained(&f->core, &q->t[0]));
	T_EXPECT_FALSE(l2s_tunnel_drained(&f->core, &f->prof.t[2]));
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	T_EXPECT_STREQ(tr, "B");
	st = fix_login(f, q, 0, tr, sizeof(tr));
	T_EXPECT_STREQ(tr, "QC");
	/* The drain ends: the destination takes logins again at once. */
	l2s_dest_set_drain(&f->core, f->prof.t[0].dest, false);
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	T_EXPECT_TRUE(st.ok);
	T_EXPECT_STREQ(tr, "A1");
}

/* Sessions stay through a drain and end as they would; the tunnel's counts are kept. */
T_CASE(drain_sessions_stay)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_step st;
	char tr[64];
	int i;

	fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 3);
	fix_tunnel(f, &f->prof, "B", 1, "10.0.0.2", 0);
	for (i = 0; i < 2; i++) {
		st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
		T_EXPECT_STREQ(tr, "A");
	}
	f->prof.t[0].drain = 1;
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	T_EXPECT_TRUE(st.ok);
	T_EXPECT_STREQ(tr, "B");
	T_EXPECT_EQ(f->prof.t[0].sessions, 2u);
	T_EXPECT_EQ(f->dests[f->prof.t[0].dest].sessions, 2u);
	T_EXPECT_EQ(l2s_tunnel_session_down(&f->core, &f->prof, 0), 0);
	T_EXPECT_EQ(l2s_tunnel_session_down(&f->core, &f->prof, 0), 0);
	T_EXPECT_EQ(f->prof.t[0].sessions, 0u);
	T_EXPECT_EQ(f->dests[f->prof.t[0].dest].sessions, 0u);
	/* Drained with no session left: still no login. */
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	T_EXPECT_STREQ(tr, "B");
}

/* Nothing but drained tunnels: the login fails as "drained", nothing tried, nothing locked. */
T_CASE(drain_everything)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_step st;
	char tr[64];

	fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "B", 1, "10.0.0.2", 0);
	f->prof.t[0].drain = 1;
	l2s_dest_set_drain(&f->core, f->prof.t[1].dest, true);
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	T_EXPECT_FALSE(st.ok);
	T_EXPECT_EQ(st.why, L2S_FAIL_DRAINED);
	T_EXPECT_STREQ(tr, "");
	T_EXPECT_STREQ(l2s_fail_name(st.why), "drained");
	T_EXPECT_EQ(f->nev, 0);
	T_EXPECT_EQ(f->dests[f->prof.t[0].dest].lock_until, 0u);
	T_EXPECT_EQ(f->dests[f->prof.t[1].dest].lock_until, 0u);
}

/* Attempts made and failed with the rest drained: exhausted, not drained. */
T_CASE(drain_after_failures_is_exhausted)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_step st;
	char tr[64];

	fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "B", 1, "10.0.0.2", 0);
	f->prof.t[1].drain = 1;
	fix_silent(f, 1);
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	T_EXPECT_FALSE(st.ok);
	T_EXPECT_EQ(st.why, L2S_FAIL_EXHAUSTED);
	T_EXPECT_STREQ(tr, "A");
	/* the drained B is not locked: only the silent A is */
	T_EXPECT_GT(f->dests[f->prof.t[0].dest].lock_until, f->env.now);
	T_EXPECT_EQ(f->dests[f->prof.t[1].dest].lock_until, 0u);
}

/*
 * A locked and drained destination is not valid: it does not go on DLNC
 * (S-SEL-2), so S-SEL-9 does not unlock it, and the lockout keeps running.
 */
T_CASE(drain_locked_not_on_dlnc)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_step st;
	char tr[64];
	u64 until;

	fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "B", 0, "10.0.0.2", 0);
	fix_lock(f, 0, 60000);
	until = f->dests[f->prof.t[0].dest].lock_until;
	f->prof.t[0].drain = 1;
	fix_silent(f, 2);
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	T_EXPECT_FALSE(st.ok);
	T_EXPECT_EQ(st.why, L2S_FAIL_EXHAUSTED);
	T_EXPECT_STREQ(tr, "B");
	T_EXPECT_EQ(f->dests[f->prof.t[0].dest].lock_until, until);
	T_ASSERT_EQ(f->nev, 1);	/* B's lockout only: A never on DLNC, never unlocked */
	T_EXPECT_EQ(f->ev[0].kind, L2S_EV_LOCKOUT);
	/* Undrained, A is valid again and locked: S-SEL-9 unlocks it (DLNC). */
	f->prof.t[0].drain = 0;
	f->answer[2].kind = 0;
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	T_EXPECT_TRUE(st.ok);
	T_EXPECT_STREQ(tr, "A");
}

/*
 * S-SEL-8 counts valid destinations: with one of two locked destinations
 * drained, only one is valid, so S-SEL-9 applies (no shortest-lockout
 * unlock of the drained one).  The shortest pick never takes a drained
 * tunnel to the destination it unlocks.
 */
T_CASE(drain_shortest_lockout)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_step st;
	char tr[64];
	int i, shortest = 0;

	fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "B", 0, "10.0.0.2", 0);
	fix_lock(f, 0, 10000);
	fix_lock(f, 1, 50000);
	f->prof.t[0].drain = 1;		/* A has the shortest lockout */
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	T_EXPECT_TRUE(st.ok);
	T_EXPECT_STREQ(tr, "B");
	for (i = 0; i < f->nev; i++)
		shortest += f->ev[i].kind == L2S_EV_UNLOCK && f->ev[i].why == L2S_UNLOCK_SHORTEST;
	T_EXPECT_EQ(shortest, 0);
	T_EXPECT_GT(f->dests[f->prof.t[0].dest].lock_until, f->env.now);

	/* Two tunnels to the shortest-locked destination, one drained: the other is attempted. */
	f = fix_new(test, 1);
	fix_tunnel(f, &f->prof, "A1", 0, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "A2", 0, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "B", 0, "10.0.0.2", 0);
	fix_lock(f, 0, 10000);
	fix_lock(f, 2, 50000);
	f->prof.t[0].drain = 1;
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	T_EXPECT_TRUE(st.ok);
	T_EXPECT_STREQ(tr, "A2");
}

/* Every load-balancing mode passes a drained tunnel over (S-LB-1..4). */
T_CASE(drain_every_lb_mode)
{
	static const u8 lbs[] = {
		L2S_LB_RANDOM, L2S_LB_WEIGHTED, L2S_LB_DEST_EQUAL, L2S_LB_HASH,
		L2S_LB_MINMISS_HASH,
	};
	struct l2s_step st;
	char tr[64];
	size_t m;
	u32 key;

	for (m = 0; m < L2S_ARRAY_SIZE(lbs); m++) {
		struct fix *f = fix_new(test, 7);

		f->prof.lb = lbs[m];
		fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 100);
		fix_tunnel(f, &f->prof, "B", 0, "10.0.0.2", 100);
		fix_tunnel(f, &f->prof, "C", 0, "10.0.0.3", 100);
		f->prof.t[1].drain = 1;
		for (key = 0; key < 40; key++) {
			st = fix_login(f, &f->prof, key * 2654435761u, tr, sizeof(tr));
			T_EXPECT_TRUE(st.ok);
			T_EXPECT_NE(st.tunnel, 1);
		}
		T_EXPECT_EQ(f->prof.t[1].sessions, 0u);
		T_EXPECT_EQ(f->prof.t[0].sessions + f->prof.t[2].sessions, 40u);
	}
}

/* An attempt picked before the drain goes on; its OK counts as a session there. */
T_CASE(drain_attempt_in_flight)
{
	struct l2s_outcome ok = { .kind = L2S_OUT_OK };
	struct fix *f = fix_new(test, 1);
	struct l2s_login lg;
	struct l2s_step st;

	fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 0);
	T_ASSERT_EQ(l2s_sel_begin(&lg, &f->core, &f->prof, 0, &f->env, &st),
		    L2S_STEP_ATTEMPT);
	f->prof.t[0].drain = 1;
	T_ASSERT_EQ(l2s_sel_report(&lg, &f->core, &f->prof, &ok, &f->env, &st),
		    L2S_STEP_DONE);
	T_EXPECT_TRUE(st.ok);
	T_EXPECT_EQ(f->prof.t[0].sessions, 1u);
	T_EXPECT_EQ(f->prof.t[0].inflight, 0u);
	/* A failure of such an attempt fails over past the drained tunnel. */
	fix_tunnel(f, &f->prof, "B", 1, "10.0.0.2", 0);
	f->prof.t[0].drain = 0;
	T_ASSERT_EQ(l2s_sel_begin(&lg, &f->core, &f->prof, 0, &f->env, &st),
		    L2S_STEP_ATTEMPT);
	f->prof.t[0].drain = 1;
	ok.kind = L2S_OUT_NO_REPLY;
	T_ASSERT_EQ(l2s_sel_report(&lg, &f->core, &f->prof, &ok, &f->env, &st),
		    L2S_STEP_ATTEMPT);
	T_EXPECT_EQ(st.tunnel, 1);
}

/* Drain by key: remote alone, or narrowed by port and local; a fresh slot is undrained. */
T_CASE(drain_dest_match)
{
	struct l2s_tunnel_conf tc = { .name = "X", .level = 0 };
	struct fix *f = fix_new(test, 1);
	struct l2s_err err = { 0 };
	struct l2s_dest_key k;
	int slot;

	tc.dest = fix_key("10.0.0.1", NULL, 0);
	T_ASSERT_GE(l2s_tunnel_add(&f->core, &f->prof, &tc, &err), 0);
	tc.name = "Y";
	tc.dest = fix_key("10.0.0.1", NULL, 1702);
	T_ASSERT_GE(l2s_tunnel_add(&f->core, &f->prof, &tc, &err), 0);
	tc.name = "Z";
	tc.dest = fix_key("10.0.0.1", "10.9.9.9", 0);
	T_ASSERT_GE(l2s_tunnel_add(&f->core, &f->prof, &tc, &err), 0);
	tc.name = "W";
	tc.dest = fix_key("10.0.0.2", NULL, 0);
	T_ASSERT_GE(l2s_tunnel_add(&f->core, &f->prof, &tc, &err), 0);

	k = fix_key("10.0.0.1", NULL, 0);
	T_EXPECT_EQ(l2s_dest_drain_match(&f->core, &k, false, false, true), 3u);
	T_EXPECT_TRUE(l2s_tunnel_drained(&f->core, &f->prof.t[2]));
	T_EXPECT_FALSE(l2s_tunnel_drained(&f->core, &f->prof.t[3]));
	T_EXPECT_EQ(l2s_dest_drain_match(&f->core, &k, true, false, false), 2u);
	T_EXPECT_TRUE(l2s_tunnel_drained(&f->core, &f->prof.t[1]));	/* port 1702 */
	T_EXPECT_FALSE(l2s_tunnel_drained(&f->core, &f->prof.t[0]));
	k = fix_key("10.0.0.1", "10.9.9.9", 0);
	T_EXPECT_EQ(l2s_dest_drain_match(&f->core, &k, false, true, true), 1u);
	T_EXPECT_TRUE(l2s_tunnel_drained(&f->core, &f->prof.t[2]));
	k = fix_key("10.0.0.77", NULL, 0);
	T_EXPECT_EQ(l2s_dest_drain_match(&f->core, &k, false, false, true), 0u);

	/* Its last tunnel gone, the slot is free; taken again, it is not drained. */
	slot = f->prof.t[3].dest;
	l2s_dest_set_drain(&f->core, (u32)slot, true);
	T_ASSERT_EQ(l2s_tunnel_del(&f->core, &f->prof, "W", &err), 0);
	tc.name = "V";
	tc.dest = fix_key("10.0.0.5", NULL, 0);
	T_ASSERT_GE(l2s_tunnel_add(&f->core, &f->prof, &tc, &err), 0);
	T_EXPECT_EQ(f->prof.t[l2s_tunnel_find(&f->prof, "V")].dest, slot);
	T_EXPECT_FALSE(l2s_dest_drained(&f->core, (u32)slot));
}

/* The tunnel's drain goes with it through a profile copy (the module's dry run). */
T_CASE(drain_profile_copy)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_profile *q = fix_profile(test, "Q");
	struct l2s_err err = { 0 };

	fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 0);
	f->prof.t[0].drain = 1;
	T_ASSERT_EQ(l2s_profile_copy(&f->core, q, &f->prof, 0, &err), 0);
	T_EXPECT_EQ(q->t[0].drain, 1);
	l2s_profile_free(&f->core, q);
}

T_SUITE(l2tpsel_drain,
	T_ENTRY(drain_tunnel_skipped_in_level)
	T_ENTRY(drain_level_dropped)
	T_ENTRY(drain_dest_every_tunnel)
	T_ENTRY(drain_sessions_stay)
	T_ENTRY(drain_everything)
	T_ENTRY(drain_after_failures_is_exhausted)
	T_ENTRY(drain_locked_not_on_dlnc)
	T_ENTRY(drain_shortest_lockout)
	T_ENTRY(drain_every_lb_mode)
	T_ENTRY(drain_attempt_in_flight)
	T_ENTRY(drain_dest_match)
	T_ENTRY(drain_profile_copy));
