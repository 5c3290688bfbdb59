// SPDX-License-Identifier: GPL-2.0
/*
 * A pppd 2.4.9 plugin for the LNS role's `proxy-lcp yes` (RFC 2661
 * section 4.4.5): LCP starts Opened with the options the LAC negotiated with
 * the subscriber, and pppd's own PAP server checks the subscriber's proxied
 * Authenticate-Request, so the subscriber sees no second LCP negotiation and
 * is not asked its password again.  Everything after LCP is pppd's as without
 * the plugin: the authentication (pap-secrets, chap-secrets, or a plugin
 * such as radius.so through pppd's hooks), IPCP, the ppp unit, its
 * addresses and routes, ip-up, LCP Echo, Terminate.
 *
 * l2tpseld decided that the proxied LCP is acceptable (proxy_lcp.c) and
 * writes the decision, struct l2d_proxy_lcp, to pppd's standard input (a
 * pipe; the password never appears on a command line).  The plugin reads
 * it when loaded and checks it against pppd's own options when LCP is about
 * to start (the phase change to Establish, after the options files): the
 * protocol must be one pppd asks for (it has secrets for it), and pppd's
 * MRU the proxied one (an options file's own `mru` wins: pppd renegotiates).
 * If all holds it sets LCP silent, so that the lower layer's Up sends no
 * Configure-Request, and at the next turn of pppd's loop (before any frame
 * is read) puts LCP in Opened with the proxied options and runs LCP's This-
 * Layer-Up, as a negotiation would have.  Otherwise pppd negotiates LCP.
 *
 * CHAP: pppd's CHAP server only checks a response to a challenge it made
 * (its state is private to chap-new.c), so with CHAP the LCP is taken and
 * pppd sends its own Challenge.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <pppd/pppd.h>
#include <pppd/fsm.h>
#include <pppd/lcp.h>
#include <pppd/upap.h>
#include <pppd/chap-new.h>

#include "proxy_lcp.h"

char pppd_version[] = VERSION;

static struct l2d_proxy_lcp px;
static bool px_ok;		/* a decision was read */
static bool px_started;		/* the Establish phase was seen */

/* Give pppd's PAP server the proxied Authenticate-Request (RFC 1334 2.2.1). */
static void feed_pap(void)
{
	u_char pkt[4 + 1 + 255 + 1 + 255], *q = pkt;
	int len = 4 + 1 + px.name_len + 1 + px.pw_len;

	*q++ = UPAP_AUTHREQ;
	*q++ = px.pap_id;
	*q++ = (u_char)(len >> 8);
	*q++ = (u_char)len;
	*q++ = px.name_len;
	memcpy(q, px.name, px.name_len);
	q += px.name_len;
	*q++ = px.pw_len;
	memcpy(q, px.pw, px.pw_len);
	pap_protent.input(0, pkt, len);
	memset(pkt, 0, sizeof(pkt));
}

static void proxy_open(void *arg)
{
	lcp_options *go = &lcp_gotoptions[0], *ho = &lcp_hisoptions[0];
	fsm *f = &lcp_fsm[0];

	(void)arg;
	f->flags &= ~OPT_SILENT;
	if (f->state != STOPPED) {
		warn("l2tpsel proxy LCP: LCP in state %d, negotiating", f->state);
		return;
	}
	memset(go, 0, sizeof(*go));
	memset(ho, 0, sizeof(*ho));
	go->neg_mru = px.our_mru != 0;
	go->mru = px.our_mru ? px.our_mru : DEFMRU;
	go->neg_magicnumber = px.our_magic != 0;
	go->magicnumber = px.our_magic;
	if (px.auth_proto == PPP_PAP) {
		go->neg_upap = 1;
	} else {
		go->neg_chap = 1;
		go->chap_mdtype = MDTYPE_MD5;
	}
	ho->neg_mru = px.peer_mru != 0;
	ho->mru = px.peer_mru ? px.peer_mru : DEFMRU;
	ho->neg_magicnumber = px.peer_magic != 0;
	ho->magicnumber = px.peer_magic;
	ho->neg_asyncmap = px.peer_has_accm;
	ho->asyncmap = px.peer_accm;
	notice("l2tpsel proxy LCP: LCP opened with the proxied options (RFC 2661 4.4.5): "
	       "mru %d/%d magic 0x%x/0x%x %s", go->mru, ho->mru, go->magicnumber,
	       ho->magicnumber, px.auth_proto == PPP_PAP ? "pap" : "chap");
	f->state = OPENED;
	f->callbacks->up(f);	/* lcp_up(): link_established(), authentication */
	if (px.pap && phase == PHASE_AUTHENTICATE && go->neg_upap)
		feed_pap();
	memset(px.pw, 0, sizeof(px.pw));
}

/* Does pppd, as its options say, accept what was proxied? */
static const char *acceptable(void)
{
	lcp_options *wo = &lcp_wantoptions[0];
	int want_mru = wo->neg_mru ? wo->mru : DEFMRU;

	if (px.auth_proto == PPP_PAP && !wo->neg_upap)
		return "pppd does not ask for PAP (no secrets, refuse-pap or noauth)";
	if (px.auth_proto == PPP_CHAP && !(wo->neg_chap && (wo->chap_mdtype & MDTYPE_MD5)))
		return "pppd does not ask for CHAP with MD5 (no secrets, refuse-chap or noauth)";
	if (want_mru != (px.our_mru ? px.our_mru : DEFMRU))
		return "pppd's mru is not the proxied one";
	return NULL;
}

static void on_phase(void *arg, int ph)
{
	const char *why;

	(void)arg;
	if (ph != PHASE_ESTABLISH || px_started)
		return;
	px_started = 1;
	if (!px_ok)
		return;
	why = acceptable();
	if (why) {
		notice("l2tpsel proxy LCP: not used, %s: negotiating LCP", why);
		memset(px.pw, 0, sizeof(px.pw));
		return;
	}
	/* lcp_lowerup() follows: Stopped, no Configure-Request (RFC 1661 4.2) */
	lcp_fsm[0].flags |= OPT_SILENT;
	timeout(proxy_open, NULL, 0, 0);
}

void plugin_init(void)
{
	size_t got = 0;
	ssize_t r;
	int nul;

	/* l2tpseld's pipe; a terminal (pppd run by hand) is not waited on */
	while (!isatty(0) && got < sizeof(px)) {
		r = read(0, (char *)&px + got, sizeof(px) - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	nul = open("/dev/null", O_RDWR);
	if (nul >= 0 && nul != 0) {
		dup2(nul, 0);
		close(nul);
	}
	if (got != sizeof(px) || px.magic != L2D_PROXY_LCP_MAGIC || px.size != sizeof(px) ||
	    (px.auth_proto != PPP_PAP && px.auth_proto != PPP_CHAP)) {
		warn("l2tpsel proxy LCP: no usable decision on standard input (%zu bytes): negotiating LCP",
		     got);
		memset(&px, 0, sizeof(px));
		return;
	}
	px_ok = 1;
	add_notifier(&phasechange, on_phase, NULL);
}
