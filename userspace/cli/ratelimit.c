// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpsel ratelimit: rate limits of L2TP signalling (SPEC §5,
 * Documentation/ratelimit.md) as the kernel holds them.  The simulator's
 * "ratelimit add" lines (userspace/sim/sim_rl.c) are valid here too, so that
 * one batch file configures both.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/l2tpsel.h>

#include "cli.h"
#include "conf.h"
#include "print.h"

static const char *const dir_names[] = { "ingress", "egress" };
static const char *const msg_names[] = { "any", "sccrq", "icrq", "login", "attempt", "pppoe" };
static const char *const action_names[] = { "reject", "drop" };
static const char *const verdict_names[] = { "pass", "reject", "drop" };
static const char *const match_words[] = { "direction", "type", "peer", "address", "dest",
					   "port", "domain", "profile" };

/* ---- reply helpers ---------------------------------------------------------------- */

/* Text: the message in quotes (it has spaces); JSON: a string. */
static void print_message(const char *key, const char *label, const char *m)
{
	if (pr_is_json()) {
		pr_str(key, "", m);
		return;
	}
	printf(" %s \"%s\"", label, m);
}

static int parse_u16(const char *what, const char *s, uint16_t *v)
{
	uint32_t x;

	if (cli_parse_max(what, s, UINT16_MAX, "is above 65535", &x))
		return -1;
	*v = (uint16_t)x;
	return 0;
}

static void ratelimit_usage(void)
{
	printf("Usage: l2tpsel ratelimit add NAME rate R burst B [ throttle PROFILE ] [ MATCH ] [ ACTION ]\n"
	       "       l2tpsel ratelimit set NAME [ rate R ] [ burst B ] [ throttle { PROFILE | none } ]\n"
	       "                                  [ ACTION ] [ reset-counters ]\n"
	       "       l2tpsel ratelimit del NAME\n"
	       "       l2tpsel ratelimit show [ NAME ]\n"
	       "       l2tpsel ratelimit check [ ingress | egress ] TYPE [ KEYS ] [ count N ]\n"
	       "MATCH  := [ ingress | egress ] [ TYPE | type { any | TYPE } ] [ KEY ]\n"
	       "TYPE   := sccrq | icrq | login | pppoe | attempt\n"
	       "KEY    := peer HOSTNAME | address ADDR | domain DOMAIN | profile PROFILE |\n"
	       "          dest ADDR [ port PORT ]\n"
	       "KEYS   := [ peer HOSTNAME ] [ address ADDR | dest ADDR ] [ port PORT ]\n"
	       "          [ domain DOMAIN ] [ profile PROFILE ]\n"
	       "ACTION := [ action { reject | drop } ] [ code RESULT ] [ error ERROR ] [ message TEXT ]\n"
	       "R := 1..10000000 requests/s;  B := 1..1000000;  RESULT, ERROR := 0..65535\n"
	       "ingress: sccrq and icrq keyed by peer or address (LNS role), login keyed by\n"
	       "domain or profile, pppoe (PADI and PADR) by peer, the access interface's\n"
	       "name (LAC role); egress: attempt keyed by dest or profile.\n"
	       "No KEY: one bucket for every request of that direction and type.  The\n"
	       "defaults are ingress, type any, action reject, code 2, error 4, message\n"
	       "\"rate limit exceeded\".  check asks the kernel as the agent does and prints\n"
	       "the verdict; count N decides N requests at one instant.\n");
}

