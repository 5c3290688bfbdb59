// SPDX-License-Identifier: GPL-2.0
/*
 * The domain map (core/dmap.c, S-OBJ-4): add, delete, lookup, growth and
 * shrinking over many sizes, the bound, a walk resumed from its cursor
 * while the map changes, hash collisions, and allocation failures that
 * leave the map as it was.  The same cases run as userspace unit tests
 * and as the KUnit suite l2tpsel_dmap (t.h).
 *
 * The allocator is the build's own (kvmalloc, malloc), counted: 30000
 * entries are more than a test's tracked allocations should hold.
 */
#include "t.h"
#include "obj.h"
#include "hash.h"

struct dm_mem {
	long live;		/* blocks allocated and not freed */
	long allocs;
	int fail_in;		/* > 0: the fail_in-th allocation from now fails */
};

static void *dm_alloc(void *ctx, size_t size)
{
	struct dm_mem *d = ctx;
	void *p;

	if (d->fail_in > 0 && --d->fail_in == 0)
		return NULL;
#ifdef L2S_KERNEL
	p = kvmalloc(size, GFP_KERNEL);
#else
	p = malloc(size);
#endif
	if (p) {
		d->live++;
		d->allocs++;
	}
	return p;
}

static void dm_free(void *ctx, void *ptr, size_t size)
{
	struct dm_mem *d = ctx;

	d->live--;
#ifdef L2S_KERNEL
	kvfree(ptr);
#else
	free(ptr);
#endif
}

/* A map and its counted allocator, both with the test. */
struct dm {
	struct l2s_dmap m;
	struct dm_mem d;
	struct l2s_mem mem;
	struct l2s_err err;
};

#define dm_new(max) ({							\
	struct dm *_t = T_ZALLOC(sizeof(*_t));				\
	T_ASSERT_NOT_NULL(_t);						\
	l2s_dmap_init(&_t->m, max);					\
	_t->mem.alloc = dm_alloc;					\
	_t->mem.free = dm_free;						\
	_t->mem.ctx = &_t->d;						\
	_t;								\
})

static const char *dm_name(char *buf, u32 i)
{
	snprintf(buf, L2S_DOMAIN_LEN, "d%u.example", i);
	return buf;
}

static int dm_add(struct dm *t, u32 i)
{
	char n[L2S_DOMAIN_LEN], p[L2S_NAME_LEN];

	snprintf(p, sizeof(p), "P%u", i % 7);
	return l2s_dmap_add(&t->m, &t->mem, dm_name(n, i), p, &t->err);
}

static int dm_del(struct dm *t, u32 i)
{
	char n[L2S_DOMAIN_LEN];

	return l2s_dmap_del(&t->m, &t->mem, dm_name(n, i), &t->err);
}

static bool dm_has(struct dm *t, u32 i)
{
	char n[L2S_DOMAIN_LEN], p[L2S_NAME_LEN];
	struct l2s_domain *e = l2s_dmap_find(&t->m, dm_name(n, i));

	snprintf(p, sizeof(p), "P%u", i % 7);
	return e && !strcmp(e->name, n) && !strcmp(e->profile, p);
}

/* @e comes after @prev in (hash, name) order. */
static bool dm_after(const struct l2s_domain *prev, const struct l2s_domain *e)
{
	return prev->hash < e->hash || (prev->hash == e->hash && strcmp(prev->name, e->name) < 0);
}

/*
 * The map's invariants: every entry in the chain of its hash's top bits,
 * its hash that of its name, chains in strictly increasing (hash, name)
 * order, @n entries, buckets for them unless growth failed.  Return: the
 * longest chain, or -1 (and a failure) when an invariant is broken.
 */
static int dm_check(t_test *test, const struct l2s_dmap *m)
{
	const struct l2s_domain *e, *prev = NULL;
	u32 i, n = 0, len, longest = 0;

	if (!m->b) {
		T_EXPECT_EQ(m->n, 0u);
		T_EXPECT_EQ(m->bits, 0u);
		return m->n || m->bits ? -1 : 0;
	}
	T_EXPECT_GE(m->bits, (u32)L2S_DMAP_MIN_BITS);
	T_EXPECT_LE(m->bits, (u32)L2S_DMAP_MAX_BITS);
	for (i = 0; i < 1u << m->bits; i++) {
		for (e = m->b[i], len = 0; e; e = e->next, len++, n++) {
			if (e->hash >> (32 - m->bits) != i ||
			    e->hash != l2s_hash_key(e->name, (u32)strlen(e->name)) ||
			    (prev && !dm_after(prev, e))) {
				T_FAIL("entry %s misplaced in chain %u", e->name, i);
				return -1;
			}
			prev = e;
		}
		if (len > longest)
			longest = len;
	}
	T_EXPECT_EQ(n, m->n);
	return n == m->n ? (int)longest : -1;
}

