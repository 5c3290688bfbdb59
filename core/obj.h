/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Objects of the selection core (S-OBJ-1..4) and their bounds.
 *
 * Storage is fixed-size or provided by the caller, except a profile's tunnel
 * array: it is allocated through the instance's struct l2s_mem to the size
 * the profile holds (grown on add, shrunk on delete), so that a profile costs
 * memory in proportion to its tunnels, not to the bound of 248.  The
 * destination table comes by need or from the caller; the domain map is a
 * hash map whose entries come from the same struct l2s_mem.
 * Nothing here takes a lock;
 * the caller serialises every call that touches a struct l2s_core (one lock
 * per network namespace in the module, none in the single-threaded tools).
 */
#ifndef L2S_OBJ_H
#define L2S_OBJ_H

#include "l2s_types.h"
#include "env.h"
#include "dmap.h"

/* Bounds of S-OBJ-3.  Changing them changes the per-login bitmasks (u32). */
#define L2S_LEVELS			8
#define L2S_DESTS_PER_LEVEL		31
#define L2S_DESTS_PER_PROFILE		31
/* Several tunnels may share a destination; 8 x 31 covers one per dest and level. */
#define L2S_TUNNELS_PER_PROFILE		(L2S_LEVELS * L2S_DESTS_PER_LEVEL)
/* Keeps the weighted pool sum of a level below 2^32 (S-LB-2). */
#define L2S_MAX_SESSIONS_LIMIT		16777215u
#define L2S_SECRET_LEN			64	/* tunnel secrets: 0..63 bytes */
#define L2S_DEFAULT_PORT		1701
#define L2S_DEFAULT_LOCKOUT_MS		300000u	/* 300 s, S-OBJ/§2 */
/* Longest configurable lockout: one day, keeps milliseconds in a u32. */
#define L2S_MAX_LOCKOUT_MS		86400000u
#define L2S_NO_INDEX			0xffff

enum l2s_failover {
	L2S_FAILOVER_BETWEEN_LEVELS = 0,	/* S-SEL-5, the default */
	L2S_FAILOVER_WITHIN_LEVEL = 1,		/* S-SEL-6 */
};

enum l2s_lb {
	L2S_LB_RANDOM = 0,		/* S-LB-1, the default */
	L2S_LB_WEIGHTED = 1,		/* S-LB-2 */
	L2S_LB_DEST_EQUAL = 2,		/* S-LB-3 */
	L2S_LB_HASH = 3,		/* S-LB-4 */
	L2S_LB_MINMISS_HASH = 4,	/* S-LB-4 */
};

/* An IPv4 or IPv6 address; family 0 means "not set" (e.g. no local address). */
struct l2s_addr {
	u8 family;		/* 0, 4 or 6 */
	u8 bytes[16];		/* IPv4 in the first 4 bytes, network order */
};

/* What identifies a destination (S-OBJ-1). */
struct l2s_dest_key {
	struct l2s_addr remote;
	struct l2s_addr local;	/* family 0: any local address */
	u16 port;
};

/*
 * A destination (S-OBJ-1): global, shared by every tunnel of every profile
 * that names the same endpoint.  Its lockout is an expiry time, so it
 * outlives the login that caused it; 0 means unlocked.
 */
struct l2s_dest {
	struct l2s_dest_key key;
	/* logins on their way here: picks not yet reported (S-STORM-1), in the key's padding */
	u32 inflight;
	u64 lock_until;		/* ms, caller's clock; locked while now < lock_until */
	u32 sessions;		/* live sessions to this destination (S-LB-3) */
	u32 refs;		/* tunnels naming it; the slot is free at 0 */
	/* the caller's counters, zeroed with the slot (the module's attempts and lockouts) */
	u32 attempts;
	u32 failures;
};

/*
 * The destination table comes in chunks of L2S_DEST_CHUNK slots (64 bytes
 * each: a chunk is 4 KiB), allocated when a slot in them is first taken and
 * kept, so that a slot never moves and an instance with a few destinations
 * holds a few KiB, not the whole table.
 */
#define L2S_DEST_CHUNK			64
#define L2S_DESTS_MAX			4096	/* slots an instance can have */

