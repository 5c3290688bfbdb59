// SPDX-License-Identifier: GPL-2.0
/*
 * Named-object tables: a hash table for lookups by name and an xarray in id
 * order for dumps that resume from a cursor.
 */
#include "l2tpsel.h"

static const struct rhashtable_params ks_obj_params = {
	.key_len	= L2TPSEL_NAME_MAX,
	.key_offset	= offsetof(struct ks_obj, name),
	.head_offset	= offsetof(struct ks_obj, node),
	.automatic_shrinking = true,
	.nelem_hint = KS_HT_HINT,
};

/**
 * ks_table_init() - an empty table
 * @t: the table
 *
 * Return: 0 or -ENOMEM.
 */
int ks_table_init(struct ks_table *t)
{
	t->n = 0;
	xa_init_flags(&t->xa, XA_FLAGS_ALLOC1);
	return rhashtable_init(&t->ht, &ks_obj_params);
}

/**
 * ks_table_destroy() - free every object and the table itself
 * @t: the table
 * @free_fn: frees one object; NULL when the caller freed them already
 */
void ks_table_destroy(struct ks_table *t, void (*free_fn)(struct ks_obj *obj))
{
	struct ks_obj *obj;
	unsigned long id;

	if (free_fn)
		xa_for_each(&t->xa, id, obj)
			free_fn(obj);
	xa_destroy(&t->xa);
	rhashtable_destroy(&t->ht);
	t->n = 0;
}

/* Names are compared as their zero-padded fixed-size buffers. */
static void ks_name_key(char key[L2TPSEL_NAME_MAX], const char *name)
{
	memset(key, 0, L2TPSEL_NAME_MAX);
	strscpy(key, name, L2TPSEL_NAME_MAX);
}

/**
 * ks_table_find() - look an object up by name
 * @t: the table
 * @name: NUL-terminated name
 *
 * Return: the object or NULL.
 */
struct ks_obj *ks_table_find(struct ks_table *t, const char *name)
{
	char key[L2TPSEL_NAME_MAX];

	ks_name_key(key, name);
	return rhashtable_lookup_fast(&t->ht, key, ks_obj_params);
}

/**
 * ks_table_add() - name an object and insert it
 * @t: the table
 * @obj: the object, not yet in any table
 * @name: its name, shorter than L2TPSEL_NAME_MAX
 *
 * Return: 0, -ENOMEM, -ENOSPC (no id left), or -EEXIST (the caller frees @obj).
 */
int ks_table_add(struct ks_table *t, struct ks_obj *obj, const char *name)
{
	int err;

	ks_name_key(obj->name, name);
	err = xa_alloc(&t->xa, &obj->id, obj, xa_limit_32b, GFP_KERNEL_ACCOUNT);
	if (err)
		return err == -EBUSY ? -ENOSPC : err;
	err = rhashtable_lookup_insert_fast(&t->ht, &obj->node, ks_obj_params);
	if (err) {
		xa_erase(&t->xa, obj->id);
		return err;
	}
	t->n++;
	return 0;
}

/**
 * ks_table_del() - take an object out of its table
 * @t: the table
 * @obj: the object; the caller frees it
 */
void ks_table_del(struct ks_table *t, struct ks_obj *obj)
{
	rhashtable_remove_fast(&t->ht, &obj->node, ks_obj_params);
	xa_erase(&t->xa, obj->id);
	t->n--;
}
