// SPDX-License-Identifier: GPL-2.0
/*
 * Rate limiting (core/rl.c, SPEC §5, S-RL-1..4) and the worked example of
 * reference 004 ("Dynamischer Ratengrenzwert"): the KUnit suite l2tpsel_rl
 * and the userspace tests rl_*, one case each (core/tests/t.h).
 * Time is simulated and given in milliseconds (MS()) or nanoseconds.
 */
#include "t.h"
#include "rl.h"

#define MS(x)	((u64)(x) * RL_NSEC_PER_MSEC)
#define SEC(x)	((u64)(x) * RL_NSEC_PER_SEC)

/* The S-RL-4 profile: hold 30 s, step 20 %, bands >=50 -> 30, >=60 -> 40, >=65 -> 50. */
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

/* One step of the S-RL-4 script: a load pushed (or a tick) at @t ms. */
struct rl4_step {
	u32 t;
	int load;		/* -1: a timer tick, no new load */
	u32 limit;		/* the effective limit after it */
	bool changed;
};

/*
 * S-RL-4, S-RL-3: the 004 example step by step, limit 1000/s: 600, 600,
 * 800, 700, 500, 700, 900, 1000.  The revert steps fall due exactly one
 * hold time after the load went below the lowest band, not a millisecond
 * before.
 */
static const struct rl4_step rl4_script[] = {
	{ 0, 40, 1000, false },		/* below the threshold: no throttle */
	{ 1000, 62, 600, true },	/* 62 % -> 40 %: 600 */
	{ 5000, 60, 600, false },	/* 60-65 %: still 600 */
	{ 10000, 64, 600, false },
	{ 15000, 61, 600, false },
	{ 20000, 49, 600, false },	/* 49 %: the hold begins */
	{ 45000, 30, 600, false },	/* lower still: the hold goes on */
	{ 49999, -1, 600, false },	/* 29.999 s: not yet */
	{ 50000, -1, 800, true },	/* 30 s below: 40 - 20 = 20 %: 800 */
	{ 60000, 57, 700, true },	/* 57 % -> 30 %: 700 */
	{ 70000, 67, 500, true },	/* 67 % -> 50 %: 500 */
	{ 80000, 55, 700, true },	/* 55 % -> 30 %: 700 */
	{ 90000, 49, 700, false },
	{ 119999, -1, 700, false },
	{ 120000, -1, 900, true },	/* 30 - 20 = 10 %: 900 */
	{ 130000, 45, 900, false },	/* still below: the hold goes on */
	{ 149999, -1, 900, false },
	{ 150000, -1, 1000, true },	/* 10 - 20 -> 0: 1000, revert complete */
	{ 300000, -1, 1000, false },
};

T_CASE(rl_4_reference_example)
{
	static const u32 seen_want[] = { 600, 800, 700, 500, 700, 900, 1000 };
	struct rl_throttle_conf c;
	struct rl_throttle th;
	struct rl_limiter l;
	u32 seen[16], nseen = 0, i;
	u64 when;

	rl4_conf(&c);
	T_ASSERT_EQ(rl_throttle_init(&th, &c, NULL), 0);
	T_ASSERT_EQ(rl_init(&l, 1000, 100, 0, NULL), 0);
	for (i = 0; i < L2S_ARRAY_SIZE(rl4_script); i++) {
		const struct rl4_step *s = &rl4_script[i];
		bool ch;
		u32 p;

		if (s->load >= 0)
			p = rl_throttle_update(&th, s->load, MS(s->t), &ch);
		else
			p = rl_throttle_tick(&th, MS(s->t), &ch);
		rl_set_throttle(&l, p, MS(s->t));
		T_EXPECT_EQ_MSG(rl_effective_rate(l.rate, l.throttle), s->limit,
				"at %u ms", s->t);
		T_EXPECT_EQ_MSG(ch, s->changed, "at %u ms", s->t);
		if (ch && nseen < L2S_ARRAY_SIZE(seen))
			seen[nseen++] = rl_effective_rate(l.rate, l.throttle);
		if (s->t == 20000) {
			T_EXPECT_TRUE(rl_throttle_next_step(&th, &when));
			T_EXPECT_EQ(when, MS(50000));
		}
	}
	T_EXPECT_FALSE(rl_throttle_next_step(&th, &when));
	/* The limits the reference names: 600, 600 (held), 800, 700, 500, 700, 900, 1000. */
	T_ASSERT_EQ(nseen, (u32)L2S_ARRAY_SIZE(seen_want));
	for (i = 0; i < nseen; i++)
		T_EXPECT_EQ_MSG(seen[i], seen_want[i], "change %u", i + 1);
}

