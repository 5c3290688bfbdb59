// SPDX-License-Identifier: GPL-2.0
/*
 * proxy-lcp's pppd plugin (userspace/l2tpseld/pppd_proxy_lcp.c) against a
 * stand-in for the pppd 2.4.9 it runs in: the globals and functions it
 * uses (LCP's automaton and options, the phase notifier, timeouts, the PAP
 * server's input, logging), built from pppd's own headers.  Each case
 * writes l2tpseld's decision to a pipe on stdin, loads the plugin
 * (plugin_init()), announces the Establish phase as start_link() does and
 * runs the timeout the plugin set, as pppd's loop does before reading a
 * frame.  Checked: LCP silent then Opened with the proxied options, This-
 * Layer-Up run once, pppd's PAP server given the subscriber's request
 * (RFC 1334 2.2.1) with the proxied name and password; no open when pppd
 * would not ask that protocol or its mru differs, or the decision is
 * missing or not ours.  KTAP output; part of make unit when pppd's headers
 * are there.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* ---- the plugin, built in (pppd's headers have no include guards) ---- */
#include "../../../userspace/l2tpseld/pppd_proxy_lcp.c"

/* ---- the stand-in pppd ---- */
int phase;
struct notifier *phasechange;
fsm lcp_fsm[NUM_PPP];
lcp_options lcp_wantoptions[NUM_PPP], lcp_gotoptions[NUM_PPP];
lcp_options lcp_allowoptions[NUM_PPP], lcp_hisoptions[NUM_PPP];

static notify_func notified;
static void (*timer_fn)(void *);
static int n_up, n_pap, n_notice, n_warn;
static u_char pap_pkt[600];
static int pap_len;
static char last_log[512];

void add_notifier(struct notifier **n, notify_func f, void *arg)
{
	notified = f;
}

void timeout(void (*func)(void *), void *arg, int s, int us)
{
	timer_fn = func;
}

static void vlog(int *n, char *fmt, va_list ap)
{
	(*n)++;
	vsnprintf(last_log, sizeof(last_log), fmt, ap);
}

void notice(char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(&n_notice, fmt, ap);
	va_end(ap);
}

void warn(char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(&n_warn, fmt, ap);
	va_end(ap);
}

/* lcp_up() -> link_established() -> upap_authpeer(): the Authenticate phase */
static void fake_up(fsm *f)
{
	n_up++;
	phase = PHASE_AUTHENTICATE;
}

static void fake_pap_input(int unit, u_char *p, int len)
{
	n_pap++;
	pap_len = len;
	memcpy(pap_pkt, p, (size_t)len < sizeof(pap_pkt) ? (size_t)len : sizeof(pap_pkt));
}

static fsm_callbacks fake_callbacks = { .up = fake_up };
struct protent pap_protent = { .protocol = PPP_PAP, .input = fake_pap_input };

/* ---- cases ---- */
static int n_test, n_fail;

static void ok(int good, const char *what)
{
	n_test++;
	if (!good)
		n_fail++;
	printf("%sok %d %s\n", good ? "" : "not ", n_test, what);
	if (!good)
		printf("# last log: %s\n", last_log);
}

static struct l2d_proxy_lcp good_pap(void)
{
	struct l2d_proxy_lcp p;

	memset(&p, 0, sizeof(p));
	p.magic = L2D_PROXY_LCP_MAGIC;
	p.size = sizeof(p);
	p.our_mru = 1442;
	p.auth_proto = PPP_PAP;
	p.our_magic = 0x09080706;
	p.peer_mru = 1492;
	p.peer_magic = 0x01020304;
	p.pap = 1;
	p.pap_id = 7;
	p.name_len = 13;
	memcpy(p.name, "alice@example", 13);
	p.pw_len = 6;
	memcpy(p.pw, "secret", 6);
	return p;
}

/*
 * One pppd start: @data (@len bytes) on stdin, pppd's own options as the
 * case sets them (auth with PAP and CHAP-MD5, mru @mru), then start_link():
 * the Establish phase, lcp_lowerup() (Stopped when silent, else a
 * Configure-Request, Req-Sent) and the loop's timeouts.
 */
