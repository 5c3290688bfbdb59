// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld's local API: a UNIX stream socket, one text line per request and
 * per answer (Documentation/l2tpseld.md):
 *
 *   login { USER | profile P } [profile P] [key K]
 *        -> "login ID user U", "attempt ...", "outcome ...", ...,
 *           "done ok session ID ..." | "done fail reason R ..." | "error TEXT"
 *   logout ID         -> "ok" | "error TEXT"
 *   show              -> "tunnel ..." and "session ..." lines, then "end"
 *   stats             -> one "stats ..." line, then "end"
 *   drain [on | off]  -> "drain STATE sessions N api on|off config yes|no", "end"
 *   drain { tunnel NAME | destination ADDR } [on | off]   (kernel none)
 *                     -> "drain on|off tunnel|destination NAME matched N", "end"
 *   upgrade           -> "upgrading"; the agent re-executes its binary (S-OPS-2)
 *   watch             -> "watching", then every login's lines as they happen,
 *                        subscribers' logins included: "login ID user U" and
 *                        "login ID EVENT" for each line a login's client
 *                        would read, until the connection closes
 *
 * A client that closes its connection while its login is being set up is
 * "client gone" for that attempt (S-SEL-4's outcome).  An established
 * session stays up after the client left: "logout ID" ends it.
 *
 * Who may talk to it: root, the agent's own user, and members of
 * "api-group" (SO_PEERCRED, SO_PEERGROUPS), whatever the socket file's mode;
 * the file is created 0660 (umask around bind: never open to others, not
 * even for an instant) and belongs to api-group when one is set.  Every
 * answer line goes through l2d_quote(); fields a peer or a client chose
 * (Host Name, user) are quoted as fields.
 */
#include <errno.h>
#include <grp.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <net/if.h>
#include <unistd.h>

#include "access.h"
#include "api.h"
#include "kernel_none.h"
#include "kernel.h"
#include "l2d.h"
#include "lac.h"
#include "radius.h"
#include "session.h"
#include "tunnel.h"

#define API_LINE_MAX 1024
/*
 * The most answer text a connection may hold that its client has not read:
 * a "show" of about 100000 sessions.  A client that reads less than that
 * keeps every line; one that falls further behind is closed (and logged),
 * so that it cannot make the agent hold memory without end.
 */
#define API_OUT_MAX (16u << 20)

struct api_conn {
	struct l2d_fd fdw;
	struct l2d *d;
	struct api_conn *next;
	struct api_conn *pending_next;	/* the_api.pending, when @pending */
	bool pending;			/* has output for l2d_api_flush() */
	uint32_t login_id;		/* the login in progress, 0 when none */
	bool brief;			/* its client wants its "done" line only */
	bool watch;			/* gets every login's lines ("watch") */
	bool want_out;			/* EPOLLOUT is on: output waits for the client */
	bool overflow;			/* more than API_OUT_MAX unread: closed at the flush */
	size_t inlen;
	char in[API_LINE_MAX];
	/* answer lines not sent yet: out[outoff, outlen), outcap allocated */
	char *out;
	size_t outoff, outlen, outcap;
};

struct api {
	struct l2d_fd fdw;
	struct l2d *d;
	struct api_conn *conns;
	/* the connections with answer lines this turn: the flush visits these only */
	struct api_conn *pending;
	char path[108];
	bool has_group;
	gid_t group;		/* api-group */
};

static struct api the_api;

/*
 * Send what the connection holds, as much as the socket takes.  Return: 0,
 * or -1 when the connection is broken (not when it is only full).
 */
static int conn_send(struct api_conn *c)
{
	while (c->outoff < c->outlen) {
		ssize_t n = send(c->fdw.fd, c->out + c->outoff, c->outlen - c->outoff,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n < 0) {
			l2d_log(c->d, L2D_LOG_DEBUG, "api: write: %s", strerror(errno));
			return -1;
		}
		c->outoff += (size_t)n;
	}
	if (c->outoff == c->outlen) {
		c->outoff = c->outlen = 0;
		if (c->outcap > 65536) {	/* a large show is over: give it back */
			free(c->out);
			c->out = NULL;
			c->outcap = 0;
		}
	}
	return 0;
}

/*
 * Send what the connection holds; what the socket does not take yet stays,
 * and EPOLLOUT is on until it has gone (conn_event()).  Return: as
 * conn_send().
 */
static int conn_flush(struct api_conn *c)
{
	bool want;

	if (conn_send(c))
		return -1;
	want = c->outlen > c->outoff;
	if (want != c->want_out &&
	    !l2d_fd_mod(c->d->loop, &c->fdw, EPOLLIN | (want ? EPOLLOUT : 0)))
		c->want_out = want;
	return 0;
}

/* Room for @n more bytes in the connection's output; false past API_OUT_MAX. */
static bool conn_room(struct api_conn *c, size_t n)
{
	size_t cap;
	char *p;

	if (c->outoff && c->outlen + n > c->outcap) {
		memmove(c->out, c->out + c->outoff, c->outlen - c->outoff);
		c->outlen -= c->outoff;
		c->outoff = 0;
	}
	if (c->outlen + n <= c->outcap)
		return true;
	if (c->outlen + n > API_OUT_MAX)
		return false;
	cap = c->outcap ? c->outcap : 4096;
	while (cap < c->outlen + n)
		cap *= 2;
	if (cap > API_OUT_MAX)
		cap = API_OUT_MAX;
	p = realloc(c->out, cap);
	if (!p)
		return false;
	c->out = p;
	c->outcap = cap;
	return true;
}

/*
 * One answer line, whatever the text holds.  Lines wait in the connection
 * until the turn of the loop ends (l2d_api_flush()), so that a login's
 * lines of one turn ("login", "attempt"; "outcome", "done") are one send.
 */
static void conn_write(struct api_conn *c, const char *line)
{
	char buf[API_LINE_MAX + 2];
	size_t n;

	l2d_quote(buf, API_LINE_MAX + 1, line, strlen(line), 0);
	n = strlen(buf);
	buf[n++] = '\n';
	if (c->overflow)
		return;
	if (!conn_room(c, n)) {
		c->overflow = true;	/* l2d_api_flush() closes it */
	} else {
		memcpy(c->out + c->outlen, buf, n);
		c->outlen += n;
	}
	if (!c->pending) {
		c->pending = true;
		c->pending_next = the_api.pending;
		the_api.pending = c;
	}
}

static void conn_close(struct api_conn *c);

/* Every connection that has lines: O(those), not O(connections), a turn. */
void l2d_api_flush(void)
{
	struct api_conn *c;

	while ((c = the_api.pending)) {
		the_api.pending = c->pending_next;
		c->pending = false;
		if (c->overflow)
			l2d_log(c->d, L2D_LOG_ERR, "api: connection closed: its client left more than %u bytes unread",
				API_OUT_MAX);
		if (c->overflow || conn_flush(c))
			conn_close(c);
	}
}

static void conn_printf(struct api_conn *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void conn_printf(struct api_conn *c, const char *fmt, ...)
{
	char line[API_LINE_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	conn_write(c, line);
}

/* A login's line to the connections that watch: each names its login. */
static void watchers_write(const struct l2d_login *lg, const char *line)
{
	struct api_conn *w;

	for (w = the_api.conns; w; w = w->next) {
		if (!w->watch)
			continue;
		if (!strncmp(line, "login ", 6))
			conn_write(w, line);		/* "login ID user U" */
		else
			conn_printf(w, "login %u %s", lg->id, line);
	}
}

void l2d_api_login_event(struct l2d *d, struct l2d_login *lg, const char *line)
{
	struct api_conn *c = lg->client;

	if (!line) {
		if (c && c->login_id == lg->id)
			c->login_id = 0;
		return;
	}
	if (d->login_watchers)
		watchers_write(lg, line);
	/* brief: the result only, one line a login instead of four or more */
	if (!c || (c->brief && strncmp(line, "done ", 5)))
		return;
	conn_write(c, line);
}

static void conn_close(struct api_conn *c)
{
	struct l2d *d = c->d;
	struct api_conn **pp;

	if (c->login_id) {
		struct l2d_login *lg = l2d_login_find(d, c->login_id);

		c->login_id = 0;
		if (lg && lg->client == c)
			l2d_login_client_gone(lg);
	}
	if (c->watch)
		d->login_watchers--;
	if (!c->overflow)
		conn_send(c);	/* what the socket takes now; the rest is lost */
	if (c->pending) {
		for (pp = &the_api.pending; *pp; pp = &(*pp)->pending_next)
			if (*pp == c) {
				*pp = c->pending_next;
				break;
			}
	}
	l2d_fd_del(d->loop, &c->fdw);
	close(c->fdw.fd);
	for (pp = &the_api.conns; *pp; pp = &(*pp)->next)
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	free(c->out);
	free(c);
}

static void cmd_show(struct api_conn *c)
{
	struct l2d *d = c->d;
	struct l2d_tunnel *t;
	struct l2d_session *s;
	char peer[64], local[64], host[L2D_QUOTED_SIZE(sizeof(t->peer_host))];
	char user[L2D_QUOTED_SIZE(sizeof(s->user))];
	char line[768];

	for (t = d->tunnels; t; t = t->next) {
		l2d_addr_str(&t->peer, peer, sizeof(peer), true);
		l2d_addr_str(&t->local, local, sizeof(local), true);
		conn_printf(c, "tunnel %u peer-tid %u peer %s local %s role %s state %s sessions %u "
			    "host %s retransmits %" PRIu64 " out-of-order %" PRIu64 " stashed %" PRIu64
			    " send-window %u",
			    t->tid, t->peer_tid, peer, local, t->initiator ? "lac" : "lns",
			    l2d_tstate_name(t->state), t->n_sessions,
			    l2d_quote_str(host, sizeof(host), t->peer_host), t->rel.stats.retransmits,
			    t->rel.stats.out_of_order, t->rel.stats.stashed, t->rel.cwnd);
		for (s = t->sessions; s; s = s->next) {
			conn_printf(c, "session %u tunnel %u peer-sid %u role %s state %s id %u user %s",
				    s->sid, t->tid, s->peer_sid, s->initiator ? "lac" : "lns",
				    l2d_sstate_name(s->state), s->api_id,
				    l2d_quote_str(user, sizeof(user), s->user));
			/* S-AL-1: the line, as the ICRQ (LAC: sent; LNS: received) and CSUNs say */
			if (s->al.present || s->al_sent || s->csu_enabled)
				conn_printf(c, "access-line session %u csu %s%s%s", s->sid,
					    s->al_sent || s->csu_enabled ? "yes" : "no",
					    s->al.present ? " " : "",
					    al_format(&s->al, line, sizeof(line)));
		}
	}
	conn_write(c, "end");
}


static void stats_logins(struct api_conn *c);
static void dest_write(void *ctx, const struct l2d_dest_info *di);
/*
 * drain [on | off] (S-OPS-1): the whole LAC takes no new login and sends no
 * PADO while drained; its sessions stay.  "drain yes" in the configuration
 * drains it too, whatever the API says.  The answer: "drain STATE sessions
 * N api on|off config yes|no", STATE "draining" while sessions remain,
 * "drained" when none, "off" when not drained.
 */
static void cmd_drain(struct api_conn *c, int argc, char **argv)
{
	struct l2d *d = c->d;

	/* kernel none: the selection's tunnels and destinations are ours (S-OPS-1) */
	if (argc >= 3 && (!strcmp(argv[1], "tunnel") || !strcmp(argv[1], "destination"))) {
		bool dest = argv[1][0] == 'd', on = true;
		char err[160], what[L2D_QUOTED_SIZE(L2D_NAME_MAX)];
		int n;

		if (argc > 4 || (argc == 4 && strcmp(argv[3], "on") && strcmp(argv[3], "off"))) {
			conn_write(c, "error usage: drain { tunnel NAME | destination ADDR } [ on | off ]");
			return;
		}
		if (d->conf->kernel != L2D_KERNEL_NONE) {
			conn_printf(c, "error the module selects: l2tpsel %s drain", argv[1]);
			return;
		}
		on = argc == 3 || !strcmp(argv[3], "on");
		n = l2d_kernel_none_drain(d, dest, argv[2], on, err, sizeof(err));
		if (n < 0) {
			conn_printf(c, "error %s", err);
			return;
		}
		l2d_log(d, L2D_LOG_INFO, "drain %s %-s %s over the API (%d matched)", argv[1],
			argv[2], on ? "on" : "off", n);
		conn_printf(c, "drain %s %s %s matched %d", on ? "on" : "off", argv[1],
			    l2d_quote_str(what, sizeof(what), argv[2]), n);
		conn_write(c, "end");
		return;
	}

	if (argc > 2 || (argc == 2 && strcmp(argv[1], "on") && strcmp(argv[1], "off"))) {
		conn_write(c, "error usage: drain [ on | off ]");
		return;
	}
	if (argc == 2 && d->drain_api != !strcmp(argv[1], "on")) {
		d->drain_api = !strcmp(argv[1], "on");
		l2d_log(d, L2D_LOG_INFO, "drain %s over the API (%u sessions)", argv[1],
			d->n_sessions);
	}
	conn_printf(c, "drain %s sessions %u api %s config %s",
		    !l2d_draining(d) ? "off" : d->n_sessions ? "draining" : "drained",
		    d->n_sessions, d->drain_api ? "on" : "off", d->conf->drain ? "yes" : "no");
	conn_write(c, "end");
}

/* stats: the control channel's counters, the closed tunnels' included */
static void stats_control(struct api_conn *c)
{
	struct l2tp_rel_stats rs = c->d->stats.rel_gone;
	struct l2d_tunnel *t;

	for (t = c->d->tunnels; t; t = t->next)
		l2tp_rel_stats_add(&rs, &t->rel.stats);
	/* the peer's retransmissions reach us as duplicates */
	conn_printf(c, "control sent %" PRIu64 " retransmits %" PRIu64 " duplicates %" PRIu64
		    " out-of-order %" PRIu64 " out-of-window %" PRIu64 " stashed %" PRIu64
		    " zlb-sent %" PRIu64 " zlb-received %" PRIu64 " queue-peak %u queue-full %" PRIu64,
		    rs.sent, rs.retransmits, rs.duplicates, rs.out_of_order, rs.out_of_window,
		    rs.stashed, rs.zlb_sent, rs.zlb_received, rs.queue_peak, rs.queue_full);
}

/* stats: one line per access interface */
static void stats_access_ifs(struct api_conn *c)
{
	unsigned int i;

	for (i = 0; ; i++) {
		struct l2d_access_if_stats a;
		char ifq[L2D_QUOTED_SIZE(IFNAMSIZ)];

		if (!l2d_access_if_stats(c->d, i, &a))
			break;
		conn_printf(c, "access-if %s subscribers %u padi %" PRIu64 " pado %" PRIu64
			    " padr %" PRIu64 " pads %" PRIu64 " pads-refused %" PRIu64
			    " padt-rx %" PRIu64 " padt-tx %" PRIu64 " bad %" PRIu64
			    " rate-dropped %" PRIu64 " no-service %" PRIu64 " logins %" PRIu64
			    " up %" PRIu64 " refused %" PRIu64, l2d_quote_str(ifq, sizeof(ifq), a.ifname),
			    a.subscribers, a.padi,
			    a.pado, a.padr, a.pads, a.pads_refused, a.padt_rx, a.padt_tx, a.bad,
			    a.rate_dropped, a.no_service, a.logins, a.up, a.refused);
	}
}

static void cmd_stats(struct api_conn *c)
{
	const struct l2d_stats *st = &c->d->stats;

	conn_printf(c, "stats tunnels %u sessions %u rx %" PRIu64 " rx-discard %" PRIu64
		    " rx-no-tunnel %" PRIu64 " tx %" PRIu64 " tx-err %" PRIu64 " tunnels-up %" PRIu64
		    " tunnels-failed %" PRIu64 " sessions-up %" PRIu64 " sessions-failed %" PRIu64
		    " sessions-refused %" PRIu64 " logins-ok %" PRIu64 " logins-failed %" PRIu64
		    " calls-refused %" PRIu64 " calls-wrong-role %" PRIu64
		    " calls-capped %" PRIu64 " sccrq-capped %" PRIu64
		    " setup-evicted %" PRIu64 " tunnels-idle %" PRIu64 " tunnels-capped %" PRIu64 " rl-rejected %" PRIu64
		    " rl-dropped %" PRIu64 " port-moved %" PRIu64 " port-separated %" PRIu64
		    " port-refused %" PRIu64 " proxy-lcp-taken %" PRIu64 " proxy-lcp-renegotiated %" PRIu64
		    " logins-drained %" PRIu64 " drain %s",
		    c->d->n_tunnels, c->d->n_sessions, st->rx, st->rx_discard, st->rx_no_tunnel,
		    st->tx, st->tx_err, st->tunnels_up, st->tunnels_failed, st->sessions_up,
		    st->sessions_failed, st->sessions_refused, st->logins_ok, st->logins_failed,
		    st->calls_refused, st->calls_wrong_role, st->calls_capped, st->sccrq_capped, st->setup_evicted,
		    st->tunnels_idle, st->tunnels_capped, st->rl_rejected, st->rl_dropped, st->port_moved,
		    st->port_separated, st->port_refused, st->proxy_lcp_taken, st->proxy_lcp_renegotiated,
		    st->logins_drained,
		    !l2d_draining(c->d) ? "off" : c->d->n_sessions ? "draining" : "drained");
	stats_control(c);
	{
		char line[1024];
		unsigned int i;

		if (l2d_access_stats(c->d, line, sizeof(line)) > 0)
			conn_write(c, line);
		if (l2d_access_lts_stats(c->d, line, sizeof(line)) > 0)
			conn_write(c, line);
		if (l2d_das_stats(c->d, line, sizeof(line)) > 0)
			conn_write(c, line);
		if (l2d_radius_stats(c->d, line, sizeof(line)) > 0)
			conn_write(c, line);
		stats_logins(c);
		for (i = 0; i < c->d->n_pstats; i++) {
			const struct l2d_pstat *p = &c->d->pstats[i];
			char name[L2D_QUOTED_SIZE(sizeof(p->name))];

			conn_printf(c, "profile %s logins-ok %" PRIu64 " logins-failed %" PRIu64 " sessions %u",
				    l2d_quote_str(name, sizeof(name), p->name), p->logins_ok,
				    p->logins_failed, p->sessions);
		}
		stats_access_ifs(c);
		for (i = 0; ; i++) {
			struct l2d_radius_srv_stats r;

			if (!l2d_radius_srv_stats(c->d, i, &r))
				break;
			conn_printf(c, "radius-server %u kind %s address %s requests %" PRIu64
				    " timeouts %" PRIu64 " bad %" PRIu64 " dead %u", r.index, r.kind,
				    r.address, r.requests, r.timeouts, r.bad, r.dead ? 1 : 0);
		}
		l2d_dests(c->d, dest_write, c);
	}
	conn_write(c, "end");
}

static void dest_write(void *ctx, const struct l2d_dest_info *di)
{
	char line[256];

	l2d_dest_line(di, line, sizeof(line));
	conn_write(ctx, line);
}

/* logins by how they ended, and the setup-time histogram of those that succeeded */
static void stats_logins(struct api_conn *c)
{
	const struct l2d_stats *st = &c->d->stats;
	char line[API_LINE_MAX];
	size_t n;
	unsigned int i;

	n = (size_t)snprintf(line, sizeof(line), "logins");
	for (i = 0; i < L2D_LR_N; i++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %s %" PRIu64,
				      l2d_login_result_name(i), st->logins_by[i]);
	conn_write(c, line);
	n = (size_t)snprintf(line, sizeof(line), "login-setup");
	for (i = 0; i < L2D_SETUP_BUCKETS; i++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, " le-%ums %" PRIu64,
				      l2d_setup_bounds_ms[i], st->setup_le[i]);
	snprintf(line + n, sizeof(line) - n, " count %" PRIu64 " sum-us %" PRIu64,
		 st->setup_le[L2D_SETUP_BUCKETS], st->setup_sum_us);
	conn_write(c, line);
}

static void cmd_login(struct api_conn *c, int argc, char **argv)
{
	const char *user = NULL, *profile = NULL, *key = NULL;
	struct l2d_login_req req = { 0 };
	bool brief = false;
	char err[256];
	uint32_t id;
	int i;

	if (c->login_id)
		return conn_write(c, "error a login is in progress on this connection");
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "brief")) {
			brief = true;
		} else if (!strcmp(argv[i], "profile") || !strcmp(argv[i], "key")) {
			if (i + 1 >= argc)
				return conn_printf(c, "error \"%s\" needs a value", argv[i]);
			if (argv[i][0] == 'p')
				profile = argv[++i];
			else
				key = argv[++i];
		} else if (!user) {
			user = argv[i];
		} else {
			return conn_printf(c, "error unexpected argument \"%s\"", argv[i]);
		}
	}
	/* the id is set before the first line so that a client gone finds it */
	c->login_id = c->d->next_login_id + 1;
	c->brief = brief;
	req.client = c;
	req.brief = brief;
	req.user = user;
	req.profile = profile;
	req.key = key;
	id = l2d_login_start(c->d, &req, err, sizeof(err));
	if (!id) {
		c->login_id = 0;
		conn_printf(c, "error %s", err);
	} else if (!l2d_login_find(c->d, id)) {
		c->login_id = 0;
	}
}

