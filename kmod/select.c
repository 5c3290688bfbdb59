// SPDX-License-Identifier: GPL-2.0
/*
 * Tunnel selection in the kernel (SPEC §1-§3): the per-namespace tables
 * around the shared core (destinations, profiles, the domain map), lockout
 * expiry, and the logins held for agents between netlink calls.
 *
 * Every function here runs under ln->lock, except the work item, which
 * takes it.
 *
 * The domain map is the core's (core/dmap.c, in ln->sel.core).
 */
#include <linux/jhash.h>
#include <linux/mm.h>
#include <linux/netlink.h>
#include <linux/notifier.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <net/sock.h>

#include "events.h"
#include "l2tpsel.h"
#include "lb.h"

static u64 ks_now_ms(void)
{
	return ktime_to_ms(ktime_get_boottime());
}

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

	env->now = ks_now_ms();
	env->rand = ks_rand;
	env->event = ks_event;
	env->ctx = ec;
	if (s->armed_until && s->armed_until <= env->now) {
		l2s_lockout_expire(&s->core, env);
		ks_rearm(s, env->now);
	}
}

static void ks_expire_work(struct work_struct *work)
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

/* ---- profiles and tunnels -------------------------------------------- */

/**
 * ks_profile_find() - a profile by name
 * @ln: the namespace
 * @name: its name
 *
 * Return: the profile or NULL.
 */
struct ks_profile *ks_profile_find(struct l2tpsel_net *ln, const char *name)
{
	struct ks_obj *o = ks_table_find(&ln->sel.profiles, name);

	return o ? container_of(o, struct ks_profile, obj) : NULL;
}

/*
 * Profiles come from a cache of their own: a struct ks_profile is a little
 * over 256 bytes, and kmalloc would round each up to 512 (a profile with one
 * tunnel, S-OBJ-3, is bounded at 512 bytes in all: Documentation/performance.md).
 * SLAB_ACCOUNT charges them to the creating task's memory cgroup, as
 * GFP_KERNEL_ACCOUNT does for the other objects.
 */
static struct kmem_cache *ks_profile_cache;

/* An empty profile @name (checked, free) in the table. */
static int ks_profile_make(struct l2tpsel_net *ln, const char *name, struct ks_profile **kpp)
{
	struct ks_profile *kp;
	int ret;

	kp = kmem_cache_zalloc(ks_profile_cache, GFP_KERNEL);
	if (!kp)
		return -ENOMEM;
	/* No tunnel array until the first tunnel (core/obj.c sizes it). */
	l2s_profile_init(&kp->p, name);
	kp->serial = ++ln->sel.next_serial;
	ret = ks_table_add(&ln->sel.profiles, &kp->obj, name);
	if (ret) {
		kmem_cache_free(ks_profile_cache, kp);
		return ret;
	}
	*kpp = kp;
	return 0;
}

/* Out of the table, its destinations released, freed. */
static void ks_profile_drop(struct l2tpsel_net *ln, struct ks_profile *kp)
{
	ks_table_del(&ln->sel.profiles, &kp->obj);
	l2s_profile_release(&ln->sel.core, &kp->p);
	kfree(kp->set);
	kmem_cache_free(ks_profile_cache, kp);
}

/**
 * ks_profile_new() - create an empty profile with default settings
 * @ln: the namespace
 * @name: its name
 * @kpp: receives the profile
 * @err: refusal message
 *
 * Return: 0, -EINVAL (name), -EEXIST or -ENOMEM.
 */
int ks_profile_new(struct l2tpsel_net *ln, const char *name, struct ks_profile **kpp,
		   struct l2s_err *err)
{
	int ret;

	ret = l2s_profile_check_name(name, err);
	if (ret)
		return ret;
	if (l2s_profile_is_set(name))
		return L2S_REFUSE(-EINVAL, err,
				  "profile %s: names beginning with ~ are logins' own tunnel sets",
				  name);
	if (ks_profile_find(ln, name))
		return L2S_REFUSE(-EEXIST, err, "profile %s already exists", name);
	if (ln->sel.profiles.n - ln->sel.n_sets >= READ_ONCE(ks_max_profiles))
		return L2S_REFUSE(-ENOSPC, err,
				  "at most %u profiles per namespace (module parameter max_profiles)",
				  READ_ONCE(ks_max_profiles));
	return ks_profile_make(ln, name, kpp);
}

