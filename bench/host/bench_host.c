// SPDX-License-Identifier: GPL-2.0
/*
 * The host half of `make bench` (scripts/bench.sh): every figure it prints
 * is measured next to a peer in the same process, interleaved, so that the
 * ratio holds on a noisy machine even where the absolute time does not.
 *
 *   bench-host {tiny|full} DIR
 *
 * writes whitespace-separated tables (one "#" header line each) to DIR:
 *
 *   core.tsv     ns per selection decision (l2s_sel_begin up to the first
 *                attempt) and the same decision by a naive linear scan
 *   hash.tsv     percent of keys moved when 1 of N members fails and when it
 *                returns, N = 2..31: plain hash, minmiss hash (core/hash.c)
 *                and the reference's MinMiss list (003) as read below
 *   rl.tsv       ns per rate-limit decision: token bucket (core/rl.c) and a
 *                fixed-window counter
 *   rlcurve.tsv  admitted vs offered rate, token bucket and fixed window, and
 *                the most each admitted in any 100 ms
 *
 * Nothing here is a test: it only measures.  The smoke test checks that it
 * runs and writes its tables.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hash.h"
#include "obj.h"
#include "rl.h"
#include "sel.h"

static bool tiny;
static const char *outdir;

static u64 rng = 88172645463325252ull;

static u64 xr64(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static u32 xbelow(u32 bound)
{
	return (u32)(((xr64() >> 32) * (u64)bound) >> 32);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static FILE *out(const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", outdir, name);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "bench-host: cannot write %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return f;
}

static volatile u32 sink;

/* ---- core decision: l2s_sel_begin against a naive linear scan ------------ */

static struct l2s_dest dests[256];
static struct l2s_profile prof;
static struct l2s_core core;

static u32 core_rand(void *ctx, const struct l2s_draw *d)
{
	(void)ctx;
	return xbelow(d->bound);
}

/* @levels levels of @per tunnels; tunnel i of every level leads to dest i. */
static void build(u32 levels, u32 per, u8 lb)
{
	struct l2s_tunnel_conf tc;
	char name[16], addr[32];
	u32 l, i;

	memset(dests, 0, sizeof(dests));
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
			if (l2s_tunnel_add(&core, &prof, &tc, NULL) < 0) {
				fprintf(stderr, "bench-host: cannot build the %ux%u profile\n", levels, per);
				exit(1);
			}
		}
	}
}

/*
 * With lockouts every destination but the last is locked, so the walk puts
 * them on DLNC (one tunnel: the S-SEL-9 restart unlocks it, hence the reset
 * before every decision, in both contenders).
 */
static u64 lock_until[32];

static void relock(void)
{
	u32 d;

	for (d = 0; d < prof.ndests; d++)
		dests[prof.pdest[d]].lock_until = lock_until[d];
}

static double time_project(u32 n, bool locked)
{
	struct l2s_env env = { .now = 1000, .rand = core_rand };
	struct l2s_login lg;
	struct l2s_step st;
	u32 i, acc = 0;
	double t0 = now_ns();

	for (i = 0; i < n; i++) {
		if (locked)
			relock();
		l2s_sel_begin(&lg, &core, &prof, i * 2654435761u, &env, &st);
		/* the attempt's place back: every decision sees the same counts */
		l2s_sel_end(&lg, &core, &prof);
		acc += st.tunnel;
	}
	sink = acc;
	return (now_ns() - t0) / n;
}

/*
 * The peer: what a first implementation would write.  Walk the tunnels in
 * level order; at the first level with a tunnel whose destination is not
 * locked and which is not full, pick among those (random, or key modulo the
 * candidates for the hash modes).  When every level is locked out, take the
 * tunnel whose lockout ends first.  It keeps no per-login state, so it cannot
 * fail over, count attempts or honour DLNC: the floor of a decision's cost.
 */
static int naive_pick(u32 key, u64 now, bool hash)
{
	u8 cand[L2S_TUNNELS_PER_PROFILE];
	u32 i = 0, n, best = 0;
	u64 soonest = ~0ull;

	while (i < prof.ntunnels) {
		u8 lvl = prof.t[i].level;

		n = 0;
		for (; i < prof.ntunnels && prof.t[i].level == lvl; i++) {
			const struct l2s_tunnel *t = &prof.t[i];
			const struct l2s_dest *d = &dests[t->dest];

			if (d->lock_until > now) {
				if (d->lock_until < soonest) {
					soonest = d->lock_until;
					best = i;
				}
				continue;
			}
			if (t->max_sessions && t->sessions >= t->max_sessions)
				continue;
			cand[n++] = (u8)i;
		}
		if (n)
			return cand[hash ? key % n : xbelow(n)];
	}
	return soonest != ~0ull ? (int)best : -1;
}

