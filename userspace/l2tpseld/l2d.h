/* SPDX-License-Identifier: GPL-2.0 */
/*
 * l2tpseld: the L2TPv2 agent (S-L2TP-1..5).  Types shared by the
 * tunnel and call state machines (tunnel.c, session.c), the LAC login
 * driver (lac.c), the kernel interfaces (knl.c, kcore.c), the local API
 * (api.c) and main.c.
 *
 * The state machines do no I/O of their own: they send through
 * d->env->send(), read the time from d->loop, ask the kernel through
 * d->kops and report to API clients through d->env->login_event(), so the
 * unit tests drive them with crafted messages and a fake clock.
 */
#ifndef L2D_H
#define L2D_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#include "accessline.h"
#include "idmap.h"
#include "l2d_conf.h"
#include "l2d_loop.h"
#include "msg.h"
#include "reliable.h"

struct l2d;
struct l2d_tunnel;
struct l2d_session;
struct l2d_proxy_lcp;
struct l2d_job;
struct l2d_login;
struct l2d_snap_wr;
struct l2d_snap_rd;

enum l2d_tstate {
	L2D_T_IDLE,		/* created, nothing sent */
	L2D_T_WAIT_SCCRP,	/* LAC: SCCRQ sent */
	L2D_T_WAIT_SCCCN,	/* LNS: SCCRP sent */
	L2D_T_ESTABLISHED,
	L2D_T_CLOSING,		/* StopCCN sent or received: held one cycle (§5.7) */
	L2D_T_DEAD,		/* to be freed at the end of the loop turn */
};

enum l2d_sstate {
	L2D_S_WAIT_TUNNEL,	/* LAC: the tunnel is being set up */
	L2D_S_WAIT_ICRP,	/* LAC: ICRQ sent */
	L2D_S_WAIT_ICCN,	/* LNS: ICRP sent */
	L2D_S_ESTABLISHED,
	L2D_S_DEAD,
};

/* Why a tunnel or a session ended, as an attempt outcome (LOGIN_REPORT). */
enum l2d_end {
	L2D_END_NONE,
	L2D_END_NO_REPLY,	/* setup timeout or retransmissions exhausted */
	L2D_END_CDN,
	L2D_END_STOPCCN,
	L2D_END_CLIENT_GONE,
	L2D_END_LOCAL,		/* we tore it down (logout, shutdown, refusal) */
	L2D_END_ERROR,		/* a local failure (socket, kernel) */
};

struct l2d_addr {
	struct sockaddr_storage ss;
	socklen_t len;
};

/*
 * A peer: an IPv4 address or an IPv6 /64 (one site holds a whole prefix),
 * found by a seeded hash (d->peers).  It lists every tunnel whose peer
 * address it covers, either role, and holds the LNS role's counts that
 * its caps compare with (S-SEC-7).  Freed with its last tunnel.
 */
#define L2D_PEER_HASH	4096
struct l2d_peer {
	struct l2d_peer *next;		/* hash chain */
	uint8_t key[9];			/* 4 or 6, then 4 or 8 bytes */
	struct l2d_tunnel *tunnels;	/* t->pnext */
	unsigned int lns_setup;		/* LNS-role tunnels not yet established */
	unsigned int lns_up;		/* ... established (until freed) */
	unsigned int lns_calls;		/* LNS-role calls */
};

struct l2d_tunnel {
	struct l2d *d;
	struct l2d_tunnel *next;	/* d->tunnels */
	uint16_t tid, peer_tid;
	enum l2d_tstate state;
	bool initiator;			/* we sent the SCCRQ */
	/*
	 * Our LAC-role calls may ride it (lac): a tunnel we opened, or the
	 * peer's tunnel that won a tie (RFC 2661 4.4.3) against ours with the
	 * same secret.  The peer's calls may come on it (lns): a tunnel the
	 * peer opened, or ours that won a tie.  Only a tie makes both true;
	 * else the roles never share a tunnel (S-SEC-7).
	 */
	bool lac, lns;
	struct l2d_peer *p;		/* its peer's entry */
	struct l2d_tunnel *pnext, **ppprev;	/* p->tunnels */
	bool lns_up;			/* counted in p->lns_up, d->n_lns_up */
	struct l2d_addr peer, local;
	/* the peer as first addressed: a LAC's destination as configured (peer may move) */
	struct l2d_addr dest;
	int fd;				/* its own connected UDP socket, -1 in tests */
	struct l2d_fd fdw;
	int txfd;			/* control sends once the kernel has fd (main.c) */
	struct l2d_fd txw;
	struct l2d_addr bound;		/* what fd was bound to (local: after connect) */
	bool connected;			/* fd connected to @peer (main.c); a LAC's after SCCRP */
	struct l2d_addr rx_from;	/* the source of the message being received */
	struct l2d_addr rx_local;	/* and where it arrived (address and port) */
	bool own_port;			/* LNS: answers from a port of its own (RFC 2661 8.1) */
	char peer_host[L2D_NAME_MAX];	/* peer's Host Name AVP */
	char tgroup[L2D_NAME_MAX];	/* LNS: tunnel group for admission */
	char name[L2D_NAME_MAX];	/* LAC: the kernel's tunnel name */
	char host[L2D_NAME_MAX];	/* LAC: our Host Name when not the configured one */
	/* LAC: RFC 2867 Tunnel-Start sent (access.c); its Acct-Session-Id and time */
	bool acct_up;
	char acct_id[20];
	uint64_t acct_start_ms;
	char profile[L2D_NAME_MAX];
	uint8_t secret[L2D_SECRET_MAX];
	size_t secret_len;
	bool has_secret;
	struct l2tp_secret sec;		/* points at secret when has_secret */
	uint8_t challenge[16];		/* the one we sent */
	bool challenged;
	uint64_t tie_breaker;
	bool tb_sent;
	bool tb_adopted;		/* LNS role, in setup: carries calls of ours that lost a tie */
	int tx_local_err;		/* our last send failed on our host: its errno, else 0 */
	uint16_t stop_result, stop_error;	/* StopCCN received */
	enum l2d_end end;
	unsigned int n_sessions;
	struct l2d_session *sessions;
	struct l2d_timer setup_timer, rel_timer, hold_timer, hello_timer, idle_timer;
	bool dp_added;
	bool lns_setup;			/* LNS, not yet established: on d->setup_* */
	struct l2d_tunnel *setup_prev, *setup_next;	/* oldest first */
	struct l2d_session *txwait_head, *txwait_tail;	/* in Ns order */
	uint64_t heard_ms;		/* the peer's last new message delivered */
	bool rl_reject;			/* LNS: its SCCRQ's rate-limit verdict was reject */
	uint16_t rl_result, rl_error;
	char rl_message[128];
	struct l2tp_rel rel;		/* the queue grows as needed */
};

