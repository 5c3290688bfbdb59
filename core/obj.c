// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Objects of the selection core and their bounds (S-OBJ-1..4).
 */
#include "obj.h"

/*
 * The default allocator of the build (struct l2s_mem): kvmalloc/kvfree in
 * the kernel, malloc/free in userspace.
 */
#ifdef L2S_KERNEL
static void *mem_alloc(void *ctx, size_t size)
{
	return kvmalloc(size, GFP_KERNEL_ACCOUNT);
}

static void mem_free(void *ctx, void *ptr, size_t size)
{
	kvfree(ptr);
}
#else
static void *mem_alloc(void *ctx, size_t size)
{
	return malloc(size);
}

static void mem_free(void *ctx, void *ptr, size_t size)
{
	free(ptr);
}
#endif

const struct l2s_mem l2s_mem_default = {
	.alloc = mem_alloc,
	.free = mem_free,
};

/**
 * l2s_core_init() - set up one instance
 * @c: the instance
 * @dests: destination table, zeroed by this call; NULL: chunks by need
 * @ndests: its capacity
 *
 * The domain map starts empty, bounded by L2S_DOMAINS_MAX (c->domains.max
 * may be set lower or higher before it is used).
 */
void l2s_core_init(struct l2s_core *c, struct l2s_dest *dests, u32 ndests)
{
	u32 i;

	memset(c, 0, sizeof(*c));
	if (ndests > L2S_DESTS_MAX)
		ndests = L2S_DESTS_MAX;
	c->ndests_cap = ndests;
	if (dests) {
		memset(dests, 0, sizeof(*dests) * ndests);
		for (i = 0; i * L2S_DEST_CHUNK < ndests; i++)
			c->dchunk[i] = dests + i * L2S_DEST_CHUNK;
		c->dflat = true;
	}
	l2s_dmap_init(&c->domains, L2S_DOMAINS_MAX);
	c->lockout_ms = L2S_DEFAULT_LOCKOUT_MS;
	c->mem = &l2s_mem_default;
}

/**
 * l2s_core_release() - free the destination chunks and the domain map
 * @c: the instance; nothing may use it afterwards (readers included)
 */
void l2s_core_release(struct l2s_core *c)
{
	u32 i;

	l2s_dmap_release(&c->domains, c->mem);

	for (i = 0; !c->dflat && i < L2S_ARRAY_SIZE(c->dchunk); i++) {
		if (c->dchunk[i])
			c->mem->free(c->mem->ctx, c->dchunk[i],
				     L2S_DEST_CHUNK * sizeof(struct l2s_dest));
		c->dchunk[i] = NULL;
	}
}

/**
 * l2s_set_lockout_time() - configure the destination lockout time
 * @c: the instance
 * @secs: 1 .. 86400 seconds
 * @err: refusal message
 *
 * Return: 0, or a negative errno with @err set.
 */
int l2s_set_lockout_time(struct l2s_core *c, u32 secs, struct l2s_err *err)
{
	if (secs < 1 || secs > L2S_MAX_LOCKOUT_MS / 1000)
		return L2S_REFUSE(-EINVAL, err, "lockout time %u: must be 1..%u seconds",
				secs, L2S_MAX_LOCKOUT_MS / 1000);
	c->lockout_ms = secs * 1000;
	return 0;
}

/* Copy a checked string into a fixed field, always NUL-terminated. */
static void copy_str(char *dst, const char *src, size_t size)
{
	size_t len = src ? strlen(src) : 0;

	if (len >= size)
		len = size - 1;
	memset(dst, 0, size);
	if (len)
		memcpy(dst, src, len);
}

static int check_name(const char *what, const char *name, size_t max,
		      bool empty_ok, struct l2s_err *err)
{
	size_t len = name ? strlen(name) : 0;

	if (!len && !empty_ok)
		return L2S_REFUSE(-EINVAL, err, "%s name must not be empty", what);
	if (len >= max)
		return L2S_REFUSE(-EINVAL, err, "%s name too long: at most %u bytes",
				what, (unsigned int)max - 1);
	return 0;
}

