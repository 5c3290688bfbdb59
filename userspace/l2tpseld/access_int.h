/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of l2tpseld's access role share, and nothing outside
 * them (access.h is the role's face to the rest of the agent):
 *
 *   access.c         start and stop, the hooks tables, the stats;
 *   access_disc.c    PPPoE discovery (RFC 2516 section 5): interfaces,
 *                    PADI/PADO/PADR/PADS/PADT, PADO delay, budgets;
 *   access_sub.c     the subscriber: from a PADR, its kernel PPPoE session
 *                    and channel, LCP and authentication (ppp.c), login,
 *                    its end; RFC 5176 requests;
 *   access_snap.c    the subscribers across an upgrade (S-OPS-2);
 *   access_call.c    the subscriber's L2TP call: ICCN AVPs, the bridge,
 *                    the PAP hand-over, the call's end;
 *   access_acct.c    RADIUS accounting (RFC 2866, RFC 2867);
 *   access_switch.c  tunnel switching (S-LTS-1, S-LTS-2): LNS-role calls
 *                    as subscribers of the pseudo-interface "l2tp".
 *
 * Calls go one way: access.c above all; access_call.c over access_switch.c
 * over access_sub.c over access_disc.c; access_snap.c over access_sub.c;
 * access_acct.c under them (scripts/l2d-structure.py finds no circle).
 * What discovery hands up it hands through a->dops, what a channel's
 * worker reports through the opener's own callback.
 */
#ifndef L2D_ACCESS_INT_H
#define L2D_ACCESS_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "access.h"
#include "accessline.h"
#include "discrate.h"
#include "l2d.h"
#include "lac.h"
#include "offload.h"
#include "ppp.h"
#include "pppoe.h"
#include "session.h"
#include "sock.h"
#include "tunnel.h"

#define ACC_EPOCH_MS	60000	/* AC-Cookie secret lifetime: a cookie lasts 1-2 of these */
/* PADOs waiting out a pado-delay at once, all interfaces; more are not sent */
#define ACC_PADO_WAIT_MAX 1024

#define ACCT_USER_REQUEST	1	/* Acct-Terminate-Cause, RFC 2866 section 5.10 */
#define ACCT_LOST_CARRIER	2
#define ACCT_LOST_SERVICE	3
#define ACCT_ADMIN_RESET	6
#define ACCT_ADMIN_REBOOT	7
#define ACCT_NAS_ERROR		9
#define ACCT_NAS_REQUEST	10
#define ACCT_SERVICE_UNAVAILABLE 15
#define ACCT_HOST_REQUEST	18

struct acc;
struct acc_if;

/*
 * What discovery hands up to the subscribers (access.c sets the table):
 * access_disc.c calls no subscriber function of its own.
 */
struct acc_disc_ops {
	/* A PADR with a valid AC-Cookie, in its budgets and limits, for a service offered. */
	void (*padr)(struct acc_if *ifc, const uint8_t *mac, const struct pppoe_disc *p);
	/* A PADT (RFC 2516 section 5.5) for the session @sid of @mac. */
	void (*padt)(struct acc_if *ifc, const uint8_t *mac, uint16_t sid);
};

struct acc_stats {
	uint64_t padi, pado, padr, pads, pads_refused, padt_rx, padt_tx;
	/* S-OPS-1: PADOs sent after a delay, withheld by a level "off" or the
	 * drain, dropped (a PADO already waiting for that MAC, or too many) */
	uint64_t pado_delayed, pado_withheld, pado_drained, pado_dropped;
	uint64_t bad, cookie_bad, rate_dropped, no_service;
	uint64_t logins, up, refused, gone, radius_fallback;
};

struct acc_if {
	struct acc *a;
	const struct l2d_access_conf *conf;
	int ifindex;
	int fd;				/* AF_PACKET, ETH_P_PPP_DISC */
	struct l2d_fd fdw;
	const char *services[L2D_MAX_SERVICES];
	struct pppoe_offer offer;
	uint64_t sid_used[65536 / 64];	/* the session IDs of live subscribers */
	struct acc_stats st;		/* its share of a->st (S-OPS-3) */
	unsigned int n_subs;
};

struct sub {
	struct acc *a;
	struct acc_if *ifc;
	struct sub *next;		/* a->subs, or a->dead */
	uint8_t mac[6];
	uint16_t sid;
	uint8_t host_uniq[64];
	uint16_t host_uniq_len;
	bool has_host_uniq;
	int px_fd;			/* the kernel PPPoE session */
	int chan_fd;			/* its channel on /dev/ppp */
	struct l2d_job *open_job;	/* PPPIOCGCHAN of px_fd in flight (offload.h) */
	uint8_t *pads;			/* the PADS to send once the channel is open */
	size_t pads_len;
	struct l2d_fd chanw;
	struct l2d_ppp ppp;
	struct rad_call *rad;		/* Access-Request in flight (radclient.c) */
	uint32_t login_id;		/* login in flight, 0 when none */
	bool in_login;
	struct l2d_session *s;		/* the established call */
	char service[L2D_NAME_MAX];
	char calling[64], called[64];
	uint32_t tx_bps, rx_bps;	/* the PADR's TR-101 line rates; 0: not given */
	struct access_line al;		/* the PADR's TR-101 tag (S-AL-1), CoA's rates */
	char fail[256];			/* the refusal to tell, "" = none */
	/* RADIUS accounting of the call (RFC 2866, RFC 2867): Start sent when up */
	bool acct_started;
	uint32_t acct_cause;		/* Acct-Terminate-Cause of the Stop */
	uint64_t acct_start_ms;
	char acct_id[20];		/* Acct-Session-Id */
	uint8_t acct_tunnel[512];	/* the tunnel's attributes, for Start and Stop */
	size_t acct_tunnel_len;
	uint32_t interim_s;		/* RADIUS's Acct-Interim-Interval; 0: the configured one */
	bool link_started;		/* RFC 2867 Tunnel-Link-Start sent */
	char link_id[20];		/* its Acct-Session-Id */
	struct l2d_timer interim_timer;	/* the next Interim-Update */
	struct l2d_timer act_timer;	/* deferred refusal */
	/* the PAP request handed to the LNS once the ICCN (Ns iccn_ns) left */
	struct l2d_timer pap_timer;
	uint16_t iccn_ns;
	uint8_t pap_tries;
	bool dead;
	/*
	 * Tunnel switching (S-LTS-1, "lns-switch"): the subscriber is a call
	 * that came to the LNS role, @in; px_fd is (a second descriptor of)
	 * its PPPoL2TP socket, chan_fd that channel on /dev/ppp.  With the
	 * LAC's proxy authentication the name is known and the proxied LCP
	 * and authentication go on as they came (proxied); else ppp runs here.
	 */
	bool lts, proxied;
	struct l2d_session *in;
	bool in_link_started;		/* RFC 2867 Tunnel-Link-Start of @in's leg sent */
	char in_link_id[20];
	uint8_t in_tunnel[512];		/* @in's tunnel attributes, for its records */
	size_t in_tunnel_len;
};

/*
 * A PADO waiting out its interface's pado-delay (S-OPS-1) on the loop's
 * timer; its AC-Cookie was made at the PADI, so a PADR for it is served
 * whenever it comes (within the cookie's lifetime).
 */
struct pado_wait {
	struct acc_if *ifc;
	struct pado_wait *next, **pprev;	/* a->waits */
	struct l2d_timer timer;
	uint8_t mac[6];
	size_t len;
	uint8_t frame[PPPOE_MAX_PAYLOAD];
};

struct acc {
	struct l2d *d;
	const struct acc_disc_ops *dops;	/* discovery's calls up (access_sub.c) */
	struct acc_if ifs[L2D_MAX_ACCESS];
	unsigned int n_ifs;
	struct sub *subs, *dead;
	unsigned int n_subs;
	struct l2d_timer reap_timer, epoch_timer;
	uint32_t acct_base, acct_seq;	/* Acct-Session-Id: the agent's start, a count */
	struct pppoe_cookie_keys keys;
	struct disc_rate rate;		/* discovery budgets, S-SEC-6 */
	struct pado_wait *waits;	/* PADOs waiting out a pado-delay */
	unsigned int n_waits;
	struct acc_stats st;
	/* tunnel switching (S-LTS-1): its calls' pseudo-interface "l2tp" */
	struct acc_if lts_if;
	struct l2d_access_conf lts_conf;
	/* switched calls taken, bridged to the next LNS; attempts refused as loops */
	uint64_t lts_calls, lts_up, lts_loops;
};

/* A counter of the interface @ifc and of the whole access role. */
#define ACC_INC(ifc, field) do {	\
	struct acc_if *ifc_ = (ifc);	\
	ifc_->st.field++;		\
	ifc_->a->st.field++;		\
} while (0)