/**
 * ks_profile_del() - delete a profile and release its destinations
 * @ln: the namespace
 * @kp: the profile
 * @err: refusal message
 *
 * Logins in progress on it end with "profile changed" at their next report.
 *
 * Return: 0, or -EBUSY while a tunnel of it has live sessions.
 */
int ks_profile_del(struct l2tpsel_net *ln, struct ks_profile *kp, struct l2s_err *err)
{
	struct l2s_profile *p = &kp->p;
	u32 i;

	if (kp->set)
		return L2S_REFUSE(-EPERM, err,
				  "profile %s is a login's own tunnel set: it goes when unused",
				  p->name);
	for (i = 0; i < p->ntunnels; i++)
		if (p->t[i].sessions)
			return L2S_REFUSE(-EBUSY, err, "profile %s: tunnel %s has %u live sessions",
					p->name, p->t[i].name, p->t[i].sessions);
	ks_profile_drop(ln, kp);
	return 0;
}

/**
 * ks_tunnel_add() - add a tunnel to a profile (S-OBJ-2, S-OBJ-3)
 * @ln: the namespace
 * @kp: the profile
 * @tc: the tunnel
 * @err: refusal message naming the bound
 *
 * Return: the tunnel's index in the profile, or a negative errno.
 */
int ks_tunnel_add(struct l2tpsel_net *ln, struct ks_profile *kp,
		  const struct l2s_tunnel_conf *tc, struct l2s_err *err)
{
	return l2s_tunnel_add(&ln->sel.core, &kp->p, tc, err);
}

/**
 * ks_tunnel_del() - remove a tunnel from a profile
 * @ln: the namespace
 * @kp: the profile
 * @name: the tunnel
 * @err: refusal message
 *
 * Return: 0, -ENOENT or -EBUSY (live sessions).
 */
int ks_tunnel_del(struct l2tpsel_net *ln, struct ks_profile *kp, const char *name,
		  struct l2s_err *err)
{
	return l2s_tunnel_del(&ln->sel.core, &kp->p, name, err);
}

/* ---- the domain map -------------------------------------------------- */

/**
 * ks_domain_set() - map a domain to a profile, or remap it (S-OBJ-4)
 * @ln: the namespace
 * @domain: the domain
 * @profile: the profile's name; it need not exist yet
 * @err: refusal message
 *
 * The core's map (core/dmap.c), bounded by the module parameter, its
 * entries charged to the caller's cgroup (l2s_mem_default).
 *
 * Return: 0, -EINVAL, -ENOSPC or -ENOMEM.
 */
int ks_domain_set(struct l2tpsel_net *ln, const char *domain, const char *profile,
		  struct l2s_err *err)
{
	u32 max = READ_ONCE(ks_max_domains);
	int ret;

	ln->sel.core.domains.max = max;
	ret = l2s_domain_add(&ln->sel.core, domain, profile, err);
	if (ret == -ENOSPC)
		l2s_errf(err, "at most %u domains per namespace (module parameter max_domains)",
			 max);
	return ret;
}

/**
 * ks_domain_del() - remove a domain mapping
 * @ln: the namespace
 * @domain: the domain
 * @err: refusal message
 *
 * Return: 0 or -ENOENT.
 */
int ks_domain_del(struct l2tpsel_net *ln, const char *domain, struct l2s_err *err)
{
	return l2s_domain_del(&ln->sel.core, domain, err);
}

/* ---- logins ---------------------------------------------------------- */

/* ---- logins' own tunnel sets (LOGIN_BEGIN TUNNELS, S-OBJ-4) ---------- */

static u32 ks_addr_hash(const struct l2s_addr *a, u32 h)
{
	return jhash(a->bytes, a->family == 6 ? 16 : 4, h ^ a->family);
}

/* The same for the same entries in any order: a sum of each entry's hash. */
static u32 ks_set_hash(const struct l2s_tunnel_conf *tc, u32 n)
{
	u32 i, h, sum = n;

	for (i = 0; i < n; i++) {
		h = jhash(tc[i].name, strlen(tc[i].name), tc[i].level);
		h = jhash_2words(tc[i].max_sessions, tc[i].dest.port, h);
		h = ks_addr_hash(&tc[i].dest.remote, h);
		h = ks_addr_hash(&tc[i].dest.local, h);
		if (tc[i].group)
			h = jhash(tc[i].group, strlen(tc[i].group), h);
		h = jhash_1word(tc[i].secret && tc[i].secret[0], h);
		sum += h;
	}
	return sum;
}

