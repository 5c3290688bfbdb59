// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "print.h"

#define PR_DEPTH 32

static bool pr_json;
static bool pr_pretty;
static int pr_depth;
static bool pr_first[PR_DEPTH];

void pr_init(bool json, bool pretty)
{
	pr_json = json;
	pr_pretty = pretty;
	pr_depth = 0;
	pr_first[0] = true;
}

void pr_reset(void)
{
	pr_depth = 0;
	pr_first[0] = true;
}

bool pr_is_json(void)
{
	return pr_json;
}

void pr_json_string(const char *s)
{
	const unsigned char *p;

	putchar('"');
	for (p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':  fputs("\\\"", stdout); break;
		case '\\': fputs("\\\\", stdout); break;
		case '\n': fputs("\\n", stdout); break;
		case '\t': fputs("\\t", stdout); break;
		default:
			if (*p < 0x20)
				printf("\\u%04x", *p);
			else
				putchar(*p);
		}
	}
	putchar('"');
}

static void pr_indent(void)
{
	int i;

	if (!pr_pretty)
		return;
	putchar('\n');
	for (i = 0; i < pr_depth; i++)
		fputs("    ", stdout);
}

/* Separator and key before a JSON value. */
static void pr_key(const char *key)
{
	if (!pr_first[pr_depth])
		putchar(',');
	pr_first[pr_depth] = false;
	if (pr_depth)
		pr_indent();
	if (key) {
		pr_json_string(key);
		putchar(':');
		if (pr_pretty)
			putchar(' ');
	}
}

static void pr_open(const char *key, char c)
{
	if (!pr_json)
		return;
	pr_key(key);
	putchar(c);
	if (pr_depth < PR_DEPTH - 1)
		pr_depth++;
	pr_first[pr_depth] = true;
}

static void pr_close(char c)
{
	bool empty;

	if (!pr_json)
		return;
	empty = pr_first[pr_depth];
	if (pr_depth)
		pr_depth--;
	if (!empty)
		pr_indent();
	putchar(c);
}

void pr_open_obj(const char *key) { pr_open(key, '{'); }
void pr_close_obj(void) { pr_close('}'); }
void pr_open_arr(const char *key) { pr_open(key, '['); }
void pr_close_arr(void) { pr_close(']'); }

void pr_str(const char *key, const char *fmt, const char *val)
{
	if (!pr_json) {
		printf(fmt, val);
		return;
	}
	pr_key(key);
	pr_json_string(val);
}

void pr_u64(const char *key, const char *fmt, uint64_t val)
{
	if (!pr_json) {
		printf(fmt, val);
		return;
	}
	pr_key(key);
	printf("%" PRIu64, val);
}

void pr_s64(const char *key, const char *fmt, int64_t val)
{
	if (!pr_json) {
		printf(fmt, val);
		return;
	}
	pr_key(key);
	printf("%" PRId64, val);
}

void pr_bool(const char *key, const char *fmt, bool val)
{
	if (!pr_json) {
		printf(fmt, val ? "yes" : "no");
		return;
	}
	pr_key(key);
	fputs(val ? "true" : "false", stdout);
}

void pr_text(const char *s)
{
	if (!pr_json)
		fputs(s, stdout);
}

void pr_done(void)
{
	if (pr_json)
		putchar('\n');
	fflush(stdout);
	/* The next document (a batch's next show) starts afresh, not with ','. */
	pr_reset();
}
