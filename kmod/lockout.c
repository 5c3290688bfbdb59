// SPDX-License-Identifier: GPL-2.0
/*
 * The environment of every core call of tunnel selection (time, random
 * draws, events), lockout expiry (SPEC §2: a lockout ends at its deadline,
 * reported by the work item or by the next call that passes it) and the
 * lockouts set or cleared by hand (DEST_LOCK).
 *
 * Every function here runs under ln->lock, except the work item, which
 * takes it.
 */
#include <linux/random.h>
#include <linux/workqueue.h>

#include "events.h"
#include "l2tpsel.h"
#include "lb.h"
#include "select.h"

static struct l2tpsel_net *ks_sel_net(struct ks_sel *s)
{
	return container_of(s, struct l2tpsel_net, sel);
}

/* Arm the expiry work for @deadline unless it already fires earlier. */
static void ks_arm(struct ks_sel *s, u64 now, u64 deadline)
{
	if (ks_sel_net(s)->stopped)
		return;
	if (s->armed_until && s->armed_until <= deadline)
		return;
	s->armed_until = deadline;
	mod_delayed_work(system_wq, &s->expire_work,
			 msecs_to_jiffies(deadline > now ? deadline - now : 0) + 1);
}

/* Arm for the earliest lockout still running. */
static void ks_rearm(struct ks_sel *s, u64 now)
{
	u64 next = 0;
	const struct l2s_dest *d;
	u32 i;

	for (i = 0; (d = l2s_dest_walk(&s->core, i)); i++) {
		if (d->refs && d->lock_until > now && (!next || d->lock_until < next))
			next = d->lock_until;
	}
	s->armed_until = 0;
	if (next)
		ks_arm(s, now, next);
}

static u32 ks_rand(void *ctx, const struct l2s_draw *d)
{
	struct ks_env_ctx *ec = ctx;
	struct ks_login *kl = ec->kl;
	u32 i, j, at = 0;

	if (ec->dry) {
		/* The dry run takes the first candidate and says how many there were. */
		ec->ncand = d->n;
		return 0;
	}
	if (kl && kl->next_pick < kl->npicks) {
		for (i = 0; i < d->n; i++) {
			if (d->cand[i] != kl->picks[kl->next_pick])
				continue;
			kl->next_pick++;
			if (!d->weighted)
				return i;
			for (j = 0; j < i; j++)
				at += l2s_lb_weight(ec->p, d->lvl, d->cand[j]);
			return at;
		}
	}
	return d->bound ? get_random_u32_below(d->bound) : 0;
}

static void ks_event(void *ctx, const struct l2s_event *ev)
{
	struct ks_env_ctx *ec = ctx;
	struct l2tpsel_net *ln = ec->ln;
	struct ks_sel *s = &ln->sel;
	struct l2s_dest *d = l2s_dest_at(&s->core, ev->dest);
	u64 now = ks_now_ms();

	switch (ev->kind) {
	case L2S_EV_LOCKOUT:
		d->failures++;
		ks_arm(s, now, d->lock_until);
		ks_event_lockout(ln, d, true, 0, ev->ms);
		break;
	case L2S_EV_UNLOCK:
		ks_event_lockout(ln, d, false, ev->why, 0);
		break;
	default:
		break;
	}
}

/**
 * ks_sel_env_dry() - the environment of a dry run: time and draws, no events
 * @env: filled in
 * @ec: what the callbacks get
 */
void ks_sel_env_dry(struct l2s_env *env, struct ks_env_ctx *ec)
{
	env->now = ks_now_ms();
	env->rand = ks_rand;
	env->event = NULL;
	env->ctx = ec;
}

/**
 * ks_sel_env() - the environment of one core call: time, random draws, events
 * @ln: the namespace
 * @env: filled in
 * @ec: what the callbacks get; @ec->ln must be set
 *
 * Lockouts whose deadline passed are reported here if the work has not run
 * yet, so that events keep the order of what the core decides.
 */
void ks_sel_env(struct l2tpsel_net *ln, struct l2s_env *env, struct ks_env_ctx *ec)
{
	struct ks_sel *s = &ln->sel;

	ks_sel_env_dry(env, ec);
	env->event = ks_event;
	if (s->armed_until && s->armed_until <= env->now) {
		l2s_lockout_expire(&s->core, env);
		ks_rearm(s, env->now);
	}
}

/* The work item (ks_sel.expire_work): lockouts whose deadline passed end. */
void ks_expire_work(struct work_struct *work)
{
	struct ks_sel *s = container_of(to_delayed_work(work), struct ks_sel, expire_work);
	struct l2tpsel_net *ln = ks_sel_net(s);
	struct ks_env_ctx ec = { .ln = ln };
	struct l2s_env env;

	ks_lock(ln);
	s->armed_until = 0;
	ks_sel_env(ln, &env, &ec);
	if (l2s_lockout_expire(&s->core, &env))
		ks_gen_bump(ln);
	ks_rearm(s, env.now);
	ks_unlock(ln);
}

/**
 * ks_locked_count() - destinations locked out now
 * @ln: the namespace
 *
 * Return: the count.
 */
u32 ks_locked_count(struct l2tpsel_net *ln)
{
	const struct l2s_core *c = &ln->sel.core;
	u64 now = ks_now_ms();
	const struct l2s_dest *d;
	u32 i, n = 0;

	for (i = 0; (d = l2s_dest_walk(c, i)); i++) {
		if (d->refs && d->lock_until > now)
			n++;
	}
	return n;
}

/**
 * ks_dest_lock() - lock destinations out by hand, or unlock them
 * @ln: the namespace
 * @remote: their remote address
 * @port: their port, 0 for any
 * @local: their local address, NULL for any
 * @ms: lockout length from now, 0 to unlock
 * @err: refusal message
 *
 * Return: the number of destinations changed, or -ENOENT when none matched.
 */
int ks_dest_lock(struct l2tpsel_net *ln, const struct l2s_addr *remote, u16 port,
		 const struct l2s_addr *local, u32 ms, struct l2s_err *err)
{
	struct ks_env_ctx ec = { .ln = ln };
	struct ks_sel *s = &ln->sel;
	struct l2s_dest *d;
	struct l2s_env env;
	u32 i, n = 0;

	ks_sel_env(ln, &env, &ec);
	for (i = 0; (d = l2s_dest_walk(&s->core, i)); i++) {
		bool was = l2s_dest_locked(d, env.now);

		if (!d->refs || !l2s_addr_equal(&d->key.remote, remote) ||
		    (port && d->key.port != port) ||
		    (local && !l2s_addr_equal(&d->key.local, local)))
			continue;
		n++;
		if (!ms) {
			d->lock_until = 0;
			if (was)
				ks_event_lockout(ln, d, false, L2S_UNLOCK_CLEAR, 0);
			continue;
		}
		d->lock_until = env.now + ms;
		ks_arm(s, env.now, d->lock_until);
		ks_event_lockout(ln, d, true, 0, ms);
	}
	if (!n)
		return L2S_REFUSE(-ENOENT, err, "no destination with that remote address%s",
				  port || local ? ", port and local address" : "");
	return n;
}
