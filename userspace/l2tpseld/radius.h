/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RADIUS for the access role (Documentation/radius.md): the codec of an
 * Access-Request and of its reply (RFC 2865, RFC 3579 section 3.2), and the
 * client that sends a subscriber's request to the configured servers in
 * turn without blocking the agent's loop.
 */
#ifndef L2D_RADIUS_H
#define L2D_RADIUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "accessline.h"

#define RAD_HDR_LEN	20	/* RFC 2865 section 3 */
#define RAD_MAX_LEN	4096
#define RAD_AUTH_LEN	16
#define RAD_PORT	1812
#define RAD_SECRET_MAX	128
#define RAD_MSG_MAX	255	/* what a PAP Message or CHAP Failure can carry */
#define RAD_CHAP_RESPONSE_LEN 16	/* CHAP-Password's value after the Ident: MD5 (section 5.3) */

enum rad_code {			/* RFC 2865 section 3 */
	RAD_ACCESS_REQUEST = 1,
	RAD_ACCESS_ACCEPT = 2,
	RAD_ACCESS_REJECT = 3,
	RAD_ACCOUNTING_REQUEST = 4,	/* RFC 2866 section 3 */
	RAD_ACCOUNTING_RESPONSE = 5,
	RAD_ACCESS_CHALLENGE = 11,
	RAD_DISCONNECT_REQUEST = 40,	/* RFC 5176 section 3 */
	RAD_DISCONNECT_ACK = 41,
	RAD_DISCONNECT_NAK = 42,
	RAD_COA_REQUEST = 43,
	RAD_COA_ACK = 44,
	RAD_COA_NAK = 45,
};

enum rad_attr {			/* RFC 2865 section 5, RFC 2869, RFC 3579 */
	RAD_USER_NAME = 1,
	RAD_USER_PASSWORD = 2,
	RAD_CHAP_PASSWORD = 3,
	RAD_NAS_IP_ADDRESS = 4,
	RAD_SERVICE_TYPE = 6,
	RAD_FRAMED_PROTOCOL = 7,
	RAD_REPLY_MESSAGE = 18,
	RAD_VENDOR_SPECIFIC = 26,
	RAD_CALLED_STATION_ID = 30,
	RAD_CALLING_STATION_ID = 31,
	RAD_NAS_IDENTIFIER = 32,
	RAD_PROXY_STATE = 33,
	RAD_ACCT_STATUS_TYPE = 40,	/* RFC 2866 section 5 */
	RAD_ACCT_DELAY_TIME = 41,
	RAD_ACCT_SESSION_ID = 44,
	RAD_ACCT_SESSION_TIME = 46,
	RAD_ACCT_TERMINATE_CAUSE = 49,
	RAD_EVENT_TIMESTAMP = 55,	/* RFC 2869 section 5.3 */
	RAD_CHAP_CHALLENGE = 60,
	RAD_ACCT_INTERIM_INTERVAL = 85,	/* RFC 2869 section 5.16 */
	RAD_NAS_PORT_TYPE = 61,
	RAD_CONNECT_INFO = 77,		/* RFC 2869 section 5.11 */
	RAD_TUNNEL_TYPE = 64,		/* RFC 2868 section 3, RFC 2867 */
	RAD_TUNNEL_MEDIUM_TYPE = 65,
	RAD_TUNNEL_CLIENT_ENDPOINT = 66,
	RAD_TUNNEL_SERVER_ENDPOINT = 67,
	RAD_ACCT_TUNNEL_CONNECTION = 68,
	RAD_TUNNEL_PASSWORD = 69,	/* RFC 2868 section 3.5 */
	RAD_TUNNEL_PRIVATE_GROUP_ID = 81,
	RAD_TUNNEL_ASSIGNMENT_ID = 82,
	RAD_TUNNEL_PREFERENCE = 83,
	RAD_TUNNEL_CLIENT_AUTH_ID = 90,
	RAD_TUNNEL_SERVER_AUTH_ID = 91,
	RAD_MESSAGE_AUTHENTICATOR = 80,
	RAD_NAS_PORT_ID = 87,
	RAD_ERROR_CAUSE = 101,		/* RFC 5176 section 3.6 */
};

