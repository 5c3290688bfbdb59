/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the LAC's own PPP (ppp.c, ppp_pkt.c): the packets we build and
 * send, the option checks, the helpers both files use.  ppp_pkt.c calls
 * nothing of ppp.c.
 */
#ifndef L2D_PPP_INT_H
#define L2D_PPP_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ppp.h"

#define PPP_PKT_MAX	1500	/* RFC 1661 section 6.1: the default MRU */
#define PPP_MRU_MIN	64
#define CHAP_MD5	5	/* RFC 1994 section 3: the Algorithm */
#define CHAP_VALUE_LEN	16

enum { PAP_REQ = 1, PAP_ACK, PAP_NAK };				/* RFC 1334 section 2.2 */
enum { CHAP_CHALLENGE = 1, CHAP_RESPONSE, CHAP_SUCCESS, CHAP_FAILURE };	/* RFC 1994 section 4 */

static inline uint16_t get16(const uint8_t *d)
{
	return (uint16_t)(d[0] << 8 | d[1]);
}

static inline uint32_t get32(const uint8_t *d)
{
	return (uint32_t)d[0] << 24 | (uint32_t)d[1] << 16 | (uint32_t)d[2] << 8 | d[3];
}

/* One packet being built: protocol field, Code, Identifier, Length, data. */
struct ppp_pkt {
	uint8_t buf[2 + PPP_PKT_MAX];
	size_t len, max;
};

void ppp_pkt_begin(struct ppp_pkt *k, uint16_t proto, uint8_t code, uint8_t id, size_t max);
void ppp_pkt_put(struct ppp_pkt *k, const void *d, size_t n);
void ppp_pkt_u8(struct ppp_pkt *k, uint8_t v);
void ppp_pkt_u16(struct ppp_pkt *k, uint16_t v);
void ppp_pkt_u32(struct ppp_pkt *k, uint32_t v);
bool ppp_pkt_has_data(const struct ppp_pkt *k);
/* Length filled in; nothing leaves once quiet or down */
void ppp_pkt_send(struct l2d_ppp *p, struct ppp_pkt *k);
size_t ppp_peer_limit(const struct l2d_ppp *p);
void ppp_capture_put(struct ppp_capture *c, const uint8_t *d, size_t n);
void ppp_set_why(struct l2d_ppp *p, const char *why);
uint32_t ppp_new_magic(struct l2d_ppp *p, uint32_t avoid);
void ppp_arm(struct l2d_ppp *p, struct l2d_timer *t, unsigned int ms);
void ppp_stop_timers(struct l2d_ppp *p);
void ppp_send_answer(struct l2d_ppp *p, uint8_t code, uint8_t id, const uint8_t *d, size_t n);
void ppp_rcr_classify(struct l2d_ppp *p, const uint8_t *o, size_t n, struct ppp_pkt *rej,
		      struct ppp_pkt *nak, uint16_t *mru, uint32_t *magic);
bool ppp_auth_allowed(const struct l2d_ppp *p, enum ppp_auth a);
bool ppp_auth_nak(struct l2d_ppp *p, const uint8_t *v, uint8_t len);
void ppp_send_refusal(struct l2d_ppp *p, uint8_t id);
void ppp_send_challenge(struct l2d_ppp *p, bool retransmit);

#endif