/**
 * l2s_profile_check_name() - is @name a valid profile name?
 * @name: the name
 * @err: refusal message
 *
 * Return: 0, or a negative errno with @err set.
 */
int l2s_profile_check_name(const char *name, struct l2s_err *err)
{
	return check_name("profile", name, L2S_NAME_LEN, false, err);
}

/**
 * l2s_profile_init() - an empty profile with default settings
 * @p: the profile; an array it held must have been freed before
 *     (l2s_profile_release() or l2s_profile_free())
 * @name: its name, already checked with l2s_profile_check_name()
 *
 * An empty profile holds no tunnel array.
 */
void l2s_profile_init(struct l2s_profile *p, const char *name)
{
	memset(p, 0, sizeof(*p));
	copy_str(p->name, name, L2S_NAME_LEN);
	p->failover = L2S_FAILOVER_BETWEEN_LEVELS;
	p->lb = L2S_LB_RANDOM;
	p->gen = 1;
}

/**
 * l2s_addr_equal() - same family and address?
 * @a: one address
 * @b: the other
 *
 * Return: true when equal (two unset addresses are equal).
 */
bool l2s_addr_equal(const struct l2s_addr *a, const struct l2s_addr *b)
{
	if (a->family != b->family)
		return false;
	if (a->family == 4)
		return !memcmp(a->bytes, b->bytes, 4);
	if (a->family == 6)
		return !memcmp(a->bytes, b->bytes, 16);
	return true;
}

static bool key_equal(const struct l2s_dest_key *a, const struct l2s_dest_key *b)
{
	return a->port == b->port && l2s_addr_equal(&a->remote, &b->remote) &&
	       l2s_addr_equal(&a->local, &b->local);
}

/**
 * l2s_dest_find() - the slot of a destination in use
 * @c: the instance
 * @k: its key
 *
 * Return: the slot, or -1.
 */
int l2s_dest_find(const struct l2s_core *c, const struct l2s_dest_key *k)
{
	const struct l2s_dest *d;
	u32 i;

	for (i = 0; (d = l2s_dest_walk(c, i)); i++)
		if (d->refs && key_equal(&d->key, k))
			return (int)i;
	return -1;
}

/**
 * l2s_dest_locked() - is the destination's lockout timer running?
 * @d: the destination
 * @now: current time in ms
 *
 * Return: true while locked.
 */
bool l2s_dest_locked(const struct l2s_dest *d, u64 now)
{
	return d->lock_until > now;
}

/*
 * The lowest free destination slot, its chunk allocated if it had none.
 * Return: the slot, or -ENOSPC / -ENOMEM with @err set.
 */
static int dest_free_slot(struct l2s_core *c, struct l2s_err *err)
{
	struct l2s_dest *d;
	u32 j;

	for (j = 0; j < c->ndests_cap; j++) {
		d = c->dchunk[j / L2S_DEST_CHUNK];
		if (!d) {
			d = c->mem->alloc(c->mem->ctx, L2S_DEST_CHUNK * sizeof(*d));
			if (!d)
				return L2S_REFUSE(-ENOMEM, err,
						  "out of memory for destinations %u-%u", j,
						  j + L2S_DEST_CHUNK - 1);
			memset(d, 0, L2S_DEST_CHUNK * sizeof(*d));
			c->dchunk[j / L2S_DEST_CHUNK] = d;
		}
		if (!d[j % L2S_DEST_CHUNK].refs)
			return (int)j;
	}
	return L2S_REFUSE(-ENOSPC, err, "at most %u destinations in total", c->ndests_cap);
}

/* Find or take a destination slot; one reference is taken. */
static int dest_get(struct l2s_core *c, const struct l2s_dest_key *k,
		    struct l2s_err *err)
{
	int i = l2s_dest_find(c, k);
	struct l2s_dest *d;

	if (i >= 0) {
		d = l2s_dest_at(c, (u32)i);
		d->refs++;
		return i;
	}
	i = dest_free_slot(c, err);
	if (i < 0)
		return i;
	d = l2s_dest_at(c, (u32)i);
	memset(d, 0, sizeof(*d));
	d->key = *k;
	d->refs = 1;
	l2s_dest_set_drain(c, (u32)i, false);
	return i;
}

