// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of l2tpsel's core: the test module l2tpsel_kunit.ko, built
 * when the kernel has KUnit (see Kbuild) and run when it is loaded, on the
 * debug kernel by selftests/net/kunit.sh.  The module links its own copy of
 * core/ (core_*.c), not l2tpsel.ko's, which neither exports anything nor
 * contains any KUnit code: Linux 6.1 runs a module's suites at every load,
 * and l2tpsel.ko is loaded ~35 times by the selftests.
 * The core's cases are written once, in core/tests/: the same
 * files are the userspace unit tests (selftests/unit/, make unit) and,
 * included below, these suites, which run them on the code as compiled
 * into the kernel, under KASAN, lockdep and kmemleak.  Only the suites of
 * the module itself are here:
 *
 *   l2tpsel        admission (core/tests/lim.c, S-LIM-*)
 *   l2tpsel_obj    objects and bounds (core/tests/obj.c, S-OBJ-1..4)
 *   l2tpsel_sel    one login's walk (core/tests/sel.c, S-SEL-1..11) and the
 *                  worked examples of references 000/002 (S-SEL-12), traced
 *                  event by event against the simulator's golden output in
 *                  selftests/unit/scenarios/sel12_*.out
 *   l2tpsel_lb     load balancing within a level (core/tests/lb.c, S-LB-1..4)
 *   l2tpsel_storm  logins in flight: balancing and max-sessions count them,
 *                  every end gives their places back (core/tests/storm.c,
 *                  S-STORM-1, S-STORM-2)
 *   l2tpsel_hash   hash and minmiss hash (core/tests/hash.c, S-LB-4)
 *   l2tpsel_dmap   the domain map (core/tests/dmap.c, S-OBJ-4)
 *   l2tpsel_rl     rate limiting (core/tests/rl.c, S-RL-1..4), the S-RL-4
 *                  example of reference 004 with simulated time
 *   l2tpsel_gen    the namespace generation (l2tpsel.h): here
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
#include <linux/string.h>

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
 * The suites shared with the userspace unit tests: each case is
 * written once, in core/tests/, and registered there by T_SUITE().
 */
#include "tests/dmap.c"
#include "tests/drain.c"
#include "tests/hash.c"
#include "tests/lb.c"
#include "tests/lim.c"
#include "tests/obj.c"
#include "tests/rl.c"
#include "tests/sel.c"
#include "tests/storm.c"

/*
 * The namespace's generation is never 0: the dump
 * consistency check (genl_dump_check_consistent()) ignores a previous
 * sequence of 0, so a dump part read there would not be compared with the
 * next one.  Across the u32 wrap.
 */
static void l2tpsel_gen_never_zero_test(struct kunit *test)
{
	struct l2tpsel_net *ln = kunit_kzalloc(test, sizeof(*ln), GFP_KERNEL);
	u32 i, g;

	KUNIT_ASSERT_NOT_NULL(test, ln);
	ln->gen = U32_MAX - 3;
	for (i = 0; i < 8; i++) {
		g = ln->gen;
		ks_gen_bump(ln);
		KUNIT_EXPECT_NE(test, ln->gen, 0u);
		KUNIT_EXPECT_NE(test, ln->gen, g);
	}
}

static struct kunit_case l2tpsel_gen_cases[] = {
	KUNIT_CASE(l2tpsel_gen_never_zero_test),
	{}
};

static struct kunit_suite l2tpsel_gen_suite = {
	.name = "l2tpsel_gen",
	.test_cases = l2tpsel_gen_cases,
};

kunit_test_suites(&l2tpsel_suite, &l2tpsel_obj_suite, &l2tpsel_sel_suite,
		  &l2tpsel_lb_suite, &l2tpsel_storm_suite, &l2tpsel_hash_suite,
		  &l2tpsel_dmap_suite, &l2tpsel_rl_suite, &l2tpsel_gen_suite,
		  &l2tpsel_drain_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests of the l2tpsel selection and admission core");
