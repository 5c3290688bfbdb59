// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld's RADIUS client (userspace/l2tpseld/radclient.c; S-RAD-1) on its
 * real event loop against two fake servers on 127.0.0.1 in this process:
 * retransmissions are the same datagram (RFC 2865 section 2.5), a server
 * that never answers is given up after radius-tries and then skipped while
 * dead, a forged reply is dropped and the genuine one still counts, more
 * requests than the 256 Identifiers wait and all complete, a cancelled
 * request never calls back, with every server silent the request ends
 * RAD_RES_DOWN, and a reply without a Message-Authenticator counts as no
 * answer (S-SEC-8).  A second each, on the real clock (radius-timeout 50 ms).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../../userspace/l2tpseld/agent.h"
#include "../../userspace/l2tpseld/kernel.h"
#include "../../userspace/l2tpseld/l2d.h"
#include "../../userspace/l2tpseld/md5.h"
#include "../../userspace/l2tpseld/radius.h"
#include "harness.h"

#define SECRET "rad-test"
#define NREQ 300

static struct {
	int fd[2];
	bool answer[2];		/* reply to what arrives */
	bool forge_first;	/* server 1: a wrongly signed reply before each good one */
	bool challenge;		/* an Access-Challenge instead of the Access-Accept */
	bool reject;		/* an Access-Reject instead of the Access-Accept */
	bool no_ma[2];		/* this server's replies have no Message-Authenticator */
	unsigned int rx[2];
	uint8_t first[RAD_MAX_LEN];	/* the first request server 0 got, and its length */
	size_t first_len;
	unsigned int same_as_first;
	unsigned int acct_rx, acct_bad;	/* Accounting-Requests, and those wrongly signed */
	uint8_t outstanding[256];	/* server hold: Identifiers seen and not answered */
	unsigned int held, max_held;
	int hold;		/* this server answers only at release_held(); -1: none */
	uint8_t held_pkt[NREQ][RAD_MAX_LEN];
	size_t held_len[NREQ];
	struct sockaddr_in held_from[NREQ];
} S;

static struct {
	unsigned int calls, accept, reject, down;
	char profile[64], message[RAD_MSG_MAX + 1];
} R;

static uint32_t rnd;

static void t_random(struct l2d *d, void *buf, size_t len)
{
	uint8_t *p = buf;

	while (len--)
		*p++ = (uint8_t)((rnd = rnd * 1103515245 + 12345) >> 16);
}

static const struct l2d_env t_env = { .random = t_random };

static void done(void *arg, enum rad_result res, const struct rad_reply *r)
{
	R.calls++;
	if (res == RAD_RES_ACCEPT) {
		R.accept++;
		snprintf(R.profile, sizeof(R.profile), "%s", r->profile);
	} else if (res == RAD_RES_REJECT) {
		R.reject++;
		snprintf(R.message, sizeof(R.message), "%s", r->message);
	} else {
		R.down++;
	}
}

static int server(uint16_t *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t al = sizeof(a);
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(fd, (struct sockaddr *)&a, &al))
		return -1;
	*port = ntohs(a.sin_port);
	return fd;
}

/*
 * An Access-Accept for request @q naming profile "P" (26-2636-64), or an
 * Accounting-Response to an Accounting-Request, signed with @secret: the
 * Access-Accept with a Message-Authenticator (RFC 3579 section 3.2) unless
 * @no_ma, the Accounting-Response without one, as servers send them.
 */
