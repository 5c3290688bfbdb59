// SPDX-License-Identifier: GPL-2.0
/*
 * The LAC's own PPP (userspace/l2tpseld/ppp.c) against a scripted
 * subscriber on a fake clock: LCP as Linux pppd's PPPoE client negotiates
 * it (RFC 1661, RFC 2516 section 7), PAP (RFC 1334) and CHAP (RFC 1994)
 * logins and refusals, the restart, authentication and echo timers,
 * malformed frames, and a caller that frees the struct in down().
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "../../userspace/l2tpseld/mtu.h"
#include "../../userspace/l2tpseld/ppp.h"
#include "../../userspace/l2tpseld/proxy_lcp.h"

#define T_FRAMES	64
#define T_FRAME_MAX	1600

static struct {
	struct l2d_loop loop;
	uint64_t now;
	uint8_t frame[T_FRAMES][T_FRAME_MAX];
	size_t len[T_FRAMES];
	unsigned int n_sent, n_auth, n_down;
	unsigned int bad_frames;	/* malformed, or sent after down or quiet */
	char why[PPP_WHY_MAX + 1];
	uint8_t rnd;
	bool free_in_down;
	struct l2d_ppp *freed;
	void (*on_auth)(struct l2d_ppp *p);
} T;

static uint64_t t_clock(void *ctx)
{
	return T.now;
}

static void t_send(struct l2d_ppp *p, const uint8_t *f, size_t len)
{
	unsigned int i = T.n_sent++;

	if (T.n_down || p->phase == PPP_PHASE_QUIET || p->phase == PPP_PHASE_DOWN)
		T.bad_frames++;
	if (len < 6 || (size_t)(f[4] << 8 | f[5]) != len - 2)
		T.bad_frames++;
	if (i < T_FRAMES && len <= T_FRAME_MAX) {
		memcpy(T.frame[i], f, len);
		T.len[i] = len;
	}
}

static void t_auth(struct l2d_ppp *p)
{
	T.n_auth++;
	if (T.on_auth)
		T.on_auth(p);
}

static void t_down(struct l2d_ppp *p, const char *why)
{
	T.n_down++;
	snprintf(T.why, sizeof(T.why), "%s", why);
	if (T.free_in_down) {
		T.freed = p;
		free(p);
	}
}

/* Deterministic "random" bytes: 0x11, 0x12, ... */
static void t_random(struct l2d_ppp *p, void *buf, size_t len)
{
	uint8_t *b = buf;
	size_t i;

	for (i = 0; i < len; i++)
		b[i] = (uint8_t)(0x11 + T.rnd++);
}

static const struct l2d_ppp_ops t_ops = {
	.send = t_send, .auth = t_auth, .down = t_down, .random = t_random,
};

/* A fresh subscriber, not started: the conf is the caller's to set. */
static struct l2d_ppp *t_new(bool pap, bool chap)
{
	struct l2d_ppp *p;

	if (T.loop.clock)
		l2d_loop_fini(&T.loop);
	memset(&T, 0, sizeof(T));
	l2d_loop_init(&T.loop, false);
	T.loop.clock = t_clock;
	T.now = 1000;
	p = calloc(1, sizeof(*p));
	p->loop = &T.loop;
	p->ops = &t_ops;
	p->conf.pap = pap;
	p->conf.chap = chap;
	return p;
}

static void t_free(struct l2d_ppp *p)
{
	if (T.freed != p) {
		l2d_ppp_stop(p);
		free(p);
	}
	EXPECT_EQ(T.bad_frames, 0);
	EXPECT_EQ(T.loop.n, 0);		/* no timer left armed */
}

/* Advance the clock by @ms, running every timer due on the way. */
static void t_run(uint64_t ms)
{
	uint64_t end = T.now + ms;

	while (l2d_timer_next(&T.loop) <= end) {
		if (l2d_timer_next(&T.loop) > T.now)
			T.now = l2d_timer_next(&T.loop);
		l2d_timers_run(&T.loop, T.now);
	}
	T.now = end;
}

static const uint8_t *t_last(void)
{
	return T.n_sent ? T.frame[(T.n_sent - 1) % T_FRAMES] : NULL;
}

static size_t t_last_len(void)
{
	return T.n_sent ? T.len[(T.n_sent - 1) % T_FRAMES] : 0;
}

static uint16_t t_proto(const uint8_t *f)
{
	return (uint16_t)(f[0] << 8 | f[1]);
}

/* A frame: protocol, Code, Identifier, Length (computed), the data. */
static void t_pkt(struct l2d_ppp *p, uint16_t proto, uint8_t code, uint8_t id,
		  const uint8_t *d, size_t n)
{
	uint8_t *f = malloc(6 + n);

	f[0] = (uint8_t)(proto >> 8);
	f[1] = (uint8_t)proto;
	f[2] = code;
	f[3] = id;
	f[4] = (uint8_t)((4 + n) >> 8);
	f[5] = (uint8_t)(4 + n);
	if (n)
		memcpy(f + 6, d, n);
	l2d_ppp_input(p, f, 6 + n);
	free(f);
}

/* Raw bytes, in an exactly sized buffer (ASan sees any overread). */
static void t_raw(struct l2d_ppp *p, const uint8_t *d, size_t n)
{
	uint8_t *f = malloc(n ? n : 1);

	memcpy(f, d, n);
	l2d_ppp_input(p, f, n);
	free(f);
}

#define BYTES(...)	((const uint8_t[]){ __VA_ARGS__ }), sizeof((const uint8_t[]){ __VA_ARGS__ })
#define PKT(p, proto, code, id, ...)	t_pkt(p, proto, code, id, BYTES(__VA_ARGS__))
#define PKT0(p, proto, code, id)	t_pkt(p, proto, code, id, NULL, 0)
#define RAW(p, ...)			t_raw(p, BYTES(__VA_ARGS__))

/* Is the last frame sent exactly these bytes? */
static bool t_last_is(const uint8_t *d, size_t n)
{
	return t_last() && t_last_len() == n && !memcmp(t_last(), d, n);
}

#define LAST_IS(...)	t_last_is(BYTES(__VA_ARGS__))

/* pppd's PPPoE client's first Configure-Request: MRU 1492, Magic-Number. */
static const uint8_t pppd_confreq[] = {
	0xc0, 0x21, 0x01, 0x01, 0x00, 0x0e,
	0x01, 0x04, 0x05, 0xd4, 0x05, 0x06, 0x3a, 0x9f, 0x26, 0x1b,
};

/* Our Configure-Request, frame @i, Acked. */
static void t_ack(struct l2d_ppp *p, unsigned int i)
{
	const uint8_t *f = T.frame[i];

	EXPECT_EQ(t_proto(f), PPP_PROTO_LCP);
	EXPECT_EQ(f[2], PPP_CONFREQ);
	t_pkt(p, PPP_PROTO_LCP, PPP_CONFACK, f[3], f + 6, T.len[i] - 6);
}

/* ... the last frame sent. */
static void t_ack_ours(struct l2d_ppp *p)
{
	t_ack(p, T.n_sent - 1);
}

/* pppd's order: our request Acked, its own Configure-Request Acked. */
static void t_open(struct l2d_ppp *p)
{
	l2d_ppp_start(p);
	t_ack_ours(p);
	t_raw(p, pppd_confreq, sizeof(pppd_confreq));
}

static void t_pap_req(struct l2d_ppp *p, uint8_t id, const char *user, const char *pass)
{
	uint8_t d[600];
	size_t ul = strlen(user), pl = strlen(pass);

	d[0] = (uint8_t)ul;
	memcpy(d + 1, user, ul);
	d[1 + ul] = (uint8_t)pl;
	memcpy(d + 2 + ul, pass, pl);
	t_pkt(p, PPP_PROTO_PAP, 1, id, d, 2 + ul + pl);
}

static void t_chap_resp(struct l2d_ppp *p, uint8_t id, const char *user)
{
	uint8_t d[300];
	size_t ul = strlen(user);
	unsigned int i;

	d[0] = 16;
	for (i = 0; i < 16; i++)
		d[1 + i] = (uint8_t)(0xa0 + i);
	memcpy(d + 17, user, ul);
	t_pkt(p, PPP_PROTO_CHAP, 2, id, d, 17 + ul);
}

TEST(ppp_lcp_pppd_pap)
{
	struct l2d_ppp *p = t_new(true, false);
	uint32_t m;

	l2d_ppp_start(p);
	EXPECT_EQ(p->conf.mru, 1492);
	EXPECT_EQ(p->conf.restart_ms, 3000);
	EXPECT_EQ(p->conf.max_configure, 10);
	EXPECT_EQ(p->state, LCP_REQ_SENT);
	EXPECT_EQ(p->phase, PPP_PHASE_LCP);
	m = p->magic;
	EXPECT_EQ(m, 0x11121314);
	ASSERT_EQ(T.n_sent, 1);
	EXPECT_TRUE(LAST_IS(0xc0, 0x21, 0x01, 0x01, 0x00, 0x12,
			    0x01, 0x04, 0x05, 0xd4,		/* MRU 1492 */
			    0x03, 0x04, 0xc0, 0x23,		/* PAP */
			    0x05, 0x06, 0x11, 0x12, 0x13, 0x14));
	/* pppd's request: Acked as it is */
	t_raw(p, pppd_confreq, sizeof(pppd_confreq));
	EXPECT_EQ(T.n_sent, 2);
	EXPECT_TRUE(LAST_IS(0xc0, 0x21, 0x02, 0x01, 0x00, 0x0e,
			    0x01, 0x04, 0x05, 0xd4, 0x05, 0x06, 0x3a, 0x9f, 0x26, 0x1b));
	EXPECT_EQ(p->state, LCP_ACK_SENT);
	EXPECT_EQ(p->peer_mru, 1492);
	EXPECT_EQ(p->peer_magic, 0x3a9f261b);
	/* it Acks ours: Opened, the Authentication phase, nothing sent for PAP */
	PKT(p, PPP_PROTO_LCP, PPP_CONFACK, 1, 0x01, 0x04, 0x05, 0xd4, 0x03, 0x04, 0xc0, 0x23,
	    0x05, 0x06, 0x11, 0x12, 0x13, 0x14);
	EXPECT_EQ(p->state, LCP_OPENED);
	EXPECT_EQ(p->phase, PPP_PHASE_AUTH);
	EXPECT_EQ(p->auth, PPP_AUTH_PAP);
	EXPECT_EQ(T.n_sent, 2);
	EXPECT_TRUE(l2d_timer_armed(&p->auth_timer));
	EXPECT_TRUE(!l2d_timer_armed(&p->restart_timer));
	EXPECT_EQ(p->rx_bad, 0);
	EXPECT_EQ(T.n_down, 0);
	t_free(p);
}

