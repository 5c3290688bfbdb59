// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * One login's walk through a tunnel profile (S-SEL-1..11), after the LAC
 * tunnel-selection chapter (reference 000/002, "Selection When Failover ...").
 *
 * Per visit of a level:
 *   1. valid = destinations reachable through a tunnel below max-sessions
 *      (S-SEL-10), not drained (S-OPS-1), and not contacted in this login;
 *   2. every locked valid destination goes on DLNC (S-SEL-2);
 *   3. among the tunnels to unlocked valid destinations the load balancer
 *      picks one to attempt (S-SEL-2, S-LB-*); in between-levels mode only
 *      once per visit (S-SEL-5), in within-level mode until none is left
 *      (S-SEL-6);
 *   4. otherwise drop a level (S-SEL-7), or at the lowest level apply
 *      S-SEL-8 (shortest lockout, only when the level was entered with more
 *      than one valid destination, all locked) and S-SEL-9 (unlock DLNC and
 *      restart, or fail).
 *
 * A login in flight holds a place on the tunnel and destination of its
 * attempt from the pick to the report (or l2s_sel_end()): load balancing
 * and max-sessions count it as a session there (S-STORM-1, S-STORM-2).  The
 * report gives the place back before the walk goes on, so a login never
 * sees its own place, and one login alone walks as without places.
 */
#include "sel.h"
#include "lb.h"

enum {
	LS_IDLE = 0,
	LS_WALK,
	LS_ATTEMPT,
	LS_DONE,
};

static void emit(const struct l2s_env *env, const struct l2s_login *lg,
		 u8 kind, u8 why, u16 dest, u32 ms)
{
	struct l2s_event ev = {
		.kind = kind, .why = why, .dest = dest, .ms = ms, .login = lg,
	};

	if (env->event)
		env->event(env->ctx, &ev);
}

static int done(struct l2s_login *lg, struct l2s_step *st, bool ok, u8 why)
{
	memset(st, 0, sizeof(*st));
	st->kind = L2S_STEP_DONE;
	st->ok = ok;
	st->why = ok ? L2S_FAIL_NONE : why;
	st->tunnel = L2S_NO_INDEX;
	st->dest = L2S_NO_INDEX;
	lg->state = LS_DONE;
	return L2S_STEP_DONE;
}

static int attempt(struct l2s_login *lg, struct l2s_core *c, struct l2s_profile *p,
		   u32 t, bool shortest, struct l2s_step *st)
{
	const struct l2s_tunnel *tun = &p->t[t];

	lg->tunnel = (u16)t;
	lg->tuid = tun->uid;
	lg->level = p->levels[lg->lvl].level;
	lg->state = LS_ATTEMPT;
	lg->tried_here++;
	lg->attempts++;
	/* Contacted from now on; an unlocked DLNC member leaves DLNC. */
	lg->contacted |= 1u << tun->pdest;
	lg->dlnc &= ~(1u << tun->pdest);
	memset(st, 0, sizeof(*st));
	st->kind = L2S_STEP_ATTEMPT;
	st->level = tun->level;
	st->setup = tun->sessions == 0;
	st->shortest = shortest;
	st->tunnel = (u16)t;
	st->dest = tun->dest;
	/* Its place, until the report or l2s_sel_end() (S-STORM-2). */
	l2s_tunnel_reserve(c, p, t);
	return L2S_STEP_ATTEMPT;
}

/* S-SEL-8: the locked valid destination with the shortest remaining lockout. */
static int attempt_shortest(struct l2s_login *lg, struct l2s_core *c,
			    struct l2s_profile *p, u32 valid,
			    const struct l2s_env *env, struct l2s_step *st)
{
	u32 first = p->levels[lg->lvl].first, cnt = p->levels[lg->lvl].count;
	u8 cand[L2S_TUNNELS_PER_PROFILE];
	u32 i, n = 0, best = 0;
	u64 best_until = 0;
	bool have = false;
	int t;

	for (i = 0; i < p->ndests; i++) {
		u64 until = l2s_dest_at(c, p->pdest[i])->lock_until;

		if (!(valid & (1u << i)))
			continue;
		if (!have || until < best_until) {
			best = i;
			best_until = until;
			have = true;
		}
	}
	l2s_dest_at(c, p->pdest[best])->lock_until = 0;
	emit(env, lg, L2S_EV_UNLOCK, L2S_UNLOCK_SHORTEST, p->pdest[best], 0);
	lg->dlnc &= ~(1u << best);
	for (i = first; i < first + cnt; i++)
		if (p->t[i].pdest == best && !l2s_tunnel_full(&p->t[i]) &&
		    !l2s_tunnel_drained(c, &p->t[i]))
			cand[n++] = (u8)i;
	t = l2s_lb_pick(c, p, lg->lvl, cand, n, lg->key, env);
	return attempt(lg, c, p, (u32)t, true, st);
}

