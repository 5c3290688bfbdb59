/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reply parsing shared by the selftests' C clients of the l2tpsel family
 * (concurrency.c, soak.c): an attribute table of one message, a u32 that
 * may be absent, and a callback that picks up to two u32 attributes.
 */
#ifndef L2S_KCLIENT_H
#define L2S_KCLIENT_H

#include <stdint.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/l2tpsel.h>

/* tb[type] = the message's last attribute of that type, NULL if none. */
static inline void kc_parse(const struct nlmsghdr *nlh, const struct nlattr **tb)
{
	const struct nlattr *a;

	memset(tb, 0, sizeof(*tb) * (L2TPSEL_A_MAX + 1));
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) <= L2TPSEL_A_MAX)
			tb[mnl_attr_get_type(a)] = a;
}

/* The u32 in @a; 0 when absent or shorter than 4 bytes. */
static inline uint32_t kc_u32(const struct nlattr *a)
{
	return a && mnl_attr_get_payload_len(a) >= 4 ? mnl_attr_get_u32(a) : 0;
}

/* kc_one_cb: *out[i] = attribute attr[i] of the reply (for non-NULL out[i]). */
struct kc_one {
	int attr[2];
	uint32_t *out[2];
};

static inline int kc_one_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];
	struct kc_one *o = data;
	int i;

	kc_parse(nlh, tb);
	for (i = 0; i < 2; i++)
		if (o->out[i])
			*o->out[i] = kc_u32(tb[o->attr[i]]);
	return MNL_CB_OK;
}

#endif