/**
 * l2s_dest_set_drain() - drain a destination slot or end its drain (S-OPS-1)
 * @c: the instance
 * @slot: a slot in use
 * @on: drain it
 *
 * Every tunnel to it, in every profile and tunnel set, takes no new login
 * while it is drained; sessions to it stay.  The mark lives as long as the
 * slot: a destination no tunnel names any more is forgotten with it.
 */
void l2s_dest_set_drain(struct l2s_core *c, u32 slot, bool on)
{
	u32 bit = 1u << (slot % 32);

	if (slot >= L2S_DESTS_MAX)
		return;
	if (on)
		c->dest_drain[slot / 32] |= bit;
	else
		c->dest_drain[slot / 32] &= ~bit;
}

/**
 * l2s_dest_drain_match() - drain the destinations matching a key (S-OPS-1)
 * @c: the instance
 * @k: remote address, and the port and local address when asked for
 * @port: match @k->port too
 * @local: match @k->local too
 * @on: drain, or end the drain
 *
 * Return: the number of destinations matched.
 */
u32 l2s_dest_drain_match(struct l2s_core *c, const struct l2s_dest_key *k,
			 bool port, bool local, bool on)
{
	struct l2s_dest *d;
	u32 i, n = 0;

	for (i = 0; (d = l2s_dest_walk(c, i)); i++) {
		if (!d->refs || !l2s_addr_equal(&d->key.remote, &k->remote))
			continue;
		if (port && d->key.port != k->port)
			continue;
		if (local && !l2s_addr_equal(&d->key.local, &k->local))
			continue;
		l2s_dest_set_drain(c, i, on);
		n++;
	}
	return n;
}

static void dest_put(struct l2s_core *c, u16 slot)
{
	struct l2s_dest *d = l2s_dest_at(c, slot);

	if (d->refs)
		d->refs--;
}

/*
 * A tunnel leaves its profile with logins in flight on it: their places on
 * the shared destination go with it (the logins learn at their next report
 * that their tunnel is gone, and give back nothing then).
 */
static void tunnel_drop_inflight(struct l2s_core *c, struct l2s_tunnel *t)
{
	struct l2s_dest *d = l2s_dest_at(c, t->dest);

	d->inflight = d->inflight > t->inflight ? d->inflight - t->inflight : 0;
	t->inflight = 0;
}

/*
 * Give @p room for exactly @cap tunnels (>= p->ntunnels), keeping them.
 * Return: 0, or -ENOMEM with @p unchanged.
 */
static int tunnels_resize(struct l2s_core *c, struct l2s_profile *p, u32 cap)
{
	struct l2s_tunnel *t = NULL;

	if (cap) {
		t = c->mem->alloc(c->mem->ctx, l2s_tunnels_size(cap));
		if (!t)
			return -ENOMEM;
		if (p->ntunnels)
			memcpy(t, p->t, l2s_tunnels_size(p->ntunnels));
	}
	if (p->t)
		c->mem->free(c->mem->ctx, p->t, l2s_tunnels_size(p->tcap));
	p->t = t;
	p->tcap = (u16)cap;
	return 0;
}

/* Recompute levels[] and pdest[] after the tunnel array changed. */
static void profile_reindex(struct l2s_profile *p)
{
	u32 i, j;

	p->nlevels = 0;
	p->ndests = 0;
	memset(p->levels, 0, sizeof(p->levels));
	for (i = 0; i < p->ntunnels; i++) {
		struct l2s_tunnel *t = &p->t[i];

		for (j = 0; j < p->ndests; j++)
			if (p->pdest[j] == t->dest)
				break;
		if (j == p->ndests)
			p->pdest[p->ndests++] = t->dest;
		t->pdest = (u8)j;
		if (!p->nlevels || p->levels[p->nlevels - 1].level != t->level) {
			p->levels[p->nlevels].level = t->level;
			p->levels[p->nlevels].first = (u8)i;
			p->nlevels++;
		}
		p->levels[p->nlevels - 1].count++;
		p->levels[p->nlevels - 1].dests |= 1u << j;
	}
	for (i = 0; i < p->nlevels; i++)
		p->levels[i].ndests = (u8)l2s_popcount(p->levels[i].dests);
	p->gen++;
}