TEST(ppp_lcp_ack_with_wrong_id_or_options_ignored)
{
	struct l2d_ppp *p = t_new(true, false);

	l2d_ppp_start(p);
	PKT(p, PPP_PROTO_LCP, PPP_CONFACK, 9, 0x01, 0x04, 0x05, 0xd4, 0x03, 0x04, 0xc0, 0x23,
	    0x05, 0x06, 0x11, 0x12, 0x13, 0x14);
	EXPECT_EQ(p->state, LCP_REQ_SENT);
	PKT(p, PPP_PROTO_LCP, PPP_CONFACK, 1, 0x01, 0x04, 0x05, 0xd4, 0x03, 0x04, 0xc0, 0x23);
	EXPECT_EQ(p->state, LCP_REQ_SENT);
	t_ack_ours(p);
	EXPECT_EQ(p->state, LCP_ACK_RCVD);
	t_free(p);
}

TEST(ppp_chap_login)
{
	struct l2d_ppp *p = t_new(false, true);
	const uint8_t *f;
	unsigned int i;

	l2d_ppp_start(p);
	EXPECT_TRUE(LAST_IS(0xc0, 0x21, 0x01, 0x01, 0x00, 0x13,
			    0x01, 0x04, 0x05, 0xd4,
			    0x03, 0x05, 0xc2, 0x23, 0x05,	/* CHAP, MD5 */
			    0x05, 0x06, 0x11, 0x12, 0x13, 0x14));
	/* the other order: Ack-Rcvd, then its request opens */
	t_ack_ours(p);
	EXPECT_EQ(p->state, LCP_ACK_RCVD);
	t_raw(p, pppd_confreq, sizeof(pppd_confreq));
	EXPECT_EQ(p->state, LCP_OPENED);
	EXPECT_EQ(p->phase, PPP_PHASE_AUTH);
	ASSERT_EQ(T.n_sent, 3);		/* ConfReq, ConfAck, Challenge */
	f = t_last();
	EXPECT_EQ(t_proto(f), PPP_PROTO_CHAP);
	EXPECT_EQ(f[2], 1);
	EXPECT_EQ(f[3], p->chap_id);
	EXPECT_EQ(t_last_len(), 2 + 4 + 1 + 16 + 7);
	EXPECT_EQ(f[6], 16);
	EXPECT_TRUE(!memcmp(f + 7, p->challenge, 16));
	EXPECT_TRUE(!memcmp(f + 23, "l2tpsel", 7));
	for (i = 0; i < 16; i++)
		EXPECT_EQ(p->challenge[i], 0x15 + i);	/* after the 4 magic bytes */
	/* a Response to another Identifier: ignored */
	t_chap_resp(p, (uint8_t)(p->chap_id + 1), "alice@example");
	EXPECT_EQ(T.n_auth, 0);
	EXPECT_EQ(p->phase, PPP_PHASE_AUTH);
	t_chap_resp(p, p->chap_id, "alice@example");
	EXPECT_EQ(T.n_auth, 1);
	EXPECT_EQ(p->phase, PPP_PHASE_LOGIN);
	EXPECT_EQ(p->auth, PPP_AUTH_CHAP);
	EXPECT_EQ(p->name_len, 13);
	EXPECT_STREQ(p->name, "alice@example");
	EXPECT_EQ(p->response_len, 16);
	EXPECT_EQ(p->response[0], 0xa0);
	EXPECT_EQ(p->response[15], 0xaf);
	EXPECT_TRUE(!l2d_timer_armed(&p->auth_timer));
	EXPECT_TRUE(!l2d_timer_armed(&p->restart_timer));
	/* repeated while the LNS is asked: nothing */
	t_chap_resp(p, p->chap_id, "alice@example");
	EXPECT_EQ(T.n_auth, 1);
	EXPECT_EQ(T.n_sent, 3);
	t_run(60000);
	EXPECT_EQ(T.n_sent, 3);
	t_free(p);
}

TEST(ppp_chap_challenge_retransmitted)
{
	struct l2d_ppp *p = t_new(false, true);
	uint8_t first[40];
	size_t n;

	t_open(p);
	ASSERT_EQ(T.n_sent, 3);
	n = t_last_len();
	memcpy(first, t_last(), n);
	t_run(3000);
	ASSERT_EQ(T.n_sent, 4);
	EXPECT_TRUE(t_last_is(first, n));	/* the same Identifier and Value */
	/* max_configure Challenges in all, then Terminate */
	t_run(8 * 3000);
	EXPECT_EQ(T.n_sent, 3 + 9);
	t_run(3000);
	EXPECT_EQ(T.n_sent, 3 + 10);
	EXPECT_EQ(t_last()[2], PPP_TERMREQ);
	EXPECT_EQ(p->phase, PPP_PHASE_TERMINATING);
	t_run(10000);
	EXPECT_EQ(T.n_down, 1);
	EXPECT_STREQ(T.why, "authentication timeout");
	t_free(p);
}

TEST(ppp_pap_login)
{
	struct l2d_ppp *p = t_new(true, false);

	t_open(p);
	EXPECT_EQ(p->phase, PPP_PHASE_AUTH);
	ASSERT_EQ(T.n_sent, 2);
	t_pap_req(p, 7, "bob@isp.example", "s3cret");
	EXPECT_EQ(T.n_auth, 1);
	EXPECT_EQ(p->phase, PPP_PHASE_LOGIN);
	EXPECT_EQ(p->auth, PPP_AUTH_PAP);
	EXPECT_EQ(p->chap_id, 7);
	EXPECT_EQ(p->name_len, 15);
	EXPECT_STREQ(p->name, "bob@isp.example");
	EXPECT_EQ(p->response_len, 6);
	EXPECT_TRUE(!memcmp(p->response, "s3cret", 6));
	/* retransmissions, same or new Identifier: no second login, no answer */
	t_pap_req(p, 7, "bob@isp.example", "s3cret");
	t_pap_req(p, 8, "bob@isp.example", "s3cret");
	t_pap_req(p, 9, "mallory", "guess");
	EXPECT_EQ(T.n_auth, 1);
	EXPECT_EQ(T.n_sent, 2);
	EXPECT_STREQ(p->name, "bob@isp.example");
	/* accepted: nothing sent, the LNS answers once bridged */
	l2d_ppp_auth_result(p, true, NULL);
	EXPECT_EQ(T.n_sent, 2);
	l2d_ppp_quiet(p);
	EXPECT_EQ(p->phase, PPP_PHASE_QUIET);
	EXPECT_EQ(T.n_down, 0);
	t_free(p);
}

/*
 * S-STORM-4: the request handed to the LNS once bridged is RFC 1334
 * section 2.2.1's Authenticate-Request with the Identifier of the
 * subscriber's last retransmission, so that the LNS's Ack answers the
 * request the subscriber waits on.
 */
TEST(ppp_pap_request_for_the_lns)
{
	static const uint8_t want[] = {
		0xc0, 0x23,			/* Protocol: PAP */
		0x01, 0x08, 0x00, 0x1b,		/* Authenticate-Request, Id 8, Length 27 */
		15, 'b', 'o', 'b', '@', 'i', 's', 'p', '.', 'e', 'x', 'a', 'm', 'p', 'l', 'e',
		6, 's', '3', 'c', 'r', 'e', 't',
	};
	struct l2d_ppp *p = t_new(true, false);
	uint8_t buf[64];

	t_open(p);
	EXPECT_EQ(l2d_ppp_pap_request(p, buf, sizeof(buf)), 0);	/* nothing given yet */
	t_pap_req(p, 7, "bob@isp.example", "s3cret");
	t_pap_req(p, 8, "bob@isp.example", "s3cret");		/* its retransmission */
	l2d_ppp_auth_result(p, true, NULL);
	l2d_ppp_quiet(p);
	ASSERT_EQ(l2d_ppp_pap_request(p, buf, sizeof(buf)), sizeof(want));
	EXPECT_TRUE(!memcmp(buf, want, sizeof(want)));
	EXPECT_EQ(l2d_ppp_pap_request(p, buf, sizeof(want) - 1), 0);	/* no room */
	t_free(p);
}

TEST(ppp_pap_empty_fields)
{
	struct l2d_ppp *p = t_new(true, false);

	t_open(p);
	t_pap_req(p, 1, "", "");
	EXPECT_EQ(T.n_auth, 1);
	EXPECT_EQ(p->name_len, 0);
	EXPECT_STREQ(p->name, "");
	EXPECT_EQ(p->response_len, 0);
	t_free(p);
}

