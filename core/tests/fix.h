/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The selection fixture of the core's tests, one for both builds (the
 * userspace unit tests and the KUnit module): an instance with its tables
 * in the fixture, a seeded or pinned random source, an event log, a trace
 * of each login, and a helper that runs a whole login with scripted LNS
 * answers.
 *
 * Random draws are a seeded xorshift, so that a case sees the same draws in
 * the kernel as in userspace; time is simulated (struct l2s_env.now).
 *
 * fix_new() allocates the fixture with the test (T_ZALLOC), its tunnel
 * arrays too, so that nothing outlives a case in either build; fix_init()
 * sets up a static fixture for userspace tests that keep one across steps.
 */
#ifndef L2S_TESTS_FIX_H
#define L2S_TESTS_FIX_H

#include "t.h"
#include "obj.h"
#include "env.h"
#include "sel.h"
#include "lb.h"
#include "hash.h"

#ifdef L2S_KERNEL
#include <linux/inet.h>
#else
#include <arpa/inet.h>
#include <stdarg.h>
#endif

#define FIX_DESTS	256
#define FIX_EVENTS	256
#define FIX_TRACE	1024

struct fix {
	struct l2s_core core;
	struct l2s_dest dests[FIX_DESTS];
	struct l2s_profile prof;
	struct l2s_env env;
	u64 rng;
	int pins[16], npins, pin_at;		/* pinned draws by number */
	const char *pick[8];			/* pinned draws by tunnel name */
	int npick, pick_at;
	const struct l2s_profile *cur;		/* profile of the login running */
	struct l2s_event ev[FIX_EVENTS];
	int nev;
	/* what each remote (by last IPv4 byte) answers; kind 0 = ok */
	struct l2s_outcome answer[256];
	char trace[FIX_TRACE];			/* "att T1 ...; lock ...; ok T1" */
	t_test *test;				/* for T_INFO() in the helpers */
};

static inline __printf(2, 3) void fix_trace(struct fix *f, const char *fmt, ...)
{
	size_t n = strlen(f->trace);
	va_list ap;

	if (n && n + 2 < FIX_TRACE) {
		strcpy(f->trace + n, "; ");
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(f->trace + n, FIX_TRACE - n, fmt, ap);
	va_end(ap);
}

/* A destination's remote address as "a.b.c.d" (IPv4 only in these tests). */
static inline char *fix_addr(const struct fix *f, u16 slot, char *buf, size_t len)
{
	const u8 *b = f->dests[slot].key.remote.bytes;

	snprintf(buf, len, "%u.%u.%u.%u", b[0], b[1], b[2], b[3]);
	return buf;
}

static inline u32 fix_rand(void *ctx, const struct l2s_draw *d)
{
	struct fix *f = ctx;
	u32 i, v = 0;
	u64 x;

	/* A draw pinned by name: the value that picks that candidate. */
	if (f->pick_at < f->npick) {
		const char *name = f->pick[f->pick_at++];

		for (i = 0; i < d->n; i++) {
			if (!strcmp(f->cur->t[d->cand[i]].name, name))
				return v;
			v += d->weighted ? l2s_lb_weight(f->cur, d->lvl, d->cand[i]) : 1;
		}
		fix_trace(f, "pick %s not among the candidates", name);
		return 0;
	}
	if (f->pin_at < f->npins)
		return (u32)f->pins[f->pin_at++];
	x = f->rng;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	f->rng = x;
	return (u32)(((x >> 32) * (u64)d->bound) >> 32);
}

static inline void fix_event(void *ctx, const struct l2s_event *ev)
{
	static const char * const why[] = {
		[L2S_UNLOCK_DLNC] = "dlnc",
		[L2S_UNLOCK_SHORTEST] = "shortest",
		[L2S_UNLOCK_CLEAR] = "clear",
		[L2S_UNLOCK_EXPIRED] = "expired",
	};
	struct fix *f = ctx;
	char a[16];

	if (f->nev < FIX_EVENTS)
		f->ev[f->nev++] = *ev;
	fix_addr(f, ev->dest, a, sizeof(a));
	switch (ev->kind) {
	case L2S_EV_DLNC:
		fix_trace(f, "dlnc %s", a);
		break;
	case L2S_EV_LOCKOUT:
		fix_trace(f, "lock %s %u", a, ev->ms / 1000);
		break;
	case L2S_EV_UNLOCK:
		fix_trace(f, "unlock %s %s", a,
			  ev->why < L2S_ARRAY_SIZE(why) ? why[ev->why] : "?");
		break;
	}
}

/* @f is static (zeroed) or was set up before: its profile's array is freed. */
static inline void fix_init(struct fix *f, u64 seed)
{
	if (f->prof.t)
		l2s_profile_free(&f->core, &f->prof);
	if (f->core.mem)
		l2s_core_release(&f->core);
	memset(f, 0, sizeof(*f));
	l2s_core_init(&f->core, f->dests, FIX_DESTS);
	l2s_profile_init(&f->prof, "P");
	f->rng = seed ? seed : 88172645463325252ull;
	f->env.now = 1000000;
	f->env.rand = fix_rand;
	f->env.event = fix_event;
	f->env.ctx = f;
	f->cur = &f->prof;
}

/* Tunnel arrays of the core in a test: freed with the test. */
static inline void *fix_mem_alloc(void *ctx, size_t size)
{
	t_test *test = ctx;

	return T_ZALLOC(size);
}

static inline void fix_mem_free(void *ctx, void *ptr, size_t size)
{
#ifdef L2S_KERNEL
	kunit_kfree(ctx, ptr);
#else
	th_free(ptr);
#endif
}

/* NULL when out of memory (a failed ASSERT in the caller). */
static inline struct l2s_mem *fix_mem(t_test *test)
{
	struct l2s_mem *m = T_ZALLOC(sizeof(*m));

	if (m) {
		m->alloc = fix_mem_alloc;
		m->free = fix_mem_free;
		m->ctx = test;
	}
	return m;
}

/* A fixture that goes with the test; NULL when out of memory. */
static inline struct fix *fix_alloc(t_test *test, u64 seed)
{
	struct fix *f = T_ZALLOC(sizeof(*f));

	if (!f)
		return NULL;
	fix_init(f, seed);
	f->core.mem = fix_mem(test);
	f->test = test;
	if (!f->core.mem)
		return NULL;
	return f;
}

/* In a case: the fixture or the end of the case. */
#define fix_new(test, seed) ({						\
	struct fix *_f = fix_alloc(test, seed);				\
	T_ASSERT_NOT_NULL(_f);						\
	_f;								\
})

