// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of rate limiting (core/rl.c): SPEC §5, S-RL-1..4, and the
 * worked example of reference 004 ("Dynamischer Ratengrenzwert").  Time is
 * simulated and given in milliseconds (MS()) or nanoseconds.
 */
#include <stdlib.h>

#include "unit.h"
#include "rl.h"

#define MS(x) ((u64)(x) * RL_NSEC_PER_MSEC)
#define SEC(x) ((u64)(x) * RL_NSEC_PER_SEC)

/* Offer @n requests evenly from @t0 to before @t0 + @span (ns); returns how many passed. */
static u32 offer(struct rl_limiter *l, u32 n, u64 t0, u64 span)
{
	u32 i, pass = 0;

	for (i = 0; i < n; i++)
		pass += rl_admit(l, t0 + span * i / n) == RL_PASS;
	return pass;
}

/* The S-RL-4 profile: hold 30 s, step 20 %, bands >=50 → 30, >=60 → 40, >=65 → 50. */
static void rl4_conf(struct rl_throttle_conf *c)
{
	memset(c, 0, sizeof(*c));
	c->hold_ms = 30000;
	c->step = 20;
	c->nbands = 3;
	c->band[0] = (struct rl_band){ 50, 30 };
	c->band[1] = (struct rl_band){ 60, 40 };
	c->band[2] = (struct rl_band){ 65, 50 };
}

/* Push @load at @t (ms), apply the throttle to @l, check the effective limit. */
#define STEP(t, load, want_limit, want_changed) do {				\
	bool _ch;								\
	u32 _p = rl_throttle_update(&th, (load), MS(t), &_ch);			\
	rl_set_throttle(&l, _p, MS(t));						\
	EXPECT_EQ(rl_effective_rate(l.rate, l.throttle), (want_limit));		\
	EXPECT_EQ(_ch, (want_changed));						\
} while (0)
#define TICK(t, want_limit, want_changed) do {					\
	bool _ch;								\
	u32 _p = rl_throttle_tick(&th, MS(t), &_ch);				\
	rl_set_throttle(&l, _p, MS(t));						\
	EXPECT_EQ(rl_effective_rate(l.rate, l.throttle), (want_limit));		\
	EXPECT_EQ(_ch, (want_changed));						\
} while (0)

/*
 * S-RL-4, S-RL-3: the 004 example step by step: 600, 600, 800, 700, 500,
 * 700, 900, 1000.  The revert steps fall due exactly one hold time after the
 * load went below the lowest band, not a millisecond before.
 */
UNIT_TEST(rl4_reference_example)
{
	struct rl_throttle_conf c;
	struct rl_throttle th;
	struct rl_limiter l;
	u64 when;

	rl4_conf(&c);
	ASSERT_EQ(rl_throttle_init(&th, &c, NULL), 0);
	ASSERT_EQ(rl_init(&l, 1000, 100, 0, NULL), 0);
	STEP(0, 40, 1000, false);		/* below the threshold: no throttle */
	STEP(1000, 62, 600, true);		/* 62 % → 40 %, 600 */
	STEP(5000, 60, 600, false);		/* 60–65 % → still 600 */
	STEP(10000, 64, 600, false);
	STEP(15000, 61, 600, false);
	STEP(20000, 49, 600, false);		/* 49 %: the revert begins */
	EXPECT_TRUE(rl_throttle_next_step(&th, &when));
	EXPECT_EQ(when, MS(50000));
	STEP(45000, 30, 600, false);		/* lower still: the hold goes on */
	TICK(49999, 600, false);		/* 29.999 s: not yet */
	TICK(50000, 800, true);			/* 30 s at <= 49 %: 40 − 20 = 20 %, 800 */
	STEP(60000, 57, 700, true);		/* 57 % → 30 %, 700 */
	STEP(70000, 67, 500, true);		/* 67 % → 50 %, 500 */
	STEP(80000, 55, 700, true);		/* 55 % → 30 %, 700 */
	STEP(90000, 49, 700, false);
	TICK(119999, 700, false);
	TICK(120000, 900, true);		/* 30 − 20 = 10 %, 900 */
	STEP(130000, 45, 900, false);		/* still below: the hold goes on */
	TICK(149999, 900, false);
	TICK(150000, 1000, true);		/* 10 − 20 → 0, 1000: revert complete */
	EXPECT_TRUE(!rl_throttle_next_step(&th, &when));
	TICK(300000, 1000, false);
}