#define RAD_SERVICE_FRAMED	2	/* Service-Type, RFC 2865 section 5.6 */
#define RAD_FRAMED_PPP		1	/* Framed-Protocol, section 5.7 */
#define RAD_PORT_TYPE_PPPOE	32	/* NAS-Port-Type PPPoEoE (IANA radius-types) */
#define RAD_PORT_TYPE_VIRTUAL	5	/* NAS-Port-Type Virtual (RFC 2865 section 5.41) */
#define RAD_ACCT_START		1	/* Acct-Status-Type, RFC 2866 section 5.1 */
#define RAD_ACCT_STOP		2
#define RAD_ACCT_INTERIM	3	/* Interim-Update */
#define RAD_INTERIM_MIN		60	/* RFC 2869 section 5.16: not below 60 s */
#define RAD_ACCT_TUNNEL_START	9	/* RFC 2867 section 2.1 */
#define RAD_ACCT_TUNNEL_STOP	10
#define RAD_ACCT_TUNNEL_REJECT	11
#define RAD_ACCT_TUNNEL_LINK_START 12
#define RAD_ACCT_TUNNEL_LINK_STOP 13
#define RAD_ACCT_TUNNEL_LINK_REJECT 14
#define RAD_TUNNEL_L2TP		3	/* Tunnel-Type, RFC 2868 section 3.1 */
#define RAD_MEDIUM_IPV4		1	/* Tunnel-Medium-Type, section 3.2 */
#define RAD_MEDIUM_IPV6		2
#define RAD_VENDOR_JUNIPER	2636
#define RAD_JUNIPER_TUNNEL_GROUP 64	/* the profile's name, as on Juniper's LAC */

/* Where a reply names the tunnel profile: an attribute, or a vendor's one. */
struct rad_attr_ref {
	uint32_t vendor;		/* 0: a plain attribute */
	uint8_t type;
};

/* A request being built. */
struct rad_pkt {
	uint8_t buf[RAD_MAX_LEN];
	size_t len;
	bool full;			/* an attribute did not fit: do not send */
};

void rad_pkt_init(struct rad_pkt *p, uint8_t code, uint8_t id,
		  const uint8_t auth[RAD_AUTH_LEN]);
void rad_put(struct rad_pkt *p, uint8_t type, const void *val, size_t len);
void rad_put_str(struct rad_pkt *p, uint8_t type, const char *s);
void rad_put_u32(struct rad_pkt *p, uint8_t type, uint32_t v);
/* User-Password hidden with the secret and the Request Authenticator (RFC 2865 section 5.2). */
void rad_put_password(struct rad_pkt *p, const uint8_t *pw, size_t len,
		      const uint8_t *secret, size_t slen);
/* Message-Authenticator (RFC 3579 section 3.2) last, and the Length. Return: 0, or -1 when full. */
int rad_finish(struct rad_pkt *p, const uint8_t *secret, size_t slen);
/* An Accounting-Request's Length and Request Authenticator (RFC 2866 section 3). */
void rad_finish_acct(struct rad_pkt *p, const uint8_t *secret, size_t slen);
/* RFC 2868 section 3: tag @tag (1..0x1f) before a 3-byte integer, or before a string. */
void rad_put_tagged_u32(struct rad_pkt *p, uint8_t type, uint8_t tag, uint32_t v);
void rad_put_tagged_str(struct rad_pkt *p, uint8_t type, uint8_t tag, const char *s);

/* ---- Dynamic Authorization (RFC 5176): the agent as the server (das.c) ---- */

#define RAD_DAS_PORT		3799	/* RFC 5176 section 2.2 */
/* Error-Cause values, RFC 5176 section 3.6 */
#define RAD_EC_UNSUPPORTED_ATTRIBUTE	401
#define RAD_EC_MISSING_ATTRIBUTE	402
#define RAD_EC_NAS_MISMATCH		403
#define RAD_EC_INVALID_REQUEST		404
#define RAD_EC_UNSUPPORTED_EXTENSION	406
#define RAD_EC_INVALID_VALUE		407
#define RAD_EC_SESSION_NOT_FOUND	503
#define RAD_EC_RESOURCES_UNAVAILABLE	506

