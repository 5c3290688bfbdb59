// SPDX-License-Identifier: GPL-2.0
/*
 * The core's objects and bounds (core/obj.c, SPEC §1, S-OBJ-1..4): the
 * KUnit suite l2tpsel_obj and the userspace tests obj_*, one case each
 * (core/tests/t.h says how).  The cases were written twice before issue
 * 17, the same checks in selftests/unit/test_obj.c and in the module's
 * suites.c; the memory cases were userspace's only and now run under
 * KASAN and kmemleak too.
 */
#include "fix.h"

/* S-OBJ-1: profiles naming the same endpoint share one destination, its
 * lockout and its session count; port and local address tell endpoints apart.
 */
T_CASE(obj_1_shared_dests)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_profile *q = fix_profile(test, "Q");
	struct l2s_tunnel_conf tc = { .name = "X", .level = 0 };
	struct l2s_step st;
	int a, b;

	a = fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 0);
	b = fix_tunnel(f, q, "B", 3, "10.0.0.1", 0);
	T_ASSERT_GE(a, 0);
	T_ASSERT_GE(b, 0);
	T_EXPECT_EQ(f->prof.t[a].dest, q->t[b].dest);
	T_EXPECT_EQ(f->dests[q->t[b].dest].refs, 2u);
	fix_silent(f, 1);
	st = fix_login(f, &f->prof, 0, NULL, 0);
	T_EXPECT_FALSE(st.ok);
	T_EXPECT_TRUE(l2s_dest_locked(&f->dests[q->t[b].dest], f->env.now));
	/* other port, other local address: other destinations */
	tc.dest = fix_key("10.0.0.1", NULL, 1702);
	T_ASSERT_GE(l2s_tunnel_add(&f->core, q, &tc, NULL), 0);
	tc.name = "Y";
	tc.dest = fix_key("10.0.0.1", "192.0.2.1", 0);
	T_ASSERT_GE(l2s_tunnel_add(&f->core, q, &tc, NULL), 0);
	T_EXPECT_EQ(q->ndests, 3);
	/* releasing a profile drops its references, the slot stays while used */
	l2s_profile_release(&f->core, q);
	T_EXPECT_EQ(f->dests[f->prof.t[a].dest].refs, 1u);
}

/* S-OBJ-2: tunnel settings and their refusals. */
T_CASE(obj_2_tunnel)
{
	struct l2s_tunnel_conf tc = { .name = "T", .level = 0, .group = "G", .secret = "s3" };
	struct fix *f = fix_new(test, 1);
	struct l2s_err err = { };
	char longname[40];

	tc.dest = fix_key("10.0.0.1", NULL, 0);
	T_ASSERT_EQ(l2s_tunnel_add(&f->core, &f->prof, &tc, &err), 0);
	T_EXPECT_STREQ(f->prof.t[0].group, "G");
	T_EXPECT_EQ(f->prof.t[0].has_secret, 1);
	T_EXPECT_EQ(f->prof.t[0].max_sessions, 0u);
	T_EXPECT_EQ(l2s_tunnel_add(&f->core, &f->prof, &tc, &err), -EEXIST);
	T_EXPECT_STREQ(err.msg, "profile P: tunnel T already exists");
	tc.name = "U";
	tc.max_sessions = L2S_MAX_SESSIONS_LIMIT + 1;
	T_EXPECT_EQ(l2s_tunnel_add(&f->core, &f->prof, &tc, &err), -EINVAL);
	T_EXPECT_STREQ(err.msg,
		       "tunnel U: max-sessions 16777216 above the bound 16777215");
	tc.max_sessions = 0;
	memset(longname, 'x', sizeof(longname));
	longname[39] = '\0';
	tc.name = longname;
	T_EXPECT_EQ(l2s_tunnel_add(&f->core, &f->prof, &tc, &err), -EINVAL);
	T_EXPECT_STREQ(err.msg, "tunnel name too long: at most 31 bytes");
	/* deleting a tunnel with live sessions is refused (counters, S-LIM-9) */
	l2s_tunnel_session_up(&f->core, &f->prof, 0);
	T_EXPECT_EQ(l2s_tunnel_del(&f->core, &f->prof, "T", &err), -EBUSY);
	T_EXPECT_STREQ(err.msg, "tunnel T has 1 live sessions");
	T_EXPECT_EQ(l2s_tunnel_session_down(&f->core, &f->prof, 0), 0);
	T_EXPECT_EQ(l2s_tunnel_del(&f->core, &f->prof, "T", &err), 0);
	T_EXPECT_EQ(f->prof.ntunnels, 0);
	T_EXPECT_EQ(f->dests[0].refs, 0u);
	T_EXPECT_EQ(l2s_tunnel_del(&f->core, &f->prof, "T", &err), -ENOENT);
}