/* S-RL-4: the effective limit passes exactly that many requests per second. */
T_CASE(rl_4_admitted_follows_limit)
{
	static const u32 percent[] = { 0, 40, 20, 30, 50, 10 };
	struct rl_limiter l;
	u64 t = SEC(1);
	u32 i, k, pass;

	T_ASSERT_EQ(rl_init(&l, 1000, 10, 0, NULL), 0);
	for (i = 0; i < L2S_ARRAY_SIZE(percent); i++) {
		rl_set_throttle(&l, percent[i], t);
		/* Drain the bucket, then offer 5000/s for one second. */
		while (rl_admit(&l, t) == RL_PASS)
			;
		pass = 0;
		for (k = 1; k <= 5000; k++)
			pass += rl_admit(&l, t + SEC(1) * k / 5000) == RL_PASS;
		T_EXPECT_EQ_MSG(pass, rl_effective_rate(1000, percent[i]),
				"throttle %u %%", percent[i]);
		t += SEC(1);
	}
}

/* S-RL-4, S-RL-3: the band edges: 60 <= load < 65 keeps 40 %; 65 is in the top band. */
T_CASE(rl_4_band_edges)
{
	static const struct { u8 load, percent; } want[] = {
		{ 0, 0 }, { 49, 0 }, { 50, 30 }, { 59, 30 }, { 60, 40 }, { 64, 40 },
		{ 65, 50 }, { 100, 50 }, { 255, 50 },
	};
	struct rl_throttle_conf c;
	struct rl_throttle th;
	u32 i;

	rl4_conf(&c);
	T_ASSERT_EQ(rl_throttle_init(&th, &c, NULL), 0);
	for (i = 0; i < L2S_ARRAY_SIZE(want); i++)
		T_EXPECT_EQ_MSG(rl_throttle_update(&th, want[i].load, SEC(i), NULL),
				(u32)want[i].percent, "load %u", want[i].load);
}

/* S-RL-3: a visit to a band restarts the hold; several hold times at once
 * give several steps; the percent never goes below 0.
 */
T_CASE(rl_3_hold)
{
	struct rl_throttle_conf c;
	struct rl_throttle th;
	bool ch;

	rl4_conf(&c);
	T_ASSERT_EQ(rl_throttle_init(&th, &c, NULL), 0);
	T_EXPECT_EQ(rl_throttle_update(&th, 70, MS(0), &ch), 50u);
	T_EXPECT_TRUE(ch);
	T_EXPECT_EQ(rl_throttle_update(&th, 10, MS(1000), &ch), 50u);
	T_EXPECT_EQ(rl_throttle_tick(&th, MS(21000), &ch), 50u);
	T_EXPECT_EQ(rl_throttle_update(&th, 52, MS(21000), &ch), 30u);
	T_EXPECT_TRUE(ch);
	T_EXPECT_EQ(rl_throttle_update(&th, 10, MS(22000), &ch), 30u);
	T_EXPECT_EQ(rl_throttle_tick(&th, MS(51999), &ch), 30u);
	T_EXPECT_FALSE(ch);
	T_EXPECT_EQ(rl_throttle_tick(&th, MS(52000), &ch), 10u);
	T_EXPECT_TRUE(ch);
	T_EXPECT_EQ(rl_throttle_tick(&th, MS(82000), &ch), 0u);
	/* 50 % and 95 s below without a call in between: 50 -> 30 -> 10 -> 0. */
	T_EXPECT_EQ(rl_throttle_update(&th, 99, MS(100000), &ch), 50u);
	T_EXPECT_EQ(rl_throttle_update(&th, 0, MS(100000), &ch), 50u);
	T_EXPECT_EQ(rl_throttle_tick(&th, MS(129999), &ch), 50u);
	T_EXPECT_EQ(rl_throttle_tick(&th, MS(195000), &ch), 0u);
	T_EXPECT_TRUE(ch);
	T_EXPECT_EQ(rl_throttle_update(&th, 60, MS(200000), &ch), 40u);
	T_EXPECT_EQ(rl_throttle_tick(&th, MS(900000), &ch), 40u);
	T_EXPECT_FALSE(ch);
}

