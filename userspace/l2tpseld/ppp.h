/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The LAC's own PPP, for one PPPoE subscriber until its call is bridged to
 * the LNS: LCP (RFC 1661) and the authentication phase, PAP (RFC 1334) or
 * CHAP with MD5 (RFC 1994), the authenticator's side.  It learns the
 * subscriber's name (user@domain: the login), keeps what the Proxy LCP and
 * Proxy Authentication AVPs of the ICCN carry (RFC 2661 section 4.4.5,
 * AVPs 26 to 33), and answers the login's outcome: PAP Authenticate-Nak or
 * CHAP Failure with a message, then Terminate.  It never decides whether a
 * password is right: the LNS (or, later, RADIUS) does.
 *
 * No I/O of its own: frames go out through ops->send(), the time and timers
 * come from an l2d_loop (a fake clock in the unit tests and the fuzz target).
 * A frame is what a PPP channel's /dev/ppp descriptor reads and writes: the
 * 2-byte protocol field, then the packet (no address/control bytes, no FCS).
 */
#ifndef L2D_PPP_H
#define L2D_PPP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "l2d_loop.h"
#include "lcp_opt.h"

#define PPP_PROTO_LCP		0xc021
#define PPP_PROTO_PAP		0xc023
#define PPP_PROTO_CHAP		0xc223

/* The Name of our CHAP Challenges (RFC 1994 section 4.1). */
#define PPP_CHAP_NAME		"l2tpsel"

enum ppp_code {				/* RFC 1661 section 5 */
	PPP_CONFREQ = 1, PPP_CONFACK, PPP_CONFNAK, PPP_CONFREJ,
	PPP_TERMREQ, PPP_TERMACK, PPP_CODEREJ, PPP_PROTREJ,
	PPP_ECHOREQ, PPP_ECHOREP, PPP_DISCREQ,
};

/* The value of the Proxy Authen Type AVP (RFC 2661 section 4.4.5). */
enum ppp_auth {
	PPP_AUTH_NONE = 0,		/* not negotiated yet */
	PPP_AUTH_CHAP = 2,
	PPP_AUTH_PAP = 3,
};

/* RFC 1661 section 4.2, the automaton's states. */
enum ppp_lcp_state {
	LCP_INITIAL, LCP_STARTING, LCP_CLOSED, LCP_STOPPED, LCP_CLOSING, LCP_STOPPING,
	LCP_REQ_SENT, LCP_ACK_RCVD, LCP_ACK_SENT, LCP_OPENED,
};

/* Where the subscriber is, as the access role sees it. */
enum ppp_phase {
	PPP_PHASE_LCP,			/* negotiating, LCP not opened yet */
	PPP_PHASE_AUTH,			/* LCP opened (once), waiting for PAP/CHAP */
	PPP_PHASE_LOGIN,		/* name and credentials known: ops->auth() was called */
	PPP_PHASE_QUIET,		/* l2d_ppp_quiet(): bridged, the LNS speaks */
	PPP_PHASE_TERMINATING,		/* Terminate-Request sent */
	PPP_PHASE_DOWN,			/* ops->down() was called; nothing more happens */
};

#define PPP_CAPTURE_MAX		256	/* options of one Configure-Request kept */
#define PPP_NAME_MAX		254
#define PPP_SECRET_MAX		254

struct ppp_capture {
	uint8_t data[PPP_CAPTURE_MAX];	/* the options, from the first one (AVPs 26-28) */
	uint16_t len;
	bool present;
};

struct l2d_ppp;

struct l2d_ppp_ops {
	/* Send one frame (protocol field first). */
	void (*send)(struct l2d_ppp *p, const uint8_t *frame, size_t len);
	/* Authentication phase done: p->name and p->response (p->auth) are known. */
	void (*auth)(struct l2d_ppp *p);
	/* LCP is finished (Terminate from either side, restart counter out, echo
	 * failure, protocol error): @why says which, for the log and the PADT.
	 * Called once, last: p may be freed in it (@why stays valid until it
	 * returns). */
	void (*down)(struct l2d_ppp *p, const char *why);
	/* @len random bytes (4: magic number, 16: CHAP challenge). */
	void (*random)(struct l2d_ppp *p, void *buf, size_t len);
};

struct l2d_ppp_conf {
	uint16_t mru;			/* ours to ask for; default 1492 (RFC 2516 section 7) */
	bool pap, chap;			/* what we may ask for; CHAP first when both; none: PAP */
	unsigned int restart_ms;	/* RFC 1661 section 4.6 Restart timer; default 3000 */
	unsigned int max_configure;	/* default 10 */
	unsigned int max_terminate;	/* default 2 */
	unsigned int max_failure;	/* Configure-Naks before Reject; default 5 */
	unsigned int auth_timeout_ms;	/* LCP opened to credentials; default 30000 */
	unsigned int echo_interval_ms;	/* LCP Echo-Request while not quiet; 0: none */
	unsigned int echo_failures;	/* unanswered echoes before down; default 3 */
};

#define PPP_WHY_MAX		255	/* a PAP Message is at most 255 bytes */