/* S-OBJ-3: at most 8 levels, 31 destinations per level and per profile;
 * each refusal names the bound.  Tunnels are kept sorted by level.
 */
T_CASE(obj_3_profile_bounds)
{
	struct l2s_tunnel_conf tc = { .level = 2 };
	struct fix *f = fix_new(test, 1);
	struct l2s_err err = { };
	char name[16], addr[16];
	u32 i;

	for (i = 0; i < 31; i++) {
		snprintf(name, sizeof(name), "T%u", i);
		snprintf(addr, sizeof(addr), "10.0.1.%u", i);
		T_ASSERT_GE(fix_tunnel(f, &f->prof, name, 2, addr, 0), 0);
	}
	tc.name = "X";
	tc.dest = fix_key("10.0.2.1", NULL, 0);
	T_EXPECT_EQ(l2s_tunnel_add(&f->core, &f->prof, &tc, &err), -ENOSPC);
	T_EXPECT_STREQ(err.msg,
		       "profile P: at most 31 destinations per level (level 2 has 31)");
	/* a further tunnel to a destination the level already has is fine */
	tc.dest = fix_key("10.0.1.5", NULL, 0);
	T_EXPECT_GE(l2s_tunnel_add(&f->core, &f->prof, &tc, &err), 0);
	/* another level: the per-profile bound */
	tc.name = "Y";
	tc.level = 4;
	tc.dest = fix_key("10.0.2.1", NULL, 0);
	T_EXPECT_EQ(l2s_tunnel_add(&f->core, &f->prof, &tc, &err), -ENOSPC);
	T_EXPECT_STREQ(err.msg,
		       "profile P: at most 31 destinations per profile (it has 31)");
	tc.dest = fix_key("10.0.1.7", NULL, 0);
	T_EXPECT_GE(l2s_tunnel_add(&f->core, &f->prof, &tc, &err), 0);
	tc.name = "Z";
	tc.level = 8;
	T_EXPECT_EQ(l2s_tunnel_add(&f->core, &f->prof, &tc, &err), -EINVAL);
	T_EXPECT_STREQ(err.msg,
		       "tunnel Z: level 8 out of range: at most 8 levels (0..7)");
	tc.level = 0;
	T_EXPECT_EQ(l2s_tunnel_add(&f->core, &f->prof, &tc, &err), 0);
	T_EXPECT_EQ(f->prof.nlevels, 3);
	T_EXPECT_EQ(f->prof.levels[0].level, 0);
	T_EXPECT_EQ(f->prof.levels[1].level, 2);
	T_EXPECT_EQ(f->prof.levels[1].ndests, 31);
	T_EXPECT_EQ(f->prof.levels[2].level, 4);
	for (i = 1; i < f->prof.ntunnels; i++)
		T_EXPECT_LE(f->prof.t[i - 1].level, f->prof.t[i].level);
}

/* S-OBJ-3: the destination table of the instance is bounded too. */
T_CASE(obj_3_dest_table_full)
{
	struct l2s_dest *d = T_ZALLOC(2 * sizeof(*d));
	struct l2s_profile *p = fix_profile(test, "P");
	struct l2s_tunnel_conf tc = { .name = "A" };
	struct l2s_err err = { };
	struct l2s_core c;

	T_ASSERT_NOT_NULL(d);
	l2s_core_init(&c, d, 2);
	c.mem = fix_mem(test);
	tc.dest = fix_key("10.0.0.1", NULL, 0);
	T_EXPECT_EQ(l2s_tunnel_add(&c, p, &tc, &err), 0);
	tc.name = "B";
	tc.dest = fix_key("10.0.0.2", NULL, 0);
	T_EXPECT_EQ(l2s_tunnel_add(&c, p, &tc, &err), 1);
	tc.name = "C";
	tc.dest = fix_key("10.0.0.3", NULL, 0);
	T_EXPECT_EQ(l2s_tunnel_add(&c, p, &tc, &err), -ENOSPC);
	T_EXPECT_STREQ(err.msg, "at most 2 destinations in total");
	T_EXPECT_EQ(p->ntunnels, 2);
	c.domains.max = 1;
	T_EXPECT_EQ(l2s_domain_add(&c, "x", "P", &err), 0);
	T_EXPECT_EQ(l2s_domain_add(&c, "y", "P", &err), -ENOSPC);
	T_EXPECT_STREQ(err.msg, "at most 1 domains");
	l2s_core_release(&c);
	T_EXPECT_EQ(l2s_set_lockout_time(&c, 0, &err), -EINVAL);
	T_EXPECT_STREQ(err.msg, "lockout time 0: must be 1..86400 seconds");
	T_EXPECT_EQ(l2s_set_lockout_time(&c, 60, &err), 0);
	T_EXPECT_EQ(c.lockout_ms, 60000u);
}

