// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of session admission (core/lim.c): SPEC §4, S-LIM-1..9, and the
 * five tables of reference 000 ("L2TP-Sitzungslimits").
 */
#include <stdlib.h>

#include "unit.h"
#include "lim.h"

/* One row of a reference table: configured limit, current count, expected check result. */
struct row {
	u32 limit;
	u32 count;
	char expect;	/* 'P' pass ("Bestehen"), 'F' fail ("Fehler"), '-' not checked, 'x' level absent */
};

struct trace {
	char seen[LIM_NLEVELS];
};

static void trace_cb(void *arg, enum lim_level level, bool pass)
{
	struct trace *t = arg;

	t->seen[level] = pass ? 'P' : 'F';
}

/* Build a path from a table, check it as the LNS, and compare level by level. */
static void check_table(const struct row rows[LIM_NLEVELS], enum lim_level want)
{
	struct lim_chassis ch;
	struct lim_path p = { 0 };
	u32 counts[LIM_NLEVELS];
	struct trace t;
	enum lim_level got;
	int l;

	lim_chassis_init(&ch);
	ch.limit = rows[LIM_CHASSIS].limit;
	ch.count = rows[LIM_CHASSIS].count;
	p.slot[LIM_CHASSIS] = lim_chassis_slot(&ch);
	for (l = LIM_TUNNEL; l < LIM_NLEVELS; l++) {
		if (rows[l].expect == 'x')
			continue;
		counts[l] = rows[l].count;
		p.slot[l].count = &counts[l];
		p.slot[l].limit = rows[l].limit;
	}
	memset(t.seen, '-', sizeof(t.seen));
	got = lim_check(&p, LIM_ROLE_LNS, trace_cb, &t);
	EXPECT_STREQ(lim_level_name(got), lim_level_name(want));
	for (l = 0; l < LIM_NLEVELS; l++) {
		char exp = rows[l].expect == 'x' ? '-' : rows[l].expect;

		if (t.seen[l] != exp)
			unit_fail(__FILE__, __LINE__, "level %s: checked '%c', table says '%c'",
				  lim_level_name(l), t.seen[l], exp);
	}
}

/* S-LIM-8, S-LIM-1: Tabelle 1, chassis limit: the chassis fails, nothing else is checked. */
UNIT_TEST(lim_table1_chassis)
{
	const struct row r[LIM_NLEVELS] = {
		{ 10000, 10000, 'F' }, { 10000, 10000, '-' }, { 10000, 10000, '-' },
		{ 10000, 10000, '-' }, { 10000, 10000, '-' },
	};
	check_table(r, LIM_CHASSIS);
}

/* S-LIM-8, S-LIM-2: Tabelle 2, tunnel limit. */
UNIT_TEST(lim_table2_tunnel)
{
	const struct row r[LIM_NLEVELS] = {
		{ 10000, 2000, 'P' }, { 2000, 2000, 'F' }, { 10000, 2000, '-' },
		{ 6000, 2000, '-' }, { 6000, 2000, '-' },
	};
	check_table(r, LIM_TUNNEL);
}

/* S-LIM-8, S-LIM-3: Tabelle 3, tunnel-group limit. */
UNIT_TEST(lim_table3_tunnel_group)
{
	const struct row r[LIM_NLEVELS] = {
		{ 10000, 2000, 'P' }, { 10000, 2000, 'P' }, { 2000, 2000, 'F' },
		{ 6000, 2000, '-' }, { 6000, 2000, '-' },
	};
	check_table(r, LIM_TUNNEL_GROUP);
}

/* S-LIM-8, S-LIM-4: Tabelle 4, session-limit group slg1 at 6000. */
UNIT_TEST(lim_table4_slg)
{
	const struct row r[LIM_NLEVELS] = {
		{ 10000, 6000, 'P' }, { 10000, 6000, 'P' }, { 10000, 6000, 'P' },
		{ 6000, 6000, 'F' }, { 8000, 2000, '-' },
	};
	check_table(r, LIM_SLG);
}

/* S-LIM-8, S-LIM-5: Tabelle 5, client ent1-serviceA (in no group) at 6000. */
UNIT_TEST(lim_table5_client)
{
	const struct row r[LIM_NLEVELS] = {
		{ 10000, 6000, 'P' }, { 10000, 6000, 'P' }, { 8000, 6000, 'P' },
		{ 0, 0, 'x' }, { 6000, 6000, 'F' },
	};
	check_table(r, LIM_CLIENT);
}

