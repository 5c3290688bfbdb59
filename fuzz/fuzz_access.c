// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for l2tpseld's access glue (access.c): what it does
 * with PPPoE discovery frames from subscribers (acc_disc_input(), got_padi(),
 * got_padr(), the PADT path, the discovery budgets) and with the PPP
 * frames of the sessions it creates (LCP, PAP, CHAP up to the login), on
 * a fake clock.  access.c is included, its system calls renamed to fakes:
 * discovery frames it sends are counted, the kernel's PPPoE session and
 * its /dev/ppp channel are one end of a socketpair whose other end the
 * harness writes the subscriber's PPP frames into.  The agent behind it
 * is real ("kernel none", a route to an LNS that never answers), so
 * logins start, time out and end the subscriber.
 *
 *	ops (at most 128), each a byte, op & 7:
 *	0	a discovery frame (next byte: length, then its bytes) from
 *		MAC (op >> 3) & 3
 *	1	a PADR from MAC (op >> 3) & 3 that carries a valid AC-Cookie
 *		(the fuzzer cannot make one): Service-Name (next byte: 0 none,
 *		1 "isp1", else that many bytes), Host-Uniq when op bit 5, a
 *		TR-101 Vendor-Specific tag when op bit 6 (next byte: length of
 *		its sub-options, then their bytes)
 *	2	a PPP frame (next byte: length, then its bytes) from the
 *		subscriber (next byte) % 4 of the list
 *	3	the clock moves on by (next byte) * 50 ms: timers run
 *	4	a PADT from a subscriber (next byte) % 4, its own session ID
 *		when op bit 3, else the next two bytes
 *	5	the cookie keys rotate (the epoch timer)
 *	6	the subscriber (next byte) % 4 acknowledges the AC's last LCP
 *		Configure-Request (its Identifier is the AC's random pick)
 *	7	when op bit 3: the whole LAC's drain (S-OPS-1) turns on or
 *		off; else a CoA-Request's new line rates (S-AL-1): RFC 4679
 *		sub-attributes of vendor 3561 (next byte: length, then its
 *		bytes) for the subscriber (next byte) % 4, l2d_access_coa()
 *
 * The subscriber count must match the list after every op; at the end
 * the access side shuts down (PADT to each) and everything is freed.
 *
 *	make fuzz-smoke FUZZ_TARGETS=access	bounded run (mk/fuzz.mk)
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

static int fake_socket(int domain, int type, int proto);
static int fake_connect(int fd, const void *addr, socklen_t len);
static int fake_ioctl(int fd, unsigned long req, ...);
static int fake_open(const char *path, int flags, ...);
static ssize_t fake_sendto(int fd, const void *buf, size_t len, int flags, const void *to,
			   socklen_t tolen);
#define socket(d, t, p)			fake_socket(d, t, p)
#define connect(f, a, l)		fake_connect(f, a, l)
#define ioctl(f, r, ...)		fake_ioctl(f, r, __VA_ARGS__)
#define open(...)			fake_open(__VA_ARGS__)
#define sendto(f, b, l, fl, t, tl)	fake_sendto(f, b, l, fl, t, tl)

/*
 * The channel workers (offload.h): none here, so that every input runs the
 * same way on one thread; access.c then makes the (faked) PPPIOCGCHAN on
 * the loop's thread, as it does when no worker can be had.  offload.h goes
 * first, so that its prototypes are not renamed.
 */
#include "../userspace/l2tpseld/offload.h"
static int fake_gchan(int fd)
{
	int chan = 1;

	return fake_ioctl(fd, PPPIOCGCHAN, &chan) < 0 ? -errno : chan;
}
#define l2d_offload_submit(o, fd, w, dn, arg)	((void)(o), (void)(dn), (struct l2d_job *)NULL)
#define l2d_offload_gchan(fd)			fake_gchan(fd)

#include "../userspace/l2tpseld/access.c"
#include "../userspace/l2tpseld/access_disc.c"
#include "../userspace/l2tpseld/access_sub.c"
#include "../userspace/l2tpseld/access_call.c"
#include "../userspace/l2tpseld/access_acct.c"
#include "../userspace/l2tpseld/access_switch.c"

#undef l2d_offload_submit
#undef l2d_offload_gchan

#undef socket
#undef connect
#undef ioctl
#undef open
#undef sendto

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static unsigned int sent_disc;
/* the harness's end of each subscriber's channel, by the agent's fd */
static int peer_of[1024];
static int peers[512];
static unsigned int n_peers;

/* the kernel's PPPoE session socket: any socket will do, nothing reads it */
static int fake_socket(int domain, int type, int proto)
{
	return socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
}

static int fake_connect(int fd, const void *addr, socklen_t len)
{
	return 0;
}

static int fake_ioctl(int fd, unsigned long req, ...)
{
	return 0;
}

/* /dev/ppp: one end of a datagram socketpair, the other the harness's */
static int fake_open(const char *path, int flags, ...)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv))
		return -1;
	if (sv[0] >= (int)(sizeof(peer_of) / sizeof(peer_of[0])) || n_peers == 512) {
		close(sv[0]);
		close(sv[1]);
		errno = EMFILE;
		return -1;
	}
	peer_of[sv[0]] = sv[1];
	peers[n_peers++] = sv[1];
	return sv[0];
}

