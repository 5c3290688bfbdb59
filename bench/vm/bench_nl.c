// SPDX-License-Identifier: GPL-2.0
/*
 * bench-nl: the loader and timer of the VM half of `make bench`
 * (bench/vm/guest.sh).  It fills the l2tpsel tables fast (requests are
 * pipelined, 64 to a sendmsg) and times round trips and dumps, each next to
 * a peer the kernel already has (nlctrl GETFAMILY, an rtnetlink route dump).
 *
 *   bench-nl limit-max N                     chassis maximum (1M sessions need more)
 *   bench-nl profiles FROM TO                profiles pFROM..pTO-1, one tunnel each
 *   bench-nl tunnels FROM TO PER             PER - 1 more tunnels in each of those
 *   bench-nl dests FROM TO [ADDRESS]         tunnel t1 in each of the one-tunnel profiles
 *                                            pFROM..pTO-1, to LNS 10.202.x.y (i + 1 for
 *                                            pi: a new destination each), or to ADDRESS
 *                                            (IPv4) in all
 *   bench-nl domains FROM TO PROFILE         domains dFROM.example..dTO-1.example
 *   bench-nl sessions FROM TO                LAC sessions with keys FROM..TO-1 (DETACHED)
 *   bench-nl routes FROM TO                  blackhole routes 10.x.y.z/32 (the peer)
 *   bench-nl login-bench COUNT {USER@DOMAIN|PROFILE}
 *                                            LOGIN_BEGIN + LOGIN_REPORT round trips,
 *                                            each followed by a GETFAMILY
 *   bench-nl session-bench COUNT             SESSION_UP + SESSION_DOWN round trips,
 *                                            each pair followed by a GETFAMILY
 *   bench-nl dump {domain|profile|session|route}   one dump, timed
 *   bench-nl agent SOCKET PROFILE PREFIX N CLIENTS [IDFILE]
 *                                            N logins through l2tpseld's API,
 *                                            CLIENTS at a time
 *   bench-nl logout SOCKET IDFILE CLIENTS LNS_SOCKET
 *                                            their logouts, until the LNS has none
 *   bench-nl login-under-dump COUNT PROFILE WHAT
 *                                            logins while another process dumps WHAT
 *   bench-nl udp-floor N CLIENTS             a login's datagrams between two bare
 *                                            UDP sockets, N exchanges, CLIENTS at once
 *
 * Each command prints one line of NAME=VALUE words (count=, ns=, ...; the
 * round-trip benches print medians) and exits 0, or prints the kernel's
 * message and exits 1.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <poll.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <sys/time.h>
#include <signal.h>
#include <arpa/inet.h>
#include <linux/genetlink.h>
#include <linux/rtnetlink.h>
#include <linux/l2tpsel.h>

#include "attr.h"
#include "nl.h"

#define PIPE	64

static struct l2s_nl nl;
static struct mnl_socket *rt;	/* NETLINK_ROUTE, for the route peer */
static uint32_t rt_seq = 1;

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void die(const char *what, int err)
{
	fprintf(stderr, "bench-nl: %s: %s%s%s\n", what, strerror(err),
		nl.errmsg[0] ? ": " : "", nl.errmsg);
	exit(1);
}

static void open_genl(void)
{
	int err = l2s_nl_open(&nl);

	if (err)
		die("cannot open a generic netlink socket", -err);
	err = l2s_nl_resolve(&nl);
	if (err)
		die("cannot resolve the l2tpsel family", -err);
}

static uint32_t parse_u32(const char *s, const char *what)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || !*s || v > 0xffffffffUL) {
		fprintf(stderr, "bench-nl: %s \"%s\" is not a number of 0..4294967295\n", what, s);
		exit(2);
	}
	return (uint32_t)v;
}

/* Read until every request of a batch is acknowledged; any error is fatal. */
static void drain(struct mnl_socket *s, uint32_t pending, const char *what)
{
	char *buf = nl.buf;

	while (pending) {
		int len = mnl_socket_recvfrom(s, buf, MNL_SOCKET_BUFFER_SIZE);
		struct nlmsghdr *h;

		if (len < 0)
			die(what, errno);
		for (h = (struct nlmsghdr *)buf; mnl_nlmsg_ok(h, len); h = mnl_nlmsg_next(h, &len)) {
			const struct nlmsgerr *e;

			if (h->nlmsg_type != NLMSG_ERROR)
				continue;	/* a reply before its ACK */
			e = mnl_nlmsg_get_payload(h);
			if (e->error) {
				const struct nlattr *a;
				unsigned int off = sizeof(*e);

				if (!(h->nlmsg_flags & NLM_F_CAPPED))
					off += mnl_nlmsg_get_payload_len(&e->msg);
				if (h->nlmsg_flags & NLM_F_ACK_TLVS)
					mnl_attr_for_each(a, h, off)
						if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG)
							snprintf(nl.errmsg, sizeof(nl.errmsg), "%s",
								 mnl_attr_get_str(a));
				die(what, -e->error);
			}
			pending--;
		}
	}
}

/* Build request i at @at (a free buffer); returns its header. */
typedef struct nlmsghdr *(*build_fn)(char *at, uint32_t i, void *arg);

/* Send requests FROM..TO-1, PIPE to a sendmsg, each with NLM_F_ACK. */
static void pipeline(struct mnl_socket *s, uint32_t from, uint32_t to, build_fn fn, void *arg,
		     const char *what)
{
	static char buf[PIPE * 512];
	uint32_t i = from;

	while (i < to) {
		size_t len = 0;
		uint32_t n = 0;

		while (i < to && n < PIPE) {
			struct nlmsghdr *h = fn(buf + len, i++, arg);

			len += NLMSG_ALIGN(h->nlmsg_len);
			n++;
		}
		if (mnl_socket_sendto(s, buf, len) < 0)
			die(what, errno);
		drain(s, n, what);
	}
}

