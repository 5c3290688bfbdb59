// SPDX-License-Identifier: GPL-2.0
/*
 * The server of dynamic authorization (RFC 5176) of the access role
 * (Documentation/radius.md): one UDP socket on "radius-das", requests only
 * from the "radius-das-client" addresses, each checked with that client's
 * secret (rad_dm_parse()).  A Disconnect-Request ends every access call
 * that each session attribute it gives matches (l2d_access_disconnect()):
 * Disconnect-ACK when one ended, else Disconnect-NAK with the Error-Cause
 * (section 3.6).  A CoA-Request carrying a line's new DSL Forum rates
 * (RFC 4679 VSAs) gives them to the calls it matches (l2d_access_coa(),
 * S-AL-1); any other gets CoA-NAK: authorization does not change in place
 * here.  A request from an unknown address, or that fails its
 * checks, is dropped and counted (section 3.5: silently).  Only then, once
 * authentic (rad_das_check(); S-SEC-8), is it looked up: a retransmission or
 * a replay (same client, Identifier and Request Authenticator, from any
 * port) gets the answer sent before, not a second disconnect (section 2.3);
 * a new one must carry an Event-Timestamp within radius-das-event-window of
 * the agent's clock (dropped when outside: RFC 5176's replay protection;
 * NAK 402 when missing and radius-das-require-event-timestamp).  Requests
 * are remembered until their Event-Timestamp leaves the window, so none
 * acts twice.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include "l2d.h"
#include "radius.h"

struct l2d_das {
	struct l2d *d;
	struct l2d_fd fdw;
	struct rad_das_cache seen;	/* answered requests, until their Event-Timestamp is stale */
	uint64_t requests, acks, naks, bad, unknown, resent, stale;
};

static bool same_host(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
		       &((const struct sockaddr_in6 *)b)->sin6_addr, sizeof(struct in6_addr));
}

/* Error-Cause's name (section 3.5), for the log. */
static const char *cause_name(uint32_t cause)
{
	switch (cause) {
	case RAD_EC_UNSUPPORTED_ATTRIBUTE: return "Unsupported-Attribute";
	case RAD_EC_MISSING_ATTRIBUTE: return "Missing-Attribute";
	case RAD_EC_NAS_MISMATCH: return "NAS-Identification-Mismatch";
	case RAD_EC_INVALID_REQUEST: return "Invalid-Request";
	case RAD_EC_UNSUPPORTED_EXTENSION: return "Unsupported-Extension";
	case RAD_EC_INVALID_VALUE: return "Invalid-Attribute-Value";
	case RAD_EC_SESSION_NOT_FOUND: return "Session-Context-Not-Found";
	case RAD_EC_RESOURCES_UNAVAILABLE: return "Resources-Unavailable";
	default: return "?";
	}
}

/* The wall clock, ms since 1970: what an Event-Timestamp is compared with. */
static uint64_t wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Section 3: a NAS-Identifier or NAS-IP-Address that is not ours refuses the request. */
static bool nas_is_us(const struct l2d_das *ds, const struct rad_dm *m)
{
	const struct l2d_conf *c = ds->d->conf;
	const char *nas = c->nas_identifier[0] ? c->nas_identifier : c->hostname;
	const struct sockaddr_in *at = (const struct sockaddr_in *)&c->das_addr;

	if (m->nas_id[0] && strcmp(m->nas_id, nas))
		return false;
	/* an address is compared with the one we listen on, when that is one */
	if (m->has_nas_ip && c->das_addr.ss_family == AF_INET && at->sin_addr.s_addr != INADDR_ANY &&
	    memcmp(&at->sin_addr, m->nas_ip, 4))
		return false;
	return true;
}

