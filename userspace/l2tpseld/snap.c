// SPDX-License-Identifier: GPL-2.0
/*
 * The snapshot an upgrading agent hands the binary it re-executes (S-OPS-2,
 * snap.h).  Written and read here; the tunnels and calls are rebuilt by
 * l2d_tunnel_adopt() and l2d_session_adopt(), the subscribers by the access
 * role's d->aops->snap_adopt().  No I/O: main.c puts the bytes in a memfd.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>

#include "l2d.h"
#include "lac.h"
#include "session.h"
#include "snap.h"
#include "tunnel.h"

/* ---- writing ---- */

static uint8_t *room(struct l2d_snap_wr *w, size_t n)
{
	if (w->oom)
		return NULL;
	if (w->len + n > w->cap) {
		size_t cap = w->cap ? w->cap : 4096;
		uint8_t *b;

		while (cap < w->len + n)
			cap *= 2;
		b = realloc(w->buf, cap);
		if (!b) {
			w->oom = true;
			return NULL;
		}
		w->buf = b;
		w->cap = cap;
	}
	w->len += n;
	return w->buf + w->len - n;
}

static void put_be(struct l2d_snap_wr *w, uint64_t v, unsigned int n)
{
	uint8_t *p = room(w, n);
	unsigned int i;

	for (i = 0; p && i < n; i++)
		p[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
}

void l2d_snap_u8(struct l2d_snap_wr *w, uint8_t v) { put_be(w, v, 1); }
void l2d_snap_u16(struct l2d_snap_wr *w, uint16_t v) { put_be(w, v, 2); }
void l2d_snap_u32(struct l2d_snap_wr *w, uint32_t v) { put_be(w, v, 4); }
void l2d_snap_u64(struct l2d_snap_wr *w, uint64_t v) { put_be(w, v, 8); }

void l2d_snap_bytes(struct l2d_snap_wr *w, const void *src, size_t n)
{
	uint8_t *p;

	if (n > UINT16_MAX) {
		w->oom = true;
		return;
	}
	l2d_snap_u16(w, (uint16_t)n);
	p = room(w, n);
	if (p && n)
		memcpy(p, src, n);
}

void l2d_snap_str(struct l2d_snap_wr *w, const char *s)
{
	l2d_snap_bytes(w, s, strlen(s));
}

/* family (0, 4 or 6), 16 address bytes, port */
void l2d_snap_addr(struct l2d_snap_wr *w, const struct l2d_addr *a)
{
	const struct sockaddr_in *s4 = (const void *)&a->ss;
	const struct sockaddr_in6 *s6 = (const void *)&a->ss;
	uint8_t b[16] = { 0 };
	uint8_t fam = 0, *p;

	if (a->ss.ss_family == AF_INET) {
		fam = 4;
		memcpy(b, &s4->sin_addr, 4);
	} else if (a->ss.ss_family == AF_INET6) {
		fam = 6;
		memcpy(b, &s6->sin6_addr, 16);
	}
	l2d_snap_u8(w, fam);
	p = room(w, 16);
	if (p)
		memcpy(p, b, 16);
	l2d_snap_u16(w, fam ? l2d_port(a) : 0);
}

void l2d_snap_fd(struct l2d_snap_wr *w, int fd)
{
	l2d_snap_u32(w, (uint32_t)fd);
	if (fd < 0 || w->oom)
		return;
	if (w->nfds == w->fdcap) {
		unsigned int cap = w->fdcap ? 2 * w->fdcap : 64;
		int *f = realloc(w->fds, cap * sizeof(*f));

		if (!f) {
			w->oom = true;
			return;
		}
		w->fds = f;
		w->fdcap = cap;
	}
	w->fds[w->nfds++] = fd;
}

void l2d_snap_wr_free(struct l2d_snap_wr *w)
{
	free(w->buf);
	free(w->fds);
	memset(w, 0, sizeof(*w));
}

void l2d_snap_rec_begin(struct l2d_snap_wr *w, uint16_t type)
{
	w->rec = w->len;
	l2d_snap_u16(w, type);
	l2d_snap_u16(w, 0);
}

void l2d_snap_rec_end(struct l2d_snap_wr *w)
{
	size_t n = w->len - w->rec - 4;

	if (w->oom)
		return;
	if (n > UINT16_MAX) {
		w->oom = true;
		return;
	}
	w->buf[w->rec + 2] = (uint8_t)(n >> 8);
	w->buf[w->rec + 3] = (uint8_t)n;
}

/* ---- reading ---- */

static const uint8_t *take(struct l2d_snap_rd *r, size_t n)
{
	const uint8_t *p = r->p;

	if (r->bad || r->left < n) {
		r->bad = true;
		return NULL;
	}
	r->p += n;
	r->left -= n;
	return p;
}

static uint64_t get_be(struct l2d_snap_rd *r, unsigned int n)
{
	const uint8_t *p = take(r, n);
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; p && i < n; i++)
		v = v << 8 | p[i];
	return v;
}

