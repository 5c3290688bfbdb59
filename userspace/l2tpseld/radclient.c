// SPDX-License-Identifier: GPL-2.0
/*
 * The RADIUS client of the access role (Documentation/radius.md), on the
 * agent's loop: nothing here blocks.  One connected UDP socket per
 * "radius-server" line, tried in their order.  A request is sent to the
 * first server not marked dead and retransmitted unchanged (RFC 2865
 * section 2.5: same Identifier and Request Authenticator) every
 * radius-timeout, radius-tries times; a server that never answered is dead
 * for radius-dead-time and the request starts again, with a new Identifier
 * and Authenticator, at the next one.  When no server is left it ends
 * RAD_RES_DOWN and the caller applies radius-fallback.  At most 256 requests
 * are in flight per server (the Identifier is one byte); the rest wait in
 * order, bounded only by the subscribers there are.
 *
 * A reply that fails rad_reply_parse() (a wrong authenticator, no
 * Message-Authenticator in an Access-Accept, -Reject or -Challenge, a bad
 * length, a duplicate) or names no request in flight is counted (bad, stray),
 * logged with the reason and dropped: the request waits on, is retransmitted
 * and goes to the next server as if nothing had come, so a forged reply can
 * neither accept nor reject it (S-SEC-8).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include "l2d.h"
#include "radius.h"

enum rad_kind { RAD_AUTH, RAD_ACCT, RAD_KINDS };

struct rad_srv {
	struct l2d_rad *rc;
	enum rad_kind kind;
	struct l2d_fd fdw;
	uint64_t dead_until;		/* loop ms; 0: alive */
	struct rad_call *slot[256];	/* in flight, by Identifier */
	unsigned int in_flight;
	uint8_t next_id;
	struct rad_call *wait_head, *wait_tail;	/* for a free Identifier */
	uint64_t requests, timeouts, bad;	/* l2d_radius_srv_stats() */
};

struct rad_call {
	struct l2d_rad *rc;
	enum rad_kind kind;
	bool parked;			/* accounting: every server dead, waiting to try again */
	bool all_dead;			/* access: every server dead, DOWN from the loop */
	rad_done_fn fn;
	void *arg;
	unsigned int srv;		/* the server being tried */
	unsigned int tries;		/* sent to it so far */
	int id;				/* -1: none held */
	bool waiting;
	struct rad_call *wait_next;
	struct l2d_timer timer;
	uint8_t auth[RAD_AUTH_LEN];
	uint8_t *pkt;
	size_t pkt_len;
	/* what the request carries: a copy, a server change rebuilds the packet */
	char user[256], calling[64], port_id[16], called[64];
	uint32_t port_type;
	uint8_t secret[254], challenge[16];
	size_t secret_len, challenge_len;
	uint8_t chap_id;
	bool chap;
	uint8_t *attrs;			/* accounting: the record's attributes */
	size_t attrs_len;
};

struct l2d_rad {
	struct l2d *d;
	struct rad_srv srv[RAD_KINDS][L2D_MAX_RADIUS];
	unsigned int n;
	uint64_t requests, accepts, rejects, down, timeouts, retransmits, bad, stray;
	unsigned int acct_queued;	/* records not yet answered */
	struct rad_call *parked;	/* records waiting out the dead time, by wait_next */
	uint64_t acct_sent, acct_dropped;
};

#define RAD_ACCT_MAX	4096	/* records held while no server answers */

static struct l2d_rad *rad_of(const struct l2d *d)
{
	return d->rctx;
}

bool l2d_radius_on(const struct l2d *d)
{
	return d->rctx != NULL;
}

static const struct l2d_radius_conf *srv_conf(const struct l2d_rad *rc, unsigned int i)
{
	return &rc->d->conf->radius[i];
}

static struct rad_srv *srv_of(const struct rad_call *c)
{
	return &c->rc->srv[c->kind][c->srv];
}

