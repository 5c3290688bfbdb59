// SPDX-License-Identifier: GPL-2.0
/*
 * The agent's figures as Prometheus metrics (S-OPS-3): the text exposition
 * format 0.0.4, one "# HELP" and one "# TYPE" line per family, counters
 * named ..._total, units in the names (seconds).  Every figure is one the
 * local API gives too ("show", "stats": api.c), read from the same fields,
 * so the endpoint and "l2tpsel login stats -j" agree at any moment.
 *
 * Label values are quoted as the API quotes its fields (l2d_quote() with
 * L2D_QUOTE_FIELD: a byte outside printable ASCII, a blank, a backslash or
 * a double quote becomes the four characters \xHH), so a label is the
 * string the CLI's -j shows; then the format escapes the backslashes.
 * Whatever a name holds, the text stays ASCII and one line per sample.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "kernel.h"
#include "l2d.h"
#include "lac.h"
#include "metrics.h"
#include "radius.h"
#include "tunnel.h"

struct mbuf {
	char *p;
	size_t len, cap;
	bool oom;
};

static void mb_printf(struct mbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void mb_printf(struct mbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->oom)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->oom = true;
			return;
		}
		if ((size_t)n < b->cap - b->len) {
			b->len += (size_t)n;
			return;
		}
		{
			size_t cap = b->cap * 2 + (size_t)n;
			char *p = realloc(b->p, cap);

			if (!p) {
				b->oom = true;
				return;
			}
			b->p = p;
			b->cap = cap;
		}
	}
}

/* "# HELP" and "# TYPE" of a family */
static void family(struct mbuf *b, const char *name, const char *type, const char *help)
{
	mb_printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* @s as a label value: quoted as the API's fields are, then \ escaped */
static const char *lv(char *out, size_t cap, const char *s)
{
	char q[L2D_QUOTED_SIZE(L2D_NAME_MAX + 64)];
	size_t i, n = 0;

	l2d_quote(q, sizeof(q), s, strlen(s), L2D_QUOTE_FIELD);
	for (i = 0; q[i] && n + 3 < cap; i++) {
		if (q[i] == '\\' || q[i] == '"')
			out[n++] = '\\';
		out[n++] = q[i];
	}
	out[n] = '\0';
	return out;
}

#define LV_SIZE	(2 * L2D_QUOTED_SIZE(L2D_NAME_MAX + 64))

/* ---- the agent as a whole ---- */

struct counter {
	const char *name, *help;
	size_t off;
};

#define ST(f) offsetof(struct l2d_stats, f)

static const struct counter agent_counters[] = {
	{ "l2tpsel_datagrams_received_total", "Datagrams received on the L2TP sockets (rx).", ST(rx) },
	{ "l2tpsel_datagrams_discarded_total", "Datagrams received and dropped as malformed or unwanted (rx-discard).", ST(rx_discard) },
	{ "l2tpsel_datagrams_no_tunnel_total", "Datagrams for a Tunnel ID we do not have (rx-no-tunnel).", ST(rx_no_tunnel) },
	{ "l2tpsel_datagrams_sent_total", "Datagrams sent on the L2TP sockets (tx).", ST(tx) },
	{ "l2tpsel_send_errors_total", "Sends our host refused (tx-err).", ST(tx_err) },
	{ "l2tpsel_tunnels_established_total", "Tunnels that reached established (tunnels-up).", ST(tunnels_up) },
	{ "l2tpsel_tunnels_failed_total", "Tunnels that ended before established (tunnels-failed).", ST(tunnels_failed) },
	{ "l2tpsel_sessions_established_total", "Sessions that reached established (sessions-up).", ST(sessions_up) },
	{ "l2tpsel_sessions_failed_total", "Sessions that ended before established (sessions-failed).", ST(sessions_failed) },
	{ "l2tpsel_sessions_refused_total", "Sessions a session limit refused (sessions-refused).", ST(sessions_refused) },
	{ "l2tpsel_calls_refused_total", "ICRQs without listen and OCRQs refused with CDN 5 (calls-refused).", ST(calls_refused) },
	{ "l2tpsel_proxy_lcp_taken_total", "LNS calls whose proxied LCP was acceptable and went to pppd's plugin, proxy-lcp yes (proxy-lcp-taken).", ST(proxy_lcp_taken) },
	{ "l2tpsel_proxy_lcp_renegotiated_total", "LNS calls whose proxied LCP was not acceptable: pppd negotiated, proxy-lcp yes (proxy-lcp-renegotiated).", ST(proxy_lcp_renegotiated) },
	{ "l2tpsel_calls_capped_total", "ICRQs refused by lns-max-calls-per-peer (calls-capped).", ST(calls_capped) },
	{ "l2tpsel_sccrq_capped_total", "SCCRQs dropped by lns-max-setup-per-peer (sccrq-capped).", ST(sccrq_capped) },
	{ "l2tpsel_tunnels_idle_closed_total", "LNS tunnels closed by lns-idle-timeout (tunnels-idle).", ST(tunnels_idle) },
	{ "l2tpsel_tunnels_capped_total", "LNS tunnels refused by lns-max-tunnels (tunnels-capped).", ST(tunnels_capped) },
	{ "l2tpsel_ratelimit_rejected_total", "Requests the rate limiter rejected (rl-rejected).", ST(rl_rejected) },
	{ "l2tpsel_ratelimit_dropped_total", "Requests the rate limiter dropped (rl-dropped).", ST(rl_dropped) },
};

static void render_agent(struct mbuf *b, struct l2d *d)
{
	const struct l2d_stats *st = &d->stats;
	struct l2tp_rel_stats rs = st->rel_gone;
	const struct l2d_tunnel *t;
	unsigned int i;

	family(b, "l2tpsel_tunnels", "gauge", "Tunnels the agent holds now, any state.");
	mb_printf(b, "l2tpsel_tunnels %u\n", d->n_tunnels);
	family(b, "l2tpsel_sessions", "gauge", "Sessions the agent holds now, any state.");
	mb_printf(b, "l2tpsel_sessions %u\n", d->n_sessions);
	for (i = 0; i < sizeof(agent_counters) / sizeof(agent_counters[0]); i++) {
		const struct counter *c = &agent_counters[i];

		family(b, c->name, "counter", c->help);
		mb_printf(b, "%s %" PRIu64 "\n", c->name,
			  *(const uint64_t *)((const char *)st + c->off));
	}
	/* reliable delivery of every tunnel, the freed ones included (the "control" line) */
	for (t = d->tunnels; t; t = t->next)
		l2tp_rel_stats_add(&rs, &t->rel.stats);
	family(b, "l2tpsel_control_sent_total", "counter", "Control messages sent, first transmissions.");
	mb_printf(b, "l2tpsel_control_sent_total %" PRIu64 "\n", rs.sent);
	family(b, "l2tpsel_control_retransmissions_total", "counter", "Control messages sent again (RFC 2661 5.8).");
	mb_printf(b, "l2tpsel_control_retransmissions_total %" PRIu64 "\n", rs.retransmits);
	family(b, "l2tpsel_control_duplicates_total", "counter", "Control messages received twice: the peer's retransmissions.");
	mb_printf(b, "l2tpsel_control_duplicates_total %" PRIu64 "\n", rs.duplicates);
	family(b, "l2tpsel_control_out_of_order_total", "counter", "Control messages received ahead of their turn.");
	mb_printf(b, "l2tpsel_control_out_of_order_total %" PRIu64 "\n", rs.out_of_order);
	family(b, "l2tpsel_control_stashed_total", "counter", "Out-of-order control messages kept until the gap filled.");
	mb_printf(b, "l2tpsel_control_stashed_total %" PRIu64 "\n", rs.stashed);
}

/* ---- logins ---- */

static void render_logins(struct mbuf *b, struct l2d *d)
{
	const struct l2d_stats *st = &d->stats;
	unsigned int i;

	family(b, "l2tpsel_logins_total", "counter", "Logins ended, by result: ok, or why they failed.");
	for (i = 0; i < L2D_LR_N; i++)
		mb_printf(b, "l2tpsel_logins_total{result=\"%s\"} %" PRIu64 "\n",
			  l2d_login_result_name(i), st->logins_by[i]);
	family(b, "l2tpsel_login_setup_seconds", "histogram",
	       "Time from a login's request to its session, logins that succeeded.");
	for (i = 0; i < L2D_SETUP_BUCKETS; i++)
		mb_printf(b, "l2tpsel_login_setup_seconds_bucket{le=\"%g\"} %" PRIu64 "\n",
			  l2d_setup_bounds_ms[i] / 1000.0, st->setup_le[i]);
	mb_printf(b, "l2tpsel_login_setup_seconds_bucket{le=\"+Inf\"} %" PRIu64 "\n",
		  st->setup_le[L2D_SETUP_BUCKETS]);
	mb_printf(b, "l2tpsel_login_setup_seconds_sum %" PRIu64 ".%06" PRIu64 "\n",
		  st->setup_sum_us / 1000000, st->setup_sum_us % 1000000);
	mb_printf(b, "l2tpsel_login_setup_seconds_count %" PRIu64 "\n",
		  st->setup_le[L2D_SETUP_BUCKETS]);
}

static void render_profiles(struct mbuf *b, struct l2d *d)
{
	char name[LV_SIZE];
	unsigned int i;

	if (!d->n_pstats)
		return;
	family(b, "l2tpsel_profile_logins_total", "counter", "Logins ended under a profile, ok or failed.");
	for (i = 0; i < d->n_pstats; i++) {
		const struct l2d_pstat *p = &d->pstats[i];

		lv(name, sizeof(name), p->name);
		mb_printf(b, "l2tpsel_profile_logins_total{profile=\"%s\",result=\"ok\"} %" PRIu64 "\n",
			  name, p->logins_ok);
		mb_printf(b, "l2tpsel_profile_logins_total{profile=\"%s\",result=\"failed\"} %" PRIu64 "\n",
			  name, p->logins_failed);
	}
	family(b, "l2tpsel_profile_sessions", "gauge", "Sessions up now that a login of the profile set up.");
	for (i = 0; i < d->n_pstats; i++)
		mb_printf(b, "l2tpsel_profile_sessions{profile=\"%s\"} %u\n",
			  lv(name, sizeof(name), d->pstats[i].name), d->pstats[i].sessions);
}

/* ---- tunnels ---- */

static const enum l2d_tstate tstates[] = {
	L2D_T_IDLE, L2D_T_WAIT_SCCRP, L2D_T_WAIT_SCCCN, L2D_T_ESTABLISHED, L2D_T_CLOSING,
};

/* tunnel="TID",peer="ADDR:PORT",role="lac|lns" */
static void tunnel_labels(const struct l2d_tunnel *t, char *out, size_t cap)
{
	char peer[64], v[LV_SIZE];

	l2d_addr_str(&t->peer, peer, sizeof(peer), true);
	snprintf(out, cap, "tunnel=\"%u\",peer=\"%s\",role=\"%s\"", t->tid, lv(v, sizeof(v), peer),
		 t->initiator ? "lac" : "lns");
}

static void render_tunnels(struct mbuf *b, struct l2d *d)
{
	const struct l2d_tunnel *t;
	char l[LV_SIZE + 64];
	unsigned int i;

	if (!d->tunnels)
		return;
	family(b, "l2tpsel_tunnel_state", "gauge", "1 for the state the tunnel is in, 0 for the others.");
	for (t = d->tunnels; t; t = t->next) {
		tunnel_labels(t, l, sizeof(l));
		for (i = 0; i < sizeof(tstates) / sizeof(tstates[0]); i++)
			mb_printf(b, "l2tpsel_tunnel_state{%s,state=\"%s\"} %d\n", l,
				  l2d_tstate_name(tstates[i]), t->state == tstates[i]);
	}
#define PER_TUNNEL(name, type, help, fmt, expr) do {				\
		family(b, name, type, help);					\
		for (t = d->tunnels; t; t = t->next) {				\
			tunnel_labels(t, l, sizeof(l));				\
			mb_printf(b, name "{%s} " fmt "\n", l, expr);		\
		}								\
	} while (0)
	PER_TUNNEL("l2tpsel_tunnel_sessions", "gauge", "Sessions in the tunnel now.", "%u",
		   t->n_sessions);
	PER_TUNNEL("l2tpsel_tunnel_retransmissions_total", "counter",
		   "Control messages of the tunnel sent again.", "%" PRIu64, t->rel.stats.retransmits);
	PER_TUNNEL("l2tpsel_tunnel_out_of_order_total", "counter",
		   "Control messages of the tunnel received ahead of their turn.", "%" PRIu64,
		   t->rel.stats.out_of_order);
	PER_TUNNEL("l2tpsel_tunnel_stashed_total", "counter",
		   "Out-of-order control messages of the tunnel kept until the gap filled.", "%" PRIu64,
		   t->rel.stats.stashed);
	PER_TUNNEL("l2tpsel_tunnel_send_window_messages", "gauge",
		   "Control messages the tunnel may have unacknowledged now (RFC 2661 Appendix A).", "%u",
		   t->rel.cwnd);
#undef PER_TUNNEL
}

