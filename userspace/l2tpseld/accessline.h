/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Access-line information (S-AL-1): what a TR-101 PPPoE intermediate agent
 * (the DSLAM) says of a subscriber's line, carried on as RFC 5515 AVPs in
 * the ICRQ and as RFC 4679 DSL Forum VSAs in RADIUS accounting.
 *
 * The three encodings share one numbering, the Broadband Forum's (vendor
 * 3561): the TR-101 Vendor-Specific PPPoE tag's sub-options, RFC 4679's
 * Vendor-Types and RFC 5515's vendor-specific Attribute Types
 * are the same numbers.  What differs:
 *
 *   TR-101 tag      1-byte type and length; rates 4 bytes in kb/s
 *   RFC 4679 VSA    1-byte Vendor-Type and Vendor-Length; rates 4 bytes, b/s
 *   RFC 5515 AVP    L2TP AVP, Vendor ID 3561, M bit 0; rates 8 bytes, b/s
 *
 * Interleaving delays are 4 bytes of milliseconds everywhere, the
 * Access-Loop-Encapsulation 3 bytes (data link, encapsulation 1 and 2),
 * the two identifiers 1 to 63 bytes of text.  Plain C, no I/O: the access
 * role (access*.c), the LNS role (session.c), the unit tests and the fuzz
 * targets call these.
 *
 * Connect-Speed-Update (RFC 5515): the IETF AVPs 97 (Connect
 * Speed Update) and 98 (Connect Speed Update Enable), and the messages
 * CSUN (28) and CSURQ (29), are here too.
 */
#ifndef L2D_ACCESSLINE_H
#define L2D_ACCESSLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "avp.h"

#define AL_VENDOR_BBF		3561	/* "ADSL Forum", now the Broadband Forum */

enum al_type {				/* RFC 4679 section 3, RFC 5515 section 4 */
	AL_CIRCUIT_ID		= 0x01,	/* Agent-Circuit-Id */
	AL_REMOTE_ID		= 0x02,	/* Agent-Remote-Id */
	AL_ACT_RATE_UP		= 0x81,	/* Actual-Data-Rate-Upstream */
	AL_ACT_RATE_DOWN	= 0x82,
	AL_MIN_RATE_UP		= 0x83,	/* Minimum-Data-Rate-* */
	AL_MIN_RATE_DOWN	= 0x84,
	AL_ATT_RATE_UP		= 0x85,	/* Attainable-Data-Rate-* */
	AL_ATT_RATE_DOWN	= 0x86,
	AL_MAX_RATE_UP		= 0x87,	/* Maximum-Data-Rate-* */
	AL_MAX_RATE_DOWN	= 0x88,
	AL_MIN_RATE_UP_LP	= 0x89,	/* Minimum-Data-Rate-*-Low-Power */
	AL_MIN_RATE_DOWN_LP	= 0x8a,
	AL_MAX_DELAY_UP		= 0x8b,	/* Maximum-Interleaving-Delay-Upstream */
	AL_ACT_DELAY_UP		= 0x8c,	/* Actual-Interleaving-Delay-Upstream */
	AL_MAX_DELAY_DOWN	= 0x8d,
	AL_ACT_DELAY_DOWN	= 0x8e,
	AL_ENCAP		= 0x90,	/* Access-Loop-Encapsulation */
};

#define AL_N_RATES		10	/* 0x81 .. 0x8a */
#define AL_N_DELAYS		4	/* 0x8b .. 0x8e */
#define AL_ID_MAX		63	/* TR-101: "up to 63 bytes"; RFC 4679 section 3 */
#define AL_ENCAP_LEN		3

/* Index of an attribute in access_line.present: 0..16, -1 when not one. */
int al_index(uint8_t type);
/* Its type back; al_index(al_type_at(i)) == i for 0 <= i < AL_N_ATTRS. */
uint8_t al_type_at(int i);
#define AL_N_ATTRS		(2 + AL_N_RATES + AL_N_DELAYS + 1)

struct access_line {
	uint32_t present;		/* bit al_index(type) */
	uint8_t circuit_len, remote_len;
	char circuit_id[AL_ID_MAX + 1];	/* NUL-terminated as well */
	char remote_id[AL_ID_MAX + 1];
	uint64_t rate[AL_N_RATES];	/* bits per second, [type - 0x81] */
	uint32_t delay[AL_N_DELAYS];	/* milliseconds, [type - 0x8b] */
	uint8_t encap[AL_ENCAP_LEN];
};