struct l2d_ppp {
	/* set by the caller before l2d_ppp_start() */
	struct l2d_loop *loop;
	const struct l2d_ppp_ops *ops;
	struct l2d_ppp_conf conf;
	void *arg;			/* the caller's */

	/* LCP */
	enum ppp_lcp_state state;
	enum ppp_phase phase;
	uint8_t id;			/* last identifier we used */
	uint8_t req_id;			/* identifier of our outstanding Configure-Request */
	unsigned int restart_count, failure_count;
	uint32_t magic, peer_magic;
	uint16_t peer_mru;		/* what the subscriber asked for (Acked); 1500 when it did not */
	enum ppp_auth auth;		/* the protocol we ask for (and got) */
	bool auth_rejected_pap, auth_rejected_chap;	/* subscriber Naked/Rejected them */
	struct ppp_capture init_rx, last_tx, last_rx;	/* AVPs 26, 27, 28 */
	unsigned int echo_missed;
	struct l2d_timer restart_timer, auth_timer, echo_timer;

	/* authentication: what the AVPs 29 to 33 carry */
	char name[PPP_NAME_MAX + 1];	/* NUL-terminated; bytes as received */
	uint8_t name_len;
	uint8_t challenge[16];		/* CHAP: the challenge we sent */
	uint8_t chap_id;		/* CHAP: its identifier; PAP: the first request's */
	uint8_t response[PPP_SECRET_MAX];	/* PAP password or CHAP response value */
	uint8_t response_len;
	bool answered;			/* our refusal (Nak or Failure) sent */

	/* counters for the agent's stats */
	uint64_t rx_bad, rx_unknown_proto;

	/* ppp.c's own */
	uint16_t tx_mru;		/* the MRU we ask for (a Nak may lower it) */
	bool tx_no_mru, tx_no_magic;	/* options the subscriber rejected */
	bool echo_off;			/* the subscriber Code-Rejected Echo-Request */
	unsigned int neg_rounds;	/* Configure-Naks/Rejects either way since Opened */
	uint8_t reply_id;		/* PAP: the request our Nak answers */
	char why[PPP_WHY_MAX + 1];	/* the pending Terminate's reason, the Nak's text */
};

/*
 * Default zeroed conf fields, clear the state, send the first Configure-Request.
 * *p: zeroed (calloc) or stopped (l2d_ppp_stop(), ops->down()) before.
 */
void l2d_ppp_start(struct l2d_ppp *p);
/*
 * One frame from the subscriber (@len bytes from the protocol field).  Short
 * or malformed packets are counted in rx_bad and dropped (RFC 1661 section
 * 5: a bad Length is silently discarded); an unknown protocol while LCP is
 * Opened gets a Protocol-Reject (section 5.7), except network-layer and NCP
 * packets, silently discarded in the Authentication phase (section 3.5): the
 * LNS will negotiate them.  A Terminate-Request is acknowledged, then
 * ops->down() at once.
 */
void l2d_ppp_input(struct l2d_ppp *p, const uint8_t *frame, size_t len);
/*
 * The login's outcome.  @ok: nothing is sent (the LNS completes the
 * authentication, by proxy or by renegotiating LCP), the caller then calls
 * l2d_ppp_quiet().  !@ok: PAP Authenticate-Nak or CHAP Failure carrying
 * @message (at most PPP_WHY_MAX bytes; "authentication failed" when NULL or
 * empty), then Terminate-Request; ops->down(@message) follows, after the
 * Terminate-Ack or max_terminate Restart timeouts.  Only in PPP_PHASE_LOGIN.
 */
void l2d_ppp_auth_result(struct l2d_ppp *p, bool ok, const char *message);
/* The call is bridged: stop every timer and send nothing more. */
void l2d_ppp_quiet(struct l2d_ppp *p);
/*
 * The subscriber's last Authenticate-Request (RFC 1334 section 2.2.1),
 * with the Identifier of its last retransmission, as a PPP frame from the
 * Protocol field on: for the LNS once the call is bridged, so that it
 * answers now rather than at the subscriber's next retransmission.
 * Return: its length (at most @cap), 0 when the authentication was not
 * PAP or has not been given.
 */
size_t l2d_ppp_pap_request(const struct l2d_ppp *p, uint8_t *buf, size_t cap);
/*
 * End it from our side: Terminate-Request with @why, ops->down(@why) follows.
 * Once quiet: ops->down(@why) at once, nothing sent.
 */
void l2d_ppp_close(struct l2d_ppp *p, const char *why);
/* Stop every timer without sending (the session is going away). */
void l2d_ppp_stop(struct l2d_ppp *p);

const char *ppp_lcp_state_name(enum ppp_lcp_state s);

/*
 * The MRU an LCP Configure-Request's options @o (@n bytes) ask for: the
 * value of the first MRU option of length 4 (RFC 1661 section 6.1), or 0
 * when there is none, it is below 64, or the options are malformed (a
 * length below 2 or past the end, section 6).  For the Proxy LCP AVPs
 * (RFC 2661 section 4.4.5) an LNS receives.
 */
uint16_t ppp_opts_mru(const uint8_t *o, size_t n);

#endif