/* access.c */
extern const struct l2d_access_ops acc_ops;
/*
 * The role's state without its interfaces (l2d_access_open() adds them):
 * cookie keys, discovery budgets, the channel workers, the switch's
 * pseudo-interface.  Return: NULL (@err says why) or a new one.
 */
struct acc *acc_new(struct l2d *d, char *err, size_t errlen);

/* access_disc.c */
/* @ifc of @a for the line @conf, no socket yet (fd -1). */
void acc_if_init(struct acc_if *ifc, struct acc *a, const struct l2d_access_conf *conf);
/* Its packet socket on the loop. Return: 0, or -errno with @err. */
int acc_if_open(struct acc_if *ifc, char *err, size_t errlen);
/* The sockets of the open interfaces closed. */
void acc_ifs_close(struct acc *a);
/* The MRU asked of the subscribers of @ifc (S-MTU-1, mtu.h). */
uint16_t acc_mru(const struct acc_if *ifc);
void acc_mac_str(const uint8_t *m, char *out, size_t len);
void acc_disc_send(struct acc_if *ifc, const uint8_t *mac, const uint8_t *buf, size_t len);
/* The PADR @p from @mac refused: a PADS with session ID 0 and @text (@service: Service-Name-Error). */
void acc_refuse_padr(struct acc_if *ifc, const uint8_t *mac, const struct pppoe_disc *p,
		     bool service, const char *text);