/* S-RL-3: a live profile changed; a bad change is refused and changes nothing. */
T_CASE(rl_3_reconf)
{
	struct rl_throttle_conf c, c2;
	struct l2s_err err = { };
	struct rl_throttle th;

	rl4_conf(&c);
	T_ASSERT_EQ(rl_throttle_init(&th, &c, NULL), 0);
	T_EXPECT_EQ(rl_throttle_update(&th, 62, MS(0), NULL), 40u);
	c2 = c;
	c2.band[1].percent = 45;
	T_EXPECT_EQ(rl_throttle_reconf(&th, &c2, MS(1000), &err), 0);
	T_EXPECT_EQ(th.percent, 45);
	c2.band[1].load = 70;
	T_EXPECT_EQ(rl_throttle_reconf(&th, &c2, MS(2000), &err), -EINVAL);
	T_EXPECT_EQ(th.percent, 45);
	T_EXPECT_EQ(th.conf.band[1].load, 60);
}

/* S-RL-1: offered at 2x and 10x the limit for 10 s: exactly burst +
 * floor(rate x t_last) pass, within 1 % of the limit; a burst at one instant.
 */
T_CASE(rl_1_admitted_rate)
{
	static const u32 factor[] = { 2, 10 };
	struct rl_limiter l;
	u32 i, k, pass;

	for (i = 0; i < L2S_ARRAY_SIZE(factor); i++) {
		u32 rate = 1000, burst = 10, n = rate * factor[i] * 10;
		u64 gap = SEC(10) / n, last = gap * (n - 1);

		T_ASSERT_EQ(rl_init(&l, rate, burst, 0, NULL), 0);
		pass = 0;
		for (k = 0; k < n; k++)
			pass += rl_admit(&l, gap * k) == RL_PASS;
		T_EXPECT_EQ((u64)pass, burst + rate * last / RL_NSEC_PER_SEC);
		T_EXPECT_GE(pass, 9900u);
		T_EXPECT_LE(pass, 10100u);
	}
	T_ASSERT_EQ(rl_init(&l, 1000, 50, SEC(5), NULL), 0);
	pass = 0;
	for (k = 0; k < 500; k++)
		pass += rl_admit(&l, SEC(5)) == RL_PASS;
	T_EXPECT_EQ(pass, 50u);
	T_EXPECT_EQ(rl_admit(&l, SEC(5) + MS(1) - 1), RL_OVER);
	T_EXPECT_EQ(rl_admit(&l, SEC(5) + MS(1)), RL_PASS);
	T_EXPECT_EQ(rl_admit(&l, SEC(5) + MS(1)), RL_OVER);
	/* Time that steps back counts as none. */
	T_EXPECT_EQ(rl_admit(&l, SEC(4)), RL_OVER);
}

/* Offer @n requests evenly from @t0 to before @t0 + @span (ns); returns how many passed. */
static u32 offer(struct rl_limiter *l, u32 n, u64 t0, u64 span)
{
	u32 i, pass = 0;

	for (i = 0; i < n; i++)
		pass += rl_admit(l, t0 + span * i / n) == RL_PASS;
	return pass;
}

/* S-RL-1: offered below the limit, everything passes. */
T_CASE(rl1_below_limit_all_pass)
{
	struct rl_limiter l;

	T_ASSERT_EQ(rl_init(&l, 1000, 1, 0, NULL), 0);
	T_EXPECT_EQ(offer(&l, 5000, 0, SEC(10)), 5000);		/* 0.5× */
	T_EXPECT_EQ(offer(&l, 10000, SEC(10), SEC(10)), 10000);	/* 1×, evenly spaced, burst 1 */
}

/*
 * S-RL-1: no drift over long runs: a rate whose interval is no whole number
 * of nanoseconds (7/s), offered once a millisecond for 1000 s, passes
 * exactly burst + floor(7 × t_last) (burst 2: a bucket of 1 would spill the
 * part of a token earned between reaching 1 and the next offer); idle for a
 * century, the bucket is full,
 * not overflowed.
 */
