// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld's sockets and addresses against local users and spoofed peers
 * (S-SEC-9): which destination a tunnel is reused for, which local
 * addresses take LNS tunnels, the secret chosen by an SCCRQ's Host Name,
 * the Tie Breaker from a spoofed source, and local send failures, on the
 * simulated network of l2tpseld_harness.h; and the tunnels' real UDP
 * sockets (sock.c) on loopback: the port a LAC tunnel leaves from, and
 * which socket the peer's datagrams reach.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/l2tpsel.h>

#include "harness.h"
#include "l2tpseld_harness.h"
#include "../../userspace/l2tpseld/sock.h"

static const char *const lac_one[] = { "route p t1 10.0.0.2", NULL };
static const char *const lns_plain[] = { "listen 10.0.0.2", NULL };

/*
 * RFC 2661 section 8.1: the LNS answers from a port of its own, and the
 * tunnel follows it.  The next login to the same destination, as
 * configured (port 1701), still reuses the tunnel: one SCCRQ, one tunnel.
 */
TEST(l2tpseld_sock_reuse_when_lns_answers_from_another_port)
{
	struct h_node *lac, *lns;

	h_reset();
	lac = h_node(lac_one);
	lns = h_node(lns_plain);
	ASSERT_TRUE(lac && lns);
	lns->answer_port = 40000;
	h_login(lac, "a@x", NULL);
	h_run_for(100);
	ASSERT_EQ(lac->n_done_ok, 1);
	ASSERT_EQ(l2d_port(&lac->d->tunnels->peer), 40000);
	h_login(lac, "b@x", NULL);
	h_run_for(100);
	EXPECT_EQ(lac->n_done_ok, 2);
	EXPECT_EQ(lac->sent[L2TP_MSG_SCCRQ], 1);
	EXPECT_EQ(lac->d->n_tunnels, 1);
	EXPECT_TRUE(h_has_line(lac, "attempt 1 tunnel t1 profile p remote 10.0.0.2 port 1701 local any level 0 reuse"));
	EXPECT_EQ(h_sessions_in(lns, L2D_S_ESTABLISHED), 2);
	h_fini();
}

static struct l2d_addr addr_of(const char *ip, uint16_t port)
{
	struct l2d_addr a;

	memset(&a, 0, sizeof(a));
	l2d_parse_addr(ip, port, &a.ss, &a.len);
	return a;
}

/* An SCCRQ from 10.0.0.9:1701 to @to_ip:@to_port of @n. */
static void sccrq_to(struct h_node *n, const char *to_ip, uint16_t to_port, uint16_t ptid)
{
	struct l2d_addr from = addr_of("10.0.0.9", 1701), to = addr_of(to_ip, to_port);
	uint8_t buf[256];
	size_t len = h_craft_sccrq(buf, sizeof(buf), ptid, false);

	l2d_input(n->d, &to, &from, buf, len);
}

/*
 * "listen ADDR [port N]" names where LNS tunnels are taken: an SCCRQ that
 * reached another local address, or another port, creates nothing and
 * gets no answer.
 */
TEST(l2tpseld_sock_sccrq_only_on_listen_addresses)
{
	static const char *const any_c[] = { "listen 0.0.0.0 port 1702", NULL };
	struct h_node *lns, *any;

	h_reset();
	lns = h_node(lns_plain);
	ASSERT_TRUE(lns != NULL);
	sccrq_to(lns, "10.0.0.99", 1701, 71);	/* another address of the host */
	sccrq_to(lns, "10.0.0.2", 1702, 72);	/* another port */
	h_run_for(10);
	EXPECT_EQ(lns->d->n_tunnels, 0);
	EXPECT_EQ(lns->sent[L2TP_MSG_SCCRP], 0);
	sccrq_to(lns, "10.0.0.2", 1701, 73);	/* the listen address */
	h_run_for(10);
	EXPECT_EQ(lns->d->n_tunnels, 1);
	EXPECT_EQ(lns->sent[L2TP_MSG_SCCRP], 1);

	/* a wildcard listen address takes every address, at its port only */
	any = h_node(any_c);
	ASSERT_TRUE(any != NULL);
	sccrq_to(any, "10.0.0.3", 1701, 74);
	h_run_for(10);
	EXPECT_EQ(any->d->n_tunnels, 0);
	sccrq_to(any, "10.0.0.77", 1702, 75);
	h_run_for(10);
	EXPECT_EQ(any->d->n_tunnels, 1);
	h_fini();
}

