/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small test harness in the style of the kernel's kselftest_harness.h
 * (tools/testing/selftests): TEST(name) { ... } blocks, ASSERT_* (stop the
 * test) and EXPECT_* (mark it failed, go on), optionally followed by
 * TH_LOG("...") which runs only when the check failed.  Written for the
 * l2tpsel selftests; it is not the kernel's file.
 *
 * Each test runs in a child process of its own (so it may unshare
 * namespaces, drop privileges or exit), with an alarm (KL_TIMEOUT seconds,
 * 120 unless defined).  The output is KTAP:
 *
 *   TAP version 13
 *   1..N
 *   # RUN name
 *   # file.c:123: expected ... (what was expected, what came)
 *   # name: 1.234 s
 *   ok 1 name | not ok 1 name | ok 1 name # SKIP reason
 *   # Totals: pass:P fail:F skip:S
 *
 * main() is TEST_HARNESS_MAIN.  Exit status 0 when no test failed (4 when
 * every test skipped), 1 otherwise.  `prog -t name` runs only that test,
 * `prog -l` lists them.
 */
#ifndef KSELFTEST_LITE_H
#define KSELFTEST_LITE_H

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* "ASSERT_EQ(a, b);" ends in an empty for (the TH_LOG hook): not misleading. */
#pragma GCC diagnostic ignored "-Wmisleading-indentation"

#define KSFT_PASS	0
#define KSFT_FAIL	1
#define KSFT_SKIP	4

#ifndef KL_TIMEOUT
#define KL_TIMEOUT	120
#endif

/* Shared between the runner and the test's child process. */
struct __test_metadata {
	int passed;
	int trigger;		/* the last check failed: run the TH_LOG after it */
	int skip;
	char reason[256];
};

struct kl_test {
	const char *name;
	void (*fn)(struct __test_metadata *_metadata);
	struct kl_test *next;
};

static struct kl_test *kl_tests, **kl_tail = &kl_tests;

static inline void kl_register(struct kl_test *t)
{
	*kl_tail = t;
	kl_tail = &t->next;
}

