// SPDX-License-Identifier: GPL-2.0
/*
 * A login's own tunnel set (LOGIN_BEGIN TUNNELS, S-OBJ-4; RADIUS tunnel
 * attributes, S-RAD-2): a profile "~N" the kernel makes for the tunnels a
 * login brings, shared by the logins that bring the same ones, and freed
 * once unused for the lockout time (or sooner, for room).
 *
 * Every function here runs under ln->lock.
 */
#include <linux/jhash.h>
#include <linux/slab.h>

#include "l2tpsel.h"
#include "select.h"

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
void ks_set_reap(struct l2tpsel_net *ln, u64 now, bool room)
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