/*
 * S-RL-4, S-RL-3: the band edges of the S-RL-4 table.  "zwischen 60 und
 * 65 %" keeps 40 % for 60 <= load < 65; 65 itself is in the >=65 band.
 */
UNIT_TEST(rl4_band_edges)
{
	static const struct { u8 load, percent; } want[] = {
		{ 0, 0 }, { 49, 0 }, { 50, 30 }, { 59, 30 }, { 60, 40 }, { 64, 40 },
		{ 65, 50 }, { 100, 50 }, { 255, 50 },
	};
	struct rl_throttle_conf c;
	struct rl_throttle th;
	u32 i;

	rl4_conf(&c);
	ASSERT_EQ(rl_throttle_init(&th, &c, NULL), 0);
	for (i = 0; i < L2S_ARRAY_SIZE(want); i++) {
		/* From a band, or from below right after going there: the percent is set at once. */
		EXPECT_EQ(rl_throttle_update(&th, want[i].load, SEC(i), NULL), want[i].percent);
	}
}

/*
 * S-RL-3: the hold counts only time spent below the lowest band: a visit to
 * a band restarts it; several hold times passed between calls give several
 * steps at once; the step never takes the percent below 0.
 */
UNIT_TEST(rl3_hold_restarts_and_multi_step)
{
	struct rl_throttle_conf c;
	struct rl_throttle th;
	bool ch;

	rl4_conf(&c);
	ASSERT_EQ(rl_throttle_init(&th, &c, NULL), 0);
	EXPECT_EQ(rl_throttle_update(&th, 70, MS(0), &ch), 50);
	EXPECT_TRUE(ch);
	EXPECT_EQ(rl_throttle_update(&th, 10, MS(1000), &ch), 50);	/* hold from 1 s */
	EXPECT_EQ(rl_throttle_tick(&th, MS(21000), &ch), 50);
	EXPECT_EQ(rl_throttle_update(&th, 52, MS(21000), &ch), 30);	/* into a band: 30 */
	EXPECT_TRUE(ch);
	EXPECT_EQ(rl_throttle_update(&th, 10, MS(22000), &ch), 30);	/* hold from 22 s */
	EXPECT_EQ(rl_throttle_tick(&th, MS(51999), &ch), 30);
	EXPECT_TRUE(!ch);
	EXPECT_EQ(rl_throttle_tick(&th, MS(52000), &ch), 10);
	EXPECT_TRUE(ch);
	EXPECT_EQ(rl_throttle_tick(&th, MS(82000), &ch), 0);		/* 10 − 20 stops at 0 */

	/* 50 % and 95 s below without a call in between: three steps, 50 → 30 → 10 → 0. */
	EXPECT_EQ(rl_throttle_update(&th, 99, MS(100000), &ch), 50);
	EXPECT_EQ(rl_throttle_update(&th, 0, MS(100000), &ch), 50);
	EXPECT_EQ(rl_throttle_tick(&th, MS(129999), &ch), 50);
	EXPECT_EQ(rl_throttle_tick(&th, MS(195000), &ch), 0);
	EXPECT_TRUE(ch);
	/* A tick with the load in a band changes nothing. */
	EXPECT_EQ(rl_throttle_update(&th, 60, MS(200000), &ch), 40);
	EXPECT_EQ(rl_throttle_tick(&th, MS(900000), &ch), 40);
	EXPECT_TRUE(!ch);
}

