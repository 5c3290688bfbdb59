// SPDX-License-Identifier: GPL-2.0
/*
 * The l2tpsel family's attribute table and its parser (attr.h).  The CLI,
 * the agent, the selftests' clients and the benchmarks decode replies with
 * it, so a length check or a name is written once.
 */
#include <errno.h>
#include <string.h>
#include <linux/genetlink.h>

#include "attr.h"

/*
 * In the uapi header's order, the type each enum comment gives; the unit
 * test attr_table_matches_uapi reads the header and holds the two together.
 */
#define A(n, t)		[L2TPSEL_A_##n] = { #n, MNL_TYPE_##t, false }
#define ADDR(n)		[L2TPSEL_A_##n] = { #n, MNL_TYPE_BINARY, true }

const struct l2s_attr_info l2s_attr_table[L2TPSEL_A_MAX + 1] = {
	A(INFO_VERSION, NUL_STRING),
	A(INFO_API_VERSION, U32),
	A(INFO_NETNS_COOKIE, U64),
	A(PAD, UNSPEC),
	A(NAME, NUL_STRING),
	A(LIMIT, U32),
	A(COUNT, U32),
	A(CHASSIS_MAX, U32),
	A(CHASSIS_LIMIT, U32),
	A(TUNNEL_LIMIT, U32),
	A(SLG, NUL_STRING),
	A(MEMBERS, U32),
	A(TGROUP, NUL_STRING),
	A(CLIENT, NUL_STRING),
	A(TGROUP_COUNTS, NESTED),
	A(TGC, NESTED),
	A(SESSION_KEY, U64),
	A(ROLE, U8),
	A(TUNNEL_ID, U32),
	A(ADMIT, U8),
	A(RESULT_CODE, U16),
	A(ERROR_CODE, U16),
	A(LEVEL, U8),
	A(N_TUNNELS, U32),
	A(N_TGROUPS, U32),
	A(N_SLGS, U32),
	A(N_CLIENTS, U32),
	A(PROFILE, NUL_STRING),
	A(FAILOVER, U8),
	A(LB, U8),
	A(FAILOVER_CDN, U32),
	A(FAILOVER_STOPCCN, U32),
	A(N_LEVELS, U32),
	A(N_DESTS, U32),
	A(SEL_LEVEL, U8),
	ADDR(REMOTE),
	ADDR(LOCAL),
	A(PORT, U16),
	A(MAX_SESSIONS, U32),
	A(SECRET, NUL_STRING),
	A(HAS_SECRET, U8),
	A(SESSIONS, U32),
	A(DOMAIN, NUL_STRING),
	A(LOCKOUT_TIME, U32),
	A(LOCKOUT_REMAINING, U32),
	A(ATTEMPTS, U32),
	A(FAILURES, U32),
	A(MAX_LOGINS, U32),
	A(N_LOGINS, U32),
	A(N_LOCKED, U32),
	A(LOGIN_ID, U32),
	A(USER, NUL_STRING),
	A(KEY, NUL_STRING),
	A(PICKS, NESTED),
	A(STEP, U8),
	A(SETUP, U8),
	A(SHORTEST, U8),
	A(OK, U8),
	A(WHY, U8),
	A(OUTCOME, U8),
	A(STEPS, NESTED),
	A(STEP_ENTRY, NESTED),
	A(N_CANDIDATES, U32),
	A(UNLOCK_WHY, U8),
	A(RL_DIR, U8),
	A(RL_MSG, U8),
	A(RL_KEY, U8),
	A(RL_PEER, NUL_STRING),
	A(RL_RATE, U32),
	A(RL_BURST, U32),
	A(RL_ACTION, U8),
	A(RL_MESSAGE, NUL_STRING),
	A(RL_THROTTLE, NUL_STRING),
	A(RL_RESET, U8),
	A(RL_PERCENT, U8),
	A(RL_EFFECTIVE, U32),
	A(RL_TOKENS, U32),
	A(RL_PASSED, U64),
	A(RL_REJECTED, U64),
	A(RL_DROPPED, U64),
	A(RL_COUNT, U32),
	A(RL_VERDICT, U8),
	A(RL_MATCHED, U32),
	A(RL_SOURCE, U8),
	A(RL_PERIOD, U32),
	A(RL_HOLD, U32),
	A(RL_STEP, U8),
	A(RL_BANDS, NESTED),
	A(RL_BAND, NESTED),
	A(RL_BAND_LOAD, U8),
	A(RL_BAND_PERCENT, U8),
	A(RL_LOAD, U8),
	A(RL_USERS, U32),
	A(RL_CHANGES, U32),
	A(RL_SAMPLES, U32),
	A(MORE, FLAG),
	A(TUNNELS, NESTED),
	A(TUNNEL_ENTRY, NESTED),
	A(DYNAMIC, U8),
	A(DETACHED, FLAG),
	A(RL_ASK, FLAG),
	A(RL_LOGIN, NESTED),
	A(RL_ATTEMPT, NESTED),
	A(IN_FLIGHT, U32),
	A(DRAIN, U8),
};

const char *l2s_attr_name(unsigned int type)
{
	return type <= L2TPSEL_A_MAX ? l2s_attr_table[type].name : NULL;
}

int l2s_attr_check(const struct nlattr *a)
{
	uint16_t len = mnl_attr_get_payload_len(a);
	const struct l2s_attr_info *t;

	if (mnl_attr_type_valid(a, L2TPSEL_A_MAX) < 0)
		return -1;
	t = &l2s_attr_table[mnl_attr_get_type(a)];
	if (mnl_attr_validate(a, t->type) < 0)
		return -1;
	if (t->addr && len != 4 && len != 16) {
		errno = ERANGE;
		return -1;
	}
	return 0;
}

struct attr_parse {
	const struct nlattr **tb;
	int bad;		/* the first type left out, 0 while none */
};

static int attr_parse_cb(const struct nlattr *a, void *data)
{
	struct attr_parse *p = data;
	uint16_t type = mnl_attr_get_type(a);

	/* Unknown to this build: a newer module's, not an error. */
	if (type > L2TPSEL_A_MAX || !l2s_attr_table[type].name)
		return MNL_CB_OK;
	if (l2s_attr_check(a) < 0) {
		if (!p->bad)
			p->bad = type;
		p->tb[type] = NULL;
		return MNL_CB_OK;
	}
	p->tb[type] = a;
	return MNL_CB_OK;
}

int l2s_attr_parse(const struct nlmsghdr *nlh, const struct nlattr **tb)
{
	struct attr_parse p = { tb, 0 };

	memset(tb, 0, sizeof(*tb) * (L2TPSEL_A_MAX + 1));
	mnl_attr_parse(nlh, sizeof(struct genlmsghdr), attr_parse_cb, &p);
	return p.bad;
}

int l2s_attr_parse_nest(const struct nlattr *nest, const struct nlattr **tb)
{
	struct attr_parse p = { tb, 0 };

	memset(tb, 0, sizeof(*tb) * (L2TPSEL_A_MAX + 1));
	mnl_attr_parse_nested(nest, attr_parse_cb, &p);
	return p.bad;
}

unsigned int l2s_attr_addr(const struct nlattr *const *tb, int type, uint8_t out[16])
{
	unsigned int len;

	if (!tb[type] || !l2s_attr_table[type].addr)
		return 0;
	len = mnl_attr_get_payload_len(tb[type]);
	memcpy(out, mnl_attr_get_payload(tb[type]), len);
	return len;
}
