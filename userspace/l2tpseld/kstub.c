// SPDX-License-Identifier: GPL-2.0
/*
 * "kernel none": selection and admission without the l2tpsel module, for
 * the host tests and for a control-plane-only agent.  A login tries the
 * config's route lines of its profile (or "*") in order: no-reply moves to
 * the next, anything else ends the login (a stand-in for the kernel's walk,
 * which the module and l2tpsel-sim test).  Admission counts sessions
 * against stub-limit (0: none) and refuses with CDN 4/4 beyond it.
 */
#include <errno.h>
#include <string.h>

#include <linux/l2tpsel.h>

#include "l2d.h"

static bool route_matches(const struct l2d_route *r, const struct l2d_login *lg)
{
	return !strcmp(r->profile, "*") || !lg->profile[0] || !strcmp(r->profile, lg->profile);
}

static void next_step(struct l2d *d, struct l2d_login *lg, struct l2d_step *st)
{
	const struct l2d_conf *c = d->conf;

	memset(st, 0, sizeof(*st));
	while (lg->cursor < c->n_routes) {
		const struct l2d_route *r = &c->routes[lg->cursor++];

		if (!route_matches(r, lg))
			continue;
		memcpy(&st->remote.ss, &r->remote, sizeof(r->remote));
		st->remote.len = r->remote_len;
		if (r->local_len) {
			memcpy(&st->local.ss, &r->local, sizeof(r->local));
			st->local.len = r->local_len;
			st->has_local = true;
		}
		strcpy(st->tunnel, r->tunnel);
		strcpy(st->profile, strcmp(r->profile, "*") ? r->profile : (lg->profile[0] ? lg->profile : "default"));
		st->setup = true;
		return;
	}
	st->done = true;
	st->ok = false;
	st->why = lg->attempts ? L2TPSEL_WHY_EXHAUSTED : L2TPSEL_WHY_NO_TUNNELS;
}

static int stub_begin(struct l2d *d, struct l2d_login *lg, struct l2d_step *st)
{
	/* RADIUS's tunnel sets are the module's (LOGIN_BEGIN TUNNELS) */
	if (lg->nset)
		return -EOPNOTSUPP;
	lg->cursor = 0;
	next_step(d, lg, st);
	return 0;
}

static int stub_session_up(struct l2d *d, struct l2d_session *s, struct l2d_admit *a);

static int stub_report(struct l2d *d, struct l2d_login *lg, unsigned int outcome,
		       uint16_t result, uint16_t error, struct l2d_step *st)
{
	memset(st, 0, sizeof(*st));
	switch (outcome) {
	case L2TPSEL_OUTCOME_OK:
		/* as the module: counted for selection and admission at once */
		*st = lg->step;
		st->done = true;
		stub_session_up(d, lg->s, &st->admit);
		st->ok = st->admit.pass;
		if (!st->ok)
			st->why = L2TPSEL_WHY_ADMISSION;
		return 0;
	case L2TPSEL_OUTCOME_NO_REPLY:
	case L2TPSEL_OUTCOME_LOCAL:
		next_step(d, lg, st);
		return 0;
	case L2TPSEL_OUTCOME_CDN:
		st->why = L2TPSEL_WHY_CDN;
		break;
	case L2TPSEL_OUTCOME_STOPCCN:
		st->why = L2TPSEL_WHY_STOPCCN;
		break;
	default:
		st->why = L2TPSEL_WHY_CLIENT_GONE;
		break;
	}
	st->done = true;
	return 0;
}

static int stub_session_up(struct l2d *d, struct l2d_session *s, struct l2d_admit *a)
{
	memset(a, 0, sizeof(*a));
	if (d->conf->stub_limit && d->stub_count >= d->conf->stub_limit) {
		a->level = L2TPSEL_LEVEL_CHASSIS;
		a->result = 4;
		a->error = 4;
		return 0;
	}
	d->stub_count++;
	a->pass = true;
	a->level = L2TPSEL_LEVEL_PASS;
	return 0;
}

static int stub_session_down(struct l2d *d, uint64_t key)
{
	if (!d->stub_count)
		return -2;
	d->stub_count--;
	return 0;
}

static int stub_rl_check(struct l2d *d, const struct l2d_rlreq *q, struct l2d_rlans *a)
{
	_Static_assert(L2D_RL_MSGS == L2TPSEL_RL_MSG_PPPOE + 1, "one stub verdict per type");
	memset(a, 0, sizeof(*a));
	a->verdict = q->msg < L2D_RL_MSGS ? d->conf->stub_rl[q->msg] : 0;
	if (a->verdict) {
		a->result = 2;
		a->error = 4;
		strcpy(a->message, "rate limit exceeded");
		strcpy(a->name, "stub");
	}
	return 0;
}

const struct l2d_kops l2d_kops_stub = {
	.rl_check = stub_rl_check,
	.name = "none",
	.login_begin = stub_begin,
	.login_report = stub_report,
	.session_up = stub_session_up,
	.session_down = stub_session_down,
};