uint8_t l2d_snap_get_u8(struct l2d_snap_rd *r) { return (uint8_t)get_be(r, 1); }
uint16_t l2d_snap_get_u16(struct l2d_snap_rd *r) { return (uint16_t)get_be(r, 2); }
uint32_t l2d_snap_get_u32(struct l2d_snap_rd *r) { return (uint32_t)get_be(r, 4); }
uint64_t l2d_snap_get_u64(struct l2d_snap_rd *r) { return get_be(r, 8); }

size_t l2d_snap_get_bytes(struct l2d_snap_rd *r, void *dst, size_t cap)
{
	size_t n = l2d_snap_get_u16(r);
	const uint8_t *p;

	if (n > cap) {
		r->bad = true;
		return 0;
	}
	p = take(r, n);
	if (!p)
		return 0;
	memcpy(dst, p, n);
	return n;
}

void l2d_snap_get_str(struct l2d_snap_rd *r, char *dst, size_t cap)
{
	size_t n = l2d_snap_get_bytes(r, dst, cap - 1);

	dst[n] = '\0';
	if (memchr(dst, '\0', n))
		r->bad = true;
}

void l2d_snap_get_addr(struct l2d_snap_rd *r, struct l2d_addr *a)
{
	uint8_t fam = l2d_snap_get_u8(r);
	const uint8_t *b = take(r, 16);
	uint16_t port = l2d_snap_get_u16(r);

	memset(a, 0, sizeof(*a));
	if (!b || !fam)
		return;
	if ((fam != 4 && fam != 6) || !l2d_addr_set(a, b, fam == 4 ? 4 : 16, port))
		r->bad = true;
}

/* ---- the agent's state ---- */

enum {
	TF_INITIATOR = 1, TF_LAC = 2, TF_LNS = 4, TF_CONNECTED = 8, TF_OWN_PORT = 16,
	TF_SECRET = 32, TF_ACCT_UP = 64, TF_DP = 128,
};
enum {
	SF_INITIATOR = 1, SF_SEQ = 2, SF_ADMITTED = 4, SF_LNS_COUNTED = 8, SF_CSU = 16,
	SF_ACCT = 32, SF_DP = 64, SF_ACCESS = 128,
};

static void write_tunnel(struct l2d_snap_wr *w, const struct l2d_tunnel *t)
{
	const struct l2tp_rel *rel = &t->rel;
	uint16_t ns;

	l2d_snap_rec_begin(w, L2D_SNAP_TUNNEL);
	l2d_snap_u16(w, t->tid);
	l2d_snap_u16(w, t->peer_tid);
	l2d_snap_u8(w, (t->initiator ? TF_INITIATOR : 0) | (t->lac ? TF_LAC : 0) |
		    (t->lns ? TF_LNS : 0) | (t->connected ? TF_CONNECTED : 0) |
		    (t->own_port ? TF_OWN_PORT : 0) | (t->has_secret ? TF_SECRET : 0) |
		    (t->acct_up ? TF_ACCT_UP : 0) | (t->dp_added ? TF_DP : 0));
	l2d_snap_addr(w, &t->peer);
	l2d_snap_addr(w, &t->local);
	l2d_snap_addr(w, &t->dest);
	l2d_snap_addr(w, &t->bound);
	l2d_snap_fd(w, t->fd);
	l2d_snap_fd(w, t->txfd);
	/* RFC 2661 section 5.8: where the control connection is */
	l2d_snap_u16(w, rel->ns_una);
	l2d_snap_u16(w, rel->nr);
	l2d_snap_u16(w, rel->cfg.peer_window);
	l2d_snap_str(w, t->peer_host);
	l2d_snap_str(w, t->tgroup);
	l2d_snap_str(w, t->name);
	l2d_snap_str(w, t->host);
	l2d_snap_str(w, t->profile);
	l2d_snap_bytes(w, t->secret, t->has_secret ? t->secret_len : 0);
	l2d_snap_str(w, t->acct_id);
	l2d_snap_u64(w, t->acct_start_ms);
	l2d_snap_rec_end(w);
	/* the unacknowledged and unsent messages: sent again, as a retransmission */
	for (ns = rel->ns_una; ns != rel->ns_next; ns++) {
		const struct l2tp_rel_msg *m = rel->q[ns & (rel->qcap - 1)];

		l2d_snap_rec_begin(w, L2D_SNAP_TXMSG);
		l2d_snap_u16(w, t->tid);
		l2d_snap_bytes(w, m->data, m->len);
		l2d_snap_rec_end(w);
	}
}

