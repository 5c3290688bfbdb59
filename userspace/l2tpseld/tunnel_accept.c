// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld: a peer's SCCRQ for Tunnel ID 0 (RFC 2661 §5.1): the listen
 * lines (S-SEC-9), bounded setup state and the rate limiter, the Tie
 * Breaker (§4.4.3), the tunnel group (S-LIM-3); then the new LNS tunnel
 * takes it (tunnel_rx.c).  And the tunnels' table for the core (l2d.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/l2tpsel.h>

#include "l2d.h"
#include "session.h"
#include "tunnel.h"
#include "tunnel_int.h"

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
		l2d_tunnel_kill(d->setup_first, L2D_END_LOCAL);
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
 * l2d_tunnel_close_sessions() then blames nobody if that tunnel never comes up.
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
	l2d_tunnel_kill(mine, L2D_END_ERROR);
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
				l2d_tunnel_receive(t, buf, len);
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
	l2d_lns_full(d, p, full, sizeof(full));
	own_port = shares_4tuple(d, p, peer, local);
	t = l2d_tunnel_create(d, peer, local, false, own_port);
	if (!t)
		return;
	if (own_port) {
		d->stats.port_separated++;
		l2d_log(d, L2D_LOG_INFO, "tunnel %u: its peer has a tunnel on our port %u: "
			"answered from port %u", t->tid, l2d_port(local), l2d_port(&t->local));
	}
	l2d_lns_setup_add(t);
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
	l2d_tunnel_set_secret(t, secret);
	set_tgroup(t, local);
	l2d_tunnel_receive(t, buf, len);
	if (mine)
		tie_breaker_lost(mine, t);
}

const struct l2d_tunnel_ops l2d_tunnel_ops = {
	.input = l2d_tunnel_receive,
	.input_new = tunnel_input_sccrq,
	.stop = l2d_tunnel_stop,
	.end = l2d_tunnel_end,
	.free = l2d_tunnel_free,
};
