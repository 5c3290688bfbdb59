// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld configuration file: one directive per line, "#" starts a comment.
 * Every refusal names the keyword and the bound it broke.  This file: the
 * defaults, the generic keyword tables, the table of the keywords with a
 * syntax of their own (their handlers by area: config_access.c,
 * config_radius.c, config_tunnel.c; the words: config_word.c), the checks
 * and the SIGHUP merge.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf.h"
#include "config_int.h"
#include "l2d_conf.h"
#include "reliable.h"

/*
 * the longest line: "access pppoe IF service" 8 names "ac-name NAME
 * path-mtu N path-family F", 18 words
 */
#define MAX_TOK 20

void l2d_conf_defaults(struct l2d_conf *c)
{
	memset(c, 0, sizeof(*c));
	if (gethostname(c->hostname, sizeof(c->hostname) - 1) || !c->hostname[0])
		strcpy(c->hostname, "l2tpseld");
	c->port = 1701;
	strcpy(c->socket_path, "/run/l2tpseld.sock");
	c->agent_id = 1;
	c->kernel = L2D_KERNEL_NETLINK;
	c->dataplane = L2D_DP_NONE;
	c->retries_setup = L2TP_REL_MAX_RETRIES;
	c->retries_established = L2TP_REL_MAX_RETRIES;
	c->rto_initial_ms = L2TP_REL_RTO_INITIAL_MS;
	c->rto_max_ms = L2TP_REL_RTO_CAP_MIN_MS;
	c->ack_delay_ms = L2D_ACK_DELAY_MS;
	c->sccrq_timeout_ms = 10000;
	c->icrq_timeout_ms = 10000;
	c->icrq_timeout_max_ms = 60000;
	c->hello_ms = 60000;
	c->access_pap = c->access_chap = true;
	c->access_auth_timeout_ms = 30000;
	c->padi_rate = 500;
	c->padi_rate_per_line = 10;
	c->padi_rate_per_mac = 5;
	c->radius_timeout_ms = 3000;
	c->radius_tries = 3;
	c->radius_dead_ms = 60000;
	c->radius_profile_vendor = 2636;	/* Juniper's Tunnel-Group, 26-2636-64 */
	c->radius_profile_type = 64;
	c->das_window_ms = 300000;		/* RFC 5176's replay window: 300 s */
	c->das_require_ts = true;
	c->lns_idle_ms = 60000;
	c->lns_max_setup = 256;
	c->lns_max_setup_per_peer = 8;
	/* S-SEC-7: the LNS role takes at most half of each ID space */
	c->lns_max_calls_per_peer = 8192;
	c->lns_max_calls = 16384;
	c->lns_switch_hops = 4;
	c->lns_max_tunnels = 4096;
	c->lns_max_tunnels_per_peer = 64;
	c->recv_window = 16;
	c->lac_tunnels_per_dest = 1;
	c->sock_rcvbuf = L2D_SOCK_RCVBUF;
	c->tie_breaker = true;
	c->ratelimit = true;
	c->tgroup_by_address = true;
	c->lns_cdn_result = 2;
	c->lns_cdn_error = 0;
	strcpy(c->pppd_path, "/usr/sbin/pppd");
	strcpy(c->proxy_lcp_plugin, L2D_PROXY_LCP_PLUGIN);
	c->log_level = 1;
}

/* duration keywords: keyword, offset, minimum */
struct dur_kw {
	const char *kw;
	size_t off;
	uint32_t min;
};

static const struct dur_kw dur_kws[] = {
	{ "rto-initial", offsetof(struct l2d_conf, rto_initial_ms), 10 },
	{ "rto-max", offsetof(struct l2d_conf, rto_max_ms), L2TP_REL_RTO_CAP_MIN_MS },
	{ "ack-delay", offsetof(struct l2d_conf, ack_delay_ms), 0 },
	{ "sccrq-timeout", offsetof(struct l2d_conf, sccrq_timeout_ms), 100 },
	{ "icrq-timeout", offsetof(struct l2d_conf, icrq_timeout_ms), 100 },
	{ "icrq-timeout-max", offsetof(struct l2d_conf, icrq_timeout_max_ms), 100 },
	{ "hello-interval", offsetof(struct l2d_conf, hello_ms), 0 },
	{ "lns-idle-timeout", offsetof(struct l2d_conf, lns_idle_ms), 0 },
	{ "access-auth-timeout", offsetof(struct l2d_conf, access_auth_timeout_ms), 1000 },
	{ "radius-timeout", offsetof(struct l2d_conf, radius_timeout_ms), 100 },
	{ "radius-dead-time", offsetof(struct l2d_conf, radius_dead_ms), 0 },
	{ "radius-acct-interim", offsetof(struct l2d_conf, radius_interim_ms), 0 },
	{ "radius-das-event-window", offsetof(struct l2d_conf, das_window_ms), 1000 },
};

