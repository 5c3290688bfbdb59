// SPDX-License-Identifier: GPL-2.0
/*
 * One login's walk (core/sel.c, SPEC §2, S-SEL-1..11), its reconfiguration
 * under a running login, and the worked examples of references 000/002
 * (S-SEL-12) traced event by event against the simulator's golden output
 * in selftests/unit/scenarios/sel12_*.out: the KUnit suite l2tpsel_sel and
 * the userspace tests sel_*, one case each (core/tests/t.h).
 */
#include "fix.h"

/* S-SEL-1, S-SEL-3: the search starts at level 0; success ends the login. */
T_CASE(sel_1_3_highest_level)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_step st;
	char tr[64];

	T_ASSERT_GE(fix_tunnel(f, &f->prof, "LOW", 5, "10.0.0.5", 0), 0);
	T_ASSERT_GE(fix_tunnel(f, &f->prof, "HIGH", 2, "10.0.0.2", 0), 0);
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	T_EXPECT_TRUE(st.ok);
	T_EXPECT_STREQ(tr, "HIGH");
	T_EXPECT_EQ(f->prof.t[st.tunnel].sessions, 1u);
	T_EXPECT_EQ(f->dests[st.dest].sessions, 1u);
}

/* S-SEL-2: an attempt says whether the tunnel must be set up (SCCRQ) first. */
T_CASE(sel_2_setup)
{
	struct l2s_outcome ok = { .kind = L2S_OUT_OK };
	struct fix *f = fix_new(test, 1);
	struct l2s_login lg;
	struct l2s_step st;

	T_ASSERT_GE(fix_tunnel(f, &f->prof, "T1", 0, "10.0.0.1", 0), 0);
	T_ASSERT_EQ(l2s_sel_begin(&lg, &f->core, &f->prof, 0, &f->env, &st),
		    L2S_STEP_ATTEMPT);
	T_EXPECT_EQ(st.setup, 1);
	T_ASSERT_EQ(l2s_sel_report(&lg, &f->core, &f->prof, &ok, &f->env, &st),
		    L2S_STEP_DONE);
	T_ASSERT_EQ(l2s_sel_begin(&lg, &f->core, &f->prof, 0, &f->env, &st),
		    L2S_STEP_ATTEMPT);
	T_EXPECT_EQ(st.setup, 0);
}

/*
 * S-SEL-4: no reply locks out for the configured time and fails over; the
 * lockout outlives the login and ends exactly at its deadline on the
 * simulated clock (not a millisecond before).
 */
T_CASE(sel_4_lockout_expiry)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_step st;
	char tr[64];
	u64 t0;

	fix_tunnel(f, &f->prof, "T1", 0, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "T2", 1, "10.0.0.2", 0);
	fix_silent(f, 1);
	t0 = f->env.now;
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	T_EXPECT_TRUE(st.ok);
	T_EXPECT_STREQ(tr, "T1 T2");
	T_EXPECT_EQ(f->dests[f->prof.t[0].dest].lock_until, t0 + 300000);
	T_ASSERT_GE(f->nev, 1);
	T_EXPECT_EQ(f->ev[0].kind, L2S_EV_LOCKOUT);
	T_EXPECT_EQ(f->ev[0].ms, 300000u);
	/* The next login skips T1 (it goes on DLNC) ... */
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	T_EXPECT_STREQ(tr, "T2");
	/* ... also 1 ms before the deadline ... */
	f->env.now = t0 + 300000 - 1;
	T_EXPECT_TRUE(l2s_dest_locked(&f->dests[f->prof.t[0].dest], f->env.now));
	T_EXPECT_EQ(l2s_lockout_expire(&f->core, &f->env), 0u);
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	T_EXPECT_STREQ(tr, "T2");
	/* ... and at the deadline T1 is attempted again (still silent). */
	f->env.now = t0 + 300000;
	T_EXPECT_FALSE(l2s_dest_locked(&f->dests[f->prof.t[0].dest], f->env.now));
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	T_EXPECT_STREQ(tr, "T1 T2");
	/* Another lockout time: 60 s from now on. */
	T_ASSERT_EQ(l2s_set_lockout_time(&f->core, 60, NULL), 0);
	f->env.now += 300000;
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	T_EXPECT_EQ(f->dests[f->prof.t[0].dest].lock_until, f->env.now + 60000);
}

/* A local failure fails over without lockout (the unit test's case). */
T_CASE(sel_4_local)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_step st;
	char tr[64];

	fix_tunnel(f, &f->prof, "T1", 0, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "T2", 1, "10.0.0.2", 0);
	f->answer[1].kind = L2S_OUT_LOCAL;
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	T_EXPECT_TRUE(st.ok);
	T_EXPECT_STREQ(tr, "T1 T2");
	T_EXPECT_EQ(f->dests[f->prof.t[0].dest].lock_until, 0ull);
	T_EXPECT_EQ(f->nev, 0);
	f->answer[2].kind = L2S_OUT_LOCAL;
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	T_EXPECT_FALSE(st.ok);
	T_EXPECT_EQ(st.why, L2S_FAIL_EXHAUSTED);
	T_EXPECT_EQ(f->dests[f->prof.t[1].dest].lock_until, 0ull);
}

