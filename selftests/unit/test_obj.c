// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the core's objects and bounds (core/obj.c): SPEC §1,
 * S-OBJ-1..4.
 */
#include "tests/fix.h"

/* S-OBJ-1: profiles naming the same endpoint share one destination, its
 * lockout and its session count; port and local address tell endpoints apart.
 */
UNIT_TEST(obj_1_destinations_shared_across_profiles)
{
	static struct fix f;
	static struct l2s_profile q;
	struct l2s_tunnel_conf tc = { .name = "X", .level = 0 };
	struct l2s_step st;
	int a, b;

	fix_init(&f, 1);
	l2s_profile_init(&q, "Q");
	a = fix_tunnel(&f, &f.prof, "A", 0, "10.0.0.1", 0);
	b = fix_tunnel(&f, &q, "B", 3, "10.0.0.1", 0);
	ASSERT_TRUE(a >= 0 && b >= 0);
	EXPECT_EQ(f.prof.t[a].dest, q.t[b].dest);
	EXPECT_EQ(f.dests[q.t[b].dest].refs, 2);
	fix_silent(&f, 1);
	st = fix_login(&f, &f.prof, 0, NULL, 0);
	EXPECT_TRUE(!st.ok);
	EXPECT_TRUE(l2s_dest_locked(&f.dests[q.t[b].dest], f.env.now));
	/* other port, other local address: other destinations */
	tc.dest = fix_key("10.0.0.1", NULL, 1702);
	ASSERT_TRUE(l2s_tunnel_add(&f.core, &q, &tc, NULL) >= 0);
	tc.name = "Y";
	tc.dest = fix_key("10.0.0.1", "192.0.2.1", 0);
	ASSERT_TRUE(l2s_tunnel_add(&f.core, &q, &tc, NULL) >= 0);
	EXPECT_EQ(q.ndests, 3);
	/* releasing a profile drops its references, the slot stays while used */
	l2s_profile_release(&f.core, &q);
	EXPECT_EQ(f.dests[f.prof.t[a].dest].refs, 1);
}

/* S-OBJ-2: tunnel settings and their refusals. */
UNIT_TEST(obj_2_tunnel_settings_and_refusals)
{
	static struct fix f;
	struct l2s_tunnel_conf tc = { .name = "T", .level = 0, .group = "G", .secret = "s3" };
	struct l2s_err err = { 0 };
	char longname[40];

	fix_init(&f, 1);
	tc.dest = fix_key("10.0.0.1", NULL, 0);
	ASSERT_EQ(l2s_tunnel_add(&f.core, &f.prof, &tc, &err), 0);
	EXPECT_STREQ(f.prof.t[0].group, "G");
	EXPECT_EQ(f.prof.t[0].has_secret, 1);
	EXPECT_EQ(f.prof.t[0].max_sessions, 0);
	EXPECT_EQ(l2s_tunnel_add(&f.core, &f.prof, &tc, &err), -EEXIST);
	EXPECT_STREQ(err.msg, "profile P: tunnel T already exists");
	tc.name = "U";
	tc.max_sessions = L2S_MAX_SESSIONS_LIMIT + 1;
	EXPECT_EQ(l2s_tunnel_add(&f.core, &f.prof, &tc, &err), -EINVAL);
	EXPECT_STREQ(err.msg, "tunnel U: max-sessions 16777216 above the bound 16777215");
	tc.max_sessions = 0;
	memset(longname, 'x', sizeof(longname));
	longname[39] = '\0';
	tc.name = longname;
	EXPECT_EQ(l2s_tunnel_add(&f.core, &f.prof, &tc, &err), -EINVAL);
	EXPECT_STREQ(err.msg, "tunnel name too long: at most 31 bytes");
	/* deleting a tunnel with live sessions is refused (counters, S-LIM-9) */
	l2s_tunnel_session_up(&f.core, &f.prof, 0);
	EXPECT_EQ(l2s_tunnel_del(&f.core, &f.prof, "T", &err), -EBUSY);
	EXPECT_STREQ(err.msg, "tunnel T has 1 live sessions");
	EXPECT_EQ(l2s_tunnel_session_down(&f.core, &f.prof, 0), 0);
	EXPECT_EQ(l2s_tunnel_del(&f.core, &f.prof, "T", &err), 0);
	EXPECT_EQ(f.prof.ntunnels, 0);
	EXPECT_EQ(f.dests[0].refs, 0);
	EXPECT_EQ(l2s_tunnel_del(&f.core, &f.prof, "T", &err), -ENOENT);
}