/* number keywords: keyword, offset, range, size (u32 or u16) */
struct cnt_kw {
	const char *kw;
	size_t off;
	uint32_t min, max;
	unsigned int width;
};

static const struct cnt_kw cnt_kws[] = {
	{ "lns-max-setup", offsetof(struct l2d_conf, lns_max_setup), 1, L2D_LNS_IDS, 4 },
	{ "lns-max-setup-per-peer", offsetof(struct l2d_conf, lns_max_setup_per_peer), 1, L2D_LNS_IDS, 4 },
	{ "lns-max-calls-per-peer", offsetof(struct l2d_conf, lns_max_calls_per_peer), 1, L2D_LNS_IDS, 4 },
	{ "lns-max-calls", offsetof(struct l2d_conf, lns_max_calls), 1, L2D_LNS_IDS, 4 },
	{ "lns-max-tunnels", offsetof(struct l2d_conf, lns_max_tunnels), 1, L2D_LNS_IDS, 4 },
	{ "lns-max-tunnels-per-peer", offsetof(struct l2d_conf, lns_max_tunnels_per_peer), 1, L2D_LNS_IDS, 4 },
	{ "pppoe-padi-rate", offsetof(struct l2d_conf, padi_rate), 0, 1000000, 4 },
	{ "pppoe-padi-rate-per-line", offsetof(struct l2d_conf, padi_rate_per_line), 0, 1000000, 4 },
	{ "pppoe-padi-rate-per-mac", offsetof(struct l2d_conf, padi_rate_per_mac), 0, 1000000, 4 },
	{ "radius-tries", offsetof(struct l2d_conf, radius_tries), 1, 10, 4 },
	{ "port", offsetof(struct l2d_conf, port), 1, 65535, 2 },
	{ "lac-port", offsetof(struct l2d_conf, lac_port), 0, 65535, 2 },
	{ "agent-id", offsetof(struct l2d_conf, agent_id), 1, 65535, 2 },
	{ "receive-window", offsetof(struct l2d_conf, recv_window), 1, L2TP_REL_WINDOW_MAX, 2 },
	{ "lac-tunnels-per-destination", offsetof(struct l2d_conf, lac_tunnels_per_dest), 1, 64, 4 },
	{ "socket-rcvbuf", offsetof(struct l2d_conf, sock_rcvbuf), 0, 1u << 30, 4 },
	{ "lns-switch-hops", offsetof(struct l2d_conf, lns_switch_hops), 1, 255, 4 },
};

/* 127.0.0.0/8, ::1 and ::ffff:127.0.0.0/104 */
static bool addr_loopback(const struct sockaddr_storage *ss)
{
	const struct sockaddr_in *in = (const struct sockaddr_in *)ss;
	const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)ss;

	if (ss->ss_family == AF_INET)
		return (ntohl(in->sin_addr.s_addr) >> 24) == 127;
	if (IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr))
		return true;
	return IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr) && in6->sin6_addr.s6_addr[12] == 127;
}

unsigned int l2d_conf_n_secrets(const struct l2d_conf *c)
{
	return c->n_secrets + c->n_radius + c->n_das_clients;
}

/*
 * pppd-options / lns-pppd-options: the words joined by blanks into @dst.
 * pppd's "password" would put a secret on pppd's command line, which every
 * local user reads in /proc/PID/cmdline: it belongs in the options file.
 */
