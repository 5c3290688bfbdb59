/* SPDX-License-Identifier: GPL-2.0 */
/*
 * l2tpseld: a tunnel (an L2TPv2 control connection, RFC 2661 sections 5.1,
 * 5.7, 7.2), its peer's entry, and what the rest of the agent may ask of it.
 */
#ifndef L2D_TUNNEL_H
#define L2D_TUNNEL_H

#include "l2d.h"
#include "reliable.h"

enum l2d_tstate {
	L2D_T_IDLE,		/* created, nothing sent */
	L2D_T_WAIT_SCCRP,	/* LAC: SCCRQ sent */
	L2D_T_WAIT_SCCCN,	/* LNS: SCCRP sent */
	L2D_T_ESTABLISHED,
	L2D_T_CLOSING,		/* StopCCN sent or received: held one cycle (§5.7) */
	L2D_T_DEAD,		/* to be freed at the end of the loop turn */
};

/*
 * A peer: an IPv4 address or an IPv6 /64 (one site holds a whole prefix),
 * found by a seeded hash (d->peers).  It lists every tunnel whose peer
 * address it covers, either role, and holds the LNS role's counts that
 * its caps compare with (S-SEC-7).  Freed with its last tunnel.
 */
struct l2d_peer {
	struct l2d_peer *next;		/* hash chain */
	uint8_t key[9];			/* 4 or 6, then 4 or 8 bytes */
	struct l2d_tunnel *tunnels;	/* t->pnext */
	unsigned int lns_setup;		/* LNS-role tunnels not yet established */
	unsigned int lns_up;		/* ... established (until freed) */
	unsigned int lns_calls;		/* LNS-role calls */
};

struct l2d_tunnel {
	struct l2d *d;
	struct l2d_tunnel *next;	/* d->tunnels */
	uint16_t tid, peer_tid;
	enum l2d_tstate state;
	bool initiator;			/* we sent the SCCRQ */
	/*
	 * Our LAC-role calls may ride it (lac): a tunnel we opened, or the
	 * peer's tunnel that won a tie (RFC 2661 4.4.3) against ours with the
	 * same secret.  The peer's calls may come on it (lns): a tunnel the
	 * peer opened, or ours that won a tie.  Only a tie makes both true;
	 * else the roles never share a tunnel (S-SEC-7).
	 */
	bool lac, lns;
	struct l2d_peer *p;		/* its peer's entry */
	struct l2d_tunnel *pnext, **ppprev;	/* p->tunnels */
	bool lns_up;			/* counted in p->lns_up, d->n_lns_up */
	struct l2d_addr peer, local;
	/* the peer as first addressed: a LAC's destination as configured (peer may move) */
	struct l2d_addr dest;
	int fd;				/* its own connected UDP socket, -1 in tests */
	struct l2d_fd fdw;
	int txfd;			/* control sends once the kernel has fd (main.c) */
	struct l2d_fd txw;
	struct l2d_addr bound;		/* what fd was bound to (local: after connect) */
	bool connected;			/* fd connected to @peer (main.c); a LAC's after SCCRP */
	struct l2d_addr rx_from;	/* the source of the message being received */
	struct l2d_addr rx_local;	/* and where it arrived (address and port) */
	bool own_port;			/* LNS: answers from a port of its own (RFC 2661 8.1) */
	char peer_host[L2D_NAME_MAX];	/* peer's Host Name AVP */
	char tgroup[L2D_NAME_MAX];	/* LNS: tunnel group for admission */
	char name[L2D_NAME_MAX];	/* LAC: the kernel's tunnel name */
	char host[L2D_NAME_MAX];	/* LAC: our Host Name when not the configured one */
	/* LAC: RFC 2867 Tunnel-Start sent (access_acct.c); its Acct-Session-Id and time */
	bool acct_up;
	char acct_id[20];
	uint64_t acct_start_ms;
	char profile[L2D_NAME_MAX];
	uint8_t secret[L2D_SECRET_MAX];
	size_t secret_len;
	bool has_secret;
	struct l2tp_secret sec;		/* points at secret when has_secret */
	uint8_t challenge[16];		/* the one we sent */
	bool challenged;
	uint64_t tie_breaker;
	bool tb_sent;
	bool tb_adopted;		/* LNS role, in setup: carries calls of ours that lost a tie */
	int tx_local_err;		/* our last send failed on our host: its errno, else 0 */
	uint16_t stop_result, stop_error;	/* StopCCN received */
	enum l2d_end end;
	unsigned int n_sessions;
	struct l2d_session *sessions;
	struct l2d_timer setup_timer, rel_timer, hold_timer, hello_timer, idle_timer;
	bool dp_added;
	bool lns_setup;			/* LNS, not yet established: on d->setup_* */
	struct l2d_tunnel *setup_prev, *setup_next;	/* oldest first */
	struct l2d_session *txwait_head, *txwait_tail;	/* in Ns order */
	struct l2d_session *icrq_head, *icrq_tail;	/* ICRQs not yet queued, oldest first */
	unsigned int n_icrq_wait;
	unsigned int since_icrq;	/* messages queued since the last ICRQ */
	bool icrq_releasing;
	uint64_t heard_ms;		/* the peer's last new message delivered */
	bool rl_reject;			/* LNS: its SCCRQ's rate-limit verdict was reject */
	uint16_t rl_result, rl_error;
	char rl_message[128];
	struct l2tp_rel rel;		/* the queue grows as needed */
};

