/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PPPoE discovery (RFC 2516 section 5), the access concentrator's side:
 * parse what a subscriber sends (PADI, PADR, PADT), build what the AC sends
 * (PADO, PADS, PADT), and the AC-Cookie that binds a PADR to the MAC address
 * that sent the PADI.  Plain C, no sockets: the agent's access role
 * (access_disc.c) does the I/O, the unit tests and the fuzz target call these
 * directly.
 *
 * Buffers are the Ethernet payload of an ETH_P_PPP_DISC (0x8863) frame:
 * the 6-byte PPPoE header (VER/TYPE, CODE, SESSION_ID, LENGTH) and the tags,
 * as an AF_PACKET SOCK_DGRAM socket gives and takes them.
 */
#ifndef L2D_PPPOE_H
#define L2D_PPPOE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PPPOE_HDR_LEN		6
#define PPPOE_VER_TYPE		0x11	/* version 1, type 1 (section 4) */
/* An Ethernet payload is at most 1500 bytes: no discovery packet is longer. */
#define PPPOE_MAX_PAYLOAD	1500

enum pppoe_code {			/* section 5 */
	PPPOE_CODE_SESSION	= 0x00,
	PPPOE_CODE_PADO		= 0x07,
	PPPOE_CODE_PADI		= 0x09,
	PPPOE_CODE_PADR		= 0x19,
	PPPOE_CODE_PADS		= 0x65,
	PPPOE_CODE_PADT		= 0xa7,
};

enum pppoe_tag_type {			/* appendix A; 0x0120: RFC 4638 */
	PPPOE_TAG_END_OF_LIST		= 0x0000,
	PPPOE_TAG_SERVICE_NAME		= 0x0101,
	PPPOE_TAG_AC_NAME		= 0x0102,
	PPPOE_TAG_HOST_UNIQ		= 0x0103,
	PPPOE_TAG_AC_COOKIE		= 0x0104,
	PPPOE_TAG_VENDOR_SPECIFIC	= 0x0105,
	PPPOE_TAG_RELAY_SESSION_ID	= 0x0110,
	PPPOE_TAG_PPP_MAX_PAYLOAD	= 0x0120,
	PPPOE_TAG_SERVICE_NAME_ERROR	= 0x0201,
	PPPOE_TAG_AC_SYSTEM_ERROR	= 0x0202,
	PPPOE_TAG_GENERIC_ERROR		= 0x0203,
};

/* The Broadband Forum's vendor id in a Vendor-Specific tag (TR-101 relay tags). */
#define PPPOE_VENDOR_BBF	3561
#define PPPOE_BBF_CIRCUIT_ID	0x01	/* Agent-Circuit-Id sub-option */
#define PPPOE_BBF_REMOTE_ID	0x02	/* Agent-Remote-Id sub-option */
#define PPPOE_BBF_RATE_UP	0x81	/* Actual-Data-Rate-Upstream, kb/s (TR-101, RFC 4679) */
#define PPPOE_BBF_RATE_DOWN	0x82	/* Actual-Data-Rate-Downstream, kb/s */

struct pppoe_tagval {
	const uint8_t *data;		/* inside the parsed buffer; NULL when absent */
	uint16_t len;
	bool present;
};

/*
 * The line's speeds for the ICCN (RFC 2661 section 4.4.5) from a PADR's
 * TR-101 line rates, in bits per second: (Tx) Connect Speed the
 * downstream rate (LAC to subscriber), Rx Connect Speed the upstream;
 * *@tx, *@rx untouched for a rate not given.
 */
struct pppoe_disc;
void pppoe_connect_speed(const struct pppoe_disc *p, uint32_t *tx, uint32_t *rx);

/*
 * A parsed discovery packet; the first tag of each kind counts.  Tags are
 * counted in n_tags up to an End-Of-List (which is not counted).
 */
struct pppoe_disc {
	uint8_t code;			/* enum pppoe_code */
	uint16_t sid;			/* SESSION_ID, host order */
	uint16_t length;		/* LENGTH field: the tags' bytes */
	struct pppoe_tagval service;	/* Service-Name (may be present and empty) */
	struct pppoe_tagval ac_name;
	struct pppoe_tagval host_uniq;
	struct pppoe_tagval cookie;
	struct pppoe_tagval relay_sid;	/* Relay-Session-Id */
	struct pppoe_tagval max_payload;
	struct pppoe_tagval circuit_id;	/* from a BBF Vendor-Specific tag */
	struct pppoe_tagval remote_id;	/* (a malformed BBF tag gives neither) */
	uint32_t rate_up, rate_down;	/* its line rates, kb/s; 0: not given */
	struct pppoe_tagval bbf;	/* the first well-formed BBF tag's whole value
					 * (accessline.h: al_parse_tr101()) */
	struct pppoe_tagval error;	/* the first of the three *-Error tags */
	uint16_t error_type;		/* its tag type, 0 when none */
	unsigned int n_tags;
};

/*
 * Parse @buf (@len bytes: header and tags).  Bytes after LENGTH (Ethernet
 * padding) are ignored; an End-Of-List tag ends the list.  PADO and PADS
 * parse too (the fuzz target and the tests read back what we build).
 * Return: 0, or -EBADMSG with *@why (if not NULL; untouched on success) a
 * short static reason: "shorter than the PPPoE header", "version/type not
 * 0x11", "LENGTH beyond the frame", "unknown code" (none of PADI, PADO,
 * PADR, PADS, PADT), "PADI with a session id", "PADR with a session id",
 * "PADT without a session id", "tag header truncated", "tag beyond LENGTH".
 * On error, code, sid and length are filled in when the header was read.
 * Values point into @buf, which must outlive @p.
 */
