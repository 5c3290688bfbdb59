// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the snapshot an upgrading l2tpseld hands the binary
 * it re-executes (S-OPS-2, snap.c): the header and record framing
 * (l2d_snap_check()), every record's fields, and the tunnels and calls
 * they rebuild (l2d_snap_adopt(), l2d_tunnel_adopt(), l2d_session_adopt())
 * in a fresh agent of the unit tests' simulated network, "kernel none".
 * The harness has no sockets: the descriptors a snapshot names are never
 * touched.
 *
 *	byte 0		bit 0: the input is the whole snapshot; else it is the
 *			body, and a good header (version, length) goes first
 *	the rest	the snapshot or its body
 *
 * After the adoption, whether it was refused or not, the agent's counts
 * must match its lists, and the clock moves on 2 s so that the adopted
 * tunnels send (their queues, HELLOs) on the simulated network; ASan and
 * UBSan catch the rest.
 *
 *	make fuzz-smoke FUZZ_TARGETS=snap	bounded run (mk/fuzz.mk)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "l2tpseld_harness.h"
#include "snap.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static uint8_t buf[L2D_SNAP_HDR_LEN + 65536];

void th_fail(const char *file, int line, const char *fmt, ...)
{
	__builtin_trap();
}

void th_log(const char *fmt, ...)
{
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const lac_cfg[] = { "route p t1 10.0.0.2", NULL };
	static const char *const lns_cfg[] = { "listen 10.0.0.2", NULL };
	struct h_node *lac, *lns;
	struct l2d_tunnel *t;
	struct l2d_session *s;
	unsigned int nt = 0, ns = 0;
	char err[512];
	size_t len;

	if (!size || size > sizeof(buf) - L2D_SNAP_HDR_LEN)
		return 0;
	if (data[0] & 1) {
		len = size - 1;
		memcpy(buf, data + 1, len);
	} else {
		len = size - 1 + L2D_SNAP_HDR_LEN;
		memcpy(buf, L2D_SNAP_MAGIC, 8);
		buf[8] = 0;
		buf[9] = L2D_SNAP_VERSION;
		buf[10] = buf[11] = 0;
		buf[12] = (uint8_t)((size - 1) >> 24);
		buf[13] = (uint8_t)((size - 1) >> 16);
		buf[14] = (uint8_t)((size - 1) >> 8);
		buf[15] = (uint8_t)(size - 1);
		memcpy(buf + L2D_SNAP_HDR_LEN, data + 1, size - 1);
	}
	h_reset();
	lac = h_node(lac_cfg);
	lns = h_node(lns_cfg);
	CHECK(lac && lns);
	err[0] = '\0';
	if (l2d_snap_adopt(lac->d, buf, len, err, sizeof(err)))
		CHECK(err[0]);
	for (t = lac->d->tunnels; t; t = t->next) {
		nt++;
		CHECK(lac->d->tun_by_id[t->tid] == t);
		for (s = t->sessions; s; s = s->next) {
			ns++;
			CHECK(lac->d->sess_by_id[s->sid] == s && s->t == t);
		}
	}
	CHECK(nt == lac->d->n_tunnels && ns == lac->d->n_sessions);
	h_run_for(2000);
	h_fini();
	return 0;
}