static void call_free(struct rad_call *c)
{
	l2d_timer_cancel(c->rc->d->loop, &c->timer);
	if (c->kind == RAD_ACCT)
		c->rc->acct_queued--;
	free(c->pkt);
	free(c->attrs);
	explicit_bzero(c, sizeof(*c));
	free(c);
}

static int start_on(struct rad_call *c, unsigned int srv);
static void finish(struct rad_call *c, enum rad_result res, const struct rad_reply *r);

/* Give up Identifier and waiting place; the next waiting request may go. */
static void release(struct rad_call *c)
{
	struct rad_srv *s = srv_of(c);
	struct rad_call **pp;

	if (c->id >= 0) {
		s->slot[c->id] = NULL;
		s->in_flight--;
		c->id = -1;
		if (s->wait_head) {
			struct rad_call *w = s->wait_head;

			s->wait_head = w->wait_next;
			if (!s->wait_head)
				s->wait_tail = NULL;
			w->waiting = false;
			if (start_on(w, c->srv))
				finish(w, RAD_RES_DOWN, NULL);
		}
	} else if (c->waiting) {
		for (pp = &s->wait_head; *pp != c; pp = &(*pp)->wait_next)
			;
		*pp = c->wait_next;
		if (s->wait_tail == c) {
			struct rad_call *t = s->wait_head;

			while (t && t->wait_next)
				t = t->wait_next;
			s->wait_tail = t;
		}
		c->waiting = false;
	}
	l2d_timer_cancel(c->rc->d->loop, &c->timer);
}

static void finish(struct rad_call *c, enum rad_result res, const struct rad_reply *r)
{
	struct l2d_rad *rc = c->rc;

	if (c->kind == RAD_ACCT) {
		if (res == RAD_RES_ACCEPT)
			rc->acct_sent++;
		release(c);
		call_free(c);
		return;
	}
	if (res == RAD_RES_ACCEPT)
		rc->accepts++;
	else if (res == RAD_RES_REJECT)
		rc->rejects++;
	else
		rc->down++;
	release(c);
	c->fn(c->arg, res, r);
	call_free(c);
}

/* The Access-Request for server @srv (RFC 2865 section 4.1, RFC 2869, RFC 4603). */
static int build(struct rad_call *c, unsigned int srv)
{
	const struct l2d_radius_conf *sc = srv_conf(c->rc, srv);
	const struct l2d_conf *conf = c->rc->d->conf;
	const uint8_t *key = (const uint8_t *)sc->secret;
	size_t klen = strlen(sc->secret);
	struct rad_pkt *p = malloc(sizeof(*p));

	if (!p)
		return -ENOMEM;
	if (c->kind == RAD_ACCT) {
		/* RFC 2866 section 3: the Request Authenticator is a hash, after Length */
		memset(c->auth, 0, sizeof(c->auth));
		rad_pkt_init(p, RAD_ACCOUNTING_REQUEST, (uint8_t)c->id, c->auth);
		if (c->attrs_len > RAD_MAX_LEN - RAD_HDR_LEN) {
			free(p);
			return -EMSGSIZE;
		}
		memcpy(p->buf + RAD_HDR_LEN, c->attrs, c->attrs_len);
		p->len += c->attrs_len;
		rad_finish_acct(p, key, klen);
		memcpy(c->auth, p->buf + 4, sizeof(c->auth));
		goto keep;
	}
	c->rc->d->env->random(c->rc->d, c->auth, sizeof(c->auth));
	rad_pkt_init(p, RAD_ACCESS_REQUEST, (uint8_t)c->id, c->auth);
	rad_put_str(p, RAD_USER_NAME, c->user);
	if (c->chap) {
		uint8_t cp[1 + RAD_CHAP_RESPONSE_LEN];

		cp[0] = c->chap_id;	/* section 5.3: CHAP Ident, then the 16-byte response */
		memcpy(cp + 1, c->secret, c->secret_len);
		rad_put(p, RAD_CHAP_PASSWORD, cp, 1 + c->secret_len);
		rad_put(p, RAD_CHAP_CHALLENGE, c->challenge, c->challenge_len);
	} else {
		rad_put_password(p, c->secret, c->secret_len, key, klen);
	}
	rad_put_str(p, RAD_NAS_IDENTIFIER, conf->nas_identifier[0] ? conf->nas_identifier :
		    conf->hostname);
	rad_put_u32(p, RAD_SERVICE_TYPE, RAD_SERVICE_FRAMED);
	rad_put_u32(p, RAD_FRAMED_PROTOCOL, RAD_FRAMED_PPP);
	rad_put_u32(p, RAD_NAS_PORT_TYPE, c->port_type ? c->port_type : RAD_PORT_TYPE_PPPOE);
	rad_put_str(p, RAD_NAS_PORT_ID, c->port_id);
	rad_put_str(p, RAD_CALLING_STATION_ID, c->calling);
	rad_put_str(p, RAD_CALLED_STATION_ID, c->called);
	if (rad_finish(p, key, klen)) {
		free(p);
		return -EMSGSIZE;
	}
keep:
	free(c->pkt);
	c->pkt = malloc(p->len);
	if (!c->pkt) {
		free(p);
		return -ENOMEM;
	}
	memcpy(c->pkt, p->buf, p->len);
	c->pkt_len = p->len;
	explicit_bzero(p, sizeof(*p));
	free(p);
	return 0;
}

