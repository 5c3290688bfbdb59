// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld's local API (userspace/l2tpseld/api.c) on its real event loop
 * and a real UNIX socket: a client that does not read while a large "show"
 * is produced still gets every line and the "end" once it reads, and a
 * client that lets more than the connection's cap pile up is closed
 * rather than holding the agent's memory.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "harness.h"
#include "../../userspace/l2tpseld/access.h"
#include "../../userspace/l2tpseld/agent.h"
#include "../../userspace/l2tpseld/api.h"
#include "../../userspace/l2tpseld/kernel.h"
#include "../../userspace/l2tpseld/l2d.h"
#include "../../userspace/l2tpseld/tunnel.h"

/* access.c is not linked here: "stats" has no access line */
int l2d_access_stats(struct l2d *d, char *buf, size_t len)
{
	return 0;
}

int l2d_access_lts_stats(struct l2d *d, char *buf, size_t len)
{
	return 0;
}

bool l2d_access_lts_get(struct l2d *d, struct l2d_lts_stats *out)
{
	return false;
}

/* ... nor access-if lines, but for an agent whose actx a test made this one */
const struct l2d_access_if_stats *l2d_test_access_if;

bool l2d_access_if_stats(struct l2d *d, unsigned int i, struct l2d_access_if_stats *out)
{
	if (!l2d_test_access_if || d->actx != l2d_test_access_if || i)
		return false;
	*out = *l2d_test_access_if;
	return true;
}

#define NTUN 6000

struct api_t {
	struct l2d_conf c;
	struct l2d_loop loop;
	struct l2d *d;
	struct l2d_tunnel *t;
	char path[108];
	int cl;
};

static void t_random(struct l2d *d, void *buf, size_t len)
{
	memset(buf, 7, len);
}

static const struct l2d_env t_env = { .random = t_random };

static int api_setup(struct api_t *a, unsigned int ntun)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char err[128];
	int rcv = 4096;
	unsigned int i;

	memset(a, 0, sizeof(*a));
	l2d_conf_defaults(&a->c);
	a->c.log_level = 0;
	a->d = calloc(1, sizeof(*a->d));
	a->t = calloc(ntun, sizeof(*a->t));
	if (!a->d || !a->t)
		return -1;
	l2d_loop_init(&a->loop, true);
	l2d_agent_init(a->d, &a->c, &a->loop, &t_env, &l2d_kops_none);
	/* tunnels for "show" to list, a long Host Name each: ~200 bytes a line */
	for (i = 0; i < ntun; i++) {
		struct l2d_tunnel *t = &a->t[i];

		t->tid = (uint16_t)(i + 1);
		t->peer_tid = (uint16_t)(i + 1);
		l2d_parse_addr("192.0.2.1", 1701, &t->peer.ss, &t->peer.len);
		l2d_parse_addr("192.0.2.2", 1701, &t->local.ss, &t->local.len);
		snprintf(t->peer_host, sizeof(t->peer_host), "lns-%05u.a-rather-long-host-name.example.net", i);
		t->next = i + 1 < ntun ? &a->t[i + 1] : NULL;
	}
	a->d->tunnels = ntun ? a->t : NULL;
	snprintf(a->path, sizeof(a->path), "/tmp/l2tpseld-api-test.%d", (int)getpid());
	if (l2d_api_open(a->d, a->path, err, sizeof(err))) {
		TH_LOG("api_open: %s", err);
		return -1;
	}
	strcpy(sa.sun_path, a->path);
	a->cl = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
	/* a small receive buffer: the agent's sends fill up at once */
	setsockopt(a->cl, SOL_SOCKET, SO_RCVBUF, &rcv, sizeof(rcv));
	if (a->cl < 0 || (connect(a->cl, (struct sockaddr *)&sa, sizeof(sa)) && errno != EINPROGRESS))
		return -1;
	l2d_loop_once(&a->loop, 100);	/* the accept */
	return 0;
}

static void api_teardown(struct api_t *a)
{
	close(a->cl);
	l2d_api_close();
	a->d->tunnels = NULL;
	l2d_fini(a->d);
	l2d_loop_fini(&a->loop);
	free(a->t);
	free(a->d);
}

