/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A simulated network for l2tpseld's state machines: nodes (each a whole
 * struct l2d with "kernel none", the selection core in-process) exchange
 * datagrams through outboxes, on one fake millisecond clock (the core's
 * too).  Tests pump it until a time and look at what each node sent, its
 * login event lines and its state.
 */
#ifndef L2D_HARNESS_H
#define L2D_HARNESS_H

#include "../../userspace/l2tpseld/agent.h"
#include "../../userspace/l2tpseld/kernel_none.h"
#include "../../userspace/l2tpseld/l2d.h"
#include "../../userspace/l2tpseld/lac.h"
#include "../../userspace/l2tpseld/session.h"
#include "../../userspace/l2tpseld/tunnel.h"

#define H_MAX_NODES	4
#ifndef H_MAX_PKTS	/* datagrams in flight; the fuzz target keeps fewer */
#define H_MAX_PKTS	4096
#endif
#define H_MAX_LINES	64

struct h_pkt {
	int from, to;		/* node index; to = -1: nobody there */
	uint16_t from_port, to_port;	/* as on the wire (host order) */
	uint64_t at;
	size_t len;
	uint8_t data[1500];
};

struct h_node {
	struct l2d *d;
	struct l2d_conf conf;
	struct l2d_loop loop;
	struct l2d_addr addr;	/* ip:port */
	bool down;		/* drops everything it would receive */
	uint64_t stall_until;	/* frozen (a starved process): nothing read, no timer run */
	uint32_t rnd;
	char lines[H_MAX_LINES][256];
	unsigned int n_lines;
	unsigned int sent[L2TP_MSG_MAX + 2];	/* by type; [0] = ZLB */
	uint64_t last_sent_at[L2TP_MSG_MAX + 2];
	uint64_t sent_at[32];			/* every SCCRQ/ICRQ time */
	unsigned int n_sent_at;
	int client;				/* a dummy API client (its address, as api.c's) */
	/* every login event line, kept or not: storms outgrow lines[] */
	unsigned int n_done_ok, n_done_fail, n_no_reply;
	unsigned int open_fails;		/* the next N tunnel sockets fail */
	uint16_t answer_port;			/* != 0: it sends from this port (RFC 2661 8.1) */
	unsigned int to_answer_port;		/* datagrams it got on answer_port */
	unsigned int connects;			/* env tunnel_connect calls */
	bool mute;				/* sends nothing (h_node_restart()) */
};

struct h_net {
	struct h_node node[H_MAX_NODES];
	unsigned int n;
	struct h_pkt *pkt;	/* in flight */
	unsigned int n_pkt;
	uint64_t now;
	unsigned int dropped;
	/* optional: drop the Nth datagram (1-based) from a node, once */
	int drop_from, drop_nth;
	unsigned int count_from;
	/*
	 * optional: the first datagram of message type refuse_type (0: a ZLB)
	 * that node refuse_from sends is refused, as a full socket refuses one:
	 * the environment's send() fails and nothing leaves
	 */
	int refuse_from;
	uint16_t refuse_type;
	unsigned int refused;
	/*
	 * and, when set: refuse_n of them (0: one), of any type (refuse_any),
	 * with errno refuse_errno (0: EAGAIN, a full socket)
	 */
	unsigned int refuse_n;
	bool refuse_any;
	int refuse_errno;
	/* optional: one-way delay of every datagram, ms (0: the next step) */
	uint64_t latency_ms;
	/* optional: sees every datagram sent */
	void (*tap)(int from, const uint8_t *buf, size_t len);
};

extern struct h_net *H;

void h_reset(void);
/* A node at 10.0.0.(idx+1):1701 configured by the lines (NULL-terminated). */
struct h_node *h_node(const char *const *lines);
void h_run_until(uint64_t t);
void h_run_for(uint64_t ms);
bool h_has_line(const struct h_node *n, const char *prefix);
const char *h_line(const struct h_node *n, const char *prefix);
void h_dump_lines(const struct h_node *n);
struct l2d_login *h_login(struct h_node *n, const char *user, const char *profile);
/* deliver a crafted datagram to @n as if from @from_addr */
void h_inject(struct h_node *n, const struct l2d_addr *from, const uint8_t *buf, size_t len);
/* the same, to its UDP port @port */
void h_inject_to(struct h_node *n, uint16_t port, const struct l2d_addr *from,
		 const uint8_t *buf, size_t len);
/* An SCCRQ from a peer with Assigned Tunnel ID @ptid (0: none), version 1.0 or 2.0 */
size_t h_craft_sccrq(uint8_t *buf, size_t cap, uint16_t ptid, bool bad_version);
unsigned int h_tunnels_in(const struct h_node *n, enum l2d_tstate st);
unsigned int h_sessions_in(const struct h_node *n, enum l2d_sstate st);
void h_fini(void);
/* The agent of @n replaced by a fresh one on the same configuration and
 * address, as after execve() (S-OPS-2): nothing sent, nothing kept. */
void h_node_restart(struct h_node *n);

#endif
