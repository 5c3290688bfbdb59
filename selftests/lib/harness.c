// SPDX-License-Identifier: GPL-2.0
/* The test runner of harness.h: registration, checks, KTAP output, main(). */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

/* The running test's result; shared with its child process when forked. */
struct th_result {
	int failed;
	int skipped;
	unsigned int fails;	/* failed checks, all tests */
	char reason[256];	/* why it skipped */
};

int th_trigger;
static struct th_test *th_head, **th_tail = &th_head;
static struct th_result *th_res;
static unsigned int th_timeout;	/* 0: every test in this process */
static jmp_buf *th_jmp;

/* th_zalloc()'s blocks of the running test, freed after it. */
struct th_block {
	struct th_block *next, **pprev;
	max_align_t data[];
};
static struct th_block *th_blocks;

void th_register(struct th_test *t)
{
	*th_tail = t;
	th_tail = &t->next;
}

void th_fork_each(unsigned int timeout)
{
	th_timeout = timeout;
}

static void th_vlog(const char *prefix, const char *fmt, va_list ap)
{
	fputs(prefix, stdout);
	vprintf(fmt, ap);
	fputc('\n', stdout);
	fflush(stdout);
}

void th_log(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	th_vlog("# ", fmt, ap);
	va_end(ap);
}

void th_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	printf("# %s:%d: ", file, line);
	va_start(ap, fmt);
	th_vlog("", fmt, ap);
	va_end(ap);
	th_res->failed = 1;
	th_res->fails++;
}

void th_skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(th_res->reason, sizeof(th_res->reason), fmt, ap);
	va_end(ap);
	th_res->skipped = 1;
	th_log("SKIP: %s", th_res->reason);
}

unsigned int th_fails(void)
{
	return th_res->fails;
}

void th_abort(void)
{
	fflush(stdout);
	longjmp(*th_jmp, 1);
}

void th_guard(void (*fn)(void *arg), void *arg)
{
	jmp_buf here, *outer = th_jmp;

	th_jmp = &here;
	if (!setjmp(here))
		fn(arg);
	th_jmp = outer;
}

void *th_zalloc(size_t size)
{
	struct th_block *b = calloc(1, sizeof(*b) + size);

	if (!b)
		return NULL;
	b->next = th_blocks;
	if (b->next)
		b->next->pprev = &b->next;
	b->pprev = &th_blocks;
	th_blocks = b;
	return b->data;
}

void th_free(void *p)
{
	struct th_block *b;

	if (!p)
		return;
	b = (struct th_block *)((char *)p - offsetof(struct th_block, data));
	*b->pprev = b->next;
	if (b->next)
		b->next->pprev = b->pprev;
	free(b);
}

static void th_call(void *arg)
{
	struct th_test *t = arg;

	if (t->fn)
		t->fn();
	else
		t->case_fn(NULL);
}

static void th_run(struct th_test *t)
{
	int status;
	pid_t pid;

	if (!th_timeout) {
		th_guard(th_call, t);
		while (th_blocks)
			th_free(th_blocks->data);
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		th_log("fork: %s", strerror(errno));
		th_res->failed = 1;
		return;
	}
	if (pid == 0) {
		alarm(th_timeout);
		th_guard(th_call, t);
		fflush(stdout);
		_exit(0);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status)) {
		th_log("%s: killed by signal %d%s", t->name, WTERMSIG(status),
		       WTERMSIG(status) == SIGALRM ? " (timed out)" : "");
		th_res->failed = 1;
	} else if (WEXITSTATUS(status) != 0) {
		th_log("%s: exit status %d", t->name, WEXITSTATUS(status));
		th_res->failed = 1;
	}
}

static double th_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int th_wanted(const struct th_test *t, const char *only, const char *part)
{
	return (!only || !strcmp(only, t->name)) && (!part || strstr(t->name, part));
}

int main(int argc, char **argv)
{
	int n = 0, total = 0, pass = 0, fail = 0, skip = 0, opt;
	const char *only = NULL, *part;
	struct th_test *t;

	while ((opt = getopt(argc, argv, "lt:")) != -1) {
		if (opt == 'l') {
			for (t = th_head; t; t = t->next)
				printf("%s\n", t->name);
			return 0;
		}
		if (opt != 't') {
			fprintf(stderr, "usage: %s [-l] [-t NAME] [PART]\n", argv[0]);
			return 2;
		}
		only = optarg;
	}
	part = optind < argc ? argv[optind] : NULL;
	th_res = mmap(NULL, sizeof(*th_res), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (th_res == MAP_FAILED)
		return KSFT_FAIL;
	for (t = th_head; t; t = t->next)
		total += th_wanted(t, only, part);
	if (!total) {
		fprintf(stderr, "no test %s\n", only ?: part ?: "");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("KTAP version 1\n1..%d\n", total);
	for (t = th_head; t; t = t->next) {
		double t0;

		if (!th_wanted(t, only, part))
			continue;
		t0 = th_now();
		th_res->failed = 0;
		th_res->skipped = 0;
		th_log("RUN %s", t->name);
		th_run(t);
		th_log("%s: %.3f s", t->name, th_now() - t0);
		if (th_res->failed) {
			printf("not ok %d %s\n", ++n, t->name);
			fail++;
		} else if (th_res->skipped) {
			printf("ok %d %s # SKIP %s\n", ++n, t->name, th_res->reason);
			skip++;
		} else {
			printf("ok %d %s\n", ++n, t->name);
			pass++;
		}
	}
	printf("# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:%d error:0\n", pass, fail, skip);
	munmap(th_res, sizeof(*th_res));
	return fail ? KSFT_FAIL : skip == total ? KSFT_SKIP : KSFT_PASS;
}
