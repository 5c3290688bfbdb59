// SPDX-License-Identifier: GPL-2.0
/*
 * Rate limits and throttle profiles (SPEC §5, reference 004): the objects of
 * one namespace, the decision of RL_CHECK, the CPU load source and the work
 * that takes revert steps at their due time.  The arithmetic is the core's
 * (core/rl.c); Documentation/ratelimit.md explains the rules.  Every
 * function here runs under ln->lock, except the work, which takes it.
 */
#include <linux/kernel_stat.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/slab.h>

#include "events.h"
#include "ratelimit.h"

/**
 * ks_rl_now() - the limiters' clock
 *
 * Return: CLOCK_MONOTONIC in ns (limits need no time across a suspend).
 */
u64 ks_rl_now(void)
{
	return ktime_get_ns();
}

/**
 * ks_rl_find() - a rate limit by name
 * @ln: the namespace
 * @name: the name
 *
 * Return: the limit or NULL.
 */
static struct ks_rlimit *ks_rl_find(struct l2tpsel_net *ln, const char *name)
{
	struct ks_obj *o = ks_table_find(&ln->rl->limits, name);

	return o ? container_of(o, struct ks_rlimit, obj) : NULL;
}

/**
 * ks_th_find() - a throttle profile by name
 * @ln: the namespace
 * @name: the name
 *
 * Return: the profile or NULL.
 */
struct ks_throttle *ks_th_find(struct l2tpsel_net *ln, const char *name)
{
	struct ks_obj *o = ks_table_find(&ln->rl->throttles, name);

	return o ? container_of(o, struct ks_throttle, obj) : NULL;
}

/* ---- the match --------------------------------------------------------- */

/*
 * Which keys fit which message type: SCCRQ and ICRQ come from a peer (LNS
 * role), a login from a subscriber of a domain and a PPPoE discovery
 * message on an access interface (LAC role), an attempt goes to a
 * destination of a profile.
 */
static int ks_rl_valid_match(const struct ks_rl_conf *rc, struct l2s_err *err)
{
	static const char *const msgs[] = { "any", "sccrq", "icrq", "login", "attempt",
					    "pppoe" };
	static const char *const keys[] = { "none", "peer", "address", "domain", "profile",
					    "destination" };
	bool ok;

	if (rc->dir == L2TPSEL_RL_INGRESS && rc->msg == L2TPSEL_RL_MSG_ATTEMPT) {
		l2s_errs(err, "message type attempt is egress only (attempts sent toward an LNS)");
		return -EINVAL;
	}
	if (rc->dir == L2TPSEL_RL_EGRESS && rc->msg != L2TPSEL_RL_MSG_ANY &&
	    rc->msg != L2TPSEL_RL_MSG_ATTEMPT) {
		l2s_errf(err, "message type %s is ingress only; egress limits count attempts",
			 msgs[rc->msg]);
		return -EINVAL;
	}
	switch (rc->msg) {
	case L2TPSEL_RL_MSG_SCCRQ:
	case L2TPSEL_RL_MSG_ICRQ:
		ok = rc->key == L2TPSEL_RL_KEY_ANY || rc->key == L2TPSEL_RL_KEY_PEER ||
		     rc->key == L2TPSEL_RL_KEY_ADDRESS;
		break;
	case L2TPSEL_RL_MSG_LOGIN:
		ok = rc->key == L2TPSEL_RL_KEY_ANY || rc->key == L2TPSEL_RL_KEY_DOMAIN ||
		     rc->key == L2TPSEL_RL_KEY_PROFILE;
		break;
	case L2TPSEL_RL_MSG_PPPOE:
		ok = rc->key == L2TPSEL_RL_KEY_ANY || rc->key == L2TPSEL_RL_KEY_PEER;
		break;
	default:
		ok = rc->dir == L2TPSEL_RL_INGRESS ? rc->key != L2TPSEL_RL_KEY_DEST :
		     rc->key == L2TPSEL_RL_KEY_ANY || rc->key == L2TPSEL_RL_KEY_DEST ||
		     rc->key == L2TPSEL_RL_KEY_PROFILE;
	}
	if (!ok) {
		l2s_errf(err, "an %s limit on %s cannot be keyed by %s",
			 rc->dir ? "egress" : "ingress", msgs[rc->msg], keys[rc->key]);
		return -EINVAL;
	}
	return 0;
}

