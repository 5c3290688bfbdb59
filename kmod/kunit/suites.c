// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of l2tpsel's core: the test module l2tpsel_kunit.ko, built
 * when the kernel has KUnit (see Kbuild) and run when it is loaded, on the
 * debug kernel by selftests/net/kunit.sh.  The module links its own copy of
 * core/ (core_*.c), not l2tpsel.ko's, which neither exports anything nor
 * contains any KUnit code: Linux 6.1 runs a module's suites at every load,
 * and l2tpsel.ko is loaded ~35 times by the selftests (issues 4 and 8).
 * The userspace build of core/ has its own tests (selftests/unit/); these
 * run the same code as compiled into the kernel, under KASAN, lockdep and
 * kmemleak, with the cases written again here:
 *
 *   l2tpsel        admission (core/lim.c, S-LIM-*)
 *   l2tpsel_obj    objects and bounds (core/obj.c, S-OBJ-1..4)
 *   l2tpsel_sel    one login's walk (core/sel.c, S-SEL-1..11) and the worked
 *                  examples of references 000/002 (S-SEL-12), traced event by
 *                  event against the simulator's golden output in
 *                  selftests/unit/scenarios/sel12_*.out
 *   l2tpsel_lb     load balancing within a level (core/lb.c, S-LB-1..4)
 *   l2tpsel_hash   hash and minmiss hash (core/hash.c, S-LB-4)
 *   l2tpsel_rl     rate limiting (core/rl.c, S-RL-1..4), the S-RL-4 example
 *                  of reference 004 with simulated time
 *   l2tpsel_gen    the namespace generation (l2tpsel.h)
 *   l2tpsel_table  named-object tables against a lock-free reader (tables.c)
 *
 * Time is simulated throughout (struct l2s_env.now, milliseconds; the rate
 * limiter's nanoseconds): no case sleeps or reads a clock.  The fixture is
 * the userspace tests' own (core/tests/fix.h, one for both builds), so a
 * case with the same seed sees the same draws as in userspace.
 *
 * Linux 6.1 runs a module's suites from the MODULE_STATE_COMING notifier,
 * before the module's init function; this module has none (nor an exit, so
 * that it can be unloaded): the cases test the core alone, with no
 * per-namespace state and no genl family.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "lim.h"
#include "obj.h"
#include "../l2tpsel.h"
#include "env.h"
#include "sel.h"
#include "lb.h"
#include "hash.h"
#include "rl.h"
#include "tests/fix.h"

/*
 * The suites shared with the userspace unit tests (issue 17): each case is
 * written once, in core/tests/, and registered there by T_SUITE().
 */
#include "tests/hash.c"
#include "tests/lb.c"
#include "tests/lim.c"
#include "tests/obj.c"

/* ---- l2tpsel_sel: one login's walk (S-SEL-1..12) ------------------------ */

/* S-SEL-1, S-SEL-3: the search starts at level 0; success ends the login. */
static void l2tpsel_sel_1_3_highest_level_test(struct kunit *test)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_step st;
	char tr[64];

	KUNIT_ASSERT_GE(test, fix_tunnel(f, &f->prof, "LOW", 5, "10.0.0.5", 0), 0);
	KUNIT_ASSERT_GE(test, fix_tunnel(f, &f->prof, "HIGH", 2, "10.0.0.2", 0), 0);
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	KUNIT_EXPECT_TRUE(test, st.ok);
	KUNIT_EXPECT_STREQ(test, tr, "HIGH");
	KUNIT_EXPECT_EQ(test, f->prof.t[st.tunnel].sessions, 1u);
	KUNIT_EXPECT_EQ(test, f->dests[st.dest].sessions, 1u);
}

/* S-SEL-2: an attempt says whether the tunnel must be set up (SCCRQ) first. */
static void l2tpsel_sel_2_setup_test(struct kunit *test)
{
	struct l2s_outcome ok = { .kind = L2S_OUT_OK };
	struct fix *f = fix_new(test, 1);
	struct l2s_login lg;
	struct l2s_step st;

	KUNIT_ASSERT_GE(test, fix_tunnel(f, &f->prof, "T1", 0, "10.0.0.1", 0), 0);
	KUNIT_ASSERT_EQ(test, l2s_sel_begin(&lg, &f->core, &f->prof, 0, &f->env, &st),
			L2S_STEP_ATTEMPT);
	KUNIT_EXPECT_EQ(test, st.setup, 1);
	KUNIT_ASSERT_EQ(test, l2s_sel_report(&lg, &f->core, &f->prof, &ok, &f->env, &st),
			L2S_STEP_DONE);
	KUNIT_ASSERT_EQ(test, l2s_sel_begin(&lg, &f->core, &f->prof, 0, &f->env, &st),
			L2S_STEP_ATTEMPT);
	KUNIT_EXPECT_EQ(test, st.setup, 0);
}

/*
 * S-SEL-4: no reply locks out for the configured time and fails over; the
 * lockout outlives the login and ends exactly at its deadline on the
 * simulated clock (not a millisecond before).
 */
static void l2tpsel_sel_4_lockout_expiry_test(struct kunit *test)
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
	KUNIT_EXPECT_TRUE(test, st.ok);
	KUNIT_EXPECT_STREQ(test, tr, "T1 T2");
	KUNIT_EXPECT_EQ(test, f->dests[f->prof.t[0].dest].lock_until, t0 + 300000);
	KUNIT_ASSERT_GE(test, f->nev, 1);
	KUNIT_EXPECT_EQ(test, f->ev[0].kind, L2S_EV_LOCKOUT);
	KUNIT_EXPECT_EQ(test, f->ev[0].ms, 300000u);
	/* The next login skips T1 (it goes on DLNC) ... */
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	KUNIT_EXPECT_STREQ(test, tr, "T2");
	/* ... also 1 ms before the deadline ... */
	f->env.now = t0 + 300000 - 1;
	KUNIT_EXPECT_TRUE(test, l2s_dest_locked(&f->dests[f->prof.t[0].dest], f->env.now));
	KUNIT_EXPECT_EQ(test, l2s_lockout_expire(&f->core, &f->env), 0u);
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	KUNIT_EXPECT_STREQ(test, tr, "T2");
	/* ... and at the deadline T1 is attempted again (still silent). */
	f->env.now = t0 + 300000;
	KUNIT_EXPECT_FALSE(test, l2s_dest_locked(&f->dests[f->prof.t[0].dest], f->env.now));
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	KUNIT_EXPECT_STREQ(test, tr, "T1 T2");
	/* Another lockout time: 60 s from now on. */
	KUNIT_ASSERT_EQ(test, l2s_set_lockout_time(&f->core, 60, NULL), 0);
	f->env.now += 300000;
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	KUNIT_EXPECT_EQ(test, f->dests[f->prof.t[0].dest].lock_until, f->env.now + 60000);
}

