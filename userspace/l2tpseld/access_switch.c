// SPDX-License-Identifier: GPL-2.0
/*
 * Tunnel switching (S-LTS-1, S-LTS-2, Documentation/access.md): an
 * LNS-role call the configuration switches becomes a subscriber of the
 * pseudo-interface "l2tp" whose channel is its PPPoL2TP socket, and whose
 * login walks the selection as a PPPoE subscriber's does; never back to
 * where it came from, and never past lns-switch-hops (lts.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "access_int.h"
#include "lts.h"
#include "radius.h"

/* A Proxy LCP AVP (RFC 2661 section 4.4.5) as the access side keeps its own. */
static void take_capture(struct ppp_capture *c, const struct l2tp_avp_val *v)
{
	if (!v->present || v->len > sizeof(c->data))
		return;
	memcpy(c->data, v->data, v->len);
	c->len = v->len;
	c->present = true;
}

/*
 * The ICCN's Proxy LCP and Proxy Authentication AVPs (RFC 2661 section
 * 4.4.5): kept to go on in the next ICCN as they came.  Return: whether
 * they name the user (PAP or CHAP with every AVP it needs, of lengths
 * ppp.c holds); else the switch authenticates the user itself.
 */
static bool take_proxy(struct l2d_ppp *p, const struct l2tp_msg *m)
{
	const struct l2tp_avp_val *name = &m->avp[L2TP_AVP_PROXY_AUTHEN_NAME];
	const struct l2tp_avp_val *ch = &m->avp[L2TP_AVP_PROXY_AUTHEN_CHALLENGE];
	const struct l2tp_avp_val *id = &m->avp[L2TP_AVP_PROXY_AUTHEN_ID];
	const struct l2tp_avp_val *resp = &m->avp[L2TP_AVP_PROXY_AUTHEN_RESPONSE];
	uint16_t type = 0;

	take_capture(&p->init_rx, &m->avp[L2TP_AVP_INITIAL_RCVD_LCP_CONFREQ]);
	take_capture(&p->last_tx, &m->avp[L2TP_AVP_LAST_SENT_LCP_CONFREQ]);
	take_capture(&p->last_rx, &m->avp[L2TP_AVP_LAST_RCVD_LCP_CONFREQ]);
	if (!l2tp_msg_get_u16(m, L2TP_AVP_PROXY_AUTHEN_TYPE, &type) ||
	    (type != PPP_AUTH_PAP && type != PPP_AUTH_CHAP) ||
	    !name->present || !name->len || name->len > PPP_NAME_MAX ||
	    !resp->present || resp->len > PPP_SECRET_MAX)
		return false;
	if (type == PPP_AUTH_CHAP && (ch->len != sizeof(p->challenge) || id->len != 2))
		return false;
	memcpy(p->name, name->data, name->len);
	p->name[name->len] = '\0';
	p->name_len = (uint8_t)name->len;
	memcpy(p->response, resp->data, resp->len);
	p->response_len = (uint8_t)resp->len;
	if (type == PPP_AUTH_CHAP) {
		memcpy(p->challenge, ch->data, sizeof(p->challenge));
		p->chap_id = id->data[1];
	}
	p->auth = (enum ppp_auth)type;
	return true;
}

/*
 * The LNS-role call @s is switched (session.c, at its ICCN): it becomes a
 * subscriber of the pseudo-interface "l2tp" whose channel is its PPPoL2TP
 * socket (acc_lts_open(), from the data path), whose login walks the selection
 * as a PPPoE subscriber's does, and whose call to the next LNS carries
 * the ICRQ's Calling and Called Number and access-line AVPs and the
 * ICCN's connect speeds and Proxy LCP and authentication.
 */