/* S-SEL-4: CDN, StopCCN and a client that goes away end the login, no failover. */
T_CASE(sel_4_no_failover)
{
	static const u8 kinds[] = { L2S_OUT_CDN, L2S_OUT_STOPCCN, L2S_OUT_CLIENT_GONE };
	static const u8 whys[] = { L2S_FAIL_CDN, L2S_FAIL_STOPCCN, L2S_FAIL_CLIENT_GONE };
	struct l2s_step st;
	char tr[64];
	size_t i;

	for (i = 0; i < L2S_ARRAY_SIZE(kinds); i++) {
		struct fix *f = fix_new(test, 1);

		fix_tunnel(f, &f->prof, "T1", 0, "10.0.0.1", 0);
		fix_tunnel(f, &f->prof, "T2", 1, "10.0.0.2", 0);
		f->answer[1].kind = kinds[i];
		f->answer[1].result = 2;
		st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
		T_EXPECT_FALSE(st.ok);
		T_EXPECT_EQ(st.why, whys[i]);
		T_EXPECT_STREQ(tr, "T1");
		T_EXPECT_EQ(f->dests[f->prof.t[0].dest].lock_until, 0ull);
		T_EXPECT_EQ(f->nev, 0);
		T_EXPECT_EQ(f->prof.t[0].sessions, 0u);
	}
}

/* S-SEL-4 (per-profile setting): listed CDN / StopCCN result codes fail over. */
T_CASE(sel_4_listed_codes)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_step st;
	char tr[64];

	fix_tunnel(f, &f->prof, "T1", 0, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "T2", 1, "10.0.0.2", 0);
	fix_tunnel(f, &f->prof, "T3", 2, "10.0.0.3", 0);
	f->prof.failover_cdn = 1u << 4;
	f->prof.failover_stopccn = 1u << 2;
	f->answer[1] = (struct l2s_outcome){ .kind = L2S_OUT_CDN, .result = 4, .error = 4 };
	f->answer[2] = (struct l2s_outcome){ .kind = L2S_OUT_STOPCCN, .result = 2 };
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	T_EXPECT_TRUE(st.ok);
	T_EXPECT_STREQ(tr, "T1 T2 T3");
	T_EXPECT_GT(f->dests[f->prof.t[0].dest].lock_until, f->env.now);
	T_EXPECT_GT(f->dests[f->prof.t[1].dest].lock_until, f->env.now);
	/* A code that is not listed still ends the login. */
	f->env.now += 300000;
	f->answer[1] = (struct l2s_outcome){ .kind = L2S_OUT_CDN, .result = 5 };
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	T_EXPECT_FALSE(st.ok);
	T_EXPECT_EQ(st.why, L2S_FAIL_CDN);
}

/* S-SEL-5 / S-SEL-6: between levels one attempt per level visit; within a
 * level, attempts go on until the level has none left.
 */
T_CASE(sel_5_6_failover_modes)
{
	static const struct {
		u8 mode;
		const char *want;
	} modes[] = {
		{ L2S_FAILOVER_BETWEEN_LEVELS, "A C" },
		{ L2S_FAILOVER_WITHIN_LEVEL, "A B C" },
	};
	struct l2s_step st;
	char tr[64];
	size_t i;

	for (i = 0; i < L2S_ARRAY_SIZE(modes); i++) {
		struct fix *f = fix_new(test, 1);

		f->prof.failover = modes[i].mode;
		fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 0);
		fix_tunnel(f, &f->prof, "B", 0, "10.0.0.2", 0);
		fix_tunnel(f, &f->prof, "C", 1, "10.0.0.3", 0);
		fix_silent(f, 1);
		fix_silent(f, 2);
		f->pins[f->npins++] = 0;	/* A */
		st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
		T_EXPECT_TRUE(st.ok);
		T_EXPECT_STREQ(tr, modes[i].want);
	}
}

/* S-SEL-7: a level whose valid destinations are all locked is skipped. */
T_CASE(sel_7_level_dropped)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_step st;
	char tr[64];

	fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "B", 3, "10.0.0.2", 0);
	fix_lock(f, 0, 5000);
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	T_EXPECT_TRUE(st.ok);
	T_EXPECT_STREQ(tr, "B");
	T_ASSERT_EQ(f->nev, 1);
	T_EXPECT_EQ(f->ev[0].kind, L2S_EV_DLNC);
	/* S-SEL-3: success discards DLNC, the lockout itself stays. */
	T_EXPECT_GT(f->dests[f->prof.t[0].dest].lock_until, f->env.now);
}

