/* SPDX-License-Identifier: GPL-2.0 */
/*
 * l2tpseld configuration: a file of "keyword value..." lines (Documentation/
 * l2tpseld.md, contrib/l2tpseld.conf.example); every line can also be given
 * on the command line with -o 'LINE'.
 */
#ifndef L2D_CONF_H
#define L2D_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* proxy-lcp-plugin's default: where make install puts it with PREFIX=/usr */
#ifndef L2D_PROXY_LCP_PLUGIN
#define L2D_PROXY_LCP_PLUGIN	"/usr/lib/l2tpsel/pppd_proxy_lcp.so"
#endif
#define L2D_NAME_MAX	64	/* L2TPSEL_NAME_MAX, with the NUL */
#define L2D_USER_MAX	256
#define L2D_SECRET_MAX	64
#define L2D_MAX_LISTEN	8
#define L2D_MAX_SECRETS	64
#define L2D_MAX_ROUTES	32
#define L2D_MAX_TGMAP	64
#define L2D_MAX_ACCESS	8	/* "access pppoe" interfaces */
#define L2D_MAX_SERVICES 8	/* service names of one */
#define L2D_MAX_AL_PROFILES 8	/* access-line PROFILE... */
#define L2D_RL_MSGS	6	/* enum l2tpsel_rl_msg: ANY .. PPPOE */
#define L2D_MAX_RADIUS	4	/* radius-server lines */
/* Tunnel or session IDs the LNS role may hold: half, the rest is the LAC role's (S-SEC-7) */
#define L2D_LNS_IDS	32767
#define L2D_SOCK_RCVBUF	(4u << 20)	/* socket-rcvbuf's default, bytes */

/*
 * How long an owed acknowledgement waits for a message to carry it before a
 * ZLB goes (RFC 2661 §5.8: the ack piggybacks; a ZLB only when there is
 * nothing to send).  Not 0: the LAC answers SCCCN's ack with its ICRQ at
 * once, and an immediate ZLB races with what the LAC does right after
 * sending SCCCN.  xl2tpd moves the tunnel to a new connected UDP socket
 * there; a ZLB that reaches its old socket first is read after the ICRP that
 * reached the new one, and dropped as "out of order control packet (got 1,
 * expected 2)".  Far below the peer's 1 s retransmission timer.
 */
#define L2D_ACK_DELAY_MS	100

enum l2d_lns_mode {
	L2D_LNS_NORMAL,
	L2D_LNS_SILENT,			/* test: answer nothing at all */
	L2D_LNS_SILENT_AFTER_ZLB,	/* test: ack ICRQ with a ZLB, never ICRP */
	L2D_LNS_CDN,			/* test: answer every ICRQ with a CDN */
};

enum l2d_kernel { L2D_KERNEL_NETLINK, L2D_KERNEL_NONE };
/* What an access call's ICRQ gives as Calling Number. */
enum l2d_calling { L2D_CALLING_MAC, L2D_CALLING_CIRCUIT_ID, L2D_CALLING_REMOTE_ID };

/*
 * pado-delay (S-OPS-1): from @sessions subscribers of the agent on, a PADO
 * waits @ms, or is not sent at all (L2D_PADO_NONE).
 */
#define L2D_PADO_STEPS		8
#define L2D_PADO_MAX_MS		30000
#define L2D_PADO_NONE		UINT32_MAX
struct l2d_pado_step {
	uint32_t sessions;
	uint32_t ms;			/* L2D_PADO_NONE: no PADO */
};

/*
 * "access pppoe IFNAME [service NAME...] [ac-name NAME] [path-mtu N]
 * [path-family ipv4|ipv6] [pado-delay SPEC]"
 */
