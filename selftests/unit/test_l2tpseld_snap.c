// SPDX-License-Identifier: GPL-2.0
/*
 * Upgrade without loss (S-OPS-2): the snapshot an agent hands the binary it
 * re-executes (snap.c).  An established tunnel and call cross into a fresh
 * agent and the control connection goes on where it was (RFC 2661 section
 * 5.8: Ns, Nr, the peer's window); a message in flight is sent again and
 * the peer sees a retransmission, nothing else; what is half way ends
 * before the snapshot; a snapshot of another version, cut short, with an
 * unknown record or a bad field is refused with a sentence saying so.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "l2tpseld_harness.h"
#include "../../userspace/l2tpseld/snap.h"

static const char *const lac_cfg[] = { "route p t1 10.0.0.2", NULL };
static const char *const lns_cfg[] = { "listen 10.0.0.2", NULL };

static struct l2d_tunnel *only_tunnel(struct h_node *n)
{
	return n->d->tunnels;
}

/*
 * A fresh simulated network, the LAC and the LNS on it, and u1@example's
 * call up between them.  Return: false when any of it failed.
 */
static bool one_call(struct h_node **lac, struct h_node **lns)
{
	h_reset();
	*lac = h_node(lac_cfg);
	*lns = h_node(lns_cfg);
	if (!*lac || !*lns)
		return false;
	h_login(*lac, "u1@example", "p");
	h_run_for(200);
	return (*lac)->n_done_ok == 1;
}

/* Take the LAC's snapshot, replace its agent, adopt. */
static int upgrade(struct h_node *lac, char *err, size_t errlen)
{
	struct l2d_snap_wr w;
	int ret;

	l2d_snap_prepare(lac->d);
	if (l2d_snap_write(lac->d, &w))
		return -1;
	h_node_restart(lac);
	ret = l2d_snap_adopt(lac->d, w.buf, w.len, err, errlen);
	l2d_snap_wr_free(&w);
	return ret;
}

TEST(l2tpseld_snap_tunnel_resumes_ns_nr)
{
	struct h_node *lac, *lns;
	struct l2d_tunnel *t, *lt;
	uint16_t ns, nr, tid, ptid;
	struct l2tp_builder b;
	uint8_t buf[64];
	char err[256] = "";

	ASSERT_TRUE(one_call(&lac, &lns));
	t = only_tunnel(lac);
	ASSERT_TRUE(t != NULL);
	tid = t->tid;
	ptid = t->peer_tid;
	/* a HELLO in flight when the agent goes: not acknowledged yet */
	H->latency_ms = 20;
	l2d_tunnel_builder(t, &b, buf, sizeof(buf), 0, L2TP_MSG_HELLO);
	ASSERT_TRUE(l2d_tunnel_queue(t, buf, l2tp_build_end(&b)) >= 0);
	l2d_tunnel_flush(t);
	ns = t->rel.ns_next;
	nr = t->rel.nr;
	ASSERT_EQ(l2tp_rel_queued(&t->rel), 1);
	ASSERT_EQ(upgrade(lac, err, sizeof(err)), 0) TH_LOG("%s", err);
	t = only_tunnel(lac);
	ASSERT_TRUE(t != NULL);
	EXPECT_EQ(t->tid, tid);
	EXPECT_EQ(t->peer_tid, ptid);
	EXPECT_EQ(t->state, L2D_T_ESTABLISHED);
	EXPECT_EQ(t->rel.ns_next, ns);
	EXPECT_EQ(t->rel.nr, nr);
	EXPECT_EQ(h_sessions_in(lac, L2D_S_ESTABLISHED), 1);
	h_run_for(200);
	/* the HELLO went twice: the LNS took one, acknowledged the other */
	lt = only_tunnel(lns);
	ASSERT_TRUE(lt != NULL);
	EXPECT_EQ(lt->rel.stats.duplicates, 1);
	EXPECT_EQ(lt->rel.stats.out_of_order + lt->rel.stats.out_of_window + lt->rel.stats.bad_nr, 0);
	EXPECT_EQ(l2tp_rel_queued(&t->rel), 0);
	/* the adopted tunnel carries a new call: Ns go on, the LNS takes it */
	H->latency_ms = 0;
	h_login(lac, "u2@example", "p");
	h_run_for(200);
	EXPECT_EQ(lac->n_done_ok, 2);	/* the node counts both agents' logins */
	EXPECT_EQ(h_sessions_in(lac, L2D_S_ESTABLISHED), 2);
	EXPECT_EQ(h_sessions_in(lns, L2D_S_ESTABLISHED), 2);
	EXPECT_EQ(lt->rel.stats.out_of_order + lt->rel.stats.out_of_window + lt->rel.stats.bad_nr, 0);
	EXPECT_EQ(lac->d->n_tunnels, 1);
	h_fini();
}

