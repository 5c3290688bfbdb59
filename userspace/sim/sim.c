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
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kmod/version.h"
#include "conf.h"
#include "hash.h"
#include "lb.h"
#include "lim.h"
#include "obj.h"
#include "rl.h"
#include "sel.h"

#define SIM_DESTS	1024
#define SIM_PROFILES	64
#define SIM_LNS		256
#define SIM_PINS	256
#define SIM_RL		64
#define SIM_THROTTLES	16

/* A rate limit and its counters (S-RL-1, S-RL-2). */
struct sim_rl {
	char name[L2S_NAME_LEN];
	struct rl_limiter l;
	int th;				/* index into sim.th, -1 = static */
	u32 passed, over;
};

/* A dynamic profile (S-RL-3). */
struct sim_th {
	char name[L2S_NAME_LEN];
	struct rl_throttle th;
};

struct pin {
	bool by_name;
	u32 value;
	char name[L2S_NAME_LEN];
	int line;
};

struct lns {
	struct l2s_addr addr;
	struct l2s_outcome out;
};

struct live {
	u32 login;
	struct l2s_profile *prof;
	u16 tunnel;
};

struct sim {
	const char *file;
	int line;
	struct l2s_core core;
	struct l2s_dest dests[SIM_DESTS];
	struct l2s_profile *prof[SIM_PROFILES];
	int nprof;
	struct lns lns[SIM_LNS];
	int nlns;
	struct pin pins[SIM_PINS];
	int pin_head, pin_tail;
	u64 now;
	u64 rng;
	u32 nlogin;
	const struct l2s_profile *cur;	/* profile of the login being walked */
	u32 cur_login;
	bool quiet;			/* inside "login ... count N" */
	/* LAC admission (S-LIM-1): checked and traced once a "limit" line is seen. */
	struct lim_chassis chassis;
	bool limits_on;
	int refused_level;		/* LIM_PASS, or the level that refused this login */
	struct live *live;
	size_t nlive, cap;
	/* Rate limiting: "ratelimit", "throttle", "load", "offer". */
	struct sim_rl rl[SIM_RL];
	int nrl;
	struct sim_th th[SIM_THROTTLES];
	int nth;
};