TEST(ppp_pap_refused)
{
	static const char msg[] = "no route for domain \"isp.example\"";
	struct l2d_ppp *p = t_new(true, false);
	const uint8_t *f;
	size_t ml = sizeof(msg) - 1;

	t_open(p);
	t_pap_req(p, 7, "bob@isp.example", "s3cret");
	t_pap_req(p, 8, "bob@isp.example", "s3cret");	/* pppd's retransmission */
	ASSERT_EQ(T.n_sent, 2);
	l2d_ppp_auth_result(p, false, msg);
	ASSERT_EQ(T.n_sent, 4);
	/* Authenticate-Nak answering the last request, the message byte-exact */
	f = T.frame[2];
	EXPECT_EQ(T.len[2], 2 + 4 + 1 + ml);
	EXPECT_EQ(t_proto(f), PPP_PROTO_PAP);
	EXPECT_EQ(f[2], 3);
	EXPECT_EQ(f[3], 8);
	EXPECT_EQ(f[6], ml);
	EXPECT_TRUE(!memcmp(f + 7, msg, ml));
	/* then Terminate-Request */
	f = T.frame[3];
	EXPECT_EQ(t_proto(f), PPP_PROTO_LCP);
	EXPECT_EQ(f[2], PPP_TERMREQ);
	EXPECT_EQ(p->phase, PPP_PHASE_TERMINATING);
	EXPECT_EQ(p->state, LCP_CLOSING);
	/* a request after the Nak: the same Nak again */
	t_pap_req(p, 9, "bob@isp.example", "s3cret");
	ASSERT_EQ(T.n_sent, 5);
	f = t_last();
	EXPECT_EQ(f[2], 3);
	EXPECT_EQ(f[3], 9);
	EXPECT_TRUE(!memcmp(f + 7, msg, ml));
	l2d_ppp_auth_result(p, false, "again");		/* not in LOGIN: nothing */
	EXPECT_EQ(T.n_sent, 5);
	/* Terminate-Ack: down, once, with the message */
	PKT0(p, PPP_PROTO_LCP, PPP_TERMACK, T.frame[3][3]);
	EXPECT_EQ(T.n_down, 1);
	EXPECT_STREQ(T.why, msg);
	EXPECT_EQ(p->phase, PPP_PHASE_DOWN);
	PKT0(p, PPP_PROTO_LCP, PPP_TERMACK, T.frame[3][3]);
	l2d_ppp_close(p, "later");
	t_run(60000);
	EXPECT_EQ(T.n_down, 1);
	EXPECT_EQ(T.n_sent, 5);
	t_free(p);
}

TEST(ppp_chap_refused)
{
	static const char msg[] = "Authentication failed (LNS: result 2)";
	struct l2d_ppp *p = t_new(false, true);
	const uint8_t *f;
	size_t ml = sizeof(msg) - 1;
	uint8_t id;

	t_open(p);
	id = p->chap_id;
	t_chap_resp(p, id, "carol");
	EXPECT_EQ(T.n_auth, 1);
	ASSERT_EQ(T.n_sent, 3);
	l2d_ppp_auth_result(p, false, msg);
	ASSERT_EQ(T.n_sent, 5);
	f = T.frame[3];
	EXPECT_EQ(T.len[3], 2 + 4 + ml);
	EXPECT_EQ(t_proto(f), PPP_PROTO_CHAP);
	EXPECT_EQ(f[2], 4);		/* Failure */
	EXPECT_EQ(f[3], id);
	EXPECT_TRUE(!memcmp(f + 6, msg, ml));
	EXPECT_EQ(T.frame[4][2], PPP_TERMREQ);
	/* the Response again: the same Failure (RFC 1994 section 4.2) */
	t_chap_resp(p, id, "carol");
	ASSERT_EQ(T.n_sent, 6);
	EXPECT_TRUE(t_last_is(T.frame[3], T.len[3]));
	t_chap_resp(p, (uint8_t)(id + 1), "carol");
	EXPECT_EQ(T.n_sent, 6);
	/* no Terminate-Ack: max_terminate Terminate-Requests, then down */
	t_run(3000);
	EXPECT_EQ(T.n_sent, 7);
	EXPECT_EQ(t_last()[2], PPP_TERMREQ);
	EXPECT_EQ(T.n_down, 0);
	t_run(3000);
	EXPECT_EQ(T.n_down, 1);
	EXPECT_STREQ(T.why, msg);
	t_run(60000);
	EXPECT_EQ(T.n_sent, 7);
	EXPECT_EQ(T.n_down, 1);
	t_free(p);
}

/* A refusal given from inside ops->auth(): the caller answers at once. */
static void refuse_now(struct l2d_ppp *p)
{
	l2d_ppp_auth_result(p, false, NULL);
}

TEST(ppp_refused_from_auth_callback)
{
	struct l2d_ppp *p = t_new(true, false);

	t_open(p);
	T.on_auth = refuse_now;
	t_pap_req(p, 3, "dave", "x");
	ASSERT_EQ(T.n_sent, 4);
	EXPECT_EQ(T.frame[2][2], 3);
	EXPECT_EQ(T.frame[2][6], strlen("authentication failed"));
	EXPECT_EQ(T.frame[3][2], PPP_TERMREQ);
	PKT0(p, PPP_PROTO_LCP, PPP_TERMACK, 0);
	EXPECT_EQ(T.n_down, 1);
	EXPECT_STREQ(T.why, "authentication failed");
	t_free(p);
}

TEST(ppp_auth_nak_switches)
{
	struct l2d_ppp *p = t_new(true, true);

	l2d_ppp_start(p);
	EXPECT_EQ(p->auth, PPP_AUTH_CHAP);
	/* pppd with "refuse-chap": Nak, asking PAP */
	PKT(p, PPP_PROTO_LCP, PPP_CONFNAK, 1, 0x03, 0x04, 0xc0, 0x23);
	EXPECT_EQ(p->auth, PPP_AUTH_PAP);
	EXPECT_TRUE(p->auth_rejected_chap);
	ASSERT_EQ(T.n_sent, 2);
	EXPECT_TRUE(LAST_IS(0xc0, 0x21, 0x01, 0x02, 0x00, 0x12,
			    0x01, 0x04, 0x05, 0xd4, 0x03, 0x04, 0xc0, 0x23,
			    0x05, 0x06, 0x11, 0x12, 0x13, 0x14));
	EXPECT_EQ(p->last_tx.len, 14);
	EXPECT_TRUE(!memcmp(p->last_tx.data, t_last() + 6, 14));
	t_ack_ours(p);
	t_raw(p, pppd_confreq, sizeof(pppd_confreq));
	EXPECT_EQ(p->phase, PPP_PHASE_AUTH);
	t_pap_req(p, 1, "erin", "pw");
	EXPECT_EQ(T.n_auth, 1);
	t_free(p);
}

TEST(ppp_auth_nak_other_method_falls_back)
{
	struct l2d_ppp *p = t_new(true, true);

	l2d_ppp_start(p);
	/* MS-CHAPv2 asked (algorithm 0x81): PAP is still ours to offer */
	PKT(p, PPP_PROTO_LCP, PPP_CONFNAK, 1, 0x03, 0x05, 0xc2, 0x23, 0x81);
	EXPECT_EQ(p->auth, PPP_AUTH_PAP);
	EXPECT_EQ(p->state, LCP_REQ_SENT);
	/* and then CHAP MD5 asked back: both refused, we cannot */
	PKT(p, PPP_PROTO_LCP, PPP_CONFNAK, 2, 0x03, 0x05, 0xc2, 0x23, 0x05);
	EXPECT_EQ(p->state, LCP_CLOSING);
	EXPECT_EQ(t_last()[2], PPP_TERMREQ);
	PKT0(p, PPP_PROTO_LCP, PPP_TERMACK, t_last()[3]);
	EXPECT_EQ(T.n_down, 1);
	EXPECT_STREQ(T.why, "subscriber refused authentication");
	t_free(p);
}

TEST(ppp_auth_nak_not_allowed)
{
	struct l2d_ppp *p = t_new(false, true);

	l2d_ppp_start(p);
	PKT(p, PPP_PROTO_LCP, PPP_CONFNAK, 1, 0x03, 0x04, 0xc0, 0x23);
	ASSERT_EQ(T.n_sent, 2);
	EXPECT_EQ(t_proto(t_last()), PPP_PROTO_LCP);
	EXPECT_EQ(t_last()[2], PPP_TERMREQ);
	EXPECT_TRUE(!memcmp(t_last() + 6, "subscriber refused authentication", 33));
	EXPECT_EQ(p->state, LCP_CLOSING);
	EXPECT_EQ(p->phase, PPP_PHASE_TERMINATING);
	EXPECT_EQ(T.n_down, 0);
	PKT0(p, PPP_PROTO_LCP, PPP_TERMACK, t_last()[3]);
	EXPECT_EQ(T.n_down, 1);
	EXPECT_STREQ(T.why, "subscriber refused authentication");
	t_free(p);
}

TEST(ppp_auth_rejected)
{
	struct l2d_ppp *p = t_new(true, true);

	l2d_ppp_start(p);
	PKT(p, PPP_PROTO_LCP, PPP_CONFREJ, 1, 0x03, 0x05, 0xc2, 0x23, 0x05);
	ASSERT_EQ(T.n_sent, 2);
	EXPECT_EQ(t_last()[2], PPP_TERMREQ);
	/* Terminate-Requests run out: down all the same */
	t_run(6000);
	EXPECT_EQ(T.n_sent, 3);
	EXPECT_EQ(T.n_down, 1);
	EXPECT_STREQ(T.why, "subscriber refused authentication");
	t_free(p);
}