static struct nlmsghdr *genl_req(char *at, uint8_t cmd)
{
	struct nlmsghdr *h = mnl_nlmsg_put_header(at);
	struct genlmsghdr *g;

	h->nlmsg_type = nl.family;
	h->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	h->nlmsg_seq = ++nl.seq;
	g = mnl_nlmsg_put_extra_header(h, sizeof(*g));
	g->cmd = cmd;
	g->version = L2TPSEL_GENL_VERSION;
	return h;
}

static void put_v4(struct nlmsghdr *h, int type, uint32_t host)
{
	uint32_t be = htonl(host);

	mnl_attr_put(h, type, 4, &be);
}

/* Profile p<i>, tunnels t0.. of it; tunnel j: level j / 31, LNS 10.201.0.(j % 31 + 1). */
static struct nlmsghdr *b_profile(char *at, uint32_t i, void *arg)
{
	char name[32];
	struct nlmsghdr *h = genl_req(at, L2TPSEL_CMD_PROFILE_NEW);

	snprintf(name, sizeof(name), "p%u", i);
	mnl_attr_put_strz(h, L2TPSEL_A_NAME, name);
	return h;
}

static struct nlmsghdr *b_tunnel(char *at, uint32_t k, void *arg)
{
	uint32_t per = *(uint32_t *)arg, i = k / per, j = k % per;
	char name[32], prof[32];
	struct nlmsghdr *h = genl_req(at, L2TPSEL_CMD_TUNNEL_NEW);

	snprintf(name, sizeof(name), "t%u", j);
	snprintf(prof, sizeof(prof), "p%u", i);
	mnl_attr_put_strz(h, L2TPSEL_A_NAME, name);
	mnl_attr_put_strz(h, L2TPSEL_A_PROFILE, prof);
	mnl_attr_put_u8(h, L2TPSEL_A_SEL_LEVEL, (uint8_t)(j / 31));
	put_v4(h, L2TPSEL_A_REMOTE, 0x0ac90000u + j % 31 + 1);
	return h;
}

/*
 * Tunnel t1 of profile p<i>, level 0 (as its t0): to 10.202.0.0 + i + 1 when
 * @arg is NULL, else to the IPv4 address (host order) @arg points to.
 */
static struct nlmsghdr *b_dest(char *at, uint32_t i, void *arg)
{
	char prof[32];
	struct nlmsghdr *h = genl_req(at, L2TPSEL_CMD_TUNNEL_NEW);

	snprintf(prof, sizeof(prof), "p%u", i);
	mnl_attr_put_strz(h, L2TPSEL_A_NAME, "t1");
	mnl_attr_put_strz(h, L2TPSEL_A_PROFILE, prof);
	mnl_attr_put_u8(h, L2TPSEL_A_SEL_LEVEL, 0);
	put_v4(h, L2TPSEL_A_REMOTE, arg ? *(uint32_t *)arg : 0x0aca0000u + i + 1);
	return h;
}

static struct nlmsghdr *b_domain(char *at, uint32_t i, void *arg)
{
	char name[64];
	struct nlmsghdr *h = genl_req(at, L2TPSEL_CMD_DOMAIN_NEW);

	snprintf(name, sizeof(name), "d%u.example", i);
	mnl_attr_put_strz(h, L2TPSEL_A_DOMAIN, name);
	mnl_attr_put_strz(h, L2TPSEL_A_PROFILE, arg);
	return h;
}

static struct nlmsghdr *b_session(char *at, uint32_t i, void *arg)
{
	struct nlmsghdr *h = genl_req(at, L2TPSEL_CMD_SESSION_UP);

	mnl_attr_put_u64(h, L2TPSEL_A_SESSION_KEY, (uint64_t)i + 1);
	mnl_attr_put_u8(h, L2TPSEL_A_ROLE, L2TPSEL_ROLE_LAC);
	mnl_attr_put_u32(h, L2TPSEL_A_TUNNEL_ID, 1 + i % 1000);
	/* nobody's: a session of this socket would end when bench-nl exits */
	mnl_attr_put(h, L2TPSEL_A_DETACHED, 0, NULL);
	return h;
}

static struct nlmsghdr *b_route(char *at, uint32_t i, void *arg)
{
	struct nlmsghdr *h = mnl_nlmsg_put_header(at);
	struct rtmsg *r;
	uint32_t dst = htonl(0x0a000000u + i);

	h->nlmsg_type = RTM_NEWROUTE;
	h->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL;
	h->nlmsg_seq = ++rt_seq;
	r = mnl_nlmsg_put_extra_header(h, sizeof(*r));
	r->rtm_family = AF_INET;
	r->rtm_dst_len = 32;
	r->rtm_table = RT_TABLE_MAIN;
	r->rtm_protocol = RTPROT_STATIC;
	r->rtm_scope = RT_SCOPE_UNIVERSE;
	r->rtm_type = RTN_BLACKHOLE;
	mnl_attr_put(h, RTA_DST, 4, &dst);
	return h;
}

static void open_rt(void)
{
	rt = mnl_socket_open(NETLINK_ROUTE);
	if (!rt || mnl_socket_bind(rt, 0, MNL_SOCKET_AUTOPID) < 0)
		die("cannot open a rtnetlink socket", errno);
}

