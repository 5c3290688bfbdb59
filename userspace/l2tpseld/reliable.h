/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reliable delivery of control messages, RFC 2661 §5.8 and Appendix A, for
 * one tunnel.  No clock and no socket of its own: the caller passes the time
 * in (milliseconds, any monotonic origin) and sends what l2tp_rel_poll()
 * hands out.  The event loop is
 *
 *	datagram in -> l2tp_msg_parse() -> l2tp_rel_receive() -> FSM
 *	FSM reply   -> l2tp_rel_queue()
 *	then, and when l2tp_rel_next_event() is due:
 *	while (l2tp_rel_poll(r, now, &tx) == L2TP_REL_TRANSMIT) send(tx);
 *
 * Choices where §5.8 leaves room (Documentation/l2tp-protocol.md):
 * - a message ahead of the next expected, inside our receive window, is
 *   kept (l2tp_rel_stash()) and handed back in order (l2tp_rel_unstash())
 *   once the gap is filled: a path that reorders costs no retransmission;
 * - a message whose Nr acknowledges something never sent is dropped whole;
 * - retransmission resends only the oldest unacknowledged message and
 *   restarts slow start (Appendix A); each message has its own retry count;
 * - after such a timeout, an ack that covers only part of what was in flight
 *   resends the next oldest after a settle time (rto_initial_ms / 4) with no
 *   further ack (the peer dropped it as out of order, as we would), instead
 *   of waiting for its own timer; an ack within it means the peer is just
 *   working through its backlog, and nothing it holds is resent;
 * - an ack owed is piggybacked on the next new message sent; if none is sent
 *   by ack_delay_ms (default 0: at the end of the same event-loop turn) a
 *   ZLB goes; a duplicate is always acknowledged at once, and so is half of
 *   our receive window (the peer's sender would stall on a full one, waiting
 *   for the delay: a storm of ICCNs, which have no reply to ride on);
 * - nothing else settles an owed ack (S-STORM-3): not a message waiting for
 *   our send window, slow start's CWND (Appendix A) or l2tp_rel_hold(), not
 *   a retransmission (a copy of what the peer may hold already, and a peer
 *   may drop a duplicate whole, its Nr unread: xl2tpd does), not a datagram
 *   the socket refused (l2tp_rel_tx_failed());
 * - l2tp_rel_hold() keeps what follows one message back until that message
 *   is acknowledged, whatever the window (the LAC after SCCCN).
 */
#ifndef L2D_RELIABLE_H
#define L2D_RELIABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "l2tp.h"
#include "msg.h"

/*
 * Messages held, in flight and waiting for the window: the queue grows as
 * needed up to this bound (a tunnel's whole share of the Ns space must stay
 * under half of it, §5.8), so a login storm waits for the window instead of
 * failing; an empty queue holds no memory.
 */
#define L2TP_REL_QUEUE_MAX	16384
#define L2TP_REL_MSG_MAX	1500	/* the largest message we queue */
#define L2TP_REL_WINDOW_MAX	256	/* the largest Receive Window Size we advertise */

#define L2TP_REL_RTO_INITIAL_MS	1000	/* §5.8 recommended default */
#define L2TP_REL_RTO_CAP_MIN_MS	8000	/* §5.8: a cap MUST be >= 8 s */
#define L2TP_REL_MAX_RETRIES	5	/* §5.8 recommended default */

struct l2tp_rel_config {
	uint16_t peer_window;	/* peer's Receive Window Size; 0: 4 (§5.8) */
	uint16_t recv_window;	/* ours, as advertised; 0: 4 */
	uint32_t rto_initial_ms;	/* 0: 1000 */
	uint32_t rto_max_ms;		/* raised to 8000 if below */
	uint32_t max_retries;		/* 0: 5 */
	uint32_t ack_delay_ms;
	uint32_t queue_max;		/* messages held; 0: L2TP_REL_QUEUE_MAX */
};

enum l2tp_rel_rx {
	L2TP_REL_DELIVER,	/* next in order: give it to the FSM */
	L2TP_REL_ACK_ONLY,	/* a ZLB: its Nr was taken */
	L2TP_REL_DUPLICATE,	/* seen before: dropped, a ZLB is owed */
	L2TP_REL_OUT_OF_ORDER,	/* ahead, inside our window: l2tp_rel_stash() it */
	L2TP_REL_OUT_OF_WINDOW,	/* ahead, beyond our window: dropped */
	L2TP_REL_BAD_NR,	/* acknowledges what we never sent: dropped */
};