__attribute__((format(printf, 2, 3), noreturn))
static void die(struct sim *s, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s:%d: ", s->file, s->line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* JSON string body: names come from the scenario, escape what JSON needs. */
static void jstr(const char *str)
{
	putchar('"');
	for (; *str; str++) {
		if (*str == '"' || *str == '\\')
			printf("\\%c", *str);
		else if ((unsigned char)*str < 0x20)
			printf("\\u%04x", *str);
		else
			putchar(*str);
	}
	putchar('"');
}

static const char *dest_str(struct sim *s, u16 slot)
{
	static char buf[4][64];
	static int i;

	i = (i + 1) % 4;
	conf_format_addr(&l2s_dest_at(&s->core, slot)->key.remote, buf[i], sizeof(buf[i]));
	return buf[i];
}

/* splitmix64: small, seedable, good enough for a simulator. */
static u32 rng_next(struct sim *s)
{
	u64 z = (s->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (u32)((z ^ (z >> 31)) >> 32);
}

/* The core's random source: a pinned choice if one is queued, else the PRNG. */
static u32 sim_rand(void *ctx, const struct l2s_draw *d)
{
	struct sim *s = ctx;
	struct pin *p;
	u32 i, v = 0;

	if (s->pin_head == s->pin_tail)
		return (u32)(((u64)rng_next(s) * d->bound) >> 32);
	p = &s->pins[s->pin_head++ % SIM_PINS];
	if (!p->by_name) {
		if (p->value >= d->bound)
			die(s, "pick next %u (from line %d): the choice is among %u", p->value,
			    p->line, d->bound);
		return p->value;
	}
	for (i = 0; i < d->n; i++) {
		if (!strcmp(s->cur->t[d->cand[i]].name, p->name))
			return v;
		v += d->weighted ? l2s_lb_weight(s->cur, d->lvl, d->cand[i]) : 1;
	}
	fflush(stdout);
	fprintf(stderr, "%s:%d: pick next tunnel %s (from line %d): not among the choices:",
		s->file, s->line, p->name, p->line);
	for (i = 0; i < d->n; i++)
		fprintf(stderr, " %s", s->cur->t[d->cand[i]].name);
	fputc('\n', stderr);
	exit(1);
}

static void sim_event(void *ctx, const struct l2s_event *ev)
{
	struct sim *s = ctx;

	if (s->quiet)
		return;
	switch (ev->kind) {
	case L2S_EV_DLNC:
		printf("{\"ev\":\"dlnc\",\"login\":%u,\"dest\":\"%s\"}\n",
		       s->cur_login, dest_str(s, ev->dest));
		break;
	case L2S_EV_LOCKOUT:
		printf("{\"ev\":\"lockout\",\"dest\":\"%s\",\"secs\":%u}\n",
		       dest_str(s, ev->dest), ev->ms / 1000);
		break;
	case L2S_EV_UNLOCK: {
		static const char *const why[] = {
			[L2S_UNLOCK_DLNC] = "dlnc",
			[L2S_UNLOCK_SHORTEST] = "shortest",
			[L2S_UNLOCK_CLEAR] = "clear",
			[L2S_UNLOCK_EXPIRED] = "expired",
		};

		printf("{\"ev\":\"unlock\",\"dest\":\"%s\",\"why\":\"%s\"}\n",
		       dest_str(s, ev->dest), ev->why < 5 ? why[ev->why] : "?");
		break;
	}
	}
}

static struct l2s_env sim_env(struct sim *s)
{
	struct l2s_env env = {
		.now = s->now, .rand = sim_rand, .event = sim_event, .ctx = s,
	};

	return env;
}

static struct l2s_profile *find_profile(struct sim *s, const char *name)
{
	int i;

	for (i = 0; i < s->nprof; i++)
		if (!strcmp(s->prof[i]->name, name))
			return s->prof[i];
	return NULL;
}

static struct l2s_profile *need_profile(struct sim *s, const char *name)
{
	struct l2s_profile *p = find_profile(s, name);

	if (!p)
		die(s, "no profile %s", name);
	return p;
}

/* A tunnel by name, in @pname or in the only profile that has it. */
static int find_tunnel(struct sim *s, const char *name, const char *pname,
		       struct l2s_profile **pp)
{
	int i, t, found = -1;

	for (i = 0; i < s->nprof; i++) {
		if (pname && strcmp(s->prof[i]->name, pname))
			continue;
		t = l2s_tunnel_find(s->prof[i], name);
		if (t < 0)
			continue;
		if (found >= 0)
			die(s, "tunnel %s is in several profiles: add \"profile NAME\"", name);
		found = t;
		*pp = s->prof[i];
	}
	if (found < 0)
		die(s, "no tunnel %s%s%s", name, pname ? " in profile " : "", pname ? pname : "");
	return found;
}

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
			die(s, "%s", err.msg);
		break;
	case CONF_PROFILE_ADD:
		if (find_profile(s, c->name))
			die(s, "profile %s already exists", c->name);
		if (s->nprof == SIM_PROFILES)
			die(s, "the simulator holds at most %d profiles", SIM_PROFILES);
		p = calloc(1, sizeof(*p));
		if (!p)
			die(s, "out of memory");
		l2s_profile_init(p, c->name);
		apply_profile_opts(p, c);
		s->prof[s->nprof++] = p;
		break;
	case CONF_PROFILE_SET:
		apply_profile_opts(need_profile(s, c->name), c);
		break;
	case CONF_PROFILE_DEL:
		p = need_profile(s, c->name);
		for (i = 0; i < p->ntunnels; i++)
			if (p->t[i].sessions)
				die(s, "profile %s: tunnel %s has %u live sessions", p->name,
				    p->t[i].name, p->t[i].sessions);
		l2s_profile_release(&s->core, p);
		for (i = 0; i < s->nprof; i++)
			if (s->prof[i] == p)
				s->prof[i] = s->prof[--s->nprof];
		free(p);
		break;
	case CONF_TUNNEL_ADD:
		p = need_profile(s, c->profile);
		memset(&tc, 0, sizeof(tc));
		tc.name = c->name;
		tc.group = c->group;
		tc.secret = c->secret;
		tc.level = c->level;
		tc.max_sessions = c->max_sessions;
		tc.dest = c->dest;
		if (l2s_tunnel_add(&s->core, p, &tc, &err) < 0)
			die(s, "%s", err.msg);
		break;
	case CONF_TUNNEL_DEL:
		if (l2s_tunnel_del(&s->core, need_profile(s, c->profile), c->name, &err) < 0)
			die(s, "%s", err.msg);
		break;
	case CONF_DOMAIN_ADD:
		if (l2s_domain_add(&s->core, c->name, c->profile, &err) < 0)
			die(s, "%s", err.msg);
		break;
	case CONF_DOMAIN_DEL:
		if (l2s_domain_del(&s->core, c->name, &err) < 0)
			die(s, "%s", err.msg);
		break;
	case CONF_CLEAR_LOCKOUT:
		l2s_lockout_clear(&s->core, c->has_local ? &c->local : NULL,
				  c->has_remote ? &c->remote : NULL, &env);
		break;
	}
}

/* ---- scenario lines ---- */

static u32 num(struct sim *s, const char *str, u32 max, const char *what)
{
	u32 v;

	if (conf_parse_u32(str, max, &v))
		die(s, "%s \"%s\": a number 0..%u", what, str, max);
	return v;
}

static void addr(struct sim *s, const char *str, struct l2s_addr *a)
{
	if (conf_parse_addr(str, a))
		die(s, "\"%s\" is not an IPv4 or IPv6 address", str);
}

