/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The domain map (S-OBJ-4, core/dmap.c): domain name -> profile name, one
 * implementation for the module, the simulator and the tests.
 *
 * Chained buckets indexed by the top bits of the domain's l2s_hash_key(),
 * each chain sorted by (hash, name), so that walking the buckets in order
 * visits the entries in (hash, name) order whatever the bucket count: a dump
 * resumes from a cursor (l2s_dmap_next()) across growth and shrinking.
 * Entries and bucket arrays come from the caller's struct l2s_mem (in the
 * module kvmalloc(GFP_KERNEL_ACCOUNT), charged to the caller's cgroup).
 * The bucket array doubles when the entries outnumber the buckets and
 * halves when they fall below a quarter of them; the entries are bounded
 * by @max.  Nothing here is safe for lock-free readers: every call, lookups
 * included, runs under the caller's lock.
 */
#ifndef L2S_DMAP_H
#define L2S_DMAP_H

#include "l2s_types.h"
#include "env.h"

#define L2S_DMAP_MIN_BITS	4	/* 16 chains once there is an entry */
#define L2S_DMAP_MAX_BITS	22	/* at most 4M chains */
/* The bound of an instance that sets none of its own (userspace). */
#define L2S_DOMAINS_MAX		1048576u

struct l2s_domain {
	struct l2s_domain *next;	/* in its chain, (hash, name) order */
	u32 hash;			/* l2s_hash_key() of @name */
	char name[L2S_DOMAIN_LEN];
	char profile[L2S_NAME_LEN];
};

struct l2s_dmap {
	struct l2s_domain **b;		/* 1 << @bits chains; NULL while empty */
	u32 bits;			/* 0 while @b is NULL */
	u32 n;				/* entries */
	u32 max;			/* bound on @n */
};

void l2s_dmap_init(struct l2s_dmap *m, u32 max);
void l2s_dmap_release(struct l2s_dmap *m, const struct l2s_mem *mem);
struct l2s_domain *l2s_dmap_find(const struct l2s_dmap *m, const char *name);
int l2s_dmap_add(struct l2s_dmap *m, const struct l2s_mem *mem, const char *name,
		 const char *profile, struct l2s_err *err);
int l2s_dmap_del(struct l2s_dmap *m, const struct l2s_mem *mem, const char *name,
		 struct l2s_err *err);
struct l2s_domain *l2s_dmap_next(const struct l2s_dmap *m, u64 *pos);

#endif /* L2S_DMAP_H */