/* What a Disconnect-Request (or a CoA-Request, refused) names. */
struct rad_dm {
	uint8_t code, id;
	uint8_t auth[RAD_AUTH_LEN];	/* its Request Authenticator: the answer's input */
	bool ma;			/* it had a Message-Authenticator: the answer has one */
	/* session identification (section 3): each one given must match */
	char user[254], acct_id[254], calling[254], port_id[254];
	unsigned int n_ids;
	/* NAS identification: must be this agent when given */
	char nas_id[254];
	bool has_nas_ip;
	uint8_t nas_ip[4];
	uint32_t term_cause;		/* Acct-Terminate-Cause asked for; 0: none */
	bool has_ts;
	uint32_t ts;			/* Event-Timestamp: s since 1970 UTC (RFC 2869 section 5.3) */
	uint8_t proxy[RAD_MAX_LEN];	/* the Proxy-State attributes, whole, to copy back */
	size_t proxy_len;
	uint32_t cause;			/* an Error-Cause found in parsing; 0: none */
	/* CoA-Request: the line's new data (RFC 4679 VSAs, S-AL-1); a CoA
	 * without any is refused (Unsupported-Extension) */
	struct access_line al;
};

/*
 * Check and decode a request of a Dynamic Authorization Client: its Request
 * Authenticator (RFC 5176 section 2.3: as RFC 2866's), its
 * Message-Authenticator when present (section 3.5: over the packet with a
 * zero Request Authenticator), every attribute's length.  Return: -1 with
 * *@why when it must be dropped silently; 0 when it is answered, with
 * m->cause set (the NAK's Error-Cause) when what it asks cannot be done.
 */
int rad_dm_parse(const uint8_t *buf, size_t len, const uint8_t *secret, size_t slen,
		 struct rad_dm *m, const char **why);
/*
 * The answer to @m into @out (RAD_MAX_LEN bytes): ACK, or NAK with @cause,
 * of the request's kind, the Proxy-States copied back, a
 * Message-Authenticator when the request had one, the Response
 * Authenticator.  Return: its length.
 */
size_t rad_dm_answer(const struct rad_dm *m, bool ack, uint32_t cause, const uint8_t *secret,
		     size_t slen, uint8_t *out);

/*
 * What the server of dynamic authorization does before it acts on a
 * request (das.c; S-SEC-8), in this order: authenticate it
 * (rad_dm_parse()); answer a request seen before with the same answer
 * (RFC 5176 section 2.3), acting on nothing; drop one whose Event-Timestamp
 * is further than the window from the agent's clock (RFC 5176's replay
 * protection: silently); refuse one without an Event-Timestamp when one is
 * required (Error-Cause 402).  What was answered is remembered, by client,
 * Identifier and Request Authenticator, until its Event-Timestamp leaves the
 * window (and at least the window's length), so that no replay acts twice:
 * later it is stale.  When RAD_DAS_SEEN_MAX requests are remembered and
 * current, a new one is refused with Error-Cause 506 rather than forget one.
 */
#define RAD_DAS_WINDOW_MS	300000	/* radius-das-event-window: 300 s */
#define RAD_DAS_SEEN_MAX	16384

struct rad_das_seen {
	uint64_t until_ms;		/* wall clock; 0: a free slot */
	uint8_t client, id;
	uint16_t len;
	uint8_t auth[RAD_AUTH_LEN];
	uint8_t *answer;		/* the answer sent, @len bytes */
};

struct rad_das_cache {
	struct rad_das_seen *e;
	unsigned int cap;
};

enum rad_das_verdict {
	RAD_DAS_BAD,			/* rad_dm_parse() refused it: drop, *why */
	RAD_DAS_STALE,			/* its Event-Timestamp is outside the window: drop, *why */
	RAD_DAS_RESEND,			/* seen before: send *answer again, act on nothing */
	RAD_DAS_NEW,			/* act on it (a NAK when m->cause; *why then may say more),
					 * then rad_das_remember() the answer */
};

/* Return: 0, or -1 when out of memory. */
int rad_das_cache_init(struct rad_das_cache *c, unsigned int cap);
void rad_das_cache_free(struct rad_das_cache *c);
/*
 * @buf from client number @client (0..255) with its @secret; @now_ms the
 * wall clock (ms since 1970), @window_ms radius-das-event-window,
 * @require_ts radius-das-require-event-timestamp.
 */
