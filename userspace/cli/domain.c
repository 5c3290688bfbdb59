// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpsel domain: the domain map, a user name's domain to a profile
 * (SPEC §2).  add and del are lines of the batch grammar.
 */
#include <stdio.h>
#include <linux/genetlink.h>
#include <linux/l2tpsel.h>

#include "cli.h"
#include "print.h"

static void domain_usage(void)
{
	printf("Usage: l2tpsel domain add DOMAIN profile PROFILE\n"
	       "       l2tpsel domain del DOMAIN\n"
	       "       l2tpsel domain show [ DOMAIN ]\n"
	       "DOMAIN: what follows the last '@' of a user name, 1..63 bytes\n");
}

static int domain_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];

	l2s_attr_parse(nlh, tb);
	pr_open_obj(NULL);
	pr_str("domain", "%s", l2s_attr_str(tb, L2TPSEL_A_DOMAIN, "?"));
	pr_str("profile", " profile %s", l2s_attr_str(tb, L2TPSEL_A_PROFILE, "?"));
	pr_close_obj();
	pr_text("\n");
	return MNL_CB_OK;
}

static int domain_apply(struct cli *c, const struct conf_cmd *k)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	switch (k->kind) {
	case CONF_DOMAIN_ADD:
		nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_DOMAIN_NEW, 0);
		mnl_attr_put_strz(nlh, L2TPSEL_A_DOMAIN, k->name);
		mnl_attr_put_strz(nlh, L2TPSEL_A_PROFILE, k->profile);
		return cli_request(c, nlh, NULL, "domain add");
	case CONF_DOMAIN_DEL:
		nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_DOMAIN_DEL, 0);
		mnl_attr_put_strz(nlh, L2TPSEL_A_DOMAIN, k->name);
		return cli_request(c, nlh, NULL, "domain del");
	default:
		return cli_err("unknown configuration command");
	}
}

static const char *const domain_verbs[] = { "add", "del", NULL };

static int domain_run(struct cli *c, int argc, char **argv)
{
	if (!argc || cli_matches(argv[0], "show") || cli_matches(argv[0], "list")) {
		return cli_show_args(c, L2TPSEL_CMD_DOMAIN_GET, L2TPSEL_A_DOMAIN, argc, argv,
				     domain_cb, "domain show");
	}
	if (cli_matches(argv[0], "delete"))
		argv[0] = "del";
	return cli_run_conf(c, "domain", domain_verbs, argc, argv, domain_apply);
}

const struct cli_object cli_obj_domain = { "domain", domain_run, domain_usage };