/**
 * l2s_tunnel_find() - index of a tunnel in a profile
 * @p: the profile
 * @name: the tunnel's name
 *
 * Return: the index, or -1.
 */
int l2s_tunnel_find(const struct l2s_profile *p, const char *name)
{
	u32 i;

	for (i = 0; i < p->ntunnels; i++)
		if (!strcmp(p->t[i].name, name))
			return (int)i;
	return -1;
}

/* Would adding a tunnel to @slot at @level break a destination bound? */
static int check_dest_bounds(struct l2s_core *c, const struct l2s_profile *p,
			     int slot, u32 level, struct l2s_err *err)
{
	u32 i, at_level = 0, in_level = 0, in_profile = 0;
	bool known = false;

	if (slot >= 0) {
		for (i = 0; i < p->ndests; i++) {
			if (p->pdest[i] == (u16)slot)
				known = true;
		}
	}
	for (i = 0; i < p->nlevels; i++) {
		if (p->levels[i].level != level)
			continue;
		at_level = p->levels[i].ndests;
		if (known) {
			u32 j;

			for (j = 0; j < p->ndests; j++)
				if (p->pdest[j] == (u16)slot &&
				    (p->levels[i].dests & (1u << j)))
					in_level = 1;
		}
	}
	in_profile = known;
	if (!in_level && at_level >= L2S_DESTS_PER_LEVEL)
		return L2S_REFUSE(-ENOSPC, err,
				  "profile %s: at most %u destinations per level (level %u has %u)",
				  p->name, L2S_DESTS_PER_LEVEL, level, at_level);
	if (!in_profile && p->ndests >= L2S_DESTS_PER_PROFILE)
		return L2S_REFUSE(-ENOSPC, err,
				  "profile %s: at most %u destinations per profile (it has %u)",
				  p->name, L2S_DESTS_PER_PROFILE, p->ndests);
	return 0;
}

/*
 * The uid of a tunnel about to join @p: the counter's next value that is
 * neither 0 nor held by one of its tunnels.  A 64-bit counter does not
 * wrap in practice; should it, the loop still never hands out a live
 * tunnel's uid, and it ends since a profile has at most
 * L2S_TUNNELS_PER_PROFILE tunnels.
 */
static u64 tunnel_next_uid(struct l2s_profile *p)
{
	u64 uid;
	u32 i;

again:
	uid = ++p->last_uid;
	if (!uid)
		goto again;
	for (i = 0; i < p->ntunnels; i++)
		if (p->t[i].uid == uid)
			goto again;
	return uid;
}

/**
 * l2s_tunnel_add() - add a tunnel to a profile (S-OBJ-2, S-OBJ-3)
 * @c: the instance (its destination table gains a reference)
 * @p: the profile
 * @tc: the tunnel's settings
 * @err: refusal message naming the bound that was broken
 *
 * Return: the new tunnel's index, or a negative errno with @err set.
 */