/* S-OBJ-4: the domain map as the core's callers see it (core/tests/dmap.c: the map). */
T_CASE(obj_4_domain_map)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_err err = { };

	T_EXPECT_EQ(l2s_domain_add(&f->core, "example.com", "P", &err), 0);
	T_EXPECT_EQ(l2s_domain_add(&f->core, "example.net", "Q", &err), 0);
	T_EXPECT_STREQ(l2s_domain_lookup(&f->core, "alice@example.com"), "P");
	T_EXPECT_STREQ(l2s_domain_lookup(&f->core, "bob@x@example.net"), "Q");
	T_EXPECT_NULL(l2s_domain_lookup(&f->core, "carol@sub.example.com"));
	T_EXPECT_NULL(l2s_domain_lookup(&f->core, "no-domain"));
	T_EXPECT_EQ(l2s_domain_add(&f->core, "example.com", "R", &err), 0);
	T_EXPECT_STREQ(l2s_domain_lookup(&f->core, "alice@example.com"), "R");
	T_EXPECT_EQ(l2s_domain_del(&f->core, "example.com", &err), 0);
	T_EXPECT_NULL(l2s_domain_lookup(&f->core, "alice@example.com"));
	T_EXPECT_EQ(l2s_domain_del(&f->core, "example.com", &err), -ENOENT);
	T_EXPECT_STREQ(err.msg, "no domain example.com");
	T_EXPECT_EQ(l2s_domain_add(&f->core, "", "P", &err), -EINVAL);
	T_EXPECT_STREQ(err.msg, "domain name must not be empty");
	T_EXPECT_EQ(l2s_domain_add(&f->core, "example.org", "~3", &err), -EINVAL);
	T_EXPECT_STREQ(err.msg,
		       "domain example.org: profile ~3: names beginning with ~ are logins' own tunnel sets");
	T_EXPECT_EQ(l2s_domain_add(&f->core, "example.org", "", &err), -EINVAL);
	T_EXPECT_STREQ(err.msg, "profile name must not be empty");
	T_EXPECT_EQ(f->core.domains.n, 1u);
	T_EXPECT_STREQ(l2s_domain_find(&f->core, "example.net")->profile, "Q");
	l2s_core_release(&f->core);
	T_EXPECT_EQ(f->core.domains.n, 0u);
}

/* S-OBJ-4: a login's own tunnel list (RADIUS) shares the global destinations. */
T_CASE(obj_4_own_tunnel_list)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_profile *radius = fix_profile(test, "radius");
	struct l2s_step st;
	char tr[64];

	fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 0);
	fix_silent(f, 1);
	T_ASSERT_GE(fix_tunnel(f, radius, "r1", 0, "10.0.0.1", 0), 0);
	T_ASSERT_GE(fix_tunnel(f, radius, "r2", 1, "10.0.0.2", 10), 0);
	st = fix_login(f, radius, 0, tr, sizeof(tr));
	T_EXPECT_TRUE(st.ok);
	T_EXPECT_STREQ(tr, "r1 r2");
	T_EXPECT_TRUE(l2s_dest_locked(&f->dests[f->prof.t[0].dest], f->env.now));
	T_EXPECT_EQ(l2s_tunnel_session_down(&f->core, radius, st.tunnel), 0);
	l2s_profile_release(&f->core, radius);
	T_EXPECT_EQ(f->dests[f->prof.t[0].dest].refs, 1u);
}

