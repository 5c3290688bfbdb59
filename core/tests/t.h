/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The assertion layer of the core's tests, so that a case is written once
 * and runs in both builds of core/:
 *
 *   - in the kernel (L2S_KERNEL, the test module kmod/kunit/), a case is a
 *     KUnit case and T_EXPECT_EQ() is KUNIT_EXPECT_EQ();
 *   - in userspace (selftests/unit/), a case is a test of the one C test
 *     harness (selftests/lib/harness.h) and T_EXPECT_EQ() is EXPECT_EQ().
 *
 * A case file (core/tests/X.c) is compiled into both: its cases are
 *
 *   T_CASE(obj_1_shared_dests) { ... T_EXPECT_EQ(a, b); ... }
 *
 * and its suite is one table, which is all either build registers:
 *
 *   T_SUITE(l2tpsel_obj, T_ENTRY(obj_1_shared_dests) T_ENTRY(...));
 *
 * In KUnit the case is l2tpsel_obj_1_shared_dests_test in suite
 * l2tpsel_obj; in userspace the test obj_1_shared_dests.  A case with
 * rows (KUNIT_ARRAY_PARAM in the kernel, a loop in userspace) is
 * T_PARAM_CASE(name, row type, table, description field) and T_PARAM_ENTRY.
 *
 * Inside a case `test` is the KUnit context (NULL in userspace): the
 * fixture (fix.h) takes it to allocate memory that goes with the test.
 * ASSERT ends the case (the row) on failure, EXPECT goes on, as in KUnit.
 */
#ifndef L2S_TESTS_T_H
#define L2S_TESTS_T_H

#ifdef L2S_KERNEL

#include <kunit/test.h>
#include <linux/string.h>

typedef struct kunit t_test;

#define T_EXPECT_EQ(a, b)	KUNIT_EXPECT_EQ(test, a, b)
#define T_EXPECT_NE(a, b)	KUNIT_EXPECT_NE(test, a, b)
#define T_EXPECT_LT(a, b)	KUNIT_EXPECT_LT(test, a, b)
#define T_EXPECT_LE(a, b)	KUNIT_EXPECT_LE(test, a, b)
#define T_EXPECT_GT(a, b)	KUNIT_EXPECT_GT(test, a, b)
#define T_EXPECT_GE(a, b)	KUNIT_EXPECT_GE(test, a, b)
#define T_EXPECT_TRUE(c)	KUNIT_EXPECT_TRUE(test, c)
#define T_EXPECT_FALSE(c)	KUNIT_EXPECT_FALSE(test, c)
#define T_EXPECT_STREQ(a, b)	KUNIT_EXPECT_STREQ(test, a, b)
#define T_EXPECT_NULL(p)	KUNIT_EXPECT_NULL(test, p)
#define T_EXPECT_NOT_NULL(p)	KUNIT_EXPECT_NOT_NULL(test, p)
#define T_EXPECT_PTR_EQ(a, b)	KUNIT_EXPECT_PTR_EQ(test, a, b)
#define T_EXPECT_EQ_MSG(a, b, ...)	KUNIT_EXPECT_EQ_MSG(test, a, b, __VA_ARGS__)
#define T_EXPECT_LE_MSG(a, b, ...)	KUNIT_EXPECT_LE_MSG(test, a, b, __VA_ARGS__)
#define T_EXPECT_GT_MSG(a, b, ...)	KUNIT_EXPECT_GT_MSG(test, a, b, __VA_ARGS__)
#define T_EXPECT_TRUE_MSG(c, ...)	KUNIT_EXPECT_TRUE_MSG(test, c, __VA_ARGS__)
#define T_ASSERT_EQ(a, b)	KUNIT_ASSERT_EQ(test, a, b)
#define T_ASSERT_GE(a, b)	KUNIT_ASSERT_GE(test, a, b)
#define T_ASSERT_TRUE(c)	KUNIT_ASSERT_TRUE(test, c)
#define T_ASSERT_NOT_NULL(p)	KUNIT_ASSERT_NOT_NULL(test, p)
#define T_INFO(fmt, ...)	kunit_info(test, fmt "\n", ##__VA_ARGS__)
#define T_FAIL(fmt, ...)	KUNIT_FAIL(test, fmt, ##__VA_ARGS__)

/* Zeroed memory freed with the test (kunit_kzalloc()). */
#define T_ZALLOC(size)		kunit_kzalloc(test, size, GFP_KERNEL)

#define T_CASE(n)		static void l2tpsel_##n##_test(struct kunit *test)
#define T_ENTRY(n)		KUNIT_CASE(l2tpsel_##n##_test),

