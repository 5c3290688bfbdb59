// SPDX-License-Identifier: GPL-2.0
/*
 * RADIUS accounting of the access role (Documentation/radius.md): each
 * subscriber's Start, Interim-Update and Stop (RFC 2866), the LAC's
 * tunnels and tunnel links with their attributes, and the failed attempts
 * (RFC 2867), handed to the RADIUS client's queue (radclient.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/l2tpsel.h>

#include "access_int.h"
#include "radius.h"

static bool acct_on(const struct acc *a)
{
	return a->d->conf->radius_accounting && l2d_radius_on(a->d);
}

/* RFC 2867's tunnel and tunnel link records too (radius-accounting-tunnel). */
bool acc_acct_tunnel_on(const struct acc *a)
{
	return acct_on(a) && a->d->conf->radius_acct_tunnel;
}

void acc_acct_new_id(struct acc *a, char *id, size_t len)
{
	snprintf(id, len, "%08X%08X", a->acct_base, ++a->acct_seq);
}

/*
 * Interim-Update (RFC 2866 section 5.1, RFC 2869 section 5.16): every
 * Acct-Interim-Interval RADIUS gave (at least 60 s), else every
 * radius-acct-interim; none when both are 0.
 */
uint64_t acc_interim_ms(const struct sub *sb)
{
	return sb->interim_s ? (uint64_t)sb->interim_s * 1000 : sb->a->d->conf->radius_interim_ms;
}

void acc_interim_fire(struct l2d_timer *tm)
{
	struct sub *sb = tm->arg;
	struct l2d *d = sb->a->d;

	if (!sb->acct_started || !acc_interim_ms(sb))
		return;
	acc_acct_send(sb, RAD_ACCT_INTERIM);
	l2d_timer_arm(d->loop, &sb->interim_timer, l2d_now(d->loop) + acc_interim_ms(sb));
}

/*
 * The attributes of tunnel @t (RFC 2867 section 4, tag 1 as RFC 2868
 * section 3 has it) and @conn as Acct-Tunnel-Connection.  @in_leg: a
 * switched call's incoming leg, where the LAC in front is the tunnel's
 * client and this agent its server.
 */
static void put_tunnel_attrs(struct rad_pkt *p, const struct l2d_conf *c,
			     const struct l2d_tunnel *t, uint32_t conn, bool in_leg)
{
	char local[64], peer[64], cs[16];

	l2d_addr_str(&t->local, local, sizeof(local), false);
	l2d_addr_str(&t->peer, peer, sizeof(peer), false);
	snprintf(cs, sizeof(cs), "%u", conn);
	rad_put_tagged_u32(p, RAD_TUNNEL_TYPE, 1, RAD_TUNNEL_L2TP);
	rad_put_tagged_u32(p, RAD_TUNNEL_MEDIUM_TYPE, 1, t->peer.ss.ss_family == AF_INET6 ?
			   RAD_MEDIUM_IPV6 : RAD_MEDIUM_IPV4);
	rad_put_tagged_str(p, RAD_TUNNEL_CLIENT_ENDPOINT, 1, in_leg ? peer : local);
	rad_put_tagged_str(p, RAD_TUNNEL_SERVER_ENDPOINT, 1, in_leg ? local : peer);
	rad_put_str(p, RAD_ACCT_TUNNEL_CONNECTION, cs);
	if (in_leg) {
		if (t->peer_host[0])
			rad_put_tagged_str(p, RAD_TUNNEL_CLIENT_AUTH_ID, 1, t->peer_host);
		rad_put_tagged_str(p, RAD_TUNNEL_SERVER_AUTH_ID, 1, c->hostname);
		return;
	}
	rad_put_tagged_str(p, RAD_TUNNEL_CLIENT_AUTH_ID, 1, t->host[0] ? t->host : c->hostname);
	if (t->peer_host[0])
		rad_put_tagged_str(p, RAD_TUNNEL_SERVER_AUTH_ID, 1, t->peer_host);
}

/*
 * put_tunnel_attrs() into @buf (@size bytes), kept for a subscriber's
 * records; *@len 0 when they do not fit.  Return: 0, or -ENOMEM.
 */
