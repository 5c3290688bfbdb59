/* SPDX-License-Identifier: GPL-2.0 */
/*
 * l2tpseld: the L2TPv2 agent (S-L2TP-1..5).  What its parts share: the
 * agent's state (struct l2d), addresses, the outside world's hooks
 * (struct l2d_env, l2d_dpops, l2d_access_ops), the counters, logging, and
 * the core (l2d.c).  Each part has a header of its own: tunnel.h,
 * session.h, lac.h, kernel.h (selection and admission), sock.h, api.h.
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

#include "idmap.h"
#include "l2d_conf.h"
#include "l2d_loop.h"
#include "msg.h"
#include "offload.h"
#include "reliable.h"

struct l2d;
struct l2d_tunnel;
struct l2d_session;
struct l2d_proxy_lcp;
struct l2d_job;
struct l2d_login;
struct l2d_snap_wr;
struct l2d_snap_rd;
struct l2d_kops;
struct access_line;

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

/* struct l2d's hash of peers (tunnel.h: struct l2d_peer) */
#define L2D_PEER_HASH	4096

struct l2d_addr {
	struct sockaddr_storage ss;
	socklen_t len;
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

/* Data path hooks (dataplane kernel): dp.c, when built in (dataplane_kernel.c). */
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
	void (*bridge_cancel)(struct l2d *d, struct l2d_session *s, l2d_job_done closed, void *arg);
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

/*
 * What the core (l2d.c) asks of the parts above it.  Each part defines its
 * table (tunnel_accept.c, session.c, lac.c) and l2d_agent_init() (agent.c)
 * sets them, so that the core calls no part by name.  The parts call down
 * by name (tunnel_accept.c -> tunnel_rx.c -> session*.c -> tunnel.c; lac.c
 * -> session.c, tunnel.c) and back up only through these tables: tunnel.c
 * ends calls through d->sops, session.c reaches its login through d->lops.
 */
struct l2d_tunnel_ops {
	/* a datagram of the known tunnel @t (t->rx_from, t->rx_local set) */
	void (*input)(struct l2d_tunnel *t, uint8_t *buf, size_t len);
	/* a datagram for Tunnel ID 0: a peer's SCCRQ (RFC 2661 section 5.1) */
	void (*input_new)(struct l2d *d, const struct l2d_addr *local, const struct l2d_addr *peer,
			  uint8_t *buf, size_t len);
	/* StopCCN (shutdown) */
	void (*stop)(struct l2d_tunnel *t, uint16_t result, uint16_t error, const char *text);
	/* the agent ends (l2d_fini()): its calls closed without a message, dead */
	void (*end)(struct l2d_tunnel *t);
	void (*free)(struct l2d_tunnel *t);	/* a dead one, at the end of the turn */
};

struct l2d_session_ops {
	void (*free)(struct l2d_session *s);	/* a dead one, at the end of the turn */
	/* the tunnel files end a call (l2d_session_close(), session.h) */
	void (*close)(struct l2d_session *s, enum l2d_end end, bool send_cdn,
		      uint16_t result, uint16_t error, const char *text);
	/* tunnel.c: a waiting call's ICRQ, its turn come (l2d_session_send_icrq()) */
	void (*send_icrq)(struct l2d_session *s);
};

struct l2d_login_ops {
	void (*client_gone)(struct l2d_login *lg);	/* shutdown: it ends as its client left */
	void (*free)(struct l2d_login *lg);
	/* session.c: the attempt of @lg's call ended (l2d_login_attempt_end(), lac.h) */
	void (*attempt_end)(struct l2d_login *lg, enum l2d_end end, uint16_t result,
			    uint16_t error);
	/* session.c: a profile's line (l2d_pstat_of(), lac.h) */
	struct l2d_pstat *(*pstat_of)(struct l2d *d, const char *name);
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
	/* the parts the core dispatches to (agent.c) */
	const struct l2d_tunnel_ops *tops;
	const struct l2d_session_ops *sops;
	const struct l2d_login_ops *lops;
	void *kctx, *envctx, *dpctx, *actx;
	void *rctx;			/* the RADIUS client (radclient.c), NULL: none */
	void *dasctx;			/* the server of dynamic authorization (das.c), NULL: none */
	/* LNS role accounting (lnsacct.c): RAD_ACCT_START, _INTERIM or _STOP
	 * of @s; NULL when off */
	void (*lns_acct)(struct l2d *d, struct l2d_session *s, uint32_t status);
	struct l2d_tunnel *tunnels;
	struct l2d_tunnel *tun_by_id[65536];
	struct l2d_session *sess_by_id[65536];
	/* ids whose kernel session a worker is still closing (l2d_sid_hold()) */
	uint8_t sid_closing[65536 / 8];
	struct l2d_offload off;		/* blocking system calls off the loop (offload.h) */
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
	int knl_fd;			/* the module's socket (kernel_netlink.c): the snapshot names it; -1 */
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

/* ---- the core (l2d.c) ---- */
int l2d_init(struct l2d *d, struct l2d_conf *conf, struct l2d_loop *loop,
	     const struct l2d_env *env, const struct l2d_kops *kops);
void l2d_fini(struct l2d *d);
/* A datagram arrived on a socket bound to @local from @peer. */
void l2d_input(struct l2d *d, const struct l2d_addr *local, const struct l2d_addr *peer,
	       uint8_t *buf, size_t len);
/* Tear every tunnel down (StopCCN 6), e.g. on SIGTERM. */
void l2d_shutdown(struct l2d *d);

/* Same host (and port when @port); an unset address matches nothing. */
bool l2d_addr_eq(const struct l2d_addr *a, const struct l2d_addr *b, bool port);
void l2d_reap_later(struct l2d *d);
/*
 * A Tunnel or Session ID (RFC 2661 section 3.1: 0 is none) that @taken
 * says is free: one of 64 random draws, else the lowest; 0 when all are.
 */
uint16_t l2d_alloc_id(struct l2d *d, bool (*taken)(const struct l2d *d, uint16_t id));
const char *l2d_end_name(enum l2d_end e);
void l2d_addr_str(const struct l2d_addr *a, char *buf, size_t len, bool port);
uint16_t l2d_port(const struct l2d_addr *a);	/* host order, 0 when unset */
void l2d_set_port(struct l2d_addr *a, uint16_t port);	/* host order */
/* @out from an address's 4 or 16 bytes and @port; false (and empty) for another @len */
bool l2d_addr_set(struct l2d_addr *out, const void *bytes, unsigned int len, uint16_t port);


/* The rate limiter's verdict (pass when off or unavailable). */
unsigned int l2d_rl_check(struct l2d *d, const struct l2d_rlreq *q, struct l2d_rlans *a);
unsigned int l2d_rl_count(struct l2d *d, unsigned int msg, const struct l2d_rlans *a);

/* CLOCK_MONOTONIC in microseconds: a login's step times, never a timer */
uint64_t l2d_mono_us(void);

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


#endif
