// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpsel profile: tunnel profiles (SPEC §1).  add, set and del are lines
 * of the batch grammar (userspace/lib/conf.h), so the CLI reads exactly
 * what the simulator reads.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <linux/genetlink.h>
#include <linux/l2tpsel.h>

#include "cli.h"
#include "print.h"

static void profile_usage(void)
{
	printf("Usage: l2tpsel profile { add | set } NAME [ failover { between-levels | within-level } ]\n"
	       "               [ lb { random | weighted | destination-equal | hash | minmiss-hash } ]\n"
	       "               [ failover-on { cdn | stopccn } CODE[,CODE...] ]\n"
	       "       l2tpsel profile del NAME\n"
	       "       l2tpsel profile show [ NAME ]\n"
	       "CODE := 0..31 (result codes that also lock out and fail over)\n");
}

static void print_codes(const char *key, const char *label, uint32_t mask)
{
	unsigned int i;
	bool first = true;

	if (pr_is_json()) {
		pr_open_arr(key);
		for (i = 0; i < 32; i++)
			if (mask & (1u << i))
				pr_u64(NULL, "", i);
		pr_close_arr();
		return;
	}
	if (!mask)
		return;
	printf(" failover-on %s ", label);
	for (i = 0; i < 32; i++) {
		if (mask & (1u << i)) {
			printf("%s%u", first ? "" : ",", i);
			first = false;
		}
	}
}

static int profile_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];

	l2s_attr_parse(nlh, tb);
	pr_open_obj(NULL);
	pr_str("name", "%s", l2s_attr_str(tb, L2TPSEL_A_NAME, "?"));
	pr_str("failover", " failover %s",
	       conf_failover_name(l2s_attr_u8(tb, L2TPSEL_A_FAILOVER, 0)));
	pr_str("lb", " lb %s", conf_lb_name(l2s_attr_u8(tb, L2TPSEL_A_LB, 0)));
	print_codes("failover_on_cdn", "cdn", l2s_attr_u32(tb, L2TPSEL_A_FAILOVER_CDN, 0));
	print_codes("failover_on_stopccn", "stopccn",
		    l2s_attr_u32(tb, L2TPSEL_A_FAILOVER_STOPCCN, 0));
	pr_u64("tunnels", " tunnels %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_N_TUNNELS, 0));
	pr_u64("levels", " levels %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_N_LEVELS, 0));
	pr_u64("destinations", " destinations %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_N_DESTS, 0));
	/* a login's own tunnel set (RADIUS), made and freed by the kernel */
	if (l2s_attr_u8(tb, L2TPSEL_A_DYNAMIC, 0))
		pr_bool("dynamic", " dynamic %s", true);
	pr_close_obj();
	pr_text("\n");
	return MNL_CB_OK;
}

/*
 * profile add (@cmd PROFILE_NEW) or set (PROFILE_SET) with the settings
 * the line gives; @cmd 0: a set of every setting, the defaults (0) for those
 * the line leaves out (core/obj.h; no failover-on codes).
 */
static int profile_put(struct cli *c, const struct conf_cmd *k, uint8_t cmd)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	bool all = !cmd;

	nlh = l2s_nl_req(&c->nl, buf, all ? L2TPSEL_CMD_PROFILE_SET : cmd, 0);
	mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, k->name);
	if (k->has_failover || all)
		mnl_attr_put_u8(nlh, L2TPSEL_A_FAILOVER,
				k->has_failover ? k->failover : L2S_FAILOVER_BETWEEN_LEVELS);
	if (k->has_lb || all)
		mnl_attr_put_u8(nlh, L2TPSEL_A_LB, k->has_lb ? k->lb : L2S_LB_RANDOM);
	if (k->has_fo_cdn || all)
		mnl_attr_put_u32(nlh, L2TPSEL_A_FAILOVER_CDN, k->fo_cdn);
	if (k->has_fo_stopccn || all)
		mnl_attr_put_u32(nlh, L2TPSEL_A_FAILOVER_STOPCCN, k->fo_stopccn);
	return cli_request(c, nlh, NULL,
			   cmd == L2TPSEL_CMD_PROFILE_NEW ? "profile add" : "profile set");
}

static int profile_apply(struct cli *c, const struct conf_cmd *k)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	int err;

	switch (k->kind) {
	case CONF_PROFILE_ADD:
	case CONF_PROFILE_SET:
		err = profile_put(c, k, k->kind == CONF_PROFILE_ADD ?
				  L2TPSEL_CMD_PROFILE_NEW : L2TPSEL_CMD_PROFILE_SET);
		/* A batch's add of a profile that exists: every setting as the line says. */
		if (err == -EEXIST)
			err = profile_put(c, k, 0);
		return err;
	case CONF_PROFILE_DEL:
		nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_PROFILE_DEL, 0);
		mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, k->name);
		return cli_request(c, nlh, NULL, "profile del");
	default:
		return cli_err("unknown configuration command");
	}
}

static const char *const profile_verbs[] = { "add", "set", "del", NULL };

static int profile_run(struct cli *c, int argc, char **argv)
{
	if (!argc || cli_matches(argv[0], "show") || cli_matches(argv[0], "list")) {
		return cli_show_args(c, L2TPSEL_CMD_PROFILE_GET, L2TPSEL_A_NAME, argc, argv,
				     profile_cb, "profile show");
	}
	if (cli_matches(argv[0], "delete"))
		argv[0] = "del";
	return cli_run_conf(c, "profile", profile_verbs, argc, argv, profile_apply);
}

const struct cli_object cli_obj_profile = { "profile", profile_run, profile_usage };
