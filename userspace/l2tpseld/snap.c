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

/* ---- the records' fields ---- */

/*
 * A record's fields, in the order of the format: one table per record
 * drives both its writer and its reader.  A field is in the object (the
 * tunnel, the call, the agent) or in the record's extra, what the writer
 * fills from the object beforehand and the reader hands on afterwards.
 */
enum snap_kind {
	SK_INT,		/* an integer of @size octets (1, 2, 4 or 8): as many, big-endian */
	SK_FD,		/* a descriptor (int): 4 octets, -1 none; kept across execve() */
	SK_BOOL,	/* a bool: an octet, 0 or 1; read: not 0 */
	SK_BIT,		/* a bool: bit @size of an octet the SK_BITs in a row share */
	SK_STR,		/* a string of @size octets with its NUL at most: u16 length, bytes */
	SK_BLOB,	/* struct snap_blob, @size octets at most: u16 length, bytes */
	SK_ADDR,	/* struct l2d_addr: family (0, 4 or 6), 16 address octets, port */
};

enum { SI_OBJ, SI_X };

struct snap_field {
	const char *id;
	uint8_t kind, in;	/* in: SI_OBJ or SI_X */
	uint32_t off;
	uint16_t size;
};

struct snap_blob {
	uint16_t len;
	uint8_t b[L2D_SECRET_MAX];
};

#define MSIZE(type, m)		sizeof(((type *)0)->m)
#define FIELD(type, in, kind, m) { #m, kind, in, offsetof(type, m), MSIZE(type, m) }
#define BIT(type, in, m, bit)	{ #m, SK_BIT, in, offsetof(type, m), bit }

/* The agent: counters that go on, the module's socket (main.c takes it first). */
struct snap_agent_x {
	int knl_fd;
};
#define A(kind, m)	FIELD(struct l2d, SI_OBJ, kind, m)
static const struct snap_field agent_fields[] = {
	A(SK_INT, next_login_id), A(SK_INT, next_serial),
	FIELD(struct snap_agent_x, SI_X, SK_FD, knl_fd),
	A(SK_BOOL, drain_api),
};
#define AGENT_FIELDS_TO_KNL_FD	3	/* what l2d_snap_check() reads */

/* A tunnel: where its control connection is (RFC 2661 section 5.8), its secret. */
struct snap_tunnel_x {
	uint16_t ns_una, nr, window;
	bool has_secret;
	struct snap_blob secret;
};
#define T(kind, m)	FIELD(struct l2d_tunnel, SI_OBJ, kind, m)
#define TX(kind, m)	FIELD(struct snap_tunnel_x, SI_X, kind, m)
#define TBIT(m, bit)	BIT(struct l2d_tunnel, SI_OBJ, m, bit)
static const struct snap_field tunnel_fields[] = {
	T(SK_INT, tid), T(SK_INT, peer_tid),
	TBIT(initiator, 1), TBIT(lac, 2), TBIT(lns, 4), TBIT(connected, 8), TBIT(own_port, 16),
	BIT(struct snap_tunnel_x, SI_X, has_secret, 32), TBIT(acct_up, 64), TBIT(dp_added, 128),
	T(SK_ADDR, peer), T(SK_ADDR, local), T(SK_ADDR, dest), T(SK_ADDR, bound),
	T(SK_FD, fd), T(SK_FD, txfd),
	TX(SK_INT, ns_una), TX(SK_INT, nr), TX(SK_INT, window),
	T(SK_STR, peer_host), T(SK_STR, tgroup), T(SK_STR, name), T(SK_STR, host),
	T(SK_STR, profile),
	/* read with room for its NUL */
	{ "secret", SK_BLOB, SI_X, offsetof(struct snap_tunnel_x, secret), L2D_SECRET_MAX - 1 },
	T(SK_STR, acct_id), T(SK_INT, acct_start_ms),
};