enum l2tp_rel_event {
	L2TP_REL_IDLE,		/* nothing to do before l2tp_rel_next_event() */
	L2TP_REL_TRANSMIT,	/* send tx->data, tx->len */
	L2TP_REL_GIVE_UP,	/* max retries without an ack: no reply (S-SEL-4) */
};

struct l2tp_rel_tx {
	const uint8_t *data;
	size_t len;
	uint16_t ns;
	bool retransmit;
	bool timeout;		/* the retransmission timer's (else a partial ack's) */
	bool zlb;
	bool ack;		/* it carried an ack that was owed (a ZLB, a new message) */
};

struct l2tp_rel_stats {
	uint64_t delivered, duplicates, out_of_order, out_of_window, bad_nr;
	uint64_t sent, retransmits, zlb_sent, zlb_received, acked;
	uint32_t queue_peak;		/* most messages held at once */
	uint64_t queue_full;		/* l2tp_rel_queue() refused: -ENOBUFS */
	uint64_t stashed, unstashed;	/* kept out of order, handed back in order */
};

/* A message received ahead of its turn, kept until the gap is filled. */
struct l2tp_rel_held {
	uint16_t ns;
	struct l2tp_rel_msg *m;		/* NULL: the slot is free */
};

/* One queued message: its length, then its bytes. */
struct l2tp_rel_msg {
	uint16_t len;
	uint8_t data[];
};

struct l2tp_rel {
	struct l2tp_rel_config cfg;
	uint16_t peer_tunnel_id;	/* for ZLBs */
	uint16_t ns_una;	/* oldest unacknowledged Ns */
	uint16_t ns_sent;	/* next Ns not yet transmitted */
	uint16_t ns_next;	/* next Ns to queue */
	uint16_t nr;		/* next Ns expected from the peer */
	uint32_t cwnd, ssthresh, cwnd_acks;	/* Appendix A */
	uint32_t rto_cur_ms, retries;	/* of the oldest in flight */
	uint64_t rto_deadline;
	bool recovering;	/* a timeout retransmission is outstanding */
	uint16_t recover_ns;	/* ns_sent when it happened */
	bool resend_head;	/* partial ack during recovery: resend at resend_at */
	bool hold;		/* nothing after hold_ns is sent before it is acked */
	uint16_t hold_ns;
	uint64_t resend_at;	/* unless another ack comes first */
	bool ack_pending;
	uint16_t unacked;	/* delivered since the last ack went out */
	uint64_t ack_due;
	bool dead, dead_reported;
	struct l2tp_rel_stats stats;
	uint8_t zlb[L2TP_CTRL_HDR_LEN];
	struct l2tp_rel_msg **q;	/* ring by Ns & (qcap - 1); NULL when empty */
	uint32_t qcap;			/* a power of two, or 0 */
	struct l2tp_rel_held *held;	/* by Ns & (heldcap - 1); NULL when none yet */
	uint32_t heldcap;		/* a power of two >= recv_window, or 0 */
};

/*
 * @cfg may be NULL for the RFC's defaults.  @r is overwritten: a queue it
 * held must have been released with l2tp_rel_destroy() first.
 */
void l2tp_rel_init(struct l2tp_rel *r, const struct l2tp_rel_config *cfg);
/* Free every queued message; @r may be initialised again afterwards. */
void l2tp_rel_destroy(struct l2tp_rel *r);
/* Add @from's counters into @to (queue_peak: the larger of the two). */
void l2tp_rel_stats_add(struct l2tp_rel_stats *to, const struct l2tp_rel_stats *from);
/* l2tp_rel_destroy(), then l2tp_rel_init(): @r starts over. */
void l2tp_rel_reset(struct l2tp_rel *r, const struct l2tp_rel_config *cfg);
void l2tp_rel_set_peer_tunnel(struct l2tp_rel *r, uint16_t tunnel_id);
/* From the peer's Receive Window Size AVP. Return: -EINVAL for 0 (§5.8). */
int l2tp_rel_set_peer_window(struct l2tp_rel *r, uint16_t window);
/*
 * An empty @r takes up a control connection where another process left it
 * (S-OPS-2): the next message queued gets Ns @ns, and @nr is the next Ns
 * expected from the peer.
 */