/* A local failure fails over without lockout (the unit test's case). */
static void l2tpsel_sel_4_local_test(struct kunit *test)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_step st;
	char tr[64];

	fix_tunnel(f, &f->prof, "T1", 0, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "T2", 1, "10.0.0.2", 0);
	f->answer[1].kind = L2S_OUT_LOCAL;
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	KUNIT_EXPECT_TRUE(test, st.ok);
	KUNIT_EXPECT_STREQ(test, tr, "T1 T2");
	KUNIT_EXPECT_EQ(test, f->dests[f->prof.t[0].dest].lock_until, 0ull);
	KUNIT_EXPECT_EQ(test, f->nev, 0);
	f->answer[2].kind = L2S_OUT_LOCAL;
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	KUNIT_EXPECT_FALSE(test, st.ok);
	KUNIT_EXPECT_EQ(test, st.why, L2S_FAIL_EXHAUSTED);
	KUNIT_EXPECT_EQ(test, f->dests[f->prof.t[1].dest].lock_until, 0ull);
}

/* S-SEL-4: CDN, StopCCN and a client that goes away end the login, no failover. */
static void l2tpsel_sel_4_no_failover_test(struct kunit *test)
{
	static const u8 kinds[] = { L2S_OUT_CDN, L2S_OUT_STOPCCN, L2S_OUT_CLIENT_GONE };
	static const u8 whys[] = { L2S_FAIL_CDN, L2S_FAIL_STOPCCN, L2S_FAIL_CLIENT_GONE };
	struct l2s_step st;
	char tr[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		struct fix *f = fix_new(test, 1);

		fix_tunnel(f, &f->prof, "T1", 0, "10.0.0.1", 0);
		fix_tunnel(f, &f->prof, "T2", 1, "10.0.0.2", 0);
		f->answer[1].kind = kinds[i];
		f->answer[1].result = 2;
		st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
		KUNIT_EXPECT_FALSE(test, st.ok);
		KUNIT_EXPECT_EQ(test, st.why, whys[i]);
		KUNIT_EXPECT_STREQ(test, tr, "T1");
		KUNIT_EXPECT_EQ(test, f->dests[f->prof.t[0].dest].lock_until, 0ull);
		KUNIT_EXPECT_EQ(test, f->nev, 0);
		KUNIT_EXPECT_EQ(test, f->prof.t[0].sessions, 0u);
	}
}

/* S-SEL-4 (per-profile setting): listed CDN / StopCCN result codes fail over. */
static void l2tpsel_sel_4_listed_codes_test(struct kunit *test)
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
	KUNIT_EXPECT_TRUE(test, st.ok);
	KUNIT_EXPECT_STREQ(test, tr, "T1 T2 T3");
	KUNIT_EXPECT_GT(test, f->dests[f->prof.t[0].dest].lock_until, f->env.now);
	KUNIT_EXPECT_GT(test, f->dests[f->prof.t[1].dest].lock_until, f->env.now);
	/* A code that is not listed still ends the login. */
	f->env.now += 300000;
	f->answer[1] = (struct l2s_outcome){ .kind = L2S_OUT_CDN, .result = 5 };
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	KUNIT_EXPECT_FALSE(test, st.ok);
	KUNIT_EXPECT_EQ(test, st.why, L2S_FAIL_CDN);
}

/* S-SEL-5 / S-SEL-6: between levels one attempt per level visit; within a
 * level, attempts go on until the level has none left.
 */
static void l2tpsel_sel_5_6_failover_modes_test(struct kunit *test)
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

	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		struct fix *f = fix_new(test, 1);

		f->prof.failover = modes[i].mode;
		fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 0);
		fix_tunnel(f, &f->prof, "B", 0, "10.0.0.2", 0);
		fix_tunnel(f, &f->prof, "C", 1, "10.0.0.3", 0);
		fix_silent(f, 1);
		fix_silent(f, 2);
		f->pins[f->npins++] = 0;	/* A */
		st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
		KUNIT_EXPECT_TRUE(test, st.ok);
		KUNIT_EXPECT_STREQ(test, tr, modes[i].want);
	}
}

/* S-SEL-7: a level whose valid destinations are all locked is skipped. */
static void l2tpsel_sel_7_level_dropped_test(struct kunit *test)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_step st;
	char tr[64];

	fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "B", 3, "10.0.0.2", 0);
	fix_lock(f, 0, 5000);
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	KUNIT_EXPECT_TRUE(test, st.ok);
	KUNIT_EXPECT_STREQ(test, tr, "B");
	KUNIT_ASSERT_EQ(test, f->nev, 1);
	KUNIT_EXPECT_EQ(test, f->ev[0].kind, L2S_EV_DLNC);
	/* S-SEL-3: success discards DLNC, the lockout itself stays. */
	KUNIT_EXPECT_GT(test, f->dests[f->prof.t[0].dest].lock_until, f->env.now);
}