/* A call: its tunnel, whether the access role has it, its peer stats entry. */
struct snap_session_x {
	uint16_t tid;
	bool access;
	char pstat[L2D_NAME_MAX];
};
#define S(kind, m)	FIELD(struct l2d_session, SI_OBJ, kind, m)
#define SBIT(m, bit)	BIT(struct l2d_session, SI_OBJ, m, bit)
static const struct snap_field session_fields[] = {
	FIELD(struct snap_session_x, SI_X, SK_INT, tid), S(SK_INT, sid), S(SK_INT, peer_sid),
	SBIT(initiator, 1), SBIT(seq, 2), SBIT(admitted, 4), SBIT(lns_counted, 8),
	SBIT(csu_enabled, 16), SBIT(acct_started, 32), SBIT(dp_added, 64),
	BIT(struct snap_session_x, SI_X, access, 128),
	S(SK_INT, proxy_mru), S(SK_INT, serial), S(SK_INT, key), S(SK_INT, api_id),
	S(SK_FD, ppp_fd), S(SK_INT, pppd_pid),
	S(SK_STR, user), S(SK_STR, calling), S(SK_STR, called),
	FIELD(struct snap_session_x, SI_X, SK_STR, pstat),
	S(SK_INT, tx_bps), S(SK_INT, rx_bps), S(SK_INT, acct_start_ms),
};

static uint64_t load_int(const void *p, unsigned int size)
{
	union { uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64; } v;

	memcpy(&v, p, size);
	switch (size) {
	case 1: return v.u8;
	case 2: return v.u16;
	case 4: return v.u32;
	default: return v.u64;
	}
}

static void store_int(void *p, uint64_t x, unsigned int size)
{
	union { uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64; } v;

	switch (size) {
	case 1: v.u8 = (uint8_t)x; break;
	case 2: v.u16 = (uint16_t)x; break;
	case 4: v.u32 = (uint32_t)x; break;
	default: v.u64 = x; break;
	}
	memcpy(p, &v, size);
}

/* The @n fields of @f, from the object @obj and the extra @x. */
static void put_fields(struct l2d_snap_wr *w, const struct snap_field *f, size_t n,
		       const void *obj, const void *x)
{
	uint8_t bits = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		const uint8_t *p = (const uint8_t *)(f[i].in == SI_X ? x : obj) + f[i].off;
		const struct snap_blob *blob = (const void *)p;

		switch (f[i].kind) {
		case SK_INT: put_be(w, load_int(p, f[i].size), f[i].size); break;
		case SK_FD: l2d_snap_fd(w, *(const int *)p); break;
		case SK_BOOL: l2d_snap_u8(w, *(const bool *)p); break;
		case SK_BIT:
			bits |= *(const bool *)p ? f[i].size : 0;
			if (i + 1 == n || f[i + 1].kind != SK_BIT) {
				l2d_snap_u8(w, bits);
				bits = 0;
			}
			break;
		case SK_STR: l2d_snap_str(w, (const char *)p); break;
		case SK_BLOB: l2d_snap_bytes(w, blob->b, blob->len); break;
		case SK_ADDR: l2d_snap_addr(w, (const struct l2d_addr *)p); break;
		}
	}
}

/*
 * The @n fields of @f into the object @obj and the extra @x (NULL: read and
 * dropped); past the end r->bad is set and they are zero.
 */
static void get_fields(struct l2d_snap_rd *r, const struct snap_field *f, size_t n, void *obj,
		       void *x)
{
	union {
		struct l2d_addr a;
		struct snap_blob b;
		char s[L2D_USER_MAX];
		uint64_t v;
	} junk;
	uint8_t bits = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		uint8_t *base = f[i].in == SI_X ? x : obj;
		uint8_t *p = base ? base + f[i].off : (uint8_t *)&junk;
		struct snap_blob *blob = (void *)p;
		int fd;

		switch (f[i].kind) {
		case SK_INT: store_int(p, get_be(r, f[i].size), f[i].size); break;
		case SK_FD:
			fd = (int32_t)l2d_snap_get_u32(r);
			memcpy(p, &fd, sizeof(fd));
			break;
		case SK_BOOL: *(bool *)p = l2d_snap_get_u8(r) != 0; break;
		case SK_BIT:
			if (!i || f[i - 1].kind != SK_BIT)
				bits = l2d_snap_get_u8(r);
			*(bool *)p = bits & f[i].size;
			break;
		case SK_STR: l2d_snap_get_str(r, (char *)p, f[i].size); break;
		case SK_BLOB: blob->len = (uint16_t)l2d_snap_get_bytes(r, blob->b, f[i].size); break;
		case SK_ADDR: l2d_snap_get_addr(r, (struct l2d_addr *)p); break;
		}
	}
}

#define PUT(w, tab, obj, x)	put_fields(w, tab, sizeof(tab) / sizeof(tab[0]), obj, x)
#define GET(r, tab, obj, x)	get_fields(r, tab, sizeof(tab) / sizeof(tab[0]), obj, x)

