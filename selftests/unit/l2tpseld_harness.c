// SPDX-License-Identifier: GPL-2.0
/* The simulated network of l2tpseld_harness.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "l2tpseld_harness.h"

struct h_net *H;

static uint64_t h_clock(void *ctx)
{
	return H->now;
}

static struct h_node *node_of(struct l2d *d)
{
	unsigned int i;

	for (i = 0; i < H->n; i++)
		if (H->node[i].d == d)
			return &H->node[i];
	return NULL;
}

/* A port of a tunnel's own (an LNS answering from it, RFC 2661 8.1) on @n. */
static bool own_port_of(const struct h_node *n, uint16_t port)
{
	const struct l2d_tunnel *t;

	for (t = n->d->tunnels; t; t = t->next)
		if (t->own_port && l2d_port(&t->local) == port)
			return true;
	return false;
}

static int node_by_addr(const struct l2d_addr *a)
{
	const struct sockaddr_in *x = (const void *)&a->ss;
	unsigned int i;

	for (i = 0; i < H->n; i++) {
		const struct sockaddr_in *y = (const void *)&H->node[i].addr.ss;

		if (x->sin_addr.s_addr == y->sin_addr.s_addr &&
		    (x->sin_port == y->sin_port ||
		     (H->node[i].answer_port && ntohs(x->sin_port) == H->node[i].answer_port) ||
		     own_port_of(&H->node[i], ntohs(x->sin_port))))
			return (int)i;
	}
	return -1;
}

static int h_send(struct l2d *d, struct l2d_tunnel *t, const uint8_t *buf, size_t len)
{
	struct h_node *n = node_of(d);
	struct h_pkt *p;
	struct l2tp_hdr hdr;
	uint16_t type = 0;
	int from = (int)(n - H->node);

	if (n->mute)
		return 0;	/* a process gone (h_node_restart()) sends nothing */
	if (l2tp_hdr_parse(&hdr, buf, len) == L2TP_PERR_NONE && !hdr.zlb && len >= 20)
		type = l2tp_get16(buf + 18);
	if (H->refuse_from == from && (H->refuse_any || type == H->refuse_type) &&
	    H->refused < (H->refuse_n ? H->refuse_n : 1)) {
		H->refused++;
		return -(H->refuse_errno ? H->refuse_errno : EAGAIN);
	}
	if (type <= L2TP_MSG_MAX) {
		n->sent[type]++;
		n->last_sent_at[type] = H->now;
	}
	if ((type == L2TP_MSG_SCCRQ || type == L2TP_MSG_ICRQ) && n->n_sent_at < 32)
		n->sent_at[n->n_sent_at++] = H->now;
	if (H->tap)
		H->tap(from, buf, len);
	if (H->drop_from == from && ++H->count_from == (unsigned int)H->drop_nth) {
		H->dropped++;
		return 0;
	}
	if (H->n_pkt == H_MAX_PKTS || len > sizeof(p->data))
		return -ENOBUFS;
	p = &H->pkt[H->n_pkt++];
	p->from = from;
	p->to = node_by_addr(&t->peer);
	if (t->own_port)
		p->from_port = l2d_port(&t->local);
	else
		p->from_port = n->answer_port ? n->answer_port : l2d_port(&n->addr);
	p->to_port = ntohs(((const struct sockaddr_in *)&t->peer.ss)->sin_port);
	p->at = H->now + H->latency_ms;
	p->len = len;
	memcpy(p->data, buf, len);
	return 0;
}

static void h_event(struct l2d *d, struct l2d_login *lg, const char *line)
{
	struct h_node *n = node_of(d);

	if (!line) {
		lg->client = NULL;
		return;
	}
	if (!strncmp(line, "done ok", 7))
		n->n_done_ok++;
	else if (!strncmp(line, "done fail", 9))
		n->n_done_fail++;
	else if (!strncmp(line, "outcome", 7) && strstr(line, " no-reply"))
		n->n_no_reply++;
	if (n->n_lines < H_MAX_LINES)
		snprintf(n->lines[n->n_lines++], sizeof(n->lines[0]), "%s", line);
}

static void h_random(struct l2d *d, void *buf, size_t len)
{
	struct h_node *n = node_of(d);
	uint8_t *p = buf;
	size_t i;

	for (i = 0; i < len; i++) {
		n->rnd = n->rnd * 1103515245u + 12345u;
		p[i] = (uint8_t)(n->rnd >> 16);
	}
}

static int h_tunnel_connect(struct l2d *d, struct l2d_tunnel *t)
{
	node_of(d)->connects++;
	return 0;
}

