// SPDX-License-Identifier: GPL-2.0
/* Reliable delivery of control messages, RFC 2661 §5.8 and Appendix A. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "reliable.h"

#define SEQ_HALF 0x8000u	/* §5.8: the 32768 values up to the last are "old" */

void l2tp_rel_init(struct l2tp_rel *r, const struct l2tp_rel_config *cfg)
{
	memset(r, 0, sizeof(*r));
	if (cfg)
		r->cfg = *cfg;
	if (!r->cfg.peer_window)
		r->cfg.peer_window = L2TP_DEFAULT_RWS;
	if (!r->cfg.recv_window)
		r->cfg.recv_window = L2TP_DEFAULT_RWS;
	if (!r->cfg.rto_initial_ms)
		r->cfg.rto_initial_ms = L2TP_REL_RTO_INITIAL_MS;
	if (r->cfg.rto_max_ms < L2TP_REL_RTO_CAP_MIN_MS)
		r->cfg.rto_max_ms = L2TP_REL_RTO_CAP_MIN_MS;
	if (!r->cfg.max_retries)
		r->cfg.max_retries = L2TP_REL_MAX_RETRIES;
	if (!r->cfg.queue_max || r->cfg.queue_max > L2TP_REL_QUEUE_MAX)
		r->cfg.queue_max = L2TP_REL_QUEUE_MAX;
	/* Appendix A: CWND starts at 1, SSTHRESH at the advertised window */
	r->cwnd = 1;
	r->ssthresh = r->cfg.peer_window;
}

void l2tp_rel_resume(struct l2tp_rel *r, uint16_t ns, uint16_t nr)
{
	r->ns_una = r->ns_sent = r->ns_next = ns;
	r->nr = nr;
}

void l2tp_rel_set_peer_tunnel(struct l2tp_rel *r, uint16_t tunnel_id)
{
	r->peer_tunnel_id = tunnel_id;
}

int l2tp_rel_set_peer_window(struct l2tp_rel *r, uint16_t window)
{
	if (!window)
		return -EINVAL;
	r->cfg.peer_window = window;
	r->ssthresh = window;
	if (r->cwnd > window)
		r->cwnd = window;
	return 0;
}

void l2tp_rel_set_max_retries(struct l2tp_rel *r, uint32_t max_retries)
{
	r->cfg.max_retries = max_retries ? max_retries : L2TP_REL_MAX_RETRIES;
}

static uint16_t in_flight(const struct l2tp_rel *r)
{
	return (uint16_t)(r->ns_sent - r->ns_una);
}

static uint16_t queued(const struct l2tp_rel *r)
{
	return (uint16_t)(r->ns_next - r->ns_una);
}

uint32_t l2tp_rel_queued(const struct l2tp_rel *r)
{
	return queued(r);
}

uint32_t l2tp_rel_waiting(const struct l2tp_rel *r)
{
	return (uint16_t)(r->ns_next - r->ns_sent);
}

static struct l2tp_rel_msg *slot(const struct l2tp_rel *r, uint16_t ns)
{
	return r->q[ns & (r->qcap - 1)];
}

/* Free the messages from ns_una up to (not including) @upto. */
static void release(struct l2tp_rel *r, uint16_t upto)
{
	uint16_t ns;

	for (ns = r->ns_una; ns != upto; ns++) {
		free(r->q[ns & (r->qcap - 1)]);
		r->q[ns & (r->qcap - 1)] = NULL;
	}
}

uint32_t l2tp_rel_drop_unsent(struct l2tp_rel *r)
{
	uint32_t n = l2tp_rel_waiting(r);
	uint16_t ns;

	for (ns = r->ns_sent; ns != r->ns_next; ns++) {
		free(r->q[ns & (r->qcap - 1)]);
		r->q[ns & (r->qcap - 1)] = NULL;
	}
	r->ns_next = r->ns_sent;
	return n;
}

/* The send ring's memory, given back when nothing is queued. */
static void free_ring(struct l2tp_rel *r)
{
	if (r->q)
		release(r, r->ns_next);
	free(r->q);
	r->q = NULL;
	r->qcap = 0;
}