/* S-OBJ-4: add, lookup, delete; duplicates and bad names refused clearly. */
T_CASE(dmap_add_del_lookup)
{
	struct dm *t = dm_new(100);
	char longname[80];

	T_EXPECT_NULL(l2s_dmap_find(&t->m, "example.com"));
	T_EXPECT_EQ(l2s_dmap_add(&t->m, &t->mem, "example.com", "P", &t->err), 0);
	T_EXPECT_EQ(l2s_dmap_add(&t->m, &t->mem, "example.net", "Q", &t->err), 0);
	T_EXPECT_EQ(t->m.n, 2u);
	T_ASSERT_NOT_NULL(l2s_dmap_find(&t->m, "example.com"));
	T_EXPECT_STREQ(l2s_dmap_find(&t->m, "example.com")->profile, "P");
	T_EXPECT_STREQ(l2s_dmap_find(&t->m, "example.net")->profile, "Q");
	T_EXPECT_NULL(l2s_dmap_find(&t->m, "example.org"));
	T_EXPECT_NULL(l2s_dmap_find(&t->m, "EXAMPLE.COM"));	/* exact bytes */
	T_EXPECT_NULL(l2s_dmap_find(&t->m, "example.co"));
	/* a duplicate is refused and changes nothing */
	T_EXPECT_EQ(l2s_dmap_add(&t->m, &t->mem, "example.com", "R", &t->err), -EEXIST);
	T_EXPECT_STREQ(t->err.msg, "domain example.com already maps to profile P");
	T_EXPECT_STREQ(l2s_dmap_find(&t->m, "example.com")->profile, "P");
	T_EXPECT_EQ(t->m.n, 2u);
	/* bad names */
	T_EXPECT_EQ(l2s_dmap_add(&t->m, &t->mem, "", "P", &t->err), -EINVAL);
	T_EXPECT_STREQ(t->err.msg, "domain name must not be empty");
	memset(longname, 'a', 64);
	longname[64] = '\0';
	T_EXPECT_EQ(l2s_dmap_add(&t->m, &t->mem, longname, "P", &t->err), -EINVAL);
	T_EXPECT_STREQ(t->err.msg, "domain name too long: at most 63 bytes");
	T_EXPECT_NULL(l2s_dmap_find(&t->m, longname));
	T_EXPECT_EQ(l2s_dmap_del(&t->m, &t->mem, longname, &t->err), -ENOENT);
	longname[63] = '\0';
	T_EXPECT_EQ(l2s_dmap_add(&t->m, &t->mem, longname, "P", &t->err), 0);
	T_EXPECT_NOT_NULL(l2s_dmap_find(&t->m, longname));
	T_EXPECT_EQ(l2s_dmap_add(&t->m, &t->mem, "x.org", "", &t->err), -EINVAL);
	T_EXPECT_STREQ(t->err.msg, "domain x.org: profile name must not be empty");
	T_EXPECT_EQ(l2s_dmap_add(&t->m, &t->mem, "x.org", "0123456789012345678901234567890X",
				 &t->err), -EINVAL);
	T_EXPECT_STREQ(t->err.msg, "domain x.org: profile name too long: at most 31 bytes");
	T_EXPECT_EQ(t->m.n, 3u);
	/* delete */
	T_EXPECT_EQ(l2s_dmap_del(&t->m, &t->mem, "example.com", &t->err), 0);
	T_EXPECT_NULL(l2s_dmap_find(&t->m, "example.com"));
	T_EXPECT_NOT_NULL(l2s_dmap_find(&t->m, "example.net"));
	T_EXPECT_EQ(l2s_dmap_del(&t->m, &t->mem, "example.com", &t->err), -ENOENT);
	T_EXPECT_STREQ(t->err.msg, "no domain example.com");
	T_EXPECT_EQ(l2s_dmap_add(&t->m, &t->mem, "example.com", "R", &t->err), 0);
	T_EXPECT_STREQ(l2s_dmap_find(&t->m, "example.com")->profile, "R");
	T_EXPECT_GE(dm_check(test, &t->m), 1);
	/* the last delete frees the buckets */
	T_EXPECT_EQ(l2s_dmap_del(&t->m, &t->mem, "example.com", &t->err), 0);
	T_EXPECT_EQ(l2s_dmap_del(&t->m, &t->mem, "example.net", &t->err), 0);
	T_EXPECT_EQ(l2s_dmap_del(&t->m, &t->mem, longname, &t->err), 0);
	T_EXPECT_NULL(t->m.b);
	T_EXPECT_EQ(t->d.live, 0);
	T_EXPECT_EQ(l2s_dmap_del(&t->m, &t->mem, "example.net", &t->err), -ENOENT);
	l2s_dmap_release(&t->m, &t->mem);
}

