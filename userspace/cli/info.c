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
	const struct nlattr *a;

	(void)data;
	pr_open_obj(NULL);
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(a)) {
		case L2TPSEL_A_INFO_VERSION:
			if (!mnl_attr_validate(a, MNL_TYPE_NUL_STRING))
				pr_str("version", "version %s", mnl_attr_get_str(a));
			break;
		case L2TPSEL_A_INFO_API_VERSION:
			if (!mnl_attr_validate(a, MNL_TYPE_U32))
				pr_u64("api", " api %" PRIu64, mnl_attr_get_u32(a));
			break;
		case L2TPSEL_A_INFO_NETNS_COOKIE:
			if (!mnl_attr_validate(a, MNL_TYPE_U64))
				pr_u64("netns_cookie", " netns-cookie %" PRIu64, mnl_attr_get_u64(a));
			break;
		}
	}
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