static void load(int argc, char **argv)
{
	static const struct { const char *name; int argc; } ops[] = {
		{ "profiles", 4 }, { "tunnels", 5 }, { "domains", 5 }, { "sessions", 4 },
		{ "routes", 4 }, { "dests", 4 }, { "dests", 5 },
	};
	uint32_t from = parse_u32(argv[2], "FROM"), to = parse_u32(argv[3], "TO");
	uint64_t t0;
	uint32_t per = 0, n = to > from ? to - from : 0, addr = 0;
	struct in_addr a;
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(argv[1], ops[i].name) && argc == ops[i].argc)
			break;
	if (i == sizeof(ops) / sizeof(ops[0])) {
		fprintf(stderr, "bench-nl: \"%s\" with %d arguments is not a command (try bench-nl without any)\n",
			argv[1], argc - 2);
		exit(2);
	}
	if (from > to || (!strcmp(argv[1], "routes") && to > 0x1000000u)) {
		fprintf(stderr, "bench-nl: %s: FROM %u TO %u is not a range%s\n", argv[1], from, to,
			!strcmp(argv[1], "routes") ? " within 10.0.0.0/8" : "");
		exit(2);
	}
	if (!strcmp(argv[1], "tunnels")) {
		per = parse_u32(argv[4], "PER");
		if (per < 2 || per > 248) {
			fprintf(stderr, "bench-nl: tunnels: PER must be 2..248 (8 levels x 31)\n");
			exit(2);
		}
	}
	if (!strcmp(argv[1], "dests") && argc == 4 && to > 0xffffu) {
		fprintf(stderr, "bench-nl: dests: TO %u is past 65535 (the addresses are 10.202.0.0 + i + 1)\n",
			to);
		exit(2);
	}
	if (!strcmp(argv[1], "dests") && argc == 5) {
		if (inet_pton(AF_INET, argv[4], &a) != 1) {
			fprintf(stderr, "bench-nl: dests: \"%s\" is not an IPv4 address\n", argv[4]);
			exit(2);
		}
		addr = ntohl(a.s_addr);
	}
	if (!strcmp(argv[1], "routes")) {
		nl.buf = malloc(MNL_SOCKET_BUFFER_SIZE);
		if (!nl.buf)
			die("routes", ENOMEM);
		open_rt();
	} else {
		open_genl();
	}
	t0 = mono_ns();
	if (!strcmp(argv[1], "profiles") && argc == 4) {
		pipeline(nl.sock, from, to, b_profile, NULL, "PROFILE_NEW");
		per = 1;
		pipeline(nl.sock, from, to, b_tunnel, &per, "TUNNEL_NEW");
	} else if (!strcmp(argv[1], "tunnels") && argc == 5) {
		/* k / per is the profile, k % per the tunnel: skip tunnel 0, made with the profile */
		for (uint32_t k = from; k < to; k++)
			pipeline(nl.sock, k * per + 1, (k + 1) * per, b_tunnel, &per, "TUNNEL_NEW");
		n *= per - 1;
	} else if (!strcmp(argv[1], "dests")) {
		pipeline(nl.sock, from, to, b_dest, argc == 5 ? &addr : NULL, "TUNNEL_NEW");
	} else if (!strcmp(argv[1], "domains") && argc == 5) {
		pipeline(nl.sock, from, to, b_domain, argv[4], "DOMAIN_NEW");
	} else if (!strcmp(argv[1], "sessions") && argc == 4) {
		pipeline(nl.sock, from, to, b_session, NULL, "SESSION_UP");
	} else {
		pipeline(rt, from, to, b_route, NULL, "RTM_NEWROUTE");
	}
	printf("count=%u ns=%llu per_ns=%llu\n", n, (unsigned long long)(mono_ns() - t0),
	       n ? (unsigned long long)((mono_ns() - t0) / n) : 0ull);
}

static int nop_cb(const struct nlmsghdr *h, void *data)
{
	return MNL_CB_OK;
}

static uint8_t admit;

static int admit_cb(const struct nlmsghdr *h, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];

	l2s_attr_parse(h, tb);
	admit = l2s_attr_u8(tb, L2TPSEL_A_ADMIT, admit);
	return MNL_CB_OK;
}

/* A bare nlctrl GETFAMILY of this family, timed into @t. */
static void t_family(char *buf, uint64_t *t)
{
	struct nlmsghdr *h = l2s_nl_getfamily_req(buf, ++nl.seq, L2TPSEL_GENL_NAME);
	uint64_t t0;
	int err;

	t0 = mono_ns();
	err = l2s_nl_talk(&nl, h, nop_cb, NULL);
	*t = mono_ns() - t0;
	if (err)
		die("GETFAMILY", -err);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The median of @n samples (sorted in place); 0 for none. */
static uint64_t median(uint64_t *v, uint32_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_u64);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static uint64_t *samples(uint32_t count)
{
	uint64_t *v = calloc(count, sizeof(*v));

	if (!v)
		die("samples", ENOMEM);
	return v;
}

/* One request, timed; @cb sees the reply. */
static uint64_t timed(struct nlmsghdr *h, mnl_cb_t cb, const char *what)
{
	uint64_t t0 = mono_ns();
	int err = l2s_nl_talk(&nl, h, cb, NULL);
	uint64_t t = mono_ns() - t0;

	if (err)
		die(what, -err);
	return t;
}

/*
 * The admission decision as an agent sees it: SESSION_UP (counted on every
 * level, answered with the verdict) and SESSION_DOWN, one request at a time,
 * each pair followed by a GETFAMILY on the same socket; medians.
 */
static void session_bench(uint32_t count)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	uint64_t *up = samples(count), *down = samples(count), *fam = samples(count);
	uint32_t i;

	open_genl();
	for (i = 0; i < count; i++) {
		struct nlmsghdr *h = genl_req(buf, L2TPSEL_CMD_SESSION_UP);

		mnl_attr_put_u64(h, L2TPSEL_A_SESSION_KEY, 0x8000000000000000ull + i);
		mnl_attr_put_u8(h, L2TPSEL_A_ROLE, L2TPSEL_ROLE_LAC);
		mnl_attr_put_u32(h, L2TPSEL_A_TUNNEL_ID, 4000000 + i % 7);
		admit = 0xff;
		up[i] = timed(h, admit_cb, "SESSION_UP");
		if (admit != L2TPSEL_LEVEL_PASS) {
			fprintf(stderr, "bench-nl: SESSION_UP refused at level %u\n", admit);
			exit(1);
		}
		h = genl_req(buf, L2TPSEL_CMD_SESSION_DOWN);
		mnl_attr_put_u64(h, L2TPSEL_A_SESSION_KEY, 0x8000000000000000ull + i);
		down[i] = timed(h, nop_cb, "SESSION_DOWN");
		t_family(buf, &fam[i]);
	}
	printf("count=%u up_ns=%llu down_ns=%llu getfamily_ns=%llu\n", count,
	       (unsigned long long)median(up, count), (unsigned long long)median(down, count),
	       (unsigned long long)median(fam, count));
	free(up);
	free(down);
	free(fam);
}

