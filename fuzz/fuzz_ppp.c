// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the LAC's own PPP (userspace/l2tpseld/ppp.c, ppp_pkt.c): LCP,
 * PAP and CHAP as the LAC answers a PPPoE subscriber.  Each input drives a
 * fresh l2d_ppp on a fake clock:
 *
 *	byte 0		conf: bit 0 pap, 1 chap, 2 echo every second, 3 free
 *			the struct in down(), 4 max-failure 1, 5 max-configure
 *			2 and max-terminate 1, 6 auth timeout 5 s
 *	then ops	0 L data	a frame of L (1 byte) bytes
 *			1 LL data	a frame of LL (2 bytes, big endian) bytes
 *			2 T		the clock advances (T + 1) * 50 ms
 *			3		l2d_ppp_auth_result(ok)
 *			4 L text	l2d_ppp_auth_result(fail, text)
 *			5		l2d_ppp_quiet()
 *			6		l2d_ppp_close()
 *			7 S		S 0: Ack our last Configure-Request, 1: a CHAP
 *					Response to our Challenge, 2: stop, 3: start
 *					again once down, else: a Terminate-Ack
 *	(an op byte is taken modulo 8)
 *
 * Checked: down() at most once per start, auth() at most once;
 * nothing sent after down() or quiet(); every frame sent well formed (its
 * Length is the frame's, its Code one of ours); the captures, the name and
 * the response within their arrays; no timer left once down or stopped.
 * Each frame is copied into an exactly sized buffer: ASan catches any read
 * past it, and a struct freed in down() catches any use after it.
 * The input after byte 0 is also read as the options of a proxied
 * Configure-Request (ppp_opts_mru(), what an LNS reads from AVP 27), from
 * an exactly sized copy: 0 or an MRU of at least 64 that is in it.
 * And as the Proxy LCP and Proxy Authentication AVPs of an ICCN for the LNS
 * role's proxy-lcp decision (proxy_lcp.c): L1 Last Sent, L2 Last Received,
 * L3 Proxy Authen Type, L4 Name, L5 Response (each length a byte, each
 * value an exactly sized copy, absent when the input ends first); a taken
 * call has PAP or CHAP, MRUs 0 or at least 64 (ours) and 128 (theirs),
 * no looped magic, and a PAP request that is the AVPs' bytes.
 *
 *	make fuzz-smoke FUZZ_TARGETS=ppp	bounded run (mk/fuzz.mk)
 *	make fuzz FUZZ_TARGETS=ppp		long run
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ppp.h"
#include "proxy_lcp.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static struct {
	struct l2d_loop loop;
	uint64_t now;
	struct l2d_ppp *p;
	bool free_in_down, quiet, down;
	unsigned int n_down, n_auth;
	uint8_t last_req[2 + 1500];
	size_t last_req_len;
	uint32_t rnd;
} F;

static uint64_t f_clock(void *ctx)
{
	return F.now;
}

static void f_send(struct l2d_ppp *p, const uint8_t *f, size_t len)
{
	uint16_t proto;

	CHECK(p == F.p);
	CHECK(!F.down && !F.quiet);
	CHECK(len >= 6 && len <= 2 + 1500);
	CHECK((size_t)(f[4] << 8 | f[5]) == len - 2);
	proto = (uint16_t)(f[0] << 8 | f[1]);
	if (proto == PPP_PROTO_LCP) {
		CHECK(f[2] >= PPP_CONFREQ && f[2] <= PPP_ECHOREP);
		if (f[2] == PPP_CONFREQ) {
			memcpy(F.last_req, f, len);
			F.last_req_len = len;
		}
	} else if (proto == PPP_PROTO_PAP) {
		CHECK(f[2] == 3 && len >= 7 && f[6] == len - 7);	/* Authenticate-Nak */
	} else {
		CHECK(proto == PPP_PROTO_CHAP);
		CHECK(f[2] == 1 || f[2] == 4);		/* Challenge, Failure */
	}
}

static void f_auth(struct l2d_ppp *p)
{
	CHECK(!F.down);
	CHECK(p->phase == PPP_PHASE_LOGIN);
	CHECK(++F.n_auth == 1);
}

static void f_down(struct l2d_ppp *p, const char *why)
{
	CHECK(!F.down);
	CHECK(why && strlen(why) <= PPP_WHY_MAX);
	CHECK(p->phase == PPP_PHASE_DOWN);
	CHECK(!l2d_timer_armed(&p->restart_timer) && !l2d_timer_armed(&p->auth_timer) &&
	      !l2d_timer_armed(&p->echo_timer));
	F.down = true;
	F.n_down++;
	if (F.free_in_down) {
		free(p);
		F.p = NULL;
	}
}