enum rad_das_verdict rad_das_check(struct rad_das_cache *c, unsigned int client, const uint8_t *buf,
				   size_t len, const uint8_t *secret, size_t slen,
				   uint64_t window_ms, bool require_ts, uint64_t now_ms,
				   struct rad_dm *m, const uint8_t **answer, size_t *answer_len,
				   const char **why);
/* After RAD_DAS_NEW: the answer @answer (@len bytes) sent to @m. */
void rad_das_remember(struct rad_das_cache *c, unsigned int client, const struct rad_dm *m,
		      uint64_t window_ms, uint64_t now_ms, const uint8_t *answer, size_t len);

/*
 * RFC 2868's tunnel attributes of one tag (0: untagged, 1..0x1f) in an
 * Access-Accept.  @seen has bit (1 << kind) for each attribute given
 * (enum rad_tun_kind); a second one of a kind in a tag refuses the reply.
 */
#define RAD_TAGS		32
#define RAD_TEXT_MAX		64	/* endpoint and id texts: 1..63 bytes */
#define RAD_TUNNEL_PW_MAX	63	/* the tunnel secret's bound (the kernel's) */

enum rad_tun_kind {
	RAD_TK_TYPE, RAD_TK_MEDIUM, RAD_TK_SERVER, RAD_TK_CLIENT, RAD_TK_PASSWORD,
	RAD_TK_ASSIGNMENT, RAD_TK_PREFERENCE, RAD_TK_CLIENT_AUTH, RAD_TK_SERVER_AUTH,
};

struct rad_tunnel {
	uint32_t seen;
	uint32_t type, medium, preference;
	char server[RAD_TEXT_MAX], client[RAD_TEXT_MAX];
	char assignment[RAD_TEXT_MAX], client_auth[RAD_TEXT_MAX], server_auth[RAD_TEXT_MAX];
	char password[RAD_TUNNEL_PW_MAX + 1];	/* decrypted (section 3.5) */
};

/* What a reply says. */
struct rad_reply {
	uint8_t code, id;
	char message[RAD_MSG_MAX + 1];	/* the Reply-Messages, joined by a space */
	char profile[64];		/* the profile attribute, "" when absent */
	unsigned int ignored;		/* attributes of no meaning here */
	uint32_t interim;		/* Acct-Interim-Interval, s (Access-Accept); 0: none */
	uint32_t tags;			/* bit per tag with a tunnel attribute (Access-Accept) */
	struct rad_tunnel tun[RAD_TAGS];
};

/*
 * A login's own tunnel set from a reply's tunnel attributes (S-RAD-2): one
 * entry per tag with Tunnel-Type L2TP and a Tunnel-Server-Endpoint that is
 * an IPv4 or IPv6 address, in tag order.  Levels: the distinct
 * Tunnel-Preference values in increasing order are levels 0, 1, ... 7, any
 * further ones level 7; a tag without one counts as preference 0.
 */
#define RAD_SET_MAX		31	/* the kernel's bound on TUNNELS */

struct rad_set_entry {
	uint8_t tag;
	uint8_t level;
	char name[32];			/* Tunnel-Assignment-Id when it fits and is unique, else "tagN" */
	char remote[RAD_TEXT_MAX];	/* Tunnel-Server-Endpoint */
	char local[RAD_TEXT_MAX];	/* Tunnel-Client-Endpoint, "" when none */
	char secret[RAD_TUNNEL_PW_MAX + 1];
	char client_auth[RAD_TEXT_MAX], server_auth[RAD_TEXT_MAX];
};

/*
 * Return: the number of entries in @out (at most RAD_SET_MAX); *@skipped
 * counts tags that had tunnel attributes but make no entry, *@why says why
 * for the first of them.
 */
unsigned int rad_tunnel_set(const struct rad_reply *r, struct rad_set_entry *out,
			    unsigned int *skipped, const char **why);