static void answer(struct l2d_das *ds, const struct sockaddr_storage *from, socklen_t flen,
		   const struct rad_dm *m, unsigned int ki, bool ack, uint32_t cause, uint64_t now)
{
	const struct l2d_das_client *k = &ds->d->conf->das_clients[ki];
	uint8_t pkt[RAD_MAX_LEN];
	size_t len = rad_dm_answer(m, ack, cause, (const uint8_t *)k->secret, strlen(k->secret), pkt);

	rad_das_remember(&ds->seen, ki, m, ds->d->conf->das_window_ms, now, pkt, len);
	*(ack ? &ds->acks : &ds->naks) += 1;
	if (sendto(ds->fdw.fd, pkt, len, 0, (const struct sockaddr *)from, flen) < 0)
		l2d_log(ds->d, L2D_LOG_INFO, "radius-das: answer: %s", strerror(errno));
}

static void input(struct l2d_das *ds, const uint8_t *buf, size_t n,
		  const struct sockaddr_storage *from, socklen_t flen)
{
	const struct l2d_conf *c = ds->d->conf;
	const struct l2d_das_client *k = NULL;
	char host[INET6_ADDRSTRLEN];
	const uint8_t *again;
	const char *why = "", *kind;
	uint64_t now = wall_ms();
	size_t again_len;
	struct rad_dm m;
	unsigned int i, ki = 0;
	int ended;

	l2d_addr_str(&(struct l2d_addr){ *from, flen }, host, sizeof(host), false);
	for (i = 0; i < c->n_das_clients && !k; i++)
		if (same_host(&c->das_clients[i].addr, from))
			k = &c->das_clients[ki = i];
	if (!k) {
		ds->unknown++;
		l2d_log(ds->d, L2D_LOG_INFO, "radius-das: %s is not a radius-das-client: dropped", host);
		return;
	}
	/* authentic first, then seen before, then current (S-SEC-8) */
	switch (rad_das_check(&ds->seen, ki, buf, n, (const uint8_t *)k->secret, strlen(k->secret),
			      c->das_window_ms, c->das_require_ts, now, &m, &again, &again_len, &why)) {
	case RAD_DAS_BAD:
		ds->bad++;
		l2d_log(ds->d, L2D_LOG_INFO, "radius-das: request from %s dropped: %s", host, why);
		return;
	case RAD_DAS_STALE:
		ds->stale++;
		l2d_log(ds->d, L2D_LOG_INFO, "radius-das: request from %s (Identifier %u) dropped: "
			"Event-Timestamp %u is %lld s from the agent's clock, beyond %u s: %s", host,
			m.id, m.ts, (long long)m.ts - (long long)(now / 1000),
			c->das_window_ms / 1000, why);
		return;
	case RAD_DAS_RESEND:
		/* section 2.3: a retransmission, or a replay, gets the same answer and no more */
		ds->resent++;
		l2d_log(ds->d, L2D_LOG_DEBUG, "radius-das: request from %s (Identifier %u) seen "
			"before: its answer again", host, m.id);
		if (sendto(ds->fdw.fd, again, again_len, 0, (const struct sockaddr *)from, flen) < 0)
			l2d_log(ds->d, L2D_LOG_INFO, "radius-das: answer: %s", strerror(errno));
		return;
	case RAD_DAS_NEW:
		break;
	}
	ds->requests++;
	kind = m.code == RAD_COA_REQUEST ? "CoA-Request" : "Disconnect-Request";
	if (!m.cause && !nas_is_us(ds, &m))
		m.cause = RAD_EC_NAS_MISMATCH;
	if (m.cause) {
		l2d_log(ds->d, L2D_LOG_INFO, "radius-das: %s from %s refused: Error-Cause %u (%s)%s%s",
			kind, host, m.cause, cause_name(m.cause), why ? ": " : "", why ? why : "");
		answer(ds, from, flen, &m, ki, false, m.cause, now);
		return;
	}
	if (m.code == RAD_COA_REQUEST) {
		/* the line's new rates (S-AL-1): CSUN to the LNS, Interim-Update */
		char line[768];
		int changed = l2d_access_coa(ds->d, &m);

		l2d_log(ds->d, L2D_LOG_INFO, "radius-das: CoA-Request from %s (user %s): %s: "
			"%d call%s changed", host, m.user[0] ? m.user : "-",
			al_format(&m.al, line, sizeof(line)), changed, changed == 1 ? "" : "s");
		answer(ds, from, flen, &m, ki, changed > 0, changed > 0 ? 0 : RAD_EC_SESSION_NOT_FOUND,
		       now);
		return;
	}
	ended = l2d_access_disconnect(ds->d, &m, m.term_cause);
	l2d_log(ds->d, L2D_LOG_INFO, "radius-das: Disconnect-Request from %s (user %s, "
		"Acct-Session-Id %s): %d call%s ended", host, m.user[0] ? m.user : "-",
		m.acct_id[0] ? m.acct_id : "-", ended, ended == 1 ? "" : "s");
	if (ended > 0)
		answer(ds, from, flen, &m, ki, true, 0, now);
	else
		answer(ds, from, flen, &m, ki, false, RAD_EC_SESSION_NOT_FOUND, now);
}