static int pppd_words(char *dst, size_t cap, char **t, int n, char *err, size_t errlen)
{
	int k;

	dst[0] = '\0';
	for (k = 1; k < n; k++) {
		if (!strcmp(t[k], "password"))
			return cfg_err(err, errlen, "%s: \"password\" would show on pppd's command line "
				    "(/proc/PID/cmdline): put it in the pppd options file (mode 0600)", t[0]);
		if (strlen(dst) + strlen(t[k]) + 2 > cap)
			return cfg_err(err, errlen, "%s: longer than %zu bytes", t[0], cap - 1);
		if (k > 1)
			strcat(dst, " ");
		strcat(dst, t[k]);
	}
	return 0;
}

/* yes/no keywords: keyword, offset of the bool */
struct bool_kw {
	const char *kw;
	size_t off;
};

static const struct bool_kw bool_kws[] = {
	{ "radius-accounting", offsetof(struct l2d_conf, radius_accounting) },
	{ "radius-accounting-tunnel", offsetof(struct l2d_conf, radius_acct_tunnel) },
	{ "radius-das-require-event-timestamp", offsetof(struct l2d_conf, das_require_ts) },
	{ "test-mode", offsetof(struct l2d_conf, test_mode) },
	{ "metrics-remote", offsetof(struct l2d_conf, metrics_remote) },
	{ "ratelimit", offsetof(struct l2d_conf, ratelimit) },
	{ "hide-avps", offsetof(struct l2d_conf, hide_avps) },
	{ "tie-breaker", offsetof(struct l2d_conf, tie_breaker) },
	{ "lns-auth-required", offsetof(struct l2d_conf, lns_auth_required) },
	{ "proxy-lcp", offsetof(struct l2d_conf, proxy_lcp) },
	{ "tgroup-by-address", offsetof(struct l2d_conf, tgroup_by_address) },
	{ "data-sequencing", offsetof(struct l2d_conf, data_seq) },
	{ "access-pap-handover", offsetof(struct l2d_conf, access_pap_handover) },
	{ "drain", offsetof(struct l2d_conf, drain) },
	{ "fd-store", offsetof(struct l2d_conf, fd_store) },
};

/* one-word keywords: keyword, offset and size of the string, what it is */
struct word_kw {
	const char *kw;
	size_t off, size;
	const char *what;
};

#define WORD(kw, field, what) { kw, offsetof(struct l2d_conf, field), \
				sizeof(((struct l2d_conf *)0)->field), what }

static const struct word_kw word_kws[] = {
	WORD("hostname", hostname, "one name"),
	WORD("nas-identifier", nas_identifier, "a name"),
	WORD("netns", netns, "a name"),
	WORD("api-group", api_group, "a group name or number"),
	WORD("pppd", pppd_path, "a path"),
	WORD("pppd-file", pppd_file, "a path"),
	WORD("lns-pppd-file", lns_pppd_file, "a path"),
	WORD("proxy-lcp-plugin", proxy_lcp_plugin, "a path"),
};

/* keyword VALUE, one of a list of words: keyword, offset of the int, words */
struct enum_kw {
	const char *kw;
	size_t off;
	const char *const words[4];
	const int values[4];
};

