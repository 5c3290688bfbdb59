/* SPDX-License-Identifier: GPL-2.0 */
/*
 * l2tpsel module internals shared between its files.
 */
#ifndef L2TPSEL_H
#define L2TPSEL_H

#include <net/net_namespace.h>
#include <net/netns/generic.h>

/* Per network namespace state (S-OBJ-*): everything the module holds lives here. */
struct l2tpsel_net {
	struct net *net;
};

extern unsigned int l2tpsel_net_id;

static inline struct l2tpsel_net *l2tpsel_pernet(const struct net *net)
{
	return net_generic(net, l2tpsel_net_id);
}

int l2tpsel_genl_init(void);
void l2tpsel_genl_exit(void);

#endif /* L2TPSEL_H */