static void do_lns(struct sim *s, int argc, char **argv)
{
	struct l2s_outcome out = { 0 };
	struct l2s_addr a;
	int i;

	if (argc < 4 || strcmp(argv[2], "answer"))
		die(s, "usage: lns ADDR answer { ok | silent | cdn RESULT ERROR | stopccn RESULT ERROR | client-gone }");
	addr(s, argv[1], &a);
	if (!strcmp(argv[3], "ok") && argc == 4) {
		out.kind = L2S_OUT_OK;
	} else if (!strcmp(argv[3], "silent") && argc == 4) {
		out.kind = L2S_OUT_NO_REPLY;
	} else if (!strcmp(argv[3], "client-gone") && argc == 4) {
		out.kind = L2S_OUT_CLIENT_GONE;
	} else if ((!strcmp(argv[3], "cdn") || !strcmp(argv[3], "stopccn")) && argc == 6) {
		out.kind = argv[3][0] == 'c' ? L2S_OUT_CDN : L2S_OUT_STOPCCN;
		out.result = (u16)num(s, argv[4], 65535, "result code");
		out.error = (u16)num(s, argv[5], 65535, "error code");
	} else {
		die(s, "usage: lns ADDR answer { ok | silent | cdn RESULT ERROR | stopccn RESULT ERROR | client-gone }");
	}
	for (i = 0; i < s->nlns; i++) {
		if (l2s_addr_equal(&s->lns[i].addr, &a)) {
			s->lns[i].out = out;
			return;
		}
	}
	if (s->nlns == SIM_LNS)
		die(s, "at most %d lns lines", SIM_LNS);
	s->lns[s->nlns].addr = a;
	s->lns[s->nlns++].out = out;
}

static struct l2s_outcome lns_answer(struct sim *s, u16 slot)
{
	struct l2s_outcome ok = { .kind = L2S_OUT_OK };
	int i;

	for (i = 0; i < s->nlns; i++)
		if (l2s_addr_equal(&s->lns[i].addr, &l2s_dest_at(&s->core, slot)->key.remote))
			return s->lns[i].out;
	return ok;	/* an LNS nobody described answers */
}

static bool onoff(struct sim *s, const char *w)
{
	if (!strcmp(w, "on"))
		return true;
	if (!strcmp(w, "off"))
		return false;
	die(s, "\"%s\": on or off", w);
	return false;
}

static void do_state(struct sim *s, int argc, char **argv)
{
	struct l2s_profile *p;
	struct l2s_addr a;
	u32 i, n = 0, v;

	if (argc == 5 && !strcmp(argv[1], "lock") && !strcmp(argv[3], "remaining")) {
		addr(s, argv[2], &a);
		v = num(s, argv[4], 86400, "remaining seconds");
		for (i = 0; i < SIM_DESTS; i++) {
			if (s->dests[i].refs && l2s_addr_equal(&s->dests[i].key.remote, &a)) {
				s->dests[i].lock_until = v ? s->now + (u64)v * 1000 : 0;
				n++;
			}
		}
		if (!n)
			die(s, "no destination %s", argv[2]);
		return;
	}
	if (argc >= 5 && !strcmp(argv[1], "sessions") && !strcmp(argv[2], "tunnel")) {
		const char *pname = NULL;
		struct l2s_dest *d;
		int t;

		if (argc == 7 && !strcmp(argv[4], "profile"))
			pname = argv[5];
		else if (argc != 5)
			die(s, "usage: state sessions tunnel NAME [ profile PROFILE ] COUNT");
		t = find_tunnel(s, argv[3], pname, &p);
		v = num(s, argv[argc - 1], L2S_MAX_SESSIONS_LIMIT, "session count");
		d = l2s_dest_at(&s->core, p->t[t].dest);
		if (d->sessions + v < p->t[t].sessions)
			die(s, "destination count would go negative");
		d->sessions = d->sessions + v - p->t[t].sessions;
		p->t[t].sessions = v;
		return;
	}
	if (argc == 5 && !strcmp(argv[1], "sessions") && !strcmp(argv[2], "dest")) {
		addr(s, argv[3], &a);
		v = num(s, argv[4], L2S_MAX_SESSIONS_LIMIT, "session count");
		for (i = 0; i < SIM_DESTS; i++) {
			if (s->dests[i].refs && l2s_addr_equal(&s->dests[i].key.remote, &a)) {
				s->dests[i].sessions = v;
				n++;
			}
		}
		if (!n)
			die(s, "no destination %s", argv[3]);
		return;
	}
	/* S-OPS-1: drain a tunnel or the destinations of an address, or end the drain */
	if (argc >= 5 && !strcmp(argv[1], "drain") && !strcmp(argv[2], "tunnel")) {
		const char *pname = NULL;
		int t;

		if (argc == 7 && !strcmp(argv[4], "profile"))
			pname = argv[5];
		else if (argc != 5)
			die(s, "usage: state drain tunnel NAME [ profile PROFILE ] { on | off }");
		t = find_tunnel(s, argv[3], pname, &p);
		p->t[t].drain = onoff(s, argv[argc - 1]);
		return;
	}
	if (argc == 5 && !strcmp(argv[1], "drain") && !strcmp(argv[2], "dest")) {
		struct l2s_dest_key k = { 0 };

		addr(s, argv[3], &k.remote);
		if (!l2s_dest_drain_match(&s->core, &k, false, false, onoff(s, argv[4])))
			die(s, "no destination %s", argv[3]);
		return;
	}
	die(s, "usage: state { lock ADDR remaining SECS | sessions tunnel NAME [ profile P ] COUNT | sessions dest ADDR COUNT | drain tunnel NAME [ profile P ] { on | off } | drain dest ADDR { on | off } }");
}