/* S-SEL-8: lowest level, more than one valid destination, all locked. */
static void l2tpsel_sel_8_shortest_test(struct kunit *test)
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
	KUNIT_EXPECT_TRUE(test, st.ok);
	KUNIT_EXPECT_TRUE(test, !strcmp(tr, "B A") || !strcmp(tr, "B C"));
	KUNIT_ASSERT_GE(test, f->nev, 4);
	KUNIT_EXPECT_EQ(test, f->ev[3].kind, L2S_EV_UNLOCK);
	KUNIT_EXPECT_EQ(test, f->ev[3].why, L2S_UNLOCK_SHORTEST);
}

/* S-SEL-8 does not apply with one locked valid destination: S-SEL-9 directly. */
static void l2tpsel_sel_8_9_single_locked_test(struct kunit *test)
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
	KUNIT_EXPECT_TRUE(test, st.ok);
	KUNIT_EXPECT_STREQ(test, tr, "A B");
	for (i = 0; i < f->nev; i++) {
		shortest += f->ev[i].kind == L2S_EV_UNLOCK && f->ev[i].why == L2S_UNLOCK_SHORTEST;
		dlnc += f->ev[i].kind == L2S_EV_UNLOCK && f->ev[i].why == L2S_UNLOCK_DLNC;
	}
	KUNIT_EXPECT_EQ(test, shortest, 0);
	KUNIT_EXPECT_EQ(test, dlnc, 1);
}

/* S-SEL-8 note: between levels, a failed attempt at the lowest level goes to S-SEL-9. */
static void l2tpsel_sel_8_failed_lowest_test(struct kunit *test)
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
	KUNIT_EXPECT_FALSE(test, st.ok);
	KUNIT_EXPECT_EQ(test, st.why, L2S_FAIL_EXHAUSTED);
	KUNIT_EXPECT_TRUE(test, !strcmp(tr, "A B") || !strcmp(tr, "A C"));
}

/* S-SEL-9: DLNC unlocked and the search restarts; empty DLNC -> fail. */
static void l2tpsel_sel_9_restart_test(struct kunit *test)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_step st;
	char tr[64];

	fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "B", 1, "10.0.0.2", 0);
	fix_lock(f, 0, 20000);
	fix_silent(f, 2);
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	KUNIT_EXPECT_TRUE(test, st.ok);
	KUNIT_EXPECT_STREQ(test, tr, "B A");
	fix_silent(f, 1);
	f->env.now += 1000000;
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	KUNIT_EXPECT_FALSE(test, st.ok);
	KUNIT_EXPECT_STREQ(test, tr, "A B");
}

/* S-SEL-9 bound: another login relocking destinations between steps cannot
 * keep a login walking forever.
 */
static void l2tpsel_sel_9_restarts_bounded_test(struct kunit *test)
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
	KUNIT_EXPECT_EQ(test, rc, L2S_STEP_DONE);
	KUNIT_EXPECT_LT(test, steps, 100);
	KUNIT_EXPECT_LE(test, lg.restarts, L2S_MAX_RESTARTS);
}

/* S-SEL-10: a full tunnel is never attempted; its destination stays valid through others. */
static void l2tpsel_sel_10_full_tunnel_test(struct kunit *test)
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
		KUNIT_EXPECT_STREQ(test, tr, "FULL");
	}
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	KUNIT_EXPECT_TRUE(test, st.ok);
	KUNIT_EXPECT_STREQ(test, tr, "OTHER");
	KUNIT_EXPECT_EQ(test, f->dests[st.dest].sessions, 3u);
	KUNIT_EXPECT_EQ(test, l2s_tunnel_session_down(&f->core, &f->prof, 0), 0);
	st = fix_login(f, &f->prof, 0, tr, sizeof(tr));
	KUNIT_EXPECT_STREQ(test, tr, "FULL");
}

/* S-SEL-11: clear all lockouts, or by local or remote gateway address. */
static void l2tpsel_sel_11_clear_test(struct kunit *test)
{
	struct l2s_tunnel_conf tc = { .name = "L", .level = 0 };
	struct fix *f = fix_new(test, 1);
	struct l2s_dest_key k;
	u32 i;

	fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "B", 0, "10.0.0.2", 0);
	tc.dest = fix_key("10.0.0.3", "192.0.2.1", 0);
	KUNIT_ASSERT_GE(test, l2s_tunnel_add(&f->core, &f->prof, &tc, NULL), 0);
	for (i = 0; i < f->prof.ndests; i++)
		f->dests[f->prof.pdest[i]].lock_until = f->env.now + 1000;

	k = fix_key("10.0.0.2", NULL, 0);
	KUNIT_EXPECT_EQ(test, l2s_lockout_clear(&f->core, NULL, &k.remote, &f->env), 1u);
	KUNIT_EXPECT_EQ(test, f->dests[f->prof.t[1].dest].lock_until, 0ull);
	KUNIT_EXPECT_GT(test, f->dests[f->prof.t[0].dest].lock_until, 0ull);
	k = fix_key("192.0.2.1", NULL, 0);
	KUNIT_EXPECT_EQ(test, l2s_lockout_clear(&f->core, &k.remote, NULL, &f->env), 1u);
	KUNIT_EXPECT_EQ(test, f->dests[f->prof.t[2].dest].lock_until, 0ull);
	KUNIT_EXPECT_EQ(test, l2s_lockout_clear(&f->core, NULL, NULL, &f->env), 1u);
	KUNIT_EXPECT_EQ(test, f->dests[f->prof.t[0].dest].lock_until, 0ull);
	KUNIT_ASSERT_EQ(test, f->nev, 3);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, f->ev[i].why, L2S_UNLOCK_CLEAR);
}

