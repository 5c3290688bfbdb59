// SPDX-License-Identifier: GPL-2.0
/*
 * PPPoE discovery of l2tpseld's access role (RFC 2516 section 5,
 * Documentation/access.md): the packet socket of each "access pppoe"
 * interface, PADI -> PADO with an AC-Cookie (after the interface's
 * pado-delay, S-OPS-1), PADR with a valid cookie and PADT handed up to
 * the subscribers (a->dops, access_sub.c: this file calls none of
 * theirs); the discovery budgets (S-SEC-6) and the module's pppoe rate
 * limits before any answer; the interfaces' session IDs and MRU.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/l2tpsel.h>

#include "access_int.h"
#include "mtu.h"

void acc_mac_str(const uint8_t *m, char *out, size_t len)
{
	snprintf(out, len, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
}

void acc_disc_send(struct acc_if *ifc, const uint8_t *mac, const uint8_t *buf, size_t len)
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
		acc_mac_str(mac, ms, sizeof(ms));
		l2d_log(a->d, L2D_LOG_DEBUG, "access %s: %s from %s %s", ifc->conf->ifname,
			pppoe_code_name(p->code, tmp), ms, disc_verdict_name(v));
	}
	return false;
}

/*
 * A PPPoE session ID nobody can guess (RFC 2516 section 5.4 only asks for
 * a unique one): a PADT with a subscriber's MAC and a guessed ID would end
 * its session.  Random, then the next free one; 0 and 0xffff are reserved.
 */
uint16_t acc_sid_alloc(struct acc_if *ifc)
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

void acc_sid_free(struct acc_if *ifc, uint16_t sid)
{
	ifc->sid_used[sid / 64] &= ~(1ULL << (sid % 64));
}

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
			acc_refuse_padr(ifc, mac, p, false, ra.message);
		return false;
	default:
		return false;
	}
}

void acc_pado_wait_free(struct acc *a, struct pado_wait *w)
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
		acc_disc_send(w->ifc, w->mac, w->frame, w->len);
		a->st.pado++;
		a->st.pado_delayed++;
	}
	acc_pado_wait_free(a, w);
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
		acc_pado_wait_free(a, w);
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
	acc_disc_send(ifc, mac, out, n);
	ACC_INC(ifc, pado);
}

void acc_refuse_padr(struct acc_if *ifc, const uint8_t *mac, const struct pppoe_disc *p,
		     bool service, const char *text)
{
	uint8_t out[PPPOE_MAX_PAYLOAD];
	size_t n = pppoe_build_pads(p, 0, service, text, out, sizeof(out));

	ACC_INC(ifc, pads_refused);
	if (n)
		acc_disc_send(ifc, mac, out, n);
}

/*
 * A PADR (RFC 2516 section 5.3) is served only with a valid AC-Cookie,
 * within its budgets and limits, for a service offered here; then it is
 * the subscribers' (a->dops->padr: access_sub.c).
 */
static void got_padr(struct acc_if *ifc, const uint8_t *mac, const struct pppoe_disc *p)
{
	struct acc *a = ifc->a;

	ACC_INC(ifc, padr);
	if (!p->cookie.present ||
	    !pppoe_cookie_check(&a->keys, mac, (uint32_t)ifc->ifindex, p->cookie.data, p->cookie.len)) {
		a->st.cookie_bad++;	/* no state for a PADR we did not invite */
		return;
	}
	if (!rate_ok(ifc, mac, p))
		return;
	if (!pppoe_service_ok(&ifc->offer, &p->service))
		return acc_refuse_padr(ifc, mac, p, true, "service not offered here");
	if (!disc_rl_ok(ifc, mac, p))
		return;
	a->dops->padr(ifc, mac, p);
}

void acc_disc_input(struct acc_if *ifc, const uint8_t *mac, const uint8_t *buf, size_t len)
{
	struct acc *a = ifc->a;
	struct pppoe_disc p;
	const char *why = "?";
	char ms[24], tmp[16];

	if (pppoe_disc_parse(buf, len, &p, &why)) {
		ACC_INC(ifc, bad);
		acc_mac_str(mac, ms, sizeof(ms));
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
		a->dops->padt(ifc, mac, p.sid);
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
		acc_disc_input(ifc, sll.sll_addr, buf, (size_t)n);
	}
}

void acc_epoch_fire(struct l2d_timer *t)
{
	struct acc *a = t->arg;
	uint8_t fresh[PPPOE_SECRET_LEN];

	a->d->env->random(a->d, fresh, sizeof(fresh));
	pppoe_cookie_rotate(&a->keys, fresh);
	l2d_timer_arm(a->d->loop, t, l2d_now(a->d->loop) + ACC_EPOCH_MS);
}

/* The MRU asked of the subscribers of @ifc (S-MTU-1). */
uint16_t acc_mru(const struct acc_if *ifc)
{
	return l2d_access_mru(ifc->conf->path_mtu, ifc->conf->path_ipv6, ifc->a->d->conf->data_seq);
}

void acc_if_init(struct acc_if *ifc, struct acc *a, const struct l2d_access_conf *conf)
{
	unsigned int k;

	ifc->a = a;
	ifc->conf = conf;
	for (k = 0; k < conf->n_services; k++)
		ifc->services[k] = conf->services[k];
	ifc->offer.ac_name = conf->ac_name[0] ? conf->ac_name : a->d->conf->hostname;
	ifc->offer.services = ifc->services;
	ifc->offer.n_services = conf->n_services;
	ifc->fd = ifc->fdw.fd = -1;
}

int acc_if_open(struct acc_if *ifc, char *err, size_t errlen)
{
	const struct l2d_conf *c = ifc->a->d->conf;
	struct l2d *d = ifc->a->d;
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_PPP_DISC) };

	ifc->ifindex = (int)if_nametoindex(ifc->conf->ifname);
	if (!ifc->ifindex) {
		snprintf(err, errlen, "access pppoe %s: no such interface", ifc->conf->ifname);
		return -ENODEV;
	}
	ifc->fd = socket(AF_PACKET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, htons(ETH_P_PPP_DISC));
	sll.sll_ifindex = ifc->ifindex;
	if (ifc->fd >= 0)
		l2d_sock_rcvbuf(ifc->fd, c->sock_rcvbuf);
	if (ifc->fd < 0 || bind(ifc->fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		snprintf(err, errlen, "access pppoe %s: packet socket: %s", ifc->conf->ifname,
			 strerror(errno));
		if (ifc->fd >= 0)
			close(ifc->fd);
		ifc->fd = -1;
		return -EINVAL;
	}
	ifc->fdw.fd = ifc->fd;
	ifc->fdw.fn = disc_readable;
	ifc->fdw.arg = ifc;
	l2d_fd_add(d->loop, &ifc->fdw, EPOLLIN);
	l2d_log(d, L2D_LOG_INFO, "access %s: LCP MRU %u (path-mtu %u over %s, overhead %u%s)",
		ifc->conf->ifname, acc_mru(ifc), ifc->conf->path_mtu,
		ifc->conf->path_ipv6 ? "IPv6" : "IPv4",
		l2d_mtu_overhead(ifc->conf->path_ipv6, c->data_seq),
		c->data_seq ? " with sequence numbers" : "");
	return 0;
}

void acc_ifs_close(struct acc *a)
{
	unsigned int i;

	for (i = 0; i < a->n_ifs; i++) {
		l2d_fd_del(a->d->loop, &a->ifs[i].fdw);
		if (a->ifs[i].fd >= 0)
			close(a->ifs[i].fd);
	}
}