/*
 * A local failure on demand: no socket for the next open_fails tunnels.
 * A tunnel answering from a port of its own gets 50000 + its Tunnel ID.
 */
static int h_tunnel_open(struct l2d *d, struct l2d_tunnel *t)
{
	struct h_node *n = node_of(d);

	if (t->own_port)
		((struct sockaddr_in *)&t->local.ss)->sin_port = htons(50000 + t->tid);
	if (!n->open_fails)
		return 0;
	n->open_fails--;
	return -1;
}

static const struct l2d_env h_env = {
	.send = h_send,
	.tunnel_open = h_tunnel_open,
	.tunnel_connect = h_tunnel_connect,
	.login_event = h_event,
	.random = h_random,
};

/*
 * H_STATIC: the network and its nodes live in static storage, cleared
 * for each use rather than allocated: the fuzz target sets up a network
 * per input, and fresh megabytes (struct l2d is one) cost it page faults.
 */
#ifdef H_STATIC
static struct h_net h_store;
static struct h_pkt h_pkt_store[H_MAX_PKTS];
static struct l2d h_d_store[H_MAX_NODES];
#endif

void h_reset(void)
{
	h_fini();
#ifdef H_STATIC
	memset(&h_store, 0, sizeof(h_store));
	H = &h_store;
	H->pkt = h_pkt_store;
#else
	H = calloc(1, sizeof(*H));
	H->pkt = calloc(H_MAX_PKTS, sizeof(*H->pkt));
#endif
	H->drop_from = -1;
	H->refuse_from = -1;
	H->now = 1000;
}

struct h_node *h_node(const char *const *lines)
{
	struct h_node *n = &H->node[H->n];
	char err[200];
	char ip[32];

	snprintf(ip, sizeof(ip), "10.0.0.%u", H->n + 1);
	l2d_conf_defaults(&n->conf);
	n->conf.kernel = L2D_KERNEL_NONE;
	n->conf.log_level = getenv("L2TPSELD_TEST_LOG") ? 2 : 0;
	n->conf.test_mode = true;	/* the fault tests' switches (lns-mode, stub-*) */
	strcpy(n->conf.hostname, ip);
	for (; lines && *lines; lines++) {
		if (l2d_conf_line(&n->conf, *lines, err, sizeof(err))) {
			th_fail(__FILE__, __LINE__, "config \"%s\": %s", *lines, err);
			return NULL;
		}
	}
	if (l2d_conf_check(&n->conf, err, sizeof(err)) ||
	    l2d_kernel_none_check(&n->conf, err, sizeof(err)))
		th_fail(__FILE__, __LINE__, "config: %s", err);
	l2d_parse_addr(ip, 1701, &n->addr.ss, &n->addr.len);
	l2d_loop_init(&n->loop, false);
	n->loop.clock = h_clock;
#ifdef H_STATIC
	n->d = &h_d_store[H->n];
	memset(n->d, 0, sizeof(*n->d));
#else
	n->d = calloc(1, sizeof(*n->d));
#endif
	n->rnd = 7 + 1000 * H->n;
	l2d_agent_init(n->d, &n->conf, &n->loop, &h_env, &l2d_kops_none);
	H->n++;
	return n;
}

void h_node_restart(struct h_node *n)
{
	n->mute = true;
	l2d_fini(n->d);
	n->mute = false;
	memset(n->d, 0, sizeof(*n->d));
	l2d_agent_init(n->d, &n->conf, &n->loop, &h_env, &l2d_kops_none);
}

/* Deliver what has arrived (at once unless latency_ms), run due timers. */
static bool h_step(void)
{
	bool did = false;
	unsigned int i, k = 0;

	/* one delay for all: the queue is in order of arrival time; what a
	 * stalled node would receive waits, in order, in its socket */
	while (k < H->n_pkt && H->pkt[k].at <= H->now) {
		struct h_pkt p = H->pkt[k];
		struct l2d_addr src, dst;

		if (p.to >= 0 && H->node[p.to].stall_until > H->now) {
			k++;
			continue;
		}
		memmove(H->pkt + k, H->pkt + k + 1, (H->n_pkt - k - 1) * sizeof(*H->pkt));
		H->n_pkt--;
		did = true;
		if (p.to < 0 || H->node[p.to].down)
			continue;
		src = H->node[p.from].addr;
		((struct sockaddr_in *)&src.ss)->sin_port = htons(p.from_port);
		dst = H->node[p.to].addr;
		((struct sockaddr_in *)&dst.ss)->sin_port = htons(p.to_port);
		if (H->node[p.to].answer_port && p.to_port == H->node[p.to].answer_port)
			H->node[p.to].to_answer_port++;
		l2d_input(H->node[p.to].d, &dst, &src, p.data, p.len);
	}
	for (i = 0; i < H->n; i++)
		if (H->node[i].stall_until <= H->now && l2d_timers_run(&H->node[i].loop, H->now))
			did = true;
	return did;
}

