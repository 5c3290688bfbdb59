/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The C test harness of l2tpsel's userspace tests: the unit tests
 * (selftests/unit/, selftests/nl/, core/tests/ through t.h) and the
 * netlink tests run in the VM (selftests/net/nl_contract.c).  In the style
 * of the kernel's kselftest_harness.h; it is not the kernel's file.
 *
 *   TEST(name)
 *   {
 *           EXPECT_EQ(got, want);                  mark the test failed, go on
 *           ASSERT_TRUE(p != NULL) TH_LOG("why");  mark it failed and end it
 *           SKIP(return, "no %s here", what);      end it as skipped
 *   }
 *
 * A check may be followed by TH_LOG("..."), which runs only when the check
 * failed; a failed check prints its file, line, expression and values.
 * ASSERT ends the test from any function it is called in (helpers too).
 * harness.c has main(): it runs every test in turn, each in this
 * process, or, in a program that says
 * TEST_HARNESS_FORK(seconds), each in a child process of its own (which
 * may unshare namespaces, drop privileges or exit), killed after that
 * many seconds.  The output is KTAP:
 *
 *   KTAP version 1
 *   1..N
 *   # RUN name
 *   # file.c:123: got == want: 3 (0x3) vs 4 (0x4)
 *   # name: 0.012 s
 *   ok 1 name | not ok 1 name | ok 1 name # SKIP reason
 *   # Totals: pass:P fail:F xfail:0 xpass:0 skip:S error:0
 *
 * Exit status 0 when no test failed (4, as kselftests, when every test
 * skipped), 1 otherwise, 2 on a usage error.
 *
 *   prog [-l] [-t NAME] [PART]   -l lists the tests; -t runs the one named
 *                                NAME; PART runs those whose name has it
 */
#ifndef L2S_HARNESS_H
#define L2S_HARNESS_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* "ASSERT_EQ(a, b);" ends in an empty for (the TH_LOG hook): not misleading. */
#pragma GCC diagnostic ignored "-Wmisleading-indentation"

#define KSFT_PASS	0
#define KSFT_FAIL	1
#define KSFT_SKIP	4

/* The context of a case shared with KUnit (core/tests/t.h); never defined. */
struct th_ctx;

struct th_test {
	const char *name;
	void (*fn)(void);
	void (*case_fn)(struct th_ctx *ctx);	/* a case of core/tests/: fn NULL */
	struct th_test *next;
};

void th_register(struct th_test *t);
/* Every test in a child process of its own, killed after @timeout seconds. */
void th_fork_each(unsigned int timeout);
/* A "# " diagnostic line of the running test. */
void th_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Mark the running test failed, with "# file:line: message". */
void th_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Mark the running test skipped; SKIP() below. */
void th_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Failed checks so far: a case with rows names the row that failed. */
unsigned int th_fails(void);
/* End the running test (a failed ASSERT): back to the harness or th_guard(). */
void th_abort(void) __attribute__((noreturn));
/* Run @fn(@arg); an ASSERT failing in it ends only @fn (one row of a case). */
void th_guard(void (*fn)(void *arg), void *arg);
/* Zeroed memory the harness frees after the test, like kunit_kzalloc(). */
void *th_zalloc(size_t size);
void th_free(void *p);

#define TEST(n)								\
	static void th_fn_##n(void);					\
	static struct th_test th_t_##n = { #n, th_fn_##n, NULL, NULL };	\
	__attribute__((constructor)) static void th_reg_##n(void)	\
	{ th_register(&th_t_##n); }					\
	static void th_fn_##n(void)

#define TEST_HARNESS_FORK(timeout)					\
	__attribute__((constructor)) static void th_fork_on(void)	\
	{ th_fork_each(timeout); }					\
	struct th_semicolon

/* Set when the last check failed: the TH_LOG after it runs. */
extern int th_trigger;

static inline int th_after(int is_assert)
{
	if (is_assert)
		th_abort();
	return 0;
}

#define TH_LOG(fmt, ...)	th_log("  " fmt, ##__VA_ARGS__)
#define TH_FAIL(fmt, ...)	th_fail(__FILE__, __LINE__, fmt, ##__VA_ARGS__)
#define SKIP(statement, fmt, ...) do {					\
	th_skip(fmt, ##__VA_ARGS__);					\
	statement;							\
} while (0)

/* The statement written after a check (TH_LOG) runs only when it failed. */
#define TH_AFTER(is_assert) \
	for (; th_trigger; th_trigger = th_after(is_assert))

#define TH_CMP(a, b, op, is_assert) do {					\
	long long __th_a = (long long)(a), __th_b = (long long)(b);		\
	th_trigger = !(__th_a op __th_b);					\
	if (th_trigger)								\
		th_fail(__FILE__, __LINE__, "%s %s %s: %lld (%#llx) vs %lld (%#llx)", \
			#a, #op, #b, __th_a, (unsigned long long)__th_a,	\
			__th_b, (unsigned long long)__th_b);			\
} while (0); TH_AFTER(is_assert)

#define TH_BOOL(c, want, is_assert) do {					\
	th_trigger = (!!(c)) != (want);						\
	if (th_trigger)								\
		th_fail(__FILE__, __LINE__, "expected %s to be %s", #c,	\
			(want) ? "true" : "false");				\
} while (0); TH_AFTER(is_assert)

#define TH_STR(a, b, want_eq, is_assert) do {					\
	const char *__th_a = (a), *__th_b = (b);				\
	th_trigger = (__th_a && __th_b && !strcmp(__th_a, __th_b)) != (want_eq); \
	if (th_trigger)								\
		th_fail(__FILE__, __LINE__, "%s %s %s: \"%s\" vs \"%s\"", #a,	\
			(want_eq) ? "==" : "!=", #b, __th_a ?: "(null)",	\
			__th_b ?: "(null)");					\
} while (0); TH_AFTER(is_assert)

#define ASSERT_EQ(a, b)		TH_CMP(a, b, ==, 1)
#define ASSERT_NE(a, b)		TH_CMP(a, b, !=, 1)
#define ASSERT_LT(a, b)		TH_CMP(a, b, <, 1)
#define ASSERT_LE(a, b)		TH_CMP(a, b, <=, 1)
#define ASSERT_GT(a, b)		TH_CMP(a, b, >, 1)
#define ASSERT_GE(a, b)		TH_CMP(a, b, >=, 1)
#define ASSERT_TRUE(c)		TH_BOOL(c, 1, 1)
#define ASSERT_FALSE(c)		TH_BOOL(c, 0, 1)
#define ASSERT_STREQ(a, b)	TH_STR(a, b, 1, 1)
#define ASSERT_STRNE(a, b)	TH_STR(a, b, 0, 1)
#define EXPECT_EQ(a, b)		TH_CMP(a, b, ==, 0)
#define EXPECT_NE(a, b)		TH_CMP(a, b, !=, 0)
#define EXPECT_LT(a, b)		TH_CMP(a, b, <, 0)
#define EXPECT_LE(a, b)		TH_CMP(a, b, <=, 0)
#define EXPECT_GT(a, b)		TH_CMP(a, b, >, 0)
#define EXPECT_GE(a, b)		TH_CMP(a, b, >=, 0)
#define EXPECT_TRUE(c)		TH_BOOL(c, 1, 0)
#define EXPECT_FALSE(c)		TH_BOOL(c, 0, 0)
#define EXPECT_STREQ(a, b)	TH_STR(a, b, 1, 0)
#define EXPECT_STRNE(a, b)	TH_STR(a, b, 0, 0)

#endif /* L2S_HARNESS_H */
