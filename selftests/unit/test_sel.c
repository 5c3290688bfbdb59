// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of one login's walk (core/sel.c): SPEC §2, S-SEL-1..11.  The
 * worked examples of the references (S-SEL-12) are replayed by the
 * simulator in selftests/unit/scenarios/.
 */
#include "core_fix.h"

static char tr[256];

/* S-SEL-1, S-SEL-3: search starts at level 0; success ends the login. */
UNIT_TEST(sel_1_3_starts_at_highest_level)
{
	static struct fix f;
	struct l2s_step st;

	fix_init(&f, 1);
	ASSERT_TRUE(fix_tunnel(&f, &f.prof, "LOW", 5, "10.0.0.5", 0) >= 0);
	ASSERT_TRUE(fix_tunnel(&f, &f.prof, "HIGH", 2, "10.0.0.2", 0) >= 0);
	st = fix_login(&f, &f.prof, 0, tr, sizeof(tr));
	EXPECT_TRUE(st.ok);
	EXPECT_STREQ(tr, "HIGH");
	EXPECT_EQ(f.prof.t[st.tunnel].sessions, 1);
	EXPECT_EQ(f.dests[st.dest].sessions, 1);
}

/* S-SEL-2: an attempt says whether the tunnel must be set up (SCCRQ) first. */
UNIT_TEST(sel_2_setup_only_for_tunnel_without_sessions)
{
	static struct fix f;
	struct l2s_login lg;
	struct l2s_step st;
	struct l2s_outcome ok = { .kind = L2S_OUT_OK };

	fix_init(&f, 1);
	ASSERT_TRUE(fix_tunnel(&f, &f.prof, "T1", 0, "10.0.0.1", 0) >= 0);
	ASSERT_EQ(l2s_sel_begin(&lg, &f.core, &f.prof, 0, &f.env, &st), L2S_STEP_ATTEMPT);
	EXPECT_EQ(st.setup, 1);
	ASSERT_EQ(l2s_sel_report(&lg, &f.core, &f.prof, &ok, &f.env, &st), L2S_STEP_DONE);
	ASSERT_EQ(l2s_sel_begin(&lg, &f.core, &f.prof, 0, &f.env, &st), L2S_STEP_ATTEMPT);
	EXPECT_EQ(st.setup, 0);
}

/* S-SEL-4: no reply locks out (global timer) and fails over. */
UNIT_TEST(sel_4_no_reply_locks_out_and_fails_over)
{
	static struct fix f;
	struct l2s_step st;

	fix_init(&f, 1);
	fix_tunnel(&f, &f.prof, "T1", 0, "10.0.0.1", 0);
	fix_tunnel(&f, &f.prof, "T2", 1, "10.0.0.2", 0);
	fix_silent(&f, 1);
	st = fix_login(&f, &f.prof, 0, tr, sizeof(tr));
	EXPECT_TRUE(st.ok);
	EXPECT_STREQ(tr, "T1 T2");
	EXPECT_EQ(f.dests[f.prof.t[0].dest].lock_until, f.env.now + 300000);
	ASSERT_TRUE(f.nev >= 1);
	EXPECT_EQ(f.ev[0].kind, L2S_EV_LOCKOUT);
	EXPECT_EQ(f.ev[0].ms, 300000);
	/* The lockout outlives the login: the next login skips T1 (on DLNC). */
	st = fix_login(&f, &f.prof, 0, tr, sizeof(tr));
	EXPECT_STREQ(tr, "T2");
	/* ... until the timer runs out: T1 is attempted again (still silent). */
	f.env.now += 300000;
	st = fix_login(&f, &f.prof, 0, tr, sizeof(tr));
	EXPECT_STREQ(tr, "T1 T2");
}

/*
 * A local failure (the LAC had no socket, ID or queue room for the attempt,
 * or its own rate limit refused it) fails over without locking anyone out:
 * the next login tries the same destination again.
 */
