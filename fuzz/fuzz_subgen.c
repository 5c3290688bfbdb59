// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the subscriber load generator's packet input
 * (bench/subgen/sg_parse.c): each input is one Ethernet frame as a raw
 * socket hands it to l2tpsel-subgen or l2tpsel-subresp.  A frame that
 * parses must hand out values inside itself and inside its PPPoE LENGTH;
 * the options of a control packet, a PAP request, a CHAP value and name and
 * an ICMP message inside the control packet's Length or the IP Total
 * Length.  Any read outside the frame is caught by ASan: the copy is
 * exactly sized.
 *
 *	make fuzz-smoke FUZZ_TARGETS=subgen	bounded run (mk/fuzz.mk)
 *	make fuzz FUZZ_TARGETS=subgen		long run
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sg_parse.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static void check_in(const uint8_t *p, size_t len, const uint8_t *lo, const uint8_t *hi)
{
	CHECK(p >= lo && p <= hi);
	CHECK(len <= (size_t)(hi - p));
}

static void check_bytes(const struct sg_bytes *b, const uint8_t *lo, const uint8_t *hi)
{
	if (!b->present) {
		CHECK(!b->p && !b->len);
		return;
	}
	check_in(b->p, b->len, lo, hi);
}

static void check_opts(const uint8_t *p, size_t len)
{
	struct sg_opt_iter it;
	const uint8_t *v;
	uint8_t t, vl;
	size_t seen = 0;
	int r;

	sg_opt_init(&it, p, len);
	while ((r = sg_opt_next(&it, &t, &v, &vl)) > 0) {
		check_in(v, vl, p, p + len);
		CHECK(v[-2] == t && v[-1] == vl + 2);
		seen += 2 + vl;
	}
	CHECK(r == 0 ? seen == len : seen < len);
	CHECK(sg_opts_ok(p, len) == (r == 0));
}

static void check_frame(const struct sg_frame *f, const uint8_t *buf, size_t size)
{
	const uint8_t *pl = buf + SG_HDRS, *end = pl + f->len;
	struct sg_bytes a, b;
	struct sg_icmp ic;

	CHECK(f->dst == buf && f->src == buf + SG_ETH_ALEN);
	CHECK(f->payload == pl && SG_HDRS + (size_t)f->len <= size);
	if (f->ethertype == SG_ETH_DISC) {
		check_bytes(&f->service, pl, end);
		check_bytes(&f->ac_name, pl, end);
		check_bytes(&f->host_uniq, pl, end);
		check_bytes(&f->cookie, pl, end);
		check_bytes(&f->relay, pl, end);
		check_bytes(&f->error, pl, end);
		CHECK(f->error.present == (f->error_tag != 0));
		return;
	}
	CHECK(f->ethertype == SG_ETH_SESS);
	check_in(f->info, f->info_len, pl, end);
	if (f->cp_data) {
		check_in(f->cp_data, f->cp_dlen, f->info, f->info + f->info_len);
		CHECK(f->cp_data == f->info + 4);
		check_opts(f->cp_data, f->cp_dlen);
		if (!sg_pap_req_parse(f, &a, &b)) {
			check_bytes(&a, f->cp_data, f->cp_data + f->cp_dlen);
			check_bytes(&b, f->cp_data, f->cp_data + f->cp_dlen);
			CHECK(b.p == a.p + a.len + 1);
		}
		if (!sg_chap_parse(f, &a, &b)) {
			check_bytes(&a, f->cp_data, f->cp_data + f->cp_dlen);
			check_bytes(&b, f->cp_data, f->cp_data + f->cp_dlen);
			CHECK(b.p + b.len == f->cp_data + f->cp_dlen);
		}
	}
	if (!sg_icmp_parse(f, &ic)) {
		CHECK(ic.ip == f->info && ic.ihl >= 20 && ic.ihl + 8 <= ic.ip_len);
		check_in(ic.ip, ic.ip_len, f->info, f->info + f->info_len);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sg_frame f;
	uint8_t *buf;
	int r;

	if (size > 70000)
		return 0;
	buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	r = sg_parse(buf, size, &f);
	CHECK(r >= 0 && r < SG_E_COUNT && sg_strerror(r) != NULL);
	if (r == SG_OK)
		check_frame(&f, buf, size);
	/* the option walk on its own, over any bytes */
	check_opts(buf, size);
	free(buf);
	return 0;
}