/* Does limit @r apply to request @q? */
static bool ks_rl_match(const struct ks_rlimit *r, const struct ks_rl_req *q)
{
	if (r->dir != q->dir || (r->msg != L2TPSEL_RL_MSG_ANY && r->msg != q->msg))
		return false;
	switch (r->key) {
	case L2TPSEL_RL_KEY_PEER:
		return q->peer && !strcmp(r->skey, q->peer);
	case L2TPSEL_RL_KEY_DOMAIN:
		return q->domain && !strcmp(r->skey, q->domain);
	case L2TPSEL_RL_KEY_PROFILE:
		return q->profile && !strcmp(r->skey, q->profile);
	case L2TPSEL_RL_KEY_ADDRESS:
		return q->addr.family && l2s_addr_equal(&r->addr, &q->addr);
	case L2TPSEL_RL_KEY_DEST:
		return q->addr.family && l2s_addr_equal(&r->addr, &q->addr) &&
		       (!r->port || r->port == q->port);
	}
	return true;
}

/* ---- throttle changes ---------------------------------------------------- */

/* Profile @t's percent changed at @now: every limit naming it follows, listeners hear of it. */
static void ks_th_changed(struct l2tpsel_net *ln, struct ks_throttle *t, u64 now)
{
	struct ks_rlimit *r;
	struct ks_obj *o;
	unsigned long id;

	t->changes++;
	if (t->users) {
		xa_for_each(&ln->rl->limits.xa, id, o) {
			r = container_of(o, struct ks_rlimit, obj);
			if (r->th == t)
				rl_set_throttle(&r->l, t->th.percent, now);
		}
	}
	ks_gen_bump(ln);
	ks_event_throttle(ln, t->obj.name, t->th.load, t->th.percent, t->users);
}

/* Take the revert steps due by @now, each at its own time (S-RL-3). */
static void ks_th_catch_up(struct l2tpsel_net *ln, struct ks_throttle *t, u64 now)
{
	u64 when;
	bool ch;

	while (rl_throttle_next_step(&t->th, &when) && when <= now) {
		rl_throttle_tick(&t->th, when, &ch);
		if (ch)
			ks_th_changed(ln, t, when);
	}
}

/**
 * ks_th_load() - a load sample for a profile (pushed or sampled)
 * @ln: the namespace
 * @t: the profile
 * @load: percent, 0..100
 * @now: ks_rl_now()
 *
 * Return: true when the throttle percent changed.
 */
bool ks_th_load(struct l2tpsel_net *ln, struct ks_throttle *t, u32 load, u64 now)
{
	bool ch;

	ks_th_catch_up(ln, t, now);
	rl_throttle_update(&t->th, load, now, &ch);
	t->samples++;
	if (ch)
		ks_th_changed(ln, t, now);
	return ch;
}

/* ---- the CPU load source ------------------------------------------------- */

/*
 * Busy time of every possible CPU, ns.  An offline CPU's times stand
 * still, so the sum only grows across CPU hotplug: a difference of two
 * sums is the busy time between them.
 */
static u64 ks_cpu_busy(void)
{
	struct kernel_cpustat kcs;
	u64 b = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		kcpustat_cpu_fetch(&kcs, cpu);
		b += kcs.cpustat[CPUTIME_USER] + kcs.cpustat[CPUTIME_NICE] +
		     kcs.cpustat[CPUTIME_SYSTEM] + kcs.cpustat[CPUTIME_IRQ] +
		     kcs.cpustat[CPUTIME_SOFTIRQ] + kcs.cpustat[CPUTIME_STEAL];
	}
	return b;
}

static void ks_th_cpu_start(struct ks_throttle *t, u64 now)
{
	t->cpu_busy = ks_cpu_busy();
	t->cpu_stamp = ktime_get_ns();
	t->next_sample = now + (u64)t->period_ms * NSEC_PER_MSEC;
}

/*
 * The CPU use since the last sample, percent, as the profile's next load:
 * the busy time over the time elapsed times the CPUs online now (a CPU that
 * went offline meanwhile may push it past 100, which is clamped).
 */
