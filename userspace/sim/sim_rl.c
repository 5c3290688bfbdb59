// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpsel-sim's rate limiting (sim.h; SPEC section 5,
 * Documentation/ratelimit.md): "throttle", "ratelimit", "load", "offer"
 * and "show ratelimits" on the core's rate limiters and throttle profiles
 * (S-RL-1..4), and the clock that moves them.
 */
#include <stdio.h>
#include <string.h>

#include "sim.h"

static void sim_rl_print(const struct sim_rl *r, u64 ns)
{
	printf("{\"ev\":\"ratelimit\",\"ms\":%llu,\"name\":", (unsigned long long)(ns / RL_NSEC_PER_MSEC));
	sim_jstr(r->name);
	printf(",\"rate\":%u,\"burst\":%u,\"throttle\":%u,\"effective\":%u,\"passed\":%u,\"over\":%u}\n",
	       r->l.rate, r->l.burst, r->l.throttle, rl_effective_rate(r->l.rate, r->l.throttle),
	       r->passed, r->over);
}

/* "show ratelimits": each rate limit's line. */
void sim_show_ratelimits(struct sim *s)
{
	int i;

	for (i = 0; i < s->nrl; i++)
		sim_rl_print(&s->rl[i], s->now * RL_NSEC_PER_MSEC);
}

/* Throttle profile @i changed at @ns: one event, then every limit that uses it. */
static void th_changed(struct sim *s, int i, u64 ns)
{
	const struct rl_throttle *th = &s->th[i].th;
	int r;

	printf("{\"ev\":\"throttle\",\"ms\":%llu,\"profile\":", (unsigned long long)(ns / RL_NSEC_PER_MSEC));
	sim_jstr(s->th[i].name);
	printf(",\"load\":%u,\"percent\":%u}\n", th->load, th->percent);
	for (r = 0; r < s->nrl; r++) {
		if (s->rl[r].th != i)
			continue;
		rl_set_throttle(&s->rl[r].l, th->percent, ns);
		sim_rl_print(&s->rl[r], ns);
	}
}

/* Every revert step due by @ns, each at its own time, as a kernel timer would. */
static void sim_rl_tick(struct sim *s, u64 ns)
{
	u64 when;
	bool ch;
	int i;

	for (i = 0; i < s->nth; i++) {
		while (rl_throttle_next_step(&s->th[i].th, &when) && when <= ns) {
			rl_throttle_tick(&s->th[i].th, when, &ch);
			if (ch)
				th_changed(s, i, when);
		}
	}
}

static int find_th(struct sim *s, const char *name)
{
	int i;

	for (i = 0; i < s->nth; i++)
		if (!strcmp(s->th[i].name, name))
			return i;
	return -1;
}

static struct sim_rl *find_rl(struct sim *s, const char *name)
{
	int i;

	for (i = 0; i < s->nrl; i++)
		if (!strcmp(s->rl[i].name, name))
			return &s->rl[i];
	return NULL;
}

void sim_do_throttle(struct sim *s, int argc, char **argv)
{
	static const char usage[] =
		"usage: throttle add PROFILE hold SECS step PCT band LOAD:PCT [ LOAD:PCT ... ]";
	struct rl_throttle_conf c = { 0 };
	struct l2s_err err = { 0 };
	struct sim_th *t;
	int a;

	if (argc < 9 || strcmp(argv[1], "add") || strcmp(argv[3], "hold") ||
	    strcmp(argv[5], "step") || strcmp(argv[7], "band"))
		sim_die(s, "%s", usage);
	if (strlen(argv[2]) >= L2S_NAME_LEN || find_th(s, argv[2]) >= 0)
		sim_die(s, "throttle %s: the name is taken or longer than %d bytes", argv[2],
		    L2S_NAME_LEN - 1);
	if (s->nth == SIM_THROTTLES)
		sim_die(s, "the simulator holds at most %d throttle profiles", SIM_THROTTLES);
	c.hold_ms = sim_num(s, argv[4], 4294967, "hold seconds") * 1000;
	c.step = (u8)sim_num(s, argv[6], 255, "revert step");
	for (a = 8; a < argc; a++) {
		char *colon = strchr(argv[a], ':');

		if (c.nbands == RL_BANDS_MAX)
			sim_die(s, "throttle %s: at most %d bands", argv[2], RL_BANDS_MAX);
		if (!colon)
			sim_die(s, "band \"%s\": LOAD:PCT", argv[a]);
		*colon = 0;
		c.band[c.nbands].load = (u8)sim_num(s, argv[a], 255, "band load");
		c.band[c.nbands++].percent = (u8)sim_num(s, colon + 1, 255, "band percent");
	}
	t = &s->th[s->nth];
	if (rl_throttle_init(&t->th, &c, &err))
		sim_die(s, "throttle %s: %s", argv[2], err.msg);
	snprintf(t->name, sizeof(t->name), "%s", argv[2]);
	s->nth++;
}