/* S-SEL-8: lowest level, more than one valid destination, all locked. */
T_CASE(sel_8_shortest)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_step st;
	char tr[64];

	fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "B", 0, "10.0.0.2", 0);
	fix_tunnel(f, &f->prof, "C", 0, "10.0.0.3", 0);
	fix_lock(f, 0, 50000);
	fix_lock(f, 1, 20000);
	fix_lock(f, 2, 90000);
	fix_silent(f, 2);
	/* B (shortest) fails -> S-SEL-9: unlock A and C (DLNC), restart. */
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	T_EXPECT_TRUE(st.ok);
	T_EXPECT_TRUE(!strcmp(tr, "B A") || !strcmp(tr, "B C"));
	T_ASSERT_GE(f->nev, 4);
	T_EXPECT_EQ(f->ev[3].kind, L2S_EV_UNLOCK);
	T_EXPECT_EQ(f->ev[3].why, L2S_UNLOCK_SHORTEST);
}

/* S-SEL-8 does not apply with one locked valid destination: S-SEL-9 directly. */
T_CASE(sel_8_9_single_locked)
{
	struct fix *f = fix_new(test, 1);
	int i, shortest = 0, dlnc = 0;
	struct l2s_step st;
	char tr[64];

	fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "B", 1, "10.0.0.2", 0);
	fix_lock(f, 1, 20000);
	fix_silent(f, 1);
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	T_EXPECT_TRUE(st.ok);
	T_EXPECT_STREQ(tr, "A B");
	for (i = 0; i < f->nev; i++) {
		shortest += f->ev[i].kind == L2S_EV_UNLOCK && f->ev[i].why == L2S_UNLOCK_SHORTEST;
		dlnc += f->ev[i].kind == L2S_EV_UNLOCK && f->ev[i].why == L2S_UNLOCK_DLNC;
	}
	T_EXPECT_EQ(shortest, 0);
	T_EXPECT_EQ(dlnc, 1);
}

/* S-SEL-8 note: between levels, a failed attempt at the lowest level goes to S-SEL-9. */
T_CASE(sel_8_failed_lowest)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_step st;
	char tr[64];

	fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "B", 0, "10.0.0.2", 0);
	fix_tunnel(f, &f->prof, "C", 0, "10.0.0.3", 0);
	fix_lock(f, 1, 20000);
	fix_lock(f, 2, 10000);
	fix_silent(f, 1);
	fix_silent(f, 2);
	fix_silent(f, 3);
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	T_EXPECT_FALSE(st.ok);
	T_EXPECT_EQ(st.why, L2S_FAIL_EXHAUSTED);
	T_EXPECT_TRUE(!strcmp(tr, "A B") || !strcmp(tr, "A C"));
}

/* S-SEL-9: DLNC unlocked and the search restarts; empty DLNC -> fail. */
T_CASE(sel_9_restart)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_step st;
	char tr[64];

	fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "B", 1, "10.0.0.2", 0);
	fix_lock(f, 0, 20000);
	fix_silent(f, 2);
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	T_EXPECT_TRUE(st.ok);
	T_EXPECT_STREQ(tr, "B A");
	fix_silent(f, 1);
	f->env.now += 1000000;
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	T_EXPECT_FALSE(st.ok);
	T_EXPECT_STREQ(tr, "A B");
}

/* S-SEL-9 bound: another login relocking destinations between steps cannot
 * keep a login walking forever.
 */
T_CASE(sel_9_restarts_bounded)
{
	struct l2s_outcome silent = { .kind = L2S_OUT_NO_REPLY };
	struct fix *f = fix_new(test, 1);
	struct l2s_login lg;
	struct l2s_step st;
	int rc, steps = 0;

	fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "B", 1, "10.0.0.2", 0);
	fix_tunnel(f, &f->prof, "C", 1, "10.0.0.3", 0);
	fix_lock(f, 0, 1000);
	rc = l2s_sel_begin(&lg, &f->core, &f->prof, 0, &f->env, &st);
	while (rc == L2S_STEP_ATTEMPT && steps++ < 100) {
		fix_lock(f, 0, 1000);	/* someone else locks A again */
		rc = l2s_sel_report(&lg, &f->core, &f->prof, &silent, &f->env, &st);
	}
	T_EXPECT_EQ(rc, L2S_STEP_DONE);
	T_EXPECT_LT(steps, 100);
	T_EXPECT_LE(lg.restarts, L2S_MAX_RESTARTS);
}

/* S-SEL-10: a full tunnel is never attempted; its destination stays valid through others. */
T_CASE(sel_10_full_tunnel)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_step st;
	char tr[64];
	int i;

	fix_tunnel(f, &f->prof, "FULL", 0, "10.0.0.1", 2);
	fix_tunnel(f, &f->prof, "OTHER", 1, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "LAST", 2, "10.0.0.9", 0);
	for (i = 0; i < 2; i++) {
		st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
		T_EXPECT_STREQ(tr, "FULL");
	}
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	T_EXPECT_TRUE(st.ok);
	T_EXPECT_STREQ(tr, "OTHER");
	T_EXPECT_EQ(f->dests[st.dest].sessions, 3u);
	T_EXPECT_EQ(l2s_tunnel_session_down(&f->core, &f->prof, 0), 0);
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	T_EXPECT_STREQ(tr, "FULL");
}