static void ks_th_cpu_sample(struct l2tpsel_net *ln, struct ks_throttle *t, u64 now)
{
	u64 busy = ks_cpu_busy(), stamp = ktime_get_ns();
	u64 db = busy > t->cpu_busy ? busy - t->cpu_busy : 0;
	u64 dw = (stamp - t->cpu_stamp) * num_online_cpus();
	u32 load = 0;

	if (dw)
		load = (u32)min_t(u64, div64_u64(db, dw / 100 ?: 1), 100);
	t->cpu_busy = busy;
	t->cpu_stamp = stamp;
	t->next_sample = now + (u64)t->period_ms * NSEC_PER_MSEC;
	ks_th_load(ln, t, load, now);
}

/* The CPU source reads the host's CPUs: not for a user namespace's owner. */
static int ks_th_cpu_allowed(struct l2tpsel_net *ln, struct l2s_err *err)
{
	if (!ks_in_userns(ln))
		return 0;
	l2s_errf(err, "source cpu reads the host's CPU load: %s; push the load instead",
		 "only in the initial user namespace");
	return -EPERM;
}

/* ---- the work: revert steps and CPU samples at their due time ------------ */

/**
 * ks_rl_arm() - arm the work for the earliest revert step or CPU sample
 * @ln: the namespace
 *
 * Called after anything that may change a due time.  Never waits for the
 * work (it takes ln->lock, which the caller holds).
 */
void ks_rl_arm(struct l2tpsel_net *ln)
{
	struct ks_rlnet *rn = ln->rl;
	struct ks_throttle *t;
	u64 next = U64_MAX, when, now;
	struct ks_obj *o;
	unsigned long id;

	if (ln->stopped)
		return;
	xa_for_each(&rn->throttles.xa, id, o) {
		t = container_of(o, struct ks_throttle, obj);
		if (rl_throttle_next_step(&t->th, &when) && when < next)
			next = when;
		if (t->source == L2TPSEL_RL_SOURCE_CPU && t->next_sample < next)
			next = t->next_sample;
	}
	if (next == U64_MAX) {
		rn->armed_until = 0;
		cancel_delayed_work(&rn->work);
		return;
	}
	if (rn->armed_until == next)
		return;
	rn->armed_until = next;
	now = ks_rl_now();
	mod_delayed_work(system_wq, &rn->work,
			 (next > now ? nsecs_to_jiffies(next - now) : 0) + 1);
}

static void ks_rl_work(struct work_struct *work)
{
	struct ks_rlnet *rn = container_of(to_delayed_work(work), struct ks_rlnet, work);
	struct l2tpsel_net *ln = rn->ln;
	struct ks_throttle *t;
	struct ks_obj *o;
	unsigned long id;
	u64 now;

	ks_lock(ln);
	rn->armed_until = 0;
	now = ks_rl_now();
	xa_for_each(&rn->throttles.xa, id, o) {
		t = container_of(o, struct ks_throttle, obj);
		ks_th_catch_up(ln, t, now);
		if (t->source == L2TPSEL_RL_SOURCE_CPU && t->next_sample <= now)
			ks_th_cpu_sample(ln, t, now);
	}
	ks_rl_arm(ln);
	ks_unlock(ln);
}

/* ---- rate limits ---------------------------------------------------------- */

/* Point @r at profile @t (may be NULL) from @now on. */
static void ks_rl_use_throttle(struct ks_rlimit *r, struct ks_throttle *t, u64 now)
{
	if (r->th)
		r->th->users--;
	r->th = t;
	if (t)
		t->users++;
	rl_set_throttle(&r->l, t ? t->th.percent : 0, now);
}

/* The action and its answer, as given. */
static void ks_rl_apply_action(struct ks_rlimit *r, const struct ks_rl_conf *rc)
{
	if (rc->has_action)
		r->action = rc->action;
	if (rc->has_result)
		r->result = rc->result;
	if (rc->has_error)
		r->error = rc->error;
	if (rc->has_message)
		strscpy(r->message, rc->message, sizeof(r->message));
}

/* A named throttle profile for a limit; "" is none. */
static int ks_rl_throttle_of(struct l2tpsel_net *ln, const char *name, struct ks_throttle **tp,
			     struct l2s_err *err)
{
	*tp = NULL;
	if (!*name)
		return 0;
	*tp = ks_th_find(ln, name);
	if (!*tp) {
		l2s_errf(err, "throttle profile \"%s\" does not exist", name);
		return -ENOENT;
	}
	return 0;
}