static void transmit(struct rad_call *c)
{
	struct l2d *d = c->rc->d;

	if (c->tries++)
		c->rc->retransmits++;
	if (send(srv_of(c)->fdw.fd, c->pkt, c->pkt_len, 0) < 0)
		l2d_log(d, L2D_LOG_DEBUG, "radius: server %u: send: %s", c->srv + 1, strerror(errno));
	l2d_timer_arm(d->loop, &c->timer, l2d_now(d->loop) + d->conf->radius_timeout_ms);
}

/* The next server of @kind to try from @from on, skipping the dead; -1: none. */
static int next_server(struct l2d_rad *rc, enum rad_kind kind, unsigned int from)
{
	uint64_t now = l2d_now(rc->d->loop);
	unsigned int i;

	for (i = from; i < rc->n; i++)
		if (rc->srv[kind][i].dead_until <= now)
			return (int)i;
	return -1;
}

/* Send @c to server @srv, or queue it there. Return: 0, or -errno (nothing sent). */
static int start_on(struct rad_call *c, unsigned int srv)
{
	struct rad_srv *s = &c->rc->srv[c->kind][srv];
	unsigned int k;
	int err;

	c->srv = srv;
	c->tries = 0;
	if (s->in_flight == 256) {
		c->waiting = true;
		c->wait_next = NULL;
		if (s->wait_tail)
			s->wait_tail->wait_next = c;
		else
			s->wait_head = c;
		s->wait_tail = c;
		return 0;
	}
	for (k = 0; s->slot[(uint8_t)(s->next_id + k)]; k++)
		;
	c->id = (uint8_t)(s->next_id + k);
	s->next_id = (uint8_t)(c->id + 1);
	s->slot[c->id] = c;
	s->in_flight++;
	err = build(c, srv);
	if (err) {
		l2d_log(c->rc->d, L2D_LOG_ERR, "radius: Access-Request for %-s: %s", c->user,
			strerror(-err));
		s->slot[c->id] = NULL;
		s->in_flight--;
		c->id = -1;
		return err;
	}
	s->requests++;
	transmit(c);
	return 0;
}