static bool ks_set_equal(struct l2tpsel_net *ln, const struct l2s_profile *p,
			 const struct l2s_tunnel_conf *tc, u32 n)
{
	const struct l2s_tunnel *t;
	u32 i;
	int j;

	if (p->ntunnels != n)
		return false;
	for (i = 0; i < n; i++) {
		j = l2s_tunnel_find(p, tc[i].name);
		if (j < 0)
			return false;
		t = &p->t[j];
		if (t->level != tc[i].level || t->max_sessions != tc[i].max_sessions ||
		    strcmp(t->group, tc[i].group ?: "") ||
		    t->has_secret != (tc[i].secret && tc[i].secret[0]) ||
		    l2s_dest_find(&ln->sel.core, &tc[i].dest) != t->dest)
			return false;
	}
	return true;
}

static void ks_set_free(struct l2tpsel_net *ln, struct ks_set *set)
{
	list_del(&set->node);
	list_del_init(&set->idle);
	ln->sel.n_sets--;
	ks_profile_drop(ln, set->kp);
}

/*
 * Free the sets unused for the lockout time, oldest first, so that a lockout
 * of a destination only a set named outlives the login that caused it; with
 * @room, also the oldest unused one while the namespace is at its bound.
 */
static void ks_set_reap(struct l2tpsel_net *ln, u64 now, bool room)
{
	struct ks_sel *s = &ln->sel;
	struct ks_set *set, *tmp;

	list_for_each_entry_safe(set, tmp, &s->idle_sets, idle) {
		if (set->idle_ms + s->core.lockout_ms > now &&
		    !(room && s->n_sets >= READ_ONCE(ks_max_tunnel_sets)))
			break;
		ks_set_free(ln, set);
		ks_gen_bump(ln);
	}
}

/**
 * ks_set_check() - put a tunnel set on the idle list, or take it off
 * @ln: the namespace
 * @kp: a profile; nothing happens unless it is a tunnel set
 *
 * Called whenever a login comes onto it or leaves it and when a session of
 * it goes down.
 */
void ks_set_check(struct l2tpsel_net *ln, struct ks_profile *kp)
{
	const struct l2s_profile *p = &kp->p;
	struct ks_set *set = kp->set;
	bool busy;
	u32 i;

	if (!set)
		return;
	busy = set->logins;
	for (i = 0; !busy && i < p->ntunnels; i++)
		busy = p->t[i].sessions;
	if (busy) {
		list_del_init(&set->idle);
	} else if (list_empty(&set->idle)) {
		set->idle_ms = ks_now_ms();
		list_add_tail(&set->idle, &ln->sel.idle_sets);
	}
}

/**
 * ks_set_get() - the tunnel set a login gave, found or made
 * @ln: the namespace
 * @tc: its entries
 * @n: how many (1..L2S_DESTS_PER_LEVEL, checked by the caller)
 * @kpp: receives the set's profile, held (off the idle list) until
 *       ks_set_put() or the login begun on it ends
 * @bad: receives the index of the entry refused
 * @err: refusal message
 *
 * Return: 0, or -EINVAL (an entry, @bad set), -ENOSPC or -ENOMEM.
 */
int ks_set_get(struct l2tpsel_net *ln, const struct l2s_tunnel_conf *tc, u32 n,
	       struct ks_profile **kpp, u32 *bad, struct l2s_err *err)
{
	struct ks_sel *s = &ln->sel;
	u32 hash = ks_set_hash(tc, n), i;
	struct ks_profile *kp;
	struct ks_set *set;
	char name[L2S_NAME_LEN];
	int ret;

