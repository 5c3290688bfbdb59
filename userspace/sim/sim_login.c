// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpsel-sim's logins (sim.h): "login" walks the selection core step by
 * step against the LNS answers of "lns" lines, "logout" ends sessions,
 * "limit" turns on the LAC's admission check (S-LIM-1), "show sessions"
 * prints the counts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

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
		sim_die(s, "internal: chassis refused a session it had admitted");
}

/* A simulated session ends: the chassis counts one less (when limits are on). */
static void sim_release(struct sim *s)
{
	struct lim_path path = { 0 };

	if (!s->limits_on)
		return;
	path.slot[LIM_CHASSIS] = lim_chassis_slot(&s->chassis);
	if (lim_release(&path, NULL, NULL))
		sim_die(s, "internal: chassis count already 0");
}

/* limit set [ chassis-max N ] [ chassis N ] [ tunnel N ]: the CLI's grammar. */
void sim_do_limit(struct sim *s, int argc, char **argv)
{
	struct lim_chassis next = s->chassis;
	struct l2s_err err = { 0 };
	int i;

	if (argc < 4 || strcmp(argv[1], "set") || argc % 2)
		sim_die(s, "usage: limit set [ chassis-max N ] [ chassis N ] [ tunnel N ]");
	for (i = 2; i < argc; i += 2) {
		u32 v = sim_num(s, argv[i + 1], 0xffffffffu, argv[i]);

		if (!strcmp(argv[i], "chassis-max"))
			next.maximum = v;
		else if (!strcmp(argv[i], "chassis"))
			next.limit = v;
		else if (!strcmp(argv[i], "tunnel"))
			next.tunnel_limit = v;
		else
			sim_die(s, "limit set: \"%s\" is unknown: chassis-max, chassis or tunnel", argv[i]);
	}
	if (lim_check_value(&next, next.limit, "chassis", &err) ||
	    lim_check_value(&next, next.tunnel_limit, "tunnel", &err) ||
	    lim_set_maximum(&next, next.maximum, 0, &err))
		sim_die(s, "%s", err.msg);
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
		       sl->id, sl->st.level, p->t[sl->st.tunnel].name, sim_dest_str(s, sl->st.dest),
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
		out = sim_lns_answer(s, sl->st.dest);
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
		sim_die(s, "internal: step API returned %d", sl->rc);
	if (st->ok) {
		if (s->nlive == s->cap) {
			s->cap = s->cap ? 2 * s->cap : 64;
			s->live = realloc(s->live, s->cap * sizeof(*s->live));
			if (!s->live)
				sim_die(s, "out of memory");
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
		       id, p->t[st->tunnel].name, sim_dest_str(s, st->dest));
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
		sim_jstr(p->t[t].name);
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
		sim_die(s, "out of memory");
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

void sim_do_login(struct sim *s, int argc, char **argv)
{
	const char *user, *pname = NULL, *key = NULL;
	struct l2s_profile *p;
	struct tally tally;
	bool at_once = false;
	u32 count = 1, i;
	int a;

	if (argc < 2)
		sim_die(s, "usage: login USER [ profile PROFILE ] [ key KEY ] [ count N [ at-once ] ]");
	user = argv[1];
	for (a = 2; a < argc; a += 2) {
		if (!strcmp(argv[a], "at-once")) {
			at_once = true;
			a--;
			continue;
		}
		if (a + 1 >= argc)
			sim_die(s, "login: missing value after %s", argv[a]);
		if (!strcmp(argv[a], "profile"))
			pname = argv[a + 1];
		else if (!strcmp(argv[a], "key"))
			key = argv[a + 1];
		else if (!strcmp(argv[a], "count"))
			count = sim_num(s, argv[a + 1], 10000000, "count");
		else
			sim_die(s, "login: unknown option \"%s\"", argv[a]);
	}
	/* A profile named by the login wins over the domain map (S-OBJ-4). */
	if (!pname)
		pname = l2s_domain_lookup(&s->core, user);
	p = pname ? sim_find_profile(s, pname) : NULL;
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
			sim_jstr(p->t[i].name);
			printf(":%u", tally.per_tunnel[i]);
			first = false;
		}
		printf("}}\n");
	}
}

void sim_do_logout(struct sim *s, int argc, char **argv)
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
			sim_die(s, "usage: logout tunnel NAME [ profile PROFILE ]");
		t = sim_find_tunnel(s, argv[2], pname, &p);
		/* Prefer a simulated login's session, else a preset one. */
		for (i = s->nlive; i-- > 0;) {
			if (s->live[i].prof == p && s->live[i].tunnel == t) {
				s->live[i] = s->live[--s->nlive];
				sim_release(s);
				break;
			}
		}
		if (l2s_tunnel_session_down(&s->core, p, (u32)t))
			sim_die(s, "tunnel %s has no session to log out", argv[2]);
		printf("{\"ev\":\"logout\",\"tunnel\":\"%s\",\"dest\":\"%s\"}\n",
		       p->t[t].name, sim_dest_str(s, p->t[t].dest));
		return;
	}
	if (argc != 2)
		sim_die(s, "usage: logout { LOGIN | tunnel NAME [ profile PROFILE ] }");
	id = sim_num(s, argv[1], 0xffffffffu, "login");
	for (i = 0; i < s->nlive; i++) {
		if (s->live[i].login != id)
			continue;
		p = s->live[i].prof;
		t = s->live[i].tunnel;
		s->live[i] = s->live[--s->nlive];
		sim_release(s);
		if (l2s_tunnel_session_down(&s->core, p, (u32)t))
			sim_die(s, "internal: session count of %s already 0", p->t[t].name);
		printf("{\"ev\":\"logout\",\"login\":%u,\"tunnel\":\"%s\",\"dest\":\"%s\"}\n",
		       id, p->t[t].name, sim_dest_str(s, p->t[t].dest));
		return;
	}
	sim_die(s, "login %u has no live session", id);
}

/* "show sessions": each tunnel's count and its destination's. */
void sim_show_sessions(struct sim *s)
{
	int i, t;

	for (i = 0; i < s->nprof; i++) {
		const struct l2s_profile *p = s->prof[i];

		for (t = 0; t < p->ntunnels; t++) {
			const struct l2s_tunnel *tu = &p->t[t];

			printf("{\"ev\":\"sessions\",\"profile\":\"%s\",\"tunnel\":\"%s\",\"count\":%u,\"dest\":\"%s\",\"dest_count\":%u",
			       p->name, tu->name, tu->sessions, sim_dest_str(s, tu->dest),
			       l2s_dest_at(&s->core, tu->dest)->sessions);
			/* S-OPS-1: only when drained, so that older traces read the same */
			if (l2s_tunnel_drained(&s->core, tu))
				printf(",\"drain\":\"%s\"", l2s_tunnel_load(tu) ? "draining" : "drained");
			printf("}\n");
		}
	}
}