static void das_readable(struct l2d_fd *f, uint32_t events)
{
	struct l2d_das *ds = f->arg;
	uint8_t buf[RAD_MAX_LEN];
	int i;

	(void)events;
	/* a bounded turn: the loop's other work goes on under a flood */
	for (i = 0; i < 64; i++) {
		struct sockaddr_storage from;
		socklen_t flen = sizeof(from);
		ssize_t n = recvfrom(f->fd, buf, sizeof(buf), MSG_DONTWAIT,
				     (struct sockaddr *)&from, &flen);

		if (n < 0)
			return;
		input(ds, buf, (size_t)n, &from, flen);
	}
}

int l2d_das_open(struct l2d *d, char *err, size_t errlen)
{
	const struct l2d_conf *c = d->conf;
	struct l2d_das *ds;
	int fd, one = 1;

	if (!c->das_len)
		return 0;
	ds = calloc(1, sizeof(*ds));
	if (ds && rad_das_cache_init(&ds->seen, RAD_DAS_SEEN_MAX)) {
		free(ds);
		ds = NULL;
	}
	fd = socket(c->das_addr.ss_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (!ds || fd < 0) {
		snprintf(err, errlen, "radius-das: %s", strerror(ds ? errno : ENOMEM));
		if (ds)
			rad_das_cache_free(&ds->seen);
		free(ds);
		if (fd >= 0)
			close(fd);
		return -ENOMEM;
	}
	if (c->das_addr.ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	ds->d = d;
	ds->fdw.fd = fd;
	ds->fdw.fn = das_readable;
	ds->fdw.arg = ds;
	if (bind(fd, (const struct sockaddr *)&c->das_addr, c->das_len) ||
	    l2d_fd_add(d->loop, &ds->fdw, EPOLLIN)) {
		snprintf(err, errlen, "radius-das: bind: %s", strerror(errno));
		close(fd);
		rad_das_cache_free(&ds->seen);
		free(ds);
		return -EADDRINUSE;
	}
	d->dasctx = ds;
	return 0;
}

void l2d_das_close(struct l2d *d)
{
	struct l2d_das *ds = d->dasctx;

	if (!ds)
		return;
	l2d_fd_del(d->loop, &ds->fdw);
	close(ds->fdw.fd);
	rad_das_cache_free(&ds->seen);
	free(ds);
	d->dasctx = NULL;
}

int l2d_das_stats(struct l2d *d, char *buf, size_t len)
{
	const struct l2d_das *ds = d->dasctx;

	if (!ds)
		return 0;
	return snprintf(buf, len, "radius-das requests %llu acks %llu naks %llu bad %llu unknown %llu "
			"resent %llu stale %llu", (unsigned long long)ds->requests,
			(unsigned long long)ds->acks, (unsigned long long)ds->naks,
			(unsigned long long)ds->bad, (unsigned long long)ds->unknown,
			(unsigned long long)ds->resent, (unsigned long long)ds->stale);
}