/* ---- destinations ---- */

#define MAX_DESTS	4096

struct dests {
	struct l2d_dest_info *v;
	unsigned int n;
};

static void dest_keep(void *ctx, const struct l2d_dest_info *di)
{
	struct dests *ds = ctx;

	if (ds->n < MAX_DESTS)
		ds->v[ds->n++] = *di;
}

static void dest_labels(const struct l2d_dest_info *di, char *out, size_t cap)
{
	snprintf(out, cap, "destination=\"%s\",port=\"%u\",local=\"%s\"", di->remote, di->port,
		 di->local[0] ? di->local : "any");
}

static void render_dests(struct mbuf *b, struct l2d *d)
{
	struct dests ds = { calloc(MAX_DESTS, sizeof(*ds.v)), 0 };
	char l[256];
	unsigned int i;

	if (!ds.v) {
		b->oom = true;
		return;
	}
	l2d_dests(d, dest_keep, &ds);
	if (!ds.n)
		goto out;
#define PER_DEST(name, type, help, expr) do {					\
		family(b, name, type, help);					\
		for (i = 0; i < ds.n; i++) {					\
			dest_labels(&ds.v[i], l, sizeof(l));			\
			mb_printf(b, name "{%s} %u\n", l, (unsigned int)(expr));	\
		}								\
	} while (0)
	PER_DEST("l2tpsel_destination_sessions", "gauge", "Sessions to the destination now.",
		 ds.v[i].sessions);
	PER_DEST("l2tpsel_destination_in_flight", "gauge", "Logins on their way to the destination now.",
		 ds.v[i].in_flight);
	PER_DEST("l2tpsel_destination_tunnels", "gauge", "Tunnels of the selection that name the destination.",
		 ds.v[i].tunnels);
	PER_DEST("l2tpsel_destination_attempts_total", "counter", "Attempts sent to the destination.",
		 ds.v[i].attempts);
	PER_DEST("l2tpsel_destination_failures_total", "counter",
		 "Attempts to the destination that failed and locked it out.", ds.v[i].failures);
	PER_DEST("l2tpsel_destination_locked_out", "gauge", "1 while the destination is locked out.",
		 ds.v[i].lockout_ms != 0);
