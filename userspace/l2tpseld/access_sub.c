// SPDX-License-Identifier: GPL-2.0
/*
 * The access role's subscriber (Documentation/access.md): its kernel PPPoE
 * session (AF_PPPOX, PX_PROTO_OE) opened as a channel on /dev/ppp, LCP and
 * PAP or CHAP on it (ppp.c), RADIUS or the domain map for the login
 * (lac.c), and its end: every end goes through acc_sub_gone(), and a
 * subscriber is freed at the end of the loop turn, never from inside a
 * callback.  Discovery hands it its PADR and PADT (a->dops); the RADIUS
 * server's Disconnect and CoA requests (RFC 5176) are here with its state.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <linux/if_pppox.h>
#include <linux/ppp-ioctl.h>

#include "access_int.h"
#include "radius.h"

static void ppp_send(struct l2d_ppp *p, const uint8_t *frame, size_t len)
{
	struct sub *sb = p->arg;

	if (sb->dead || sb->chan_fd < 0)
		return;
	if (write(sb->chan_fd, frame, len) < 0)
		l2d_log(sb->a->d, L2D_LOG_DEBUG, "access %s: PPP write: %s", sb->ifc->conf->ifname,
			strerror(errno));
}

static void ppp_random(struct l2d_ppp *p, void *buf, size_t len)
{
	struct sub *sb = p->arg;

	sb->a->d->env->random(sb->a->d, buf, len);
}

static void ppp_down(struct l2d_ppp *p, const char *why)
{
	acc_sub_gone(p->arg, why, true);
}

/* What the ICRQ says of the subscriber's line (access-calling-number). */
static void line_ids(struct sub *sb, const struct pppoe_disc *padr)
{
	const struct l2d_conf *c = sb->a->d->conf;
	const struct pppoe_tagval *v = c->access_calling == L2D_CALLING_CIRCUIT_ID ? &padr->circuit_id :
				       c->access_calling == L2D_CALLING_REMOTE_ID ? &padr->remote_id : NULL;

	pppoe_connect_speed(padr, &sb->tx_bps, &sb->rx_bps);
	if (padr->bbf.present) {
		const char *why = NULL;

		if (al_parse_tr101(&sb->al, padr->bbf.data, padr->bbf.len, &why) == -EBADMSG)
			l2d_log(sb->a->d, L2D_LOG_INFO, "access %s: sid %u: TR-101 tag not carried on: %s",
				sb->ifc->conf->ifname, sb->sid, why);
	}
	if (v && v->present && v->len) {
		size_t n = v->len < sizeof(sb->calling) ? v->len : sizeof(sb->calling) - 1;

		memcpy(sb->calling, v->data, n);
		sb->calling[n] = '\0';
	} else {
		acc_mac_str(sb->mac, sb->calling, sizeof(sb->calling));
	}
	snprintf(sb->called, sizeof(sb->called), "%s", sb->service[0] ? sb->service :
		 sb->ifc->conf->ifname);
}

/* A refusal (@why) to tell the subscriber from the loop: act_fire(). */
static void refuse(struct sub *sb, const char *why)
{
	l2d_strcpy(sb->fail, sizeof(sb->fail), why);
	l2d_timer_arm(sb->a->d->loop, &sb->act_timer, l2d_now(sb->a->d->loop));
}

/*
 * The login of the authenticated name; @profile from RADIUS beats the domain
 * map; RADIUS's tunnel set (@n entries of @set) is the login's own.
 */
static void login(struct sub *sb, const char *profile, const struct rad_set_entry *set,
		  unsigned int n)
{
	struct l2d_login_req req = {
		.access = sb, .user = sb->ppp.name, .profile = n ? NULL : profile,
		.calling = sb->calling, .called = sb->called, .set = set, .nset = n,
	};
	char err[256];
	uint32_t id;

	sb->in_login = true;
	id = l2d_login_start(sb->a->d, &req, err, sizeof(err));
	if (!id) {
		sb->in_login = false;
		return refuse(sb, err);
	}
	if (sb->in_login)
		sb->login_id = id;
}

/*
 * An Access-Accept's tunnel attributes (S-RAD-2, Documentation/radius.md):
 * the login's own tunnel set.  The profile attribute, when the reply has
 * one too, wins (it is the operator's configured policy).
 */
