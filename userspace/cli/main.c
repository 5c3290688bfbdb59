// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpsel: configure and inspect L2TP tunnel selection and session admission.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "print.h"
#include "../../kmod/version.h"

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

static void usage(FILE *f)
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
		usage(stderr);
		return -1;
	}
	if (cli_matches(argv[0], "help")) {
		usage(stdout);
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

int main(int argc, char **argv)
{
	struct cli c = { 0 };
	const char *batch = NULL, *netns = NULL;
	int ret;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while (argc > 1 && argv[1][0] == '-' && argv[1][1]) {
		const char *o = argv[1] + 1;

		if (*o == '-')
			o++;
		if (cli_matches(o, "json")) {
			c.json = true;
		} else if (cli_matches(o, "pretty")) {
			c.pretty = true;
		} else if (strlen(o) > 1 && cli_matches(o, "sync")) {
			c.sync = true;
		} else if (cli_matches(o, "netns") || cli_matches(o, "batch")) {
			if (argc < 3) {
				cli_err("option -%s needs an argument", o);
				return 1;
			}
			if (*o == 'n')
				netns = argv[2];
			else
				batch = argv[2];
			argc--;
			argv++;
		} else if (cli_matches(o, "Version") || !strcmp(o, "version")) {
			printf("l2tpsel %s\n", L2TPSEL_VERSION);
			return 0;
		} else if (cli_matches(o, "help")) {
			usage(stdout);
			return 0;
		} else {
			cli_err("option \"%s\" is unknown, try \"l2tpsel -help\"", argv[1]);
			return 1;
		}
		argc--;
		argv++;
	}
	if (netns) {
		ret = l2s_netns_enter(netns);
		if (ret) {
			cli_err("cannot enter network namespace \"%s\": %s", netns, strerror(-ret));
			return 1;
		}
	}
	pr_init(c.json, c.pretty);
	if (c.sync && !batch) {
		cli_err("option -sync is for -b FILE: it deletes what the file does not name");
		return 1;
	}
	ret = batch ? cli_run_batch(&c, batch) : cli_run_object(&c, argc - 1, argv + 1);
	if (c.nl_open)
		l2s_nl_close(&c.nl);
	return ret < 0 ? 1 : ret;
}