/* A tunnel (S-OBJ-2): one entry of a profile. */
struct l2s_tunnel {
	char name[L2S_NAME_LEN];
	char group[L2S_NAME_LEN];	/* tunnel group, "" for none */
	/*
	 * A login's and a session's handle on the tunnel: never 0, never
	 * another tunnel's of the profile, and 64 bits wide so that the
	 * counter does not come back to a deleted tunnel's uid while a
	 * login may still hold it.
	 */
	u64 uid;
	u32 max_sessions;		/* 0 = unlimited (the default) */
	u32 sessions;			/* live sessions through this tunnel */
	u32 inflight;			/* logins whose attempt holds a place here (S-STORM-2) */
	u16 dest;			/* slot in the core's destination table */
	u8 pdest;			/* index in the profile's destination list */
	u8 level;			/* preference 0..7, 0 most preferred */
	u8 has_secret;			/* configured with one; l2tpseld holds it */
	u8 drain;			/* takes no new login, keeps its sessions (S-OPS-1) */
};

/*
 * A tunnel profile (S-OBJ-3).  Tunnels are kept sorted by level (stable:
 * within a level in the order they were added), levels[] lists the levels
 * that exist, and pdest[] the profile's distinct destinations in order of
 * first appearance.  @gen changes on every config change so that a login in
 * progress carries its indexes over (l2s_sel_report()).  @t has room for @tcap
 * tunnels (NULL when 0); only obj.c allocates, grows, shrinks and frees it.
 * A struct l2s_profile is not copied by assignment: l2s_profile_copy().
 */
struct l2s_profile {
	char name[L2S_NAME_LEN];
	u8 failover;			/* enum l2s_failover */
	u8 lb;				/* enum l2s_lb */
	u8 nlevels;
	u8 ndests;
	u16 ntunnels;
	u16 tcap;			/* room in @t */
	u32 gen;
	u64 last_uid;			/* of the last tunnel added */
	/* CDN / StopCCN result codes (bit = code 0..31) that also lock out and fail over. */
	u32 failover_cdn;
	u32 failover_stopccn;
	struct {
		u8 level;		/* the preference value */
		u8 ndests;		/* distinct destinations at this level */
		u8 first;		/* first tunnel index */
		u8 count;		/* number of tunnels */
		u32 dests;		/* mask of profile destinations at this level */
	} levels[L2S_LEVELS];
	u16 pdest[L2S_DESTS_PER_PROFILE];	/* profile destination -> core slot */
	struct l2s_tunnel *t;
};

/* Global state of one instance (one network namespace). */
struct l2s_core {
	/* chunk i holds slots i * L2S_DEST_CHUNK...; NULL until needed */
	struct l2s_dest *dchunk[L2S_DESTS_MAX / L2S_DEST_CHUNK];
	u32 ndests_cap;			/* slots it may take, at most L2S_DESTS_MAX */
	bool dflat;			/* the chunks are slices of the caller's table */
	u32 lockout_ms;			/* configured lockout time */
	/*
	 * Drained destination slots (S-OPS-1), a bit each: struct l2s_dest
	 * has no byte to spare in its 64.  A slot taken afresh starts
	 * undrained (dest_get()).
	 */
	u32 dest_drain[L2S_DESTS_MAX / 32];
	struct l2s_dmap domains;	/* max L2S_DOMAINS_MAX unless the caller sets it */
	const struct l2s_mem *mem;	/* tunnel arrays, chunks, domains; l2s_mem_default */
};

/* Options of a tunnel to add; strings may be NULL. */
struct l2s_tunnel_conf {
	const char *name;
	const char *group;
	const char *secret;
	u32 level;
	u32 max_sessions;
	struct l2s_dest_key dest;
};

void l2s_core_init(struct l2s_core *c, struct l2s_dest *dests, u32 ndests);
void l2s_core_release(struct l2s_core *c);

/* A destination slot.  @slot must be one a tunnel names (its chunk exists). */
static inline struct l2s_dest *l2s_dest_at(const struct l2s_core *c, u32 slot)
{
	return &c->dchunk[slot / L2S_DEST_CHUNK][slot % L2S_DEST_CHUNK];
}

/* The chunk holding @slot, or NULL. */
static inline struct l2s_dest *l2s_dest_chunk(const struct l2s_core *c, u32 slot)
{
	return c->dchunk[slot / L2S_DEST_CHUNK];
}

/*
 * Slot @slot for a walk over every slot, or NULL past the last one that
 * exists: chunks are taken lowest first, so a walk stops at the first
 * chunk not there ("for (i = 0; (d = l2s_dest_walk(c, i)); i++)").
 */
