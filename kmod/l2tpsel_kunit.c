// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of l2tpsel, built into the module when the kernel has KUnit
 * (see Kbuild) and run when the module is loaded: on the debug kernel by
 * selftests/net/kunit.sh.  The userspace build of core/ has its own tests
 * (selftests/unit/); these run the same code as compiled into the kernel,
 * under KASAN, lockdep and kmemleak.
 *
 * Linux 6.1 runs a module's suites from the MODULE_STATE_COMING notifier,
 * i.e. before l2tpsel_init(): nothing here may rely on the module being
 * initialised (no per-namespace state, no genl family yet).
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "lim.h"

/* S-LIM-1 names, as the CLI, events and traces print them. */
struct lim_name_case {
	enum lim_level level;
	const char *name;
};

static const struct lim_name_case lim_name_cases[] = {
	{ LIM_CHASSIS, "chassis" },
	{ LIM_TUNNEL, "tunnel" },
	{ LIM_TUNNEL_GROUP, "tunnel-group" },
	{ LIM_SLG, "slg" },
	{ LIM_CLIENT, "client" },
	{ LIM_PASS, "pass" },
};

static void lim_name_desc(const struct lim_name_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(lim_name, lim_name_cases, lim_name_desc);

static void l2tpsel_lim_level_name_test(struct kunit *test)
{
	const struct lim_name_case *c = test->param_value;

	KUNIT_EXPECT_STREQ(test, lim_level_name(c->level), c->name);
}

/*
 * S-LIM-1: the LAC checks chassis and tunnel, the LNS all five levels, in
 * order.  Each case fills one level to its limit (and, for @also, a later
 * one too) and names the level that must refuse.
 */
struct lim_role_case {
	const char *desc;
	enum lim_role role;
	enum lim_level full;
	enum lim_level also;	/* LIM_PASS: only @full is full */
	enum lim_level want;
};

static const struct lim_role_case lim_role_cases[] = {
	{ "LAC chassis full", LIM_ROLE_LAC, LIM_CHASSIS, LIM_PASS, LIM_CHASSIS },
	{ "LAC tunnel full", LIM_ROLE_LAC, LIM_TUNNEL, LIM_PASS, LIM_TUNNEL },
	{ "LAC ignores tunnel group", LIM_ROLE_LAC, LIM_TUNNEL_GROUP, LIM_PASS, LIM_PASS },
	{ "LAC ignores slg", LIM_ROLE_LAC, LIM_SLG, LIM_PASS, LIM_PASS },
	{ "LAC ignores client", LIM_ROLE_LAC, LIM_CLIENT, LIM_PASS, LIM_PASS },
	{ "LNS tunnel group full", LIM_ROLE_LNS, LIM_TUNNEL_GROUP, LIM_PASS, LIM_TUNNEL_GROUP },
	{ "LNS slg full", LIM_ROLE_LNS, LIM_SLG, LIM_PASS, LIM_SLG },
	{ "LNS client full", LIM_ROLE_LNS, LIM_CLIENT, LIM_PASS, LIM_CLIENT },
	{ "LNS first full level refuses", LIM_ROLE_LNS, LIM_TUNNEL, LIM_CLIENT, LIM_TUNNEL },
};

static void lim_role_desc(const struct lim_role_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(lim_role, lim_role_cases, lim_role_desc);

/* A path over @counts with limit 2 on every level and a count of 1. */
static void lim_test_path(struct lim_path *p, u32 counts[LIM_NLEVELS], u32 *client_total)
{
	int l;

	memset(p, 0, sizeof(*p));
	for (l = 0; l < LIM_NLEVELS; l++) {
		counts[l] = 1;
		p->slot[l].count = &counts[l];
		p->slot[l].limit = 2;
	}
	p->client_total = client_total;
}

static void l2tpsel_lim_role_test(struct kunit *test)
{
	const struct lim_role_case *c = test->param_value;
	u32 counts[LIM_NLEVELS], before[LIM_NLEVELS], total = 1;
	struct lim_path p;

	lim_test_path(&p, counts, &total);
	counts[c->full] = 2;
	if (c->also != LIM_PASS)
		counts[c->also] = 2;
	memcpy(before, counts, sizeof(before));

	KUNIT_EXPECT_EQ(test, lim_check(&p, c->role, NULL, NULL), c->want);
	KUNIT_EXPECT_EQ(test, lim_admit(&p, c->role, NULL, NULL, NULL), c->want);
	if (c->want != LIM_PASS) {
		/* A refused session is counted nowhere. */
		KUNIT_EXPECT_EQ(test, memcmp(before, counts, sizeof(before)), 0);
		KUNIT_EXPECT_EQ(test, total, 1u);
	}
}

/* Admit up to the limit, refuse one more, release: counters and bits stay exact. */
static void l2tpsel_lim_admit_release_test(struct kunit *test)
{
	u32 counts[LIM_NLEVELS], total = 1, reached = 0, cleared = 0;
	struct l2s_err err = { };
	struct lim_path p;
	int l;

	lim_test_path(&p, counts, &total);
	p.slot[LIM_CHASSIS].limit = 0;	/* no limit: never reached */

	KUNIT_ASSERT_EQ(test, lim_admit(&p, LIM_ROLE_LNS, NULL, NULL, &reached), LIM_PASS);
	KUNIT_EXPECT_EQ(test, reached, ~(1u << LIM_CHASSIS) & ((1u << LIM_NLEVELS) - 1));
	for (l = 0; l < LIM_NLEVELS; l++)
		KUNIT_EXPECT_EQ(test, counts[l], 2u);
	KUNIT_EXPECT_EQ(test, total, 2u);

	KUNIT_EXPECT_EQ(test, lim_admit(&p, LIM_ROLE_LNS, NULL, NULL, NULL), LIM_TUNNEL);
	KUNIT_EXPECT_EQ(test, counts[LIM_CHASSIS], 2u);

	KUNIT_ASSERT_EQ(test, lim_release(&p, &cleared, &err), 0);
	KUNIT_EXPECT_EQ(test, cleared, reached);
	KUNIT_ASSERT_EQ(test, lim_release(&p, &cleared, &err), 0);
	KUNIT_EXPECT_EQ(test, cleared, 0u);
	for (l = 0; l < LIM_NLEVELS; l++)
		KUNIT_EXPECT_EQ(test, counts[l], 0u);
	KUNIT_EXPECT_EQ(test, total, 0u);

	/* A session that was never up: refused, with a reason, nothing changed. */
	KUNIT_EXPECT_EQ(test, lim_release(&p, NULL, &err), -ENOENT);
	KUNIT_ASSERT_NOT_NULL(test, err.msg);
	KUNIT_EXPECT_NOT_NULL(test, strstr(err.msg, "already 0"));
	KUNIT_EXPECT_EQ(test, counts[LIM_CHASSIS], 0u);
}

/* S-LIM-6: no limit above the chassis maximum; the maximum not below a limit. */
static void l2tpsel_lim_maximum_test(struct kunit *test)
{
	struct l2s_err err = { };
	struct lim_chassis ch;
	struct lim_slot s;

	lim_chassis_init(&ch);
	KUNIT_EXPECT_EQ(test, ch.maximum, LIM_DEFAULT_CHASSIS_MAX);
	KUNIT_EXPECT_EQ(test, lim_check_value(&ch, 0, "tunnel", &err), 0);
	KUNIT_EXPECT_EQ(test, lim_check_value(&ch, LIM_DEFAULT_CHASSIS_MAX, "tunnel", &err), 0);
	KUNIT_EXPECT_EQ(test, lim_check_value(&ch, LIM_DEFAULT_CHASSIS_MAX + 1, "tunnel", &err),
			-ERANGE);
	KUNIT_ASSERT_NOT_NULL(test, err.msg);
	/* The message is formatted by the kernel's snprintf into err.buf. */
	KUNIT_EXPECT_STREQ(test, err.msg,
			   "tunnel limit 1000001 is above the chassis maximum 1000000");

	KUNIT_EXPECT_EQ(test, lim_set_maximum(&ch, 0, 0, &err), -ERANGE);
	KUNIT_EXPECT_EQ(test, lim_set_maximum(&ch, 10, 11, &err), -ERANGE);
	KUNIT_EXPECT_EQ(test, ch.maximum, LIM_DEFAULT_CHASSIS_MAX);
	KUNIT_EXPECT_EQ(test, lim_set_maximum(&ch, 10, 10, &err), 0);

	/* The effective chassis limit is the lower of limit and maximum. */
	ch.limit = 20;
	s = lim_chassis_slot(&ch);
	KUNIT_EXPECT_PTR_EQ(test, s.count, &ch.count);
	KUNIT_EXPECT_EQ(test, s.limit, 10u);
	ch.limit = 5;
	KUNIT_EXPECT_EQ(test, lim_chassis_slot(&ch).limit, 5u);
}

/* S-LIM-4: membership moves a client's sessions, never drops any. */
static void l2tpsel_lim_slg_test(struct kunit *test)
{
	struct lim_slg slg = { .limit = 3, .count = 2 };
	struct l2s_err err = { };

	lim_slg_add_client(&slg, 4);
	KUNIT_EXPECT_EQ(test, slg.count, 6u);
	KUNIT_EXPECT_EQ(test, lim_slg_remove_client(&slg, 7, &err), -ERANGE);
	KUNIT_EXPECT_EQ(test, slg.count, 6u);
	KUNIT_EXPECT_EQ(test, lim_slg_remove_client(&slg, 4, &err), 0);
	KUNIT_EXPECT_EQ(test, slg.count, 2u);
}

static struct kunit_case l2tpsel_test_cases[] = {
	KUNIT_CASE_PARAM(l2tpsel_lim_level_name_test, lim_name_gen_params),
	KUNIT_CASE_PARAM(l2tpsel_lim_role_test, lim_role_gen_params),
	KUNIT_CASE(l2tpsel_lim_admit_release_test),
	KUNIT_CASE(l2tpsel_lim_maximum_test),
	KUNIT_CASE(l2tpsel_lim_slg_test),
	{}
};

static struct kunit_suite l2tpsel_test_suite = {
	.name = "l2tpsel",
	.test_cases = l2tpsel_test_cases,
};

kunit_test_suites(&l2tpsel_test_suite);