struct l2d_access_conf {
	char ifname[16];
	char ac_name[L2D_NAME_MAX];	/* "" = the hostname */
	char services[L2D_MAX_SERVICES][L2D_NAME_MAX];
	unsigned int n_services;	/* 0: any service */
	/* S-MTU-1: the path to the LNS its calls may take (mtu.h); 1500 */
	uint16_t path_mtu;
	bool path_ipv6;			/* an LNS may be reached over IPv6; default yes */
	struct l2d_pado_step pado[L2D_PADO_STEPS];	/* by rising session count */
	unsigned int n_pado;		/* 0: PADO at once */
};
/* The tunnel sockets' IP_MTU_DISCOVER ("tunnel-df"). */
enum l2d_tunnel_df { L2D_DF_CLEAR, L2D_DF_SET, L2D_DF_KERNEL };
enum l2d_dataplane { L2D_DP_NONE, L2D_DP_KERNEL };

/* "radius-server ADDR [port N] secret SECRET" */
struct l2d_radius_conf {
	struct sockaddr_storage addr;
	socklen_t len;
	uint16_t acct_port;		/* the address's accounting port */
	char secret[129];		/* RAD_SECRET_MAX, with the NUL */
};

/* "radius-das-client ADDR secret SECRET": who may send Disconnect-Requests */
#define L2D_MAX_DAS_CLIENTS	4
struct l2d_das_client {
	struct sockaddr_storage addr;	/* its port is not compared */
	socklen_t len;
	char secret[129];
};

struct l2d_secret_ent {
	char match[L2D_NAME_MAX];	/* LAC: tunnel name or "*"; LNS: Host Name or "*" */
	char secret[L2D_SECRET_MAX];
	bool lns;
};

/* kernel none: the candidates a login tries, in order (a stand-in for selection) */
struct l2d_route {
	char profile[L2D_NAME_MAX];	/* "*" = any */
	char tunnel[L2D_NAME_MAX];
	struct sockaddr_storage remote, local;
	socklen_t remote_len, local_len;
};

struct l2d_tgmap {
	struct sockaddr_storage addr;
	socklen_t len;
	char tgroup[L2D_NAME_MAX];
};

#define L2D_METRICS_PORT	9717	/* metrics ADDR without a port */