/* S-SEL-11: clear all lockouts, or by local or remote gateway address. */
T_CASE(sel_11_clear)
{
	struct l2s_tunnel_conf tc = { .name = "L", .level = 0 };
	struct fix *f = fix_new(test, 1);
	struct l2s_dest_key k;
	u32 i;

	fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "B", 0, "10.0.0.2", 0);
	tc.dest = fix_key("10.0.0.3", "192.0.2.1", 0);
	T_ASSERT_GE(l2s_tunnel_add(&f->core, &f->prof, &tc, NULL), 0);
	for (i = 0; i < f->prof.ndests; i++)
		f->dests[f->prof.pdest[i]].lock_until = f->env.now + 1000;

	k = fix_key("10.0.0.2", NULL, 0);
	T_EXPECT_EQ(l2s_lockout_clear(&f->core, NULL, &k.remote, &f->env), 1u);
	T_EXPECT_EQ(f->dests[f->prof.t[1].dest].lock_until, 0ull);
	T_EXPECT_GT(f->dests[f->prof.t[0].dest].lock_until, 0ull);
	k = fix_key("192.0.2.1", NULL, 0);
	T_EXPECT_EQ(l2s_lockout_clear(&f->core, &k.remote, NULL, &f->env), 1u);
	T_EXPECT_EQ(f->dests[f->prof.t[2].dest].lock_until, 0ull);
	T_EXPECT_EQ(l2s_lockout_clear(&f->core, NULL, NULL, &f->env), 1u);
	T_EXPECT_EQ(f->dests[f->prof.t[0].dest].lock_until, 0ull);
	T_ASSERT_EQ(f->nev, 3);
	for (i = 0; i < 3; i++)
		T_EXPECT_EQ(f->ev[i].why, L2S_UNLOCK_CLEAR);
}

/* Lockout expiry on the simulated clock: reported once, at the deadline. */
T_CASE(sel_expiry)
{
	struct fix *f = fix_new(test, 1);

	fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "B", 0, "10.0.0.2", 0);
	fix_lock(f, 0, 1000);
	fix_lock(f, 1, 2000);
	f->env.now += 999;
	T_EXPECT_EQ(l2s_lockout_expire(&f->core, &f->env), 0u);
	f->env.now += 1;
	T_EXPECT_EQ(l2s_lockout_expire(&f->core, &f->env), 1u);
	T_EXPECT_EQ(l2s_lockout_expire(&f->core, &f->env), 0u);
	f->env.now += 5000;
	T_EXPECT_EQ(l2s_lockout_expire(&f->core, &f->env), 1u);
	T_ASSERT_EQ(f->nev, 2);
	T_EXPECT_EQ(f->ev[0].why, L2S_UNLOCK_EXPIRED);
	T_EXPECT_EQ(f->ev[1].why, L2S_UNLOCK_EXPIRED);
	T_EXPECT_EQ(f->ev[0].dest, f->prof.t[0].dest);
	T_EXPECT_STREQ(f->trace, "unlock 10.0.0.1 expired; unlock 10.0.0.2 expired");
}

/*
 * The step API refuses a report without an attempt; a tunnel added during a
 * login does not end it (its OK counts on the tunnel attempted); an OK for
 * a tunnel deleted during the login is stale.
 */
T_CASE(sel_step_api)
{
	struct l2s_outcome ok = { .kind = L2S_OUT_OK };
	struct fix *f = fix_new(test, 1);
	struct l2s_err err = { };
	struct l2s_login lg;
	struct l2s_step st;

	T_EXPECT_EQ(l2s_sel_begin(&lg, &f->core, &f->prof, 0, &f->env, &st),
		    L2S_STEP_DONE);
	T_EXPECT_EQ(st.why, L2S_FAIL_NO_TUNNELS);
	T_EXPECT_EQ(l2s_sel_report(&lg, &f->core, &f->prof, &ok, &f->env, &st), -1);
	fix_tunnel(f, &f->prof, "A", 1, "10.0.0.1", 0);
	T_ASSERT_EQ(l2s_sel_begin(&lg, &f->core, &f->prof, 0, &f->env, &st),
		    L2S_STEP_ATTEMPT);
	fix_tunnel(f, &f->prof, "B", 0, "10.0.0.2", 0);
	T_EXPECT_EQ(l2s_sel_report(&lg, &f->core, &f->prof, &ok, &f->env, &st),
		    L2S_STEP_DONE);
	T_EXPECT_EQ(st.ok, 1);
	T_EXPECT_EQ(st.tunnel, 1);
	T_EXPECT_EQ(f->prof.t[1].sessions, 1u);
	T_ASSERT_EQ(l2s_tunnel_session_down(&f->core, &f->prof, 1), 0);
	T_ASSERT_EQ(l2s_sel_begin(&lg, &f->core, &f->prof, 0, &f->env, &st),
		    L2S_STEP_ATTEMPT);
	T_ASSERT_EQ(st.tunnel, 0);
	T_ASSERT_EQ(l2s_tunnel_del(&f->core, &f->prof, "B", &err), 0);
	T_EXPECT_EQ(l2s_sel_report(&lg, &f->core, &f->prof, &ok, &f->env, &st),
		    L2S_STEP_DONE);
	T_EXPECT_EQ(st.ok, 0);
	T_EXPECT_EQ(st.why, L2S_FAIL_STALE);
	T_EXPECT_EQ(f->prof.t[0].sessions, 0u);
	T_EXPECT_LE(sizeof(struct l2s_login), (size_t)96);
}