static int walk(struct l2s_login *lg, struct l2s_core *c,
		struct l2s_profile *p, const struct l2s_env *env,
		struct l2s_step *st)
{
	u8 cand[L2S_TUNNELS_PER_PROFILE];

	lg->state = LS_WALK;
	for (;;) {
		u32 first, cnt, i, n = 0, valid = 0;
		bool lowest;

		if (lg->lvl >= p->nlevels)
			return done(lg, st, false, L2S_FAIL_NO_TUNNELS);
		first = p->levels[lg->lvl].first;
		cnt = p->levels[lg->lvl].count;
		lowest = lg->lvl + 1u == p->nlevels;

		for (i = first; i < first + cnt; i++) {
			const struct l2s_tunnel *t = &p->t[i];
			u32 bit = 1u << t->pdest;

			if (l2s_tunnel_full(t) || (lg->contacted & bit))
				continue;	/* not valid through this tunnel */
			if (l2s_tunnel_drained(c, t)) {
				lg->drained = 1;	/* S-OPS-1: as if full */
				continue;
			}
			valid |= bit;
			if (l2s_dest_locked(l2s_dest_at(c, t->dest), env->now)) {
				if (!(lg->dlnc & bit)) {
					lg->dlnc |= bit;
					emit(env, lg, L2S_EV_DLNC, 0, t->dest, 0);
				}
				continue;
			}
			cand[n++] = (u8)i;
		}

		if (n && (p->failover == L2S_FAILOVER_WITHIN_LEVEL || !lg->tried_here)) {
			int t = l2s_lb_pick(c, p, lg->lvl, cand, n, lg->key, env);

			return attempt(lg, c, p, (u32)t, false, st);
		}
		if (!lowest) {
			lg->lvl++;
			lg->tried_here = 0;
			continue;
		}
		/* Lowest level, nothing (more) to attempt here. */
		if (!lg->tried_here && l2s_popcount(valid) > 1)
			return attempt_shortest(lg, c, p, valid, env, st);
		if (!lg->dlnc)
			return done(lg, st, false, lg->drained && !lg->attempts ?
				    L2S_FAIL_DRAINED : L2S_FAIL_EXHAUSTED);
		if (lg->restarts >= L2S_MAX_RESTARTS)
			return done(lg, st, false, L2S_FAIL_RESTARTS);
		for (i = 0; i < p->ndests; i++) {
			struct l2s_dest *d = l2s_dest_at(c, p->pdest[i]);

			if (!(lg->dlnc & (1u << i)))
				continue;
			if (l2s_dest_locked(d, env->now))
				emit(env, lg, L2S_EV_UNLOCK, L2S_UNLOCK_DLNC,
				     p->pdest[i], 0);
			d->lock_until = 0;
		}
		lg->dlnc = 0;
		lg->lvl = 0;
		lg->tried_here = 0;
		lg->restarts++;
	}
}

/* The profile version the login's indexes refer to from now on. */
static void remember(struct l2s_login *lg, const struct l2s_profile *p)
{
	lg->gen = p->gen;
	lg->ndests = p->ndests;
	memcpy(lg->pdest, p->pdest, sizeof(lg->pdest));
}

/*
 * The profile changed since the login's last step (a tunnel added or
 * deleted): carry the login over to the version @p by identity, not by
 * index.  Contacted and DLNC destinations by destination slot (one no
 * longer in the profile is forgotten), the level by its preference value
 * (gone: the next less preferred one, entered afresh; none left: the
 * lowest, as visited), the attempt's tunnel by uid.
 *
 * Return: whether the attempt's tunnel is still in the profile.
 */
static bool resync(struct l2s_login *lg, const struct l2s_profile *p)
{
	u32 contacted = 0, dlnc = 0, i, j;

	for (i = 0; i < lg->ndests; i++) {
		u32 bit = 1u << i;

		if (!((lg->contacted | lg->dlnc) & bit))
			continue;
		for (j = 0; j < p->ndests && p->pdest[j] != lg->pdest[i]; j++)
			;
		if (j == p->ndests)
			continue;
		if (lg->contacted & bit)
			contacted |= 1u << j;
		if (lg->dlnc & bit)
			dlnc |= 1u << j;
	}
	lg->contacted = contacted;
	lg->dlnc = dlnc;
	for (i = 0; i < p->nlevels && p->levels[i].level < lg->level; i++)
		;
	if (i == p->nlevels && i) {
		i--;
		lg->tried_here = 1;
	} else if (i == p->nlevels || p->levels[i].level != lg->level) {
		lg->tried_here = 0;
	}
	lg->lvl = (u8)i;
	remember(lg, p);
	for (i = 0; i < p->ntunnels; i++) {
		if (p->t[i].uid == lg->tuid) {
			lg->tunnel = (u16)i;
			return true;
		}
	}
	lg->tunnel = L2S_NO_INDEX;
	return false;
}