static void do_pick(struct sim *s, int argc, char **argv)
{
	struct pin *p;

	if (argc < 3 || strcmp(argv[1], "next"))
		die(s, "usage: pick next { N | tunnel NAME }");
	if (s->pin_tail - s->pin_head == SIM_PINS)
		die(s, "at most %d pending picks", SIM_PINS);
	p = &s->pins[s->pin_tail++ % SIM_PINS];
	memset(p, 0, sizeof(*p));
	p->line = s->line;
	if (argc == 4 && !strcmp(argv[2], "tunnel")) {
		p->by_name = true;
		snprintf(p->name, sizeof(p->name), "%s", argv[3]);
	} else if (argc == 3) {
		p->value = num(s, argv[2], 0xffffffffu, "pick");
	} else {
		die(s, "usage: pick next { N | tunnel NAME }");
	}
}

static void sim_admit_trace(void *arg, enum lim_level level, bool pass)
{
	struct sim *s = arg;

	if (!s->quiet)
		printf("{\"ev\":\"admit\",\"login\":%u,\"level\":\"%s\",\"result\":\"%s\"}\n",
		       s->cur_login, lim_level_name(level), pass ? "pass" : "reject");
}

/*
 * The LAC's admission check (S-LIM-1: chassis and tunnel), made before the
 * attempt's ICRQ is sent so that a full LAC does not burden the LNS.  A
 * refusal ends the login without failover: the LAC refuses the subscriber
 * (PPP terminate, S-LIM-7).  The core counts the tunnel's session itself when
 * the OK is reported; the chassis is counted by sim_count().
 */
static bool sim_admit(struct sim *s, const struct l2s_profile *p, u16 tunnel)
{
	struct lim_path path = { 0 };

	s->refused_level = LIM_PASS;
	if (!s->limits_on)
		return true;
	path.slot[LIM_CHASSIS] = lim_chassis_slot(&s->chassis);
	path.slot[LIM_TUNNEL].count = (u32 *)&p->t[tunnel].sessions;
	path.slot[LIM_TUNNEL].limit = s->chassis.tunnel_limit;
	s->refused_level = lim_check(&path, LIM_ROLE_LAC, sim_admit_trace, s);
	return s->refused_level == LIM_PASS;
}

/* The LNS accepted an admitted session: the chassis counts it. */
static void sim_count(struct sim *s)
{
	struct lim_path path = { 0 };

	if (!s->limits_on)
		return;
	path.slot[LIM_CHASSIS] = lim_chassis_slot(&s->chassis);
	if (lim_admit(&path, LIM_ROLE_LAC, NULL, NULL, NULL) != LIM_PASS)
		die(s, "internal: chassis refused a session it had admitted");
}

/* A simulated session ends: the chassis counts one less (when limits are on). */
static void sim_release(struct sim *s)
{
	struct lim_path path = { 0 };

	if (!s->limits_on)
		return;
	path.slot[LIM_CHASSIS] = lim_chassis_slot(&s->chassis);
	if (lim_release(&path, NULL, NULL))
		die(s, "internal: chassis count already 0");
}

/* limit set [ chassis-max N ] [ chassis N ] [ tunnel N ]: the CLI's grammar. */
static void do_limit(struct sim *s, int argc, char **argv)
{
	struct lim_chassis next = s->chassis;
	struct l2s_err err = { 0 };
	int i;

	if (argc < 4 || strcmp(argv[1], "set") || argc % 2)
		die(s, "usage: limit set [ chassis-max N ] [ chassis N ] [ tunnel N ]");
	for (i = 2; i < argc; i += 2) {
		u32 v = num(s, argv[i + 1], 0xffffffffu, argv[i]);

		if (!strcmp(argv[i], "chassis-max"))
			next.maximum = v;
		else if (!strcmp(argv[i], "chassis"))
			next.limit = v;
		else if (!strcmp(argv[i], "tunnel"))
			next.tunnel_limit = v;
		else
			die(s, "limit set: \"%s\" is unknown: chassis-max, chassis or tunnel", argv[i]);
	}
	if (lim_check_value(&next, next.limit, "chassis", &err) ||
	    lim_check_value(&next, next.tunnel_limit, "tunnel", &err) ||
	    lim_set_maximum(&next, next.maximum, 0, &err))
		die(s, "%s", err.msg);
	s->chassis = next;
	s->limits_on = true;
}

struct tally {
	u32 ok, fail;
	u32 per_tunnel[L2S_TUNNELS_PER_PROFILE];
};

/* One login of a "login" line, from its begin to its end. */
struct sim_login {
	struct l2s_login lg;
	struct l2s_step st;
	u32 id;
	int rc;				/* the last step's kind */
	int refused_level;		/* LIM_PASS, or the level that refused it */
};