/* S-OBJ-3: at most 8 levels, 31 destinations per level and per profile;
 * each refusal names the bound.  Tunnels are kept sorted by level.
 */
UNIT_TEST(obj_3_profile_bounds)
{
	static struct fix f;
	struct l2s_tunnel_conf tc = { .level = 2 };
	struct l2s_err err = { 0 };
	char name[16], addr[32];
	u32 i;

	fix_init(&f, 1);
	for (i = 0; i < 31; i++) {
		snprintf(name, sizeof(name), "T%u", i);
		snprintf(addr, sizeof(addr), "10.0.1.%u", i);
		ASSERT_TRUE(fix_tunnel(&f, &f.prof, name, 2, addr, 0) >= 0);
	}
	tc.name = "X";
	tc.dest = fix_key("10.0.2.1", NULL, 0);
	EXPECT_EQ(l2s_tunnel_add(&f.core, &f.prof, &tc, &err), -ENOSPC);
	EXPECT_STREQ(err.msg, "profile P: at most 31 destinations per level (level 2 has 31)");
	/* a further tunnel to a destination the level already has is fine */
	tc.dest = fix_key("10.0.1.5", NULL, 0);
	EXPECT_TRUE(l2s_tunnel_add(&f.core, &f.prof, &tc, &err) >= 0);
	/* another level: the per-profile bound */
	tc.name = "Y";
	tc.level = 4;
	tc.dest = fix_key("10.0.2.1", NULL, 0);
	EXPECT_EQ(l2s_tunnel_add(&f.core, &f.prof, &tc, &err), -ENOSPC);
	EXPECT_STREQ(err.msg, "profile P: at most 31 destinations per profile (it has 31)");
	tc.dest = fix_key("10.0.1.7", NULL, 0);
	EXPECT_TRUE(l2s_tunnel_add(&f.core, &f.prof, &tc, &err) >= 0);
	tc.name = "Z";
	tc.level = 8;
	EXPECT_EQ(l2s_tunnel_add(&f.core, &f.prof, &tc, &err), -EINVAL);
	EXPECT_STREQ(err.msg, "tunnel Z: level 8 out of range: at most 8 levels (0..7)");
	/* levels index */
	tc.level = 0;
	EXPECT_EQ(l2s_tunnel_add(&f.core, &f.prof, &tc, &err), 0);
	EXPECT_EQ(f.prof.nlevels, 3);
	EXPECT_EQ(f.prof.levels[0].level, 0);
	EXPECT_EQ(f.prof.levels[1].level, 2);
	EXPECT_EQ(f.prof.levels[1].ndests, 31);
	EXPECT_EQ(f.prof.levels[2].level, 4);
	for (i = 1; i < f.prof.ntunnels; i++)
		EXPECT_TRUE(f.prof.t[i - 1].level <= f.prof.t[i].level);
}