/*
 * A profile's tunnel array through a counting allocator that fails on
 * demand: memory in proportion to the tunnels, grown on add and shrunk on
 * delete.  The blocks themselves go with the test (fix_mem_*).
 */
struct mem_probe {
	t_test *test;
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
	p = fix_mem_alloc(m->test, size);
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
	fix_mem_free(m->test, ptr, size);
}

/* In a case: a probe and the l2s_mem over it, both with the test. */
#define probe_new(mem) ({						\
	struct mem_probe *_m = T_ZALLOC(sizeof(*_m));			\
	struct l2s_mem *_mem = T_ZALLOC(sizeof(*_mem));			\
	T_ASSERT_TRUE(_m && _mem);					\
	_m->test = test;						\
	_mem->alloc = probe_alloc;					\
	_mem->free = probe_free;					\
	_mem->ctx = _m;							\
	*(mem) = _mem;							\
	_m;								\
})

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

static u32 fix_refs(const struct fix *f)
{
	u32 i, refs = 0;

	for (i = 0; i < FIX_DESTS; i++)
		refs += f->dests[i].refs;
	return refs;
}

/* Grown on add to the bound, shrunk on delete, nothing left at the end. */
T_CASE(obj_profile_memory_grows_and_shrinks)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_profile *q = fix_profile(test, "Q");
	struct l2s_err err = { 0 };
	struct mem_probe *m;
	struct l2s_mem *mem;
	char name[16];
	u32 i;

	m = probe_new(&mem);
	f->core.mem = mem;
	T_EXPECT_EQ(f->prof.tcap, 0);
	T_EXPECT_NULL(f->prof.t);
	T_EXPECT_EQ(m->live_bytes, 0);
	T_ASSERT_EQ(probe_tunnel(f, &f->prof, 0, &err), 0);
	/* one tunnel: one tunnel's worth, not the bound's */
	T_EXPECT_EQ(f->prof.tcap, 1);
	T_EXPECT_EQ(m->live_bytes, (long)sizeof(struct l2s_tunnel));
	for (i = 1; i < L2S_TUNNELS_PER_PROFILE; i++) {
		if (probe_tunnel(f, &f->prof, i, &err) < 0) {
			T_INFO("tunnel %u: %s", i, err.msg);
			break;
		}
		/* never more than twice what the profile holds */
		if (f->prof.tcap > 2u * f->prof.ntunnels || f->prof.tcap < f->prof.ntunnels)
			break;
	}
	T_EXPECT_EQ(f->prof.ntunnels, L2S_TUNNELS_PER_PROFILE);
	T_EXPECT_EQ(f->prof.tcap, L2S_TUNNELS_PER_PROFILE);
	T_EXPECT_EQ(m->live_blocks, 1);
	T_EXPECT_EQ(m->live_bytes, (long)l2s_tunnels_size(L2S_TUNNELS_PER_PROFILE));
	/* the 249th is refused by the bound, not by memory */
	T_EXPECT_EQ(probe_tunnel(f, &f->prof, 999, &err), -ENOSPC);
	T_EXPECT_STREQ(err.msg, "profile P: at most 248 tunnels per profile");
	/* delete down to 3: the array follows, kept sorted and indexed */
	for (i = 3; i < L2S_TUNNELS_PER_PROFILE; i++) {
		snprintf(name, sizeof(name), "T%u", i);
		T_ASSERT_EQ(l2s_tunnel_del(&f->core, &f->prof, name, &err), 0);
		if (f->prof.tcap > 4u * f->prof.ntunnels)
			break;
	}
	T_EXPECT_EQ(f->prof.ntunnels, 3);
	T_EXPECT_TRUE(f->prof.tcap >= 3 && f->prof.tcap <= 12);
	T_EXPECT_EQ(m->live_bytes, (long)l2s_tunnels_size(f->prof.tcap));
	T_EXPECT_EQ(l2s_tunnel_find(&f->prof, "T2"), 2);
	T_EXPECT_EQ(f->prof.nlevels, 3);
	/* T0..T2 share 10.0.0.1: one reference each */
	T_EXPECT_EQ(f->prof.ndests, 1);
	T_EXPECT_EQ(f->dests[f->prof.pdest[0]].refs, 3);
	/* a copy has an array of its own and takes no reference */
	T_ASSERT_EQ(l2s_profile_copy(&f->core, q, &f->prof, 0, &err), 0);
	T_EXPECT_EQ(q->tcap, 3);
	T_EXPECT_TRUE(q->t != f->prof.t);
	T_EXPECT_STREQ(q->t[1].name, "T1");
	T_EXPECT_EQ(m->live_blocks, 2);
	T_EXPECT_EQ(f->dests[f->prof.t[0].dest].refs, 3);
	l2s_profile_free(&f->core, q);
	T_EXPECT_EQ(q->ntunnels, 0);
	T_EXPECT_EQ(m->live_blocks, 1);
	/* the last delete frees the array */
	T_EXPECT_EQ(l2s_tunnel_del(&f->core, &f->prof, "T0", &err), 0);
	T_EXPECT_EQ(l2s_tunnel_del(&f->core, &f->prof, "T1", &err), 0);
	T_EXPECT_EQ(l2s_tunnel_del(&f->core, &f->prof, "T2", &err), 0);
	T_EXPECT_EQ(f->prof.tcap, 0);
	T_EXPECT_NULL(f->prof.t);
	T_EXPECT_EQ(m->live_blocks, 0);
	T_EXPECT_EQ(m->live_bytes, 0);
	T_EXPECT_EQ(fix_refs(f), 0);
	/* release frees the array too */
	T_ASSERT_EQ(probe_tunnel(f, &f->prof, 0, &err), 0);
	T_ASSERT_EQ(probe_tunnel(f, &f->prof, 1, &err), 1);
	l2s_profile_release(&f->core, &f->prof);
	T_EXPECT_EQ(m->live_blocks, 0);
	T_EXPECT_EQ(fix_refs(f), 0);
}

