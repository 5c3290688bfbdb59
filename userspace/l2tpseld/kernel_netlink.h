/* SPDX-License-Identifier: GPL-2.0 */
/*
 * l2tpseld's "kernel netlink" (kernel_netlink.c): the l2tpsel module's socket.
 */
#ifndef L2D_KERNEL_NETLINK_H
#define L2D_KERNEL_NETLINK_H

#include "kernel.h"

/* @fd: the module's socket handed over (S-OPS-2), or -1 for a new one */
int l2d_kernel_netlink_open(struct l2d *d, int fd, char *err, size_t errlen);

#endif
