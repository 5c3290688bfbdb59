// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld's access role (Documentation/access.md): PPPoE subscribers on the
 * interfaces of "access pppoe IFNAME ..." lines reach an LNS chosen by the
 * selection, as on a carrier LAC.
 *
 *   PADI -> PADO with an AC-Cookie; PADR with a valid cookie -> PADS and a
 *   kernel PPPoE session (AF_PPPOX, PX_PROTO_OE) opened as a channel on
 *   /dev/ppp (RFC 2516 section 5);
 *   LCP and PAP or CHAP on that channel (ppp.c) give the subscriber's name;
 *   the name is the login (lac.c: domain, profile, the LNS candidates);
 *   ICRQ carries Calling and Called Number, ICCN the Proxy LCP and Proxy
 *   Authentication AVPs (RFC 2661 section 4.4.5);
 *   the call's PPPoL2TP channel and the PPPoE channel are bridged in the
 *   kernel (PPPIOCBRIDGECHAN): no PPP frame passes through the agent after.
 *
 * Every end goes through sub_gone(): PADT from the subscriber (CDN to the
 * LNS), the LNS clearing the call (LCP Terminate-Request and PADT to the
 * subscriber), a refused login (PAP Authenticate-Nak / CHAP Failure with the
 * reason, Terminate-Request, PADT), the agent stopping (PADT).  A subscriber
 * is freed at the end of the loop turn, never from inside a callback.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/if_pppox.h>
#include <linux/ppp-ioctl.h>
#include <linux/l2tpsel.h>

#include "access.h"
#include "avp.h"
#include "l2d.h"
#include "l2tp.h"
#include "mtu.h"
#include "ppp.h"
#include "discrate.h"
#include "offload.h"
#include "pppoe.h"
#include "radius.h"
#include "lts.h"
#include "snap.h"

#define ACC_EPOCH_MS	60000	/* AC-Cookie secret lifetime: a cookie lasts 1-2 of these */
/* PADOs waiting out a pado-delay at once, all interfaces; more are not sent */
#define ACC_PADO_WAIT_MAX 1024

#define ACCT_USER_REQUEST	1	/* Acct-Terminate-Cause, RFC 2866 section 5.10 */
#define ACCT_LOST_CARRIER	2
#define ACCT_LOST_SERVICE	3
#define ACCT_ADMIN_RESET	6
#define ACCT_ADMIN_REBOOT	7
#define ACCT_NAS_ERROR		9
#define ACCT_NAS_REQUEST	10
#define ACCT_SERVICE_UNAVAILABLE 15
#define ACCT_HOST_REQUEST	18

struct acc;

struct acc_stats {
	uint64_t padi, pado, padr, pads, pads_refused, padt_rx, padt_tx;
	/* S-OPS-1: PADOs sent after a delay, withheld by a level "off" or the
	 * drain, dropped (a PADO already waiting for that MAC, or too many) */
	uint64_t pado_delayed, pado_withheld, pado_drained, pado_dropped;
	uint64_t bad, cookie_bad, rate_dropped, no_service;
	uint64_t logins, up, refused, gone, radius_fallback;
};

struct acc_if {
	struct acc *a;
	const struct l2d_access_conf *conf;
	int ifindex;
	int fd;				/* AF_PACKET, ETH_P_PPP_DISC */
	struct l2d_fd fdw;
	const char *services[L2D_MAX_SERVICES];
	struct pppoe_offer offer;
	uint64_t sid_used[65536 / 64];	/* the session IDs of live subscribers */
	struct acc_stats st;		/* its share of a->st (S-OPS-3) */
	unsigned int n_subs;
};

struct sub {
	struct acc *a;
	struct acc_if *ifc;
	struct sub *next;		/* a->subs, or a->dead */
	uint8_t mac[6];
	uint16_t sid;
	uint8_t host_uniq[64];
	uint16_t host_uniq_len;
	bool has_host_uniq;
	int px_fd;			/* the kernel PPPoE session */
	int chan_fd;			/* its channel on /dev/ppp */
	struct l2d_job *open_job;	/* PPPIOCGCHAN of px_fd in flight (offload.h) */
	uint8_t *pads;			/* the PADS to send once the channel is open */
	size_t pads_len;
	struct l2d_fd chanw;
	struct l2d_ppp ppp;
	struct rad_call *rad;		/* Access-Request in flight (radclient.c) */
	uint32_t login_id;		/* login in flight, 0 when none */
	bool in_login;
	struct l2d_session *s;		/* the established call */
	char service[L2D_NAME_MAX];
	char calling[64], called[64];
	uint32_t tx_bps, rx_bps;	/* the PADR's TR-101 line rates; 0: not given */
	struct access_line al;		/* the PADR's TR-101 tag (S-AL-1), CoA's rates */
	char fail[256];			/* the refusal to tell, "" = none */
	/* RADIUS accounting of the call (RFC 2866, RFC 2867): Start sent when up */
	bool acct_started;
	uint32_t acct_cause;		/* Acct-Terminate-Cause of the Stop */
	uint64_t acct_start_ms;
	char acct_id[20];		/* Acct-Session-Id */
	uint8_t acct_tunnel[512];	/* the tunnel's attributes, for Start and Stop */
	size_t acct_tunnel_len;
	uint32_t interim_s;		/* RADIUS's Acct-Interim-Interval; 0: the configured one */
	bool link_started;		/* RFC 2867 Tunnel-Link-Start sent */
	char link_id[20];		/* its Acct-Session-Id */
	struct l2d_timer interim_timer;	/* the next Interim-Update */
	struct l2d_timer act_timer;	/* deferred refusal */
	/* the PAP request handed to the LNS once the ICCN (Ns iccn_ns) left */
	struct l2d_timer pap_timer;
	uint16_t iccn_ns;
	uint8_t pap_tries;
	bool dead;
	/*
	 * Tunnel switching (S-LTS-1, "lns-switch"): the subscriber is a call
	 * that came to the LNS role, @in; px_fd is (a second descriptor of)
	 * its PPPoL2TP socket, chan_fd that channel on /dev/ppp.  With the
	 * LAC's proxy authentication the name is known and the proxied LCP
	 * and authentication go on as they came (proxied); else ppp runs here.
	 */
	bool lts, proxied;
	struct l2d_session *in;
	bool in_link_started;		/* RFC 2867 Tunnel-Link-Start of @in's leg sent */
	char in_link_id[20];
	uint8_t in_tunnel[512];		/* @in's tunnel attributes, for its records */
	size_t in_tunnel_len;
};

/*
 * A PADO waiting out its interface's pado-delay (S-OPS-1) on the loop's
 * timer; its AC-Cookie was made at the PADI, so a PADR for it is served
 * whenever it comes (within the cookie's lifetime).
 */
struct pado_wait {
	struct acc_if *ifc;
	struct pado_wait *next, **pprev;	/* a->waits */
	struct l2d_timer timer;
	uint8_t mac[6];
	size_t len;
	uint8_t frame[PPPOE_MAX_PAYLOAD];
};

struct acc {
	struct l2d *d;
	struct acc_if ifs[L2D_MAX_ACCESS];
	unsigned int n_ifs;
	struct sub *subs, *dead;
	unsigned int n_subs;
	struct l2d_timer reap_timer, epoch_timer;
	uint32_t acct_base, acct_seq;	/* Acct-Session-Id: the agent's start, a count */
	struct pppoe_cookie_keys keys;
	struct disc_rate rate;		/* discovery budgets, S-SEC-6 */
	struct pado_wait *waits;	/* PADOs waiting out a pado-delay */
	unsigned int n_waits;
	struct l2d_offload off;		/* PPPIOCGCHAN off the loop */
	struct acc_stats st;
	/* tunnel switching (S-LTS-1): its calls' pseudo-interface "l2tp" */
	struct acc_if lts_if;
	struct l2d_access_conf lts_conf;
	/* switched calls taken, bridged to the next LNS; attempts refused as loops */
	uint64_t lts_calls, lts_up, lts_loops;
};

/* A counter of the interface @ifc and of the whole access role. */
#define ACC_INC(ifc, field) do {	\
	struct acc_if *ifc_ = (ifc);	\
	ifc_->st.field++;		\
	ifc_->a->st.field++;		\
} while (0)

static void sub_gone(struct sub *sb, const char *why, bool padt);
static void acct_send(struct sub *sb, uint32_t status);

