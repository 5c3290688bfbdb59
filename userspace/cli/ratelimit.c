// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpsel ratelimit | throttle | load: rate limits and throttle profiles of
 * L2TP signalling (SPEC §5, Documentation/ratelimit.md) as the kernel holds
 * them.  The "ratelimit add" and "throttle add" lines of the simulator
 * (userspace/sim/sim.c) are valid here too, and so is its "load set PCT",
 * so that one batch file configures both.
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
static const char *const source_names[] = { "push", "cpu" };
static const char *const match_words[] = { "direction", "type", "peer", "address", "dest",
					   "port", "domain", "profile" };

#define N_OF(t) (sizeof(t) / sizeof((t)[0]))
#define NAME_OF(t, v) ((v) < N_OF(t) ? (t)[v] : "unknown")

/* Index of @arg in @names (exact word), or -1. */
static int word_of(const char *arg, const char *const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(arg, names[i]))
			return (int)i;
	return -1;
}

/* ---- reply helpers ------------------------------------------------------------- */

static const char *addr_of(const struct nlattr *const *tb, int type, char *buf, size_t len)
{
	struct l2s_addr ad = { 0 };
	unsigned int n = l2s_attr_addr(tb, type, ad.bytes);

	if (!n)
		return "?";
	ad.family = n == 4 ? 4 : 6;
	conf_format_addr(&ad, buf, len);
	return buf;
}

/* Text: the message in quotes (it has spaces); JSON: a string. */
static void print_message(const char *key, const char *label, const char *m)
{
	if (pr_is_json()) {
		pr_str(key, "", m);
		return;
	}
	printf(" %s \"%s\"", label, m);
}

/* A time in ms as the CLI reads it back: seconds, with decimals when needed. */
static void print_secs(const char *key, const char *label, uint32_t ms)
{
	if (pr_is_json()) {
		pr_u64(key, "", ms);
		return;
	}
	if (ms % 1000)
		printf(" %s %u.%03u", label, ms / 1000, ms % 1000);
	else
		printf(" %s %u", label, ms / 1000);
}

/* Seconds with up to three decimals ("30", "0.5") to ms. */
static int parse_secs(const char *what, const char *s, uint32_t *ms)
{
	unsigned long long whole = 0, frac = 0;
	int digits = 0;
	const char *p = s;

	if (*p < '0' || *p > '9')
		goto bad;
	while (*p >= '0' && *p <= '9') {
		whole = whole * 10 + (unsigned long long)(*p++ - '0');
		if (whole > UINT32_MAX / 1000)
			goto bad;
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (++digits > 3)
				goto bad;
			frac = frac * 10 + (unsigned long long)(*p - '0');
		}
		if (!digits)
			goto bad;
		while (digits++ < 3)
			frac *= 10;
	}
	if (*p)
		goto bad;
	*ms = (uint32_t)(whole * 1000 + frac);
	return 0;
bad:
	return cli_err("%s \"%s\" is not a time in seconds (e.g. 30 or 0.5)", what, s);
}

static int parse_u16(const char *what, const char *s, uint16_t *v)
{
	uint32_t x;

	if (cli_parse_u32(what, s, &x))
		return -1;
	if (x > UINT16_MAX)
		return cli_err("%s %u is above %u", what, x, UINT16_MAX);
	*v = (uint16_t)x;
	return 0;
}

static int parse_pct(const char *what, const char *s, uint8_t *v)
{
	uint32_t x;

	if (cli_parse_u32(what, s, &x))
		return -1;
	if (x > 255)
		return cli_err("%s %u is not a percent", what, x);
	*v = (uint8_t)x;
	return 0;
}

static int talk(struct cli *c, struct nlmsghdr *nlh, mnl_cb_t cb, const char *what)
{
	int err = cli_request(c, nlh, cb, what);

	if (err)
		return err;
	if (cb)
		pr_done();
	return 0;
}