TEST(l2tpseld_snap_half_way_ends)
{
	struct h_node *lac, *lns;
	char err[256] = "";

	ASSERT_TRUE(one_call(&lac, &lns));
	/* a second login whose ICRQ has not been answered */
	H->latency_ms = 50;
	h_login(lac, "u2@example", "p");
	h_run_for(10);
	ASSERT_EQ(h_sessions_in(lac, L2D_S_WAIT_ICRP), 1);
	ASSERT_EQ(upgrade(lac, err, sizeof(err)), 0) TH_LOG("%s", err);
	EXPECT_EQ(h_sessions_in(lac, L2D_S_ESTABLISHED), 1);
	EXPECT_EQ(h_sessions_in(lac, L2D_S_WAIT_ICRP), 0);
	EXPECT_EQ(lac->d->logins, NULL);
	h_run_for(500);
	/* the LNS keeps the first call and clears the second (CDN), nothing more */
	EXPECT_EQ(h_sessions_in(lns, L2D_S_ESTABLISHED), 1);
	EXPECT_EQ(h_tunnels_in(lns, L2D_T_ESTABLISHED), 1);
	h_fini();
}

/* The LNS role upgraded: its tunnel and call cross with the caps' counts. */
TEST(l2tpseld_snap_lns_role)
{
	struct h_node *lac, *lns;
	char err[256] = "";

	ASSERT_TRUE(one_call(&lac, &lns));
	ASSERT_EQ(upgrade(lns, err, sizeof(err)), 0) TH_LOG("%s", err);
	EXPECT_EQ(lns->d->n_lns_up, 1);
	EXPECT_EQ(lns->d->n_lns_calls, 1);
	EXPECT_EQ(h_tunnels_in(lns, L2D_T_ESTABLISHED), 1);
	EXPECT_EQ(h_sessions_in(lns, L2D_S_ESTABLISHED), 1);
	ASSERT_TRUE(lns->d->tunnels && lns->d->tunnels->p);
	EXPECT_EQ(lns->d->tunnels->p->lns_up, 1);
	EXPECT_EQ(lns->d->tunnels->p->lns_calls, 1);
	/* the LAC's next call on the same tunnel is taken by the new LNS */
	h_login(lac, "u2@example", "p");
	h_run_for(200);
	EXPECT_EQ(lac->n_done_ok, 2);
	EXPECT_EQ(h_sessions_in(lns, L2D_S_ESTABLISHED), 2);
	EXPECT_EQ(lns->d->n_lns_calls, 2);
	EXPECT_EQ(lac->d->n_tunnels, 1);
	/* the LAC logs both out: the LNS's counts go back to 0 */
	EXPECT_EQ(l2d_logout(lac->d, 1), 0);
	EXPECT_EQ(l2d_logout(lac->d, 2), 0);
	h_run_for(500);
	EXPECT_EQ(lns->d->n_lns_calls, 0);
	h_fini();
}

/* A snapshot of the harness's LAC with one call, for the refusals. */
static struct l2d_snap_wr snap_of_one(void)
{
	struct h_node *lac, *lns;
	struct l2d_snap_wr w = { 0 };