/* S-RL-3: a live profile changed: the last load is judged against the new bands. */
UNIT_TEST(rl3_reconf)
{
	struct rl_throttle_conf c, c2;
	struct rl_throttle th;
	struct l2s_err err = { 0 };

	rl4_conf(&c);
	ASSERT_EQ(rl_throttle_init(&th, &c, NULL), 0);
	EXPECT_EQ(rl_throttle_update(&th, 62, MS(0), NULL), 40);
	c2 = c;
	c2.band[1].percent = 45;
	EXPECT_EQ(rl_throttle_reconf(&th, &c2, MS(1000), &err), 0);
	EXPECT_EQ(th.percent, 45);
	c2.band[1].load = 70;	/* not increasing: refused, nothing changes */
	EXPECT_EQ(rl_throttle_reconf(&th, &c2, MS(2000), &err), -EINVAL);
	EXPECT_EQ(th.percent, 45);
	EXPECT_EQ(th.conf.band[1].load, 60);
}

/*
 * S-RL-1: a fresh limiter passes exactly its burst at t=0, then the rate.
 * Offered at 2× and 10× the limit for 10 s, the admitted count is exactly
 * burst + floor(rate × t_last) and within ±1 % of the limit.
 */
UNIT_TEST(rl1_admitted_rate_2x_10x)
{
	static const u32 factor[] = { 2, 10 };
	struct rl_limiter l;
	u32 i, k, pass;

	for (i = 0; i < L2S_ARRAY_SIZE(factor); i++) {
		u32 rate = 1000, burst = 10, n = rate * factor[i] * 10;
		u64 gap = SEC(10) / n, last = gap * (n - 1);

		ASSERT_EQ(rl_init(&l, rate, burst, 0, NULL), 0);
		pass = 0;
		for (k = 0; k < n; k++)
			pass += rl_admit(&l, gap * k) == RL_PASS;
		EXPECT_EQ(pass, burst + rate * last / RL_NSEC_PER_SEC);
		EXPECT_TRUE(pass >= 9900 && pass <= 10100);
		UNIT_DIAG("offered %u/s for 10 s at 1000/s burst 10: %u passed", n / 10, pass);
	}
	/* Exactly the burst at one instant, then nothing until a token is earned. */
	ASSERT_EQ(rl_init(&l, 1000, 50, SEC(5), NULL), 0);
	EXPECT_EQ(offer(&l, 500, SEC(5), 0), 50);
	EXPECT_EQ(rl_admit(&l, SEC(5) + MS(1) - 1), RL_OVER);
	EXPECT_EQ(rl_admit(&l, SEC(5) + MS(1)), RL_PASS);
	EXPECT_EQ(rl_admit(&l, SEC(5) + MS(1)), RL_OVER);
}

/* S-RL-1: offered below the limit, everything passes. */
UNIT_TEST(rl1_below_limit_all_pass)
{
	struct rl_limiter l;

	ASSERT_EQ(rl_init(&l, 1000, 1, 0, NULL), 0);
	EXPECT_EQ(offer(&l, 5000, 0, SEC(10)), 5000);		/* 0.5× */
	EXPECT_EQ(offer(&l, 10000, SEC(10), SEC(10)), 10000);	/* 1×, evenly spaced, burst 1 */
}

/*
 * S-RL-1: no drift over long runs: a rate whose interval is no whole number
 * of nanoseconds (7/s), offered once a millisecond for 1000 s, passes
 * exactly burst + floor(7 × t_last) (burst 2: a bucket of 1 would spill the
 * part of a token earned between reaching 1 and the next offer); idle for a century, the bucket is full,
 * not overflowed.
 */
UNIT_TEST(rl1_exact_long_run)
{
	struct rl_limiter l;
	u64 t, century = SEC(100ull * 365 * 86400);
	u32 pass = 0;

	ASSERT_EQ(rl_init(&l, 7, 2, 0, NULL), 0);
	for (t = 0; t < SEC(1000); t += MS(1))
		pass += rl_admit(&l, t) == RL_PASS;
	EXPECT_EQ(pass, 2 + 6999);	/* t_last = 999.999 s: 6999.993 earned */
	ASSERT_EQ(rl_init(&l, RL_RATE_MAX, RL_BURST_MAX, 0, NULL), 0);
	EXPECT_EQ(offer(&l, RL_BURST_MAX + 5, 0, 0), RL_BURST_MAX);
	EXPECT_EQ(offer(&l, RL_BURST_MAX + 5, century, 0), RL_BURST_MAX);
	ASSERT_EQ(rl_init(&l, 1, 1, 0, NULL), 0);
	EXPECT_EQ(offer(&l, 3, century, 0), 1);
	/* Time that steps back counts as none, and is not taken as a huge gap. */
	EXPECT_EQ(rl_admit(&l, century - SEC(10)), RL_OVER);
	EXPECT_EQ(rl_admit(&l, century + SEC(1)), RL_PASS);
}