/* A free session ID of @ifc, now taken; 0 when none is left. */
uint16_t acc_sid_alloc(struct acc_if *ifc);
void acc_sid_free(struct acc_if *ifc, uint16_t sid);
void acc_pado_wait_free(struct acc *a, struct pado_wait *w);
/* A discovery frame @buf from @mac on @ifc (RFC 2516 section 5). */
void acc_disc_input(struct acc_if *ifc, const uint8_t *mac, const uint8_t *buf, size_t len);
/* The AC-Cookie keys rotate (every ACC_EPOCH_MS). */
void acc_epoch_fire(struct l2d_timer *t);

/* access_sub.c */
/* @sb, zeroed, as a subscriber of @ifc: its timers, its PPP's hooks (no fd touched). */
void acc_sub_init(struct sub *sb, struct acc_if *ifc);
/* @sb joins the list of live subscribers (and its interface's count). */
void acc_sub_link(struct sub *sb);
/* The subscriber's name is known (PPP, or the LAC's proxy): RADIUS or login. */
void acc_sub_auth(struct l2d_ppp *p);
/* /dev/ppp attached to the channel @chan and read by the loop.  Return: 0, or -errno. */
int acc_sub_attach(struct sub *sb, int chan);
/* The loop reads @sb's channel (chan_fd).  Return: l2d_fd_add()'s. */
int acc_sub_watch(struct sub *sb);
/*
 * A worker's answer for @sb's channel: its index @chan, or -errno.
 * Return: 0 with /dev/ppp attached, or -errno with the subscriber gone.
 */
int acc_sub_chan(struct sub *sb, int chan);
/* LCP starts on @sb's channel, with the MRU of its interface and the agent's PAP, CHAP. */
void acc_sub_lcp(struct sub *sb);
void acc_sub_gone(struct sub *sb, const char *why, bool padt);
/* The subscribers gone in this loop turn are freed. */
void acc_reap(struct l2d_timer *t);
/* struct acc_disc_ops */
void acc_sub_padr(struct acc_if *ifc, const uint8_t *mac, const struct pppoe_disc *p);
void acc_sub_padt(struct acc_if *ifc, const uint8_t *mac, uint16_t sid);

/* access_snap.c */
void acc_snap_prepare(struct l2d *d);
void acc_snap_write(struct l2d *d, struct l2d_snap_wr *w);
int acc_snap_adopt(struct l2d *d, struct l2d_snap_rd *r, char *err, size_t errlen);

/* access_call.c */
void acc_pap_fire(struct l2d_timer *t);
void acc_login_done(struct l2d *d, struct l2d_login *lg, struct l2d_session *s, const char *why);
void acc_connect_speed(struct l2d *d, struct l2d_session *s, uint32_t *tx, uint32_t *rx);
const struct access_line *acc_access_line(struct l2d *d, struct l2d_session *s);
void acc_iccn_avps(struct l2d *d, struct l2d_session *s, struct l2tp_builder *b);
int acc_bridge(struct l2d *d, struct l2d_session *s, int ppp_fd);
void acc_bridge_cancel(struct l2d *d, struct l2d_session *s, l2d_job_done closed, void *arg);
void acc_session_gone(struct l2d *d, struct l2d_session *s);

/* access_acct.c */
bool acc_acct_tunnel_on(const struct acc *a);
void acc_acct_new_id(struct acc *a, char *id, size_t len);
uint64_t acc_interim_ms(const struct sub *sb);
void acc_interim_fire(struct l2d_timer *tm);
void acc_acct_start(struct sub *sb, const struct l2d_session *s);
void acc_acct_send_leg(struct sub *sb, uint32_t status, bool in_leg);
void acc_acct_send(struct sub *sb, uint32_t status);
void acc_attempt_failed(struct l2d *d, struct l2d_login *lg, unsigned int outcome);
void acc_tunnel_up(struct l2d *d, struct l2d_tunnel *t);
void acc_tunnel_gone(struct l2d *d, struct l2d_tunnel *t);
void acc_lts_in_attrs(struct sub *sb, const struct l2d_session *in);

/* access_switch.c */
int acc_switch_call(struct l2d *d, struct l2d_session *s, const struct l2tp_msg *m);
int acc_lts_open(struct sub *sb, int ppp_fd);
const char *acc_attempt_check(struct l2d *d, struct l2d_login *lg);
void acc_switch_rates(struct l2d *d, struct l2d_session *in);
void acc_icrq_avps(struct l2d *d, struct l2d_session *s, struct l2tp_builder *b);

#endif