void h_run_until(uint64_t t)
{
	for (;;) {
		uint64_t next = UINT64_MAX;
		unsigned int i;

		while (h_step())
			;
		for (i = 0; i < H->n; i++) {
			uint64_t x = l2d_timer_next(&H->node[i].loop);

			if (H->node[i].stall_until > H->now && x < H->node[i].stall_until)
				x = H->node[i].stall_until;
			if (x < next)
				next = x;
		}
		for (i = 0; i < H->n_pkt; i++) {
			uint64_t x = H->pkt[i].at;
			int to = H->pkt[i].to;

			if (to >= 0 && H->node[to].stall_until > x)
				x = H->node[to].stall_until;
			if (x < next)
				next = x;
		}
		if (next > t)
			break;
		if (next > H->now)
			H->now = next;
	}
	if (t > H->now)
		H->now = t;
}

void h_run_for(uint64_t ms)
{
	h_run_until(H->now + ms);
}

const char *h_line(const struct h_node *n, const char *prefix)
{
	unsigned int i;

	for (i = 0; i < n->n_lines; i++)
		if (!strncmp(n->lines[i], prefix, strlen(prefix)))
			return n->lines[i];
	return NULL;
}

bool h_has_line(const struct h_node *n, const char *prefix)
{
	return h_line(n, prefix) != NULL;
}

void h_dump_lines(const struct h_node *n)
{
	unsigned int i;

	for (i = 0; i < n->n_lines; i++)
		th_log("  %s", n->lines[i]);
}

struct l2d_login *h_login(struct h_node *n, const char *user, const char *profile)
{
	char err[128];
	uint32_t id = l2d_login_start(n->d, &(struct l2d_login_req){
			.client = (struct api_conn *)&n->client, .user = user, .profile = profile },
		err, sizeof(err));

	if (!id)
		th_log("login_start: %s", err);
	return id ? l2d_login_find(n->d, id) : NULL;
}

void h_inject(struct h_node *n, const struct l2d_addr *from, const uint8_t *buf, size_t len)
{
	h_inject_to(n, l2d_port(&n->addr), from, buf, len);
}

void h_inject_to(struct h_node *n, uint16_t port, const struct l2d_addr *from,
		 const uint8_t *buf, size_t len)
{
	struct l2d_addr to = n->addr;
	uint8_t copy[1500];

	((struct sockaddr_in *)&to.ss)->sin_port = htons(port);
	memcpy(copy, buf, len);
	l2d_input(n->d, &to, from, copy, len);
}

size_t h_craft_sccrq(uint8_t *buf, size_t cap, uint16_t ptid, bool bad_version)
{
	struct l2tp_builder b;

	l2tp_build_begin(&b, buf, cap, 0, 0, L2TP_MSG_SCCRQ, NULL);
	l2tp_put_u16(&b, L2TP_AVP_PROTOCOL_VERSION, bad_version ? 0x0200 : L2TP_PROTOCOL_VERSION);
	l2tp_put_string(&b, L2TP_AVP_HOST_NAME, "crafted");
	l2tp_put_u32(&b, L2TP_AVP_FRAMING_CAPS, 3);
	l2tp_put_u16(&b, L2TP_AVP_ASSIGNED_TUNNEL_ID, ptid);
	return l2tp_build_end(&b);
}

unsigned int h_tunnels_in(const struct h_node *n, enum l2d_tstate st)
{
	const struct l2d_tunnel *t;
	unsigned int c = 0;

	for (t = n->d->tunnels; t; t = t->next)
		c += t->state == st;
	return c;
}

unsigned int h_sessions_in(const struct h_node *n, enum l2d_sstate st)
{
	const struct l2d_tunnel *t;
	const struct l2d_session *s;
	unsigned int c = 0;

	for (t = n->d->tunnels; t; t = t->next)
		for (s = t->sessions; s; s = s->next)
			c += s->state == st;
	return c;
}

void h_fini(void)
{
	unsigned int i;

	if (!H)
		return;
	for (i = 0; i < H->n; i++) {
		l2d_fini(H->node[i].d);
		l2d_loop_fini(&H->node[i].loop);
#ifndef H_STATIC
		free(H->node[i].d);
#endif
	}
#ifndef H_STATIC
	free(H->pkt);
	free(H);
#endif
	H = NULL;
}