	*bad = U32_MAX;
	list_for_each_entry(set, &s->sets, node) {
		kp = set->kp;
		if (set->hash == hash && ks_set_equal(ln, &kp->p, tc, n))
			goto hold;
	}
	ks_set_reap(ln, ks_now_ms(), true);
	if (s->n_sets >= READ_ONCE(ks_max_tunnel_sets))
		return L2S_REFUSE(-ENOSPC, err,
				  "at most %u tunnel sets in use per namespace (module parameter max_tunnel_sets)",
				  READ_ONCE(ks_max_tunnel_sets));
	do
		snprintf(name, sizeof(name), "~%u", ++s->next_set);
	while (ks_profile_find(ln, name));
	set = kzalloc(sizeof(*set), GFP_KERNEL_ACCOUNT);
	if (!set)
		return L2S_REFUSE(-ENOMEM, err, "out of memory for a tunnel set");
	ret = ks_profile_make(ln, name, &kp);
	if (ret) {
		kfree(set);
		return ret;
	}
	kp->set = set;
	set->kp = kp;
	set->hash = hash;
	INIT_LIST_HEAD(&set->idle);
	list_add_tail(&set->node, &s->sets);
	s->n_sets++;
	for (i = 0; i < n; i++) {
		ret = ks_tunnel_add(ln, kp, &tc[i], err);
		if (ret < 0) {
			*bad = i;
			ks_set_free(ln, set);
			return ret;
		}
	}
hold:
	*kpp = kp;
	kp->set->logins++;
	ks_set_check(ln, kp);
	return 0;
}

/**
 * ks_set_put() - drop a hold ks_set_get() took
 * @ln: the namespace
 * @kp: the set
 */
void ks_set_put(struct l2tpsel_net *ln, struct ks_profile *kp)
{
	kp->set->logins--;
	ks_set_check(ln, kp);
}

/* The login's profile, NULL when it was deleted since the login began. */
static struct ks_profile *ks_login_profile(struct l2tpsel_net *ln, const struct ks_login *kl)
{
	struct ks_obj *o = xa_load(&ln->sel.profiles.xa, kl->profile_id);
	struct ks_profile *kp = o ? container_of(o, struct ks_profile, obj) : NULL;

	return kp && kp->serial == kl->serial ? kp : NULL;
}

/**
 * ks_login_finish() - forget a login (done, timed out, or its owner went away)
 * @ln: the namespace
 * @kl: the login
 *
 * Every way a login ends comes here: the place its attempt holds, if any,
 * goes back (S-STORM-2); a deleted profile took it with it.
 */
void ks_login_finish(struct l2tpsel_net *ln, struct ks_login *kl)
{
	struct ks_profile *kp = ks_login_profile(ln, kl);

	/* the counts a dump shows (IN_FLIGHT) changed */
	if (kp && l2s_sel_end(&kl->lg, &ln->sel.core, &kp->p))
		ks_gen_bump(ln);
	if (kl->dyn) {
		/* A set is not freed while a login is on it. */
		if (!WARN_ON_ONCE(!kp || !kp->set || !kp->set->logins))
			ks_set_put(ln, kp);
	}
	list_del(&kl->lru);
	list_del(&kl->owner_node);
	ks_owner_put(ln, kl->owner);
	xa_erase(&ln->sel.logins, kl->id);
	WRITE_ONCE(ln->sel.n_logins, ln->sel.n_logins - 1);
	kfree(kl);
}

/* Logins idle for KS_LOGIN_TIMEOUT_MS are reclaimed lazily, oldest first. */
static void ks_logins_reap(struct l2tpsel_net *ln, u64 now)
{
	struct ks_login *kl, *tmp;

	list_for_each_entry_safe(kl, tmp, &ln->sel.lru, lru) {
		if (kl->last_ms + KS_LOGIN_TIMEOUT_MS > now)
			break;
		ks_login_finish(ln, kl);
	}
}

static void ks_count_attempt(struct ks_sel *s, const struct l2s_step *st)
{
	struct l2s_dest *d;

	if (st->kind != L2S_STEP_ATTEMPT)
		return;
	d = l2s_dest_at(&s->core, st->dest);
	d->attempts++;
}

/**
 * ks_login_begin() - start a login held for an agent (S-SEL-1)
 * @ln: the namespace
 * @portid: the port id of the socket that owns it
 * @sk: that socket
 * @req: profile, key and pinned draws
 * @klp: receives the login while it is in progress, NULL when it is done
 * @st: the first step
 * @err: refusal message
 *
 * Return: 0, -ENOSPC (too many logins) or -ENOMEM.
 */