void l2tp_rel_stats_add(struct l2tp_rel_stats *to, const struct l2tp_rel_stats *from)
{
	to->delivered += from->delivered;
	to->duplicates += from->duplicates;
	to->out_of_order += from->out_of_order;
	to->out_of_window += from->out_of_window;
	to->bad_nr += from->bad_nr;
	to->sent += from->sent;
	to->retransmits += from->retransmits;
	to->zlb_sent += from->zlb_sent;
	to->zlb_received += from->zlb_received;
	to->acked += from->acked;
	if (from->queue_peak > to->queue_peak)
		to->queue_peak = from->queue_peak;
	to->queue_full += from->queue_full;
	to->stashed += from->stashed;
	to->unstashed += from->unstashed;
}

void l2tp_rel_destroy(struct l2tp_rel *r)
{
	uint32_t i;

	free_ring(r);
	for (i = 0; i < r->heldcap; i++)
		free(r->held[i].m);
	free(r->held);
	r->held = NULL;
	r->heldcap = 0;
}

int l2tp_rel_stash(struct l2tp_rel *r, uint16_t ns, const uint8_t *buf, size_t len)
{
	uint16_t ahead = (uint16_t)(ns - r->nr);
	struct l2tp_rel_held *h;
	struct l2tp_rel_msg *m;

	if (!ahead || ahead >= r->cfg.recv_window)
		return -ERANGE;
	if (len > L2TP_REL_MSG_MAX)
		return -EMSGSIZE;
	if (!r->held) {
		uint32_t cap = 1;

		while (cap < r->cfg.recv_window)
			cap *= 2;
		r->held = calloc(cap, sizeof(*r->held));
		if (!r->held)
			return -ENOMEM;
		r->heldcap = cap;
	}
	m = malloc(sizeof(*m) + len);
	if (!m)
		return -ENOMEM;
	m->len = (uint16_t)len;
	memcpy(m->data, buf, len);
	/* inside the window each Ns has a slot of its own: a copy is replaced */
	h = &r->held[ns & (r->heldcap - 1)];
	free(h->m);
	h->ns = ns;
	h->m = m;
	r->stats.stashed++;
	return 0;
}

size_t l2tp_rel_unstash(struct l2tp_rel *r, uint8_t *buf, size_t cap)
{
	struct l2tp_rel_held *h;
	size_t len;

	if (!r->held)
		return 0;
	/* a kept Ns is freed when it is delivered: the slot's is ahead of nr */
	h = &r->held[r->nr & (r->heldcap - 1)];
	if (!h->m || h->ns != r->nr || h->m->len > cap)
		return 0;
	len = h->m->len;
	memcpy(buf, h->m->data, len);
	free(h->m);
	h->m = NULL;
	r->stats.unstashed++;
	return len;
}

void l2tp_rel_reset(struct l2tp_rel *r, const struct l2tp_rel_config *cfg)
{
	l2tp_rel_destroy(r);
	l2tp_rel_init(r, cfg);
}

/* Room for one more message: double the ring, keeping each at Ns & (cap - 1). */
static int grow(struct l2tp_rel *r)
{
	uint32_t cap = r->qcap ? r->qcap * 2 : 8;
	struct l2tp_rel_msg **q = calloc(cap, sizeof(*q));
	uint16_t ns;

	if (!q)
		return -ENOMEM;
	for (ns = r->ns_una; ns != r->ns_next; ns++)
		q[ns & (cap - 1)] = r->q[ns & (r->qcap - 1)];
	free(r->q);
	r->q = q;
	r->qcap = cap;
	return 0;
}

void l2tp_rel_hold(struct l2tp_rel *r, uint16_t ns)
{
	r->hold = true;
	r->hold_ns = ns;
}

/* l2tp_rel_hold(): hold_ns has gone out and is not acknowledged yet. */
static bool held(const struct l2tp_rel *r)
{
	return r->hold && (uint16_t)(r->ns_sent - r->hold_ns - 1) < SEQ_HALF &&
	       (uint16_t)(r->hold_ns - r->ns_una) < SEQ_HALF;
}

