// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark of the selection core (figures, not a test): nanoseconds per
 * decision (l2s_sel_begin() up to the first attempt) for 1, 8x4 and 8x31
 * tunnels, with and without lockouts, per load-balancing mode; then the hash
 * disruption table for plain and minmiss hash; then nanoseconds per domain
 * map lookup (l2s_domain_lookup()) for 1 to 100000 domains.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hash.h"
#include "obj.h"
#include "sel.h"

static struct l2s_dest dests[256];
static struct l2s_profile prof;
static struct l2s_core core;
static u64 rng = 88172645463325252ull;

static u32 xrand(void *ctx, const struct l2s_draw *d)
{
	(void)ctx;
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (u32)(((rng >> 32) * (u64)d->bound) >> 32);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* @levels levels of @per tunnels; tunnel i of every level leads to dest i. */
static void build(u32 levels, u32 per, u8 lb)
{
	struct l2s_tunnel_conf tc;
	char name[16], addr[32];
	u32 l, i;

	if (prof.t)
		l2s_profile_free(&core, &prof);
	l2s_core_init(&core, dests, 256);
	l2s_profile_init(&prof, "B");
	prof.lb = lb;
	for (l = 0; l < levels; l++) {
		for (i = 0; i < per; i++) {
			memset(&tc, 0, sizeof(tc));
			snprintf(name, sizeof(name), "T%u.%u", l, i);
			snprintf(addr, sizeof(addr), "10.0.0.%u", i + 1);
			tc.name = name;
			tc.level = l;
			tc.max_sessions = 100000;
			tc.dest.remote.family = 4;
			inet_pton(AF_INET, addr, tc.dest.remote.bytes);
			tc.dest.port = 1701;
			if (l2s_tunnel_add(&core, &prof, &tc, NULL) < 0)
				exit(1);
		}
	}
}

static double bench(u32 levels, u32 per, u8 lb, bool locked)
{
	struct l2s_env env = { .now = 1000, .rand = xrand };
	u64 until[32] = { 0 };
	struct l2s_login lg;
	struct l2s_step st;
	u32 i, r, n = 100000;
	double t0, t1, best = 1e18;

	build(levels, per, lb);
	/* With lockouts: every destination but the last is locked, so the walk
	 * puts them on DLNC at every level (one tunnel: S-SEL-9 restart).
	 */
	if (locked)
		for (i = 0; i < prof.ndests; i++)
			until[i] = (i + 1 < prof.ndests || prof.ndests == 1) ? 1000000 : 0;
	/* best of five runs: the figures are for a quiet machine */
	for (r = 0; r < 5; r++) {
		t0 = now_ns();
		for (i = 0; i < n; i++) {
			u32 d;

			if (locked)
				for (d = 0; d < prof.ndests; d++)
					dests[prof.pdest[d]].lock_until = until[d];
			l2s_sel_begin(&lg, &core, &prof, i * 2654435761u, &env, &st);
			/* the attempt's place back: every decision sees the same counts */
			l2s_sel_end(&lg, &core, &prof);
		}
		t1 = now_ns();
		if ((t1 - t0) / n < best)
			best = (t1 - t0) / n;
	}
	return best;
}

static void disruption(void)
{
	static u32 keys[100000];
	u32 n, i, nk = 100000;
	char name[64];

	for (i = 0; i < nk; i++) {
		int len = snprintf(name, sizeof(name), "subscriber%u@example.net", i);

		keys[i] = l2s_hash_key(name, (u32)len);
	}
	printf("\nhash disruption, %u keys, member N/2 lost then back (percent of keys moved)\n", nk);
	printf("%3s %8s %12s %12s %14s %14s\n", "N", "1/N", "plain-loss", "plain-return",
	       "minmiss-loss", "minmiss-return");
	for (n = 2; n <= 31; n++) {
		u32 all = (1u << n) - 1, down = all & ~(1u << (n / 2));
		u32 pl = 0, pr = 0, ml = 0, mr = 0;

		for (i = 0; i < nk; i++) {
			int a = l2s_hash_pick(keys[i], n, all), b = l2s_hash_pick(keys[i], n, down);
			int c = l2s_minmiss_pick(keys[i], n, all), d = l2s_minmiss_pick(keys[i], n, down);

			pl += a != b;
			pr += b != l2s_hash_pick(keys[i], n, all);
			ml += c != d;
			mr += d != l2s_minmiss_pick(keys[i], n, all);
		}
		printf("%3u %8.2f %12.2f %12.2f %14.2f %14.2f\n", n, 100.0 / n,
		       pl * 100.0 / nk, pr * 100.0 / nk, ml * 100.0 / nk, mr * 100.0 / nk);
	}
}

/*
 * ns per l2s_domain_lookup() of "user@dI.example" over a map of @n domains,
 * the domains taken in a scattered order (hits), or one not in the map.
 */
static double domain_lookup(u32 n, bool hit)
{
	static char users[4096][64];
	u32 i, r, k = 1000000;
	double t0, t1, best = 1e18;
	const char *p = NULL;
	char name[64];

	l2s_core_init(&core, NULL, 0);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "d%u.example", i);
		if (l2s_domain_add(&core, name, "P", NULL) < 0)
			exit(1);
	}
	for (i = 0; i < 4096; i++)
		snprintf(users[i], sizeof(users[i]), "user%u@d%u.example", i,
			 hit ? (u32)((i * 2654435761u) % n) : n + i);
	for (r = 0; r < 5; r++) {
		t0 = now_ns();
		for (i = 0; i < k; i++)
			p = l2s_domain_lookup(&core, users[i % 4096]);
		t1 = now_ns();
		if ((t1 - t0) / k < best)
			best = (t1 - t0) / k;
	}
	if (!p != !hit)
		exit(1);
	l2s_core_release(&core);
	return best;
}

int main(void)
{
	static const u32 ndomains[] = { 1, 10, 1000, 10000, 100000 };
	static const struct { u32 levels, per; const char *name; } shapes[] = {
		{ 1, 1, "1" }, { 8, 4, "8x4" }, { 8, 31, "8x31" },
	};
	static const u8 modes[] = {
		L2S_LB_RANDOM, L2S_LB_WEIGHTED, L2S_LB_DEST_EQUAL, L2S_LB_HASH, L2S_LB_MINMISS_HASH,
	};
	static const char *const mode_names[] = {
		"random", "weighted", "destination-equal", "hash", "minmiss-hash",
	};
	size_t s, m;

	printf("ns per decision (l2s_sel_begin to the first attempt), best of 5 x 100000 decisions\n");
	printf("%-8s %-18s %14s %14s\n", "tunnels", "lb", "no lockouts", "lockouts");
	for (s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++)
		for (m = 0; m < sizeof(modes); m++)
			printf("%-8s %-18s %14.1f %14.1f\n", shapes[s].name, mode_names[m],
			       bench(shapes[s].levels, shapes[s].per, modes[m], false),
			       bench(shapes[s].levels, shapes[s].per, modes[m], true));
	disruption();
	printf("\nns per domain lookup (l2s_domain_lookup, core/dmap.c), best of 5 x 1000000\n");
	printf("%-8s %10s %10s\n", "domains", "hit", "miss");
	for (s = 0; s < sizeof(ndomains) / sizeof(ndomains[0]); s++)
		printf("%-8u %10.1f %10.1f\n", ndomains[s], domain_lookup(ndomains[s], true),
		       domain_lookup(ndomains[s], false));
	return 0;
}
