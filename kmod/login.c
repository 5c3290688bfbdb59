// SPDX-License-Identifier: GPL-2.0
/*
 * The logins held for agents between netlink calls (S-SEL-1): begun by
 * LOGIN_BEGIN, stepped by LOGIN_REPORT, ended when done, idle too long
 * (KS_LOGIN_TIMEOUT_MS), or with their socket (release.c).  Each holds its
 * attempt's place on a tunnel until it ends (S-STORM-2).
 *
 * Every function here runs under ln->lock.
 */
#include <linux/slab.h>
#include <net/sock.h>

#include "l2tpsel.h"
#include "select.h"

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
