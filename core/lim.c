// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Session admission (SPEC §4, reference 000 "L2TP-Sitzungslimits").
 */
#include "lim.h"

static const char *const lim_names[LIM_NLEVELS] = {
	[LIM_CHASSIS]      = "chassis",
	[LIM_TUNNEL]       = "tunnel",
	[LIM_TUNNEL_GROUP] = "tunnel-group",
	[LIM_SLG]          = "slg",
	[LIM_CLIENT]       = "client",
};

/**
 * lim_level_name() - the name of a level as the CLI, events and traces use it
 * @level: a level, or LIM_PASS
 *
 * Return: "chassis", "tunnel", "tunnel-group", "slg", "client" or "pass".
 */
const char *lim_level_name(enum lim_level level)
{
	return level < LIM_NLEVELS ? lim_names[level] : "pass";
}

/**
 * lim_chassis_init() - chassis settings with no limits and the default maximum
 * @ch: the chassis
 */
void lim_chassis_init(struct lim_chassis *ch)
{
	memset(ch, 0, sizeof(*ch));
	ch->maximum = LIM_DEFAULT_CHASSIS_MAX;
}

/**
 * lim_chassis_slot() - the chassis level of a path
 * @ch: the chassis
 *
 * A session is refused at the chassis maximum even when no limit is
 * configured (000: "auch abgelehnt, wenn der maximale Chassis-Grenzwert
 * erreicht ist").
 *
 * Return: a slot counting on @ch->count with the effective limit.
 */
struct lim_slot lim_chassis_slot(struct lim_chassis *ch)
{
	struct lim_slot s = { .count = &ch->count, .limit = ch->maximum };

	if (ch->limit && ch->limit < s.limit)
		s.limit = ch->limit;
	return s;
}

/**
 * lim_check_value() - refuse a limit above the chassis maximum (S-LIM-6)
 * @ch: the chassis
 * @value: the limit to be configured (0 = none, always allowed)
 * @what: what is being configured, for the message
 * @err: receives the reason on refusal
 *
 * Return: 0, or -ERANGE.
 */
int lim_check_value(const struct lim_chassis *ch, u32 value, const char *what,
		    struct l2s_err *err)
{
	if (value <= ch->maximum)
		return 0;
	l2s_errf(err, "%s limit %u is above the chassis maximum %u", what, value, ch->maximum);
	return -ERANGE;
}

/**
 * lim_set_maximum() - change the chassis maximum
 * @ch: the chassis
 * @maximum: the new maximum, at least 1
 * @highest_configured: the highest limit configured on any object
 * @err: receives the reason on refusal
 *
 * Return: 0, or -ERANGE when a configured limit would exceed the new maximum.
 */
int lim_set_maximum(struct lim_chassis *ch, u32 maximum, u32 highest_configured,
		    struct l2s_err *err)
{
	if (!maximum) {
		l2s_errs(err, "the chassis maximum must be at least 1");
		return -ERANGE;
	}
	if (highest_configured > maximum) {
		l2s_errf(err,
			 "chassis maximum %u is below a configured limit of %u; lower that limit first",
			 maximum, highest_configured);
		return -ERANGE;
	}
	ch->maximum = maximum;
	return 0;
}

static bool lim_level_applies(enum lim_level level, enum lim_role role)
{
	return role == LIM_ROLE_LNS || level == LIM_CHASSIS || level == LIM_TUNNEL;
}

/**
 * lim_check() - find the level that refuses a new session, if any (S-LIM-1)
 * @path: the counters of the session
 * @role: LAC (chassis and tunnel) or LNS (all five levels)
 * @trace: called for each level checked, may be NULL
 * @arg: passed to @trace
 *
 * A level with no counter or no limit passes; the first level whose count
 * has reached its limit refuses and later levels are not checked.
 *
 * Return: the refusing level, or LIM_PASS.
 */