/* ---- the control connection (tunnel.c) ---- */
extern const struct l2d_tunnel_ops l2d_tunnel_ops;	/* the core's (l2d.h), tunnel_accept.c */
/*
 * A LAC-role tunnel to @remote (and @local) a login may reuse or join:
 * set up with the same @secret (NULL or "": none) and Host Name @host
 * ("": the configured one), so that it authenticates and hides AVPs as a
 * tunnel opened for this login would (S-SEC-7).
 */
struct l2d_tunnel *l2d_tunnel_find_dest(struct l2d *d, const struct l2d_addr *remote,
					const struct l2d_addr *local, bool has_local,
					const char *secret, const char *host);
struct l2d_tunnel *l2d_tunnel_new(struct l2d *d, const struct l2d_addr *peer,
				  const struct l2d_addr *local, bool initiator);
int l2d_tunnel_connect(struct l2d_tunnel *t);	/* LAC: send SCCRQ */
void l2d_tunnel_stop(struct l2d_tunnel *t, uint16_t result, uint16_t error, const char *text);
/*
 * S-OPS-2: @t, filled from a snapshot (IDs, addresses, flags, names, fd),
 * becomes an established tunnel of t->d whose control connection goes on
 * at @ns_una (the next Ns to send, its unacknowledged messages queued by
 * the caller after) and @nr, with the peer's Receive Window Size @window.
 * Return 0, or -1 (nothing registered; the caller frees @t).
 */
int l2d_tunnel_adopt(struct l2d_tunnel *t, uint16_t ns_una, uint16_t nr, uint16_t window);
/* A LAC tunnel's secret: the configured one of its kernel tunnel, or RADIUS's (NULL, "": none). */
void l2d_tunnel_set_secret(struct l2d_tunnel *t, const char *secret);
void l2d_tunnel_flush(struct l2d_tunnel *t);
int l2d_tunnel_queue(struct l2d_tunnel *t, const uint8_t *buf, size_t len);
void l2d_tunnel_time_from_tx(struct l2d_tunnel *t, struct l2d_session *s);
void l2d_tunnel_txwait_drop(struct l2d_tunnel *t, struct l2d_session *s);
/*
 * A new call's ICRQ waits while the tunnel has messages waiting for the
 * send window: l2d_tunnel_icrq_wait() puts @s last in line, and
 * l2d_tunnel_flush() gives each in turn to d->sops->send_icrq() once
 * nothing waits.  Return false (nothing done) when nothing waits.
 */
bool l2d_tunnel_icrq_wait(struct l2d_tunnel *t, struct l2d_session *s);
void l2d_tunnel_icrq_drop(struct l2d_tunnel *t, struct l2d_session *s);
void l2d_tunnel_session_gone(struct l2d_tunnel *t);
void l2d_tunnel_call_started(struct l2d_tunnel *t);
/* The entry of @a's peer, or NULL when it has no tunnel. */
struct l2d_peer *l2d_peer_find(struct l2d *d, const struct l2d_addr *a);
const char *l2d_tstate_name(enum l2d_tstate s);

/* ---- its messages (tunnel_msg.c) ---- */
/* A control message of @t (Session ID @sid, Message Type @type) into @buf. */
void l2d_tunnel_builder(struct l2d_tunnel *t, struct l2tp_builder *b, uint8_t *buf,
			size_t cap, uint16_t sid, uint16_t type);
/* An AVP hidden whenever @t has a secret (a PAP password, §4.3). */
int l2d_tunnel_put_secret(struct l2d_tunnel *t, struct l2tp_builder *b, uint16_t type,
			  const void *val, size_t len);
/* A 16-bit AVP, hidden when @t has a secret and hide-avps asks for it. */
int l2d_tunnel_put_u16(struct l2d_tunnel *t, struct l2tp_builder *b, uint16_t type, uint16_t v);
/* SCCRQ and SCCRP's common AVPs (§6.1, §6.2); a Challenge when @t has a secret. */
void l2d_tunnel_put_sccrx(struct l2d_tunnel *t, struct l2tp_builder *b);
/* Answer the peer's Challenge in @m, if any (§5.1.1).  Return: -1 to clear. */
int l2d_tunnel_put_response(struct l2d_tunnel *t, struct l2tp_builder *b,
			    const struct l2tp_msg *m, uint8_t type);
/* Check the peer's answer to our Challenge.  Return: -1 to clear. */
int l2d_tunnel_check_response(struct l2d_tunnel *t, const struct l2tp_msg *m, uint8_t type);
/* The peer's Assigned Tunnel ID, Receive Window Size and Host Name; -1 without an ID. */
int l2d_tunnel_take_peer_ids(struct l2d_tunnel *t, const struct l2tp_msg *m);
/* @m's Result Code and Error Code, 0 when absent. */
void l2d_tunnel_result_of(const struct l2tp_msg *m, uint16_t *result, uint16_t *error);

#endif
