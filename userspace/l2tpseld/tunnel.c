// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld: the control connection (tunnel), RFC 2661 §5.1, §5.7, §7.2, on
 * top of the parser (msg.c) and reliable delivery (reliable.c): creation,
 * transmission, timers, and every exit that clears a tunnel:
 * l2d_tunnel_stop_end() (StopCCN, held for one full retransmission cycle,
 * §5.7) or l2d_tunnel_kill() (nothing to send).  Its input is tunnel_rx.c's,
 * a new peer's SCCRQ tunnel_accept.c's (tunnel_int.h).
 *
 *   LAC: IDLE -SCCRQ-> WAIT_SCCRP -SCCRP/SCCCN-> ESTABLISHED
 *   LNS: (SCCRQ) -SCCRP-> WAIT_SCCCN -SCCCN-> ESTABLISHED
 *   any: StopCCN sent or received -> CLOSING -(cycle)-> DEAD -> freed
 *
 * The setup timer (sccrq-timeout) runs beside retransmission: an
 * SCCRQ answered by ZLBs only still ends as "no reply".
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/l2tpsel.h>

#include "auth.h"
#include "l2d.h"
#include "session.h"
#include "tunnel.h"
#include "tunnel_int.h"

static const char *const tstate_names[] = {
	[L2D_T_IDLE] = "idle", [L2D_T_WAIT_SCCRP] = "wait-sccrp",
	[L2D_T_WAIT_SCCCN] = "wait-scccn", [L2D_T_ESTABLISHED] = "established",
	[L2D_T_CLOSING] = "closing", [L2D_T_DEAD] = "dead",
};

const char *l2d_tstate_name(enum l2d_tstate s)
{
	return (unsigned int)s < sizeof(tstate_names) / sizeof(*tstate_names) ? tstate_names[s] : "?";
}

/* ---- accounting, LNS tunnels in setup, idle LNS tunnels ---- */

/* The tunnel is no longer up: its Tunnel-Stop record, once (access_acct.c). */
void l2d_tunnel_acct_down(struct l2d_tunnel *t)
{
	struct l2d *d = t->d;

	if (t->acct_up && d->aops && d->aops->tunnel_gone)
		d->aops->tunnel_gone(d, t);
}
static void idle_timeout(struct l2d_timer *tm);

/* LNS: a tunnel without calls is closed after lns-idle-timeout. */
void l2d_tunnel_idle_arm(struct l2d_tunnel *t)
{
	struct l2d *d = t->d;

	if (t->initiator || t->sessions || !d->conf->lns_idle_ms || t->state != L2D_T_ESTABLISHED)
		return;
	l2d_timer_arm(d->loop, &t->idle_timer, l2d_now(d->loop) + d->conf->lns_idle_ms);
}

void l2d_tunnel_call_started(struct l2d_tunnel *t)
{
	l2d_timer_cancel(t->d->loop, &t->idle_timer);
}

/* ---- creation ---- */

static bool tid_taken(const struct l2d *d, uint16_t id)
{
	return d->tun_by_id[id];
}

static void setup_timeout(struct l2d_timer *tm);
static void rel_timeout(struct l2d_timer *tm);
static void hold_timeout(struct l2d_timer *tm);
static void hello_timeout(struct l2d_timer *tm);

static void timers_init(struct l2d_tunnel *t)
{
	l2d_timer_init(&t->setup_timer, setup_timeout, t);
	l2d_timer_init(&t->rel_timer, rel_timeout, t);
	l2d_timer_init(&t->hold_timer, hold_timeout, t);
	l2d_timer_init(&t->hello_timer, hello_timeout, t);
	l2d_timer_init(&t->idle_timer, idle_timeout, t);
}