struct l2d_conf {
	char hostname[L2D_NAME_MAX];
	uint16_t port;				/* listen lines' UDP port, 1701 */
	uint16_t lac_port;			/* LAC tunnels' source port; 0: the kernel's choice */
	struct sockaddr_storage listen[L2D_MAX_LISTEN];	/* LNS role */
	socklen_t listen_len[L2D_MAX_LISTEN];
	unsigned int n_listen;
	char socket_path[108];			/* LAC API, "" = none */
	uint16_t agent_id;
	enum l2d_kernel kernel;
	enum l2d_dataplane dataplane;
	char netns[64];
	uint32_t retries_setup, retries_established;
	uint32_t rto_initial_ms, rto_max_ms;
	uint32_t ack_delay_ms;		/* a ZLB waits this long for a reply to carry the ack */
	uint32_t sccrq_timeout_ms, icrq_timeout_ms;
	uint32_t icrq_timeout_max_ms;	/* a call waiting behind the peer's backlog */
	uint32_t hello_ms;
	uint32_t lns_idle_ms;		/* LNS: a tunnel without calls is closed after; 0 never */
	uint32_t lns_max_setup;		/* LNS: tunnels not yet established, in all */
	uint32_t lns_max_setup_per_peer;	/* ... from one address */
	uint32_t lns_max_calls_per_peer;	/* LNS: calls from one address */
	uint32_t lns_max_calls, lns_max_tunnels, lns_max_tunnels_per_peer;
	uint32_t lac_tunnels_per_dest;	/* control connections a destination may have */
	uint32_t sock_rcvbuf;		/* bytes of receive buffer of a UDP or PPPoE socket; 0 the kernel's */
	uint16_t recv_window;
	bool hide_avps, tie_breaker;
	bool access_pap_handover;	/* the held PAP request to the LNS */
	bool data_seq;			/* LAC: Sequencing Required in ICCN, numbered data */
	enum l2d_tunnel_df tunnel_df;	/* outer DF of what the tunnel sockets send */
	bool drain;			/* LAC: no new login, no PADO; sessions stay (S-OPS-1) */
	bool fd_store;			/* descriptors and snapshot in systemd's store (S-OPS-2) */
	bool lns_auth_required;		/* LNS: refuse a LAC that does not authenticate */
	bool proxy_lcp;			/* LNS: take acceptable proxied LCP and PAP (§4.4.5) */
	struct l2d_secret_ent secrets[L2D_MAX_SECRETS];
	unsigned int n_secrets;
	struct l2d_route routes[L2D_MAX_ROUTES];
	unsigned int n_routes;
	struct l2d_tgmap tgmap[L2D_MAX_TGMAP];
	unsigned int n_tgmap;
	bool tgroup_by_address;			/* default tgroup = local address */
	enum l2d_lns_mode lns_mode;
	uint16_t lns_cdn_result, lns_cdn_error;
	uint32_t test_chassis_limit;			/* kernel none: LNS admission limit */
	bool ratelimit;				/* ask RL_CHECK */
	uint8_t test_rl_verdict[L2D_RL_MSGS];		/* kernel none: verdict by enum l2tpsel_rl_msg */
	bool test_mode;				/* "test-mode yes": test switches allowed */
	char test_switch[48];			/* the first test switch read, "" = none */
	char api_group[L2D_NAME_MAX];		/* API: a group allowed besides root and us */
	char pppd_path[128];
	char pppd_options[256];			/* LAC role's extra pppd arguments */
	char lns_pppd_options[256];		/* LNS role's extra pppd arguments */
	char pppd_file[256];			/* "file PATH" for pppd, LAC role */
	char lns_pppd_file[256];		/* ... LNS role ("" = pppd_file) */
	char proxy_lcp_plugin[256];		/* LNS: pppd_proxy_lcp.c built, for proxy_lcp */
	struct l2d_access_conf access[L2D_MAX_ACCESS];	/* the access role */
	unsigned int n_access;
	bool access_pap, access_chap;	/* access-auth */
	enum l2d_calling access_calling;	/* access-calling-number */
	/* access-line: RFC 5515 AVPs in the ICRQ of every profile (all) or of
	 * these (S-AL-1) */
	bool access_line_all;
	char access_line_profiles[L2D_MAX_AL_PROFILES][L2D_NAME_MAX];
	unsigned int n_access_line_profiles;
	/* lns-switch: calls arriving at the LNS role are switched to another
	 * LNS (S-LTS-1), every call (all) or those whose login selects one of
	 * these profiles; lns-switch-hops: the hop limit (S-LTS-2) */
	bool lns_switch_all;
	char lns_switch_profiles[L2D_MAX_AL_PROFILES][L2D_NAME_MAX];
	unsigned int n_lns_switch_profiles;
	uint32_t lns_switch_hops;
	uint32_t access_auth_timeout_ms;
	/* PPPoE discovery per second (discrate.h); 0: unlimited */
	uint32_t padi_rate, padi_rate_per_line, padi_rate_per_mac;
	struct l2d_radius_conf radius[L2D_MAX_RADIUS];	/* in the order they are tried */
	unsigned int n_radius;
	uint32_t radius_timeout_ms;		/* one try */
	uint32_t radius_tries;			/* tries per server */
	uint32_t radius_dead_ms;		/* a server that did not answer is skipped */
	bool radius_fallback;			/* no server answered: the domain map; else refuse */
	bool radius_accounting;			/* Start and Stop of each access call */
	uint32_t radius_interim_ms;		/* Interim-Update period; 0: none */
	bool radius_acct_tunnel;		/* RFC 2867 Tunnel- and Tunnel-Link-Start/Stop */
	uint32_t radius_profile_vendor;		/* the attribute naming the profile */
	uint8_t radius_profile_type;
	char nas_identifier[L2D_NAME_MAX];	/* "" = the hostname */
	struct sockaddr_storage das_addr;	/* radius-das: where Disconnect-Requests come */
	socklen_t das_len;			/* 0: no server of dynamic authorization */
	struct l2d_das_client das_clients[L2D_MAX_DAS_CLIENTS];
	unsigned int n_das_clients;
	uint32_t das_window_ms;			/* radius-das-event-window: Event-Timestamp's */
	bool das_require_ts;			/* radius-das-require-event-timestamp */
	struct sockaddr_storage metrics_addr;	/* metrics: the HTTP endpoint (S-OPS-3) */
	socklen_t metrics_len;			/* 0: none */
	bool metrics_remote;			/* metrics-remote: may listen off loopback */
	int log_level;
	bool foreground;
};