/*
 * Check and decode the reply @buf to the request whose Request
 * Authenticator was @req_auth: the Response Authenticator (RFC 2865 section
 * 3), every attribute's length, the Message-Authenticator (RFC 3579 section
 * 3.2): required in an Access-Accept, -Reject and -Challenge (S-SEC-8,
 * against CVE-2024-3596), checked in an Accounting-Response when present.
 * Return: 0, or -1 with *@why saying what was wrong.
 */
int rad_reply_parse(const uint8_t *buf, size_t len, const uint8_t req_auth[RAD_AUTH_LEN],
		    const uint8_t *secret, size_t slen, const struct rad_attr_ref *prof,
		    struct rad_reply *r, const char **why);

/* ---- the client (radius.c, on the agent's loop) ---- */

struct l2d;
struct rad_call;

enum rad_result {
	RAD_RES_ACCEPT,
	RAD_RES_REJECT,
	RAD_RES_DOWN,			/* no server answered */
};

/* What the request carries; l2d_radius_auth() returns NULL when it cannot be sent. */
struct rad_auth {
	const char *user;
	bool chap;			/* CHAP-Password and CHAP-Challenge, else User-Password */
	const uint8_t *secret;		/* PAP: the password; CHAP: the response */
	size_t secret_len;
	uint8_t chap_id;
	const uint8_t *challenge;
	size_t challenge_len;
	const char *calling;		/* Calling-Station-Id */
	const char *port_id;		/* NAS-Port-Id: the access interface */
	const char *called;		/* Called-Station-Id: the Service-Name */
	uint32_t port_type;		/* NAS-Port-Type; 0: PPPoE (a switched call: Virtual) */
};

typedef void (*rad_done_fn)(void *arg, enum rad_result res, const struct rad_reply *r);

int l2d_radius_open(struct l2d *d, char *err, size_t errlen);
void l2d_radius_close(struct l2d *d);
bool l2d_radius_on(const struct l2d *d);
/* Start @q; @fn is called once, from the loop, unless l2d_radius_cancel() comes first. */
struct rad_call *l2d_radius_auth(struct l2d *d, const struct rad_auth *q, rad_done_fn fn,
				 void *arg);
void l2d_radius_cancel(struct l2d *d, struct rad_call *c);
/*
 * An accounting record of the attributes @attrs (@len bytes, built with a
 * rad_pkt): queued, sent to the accounting servers in turn and kept while
 * none answers.  Return: 0, or -ENOSPC when RAD_ACCT_MAX records wait.
 */
int l2d_radius_acct(struct l2d *d, const uint8_t *attrs, size_t len);
/* Accounting records not yet answered. */
unsigned int l2d_radius_pending(const struct l2d *d);
int l2d_radius_stats(struct l2d *d, char *buf, size_t len);
/* One RADIUS server's counters (S-OPS-3): authentication's, then accounting's. */
struct l2d_radius_srv_stats {
	unsigned int index;		/* its radius-server line, from 1 */
	const char *kind;		/* "auth" or "acct" */
	char address[64];		/* ADDRESS:PORT */
	uint64_t requests;		/* requests begun there (new Identifier), retries not */
	uint64_t timeouts;		/* requests it left unanswered radius-tries times */
	uint64_t bad;			/* replies dropped: failed rad_reply_parse() */
	bool dead;			/* skipped for radius-dead-time now */
};
/* Return: false past the last server (@i counts auth's then acct's), or without RADIUS. */
bool l2d_radius_srv_stats(struct l2d *d, unsigned int i, struct l2d_radius_srv_stats *out);

/* das.c: Disconnect-Requests (RFC 5176) on radius-das */
int l2d_das_open(struct l2d *d, char *err, size_t errlen);
void l2d_das_close(struct l2d *d);
int l2d_das_stats(struct l2d *d, char *buf, size_t len);
/* access.c: end every call @m names; Acct-Terminate-Cause @cause (0: Admin-Reset). Return: how many. */
int l2d_access_disconnect(struct l2d *d, const struct rad_dm *m, uint32_t cause);
/* The LNS role's accounting (lnsacct.c): on with radius-accounting and a server. */
void l2d_lns_acct_open(struct l2d *d);
/* A CoA-Request's new line rates (S-AL-1): the calls changed (access_sub.c). */
int l2d_access_coa(struct l2d *d, const struct rad_dm *m);

#endif
