// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The domain map (S-OBJ-4): a hash map of domain -> profile name, chained,
 * keyed by l2s_hash_key(); see struct l2s_dmap in dmap.h.
 *
 * A chain is sorted by (hash, name) and a bucket is the top @bits of the
 * hash, so the buckets in order hold the entries in (hash, name) order.  A
 * rehash walks the old buckets in that order and appends each entry to its
 * new bucket: the order is kept with one tail pointer and no allocation
 * beyond the new array.  A dump cursor is the hash of the last entry it
 * gave and how many entries of that hash it gave (hash collisions are
 * rare, but they are not skipped or repeated either).
 */
#include "dmap.h"
#include "hash.h"

/**
 * l2s_dmap_init() - an empty map
 * @m: the map
 * @max: the bound on its entries
 */
void l2s_dmap_init(struct l2s_dmap *m, u32 max)
{
	memset(m, 0, sizeof(*m));
	m->max = max;
}

static size_t dmap_size(u32 bits)
{
	return sizeof(struct l2s_domain *) << bits;
}

static u32 dmap_bucket(u32 hash, u32 bits)
{
	return hash >> (32 - bits);
}

/* (hash, name) order: negative when @e comes before (@hash, @name). */
static int dmap_cmp(const struct l2s_domain *e, u32 hash, const char *name)
{
	if (e->hash != hash)
		return e->hash < hash ? -1 : 1;
	return strcmp(e->name, name);
}

/*
 * Move every entry to a new array of 1 << @bits chains (0: none, the map
 * is empty).  Return: 0, or -ENOMEM with the map as it was.
 */
static int dmap_resize(struct l2s_dmap *m, const struct l2s_mem *mem, u32 bits)
{
	struct l2s_domain **b = NULL, **tail = NULL, *e, *next;
	u32 i, cur = 0;

	if (bits) {
		b = mem->alloc(mem->ctx, dmap_size(bits));
		if (!b)
			return -ENOMEM;
		memset(b, 0, dmap_size(bits));
	}
	for (i = 0; m->b && i < 1u << m->bits; i++) {
		for (e = m->b[i]; e; e = next) {
			u32 j = dmap_bucket(e->hash, bits);

			next = e->next;
			/* buckets are taken in increasing order: one tail suffices */
			if (!tail || j != cur) {
				cur = j;
				tail = &b[j];
			}
			e->next = NULL;
			*tail = e;
			tail = &e->next;
		}
	}
	if (m->b)
		mem->free(mem->ctx, m->b, dmap_size(m->bits));
	m->b = b;
	m->bits = bits;
	return 0;
}

/**
 * l2s_dmap_release() - free every entry and the bucket array
 * @m: the map, empty afterwards
 * @mem: the allocator that made them
 */
void l2s_dmap_release(struct l2s_dmap *m, const struct l2s_mem *mem)
{
	struct l2s_domain *e, *next;
	u32 i;

	for (i = 0; m->b && i < 1u << m->bits; i++) {
		for (e = m->b[i]; e; e = next) {
			next = e->next;
			mem->free(mem->ctx, e, sizeof(*e));
		}
	}
	if (m->b)
		mem->free(mem->ctx, m->b, dmap_size(m->bits));
	m->b = NULL;
	m->bits = 0;
	m->n = 0;
}

/*
 * The link that points at @name's entry, or at the first entry after it
 * in its chain (or the chain's end).  @m->b must exist.
 */
static struct l2s_domain **dmap_link(const struct l2s_dmap *m, u32 hash, const char *name)
{
	struct l2s_domain **l = &m->b[dmap_bucket(hash, m->bits)];

	while (*l && dmap_cmp(*l, hash, name) < 0)
		l = &(*l)->next;
	return l;
}

/**
 * l2s_dmap_find() - the entry of a domain
 * @m: the map
 * @name: the domain; a name of L2S_DOMAIN_LEN bytes or more is in no map
 *
 * Return: the entry, or NULL.
 */
struct l2s_domain *l2s_dmap_find(const struct l2s_dmap *m, const char *name)
{
	size_t len = strlen(name);
	struct l2s_domain *e;

	if (!m->b || len >= L2S_DOMAIN_LEN)
		return NULL;
	e = *dmap_link(m, l2s_hash_key(name, (u32)len), name);
	return e && !strcmp(e->name, name) ? e : NULL;
}

/**
 * l2s_dmap_add() - add a domain that is not in the map
 * @m: the map
 * @mem: the allocator of its entries and buckets
 * @name: the domain, 1..63 bytes
 * @profile: the profile's name, 1..31 bytes
 * @err: refusal message
 *
 * When the bucket array cannot grow the entry goes into the one there is
 * (the chains get longer, nothing is lost); it grows at a later add.
 *
 * Return: 0; -EINVAL for a bad name, -EEXIST when @name is in the map,
 * -ENOSPC at the bound, -ENOMEM (the map unchanged), with @err set.
 */
