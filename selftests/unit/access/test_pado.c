// SPDX-License-Identifier: GPL-2.0
/*
 * The access side's PADO delay and the whole LAC's drain (S-OPS-1), on
 * the access files themselves, their kernel faked (fakes.h: the kernel's
 * PPPoE session is a socket nobody reads, /dev/ppp one end of a
 * socketpair), on a fake clock, with a real agent behind it ("kernel
 * none").  Its own binary (build/access-tests, in make unit): the
 * unit-test binary stands in for two functions of access.c.
 *
 * - pado-delay parsing: fixed, steps by session count, "off", and every
 *   refusal with its reason;
 * - a PADO waits on the loop's timer (a timer armed at the delay, the PADO
 *   sent when it fires, not before), grows with the subscribers, is
 *   withheld at "off"; one waits per MAC; a PADR for a delayed PADO's
 *   cookie gets its PADS and session;
 * - drained, the LAC sends no PADO (a waiting one neither), refuses a PADR
 *   with a PADS that says so, and refuses logins ("drained"); undrained,
 *   all comes back;
 * - a subscriber that hangs up: its channel and its PPPoE socket, whose
 *   last closes wait for grace periods in the kernel, are closed by the
 *   offload's workers, none on the loop.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "fakes.h"
#include "agent.h"

static struct l2d_conf conf;
static struct l2d_loop loop;
static struct l2d *D;
static struct acc *A;
static struct acc_if *IFC;

static const uint8_t mac1[6] = { 2, 0, 0, 0, 0, 1 }, mac2[6] = { 2, 0, 0, 0, 0, 2 },
		     mac3[6] = { 2, 0, 0, 0, 0, 3 };

/* An agent with one access interface "acc0" whose line ends with @pado ("" none). */
static void up(const char *pado)
{
	char line[200], err[200];

	fake_reset();
	l2d_conf_defaults(&conf);
	conf.kernel = L2D_KERNEL_NONE;
	ASSERT_EQ(0, l2d_conf_line(&conf, "route p t1 10.0.0.2", err, sizeof(err))) TH_LOG("%s", err);
	snprintf(line, sizeof(line), "access pppoe acc0 %s", pado);
	ASSERT_EQ(0, l2d_conf_line(&conf, line, err, sizeof(err))) TH_LOG("%s", err);
	conf.log_level = -1;
	/* no discovery budgets (S-SEC-6): these tests count PADOs, not drops */
	conf.padi_rate = conf.padi_rate_per_line = conf.padi_rate_per_mac = 0;
	fake_now_ms = 1000000;
	D = calloc(1, sizeof(*D));
	ASSERT_TRUE(D != NULL);
	l2d_loop_init(&loop, true);
	loop.clock = fake_clock;
	l2d_agent_init(D, &conf, &loop, &fake_env, &l2d_kops_none);
	D->log_level = -1;
	A = fake_access_up(D);
	ASSERT_TRUE(A != NULL);
	IFC = &A->ifs[0];
}

static void down(void)
{
	l2d_access_close(D);
	l2d_fini(D);
	l2d_loop_fini(&loop);
	free(D);
	fake_reset();
}

static void advance(uint64_t ms)
{
	fake_now_ms += ms;
	l2d_timers_run(&loop, fake_now_ms);
}

static void padi(const uint8_t *mac)
{
	uint8_t b[64];
	size_t n;

	b[0] = PPPOE_VER_TYPE;
	b[1] = PPPOE_CODE_PADI;
	b[2] = b[3] = 0;
	n = fake_put_tag(b, PPPOE_HDR_LEN, PPPOE_TAG_SERVICE_NAME, "", 0);
	b[4] = 0;
	b[5] = (uint8_t)(n - PPPOE_HDR_LEN);
	acc_disc_input(IFC, mac, b, n);
}