/* S-LIM-1: no limit configured passes; count above the limit also refuses. */
UNIT_TEST(lim_no_limit_passes_and_above_limit_refuses)
{
	struct lim_chassis ch;
	u32 tun = 5, tg = 7;
	struct lim_path p = { 0 };

	lim_chassis_init(&ch);
	p.slot[LIM_CHASSIS] = lim_chassis_slot(&ch);
	p.slot[LIM_TUNNEL] = (struct lim_slot){ &tun, 0 };
	p.slot[LIM_TUNNEL_GROUP] = (struct lim_slot){ &tg, 0 };
	EXPECT_EQ(lim_check(&p, LIM_ROLE_LNS, NULL, NULL), LIM_PASS);
	/* A limit lowered below the live count (reconfiguration) refuses new sessions. */
	p.slot[LIM_TUNNEL_GROUP].limit = 3;
	EXPECT_EQ(lim_check(&p, LIM_ROLE_LNS, NULL, NULL), LIM_TUNNEL_GROUP);
}

/* S-LIM-1: the LAC checks chassis and tunnel only; the LNS all five. */
UNIT_TEST(lim_lac_checks_chassis_and_tunnel_only)
{
	struct lim_chassis ch;
	u32 tun = 0, tg = 10, slg = 10, cl = 10;
	struct lim_path p = { 0 };
	struct trace t;
	u32 reached = 0;

	lim_chassis_init(&ch);
	ch.limit = 2;
	p.slot[LIM_CHASSIS] = lim_chassis_slot(&ch);
	p.slot[LIM_TUNNEL] = (struct lim_slot){ &tun, 1 };
	p.slot[LIM_TUNNEL_GROUP] = (struct lim_slot){ &tg, 10 };
	p.slot[LIM_SLG] = (struct lim_slot){ &slg, 10 };
	p.slot[LIM_CLIENT] = (struct lim_slot){ &cl, 10 };
	EXPECT_EQ(lim_check(&p, LIM_ROLE_LNS, NULL, NULL), LIM_TUNNEL_GROUP);
	memset(t.seen, '-', sizeof(t.seen));
	EXPECT_EQ(lim_check(&p, LIM_ROLE_LAC, trace_cb, &t), LIM_PASS);
	EXPECT_TRUE(t.seen[LIM_CHASSIS] == 'P' && t.seen[LIM_TUNNEL] == 'P');
	EXPECT_TRUE(t.seen[LIM_TUNNEL_GROUP] == '-' && t.seen[LIM_SLG] == '-' && t.seen[LIM_CLIENT] == '-');
	EXPECT_EQ(lim_admit(&p, LIM_ROLE_LAC, NULL, NULL, &reached), LIM_PASS);
	EXPECT_EQ(reached, 1u << LIM_TUNNEL);
	EXPECT_EQ(lim_admit(&p, LIM_ROLE_LAC, NULL, NULL, NULL), LIM_TUNNEL);
	EXPECT_EQ(ch.count, 1);
}

/* S-LIM-2: one tunnel limit, applied to every tunnel separately. */
UNIT_TEST(lim_tunnel_limit_per_tunnel)
{
	struct lim_chassis ch;
	u32 a = 0, b = 0, i;
	struct lim_path pa = { 0 }, pb = { 0 };

	lim_chassis_init(&ch);
	ch.tunnel_limit = 2000;
	pa.slot[LIM_CHASSIS] = pb.slot[LIM_CHASSIS] = lim_chassis_slot(&ch);
	pa.slot[LIM_TUNNEL] = (struct lim_slot){ &a, ch.tunnel_limit };
	pb.slot[LIM_TUNNEL] = (struct lim_slot){ &b, ch.tunnel_limit };
	for (i = 0; i < 2000; i++)
		ASSERT_EQ(lim_admit(&pa, LIM_ROLE_LNS, NULL, NULL, NULL), LIM_PASS);
	EXPECT_EQ(lim_admit(&pa, LIM_ROLE_LNS, NULL, NULL, NULL), LIM_TUNNEL);
	/* Tunnel A at its limit does not affect tunnel B. */
	EXPECT_EQ(lim_admit(&pb, LIM_ROLE_LNS, NULL, NULL, NULL), LIM_PASS);
	EXPECT_EQ(ch.count, 2001);
	EXPECT_EQ(a, 2000);
	EXPECT_EQ(b, 1);
}