static size_t accept_for(const uint8_t *q, uint8_t *out, const char *secret, bool no_ma)
{
	static const uint8_t vsa[] = { 26, 9, 0, 0, 0x0a, 0x4c, 64, 3, 'P' };
	bool acct = q[0] == RAD_ACCOUNTING_REQUEST;
	struct md5_ctx ctx;
	size_t n = RAD_HDR_LEN + (acct ? 0 : sizeof(vsa) + (no_ma ? 0 : 18));

	out[0] = acct ? RAD_ACCOUNTING_RESPONSE : S.challenge ? RAD_ACCESS_CHALLENGE :
		 S.reject ? RAD_ACCESS_REJECT : RAD_ACCESS_ACCEPT;
	out[1] = q[1];
	out[2] = 0;
	out[3] = (uint8_t)n;
	if (!acct)
		memcpy(out + RAD_HDR_LEN, vsa, sizeof(vsa));
	if (!acct && !no_ma) {
		uint8_t *ma = out + RAD_HDR_LEN + sizeof(vsa);

		/* over the reply with the request's authenticator in place */
		ma[0] = RAD_MESSAGE_AUTHENTICATOR;
		ma[1] = 18;
		memset(ma + 2, 0, 16);
		memcpy(out + 4, q + 4, RAD_AUTH_LEN);
		hmac_md5((const uint8_t *)secret, strlen(secret), out, n, ma + 2);
	}
	md5_init(&ctx);
	md5_update(&ctx, 4, out);
	md5_update(&ctx, RAD_AUTH_LEN, q + 4);
	md5_update(&ctx, n - RAD_HDR_LEN, out + RAD_HDR_LEN);
	md5_update(&ctx, strlen(secret), (const uint8_t *)secret);
	md5_digest(&ctx, MD5_DIGEST_SIZE, out + 4);
	return n;
}

static void serve(int i)
{
	uint8_t q[RAD_MAX_LEN], a[64];
	struct sockaddr_in from;
	socklen_t fl;
	ssize_t n;

	for (;;) {
		fl = sizeof(from);
		n = recvfrom(S.fd[i], q, sizeof(q), 0, (struct sockaddr *)&from, &fl);
		if (n < RAD_HDR_LEN)
			return;
		S.rx[i]++;
		if (q[0] == RAD_ACCOUNTING_REQUEST) {
			/* RFC 2866 section 3: MD5 over the packet with a zero authenticator + secret */
			uint8_t z[RAD_MAX_LEN], h[16];
			struct md5_ctx ctx;

			memcpy(z, q, (size_t)n);
			memset(z + 4, 0, 16);
			md5_init(&ctx);
			md5_update(&ctx, (size_t)n, z);
			md5_update(&ctx, strlen(SECRET), (const uint8_t *)SECRET);
			md5_digest(&ctx, MD5_DIGEST_SIZE, h);
			S.acct_rx++;
			S.acct_bad += !!memcmp(h, q + 4, 16);
		}
		if (i == 0) {
			if (!S.first_len) {
				memcpy(S.first, q, (size_t)n);
				S.first_len = (size_t)n;
			} else if ((size_t)n == S.first_len && !memcmp(q, S.first, S.first_len)) {
				S.same_as_first++;
			}
		}
		if (!S.answer[i])
			continue;
		if (i == S.hold) {
			if (!S.outstanding[q[1]]++) {
				memcpy(S.held_pkt[S.held], q, (size_t)n);
				S.held_len[S.held] = (size_t)n;
				S.held_from[S.held++] = from;
				if (S.held > S.max_held)
					S.max_held = S.held;
			}
			continue;
		}
		if (S.forge_first)
			sendto(S.fd[i], a, accept_for(q, a, "not-the-secret", S.no_ma[i]), 0,
			       (struct sockaddr *)&from, fl);
		sendto(S.fd[i], a, accept_for(q, a, SECRET, S.no_ma[i]), 0, (struct sockaddr *)&from, fl);
	}
}

/* Server S.hold answers what it holds, oldest first. */
static void release_held(void)
{
	uint8_t a[64];
	unsigned int k;

	for (k = 0; k < S.held; k++) {
		S.outstanding[S.held_pkt[k][1]] = 0;
		sendto(S.fd[S.hold], a, accept_for(S.held_pkt[k], a, SECRET, S.no_ma[S.hold]), 0,
		       (struct sockaddr *)&S.held_from[k], sizeof(S.held_from[k]));
	}
	S.held = 0;
}