static int keep_tunnel_attrs(const struct l2d_conf *c, const struct l2d_tunnel *t, uint32_t conn,
			     bool in_leg, uint8_t *buf, size_t size, size_t *len)
{
	static const uint8_t zero[RAD_AUTH_LEN];
	struct rad_pkt *p = malloc(sizeof(*p));

	if (!p)
		return -ENOMEM;
	rad_pkt_init(p, RAD_ACCOUNTING_REQUEST, 0, zero);
	put_tunnel_attrs(p, c, t, conn, in_leg);
	if (!p->full && p->len - RAD_HDR_LEN <= size) {
		*len = p->len - RAD_HDR_LEN;
		memcpy(buf, p->buf + RAD_HDR_LEN, *len);
	}
	free(p);
	return 0;
}

/* Start of the call @s: its Acct-Session-Id and the attributes of its tunnel, kept for the Stop. */
void acc_acct_start(struct sub *sb, const struct l2d_session *s)
{
	struct acc *a = sb->a;

	/* section 4.1: for L2TP, the Call Serial Number */
	if (!acct_on(a) || keep_tunnel_attrs(a->d->conf, s->t, s->serial, false, sb->acct_tunnel,
						 sizeof(sb->acct_tunnel), &sb->acct_tunnel_len))
		return;
	acc_acct_new_id(a, sb->acct_id, sizeof(sb->acct_id));
	sb->acct_started = true;
	sb->acct_cause = ACCT_LOST_CARRIER;
	sb->acct_start_ms = l2d_now(a->d->loop);
	acc_acct_send(sb, RAD_ACCT_START);
	if (acc_acct_tunnel_on(a)) {
		acc_acct_new_id(a, sb->link_id, sizeof(sb->link_id));
		sb->link_started = true;
		acc_acct_send(sb, RAD_ACCT_TUNNEL_LINK_START);
	}
	if (acc_interim_ms(sb))
		l2d_timer_arm(a->d->loop, &sb->interim_timer, sb->acct_start_ms + acc_interim_ms(sb));
}

/* What every record of the subscriber's carries (RFC 2866 section 5, RFC 2867 section 3). */
static void acct_head(struct rad_pkt *p, const struct sub *sb, uint32_t status, const char *id)
{
	const struct l2d_conf *c = sb->a->d->conf;
	static const uint8_t zero[RAD_AUTH_LEN];

	rad_pkt_init(p, RAD_ACCOUNTING_REQUEST, 0, zero);
	rad_put_u32(p, RAD_ACCT_STATUS_TYPE, status);
	rad_put_str(p, RAD_ACCT_SESSION_ID, id);
	rad_put_str(p, RAD_USER_NAME, sb->ppp.name);
	rad_put_str(p, RAD_NAS_IDENTIFIER, c->nas_identifier[0] ? c->nas_identifier : c->hostname);
	rad_put_u32(p, RAD_SERVICE_TYPE, RAD_SERVICE_FRAMED);
	rad_put_u32(p, RAD_FRAMED_PROTOCOL, RAD_FRAMED_PPP);
	rad_put_u32(p, RAD_NAS_PORT_TYPE, sb->lts ? RAD_PORT_TYPE_VIRTUAL : RAD_PORT_TYPE_PPPOE);
	rad_put_str(p, RAD_NAS_PORT_ID, sb->ifc->conf->ifname);
	rad_put_str(p, RAD_CALLING_STATION_ID, sb->calling);
	rad_put_str(p, RAD_CALLED_STATION_ID, sb->service);
	rad_put_u32(p, RAD_ACCT_DELAY_TIME, 0);
	/* RFC 4679 section 3: the line's DSL Forum VSAs (S-AL-1) */
	if (!p->full && sb->al.present) {
		size_t n = al_put_radius(&sb->al, p->buf + p->len, RAD_MAX_LEN - p->len);

		p->len += n;
	}
}