static void login_attempt_line(struct sim *s, const struct l2s_profile *p,
			       const struct sim_login *sl)
{
	if (!s->quiet && sl->rc == L2S_STEP_ATTEMPT)
		printf("{\"ev\":\"attempt\",\"login\":%u,\"level\":%u,\"tunnel\":\"%s\",\"dest\":\"%s\",\"setup\":\"%s\"}\n",
		       sl->id, sl->st.level, p->t[sl->st.tunnel].name, dest_str(s, sl->st.dest),
		       sl->st.setup ? "sccrq" : "icrq");
}

/* The login's first step: its first attempt holds a place from now on (S-STORM-2). */
static void login_begin(struct sim *s, struct l2s_profile *p, const char *user,
			const char *key, struct sim_login *sl)
{
	struct l2s_env env;
	const char *k = key ? key : user;

	sl->id = ++s->nlogin;
	sl->refused_level = LIM_PASS;
	s->cur = p;
	s->cur_login = sl->id;
	env = sim_env(s);
	sl->rc = l2s_sel_begin(&sl->lg, &s->core, p, l2s_hash_key(k, (u32)strlen(k)), &env,
			       &sl->st);
	login_attempt_line(s, p, sl);
}

/* The LNS answers the login's attempt; the report gives the next step. */
static void login_answer(struct sim *s, struct l2s_profile *p, struct sim_login *sl)
{
	struct l2s_outcome out;
	struct l2s_env env;

	s->cur = p;
	s->cur_login = sl->id;
	if (!sim_admit(s, p, sl->st.tunnel)) {
		out.kind = L2S_OUT_CLIENT_GONE;
	} else {
		out = lns_answer(s, sl->st.dest);
		if (out.kind == L2S_OUT_OK)
			sim_count(s);
	}
	sl->refused_level = s->refused_level;
	env = sim_env(s);
	sl->rc = l2s_sel_report(&sl->lg, &s->core, p, &out, &env, &sl->st);
	login_attempt_line(s, p, sl);
}

/* The login is done: its session is live, and the result is traced. */
static void login_done(struct sim *s, struct l2s_profile *p, const struct sim_login *sl,
		       struct tally *tally)
{
	const struct l2s_step *st = &sl->st;
	u32 id = sl->id;

	if (sl->rc != L2S_STEP_DONE)
		die(s, "internal: step API returned %d", sl->rc);
	if (st->ok) {
		if (s->nlive == s->cap) {
			s->cap = s->cap ? 2 * s->cap : 64;
			s->live = realloc(s->live, s->cap * sizeof(*s->live));
			if (!s->live)
				die(s, "out of memory");
		}
		s->live[s->nlive].login = id;
		s->live[s->nlive].prof = p;
		s->live[s->nlive++].tunnel = st->tunnel;
		tally->ok++;
		tally->per_tunnel[st->tunnel]++;
	} else {
		tally->fail++;
	}
	if (s->quiet)
		return;
	if (st->ok)
		printf("{\"ev\":\"login\",\"login\":%u,\"result\":\"ok\",\"tunnel\":\"%s\",\"dest\":\"%s\"}\n",
		       id, p->t[st->tunnel].name, dest_str(s, st->dest));
	else if (sl->refused_level != LIM_PASS)
		printf("{\"ev\":\"login\",\"login\":%u,\"result\":\"fail\",\"reason\":\"limit\",\"level\":\"%s\"}\n",
		       id, lim_level_name(sl->refused_level));
	else
		printf("{\"ev\":\"login\",\"login\":%u,\"result\":\"fail\",\"reason\":\"%s\"}\n",
		       id, l2s_fail_name(st->why));
}

static void one_login(struct sim *s, struct l2s_profile *p, const char *user,
		      const char *key, struct tally *tally)
{
	struct sim_login sl;

	login_begin(s, p, user, key, &sl);
	while (sl.rc == L2S_STEP_ATTEMPT)
		login_answer(s, p, &sl);
	login_done(s, p, &sl, tally);
}

/* The profile's logins in flight: one line, each tunnel holding any. */
static void inflight_line(struct sim *s, const struct l2s_profile *p, u32 logins)
{
	bool first = true;
	int t;

	printf("{\"ev\":\"in-flight\",\"logins\":%u,\"tunnels\":{", logins);
	for (t = 0; t < p->ntunnels; t++) {
		if (!p->t[t].inflight)
			continue;
		printf("%s", first ? "" : ",");
		jstr(p->t[t].name);
		printf(":%u", p->t[t].inflight);
		first = false;
	}
	printf("}}\n");
}

/*
 * "count N at-once": the N logins begin before any LNS answers, as in a
 * storm; then the LNS answer every login's attempt in turn, a round at a
 * time, until each is done.  The logins in flight after the first round
 * of picks are traced (S-STORM-1, S-STORM-2).
 */
static void logins_at_once(struct sim *s, struct l2s_profile *p, const char *user,
			   const char *key, u32 count, struct tally *tally)
{
	struct sim_login *sl = calloc(count, sizeof(*sl));
	u32 i, live = 0;

	if (!sl)
		die(s, "out of memory");
	for (i = 0; i < count; i++) {
		login_begin(s, p, user, key, &sl[i]);
		live += sl[i].rc == L2S_STEP_ATTEMPT;
	}
	inflight_line(s, p, live);
	while (live) {
		live = 0;
		for (i = 0; i < count; i++) {
			if (sl[i].rc != L2S_STEP_ATTEMPT)
				continue;
			login_answer(s, p, &sl[i]);
			live += sl[i].rc == L2S_STEP_ATTEMPT;
		}
	}
	for (i = 0; i < count; i++)
		login_done(s, p, &sl[i], tally);
	free(sl);
}

