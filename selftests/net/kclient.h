/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reply parsing shared by the selftests' C clients of the l2tpsel family
 * (concurrency.c, soak.c): the attributes come from userspace/lib/attr.h;
 * here only a callback that picks up to two u32 attributes.
 */
#ifndef L2S_KCLIENT_H
#define L2S_KCLIENT_H

#include <stdint.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/l2tpsel.h>

#include "attr.h"

/* kc_one_cb: *out[i] = attribute attr[i] of the reply (for non-NULL out[i]), 0 if absent. */
struct kc_one {
	int attr[2];
	uint32_t *out[2];
};

static inline int kc_one_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];
	struct kc_one *o = data;
	int i;

	l2s_attr_parse(nlh, tb);
	for (i = 0; i < 2; i++)
		if (o->out[i])
			*o->out[i] = l2s_attr_u32(tb, o->attr[i], 0);
	return MNL_CB_OK;
}

#endif
