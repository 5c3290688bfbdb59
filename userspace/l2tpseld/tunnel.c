// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld: the control connection (tunnel) state machine, RFC 2661 §5.1,
 * §5.7, §7.2, on top of the parser (msg.c) and reliable delivery
 * (reliable.c).  A tunnel is a state x message switch; every exit that
 * clears it goes through tunnel_stop() (StopCCN, held for one full
 * retransmission cycle, §5.7) or tunnel_kill() (nothing to send).
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

static const char *const tstate_names[] = {
	[L2D_T_IDLE] = "idle", [L2D_T_WAIT_SCCRP] = "wait-sccrp",
	[L2D_T_WAIT_SCCCN] = "wait-scccn", [L2D_T_ESTABLISHED] = "established",
	[L2D_T_CLOSING] = "closing", [L2D_T_DEAD] = "dead",
};

const char *l2d_tstate_name(enum l2d_tstate s)
{
	return (unsigned int)s < sizeof(tstate_names) / sizeof(*tstate_names) ? tstate_names[s] : "?";
}

static uint64_t now_ms(struct l2d *d)
{
	return l2d_now(d->loop);
}

/* ---- accounting, LNS tunnels in setup, idle LNS tunnels ---- */

/* The tunnel is no longer up: its Tunnel-Stop record, once (access_acct.c). */
static void tunnel_acct_down(struct l2d_tunnel *t)
{
	struct l2d *d = t->d;

	if (t->acct_up && d->aops && d->aops->tunnel_gone)
		d->aops->tunnel_gone(d, t);
}
static void idle_timeout(struct l2d_timer *tm);
static bool lns_full(struct l2d *d, const struct l2d_peer *p, char *why, size_t len);

/* LNS tunnels in setup, oldest first (lns-max-setup, lns_setup_room()). */
static void lns_setup_add(struct l2d_tunnel *t)
{
	struct l2d *d = t->d;

	t->lns_setup = true;
	t->p->lns_setup++;
	t->setup_prev = d->setup_last;
	t->setup_next = NULL;
	if (d->setup_last)
		d->setup_last->setup_next = t;
	else
		d->setup_first = t;
	d->setup_last = t;
	d->n_lns_setup++;
}

static void lns_setup_done(struct l2d_tunnel *t)
{
	struct l2d *d = t->d;

	if (!t->lns_setup)
		return;
	if (t->setup_prev)
		t->setup_prev->setup_next = t->setup_next;
	else
		d->setup_first = t->setup_next;
	if (t->setup_next)
		t->setup_next->setup_prev = t->setup_prev;
	else
		d->setup_last = t->setup_prev;
	t->lns_setup = false;
	t->p->lns_setup--;
	d->n_lns_setup--;
}

/* LNS: a tunnel without calls is closed after lns-idle-timeout. */
static void idle_arm(struct l2d_tunnel *t)
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

/* ---- peers: an address or an IPv6 /64, by a seeded hash (S-SEC-7) ---- */

/* @a's key: false for an address of no known family */
static bool peer_key(const struct l2d_addr *a, uint8_t key[9])
{
	const struct sockaddr_in6 *s6 = (const void *)&a->ss;
	const struct sockaddr_in *s4 = (const void *)&a->ss;

	memset(key, 0, 9);
	if (a->ss.ss_family == AF_INET) {
		key[0] = 4;
		memcpy(key + 1, &s4->sin_addr, 4);
		return true;
	}
	if (a->ss.ss_family != AF_INET6)
		return false;
	if (IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr)) {
		key[0] = 4;
		memcpy(key + 1, s6->sin6_addr.s6_addr + 12, 4);
	} else {
		key[0] = 6;
		memcpy(key + 1, s6->sin6_addr.s6_addr, 8);	/* the /64 */
	}
	return true;
}

/* Seeded: a peer cannot pick addresses that share a chain. */
static unsigned int peer_hash(struct l2d *d, const uint8_t key[9])
{
	uint64_t h;
	unsigned int i;

	if (!d->peer_seeded) {
		d->env->random(d, &d->peer_seed, sizeof(d->peer_seed));
		d->peer_seeded = true;
	}
	h = d->peer_seed ^ 0xcbf29ce484222325ull;
	for (i = 0; i < 9; i++)
		h = (h ^ key[i]) * 0x100000001b3ull;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return (unsigned int)(h & (L2D_PEER_HASH - 1));
}

struct l2d_peer *l2d_peer_find(struct l2d *d, const struct l2d_addr *a)
{
	struct l2d_peer *p;
	uint8_t key[9];

	if (!peer_key(a, key))
		return NULL;
	for (p = d->peers[peer_hash(d, key)]; p; p = p->next)
		if (!memcmp(p->key, key, sizeof(key)))
			return p;
	return NULL;
}

static int peer_attach(struct l2d_tunnel *t)
{
	struct l2d *d = t->d;
	struct l2d_peer *p = l2d_peer_find(d, &t->peer);
	uint8_t key[9];

	if (!p) {
		unsigned int h;

		if (!peer_key(&t->peer, key))
			return -1;
		p = calloc(1, sizeof(*p));
		if (!p)
			return -1;
		memcpy(p->key, key, sizeof(key));
		h = peer_hash(d, key);
		p->next = d->peers[h];
		d->peers[h] = p;
		d->n_peers++;
	}
	t->p = p;
	t->pnext = p->tunnels;
	if (t->pnext)
		t->pnext->ppprev = &t->pnext;
	t->ppprev = &p->tunnels;
	p->tunnels = t;
	return 0;
}