#undef PER_DEST
	family(b, "l2tpsel_destination_lockout_remaining_seconds", "gauge",
	       "Time left of the destination's lockout.");
	for (i = 0; i < ds.n; i++) {
		dest_labels(&ds.v[i], l, sizeof(l));
		mb_printf(b, "l2tpsel_destination_lockout_remaining_seconds{%s} %u.%03u\n", l,
			  ds.v[i].lockout_ms / 1000, ds.v[i].lockout_ms % 1000);
	}
out:
	free(ds.v);
}

/* ---- the access role ---- */

static void render_access(struct mbuf *b, struct l2d *d)
{
	static const struct {
		const char *name, *help;
		size_t off;
	} acc[] = {
#define AC(f) offsetof(struct l2d_access_if_stats, f)
		{ "l2tpsel_access_padi_received_total", "PADIs received.", AC(padi) },
		{ "l2tpsel_access_pado_sent_total", "PADOs sent.", AC(pado) },
		{ "l2tpsel_access_padr_received_total", "PADRs received.", AC(padr) },
		{ "l2tpsel_access_pads_sent_total", "PADSs sent with a session.", AC(pads) },
		{ "l2tpsel_access_pads_refused_total", "PADSs sent refusing a PADR.", AC(pads_refused) },
		{ "l2tpsel_access_padt_received_total", "PADTs received.", AC(padt_rx) },
		{ "l2tpsel_access_padt_sent_total", "PADTs sent.", AC(padt_tx) },
		{ "l2tpsel_access_discovery_bad_total", "Discovery packets dropped as malformed.", AC(bad) },
		{ "l2tpsel_access_discovery_rate_dropped_total", "Discovery packets over their rate budget.", AC(rate_dropped) },
		{ "l2tpsel_access_no_service_total", "PADIs for a service we do not offer.", AC(no_service) },
		{ "l2tpsel_access_logins_total", "Subscribers that authenticated and began a login.", AC(logins) },
		{ "l2tpsel_access_logins_up_total", "Subscribers whose call came up.", AC(up) },
		{ "l2tpsel_access_logins_refused_total", "Subscribers refused (authentication, selection, limits).", AC(refused) },
#undef AC
	};
	struct l2d_access_if_stats s;
	char v[LV_SIZE];
	unsigned int i, k;

	if (!l2d_access_if_stats(d, 0, &s))
		return;
	family(b, "l2tpsel_access_subscribers", "gauge", "PPPoE subscribers of the interface now.");
	for (i = 0; l2d_access_if_stats(d, i, &s); i++)
		mb_printf(b, "l2tpsel_access_subscribers{interface=\"%s\"} %u\n",
			  lv(v, sizeof(v), s.ifname), s.subscribers);
	for (k = 0; k < sizeof(acc) / sizeof(acc[0]); k++) {
		family(b, acc[k].name, "counter", acc[k].help);
		for (i = 0; l2d_access_if_stats(d, i, &s); i++)
			mb_printf(b, "%s{interface=\"%s\"} %" PRIu64 "\n", acc[k].name,
				  lv(v, sizeof(v), s.ifname),
				  *(const uint64_t *)((const char *)&s + acc[k].off));
	}
}

