// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld's server of dynamic authorization (userspace/l2tpseld/das.c;
 * S-RAD-5, S-SEC-8) on its real event loop and socket, with a Dynamic
 * Authorization Client on 127.0.0.1 in this process and the access role
 * replaced by a recorder of the calls it is asked to end.  Replays (RFC 5176
 * replay protection): a Disconnect-Request must carry an Event-Timestamp
 * within radius-das-event-window of the agent's clock (300 s by default),
 * one outside is dropped unanswered, one without is refused with NAK 402;
 * a request is authenticated before the duplicate cache is consulted, so a
 * forged packet with a cached request's header gets nothing; a request seen
 * before is answered again and ends nothing more, from another source port
 * too, and however many others came between, for as long as its
 * Event-Timestamp is current.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../../userspace/l2tpseld/agent.h"
#include "../../userspace/l2tpseld/kernel.h"
#include "../../userspace/l2tpseld/l2d.h"
#include "../../userspace/l2tpseld/md5.h"
#include "../../userspace/l2tpseld/radius.h"
#include "harness.h"

#define DAS_SECRET "das-test-secret"

/* The access role's part: each call it is asked to end, by User-Name. */
static struct {
	unsigned int calls, coa;
	uint64_t coa_rate_down;
	char user[64][254];
} E;

int l2d_access_disconnect(struct l2d *d, const struct rad_dm *m, uint32_t cause)
{
	(void)d;
	(void)cause;
	if (E.calls < 64)
		snprintf(E.user[E.calls], sizeof(E.user[0]), "%s", m->user);
	E.calls++;
	return 1;
}

int l2d_access_coa(struct l2d *d, const struct rad_dm *m)
{
	(void)d;
	E.coa++;
	E.coa_rate_down = al_rate(&m->al, AL_ACT_RATE_DOWN);
	return 1;
}

static unsigned int ended(const char *user)
{
	unsigned int i, n = 0;

	for (i = 0; i < E.calls && i < 64; i++)
		n += !strcmp(E.user[i], user);
	return n;
}

static void t_random(struct l2d *d, void *buf, size_t len)
{
	memset(buf, 0x5a, len);
}

static const struct l2d_env t_env = { .random = t_random };

struct das_t {
	struct l2d_conf c;
	struct l2d_loop loop;
	struct l2d *d;
	int dac[2];			/* the client's sockets: two source ports */
	struct sockaddr_in to;
};

static int bound_udp(uint16_t *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t al = sizeof(a);
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(fd, (struct sockaddr *)&a, &al))
		return -1;
	if (port)
		*port = ntohs(a.sin_port);
	return fd;
}