#define TEST(name)							\
	static void name(struct __test_metadata *_metadata);		\
	static struct kl_test kl_t_##name = { #name, name, NULL };	\
	__attribute__((constructor)) static void kl_reg_##name(void)	\
	{ kl_register(&kl_t_##name); }					\
	static void name(struct __test_metadata __attribute__((unused)) *_metadata)

/* A line of the test's output, as a KTAP diagnostic. */
__attribute__((format(printf, 1, 2)))
static inline void kl_log(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

#define TH_LOG(fmt, ...) kl_log("  " fmt, ##__VA_ARGS__)

/* Stop the current test as skipped. */
#define SKIP(statement, fmt, ...) do {					\
	snprintf(_metadata->reason, sizeof(_metadata->reason), fmt, ##__VA_ARGS__); \
	_metadata->skip = 1;						\
	kl_log("SKIP: %s", _metadata->reason);				\
	statement;							\
} while (0)

static inline int kl_bail(int is_assert, struct __test_metadata *m)
{
	if (is_assert) {
		fflush(stdout);
		_exit(KSFT_FAIL);
	}
	(void)m;
	return 0;
}

/* The statement written after a check (TH_LOG) runs only when it failed. */
#define KL_AFTER(is_assert) \
	for (; _metadata->trigger; _metadata->trigger = kl_bail(is_assert, _metadata))

#define KL_CMP(expected, seen, op, is_assert) do {				\
	long long __e = (long long)(expected), __s = (long long)(seen);	\
	if (!(__e op __s)) {							\
		kl_log("%s:%d: expected %s %s %s: expected %lld (%#llx), got %lld (%#llx)", \
		       __FILE__, __LINE__, #expected, #op, #seen,		\
		       __e, (unsigned long long)__e, __s, (unsigned long long)__s); \
		_metadata->passed = 0;						\
		_metadata->trigger = 1;						\
	}									\
} while (0); KL_AFTER(is_assert)

#define KL_BOOL(cond, want, is_assert) do {					\
	int __c = !!(cond);							\
	if (__c != (want)) {							\
		kl_log("%s:%d: expected %s to be %s, it is %s", __FILE__, __LINE__, \
		       #cond, (want) ? "true" : "false", (want) ? "false" : "true"); \
		_metadata->passed = 0;						\
		_metadata->trigger = 1;						\
	}									\
} while (0); KL_AFTER(is_assert)

#define KL_STR(expected, seen, want_eq, is_assert) do {			\
	const char *__e = (expected), *__s = (seen);				\
	if ((__e && __s && !strcmp(__e, __s)) != (want_eq)) {			\
		kl_log("%s:%d: expected %s %s %s: expected \"%s\", got \"%s\"",	\
		       __FILE__, __LINE__, #expected, (want_eq) ? "==" : "!=",	\
		       #seen, __e ? __e : "(null)", __s ? __s : "(null)");	\
		_metadata->passed = 0;						\
		_metadata->trigger = 1;						\
	}									\
} while (0); KL_AFTER(is_assert)

#define ASSERT_EQ(e, s)	KL_CMP(e, s, ==, 1)
#define ASSERT_NE(e, s)	KL_CMP(e, s, !=, 1)
#define ASSERT_LT(e, s)	KL_CMP(e, s, <, 1)
#define ASSERT_LE(e, s)	KL_CMP(e, s, <=, 1)
#define ASSERT_GT(e, s)	KL_CMP(e, s, >, 1)
#define ASSERT_GE(e, s)	KL_CMP(e, s, >=, 1)
#define ASSERT_TRUE(c)	KL_BOOL(c, 1, 1)
#define ASSERT_FALSE(c)	KL_BOOL(c, 0, 1)
#define ASSERT_STREQ(e, s)	KL_STR(e, s, 1, 1)
#define EXPECT_EQ(e, s)	KL_CMP(e, s, ==, 0)
#define EXPECT_NE(e, s)	KL_CMP(e, s, !=, 0)
#define EXPECT_LT(e, s)	KL_CMP(e, s, <, 0)
#define EXPECT_LE(e, s)	KL_CMP(e, s, <=, 0)
#define EXPECT_GT(e, s)	KL_CMP(e, s, >, 0)
#define EXPECT_GE(e, s)	KL_CMP(e, s, >=, 0)
#define EXPECT_TRUE(c)	KL_BOOL(c, 1, 0)
#define EXPECT_FALSE(c)	KL_BOOL(c, 0, 0)
#define EXPECT_STREQ(e, s)	KL_STR(e, s, 1, 0)

/* Fail the test with a message (the test goes on; return to stop it). */
#define KL_FAIL(fmt, ...) do {							\
	kl_log("%s:%d: " fmt, __FILE__, __LINE__, ##__VA_ARGS__);		\
	_metadata->passed = 0;							\
} while (0)

static int kl_run_one(struct kl_test *t, int n, struct __test_metadata *m)
{
	int status;
	pid_t pid;

	struct timespec t0, t1;

	memset(m, 0, sizeof(*m));
	m->passed = 1;
	kl_log("RUN %s", t->name);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		kl_log("fork: %s", strerror(errno));
		m->passed = 0;
	} else if (pid == 0) {
		alarm(KL_TIMEOUT);
		t->fn(m);
		fflush(stdout);
		_exit(m->skip ? KSFT_SKIP : m->passed ? KSFT_PASS : KSFT_FAIL);
	} else {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		if (WIFSIGNALED(status)) {
			kl_log("%s: killed by signal %d%s", t->name, WTERMSIG(status),
			       WTERMSIG(status) == SIGALRM ? " (timed out)" : "");
			m->passed = 0;
		} else if (WEXITSTATUS(status) == KSFT_SKIP) {
			m->skip = 1;
		} else if (WEXITSTATUS(status) != KSFT_PASS) {
			m->passed = 0;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	kl_log("%s: %.3f s", t->name, (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	if (m->skip && m->passed)
		printf("ok %d %s # SKIP %s\n", n, t->name, m->reason);
	else
		printf("%sok %d %s\n", m->passed ? "" : "not ", n, t->name);
	fflush(stdout);
	return m->skip && m->passed ? KSFT_SKIP : m->passed ? KSFT_PASS : KSFT_FAIL;
}

static inline int kl_main(int argc, char **argv)
{
	struct __test_metadata *m;
	int n = 0, total = 0, pass = 0, fail = 0, skip = 0, opt;
	const char *only = NULL;
	struct kl_test *t;

	while ((opt = getopt(argc, argv, "lt:")) != -1) {
		if (opt == 'l') {
			for (t = kl_tests; t; t = t->next)
				printf("%s\n", t->name);
			return 0;
		}
		if (opt == 't')
			only = optarg;
		else
			return 2;
	}
	m = mmap(NULL, sizeof(*m), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return KSFT_FAIL;
	for (t = kl_tests; t; t = t->next)
		total += !only || !strcmp(only, t->name);
	if (!total) {
		fprintf(stderr, "no test %s\n", only ? only : "");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n1..%d\n", total);
	for (t = kl_tests; t; t = t->next) {
		if (only && strcmp(only, t->name))
			continue;
		switch (kl_run_one(t, ++n, m)) {
		case KSFT_PASS: pass++; break;
		case KSFT_SKIP: skip++; break;
		default: fail++; break;
		}
	}
	printf("# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:%d error:0\n", pass, fail, skip);
	return fail ? KSFT_FAIL : skip == total ? KSFT_SKIP : KSFT_PASS;
}

#define TEST_HARNESS_MAIN int main(int argc, char **argv) { return kl_main(argc, argv); }

#endif /* KSELFTEST_LITE_H */
