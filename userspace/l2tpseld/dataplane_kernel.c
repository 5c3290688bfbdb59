// SPDX-License-Identifier: GPL-2.0
/*
 * "dataplane kernel": the state machines' data-path hooks on dp.c (the
 * kernel's own L2TP and PPPoL2TP, S-L2TP-5).  An established tunnel gets a
 * kernel tunnel on its own UDP socket; an established session gets a kernel
 * session, a PPPoL2TP socket and pppd (LNS mode for the LNS role, dialer
 * mode for the LAC).  pppd's exit (SIGCHLD, main.c) ends the session.
 * An access call (a PPPoE subscriber, access.c) gets no pppd: its PPPoL2TP
 * channel is bridged to the subscriber's PPPoE channel in the kernel
 * (PPPIOCBRIDGECHAN) and the socket is kept until the call ends.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dataplane_kernel.h"
#include "l2d.h"
#include "proxy_lcp.h"
#include "session.h"
#include "tunnel.h"

#ifdef L2D_HAVE_DP
#include "dp.h"

#define MAX_EXTRA 32

static struct l2d_dp *dp_of(struct l2d *d)
{
	return d->dpctx;
}

static int glue_tunnel_add(struct l2d *d, struct l2d_tunnel *t)
{
	int ret = l2d_dp_tunnel_add(dp_of(d), t->fd, t->tid, t->peer_tid);

	if (ret)
		l2d_log(d, L2D_LOG_ERR, "%s", l2d_dp_strerror(dp_of(d)));
	return ret;
}

static void glue_tunnel_del(struct l2d *d, struct l2d_tunnel *t)
{
	int ret = l2d_dp_tunnel_del(dp_of(d), t->tid);

	if (ret && ret != -ENOENT)
		l2d_log(d, L2D_LOG_ERR, "%s", l2d_dp_strerror(dp_of(d)));
}

/*
 * pppd on the session's PPP channel @fd (closed here).  Return: its pid, or a
 * negative errno with the kernel session still there.
 */
static pid_t glue_pppd_start(struct l2d *d, struct l2d_session *s, int fd)
{
	char opts[sizeof(d->conf->pppd_options)], *extra[MAX_EXTRA + 1];
	struct l2d_pppd_opts o = { 0 };
	pid_t pid;

	/* each role its own options: the LAC's never reach an LNS pppd */
	if (l2d_conf_pppd_args(d->conf, !s->initiator, &o.optfile, opts, sizeof(opts), extra,
			       MAX_EXTRA + 1) < 0) {
		close(fd);
		l2d_log(d, L2D_LOG_ERR, "session %u: more than %d pppd options", s->sid, MAX_EXTRA);
		return -E2BIG;
	}
	o.pppd = d->conf->pppd_path;
	o.lns = !s->initiator;
	o.tid = s->t->tid;
	o.sid = s->sid;
	/*
	 * LNS: pppd renegotiates LCP; it asks the MRU the LAC asked of the
	 * subscriber (Proxy LCP, RFC 2661 section 4.4.5), which fits the
	 * path between them (S-MTU-1), unless the options file says otherwise.
	 */
	o.mru = s->initiator ? 0 : s->proxy_mru;
	o.user = s->initiator && s->user[0] ? s->user : NULL;
	o.extra = (const char *const *)extra;
	o.out_fd = -1;
	/*
	 * proxy-lcp: the proxied LCP taken (session.c): the plugin opens LCP
	 * with it and gives pppd the PAP request, read from pppd's stdin
	 */
	if (s->proxy && access(d->conf->proxy_lcp_plugin, R_OK) < 0) {
		l2d_log(d, L2D_LOG_ERR, "session %u: proxy-lcp-plugin %s: %s; pppd negotiates LCP",
			s->sid, d->conf->proxy_lcp_plugin, strerror(errno));
		l2d_session_proxy_done(s);
		d->stats.proxy_lcp_taken--;
		d->stats.proxy_lcp_renegotiated++;
	}
	if (s->proxy) {
		o.plugin2 = d->conf->proxy_lcp_plugin;
		o.in_data = s->proxy;
		o.in_len = sizeof(*s->proxy);
	}
	pid = l2d_dp_pppd_start(dp_of(d), fd, &o);
	l2d_session_proxy_done(s);
	close(fd);
	if (pid < 0)
		l2d_log(d, L2D_LOG_ERR, "%s", l2d_dp_strerror(dp_of(d)));
	return pid;
}