/* S-LIM-3: tunnel-group limits are per group. */
UNIT_TEST(lim_tunnel_group_limits_per_group)
{
	struct lim_chassis ch;
	u32 t1 = 0, g1 = 2000, g2 = 10;
	struct lim_path p1 = { 0 }, p2 = { 0 };

	lim_chassis_init(&ch);
	p1.slot[LIM_CHASSIS] = p2.slot[LIM_CHASSIS] = lim_chassis_slot(&ch);
	p1.slot[LIM_TUNNEL] = p2.slot[LIM_TUNNEL] = (struct lim_slot){ &t1, 0 };
	p1.slot[LIM_TUNNEL_GROUP] = (struct lim_slot){ &g1, 2000 };
	p2.slot[LIM_TUNNEL_GROUP] = (struct lim_slot){ &g2, 2000 };
	EXPECT_EQ(lim_admit(&p1, LIM_ROLE_LNS, NULL, NULL, NULL), LIM_TUNNEL_GROUP);
	EXPECT_EQ(lim_admit(&p2, LIM_ROLE_LNS, NULL, NULL, NULL), LIM_PASS);
	EXPECT_EQ(g1, 2000);
	EXPECT_EQ(g2, 11);
}

/* A client of the S-LIM-4 sequence: sessions in one tunnel group, and in total. */
struct client {
	u32 tg_count;
	u32 total;
};

static struct lim_path slg_path(struct lim_chassis *ch, u32 *tun, struct lim_slg *slg,
				struct client *c, bool member)
{
	struct lim_path p = { 0 };

	p.slot[LIM_CHASSIS] = lim_chassis_slot(ch);
	p.slot[LIM_TUNNEL] = (struct lim_slot){ tun, 0 };
	if (member)
		p.slot[LIM_SLG] = (struct lim_slot){ &slg->count, slg->limit };
	p.slot[LIM_CLIENT] = (struct lim_slot){ &c->tg_count, 0 };
	p.client_total = &c->total;
	return p;
}

static u32 admit_n(struct lim_path *p, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (lim_admit(p, LIM_ROLE_LNS, NULL, NULL, NULL) != LIM_PASS)
			break;
	return i;
}

/*
 * S-LIM-4: the 000 sequence.  slg1 (limit 6000) holds A with 3500 and B with 0:
 * room for 2500.  B logs in 1000: room for 1500.  A leaves: room for 5000.  C
 * joins with 8000: the group counts 9000 > 6000, no session is dropped, new
 * ones are refused until the sum falls below 6000.
 */
UNIT_TEST(lim_slg_membership_sequence)
{
	struct lim_chassis ch;
	struct lim_slg slg = { .limit = 6000 };
	struct client a = { 0 }, b = { 0 }, c = { 0 };
	u32 tun = 0;
	struct lim_path pa, pb, pc;
	struct l2s_err err = { 0 };

	lim_chassis_init(&ch);
	/* A's 3500 sessions exist before it joins the group. */
	pa = slg_path(&ch, &tun, &slg, &a, false);
	ASSERT_EQ(admit_n(&pa, 3500), 3500);
	lim_slg_add_client(&slg, a.total);
	lim_slg_add_client(&slg, b.total);
	EXPECT_EQ(slg.limit - slg.count, 2500);

	pb = slg_path(&ch, &tun, &slg, &b, true);
	ASSERT_EQ(admit_n(&pb, 1000), 1000);
	EXPECT_EQ(slg.limit - slg.count, 1500);

	ASSERT_EQ(lim_slg_remove_client(&slg, a.total, &err), 0);
	EXPECT_EQ(slg.limit - slg.count, 5000);
	EXPECT_EQ(a.total, 3500);	/* A keeps its sessions */

	pc = slg_path(&ch, &tun, &slg, &c, false);
	ASSERT_EQ(admit_n(&pc, 8000), 8000);
	lim_slg_add_client(&slg, c.total);
	EXPECT_EQ(slg.count, 9000);
	EXPECT_EQ(c.total, 8000);	/* nothing dropped */
	EXPECT_EQ(b.total, 1000);
	pc = slg_path(&ch, &tun, &slg, &c, true);
	EXPECT_EQ(lim_admit(&pc, LIM_ROLE_LNS, NULL, NULL, NULL), LIM_SLG);
	EXPECT_EQ(lim_admit(&pb, LIM_ROLE_LNS, NULL, NULL, NULL), LIM_SLG);

	/* Logouts bring the group to 6000: still refused; at 5999 one more fits. */
	while (slg.count > 6000)
		ASSERT_EQ(lim_release(&pc, NULL, &err), 0);
	EXPECT_EQ(lim_admit(&pc, LIM_ROLE_LNS, NULL, NULL, NULL), LIM_SLG);
	ASSERT_EQ(lim_release(&pc, NULL, &err), 0);
	EXPECT_EQ(lim_admit(&pb, LIM_ROLE_LNS, NULL, NULL, NULL), LIM_PASS);
	EXPECT_EQ(ch.count, 3500 + 1001 + 4999);	/* A, B, C */
}