static int das_setup(struct das_t *t)
{
	char err[128];
	uint16_t port;
	int fd;

	memset(t, 0, sizeof(*t));
	memset(&E, 0, sizeof(E));
	/* a free port for radius-das: the kernel's pick, released */
	fd = bound_udp(&port);
	if (fd < 0)
		return -1;
	close(fd);
	l2d_conf_defaults(&t->c);
	t->c.log_level = 0;
	l2d_parse_addr("127.0.0.1", port, &t->c.das_addr, &t->c.das_len);
	l2d_parse_addr("127.0.0.1", 0, &t->c.das_clients[0].addr, &t->c.das_clients[0].len);
	strcpy(t->c.das_clients[0].secret, DAS_SECRET);
	t->c.n_das_clients = 1;
	t->d = calloc(1, sizeof(*t->d));
	if (!t->d)
		return -1;
	l2d_loop_init(&t->loop, true);
	l2d_agent_init(t->d, &t->c, &t->loop, &t_env, &l2d_kops_none);
	if (l2d_das_open(t->d, err, sizeof(err)))
		return -1;
	t->dac[0] = bound_udp(NULL);
	t->dac[1] = bound_udp(NULL);
	t->to = (struct sockaddr_in){ .sin_family = AF_INET, .sin_port = htons(port),
				      .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	return t->dac[0] < 0 || t->dac[1] < 0 ? -1 : 0;
}

static void das_teardown(struct das_t *t)
{
	l2d_das_close(t->d);
	l2d_fini(t->d);
	l2d_loop_fini(&t->loop);
	close(t->dac[0]);
	close(t->dac[1]);
	free(t->d);
}

/*
 * A Disconnect-Request of Identifier @id naming @user, with Event-Timestamp
 * @ts unless 0, signed with @key as RFC 5176 section 2.3 says (the Request
 * Authenticator as RFC 2866's).
 */
static size_t dm_req(uint8_t *out, uint8_t id, const char *user, uint32_t ts, const char *key)
{
	static const uint8_t zero[RAD_AUTH_LEN];
	struct rad_pkt p;

	rad_pkt_init(&p, RAD_DISCONNECT_REQUEST, id, zero);
	rad_put_str(&p, RAD_USER_NAME, user);
	if (ts)
		rad_put_u32(&p, RAD_EVENT_TIMESTAMP, ts);
	rad_finish_acct(&p, (const uint8_t *)key, strlen(key));
	memcpy(out, p.buf, p.len);
	return p.len;
}

/* Send @n bytes from source socket @k, run the loop, and take the answer: its length, 0 for none. */
static size_t exchange(struct das_t *t, int k, const uint8_t *q, size_t n, uint8_t *ans)
{
	ssize_t r = -1;
	int i;

	if (sendto(t->dac[k], q, n, 0, (struct sockaddr *)&t->to, sizeof(t->to)) != (ssize_t)n)
		return 0;
	for (i = 0; i < 20 && r < 0; i++) {
		l2d_loop_once(&t->loop, 2);
		r = recv(t->dac[k], ans, RAD_MAX_LEN, MSG_DONTWAIT);
	}
	return r > 0 ? (size_t)r : 0;
}

/* The Error-Cause of NAK @a (@n bytes), 0 when it has none. */
static uint32_t error_cause(const uint8_t *a, size_t n)
{
	size_t o;

	for (o = RAD_HDR_LEN; o + 6 <= n && a[o + 1] >= 2; o += a[o + 1])
		if (a[o] == RAD_ERROR_CAUSE && a[o + 1] == 6)
			return (uint32_t)a[o + 2] << 24 | (uint32_t)a[o + 3] << 16 |
			       (uint32_t)a[o + 4] << 8 | a[o + 5];
	return 0;
}

static uint32_t now32(void)
{
	return (uint32_t)time(NULL);
}

/*
 * A request is answered once and ends its call once: its replay gets the
 * answer again, from another source port too (the client's address is what
 * identifies it), and after more requests than any fixed number of cached
 * answers, while its Event-Timestamp is current.
 */
TEST(das_replay_ends_nothing_more)
{
	uint8_t q[RAD_MAX_LEN], q2[RAD_MAX_LEN], a[RAD_MAX_LEN], first[RAD_MAX_LEN];
	struct das_t t;
	size_t n, n2, alen, flen;
	char user[32], st[256];
	unsigned int i;

	ASSERT_EQ(das_setup(&t), 0);
	n = dm_req(q, 1, "victim@isp", now32(), DAS_SECRET);
	flen = exchange(&t, 0, q, n, first);
	ASSERT_TRUE(flen >= RAD_HDR_LEN);
	EXPECT_EQ(first[0], RAD_DISCONNECT_ACK);
	EXPECT_EQ(ended("victim@isp"), 1u);
	/* the same bytes again, from the same port and from another */
	alen = exchange(&t, 0, q, n, a);
	EXPECT_TRUE(alen == flen && !memcmp(a, first, flen));
	alen = exchange(&t, 1, q, n, a);
	EXPECT_TRUE(alen == flen && !memcmp(a, first, flen));
	EXPECT_EQ(ended("victim@isp"), 1u);
	/* 60 other requests, then the first once more */
	for (i = 0; i < 60; i++) {
		snprintf(user, sizeof(user), "u%u@isp", i);
		n2 = dm_req(q2, (uint8_t)(2 + i), user, now32(), DAS_SECRET);
		EXPECT_TRUE(exchange(&t, 0, q2, n2, a) >= RAD_HDR_LEN);
	}
	EXPECT_EQ(E.calls, 61u);
	alen = exchange(&t, 1, q, n, a);
	EXPECT_TRUE(alen == flen && !memcmp(a, first, flen));
	EXPECT_EQ(ended("victim@isp"), 1u);
	EXPECT_EQ(E.calls, 61u);
	l2d_das_stats(t.d, st, sizeof(st));
	EXPECT_TRUE(strstr(st, "requests 61 acks 61 naks 0 bad 0 unknown 0 resent 3") != NULL);
	das_teardown(&t);
}

/*
 * The cache is consulted only for an authentic request: a packet with a
 * cached request's Code, Identifier, Length and Request Authenticator but
 * other attributes fails the Request Authenticator and gets nothing.
 */
TEST(das_authenticated_before_the_cache)
{
	uint8_t q[RAD_MAX_LEN], f[RAD_MAX_LEN], a[RAD_MAX_LEN];
	struct das_t t;
	size_t n;
	char st[256];

	ASSERT_EQ(das_setup(&t), 0);
	n = dm_req(q, 9, "alice@isp", now32(), DAS_SECRET);
	ASSERT_TRUE(exchange(&t, 0, q, n, a) >= RAD_HDR_LEN);
	memcpy(f, q, n);
	memcpy(f + RAD_HDR_LEN + 2, "bobby", 5);	/* "alice@isp" -> "bobby@isp" */
	EXPECT_EQ(exchange(&t, 0, f, n, a), 0u);
	/* another client's secret: nothing either */
	n = dm_req(q, 10, "alice@isp", now32(), "not-the-secret");
	EXPECT_EQ(exchange(&t, 0, q, n, a), 0u);
	EXPECT_EQ(E.calls, 1u);
	l2d_das_stats(t.d, st, sizeof(st));
	EXPECT_TRUE(strstr(st, "requests 1 acks 1 naks 0 bad 2 unknown 0 resent 0") != NULL);
	das_teardown(&t);
}

/*
 * Event-Timestamp (RFC 2869 section 5.3) within 300 s of the agent's clock
 * either way: inside the window the call ends; outside it the request is
 * dropped unanswered and counted stale; without one it is refused with
 * Error-Cause 402 Missing-Attribute and ends nothing.
 */
TEST(das_event_timestamp_window)
{
	uint8_t q[RAD_MAX_LEN], a[RAD_MAX_LEN];
	struct das_t t;
	size_t n, alen;
	char st[256];

	ASSERT_EQ(das_setup(&t), 0);
	n = dm_req(q, 1, "old@isp", now32() - 400, DAS_SECRET);
	EXPECT_EQ(exchange(&t, 0, q, n, a), 0u);
	n = dm_req(q, 2, "future@isp", now32() + 400, DAS_SECRET);
	EXPECT_EQ(exchange(&t, 0, q, n, a), 0u);
	n = dm_req(q, 3, "none@isp", 0, DAS_SECRET);
	alen = exchange(&t, 0, q, n, a);
	ASSERT_TRUE(alen >= RAD_HDR_LEN);
	EXPECT_EQ(a[0], RAD_DISCONNECT_NAK);
	EXPECT_EQ(error_cause(a, alen), (uint32_t)RAD_EC_MISSING_ATTRIBUTE);
	EXPECT_EQ(E.calls, 0u);
	n = dm_req(q, 4, "late@isp", now32() - 280, DAS_SECRET);
	alen = exchange(&t, 0, q, n, a);
	ASSERT_TRUE(alen >= RAD_HDR_LEN);
	EXPECT_EQ(a[0], RAD_DISCONNECT_ACK);
	n = dm_req(q, 5, "early@isp", now32() + 280, DAS_SECRET);
	alen = exchange(&t, 0, q, n, a);
	ASSERT_TRUE(alen >= RAD_HDR_LEN);
	EXPECT_EQ(a[0], RAD_DISCONNECT_ACK);
	EXPECT_EQ(E.calls, 2u);
	EXPECT_EQ(ended("late@isp") + ended("early@isp"), 2u);
	l2d_das_stats(t.d, st, sizeof(st));
	EXPECT_TRUE(strstr(st, "requests 3 acks 2 naks 1 bad 0 unknown 0 resent 0 stale 2") != NULL);
	das_teardown(&t);
}

/*
 * A CoA-Request with a line's new rates (S-AL-1): RFC 4679's
 * Actual-Data-Rate-Downstream (26-3561-130, 4 bytes, b/s) reaches the
 * access role and is ACKed; one without rate VSAs is refused with 406
 * (Unsupported-Extension) as before, one with a malformed VSA with 407.
 */
TEST(das_coa_line_rates)
{
	static const uint8_t zero[RAD_AUTH_LEN];
	/* Vendor-Id 3561, Vendor-Type 130, Vendor-Length 6, 20 000 000 = 0x01312d00 */
	static const uint8_t rate[] = { 0, 0, 0x0d, 0xe9, 130, 6, 0x01, 0x31, 0x2d, 0x00 };
	static const uint8_t bad[] = { 0, 0, 0x0d, 0xe9, 130, 5, 0x01, 0x31, 0x2d };
	uint8_t a[RAD_MAX_LEN];
	struct rad_pkt p;
	struct das_t t;
	size_t alen;

	ASSERT_EQ(das_setup(&t), 0);
	rad_pkt_init(&p, RAD_COA_REQUEST, 1, zero);
	rad_put_str(&p, RAD_USER_NAME, "alice@isp");
	rad_put(&p, RAD_VENDOR_SPECIFIC, rate, sizeof(rate));
	rad_put_u32(&p, RAD_EVENT_TIMESTAMP, now32());
	rad_finish_acct(&p, (const uint8_t *)DAS_SECRET, strlen(DAS_SECRET));
	alen = exchange(&t, 0, p.buf, p.len, a);
	ASSERT_TRUE(alen >= RAD_HDR_LEN);
	EXPECT_EQ(a[0], RAD_COA_ACK);
	EXPECT_EQ(E.coa, 1u);
	EXPECT_EQ(E.coa_rate_down, 20000000ull);

	rad_pkt_init(&p, RAD_COA_REQUEST, 2, zero);
	rad_put_str(&p, RAD_USER_NAME, "alice@isp");
	rad_put_u32(&p, 27 /* Session-Timeout */, 60);
	rad_put_u32(&p, RAD_EVENT_TIMESTAMP, now32());
	rad_finish_acct(&p, (const uint8_t *)DAS_SECRET, strlen(DAS_SECRET));
	alen = exchange(&t, 0, p.buf, p.len, a);
	ASSERT_TRUE(alen >= RAD_HDR_LEN);
	EXPECT_EQ(a[0], RAD_COA_NAK);
	EXPECT_EQ(error_cause(a, alen), (uint32_t)RAD_EC_UNSUPPORTED_EXTENSION);

	rad_pkt_init(&p, RAD_COA_REQUEST, 3, zero);
	rad_put_str(&p, RAD_USER_NAME, "alice@isp");
	rad_put(&p, RAD_VENDOR_SPECIFIC, rate, sizeof(rate));
	rad_put(&p, RAD_VENDOR_SPECIFIC, bad, sizeof(bad));
	rad_put_u32(&p, RAD_EVENT_TIMESTAMP, now32());
	rad_finish_acct(&p, (const uint8_t *)DAS_SECRET, strlen(DAS_SECRET));
	alen = exchange(&t, 0, p.buf, p.len, a);
	ASSERT_TRUE(alen >= RAD_HDR_LEN);
	EXPECT_EQ(a[0], RAD_COA_NAK);
	EXPECT_EQ(error_cause(a, alen), (uint32_t)RAD_EC_INVALID_VALUE);
	EXPECT_EQ(E.coa, 1u);
	das_teardown(&t);
}