static uint8_t step;
static uint32_t login_id;

static int step_cb(const struct nlmsghdr *h, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];

	l2s_attr_parse(h, tb);
	step = l2s_attr_u8(tb, L2TPSEL_A_STEP, step);
	login_id = l2s_attr_u32(tb, L2TPSEL_A_LOGIN_ID, login_id);
	return MNL_CB_OK;
}

/*
 * The login decision, as `l2tpsel login bench` measures it (LOGIN_BEGIN;
 * LOGIN_REPORT client-gone, which ends the login without a lockout), but
 * each login followed by a GETFAMILY so both see the same moment of a noisy
 * machine; medians.  @attr: L2TPSEL_A_USER or L2TPSEL_A_PROFILE.
 */
static void login_bench(uint32_t count, int attr, const char *val)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	uint64_t *beg = samples(count), *rep = samples(count), *fam = samples(count);
	uint32_t i, nrep = 0;

	open_genl();
	for (i = 0; i < count; i++) {
		struct nlmsghdr *h = genl_req(buf, L2TPSEL_CMD_LOGIN_BEGIN);

		mnl_attr_put_strz(h, attr, val);
		step = 0;
		beg[i] = timed(h, step_cb, "LOGIN_BEGIN");
		if (step == L2TPSEL_STEP_ATTEMPT) {
			h = genl_req(buf, L2TPSEL_CMD_LOGIN_REPORT);
			mnl_attr_put_u32(h, L2TPSEL_A_LOGIN_ID, login_id);
			mnl_attr_put_u8(h, L2TPSEL_A_OUTCOME, L2TPSEL_OUTCOME_CLIENT_GONE);
			rep[nrep++] = timed(h, step_cb, "LOGIN_REPORT");
		} else if (step != L2TPSEL_STEP_DONE) {
			fprintf(stderr, "bench-nl: LOGIN_BEGIN answered no step\n");
			exit(1);
		}
		t_family(buf, &fam[i]);
	}
	printf("count=%u begin_ns=%llu report_ns=%llu getfamily_ns=%llu\n", count,
	       (unsigned long long)median(beg, count), (unsigned long long)median(rep, nrep),
	       (unsigned long long)median(fam, count));
	free(beg);
	free(rep);
	free(fam);
}

/* ---- the agent's local API (l2tpseld, Documentation/l2tpseld.md) --------- */

struct agent_client {
	int fd;
	uint32_t req;			/* index of its request */
	uint64_t t0;
	size_t len;
	char buf[1024];
};

static int agent_connect(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(a.sun_path)) {
		fprintf(stderr, "bench-nl: agent socket path too long\n");
		exit(2);
	}
	strcpy(a.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0)
		die("cannot reach l2tpseld", errno);
	return fd;
}

/* The @q quantile (0 < q <= 1) of @n samples, nearest rank; sorts @v. */
static uint64_t quantile(uint64_t *v, uint32_t n, double q)
{
	uint32_t r;

	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_u64);
	r = (uint32_t)(q * n + 0.999999);
	return v[(r ? r : 1) - 1];
}

/* The value after " KEY " in @line, or 0. */
static uint64_t field_u64(const char *line, const char *key)
{
	char k[32];
	const char *p;

	snprintf(k, sizeof(k), " %s ", key);
	p = strstr(line, k);
	return p ? strtoull(p + strlen(k), NULL, 10) : 0;
}

/*
 * A pool of API requests: @n of them, @nclients at a time, on @nclients
 * connections, each carrying its requests one after another (a front end's
 * control connection).  @request writes request i's line; @answer sees each
 * line until it returns true (the request's end).  The client waits in
 * epoll, so that its own cost does not grow with @nclients.  Return:
 * nanoseconds until the last one ended.
 */
struct agent_pool {
	const char *path;
	int epfd;
	uint32_t n, nclients;
	void (*request)(struct agent_pool *p, uint32_t i, char *buf, size_t len);
	bool (*answer)(struct agent_pool *p, uint32_t i, const char *line, uint64_t ns);
	void *ctx;
	struct agent_client *cl;
};

static void pool_start(struct agent_pool *p, struct agent_client *c, uint32_t i)
{
	char req[256];
	size_t n;

	p->request(p, i, req, sizeof(req));
	n = strlen(req);
	if (c->fd < 0) {
		struct epoll_event ev = { .events = EPOLLIN, .data.u32 = (uint32_t)(c - p->cl) };

		c->fd = agent_connect(p->path);
		if (epoll_ctl(p->epfd, EPOLL_CTL_ADD, c->fd, &ev) < 0)
			die("epoll_ctl", errno);
	}
	c->req = i;
	c->len = 0;
	c->t0 = mono_ns();
	if (write(c->fd, req, n) != (ssize_t)n)
		die("write to l2tpseld", errno);
}