/*
 * Secrets chosen by the peer's Host Name (lns-secret HOST): an SCCRQ whose
 * hidden Assigned Tunnel ID comes before its Host Name (RFC 2661 section
 * 4.3 lets AVPs come in any order after Message Type; Host Name itself is
 * never hidden) is answered with the secret of that host.
 */
TEST(l2tpseld_sock_hidden_avp_before_host_name)
{
	static const char *const lns_c[] = { "listen 10.0.0.1", "lns-secret lac7 s3cret",
					     "lns-secret other wrong", NULL };
	static const struct l2tp_secret sec = { (const uint8_t *)"s3cret", 6 };
	static const uint8_t rv[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
	struct l2d_addr from = addr_of("10.0.0.9", 1701);
	struct l2tp_builder b;
	struct h_node *lns;
	uint8_t buf[256], tid[2], pad[8] = { 0 };
	size_t len;

	h_reset();
	lns = h_node(lns_c);
	ASSERT_TRUE(lns != NULL);
	l2tp_put16(tid, 81);
	l2tp_build_begin(&b, buf, sizeof(buf), 0, 0, L2TP_MSG_SCCRQ, &sec);
	l2tp_put_u16(&b, L2TP_AVP_PROTOCOL_VERSION, L2TP_PROTOCOL_VERSION);
	l2tp_put_random_vector(&b, rv, sizeof(rv));
	l2tp_put_hidden(&b, L2TP_AVP_ASSIGNED_TUNNEL_ID, tid, sizeof(tid), pad, sizeof(pad));
	l2tp_put_string(&b, L2TP_AVP_HOST_NAME, "lac7");
	l2tp_put_u32(&b, L2TP_AVP_FRAMING_CAPS, 3);
	len = l2tp_build_end(&b);
	ASSERT_TRUE(len > 0);
	h_inject(lns, &from, buf, len);
	h_run_for(10);
	ASSERT_EQ(lns->d->n_tunnels, 1);
	EXPECT_EQ(lns->sent[L2TP_MSG_SCCRP], 1);
	EXPECT_EQ(lns->d->tunnels->peer_tid, 81);
	EXPECT_TRUE(lns->d->tunnels->has_secret);
	EXPECT_STREQ(lns->d->tunnels->peer_host, "lac7");
	h_fini();
}

/*
 * RFC 2661 section 4.4.3 with "listen" on a LAC: while our SCCRQ to a
 * healthy LNS is outstanding (20 ms each way), an SCCRQ claiming to be
 * from the LNS's address arrives with Tie Breaker 0, which would win.
 */
static struct h_node *spoofed_tie(uint16_t from_port)
{
	static const char *const a_c[] = { "listen 10.0.0.1", "route p ta 10.0.0.2", NULL };
	struct l2d_addr p = addr_of("10.0.0.2", from_port);
	struct l2tp_builder b;
	struct h_node *a;
	uint8_t buf[256];

	H->latency_ms = 20;
	a = h_node(a_c);
	h_node(lns_plain);
	h_login(a, "u@x", NULL);
	h_run_for(5);
	if (!a->d->tunnels || a->d->tunnels->state != L2D_T_WAIT_SCCRP)
		return NULL;
	l2tp_build_begin(&b, buf, sizeof(buf), 0, 0, L2TP_MSG_SCCRQ, NULL);
	l2tp_put_u16(&b, L2TP_AVP_PROTOCOL_VERSION, L2TP_PROTOCOL_VERSION);
	l2tp_put_string(&b, L2TP_AVP_HOST_NAME, "spoof");
	l2tp_put_u32(&b, L2TP_AVP_FRAMING_CAPS, 3);
	l2tp_put_u16(&b, L2TP_AVP_ASSIGNED_TUNNEL_ID, 4242);
	l2tp_put_u64(&b, L2TP_AVP_TIE_BREAKER, 0);
	h_inject(a, &p, buf, l2tp_build_end(&b));
	return a;
}

/* From another port than the one our SCCRQ went to: no tie, our call stays. */
TEST(l2tpseld_sock_spoofed_tie_breaker_other_port)
{
	struct h_node *a;

	h_reset();
	a = spoofed_tie(5555);
	ASSERT_TRUE(a != NULL);
	h_run_for(30000);
	EXPECT_EQ(a->n_done_ok, 1);
	EXPECT_EQ(a->n_no_reply, 0);
	EXPECT_TRUE(!h_has_line(a, "outcome 1 no-reply"));
	EXPECT_EQ(a->sent[L2TP_MSG_SCCRQ], 1);
	EXPECT_EQ(h_sessions_in(a, L2D_S_ESTABLISHED), 1);
	h_fini();
}

/*
 * From the very port: the tie is honoured (the calls wait for the peer's
 * tunnel), but when that tunnel never comes up the destination is not
 * blamed: outcome local, no lockout, and the next login to it works.
 */
TEST(l2tpseld_sock_spoofed_tie_breaker_not_blamed)
{
	struct h_node *a;

	h_reset();
	a = spoofed_tie(1701);
	ASSERT_TRUE(a != NULL);
	h_run_for(30000);
	EXPECT_EQ(a->n_no_reply, 0);
	EXPECT_TRUE(!h_has_line(a, "outcome 1 no-reply"));
	EXPECT_TRUE(h_has_line(a, "outcome 1 local"));
	h_login(a, "v@x", NULL);
	h_run_for(200);
	EXPECT_TRUE(h_has_line(a, "attempt 1 tunnel ta profile p remote 10.0.0.2 port 1701 local any level 0 sccrq"));
	EXPECT_EQ(h_sessions_in(a, L2D_S_ESTABLISHED), 1);
	EXPECT_EQ(a->d->stats.logins_failed + a->d->stats.logins_ok, 2);
	h_fini();
}

/*
 * A send our own host refuses is a local failure: the login's outcome is
 * "local", the destination is not locked out, and the log says why.
 * With EPERM (a local firewall) the attempt ends at once; with EAGAIN for
 * ever (a full socket) it ends when the retransmissions give up.  Two
 * routes: a locked-out first one would be skipped by the next login.
 */
static const char *const lac_two[] = { "route p t1 10.0.0.2", "route p t2 10.0.0.3",
				       "sccrq-timeout 60s", NULL };

static void send_fails(int err)
{
	static const char *const lns3[] = { "listen 10.0.0.3", NULL };
	struct h_node *lac;
	uint64_t t0;

	h_reset();
	lac = h_node(lac_two);
	h_node(lns_plain);
	h_node(lns3);
	ASSERT_TRUE(lac != NULL);
	H->refuse_from = 0;
	H->refuse_any = true;
	H->refuse_n = 1000000;
	H->refuse_errno = err;
	t0 = H->now;
	h_login(lac, "a@x", NULL);
	h_run_for(70000);
	EXPECT_EQ(lac->n_no_reply, 0);
	EXPECT_TRUE(h_has_line(lac, "outcome 1 local"));
	EXPECT_TRUE(!h_has_line(lac, "outcome 1 no-reply"));
	EXPECT_EQ(lac->n_done_fail, 1);
	EXPECT_EQ(lac->d->stats.tx, 0);
	if (err == EPERM)
		EXPECT_TRUE(lac->d->stats.tx_err <= 4);	/* no retransmissions */
	EXPECT_TRUE(H->now - t0 >= 70000);
	/* the host lets it through again: t1 is tried first, not locked out */
	H->refuse_from = -1;
	lac->n_lines = 0;
	h_login(lac, "b@x", NULL);
	h_run_for(200);
	EXPECT_TRUE(h_has_line(lac, "attempt 1 tunnel t1 profile p remote 10.0.0.2"));
	EXPECT_EQ(lac->n_done_ok, 1);
	h_fini();
}

TEST(l2tpseld_sock_send_eperm_is_local)
{
	send_fails(EPERM);
}

TEST(l2tpseld_sock_send_eagain_for_ever_is_local)
{
	send_fails(EAGAIN);
}

/* A call on an established tunnel whose ICRQ our host keeps refusing. */
TEST(l2tpseld_sock_icrq_send_fails_is_local)
{
	struct h_node *lac;

	h_reset();
	lac = h_node(lac_one);
	h_node(lns_plain);
	ASSERT_TRUE(lac != NULL);
	h_login(lac, "a@x", NULL);
	h_run_for(100);
	ASSERT_EQ(lac->n_done_ok, 1);
	H->refuse_from = 0;
	H->refuse_type = L2TP_MSG_ICRQ;
	H->refuse_n = 1000000;
	h_login(lac, "b@x", NULL);
	h_run_for(40000);
	EXPECT_EQ(lac->n_no_reply, 0);
	EXPECT_TRUE(h_has_line(lac, "outcome 1 local"));
	EXPECT_EQ(lac->n_done_fail, 1);
	h_fini();
}

/* ---- the real sockets (sock.c) on loopback ---- */

struct sk_env {
	struct l2d d;
	struct l2d_conf conf;
	struct l2d_loop loop;
};

static const struct l2d_env sk_hooks = {
	.tunnel_open = l2d_sock_tunnel_open,
	.tunnel_close = l2d_sock_tunnel_close,
	.tunnel_connect = l2d_sock_tunnel_connect,
	.send = l2d_sock_send,
};

/* An agent with "port @port" (listen lines' and, before, LAC tunnels'), on a real loop. */
static int sk_env_init(struct sk_env *e, uint16_t port)
{
	char line[32], err[200];

	memset(e, 0, sizeof(*e));
	l2d_conf_defaults(&e->conf);
	e->conf.kernel = L2D_KERNEL_NONE;
	snprintf(line, sizeof(line), "port %u", port);
	if (l2d_conf_line(&e->conf, line, err, sizeof(err)) || l2d_loop_init(&e->loop, true))
		return -1;
	return l2d_agent_init(&e->d, &e->conf, &e->loop, &sk_hooks, &l2d_kops_none);
}

static void sk_env_fini(struct sk_env *e)
{
	l2d_fini(&e->d);
	l2d_loop_fini(&e->loop);
}

/* A tunnel as tunnel.c makes one, socket not yet open. */
static void sk_tunnel(struct sk_env *e, struct l2d_tunnel *t, const char *local,
		      const struct l2d_addr *peer, bool initiator, bool own_port)
{
	memset(t, 0, sizeof(*t));
	t->d = &e->d;
	t->tid = 7;
	t->initiator = initiator;
	t->own_port = own_port;
	t->peer = *peer;
	t->dest = *peer;
	if (local)
		t->local = addr_of(local, own_port ? 1701 : 0);
	t->fd = -1;
	t->txfd = -1;
}

/* A UDP socket of another program on @ip:@port (@opt: SO_REUSEADDR or SO_REUSEPORT, 0: none). */
static int other_socket(const char *ip, uint16_t port, int opt)
{
	struct l2d_addr a = addr_of(ip, port);
	int one = 1, fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -errno;
	if (opt)
		setsockopt(fd, SOL_SOCKET, opt, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&a.ss, a.len) < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	return fd;
}

static uint16_t port_of_fd(int fd)
{
	struct l2d_addr a = { .len = sizeof(a.ss) };

	getsockname(fd, (struct sockaddr *)&a.ss, &a.len);
	return l2d_port(&a);
}

/* A datagram on @fd within a second: its source port, or 0. */
static uint16_t recv_from_port(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	struct l2d_addr from = { .len = sizeof(from.ss) };
	uint8_t buf[64];

	if (poll(&p, 1, 1000) != 1 ||
	    recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from.ss, &from.len) < 0)
		return 0;
	return l2d_port(&from);
}