/* A record of @sb; @in_leg: a Tunnel-Link record of a switched call's incoming leg. */
void acc_acct_send_leg(struct sub *sb, uint32_t status, bool in_leg)
{
	struct acc *a = sb->a;
	struct rad_pkt *p = malloc(sizeof(*p));

	if (!p)
		return;
	/* a Tunnel-Link record is a pair of its own (RFC 2867 section 2.1) */
	acct_head(p, sb, status, status == RAD_ACCT_TUNNEL_LINK_START ||
		  status == RAD_ACCT_TUNNEL_LINK_STOP ? (in_leg ? sb->in_link_id : sb->link_id) :
		  sb->acct_id);
	if (status != RAD_ACCT_START && status != RAD_ACCT_TUNNEL_LINK_START)
		rad_put_u32(p, RAD_ACCT_SESSION_TIME,
			    (uint32_t)((l2d_now(a->d->loop) - sb->acct_start_ms) / 1000));
	if (status == RAD_ACCT_STOP || status == RAD_ACCT_TUNNEL_LINK_STOP)
		rad_put_u32(p, RAD_ACCT_TERMINATE_CAUSE, sb->acct_cause);
	if (in_leg && sb->in_tunnel_len && p->len + sb->in_tunnel_len <= RAD_MAX_LEN) {
		memcpy(p->buf + p->len, sb->in_tunnel, sb->in_tunnel_len);
		p->len += sb->in_tunnel_len;
	} else if (!in_leg && sb->acct_tunnel_len && p->len + sb->acct_tunnel_len <= RAD_MAX_LEN) {
		memcpy(p->buf + p->len, sb->acct_tunnel, sb->acct_tunnel_len);
		p->len += sb->acct_tunnel_len;
	}
	if (!p->full && l2d_radius_acct(a->d, p->buf + RAD_HDR_LEN, p->len - RAD_HDR_LEN))
		l2d_log(a->d, L2D_LOG_ERR, "access %s: %-s sid %u: accounting record dropped: "
			"the queue is full", sb->ifc->conf->ifname, sb->calling, sb->sid);
	free(p);
}

void acc_acct_send(struct sub *sb, uint32_t status)
{
	acc_acct_send_leg(sb, status, false);
}

/*
 * An attempt of the subscriber's login failed (RFC 2867 section 2.1): a
 * Tunnel-Reject when no tunnel to the LNS came up, a Tunnel-Link-Reject
 * when the tunnel was there and the call was refused or lost; each with a
 * fresh Acct-Session-Id, the LNS as Tunnel-Server-Endpoint and the reason
 * as Acct-Terminate-Cause.  An attempt not made (a local reason) or ended
 * by the subscriber has none.
 */
void acc_attempt_failed(struct l2d *d, struct l2d_login *lg, unsigned int outcome)
{
	struct sub *sb = lg->access;
	struct acc *a = d->actx;
	const struct l2d_session *s = lg->s;
	const struct l2d_tunnel *t = s ? s->t : NULL;
	bool link = t && t->state == L2D_T_ESTABLISHED;
	char id[20], ep[64], conn[16];
	struct rad_pkt *p;
	uint32_t cause;

	if (!sb || sb->dead || !acct_on(a) || outcome == L2TPSEL_OUTCOME_LOCAL ||
	    outcome == L2TPSEL_OUTCOME_CLIENT_GONE || !(p = malloc(sizeof(*p))))
		return;
	cause = outcome == L2TPSEL_OUTCOME_NO_REPLY ? ACCT_SERVICE_UNAVAILABLE :
		outcome == L2TPSEL_OUTCOME_CDN || outcome == L2TPSEL_OUTCOME_STOPCCN ?
		ACCT_HOST_REQUEST : ACCT_NAS_ERROR;
	acc_acct_new_id(a, id, sizeof(id));
	acct_head(p, sb, link ? RAD_ACCT_TUNNEL_LINK_REJECT : RAD_ACCT_TUNNEL_REJECT, id);
	rad_put_u32(p, RAD_ACCT_TERMINATE_CAUSE, cause);
	rad_put_tagged_u32(p, RAD_TUNNEL_TYPE, 1, RAD_TUNNEL_L2TP);
	rad_put_tagged_u32(p, RAD_TUNNEL_MEDIUM_TYPE, 1, lg->step.remote.ss.ss_family == AF_INET6 ?
			   RAD_MEDIUM_IPV6 : RAD_MEDIUM_IPV4);
	if (t) {
		l2d_addr_str(&t->local, ep, sizeof(ep), false);
		rad_put_tagged_str(p, RAD_TUNNEL_CLIENT_ENDPOINT, 1, ep);
	}
	l2d_addr_str(&lg->step.remote, ep, sizeof(ep), false);
	rad_put_tagged_str(p, RAD_TUNNEL_SERVER_ENDPOINT, 1, ep);
	if (s) {
		snprintf(conn, sizeof(conn), "%u", s->serial);
		rad_put_str(p, RAD_ACCT_TUNNEL_CONNECTION, conn);
	}
	rad_put_tagged_str(p, RAD_TUNNEL_CLIENT_AUTH_ID, 1,
			   t && t->host[0] ? t->host : d->conf->hostname);
	if (link && t->peer_host[0])
		rad_put_tagged_str(p, RAD_TUNNEL_SERVER_AUTH_ID, 1, t->peer_host);
	if (!p->full && l2d_radius_acct(d, p->buf + RAD_HDR_LEN, p->len - RAD_HDR_LEN))
		l2d_log(d, L2D_LOG_ERR, "access %s: %-s sid %u: accounting record dropped: "
			"the queue is full", sb->ifc->conf->ifname, sb->calling, sb->sid);
	free(p);
}