static void conn_line(struct api_conn *c, char *line)
{
	char *argv[16], *save = NULL, *p;
	int argc = 0;

	for (p = strtok_r(line, " \t\r", &save); p && argc < 16; p = strtok_r(NULL, " \t\r", &save))
		argv[argc++] = p;
	if (!argc)
		return;
	if (!strcmp(argv[0], "login")) {
		cmd_login(c, argc, argv);
	} else if (!strcmp(argv[0], "logout")) {
		char *end;
		unsigned long id;

		if (argc != 2)
			return conn_write(c, "error usage: logout ID");
		id = strtoul(argv[1], &end, 10);
		if (*end || !id || id > UINT32_MAX)
			return conn_printf(c, "error \"%s\" is not a session id", argv[1]);
		if (l2d_logout(c->d, (uint32_t)id))
			return conn_printf(c, "error no established session %lu", id);
		conn_write(c, "ok");
	} else if (!strcmp(argv[0], "show")) {
		cmd_show(c);
	} else if (!strcmp(argv[0], "stats")) {
		cmd_stats(c);
	} else if (!strcmp(argv[0], "drain")) {
		cmd_drain(c, argc, argv);
	} else if (!strcmp(argv[0], "upgrade")) {
		/* S-OPS-2: main.c re-executes the binary at the end of this turn */
		if (argc != 1)
			return conn_write(c, "error usage: upgrade");
		c->d->upgrade_asked = true;
		l2d_log(c->d, L2D_LOG_INFO, "upgrade asked over the API");
		conn_write(c, "upgrading");
	} else if (!strcmp(argv[0], "watch")) {
		if (argc != 1)
			return conn_write(c, "error usage: watch");
		if (!c->watch) {
			c->watch = true;
			c->d->login_watchers++;
		}
		conn_write(c, "watching");
	} else {
		conn_printf(c, "error unknown command \"%s\" (login, logout, show, stats, watch, drain, upgrade)", argv[0]);
	}
}