/* A case run once per row of @table; the row is `c` inside. */
#define T_PARAM_CASE(n, type, table, field)				\
	static void n##_desc(const type *c, char *desc)			\
	{ strscpy(desc, c->field, KUNIT_PARAM_DESC_SIZE); }		\
	KUNIT_ARRAY_PARAM(n, table, n##_desc);				\
	static void n##_row(struct kunit *test, const type *c);		\
	static void l2tpsel_##n##_test(struct kunit *test)		\
	{ n##_row(test, test->param_value); }				\
	static void n##_row(struct kunit *test, const type *c)
#define T_PARAM_ENTRY(n)	KUNIT_CASE_PARAM(l2tpsel_##n##_test, n##_gen_params),

#define T_SUITE(s, ...)		T_SUITE_INIT(s, NULL, NULL, __VA_ARGS__)
/* @init and @exit run around each case in the kernel only (suite.init). */
#define T_SUITE_INIT(s, i, e, ...)					\
	static struct kunit_case s##_cases[] = { __VA_ARGS__ {} };		\
	static struct kunit_suite s##_suite = {				\
		.name = #s,						\
		.init = i,						\
		.exit = e,						\
		.test_cases = s##_cases,				\
	}

#else /* userspace */

#include "harness.h"

typedef struct th_ctx t_test;

/* The kernel's name for the attribute, for the fixture's printf helpers. */
#ifndef __printf
#define __printf(a, b)		__attribute__((format(printf, a, b)))
#endif

#define T_EXPECT_EQ(a, b)	EXPECT_EQ(a, b)
#define T_EXPECT_NE(a, b)	EXPECT_NE(a, b)
#define T_EXPECT_LT(a, b)	EXPECT_LT(a, b)
#define T_EXPECT_LE(a, b)	EXPECT_LE(a, b)
#define T_EXPECT_GT(a, b)	EXPECT_GT(a, b)
#define T_EXPECT_GE(a, b)	EXPECT_GE(a, b)
/* The message of the case's own follows a failure (the TH_LOG hook). */
#define T_EXPECT_EQ_MSG(a, b, ...)	EXPECT_EQ(a, b) th_log(__VA_ARGS__)
#define T_EXPECT_LE_MSG(a, b, ...)	EXPECT_LE(a, b) th_log(__VA_ARGS__)
#define T_EXPECT_GT_MSG(a, b, ...)	EXPECT_GT(a, b) th_log(__VA_ARGS__)
#define T_EXPECT_TRUE_MSG(c, ...)	EXPECT_TRUE(c) th_log(__VA_ARGS__)
#define T_EXPECT_TRUE(c)	EXPECT_TRUE(c)
#define T_EXPECT_FALSE(c)	EXPECT_FALSE(c)
#define T_EXPECT_STREQ(a, b)	EXPECT_STREQ(a, b)
#define T_EXPECT_NULL(p)	EXPECT_TRUE((p) == NULL)
#define T_EXPECT_NOT_NULL(p)	EXPECT_TRUE((p) != NULL)
#define T_EXPECT_PTR_EQ(a, b)	EXPECT_TRUE((a) == (b))
#define T_ASSERT_EQ(a, b)	ASSERT_EQ(a, b)
#define T_ASSERT_GE(a, b)	ASSERT_GE(a, b)
#define T_ASSERT_TRUE(c)	ASSERT_TRUE(c)
#define T_ASSERT_NOT_NULL(p)	ASSERT_TRUE((p) != NULL)
#define T_INFO(...)		do { (void)test; th_log(__VA_ARGS__); } while (0)
#define T_FAIL(...)		TH_FAIL(__VA_ARGS__)

/* Zeroed memory freed after the test (harness.c), as KUnit's. */
#define T_ZALLOC(size)		((void)test, th_zalloc(size))

#define T_CASE(n)		static void l2tpsel_##n##_test(t_test *test)
#define T_ENTRY(n)		{ #n, NULL, l2tpsel_##n##_test, NULL },

/* A failed ASSERT ends the row (th_guard()), as in KUnit. */
#define T_PARAM_CASE(n, type, table, field)				\
	static void n##_row(t_test *test, const type *c);		\
	static void n##_guarded(void *row)				\
	{ n##_row(NULL, row); }						\
	static void l2tpsel_##n##_test(t_test *test)			\
	{								\
		size_t i;						\
									\
		for (i = 0; i < L2S_ARRAY_SIZE(table); i++) {		\
			unsigned int _fails = th_fails();		\
									\
			th_guard(n##_guarded, (void *)&(table)[i]);	\
			if (th_fails() != _fails)			\
				th_log("row %zu: %s", i, (table)[i].field); \
		}							\
	}								\
	static void n##_row(t_test *test, const type *c)
#define T_PARAM_ENTRY(n)	T_ENTRY(n)

/* Registers the table's cases, in its order, as tests of the harness. */
#define T_SUITE(s, ...)							\
	static struct th_test s##_tests[] = { __VA_ARGS__ };		\
	__attribute__((constructor)) static void s##_register(void)	\
	{								\
		size_t i;						\
									\
		for (i = 0; i < L2S_ARRAY_SIZE(s##_tests); i++)		\
			th_register(&s##_tests[i]);			\
	}								\
	struct l2s_unit_semicolon
#define T_SUITE_INIT(s, i, e, ...)	T_SUITE(s, __VA_ARGS__)

#endif /* L2S_KERNEL */
#endif /* L2S_TESTS_T_H */