/* One turn of the agent: its events, then the end-of-turn flush (main.c). */
static void agent_turn(struct api_t *a)
{
	l2d_loop_once(&a->loop, 5);
	l2d_api_flush();
}

/*
 * Read until "end" has come @ends times, or EOF, or a few seconds; the
 * agent turns meanwhile.  Return: lines read; *eof set when it closed.
 */
static unsigned int read_all(struct api_t *a, unsigned int ends, unsigned int *got_ends, bool *eof)
{
	static char buf[1 << 16];
	char line[2048];
	size_t ll = 0;
	unsigned int lines = 0, spins = 0;

	*got_ends = 0;
	*eof = false;
	while (*got_ends < ends && spins < 4000) {
		ssize_t n = recv(a->cl, buf, sizeof(buf), MSG_DONTWAIT);
		ssize_t i;

		if (n == 0) {
			*eof = true;
			break;
		}
		if (n < 0) {
			if (errno != EAGAIN && errno != EWOULDBLOCK) {
				*eof = true;
				break;
			}
			agent_turn(a);
			spins++;
			continue;
		}
		for (i = 0; i < n; i++) {
			if (buf[i] != '\n') {
				if (ll < sizeof(line) - 1)
					line[ll++] = buf[i];
				continue;
			}
			line[ll] = '\0';
			ll = 0;
			lines++;
			if (!strcmp(line, "end"))
				(*got_ends)++;
		}
	}
	return lines;
}

/* Every line of a show larger than the socket's buffers, and its "end". */
TEST(api_large_show_reaches_a_slow_client)
{
	struct api_t a;
	unsigned int lines, ends;
	bool eof;

	ASSERT_EQ(api_setup(&a, NTUN), 0);
	ASSERT_EQ(send(a.cl, "show\n", 5, MSG_NOSIGNAL), 5);
	/* the agent answers in full while the client reads nothing */
	agent_turn(&a);
	agent_turn(&a);
	agent_turn(&a);
	lines = read_all(&a, 1, &ends, &eof);
	EXPECT_EQ(lines, NTUN + 1);
	EXPECT_EQ(ends, 1);
	EXPECT_FALSE(eof);
	/* and the connection still answers */
	ASSERT_EQ(send(a.cl, "stats\n", 6, MSG_NOSIGNAL), 6);
	lines = read_all(&a, 1, &ends, &eof);
	EXPECT_GE(lines, 2);
	EXPECT_EQ(ends, 1);
	api_teardown(&a);
}

/* A client that asks for ever more and reads nothing is closed at the cap. */
TEST(api_unread_output_is_capped)
{
	struct api_t a;
	unsigned int lines, ends, i;
	char req[24 * 5];
	bool eof;

	ASSERT_EQ(api_setup(&a, NTUN), 0);
	/* 24 shows of ~0.9 MB each: more than the 16 MiB a connection may hold */
	for (i = 0; i < 24; i++)
		memcpy(req + 5 * i, "show\n", 5);
	ASSERT_EQ(send(a.cl, req, sizeof(req), MSG_NOSIGNAL), (ssize_t)sizeof(req));
	agent_turn(&a);
	agent_turn(&a);
	lines = read_all(&a, 24, &ends, &eof);
	EXPECT_TRUE(eof);
	EXPECT_LT(ends, 24);
	EXPECT_LT(lines, 24 * (NTUN + 1));
	api_teardown(&a);
}

/* S-OPS-2: "upgrade" asks main.c for the re-execution, and says so. */
TEST(api_upgrade_asks_for_it)
{
	struct api_t a;
	char buf[256] = "";
	ssize_t n = -1;
	unsigned int i;

	ASSERT_EQ(api_setup(&a, 0), 0);
	ASSERT_EQ(send(a.cl, "upgrade now\nupgrade\n", 20, MSG_NOSIGNAL), 20);
	for (i = 0; i < 200 && n <= 0; i++) {
		agent_turn(&a);
		n = recv(a.cl, buf, sizeof(buf) - 1, MSG_DONTWAIT);
	}
	ASSERT_GT(n, 0);
	buf[n] = '\0';
	EXPECT_TRUE(strstr(buf, "error usage: upgrade\nupgrading\n") != NULL) TH_LOG("%s", buf);
	EXPECT_TRUE(a.d->upgrade_asked);
	api_teardown(&a);
}