UNIT_TEST(sel_4_local_failure_fails_over_without_lockout)
{
	static struct fix f;
	struct l2s_step st;

	fix_init(&f, 1);
	fix_tunnel(&f, &f.prof, "T1", 0, "10.0.0.1", 0);
	fix_tunnel(&f, &f.prof, "T2", 1, "10.0.0.2", 0);
	f.answer[1].kind = L2S_OUT_LOCAL;
	st = fix_login(&f, &f.prof, 0, tr, sizeof(tr));
	EXPECT_TRUE(st.ok);
	EXPECT_STREQ(tr, "T1 T2");
	EXPECT_EQ(f.dests[f.prof.t[0].dest].lock_until, 0);
	EXPECT_EQ(f.nev, 0);
	EXPECT_EQ(f.prof.t[0].sessions, 0);
	EXPECT_EQ(f.prof.t[1].sessions, 1);
	/* every destination local-failed: exhausted, still nobody locked */
	f.answer[2].kind = L2S_OUT_LOCAL;
	st = fix_login(&f, &f.prof, 0, tr, sizeof(tr));
	EXPECT_TRUE(!st.ok);
	EXPECT_EQ(st.why, L2S_FAIL_EXHAUSTED);
	EXPECT_STREQ(tr, "T1 T2");
	EXPECT_EQ(f.dests[f.prof.t[1].dest].lock_until, 0);
	EXPECT_EQ(f.nev, 0);
}

/* S-SEL-4: CDN, StopCCN and a client that goes away end the login, no failover. */
UNIT_TEST(sel_4_cdn_stopccn_client_gone_end_login_without_failover)
{
	static const u8 kinds[] = { L2S_OUT_CDN, L2S_OUT_STOPCCN, L2S_OUT_CLIENT_GONE };
	static const u8 whys[] = { L2S_FAIL_CDN, L2S_FAIL_STOPCCN, L2S_FAIL_CLIENT_GONE };
	static struct fix f;
	struct l2s_step st;
	size_t i;

	for (i = 0; i < L2S_ARRAY_SIZE(kinds); i++) {
		fix_init(&f, 1);
		fix_tunnel(&f, &f.prof, "T1", 0, "10.0.0.1", 0);
		fix_tunnel(&f, &f.prof, "T2", 1, "10.0.0.2", 0);
		f.answer[1].kind = kinds[i];
		f.answer[1].result = 2;
		f.answer[1].error = 0;
		st = fix_login(&f, &f.prof, 0, tr, sizeof(tr));
		EXPECT_TRUE(!st.ok);
		EXPECT_EQ(st.why, whys[i]);
		EXPECT_STREQ(tr, "T1");
		EXPECT_EQ(f.dests[f.prof.t[0].dest].lock_until, 0);
		EXPECT_EQ(f.nev, 0);
		EXPECT_EQ(f.prof.t[0].sessions, 0);
	}
}

/* S-SEL-4 (per-profile setting): listed CDN / StopCCN result codes fail over. */
UNIT_TEST(sel_4_listed_result_codes_lock_out_and_fail_over)
{
	static struct fix f;
	struct l2s_step st;

	fix_init(&f, 1);
	fix_tunnel(&f, &f.prof, "T1", 0, "10.0.0.1", 0);
	fix_tunnel(&f, &f.prof, "T2", 1, "10.0.0.2", 0);
	fix_tunnel(&f, &f.prof, "T3", 2, "10.0.0.3", 0);
	f.prof.failover_cdn = 1u << 4;
	f.prof.failover_stopccn = 1u << 2;
	f.answer[1] = (struct l2s_outcome){ .kind = L2S_OUT_CDN, .result = 4, .error = 4 };
	f.answer[2] = (struct l2s_outcome){ .kind = L2S_OUT_STOPCCN, .result = 2 };
	st = fix_login(&f, &f.prof, 0, tr, sizeof(tr));
	EXPECT_TRUE(st.ok);
	EXPECT_STREQ(tr, "T1 T2 T3");
	EXPECT_TRUE(f.dests[f.prof.t[0].dest].lock_until > f.env.now);
	EXPECT_TRUE(f.dests[f.prof.t[1].dest].lock_until > f.env.now);
	/* A code that is not listed still ends the login. */
	f.env.now += 300000;
	f.answer[1] = (struct l2s_outcome){ .kind = L2S_OUT_CDN, .result = 5 };
	st = fix_login(&f, &f.prof, 0, tr, sizeof(tr));
	EXPECT_TRUE(!st.ok);
	EXPECT_EQ(st.why, L2S_FAIL_CDN);
}