/* A further profile that goes with the test. */
#define fix_profile(test, name) ({					\
	struct l2s_profile *_p = T_ZALLOC(sizeof(*_p));			\
	T_ASSERT_NOT_NULL(_p);						\
	l2s_profile_init(_p, name);					\
	_p;								\
})

/* An IPv4 destination key; @local NULL means none, @port 0 the default. */
static inline struct l2s_dest_key fix_key(const char *remote, const char *local, u16 port)
{
	struct l2s_dest_key k;

	memset(&k, 0, sizeof(k));
	k.remote.family = 4;
#ifdef L2S_KERNEL
	in4_pton(remote, -1, k.remote.bytes, -1, NULL);
	if (local) {
		k.local.family = 4;
		in4_pton(local, -1, k.local.bytes, -1, NULL);
	}
#else
	inet_pton(AF_INET, remote, k.remote.bytes);
	if (local) {
		k.local.family = 4;
		inet_pton(AF_INET, local, k.local.bytes);
	}
#endif
	k.port = port ? port : L2S_DEFAULT_PORT;
	return k;
}

/* Add a tunnel to @p; returns its index or a negative errno (logged). */
static inline int fix_tunnel(struct fix *f, struct l2s_profile *p, const char *name,
			     u32 level, const char *remote, u32 max)
{
	struct l2s_tunnel_conf tc = { .name = name, .level = level, .max_sessions = max };
	struct l2s_err err = { 0 };
	t_test *test = f->test;
	int rc;

	tc.dest = fix_key(remote, NULL, 0);
	rc = l2s_tunnel_add(&f->core, p, &tc, &err);
	if (rc < 0)
		T_INFO("tunnel_add %s: %s", name, err.msg);
	return rc;
}

/* The last IPv4 byte of a destination slot, the fixture's LNS id. */
static inline u8 fix_lns(const struct fix *f, u16 slot)
{
	return f->dests[slot].key.remote.bytes[3];
}

/*
 * Run a login to the end with the scripted answers.  f->trace gets each
 * attempt ("att T1 192.168.10.10 sccrq", "-" for no setup), the core's
 * events in between, and the result ("ok T1" or "fail exhausted");
 * @names the attempted tunnels, "T1 T2".
 */
static inline struct l2s_step fix_login(struct fix *f, struct l2s_profile *p,
					u32 key, char *names, size_t len)
{
	struct l2s_login lg;
	struct l2s_step st;
	int rc, guard = 0;
	char a[16];

	if (names)
		names[0] = '\0';
	f->cur = p;
	rc = l2s_sel_begin(&lg, &f->core, p, key, &f->env, &st);
	while (rc == L2S_STEP_ATTEMPT && guard++ < 1000) {
		struct l2s_outcome o = f->answer[fix_lns(f, st.dest)];

		if (!o.kind)
			o.kind = L2S_OUT_OK;
		fix_trace(f, "att %s %s %s", p->t[st.tunnel].name,
			  fix_addr(f, st.dest, a, sizeof(a)), st.setup ? "sccrq" : "-");
		if (names) {
			size_t n = strlen(names);

			snprintf(names + n, len - n, "%s%s", n ? " " : "", p->t[st.tunnel].name);
		}
		rc = l2s_sel_report(&lg, &f->core, p, &o, &f->env, &st);
	}
	if (st.ok)
		fix_trace(f, "ok %s", p->t[st.tunnel].name);
	else
		fix_trace(f, "fail %s", l2s_fail_name(st.why));
	f->cur = &f->prof;
	return st;
}

static inline void fix_silent(struct fix *f, u8 lns)
{
	f->answer[lns].kind = L2S_OUT_NO_REPLY;
}

/* Lock @tunnel's destination of the fixture's profile for @ms. */
static inline void fix_lock(struct fix *f, int tunnel, u64 ms)
{
	f->dests[f->prof.t[tunnel].dest].lock_until = f->env.now + ms;
}

#endif /* L2S_TESTS_FIX_H */