void sim_do_ratelimit(struct sim *s, int argc, char **argv)
{
	struct l2s_err err = { 0 };
	struct sim_rl *r;
	u64 ns = s->now * RL_NSEC_PER_MSEC;

	if ((argc != 7 && argc != 9) || strcmp(argv[1], "add") || strcmp(argv[3], "rate") ||
	    strcmp(argv[5], "burst") || (argc == 9 && strcmp(argv[7], "throttle")))
		sim_die(s, "usage: ratelimit add NAME rate R burst B [ throttle PROFILE ]");
	if (strlen(argv[2]) >= L2S_NAME_LEN || find_rl(s, argv[2]))
		sim_die(s, "ratelimit %s: the name is taken or longer than %d bytes", argv[2],
		    L2S_NAME_LEN - 1);
	if (s->nrl == SIM_RL)
		sim_die(s, "the simulator holds at most %d rate limits", SIM_RL);
	r = &s->rl[s->nrl];
	memset(r, 0, sizeof(*r));
	r->th = argc == 9 ? find_th(s, argv[8]) : -1;
	if (argc == 9 && r->th < 0)
		sim_die(s, "no throttle profile %s", argv[8]);
	if (rl_init(&r->l, sim_num(s, argv[4], 0xffffffffu, "rate"),
		    sim_num(s, argv[6], 0xffffffffu, "burst"), ns, &err))
		sim_die(s, "ratelimit %s: %s", argv[2], err.msg);
	if (r->th >= 0)
		rl_set_throttle(&r->l, s->th[r->th].th.percent, ns);
	snprintf(r->name, sizeof(r->name), "%s", argv[2]);
	s->nrl++;
}

void sim_do_load(struct sim *s, int argc, char **argv)
{
	u64 ns = s->now * RL_NSEC_PER_MSEC;
	u32 load;
	bool ch;
	int i;

	if (argc != 3 || strcmp(argv[1], "set"))
		sim_die(s, "usage: load set PCT");
	load = sim_num(s, argv[2], 100, "load");
	sim_rl_tick(s, ns);
	for (i = 0; i < s->nth; i++) {
		rl_throttle_update(&s->th[i].th, load, ns, &ch);
		if (ch)
			th_changed(s, i, ns);
	}
}

/* N requests at once, or at t0 + i × SECS / N; the throttles follow the clock. */
void sim_do_offer(struct sim *s, int argc, char **argv)
{
	u64 t0 = s->now * RL_NSEC_PER_MSEC, span = 0;
	struct sim_rl *r;
	u32 n, i, passed = 0;

	if ((argc != 3 && argc != 5) || (argc == 5 && strcmp(argv[3], "over")))
		sim_die(s, "usage: offer NAME N [ over SECS ]");
	r = find_rl(s, argv[1]);
	if (!r)
		sim_die(s, "no ratelimit %s", argv[1]);
	n = sim_num(s, argv[2], 100000000, "count");
	if (argc == 5)
		span = (u64)sim_num(s, argv[4], 86400, "seconds") * RL_NSEC_PER_SEC;
	for (i = 0; i < n; i++) {
		u64 t = t0 + span * i / n;

		sim_rl_tick(s, t);
		if (rl_admit(&r->l, t) == RL_PASS)
			passed++;
	}
	r->passed += passed;
	r->over += n - passed;
	printf("{\"ev\":\"offer\",\"ms\":%llu,\"ratelimit\":", (unsigned long long)s->now);
	sim_jstr(r->name);
	printf(",\"offered\":%u,\"secs\":%llu,\"passed\":%u,\"over\":%u}\n", n,
	       (unsigned long long)(span / RL_NSEC_PER_SEC), passed, n - passed);
	if (span)
		sim_advance(s, span / RL_NSEC_PER_MSEC);
}

/* The clock moves on @ms: lockouts expire, the throttles' steps due are taken. */
void sim_advance(struct sim *s, u64 ms)
{
	struct l2s_env env;

	s->now += ms;
	env = sim_env(s);
	l2s_lockout_expire(&s->core, &env);
	sim_rl_tick(s, s->now * RL_NSEC_PER_MSEC);
}
