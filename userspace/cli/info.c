// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpsel info: what the kernel module says about itself.
 */
#include <inttypes.h>
#include <stdio.h>
#include <linux/genetlink.h>
#include <linux/l2tpsel.h>

#include "cli.h"
#include "print.h"

static void info_usage(void)
{
	printf("Usage: l2tpsel info [ show ]\n");
}

static int info_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];

	l2s_attr_parse(nlh, tb);
	pr_open_obj(NULL);
	if (tb[L2TPSEL_A_INFO_VERSION])
		pr_str("version", "version %s", l2s_attr_str(tb, L2TPSEL_A_INFO_VERSION, NULL));
	if (tb[L2TPSEL_A_INFO_API_VERSION])
		pr_u64("api", " api %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_INFO_API_VERSION, 0));
	if (tb[L2TPSEL_A_INFO_NETNS_COOKIE])
		pr_u64("netns_cookie", " netns-cookie %" PRIu64,
		       l2s_attr_u64(tb, L2TPSEL_A_INFO_NETNS_COOKIE, 0));
	pr_close_obj();
	pr_text("\n");
	return MNL_CB_OK;
}

static int info_run(struct cli *c, int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	int err;

	if (argc && !cli_matches(argv[0], "show"))
		return cli_err("info: command \"%s\" is unknown, try \"l2tpsel info help\"", argv[0]);
	if (argc > 1)
		return cli_err("info show: unexpected argument \"%s\"", argv[1]);
	if (cli_nl(c))
		return -1;
	nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_GET_INFO, 0);
	err = l2s_nl_talk(&c->nl, nlh, info_cb, NULL);
	if (err)
		return cli_nl_err(c, "info", err);
	pr_done();
	return 0;
}

const struct cli_object cli_obj_info = {
	.name = "info",
	.run = info_run,
	.usage = info_usage,
};