struct l2d_session {
	struct l2d_tunnel *t;
	struct l2d_session *next, **pprev;	/* t->sessions */
	uint16_t sid, peer_sid;
	enum l2d_sstate state;
	bool initiator;			/* we sent the ICRQ (LAC) */
	bool seq;			/* data messages carry Ns/Nr (RFC 2661 section 4.4.6) */
	uint16_t proxy_mru;		/* LNS: the MRU the LAC asked of the subscriber, 0 */
	struct l2d_proxy_lcp *proxy;	/* LNS, proxy-lcp: the proxied LCP taken, until pppd starts */
	uint32_t serial;
	uint64_t key;			/* SESSION_UP key */
	bool admitted;			/* counted (SESSION_UP, or a login's OK): SESSION_DOWN owed */
	uint16_t pstat;			/* d->pstats index + 1 it is counted in, 0: none */
	bool lns_counted;		/* an LNS-role call: in t->p->lns_calls, d->n_lns_calls */
	struct l2d_login *login;	/* LAC, during setup */
	uint64_t icrq_us;		/* LAC: when its ICRQ was queued */
	uint16_t cdn_result, cdn_error;
	enum l2d_end end;
	char user[L2D_USER_MAX];
	struct l2d_session *dead_next;	/* d->dead_sessions */
	struct l2d_timer setup_timer;
	/* on t->txwait_*: setup_timer starts when message txwait_ns leaves */
	bool txwait;
	uint16_t txwait_ns;
	struct l2d_session *txwait_next;
	uint64_t tx_ms;			/* when that message first left */
	bool dp_added;
	int pppd_pid;			/* dataplane kernel: its pppd, 0 when none */
	uint32_t api_id;		/* the login id the API gave out */
	struct l2d_idnode by_api_id;	/* d->sessions_by_api_id, when @api_id */
	/* the access role (access.c): the PPPoE subscriber, NULL for an API login */
	void *access;
	int ppp_fd;			/* its PPPoL2TP socket while bridged, -1 */
	struct l2d_job *bridge_job;	/* the bridge under way (access.c) */
	char calling[64], called[64];	/* ICRQ Calling / Called Number, "" = none */
	/* S-AL-1, RFC 5515: the subscriber's line.  LAC: what its ICRQ
	 * carried (al_sent: with Connect Speed Update Enable, so CSUNs follow
	 * rate changes); LNS: what the ICRQ carried, rates updated by CSUN */
	struct access_line al;
	bool al_sent;
	bool csu_enabled;		/* LNS: the LAC sent Connect Speed Update Enable */
	uint32_t tx_bps, rx_bps;	/* LNS: the ICCN's connect speeds, then the CSUNs' */
	bool acct_started;		/* LNS: RADIUS Accounting Start sent (lnsacct.c) */
	uint64_t acct_start_ms;
	/* S-LTS-1/2: LNS, the switches the call passed before us (its ICRQ's
	 * hop-count AVP, lts.h); LAC, the count its ICRQ carries on */
	unsigned int lts_hops;
	bool lts;			/* LNS: the call is switched (s->access its switch) */
};

/* RL_CHECK (Documentation/ratelimit.md): what the agent knows of a request. */
struct l2d_rlreq {
	uint8_t dir, msg;		/* enum l2tpsel_rl_dir, enum l2tpsel_rl_msg */
	const char *peer;		/* the peer's Host Name */
	const struct l2d_addr *remote;	/* the peer's address, or the LNS's (+ port) */
	const char *domain, *profile;
};

struct l2d_rlans {
	unsigned int verdict;		/* enum l2tpsel_rl_verdict */
	uint16_t result, error;		/* REJECTED: the StopCCN / CDN codes */
	char message[128];
	char name[L2D_NAME_MAX];	/* the limit that decided */
};

