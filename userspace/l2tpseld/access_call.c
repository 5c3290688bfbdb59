// SPDX-License-Identifier: GPL-2.0
/*
 * A subscriber's L2TP call (lac.c, session.c and dataplane_kernel.c call these
 * through struct l2d_access_ops): the ICCN's Connect Speeds, Proxy LCP and
 * Proxy Authentication AVPs (RFC 2661 section 4.4.5), the bridge of the
 * call's PPPoL2TP channel to the subscriber's PPPoE channel in the kernel
 * (PPPIOCBRIDGECHAN: no PPP frame passes through the agent after), the PAP
 * hand-over, and the call's end told to the subscriber (LCP
 * Terminate-Request, PADT).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/ppp-ioctl.h>

#include "access_int.h"
#include "l2tp.h"
#include "radius.h"

/*
 * The subscriber's PAP request to the LNS (S-STORM-4), with
 * "access-pap-handover yes".  The LAC took the request and the subscriber
 * waits for its answer.  An LNS that renegotiates LCP (pppd, l2tpns,
 * accel-ppp) makes the subscriber authenticate again after the new LCP,
 * and one that takes the proxy LCP and the proxy authentication (RFC 2661
 * section 4.4.5) answers by itself: neither needs the request, and a
 * renegotiating LNS given a request in the middle of its LCP may check the
 * password twice (l2tpns then drops a RADIUS reply as unexpected).  Only an
 * LNS that keeps the proxied LCP and ignores the proxy authentication
 * waits for a request, which without this is the subscriber's
 * retransmission a second or more later.  The request goes once the ICCN
 * has left (the LNS drops PPP of a call it has not connected), polled
 * while the send window holds the ICCN back.  With CHAP the LNS challenges
 * anew itself: nothing to hand over.
 */
#define PAP_POLL_MS	5
#define PAP_POLL_MAX	200	/* 1 s: then the subscriber's retransmission */