static void pump(struct l2d_loop *loop, unsigned int ms)
{
	uint64_t end = l2d_now(loop) + ms;

	while (l2d_now(loop) < end) {
		l2d_loop_once(loop, 2);
		serve(0);
		serve(1);
	}
}

static struct l2d *setup(struct l2d_conf *c, struct l2d_loop *loop)
{
	struct l2d *d = calloc(1, sizeof(*d));
	char err[128];
	uint16_t p0, p1;

	memset(&S, 0, sizeof(S));
	memset(&R, 0, sizeof(R));
	S.hold = -1;
	S.fd[0] = server(&p0);
	S.fd[1] = server(&p1);
	l2d_conf_defaults(c);
	c->log_level = 0;
	c->n_radius = 2;
	l2d_parse_addr("127.0.0.1", p0, &c->radius[0].addr, &c->radius[0].len);
	l2d_parse_addr("127.0.0.1", p1, &c->radius[1].addr, &c->radius[1].len);
	strcpy(c->radius[0].secret, SECRET);
	strcpy(c->radius[1].secret, SECRET);
	c->radius_timeout_ms = 50;
	c->radius_tries = 2;
	c->radius_dead_ms = 60000;
	l2d_loop_init(loop, true);
	l2d_agent_init(d, c, loop, &t_env, &l2d_kops_none);
	if (l2d_radius_open(d, err, sizeof(err)))
		return NULL;
	return d;
}

static void teardown(struct l2d *d, struct l2d_loop *loop)
{
	l2d_radius_close(d);
	l2d_fini(d);
	l2d_loop_fini(loop);
	close(S.fd[0]);
	close(S.fd[1]);
	free(d);
}

static const struct rad_auth pap = { .user = "alice@example", .secret = (const uint8_t *)"pw",
				     .secret_len = 2, .calling = "02:00:00:00:00:01",
				     .port_id = "acc0" };

TEST(radclient_failover_retransmit_forgery)
{
	struct l2d_conf c;
	struct l2d_loop loop;
	struct l2d *d;
	char st[512];

	d = setup(&c, &loop);
	ASSERT_TRUE(d != NULL);
	S.answer[1] = true;
	S.forge_first = true;
	ASSERT_TRUE(l2d_radius_auth(d, &pap, done, NULL) != NULL);
	EXPECT_EQ(R.calls, 0u);		/* never from inside the call */
	pump(&loop, 400);
	EXPECT_EQ(R.calls, 1u);
	EXPECT_EQ(R.accept, 1u);
	EXPECT_STREQ(R.profile, "P");
	EXPECT_EQ(S.rx[0], 2u);		/* radius-tries 2 on the silent server */
	EXPECT_EQ(S.same_as_first, 1u);	/* the retransmission is the same datagram */
	EXPECT_EQ(S.rx[1], 1u);
	/* server 0 is dead now: the next request goes to server 1 at once */
	ASSERT_TRUE(l2d_radius_auth(d, &pap, done, NULL) != NULL);
	pump(&loop, 100);
	EXPECT_EQ(R.accept, 2u);
	EXPECT_EQ(S.rx[0], 2u);
	EXPECT_EQ(S.rx[1], 2u);
	l2d_radius_stats(d, st, sizeof(st));
	EXPECT_STREQ(st, "radius requests 2 accepts 2 rejects 0 down 0 timeouts 2 "
			 "retransmits 1 bad 2 stray 0 acct-queued 0 acct-sent 0 acct-dropped 0");
	/* per server (S-OPS-3): the silent one timed out twice and is dead */
	{
		struct l2d_radius_srv_stats r;
		char a0[32];

		ASSERT_TRUE(l2d_radius_srv_stats(d, 0, &r));
		snprintf(a0, sizeof(a0), "127.0.0.1:%u", l2d_port(&(struct l2d_addr){ c.radius[0].addr, c.radius[0].len }));
		EXPECT_EQ(r.index, 1u);
		EXPECT_STREQ(r.kind, "auth");
		EXPECT_STREQ(r.address, a0);
		EXPECT_EQ(r.requests, 1u);
		EXPECT_EQ(r.timeouts, 2u);
		EXPECT_EQ(r.bad, 0u);
		EXPECT_TRUE(r.dead);
		ASSERT_TRUE(l2d_radius_srv_stats(d, 1, &r));
		EXPECT_EQ(r.index, 2u);
		EXPECT_EQ(r.requests, 2u);
		EXPECT_EQ(r.timeouts, 0u);
		EXPECT_EQ(r.bad, 2u);		/* the forged replies */
		EXPECT_FALSE(r.dead);
		ASSERT_TRUE(l2d_radius_srv_stats(d, 2, &r));	/* accounting's, then */
		EXPECT_STREQ(r.kind, "acct");
		EXPECT_EQ(r.index, 1u);
		EXPECT_EQ(r.requests, 0u);
		ASSERT_TRUE(l2d_radius_srv_stats(d, 3, &r));
		EXPECT_FALSE(l2d_radius_srv_stats(d, 4, &r));
	}
	teardown(d, &loop);
}