int ks_login_begin(struct l2tpsel_net *ln, u32 portid, struct sock *sk,
		   const struct ks_login_req *req,
		   struct ks_login **klp, struct l2s_step *st, struct l2s_err *err)
{
	struct ks_sel *s = &ln->sel;
	struct ks_env_ctx ec = { .ln = ln, .p = &req->kp->p };
	struct ks_owner *o;
	struct ks_login *kl;
	struct l2s_env env;
	int ret;

	*klp = NULL;
	ks_sel_env(ln, &env, &ec);
	ks_logins_reap(ln, env.now);
	ks_set_reap(ln, env.now, false);
	if (s->n_logins >= s->max_logins)
		return L2S_REFUSE(-ENOSPC, err, "at most %u logins in progress (max-logins)",
				  s->max_logins);
	kl = kzalloc(sizeof(*kl), GFP_KERNEL_ACCOUNT);
	if (!kl)
		return -ENOMEM;
	o = ks_owner_get(ln, portid, sk);
	if (IS_ERR(o)) {
		kfree(kl);
		return PTR_ERR(o);
	}
	ret = xa_alloc_cyclic(&s->logins, &kl->id, kl, xa_limit_31b, &s->next_login_id,
			      GFP_KERNEL_ACCOUNT);
	if (ret < 0) {
		kfree(kl);
		ks_owner_put(ln, o);
		return ret == -EBUSY ? -ENOSPC : ret;
	}
	kl->owner = o;
	list_add_tail(&kl->owner_node, &o->logins);
	kl->portid = portid;
	kl->profile_id = req->kp->obj.id;
	kl->serial = req->kp->serial;
	kl->last_ms = env.now;
	memcpy(kl->picks, req->picks, sizeof(kl->picks));
	kl->npicks = req->npicks;
	kl->dyn = !!req->kp->set;	/* the caller's hold on the set is the login's now */
	list_add_tail(&kl->lru, &s->lru);
	WRITE_ONCE(s->n_logins, s->n_logins + 1);
	ec.kl = kl;
	l2s_sel_begin(&kl->lg, &s->core, &req->kp->p, req->key, &env, st);
	ks_count_attempt(s, st);
	ks_gen_bump(ln);
	*klp = kl;
	return 0;
}

/**
 * ks_login_report() - the outcome of a login's attempt, and its next step
 * @ln: the namespace
 * @portid: the reporting socket; must own the login
 * @id: the login
 * @o: the outcome
 * @klp: receives the login
 * @kpp: receives its profile, NULL when it was deleted
 * @st: the next step
 * @err: refusal message
 *
 * Return: 0, or -ENOENT (no such login for this socket), -EINVAL (no attempt
 * in progress).
 */
int ks_login_report(struct l2tpsel_net *ln, u32 portid, u32 id,
		    const struct l2s_outcome *o, struct ks_login **klp,
		    struct ks_profile **kpp, struct l2s_step *st, struct l2s_err *err)
{
	struct ks_sel *s = &ln->sel;
	struct ks_env_ctx ec = { .ln = ln };
	struct ks_profile *kp;
	struct ks_login *kl;
	struct l2s_env env;

	ks_sel_env(ln, &env, &ec);
	ks_logins_reap(ln, env.now);
	kl = xa_load(&s->logins, id);
	if (!kl || kl->portid != portid)
		return L2S_REFUSE(-ENOENT, err, "no login %u in progress for this socket", id);
	kp = ks_login_profile(ln, kl);
	*klp = kl;
	*kpp = kp;
	kl->last_ms = env.now;
	list_move_tail(&kl->lru, &s->lru);
	if (!kp) {
		/* The profile was deleted: its indexes are gone. */
		memset(st, 0, sizeof(*st));
		st->kind = L2S_STEP_DONE;
		st->why = L2S_FAIL_STALE;
		return 0;
	}
	ec.kl = kl;
	ec.p = &kp->p;
	if (l2s_sel_report(&kl->lg, &s->core, &kp->p, o, &env, st) < 0)
		return L2S_REFUSE(-EINVAL, err, "login %u has no attempt in progress", id);
	ks_count_attempt(s, st);
	ks_gen_bump(ln);
	return 0;
}

