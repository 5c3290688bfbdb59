// SPDX-License-Identifier: GPL-2.0
/*
 * "kernel none": selection and admission by the selection core (core/)
 * inside the agent, without the l2tpsel module; for the host tests and for
 * a control-plane-only agent.  The same core/ files the module runs decide:
 * the walk (lockout, DLNC, failover), load balancing and the session limits.
 *
 * The route lines are its configuration (Documentation/l2tpseld.md): each
 * profile they name is a profile of the core whose tunnels are its own and
 * the "*" lines, in file order, the n-th at preference level n (failover
 * between levels, so a login tries them in order, one each); a profile no
 * line names has the "*" lines alone.  A login without a profile uses the
 * first line's.  test-chassis-limit is the chassis limit.  When the route lines
 * change (SIGHUP) a new core is built; logins and sessions finish on the one
 * they began on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/l2tpsel.h>

#include "hash.h"
#include "kernel_none.h"
#include "kernel.h"
#include "l2d.h"
#include "lac.h"
#include "lim.h"
#include "radius.h"
#include "sel.h"
#include "session.h"

_Static_assert((int)L2TPSEL_OUTCOME_LOCAL == (int)L2S_OUT_LOCAL, "outcomes are the core's");
_Static_assert((int)L2TPSEL_WHY_ADMISSION == (int)L2S_FAIL_ADMISSION, "reasons are the core's");
_Static_assert((int)L2TPSEL_WHY_DRAINED == (int)L2S_FAIL_DRAINED, "reasons are the core's");
_Static_assert((int)L2TPSEL_LEVEL_PASS == (int)LIM_PASS, "levels are the core's");

/* One core built from the route lines, shared by the logins and sessions begun on it. */
struct kc_inst {
	struct l2s_core core;
	struct l2s_profile prof[L2D_MAX_ROUTES + 1];	/* last: the "*" lines alone */
	unsigned int nprof;
	struct l2d_route routes[L2D_MAX_ROUTES];	/* what it was built from */
	unsigned int n_routes;
	unsigned int refs;		/* being current, logins, sessions */
};

/* A login in progress: its instance, profile and the core's walk. */
struct kc_login {
	struct kc_inst *in;
	struct l2s_profile *p;
	struct l2s_profile *own;	/* RADIUS's tunnel set, or NULL */
	char pname[L2D_NAME_MAX];	/* the profile the steps name */
	struct l2s_login walk;
};

/* A counted session: the chassis, and for a LAC login its tunnel. */
struct kc_sess {
	struct kc_sess *next;
	uint64_t key;
	struct kc_inst *in;		/* NULL: admission only (LNS) */
	struct l2s_profile *p;
	struct l2s_profile *own;	/* the login's tunnel set, freed with it */
	uint64_t tuid;
};

#define KC_BUCKETS	1024

struct kcore {
	struct kc_inst *cur;
	struct lim_chassis ch;
	struct kc_sess *sess[KC_BUCKETS];
	uint32_t next_set;
	char errmsg[160];
};

static void addr_of(const struct sockaddr_storage *ss, struct l2s_addr *a, uint16_t *port)
{
	memset(a, 0, sizeof(*a));
	if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *s = (const void *)ss;

		a->family = 4;
		memcpy(a->bytes, &s->sin_addr, 4);
		if (port)
			*port = ntohs(s->sin_port);
	} else if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *s = (const void *)ss;

		a->family = 6;
		memcpy(a->bytes, &s->sin6_addr, 16);
		if (port)
			*port = ntohs(s->sin6_port);
	}
}

static void sockaddr_of(const struct l2s_addr *a, uint16_t port, struct l2d_addr *out)
{
	l2d_addr_set(out, a->bytes, a->family == 4 ? 4 : a->family == 6 ? 16 : 0, port);
}

/* A named profile among the first @n of @in (the "*" one is never found). */
static struct l2s_profile *inst_find(struct kc_inst *in, const char *name, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(in->prof[i].name, name))
			return &in->prof[i];
	return NULL;
}

/* Profile @p gets the route lines of @name (NULL: the "*" lines alone), level by order. */
static int inst_fill(struct kc_inst *in, struct l2s_profile *p, const char *name,
		     struct l2s_err *err)
{
	unsigned int i, level = 0;
	int ret;