TEST(radclient_more_requests_than_identifiers)
{
	struct l2d_conf c;
	struct l2d_loop loop;
	struct l2d *d;
	unsigned int i, rounds = 0;

	d = setup(&c, &loop);
	ASSERT_TRUE(d != NULL);
	c.radius_timeout_ms = 5000;	/* nothing times out here */
	S.answer[0] = true;
	S.hold = 0;
	for (i = 0; i < NREQ; i++)
		ASSERT_TRUE(l2d_radius_auth(d, &pap, done, NULL) != NULL);
	while (R.calls < NREQ && rounds++ < 20) {
		pump(&loop, 30);
		release_held();
	}
	EXPECT_EQ(R.accept, NREQ);
	EXPECT_EQ(S.max_held, 256u);	/* one Identifier each, never more at once */
	EXPECT_EQ(S.rx[1], 0u);		/* waiting is not failing over */
	teardown(d, &loop);
}

TEST(radclient_cancel_and_all_silent)
{
	struct l2d_conf c;
	struct l2d_loop loop;
	struct l2d *d;
	struct rad_call *k;
	char st[512];

	d = setup(&c, &loop);
	ASSERT_TRUE(d != NULL);
	/* cancelled before the answer: no call back, the late reply is stray */
	S.answer[0] = true;
	S.hold = 0;
	k = l2d_radius_auth(d, &pap, done, NULL);
	ASSERT_TRUE(k != NULL);
	pump(&loop, 20);
	l2d_radius_cancel(d, k);
	release_held();
	pump(&loop, 20);
	EXPECT_EQ(R.calls, 0u);
	l2d_radius_stats(d, st, sizeof(st));
	EXPECT_TRUE(strstr(st, " stray 1") != NULL);
	/* nobody answers: both servers tried radius-tries times, then DOWN */
	S.answer[0] = false;
	S.hold = -1;
	S.rx[0] = 0;
	ASSERT_TRUE(l2d_radius_auth(d, &pap, done, NULL) != NULL);
	pump(&loop, 400);
	EXPECT_EQ(R.down, 1u);
	EXPECT_EQ(S.rx[0], 2u);
	EXPECT_EQ(S.rx[1], 2u);
	/* a CHAP response that is not 16 bytes is not sent */
	{
		struct rad_auth chap = pap;

		chap.chap = true;
		chap.secret_len = 15;
		EXPECT_TRUE(l2d_radius_auth(d, &chap, done, NULL) == NULL);
	}
	teardown(d, &loop);
}

/*
 * Every server dead (radius-dead-time): a login is not held for
 * radius-timeout x radius-tries on each of them again; DOWN comes from the
 * next loop turn with nothing sent, and after the dead time the servers
 * are asked again.
 */