/*
 * Growth and shrinking over many sizes: every entry found after each
 * rehash, the load at most one entry per chain after an add, at least a
 * quarter after a delete, chains short, nothing left allocated at the end.
 */
T_CASE(dmap_growth_many_sizes)
{
	static const u32 sizes[] = { 1, 2, 15, 16, 17, 33, 64, 100, 1000, 4097, 30000 };
	struct dm *t = dm_new(L2S_DOMAINS_MAX);
	u32 s, i, n;
	int longest;

	for (s = 0; s < L2S_ARRAY_SIZE(sizes); s++) {
		n = sizes[s];
		for (i = 0; i < n; i++)
			T_ASSERT_EQ(dm_add(t, i), 0);
		T_EXPECT_EQ(t->m.n, n);
		T_EXPECT_LE(n, 1u << t->m.bits);
		T_EXPECT_TRUE(t->m.bits == L2S_DMAP_MIN_BITS || n > 1u << (t->m.bits - 1));
		longest = dm_check(test, &t->m);
		T_EXPECT_GE(longest, 1);
		T_EXPECT_LE_MSG(longest, 12, "%u entries: a chain of %d", n, longest);
		for (i = 0; i < n; i++)
			T_EXPECT_TRUE_MSG(dm_has(t, i), "%u entries: d%u.example lost", n, i);
		T_EXPECT_FALSE(dm_has(t, n));
		T_EXPECT_EQ(dm_add(t, n / 2), -EEXIST);
		/* every other one goes, then the rest, backwards */
		for (i = 0; i < n; i += 2)
			T_ASSERT_EQ(dm_del(t, i), 0);
		T_EXPECT_EQ(t->m.n, n / 2);
		T_EXPECT_GE(dm_check(test, &t->m), 0);
		T_EXPECT_TRUE(!t->m.n || t->m.bits == L2S_DMAP_MIN_BITS ||
			      t->m.n >= 1u << (t->m.bits - 2));
		for (i = 0; i < n; i++)
			T_EXPECT_EQ(dm_has(t, i), i % 2 == 1);
		for (i = n; i-- > 0;)
			if (i % 2)
				T_ASSERT_EQ(dm_del(t, i), 0);
		T_EXPECT_EQ(t->m.n, 0u);
		T_EXPECT_NULL(t->m.b);
		T_EXPECT_EQ(t->d.live, 0);
	}
	l2s_dmap_release(&t->m, &t->mem);
}

/* The bound on the entries (the module's max_domains). */
T_CASE(dmap_bound)
{
	struct dm *t = dm_new(3);
	u32 i;

	for (i = 0; i < 3; i++)
		T_EXPECT_EQ(dm_add(t, i), 0);
	T_EXPECT_EQ(dm_add(t, 3), -ENOSPC);
	T_EXPECT_STREQ(t->err.msg, "at most 3 domains");
	T_EXPECT_FALSE(dm_has(t, 3));
	T_EXPECT_EQ(t->m.n, 3u);
	/* a duplicate at the bound is a duplicate */
	T_EXPECT_EQ(dm_add(t, 1), -EEXIST);
	T_EXPECT_EQ(dm_del(t, 1), 0);
	T_EXPECT_EQ(dm_add(t, 3), 0);
	T_EXPECT_TRUE(dm_has(t, 3));
	/* a bound lowered below the count refuses adds, keeps the entries */
	t->m.max = 1;
	T_EXPECT_EQ(dm_add(t, 4), -ENOSPC);
	T_EXPECT_STREQ(t->err.msg, "at most 1 domains");
	T_EXPECT_EQ(t->m.n, 3u);
	t->m.max = 0;
	T_EXPECT_EQ(dm_del(t, 0), 0);
	T_EXPECT_EQ(dm_add(t, 0), -ENOSPC);
	l2s_dmap_release(&t->m, &t->mem);
	T_EXPECT_EQ(t->d.live, 0);
}

