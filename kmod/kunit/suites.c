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
#include "tests/sel.c"

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
