// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld: RFC 5515's Connect Speed Update (S-AL-1): the LAC's CSUN, the
 * LNS's taking of one, a CSURQ answered.  Called by tunnel_rx.c and the
 * access files; it finds sessions through session.c, never back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/l2tpsel.h>

#include "l2d.h"
#include "accessline.h"
#include "radius.h"
#include "session.h"
#include "tunnel.h"

/*
 * RFC 5515: a Connect-Speed-Update-Notification for @s (LAC),
 * whose ICRQ announced them (Connect Speed Update Enable): the line's
 * current Tx (downstream) and Rx (upstream) speeds, b/s.  A control
 * connection message (Session ID 0) naming the LNS's session in the AVP.
 * Return: 0 queued, -EAGAIN when @s sends none (not established, or no
 * Enable sent), -ENOBUFS.
 */
int l2d_session_send_csun(struct l2d_session *s, uint32_t tx_bps, uint32_t rx_bps)
{
	struct l2d_tunnel *t = s->t;
	struct l2tp_builder b;
	uint8_t buf[128];
	size_t len;

	if (!s->initiator || !s->al_sent || s->state != L2D_S_ESTABLISHED ||
	    t->state != L2D_T_ESTABLISHED)
		return -EAGAIN;
	l2d_tunnel_builder(t, &b, buf, sizeof(buf), 0, L2TP_MSG_CSUN);
	al_put_csu(&b, s->peer_sid, tx_bps, rx_bps);
	len = l2tp_build_end(&b);
	/*
	 * The Message Type AVP's M bit clear (RFC 2661 section 4.4.1): an LNS
	 * that does not know CSUN ignores it rather than clearing the tunnel.
	 */
	if (len)
		buf[L2TP_CTRL_HDR_LEN] &= (uint8_t)~(L2TP_AVP_M >> 8);
	if (l2d_tunnel_queue(t, buf, len))
		return -ENOBUFS;
	l2d_tunnel_flush(t);
	l2d_log(t->d, L2D_LOG_INFO, "session %u: CSUN sent, tx %u rx %u b/s", s->sid, tx_bps, rx_bps);
	return 0;
}

/*
 * RFC 5515 at the LNS: a CSUN's Connect Speed Update AVPs name
 * our sessions of tunnel @t; each one's speeds are taken (its actual
 * rates: Tx the downstream, Rx the upstream) and accounted (Interim-Update).
 * A CSURQ at the LAC: a CSUN answers it, for the sessions it names (none
 * named: every one that announced CSUNs).  A CSURQ at the LNS, or a CSUN
 * at the LAC, is acknowledged and logged.
 */
void l2d_session_csu_input(struct l2d_tunnel *t, const struct l2tp_msg *m)
{
	struct l2d *d = t->d;
	struct al_csu c[32];
	unsigned int n, i, ign = 0;
	struct l2d_session *s;

	n = m->raw ? al_csu_from_msg(m->raw, m->raw_len, c, 32, &ign) : 0;
	if (m->type == L2TP_MSG_CSURQ && t->initiator) {
		for (s = t->sessions; s; s = s->next) {
			bool named = !n;

			for (i = 0; i < n && !named; i++)
				named = c[i].sid == s->sid;
			if (named && s->al_sent)
				l2d_session_send_csun(s, (uint32_t)al_rate(&s->al, AL_ACT_RATE_DOWN),
						      (uint32_t)al_rate(&s->al, AL_ACT_RATE_UP));
		}
		return;
	}
	if (m->type != L2TP_MSG_CSUN || t->initiator) {
		l2d_log(d, L2D_LOG_INFO, "tunnel %u: %s received as %s, acknowledged", t->tid,
			l2tp_msg_name(m->type), t->initiator ? "LAC" : "LNS");
		return;
	}
	for (i = 0; i < n; i++) {
		s = l2d_session_find(d, c[i].sid);
		if (!s || s->t != t || s->initiator) {
			l2d_log(d, L2D_LOG_INFO, "tunnel %u: CSUN for unknown session %u, ignored",
				t->tid, c[i].sid);
			continue;
		}
		s->tx_bps = c[i].tx_bps;
		s->rx_bps = c[i].rx_bps;
		s->al.rate[AL_ACT_RATE_DOWN - AL_ACT_RATE_UP] = c[i].tx_bps;
		s->al.rate[AL_ACT_RATE_UP - AL_ACT_RATE_UP] = c[i].rx_bps;
		s->al.present |= 1u << al_index(AL_ACT_RATE_DOWN) | 1u << al_index(AL_ACT_RATE_UP);
		l2d_log(d, L2D_LOG_INFO, "session %u: CSUN: tx %u rx %u b/s", s->sid, c[i].tx_bps,
			c[i].rx_bps);
		if (s->acct_started && d->lns_acct)
			d->lns_acct(d, s, RAD_ACCT_INTERIM);
		/* S-LTS-1: a switched call's new rates go on to the LNS behind */
		if (s->lts && s->access && d->aops && d->aops->switch_rates)
			d->aops->switch_rates(d, s);
	}
	if (ign)
		l2d_log(d, L2D_LOG_INFO, "tunnel %u: CSUN: %u Connect Speed Update AVPs skipped "
			"(hidden or not 12 bytes)", t->tid, ign);
}
