// SPDX-License-Identifier: GPL-2.0
/*
 * Load balancing within a level (core/lb.c, SPEC §3, S-LB-1..4): the KUnit
 * suite l2tpsel_lb and the userspace tests lb_*, one case each
 * (core/tests/t.h says how).  The reference scenarios (the S-LB-2 example,
 * S-LB-3 scenarios 1-5) are replayed by the simulator in
 * selftests/unit/scenarios/.
 */
#include "fix.h"

static int pick_all(struct fix *f, u32 lvl)
{
	u8 cand[L2S_TUNNELS_PER_PROFILE];
	u32 i, n = 0;

	for (i = f->prof.levels[lvl].first;
	     i < (u32)f->prof.levels[lvl].first + f->prof.levels[lvl].count; i++)
		cand[n++] = (u8)i;
	return l2s_lb_pick(&f->core, &f->prof, lvl, cand, n, 0, &f->env);
}

/* S-LB-1: random is uniform among the candidate tunnels. */
T_CASE(lb_1_random)
{
	struct fix *f = fix_new(test, 7);
	u32 hits[4] = { }, i;

	fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "B", 0, "10.0.0.2", 0);
	fix_tunnel(f, &f->prof, "C", 0, "10.0.0.3", 0);
	fix_tunnel(f, &f->prof, "D", 0, "10.0.0.4", 0);
	for (i = 0; i < 40000; i++)
		hits[pick_all(f, 0)]++;
	for (i = 0; i < 4; i++) {
		T_EXPECT_GT(hits[i], 9500u);
		T_EXPECT_LT(hits[i], 10500u);
	}
}

/* S-LB-2, S-SEL-12: the 000 example, limits 1000 and 2000 -> pools 0..999
 * and 1000..2999, Tunnel 2 chosen twice as often.
 */
T_CASE(lb_2_weighted)
{
	struct fix *f = fix_new(test, 11);
	u32 hits[2] = { }, i, ratio;

	f->prof.lb = L2S_LB_WEIGHTED;
	fix_tunnel(f, &f->prof, "T1", 0, "10.0.0.1", 1000);
	fix_tunnel(f, &f->prof, "T2", 0, "10.0.0.2", 2000);
	f->pins[f->npins++] = 0;
	f->pins[f->npins++] = 999;
	f->pins[f->npins++] = 1000;
	f->pins[f->npins++] = 2999;
	T_EXPECT_EQ(pick_all(f, 0), 0);
	T_EXPECT_EQ(pick_all(f, 0), 0);
	T_EXPECT_EQ(pick_all(f, 0), 1);
	T_EXPECT_EQ(pick_all(f, 0), 1);
	for (i = 0; i < 300000; i++)
		hits[pick_all(f, 0)]++;
	ratio = hits[1] * 1000u / hits[0];	/* per mille: 2000 is 2.0 */
	T_INFO("weighted 1000/2000: %u / %u, ratio %u.%03u",
	       hits[0], hits[1], ratio / 1000, ratio % 1000);
	T_EXPECT_GT(ratio, 1950u);
	T_EXPECT_LT(ratio, 2050u);
}

/* S-LB-2 (our choice): an unlimited tunnel weighs as much as the largest
 * limited tunnel of its level; a level of unlimited tunnels is uniform.
 */
T_CASE(lb_2_unlimited)
{
	struct fix *f = fix_new(test, 1);

	f->prof.lb = L2S_LB_WEIGHTED;
	fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 300);
	fix_tunnel(f, &f->prof, "B", 0, "10.0.0.2", 0);
	fix_tunnel(f, &f->prof, "C", 0, "10.0.0.3", 500);
	fix_tunnel(f, &f->prof, "D", 1, "10.0.0.4", 0);
	fix_tunnel(f, &f->prof, "E", 1, "10.0.0.5", 0);
	T_EXPECT_EQ(l2s_lb_weight(&f->prof, 0, 0), 300u);
	T_EXPECT_EQ(l2s_lb_weight(&f->prof, 0, 1), 500u);
	T_EXPECT_EQ(l2s_lb_weight(&f->prof, 0, 2), 500u);
	T_EXPECT_EQ(l2s_lb_weight(&f->prof, 1, 3), 1u);
	T_EXPECT_EQ(l2s_lb_weight(&f->prof, 1, 4), 1u);
	f->pins[f->npins++] = 299;
	f->pins[f->npins++] = 300;
	f->pins[f->npins++] = 1299;
	T_EXPECT_EQ(pick_all(f, 0), 0);
	T_EXPECT_EQ(pick_all(f, 0), 1);
	T_EXPECT_EQ(pick_all(f, 0), 2);
}