/*
 * One walk in parts of @part entries; between parts @churn(t, step) may
 * change the map.  @seen counts how often each index was returned; the
 * order must be strictly increasing (hash, name) throughout.
 */
static void dm_walk(t_test *test, struct dm *t, u32 part, u8 *seen, u32 nseen,
		    void (*churn)(struct dm *t, u32 step, u8 *seen))
{
	u32 hash = 0, i, k, step = 0;
	char name[L2S_DOMAIN_LEN] = "";
	struct l2s_domain *e;
	u64 pos = 0;
	bool first = true;

	for (;;) {
		for (k = 0; k < part && (e = l2s_dmap_next(&t->m, &pos)); k++) {
			int got = sscanf(e->name, "d%u.example", &i);

			T_ASSERT_EQ(got, 1);
			T_ASSERT_TRUE(i < nseen);
			if (!first)
				T_EXPECT_TRUE_MSG(e->hash > hash ||
						  (e->hash == hash && strcmp(e->name, name) > 0),
						  "%s after %s", e->name, name);
			first = false;
			hash = e->hash;
			strcpy(name, e->name);
			if (seen[i] < 255)
				seen[i]++;
		}
		if (k < part)
			break;
		if (churn)
			churn(t, step++, seen);
	}
	T_EXPECT_NULL(l2s_dmap_next(&t->m, &pos));	/* the end stays the end */
}

#define DM_WALK_N	2000
#define DM_SEEN		(4 * DM_WALK_N)
#define DM_GONE		200	/* deleted before the walk came to it */

/* Between parts: one entry returned and one not yet returned go. */
static void dm_churn_del(struct dm *t, u32 step, u8 *seen)
{
	u32 i, done = 0, todo = 0;

	for (i = (step * 37) % DM_WALK_N; i < DM_WALK_N && !(done && todo); i++) {
		if (!dm_has(t, i))
			continue;
		if (seen[i]) {
			if (!done)
				done = dm_del(t, i) == 0;
			continue;
		}
		if (!todo && dm_del(t, i) == 0) {
			seen[i] = DM_GONE;
			todo = 1;
		}
	}
}

/* Between parts: entries come (indexes from DM_WALK_N up) and the map grows. */
static void dm_churn_add(struct dm *t, u32 step, u8 *seen)
{
	u32 i;

	for (i = 0; i < 50 && DM_WALK_N + step * 50 + i < DM_SEEN; i++)
		dm_add(t, DM_WALK_N + step * 50 + i);
}

/*
 * A walk resumed from its cursor (the module's dump in parts): with no
 * change every entry once; with deletions or growth between parts, every
 * entry there all along once, none twice, none deleted before its turn.
 */