static inline struct l2s_dest *l2s_dest_walk(const struct l2s_core *c, u32 slot)
{
	struct l2s_dest *d = slot < c->ndests_cap ? l2s_dest_chunk(c, slot) : NULL;

	return d ? d + slot % L2S_DEST_CHUNK : NULL;
}

int l2s_set_lockout_time(struct l2s_core *c, u32 secs, struct l2s_err *err);

void l2s_profile_init(struct l2s_profile *p, const char *name);
int l2s_profile_check_name(const char *name, struct l2s_err *err);
/* A login's own tunnel set is a profile named "~N", never a configured one (S-OBJ-4). */
static inline bool l2s_profile_is_set(const char *name)
{
	return name[0] == '~';
}

int l2s_tunnel_add(struct l2s_core *c, struct l2s_profile *p,
		   const struct l2s_tunnel_conf *tc, struct l2s_err *err);
int l2s_tunnel_del(struct l2s_core *c, struct l2s_profile *p, const char *name,
		   struct l2s_err *err);
void l2s_profile_release(struct l2s_core *c, struct l2s_profile *p);
int l2s_profile_copy(struct l2s_core *c, struct l2s_profile *dst,
		     const struct l2s_profile *src, u32 cap, struct l2s_err *err);
void l2s_profile_free(struct l2s_core *c, struct l2s_profile *p);
/* Bytes the tunnel array of a profile holding @n tunnels takes. */
static inline size_t l2s_tunnels_size(u32 n)
{
	return (size_t)n * sizeof(struct l2s_tunnel);
}

int l2s_tunnel_find(const struct l2s_profile *p, const char *name);

int l2s_domain_add(struct l2s_core *c, const char *domain, const char *profile,
		   struct l2s_err *err);
int l2s_domain_del(struct l2s_core *c, const char *domain, struct l2s_err *err);
const char *l2s_domain_lookup(const struct l2s_core *c, const char *user);
/* The entry of @domain (the part after '@'), or NULL. */
static inline struct l2s_domain *l2s_domain_find(const struct l2s_core *c, const char *domain)
{
	return l2s_dmap_find(&c->domains, domain);
}

bool l2s_dest_locked(const struct l2s_dest *d, u64 now);
bool l2s_addr_equal(const struct l2s_addr *a, const struct l2s_addr *b);
int l2s_dest_find(const struct l2s_core *c, const struct l2s_dest_key *k);

/* Session counts (kept by the core, driven by the caller, S-LB-3, S-LIM-9). */
void l2s_tunnel_session_up(struct l2s_core *c, struct l2s_profile *p, u32 tunnel);
int l2s_tunnel_session_down(struct l2s_core *c, struct l2s_profile *p, u32 tunnel);

/*
 * Places held by logins in flight (S-STORM-1, S-STORM-2): l2s_sel_begin()
 * and l2s_sel_report() take and give them back themselves; the caller only
 * reads the counts (l2s_tunnel_load(), l2s_dest_load()).
 */
void l2s_tunnel_reserve(struct l2s_core *c, struct l2s_profile *p, u32 tunnel);
int l2s_tunnel_unreserve(struct l2s_core *c, struct l2s_profile *p, u32 tunnel);

/* Sessions and logins in flight: what load balancing and max-sessions count. */
static inline u64 l2s_tunnel_load(const struct l2s_tunnel *t)
{
	return (u64)t->sessions + t->inflight;
}

static inline u64 l2s_dest_load(const struct l2s_dest *d)
{
	return (u64)d->sessions + d->inflight;
}

/*
 * Drain (S-OPS-1): a drained tunnel, or a tunnel to a drained destination,
 * takes no new login; its sessions stay and end as they would.
 */
static inline bool l2s_dest_drained(const struct l2s_core *c, u32 slot)
{
	return c->dest_drain[slot / 32] & (1u << (slot % 32));
}

static inline bool l2s_tunnel_drained(const struct l2s_core *c, const struct l2s_tunnel *t)
{
	return t->drain || l2s_dest_drained(c, t->dest);
}

void l2s_dest_set_drain(struct l2s_core *c, u32 slot, bool on);
u32 l2s_dest_drain_match(struct l2s_core *c, const struct l2s_dest_key *k,
			 bool port, bool local, bool on);

/* At its max-sessions, logins in flight included: not valid (S-SEL-10, S-STORM-2). */
static inline bool l2s_tunnel_full(const struct l2s_tunnel *t)
{
	return t->max_sessions && l2s_tunnel_load(t) >= t->max_sessions;
}

#endif /* L2S_OBJ_H */