static uint64_t pool_run(struct agent_pool *p)
{
	struct epoll_event ev[64];
	uint32_t started = 0, done = 0, i;
	uint64_t t0 = mono_ns();
	int k, nev;

	p->cl = calloc(p->nclients, sizeof(*p->cl));
	p->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (!p->cl || p->epfd < 0)
		die("agent", p->cl ? errno : ENOMEM);
	for (i = 0; i < p->nclients; i++)
		p->cl[i].fd = -1;
	for (i = 0; i < p->nclients && started < p->n; i++)
		pool_start(p, &p->cl[i], started++);
	while (done < p->n) {
		nev = epoll_wait(p->epfd, ev, 64, 30000);
		if (nev < 0 && errno == EINTR)
			continue;
		if (nev < 0)
			die("waiting for l2tpseld", errno);
		if (!nev) {
			fprintf(stderr, "bench-nl: agent: no answer from l2tpseld in 30 s; %u of %u done, %u waiting\n",
				done, p->n, started - done);
			exit(1);
		}
		for (k = 0; k < nev; k++) {
			struct agent_client *c = &p->cl[ev[k].data.u32];
			char *nl_at, *line;
			bool finished = false;
			ssize_t r;

			r = read(c->fd, c->buf + c->len, sizeof(c->buf) - 1 - c->len);
			if (r <= 0) {
				fprintf(stderr, "bench-nl: l2tpseld closed a connection before its answer\n");
				exit(1);
			}
			c->len += (size_t)r;
			c->buf[c->len] = '\0';
			line = c->buf;
			while (!finished && (nl_at = strchr(line, '\n'))) {
				*nl_at = '\0';
				finished = p->answer(p, c->req, line, mono_ns() - c->t0);
				line = nl_at + 1;
			}
			if (finished) {
				done++;
				if (started < p->n) {
					pool_start(p, c, started++);
				} else {
					close(c->fd);
					c->fd = -1;
				}
				continue;
			}
			if (line != c->buf) {
				c->len -= (size_t)(line - c->buf);
				memmove(c->buf, line, c->len);
			} else if (c->len == sizeof(c->buf) - 1) {
				fprintf(stderr, "bench-nl: line from l2tpseld too long\n");
				exit(1);
			}
		}
	}
	close(p->epfd);
	free(p->cl);
	return mono_ns() - t0;
}

/* What the logins said: latency and the agent's step times (its "done" line). */
struct login_run {
	const char *profile, *prefix;
	uint64_t *lat, *kernel, *tunnel, *call, *own;
	uint32_t *ids;
	uint32_t ok, fails, max_att;
};

static void login_request(struct agent_pool *p, uint32_t i, char *buf, size_t len)
{
	struct login_run *r = p->ctx;

	snprintf(buf, len, "login %s%u@bench profile %s brief\n", r->prefix, i, r->profile);
}

static bool login_answer(struct agent_pool *p, uint32_t i, const char *line, uint64_t ns)
{
	struct login_run *r = p->ctx;
	uint64_t setup, k, t, c;
	uint32_t att;

	if (!strncmp(line, "error", 5)) {
		fprintf(stderr, "bench-nl: l2tpseld: %s\n", line);
		exit(1);
	}
	if (strncmp(line, "done ", 5))
		return false;
	att = (uint32_t)field_u64(line, "attempts");
	if (att > r->max_att)
		r->max_att = att;
	if (strncmp(line, "done ok", 7)) {
		if (!r->fails++)
			fprintf(stderr, "bench-nl: agent: %s\n", line);
		return true;
	}
	setup = field_u64(line, "setup-us");
	k = field_u64(line, "kernel-us");
	t = field_u64(line, "tunnel-us");
	c = field_u64(line, "call-us");
	r->lat[r->ok] = ns;
	r->kernel[r->ok] = k;
	r->tunnel[r->ok] = t;
	r->call[r->ok] = c;
	r->own[r->ok] = setup > k + t + c ? setup - k - t - c : 0;
	r->ids[r->ok] = (uint32_t)field_u64(line, "session");
	r->ok++;
	(void)i;
	return true;
}

/*
 * bench-nl agent SOCKET PROFILE PREFIX N CLIENTS [IDFILE]: N logins through
 * the agent, CLIENTS at a time; the time until the last "done".  Prints
 * count, ok, ms, per_s, the median, 50th and 99th percentile setup time of
 * the logins that succeeded and the medians of their steps (kernel_us,
 * tunnel_us, call_us, own_us: the agent's "done" line), the highest number
 * of attempts.  IDFILE receives the sessions' IDs, one per line (logout).
 */
static void agent_bench(const char *path, const char *profile, const char *prefix,
			uint32_t n, uint32_t nclients, const char *idfile)
{
	struct login_run r = { .profile = profile, .prefix = prefix };
	struct agent_pool p = { .path = path, .n = n, .nclients = nclients,
				.request = login_request, .answer = login_answer, .ctx = &r };
	uint64_t ns, p50, p99;
	uint32_t i;

	r.lat = samples(n);
	r.kernel = samples(n);
	r.tunnel = samples(n);
	r.call = samples(n);
	r.own = samples(n);
	r.ids = calloc(n, sizeof(*r.ids));
	if (!r.ids)
		die("agent", ENOMEM);
	ns = pool_run(&p);
	if (idfile) {
		FILE *f = fopen(idfile, "w");

		if (!f)
			die(idfile, errno);
		for (i = 0; i < r.ok; i++)
			fprintf(f, "%u\n", r.ids[i]);
		fclose(f);
	}
	p50 = quantile(r.lat, r.ok, 0.5);
	p99 = quantile(r.lat, r.ok, 0.99);
	printf("count=%u ok=%u ms=%llu per_s=%.1f median_ms=%.1f p50_ms=%.1f p99_ms=%.1f "
	       "kernel_us=%llu tunnel_us=%llu call_us=%llu own_us=%llu max_attempts=%u\n",
	       n, r.ok, (unsigned long long)(ns / 1000000), n * 1e9 / (double)ns,
	       median(r.lat, r.ok) / 1e6, p50 / 1e6, p99 / 1e6,
	       (unsigned long long)median(r.kernel, r.ok), (unsigned long long)median(r.tunnel, r.ok),
	       (unsigned long long)median(r.call, r.ok), (unsigned long long)median(r.own, r.ok),
	       r.max_att);
	free(r.lat);
	free(r.kernel);
	free(r.tunnel);
	free(r.call);
	free(r.own);
	free(r.ids);
}