int l2s_dmap_add(struct l2s_dmap *m, const struct l2s_mem *mem, const char *name,
		 const char *profile, struct l2s_err *err)
{
	size_t len = strlen(name), plen = strlen(profile);
	struct l2s_domain *e, **l;

	if (!len)
		return L2S_REFUSE(-EINVAL, err, "domain name must not be empty");
	if (len >= L2S_DOMAIN_LEN)
		return L2S_REFUSE(-EINVAL, err, "domain name too long: at most %u bytes",
				  L2S_DOMAIN_LEN - 1);
	if (!plen)
		return L2S_REFUSE(-EINVAL, err, "domain %s: profile name must not be empty", name);
	if (plen >= L2S_NAME_LEN)
		return L2S_REFUSE(-EINVAL, err,
				  "domain %s: profile name too long: at most %u bytes",
				  name, L2S_NAME_LEN - 1);
	e = l2s_dmap_find(m, name);
	if (e)
		return L2S_REFUSE(-EEXIST, err, "domain %s already maps to profile %s",
				  name, e->profile);
	if (m->n >= m->max)
		return L2S_REFUSE(-ENOSPC, err, "at most %u domains", m->max);
	e = mem->alloc(mem->ctx, sizeof(*e));
	if (!e)
		return L2S_REFUSE(-ENOMEM, err, "domain %s: out of memory", name);
	if (!m->b && dmap_resize(m, mem, L2S_DMAP_MIN_BITS)) {
		mem->free(mem->ctx, e, sizeof(*e));
		return L2S_REFUSE(-ENOMEM, err, "domain %s: out of memory (%u buckets)",
				  name, 1u << L2S_DMAP_MIN_BITS);
	}
	if (m->n + 1 > 1u << m->bits && m->bits < L2S_DMAP_MAX_BITS)
		dmap_resize(m, mem, m->bits + 1);	/* may fail: see above */
	memset(e, 0, sizeof(*e));
	memcpy(e->name, name, len);
	memcpy(e->profile, profile, plen);
	e->hash = l2s_hash_key(name, (u32)len);
	l = dmap_link(m, e->hash, name);
	e->next = *l;
	*l = e;
	m->n++;
	return 0;
}

/**
 * l2s_dmap_del() - remove a domain
 * @m: the map
 * @mem: the allocator of its entries and buckets
 * @name: the domain
 * @err: refusal message
 *
 * Return: 0, or -ENOENT with @err set.
 */
int l2s_dmap_del(struct l2s_dmap *m, const struct l2s_mem *mem, const char *name,
		 struct l2s_err *err)
{
	size_t len = strlen(name);
	struct l2s_domain *e, **l;

	if (!m->b || len >= L2S_DOMAIN_LEN)
		return L2S_REFUSE(-ENOENT, err, "no domain %s", name);
	l = dmap_link(m, l2s_hash_key(name, (u32)len), name);
	e = *l;
	if (!e || strcmp(e->name, name))
		return L2S_REFUSE(-ENOENT, err, "no domain %s", name);
	*l = e->next;
	mem->free(mem->ctx, e, sizeof(*e));
	m->n--;
	/* Shrink below a quarter full; when that fails the larger array stays. */
	if (!m->n)
		dmap_resize(m, mem, 0);
	else if (m->bits > L2S_DMAP_MIN_BITS && m->n < 1u << (m->bits - 2))
		dmap_resize(m, mem, m->bits - 1);
	return 0;
}

/**
 * l2s_dmap_next() - the next entry of a walk in (hash, name) order
 * @m: the map
 * @pos: the cursor, 0 to start; advanced past the entry returned
 *
 * The cursor holds the hash of the last entry returned and how many entries
 * of that hash were returned, so it stays valid across any add, delete or
 * rehash: an entry that was in the map for the whole walk is returned once,
 * unless an entry of the same hash that came before it was deleted
 * meanwhile (the caller's generation count flags that walk).
 *
 * Return: the entry, or NULL at the end.
 */
struct l2s_domain *l2s_dmap_next(const struct l2s_dmap *m, u64 *pos)
{
	u32 hash = (u32)(*pos >> 32), seen = (u32)*pos, skip = seen, i;
	struct l2s_domain *e;

	if (!m->b)
		return NULL;
	for (i = dmap_bucket(hash, m->bits); i < 1u << m->bits; i++) {
		for (e = m->b[i]; e; e = e->next) {
			if (e->hash < hash)
				continue;
			if (e->hash == hash && skip) {
				skip--;
				continue;
			}
			if (e->hash == hash)
				*pos = ((u64)hash << 32) | (seen + 1);
			else
				*pos = ((u64)e->hash << 32) | 1;
			return e;
		}
	}
	return NULL;
}
