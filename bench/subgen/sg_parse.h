/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The subscriber load generator's packet input (bench/subgen/): one
 * Ethernet frame of PPPoE discovery or session (RFC 2516) into a struct of
 * pointers into the frame, the PPP control packets it carries (LCP RFC
 * 1661, PAP RFC 1334, CHAP RFC 1994, IPCP RFC 1332) and ICMP echo over
 * IPv4.  Every length is checked against the bytes received; nothing is
 * copied, nothing allocated.  Shared by l2tpsel-subgen and l2tpsel-subresp,
 * and the whole of the fuzz target fuzz/fuzz_subgen.c.
 */
#ifndef SG_PARSE_H
#define SG_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SG_ETH_ALEN	6
#define SG_ETH_HLEN	14
#define SG_PPPOE_HLEN	6
#define SG_HDRS		(SG_ETH_HLEN + SG_PPPOE_HLEN)	/* up to the PPPoE payload */
#define SG_ETH_DISC	0x8863
#define SG_ETH_SESS	0x8864
#define SG_VER_TYPE	0x11

enum sg_code {
	SG_SESSION	= 0x00,
	SG_PADO		= 0x07,
	SG_PADI		= 0x09,
	SG_PADR		= 0x19,
	SG_PADS		= 0x65,
	SG_PADT		= 0xa7,
};

enum sg_tag {
	SG_TAG_END		= 0x0000,
	SG_TAG_SERVICE		= 0x0101,
	SG_TAG_AC_NAME		= 0x0102,
	SG_TAG_HOST_UNIQ	= 0x0103,
	SG_TAG_COOKIE		= 0x0104,
	SG_TAG_VENDOR		= 0x0105,
	SG_TAG_RELAY		= 0x0110,
	SG_TAG_SERVICE_ERR	= 0x0201,
	SG_TAG_AC_ERR		= 0x0202,
	SG_TAG_GENERIC_ERR	= 0x0203,
};

enum sg_proto {
	SG_PROTO_IP	= 0x0021,
	SG_PROTO_IPCP	= 0x8021,
	SG_PROTO_LCP	= 0xc021,
	SG_PROTO_PAP	= 0xc023,
	SG_PROTO_CHAP	= 0xc223,
};

/* LCP and IPCP codes (RFC 1661 §5, RFC 1332 §2) */
enum sg_cp_code {
	SG_CONFREQ = 1, SG_CONFACK, SG_CONFNAK, SG_CONFREJ, SG_TERMREQ, SG_TERMACK,
	SG_CODEREJ, SG_PROTREJ, SG_ECHOREQ, SG_ECHOREP, SG_DISCREQ,
};

/* PAP (RFC 1334 §2.2) and CHAP (RFC 1994 §4) codes */
enum { SG_PAP_REQ = 1, SG_PAP_ACK, SG_PAP_NAK };
enum { SG_CHAP_CHALLENGE = 1, SG_CHAP_RESPONSE, SG_CHAP_SUCCESS, SG_CHAP_FAILURE };
#define SG_CHAP_MD5	5

/* LCP options (RFC 1661 §6) and IPCP options (RFC 1332 §3, RFC 1877) */
enum { SG_LCP_MRU = 1, SG_LCP_ACCM = 2, SG_LCP_AUTH = 3, SG_LCP_MAGIC = 5, SG_LCP_PFC = 7,
	SG_LCP_ACFC = 8 };
enum { SG_IPCP_ADDR = 3 };

/* A value inside the frame; present says the tag or field was there. */
struct sg_bytes {
	const uint8_t *p;
	uint16_t len;
	bool present;
};

struct sg_frame {
	const uint8_t *dst, *src;	/* Ethernet addresses */
	uint16_t ethertype;		/* SG_ETH_DISC or SG_ETH_SESS */
	uint8_t code;			/* PPPoE CODE */
	uint16_t sid;			/* PPPoE SESSION_ID */
	uint16_t len;			/* PPPoE LENGTH: payload bytes, all in the frame */
	const uint8_t *payload;

	/* discovery: the first tag of each kind */
	struct sg_bytes service, ac_name, host_uniq, cookie, relay;
	uint16_t error_tag;		/* type of the first error tag, 0 if none */
	struct sg_bytes error;

	/* session: the PPP protocol and its information field */
	uint16_t proto;
	const uint8_t *info;
	uint16_t info_len;

	/* LCP, IPCP, PAP, CHAP: the header, and the data up to its Length */
	uint8_t cp_code, cp_id;
	const uint8_t *cp_data;
	uint16_t cp_dlen;
};

enum sg_err {
	SG_OK = 0,
	SG_E_SHORT,		/* shorter than the Ethernet and PPPoE headers */
	SG_E_ETHERTYPE,		/* neither discovery nor session */
	SG_E_VERTYPE,		/* PPPoE version and type not 1 and 1 */
	SG_E_LENGTH,		/* PPPoE LENGTH beyond the frame */
	SG_E_TAG,		/* a tag runs past LENGTH */
	SG_E_PPP,		/* no room for the PPP protocol field */
	SG_E_CP,		/* control packet header or Length out of bounds */
	SG_E_COUNT
};

/* Parses one frame of @len bytes from the Ethernet header on. */
int sg_parse(const uint8_t *buf, size_t len, struct sg_frame *f);
const char *sg_strerror(int err);

/* Configuration options of an LCP or IPCP packet, one after another. */
struct sg_opt_iter {
	const uint8_t *p, *end;
};

void sg_opt_init(struct sg_opt_iter *it, const uint8_t *p, size_t len);
/*
 * 1 and the next option (@val, @vlen: its value after type and length),
 * 0 at the end, -1 when an option's length is under 2 or runs past the end.
 */
int sg_opt_next(struct sg_opt_iter *it, uint8_t *type, const uint8_t **val, uint8_t *vlen);
/* The same check over all options: true if they are well formed. */
bool sg_opts_ok(const uint8_t *p, size_t len);

/* PAP Authenticate-Request: Peer-ID and Password; 0 or -1 */
int sg_pap_req_parse(const struct sg_frame *f, struct sg_bytes *user, struct sg_bytes *pass);
/* CHAP Challenge or Response: Value and Name; 0 or -1 */
int sg_chap_parse(const struct sg_frame *f, struct sg_bytes *value, struct sg_bytes *name);

struct sg_icmp {
	const uint8_t *ip;	/* the IPv4 header */
	uint16_t ip_len;	/* Total Length, within the PPP information field */
	uint16_t ihl;		/* header bytes */
	uint32_t saddr, daddr;	/* as in the packet (network order) */
	uint8_t type, code;
	uint16_t id, seq;
};

/* An ICMP message over IPv4 (not a fragment); 0 or -1 */
int sg_icmp_parse(const struct sg_frame *f, struct sg_icmp *ic);

static inline uint16_t sg_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t sg_get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline void sg_put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static inline void sg_put32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = (v >> 16) & 0xff;
	p[2] = (v >> 8) & 0xff;
	p[3] = v & 0xff;
}

#endif