int l2s_tunnel_add(struct l2s_core *c, struct l2s_profile *p,
		   const struct l2s_tunnel_conf *tc, struct l2s_err *err)
{
	struct l2s_tunnel *t;
	bool new_level = true;
	u32 i, pos;
	int slot, ret;
	u64 uid;

	if (check_name("tunnel", tc->name, L2S_NAME_LEN, false, err) ||
	    check_name("tunnel group", tc->group, L2S_NAME_LEN, true, err))
		return -EINVAL;
	if (tc->secret && strlen(tc->secret) >= L2S_SECRET_LEN)
		return L2S_REFUSE(-EINVAL, err, "tunnel %s: secret too long: at most %u bytes",
				tc->name, L2S_SECRET_LEN - 1);
	if (l2s_tunnel_find(p, tc->name) >= 0)
		return L2S_REFUSE(-EEXIST, err, "profile %s: tunnel %s already exists",
				p->name, tc->name);
	if (tc->level >= L2S_LEVELS)
		return L2S_REFUSE(-EINVAL, err,
				  "tunnel %s: level %u out of range: at most %u levels (0..%u)",
				  tc->name, tc->level, L2S_LEVELS, L2S_LEVELS - 1);
	if (tc->max_sessions > L2S_MAX_SESSIONS_LIMIT)
		return L2S_REFUSE(-EINVAL, err, "tunnel %s: max-sessions %u above the bound %u",
				tc->name, tc->max_sessions, L2S_MAX_SESSIONS_LIMIT);
	if (tc->dest.remote.family != 4 && tc->dest.remote.family != 6)
		return L2S_REFUSE(-EINVAL, err, "tunnel %s: destination address required",
				tc->name);
	if (!tc->dest.port)
		return L2S_REFUSE(-EINVAL, err, "tunnel %s: port 0 is not a valid port", tc->name);
	if (p->ntunnels >= L2S_TUNNELS_PER_PROFILE)
		return L2S_REFUSE(-ENOSPC, err, "profile %s: at most %u tunnels per profile",
				p->name, L2S_TUNNELS_PER_PROFILE);
	for (i = 0; i < p->nlevels; i++)
		if (p->levels[i].level == tc->level)
			new_level = false;
	/* Cannot happen with 8 levels 0..7, kept as the S-OBJ-3 statement. */
	if (new_level && p->nlevels >= L2S_LEVELS)
		return L2S_REFUSE(-EINVAL, err, "profile %s: at most %u levels", p->name,
				L2S_LEVELS);
	ret = check_dest_bounds(c, p, l2s_dest_find(c, &tc->dest), tc->level, err);
	if (ret)
		return ret;
	/* Room first: a refusal after this point leaves only spare room behind. */
	if (p->ntunnels == p->tcap) {
		u32 cap = p->tcap ? 2u * p->tcap : 1;

		if (cap > L2S_TUNNELS_PER_PROFILE)
			cap = L2S_TUNNELS_PER_PROFILE;
		if (tunnels_resize(c, p, cap))
			return L2S_REFUSE(-ENOMEM, err,
					  "profile %s: out of memory (tunnel array of %u)",
					  p->name, cap);
	}
	slot = dest_get(c, &tc->dest, err);
	if (slot < 0)
		return slot;

	/* Keep the array sorted by level, new tunnels last within their level. */
	for (pos = 0; pos < p->ntunnels && p->t[pos].level <= tc->level; pos++)
		;
	for (i = p->ntunnels; i > pos; i--)
		p->t[i] = p->t[i - 1];
	uid = tunnel_next_uid(p);
	t = &p->t[pos];
	memset(t, 0, sizeof(*t));
	copy_str(t->name, tc->name, L2S_NAME_LEN);
	copy_str(t->group, tc->group, L2S_NAME_LEN);
	t->has_secret = tc->secret && tc->secret[0];
	t->level = (u8)tc->level;
	t->max_sessions = tc->max_sessions;
	t->dest = (u16)slot;
	t->uid = uid;
	p->ntunnels++;
	profile_reindex(p);
	return (int)pos;
}

/**
 * l2s_tunnel_del() - remove a tunnel from a profile
 * @c: the instance
 * @p: the profile
 * @name: the tunnel
 * @err: refusal message
 *
 * Its live sessions stay counted on the destination until they go down
 * through another path; a tunnel with live sessions is refused instead, so
 * that the counters cannot drift (S-LIM-9).  Logins in flight on it do not
 * hold it: their places on the destination go with it (S-STORM-2), and
 * each login fails over or ends at its next report (l2s_sel_report()).
 *
 * Return: 0, or a negative errno with @err set.
 */
int l2s_tunnel_del(struct l2s_core *c, struct l2s_profile *p, const char *name,
		   struct l2s_err *err)
{
	int i = l2s_tunnel_find(p, name);
	u32 j;