/**
 * ks_rl_new() - add a rate limit with a full bucket (S-RL-1)
 * @ln: the namespace
 * @name: its name
 * @rc: the configuration; has_rate and has_burst are required
 * @err: receives the reason on refusal
 *
 * Several limits may have the same match: a request then needs a token
 * from each (a short burst limit beside a long-term one, say).
 *
 * Return: 0, -EEXIST (name taken), -ENOENT (no such throttle
 * profile), -ERANGE, -EINVAL, -ENOSPC or -ENOMEM.
 */
int ks_rl_new(struct l2tpsel_net *ln, const char *name, const struct ks_rl_conf *rc,
	      struct l2s_err *err)
{
	struct ks_rlnet *rn = ln->rl;
	struct ks_throttle *t = NULL;
	struct ks_rlimit *r;
	u64 now = ks_rl_now();
	int ret;

	if (ks_rl_find(ln, name)) {
		l2s_errf(err, "rate limit \"%s\" already exists", name);
		return -EEXIST;
	}
	ret = ks_rl_valid_match(rc, err);
	if (ret)
		return ret;
	if (rn->limits.n >= KS_RL_MAX_LIMITS) {
		l2s_errf(err, "at most %d rate limits per namespace", KS_RL_MAX_LIMITS);
		return -ENOSPC;
	}
	if (rc->has_throttle) {
		ret = ks_rl_throttle_of(ln, rc->throttle, &t, err);
		if (ret)
			return ret;
	}
	r = kzalloc(sizeof(*r), GFP_KERNEL_ACCOUNT);
	if (!r)
		return -ENOMEM;
	ret = rl_init(&r->l, rc->rate, rc->burst, now, err);
	if (ret)
		goto err_free;
	r->dir = rc->dir;
	r->msg = rc->msg;
	r->key = rc->key;
	if (rc->skey)
		strscpy(r->skey, rc->skey, sizeof(r->skey));
	r->addr = rc->addr;
	r->port = rc->port;
	r->action = L2TPSEL_RL_REJECT;
	r->result = KS_RL_RESULT_DEFAULT;
	r->error = KS_RL_ERROR_DEFAULT;
	strscpy(r->message, KS_RL_MESSAGE_DEFAULT, sizeof(r->message));
	ks_rl_apply_action(r, rc);
	ret = ks_table_add(&rn->limits, &r->obj, name);
	if (ret)
		goto err_free;
	ks_rl_use_throttle(r, t, now);
	ks_gen_bump(ln);
	return 0;

err_free:
	kfree(r);
	return ret;
}

/**
 * ks_rl_set() - change a rate limit; only what @rc has changes
 * @ln: the namespace
 * @r: the limit
 * @rc: the changes
 * @err: receives the reason on refusal (nothing changed then)
 *
 * Return: 0, -ENOENT (no such throttle profile) or -ERANGE.
 */
int ks_rl_set(struct l2tpsel_net *ln, struct ks_rlimit *r, const struct ks_rl_conf *rc,
	      struct l2s_err *err)
{
	u32 rate = rc->has_rate ? rc->rate : r->l.rate;
	u32 burst = rc->has_burst ? rc->burst : r->l.burst;
	struct ks_throttle *t = r->th;
	u64 now = ks_rl_now();
	int ret;

	ret = rl_check(rate, burst, err);
	if (ret)
		return ret;
	if (rc->has_throttle) {
		ret = ks_rl_throttle_of(ln, rc->throttle, &t, err);
		if (ret)
			return ret;
	}
	rl_set_rate(&r->l, rate, burst, now, NULL);
	ks_rl_use_throttle(r, t, now);
	ks_rl_apply_action(r, rc);
	if (rc->reset) {
		r->passed = 0;
		r->rejected = 0;
		r->dropped = 0;
	}
	ks_gen_bump(ln);
	return 0;
}

/**
 * ks_rl_del() - delete a rate limit
 * @ln: the namespace
 * @r: the limit
 */
void ks_rl_del(struct l2tpsel_net *ln, struct ks_rlimit *r)
{
	if (r->th)
		r->th->users--;
	ks_table_del(&ln->rl->limits, &r->obj);
	kfree(r);
	ks_gen_bump(ln);
}

/**
 * ks_rl_tokens() - whole tokens in a limit's bucket now
 * @r: the limit
 * @now: ks_rl_now()
 *
 * Return: the count.
 */