/* S-SEL-5: between levels, one attempt per level visit. */
UNIT_TEST(sel_5_between_levels_one_attempt_per_level)
{
	static struct fix f;
	struct l2s_step st;

	fix_init(&f, 1);
	fix_tunnel(&f, &f.prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(&f, &f.prof, "B", 0, "10.0.0.2", 0);
	fix_tunnel(&f, &f.prof, "C", 1, "10.0.0.3", 0);
	fix_silent(&f, 1);
	fix_silent(&f, 2);
	f.pins[f.npins++] = 0;	/* A */
	st = fix_login(&f, &f.prof, 0, tr, sizeof(tr));
	EXPECT_TRUE(st.ok);
	EXPECT_STREQ(tr, "A C");
}

/* S-SEL-6: within a level, attempts continue until the level has none left. */
UNIT_TEST(sel_6_within_level_tries_whole_level)
{
	static struct fix f;
	struct l2s_step st;

	fix_init(&f, 1);
	f.prof.failover = L2S_FAILOVER_WITHIN_LEVEL;
	fix_tunnel(&f, &f.prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(&f, &f.prof, "B", 0, "10.0.0.2", 0);
	fix_tunnel(&f, &f.prof, "C", 1, "10.0.0.3", 0);
	fix_silent(&f, 1);
	fix_silent(&f, 2);
	f.pins[f.npins++] = 0;	/* A */
	st = fix_login(&f, &f.prof, 0, tr, sizeof(tr));
	EXPECT_TRUE(st.ok);
	EXPECT_STREQ(tr, "A B C");
}

/* S-SEL-7: a level whose valid destinations are all locked is skipped. */
UNIT_TEST(sel_7_level_without_unlocked_destination_dropped)
{
	static struct fix f;
	struct l2s_step st;

	fix_init(&f, 1);
	fix_tunnel(&f, &f.prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(&f, &f.prof, "B", 3, "10.0.0.2", 0);
	f.dests[f.prof.t[0].dest].lock_until = f.env.now + 5000;
	st = fix_login(&f, &f.prof, 0, tr, sizeof(tr));
	EXPECT_TRUE(st.ok);
	EXPECT_STREQ(tr, "B");
	ASSERT_EQ(f.nev, 1);
	EXPECT_EQ(f.ev[0].kind, L2S_EV_DLNC);
	/* S-SEL-3: success discards DLNC, the lockout itself stays. */
	EXPECT_TRUE(f.dests[f.prof.t[0].dest].lock_until > f.env.now);
}

/* S-SEL-8: lowest level, more than one valid destination, all locked. */
UNIT_TEST(sel_8_shortest_lockout_at_lowest_level)
{
	static struct fix f;
	struct l2s_step st;

	fix_init(&f, 1);
	fix_tunnel(&f, &f.prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(&f, &f.prof, "B", 0, "10.0.0.2", 0);
	fix_tunnel(&f, &f.prof, "C", 0, "10.0.0.3", 0);
	f.dests[f.prof.t[0].dest].lock_until = f.env.now + 50000;
	f.dests[f.prof.t[1].dest].lock_until = f.env.now + 20000;
	f.dests[f.prof.t[2].dest].lock_until = f.env.now + 90000;
	fix_silent(&f, 2);
	/* B (shortest) fails -> S-SEL-9: unlock A and C (DLNC), restart. */
	st = fix_login(&f, &f.prof, 0, tr, sizeof(tr));
	EXPECT_TRUE(st.ok);
	ASSERT_TRUE(!strcmp(tr, "B A") || !strcmp(tr, "B C"));
	EXPECT_EQ(f.ev[3].kind, L2S_EV_UNLOCK);
	EXPECT_EQ(f.ev[3].why, L2S_UNLOCK_SHORTEST);
}

/* S-SEL-8 does not apply with one locked valid destination: S-SEL-9 directly. */
UNIT_TEST(sel_8_9_single_locked_destination_goes_to_restart)
{
	static struct fix f;
	struct l2s_step st;
	int i, shortest = 0, dlnc_unlocks = 0;

	fix_init(&f, 1);
	fix_tunnel(&f, &f.prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(&f, &f.prof, "B", 1, "10.0.0.2", 0);
	f.dests[f.prof.t[1].dest].lock_until = f.env.now + 20000;
	fix_silent(&f, 1);
	st = fix_login(&f, &f.prof, 0, tr, sizeof(tr));
	EXPECT_TRUE(st.ok);
	EXPECT_STREQ(tr, "A B");
	for (i = 0; i < f.nev; i++) {
		shortest += f.ev[i].kind == L2S_EV_UNLOCK && f.ev[i].why == L2S_UNLOCK_SHORTEST;
		dlnc_unlocks += f.ev[i].kind == L2S_EV_UNLOCK && f.ev[i].why == L2S_UNLOCK_DLNC;
	}
	EXPECT_EQ(shortest, 0);
	EXPECT_EQ(dlnc_unlocks, 1);
}

/* S-SEL-8 note: between levels, a failed attempt at the lowest level goes to S-SEL-9. */
UNIT_TEST(sel_8_failed_attempt_at_lowest_level_skips_shortest)
{
	static struct fix f;
	struct l2s_step st;

	fix_init(&f, 1);
	fix_tunnel(&f, &f.prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(&f, &f.prof, "B", 0, "10.0.0.2", 0);
	fix_tunnel(&f, &f.prof, "C", 0, "10.0.0.3", 0);
	f.dests[f.prof.t[1].dest].lock_until = f.env.now + 20000;
	f.dests[f.prof.t[2].dest].lock_until = f.env.now + 10000;
	fix_silent(&f, 1);
	fix_silent(&f, 2);
	fix_silent(&f, 3);
	/* A fails; B and C (locked) are on DLNC -> unlocked, restart.  The
	 * second pass makes its one attempt at the (only) level, DLNC is now
	 * empty, and the login fails as S-SEL-9 says, although the other of
	 * B and C was never tried (documented in Documentation/selection.md).
	 */
	st = fix_login(&f, &f.prof, 0, tr, sizeof(tr));
	EXPECT_TRUE(!st.ok);
	EXPECT_EQ(st.why, L2S_FAIL_EXHAUSTED);
	EXPECT_TRUE(!strcmp(tr, "A B") || !strcmp(tr, "A C"));
}

/* S-SEL-9: DLNC unlocked and the search restarts; empty DLNC -> fail. */
UNIT_TEST(sel_9_restart_after_unlocking_dlnc)
{
	static struct fix f;
	struct l2s_step st;

	fix_init(&f, 1);
	fix_tunnel(&f, &f.prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(&f, &f.prof, "B", 1, "10.0.0.2", 0);
	f.dests[f.prof.t[0].dest].lock_until = f.env.now + 20000;
	fix_silent(&f, 2);
	st = fix_login(&f, &f.prof, 0, tr, sizeof(tr));
	EXPECT_TRUE(st.ok);
	EXPECT_STREQ(tr, "B A");
	fix_silent(&f, 1);
	f.env.now += 1000000;
	st = fix_login(&f, &f.prof, 0, tr, sizeof(tr));
	EXPECT_TRUE(!st.ok);
	EXPECT_STREQ(tr, "A B");
}

/* S-SEL-10: a full tunnel is never attempted; its destination stays valid through others. */
UNIT_TEST(sel_10_full_tunnel_excluded_destination_valid_via_other)
{
	static struct fix f;
	struct l2s_step st;
	int i;

	fix_init(&f, 1);
	fix_tunnel(&f, &f.prof, "FULL", 0, "10.0.0.1", 2);
	fix_tunnel(&f, &f.prof, "OTHER", 1, "10.0.0.1", 0);
	fix_tunnel(&f, &f.prof, "LAST", 2, "10.0.0.9", 0);
	for (i = 0; i < 2; i++) {
		st = fix_login(&f, &f.prof, 0, tr, sizeof(tr));
		EXPECT_STREQ(tr, "FULL");
	}
	st = fix_login(&f, &f.prof, 0, tr, sizeof(tr));
	EXPECT_TRUE(st.ok);
	EXPECT_STREQ(tr, "OTHER");
	EXPECT_EQ(f.dests[st.dest].sessions, 3);
	/* Once released, FULL is preferred again. */
	EXPECT_EQ(l2s_tunnel_session_down(&f.core, &f.prof, 0), 0);
	st = fix_login(&f, &f.prof, 0, tr, sizeof(tr));
	EXPECT_STREQ(tr, "FULL");
}

/* S-SEL-11: clear all lockouts, or by local or remote gateway address. */
UNIT_TEST(sel_11_clear_lockout_all_local_remote)
{
	static struct fix f;
	struct l2s_tunnel_conf tc = { .name = "L", .level = 0 };
	struct l2s_dest_key k;
	struct l2s_addr a;
	u32 i;

	fix_init(&f, 1);
	fix_tunnel(&f, &f.prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(&f, &f.prof, "B", 0, "10.0.0.2", 0);
	tc.dest = fix_key("10.0.0.3", "192.0.2.1", 0);
	ASSERT_TRUE(l2s_tunnel_add(&f.core, &f.prof, &tc, NULL) >= 0);
	for (i = 0; i < f.prof.ndests; i++)
		f.dests[f.prof.pdest[i]].lock_until = f.env.now + 1000;

	k = fix_key("10.0.0.2", NULL, 0);
	EXPECT_EQ(l2s_lockout_clear(&f.core, NULL, &k.remote, &f.env), 1);
	EXPECT_EQ(f.dests[f.prof.t[1].dest].lock_until, 0);
	EXPECT_TRUE(f.dests[f.prof.t[0].dest].lock_until > 0);

	a = fix_key("192.0.2.1", NULL, 0).remote;
	EXPECT_EQ(l2s_lockout_clear(&f.core, &a, NULL, &f.env), 1);
	EXPECT_EQ(f.dests[f.prof.t[2].dest].lock_until, 0);

	EXPECT_EQ(l2s_lockout_clear(&f.core, NULL, NULL, &f.env), 1);
	EXPECT_EQ(f.dests[f.prof.t[0].dest].lock_until, 0);
	ASSERT_EQ(f.nev, 3);
	for (i = 0; i < 3; i++)
		EXPECT_EQ(f.ev[i].why, L2S_UNLOCK_CLEAR);
}

/* Expired lockouts are reported once and reset. */
UNIT_TEST(sel_lockout_expiry_reported)
{
	static struct fix f;

	fix_init(&f, 1);
	fix_tunnel(&f, &f.prof, "A", 0, "10.0.0.1", 0);
	f.dests[f.prof.t[0].dest].lock_until = f.env.now + 1000;
	EXPECT_EQ(l2s_lockout_expire(&f.core, &f.env), 0);
	f.env.now += 1000;
	EXPECT_EQ(l2s_lockout_expire(&f.core, &f.env), 1);
	EXPECT_EQ(l2s_lockout_expire(&f.core, &f.env), 0);
	ASSERT_EQ(f.nev, 1);
	EXPECT_EQ(f.ev[0].why, L2S_UNLOCK_EXPIRED);
}

/* The step API refuses a report without an attempt, and a changed profile. */
UNIT_TEST(sel_step_api_misuse_and_stale_profile)
{
	static struct fix f;
	struct l2s_outcome ok = { .kind = L2S_OUT_OK };
	struct l2s_login lg;
	struct l2s_step st;

	fix_init(&f, 1);
	EXPECT_EQ(l2s_sel_begin(&lg, &f.core, &f.prof, 0, &f.env, &st), L2S_STEP_DONE);
	EXPECT_EQ(st.why, L2S_FAIL_NO_TUNNELS);
	EXPECT_EQ(l2s_sel_report(&lg, &f.core, &f.prof, &ok, &f.env, &st), -1);
	fix_tunnel(&f, &f.prof, "A", 0, "10.0.0.1", 0);
	ASSERT_EQ(l2s_sel_begin(&lg, &f.core, &f.prof, 0, &f.env, &st), L2S_STEP_ATTEMPT);
	fix_tunnel(&f, &f.prof, "B", 0, "10.0.0.2", 0);
	EXPECT_EQ(l2s_sel_report(&lg, &f.core, &f.prof, &ok, &f.env, &st), L2S_STEP_DONE);
	EXPECT_EQ(st.ok, 0);
	EXPECT_EQ(st.why, L2S_FAIL_STALE);
	EXPECT_EQ(f.prof.t[0].sessions + f.prof.t[1].sessions, 0);
	/* Per-login state is a small fixed-size struct. */
	EXPECT_TRUE(sizeof(struct l2s_login) <= 32);
}

/* S-SEL-9 bound: another login relocking destinations between steps cannot
 * keep a login walking forever.
 */
UNIT_TEST(sel_9_restarts_bounded_under_concurrent_lockouts)
{
	static struct fix f;
	struct l2s_outcome silent = { .kind = L2S_OUT_NO_REPLY };
	struct l2s_login lg;
	struct l2s_step st;
	int rc, steps = 0;

	fix_init(&f, 1);
	fix_tunnel(&f, &f.prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(&f, &f.prof, "B", 1, "10.0.0.2", 0);
	fix_tunnel(&f, &f.prof, "C", 1, "10.0.0.3", 0);
	f.dests[f.prof.t[0].dest].lock_until = f.env.now + 1000;
	rc = l2s_sel_begin(&lg, &f.core, &f.prof, 0, &f.env, &st);
	while (rc == L2S_STEP_ATTEMPT && steps++ < 100) {
		/* Someone else locks A again before each report. */
		f.dests[f.prof.t[0].dest].lock_until = f.env.now + 1000;
		rc = l2s_sel_report(&lg, &f.core, &f.prof, &silent, &f.env, &st);
	}
	EXPECT_EQ(rc, L2S_STEP_DONE);
	EXPECT_TRUE(steps < 100);
	EXPECT_TRUE(lg.restarts <= L2S_MAX_RESTARTS);
}
