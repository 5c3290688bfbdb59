// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpsel-sim: replay a scenario on the selection core and print one JSON
 * object per line for every step.  The scenario is the configuration grammar
 * of conf.h plus the lines below (see Documentation/selection.md):
 *
 *   lns ADDR answer { ok | silent | cdn RESULT ERROR | stopccn RESULT ERROR | client-gone }
 *   state lock ADDR remaining SECS
 *   state sessions tunnel NAME [ profile PROFILE ] COUNT
 *   state sessions dest ADDR COUNT
 *   state drain tunnel NAME [ profile PROFILE ] { on | off }   (S-OPS-1)
 *   state drain dest ADDR { on | off }
 *   pick next { N | tunnel NAME }
 *   time advance SECS
 *   login USER [ profile PROFILE ] [ key KEY ] [ count N [ at-once ] ]
 *   logout { LOGIN | tunnel NAME [ profile PROFILE ] }
 *   show sessions
 *
 * Rate limiting (SPEC §5, Documentation/ratelimit.md); time in events in ms:
 *
 *   throttle add PROFILE hold SECS step PCT band LOAD:PCT [ LOAD:PCT ... ]
 *   ratelimit add NAME rate R burst B [ throttle PROFILE ]
 *   load set PCT                   the load metric of every throttle profile
 *   offer NAME N [ over SECS ]     N requests at once, or evenly over SECS
 *                                  (then the clock advances by SECS)
 *   show ratelimits
 *
 *   usage: l2tpsel-sim [ --seed N ] FILE|-
 *          l2tpsel-sim --help | --version
 *
 * This file reads the scenario and runs each line: the configuration's
 * here, the others in the file of their job (sim.h says which).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kmod/version.h"
#include "sim.h"

/* ---- config lines ---- */

static void apply_profile_opts(struct l2s_profile *p, const struct conf_cmd *c)
{
	if (c->has_failover)
		p->failover = c->failover;
	if (c->has_lb)
		p->lb = c->lb;
	if (c->has_fo_cdn)
		p->failover_cdn = c->fo_cdn;
	if (c->has_fo_stopccn)
		p->failover_stopccn = c->fo_stopccn;
	p->gen++;
}

static void apply_conf(struct sim *s, const struct conf_cmd *c)
{
	struct l2s_env env = sim_env(s);
	struct l2s_tunnel_conf tc;
	struct l2s_profile *p;
	struct l2s_err err = { 0 };
	int i;

	switch (c->kind) {
	case CONF_LOCKOUT_TIME:
		if (l2s_set_lockout_time(&s->core, c->secs, &err) < 0)
			sim_die(s, "%s", err.msg);
		break;
	case CONF_PROFILE_ADD:
		if (sim_find_profile(s, c->name))
			sim_die(s, "profile %s already exists", c->name);
		if (s->nprof == SIM_PROFILES)
			sim_die(s, "the simulator holds at most %d profiles", SIM_PROFILES);
		p = calloc(1, sizeof(*p));
		if (!p)
			sim_die(s, "out of memory");
		l2s_profile_init(p, c->name);
		apply_profile_opts(p, c);
		s->prof[s->nprof++] = p;
		break;
	case CONF_PROFILE_SET:
		apply_profile_opts(sim_need_profile(s, c->name), c);
		break;
	case CONF_PROFILE_DEL:
		p = sim_need_profile(s, c->name);
		for (i = 0; i < p->ntunnels; i++)
			if (p->t[i].sessions)
				sim_die(s, "profile %s: tunnel %s has %u live sessions", p->name,
				    p->t[i].name, p->t[i].sessions);
		l2s_profile_release(&s->core, p);
		for (i = 0; i < s->nprof; i++)
			if (s->prof[i] == p)
				s->prof[i] = s->prof[--s->nprof];
		free(p);
		break;
	case CONF_TUNNEL_ADD:
		p = sim_need_profile(s, c->profile);
		memset(&tc, 0, sizeof(tc));
		tc.name = c->name;
		tc.group = c->group;
		tc.secret = c->secret;
		tc.level = c->level;
		tc.max_sessions = c->max_sessions;
		tc.dest = c->dest;
		if (l2s_tunnel_add(&s->core, p, &tc, &err) < 0)
			sim_die(s, "%s", err.msg);
		break;
	case CONF_TUNNEL_DEL:
		if (l2s_tunnel_del(&s->core, sim_need_profile(s, c->profile), c->name, &err) < 0)
			sim_die(s, "%s", err.msg);
		break;
	case CONF_DOMAIN_ADD:
		if (l2s_domain_add(&s->core, c->name, c->profile, &err) < 0)
			sim_die(s, "%s", err.msg);
		break;
	case CONF_DOMAIN_DEL:
		if (l2s_domain_del(&s->core, c->name, &err) < 0)
			sim_die(s, "%s", err.msg);
		break;
	case CONF_CLEAR_LOCKOUT:
		l2s_lockout_clear(&s->core, c->has_local ? &c->local : NULL,
				  c->has_remote ? &c->remote : NULL, &env);
		break;
	}
}