/* S-LB-3: lowest destination count; one such destination -> its tunnel with
 * the lowest tunnel count; several -> random among their tunnels.
 */
T_CASE(lb_3_dest_equal)
{
	struct fix *f = fix_new(test, 3);
	u32 seen[4] = { }, i;

	f->prof.lb = L2S_LB_DEST_EQUAL;
	fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "B", 0, "10.0.0.1", 0);
	fix_tunnel(f, &f->prof, "C", 0, "10.0.0.2", 0);
	fix_tunnel(f, &f->prof, "D", 0, "10.0.0.3", 0);
	f->prof.t[0].sessions = 7;
	f->prof.t[1].sessions = 3;
	f->dests[f->prof.t[0].dest].sessions = 10;
	f->dests[f->prof.t[2].dest].sessions = 20;
	f->dests[f->prof.t[3].dest].sessions = 30;
	for (i = 0; i < 50; i++)
		T_EXPECT_EQ(pick_all(f, 0), 1);	/* B: 3 < 7 */
	f->dests[f->prof.t[2].dest].sessions = 10;		/* tie 10.0.0.1 / 10.0.0.2 */
	for (i = 0; i < 3000; i++)
		seen[pick_all(f, 0)]++;
	T_EXPECT_GT(seen[0], 800u);
	T_EXPECT_GT(seen[1], 800u);
	T_EXPECT_GT(seen[2], 800u);
	T_EXPECT_EQ(seen[3], 0u);
}

/* S-LB-4: in the walk, minmiss keeps every key of a surviving destination
 * when one destination is locked, and moves them all back afterwards; plain
 * hash moves most.
 */
T_CASE(lb_4_hash_walk)
{
	u16 *before = T_ZALLOC(2000 * sizeof(*before));
	char key[32];
	u8 lb;

	T_ASSERT_NOT_NULL(before);
	for (lb = L2S_LB_HASH; lb <= L2S_LB_MINMISS_HASH; lb++) {
		struct fix *f = fix_new(test, 5);
		u32 i, moved = 0, moved_other = 0, back = 0;

		f->prof.lb = lb;
		fix_tunnel(f, &f->prof, "A", 0, "10.0.0.1", 0);
		fix_tunnel(f, &f->prof, "B", 0, "10.0.0.2", 0);
		fix_tunnel(f, &f->prof, "C", 0, "10.0.0.3", 0);
		fix_tunnel(f, &f->prof, "D", 0, "10.0.0.4", 0);
		for (i = 0; i < 2000; i++) {
			int n = snprintf(key, sizeof(key), "u%u", i);

			f->trace[0] = '\0';
			before[i] = fix_login(f, &f->prof, l2s_hash_key(key, n), NULL, 0).tunnel;
		}
		fix_lock(f, 1, 1000);
		for (i = 0; i < 2000; i++) {
			int n = snprintf(key, sizeof(key), "u%u", i);
			u16 t;

			f->trace[0] = '\0';
			t = fix_login(f, &f->prof, l2s_hash_key(key, n), NULL, 0).tunnel;
			moved += t != before[i];
			moved_other += t != before[i] && before[i] != 1;
		}
		f->env.now += 1000;
		for (i = 0; i < 2000; i++) {
			int n = snprintf(key, sizeof(key), "u%u", i);

			f->trace[0] = '\0';
			back += fix_login(f, &f->prof, l2s_hash_key(key, n), NULL, 0).tunnel ==
				before[i];
		}
		T_INFO("%s: %u of 2000 moved with B locked (%u not B's), %u back",
		       lb == L2S_LB_HASH ? "hash" : "minmiss-hash", moved, moved_other, back);
		T_EXPECT_EQ(back, 2000u);
		if (lb == L2S_LB_MINMISS_HASH) {
			T_EXPECT_EQ(moved_other, 0u);
			T_EXPECT_LT(moved, 2000u / 4 + 2000u / 100);
		} else {
			T_EXPECT_GT(moved, 2000u / 2);
		}
	}
}

T_SUITE(l2tpsel_lb,
	T_ENTRY(lb_1_random)
	T_ENTRY(lb_2_weighted)
	T_ENTRY(lb_2_unlimited)
	T_ENTRY(lb_3_dest_equal)
	T_ENTRY(lb_4_hash_walk));
