// SPDX-License-Identifier: GPL-2.0
/*
 * The CLI's argument helpers (args.h): cli_err(), under every message of
 * the CLI, the messages that say which argument was wrong, prefixes, words
 * and numbers.  It needs no other file of the CLI.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"

int cli_err(const char *fmt, ...)
{
	va_list ap;

	fputs("l2tpsel: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

int missarg(const char *cmd, const char *key, const char *what)
{
	return cli_err("%s: \"%s\" needs an argument (%s)", cmd, key, what);
}

int invarg(const char *cmd, const char *key, const char *arg, const char *choices)
{
	return cli_err("%s: %s \"%s\" is unknown: %s", cmd, key, arg, choices);
}

int duparg(const char *cmd, const char *key)
{
	return cli_err("%s: \"%s\" is given twice", cmd, key);
}

bool cli_matches(const char *arg, const char *word)
{
	size_t n = strlen(arg);

	return n && n <= strlen(word) && !strncmp(arg, word, n);
}

int cli_word_index(const char *arg, const char *const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(arg, names[i]))
			return (int)i;
	return -1;
}

int cli_parse_u32(const char *what, const char *s, uint32_t *v)
{
	char *end;
	unsigned long long x;

	errno = 0;
	x = strtoull(s, &end, 0);
	if (!*s || *end || errno || x > UINT32_MAX || *s == '-')
		return cli_err("%s \"%s\" is not a number in 0..%u", what, s, UINT32_MAX);
	*v = (uint32_t)x;
	return 0;
}

int cli_parse_u64(const char *what, const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	if (!*s || *end || errno || *s == '-')
		return cli_err("%s \"%s\" is not a number", what, s);
	return 0;
}

int cli_parse_max(const char *what, const char *s, uint32_t max, const char *too, uint32_t *v)
{
	if (cli_parse_u32(what, s, v))
		return -1;
	if (*v > max)
		return cli_err("%s %u %s", what, *v, too);
	return 0;
}

int cli_arg_u32(const char *cmd, const char *what, int *argc, char ***argv,
		uint32_t *v, bool *seen)
{
	const char *key = **argv;

	if (*seen)
		return duparg(cmd, key);
	if (*argc < 2)
		return missarg(cmd, key, what);
	(*argc)--;
	(*argv)++;
	if (cli_parse_u32(key, **argv, v))
		return -1;
	*seen = true;
	return 0;
}

const char *cli_verb(int *argc, char ***argv)
{
	if (*argc <= 0)
		return "show";
	(*argc)--;
	return *(*argv)++;
}