/*
 * S-RL-3, S-RL-1: a throttle change keeps what the bucket earned before it
 * (tokens are neither created nor lost), then refills at the effective rate;
 * 100 % passes nothing at all; a rate change keeps the tokens up to the new
 * depth.
 */
UNIT_TEST(rl3_throttle_keeps_bucket)
{
	struct rl_limiter l;
	struct l2s_err err = { 0 };

	ASSERT_EQ(rl_init(&l, 1000, 100, 0, NULL), 0);
	EXPECT_EQ(offer(&l, 100, 0, 0), 100);		/* empty at t=0 */
	rl_set_throttle(&l, 40, MS(50));		/* 50 tokens earned at 1000/s */
	EXPECT_EQ(offer(&l, 60, MS(50), 0), 50);
	EXPECT_EQ(offer(&l, 10, MS(60), 0), 6);		/* 10 ms at 600/s */
	EXPECT_EQ(offer(&l, 5000, MS(70), SEC(10)), 5000);	/* 500/s < 600/s: all pass */
	rl_set_throttle(&l, 100, SEC(20));
	EXPECT_EQ(offer(&l, 10, SEC(20), SEC(1)), 0);
	rl_set_throttle(&l, 0, SEC(21));
	EXPECT_EQ(offer(&l, 200, SEC(21), 0), 100);	/* full again, nothing more */
	EXPECT_EQ(rl_set_rate(&l, 2000, 10, SEC(30), &err), 0);
	EXPECT_EQ(offer(&l, 20, SEC(30), 0), 10);
	EXPECT_EQ(offer(&l, 5, SEC(30) + MS(1), 0), 2);
	EXPECT_EQ(rl_set_rate(&l, 0, 10, SEC(31), &err), -ERANGE);
	EXPECT_EQ(l.rate, 2000);
}

/* S-RL-1, S-RL-3: bad configuration is refused, and the message names the bound. */
UNIT_TEST(rl_bad_config_refused)
{
	static const struct {
		u32 rate, burst;
		const char *msg;
	} lims[] = {
		{ 0, 10, "rate 0: must be 1..10000000 requests per second" },
		{ 10000001, 10, "rate 10000001: must be 1..10000000 requests per second" },
		{ 10, 0, "burst 0: must be 1..1000000 requests" },
		{ 10, 1000001, "burst 1000001: must be 1..1000000 requests" },
	};
	struct rl_throttle_conf good, c;
	struct rl_throttle th;
	struct rl_limiter l;
	struct l2s_err err;
	u32 i;

	for (i = 0; i < L2S_ARRAY_SIZE(lims); i++) {
		memset(&err, 0, sizeof(err));
		EXPECT_EQ(rl_init(&l, lims[i].rate, lims[i].burst, 0, &err), -ERANGE);
		EXPECT_STREQ(err.msg, lims[i].msg);
	}
	EXPECT_EQ(rl_init(&l, 1, 1, 0, NULL), 0);
	EXPECT_EQ(rl_init(&l, RL_RATE_MAX, RL_BURST_MAX, 0, NULL), 0);

	rl4_conf(&good);
#define BAD(edit, rc, text) do {						\
		c = good;							\
		edit;								\
		memset(&err, 0, sizeof(err));					\
		EXPECT_EQ(rl_throttle_init(&th, &c, &err), rc);			\
		EXPECT_STREQ(err.msg, text);					\
	} while (0)
	BAD(c.hold_ms = 0, -ERANGE, "hold time 0 ms: must be 1..86400000 ms");
	BAD(c.hold_ms = 86400001, -ERANGE, "hold time 86400001 ms: must be 1..86400000 ms");
	BAD(c.step = 0, -ERANGE, "revert step 0 %: must be 1..100 %");
	BAD(c.step = 101, -ERANGE, "revert step 101 %: must be 1..100 %");
	BAD(c.nbands = 0, -ERANGE, "0 bands: a throttle has 1..8 bands");
	BAD(c.nbands = 9, -ERANGE, "9 bands: a throttle has 1..8 bands");
	BAD(c.band[0].load = 0, -ERANGE, "band 1: load threshold 0 %: must be 1..100 %");
	BAD(c.band[2].load = 101, -ERANGE, "band 3: load threshold 101 %: must be 1..100 %");
	BAD(c.band[2].percent = 101, -ERANGE, "band 3: throttle 101 %: must be 0..100 %");
	BAD(c.band[1].load = 50, -EINVAL,
	    "band 2: load threshold 50 % is not above the previous band's 50 %: thresholds must increase");
	BAD(c.band[2].load = 55, -EINVAL,
	    "band 3: load threshold 55 % is not above the previous band's 60 %: thresholds must increase");
	BAD(c.band[2].percent = 35, -EINVAL,
	    "band 3: throttle 35 % is below the previous band's 40 %: a higher load must not throttle less");