static void login_set(struct sub *sb, const struct rad_reply *r)
{
	struct rad_set_entry set[RAD_SET_MAX];
	struct acc *a = sb->a;
	unsigned int n, skipped, i;
	const char *why;
	char err[256];

	n = rad_tunnel_set(r, set, &skipped, &why);
	if (skipped)
		l2d_log(a->d, L2D_LOG_ERR, "access %s: %-s sid %u: RADIUS: %u tag%s of tunnel "
			"attributes left out: %s", sb->ifc->conf->ifname, sb->calling, sb->sid,
			skipped, skipped == 1 ? "" : "s", why);
	if (!n) {
		snprintf(err, sizeof(err), "RADIUS tunnel attributes name no L2TP tunnel: %s", why);
		return refuse(sb, err);
	}
	for (i = 0; i < n; i++)
		l2d_log(a->d, L2D_LOG_INFO, "access %s: %-s sid %u: RADIUS tunnel tag %u: %s "
			"level %u remote %s%s%s%s", sb->ifc->conf->ifname, sb->calling, sb->sid,
			set[i].tag, set[i].name, set[i].level, set[i].remote,
			set[i].local[0] ? " local " : "", set[i].local,
			set[i].secret[0] ? " secret" : "");
	login(sb, NULL, set, n);
	memset(set, 0, sizeof(set));	/* the secrets */
}

/* The RADIUS server's answer (Documentation/radius.md). */
static void rad_done(void *arg, enum rad_result res, const struct rad_reply *r)
{
	struct sub *sb = arg;
	struct acc *a = sb->a;
	char q[L2D_QUOTED_SIZE(64)];

	sb->rad = NULL;
	switch (res) {
	case RAD_RES_ACCEPT:
		if (r->interim)
			sb->interim_s = r->interim < RAD_INTERIM_MIN ? RAD_INTERIM_MIN : r->interim;
		l2d_log(a->d, L2D_LOG_INFO, "access %s: %-s sid %u: RADIUS Access-Accept%s%s%s",
			sb->ifc->conf->ifname, sb->calling, sb->sid, r->profile[0] ? ", profile " : "",
			r->profile[0] ? l2d_quote_str(q, sizeof(q), r->profile) : "",
			r->tags ? (r->profile[0] ? ", tunnel attributes ignored" :
				   ", tunnel attributes") : "");
		if (!r->profile[0] && r->tags)
			return login_set(sb, r);
		return login(sb, r->profile[0] ? r->profile : NULL, NULL, 0);
	case RAD_RES_REJECT:
		return refuse(sb, r->message[0] ? r->message : "authentication failed");
	case RAD_RES_DOWN:
		if (!a->d->conf->radius_fallback)
			return refuse(sb, "no RADIUS server answered");
		a->st.radius_fallback++;
		l2d_log(a->d, L2D_LOG_INFO, "access %s: %-s sid %u: no RADIUS server answered: "
			"the domain map decides", sb->ifc->conf->ifname, sb->calling, sb->sid);
		return login(sb, NULL, NULL, 0);
	}
}

void acc_sub_auth(struct l2d_ppp *p)
{
	struct sub *sb = p->arg;
	struct acc *a = sb->a;

	ACC_INC(sb->ifc, logins);
	l2d_log(a->d, L2D_LOG_DEBUG, "access %s: %-s sid %u: login %-s (%s)", sb->ifc->conf->ifname,
		sb->calling, sb->sid, p->name, p->auth == PPP_AUTH_CHAP ? "CHAP" : "PAP");
	if (strlen(p->name) != p->name_len)
		return refuse(sb, "user name with a NUL byte");
	if (l2d_radius_on(a->d) && p->auth == PPP_AUTH_CHAP &&
	    p->response_len != RAD_CHAP_RESPONSE_LEN)
		return refuse(sb, "a CHAP-MD5 response is 16 bytes");
	if (l2d_radius_on(a->d)) {
		struct rad_auth ra = {
			.user = p->name, .chap = p->auth == PPP_AUTH_CHAP,
			.secret = p->response, .secret_len = p->response_len,
			.chap_id = p->chap_id, .challenge = p->challenge,
			.challenge_len = p->auth == PPP_AUTH_CHAP ? sizeof(p->challenge) : 0,
			.calling = sb->calling, .port_id = sb->ifc->conf->ifname,
			.called = sb->service,
			.port_type = sb->lts ? RAD_PORT_TYPE_VIRTUAL : 0,
		};

		sb->rad = l2d_radius_auth(a->d, &ra, rad_done, sb);
		if (!sb->rad)
			refuse(sb, "a name or password too long for RADIUS (253 and 128 bytes)");
		return;
	}
	login(sb, NULL, NULL, 0);
}