/* Lockout expiry on the simulated clock: reported once, at the deadline. */
static void l2tpsel_sel_expiry_test(struct kunit *test)
{
	struct fix *f = fix_new(test, 1);

	fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "B", 0, "10.0.0.2", 0);
	fix_lock(f, 0, 1000);
	fix_lock(f, 1, 2000);
	f->env.now += 999;
	KUNIT_EXPECT_EQ(test, l2s_lockout_expire(&f->core, &f->env), 0u);
	f->env.now += 1;
	KUNIT_EXPECT_EQ(test, l2s_lockout_expire(&f->core, &f->env), 1u);
	KUNIT_EXPECT_EQ(test, l2s_lockout_expire(&f->core, &f->env), 0u);
	f->env.now += 5000;
	KUNIT_EXPECT_EQ(test, l2s_lockout_expire(&f->core, &f->env), 1u);
	KUNIT_ASSERT_EQ(test, f->nev, 2);
	KUNIT_EXPECT_EQ(test, f->ev[0].why, L2S_UNLOCK_EXPIRED);
	KUNIT_EXPECT_EQ(test, f->ev[1].why, L2S_UNLOCK_EXPIRED);
	KUNIT_EXPECT_EQ(test, f->ev[0].dest, f->prof.t[0].dest);
	KUNIT_EXPECT_STREQ(test, f->trace, "unlock 10.0.0.1 expired; unlock 10.0.0.2 expired");
}

/*
 * The step API refuses a report without an attempt; a tunnel added during a
 * login does not end it (its OK counts on the tunnel attempted); an OK for
 * a tunnel deleted during the login is stale.
 */
static void l2tpsel_sel_step_api_test(struct kunit *test)
{
	struct l2s_outcome ok = { .kind = L2S_OUT_OK };
	struct fix *f = fix_new(test, 1);
	struct l2s_err err = { };
	struct l2s_login lg;
	struct l2s_step st;

	KUNIT_EXPECT_EQ(test, l2s_sel_begin(&lg, &f->core, &f->prof, 0, &f->env, &st),
			L2S_STEP_DONE);
	KUNIT_EXPECT_EQ(test, st.why, L2S_FAIL_NO_TUNNELS);
	KUNIT_EXPECT_EQ(test, l2s_sel_report(&lg, &f->core, &f->prof, &ok, &f->env, &st), -1);
	fix_tunnel(f, &f->prof, "A", 1, "10.0.0.1", 0);
	KUNIT_ASSERT_EQ(test, l2s_sel_begin(&lg, &f->core, &f->prof, 0, &f->env, &st),
			L2S_STEP_ATTEMPT);
	fix_tunnel(f, &f->prof, "B", 0, "10.0.0.2", 0);
	KUNIT_EXPECT_EQ(test, l2s_sel_report(&lg, &f->core, &f->prof, &ok, &f->env, &st),
			L2S_STEP_DONE);
	KUNIT_EXPECT_EQ(test, st.ok, 1);
	KUNIT_EXPECT_EQ(test, st.tunnel, 1);
	KUNIT_EXPECT_EQ(test, f->prof.t[1].sessions, 1u);
	KUNIT_ASSERT_EQ(test, l2s_tunnel_session_down(&f->core, &f->prof, 1), 0);
	KUNIT_ASSERT_EQ(test, l2s_sel_begin(&lg, &f->core, &f->prof, 0, &f->env, &st),
			L2S_STEP_ATTEMPT);
	KUNIT_ASSERT_EQ(test, st.tunnel, 0);
	KUNIT_ASSERT_EQ(test, l2s_tunnel_del(&f->core, &f->prof, "B", &err), 0);
	KUNIT_EXPECT_EQ(test, l2s_sel_report(&lg, &f->core, &f->prof, &ok, &f->env, &st),
			L2S_STEP_DONE);
	KUNIT_EXPECT_EQ(test, st.ok, 0);
	KUNIT_EXPECT_EQ(test, st.why, L2S_FAIL_STALE);
	KUNIT_EXPECT_EQ(test, f->prof.t[0].sessions, 0u);
	KUNIT_EXPECT_LE(test, sizeof(struct l2s_login), (size_t)96);
}

/*
 * S-SEL-12: the worked examples of references 000/002, as the scenarios
 * selftests/unit/scenarios/sel12_*.scen state them; the expected traces are
 * their golden .out files, event for event (attempts with their setup,
 * lockouts with their length, DLNC, unlocks with their reason, results).
 */
/* "Selection when failover between preference levels is configured". */
static void l2tpsel_sel_12_between_levels_test(struct kunit *test)
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
	KUNIT_EXPECT_FALSE(test, st.ok);
	KUNIT_EXPECT_STREQ(test, f->trace,
			   "att T1 192.168.10.10 sccrq; lock 192.168.10.10 300; "
			   "att T2 192.168.22.22 sccrq; lock 192.168.22.22 300; "
			   "att T4 192.168.44.44 sccrq; lock 192.168.44.44 300; "
			   "fail exhausted");
	KUNIT_EXPECT_EQ(test, f->pick_at, f->npick);
	/* Second login of the same client: 10.10 answers now. */
	f->trace[0] = '\0';
	f->answer[10].kind = 0;
	st = fix_login(f, &f->prof, 0, NULL, 0);
	KUNIT_EXPECT_TRUE(test, st.ok);
	KUNIT_EXPECT_STREQ(test, f->trace,
			   "dlnc 192.168.10.10; dlnc 192.168.22.22; "
			   "att T3 192.168.33.33 sccrq; lock 192.168.33.33 300; "
			   "dlnc 192.168.44.44; "
			   "unlock 192.168.10.10 dlnc; unlock 192.168.22.22 dlnc; "
			   "unlock 192.168.44.44 dlnc; "
			   "att T1 192.168.10.10 sccrq; ok T1");
	/* End state: 33.33 still locked, one session on 10.10. */
	KUNIT_EXPECT_TRUE(test, l2s_dest_locked(&f->dests[f->prof.t[2].dest], f->env.now));
	KUNIT_EXPECT_FALSE(test, l2s_dest_locked(&f->dests[f->prof.t[0].dest], f->env.now));
	KUNIT_EXPECT_EQ(test, f->dests[f->prof.t[0].dest].sessions, 1u);
}

