/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal unit-test harness for the userspace build of the core, with KTAP
 * output (one top-level "ok N name" line per test).
 *
 *   UNIT_TEST(name) { ... EXPECT_EQ(a, b); ... }
 *
 * Tests register themselves through a constructor; unit_main() runs all of
 * them, or those whose name contains argv[1].  The cases shared with KUnit
 * (core/tests/) register through T_SUITE() (core/tests/t.h) instead.  A failed EXPECT prints a "#"
 * diagnostic with file and line, and the test goes on; ASSERT returns.
 */
#ifndef L2S_UNIT_H
#define L2S_UNIT_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* The context of a case shared with KUnit (core/tests/t.h); never defined. */
struct unit_ctx;

struct unit_test {
	const char *name;
	void (*fn)(void);
	void (*case_fn)(struct unit_ctx *ctx);	/* a shared case: fn NULL */
	struct unit_test *next;
};

void unit_register(struct unit_test *t);
/* Zeroed memory that the harness frees after the test, like kunit_kzalloc(). */
void *unit_zalloc(size_t size);
void unit_free(void *p);
void unit_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int unit_main(int argc, char **argv);
/* Failed checks so far: a shared case with rows names the row that failed. */
unsigned int unit_fails(void);

#define UNIT_TEST(n)							\
	static void unit_fn_##n(void);					\
	static struct unit_test unit_t_##n = { #n, unit_fn_##n, NULL, NULL };	\
	__attribute__((constructor)) static void unit_reg_##n(void)	\
	{ unit_register(&unit_t_##n); }					\
	static void unit_fn_##n(void)

#define EXPECT_TRUE(c) do { if (!(c)) unit_fail(__FILE__, __LINE__, "expected %s", #c); } while (0)
#define EXPECT_EQ(a, b) do {						\
	long long _a = (long long)(a), _b = (long long)(b);		\
	if (_a != _b)							\
		unit_fail(__FILE__, __LINE__, "%s == %lld, expected %s == %lld", #a, _a, #b, _b); \
} while (0)
#define EXPECT_STREQ(a, b) do {						\
	const char *_a = (a), *_b = (b);				\
	if (!_a || !_b || strcmp(_a, _b))				\
		unit_fail(__FILE__, __LINE__, "%s == \"%s\", expected \"%s\"", #a, _a ? _a : "(null)", _b ? _b : "(null)"); \
} while (0)
#define ASSERT_TRUE(c) do { if (!(c)) { unit_fail(__FILE__, __LINE__, "expected %s", #c); return; } } while (0)
#define ASSERT_EQ(a, b) do {						\
	long long _a = (long long)(a), _b = (long long)(b);		\
	if (_a != _b) {							\
		unit_fail(__FILE__, __LINE__, "%s == %lld, expected %s == %lld", #a, _a, #b, _b); \
		return;							\
	}								\
} while (0)

/* Print a KTAP diagnostic line ("# ...") that belongs to the current test. */
#define UNIT_DIAG(...) do { printf("# "); printf(__VA_ARGS__); printf("\n"); } while (0)

#endif