static void call_timeout(struct l2d_timer *t)
{
	struct rad_call *c = t->arg;
	struct l2d_rad *rc = c->rc;
	struct l2d *d = rc->d;
	int next;

	if (c->all_dead)
		return finish(c, RAD_RES_DOWN, NULL);
	if (c->parked) {
		struct rad_call **pp;

		/* accounting waited for a server: the first not dead, else all again */
		for (pp = &rc->parked; *pp != c; pp = &(*pp)->wait_next)
			;
		*pp = c->wait_next;
		c->parked = false;
		next = next_server(rc, c->kind, 0);
		if (start_on(c, next < 0 ? 0 : (unsigned int)next))
			finish(c, RAD_RES_DOWN, NULL);
		return;
	}
	rc->timeouts++;
	srv_of(c)->timeouts++;
	if (c->tries < d->conf->radius_tries)
		return transmit(c);
	l2d_log(d, L2D_LOG_INFO, "radius: %s server %u did not answer %u tries: dead for %u ms",
		c->kind == RAD_ACCT ? "accounting" : "authentication", c->srv + 1, c->tries,
		d->conf->radius_dead_ms);
	srv_of(c)->dead_until = l2d_now(d->loop) + d->conf->radius_dead_ms;
	next = next_server(rc, c->kind, c->srv + 1);
	release(c);
	if (next < 0 && c->kind == RAD_ACCT) {
		/* a record is kept until a server takes it (RFC 2866 section 2) */
		c->parked = true;
		c->wait_next = rc->parked;
		rc->parked = c;
		l2d_timer_arm(d->loop, &c->timer, l2d_now(d->loop) + d->conf->radius_dead_ms);
		return;
	}
	if (next < 0 || start_on(c, (unsigned int)next))
		finish(c, RAD_RES_DOWN, NULL);
}

static void srv_readable(struct l2d_fd *f, uint32_t events)
{
	struct rad_srv *s = f->arg;
	struct l2d_rad *rc = s->rc;
	uint8_t buf[RAD_MAX_LEN];
	int i;

	(void)events;
	for (i = 0; i < 64; i++) {
		unsigned int si = (unsigned int)(s - rc->srv[s->kind]);
		const struct l2d_radius_conf *sc = srv_conf(rc, si);
		ssize_t n = recv(f->fd, buf, sizeof(buf), MSG_DONTWAIT);
		struct rad_reply r;
		struct rad_call *c;
		const char *why = "";
		struct rad_attr_ref prof = { rc->d->conf->radius_profile_vendor,
					     rc->d->conf->radius_profile_type };

		if (n < 0)
			return;
		c = n >= 2 ? s->slot[buf[1]] : NULL;
		if (!c) {
			rc->stray++;
			continue;
		}
		if (rad_reply_parse(buf, (size_t)n, c->auth, (const uint8_t *)sc->secret,
				    strlen(sc->secret), &prof, &r, &why)) {
			rc->bad++;
			s->bad++;
			l2d_log(rc->d, L2D_LOG_INFO, "radius: server %u: reply for %-s dropped: %s",
				si + 1, c->user, why);
			continue;
		}
		if ((r.code == RAD_ACCOUNTING_RESPONSE) != (c->kind == RAD_ACCT)) {
			rc->bad++;
			s->bad++;
			continue;
		}
		s->dead_until = 0;
		if (c->kind == RAD_ACCT) {
			finish(c, RAD_RES_ACCEPT, &r);
			continue;
		}
		if (r.code == RAD_ACCESS_CHALLENGE) {
			/* a PPP subscriber has no way to answer one (section 4.4) */
			snprintf(r.message, sizeof(r.message), "RADIUS Access-Challenge not supported");
			r.code = RAD_ACCESS_REJECT;
		}
		finish(c, r.code == RAD_ACCESS_ACCEPT ? RAD_RES_ACCEPT : RAD_RES_REJECT, &r);
	}
}

