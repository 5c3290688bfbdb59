// SPDX-License-Identifier: GPL-2.0
/*
 * Tunnel switching's hop-count AVP (S-LTS-2, lts.h).  The AVPs of a
 * message are walked as RFC 2661 section 4.1 lays them out
 * (l2tp_avp_walk(), which checks every length, so that it may be given
 * any bytes).
 */
#include <errno.h>
#include <stdbool.h>

#include "lts.h"

struct hops_walk {
	unsigned int hops;
	int found;
	bool bad;	/* hidden, not 2 bytes, or there twice */
};

static void take_hops(void *arg, uint16_t w, uint16_t vendor, uint16_t type, const uint8_t *v,
		      size_t len)
{
	struct hops_walk *h = arg;

	if (vendor != LTS_VENDOR || type != LTS_AVP_HOPS || h->bad)
		return;
	if (h->found || (w & L2TP_AVP_H) || len != LTS_HOPS_LEN) {
		h->bad = true;
		return;
	}
	h->hops = l2tp_get16(v);
	h->found = 1;
}

int lts_hops_from_msg(const uint8_t *buf, size_t len, unsigned int *hops)
{
	struct hops_walk h = { 0 };

	l2tp_avp_walk(buf, len, take_hops, &h);
	*hops = h.bad ? 0 : h.hops;
	return h.bad ? -EBADMSG : h.found;
}

int lts_put_hops(struct l2tp_builder *b, unsigned int hops)
{
	uint8_t v[LTS_HOPS_LEN] = { (uint8_t)(hops >> 8), (uint8_t)hops };

	/* M bit 0 (RFC 2661 section 4.1): a peer that does not know it ignores it */
	return l2tp_put_raw(b, L2TP_AVP_HDR_LEN + LTS_HOPS_LEN, LTS_VENDOR, LTS_AVP_HOPS, v,
			    sizeof(v));
}
