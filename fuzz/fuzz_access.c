// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for l2tpseld's access role (access*.c): what it does
 * with PPPoE discovery frames from subscribers (acc_disc_input(),
 * got_padi(), got_padr(), the PADT path, the discovery budgets) and with
 * the PPP frames of the sessions it creates (LCP, PAP, CHAP up to the
 * login), on a fake clock.  Its kernel is faked
 * (selftests/unit/access/fakes.h): discovery frames it sends are counted,
 * the kernel's PPPoE session is a socket nobody reads and its /dev/ppp
 * channel one end of a socketpair whose other end the harness writes the
 * subscriber's PPP frames into.  The agent behind it
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include "../selftests/unit/access/fakes.h"
#include "radius.h"
#include "agent.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

#include "fuzz_in.h"

static const uint8_t macs[4][6] = {
	{ 2, 0, 0, 0, 0, 1 }, { 2, 0, 0, 0, 0, 2 }, { 2, 0, 0, 0, 0, 3 }, { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
};

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
	uint8_t b[PPPOE_MAX_PAYLOAD + 64], cookie[PPPOE_COOKIE_LEN];
	char err[200];
	unsigned int i, ops = 0;

	l2d_conf_defaults(&conf);
	conf.kernel = L2D_KERNEL_NONE;
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		if (l2d_conf_line(&conf, lines[i], err, sizeof(err)))
			__builtin_trap();
	conf.log_level = -1;
	fake_now_ms = 1000000;
	d = calloc(1, sizeof(*d));
	l2d_loop_init(&loop, true);	/* epoll: the channels are added to it */
	loop.clock = fake_clock;
	l2d_agent_init(d, &conf, &loop, &fake_env, &l2d_kops_none);
	d->log_level = -1;
	a = fake_access_up(d);
	CHECK(a);
	ifc = &a->ifs[0];
	l2d_timer_arm(&loop, &a->epoch_timer, fake_now_ms + ACC_EPOCH_MS);

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
				n = fake_put_tag(b, n, PPPOE_TAG_SERVICE_NAME, "isp1", 4);
			} else {
				for (k = 0; k < (sl > 1 ? sl : 0); k++)
					sv[k] = next(&in);
				n = fake_put_tag(b, n, PPPOE_TAG_SERVICE_NAME, sv, sl > 1 ? sl : 0);
			}
			if (op & 32) {
				uint8_t hu[8];

				for (k = 0; k < sizeof(hu); k++)
					hu[k] = next(&in);
				n = fake_put_tag(b, n, PPPOE_TAG_HOST_UNIQ, hu, sizeof(hu));
			}
			if (op & 64) {
				/* a TR-101 tag: vendor 3561, then the input's sub-options */
				uint8_t v[4 + 255] = { 0, 0, 0x0d, 0xe9 };
				uint8_t vl = next(&in);

				for (k = 0; k < vl; k++)
					v[4 + k] = next(&in);
				n = fake_put_tag(b, n, PPPOE_TAG_VENDOR_SPECIFIC, v, 4 + (size_t)vl);
			}
			pppoe_cookie_make(&a->keys, mac, (uint32_t)ifc->ifindex, cookie);
			n = fake_put_tag(b, n, PPPOE_TAG_AC_COOKIE, cookie, sizeof(cookie));
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
			    send(fake_peer_of(sb->chan_fd), b, n, MSG_DONTWAIT) == (ssize_t)n)
				sb->chanw.fn(&sb->chanw, EPOLLIN);
			break;
		case 3:
			fake_now_ms += (uint64_t)next(&in) * 50;
			l2d_timers_run(&loop, fake_now_ms);
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
			while ((r = recv(fake_peer_of(sb->chan_fd), f, sizeof(f), MSG_DONTWAIT)) > 0)
				if (r >= 6 && f[0] == 0xc0 && f[1] == 0x21 && f[2] == 1 &&
				    (size_t)(f[4] << 8 | f[5]) + 2 <= (size_t)r) {
					n = (size_t)(f[4] << 8 | f[5]) + 2;
					memcpy(b, f, n);
				}
			if (!n)
				break;
			b[2] = 2;	/* Configure-Ack, the same Identifier and options */
			if (send(fake_peer_of(sb->chan_fd), b, n, MSG_DONTWAIT) == (ssize_t)n)
				sb->chanw.fn(&sb->chanw, EPOLLIN);
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
	check_subs(a);
	CHECK(!a->subs && !a->n_subs);
	l2d_access_close(d);
	l2d_fini(d);
	l2d_loop_fini(&loop);
	free(d);
	fake_reset();
	return 0;
}
