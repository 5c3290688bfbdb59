// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark of rate limiting (figures, not a test): nanoseconds per limiter
 * decision (one hot limiter; 64k limiters touched at random, as per-peer
 * limiters in the kernel would be; a throttle update), then the
 * admitted-vs-offered table: one line per point, whitespace-separated
 * columns under a "#" header, for plotting.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "rl.h"

#define NLIM	65536

static u64 rng = 88172645463325252ull;

static u64 xrand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static double wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static volatile u32 sink;

/* One limiter, 10x overloaded: passes and refusals mixed as under a storm. */
static void bench_hot(u32 n)
{
	struct rl_limiter l;
	u64 t = 0;
	u32 i, pass = 0;
	double t0;

	rl_init(&l, 1000000, 100, 0, NULL);
	t0 = wall_ns();
	for (i = 0; i < n; i++) {
		t += 100;	/* 10M offers/s against 1M/s */
		pass += rl_admit(&l, t) == RL_PASS;
	}
	printf("rl_admit, one limiter, 10x overload     %6.2f ns/decision  (%u of %u passed)\n",
	       (wall_ns() - t0) / n, pass, n);
	sink = pass;
}

/* 64k limiters (2 MiB), one picked at random per decision: cache misses included. */
static void bench_many(u32 n)
{
	struct rl_limiter *l = calloc(NLIM, sizeof(*l));
	u32 *pick = malloc(n * sizeof(*pick));
	u64 t = 0;
	u32 i, pass = 0;
	double t0;

	if (!l || !pick)
		exit(1);
	for (i = 0; i < NLIM; i++)
		rl_init(&l[i], 10 + i % 1000, 1 + i % 20, 0, NULL);
	for (i = 0; i < n; i++)
		pick[i] = (u32)(xrand() % NLIM);
	t0 = wall_ns();
	for (i = 0; i < n; i++) {
		t += 1000;
		pass += rl_admit(&l[pick[i]], t) == RL_PASS;
	}
	printf("rl_admit, %u limiters at random      %6.2f ns/decision  (%zu bytes each)\n",
	       NLIM, (wall_ns() - t0) / n, sizeof(*l));
	sink = pass;
	free(l);
	free(pick);
}

static void bench_throttle(u32 n)
{
	struct rl_throttle_conf c = {
		.hold_ms = 30000, .step = 20, .nbands = 3,
		.band = { { 50, 30 }, { 60, 40 }, { 65, 50 } },
	};
	struct rl_throttle th;
	u64 t = 0;
	u32 i, sum = 0;
	double t0;

	rl_throttle_init(&th, &c, NULL);
	t0 = wall_ns();
	for (i = 0; i < n; i++) {
		t += RL_NSEC_PER_SEC;
		sum += rl_throttle_update(&th, (u32)(xrand() % 80), t, NULL);
	}
	printf("rl_throttle_update, 3 bands, 1 s apart  %6.2f ns/update\n", (wall_ns() - t0) / n);
	sink = sum;
}

/*
 * Offer @factor × rate for @secs, evenly spaced or as a Poisson stream, with
 * the limiter throttled by @throttle %; returns the number passed.
 */
static u32 run(u32 rate, u32 burst, u32 throttle, double factor, u32 secs, bool poisson,
	       u32 *offered)
{
	struct rl_limiter l;
	double mean = 1e9 / (rate * factor), at = 0;
	u64 end = (u64)secs * RL_NSEC_PER_SEC;
	u32 n = 0, pass = 0;

	rl_init(&l, rate, burst, 0, NULL);
	rl_set_throttle(&l, throttle, 0);
	for (;;) {
		u64 t = (u64)at;

		if (t >= end)
			break;
		n++;
		pass += rl_admit(&l, t) == RL_PASS;
		if (poisson)
			at += -log(((xrand() >> 11) + 1) * (1.0 / 9007199254740993.0)) * mean;
		else
			at += mean;
	}
	*offered = n;
	return pass;
}

static void table(void)
{
	static const double factor[] = {
		0.5, 0.75, 0.9, 1.0, 1.1, 1.25, 1.5, 2, 3, 4, 5, 7.5, 10,
	};
	static const struct {
		const char *name;
		bool poisson;
		u32 burst, throttle;
	} series[] = {
		{ "even", false, 10, 0 },
		{ "poisson", true, 10, 0 },
		{ "poisson-burst100", true, 100, 0 },
		{ "even-throttle40", false, 10, 40 },
	};
	const u32 rate = 1000, secs = 10;
	u32 s, i, offered, pass;

	printf("\n# admitted vs offered: limit %u/s, %u s simulated from a full bucket\n", rate, secs);
	printf("# series burst throttle_pct offered_x offered_per_s admitted_per_s admitted_per_limit\n");
	for (s = 0; s < L2S_ARRAY_SIZE(series); s++) {
		for (i = 0; i < L2S_ARRAY_SIZE(factor); i++) {
			pass = run(rate, series[s].burst, series[s].throttle, factor[i], secs,
				   series[s].poisson, &offered);
			printf("%-16s %4u %3u %5.2f %8.1f %8.1f %6.3f\n", series[s].name,
			       series[s].burst, series[s].throttle, factor[i],
			       (double)offered / secs, (double)pass / secs,
			       (double)pass / secs / rate);
		}
	}
}

int main(void)
{
	printf("# l2tpsel rate limiting benchmark (core/rl.c, userspace, -O2)\n");
	bench_hot(50000000);
	bench_many(20000000);
	bench_throttle(20000000);
	table();
	return 0;
}