static void do_login(struct sim *s, int argc, char **argv)
{
	const char *user, *pname = NULL, *key = NULL;
	struct l2s_profile *p;
	struct tally tally;
	bool at_once = false;
	u32 count = 1, i;
	int a;

	if (argc < 2)
		die(s, "usage: login USER [ profile PROFILE ] [ key KEY ] [ count N [ at-once ] ]");
	user = argv[1];
	for (a = 2; a < argc; a += 2) {
		if (!strcmp(argv[a], "at-once")) {
			at_once = true;
			a--;
			continue;
		}
		if (a + 1 >= argc)
			die(s, "login: missing value after %s", argv[a]);
		if (!strcmp(argv[a], "profile"))
			pname = argv[a + 1];
		else if (!strcmp(argv[a], "key"))
			key = argv[a + 1];
		else if (!strcmp(argv[a], "count"))
			count = num(s, argv[a + 1], 10000000, "count");
		else
			die(s, "login: unknown option \"%s\"", argv[a]);
	}
	/* A profile named by the login wins over the domain map (S-OBJ-4). */
	if (!pname)
		pname = l2s_domain_lookup(&s->core, user);
	p = pname ? find_profile(s, pname) : NULL;
	if (!p) {
		for (i = 0; i < count; i++)
			printf("{\"ev\":\"login\",\"login\":%u,\"result\":\"fail\",\"reason\":\"no-profile\"}\n",
			       ++s->nlogin);
		return;
	}
	memset(&tally, 0, sizeof(tally));
	s->quiet = count > 1;
	if (at_once) {
		logins_at_once(s, p, user, key, count, &tally);
	} else {
		for (i = 0; i < count; i++)
			one_login(s, p, user, key, &tally);
	}
	s->quiet = false;
	if (count > 1) {
		bool first = true;

		printf("{\"ev\":\"logins\",\"count\":%u,\"ok\":%u,\"fail\":%u,\"tunnels\":{",
		       count, tally.ok, tally.fail);
		for (i = 0; i < p->ntunnels; i++) {
			if (!tally.per_tunnel[i])
				continue;
			printf("%s", first ? "" : ",");
			jstr(p->t[i].name);
			printf(":%u", tally.per_tunnel[i]);
			first = false;
		}
		printf("}}\n");
	}
}

static void do_logout(struct sim *s, int argc, char **argv)
{
	struct l2s_profile *p;
	size_t i;
	int t;
	u32 id;

	if (argc >= 3 && !strcmp(argv[1], "tunnel")) {
		const char *pname = NULL;

		if (argc == 5 && !strcmp(argv[3], "profile"))
			pname = argv[4];
		else if (argc != 3)
			die(s, "usage: logout tunnel NAME [ profile PROFILE ]");
		t = find_tunnel(s, argv[2], pname, &p);
		/* Prefer a simulated login's session, else a preset one. */
		for (i = s->nlive; i-- > 0;) {
			if (s->live[i].prof == p && s->live[i].tunnel == t) {
				s->live[i] = s->live[--s->nlive];
				sim_release(s);
				break;
			}
		}
		if (l2s_tunnel_session_down(&s->core, p, (u32)t))
			die(s, "tunnel %s has no session to log out", argv[2]);
		printf("{\"ev\":\"logout\",\"tunnel\":\"%s\",\"dest\":\"%s\"}\n",
		       p->t[t].name, dest_str(s, p->t[t].dest));
		return;
	}
	if (argc != 2)
		die(s, "usage: logout { LOGIN | tunnel NAME [ profile PROFILE ] }");
	id = num(s, argv[1], 0xffffffffu, "login");
	for (i = 0; i < s->nlive; i++) {
		if (s->live[i].login != id)
			continue;
		p = s->live[i].prof;
		t = s->live[i].tunnel;
		s->live[i] = s->live[--s->nlive];
		sim_release(s);
		if (l2s_tunnel_session_down(&s->core, p, (u32)t))
			die(s, "internal: session count of %s already 0", p->t[t].name);
		printf("{\"ev\":\"logout\",\"login\":%u,\"tunnel\":\"%s\",\"dest\":\"%s\"}\n",
		       id, p->t[t].name, dest_str(s, p->t[t].dest));
		return;
	}
	die(s, "login %u has no live session", id);
}

static void sim_rl_print(const struct sim_rl *r, u64 ns);

