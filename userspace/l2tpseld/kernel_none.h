/* SPDX-License-Identifier: GPL-2.0 */
/*
 * l2tpseld's "kernel none" (kernel_none.c): what the agent asks of it beyond
 * struct l2d_kops.
 */
#ifndef L2D_KERNEL_NONE_H
#define L2D_KERNEL_NONE_H

#include "kernel.h"

/* kernel none: the sessions counted (the core's chassis count) */
uint32_t l2d_kernel_none_sessions(struct l2d *d);
/* kernel none: drain tunnels by name or destinations by address (S-OPS-1); matched or -1 */
int l2d_kernel_none_drain(struct l2d *d, bool dest, const char *what, bool on, char *err,
			  size_t errlen);
/* kernel none: logins in flight on the current core's destinations (S-STORM-2) */
uint32_t l2d_kernel_none_in_flight(struct l2d *d);
/*
 * kernel none: 0 when the route lines of a checked @c (l2d_conf_check())
 * make a core, else -1 and a message; 0 for another kernel.
 */
int l2d_kernel_none_check(const struct l2d_conf *c, char *err, size_t errlen);

#endif