#undef BAD
	c = good;
	c.step = 100;
	c.band[2].percent = 100;
	EXPECT_EQ(rl_throttle_init(&th, &c, NULL), 0);
}

static u64 xs = 0x9e3779b97f4a7c15ull;

static u32 rnd(u32 bound)
{
	xs ^= xs << 13;
	xs ^= xs >> 7;
	xs ^= xs << 17;
	return (u32)(((xs >> 32) * (u64)bound) >> 32);
}

/*
 * S-RL-1, S-RL-3 property: over random rates, bursts, arrival patterns and
 * throttle changes, no window [a, b] between two passed requests holds more
 * than burst + the tokens earned in it (the integral of the effective rate
 * over the window, never more than rate × (b − a)).
 */
UNIT_TEST(rl_prop_window_bound)
{
	enum { RUNS = 300, MAXPASS = 1500 };
	static u64 at[MAXPASS], earned_at[MAXPASS];
	u32 run, bad = 0;

	for (run = 0; run < RUNS; run++) {
		u32 rate = 1 + rnd(run % 3 ? 5000 : 1000000);
		u32 burst = 1 + rnd(run % 4 ? 20 : 1000);
		u64 t = rnd(1000000), mean = RL_NSEC_PER_SEC / rate;
		u64 earned = 0;		/* integral of rate × (100 − throttle), units */
		u32 n = 0, i, j, offered = 0;
		struct rl_limiter l;

		ASSERT_EQ(rl_init(&l, rate, burst, t, NULL), 0);
		while (n < MAXPASS && offered < 20000) {
			/* Gaps from 0 to ~3 intervals: overload and idle spells alike. */
			u64 gap = run % 2 ? rnd((u32)(3 * mean + 1)) : rnd((u32)(mean / 2 + 1));

			earned += gap * l.rate * (100 - l.throttle);
			t += gap;
			if (!rnd(200)) {
				rl_set_throttle(&l, rnd(5) ? rnd(101) : 0, t);
				continue;
			}
			offered++;
			if (rl_admit(&l, t) == RL_PASS) {
				at[n] = t;
				earned_at[n++] = earned;
			}
		}
		for (i = 0; i < n && !bad; i++) {
			for (j = i; j < n; j++) {
				u64 cnt = j - i + 1;

				if (cnt * RL_TOKEN > earned_at[j] - earned_at[i] + (u64)burst * RL_TOKEN) {
					UNIT_DIAG("run %u rate %u burst %u: %llu passed in [%llu, %llu] ns",
						  run, rate, burst, (unsigned long long)cnt,
						  (unsigned long long)at[i], (unsigned long long)at[j]);
					bad++;
					break;
				}
			}
		}
	}
	EXPECT_EQ(bad, 0);
}

