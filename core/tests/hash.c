// SPDX-License-Identifier: GPL-2.0
/*
 * Hash and minmiss hash over member lists (core/hash.c, S-LB-4), measured
 * over 100000 keys for N = 2..31 members: the KUnit suite l2tpsel_hash and
 * the userspace tests hash_*, one case each (core/tests/t.h).
 */
#include "fix.h"

#ifdef L2S_KERNEL
#include <linux/vmalloc.h>
#endif

#define KH_KEYS	100000

/* The keys: "subscriber%d@example.net", hashed. */
static void hash_fill(u32 *k)
{
	char name[64];
	int i, n;

	for (i = 0; i < KH_KEYS; i++) {
		n = snprintf(name, sizeof(name), "subscriber%d@example.net", i);
		k[i] = l2s_hash_key(name, n);
	}
}

#ifdef L2S_KERNEL
/*
 * 400 KB of keys: vmalloc()ed by the suite's init for each case, as
 * kunit_kzalloc() would want that much contiguous memory (and 6.1's KUnit
 * has no vmalloc of its own).
 */
static int l2tpsel_hash_init(struct kunit *test)
{
	u32 *k = vmalloc(array_size(KH_KEYS, sizeof(*k)));

	if (!k)
		return -ENOMEM;
	hash_fill(k);
	test->priv = k;
	return 0;
}

static void l2tpsel_hash_exit(struct kunit *test)
{
	vfree(test->priv);
}

static const u32 *hash_keys(t_test *test)
{
	return test->priv;
}
#else
/* Userspace: once for all cases, in static memory. */
static const u32 *hash_keys(t_test *test)
{
	static u32 k[KH_KEYS];
	static int done;

	if (!done)
		hash_fill(k);
	done = 1;
	return k;
}
#endif

typedef int (*kh_pick_fn)(u32 key, u32 n, u32 up);

/* Keys that change member when @lost goes; *only_lost: all were @lost's. */
static u32 kh_moved_on_loss(const u32 *k, kh_pick_fn pick, u32 n, u32 lost, bool *only_lost)
{
	u32 all = n == 32 ? ~0u : (1u << n) - 1, i, moved = 0;

	*only_lost = true;
	for (i = 0; i < KH_KEYS; i++) {
		int a = pick(k[i], n, all), b = pick(k[i], n, all & ~(1u << lost));

		if (a != b) {
			moved++;
			if ((u32)a != lost)
				*only_lost = false;
		}
	}
	return moved;
}

/* S-LB-4: losing one of N moves at most 1/N + 1 % of keys, only that
 * member's; its return restores every key to its original member.
 */
T_CASE(hash_minmiss_loss_return)
{
	const u32 *k = hash_keys(test);
	u32 n, i;

	for (n = 2; n <= 31; n++) {
		u32 all = (1u << n) - 1, lost = n / 2, moved, restored = 0, wrong = 0;
		bool only;

		moved = kh_moved_on_loss(k, l2s_minmiss_pick, n, lost, &only);
		T_EXPECT_LE_MSG(moved, KH_KEYS / n + KH_KEYS / 100, "N=%u", n);
		T_EXPECT_TRUE_MSG(only, "N=%u: keys of other members moved", n);
		for (i = 0; i < KH_KEYS; i++) {
			int before = l2s_minmiss_pick(k[i], n, all);
			int down = l2s_minmiss_pick(k[i], n, all & ~(1u << lost));

			restored += before == l2s_minmiss_pick(k[i], n, all);
			wrong += down == (int)lost;
		}
		T_EXPECT_EQ_MSG(restored, (u32)KH_KEYS, "N=%u", n);
		T_EXPECT_EQ_MSG(wrong, 0u, "N=%u: a key went to the lost member", n);
	}
}

