// SPDX-License-Identifier: GPL-2.0
/*
 * Session admission (core/lim.c, SPEC §4, S-LIM-1..9, and the five tables
 * of reference 000, "L2TP-Sitzungslimits"): the KUnit suite l2tpsel and
 * the userspace tests lim_*, one case each (core/tests/t.h says how).
 * Both builds run every case.
 */
#include "t.h"
#include "lim.h"

/* One row of a reference table: configured limit, current count, expected check result. */
struct row {
	u32 limit;
	u32 count;
	/* 'P' pass ("Bestehen"), 'F' fail ("Fehler"), '-' not checked, 'x' level absent */
	char expect;
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
static void check_table(t_test *test, const struct row rows[LIM_NLEVELS], enum lim_level want)
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
	T_EXPECT_STREQ(lim_level_name(got), lim_level_name(want));
	for (l = 0; l < LIM_NLEVELS; l++) {
		char exp = rows[l].expect == 'x' ? '-' : rows[l].expect;

		if (t.seen[l] != exp)
			T_FAIL("level %s: checked '%c', table says '%c'",
			       lim_level_name(l), t.seen[l], exp);
	}
}

/* S-LIM-8, S-LIM-1: Tabelle 1, chassis limit: the chassis fails, nothing else is checked. */
T_CASE(lim_table1_chassis)
{
	const struct row r[LIM_NLEVELS] = {
		{ 10000, 10000, 'F' }, { 10000, 10000, '-' }, { 10000, 10000, '-' },
		{ 10000, 10000, '-' }, { 10000, 10000, '-' },
	};
	check_table(test, r, LIM_CHASSIS);
}

/* S-LIM-8, S-LIM-2: Tabelle 2, tunnel limit. */
T_CASE(lim_table2_tunnel)
{
	const struct row r[LIM_NLEVELS] = {
		{ 10000, 2000, 'P' }, { 2000, 2000, 'F' }, { 10000, 2000, '-' },
		{ 6000, 2000, '-' }, { 6000, 2000, '-' },
	};
	check_table(test, r, LIM_TUNNEL);
}

/* S-LIM-8, S-LIM-3: Tabelle 3, tunnel-group limit. */
T_CASE(lim_table3_tunnel_group)
{
	const struct row r[LIM_NLEVELS] = {
		{ 10000, 2000, 'P' }, { 10000, 2000, 'P' }, { 2000, 2000, 'F' },
		{ 6000, 2000, '-' }, { 6000, 2000, '-' },
	};
	check_table(test, r, LIM_TUNNEL_GROUP);
}

/* S-LIM-8, S-LIM-4: Tabelle 4, session-limit group slg1 at 6000. */
T_CASE(lim_table4_slg)
{
	const struct row r[LIM_NLEVELS] = {
		{ 10000, 6000, 'P' }, { 10000, 6000, 'P' }, { 10000, 6000, 'P' },
		{ 6000, 6000, 'F' }, { 8000, 2000, '-' },
	};
	check_table(test, r, LIM_SLG);
}

/* S-LIM-8, S-LIM-5: Tabelle 5, client ent1-serviceA (in no group) at 6000. */
T_CASE(lim_table5_client)
{
	const struct row r[LIM_NLEVELS] = {
		{ 10000, 6000, 'P' }, { 10000, 6000, 'P' }, { 8000, 6000, 'P' },
		{ 0, 0, 'x' }, { 6000, 6000, 'F' },
	};
	check_table(test, r, LIM_CLIENT);
}