/* GET with a name, or a dump without one, each reply printed by @cb. */
static int show(struct cli *c, uint8_t cmd, int argc, char **argv, mnl_cb_t cb, const char *what)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	int err;

	if (argc > 1)
		return cli_err("%s: unexpected argument \"%s\"", what, argv[1]);
	if (cli_nl(c))
		return -1;
	nlh = l2s_nl_req(&c->nl, buf, cmd, argc ? 0 : NLM_F_DUMP);
	if (argc)
		mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, argv[0]);
	pr_open_arr(NULL);
	err = l2s_nl_talk(&c->nl, nlh, cb, NULL);
	pr_close_arr();
	if (err)
		return cli_nl_err(c, what, err);
	pr_done();
	return 0;
}

#define NEED_ARG(what) do {							\
	if (i + 1 >= argc)							\
		return cli_err("%s: \"%s\" needs an argument (%s)", cmd, argv[i], what); \
} while (0)

/* ---- ratelimit ------------------------------------------------------------------- */

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
	unsigned int key;

	l2s_attr_parse(nlh, tb);
	pr_open_obj(NULL);
	pr_str("name", "ratelimit %s", l2s_attr_str(tb, L2TPSEL_A_NAME, "?"));
	pr_str("direction", " %s", NAME_OF(dir_names, l2s_attr_u8(tb, L2TPSEL_A_RL_DIR, 0)));
	pr_str("type", " type %s", NAME_OF(msg_names, l2s_attr_u8(tb, L2TPSEL_A_RL_MSG, 0)));
	key = l2s_attr_u8(tb, L2TPSEL_A_RL_KEY, 0);
	switch (key) {
	case L2TPSEL_RL_KEY_PEER:
		pr_str("peer", " peer %s", l2s_attr_str(tb, L2TPSEL_A_RL_PEER, "?"));
		break;
	case L2TPSEL_RL_KEY_ADDRESS:
		pr_str("address", " address %s", addr_of(tb, L2TPSEL_A_REMOTE, abuf, sizeof(abuf)));
		break;
	case L2TPSEL_RL_KEY_DOMAIN:
		pr_str("domain", " domain %s", l2s_attr_str(tb, L2TPSEL_A_DOMAIN, "?"));
		break;
	case L2TPSEL_RL_KEY_PROFILE:
		pr_str("profile", " profile %s", l2s_attr_str(tb, L2TPSEL_A_PROFILE, "?"));
		break;
	case L2TPSEL_RL_KEY_DEST:
		pr_str("dest", " dest %s", addr_of(tb, L2TPSEL_A_REMOTE, abuf, sizeof(abuf)));
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
	mnl_attr_put(nlh, L2TPSEL_A_REMOTE, a.family == 4 ? 4 : 16, a.bytes);
	return 0;
}

/*
 * The options of add, set and check into @nlh.  @what: 'a' add, 's' set,
 * 'c' check.  Returns 0 or -1 with a message.
 */
