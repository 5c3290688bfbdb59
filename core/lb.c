// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Load balancing within one level (S-LB-1..4).
 *
 * Every mode picks among the candidates the walk hands over: the tunnels of
 * the level that are below max-sessions and lead to an unlocked destination
 * not contacted in this login, in configured order.
 *
 * Logins in flight (picked, not yet reported) count where a mode counts
 * sessions (S-STORM-1): destination-equal and the hash modes' tunnel choice
 * compare sessions plus logins in flight, and weighted keeps the logins in
 * flight in proportion to the weights.  With none in flight every mode
 * picks as it would without them.
 */
#include "lb.h"
#include "hash.h"

static u32 draw(const struct l2s_env *env, u32 bound, u32 n, const u8 *cand,
		bool weighted, u32 lvl)
{
	struct l2s_draw d = {
		.bound = bound, .n = n, .cand = cand, .weighted = weighted, .lvl = (u8)lvl,
	};
	u32 r;

	if (bound <= 1)
		return 0;
	r = env->rand(env->ctx, &d);
	return r < bound ? r : r % bound;
}

/**
 * l2s_lb_weight() - a tunnel's weight in weighted load balancing (S-LB-2)
 * @p: the profile
 * @lvl: index in p->levels of the tunnel's level
 * @tunnel: the tunnel's index
 *
 * The weight is max-sessions.  An unlimited tunnel (0) weighs as much as the
 * largest limited tunnel of its level, and 1 if the level has none: it can
 * carry at least as much as any limited one, and a level of unlimited tunnels
 * is balanced uniformly.
 *
 * Return: the weight, 1 .. L2S_MAX_SESSIONS_LIMIT.
 */
u32 l2s_lb_weight(const struct l2s_profile *p, u32 lvl, u32 tunnel)
{
	u32 i, w = 0, first = p->levels[lvl].first;

	if (p->t[tunnel].max_sessions)
		return p->t[tunnel].max_sessions;
	for (i = first; i < first + p->levels[lvl].count; i++)
		if (p->t[i].max_sessions > w)
			w = p->t[i].max_sessions;
	return w ? w : 1;
}

/* A tunnel's logins in flight, bounded so that the products below fit in a u64. */
static u64 inflight_of(const struct l2s_tunnel *t)
{
	return t->inflight < L2S_MAX_SESSIONS_LIMIT ? t->inflight : L2S_MAX_SESSIONS_LIMIT;
}

/*
 * S-LB-2 with logins in flight (S-STORM-1): a candidate whose share of the
 * candidates' logins in flight is above its share of their weight sits out
 * the draw, so that a burst of logins is spread by the weights rather than
 * by chance: each tunnel's logins in flight stay within about one login of
 * its share.
 * With none in flight every candidate takes part, as S-LB-2 says.
 */
static u32 weighted_behind(const struct l2s_profile *p, u32 lvl, const u8 *cand,
			   u32 n, u8 *set)
{
	u64 wsum = 0, fsum = 0;
	u32 i, m = 0;

	for (i = 0; i < n; i++)
		fsum += inflight_of(&p->t[cand[i]]);
	if (!fsum)
		return 0;
	for (i = 0; i < n; i++)
		wsum += l2s_lb_weight(p, lvl, cand[i]);
	/* f / fsum <= w / wsum; never empty: some candidate is at or below its share */
	for (i = 0; i < n; i++)
		if (inflight_of(&p->t[cand[i]]) * wsum <= fsum * l2s_lb_weight(p, lvl, cand[i]))
			set[m++] = cand[i];
	return m;
}

static int pick_weighted(const struct l2s_profile *p, u32 lvl, const u8 *cand,
			 u32 n, const struct l2s_env *env)
{
	u8 set[L2S_TUNNELS_PER_PROFILE];
	u32 i, w, sum = 0, r, m;

	m = weighted_behind(p, lvl, cand, n, set);
	if (m) {
		cand = set;
		n = m;
		if (n == 1)
			return cand[0];
	}
	/* Weights are recomputed rather than kept: no 1 KiB array on the stack. */
	for (i = 0; i < n; i++)
		sum += l2s_lb_weight(p, lvl, cand[i]);	/* <= 248 * 2^24, fits */
	r = draw(env, sum, n, cand, true, lvl);
	for (i = 0; i < n; i++) {
		w = l2s_lb_weight(p, lvl, cand[i]);
		if (r < w)
			return cand[i];
		r -= w;
	}
	return cand[n - 1];
}