/* "Selection when failover within a preference level is configured". */
static void l2tpsel_sel_12_within_level_test(struct kunit *test)
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
	KUNIT_EXPECT_FALSE(test, st.ok);
	KUNIT_EXPECT_STREQ(test, f->trace,
			   "dlnc 192.168.3.3; "
			   "att T2 192.168.2.2 sccrq; lock 192.168.2.2 300; "
			   "att T1 192.168.1.1 sccrq; lock 192.168.1.1 300; "
			   "att T4 192.168.4.4 sccrq; lock 192.168.4.4 300; "
			   "att T5 192.168.5.5 sccrq; lock 192.168.5.5 300; "
			   "unlock 192.168.3.3 dlnc; "
			   "att T3 192.168.3.3 sccrq; lock 192.168.3.3 300; "
			   "fail exhausted");
	KUNIT_EXPECT_EQ(test, f->pick_at, f->npick);
}

/* The special case at the lowest level: the shortest remaining lockout. */
static void l2tpsel_sel_12_shortest_lockout_test(struct kunit *test)
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
	KUNIT_EXPECT_TRUE(test, st.ok);
	KUNIT_EXPECT_TRUE(test, st.kind == L2S_STEP_DONE);
	KUNIT_EXPECT_STREQ(test, f->trace,
			   "att T1 192.168.10.10 sccrq; lock 192.168.10.10 300; "
			   "dlnc 192.168.22.22; dlnc 192.168.33.33; "
			   "unlock 192.168.33.33 shortest; "
			   "att T3 192.168.33.33 sccrq; ok T3");
	/* 22.22 keeps its lockout: only the shortest was unlocked. */
	KUNIT_EXPECT_EQ(test, f->dests[f->prof.t[1].dest].lock_until, f->env.now + 245000);
}

static struct kunit_case l2tpsel_sel_cases[] = {
	KUNIT_CASE(l2tpsel_sel_1_3_highest_level_test),
	KUNIT_CASE(l2tpsel_sel_2_setup_test),
	KUNIT_CASE(l2tpsel_sel_4_lockout_expiry_test),
	KUNIT_CASE(l2tpsel_sel_4_local_test),
	KUNIT_CASE(l2tpsel_sel_4_no_failover_test),
	KUNIT_CASE(l2tpsel_sel_4_listed_codes_test),
	KUNIT_CASE(l2tpsel_sel_5_6_failover_modes_test),
	KUNIT_CASE(l2tpsel_sel_7_level_dropped_test),
	KUNIT_CASE(l2tpsel_sel_8_shortest_test),
	KUNIT_CASE(l2tpsel_sel_8_9_single_locked_test),
	KUNIT_CASE(l2tpsel_sel_8_failed_lowest_test),
	KUNIT_CASE(l2tpsel_sel_9_restart_test),
	KUNIT_CASE(l2tpsel_sel_9_restarts_bounded_test),
	KUNIT_CASE(l2tpsel_sel_10_full_tunnel_test),
	KUNIT_CASE(l2tpsel_sel_11_clear_test),
	KUNIT_CASE(l2tpsel_sel_expiry_test),
	KUNIT_CASE(l2tpsel_sel_step_api_test),
	KUNIT_CASE(l2tpsel_sel_12_between_levels_test),
	KUNIT_CASE(l2tpsel_sel_12_within_level_test),
	KUNIT_CASE(l2tpsel_sel_12_shortest_lockout_test),
	{}
};

static struct kunit_suite l2tpsel_sel_suite = {
	.name = "l2tpsel_sel",
	.test_cases = l2tpsel_sel_cases,
};

/* ---- l2tpsel_rl: rate limiting (S-RL-1..4), simulated time -------------- */

#define MS(x)	((u64)(x) * RL_NSEC_PER_MSEC)
#define SEC(x)	((u64)(x) * RL_NSEC_PER_SEC)

/* The S-RL-4 profile: hold 30 s, step 20 %, bands >=50 -> 30, >=60 -> 40, >=65 -> 50. */
static void rl4_conf(struct rl_throttle_conf *c)
{
	memset(c, 0, sizeof(*c));
	c->hold_ms = 30000;
	c->step = 20;
	c->nbands = 3;
	c->band[0] = (struct rl_band){ 50, 30 };
	c->band[1] = (struct rl_band){ 60, 40 };
	c->band[2] = (struct rl_band){ 65, 50 };
}

/* One step of the S-RL-4 script: a load pushed (or a tick) at @t ms. */
struct rl4_step {
	u32 t;
	int load;		/* -1: a timer tick, no new load */
	u32 limit;		/* the effective limit after it */
	bool changed;
};

/*
 * S-RL-4, S-RL-3: the 004 example step by step, limit 1000/s: 600, 600,
 * 800, 700, 500, 700, 900, 1000.  The revert steps fall due exactly one
 * hold time after the load went below the lowest band, not a millisecond
 * before.
 */
static const struct rl4_step rl4_script[] = {
	{ 0, 40, 1000, false },		/* below the threshold: no throttle */
	{ 1000, 62, 600, true },	/* 62 % -> 40 %: 600 */
	{ 5000, 60, 600, false },	/* 60-65 %: still 600 */
	{ 10000, 64, 600, false },
	{ 15000, 61, 600, false },
	{ 20000, 49, 600, false },	/* 49 %: the hold begins */
	{ 45000, 30, 600, false },	/* lower still: the hold goes on */
	{ 49999, -1, 600, false },	/* 29.999 s: not yet */
	{ 50000, -1, 800, true },	/* 30 s below: 40 - 20 = 20 %: 800 */
	{ 60000, 57, 700, true },	/* 57 % -> 30 %: 700 */
	{ 70000, 67, 500, true },	/* 67 % -> 50 %: 500 */
	{ 80000, 55, 700, true },	/* 55 % -> 30 %: 700 */
	{ 90000, 49, 700, false },
	{ 119999, -1, 700, false },
	{ 120000, -1, 900, true },	/* 30 - 20 = 10 %: 900 */
	{ 130000, 45, 900, false },	/* still below: the hold goes on */
	{ 149999, -1, 900, false },
	{ 150000, -1, 1000, true },	/* 10 - 20 -> 0: 1000, revert complete */
	{ 300000, -1, 1000, false },
};