static void do_show(struct sim *s, int argc, char **argv)
{
	int i, t;

	if (argc == 2 && !strcmp(argv[1], "ratelimits")) {
		for (i = 0; i < s->nrl; i++)
			sim_rl_print(&s->rl[i], s->now * RL_NSEC_PER_MSEC);
		return;
	}
	if (argc != 2 || strcmp(argv[1], "sessions"))
		die(s, "usage: show { sessions | ratelimits }");
	for (i = 0; i < s->nprof; i++) {
		const struct l2s_profile *p = s->prof[i];

		for (t = 0; t < p->ntunnels; t++) {
			const struct l2s_tunnel *tu = &p->t[t];

			printf("{\"ev\":\"sessions\",\"profile\":\"%s\",\"tunnel\":\"%s\",\"count\":%u,\"dest\":\"%s\",\"dest_count\":%u",
			       p->name, tu->name, tu->sessions, dest_str(s, tu->dest),
			       l2s_dest_at(&s->core, tu->dest)->sessions);
			/* S-OPS-1: only when drained, so that older traces read the same */
			if (l2s_tunnel_drained(&s->core, tu))
				printf(",\"drain\":\"%s\"", l2s_tunnel_load(tu) ? "draining" : "drained");
			printf("}\n");
		}
	}
}

/* ---- rate limiting (S-RL-1..4) ---- */

static void sim_rl_print(const struct sim_rl *r, u64 ns)
{
	printf("{\"ev\":\"ratelimit\",\"ms\":%llu,\"name\":", (unsigned long long)(ns / RL_NSEC_PER_MSEC));
	jstr(r->name);
	printf(",\"rate\":%u,\"burst\":%u,\"throttle\":%u,\"effective\":%u,\"passed\":%u,\"over\":%u}\n",
	       r->l.rate, r->l.burst, r->l.throttle, rl_effective_rate(r->l.rate, r->l.throttle),
	       r->passed, r->over);
}