/* S-OBJ-3: the destination table of the instance is bounded too. */
UNIT_TEST(obj_3_destination_table_full)
{
	static struct l2s_dest d[2];
	static struct l2s_profile p;
	struct l2s_core c;
	struct l2s_tunnel_conf tc = { .name = "A" };
	struct l2s_err err = { 0 };

	l2s_core_init(&c, d, 2, NULL, 0);
	l2s_profile_init(&p, "P");
	tc.dest = fix_key("10.0.0.1", NULL, 0);
	EXPECT_EQ(l2s_tunnel_add(&c, &p, &tc, &err), 0);
	tc.name = "B";
	tc.dest = fix_key("10.0.0.2", NULL, 0);
	EXPECT_EQ(l2s_tunnel_add(&c, &p, &tc, &err), 1);
	tc.name = "C";
	tc.dest = fix_key("10.0.0.3", NULL, 0);
	EXPECT_EQ(l2s_tunnel_add(&c, &p, &tc, &err), -ENOSPC);
	EXPECT_STREQ(err.msg, "at most 2 destinations in total");
	EXPECT_EQ(p.ntunnels, 2);
	EXPECT_EQ(l2s_domain_add(&c, "x", "P", &err), -ENOSPC);
	EXPECT_EQ(l2s_set_lockout_time(&c, 0, &err), -EINVAL);
	EXPECT_STREQ(err.msg, "lockout time 0: must be 1..86400 seconds");
	EXPECT_EQ(l2s_set_lockout_time(&c, 60, &err), 0);
	EXPECT_EQ(c.lockout_ms, 60000);
}

/* S-OBJ-4: domain map; a profile named by the login wins (caller's order). */
UNIT_TEST(obj_4_domain_map)
{
	static struct fix f;
	struct l2s_err err = { 0 };

	fix_init(&f, 1);
	EXPECT_EQ(l2s_domain_add(&f.core, "example.com", "P", &err), 0);
	EXPECT_EQ(l2s_domain_add(&f.core, "example.net", "Q", &err), 0);
	EXPECT_STREQ(l2s_domain_lookup(&f.core, "alice@example.com"), "P");
	EXPECT_STREQ(l2s_domain_lookup(&f.core, "bob@x@example.net"), "Q");
	EXPECT_TRUE(l2s_domain_lookup(&f.core, "carol@sub.example.com") == NULL);
	EXPECT_TRUE(l2s_domain_lookup(&f.core, "no-domain") == NULL);
	EXPECT_EQ(l2s_domain_add(&f.core, "example.com", "R", &err), 0);
	EXPECT_STREQ(l2s_domain_lookup(&f.core, "alice@example.com"), "R");
	EXPECT_EQ(l2s_domain_del(&f.core, "example.com", &err), 0);
	EXPECT_TRUE(l2s_domain_lookup(&f.core, "alice@example.com") == NULL);
	EXPECT_EQ(l2s_domain_del(&f.core, "example.com", &err), -ENOENT);
	EXPECT_STREQ(err.msg, "no domain example.com");
	EXPECT_EQ(l2s_domain_add(&f.core, "", "P", &err), -EINVAL);
}

/* S-OBJ-4: a login carrying its own tunnel list (RADIUS tunnel attributes)
 * is walked as a temporary profile built by the caller; its endpoints are
 * the global destinations, so lockouts and counts are shared.
 */
UNIT_TEST(obj_4_login_with_own_tunnel_list)
{
	static struct fix f;
	static struct l2s_profile radius;
	struct l2s_step st;
	char tr[64];

	fix_init(&f, 1);
	fix_tunnel(&f, &f.prof, "A", 0, "10.0.0.1", 0);
	fix_silent(&f, 1);
	l2s_profile_init(&radius, "radius");
	ASSERT_TRUE(fix_tunnel(&f, &radius, "r1", 0, "10.0.0.1", 0) >= 0);
	ASSERT_TRUE(fix_tunnel(&f, &radius, "r2", 1, "10.0.0.2", 10) >= 0);
	st = fix_login(&f, &radius, 0, tr, sizeof(tr));
	EXPECT_TRUE(st.ok);
	EXPECT_STREQ(tr, "r1 r2");
	/* the lockout from the RADIUS login applies to the configured profile */
	EXPECT_TRUE(l2s_dest_locked(&f.dests[f.prof.t[0].dest], f.env.now));
	/* the session stays counted on the destination after the list is gone */
	EXPECT_EQ(l2s_tunnel_session_down(&f.core, &radius, st.tunnel), 0);
	l2s_profile_release(&f.core, &radius);
	EXPECT_EQ(f.dests[f.prof.t[0].dest].refs, 1);
}