static int rl_opts(struct nlmsghdr *nlh, int argc, char **argv, char what, const char *cmd)
{
	int i, dir = -1, msg = -1, x;
	bool addr = false, dest = false;
	uint32_t v = 0;
	uint16_t v16 = 0;

	for (i = 0; i < argc; i++) {
		const char *w = argv[i];

		if (what == 's' && (word_of(w, dir_names, N_OF(dir_names)) >= 0 ||
				    word_of(w, msg_names, N_OF(msg_names)) >= 0 ||
				    word_of(w, match_words, N_OF(match_words)) >= 0))
			return cli_err("%s: the match of a limit cannot change (\"%s\"): delete and add it again",
				       cmd, w);
		if (what != 's' && (x = word_of(w, dir_names, N_OF(dir_names))) >= 0) {
			dir = x;
		} else if (what != 's' && (x = word_of(w, msg_names, N_OF(msg_names))) > 0) {
			msg = x;
		} else if (what != 's' && !strcmp(w, "direction")) {
			NEED_ARG("ingress or egress");
			dir = word_of(argv[++i], dir_names, N_OF(dir_names));
			if (dir < 0)
				return cli_err("%s: direction \"%s\": ingress or egress", cmd, argv[i]);
		} else if (what != 's' && !strcmp(w, "type")) {
			NEED_ARG("any, sccrq, icrq, login, pppoe or attempt");
			msg = word_of(argv[++i], msg_names, N_OF(msg_names));
			if (msg < 0 || (what == 'c' && !msg))
				return cli_err("%s: type \"%s\": %ssccrq, icrq, login, pppoe or attempt", cmd,
					       argv[i], what == 'c' ? "" : "any, ");
		} else if (what != 's' && !strcmp(w, "peer")) {
			NEED_ARG("the peer's host name");
			mnl_attr_put_strz(nlh, L2TPSEL_A_RL_PEER, argv[++i]);
		} else if (what != 's' && !strcmp(w, "domain")) {
			NEED_ARG("a domain");
			mnl_attr_put_strz(nlh, L2TPSEL_A_DOMAIN, argv[++i]);
		} else if (what != 's' && !strcmp(w, "profile")) {
			NEED_ARG("a profile name");
			mnl_attr_put_strz(nlh, L2TPSEL_A_PROFILE, argv[++i]);
		} else if (what != 's' && (!strcmp(w, "address") || !strcmp(w, "dest"))) {
			NEED_ARG("an address");
			if (addr || dest)
				return cli_err("%s: give one of address and dest", cmd);
			*(w[0] == 'a' ? &addr : &dest) = true;
			if (put_addr(nlh, cmd, w, argv[++i]))
				return -1;
		} else if (what != 's' && !strcmp(w, "port")) {
			NEED_ARG("a UDP port");
			if (parse_u16("port", argv[++i], &v16))
				return -1;
			mnl_attr_put_u16(nlh, L2TPSEL_A_PORT, v16);
		} else if (what == 'c' && !strcmp(w, "count")) {
			NEED_ARG("a number");
			if (cli_parse_u32("count", argv[++i], &v))
				return -1;
			mnl_attr_put_u32(nlh, L2TPSEL_A_RL_COUNT, v);
		} else if (what != 'c' && (!strcmp(w, "rate") || !strcmp(w, "burst"))) {
			NEED_ARG("a number");
			if (cli_parse_u32(w, argv[++i], &v))
				return -1;
			mnl_attr_put_u32(nlh, w[0] == 'r' ? L2TPSEL_A_RL_RATE : L2TPSEL_A_RL_BURST, v);
		} else if (what != 'c' && !strcmp(w, "throttle")) {
			NEED_ARG("a throttle profile");
			i++;
			mnl_attr_put_strz(nlh, L2TPSEL_A_RL_THROTTLE,
					  what == 's' && !strcmp(argv[i], "none") ? "" : argv[i]);
		} else if (what != 'c' && !strcmp(w, "action")) {
			NEED_ARG("reject or drop");
			x = word_of(argv[++i], action_names, N_OF(action_names));
			if (x < 0)
				return cli_err("%s: action \"%s\": reject or drop", cmd, argv[i]);
			mnl_attr_put_u8(nlh, L2TPSEL_A_RL_ACTION, (uint8_t)x);
		} else if (what != 'c' && (!strcmp(w, "code") || !strcmp(w, "error"))) {
			NEED_ARG("0..65535");
			if (parse_u16(w[0] == 'c' ? "result code" : "error code", argv[++i], &v16))
				return -1;
			mnl_attr_put_u16(nlh, w[0] == 'c' ? L2TPSEL_A_RESULT_CODE :
					 L2TPSEL_A_ERROR_CODE, v16);
		} else if (what != 'c' && !strcmp(w, "message")) {
			NEED_ARG("a text, quoted when it has spaces");
			mnl_attr_put_strz(nlh, L2TPSEL_A_RL_MESSAGE, argv[++i]);
		} else if (what == 's' && !strcmp(w, "reset-counters")) {
			mnl_attr_put_u8(nlh, L2TPSEL_A_RL_RESET, 1);
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
		return show(c, L2TPSEL_CMD_RL_GET, argc ? argc - 1 : 0, argv + 1, rl_show_cb,
			    "ratelimit show");
	if (cli_matches(argv[0], "check")) {
		if (cli_nl(c))
			return -1;
		nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_RL_CHECK, 0);
		if (rl_opts(nlh, argc - 1, argv + 1, 'c', "ratelimit check"))
			return -1;
		return talk(c, nlh, rl_check_cb, "ratelimit check");
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
	err = talk(c, nlh, NULL, cmd);
	if (err != -EEXIST)
		return err;
	/*
	 * A batch's add of a limit that exists: deleted and added as the line
	 * says (its match cannot change in place); its counters start again.
	 */
	del = l2s_nl_req(&c->nl, dbuf, L2TPSEL_CMD_RL_DEL, 0);
	mnl_attr_put_strz(del, L2TPSEL_A_NAME, argv[1]);
	err = talk(c, del, NULL, "ratelimit add: replacing the limit");
	if (err)
		return err;
	nlh->nlmsg_seq = ++c->nl.seq;
	return talk(c, nlh, NULL, cmd);
}

/* ---- throttle ----------------------------------------------------------------------- */

static void throttle_usage(void)
{
	printf("Usage: l2tpsel throttle add NAME hold SECS step PCT band LOAD:PCT [ LOAD:PCT ... ]\n"
	       "                            [ source { push | cpu } ] [ period SECS ]\n"
	       "       l2tpsel throttle set NAME [ hold SECS ] [ step PCT ] [ band LOAD:PCT ... ]\n"
	       "                            [ source { push | cpu } ] [ period SECS ]\n"
	       "       l2tpsel throttle del NAME\n"
	       "       l2tpsel throttle show [ NAME ]\n"
	       "       l2tpsel throttle load [ NAME ] LOAD\n"
	       "       l2tpsel load set LOAD\n"
	       "SECS := seconds, up to 3 decimals (hold 0.001..86400, period 0.1..60)\n"
	       "PCT, LOAD := 0..100 percent; bands: 1..8, LOAD rising, PCT not falling\n"
	       "A load at or above a band's LOAD throttles every limit naming the profile\n"
	       "by the band's PCT at once; below the lowest band the throttle drops by\n"
	       "step points after each full hold time, down to 0.  source push (default):\n"
	       "the load comes from \"throttle load\"; cpu: the kernel samples the CPU use\n"
	       "every period (default 1 s).  \"load set\" pushes LOAD to every push profile.\n");
}

static int th_show_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1], *band[L2TPSEL_A_MAX + 1], *b;
	unsigned int src;
	l2s_attr_parse(nlh, tb);
	src = l2s_attr_u8(tb, L2TPSEL_A_RL_SOURCE, 0);
	pr_open_obj(NULL);
	pr_str("name", "throttle %s", l2s_attr_str(tb, L2TPSEL_A_NAME, "?"));
	pr_str("source", " source %s", NAME_OF(source_names, src));
	if (src == L2TPSEL_RL_SOURCE_CPU || pr_is_json())
		print_secs("period_ms", "period", l2s_attr_u32(tb, L2TPSEL_A_RL_PERIOD, 0));
	print_secs("hold_ms", "hold", l2s_attr_u32(tb, L2TPSEL_A_RL_HOLD, 0));
	pr_u64("step", " step %" PRIu64, l2s_attr_u8(tb, L2TPSEL_A_RL_STEP, 0));
	pr_open_arr("bands");
	pr_text(" band");
	if (tb[L2TPSEL_A_RL_BANDS]) {
		mnl_attr_for_each_nested(b, tb[L2TPSEL_A_RL_BANDS]) {
			uint64_t load, pct;

			l2s_attr_parse_nest(b, band);
			load = l2s_attr_u8(band, L2TPSEL_A_RL_BAND_LOAD, 0);
			pct = l2s_attr_u8(band, L2TPSEL_A_RL_BAND_PERCENT, 0);
			if (pr_is_json()) {
				pr_open_obj(NULL);
				pr_u64("load", "", load);
				pr_u64("percent", "", pct);
				pr_close_obj();
			} else {
				printf(" %" PRIu64 ":%" PRIu64, load, pct);
			}
		}
	}
	pr_close_arr();
	pr_u64("load", " load %" PRIu64, l2s_attr_u8(tb, L2TPSEL_A_RL_LOAD, 0));
	pr_u64("percent", " percent %" PRIu64, l2s_attr_u8(tb, L2TPSEL_A_RL_PERCENT, 0));
	pr_u64("users", " users %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_RL_USERS, 0));
	pr_u64("changes", " changes %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_RL_CHANGES, 0));
	pr_u64("samples", " samples %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_RL_SAMPLES, 0));
	pr_close_obj();
	pr_text("\n");
	return MNL_CB_OK;
}

static int th_load_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];

	l2s_attr_parse(nlh, tb);
	pr_open_obj(NULL);
	pr_u64("changed", "changed %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_RL_CHANGES, 0));
	pr_close_obj();
	pr_text("\n");
	return MNL_CB_OK;
}

static int th_opts(struct nlmsghdr *nlh, int argc, char **argv, const char *cmd)
{
	struct nlattr *bands = NULL, *band;
	uint32_t ms = 0;
	uint8_t u8v = 0;
	int i, x;

	for (i = 0; i < argc; i++) {
		const char *w = argv[i];

		if (!strcmp(w, "hold") || !strcmp(w, "period")) {
			NEED_ARG("seconds");
			if (parse_secs(w, argv[++i], &ms))
				return -1;
			mnl_attr_put_u32(nlh, w[0] == 'h' ? L2TPSEL_A_RL_HOLD : L2TPSEL_A_RL_PERIOD, ms);
		} else if (!strcmp(w, "step")) {
			NEED_ARG("percentage points");
			if (parse_pct("step", argv[++i], &u8v))
				return -1;
			mnl_attr_put_u8(nlh, L2TPSEL_A_RL_STEP, u8v);
		} else if (!strcmp(w, "source")) {
			NEED_ARG("push or cpu");
			x = word_of(argv[++i], source_names, N_OF(source_names));
			if (x < 0)
				return cli_err("%s: source \"%s\": push or cpu", cmd, argv[i]);
			mnl_attr_put_u8(nlh, L2TPSEL_A_RL_SOURCE, (uint8_t)x);
		} else if (!strcmp(w, "band") || !strcmp(w, "bands")) {
			if (bands)
				return cli_err("%s: give every band after one \"band\"", cmd);
			NEED_ARG("LOAD:PCT");
			bands = mnl_attr_nest_start(nlh, L2TPSEL_A_RL_BANDS);
			while (i + 1 < argc && strchr(argv[i + 1], ':')) {
				char *colon, word[32];
				uint8_t load = 0, pct = 0;

				snprintf(word, sizeof(word), "%s", argv[++i]);
				colon = strchr(word, ':');
				*colon = '\0';
				if (parse_pct("band load", word, &load) ||
				    parse_pct("band percent", colon + 1, &pct))
					return -1;
				band = mnl_attr_nest_start(nlh, L2TPSEL_A_RL_BAND);
				mnl_attr_put_u8(nlh, L2TPSEL_A_RL_BAND_LOAD, load);
				mnl_attr_put_u8(nlh, L2TPSEL_A_RL_BAND_PERCENT, pct);
				mnl_attr_nest_end(nlh, band);
			}
			mnl_attr_nest_end(nlh, bands);
			if (i + 1 < argc && !strchr(argv[i + 1], ':') &&
			    argv[i + 1][0] >= '0' && argv[i + 1][0] <= '9')
				return cli_err("%s: band \"%s\": LOAD:PCT", cmd, argv[i + 1]);
		} else {
			return cli_err("%s: \"%s\" is unknown here, try \"l2tpsel throttle help\"",
				       cmd, w);
		}
	}
	return 0;
}

/* Push @load to profile @name, or to every push profile when @name is NULL. */
static int push_load(struct cli *c, const char *name, const char *load, const char *cmd)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	uint8_t v = 0;

	if (parse_pct("load", load, &v))
		return -1;
	if (cli_nl(c))
		return -1;
	nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_THROTTLE_LOAD, 0);
	if (name)
		mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, name);
	mnl_attr_put_u8(nlh, L2TPSEL_A_RL_LOAD, v);
	return talk(c, nlh, th_load_cb, cmd);
}

