// SPDX-License-Identifier: GPL-2.0
/*
 * What the object files share: messages, requests and shows, levels,
 * limits, addresses, and the lines of the batch grammar.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/l2tpsel.h>

#include "cli.h"
#include "print.h"

int cli_nl_err(struct cli *c, const char *what, int err)
{
	if (c->nl.errmsg[0])
		return cli_err("%s: %s (%s)", what, c->nl.errmsg, strerror(-err));
	return cli_err("%s: %s", what, strerror(-err));
}

int cli_request(struct cli *c, struct nlmsghdr *nlh, mnl_cb_t cb, const char *what)
{
	int err = l2s_nl_talk(&c->nl, nlh, cb, NULL);

	if (err == -EEXIST && c->replace)
		return err;
	return err ? cli_nl_err(c, what, err) : 0;
}

int cli_nl(struct cli *c)
{
	int err;

	if (!c->nl_open) {
		err = l2s_nl_open(&c->nl);
		if (err)
			return cli_err("cannot open a generic netlink socket: %s", strerror(-err));
		c->nl_open = true;
	}
	err = l2s_nl_resolve(&c->nl);
	if (err)
		return cli_nl_err(c, "cannot reach the kernel", err);
	return 0;
}

int cli_talk(struct cli *c, struct nlmsghdr *nlh, mnl_cb_t cb, const char *what)
{
	int err = cli_request(c, nlh, cb, what);

	if (err)
		return err;
	if (cb)
		pr_done();
	return 0;
}

/* cli_show(); on -EMSGSIZE, with @name, @cmd's dump of @name in @attr. */
static int show(struct cli *c, struct nlmsghdr *nlh, mnl_cb_t cb, const char *what,
		uint8_t cmd, uint16_t attr, const char *name)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	int err;

	pr_reset();
	pr_open_arr(NULL);
	err = l2s_nl_talk(&c->nl, nlh, cb, NULL);
	if (err == -EMSGSIZE && name) {
		nlh = l2s_nl_req(&c->nl, buf, cmd, NLM_F_DUMP);
		mnl_attr_put_strz(nlh, attr, name);
		err = l2s_nl_talk(&c->nl, nlh, cb, NULL);
	}
	pr_close_arr();
	if (err)
		return cli_nl_err(c, what, err);
	pr_done();
	return 0;
}

int cli_show(struct cli *c, struct nlmsghdr *nlh, mnl_cb_t cb, const char *what)
{
	return show(c, nlh, cb, what, 0, 0, NULL);
}

int cli_show_named(struct cli *c, uint8_t cmd, uint16_t attr, const char *name, mnl_cb_t cb,
		   const char *what)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	nlh = l2s_nl_req(&c->nl, buf, cmd, name ? 0 : NLM_F_DUMP);
	if (name)
		mnl_attr_put_strz(nlh, attr, name);
	return show(c, nlh, cb, what, cmd, attr, name);
}

int cli_show_args(struct cli *c, uint8_t cmd, uint16_t attr, int argc, char **argv, mnl_cb_t cb,
		  const char *what)
{
	if (argc > 2)
		return cli_err("%s: unexpected argument \"%s\"", what, argv[2]);
	if (cli_nl(c))
		return -1;
	return cli_show_named(c, cmd, attr, argc == 2 ? argv[1] : NULL, cb, what);
}

uint8_t cli_edit_op(const char *verb, const uint8_t ops[3])
{
	if (cli_matches(verb, "add"))
		return ops[0];
	if (cli_matches(verb, "set") || cli_matches(verb, "change"))
		return ops[1];
	if (cli_matches(verb, "delete"))
		return ops[2];
	return 0;
}

static const char *const level_names[] = {
	[L2TPSEL_LEVEL_CHASSIS] = "chassis",
	[L2TPSEL_LEVEL_TUNNEL]  = "tunnel",
	[L2TPSEL_LEVEL_TGROUP]  = "tunnel-group",
	[L2TPSEL_LEVEL_SLG]     = "slg",
	[L2TPSEL_LEVEL_CLIENT]  = "client",
	[L2TPSEL_LEVEL_PASS]    = "pass",
};

const char *cli_level_name(unsigned int level)
{
	return NAME_OF(level_names, level);
}

void cli_print_limit(const char *key, const char *label, uint32_t v)
{
	if (pr_is_json()) {
		pr_u64(key, "", v);
		return;
	}
	if (v)
		printf(" %s %u", label, v);
	else
		printf(" %s none", label);
}

void cli_put_addr(struct nlmsghdr *nlh, int type, const struct l2s_addr *a)
{
	if (a->family == 4 || a->family == 6)
		mnl_attr_put(nlh, type, a->family == 4 ? 4 : 16, a->bytes);
}

void cli_get_addr(const struct nlattr *const *tb, int type, struct l2s_addr *a)
{
	unsigned int len;

	memset(a, 0, sizeof(*a));
	len = l2s_attr_addr(tb, type, a->bytes);
	if (len)
		a->family = len == 4 ? 4 : 6;
}

const char *cli_addr_text(const struct nlattr *const *tb, int type, char *buf, size_t len,
			  const char *absent)
{
	struct l2s_addr a;

	cli_get_addr(tb, type, &a);
	if (!a.family)
		return absent;
	conf_format_addr(&a, buf, len);
	return buf;
}

int cli_run_conf(struct cli *c, const char *object, const char *const *verbs, int argc,
		 char **argv, int (*apply)(struct cli *c, const struct conf_cmd *k))
{
	char *v[CONF_MAX_ARGS + 2], err[256];
	struct conf_cmd k;
	int i, n = 0;

	if (argc + 1 > CONF_MAX_ARGS)
		return cli_err("%s: too many arguments", object);
	v[n++] = (char *)object;
	for (i = 0; i < argc; i++)
		v[n++] = argv[i];
	for (i = 0; argc && verbs[i]; i++) {
		if (cli_matches(argv[0], verbs[i])) {
			v[1] = (char *)verbs[i];
			break;
		}
	}
	if (conf_parse(n, v, &k, err, sizeof(err)))
		return cli_err("%s", err[0] ? err : "syntax error");
	return cli_nl(c) ?: apply(c, &k);
}