TEST(ppp_our_options_naked_and_rejected)
{
	struct l2d_ppp *p = t_new(true, false);

	l2d_ppp_start(p);
	/* an MRU Nak lowers it; a magic Nak takes a fresh one */
	PKT(p, PPP_PROTO_LCP, PPP_CONFNAK, 1, 0x01, 0x04, 0x05, 0x78, 0x05, 0x06, 0, 0, 0, 9);
	EXPECT_TRUE(LAST_IS(0xc0, 0x21, 0x01, 0x02, 0x00, 0x12,
			    0x01, 0x04, 0x05, 0x78, 0x03, 0x04, 0xc0, 0x23,
			    0x05, 0x06, 0x15, 0x16, 0x17, 0x18));
	EXPECT_EQ(p->tx_mru, 1400);
	EXPECT_EQ(p->magic, 0x15161718);
	/* larger than ours (PPPoE's 1492): kept */
	PKT(p, PPP_PROTO_LCP, PPP_CONFNAK, 2, 0x01, 0x04, 0x05, 0xdc);
	EXPECT_EQ(p->tx_mru, 1400);
	EXPECT_EQ(t_last()[3], 3);
	/* both rejected: not asked for again */
	PKT(p, PPP_PROTO_LCP, PPP_CONFREJ, 3, 0x01, 0x04, 0x05, 0x78, 0x05, 0x06, 0x15, 0x16, 0x17, 0x18);
	EXPECT_TRUE(LAST_IS(0xc0, 0x21, 0x01, 0x04, 0x00, 0x08, 0x03, 0x04, 0xc0, 0x23));
	t_ack_ours(p);
	t_raw(p, pppd_confreq, sizeof(pppd_confreq));
	EXPECT_EQ(p->state, LCP_OPENED);
	/* Echo-Reply with magic 0 (section 6.4: not negotiated) */
	PKT(p, PPP_PROTO_LCP, PPP_ECHOREQ, 7, 0x3a, 0x9f, 0x26, 0x1b);
	EXPECT_TRUE(LAST_IS(0xc0, 0x21, 0x0a, 0x07, 0x00, 0x08, 0, 0, 0, 0));
	t_free(p);
}

/*
 * S-MTU-1: the MRU access.c gives (l2d_access_mru(), a 1500-byte path over
 * IPv6, the default; 1462 over IPv4) is what our Configure-Request asks
 * and what the Last Sent LCP CONFREQ (AVP 27, RFC 2661 section 4.4.5)
 * proxies; a subscriber's Nak may lower it, never raise it to PPPoE's 1492.
 */
TEST(ppp_confreq_mru_fits_the_path)
{
	static const uint8_t opts1442[] = { 0x01, 0x04, 0x05, 0xa2, 0x03, 0x04, 0xc0, 0x23,
					    0x05, 0x06, 0x11, 0x12, 0x13, 0x14 };
	struct l2d_ppp *p = t_new(true, false);

	p->conf.mru = l2d_access_mru(1500, true, false);
	l2d_ppp_start(p);
	EXPECT_EQ(p->tx_mru, 1442);
	ASSERT_EQ(T.n_sent, 1);
	EXPECT_TRUE(LAST_IS(0xc0, 0x21, 0x01, 0x01, 0x00, 0x12,
			    0x01, 0x04, 0x05, 0xa2,		/* MRU 1442 */
			    0x03, 0x04, 0xc0, 0x23,
			    0x05, 0x06, 0x11, 0x12, 0x13, 0x14));
	EXPECT_TRUE(p->last_tx.present);
	EXPECT_EQ(p->last_tx.len, sizeof(opts1442));
	EXPECT_TRUE(!memcmp(p->last_tx.data, opts1442, sizeof(opts1442)));
	/* pppd's PPPoE client Naks with its own 1492: ours stays */
	PKT(p, PPP_PROTO_LCP, PPP_CONFNAK, 1, 0x01, 0x04, 0x05, 0xd4);
	EXPECT_EQ(p->tx_mru, 1442);
	EXPECT_EQ(t_last()[3], 2);
	EXPECT_EQ(t_last()[8] << 8 | t_last()[9], 1442);
	/* a smaller one is taken, and proxied */
	PKT(p, PPP_PROTO_LCP, PPP_CONFNAK, 2, 0x01, 0x04, 0x05, 0x78);
	EXPECT_EQ(p->tx_mru, 1400);
	EXPECT_EQ(p->last_tx.data[2] << 8 | p->last_tx.data[3], 1400);
	t_ack_ours(p);
	t_raw(p, pppd_confreq, sizeof(pppd_confreq));
	EXPECT_EQ(p->state, LCP_OPENED);
	EXPECT_EQ(p->peer_mru, 1492);
	t_free(p);

	/* IPv4 with sequence numbers: 1500 - 42 */
	p = t_new(true, false);
	p->conf.mru = l2d_access_mru(1500, false, true);
	l2d_ppp_start(p);
	EXPECT_EQ(t_last()[8] << 8 | t_last()[9], 1458);
	t_free(p);
}

/* S-MTU-1: the MRU of a proxied Configure-Request (an LNS reads AVP 27) */
TEST(ppp_opts_mru_of_proxy_lcp)
{
	EXPECT_EQ(ppp_opts_mru(pppd_confreq + 6, 10), 1492);
	EXPECT_EQ(ppp_opts_mru(BYTES(0x05, 0x06, 1, 2, 3, 4, 0x01, 0x04, 0x05, 0xa2)), 1442);
	/* the first MRU option of length 4 */
	EXPECT_EQ(ppp_opts_mru(BYTES(0x01, 0x03, 0x05, 0x01, 0x04, 0x05, 0x78, 0x01, 0x04, 0x05, 0xa2)),
		  1400);
	/* none, too small, malformed: 0 */
	EXPECT_EQ(ppp_opts_mru(BYTES(0x05, 0x06, 1, 2, 3, 4)), 0);
	EXPECT_EQ(ppp_opts_mru(NULL, 0), 0);
	EXPECT_EQ(ppp_opts_mru(BYTES(0x01, 0x04, 0x00, 0x3f)), 0);
	EXPECT_EQ(ppp_opts_mru(BYTES(0x01, 0x04, 0x00, 0x40)), 64);
	EXPECT_EQ(ppp_opts_mru(BYTES(0x01, 0x04, 0x05)), 0);		/* past the end */
	EXPECT_EQ(ppp_opts_mru(BYTES(0x01, 0x04, 0x05, 0xa2, 0x05)), 0);	/* a lone byte */
	EXPECT_EQ(ppp_opts_mru(BYTES(0x05, 0x01, 0x01, 0x04, 0x05, 0xa2)), 0);	/* length 1 */
	EXPECT_EQ(ppp_opts_mru(BYTES(0x05, 0x00, 0x01, 0x04, 0x05, 0xa2)), 0);	/* length 0 */
}

/* RFC 1661 section 6: the one option walk of ppp.c and proxy_lcp.c */
TEST(lcp_opt_walk)
{
	static const uint8_t o[] = { 0x01, 0x04, 0x05, 0xd4, 0x07, 0x02, 0x05, 0x06, 1, 2, 3, 4 };
	struct lcp_opt opt;
	size_t off = 0;

	ASSERT_TRUE(lcp_opt_next(o, sizeof(o), &off, &opt));
	EXPECT_EQ(opt.type, LCP_OPT_MRU);
	EXPECT_EQ(opt.len, 4);
	EXPECT_TRUE(opt.at == o && opt.v == o + 2);
	ASSERT_TRUE(lcp_opt_next(o, sizeof(o), &off, &opt));
	EXPECT_EQ(opt.type, LCP_OPT_PFC);	/* no Data */
	EXPECT_EQ(opt.len, 2);
	ASSERT_TRUE(lcp_opt_next(o, sizeof(o), &off, &opt));
	EXPECT_EQ(opt.type, LCP_OPT_MAGIC);
	EXPECT_TRUE(opt.at == o + 6 && opt.v == o + 8);
	EXPECT_FALSE(lcp_opt_next(o, sizeof(o), &off, &opt));	/* the end */
	EXPECT_EQ(off, sizeof(o));
	EXPECT_TRUE(lcp_opts_valid(o, sizeof(o)));
	EXPECT_TRUE(lcp_opts_valid(NULL, 0));
	/* a Length below 2 or past the end stops the walk on that option */
	off = 0;
	EXPECT_FALSE(lcp_opt_next(BYTES(0x05, 0x01, 0x01, 0x04, 0x05, 0xa2), &off, &opt));
	EXPECT_EQ(off, 0u);
	EXPECT_FALSE(lcp_opts_valid(BYTES(0x01, 0x04, 0x05, 0xa2, 0x05, 0x00)));	/* length 0 */
	EXPECT_FALSE(lcp_opts_valid(BYTES(0x01, 0x04, 0x05)));			/* past the end */
	EXPECT_FALSE(lcp_opts_valid(BYTES(0x01, 0x04, 0x05, 0xa2, 0x05)));		/* a lone byte */
}