	for (i = 0; i < in->n_routes; i++) {
		const struct l2d_route *r = &in->routes[i];
		struct l2s_tunnel_conf tc = { .name = r->tunnel };

		if (strcmp(r->profile, "*") && (!name || strcmp(r->profile, name)))
			continue;
		if (level >= L2S_LEVELS)
			return L2S_REFUSE(-EINVAL, err,
					  "route: profile %s: at most %u lines (the core's preference levels)",
					  name ? name : "*", L2S_LEVELS);
		tc.level = level++;
		addr_of(&r->remote, &tc.dest.remote, &tc.dest.port);
		if (r->local_len)
			addr_of(&r->local, &tc.dest.local, NULL);
		ret = l2s_tunnel_add(&in->core, p, &tc, err);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static void inst_free(struct kc_inst *in)
{
	unsigned int i;

	for (i = 0; i < in->nprof; i++)
		l2s_profile_release(&in->core, &in->prof[i]);
	l2s_core_release(&in->core);
	free(in);
}

static void inst_put(struct kc_inst *in)
{
	if (in && !--in->refs)
		inst_free(in);
}

/* A core for the route lines of @c, or NULL with @err set. */
static struct kc_inst *inst_build(const struct l2d_conf *c, struct l2s_err *err)
{
	struct kc_inst *in = calloc(1, sizeof(*in));
	unsigned int i;

	if (!in) {
		l2s_errs(err, "out of memory");
		return NULL;
	}
	l2s_core_init(&in->core, NULL, L2S_DESTS_MAX);
	memcpy(in->routes, c->routes, sizeof(c->routes[0]) * c->n_routes);
	in->n_routes = c->n_routes;
	for (i = 0; i < c->n_routes; i++) {
		const char *name = c->routes[i].profile;

		if (!strcmp(name, "*") || inst_find(in, name, in->nprof))
			continue;
		if (l2s_profile_check_name(name, err))
			goto fail;
		l2s_profile_init(&in->prof[in->nprof++], name);
	}
	l2s_profile_init(&in->prof[in->nprof++], "default");
	for (i = 0; i < in->nprof; i++)
		if (inst_fill(in, &in->prof[i], i + 1 < in->nprof ? in->prof[i].name : NULL, err))
			goto fail;
	in->refs = 1;
	return in;
fail:
	inst_free(in);
	return NULL;
}

int l2d_kernel_none_check(const struct l2d_conf *c, char *errbuf, size_t errlen)
{
	struct l2s_err err = { 0 };
	struct kc_inst *in;

	if (c->kernel != L2D_KERNEL_NONE)
		return 0;
	in = inst_build(c, &err);
	if (!in) {
		snprintf(errbuf, errlen, "%s", err.msg);
		return -1;
	}
	inst_free(in);
	return 0;
}

/* A new core takes the old one's drain marks (S-OPS-1): tunnels by profile and name, destinations by key. */
static void inst_drain_carry(struct kc_inst *to, const struct kc_inst *from)
{
	const struct l2s_dest *dst;
	unsigned int i, j;
	int t, slot;

	for (i = 0; i < to->nprof; i++) {
		struct l2s_profile *p = &to->prof[i];

		for (j = 0; j < from->nprof && strcmp(from->prof[j].name, p->name); j++)
			;
		if (j == from->nprof)
			continue;
		for (t = 0; t < p->ntunnels; t++) {
			int o = l2s_tunnel_find(&from->prof[j], p->t[t].name);

			if (o >= 0)
				p->t[t].drain = from->prof[j].t[o].drain;
		}
	}
	for (i = 0; (dst = l2s_dest_walk(&from->core, i)); i++) {
		if (!dst->refs || !l2s_dest_drained(&from->core, i))
			continue;
		slot = l2s_dest_find(&to->core, &dst->key);
		if (slot >= 0)
			l2s_dest_set_drain(&to->core, (u32)slot, true);
	}
}

static struct kcore *kc_of(struct l2d *d)
{
	struct kcore *k = d->kctx;

	if (!k) {
		k = calloc(1, sizeof(*k));
		if (!k)
			return NULL;
		lim_chassis_init(&k->ch);
		d->kctx = k;
	}
	/* the route lines changed (SIGHUP): a new core from now on */
	if (!k->cur || k->cur->n_routes != d->conf->n_routes ||
	    memcmp(k->cur->routes, d->conf->routes, sizeof(d->conf->routes[0]) * d->conf->n_routes)) {
		struct l2s_err err = { 0 };
		struct kc_inst *in = inst_build(d->conf, &err);

		if (!in) {
			l2d_log(d, L2D_LOG_ERR, "kernel none: %s", err.msg);
			return NULL;
		}
		if (k->cur)
			inst_drain_carry(in, k->cur);
		inst_put(k->cur);
		k->cur = in;
	}
	k->ch.limit = d->conf->test_chassis_limit;
	return k;
}

/**
 * l2d_kernel_none_drain() - kernel none: drain tunnels or destinations (S-OPS-1)
 * @d: the agent
 * @dest: @what is a remote address (every destination with it), else a
 *        tunnel name (in every profile of the route lines)
 * @what: the name or address
 * @on: drain, or end the drain
 * @err: the refusal
 * @errlen: its room
 *
 * Selection then passes them over as the module's does; sessions stay.
 *
 * Return: how many tunnels or destinations matched, or -1 with @err.
 */
int l2d_kernel_none_drain(struct l2d *d, bool dest, const char *what, bool on, char *err,
			  size_t errlen)
{
	struct kcore *k = kc_of(d);
	struct sockaddr_storage ss;
	struct l2s_dest_key key;
	socklen_t len;
	unsigned int i, n = 0;
	int t;

	if (!k) {
		snprintf(err, errlen, "kernel none: no core");
		return -1;
	}
	if (dest) {
		if (l2d_parse_addr(what, 0, &ss, &len)) {
			snprintf(err, errlen, "\"%s\" is not an address", what);
			return -1;
		}
		memset(&key, 0, sizeof(key));
		addr_of(&ss, &key.remote, NULL);
		n = l2s_dest_drain_match(&k->cur->core, &key, false, false, on);
	} else {
		for (i = 0; i < k->cur->nprof; i++) {
			t = l2s_tunnel_find(&k->cur->prof[i], what);
			if (t >= 0) {
				k->cur->prof[i].t[t].drain = on;
				n++;
			}
		}
	}
	if (!n)
		snprintf(err, errlen, "no %s %s in the route lines", dest ? "destination" : "tunnel",
			 what);
	return n ? (int)n : -1;
}

uint32_t l2d_kernel_none_sessions(struct l2d *d)
{
	struct kcore *k = d->kctx;

	return k ? k->ch.count : 0;
}

uint32_t l2d_kernel_none_in_flight(struct l2d *d)
{
	struct kcore *k = d->kctx;
	const struct l2s_dest *dst;
	uint32_t i, n = 0;

	for (i = 0; k && k->cur && (dst = l2s_dest_walk(&k->cur->core, i)); i++)
		n += dst->inflight;
	return n;
}

/* What the core's callbacks get: the agent and the instance of the call. */
struct kc_ctx {
	struct l2d *d;
	struct kc_inst *in;
};

static u32 kc_rand(void *ctx, const struct l2s_draw *dr)
{
	struct l2d *d = ((struct kc_ctx *)ctx)->d;
	uint32_t v;

	if (d->env && d->env->random)
		d->env->random(d, &v, sizeof(v));
	else
		v = (uint32_t)random();
	return dr->bound ? v % dr->bound : 0;
}

static void kc_event(void *ctx, const struct l2s_event *ev)
{
	static const char *const why[] = { "?", "DLNC", "shortest", "cleared", "expired" };
	struct kc_ctx *c = ctx;
	struct l2s_dest *dst = l2s_dest_at(&c->in->core, ev->dest);
	struct l2d_addr a;
	char s[64];

	if (ev->kind == L2S_EV_LOCKOUT)
		dst->failures++;	/* as the module counts them */

	sockaddr_of(&dst->key.remote, dst->key.port, &a);
	l2d_addr_str(&a, s, sizeof(s), true);
	if (ev->kind == L2S_EV_LOCKOUT)
		l2d_log(c->d, L2D_LOG_INFO, "kernel none: destination %s locked out for %u ms", s,
			ev->ms);
	else if (ev->kind == L2S_EV_UNLOCK)
		l2d_log(c->d, L2D_LOG_INFO, "kernel none: destination %s unlocked (%s)", s,
			why[ev->why < L2S_ARRAY_SIZE(why) ? ev->why : 0]);
}

static struct l2s_env kc_env(struct kc_ctx *c)
{
	/* the event loop's clock: a lockout lasts its time in simulated time too */
	struct l2s_env env = { .now = l2d_now(c->d->loop), .rand = kc_rand, .event = kc_event,
			       .ctx = c };

	return env;
}

/* The core's step as the agent's. */
static void step_of(const struct kc_login *kl, const struct l2s_step *cs, struct l2d_step *st)
{
	memset(st, 0, sizeof(*st));
	snprintf(st->profile, sizeof(st->profile), "%s", kl->pname);
	if (cs->tunnel != L2S_NO_INDEX) {
		const struct l2s_tunnel *t = &kl->p->t[cs->tunnel];
		const struct l2s_dest *dst = l2s_dest_at(&kl->in->core, t->dest);

		snprintf(st->tunnel, sizeof(st->tunnel), "%s", t->name);
		sockaddr_of(&dst->key.remote, dst->key.port, &st->remote);
		if (dst->key.local.family) {
			sockaddr_of(&dst->key.local, 0, &st->local);
			st->has_local = true;
		}
		st->level = t->level;
	}
	if (cs->kind == L2S_STEP_ATTEMPT)
		l2s_dest_at(&kl->in->core, cs->dest)->attempts++;	/* as the module counts them */
	if (cs->kind == L2S_STEP_DONE) {
		st->done = true;
		st->ok = cs->ok;
		st->why = cs->why;
		return;
	}
	st->setup = cs->setup;
	st->shortest = cs->shortest;
}

/* RADIUS's tunnel set as a profile of its own ("~N"), as LOGIN_BEGIN TUNNELS makes. */
static int own_set(struct kcore *k, struct kc_login *kl, const struct l2d_login *lg,
		   struct l2s_err *err)
{
	unsigned int i;
	int ret;

	kl->own = calloc(1, sizeof(*kl->own));
	if (!kl->own)
		return L2S_REFUSE(-ENOMEM, err, "out of memory");
	snprintf(kl->pname, sizeof(kl->pname), "~%u", ++k->next_set);
	l2s_profile_init(kl->own, kl->pname);
	kl->p = kl->own;
	for (i = 0; i < lg->nset; i++) {
		const struct rad_set_entry *e = &lg->set[i];
		struct l2s_tunnel_conf tc = { .name = e->name, .secret = e->secret,
					      .level = e->level };
		struct l2s_addr *r = &tc.dest.remote, *l = &tc.dest.local;

		tc.dest.port = L2S_DEFAULT_PORT;
		r->family = inet_pton(AF_INET, e->remote, r->bytes) == 1 ? 4 :
			    inet_pton(AF_INET6, e->remote, r->bytes) == 1 ? 6 : 0;
		if (e->local[0])
			l->family = inet_pton(AF_INET, e->local, l->bytes) == 1 ? 4 :
				    inet_pton(AF_INET6, e->local, l->bytes) == 1 ? 6 : 0;
		ret = l2s_tunnel_add(&kl->in->core, kl->own, &tc, err);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static void own_free(struct kc_inst *in, struct l2s_profile *own)
{
	if (!own)
		return;
	l2s_profile_release(&in->core, own);
	free(own);
}

/*
 * Every login ends here, done or not (l2d_login_free()): one whose attempt
 * was never reported (the client gone before its session, an abort, the
 * agent shutting down) gives its place on the tunnel back (S-STORM-2).
 */
static void kc_login_end(struct l2d *d, struct l2d_login *lg)
{
	struct kc_login *kl = lg->kstate;

	if (!kl)
		return;
	if (kl->p)
		l2s_sel_end(&kl->walk, &kl->in->core, kl->p);
	own_free(kl->in, kl->own);
	inst_put(kl->in);
	free(kl);
	lg->kstate = NULL;
}

/* test-ratelimit-verdict: a fixed verdict per message type, for tests (no rate limits are configured) */
static int kc_rl_check(struct l2d *d, const struct l2d_rlreq *q, struct l2d_rlans *a)
{
	_Static_assert(L2D_RL_MSGS == L2TPSEL_RL_MSG_PPPOE + 1, "one test verdict per type");
	memset(a, 0, sizeof(*a));
	a->verdict = q->msg < L2D_RL_MSGS ? d->conf->test_rl_verdict[q->msg] : 0;
	if (a->verdict) {
		a->result = 2;
		a->error = 4;
		strcpy(a->message, "rate limit exceeded");
		strcpy(a->name, "test-ratelimit-verdict");
	}
	return 0;
}

/*
 * A login's own rate-limit checks, as the module makes them with RL_ASK:
 * the login's before it begins, the attempt's with every ATTEMPT step.
 */
static bool kc_rl_login(struct l2d *d, const struct l2d_login *lg, struct l2d_step *st)
{
	const char *at = strrchr(lg->user, '@');
	struct l2d_rlreq q = { .dir = L2TPSEL_RL_INGRESS, .msg = L2TPSEL_RL_MSG_LOGIN,
			       .domain = at && at[1] ? at + 1 : NULL,
			       .profile = lg->profile[0] ? lg->profile : NULL };

	memset(st, 0, sizeof(*st));
	if (d->conf->ratelimit)
		kc_rl_check(d, &q, &st->rl_login);
	return st->rl_login.verdict != L2TPSEL_RL_PASS;
}

static void kc_rl_attempt(struct l2d *d, struct l2d_step *st)
{
	struct l2d_rlreq q = { .dir = L2TPSEL_RL_EGRESS, .msg = L2TPSEL_RL_MSG_ATTEMPT,
			       .remote = &st->remote, .profile = st->profile[0] ? st->profile : NULL };

	if (d->conf->ratelimit && !st->done)
		kc_rl_check(d, &q, &st->rl_attempt);
}

static int kc_begin(struct l2d *d, struct l2d_login *lg, struct l2d_step *st)
{
	struct kcore *k = kc_of(d);
	struct kc_ctx ctx = { .d = d };
	struct l2s_err err = { 0 };
	struct l2s_env env;
	struct l2s_step cs;
	struct kc_login *kl;
	const char *key;
	int ret;

	if (kc_rl_login(d, lg, st))
		return 0;	/* refused: no login */
	if (!k || !(kl = calloc(1, sizeof(*kl))))
		return -ENOMEM;
	kl->in = k->cur;
	kl->in->refs++;
	lg->kstate = kl;
	ctx.in = kl->in;
	if (lg->nset) {
		ret = own_set(k, kl, lg, &err);
		if (ret) {
			snprintf(k->errmsg, sizeof(k->errmsg), "%s", err.msg);
			kc_login_end(d, lg);
			return ret;
		}
	} else {
		/* no profile: the first route line's (the module would ask its domain map) */
		snprintf(kl->pname, sizeof(kl->pname), "%s", lg->profile[0] ? lg->profile :
			 kl->in->n_routes && strcmp(kl->in->routes[0].profile, "*") ?
			 kl->in->routes[0].profile : "default");
		kl->p = inst_find(kl->in, kl->pname, kl->in->nprof - 1);
		if (!kl->p)
			kl->p = &kl->in->prof[kl->in->nprof - 1];
	}
	/* the hash key, as the module's: KEY, else USER, else the profile */
	key = lg->key[0] ? lg->key : lg->user[0] ? lg->user : kl->pname;
	env = kc_env(&ctx);
	l2s_sel_begin(&kl->walk, &kl->in->core, kl->p, l2s_hash_key(key, (u32)strlen(key)),
		      &env, &cs);
	step_of(kl, &cs, st);
	kc_rl_attempt(d, st);
	return 0;
}

static struct kc_sess **sess_slot(struct kcore *k, uint64_t key)
{
	struct kc_sess **pp = &k->sess[(key ^ key >> 32) % KC_BUCKETS];

	while (*pp && (*pp)->key != key)
		pp = &(*pp)->next;
	return pp;
}

/* Admit and count session @key at the chassis (S-LIM-1; the only limit configured). */
static int kc_admit(struct kcore *k, uint64_t key, bool lns, struct l2d_admit *a,
		    struct kc_sess **out)
{
	struct lim_path path = { 0 };
	struct kc_sess **pp = sess_slot(k, key), *s;

	memset(a, 0, sizeof(*a));
	if (*pp)
		return -EEXIST;
	path.slot[LIM_CHASSIS] = lim_chassis_slot(&k->ch);
	a->level = lim_admit(&path, lns ? LIM_ROLE_LNS : LIM_ROLE_LAC, NULL, NULL, NULL);
	a->pass = a->level == LIM_PASS;
	if (!a->pass) {
		a->result = LIM_CDN_RESULT;
		a->error = LIM_CDN_ERROR;
		return 0;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		lim_release(&path, NULL, NULL);
		return -ENOMEM;
	}
	s->key = key;
	*pp = s;
	*out = s;
	return 0;
}

static int kc_report(struct l2d *d, struct l2d_login *lg, unsigned int outcome,
		     uint16_t result, uint16_t error, struct l2d_step *st)
{
	struct kc_login *kl = lg->kstate;
	struct l2s_outcome o = { .kind = (u8)outcome, .result = result, .error = error };
	struct kcore *k = kc_of(d);
	struct kc_ctx ctx = { .d = d };
	struct kc_sess *s = NULL;
	struct l2s_env env;
	struct l2s_step cs;
	int ret;

	if (!k || !kl)
		return -ENOENT;
	ctx.in = kl->in;
	env = kc_env(&ctx);
	l2s_sel_report(&kl->walk, &kl->in->core, kl->p, &o, &env, &cs);
	step_of(kl, &cs, st);
	kc_rl_attempt(d, st);
	if (outcome != L2TPSEL_OUTCOME_OK || !cs.ok || !lg->s)
		return 0;
	/*
	 * as the module: counted for selection (by the core, just now: the
	 * attempt's place became the session) and admission at once
	 */
	ret = kc_admit(k, lg->s->key, false, &st->admit, &s);
	if (!ret && st->admit.pass) {
		s->in = kl->in;
		s->in->refs++;
		s->p = kl->p;
		s->tuid = kl->p->t[cs.tunnel].uid;
		s->own = kl->own;
		kl->own = NULL;
		return 0;
	}
	l2s_tunnel_session_down(&kl->in->core, kl->p, cs.tunnel);
	st->ok = false;
	st->why = L2TPSEL_WHY_ADMISSION;
	return ret;
}

static int kc_session_up(struct l2d *d, struct l2d_session *s, struct l2d_admit *a)
{
	struct kcore *k = kc_of(d);
	struct kc_sess *ks;

	if (!k)
		return -ENOMEM;
	return kc_admit(k, s->key, !s->initiator, a, &ks);
}

static int kc_session_down(struct l2d *d, uint64_t key)
{
	struct kcore *k = d->kctx;
	struct lim_path path = { 0 };
	struct kc_sess **pp, *s;
	unsigned int i;

	if (!k || !*(pp = sess_slot(k, key)))
		return -ENOENT;
	s = *pp;
	*pp = s->next;
	path.slot[LIM_CHASSIS] = lim_chassis_slot(&k->ch);
	lim_release(&path, NULL, NULL);
	for (i = 0; s->in && i < s->p->ntunnels; i++)
		if (s->p->t[i].uid == s->tuid)
			l2s_tunnel_session_down(&s->in->core, s->p, i);
	if (s->in) {
		own_free(s->in, s->own);
		inst_put(s->in);
	}
	free(s);
	return 0;
}

static void kc_fini(struct l2d *d)
{
	struct kcore *k = d->kctx;
	unsigned int i;

	if (!k)
		return;
	for (i = 0; i < KC_BUCKETS; i++)
		while (k->sess[i])
			kc_session_down(d, k->sess[i]->key);
	inst_put(k->cur);
	free(k);
	d->kctx = NULL;
}

static const char *kc_errmsg(struct l2d *d)
{
	struct kcore *k = d->kctx;

	return k && k->errmsg[0] ? k->errmsg : NULL;
}

/* The current core's destinations, as the module's DEST_GET gives them. */
static int kc_dests(struct l2d *d, l2d_dest_fn fn, void *ctx)
{
	struct kcore *k = d->kctx;
	const struct l2s_dest *dst;
	uint64_t now = l2d_now(d->loop);
	uint32_t i;

	for (i = 0; k && k->cur && (dst = l2s_dest_walk(&k->cur->core, i)); i++) {
		struct l2d_dest_info di = { .port = dst->key.port };
		struct l2d_addr a;
		uint64_t left = dst->lock_until > now ? dst->lock_until - now : 0;

		if (!dst->refs)
			continue;
		sockaddr_of(&dst->key.remote, 0, &a);
		l2d_addr_str(&a, di.remote, sizeof(di.remote), false);
		if (dst->key.local.family) {
			sockaddr_of(&dst->key.local, 0, &a);
			l2d_addr_str(&a, di.local, sizeof(di.local), false);
		}
		di.lockout_ms = left > UINT32_MAX ? UINT32_MAX : (uint32_t)left;
		di.sessions = dst->sessions;
		di.in_flight = dst->inflight;
		di.tunnels = dst->refs;
		di.attempts = dst->attempts;
		di.failures = dst->failures;
		fn(ctx, &di);
	}
	return 0;
}

const struct l2d_kops l2d_kops_none = {
	.name = "none",
	.login_begin = kc_begin,
	.login_report = kc_report,
	.login_end = kc_login_end,
	.session_up = kc_session_up,
	.session_down = kc_session_down,
	.fini = kc_fini,
	.errmsg = kc_errmsg,
	.rl_check = kc_rl_check,
	.dests = kc_dests,
};