/*
 * A profile's tunnel array through a counting allocator that fails on
 * demand: memory in proportion to the tunnels, grown on add and shrunk on
 * delete (issue 4).
 */
struct mem_probe {
	long live_blocks;
	long live_bytes;
	int fail_in;		/* > 0: the fail_in-th allocation from now fails */
	int allocs;
};

static void *probe_alloc(void *ctx, size_t size)
{
	struct mem_probe *m = ctx;
	void *p;

	if (m->fail_in > 0 && --m->fail_in == 0)
		return NULL;
	p = malloc(size);
	if (p) {
		m->live_blocks++;
		m->live_bytes += (long)size;
		m->allocs++;
	}
	return p;
}

static void probe_free(void *ctx, void *ptr, size_t size)
{
	struct mem_probe *m = ctx;

	if (!ptr)
		return;
	m->live_blocks--;
	m->live_bytes -= (long)size;
	free(ptr);
}

static int probe_tunnel(struct fix *f, struct l2s_profile *p, u32 i, struct l2s_err *err)
{
	struct l2s_tunnel_conf tc = { .level = i % 8 };
	char name[16], addr[32];

	snprintf(name, sizeof(name), "T%u", i);
	snprintf(addr, sizeof(addr), "10.0.0.%u", 1 + (i / 8) % 31);
	tc.name = name;
	tc.dest = fix_key(addr, NULL, 0);
	return l2s_tunnel_add(&f->core, p, &tc, err);
}

/* Grown on add to the bound, shrunk on delete, nothing left at the end. */
UNIT_TEST(obj_profile_memory_grows_and_shrinks)
{
	static struct fix f;
	static struct mem_probe m;
	struct l2s_mem mem = { probe_alloc, probe_free, &m };
	struct l2s_err err = { 0 };
	char name[16];
	u32 i;

	fix_init(&f, 1);
	f.core.mem = &mem;
	EXPECT_EQ(f.prof.tcap, 0);
	EXPECT_TRUE(f.prof.t == NULL);
	EXPECT_EQ(m.live_bytes, 0);
	ASSERT_EQ(probe_tunnel(&f, &f.prof, 0, &err), 0);
	/* one tunnel: one tunnel's worth, not the bound's */
	EXPECT_EQ(f.prof.tcap, 1);
	EXPECT_EQ(m.live_bytes, (long)sizeof(struct l2s_tunnel));
	for (i = 1; i < L2S_TUNNELS_PER_PROFILE; i++) {
		if (probe_tunnel(&f, &f.prof, i, &err) < 0) {
			UNIT_DIAG("tunnel %u: %s", i, err.msg);
			break;
		}
		/* never more than twice what the profile holds */
		if (f.prof.tcap > 2u * f.prof.ntunnels || f.prof.tcap < f.prof.ntunnels)
			break;
	}
	EXPECT_EQ(f.prof.ntunnels, L2S_TUNNELS_PER_PROFILE);
	EXPECT_EQ(f.prof.tcap, L2S_TUNNELS_PER_PROFILE);
	EXPECT_EQ(m.live_blocks, 1);
	EXPECT_EQ(m.live_bytes, (long)l2s_tunnels_size(L2S_TUNNELS_PER_PROFILE));
	/* the 249th is refused by the bound, not by memory */
	EXPECT_EQ(probe_tunnel(&f, &f.prof, 999, &err), -ENOSPC);
	EXPECT_STREQ(err.msg, "profile P: at most 248 tunnels per profile");
	/* delete down to 3: the array follows, kept sorted and indexed */
	for (i = 3; i < L2S_TUNNELS_PER_PROFILE; i++) {
		snprintf(name, sizeof(name), "T%u", i);
		ASSERT_EQ(l2s_tunnel_del(&f.core, &f.prof, name, &err), 0);
		if (f.prof.tcap > 4u * f.prof.ntunnels)
			break;
	}
	EXPECT_EQ(f.prof.ntunnels, 3);
	EXPECT_TRUE(f.prof.tcap >= 3 && f.prof.tcap <= 12);
	EXPECT_EQ(m.live_bytes, (long)l2s_tunnels_size(f.prof.tcap));
	EXPECT_EQ(l2s_tunnel_find(&f.prof, "T2"), 2);
	EXPECT_EQ(f.prof.nlevels, 3);
	/* T0..T2 share 10.0.0.1: one reference each */
	EXPECT_EQ(f.prof.ndests, 1);
	EXPECT_EQ(f.dests[f.prof.pdest[0]].refs, 3);
	/* a copy has an array of its own and takes no reference */
	{
		static struct l2s_profile q;

		ASSERT_EQ(l2s_profile_copy(&f.core, &q, &f.prof, 0, &err), 0);
		EXPECT_EQ(q.tcap, 3);
		EXPECT_TRUE(q.t != f.prof.t);
		EXPECT_STREQ(q.t[1].name, "T1");
		EXPECT_EQ(m.live_blocks, 2);
		EXPECT_EQ(f.dests[f.prof.t[0].dest].refs, 3);
		l2s_profile_free(&f.core, &q);
		EXPECT_EQ(q.ntunnels, 0);
		EXPECT_EQ(m.live_blocks, 1);
	}
	/* the last delete frees the array */
	EXPECT_EQ(l2s_tunnel_del(&f.core, &f.prof, "T0", &err), 0);
	EXPECT_EQ(l2s_tunnel_del(&f.core, &f.prof, "T1", &err), 0);
	EXPECT_EQ(l2s_tunnel_del(&f.core, &f.prof, "T2", &err), 0);
	EXPECT_EQ(f.prof.tcap, 0);
	EXPECT_TRUE(f.prof.t == NULL);
	EXPECT_EQ(m.live_blocks, 0);
	EXPECT_EQ(m.live_bytes, 0);
	for (i = 0; i < FIX_DESTS; i++)
		EXPECT_EQ(f.dests[i].refs, 0);
	/* release frees the array too */
	ASSERT_EQ(probe_tunnel(&f, &f.prof, 0, &err), 0);
	ASSERT_EQ(probe_tunnel(&f, &f.prof, 1, &err), 1);
	l2s_profile_release(&f.core, &f.prof);
	EXPECT_EQ(m.live_blocks, 0);
	EXPECT_EQ(f.dests[0].refs + f.dests[1].refs, 0);
}