T_CASE(rl1_exact_long_run)
{
	struct rl_limiter l;
	u64 t, century = SEC(100ull * 365 * 86400);
	u32 pass = 0;

	T_ASSERT_EQ(rl_init(&l, 7, 2, 0, NULL), 0);
	for (t = 0; t < SEC(1000); t += MS(1))
		pass += rl_admit(&l, t) == RL_PASS;
	T_EXPECT_EQ(pass, 2 + 6999);	/* t_last = 999.999 s: 6999.993 earned */
	T_ASSERT_EQ(rl_init(&l, RL_RATE_MAX, RL_BURST_MAX, 0, NULL), 0);
	T_EXPECT_EQ(offer(&l, RL_BURST_MAX + 5, 0, 0), RL_BURST_MAX);
	T_EXPECT_EQ(offer(&l, RL_BURST_MAX + 5, century, 0), RL_BURST_MAX);
	T_ASSERT_EQ(rl_init(&l, 1, 1, 0, NULL), 0);
	T_EXPECT_EQ(offer(&l, 3, century, 0), 1);
	/* Time that steps back counts as none, and is not taken as a huge gap. */
	T_EXPECT_EQ(rl_admit(&l, century - SEC(10)), RL_OVER);
	T_EXPECT_EQ(rl_admit(&l, century + SEC(1)), RL_PASS);
}

/*
 * S-RL-3, S-RL-1: a throttle change keeps what the bucket earned before it
 * (tokens are neither created nor lost), then refills at the effective rate;
 * 100 % passes nothing at all; a rate change keeps the tokens up to the new
 * depth.
 */
T_CASE(rl3_throttle_keeps_bucket)
{
	struct rl_limiter l;
	struct l2s_err err = { 0 };

	T_ASSERT_EQ(rl_init(&l, 1000, 100, 0, NULL), 0);
	T_EXPECT_EQ(offer(&l, 100, 0, 0), 100);		/* empty at t=0 */
	rl_set_throttle(&l, 40, MS(50));		/* 50 tokens earned at 1000/s */
	T_EXPECT_EQ(offer(&l, 60, MS(50), 0), 50);
	T_EXPECT_EQ(offer(&l, 10, MS(60), 0), 6);		/* 10 ms at 600/s */
	T_EXPECT_EQ(offer(&l, 5000, MS(70), SEC(10)), 5000);	/* 500/s < 600/s: all pass */
	rl_set_throttle(&l, 100, SEC(20));
	T_EXPECT_EQ(offer(&l, 10, SEC(20), SEC(1)), 0);
	rl_set_throttle(&l, 0, SEC(21));
	T_EXPECT_EQ(offer(&l, 200, SEC(21), 0), 100);	/* full again, nothing more */
	T_EXPECT_EQ(rl_set_rate(&l, 2000, 10, SEC(30), &err), 0);
	T_EXPECT_EQ(offer(&l, 20, SEC(30), 0), 10);
	T_EXPECT_EQ(offer(&l, 5, SEC(30) + MS(1), 0), 2);
	T_EXPECT_EQ(rl_set_rate(&l, 0, 10, SEC(31), &err), -ERANGE);
	T_EXPECT_EQ(l.rate, 2000);
}

/*
 * S-RL-1, S-RL-3: bad configuration is refused, and the message names the
 * bound.  (Userspace's rl_bad_config_refused, every bound; the kernel's
 * l2tpsel_rl_bad_config_test checked five of them.)
 */
T_CASE(rl_bad_config)
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
		T_EXPECT_EQ(rl_init(&l, lims[i].rate, lims[i].burst, 0, &err), -ERANGE);
		T_EXPECT_STREQ(err.msg, lims[i].msg);
	}
	T_EXPECT_EQ(rl_init(&l, 1, 1, 0, NULL), 0);
	T_EXPECT_EQ(rl_init(&l, RL_RATE_MAX, RL_BURST_MAX, 0, NULL), 0);

	rl4_conf(&good);
#define BAD(edit, rc, text) do {						\
		c = good;							\
		edit;								\
		memset(&err, 0, sizeof(err));					\
		T_EXPECT_EQ(rl_throttle_init(&th, &c, &err), rc);			\
		T_EXPECT_STREQ(err.msg, text);					\
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
	T_EXPECT_EQ(rl_throttle_init(&th, &c, NULL), 0);
}

/* One sequence for the property cases, in their order, in both builds. */
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
/*
 * Fewer runs in the kernel: the window check is quadratic in the requests
 * passed, and the debug kernel (KASAN, under TCG) runs it tens of times
 * slower than userspace, where 300 runs take 2 s under ASan.
 */
#ifdef L2S_KERNEL
#define RL_PROP_RUNS	60
#else
#define RL_PROP_RUNS	300
#endif