u32 ks_rl_tokens(struct ks_rlimit *r, u64 now)
{
	rl_peek(&r->l, now);
	return (u32)div64_u64(r->l.tokens, RL_TOKEN);
}

/**
 * ks_rl_check() - decide one request (S-RL-1, S-RL-2)
 * @ln: the namespace
 * @req: what the agent knows about the request
 * @now: ks_rl_now(); several calls with the same @now are one instant
 * @v: receives the verdict
 *
 * Every limit that fits is consulted in creation order.  When each has a
 * token, each gives one and counts the request as passed.  Otherwise the
 * first without a token decides and counts it as rejected or dropped; no
 * limit gives a token for a request that does not pass.
 */
void ks_rl_check(struct l2tpsel_net *ln, const struct ks_rl_req *req, u64 now,
		 struct ks_rl_verdict *v)
{
	struct ks_rlnet *rn = ln->rl;
	struct ks_rlimit *r, *by = NULL;
	struct ks_obj *o;
	unsigned long id;

	v->matched = 0;
	v->by = NULL;
	v->verdict = L2TPSEL_RL_PASS;
	xa_for_each(&rn->limits.xa, id, o) {
		r = container_of(o, struct ks_rlimit, obj);
		if (!ks_rl_match(r, req))
			continue;
		v->matched++;
		if (!by && rl_peek(&r->l, now) == RL_OVER)
			by = r;
	}
	if (by) {
		if (by->action == L2TPSEL_RL_DROP) {
			by->dropped++;
			v->verdict = L2TPSEL_RL_DROPPED;
		} else {
			by->rejected++;
			v->verdict = L2TPSEL_RL_REJECTED;
		}
		v->by = by;
		return;
	}
	if (!v->matched)
		return;
	xa_for_each(&rn->limits.xa, id, o) {
		r = container_of(o, struct ks_rlimit, obj);
		if (ks_rl_match(r, req) && rl_admit(&r->l, now) == RL_PASS)
			r->passed++;
	}
}

/* ---- throttle profiles ----------------------------------------------------- */

/**
 * ks_th_new() - add a throttle profile at 0 % (S-RL-3)
 * @ln: the namespace
 * @name: its name
 * @tc: the configuration; hold, step and bands are required
 * @err: receives the reason on refusal
 *
 * Return: 0, -EEXIST, -EPERM (source cpu in a user namespace), -ERANGE, -EINVAL,
 * -ENOSPC or -ENOMEM.
 */
int ks_th_new(struct l2tpsel_net *ln, const char *name, const struct ks_th_conf *tc,
	      struct l2s_err *err)
{
	struct ks_rlnet *rn = ln->rl;
	struct ks_throttle *t;
	int ret;

	if (ks_th_find(ln, name)) {
		l2s_errf(err, "throttle profile \"%s\" already exists", name);
		return -EEXIST;
	}
	if (rn->throttles.n >= KS_RL_MAX_THROTTLES) {
		l2s_errf(err, "at most %d throttle profiles per namespace", KS_RL_MAX_THROTTLES);
		return -ENOSPC;
	}
	if (tc->has_source && tc->source == L2TPSEL_RL_SOURCE_CPU) {
		ret = ks_th_cpu_allowed(ln, err);
		if (ret)
			return ret;
	}
	t = kzalloc(sizeof(*t), GFP_KERNEL_ACCOUNT);
	if (!t)
		return -ENOMEM;
	ret = rl_throttle_init(&t->th, &tc->c, err);
	if (ret)
		goto err_free;
	t->source = tc->has_source ? tc->source : L2TPSEL_RL_SOURCE_PUSH;
	t->period_ms = tc->has_period ? tc->period_ms : KS_RL_PERIOD_DEFAULT;
	ret = ks_table_add(&rn->throttles, &t->obj, name);
	if (ret)
		goto err_free;
	if (t->source == L2TPSEL_RL_SOURCE_CPU) {
		ks_th_cpu_start(t, ks_rl_now());
		ks_rl_arm(ln);
	}
	ks_gen_bump(ln);
	return 0;

err_free:
	kfree(t);
	return ret;
}