/* What the kernel (or kernel none's core) says to try next, or that the login ended. */
struct l2d_admit {
	bool pass;
	unsigned int level;		/* enum l2tpsel_level that refused */
	uint16_t result, error;		/* the CDN to send on refusal */
};

struct l2d_step {
	bool done;
	bool ok;			/* done */
	unsigned int why;		/* done, enum l2tpsel_why */
	struct l2d_admit admit;		/* done, why L2TPSEL_WHY_ADMISSION */
	bool setup, shortest;		/* attempt */
	char tunnel[L2D_NAME_MAX], profile[L2D_NAME_MAX];
	struct l2d_addr remote, local;	/* remote's port set; local's port 0 */
	bool has_local;
	unsigned int level;
	/*
	 * The login's own rate-limit checks come with its steps (the module's
	 * RL_ASK, or kernel none's core): rl_login refused the login before it
	 * began (nothing else is set), rl_attempt is the attempt's verdict.
	 */
	struct l2d_rlans rl_login, rl_attempt;
};

struct rad_set_entry;

struct l2d_login {
	struct l2d *d;
	struct l2d_login *next, **pprev;	/* d->logins */
	struct l2d_idnode by_id;	/* d->logins_by_id */
	uint32_t id;			/* ours, given to the API client */
	uint32_t kid;			/* the kernel's LOGIN_ID */
	char user[L2D_USER_MAX], profile[L2D_NAME_MAX], key[L2D_USER_MAX];
	void *client;			/* API connection; NULL when gone */
	struct l2d_session *s;		/* the current attempt */
	struct l2d_step step;		/* the current attempt's step */
	unsigned int attempts;
	/* the current attempt's tunnel ("reuse", "join", "sccrq"); NULL when
	 * no attempt was sent.  Its event line is formatted from this and
	 * step only when wanted: logged at debug, or at info when it fails */
	const char *attempt_kind;
	bool brief;			/* its API client wants the "done" line only */
	void *kstate;			/* kernel none: the core's walk (kcore.c) */
	bool dead;
	/* the access role: the subscriber, told the end through aops->login_done */
	void *access;
	char calling[64], called[64];
	struct l2d_session *ok_s;	/* set when the login ends with a session */
	char why[128];			/* set when it ends without one */
	/* RADIUS's tunnel set (S-RAD-2): the kernel's TUNNELS, and each tag's
	 * secret and Host Name for a tunnel its attempt opens */
	struct rad_set_entry *set;
	unsigned int nset;
	/* where its time went (l2d_mono_us()), told in its "done" line */
	uint64_t t0_us;			/* the request came */
	uint64_t attempt_us;		/* the current attempt began */
	uint64_t kernel_us;		/* in LOGIN_BEGIN and LOGIN_REPORT */
	uint64_t tunnel_us;		/* waiting for a tunnel to come up */
	uint64_t call_us;		/* ICRQ queued to ICRP, over its attempts */
};

/* One destination of the selection (S-OPS-3): the kernel's DEST_GET, or the core's. */
struct l2d_dest_info {
	char remote[64], local[64];	/* "" local: any */
	uint16_t port;
	uint32_t lockout_ms;		/* remaining; 0 unlocked */
	uint32_t sessions, in_flight, tunnels, attempts, failures;
};
typedef void (*l2d_dest_fn)(void *ctx, const struct l2d_dest_info *di);

/* Selection and admission: the l2tpsel module (knl.c) or the core in-process (kcore.c). */
struct l2d_kops {
	const char *name;
	int (*login_begin)(struct l2d *d, struct l2d_login *lg, struct l2d_step *st);
	/*
	 * @outcome: enum l2tpsel_outcome.  OK counts lg->s for selection and
	 * admission in one step (its key and tunnel): done and ok, it is
	 * counted until session_down; done, not ok, why ADMISSION: refused by
	 * a limit (st->admit), nothing counted.
	 */
	int (*login_report)(struct l2d *d, struct l2d_login *lg, unsigned int outcome,
			    uint16_t result, uint16_t error, struct l2d_step *st);
	/* LNS: admit and count an incoming session */
	int (*session_up)(struct l2d *d, struct l2d_session *s, struct l2d_admit *a);
	/* end every count of a session (either kind) */
	int (*session_down)(struct l2d *d, uint64_t key);
	/* the login is freed, done or not; may be NULL */
	void (*login_end)(struct l2d *d, struct l2d_login *lg);
	void (*fini)(struct l2d *d);
	const char *(*errmsg)(struct l2d *d);	/* the last refusal's text, or NULL */
	int (*rl_check)(struct l2d *d, const struct l2d_rlreq *q, struct l2d_rlans *a);
	/* every destination to @fn (l2d_dests()); may be NULL */
	int (*dests)(struct l2d *d, l2d_dest_fn fn, void *ctx);
};