void l2tp_rel_resume(struct l2tp_rel *r, uint16_t ns, uint16_t nr);
/* E.g. fewer retries before the tunnel is up than after. */
void l2tp_rel_set_max_retries(struct l2tp_rel *r, uint32_t max_retries);

/*
 * Send nothing queued after Ns @ns (the next to queue, say) before @ns is
 * acknowledged, whatever the window.  The LAC calls it after queueing SCCCN:
 * the first message after it may go with it, the rest wait for its ack.
 */
void l2tp_rel_hold(struct l2tp_rel *r, uint16_t ns);

/*
 * Queue a built message (Ns and Nr are filled in at each transmission).
 * It waits for the window as long as it must.  Return: its Ns, or -ENOBUFS
 * (queue_max messages held), -ENOMEM, -EMSGSIZE, -EPIPE (given up).
 */
int l2tp_rel_queue(struct l2tp_rel *r, const uint8_t *msg, size_t len);

/*
 * Forget the messages queued and never sent: the peer cleared the tunnel (a
 * StopCCN received, §5.7), so nothing queued before may still go; the next
 * message queued takes the next Ns.  Those in flight stay until
 * acknowledged.  Return: how many were dropped.
 */
uint32_t l2tp_rel_drop_unsent(struct l2tp_rel *r);

/*
 * Keep a message l2tp_rel_receive() found L2TP_REL_OUT_OF_ORDER: @buf holds
 * its bytes as received (before l2tp_msg_parse() decoded hidden AVPs in
 * place).  A second copy of the same Ns replaces the first.  Return: 0,
 * -ERANGE (not ahead inside our window), -EMSGSIZE, -ENOMEM; the caller then
 * drops it and the peer retransmits, as without the stash.
 */
int l2tp_rel_stash(struct l2tp_rel *r, uint16_t ns, const uint8_t *buf, size_t len);

/*
 * The kept message that is next in order (Ns == the next expected), taken
 * out and copied to @buf, to go through l2tp_msg_parse() and
 * l2tp_rel_receive() as if it had just arrived.  Call it after each
 * L2TP_REL_DELIVER until it returns 0.  Return: its length, or 0 for none.
 */
size_t l2tp_rel_unstash(struct l2tp_rel *r, uint8_t *buf, size_t cap);

/* Messages held (in flight and waiting), and of them those not yet sent. */
uint32_t l2tp_rel_queued(const struct l2tp_rel *r);
uint32_t l2tp_rel_waiting(const struct l2tp_rel *r);

/* Take a received control header (only after l2tp_msg_parse() kept it). */
enum l2tp_rel_rx l2tp_rel_receive(struct l2tp_rel *r, const struct l2tp_hdr *hdr,
				  uint64_t now_ms);

enum l2tp_rel_event l2tp_rel_poll(struct l2tp_rel *r, uint64_t now_ms,
				  struct l2tp_rel_tx *tx);

/*
 * The datagram @tx that l2tp_rel_poll() handed out did not leave: the
 * socket refused it (full, say).  A message stays in flight and goes again
 * on its timer; the ack it carried is owed again, a ZLB due a settle time
 * (rto_initial_ms / 4) from @now_ms unless a new message carries it first.
 */
void l2tp_rel_tx_failed(struct l2tp_rel *r, const struct l2tp_rel_tx *tx, uint64_t now_ms);

/* Return: when l2tp_rel_poll() has work next; UINT64_MAX for never. */
uint64_t l2tp_rel_next_event(const struct l2tp_rel *r, uint64_t now_ms);

/* Return: true when every queued message has been acknowledged. */
bool l2tp_rel_all_acked(const struct l2tp_rel *r);

/* Return: the full retransmission cycle, e.g. 31 s with the defaults (§5.7). */
uint64_t l2tp_rel_cycle_ms(const struct l2tp_rel *r);

const char *l2tp_rel_rx_name(enum l2tp_rel_rx rx);

#endif