static void l2tpsel_rl_4_reference_example_test(struct kunit *test)
{
	static const u32 seen_want[] = { 600, 800, 700, 500, 700, 900, 1000 };
	struct rl_throttle_conf c;
	struct rl_throttle th;
	struct rl_limiter l;
	u32 seen[16], nseen = 0, i;
	u64 when;

	rl4_conf(&c);
	KUNIT_ASSERT_EQ(test, rl_throttle_init(&th, &c, NULL), 0);
	KUNIT_ASSERT_EQ(test, rl_init(&l, 1000, 100, 0, NULL), 0);
	for (i = 0; i < ARRAY_SIZE(rl4_script); i++) {
		const struct rl4_step *s = &rl4_script[i];
		bool ch;
		u32 p;

		if (s->load >= 0)
			p = rl_throttle_update(&th, s->load, MS(s->t), &ch);
		else
			p = rl_throttle_tick(&th, MS(s->t), &ch);
		rl_set_throttle(&l, p, MS(s->t));
		KUNIT_EXPECT_EQ_MSG(test, rl_effective_rate(l.rate, l.throttle), s->limit,
				    "at %u ms", s->t);
		KUNIT_EXPECT_EQ_MSG(test, ch, s->changed, "at %u ms", s->t);
		if (ch && nseen < ARRAY_SIZE(seen))
			seen[nseen++] = rl_effective_rate(l.rate, l.throttle);
		if (s->t == 20000) {
			KUNIT_EXPECT_TRUE(test, rl_throttle_next_step(&th, &when));
			KUNIT_EXPECT_EQ(test, when, MS(50000));
		}
	}
	KUNIT_EXPECT_FALSE(test, rl_throttle_next_step(&th, &when));
	/* The limits the reference names: 600, 600 (held), 800, 700, 500, 700, 900, 1000. */
	KUNIT_ASSERT_EQ(test, nseen, (u32)ARRAY_SIZE(seen_want));
	for (i = 0; i < nseen; i++)
		KUNIT_EXPECT_EQ_MSG(test, seen[i], seen_want[i], "change %u", i + 1);
}

/* S-RL-4: the effective limit passes exactly that many requests per second. */
static void l2tpsel_rl_4_admitted_follows_limit_test(struct kunit *test)
{
	static const u32 percent[] = { 0, 40, 20, 30, 50, 10 };
	struct rl_limiter l;
	u64 t = SEC(1);
	u32 i, k, pass;

	KUNIT_ASSERT_EQ(test, rl_init(&l, 1000, 10, 0, NULL), 0);
	for (i = 0; i < ARRAY_SIZE(percent); i++) {
		rl_set_throttle(&l, percent[i], t);
		/* Drain the bucket, then offer 5000/s for one second. */
		while (rl_admit(&l, t) == RL_PASS)
			;
		pass = 0;
		for (k = 1; k <= 5000; k++)
			pass += rl_admit(&l, t + SEC(1) * k / 5000) == RL_PASS;
		KUNIT_EXPECT_EQ_MSG(test, pass, rl_effective_rate(1000, percent[i]),
				    "throttle %u %%", percent[i]);
		t += SEC(1);
	}
}

/* S-RL-4, S-RL-3: the band edges: 60 <= load < 65 keeps 40 %; 65 is in the top band. */
static void l2tpsel_rl_4_band_edges_test(struct kunit *test)
{
	static const struct { u8 load, percent; } want[] = {
		{ 0, 0 }, { 49, 0 }, { 50, 30 }, { 59, 30 }, { 60, 40 }, { 64, 40 },
		{ 65, 50 }, { 100, 50 }, { 255, 50 },
	};
	struct rl_throttle_conf c;
	struct rl_throttle th;
	u32 i;

	rl4_conf(&c);
	KUNIT_ASSERT_EQ(test, rl_throttle_init(&th, &c, NULL), 0);
	for (i = 0; i < ARRAY_SIZE(want); i++)
		KUNIT_EXPECT_EQ_MSG(test, rl_throttle_update(&th, want[i].load, SEC(i), NULL),
				    (u32)want[i].percent, "load %u", want[i].load);
}

/* S-RL-3: a visit to a band restarts the hold; several hold times at once
 * give several steps; the percent never goes below 0.
 */
static void l2tpsel_rl_3_hold_test(struct kunit *test)
{
	struct rl_throttle_conf c;
	struct rl_throttle th;
	bool ch;

	rl4_conf(&c);
	KUNIT_ASSERT_EQ(test, rl_throttle_init(&th, &c, NULL), 0);
	KUNIT_EXPECT_EQ(test, rl_throttle_update(&th, 70, MS(0), &ch), 50u);
	KUNIT_EXPECT_TRUE(test, ch);
	KUNIT_EXPECT_EQ(test, rl_throttle_update(&th, 10, MS(1000), &ch), 50u);
	KUNIT_EXPECT_EQ(test, rl_throttle_tick(&th, MS(21000), &ch), 50u);
	KUNIT_EXPECT_EQ(test, rl_throttle_update(&th, 52, MS(21000), &ch), 30u);
	KUNIT_EXPECT_TRUE(test, ch);
	KUNIT_EXPECT_EQ(test, rl_throttle_update(&th, 10, MS(22000), &ch), 30u);
	KUNIT_EXPECT_EQ(test, rl_throttle_tick(&th, MS(51999), &ch), 30u);
	KUNIT_EXPECT_FALSE(test, ch);
	KUNIT_EXPECT_EQ(test, rl_throttle_tick(&th, MS(52000), &ch), 10u);
	KUNIT_EXPECT_TRUE(test, ch);
	KUNIT_EXPECT_EQ(test, rl_throttle_tick(&th, MS(82000), &ch), 0u);
	/* 50 % and 95 s below without a call in between: 50 -> 30 -> 10 -> 0. */
	KUNIT_EXPECT_EQ(test, rl_throttle_update(&th, 99, MS(100000), &ch), 50u);
	KUNIT_EXPECT_EQ(test, rl_throttle_update(&th, 0, MS(100000), &ch), 50u);
	KUNIT_EXPECT_EQ(test, rl_throttle_tick(&th, MS(129999), &ch), 50u);
	KUNIT_EXPECT_EQ(test, rl_throttle_tick(&th, MS(195000), &ch), 0u);
	KUNIT_EXPECT_TRUE(test, ch);
	KUNIT_EXPECT_EQ(test, rl_throttle_update(&th, 60, MS(200000), &ch), 40u);
	KUNIT_EXPECT_EQ(test, rl_throttle_tick(&th, MS(900000), &ch), 40u);
	KUNIT_EXPECT_FALSE(test, ch);
}