/*
 * S-LIM-5: a client is its host name and its limit applies per tunnel group.
 * LACs A, B and C all say "ce-lac"; A and B reach tunnel group 1, C tunnel
 * group 2; limit 100: A and B share 100, C has 100 of its own.
 */
UNIT_TEST(lim_client_limit_per_tunnel_group)
{
	struct lim_chassis ch;
	u32 tun_a = 0, tun_b = 0, tun_c = 0, tg1 = 0, tg2 = 0;
	u32 celac_tg1 = 0, celac_tg2 = 0, celac_total = 0;
	const u32 client_limit = 100;
	struct lim_path pa = { 0 }, pb, pc;
	u32 na, nb, nc;

	lim_chassis_init(&ch);
	pa.slot[LIM_CHASSIS] = lim_chassis_slot(&ch);
	pa.slot[LIM_TUNNEL] = (struct lim_slot){ &tun_a, 0 };
	pa.slot[LIM_TUNNEL_GROUP] = (struct lim_slot){ &tg1, 0 };
	pa.slot[LIM_CLIENT] = (struct lim_slot){ &celac_tg1, client_limit };
	pa.client_total = &celac_total;
	pb = pa;
	pb.slot[LIM_TUNNEL].count = &tun_b;
	pc = pa;
	pc.slot[LIM_TUNNEL].count = &tun_c;
	pc.slot[LIM_TUNNEL_GROUP].count = &tg2;
	pc.slot[LIM_CLIENT].count = &celac_tg2;

	na = admit_n(&pa, 60);
	nb = admit_n(&pb, 60);
	nc = admit_n(&pc, 150);
	EXPECT_EQ(na, 60);
	EXPECT_EQ(nb, 40);		/* A and B share the 100 of tunnel group 1 */
	EXPECT_EQ(nc, 100);		/* C has its own 100 in tunnel group 2 */
	EXPECT_EQ(lim_check(&pa, LIM_ROLE_LNS, NULL, NULL), LIM_CLIENT);
	EXPECT_EQ(celac_total, 200);
	EXPECT_EQ(ch.count, 200);
}

/* S-LIM-6: no configured limit above the chassis maximum; the maximum itself refuses. */
UNIT_TEST(lim_chassis_maximum_bounds)
{
	struct lim_chassis ch;
	struct l2s_err err = { 0 };
	struct lim_path p = { 0 };
	u32 i;

	lim_chassis_init(&ch);
	EXPECT_EQ(lim_check_value(&ch, LIM_DEFAULT_CHASSIS_MAX, "tunnel", &err), 0);
	EXPECT_EQ(lim_check_value(&ch, LIM_DEFAULT_CHASSIS_MAX + 1, "tunnel", &err), -ERANGE);
	EXPECT_STREQ(err.msg, "tunnel limit 1000001 is above the chassis maximum 1000000");

	EXPECT_EQ(lim_set_maximum(&ch, 500, 600, &err), -ERANGE);
	EXPECT_TRUE(strstr(err.msg, "below a configured limit of 600") != NULL);
	EXPECT_EQ(ch.maximum, LIM_DEFAULT_CHASSIS_MAX);
	EXPECT_EQ(lim_set_maximum(&ch, 0, 0, &err), -ERANGE);
	EXPECT_EQ(lim_set_maximum(&ch, 3, 0, &err), 0);

	/* No limit configured: the maximum still refuses the 4th session. */
	p.slot[LIM_CHASSIS] = lim_chassis_slot(&ch);
	for (i = 0; i < 3; i++)
		EXPECT_EQ(lim_admit(&p, LIM_ROLE_LAC, NULL, NULL, NULL), LIM_PASS);
	EXPECT_EQ(lim_admit(&p, LIM_ROLE_LAC, NULL, NULL, NULL), LIM_CHASSIS);
	/* A configured limit below the maximum wins. */
	ch.limit = 2;
	EXPECT_EQ(lim_chassis_slot(&ch).limit, 2);
}