static double time_naive(u32 n, bool locked, bool hash)
{
	u32 i, acc = 0;
	double t0 = now_ns();

	for (i = 0; i < n; i++) {
		if (locked)
			relock();
		acc += (u32)naive_pick(i * 2654435761u, 1000, hash);
	}
	sink = acc;
	return (now_ns() - t0) / n;
}

static void bench_core(void)
{
	static const struct { u32 levels, per; const char *name; } shapes[] = {
		{ 1, 1, "1" }, { 8, 4, "8x4" }, { 8, 31, "8x31" },
	};
	static const struct { u8 lb; const char *name; bool hash; } modes[] = {
		{ L2S_LB_RANDOM, "random", false },
		{ L2S_LB_WEIGHTED, "weighted", false },
		{ L2S_LB_DEST_EQUAL, "destination-equal", false },
		{ L2S_LB_HASH, "hash", true },
		{ L2S_LB_MINMISS_HASH, "minmiss-hash", true },
	};
	u32 n = tiny ? 2000 : 200000, reps = tiny ? 2 : 7;
	FILE *f = out("core.tsv");
	size_t s, m;
	int locked;

	fprintf(f, "# tunnels lockouts lb project_ns naive_ns decisions best_of\n");
	for (s = 0; s < L2S_ARRAY_SIZE(shapes); s++) {
		for (locked = 0; locked < 2; locked++) {
			for (m = 0; m < L2S_ARRAY_SIZE(modes); m++) {
				double bp = 1e18, bn = 1e18, t;
				u32 r, d;

				build(shapes[s].levels, shapes[s].per, modes[m].lb);
				for (d = 0; d < 32; d++)
					lock_until[d] = locked && (d + 1 < prof.ndests || prof.ndests == 1) ?
							1000000 : 0;
				/* interleaved, best of @reps each: both see the same noise */
				for (r = 0; r < reps; r++) {
					t = time_project(n, locked);
					bp = t < bp ? t : bp;
					t = time_naive(n, locked, modes[m].hash);
					bn = t < bn ? t : bn;
				}
				fprintf(f, "%s %s %s %.1f %.1f %u %u\n", shapes[s].name,
					locked ? "yes" : "no", modes[m].name, bp, bn, n, reps);
			}
		}
	}
	fclose(f);
}

/* ---- hash disruption -------------------------------------------------- */

/*
 * The reference's MinMiss Hash (003), one reading of its text and figures,
 * implemented only here as a baseline.  A list of L entries is filled with
 * the members in turn (1 2 3 4 1 2 3 4 ...); a key goes to entry key % L.
 * When a member fails, "the positions of the other firewalls in the list do
 * not change ... the remaining firewalls are redistributed to the list
 * entries freed": its entries, in list order, are handed to the surviving
 * members in turn (the figure: 2 -> 1, 3, 4).  When it returns, "the list
 * ... is recalculated so that the smallest number of firewalls is affected.
 * However, the list of firewalls is not [restored]": it takes back its fair
 * share, L / N entries, one at a time from the member holding most entries
 * (ties: the lower member), that member's last entry in the list; not
 * necessarily the entries it held before.  L = 64 N, the project's slot
 * count, so that only the policy differs.
 */
#define REF_MAX (31 * L2S_MM_SLOTS_PER_MEMBER)

struct ref_list {
	u8 e[REF_MAX];
	u32 len, n;
};

static void ref_init(struct ref_list *r, u32 n)
{
	u32 i;

	r->n = n;
	r->len = n * L2S_MM_SLOTS_PER_MEMBER;
	for (i = 0; i < r->len; i++)
		r->e[i] = (u8)(i % n);
}

static void ref_fail(struct ref_list *r, u32 m)
{
	u32 i, next = 0;

	for (i = 0; i < r->len; i++) {
		if (r->e[i] != m)
			continue;
		if (next == m)
			next = (next + 1) % r->n;
		r->e[i] = (u8)next;
		next = (next + 1) % r->n;
	}
}

static void ref_return(struct ref_list *r, u32 m)
{
	u32 cnt[32] = { 0 }, i, j, have = 0;

	for (i = 0; i < r->len; i++)
		cnt[r->e[i]]++;
	have = cnt[m];
	while (have < r->len / r->n) {
		u32 top = m == 0 ? 1 : 0;

		for (j = 0; j < r->n; j++)
			if (j != m && cnt[j] > cnt[top])
				top = j;
		for (i = r->len; i-- > 0;)
			if (r->e[i] == top)
				break;
		r->e[i] = (u8)m;
		cnt[top]--;
		have++;
	}
}