static void run(const void *data, size_t len, int pap_ok, int chap_ok, int mru)
{
	int fd[2];

	memset(&px, 0, sizeof(px));
	px_ok = px_started = 0;
	notified = NULL;
	timer_fn = NULL;
	n_up = n_pap = n_notice = n_warn = 0;
	pap_len = 0;
	last_log[0] = '\0';
	memset(lcp_fsm, 0, sizeof(lcp_fsm));
	memset(lcp_gotoptions, 0x5a, sizeof(lcp_gotoptions));
	memset(lcp_hisoptions, 0x5a, sizeof(lcp_hisoptions));
	memset(lcp_wantoptions, 0, sizeof(lcp_wantoptions));
	lcp_fsm[0].callbacks = &fake_callbacks;
	lcp_fsm[0].state = STARTING;	/* lcp_open() */
	lcp_wantoptions[0].neg_upap = pap_ok;
	lcp_wantoptions[0].neg_chap = chap_ok;
	lcp_wantoptions[0].chap_mdtype = chap_ok ? MDTYPE_MD5 : 0;
	lcp_wantoptions[0].neg_mru = 1;
	lcp_wantoptions[0].mru = mru;
	phase = PHASE_INITIALIZE;

	if (pipe(fd) < 0 || dup2(fd[0], 0) < 0)
		return;
	close(fd[0]);
	if (len && write(fd[1], data, len) != (ssize_t)len)
		return;
	close(fd[1]);
	plugin_init();
	/* start_link(): new_phase(PHASE_ESTABLISH), lcp_lowerup() */
	phase = PHASE_ESTABLISH;
	if (notified)
		notified(NULL, PHASE_ESTABLISH);
	lcp_fsm[0].state = (lcp_fsm[0].flags & OPT_SILENT) ? STOPPED : REQSENT;
	if (timer_fn)
		timer_fn(NULL);
}

int main(void)
{
	struct l2d_proxy_lcp p = good_pap();
	lcp_options *go = &lcp_gotoptions[0], *ho = &lcp_hisoptions[0];
	static const u_char want_pap[] = {
		UPAP_AUTHREQ, 7, 0, 25, 13, 'a', 'l', 'i', 'c', 'e', '@', 'e', 'x', 'a', 'm', 'p', 'l', 'e',
		6, 's', 'e', 'c', 'r', 'e', 't',
	};
	unsigned char junk[8] = { 0 };

	printf("KTAP version 1\n1..9\n");

	run(&p, sizeof(p), 1, 0, 1442);
	ok(lcp_fsm[0].state == OPENED && n_up == 1 && !(lcp_fsm[0].flags & OPT_SILENT),
	   "PAP: LCP silent at Up, then Opened, This-Layer-Up once");
	ok(go->neg_mru && go->mru == 1442 && go->neg_magicnumber && go->magicnumber == 0x09080706 &&
	   go->neg_upap && !go->neg_chap && !go->neg_asyncmap && !go->neg_pcompression &&
	   !go->neg_accompression && !go->neg_lqr,
	   "PAP: our options are the LAC's (MRU 1442, its magic, PAP), nothing else");
	ok(ho->neg_mru && ho->mru == 1492 && ho->neg_magicnumber && ho->magicnumber == 0x01020304 &&
	   !ho->neg_asyncmap && !ho->neg_upap && !ho->neg_chap,
	   "PAP: the subscriber's options are its request's (MRU 1492, its magic)");
	ok(n_pap == 1 && pap_len == (int)sizeof(want_pap) && !memcmp(pap_pkt, want_pap, sizeof(want_pap)) &&
	   !memcmp(px.pw, (u_char[6]){ 0 }, 6),
	   "PAP: pppd's PAP server gets the Authenticate-Request (RFC 1334 2.2.1), the password wiped");

	p = good_pap();
	p.auth_proto = PPP_CHAP;
	p.pap = 0;
	p.pw_len = 0;
	p.peer_has_accm = 1;
	run(&p, sizeof(p), 1, 1, 1442);
	ok(lcp_fsm[0].state == OPENED && go->neg_chap && go->chap_mdtype == MDTYPE_MD5 && !go->neg_upap &&
	   ho->neg_asyncmap && ho->asyncmap == 0 && n_pap == 0,
	   "CHAP: Opened, CHAP with MD5 (pppd challenges), the ACCM kept, no PAP given");

	p = good_pap();
	run(&p, sizeof(p), 0, 1, 1442);
	ok(lcp_fsm[0].state == REQSENT && n_up == 0 && n_pap == 0 && strstr(last_log, "PAP"),
	   "pppd does not ask PAP (no pap-secrets): it negotiates, the reason logged");

	run(&p, sizeof(p), 1, 0, 1400);
	ok(lcp_fsm[0].state == REQSENT && n_up == 0 && strstr(last_log, "mru"),
	   "an options file's mru 1400 against the proxied 1442: pppd negotiates");

	run(junk, sizeof(junk), 1, 0, 1442);
	ok(lcp_fsm[0].state == REQSENT && n_up == 0 && n_warn == 1,
	   "8 bytes on stdin, not a decision: pppd negotiates, a warning");

	p = good_pap();
	p.magic ^= 1;
	run(&p, sizeof(p), 1, 0, 1442);
	ok(lcp_fsm[0].state == REQSENT && n_up == 0 && n_warn == 1,
	   "a decision with another magic: pppd negotiates, a warning");

	printf("# pppd proxy-lcp plugin: %d passed, %d failed\n", n_test - n_fail, n_fail);
	return n_fail ? 1 : 0;
}
