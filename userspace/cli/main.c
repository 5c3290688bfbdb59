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
			cli_usage(stdout);
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