static const struct l2d_ppp_ops sub_ppp_ops = {
	.send = ppp_send,
	.auth = acc_sub_auth,
	.down = ppp_down,
	.random = ppp_random,
};

/* A refusal is told outside the PPP callbacks: Nak or Failure, then Terminate. */

static void act_fire(struct l2d_timer *t)
{
	struct sub *sb = t->arg;

	if (sb->dead || !sb->fail[0])
		return;
	ACC_INC(sb->ifc, refused);
	l2d_log(sb->a->d, L2D_LOG_INFO, "access %s: %-s sid %u: refused: %s", sb->ifc->conf->ifname,
		sb->calling, sb->sid, sb->fail);
	/* a switched call whose LAC authenticated by proxy: the CDN says why */
	if (sb->lts && sb->ppp.phase != PPP_PHASE_LOGIN)
		return acc_sub_gone(sb, sb->fail, false);
	l2d_ppp_auth_result(&sb->ppp, false, sb->fail);
}

void acc_sub_init(struct sub *sb, struct acc_if *ifc)
{
	sb->a = ifc->a;
	sb->ifc = ifc;
	l2d_timer_init(&sb->act_timer, act_fire, sb);
	l2d_timer_init(&sb->interim_timer, acc_interim_fire, sb);
	l2d_timer_init(&sb->pap_timer, acc_pap_fire, sb);
	sb->ppp.loop = ifc->a->d->loop;
	sb->ppp.ops = &sub_ppp_ops;
	sb->ppp.arg = sb;
}

void acc_sub_link(struct sub *sb)
{
	struct acc *a = sb->a;

	sb->next = a->subs;
	a->subs = sb;
	a->n_subs++;
	sb->ifc->n_subs++;
}

static void chan_readable(struct l2d_fd *f, uint32_t events)
{
	struct sub *sb = f->arg;
	uint8_t buf[2048];
	int i;

	for (i = 0; i < 16 && !sb->dead; i++) {
		ssize_t n = read(sb->chan_fd, buf, sizeof(buf));

		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				break;
			acc_sub_gone(sb, "PPPoE channel error", false);
			return;
		}
		/*
		 * End of file: the kernel unregistered the channel, which the
		 * pppoe module does when it takes a PADT for the session (or
		 * the interface goes away) before our packet socket sees it.
		 */
		if (n == 0) {
			sb->acct_cause = ACCT_USER_REQUEST;
			acc_sub_gone(sb, "PPPoE session ended by the subscriber", false);
			return;
		}
		l2d_ppp_input(&sb->ppp, buf, (size_t)n);
	}
	if (!sb->dead && (events & (EPOLLHUP | EPOLLERR)))
		acc_sub_gone(sb, "PPPoE channel closed", false);
}

int acc_sub_watch(struct sub *sb)
{
	sb->chanw.fd = sb->chan_fd;
	sb->chanw.fn = chan_readable;
	sb->chanw.arg = sb;
	return l2d_fd_add(sb->a->d->loop, &sb->chanw, EPOLLIN);
}