static const struct enum_kw enum_kws[] = {
	{ "kernel", offsetof(struct l2d_conf, kernel), { "netlink", "none" },
	  { L2D_KERNEL_NETLINK, L2D_KERNEL_NONE } },
	{ "dataplane", offsetof(struct l2d_conf, dataplane), { "none", "kernel" },
	  { L2D_DP_NONE, L2D_DP_KERNEL } },
	{ "access-calling-number", offsetof(struct l2d_conf, access_calling),
	  { "mac", "circuit-id", "remote-id" },
	  { L2D_CALLING_MAC, L2D_CALLING_CIRCUIT_ID, L2D_CALLING_REMOTE_ID } },
	{ "tunnel-df", offsetof(struct l2d_conf, tunnel_df), { "clear", "set", "kernel" },
	  { L2D_DF_CLEAR, L2D_DF_SET, L2D_DF_KERNEL } },
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

_Static_assert(sizeof(enum l2d_kernel) == sizeof(int) && sizeof(enum l2d_dataplane) == sizeof(int) &&
	       sizeof(enum l2d_calling) == sizeof(int) && sizeof(enum l2d_tunnel_df) == sizeof(int),
	       "enum_kws store ints");

/* The generic kinds of line (the tables above); 1 when @t[0] is none of them. */
static int generic_line(struct l2d_conf *c, char **t, int n, char *err, size_t errlen)
{
	char *base = (char *)c;
	uint32_t v;
	unsigned int i, k;

	for (i = 0; i < N_OF(dur_kws); i++) {
		if (strcmp(t[0], dur_kws[i].kw))
			continue;
		if (n != 2 || l2d_parse_duration(t[1], &v) || v < dur_kws[i].min)
			return cfg_err(err, errlen, "%s: expected a duration (e.g. 10s, 500ms) of at least %u ms",
				    t[0], dur_kws[i].min);
		*(uint32_t *)(base + dur_kws[i].off) = v;
		return 0;
	}
	for (i = 0; i < N_OF(cnt_kws); i++) {
		if (strcmp(t[0], cnt_kws[i].kw))
			continue;
		if (n != 2 || cfg_u32(t[1], cnt_kws[i].min, cnt_kws[i].max, &v))
			return cfg_err(err, errlen, "%s: expected %u..%u", t[0], cnt_kws[i].min,
				    cnt_kws[i].max);
		if (cnt_kws[i].width == sizeof(uint16_t))
			*(uint16_t *)(base + cnt_kws[i].off) = (uint16_t)v;
		else
			*(uint32_t *)(base + cnt_kws[i].off) = v;
		return 0;
	}
	for (i = 0; i < N_OF(bool_kws); i++) {
		if (strcmp(t[0], bool_kws[i].kw))
			continue;
		if (n != 2 || cfg_bool(t[1], (bool *)(base + bool_kws[i].off)))
			return cfg_err(err, errlen, "%s: expected yes or no", t[0]);
		return 0;
	}
	for (i = 0; i < N_OF(word_kws); i++) {
		if (strcmp(t[0], word_kws[i].kw))
			continue;
		if (n != 2 || cfg_name(base + word_kws[i].off, word_kws[i].size, t[1]))
			return cfg_err(err, errlen, "%s: expected %s of 1..%zu bytes", t[0],
				    word_kws[i].what, word_kws[i].size - 1);
		return 0;
	}
	for (i = 0; i < N_OF(enum_kws); i++) {
		const struct enum_kw *e = &enum_kws[i];
		char list[64] = "";

		if (strcmp(t[0], e->kw))
			continue;
		for (k = 0; k < N_OF(e->words) && e->words[k]; k++) {
			if (n == 2 && !strcmp(t[1], e->words[k])) {
				*(int *)(base + e->off) = e->values[k];
				return 0;
			}
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 k ? (k + 1 < N_OF(e->words) && e->words[k + 1] ? ", " : " or ") : "",
				 e->words[k]);
		}
		return cfg_err(err, errlen, "%s: expected %s", t[0], list);
	}
	return 1;
}

static int socket_line(struct l2d_conf *c, char **t, int n, char *err, size_t errlen)
{
	if (n != 2 || (strcmp(t[1], "none") && cfg_name(c->socket_path, sizeof(c->socket_path), t[1])))
		return cfg_err(err, errlen, "socket: expected a path of at most %zu bytes, or none",
			    sizeof(c->socket_path) - 1);
	if (!strcmp(t[1], "none"))
		c->socket_path[0] = '\0';
	return 0;
}

/* Older configurations: the kernel ends a dead agent's counts now. */
static int journal_line(struct l2d_conf *c, char **t, int n, char *err, size_t errlen)
{
	return n != 2 ? cfg_err(err, errlen, "journal: expected a path, or none (ignored)") : 0;
}

/* listen ADDR [port N] */
static int listen_line(struct l2d_conf *c, char **t, int n, char *err, size_t errlen)
{
	uint32_t port = 0;

	if ((n != 2 && n != 4) || (n == 4 && (strcmp(t[2], "port") || cfg_u32(t[3], 1, 65535, &port))))
		return cfg_err(err, errlen, "listen: usage: listen ADDRESS [port 1..65535]");
	if (c->n_listen == L2D_MAX_LISTEN)
		return cfg_err(err, errlen, "listen: at most %d addresses", L2D_MAX_LISTEN);
	if (l2d_parse_addr(t[1], (uint16_t)port, &c->listen[c->n_listen], &c->listen_len[c->n_listen]))
		return cfg_err(err, errlen, "listen: \"%s\" is not an IPv4 or IPv6 address", t[1]);
	c->n_listen++;
	return 0;
}