	if (!one_call(&lac, &lns))
		return w;
	l2d_snap_prepare(lac->d);
	l2d_snap_write(lac->d, &w);
	h_node_restart(lac);
	return w;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

TEST(l2tpseld_snap_refusals)
{
	struct l2d_snap_wr w = snap_of_one();
	struct l2d_snap_info si;
	struct l2d *d = H->node[0].d;
	char err[256];
	uint8_t *c;

	ASSERT_TRUE(w.buf != NULL);
	/* fuzz/corpus/snap's seeds: L2TPSELD_SNAP_SEED=DIR writes them there */
	if (getenv("L2TPSELD_SNAP_SEED")) {
		char path[512];
		FILE *f;

		snprintf(path, sizeof(path), "%s/whole", getenv("L2TPSELD_SNAP_SEED"));
		f = fopen(path, "w");
		if (f) {
			fputc(1, f);
			fwrite(w.buf, 1, w.len, f);
			fclose(f);
		}
		snprintf(path, sizeof(path), "%s/body", getenv("L2TPSELD_SNAP_SEED"));
		f = fopen(path, "w");
		if (f) {
			fputc(0, f);
			fwrite(w.buf + L2D_SNAP_HDR_LEN, 1, w.len - L2D_SNAP_HDR_LEN, f);
			fclose(f);
		}
	}
	EXPECT_EQ(l2d_snap_check(w.buf, w.len, &si, err, sizeof(err)), 0) TH_LOG("%s", err);
	EXPECT_EQ(si.version, L2D_SNAP_VERSION);
	EXPECT_EQ(si.tunnels, 1);
	EXPECT_EQ(si.sessions, 1);
	EXPECT_EQ(si.knl_fd, -1);
	c = malloc(w.len + 8);
	ASSERT_TRUE(c != NULL);
	/* another version */
	memcpy(c, w.buf, w.len);
	put16(c + 8, L2D_SNAP_VERSION + 1);
	EXPECT_EQ(l2d_snap_adopt(d, c, w.len, err, sizeof(err)), -EINVAL);
	EXPECT_TRUE(strstr(err, "format version 2, this l2tpseld reads version 1 only") != NULL)
		TH_LOG("%s", err);
	/* not a snapshot */
	memcpy(c, w.buf, w.len);
	c[0] = 'X';
	EXPECT_EQ(l2d_snap_check(c, w.len, &si, err, sizeof(err)), -EINVAL);
	EXPECT_TRUE(strstr(err, "not an l2tpseld snapshot") != NULL) TH_LOG("%s", err);
	/* cut short */
	memcpy(c, w.buf, w.len);
	EXPECT_EQ(l2d_snap_check(c, w.len - 1, &si, err, sizeof(err)), -EINVAL);
	EXPECT_TRUE(strstr(err, "announced") != NULL) TH_LOG("%s", err);
	/* a record type version 1 does not have, appended */
	memcpy(c, w.buf, w.len);
	put16(c + w.len, 99);
	put16(c + w.len + 2, 0);
	c[12] = (uint8_t)((w.len + 4 - L2D_SNAP_HDR_LEN) >> 24);
	c[13] = (uint8_t)((w.len + 4 - L2D_SNAP_HDR_LEN) >> 16);
	c[14] = (uint8_t)((w.len + 4 - L2D_SNAP_HDR_LEN) >> 8);
	c[15] = (uint8_t)(w.len + 4 - L2D_SNAP_HDR_LEN);
	EXPECT_EQ(l2d_snap_check(c, w.len + 4, &si, err, sizeof(err)), -EINVAL);
	EXPECT_TRUE(strstr(err, "type 99 is not one of version 1") != NULL) TH_LOG("%s", err);
	/* the agent's record twice: the copy appended */
	EXPECT_EQ(d->n_tunnels, 0);
	free(c);
	/* the good one is adopted, then the same again is refused (IDs twice) */
	EXPECT_EQ(l2d_snap_adopt(d, w.buf, w.len, err, sizeof(err)), 0) TH_LOG("%s", err);
	EXPECT_EQ(d->n_tunnels, 1);
	EXPECT_EQ(l2d_snap_adopt(d, w.buf, w.len, err, sizeof(err)), -EINVAL);
	EXPECT_TRUE(strstr(err, "or the ID twice") != NULL) TH_LOG("%s", err);
	EXPECT_EQ(d->n_tunnels, 1);
	l2d_snap_wr_free(&w);
	h_fini();
}

/*
 * A snapshot of format version 1 as the agent wrote it before the records'
 * fields were table-driven: the LAC of snap_of_one() with secret "sesame"
 * on t1 and a HELLO in flight (tunnel 0xa131/0x72fb, call 0x13cd/0xb84c).
 */
static const uint8_t snap_v1[] = {
	0x4c, 0x32, 0x44, 0x53, 0x4e, 0x41, 0x50, 0x00, 0x00, 0x01, 0x00, 0x00,
	0x00, 0x00, 0x00, 0xff, 0x00, 0x01, 0x00, 0x0d, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x01, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x02, 0x00,
	0x86, 0xa1, 0x31, 0x72, 0xfb, 0x23, 0x04, 0x0a, 0x00, 0x00, 0x02, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x06,
	0xa5, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x0a, 0x00, 0x00,
	0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x06, 0xa5, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x04, 0x00, 0x02, 0x00, 0x10,
	0x00, 0x08, 0x31, 0x30, 0x2e, 0x30, 0x2e, 0x30, 0x2e, 0x32, 0x00, 0x00,
	0x00, 0x02, 0x74, 0x31, 0x00, 0x00, 0x00, 0x01, 0x70, 0x00, 0x06, 0x73,
	0x65, 0x73, 0x61, 0x6d, 0x65, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x18, 0xa1, 0x31, 0x00, 0x14, 0xc8,
	0x02, 0x00, 0x14, 0x72, 0xfb, 0x00, 0x00, 0x00, 0x04, 0x00, 0x02, 0x80,
	0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x06, 0x00, 0x04, 0x00, 0x44, 0xa1,
	0x31, 0x13, 0xcd, 0xb8, 0x4c, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x01, 0xa1, 0x31, 0x13, 0xcd, 0x00, 0x00, 0x00, 0x01,
	0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0a, 0x75, 0x31,
	0x40, 0x65, 0x78, 0x61, 0x6d, 0x70, 0x6c, 0x65, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x01, 0x70, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00
};

/* An agent reads what an earlier one wrote, and writes it again byte for byte. */
TEST(l2tpseld_snap_reads_version_1)
{
	static const char *const lac_secret[] = { "route p t1 10.0.0.2", "secret t1 sesame", NULL };
	struct h_node *lac;
	struct l2d_tunnel *t;
	struct l2d_session *s;
	struct l2d_snap_wr w;
	char err[256] = "";

	h_reset();
	lac = h_node(lac_secret);
	ASSERT_TRUE(lac != NULL);
	ASSERT_EQ(l2d_snap_adopt(lac->d, snap_v1, sizeof(snap_v1), err, sizeof(err)), 0)
		TH_LOG("%s", err);
	t = only_tunnel(lac);
	ASSERT_TRUE(t != NULL);
	EXPECT_EQ(t->tid, 0xa131);
	EXPECT_EQ(t->peer_tid, 0x72fb);
	EXPECT_TRUE(t->initiator && t->lac && !t->lns && t->has_secret);
	EXPECT_TRUE(t->secret_len == 6 && !memcmp(t->secret, "sesame", 6));
	EXPECT_EQ(t->state, L2D_T_ESTABLISHED);
	EXPECT_EQ(l2tp_rel_queued(&t->rel), 1);
	s = t->sessions;
	ASSERT_TRUE(s != NULL);
	EXPECT_EQ(s->sid, 0x13cd);
	EXPECT_EQ(s->peer_sid, 0xb84c);
	EXPECT_STREQ(s->user, "u1@example");
	EXPECT_EQ(s->state, L2D_S_ESTABLISHED);
	EXPECT_EQ(lac->d->n_tunnels, 1);
	ASSERT_EQ(l2d_snap_write(lac->d, &w), 0);
	EXPECT_EQ(w.len, sizeof(snap_v1));
	EXPECT_TRUE(w.len == sizeof(snap_v1) && !memcmp(w.buf, snap_v1, w.len));
	l2d_snap_wr_free(&w);
	h_fini();
}