struct logout_run {
	uint32_t *ids;
	uint64_t *lat;
	uint32_t ok;
};

static void logout_request(struct agent_pool *p, uint32_t i, char *buf, size_t len)
{
	struct logout_run *r = p->ctx;

	snprintf(buf, len, "logout %u\n", r->ids[i]);
}

static bool logout_answer(struct agent_pool *p, uint32_t i, const char *line, uint64_t ns)
{
	struct logout_run *r = p->ctx;

	(void)i;
	if (!strcmp(line, "ok"))
		r->lat[r->ok++] = ns;
	else
		fprintf(stderr, "bench-nl: logout: %s\n", line);
	return true;
}

/* The "sessions N" of an agent's "stats" answer, or -1. */
static long agent_sessions(const char *path)
{
	char buf[2048];
	size_t len = 0;
	long n = -1;
	int fd = agent_connect(path);

	if (write(fd, "stats\n", 6) != 6)
		die("write to l2tpseld", errno);
	while (len < sizeof(buf) - 1) {
		ssize_t r = read(fd, buf + len, sizeof(buf) - 1 - len);

		if (r <= 0)
			break;
		len += (size_t)r;
		buf[len] = '\0';
		if (strstr(buf, "\nend\n")) {
			const char *s = strstr(buf, " sessions ");

			n = s ? strtol(s + 10, NULL, 10) : -1;
			break;
		}
	}
	close(fd);
	return n;
}

/*
 * bench-nl logout SOCKET IDFILE CLIENTS LNS_SOCKET: "logout ID" for each ID,
 * CLIENTS at a time, each on a connection of its own; then the LNS agent's
 * "stats" is read every millisecond until it holds as many sessions fewer
 * as there were IDs (at most 60 s; other rows' sessions may stay up there).
 * Prints count, ok, ms (until then), per_s, the 50th and 99th percentile of
 * the answers' time, and lns_left: the sessions of these IDs still there.
 */
static void logout_bench(const char *path, const char *idfile, uint32_t nclients,
			 const char *lns)
{
	struct logout_run r = { 0 };
	struct agent_pool p = { .path = path, .nclients = nclients,
				.request = logout_request, .answer = logout_answer, .ctx = &r };
	FILE *f = fopen(idfile, "r");
	uint32_t cap = 1024, id;
	uint64_t t0, deadline, p50, p99;
	long left, before;

	if (!f)
		die(idfile, errno);
	r.ids = malloc(cap * sizeof(*r.ids));
	while (r.ids && fscanf(f, "%u", &id) == 1) {
		if (p.n == cap)
			r.ids = realloc(r.ids, (cap *= 2) * sizeof(*r.ids));
		if (r.ids)
			r.ids[p.n++] = id;
	}
	fclose(f);
	if (!r.ids)
		die("logout", ENOMEM);
	r.lat = samples(p.n ? p.n : 1);
	before = agent_sessions(lns);
	t0 = mono_ns();
	if (p.n)
		pool_run(&p);
	deadline = t0 + 60000000000ull;
	while ((left = agent_sessions(lns) - (before - (long)p.n)) > 0 && mono_ns() < deadline)
		usleep(1000);
	t0 = mono_ns() - t0;
	p50 = quantile(r.lat, r.ok, 0.5);
	p99 = quantile(r.lat, r.ok, 0.99);
	printf("count=%u ok=%u ms=%llu per_s=%.1f p50_ms=%.1f p99_ms=%.1f lns_left=%ld\n",
	       p.n, r.ok, (unsigned long long)(t0 / 1000000), p.n * 1e9 / (double)t0,
	       p50 / 1e6, p99 / 1e6, left);
	free(r.ids);
	free(r.lat);
}

/*
 * bench-nl udp-floor N CLIENTS: the physical floor of a login on an
 * established tunnel, the same four datagrams (ICRQ 60 bytes, ICRP 40, ICCN
 * 60, the ZLB 12) between two bare UDP sockets on the loopback, no state,
 * no protocol: a child answers ICRQ with ICRP and ICCN with the ZLB.  N
 * exchanges, CLIENTS in flight at once; prints count, ms, per_s, p50_ms,
 * p99_ms.
 */
enum { FLOOR_ICRQ = 10, FLOOR_ICRP = 11, FLOOR_ICCN = 12, FLOOR_ZLB = 0 };