int l2tp_rel_queue(struct l2tp_rel *r, const uint8_t *msg, size_t len)
{
	struct l2tp_rel_msg *m;
	uint16_t ns = r->ns_next;

	if (r->dead)
		return -EPIPE;
	if (len < L2TP_CTRL_HDR_LEN || len > L2TP_REL_MSG_MAX)
		return -EMSGSIZE;
	if (queued(r) >= r->cfg.queue_max) {
		r->stats.queue_full++;
		return -ENOBUFS;
	}
	if (queued(r) >= r->qcap && grow(r))
		return -ENOMEM;
	m = malloc(sizeof(*m) + len);
	if (!m)
		return -ENOMEM;
	memcpy(m->data, msg, len);
	m->len = (uint16_t)len;
	r->q[ns & (r->qcap - 1)] = m;
	r->ns_next++;
	if (queued(r) > r->stats.queue_peak)
		r->stats.queue_peak = queued(r);
	return ns;
}

/* How long a partial ack after a timeout waits for the next ack (above). */
static uint32_t settle_ms(const struct l2tp_rel *r)
{
	uint32_t ms = r->cfg.rto_initial_ms / 4;

	return ms ? ms : 1;
}

static void start_timer(struct l2tp_rel *r, uint64_t now)
{
	r->retries = 0;
	r->rto_cur_ms = r->cfg.rto_initial_ms;
	r->rto_deadline = now + r->rto_cur_ms;
}

/* Appendix A: one more acknowledged message opens the window. */
static void cwnd_on_ack(struct l2tp_rel *r)
{
	if (r->cwnd < r->ssthresh) {
		r->cwnd++;
	} else if (++r->cwnd_acks >= r->cwnd) {
		r->cwnd++;
		r->cwnd_acks = 0;
	}
	if (r->cwnd > r->cfg.peer_window)
		r->cwnd = r->cfg.peer_window;
}

/* @acked messages up to @nr acknowledged (RFC 2661 section 5.8): released, the window grows. */
static void on_ack(struct l2tp_rel *r, uint16_t nr, uint16_t acked, uint64_t now_ms)
{
	release(r, nr);
	r->ns_una = nr;
	if (!queued(r) && r->qcap > 8)
		free_ring(r);	/* idle: give a storm's ring back */
	r->stats.acked += acked;
	if (r->hold && (uint16_t)(r->ns_una - r->hold_ns - 1) < SEQ_HALF)
		r->hold = false;
	while (acked--)
		cwnd_on_ack(r);
	if (in_flight(r))
		start_timer(r, now_ms);
	if (r->recovering) {
		uint16_t left = (uint16_t)(r->recover_ns - r->ns_una);

		/*
		 * Partial ack: either the peer dropped what followed the
		 * lost one (it acks once, then goes quiet) or it is only
		 * working through a backlog in order (more acks follow at
		 * once: a peer stalled past our timer).  Resending now
		 * would hand the second kind Ns it already has, which a
		 * strict peer logs and drops as out of order (xl2tpd's
		 * "got 1, expected 2").  So wait a settle time, moved by
		 * every further ack, before resending the new head.
		 */
		if (left && left < SEQ_HALF && in_flight(r)) {
			r->resend_head = true;
			r->resend_at = now_ms + settle_ms(r);
		} else {
			r->recovering = false;
			r->resend_head = false;
		}
	}
}

