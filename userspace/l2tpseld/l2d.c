// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld's core (l2d.h): the agent's state set up and torn down, input
 * dispatched to its tunnel by Tunnel ID (a new peer's SCCRQ to tunnel.c),
 * the end-of-turn reaping of dead tunnels and sessions, the rate-limiter
 * call and the state names of the log lines.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/l2tpsel.h>

#include "kernel.h"
#include "l2d.h"
#include "session.h"
#include "tunnel.h"

static const char *const end_names[] = {
	[L2D_END_NONE] = "ok", [L2D_END_NO_REPLY] = "no-reply", [L2D_END_CDN] = "cdn",
	[L2D_END_STOPCCN] = "stopccn", [L2D_END_CLIENT_GONE] = "client-gone",
	[L2D_END_LOCAL] = "local", [L2D_END_ERROR] = "error",
};

const char *l2d_end_name(enum l2d_end e)
{
	return (unsigned int)e < sizeof(end_names) / sizeof(*end_names) ? end_names[e] : "?";
}

bool l2d_addr_set(struct l2d_addr *out, const void *bytes, unsigned int len, uint16_t port)
{
	memset(out, 0, sizeof(*out));
	if (len == 4) {
		struct sockaddr_in *s = (struct sockaddr_in *)&out->ss;

		s->sin_family = AF_INET;
		s->sin_port = htons(port);
		memcpy(&s->sin_addr, bytes, 4);
		out->len = sizeof(*s);
	} else if (len == 16) {
		struct sockaddr_in6 *s = (struct sockaddr_in6 *)&out->ss;

		s->sin6_family = AF_INET6;
		s->sin6_port = htons(port);
		memcpy(&s->sin6_addr, bytes, 16);
		out->len = sizeof(*s);
	}
	return out->len != 0;
}

void l2d_addr_str(const struct l2d_addr *a, char *buf, size_t len, bool port)
{
	char ip[INET6_ADDRSTRLEN] = "?";
	unsigned int p = 0;

	if (a->ss.ss_family == AF_INET) {
		const struct sockaddr_in *s = (const struct sockaddr_in *)&a->ss;

		inet_ntop(AF_INET, &s->sin_addr, ip, sizeof(ip));
		p = ntohs(s->sin_port);
	} else if (a->ss.ss_family == AF_INET6) {
		const struct sockaddr_in6 *s = (const struct sockaddr_in6 *)&a->ss;

		inet_ntop(AF_INET6, &s->sin6_addr, ip, sizeof(ip));
		p = ntohs(s->sin6_port);
	} else if (!a->ss.ss_family) {
		strcpy(ip, "any");
	}
	if (port)
		snprintf(buf, len, "%s:%u", ip, p);
	else
		snprintf(buf, len, "%s", ip);
}

uint16_t l2d_port(const struct l2d_addr *a)
{
	if (a->ss.ss_family == AF_INET)
		return ntohs(((const struct sockaddr_in *)&a->ss)->sin_port);
	if (a->ss.ss_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)&a->ss)->sin6_port);
	return 0;
}

/* Same host (and port when @port); an unset address matches nothing. */
bool l2d_addr_eq(const struct l2d_addr *a, const struct l2d_addr *b, bool port)
{
	if (a->ss.ss_family != b->ss.ss_family)
		return false;
	if (a->ss.ss_family == AF_INET) {
		const struct sockaddr_in *x = (const void *)&a->ss, *y = (const void *)&b->ss;

		return x->sin_addr.s_addr == y->sin_addr.s_addr && (!port || x->sin_port == y->sin_port);
	}
	if (a->ss.ss_family == AF_INET6) {
		const struct sockaddr_in6 *x = (const void *)&a->ss, *y = (const void *)&b->ss;

		return !memcmp(&x->sin6_addr, &y->sin6_addr, 16) &&
		       (!port || x->sin6_port == y->sin6_port);
	}
	return false;
}

static void reap_fn(struct l2d_timer *tm)
{
	struct l2d *d = tm->arg;
	struct l2d_tunnel **pp = &d->tunnels, *t;

	d->reap_armed = false;
	while (d->dead_sessions) {
		struct l2d_session *s = d->dead_sessions;

		d->dead_sessions = s->dead_next;
		d->sops->free(s);
	}
	while ((t = *pp)) {
		if (t->state == L2D_T_DEAD) {
			*pp = t->next;
			d->tops->free(t);
		} else {
			pp = &t->next;
		}
	}
}

void l2d_reap_later(struct l2d *d)
{
	if (d->reap_armed)
		return;
	d->reap_armed = true;
	l2d_timer_arm(d->loop, &d->reap_timer, 0);
}

int l2d_init(struct l2d *d, struct l2d_conf *conf, struct l2d_loop *loop,
	     const struct l2d_env *env, const struct l2d_kops *kops)
{
	d->conf = conf;
	d->loop = loop;
	d->env = env;
	d->kops = kops;
	d->log_level = conf->log_level;
	d->knl_fd = -1;
	l2d_idmap_init(&d->logins_by_id);
	l2d_idmap_init(&d->sessions_by_api_id);
	l2d_timer_init(&d->reap_timer, reap_fn, d);
	l2d_offload_init(&d->off, loop);
	return 0;
}