static void write_session(struct l2d_snap_wr *w, const struct l2d *d, const struct l2d_session *s)
{
	l2d_snap_rec_begin(w, L2D_SNAP_SESSION);
	l2d_snap_u16(w, s->t->tid);
	l2d_snap_u16(w, s->sid);
	l2d_snap_u16(w, s->peer_sid);
	l2d_snap_u8(w, (s->initiator ? SF_INITIATOR : 0) | (s->seq ? SF_SEQ : 0) |
		    (s->admitted ? SF_ADMITTED : 0) | (s->lns_counted ? SF_LNS_COUNTED : 0) |
		    (s->csu_enabled ? SF_CSU : 0) | (s->acct_started ? SF_ACCT : 0) |
		    (s->dp_added ? SF_DP : 0) | (s->access ? SF_ACCESS : 0));
	l2d_snap_u16(w, s->proxy_mru);
	l2d_snap_u32(w, s->serial);
	l2d_snap_u64(w, s->key);
	l2d_snap_u32(w, s->api_id);
	l2d_snap_fd(w, s->ppp_fd);
	l2d_snap_u32(w, (uint32_t)s->pppd_pid);
	l2d_snap_str(w, s->user);
	l2d_snap_str(w, s->calling);
	l2d_snap_str(w, s->called);
	l2d_snap_str(w, s->pstat ? d->pstats[s->pstat - 1].name : "");
	l2d_snap_u32(w, s->tx_bps);
	l2d_snap_u32(w, s->rx_bps);
	l2d_snap_u64(w, s->acct_start_ms);
	l2d_snap_rec_end(w);
}

int l2d_snap_write(struct l2d *d, struct l2d_snap_wr *w)
{
	struct l2d_tunnel *t;
	struct l2d_session *s;
	uint8_t *h;

	memset(w, 0, sizeof(*w));
	h = room(w, L2D_SNAP_HDR_LEN);
	if (h) {
		memcpy(h, L2D_SNAP_MAGIC, 8);
		w->len = 8;
		l2d_snap_u16(w, L2D_SNAP_VERSION);
		l2d_snap_u16(w, 0);
		l2d_snap_u32(w, 0);	/* the body's length, below */
	}
	l2d_snap_rec_begin(w, L2D_SNAP_AGENT);
	l2d_snap_u32(w, d->next_login_id);
	l2d_snap_u32(w, d->next_serial);
	l2d_snap_fd(w, d->knl_fd);
	l2d_snap_u8(w, d->drain_api);
	l2d_snap_rec_end(w);
	for (t = d->tunnels; t; t = t->next) {
		if (t->state != L2D_T_ESTABLISHED)
			continue;
		write_tunnel(w, t);
		for (s = t->sessions; s; s = s->next)
			if (s->state == L2D_S_ESTABLISHED)
				write_session(w, d, s);
	}
	if (d->aops && d->aops->snap_write)
		d->aops->snap_write(d, w);
	if (w->oom) {
		l2d_snap_wr_free(w);
		return -ENOMEM;
	}
	put_be(&(struct l2d_snap_wr){ .buf = w->buf + 12, .cap = 4 }, w->len - L2D_SNAP_HDR_LEN, 4);
	return 0;
}

