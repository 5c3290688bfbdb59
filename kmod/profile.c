// SPDX-License-Identifier: GPL-2.0
/*
 * Profiles and their tunnels, and the domain map that names a login's
 * profile (SPEC §1, S-OBJ-2..4): the namespace's objects around the
 * core's (core/obj.c, core/dmap.c in ln->sel.core).
 *
 * Every function here but the cache's runs under ln->lock.
 */
#include <linux/slab.h>

#include "l2tpsel.h"
#include "select.h"

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

/* An empty profile @name (checked, free) in the table. */
int ks_profile_make(struct l2tpsel_net *ln, const char *name, struct ks_profile **kpp)
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
void ks_profile_drop(struct l2tpsel_net *ln, struct ks_profile *kp)
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