/* ---- tunnel switching (S-LTS-1) ---- */

static void render_switch(struct mbuf *b, struct l2d *d)
{
	struct l2d_lts_stats s;

	if (!l2d_access_lts_get(d, &s))
		return;
	family(b, "l2tpsel_switch_calls", "gauge", "Switched calls now.");
	mb_printf(b, "l2tpsel_switch_calls %u\n", s.calls_now);
	family(b, "l2tpsel_switch_calls_total", "counter", "Calls of the LNS role taken for switching.");
	mb_printf(b, "l2tpsel_switch_calls_total %" PRIu64 "\n", s.calls);
	family(b, "l2tpsel_switch_up_total", "counter", "Switched calls bridged to the next LNS.");
	mb_printf(b, "l2tpsel_switch_up_total %" PRIu64 "\n", s.up);
	family(b, "l2tpsel_switch_loops_refused_total", "counter",
	       "Attempts refused as a loop (the call's own LAC or address).");
	mb_printf(b, "l2tpsel_switch_loops_refused_total %" PRIu64 "\n", s.loops_refused);
	family(b, "l2tpsel_switch_hops_refused_total", "counter",
	       "Incoming calls refused at the hop limit or with a malformed hop count.");
	mb_printf(b, "l2tpsel_switch_hops_refused_total %" PRIu64 "\n", s.hops_refused);
}

