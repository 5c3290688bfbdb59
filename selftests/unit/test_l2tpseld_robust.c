// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld robustness and restart: S-L2TP-3 ("never crash the agent or leak
 * state") on the whole agent, not only the parser: the datagrams of real
 * exchanges, mutated at random, fed to an LNS and a LAC in every state
 * (ASan/UBSan and LeakSanitizer watch); and the session keys.  Counters
 * exact after kill -9 are the module's: a dead agent's socket
 * ends its sessions (l2tpseld_agent.sh kills it at every step of a login).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/l2tpsel.h>

#include "harness.h"
#include "l2tpseld_harness.h"

/* ---- mutation: record a full exchange, replay it mutated ---- */

#define REC_MAX 64
static struct { uint8_t data[1500]; size_t len; int from; } rec[REC_MAX];
static unsigned int n_rec;

static void tap(int from, const uint8_t *buf, size_t len)
{
	if (n_rec == REC_MAX || len > sizeof(rec[0].data))
		return;
	memcpy(rec[n_rec].data, buf, len);
	rec[n_rec].len = len;
	rec[n_rec].from = from;
	n_rec++;
}

static void record_exchange(void)
{
	static const char *const lac_c[] = { "route p t1 10.0.0.2", "secret t1 k", "hide-avps yes", NULL };
	static const char *const lns_c[] = { "listen 10.0.0.2", "lns-secret * k", "hide-avps yes", NULL };
	struct h_node *lac, *lns;
	unsigned int i;

	h_reset();
	lac = h_node(lac_c);
	lns = h_node(lns_c);
	H->tap = tap;
	h_login(lac, "a@x", NULL);
	h_login(lac, "b@x", NULL);
	h_run_for(100);
	l2d_logout(lac->d, 1);
	h_run_for(100);
	l2d_tunnel_stop(lns->d->tunnels, L2TP_STOPCCN_SHUTTING_DOWN, 0, "bye");
	for (i = 0; i < 3; i++)
		h_run_for(100);
	H->tap = NULL;
	h_fini();
}

static uint32_t rnd = 12345;

static uint32_t next_rand(void)
{
	rnd = rnd * 1103515245u + 12345u;
	return rnd >> 8;
}

/* Every established call of @a has its twin in @b; counts match the calls. */
static bool consistent(const struct h_node *a, const struct h_node *b)
{
	const struct l2d_tunnel *t;
	const struct l2d_session *s;
	unsigned int calls = 0;

	for (t = a->d->tunnels; t; t = t->next) {
		if (t->state != L2D_T_ESTABLISHED) {
			th_log("%s: tunnel %u in %s", a->conf.hostname, t->tid, l2d_tstate_name(t->state));
			return false;
		}
		for (s = t->sessions; s; s = s->next) {
			const struct l2d_session *twin = b->d->sess_by_id[s->peer_sid];

			calls++;
			if (s->state != L2D_S_ESTABLISHED || !twin || twin->peer_sid != s->sid ||
			    twin->state != L2D_S_ESTABLISHED || twin->t->tid != t->peer_tid) {
				th_log("%s: call %u (%s) has no twin", a->conf.hostname, s->sid,
					  l2d_sstate_name(s->state));
				return false;
			}
		}
	}
	if (l2d_kernel_none_sessions(a->d) != calls) {
		th_log("%s: %u counted, %u calls", a->conf.hostname, l2d_kernel_none_sessions(a->d), calls);
		return false;
	}
	return true;
}

TEST(l2tpseld_mutated_exchange)
{
	static const char *const lac_c[] = { "route p t1 10.0.0.2", "secret t1 k", "hide-avps yes", NULL };
	static const char *const lns_c[] = { "listen 10.0.0.2", "lns-secret * k", "hide-avps yes", NULL };
	unsigned int round, delivered = 0, survived = 0;

	n_rec = 0;
	record_exchange();
	ASSERT_TRUE(n_rec >= 8);
	for (round = 0; round < (getenv("L2TPSELD_ROUNDS") ? (unsigned)atoi(getenv("L2TPSELD_ROUNDS")) : 150u); round++) {
		struct h_node *lac, *lns;
		unsigned int i;

		h_reset();
		lac = h_node(lac_c);
		lns = h_node(lns_c);
		h_login(lac, "a@x", NULL);
		h_run_for(1);	/* now both sides have state: tunnels, calls */
		for (i = 0; i < 20; i++) {
			unsigned int r = next_rand() % n_rec, m, k;
			uint8_t buf[1500];
			size_t len = rec[r].len;
			struct h_node *to = rec[r].from == 0 ? lns : lac;
			struct h_node *from = rec[r].from == 0 ? lac : lns;

			memcpy(buf, rec[r].data, len);
			m = 1 + next_rand() % 4;
			for (k = 0; k < m; k++) {
				switch (next_rand() % 4) {
				case 0:	/* flip a byte */
					buf[next_rand() % len] ^= (uint8_t)(1 + next_rand() % 255);
					break;
				case 1:	/* truncate (the Length field now lies) */
					if (len > 12)
						len = 12 + next_rand() % (len - 12);
					break;
				case 2:	/* point it at the receiver's real tunnel */
					if (to->d->tunnels && len >= 6)
						l2tp_put16(buf + 4, to->d->tunnels->tid);
					break;
				default: /* Ns/Nr in sequence, so it is delivered */
					if (to->d->tunnels && len >= 12)
						l2tp_hdr_set_seq(buf, to->d->tunnels->rel.nr,
								 to->d->tunnels->rel.ns_sent);
					break;
				}
			}
			h_inject(to, &from->addr, buf, len);
			delivered++;
			h_run_for(next_rand() % 3000);
		}
		h_run_for(300000);	/* dead peers found (HELLO), holds expire */
		/*
		 * What survives must be consistent: no tunnel or call half set up,
		 * every established call known to both sides, the admission counts
		 * equal to the calls; then a logout clears everything.
		 */
		if (!consistent(lac, lns) || !consistent(lns, lac)) {
			th_fail(__FILE__, __LINE__, "round %u: inconsistent state", round);
			break;
		}
		survived += lac->d->n_sessions;
		for (i = 1; i < 4; i++)
			l2d_logout(lac->d, i);
		h_run_for(40000);
		if (lac->d->n_tunnels || lac->d->n_sessions || lns->d->n_sessions ||
		    l2d_kernel_none_sessions(lns->d) || l2d_kernel_none_sessions(lac->d)) {
			th_log("round %u: lac %u/%u lns %u/%u", round, lac->d->n_tunnels,
				  lac->d->n_sessions, lns->d->n_tunnels, lns->d->n_sessions);
			th_fail(__FILE__, __LINE__, "state left after round %u", round);
			break;
		}
	}
	th_log("%u mutated datagrams from %u recorded ones, %u agent pairs, %u calls survived",
		  delivered, n_rec, round, survived);
	h_fini();
}

/* ---- session keys: unique in the namespace, the agent-id in the high bits ---- */

TEST(l2tpseld_session_key)
{
	struct l2d_conf conf;
	struct l2d_loop loop;
	struct l2d *d = calloc(1, sizeof(*d));

	ASSERT_TRUE(d != NULL);
	l2d_conf_defaults(&conf);
	conf.agent_id = 7;
	conf.log_level = 0;
	l2d_loop_init(&loop, false);
	l2d_agent_init(d, &conf, &loop, NULL, &l2d_kops_none);
	EXPECT_EQ(l2d_session_key(d, 0x1234, 0x5678), 0x712345678ll);
	l2d_timer_cancel(&loop, &d->reap_timer);
	l2d_loop_fini(&loop);
	free(d);
}