/* The outside world: sockets and API clients (main.c), or a test harness. */
struct l2d_env {
	int (*tunnel_open)(struct l2d *d, struct l2d_tunnel *t);	/* its socket */
	void (*tunnel_close)(struct l2d *d, struct l2d_tunnel *t);
	/* connect to t->peer: a LAC's once the SCCRP came, any tunnel's again
	 * when its peer's port moved (a NAT) */
	int (*tunnel_connect)(struct l2d *d, struct l2d_tunnel *t);
	/* 0, or -errno when our host refused the datagram (tunnel.c classifies it) */
	int (*send)(struct l2d *d, struct l2d_tunnel *t, const uint8_t *buf, size_t len);
	/* a line of @lg (without newline) for its API client and the
	 * connections that watch every login; NULL: the client left */
	void (*login_event)(struct l2d *d, struct l2d_login *lg, const char *line);
	void (*random)(struct l2d *d, void *buf, size_t len);
	/* an adopted tunnel's descriptors (S-OPS-2, snap.c) into the loop; may be NULL */
	int (*tunnel_adopt)(struct l2d *d, struct l2d_tunnel *t);
};

/* Data path hooks (dataplane kernel): dp.c, when built in (dpglue.c). */
struct l2d_dpops {
	int (*tunnel_add)(struct l2d *d, struct l2d_tunnel *t);
	void (*tunnel_del)(struct l2d *d, struct l2d_tunnel *t);
	int (*session_add)(struct l2d *d, struct l2d_session *s);
	void (*session_del)(struct l2d *d, struct l2d_session *s);
};

/*
 * The access role's hooks (access.c): PPPoE subscribers whose login is an
 * l2d_login with ->access set, and whose established call is bridged.
 */
struct l2d_access_ops {
	/* The login of @lg ended: with @s established and admitted, or (NULL)
	 * refused, @why saying why in words for the subscriber. */
	void (*login_done)(struct l2d *d, struct l2d_login *lg, struct l2d_session *s,
			   const char *why);
	/* An attempt of @lg failed with @outcome (enum l2tpsel_outcome): lg->s and
	 * lg->step are that attempt's; another may follow.  May be NULL. */
	void (*attempt_failed)(struct l2d *d, struct l2d_login *lg, unsigned int outcome);
	/* The ICCN's Tx and Rx Connect Speed of @s, bits per second (RFC 2661
	 * section 4.4.5), over the defaults in *@tx, *@rx.  May be NULL. */
	void (*connect_speed)(struct l2d *d, struct l2d_session *s, uint32_t *tx, uint32_t *rx);
	/* The line of @s from PPPoE discovery (S-AL-1), NULL when none.  May be NULL. */
	const struct access_line *(*access_line)(struct l2d *d, struct l2d_session *s);
	/* ICCN of @s: the Proxy LCP and Proxy Authentication AVPs (RFC 2661 4.4.5). */
	void (*iccn_avps)(struct l2d *d, struct l2d_session *s, struct l2tp_builder *b);
	/* Bridge @s's PPPoL2TP socket @ppp_fd to the subscriber's channel: 0
	 * bridged, 1 under way (l2d_session_bridged() follows, s->bridge_job
	 * set meanwhile), or -errno. */
	int (*bridge)(struct l2d *d, struct l2d_session *s, int ppp_fd);
	/* @s ends while its bridge is under way: the PPPoL2TP socket is the
	 * access side's to close. */
	void (*bridge_cancel)(struct l2d *d, struct l2d_session *s);
	/* The established call @s ended (CDN, StopCCN, tunnel lost, logout). */
	void (*session_gone)(struct l2d *d, struct l2d_session *s);
	/*
	 * Tunnel switching (S-LTS-1): take the LNS-role call @s, whose ICCN
	 * @m just came, as a switched call (s->access set, s->lts): 0, or
	 * -errno with @s left as it was.  May be NULL.
	 */
	int (*switch_call)(struct l2d *d, struct l2d_session *s, const struct l2tp_msg *m);
	/* An attempt of @lg to lg->step's destination may go: NULL, or why
	 * not (S-LTS-2: a loop).  May be NULL. */
	const char *(*attempt_check)(struct l2d *d, struct l2d_login *lg);
	/* The LNS-role call @s, switched, has new rates from a CSUN (s->al,
	 * s->tx_bps, s->rx_bps): on to the call behind (RFC 5515).  May be NULL. */
	void (*switch_rates)(struct l2d *d, struct l2d_session *s);
	/* More AVPs for the ICRQ of @s.  May be NULL. */
	void (*icrq_avps)(struct l2d *d, struct l2d_session *s, struct l2tp_builder *b);
	/* The LAC's tunnel @t is established / is being freed (t->end says how
	 * it ended).  May be NULL. */
	void (*tunnel_up)(struct l2d *d, struct l2d_tunnel *t);
	void (*tunnel_gone)(struct l2d *d, struct l2d_tunnel *t);
	/* S-OPS-2 (snap.h): before an upgrade, the subscribers not up end (PADT);
	 * each one up becomes a L2D_SNAP_SUB record; one such record is adopted
	 * (0, or -EINVAL with @err).  May be NULL. */
	void (*snap_prepare)(struct l2d *d);
	void (*snap_write)(struct l2d *d, struct l2d_snap_wr *w);
	int (*snap_adopt)(struct l2d *d, struct l2d_snap_rd *r, char *err, size_t errlen);
};

