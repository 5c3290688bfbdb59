/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The agent's figures in the Prometheus text exposition format, version
 * 0.0.4 (S-OPS-3, Documentation/metrics.md): metrics.c renders them from
 * the agent's state, the same state the local API's "show" and "stats"
 * answer from; metrics_http.c serves them over HTTP with libmicrohttpd,
 * driven from the agent's event loop.
 */
#ifndef L2D_METRICS_H
#define L2D_METRICS_H

#include <stddef.h>

struct l2d;

/*
 * Every metric of @d, as one text.  Return: a malloc()ed NUL-terminated
 * text of *@len bytes, or NULL when out of memory.
 */
char *l2d_metrics_render(struct l2d *d, size_t *len);

/* Serve GET /metrics on d->conf->metrics_addr. Return: 0 or -errno with @err set. */
int l2d_metrics_open(struct l2d *d, char *err, size_t errlen);
void l2d_metrics_close(void);

#endif