void acc_pap_fire(struct l2d_timer *t)
{
	struct sub *sb = t->arg;
	struct l2d *d = sb->a->d;
	struct l2d_session *s = sb->s;
	uint8_t frame[2 + 4 + 2 + PPP_NAME_MAX + PPP_SECRET_MAX];
	size_t n;

	if (sb->dead || !s || s->ppp_fd < 0)
		return;
	if ((int16_t)(s->t->rel.ns_sent - sb->iccn_ns) <= 0) {
		if (++sb->pap_tries < PAP_POLL_MAX)
			l2d_timer_arm(d->loop, &sb->pap_timer, l2d_now(d->loop) + PAP_POLL_MS);
		return;
	}
	n = l2d_ppp_pap_request(&sb->ppp, frame, sizeof(frame));
	if (n && send(s->ppp_fd, frame, n, MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
		l2d_log(d, L2D_LOG_DEBUG, "access %s: %-s sid %u: PAP request to the LNS: %s",
			sb->ifc->conf->ifname, sb->calling, sb->sid, strerror(errno));
}

void acc_login_done(struct l2d *d, struct l2d_login *lg, struct l2d_session *s,
			   const char *why)
{
	struct sub *sb = lg->access;

	if (!sb || sb->dead)
		return;
	sb->in_login = false;
	sb->login_id = 0;
	if (s) {
		sb->s = s;
		ACC_INC(sb->ifc, up);
		/* bridged: the LNS completes the authentication, by proxy or anew */
		l2d_ppp_quiet(&sb->ppp);
		if (d->conf->access_pap_handover && sb->ppp.auth == PPP_AUTH_PAP &&
		    s->ppp_fd >= 0) {
			sb->iccn_ns = (uint16_t)(s->t->rel.ns_next - 1);	/* just queued */
			sb->pap_tries = 0;
			l2d_timer_arm(d->loop, &sb->pap_timer, l2d_now(d->loop));
		}
		l2d_log(d, L2D_LOG_INFO, "access %s: %-s sid %u: %-s up, tunnel %u session %u",
			sb->ifc->conf->ifname, sb->calling, sb->sid, sb->ppp.name, s->t->tid, s->sid);
		acc_acct_start(sb, s);
		if (sb->lts) {
			sb->a->lts_up++;
			/* RFC 2867 section 2.1: the incoming leg is a tunnel link too */
			if (sb->acct_started && acc_acct_tunnel_on(sb->a)) {
				acc_acct_new_id(sb->a, sb->in_link_id, sizeof(sb->in_link_id));
				sb->in_link_started = true;
				acc_acct_send_leg(sb, RAD_ACCT_TUNNEL_LINK_START, true);
			}
		}
		return;
	}
	l2d_strcpy(sb->fail, sizeof(sb->fail), why);
	l2d_timer_arm(d->loop, &sb->act_timer, l2d_now(d->loop));
}

static void put_capture(struct l2tp_builder *b, uint16_t type, const struct ppp_capture *c)
{
	if (c->present)
		l2tp_put_avp(b, type, c->data, c->len);
}

void acc_connect_speed(struct l2d *d, struct l2d_session *s, uint32_t *tx, uint32_t *rx)
{
	const struct sub *sb = s->access;

	if (sb->tx_bps)
		*tx = sb->tx_bps;
	if (sb->rx_bps)
		*rx = sb->rx_bps;
}

const struct access_line *acc_access_line(struct l2d *d, struct l2d_session *s)
{
	const struct sub *sb = s->access;

	return &sb->al;
}

void acc_iccn_avps(struct l2d *d, struct l2d_session *s, struct l2tp_builder *b)
{
	struct sub *sb = s->access;
	const struct l2d_ppp *p = &sb->ppp;
	uint8_t id[2] = { 0, p->chap_id };

	put_capture(b, L2TP_AVP_INITIAL_RCVD_LCP_CONFREQ, &p->init_rx);
	put_capture(b, L2TP_AVP_LAST_SENT_LCP_CONFREQ, &p->last_tx);
	put_capture(b, L2TP_AVP_LAST_RCVD_LCP_CONFREQ, &p->last_rx);
	if (p->auth != PPP_AUTH_PAP && p->auth != PPP_AUTH_CHAP)
		return;
	l2tp_put_u16(b, L2TP_AVP_PROXY_AUTHEN_TYPE, p->auth);
	l2tp_put_avp(b, L2TP_AVP_PROXY_AUTHEN_NAME, p->name, p->name_len);
	if (p->auth == PPP_AUTH_CHAP) {
		l2tp_put_avp(b, L2TP_AVP_PROXY_AUTHEN_CHALLENGE, p->challenge, sizeof(p->challenge));
		l2tp_put_avp(b, L2TP_AVP_PROXY_AUTHEN_ID, id, sizeof(id));
		l2tp_put_avp(b, L2TP_AVP_PROXY_AUTHEN_RESPONSE, p->response, p->response_len);
	} else {
		/* a password: hidden whenever the tunnel has a secret (section 4.3) */
		l2d_tunnel_put_secret(s->t, b, L2TP_AVP_PROXY_AUTHEN_RESPONSE, p->response,
				      p->response_len);
	}
}

/* PPPIOCBRIDGECHAN: the subscriber's channel to the call's, @chan. */
static int bridge_to(struct l2d *d, struct sub *sb, int chan)
{
	int err = chan;

	if (chan >= 0 && ioctl(sb->chan_fd, PPPIOCBRIDGECHAN, &chan) < 0)
		err = -errno;
	if (err < 0)
		l2d_log(d, L2D_LOG_ERR, "access %s: %-s sid %u: PPPIOCBRIDGECHAN: %s",
			sb->ifc->conf->ifname, sb->calling, sb->sid, strerror(-err));
	return err < 0 ? err : 0;
}

/* The call's channel index arrived from the worker (acc_bridge()). */
static void bridge_done(void *arg, int chan)
{
	struct l2d_session *s = arg;
	struct sub *sb = s->access;
	struct l2d *d = s->t->d;

	s->bridge_job = NULL;
	/* a subscriber that went closed the call, and cancelled this */
	l2d_session_bridged(s, sb ? bridge_to(d, sb, chan) : -ENOENT);
}

/*
 * Bridge the call's PPPoL2TP socket @ppp_fd to the subscriber's channel:
 * its index from a worker (offload.h), then bridge_done().  Return 1 when
 * under way, 0 when bridged (no worker to be had), or -errno.
 */
int acc_bridge(struct l2d *d, struct l2d_session *s, int ppp_fd)
{
	struct sub *sb = s->access;

	if (sb && !sb->dead && sb->lts && s == sb->in)
		return acc_lts_open(sb, ppp_fd);
	if (!sb || sb->dead || sb->chan_fd < 0)
		return -ENOENT;
	s->bridge_job = l2d_offload_submit(&d->off, L2D_JOB_CALL, ppp_fd, l2d_offload_gchan, bridge_done, s);
	if (s->bridge_job)
		return 1;
	return bridge_to(d, sb, l2d_offload_gchan(ppp_fd));
}

/* The call goes before its bridge is made: the worker's fd is the offload's now. */
void acc_bridge_cancel(struct l2d *d, struct l2d_session *s, l2d_job_done closed, void *arg)
{
	l2d_offload_cancel(&d->off, s->bridge_job, closed, arg);
	s->bridge_job = NULL;
}

/* An LCP Terminate-Request of our own (RFC 1661 section 5.5), after the bridge. */
static void send_termreq(struct sub *sb, const char *text)
{
	uint8_t f[2 + 4 + 96];
	size_t tl = strlen(text) < 96 ? strlen(text) : 96;
	uint8_t id;

	sb->a->d->env->random(sb->a->d, &id, 1);
	f[0] = PPP_PROTO_LCP >> 8;
	f[1] = PPP_PROTO_LCP & 0xff;
	f[2] = PPP_TERMREQ;
	f[3] = id;
	f[4] = (uint8_t)((4 + tl) >> 8);
	f[5] = (uint8_t)(4 + tl);
	memcpy(f + 6, text, tl);
	if (sb->chan_fd >= 0 && write(sb->chan_fd, f, 6 + tl) < 0)
		l2d_log(sb->a->d, L2D_LOG_DEBUG, "access: Terminate-Request: %s", strerror(errno));
}

/* How the call @s with @peer ("LAC" or "LNS") ended, in words; @dir "from" or "to". */
static void end_words(const struct l2d_session *s, const char *peer, const char *dir, char *why,
		      size_t len)
{
	if (s->end == L2D_END_STOPCCN)
		snprintf(why, len, "the %s closed the tunnel", peer);
	else if (s->end == L2D_END_CDN)
		snprintf(why, len, "the %s cleared the call (result %u error %u)", peer, s->cdn_result,
			 s->cdn_error);
	else
		snprintf(why, len, "the call %s the %s ended", dir, peer);
}

void acc_session_gone(struct l2d *d, struct l2d_session *s)
{
	struct sub *sb = s->access;
	char why[96];

	if (!sb || sb->dead)
		return;
	if (sb->lts && s == sb->in) {
		/* S-LTS-1: the LAC in front ended the call; the next LNS is told */
		sb->in = NULL;
		end_words(s, "LAC", "from", why, sizeof(why));
		sb->acct_cause = s->end == L2D_END_CDN ? ACCT_USER_REQUEST : ACCT_LOST_SERVICE;
		acc_sub_gone(sb, why, false);
		return;
	}
	sb->s = NULL;
	end_words(s, "LNS", "to", why, sizeof(why));
	/* the PPPoL2TP socket is closed: the kernel has unbridged the channel */
	send_termreq(sb, why);
	sb->acct_cause = ACCT_LOST_SERVICE;
	acc_sub_gone(sb, why, true);
}