/* Out of memory on add: a clear refusal, the profile and the counters as
 * they were, nothing leaked; a failed shrink keeps the larger array.
 */
T_CASE(obj_profile_memory_allocation_failure)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_profile *q = fix_profile(test, "Q");
	struct l2s_err err = { 0 };
	struct l2s_tunnel *before;
	struct mem_probe *m;
	struct l2s_mem *mem;
	u32 i;

	m = probe_new(&mem);
	f->core.mem = mem;
	/* the first tunnel of an empty profile */
	m->fail_in = 1;
	T_EXPECT_EQ(probe_tunnel(f, &f->prof, 0, &err), -ENOMEM);
	T_EXPECT_STREQ(err.msg, "profile P: out of memory (tunnel array of 1)");
	T_EXPECT_EQ(f->prof.ntunnels, 0);
	T_EXPECT_EQ(m->live_blocks, 0);
	T_EXPECT_EQ(fix_refs(f), 0);
	/* growth from 4 to 8 fails: 4 tunnels, their references, one session */
	for (i = 0; i < 4; i++)
		T_ASSERT_GE(probe_tunnel(f, &f->prof, i, &err), 0);
	T_ASSERT_EQ(f->prof.tcap, 4);
	l2s_tunnel_session_up(&f->core, &f->prof, 0);
	before = f->prof.t;
	m->fail_in = 1;
	T_EXPECT_EQ(probe_tunnel(f, &f->prof, 4, &err), -ENOMEM);
	T_EXPECT_STREQ(err.msg, "profile P: out of memory (tunnel array of 8)");
	T_EXPECT_EQ(f->prof.ntunnels, 4);
	T_EXPECT_EQ(f->prof.tcap, 4);
	T_EXPECT_PTR_EQ(f->prof.t, before);
	T_EXPECT_EQ(l2s_tunnel_find(&f->prof, "T4"), -1);
	T_EXPECT_EQ(f->prof.t[0].sessions, 1);
	T_EXPECT_EQ(f->dests[f->prof.t[0].dest].sessions, 1);
	T_EXPECT_EQ(fix_refs(f), 4);
	T_EXPECT_EQ(m->live_blocks, 1);
	/* the same add goes through once memory is back */
	T_EXPECT_GE(probe_tunnel(f, &f->prof, 4, &err), 0);
	T_EXPECT_EQ(f->prof.tcap, 8);
	/* a copy that cannot get memory is empty and says why */
	m->fail_in = 1;
	T_EXPECT_EQ(l2s_profile_copy(&f->core, q, &f->prof, 0, &err), -ENOMEM);
	T_EXPECT_STREQ(err.msg, "profile P: out of memory (tunnel array of 5)");
	T_EXPECT_EQ(q->ntunnels, 0);
	T_EXPECT_NULL(q->t);
	/* shrinking 8 -> 4 fails: the tunnel goes, the larger array stays */
	T_EXPECT_EQ(l2s_tunnel_del(&f->core, &f->prof, "T4", &err), 0);
	T_EXPECT_EQ(l2s_tunnel_del(&f->core, &f->prof, "T3", &err), 0);
	m->fail_in = 1;
	T_EXPECT_EQ(l2s_tunnel_del(&f->core, &f->prof, "T2", &err), 0);
	T_EXPECT_EQ(f->prof.ntunnels, 2);
	T_EXPECT_EQ(f->prof.tcap, 8);
	T_EXPECT_STREQ(f->prof.t[1].name, "T1");
	/* the next one shrinks it */
	T_EXPECT_EQ(l2s_tunnel_del(&f->core, &f->prof, "T1", &err), 0);
	T_EXPECT_EQ(f->prof.ntunnels, 1);
	T_EXPECT_EQ(f->prof.tcap, 2);
	T_EXPECT_STREQ(f->prof.t[0].name, "T0");
	T_EXPECT_EQ(f->prof.t[0].sessions, 1);
	T_EXPECT_EQ(m->live_blocks, 1);
	/* S-LIM-9 still holds: the session goes down once */
	T_EXPECT_EQ(l2s_tunnel_session_down(&f->core, &f->prof, 0), 0);
	T_EXPECT_EQ(l2s_tunnel_session_down(&f->core, &f->prof, 0), -1);
	l2s_profile_release(&f->core, &f->prof);
	T_EXPECT_EQ(m->live_blocks, 0);
	T_EXPECT_EQ(m->live_bytes, 0);
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
 * a slot never moves (not the whole table per namespace at once).
 */