/*
 * S-SEL-12: the worked examples of references 000/002, as the scenarios
 * selftests/unit/scenarios/sel12_*.scen state them; the expected traces are
 * their golden .out files, event for event (attempts with their setup,
 * lockouts with their length, DLNC, unlocks with their reason, results).
 */
/* "Selection when failover between preference levels is configured". */
T_CASE(sel_12_between_levels)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_step st;

	fix_tunnel(f, &f->prof, "T1", 0, "192.168.10.10", 0);
	fix_tunnel(f, &f->prof, "T2", 1, "192.168.22.22", 0);
	fix_tunnel(f, &f->prof, "T3", 1, "192.168.33.33", 0);
	fix_tunnel(f, &f->prof, "T4", 2, "192.168.44.44", 0);
	fix_silent(f, 10);
	fix_silent(f, 22);
	fix_silent(f, 33);
	fix_silent(f, 44);
	/* "Es wählt 192.168.22.22 aus und versucht ... über Tunnel 2" */
	f->pick[f->npick++] = "T2";
	st = fix_login(f, &f->prof, 0, NULL, 0);
	T_EXPECT_FALSE(st.ok);
	T_EXPECT_STREQ(f->trace,
		       "att T1 192.168.10.10 sccrq; lock 192.168.10.10 300; "
		       "att T2 192.168.22.22 sccrq; lock 192.168.22.22 300; "
		       "att T4 192.168.44.44 sccrq; lock 192.168.44.44 300; "
		       "fail exhausted");
	T_EXPECT_EQ(f->pick_at, f->npick);
	/* Second login of the same client: 10.10 answers now. */
	f->trace[0] = '\0';
	f->answer[10].kind = 0;
	st = fix_login(f, &f->prof, 0, NULL, 0);
	T_EXPECT_TRUE(st.ok);
	T_EXPECT_STREQ(f->trace,
		       "dlnc 192.168.10.10; dlnc 192.168.22.22; "
		       "att T3 192.168.33.33 sccrq; lock 192.168.33.33 300; "
		       "dlnc 192.168.44.44; "
		       "unlock 192.168.10.10 dlnc; unlock 192.168.22.22 dlnc; "
		       "unlock 192.168.44.44 dlnc; "
		       "att T1 192.168.10.10 sccrq; ok T1");
	/* End state: 33.33 still locked, one session on 10.10. */
	T_EXPECT_TRUE(l2s_dest_locked(&f->dests[f->prof.t[2].dest], f->env.now));
	T_EXPECT_FALSE(l2s_dest_locked(&f->dests[f->prof.t[0].dest], f->env.now));
	T_EXPECT_EQ(f->dests[f->prof.t[0].dest].sessions, 1u);
}

/* "Selection when failover within a preference level is configured". */
T_CASE(sel_12_within_level)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_step st;
	int i;

	f->prof.failover = L2S_FAILOVER_WITHIN_LEVEL;
	fix_tunnel(f, &f->prof, "T1", 0, "192.168.1.1", 0);
	fix_tunnel(f, &f->prof, "T2", 0, "192.168.2.2", 0);
	fix_tunnel(f, &f->prof, "T3", 0, "192.168.3.3", 0);
	fix_tunnel(f, &f->prof, "T4", 1, "192.168.4.4", 0);
	fix_tunnel(f, &f->prof, "T5", 1, "192.168.5.5", 0);
	fix_lock(f, 2, 100000);
	for (i = 1; i <= 5; i++)
		fix_silent(f, i);
	f->pick[f->npick++] = "T2";
	f->pick[f->npick++] = "T4";
	st = fix_login(f, &f->prof, 0, NULL, 0);
	T_EXPECT_FALSE(st.ok);
	T_EXPECT_STREQ(f->trace,
		       "dlnc 192.168.3.3; "
		       "att T2 192.168.2.2 sccrq; lock 192.168.2.2 300; "
		       "att T1 192.168.1.1 sccrq; lock 192.168.1.1 300; "
		       "att T4 192.168.4.4 sccrq; lock 192.168.4.4 300; "
		       "att T5 192.168.5.5 sccrq; lock 192.168.5.5 300; "
		       "unlock 192.168.3.3 dlnc; "
		       "att T3 192.168.3.3 sccrq; lock 192.168.3.3 300; "
		       "fail exhausted");
	T_EXPECT_EQ(f->pick_at, f->npick);
}