static void f_random(struct l2d_ppp *p, void *buf, size_t len)
{
	uint8_t *b = buf;
	size_t i;

	for (i = 0; i < len; i++) {
		F.rnd = F.rnd * 1103515245u + 12345u;
		b[i] = (uint8_t)(F.rnd >> 16);
	}
}

static const struct l2d_ppp_ops f_ops = {
	.send = f_send, .auth = f_auth, .down = f_down, .random = f_random,
};

static void check_struct(const struct l2d_ppp *p)
{
	CHECK(p->init_rx.len <= PPP_CAPTURE_MAX);
	CHECK(p->last_rx.len <= PPP_CAPTURE_MAX);
	CHECK(p->last_tx.len <= PPP_CAPTURE_MAX);
	CHECK(p->name_len <= PPP_NAME_MAX && p->name[p->name_len] == '\0');
	CHECK(p->response_len <= PPP_SECRET_MAX);
	CHECK(p->peer_mru >= 64);
	CHECK(p->auth == PPP_AUTH_PAP || p->auth == PPP_AUTH_CHAP);
	CHECK(p->auth == PPP_AUTH_PAP ? p->conf.pap || !p->conf.chap : p->conf.chap);
	if (p->phase == PPP_PHASE_DOWN || p->phase == PPP_PHASE_QUIET)
		CHECK(!l2d_timer_armed(&p->restart_timer) && !l2d_timer_armed(&p->auth_timer) &&
		      !l2d_timer_armed(&p->echo_timer));
}

/* One frame from the subscriber, in a buffer of exactly @n bytes. */
static void deliver(const uint8_t *d, size_t n)
{
	uint8_t *b = malloc(n ? n : 1);

	if (!b)
		return;
	memcpy(b, d, n);
	l2d_ppp_input(F.p, b, n);
	free(b);
}

static void advance(uint64_t ms)
{
	uint64_t end = F.now + ms;

	while (l2d_timer_next(&F.loop) <= end) {
		if (l2d_timer_next(&F.loop) > F.now)
			F.now = l2d_timer_next(&F.loop);
		l2d_timers_run(&F.loop, F.now);
	}
	F.now = end;
}

static void start(uint8_t c)
{
	struct l2d_ppp *p = F.p;

	p->loop = &F.loop;
	p->ops = &f_ops;
	memset(&p->conf, 0, sizeof(p->conf));
	p->conf.pap = c & 1;
	p->conf.chap = c & 2;
	p->conf.echo_interval_ms = c & 4 ? 1000 : 0;
	p->conf.max_failure = c & 16 ? 1 : 0;
	if (c & 32) {
		p->conf.max_configure = 2;
		p->conf.max_terminate = 1;
	}
	p->conf.auth_timeout_ms = c & 64 ? 5000 : 0;
	F.down = F.quiet = false;
	F.n_down = F.n_auth = 0;
	l2d_ppp_start(p);
}

/* The scripted subscriber's helpers (op 7). */
static void special(uint8_t s, uint8_t c)
{
	struct l2d_ppp *p = F.p;
	uint8_t f[2 + 4 + 1 + 16 + 4];

	switch (s) {
	case 0:
		if (F.last_req_len) {
			F.last_req[2] = PPP_CONFACK;
			deliver(F.last_req, F.last_req_len);
			F.last_req[2] = PPP_CONFREQ;
		}
		break;
	case 1:
		f[0] = PPP_PROTO_CHAP >> 8;
		f[1] = PPP_PROTO_CHAP & 0xff;
		f[2] = 2;
		f[3] = p->chap_id;
		f[4] = 0;
		f[5] = sizeof(f) - 2;
		f[6] = 16;
		memset(f + 7, 0x5a, 16);
		memcpy(f + 23, "fuzz", 4);
		deliver(f, sizeof(f));
		break;
	case 2:
		l2d_ppp_stop(p);
		CHECK(F.loop.n == 0);
		F.down = true;		/* nothing may be sent now */
		break;
	case 3:
		if (p->phase == PPP_PHASE_DOWN)
			start(c);
		break;
	default:
		f[0] = PPP_PROTO_LCP >> 8;
		f[1] = PPP_PROTO_LCP & 0xff;
		f[2] = PPP_TERMACK;
		f[3] = s;
		f[4] = 0;
		f[5] = 4;
		deliver(f, 6);
		break;
	}
}

