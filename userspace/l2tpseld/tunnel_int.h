/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What only the tunnel files share.  Who calls whom, never back:
 *
 *   tunnel_accept.c  a peer's SCCRQ for Tunnel ID 0, the core's table
 *     -> tunnel_rx.c  a known tunnel's input: its state x message switch
 *       -> session*.c  the calls' messages (session.h)
 *         -> tunnel.c  creation, transmission, timers, the ways a tunnel ends
 *           -> tunnel_peer.c  peers by a seeded hash, the LNS role's counts
 *           -> tunnel_msg.c  the messages' AVPs
 *
 * tunnel.c ends calls through d->sops (l2d.h), not by name.
 */
#ifndef L2TPSELD_TUNNEL_INT_H
#define L2TPSELD_TUNNEL_INT_H

#include "l2d.h"
#include "l2d_loop.h"
#include "tunnel.h"

static inline uint64_t now_ms(struct l2d *d)
{
	return l2d_now(d->loop);
}

/* ---- tunnel.c ---- */
struct l2d_tunnel *l2d_tunnel_create(struct l2d *d, const struct l2d_addr *peer,
				     const struct l2d_addr *local, bool initiator, bool own_port);
/* The tunnel is no longer up: its Tunnel-Stop record, once (access_acct.c). */
void l2d_tunnel_acct_down(struct l2d_tunnel *t);
/* LNS: a tunnel without calls is closed after lns-idle-timeout. */
void l2d_tunnel_idle_arm(struct l2d_tunnel *t);
/* Gone without a word: its calls closed, dead at once. */
void l2d_tunnel_kill(struct l2d_tunnel *t, enum l2d_end end);
/* StopCCN (§5.7) with @result/@error/@text, held one retransmission cycle. */
void l2d_tunnel_stop_end(struct l2d_tunnel *t, enum l2d_end end, uint16_t result,
			 uint16_t error, const char *text);
/* Every call of @t ends with @end (no CDN: the tunnel goes, §5.7). */
void l2d_tunnel_close_sessions(struct l2d_tunnel *t, enum l2d_end end, uint16_t result,
			       uint16_t error);
/* Forget what was queued and not yet sent. */
void l2d_tunnel_drop_unsent(struct l2d_tunnel *t);
/* CLOSING: held for one full retransmission cycle (§5.7), then dead. */
void l2d_tunnel_hold(struct l2d_tunnel *t);
void l2d_tunnel_end(struct l2d_tunnel *t);
void l2d_tunnel_free(struct l2d_tunnel *t);

/* ---- tunnel_rx.c ---- */
/* A datagram of the known tunnel @t, then those stashed ahead of their turn (§5.8). */
void l2d_tunnel_receive(struct l2d_tunnel *t, uint8_t *buf, size_t len);

/* ---- tunnel_peer.c ---- */
int l2d_peer_attach(struct l2d_tunnel *t);	/* -1: no memory, no known family */
void l2d_peer_detach(struct l2d_tunnel *t);
/* LNS tunnels in setup, oldest first (lns-max-setup). */
void l2d_lns_setup_add(struct l2d_tunnel *t);
void l2d_lns_setup_done(struct l2d_tunnel *t);
/*
 * Established LNS-role tunnels (until freed: closing ones hold their IDs
 * too) are capped per peer (lns-max-tunnels-per-peer) and in all
 * (lns-max-tunnels).  Return: true with @why set when full.
 */
bool l2d_lns_full(struct l2d *d, const struct l2d_peer *p, char *why, size_t len);

#endif
