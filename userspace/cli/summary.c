// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpsel summary: the limits of "limit show" with the namespace's object
 * and session counts.
 */
#include <stdio.h>
#include <linux/genetlink.h>
#include <linux/l2tpsel.h>

#include "cli.h"

static void summary_usage(void)
{
	printf("Usage: l2tpsel summary [ show ]\n");
}

static int summary_run(struct cli *c, int argc, char **argv)
{
	if (argc && !cli_matches(argv[0], "show"))
		return cli_err("summary: command \"%s\" is unknown, try \"l2tpsel summary help\"", argv[0]);
	return cli_limit_show(c, L2TPSEL_CMD_SUMMARY_GET, "summary");
}

const struct cli_object cli_obj_summary = { "summary", summary_run, summary_usage };