/**
 * ks_th_set() - change a throttle profile; the last load is judged again
 * @ln: the namespace
 * @t: the profile
 * @tc: the changes (has_* say which)
 * @err: receives the reason on refusal (nothing changed then)
 *
 * Return: 0, -EPERM (source cpu in a user namespace), -ERANGE or -EINVAL.
 */
int ks_th_set(struct l2tpsel_net *ln, struct ks_throttle *t, const struct ks_th_conf *tc,
	      struct l2s_err *err)
{
	struct rl_throttle_conf c = t->th.conf;
	u64 now = ks_rl_now();
	u8 old = t->th.percent;
	int ret;

	if (tc->has_source && tc->source == L2TPSEL_RL_SOURCE_CPU) {
		ret = ks_th_cpu_allowed(ln, err);
		if (ret)
			return ret;
	}
	if (tc->has_hold)
		c.hold_ms = tc->c.hold_ms;
	if (tc->has_step)
		c.step = tc->c.step;
	if (tc->has_bands) {
		c.nbands = tc->c.nbands;
		memcpy(c.band, tc->c.band, sizeof(c.band));
	}
	ks_th_catch_up(ln, t, now);
	ret = rl_throttle_reconf(&t->th, &c, now, err);
	if (ret)
		return ret;
	if (tc->has_period)
		t->period_ms = tc->period_ms;
	if ((tc->has_source && tc->source != t->source) ||
	    (tc->has_period && t->source == L2TPSEL_RL_SOURCE_CPU)) {
		if (tc->has_source)
			t->source = tc->source;
		if (t->source == L2TPSEL_RL_SOURCE_CPU)
			ks_th_cpu_start(t, now);
	}
	if (t->th.percent != old)
		ks_th_changed(ln, t, now);
	ks_rl_arm(ln);
	ks_gen_bump(ln);
	return 0;
}

/**
 * ks_th_del() - delete a throttle profile no limit names
 * @ln: the namespace
 * @t: the profile
 * @err: receives the reason on refusal
 *
 * Return: 0 or -EBUSY.
 */
int ks_th_del(struct l2tpsel_net *ln, struct ks_throttle *t, struct l2s_err *err)
{
	if (t->users) {
		l2s_errf(err, "throttle profile \"%s\" is used by %u rate limit(s)",
			 t->obj.name, t->users);
		return -EBUSY;
	}
	ks_table_del(&ln->rl->throttles, &t->obj);
	kfree(t);
	ks_rl_arm(ln);
	ks_gen_bump(ln);
	return 0;
}

/* ---- the namespace ----------------------------------------------------------- */

/**
 * ks_rl_init() - no limits, no profiles
 * @ln: the new namespace
 *
 * Return: 0 or -ENOMEM.
 */
int ks_rl_init(struct l2tpsel_net *ln)
{
	struct ks_rlnet *rn;
	int err;

	rn = kzalloc(sizeof(*rn), GFP_KERNEL_ACCOUNT);
	if (!rn)
		return -ENOMEM;
	rn->ln = ln;
	err = ks_table_init(&rn->limits);
	if (err)
		goto err_limits;
	err = ks_table_init(&rn->throttles);
	if (err)
		goto err_throttles;
	INIT_DELAYED_WORK(&rn->work, ks_rl_work);
	ln->rl = rn;
	return 0;

err_throttles:
	ks_table_destroy(&rn->limits, NULL);
err_limits:
	kfree(rn);
	return err;
}

/**
 * ks_rl_stop() - stop the work; called without ln->lock
 * @ln: the namespace, ln->stopped set: nothing arms the work again
 */
void ks_rl_stop(struct l2tpsel_net *ln)
{
	cancel_delayed_work_sync(&ln->rl->work);
}

static void ks_rl_free_obj(struct ks_obj *o)
{
	kfree(container_of(o, struct ks_rlimit, obj));
}

static void ks_th_free_obj(struct ks_obj *o)
{
	kfree(container_of(o, struct ks_throttle, obj));
}

/**
 * ks_rl_exit() - free every limit and profile of a dying namespace
 * @ln: the namespace, after ks_rl_stop()
 */
void ks_rl_exit(struct l2tpsel_net *ln)
{
	struct ks_rlnet *rn = ln->rl;

	ks_table_destroy(&rn->limits, ks_rl_free_obj);
	ks_table_destroy(&rn->throttles, ks_th_free_obj);
	kfree(rn);
	ln->rl = NULL;
}