void l2d_snap_prepare(struct l2d *d)
{
	struct l2d_tunnel *t;
	struct l2d_session *s, *sn;

	/* subscribers not up yet: PADT, their logins end */
	if (d->aops && d->aops->snap_prepare)
		d->aops->snap_prepare(d);
	/* logins in progress end as l2d_shutdown() ends them (CDN, no retry) */
	while (d->logins)
		l2d_login_client_gone(d->logins);
	for (t = d->tunnels; t; t = t->next) {
		for (s = t->sessions; s; s = sn) {
			sn = s->next;
			if (s->state != L2D_S_ESTABLISHED && s->state != L2D_S_DEAD)
				l2d_session_close(s, L2D_END_LOCAL, true, L2TP_CDN_ADMIN, 0,
						  "the agent is upgrading");
		}
		if (t->state != L2D_T_ESTABLISHED && t->state != L2D_T_CLOSING &&
		    t->state != L2D_T_DEAD)
			l2d_tunnel_stop(t, L2TP_STOPCCN_SHUTTING_DOWN, 0, "the agent is upgrading");
	}
}

/* ---- reading it back ---- */

static int bad(char *err, size_t errlen, const char *what, unsigned int i)
{
	snprintf(err, errlen, "snapshot refused: record %u: %s", i, what);
	return -EINVAL;
}

int l2d_snap_check(const uint8_t *buf, size_t len, struct l2d_snap_info *info, char *err,
		   size_t errlen)
{
	struct l2d_snap_rd r = { buf, len, false };
	const uint8_t *magic = take(&r, 8);
	unsigned int i, version;
	uint32_t body;

	memset(info, 0, sizeof(*info));
	info->knl_fd = -1;
	if (!magic || memcmp(magic, L2D_SNAP_MAGIC, 8)) {
		snprintf(err, errlen, "snapshot refused: not an l2tpseld snapshot (%zu bytes)", len);
		return -EINVAL;
	}
	version = l2d_snap_get_u16(&r);
	info->version = version;
	l2d_snap_get_u16(&r);
	body = l2d_snap_get_u32(&r);
	if (version != L2D_SNAP_VERSION) {
		snprintf(err, errlen, "snapshot refused: format version %u, this l2tpseld reads "
			 "version %u only", version, L2D_SNAP_VERSION);
		return -EINVAL;
	}
	if (r.bad || body != r.left) {
		snprintf(err, errlen, "snapshot refused: body of %u bytes announced, %zu there",
			 (unsigned int)body, r.left);
		return -EINVAL;
	}
	for (i = 0; r.left; i++) {
		uint16_t type = l2d_snap_get_u16(&r), n = l2d_snap_get_u16(&r);
		struct l2d_snap_rd rec = { r.p, n, false };

		if (r.bad || !take(&r, n))
			return bad(err, errlen, "cut short", i);
		if (!type || type > L2D_SNAP_REC_MAX) {
			snprintf(err, errlen, "snapshot refused: record %u: type %u is not one of "
				 "version %u", i, type, L2D_SNAP_VERSION);
			return -EINVAL;
		}
		if ((type == L2D_SNAP_AGENT) != !i)
			return bad(err, errlen, "the agent's record must come first, once", i);
		if (type == L2D_SNAP_AGENT) {
			l2d_snap_get_u32(&rec);
			l2d_snap_get_u32(&rec);
			info->knl_fd = (int32_t)l2d_snap_get_u32(&rec);
			if (rec.bad)
				return bad(err, errlen, "agent record cut short", i);
		}
		info->tunnels += type == L2D_SNAP_TUNNEL;
		info->sessions += type == L2D_SNAP_SESSION;
		info->subs += type == L2D_SNAP_SUB;
	}
	if (!i) {
		snprintf(err, errlen, "snapshot refused: no agent record");
		return -EINVAL;
	}
	return 0;
}

/* A descriptor number as written: -1, or one that can be ours. */
static bool fd_ok(int32_t fd)
{
	return fd >= -1;
}

