/* SPDX-License-Identifier: GPL-2.0 */
/* What only the session files share (session_refuse.c for session.c). */
#ifndef L2TPSELD_SESSION_INT_H
#define L2TPSELD_SESSION_INT_H

#include "l2d.h"
#include "msg.h"
#include "tunnel.h"

/*
 * A call we will not take, answered before any session exists: CDN result 5
 * to the peer's session @peer_sid (none when 0), with @why.
 */
void l2d_call_refuse(struct l2d_tunnel *t, const struct l2tp_msg *m, uint16_t peer_sid,
		     const char *why);
/* CDN 4/4 to the peer's call @peer_sid, which has no session of ours. */
void l2d_call_cdn_unheld(struct l2d_tunnel *t, uint16_t peer_sid, const char *message);
/* The rate limiter's verdict on an ICRQ of @t (S-SEC-7). */
unsigned int l2d_icrq_rl_check(struct l2d_tunnel *t, struct l2d_rlans *a);
/* lns-max-calls-per-peer, lns-max-calls.  Return: true when the ICRQ was refused. */
bool l2d_icrq_capped(struct l2d_tunnel *t, uint16_t peer_sid);
/* A message for a session this agent does not hold: a late ICRP gets a CDN. */
void l2d_session_input_unknown(struct l2d_tunnel *t, struct l2tp_msg *m);

#endif