static int retries_line(struct l2d_conf *c, char **t, int n, char *err, size_t errlen)
{
	uint32_t v;

	if (n != 2 || cfg_u32(t[1], 1, 100, &v))
		return cfg_err(err, errlen, "%s: expected 1..100", t[0]);
	*(t[0][8] == 's' ? &c->retries_setup : &c->retries_established) = v;
	return 0;
}

/* test-ratelimit-verdict sccrq|icrq|login|attempt|pppoe pass|reject|drop */
static int test_rl_verdict_line(struct l2d_conf *c, char **t, int n, char *err, size_t errlen)
{
	static const char *const msgs[L2D_RL_MSGS] = { "", "sccrq", "icrq", "login",
						       "attempt", "pppoe" };
	static const char *const verdicts[] = { "pass", "reject", "drop" };
	unsigned int m, k;

	for (m = 1; m < L2D_RL_MSGS && n == 3 && strcmp(t[1], msgs[m]); m++)
		;
	for (k = 0; k < 3 && n == 3 && strcmp(t[2], verdicts[k]); k++)
		;
	if (n != 3 || m == L2D_RL_MSGS || k == 3)
		return cfg_err(err, errlen, "test-ratelimit-verdict: usage: test-ratelimit-verdict "
			    "{ sccrq | icrq | login | attempt | pppoe } { pass | reject | drop }");
	c->test_rl_verdict[m] = (uint8_t)k;
	cfg_test_switch(c, "test-ratelimit-verdict", NULL);
	return 0;
}

static int test_chassis_limit_line(struct l2d_conf *c, char **t, int n, char *err, size_t errlen)
{
	if (n != 2 || cfg_u32(t[1], 0, 1000000, &c->test_chassis_limit))
		return cfg_err(err, errlen, "test-chassis-limit: expected 0..1000000 (0 = none)");
	cfg_test_switch(c, "test-chassis-limit", NULL);
	return 0;
}

static int pppd_options_line(struct l2d_conf *c, char **t, int n, char *err, size_t errlen)
{
	char *dst = t[0][0] == 'l' ? c->lns_pppd_options : c->pppd_options;

	return pppd_words(dst, sizeof(c->pppd_options), t, n, err, errlen);
}

static int log_level_line(struct l2d_conf *c, char **t, int n, char *err, size_t errlen)
{
	uint32_t v;

	if (n != 2 || cfg_u32(t[1], 0, 2, &v))
		return cfg_err(err, errlen, "log-level: expected 0 (errors), 1 (info) or 2 (debug)");
	c->log_level = (int)v;
	return 0;
}

/* The keywords with a syntax of their own. */
static const struct {
	const char *kw;
	int (*line)(struct l2d_conf *c, char **t, int n, char *err, size_t errlen);
} line_kws[] = {
	{ "listen", listen_line },
	{ "socket", socket_line },
	{ "journal", journal_line },
	{ "radius-server", cfg_radius_line },
	{ "radius-das", cfg_das_line },
	{ "metrics", cfg_metrics_line },
	{ "radius-das-client", cfg_das_client_line },
	{ "radius-profile-attribute", cfg_radius_attr_line },
	{ "radius-fallback", cfg_radius_fallback_line },
	{ "access", cfg_access_line },
	{ "access-auth", cfg_access_auth_line },
	{ "access-line", cfg_access_line_line },
	{ "lns-switch", cfg_lns_switch_line },
	{ "retries-setup", retries_line },
	{ "retries-established", retries_line },
	{ "test-ratelimit-verdict", test_rl_verdict_line },
	{ "test-chassis-limit", test_chassis_limit_line },
	{ "secret", cfg_secret_line },
	{ "lns-secret", cfg_secret_line },
	{ "route", cfg_route_line },
	{ "tgroup-map", cfg_tgroup_map_line },
	{ "lns-mode", cfg_lns_mode_line },
	{ "pppd-options", pppd_options_line },
	{ "lns-pppd-options", pppd_options_line },
	{ "log-level", log_level_line },
};

