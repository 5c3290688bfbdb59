// SPDX-License-Identifier: GPL-2.0
/*
 * Hash and minmiss hash over member lists (core/hash.c): S-LB-4, measured
 * over 100000 keys for N = 2..31 members.
 */
#include <stdlib.h>

#include "tests/fix.h"

#define NKEYS 100000

static u32 *keys(void)
{
	static u32 k[NKEYS];
	static int done;
	char name[64];
	int i, n;

	if (done)
		return k;
	for (i = 0; i < NKEYS; i++) {
		n = snprintf(name, sizeof(name), "subscriber%d@example.net", i);
		k[i] = l2s_hash_key(name, (u32)n);
	}
	done = 1;
	return k;
}

typedef int (*pick_fn)(u32 key, u32 n, u32 up);

/* Fraction (per 100000) of keys that change member when @lost goes. */
static u32 moved_on_loss(pick_fn pick, u32 n, u32 lost, u32 *only_lost)
{
	u32 *k = keys(), all = n == 32 ? ~0u : (1u << n) - 1, i, moved = 0;

	*only_lost = 1;
	for (i = 0; i < NKEYS; i++) {
		int a = pick(k[i], n, all), b = pick(k[i], n, all & ~(1u << lost));

		if (a != b) {
			moved++;
			if ((u32)a != lost)
				*only_lost = 0;
		}
	}
	return moved;
}

/* S-LB-4: losing one of N moves at most 1/N + 1 % of keys, only that member's;
 * its return restores every key to its original member.
 */
UNIT_TEST(hash_lb4_minmiss_loss_and_return_n2_to_31)
{
	u32 *k = keys();
	u32 n, i;

	for (n = 2; n <= 31; n++) {
		u32 all = (1u << n) - 1, lost = n / 2, only = 0, moved, bound;
		u32 restored = 0;

		moved = moved_on_loss(l2s_minmiss_pick, n, lost, &only);
		bound = NKEYS / n + NKEYS / 100;
		if (moved > bound || !only)
			UNIT_DIAG("N=%u: %u keys moved (bound %u), only lost member's: %u",
				  n, moved, bound, only);
		EXPECT_TRUE(moved <= bound);
		EXPECT_TRUE(only);
		/* Return: with every member up again, every key maps as before. */
		for (i = 0; i < NKEYS; i++) {
			int before = l2s_minmiss_pick(k[i], n, all);
			int down = l2s_minmiss_pick(k[i], n, all & ~(1u << lost));
			int back = l2s_minmiss_pick(k[i], n, all);

			restored += before == back;
			EXPECT_TRUE(down != (int)lost);
		}
		EXPECT_EQ(restored, NKEYS);
	}
}

/* S-LB-4: the same for every member of a few list sizes. */
UNIT_TEST(hash_lb4_minmiss_every_member_n2_7_31)
{
	static const u32 sizes[] = { 2, 7, 31 };
	size_t s;
	u32 j;

	for (s = 0; s < L2S_ARRAY_SIZE(sizes); s++) {
		u32 n = sizes[s];

		for (j = 0; j < n; j++) {
			u32 only = 0, moved = moved_on_loss(l2s_minmiss_pick, n, j, &only);

			EXPECT_TRUE(moved <= NKEYS / n + NKEYS / 100);
			EXPECT_TRUE(only);
		}
	}
}

/* S-LB-4: a second failure moves only keys of the second member (its own and
 * the slots it had been refilled with).
 */
UNIT_TEST(hash_lb4_minmiss_second_failure)
{
	u32 *k = keys(), n = 8, all = 0xff, one = all & ~1u, two = one & ~(1u << 5);
	u32 i, bad = 0;

	for (i = 0; i < NKEYS; i++) {
		int a = l2s_minmiss_pick(k[i], n, one), b = l2s_minmiss_pick(k[i], n, two);

		if (a != b && a != 5)
			bad++;
	}
	EXPECT_EQ(bad, 0);
}

/* S-LB-4: plain hash is measured (most keys move) and restores on return. */
UNIT_TEST(hash_lb4_plain_hash_measured)
{
	u32 *k = keys();
	u32 n, i;

	UNIT_DIAG("N  plain-hash-moved%%  minmiss-moved%%  (one member lost, %d keys)", NKEYS);
	for (n = 2; n <= 31; n++) {
		u32 all = (1u << n) - 1, lost = n / 2, only, restored = 0;
		u32 plain = moved_on_loss(l2s_hash_pick, n, lost, &only);
		u32 mm = moved_on_loss(l2s_minmiss_pick, n, lost, &only);

		UNIT_DIAG("%-2u %8u.%02u %14u.%02u", n, plain / 1000, plain / 10 % 100,
			  mm / 1000, mm / 10 % 100);
		/* The rebuilt list is the original once the member is back. */
		for (i = 0; i < NKEYS; i++) {
			int before = l2s_hash_pick(k[i], n, all);

			(void)l2s_hash_pick(k[i], n, all & ~(1u << lost));
			restored += before == l2s_hash_pick(k[i], n, all);
		}
		EXPECT_EQ(restored, NKEYS);
		if (n >= 3)
			EXPECT_TRUE(plain > mm);
	}
}

/* Edge cases: no member up, one member, member count out of range. */
UNIT_TEST(hash_lb4_edges)
{
	EXPECT_EQ(l2s_minmiss_pick(123, 4, 0), -1);
	EXPECT_EQ(l2s_hash_pick(123, 4, 0), -1);
	EXPECT_EQ(l2s_minmiss_pick(123, 1, 1), 0);
	EXPECT_EQ(l2s_minmiss_pick(123, 0, 1), -1);
	EXPECT_EQ(l2s_minmiss_pick(123, 4, 1u << 3), 3);
	EXPECT_EQ(l2s_hash_pick(7, 4, 0xf), 3);
	EXPECT_TRUE(l2s_hash_key("a", 1) != l2s_hash_key("b", 1));
	EXPECT_EQ(l2s_hash_key("abc", 3), l2s_hash_key("abc", 3));
}