void l2d_conf_defaults(struct l2d_conf *c);
/* One line. Return: 0, or -1 with @err set ("unknown keyword ..."). */
int l2d_conf_line(struct l2d_conf *c, const char *line, char *err, size_t errlen);
/* A whole file; @err gets "FILE:LINE: message". */
int l2d_conf_file(struct l2d_conf *c, const char *path, char *err, size_t errlen);
/* Cross-field checks after everything is read. */
int l2d_conf_check(struct l2d_conf *c, char *err, size_t errlen);

/* The secret lines a configuration holds (tunnel, RADIUS, DAS client): -o refuses any. */
unsigned int l2d_conf_n_secrets(const struct l2d_conf *c);
int l2d_parse_addr(const char *s, uint16_t port, struct sockaddr_storage *ss, socklen_t *len);
/* "10", "10s", "500ms" -> milliseconds. Return: 0 or -1. */
int l2d_parse_duration(const char *s, uint32_t *ms);

/*
 * pppd's options file and extra arguments for a session of the LNS role
 * (@lns) or the LAC role: the LNS role gets lns-pppd-file (else pppd-file)
 * and lns-pppd-options only, never the LAC's pppd-options.  The arguments
 * are split into @buf (@cap bytes) and pointed to from @argv (room for @max
 * entries, NULL-terminated).  Return: their number, or -1 when they do not
 * fit.  *@file gets the options file or NULL.
 */
int l2d_conf_pppd_args(const struct l2d_conf *c, bool lns, const char **file, char *buf,
		       size_t cap, char **argv, int max);

/*
 * SIGHUP: take over @fresh (read and checked like at start) into @run, but
 * for the keys that need a restart (sockets, identity, kernel, data path):
 * those keep their running values, and @kept gets their names ("port,
 * listen"; "" when none changed).
 */
void l2d_conf_reload(struct l2d_conf *run, const struct l2d_conf *fresh, char *kept, size_t keptlen);

/* The secret for a LAC tunnel name or an LNS peer Host Name, or NULL. */
/* access-line: whether a call of @profile sends the RFC 5515 AVPs (S-AL-1). */
bool l2d_conf_access_line(const struct l2d_conf *c, const char *profile);
/* lns-switch (S-LTS-1): whether it is on at all, and whether @profile switches. */
bool l2d_conf_lns_switch_on(const struct l2d_conf *c);
bool l2d_conf_lns_switch(const struct l2d_conf *c, const char *profile);
const char *l2d_conf_secret(const struct l2d_conf *c, bool lns, const char *name);

/*
 * The PADO delay of access interface @a with @sessions subscribers: ms, or
 * L2D_PADO_NONE for no PADO (S-OPS-1).
 */
uint32_t l2d_pado_delay(const struct l2d_access_conf *a, uint32_t sessions);
/* "MS" or "N:MS[,N:MS...]" (MS a number of ms or "off") into @a. Return: 0 or -1, @err. */
int l2d_pado_parse(struct l2d_access_conf *a, const char *spec, char *err, size_t errlen);

#endif