int acc_switch_call(struct l2d *d, struct l2d_session *s, const struct l2tp_msg *m)
{
	struct acc *a = d->actx;
	struct sub *sb;

	if (!a)
		return -ENOENT;
	sb = calloc(1, sizeof(*sb));
	if (!sb)
		return -ENOMEM;
	acc_sub_init(sb, &a->lts_if);
	sb->sid = s->sid;
	sb->px_fd = sb->chan_fd = -1;
	sb->lts = true;
	sb->in = s;
	if (s->user[0])
		l2d_strcpy(sb->calling, sizeof(sb->calling), s->user);
	else
		l2d_addr_str(&s->t->peer, sb->calling, sizeof(sb->calling), false);
	l2d_strcpy(sb->called, sizeof(sb->called), s->called);
	l2d_strcpy(sb->service, sizeof(sb->service), s->called);
	sb->al = s->al;
	sb->tx_bps = s->tx_bps;
	sb->rx_bps = s->rx_bps;
	sb->proxied = take_proxy(&sb->ppp, m);
	acc_lts_in_attrs(sb, s);
	acc_sub_link(sb);
	a->lts_calls++;
	s->access = sb;
	s->lts = true;
	l2d_log(d, L2D_LOG_INFO, "switch: session %u from %-s (%-s): %s, hop %u", s->sid,
		s->t->peer_host, sb->calling, sb->proxied ? "proxy authentication" :
		"no proxy authentication: LCP here", s->lts_hops + 1);
	return 0;
}

/* The channel is open: the login at once with the LAC's proxy, else LCP here. */
static void lts_begin(struct sub *sb)
{
	if (sb->proxied)
		return acc_sub_auth(&sb->ppp);
	acc_sub_lcp(sb);
}

/* The channel's index arrived from the worker (acc_lts_open()). */
static void lts_opened(void *arg, int chan)
{
	struct sub *sb = arg;

	if (!acc_sub_chan(sb, chan))
		lts_begin(sb);
}

/*
 * The incoming call's PPPoL2TP socket @ppp_fd (the data path's, which
 * keeps it): a descriptor of our own, its channel's index from a worker,
 * then lts_begin().  Return: 0, or -errno.
 */
int acc_lts_open(struct sub *sb, int ppp_fd)
{
	int chan, err;

	sb->px_fd = fcntl(ppp_fd, F_DUPFD_CLOEXEC, 0);
	if (sb->px_fd < 0)
		return -errno;
	sb->open_job = l2d_offload_submit(&sb->a->d->off, L2D_JOB_CALL, sb->px_fd, l2d_offload_gchan, lts_opened, sb);
	if (sb->open_job)
		return 0;
	chan = l2d_offload_gchan(sb->px_fd);
	err = chan < 0 ? chan : acc_sub_attach(sb, chan);
	if (err)
		return err;
	lts_begin(sb);
	return 0;
}

/*
 * S-LTS-1, S-LTS-2: a switched call's attempt goes to a switching profile
 * (lns-switch; RADIUS's tunnel attributes always switch), and never back
 * to the LAC it came from nor to this switch's own address.
 */
const char *acc_attempt_check(struct l2d *d, struct l2d_login *lg)
{
	struct sub *sb = lg->access;
	struct acc *a = d->actx;

	if (!sb || !sb->lts || !sb->in)
		return NULL;
	if (!lg->nset && !l2d_conf_lns_switch(d->conf, lg->step.profile))
		return "not a switching profile (lns-switch)";
	if (l2d_addr_eq(&lg->step.remote, &sb->in->t->peer, false)) {
		a->lts_loops++;
		return "switching loop: the destination is the LAC the call came from";
	}
	if (l2d_addr_eq(&lg->step.remote, &sb->in->t->local, false)) {
		a->lts_loops++;
		return "switching loop: the destination is the address the call reached";
	}
	return NULL;
}

/*
 * RFC 5515 through the switch: a CSUN from the LAC in front gives the
 * call's new rates; the call behind, whose ICRQ announced CSUNs, gets its
 * own, and the user's accounting an Interim-Update (as a CoA's would).
 */
void acc_switch_rates(struct l2d *d, struct l2d_session *in)
{
	struct sub *sb = in->access;

	if (!sb || sb->dead || !sb->lts || sb->in != in)
		return;
	sb->al = in->al;
	sb->tx_bps = in->tx_bps;
	sb->rx_bps = in->rx_bps;
	if (sb->s && !l2d_session_send_csun(sb->s, in->tx_bps, in->rx_bps) && sb->acct_started)
		acc_acct_send(sb, RAD_ACCT_INTERIM);
}

/* S-LTS-2: the next LNS learns the switches the call passed, this one included. */
void acc_icrq_avps(struct l2d *d, struct l2d_session *s, struct l2tp_builder *b)
{
	const struct sub *sb = s->access;

	if (!sb || !sb->lts || !sb->in)
		return;
	s->lts_hops = sb->in->lts_hops + 1;
	lts_put_hops(b, s->lts_hops);
}
