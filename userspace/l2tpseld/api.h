/* SPDX-License-Identifier: GPL-2.0 */
/*
 * l2tpseld's local API (api.c): a UNIX socket, opened and closed by main.c.
 */
#ifndef L2D_API_H
#define L2D_API_H

#include "l2d.h"

int l2d_api_open(struct l2d *d, const char *path, char *err, size_t errlen);
void l2d_api_close(void);
void l2d_api_flush(void);
void l2d_api_login_event(struct l2d *d, struct l2d_login *lg, const char *line);

#endif