static int glue_session_add(struct l2d *d, struct l2d_session *s)
{
	struct l2d_tunnel *t = s->t;
	struct l2d_dp *dp = dp_of(d);
	int ret, fd;
	pid_t pid;

	if (!t->dp_added)
		return -ENOENT;
	ret = l2d_dp_session_add(dp, t->tid, s->sid, t->peer_tid, s->peer_sid, s->seq);
	if (ret)
		goto err;
	fd = l2d_dp_ppp_open(dp, t->fd, t->tid, s->sid, t->peer_tid, s->peer_sid);
	if (fd < 0) {
		ret = fd;
		l2d_dp_session_del(dp, t->tid, s->sid);
		goto err;
	}
	if (s->access && d->aops) {
		ret = d->aops->bridge(d, s, fd);
		if (ret < 0) {
			close(fd);
			l2d_dp_session_del(dp, t->tid, s->sid);
			return ret;
		}
		s->ppp_fd = fd;
		return ret;	/* 1: under way */
	}
	pid = glue_pppd_start(d, s, fd);
	if (pid < 0) {
		l2d_dp_session_del(dp, t->tid, s->sid);
		return pid;
	}
	s->pppd_pid = pid;
	l2d_log(d, L2D_LOG_INFO, "session %u: pppd %d started", s->sid, (int)pid);
	return 0;
err:
	l2d_log(d, L2D_LOG_ERR, "%s", l2d_dp_strerror(dp));
	return ret;
}

struct sid_held {
	struct l2d *d;
	uint16_t sid;
};

static void sid_closed(void *arg, int res)
{
	struct sid_held *h = arg;

	l2d_sid_release(h->d, h->sid);
	free(h);
}

/*
 * A socket no pppd holds (an access call's, or pppd gone) is the agent's
 * alone: its last close deletes the kernel session (pppol2tp_release())
 * and unbridges it, after a grace period, on a worker (offload.h); the
 * session's id is held until then.  0, or -ENOMEM when the closing is left
 * to the caller.
 */
static int close_alone(struct l2d *d, struct l2d_session *s)
{
	struct sid_held *h = malloc(sizeof(*h));

	if (!h)
		return -ENOMEM;
	h->d = d;
	h->sid = s->sid;
	l2d_sid_hold(d, s->sid);
	if (s->bridge_job && d->aops)
		d->aops->bridge_cancel(d, s, sid_closed, h);
	else
		l2d_offload_close(&d->off, s->ppp_fd, -1, sid_closed, h);
	return 0;
}

static void glue_session_del(struct l2d *d, struct l2d_session *s)
{
	struct l2d_dp *dp = dp_of(d);

	if (s->pppd_pid <= 0 && s->ppp_fd >= 0 && !close_alone(d, s)) {
		s->ppp_fd = -1;
		s->bridge_job = NULL;
		return;
	}
	if (s->pppd_pid > 0)
		l2d_dp_pppd_stop(dp, s->pppd_pid, 0, NULL);
	s->pppd_pid = 0;
	/* a bridge under way leaves the socket to the access side, once its worker is done */
	if (s->bridge_job && d->aops)
		d->aops->bridge_cancel(d, s, NULL, NULL);
	else if (s->ppp_fd >= 0)
		close(s->ppp_fd);
	s->ppp_fd = -1;
	if (s->t->dp_added)
		l2d_dp_session_del(dp, s->t->tid, s->sid);
}

static const struct l2d_dpops glue_ops = {
	.tunnel_add = glue_tunnel_add,
	.tunnel_del = glue_tunnel_del,
	.session_add = glue_session_add,
	.session_del = glue_session_del,
};

int l2d_dataplane_kernel_open(struct l2d *d, char *err, size_t errlen)
{
	struct l2d_dp *dp;
	int ret = l2d_dp_open(&dp, err, errlen);

	if (ret)
		return ret;
	d->dpctx = dp;
	d->dpops = &glue_ops;
	return 0;
}

void l2d_dataplane_kernel_close(struct l2d *d)
{
	if (d->dpctx)
		l2d_dp_close(d->dpctx);
	d->dpctx = NULL;
	d->dpops = NULL;
}

#else

int l2d_dataplane_kernel_open(struct l2d *d, char *err, size_t errlen)
{
	snprintf(err, errlen, "dataplane kernel: this l2tpseld was built without dp.c");
	return -EOPNOTSUPP;
}

void l2d_dataplane_kernel_close(struct l2d *d)
{
}

#endif

/* pppd @pid exited: its session ends (the PPP client went away). */
void l2d_dataplane_kernel_child_exit(struct l2d *d, int pid, int status)
{
	struct l2d_tunnel *t;
	struct l2d_session *s;

	for (t = d->tunnels; t; t = t->next)
		for (s = t->sessions; s; s = s->next)
			if (s->pppd_pid == pid) {
				l2d_log(d, L2D_LOG_INFO, "session %u: pppd %d exited (status %d)",
					s->sid, pid, status);
				s->pppd_pid = 0;
				l2d_session_close(s, s->login ? L2D_END_CLIENT_GONE : L2D_END_LOCAL, true,
						  L2TP_CDN_LOST_CARRIER, 0, "pppd exited");
				return;
			}
}