/* The next AVP of fuzz_proxy_lcp(): a length byte, then that many bytes. */
static uint8_t *px_next(const uint8_t **d, size_t *n, struct l2d_proxy_avp *a)
{
	uint8_t *v;
	size_t len;

	if (!*n)
		return NULL;
	len = **d;
	(*d)++;
	(*n)--;
	if (len > *n)
		len = *n;
	v = malloc(len ? len : 1);
	if (!v)
		return NULL;
	memcpy(v, *d, len);
	*d += len;
	*n -= len;
	a->data = v;
	a->len = len;
	a->present = 1;
	return v;
}

static void fuzz_proxy_lcp(const uint8_t *d, size_t n)
{
	struct l2d_proxy_in in;
	struct l2d_proxy_lcp x;
	struct l2d_proxy_avp *a[5] = { &in.last_tx, &in.last_rx, &in.type, &in.name, &in.response };
	uint8_t *v[5] = { NULL };
	unsigned int i;

	memset(&in, 0, sizeof(in));
	for (i = 0; i < 5; i++)
		v[i] = px_next(&d, &n, a[i]);
	memset(&x, 0, sizeof(x));
	if (!l2d_proxy_lcp_decide(&in, &x)) {
		CHECK(x.magic == L2D_PROXY_LCP_MAGIC && x.size == sizeof(x));
		CHECK(x.auth_proto == 0xc023 || x.auth_proto == 0xc223);
		CHECK(!x.our_mru || x.our_mru >= 64);
		CHECK(!x.peer_mru || x.peer_mru >= 128);
		CHECK(!x.peer_magic || x.peer_magic != x.our_magic);
		CHECK(x.pap == (x.auth_proto == 0xc023));
		CHECK(!x.pap || (x.name_len == in.name.len && x.pw_len == in.response.len &&
				 !memcmp(x.name, in.name.data, x.name_len) &&
				 !memcmp(x.pw, in.response.data, x.pw_len)));
	}
	for (i = 0; i < 5; i++)
		free(v[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t i = 1, n;
	uint8_t c;

	if (!size)
		return 0;
	memset(&F, 0, sizeof(F));
	l2d_loop_init(&F.loop, false);
	F.loop.clock = f_clock;
	F.now = 1000;
	F.rnd = 1;
	{
		uint8_t *o = malloc(size - 1 ? size - 1 : 1);
		uint16_t mru;
		size_t k;
		bool seen = false;

		if (!o)
			return 0;
		memcpy(o, data + 1, size - 1);
		mru = ppp_opts_mru(o, size - 1);
		for (k = 0; mru && k + 3 < size - 1; k++)
			seen |= o[k] == 1 && o[k + 1] == 4 && (o[k + 2] << 8 | o[k + 3]) == mru;
		CHECK(!mru || (mru >= 64 && seen));
		free(o);
	}
	fuzz_proxy_lcp(data + 1, size - 1);
	c = data[0];
	F.free_in_down = c & 8;
	F.p = calloc(1, sizeof(*F.p));
	if (!F.p)
		return 0;
	start(c);
	while (i < size && F.p) {
		uint8_t op = data[i++] % 8;

		switch (op) {
		case 0:
		case 1:
			if (op == 0) {
				n = i < size ? data[i] : 0;
				i++;
			} else {
				n = i + 1 < size ? (size_t)(data[i] << 8 | data[i + 1]) : 0;
				i += 2;
			}
			if (i > size)
				break;
			if (n > size - i)
				n = size - i;
			deliver(data + i, n);
			i += n;
			break;
		case 2:
			n = i < size ? data[i] : 0;
			i++;
			advance((n + 1) * 50);
			break;
		case 3:
			l2d_ppp_auth_result(F.p, true, NULL);
			break;
		case 4: {
			char msg[300];

			n = i < size ? data[i] : 0;
			i++;
			if (i > size)
				n = 0;
			else if (n > size - i)
				n = size - i;
			memcpy(msg, data + i, n);
			msg[n] = '\0';
			i += n;
			l2d_ppp_auth_result(F.p, false, msg);
			break;
		}
		case 5:
			l2d_ppp_quiet(F.p);
			if (F.p->phase == PPP_PHASE_QUIET) {
				F.quiet = true;
				CHECK(F.loop.n == 0);
			}
			break;
		case 6:
			l2d_ppp_close(F.p, "fuzz close");
			break;
		default:
			special(i < size ? data[i] : 0, c);
			i++;
			break;
		}
		if (F.p)
			check_struct(F.p);
		CHECK(F.n_down <= 1);
	}
	if (F.p) {
		CHECK(!F.down || F.p->phase == PPP_PHASE_DOWN);
		l2d_ppp_stop(F.p);
		free(F.p);
	}
	CHECK(F.loop.n == 0);
	l2d_loop_fini(&F.loop);
	return 0;
}
