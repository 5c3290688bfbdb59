// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpsel throttle | load: throttle profiles, which lower the rate limits
 * naming them as a load rises (SPEC §5, Documentation/ratelimit.md), and
 * "load set", the simulator's line that pushes a load to every push
 * profile, so that one batch file configures both.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/l2tpsel.h>

#include "cli.h"
#include "print.h"

static const char *const source_names[] = { "push", "cpu" };

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

static int parse_pct(const char *what, const char *s, uint8_t *v)
{
	uint32_t x;

	if (cli_parse_max(what, s, 255, "is not a percent", &x))
		return -1;
	*v = (uint8_t)x;
	return 0;
}

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
	int x;

	for (; argc > 0; NEXT_ARG_FWD()) {
		const char *w = *argv;

		if (!strcmp(w, "hold") || !strcmp(w, "period")) {
			NEXT_ARG(cmd, "seconds");
			if (parse_secs(w, *argv, &ms))
				return -1;
			mnl_attr_put_u32(nlh, w[0] == 'h' ? L2TPSEL_A_RL_HOLD : L2TPSEL_A_RL_PERIOD, ms);
		} else if (!strcmp(w, "step")) {
			NEXT_ARG(cmd, "percentage points");
			if (parse_pct("step", *argv, &u8v))
				return -1;
			mnl_attr_put_u8(nlh, L2TPSEL_A_RL_STEP, u8v);
		} else if (!strcmp(w, "source")) {
			NEXT_ARG(cmd, "push or cpu");
			x = cli_word_index(*argv, source_names, N_OF(source_names));
			if (x < 0)
				return invarg(cmd, w, *argv, "push or cpu");
			mnl_attr_put_u8(nlh, L2TPSEL_A_RL_SOURCE, (uint8_t)x);
		} else if (!strcmp(w, "band") || !strcmp(w, "bands")) {
			if (bands)
				return cli_err("%s: give every band after one \"band\"", cmd);
			if (!NEXT_ARG_OK())
				return missarg(cmd, w, "LOAD:PCT");
			bands = mnl_attr_nest_start(nlh, L2TPSEL_A_RL_BANDS);
			while (NEXT_ARG_OK() && strchr(argv[1], ':')) {
				char *colon, word[32];
				uint8_t load = 0, pct = 0;

				NEXT_ARG_FWD();
				snprintf(word, sizeof(word), "%s", *argv);
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
			if (NEXT_ARG_OK() && argv[1][0] >= '0' && argv[1][0] <= '9')
				return cli_err("%s: band \"%s\" is not LOAD:PCT", cmd, argv[1]);
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
	return cli_talk(c, nlh, th_load_cb, cmd);
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
		return cli_show_args(c, L2TPSEL_CMD_THROTTLE_GET, L2TPSEL_A_NAME, argc, argv,
				     th_show_cb, "throttle show");
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
	err = cli_talk(c, nlh, NULL, cmd);
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
	return cli_talk(c, nlh, NULL, "throttle set");
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

const struct cli_object cli_obj_throttle = { "throttle", throttle_run, throttle_usage };
const struct cli_object cli_obj_load = { "load", load_run, load_usage };