/* The special case at the lowest level: the shortest remaining lockout. */
T_CASE(sel_12_shortest_lockout)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_step st;

	fix_tunnel(f, &f->prof, "T1", 0, "192.168.10.10", 0);
	fix_tunnel(f, &f->prof, "T2", 1, "192.168.22.22", 0);
	fix_tunnel(f, &f->prof, "T3", 1, "192.168.33.33", 0);
	fix_lock(f, 1, 245000);
	fix_lock(f, 2, 180000);
	fix_silent(f, 10);
	st = fix_login(f, &f->prof, 0, NULL, 0);
	T_EXPECT_TRUE(st.ok);
	T_EXPECT_TRUE(st.kind == L2S_STEP_DONE);
	T_EXPECT_STREQ(f->trace,
		       "att T1 192.168.10.10 sccrq; lock 192.168.10.10 300; "
		       "dlnc 192.168.22.22; dlnc 192.168.33.33; "
		       "unlock 192.168.33.33 shortest; "
		       "att T3 192.168.33.33 sccrq; ok T3");
	/* 22.22 keeps its lockout: only the shortest was unlocked. */
	T_EXPECT_EQ(f->dests[f->prof.t[1].dest].lock_until, f->env.now + 245000);
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
	t_test *test = f->test;

	if (l2s_tunnel_del(&f->core, &f->prof, name, &err))
		T_INFO("tunnel_del %s: %s", name, err.msg);
}

/*
 * Tunnels added during a login (a backup LNS at busy hour) shift every
 * index; the login goes on, and its OK counts on the tunnel it attempted.
 */
T_CASE(sel_reconfig_add_keeps_login)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_outcome ok = { .kind = L2S_OUT_OK };
	struct l2s_login lg;
	struct l2s_step st;
	int a;

	fix_tunnel(f, &f->prof, "A", 1, "10.0.0.1", 0);
	T_ASSERT_EQ(l2s_sel_begin(&lg, &f->core, &f->prof, 0, &f->env, &st), L2S_STEP_ATTEMPT);
	T_EXPECT_STREQ(step_name(&f->prof, &st), "A");
	/* Z sorts before A (a more preferred level): A's index moves. */
	fix_tunnel(f, &f->prof, "Z", 0, "10.0.0.26", 0);
	fix_tunnel(f, &f->prof, "B", 1, "10.0.0.2", 0);
	a = l2s_tunnel_find(&f->prof, "A");
	T_ASSERT_EQ(a, 1);
	T_EXPECT_EQ(l2s_sel_report(&lg, &f->core, &f->prof, &ok, &f->env, &st), L2S_STEP_DONE);
	T_EXPECT_EQ(st.ok, 1);
	T_EXPECT_EQ(st.tunnel, a);
	T_EXPECT_EQ(f->prof.t[a].sessions, 1);
	T_EXPECT_EQ(f->dests[f->prof.t[a].dest].sessions, 1);
	T_EXPECT_EQ(f->prof.t[0].sessions + f->prof.t[2].sessions, 0);
}

/*
 * The attempt's own tunnel deleted: an OK is stale (that session is on a
 * tunnel the configuration no longer has, nothing counted); a failure fails
 * over to the tunnels left, with no lockout of the deleted one's LNS.
 */
T_CASE(sel_reconfig_attempt_tunnel_deleted)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_outcome ok = { .kind = L2S_OUT_OK };
	struct l2s_outcome nr = { .kind = L2S_OUT_NO_REPLY };
	struct l2s_login lg;
	struct l2s_step st;
	u32 i;

	fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "B", 1, "10.0.0.2", 0);
	T_ASSERT_EQ(l2s_sel_begin(&lg, &f->core, &f->prof, 0, &f->env, &st), L2S_STEP_ATTEMPT);
	T_EXPECT_STREQ(step_name(&f->prof, &st), "A");
	del_tunnel(f, "A");
	T_EXPECT_EQ(l2s_sel_report(&lg, &f->core, &f->prof, &ok, &f->env, &st), L2S_STEP_DONE);
	T_EXPECT_EQ(st.ok, 0);
	T_EXPECT_EQ(st.why, L2S_FAIL_STALE);
	T_EXPECT_EQ(f->prof.t[0].sessions, 0);

	fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 0);
	T_ASSERT_EQ(l2s_sel_begin(&lg, &f->core, &f->prof, 0, &f->env, &st), L2S_STEP_ATTEMPT);
	T_EXPECT_STREQ(step_name(&f->prof, &st), "A");
	del_tunnel(f, "A");
	f->nev = 0;
	T_EXPECT_EQ(l2s_sel_report(&lg, &f->core, &f->prof, &nr, &f->env, &st), L2S_STEP_ATTEMPT);
	T_EXPECT_STREQ(step_name(&f->prof, &st), "B");
	for (i = 0; i < FIX_DESTS; i++)
		T_EXPECT_EQ(f->dests[i].lock_until, 0);
	T_EXPECT_EQ(f->nev, 0);
	T_EXPECT_EQ(l2s_sel_report(&lg, &f->core, &f->prof, &ok, &f->env, &st), L2S_STEP_DONE);
	T_EXPECT_EQ(st.ok, 1);
	T_EXPECT_EQ(f->prof.t[0].sessions, 1);
}