TEST(ppp_pfc_acfc_auth_quality_unknown_rejected)
{
	struct l2d_ppp *p = t_new(true, false);

	l2d_ppp_start(p);
	/* MRU, ACCM, auth (PAP: it would authenticate us), LQR, magic, PFC, ACFC, 0x42 */
	PKT(p, PPP_PROTO_LCP, PPP_CONFREQ, 5,
	    0x01, 0x04, 0x05, 0xd4, 0x02, 0x06, 0x00, 0x00, 0x00, 0x00,
	    0x03, 0x04, 0xc0, 0x23, 0x04, 0x08, 0xc0, 0x25, 0x00, 0x00, 0x00, 0x0a,
	    0x05, 0x06, 0x01, 0x02, 0x03, 0x04, 0x07, 0x02, 0x08, 0x02, 0x42, 0x03, 0x99);
	EXPECT_TRUE(LAST_IS(0xc0, 0x21, 0x04, 0x05, 0x00, 0x17,
			    0x03, 0x04, 0xc0, 0x23, 0x04, 0x08, 0xc0, 0x25, 0x00, 0x00, 0x00, 0x0a,
			    0x07, 0x02, 0x08, 0x02, 0x42, 0x03, 0x99));
	EXPECT_EQ(p->state, LCP_REQ_SENT);
	/* without them: Acked */
	PKT(p, PPP_PROTO_LCP, PPP_CONFREQ, 6,
	    0x01, 0x04, 0x05, 0xd4, 0x02, 0x06, 0x00, 0x00, 0x00, 0x00,
	    0x05, 0x06, 0x01, 0x02, 0x03, 0x04);
	EXPECT_EQ(t_last()[2], PPP_CONFACK);
	EXPECT_EQ(t_last()[3], 6);
	EXPECT_EQ(p->state, LCP_ACK_SENT);
	EXPECT_EQ(p->peer_magic, 0x01020304);
	t_free(p);
}

TEST(ppp_nak_mru_and_magic_loop)
{
	struct l2d_ppp *p = t_new(true, false);
	uint32_t ours;
	const uint8_t *f;

	l2d_ppp_start(p);
	ours = p->magic;
	/* our own magic back: maybe a loop, Nak with another (RFC 1661 section 6.4) */
	PKT(p, PPP_PROTO_LCP, PPP_CONFREQ, 1, 0x01, 0x04, 0x05, 0xd4, 0x05, 0x06,
	    (uint8_t)(ours >> 24), (uint8_t)(ours >> 16), (uint8_t)(ours >> 8), (uint8_t)ours);
	f = t_last();
	ASSERT_EQ(t_last_len(), 12);
	EXPECT_EQ(f[2], PPP_CONFNAK);
	EXPECT_EQ(f[6], 5);
	EXPECT_EQ(f[7], 6);
	EXPECT_TRUE((uint32_t)(f[8] << 24 | f[9] << 16 | f[10] << 8 | f[11]) != ours);
	EXPECT_TRUE(f[8] | f[9] | f[10] | f[11]);
	EXPECT_EQ(p->magic, ours);
	/* zero is illegal, an MRU below 64 is Naked with ours */
	PKT(p, PPP_PROTO_LCP, PPP_CONFREQ, 2, 0x01, 0x04, 0x00, 0x20, 0x05, 0x06, 0, 0, 0, 0);
	f = t_last();
	ASSERT_EQ(t_last_len(), 16);
	EXPECT_EQ(f[2], PPP_CONFNAK);
	EXPECT_TRUE(!memcmp(f + 6, BYTES(0x01, 0x04, 0x05, 0xd4, 0x05, 0x06)));
	EXPECT_EQ(p->failure_count, 2);
	EXPECT_EQ(p->state, LCP_REQ_SENT);
	t_free(p);
}

TEST(ppp_max_failure_turns_naks_into_rejects)
{
	struct l2d_ppp *p = t_new(true, false);
	unsigned int i;

	p->conf.max_failure = 2;
	l2d_ppp_start(p);
	for (i = 0; i < 3; i++)
		PKT(p, PPP_PROTO_LCP, PPP_CONFREQ, (uint8_t)i, 0x01, 0x04, 0x00, 0x20);
	EXPECT_TRUE(LAST_IS(0xc0, 0x21, 0x04, 0x02, 0x00, 0x08, 0x01, 0x04, 0x00, 0x20));
	t_free(p);
}

TEST(ppp_negotiation_does_not_converge)
{
	struct l2d_ppp *p = t_new(true, false);
	unsigned int i;

	l2d_ppp_start(p);
	for (i = 0; i < 30 && p->state != LCP_CLOSING; i++)
		PKT(p, PPP_PROTO_LCP, PPP_CONFREQ, (uint8_t)i, 0x42, 0x02);
	EXPECT_EQ(i, 21);
	EXPECT_EQ(t_last()[2], PPP_TERMREQ);
	PKT0(p, PPP_PROTO_LCP, PPP_TERMACK, 0);
	EXPECT_STREQ(T.why, "LCP negotiation does not converge");
	t_free(p);
}

TEST(ppp_echo)
{
	struct l2d_ppp *p = t_new(true, false);

	l2d_ppp_start(p);
	/* not Opened: silently discarded */
	PKT(p, PPP_PROTO_LCP, PPP_ECHOREQ, 0x21, 0x3a, 0x9f, 0x26, 0x1b);
	EXPECT_EQ(T.n_sent, 1);
	t_ack_ours(p);
	t_raw(p, pppd_confreq, sizeof(pppd_confreq));
	EXPECT_EQ(p->state, LCP_OPENED);
	PKT(p, PPP_PROTO_LCP, PPP_ECHOREQ, 0x22, 0x3a, 0x9f, 0x26, 0x1b, 'h', 'i');
	EXPECT_TRUE(LAST_IS(0xc0, 0x21, 0x0a, 0x22, 0x00, 0x0a, 0x11, 0x12, 0x13, 0x14, 'h', 'i'));
	/* Discard-Request: nothing; a short Echo-Request: bad */
	PKT(p, PPP_PROTO_LCP, PPP_DISCREQ, 0x23, 0x3a, 0x9f, 0x26, 0x1b);
	PKT(p, PPP_PROTO_LCP, PPP_ECHOREQ, 0x24, 0x3a);
	EXPECT_EQ(T.n_sent, 3);
	EXPECT_EQ(p->rx_bad, 1);
	t_free(p);
}

TEST(ppp_echo_requests_and_failure)
{
	struct l2d_ppp *p = t_new(true, false);
	const uint8_t *f;

	p->conf.echo_interval_ms = 10000;
	p->conf.auth_timeout_ms = 1000000;
	t_open(p);
	ASSERT_EQ(T.n_sent, 2);
	t_run(10000);
	ASSERT_EQ(T.n_sent, 3);
	f = t_last();
	EXPECT_TRUE(!memcmp(f, BYTES(0xc0, 0x21, 0x09)));
	EXPECT_TRUE(!memcmp(f + 4, BYTES(0x00, 0x08, 0x11, 0x12, 0x13, 0x14)));
	PKT(p, PPP_PROTO_LCP, PPP_ECHOREP, f[3], 0x3a, 0x9f, 0x26, 0x1b);
	EXPECT_EQ(p->echo_missed, 0);
	t_run(30000);
	EXPECT_EQ(T.n_sent, 6);
	EXPECT_EQ(T.n_down, 0);
	t_run(10000);
	EXPECT_EQ(T.n_down, 1);
	EXPECT_STREQ(T.why, "no echo reply");
	EXPECT_EQ(T.n_sent, 6);
	t_free(p);
}

TEST(ppp_unknown_protocol)
{
	struct l2d_ppp *p = t_new(true, false);

	l2d_ppp_start(p);
	RAW(p, 0xc0, 0x29, 0x01, 0x01, 0x00, 0x04);	/* CBCP, not Opened: discarded */
	EXPECT_EQ(T.n_sent, 1);
	EXPECT_EQ(p->rx_unknown_proto, 1);
	t_ack_ours(p);
	t_raw(p, pppd_confreq, sizeof(pppd_confreq));
	RAW(p, 0xc0, 0x29, 0x01, 0x01, 0x00, 0x04);
	EXPECT_TRUE(LAST_IS(0xc0, 0x21, 0x08, 0x02, 0x00, 0x0a,
			    0xc0, 0x29, 0x01, 0x01, 0x00, 0x04));
	EXPECT_EQ(p->rx_unknown_proto, 2);
	/* IPCP and IPv6CP, IP: for the LNS, silently discarded (RFC 1661 section 3.5) */
	RAW(p, 0x80, 0x21, 0x01, 0x01, 0x00, 0x0a, 0x03, 0x06, 0, 0, 0, 0);
	RAW(p, 0x80, 0x57, 0x01, 0x01, 0x00, 0x04);
	RAW(p, 0x00, 0x21, 0x45, 0x00);
	EXPECT_EQ(T.n_sent, 3);
	EXPECT_EQ(p->rx_unknown_proto, 5);
	/* an invalid Protocol field (odd high octet, even low octet): bad */
	RAW(p, 0x21, 0x01, 0x01, 0x00, 0x04);
	RAW(p, 0xc0, 0x22, 0x01, 0x01, 0x00, 0x04);
	EXPECT_EQ(p->rx_bad, 2);
	EXPECT_EQ(T.n_sent, 3);
	t_free(p);
}

TEST(ppp_protocol_reject_truncated_to_mru)
{
	struct l2d_ppp *p = t_new(true, false);
	uint8_t f[300];

	l2d_ppp_start(p);
	t_ack_ours(p);
	PKT(p, PPP_PROTO_LCP, PPP_CONFREQ, 1, 0x01, 0x04, 0x00, 0x40);	/* MRU 64 */
	EXPECT_EQ(p->state, LCP_OPENED);
	EXPECT_EQ(p->peer_mru, 64);
	memset(f, 0x55, sizeof(f));
	f[0] = 0x40;
	f[1] = 0x25;
	t_raw(p, f, sizeof(f));
	EXPECT_EQ(t_last_len(), 2 + 64);
	EXPECT_EQ(t_last()[2], PPP_PROTREJ);
	EXPECT_EQ(t_last()[5], 64);
	t_free(p);
}

