/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A map of 32-bit ids to the structures that embed a struct l2d_idnode:
 * chained buckets, the bucket an id's low bits (the agent's ids are
 * sequence numbers), doubled when the entries outnumber the buckets twice.
 * Adding never fails: a map that cannot grow keeps its buckets and its
 * chains get longer.  A storm of logins finds a login, and a logout its
 * session, in constant time, whatever else is up.
 */
#ifndef L2D_IDMAP_H
#define L2D_IDMAP_H

#include <stddef.h>
#include <stdint.h>

struct l2d_idnode {
	struct l2d_idnode *next;
	uint32_t id;
};

struct l2d_idmap {
	struct l2d_idnode **b;		/* mask + 1 chains; &one until the first growth */
	struct l2d_idnode *one;
	uint32_t mask, n;
};

void l2d_idmap_init(struct l2d_idmap *m);
void l2d_idmap_fini(struct l2d_idmap *m);
/* @e, with the id @id (entries may share one). */
void l2d_idmap_add(struct l2d_idmap *m, struct l2d_idnode *e, uint32_t id);
/* @e, an entry of @m. */
void l2d_idmap_del(struct l2d_idmap *m, struct l2d_idnode *e);
/* The entry with @id, or NULL; l2d_idmap_next(): the next with the same id. */
struct l2d_idnode *l2d_idmap_find(const struct l2d_idmap *m, uint32_t id);
struct l2d_idnode *l2d_idmap_next(const struct l2d_idnode *e);

#define l2d_idmap_entry(node, type, member) \
	((type *)((char *)(node) - offsetof(type, member)))

#endif