	if (i < 0)
		return L2S_REFUSE(-ENOENT, err, "profile %s: no tunnel %s", p->name, name);
	if (p->t[i].sessions)
		return L2S_REFUSE(-EBUSY, err, "tunnel %s has %u live sessions", name,
				p->t[i].sessions);
	tunnel_drop_inflight(c, &p->t[i]);
	dest_put(c, p->t[i].dest);
	for (j = (u32)i; j + 1 < p->ntunnels; j++)
		p->t[j] = p->t[j + 1];
	p->ntunnels--;
	/* Shrink at a quarter full; when that fails the larger array stays. */
	if (!p->ntunnels)
		tunnels_resize(c, p, 0);
	else if (p->ntunnels <= p->tcap / 4u)
		tunnels_resize(c, p, 2u * p->ntunnels);
	profile_reindex(p);
	return 0;
}

/**
 * l2s_profile_release() - drop every destination reference of a profile
 * @c: the instance
 * @p: the profile, empty afterwards, its tunnel array freed
 *
 * The places logins in flight hold on its destinations go with it.
 */
void l2s_profile_release(struct l2s_core *c, struct l2s_profile *p)
{
	u32 i;

	for (i = 0; i < p->ntunnels; i++) {
		tunnel_drop_inflight(c, &p->t[i]);
		dest_put(c, p->t[i].dest);
	}
	l2s_profile_free(c, p);
}

/**
 * l2s_profile_free() - free the tunnel array of a copy
 * @c: the instance whose allocator made it
 * @p: the profile, empty afterwards
 *
 * Destination references are left alone: for a profile made by
 * l2s_profile_copy(), which takes none.  A configured profile goes through
 * l2s_profile_release().
 */
void l2s_profile_free(struct l2s_core *c, struct l2s_profile *p)
{
	p->ntunnels = 0;
	tunnels_resize(c, p, 0);
	profile_reindex(p);
}

/**
 * l2s_profile_copy() - a copy of a profile with an array of its own
 * @c: the instance (its allocator)
 * @dst: receives the copy; what it held before is overwritten, not freed
 * @src: the profile
 * @cap: room for this many tunnels at least (src's count if more)
 * @err: refusal message
 *
 * The copy takes no destination reference: free it with l2s_profile_free().
 *
 * Return: 0, or -ENOMEM with @err set and @dst empty.
 */
int l2s_profile_copy(struct l2s_core *c, struct l2s_profile *dst,
		     const struct l2s_profile *src, u32 cap, struct l2s_err *err)
{
	if (cap < src->ntunnels)
		cap = src->ntunnels;
	if (cap > L2S_TUNNELS_PER_PROFILE)
		cap = L2S_TUNNELS_PER_PROFILE;
	*dst = *src;
	dst->t = NULL;
	dst->tcap = 0;
	dst->ntunnels = 0;
	if (cap && tunnels_resize(c, dst, cap)) {
		profile_reindex(dst);
		return L2S_REFUSE(-ENOMEM, err, "profile %s: out of memory (tunnel array of %u)",
				  src->name, cap);
	}
	dst->ntunnels = src->ntunnels;
	if (src->ntunnels)
		memcpy(dst->t, src->t, l2s_tunnels_size(src->ntunnels));
	return 0;
}

/**
 * l2s_domain_add() - map a domain to a profile, or remap it (S-OBJ-4)
 * @c: the instance
 * @domain: the domain, as it follows '@' in the user name
 * @profile: the profile's name (it need not exist yet); not a login's own
 *           tunnel set ("~N")
 * @err: refusal message
 *
 * Adding a domain that exists replaces its profile in place (readers hold
 * the caller's lock).
 *
 * Return: 0, or a negative errno with @err set (l2s_dmap_add()).
 */
int l2s_domain_add(struct l2s_core *c, const char *domain, const char *profile,
		   struct l2s_err *err)
{
	struct l2s_domain *e;