static bool has_word(int argc, char **argv, const char *word)
{
	int i;

	for (i = 0; i < argc; i++)
		if (!strcmp(argv[i], word))
			return true;
	return false;
}

static int throttle_run(struct cli *c, int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	const char *cmd;
	uint8_t op;
	int err;

	if (!argc || cli_matches(argv[0], "show") || cli_matches(argv[0], "list"))
		return show(c, L2TPSEL_CMD_THROTTLE_GET, argc ? argc - 1 : 0, argv + 1, th_show_cb,
			    "throttle show");
	if (cli_matches(argv[0], "load")) {
		if (argc != 2 && argc != 3)
			return cli_err("throttle load: give [ NAME ] LOAD");
		return push_load(c, argc == 3 ? argv[1] : NULL, argv[argc - 1], "throttle load");
	}
	if (cli_matches(argv[0], "add")) {
		cmd = "throttle add";
		op = L2TPSEL_CMD_THROTTLE_NEW;
	} else if (cli_matches(argv[0], "set")) {
		cmd = "throttle set";
		op = L2TPSEL_CMD_THROTTLE_SET;
	} else if (cli_matches(argv[0], "delete")) {
		cmd = "throttle del";
		op = L2TPSEL_CMD_THROTTLE_DEL;
	} else {
		return cli_err("throttle: command \"%s\" is unknown, try \"l2tpsel throttle help\"",
			       argv[0]);
	}
	if (argc < 2)
		return cli_err("%s: which profile? give its NAME", cmd);
	if (cli_nl(c))
		return -1;
	nlh = l2s_nl_req(&c->nl, buf, op, 0);
	mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, argv[1]);
	if (op == L2TPSEL_CMD_THROTTLE_DEL) {
		if (argc > 2)
			return cli_err("%s: unexpected argument \"%s\"", cmd, argv[2]);
	} else if (th_opts(nlh, argc - 2, argv + 2, cmd)) {
		return -1;
	}
	err = talk(c, nlh, NULL, cmd);
	if (err != -EEXIST)
		return err;
	/*
	 * A batch's add of a profile that exists (rate limits may name it, so
	 * it is not deleted): set as the line says, source and period at their
	 * defaults (push, 1 s) when it leaves them out.
	 */
	nlh = l2s_nl_req(&c->nl, buf, L2TPSEL_CMD_THROTTLE_SET, 0);
	mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, argv[1]);
	if (th_opts(nlh, argc - 2, argv + 2, "throttle set"))
		return -1;
	if (!has_word(argc, argv, "source"))
		mnl_attr_put_u8(nlh, L2TPSEL_A_RL_SOURCE, L2TPSEL_RL_SOURCE_PUSH);
	if (!has_word(argc, argv, "period"))
		mnl_attr_put_u32(nlh, L2TPSEL_A_RL_PERIOD, 1000);
	return talk(c, nlh, NULL, "throttle set");
}