static void udp_floor(uint32_t n, uint32_t nclients)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(a);
	int srv = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int cli = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	uint64_t *t0 = samples(n), *lat = samples(n), start;
	uint32_t started = 0, done = 0;
	uint8_t buf[64] = { 0 };
	pid_t child;

	struct timeval tmo = { .tv_sec = 5 };
	int big = 16 << 20;

	/* room for every datagram in flight: a drop would stall the run */
	if (srv >= 0 && cli >= 0)
		for (int i = 0; i < 2; i++)
			if (setsockopt(i ? cli : srv, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof(big)))
				setsockopt(i ? cli : srv, SOL_SOCKET, SO_RCVBUF, &big, sizeof(big));
	if (cli >= 0)
		setsockopt(cli, SOL_SOCKET, SO_RCVTIMEO, &tmo, sizeof(tmo));
	if (srv < 0 || cli < 0 || bind(srv, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(srv, (struct sockaddr *)&a, &alen) ||
	    connect(cli, (struct sockaddr *)&a, sizeof(a)))
		die("udp-floor: sockets", errno);
	child = fork();
	if (child < 0)
		die("udp-floor: fork", errno);
	if (!child) {
		struct sockaddr_in from;
		socklen_t flen;

		for (;;) {
			flen = sizeof(from);
			ssize_t r = recvfrom(srv, buf, sizeof(buf), 0, (struct sockaddr *)&from, &flen);

			if (r < 8)
				_exit(r < 0);
			buf[0] = buf[0] == FLOOR_ICRQ ? FLOOR_ICRP : FLOOR_ZLB;
			sendto(srv, buf, buf[0] == FLOOR_ICRP ? 40 : 12, 0, (struct sockaddr *)&from, flen);
		}
	}
	close(srv);
	start = mono_ns();
	while (done < n) {
		ssize_t r;
		uint32_t id;

		while (started < n && started - done < nclients) {
			buf[0] = FLOOR_ICRQ;
			memcpy(buf + 4, &started, 4);
			t0[started] = mono_ns();
			if (send(cli, buf, 60, 0) != 60)
				die("udp-floor: send", errno);
			started++;
		}
		r = recv(cli, buf, sizeof(buf), 0);
		if (r < 8) {
			kill(child, SIGTERM);
			die("udp-floor: a datagram was lost or the answer is late", r < 0 ? errno : EIO);
		}
		memcpy(&id, buf + 4, 4);
		if (buf[0] == FLOOR_ICRP) {
			buf[0] = FLOOR_ICCN;
			if (send(cli, buf, 60, 0) != 60)
				die("udp-floor: send", errno);
		} else if (id < n) {
			lat[done++] = mono_ns() - t0[id];
		}
	}
	start = mono_ns() - start;
	send(cli, buf, 1, 0);	/* too short: the child ends */
	waitpid(child, NULL, 0);
	close(cli);
	printf("count=%u ms=%.1f per_s=%.1f p50_ms=%.3f p99_ms=%.3f\n", n, start / 1e6,
	       n * 1e9 / (double)start, quantile(lat, n, 0.5) / 1e6, quantile(lat, n, 0.99) / 1e6);
	free(t0);
	free(lat);
}

static uint32_t dumped;

static int count_cb(const struct nlmsghdr *h, void *data)
{
	dumped++;
	return MNL_CB_OK;
}

/* The GET command whose dump lists @what; exits for a name it does not know. */
static uint8_t dump_cmd(const char *what)
{
	static const struct { const char *name; uint8_t cmd; } cmds[] = {
		{ "domain", L2TPSEL_CMD_DOMAIN_GET },
		{ "profile", L2TPSEL_CMD_PROFILE_GET },
		{ "session", L2TPSEL_CMD_SESSION_GET },
		{ "tunnel", L2TPSEL_CMD_TUNNEL_GET },
	};
	size_t i;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(what, cmds[i].name))
			return cmds[i].cmd;
	fprintf(stderr, "bench-nl: dump: \"%s\" is not one of domain, profile, session, tunnel, route\n",
		what);
	exit(2);
}

static void dump(const char *what)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *h = NULL;
	uint64_t t0, t;
	int err;

	if (!strcmp(what, "route")) {
		struct rtmsg *r;
		uint32_t portid;

		nl.buf = malloc(MNL_SOCKET_BUFFER_SIZE);
		if (!nl.buf)
			die("route dump", ENOMEM);
		open_rt();
		portid = mnl_socket_get_portid(rt);
		h = mnl_nlmsg_put_header(buf);
		h->nlmsg_type = RTM_GETROUTE;
		h->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
		h->nlmsg_seq = ++rt_seq;
		r = mnl_nlmsg_put_extra_header(h, sizeof(*r));
		r->rtm_family = AF_INET;
		t0 = mono_ns();
		if (mnl_socket_sendto(rt, h, h->nlmsg_len) < 0)
			die("route dump", errno);
		for (;;) {
			int len = mnl_socket_recvfrom(rt, nl.buf, MNL_SOCKET_BUFFER_SIZE);

			if (len < 0)
				die("route dump", errno);
			err = mnl_cb_run(nl.buf, len, rt_seq, portid, count_cb, NULL);
			if (err < 0)
				die("route dump", errno);
			if (err == MNL_CB_STOP)
				break;
		}
		t = mono_ns() - t0;
	} else {
		uint8_t cmd = dump_cmd(what);

		open_genl();
		h = genl_req(buf, cmd);
		h->nlmsg_flags |= NLM_F_DUMP;
		t0 = mono_ns();
		err = l2s_nl_talk(&nl, h, count_cb, NULL);
		t = mono_ns() - t0;
		if (err)
			die("dump", -err);
	}
	printf("count=%u ns=%llu per_ns=%llu\n", dumped, (unsigned long long)t,
	       dumped ? (unsigned long long)(t / dumped) : 0ull);
}

/*
 * bench-nl login-under-dump COUNT PROFILE WHAT: COUNT logins one after another
 * (LOGIN_BEGIN, then LOGIN_REPORT client-gone) while a child process dumps
 * WHAT over and over on a socket of its own ("none": no dump, the
 * baseline): the read path's cost to a login.  Prints the logins' p50, p99 and highest
 * round trip, and how many dumps the child read whole and how many it gave
 * up interrupted (l2s_nl_talk()'s retries spent: logins change the
 * namespace).
 */