/**
 * l2s_sel_begin() - start a login's walk (S-SEL-1)
 * @lg: per-login state, initialised here
 * @c: the instance
 * @p: the login's profile (from the login, else the domain map, S-OBJ-4)
 * @key: key hash for the hash modes (l2s_hash_key() of the subscriber name or
 *	 of a key the login supplies), ignored otherwise
 * @env: time, randomness, events
 * @st: the first step
 *
 * An ATTEMPT holds a place on its tunnel and destination (S-STORM-2) until
 * it is reported (l2s_sel_report()) or the login ends early (l2s_sel_end()).
 *
 * Return: L2S_STEP_ATTEMPT or L2S_STEP_DONE, as @st->kind.
 */
int l2s_sel_begin(struct l2s_login *lg, struct l2s_core *c,
		  struct l2s_profile *p, u32 key,
		  const struct l2s_env *env, struct l2s_step *st)
{
	memset(lg, 0, sizeof(*lg));
	remember(lg, p);
	lg->key = key;
	if (!p->ntunnels)
		return done(lg, st, false, L2S_FAIL_NO_TUNNELS);
	return walk(lg, c, p, env, st);
}

static void lock(struct l2s_login *lg, struct l2s_core *c, u16 dest,
		 const struct l2s_env *env)
{
	l2s_dest_at(c, dest)->lock_until = env->now + c->lockout_ms;
	emit(env, lg, L2S_EV_LOCKOUT, 0, dest, c->lockout_ms);
}

/**
 * l2s_sel_report() - report how the attempt of the last step ended
 * @lg: per-login state
 * @c: the instance
 * @p: the same profile as at l2s_sel_begin()
 * @o: the outcome
 * @env: time, randomness, events
 * @st: the next step
 *
 * The attempt's place goes back first, whatever the outcome (S-STORM-2):
 * OK turns it into the session, which it counts (l2s_tunnel_session_up());
 * a next attempt takes a new one.  NO_REPLY locks the destination
 * out and fails over (S-SEL-4); so do CDN and StopCCN whose result code the
 * profile lists in failover_cdn / failover_stopccn.  Other CDN and StopCCN
 * and CLIENT_GONE end the login as failed without lockout.  LOCAL (the LAC
 * could not make the attempt: no socket, no ID, its own rate limit) fails
 * over without lockout: the destination is not to blame, and counts as
 * contacted only for this login.
 *
 * A profile changed since the last step (tunnels added or deleted) does not
 * end the login: it goes on with the tunnels that exist now (resync()).  If
 * the attempt's own tunnel was deleted, OK ends it as L2S_FAIL_STALE (the
 * session is on a tunnel the configuration no longer has) and a failure
 * fails over without lockout (the destination may be gone with it).
 *
 * Return: L2S_STEP_ATTEMPT or L2S_STEP_DONE, or -1 when no attempt was in
 * progress.
 */
int l2s_sel_report(struct l2s_login *lg, struct l2s_core *c,
		   struct l2s_profile *p, const struct l2s_outcome *o,
		   const struct l2s_env *env, struct l2s_step *st)
{
	bool failover = false, gone = false;
	u8 why = L2S_FAIL_NONE;
	u16 t;

	if (lg->state != LS_ATTEMPT)
		return -1;
	if (lg->gen != p->gen)
		gone = !resync(lg, p);
	t = lg->tunnel;
	if (!gone && t >= p->ntunnels)
		return done(lg, st, false, L2S_FAIL_STALE);
	/* A deleted tunnel took the login's place with it (l2s_tunnel_del()). */
	if (!gone)
		l2s_tunnel_unreserve(c, p, t);

	switch (o->kind) {
	case L2S_OUT_OK:
		if (gone)
			return done(lg, st, false, L2S_FAIL_STALE);
		l2s_tunnel_session_up(c, p, t);
		done(lg, st, true, 0);
		st->tunnel = t;
		st->dest = p->t[t].dest;
		st->level = p->t[t].level;
		return L2S_STEP_DONE;
	case L2S_OUT_NO_REPLY:
		failover = true;
		break;
	case L2S_OUT_LOCAL:
		return walk(lg, c, p, env, st);
	case L2S_OUT_CDN:
		failover = o->result < 32 && (p->failover_cdn & (1u << o->result));
		why = L2S_FAIL_CDN;
		break;
	case L2S_OUT_STOPCCN:
		failover = o->result < 32 &&
			   (p->failover_stopccn & (1u << o->result));
		why = L2S_FAIL_STOPCCN;
		break;
	default:
		why = L2S_FAIL_CLIENT_GONE;
		break;
	}
	if (!failover)
		return done(lg, st, false, why);
	if (!gone)
		lock(lg, c, p->t[t].dest, env);
	return walk(lg, c, p, env, st);
}