TEST(ppp_unknown_code)
{
	struct l2d_ppp *p = t_new(true, false);

	l2d_ppp_start(p);
	PKT(p, PPP_PROTO_LCP, 0x20, 0x33, 0xde, 0xad);
	EXPECT_TRUE(LAST_IS(0xc0, 0x21, 0x07, 0x02, 0x00, 0x0a, 0x20, 0x33, 0x00, 0x06, 0xde, 0xad));
	/* a Code-Reject of Echo-Request: no more echoes; of Configure-Request: the end */
	PKT(p, PPP_PROTO_LCP, PPP_CODEREJ, 1, 0x09, 0x01, 0x00, 0x08, 0, 0, 0, 0);
	EXPECT_TRUE(p->echo_off);
	EXPECT_EQ(T.n_down, 0);
	PKT(p, PPP_PROTO_LCP, PPP_CODEREJ, 2, 0x01, 0x01, 0x00, 0x04);
	EXPECT_EQ(T.n_down, 1);
	EXPECT_STREQ(T.why, "subscriber rejected LCP");
	t_free(p);
}

TEST(ppp_subscriber_terminates)
{
	struct l2d_ppp *p = t_new(true, false);

	t_open(p);
	t_pap_req(p, 1, "frank", "pw");
	ASSERT_EQ(T.n_sent, 2);
	PKT(p, PPP_PROTO_LCP, PPP_TERMREQ, 0x44, 'U', 's', 'e', 'r');
	EXPECT_TRUE(LAST_IS(0xc0, 0x21, 0x06, 0x44, 0x00, 0x04));
	EXPECT_EQ(T.n_down, 1);
	EXPECT_STREQ(T.why, "subscriber sent Terminate-Request");
	EXPECT_EQ(p->phase, PPP_PHASE_DOWN);
	l2d_ppp_auth_result(p, false, "late");
	PKT(p, PPP_PROTO_LCP, PPP_TERMREQ, 0x45);
	t_run(100000);
	EXPECT_EQ(T.n_sent, 3);
	EXPECT_EQ(T.n_down, 1);
	t_free(p);
}

TEST(ppp_terminate_during_negotiation)
{
	struct l2d_ppp *p = t_new(true, false);

	l2d_ppp_start(p);
	PKT0(p, PPP_PROTO_LCP, PPP_TERMREQ, 0x10);
	EXPECT_TRUE(LAST_IS(0xc0, 0x21, 0x06, 0x10, 0x00, 0x04));
	EXPECT_EQ(T.n_down, 1);
	t_free(p);
}

TEST(ppp_restart_exhausted)
{
	struct l2d_ppp *p = t_new(true, false);
	unsigned int i;

	l2d_ppp_start(p);
	for (i = 1; i < 10; i++) {
		t_run(2999);
		EXPECT_EQ(T.n_sent, i);
		t_run(1);
		EXPECT_EQ(T.n_sent, i + 1);
		EXPECT_EQ(t_last()[3], 1);	/* a retransmission keeps its Identifier */
	}
	EXPECT_EQ(T.n_down, 0);
	t_run(3000);
	EXPECT_EQ(T.n_sent, 10);
	EXPECT_EQ(T.n_down, 1);
	EXPECT_STREQ(T.why, "LCP negotiation timeout");
	t_run(100000);
	EXPECT_EQ(T.n_sent, 10);
	t_free(p);
}

TEST(ppp_auth_timeout)
{
	struct l2d_ppp *p = t_new(true, false);

	p->conf.auth_timeout_ms = 20000;
	t_open(p);
	EXPECT_EQ(p->phase, PPP_PHASE_AUTH);
	t_run(19999);
	EXPECT_EQ(T.n_sent, 2);
	t_run(1);
	ASSERT_EQ(T.n_sent, 3);
	EXPECT_EQ(t_last()[2], PPP_TERMREQ);
	EXPECT_TRUE(!memcmp(t_last() + 6, "authentication timeout", 22));
	t_run(3000);
	EXPECT_EQ(T.n_sent, 4);
	t_run(3000);
	EXPECT_EQ(T.n_down, 1);
	EXPECT_STREQ(T.why, "authentication timeout");
	/* a request too late */
	t_pap_req(p, 1, "gina", "pw");
	EXPECT_EQ(T.n_auth, 0);
	t_free(p);
}

TEST(ppp_quiet)
{
	struct l2d_ppp *p = t_new(false, true);
	unsigned int sent;

	p->conf.echo_interval_ms = 1000;
	t_open(p);
	t_chap_resp(p, p->chap_id, "henry");
	EXPECT_EQ(T.n_auth, 1);
	l2d_ppp_auth_result(p, true, NULL);
	sent = T.n_sent;
	l2d_ppp_quiet(p);
	EXPECT_EQ(p->phase, PPP_PHASE_QUIET);
	EXPECT_EQ(T.loop.n, 0);
	/* the LNS speaks now: nothing is answered, no timer sends */
	PKT(p, PPP_PROTO_LCP, PPP_ECHOREQ, 1, 0, 0, 0, 1);
	PKT0(p, PPP_PROTO_LCP, PPP_TERMREQ, 2);
	PKT(p, PPP_PROTO_LCP, PPP_CONFREQ, 3, 0x01, 0x04, 0x05, 0xd4);
	RAW(p, 0xc0, 0x29, 0x01, 0x01, 0x00, 0x04);
	RAW(p, 0x01);
	t_chap_resp(p, p->chap_id, "henry");
	l2d_ppp_auth_result(p, false, "no");
	t_run(1000000);
	EXPECT_EQ(T.n_sent, sent);
	EXPECT_EQ(T.n_down, 0);
	EXPECT_EQ(p->rx_bad, 0);
	/* closed once quiet: down at once, nothing sent */
	l2d_ppp_close(p, "the LNS cleared the call");
	EXPECT_EQ(T.n_down, 1);
	EXPECT_STREQ(T.why, "the LNS cleared the call");
	EXPECT_EQ(T.n_sent, sent);
	t_free(p);
}

TEST(ppp_close_and_stop)
{
	struct l2d_ppp *p = t_new(true, false);

	t_open(p);
	l2d_ppp_close(p, "shutting down");
	ASSERT_EQ(T.n_sent, 3);
	EXPECT_TRUE(LAST_IS(0xc0, 0x21, 0x05, 0x02, 0x00, 0x11,
			    's', 'h', 'u', 't', 't', 'i', 'n', 'g', ' ', 'd', 'o', 'w', 'n'));
	l2d_ppp_close(p, "again");	/* already Closing */
	EXPECT_EQ(T.n_sent, 3);
	/* its own Terminate-Request crosses ours: Acked, we still wait */
	PKT0(p, PPP_PROTO_LCP, PPP_TERMREQ, 9);
	EXPECT_TRUE(LAST_IS(0xc0, 0x21, 0x06, 0x09, 0x00, 0x04));
	EXPECT_EQ(T.n_down, 0);
	l2d_ppp_stop(p);
	EXPECT_EQ(p->phase, PPP_PHASE_DOWN);
	t_run(100000);
	EXPECT_EQ(T.n_sent, 4);
	EXPECT_EQ(T.n_down, 0);
	t_free(p);
}

TEST(ppp_captures)
{
	struct l2d_ppp *p = t_new(true, false);

	l2d_ppp_start(p);
	EXPECT_TRUE(p->last_tx.present);
	EXPECT_EQ(p->last_tx.len, 14);
	EXPECT_TRUE(!p->init_rx.present && !p->last_rx.present);
	/* the first request, with PFC: rejected, kept as the initial one */
	PKT(p, PPP_PROTO_LCP, PPP_CONFREQ, 1, 0x01, 0x04, 0x05, 0xd4, 0x07, 0x02);
	ASSERT_TRUE(p->init_rx.present && p->last_rx.present);
	EXPECT_EQ(p->init_rx.len, 6);
	EXPECT_TRUE(!memcmp(p->init_rx.data, BYTES(0x01, 0x04, 0x05, 0xd4, 0x07, 0x02)));
	t_raw(p, pppd_confreq, sizeof(pppd_confreq));
	EXPECT_EQ(p->init_rx.len, 6);
	EXPECT_EQ(p->last_rx.len, 10);
	EXPECT_TRUE(!memcmp(p->last_rx.data, pppd_confreq + 6, 10));
	/* a Nak changes what we send: last_tx follows */
	PKT(p, PPP_PROTO_LCP, PPP_CONFNAK, 1, 0x01, 0x04, 0x05, 0x00);
	EXPECT_EQ(p->last_tx.len, 14);
	EXPECT_TRUE(!memcmp(p->last_tx.data, BYTES(0x01, 0x04, 0x05, 0x00, 0x03, 0x04, 0xc0, 0x23)));
	t_ack_ours(p);
	EXPECT_EQ(p->state, LCP_OPENED);
	t_free(p);
}

TEST(ppp_capture_truncated)
{
	struct l2d_ppp *p = t_new(true, false);
	uint8_t o[300];
	unsigned int i;

	l2d_ppp_start(p);
	/* 50 ACCM options (300 bytes) */
	for (i = 0; i < 50; i++) {
		o[6 * i] = 0x02;
		o[6 * i + 1] = 6;
		memset(o + 6 * i + 2, (int)i, 4);
	}
	t_pkt(p, PPP_PROTO_LCP, PPP_CONFREQ, 1, o, 300);
	EXPECT_EQ(t_last()[2], PPP_CONFACK);
	EXPECT_EQ(t_last_len(), 306);
	EXPECT_EQ(p->last_rx.len, PPP_CAPTURE_MAX);
	EXPECT_TRUE(!memcmp(p->last_rx.data, o, PPP_CAPTURE_MAX));
	t_free(p);
}

