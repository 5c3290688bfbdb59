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
 * Every end goes through acc_sub_gone(): PADT from the subscriber (CDN to the
 * LNS), the LNS clearing the call (LCP Terminate-Request and PADT to the
 * subscriber), a refused login (PAP Authenticate-Nak / CHAP Failure with the
 * reason, Terminate-Request, PADT), the agent stopping (PADT).  A subscriber
 * is freed at the end of the loop turn, never from inside a callback.
 *
 * The files of the role and what each does: access_int.h.  This one opens
 * and closes it, holds its hooks tables (struct l2d_access_ops for the
 * agent, struct acc_disc_ops for discovery) and its counters.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "access_int.h"

const struct l2d_access_ops acc_ops = {
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

static const struct acc_disc_ops disc_ops = {
	.padr = acc_sub_padr,
	.padt = acc_sub_padt,
};

struct acc *acc_new(struct l2d *d, char *err, size_t errlen)
{
	const struct l2d_conf *c = d->conf;
	struct disc_rate_conf rc = { .per_if = c->padi_rate, .per_line = c->padi_rate_per_line,
				     .per_mac = c->padi_rate_per_mac };
	uint8_t fresh[PPPOE_SECRET_LEN], key[16];
	struct acc *a = calloc(1, sizeof(*a));

	if (!a) {
		snprintf(err, errlen, "access: out of memory");
		return NULL;
	}
	a->d = d;
	a->dops = &disc_ops;
	/* the switched calls' pseudo-interface (S-LTS-1): no socket of its own */
	a->lts_if.a = a;
	a->lts_if.conf = &a->lts_conf;
	a->lts_if.fd = -1;
	l2d_strcpy(a->lts_conf.ifname, sizeof(a->lts_conf.ifname), "l2tp");
	a->lts_conf.path_mtu = 1500;
	a->lts_conf.path_ipv6 = true;
	a->acct_base = (uint32_t)time(NULL);	/* Acct-Session-Ids unique across restarts */
	l2d_timer_init(&a->reap_timer, acc_reap, a);
	l2d_timer_init(&a->epoch_timer, acc_epoch_fire, a);
	d->env->random(d, fresh, sizeof(fresh));
	pppoe_cookie_rotate(&a->keys, fresh);
	d->env->random(d, key, sizeof(key));
	disc_rate_init(&a->rate, &rc, key);
	return a;
}

int l2d_access_open(struct l2d *d, char *err, size_t errlen)
{
	const struct l2d_conf *c = d->conf;
	struct acc *a;
	unsigned int i;

	if (!c->n_access && !l2d_conf_lns_switch_on(c))
		return 0;
	if (c->dataplane != L2D_DP_KERNEL) {
		snprintf(err, errlen, "access pppoe and lns-switch need \"dataplane kernel\" (the calls are bridged "
			 "in the kernel)");
		return -EINVAL;
	}
	a = acc_new(d, err, errlen);
	if (!a)
		return -ENOMEM;
	for (i = 0; i < c->n_access; i++) {
		acc_if_init(&a->ifs[i], a, &c->access[i]);
		if (acc_if_open(&a->ifs[i], err, errlen)) {
			acc_ifs_close(a);
			free(a);
			return -EINVAL;
		}
		a->n_ifs++;
	}
	l2d_timer_arm(d->loop, &a->epoch_timer, l2d_now(d->loop) + ACC_EPOCH_MS);
	d->actx = a;
	d->aops = &acc_ops;
	return 0;
}

/* The agent stops: PADT to every subscriber, their calls cleared. */
void l2d_access_shutdown(struct l2d *d)
{
	struct acc *a = d->actx;

	while (a && a->subs) {
		a->subs->acct_cause = ACCT_ADMIN_REBOOT;
		acc_sub_gone(a->subs, "the access concentrator is shutting down", true);
	}
}

void l2d_access_close(struct l2d *d)
{
	struct acc *a = d->actx;

	if (!a)
		return;
	l2d_access_shutdown(d);
	while (a->waits)
		acc_pado_wait_free(a, a->waits);
	/* the workers' results are handled while the subscribers are there */
	l2d_offload_drain(&d->off);
	acc_reap(&a->reap_timer);
	l2d_timer_cancel(d->loop, &a->reap_timer);
	l2d_timer_cancel(d->loop, &a->epoch_timer);
	acc_ifs_close(a);
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