static ssize_t fake_sendto(int fd, const void *buf, size_t len, int flags, const void *to,
			   socklen_t tolen)
{
	CHECK(len <= PPPOE_MAX_PAYLOAD);
	sent_disc++;
	return (ssize_t)len;
}

static uint64_t now_ms;
static uint64_t fake_clock(void *ctx)
{
	return now_ms;
}

static void fake_random(struct l2d *d, void *buf, size_t len)
{
	static uint32_t x = 5;
	uint8_t *p = buf;

	while (len--)
		*p++ = (uint8_t)((x = x * 1103515245u + 12345u) >> 16);
}

static int fake_send(struct l2d *d, struct l2d_tunnel *t, const uint8_t *buf, size_t len)
{
	return 0;	/* the LNS never answers */
}

static int fake_tunnel_open(struct l2d *d, struct l2d_tunnel *t)
{
	return 0;
}

static const struct l2d_env env = {
	.send = fake_send, .tunnel_open = fake_tunnel_open, .random = fake_random,
};

#include "fuzz_in.h"

static const uint8_t macs[4][6] = {
	{ 2, 0, 0, 0, 0, 1 }, { 2, 0, 0, 0, 0, 2 }, { 2, 0, 0, 0, 0, 3 }, { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
};

static size_t put_tag(uint8_t *b, size_t o, uint16_t type, const void *v, size_t len)
{
	b[o] = (uint8_t)(type >> 8);
	b[o + 1] = (uint8_t)type;
	b[o + 2] = (uint8_t)(len >> 8);
	b[o + 3] = (uint8_t)len;
	memcpy(b + o + 4, v, len);
	return o + 4 + len;
}

static struct sub *sub_at(struct acc *a, unsigned int i)
{
	struct sub *sb = a->subs;

	while (sb && i--)
		sb = sb->next;
	return sb;
}

static void check_subs(const struct acc *a)
{
	const struct sub *sb;
	unsigned int n = 0;

	for (sb = a->subs; sb; sb = sb->next) {
		CHECK(!sb->dead && sb->sid && sb->sid != 0xffff);
		n++;
	}
	CHECK(n == a->n_subs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const lines[] = {
		"route p t1 10.0.0.2",
		"access pppoe acc0 service isp1 isp2 pado-delay 0:0,1:100,3:off", "access-auth pap",
		"sccrq-timeout 2s",
	};
	static struct l2d_conf conf;
	struct in in = { data, size };
	struct l2d_loop loop;
	struct l2d *d;
	struct acc *a;
	struct acc_if *ifc;
	uint8_t b[PPPOE_MAX_PAYLOAD + 64], cookie[PPPOE_COOKIE_LEN], key[PPPOE_SECRET_LEN];
	char err[200];
	unsigned int i, ops = 0;

	l2d_conf_defaults(&conf);
	conf.kernel = L2D_KERNEL_NONE;
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		if (l2d_conf_line(&conf, lines[i], err, sizeof(err)))
			__builtin_trap();
	conf.log_level = -1;
	now_ms = 1000000;
	d = calloc(1, sizeof(*d));
	l2d_loop_init(&loop, true);	/* epoll: the channels are added to it */
	loop.clock = fake_clock;
	l2d_init(d, &conf, &loop, &env, &l2d_kops_core);
	d->log_level = -1;
	/* l2d_access_open() without its packet sockets */
	a = calloc(1, sizeof(*a));
	a->d = d;
	l2d_timer_init(&a->reap_timer, acc_reap, a);
	l2d_timer_init(&a->epoch_timer, acc_epoch_fire, a);
	memset(key, 7, sizeof(key));
	pppoe_cookie_rotate(&a->keys, key);
	{
		struct disc_rate_conf rc = { .per_if = conf.padi_rate, .per_line = conf.padi_rate_per_line,
					     .per_mac = conf.padi_rate_per_mac };

		disc_rate_init(&a->rate, &rc, key);
	}
	ifc = &a->ifs[0];
	ifc->a = a;
	ifc->conf = &conf.access[0];
	for (i = 0; i < ifc->conf->n_services; i++)
		ifc->services[i] = ifc->conf->services[i];
	ifc->offer.ac_name = conf.hostname;
	ifc->offer.services = ifc->services;
	ifc->offer.n_services = ifc->conf->n_services;
	ifc->ifindex = 7;
	ifc->fd = -1;
	a->n_ifs = 1;
	d->actx = a;
	d->aops = &acc_ops;
	l2d_timer_arm(&loop, &a->epoch_timer, now_ms + ACC_EPOCH_MS);

	while (in.n && ops++ < 128) {
		uint8_t op = next(&in);
		const uint8_t *mac = macs[(op >> 3) & 3];
		struct sub *sb;
		size_t n, k;

		switch (op & 7) {
		case 0:
			n = next(&in);
			for (k = 0; k < n; k++)
				b[k] = next(&in);
			acc_disc_input(ifc, mac, b, n);
			break;
		case 1: {
			uint8_t sl = next(&in), sv[255];

			b[0] = PPPOE_VER_TYPE;
			b[1] = PPPOE_CODE_PADR;
			b[2] = b[3] = 0;
			n = PPPOE_HDR_LEN;
			if (sl == 1) {
				n = put_tag(b, n, PPPOE_TAG_SERVICE_NAME, "isp1", 4);
			} else {
				for (k = 0; k < (sl > 1 ? sl : 0); k++)
					sv[k] = next(&in);
				n = put_tag(b, n, PPPOE_TAG_SERVICE_NAME, sv, sl > 1 ? sl : 0);
			}
			if (op & 32) {
				uint8_t hu[8];

				for (k = 0; k < sizeof(hu); k++)
					hu[k] = next(&in);
				n = put_tag(b, n, PPPOE_TAG_HOST_UNIQ, hu, sizeof(hu));
			}
			if (op & 64) {
				/* a TR-101 tag: vendor 3561, then the input's sub-options */
				uint8_t v[4 + 255] = { 0, 0, 0x0d, 0xe9 };
				uint8_t vl = next(&in);

				for (k = 0; k < vl; k++)
					v[4 + k] = next(&in);
				n = put_tag(b, n, PPPOE_TAG_VENDOR_SPECIFIC, v, 4 + (size_t)vl);
			}
			pppoe_cookie_make(&a->keys, mac, (uint32_t)ifc->ifindex, cookie);
			n = put_tag(b, n, PPPOE_TAG_AC_COOKIE, cookie, sizeof(cookie));
			b[4] = (uint8_t)((n - PPPOE_HDR_LEN) >> 8);
			b[5] = (uint8_t)(n - PPPOE_HDR_LEN);
			acc_disc_input(ifc, mac, b, n);
			break;
		}
		case 2:
			sb = sub_at(a, next(&in) % 4);
			n = next(&in);
			for (k = 0; k < n; k++)
				b[k] = next(&in);
			if (sb && sb->chan_fd >= 0 && n &&
			    send(peer_of[sb->chan_fd], b, n, MSG_DONTWAIT) == (ssize_t)n)
				chan_readable(&sb->chanw, EPOLLIN);
			break;
		case 3:
			now_ms += (uint64_t)next(&in) * 50;
			l2d_timers_run(&loop, now_ms);
			break;
		case 4: {
			uint16_t sid;

			sb = sub_at(a, next(&in) % 4);
			sid = (op & 8) && sb ? sb->sid : (uint16_t)(next(&in) << 8 | next(&in));
			b[0] = PPPOE_VER_TYPE;
			b[1] = PPPOE_CODE_PADT;
			b[2] = (uint8_t)(sid >> 8);
			b[3] = (uint8_t)sid;
			b[4] = b[5] = 0;
			acc_disc_input(ifc, sb ? sb->mac : mac, b, PPPOE_HDR_LEN);
			break;
		}
		case 5:
			acc_epoch_fire(&a->epoch_timer);
			break;
		case 6: {
			uint8_t f[1600];
			ssize_t r;

			sb = sub_at(a, next(&in) % 4);
			if (!sb || sb->chan_fd < 0)
				break;
			n = 0;
			/* the AC's frames to the subscriber: its last Configure-Request */
			while ((r = recv(peer_of[sb->chan_fd], f, sizeof(f), MSG_DONTWAIT)) > 0)
				if (r >= 6 && f[0] == 0xc0 && f[1] == 0x21 && f[2] == 1 &&
				    (size_t)(f[4] << 8 | f[5]) + 2 <= (size_t)r) {
					n = (size_t)(f[4] << 8 | f[5]) + 2;
					memcpy(b, f, n);
				}
			if (!n)
				break;
			b[2] = 2;	/* Configure-Ack, the same Identifier and options */
			if (send(peer_of[sb->chan_fd], b, n, MSG_DONTWAIT) == (ssize_t)n)
				chan_readable(&sb->chanw, EPOLLIN);
			break;
		}
		case 7: {
			/* the VSA's value: vendor 3561, then the input's sub-attributes */
			static struct rad_dm m;
			uint8_t v[4 + 255] = { 0, 0, 0x0d, 0xe9 };
			uint8_t vl;

			if (op & 8) {
				d->drain_api = !d->drain_api;
				break;
			}
			vl = next(&in);

			memset(&m, 0, sizeof(m));
			m.code = RAD_COA_REQUEST;
			sb = sub_at(a, next(&in) % 4);
			for (k = 0; k < vl; k++)
				v[4 + k] = next(&in);
			if (sb && sb->ppp.name_len)
				snprintf(m.user, sizeof(m.user), "%.*s", (int)sb->ppp.name_len,
					 sb->ppp.name);
			if (!al_parse_radius_vsa(&m.al, v, 4 + (size_t)vl, NULL))
				l2d_access_coa(d, &m);
			break;
		}
		}
		check_subs(a);
		CHECK(a->n_waits <= ACC_PADO_WAIT_MAX);
	}
	l2d_access_shutdown(d);
	while (a->waits)
		acc_pado_wait_free(a, a->waits);
	check_subs(a);
	CHECK(!a->subs && !a->n_subs);
	acc_reap(&a->reap_timer);
	l2d_timer_cancel(&loop, &a->reap_timer);
	l2d_timer_cancel(&loop, &a->epoch_timer);
	d->aops = NULL;
	d->actx = NULL;
	free(a);
	l2d_fini(d);
	l2d_loop_fini(&loop);
	free(d);
	for (i = 0; i < n_peers; i++)
		close(peers[i]);
	n_peers = 0;
	return 0;
}