/* S-RL-3: a live profile changed; a bad change is refused and changes nothing. */
static void l2tpsel_rl_3_reconf_test(struct kunit *test)
{
	struct rl_throttle_conf c, c2;
	struct l2s_err err = { };
	struct rl_throttle th;

	rl4_conf(&c);
	KUNIT_ASSERT_EQ(test, rl_throttle_init(&th, &c, NULL), 0);
	KUNIT_EXPECT_EQ(test, rl_throttle_update(&th, 62, MS(0), NULL), 40u);
	c2 = c;
	c2.band[1].percent = 45;
	KUNIT_EXPECT_EQ(test, rl_throttle_reconf(&th, &c2, MS(1000), &err), 0);
	KUNIT_EXPECT_EQ(test, th.percent, 45);
	c2.band[1].load = 70;
	KUNIT_EXPECT_EQ(test, rl_throttle_reconf(&th, &c2, MS(2000), &err), -EINVAL);
	KUNIT_EXPECT_EQ(test, th.percent, 45);
	KUNIT_EXPECT_EQ(test, th.conf.band[1].load, 60);
}

/* S-RL-1: offered at 2x and 10x the limit for 10 s: exactly burst +
 * floor(rate x t_last) pass, within 1 % of the limit; a burst at one instant.
 */
static void l2tpsel_rl_1_admitted_rate_test(struct kunit *test)
{
	static const u32 factor[] = { 2, 10 };
	struct rl_limiter l;
	u32 i, k, pass;

	for (i = 0; i < ARRAY_SIZE(factor); i++) {
		u32 rate = 1000, burst = 10, n = rate * factor[i] * 10;
		u64 gap = SEC(10) / n, last = gap * (n - 1);

		KUNIT_ASSERT_EQ(test, rl_init(&l, rate, burst, 0, NULL), 0);
		pass = 0;
		for (k = 0; k < n; k++)
			pass += rl_admit(&l, gap * k) == RL_PASS;
		KUNIT_EXPECT_EQ(test, (u64)pass, burst + rate * last / RL_NSEC_PER_SEC);
		KUNIT_EXPECT_GE(test, pass, 9900u);
		KUNIT_EXPECT_LE(test, pass, 10100u);
	}
	KUNIT_ASSERT_EQ(test, rl_init(&l, 1000, 50, SEC(5), NULL), 0);
	pass = 0;
	for (k = 0; k < 500; k++)
		pass += rl_admit(&l, SEC(5)) == RL_PASS;
	KUNIT_EXPECT_EQ(test, pass, 50u);
	KUNIT_EXPECT_EQ(test, rl_admit(&l, SEC(5) + MS(1) - 1), RL_OVER);
	KUNIT_EXPECT_EQ(test, rl_admit(&l, SEC(5) + MS(1)), RL_PASS);
	KUNIT_EXPECT_EQ(test, rl_admit(&l, SEC(5) + MS(1)), RL_OVER);
	/* Time that steps back counts as none. */
	KUNIT_EXPECT_EQ(test, rl_admit(&l, SEC(4)), RL_OVER);
}

/* S-RL-1, S-RL-3: bad configuration is refused, the message names the bound. */
static void l2tpsel_rl_bad_config_test(struct kunit *test)
{
	struct rl_throttle_conf c;
	struct rl_throttle th;
	struct l2s_err err = { };
	struct rl_limiter l;

	KUNIT_EXPECT_EQ(test, rl_init(&l, 0, 10, 0, &err), -ERANGE);
	KUNIT_EXPECT_STREQ(test, err.msg, "rate 0: must be 1..10000000 requests per second");
	KUNIT_EXPECT_EQ(test, rl_init(&l, 10, 1000001, 0, &err), -ERANGE);
	KUNIT_EXPECT_STREQ(test, err.msg, "burst 1000001: must be 1..1000000 requests");
	KUNIT_EXPECT_EQ(test, rl_init(&l, RL_RATE_MAX, RL_BURST_MAX, 0, NULL), 0);
	rl4_conf(&c);
	c.hold_ms = 0;
	KUNIT_EXPECT_EQ(test, rl_throttle_init(&th, &c, &err), -ERANGE);
	KUNIT_EXPECT_STREQ(test, err.msg, "hold time 0 ms: must be 1..86400000 ms");
	rl4_conf(&c);
	c.band[2].load = 55;
	KUNIT_EXPECT_EQ(test, rl_throttle_init(&th, &c, &err), -EINVAL);
	KUNIT_EXPECT_STREQ(test, err.msg,
			   "band 3: load threshold 55 % is not above the previous band's 60 %: thresholds must increase");
	rl4_conf(&c);
	c.band[2].percent = 35;
	KUNIT_EXPECT_EQ(test, rl_throttle_init(&th, &c, &err), -EINVAL);
	KUNIT_EXPECT_STREQ(test, err.msg,
			   "band 3: throttle 35 % is below the previous band's 40 %: a higher load must not throttle less");
}