/*
 * S-RL-1, S-RL-3 property: offered at least twice as densely as the
 * effective rate, a limiter passes exactly burst + floor(earned): a throttle
 * change neither grants nor loses a token.  (Burst >= 2: see
 * rl1_exact_long_run.)
 */
UNIT_TEST(rl_prop_dense_overload_exact)
{
	u32 run, bad = 0;

	for (run = 0; run < 200; run++) {
		u32 rate = 1 + rnd(100000), burst = 2 + rnd(100);
		u64 t = 0, earned = 0;
		u32 k, pass;
		struct rl_limiter l;

		ASSERT_EQ(rl_init(&l, rate, burst, 0, NULL), 0);
		rl_set_throttle(&l, rnd(100), 0);
		pass = rl_admit(&l, 0) == RL_PASS;
		for (k = 0; k < 20000; k++) {
			/* At most half an interval at the current effective rate. */
			u64 ival = RL_TOKEN / ((u64)l.rate * (100 - l.throttle));
			u64 half = ival / 2 + 1;
			u64 gap = 1 + rnd(half > 0xffffffffu ? 0xffffffffu : (u32)half);

			earned += gap * l.rate * (100 - l.throttle);
			t += gap;
			if (!rnd(500))
				rl_set_throttle(&l, rnd(100), t);
			pass += rl_admit(&l, t) == RL_PASS;
		}
		if (pass != burst + earned / RL_TOKEN) {
			UNIT_DIAG("run %u rate %u burst %u: %u passed, earned %llu units",
				  run, rate, burst, pass, (unsigned long long)earned);
			bad++;
		}
	}
	EXPECT_EQ(bad, 0);
}

/*
 * S-RL-1, S-RL-2: rl_peek() takes nothing, refills like rl_admit() and
 * agrees with it at the same instant.  The kernel's RL_CHECK peeks at every
 * limit that fits a request and takes a token from each only when all have
 * one; this is that rule over two limits (a peer limit and a per-message
 * limit, 004's pGW2 with 1000/s overall and 200/s for CCR-I).
 */
UNIT_TEST(rl_peek_all_or_nothing)
{
	struct rl_limiter peer, msg;
	u32 i, pass = 0, peer_refused = 0, msg_refused = 0;
	u64 t;

	ASSERT_EQ(rl_init(&peer, 1000, 10, 0, NULL), 0);
	ASSERT_EQ(rl_init(&msg, 200, 3, 0, NULL), 0);
	/* Peeking a thousand times takes nothing. */
	for (i = 0; i < 1000; i++)
		EXPECT_EQ(rl_peek(&msg, 0), RL_PASS);
	EXPECT_EQ(msg.tokens, 3 * RL_TOKEN);
	/* 2000 requests over 1 s at both limits: the message limit decides. */
	for (i = 0; i < 2000; i++) {
		t = SEC(1) * i / 2000;
		if (rl_peek(&peer, t) != RL_PASS) {
			peer_refused++;
			continue;
		}
		if (rl_peek(&msg, t) != RL_PASS) {
			msg_refused++;
			continue;
		}
		EXPECT_EQ(rl_admit(&peer, t), RL_PASS);
		EXPECT_EQ(rl_admit(&msg, t), RL_PASS);
		pass++;
	}
	/* 3 + floor(200 × 0.9995) = 202: the peer limit never runs dry. */
	EXPECT_EQ(pass, 202);
	EXPECT_EQ(peer_refused, 0);
	EXPECT_EQ(msg_refused, 1798);
	/* At 100 % nothing passes, and peeking says so. */
	rl_set_throttle(&peer, 100, SEC(2));
	EXPECT_EQ(rl_peek(&peer, SEC(3)), RL_OVER);
	EXPECT_EQ(rl_admit(&peer, SEC(3)), RL_OVER);
	rl_set_throttle(&peer, 0, SEC(3));
	EXPECT_EQ(rl_peek(&peer, SEC(3)), RL_PASS);
}