/*
 * S-LB-3 as the reference's rules read: the destinations with the lowest
 * session count; if one destination has it, its tunnel with the lowest tunnel
 * session count (ties random); if several destinations share it, a random
 * tunnel among the tunnels to those destinations, tunnel counts not
 * evaluated (000, scenario 2, note).  A login in flight counts as a session
 * of its destination and tunnel (S-STORM-1).
 */
static int pick_dest_equal(const struct l2s_core *c, const struct l2s_profile *p,
			   const u8 *cand, u32 n, const struct l2s_env *env)
{
	u8 set[L2S_TUNNELS_PER_PROFILE];
	u64 min = ~0ull, tmin = ~0ull;
	u32 i, m = 0, ndest = 0;
	u32 dmask = 0;

	for (i = 0; i < n; i++) {
		u64 s = l2s_dest_load(l2s_dest_at(c, p->t[cand[i]].dest));

		if (s < min)
			min = s;
	}
	for (i = 0; i < n; i++) {
		const struct l2s_tunnel *t = &p->t[cand[i]];

		if (l2s_dest_load(l2s_dest_at(c, t->dest)) != min)
			continue;
		if (!(dmask & (1u << t->pdest)))
			ndest++;
		dmask |= 1u << t->pdest;
		if (l2s_tunnel_load(t) < tmin)
			tmin = l2s_tunnel_load(t);
	}
	for (i = 0; i < n; i++) {
		const struct l2s_tunnel *t = &p->t[cand[i]];

		if (!(dmask & (1u << t->pdest)))
			continue;
		if (ndest == 1 && l2s_tunnel_load(t) != tmin)
			continue;
		set[m++] = cand[i];
	}
	return set[draw(env, m, m, set, false, 0)];
}

/*
 * Hash modes: the members are the level's destinations in profile order
 * (member m is the m-th bit of the level's destination mask); a member is up
 * when one of its tunnels is a candidate.  The chosen destination's least
 * loaded candidate tunnel (sessions and logins in flight) is attempted, the
 * first one on ties.
 */
static int pick_hash(const struct l2s_profile *p, u32 lvl, const u8 *cand,
		     u32 n, u32 key)
{
	u32 dests = p->levels[lvl].dests, up = 0, i, pdest;
	u64 best_s = 0;
	int m, best = -1;

	for (i = 0; i < n; i++) {
		pdest = p->t[cand[i]].pdest;
		up |= 1u << l2s_popcount(dests & ((1u << pdest) - 1));
	}
	if (p->lb == L2S_LB_HASH)
		m = l2s_hash_pick(key, p->levels[lvl].ndests, up);
	else
		m = l2s_minmiss_pick(key, p->levels[lvl].ndests, up);
	if (m < 0)
		return cand[0];
	/* the m-th set bit of the mask is the member's profile destination */
	for (pdest = 0; pdest < L2S_DESTS_PER_PROFILE; pdest++)
		if ((dests & (1u << pdest)) && !m--)
			break;
	for (i = 0; i < n; i++) {
		const struct l2s_tunnel *t = &p->t[cand[i]];

		if (t->pdest != pdest)
			continue;
		if (best < 0 || l2s_tunnel_load(t) < best_s) {
			best = cand[i];
			best_s = l2s_tunnel_load(t);
		}
	}
	return best < 0 ? cand[0] : best;
}

/**
 * l2s_lb_pick() - choose the tunnel to attempt among a level's candidates
 * @c: the instance (destination session counts and logins in flight)
 * @p: the profile; p->lb selects the mode
 * @lvl: index in p->levels
 * @cand: candidate tunnel indexes in configured order
 * @n: their number, at least 1
 * @key: the login's key hash (hash modes)
 * @env: randomness
 *
 * A single candidate is taken without a draw, so pinned choices in the
 * simulator are consumed only where the reference speaks of a random choice.
 *
 * Return: the chosen tunnel's index.
 */
int l2s_lb_pick(const struct l2s_core *c, const struct l2s_profile *p,
		u32 lvl, const u8 *cand, u32 n, u32 key,
		const struct l2s_env *env)
{
	if (n == 1)
		return cand[0];
	switch (p->lb) {
	case L2S_LB_WEIGHTED:
		return pick_weighted(p, lvl, cand, n, env);
	case L2S_LB_DEST_EQUAL:
		return pick_dest_equal(c, p, cand, n, env);
	case L2S_LB_HASH:
	case L2S_LB_MINMISS_HASH:
		return pick_hash(p, lvl, cand, n, key);
	default:
		return cand[draw(env, n, n, cand, false, lvl)];
	}
}