/* "load set LOAD": the simulator's line, for batch files shared with it. */
static void load_usage(void)
{
	printf("Usage: l2tpsel load set LOAD\n"
	       "Pushes LOAD (0..100 percent) to every throttle profile with source push,\n"
	       "as the simulator's \"load set\" line does (see l2tpsel throttle help).\n");
}

static int load_run(struct cli *c, int argc, char **argv)
{
	if (argc != 2 || !cli_matches(argv[0], "set"))
		return cli_err("load: give \"load set LOAD\", try \"l2tpsel load help\"");
	return push_load(c, NULL, argv[1], "load set");
}

/**
 * cli_print_throttle_event() - an EV_THROTTLE for l2tpsel monitor
 * @nlh: the event
 *
 * The simulator's words: {"ev":"throttle","profile":...,"load":...,"percent":...}.
 */
void cli_print_throttle_event(const struct nlmsghdr *nlh)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];

	l2s_attr_parse(nlh, tb);
	pr_str("ev", "%s", "throttle");
	pr_str("profile", " profile %s", l2s_attr_str(tb, L2TPSEL_A_NAME, "?"));
	pr_u64("load", " load %" PRIu64, l2s_attr_u8(tb, L2TPSEL_A_RL_LOAD, 0));
	pr_u64("percent", " percent %" PRIu64, l2s_attr_u8(tb, L2TPSEL_A_RL_PERCENT, 0));
	pr_u64("limits", " limits %" PRIu64, l2s_attr_u32(tb, L2TPSEL_A_RL_USERS, 0));
}

const struct cli_object cli_obj_ratelimit = { "ratelimit", ratelimit_run, ratelimit_usage };
const struct cli_object cli_obj_throttle = { "throttle", throttle_run, throttle_usage };
const struct cli_object cli_obj_load = { "load", load_run, load_usage };