struct rad_call *l2d_radius_auth(struct l2d *d, const struct rad_auth *q, rad_done_fn fn,
				 void *arg)
{
	struct l2d_rad *rc = rad_of(d);
	struct rad_call *c;
	int srv;

	if (!rc || strlen(q->user) >= sizeof(c->user) || q->secret_len > sizeof(c->secret) ||
	    q->challenge_len > sizeof(c->challenge) || (!q->chap && q->secret_len > 128) ||
	    (q->chap && q->secret_len != RAD_CHAP_RESPONSE_LEN))
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->rc = rc;
	c->fn = fn;
	c->arg = arg;
	c->id = -1;
	l2d_timer_init(&c->timer, call_timeout, c);
	l2d_strcpy(c->user, sizeof(c->user), q->user);
	l2d_strcpy(c->calling, sizeof(c->calling), q->calling ? q->calling : "");
	l2d_strcpy(c->port_id, sizeof(c->port_id), q->port_id ? q->port_id : "");
	c->port_type = q->port_type;
	l2d_strcpy(c->called, sizeof(c->called), q->called ? q->called : "");
	memcpy(c->secret, q->secret, q->secret_len);
	c->secret_len = q->secret_len;
	if (q->challenge_len)
		memcpy(c->challenge, q->challenge, q->challenge_len);
	c->challenge_len = q->challenge_len;
	c->chap_id = q->chap_id;
	c->chap = q->chap;
	rc->requests++;		/* each ends as an accept, a reject or down */
	srv = next_server(rc, RAD_AUTH, 0);
	if (srv < 0) {
		/*
		 * Every server is dead (radius-dead-time): none is asked and
		 * radius-fallback decides at once, as a carrier's AAA goes to
		 * its next method; the first request after the dead time
		 * asks again.  The answer still comes from the loop.
		 */
		c->all_dead = true;
		l2d_timer_arm(rc->d->loop, &c->timer, l2d_now(rc->d->loop));
		return c;
	}
	/* the answer always comes from the loop, never from inside this call */
	if (start_on(c, (unsigned int)srv)) {
		rc->requests--;
		call_free(c);
		return NULL;
	}
	return c;
}

void l2d_radius_cancel(struct l2d *d, struct rad_call *c)
{
	(void)d;
	if (!c)
		return;
	release(c);
	call_free(c);
}

int l2d_radius_acct(struct l2d *d, const uint8_t *attrs, size_t len)
{
	struct l2d_rad *rc = rad_of(d);
	struct rad_call *c;
	int srv;

	if (!rc || !d->conf->radius_accounting)
		return 0;
	if (rc->acct_queued >= RAD_ACCT_MAX || len > RAD_MAX_LEN - RAD_HDR_LEN) {
		rc->acct_dropped++;
		return -ENOSPC;
	}
	c = calloc(1, sizeof(*c));
	if (!c || !(c->attrs = malloc(len ? len : 1))) {
		free(c);
		rc->acct_dropped++;
		return -ENOMEM;
	}
	memcpy(c->attrs, attrs, len);
	c->attrs_len = len;
	c->rc = rc;
	c->kind = RAD_ACCT;
	c->id = -1;
	snprintf(c->user, sizeof(c->user), "accounting");
	l2d_timer_init(&c->timer, call_timeout, c);
	rc->acct_queued++;
	srv = next_server(rc, RAD_ACCT, 0);
	if (start_on(c, srv < 0 ? 0 : (unsigned int)srv)) {
		rc->acct_dropped++;
		call_free(c);
		return -ENOMEM;
	}
	return 0;
}

unsigned int l2d_radius_pending(const struct l2d *d)
{
	const struct l2d_rad *rc = rad_of(d);

	return rc ? rc->acct_queued : 0;
}

