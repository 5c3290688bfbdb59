// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for l2tpseld's L2TP input path past the parser: the
 * tunnel and call state machines (tunnel*.c, session*.c, lac.c) and the
 * reliable delivery behind them, out-of-order stash included, driven by a
 * fake peer.  It runs the unit tests' simulated network
 * (selftests/unit/l2tpseld_harness.c): a LAC node (10.0.0.1) and an LNS
 * node (10.0.0.2) on one fake clock, "kernel none", whose own datagrams
 * flow between them as time moves, while the input injects crafted ones
 * from a fake peer at 10.0.0.9 (or spoofing the other node).
 *
 *	byte 0		bit 0: both with a secret and hidden AVPs; bit 1:
 *			ack-delay 0; bit 2: the LAC starts a login at once
 *	then ops	(at most 96), each one byte, op & 7:
 *	0, 7		a control message to the LNS from 10.0.0.9 (7: from
 *			the port in the next byte + 1700): type, tunnel,
 *			session, Ns, Nr, AVPs (see craft(): RFC 2661's,
 *			RFC 5515's access-line and Connect Speed Update
 *			AVPs; CSUN and CSURQ among the types)
 *	1		the same to the LAC, from the LNS's own address
 *	2		the clock moves on by (next byte) * 25 ms; datagrams
 *			between the nodes are delivered, timers run
 *	3		a raw datagram (next byte: length) to the LNS, or to
 *			the LAC when op bit 3 is set
 *	4		the LAC starts a login (at most 8)
 *	5		logout of session (next byte & 7) + 1 on either node
 *	6		the next datagram between the nodes is dropped
 *
 * Tunnel and Session IDs in crafted messages are taken from the node's
 * live objects when asked (a byte's low bits index them), so sequences
 * reach established tunnels and calls; Ns and Nr are near the tunnel's
 * own counters, so the duplicate, in-order, stash and out-of-window paths
 * are all reached.  After every op each node's counts must match its
 * lists; ASan and UBSan catch the rest.
 *
 *	make fuzz-smoke FUZZ_TARGETS=l2tp_fsm	bounded run (mk/fuzz.mk)
 */
#include <arpa/inet.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "l2tpseld_harness.h"
#include "accessline.h"
#include "msg.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

/* the harness's hooks into the test runner: a config refused is our bug */
void th_fail(const char *file, int line, const char *fmt, ...)
{
	__builtin_trap();
}

void th_log(const char *fmt, ...)
{
}

#include "fuzz_in.h"

/* A live tunnel of @d by index, or NULL. */
static struct l2d_tunnel *tunnel_at(struct l2d *d, unsigned int i)
{
	struct l2d_tunnel *t = d->tunnels;

	while (t && i--)
		t = t->next;
	return t;
}

/*
 * A control message for @n from the input: type, then tunnel (bit 7: a
 * live tunnel's own Tunnel ID as the peer would address it, by the low
 * bits; else the byte itself, 0 included), session (likewise from that
 * tunnel's calls), Ns and Nr (as offsets from the tunnel's counters when
 * one was picked), then up to 6 AVPs (type, length, value: a type byte
 * from 0xe0 a vendor-3561 access-line AVP, from 0xd0 a Connect Speed
 * Update or its Enable, RFC 5515); with the type
 * byte's bit 7 the AVPs that type requires come first, well formed.
 */
static size_t craft(struct h_node *n, struct in *in, uint8_t *buf, size_t cap)
{
	uint8_t tb = next(in), tsel = next(in), ssel = next(in);
	uint8_t ns = next(in), nr = next(in), navp = next(in) % 7;
	uint16_t type = tb & 0x1f, tid = tsel, sid = ssel;
	struct l2d_tunnel *t = NULL;
	struct l2tp_builder b;
	uint8_t val[64];
	unsigned int i;
	size_t len;

	if (tsel & 0x80) {
		t = tunnel_at(n->d, tsel & 7);
		tid = t ? t->tid : 0;
	}
	if (t && (ssel & 0x80)) {
		struct l2d_session *s = t->sessions;
		unsigned int k = ssel & 7;

		while (s && k--)
			s = s->next;
		sid = s ? s->sid : 0;
	}
	l2tp_build_begin(&b, buf, cap, tid, sid, type, NULL);
	if (tb & 0x80) {
		switch (type) {
		case L2TP_MSG_SCCRQ:
		case L2TP_MSG_SCCRP:
			l2tp_put_u16(&b, L2TP_AVP_PROTOCOL_VERSION, L2TP_PROTOCOL_VERSION);
			l2tp_put_string(&b, L2TP_AVP_HOST_NAME, "fuzz peer");
			l2tp_put_u32(&b, L2TP_AVP_FRAMING_CAPS, 3);
			l2tp_put_u16(&b, L2TP_AVP_ASSIGNED_TUNNEL_ID, (uint16_t)(100 + (ns & 7)));
			break;
		case L2TP_MSG_STOPCCN:
			l2tp_put_u16(&b, L2TP_AVP_ASSIGNED_TUNNEL_ID, (uint16_t)(100 + (ns & 7)));
			l2tp_put_result(&b, 1, -1, NULL);
			break;
		case L2TP_MSG_ICRQ:
		case L2TP_MSG_ICRP:
			l2tp_put_u16(&b, L2TP_AVP_ASSIGNED_SESSION_ID, (uint16_t)(200 + (nr & 15)));
			l2tp_put_u32(&b, L2TP_AVP_CALL_SERIAL_NUMBER, nr);
			break;
		case L2TP_MSG_ICCN:
			l2tp_put_u32(&b, L2TP_AVP_TX_CONNECT_SPEED, 10000000);
			l2tp_put_u32(&b, L2TP_AVP_FRAMING_TYPE, 1);
			break;
		case L2TP_MSG_CDN:
			l2tp_put_result(&b, 3, -1, NULL);
			l2tp_put_u16(&b, L2TP_AVP_ASSIGNED_SESSION_ID, (uint16_t)(200 + (nr & 15)));
			break;
		default:
			break;
		}
	}
	for (i = 0; i < navp; i++) {
		uint8_t ab = next(in), at = ab % L2TP_AVP_TYPE_COUNT, al = next(in) % sizeof(val);
		unsigned int k;

		for (k = 0; k < al; k++)
			val[k] = next(in);
		if (ab >= 0xe0)		/* RFC 5515: vendor 3561, M from bit 4 */
			l2tp_put_raw(&b, (uint16_t)((ab & 0x10 ? L2TP_AVP_M : 0) | (L2TP_AVP_HDR_LEN + al)),
				     AL_VENDOR_BBF, al_type_at((ab + al) % AL_N_ATTRS), val, al);
		else if (ab >= 0xd0)	/* RFC 5515: Connect Speed Update (Enable) */
			l2tp_put_raw(&b, (uint16_t)(L2TP_AVP_HDR_LEN + al), L2TP_VENDOR_IETF,
				     (uint16_t)(L2TP_AVP_CONNECT_SPEED_UPDATE + (ab & 1)), val, al);
		else
			l2tp_put_avp(&b, at ? at : 1, val, al);
	}
	len = l2tp_build_end(&b);
	if (!len)
		return 0;
	/* Ns and Nr near what the tunnel expects and has sent */
	if (t)
		l2tp_hdr_set_seq(buf, (uint16_t)(t->rel.nr + (int8_t)ns),
				 (uint16_t)(t->rel.ns_sent + (int8_t)nr));
	else
		l2tp_hdr_set_seq(buf, ns, nr);
	return len;
}

/* Each node's counts match what its lists hold. */
static void check_counts(const struct h_node *n)
{
	const struct l2d_tunnel *t;
	const struct l2d_session *s;
	unsigned int nt = 0, ns = 0;

	for (t = n->d->tunnels; t; t = t->next) {
		unsigned int k = 0;

		nt++;
		for (s = t->sessions; s; s = s->next) {
			CHECK(s->t == t);
			k++;
		}
		CHECK(k == t->n_sessions);
		ns += k;
	}
	CHECK(nt == n->d->n_tunnels);
	CHECK(ns == n->d->n_sessions);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const lac_plain[] = { "route p t1 10.0.0.2", NULL };
	static const char *const lns_plain[] = { "listen 10.0.0.2", NULL };
	static const char *const lac_sec[] = { "route p t1 10.0.0.2", "secret t1 sesame", "hide-avps yes", NULL };
	static const char *const lns_sec[] = { "listen 10.0.0.2", "lns-secret * sesame", "hide-avps yes",
					       NULL };
	struct in in = { data, size };
	struct h_node *lac, *lns;
	struct l2d_addr peer, spoof;
	uint8_t cfg = next(&in), buf[1500];
	unsigned int ops = 0, logins = 0;

	h_reset();
	lac = h_node(cfg & 1 ? lac_sec : lac_plain);
	lns = h_node(cfg & 1 ? lns_sec : lns_plain);
	CHECK(lac && lns);
	if (cfg & 2) {
		lac->d->conf->ack_delay_ms = 0;
		lns->d->conf->ack_delay_ms = 0;
	}
	l2d_parse_addr("10.0.0.9", 1701, &peer.ss, &peer.len);
	spoof = lns->addr;
	if (cfg & 4) {
		h_login(lac, "fuzz@example", NULL);
		logins++;
	}
	while (in.n && ops++ < 96) {
		uint8_t op = next(&in);
		size_t len;

		switch (op & 7) {
		case 0:
		case 7: {
			struct l2d_addr from = peer;

			if ((op & 7) == 7)
				((struct sockaddr_in *)&from.ss)->sin_port = htons(1700 + next(&in));
			len = craft(lns, &in, buf, sizeof(buf));
			if (len)
				h_inject(lns, &from, buf, len);
			break;
		}
		case 1:
			len = craft(lac, &in, buf, sizeof(buf));
			if (len)
				h_inject(lac, &spoof, buf, len);
			break;
		case 2:
			h_run_for((uint64_t)next(&in) * 25);
			break;
		case 3: {
			uint8_t l = next(&in);
			unsigned int k;

			for (k = 0; k < l; k++)
				buf[k] = next(&in);
			if (op & 8)
				h_inject(lac, &spoof, buf, l);
			else
				h_inject(lns, &peer, buf, l);
			break;
		}
		case 4:
			if (logins < 8) {
				h_login(lac, "fuzz@example", NULL);
				logins++;
			}
			break;
		case 5:
			l2d_logout(op & 8 ? lns->d : lac->d, (uint32_t)(next(&in) & 7) + 1);
			break;
		case 6:
			H->drop_from = op & 8 ? 1 : 0;
			H->drop_nth = (int)H->count_from + 1;
			break;
		}
		check_counts(lac);
		check_counts(lns);
	}
	/* let every timer run out: setups time out, tunnels close */
	h_run_for(5000);
	check_counts(lac);
	check_counts(lns);
	h_fini();
	return 0;
}