int l2d_conf_line(struct l2d_conf *c, const char *text, char *err, size_t errlen)
{
	char line[1024], *t[MAX_TOK];
	unsigned int i;
	int n, ret;

	if (strlen(text) >= sizeof(line))
		return cfg_err(err, errlen, "line longer than %zu characters", sizeof(line) - 1);
	strcpy(line, text);
	n = conf_split(line, t, MAX_TOK);
	if (n < 0)
		return cfg_err(err, errlen, "more than %d words", MAX_TOK);
	if (n == 0)
		return 0;
	ret = generic_line(c, t, n, err, errlen);
	if (ret <= 0)
		return ret;
	for (i = 0; i < N_OF(line_kws); i++)
		if (!strcmp(t[0], line_kws[i].kw))
			return line_kws[i].line(c, t, n, err, errlen);
	return cfg_err(err, errlen, "unknown keyword \"%s\"", t[0]);
}

int l2d_conf_file(struct l2d_conf *c, const char *path, char *err, size_t errlen)
{
	char line[1100], msg[200];
	unsigned int no = 0, n_secrets = l2d_conf_n_secrets(c);
	struct stat st;
	FILE *f = fopen(path, "r");

	if (!f)
		return cfg_err(err, errlen, "%s: %s", path, strerror(errno));
	if (fstat(fileno(f), &st)) {
		fclose(f);
		return cfg_err(err, errlen, "%s: %s", path, strerror(errno));
	}
	/*
	 * The file names programs the agent runs as root for each call
	 * (pppd) and holds the secrets: whoever may change it runs code
	 * as root.  Only root and the agent's own user may own it, and
	 * nobody else may write it.  A character device (-c /dev/null) is
	 * not a file anyone rewrites; a pipe (-c <(...)) is ours and 0600.
	 */
	if (!S_ISCHR(st.st_mode) && (st.st_mode & (S_IWGRP | S_IWOTH))) {
		fclose(f);
		return cfg_err(err, errlen, "%s is writable by %s (mode %04o): chmod go-w it", path,
			    (st.st_mode & S_IWGRP) && (st.st_mode & S_IWOTH) ? "group and others" :
			    st.st_mode & S_IWGRP ? "its group" : "others",
			    (unsigned int)(st.st_mode & 07777));
	}
	if (!S_ISCHR(st.st_mode) && st.st_uid != 0 && st.st_uid != geteuid()) {
		fclose(f);
		return cfg_err(err, errlen, "%s is owned by uid %u, neither root nor the agent's user (uid %u): "
			    "chown it", path, (unsigned int)st.st_uid, (unsigned int)geteuid());
	}
	while (fgets(line, sizeof(line), f)) {
		no++;
		if (!strchr(line, '\n') && !feof(f)) {
			fclose(f);
			return cfg_err(err, errlen, "%s:%u: line too long", path, no);
		}
		if (l2d_conf_line(c, line, msg, sizeof(msg))) {
			fclose(f);
			return cfg_err(err, errlen, "%s:%u: %s", path, no, msg);
		}
	}
	fclose(f);
	/* a pipe (-c <(...)) is 0600; a file with secrets must not be world-readable */
	if (l2d_conf_n_secrets(c) > n_secrets && (st.st_mode & S_IRWXO))
		return cfg_err(err, errlen, "%s holds secrets and is open to other users (mode %04o): "
			    "chmod o= it (0600 or 0640)", path, (unsigned int)(st.st_mode & 07777));
	return 0;
}

