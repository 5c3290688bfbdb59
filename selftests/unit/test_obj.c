// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the core's objects and bounds (core/obj.c): SPEC §1,
 * S-OBJ-1..4.
 */
#include "core_fix.h"

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
	EXPECT_STREQ(f.prof.t[0].secret, "s3");
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