/* The dry run's copy of a profile takes its array from the buffer (no allocation). */
static void *ks_tb_alloc(void *ctx, size_t size)
{
	struct ks_test_buf *tb = ctx;

	if (tb->used || size > l2s_tunnels_size(L2S_TUNNELS_PER_PROFILE))
		return NULL;
	tb->used = true;
	return tb->tunnels;
}

static void ks_tb_free(void *ctx, void *ptr, size_t size)
{
	struct ks_test_buf *tb = ctx;

	if (ptr == tb->tunnels)
		tb->used = false;
}

/* The namespace's destination slots into @to (KS_DESTS of them, zeroed): the chunks that exist. */
static void ks_dests_copy(struct l2tpsel_net *ln, struct l2s_dest *to)
{
	const struct l2s_dest *d;
	u32 i;

	for (i = 0; i < KS_DESTS; i += L2S_DEST_CHUNK) {
		d = l2s_dest_chunk(&ln->sel.core, i);
		if (!d)
			break;
		memcpy(to + i, d, L2S_DEST_CHUNK * sizeof(*d));
	}
}

/**
 * ks_test_buf_alloc() - room for a dry run
 * @tb: the buffer
 *
 * Return: 0 or -ENOMEM.
 */
int ks_test_buf_alloc(struct ks_test_buf *tb)
{
	memset(tb, 0, sizeof(*tb));
	tb->core = kmalloc(sizeof(*tb->core), GFP_KERNEL_ACCOUNT);
	tb->dests = kvmalloc_array(KS_DESTS, sizeof(*tb->dests), GFP_KERNEL_ACCOUNT);
	tb->tunnels = kvmalloc(l2s_tunnels_size(L2S_TUNNELS_PER_PROFILE),
			       GFP_KERNEL_ACCOUNT);
	if (!tb->core || !tb->dests || !tb->tunnels) {
		ks_test_buf_free(tb);
		return -ENOMEM;
	}
	return 0;
}

/**
 * ks_test_buf_free() - free a dry run's buffer
 * @tb: the buffer
 */
void ks_test_buf_free(struct ks_test_buf *tb)
{
	kvfree(tb->tunnels);
	kvfree(tb->dests);
	kfree(tb->core);
	tb->tunnels = NULL;
	tb->dests = NULL;
	tb->core = NULL;
}

/**
 * ks_login_test() - the candidates a login would try now, changing nothing
 * @ln: the namespace
 * @src: the profile
 * @key: the hash key
 * @tb: the buffer from ks_test_buf_alloc(): receives the copies the run used
 *      (tb->p, and tb->dests as tb->core's table), which the caller's reply reads
 * @steps: receives the attempts in order
 * @max: room in @steps
 * @nsteps: receives the number of attempts
 * @last: receives the final step
 * @err: refusal message
 *
 * A dry run on copies of the destination table and of the profile, every
 * attempt assumed to fail with no reply; random picks take the first
 * candidate and report how many there were.  Nothing of the namespace is
 * written.
 *
 * Return: 0, or -ENOMEM (cannot happen with @tb's room).
 */
int ks_login_test(struct l2tpsel_net *ln, const struct l2s_profile *src, u32 key,
		  struct ks_test_buf *tb, struct ks_test_step *steps, u32 max, u32 *nsteps,
		  struct l2s_step *last, struct l2s_err *err)
{
	const struct l2s_outcome fail = { .kind = L2S_OUT_NO_REPLY };
	struct ks_env_ctx ec = { .ln = ln, .p = &tb->p, .dry = true };
	const struct l2s_mem mem = { .alloc = ks_tb_alloc, .free = ks_tb_free, .ctx = tb };
	struct l2s_core *c = tb->core;
	struct l2s_login lg;
	struct l2s_env env;
	struct l2s_step st;
	u32 n = 0;
	int ret;