struct l2d_tunnel *l2d_tunnel_create(struct l2d *d, const struct l2d_addr *peer,
				     const struct l2d_addr *local, bool initiator, bool own_port)
{
	struct l2tp_rel_config rc = {
		.recv_window = d->conf->recv_window,
		.rto_initial_ms = d->conf->rto_initial_ms,
		.rto_max_ms = d->conf->rto_max_ms,
		.ack_delay_ms = d->conf->ack_delay_ms,
		.max_retries = d->conf->retries_setup,
	};
	struct l2d_tunnel *t;
	uint16_t tid = l2d_alloc_id(d, tid_taken);

	if (!tid) {
		l2d_log(d, L2D_LOG_ERR, "no tunnel id left");
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->d = d;
	t->tid = tid;
	t->initiator = initiator;
	t->lac = initiator;
	t->lns = !initiator;
	t->own_port = own_port;
	t->peer = *peer;
	t->dest = *peer;
	if (local)
		t->local = *local;
	t->fd = -1;
	t->txfd = -1;
	l2tp_rel_init(&t->rel, &rc);
	timers_init(t);
	if (l2d_peer_attach(t)) {
		l2tp_rel_destroy(&t->rel);
		free(t);
		return NULL;
	}
	if (d->env->tunnel_open && d->env->tunnel_open(d, t)) {
		l2d_peer_detach(t);
		l2tp_rel_destroy(&t->rel);
		free(t);
		return NULL;
	}
	t->next = d->tunnels;
	d->tunnels = t;
	d->tun_by_id[tid] = t;
	d->n_tunnels++;
	return t;
}

struct l2d_tunnel *l2d_tunnel_new(struct l2d *d, const struct l2d_addr *peer,
				  const struct l2d_addr *local, bool initiator)
{
	return l2d_tunnel_create(d, peer, local, initiator, false);
}

/*
 * S-OPS-2: a tunnel handed over by the agent this one replaced (snap.c).
 * Its kernel tunnel and sockets live on; the control connection takes up
 * where it was (RFC 2661 section 5.8): the next Ns is the oldest the peer
 * has not acknowledged (those messages are queued again and sent as a
 * retransmission), the next Nr what we had delivered.
 */
int l2d_tunnel_adopt(struct l2d_tunnel *t, uint16_t ns_una, uint16_t nr, uint16_t window)
{
	struct l2d *d = t->d;
	struct l2tp_rel_config rc = {
		.peer_window = window,
		.recv_window = d->conf->recv_window,
		.rto_initial_ms = d->conf->rto_initial_ms,
		.rto_max_ms = d->conf->rto_max_ms,
		.ack_delay_ms = d->conf->ack_delay_ms,
		.max_retries = d->conf->retries_established,
	};

	l2tp_rel_init(&t->rel, &rc);
	l2tp_rel_set_peer_tunnel(&t->rel, t->peer_tid);
	l2tp_rel_resume(&t->rel, ns_una, nr);
	t->state = L2D_T_ESTABLISHED;
	t->heard_ms = now_ms(d);
	timers_init(t);
	if (l2d_peer_attach(t)) {
		l2tp_rel_destroy(&t->rel);
		return -1;
	}
	if (d->env->tunnel_adopt && d->env->tunnel_adopt(d, t)) {
		l2d_peer_detach(t);
		l2tp_rel_destroy(&t->rel);
		return -1;
	}
	if (t->lns && !t->initiator) {
		t->lns_up = true;
		t->p->lns_up++;
		d->n_lns_up++;
	}
	t->next = d->tunnels;
	d->tunnels = t;
	d->tun_by_id[t->tid] = t;
	d->n_tunnels++;
	if (d->conf->hello_ms)
		l2d_timer_arm(d->loop, &t->hello_timer, now_ms(d) + d->conf->hello_ms);
	return 0;
}

static void tunnel_set_secret(struct l2d_tunnel *t, const char *secret)
{
	size_t n = secret ? strlen(secret) : 0;

	if (!n || n >= sizeof(t->secret)) {
		t->has_secret = false;
		return;
	}
	memcpy(t->secret, secret, n);
	t->secret_len = n;
	t->sec.data = t->secret;
	t->sec.len = n;
	t->has_secret = true;
}

void l2d_tunnel_free(struct l2d_tunnel *t)
{
	struct l2d *d = t->d;

	l2d_timer_cancel(d->loop, &t->setup_timer);
	l2d_timer_cancel(d->loop, &t->rel_timer);
	l2d_timer_cancel(d->loop, &t->hold_timer);
	l2d_timer_cancel(d->loop, &t->hello_timer);
	l2d_timer_cancel(d->loop, &t->idle_timer);
	l2d_lns_setup_done(t);
	l2d_tunnel_acct_down(t);
	if (t->dp_added && d->dpops)
		d->dpops->tunnel_del(d, t);
	if (d->env->tunnel_close)
		d->env->tunnel_close(d, t);
	if (d->tun_by_id[t->tid] == t)
		d->tun_by_id[t->tid] = NULL;
	if (t->lns_up) {
		t->p->lns_up--;
		d->n_lns_up--;
	}
	l2d_peer_detach(t);
	d->n_tunnels--;
	memset(t->secret, 0, sizeof(t->secret));
	l2tp_rel_stats_add(&d->stats.rel_gone, &t->rel.stats);
	l2tp_rel_destroy(&t->rel);
	free(t);
}

/* @t was set up with @secret (NULL or "": none). */
static bool same_secret(const struct l2d_tunnel *t, const char *secret)
{
	size_t n = secret ? strlen(secret) : 0;

	if (!n || n >= sizeof(t->secret))
		return !t->has_secret;
	return t->has_secret && t->secret_len == n && !memcmp(t->secret, secret, n);
}

/*
 * The tunnel for a destination as configured: its address and port as the
 * SCCRQ went, not the port the LNS answers from (section 8.1, take_rx_port())
 * nor one a NAT moved it to (follow_port()).
 */
/*
 * Calls that would wait for the send window: an established tunnel's
 * messages not yet acknowledged beyond the peer's Receive Window Size
 * (RFC 2661 section 5.8; 4 when it gave none) and the ICRQs waiting their
 * turn, or every call of one still in setup, which sends its ICRQs once the
 * SCCRP came.
 */
static unsigned int tunnel_backlog(const struct l2d_tunnel *t)
{
	unsigned int window = t->rel.cfg.peer_window ? t->rel.cfg.peer_window : 4;
	unsigned int queued;

	if (t->state != L2D_T_ESTABLISHED)
		queued = t->n_sessions;
	else
		queued = (uint16_t)(t->rel.ns_next - t->rel.ns_una) + t->n_icrq_wait;
	return queued >= window ? queued - window + 1 : 0;
}

/*
 * The LAC-role tunnel a new call to @remote rides, or NULL for a new one.
 * One whose calls would not wait for its send window is taken first; when
 * each would, another tunnel is opened while the destination has fewer
 * than lac-tunnels-per-destination, so that a peer's small window (l2tpns
 * gives none: 4) does not hold a storm's calls in one queue; past that
 * the one with the shortest queue.
 */
struct l2d_tunnel *l2d_tunnel_find_dest(struct l2d *d, const struct l2d_addr *remote,
					const struct l2d_addr *local, bool has_local,
					const char *secret, const char *host)
{
	struct l2d_peer *p = l2d_peer_find(d, remote);
	struct l2d_tunnel *t, *best = NULL;
	unsigned int n = 0, b, best_b = 0;

	for (t = p ? p->tunnels : NULL; t; t = t->pnext) {
		if (t->state != L2D_T_ESTABLISHED && t->state != L2D_T_WAIT_SCCRP)
			continue;
		/* never an LNS-role tunnel, nor one that authenticates otherwise */
		if (!t->lac || !same_secret(t, secret) || strcmp(t->host, host ? host : ""))
			continue;
		if (!l2d_addr_eq(&t->dest, remote, true))
			continue;
		if (has_local && !l2d_addr_eq(&t->local, local, false))
			continue;
		b = tunnel_backlog(t);
		if (!b)
			return t;
		n++;
		if (!best || b < best_b) {
			best = t;
			best_b = b;
		}
	}
	return n < d->conf->lac_tunnels_per_dest ? NULL : best;
}

/* ---- sending (the messages: tunnel_msg.c) ---- */

int l2d_tunnel_queue(struct l2d_tunnel *t, const uint8_t *buf, size_t len)
{
	int ret;

	if (!len) {
		l2d_log(t->d, L2D_LOG_ERR, "tunnel %u: a message could not be built", t->tid);
		return -EINVAL;
	}
	ret = l2tp_rel_queue(&t->rel, buf, len);
	if (ret < 0) {
		l2d_log(t->d, L2D_LOG_ERR, "tunnel %u: cannot queue a message: %s", t->tid, strerror(-ret));
		return ret;
	}
	t->since_icrq++;	/* l2d_session_send_icrq() sets it to 0 after */
	/*
	 * It leaves by the end of this turn of the loop whoever queued it:
	 * l2d_tunnel_flush() sends it sooner and sets the timer anew.
	 */
	l2d_timer_arm(t->d->loop, &t->rel_timer, 0);
	return 0;
}

/*
 * A session's setup timer (ICRP awaited after our ICRQ, ICCN after our
 * ICRP) counts from the moment its message is transmitted, not from its
 * queueing: during a storm a message may wait for the window longer than
 * the timeout, and that wait is ours, not the peer's silence (S-L2TP-6).
 * Call right after l2d_tunnel_queue() of that message.
 */
void l2d_tunnel_time_from_tx(struct l2d_tunnel *t, struct l2d_session *s)
{
	struct l2d *d = t->d;

	/* the wait for the window has a deadline too: icrq-timeout-max, from
	 * the first wait of an ICRQ that waited for its turn already */
	if (!s->wait_until)
		s->wait_until = l2d_now(d->loop) + d->conf->icrq_timeout_max_ms;
	l2d_timer_arm(d->loop, &s->setup_timer, s->wait_until);
	s->txwait = true;
	s->txwait_ns = (uint16_t)(t->rel.ns_next - 1);
	s->txwait_next = NULL;
	if (t->txwait_tail)
		t->txwait_tail->txwait_next = s;
	else
		t->txwait_head = s;
	t->txwait_tail = s;
}

/* @s leaves the list before its message went (it closes). */
void l2d_tunnel_txwait_drop(struct l2d_tunnel *t, struct l2d_session *s)
{
	struct l2d_session **pp, *prev = NULL;

	if (!s->txwait)
		return;
	for (pp = &t->txwait_head; *pp; prev = *pp, pp = &(*pp)->txwait_next) {
		if (*pp != s)
			continue;
		*pp = s->txwait_next;
		if (t->txwait_tail == s)
			t->txwait_tail = prev;
		break;
	}
	s->txwait = false;
}

/*
 * RFC 2661 section 5.8 gives a peer without a Receive Window Size a window
 * of 4, and messages leave in the order of their Ns, given when queued.  An
 * ICRQ queued behind a storm's other ICRQs is no worse off waiting outside
 * the queue; but an ICCN (or a CDN) queued behind a hundred ICRQs keeps a
 * call whose bridge is made, and whose LNS has started PPP already, waiting
 * for a hundred round trips, until its subscriber or the LNS gives up.  So
 * new calls wait their turn here, and what the calls under way send goes
 * first (S-STORM-4), but not always: a new call that waited for every
 * ICCN to leave would wait through a whole storm's ICCNs, and then the
 * storm's ICRQs would leave together, their bridges be made together, and
 * the window stand idle meanwhile (seen against l2tpns: ICRQs in bursts of
 * 100-200, none for a second while 300 ICCNs went).  So a new call's ICRQ
 * is queued while less than half a window waits, and after every half a
 * window of other messages queued in a row.
 */
static bool icrq_may_queue(const struct l2d_tunnel *t)
{
	uint32_t half = t->rel.cfg.peer_window / 2;

	if (half < 2)	/* a window of 1 to 3: queued once nothing waits */
		return !l2tp_rel_waiting(&t->rel);
	return l2tp_rel_waiting(&t->rel) < half || t->since_icrq >= half;
}

bool l2d_tunnel_icrq_wait(struct l2d_tunnel *t, struct l2d_session *s)
{
	struct l2d *d = t->d;

	if (icrq_may_queue(t) && !t->icrq_head)
		return false;
	s->icrq_wait = true;
	s->icrq_next = NULL;
	if (t->icrq_tail)
		t->icrq_tail->icrq_next = s;
	else
		t->icrq_head = s;
	t->icrq_tail = s;
	t->n_icrq_wait++;
	/* the wait for the window has a deadline: icrq-timeout-max */
	s->wait_until = l2d_now(d->loop) + d->conf->icrq_timeout_max_ms;
	l2d_timer_arm(d->loop, &s->setup_timer, s->wait_until);
	return true;
}

void l2d_tunnel_icrq_drop(struct l2d_tunnel *t, struct l2d_session *s)
{
	struct l2d_session **pp, *prev = NULL;

	if (!s->icrq_wait)
		return;
	for (pp = &t->icrq_head; *pp; prev = *pp, pp = &(*pp)->icrq_next) {
		if (*pp != s)
			continue;
		*pp = s->icrq_next;
		if (t->icrq_tail == s)
			t->icrq_tail = prev;
		t->n_icrq_wait--;
		break;
	}
	s->icrq_wait = false;
}

/* The calls waiting for their ICRQ, while little else waits for the window. */
static void icrq_release(struct l2d_tunnel *t)
{
	struct l2d_session *s;

	if (t->icrq_releasing)
		return;
	t->icrq_releasing = true;
	while ((s = t->icrq_head) && t->state == L2D_T_ESTABLISHED && icrq_may_queue(t)) {
		l2d_tunnel_icrq_drop(t, s);
		t->d->sops->send_icrq(s);	/* it flushes the tunnel */
	}
	t->icrq_releasing = false;
}

/* Message @ns left for the first time: start the timers waiting for it. */
static void txwait_sent(struct l2d_tunnel *t, uint16_t ns)
{
	struct l2d *d = t->d;
	struct l2d_session *s;

	while ((s = t->txwait_head) && (int16_t)(ns - s->txwait_ns) >= 0) {
		t->txwait_head = s->txwait_next;
		if (!t->txwait_head)
			t->txwait_tail = NULL;
		s->txwait = false;
		s->tx_ms = l2d_now(d->loop);
		l2d_timer_arm(d->loop, &s->setup_timer, s->tx_ms + d->conf->icrq_timeout_ms);
	}
}

static void tunnel_give_up(struct l2d_tunnel *t);

/*
 * A send that failed.  Errors an ICMP message leaves on the socket
 * (ECONNREFUSED, unreachable) are the path's or the peer's: the datagram
 * counts as lost.  A full socket or buffer (EAGAIN, ENOBUFS) or a down
 * interface is ours and may pass: the message is sent again on its timer,
 * and if the tunnel then gives up with our sends still failing, the failure
 * is local.  Anything else (EPERM from a local firewall, say) is ours and
 * will not pass: a tunnel in setup ends at once.  A local failure ends its
 * calls with outcome local: the destination is not blamed, not locked out
 * (S-SEC-9).  Return true when @t ended.
 */
static bool tx_failed(struct l2d_tunnel *t, int err)
{
	struct l2d *d = t->d;
	bool transient = err == EAGAIN || err == EWOULDBLOCK || err == ENOBUFS || err == ENOMEM ||
			 err == EINTR || err == ENETDOWN;
	char peer[64];

	d->stats.tx_err++;
	if (err == ECONNREFUSED || err == EHOSTUNREACH || err == ENETUNREACH || err == EHOSTDOWN) {
		t->tx_local_err = 0;
		return false;
	}
	if (t->tx_local_err != err) {
		l2d_addr_str(&t->peer, peer, sizeof(peer), true);
		l2d_log(d, L2D_LOG_ERR, "tunnel %u to %s: send: %s: a local failure, the peer is "
			"not blamed%s", t->tid, peer, strerror(err),
			transient ? "" : t->state == L2D_T_ESTABLISHED || t->state == L2D_T_CLOSING ?
			"" : "; the tunnel ends");
	}
	t->tx_local_err = err;
	if (transient || t->state == L2D_T_ESTABLISHED || t->state == L2D_T_CLOSING)
		return false;
	l2d_tunnel_kill(t, L2D_END_ERROR);
	return true;
}

/* The end of a tunnel that was not answered: ours when our own sends fail. */
static enum l2d_end silence_end(const struct l2d_tunnel *t)
{
	return t->tx_local_err ? L2D_END_ERROR : L2D_END_NO_REPLY;
}

void l2d_tunnel_flush(struct l2d_tunnel *t)
{
	struct l2d *d = t->d;
	struct l2tp_rel_tx tx;
	enum l2tp_rel_event ev;
	uint64_t now = now_ms(d), next;
	int err;

	if (t->state == L2D_T_DEAD)
		return;
	while ((ev = l2tp_rel_poll(&t->rel, now, &tx)) == L2TP_REL_TRANSMIT) {
		l2d_log(d, L2D_LOG_DEBUG, "tunnel %u: tx %s%s ns %u nr %u", t->tid,
			tx.zlb ? "ZLB" : "message",
			!tx.retransmit ? "" : tx.timeout ? " (again, timeout)" : " (again, partial ack)",
			tx.ns, t->rel.nr);
		err = d->env->send(d, t, tx.data, tx.len);
		if (err < 0) {
			if (tx_failed(t, -err))
				return;
			/* its ack is owed still (§5.8): a ZLB later (S-STORM-3) */
			l2tp_rel_tx_failed(&t->rel, &tx, now);
		} else {
			d->stats.tx++;
			t->tx_local_err = 0;
		}
		if (!tx.zlb && !tx.retransmit)
			txwait_sent(t, tx.ns);
	}
	if (ev == L2TP_REL_GIVE_UP) {
		tunnel_give_up(t);
		return;
	}
	icrq_release(t);
	if (t->state == L2D_T_DEAD)
		return;
	next = l2tp_rel_next_event(&t->rel, now);
	if (next == UINT64_MAX)
		l2d_timer_cancel(d->loop, &t->rel_timer);
	else
		l2d_timer_arm(d->loop, &t->rel_timer, next);
}

static void rel_timeout(struct l2d_timer *tm)
{
	l2d_tunnel_flush(tm->arg);
}

/* ---- teardown ---- */

/* Every session of @t ends with @end (no CDN: the tunnel goes, §5.7). */
void l2d_tunnel_close_sessions(struct l2d_tunnel *t, enum l2d_end end, uint16_t result,
			       uint16_t error)
{
	struct l2d_session *s;

	/*
	 * Calls that a tie moved here (tie_breaker_lost()) from our tunnel to
	 * the destination: this tunnel is the peer's, and it never came up.
	 * The SCCRQ that made it may have been spoofed; the destination we
	 * dialled did not fail us, so it is not blamed (no lockout).
	 */
	if (t->tb_adopted && t->sessions && end == L2D_END_NO_REPLY) {
		l2d_log(t->d, L2D_LOG_INFO, "tunnel %u: the peer's tunnel that won the tie never came "
			"up: its calls end as a local failure", t->tid);
		end = L2D_END_ERROR;
	}

	while ((s = t->sessions))
		t->d->sops->close(s, end, false, result, error, NULL);
}

/*
 * A tunnel the peer cleared sends nothing it had queued behind the peer's
 * window (ICRPs of a storm, say): the peer has cleared every session (§5.7).
 * Our own StopCCN keeps what is queued before it (a CDN's reason, say).
 */
void l2d_tunnel_drop_unsent(struct l2d_tunnel *t)
{
	uint32_t n = l2tp_rel_drop_unsent(&t->rel);

	if (n)
		l2d_log(t->d, L2D_LOG_DEBUG, "tunnel %u: %u queued messages not sent: closing",
			t->tid, n);
}

/* The kernel tunnel goes as soon as the control connection is being cleared. */
static void tunnel_dp_del(struct l2d_tunnel *t)
{
	if (t->dp_added && t->d->dpops)
		t->d->dpops->tunnel_del(t->d, t);
	t->dp_added = false;
}

void l2d_tunnel_kill(struct l2d_tunnel *t, enum l2d_end end)
{
	struct l2d *d = t->d;

	if (t->state == L2D_T_DEAD)
		return;
	if (t->state != L2D_T_ESTABLISHED && t->state != L2D_T_CLOSING)
		d->stats.tunnels_failed++;
	t->state = L2D_T_CLOSING;	/* not reusable while its sessions go */
	if (!t->end)
		t->end = end;
	l2d_tunnel_close_sessions(t, end, t->stop_result, t->stop_error);
	l2d_tunnel_acct_down(t);
	tunnel_dp_del(t);
	t->state = L2D_T_DEAD;
	l2d_lns_setup_done(t);
	l2d_timer_cancel(d->loop, &t->setup_timer);
	l2d_timer_cancel(d->loop, &t->rel_timer);
	l2d_timer_cancel(d->loop, &t->hold_timer);
	l2d_timer_cancel(d->loop, &t->hello_timer);
	l2d_reap_later(d);
}

void l2d_tunnel_hold(struct l2d_tunnel *t)
{
	struct l2d *d = t->d;

	t->state = L2D_T_CLOSING;
	tunnel_dp_del(t);
	l2d_timer_cancel(d->loop, &t->setup_timer);
	l2d_timer_cancel(d->loop, &t->hello_timer);
	l2d_timer_arm(d->loop, &t->hold_timer, now_ms(d) + l2tp_rel_cycle_ms(&t->rel));
}

/* Clear the tunnel with a StopCCN (§5.7); its sessions end with @end. */
void l2d_tunnel_stop_end(struct l2d_tunnel *t, enum l2d_end end, uint16_t result,
			 uint16_t error, const char *text)
{
	struct l2d *d = t->d;
	struct l2tp_builder b;
	uint8_t buf[256];
	char peer[64];

	if (t->state == L2D_T_CLOSING || t->state == L2D_T_DEAD)
		return;
	l2d_addr_str(&t->peer, peer, sizeof(peer), true);
	l2d_log(d, L2D_LOG_INFO, "tunnel %u to %s: StopCCN result %u error %u%s%s", t->tid, peer,
		result, error, text ? ": " : "", text ? text : "");
	if (!t->peer_tid) {
		/* nobody to address a StopCCN to: the peer never answered */
		l2d_tunnel_kill(t, end);
		return;
	}
	if (t->state != L2D_T_ESTABLISHED)
		d->stats.tunnels_failed++;
	t->state = L2D_T_CLOSING;
	if (!t->end)
		t->end = end;
	l2d_tunnel_close_sessions(t, end, result, error);
	l2d_tunnel_acct_down(t);
	l2d_tunnel_builder(t, &b, buf, sizeof(buf), 0, L2TP_MSG_STOPCCN);
	l2d_tunnel_put_u16(t, &b, L2TP_AVP_ASSIGNED_TUNNEL_ID, t->tid);
	l2tp_put_result(&b, result, error || text ? error : -1, text);
	l2d_tunnel_queue(t, buf, l2tp_build_end(&b));
	l2d_tunnel_hold(t);
	l2d_tunnel_flush(t);
}

void l2d_tunnel_stop(struct l2d_tunnel *t, uint16_t result, uint16_t error, const char *text)
{
	l2d_tunnel_stop_end(t, L2D_END_LOCAL, result, error, text);
}

static void hold_timeout(struct l2d_timer *tm)
{
	struct l2d_tunnel *t = tm->arg;

	l2d_tunnel_kill(t, L2D_END_LOCAL);
}

static void tunnel_give_up(struct l2d_tunnel *t)
{
	char peer[64];

	l2d_addr_str(&t->peer, peer, sizeof(peer), true);
	l2d_log(t->d, L2D_LOG_INFO, "tunnel %u to %s: no acknowledgement after %u retransmissions (%s)%s%s",
		t->tid, peer, t->rel.cfg.max_retries, l2d_tstate_name(t->state),
		t->tx_local_err ? ": our sends fail, a local failure: " : "",
		t->tx_local_err ? strerror(t->tx_local_err) : "");
	l2d_tunnel_kill(t, silence_end(t));
}

static void setup_timeout(struct l2d_timer *tm)
{
	struct l2d_tunnel *t = tm->arg;

	if (t->state != L2D_T_WAIT_SCCRP && t->state != L2D_T_WAIT_SCCCN)
		return;
	l2d_log(t->d, L2D_LOG_INFO, "tunnel %u: setup timeout in %s%s%s", t->tid,
		l2d_tstate_name(t->state), t->tx_local_err ? ": our sends fail, a local failure: " : "",
		t->tx_local_err ? strerror(t->tx_local_err) : "");
	l2d_tunnel_stop_end(t, silence_end(t), L2TP_STOPCCN_GENERAL_ERROR, 0, "setup timeout");
}

static void idle_timeout(struct l2d_timer *tm)
{
	struct l2d_tunnel *t = tm->arg;

	if (t->sessions || t->state != L2D_T_ESTABLISHED)
		return;
	t->d->stats.tunnels_idle++;
	l2d_tunnel_stop(t, L2TP_STOPCCN_CLEAR, 0, "idle");
}

void l2d_tunnel_session_gone(struct l2d_tunnel *t)
{
	if (!t->initiator) {
		l2d_tunnel_idle_arm(t);
		return;
	}
	/* A LAC tunnel left with no sessions is closed. */
	if (t->sessions || t->d->shutting_down)
		return;
	if (t->state == L2D_T_ESTABLISHED)
		l2d_tunnel_stop(t, L2TP_STOPCCN_CLEAR, 0, NULL);
	else if (t->state == L2D_T_WAIT_SCCRP)
		l2d_tunnel_kill(t, L2D_END_LOCAL);	/* nobody waits for it any more */
}

static void hello_timeout(struct l2d_timer *tm)
{
	struct l2d_tunnel *t = tm->arg;
	struct l2d *d = t->d;
	struct l2tp_builder b;
	uint8_t buf[64];

	if (t->state != L2D_T_ESTABLISHED || !d->conf->hello_ms)
		return;
	if (l2tp_rel_all_acked(&t->rel)) {
		l2d_tunnel_builder(t, &b, buf, sizeof(buf), 0, L2TP_MSG_HELLO);
		l2d_tunnel_queue(t, buf, l2tp_build_end(&b));
		l2d_tunnel_flush(t);
	}
	if (t->state == L2D_T_ESTABLISHED)
		l2d_timer_arm(d->loop, &t->hello_timer, now_ms(d) + d->conf->hello_ms);
}

/* ---- the state machine ---- */

int l2d_tunnel_connect(struct l2d_tunnel *t)
{
	struct l2d *d = t->d;
	struct l2tp_builder b;
	uint8_t buf[512];

	l2d_tunnel_builder(t, &b, buf, sizeof(buf), 0, L2TP_MSG_SCCRQ);
	l2d_tunnel_put_sccrx(t, &b);
	if (d->conf->tie_breaker) {
		d->env->random(d, &t->tie_breaker, sizeof(t->tie_breaker));
		l2tp_put_u64(&b, L2TP_AVP_TIE_BREAKER, t->tie_breaker);
		t->tb_sent = true;
	}
	if (l2d_tunnel_queue(t, buf, l2tp_build_end(&b)))
		return -1;
	t->state = L2D_T_WAIT_SCCRP;
	l2d_timer_arm(d->loop, &t->setup_timer, now_ms(d) + d->conf->sccrq_timeout_ms);
	l2d_tunnel_flush(t);
	l2d_test_pause("sccrq");
	return 0;
}

/* A secret that RADIUS gave ("" for none). */
void l2d_tunnel_set_secret(struct l2d_tunnel *t, const char *secret)
{
	tunnel_set_secret(t, secret);
}

/* The agent ends (l2d_fini()): the calls closed without a CDN, the tunnel dead. */
void l2d_tunnel_end(struct l2d_tunnel *t)
{
	struct l2d_session *s;

	while ((s = t->sessions))
		t->d->sops->close(s, L2D_END_LOCAL, false, 0, 0, NULL);
	l2d_tunnel_acct_down(t);
	t->state = L2D_T_DEAD;
}