static void peer_detach(struct l2d_tunnel *t)
{
	struct l2d *d = t->d;
	struct l2d_peer *p = t->p, **pp;

	if (!p)
		return;
	*t->ppprev = t->pnext;
	if (t->pnext)
		t->pnext->ppprev = t->ppprev;
	t->p = NULL;
	if (p->tunnels)
		return;
	for (pp = &d->peers[peer_hash(d, p->key)]; *pp; pp = &(*pp)->next) {
		if (*pp == p) {
			*pp = p->next;
			break;
		}
	}
	d->n_peers--;
	free(p);
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

static struct l2d_tunnel *tunnel_new(struct l2d *d, const struct l2d_addr *peer,
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
	if (peer_attach(t)) {
		l2tp_rel_destroy(&t->rel);
		free(t);
		return NULL;
	}
	if (d->env->tunnel_open && d->env->tunnel_open(d, t)) {
		peer_detach(t);
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
	return tunnel_new(d, peer, local, initiator, false);
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
	if (peer_attach(t)) {
		l2tp_rel_destroy(&t->rel);
		return -1;
	}
	if (d->env->tunnel_adopt && d->env->tunnel_adopt(d, t)) {
		peer_detach(t);
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

static void tunnel_free(struct l2d_tunnel *t)
{
	struct l2d *d = t->d;

	l2d_timer_cancel(d->loop, &t->setup_timer);
	l2d_timer_cancel(d->loop, &t->rel_timer);
	l2d_timer_cancel(d->loop, &t->hold_timer);
	l2d_timer_cancel(d->loop, &t->hello_timer);
	l2d_timer_cancel(d->loop, &t->idle_timer);
	lns_setup_done(t);
	tunnel_acct_down(t);
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
	peer_detach(t);
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
 * (RFC 2661 section 5.8; 4 when it gave none), or every call of one still
 * in setup, which sends its ICRQs once the SCCRP came.
 */
static unsigned int tunnel_backlog(const struct l2d_tunnel *t)
{
	unsigned int window = t->rel.cfg.peer_window ? t->rel.cfg.peer_window : 4;
	unsigned int queued;

	if (t->state != L2D_T_ESTABLISHED)
		queued = t->n_sessions;
	else
		queued = (uint16_t)(t->rel.ns_next - t->rel.ns_una);
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
	if (ret < 0)
		l2d_log(t->d, L2D_LOG_ERR, "tunnel %u: cannot queue a message: %s", t->tid, strerror(-ret));
	return ret < 0 ? ret : 0;
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

	/* the wait for the window has a deadline too: icrq-timeout-max */
	l2d_timer_arm(d->loop, &s->setup_timer, l2d_now(d->loop) + d->conf->icrq_timeout_max_ms);
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
static void tunnel_kill(struct l2d_tunnel *t, enum l2d_end end);

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
	tunnel_kill(t, L2D_END_ERROR);
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
static void close_sessions(struct l2d_tunnel *t, enum l2d_end end, uint16_t result, uint16_t error)
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
		l2d_session_close(s, end, false, result, error, NULL);
}

/*
 * A tunnel the peer cleared sends nothing it had queued behind the peer's
 * window (ICRPs of a storm, say): the peer has cleared every session (§5.7).
 * Our own StopCCN keeps what is queued before it (a CDN's reason, say).
 */
static void drop_unsent(struct l2d_tunnel *t)
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

static void tunnel_kill(struct l2d_tunnel *t, enum l2d_end end)
{
	struct l2d *d = t->d;

	if (t->state == L2D_T_DEAD)
		return;
	if (t->state != L2D_T_ESTABLISHED && t->state != L2D_T_CLOSING)
		d->stats.tunnels_failed++;
	t->state = L2D_T_CLOSING;	/* not reusable while its sessions go */
	if (!t->end)
		t->end = end;
	close_sessions(t, end, t->stop_result, t->stop_error);
	tunnel_acct_down(t);
	tunnel_dp_del(t);
	t->state = L2D_T_DEAD;
	lns_setup_done(t);
	l2d_timer_cancel(d->loop, &t->setup_timer);
	l2d_timer_cancel(d->loop, &t->rel_timer);
	l2d_timer_cancel(d->loop, &t->hold_timer);
	l2d_timer_cancel(d->loop, &t->hello_timer);
	l2d_reap_later(d);
}

static void tunnel_hold(struct l2d_tunnel *t)
{
	struct l2d *d = t->d;

	t->state = L2D_T_CLOSING;
	tunnel_dp_del(t);
	l2d_timer_cancel(d->loop, &t->setup_timer);
	l2d_timer_cancel(d->loop, &t->hello_timer);
	l2d_timer_arm(d->loop, &t->hold_timer, now_ms(d) + l2tp_rel_cycle_ms(&t->rel));
}

/* Clear the tunnel with a StopCCN (§5.7); its sessions end with @end. */
static void tunnel_stop_end(struct l2d_tunnel *t, enum l2d_end end, uint16_t result,
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
		tunnel_kill(t, end);
		return;
	}
	if (t->state != L2D_T_ESTABLISHED)
		d->stats.tunnels_failed++;
	t->state = L2D_T_CLOSING;
	if (!t->end)
		t->end = end;
	close_sessions(t, end, result, error);
	tunnel_acct_down(t);
	l2d_tunnel_builder(t, &b, buf, sizeof(buf), 0, L2TP_MSG_STOPCCN);
	l2d_tunnel_put_u16(t, &b, L2TP_AVP_ASSIGNED_TUNNEL_ID, t->tid);
	l2tp_put_result(&b, result, error || text ? error : -1, text);
	l2d_tunnel_queue(t, buf, l2tp_build_end(&b));
	tunnel_hold(t);
	l2d_tunnel_flush(t);
}

void l2d_tunnel_stop(struct l2d_tunnel *t, uint16_t result, uint16_t error, const char *text)
{
	tunnel_stop_end(t, L2D_END_LOCAL, result, error, text);
}

static void hold_timeout(struct l2d_timer *tm)
{
	struct l2d_tunnel *t = tm->arg;

	tunnel_kill(t, L2D_END_LOCAL);
}

static void tunnel_give_up(struct l2d_tunnel *t)
{
	char peer[64];

	l2d_addr_str(&t->peer, peer, sizeof(peer), true);
	l2d_log(t->d, L2D_LOG_INFO, "tunnel %u to %s: no acknowledgement after %u retransmissions (%s)%s%s",
		t->tid, peer, t->rel.cfg.max_retries, l2d_tstate_name(t->state),
		t->tx_local_err ? ": our sends fail, a local failure: " : "",
		t->tx_local_err ? strerror(t->tx_local_err) : "");
	tunnel_kill(t, silence_end(t));
}

static void setup_timeout(struct l2d_timer *tm)
{
	struct l2d_tunnel *t = tm->arg;

	if (t->state != L2D_T_WAIT_SCCRP && t->state != L2D_T_WAIT_SCCCN)
		return;
	l2d_log(t->d, L2D_LOG_INFO, "tunnel %u: setup timeout in %s%s%s", t->tid,
		l2d_tstate_name(t->state), t->tx_local_err ? ": our sends fail, a local failure: " : "",
		t->tx_local_err ? strerror(t->tx_local_err) : "");
	tunnel_stop_end(t, silence_end(t), L2TP_STOPCCN_GENERAL_ERROR, 0, "setup timeout");
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
		idle_arm(t);
		return;
	}
	/* A LAC tunnel left with no sessions is closed. */
	if (t->sessions || t->d->shutting_down)
		return;
	if (t->state == L2D_T_ESTABLISHED)
		l2d_tunnel_stop(t, L2TP_STOPCCN_CLEAR, 0, NULL);
	else if (t->state == L2D_T_WAIT_SCCRP)
		tunnel_kill(t, L2D_END_LOCAL);	/* nobody waits for it any more */
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

static void tunnel_established(struct l2d_tunnel *t)
{
	struct l2d *d = t->d;
	struct l2d_session *s, *next;
	char peer[64];

	t->state = L2D_T_ESTABLISHED;
	t->tb_adopted = false;
	d->stats.tunnels_up++;
	lns_setup_done(t);
	if (!t->initiator) {
		t->lns_up = true;
		t->p->lns_up++;
		d->n_lns_up++;
	}
	l2tp_rel_set_max_retries(&t->rel, d->conf->retries_established);
	l2d_timer_cancel(d->loop, &t->setup_timer);
	if (d->conf->hello_ms)
		l2d_timer_arm(d->loop, &t->hello_timer, now_ms(d) + d->conf->hello_ms);
	l2d_addr_str(&t->peer, peer, sizeof(peer), true);
	l2d_log(d, L2D_LOG_INFO, "tunnel %u/%u to %s (%-s) established as %s", t->tid, t->peer_tid,
		peer, t->peer_host, t->initiator ? "LAC" : "LNS");
	if (t->initiator && d->aops && d->aops->tunnel_up)
		d->aops->tunnel_up(d, t);
	if (d->dpops) {
		/* no kernel tunnel, no session can carry PPP: clear it, our fault */
		if (d->dpops->tunnel_add(d, t))
			return tunnel_stop_end(t, L2D_END_ERROR, L2TP_STOPCCN_GENERAL_ERROR,
					       L2TP_ERR_NO_RESOURCES, "data path not created");
		t->dp_added = true;
	}
	for (s = t->sessions; s; s = next) {
		next = s->next;
		if (s->state == L2D_S_WAIT_TUNNEL)
			l2d_session_tunnel_up(s);
	}
	idle_arm(t);
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

/* The message being received came from another port of the peer: the tunnel takes it. */
static bool take_rx_port(struct l2d_tunnel *t)
{
	if (!t->rx_from.ss.ss_family || l2d_addr_eq(&t->peer, &t->rx_from, true))
		return false;
	t->peer = t->rx_from;
	return true;
}

static void got_sccrp(struct l2d_tunnel *t, const struct l2tp_msg *m)
{
	struct l2tp_builder b;
	uint8_t buf[256];

	if (l2d_tunnel_take_peer_ids(t, m))
		return tunnel_stop_end(t, L2D_END_STOPCCN, L2TP_STOPCCN_GENERAL_ERROR,
				       L2TP_ERR_BAD_VALUE, "no Assigned Tunnel ID");
	if (l2d_tunnel_check_response(t, m, L2TP_MSG_SCCRP))
		return tunnel_stop_end(t, L2D_END_STOPCCN, L2TP_STOPCCN_NOT_AUTHORIZED, 0,
				       "Challenge Response missing or wrong");
	/*
	 * Section 8.1: the LNS may answer from a port of its own choosing (accel-ppp
	 * with ephemeral ports does); the tunnel goes on with the port the
	 * SCCRP came from, and only now is its socket connected.
	 */
	if (take_rx_port(t)) {
		char from[64];

		l2d_addr_str(&t->peer, from, sizeof(from), true);
		l2d_log(t->d, L2D_LOG_INFO, "tunnel %u: SCCRP from %s: the tunnel uses that port",
			t->tid, from);
	}
	if (t->d->env->tunnel_connect && t->d->env->tunnel_connect(t->d, t))
		return tunnel_stop_end(t, L2D_END_ERROR, L2TP_STOPCCN_GENERAL_ERROR,
				       L2TP_ERR_NO_RESOURCES, "cannot connect the tunnel's socket");
	l2d_tunnel_builder(t, &b, buf, sizeof(buf), 0, L2TP_MSG_SCCCN);
	if (l2d_tunnel_put_response(t, &b, m, L2TP_MSG_SCCCN))
		return tunnel_stop_end(t, L2D_END_STOPCCN, L2TP_STOPCCN_NOT_AUTHORIZED, 0,
				       "challenged, but no secret is configured");
	if (l2d_tunnel_queue(t, buf, l2tp_build_end(&b)))
		return tunnel_stop_end(t, L2D_END_ERROR, L2TP_STOPCCN_GENERAL_ERROR,
				       L2TP_ERR_NO_RESOURCES, NULL);
	/*
	 * One message may follow SCCCN at once, the rest wait for its ack.
	 * xl2tpd as LNS moves the tunnel to a new connected UDP socket when
	 * SCCCN arrives and reads that socket before its listening one: an ICRQ
	 * sent with SCCCN still reaches the old socket, and one sent after
	 * xl2tpd's ZLB for SCCCN reached the new one and was read first, then
	 * dropped as "out of order control packet (got 3, expected 2)", with
	 * every ICRQ behind it.  Once the first is acknowledged, the
	 * old socket holds nothing more of ours.
	 */
	l2tp_rel_hold(&t->rel, t->rel.ns_next);
	tunnel_established(t);
}

static void got_sccrq(struct l2d_tunnel *t, const struct l2tp_msg *m)
{
	struct l2d *d = t->d;
	struct l2tp_builder b;
	uint8_t buf[512];

	if (l2d_tunnel_take_peer_ids(t, m))
		return tunnel_kill(t, L2D_END_ERROR);
	/* tunnel_input_sccrq() asked the rate limiter before the tunnel existed */
	if (t->rl_reject)
		return tunnel_stop_end(t, L2D_END_LOCAL, t->rl_result, t->rl_error, t->rl_message);
	if (!t->has_secret && (m->avp[L2TP_AVP_CHALLENGE].present || d->conf->lns_auth_required))
		return tunnel_stop_end(t, L2D_END_LOCAL, L2TP_STOPCCN_NOT_AUTHORIZED, 0,
				       "no secret for this peer");
	l2d_tunnel_builder(t, &b, buf, sizeof(buf), 0, L2TP_MSG_SCCRP);
	l2d_tunnel_put_sccrx(t, &b);
	l2d_tunnel_put_response(t, &b, m, L2TP_MSG_SCCRP);
	if (l2d_tunnel_queue(t, buf, l2tp_build_end(&b)))
		return tunnel_kill(t, L2D_END_ERROR);
	t->state = L2D_T_WAIT_SCCCN;
	l2d_timer_arm(d->loop, &t->setup_timer, now_ms(d) + d->conf->sccrq_timeout_ms);
}

static void got_scccn(struct l2d_tunnel *t, const struct l2tp_msg *m)
{
	char why[96];

	if (l2d_tunnel_check_response(t, m, L2TP_MSG_SCCCN))
		return tunnel_stop_end(t, L2D_END_LOCAL, L2TP_STOPCCN_NOT_AUTHORIZED, 0,
				       "Challenge Response missing or wrong");
	/*
	 * Answered from a port of our own (tunnel_input_sccrq()): a LAC
	 * that sends its SCCCN to the port it began with does not follow
	 * section 8.1, and its data would reach the other tunnel's socket.
	 */
	if (t->own_port && l2d_port(&t->rx_local) != l2d_port(&t->local)) {
		t->d->stats.port_refused++;
		snprintf(why, sizeof(why), "SCCCN to port %u, not to port %u of the SCCRP",
			 l2d_port(&t->rx_local), l2d_port(&t->local));
		return tunnel_stop_end(t, L2D_END_LOCAL, L2TP_STOPCCN_GENERAL_ERROR, 0, why);
	}
	/* tunnels of the same peer that came up since its SCCRQ (S-SEC-7) */
	if (lns_full(t->d, t->p, why, sizeof(why))) {
		t->d->stats.tunnels_capped++;
		return tunnel_stop_end(t, L2D_END_LOCAL, L2TP_STOPCCN_GENERAL_ERROR,
				       L2TP_ERR_NO_RESOURCES, why);
	}
	tunnel_established(t);
}

static void got_stopccn(struct l2d_tunnel *t, const struct l2tp_msg *m)
{
	char peer[64];

	/*
	 * Closing already (our StopCCN crossed theirs, or they sent another):
	 * acknowledged at the flush; the hold runs from the first, or a peer
	 * that keeps sending could keep the tunnel for ever (§5.7).
	 */
	if (t->state == L2D_T_CLOSING)
		return;
	l2d_tunnel_result_of(m, &t->stop_result, &t->stop_error);
	l2d_addr_str(&t->peer, peer, sizeof(peer), true);
	l2d_log(t->d, L2D_LOG_INFO, "tunnel %u to %s: StopCCN received, result %u (%s) error %u",
		t->tid, peer, t->stop_result, l2tp_stopccn_result_name(t->stop_result), t->stop_error);
	if (t->state != L2D_T_ESTABLISHED)
		t->d->stats.tunnels_failed++;
	t->state = L2D_T_CLOSING;
	t->end = L2D_END_STOPCCN;
	close_sessions(t, L2D_END_STOPCCN, t->stop_result, t->stop_error);
	tunnel_acct_down(t);
	drop_unsent(t);
	tunnel_hold(t);		/* the ZLB ack goes at the flush */
}

static void tunnel_fsm(struct l2d_tunnel *t, struct l2tp_msg *m)
{
	if (m->type == L2TP_MSG_STOPCCN)
		return got_stopccn(t, m);
	if (t->state == L2D_T_CLOSING)
		return;		/* acknowledged, nothing more (§5.7) */
	if (l2tp_msg_is_session(m->type)) {
		if (t->state == L2D_T_ESTABLISHED)
			l2d_session_input(t, m);
		else
			l2d_log(t->d, L2D_LOG_INFO, "tunnel %u: %s before the tunnel is up, ignored",
				t->tid, l2tp_msg_name(m->type));
		return;
	}
	switch (m->type) {
	case L2TP_MSG_SCCRQ:
		if (t->state == L2D_T_IDLE && !t->initiator)
			return got_sccrq(t, m);
		break;
	case L2TP_MSG_SCCRP:
		if (t->state == L2D_T_WAIT_SCCRP)
			return got_sccrp(t, m);
		break;
	case L2TP_MSG_SCCCN:
		if (t->state == L2D_T_WAIT_SCCCN)
			return got_scccn(t, m);
		break;
	case L2TP_MSG_HELLO:
		return;
	case L2TP_MSG_CSUN:
	case L2TP_MSG_CSURQ:
		if (t->state == L2D_T_ESTABLISHED)
			l2d_session_csu_input(t, m);
		return;
	default:
		return;		/* a known message we have no use for */
	}
	/* §7.1: a message in the wrong state clears the tunnel */
	tunnel_stop_end(t, L2D_END_STOPCCN, L2TP_STOPCCN_FSM_ERROR, 0, l2tp_msg_name(m->type));
}

/* The parser asks for a StopCCN or a CDN (§7.1, Documentation/l2tp-protocol.md). */
static void answer_malformed(struct l2d_tunnel *t, struct l2tp_msg *m)
{
	struct l2d_session *s;
	uint8_t buf[256];
	uint16_t peer_sid = 0;
	size_t len;

	l2d_log(t->d, L2D_LOG_INFO, "tunnel %u: malformed %s (%s): %s", t->tid,
		l2tp_msg_name(m->type), l2tp_perr_name(m->answer.reason), m->answer.message);
	if (m->answer.action == L2TP_ACT_STOPCCN) {
		if (m->type == L2TP_MSG_STOPCCN)
			return got_stopccn(t, m);
		if (!t->peer_tid)
			l2tp_msg_get_u16(m, L2TP_AVP_ASSIGNED_TUNNEL_ID, &t->peer_tid);
		if (t->peer_tid)
			l2tp_rel_set_peer_tunnel(&t->rel, t->peer_tid);
		tunnel_stop_end(t, L2D_END_STOPCCN, m->answer.result_code, m->answer.error_code,
				m->answer.message);
		return;
	}
	/* CDN: the call only */
	s = m->hdr.session_id ? l2d_session_find(t->d, m->hdr.session_id) : NULL;
	if (s && s->t != t)
		s = NULL;
	if (m->type == L2TP_MSG_CDN) {
		if (s)
			l2d_session_close(s, L2D_END_CDN, false, 0, 0, NULL);
		return;
	}
	if (s) {
		l2d_session_close(s, L2D_END_CDN, true, m->answer.result_code, m->answer.error_code,
				  m->answer.message);
		return;
	}
	if (t->state != L2D_T_ESTABLISHED)
		return;
	l2tp_msg_get_u16(m, L2TP_AVP_ASSIGNED_SESSION_ID, &peer_sid);
	len = l2tp_build_answer(buf, sizeof(buf), &m->answer, t->peer_tid, peer_sid, 0);
	if (len)
		l2d_tunnel_queue(t, buf, len);
}

/*
 * A peer behind a NAT whose mapping changed: the same address (l2d_input()
 * matched it), another source port.  Section 8.1 keeps a tunnel's ports
 * for its life, so the NAT moved it; a new message delivered in order from
 * there says the peer is there now, and replies and the kernel's data
 * follow (the tunnel's socket is connected again: the kernel's transmit
 * checks the socket's state under its lock, l2tp_xmit_core()).  A ZLB, a
 * duplicate or a data packet moves nothing.
 */
static void follow_port(struct l2d_tunnel *t)
{
	struct l2d *d = t->d;
	char a[64];

	if (t->state != L2D_T_ESTABLISHED || !take_rx_port(t))
		return;
	l2d_addr_str(&t->peer, a, sizeof(a), true);
	l2d_log(d, L2D_LOG_INFO, "tunnel %u: the peer's port moved to %s: replies follow",
		t->tid, a);
	d->stats.port_moved++;
	if (d->env->tunnel_connect && d->env->tunnel_connect(d, t))
		l2d_log(d, L2D_LOG_ERR, "tunnel %u: its data keeps the old port", t->tid);
}

/* One control message from the peer, in order or not (§5.8). */
static void receive_one(struct l2d_tunnel *t, uint8_t *buf, size_t len)
{
	uint8_t raw[L2TP_REL_MSG_MAX];
	struct l2d *d = t->d;
	enum l2tp_action act;
	enum l2tp_rel_rx rx;
	struct l2tp_msg m;
	bool copied = false;

	/* parsing decodes hidden AVPs in place: a message kept for later needs its bytes */
	if (t->has_secret && len <= sizeof(raw)) {
		memcpy(raw, buf, len);
		copied = true;
	}
	act = l2tp_msg_parse(&m, buf, len, t->has_secret ? &t->sec : NULL);
	if (act == L2TP_ACT_DISCARD) {
		d->stats.rx_discard++;
		return;
	}
	rx = l2tp_rel_receive(&t->rel, &m.hdr, now_ms(d));
	l2d_log(d, L2D_LOG_DEBUG, "tunnel %u: rx %s ns %u nr %u: %s", t->tid,
		m.hdr.zlb ? "ZLB" : l2tp_msg_name(m.type), m.hdr.ns, m.hdr.nr, l2tp_rel_rx_name(rx));
	if (rx == L2TP_REL_OUT_OF_ORDER && (copied || !t->has_secret))
		l2tp_rel_stash(&t->rel, m.hdr.ns, copied ? raw : buf, len);
	if (rx == L2TP_REL_DELIVER && t->state != L2D_T_DEAD) {
		follow_port(t);
		t->heard_ms = now_ms(d);
		if (t->state == L2D_T_ESTABLISHED && d->conf->hello_ms)
			l2d_timer_arm(d->loop, &t->hello_timer, now_ms(d) + d->conf->hello_ms);
		switch (act) {
		case L2TP_ACT_ACCEPT:
			tunnel_fsm(t, &m);
			break;
		case L2TP_ACT_STOPCCN:
		case L2TP_ACT_CDN:
			if (t->state != L2D_T_CLOSING)
				answer_malformed(t, &m);
			break;
		default:
			break;
		}
	}
}

static void tunnel_receive(struct l2d_tunnel *t, uint8_t *buf, size_t len)
{
	uint8_t next[L2TP_REL_MSG_MAX];
	size_t n;

	receive_one(t, buf, len);
	/* what came ahead of its turn and is next now, in order */
	while (t->state != L2D_T_DEAD && (n = l2tp_rel_unstash(&t->rel, next, sizeof(next))))
		receive_one(t, next, n);
	l2d_tunnel_flush(t);
}

/* ---- input ---- */

/* The unspecified address (0.0.0.0, ::): a "listen" line for every address. */
static bool addr_is_any(const struct l2d_addr *a)
{
	static const uint8_t zero[16];

	if (a->ss.ss_family == AF_INET)
		return !((const struct sockaddr_in *)&a->ss)->sin_addr.s_addr;
	if (a->ss.ss_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)&a->ss)->sin6_addr, zero, 16);
	return false;
}

/*
 * An SCCRQ is taken only where a "listen" line says: its address (any, for
 * a wildcard) and its port.  One that reached another address of the host,
 * or another port (a LAC tunnel's, say), creates nothing (S-SEC-9).
 */
static bool local_is_listen(struct l2d *d, const struct l2d_addr *local, const struct l2d_addr *peer)
{
	const struct l2d_conf *c = d->conf;
	char to[64], from[64];
	unsigned int i;

	for (i = 0; local && i < c->n_listen; i++) {
		struct l2d_addr a = { .len = c->listen_len[i] };

		memcpy(&a.ss, &c->listen[i], sizeof(a.ss));
		if (a.ss.ss_family == local->ss.ss_family && l2d_port(&a) == l2d_port(local) &&
		    (addr_is_any(&a) || l2d_addr_eq(&a, local, false)))
			return true;
	}
	if (local)
		l2d_addr_str(local, to, sizeof(to), true);
	else
		strcpy(to, "?");
	l2d_addr_str(peer, from, sizeof(from), true);
	l2d_log(d, c->n_listen ? L2D_LOG_INFO : L2D_LOG_DEBUG,
		"SCCRQ from %s to %s dropped: %s", from, to,
		c->n_listen ? "not a listen address and port" : "no listen line (LAC only)");
	return false;
}

/*
 * The LNS's tunnel group for admission (S-LIM-3): a tgroup-map entry for the
 * local address the SCCRQ reached, else that address itself
 * (tgroup-by-address yes, the default), else none.
 */
static void set_tgroup(struct l2d_tunnel *t, const struct l2d_addr *local)
{
	const struct l2d_conf *c = t->d->conf;
	unsigned int i;

	t->tgroup[0] = '\0';
	for (i = 0; i < c->n_tgmap; i++) {
		struct l2d_addr a = { .len = c->tgmap[i].len };

		memcpy(&a.ss, &c->tgmap[i].addr, sizeof(a.ss));
		if (l2d_addr_eq(&a, local, false)) {
			l2d_strcpy(t->tgroup, sizeof(t->tgroup), c->tgmap[i].tgroup);
			return;
		}
	}
	if (c->tgroup_by_address)
		l2d_addr_str(local, t->tgroup, sizeof(t->tgroup), false);
}

/*
 * Established LNS-role tunnels (until freed: closing ones hold their IDs
 * too) are capped per peer (lns-max-tunnels-per-peer) and in all
 * (lns-max-tunnels).  Checked when the SCCRQ comes and again when the
 * SCCCN would establish it.  Return: true with @why set when full.
 */
static bool lns_full(struct l2d *d, const struct l2d_peer *p, char *why, size_t len)
{
	if (p && p->lns_up >= d->conf->lns_max_tunnels_per_peer)
		snprintf(why, len, "tunnel limit: lns-max-tunnels-per-peer %u reached",
			 d->conf->lns_max_tunnels_per_peer);
	else if (d->n_lns_up >= d->conf->lns_max_tunnels)
		snprintf(why, len, "tunnel limit: lns-max-tunnels %u reached", d->conf->lns_max_tunnels);
	else
		return false;
	return true;
}

/*
 * Room for one more LNS tunnel in setup, so that a flood of SCCRQs holds a
 * bounded number of tunnels, sockets and SCCRP retransmissions.  One
 * address may have lns-max-setup-per-peer in setup: beyond, its SCCRQs are
 * dropped.  In all there are at most lns-max-setup: beyond, the oldest is
 * dropped for the new one (as a SYN queue does), so a spoofed flood from
 * many addresses cannot keep a real LAC out, which answers its SCCRP within
 * a round trip; its retransmitted SCCRQ tries again otherwise.  A tunnel
 * counts until it is established or gone.  Established tunnels, which
 * carry the logins, are never touched.
 */
static bool lns_setup_room(struct l2d *d, const struct l2d_peer *p)
{
	if (p && p->lns_setup >= d->conf->lns_max_setup_per_peer)
		return false;
	while (d->n_lns_setup >= d->conf->lns_max_setup) {
		d->stats.setup_evicted++;
		tunnel_kill(d->setup_first, L2D_END_LOCAL);
	}
	return true;
}

/*
 * With the kernel data path, a second tunnel whose socket would be
 * connected to the same addresses and ports as a live one black-holes
 * data: the kernel delivers each datagram to one of the two sockets and
 * looks its session up in that socket's tunnel only.  Section 8.1 lets the
 * recipient of an SCCRQ answer from a port of its choosing, and the
 * initiator then sends to it: the new tunnel gets a port of its own
 * (got_scccn() refuses a LAC that does not follow).
 */
static bool shares_4tuple(const struct l2d *d, const struct l2d_peer *p,
			  const struct l2d_addr *peer, const struct l2d_addr *local)
{
	const struct l2d_tunnel *t;

	if (!d->dpops)
		return false;		/* no kernel socket: Tunnel IDs tell them apart */
	for (t = p ? p->tunnels : NULL; t; t = t->pnext)
		if (t->state != L2D_T_DEAD && l2d_addr_eq(&t->peer, peer, true) &&
		    l2d_addr_eq(&t->local, local, true))
			return true;
	return false;
}

/*
 * §4.4.3 ties the SCCRQs of two peers: ours went to t->peer, address and
 * port.  An SCCRQ from another port of that address is not its answer, and
 * may be spoofed (nothing in UDP stops that): it is an SCCRQ like any other
 * and cannot take our calls.  One from the very port can, as the RFC asks;
 * close_sessions() then blames nobody if that tunnel never comes up.
 */
static bool same_peer_for_tie(struct l2d_tunnel *t, const struct l2d_addr *peer)
{
	char from[64], to[64];

	if (!l2d_addr_eq(&t->peer, peer, false))
		return false;
	if (l2d_addr_eq(&t->peer, peer, true))
		return true;
	l2d_addr_str(peer, from, sizeof(from), true);
	l2d_addr_str(&t->peer, to, sizeof(to), true);
	l2d_log(t->d, L2D_LOG_INFO, "tie breaker: SCCRQ from %s, our tunnel %u went to %s: no tie",
		from, t->tid, to);
	return false;
}

/*
 * Our outstanding tunnel lost a tie (§4.4.3) and goes without a word; its
 * calls wait for the peer's tunnel @t, or, on a tie, end as a local failure
 * (the LNS did nothing wrong: no lockout).
 */
static void tie_breaker_lost(struct l2d_tunnel *mine, struct l2d_tunnel *t)
{
	struct l2d_session *s;

	mine->tb_sent = false;
	/*
	 * Our calls ride the peer's tunnel only when it authenticates as ours
	 * would have (the same secret, hence the same hiding): else they end
	 * as a local failure and the login tries again (S-SEC-7).
	 */
	if (t && (t->has_secret != mine->has_secret || mine->host[0] ||
		  (t->has_secret && (t->secret_len != mine->secret_len ||
				     memcmp(t->secret, mine->secret, t->secret_len))))) {
		l2d_log(mine->d, L2D_LOG_INFO, "tunnel %u: the peer's tunnel %u has another secret: "
			"our calls do not move to it", mine->tid, t->tid);
		t = NULL;
	}
	if (t && t->state != L2D_T_DEAD && mine->sessions)
		t->lac = true;
	while (t && t->state != L2D_T_DEAD && (s = mine->sessions)) {
		l2d_session_unlink(s);
		l2d_session_link(s, t);
		t->tb_adopted = t->state != L2D_T_ESTABLISHED;
	}
	/*
	 * What is left (all of them, on a tie) ends as a local failure; the
	 * tunnel is closing first, so that their next attempts cannot join it.
	 */
	if (!mine->end)
		mine->end = L2D_END_LOCAL;
	tunnel_kill(mine, L2D_END_ERROR);
}

/* An SCCRQ (Tunnel ID 0): a retransmission, a tie, or a new LNS tunnel. */
/*
 * Parse a peer's SCCRQ (@len bytes of @buf into @copy, which @m points
 * into) with the secret its Host Name chooses: the Host Name is never
 * hidden (§4.3), and is read first, wherever it is, for AVPs hidden
 * before it to be revealed.  Return: that secret, NULL for none.
 */
static const char *sccrq_parse(struct l2d *d, const uint8_t *buf, size_t len, uint8_t *copy,
			       struct l2tp_msg *m)
{
	char host[L2D_NAME_MAX] = "";
	const char *secret;
	const uint8_t *hv;
	size_t hn;

	if (l2tp_msg_find_plain(buf, len, L2TP_AVP_HOST_NAME, &hv, &hn) && hn < sizeof(host))
		memcpy(host, hv, hn);
	secret = l2d_conf_secret(d->conf, true, host);
	memcpy(copy, buf, len);
	if (secret) {
		struct l2tp_secret s = { (const uint8_t *)secret, strlen(secret) };

		l2tp_msg_parse(m, copy, len, &s);
	} else {
		l2tp_msg_parse(m, copy, len, NULL);
	}
	return secret;
}

/*
 * §4.4.3 Tie Breaker, with an SCCRQ of ours outstanding to this peer:
 * both sent one, the lower value wins and equal values both lose; only
 * one sent one, its sender wins.  The loser silently discards its
 * tunnel; the winner drops the loser's SCCRQ; on a tie nothing answers
 * it.  Neither sent one: two tunnels.
 * @mine: our SCCRQ's tunnel to this peer, or NULL; left set when the
 * peer's wins (ours is discarded after).  Return: true when the peer's
 * SCCRQ is done with.
 */
static bool tie_break(struct l2d *d, struct l2d_tunnel **mine, const struct l2tp_msg *m,
		      const struct l2d_addr *local)
{
	struct l2d_tunnel *my = *mine;
	uint64_t tb = 0;
	bool has_tb;

	has_tb = l2tp_msg_get_u64(m, L2TP_AVP_TIE_BREAKER, &tb);
	if (my && my->tb_sent && !has_tb) {
		l2d_log(d, L2D_LOG_INFO, "tie breaker: only ours (tunnel %u), it wins; SCCRQ dropped",
			my->tid);
		my->lns = true;
		set_tgroup(my, local);
		return true;
	}
	if (my && has_tb && my->tb_sent) {
		if (my->tie_breaker < tb) {
			/* one tunnel for both: the peer's calls come on ours */
			l2d_log(d, L2D_LOG_INFO, "tie breaker: ours (tunnel %u) wins, SCCRQ dropped",
				my->tid);
			my->lns = true;
			set_tgroup(my, local);
			return true;
		}
		l2d_log(d, L2D_LOG_INFO, "tie breaker: %s, tunnel %u discarded",
			my->tie_breaker == tb ? "equal, both lose" : "theirs wins", my->tid);
		if (my->tie_breaker == tb) {
			tie_breaker_lost(my, NULL);
			return true;
		}
	} else if (my && has_tb) {
		l2d_log(d, L2D_LOG_INFO, "tie breaker: only the peer's, it wins; tunnel %u discarded",
			my->tid);
	} else {
		*mine = NULL;
	}
	return false;
}

/*
 * The rate limiter's verdict on a peer's SCCRQ, keyed by the source
 * address only: the Host Name is anyone's claim until the tunnel
 * authenticated, and spoofed SCCRQs naming another LAC would spend that
 * LAC's budget (S-SEC-7).
 */
static unsigned int sccrq_rl_check(struct l2d *d, const struct l2d_addr *peer, struct l2d_rlans *a)
{
	struct l2d_rlreq q = { .dir = L2TPSEL_RL_INGRESS, .msg = L2TPSEL_RL_MSG_SCCRQ, .remote = peer };

	return l2d_rl_check(d, &q, a);
}

static void tunnel_input_sccrq(struct l2d *d, const struct l2d_addr *local,
			       const struct l2d_addr *peer, uint8_t *buf, size_t len)
{
	static uint8_t copy[4096];
	struct l2d_tunnel *t, *mine = NULL;
	struct l2d_peer *p;
	struct l2tp_msg m;
	const char *secret;
	char full[128] = "";
	uint16_t ptid = 0;
	struct l2d_rlans rla;
	bool own_port, rl_reject = false;

	if (len > sizeof(copy) || !local_is_listen(d, local, peer) || d->conf->lns_mode == L2D_LNS_SILENT)
		return;
	secret = sccrq_parse(d, buf, len, copy, &m);
	if (m.type != L2TP_MSG_SCCRQ || m.hdr.zlb)
		return;
	if (!l2tp_msg_get_u16(&m, L2TP_AVP_ASSIGNED_TUNNEL_ID, &ptid) || !ptid) {
		l2d_log(d, L2D_LOG_INFO, "SCCRQ without an Assigned Tunnel ID, dropped");
		return;
	}
	/* a retransmitted SCCRQ goes to the tunnel it created (its SCCRP was lost) */
	p = l2d_peer_find(d, peer);
	for (t = p ? p->tunnels : NULL; t; t = t->pnext) {
		if (!t->initiator && t->peer_tid == ptid && l2d_addr_eq(&t->peer, peer, true)) {
			if (t->state != L2D_T_DEAD)
				tunnel_receive(t, buf, len);
			return;
		}
		if (t->initiator && t->state == L2D_T_WAIT_SCCRP && same_peer_for_tie(t, peer))
			mine = t;
	}
	if (tie_break(d, &mine, &m, local))
		return;
	/* Bounded state, then the rate limiter, before anything is created. */
	if (!lns_setup_room(d, p)) {
		d->stats.sccrq_capped++;
		l2d_log(d, L2D_LOG_DEBUG, "SCCRQ dropped: %u tunnels in setup", d->n_lns_setup);
		return;
	}
	switch (sccrq_rl_check(d, peer, &rla)) {
	case L2TPSEL_RL_DROPPED:
		return;		/* no answer at all, no state */
	case L2TPSEL_RL_REJECTED:
		rl_reject = true;	/* a StopCCN with the limit's codes */
		break;
	default:
		break;
	}
	/* no room for one more established: answered with StopCCN 2/4 */
	lns_full(d, p, full, sizeof(full));
	own_port = shares_4tuple(d, p, peer, local);
	t = tunnel_new(d, peer, local, false, own_port);
	if (!t)
		return;
	if (own_port) {
		d->stats.port_separated++;
		l2d_log(d, L2D_LOG_INFO, "tunnel %u: its peer has a tunnel on our port %u: "
			"answered from port %u", t->tid, l2d_port(local), l2d_port(&t->local));
	}
	lns_setup_add(t);
	if (rl_reject) {
		t->rl_reject = true;
		t->rl_result = rla.result;
		t->rl_error = rla.error;
		l2d_strcpy(t->rl_message, sizeof(t->rl_message), rla.message);
	} else if (full[0]) {
		d->stats.tunnels_capped++;
		t->rl_reject = true;
		t->rl_result = L2TP_STOPCCN_GENERAL_ERROR;
		t->rl_error = L2TP_ERR_NO_RESOURCES;
		l2d_strcpy(t->rl_message, sizeof(t->rl_message), full);
	}
	tunnel_set_secret(t, secret);
	set_tgroup(t, local);
	tunnel_receive(t, buf, len);
	if (mine)
		tie_breaker_lost(mine, t);
}

/* A secret that RADIUS gave ("" for none). */
void l2d_tunnel_set_secret(struct l2d_tunnel *t, const char *secret)
{
	tunnel_set_secret(t, secret);
}

/* The agent ends (l2d_fini()): the calls closed without a CDN, the tunnel dead. */
static void tunnel_end(struct l2d_tunnel *t)
{
	struct l2d_session *s;

	while ((s = t->sessions))
		l2d_session_close(s, L2D_END_LOCAL, false, 0, 0, NULL);
	tunnel_acct_down(t);
	t->state = L2D_T_DEAD;
}

const struct l2d_tunnel_ops l2d_tunnel_ops = {
	.input = tunnel_receive,
	.input_new = tunnel_input_sccrq,
	.stop = l2d_tunnel_stop,
	.end = tunnel_end,
	.free = tunnel_free,
};