/* Every prefix of a valid frame, and what the Length field allows. */
static void truncations(struct l2d_ppp *p, const uint8_t *f, size_t n)
{
	uint64_t bad = p->rx_bad;
	unsigned int sent = T.n_sent;
	size_t i;

	for (i = 0; i < n; i++) {
		t_raw(p, f, i);
		EXPECT_EQ(p->rx_bad, bad + i + 1);
	}
	EXPECT_EQ(T.n_sent, sent);
}

TEST(ppp_truncated_frames)
{
	static const uint8_t pap[] = {
		0xc0, 0x23, 0x01, 0x05, 0x00, 0x0e, 0x04, 'i', 'v', 'a', 'n', 0x04, 'p', 'a', 's', 's',
	};
	struct l2d_ppp *p = t_new(true, false);
	uint8_t f[sizeof(pap)];
	size_t i;

	l2d_ppp_start(p);
	truncations(p, pppd_confreq, sizeof(pppd_confreq));
	EXPECT_EQ(p->state, LCP_REQ_SENT);
	EXPECT_TRUE(!p->init_rx.present);
	t_ack_ours(p);
	t_raw(p, pppd_confreq, sizeof(pppd_confreq));
	ASSERT_EQ(p->phase, PPP_PHASE_AUTH);
	truncations(p, pap, sizeof(pap));
	/* Length fields that cut the fields inside: bad too */
	for (i = 4; i < 10; i++) {
		uint64_t bad = p->rx_bad;

		memcpy(f, pap, sizeof(pap));
		f[5] = (uint8_t)i;
		t_raw(p, f, sizeof(f));
		EXPECT_EQ(p->rx_bad, bad + 1);
	}
	/* Peer-ID Length past the packet */
	memcpy(f, pap, sizeof(pap));
	f[6] = 0x20;
	t_raw(p, f, sizeof(f));
	EXPECT_EQ(T.n_auth, 0);
	/* padding after the Length: ignored; Address and Control: stripped */
	{
		uint8_t g[2 + sizeof(pap) + 3];

		g[0] = 0xff;
		g[1] = 0x03;
		memcpy(g + 2, pap, sizeof(pap));
		memset(g + 2 + sizeof(pap), 0, 3);
		t_raw(p, g, sizeof(g));
	}
	EXPECT_EQ(T.n_auth, 1);
	EXPECT_STREQ(p->name, "ivan");
	EXPECT_EQ(p->response_len, 4);
	t_free(p);
}

TEST(ppp_malformed_options)
{
	struct l2d_ppp *p = t_new(true, false);

	l2d_ppp_start(p);
	PKT(p, PPP_PROTO_LCP, PPP_CONFREQ, 1, 0x01, 0x04, 0x05, 0xd4, 0x05, 0x01);	/* len 1 */
	PKT(p, PPP_PROTO_LCP, PPP_CONFREQ, 2, 0x01, 0x00, 0x05, 0xd4);		/* len 0 */
	PKT(p, PPP_PROTO_LCP, PPP_CONFREQ, 3, 0x01, 0x04, 0x05, 0xd4, 0x05, 0x08, 1, 2, 3, 4);
	PKT(p, PPP_PROTO_LCP, PPP_CONFREQ, 4, 0x01);
	PKT(p, PPP_PROTO_LCP, PPP_CONFNAK, 1, 0x03, 0x09, 0xc0);
	EXPECT_EQ(p->rx_bad, 5);
	EXPECT_EQ(T.n_sent, 1);
	EXPECT_TRUE(!p->init_rx.present);
	/* a known option with the wrong length: rejected */
	PKT(p, PPP_PROTO_LCP, PPP_CONFREQ, 5, 0x01, 0x03, 0x05);
	EXPECT_TRUE(LAST_IS(0xc0, 0x21, 0x04, 0x05, 0x00, 0x07, 0x01, 0x03, 0x05));
	/* Length below 4, above the frame */
	RAW(p, 0xc0, 0x21, 0x01, 0x06, 0x00, 0x03);
	RAW(p, 0xc0, 0x21, 0x01, 0x07, 0x00, 0x08, 0x01, 0x04);
	EXPECT_EQ(p->rx_bad, 7);
	t_free(p);
}

TEST(ppp_renegotiation_keeps_login)
{
	struct l2d_ppp *p = t_new(true, false);

	t_open(p);
	t_pap_req(p, 1, "judy", "pw");
	EXPECT_EQ(p->phase, PPP_PHASE_LOGIN);
	/* a new Configure-Request while Opened: tld, scr, sca */
	t_raw(p, pppd_confreq, sizeof(pppd_confreq));
	EXPECT_EQ(p->state, LCP_ACK_SENT);
	EXPECT_EQ(T.frame[T.n_sent - 2][2], PPP_CONFREQ);
	EXPECT_EQ(t_last()[2], PPP_CONFACK);
	EXPECT_EQ(T.frame[T.n_sent - 2][3], 2);
	PKT(p, PPP_PROTO_LCP, PPP_CONFACK, 2, 0x01, 0x04, 0x05, 0xd4, 0x03, 0x04, 0xc0, 0x23,
	    0x05, 0x06, 0x11, 0x12, 0x13, 0x14);
	EXPECT_EQ(p->state, LCP_OPENED);
	EXPECT_EQ(p->phase, PPP_PHASE_LOGIN);
	EXPECT_EQ(T.n_auth, 1);
	t_free(p);
}

TEST(ppp_auth_fixed_after_login)
{
	struct l2d_ppp *p = t_new(true, true);

	t_open(p);
	t_chap_resp(p, p->chap_id, "lena");
	EXPECT_EQ(p->phase, PPP_PHASE_LOGIN);
	/* renegotiated, our CHAP Naked for PAP: the login's protocol stays */
	t_raw(p, pppd_confreq, sizeof(pppd_confreq));
	PKT(p, PPP_PROTO_LCP, PPP_CONFNAK, T.frame[T.n_sent - 2][3], 0x03, 0x04, 0xc0, 0x23);
	EXPECT_EQ(p->auth, PPP_AUTH_CHAP);
	EXPECT_EQ(p->state, LCP_CLOSING);
	EXPECT_EQ(t_last()[2], PPP_TERMREQ);
	t_free(p);
}

TEST(ppp_renegotiation_no_fresh_auth_time)
{
	struct l2d_ppp *p = t_new(true, false);

	p->conf.auth_timeout_ms = 10000;
	t_open(p);
	t_run(6000);
	t_raw(p, pppd_confreq, sizeof(pppd_confreq));
	t_ack(p, 0);		/* a stale Ack: ignored, the Identifier moved on */
	EXPECT_EQ(p->state, LCP_ACK_SENT);
	t_ack(p, T.n_sent - 2);
	EXPECT_EQ(p->state, LCP_OPENED);
	t_run(4000);		/* the auth timer runs across the renegotiation */
	EXPECT_EQ(p->phase, PPP_PHASE_TERMINATING);
	t_free(p);
}

static void down_then_free_cases(int which)
{
	struct l2d_ppp *p = t_new(true, true);

	T.free_in_down = true;
	p->conf.echo_interval_ms = 1000;
	switch (which) {
	case 0:		/* restart counter */
		l2d_ppp_start(p);
		t_run(100000);
		break;
	case 1:		/* Terminate-Request in Opened */
		t_open(p);
		PKT0(p, PPP_PROTO_LCP, PPP_TERMREQ, 1);
		break;
	case 2:		/* refusal, then Terminate-Ack */
		t_open(p);
		t_chap_resp(p, p->chap_id, "kim");
		l2d_ppp_auth_result(p, false, "bad password");
		PKT0(p, PPP_PROTO_LCP, PPP_TERMACK, 1);
		break;
	case 3:		/* echoes unanswered */
		t_open(p);
		t_run(10000);
		break;
	case 4:		/* RXJ- in Req-Sent */
		l2d_ppp_start(p);
		PKT(p, PPP_PROTO_LCP, PPP_CODEREJ, 1, 0x02, 0x01, 0x00, 0x04);
		break;
	case 5:		/* close once quiet */
		t_open(p);
		l2d_ppp_quiet(p);
		l2d_ppp_close(p, "bye");
		break;
	default:	/* auth timeout, Terminate-Requests unanswered */
		t_open(p);
		t_run(100000);
		break;
	}
	EXPECT_EQ(T.n_down, 1);
	EXPECT_TRUE(T.freed == p);
	t_free(p);
}

TEST(ppp_down_frees)
{
	int i;

	for (i = 0; i < 7; i++)
		down_then_free_cases(i);
}

/* ---- proxy-lcp: what an LNS takes of the proxied LCP (RFC 2661 4.4.5) ---- */

static void px_avp(struct l2d_proxy_avp *a, const void *d, size_t n)
{
	a->data = d;
	a->len = n;
	a->present = 1;
}

/* The AVPs 26 to 33 our own access side puts in the ICCN for @p (access_call.c). */
static void px_from_lac(struct l2d_proxy_in *in, const struct l2d_ppp *p, uint8_t type[2],
			uint8_t id[2])
{
	memset(in, 0, sizeof(*in));
	px_avp(&in->init_rx, p->init_rx.data, p->init_rx.len);
	px_avp(&in->last_tx, p->last_tx.data, p->last_tx.len);
	px_avp(&in->last_rx, p->last_rx.data, p->last_rx.len);
	type[0] = 0;
	type[1] = (uint8_t)p->auth;
	px_avp(&in->type, type, 2);
	px_avp(&in->name, p->name, p->name_len);
	if (p->auth == PPP_AUTH_CHAP) {
		id[0] = 0;
		id[1] = p->chap_id;
		px_avp(&in->challenge, p->challenge, sizeof(p->challenge));
		px_avp(&in->id, id, 2);
	}
	px_avp(&in->response, p->response, p->response_len);
}

