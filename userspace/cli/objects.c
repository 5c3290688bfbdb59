// SPDX-License-Identifier: GPL-2.0
/*
 * The objects of the CLI and the dispatch of a command line to one of them:
 * what main() runs for "l2tpsel OBJECT ...", and batch.c for each line of
 * a file, so that neither needs the other's file.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct cli_object *const cli_objects[] = {
	&cli_obj_info,
	&cli_obj_limit,
	&cli_obj_group,
	&cli_obj_client,
	&cli_obj_session,
	&cli_obj_summary,
	&cli_obj_monitor,
	&cli_obj_profile,
	&cli_obj_tunnel,
	&cli_obj_domain,
	&cli_obj_destination,
	&cli_obj_lockout,
	&cli_obj_clear,
	&cli_obj_login,
	&cli_obj_ratelimit,
	&cli_obj_throttle,
	&cli_obj_load,
};

#define N_OBJECTS (sizeof(cli_objects) / sizeof(cli_objects[0]))

void cli_usage(FILE *f)
{
	size_t i;

	fprintf(f,
		"Usage: l2tpsel [ OPTIONS ] OBJECT { COMMAND | help }\n"
		"       l2tpsel [ OPTIONS ] -b FILE\n"
		"where  OBJECT := {");
	for (i = 0; i < N_OBJECTS; i++)
		fprintf(f, " %s%s", cli_objects[i]->name, i + 1 < N_OBJECTS ? " |" : " }\n");
	fprintf(f,
		"       OPTIONS := { -j[son] | -p[retty] | -n[etns] NAME | -b[atch] FILE |\n"
		"                    -sy[nc] | -V[ersion] | -h[elp] }\n");
}

const struct cli_object *cli_find_object(const char *word)
{
	size_t i;

	for (i = 0; i < N_OBJECTS; i++)
		if (cli_matches(word, cli_objects[i]->name))
			return cli_objects[i];
	return NULL;
}

int cli_run_object(struct cli *c, int argc, char **argv)
{
	const struct cli_object *o;

	if (!argc) {
		cli_usage(stderr);
		return -1;
	}
	if (cli_matches(argv[0], "help")) {
		cli_usage(stdout);
		return 0;
	}
	o = cli_find_object(argv[0]);
	if (o && argc > 1 && cli_matches(argv[1], "help")) {
		o->usage();
		return 0;
	}
	if (o)
		return o->run(c, argc - 1, argv + 1);
	return cli_err("object \"%s\" is unknown, try \"l2tpsel help\"", argv[0]);
}