/* S-LIM-7: what the LNS answers a refused ICRQ with (the agent sends it). */
UNIT_TEST(lim_refusal_is_cdn_4_4)
{
	EXPECT_EQ(LIM_CDN_RESULT, 4);
	EXPECT_EQ(LIM_CDN_ERROR, 4);
}

/* Releasing a session that was never up changes nothing and says so (S-LIM-9). */
UNIT_TEST(lim_release_underflow_refused)
{
	struct lim_chassis ch;
	u32 tun = 0, total = 0, tg = 0;
	struct lim_path p = { 0 };
	struct l2s_err err = { 0 };
	struct lim_slg slg = { .limit = 5, .count = 1 };

	lim_chassis_init(&ch);
	ch.count = 1;
	p.slot[LIM_CHASSIS] = lim_chassis_slot(&ch);
	p.slot[LIM_TUNNEL] = (struct lim_slot){ &tun, 0 };
	p.slot[LIM_TUNNEL_GROUP] = (struct lim_slot){ &tg, 0 };
	p.client_total = &total;
	EXPECT_EQ(lim_release(&p, NULL, &err), -ENOENT);
	EXPECT_STREQ(err.msg, "tunnel session count is already 0: no such session to release");
	EXPECT_EQ(ch.count, 1);		/* all or nothing */
	EXPECT_EQ(lim_slg_remove_client(&slg, 2, &err), -ERANGE);
	EXPECT_EQ(slg.count, 1);
}

/* limit reached / cleared bits, for the kernel's events. */
UNIT_TEST(lim_reached_and_cleared_bits)
{
	struct lim_chassis ch;
	u32 tun = 0, reached = 0, cleared = 0;
	struct lim_path p = { 0 };

	lim_chassis_init(&ch);
	ch.limit = 2;
	p.slot[LIM_CHASSIS] = lim_chassis_slot(&ch);
	p.slot[LIM_TUNNEL] = (struct lim_slot){ &tun, 1 };
	EXPECT_EQ(lim_admit(&p, LIM_ROLE_LAC, NULL, NULL, &reached), LIM_PASS);
	EXPECT_EQ(reached, 1u << LIM_TUNNEL);
	EXPECT_EQ(lim_release(&p, &cleared, NULL), 0);
	EXPECT_EQ(cleared, 1u << LIM_TUNNEL);
	EXPECT_EQ(lim_release(&p, &cleared, NULL), -ENOENT);
}

/*
 * S-LIM-9: counters never drift.  Random admits, releases (real and bogus),
 * limit changes and session-limit-group membership changes over a small
 * model; after every step each counter equals the live sessions it covers.
 */
#define M_TUN 4
#define M_TG 3
#define M_CL 5
#define M_SLG 2
#define M_SESS 512

struct model {
	struct lim_chassis ch;
	u32 tun[M_TUN], tg[M_TG], cl_tg[M_CL][M_TG], cl_total[M_CL];
	struct lim_slg slg[M_SLG];
	int member[M_CL];	/* slg index or -1 */
	u32 cl_limit[M_CL];
	struct { int tun, tg, cl; bool live; } s[M_SESS];
	int nlive;
};

static struct lim_path model_path(struct model *m, int t, int g, int c)
{
	struct lim_path p = { 0 };

	p.slot[LIM_CHASSIS] = lim_chassis_slot(&m->ch);
	p.slot[LIM_TUNNEL] = (struct lim_slot){ &m->tun[t], m->ch.tunnel_limit };
	p.slot[LIM_TUNNEL_GROUP] = (struct lim_slot){ &m->tg[g], 7 + 3 * g };
	if (m->member[c] >= 0)
		p.slot[LIM_SLG] = (struct lim_slot){ &m->slg[m->member[c]].count,
						     m->slg[m->member[c]].limit };
	p.slot[LIM_CLIENT] = (struct lim_slot){ &m->cl_tg[c][g], m->cl_limit[c] };
	p.client_total = &m->cl_total[c];
	return p;
}