/* S-LIM-1: no limit configured passes; count above the limit also refuses. */
T_CASE(lim_no_limit_passes_and_above_limit_refuses)
{
	struct lim_chassis ch;
	u32 tun = 5, tg = 7;
	struct lim_path p = { 0 };

	lim_chassis_init(&ch);
	p.slot[LIM_CHASSIS] = lim_chassis_slot(&ch);
	p.slot[LIM_TUNNEL] = (struct lim_slot){ &tun, 0 };
	p.slot[LIM_TUNNEL_GROUP] = (struct lim_slot){ &tg, 0 };
	T_EXPECT_EQ(lim_check(&p, LIM_ROLE_LNS, NULL, NULL), LIM_PASS);
	/* A limit lowered below the live count (reconfiguration) refuses new sessions. */
	p.slot[LIM_TUNNEL_GROUP].limit = 3;
	T_EXPECT_EQ(lim_check(&p, LIM_ROLE_LNS, NULL, NULL), LIM_TUNNEL_GROUP);
}

/* S-LIM-1: the LAC checks chassis and tunnel only; the LNS all five. */
T_CASE(lim_lac_checks_chassis_and_tunnel_only)
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
	T_EXPECT_EQ(lim_check(&p, LIM_ROLE_LNS, NULL, NULL), LIM_TUNNEL_GROUP);
	memset(t.seen, '-', sizeof(t.seen));
	T_EXPECT_EQ(lim_check(&p, LIM_ROLE_LAC, trace_cb, &t), LIM_PASS);
	T_EXPECT_TRUE(t.seen[LIM_CHASSIS] == 'P' && t.seen[LIM_TUNNEL] == 'P');
	T_EXPECT_TRUE(t.seen[LIM_TUNNEL_GROUP] == '-' && t.seen[LIM_SLG] == '-' &&
		      t.seen[LIM_CLIENT] == '-');
	T_EXPECT_EQ(lim_admit(&p, LIM_ROLE_LAC, NULL, NULL, &reached), LIM_PASS);
	T_EXPECT_EQ(reached, 1u << LIM_TUNNEL);
	T_EXPECT_EQ(lim_admit(&p, LIM_ROLE_LAC, NULL, NULL, NULL), LIM_TUNNEL);
	T_EXPECT_EQ(ch.count, 1);
}

/* S-LIM-2: one tunnel limit, applied to every tunnel separately. */
T_CASE(lim_tunnel_limit_per_tunnel)
{
	struct lim_chassis ch;
	u32 a = 0, b = 0, i;
	struct lim_path pa = { 0 }, pb = { 0 };

	lim_chassis_init(&ch);
	ch.tunnel_limit = 2000;
	pa.slot[LIM_CHASSIS] = lim_chassis_slot(&ch);
	pb.slot[LIM_CHASSIS] = pa.slot[LIM_CHASSIS];
	pa.slot[LIM_TUNNEL] = (struct lim_slot){ &a, ch.tunnel_limit };
	pb.slot[LIM_TUNNEL] = (struct lim_slot){ &b, ch.tunnel_limit };
	for (i = 0; i < 2000; i++)
		T_ASSERT_EQ(lim_admit(&pa, LIM_ROLE_LNS, NULL, NULL, NULL), LIM_PASS);
	T_EXPECT_EQ(lim_admit(&pa, LIM_ROLE_LNS, NULL, NULL, NULL), LIM_TUNNEL);
	/* Tunnel A at its limit does not affect tunnel B. */
	T_EXPECT_EQ(lim_admit(&pb, LIM_ROLE_LNS, NULL, NULL, NULL), LIM_PASS);
	T_EXPECT_EQ(ch.count, 2001);
	T_EXPECT_EQ(a, 2000);
	T_EXPECT_EQ(b, 1);
}

