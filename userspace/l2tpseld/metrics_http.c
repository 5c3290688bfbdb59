// SPDX-License-Identifier: GPL-2.0
/*
 * The metrics endpoint (S-OPS-3): GET /metrics over HTTP/1.1, served by
 * libmicrohttpd without threads of its own.  MHD runs in its epoll mode
 * under "external polling": its one epoll descriptor sits in the agent's
 * loop, and MHD_run() is called from the loop when it is readable and when
 * MHD_get_timeout() says (a connection's idle timeout, work it left for
 * the next turn).  So the request handler runs on the loop's thread, between
 * two events, and reads the agent's state as the API does: no locks, no
 * copy.  A scrape renders the whole text at once (metrics.c); with some
 * thousands of tunnels that is a few hundred KiB and milliseconds, once per
 * scrape interval.
 *
 * Bounds: 16 connections, 10 s idle each; anything but GET or HEAD of
 * /metrics is refused (405, 404).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <microhttpd.h>

#include "l2d.h"
#include "metrics.h"

#define METRICS_CONN_MAX	16
#define METRICS_IDLE_S		10
#define METRICS_CONTENT_TYPE	"text/plain; version=0.0.4; charset=utf-8"

static struct {
	struct l2d *d;
	struct MHD_Daemon *mhd;
	struct l2d_fd fdw;
	struct l2d_timer timer;
} the_metrics;

/* MHD's next deadline onto the loop's timer: it wants MHD_run() then. */
static void metrics_schedule(void)
{
	struct l2d_loop *loop = the_metrics.d->loop;
	MHD_UNSIGNED_LONG_LONG ms;

	if (MHD_get_timeout(the_metrics.mhd, &ms) == MHD_YES)
		l2d_timer_arm(loop, &the_metrics.timer, l2d_now(loop) + ms);
	else
		l2d_timer_cancel(loop, &the_metrics.timer);
}

static void metrics_run(void)
{
	MHD_run(the_metrics.mhd);
	metrics_schedule();
}

static void metrics_readable(struct l2d_fd *f, uint32_t events)
{
	(void)f;
	(void)events;
	metrics_run();
}

static void metrics_timer(struct l2d_timer *t)
{
	(void)t;
	metrics_run();
}

static enum MHD_Result reply_text(struct MHD_Connection *c, unsigned int status, const char *text)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(text), (void *)text,
								  MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result metrics_request(void *cls, struct MHD_Connection *c, const char *url,
				       const char *method, const char *version,
				       const char *upload_data, size_t *upload_data_size,
				       void **con_cls)
{
	struct MHD_Response *r;
	enum MHD_Result ret;
	size_t len;
	char *text;

	(void)cls;
	(void)version;
	(void)upload_data;
	if (*upload_data_size)
		return MHD_NO;		/* a body: none is asked for */
	if (!*con_cls) {
		/* headers are in: answer on the next call, as MHD's model has it */
		*con_cls = c;
		return MHD_YES;
	}
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply_text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET and HEAD\n");
	if (strcmp(url, "/metrics"))
		return reply_text(c, MHD_HTTP_NOT_FOUND, "the metrics are at /metrics\n");
	text = l2d_metrics_render(the_metrics.d, &len);
	if (!text)
		return reply_text(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n");
	r = MHD_create_response_from_buffer(len, text, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(text);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, METRICS_CONTENT_TYPE);
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

static void metrics_log(void *cls, const char *fmt, va_list ap)
{
	char line[L2D_LOG_LINE];
	size_t n;

	(void)cls;
	vsnprintf(line, sizeof(line), fmt, ap);
	n = strlen(line);
	while (n && line[n - 1] == '\n')
		line[--n] = '\0';
	l2d_log(the_metrics.d, L2D_LOG_INFO, "metrics: %s", line);
}

int l2d_metrics_open(struct l2d *d, char *err, size_t errlen)
{
	const struct l2d_conf *c = d->conf;
	const union MHD_DaemonInfo *info;
	struct l2d_addr a;
	char at[64];
	unsigned int flags = MHD_USE_EPOLL | MHD_USE_ERROR_LOG;

	if (!c->metrics_len)
		return 0;
	memcpy(&a.ss, &c->metrics_addr, sizeof(a.ss));
	a.len = c->metrics_len;
	l2d_addr_str(&a, at, sizeof(at), true);
	if (a.ss.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	the_metrics.d = d;
	l2d_timer_init(&the_metrics.timer, metrics_timer, NULL);
	errno = 0;
	the_metrics.mhd = MHD_start_daemon(flags, l2d_port(&a), NULL, NULL, metrics_request, NULL,
					   MHD_OPTION_EXTERNAL_LOGGER, metrics_log, NULL,
					   MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&a.ss,
					   MHD_OPTION_CONNECTION_LIMIT, (unsigned int)METRICS_CONN_MAX,
					   MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)METRICS_IDLE_S,
					   MHD_OPTION_END);
	if (!the_metrics.mhd) {
		int e = errno ? errno : EADDRNOTAVAIL;

		snprintf(err, errlen, "metrics %s: cannot listen: %s", at, strerror(e));
		return -e;
	}
	info = MHD_get_daemon_info(the_metrics.mhd, MHD_DAEMON_INFO_EPOLL_FD);
	if (!info) {
		MHD_stop_daemon(the_metrics.mhd);
		the_metrics.mhd = NULL;
		snprintf(err, errlen, "metrics %s: libmicrohttpd has no epoll descriptor", at);
		return -ENOTSUP;
	}
	the_metrics.fdw.fd = info->epoll_fd;
	the_metrics.fdw.fn = metrics_readable;
	if (l2d_fd_add(d->loop, &the_metrics.fdw, EPOLLIN)) {
		MHD_stop_daemon(the_metrics.mhd);
		the_metrics.mhd = NULL;
		snprintf(err, errlen, "metrics %s: epoll: %s", at, strerror(errno));
		return -EIO;
	}
	metrics_schedule();
	l2d_log(d, L2D_LOG_INFO, "metrics: serving http://%s/metrics", at);
	return 0;
}

void l2d_metrics_close(void)
{
	if (!the_metrics.mhd)
		return;
	l2d_timer_cancel(the_metrics.d->loop, &the_metrics.timer);
	l2d_fd_del(the_metrics.d->loop, &the_metrics.fdw);
	MHD_stop_daemon(the_metrics.mhd);
	the_metrics.mhd = NULL;
}
