// SPDX-License-Identifier: GPL-2.0
/*
 * Tunnel switching's hop-count AVP (S-LTS-2, lts.h).  The AVPs of a
 * message are walked as RFC 2661 section 4.1 lays them out; a message the
 * parser (msg.c) accepted has well-formed lengths, but this walk checks
 * every length itself so that it may be given any bytes.
 */
#include <errno.h>

#include "lts.h"

int lts_hops_from_msg(const uint8_t *buf, size_t len, unsigned int *hops)
{
	size_t off, end;
	int found = 0;

	*hops = 0;
	if (len < L2TP_CTRL_HDR_LEN)
		return 0;
	end = l2tp_get16(buf + 2);
	if (end > len)
		end = len;
	for (off = L2TP_CTRL_HDR_LEN; end >= off + L2TP_AVP_HDR_LEN;) {
		uint16_t w = l2tp_get16(buf + off), alen = w & L2TP_AVP_LEN_MASK;

		if (alen < L2TP_AVP_HDR_LEN || alen > end - off)
			break;
		if (l2tp_get16(buf + off + 2) == LTS_VENDOR &&
		    l2tp_get16(buf + off + 4) == LTS_AVP_HOPS) {
			if (found || (w & L2TP_AVP_H) || alen != L2TP_AVP_HDR_LEN + LTS_HOPS_LEN) {
				*hops = 0;
				return -EBADMSG;
			}
			*hops = l2tp_get16(buf + off + L2TP_AVP_HDR_LEN);
			found = 1;
		}
		off += alen;
	}
	return found;
}

int lts_put_hops(struct l2tp_builder *b, unsigned int hops)
{
	uint8_t v[LTS_HOPS_LEN] = { (uint8_t)(hops >> 8), (uint8_t)hops };

	/* M bit 0 (RFC 2661 section 4.1): a peer that does not know it ignores it */
	return l2tp_put_raw(b, L2TP_AVP_HDR_LEN + LTS_HOPS_LEN, LTS_VENDOR, LTS_AVP_HOPS, v,
			    sizeof(v));
}
