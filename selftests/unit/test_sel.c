// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of one login's walk (core/sel.c): SPEC §2, S-SEL-1..11.  The
 * worked examples of the references (S-SEL-12) are replayed by the
 * simulator in selftests/unit/scenarios/.
 */
#include "tests/fix.h"

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

/* The step API refuses a report without an attempt; the login state is small. */
UNIT_TEST(sel_step_api_misuse)
{
	static struct fix f;
	struct l2s_outcome ok = { .kind = L2S_OUT_OK };
	struct l2s_login lg;
	struct l2s_step st;

	fix_init(&f, 1);
	EXPECT_EQ(l2s_sel_begin(&lg, &f.core, &f.prof, 0, &f.env, &st), L2S_STEP_DONE);
	EXPECT_EQ(st.why, L2S_FAIL_NO_TUNNELS);
	EXPECT_EQ(l2s_sel_report(&lg, &f.core, &f.prof, &ok, &f.env, &st), -1);
	EXPECT_TRUE(sizeof(struct l2s_login) <= 96);
}

/* The name of the tunnel a step attempts. */
static const char *step_name(const struct l2s_profile *p, const struct l2s_step *st)
{
	return st->kind == L2S_STEP_ATTEMPT && st->tunnel < p->ntunnels ?
	       p->t[st->tunnel].name : "-";
}

static void del_tunnel(struct fix *f, const char *name)
{
	struct l2s_err err = { 0 };

	if (l2s_tunnel_del(&f->core, &f->prof, name, &err))
		UNIT_DIAG("tunnel_del %s: %s", name, err.msg);
}

/*
 * Tunnels added during a login (a backup LNS at busy hour) shift every
 * index; the login goes on, and its OK counts on the tunnel it attempted.
 */
UNIT_TEST(sel_reconfig_add_keeps_login)
{
	static struct fix f;
	struct l2s_outcome ok = { .kind = L2S_OUT_OK };
	struct l2s_login lg;
	struct l2s_step st;
	int a;

	fix_init(&f, 1);
	fix_tunnel(&f, &f.prof, "A", 1, "10.0.0.1", 0);
	ASSERT_EQ(l2s_sel_begin(&lg, &f.core, &f.prof, 0, &f.env, &st), L2S_STEP_ATTEMPT);
	EXPECT_STREQ(step_name(&f.prof, &st), "A");
	/* Z sorts before A (a more preferred level): A's index moves. */
	fix_tunnel(&f, &f.prof, "Z", 0, "10.0.0.26", 0);
	fix_tunnel(&f, &f.prof, "B", 1, "10.0.0.2", 0);
	a = l2s_tunnel_find(&f.prof, "A");
	ASSERT_EQ(a, 1);
	EXPECT_EQ(l2s_sel_report(&lg, &f.core, &f.prof, &ok, &f.env, &st), L2S_STEP_DONE);
	EXPECT_EQ(st.ok, 1);
	EXPECT_EQ(st.tunnel, a);
	EXPECT_EQ(f.prof.t[a].sessions, 1);
	EXPECT_EQ(f.dests[f.prof.t[a].dest].sessions, 1);
	EXPECT_EQ(f.prof.t[0].sessions + f.prof.t[2].sessions, 0);
}

/*
 * The attempt's own tunnel deleted: an OK is stale (that session is on a
 * tunnel the configuration no longer has, nothing counted); a failure fails
 * over to the tunnels left, with no lockout of the deleted one's LNS.
 */