enum l2tp_rel_rx l2tp_rel_receive(struct l2tp_rel *r, const struct l2tp_hdr *hdr,
				  uint64_t now_ms)
{
	uint16_t acked = (uint16_t)(hdr->nr - r->ns_una);
	uint16_t ahead;

	/*
	 * Nr: the next Ns the peer expects.  Within [una, sent] it acknowledges
	 * messages; just before una it is an old ack (reordering); beyond sent
	 * it acknowledges what we never sent, and the message is not trusted.
	 */
	if (acked > in_flight(r)) {
		if (acked < SEQ_HALF) {
			r->stats.bad_nr++;
			return L2TP_REL_BAD_NR;
		}
	} else if (acked) {
		on_ack(r, hdr->nr, acked, now_ms);
	}

	if (hdr->zlb) {
		/* §5.8: a ZLB takes no slot; its Ns does not move our Nr */
		r->stats.zlb_received++;
		return L2TP_REL_ACK_ONLY;
	}

	ahead = (uint16_t)(hdr->ns - r->nr);
	if (ahead == 0) {
		if (r->held) {
			struct l2tp_rel_held *h = &r->held[hdr->ns & (r->heldcap - 1)];

			if (h->m && h->ns == hdr->ns) {
				free(h->m);	/* kept earlier: this copy is delivered */
				h->m = NULL;
			}
		}
		r->nr++;
		r->stats.delivered++;
		if (!r->ack_pending) {
			r->ack_pending = true;
			r->ack_due = now_ms + r->cfg.ack_delay_ms;
		}
		/* half our window owed: ack at once, the peer may be out of window */
		if (++r->unacked * 2 >= r->cfg.recv_window)
			r->ack_due = now_ms;
		return L2TP_REL_DELIVER;
	}
	if (ahead >= SEQ_HALF) {
		/* §5.8: a duplicate MUST be acknowledged (the ZLB may be lost) */
		r->stats.duplicates++;
		r->ack_pending = true;
		r->ack_due = now_ms;
		return L2TP_REL_DUPLICATE;
	}
	if (ahead < r->cfg.recv_window) {
		r->stats.out_of_order++;
		return L2TP_REL_OUT_OF_ORDER;
	}
	r->stats.out_of_window++;
	return L2TP_REL_OUT_OF_WINDOW;
}

static void tx_slot(struct l2tp_rel *r, uint16_t ns, bool retransmit,
		    struct l2tp_rel_tx *tx)
{
	struct l2tp_rel_msg *m = slot(r, ns);

	/* §5.8: a retransmission keeps its Ns but carries the current Nr */
	l2tp_hdr_set_seq(m->data, ns, r->nr);
	tx->data = m->data;
	tx->len = m->len;
	tx->ns = ns;
	tx->retransmit = retransmit;
	tx->timeout = false;
	tx->zlb = false;
	tx->ack = false;
	/*
	 * Only a new message settles an owed ack (piggybacked, §5.8).  A copy
	 * may reach a peer that holds that Ns already: it owes the duplicate
	 * an ack and nothing more, and may drop it whole, Nr unread (xl2tpd
	 * does).  Then the ack it carried is lost, and with our window full
	 * (or CWND back at 1 after the timeout, Appendix A) nothing new goes
	 * that could carry it: the ZLB still goes by the ack delay (S-STORM-3).
	 */
	if (!retransmit) {
		tx->ack = r->ack_pending;
		r->ack_pending = false;
		r->unacked = 0;
	}
}

enum l2tp_rel_event l2tp_rel_poll(struct l2tp_rel *r, uint64_t now_ms,
				  struct l2tp_rel_tx *tx)
{
	uint32_t window;

	if (r->dead) {
		if (r->dead_reported)
			return L2TP_REL_IDLE;
		r->dead_reported = true;
		return L2TP_REL_GIVE_UP;
	}

	if (r->resend_head && now_ms >= r->resend_at) {
		r->resend_head = false;
		if (in_flight(r)) {
			r->stats.retransmits++;
			tx_slot(r, r->ns_una, true, tx);
			return L2TP_REL_TRANSMIT;
		}
	}

	if (in_flight(r) && now_ms >= r->rto_deadline) {
		if (r->retries >= r->cfg.max_retries) {
			/* §5.8: the tunnel and all its sessions MUST be cleared */
			r->dead = true;
			r->dead_reported = true;
			return L2TP_REL_GIVE_UP;
		}
		r->retries++;
		/* §5.8: exponential back-off, capped */
		r->rto_cur_ms = r->rto_cur_ms > r->cfg.rto_max_ms / 2 ?
				r->cfg.rto_max_ms : r->rto_cur_ms * 2;
		r->rto_deadline = now_ms + r->rto_cur_ms;
		/* Appendix A: congestion: half to SSTHRESH, CWND back to 1 */
		r->ssthresh = r->cwnd / 2 ? r->cwnd / 2 : 1;
		r->cwnd = 1;
		r->cwnd_acks = 0;
		r->recovering = true;
		r->recover_ns = r->ns_sent;
		r->stats.retransmits++;
		tx_slot(r, r->ns_una, true, tx);
		tx->timeout = true;
		return L2TP_REL_TRANSMIT;
	}