TEST(radclient_all_dead_down_at_once)
{
	struct l2d_conf c;
	struct l2d_loop loop;
	struct l2d *d;
	char st[512];

	d = setup(&c, &loop);
	ASSERT_TRUE(d != NULL);
	c.radius_dead_ms = 300;
	ASSERT_TRUE(l2d_radius_auth(d, &pap, done, NULL) != NULL);
	pump(&loop, 250);
	EXPECT_EQ(R.down, 1u);
	EXPECT_EQ(S.rx[0], 2u);
	EXPECT_EQ(S.rx[1], 2u);
	/* both dead: answered without a datagram, never from inside the call */
	ASSERT_TRUE(l2d_radius_auth(d, &pap, done, NULL) != NULL);
	EXPECT_EQ(R.down, 1u);
	pump(&loop, 5);
	EXPECT_EQ(R.down, 2u);
	EXPECT_EQ(S.rx[0] + S.rx[1], 4u);
	/* a cancelled one never calls back */
	l2d_radius_cancel(d, l2d_radius_auth(d, &pap, done, NULL));
	pump(&loop, 5);
	EXPECT_EQ(R.calls, 2u);
	/* the dead time over: asked again, and an answer counts */
	pump(&loop, 300);
	S.answer[0] = true;
	ASSERT_TRUE(l2d_radius_auth(d, &pap, done, NULL) != NULL);
	pump(&loop, 100);
	EXPECT_EQ(R.accept, 1u);
	EXPECT_EQ(S.rx[0], 3u);
	l2d_radius_stats(d, st, sizeof(st));
	EXPECT_TRUE(strstr(st, "radius requests 4 accepts 1 rejects 0 down 2 ") == st);
	teardown(d, &loop);
}

/*
 * Accounting (RFC 2866): records to a server that does not answer are kept
 * (parked for radius-dead-time, then tried again), never dropped, and all
 * delivered once it answers; each request's authenticator is RFC 2866's.
 */
TEST(radclient_accounting_kept_until_delivered)
{
	struct l2d_conf c;
	struct l2d_loop loop;
	struct l2d *d;
	struct rad_pkt p;
	static const uint8_t zero[RAD_AUTH_LEN];
	char st[512];
	int i;

	d = setup(&c, &loop);
	ASSERT_TRUE(d != NULL);
	l2d_radius_close(d);
	/* one server: authentication on fd 0, accounting on fd 1 */
	c.n_radius = 1;
	c.radius[0].acct_port = ntohs(((struct sockaddr_in *)&c.radius[1].addr)->sin_port);
	c.radius_accounting = true;
	c.radius_dead_ms = 200;
	ASSERT_EQ(l2d_radius_open(d, st, sizeof(st)), 0);
	rad_pkt_init(&p, RAD_ACCOUNTING_REQUEST, 0, zero);
	rad_put_u32(&p, RAD_ACCT_STATUS_TYPE, RAD_ACCT_START);
	rad_put_str(&p, RAD_ACCT_SESSION_ID, "0000000100000001");
	for (i = 0; i < 3; i++)
		EXPECT_EQ(l2d_radius_acct(d, p.buf + RAD_HDR_LEN, p.len - RAD_HDR_LEN), 0);
	EXPECT_EQ(l2d_radius_pending(d), 3u);
	pump(&loop, 500);		/* nobody answers: tried, parked, tried again */
	EXPECT_EQ(l2d_radius_pending(d), 3u);
	EXPECT_TRUE(S.acct_rx >= 6);
	S.answer[1] = true;
	pump(&loop, 500);
	EXPECT_EQ(l2d_radius_pending(d), 0u);
	EXPECT_EQ(S.acct_bad, 0u);
	EXPECT_EQ(S.rx[0], 0u);		/* nothing to the authentication port */
	l2d_radius_stats(d, st, sizeof(st));
	EXPECT_TRUE(strstr(st, "acct-queued 0 acct-sent 3 acct-dropped 0") != NULL);
	/* one left waiting out the dead time when the agent stops: freed (LeakSanitizer) */
	S.answer[1] = false;
	EXPECT_EQ(l2d_radius_acct(d, p.buf + RAD_HDR_LEN, p.len - RAD_HDR_LEN), 0);
	pump(&loop, 150);
	EXPECT_EQ(l2d_radius_pending(d), 1u);
	teardown(d, &loop);
}

