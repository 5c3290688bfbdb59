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

/* Bytes quoted: 1 always (control bytes, DEL, not ASCII), 2 in a field. */
static const unsigned char quoted[256] = {
	[0 ... 0x1f] = 1, [0x7f ... 0xff] = 1, [' '] = 2, ['\\'] = 2, ['"'] = 2,
};

char *l2d_quote(char *dst, size_t cap, const void *src, size_t len, unsigned int flags)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = src;
	unsigned int mask = flags & L2D_QUOTE_FIELD ? 3 : 1;
	size_t i, o = 0;

	if (!cap)
		return dst;
	for (i = 0; i < len; i++) {
		if (!(quoted[p[i]] & mask)) {
			/* a run of plain bytes, copied at once: most lines are one */
			size_t run = 1, max;

			if (o + 1 >= cap)
				break;
			max = len - i < cap - 1 - o ? len - i : cap - 1 - o;
			while (run < max && !(quoted[p[i + run]] & mask))
				run++;
			memcpy(dst + o, p + i, run);
			o += run;
			i += run - 1;
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

static void fmt_str(char *buf, size_t cap, size_t *o, const char *s)
{
	size_t n = strnlen(s ? s : "(null)", cap - 1 - *o);

	memcpy(buf + *o, s ? s : "(null)", n);
	*o += n;
}

static void fmt_u64(char *buf, size_t cap, size_t *o, unsigned long long v)
{
	char tmp[20];
	size_t i = sizeof(tmp), n;

	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	n = sizeof(tmp) - i;
	if (n > cap - 1 - *o)
		n = cap - 1 - *o;
	memcpy(buf + *o, tmp + i, n);
	*o += n;
}

/* Whether @fmt has no conversion but %s, %u, %llu and %%. */
static bool fmt_simple(const char *fmt)
{
	const char *f;

	for (f = strchr(fmt, '%'); f; f = strchr(f, '%')) {
		if (f[1] == 's' || f[1] == 'u' || f[1] == '%')
			f += 2;
		else if (f[1] == 'l' && f[2] == 'l' && f[3] == 'u')
			f += 4;
		else
			return false;
	}
	return true;
}

size_t l2d_vfmt(char *buf, size_t cap, const char *fmt, va_list ap)
{
	size_t o = 0;

	if (!fmt_simple(fmt)) {
		int n = vsnprintf(buf, cap, fmt, ap);

		if (n < 0) {
			buf[0] = '\0';
			return 0;
		}
		return (size_t)n < cap ? (size_t)n : cap - 1;
	}
	while (*fmt && o + 1 < cap) {
		const char *pct = strchrnul(fmt, '%');
		size_t n = (size_t)(pct - fmt);

		if (n > cap - 1 - o)
			n = cap - 1 - o;
		memcpy(buf + o, fmt, n);
		o += n;
		fmt = pct;
		if (!*fmt || o + 1 >= cap)
			break;
		if (fmt[1] == 's') {
			fmt_str(buf, cap, &o, va_arg(ap, const char *));
			fmt += 2;
		} else if (fmt[1] == 'u') {
			fmt_u64(buf, cap, &o, va_arg(ap, unsigned int));
			fmt += 2;
		} else if (fmt[1] == '%') {
			buf[o++] = '%';
			fmt += 2;
		} else {
			fmt_u64(buf, cap, &o, va_arg(ap, unsigned long long));
			fmt += 4;
		}
	}
	buf[o] = '\0';
	return o;
}

size_t l2d_fmt(char *buf, size_t cap, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	n = l2d_vfmt(buf, cap, fmt, ap);
	va_end(ap);
	return n;
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
	size_t n;

	if (!l2d_log_on(d, level))
		return;
	va_start(ap, fmt);
	n = l2d_vfmt(line, sizeof(line), fmt, ap);
	va_end(ap);
	log_out(line, n);
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
	/* read once: a login passes three of these, and getenv() walks the environment */
	static const char *want;
	static bool read;

	if (!read) {
		want = getenv("L2TPSELD_TEST_PAUSE");
		read = true;
	}
	if (!want || strcmp(want, step))
		return;
	fprintf(stderr, "l2tpseld: test pause at %s\n", step);
	fflush(stderr);
	raise(SIGSTOP);
}