int l2d_radius_open(struct l2d *d, char *err, size_t errlen)
{
	const struct l2d_conf *conf = d->conf;
	struct l2d_rad *rc;
	unsigned int i;

	if (!conf->n_radius)
		return 0;
	rc = calloc(1, sizeof(*rc));
	if (!rc) {
		snprintf(err, errlen, "radius: out of memory");
		return -ENOMEM;
	}
	rc->d = d;
	for (i = 0; i < conf->n_radius; i++) {
		const struct l2d_radius_conf *sc = &conf->radius[i];
		unsigned int k;

		rc->n = i + 1;
		for (k = 0; k < RAD_KINDS; k++) {
			struct rad_srv *s = &rc->srv[k][i];
			struct sockaddr_storage to = sc->addr;
			int fd = socket(sc->addr.ss_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

			/* the accounting port: the same address */
			if (k == RAD_ACCT)
				((struct sockaddr_in *)&to)->sin_port = htons(sc->acct_port);
			s->rc = rc;
			s->kind = k;
			s->fdw.fd = fd;
			s->fdw.fn = srv_readable;
			s->fdw.arg = s;
			if (fd < 0 || connect(fd, (const struct sockaddr *)&to, sc->len) ||
			    l2d_fd_add(d->loop, &s->fdw, EPOLLIN)) {
				snprintf(err, errlen, "radius-server %u: %s", i + 1, strerror(errno));
				if (fd >= 0)
					close(fd);
				s->fdw.fd = -1;
				d->rctx = rc;
				l2d_radius_close(d);
				return -errno;
			}
		}
	}
	d->rctx = rc;
	return 0;
}

void l2d_radius_close(struct l2d *d)
{
	struct l2d_rad *rc = rad_of(d);
	unsigned int i, k;

	if (!rc)
		return;
	for (i = 0; i < RAD_KINDS * L2D_MAX_RADIUS; i++) {
		struct rad_srv *s = &rc->srv[i / L2D_MAX_RADIUS][i % L2D_MAX_RADIUS];

		if (!s->rc)
			continue;
		/* the access role cancelled its calls; whatever is left just goes */
		for (k = 0; k < 256; k++)
			if (s->slot[k])
				call_free(s->slot[k]);
		while (s->wait_head) {
			struct rad_call *w = s->wait_head;

			s->wait_head = w->wait_next;
			call_free(w);
		}
		if (s->fdw.fd >= 0) {
			l2d_fd_del(d->loop, &s->fdw);
			close(s->fdw.fd);
		}
	}
	while (rc->parked) {
		struct rad_call *w = rc->parked;

		rc->parked = w->wait_next;
		call_free(w);
	}
	free(rc);
	d->rctx = NULL;
}

int l2d_radius_stats(struct l2d *d, char *buf, size_t len)
{
	const struct l2d_rad *rc = rad_of(d);

	if (!rc)
		return 0;
	return snprintf(buf, len, "radius requests %llu accepts %llu rejects %llu down %llu "
			"timeouts %llu retransmits %llu bad %llu stray %llu acct-queued %u "
			"acct-sent %llu acct-dropped %llu",
			(unsigned long long)rc->requests, (unsigned long long)rc->accepts,
			(unsigned long long)rc->rejects, (unsigned long long)rc->down,
			(unsigned long long)rc->timeouts, (unsigned long long)rc->retransmits,
			(unsigned long long)rc->bad, (unsigned long long)rc->stray, rc->acct_queued,
			(unsigned long long)rc->acct_sent, (unsigned long long)rc->acct_dropped);
}

bool l2d_radius_srv_stats(struct l2d *d, unsigned int i, struct l2d_radius_srv_stats *out)
{
	const struct l2d_rad *rc = rad_of(d);
	const struct l2d_radius_conf *sc;
	const struct rad_srv *s;
	char host[INET6_ADDRSTRLEN] = "?";
	unsigned int k;

	if (!rc || i >= RAD_KINDS * rc->n)
		return false;
	k = i / rc->n;
	i %= rc->n;
	s = &rc->srv[k][i];
	sc = srv_conf(rc, i);
	out->index = i + 1;
	out->kind = k == RAD_ACCT ? "acct" : "auth";
	if (sc->addr.ss_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)&sc->addr;

		inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof(host));
		snprintf(out->address, sizeof(out->address), "[%s]:%u", host,
			 k == RAD_ACCT ? sc->acct_port : ntohs(in6->sin6_port));
	} else {
		const struct sockaddr_in *in = (const struct sockaddr_in *)&sc->addr;

		inet_ntop(AF_INET, &in->sin_addr, host, sizeof(host));
		snprintf(out->address, sizeof(out->address), "%s:%u", host,
			 k == RAD_ACCT ? sc->acct_port : ntohs(in->sin_port));
	}
	out->requests = s->requests;
	out->timeouts = s->timeouts;
	out->bad = s->bad;
	out->dead = s->dead_until > l2d_now(d->loop);
	return true;
}
