// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for l2tpseld's RADIUS client (radclient.c): how it
 * matches what servers send to the requests in flight (the Identifier,
 * then the reply's authentication against that request), its
 * retransmissions, dead servers and failover, its queue for an
 * Identifier, cancellation and accounting records.  The client runs on
 * its own loop and sockets against two fake servers on 127.0.0.1 in this
 * process, on a fake clock.  Ops, each a byte (op & 7):
 *
 *	0	an Access-Request (next byte: user name length, PAP or CHAP)
 *	1	cancel request (next byte) % 16 when it is still open
 *	2	a reply from server (next byte & 1): Identifier (next byte:
 *		bit 7, one a request to it carried, by the low bits; else
 *		the byte), code, attributes (length byte, bytes); with op
 *		bit 3 signed over that request as a server would (Response
 *		Authenticator, and a Message-Authenticator when op bit 4)
 *	3	the clock moves on by (next byte) * 40 ms: timers run
 *	4	an accounting record (next byte: attribute bytes)
 *	5, 6, 7	whatever is readable is read (the loop's turn)
 *
 * Every request's answer comes once, never after its cancellation, never
 * from inside the call that started it; at the end every open request is
 * cancelled and the client closed.  ASan catches a slot or queue entry
 * used after its request went.
 *
 *	make fuzz-smoke FUZZ_TARGETS=radclient	bounded run (mk/fuzz.mk)
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "l2d.h"
#include "md5.h"
#include "radius.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)
#define SECRET "fuzz-secret"
#define NCALL 16

static uint64_t now_ms;
static uint64_t fake_clock(void *ctx)
{
	return now_ms;
}

static void fake_random(struct l2d *d, void *buf, size_t len)
{
	static uint32_t x = 1;
	uint8_t *p = buf;

	while (len--)
		*p++ = (uint8_t)((x = x * 1103515245u + 12345u) >> 16);
}

static const struct l2d_env env = { .random = fake_random };

/* the fake servers: auth 0, auth 1, accounting 0, accounting 1 */
static int srv_fd[4];
static struct sockaddr_in srv_addr[4];

/* the last request each auth server got, by Identifier */
static struct {
	uint8_t auth[RAD_AUTH_LEN];
	struct sockaddr_in from;
	bool seen;
} req[2][256];
static uint8_t last_id[2][8];
static unsigned int n_last[2];

enum call_state { C_FREE, C_OPEN, C_DONE, C_CANCELLED };
static struct {
	struct rad_call *c;
	enum call_state st;
} calls[NCALL];
static bool in_start;

static void done(void *arg, enum rad_result res, const struct rad_reply *r)
{
	unsigned int i = (unsigned int)(uintptr_t)arg;

	CHECK(!in_start);
	CHECK(i < NCALL && calls[i].st == C_OPEN);
	calls[i].st = C_DONE;
	calls[i].c = NULL;
}

static int udp(struct sockaddr_in *a)
{
	socklen_t al = sizeof(*a);
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);

	*a = (struct sockaddr_in){ .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	if (fd < 0 || bind(fd, (struct sockaddr *)a, sizeof(*a)) || getsockname(fd, (struct sockaddr *)a, &al))
		__builtin_trap();
	return fd;
}

/* What the servers got: the requests' Identifiers and authenticators kept. */
static void servers_read(void)
{
	uint8_t buf[RAD_MAX_LEN];
	unsigned int s;

	for (s = 0; s < 4; s++) {
		struct sockaddr_in from;
		socklen_t fl = sizeof(from);
		ssize_t n;

		while ((n = recvfrom(srv_fd[s], buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl)) > 0) {
			fl = sizeof(from);
			if (s >= 2 || n < RAD_HDR_LEN)
				continue;
			memcpy(req[s][buf[1]].auth, buf + 4, RAD_AUTH_LEN);
			req[s][buf[1]].from = from;
			req[s][buf[1]].seen = true;
			last_id[s][n_last[s]++ % 8] = buf[1];
		}
	}
}

#include "fuzz_in.h"

static void reply(struct in *in, uint8_t op)
{
	unsigned int s = next(in) & 1;
	uint8_t idb = next(in), code = next(in), alen = next(in);
	uint8_t b[RAD_MAX_LEN];
	size_t len = RAD_HDR_LEN, ma = 0;
	uint8_t id = idb;
	unsigned int k;

	if ((idb & 0x80) && n_last[s])
		id = last_id[s][idb % (n_last[s] < 8 ? n_last[s] : 8)];
	if (!req[s][id].seen)
		return;		/* nowhere to send it */
	b[0] = code % 12;
	b[1] = id;
	memset(b + 4, 0, RAD_AUTH_LEN);
	for (k = 0; k < alen; k++)
		b[len++] = next(in);
	if (op & 16) {
		ma = len;
		b[len++] = RAD_MESSAGE_AUTHENTICATOR;
		b[len++] = 18;
		memset(b + len, 0, 16);
		len += 16;
	}
	b[2] = (uint8_t)(len >> 8);
	b[3] = (uint8_t)len;
	if (op & 8) {
		struct md5_ctx ctx;

		memcpy(b + 4, req[s][id].auth, RAD_AUTH_LEN);
		if (ma)
			hmac_md5((const uint8_t *)SECRET, strlen(SECRET), b, len, b + ma + 2);
		md5_init(&ctx);
		md5_update(&ctx, 4, b);
		md5_update(&ctx, RAD_AUTH_LEN, req[s][id].auth);
		md5_update(&ctx, len - RAD_HDR_LEN, b + RAD_HDR_LEN);
		md5_update(&ctx, strlen(SECRET), (const uint8_t *)SECRET);
		md5_digest(&ctx, MD5_DIGEST_SIZE, b + 4);
	}
	sendto(srv_fd[s], b, len, 0, (struct sockaddr *)&req[s][id].from, sizeof(req[s][id].from));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct l2d_conf conf;
	static bool inited;
	struct in in = { data, size };
	struct l2d_loop loop;
	struct l2d *d;
	char err[128];
	unsigned int i, ops = 0;

	if (!inited) {
		for (i = 0; i < 4; i++)
			srv_fd[i] = udp(&srv_addr[i]);
		inited = true;
	}
	/* what radclient.c reads of the configuration and the agent, set here:
	 * config.c and l2d.c would bring in the whole agent */
	memset(&conf, 0, sizeof(conf));
	strcpy(conf.hostname, "fuzz-lac");
	conf.radius_timeout_ms = 200;
	conf.radius_tries = 3;
	conf.radius_dead_ms = 2000;
	conf.n_radius = 2;
	for (i = 0; i < 2; i++) {
		memcpy(&conf.radius[i].addr, &srv_addr[i], sizeof(srv_addr[i]));
		conf.radius[i].len = sizeof(srv_addr[i]);
		conf.radius[i].acct_port = ntohs(srv_addr[2 + i].sin_port);
		strcpy(conf.radius[i].secret, SECRET);
	}
	memset(req, 0, sizeof(req));
	memset(n_last, 0, sizeof(n_last));
	memset(calls, 0, sizeof(calls));
	now_ms = 1000;
	d = calloc(1, sizeof(*d));
	l2d_loop_init(&loop, true);
	loop.clock = fake_clock;
	d->conf = &conf;
	d->loop = &loop;
	d->env = &env;
	d->log_level = -1;
	if (l2d_radius_open(d, err, sizeof(err)))
		__builtin_trap();
	while (in.n && ops++ < 200) {
		uint8_t op = next(&in);

		switch (op & 7) {
		case 0: {
			static const uint8_t pw[16] = "password-bytes!";
			char user[64];
			uint8_t ul = next(&in);
			struct rad_auth q = {
				.user = user, .chap = ul & 0x80, .secret = pw,
				.secret_len = ul & 0x80 ? RAD_CHAP_RESPONSE_LEN : 8,
				.challenge = pw, .challenge_len = ul & 0x80 ? 16 : 0,
				.calling = "02:00:00:00:00:01", .port_id = "acc0", .called = "isp",
			};

			snprintf(user, sizeof(user), "user%u", ul & 0x3f);
			for (i = 0; i < NCALL && calls[i].st == C_OPEN; i++)
				;
			if (i == NCALL)
				break;
			in_start = true;
			calls[i].c = l2d_radius_auth(d, &q, done, (void *)(uintptr_t)i);
			in_start = false;
			calls[i].st = calls[i].c ? C_OPEN : C_FREE;
			break;
		}
		case 1:
			i = next(&in) % NCALL;
			if (calls[i].st == C_OPEN) {
				l2d_radius_cancel(d, calls[i].c);
				calls[i].c = NULL;
				calls[i].st = C_CANCELLED;
			}
			break;
		case 2:
			servers_read();
			reply(&in, op);
			break;
		case 3:
			now_ms += (uint64_t)next(&in) * 40;
			l2d_timers_run(&loop, now_ms);
			break;
		case 4: {
			uint8_t a[64], n = next(&in) % sizeof(a);

			for (i = 0; i < n; i++)
				a[i] = next(&in);
			l2d_radius_acct(d, a, n);
			break;
		}
		default:
			l2d_loop_once(&loop, 0);
			break;
		}
	}
	l2d_loop_once(&loop, 0);
	for (i = 0; i < NCALL; i++)
		if (calls[i].st == C_OPEN)
			l2d_radius_cancel(d, calls[i].c);
	l2d_radius_close(d);
	servers_read();
	l2d_loop_fini(&loop);
	free(d);
	return 0;
}
