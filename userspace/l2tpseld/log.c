// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld's log lines and the quoting of what peers send (l2d.h): a Host
 * Name, a result message or a user name may hold any byte, and none of them
 * may end a log line or an API answer early, start a forged one, or send
 * escape sequences to an operator's terminal.
 */
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "l2d.h"

static bool quote_byte(unsigned char c, unsigned int flags)
{
	if (c < 0x20 || c >= 0x7f)
		return true;
	return (flags & L2D_QUOTE_FIELD) && (c == ' ' || c == '\\' || c == '"');
}

char *l2d_quote(char *dst, size_t cap, const void *src, size_t len, unsigned int flags)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = src;
	size_t i, o = 0;

	if (!cap)
		return dst;
	for (i = 0; i < len; i++) {
		if (!quote_byte(p[i], flags)) {
			if (o + 1 >= cap)
				break;
			dst[o++] = (char)p[i];
			continue;
		}
		if (o + 4 >= cap)
			break;
		dst[o++] = '\\';
		dst[o++] = 'x';
		dst[o++] = hex[p[i] >> 4];
		dst[o++] = hex[p[i] & 15];
	}
	dst[o] = '\0';
	return dst;
}

const char *l2d_quote_str(char *dst, size_t cap, const char *s)
{
	if (!s || !*s) {
		snprintf(dst, cap, "-");
		return dst;
	}
	return l2d_quote(dst, cap, s, strlen(s), L2D_QUOTE_FIELD);
}

/*
 * One log line of @n bytes, its control bytes quoted.  Written with
 * fputs() and fwrite(), not a format: a storm of logins logs thousands of
 * lines a second, and the line is formatted already.
 */
static void log_out(const char *line, size_t n)
{
	char out[L2D_QUOTED_SIZE(L2D_LOG_LINE)];

	l2d_quote(out, sizeof(out), line, n, 0);
	fputs_unlocked("l2tpseld: ", stderr);
	fwrite_unlocked(out, 1, strlen(out), stderr);
	fputc_unlocked('\n', stderr);
}

void l2d_log(struct l2d *d, int level, const char *fmt, ...)
{
	char line[L2D_LOG_LINE];
	va_list ap;
	int n;

	if (!l2d_log_on(d, level))
		return;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	log_out(line, (size_t)n >= sizeof(line) ? sizeof(line) - 1 : (size_t)n);
}

void l2d_log_str(struct l2d *d, int level, const char *line, size_t n)
{
	if (!l2d_log_on(d, level))
		return;
	log_out(line, n < L2D_LOG_LINE ? n : L2D_LOG_LINE - 1);
}

/*
 * A test hook, for kill -9 at every step of a login: with L2TPSELD_TEST_PAUSE
 * naming @step in the environment the agent stops itself there (SIGSTOP)
 * and waits for its end.  No configuration line reaches it.
 */
void l2d_test_pause(const char *step)
{
	const char *want = getenv("L2TPSELD_TEST_PAUSE");

	if (!want || strcmp(want, step))
		return;
	fprintf(stderr, "l2tpseld: test pause at %s\n", step);
	fflush(stderr);
	raise(SIGSTOP);
}