/* Out of memory on add: a clear refusal, the profile and the counters as
 * they were, nothing leaked; a failed shrink keeps the larger array.
 */
UNIT_TEST(obj_profile_memory_allocation_failure)
{
	static struct fix f;
	static struct mem_probe m;
	static struct l2s_profile q;
	struct l2s_mem mem = { probe_alloc, probe_free, &m };
	struct l2s_err err = { 0 };
	struct l2s_tunnel *before;
	u32 i, refs = 0;

	fix_init(&f, 1);
	f.core.mem = &mem;
	/* the first tunnel of an empty profile */
	m.fail_in = 1;
	EXPECT_EQ(probe_tunnel(&f, &f.prof, 0, &err), -ENOMEM);
	EXPECT_STREQ(err.msg, "profile P: out of memory (tunnel array of 1)");
	EXPECT_EQ(f.prof.ntunnels, 0);
	EXPECT_EQ(m.live_blocks, 0);
	for (i = 0; i < FIX_DESTS; i++)
		refs += f.dests[i].refs;
	EXPECT_EQ(refs, 0);
	/* growth from 4 to 8 fails: 4 tunnels, their references, one session */
	for (i = 0; i < 4; i++)
		ASSERT_EQ(probe_tunnel(&f, &f.prof, i, &err) >= 0, 1);
	ASSERT_EQ(f.prof.tcap, 4);
	l2s_tunnel_session_up(&f.core, &f.prof, 0);
	before = f.prof.t;
	m.fail_in = 1;
	EXPECT_EQ(probe_tunnel(&f, &f.prof, 4, &err), -ENOMEM);
	EXPECT_STREQ(err.msg, "profile P: out of memory (tunnel array of 8)");
	EXPECT_EQ(f.prof.ntunnels, 4);
	EXPECT_EQ(f.prof.tcap, 4);
	EXPECT_TRUE(f.prof.t == before);
	EXPECT_EQ(l2s_tunnel_find(&f.prof, "T4"), -1);
	EXPECT_EQ(f.prof.t[0].sessions, 1);
	EXPECT_EQ(f.dests[f.prof.t[0].dest].sessions, 1);
	for (refs = 0, i = 0; i < FIX_DESTS; i++)
		refs += f.dests[i].refs;
	EXPECT_EQ(refs, 4);
	EXPECT_EQ(m.live_blocks, 1);
	/* the same add goes through once memory is back */
	EXPECT_TRUE(probe_tunnel(&f, &f.prof, 4, &err) >= 0);
	EXPECT_EQ(f.prof.tcap, 8);
	/* a copy that cannot get memory is empty and says why */
	m.fail_in = 1;
	EXPECT_EQ(l2s_profile_copy(&f.core, &q, &f.prof, 0, &err), -ENOMEM);
	EXPECT_STREQ(err.msg, "profile P: out of memory (tunnel array of 5)");
	EXPECT_EQ(q.ntunnels, 0);
	EXPECT_TRUE(q.t == NULL);
	/* shrinking 8 -> 4 fails: the tunnel goes, the larger array stays */
	EXPECT_EQ(l2s_tunnel_del(&f.core, &f.prof, "T4", &err), 0);
	EXPECT_EQ(l2s_tunnel_del(&f.core, &f.prof, "T3", &err), 0);
	m.fail_in = 1;
	EXPECT_EQ(l2s_tunnel_del(&f.core, &f.prof, "T2", &err), 0);
	EXPECT_EQ(f.prof.ntunnels, 2);
	EXPECT_EQ(f.prof.tcap, 8);
	EXPECT_STREQ(f.prof.t[1].name, "T1");
	/* the next one shrinks it */
	EXPECT_EQ(l2s_tunnel_del(&f.core, &f.prof, "T1", &err), 0);
	EXPECT_EQ(f.prof.ntunnels, 1);
	EXPECT_EQ(f.prof.tcap, 2);
	EXPECT_STREQ(f.prof.t[0].name, "T0");
	EXPECT_EQ(f.prof.t[0].sessions, 1);
	EXPECT_EQ(m.live_blocks, 1);
	/* S-LIM-9 still holds: the session goes down once */
	EXPECT_EQ(l2s_tunnel_session_down(&f.core, &f.prof, 0), 0);
	EXPECT_EQ(l2s_tunnel_session_down(&f.core, &f.prof, 0), -1);
	l2s_profile_release(&f.core, &f.prof);
	EXPECT_EQ(m.live_blocks, 0);
	EXPECT_EQ(m.live_bytes, 0);
	f.core.mem = &l2s_mem_default;
}

