// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Rate limiting (SPEC §5, reference 004 "Statische Durchsatzbegrenzung" and
 * "Dynamischer Ratengrenzwert"): a token bucket per limit and the
 * load-driven throttle.  Documentation/ratelimit.md explains the choices.
 */
#include "rl.h"

/**
 * rl_check() - refuse a limit the limiter cannot hold (S-RL-1)
 * @rate: requests per second, 1..RL_RATE_MAX
 * @burst: bucket depth in requests, 1..RL_BURST_MAX
 * @err: receives the reason on refusal
 *
 * Return: 0, or -ERANGE.
 */
int rl_check(u32 rate, u32 burst, struct l2s_err *err)
{
	if (rate < 1 || rate > RL_RATE_MAX) {
		l2s_errf(err, "rate %u: must be 1..%u requests per second", rate, RL_RATE_MAX);
		return -ERANGE;
	}
	if (burst < 1 || burst > RL_BURST_MAX) {
		l2s_errf(err, "burst %u: must be 1..%u requests", burst, RL_BURST_MAX);
		return -ERANGE;
	}
	return 0;
}

/*
 * Bring the bucket up to @now at the parameters in force since the last
 * refill.  The refill is elapsed × rate × (100 − throttle) units exactly;
 * the product can only overflow when the bucket would be full anyway.
 */
static void rl_refill(struct rl_limiter *l, u64 now)
{
	u64 cap = (u64)l->burst * RL_TOKEN;
	u64 add;

	if (now <= l->stamp)
		return;
	if (l->tokens < cap) {
		if (l2s_mul_overflow(now - l->stamp,
				     (u64)l->rate * (100 - l->throttle), &add) ||
		    add >= cap - l->tokens)
			l->tokens = cap;
		else
			l->tokens += add;
	}
	l->stamp = now;
}

/**
 * rl_init() - a limiter with a full bucket and no throttle
 * @l: the limiter
 * @rate: requests per second
 * @burst: bucket depth; a fresh limiter passes exactly @burst requests at once
 * @now: the caller's time, ns
 * @err: receives the reason on refusal
 *
 * Return: 0, or -ERANGE (see rl_check(); @l is left untouched).
 */
int rl_init(struct rl_limiter *l, u32 rate, u32 burst, u64 now, struct l2s_err *err)
{
	if (rl_check(rate, burst, err))
		return -ERANGE;
	memset(l, 0, sizeof(*l));
	l->rate = rate;
	l->burst = burst;
	l->tokens = (u64)burst * RL_TOKEN;
	l->stamp = now;
	return 0;
}

/**
 * rl_set_rate() - change the configured rate and burst of a live limiter
 * @l: the limiter
 * @rate: requests per second
 * @burst: bucket depth
 * @now: the caller's time, ns
 * @err: receives the reason on refusal
 *
 * The tokens earned up to @now at the old rate are kept (down to the new
 * depth): a change neither grants nor takes back anything already earned.
 *
 * Return: 0, or -ERANGE (nothing changed).
 */
int rl_set_rate(struct rl_limiter *l, u32 rate, u32 burst, u64 now, struct l2s_err *err)
{
	u64 cap = (u64)burst * RL_TOKEN;

	if (rl_check(rate, burst, err))
		return -ERANGE;
	rl_refill(l, now);
	l->rate = rate;
	l->burst = burst;
	if (l->tokens > cap)
		l->tokens = cap;
	return 0;
}

/**
 * rl_set_throttle() - apply a throttle percent to a limiter (S-RL-3)
 * @l: the limiter
 * @percent: 0..100 (more is taken as 100)
 * @now: the caller's time, ns
 *
 * The effective rate becomes rate × (100 − @percent) / 100 from @now on; the
 * bucket keeps what it earned before @now at the old rate.
 */
void rl_set_throttle(struct rl_limiter *l, u32 percent, u64 now)
{
	rl_refill(l, now);
	l->throttle = percent > 100 ? 100 : percent;
}

/**
 * rl_admit() - decide one request (S-RL-1)
 * @l: the limiter
 * @now: the caller's time, ns
 *
 * A request takes one token.  At a throttle of 100 % nothing passes, not
 * even what is left in the bucket: the operator asked for an effective
 * limit of 0.
 *
 * Return: RL_PASS (a token taken) or RL_OVER.
 */