static void conn_readable(struct api_conn *c)
{
	struct l2d_fd *f = &c->fdw;
	ssize_t n;
	char *nl;

	n = recv(f->fd, c->in + c->inlen, sizeof(c->in) - c->inlen, MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		conn_close(c);
		return;
	}
	c->inlen += (size_t)n;
	while ((nl = memchr(c->in, '\n', c->inlen))) {
		size_t len = (size_t)(nl - c->in) + 1;

		*nl = '\0';
		conn_line(c, c->in);
		memmove(c->in, c->in + len, c->inlen - len);
		c->inlen -= len;
	}
	if (c->inlen == sizeof(c->in)) {
		conn_write(c, "error line too long");
		conn_close(c);
	}
}

/* The client can take more of its output (EPOLLOUT), or has sent lines. */
static void conn_event(struct l2d_fd *f, uint32_t events)
{
	struct api_conn *c = f->arg;

	if ((events & EPOLLOUT) && conn_flush(c)) {
		conn_close(c);
		return;
	}
	if (events & (EPOLLIN | EPOLLHUP | EPOLLERR))
		conn_readable(c);
}

/* root, our own user, or a member of api-group (primary or supplementary) */
static bool peer_allowed(int fd, struct ucred *cr)
{
	socklen_t len = sizeof(*cr);
	gid_t groups[256];
	unsigned int i;

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, cr, &len) < 0 || len != sizeof(*cr))
		return false;
	if (cr->uid == 0 || cr->uid == geteuid())
		return true;
	if (!the_api.has_group)
		return false;
	if (cr->gid == the_api.group)
		return true;
	len = sizeof(groups);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len) < 0)
		return false;
	for (i = 0; i < len / sizeof(groups[0]); i++)
		if (groups[i] == the_api.group)
			return true;
	return false;
}