T_CASE(dmap_walk_resumes)
{
	static const u32 parts[] = { 1, 7, 100, 5000 };
	struct dm *t = dm_new(L2S_DOMAINS_MAX);
	u32 p, i, nseen = DM_SEEN;
	u8 *seen = T_ZALLOC(nseen);
	u32 bits;

	T_ASSERT_NOT_NULL(seen);
	for (p = 0; p < L2S_ARRAY_SIZE(parts); p++) {
		/* no change */
		for (i = 0; i < DM_WALK_N; i++)
			T_ASSERT_EQ(dm_add(t, i), 0);
		memset(seen, 0, nseen);
		dm_walk(test, t, parts[p], seen, nseen, NULL);
		for (i = 0; i < DM_WALK_N; i++)
			T_EXPECT_EQ_MSG(seen[i], 1, "part %u: d%u.example", parts[p], i);
		/* deletions between parts (and the shrinking they cause) */
		memset(seen, 0, nseen);
		dm_walk(test, t, parts[p], seen, nseen, dm_churn_del);
		for (i = 0; i < DM_WALK_N; i++)
			T_EXPECT_TRUE_MSG(seen[i] == 1 || (seen[i] == DM_GONE && !dm_has(t, i)),
					  "part %u: d%u.example seen %u", parts[p], i, seen[i]);
		T_EXPECT_GE(dm_check(test, &t->m), 0);
		/* growth between parts: what was there is returned once */
		bits = t->m.bits;
		memset(seen, 0, nseen);
		for (i = 0; i < DM_WALK_N; i++)
			seen[i] = dm_has(t, i) ? 0 : 100;
		dm_walk(test, t, parts[p], seen, nseen, dm_churn_add);
		for (i = 0; i < nseen; i++) {
			T_EXPECT_TRUE_MSG(i < DM_WALK_N ? seen[i] == 1 || seen[i] == 100 :
					  seen[i] <= 1, "part %u: d%u.example seen %u times",
					  parts[p], i, seen[i]);
		}
		if (parts[p] < 100)
			T_EXPECT_GT(t->m.bits, bits);
		T_EXPECT_GE(dm_check(test, &t->m), 0);
		l2s_dmap_release(&t->m, &t->mem);
		T_EXPECT_EQ(t->d.live, 0);
	}
}

/*
 * Two domains whose hashes collide: both kept, found, walked once each in
 * name order, one deleted without the other.
 */
T_CASE(dmap_hash_collision)
{
	static const char * const a[] = { "de10656571591943.net", "dfb556f3e2004126.net" };
	static const char * const b[] = { "d5450fbb3426147.net", "d21204f411114769.net" };
	struct dm *t = dm_new(100);
	struct l2s_domain *e;
	u64 pos = 0;

	T_ASSERT_EQ(l2s_hash_key(a[0], (u32)strlen(a[0])), l2s_hash_key(a[1], (u32)strlen(a[1])));
	T_ASSERT_EQ(l2s_hash_key(b[0], (u32)strlen(b[0])), l2s_hash_key(b[1], (u32)strlen(b[1])));
	T_EXPECT_EQ(l2s_dmap_add(&t->m, &t->mem, a[1], "A1", &t->err), 0);
	T_EXPECT_EQ(l2s_dmap_add(&t->m, &t->mem, a[0], "A0", &t->err), 0);
	T_EXPECT_EQ(l2s_dmap_add(&t->m, &t->mem, b[0], "B0", &t->err), 0);
	T_EXPECT_EQ(l2s_dmap_add(&t->m, &t->mem, b[1], "B1", &t->err), 0);
	T_EXPECT_EQ(l2s_dmap_add(&t->m, &t->mem, a[0], "X", &t->err), -EEXIST);
	T_EXPECT_STREQ(l2s_dmap_find(&t->m, a[0])->profile, "A0");
	T_EXPECT_STREQ(l2s_dmap_find(&t->m, a[1])->profile, "A1");
	T_EXPECT_GE(dm_check(test, &t->m), 2);
	/* one at a time, as a dump of one entry per part */
	e = l2s_dmap_next(&t->m, &pos);
	T_ASSERT_NOT_NULL(e);
	T_EXPECT_STREQ(e->name, a[0]);		/* 0x0035e83f comes first */
	e = l2s_dmap_next(&t->m, &pos);
	T_ASSERT_NOT_NULL(e);
	T_EXPECT_STREQ(e->name, a[1]);
	T_EXPECT_EQ((u32)pos, 2u);
	e = l2s_dmap_next(&t->m, &pos);
	T_ASSERT_NOT_NULL(e);
	T_EXPECT_STREQ(e->name, b[1]);		/* "d2..." before "d5..." */
	e = l2s_dmap_next(&t->m, &pos);
	T_ASSERT_NOT_NULL(e);
	T_EXPECT_STREQ(e->name, b[0]);
	T_EXPECT_NULL(l2s_dmap_next(&t->m, &pos));
	T_EXPECT_EQ(l2s_dmap_del(&t->m, &t->mem, a[0], &t->err), 0);
	T_EXPECT_NULL(l2s_dmap_find(&t->m, a[0]));
	T_EXPECT_STREQ(l2s_dmap_find(&t->m, a[1])->profile, "A1");
	T_EXPECT_EQ(l2s_dmap_del(&t->m, &t->mem, a[0], &t->err), -ENOENT);
	T_EXPECT_GE(dm_check(test, &t->m), 1);
	l2s_dmap_release(&t->m, &t->mem);
	T_EXPECT_EQ(t->d.live, 0);
}