T_CASE(obj_1_destination_table_by_need)
{
	struct l2s_profile *q = T_ZALLOC(5 * sizeof(*q));
	struct l2s_err err = { 0 };
	struct l2s_core c;
	struct mem_probe *m;
	struct l2s_mem *mem;
	int allocs;
	u32 i;

	T_ASSERT_NOT_NULL(q);
	m = probe_new(&mem);
	l2s_core_init(&c, NULL, 2 * L2S_DEST_CHUNK);
	c.mem = mem;
	for (i = 0; i < 5; i++)
		l2s_profile_init(&q[i], i ? "Q" : "P");
	T_EXPECT_NULL(l2s_dest_chunk(&c, 0));
	/* the first chunk's allocation fails: no tunnel, no slot */
	m->fail_in = 2;		/* 1: the tunnel array, 2: the chunk */
	T_EXPECT_EQ(own_dest_tunnel(&c, q, 0, &err), -ENOMEM);
	T_EXPECT_STREQ(err.msg, "out of memory for destinations 0-63");
	T_EXPECT_EQ(q[0].ntunnels, 0);
	T_EXPECT_NULL(l2s_dest_chunk(&c, 0));
	for (i = 0; i < L2S_DEST_CHUNK; i++) {
		T_ASSERT_EQ(own_dest_tunnel(&c, q, i, &err), (int)(i % L2S_DESTS_PER_PROFILE));
		T_EXPECT_EQ(q[i / L2S_DESTS_PER_PROFILE].t[i % L2S_DESTS_PER_PROFILE].dest, i);
	}
	T_EXPECT_NOT_NULL(l2s_dest_chunk(&c, 0));
	T_EXPECT_NULL(l2s_dest_chunk(&c, L2S_DEST_CHUNK));
	/* the second chunk with the first slot past the first one */
	allocs = m->allocs;
	T_ASSERT_EQ(own_dest_tunnel(&c, q, L2S_DEST_CHUNK, &err), 2);
	T_EXPECT_EQ(q[2].t[2].dest, L2S_DEST_CHUNK);
	T_EXPECT_NOT_NULL(l2s_dest_chunk(&c, L2S_DEST_CHUNK));
	T_EXPECT_EQ(m->allocs - allocs, 2);	/* the chunk and its profile's array */
	T_EXPECT_EQ(l2s_dest_at(&c, L2S_DEST_CHUNK)->refs, 1);
	/* the bound */
	for (i = L2S_DEST_CHUNK + 1; i < 2 * L2S_DEST_CHUNK; i++)
		T_ASSERT_GE(own_dest_tunnel(&c, q, i, &err), 0);
	T_EXPECT_EQ(own_dest_tunnel(&c, q, 2 * L2S_DEST_CHUNK, &err), -ENOSPC);
	T_EXPECT_STREQ(err.msg, "at most 128 destinations in total");
	/* a slot freed is taken again, lowest first; chunks stay */
	T_EXPECT_EQ(l2s_tunnel_del(&c, &q[0], "T5", &err), 0);
	T_EXPECT_EQ(l2s_dest_at(&c, 5)->refs, 0);
	T_ASSERT_GE(own_dest_tunnel(&c, q, 2 * L2S_DEST_CHUNK, &err), 0);
	T_EXPECT_EQ(q[4].t[q[4].ntunnels - 1].dest, 5);
	/* everything back: nothing left allocated */
	for (i = 0; i < 5; i++)
		l2s_profile_release(&c, &q[i]);
	l2s_core_release(&c);
	T_EXPECT_NULL(l2s_dest_chunk(&c, 0));
	T_EXPECT_EQ(m->live_blocks, 0);
}