/* How a login ended: ok, each enum l2tpsel_why, and the agent's own endings. */
enum l2d_login_result {
	L2D_LR_OK,			/* L2TPSEL_WHY_NONE's slot: a session */
	/* 1..8: L2TPSEL_WHY_EXHAUSTED..L2TPSEL_WHY_ADMISSION */
	L2D_LR_REFUSED = 9,		/* a session limit refused the LNS's call */
	L2D_LR_INTERNAL,		/* the kernel said ok without a session */
	L2D_LR_KERNEL_ERROR,		/* LOGIN_REPORT failed */
	L2D_LR_N
};

#define L2D_SETUP_BUCKETS	12
extern const uint32_t l2d_setup_bounds_ms[L2D_SETUP_BUCKETS];

struct l2d_stats {
	uint64_t rx, rx_discard, rx_no_tunnel, tx, tx_err;
	uint64_t tunnels_up, tunnels_failed, sessions_up, sessions_failed;
	uint64_t sessions_refused, logins_ok, logins_failed;
	uint64_t calls_refused;		/* ICRQ without listen, OCRQ: CDN 5 */
	uint64_t calls_wrong_role;	/* ICRQs on a tunnel we opened as LAC: CDN 5 */
	uint64_t sccrq_capped;		/* SCCRQs dropped: lns-max-setup-per-peer */
	uint64_t setup_evicted;		/* LNS tunnels in setup dropped for newer ones */
	uint64_t calls_capped;		/* ICRQs refused: lns-max-calls-per-peer */
	uint64_t tunnels_idle;		/* LNS tunnels closed by lns-idle-timeout */
	uint64_t tunnels_capped;	/* LNS tunnels refused: lns-max-tunnels[-per-peer] */
	uint64_t port_moved;		/* tunnels whose peer's port moved (a NAT), followed */
	uint64_t port_separated;	/* LNS: SCCRQs answered from a port of our own */
	uint64_t port_refused;		/* of those, LACs that did not follow: StopCCN */
	uint64_t rl_rejected, rl_dropped;
	uint64_t logins_drained;	/* logins refused: the LAC is drained (S-OPS-1) */
	uint64_t lts_hops_refused;	/* ICRQs refused: lns-switch-hops reached (S-LTS-2) */
	uint64_t proxy_lcp_taken;	/* LNS, proxy-lcp: proxied LCP acceptable, to pppd's plugin */
	uint64_t proxy_lcp_renegotiated;	/* ... not acceptable: pppd negotiates */
	/* reliable delivery (RFC 2661 section 5.8) of tunnels already freed;
	 * the `stats` answer adds the live tunnels' */
	struct l2tp_rel_stats rel_gone;
	/* logins by how they ended (enum l2d_login_result) */
	uint64_t logins_by[L2D_LR_N];
	/*
	 * Setup time of the logins that ended with a session, request to
	 * "done ok": setup_le[i] counts those of at most l2d_setup_bounds_ms[i]
	 * (cumulative, as Prometheus's buckets); the last slot is +Inf.
	 */
	uint64_t setup_le[L2D_SETUP_BUCKETS + 1];
	uint64_t setup_sum_us;
};

/* A profile's logins (S-OPS-3): the first L2D_MAX_PSTATS names a login ended on. */
#define L2D_MAX_PSTATS	256
struct l2d_pstat {
	char name[L2D_NAME_MAX];
	uint64_t logins_ok, logins_failed;
	uint32_t sessions;		/* its logins' sessions established now */
};

struct l2d {
	struct l2d_conf *conf;
	struct l2d_loop *loop;
	const struct l2d_env *env;
	const struct l2d_kops *kops;
	const struct l2d_dpops *dpops;	/* NULL: dataplane none */
	const struct l2d_access_ops *aops;	/* NULL: no access role */
	void *kctx, *envctx, *dpctx, *actx;
	void *rctx;			/* the RADIUS client (radclient.c), NULL: none */
	void *dasctx;			/* the server of dynamic authorization (das.c), NULL: none */
	/* LNS role accounting (lnsacct.c): RAD_ACCT_START, _INTERIM or _STOP
	 * of @s; NULL when off */
	void (*lns_acct)(struct l2d *d, struct l2d_session *s, uint32_t status);
	struct l2d_tunnel *tunnels;
	struct l2d_tunnel *tun_by_id[65536];
	struct l2d_session *sess_by_id[65536];
	struct l2d_login *logins;
	struct l2d_idmap logins_by_id;		/* struct l2d_login by its id */
	struct l2d_idmap sessions_by_api_id;	/* struct l2d_session by api_id */
	struct l2d_session *dead_sessions;	/* freed at the end of the turn */
	uint32_t next_login_id, next_serial;
	/* API connections that asked for every login's lines ("watch") */
	unsigned int login_watchers;
	unsigned int n_tunnels, n_sessions;
	unsigned int n_lns_setup;	/* LNS tunnels not yet established */
	unsigned int n_lns_up, n_lns_calls, n_peers;
	struct l2d_peer *peers[L2D_PEER_HASH];
	uint64_t peer_seed;
	bool peer_seeded;
	struct l2d_tunnel *setup_first, *setup_last;
	struct l2d_timer reap_timer;
	bool reap_armed;
	bool shutting_down;
	bool drain_api;			/* "drain on" over the API (S-OPS-1) */
	struct l2d_stats stats;
	struct l2d_pstat *pstats;	/* L2D_MAX_PSTATS, allocated with the first */
	unsigned int n_pstats;
	bool rl_warned;
	int log_level;
	int knl_fd;			/* the module's socket (knl.c): the snapshot names it; -1 */
	bool upgrade_asked;		/* "upgrade" over the API, SIGUSR2: main.c re-executes */
};