static void login_under_dump(uint32_t count, const char *profile, const char *what)
{
	struct dump_share { volatile uint32_t stop, whole, intr; } *sh;
	char buf[MNL_SOCKET_BUFFER_SIZE];
	bool none = !strcmp(what, "none");	/* the baseline: no dump at all */
	uint8_t cmd = none ? 0 : dump_cmd(what);
	uint64_t *lat = samples(count), t0;
	pid_t child;
	uint32_t i;

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		die("login-under-dump", errno);
	memset((void *)sh, 0, sizeof(*sh));
	child = fork();
	if (child < 0)
		die("login-under-dump: fork", errno);
	if (!child) {
		open_genl();
		while (!sh->stop && none)
			usleep(1000);
		while (!sh->stop) {
			struct nlmsghdr *h = genl_req(buf, cmd);
			int err;

			h->nlmsg_flags |= NLM_F_DUMP;
			err = l2s_nl_talk(&nl, h, count_cb, NULL);
			if (!err)
				sh->whole++;
			else if (err == -EINTR)
				sh->intr++;
			else
				die("dump", -err);
		}
		_exit(0);
	}
	open_genl();
	while (!none && !sh->whole && !sh->intr)
		usleep(1000);		/* the child is dumping */
	for (i = 0; i < count; i++) {
		struct nlmsghdr *h = genl_req(buf, L2TPSEL_CMD_LOGIN_BEGIN);

		mnl_attr_put_strz(h, L2TPSEL_A_PROFILE, profile);
		step = 0;
		t0 = mono_ns();
		if (l2s_nl_talk(&nl, h, step_cb, NULL))
			die("LOGIN_BEGIN", EIO);
		if (step == L2TPSEL_STEP_ATTEMPT) {
			h = genl_req(buf, L2TPSEL_CMD_LOGIN_REPORT);
			mnl_attr_put_u32(h, L2TPSEL_A_LOGIN_ID, login_id);
			mnl_attr_put_u8(h, L2TPSEL_A_OUTCOME, L2TPSEL_OUTCOME_CLIENT_GONE);
			if (l2s_nl_talk(&nl, h, step_cb, NULL))
				die("LOGIN_REPORT", EIO);
		}
		lat[i] = mono_ns() - t0;
	}
	sh->stop = 1;
	waitpid(child, NULL, 0);
	printf("count=%u p50_us=%.1f p99_us=%.1f max_us=%.1f dumps=%u dumps_intr=%u\n", count,
	       quantile(lat, count, 0.5) / 1e3, quantile(lat, count, 0.99) / 1e3,
	       quantile(lat, count, 1.0) / 1e3, sh->whole, sh->intr);
	free(lat);
}

static void limit_max(uint32_t max)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *h;
	int err;

	open_genl();
	h = genl_req(buf, L2TPSEL_CMD_LIMIT_SET);
	mnl_attr_put_u32(h, L2TPSEL_A_CHASSIS_MAX, max);
	err = l2s_nl_talk(&nl, h, nop_cb, NULL);
	if (err)
		die("LIMIT_SET", -err);
	printf("chassis_max=%u\n", max);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "limit-max"))
		limit_max(parse_u32(argv[2], "N"));
	else if (argc == 3 && !strcmp(argv[1], "session-bench"))
		session_bench(parse_u32(argv[2], "COUNT") ?: 1);
	else if (argc == 4 && !strcmp(argv[1], "login-bench"))
		login_bench(parse_u32(argv[2], "COUNT") ?: 1, strchr(argv[3], '@') ?
			    L2TPSEL_A_USER : L2TPSEL_A_PROFILE, argv[3]);
	else if ((argc == 7 || argc == 8) && !strcmp(argv[1], "agent"))
		agent_bench(argv[2], argv[3], argv[4], parse_u32(argv[5], "N") ?: 1,
			    parse_u32(argv[6], "CLIENTS") ?: 1, argc == 8 ? argv[7] : NULL);
	else if (argc == 6 && !strcmp(argv[1], "logout"))
		logout_bench(argv[2], argv[3], parse_u32(argv[4], "CLIENTS") ?: 1, argv[5]);
	else if (argc == 5 && !strcmp(argv[1], "login-under-dump"))
		login_under_dump(parse_u32(argv[2], "COUNT") ?: 1, argv[3], argv[4]);
	else if (argc == 4 && !strcmp(argv[1], "udp-floor"))
		udp_floor(parse_u32(argv[2], "N") ?: 1, parse_u32(argv[3], "CLIENTS") ?: 1);
	else if (argc == 3 && !strcmp(argv[1], "dump"))
		dump(argv[2]);
	else if (argc >= 4)
		load(argc, argv);
	else {
		fprintf(stderr, "usage: bench-nl { limit-max N | profiles FROM TO | tunnels FROM TO PER |\n"
				"                  dests FROM TO [ADDRESS] |\n"
				"                  domains FROM TO PROFILE | sessions FROM TO | routes FROM TO |\n"
				"                  login-bench COUNT {USER@DOMAIN|PROFILE} | session-bench COUNT |\n"
				"                  dump WHAT | agent SOCKET PROFILE PREFIX N CLIENTS [IDFILE] |\n"
				"                  logout SOCKET IDFILE CLIENTS LNS_SOCKET | udp-floor N CLIENTS |\n"
				"                  login-under-dump COUNT PROFILE WHAT }\n");
		return 2;
	}
	if (nl.sock)
		l2s_nl_close(&nl);
	else
		free(nl.buf);
	if (rt)
		mnl_socket_close(rt);
	return 0;
}
