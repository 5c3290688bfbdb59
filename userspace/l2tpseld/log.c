// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld's log lines and the quoting of what peers send (l2d.h): a Host
 * Name, a result message or a user name may hold any byte, and none of them
 * may end a log line or an API answer early, start a forged one, or send
 * escape sequences to an operator's terminal.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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

/* %-s: a field someone else chose, quoted as one (l2d_quote_str()). */
static void fmt_field(char *buf, size_t cap, size_t *o, const char *s)
{
	l2d_quote_str(buf + *o, cap - *o, s);
	*o += strlen(buf + *o);
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

/* Whether @fmt has no conversion but %s, %-s, %u, %llu and %%. */
static bool fmt_simple(const char *fmt)
{
	const char *f;

	for (f = strchr(fmt, '%'); f; f = strchr(f, '%')) {
		if (f[1] == 's' || f[1] == 'u' || f[1] == '%')
			f += 2;
		else if (f[1] == '-' && f[2] == 's')
			f += 3;
		else if (f[1] == 'l' && f[2] == 'l' && f[3] == 'u')
			f += 4;
		else
			return false;
	}
	return true;
}

/* The length modifier at @fmt[*@n], passed: 1 l, 2 ll, 3 z, 4 j, 5 t, 6 L; -1 h, hh; 0 none. */
static int fmt_lmod(const char *fmt, size_t *n)
{
	int lmod = 0;

	for (;; ++*n) {
		if (fmt[*n] == 'l')
			lmod = lmod == 1 ? 2 : 1;
		else if (fmt[*n] == 'h')
			lmod = -1;
		else if (fmt[*n] == 'z')
			lmod = 3;
		else if (fmt[*n] == 'j')
			lmod = 4;
		else if (fmt[*n] == 't')
			lmod = 5;
		else if (fmt[*n] == 'L')
			lmod = 6;
		else
			return lmod;
	}
}

/*
 * One conversion of any other kind, at @fmt (its '%'): the spec is copied
 * and given to snprintf() with the argument of its type, so that a %-s in
 * the same format is still quoted.  Returns the length of the spec.
 */
static size_t fmt_one(char *buf, size_t cap, size_t *o, const char *fmt, va_list *ap)
{
	char spec[32];
	size_t n = 1, room = cap - *o;
	int lmod, w, r = 0;
	char conv;

	while (fmt[n] && strchr("-+ #0'", fmt[n]))
		n++;
	while (fmt[n] && (fmt[n] == '*' || fmt[n] == '.' || (fmt[n] >= '0' && fmt[n] <= '9')))
		n++;
	lmod = fmt_lmod(fmt, &n);
	conv = fmt[n];
	if (!conv || n + 2 > sizeof(spec))
		return n;	/* a broken spec: dropped */
	memcpy(spec, fmt, n + 1);
	spec[n + 1] = '\0';
	/* the '*' width and precision, in order */
	{
		int star[2] = { 0, 0 }, ns = 0;
		size_t i;

		for (i = 1; i < n; i++)
			if (fmt[i] == '*' && ns < 2)
				star[ns++] = va_arg(*ap, int);
		if (conv == 's' && !strcmp(spec, "%-s")) {
			fmt_field(buf, cap, o, va_arg(*ap, const char *));
			return n + 1;
		}
#define ONE(T)	(ns == 2 ? snprintf(buf + *o, room, spec, star[0], star[1], va_arg(*ap, T)) : \
		 ns == 1 ? snprintf(buf + *o, room, spec, star[0], va_arg(*ap, T)) : \
		 snprintf(buf + *o, room, spec, va_arg(*ap, T)))
		switch (conv) {
		case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': case 'c':
			if (lmod == 1)
				r = ONE(long);
			else if (lmod == 2)
				r = ONE(long long);
			else if (lmod == 3)
				r = ONE(size_t);
			else if (lmod == 4)
				r = ONE(intmax_t);
			else if (lmod == 5)
				r = ONE(ptrdiff_t);
			else
				r = ONE(int);
			break;
		case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A':
			if (lmod == 6)
				r = ONE(long double);
			else
				r = ONE(double);
			break;
		case 's':
			r = ONE(const char *);
			break;
		case 'p':
			r = ONE(void *);
			break;
		case '%':
			r = snprintf(buf + *o, room, "%%");
			break;
		default:	/* %n and the unknown: nothing */
			break;
		}
#undef ONE
	}
	w = r;
	if (w > 0)
		*o += (size_t)w < room ? (size_t)w : room - 1;
	return n + 1;
}

size_t l2d_vfmt(char *buf, size_t cap, const char *fmt, va_list ap)
{
	bool simple = fmt_simple(fmt);
	size_t o = 0;
	va_list aq;

	va_copy(aq, ap);
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
		if (!simple) {
			fmt += fmt_one(buf, cap, &o, fmt, &aq);
		} else if (fmt[1] == 's') {
			fmt_str(buf, cap, &o, va_arg(aq, const char *));
			fmt += 2;
		} else if (fmt[1] == '-') {
			fmt_field(buf, cap, &o, va_arg(aq, const char *));
			fmt += 3;
		} else if (fmt[1] == 'u') {
			fmt_u64(buf, cap, &o, va_arg(aq, unsigned int));
			fmt += 2;
		} else if (fmt[1] == '%') {
			buf[o++] = '%';
			fmt += 2;
		} else {
			fmt_u64(buf, cap, &o, va_arg(aq, unsigned long long));
			fmt += 4;
		}
	}
	va_end(aq);
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