static int read_tunnel(struct l2d *d, struct l2d_snap_rd *r, unsigned int i, char *err,
		       size_t errlen, struct l2d_tunnel **out)
{
	struct l2d_tunnel *t = calloc(1, sizeof(*t));
	char secret[L2D_SECRET_MAX];
	uint16_t ns_una, nr, window;
	size_t n;
	uint8_t f;

	*out = NULL;
	if (!t)
		return bad(err, errlen, "out of memory", i);
	t->d = d;
	t->tid = l2d_snap_get_u16(r);
	t->peer_tid = l2d_snap_get_u16(r);
	f = l2d_snap_get_u8(r);
	t->initiator = f & TF_INITIATOR;
	t->lac = f & TF_LAC;
	t->lns = f & TF_LNS;
	t->connected = f & TF_CONNECTED;
	t->own_port = f & TF_OWN_PORT;
	t->acct_up = f & TF_ACCT_UP;
	t->dp_added = f & TF_DP;
	l2d_snap_get_addr(r, &t->peer);
	l2d_snap_get_addr(r, &t->local);
	l2d_snap_get_addr(r, &t->dest);
	l2d_snap_get_addr(r, &t->bound);
	t->fd = (int32_t)l2d_snap_get_u32(r);
	t->txfd = (int32_t)l2d_snap_get_u32(r);
	ns_una = l2d_snap_get_u16(r);
	nr = l2d_snap_get_u16(r);
	window = l2d_snap_get_u16(r);
	l2d_snap_get_str(r, t->peer_host, sizeof(t->peer_host));
	l2d_snap_get_str(r, t->tgroup, sizeof(t->tgroup));
	l2d_snap_get_str(r, t->name, sizeof(t->name));
	l2d_snap_get_str(r, t->host, sizeof(t->host));
	l2d_snap_get_str(r, t->profile, sizeof(t->profile));
	n = l2d_snap_get_bytes(r, secret, sizeof(secret) - 1);
	l2d_snap_get_str(r, t->acct_id, sizeof(t->acct_id));
	t->acct_start_ms = l2d_snap_get_u64(r);
	if (r->bad || r->left) {
		free(t);
		return bad(err, errlen, r->bad ? "tunnel record cut short or a field too long" :
			   "tunnel record longer than its fields", i);
	}
	if (!t->tid || !t->peer_tid || d->tun_by_id[t->tid] || !t->peer.ss.ss_family ||
	    (!t->lac && !t->lns) || !window || !fd_ok(t->fd) || !fd_ok(t->txfd)) {
		char what[160];

		snprintf(what, sizeof(what), "tunnel %u/%u: an ID, address, window or descriptor "
			 "out of range, or the ID twice", t->tid, t->peer_tid);
		free(t);
		return bad(err, errlen, what, i);
	}
	secret[n] = '\0';
	if (f & TF_SECRET) {
		l2d_tunnel_set_secret(t, secret);
		if (!t->has_secret) {
			free(t);
			return bad(err, errlen, "tunnel with an empty secret", i);
		}
	}
	memset(secret, 0, sizeof(secret));
	if (l2d_tunnel_adopt(t, ns_una, nr, window)) {
		free(t);
		return bad(err, errlen, "tunnel not adopted (memory, its peer, or its socket)", i);
	}
	*out = t;
	return 0;
}