/* ---- RADIUS ---- */

static void render_radius(struct mbuf *b, struct l2d *d)
{
	struct l2d_radius_srv_stats r;
	unsigned int i;

	if (!l2d_radius_srv_stats(d, 0, &r))
		return;
#define PER_SRV(name, type, help, fmt, expr) do {					\
		family(b, name, type, help);						\
		for (i = 0; l2d_radius_srv_stats(d, i, &r); i++)			\
			mb_printf(b, name "{server=\"%u\",kind=\"%s\",address=\"%s\"} " fmt "\n",	\
				  r.index, r.kind, r.address, expr);			\
	} while (0)
	PER_SRV("l2tpsel_radius_requests_total", "counter", "Requests sent to the server, retransmissions not counted.",
		"%" PRIu64, r.requests);
	PER_SRV("l2tpsel_radius_timeouts_total", "counter", "Tries the server left unanswered.",
		"%" PRIu64, r.timeouts);
	PER_SRV("l2tpsel_radius_bad_replies_total", "counter", "Replies from the server dropped as invalid.",
		"%" PRIu64, r.bad);
	PER_SRV("l2tpsel_radius_server_dead", "gauge", "1 while the server is skipped as dead.",
		"%d", r.dead ? 1 : 0);
#undef PER_SRV
}

char *l2d_metrics_render(struct l2d *d, size_t *len)
{
	struct mbuf b = { malloc(65536), 0, 65536, false };

	if (!b.p)
		return NULL;
	b.p[0] = '\0';
	render_agent(&b, d);
	render_logins(&b, d);
	render_profiles(&b, d);
	render_tunnels(&b, d);
	render_dests(&b, d);
	render_access(&b, d);
	render_switch(&b, d);
	render_radius(&b, d);
	if (b.oom) {
		free(b.p);
		return NULL;
	}
	*len = b.len;
	return b.p;
}