/*
 * The whole LAC drained (S-OPS-1): "drain yes" in the configuration or
 * "drain on" over the API.  No new login, no PADO; sessions stay.
 */
static inline bool l2d_draining(const struct l2d *d)
{
	return d->conf->drain || d->drain_api;
}

/* ---- core (tunnel.c) ---- */
int l2d_init(struct l2d *d, struct l2d_conf *conf, struct l2d_loop *loop,
	     const struct l2d_env *env, const struct l2d_kops *kops);
void l2d_fini(struct l2d *d);
/* A datagram arrived on a socket bound to @local from @peer. */
void l2d_input(struct l2d *d, const struct l2d_addr *local, const struct l2d_addr *peer,
	       uint8_t *buf, size_t len);
/* Tear every tunnel down (StopCCN 6), e.g. on SIGTERM. */
void l2d_shutdown(struct l2d *d);

/*
 * A LAC-role tunnel to @remote (and @local) a login may reuse or join:
 * set up with the same @secret (NULL or "": none) and Host Name @host
 * ("": the configured one), so that it authenticates and hides AVPs as a
 * tunnel opened for this login would (S-SEC-7).
 */
struct l2d_tunnel *l2d_tunnel_find_dest(struct l2d *d, const struct l2d_addr *remote,
					const struct l2d_addr *local, bool has_local,
					const char *secret, const char *host);
struct l2d_tunnel *l2d_tunnel_new(struct l2d *d, const struct l2d_addr *peer,
				  const struct l2d_addr *local, bool initiator);
int l2d_tunnel_connect(struct l2d_tunnel *t);	/* LAC: send SCCRQ */
void l2d_tunnel_stop(struct l2d_tunnel *t, uint16_t result, uint16_t error, const char *text);
/* for l2d.c: a datagram of a known tunnel; a peer's SCCRQ (Tunnel ID 0); freeing */
void l2d_tunnel_receive(struct l2d_tunnel *t, uint8_t *buf, size_t len);
void l2d_tunnel_input_sccrq(struct l2d *d, const struct l2d_addr *local, const struct l2d_addr *peer,
			    uint8_t *buf, size_t len);
void l2d_tunnel_acct_down(struct l2d_tunnel *t);
void l2d_tunnel_free(struct l2d_tunnel *t);
/*
 * S-OPS-2: @t, filled from a snapshot (IDs, addresses, flags, names, fd),
 * becomes an established tunnel of t->d whose control connection goes on
 * at @ns_una (the next Ns to send, its unacknowledged messages queued by
 * the caller after) and @nr, with the peer's Receive Window Size @window.
 * Return 0, or -1 (nothing registered; the caller frees @t).
 */
int l2d_tunnel_adopt(struct l2d_tunnel *t, uint16_t ns_una, uint16_t nr, uint16_t window);
/* A LAC tunnel's secret: the configured one of its kernel tunnel, or RADIUS's (NULL, "": none). */
void l2d_tunnel_set_secret(struct l2d_tunnel *t, const char *secret);
void l2d_tunnel_flush(struct l2d_tunnel *t);
int l2d_tunnel_queue(struct l2d_tunnel *t, const uint8_t *buf, size_t len);
void l2d_tunnel_time_from_tx(struct l2d_tunnel *t, struct l2d_session *s);
void l2d_tunnel_txwait_drop(struct l2d_tunnel *t, struct l2d_session *s);
void l2d_tunnel_builder(struct l2d_tunnel *t, struct l2tp_builder *b, uint8_t *buf,
			size_t cap, uint16_t sid, uint16_t type);
void l2d_tunnel_session_gone(struct l2d_tunnel *t);
int l2d_tunnel_put_secret(struct l2d_tunnel *t, struct l2tp_builder *b, uint16_t type,
			  const void *val, size_t len);
void l2d_tunnel_call_started(struct l2d_tunnel *t);
/* Same host (and port when @port); an unset address matches nothing. */
bool l2d_addr_eq(const struct l2d_addr *a, const struct l2d_addr *b, bool port);
/* The entry of @a's peer, or NULL when it has no tunnel. */
struct l2d_peer *l2d_peer_find(struct l2d *d, const struct l2d_addr *a);
void l2d_reap_later(struct l2d *d);
const char *l2d_tstate_name(enum l2d_tstate s);
const char *l2d_sstate_name(enum l2d_sstate s);
const char *l2d_end_name(enum l2d_end e);
void l2d_addr_str(const struct l2d_addr *a, char *buf, size_t len, bool port);
uint16_t l2d_port(const struct l2d_addr *a);	/* host order, 0 when unset */
void l2d_set_port(struct l2d_addr *a, uint16_t port);	/* host order */
/* @out from an address's 4 or 16 bytes and @port; false (and empty) for another @len */
bool l2d_addr_set(struct l2d_addr *out, const void *bytes, unsigned int len, uint16_t port);