static struct kunit_case l2tpsel_rl_cases[] = {
	KUNIT_CASE(l2tpsel_rl_4_reference_example_test),
	KUNIT_CASE(l2tpsel_rl_4_admitted_follows_limit_test),
	KUNIT_CASE(l2tpsel_rl_4_band_edges_test),
	KUNIT_CASE(l2tpsel_rl_3_hold_test),
	KUNIT_CASE(l2tpsel_rl_3_reconf_test),
	KUNIT_CASE(l2tpsel_rl_1_admitted_rate_test),
	KUNIT_CASE(l2tpsel_rl_bad_config_test),
	{}
};

static struct kunit_suite l2tpsel_rl_suite = {
	.name = "l2tpsel_rl",
	.test_cases = l2tpsel_rl_cases,
};


/*
 * The namespace's generation is never 0 (issue 16, finding 7): the dump
 * consistency check (genl_dump_check_consistent()) ignores a previous
 * sequence of 0, so a dump part read there would not be compared with the
 * next one.  Across the u32 wrap, by a writer and by a bump.
 */
static void l2tpsel_gen_never_zero_test(struct kunit *test)
{
	struct l2tpsel_net *ln = kunit_kzalloc(test, sizeof(*ln), GFP_KERNEL);
	u32 i, g;

	KUNIT_ASSERT_NOT_NULL(test, ln);
	mutex_init(&ln->lock);
	ln->gen = U32_MAX - 5;
	for (i = 0; i < 8; i++) {
		ks_wlock_ln(ln);
		KUNIT_EXPECT_TRUE(test, ln->gen & 1);
		ks_wunlock(ln);
		g = ks_read_begin(ln);
		KUNIT_EXPECT_NE(test, g, 0u);
		KUNIT_EXPECT_FALSE(test, g & 1);
		KUNIT_EXPECT_FALSE(test, ks_read_retry(ln, g));
	}
	ln->gen = U32_MAX - 3;
	for (i = 0; i < 4; i++) {
		ks_gen_bump(ln);
		KUNIT_EXPECT_NE(test, ln->gen, 0u);
		KUNIT_EXPECT_FALSE(test, ln->gen & 1);
	}
	mutex_destroy(&ln->lock);
}

static struct kunit_case l2tpsel_gen_cases[] = {
	KUNIT_CASE(l2tpsel_gen_never_zero_test),
	{}
};

static struct kunit_suite l2tpsel_gen_suite = {
	.name = "l2tpsel_gen",
	.test_cases = l2tpsel_gen_cases,
};

/*
 * A failed ks_table_add() is never seen by a reader (issue 16, finding 3):
 * lock-free dumps walk the table's xarray under rcu_read_lock(), and the
 * callers kfree() an object whose add failed.  A writer thread adds a
 * second object under a name already taken, over and over, and frees it
 * when the add fails; this thread walks the xarray as a dump does, and
 * holds each entry it meets for a moment before reading it.  The walk may
 * meet only the object that is in the table.
 */
struct kt_adder {
	struct ks_table *t;
	unsigned long tries;
	int unexpected;		/* an add that did not fail with -EEXIST */
};

static int kt_adder_fn(void *arg)
{
	struct kt_adder *a = arg;
	struct ks_obj *o;
	int err;

	while (!kthread_should_stop()) {
		o = kzalloc(sizeof(*o), GFP_KERNEL);
		if (!o) {
			cond_resched();
			continue;
		}
		err = ks_table_add(a->t, o, "taken");
		if (err != -EEXIST)
			a->unexpected = err ? err : 1;
		if (err)
			kfree(o);
		WRITE_ONCE(a->tries, a->tries + 1);
		cond_resched();
	}
	return 0;
}

static void l2tpsel_table_failed_add_unseen_test(struct kunit *test)
{
	struct ks_table *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	struct ks_obj *first, *o;
	struct task_struct *task;
	struct kt_adder a = {};
	unsigned long id, seen_other = 0, walks;
	int d;

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_EQ(test, ks_table_init(t), 0);
	first = kzalloc(sizeof(*first), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, first);
	KUNIT_ASSERT_EQ(test, ks_table_add(t, first, "taken"), 0);
	a.t = t;
	task = kthread_run(kt_adder_fn, &a, "l2tpsel-kt-add");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	for (walks = 0; walks < 20000 || READ_ONCE(a.tries) < 2000; walks++) {
		rcu_read_lock();
		xa_for_each(&t->xa, id, o) {
			if (o == first)
				continue;
			/* The writer frees it meanwhile: hold it 20 us. */
			for (d = 0; d < 4; d++)
				udelay(5);
			seen_other += READ_ONCE(o->name[0]) != 0;
		}
		rcu_read_unlock();
		if (walks > 2000000)
			break;
		cond_resched();
	}
	kthread_stop(task);
	kunit_info(test, "%lu walks, %lu failed adds", walks, a.tries);
	KUNIT_EXPECT_EQ(test, a.unexpected, 0);
	KUNIT_EXPECT_GE(test, a.tries, 2000ul);
	KUNIT_EXPECT_EQ_MSG(test, seen_other, 0ul,
			    "a dump walked into an object whose add failed (freed at once)");
	KUNIT_EXPECT_EQ(test, t->n, 1u);
	KUNIT_EXPECT_PTR_EQ(test, ks_table_find(t, "taken"), first);
	ks_table_del(t, first);
	kfree(first);
	ks_table_destroy(t, NULL);
}

static struct kunit_case l2tpsel_table_cases[] = {
	KUNIT_CASE(l2tpsel_table_failed_add_unseen_test),
	{}
};

static struct kunit_suite l2tpsel_table_suite = {
	.name = "l2tpsel_table",
	.test_cases = l2tpsel_table_cases,
};


kunit_test_suites(&l2tpsel_suite, &l2tpsel_obj_suite, &l2tpsel_sel_suite,
		  &l2tpsel_lb_suite, &l2tpsel_hash_suite, &l2tpsel_rl_suite,
		  &l2tpsel_gen_suite, &l2tpsel_table_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests of the l2tpsel selection and admission core");