static void do_time(struct sim *s, int argc, char **argv)
{
	if (argc != 3 || strcmp(argv[1], "advance"))
		sim_die(s, "usage: time advance SECS");
	sim_advance(s, (u64)sim_num(s, argv[2], 100000000, "seconds") * 1000);
}

static void do_show(struct sim *s, int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "ratelimits"))
		return sim_show_ratelimits(s);
	if (argc != 2 || strcmp(argv[1], "sessions"))
		sim_die(s, "usage: show { sessions | ratelimits }");
	sim_show_sessions(s);
}

static void run_line(struct sim *s, char *line)
{
	char *argv[CONF_MAX_ARGS];
	struct conf_cmd cmd;
	char err[256];
	int argc, rc;

	argc = conf_split(line, argv, CONF_MAX_ARGS);
	if (argc < 0)
		sim_die(s, "too many words (at most %d)", CONF_MAX_ARGS);
	if (!argc)
		return;
	rc = conf_parse(argc, argv, &cmd, err, sizeof(err));
	if (rc < 0)
		sim_die(s, "%s", err);
	if (rc == 0) {
		apply_conf(s, &cmd);
		return;
	}
	if (!strcmp(argv[0], "lns"))
		sim_do_lns(s, argc, argv);
	else if (!strcmp(argv[0], "state"))
		sim_do_state(s, argc, argv);
	else if (!strcmp(argv[0], "pick"))
		sim_do_pick(s, argc, argv);
	else if (!strcmp(argv[0], "time"))
		do_time(s, argc, argv);
	else if (!strcmp(argv[0], "login"))
		sim_do_login(s, argc, argv);
	else if (!strcmp(argv[0], "logout"))
		sim_do_logout(s, argc, argv);
	else if (!strcmp(argv[0], "show"))
		do_show(s, argc, argv);
	else if (!strcmp(argv[0], "limit"))
		sim_do_limit(s, argc, argv);
	else if (!strcmp(argv[0], "ratelimit"))
		sim_do_ratelimit(s, argc, argv);
	else if (!strcmp(argv[0], "throttle"))
		sim_do_throttle(s, argc, argv);
	else if (!strcmp(argv[0], "load"))
		sim_do_load(s, argc, argv);
	else if (!strcmp(argv[0], "offer"))
		sim_do_offer(s, argc, argv);
	else
		sim_die(s, "unknown line \"%s\"", argv[0]);
}

int main(int argc, char **argv)
{
	static struct sim sim;
	struct sim *s = &sim;
	unsigned long long seed = 1;
	char *line = NULL;
	size_t cap = 0;
	FILE *f;
	int a = 1, i;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: l2tpsel-sim [ --seed N ] FILE|-\n"
		       "Replays the scenario in FILE (- for standard input) on the selection\n"
		       "core and prints one JSON object per step (Documentation/selection.md).\n");
		return 0;
	}
	if (argc == 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))) {
		printf("l2tpsel-sim %s\n", L2TPSEL_VERSION);
		return 0;
	}
	/* an option it does not know is not a file name */
	if (argc >= 2 && argv[1][0] == '-' && argv[1][1] && strcmp(argv[1], "--seed")) {
		fprintf(stderr, "l2tpsel-sim: unknown option \"%s\" (--help lists them)\n", argv[1]);
		return 2;
	}
	if (argc >= 3 && !strcmp(argv[1], "--seed")) {
		char *end;

		errno = 0;
		seed = strtoull(argv[2], &end, 0);
		if (errno || *end) {
			fprintf(stderr, "l2tpsel-sim: --seed %s: not a number\n", argv[2]);
			return 2;
		}
		a = 3;
	}
	if (argc != a + 1) {
		fprintf(stderr, "usage: l2tpsel-sim [ --seed N ] FILE|-\n");
		return 2;
	}
	s->file = argv[a];
	f = strcmp(s->file, "-") ? fopen(s->file, "r") : stdin;
	if (!f) {
		fprintf(stderr, "l2tpsel-sim: %s: %s\n", s->file, strerror(errno));
		return 1;
	}
	s->rng = seed;
	l2s_core_init(&s->core, s->dests, SIM_DESTS);
	lim_chassis_init(&s->chassis);
	while (getline(&line, &cap, f) >= 0) {
		s->line++;
		run_line(s, line);
	}
	if (s->pin_head != s->pin_tail)
		sim_die(s, "pick at line %d was never used", s->pins[s->pin_head % SIM_PINS].line);
	free(line);
	free(s->live);
	for (i = 0; i < s->nprof; i++) {
		l2s_profile_free(&s->core, s->prof[i]);
		free(s->prof[i]);
	}
	l2s_core_release(&s->core);
	if (f != stdin)
		fclose(f);
	return 0;
}