/* /dev/ppp attached to the PPPoE channel @chan, read by the loop. */
int acc_sub_attach(struct sub *sb, int chan)
{
	int err;

	sb->chan_fd = open("/dev/ppp", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (sb->chan_fd < 0)
		return -errno;
	if (ioctl(sb->chan_fd, PPPIOCATTCHAN, &chan) < 0)
		return -errno;
	err = acc_sub_watch(sb);
	return err < 0 ? err : 0;
}

/*
 * The channel's descriptor, then the PPPoE socket's, closed by a worker:
 * each last close waits for a grace period (offload.h).
 */
static void close_fds(struct sub *sb)
{
	struct l2d_offload *off = &sb->a->d->off;

	if (sb->open_job) {
		/* the worker still uses px_fd: the offload closes it after */
		l2d_offload_cancel(off, sb->open_job, NULL, NULL);
		sb->open_job = NULL;
		sb->px_fd = -1;
	}
	if (sb->chan_fd >= 0)
		l2d_fd_del(sb->a->d->loop, &sb->chanw);
	l2d_offload_close(off, sb->chan_fd, sb->px_fd, NULL, NULL);
	sb->chan_fd = sb->px_fd = -1;
}

void acc_reap(struct l2d_timer *t)
{
	struct acc *a = t->arg;

	while (a->dead) {
		struct sub *sb = a->dead;

		a->dead = sb->next;
		free(sb->pads);
		free(sb);
	}
}

/* PADT to the subscriber (RFC 2516 section 5.5), @text its Generic-Error. */
static void send_padt(struct sub *sb, const char *text)
{
	struct pppoe_tagval hu = { sb->host_uniq, sb->host_uniq_len, sb->has_host_uniq };
	uint8_t buf[PPPOE_MAX_PAYLOAD];
	size_t n = pppoe_build_padt(sb->sid, &hu, text, buf, sizeof(buf));

	if (n) {
		acc_disc_send(sb->ifc, sb->mac, buf, n);
		ACC_INC(sb->ifc, padt_tx);
	}
}

/*
 * The subscriber goes: its login or call ends (CDN 1 to the LNS), its PPP
 * stops, PADT when @padt, freed at the end of the turn.
 */

void acc_sub_gone(struct sub *sb, const char *why, bool padt)
{
	struct acc *a = sb->a;
	struct l2d *d = a->d;
	struct sub **pp;

	if (sb->dead)
		return;
	sb->dead = true;
	a->st.gone++;
	/* with the name when it authenticated: at info the one line of its end */
	if (sb->ppp.name_len)
		l2d_log(d, L2D_LOG_INFO, "access %s: %-s sid %u: %-s gone: %s", sb->ifc->conf->ifname,
			sb->calling, sb->sid, sb->ppp.name, why);
	else
		l2d_log(d, L2D_LOG_INFO, "access %s: %-s sid %u: gone: %s", sb->ifc->conf->ifname,
			sb->calling, sb->sid, why);
	l2d_timer_cancel(d->loop, &sb->act_timer);
	l2d_timer_cancel(d->loop, &sb->interim_timer);
	l2d_timer_cancel(d->loop, &sb->pap_timer);
	l2d_radius_cancel(d, sb->rad);
	sb->rad = NULL;
	if (sb->link_started) {
		sb->link_started = false;
		acc_acct_send(sb, RAD_ACCT_TUNNEL_LINK_STOP);
	}
	if (sb->in_link_started) {
		sb->in_link_started = false;
		acc_acct_send_leg(sb, RAD_ACCT_TUNNEL_LINK_STOP, true);
	}
	if (sb->acct_started) {
		sb->acct_started = false;
		acc_acct_send(sb, RAD_ACCT_STOP);
	}
	if (sb->in_login) {
		struct l2d_login *lg = l2d_login_find(d, sb->login_id);

		sb->in_login = false;
		if (lg) {
			lg->access = NULL;
			if (lg->s)
				lg->s->access = NULL;
			l2d_login_client_gone(lg);
		}
	}
	if (sb->s) {
		struct l2d_session *s = sb->s;

		sb->s = NULL;
		s->access = NULL;
		l2d_session_close(s, L2D_END_LOCAL, true, L2TP_CDN_LOST_CARRIER, 0, why);
	}
	if (sb->in) {
		/* S-LTS-1: the end reaches the LAC in front too */
		struct l2d_session *in = sb->in;

		sb->in = NULL;
		in->access = NULL;
		l2d_session_close(in, L2D_END_LOCAL, true, L2TP_CDN_LOST_CARRIER, 0, why);
	}
	l2d_ppp_stop(&sb->ppp);
	if (padt && !sb->lts)
		send_padt(sb, why);
	close_fds(sb);
	for (pp = &a->subs; *pp; pp = &(*pp)->next)
		if (*pp == sb) {
			*pp = sb->next;
			break;
		}
	acc_sid_free(sb->ifc, sb->sid);
	a->n_subs--;
	sb->ifc->n_subs--;
	sb->next = a->dead;
	a->dead = sb;
	l2d_timer_arm(d->loop, &a->reap_timer, l2d_now(d->loop));
}

int acc_sub_chan(struct sub *sb, int chan)
{
	char why[96];
	int err;

	sb->open_job = NULL;
	err = chan < 0 ? chan : acc_sub_attach(sb, chan);
	if (!err)
		return 0;
	l2d_log(sb->a->d, L2D_LOG_ERR, "access %s: %-s sid %u: PPPoE channel: %s",
		sb->ifc->conf->ifname, sb->calling, sb->sid, strerror(-err));
	snprintf(why, sizeof(why), "PPPoE channel: %s", strerror(-err));
	acc_sub_gone(sb, why, true);
	return err;
}

void acc_sub_lcp(struct sub *sb)
{
	const struct l2d_conf *c = sb->a->d->conf;

	sb->ppp.conf.mru = acc_mru(sb->ifc);
	sb->ppp.conf.pap = c->access_pap;
	sb->ppp.conf.chap = c->access_chap;
	sb->ppp.conf.auth_timeout_ms = c->access_auth_timeout_ms;
	l2d_ppp_start(&sb->ppp);
}

/* The session is open: PADS @pads (RFC 2516 section 5.4), then LCP. */
static void sub_start(struct sub *sb, const uint8_t *pads, size_t n)
{
	struct acc_if *ifc = sb->ifc;

	if (n) {
		acc_disc_send(ifc, sb->mac, pads, n);
		ACC_INC(ifc, pads);
	}
	l2d_log(sb->a->d, L2D_LOG_DEBUG, "access %s: %-s sid %u: PADS", ifc->conf->ifname, sb->calling,
		sb->sid);
	/*
	 * section 7: the session stage; LCP first (RFC 1661).  The MRU fits
	 * the path to the LNS (S-MTU-1, mtu.h): LCP runs before the name, so
	 * before the LNS, is known; the access line's path-mtu and
	 * path-family say what every LNS of its subscribers can be reached
	 * over.  The Last Sent LCP CONFREQ AVP proxies it (RFC 2661 4.4.5).
	 */
	acc_sub_lcp(sb);
}

/* The channel's index arrived from the worker (sub_open()): the PADS, LCP. */
static void sub_opened(void *arg, int chan)
{
	struct sub *sb = arg;

	if (acc_sub_chan(sb, chan))
		return;
	sub_start(sb, sb->pads, sb->pads_len);
	free(sb->pads);
	sb->pads = NULL;
	sb->pads_len = 0;
}

/*
 * The kernel PPPoE session of @sb; its channel's index comes from a worker
 * (PPPIOCGCHAN waits for an RCU grace period: offload.h), then
 * sub_opened().  Return: 1 when the index is on its way, 0 when the
 * channel is attached already (no worker to be had), or -errno.
 */
static int sub_open(struct sub *sb)
{
	struct sockaddr_pppox sp = { .sa_family = AF_PPPOX, .sa_protocol = PX_PROTO_OE };
	int chan;

	sb->px_fd = socket(AF_PPPOX, SOCK_STREAM | SOCK_CLOEXEC, PX_PROTO_OE);
	if (sb->px_fd < 0)
		return -errno;
	sp.sa_addr.pppoe.sid = htons(sb->sid);
	memcpy(sp.sa_addr.pppoe.remote, sb->mac, 6);
	l2d_strcpy(sp.sa_addr.pppoe.dev, sizeof(sp.sa_addr.pppoe.dev), sb->ifc->conf->ifname);
	if (connect(sb->px_fd, (struct sockaddr *)&sp, sizeof(sp)) < 0)
		return -errno;
	sb->open_job = l2d_offload_submit(&sb->a->d->off, L2D_JOB_NEW, sb->px_fd, l2d_offload_gchan, sub_opened, sb);
	if (sb->open_job)
		return 1;
	chan = l2d_offload_gchan(sb->px_fd);
	return chan < 0 ? chan : acc_sub_attach(sb, chan);
}

/* ---- from discovery (access_disc.c, a->dops) ---- */

static struct sub *sub_find(struct acc_if *ifc, const uint8_t *mac, uint16_t sid)
{
	struct sub *sb;

	for (sb = ifc->a->subs; sb; sb = sb->next)
		if (sb->ifc == ifc && sb->sid == sid && !memcmp(sb->mac, mac, 6))
			return sb;
	return NULL;
}

/*
 * A PADR again from a subscriber whose PADS was lost: the same session,
 * the same PADS (or none yet, while its channel opens).  Return: whether
 * @p was that.
 */
static bool padr_again(struct acc_if *ifc, const uint8_t *mac, const struct pppoe_disc *p)
{
	uint8_t out[PPPOE_MAX_PAYLOAD];
	struct sub *sb;
	size_t n;

	for (sb = ifc->a->subs; sb; sb = sb->next)
		if (sb->ifc == ifc && !memcmp(sb->mac, mac, 6) &&
		    sb->has_host_uniq == p->host_uniq.present &&
		    sb->host_uniq_len == p->host_uniq.len &&
		    !memcmp(sb->host_uniq, p->host_uniq.data ? p->host_uniq.data : sb->host_uniq,
			    sb->host_uniq_len) &&
		    sb->ppp.phase == PPP_PHASE_LCP) {
			if (sb->open_job)
				return true;	/* its PADS goes once the channel is open */
			n = pppoe_build_pads(p, sb->sid, false, NULL, out, sizeof(out));
			if (n)
				acc_disc_send(ifc, mac, out, n);
			return true;
		}
	return false;
}

/*
 * The subscriber of the PADR @p, its kernel session opening.  Return: it,
 * or NULL with the PADR refused.  *@err: 0 the channel is attached, 1 its
 * index is on its way (sub_open()).
 */
static struct sub *sub_from_padr(struct acc_if *ifc, const uint8_t *mac, const struct pppoe_disc *p,
				 int *err)
{
	const char *why = NULL;
	struct sub *sb = NULL;
	char ms[24];
	size_t n;

	/* S-OPS-1: a PADR for an offer made before the drain: refused, said so */
	if (l2d_draining(ifc->a->d))
		why = "drained: this access concentrator takes no new session";
	else if (p->host_uniq.present && p->host_uniq.len > sizeof(sb->host_uniq))
		why = "Host-Uniq longer than 64 bytes";
	else if (!(sb = calloc(1, sizeof(*sb))))
		why = "out of memory";
	if (why) {
		acc_refuse_padr(ifc, mac, p, false, why);
		return NULL;
	}
	acc_sub_init(sb, ifc);
	sb->px_fd = sb->chan_fd = -1;
	memcpy(sb->mac, mac, 6);
	sb->sid = acc_sid_alloc(ifc);
	if (p->host_uniq.present) {
		sb->has_host_uniq = true;
		sb->host_uniq_len = p->host_uniq.len;
		memcpy(sb->host_uniq, p->host_uniq.data, p->host_uniq.len);
	}
	if (p->service.len) {
		n = p->service.len < sizeof(sb->service) ? p->service.len : sizeof(sb->service) - 1;
		memcpy(sb->service, p->service.data, n);
	}
	if (!sb->sid) {
		free(sb);
		acc_refuse_padr(ifc, mac, p, false, "no PPPoE session id left");
		return NULL;
	}
	*err = sub_open(sb);
	if (*err < 0) {
		acc_mac_str(mac, ms, sizeof(ms));
		l2d_log(ifc->a->d, L2D_LOG_ERR, "access %s: %s: PPPoE session: %s", ifc->conf->ifname, ms,
			strerror(-*err));
		close_fds(sb);
		acc_sid_free(ifc, sb->sid);
		free(sb);
		acc_refuse_padr(ifc, mac, p, false, "PPPoE session unavailable");
		return NULL;
	}
	return sb;
}

/*
 * A PADR that discovery serves (RFC 2516 section 5.3): the same PADS
 * again to a subscriber whose PADS was lost, else a new subscriber whose
 * PADS goes once its kernel session is open (section 5.4).
 */
void acc_sub_padr(struct acc_if *ifc, const uint8_t *mac, const struct pppoe_disc *p)
{
	uint8_t out[PPPOE_MAX_PAYLOAD];
	struct sub *sb;
	size_t n;
	int err;

	if (padr_again(ifc, mac, p))
		return;
	sb = sub_from_padr(ifc, mac, p, &err);
	if (!sb)
		return;
	line_ids(sb, p);
	acc_sub_link(sb);
	n = pppoe_build_pads(p, sb->sid, false, NULL, out, sizeof(out));
	if (err == 0)
		return sub_start(sb, out, n);
	/* the PADS waits for the channel (sub_opened()) */
	sb->pads = n ? malloc(n) : NULL;
	if (sb->pads) {
		memcpy(sb->pads, out, n);
		sb->pads_len = n;
	}
}

void acc_sub_padt(struct acc_if *ifc, const uint8_t *mac, uint16_t sid)
{
	struct sub *sb = sub_find(ifc, mac, sid);

	if (sb) {
		sb->acct_cause = ACCT_USER_REQUEST;
		acc_sub_gone(sb, "PADT from the subscriber", false);
	}
}

/* ---- dynamic authorization (das.c, RFC 5176) ---- */

/* Does the call of @sb match every session attribute @m gives (RFC 5176 section 3)? */
static bool dm_matches(const struct sub *sb, const struct rad_dm *m)
{
	if (sb->dead || !sb->ppp.name_len)
		return false;
	if (m->user[0] && strcmp(m->user, sb->ppp.name))
		return false;
	if (m->acct_id[0] && (!sb->acct_id[0] || strcmp(m->acct_id, sb->acct_id)))
		return false;
	if (m->calling[0] && strcmp(m->calling, sb->calling))
		return false;
	if (m->port_id[0] && strcmp(m->port_id, sb->ifc->conf->ifname))
		return false;
	return true;
}

int l2d_access_disconnect(struct l2d *d, const struct rad_dm *m, uint32_t cause)
{
	struct acc *a = d->actx;
	struct sub *sb, *next;
	int n = 0;

	for (sb = a ? a->subs : NULL; sb; sb = next) {
		next = sb->next;
		if (!dm_matches(sb, m))
			continue;
		/* section 3.3: the Stop says why (Admin-Reset unless the request names a cause) */
		sb->acct_cause = cause ? cause : ACCT_ADMIN_RESET;
		acc_sub_gone(sb, "RADIUS Disconnect-Request", true);
		n++;
	}
	return n;
}

/*
 * A CoA-Request with the line's new rates (RFC 4679 VSAs, rad_dm.al): each
 * access call it matches takes them, and its LNS hears of the actual ones
 * in a CSUN when the ICRQ announced it (RFC 5515, S-AL-1); an
 * Interim-Update carries the new VSAs when accounting is on.
 * Return: the calls changed.
 */
int l2d_access_coa(struct l2d *d, const struct rad_dm *m)
{
	struct acc *a = d->actx;
	struct sub *sb;
	int n = 0, i;

	for (sb = a ? a->subs : NULL; sb; sb = sb->next) {
		if (sb->dead || !dm_matches(sb, m))
			continue;
		for (i = 2; i < AL_N_ATTRS; i++) {
			uint8_t t = al_type_at(i);

			if (!(m->al.present & (1u << i)))
				continue;
			sb->al.present |= 1u << i;
			if (t <= AL_MIN_RATE_DOWN_LP)
				sb->al.rate[t - AL_ACT_RATE_UP] = m->al.rate[t - AL_ACT_RATE_UP];
			else if (t <= AL_ACT_DELAY_DOWN)
				sb->al.delay[t - AL_MAX_DELAY_UP] = m->al.delay[t - AL_MAX_DELAY_UP];
			else
				memcpy(sb->al.encap, m->al.encap, AL_ENCAP_LEN);
		}
		if (al_has(&m->al, AL_ACT_RATE_DOWN))
			sb->tx_bps = (uint32_t)al_rate(&sb->al, AL_ACT_RATE_DOWN);
		if (al_has(&m->al, AL_ACT_RATE_UP))
			sb->rx_bps = (uint32_t)al_rate(&sb->al, AL_ACT_RATE_UP);
		if (sb->s && sb->s->al_sent) {
			sb->s->al = sb->al;
			l2d_session_send_csun(sb->s, sb->tx_bps, sb->rx_bps);
		}
		if (sb->acct_started)
			acc_acct_send(sb, RAD_ACCT_INTERIM);
		n++;
	}
	return n;
}