enum lim_level lim_check(const struct lim_path *path, enum lim_role role,
			 lim_trace_fn trace, void *arg)
{
	enum lim_level l;

	for (l = LIM_CHASSIS; l < LIM_NLEVELS; l++) {
		const struct lim_slot *s = &path->slot[l];
		bool pass;

		if (!lim_level_applies(l, role))
			continue;
		pass = !s->count || !s->limit || *s->count < s->limit;
		if (trace && s->count)
			trace(arg, l, pass);
		if (!pass)
			return l;
	}
	return LIM_PASS;
}

/**
 * lim_admit() - check a new session and count it when it passes
 * @path: the counters of the session
 * @role: LAC or LNS
 * @trace: called for each level checked, may be NULL
 * @arg: passed to @trace
 * @reached: if not NULL, receives a bit per level this session filled up
 *
 * The caller holds whatever lock makes the check and the count one step.
 * Every counter of @path is counted, also those of levels the role does not
 * check, so that the counters stay exact when the role's view changes.
 *
 * Return: LIM_PASS, or the level that refused (nothing counted).
 */
enum lim_level lim_admit(const struct lim_path *path, enum lim_role role,
			 lim_trace_fn trace, void *arg, u32 *reached)
{
	enum lim_level l = lim_check(path, role, trace, arg);
	u32 bits = 0;

	if (l != LIM_PASS)
		return l;
	for (l = LIM_CHASSIS; l < LIM_NLEVELS; l++) {
		const struct lim_slot *s = &path->slot[l];

		if (!s->count)
			continue;
		(*s->count)++;
		if (s->limit && *s->count == s->limit)
			bits |= 1u << l;
	}
	if (path->client_total)
		(*path->client_total)++;
	if (reached)
		*reached = bits;
	return LIM_PASS;
}

/**
 * lim_release() - uncount a session that went down
 * @path: the counters the session was counted on
 * @cleared: if not NULL, receives a bit per level that dropped below its limit
 * @err: receives the reason on refusal
 *
 * Return: 0, or -ENOENT when some counter is already zero (nothing changed).
 */
int lim_release(const struct lim_path *path, u32 *cleared, struct l2s_err *err)
{
	enum lim_level l;
	u32 bits = 0;

	for (l = LIM_CHASSIS; l < LIM_NLEVELS; l++) {
		if (path->slot[l].count && !*path->slot[l].count) {
			l2s_errf(err, "%s session count is already 0: no such session to release",
				 lim_names[l]);
			return -ENOENT;
		}
	}
	if (path->client_total && !*path->client_total) {
		l2s_errs(err, "client session count is already 0: no such session to release");
		return -ENOENT;
	}
	for (l = LIM_CHASSIS; l < LIM_NLEVELS; l++) {
		const struct lim_slot *s = &path->slot[l];

		if (!s->count)
			continue;
		if (s->limit && *s->count == s->limit)
			bits |= 1u << l;
		(*s->count)--;
	}
	if (path->client_total)
		(*path->client_total)--;
	if (cleared)
		*cleared = bits;
	return 0;
}

/**
 * lim_slg_add_client() - a client joins a session-limit group (S-LIM-4)
 * @slg: the group
 * @client_total: the client's current sessions over all tunnel groups
 *
 * The group's count grows by the client's sessions, even past the limit: no
 * session is dropped, new ones are refused until the sum falls below it.
 */
void lim_slg_add_client(struct lim_slg *slg, u32 client_total)
{
	slg->count = slg->count + client_total;
}

/**
 * lim_slg_remove_client() - a client leaves a session-limit group (S-LIM-4)
 * @slg: the group
 * @client_total: the client's current sessions over all tunnel groups
 * @err: receives the reason on refusal
 *
 * Return: 0, or -ERANGE if the group counts fewer sessions than the client has
 * (a caller bug: nothing is changed).
 */
int lim_slg_remove_client(struct lim_slg *slg, u32 client_total, struct l2s_err *err)
{
	if (client_total > slg->count) {
		l2s_errf(err, "session-limit group counts %u sessions, fewer than the client's %u",
			 slg->count, client_total);
		return -ERANGE;
	}
	slg->count = slg->count - client_total;
	return 0;
}