enum rl_verdict rl_admit(struct rl_limiter *l, u64 now)
{
	rl_refill(l, now);
	if (l->throttle >= 100 || l->tokens < RL_TOKEN)
		return RL_OVER;
	l->tokens -= RL_TOKEN;
	return RL_PASS;
}

/**
 * rl_peek() - would a request pass now?  Nothing is taken (S-RL-1)
 * @l: the limiter
 * @now: the caller's time, ns
 *
 * For a request that several limiters must all let through: peek at each,
 * and only when all would pass, rl_admit() each (with the same @now it then
 * passes).  The bucket is brought up to @now, which changes nothing it
 * would not have earned anyway.
 *
 * Return: RL_PASS when rl_admit() at @now would pass, else RL_OVER.
 */
enum rl_verdict rl_peek(struct rl_limiter *l, u64 now)
{
	rl_refill(l, now);
	return l->throttle >= 100 || l->tokens < RL_TOKEN ? RL_OVER : RL_PASS;
}

/**
 * rl_effective_rate() - the effective limit of S-RL-3, for display and events
 * @rate: the configured limit, at most RL_RATE_MAX
 * @percent: the throttle, 0..100
 *
 * The limiter itself refills at the exact rate × (100 − percent) / 100; this
 * is the figure rounded down, as 004 states it (1000 at 40 % → 600).
 *
 * Return: rate × (100 − percent) / 100.
 */
u32 rl_effective_rate(u32 rate, u32 percent)
{
	if (percent >= 100)
		return 0;
	return rate * (100 - percent) / 100;
}

/**
 * rl_verdict_name() - "pass" or "over", for traces
 * @v: a verdict
 *
 * Return: a static string.
 */
const char *rl_verdict_name(enum rl_verdict v)
{
	return v == RL_PASS ? "pass" : "over";
}

/**
 * rl_throttle_check() - refuse a band table, hold time or step that makes no sense (S-RL-3)
 * @conf: the configuration
 * @err: receives the reason on refusal
 *
 * Thresholds are percents 1..100 and strictly increasing; throttle percents
 * are 0..100 and do not decrease with the load (more load never throttles
 * less).  The hold time and the step are at least 1, or the throttle would
 * never revert.
 *
 * Return: 0, or -ERANGE / -EINVAL.
 */