/* The rate limiter's verdict (pass when off or unavailable). */
unsigned int l2d_rl_check(struct l2d *d, const struct l2d_rlreq *q, struct l2d_rlans *a);
unsigned int l2d_rl_count(struct l2d *d, unsigned int msg, const struct l2d_rlans *a);

/*
 * ---- the tunnels' UDP sockets (sock.c): main.c's l2d_env hooks ----
 * A UDP socket bound to @bind_to (port 0: one the kernel picks that no
 * socket held); 0 or -errno.
 */
int l2d_udp_socket(int family, const struct l2d_addr *bind_to, bool pktinfo, uint32_t rcvbuf);
/* Up to a burst of datagrams from @fd into l2d_input(), with the local
 * address they reached (IP_PKTINFO, else @fixed_local) and @local_port. */
void l2d_sock_drain(struct l2d *d, int fd, const struct l2d_addr *fixed_local, uint16_t local_port);
int l2d_sock_tunnel_open(struct l2d *d, struct l2d_tunnel *t);
int l2d_sock_tunnel_connect(struct l2d *d, struct l2d_tunnel *t);
void l2d_sock_tunnel_close(struct l2d *d, struct l2d_tunnel *t);
int l2d_sock_tunnel_adopt(struct l2d *d, struct l2d_tunnel *t);
int l2d_sock_send(struct l2d *d, struct l2d_tunnel *t, const uint8_t *buf, size_t len);

/* ---- sessions (session.c) ---- */
struct l2d_session *l2d_session_new(struct l2d_tunnel *t, bool initiator);
void l2d_session_tunnel_up(struct l2d_session *s);	/* tunnel established: ICRQ */
void l2d_session_input(struct l2d_tunnel *t, struct l2tp_msg *m);
/* RFC 5515 (S-AL-1): CSUN and CSURQ in, CSUN out. */
void l2d_session_csu_input(struct l2d_tunnel *t, const struct l2tp_msg *m);
int l2d_session_send_csun(struct l2d_session *s, uint32_t tx_bps, uint32_t rx_bps);
/* The session ends: CDN when @send_cdn, hooks, counts; freed later. */
/* LAC: the access side's bridge of @s is made (@err 0) or failed: the ICCN,
 * or the call cleared (CDN 4, a local failure). */
void l2d_session_bridged(struct l2d_session *s, int err);
void l2d_session_close(struct l2d_session *s, enum l2d_end end, bool send_cdn,
		       uint16_t result, uint16_t error, const char *text);
void l2d_session_free(struct l2d_session *s);
/* proxy-lcp: forget the call's proxied LCP (its password wiped). */
void l2d_session_proxy_done(struct l2d_session *s);
/* S-OPS-2: @s from a snapshot, established on @t, counted under profile @pstat ("": none). */
void l2d_session_adopt(struct l2d_session *s, struct l2d_tunnel *t, const char *pstat);
struct l2d_session *l2d_session_find(struct l2d *d, uint16_t sid);
/* Put @s on @t's list of sessions, or take it off its tunnel's. */
void l2d_session_link(struct l2d_session *s, struct l2d_tunnel *t);
void l2d_session_unlink(struct l2d_session *s);
/* The login id @s answers to in the API (logout ID); 0: none. */
void l2d_session_set_api_id(struct l2d_session *s, uint32_t id);
uint64_t l2d_session_key(const struct l2d *d, uint16_t tid, uint16_t sid);
/* CLOCK_MONOTONIC in microseconds: a login's step times, never a timer */
uint64_t l2d_mono_us(void);

/* ---- LAC logins (lac.c) ---- */
/* The per-profile line of @name (S-OPS-3), made on first use; NULL when full. */
struct l2d_pstat *l2d_pstat_of(struct l2d *d, const char *name);
/*
 * Start a login for the API client @client.  Return: its id, or 0 with @err
 * set.  The login may have ended already (its lines were sent): look it up
 * with l2d_login_find() rather than keeping a pointer.
 */
uint32_t l2d_login_start(struct l2d *d, void *client, bool brief, const char *user,
			 const char *profile, const char *key, char *err, size_t errlen);
/*
 * The same for the access role's subscriber @access: its end is told through
 * d->aops->login_done() (also when it ends before this returns), never
 * through API lines.  @profile: RADIUS's, NULL for the domain map's;
 * @calling, @called: the ICRQ's numbers.
 */
uint32_t l2d_login_start_access(struct l2d *d, void *access, const char *user,
				const char *profile, const char *calling, const char *called,
				char *err, size_t errlen);
/* The same with RADIUS's tunnel set (@n entries of @set, copied) instead of a profile. */
uint32_t l2d_login_start_set(struct l2d *d, void *access, const char *user,
			     const struct rad_set_entry *set, unsigned int n, const char *calling,
			     const char *called, char *err, size_t errlen);
struct l2d_login *l2d_login_find(struct l2d *d, uint32_t id);
/* The attempt of @lg's session ended (ok, or how it failed). */
void l2d_login_attempt_end(struct l2d_login *lg, enum l2d_end end, uint16_t result,
			   uint16_t error);