static inline bool al_has(const struct access_line *al, uint8_t type)
{
	int i = al_index(type);

	return i >= 0 && (al->present & (1u << i));
}

/* A rate (type 0x81..0x8a) in b/s; 0 when not given. */
uint64_t al_rate(const struct access_line *al, uint8_t type);

/*
 * The value of a TR-101 Vendor-Specific PPPoE tag (RFC 2516 appendix A
 * tag 0x0105): the 4-byte vendor id, then sub-options.  Into @al (which is
 * cleared first).  Sub-options of other types are skipped.
 * Return: 0; -ENOENT when the vendor is not 3561; -EBADMSG with *@why set
 * when the list is malformed ("vendor id truncated", "sub-option header
 * truncated", "sub-option beyond the tag", "identifier empty or longer than
 * 63 bytes", "rate or delay not 4 bytes", "Access-Loop-Encapsulation not 3
 * bytes", "sub-option repeated"), and then @al carries nothing.
 */
int al_parse_tr101(struct access_line *al, const uint8_t *v, size_t len, const char **why);

/*
 * The value of one RADIUS Vendor-Specific attribute (RFC 2865 section
 * 5.26): the Vendor-Id, then RFC 4679 sub-attributes (rates in b/s), added
 * to what @al has (a later one of a type replaces an earlier one).
 * Return: as al_parse_tr101(), without "sub-option repeated".
 */
int al_parse_radius_vsa(struct access_line *al, const uint8_t *v, size_t len, const char **why);

/*
 * The RFC 5515 access-line AVPs of what @al has, in type order, M bit 0, never
 * hidden, into an ICRQ being built.  Return: the builder's error (0).
 */
int al_put_avps(const struct access_line *al, struct l2tp_builder *b);

/*
 * The RFC 5515 access-line AVPs of a control message (@buf, @len: a whole
 * message whose framing l2tp_msg_parse() accepted) into @al (cleared
 * first).  A Vendor-3561 AVP that is hidden, of a length its type does not
 * have, repeated, or of an unknown type is skipped and counted in
 * *@ignored.  Return: the number of AVPs taken.
 */
unsigned int al_from_msg(struct access_line *al, const uint8_t *buf, size_t len,
			 unsigned int *ignored);

/*
 * The RFC 4679 VSAs of what @al has, each one Vendor-Specific attribute
 * (26) of its own, rates in b/s (4 bytes: above 2^32 - 1, 2^32 - 1), into
 * RADIUS attributes at @out (@cap bytes).  Return: the bytes written; 0
 * when they do not fit (nothing is then written in part).
 */
size_t al_put_radius(const struct access_line *al, uint8_t *out, size_t cap);

/*
 * A text of @al for logs and the API ("circuit-id ... remote-id ...
 * act-up N ..."); identifiers quoted, bytes outside printable ASCII as
 * \xNN.  Return: @buf.
 */
char *al_format(const struct access_line *al, char *buf, size_t len);

/* RFC 5515: the IETF AVPs and messages of Connect-Speed-Update. */
#define L2TP_AVP_CONNECT_SPEED_UPDATE		97
#define L2TP_AVP_CONNECT_SPEED_UPDATE_ENABLE	98
#define L2TP_CSU_LEN				12	/* L2TPv2 value */

/* Connect Speed Update Enable in an ICRQ (no value, M bit 0). */
int al_put_csu_enable(struct l2tp_builder *b);
/* One Connect Speed Update AVP for the peer's session @peer_sid. */
int al_put_csu(struct l2tp_builder *b, uint16_t peer_sid, uint32_t tx_bps, uint32_t rx_bps);

struct al_csu {
	uint16_t sid;			/* the receiver's own session */
	uint32_t tx_bps, rx_bps;
};

/*
 * The Connect Speed Update AVPs of a CSUN or CSURQ (@buf, @len as for
 * al_from_msg()) into @out (at most @max).  Bad ones (hidden, not 12
 * bytes) are counted in *@ignored.  Return: how many were taken.
 */
unsigned int al_csu_from_msg(const uint8_t *buf, size_t len, struct al_csu *out,
			     unsigned int max, unsigned int *ignored);
/* Whether the message carries Connect Speed Update Enable (unhidden). */
bool al_csu_enabled(const uint8_t *buf, size_t len);

#endif