/* Throttle profile @i changed at @ns: one event, then every limit that uses it. */
static void th_changed(struct sim *s, int i, u64 ns)
{
	const struct rl_throttle *th = &s->th[i].th;
	int r;

	printf("{\"ev\":\"throttle\",\"ms\":%llu,\"profile\":", (unsigned long long)(ns / RL_NSEC_PER_MSEC));
	jstr(s->th[i].name);
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

static void do_throttle(struct sim *s, int argc, char **argv)
{
	static const char usage[] =
		"usage: throttle add PROFILE hold SECS step PCT band LOAD:PCT [ LOAD:PCT ... ]";
	struct rl_throttle_conf c = { 0 };
	struct l2s_err err = { 0 };
	struct sim_th *t;
	int a;

	if (argc < 9 || strcmp(argv[1], "add") || strcmp(argv[3], "hold") ||
	    strcmp(argv[5], "step") || strcmp(argv[7], "band"))
		die(s, "%s", usage);
	if (strlen(argv[2]) >= L2S_NAME_LEN || find_th(s, argv[2]) >= 0)
		die(s, "throttle %s: the name is taken or longer than %d bytes", argv[2],
		    L2S_NAME_LEN - 1);
	if (s->nth == SIM_THROTTLES)
		die(s, "the simulator holds at most %d throttle profiles", SIM_THROTTLES);
	c.hold_ms = num(s, argv[4], 4294967, "hold seconds") * 1000;
	c.step = (u8)num(s, argv[6], 255, "revert step");
	for (a = 8; a < argc; a++) {
		char *colon = strchr(argv[a], ':');

		if (c.nbands == RL_BANDS_MAX)
			die(s, "throttle %s: at most %d bands", argv[2], RL_BANDS_MAX);
		if (!colon)
			die(s, "band \"%s\": LOAD:PCT", argv[a]);
		*colon = 0;
		c.band[c.nbands].load = (u8)num(s, argv[a], 255, "band load");
		c.band[c.nbands++].percent = (u8)num(s, colon + 1, 255, "band percent");
	}
	t = &s->th[s->nth];
	if (rl_throttle_init(&t->th, &c, &err))
		die(s, "throttle %s: %s", argv[2], err.msg);
	snprintf(t->name, sizeof(t->name), "%s", argv[2]);
	s->nth++;
}

static void do_ratelimit(struct sim *s, int argc, char **argv)
{
	struct l2s_err err = { 0 };
	struct sim_rl *r;
	u64 ns = s->now * RL_NSEC_PER_MSEC;

	if ((argc != 7 && argc != 9) || strcmp(argv[1], "add") || strcmp(argv[3], "rate") ||
	    strcmp(argv[5], "burst") || (argc == 9 && strcmp(argv[7], "throttle")))
		die(s, "usage: ratelimit add NAME rate R burst B [ throttle PROFILE ]");
	if (strlen(argv[2]) >= L2S_NAME_LEN || find_rl(s, argv[2]))
		die(s, "ratelimit %s: the name is taken or longer than %d bytes", argv[2],
		    L2S_NAME_LEN - 1);
	if (s->nrl == SIM_RL)
		die(s, "the simulator holds at most %d rate limits", SIM_RL);
	r = &s->rl[s->nrl];
	memset(r, 0, sizeof(*r));
	r->th = argc == 9 ? find_th(s, argv[8]) : -1;
	if (argc == 9 && r->th < 0)
		die(s, "no throttle profile %s", argv[8]);
	if (rl_init(&r->l, num(s, argv[4], 0xffffffffu, "rate"),
		    num(s, argv[6], 0xffffffffu, "burst"), ns, &err))
		die(s, "ratelimit %s: %s", argv[2], err.msg);
	if (r->th >= 0)
		rl_set_throttle(&r->l, s->th[r->th].th.percent, ns);
	snprintf(r->name, sizeof(r->name), "%s", argv[2]);
	s->nrl++;
}

static void do_load(struct sim *s, int argc, char **argv)
{
	u64 ns = s->now * RL_NSEC_PER_MSEC;
	u32 load;
	bool ch;
	int i;

	if (argc != 3 || strcmp(argv[1], "set"))
		die(s, "usage: load set PCT");
	load = num(s, argv[2], 100, "load");
	sim_rl_tick(s, ns);
	for (i = 0; i < s->nth; i++) {
		rl_throttle_update(&s->th[i].th, load, ns, &ch);
		if (ch)
			th_changed(s, i, ns);
	}
}

static void sim_advance(struct sim *s, u64 ms);

/* N requests at once, or at t0 + i × SECS / N; the throttles follow the clock. */
static void do_offer(struct sim *s, int argc, char **argv)
{
	u64 t0 = s->now * RL_NSEC_PER_MSEC, span = 0;
	struct sim_rl *r;
	u32 n, i, passed = 0;

	if ((argc != 3 && argc != 5) || (argc == 5 && strcmp(argv[3], "over")))
		die(s, "usage: offer NAME N [ over SECS ]");
	r = find_rl(s, argv[1]);
	if (!r)
		die(s, "no ratelimit %s", argv[1]);
	n = num(s, argv[2], 100000000, "count");
	if (argc == 5)
		span = (u64)num(s, argv[4], 86400, "seconds") * RL_NSEC_PER_SEC;
	for (i = 0; i < n; i++) {
		u64 t = t0 + span * i / n;

		sim_rl_tick(s, t);
		if (rl_admit(&r->l, t) == RL_PASS)
			passed++;
	}
	r->passed += passed;
	r->over += n - passed;
	printf("{\"ev\":\"offer\",\"ms\":%llu,\"ratelimit\":", (unsigned long long)s->now);
	jstr(r->name);
	printf(",\"offered\":%u,\"secs\":%llu,\"passed\":%u,\"over\":%u}\n", n,
	       (unsigned long long)(span / RL_NSEC_PER_SEC), passed, n - passed);
	if (span)
		sim_advance(s, span / RL_NSEC_PER_MSEC);
}

static void do_time(struct sim *s, int argc, char **argv)
{
	struct l2s_env env;

	if (argc != 3 || strcmp(argv[1], "advance"))
		die(s, "usage: time advance SECS");
	s->now += (u64)num(s, argv[2], 100000000, "seconds") * 1000;
	env = sim_env(s);
	l2s_lockout_expire(&s->core, &env);
	sim_rl_tick(s, s->now * RL_NSEC_PER_MSEC);
}

/* "offer ... over SECS" takes its time: the same as "time advance SECS". */
static void sim_advance(struct sim *s, u64 ms)
{
	struct l2s_env env;

	s->now += ms;
	env = sim_env(s);
	l2s_lockout_expire(&s->core, &env);
	sim_rl_tick(s, s->now * RL_NSEC_PER_MSEC);
}

static void run_line(struct sim *s, char *line)
{
	char *argv[CONF_MAX_ARGS];
	struct conf_cmd cmd;
	char err[256];
	int argc, rc;

	argc = conf_split(line, argv, CONF_MAX_ARGS);
	if (argc < 0)
		die(s, "too many words (at most %d)", CONF_MAX_ARGS);
	if (!argc)
		return;
	rc = conf_parse(argc, argv, &cmd, err, sizeof(err));
	if (rc < 0)
		die(s, "%s", err);
	if (rc == 0) {
		apply_conf(s, &cmd);
		return;
	}
	if (!strcmp(argv[0], "lns"))
		do_lns(s, argc, argv);
	else if (!strcmp(argv[0], "state"))
		do_state(s, argc, argv);
	else if (!strcmp(argv[0], "pick"))
		do_pick(s, argc, argv);
	else if (!strcmp(argv[0], "time"))
		do_time(s, argc, argv);
	else if (!strcmp(argv[0], "login"))
		do_login(s, argc, argv);
	else if (!strcmp(argv[0], "logout"))
		do_logout(s, argc, argv);
	else if (!strcmp(argv[0], "show"))
		do_show(s, argc, argv);
	else if (!strcmp(argv[0], "limit"))
		do_limit(s, argc, argv);
	else if (!strcmp(argv[0], "ratelimit"))
		do_ratelimit(s, argc, argv);
	else if (!strcmp(argv[0], "throttle"))
		do_throttle(s, argc, argv);
	else if (!strcmp(argv[0], "load"))
		do_load(s, argc, argv);
	else if (!strcmp(argv[0], "offer"))
		do_offer(s, argc, argv);
	else
		die(s, "unknown line \"%s\"", argv[0]);
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
		die(s, "pick at line %d was never used", s->pins[s->pin_head % SIM_PINS].line);
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
