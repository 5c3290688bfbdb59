/* SPDX-License-Identifier: GPL-2.0 */
/*
 * l2tpseld's "dataplane kernel" (dataplane_kernel.c): the data-path hooks on dp.c,
 * opened and closed by main.c.
 */
#ifndef L2D_DATAPLANE_KERNEL_H
#define L2D_DATAPLANE_KERNEL_H

#include "l2d.h"

int l2d_dataplane_kernel_open(struct l2d *d, char *err, size_t errlen);
void l2d_dataplane_kernel_close(struct l2d *d);
void l2d_dataplane_kernel_child_exit(struct l2d *d, int pid, int status);

#endif