static int rl_show_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];
	char abuf[64];
	const char *addr;
	unsigned int key;

	l2s_attr_parse(nlh, tb);
	pr_open_obj(NULL);
	pr_str("name", "ratelimit %s", l2s_attr_str(tb, L2TPSEL_A_NAME, "?"));
	pr_str("direction", " %s", NAME_OF(dir_names, l2s_attr_u8(tb, L2TPSEL_A_RL_DIR, 0)));
	pr_str("type", " type %s", NAME_OF(msg_names, l2s_attr_u8(tb, L2TPSEL_A_RL_MSG, 0)));
	key = l2s_attr_u8(tb, L2TPSEL_A_RL_KEY, 0);
	addr = cli_addr_text(tb, L2TPSEL_A_REMOTE, abuf, sizeof(abuf), "?");
	switch (key) {
	case L2TPSEL_RL_KEY_PEER:
		pr_str("peer", " peer %s", l2s_attr_str(tb, L2TPSEL_A_RL_PEER, "?"));
		break;
	case L2TPSEL_RL_KEY_ADDRESS:
		pr_str("address", " address %s", addr);
		break;
	case L2TPSEL_RL_KEY_DOMAIN:
		pr_str("domain", " domain %s", l2s_attr_str(tb, L2TPSEL_A_DOMAIN, "?"));
		break;
	case L2TPSEL_RL_KEY_PROFILE:
		pr_str("profile", " profile %s", l2s_attr_str(tb, L2TPSEL_A_PROFILE, "?"));
		break;
	case L2TPSEL_RL_KEY_DEST:
		pr_str("dest", " dest %s", addr);
		if (tb[L2TPSEL_A_PORT])
			pr_u64("port", " port %" PRIu64, l2s_attr_u16(tb, L2TPSEL_A_PORT, 0));
		break;
	}
	pr_u64("rate", " rate %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_RL_RATE, 0));
	pr_u64("burst", " burst %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_RL_BURST, 0));
	if (tb[L2TPSEL_A_RL_THROTTLE])
		pr_str("throttle", " throttle %s", l2s_attr_str(tb, L2TPSEL_A_RL_THROTTLE, "?"));
	pr_u64("percent", " percent %" PRIu64, l2s_attr_u8(tb, L2TPSEL_A_RL_PERCENT, 0));
	pr_u64("effective", " effective %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_RL_EFFECTIVE, 0));
	pr_u64("tokens", " tokens %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_RL_TOKENS, 0));
	pr_str("action", " action %s",
	       NAME_OF(action_names, l2s_attr_u8(tb, L2TPSEL_A_RL_ACTION, 0)));
	pr_u64("code", " code %" PRIu64, l2s_attr_u16(tb, L2TPSEL_A_RESULT_CODE, 0));
	pr_u64("error", " error %" PRIu64, l2s_attr_u16(tb, L2TPSEL_A_ERROR_CODE, 0));
	pr_u64("passed", " passed %" PRIu64, l2s_attr_u64(tb, L2TPSEL_A_RL_PASSED, 0));
	pr_u64("rejected", " rejected %" PRIu64, l2s_attr_u64(tb, L2TPSEL_A_RL_REJECTED, 0));
	pr_u64("dropped", " dropped %" PRIu64, l2s_attr_u64(tb, L2TPSEL_A_RL_DROPPED, 0));
	print_message("message", "message", l2s_attr_str(tb, L2TPSEL_A_RL_MESSAGE, ""));
	pr_close_obj();
	pr_text("\n");
	return MNL_CB_OK;
}

static int rl_check_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];
	unsigned int v;

	l2s_attr_parse(nlh, tb);
	v = l2s_attr_u8(tb, L2TPSEL_A_RL_VERDICT, 0);
	pr_open_obj(NULL);
	pr_str("verdict", "%s", NAME_OF(verdict_names, v));
	if (tb[L2TPSEL_A_NAME])
		pr_str("by", " by %s", l2s_attr_str(tb, L2TPSEL_A_NAME, "?"));
	if (v == L2TPSEL_RL_REJECTED) {
		pr_u64("code", " code %" PRIu64, l2s_attr_u16(tb, L2TPSEL_A_RESULT_CODE, 0));
		pr_u64("error", " error %" PRIu64, l2s_attr_u16(tb, L2TPSEL_A_ERROR_CODE, 0));
	}
	pr_u64("matched", " matched %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_RL_MATCHED, 0));
	if (tb[L2TPSEL_A_RL_PASSED]) {
		pr_u64("passed", " passed %" PRIu64, l2s_attr_u64(tb, L2TPSEL_A_RL_PASSED, 0));
		pr_u64("rejected", " rejected %" PRIu64,
		       l2s_attr_u64(tb, L2TPSEL_A_RL_REJECTED, 0));
		pr_u64("dropped", " dropped %" PRIu64, l2s_attr_u64(tb, L2TPSEL_A_RL_DROPPED, 0));
	}
	if (v == L2TPSEL_RL_REJECTED)
		print_message("message", "message", l2s_attr_str(tb, L2TPSEL_A_RL_MESSAGE, ""));
	pr_close_obj();
	pr_text("\n");
	return MNL_CB_OK;
}

/* An address key: "address" (ingress) or "dest" (egress). */
static int put_addr(struct nlmsghdr *nlh, const char *cmd, const char *word, const char *s)
{
	struct l2s_addr a;

	if (conf_parse_addr(s, &a))
		return cli_err("%s: %s \"%s\" is not an IPv4 or IPv6 address", cmd, word, s);
	cli_put_addr(nlh, L2TPSEL_A_REMOTE, &a);
	return 0;
}

/* An option of add, set or check that is a word and its value, into one attribute. */
struct rl_opt {
	const char *word;
	const char *cmds;	/* the commands that take it: 'a' add, 's' set, 'c' check */
	enum { RL_OPT_STR, RL_OPT_U16, RL_OPT_U32, RL_OPT_FLAG } kind;
	uint16_t attr;
	const char *arg;	/* what its value is, when it is missing */
	const char *label;	/* the value's name in a number's error */
};

static const struct rl_opt rl_plain[] = {
	{ "peer", "ac", RL_OPT_STR, L2TPSEL_A_RL_PEER, "the peer's host name", NULL },
	{ "domain", "ac", RL_OPT_STR, L2TPSEL_A_DOMAIN, "a domain", NULL },
	{ "profile", "ac", RL_OPT_STR, L2TPSEL_A_PROFILE, "a profile name", NULL },
	{ "port", "ac", RL_OPT_U16, L2TPSEL_A_PORT, "a UDP port", "port" },
	{ "count", "c", RL_OPT_U32, L2TPSEL_A_RL_COUNT, "a number", "count" },
	{ "rate", "as", RL_OPT_U32, L2TPSEL_A_RL_RATE, "a number", "rate" },
	{ "burst", "as", RL_OPT_U32, L2TPSEL_A_RL_BURST, "a number", "burst" },
	{ "code", "as", RL_OPT_U16, L2TPSEL_A_RESULT_CODE, "0..65535", "result code" },
	{ "error", "as", RL_OPT_U16, L2TPSEL_A_ERROR_CODE, "0..65535", "error code" },
	{ "message", "as", RL_OPT_STR, L2TPSEL_A_RL_MESSAGE, "a text, quoted when it has spaces", NULL },
	{ "reset-counters", "s", RL_OPT_FLAG, L2TPSEL_A_RL_RESET, NULL, NULL },
};

/* The option @w of the command @what in rl_plain[], or NULL. */
static const struct rl_opt *plain_opt(const char *w, char what)
{
	size_t i;

	for (i = 0; i < N_OF(rl_plain); i++)
		if (!strcmp(w, rl_plain[i].word) && strchr(rl_plain[i].cmds, what))
			return &rl_plain[i];
	return NULL;
}

/* The value @val of the option @o into @nlh.  Returns 0 or -1 with a message. */
static int put_plain(struct nlmsghdr *nlh, const struct rl_opt *o, const char *val)
{
	uint16_t v16;
	uint32_t v;

	switch (o->kind) {
	case RL_OPT_STR:
		mnl_attr_put_strz(nlh, o->attr, val);
		break;
	case RL_OPT_U16:
		if (parse_u16(o->label, val, &v16))
			return -1;
		mnl_attr_put_u16(nlh, o->attr, v16);
		break;
	case RL_OPT_U32:
		if (cli_parse_u32(o->label, val, &v))
			return -1;
		mnl_attr_put_u32(nlh, o->attr, v);
		break;
	case RL_OPT_FLAG:
		mnl_attr_put_u8(nlh, o->attr, 1);
		break;
	}
	return 0;
}

/*
 * The options of add, set and check into @nlh.  @what: 'a' add, 's' set,
 * 'c' check.  Returns 0 or -1 with a message.
 */
static int rl_opts(struct nlmsghdr *nlh, int argc, char **argv, char what, const char *cmd)
{
	const char *types = what == 'c' ? "sccrq, icrq, login, pppoe or attempt" :
				"any, sccrq, icrq, login, pppoe or attempt";
	int dir = -1, msg = -1, x;
	bool addr = false, dest = false;
	const struct rl_opt *o;

	for (; argc > 0; NEXT_ARG_FWD()) {
		const char *w = *argv;

		if (what == 's' && (cli_word_index(w, dir_names, N_OF(dir_names)) >= 0 ||
				    cli_word_index(w, msg_names, N_OF(msg_names)) >= 0 ||
				    cli_word_index(w, match_words, N_OF(match_words)) >= 0))
			return cli_err("%s: the match of a limit cannot change (\"%s\"): delete and add it again",
				       cmd, w);
		if (what != 's' && (x = cli_word_index(w, dir_names, N_OF(dir_names))) >= 0) {
			dir = x;
		} else if (what != 's' && (x = cli_word_index(w, msg_names, N_OF(msg_names))) > 0) {
			msg = x;
		} else if (what != 's' && !strcmp(w, "direction")) {
			NEXT_ARG(cmd, "ingress or egress");
			dir = cli_word_index(*argv, dir_names, N_OF(dir_names));
			if (dir < 0)
				return invarg(cmd, w, *argv, "ingress or egress");
		} else if (what != 's' && !strcmp(w, "type")) {
			NEXT_ARG(cmd, types);
			msg = cli_word_index(*argv, msg_names, N_OF(msg_names));
			if (msg < 0 || (what == 'c' && !msg))
				return invarg(cmd, w, *argv, types);
		} else if ((o = plain_opt(w, what)) && o->kind == RL_OPT_FLAG) {
			put_plain(nlh, o, NULL);
		} else if (o) {
			NEXT_ARG(cmd, o->arg);
			if (put_plain(nlh, o, *argv))
				return -1;
		} else if (what != 's' && (!strcmp(w, "address") || !strcmp(w, "dest"))) {
			NEXT_ARG(cmd, "an address");
			if (addr || dest)
				return cli_err("%s: give one of address and dest", cmd);
			*(w[0] == 'a' ? &addr : &dest) = true;
			if (put_addr(nlh, cmd, w, *argv))
				return -1;
		} else if (what != 'c' && !strcmp(w, "throttle")) {
			NEXT_ARG(cmd, "a throttle profile");
			mnl_attr_put_strz(nlh, L2TPSEL_A_RL_THROTTLE,
					  what == 's' && !strcmp(*argv, "none") ? "" : *argv);
		} else if (what != 'c' && !strcmp(w, "action")) {
			NEXT_ARG(cmd, "reject or drop");
			x = cli_word_index(*argv, action_names, N_OF(action_names));
			if (x < 0)
				return invarg(cmd, w, *argv, "reject or drop");
			mnl_attr_put_u8(nlh, L2TPSEL_A_RL_ACTION, (uint8_t)x);
		} else {
			return cli_err("%s: \"%s\" is unknown here, try \"l2tpsel ratelimit help\"",
				       cmd, w);
		}
	}
	if (what == 'c' && msg < 0)
		return cli_err("%s: which message? sccrq, icrq, login, pppoe or attempt", cmd);
	if (what == 'c' && dir < 0)
		dir = msg == L2TPSEL_RL_MSG_ATTEMPT ? L2TPSEL_RL_EGRESS : L2TPSEL_RL_INGRESS;
	if (what == 'a' && dest && dir != L2TPSEL_RL_EGRESS)
		return cli_err("%s: dest is an egress key (add \"egress\"); an ingress limit takes address",
			       cmd);
	if (what == 'a' && addr && dir == L2TPSEL_RL_EGRESS)
		return cli_err("%s: an egress limit is keyed by dest, not address", cmd);
	if (dir >= 0)
		mnl_attr_put_u8(nlh, L2TPSEL_A_RL_DIR, (uint8_t)dir);
	if (msg >= 0)
		mnl_attr_put_u8(nlh, L2TPSEL_A_RL_MSG, (uint8_t)msg);
	return 0;
}

static int ratelimit_run(struct cli *c, int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE], dbuf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh, *del;
	const char *cmd;
	int err;

	if (!argc || cli_matches(argv[0], "show") || cli_matches(argv[0], "list"))
		return cli_show_args(c, L2TPSEL_CMD_RL_GET, L2TPSEL_A_NAME, argc, argv,
				     rl_show_cb, "ratelimit show");
	if (cli_matches(argv[0], "check")) {
		if (cli_nl(c))
			return -1;
		nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_RL_CHECK, 0);
		if (rl_opts(nlh, argc - 1, argv + 1, 'c', "ratelimit check"))
			return -1;
		return cli_talk(c, nlh, rl_check_cb, "ratelimit check");
	}
	if (cli_matches(argv[0], "add"))
		cmd = "ratelimit add";
	else if (cli_matches(argv[0], "set"))
		cmd = "ratelimit set";
	else if (cli_matches(argv[0], "delete"))
		cmd = "ratelimit del";
	else
		return cli_err("ratelimit: command \"%s\" is unknown, try \"l2tpsel ratelimit help\"",
			       argv[0]);
	if (argc < 2)
		return cli_err("%s: which limit? give its NAME", cmd);
	if (cli_nl(c))
		return -1;
	nlh = l2s_nl_req(&c->nl, buf, cmd[10] == 'a' ? L2TPSEL_CMD_RL_NEW :
			 cmd[10] == 's' ? L2TPSEL_CMD_RL_SET : L2TPSEL_CMD_RL_DEL, 0);
	mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, argv[1]);
	if (cmd[10] == 'd') {
		if (argc > 2)
			return cli_err("%s: unexpected argument \"%s\"", cmd, argv[2]);
	} else if (rl_opts(nlh, argc - 2, argv + 2, cmd[10], cmd)) {
		return -1;
	}
	err = cli_talk(c, nlh, NULL, cmd);
	if (err != -EEXIST)
		return err;
	/*
	 * A batch's add of a limit that exists: deleted and added as the line
	 * says (its match cannot change in place); its counters start again.
	 */
	del = l2s_nl_req(&c->nl, dbuf, L2TPSEL_CMD_RL_DEL, 0);
	mnl_attr_put_strz(del, L2TPSEL_A_NAME, argv[1]);
	err = cli_talk(c, del, NULL, "ratelimit add: replacing the limit");
	if (err)
		return err;
	nlh->nlmsg_seq = ++c->nl.seq;
	return cli_talk(c, nlh, NULL, cmd);
}

const struct cli_object cli_obj_ratelimit = { "ratelimit", ratelimit_run, ratelimit_usage };