/* S-LIM-3: tunnel-group limits are per group. */
T_CASE(lim_tunnel_group_limits_per_group)
{
	struct lim_chassis ch;
	u32 t1 = 0, g1 = 2000, g2 = 10;
	struct lim_path p1 = { 0 }, p2 = { 0 };

	lim_chassis_init(&ch);
	p1.slot[LIM_CHASSIS] = lim_chassis_slot(&ch);
	p2.slot[LIM_CHASSIS] = p1.slot[LIM_CHASSIS];
	p1.slot[LIM_TUNNEL] = (struct lim_slot){ &t1, 0 };
	p2.slot[LIM_TUNNEL] = p1.slot[LIM_TUNNEL];
	p1.slot[LIM_TUNNEL_GROUP] = (struct lim_slot){ &g1, 2000 };
	p2.slot[LIM_TUNNEL_GROUP] = (struct lim_slot){ &g2, 2000 };
	T_EXPECT_EQ(lim_admit(&p1, LIM_ROLE_LNS, NULL, NULL, NULL), LIM_TUNNEL_GROUP);
	T_EXPECT_EQ(lim_admit(&p2, LIM_ROLE_LNS, NULL, NULL, NULL), LIM_PASS);
	T_EXPECT_EQ(g1, 2000);
	T_EXPECT_EQ(g2, 11);
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
 * ones are refused until the sum falls below 6000.  (The kernel's
 * l2tpsel_lim_slg_test, add and remove and a refused removal, merged here.)
 */
T_CASE(lim_slg_membership_sequence)
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
	T_ASSERT_EQ(admit_n(&pa, 3500), 3500);
	lim_slg_add_client(&slg, a.total);
	lim_slg_add_client(&slg, b.total);
	T_EXPECT_EQ(slg.limit - slg.count, 2500);

	pb = slg_path(&ch, &tun, &slg, &b, true);
	T_ASSERT_EQ(admit_n(&pb, 1000), 1000);
	T_EXPECT_EQ(slg.limit - slg.count, 1500);

	/* more than the group holds: refused, nothing moved (was the kernel's) */
	T_EXPECT_EQ(lim_slg_remove_client(&slg, a.total + 1001, &err), -ERANGE);
	T_EXPECT_EQ(slg.count, 4500u);
	T_ASSERT_EQ(lim_slg_remove_client(&slg, a.total, &err), 0);
	T_EXPECT_EQ(slg.limit - slg.count, 5000);
	T_EXPECT_EQ(a.total, 3500);	/* A keeps its sessions */

	pc = slg_path(&ch, &tun, &slg, &c, false);
	T_ASSERT_EQ(admit_n(&pc, 8000), 8000);
	lim_slg_add_client(&slg, c.total);
	T_EXPECT_EQ(slg.count, 9000);
	T_EXPECT_EQ(c.total, 8000);	/* nothing dropped */
	T_EXPECT_EQ(b.total, 1000);
	pc = slg_path(&ch, &tun, &slg, &c, true);
	T_EXPECT_EQ(lim_admit(&pc, LIM_ROLE_LNS, NULL, NULL, NULL), LIM_SLG);
	T_EXPECT_EQ(lim_admit(&pb, LIM_ROLE_LNS, NULL, NULL, NULL), LIM_SLG);

	/* Logouts bring the group to 6000: still refused; at 5999 one more fits. */
	while (slg.count > 6000)
		T_ASSERT_EQ(lim_release(&pc, NULL, &err), 0);
	T_EXPECT_EQ(lim_admit(&pc, LIM_ROLE_LNS, NULL, NULL, NULL), LIM_SLG);
	T_ASSERT_EQ(lim_release(&pc, NULL, &err), 0);
	T_EXPECT_EQ(lim_admit(&pb, LIM_ROLE_LNS, NULL, NULL, NULL), LIM_PASS);
	T_EXPECT_EQ(ch.count, 3500 + 1001 + 4999);	/* A, B, C */
}

/*
 * S-LIM-5: a client is its host name and its limit applies per tunnel group.
 * LACs A, B and C all say "ce-lac"; A and B reach tunnel group 1, C tunnel
 * group 2; limit 100: A and B share 100, C has 100 of its own.
 */