/* ---- the agent's state ---- */

static void write_tunnel(struct l2d_snap_wr *w, const struct l2d_tunnel *t)
{
	const struct l2tp_rel *rel = &t->rel;
	struct snap_tunnel_x x = {
		.ns_una = rel->ns_una, .nr = rel->nr, .window = rel->cfg.peer_window,
		.has_secret = t->has_secret,
	};
	uint16_t ns;

	if (t->has_secret) {
		x.secret.len = (uint16_t)t->secret_len;
		memcpy(x.secret.b, t->secret, t->secret_len);
	}
	l2d_snap_rec_begin(w, L2D_SNAP_TUNNEL);
	PUT(w, tunnel_fields, t, &x);
	l2d_snap_rec_end(w);
	explicit_bzero(&x, sizeof(x));
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
	struct snap_session_x x = { .tid = s->t->tid, .access = s->access != NULL };

	if (s->pstat)
		snprintf(x.pstat, sizeof(x.pstat), "%s", d->pstats[s->pstat - 1].name);
	l2d_snap_rec_begin(w, L2D_SNAP_SESSION);
	PUT(w, session_fields, s, &x);
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
	PUT(w, agent_fields, d, &(struct snap_agent_x){ d->knl_fd });
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
			struct snap_agent_x x;

			get_fields(&rec, agent_fields, AGENT_FIELDS_TO_KNL_FD, NULL, &x);
			info->knl_fd = x.knl_fd;
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
	struct snap_tunnel_x x;
	int ret = 0;

	*out = NULL;
	if (!t)
		return bad(err, errlen, "out of memory", i);
	t->d = d;
	GET(r, tunnel_fields, t, &x);
	if (r->bad || r->left) {
		ret = bad(err, errlen, r->bad ? "tunnel record cut short or a field too long" :
			  "tunnel record longer than its fields", i);
	} else if (!t->tid || !t->peer_tid || d->tun_by_id[t->tid] || !t->peer.ss.ss_family ||
		   (!t->lac && !t->lns) || !x.window || !fd_ok(t->fd) || !fd_ok(t->txfd)) {
		char what[160];

		snprintf(what, sizeof(what), "tunnel %u/%u: an ID, address, window or descriptor "
			 "out of range, or the ID twice", t->tid, t->peer_tid);
		ret = bad(err, errlen, what, i);
	} else if (x.has_secret) {
		x.secret.b[x.secret.len] = '\0';
		l2d_tunnel_set_secret(t, (const char *)x.secret.b);
		if (!t->has_secret)
			ret = bad(err, errlen, "tunnel with an empty secret", i);
	}
	explicit_bzero(&x.secret, sizeof(x.secret));
	if (!ret && l2d_tunnel_adopt(t, x.ns_una, x.nr, x.window))
		ret = bad(err, errlen, "tunnel not adopted (memory, its peer, or its socket)", i);
	if (ret) {
		free(t);
		return ret;
	}
	*out = t;
	return 0;
}

static int read_session(struct l2d *d, struct l2d_snap_rd *r, unsigned int i, char *err,
			size_t errlen)
{
	struct l2d_session *s = calloc(1, sizeof(*s));
	struct snap_session_x x;
	struct l2d_tunnel *t;
	char what[160];

	if (!s)
		return bad(err, errlen, "out of memory", i);
	GET(r, session_fields, s, &x);
	if (r->bad || r->left) {
		free(s);
		return bad(err, errlen, r->bad ? "session record cut short or a field too long" :
			   "session record longer than its fields", i);
	}
	t = x.tid ? d->tun_by_id[x.tid] : NULL;
	if (!t || !s->sid || !s->peer_sid || d->sess_by_id[s->sid] || !fd_ok(s->ppp_fd) ||
	    s->pppd_pid < 0 || (s->lns_counted && !t->lns)) {
		snprintf(what, sizeof(what), "session %u/%u of tunnel %u: no such tunnel, an ID or "
			 "descriptor out of range, or the ID twice", s->sid, s->peer_sid, x.tid);
		free(s);
		return bad(err, errlen, what, i);
	}
	l2d_session_adopt(s, t, x.pstat);
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
			/* the module's socket: main.c took it (l2d_snap_check()) */
			GET(&rec, agent_fields, d, &(struct snap_agent_x){ -1 });
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
