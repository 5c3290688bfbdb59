// SPDX-License-Identifier: GPL-2.0
/*
 * RADIUS accounting of the LNS role's calls (S-AL-1; RFC 2866): Start
 * when a call is established, Interim-Update when a CSUN changes its
 * speeds (RFC 5515), Stop when it ends.  Each record names the
 * call (Acct-Session-Id: the tunnel and session IDs and the call's start
 * on the agent's clock, in hex), the LAC's Calling Number as Calling-Station-Id, the connect
 * speeds as Connect-Info (RFC 2869 section 5.11: "TX/RX") and the line's
 * RFC 5515 AVPs as the RFC 4679 DSL Forum VSAs they came from.  On when
 * radius-accounting is and a radius-server is configured; records go
 * through the RADIUS client's queue (radclient.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "l2d.h"
#include "radius.h"
#include "session.h"

#define ACCT_USER_REQUEST	1	/* Acct-Terminate-Cause, RFC 2866 section 5.10 */
#define ACCT_LOST_CARRIER	2
#define ACCT_ADMIN_RESET	6
#define ACCT_NAS_ERROR		9

static uint32_t terminate_cause(enum l2d_end end)
{
	switch (end) {
	case L2D_END_CDN:
		return ACCT_USER_REQUEST;	/* the LAC cleared the call */
	case L2D_END_LOCAL:
		return ACCT_ADMIN_RESET;
	case L2D_END_ERROR:
		return ACCT_NAS_ERROR;
	default:
		return ACCT_LOST_CARRIER;	/* the tunnel or the peer went */
	}
}

static void lns_acct(struct l2d *d, struct l2d_session *s, uint32_t status)
{
	const struct l2d_conf *c = d->conf;
	static const uint8_t zero[RAD_AUTH_LEN];
	struct rad_pkt *p = malloc(sizeof(*p));
	char id[48], info[48];
	size_t n;

	if (!p)
		return;
	if (status == RAD_ACCT_START) {
		s->acct_started = true;
		s->acct_start_ms = l2d_now(d->loop);
	} else if (status == RAD_ACCT_STOP) {
		s->acct_started = false;
	}
	/* unique while the agent runs: the call's IDs and when it started */
	snprintf(id, sizeof(id), "lns-%u-%u-%llx", s->t->tid, s->sid,
		 (unsigned long long)s->acct_start_ms);
	snprintf(info, sizeof(info), "%u/%u", s->tx_bps, s->rx_bps);
	rad_pkt_init(p, RAD_ACCOUNTING_REQUEST, 0, zero);
	rad_put_u32(p, RAD_ACCT_STATUS_TYPE, status);
	rad_put_str(p, RAD_ACCT_SESSION_ID, id);
	if (s->user[0])
		rad_put_str(p, RAD_CALLING_STATION_ID, s->user);
	rad_put_str(p, RAD_NAS_IDENTIFIER, c->nas_identifier[0] ? c->nas_identifier : c->hostname);
	rad_put_u32(p, RAD_SERVICE_TYPE, RAD_SERVICE_FRAMED);
	rad_put_u32(p, RAD_FRAMED_PROTOCOL, RAD_FRAMED_PPP);
	rad_put_u32(p, RAD_NAS_PORT_TYPE, RAD_PORT_TYPE_VIRTUAL);
	rad_put_str(p, RAD_CONNECT_INFO, info);
	rad_put_u32(p, RAD_ACCT_DELAY_TIME, 0);
	if (status != RAD_ACCT_START)
		rad_put_u32(p, RAD_ACCT_SESSION_TIME,
			    (uint32_t)((l2d_now(d->loop) - s->acct_start_ms) / 1000));
	if (status == RAD_ACCT_STOP)
		rad_put_u32(p, RAD_ACCT_TERMINATE_CAUSE, terminate_cause(s->end));
	if (!p->full && s->al.present) {
		n = al_put_radius(&s->al, p->buf + p->len, RAD_MAX_LEN - p->len);
		p->len += n;
	}
	if (!p->full && l2d_radius_acct(d, p->buf + RAD_HDR_LEN, p->len - RAD_HDR_LEN))
		l2d_log(d, L2D_LOG_ERR, "session %u: LNS accounting record dropped: the queue is full",
			s->sid);
	free(p);
}

void l2d_lns_acct_open(struct l2d *d)
{
	d->lns_acct = d->conf->radius_accounting && d->conf->n_radius ? lns_acct : NULL;
}