/* Tunnel @i of profile q[@i / 31] to 10.1.x.y, a destination of its own. */
static int own_dest_tunnel(struct l2s_core *c, struct l2s_profile *q, u32 i,
			   struct l2s_err *err)
{
	struct l2s_tunnel_conf tc = { 0 };
	char name[16], addr[32];

	snprintf(name, sizeof(name), "T%u", i);
	snprintf(addr, sizeof(addr), "10.1.%u.%u", i / 250, i % 250 + 1);
	tc.name = name;
	tc.dest = fix_key(addr, NULL, 0);
	return l2s_tunnel_add(c, &q[i / L2S_DESTS_PER_PROFILE], &tc, err);
}

/*
 * The destination table comes by need, L2S_DEST_CHUNK slots at a time, and
 * a slot never moves (issue 20: not the whole table per namespace at once).
 */
UNIT_TEST(obj_1_destination_table_by_need)
{
	static struct l2s_profile q[5];
	static struct mem_probe m;
	struct l2s_mem mem = { probe_alloc, probe_free, &m };
	struct l2s_dest_key k = fix_key("10.9.9.9", NULL, 0);
	struct l2s_err err = { 0 };
	struct l2s_core c;
	int allocs;
	u32 i;

	l2s_core_init(&c, NULL, 2 * L2S_DEST_CHUNK, NULL, 0);
	c.mem = &mem;
	for (i = 0; i < 5; i++)
		l2s_profile_init(&q[i], i ? "Q" : "P");
	EXPECT_TRUE(l2s_dest_chunk(&c, 0) == NULL);
	/* the first chunk's allocation fails: no tunnel, no slot */
	m.fail_in = 2;		/* 1: the tunnel array, 2: the chunk */
	EXPECT_EQ(own_dest_tunnel(&c, q, 0, &err), -ENOMEM);
	EXPECT_STREQ(err.msg, "out of memory for destinations 0-63");
	EXPECT_EQ(q[0].ntunnels, 0);
	EXPECT_TRUE(l2s_dest_chunk(&c, 0) == NULL);
	for (i = 0; i < L2S_DEST_CHUNK; i++) {
		ASSERT_EQ(own_dest_tunnel(&c, q, i, &err), (int)(i % L2S_DESTS_PER_PROFILE));
		EXPECT_EQ(q[i / L2S_DESTS_PER_PROFILE].t[i % L2S_DESTS_PER_PROFILE].dest, i);
	}
	EXPECT_TRUE(l2s_dest_chunk(&c, 0) != NULL);
	EXPECT_TRUE(l2s_dest_chunk(&c, L2S_DEST_CHUNK) == NULL);
	/* reserved ahead (the module does it outside its seqcount section) */
	EXPECT_EQ(l2s_dest_reserve(&c, &k, &err), 0);
	EXPECT_TRUE(l2s_dest_chunk(&c, L2S_DEST_CHUNK) != NULL);
	allocs = m.allocs;
	ASSERT_EQ(own_dest_tunnel(&c, q, L2S_DEST_CHUNK, &err), 2);
	EXPECT_EQ(q[2].t[2].dest, L2S_DEST_CHUNK);
	EXPECT_EQ(m.allocs - allocs, 1);	/* its profile's array, no chunk */
	EXPECT_EQ(l2s_dest_at(&c, L2S_DEST_CHUNK)->refs, 1);
	/* a destination known takes no slot and no memory; the bound */
	k = fix_key("10.1.0.1", NULL, 0);
	allocs = m.allocs;
	EXPECT_EQ(l2s_dest_reserve(&c, &k, &err), 0);
	EXPECT_EQ(m.allocs, allocs);
	k = fix_key("10.9.9.9", NULL, 0);
	for (i = L2S_DEST_CHUNK + 1; i < 2 * L2S_DEST_CHUNK; i++)
		ASSERT_EQ(own_dest_tunnel(&c, q, i, &err) >= 0, 1);
	EXPECT_EQ(own_dest_tunnel(&c, q, 2 * L2S_DEST_CHUNK, &err), -ENOSPC);
	EXPECT_STREQ(err.msg, "at most 128 destinations in total");
	EXPECT_EQ(l2s_dest_reserve(&c, &k, &err), -ENOSPC);
	/* a slot freed is taken again, lowest first; chunks stay */
	EXPECT_EQ(l2s_tunnel_del(&c, &q[0], "T5", &err), 0);
	EXPECT_EQ(l2s_dest_at(&c, 5)->refs, 0);
	ASSERT_EQ(own_dest_tunnel(&c, q, 2 * L2S_DEST_CHUNK, &err) >= 0, 1);
	EXPECT_EQ(q[4].t[q[4].ntunnels - 1].dest, 5);
	/* everything back: nothing left allocated */
	for (i = 0; i < 5; i++)
		l2s_profile_release(&c, &q[i]);
	l2s_core_release(&c);
	EXPECT_TRUE(l2s_dest_chunk(&c, 0) == NULL);
	EXPECT_EQ(m.live_blocks, 0);
}
