/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The LNS role's use of the Proxy LCP and Proxy Authentication AVPs of an
 * ICCN (RFC 2661 section 4.4.5, AVPs 26 to 33), `proxy-lcp yes`: the agent
 * decides whether the LCP the LAC negotiated with the subscriber can be
 * taken as it is (l2d_proxy_lcp_decide()); if so the call's pppd starts with
 * the pppd plugin pppd_proxy_lcp.c, which reads the decision (struct
 * l2d_proxy_lcp) from its standard input, opens LCP with those options
 * without a Configure-Request of its own, and hands pppd's PAP server the
 * subscriber's proxied Authenticate-Request.  Otherwise pppd renegotiates
 * LCP as it does without the option.
 *
 * This header is shared by the agent and the plugin: no agent types.
 */
#ifndef L2D_PROXY_LCP_H
#define L2D_PROXY_LCP_H

#include <stddef.h>
#include <stdint.h>

#define L2D_PROXY_LCP_MAGIC	0x6c32706cU	/* "l2pl" */

/* What the plugin reads from pppd's standard input, in host byte order. */
struct l2d_proxy_lcp {
	uint32_t magic;			/* L2D_PROXY_LCP_MAGIC */
	uint32_t size;			/* sizeof(struct l2d_proxy_lcp) */
	/* the LAC's Configure-Request the subscriber acked (AVP 27) */
	uint16_t our_mru;		/* 0: no MRU option (1500) */
	uint16_t auth_proto;		/* 0xc023 PAP or 0xc223 CHAP with MD5 */
	uint32_t our_magic;		/* 0: no Magic-Number option */
	/* the subscriber's Configure-Request the LAC acked (AVP 28) */
	uint16_t peer_mru;		/* 0: no MRU option (1500) */
	uint8_t peer_has_accm;
	uint8_t pap;			/* 1: the PAP request below is given */
	uint32_t peer_accm;
	uint32_t peer_magic;		/* 0: no Magic-Number option */
	/* PAP: the subscriber's Authenticate-Request (AVPs 30, 33) */
	uint8_t pap_id;
	uint8_t name_len, pw_len;
	uint8_t pad;
	uint8_t name[255];
	uint8_t pw[255];
};

/* The AVPs of an ICCN the decision reads; present false when absent. */
struct l2d_proxy_avp {
	const uint8_t *data;
	size_t len;
	int present;
};

struct l2d_proxy_in {
	struct l2d_proxy_avp init_rx, last_tx, last_rx;		/* AVPs 26, 27, 28 */
	struct l2d_proxy_avp type, name, challenge, id, response;	/* AVPs 29 to 33 */
};

/*
 * RFC 2661 section 4.4.5: may the LNS take the proxied LCP and
 * authentication as they are?  Acceptable: Last Sent and Last Received
 * both present and well formed (RFC 1661 section 6); the LAC asked only MRU
 * (64..65535), Magic-Number and an Authentication-Protocol of PAP or CHAP
 * with MD5 (which it must have asked); the subscriber asked only MRU (at
 * least 128, pppd's minimum), ACCM and Magic-Number, not the LAC's magic
 * (a loop); a Proxy Authen Type (2 CHAP, 3 PAP) that matches the LCP's
 * protocol, with a Name; PAP with a Response of at most 255 octets.
 * Return: NULL with *@out filled, or why it is not taken (a constant string;
 * pppd then renegotiates LCP).
 */
const char *l2d_proxy_lcp_decide(const struct l2d_proxy_in *in, struct l2d_proxy_lcp *out);

#endif
