// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of load balancing within a level (core/lb.c): SPEC §3,
 * S-LB-1..4.  The reference scenarios (S-LB-2 example, S-LB-3 scenarios 1-5)
 * are replayed by the simulator in selftests/unit/scenarios/.
 */
#include "tests/fix.h"

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
UNIT_TEST(lb_1_random_uniform)
{
	static struct fix f;
	u32 hits[4] = { 0 }, i;

	fix_init(&f, 7);
	fix_tunnel(&f, &f.prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(&f, &f.prof, "B", 0, "10.0.0.2", 0);
	fix_tunnel(&f, &f.prof, "C", 0, "10.0.0.3", 0);
	fix_tunnel(&f, &f.prof, "D", 0, "10.0.0.4", 0);
	for (i = 0; i < 40000; i++)
		hits[pick_all(&f, 0)]++;
	for (i = 0; i < 4; i++) {
		EXPECT_TRUE(hits[i] > 9500 && hits[i] < 10500);
		if (hits[i] <= 9500 || hits[i] >= 10500)
			UNIT_DIAG("tunnel %u: %u of 40000", i, hits[i]);
	}
}

/* S-LB-2, S-SEL-12: the 000 example, limits 1000 and 2000 -> pools
 * 0..999 and 1000..2999, Tunnel 2 chosen twice as often (statistical).
 */
UNIT_TEST(lb_2_weighted_1000_2000_pools_and_ratio)
{
	static struct fix f;
	u32 hits[2] = { 0 }, i;
	double ratio;

	fix_init(&f, 11);
	f.prof.lb = L2S_LB_WEIGHTED;
	fix_tunnel(&f, &f.prof, "T1", 0, "10.0.0.1", 1000);
	fix_tunnel(&f, &f.prof, "T2", 0, "10.0.0.2", 2000);
	f.pins[f.npins++] = 0;
	f.pins[f.npins++] = 999;
	f.pins[f.npins++] = 1000;
	f.pins[f.npins++] = 2999;
	EXPECT_EQ(pick_all(&f, 0), 0);
	EXPECT_EQ(pick_all(&f, 0), 0);
	EXPECT_EQ(pick_all(&f, 0), 1);
	EXPECT_EQ(pick_all(&f, 0), 1);
	for (i = 0; i < 300000; i++)
		hits[pick_all(&f, 0)]++;
	ratio = (double)hits[1] / hits[0];
	UNIT_DIAG("weighted 1000/2000: %u / %u, ratio %.3f", hits[0], hits[1], ratio);
	EXPECT_TRUE(ratio > 1.95 && ratio < 2.05);
}

/* S-LB-2 (our choice): an unlimited tunnel weighs as much as the largest
 * limited tunnel of its level; a level of unlimited tunnels is uniform.
 */
UNIT_TEST(lb_2_weighted_unlimited_tunnels)
{
	static struct fix f;

	fix_init(&f, 1);
	f.prof.lb = L2S_LB_WEIGHTED;
	fix_tunnel(&f, &f.prof, "A", 0, "10.0.0.1", 300);
	fix_tunnel(&f, &f.prof, "B", 0, "10.0.0.2", 0);
	fix_tunnel(&f, &f.prof, "C", 0, "10.0.0.3", 500);
	fix_tunnel(&f, &f.prof, "D", 1, "10.0.0.4", 0);
	fix_tunnel(&f, &f.prof, "E", 1, "10.0.0.5", 0);
	EXPECT_EQ(l2s_lb_weight(&f.prof, 0, 0), 300);
	EXPECT_EQ(l2s_lb_weight(&f.prof, 0, 1), 500);
	EXPECT_EQ(l2s_lb_weight(&f.prof, 0, 2), 500);
	EXPECT_EQ(l2s_lb_weight(&f.prof, 1, 3), 1);
	EXPECT_EQ(l2s_lb_weight(&f.prof, 1, 4), 1);
	/* Pools A 0..299, B 300..799, C 800..1299. */
	f.pins[f.npins++] = 299;
	f.pins[f.npins++] = 300;
	f.pins[f.npins++] = 1299;
	EXPECT_EQ(pick_all(&f, 0), 0);
	EXPECT_EQ(pick_all(&f, 0), 1);
	EXPECT_EQ(pick_all(&f, 0), 2);
}

/* S-LB-3: lowest destination count; one such destination -> its tunnel with
 * the lowest tunnel count; several -> random among their tunnels, tunnel
 * counts not evaluated.
 */
UNIT_TEST(lb_3_destination_equal_rules)
{
	static struct fix f;
	u32 seen[4] = { 0 }, i;

	fix_init(&f, 3);
	f.prof.lb = L2S_LB_DEST_EQUAL;
	fix_tunnel(&f, &f.prof, "A", 0, "10.0.0.1", 0);
	fix_tunnel(&f, &f.prof, "B", 0, "10.0.0.1", 0);
	fix_tunnel(&f, &f.prof, "C", 0, "10.0.0.2", 0);
	fix_tunnel(&f, &f.prof, "D", 0, "10.0.0.3", 0);
	f.prof.t[0].sessions = 7;
	f.prof.t[1].sessions = 3;
	f.dests[f.prof.t[0].dest].sessions = 10;
	f.dests[f.prof.t[2].dest].sessions = 20;
	f.dests[f.prof.t[3].dest].sessions = 30;
	for (i = 0; i < 50; i++)
		EXPECT_EQ(pick_all(&f, 0), 1);		/* B: 3 < 7 */
	f.dests[f.prof.t[2].dest].sessions = 10;	/* tie 10.0.0.1 / 10.0.0.2 */
	for (i = 0; i < 3000; i++)
		seen[pick_all(&f, 0)]++;
	/* uniform over A, B, C: A is chosen although its tunnel count is higher */
	EXPECT_TRUE(seen[0] > 800 && seen[1] > 800 && seen[2] > 800);
	EXPECT_EQ(seen[3], 0);
}

/* S-LB-4: in the walk, minmiss keeps every key of a surviving destination
 * when one destination is locked, and moves them all back afterwards; plain
 * hash moves most.
 */
UNIT_TEST(lb_4_hash_modes_in_the_walk)
{
	static struct fix f;
	static u16 before[2000];
	u8 lb;

	for (lb = L2S_LB_HASH; lb <= L2S_LB_MINMISS_HASH; lb++) {
		u32 i, moved = 0, moved_other = 0, back = 0;
		char key[32];

		fix_init(&f, 5);
		f.prof.lb = lb;
		fix_tunnel(&f, &f.prof, "A", 0, "10.0.0.1", 0);
		fix_tunnel(&f, &f.prof, "B", 0, "10.0.0.2", 0);
		fix_tunnel(&f, &f.prof, "C", 0, "10.0.0.3", 0);
		fix_tunnel(&f, &f.prof, "D", 0, "10.0.0.4", 0);
		for (i = 0; i < 2000; i++) {
			int n = snprintf(key, sizeof(key), "u%u", i);

			before[i] = fix_login(&f, &f.prof, l2s_hash_key(key, (u32)n), NULL, 0).tunnel;
		}
		f.dests[f.prof.t[1].dest].lock_until = f.env.now + 1000;
		for (i = 0; i < 2000; i++) {
			int n = snprintf(key, sizeof(key), "u%u", i);
			u16 t = fix_login(&f, &f.prof, l2s_hash_key(key, (u32)n), NULL, 0).tunnel;

			moved += t != before[i];
			moved_other += t != before[i] && before[i] != 1;
		}
		f.env.now += 1000;
		for (i = 0; i < 2000; i++) {
			int n = snprintf(key, sizeof(key), "u%u", i);

			back += fix_login(&f, &f.prof, l2s_hash_key(key, (u32)n), NULL, 0).tunnel == before[i];
		}
		UNIT_DIAG("%s: %u of 2000 moved with B locked (%u not B's), %u back",
			  lb == L2S_LB_HASH ? "hash" : "minmiss-hash", moved, moved_other, back);
		EXPECT_EQ(back, 2000);
		if (lb == L2S_LB_MINMISS_HASH) {
			EXPECT_EQ(moved_other, 0);
			EXPECT_TRUE(moved < 2000 / 4 + 2000 / 100);
		} else {
			EXPECT_TRUE(moved > 2000 / 2);
		}
	}
}