int l2d_conf_check(struct l2d_conf *c, char *err, size_t errlen)
{
	unsigned int i;

	if (c->rto_max_ms < c->rto_initial_ms)
		return cfg_err(err, errlen, "rto-max (%u ms) is below rto-initial (%u ms)",
			    c->rto_max_ms, c->rto_initial_ms);
	/* the wait behind a backlog is never shorter than the timeout itself */
	if (c->icrq_timeout_max_ms < c->icrq_timeout_ms)
		c->icrq_timeout_max_ms = c->icrq_timeout_ms;
	/* S-SEC-7: no peer can take the IDs of the LAC role */
	if (c->lns_max_tunnels + c->lns_max_setup > L2D_LNS_IDS)
		return cfg_err(err, errlen, "lns-max-tunnels (%u) + lns-max-setup (%u) above %u: the LAC role "
			    "keeps the other half of the tunnel ID space", c->lns_max_tunnels,
			    c->lns_max_setup, L2D_LNS_IDS);
	if (c->ack_delay_ms * 2 > c->rto_initial_ms)
		return cfg_err(err, errlen, "ack-delay (%u ms) is above half of rto-initial (%u ms)",
			    c->ack_delay_ms, c->rto_initial_ms);
	for (i = 0; i < c->n_listen; i++) {
		struct sockaddr_in *a = (struct sockaddr_in *)&c->listen[i];

		if (!a->sin_port)
			a->sin_port = htons(c->port);
	}
	if (c->kernel == L2D_KERNEL_NETLINK && c->n_routes)
		return cfg_err(err, errlen, "route lines are for \"kernel none\" only: with the module, the kernel selects");
	if (c->n_access && c->dataplane != L2D_DP_KERNEL)
		return cfg_err(err, errlen, "access pppoe needs \"dataplane kernel\" (the calls are bridged "
			    "in the kernel)");
	if (l2d_conf_lns_switch_on(c) && (!c->n_listen || c->dataplane != L2D_DP_KERNEL))
		return cfg_err(err, errlen, "lns-switch needs listen (the calls to switch) and "
			    "\"dataplane kernel\" (the two calls are bridged in the kernel)");
	/* the access role asks and accounts; the LNS role accounts (lnsacct.c, S-AL-1) */
	if (c->n_radius && !c->n_access && !l2d_conf_lns_switch_on(c) &&
	    !(c->n_listen && c->radius_accounting))
		return cfg_err(err, errlen, "radius-server is for the access role or the LNS role's "
			    "accounting: no \"access pppoe\" line, nor listen with radius-accounting yes");
	if ((c->das_len || c->n_das_clients) && !c->n_access)
		return cfg_err(err, errlen, "radius-das is for the access role: no \"access pppoe\" line");
	if (c->das_len && !c->n_das_clients)
		return cfg_err(err, errlen, "radius-das needs a radius-das-client line: nobody may send "
			    "a Disconnect-Request");
	if (c->n_das_clients && !c->das_len)
		return cfg_err(err, errlen, "radius-das-client needs a radius-das line (where to listen)");
	/* the endpoint has no authentication and no TLS: off the host only when asked */
	if (c->metrics_len && !c->metrics_remote && !addr_loopback(&c->metrics_addr))
		return cfg_err(err, errlen, "metrics: not a loopback address: the endpoint has no "
			    "authentication, so listening off this host needs \"metrics-remote yes\"");
	if (c->test_switch[0] && !c->test_mode)
		return cfg_err(err, errlen, "%s is a test switch: refused without \"test-mode yes\" "
			    "(never on a production agent)", c->test_switch);
	return 0;
}

int l2d_conf_pppd_args(const struct l2d_conf *c, bool lns, const char **file, char *buf,
		       size_t cap, char **argv, int max)
{
	const char *words = lns ? c->lns_pppd_options : c->pppd_options;
	char *p, *save = NULL;
	int n = 0;

	*file = lns && c->lns_pppd_file[0] ? c->lns_pppd_file : c->pppd_file[0] ? c->pppd_file : NULL;
	if (strlen(words) >= cap || max < 1)
		return -1;
	strcpy(buf, words);
	for (p = strtok_r(buf, " ", &save); p; p = strtok_r(NULL, " ", &save)) {
		if (n >= max - 1)
			return -1;
		argv[n++] = p;
	}
	argv[n] = NULL;
	return n;
}

/* keep @field of @run when @fresh has another value, and say so in @kept */
#define KEEP(field, name) do {							\
	if (memcmp(&run->field, &fresh->field, sizeof(run->field))) {		\
		memcpy(&keep.field, &run->field, sizeof(run->field));		\
		snprintf(kept + strlen(kept), keptlen - strlen(kept), "%s%s",	\
			 kept[0] ? ", " : "", name);				\
	}									\
} while (0)