	if (check_name("profile", profile, L2S_NAME_LEN, false, err))
		return -EINVAL;
	if (l2s_profile_is_set(profile))
		return L2S_REFUSE(-EINVAL, err,
				  "domain %s: profile %s: names beginning with ~ are logins' own tunnel sets",
				  domain, profile);
	e = l2s_dmap_find(&c->domains, domain);
	if (e) {
		copy_str(e->profile, profile, L2S_NAME_LEN);
		return 0;
	}
	return l2s_dmap_add(&c->domains, c->mem, domain, profile, err);
}

/**
 * l2s_domain_del() - remove a domain mapping
 * @c: the instance
 * @domain: the domain
 * @err: refusal message
 *
 * Return: 0, or a negative errno with @err set.
 */
int l2s_domain_del(struct l2s_core *c, const char *domain, struct l2s_err *err)
{
	return l2s_dmap_del(&c->domains, c->mem, domain, err);
}

/**
 * l2s_domain_lookup() - the profile name for a user's domain (S-OBJ-4)
 * @c: the instance
 * @user: "name@domain"; the part after the last '@' is looked up exactly
 *
 * A profile named by the login itself (RADIUS tunnel group) takes precedence;
 * the caller checks that first.
 *
 * Return: the profile's name, or NULL.
 */
const char *l2s_domain_lookup(const struct l2s_core *c, const char *user)
{
	const char *at = NULL, *s;
	const struct l2s_domain *e;

	for (s = user; *s; s++)
		if (*s == '@')
			at = s;
	if (!at)
		return NULL;
	e = l2s_dmap_find(&c->domains, at + 1);
	return e ? e->profile : NULL;
}

/**
 * l2s_tunnel_session_up() - count a session that came up through a tunnel
 * @c: the instance
 * @p: the tunnel's profile
 * @tunnel: the tunnel's index
 */
void l2s_tunnel_session_up(struct l2s_core *c, struct l2s_profile *p, u32 tunnel)
{
	struct l2s_dest *d = l2s_dest_at(c, p->t[tunnel].dest);

	p->t[tunnel].sessions++;
	d->sessions++;
}

/**
 * l2s_tunnel_session_down() - uncount a session that went down
 * @c: the instance
 * @p: the tunnel's profile
 * @tunnel: the tunnel's index
 *
 * Counters never go below zero (S-LIM-9): an unmatched down is refused.
 *
 * Return: 0, or -1 when the tunnel had no session.
 */
int l2s_tunnel_session_down(struct l2s_core *c, struct l2s_profile *p, u32 tunnel)
{
	struct l2s_dest *d = l2s_dest_at(c, p->t[tunnel].dest);

	if (!p->t[tunnel].sessions || !d->sessions)
		return -1;
	p->t[tunnel].sessions--;
	d->sessions--;
	return 0;
}

/**
 * l2s_tunnel_reserve() - a login's attempt takes a place on a tunnel
 * @c: the instance
 * @p: the tunnel's profile
 * @tunnel: the tunnel's index
 *
 * Until it is given back (l2s_tunnel_unreserve()), the place counts as a
 * session of the tunnel and of its destination for load balancing
 * (S-STORM-1) and for max-sessions (S-STORM-2).
 */
void l2s_tunnel_reserve(struct l2s_core *c, struct l2s_profile *p, u32 tunnel)
{
	p->t[tunnel].inflight++;
	l2s_dest_at(c, p->t[tunnel].dest)->inflight++;
}

/**
 * l2s_tunnel_unreserve() - give a login's place on a tunnel back
 * @c: the instance
 * @p: the tunnel's profile
 * @tunnel: the tunnel's index
 *
 * Counters never go below zero: an unmatched give-back is refused.
 *
 * Return: 0, or -1 when the tunnel held no place.
 */
int l2s_tunnel_unreserve(struct l2s_core *c, struct l2s_profile *p, u32 tunnel)
{
	struct l2s_dest *d = l2s_dest_at(c, p->t[tunnel].dest);

	if (!p->t[tunnel].inflight || !d->inflight)
		return -1;
	p->t[tunnel].inflight--;
	d->inflight--;
	return 0;
}