/*
 * RFC 2867 section 2.1: Tunnel-Start when a tunnel of the LAC is
 * established, Tunnel-Stop when it is gone, with a pair's Acct-Session-Id,
 * the tunnel's attributes (section 4) and its local Tunnel ID as
 * Acct-Tunnel-Connection.
 */
static void acct_tunnel(struct l2d *d, struct l2d_tunnel *t, uint32_t status)
{
	const struct l2d_conf *c = d->conf;
	static const uint8_t zero[RAD_AUTH_LEN];
	struct rad_pkt *p = malloc(sizeof(*p));
	char peer[64];
	uint32_t cause;

	if (!p)
		return;
	rad_pkt_init(p, RAD_ACCOUNTING_REQUEST, 0, zero);
	rad_put_u32(p, RAD_ACCT_STATUS_TYPE, status);
	rad_put_str(p, RAD_ACCT_SESSION_ID, t->acct_id);
	rad_put_str(p, RAD_NAS_IDENTIFIER, c->nas_identifier[0] ? c->nas_identifier : c->hostname);
	rad_put_u32(p, RAD_ACCT_DELAY_TIME, 0);
	put_tunnel_attrs(p, c, t, t->tid, false);
	if (status == RAD_ACCT_TUNNEL_STOP) {
		cause = d->shutting_down ? ACCT_ADMIN_REBOOT :
			t->end == L2D_END_STOPCCN ? ACCT_HOST_REQUEST :
			t->end == L2D_END_NO_REPLY ? ACCT_LOST_SERVICE :
			t->end == L2D_END_ERROR ? ACCT_NAS_ERROR : ACCT_NAS_REQUEST;
		rad_put_u32(p, RAD_ACCT_SESSION_TIME,
			    (uint32_t)((l2d_now(d->loop) - t->acct_start_ms) / 1000));
		rad_put_u32(p, RAD_ACCT_TERMINATE_CAUSE, cause);
	}
	if (!p->full && l2d_radius_acct(d, p->buf + RAD_HDR_LEN, p->len - RAD_HDR_LEN)) {
		l2d_addr_str(&t->peer, peer, sizeof(peer), false);
		l2d_log(d, L2D_LOG_ERR, "tunnel %u to %s: accounting record dropped: the queue is full",
			t->tid, peer);
	}
	free(p);
}

void acc_tunnel_up(struct l2d *d, struct l2d_tunnel *t)
{
	struct acc *a = d->actx;

	if (!a || !acc_acct_tunnel_on(a))
		return;
	acc_acct_new_id(a, t->acct_id, sizeof(t->acct_id));
	t->acct_start_ms = l2d_now(d->loop);
	t->acct_up = true;
	acct_tunnel(d, t, RAD_ACCT_TUNNEL_START);
}

void acc_tunnel_gone(struct l2d *d, struct l2d_tunnel *t)
{
	t->acct_up = false;
	acct_tunnel(d, t, RAD_ACCT_TUNNEL_STOP);
}

/* @in's leg as RFC 2867 section 4 has it: the LAC in front is the tunnel's client. */
void acc_lts_in_attrs(struct sub *sb, const struct l2d_session *in)
{
	keep_tunnel_attrs(sb->a->d->conf, in->t, in->sid, true, sb->in_tunnel, sizeof(sb->in_tunnel),
			  &sb->in_tunnel_len);
}