T_CASE(rl_prop_window_bound)
{
	enum { RUNS = RL_PROP_RUNS, MAXPASS = 1500 };
	static u64 at[MAXPASS], earned_at[MAXPASS];
	u32 run, bad = 0;

	for (run = 0; run < RUNS; run++) {
		u32 rate = 1 + rnd(run % 3 ? 5000 : 1000000);
		u32 burst = 1 + rnd(run % 4 ? 20 : 1000);
		u64 t = rnd(1000000), mean = RL_NSEC_PER_SEC / rate;
		u64 earned = 0;		/* integral of rate × (100 − throttle), units */
		u32 n = 0, i, j, offered = 0;
		struct rl_limiter l;

		T_ASSERT_EQ(rl_init(&l, rate, burst, t, NULL), 0);
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
				u64 room = earned_at[j] - earned_at[i] + (u64)burst * RL_TOKEN;

				if (cnt * RL_TOKEN > room) {
					T_INFO("run %u (rate %u burst %u): %llu passed in %llu ns",
					       run, rate, burst, (unsigned long long)cnt,
					       (unsigned long long)(at[j] - at[i]));
					bad++;
					break;
				}
			}
		}
	}
	T_EXPECT_EQ(bad, 0);
}

/*
 * S-RL-1, S-RL-3 property: offered at least twice as densely as the
 * effective rate, a limiter passes exactly burst + floor(earned): a throttle
 * change neither grants nor loses a token.  (Burst >= 2: see
 * rl1_exact_long_run.)
 */
T_CASE(rl_prop_dense_overload_exact)
{
	u32 run, bad = 0;

	for (run = 0; run < 200; run++) {
		u32 rate = 1 + rnd(100000), burst = 2 + rnd(100);
		u64 t = 0, earned = 0;
		u32 k, pass;
		struct rl_limiter l;

		T_ASSERT_EQ(rl_init(&l, rate, burst, 0, NULL), 0);
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
			T_INFO("run %u rate %u burst %u: %u passed, earned %llu units",
			       run, rate, burst, pass, (unsigned long long)earned);
			bad++;
		}
	}
	T_EXPECT_EQ(bad, 0);
}

/*
 * S-RL-1, S-RL-2: rl_peek() takes nothing, refills like rl_admit() and
 * agrees with it at the same instant.  The kernel's RL_CHECK peeks at every
 * limit that fits a request and takes a token from each only when all have
 * one; this is that rule over two limits (a peer limit and a per-message
 * limit, 004's pGW2 with 1000/s overall and 200/s for CCR-I).
 */
T_CASE(rl_peek_all_or_nothing)
{
	struct rl_limiter peer, msg;
	u32 i, pass = 0, peer_refused = 0, msg_refused = 0;
	u64 t;

	T_ASSERT_EQ(rl_init(&peer, 1000, 10, 0, NULL), 0);
	T_ASSERT_EQ(rl_init(&msg, 200, 3, 0, NULL), 0);
	/* Peeking a thousand times takes nothing. */
	for (i = 0; i < 1000; i++)
		T_EXPECT_EQ(rl_peek(&msg, 0), RL_PASS);
	T_EXPECT_EQ(msg.tokens, 3 * RL_TOKEN);
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
		T_EXPECT_EQ(rl_admit(&peer, t), RL_PASS);
		T_EXPECT_EQ(rl_admit(&msg, t), RL_PASS);
		pass++;
	}
	/* 3 + floor(200 × 0.9995) = 202: the peer limit never runs dry. */
	T_EXPECT_EQ(pass, 202);
	T_EXPECT_EQ(peer_refused, 0);
	T_EXPECT_EQ(msg_refused, 1798);
	/* At 100 % nothing passes, and peeking says so. */
	rl_set_throttle(&peer, 100, SEC(2));
	T_EXPECT_EQ(rl_peek(&peer, SEC(3)), RL_OVER);
	T_EXPECT_EQ(rl_admit(&peer, SEC(3)), RL_OVER);
	rl_set_throttle(&peer, 0, SEC(3));
	T_EXPECT_EQ(rl_peek(&peer, SEC(3)), RL_PASS);
}

T_SUITE(l2tpsel_rl,
	T_ENTRY(rl_4_reference_example)
	T_ENTRY(rl_4_admitted_follows_limit)
	T_ENTRY(rl_4_band_edges)
	T_ENTRY(rl_3_hold)
	T_ENTRY(rl_3_reconf)
	T_ENTRY(rl_1_admitted_rate)
	T_ENTRY(rl1_below_limit_all_pass)
	T_ENTRY(rl1_exact_long_run)
	T_ENTRY(rl3_throttle_keeps_bucket)
	T_ENTRY(rl_bad_config)
	T_ENTRY(rl_prop_window_bound)
	T_ENTRY(rl_prop_dense_overload_exact)
	T_ENTRY(rl_peek_all_or_nothing));
