// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld configuration: the words of a line (addresses, durations,
 * numbers, yes/no, names) and the refusal's message, for every config*.c
 * file (config_int.h); nothing here calls back into them.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "config_int.h"
#include "l2d_conf.h"

int cfg_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

int l2d_parse_addr(const char *s, uint16_t port, struct sockaddr_storage *ss, socklen_t *len)
{
	struct sockaddr_in *a4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, s, &a4->sin_addr) == 1) {
		a4->sin_family = AF_INET;
		a4->sin_port = htons(port);
		*len = sizeof(*a4);
		return 0;
	}
	if (inet_pton(AF_INET6, s, &a6->sin6_addr) == 1) {
		a6->sin6_family = AF_INET6;
		a6->sin6_port = htons(port);
		*len = sizeof(*a6);
		return 0;
	}
	return -1;
}

int cfg_u32(const char *s, uint32_t lo, uint32_t hi, uint32_t *v)
{
	unsigned long long x;

	if (conf_parse_ull(s, 0, lo, hi, &x))
		return -1;
	*v = (uint32_t)x;
	return 0;
}

int l2d_parse_duration(const char *s, uint32_t *ms)
{
	unsigned long long x;
	char *end;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	if (!strcmp(end, "ms"))
		;
	else if (!*end || !strcmp(end, "s"))
		x *= 1000;
	else
		return -1;
	if (x > 86400000ull)
		return -1;
	*ms = (uint32_t)x;
	return 0;
}

int cfg_bool(const char *s, bool *v)
{
	if (!strcmp(s, "yes") || !strcmp(s, "on") || !strcmp(s, "1"))
		*v = true;
	else if (!strcmp(s, "no") || !strcmp(s, "off") || !strcmp(s, "0"))
		*v = false;
	else
		return -1;
	return 0;
}

int cfg_name(char *dst, size_t cap, const char *s)
{
	size_t n = strlen(s);

	if (!n || n >= cap)
		return -1;
	memcpy(dst, s, n + 1);
	return 0;
}

/* A test switch was read: remember the first for l2d_conf_check's refusal. */
void cfg_test_switch(struct l2d_conf *c, const char *kw, const char *val)
{
	if (!c->test_switch[0])
		snprintf(c->test_switch, sizeof(c->test_switch), "%s%s%s", kw, val ? " " : "",
			 val ? val : "");
}