T_CASE(lim_client_limit_per_tunnel_group)
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
	T_EXPECT_EQ(na, 60);
	T_EXPECT_EQ(nb, 40);		/* A and B share the 100 of tunnel group 1 */
	T_EXPECT_EQ(nc, 100);		/* C has its own 100 in tunnel group 2 */
	T_EXPECT_EQ(lim_check(&pa, LIM_ROLE_LNS, NULL, NULL), LIM_CLIENT);
	T_EXPECT_EQ(celac_total, 200);
	T_EXPECT_EQ(ch.count, 200);
}

/*
 * S-LIM-6: no configured limit above the chassis maximum, the maximum not
 * below a limit, and the maximum itself refuses; the effective chassis
 * limit is the lower of limit and maximum.  (Was lim_chassis_maximum_bounds
 * in userspace and l2tpsel_lim_maximum_test in the kernel.)
 */
T_CASE(lim_chassis_maximum_bounds)
{
	struct lim_chassis ch;
	struct l2s_err err = { 0 };
	struct lim_path p = { 0 };
	struct lim_slot s;
	u32 i;

	lim_chassis_init(&ch);
	T_EXPECT_EQ(ch.maximum, LIM_DEFAULT_CHASSIS_MAX);
	T_EXPECT_EQ(lim_check_value(&ch, 0, "tunnel", &err), 0);
	T_EXPECT_EQ(lim_check_value(&ch, LIM_DEFAULT_CHASSIS_MAX, "tunnel", &err), 0);
	T_EXPECT_EQ(lim_check_value(&ch, LIM_DEFAULT_CHASSIS_MAX + 1, "tunnel", &err), -ERANGE);
	T_ASSERT_NOT_NULL(err.msg);
	/* in the kernel the message is formatted by its snprintf into err.buf */
	T_EXPECT_STREQ(err.msg, "tunnel limit 1000001 is above the chassis maximum 1000000");

	T_EXPECT_EQ(lim_set_maximum(&ch, 500, 600, &err), -ERANGE);
	T_EXPECT_NOT_NULL(strstr(err.msg, "below a configured limit of 600"));
	T_EXPECT_EQ(lim_set_maximum(&ch, 10, 11, &err), -ERANGE);
	T_EXPECT_EQ(ch.maximum, LIM_DEFAULT_CHASSIS_MAX);
	T_EXPECT_EQ(lim_set_maximum(&ch, 0, 0, &err), -ERANGE);
	T_EXPECT_EQ(lim_set_maximum(&ch, 10, 10, &err), 0);
	T_EXPECT_EQ(lim_set_maximum(&ch, 3, 0, &err), 0);

	/* No limit configured: the maximum still refuses the 4th session. */
	p.slot[LIM_CHASSIS] = lim_chassis_slot(&ch);
	for (i = 0; i < 3; i++)
		T_EXPECT_EQ(lim_admit(&p, LIM_ROLE_LAC, NULL, NULL, NULL), LIM_PASS);
	T_EXPECT_EQ(lim_admit(&p, LIM_ROLE_LAC, NULL, NULL, NULL), LIM_CHASSIS);
	/* The lower of limit and maximum applies, on the chassis' own count. */
	ch.limit = 20;
	s = lim_chassis_slot(&ch);
	T_EXPECT_PTR_EQ(s.count, &ch.count);
	T_EXPECT_EQ(s.limit, 3u);
	ch.limit = 2;
	T_EXPECT_EQ(lim_chassis_slot(&ch).limit, 2u);
}

/* S-LIM-7: what the LNS answers a refused ICRQ with (the agent sends it). */
T_CASE(lim_refusal_is_cdn_4_4)
{
	T_EXPECT_EQ(LIM_CDN_RESULT, 4);
	T_EXPECT_EQ(LIM_CDN_ERROR, 4);
}

/* Releasing a session that was never up changes nothing and says so (S-LIM-9). */
T_CASE(lim_release_underflow_refused)
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
	T_EXPECT_EQ(lim_release(&p, NULL, &err), -ENOENT);
	T_EXPECT_STREQ(err.msg, "tunnel session count is already 0: no such session to release");
	T_EXPECT_EQ(ch.count, 1);		/* all or nothing */
	T_EXPECT_EQ(lim_slg_remove_client(&slg, 2, &err), -ERANGE);
	T_EXPECT_EQ(slg.count, 1);
}