static void mac_str(const uint8_t *m, char *out, size_t len)
{
	snprintf(out, len, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
}

static void disc_send(struct acc_if *ifc, const uint8_t *mac, const uint8_t *buf, size_t len)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_PPP_DISC),
		.sll_ifindex = ifc->ifindex,
		.sll_halen = 6,
	};

	memcpy(sll.sll_addr, mac, 6);
	if (sendto(ifc->fd, buf, len, 0, (struct sockaddr *)&sll, sizeof(sll)) < 0)
		l2d_log(ifc->a->d, L2D_LOG_ERR, "access %s: send: %s", ifc->conf->ifname,
			strerror(errno));
}

static void send_padt(struct sub *sb, const char *text)
{
	struct pppoe_tagval hu = { sb->host_uniq, sb->host_uniq_len, sb->has_host_uniq };
	uint8_t buf[PPPOE_MAX_PAYLOAD];
	size_t n = pppoe_build_padt(sb->sid, &hu, text, buf, sizeof(buf));

	if (n) {
		disc_send(sb->ifc, sb->mac, buf, n);
		ACC_INC(sb->ifc, padt_tx);
	}
}

/*
 * Discovery budgets (S-SEC-6, discrate.h): a PADI against its interface,
 * its line (Agent-Circuit-Id) and its MAC address; a PADR, once its
 * AC-Cookie is known good, against its MAC address only, so that PADIs
 * from elsewhere never crowd out a subscriber we already answered.
 * Return: true when this one may pass.
 */
static bool rate_ok(struct acc_if *ifc, const uint8_t *mac, const struct pppoe_disc *p)
{
	struct acc *a = ifc->a;
	uint64_t sec = l2d_now(a->d->loop) / 1000;
	enum disc_verdict v;
	char ms[24], tmp[16];

	if (p->code == PPPOE_CODE_PADI)
		v = disc_rate_padi(&a->rate, sec, (unsigned int)(ifc - a->ifs),
				   p->circuit_id.present ? p->circuit_id.data : NULL,
				   p->circuit_id.len, mac);
	else
		v = disc_rate_padr(&a->rate, sec, mac);
	if (v == DISC_PASS)
		return true;
	ACC_INC(ifc, rate_dropped);
	if (l2d_log_on(a->d, L2D_LOG_DEBUG)) {
		mac_str(mac, ms, sizeof(ms));
		l2d_log(a->d, L2D_LOG_DEBUG, "access %s: %s from %s %s", ifc->conf->ifname,
			pppoe_code_name(p->code, tmp), ms, disc_verdict_name(v));
	}
	return false;
}

static struct sub *sub_find(struct acc_if *ifc, const uint8_t *mac, uint16_t sid)
{
	struct sub *sb;

	for (sb = ifc->a->subs; sb; sb = sb->next)
		if (sb->ifc == ifc && sb->sid == sid && !memcmp(sb->mac, mac, 6))
			return sb;
	return NULL;
}

/*
 * A PPPoE session ID nobody can guess (RFC 2516 section 5.4 only asks for
 * a unique one): a PADT with a subscriber's MAC and a guessed ID would end
 * its session.  Random, then the next free one; 0 and 0xffff are reserved.
 */
static uint16_t sid_alloc(struct acc_if *ifc)
{
	uint16_t start, sid;
	unsigned int i;

	ifc->a->d->env->random(ifc->a->d, &start, sizeof(start));
	for (i = 0; i < 0x10000; i++) {
		sid = (uint16_t)(start + i);
		if (!sid || sid == 0xffff || (ifc->sid_used[sid / 64] >> (sid % 64)) & 1)
			continue;
		ifc->sid_used[sid / 64] |= 1ULL << (sid % 64);
		return sid;
	}
	return 0;
}

static void sid_free(struct acc_if *ifc, uint16_t sid)
{
	ifc->sid_used[sid / 64] &= ~(1ULL << (sid % 64));
}

/* ---- the subscriber's PPP (ppp.c) ---- */

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
	sub_gone(p->arg, why, true);
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
		mac_str(sb->mac, sb->calling, sizeof(sb->calling));
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
	char err[256];
	uint32_t id;

	sb->in_login = true;
	id = n ? l2d_login_start_set(sb->a->d, sb, sb->ppp.name, set, n, sb->calling, sb->called,
				     err, sizeof(err)) :
		 l2d_login_start_access(sb->a->d, sb, sb->ppp.name, profile, sb->calling,
					sb->called, err, sizeof(err));
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

static void ppp_auth(struct l2d_ppp *p)
{
	struct sub *sb = p->arg;
	struct acc *a = sb->a;

	ACC_INC(sb->ifc, logins);
	l2d_log(a->d, L2D_LOG_INFO, "access %s: %-s sid %u: login %-s (%s)", sb->ifc->conf->ifname,
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
	.auth = ppp_auth,
	.down = ppp_down,
	.random = ppp_random,
};

/* A refusal is told outside the PPP callbacks: Nak or Failure, then Terminate. */
static void pap_fire(struct l2d_timer *t);

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
		return sub_gone(sb, sb->fail, false);
	l2d_ppp_auth_result(&sb->ppp, false, sb->fail);
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
			sub_gone(sb, "PPPoE channel error", false);
			return;
		}
		/*
		 * End of file: the kernel unregistered the channel, which the
		 * pppoe module does when it takes a PADT for the session (or
		 * the interface goes away) before our packet socket sees it.
		 */
		if (n == 0) {
			sb->acct_cause = ACCT_USER_REQUEST;
			sub_gone(sb, "PPPoE session ended by the subscriber", false);
			return;
		}
		l2d_ppp_input(&sb->ppp, buf, (size_t)n);
	}
	if (!sb->dead && (events & (EPOLLHUP | EPOLLERR)))
		sub_gone(sb, "PPPoE channel closed", false);
}

/* The kernel's PPPoE session and its channel.  Return: 0 or -errno. */
static void sub_opened(void *arg, int chan);
static int sub_attach(struct sub *sb, int chan);
static void sub_start(struct sub *sb, const uint8_t *pads, size_t n);

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
	sb->open_job = l2d_offload_submit(&sb->a->off, sb->px_fd, l2d_offload_gchan, sub_opened, sb);
	if (sb->open_job)
		return 1;
	chan = l2d_offload_gchan(sb->px_fd);
	return chan < 0 ? chan : sub_attach(sb, chan);
}