	window = r->cwnd < r->cfg.peer_window ? r->cwnd : r->cfg.peer_window;
	if (r->ns_sent != r->ns_next && in_flight(r) < window && !held(r)) {
		if (!in_flight(r))
			start_timer(r, now_ms);
		tx_slot(r, r->ns_sent, false, tx);
		r->ns_sent++;
		r->stats.sent++;
		return L2TP_REL_TRANSMIT;
	}

	if (r->ack_pending && now_ms >= r->ack_due) {
		/* §5.8: a ZLB carries the next Ns without taking it */
		tx->len = l2tp_build_zlb(r->zlb, sizeof(r->zlb), r->peer_tunnel_id,
					 r->ns_sent, r->nr);
		tx->data = r->zlb;
		tx->ns = r->ns_sent;
		tx->retransmit = false;
		tx->timeout = false;
		tx->zlb = true;
		tx->ack = true;
		r->ack_pending = false;
		r->unacked = 0;
		r->stats.zlb_sent++;
		return L2TP_REL_TRANSMIT;
	}
	return L2TP_REL_IDLE;
}

void l2tp_rel_tx_failed(struct l2tp_rel *r, const struct l2tp_rel_tx *tx, uint64_t now_ms)
{
	/*
	 * §5.8: the peer is owed the ack still.  Not at once: the socket that
	 * refused this one would likely refuse a ZLB in the same turn, and
	 * the peer's timer (1 s recommended, §5.8) leaves time for a retry.
	 */
	if (!tx->ack || r->ack_pending)
		return;
	r->ack_pending = true;
	r->ack_due = now_ms + settle_ms(r);
}

uint64_t l2tp_rel_next_event(const struct l2tp_rel *r, uint64_t now_ms)
{
	uint64_t next = UINT64_MAX;
	uint32_t window = r->cwnd < r->cfg.peer_window ? r->cwnd : r->cfg.peer_window;

	if (r->dead)
		return r->dead_reported ? UINT64_MAX : now_ms;
	if (r->ns_sent != r->ns_next && in_flight(r) < window && !held(r))
		return now_ms;
	if (in_flight(r))
		next = r->rto_deadline;
	if (r->resend_head && r->resend_at < next)
		next = r->resend_at > now_ms ? r->resend_at : now_ms;
	if (r->ack_pending && r->ack_due < next)
		next = r->ack_due;
	return next;
}

bool l2tp_rel_all_acked(const struct l2tp_rel *r)
{
	return queued(r) == 0;
}

uint64_t l2tp_rel_cycle_ms(const struct l2tp_rel *r)
{
	uint64_t total = 0, rto = r->cfg.rto_initial_ms;
	uint32_t i;

	/* the first send, max_retries retransmissions, then the last wait */
	for (i = 0; i <= r->cfg.max_retries; i++) {
		total += rto;
		rto = rto * 2 > r->cfg.rto_max_ms ? r->cfg.rto_max_ms : rto * 2;
	}
	return total;
}

const char *l2tp_rel_rx_name(enum l2tp_rel_rx rx)
{
	static const char *const names[] = {
		[L2TP_REL_DELIVER] = "deliver",
		[L2TP_REL_ACK_ONLY] = "ack only",
		[L2TP_REL_DUPLICATE] = "duplicate",
		[L2TP_REL_OUT_OF_ORDER] = "out of order",
		[L2TP_REL_OUT_OF_WINDOW] = "out of window",
		[L2TP_REL_BAD_NR] = "Nr acknowledges unsent",
	};

	return (unsigned int)rx < sizeof(names) / sizeof(names[0]) ? names[rx] : "unknown";
}