UNIT_TEST(sel_reconfig_attempt_tunnel_deleted)
{
	static struct fix f;
	struct l2s_outcome ok = { .kind = L2S_OUT_OK };
	struct l2s_outcome nr = { .kind = L2S_OUT_NO_REPLY };
	struct l2s_login lg;
	struct l2s_step st;
	u32 i;

	fix_init(&f, 1);
	fix_tunnel(&f, &f.prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(&f, &f.prof, "B", 1, "10.0.0.2", 0);
	ASSERT_EQ(l2s_sel_begin(&lg, &f.core, &f.prof, 0, &f.env, &st), L2S_STEP_ATTEMPT);
	EXPECT_STREQ(step_name(&f.prof, &st), "A");
	del_tunnel(&f, "A");
	EXPECT_EQ(l2s_sel_report(&lg, &f.core, &f.prof, &ok, &f.env, &st), L2S_STEP_DONE);
	EXPECT_EQ(st.ok, 0);
	EXPECT_EQ(st.why, L2S_FAIL_STALE);
	EXPECT_EQ(f.prof.t[0].sessions, 0);

	fix_tunnel(&f, &f.prof, "A", 0, "10.0.0.1", 0);
	ASSERT_EQ(l2s_sel_begin(&lg, &f.core, &f.prof, 0, &f.env, &st), L2S_STEP_ATTEMPT);
	EXPECT_STREQ(step_name(&f.prof, &st), "A");
	del_tunnel(&f, "A");
	f.nev = 0;
	EXPECT_EQ(l2s_sel_report(&lg, &f.core, &f.prof, &nr, &f.env, &st), L2S_STEP_ATTEMPT);
	EXPECT_STREQ(step_name(&f.prof, &st), "B");
	for (i = 0; i < FIX_DESTS; i++)
		EXPECT_EQ(f.dests[i].lock_until, 0);
	EXPECT_EQ(f.nev, 0);
	EXPECT_EQ(l2s_sel_report(&lg, &f.core, &f.prof, &ok, &f.env, &st), L2S_STEP_DONE);
	EXPECT_EQ(st.ok, 1);
	EXPECT_EQ(f.prof.t[0].sessions, 1);
}

/*
 * What the login learnt is carried over by destination, not by index: a
 * destination it contacted is not attempted again in the same pass after
 * tunnels were added in front of it, and a lockout is charged to the LNS
 * that did not answer.
 */
UNIT_TEST(sel_reconfig_contacted_carried_over)
{
	static struct fix f;
	struct l2s_outcome nr = { .kind = L2S_OUT_NO_REPLY };
	struct l2s_login lg;
	struct l2s_step st;
	char first[32], second[32], ip[16];

	fix_init(&f, 7);
	f.prof.failover = L2S_FAILOVER_WITHIN_LEVEL;
	fix_tunnel(&f, &f.prof, "A", 1, "10.0.0.1", 0);
	fix_tunnel(&f, &f.prof, "B", 1, "10.0.0.2", 0);
	fix_tunnel(&f, &f.prof, "C", 1, "10.0.0.3", 0);
	ASSERT_EQ(l2s_sel_begin(&lg, &f.core, &f.prof, 0, &f.env, &st), L2S_STEP_ATTEMPT);
	snprintf(first, sizeof(first), "%s", step_name(&f.prof, &st));
	ASSERT_EQ(l2s_sel_report(&lg, &f.core, &f.prof, &nr, &f.env, &st), L2S_STEP_ATTEMPT);
	snprintf(second, sizeof(second), "%s", step_name(&f.prof, &st));
	EXPECT_TRUE(strcmp(first, second) != 0);
	/* A level-0 tunnel to a new LNS and one more level-1 tunnel to the first. */
	fix_tunnel(&f, &f.prof, "Y", 1, "10.0.0.25", 0);
	snprintf(ip, sizeof(ip), "10.0.0.%d", first[0] - 'A' + 1);	/* A .1, B .2, C .3 */
	fix_tunnel(&f, &f.prof, "A2", 1, ip, 0);
	ASSERT_EQ(l2s_sel_report(&lg, &f.core, &f.prof, &nr, &f.env, &st), L2S_STEP_ATTEMPT);
	/* Neither LNS already tried in this pass (nor A2, to the first one). */
	EXPECT_TRUE(strcmp(step_name(&f.prof, &st), first) != 0);
	EXPECT_TRUE(strcmp(step_name(&f.prof, &st), second) != 0);
	EXPECT_TRUE(strcmp(step_name(&f.prof, &st), "A2") != 0);
	/* The two silent LNS are locked out, by their own destinations. */
	EXPECT_TRUE(f.dests[f.prof.t[l2s_tunnel_find(&f.prof, first)].dest].lock_until != 0);
	EXPECT_TRUE(f.dests[f.prof.t[l2s_tunnel_find(&f.prof, second)].dest].lock_until != 0);
	EXPECT_EQ(f.dests[f.prof.t[l2s_tunnel_find(&f.prof, step_name(&f.prof, &st))].dest].lock_until,
		  0);
}

/* The login's level deleted under it: it goes on at the next one. */
UNIT_TEST(sel_reconfig_level_deleted)
{
	static struct fix f;
	struct l2s_outcome nr = { .kind = L2S_OUT_NO_REPLY };
	struct l2s_login lg;
	struct l2s_step st;

	fix_init(&f, 1);
	fix_tunnel(&f, &f.prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(&f, &f.prof, "B", 1, "10.0.0.2", 0);
	fix_tunnel(&f, &f.prof, "C", 2, "10.0.0.3", 0);
	ASSERT_EQ(l2s_sel_begin(&lg, &f.core, &f.prof, 0, &f.env, &st), L2S_STEP_ATTEMPT);
	EXPECT_STREQ(step_name(&f.prof, &st), "A");
	ASSERT_EQ(l2s_sel_report(&lg, &f.core, &f.prof, &nr, &f.env, &st), L2S_STEP_ATTEMPT);
	EXPECT_STREQ(step_name(&f.prof, &st), "B");
	del_tunnel(&f, "B");
	ASSERT_EQ(l2s_sel_report(&lg, &f.core, &f.prof, &nr, &f.env, &st), L2S_STEP_ATTEMPT);
	EXPECT_STREQ(step_name(&f.prof, &st), "C");
	/* Every level at and below the login's deleted: the lowest left, visited. */
	del_tunnel(&f, "C");
	EXPECT_EQ(l2s_sel_report(&lg, &f.core, &f.prof, &nr, &f.env, &st), L2S_STEP_DONE);
	EXPECT_EQ(st.ok, 0);
	EXPECT_EQ(st.why, L2S_FAIL_EXHAUSTED);
}

/*
 * Random reconfiguration between the steps of concurrent logins: every
 * attempt names a tunnel of the current version, every OK counts on the
 * tunnel attempted, every login ends, and the counts add up.
 */
UNIT_TEST(sel_reconfig_random)
{
	static struct fix f;
	struct l2s_login lg[8];
	struct l2s_step st[8];
	u32 uid[8], round, oks = 0, total, whys[16] = { 0 };
	bool live[8] = { false };
	char name[32], ip[16];
	int i, j, k;

	fix_init(&f, 99);
	for (round = 0; round < 20000; round++) {
		u32 r = fix_rand(&f, &(struct l2s_draw){ .bound = 1000 });

		i = (int)(r % 8);
		if (r < 150) {			/* add a tunnel */
			snprintf(name, sizeof(name), "t%u", round);
			snprintf(ip, sizeof(ip), "10.0.0.%u", r % 20 + 1);
			if (f.prof.ntunnels < 60)
				fix_tunnel(&f, &f.prof, name, r % 4, ip, 0);
		} else if (r < 200 && f.prof.ntunnels) {	/* delete one, its sessions first */
			k = (int)(r % f.prof.ntunnels);
			while (f.prof.t[k].sessions) {
				ASSERT_EQ(l2s_tunnel_session_down(&f.core, &f.prof, (u32)k), 0);
				oks--;
			}
			snprintf(name, sizeof(name), "%s", f.prof.t[k].name);
			del_tunnel(&f, name);
		} else if (!live[i]) {
			live[i] = l2s_sel_begin(&lg[i], &f.core, &f.prof, r, &f.env, &st[i]) ==
				  L2S_STEP_ATTEMPT;
			if (live[i])
				uid[i] = f.prof.t[st[i].tunnel].uid;
		} else {
			struct l2s_outcome o = { .kind = r % 3 ? L2S_OUT_NO_REPLY : L2S_OUT_OK };
			int rc = l2s_sel_report(&lg[i], &f.core, &f.prof, &o, &f.env, &st[i]);

			if (rc == L2S_STEP_DONE)
				whys[st[i].ok ? 0 : st[i].why]++;
			if (rc == L2S_STEP_DONE && st[i].ok) {
				ASSERT_TRUE(st[i].tunnel < f.prof.ntunnels);
				EXPECT_EQ(f.prof.t[st[i].tunnel].uid, uid[i]);
				oks++;
			}
			live[i] = rc == L2S_STEP_ATTEMPT;
			if (live[i]) {
				ASSERT_TRUE(st[i].tunnel < f.prof.ntunnels);
				uid[i] = f.prof.t[st[i].tunnel].uid;
			}
		}
		f.env.now += r % 50;
	}
	total = 0;
	for (j = 0; j < f.prof.ntunnels; j++)
		total += f.prof.t[j].sessions;
	EXPECT_EQ(total, oks);
	UNIT_DIAG("%u sessions on %u tunnels at the end; logins ok %u, exhausted %u, stale %u, no tunnels %u",
		  oks, f.prof.ntunnels, whys[0], whys[L2S_FAIL_EXHAUSTED], whys[L2S_FAIL_STALE],
		  whys[L2S_FAIL_NO_TUNNELS]);
	EXPECT_TRUE(whys[0] > 1000);
	EXPECT_TRUE(whys[L2S_FAIL_STALE] > 10);
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
