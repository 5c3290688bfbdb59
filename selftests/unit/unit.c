// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>

#include "unit.h"

static struct unit_test *unit_head, **unit_tail = &unit_head;
static int unit_failed;
static unsigned int unit_nfails;	/* failed checks so far, all tests */

/*
 * unit_zalloc()'s blocks of the running test, freed after it as KUnit frees
 * kunit_kzalloc()'s: a shared case allocates its fixture so in both builds.
 */
struct unit_block {
	struct unit_block *next, **pprev;
	max_align_t data[];
};
static struct unit_block *unit_blocks;

void *unit_zalloc(size_t size)
{
	struct unit_block *b = calloc(1, sizeof(*b) + size);

	if (!b)
		return NULL;
	b->next = unit_blocks;
	if (b->next)
		b->next->pprev = &b->next;
	b->pprev = &unit_blocks;
	unit_blocks = b;
	return b->data;
}

void unit_free(void *p)
{
	struct unit_block *b;

	if (!p)
		return;
	b = (struct unit_block *)((char *)p - offsetof(struct unit_block, data));
	*b->pprev = b->next;
	if (b->next)
		b->next->pprev = b->pprev;
	free(b);
}

static void unit_free_all(void)
{
	while (unit_blocks)
		unit_free(unit_blocks->data);
}

void unit_register(struct unit_test *t)
{
	*unit_tail = t;
	unit_tail = &t->next;
}

void unit_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	printf("# %s:%d: ", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	unit_failed = 1;
	unit_nfails++;
}

unsigned int unit_fails(void)
{
	return unit_nfails;
}

int unit_main(int argc, char **argv)
{
	const char *filter = argc > 1 ? argv[1] : NULL;
	struct unit_test *t;
	int n = 0, i = 0, bad = 0;

	for (t = unit_head; t; t = t->next)
		if (!filter || strstr(t->name, filter))
			n++;
	printf("KTAP version 1\n1..%d\n", n);
	for (t = unit_head; t; t = t->next) {
		if (filter && !strstr(t->name, filter))
			continue;
		unit_failed = 0;
		if (t->fn)
			t->fn();
		else
			t->case_fn(NULL);
		unit_free_all();
		fflush(stdout);
		printf("%sok %d %s\n", unit_failed ? "not " : "", ++i, t->name);
		bad += unit_failed;
	}
	printf("# unit: %d passed, %d failed\n", n - bad, bad);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	return unit_main(argc, argv);
}