int rl_throttle_check(const struct rl_throttle_conf *conf, struct l2s_err *err)
{
	u32 i;

	if (conf->hold_ms < 1 || conf->hold_ms > RL_HOLD_MAX_MS) {
		l2s_errf(err, "hold time %u ms: must be 1..%u ms", conf->hold_ms, RL_HOLD_MAX_MS);
		return -ERANGE;
	}
	if (conf->step < 1 || conf->step > 100) {
		l2s_errf(err, "revert step %u %%: must be 1..100 %%", conf->step);
		return -ERANGE;
	}
	if (conf->nbands < 1 || conf->nbands > RL_BANDS_MAX) {
		l2s_errf(err, "%u bands: a throttle has 1..%d bands", conf->nbands, RL_BANDS_MAX);
		return -ERANGE;
	}
	for (i = 0; i < conf->nbands; i++) {
		const struct rl_band *b = &conf->band[i];

		if (b->load < 1 || b->load > 100) {
			l2s_errf(err, "band %u: load threshold %u %%: must be 1..100 %%",
				 i + 1, b->load);
			return -ERANGE;
		}
		if (b->percent > 100) {
			l2s_errf(err, "band %u: throttle %u %%: must be 0..100 %%",
				 i + 1, b->percent);
			return -ERANGE;
		}
		if (!i)
			continue;
		if (b->load <= b[-1].load) {
			l2s_errf(err,
				 "band %u: load threshold %u %% is not above the previous band's %u %%: thresholds must increase",
				 i + 1, b->load, b[-1].load);
			return -EINVAL;
		}
		if (b->percent < b[-1].percent) {
			l2s_errf(err,
				 "band %u: throttle %u %% is below the previous band's %u %%: a higher load must not throttle less",
				 i + 1, b->percent, b[-1].percent);
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * rl_throttle_init() - a throttle with no load seen yet and nothing throttled
 * @th: the throttle
 * @conf: its configuration, checked with rl_throttle_check()
 * @err: receives the reason on refusal
 *
 * Return: 0, or the error of rl_throttle_check() (@th untouched).
 */
int rl_throttle_init(struct rl_throttle *th, const struct rl_throttle_conf *conf,
		     struct l2s_err *err)
{
	int rc = rl_throttle_check(conf, err);

	if (rc)
		return rc;
	memset(th, 0, sizeof(*th));
	th->conf = *conf;
	return 0;
}

/* The band the load is in: the one with the highest threshold <= @load, or NULL. */
static const struct rl_band *rl_band_of(const struct rl_throttle_conf *conf, u32 load)
{
	const struct rl_band *found = NULL;
	u32 i;

	for (i = 0; i < conf->nbands && conf->band[i].load <= load; i++)
		found = &conf->band[i];
	return found;
}

/*
 * S-RL-3 with 004's example: in a band the band's throttle holds at once,
 * whether the load rose or fell into it; below the lowest band the throttle
 * loses @step percentage points after each full hold time spent there
 * ("um 20 % auf 20 %" from 40, "um 20 % auf 10 %" from 30), down to 0.  The
 * hold time counts from the first load seen below the bands and restarts
 * whenever a band is entered.  Several hold times passed since the last
 * call give several steps, so the caller need not call at every boundary.
 */
static u32 rl_throttle_apply(struct rl_throttle *th, u32 load, u64 now, bool *changed)
{
	const struct rl_band *b;
	u64 hold = (u64)th->conf.hold_ms * RL_NSEC_PER_MSEC;
	u8 old = th->percent;

	if (load > 100)
		load = 100;
	th->load = (u8)load;
	b = rl_band_of(&th->conf, load);
	if (b) {
		th->percent = b->percent;
		th->below = false;
	} else if (!th->below) {
		th->below = true;
		th->below_since = now;
	} else {
		/* At most 100 / step rounds: no division on u64. */
		while (th->percent && now >= th->below_since &&
		       now - th->below_since >= hold) {
			th->percent = th->percent > th->conf.step ? th->percent - th->conf.step : 0;
			th->below_since += hold;
		}
	}
	if (changed)
		*changed = th->percent != old;
	return th->percent;
}

/**
 * rl_throttle_update() - push a load sample (S-RL-3)
 * @th: the throttle
 * @load: the load metric, percent (more than 100 is taken as 100)
 * @now: the caller's time, ns; the load is taken to hold from @now on
 * @changed: if not NULL, true when the throttle percent changed (notify then)
 *
 * Return: the throttle percent in force from @now.
 */
u32 rl_throttle_update(struct rl_throttle *th, u32 load, u64 now, bool *changed)
{
	return rl_throttle_apply(th, load, now, changed);
}

/**
 * rl_throttle_tick() - let time pass with the last load (revert steps only)
 * @th: the throttle
 * @now: the caller's time, ns
 * @changed: if not NULL, true when the throttle percent changed
 *
 * Call it from a timer armed with rl_throttle_next_step(), or at any rate.
 *
 * Return: the throttle percent in force at @now.
 */
u32 rl_throttle_tick(struct rl_throttle *th, u64 now, bool *changed)
{
	if (!th->below) {
		if (changed)
			*changed = false;
		return th->percent;
	}
	return rl_throttle_apply(th, th->load, now, changed);
}

/**
 * rl_throttle_next_step() - when the next revert step falls due
 * @th: the throttle
 * @when: receives the time, ns, when there is one
 *
 * Return: true when the load is below the bands and the throttle is above 0.
 */
bool rl_throttle_next_step(const struct rl_throttle *th, u64 *when)
{
	if (!th->below || !th->percent)
		return false;
	*when = th->below_since + (u64)th->conf.hold_ms * RL_NSEC_PER_MSEC;
	return true;
}

/**
 * rl_throttle_reconf() - change a live throttle's configuration
 * @th: the throttle
 * @conf: the new configuration
 * @now: the caller's time, ns
 * @err: receives the reason on refusal
 *
 * The last load is judged again against the new bands at @now; a hold
 * period under way below the bands goes on.  Read the percent afterwards
 * and apply it to the limiters when it changed.
 *
 * Return: 0, or the error of rl_throttle_check() (nothing changed).
 */
int rl_throttle_reconf(struct rl_throttle *th, const struct rl_throttle_conf *conf,
		       u64 now, struct l2s_err *err)
{
	int rc = rl_throttle_check(conf, err);

	if (rc)
		return rc;
	th->conf = *conf;
	rl_throttle_apply(th, th->load, now, NULL);
	return 0;
}