int pppoe_disc_parse(const uint8_t *buf, size_t len, struct pppoe_disc *p, const char **why);

/* Name of a code ("PADI", ... "code 0x42"), for logs; static or in @tmp (16 bytes). */
const char *pppoe_code_name(uint8_t code, char tmp[16]);

/*
 * Building a packet.  Tags that do not fit (in @cap, or in the 16-bit
 * LENGTH) set b->overflow and are not written, nor is anything after them;
 * pppoe_build_end() then returns 0.  Nothing is ever written at or beyond
 * buf + cap.
 */
struct pppoe_builder {
	uint8_t *buf;
	size_t cap, len;
	bool overflow;
};

void pppoe_build_start(struct pppoe_builder *b, uint8_t *buf, size_t cap, uint8_t code,
		       uint16_t sid);
void pppoe_build_tag(struct pppoe_builder *b, uint16_t type, const void *data, size_t len);
/* Fill in LENGTH. Return: the packet's length, 0 on overflow. */
size_t pppoe_build_end(struct pppoe_builder *b);

/*
 * AC-Cookie (appendix A: "used by the Access Concentrator to aid in
 * protecting against denial of service attacks"): 4 bytes of epoch number
 * (big-endian), then HMAC-MD5 over epoch (4, big-endian), the client's MAC
 * address (6) and the interface index (4, big-endian), keyed with that
 * epoch's secret.  The agent draws a new secret each epoch and accepts the
 * current and the previous one, so a cookie is good for one to two epochs
 * and a PADR from another MAC, another interface or with a forged cookie
 * creates no state.
 */
#define PPPOE_COOKIE_LEN	20
#define PPPOE_SECRET_LEN	16

struct pppoe_cookie_keys {
	uint32_t epoch;				/* current epoch number */
	uint8_t cur[PPPOE_SECRET_LEN];		/* its secret */
	uint8_t prev[PPPOE_SECRET_LEN];		/* epoch - 1's secret */
	bool has_prev;
};

void pppoe_cookie_make(const struct pppoe_cookie_keys *k, const uint8_t mac[6],
		       uint32_t ifindex, uint8_t out[PPPOE_COOKIE_LEN]);
/*
 * Constant-time compare of the MAC.  Return: true when @c (@len bytes, NULL
 * with 0 allowed) is valid now.
 */
bool pppoe_cookie_check(const struct pppoe_cookie_keys *k, const uint8_t mac[6],
			uint32_t ifindex, const uint8_t *c, size_t len);
/* New epoch: cur becomes prev, @fresh the new cur, epoch + 1. */
void pppoe_cookie_rotate(struct pppoe_cookie_keys *k, const uint8_t fresh[PPPOE_SECRET_LEN]);

/* What this AC offers (from "access pppoe IFNAME [service NAME...] [ac-name NAME]"). */
struct pppoe_offer {
	const char *ac_name;
	const char *const *services;	/* n_services names; 0: any service, offered as "" */
	unsigned int n_services;
};

/*
 * True when the Service-Name @sv asks for something @o offers: an empty
 * Service-Name means "any service" (section 5.1); otherwise it must equal one
 * of the services (any, when the offer lists none).  False when @sv is absent
 * (a PADI and a PADR MUST carry one, sections 5.1 and 5.3).
 */
bool pppoe_service_ok(const struct pppoe_offer *o, const struct pppoe_tagval *sv);

/*
 * The answers.  Each echoes the request's Host-Uniq and Relay-Session-Id
 * (sections 5.2, 5.4, appendix A) and returns the packet's length, or 0 when
 * it did not fit in @cap.
 *
 * PADO to @padi: AC-Name (empty when @o->ac_name is NULL), the Service-Name
 * asked for (or, for an empty or absent one, an empty Service-Name and then
 * every offered service), the AC-Cookie @cookie (PPPOE_COOKIE_LEN bytes; no
 * cookie tag when NULL), then Host-Uniq, Relay-Session-Id, and
 * PPP-Max-Payload echoed when asked (RFC 4638; only a 2-byte value).  It
 * does not check the service: see pppoe_service_ok().
 */
size_t pppoe_build_pado(const struct pppoe_offer *o, const struct pppoe_disc *padi,
			const uint8_t *cookie, uint8_t *out, size_t cap);
/*
 * PADS to @padr with session id @sid and the Service-Name accepted (the
 * PADR's, empty when it had none), and PPP-Max-Payload echoed when asked.
 * With @sid 0, a refusal (section 5.4): the same Service-Name, then a
 * Service-Name-Error tag (when @service_error) or an AC-System-Error tag
 * carrying @error_text (empty when NULL).  @service_error and @error_text
 * are ignored when @sid is not 0.
 */
size_t pppoe_build_pads(const struct pppoe_disc *padr, uint16_t sid, bool service_error,
			const char *error_text, uint8_t *out, size_t cap);
/*
 * PADT for session @sid, with Host-Uniq when @host_uniq is present (it may
 * be NULL), and a Generic-Error tag carrying @text when not NULL.  Return: 0
 * as well when @sid is 0 (section 5.5: a PADT names its session).
 */
size_t pppoe_build_padt(uint16_t sid, const struct pppoe_tagval *host_uniq, const char *text,
			uint8_t *out, size_t cap);

#endif