static void bench_hash(void)
{
	u32 nk = tiny ? 10000 : 200000, n, i;
	u32 *keys = malloc(nk * sizeof(*keys));
	static struct ref_list ref;
	FILE *f = out("hash.tsv");
	char name[64];

	if (!keys)
		exit(1);
	for (i = 0; i < nk; i++) {
		int len = snprintf(name, sizeof(name), "subscriber%u@example.net", i);

		keys[i] = l2s_hash_key(name, (u32)len);
	}
	fprintf(f, "# N ideal_pct plain_loss plain_return minmiss_loss minmiss_return "
		   "ref_loss ref_return plain_cycle minmiss_cycle ref_cycle keys\n");
	for (n = 2; n <= 31; n++) {
		u32 fm = n / 2, all = (1u << n) - 1, down = all & ~(1u << fm);
		u32 pl = 0, pr = 0, ml = 0, mr = 0, rl = 0, rr = 0, pc = 0, mc = 0, rc = 0;
		static u8 ra[REF_MAX], rb[REF_MAX];

		ref_init(&ref, n);
		memcpy(ra, ref.e, ref.len);
		ref_fail(&ref, fm);
		memcpy(rb, ref.e, ref.len);
		ref_return(&ref, fm);
		for (i = 0; i < nk; i++) {
			int a = l2s_hash_pick(keys[i], n, all), b = l2s_hash_pick(keys[i], n, down);
			int a2 = l2s_hash_pick(keys[i], n, all);
			int c = l2s_minmiss_pick(keys[i], n, all), d = l2s_minmiss_pick(keys[i], n, down);
			int c2 = l2s_minmiss_pick(keys[i], n, all);
			u32 e = keys[i] % ref.len;

			pl += a != b;
			pr += b != a2;
			pc += a != a2;
			ml += c != d;
			mr += d != c2;
			mc += c != c2;
			rl += ra[e] != rb[e];
			rr += rb[e] != ref.e[e];
			rc += ra[e] != ref.e[e];
		}
#define PCT(x) ((x) * 100.0 / nk)
		fprintf(f, "%u %.2f %.2f %.2f %.2f %.2f %.2f %.2f %.2f %.2f %.2f %u\n", n, 100.0 / n,
			PCT(pl), PCT(pr), PCT(ml), PCT(mr), PCT(rl), PCT(rr), PCT(pc), PCT(mc),
			PCT(rc), nk);
#undef PCT
	}
	fclose(f);
	free(keys);
}

/* ---- rate limiter: token bucket against a fixed-window counter -------- */

/*
 * The peer: the simplest limiter there is, a counter reset every second.  It
 * admits the same average but lets 2x the rate through across a window edge;
 * the token bucket's extra arithmetic buys a bounded burst.
 */
struct fixed_window {
	u64 start;
	u32 count, rate;
};

static enum rl_verdict fw_admit(struct fixed_window *w, u64 now)
{
	if (now - w->start >= RL_NSEC_PER_SEC) {
		w->start = now;
		w->count = 0;
	}
	if (w->count >= w->rate)
		return RL_OVER;
	w->count++;
	return RL_PASS;
}

#define NLIM 65536

static void bench_rl(void)
{
	u32 n = tiny ? 200000 : 20000000, reps = tiny ? 2 : 5, r, i;
	struct rl_limiter *many = calloc(NLIM, sizeof(*many));
	struct fixed_window *fmany = calloc(NLIM, sizeof(*fmany));
	u32 *pick = malloc((size_t)n * sizeof(*pick));
	double hot = 1e18, fhot = 1e18, rnd = 1e18, frnd = 1e18, t0, t;
	FILE *f = out("rl.tsv");

	if (!many || !fmany || !pick)
		exit(1);
	for (i = 0; i < NLIM; i++) {
		rl_init(&many[i], 10 + i % 1000, 1 + i % 20, 0, NULL);
		fmany[i].rate = 10 + i % 1000;
	}
	for (i = 0; i < n; i++)
		pick[i] = (u32)(xr64() % NLIM);
	for (r = 0; r < reps; r++) {
		struct rl_limiter l;
		struct fixed_window w = { .rate = 1000000 };
		u64 ts = 0;
		u32 pass = 0;

		/* one limiter, 10x overloaded: passes and refusals mixed */
		rl_init(&l, 1000000, 100, 0, NULL);
		t0 = now_ns();
		for (i = 0; i < n; i++) {
			ts += 100;
			pass += rl_admit(&l, ts) == RL_PASS;
		}
		t = (now_ns() - t0) / n;
		hot = t < hot ? t : hot;
		ts = 0;
		t0 = now_ns();
		for (i = 0; i < n; i++) {
			ts += 100;
			pass += fw_admit(&w, ts) == RL_PASS;
		}
		t = (now_ns() - t0) / n;
		fhot = t < fhot ? t : fhot;
		/* 64k limiters, one at random per decision: cache misses included */
		ts = 0;
		t0 = now_ns();
		for (i = 0; i < n; i++) {
			ts += 1000;
			pass += rl_admit(&many[pick[i]], ts) == RL_PASS;
		}
		t = (now_ns() - t0) / n;
		rnd = t < rnd ? t : rnd;
		ts = 0;
		t0 = now_ns();
		for (i = 0; i < n; i++) {
			ts += 1000;
			pass += fw_admit(&fmany[pick[i]], ts) == RL_PASS;
		}
		t = (now_ns() - t0) / n;
		frnd = t < frnd ? t : frnd;
		sink = pass;
	}
	fprintf(f, "# case token_bucket_ns fixed_window_ns decisions best_of\n");
	fprintf(f, "one-limiter-10x-overload %.2f %.2f %u %u\n", hot, fhot, n, reps);
	fprintf(f, "65536-limiters-at-random %.2f %.2f %u %u\n", rnd, frnd, n, reps);
	fclose(f);
	free(many);
	free(fmany);
	free(pick);
}