static int read_session(struct l2d *d, struct l2d_snap_rd *r, unsigned int i, char *err,
			size_t errlen)
{
	struct l2d_session *s = calloc(1, sizeof(*s));
	char pstat[L2D_NAME_MAX], what[160];
	struct l2d_tunnel *t;
	uint16_t tid;
	uint8_t f;

	if (!s)
		return bad(err, errlen, "out of memory", i);
	tid = l2d_snap_get_u16(r);
	s->sid = l2d_snap_get_u16(r);
	s->peer_sid = l2d_snap_get_u16(r);
	f = l2d_snap_get_u8(r);
	s->initiator = f & SF_INITIATOR;
	s->seq = f & SF_SEQ;
	s->admitted = f & SF_ADMITTED;
	s->lns_counted = f & SF_LNS_COUNTED;
	s->csu_enabled = f & SF_CSU;
	s->acct_started = f & SF_ACCT;
	s->dp_added = f & SF_DP;
	s->proxy_mru = l2d_snap_get_u16(r);
	s->serial = l2d_snap_get_u32(r);
	s->key = l2d_snap_get_u64(r);
	s->api_id = l2d_snap_get_u32(r);
	s->ppp_fd = (int32_t)l2d_snap_get_u32(r);
	s->pppd_pid = (int32_t)l2d_snap_get_u32(r);
	l2d_snap_get_str(r, s->user, sizeof(s->user));
	l2d_snap_get_str(r, s->calling, sizeof(s->calling));
	l2d_snap_get_str(r, s->called, sizeof(s->called));
	l2d_snap_get_str(r, pstat, sizeof(pstat));
	s->tx_bps = l2d_snap_get_u32(r);
	s->rx_bps = l2d_snap_get_u32(r);
	s->acct_start_ms = l2d_snap_get_u64(r);
	if (r->bad || r->left) {
		free(s);
		return bad(err, errlen, r->bad ? "session record cut short or a field too long" :
			   "session record longer than its fields", i);
	}
	t = tid ? d->tun_by_id[tid] : NULL;
	if (!t || !s->sid || !s->peer_sid || d->sess_by_id[s->sid] || !fd_ok(s->ppp_fd) ||
	    s->pppd_pid < 0 || (s->lns_counted && !t->lns)) {
		snprintf(what, sizeof(what), "session %u/%u of tunnel %u: no such tunnel, an ID or "
			 "descriptor out of range, or the ID twice", s->sid, s->peer_sid, tid);
		free(s);
		return bad(err, errlen, what, i);
	}
	l2d_session_adopt(s, t, pstat);
	return 0;
}

int l2d_snap_adopt(struct l2d *d, const uint8_t *buf, size_t len, char *err, size_t errlen)
{
	struct l2d_snap_info info;
	struct l2d_snap_rd r = { buf, len, false };
	struct l2d_tunnel *last = NULL;
	unsigned int i;
	int ret;

	ret = l2d_snap_check(buf, len, &info, err, errlen);
	if (ret)
		return ret;
	take(&r, L2D_SNAP_HDR_LEN);
	for (i = 0; r.left; i++) {
		uint16_t type = l2d_snap_get_u16(&r), n = l2d_snap_get_u16(&r);
		struct l2d_snap_rd rec = { take(&r, n), n, false };

		switch (type) {
		case L2D_SNAP_AGENT:
			d->next_login_id = l2d_snap_get_u32(&rec);
			d->next_serial = l2d_snap_get_u32(&rec);
			l2d_snap_get_u32(&rec);		/* the module's socket: main.c took it */
			d->drain_api = l2d_snap_get_u8(&rec) != 0;
			if (rec.bad || rec.left)
				return bad(err, errlen, "agent record of the wrong length", i);
			break;
		case L2D_SNAP_TUNNEL:
			ret = read_tunnel(d, &rec, i, err, errlen, &last);
			break;
		case L2D_SNAP_TXMSG: {
			uint8_t m[L2TP_REL_MSG_MAX];
			uint16_t tid = l2d_snap_get_u16(&rec);
			size_t ml = l2d_snap_get_bytes(&rec, m, sizeof(m));

			if (rec.bad || rec.left || !last || last->tid != tid)
				return bad(err, errlen, "a queued message not after its tunnel", i);
			if (l2tp_rel_queue(&last->rel, m, ml) < 0)
				return bad(err, errlen, "a queued message not taken", i);
			break;
		}
		case L2D_SNAP_SESSION:
			ret = read_session(d, &rec, i, err, errlen);
			break;
		case L2D_SNAP_SUB:
			if (!d->aops || !d->aops->snap_adopt)
				return bad(err, errlen, "an access subscriber, and no access role", i);
			ret = d->aops->snap_adopt(d, &rec, err, errlen);
			break;
		}
		if (ret)
			return ret;
	}
	/* what was in flight goes again: the peer sees at most a retransmission */
	for (last = d->tunnels; last; last = last->next)
		l2d_tunnel_flush(last);
	l2d_log(d, L2D_LOG_INFO, "snapshot version %u adopted: %u tunnels, %u sessions, %u "
		"subscribers", info.version, info.tunnels, info.sessions, info.subs);
	return 0;
}