/*
 * An Access-Challenge (RFC 2865 section 4.4): a PPP subscriber cannot answer
 * one, so the login is refused with the reason, as a reject would be.
 */
TEST(radclient_access_challenge_refuses)
{
	struct l2d_conf c;
	struct l2d_loop loop;
	struct l2d *d;

	d = setup(&c, &loop);
	ASSERT_TRUE(d != NULL);
	S.answer[0] = true;
	S.challenge = true;
	ASSERT_TRUE(l2d_radius_auth(d, &pap, done, NULL) != NULL);
	pump(&loop, 200);
	EXPECT_EQ(R.calls, 1u);
	EXPECT_EQ(R.accept, 0u);
	EXPECT_EQ(R.reject, 1u);
	EXPECT_STREQ(R.message, "RADIUS Access-Challenge not supported");
	S.challenge = false;
	teardown(d, &loop);
}

/*
 * S-SEC-8: a reply without a Message-Authenticator is not an answer (RFC
 * 3579 section 3.2; CVE-2024-3596 forges exactly such a reply): dropped,
 * counted bad, the request retransmitted and then sent to the next server,
 * never taken as an accept, nor a reject.  When no server signs, the login
 * gets radius-fallback (RAD_RES_DOWN), not the forged verdict.
 */
TEST(radclient_reply_without_message_authenticator_unanswered)
{
	struct l2d_conf c;
	struct l2d_loop loop;
	struct l2d *d;
	char st[512];

	d = setup(&c, &loop);
	ASSERT_TRUE(d != NULL);
	S.answer[0] = S.answer[1] = true;
	S.no_ma[0] = true;
	ASSERT_TRUE(l2d_radius_auth(d, &pap, done, NULL) != NULL);
	pump(&loop, 400);
	EXPECT_EQ(R.calls, 1u);
	EXPECT_EQ(R.accept, 1u);	/* server 2's signed Access-Accept */
	EXPECT_EQ(S.rx[0], 2u);		/* both tries went unanswered */
	EXPECT_EQ(S.rx[1], 1u);
	l2d_radius_stats(d, st, sizeof(st));
	EXPECT_STREQ(st, "radius requests 1 accepts 1 rejects 0 down 0 timeouts 2 "
			 "retransmits 1 bad 2 stray 0 acct-queued 0 acct-sent 0 acct-dropped 0");
	teardown(d, &loop);
	/* neither signs: an Access-Reject is not a reject, an Access-Accept not an accept */
	d = setup(&c, &loop);
	ASSERT_TRUE(d != NULL);
	S.answer[0] = S.answer[1] = true;
	S.no_ma[0] = S.no_ma[1] = true;
	S.reject = true;
	c.radius_dead_ms = 0;		/* the second request asks both again */
	ASSERT_TRUE(l2d_radius_auth(d, &pap, done, NULL) != NULL);
	pump(&loop, 400);
	EXPECT_EQ(R.calls, 1u);
	EXPECT_EQ(R.reject, 0u);
	EXPECT_EQ(R.down, 1u);
	S.reject = false;
	ASSERT_TRUE(l2d_radius_auth(d, &pap, done, NULL) != NULL);
	pump(&loop, 400);
	EXPECT_EQ(R.calls, 2u);
	EXPECT_EQ(R.accept, 0u);
	EXPECT_EQ(R.down, 2u);
	l2d_radius_stats(d, st, sizeof(st));
	EXPECT_TRUE(strstr(st, " bad 8 ") != NULL);	/* 2 requests x 2 servers x 2 tries */
	teardown(d, &loop);
}