/*
 * What the login learnt is carried over by destination, not by index: a
 * destination it contacted is not attempted again in the same pass after
 * tunnels were added in front of it, and a lockout is charged to the LNS
 * that did not answer.
 */
T_CASE(sel_reconfig_contacted_carried_over)
{
	struct fix *f = fix_new(test, 7);
	struct l2s_outcome nr = { .kind = L2S_OUT_NO_REPLY };
	struct l2s_login lg;
	struct l2s_step st;
	char first[32], second[32], ip[16];
	int last;

	f->prof.failover = L2S_FAILOVER_WITHIN_LEVEL;
	fix_tunnel(f, &f->prof, "A", 1, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "B", 1, "10.0.0.2", 0);
	fix_tunnel(f, &f->prof, "C", 1, "10.0.0.3", 0);
	T_ASSERT_EQ(l2s_sel_begin(&lg, &f->core, &f->prof, 0, &f->env, &st), L2S_STEP_ATTEMPT);
	snprintf(first, sizeof(first), "%s", step_name(&f->prof, &st));
	T_ASSERT_EQ(l2s_sel_report(&lg, &f->core, &f->prof, &nr, &f->env, &st), L2S_STEP_ATTEMPT);
	snprintf(second, sizeof(second), "%s", step_name(&f->prof, &st));
	T_EXPECT_TRUE(strcmp(first, second) != 0);
	/* A level-0 tunnel to a new LNS and one more level-1 tunnel to the first. */
	fix_tunnel(f, &f->prof, "Y", 1, "10.0.0.25", 0);
	snprintf(ip, sizeof(ip), "10.0.0.%d", first[0] - 'A' + 1);	/* A .1, B .2, C .3 */
	fix_tunnel(f, &f->prof, "A2", 1, ip, 0);
	T_ASSERT_EQ(l2s_sel_report(&lg, &f->core, &f->prof, &nr, &f->env, &st), L2S_STEP_ATTEMPT);
	/* Neither LNS already tried in this pass (nor A2, to the first one). */
	T_EXPECT_TRUE(strcmp(step_name(&f->prof, &st), first) != 0);
	T_EXPECT_TRUE(strcmp(step_name(&f->prof, &st), second) != 0);
	T_EXPECT_TRUE(strcmp(step_name(&f->prof, &st), "A2") != 0);
	/* The two silent LNS are locked out, by their own destinations. */
	T_EXPECT_TRUE(f->dests[f->prof.t[l2s_tunnel_find(&f->prof, first)].dest].lock_until != 0);
	T_EXPECT_TRUE(f->dests[f->prof.t[l2s_tunnel_find(&f->prof, second)].dest].lock_until != 0);
	last = l2s_tunnel_find(&f->prof, step_name(&f->prof, &st));
	T_EXPECT_EQ(f->dests[f->prof.t[last].dest].lock_until, 0);
}

/* The login's level deleted under it: it goes on at the next one. */
T_CASE(sel_reconfig_level_deleted)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_outcome nr = { .kind = L2S_OUT_NO_REPLY };
	struct l2s_login lg;
	struct l2s_step st;

	fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "B", 1, "10.0.0.2", 0);
	fix_tunnel(f, &f->prof, "C", 2, "10.0.0.3", 0);
	T_ASSERT_EQ(l2s_sel_begin(&lg, &f->core, &f->prof, 0, &f->env, &st), L2S_STEP_ATTEMPT);
	T_EXPECT_STREQ(step_name(&f->prof, &st), "A");
	T_ASSERT_EQ(l2s_sel_report(&lg, &f->core, &f->prof, &nr, &f->env, &st), L2S_STEP_ATTEMPT);
	T_EXPECT_STREQ(step_name(&f->prof, &st), "B");
	del_tunnel(f, "B");
	T_ASSERT_EQ(l2s_sel_report(&lg, &f->core, &f->prof, &nr, &f->env, &st), L2S_STEP_ATTEMPT);
	T_EXPECT_STREQ(step_name(&f->prof, &st), "C");
	/* Every level at and below the login's deleted: the lowest left, visited. */
	del_tunnel(f, "C");
	T_EXPECT_EQ(l2s_sel_report(&lg, &f->core, &f->prof, &nr, &f->env, &st), L2S_STEP_DONE);
	T_EXPECT_EQ(st.ok, 0);
	T_EXPECT_EQ(st.why, L2S_FAIL_EXHAUSTED);
}