void l2d_login_client_gone(struct l2d_login *lg);
/* Tear an established LAC session down by its API id. Return: 0 or -ENOENT. */
int l2d_logout(struct l2d *d, uint32_t id);
void l2d_login_event(struct l2d_login *lg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void l2d_login_free(struct l2d_login *lg);
/* The name of an enum l2d_login_result ("ok", "exhausted", ..., "kernel-error"). */
const char *l2d_login_result_name(unsigned int r);
/*
 * Count a login's end: @r, its profile's line, and when ok its setup time
 * @setup_us in the histogram and its session @s under the profile until
 * it closes (S-OPS-3).
 */
void l2d_login_count(struct l2d *d, const char *profile, unsigned int r, uint64_t setup_us,
		     struct l2d_session *s);

/* ---- logging and quoting (log.c) ---- */
/* Stop here (SIGSTOP) when L2TPSELD_TEST_PAUSE names @step: a test's hook. */
void l2d_test_pause(const char *step);
enum { L2D_LOG_ERR, L2D_LOG_INFO, L2D_LOG_DEBUG };
/* One line on stderr, "l2tpseld: " first, passed through l2d_quote(). */
#define L2D_LOG_LINE	1024	/* the most of a line before quoting, with its NUL */
void l2d_log(struct l2d *d, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same for a line formatted already: @n bytes of @line. */
void l2d_log_str(struct l2d *d, int level, const char *line, size_t n);
/* @src into @dst of @cap bytes (cap > 0), cut to fit, always terminated. */
static inline void l2d_strcpy(char *dst, size_t cap, const char *src)
{
	size_t n = strnlen(src, cap - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/*
 * snprintf() for the lines a storm of logins makes thousands of a second
 * (log.c): %s, %u, %llu and %% are converted here, at a fifth of glibc's
 * cost a login's "done" line; every other conversion goes to snprintf()
 * one at a time.  Cut to fit @cap (> 0), always terminated.  Returns the
 * length written.
 *
 * %-s (a '-' with no width: printf's own reading is %s) is a field that a
 * peer, a subscriber or a client chose (a Host Name, a user name):
 * written through l2d_quote_str(), so that it stays one word, cannot add
 * a field ("user x outcome ok") and cannot end the line.  Every log line
 * and every login event line (the API's) is formatted here; the one place
 * such strings are quoted.
 */
size_t l2d_vfmt(char *buf, size_t cap, const char *fmt, va_list ap);
size_t l2d_fmt(char *buf, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Whether lines of @level are logged. */
static inline bool l2d_log_on(const struct l2d *d, int level)
{
	return level <= d->log_level;
}

/*
 * The one quoting helper for everything a peer (or an API client) can put in
 * a log line or an API answer: Host Name, Calling Number, result messages,
 * user names.  Every byte below 0x20, 0x7f and every byte from 0x80 up
 * becomes \xHH, so no line can be split or coloured, and bytes that are not
 * ASCII show as what they are.  L2D_QUOTE_FIELD: the text is one field of a
 * line; blank, backslash and double quote become \xHH too, so the field
 * stays one word and a \x in it is always an escape.  Without it (a whole
 * line, the sinks' last pass) those three are kept.  @dst always ends with
 * a NUL; an escape is never cut.  Returns @dst.
 */
#define L2D_QUOTE_FIELD	1u
char *l2d_quote(char *dst, size_t cap, const void *src, size_t len, unsigned int flags);
/* A NUL-terminated field, quoted; "-" when empty. */
const char *l2d_quote_str(char *dst, size_t cap, const char *s);
/* Room for a quoted field of @n bytes. */
#define L2D_QUOTED_SIZE(n)	(4 * (n) + 1)

extern const struct l2d_kops l2d_kops_core;
/* kernel none: the sessions counted (the core's chassis count) */
uint32_t l2d_kcore_sessions(struct l2d *d);
/* kernel none: drain tunnels by name or destinations by address (S-OPS-1); matched or -1 */
int l2d_kcore_drain(struct l2d *d, bool dest, const char *what, bool on, char *err,
		    size_t errlen);
/* kernel none: logins in flight on the current core's destinations (S-STORM-2) */
uint32_t l2d_kcore_in_flight(struct l2d *d);

extern const struct l2d_kops l2d_kops_netlink;

/* ---- the agent's parts, opened and closed by main.c ---- */
/* knl.c */
/* @fd: the module's socket handed over (S-OPS-2), or -1 for a new one */
int l2d_knl_open(struct l2d *d, int fd, char *err, size_t errlen);
/* dpglue.c */
int l2d_dp_glue_open(struct l2d *d, char *err, size_t errlen);
void l2d_dp_glue_close(struct l2d *d);
void l2d_dp_child_exit(struct l2d *d, int pid, int status);
/* l2d.c */
/* Each destination to @fn. Return: 0, or -errno (the kernel did not answer). */
int l2d_dests(struct l2d *d, l2d_dest_fn fn, void *ctx);
/* The "destination ..." line of the API's stats for @di. */
int l2d_dest_line(const struct l2d_dest_info *di, char *buf, size_t len);
/* api.c */
int l2d_api_open(struct l2d *d, const char *path, char *err, size_t errlen);
void l2d_api_close(void);
void l2d_api_flush(void);
void l2d_api_login_event(struct l2d *d, struct l2d_login *lg, const char *line);
/* tunnel.c */
int l2d_tunnel_put_u16(struct l2d_tunnel *t, struct l2tp_builder *b, uint16_t type, uint16_t v);

#endif
