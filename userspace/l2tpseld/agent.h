/* SPDX-License-Identifier: GPL-2.0 */
/*
 * l2tpseld: the agent assembled (agent.c), the core (l2d.c) with the parts
 * it dispatches to: tunnels, calls, logins.
 */
#ifndef L2D_AGENT_H
#define L2D_AGENT_H

#include "l2d.h"

/* l2d_init() and the parts' tables (d->tops, d->sops, d->lops); 0 or -errno. */
int l2d_agent_init(struct l2d *d, struct l2d_conf *conf, struct l2d_loop *loop,
		   const struct l2d_env *env, const struct l2d_kops *kops);

#endif