/*
 * Random reconfiguration between the steps of concurrent logins: every
 * attempt names a tunnel of the current version, every OK counts on the
 * tunnel attempted, every login ends, and the counts add up.
 */
T_CASE(sel_reconfig_random)
{
	struct fix *f = fix_new(test, 99);
	/* eight logins' state: with the test, too large for a kernel stack */
	struct l2s_login *lg = T_ZALLOC(8 * sizeof(*lg));
	struct l2s_step *st = T_ZALLOC(8 * sizeof(*st));
	u32 uid[8], round, oks = 0, total, whys[16] = { 0 };
	bool live[8] = { false };
	char name[32], ip[16];
	int i, j, k;

	T_ASSERT_TRUE(lg && st);

	for (round = 0; round < 20000; round++) {
		u32 r = fix_rand(f, &(struct l2s_draw){ .bound = 1000 });

		i = (int)(r % 8);
		if (r < 150) {			/* add a tunnel */
			snprintf(name, sizeof(name), "t%u", round);
			snprintf(ip, sizeof(ip), "10.0.0.%u", r % 20 + 1);
			if (f->prof.ntunnels < 60)
				fix_tunnel(f, &f->prof, name, r % 4, ip, 0);
		} else if (r < 200 && f->prof.ntunnels) {	/* delete one, its sessions first */
			k = (int)(r % f->prof.ntunnels);
			while (f->prof.t[k].sessions) {
				T_ASSERT_EQ(l2s_tunnel_session_down(&f->core, &f->prof, (u32)k), 0);
				oks--;
			}
			snprintf(name, sizeof(name), "%s", f->prof.t[k].name);
			del_tunnel(f, name);
		} else if (!live[i]) {
			live[i] = l2s_sel_begin(&lg[i], &f->core, &f->prof, r, &f->env, &st[i]) ==
				  L2S_STEP_ATTEMPT;
			if (live[i])
				uid[i] = f->prof.t[st[i].tunnel].uid;
		} else {
			struct l2s_outcome o = { .kind = r % 3 ? L2S_OUT_NO_REPLY : L2S_OUT_OK };
			int rc = l2s_sel_report(&lg[i], &f->core, &f->prof, &o, &f->env, &st[i]);

			if (rc == L2S_STEP_DONE)
				whys[st[i].ok ? 0 : st[i].why]++;
			if (rc == L2S_STEP_DONE && st[i].ok) {
				T_ASSERT_TRUE(st[i].tunnel < f->prof.ntunnels);
				T_EXPECT_EQ(f->prof.t[st[i].tunnel].uid, uid[i]);
				oks++;
			}
			live[i] = rc == L2S_STEP_ATTEMPT;
			if (live[i]) {
				T_ASSERT_TRUE(st[i].tunnel < f->prof.ntunnels);
				uid[i] = f->prof.t[st[i].tunnel].uid;
			}
		}
		f->env.now += r % 50;
	}
	total = 0;
	for (j = 0; j < f->prof.ntunnels; j++)
		total += f->prof.t[j].sessions;
	T_EXPECT_EQ(total, oks);
	T_INFO("%u sessions on %u tunnels left; logins ok %u, exhausted %u, stale %u, none %u",
	       oks, f->prof.ntunnels, whys[0], whys[L2S_FAIL_EXHAUSTED], whys[L2S_FAIL_STALE],
	       whys[L2S_FAIL_NO_TUNNELS]);
	T_EXPECT_TRUE(whys[0] > 1000);
	T_EXPECT_TRUE(whys[L2S_FAIL_STALE] > 10);
}

/* S-SEL-9 bound: another login relocking destinations between steps cannot
 * keep a login walking forever.
 */

T_SUITE(l2tpsel_sel,
	T_ENTRY(sel_1_3_highest_level)
	T_ENTRY(sel_2_setup)
	T_ENTRY(sel_4_lockout_expiry)
	T_ENTRY(sel_4_local)
	T_ENTRY(sel_4_no_failover)
	T_ENTRY(sel_4_listed_codes)
	T_ENTRY(sel_5_6_failover_modes)
	T_ENTRY(sel_7_level_dropped)
	T_ENTRY(sel_8_shortest)
	T_ENTRY(sel_8_9_single_locked)
	T_ENTRY(sel_8_failed_lowest)
	T_ENTRY(sel_9_restart)
	T_ENTRY(sel_9_restarts_bounded)
	T_ENTRY(sel_10_full_tunnel)
	T_ENTRY(sel_11_clear)
	T_ENTRY(sel_expiry)
	T_ENTRY(sel_step_api)
	T_ENTRY(sel_12_between_levels)
	T_ENTRY(sel_12_within_level)
	T_ENTRY(sel_12_shortest_lockout)
	T_ENTRY(sel_reconfig_add_keeps_login)
	T_ENTRY(sel_reconfig_attempt_tunnel_deleted)
	T_ENTRY(sel_reconfig_contacted_carried_over)
	T_ENTRY(sel_reconfig_level_deleted)
	T_ENTRY(sel_reconfig_random));
