// SPDX-License-Identifier: GPL-2.0
/*
 * The id map (idmap.h).  A rehash moves the entries to an array twice the
 * size; when that array cannot be had the map stays as it is, still right.
 */
#include <stdlib.h>

#include "idmap.h"

/* Growth stops here: 2^22 chains (32 MB) for more ids than the agent has. */
#define IDMAP_MAX_MASK	((1u << 22) - 1)

void l2d_idmap_init(struct l2d_idmap *m)
{
	m->one = NULL;
	m->b = &m->one;
	m->mask = 0;
	m->n = 0;
}

void l2d_idmap_fini(struct l2d_idmap *m)
{
	if (m->b != &m->one)
		free(m->b);
	l2d_idmap_init(m);
}

static void grow(struct l2d_idmap *m)
{
	uint32_t mask = m->mask * 2 + 1, i;
	struct l2d_idnode **b, *e, *next;

	if (m->mask >= IDMAP_MAX_MASK)
		return;
	b = calloc((size_t)mask + 1, sizeof(*b));
	if (!b)
		return;
	for (i = 0; i <= m->mask; i++) {
		for (e = m->b[i]; e; e = next) {
			next = e->next;
			e->next = b[e->id & mask];
			b[e->id & mask] = e;
		}
	}
	if (m->b != &m->one)
		free(m->b);
	m->b = b;
	m->mask = mask;
}

void l2d_idmap_add(struct l2d_idmap *m, struct l2d_idnode *e, uint32_t id)
{
	struct l2d_idnode **head;

	if (m->n / 2 > m->mask)
		grow(m);
	head = &m->b[id & m->mask];
	e->id = id;
	e->next = *head;
	*head = e;
	m->n++;
}

void l2d_idmap_del(struct l2d_idmap *m, struct l2d_idnode *e)
{
	struct l2d_idnode **pp;

	for (pp = &m->b[e->id & m->mask]; *pp; pp = &(*pp)->next) {
		if (*pp == e) {
			*pp = e->next;
			e->next = NULL;
			m->n--;
			return;
		}
	}
}

static struct l2d_idnode *from(struct l2d_idnode *e, uint32_t id)
{
	for (; e; e = e->next)
		if (e->id == id)
			return e;
	return NULL;
}

struct l2d_idnode *l2d_idmap_find(const struct l2d_idmap *m, uint32_t id)
{
	return from(m->b[id & m->mask], id);
}

struct l2d_idnode *l2d_idmap_next(const struct l2d_idnode *e)
{
	return from(e->next, e->id);
}