/*
 * The most requests admitted in any 100 ms: a limiter that lets its whole
 * second through at once shows here, not in the average.
 */
#define PEAK_NS		(100 * RL_NSEC_PER_MSEC)
#define PEAK_RING	(1u << 16)

struct peak {
	u64 t[PEAK_RING];
	u32 head, tail, max;
};

static void peak_add(struct peak *p, u64 t)
{
	while (p->head != p->tail && p->t[p->tail % PEAK_RING] + PEAK_NS <= t)
		p->tail++;
	p->t[p->head++ % PEAK_RING] = t;
	if (p->head - p->tail > p->max)
		p->max = p->head - p->tail;
}

struct offer_result {
	u32 offered, tb_pass, fw_pass, tb_peak, fw_peak;
};

/* Offer @factor x @rate for @secs as a Poisson stream to both limiters. */
static void offer(u32 rate, u32 burst, double factor, u32 secs, struct offer_result *r)
{
	static struct peak tp, fp;
	struct rl_limiter l;
	struct fixed_window w = { .rate = rate };
	double mean = 1e9 / (rate * factor), at = 0;
	u64 end = (u64)secs * RL_NSEC_PER_SEC;

	memset(r, 0, sizeof(*r));
	memset(&tp, 0, sizeof(tp));
	memset(&fp, 0, sizeof(fp));
	rl_init(&l, rate, burst, 0, NULL);
	for (;;) {
		u64 t = (u64)at;

		if (t >= end)
			break;
		r->offered++;
		if (rl_admit(&l, t) == RL_PASS) {
			r->tb_pass++;
			peak_add(&tp, t);
		}
		if (fw_admit(&w, t) == RL_PASS) {
			r->fw_pass++;
			peak_add(&fp, t);
		}
		at += -log(((xr64() >> 11) + 1) * (1.0 / 9007199254740993.0)) * mean;
	}
	r->tb_peak = tp.max;
	r->fw_peak = fp.max;
}

static void bench_rlcurve(void)
{
	static const double factor[] = {
		0.25, 0.5, 0.75, 0.9, 1.0, 1.1, 1.25, 1.5, 2, 3, 4, 5, 7.5, 10,
	};
	const u32 rate = 1000, burst = 10, secs = tiny ? 2 : 20;
	FILE *f = out("rlcurve.tsv");
	struct offer_result r;
	u32 i;

	fprintf(f, "# offered_x offered_per_s token_bucket_per_s fixed_window_per_s limit_per_s "
		   "burst secs token_bucket_peak_100ms fixed_window_peak_100ms (Poisson arrivals)\n");
	for (i = 0; i < L2S_ARRAY_SIZE(factor); i++) {
		offer(rate, burst, factor[i], secs, &r);
		fprintf(f, "%.2f %.1f %.1f %.1f %u %u %u %u %u\n", factor[i],
			(double)r.offered / secs, (double)r.tb_pass / secs, (double)r.fw_pass / secs,
			rate, burst, secs, r.tb_peak, r.fw_peak);
	}
	fclose(f);
}

int main(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[1], "tiny") && strcmp(argv[1], "full"))) {
		fprintf(stderr, "usage: bench-host {tiny|full} DIR\n");
		return 2;
	}
	tiny = !strcmp(argv[1], "tiny");
	outdir = argv[2];
	bench_core();
	bench_hash();
	bench_rl();
	bench_rlcurve();
	return 0;
}