/* /dev/ppp attached to the PPPoE channel @chan, read by the loop. */
static int sub_attach(struct sub *sb, int chan)
{
	int err;

	sb->chan_fd = open("/dev/ppp", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (sb->chan_fd < 0)
		return -errno;
	if (ioctl(sb->chan_fd, PPPIOCATTCHAN, &chan) < 0)
		return -errno;
	sb->chanw.fd = sb->chan_fd;
	sb->chanw.fn = chan_readable;
	sb->chanw.arg = sb;
	err = l2d_fd_add(sb->a->d->loop, &sb->chanw, EPOLLIN);
	return err < 0 ? err : 0;
}

static void sub_close_fds(struct sub *sb)
{
	if (sb->open_job) {
		/* the worker still uses px_fd: the offload closes it after */
		l2d_offload_cancel(&sb->a->off, sb->open_job);
		sb->open_job = NULL;
		sb->px_fd = -1;
	}
	if (sb->chan_fd >= 0) {
		l2d_fd_del(sb->a->d->loop, &sb->chanw);
		close(sb->chan_fd);
	}
	if (sb->px_fd >= 0)
		close(sb->px_fd);
	sb->chan_fd = sb->px_fd = -1;
}

static void reap(struct l2d_timer *t)
{
	struct acc *a = t->arg;

	while (a->dead) {
		struct sub *sb = a->dead;

		a->dead = sb->next;
		free(sb->pads);
		free(sb);
	}
}

/*
 * The subscriber goes: its login or call ends (CDN 1 to the LNS), its PPP
 * stops, PADT when @padt, freed at the end of the turn.
 */
/* ---- RADIUS accounting (RFC 2866; the tunnel's attributes RFC 2867 section 4) ---- */

static bool acct_on(const struct acc *a)
{
	return a->d->conf->radius_accounting && l2d_radius_on(a->d);
}

/* RFC 2867's tunnel and tunnel link records too (radius-accounting-tunnel). */
static bool acct_tunnel_on(const struct acc *a)
{
	return acct_on(a) && a->d->conf->radius_acct_tunnel;
}

static void acct_new_id(struct acc *a, char *id, size_t len)
{
	snprintf(id, len, "%08X%08X", a->acct_base, ++a->acct_seq);
}

/*
 * Interim-Update (RFC 2866 section 5.1, RFC 2869 section 5.16): every
 * Acct-Interim-Interval RADIUS gave (at least 60 s), else every
 * radius-acct-interim; none when both are 0.
 */
static uint64_t interim_ms(const struct sub *sb)
{
	return sb->interim_s ? (uint64_t)sb->interim_s * 1000 : sb->a->d->conf->radius_interim_ms;
}

static void interim_fire(struct l2d_timer *tm)
{
	struct sub *sb = tm->arg;
	struct l2d *d = sb->a->d;

	if (!sb->acct_started || !interim_ms(sb))
		return;
	acct_send(sb, RAD_ACCT_INTERIM);
	l2d_timer_arm(d->loop, &sb->interim_timer, l2d_now(d->loop) + interim_ms(sb));
}

/*
 * The attributes of tunnel @t (RFC 2867 section 4, tag 1 as RFC 2868
 * section 3 has it) and @conn as Acct-Tunnel-Connection.
 */
static void put_tunnel_attrs(struct rad_pkt *p, const struct l2d_conf *c,
			     const struct l2d_tunnel *t, uint32_t conn)
{
	char local[64], peer[64], cs[16];

	l2d_addr_str(&t->local, local, sizeof(local), false);
	l2d_addr_str(&t->peer, peer, sizeof(peer), false);
	snprintf(cs, sizeof(cs), "%u", conn);
	rad_put_tagged_u32(p, RAD_TUNNEL_TYPE, 1, RAD_TUNNEL_L2TP);
	rad_put_tagged_u32(p, RAD_TUNNEL_MEDIUM_TYPE, 1, t->peer.ss.ss_family == AF_INET6 ?
			   RAD_MEDIUM_IPV6 : RAD_MEDIUM_IPV4);
	rad_put_tagged_str(p, RAD_TUNNEL_CLIENT_ENDPOINT, 1, local);
	rad_put_tagged_str(p, RAD_TUNNEL_SERVER_ENDPOINT, 1, peer);
	rad_put_str(p, RAD_ACCT_TUNNEL_CONNECTION, cs);
	rad_put_tagged_str(p, RAD_TUNNEL_CLIENT_AUTH_ID, 1, t->host[0] ? t->host : c->hostname);
	if (t->peer_host[0])
		rad_put_tagged_str(p, RAD_TUNNEL_SERVER_AUTH_ID, 1, t->peer_host);
}

/* Start of the call @s: its Acct-Session-Id and the attributes of its tunnel, kept for the Stop. */
static void acct_start(struct sub *sb, const struct l2d_session *s)
{
	struct acc *a = sb->a;
	const struct l2d_tunnel *t = s->t;
	static const uint8_t zero[RAD_AUTH_LEN];
	struct rad_pkt *p;

	if (!acct_on(a) || !(p = malloc(sizeof(*p))))
		return;
	acct_new_id(a, sb->acct_id, sizeof(sb->acct_id));
	rad_pkt_init(p, RAD_ACCOUNTING_REQUEST, 0, zero);
	/* section 4.1: for L2TP, the Call Serial Number */
	put_tunnel_attrs(p, a->d->conf, t, s->serial);
	if (!p->full && p->len - RAD_HDR_LEN <= sizeof(sb->acct_tunnel)) {
		sb->acct_tunnel_len = p->len - RAD_HDR_LEN;
		memcpy(sb->acct_tunnel, p->buf + RAD_HDR_LEN, sb->acct_tunnel_len);
	}
	free(p);
	sb->acct_started = true;
	sb->acct_cause = ACCT_LOST_CARRIER;
	sb->acct_start_ms = l2d_now(a->d->loop);
	acct_send(sb, RAD_ACCT_START);
	if (acct_tunnel_on(a)) {
		acct_new_id(a, sb->link_id, sizeof(sb->link_id));
		sb->link_started = true;
		acct_send(sb, RAD_ACCT_TUNNEL_LINK_START);
	}
	if (interim_ms(sb))
		l2d_timer_arm(a->d->loop, &sb->interim_timer, sb->acct_start_ms + interim_ms(sb));
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
static void acct_send_leg(struct sub *sb, uint32_t status, bool in_leg)
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

static void acct_send(struct sub *sb, uint32_t status)
{
	acct_send_leg(sb, status, false);
}

static void sub_gone(struct sub *sb, const char *why, bool padt)
{
	struct acc *a = sb->a;
	struct l2d *d = a->d;
	struct sub **pp;

	if (sb->dead)
		return;
	sb->dead = true;
	a->st.gone++;
	l2d_log(d, L2D_LOG_INFO, "access %s: %-s sid %u: gone: %s", sb->ifc->conf->ifname,
		sb->calling, sb->sid, why);
	l2d_timer_cancel(d->loop, &sb->act_timer);
	l2d_timer_cancel(d->loop, &sb->interim_timer);
	l2d_timer_cancel(d->loop, &sb->pap_timer);
	l2d_radius_cancel(d, sb->rad);
	sb->rad = NULL;
	if (sb->link_started) {
		sb->link_started = false;
		acct_send(sb, RAD_ACCT_TUNNEL_LINK_STOP);
	}
	if (sb->in_link_started) {
		sb->in_link_started = false;
		acct_send_leg(sb, RAD_ACCT_TUNNEL_LINK_STOP, true);
	}
	if (sb->acct_started) {
		sb->acct_started = false;
		acct_send(sb, RAD_ACCT_STOP);
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
	sub_close_fds(sb);
	for (pp = &a->subs; *pp; pp = &(*pp)->next)
		if (*pp == sb) {
			*pp = sb->next;
			break;
		}
	sid_free(sb->ifc, sb->sid);
	a->n_subs--;
	sb->ifc->n_subs--;
	sb->next = a->dead;
	a->dead = sb;
	l2d_timer_arm(d->loop, &a->reap_timer, l2d_now(d->loop));
}

/* ---- discovery (RFC 2516 section 5) ---- */

static void refuse_padr(struct acc_if *ifc, const uint8_t *mac, const struct pppoe_disc *p,
			bool service, const char *text);

/*
 * The module's rate limits of type pppoe (Documentation/ratelimit.md), after
 * the local ones and once the frame is one this AC would answer.  A PADI
 * has no refusal in RFC 2516, so reject and drop both leave it unanswered;
 * a rejected PADR gets a PADS with session ID 0 and the limit's message.
 */
static bool disc_rl_ok(struct acc_if *ifc, const uint8_t *mac, const struct pppoe_disc *p)
{
	struct l2d_rlreq q = { .dir = L2TPSEL_RL_INGRESS, .msg = L2TPSEL_RL_MSG_PPPOE,
			       .peer = ifc->conf->ifname };
	struct l2d_rlans ra;

	switch (l2d_rl_check(ifc->a->d, &q, &ra)) {
	case L2TPSEL_RL_PASS:
		return true;
	case L2TPSEL_RL_REJECTED:
		if (p->code == PPPOE_CODE_PADR)
			refuse_padr(ifc, mac, p, false, ra.message);
		return false;
	default:
		return false;
	}
}

static void pado_wait_free(struct acc *a, struct pado_wait *w)
{
	l2d_timer_cancel(a->d->loop, &w->timer);
	*w->pprev = w->next;
	if (w->next)
		w->next->pprev = w->pprev;
	a->n_waits--;
	free(w);
}

/* Its delay is over: the PADO goes, unless the LAC was drained meanwhile. */
static void pado_fire(struct l2d_timer *t)
{
	struct pado_wait *w = t->arg;
	struct acc *a = w->ifc->a;

	if (l2d_draining(a->d)) {
		a->st.pado_drained++;
	} else {
		disc_send(w->ifc, w->mac, w->frame, w->len);
		a->st.pado++;
		a->st.pado_delayed++;
	}
	pado_wait_free(a, w);
}

/*
 * The PADO @out waits @ms on the loop's timer (S-OPS-1).  One waits per
 * interface and MAC (a PADI repeated meanwhile adds none: the subscriber
 * gets one offer from us), at most ACC_PADO_WAIT_MAX in all.
 */
static void pado_later(struct acc_if *ifc, const uint8_t *mac, const uint8_t *out, size_t n,
		       uint32_t ms)
{
	struct acc *a = ifc->a;
	struct pado_wait *w;

	for (w = a->waits; w; w = w->next)
		if (w->ifc == ifc && !memcmp(w->mac, mac, 6))
			break;
	if (w || a->n_waits >= ACC_PADO_WAIT_MAX || n > sizeof(w->frame)) {
		a->st.pado_dropped++;
		return;
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		a->st.pado_dropped++;
		return;
	}
	w->ifc = ifc;
	memcpy(w->mac, mac, 6);
	memcpy(w->frame, out, n);
	w->len = n;
	l2d_timer_init(&w->timer, pado_fire, w);
	w->next = a->waits;
	if (w->next)
		w->next->pprev = &w->next;
	w->pprev = &a->waits;
	a->waits = w;
	a->n_waits++;
	if (l2d_timer_arm(a->d->loop, &w->timer, l2d_now(a->d->loop) + ms) < 0) {
		a->st.pado_dropped++;
		pado_wait_free(a, w);
	}
}

static void got_padi(struct acc_if *ifc, const uint8_t *mac, const struct pppoe_disc *p)
{
	struct acc *a = ifc->a;
	uint8_t cookie[PPPOE_COOKIE_LEN], out[PPPOE_MAX_PAYLOAD];
	uint32_t ms;
	size_t n;

	ACC_INC(ifc, padi);
	if (!pppoe_service_ok(&ifc->offer, &p->service)) {
		ACC_INC(ifc, no_service);	/* section 5.2: only an AC that can serve answers */
		return;
	}
	/* S-OPS-1: a drained LAC offers nothing; another AC may */
	if (l2d_draining(a->d)) {
		a->st.pado_drained++;
		return;
	}
	ms = l2d_pado_delay(ifc->conf, a->n_subs);
	if (ms == L2D_PADO_NONE) {
		a->st.pado_withheld++;
		return;
	}
	if (!rate_ok(ifc, mac, p) || !disc_rl_ok(ifc, mac, p))
		return;
	pppoe_cookie_make(&a->keys, mac, (uint32_t)ifc->ifindex, cookie);
	n = pppoe_build_pado(&ifc->offer, p, cookie, out, sizeof(out));
	if (!n)
		return;
	if (ms)
		return pado_later(ifc, mac, out, n, ms);
	disc_send(ifc, mac, out, n);
	ACC_INC(ifc, pado);
}

static void refuse_padr(struct acc_if *ifc, const uint8_t *mac, const struct pppoe_disc *p,
			bool service, const char *text)
{
	uint8_t out[PPPOE_MAX_PAYLOAD];
	size_t n = pppoe_build_pads(p, 0, service, text, out, sizeof(out));

	ACC_INC(ifc, pads_refused);
	if (n)
		disc_send(ifc, mac, out, n);
}

static void got_padr(struct acc_if *ifc, const uint8_t *mac, const struct pppoe_disc *p)
{
	struct acc *a = ifc->a;
	struct l2d *d = a->d;
	uint8_t out[PPPOE_MAX_PAYLOAD];
	char ms[24];
	struct sub *sb;
	size_t n;
	int err;

	ACC_INC(ifc, padr);
	if (!p->cookie.present ||
	    !pppoe_cookie_check(&a->keys, mac, (uint32_t)ifc->ifindex, p->cookie.data, p->cookie.len)) {
		a->st.cookie_bad++;	/* no state for a PADR we did not invite */
		return;
	}
	if (!rate_ok(ifc, mac, p))
		return;
	if (!pppoe_service_ok(&ifc->offer, &p->service))
		return refuse_padr(ifc, mac, p, true, "service not offered here");
	if (!disc_rl_ok(ifc, mac, p))
		return;
	/* a PADR again (our PADS was lost): the same session, the same PADS */
	for (sb = a->subs; sb; sb = sb->next)
		if (sb->ifc == ifc && !memcmp(sb->mac, mac, 6) &&
		    sb->has_host_uniq == p->host_uniq.present &&
		    sb->host_uniq_len == p->host_uniq.len &&
		    !memcmp(sb->host_uniq, p->host_uniq.data ? p->host_uniq.data : sb->host_uniq,
			    sb->host_uniq_len) &&
		    sb->ppp.phase == PPP_PHASE_LCP) {
			if (sb->open_job)
				return;	/* its PADS goes once the channel is open */
			n = pppoe_build_pads(p, sb->sid, false, NULL, out, sizeof(out));
			if (n)
				disc_send(ifc, mac, out, n);
			return;
		}
	/* S-OPS-1: a PADR for an offer made before the drain: refused, said so */
	if (l2d_draining(d))
		return refuse_padr(ifc, mac, p, false, "drained: this access concentrator takes no new session");
	if (p->host_uniq.present && p->host_uniq.len > sizeof(sb->host_uniq))
		return refuse_padr(ifc, mac, p, false, "Host-Uniq longer than 64 bytes");
	sb = calloc(1, sizeof(*sb));
	if (!sb)
		return refuse_padr(ifc, mac, p, false, "out of memory");
	sb->a = a;
	sb->ifc = ifc;
	sb->px_fd = sb->chan_fd = -1;
	memcpy(sb->mac, mac, 6);
	sb->sid = sid_alloc(ifc);
	if (p->host_uniq.present) {
		sb->has_host_uniq = true;
		sb->host_uniq_len = p->host_uniq.len;
		memcpy(sb->host_uniq, p->host_uniq.data, p->host_uniq.len);
	}
	if (p->service.len) {
		n = p->service.len < sizeof(sb->service) ? p->service.len : sizeof(sb->service) - 1;
		memcpy(sb->service, p->service.data, n);
	}
	l2d_timer_init(&sb->act_timer, act_fire, sb);
	l2d_timer_init(&sb->interim_timer, interim_fire, sb);
	l2d_timer_init(&sb->pap_timer, pap_fire, sb);
	if (!sb->sid) {
		free(sb);
		return refuse_padr(ifc, mac, p, false, "no PPPoE session id left");
	}
	err = sub_open(sb);
	if (err < 0) {
		mac_str(mac, ms, sizeof(ms));
		l2d_log(d, L2D_LOG_ERR, "access %s: %s: PPPoE session: %s", ifc->conf->ifname, ms,
			strerror(-err));
		sub_close_fds(sb);
		sid_free(ifc, sb->sid);
		free(sb);
		return refuse_padr(ifc, mac, p, false, "PPPoE session unavailable");
	}
	line_ids(sb, p);
	sb->next = a->subs;
	a->subs = sb;
	a->n_subs++;
	ifc->n_subs++;
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

static void lts_begin(struct sub *sb);

/* The channel's index arrived from the worker (sub_open(), lts_open()). */
static void sub_opened(void *arg, int chan)
{
	struct sub *sb = arg;
	char why[96];
	int err;

	sb->open_job = NULL;
	err = chan < 0 ? chan : sub_attach(sb, chan);
	if (err) {
		l2d_log(sb->a->d, L2D_LOG_ERR, "access %s: %-s sid %u: PPPoE channel: %s",
			sb->ifc->conf->ifname, sb->calling, sb->sid, strerror(-err));
		snprintf(why, sizeof(why), "PPPoE channel: %s", strerror(-err));
		sub_gone(sb, why, true);
		return;
	}
	if (sb->lts)
		lts_begin(sb);
	else
		sub_start(sb, sb->pads, sb->pads_len);
	free(sb->pads);
	sb->pads = NULL;
	sb->pads_len = 0;
}

/* The MRU asked of the subscribers of @ifc (S-MTU-1). */
static uint16_t acc_mru(const struct acc_if *ifc)
{
	return l2d_access_mru(ifc->conf->path_mtu, ifc->conf->path_ipv6, ifc->a->d->conf->data_seq);
}

/* The session is open: PADS @pads (RFC 2516 section 5.4), then LCP. */
static void sub_start(struct sub *sb, const uint8_t *pads, size_t n)
{
	struct acc_if *ifc = sb->ifc;
	struct l2d *d = sb->a->d;

	if (n) {
		disc_send(ifc, sb->mac, pads, n);
		ACC_INC(ifc, pads);
	}
	l2d_log(d, L2D_LOG_INFO, "access %s: %-s sid %u: PADS", ifc->conf->ifname, sb->calling,
		sb->sid);
	/*
	 * section 7: the session stage; LCP first (RFC 1661).  The MRU fits
	 * the path to the LNS (S-MTU-1, mtu.h): LCP runs before the name, so
	 * before the LNS, is known; the access line's path-mtu and
	 * path-family say what every LNS of its subscribers can be reached
	 * over.  The Last Sent LCP CONFREQ AVP proxies it (RFC 2661 4.4.5).
	 */
	sb->ppp.loop = d->loop;
	sb->ppp.ops = &sub_ppp_ops;
	sb->ppp.arg = sb;
	sb->ppp.conf.mru = acc_mru(ifc);
	sb->ppp.conf.pap = d->conf->access_pap;
	sb->ppp.conf.chap = d->conf->access_chap;
	sb->ppp.conf.auth_timeout_ms = d->conf->access_auth_timeout_ms;
	l2d_ppp_start(&sb->ppp);
}

static void disc_input(struct acc_if *ifc, const uint8_t *mac, const uint8_t *buf, size_t len)
{
	struct acc *a = ifc->a;
	struct pppoe_disc p;
	const char *why = "?";
	char ms[24], tmp[16];
	struct sub *sb;

	if (pppoe_disc_parse(buf, len, &p, &why)) {
		ACC_INC(ifc, bad);
		mac_str(mac, ms, sizeof(ms));
		l2d_log(a->d, L2D_LOG_DEBUG, "access %s: discovery from %s dropped: %s",
			ifc->conf->ifname, ms, why);
		return;
	}
	switch (p.code) {
	case PPPOE_CODE_PADI:
		return got_padi(ifc, mac, &p);
	case PPPOE_CODE_PADR:
		return got_padr(ifc, mac, &p);
	case PPPOE_CODE_PADT:
		ACC_INC(ifc, padt_rx);
		sb = sub_find(ifc, mac, p.sid);
		if (sb) {
			sb->acct_cause = ACCT_USER_REQUEST;
			sub_gone(sb, "PADT from the subscriber", false);
		}
		return;
	default:
		/* PADO, PADS: another AC's, not ours to answer */
		l2d_log(a->d, L2D_LOG_DEBUG, "access %s: %s ignored", ifc->conf->ifname,
			pppoe_code_name(p.code, tmp));
		return;
	}
}

static void disc_readable(struct l2d_fd *f, uint32_t events)
{
	struct acc_if *ifc = f->arg;
	uint8_t buf[PPPOE_MAX_PAYLOAD + 64];
	int i;

	for (i = 0; i < 64; i++) {
		struct sockaddr_ll sll;
		socklen_t sl = sizeof(sll);
		ssize_t n = recvfrom(ifc->fd, buf, sizeof(buf), MSG_DONTWAIT,
				     (struct sockaddr *)&sll, &sl);

		if (n < 0)
			return;
		if (sll.sll_pkttype == PACKET_OUTGOING || sll.sll_halen != 6)
			continue;
		disc_input(ifc, sll.sll_addr, buf, (size_t)n);
	}
}

static void epoch_fire(struct l2d_timer *t)
{
	struct acc *a = t->arg;
	uint8_t fresh[PPPOE_SECRET_LEN];

	a->d->env->random(a->d, fresh, sizeof(fresh));
	pppoe_cookie_rotate(&a->keys, fresh);
	l2d_timer_arm(a->d->loop, t, l2d_now(a->d->loop) + ACC_EPOCH_MS);
}

/* ---- the hooks of the call (lac.c, session.c, dpglue.c) ---- */

/*
 * An attempt of the subscriber's login failed (RFC 2867 section 2.1): a
 * Tunnel-Reject when no tunnel to the LNS came up, a Tunnel-Link-Reject
 * when the tunnel was there and the call was refused or lost; each with a
 * fresh Acct-Session-Id, the LNS as Tunnel-Server-Endpoint and the reason
 * as Acct-Terminate-Cause.  An attempt not made (a local reason) or ended
 * by the subscriber has none.
 */
static void acc_attempt_failed(struct l2d *d, struct l2d_login *lg, unsigned int outcome)
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
	acct_new_id(a, id, sizeof(id));
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

static void pap_fire(struct l2d_timer *t)
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

static void acc_login_done(struct l2d *d, struct l2d_login *lg, struct l2d_session *s,
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
		l2d_log(d, L2D_LOG_INFO, "access %s: %-s sid %u: up, tunnel %u session %u",
			sb->ifc->conf->ifname, sb->calling, sb->sid, s->t->tid, s->sid);
		acct_start(sb, s);
		if (sb->lts) {
			sb->a->lts_up++;
			/* RFC 2867 section 2.1: the incoming leg is a tunnel link too */
			if (sb->acct_started && acct_tunnel_on(sb->a)) {
				acct_new_id(sb->a, sb->in_link_id, sizeof(sb->in_link_id));
				sb->in_link_started = true;
				acct_send_leg(sb, RAD_ACCT_TUNNEL_LINK_START, true);
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

static void acc_connect_speed(struct l2d *d, struct l2d_session *s, uint32_t *tx, uint32_t *rx)
{
	const struct sub *sb = s->access;

	if (sb->tx_bps)
		*tx = sb->tx_bps;
	if (sb->rx_bps)
		*rx = sb->rx_bps;
}

static const struct access_line *acc_access_line(struct l2d *d, struct l2d_session *s)
{
	const struct sub *sb = s->access;

	return &sb->al;
}

static void acc_iccn_avps(struct l2d *d, struct l2d_session *s, struct l2tp_builder *b)
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

static int lts_open(struct sub *sb, int ppp_fd);

/*
 * Bridge the call's PPPoL2TP socket @ppp_fd to the subscriber's channel:
 * its index from a worker (offload.h), then bridge_done().  Return 1 when
 * under way, 0 when bridged (no worker to be had), or -errno.
 */
static int acc_bridge(struct l2d *d, struct l2d_session *s, int ppp_fd)
{
	struct sub *sb = s->access;
	struct acc *a = d->actx;

	if (sb && !sb->dead && sb->lts && s == sb->in)
		return lts_open(sb, ppp_fd);
	if (!sb || sb->dead || sb->chan_fd < 0)
		return -ENOENT;
	s->bridge_job = l2d_offload_submit(&a->off, ppp_fd, l2d_offload_gchan, bridge_done, s);
	if (s->bridge_job)
		return 1;
	return bridge_to(d, sb, l2d_offload_gchan(ppp_fd));
}

/* The call goes before its bridge is made: the worker's fd is the offload's now. */
static void acc_bridge_cancel(struct l2d *d, struct l2d_session *s)
{
	struct acc *a = d->actx;

	l2d_offload_cancel(&a->off, s->bridge_job);
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

static void acc_session_gone(struct l2d *d, struct l2d_session *s)
{
	struct sub *sb = s->access;
	char why[96];

	if (!sb || sb->dead)
		return;
	if (sb->lts && s == sb->in) {
		/* S-LTS-1: the LAC in front ended the call; the next LNS is told */
		sb->in = NULL;
		if (s->end == L2D_END_STOPCCN)
			snprintf(why, sizeof(why), "the LAC closed the tunnel");
		else if (s->end == L2D_END_CDN)
			snprintf(why, sizeof(why), "the LAC cleared the call (result %u error %u)",
				 s->cdn_result, s->cdn_error);
		else
			snprintf(why, sizeof(why), "the call from the LAC ended");
		sb->acct_cause = s->end == L2D_END_CDN ? ACCT_USER_REQUEST : ACCT_LOST_SERVICE;
		sub_gone(sb, why, false);
		return;
	}
	sb->s = NULL;
	if (s->end == L2D_END_STOPCCN)
		snprintf(why, sizeof(why), "the LNS closed the tunnel");
	else if (s->end == L2D_END_CDN)
		snprintf(why, sizeof(why), "the LNS cleared the call (result %u error %u)",
			 s->cdn_result, s->cdn_error);
	else
		snprintf(why, sizeof(why), "the call to the LNS ended");
	/* the PPPoL2TP socket is closed: the kernel has unbridged the channel */
	send_termreq(sb, why);
	sb->acct_cause = ACCT_LOST_SERVICE;
	sub_gone(sb, why, true);
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
	put_tunnel_attrs(p, c, t, t->tid);
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

static void acc_tunnel_up(struct l2d *d, struct l2d_tunnel *t)
{
	struct acc *a = d->actx;

	if (!a || !acct_tunnel_on(a))
		return;
	acct_new_id(a, t->acct_id, sizeof(t->acct_id));
	t->acct_start_ms = l2d_now(d->loop);
	t->acct_up = true;
	acct_tunnel(d, t, RAD_ACCT_TUNNEL_START);
}

static void acc_tunnel_gone(struct l2d *d, struct l2d_tunnel *t)
{
	t->acct_up = false;
	acct_tunnel(d, t, RAD_ACCT_TUNNEL_STOP);
}

/* ---- tunnel switching (S-LTS-1, S-LTS-2) ---- */

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

/* @in's leg as RFC 2867 section 4 has it: the LAC in front is the tunnel's client. */
static void lts_in_attrs(struct sub *sb, const struct l2d_session *in)
{
	const struct l2d_tunnel *t = in->t;
	const struct l2d_conf *c = sb->a->d->conf;
	char local[64], peer[64], cs[16];
	static const uint8_t zero[RAD_AUTH_LEN];
	struct rad_pkt *p = malloc(sizeof(*p));

	if (!p)
		return;
	rad_pkt_init(p, RAD_ACCOUNTING_REQUEST, 0, zero);
	l2d_addr_str(&t->local, local, sizeof(local), false);
	l2d_addr_str(&t->peer, peer, sizeof(peer), false);
	snprintf(cs, sizeof(cs), "%u", in->sid);
	rad_put_tagged_u32(p, RAD_TUNNEL_TYPE, 1, RAD_TUNNEL_L2TP);
	rad_put_tagged_u32(p, RAD_TUNNEL_MEDIUM_TYPE, 1, t->peer.ss.ss_family == AF_INET6 ?
			   RAD_MEDIUM_IPV6 : RAD_MEDIUM_IPV4);
	rad_put_tagged_str(p, RAD_TUNNEL_CLIENT_ENDPOINT, 1, peer);
	rad_put_tagged_str(p, RAD_TUNNEL_SERVER_ENDPOINT, 1, local);
	rad_put_str(p, RAD_ACCT_TUNNEL_CONNECTION, cs);
	if (t->peer_host[0])
		rad_put_tagged_str(p, RAD_TUNNEL_CLIENT_AUTH_ID, 1, t->peer_host);
	rad_put_tagged_str(p, RAD_TUNNEL_SERVER_AUTH_ID, 1, c->hostname);
	if (!p->full && p->len - RAD_HDR_LEN <= sizeof(sb->in_tunnel)) {
		sb->in_tunnel_len = p->len - RAD_HDR_LEN;
		memcpy(sb->in_tunnel, p->buf + RAD_HDR_LEN, sb->in_tunnel_len);
	}
	free(p);
}

/*
 * The LNS-role call @s is switched (session.c, at its ICCN): it becomes a
 * subscriber of the pseudo-interface "l2tp" whose channel is its PPPoL2TP
 * socket (lts_open(), from the data path), whose login walks the selection
 * as a PPPoE subscriber's does, and whose call to the next LNS carries
 * the ICRQ's Calling and Called Number and access-line AVPs and the
 * ICCN's connect speeds and Proxy LCP and authentication.
 */
static int acc_switch_call(struct l2d *d, struct l2d_session *s, const struct l2tp_msg *m)
{
	struct acc *a = d->actx;
	struct sub *sb;

	if (!a)
		return -ENOENT;
	sb = calloc(1, sizeof(*sb));
	if (!sb)
		return -ENOMEM;
	sb->a = a;
	sb->ifc = &a->lts_if;
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
	l2d_timer_init(&sb->act_timer, act_fire, sb);
	l2d_timer_init(&sb->interim_timer, interim_fire, sb);
	l2d_timer_init(&sb->pap_timer, pap_fire, sb);
	sb->ppp.loop = d->loop;
	sb->ppp.ops = &sub_ppp_ops;
	sb->ppp.arg = sb;
	sb->proxied = take_proxy(&sb->ppp, m);
	lts_in_attrs(sb, s);
	sb->next = a->subs;
	a->subs = sb;
	a->n_subs++;
	a->lts_if.n_subs++;
	a->lts_calls++;
	s->access = sb;
	s->lts = true;
	l2d_log(d, L2D_LOG_INFO, "switch: session %u from %-s (%-s): %s, hop %u", s->sid,
		s->t->peer_host, sb->calling, sb->proxied ? "proxy authentication" :
		"no proxy authentication: LCP here", s->lts_hops + 1);
	return 0;
}

/*
 * The incoming call's PPPoL2TP socket @ppp_fd (the data path's, which
 * keeps it): a descriptor of our own, its channel's index from a worker,
 * then lts_begin().  Return: 0, or -errno.
 */
static int lts_open(struct sub *sb, int ppp_fd)
{
	int chan, err;

	sb->px_fd = fcntl(ppp_fd, F_DUPFD_CLOEXEC, 0);
	if (sb->px_fd < 0)
		return -errno;
	sb->open_job = l2d_offload_submit(&sb->a->off, sb->px_fd, l2d_offload_gchan, sub_opened, sb);
	if (sb->open_job)
		return 0;
	chan = l2d_offload_gchan(sb->px_fd);
	err = chan < 0 ? chan : sub_attach(sb, chan);
	if (err)
		return err;
	lts_begin(sb);
	return 0;
}

/* The channel is open: the login at once with the LAC's proxy, else LCP here. */
static void lts_begin(struct sub *sb)
{
	struct l2d *d = sb->a->d;

	if (sb->proxied)
		return ppp_auth(&sb->ppp);
	sb->ppp.conf.mru = acc_mru(sb->ifc);
	sb->ppp.conf.pap = d->conf->access_pap;
	sb->ppp.conf.chap = d->conf->access_chap;
	sb->ppp.conf.auth_timeout_ms = d->conf->access_auth_timeout_ms;
	l2d_ppp_start(&sb->ppp);
}

/*
 * S-LTS-1, S-LTS-2: a switched call's attempt goes to a switching profile
 * (lns-switch; RADIUS's tunnel attributes always switch), and never back
 * to the LAC it came from nor to this switch's own address.
 */
static const char *acc_attempt_check(struct l2d *d, struct l2d_login *lg)
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
static void acc_switch_rates(struct l2d *d, struct l2d_session *in)
{
	struct sub *sb = in->access;

	if (!sb || sb->dead || !sb->lts || sb->in != in)
		return;
	sb->al = in->al;
	sb->tx_bps = in->tx_bps;
	sb->rx_bps = in->rx_bps;
	if (sb->s && !l2d_session_send_csun(sb->s, in->tx_bps, in->rx_bps) && sb->acct_started)
		acct_send(sb, RAD_ACCT_INTERIM);
}

/* S-LTS-2: the next LNS learns the switches the call passed, this one included. */
static void acc_icrq_avps(struct l2d *d, struct l2d_session *s, struct l2tp_builder *b)
{
	const struct sub *sb = s->access;

	if (!sb || !sb->lts || !sb->in)
		return;
	s->lts_hops = sb->in->lts_hops + 1;
	lts_put_hops(b, s->lts_hops);
}

/* ---- upgrade without loss (S-OPS-2, snap.h) ---- */

/*
 * Up: its call established and bridged, PPP left to the LNS.  A switched
 * call (S-LTS-1) is not carried across an upgrade: it ends with the old
 * process, both legs cleared.
 */
static bool sub_up(const struct sub *sb)
{
	return !sb->dead && !sb->lts && sb->s && sb->s->state == L2D_S_ESTABLISHED && !sb->s->bridge_job &&
	       sb->s->ppp_fd >= 0 && sb->chan_fd >= 0 && sb->px_fd >= 0 &&
	       sb->ppp.phase == PPP_PHASE_QUIET;
}

/* The subscribers half way (discovery, LCP, authentication, login, bridge) end with PADT. */
static void acc_snap_prepare(struct l2d *d)
{
	struct acc *a = d->actx;
	struct sub *sb, *next;

	for (sb = a->subs; sb; sb = next) {
		next = sb->next;
		if (!sub_up(sb)) {
			sb->acct_cause = ACCT_ADMIN_REBOOT;
			sub_gone(sb, "the agent is upgrading", true);
		}
	}
}

static void acc_snap_write(struct l2d *d, struct l2d_snap_wr *w)
{
	struct acc *a = d->actx;
	struct sub *sb;

	for (sb = a->subs; sb; sb = sb->next) {
		if (!sub_up(sb))
			continue;
		l2d_snap_rec_begin(w, L2D_SNAP_SUB);
		l2d_snap_str(w, sb->ifc->conf->ifname);
		l2d_snap_bytes(w, sb->mac, 6);
		l2d_snap_u16(w, sb->sid);
		l2d_snap_u8(w, sb->has_host_uniq);
		l2d_snap_bytes(w, sb->host_uniq, sb->host_uniq_len);
		l2d_snap_fd(w, sb->px_fd);
		l2d_snap_fd(w, sb->chan_fd);
		l2d_snap_u16(w, sb->s->sid);
		l2d_snap_str(w, sb->service);
		l2d_snap_str(w, sb->calling);
		l2d_snap_str(w, sb->called);
		l2d_snap_u32(w, sb->tx_bps);
		l2d_snap_u32(w, sb->rx_bps);
		l2d_snap_bytes(w, sb->ppp.name, sb->ppp.name_len);
		l2d_snap_u8(w, (uint8_t)sb->ppp.auth);
		l2d_snap_u8(w, sb->acct_started);
		l2d_snap_u32(w, sb->acct_cause);
		l2d_snap_u64(w, sb->acct_start_ms);
		l2d_snap_str(w, sb->acct_id);
		l2d_snap_bytes(w, sb->acct_tunnel, sb->acct_tunnel_len);
		l2d_snap_u32(w, sb->interim_s);
		l2d_snap_u8(w, sb->link_started);
		l2d_snap_str(w, sb->link_id);
		l2d_snap_rec_end(w);
	}
}

/* @fd is a PPPoX socket (@pppox) or /dev/ppp. */
static bool fd_is(int fd, bool pppox)
{
	int dom = 0;
	socklen_t len = sizeof(dom);
	char path[64], target[32];
	ssize_t n;

	if (pppox)
		return !getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &dom, &len) && dom == AF_PPPOX;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof(target) - 1);
	return n == 8 && !memcmp(target, "/dev/ppp", 8);
}

static int acc_snap_adopt(struct l2d *d, struct l2d_snap_rd *r, char *err, size_t errlen)
{
	struct acc *a = d->actx;
	struct sub *sb = calloc(1, sizeof(*sb));
	char ifname[IFNAMSIZ + 1];
	struct l2d_session *s;
	struct acc_if *ifc = NULL;
	unsigned int i;
	uint16_t l2sid;
	size_t n;

	if (!sb) {
		snprintf(err, errlen, "snapshot refused: out of memory");
		return -ENOMEM;
	}
	l2d_snap_get_str(r, ifname, sizeof(ifname));
	n = l2d_snap_get_bytes(r, sb->mac, 6);
	sb->sid = l2d_snap_get_u16(r);
	sb->has_host_uniq = l2d_snap_get_u8(r) != 0;
	sb->host_uniq_len = (uint16_t)l2d_snap_get_bytes(r, sb->host_uniq, sizeof(sb->host_uniq));
	sb->px_fd = (int32_t)l2d_snap_get_u32(r);
	sb->chan_fd = (int32_t)l2d_snap_get_u32(r);
	l2sid = l2d_snap_get_u16(r);
	l2d_snap_get_str(r, sb->service, sizeof(sb->service));
	l2d_snap_get_str(r, sb->calling, sizeof(sb->calling));
	l2d_snap_get_str(r, sb->called, sizeof(sb->called));
	sb->tx_bps = l2d_snap_get_u32(r);
	sb->rx_bps = l2d_snap_get_u32(r);
	sb->ppp.name_len = (uint8_t)l2d_snap_get_bytes(r, sb->ppp.name, PPP_NAME_MAX);
	sb->ppp.auth = (enum ppp_auth)l2d_snap_get_u8(r);
	sb->acct_started = l2d_snap_get_u8(r) != 0;
	sb->acct_cause = l2d_snap_get_u32(r);
	sb->acct_start_ms = l2d_snap_get_u64(r);
	l2d_snap_get_str(r, sb->acct_id, sizeof(sb->acct_id));
	sb->acct_tunnel_len = l2d_snap_get_bytes(r, sb->acct_tunnel, sizeof(sb->acct_tunnel));
	sb->interim_s = l2d_snap_get_u32(r);
	sb->link_started = l2d_snap_get_u8(r) != 0;
	l2d_snap_get_str(r, sb->link_id, sizeof(sb->link_id));
	for (i = 0; i < a->n_ifs; i++)
		if (!strcmp(a->ifs[i].conf->ifname, ifname))
			ifc = &a->ifs[i];
	s = l2d_session_find(d, l2sid);
	if (r->bad || r->left || n != 6) {
		snprintf(err, errlen, "snapshot refused: a subscriber's record %s",
			 r->bad || n != 6 ? "cut short or a field too long" : "longer than its fields");
		free(sb);
		return -EINVAL;
	}
	if (!ifc || !sb->sid || (ifc->sid_used[sb->sid / 64] & (1ULL << (sb->sid % 64))) || !s ||
	    s->access || !s->initiator || s->state != L2D_S_ESTABLISHED) {
		snprintf(err, errlen, "snapshot refused: subscriber sid %u on %s: %s", sb->sid, ifname,
			 !ifc ? "no such access interface in the configuration" :
			 !s || s->access || !s->initiator ? "no call of its own" :
			 "session id 0 or twice");
		free(sb);
		return -EINVAL;
	}
	if (!fd_is(sb->px_fd, true) || !fd_is(sb->chan_fd, false) || !fd_is(s->ppp_fd, true)) {
		snprintf(err, errlen, "snapshot refused: subscriber sid %u on %s: descriptors %d, %d, "
			 "%d are not its PPPoE socket, channel and PPPoL2TP socket", sb->sid, ifname,
			 sb->px_fd, sb->chan_fd, s->ppp_fd);
		free(sb);
		return -EINVAL;
	}
	sb->a = a;
	sb->ifc = ifc;
	sb->s = s;
	s->access = sb;
	l2d_timer_init(&sb->act_timer, act_fire, sb);
	l2d_timer_init(&sb->interim_timer, interim_fire, sb);
	l2d_timer_init(&sb->pap_timer, pap_fire, sb);
	sb->ppp.loop = d->loop;
	sb->ppp.ops = &sub_ppp_ops;
	sb->ppp.arg = sb;
	sb->ppp.phase = PPP_PHASE_QUIET;
	sb->ppp.name[sb->ppp.name_len] = '\0';
	fcntl(sb->px_fd, F_SETFD, FD_CLOEXEC);
	fcntl(sb->chan_fd, F_SETFD, FD_CLOEXEC);
	fcntl(s->ppp_fd, F_SETFD, FD_CLOEXEC);
	sb->chanw.fd = sb->chan_fd;
	sb->chanw.fn = chan_readable;
	sb->chanw.arg = sb;
	if (l2d_fd_add(d->loop, &sb->chanw, EPOLLIN)) {
		snprintf(err, errlen, "snapshot refused: subscriber sid %u: epoll: %s", sb->sid,
			 strerror(errno));
		s->access = NULL;
		free(sb);
		return -EINVAL;
	}
	ifc->sid_used[sb->sid / 64] |= 1ULL << (sb->sid % 64);
	sb->next = a->subs;
	a->subs = sb;
	a->n_subs++;
	ifc->n_subs++;
	/* the Interim-Updates go on from the Start the first agent sent */
	if (sb->acct_started && interim_ms(sb)) {
		uint64_t now = l2d_now(d->loop), next = sb->acct_start_ms + interim_ms(sb);

		while (next <= now)
			next += interim_ms(sb);
		l2d_timer_arm(d->loop, &sb->interim_timer, next);
	}
	return 0;
}

static const struct l2d_access_ops acc_ops = {
	.login_done = acc_login_done,
	.attempt_failed = acc_attempt_failed,
	.connect_speed = acc_connect_speed,
	.access_line = acc_access_line,
	.iccn_avps = acc_iccn_avps,
	.bridge = acc_bridge,
	.bridge_cancel = acc_bridge_cancel,
	.session_gone = acc_session_gone,
	.tunnel_up = acc_tunnel_up,
	.tunnel_gone = acc_tunnel_gone,
	.switch_call = acc_switch_call,
	.attempt_check = acc_attempt_check,
	.icrq_avps = acc_icrq_avps,
	.switch_rates = acc_switch_rates,
	.snap_prepare = acc_snap_prepare,
	.snap_write = acc_snap_write,
	.snap_adopt = acc_snap_adopt,
};

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
		sub_gone(sb, "RADIUS Disconnect-Request", true);
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
			acct_send(sb, RAD_ACCT_INTERIM);
		n++;
	}
	return n;
}

/* ---- start and stop (main.c) ---- */

int l2d_access_open(struct l2d *d, char *err, size_t errlen)
{
	const struct l2d_conf *c = d->conf;
	struct acc *a;
	uint8_t fresh[PPPOE_SECRET_LEN];
	unsigned int i, k;

	if (!c->n_access && !l2d_conf_lns_switch_on(c))
		return 0;
	if (c->dataplane != L2D_DP_KERNEL) {
		snprintf(err, errlen, "access pppoe and lns-switch need \"dataplane kernel\" (the calls are bridged "
			 "in the kernel)");
		return -EINVAL;
	}
	a = calloc(1, sizeof(*a));
	if (!a) {
		snprintf(err, errlen, "access: out of memory");
		return -ENOMEM;
	}
	a->d = d;
	/* the switched calls' pseudo-interface (S-LTS-1): no socket of its own */
	a->lts_if.a = a;
	a->lts_if.conf = &a->lts_conf;
	a->lts_if.fd = -1;
	l2d_strcpy(a->lts_conf.ifname, sizeof(a->lts_conf.ifname), "l2tp");
	a->lts_conf.path_mtu = 1500;
	a->lts_conf.path_ipv6 = true;
	if (l2d_offload_init(&a->off, d->loop)) {
		snprintf(err, errlen, "access: no eventfd for the channel workers: %s", strerror(errno));
		free(a);
		return -ENOMEM;
	}
	a->acct_base = (uint32_t)time(NULL);	/* Acct-Session-Ids unique across restarts */
	l2d_timer_init(&a->reap_timer, reap, a);
	l2d_timer_init(&a->epoch_timer, epoch_fire, a);
	d->env->random(d, fresh, sizeof(fresh));
	pppoe_cookie_rotate(&a->keys, fresh);
	{
		struct disc_rate_conf rc = { .per_if = c->padi_rate, .per_line = c->padi_rate_per_line,
					     .per_mac = c->padi_rate_per_mac };
		uint8_t key[16];

		d->env->random(d, key, sizeof(key));
		disc_rate_init(&a->rate, &rc, key);
	}
	for (i = 0; i < c->n_access; i++) {
		struct acc_if *ifc = &a->ifs[i];
		struct sockaddr_ll sll = { .sll_family = AF_PACKET,
					   .sll_protocol = htons(ETH_P_PPP_DISC) };

		ifc->a = a;
		ifc->conf = &c->access[i];
		for (k = 0; k < ifc->conf->n_services; k++)
			ifc->services[k] = ifc->conf->services[k];
		ifc->offer.ac_name = ifc->conf->ac_name[0] ? ifc->conf->ac_name : c->hostname;
		ifc->offer.services = ifc->services;
		ifc->offer.n_services = ifc->conf->n_services;
		ifc->ifindex = (int)if_nametoindex(ifc->conf->ifname);
		if (!ifc->ifindex) {
			snprintf(err, errlen, "access pppoe %s: no such interface", ifc->conf->ifname);
			goto fail;
		}
		ifc->fd = socket(AF_PACKET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
				 htons(ETH_P_PPP_DISC));
		sll.sll_ifindex = ifc->ifindex;
		if (ifc->fd >= 0)
			l2d_sock_rcvbuf(ifc->fd, c->sock_rcvbuf);
		if (ifc->fd < 0 || bind(ifc->fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
			snprintf(err, errlen, "access pppoe %s: packet socket: %s", ifc->conf->ifname,
				 strerror(errno));
			goto fail;
		}
		ifc->fdw.fd = ifc->fd;
		ifc->fdw.fn = disc_readable;
		ifc->fdw.arg = ifc;
		l2d_fd_add(d->loop, &ifc->fdw, EPOLLIN);
		a->n_ifs++;
		l2d_log(d, L2D_LOG_INFO, "access %s: LCP MRU %u (path-mtu %u over %s, overhead %u%s)",
			ifc->conf->ifname, acc_mru(ifc), ifc->conf->path_mtu,
			ifc->conf->path_ipv6 ? "IPv6" : "IPv4",
			l2d_mtu_overhead(ifc->conf->path_ipv6, c->data_seq),
			c->data_seq ? " with sequence numbers" : "");
	}
	l2d_timer_arm(d->loop, &a->epoch_timer, l2d_now(d->loop) + ACC_EPOCH_MS);
	d->actx = a;
	d->aops = &acc_ops;
	return 0;
fail:
	for (k = 0; k <= i && k < c->n_access; k++)
		if (a->ifs[k].fd > 0) {
			if (k < a->n_ifs)
				l2d_fd_del(d->loop, &a->ifs[k].fdw);
			close(a->ifs[k].fd);
		}
	l2d_offload_fini(&a->off);
	free(a);
	return -EINVAL;
}

/* The agent stops: PADT to every subscriber, their calls cleared. */
void l2d_access_shutdown(struct l2d *d)
{
	struct acc *a = d->actx;

	while (a && a->subs) {
		a->subs->acct_cause = ACCT_ADMIN_REBOOT;
		sub_gone(a->subs, "the access concentrator is shutting down", true);
	}
}

void l2d_access_close(struct l2d *d)
{
	struct acc *a = d->actx;
	unsigned int i;

	if (!a)
		return;
	l2d_access_shutdown(d);
	while (a->waits)
		pado_wait_free(a, a->waits);
	l2d_offload_fini(&a->off);
	reap(&a->reap_timer);
	l2d_timer_cancel(d->loop, &a->reap_timer);
	l2d_timer_cancel(d->loop, &a->epoch_timer);
	for (i = 0; i < a->n_ifs; i++) {
		l2d_fd_del(d->loop, &a->ifs[i].fdw);
		close(a->ifs[i].fd);
	}
	d->aops = NULL;
	d->actx = NULL;
	free(a);
}

/* "access" lines of the API's stats: one line of counters. */
int l2d_access_stats(struct l2d *d, char *buf, size_t len)
{
	const struct acc *a = d->actx;
	const struct acc_stats *s;

	if (!a)
		return 0;
	s = &a->st;
	return snprintf(buf, len, "access subscribers %u padi %llu pado %llu padr %llu pads %llu "
			"pads-refused %llu padt-rx %llu padt-tx %llu bad %llu cookie-bad %llu "
			"rate-dropped %llu no-service %llu logins %llu up %llu refused %llu gone %llu "
			"radius-fallback %llu pado-delayed %llu pado-withheld %llu pado-drained %llu "
			"pado-dropped %llu",
			a->n_subs, (unsigned long long)s->padi, (unsigned long long)s->pado,
			(unsigned long long)s->padr, (unsigned long long)s->pads,
			(unsigned long long)s->pads_refused, (unsigned long long)s->padt_rx,
			(unsigned long long)s->padt_tx, (unsigned long long)s->bad,
			(unsigned long long)s->cookie_bad, (unsigned long long)s->rate_dropped,
			(unsigned long long)s->no_service, (unsigned long long)s->logins,
			(unsigned long long)s->up, (unsigned long long)s->refused,
			(unsigned long long)s->gone, (unsigned long long)s->radius_fallback,
			(unsigned long long)s->pado_delayed, (unsigned long long)s->pado_withheld,
			(unsigned long long)s->pado_drained, (unsigned long long)s->pado_dropped);
}

bool l2d_access_lts_get(struct l2d *d, struct l2d_lts_stats *out)
{
	const struct acc *a = d->actx;

	if (!a || !l2d_conf_lns_switch_on(d->conf))
		return false;
	*out = (struct l2d_lts_stats){
		.calls_now = a->lts_if.n_subs, .calls = a->lts_calls, .up = a->lts_up,
		.loops_refused = a->lts_loops, .hops_refused = d->stats.lts_hops_refused,
	};
	return true;
}

/* The "switch" line of the API's stats (S-LTS-1): 0 when lns-switch is off. */
int l2d_access_lts_stats(struct l2d *d, char *buf, size_t len)
{
	struct l2d_lts_stats s;

	if (!l2d_access_lts_get(d, &s))
		return 0;
	return snprintf(buf, len, "switch calls-now %u calls %llu up %llu loops-refused %llu "
			"hops-refused %llu", s.calls_now, (unsigned long long)s.calls,
			(unsigned long long)s.up, (unsigned long long)s.loops_refused,
			(unsigned long long)s.hops_refused);
}

bool l2d_access_if_stats(struct l2d *d, unsigned int i, struct l2d_access_if_stats *out)
{
	const struct acc *a = d->actx;
	const struct acc_if *ifc;

	if (!a || i >= a->n_ifs)
		return false;
	ifc = &a->ifs[i];
	*out = (struct l2d_access_if_stats){
		.ifname = ifc->conf->ifname, .subscribers = ifc->n_subs,
		.padi = ifc->st.padi, .pado = ifc->st.pado, .padr = ifc->st.padr,
		.pads = ifc->st.pads, .pads_refused = ifc->st.pads_refused,
		.padt_rx = ifc->st.padt_rx, .padt_tx = ifc->st.padt_tx, .bad = ifc->st.bad,
		.rate_dropped = ifc->st.rate_dropped, .no_service = ifc->st.no_service,
		.logins = ifc->st.logins, .up = ifc->st.up, .refused = ifc->st.refused,
	};
	return true;
}