void l2d_fini(struct l2d *d)
{
	struct l2d_tunnel *t;

	while (d->logins)
		d->lops->free(d->logins);
	for (t = d->tunnels; t; t = t->next)
		d->tops->end(t);
	reap_fn(&d->reap_timer);
	l2d_timer_cancel(d->loop, &d->reap_timer);
	/* the closes of the calls just ended are made before the agent goes */
	l2d_offload_fini(&d->off);
	if (d->kops && d->kops->fini)
		d->kops->fini(d);
	l2d_idmap_fini(&d->logins_by_id);
	l2d_idmap_fini(&d->sessions_by_api_id);
	free(d->pstats);
	d->pstats = NULL;
	d->n_pstats = 0;
}

/* Count and log a verdict for a request of kind @msg (enum l2tpsel_rl_msg); returns it. */
unsigned int l2d_rl_count(struct l2d *d, unsigned int msg, const struct l2d_rlans *a)
{
	static const char *const msgs[L2D_RL_MSGS] = { "message", "SCCRQ", "ICRQ", "login",
						       "attempt", "PPPoE discovery" };

	if (a->verdict == L2TPSEL_RL_REJECTED)
		d->stats.rl_rejected++;
	else if (a->verdict == L2TPSEL_RL_DROPPED)
		d->stats.rl_dropped++;
	if (a->verdict != L2TPSEL_RL_PASS)
		l2d_log(d, L2D_LOG_INFO, "rate limit %s: %s %s", a->name[0] ? a->name : "?",
			a->verdict == L2TPSEL_RL_DROPPED ? "drop" : "reject",
			msg < L2D_RL_MSGS ? msgs[msg] : "?");
	return a->verdict;
}

unsigned int l2d_rl_check(struct l2d *d, const struct l2d_rlreq *q, struct l2d_rlans *a)
{
	int err;

	memset(a, 0, sizeof(*a));
	if (!d->conf->ratelimit || !d->kops->rl_check)
		return L2TPSEL_RL_PASS;
	err = d->kops->rl_check(d, q, a);
	if (err) {
		/* a module without RL_CHECK, or a failure: never refuse for it */
		if (!d->rl_warned)
			l2d_log(d, L2D_LOG_ERR, "RL_CHECK failed (%d): rate limits not applied", err);
		d->rl_warned = true;
		a->verdict = L2TPSEL_RL_PASS;
	}
	return l2d_rl_count(d, q->msg, a);
}

void l2d_input(struct l2d *d, const struct l2d_addr *local, const struct l2d_addr *peer,
	       uint8_t *buf, size_t len)
{
	struct l2d_tunnel *t;
	struct l2tp_hdr h;

	d->stats.rx++;
	if (l2tp_hdr_parse(&h, buf, len) != L2TP_PERR_NONE) {
		d->stats.rx_discard++;
		return;
	}
	if (!h.tunnel_id) {
		d->tops->input_new(d, local, peer, buf, len);
		return;
	}
	t = d->tun_by_id[h.tunnel_id];
	if (!t || t->state == L2D_T_DEAD || !l2d_addr_eq(&t->peer, peer, false)) {
		d->stats.rx_no_tunnel++;
		return;
	}
	t->rx_from = *peer;
	t->rx_local = *local;
	d->tops->input(t, buf, len);
}

void l2d_shutdown(struct l2d *d)
{
	struct l2d_tunnel *t;

	d->shutting_down = true;
	while (d->logins)
		d->lops->client_gone(d->logins);
	for (t = d->tunnels; t; t = t->next)
		d->tops->stop(t, L2TP_STOPCCN_SHUTTING_DOWN, 0, NULL);
}

int l2d_dests(struct l2d *d, l2d_dest_fn fn, void *ctx)
{
	return d->kops && d->kops->dests ? d->kops->dests(d, fn, ctx) : 0;
}

int l2d_dest_line(const struct l2d_dest_info *di, char *buf, size_t len)
{
	return snprintf(buf, len, "destination %s port %u local %s lockout-ms %u sessions %u "
			"in-flight %u tunnels %u attempts %u failures %u", di->remote, di->port,
			di->local[0] ? di->local : "any", di->lockout_ms, di->sessions, di->in_flight,
			di->tunnels, di->attempts, di->failures);
}

uint64_t l2d_mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

uint16_t l2d_alloc_id(struct l2d *d, bool (*taken)(const struct l2d *d, uint16_t id))
{
	unsigned int i;
	uint16_t id;

	for (i = 0; i < 64; i++) {
		d->env->random(d, &id, sizeof(id));
		if (id && !taken(d, id))
			return id;
	}
	for (id = 1; id; id++)
		if (!taken(d, id))
			return id;
	return 0;
}