/**
 * l2s_sel_end() - end a login before its walk is done
 * @lg: per-login state
 * @c: the instance
 * @p: the login's profile, as at its last step
 *
 * For a login that will not be reported on again: aborted, timed out, or
 * its owner (client, socket, agent) gone.  The place its attempt holds goes
 * back (S-STORM-2), found by the tunnel's uid if the profile changed since;
 * a tunnel deleted meanwhile took it with it.  A login that is done holds
 * none: nothing happens.  Afterwards the login is done (a report gets -1).
 *
 * Return: true when a place was given back.
 */
bool l2s_sel_end(struct l2s_login *lg, struct l2s_core *c, struct l2s_profile *p)
{
	bool had = false;
	u32 i = lg->tunnel;

	if (lg->state == LS_ATTEMPT) {
		/* the profile changed since the step: look the tunnel up by its uid */
		if (lg->gen != p->gen || i >= p->ntunnels || p->t[i].uid != lg->tuid)
			for (i = 0; i < p->ntunnels && p->t[i].uid != lg->tuid; i++)
				;
		if (i < p->ntunnels)
			had = !l2s_tunnel_unreserve(c, p, i);
	}
	lg->state = LS_DONE;
	return had;
}

/**
 * l2s_lockout_clear() - clear lockouts by hand (S-SEL-11)
 * @c: the instance
 * @local: only destinations with this local gateway address, or NULL
 * @remote: only destinations with this remote gateway address, or NULL
 * @env: time and events
 *
 * Return: the number of destinations unlocked.
 */
u32 l2s_lockout_clear(struct l2s_core *c, const struct l2s_addr *local,
		      const struct l2s_addr *remote, const struct l2s_env *env)
{
	struct l2s_dest *d;
	u32 i, n = 0;

	for (i = 0; (d = l2s_dest_walk(c, i)); i++) {
		if (!d->refs || !l2s_dest_locked(d, env->now))
			continue;
		if (local && !l2s_addr_equal(local, &d->key.local))
			continue;
		if (remote && !l2s_addr_equal(remote, &d->key.remote))
			continue;
		d->lock_until = 0;
		emit(env, NULL, L2S_EV_UNLOCK, L2S_UNLOCK_CLEAR, (u16)i, 0);
		n++;
	}
	return n;
}

/**
 * l2s_lockout_expire() - forget lockouts whose time has run out
 * @c: the instance
 * @env: time and events
 *
 * Selection treats an expired lockout as unlocked anyway; this only resets
 * the timers and reports them (e.g. from the module's periodic work).
 *
 * Return: the number of lockouts that expired.
 */
u32 l2s_lockout_expire(struct l2s_core *c, const struct l2s_env *env)
{
	struct l2s_dest *d;
	u32 i, n = 0;

	for (i = 0; (d = l2s_dest_walk(c, i)); i++) {
		if (!d->lock_until || d->lock_until > env->now)
			continue;
		d->lock_until = 0;
		if (d->refs)
			emit(env, NULL, L2S_EV_UNLOCK, L2S_UNLOCK_EXPIRED, (u16)i, 0);
		n++;
	}
	return n;
}

/**
 * l2s_fail_name() - short name of a login failure reason
 * @why: enum l2s_fail_why
 *
 * Return: a static string.
 */
const char *l2s_fail_name(u32 why)
{
	static const char * const names[] = {
		[L2S_FAIL_NONE] = "none",
		[L2S_FAIL_EXHAUSTED] = "exhausted",
		[L2S_FAIL_CDN] = "cdn",
		[L2S_FAIL_STOPCCN] = "stopccn",
		[L2S_FAIL_CLIENT_GONE] = "client-gone",
		[L2S_FAIL_NO_TUNNELS] = "no-tunnels",
		[L2S_FAIL_STALE] = "profile-changed",
		[L2S_FAIL_RESTARTS] = "restarts",
		[L2S_FAIL_ADMISSION] = "admission",
		[L2S_FAIL_DRAINED] = "drained",
	};

	return why < L2S_ARRAY_SIZE(names) && names[why] ? names[why] : "?";
}