/* A PAP call of our own access side: taken, the request the LNS's pppd checks */
TEST(proxy_lcp_taken_from_our_lac_pap)
{
	struct l2d_ppp *p = t_new(true, false);
	struct l2d_proxy_in in;
	struct l2d_proxy_lcp x;
	uint8_t type[2], id[2];

	t_open(p);
	t_pap_req(p, 7, "bob@isp.example", "s3cret");
	ASSERT_EQ(p->phase, PPP_PHASE_LOGIN);
	px_from_lac(&in, p, type, id);
	ASSERT_TRUE(l2d_proxy_lcp_decide(&in, &x) == NULL);
	EXPECT_EQ(x.magic, L2D_PROXY_LCP_MAGIC);
	EXPECT_EQ(x.size, sizeof(x));
	EXPECT_EQ(x.our_mru, 1492);
	EXPECT_EQ(x.our_magic, 0x11121314);
	EXPECT_EQ(x.auth_proto, 0xc023);
	EXPECT_EQ(x.peer_mru, 1492);
	EXPECT_EQ(x.peer_magic, 0x3a9f261b);
	EXPECT_EQ(x.peer_has_accm, 0);
	EXPECT_EQ(x.pap, 1);
	EXPECT_EQ(x.pap_id, 1);		/* no Proxy Authen ID for PAP: ours */
	EXPECT_EQ(x.name_len, 15);
	EXPECT_TRUE(!memcmp(x.name, "bob@isp.example", 15));
	EXPECT_EQ(x.pw_len, 6);
	EXPECT_TRUE(!memcmp(x.pw, "s3cret", 6));
	t_free(p);
}

/* CHAP: the LCP is taken, pppd challenges again (pppd_proxy_lcp.c) */
TEST(proxy_lcp_taken_from_our_lac_chap)
{
	struct l2d_ppp *p = t_new(false, true);
	struct l2d_proxy_in in;
	struct l2d_proxy_lcp x;
	uint8_t type[2], id[2];

	t_open(p);
	t_chap_resp(p, p->chap_id, "alice@example");
	ASSERT_EQ(p->phase, PPP_PHASE_LOGIN);
	px_from_lac(&in, p, type, id);
	ASSERT_TRUE(l2d_proxy_lcp_decide(&in, &x) == NULL);
	EXPECT_EQ(x.auth_proto, 0xc223);
	EXPECT_EQ(x.pap, 0);
	EXPECT_EQ(x.pw_len, 0);
	EXPECT_EQ(x.our_mru, 1492);
	t_free(p);
}

/* Anything else: not taken, pppd renegotiates; each case names its reason */
TEST(proxy_lcp_fallbacks)
{
	static const uint8_t tx_pap[] = { 0x01, 0x04, 0x05, 0xd4, 0x03, 0x04, 0xc0, 0x23,
					  0x05, 0x06, 0x11, 0x12, 0x13, 0x14 };
	static const uint8_t rx_ok[] = { 0x01, 0x04, 0x05, 0xd4, 0x02, 0x06, 0, 0, 0, 0,
					 0x05, 0x06, 0x3a, 0x9f, 0x26, 0x1b };
	static const uint8_t pap[2] = { 0, 3 }, chap[2] = { 0, 2 }, none[2] = { 0, 4 };
	static const uint8_t long_name[256] = { 'a' };
	const struct {
		const uint8_t *tx;
		size_t txn;
		const uint8_t *rx;
		size_t rxn;
		const uint8_t *type;
		const char *want;	/* a word of the reason */
	} c[] = {
#define O(...) ((const uint8_t[]){ __VA_ARGS__ }), sizeof((const uint8_t[]){ __VA_ARGS__ })
		/* the LAC's options: ACCM, PFC, an EAP or CHAP-MSv2 auth, none, two, bad MRU */
		{ O(0x02, 0x06, 0, 0, 0, 0, 0x03, 0x04, 0xc0, 0x23), rx_ok, sizeof(rx_ok), pap, "option" },
		{ O(0x07, 0x02, 0x03, 0x04, 0xc0, 0x23), rx_ok, sizeof(rx_ok), pap, "option" },
		{ O(0x03, 0x04, 0xc2, 0x27), rx_ok, sizeof(rx_ok), pap, "authentication" },
		{ O(0x03, 0x05, 0xc2, 0x23, 0x81), rx_ok, sizeof(rx_ok), pap, "authentication" },
		{ O(0x01, 0x04, 0x05, 0xd4), rx_ok, sizeof(rx_ok), pap, "no authentication" },
		{ O(0x03, 0x04, 0xc0, 0x23, 0x03, 0x04, 0xc0, 0x23), rx_ok, sizeof(rx_ok), pap, "two" },
		{ O(0x01, 0x04, 0x00, 0x20, 0x03, 0x04, 0xc0, 0x23), rx_ok, sizeof(rx_ok), pap, "MRU" },
		{ O(0x05, 0x06, 0, 0, 0, 0, 0x03, 0x04, 0xc0, 0x23), rx_ok, sizeof(rx_ok), pap, "Magic" },
		/* malformed: length 1, past the end */
		{ O(0x03, 0x01, 0xc0, 0x23), rx_ok, sizeof(rx_ok), pap, "malformed" },
		{ tx_pap, sizeof(tx_pap), O(0x01, 0x04, 0x05), pap, "malformed" },
		/* the subscriber's: PFC, ACFC, auth (it would authenticate us), MRU 100, a loop */
		{ tx_pap, sizeof(tx_pap), O(0x07, 0x02), pap, "subscriber" },
		{ tx_pap, sizeof(tx_pap), O(0x08, 0x02), pap, "subscriber" },
		{ tx_pap, sizeof(tx_pap), O(0x03, 0x04, 0xc0, 0x23), pap, "subscriber" },
		{ tx_pap, sizeof(tx_pap), O(0x01, 0x04, 0x00, 0x64), pap, "128" },
		{ tx_pap, sizeof(tx_pap), O(0x05, 0x06, 0x11, 0x12, 0x13, 0x14), pap, "loop" },
		{ tx_pap, sizeof(tx_pap), O(0x02, 0x05, 0, 0, 0), pap, "ACCM" },
		/* Proxy Authen Type: none (4), not the LCP's (CHAP), absent */
		{ tx_pap, sizeof(tx_pap), rx_ok, sizeof(rx_ok), none, "Type" },
		{ tx_pap, sizeof(tx_pap), rx_ok, sizeof(rx_ok), chap, "not the proxied" },
		{ tx_pap, sizeof(tx_pap), rx_ok, sizeof(rx_ok), NULL, "no Proxy Authen Type" },
#undef O
	};
	struct l2d_proxy_in in;
	struct l2d_proxy_lcp x;
	const char *why;
	unsigned int i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		memset(&in, 0, sizeof(in));
		memset(&x, 0x5a, sizeof(x));
		px_avp(&in.last_tx, c[i].tx, c[i].txn);
		px_avp(&in.last_rx, c[i].rx, c[i].rxn);
		if (c[i].type)
			px_avp(&in.type, c[i].type, 2);
		px_avp(&in.name, "bob", 3);
		px_avp(&in.response, "pw", 2);
		why = l2d_proxy_lcp_decide(&in, &x);
		EXPECT_TRUE(why != NULL);
		if (why && !strstr(why, c[i].want))
			fprintf(stderr, "case %u: \"%s\" lacks \"%s\"\n", i, why, c[i].want);
		EXPECT_TRUE(why && strstr(why, c[i].want));
		EXPECT_EQ(x.magic, 0x5a5a5a5a);		/* *out untouched */
	}

	/* the good case of the table's options, then one AVP missing or too long each */
	memset(&in, 0, sizeof(in));
	px_avp(&in.last_tx, tx_pap, sizeof(tx_pap));
	px_avp(&in.last_rx, rx_ok, sizeof(rx_ok));
	px_avp(&in.type, pap, 2);
	px_avp(&in.name, "bob", 3);
	px_avp(&in.response, "pw", 2);
	ASSERT_TRUE(l2d_proxy_lcp_decide(&in, &x) == NULL);
	EXPECT_EQ(x.peer_has_accm, 1);
	EXPECT_EQ(x.peer_accm, 0);
	in.response.present = 0;
	EXPECT_TRUE(l2d_proxy_lcp_decide(&in, &x) != NULL);
	in.response.present = 1;
	px_avp(&in.response, long_name, 256);
	EXPECT_TRUE(l2d_proxy_lcp_decide(&in, &x) != NULL);
	px_avp(&in.response, "", 0);			/* an empty password is a password */
	EXPECT_TRUE(l2d_proxy_lcp_decide(&in, &x) == NULL);
	px_avp(&in.name, long_name, 256);
	EXPECT_TRUE(l2d_proxy_lcp_decide(&in, &x) != NULL);
	in.name.present = 0;
	EXPECT_TRUE(l2d_proxy_lcp_decide(&in, &x) != NULL);
	px_avp(&in.name, "bob", 3);
	in.last_rx.present = 0;
	EXPECT_TRUE(strstr(l2d_proxy_lcp_decide(&in, &x), "no proxied LCP") != NULL);
	px_avp(&in.last_rx, rx_ok, sizeof(rx_ok));
	px_avp(&in.type, pap, 1);			/* a Type of one octet */
	EXPECT_TRUE(l2d_proxy_lcp_decide(&in, &x) != NULL);
	/* no options at all from the subscriber: taken, its defaults (RFC 1661 6) */
	px_avp(&in.type, pap, 2);
	px_avp(&in.last_rx, NULL, 0);
	ASSERT_TRUE(l2d_proxy_lcp_decide(&in, &x) == NULL);
	EXPECT_EQ(x.peer_mru, 0);
	EXPECT_EQ(x.peer_magic, 0);
}
