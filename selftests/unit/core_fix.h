/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fixture for the selection core's unit tests: one instance with static
 * tables, a seeded or pinned random source, an event log and a helper that
 * runs a whole login with scripted LNS answers.
 */
#ifndef L2S_CORE_FIX_H
#define L2S_CORE_FIX_H

#include <arpa/inet.h>

#include "unit.h"
#include "obj.h"
#include "env.h"
#include "sel.h"
#include "lb.h"
#include "hash.h"

#define FIX_DESTS	256
#define FIX_EVENTS	256

struct fix {
	struct l2s_core core;
	struct l2s_dest dests[FIX_DESTS];
	struct l2s_domain domains[16];
	struct l2s_profile prof;
	struct l2s_env env;
	u64 rng;
	int pins[16], npins, pin_at;	/* pinned draws, -1 = none */
	struct l2s_event ev[FIX_EVENTS];
	int nev;
	/* what each remote (by last IPv4 byte) answers; kind 0 = ok */
	struct l2s_outcome answer[256];
};

static inline u32 fix_rand(void *ctx, const struct l2s_draw *d)
{
	struct fix *f = ctx;
	u64 x;

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
	struct fix *f = ctx;

	if (f->nev < FIX_EVENTS)
		f->ev[f->nev++] = *ev;
}

/* @f is static (zeroed) or was set up before: its profile's array is freed. */
static inline void fix_init(struct fix *f, u64 seed)
{
	if (f->prof.t)
		l2s_profile_free(&f->core, &f->prof);
	memset(f, 0, sizeof(*f));
	l2s_core_init(&f->core, f->dests, FIX_DESTS, f->domains, 16);
	l2s_profile_init(&f->prof, "P");
	f->rng = seed ? seed : 88172645463325252ull;
	f->env.now = 1000000;
	f->env.rand = fix_rand;
	f->env.event = fix_event;
	f->env.ctx = f;
}

static inline struct l2s_dest_key fix_key(const char *remote, const char *local, u16 port)
{
	struct l2s_dest_key k;

	memset(&k, 0, sizeof(k));
	k.remote.family = 4;
	inet_pton(AF_INET, remote, k.remote.bytes);
	if (local) {
		k.local.family = 4;
		inet_pton(AF_INET, local, k.local.bytes);
	}
	k.port = port ? port : L2S_DEFAULT_PORT;
	return k;
}

/* Add a tunnel to @p; asserts success through the return value (>= 0). */
static inline int fix_tunnel(struct fix *f, struct l2s_profile *p, const char *name,
			     u32 level, const char *remote, u32 max)
{
	struct l2s_tunnel_conf tc = { .name = name, .level = level, .max_sessions = max };
	struct l2s_err err = { 0 };
	int rc;

	tc.dest = fix_key(remote, NULL, 0);
	rc = l2s_tunnel_add(&f->core, p, &tc, &err);
	if (rc < 0)
		UNIT_DIAG("tunnel_add %s: %s", name, err.msg);
	return rc;
}

/* The last IPv4 byte of a destination slot, the fixture's LNS id. */
static inline u8 fix_lns(const struct fix *f, u16 slot)
{
	return l2s_dest_at(&f->core, slot)->key.remote.bytes[3];
}

/* Run a login to the end; @trace gets "T1 T2 ..." of attempted tunnels. */
static inline struct l2s_step fix_login(struct fix *f, struct l2s_profile *p,
					u32 key, char *trace, size_t len)
{
	struct l2s_login lg;
	struct l2s_step st;
	int rc, guard = 0;

	if (trace)
		trace[0] = '\0';
	rc = l2s_sel_begin(&lg, &f->core, p, key, &f->env, &st);
	while (rc == L2S_STEP_ATTEMPT && guard++ < 1000) {
		struct l2s_outcome o = f->answer[fix_lns(f, st.dest)];

		if (!o.kind)
			o.kind = L2S_OUT_OK;
		if (trace) {
			size_t n = strlen(trace);

			snprintf(trace + n, len - n, "%s%s", n ? " " : "", p->t[st.tunnel].name);
		}
		rc = l2s_sel_report(&lg, &f->core, p, &o, &f->env, &st);
	}
	return st;
}

static inline void fix_silent(struct fix *f, u8 lns)
{
	f->answer[lns].kind = L2S_OUT_NO_REPLY;
}

#endif /* L2S_CORE_FIX_H */