/* S-LB-4: the same for every member of a few list sizes. */
T_CASE(hash_minmiss_every_member)
{
	static const u32 sizes[] = { 2, 7, 31 };
	const u32 *k = hash_keys(test);
	size_t s;
	u32 j;

	for (s = 0; s < L2S_ARRAY_SIZE(sizes); s++) {
		u32 n = sizes[s];

		for (j = 0; j < n; j++) {
			bool only;
			u32 moved = kh_moved_on_loss(k, l2s_minmiss_pick, n, j, &only);

			T_EXPECT_LE_MSG(moved, KH_KEYS / n + KH_KEYS / 100,
					"N=%u member %u", n, j);
			T_EXPECT_TRUE_MSG(only, "N=%u member %u", n, j);
		}
	}
}

/* S-LB-4: a second failure moves only keys of the second member. */
T_CASE(hash_minmiss_second_failure)
{
	u32 n = 8, all = 0xff, one = all & ~1u, two = one & ~(1u << 5);
	const u32 *k = hash_keys(test);
	u32 i, bad = 0;

	for (i = 0; i < KH_KEYS; i++) {
		int a = l2s_minmiss_pick(k[i], n, one), b = l2s_minmiss_pick(k[i], n, two);

		if (a != b && a != 5)
			bad++;
	}
	T_EXPECT_EQ(bad, 0u);
}

/*
 * S-LB-4: plain hash moves more keys than minmiss and restores on return,
 * for every N (userspace's hash_lb4_plain_hash_measured and the kernel's
 * plain_vs_minmiss merged: the former's N range, the latter's one line).
 */
T_CASE(hash_plain_vs_minmiss)
{
	const u32 *k = hash_keys(test);
	char line[160] = "";
	u32 n, i;

	for (n = 2; n <= 31; n++) {
		u32 all = (1u << n) - 1, lost = n / 2, restored = 0;
		bool only;
		u32 plain = kh_moved_on_loss(k, l2s_hash_pick, n, lost, &only);
		u32 mm = kh_moved_on_loss(k, l2s_minmiss_pick, n, lost, &only);

		for (i = 0; i < KH_KEYS; i++) {
			int before = l2s_hash_pick(k[i], n, all);

			(void)l2s_hash_pick(k[i], n, all & ~(1u << lost));
			restored += before == l2s_hash_pick(k[i], n, all);
		}
		T_EXPECT_EQ(restored, (u32)KH_KEYS);
		if (n >= 3)
			T_EXPECT_GT_MSG(plain, mm, "N=%u", n);
		/* every 4th N: a KUnit case's log holds 512 bytes, result line included */
		if (n % 4 == 3)
			snprintf(line + strlen(line), sizeof(line) - strlen(line), " %u:%u/%u",
				 n, plain, mm);
	}
	T_INFO("keys moved of %u when one of N goes, N:plain/minmiss%s", KH_KEYS, line);
}

/* Edge cases: no member up, one member, member count out of range. */
T_CASE(hash_edges)
{
	T_EXPECT_EQ(l2s_minmiss_pick(123, 4, 0), -1);
	T_EXPECT_EQ(l2s_hash_pick(123, 4, 0), -1);
	T_EXPECT_EQ(l2s_minmiss_pick(123, 1, 1), 0);
	T_EXPECT_EQ(l2s_minmiss_pick(123, 0, 1), -1);
	T_EXPECT_EQ(l2s_minmiss_pick(123, 33, 1), -1);
	T_EXPECT_EQ(l2s_minmiss_pick(123, 4, 1u << 3), 3);
	T_EXPECT_EQ(l2s_hash_pick(7, 4, 0xf), 3);
	T_EXPECT_NE(l2s_hash_key("a", 1), l2s_hash_key("b", 1));
	T_EXPECT_EQ(l2s_hash_key("abc", 3), l2s_hash_key("abc", 3));
}

T_SUITE_INIT(l2tpsel_hash, l2tpsel_hash_init, l2tpsel_hash_exit,
	     T_ENTRY(hash_minmiss_loss_return)
	     T_ENTRY(hash_minmiss_every_member)
	     T_ENTRY(hash_minmiss_second_failure)
	     T_ENTRY(hash_plain_vs_minmiss)
	     T_ENTRY(hash_edges));