/*
 * Every allocation an add makes fails in turn: the entry's (the map as it
 * was, -ENOMEM), the first bucket array's (likewise) and a growth's (the
 * add done in the buckets there are, which grow at the next add); a
 * shrink that fails keeps the larger array.  Nothing leaks.
 */
T_CASE(dmap_allocation_failure)
{
	struct dm *t = dm_new(L2S_DOMAINS_MAX);
	u32 i, bits;
	long live;

	/* empty map: the entry, then the first buckets */
	t->d.fail_in = 1;
	T_EXPECT_EQ(dm_add(t, 0), -ENOMEM);
	T_EXPECT_STREQ(t->err.msg, "domain d0.example: out of memory");
	T_EXPECT_EQ(t->m.n, 0u);
	T_EXPECT_NULL(t->m.b);
	T_EXPECT_EQ(t->d.live, 0);
	t->d.fail_in = 2;
	T_EXPECT_EQ(dm_add(t, 0), -ENOMEM);
	T_EXPECT_STREQ(t->err.msg, "domain d0.example: out of memory (16 buckets)");
	T_EXPECT_EQ(t->m.n, 0u);
	T_EXPECT_NULL(t->m.b);
	T_EXPECT_EQ(t->d.live, 0);
	T_EXPECT_FALSE(dm_has(t, 0));
	/* a full array: the entry fails, then the growth */
	for (i = 0; i < 1u << L2S_DMAP_MIN_BITS; i++)
		T_ASSERT_EQ(dm_add(t, i), 0);
	bits = t->m.bits;
	live = t->d.live;
	t->d.fail_in = 1;
	T_EXPECT_EQ(dm_add(t, i), -ENOMEM);
	T_EXPECT_EQ(t->m.n, i);
	T_EXPECT_EQ(t->m.bits, bits);
	T_EXPECT_EQ(t->d.live, live);
	T_EXPECT_FALSE(dm_has(t, i));
	t->d.fail_in = 2;
	T_EXPECT_EQ(dm_add(t, i), 0);
	T_EXPECT_EQ(t->m.bits, bits);
	T_EXPECT_EQ(t->d.live, live + 1);
	T_EXPECT_GE(dm_check(test, &t->m), 2);	/* 17 entries in 16 chains */
	i++;
	T_EXPECT_EQ(dm_add(t, i), 0);
	T_EXPECT_EQ(t->m.bits, bits + 1);
	for (; i-- > 0;)
		T_EXPECT_TRUE(dm_has(t, i));
	/* a shrink that fails */
	for (i = 0; t->m.bits > bits && i < 18; i++)
		T_ASSERT_EQ(dm_del(t, i), 0);
	T_EXPECT_EQ(t->m.bits, bits);		/* shrunk below the quarter */
	T_EXPECT_EQ(t->m.n, 7u);
	for (i = 0; i < 200; i++)
		T_ASSERT_EQ(dm_add(t, 100 + i), 0);
	bits = t->m.bits;
	T_EXPECT_EQ(bits, 8u);
	for (i = 0; t->m.n > 1u << (t->m.bits - 2) && i < 200; i++)
		T_ASSERT_EQ(dm_del(t, 100 + i), 0);
	T_EXPECT_EQ(t->m.bits, bits);
	live = t->d.live;
	t->d.fail_in = 1;
	T_EXPECT_EQ(dm_del(t, 100 + i), 0);
	T_EXPECT_EQ(t->m.bits, bits);
	T_EXPECT_EQ(t->d.live, live - 1);
	T_EXPECT_GE(dm_check(test, &t->m), 0);
	T_EXPECT_EQ(t->d.fail_in, 0);
	l2s_dmap_release(&t->m, &t->mem);
	T_EXPECT_EQ(t->d.live, 0);
}

T_SUITE(l2tpsel_dmap,
	T_ENTRY(dmap_add_del_lookup)
	T_ENTRY(dmap_growth_many_sizes)
	T_ENTRY(dmap_bound)
	T_ENTRY(dmap_walk_resumes)
	T_ENTRY(dmap_hash_collision)
	T_ENTRY(dmap_allocation_failure));