	*nsteps = 0;
	memset(last, 0, sizeof(*last));
	last->kind = L2S_STEP_DONE;
	last->why = L2S_FAIL_NO_TUNNELS;
	memset(&tb->p, 0, sizeof(tb->p));
	if (!src->ntunnels)
		return 0;
	l2s_core_init(c, tb->dests, KS_DESTS);
	ks_dests_copy(ln, tb->dests);
	memcpy(c->dest_drain, ln->sel.core.dest_drain, sizeof(c->dest_drain));
	c->lockout_ms = ln->sel.core.lockout_ms;
	c->mem = &mem;
	ret = l2s_profile_copy(c, &tb->p, src, 0, err);
	if (ret)
		return ret;
	env.now = ks_now_ms();
	env.rand = ks_rand;
	env.event = NULL;
	env.ctx = &ec;
	ec.ncand = 1;
	l2s_sel_begin(&lg, c, &tb->p, key, &env, &st);
	while (st.kind == L2S_STEP_ATTEMPT && n < max) {
		steps[n].st = st;
		steps[n].ncand = ec.ncand;
		n++;
		ec.ncand = 1;
		if (l2s_sel_report(&lg, c, &tb->p, &fail, &env, &st) < 0)
			break;
	}
	*last = st;
	*nsteps = n;
	return 0;
}

/**
 * ks_sel_session_down() - a session's count on its login's tunnel ends
 * @ln: the namespace, locked
 * @kp: the profile the login counted it in
 * @tuid: the tunnel's uid there
 *
 * The tunnel cannot have been deleted (it counts a session), nor its
 * profile; a tunnel set may become idle.
 */
void ks_sel_session_down(struct l2tpsel_net *ln, struct ks_profile *kp, u64 tuid)
{
	struct l2s_profile *p = &kp->p;
	u32 i;

	for (i = 0; i < p->ntunnels; i++)
		if (p->t[i].uid == tuid)
			break;
	/* Counters never go below zero (S-LIM-9). */
	if (WARN_ON_ONCE(i == p->ntunnels || l2s_tunnel_session_down(&ln->sel.core, p, i)))
		return;
	ks_set_check(ln, kp);
}

/* ---- life cycle ------------------------------------------------------ */

/**
 * ks_sel_init() - empty selection state for a new namespace
 * @ln: the namespace
 *
 * Return: 0 or -ENOMEM.
 */
int ks_sel_init(struct l2tpsel_net *ln)
{
	struct ks_sel *s = &ln->sel;
	int err;

	BUILD_BUG_ON(L2S_DOMAIN_LEN != L2TPSEL_NAME_MAX);
	/* The destination table by need (64 slots at a time), an empty domain map. */
	l2s_core_init(&s->core, NULL, KS_DESTS);
	err = ks_table_init(&s->profiles);
	if (err)
		return err;
	xa_init_flags(&s->logins, XA_FLAGS_ALLOC1);
	INIT_LIST_HEAD(&s->lru);
	INIT_LIST_HEAD(&s->sets);
	INIT_LIST_HEAD(&s->idle_sets);
	s->max_logins = KS_MAX_LOGINS_DEFAULT;
	INIT_DELAYED_WORK(&s->expire_work, ks_expire_work);
	return 0;
}

/**
 * ks_sel_stop() - stop the expiry work; called without ln->lock
 * @ln: the namespace, ln->stopped set: nothing arms the work again
 */
void ks_sel_stop(struct l2tpsel_net *ln)
{
	cancel_delayed_work_sync(&ln->sel.expire_work);
}

/**
 * ks_sel_exit() - free the selection state of a dying namespace
 * @ln: the namespace, after ks_sel_stop()
 */
void ks_sel_exit(struct l2tpsel_net *ln)
{
	struct ks_sel *s = &ln->sel;
	struct ks_login *kl, *tmp;
	struct ks_obj *o;
	unsigned long id;

	list_for_each_entry_safe(kl, tmp, &s->lru, lru)
		ks_login_finish(ln, kl);
	xa_destroy(&s->logins);
	xa_for_each(&s->profiles.xa, id, o)
		ks_profile_drop(ln, container_of(o, struct ks_profile, obj));
	ks_table_destroy(&s->profiles, NULL);
	l2s_core_release(&s->core);
}

/**
 * ks_profile_cache_init() - the profiles' slab cache, before any namespace
 *
 * Return: 0 or -ENOMEM.
 */
int ks_profile_cache_init(void)
{
	ks_profile_cache = KMEM_CACHE(ks_profile, SLAB_ACCOUNT);
	return ks_profile_cache ? 0 : -ENOMEM;
}

/**
 * ks_profile_cache_exit() - destroy it, once every namespace freed its profiles
 */
void ks_profile_cache_exit(void)
{
	kmem_cache_destroy(ks_profile_cache);
}