/* Datagrams waiting on @fd (-1: none), read and counted. */
static unsigned int count_waiting(int fd)
{
	uint8_t buf[64];
	unsigned int n = 0;

	while (fd >= 0 && recv(fd, buf, sizeof(buf), MSG_DONTWAIT) >= 0)
		n++;
	return n;
}

/*
 * @n datagrams from @peer_fd to @to_port of 127.0.0.1: how many reach the
 * tunnel's own socket (where the kernel tunnel takes data) and how many its
 * control socket.
 */
static void datagrams_to(int peer_fd, uint16_t to_port, unsigned int n, const struct l2d_tunnel *t,
			 unsigned int *on_fd, unsigned int *on_txfd)
{
	struct l2d_addr to = addr_of("127.0.0.1", to_port);
	unsigned int i;

	for (i = 0; i < n; i++)
		sendto(peer_fd, "data", 4, 0, (struct sockaddr *)&to.ss, to.len);
	usleep(20000);
	*on_fd = count_waiting(t->fd);
	*on_txfd = count_waiting(t->txfd);
}

/* What another user (nobody, when we are root) gets binding @ip:@port with SO_REUSEPORT. */
static int nobody_bind(const char *ip, uint16_t port)
{
	int st, fd;
	pid_t pid;

	if (geteuid() != 0)
		return 0;
	pid = fork();
	if (pid == 0) {
		if (setgid(65534) || setuid(65534))
			_exit(100);
		fd = other_socket(ip, port, SO_REUSEPORT);
		_exit(fd >= 0 ? 0 : -fd);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static uint16_t some_port(void)
{
	return (uint16_t)(20000 + (unsigned int)getpid() % 20000);
}

/* lac-port: 0 (the kernel's choice) unless set, 0..65535. */
TEST(l2tpseld_sock_lac_port_keyword)
{
	static struct l2d_conf c;
	char err[200];

	l2d_conf_defaults(&c);
	EXPECT_EQ(c.lac_port, 0);
	EXPECT_EQ(l2d_conf_line(&c, "lac-port 1701", err, sizeof(err)), 0);
	EXPECT_EQ(c.lac_port, 1701);
	EXPECT_EQ(l2d_conf_line(&c, "lac-port 0", err, sizeof(err)), 0);
	EXPECT_EQ(c.lac_port, 0);
	EXPECT_EQ(l2d_conf_line(&c, "lac-port 65536", err, sizeof(err)), -1);
	EXPECT_TRUE(strstr(err, "lac-port") != NULL) TH_LOG("%s", err);
}

/*
 * Another local user holds the LAC's old source port (the agent's "port")
 * on 127.0.0.1 and on the wildcard, as anyone may with ports from 1024 up:
 * a LAC tunnel still opens, from a port the kernel picked (RFC 2661
 * section 8.1), on the wildcard and on a local address alike (S-SEC-9).
 */
TEST(l2tpseld_sock_lac_port_held_by_another_user)
{
	struct l2d_addr lns = addr_of("127.0.0.1", 1701);
	const char *locals[] = { NULL, "127.0.0.1" };
	struct l2d_tunnel t;
	struct sk_env e;
	uint16_t p = some_port();
	int h1, h2;
	unsigned int i;

	ASSERT_EQ(sk_env_init(&e, p), 0);
	h1 = other_socket("127.0.0.1", p, SO_REUSEADDR);
	h2 = other_socket("0.0.0.0", p, SO_REUSEADDR);
	ASSERT_TRUE(h1 >= 0 && h2 >= 0) TH_LOG("cannot hold port %u: %d %d", p, h1, h2);
	for (i = 0; i < 2; i++) {
		sk_tunnel(&e, &t, locals[i], &lns, true, false);
		EXPECT_EQ(l2d_sock_tunnel_open(&e.d, &t), 0) TH_LOG("local %s", locals[i] ? locals[i] : "any");
		EXPECT_TRUE(t.fd >= 0);
		EXPECT_NE(l2d_port(&t.local), p);
		EXPECT_NE(l2d_port(&t.local), 0);
		EXPECT_EQ(l2d_port(&t.bound), l2d_port(&t.local));
		l2d_sock_tunnel_close(&e.d, &t);
	}
	close(h1);
	close(h2);
	sk_env_fini(&e);
}

/*
 * A LAC tunnel's control messages leave from the port its data uses
 * before and after the kernel holds its socket (dp_added: from the second,
 * control socket), and the LNS's datagrams to that port reach the
 * tunnel's own socket, the one the kernel tunnel reads, never the control
 * socket.  Nobody else can bind that port (S-SEC-9).  On a local address
 * and on the wildcard.
 */
TEST(l2tpseld_sock_lac_control_and_data_on_one_port)
{
	const char *locals[] = { "127.0.0.1", NULL };
	struct l2d_tunnel t;
	struct l2d_addr lns;
	struct sk_env e;
	unsigned int i, on_fd, on_txfd;
	uint16_t src;
	int peer;

	ASSERT_EQ(sk_env_init(&e, some_port()), 0);
	peer = other_socket("127.0.0.1", 0, 0);
	ASSERT_TRUE(peer >= 0);
	lns = addr_of("127.0.0.1", port_of_fd(peer));
	for (i = 0; i < 2; i++) {
		TH_LOG("local %s", locals[i] ? locals[i] : "any");
		sk_tunnel(&e, &t, locals[i], &lns, true, false);
		ASSERT_EQ(l2d_sock_tunnel_open(&e.d, &t), 0);
		src = l2d_port(&t.local);
		/* the SCCRQ, unconnected */
		EXPECT_EQ(l2d_sock_send(&e.d, &t, (const uint8_t *)"sccrq", 5), 0);
		EXPECT_EQ(recv_from_port(peer), src);
		/* the SCCRP came: connected */
		EXPECT_EQ(l2d_sock_tunnel_connect(&e.d, &t), 0);
		EXPECT_EQ(l2d_port(&t.local), src);
		EXPECT_EQ(l2d_sock_send(&e.d, &t, (const uint8_t *)"scccn", 5), 0);
		EXPECT_EQ(recv_from_port(peer), src);
		/* the kernel holds the socket: control from the second socket */
		t.dp_added = true;
		EXPECT_EQ(l2d_sock_send(&e.d, &t, (const uint8_t *)"hello", 5), 0);
		EXPECT_TRUE(t.txfd >= 0);
		EXPECT_EQ(recv_from_port(peer), src);
		datagrams_to(peer, src, 32, &t, &on_fd, &on_txfd);
		EXPECT_EQ(on_fd, 32);
		EXPECT_EQ(on_txfd, 0);
		/* nobody else binds it, with or without a wildcard */
		EXPECT_EQ(other_socket("127.0.0.1", src, SO_REUSEADDR), -EADDRINUSE);
		EXPECT_EQ(other_socket("0.0.0.0", src, SO_REUSEADDR), -EADDRINUSE);
		EXPECT_EQ(nobody_bind("127.0.0.1", src), geteuid() ? 0 : EADDRINUSE);
		EXPECT_EQ(nobody_bind("0.0.0.0", src), geteuid() ? 0 : EADDRINUSE);
		l2d_sock_tunnel_close(&e.d, &t);
	}
	close(peer);
	sk_env_fini(&e);
}

/*
 * An LNS tunnel that answers from a port of its own (a second tunnel from
 * one peer address and port, RFC 2661 section 8.1): its control socket
 * shares that port, and the peer's data reaches the tunnel's socket.
 */
TEST(l2tpseld_sock_lns_own_port_data_on_tunnel_socket)
{
	struct l2d_tunnel t;
	struct l2d_addr lac;
	struct sk_env e;
	unsigned int on_fd, on_txfd;
	uint16_t src;
	int peer;

	ASSERT_EQ(sk_env_init(&e, some_port()), 0);
	peer = other_socket("127.0.0.1", 0, 0);
	ASSERT_TRUE(peer >= 0);
	lac = addr_of("127.0.0.1", port_of_fd(peer));
	sk_tunnel(&e, &t, "127.0.0.1", &lac, false, true);
	ASSERT_EQ(l2d_sock_tunnel_open(&e.d, &t), 0);
	src = l2d_port(&t.local);
	EXPECT_NE(src, 1701);
	EXPECT_EQ(l2d_sock_send(&e.d, &t, (const uint8_t *)"sccrp", 5), 0);
	EXPECT_EQ(recv_from_port(peer), src);
	t.dp_added = true;
	EXPECT_EQ(l2d_sock_send(&e.d, &t, (const uint8_t *)"hello", 5), 0);
	EXPECT_EQ(recv_from_port(peer), src);
	datagrams_to(peer, src, 32, &t, &on_fd, &on_txfd);
	EXPECT_EQ(on_fd, 32);
	EXPECT_EQ(on_txfd, 0);
	l2d_sock_tunnel_close(&e.d, &t);
	close(peer);
	sk_env_fini(&e);
}

static long proc_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static int rcvbuf_of(int fd)
{
	int v = 0;
	socklen_t len = sizeof(v);

	getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, &len);
	return v;
}

/*
 * A storm's burst waits in the tunnel's socket while the agent is busy:
 * 1000 control-sized datagrams, none read yet, all still there with the
 * default socket-rcvbuf (4 MiB; the kernel reports twice what was set).
 * With "socket-rcvbuf 0" the socket keeps the kernel's default
 * (net.core.rmem_default), which holds a few hundred of them and drops the
 * rest: each one a retransmission timeout at the peer.
 */
TEST(l2tpseld_sock_rcvbuf_holds_a_burst)
{
	long rmem_max = proc_long("/proc/sys/net/core/rmem_max");
	long rmem_default = proc_long("/proc/sys/net/core/rmem_default");
	static const char *const sizes[] = { NULL, "socket-rcvbuf 0" };
	uint8_t msg[100] = { 0xc8, 0x02 };
	struct l2d_tunnel t;
	struct l2d_addr lns;
	struct sk_env e;
	unsigned int i, k, on_fd, on_txfd;
	char err[200];
	int peer;

	for (k = 0; k < 2; k++) {
		ASSERT_EQ(sk_env_init(&e, some_port()), 0);
		if (sizes[k])
			ASSERT_EQ(l2d_conf_line(&e.conf, sizes[k], err, sizeof(err)), 0);
		peer = other_socket("127.0.0.1", 0, 0);
		ASSERT_TRUE(peer >= 0);
		lns = addr_of("127.0.0.1", port_of_fd(peer));
		sk_tunnel(&e, &t, "127.0.0.1", &lns, true, false);
		ASSERT_EQ(l2d_sock_tunnel_open(&e.d, &t), 0);
		if (k == 1) {
			/* not set: the kernel's default, as it is (not doubled) */
			EXPECT_EQ(rcvbuf_of(t.fd), rmem_default);
		} else if (geteuid() != 0) {
			/* SO_RCVBUF alone: net.core.rmem_max caps it */
			EXPECT_EQ(rcvbuf_of(t.fd), 2 * (rmem_max < L2D_SOCK_RCVBUF ? rmem_max : L2D_SOCK_RCVBUF));
		} else {
			EXPECT_EQ(rcvbuf_of(t.fd), 2 * L2D_SOCK_RCVBUF);
		}
		if (geteuid() != 0 && k == 0)
			goto next;
		for (i = 0; i < 1000; i++)
			sendto(peer, msg, sizeof(msg), 0, (struct sockaddr *)&t.local.ss, t.local.len);
		usleep(20000);
		on_fd = count_waiting(t.fd);
		on_txfd = count_waiting(t.txfd);
		TH_LOG("%s: %u of 1000 waiting", sizes[k] ? sizes[k] : "default", on_fd + on_txfd);
		if (k == 0) {
			EXPECT_EQ(on_fd + on_txfd, 1000);
		} else if (rmem_default <= 256 * 1024) {	/* as Linux ships it */
			EXPECT_TRUE(on_fd + on_txfd < 1000);
		}
next:
		l2d_sock_tunnel_close(&e.d, &t);
		close(peer);
		sk_env_fini(&e);
	}
}

/* socket-rcvbuf: 4 MiB unless set, 0 (the kernel's) .. 1 GiB. */
TEST(l2tpseld_sock_rcvbuf_keyword)
{
	static struct l2d_conf c;
	char err[200];

	l2d_conf_defaults(&c);
	EXPECT_EQ(c.sock_rcvbuf, 4u << 20);
	EXPECT_EQ(l2d_conf_line(&c, "socket-rcvbuf 0", err, sizeof(err)), 0);
	EXPECT_EQ(c.sock_rcvbuf, 0);
	EXPECT_EQ(l2d_conf_line(&c, "socket-rcvbuf 1073741825", err, sizeof(err)), -1);
	EXPECT_TRUE(strstr(err, "socket-rcvbuf") != NULL) TH_LOG("%s", err);
}