void l2d_conf_reload(struct l2d_conf *run, const struct l2d_conf *fresh, char *kept, size_t keptlen)
{
	struct l2d_conf keep = *fresh;

	kept[0] = '\0';
	KEEP(port, "port");
	KEEP(lac_port, "lac-port");
	if (run->n_listen != fresh->n_listen ||
	    memcmp(run->listen, fresh->listen, sizeof(run->listen[0]) * run->n_listen)) {
		memcpy(keep.listen, run->listen, sizeof(run->listen));
		memcpy(keep.listen_len, run->listen_len, sizeof(run->listen_len));
		keep.n_listen = run->n_listen;
		snprintf(kept + strlen(kept), keptlen - strlen(kept), "%slisten", kept[0] ? ", " : "");
	}
	KEEP(socket_path, "socket");
	if (run->metrics_len != fresh->metrics_len ||
	    memcmp(&run->metrics_addr, &fresh->metrics_addr, sizeof(run->metrics_addr))) {
		keep.metrics_addr = run->metrics_addr;
		keep.metrics_len = run->metrics_len;
		snprintf(kept + strlen(kept), keptlen - strlen(kept), "%smetrics", kept[0] ? ", " : "");
	}
	KEEP(metrics_remote, "metrics-remote");
	KEEP(api_group, "api-group");
	KEEP(agent_id, "agent-id");
	KEEP(kernel, "kernel");
	KEEP(dataplane, "dataplane");
	KEEP(netns, "netns");
	KEEP(fd_store, "fd-store");
	if (run->n_access != fresh->n_access || memcmp(run->access, fresh->access, sizeof(run->access))) {
		memcpy(keep.access, run->access, sizeof(run->access));
		keep.n_access = run->n_access;
		snprintf(kept + strlen(kept), keptlen - strlen(kept), "%saccess", kept[0] ? ", " : "");
	}
	/* the server of dynamic authorization has its socket: address and clients stay */
	if (run->das_len != fresh->das_len || memcmp(&run->das_addr, &fresh->das_addr, sizeof(run->das_addr)) ||
	    run->n_das_clients != fresh->n_das_clients ||
	    memcmp(run->das_clients, fresh->das_clients, sizeof(run->das_clients))) {
		keep.das_addr = run->das_addr;
		keep.das_len = run->das_len;
		memcpy(keep.das_clients, run->das_clients, sizeof(run->das_clients));
		keep.n_das_clients = run->n_das_clients;
		snprintf(kept + strlen(kept), keptlen - strlen(kept), "%sradius-das", kept[0] ? ", " : "");
	}
	/* the client has a socket per server: the servers stay, their timing may change */
	if (run->n_radius != fresh->n_radius || memcmp(run->radius, fresh->radius, sizeof(run->radius))) {
		memcpy(keep.radius, run->radius, sizeof(run->radius));
		keep.n_radius = run->n_radius;
		snprintf(kept + strlen(kept), keptlen - strlen(kept), "%sradius-server",
			 kept[0] ? ", " : "");
	}
	/* the switch's access side is opened at start: on or off stays; the profiles may change */
	if (l2d_conf_lns_switch_on(run) != l2d_conf_lns_switch_on(fresh)) {
		keep.lns_switch_all = run->lns_switch_all;
		memcpy(keep.lns_switch_profiles, run->lns_switch_profiles,
		       sizeof(run->lns_switch_profiles));
		keep.n_lns_switch_profiles = run->n_lns_switch_profiles;
		snprintf(kept + strlen(kept), keptlen - strlen(kept), "%slns-switch",
			 kept[0] ? ", " : "");
	}
	*run = keep;
}
#undef KEEP

const char *l2d_conf_secret(const struct l2d_conf *c, bool lns, const char *name)
{
	const char *wild = NULL;
	unsigned int i;

	for (i = 0; i < c->n_secrets; i++) {
		const struct l2d_secret_ent *e = &c->secrets[i];

		if (e->lns != lns)
			continue;
		if (name && !strcmp(e->match, name))
			return e->secret;
		if (!strcmp(e->match, "*") && !wild)
			wild = e->secret;
	}
	return wild;
}