/* limit reached / cleared bits, for the kernel's events. */
T_CASE(lim_reached_and_cleared_bits)
{
	struct lim_chassis ch;
	u32 tun = 0, reached = 0, cleared = 0;
	struct lim_path p = { 0 };

	lim_chassis_init(&ch);
	ch.limit = 2;
	p.slot[LIM_CHASSIS] = lim_chassis_slot(&ch);
	p.slot[LIM_TUNNEL] = (struct lim_slot){ &tun, 1 };
	T_EXPECT_EQ(lim_admit(&p, LIM_ROLE_LAC, NULL, NULL, &reached), LIM_PASS);
	T_EXPECT_EQ(reached, 1u << LIM_TUNNEL);
	T_EXPECT_EQ(lim_release(&p, &cleared, NULL), 0);
	T_EXPECT_EQ(cleared, 1u << LIM_TUNNEL);
	T_EXPECT_EQ(lim_release(&p, &cleared, NULL), -ENOENT);
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

/* xorshift32: the same draws in both builds (the kernel has no rand_r()). */
static int model_rand(u32 *s)
{
	u32 x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*s = x;
	return (int)(x >> 1);
}

/*
 * Fewer steps in the kernel: each verifies all M_SESS sessions, which the
 * debug kernel (KASAN, under TCG) runs tens of times slower.
 */
#ifdef L2S_KERNEL
#define M_STEPS	20000
#else
#define M_STEPS	200000
#endif

T_CASE(lim_property_counters_never_drift)
{
	struct model *mp = T_ZALLOC(sizeof(*mp));
	int step, bad = 0, rejected = 0, admitted = 0;
	u32 seed = 12345;
	struct l2s_err err;

	T_ASSERT_NOT_NULL(mp);
	lim_chassis_init(&mp->ch);
	mp->ch.limit = 300;
	mp->ch.tunnel_limit = 90;
	for (step = 0; step < M_CL; step++) {
		mp->member[step] = step % 3 == 2 ? -1 : step % M_SLG;
		mp->cl_limit[step] = step == 4 ? 0 : 10 + step;
	}
	mp->slg[0].limit = 20;
	mp->slg[1].limit = 0;
	for (step = 0; step < M_STEPS && !bad; step++) {
		int op = model_rand(&seed) % 100;
		int t = model_rand(&seed) % M_TUN, g = model_rand(&seed) % M_TG;
		int c = model_rand(&seed) % M_CL;
		int i = model_rand(&seed) % M_SESS;
		struct lim_path p;

		if (op < 50) {
			if (mp->s[i].live)
				continue;
			p = model_path(mp, t, g, c);
			if (lim_admit(&p, model_rand(&seed) % 2 ? LIM_ROLE_LNS : LIM_ROLE_LAC,
				      NULL, NULL, NULL) == LIM_PASS) {
				mp->s[i].tun = t;
				mp->s[i].tg = g;
				mp->s[i].cl = c;
				mp->s[i].live = true;
				mp->nlive++;
				admitted++;
			} else {
				rejected++;
			}
		} else if (op < 90) {
			if (!mp->s[i].live) {
				/* A bogus release of an empty counter's path changes nothing. */
				p = model_path(mp, t, g, c);
				if (!mp->cl_tg[c][g] && lim_release(&p, NULL, &err) != -ENOENT)
					bad = 100;
				continue;
			}
			p = model_path(mp, mp->s[i].tun, mp->s[i].tg, mp->s[i].cl);
			if (lim_release(&p, NULL, &err)) {
				bad = 101;
				break;
			}
			mp->s[i].live = false;
			mp->nlive--;
		} else if (op < 97) {
			/* Membership change: move client c to another group, or out. */
			int to = (int)(model_rand(&seed) % (M_SLG + 1)) - 1;

			if (mp->member[c] >= 0 &&
			    lim_slg_remove_client(&mp->slg[mp->member[c]], mp->cl_total[c], &err))
				bad = 102;
			mp->member[c] = to;
			if (to >= 0)
				lim_slg_add_client(&mp->slg[to], mp->cl_total[c]);
		} else {
			/* Limits change under live sessions; nothing is dropped. */
			mp->ch.tunnel_limit = model_rand(&seed) % 120;
			mp->slg[0].limit = model_rand(&seed) % 40;
		}
		if (!bad)
			bad = model_verify(mp);
	}
	if (bad)
		T_FAIL("counters drifted at step %d (code %d)", step, bad);
	T_INFO("%d admitted, %d refused, %d live at the end", admitted, rejected, mp->nlive);
	T_EXPECT_TRUE(admitted > 1000 && rejected > 1000);
}

/* S-LIM-1 names, as the CLI, events and traces print them. */
struct lim_name_case {
	enum lim_level level;
	const char *name;
};

static const struct lim_name_case lim_name_cases[] = {
	{ LIM_CHASSIS, "chassis" },
	{ LIM_TUNNEL, "tunnel" },
	{ LIM_TUNNEL_GROUP, "tunnel-group" },
	{ LIM_SLG, "slg" },
	{ LIM_CLIENT, "client" },
	{ LIM_PASS, "pass" },
};

T_PARAM_CASE(lim_level_name, struct lim_name_case, lim_name_cases, name)
{
	T_EXPECT_STREQ(lim_level_name(c->level), c->name);
}

/*
 * S-LIM-1: the LAC checks chassis and tunnel, the LNS all five levels, in
 * order.  Each case fills one level to its limit (and, for @also, a later
 * one too) and names the level that must refuse.
 */
struct lim_role_case {
	const char *desc;
	enum lim_role role;
	enum lim_level full;
	enum lim_level also;	/* LIM_PASS: only @full is full */
	enum lim_level want;
};

static const struct lim_role_case lim_role_cases[] = {
	{ "LAC chassis full", LIM_ROLE_LAC, LIM_CHASSIS, LIM_PASS, LIM_CHASSIS },
	{ "LAC tunnel full", LIM_ROLE_LAC, LIM_TUNNEL, LIM_PASS, LIM_TUNNEL },
	{ "LAC ignores tunnel group", LIM_ROLE_LAC, LIM_TUNNEL_GROUP, LIM_PASS, LIM_PASS },
	{ "LAC ignores slg", LIM_ROLE_LAC, LIM_SLG, LIM_PASS, LIM_PASS },
	{ "LAC ignores client", LIM_ROLE_LAC, LIM_CLIENT, LIM_PASS, LIM_PASS },
	{ "LNS tunnel group full", LIM_ROLE_LNS, LIM_TUNNEL_GROUP, LIM_PASS, LIM_TUNNEL_GROUP },
	{ "LNS slg full", LIM_ROLE_LNS, LIM_SLG, LIM_PASS, LIM_SLG },
	{ "LNS client full", LIM_ROLE_LNS, LIM_CLIENT, LIM_PASS, LIM_CLIENT },
	{ "LNS first full level refuses", LIM_ROLE_LNS, LIM_TUNNEL, LIM_CLIENT, LIM_TUNNEL },
};

/* A path over @counts with limit 2 on every level and a count of 1. */
static void lim_test_path(struct lim_path *p, u32 counts[LIM_NLEVELS], u32 *client_total)
{
	int l;

	memset(p, 0, sizeof(*p));
	for (l = 0; l < LIM_NLEVELS; l++) {
		counts[l] = 1;
		p->slot[l].count = &counts[l];
		p->slot[l].limit = 2;
	}
	p->client_total = client_total;
}

T_PARAM_CASE(lim_role, struct lim_role_case, lim_role_cases, desc)
{
	u32 counts[LIM_NLEVELS], before[LIM_NLEVELS], total = 1;
	struct lim_path p;

	lim_test_path(&p, counts, &total);
	counts[c->full] = 2;
	if (c->also != LIM_PASS)
		counts[c->also] = 2;
	memcpy(before, counts, sizeof(before));

	T_EXPECT_EQ(lim_check(&p, c->role, NULL, NULL), c->want);
	T_EXPECT_EQ(lim_admit(&p, c->role, NULL, NULL, NULL), c->want);
	if (c->want != LIM_PASS) {
		/* A refused session is counted nowhere. */
		T_EXPECT_EQ(memcmp(before, counts, sizeof(before)), 0);
		T_EXPECT_EQ(total, 1u);
	}
}

/* Admit up to the limit, refuse one more, release: counters and bits stay exact. */
T_CASE(lim_admit_release)
{
	u32 counts[LIM_NLEVELS], total = 1, reached = 0, cleared = 0;
	struct l2s_err err = { };
	struct lim_path p;
	int l;

	lim_test_path(&p, counts, &total);
	p.slot[LIM_CHASSIS].limit = 0;	/* no limit: never reached */

	T_ASSERT_EQ(lim_admit(&p, LIM_ROLE_LNS, NULL, NULL, &reached), LIM_PASS);
	T_EXPECT_EQ(reached, ~(1u << LIM_CHASSIS) & ((1u << LIM_NLEVELS) - 1));
	for (l = 0; l < LIM_NLEVELS; l++)
		T_EXPECT_EQ(counts[l], 2u);
	T_EXPECT_EQ(total, 2u);

	T_EXPECT_EQ(lim_admit(&p, LIM_ROLE_LNS, NULL, NULL, NULL), LIM_TUNNEL);
	T_EXPECT_EQ(counts[LIM_CHASSIS], 2u);

	T_ASSERT_EQ(lim_release(&p, &cleared, &err), 0);
	T_EXPECT_EQ(cleared, reached);
	T_ASSERT_EQ(lim_release(&p, &cleared, &err), 0);
	T_EXPECT_EQ(cleared, 0u);
	for (l = 0; l < LIM_NLEVELS; l++)
		T_EXPECT_EQ(counts[l], 0u);
	T_EXPECT_EQ(total, 0u);

	/* A session that was never up: refused, with a reason, nothing changed. */
	T_EXPECT_EQ(lim_release(&p, NULL, &err), -ENOENT);
	T_ASSERT_NOT_NULL(err.msg);
	T_EXPECT_NOT_NULL(strstr(err.msg, "already 0"));
	T_EXPECT_EQ(counts[LIM_CHASSIS], 0u);
}

T_SUITE(l2tpsel,
	T_PARAM_ENTRY(lim_level_name)
	T_PARAM_ENTRY(lim_role)
	T_ENTRY(lim_admit_release)
	T_ENTRY(lim_table1_chassis)
	T_ENTRY(lim_table2_tunnel)
	T_ENTRY(lim_table3_tunnel_group)
	T_ENTRY(lim_table4_slg)
	T_ENTRY(lim_table5_client)
	T_ENTRY(lim_no_limit_passes_and_above_limit_refuses)
	T_ENTRY(lim_lac_checks_chassis_and_tunnel_only)
	T_ENTRY(lim_tunnel_limit_per_tunnel)
	T_ENTRY(lim_tunnel_group_limits_per_group)
	T_ENTRY(lim_slg_membership_sequence)
	T_ENTRY(lim_client_limit_per_tunnel_group)
	T_ENTRY(lim_chassis_maximum_bounds)
	T_ENTRY(lim_refusal_is_cdn_4_4)
	T_ENTRY(lim_release_underflow_refused)
	T_ENTRY(lim_reached_and_cleared_bits)
	T_ENTRY(lim_property_counters_never_drift));
