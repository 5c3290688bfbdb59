// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for l2tpseld's control message + AVP parser
 * (S-L2TP-3).  Each input is one UDP payload.  It is parsed without and
 * with a shared secret (so hidden AVPs are revealed), its header is fed to
 * the reliable-delivery layer, and an accepted message is rebuilt from the
 * parsed values and parsed again, which must give the same values.  Any
 * read outside the datagram is caught by ASan: the copy is exactly sized.
 * The raw bytes also go to tunnel switching's hop-count walk (lts.c,
 * S-LTS-2), which must read none of them past the datagram either.
 *
 *	make fuzz-smoke		bounded run (mk/fuzz.mk)
 *	make fuzz		long run
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lts.h"
#include "msg.h"
#include "reliable.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static const uint8_t fuzz_secret_bytes[] = "fuzz-secret";
static const struct l2tp_secret fuzz_secret = {
	fuzz_secret_bytes, sizeof(fuzz_secret_bytes) - 1
};

static struct l2tp_rel rel;
static uint8_t rebuilt[70000];

/* Every value the parser hands out lies inside the message. */
static void check_bounds(const struct l2tp_msg *m, const uint8_t *buf)
{
	unsigned int t;

	for (t = 0; t < L2TP_AVP_TYPE_COUNT; t++) {
		const struct l2tp_avp_val *v = &m->avp[t];

		if (!v->present)
			continue;
		CHECK(v->data >= buf + L2TP_CTRL_HDR_LEN);
		CHECK(v->data + v->len <= buf + m->hdr.length);
	}
}

/* Rebuild an accepted message in clear and parse it again. */
static void check_rebuild(const struct l2tp_msg *m)
{
	struct l2tp_builder b;
	struct l2tp_msg again;
	unsigned int t;
	size_t len;

	if (m->hdr.zlb || m->answer.action != L2TP_ACT_ACCEPT)
		return;
	l2tp_build_begin(&b, rebuilt, sizeof(rebuilt), m->hdr.tunnel_id,
			 m->hdr.session_id, m->type, NULL);
	for (t = 1; t < L2TP_AVP_TYPE_COUNT; t++)
		if (m->avp[t].present)
			l2tp_put_avp(&b, (uint16_t)t, m->avp[t].data, m->avp[t].len);
	len = l2tp_build_end(&b);
	CHECK(len);
	CHECK(l2tp_msg_parse(&again, rebuilt, len, NULL) == L2TP_ACT_ACCEPT);
	CHECK(again.type == m->type);
	for (t = 0; t < L2TP_AVP_TYPE_COUNT; t++) {
		CHECK(again.avp[t].present == m->avp[t].present);
		if (m->avp[t].present) {
			CHECK(again.avp[t].len == m->avp[t].len);
			CHECK(!memcmp(again.avp[t].data, m->avp[t].data, m->avp[t].len));
		}
	}
}

/* The reliable layer, in a state with messages in flight near the wrap. */
static void check_reliable(const struct l2tp_hdr *hdr)
{
	static uint8_t hello[32];
	struct l2tp_builder b;
	struct l2tp_rel_tx tx;
	size_t len;
	int i;

	l2tp_build_begin(&b, hello, sizeof(hello), 1, 0, L2TP_MSG_HELLO, NULL);
	len = l2tp_build_end(&b);
	l2tp_rel_reset(&rel, NULL);
	rel.ns_una = rel.ns_sent = rel.ns_next = 65534;
	rel.nr = 65535;
	rel.cwnd = 4;
	for (i = 0; i < 3; i++)
		CHECK(l2tp_rel_queue(&rel, hello, len) >= 0);
	for (i = 0; i < 8 && l2tp_rel_poll(&rel, 0, &tx) == L2TP_REL_TRANSMIT; i++)
		CHECK(tx.len >= L2TP_CTRL_HDR_LEN);
	l2tp_rel_receive(&rel, hdr, 5);
	CHECK((uint16_t)(rel.ns_sent - rel.ns_una) <= 3);
	for (i = 0; i < 64 && l2tp_rel_poll(&rel, 100000, &tx) != L2TP_REL_IDLE; i++)
		;
	CHECK(i < 64);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct l2tp_msg m;
	uint8_t *buf;

	if (size > 65535 + 64)
		return 0;
	buf = malloc(size ? size : 1);
	if (!buf)
		return 0;

	memcpy(buf, data, size);
	{
		unsigned int hops;
		int r = lts_hops_from_msg(buf, size, &hops);

		CHECK(r >= 0 || hops == 0);
		CHECK(r == 1 || hops == 0);
	}
	if (l2tp_msg_parse(&m, buf, size, NULL) != L2TP_ACT_DISCARD) {
		check_bounds(&m, buf);
		check_rebuild(&m);
		check_reliable(&m.hdr);
	}

	memcpy(buf, data, size);
	if (l2tp_msg_parse(&m, buf, size, &fuzz_secret) != L2TP_ACT_DISCARD) {
		check_bounds(&m, buf);
		check_rebuild(&m);
	}
	free(buf);
	return 0;
}