static int model_verify(const struct model *m)
{
	u32 ch = 0, tun[M_TUN] = { 0 }, tg[M_TG] = { 0 }, cltg[M_CL][M_TG] = { { 0 } };
	u32 cl[M_CL] = { 0 }, slg[M_SLG] = { 0 };
	int i, j;

	for (i = 0; i < M_SESS; i++) {
		if (!m->s[i].live)
			continue;
		ch++;
		tun[m->s[i].tun]++;
		tg[m->s[i].tg]++;
		cltg[m->s[i].cl][m->s[i].tg]++;
		cl[m->s[i].cl]++;
		if (m->member[m->s[i].cl] >= 0)
			slg[m->member[m->s[i].cl]]++;
	}
	if (ch != m->ch.count || (int)ch != m->nlive)
		return 1;
	for (i = 0; i < M_TUN; i++)
		if (tun[i] != m->tun[i])
			return 2;
	for (i = 0; i < M_TG; i++)
		if (tg[i] != m->tg[i])
			return 3;
	for (i = 0; i < M_CL; i++) {
		if (cl[i] != m->cl_total[i])
			return 4;
		for (j = 0; j < M_TG; j++)
			if (cltg[i][j] != m->cl_tg[i][j])
				return 5;
	}
	for (i = 0; i < M_SLG; i++)
		if (slg[i] != m->slg[i].count)
			return 6;
	return 0;
}

UNIT_TEST(lim_property_counters_never_drift)
{
	static struct model m;
	unsigned int seed = 12345;
	int step, bad = 0, rejected = 0, admitted = 0;
	struct l2s_err err;

	memset(&m, 0, sizeof(m));
	lim_chassis_init(&m.ch);
	m.ch.limit = 300;
	m.ch.tunnel_limit = 90;
	for (step = 0; step < M_CL; step++) {
		m.member[step] = step % 3 == 2 ? -1 : step % M_SLG;
		m.cl_limit[step] = step == 4 ? 0 : 10 + step;
	}
	m.slg[0].limit = 20;
	m.slg[1].limit = 0;
	for (step = 0; step < 200000 && !bad; step++) {
		int op = rand_r(&seed) % 100;
		int t = rand_r(&seed) % M_TUN, g = rand_r(&seed) % M_TG, c = rand_r(&seed) % M_CL;
		int i = rand_r(&seed) % M_SESS;
		struct lim_path p;

		if (op < 50) {
			if (m.s[i].live)
				continue;
			p = model_path(&m, t, g, c);
			if (lim_admit(&p, rand_r(&seed) % 2 ? LIM_ROLE_LNS : LIM_ROLE_LAC,
				      NULL, NULL, NULL) == LIM_PASS) {
				m.s[i].tun = t;
				m.s[i].tg = g;
				m.s[i].cl = c;
				m.s[i].live = true;
				m.nlive++;
				admitted++;
			} else {
				rejected++;
			}
		} else if (op < 90) {
			if (!m.s[i].live) {
				/* A bogus release of a path with an empty counter must change nothing. */
				p = model_path(&m, t, g, c);
				if (!m.cl_tg[c][g] && lim_release(&p, NULL, &err) != -ENOENT)
					bad = 100;
				continue;
			}
			p = model_path(&m, m.s[i].tun, m.s[i].tg, m.s[i].cl);
			if (lim_release(&p, NULL, &err)) {
				bad = 101;
				break;
			}
			m.s[i].live = false;
			m.nlive--;
		} else if (op < 97) {
			/* Membership change: move client c to another group, or out. */
			int to = (int)(rand_r(&seed) % (M_SLG + 1)) - 1;

			if (m.member[c] >= 0 && lim_slg_remove_client(&m.slg[m.member[c]], m.cl_total[c], &err))
				bad = 102;
			m.member[c] = to;
			if (to >= 0)
				lim_slg_add_client(&m.slg[to], m.cl_total[c]);
		} else {
			/* Limits change under live sessions; nothing is dropped. */
			m.ch.tunnel_limit = rand_r(&seed) % 120;
			m.slg[0].limit = rand_r(&seed) % 40;
		}
		if (!bad)
			bad = model_verify(&m);
	}
	if (bad)
		unit_fail(__FILE__, __LINE__, "counters drifted at step %d (code %d)", step, bad);
	UNIT_DIAG("%d admitted, %d refused, %d live at the end", admitted, rejected, m.nlive);
	EXPECT_TRUE(admitted > 1000 && rejected > 1000);
}
