/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Load balancing within one level (S-LB-1..4): which of the unlocked valid
 * tunnels of a level a login attempts.
 */
#ifndef L2S_LB_H
#define L2S_LB_H

#include "obj.h"
#include "env.h"

u32 l2s_lb_weight(const struct l2s_profile *p, u32 lvl, u32 tunnel);
int l2s_lb_pick(const struct l2s_core *c, const struct l2s_profile *p,
		u32 lvl, const u8 *cand, u32 n, u32 key,
		const struct l2s_env *env);

#endif /* L2S_LB_H */
