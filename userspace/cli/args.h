/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CLI's one way to read an object's arguments, as iproute2 reads them:
 * a loop over argc/argv that looks at *argv, steps to a keyword's value with
 * NEXT_ARG() and to the next word with NEXT_ARG_FWD(), peeks with
 * NEXT_ARG_OK() (a word follows) at argv[1], and refuses with
 * missarg(), invarg() or duparg(), whose messages name the command, the
 * keyword and what was wrong:
 *
 *	while (argc > 0) {
 *		if (!strcmp(*argv, "limit")) {
 *			if (has_limit)
 *				return duparg(cmd, *argv);
 *			NEXT_ARG(cmd, "a number");
 *			if (cli_parse_u32("limit", *argv, &limit))
 *				return -1;
 *			has_limit = true;
 *		} else if (!strcmp(*argv, "role")) {
 *			NEXT_ARG(cmd, "lac or lns");
 *			if (strcmp(*argv, "lac") && strcmp(*argv, "lns"))
 *				return invarg(cmd, "role", *argv, "lac or lns");
 *			...
 *		} else {
 *			return cli_err("%s: \"%s\" is unknown", cmd, *argv);
 *		}
 *		NEXT_ARG_FWD();
 *	}
 *
 * Every helper returns -1 after its message, so "return missarg(...)".
 */
#ifndef L2S_CLI_ARGS_H
#define L2S_CLI_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* To the value of keyword *argv; without one: "CMD: "KEY" needs an argument (WHAT)". */
#define NEXT_ARG(cmd, what) do {					\
	if (argc < 2)							\
		return missarg(cmd, *argv, what);			\
	argc--;								\
	argv++;								\
} while (0)

/* True when a word follows *argv. */
#define NEXT_ARG_OK() (argc > 1)

/* To the next word. */
#define NEXT_ARG_FWD() (argc--, argv++)

/* Print "l2tpsel: " + message to stderr; returns -1 for "return cli_err(...)". */
int cli_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "CMD: "KEY" needs an argument (WHAT)" */
int missarg(const char *cmd, const char *key, const char *what);
/* "CMD: KEY "ARG" is unknown: CHOICES", for a word that is none of the keyword's choices */
int invarg(const char *cmd, const char *key, const char *arg, const char *choices);
/* "CMD: "KEY" is given twice" */
int duparg(const char *cmd, const char *key);

/* True when @arg is a non-empty prefix of @word ("sh" matches "show"). */
bool cli_matches(const char *arg, const char *word);

/* The index of @arg in @names (the exact word), or -1. */
int cli_word_index(const char *arg, const char *const *names, size_t n);

/* The command word *@argv, stepped past; "show" when there is none. */
const char *cli_verb(int *argc, char ***argv);

/* A number; "WHAT "S" is not a number..." and -1 when it is not one. */
int cli_parse_u32(const char *what, const char *s, uint32_t *v);
int cli_parse_u64(const char *what, const char *s, uint64_t *v);
/* A number in 0..@max; above it, "WHAT N TOO" and -1. */
int cli_parse_max(const char *what, const char *s, uint32_t max, const char *too, uint32_t *v);

/*
 * Keyword *@argv once with a number: refuses a second one (duparg()) or a
 * missing value (missarg(), WHAT), steps to the value, parses it into @v and
 * sets @seen.  -1 after the message.
 */
int cli_arg_u32(const char *cmd, const char *what, int *argc, char ***argv,
		uint32_t *v, bool *seen);

#endif
