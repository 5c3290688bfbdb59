// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld's id map (userspace/l2tpseld/idmap.c): what a storm of logins
 * and logouts asks of it, ids that repeat (a login's attempts) included.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "harness.h"
#include "../../userspace/l2tpseld/idmap.h"

struct item {
	struct l2d_idnode node;
	bool in;
};

#define N 20000

static struct item *find(const struct l2d_idmap *m, uint32_t id)
{
	struct l2d_idnode *e = l2d_idmap_find(m, id);

	return e ? l2d_idmap_entry(e, struct item, node) : NULL;
}

/* Sequential ids in, found; half out in a scattered order; the rest stay. */
TEST(l2tpseld_idmap_add_find_del)
{
	static struct item it[N];
	struct l2d_idmap m;
	unsigned int i, k;

	l2d_idmap_init(&m);
	EXPECT_TRUE(find(&m, 1) == NULL);
	for (i = 0; i < N; i++) {
		l2d_idmap_add(&m, &it[i].node, i + 1);
		it[i].in = true;
	}
	EXPECT_EQ(m.n, N);
	/* grown: at most two entries a chain on average */
	EXPECT_TRUE(m.mask + 1 >= N / 2);
	for (i = 0; i < N; i++)
		EXPECT_TRUE(find(&m, i + 1) == &it[i]);
	EXPECT_TRUE(find(&m, N + 1) == NULL);
	EXPECT_TRUE(find(&m, 0) == NULL);
	/* 7919 is prime to N: every index once */
	for (k = 0; k < N / 2; k++) {
		i = k * 7919u % N;
		l2d_idmap_del(&m, &it[i].node);
		it[i].in = false;
	}
	EXPECT_EQ(m.n, N / 2);
	for (i = 0; i < N; i++)
		EXPECT_TRUE(find(&m, i + 1) == (it[i].in ? &it[i] : NULL));
	for (i = 0; i < N; i++)
		if (it[i].in)
			l2d_idmap_del(&m, &it[i].node);
	EXPECT_EQ(m.n, 0);
	EXPECT_TRUE(find(&m, 5) == NULL);
	l2d_idmap_fini(&m);
}

/* Entries sharing an id are all found, and each goes alone. */
TEST(l2tpseld_idmap_shared_id)
{
	struct item a = { 0 }, b = { 0 }, c = { 0 }, other = { 0 };
	struct l2d_idnode *e;
	struct l2d_idmap m;
	unsigned int n = 0;

	l2d_idmap_init(&m);
	l2d_idmap_add(&m, &a.node, 7);
	l2d_idmap_add(&m, &other.node, 8);
	l2d_idmap_add(&m, &b.node, 7);
	l2d_idmap_add(&m, &c.node, 7);
	for (e = l2d_idmap_find(&m, 7); e; e = l2d_idmap_next(e))
		n++;
	EXPECT_EQ(n, 3);
	l2d_idmap_del(&m, &b.node);
	n = 0;
	for (e = l2d_idmap_find(&m, 7); e; e = l2d_idmap_next(e)) {
		EXPECT_TRUE(e != &b.node);
		n++;
	}
	EXPECT_EQ(n, 2);
	EXPECT_TRUE(find(&m, 8) == &other);
	l2d_idmap_fini(&m);
}

/* Ids far apart (the low bits alike) are still told apart. */
TEST(l2tpseld_idmap_same_low_bits)
{
	static struct item it[64];
	struct l2d_idmap m;
	unsigned int i;

	l2d_idmap_init(&m);
	for (i = 0; i < 64; i++)
		l2d_idmap_add(&m, &it[i].node, i << 20);
	for (i = 0; i < 64; i++)
		EXPECT_TRUE(find(&m, i << 20) == &it[i]);
	EXPECT_TRUE(find(&m, 65u << 20) == NULL);
	l2d_idmap_fini(&m);
}