/*
 * S-OBJ-2: a tunnel's uid, a login's and a session's handle on it, is
 * unique among the profile's tunnels and never 0, even once the counter
 * wraps (forced here: as after that many tunnels added and deleted).
 * Before: the uid after the wrap was the first tunnel's again, and a login
 * on the new tunnel gave its place back to the old one when the profile
 * changed under it, leaving the new one's in-flight count stuck.
 */
T_CASE(obj_2_tunnel_uid_unique_across_wrap)
{
	struct fix *f = fix_new(test, 1);
	struct l2s_profile *p = &f->prof;
	struct l2s_login lg;
	struct l2s_step st;
	int a, b;

	T_ASSERT_GE(fix_tunnel(f, p, "A", 0, "10.0.0.1", 1), 0);
	p->last_uid = 0;
	p->last_uid--;
	T_ASSERT_GE(fix_tunnel(f, p, "B", 0, "10.0.0.2", 0), 0);
	a = l2s_tunnel_find(p, "A");
	b = l2s_tunnel_find(p, "B");
	T_ASSERT_GE(a, 0);
	T_ASSERT_GE(b, 0);
	T_EXPECT_NE(p->t[b].uid, 0);
	T_EXPECT_NE(p->t[b].uid, p->t[a].uid);
	/* A is full: the login tries B; a tunnel added meanwhile changes the profile */
	l2s_tunnel_session_up(&f->core, p, a);
	T_ASSERT_EQ(l2s_sel_begin(&lg, &f->core, p, 0, &f->env, &st), L2S_STEP_ATTEMPT);
	T_ASSERT_EQ(st.tunnel, b);
	T_EXPECT_EQ(p->t[b].inflight, 1u);
	T_ASSERT_GE(fix_tunnel(f, p, "C", 1, "10.0.0.3", 0), 0);
	T_ASSERT_EQ(l2s_tunnel_find(p, "B"), b);
	T_EXPECT_TRUE(l2s_sel_end(&lg, &f->core, p));
	T_EXPECT_EQ(p->t[b].inflight, 0u);
	T_EXPECT_EQ(p->t[a].inflight, 0u);
	T_EXPECT_EQ(l2s_tunnel_session_down(&f->core, p, a), 0);
	/* every later uid is unique too */
	T_ASSERT_GE(fix_tunnel(f, p, "D", 2, "10.0.0.4", 0), 0);
	T_EXPECT_NE(p->t[l2s_tunnel_find(p, "D")].uid, p->t[a].uid);
	T_EXPECT_NE(p->t[l2s_tunnel_find(p, "D")].uid, p->t[b].uid);
	T_EXPECT_NE(p->t[l2s_tunnel_find(p, "D")].uid, p->t[l2s_tunnel_find(p, "C")].uid);
}

T_SUITE(l2tpsel_obj,
	T_ENTRY(obj_1_shared_dests)
	T_ENTRY(obj_2_tunnel)
	T_ENTRY(obj_2_tunnel_uid_unique_across_wrap)
	T_ENTRY(obj_3_profile_bounds)
	T_ENTRY(obj_3_dest_table_full)
	T_ENTRY(obj_4_domain_map)
	T_ENTRY(obj_4_own_tunnel_list)
	T_ENTRY(obj_profile_memory_grows_and_shrinks)
	T_ENTRY(obj_profile_memory_allocation_failure)
	T_ENTRY(obj_1_destination_table_by_need));