/* A PADR with @cookie (NULL: one made now for @mac, as a PADO would carry). */
static void padr(const uint8_t *mac, const uint8_t *cookie)
{
	uint8_t b[128], c[PPPOE_COOKIE_LEN];
	size_t n;

	if (!cookie) {
		pppoe_cookie_make(&A->keys, mac, (uint32_t)IFC->ifindex, c);
		cookie = c;
	}
	b[0] = PPPOE_VER_TYPE;
	b[1] = PPPOE_CODE_PADR;
	b[2] = b[3] = 0;
	n = fake_put_tag(b, PPPOE_HDR_LEN, PPPOE_TAG_SERVICE_NAME, "", 0);
	n = fake_put_tag(b, n, PPPOE_TAG_AC_COOKIE, cookie, PPPOE_COOKIE_LEN);
	b[4] = 0;
	b[5] = (uint8_t)(n - PPPOE_HDR_LEN);
	acc_disc_input(IFC, mac, b, n);
}

TEST(pado_delay_parse)
{
	static const struct {
		const char *spec, *err;
	} bad[] = {
		{ "abc", "MS (0..30000) or N:MS" },
		{ "30001", "MS (0..30000)" },
		{ "0:0,1000:100,1000:200", "must rise (1000 after 1000)" },
		{ "0:0,5:40000", "\"40000\" is not 0..30000 ms or off" },
		{ "0:0,x:5", "\"x\" is not a session count" },
		{ "0:0,7", "step \"7\" is not N:MS" },
		{ "0:1,1:1,2:1,3:1,4:1,5:1,6:1,7:1,8:1", "at most 8 steps" },
		{ "0:0,5:of", "\"of\" is not 0..30000 ms or off" },
	};
	struct l2d_access_conf a;
	char err[200];
	size_t i;

	memset(&a, 0, sizeof(a));
	EXPECT_EQ(0u, l2d_pado_delay(&a, 0));		/* none configured: at once */
	EXPECT_EQ(0u, l2d_pado_delay(&a, 100000));
	ASSERT_EQ(0, l2d_pado_parse(&a, "250", err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(250u, l2d_pado_delay(&a, 0));
	EXPECT_EQ(250u, l2d_pado_delay(&a, 4000000000u));
	memset(&a, 0, sizeof(a));
	ASSERT_EQ(0, l2d_pado_parse(&a, "0:0,1000:100,2000:200", err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(3u, a.n_pado);
	EXPECT_EQ(0u, l2d_pado_delay(&a, 0));
	EXPECT_EQ(0u, l2d_pado_delay(&a, 999));
	EXPECT_EQ(100u, l2d_pado_delay(&a, 1000));
	EXPECT_EQ(100u, l2d_pado_delay(&a, 1999));
	EXPECT_EQ(200u, l2d_pado_delay(&a, 2000));
	EXPECT_EQ(200u, l2d_pado_delay(&a, 1u << 31));
	memset(&a, 0, sizeof(a));
	ASSERT_EQ(0, l2d_pado_parse(&a, "10:50,20:off", err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(0u, l2d_pado_delay(&a, 9));		/* below the first step: at once */
	EXPECT_EQ(50u, l2d_pado_delay(&a, 10));
	EXPECT_EQ(L2D_PADO_NONE, l2d_pado_delay(&a, 20));
	EXPECT_EQ(L2D_PADO_NONE, l2d_pado_delay(&a, 21));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&a, 0, sizeof(a));
		err[0] = '\0';
		EXPECT_EQ(-1, l2d_pado_parse(&a, bad[i].spec, err, sizeof(err)))
			TH_LOG("\"%s\" taken", bad[i].spec);
		EXPECT_TRUE(strstr(err, bad[i].err) != NULL)
			TH_LOG("\"%s\": \"%s\", wanted \"%s\"", bad[i].spec, err, bad[i].err);
	}
	/* on the access line: once, and with an argument */
	l2d_conf_defaults(&conf);
	EXPECT_EQ(0, l2d_conf_line(&conf, "access pppoe a0 service isp pado-delay 5 ac-name x",
				   err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(1u, conf.access[0].n_services);
	EXPECT_EQ(5u, l2d_pado_delay(&conf.access[0], 0));
	EXPECT_EQ(-1, l2d_conf_line(&conf, "access pppoe a1 pado-delay 5 pado-delay 6", err,
				    sizeof(err)));
	EXPECT_TRUE(strstr(err, "pado-delay given twice") != NULL) TH_LOG("%s", err);
	EXPECT_EQ(-1, l2d_conf_line(&conf, "access pppoe a1 pado-delay", err, sizeof(err)));
	EXPECT_TRUE(strstr(err, "pado-delay needs") != NULL) TH_LOG("%s", err);
	EXPECT_EQ(-1, l2d_conf_line(&conf, "access pppoe a1 service pado-delay 5", err, sizeof(err)));
	EXPECT_TRUE(strstr(err, "service needs a NAME") != NULL) TH_LOG("%s", err);
}

/* A fixed delay: the PADO leaves when the loop's timer fires, not before. */
TEST(pado_waits_on_the_loop_timer)
{
	up("pado-delay 100");
	padi(mac1);
	EXPECT_EQ(0u, fake_kernel.disc);
	EXPECT_EQ(1u, A->n_waits);
	EXPECT_EQ(fake_now_ms + 100, l2d_timer_next(&loop));	/* armed, nothing slept */
	advance(99);
	EXPECT_EQ(0u, fake_kernel.pado);
	advance(1);
	EXPECT_EQ(1u, fake_kernel.pado);
	EXPECT_EQ(1u, A->st.pado);
	EXPECT_EQ(1u, A->st.pado_delayed);
	EXPECT_EQ(0u, A->n_waits);
	/* its AC-Cookie takes a PADR: PADS with a session */
	{
		struct pppoe_disc p;
		const char *why;

		ASSERT_EQ(0, pppoe_disc_parse(fake_kernel.last_pado, fake_kernel.last_pado_len, &p, &why))
			TH_LOG("%s", why);
		ASSERT_TRUE(p.cookie.present && p.cookie.len == PPPOE_COOKIE_LEN);
		advance(5000);			/* the PADR may come later */
		padr(mac1, p.cookie.data);
	}
	EXPECT_EQ(1u, A->n_subs);
	EXPECT_EQ(1u, fake_kernel.pads);
	EXPECT_EQ(PPPOE_CODE_PADS, fake_kernel.last[1]);
	EXPECT_NE(0, fake_kernel.last[2] << 8 | fake_kernel.last[3]);	/* a session ID */
	down();
}

/* One PADO waits per MAC: a PADI repeated meanwhile adds none. */
TEST(pado_one_waits_per_mac)
{
	up("pado-delay 200");
	padi(mac1);
	advance(50);
	padi(mac1);
	padi(mac2);
	EXPECT_EQ(2u, A->n_waits);
	EXPECT_EQ(1u, A->st.pado_dropped);
	advance(150);
	EXPECT_EQ(1u, fake_kernel.pado);			/* mac1's, 200 ms after its first PADI */
	advance(50);
	EXPECT_EQ(2u, fake_kernel.pado);
	down();
}

/* The delay grows with the agent's subscribers; "off" offers nothing. */
TEST(pado_grows_with_sessions)
{
	up("pado-delay 0:0,1:100,2:off");
	padi(mac1);
	EXPECT_EQ(1u, fake_kernel.pado);			/* no subscriber: at once */
	padr(mac1, NULL);
	EXPECT_EQ(1u, A->n_subs);
	padi(mac2);
	EXPECT_EQ(1u, fake_kernel.pado);			/* one subscriber: 100 ms */
	advance(100);
	EXPECT_EQ(2u, fake_kernel.pado);
	padr(mac2, NULL);
	EXPECT_EQ(2u, A->n_subs);
	padi(mac3);
	advance(1000);
	EXPECT_EQ(2u, fake_kernel.pado);			/* two: none */
	EXPECT_EQ(1u, A->st.pado_withheld);
	EXPECT_EQ(0u, A->n_waits);
	/* a PADR for an offer made before is still served */
	padr(mac3, NULL);
	EXPECT_EQ(3u, A->n_subs);
	EXPECT_EQ(3u, fake_kernel.pads);
	down();
}

/* Drained: no PADO (a waiting one neither), a PADR refused with a reason, logins refused. */
TEST(drain_whole_lac)
{
	char err[128];
	struct pppoe_disc p;
	const char *why;

	up("pado-delay 100");
	padi(mac1);
	EXPECT_EQ(1u, A->n_waits);
	D->drain_api = true;
	EXPECT_TRUE(l2d_draining(D));
	advance(100);
	EXPECT_EQ(0u, fake_kernel.pado);			/* the waiting one is not sent */
	EXPECT_EQ(1u, A->st.pado_drained);
	padi(mac2);
	advance(1000);
	EXPECT_EQ(0u, fake_kernel.pado);
	EXPECT_EQ(0u, A->n_waits);
	EXPECT_EQ(2u, A->st.pado_drained);
	padr(mac1, NULL);
	EXPECT_EQ(0u, A->n_subs);
	EXPECT_EQ(1u, A->st.pads_refused);
	ASSERT_EQ(0, pppoe_disc_parse(fake_kernel.last, fake_kernel.last_len, &p, &why)) TH_LOG("%s", why);
	EXPECT_EQ(PPPOE_CODE_PADS, p.code);
	EXPECT_EQ(0, p.sid);
	ASSERT_TRUE(p.error.present);
	EXPECT_TRUE(p.error.len >= 7 && !memcmp(p.error.data, "drained", 7));
	/* a login (API or subscriber) is refused, and says why */
	EXPECT_EQ(0u, l2d_login_start(D, &(struct l2d_login_req){
			.user = "u@d", .profile = "p" },
		err, sizeof(err)));
	EXPECT_TRUE(strstr(err, "drained") != NULL) TH_LOG("%s", err);
	EXPECT_EQ(1u, D->stats.logins_drained);
	/* the configuration's drain holds whatever the API says */
	D->drain_api = false;
	conf.drain = true;
	EXPECT_TRUE(l2d_draining(D));
	conf.drain = false;
	EXPECT_FALSE(l2d_draining(D));
	padi(mac2);
	advance(100);
	EXPECT_EQ(1u, fake_kernel.pado);
	padr(mac2, NULL);
	EXPECT_EQ(1u, A->n_subs);
	down();
}

/* A subscriber up before the drain stays. */
TEST(drain_keeps_subscribers)
{
	up("");
	padi(mac1);
	padr(mac1, NULL);
	ASSERT_EQ(1u, A->n_subs);
	D->drain_api = true;
	advance(1000);
	EXPECT_EQ(1u, A->n_subs);
	EXPECT_FALSE(A->subs->dead);
	/* its PADR again (our PADS lost): the same PADS, not a refusal */
	padr(mac1, NULL);
	EXPECT_EQ(0u, A->st.pads_refused);
	EXPECT_EQ(PPPOE_CODE_PADS, fake_kernel.last[1]);
	EXPECT_EQ(A->subs->sid, fake_kernel.last[2] << 8 | fake_kernel.last[3]);
	down();
}

/* A PADT for session @sid from @mac (RFC 2516 section 5.5). */
static void padt(const uint8_t *mac, uint16_t sid)
{
	uint8_t b[PPPOE_HDR_LEN] = { PPPOE_VER_TYPE, PPPOE_CODE_PADT, (uint8_t)(sid >> 8),
				     (uint8_t)sid, 0, 0 };

	acc_disc_input(IFC, mac, b, sizeof(b));
}

/* Hang-ups in a storm: no grace period waited for on the loop. */
TEST(hangup_closes_off_the_loop)
{
	up("");
	padi(mac1);
	padr(mac1, NULL);
	padi(mac2);
	padr(mac2, NULL);
	ASSERT_EQ(2u, A->n_subs);
	padt(mac1, A->subs->mac[5] == 1 ? A->subs->sid : A->subs->next->sid);
	padt(mac2, A->subs->mac[5] == 2 ? A->subs->sid : A->subs->next->sid);
	advance(1000);
	EXPECT_EQ(0u, A->n_subs);
	EXPECT_EQ(0u, fake_kernel.closed_inline);
	EXPECT_EQ(4u, fake_kernel.closed_offload);	/* two channels, two PPPoE sockets */
	down();
}