static void api_accept(struct l2d_fd *f, uint32_t events)
{
	struct api_conn *c;
	struct ucred cr = { .pid = 0, .uid = (uid_t)-1, .gid = (gid_t)-1 };
	int fd = accept4(f->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

	if (fd < 0)
		return;
	if (!peer_allowed(fd, &cr)) {
		static const char no[] = "error permission denied\n";

		l2d_log(the_api.d, L2D_LOG_ERR, "api: connection from pid %d uid %d gid %d refused: "
			"not root, the agent's user or api-group", (int)cr.pid, (int)cr.uid, (int)cr.gid);
		send(fd, no, sizeof(no) - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
		close(fd);
		return;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		close(fd);
		return;
	}
	c->d = the_api.d;
	c->fdw.fd = fd;
	c->fdw.fn = conn_event;
	c->fdw.arg = c;
	if (l2d_fd_add(c->d->loop, &c->fdw, EPOLLIN)) {
		close(fd);
		free(c);
		return;
	}
	c->next = the_api.conns;
	the_api.conns = c;
}

/* api-group NAME|GID -> the_api.group */
static int api_group(const char *name, char *err, size_t errlen)
{
	struct group *g = getgrnam(name);
	char *end;
	unsigned long v;

	if (g) {
		the_api.group = g->gr_gid;
	} else {
		v = strtoul(name, &end, 10);
		if (*end || end == name || v >= (gid_t)-1) {
			snprintf(err, errlen, "api-group: no group \"%s\"", name);
			return -ENOENT;
		}
		the_api.group = (gid_t)v;
	}
	the_api.has_group = true;
	return 0;
}

int l2d_api_open(struct l2d *d, const char *path, char *err, size_t errlen)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	mode_t old;
	int fd, e, rc;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		snprintf(err, errlen, "socket %s: path too long", path);
		return -ENAMETOOLONG;
	}
	if (d->conf->api_group[0] && (e = api_group(d->conf->api_group, err, errlen)))
		return e;
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		goto err;
	unlink(path);
	/* the file is born 0660: no moment in which others could connect */
	old = umask(0117);
	rc = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	e = errno;
	umask(old);
	errno = e;
	if (rc < 0 || (the_api.has_group && chown(path, (uid_t)-1, the_api.group) < 0) ||
	    listen(fd, 64) < 0)
		goto err;
	the_api.d = d;
	l2d_strcpy(the_api.path, sizeof(the_api.path), path);
	the_api.fdw.fd = fd;
	the_api.fdw.fn = api_accept;
	if (l2d_fd_add(d->loop, &the_api.fdw, EPOLLIN))
		goto err;
	return 0;
err:
	e = errno;
	snprintf(err, errlen, "socket %s: %s", path, strerror(e));
	if (fd >= 0)
		close(fd);
	return -e;
}

void l2d_api_close(void)
{
	while (the_api.conns)
		conn_close(the_api.conns);
	if (the_api.fdw.fd > 0) {
		close(the_api.fdw.fd);
		unlink(the_api.path);
	}
	the_api.fdw.fd = 0;
}
