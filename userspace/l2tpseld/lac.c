// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld LAC role: one login walks the kernel's candidates (LOGIN_BEGIN,
 * then LOGIN_REPORT after each attempt, S-SEL-*): for each it reuses an
 * established tunnel to the destination or sets one up, places the call
 * (ICRQ), reports the outcome (ok, no-reply, CDN, StopCCN, client gone) and
 * follows the answer.  A successful login is counted for admission
 * (SESSION_UP, role LAC: chassis and tunnel, S-LIM-1); a refusal there
 * clears the call with CDN 4/4.  Every step is told to the API client as a
 * line (Documentation/l2tpseld.md).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/l2tpsel.h>

#include "kernel.h"
#include "l2d.h"
#include "lac.h"
#include "radius.h"
#include "session.h"
#include "tunnel.h"
#include "why.h"


/* "setup-us ...": the end of a "done" line, where the login's time went */
#define TIMES_FMT "setup-us %llu kernel-us %llu tunnel-us %llu call-us %llu bridge-us %llu"
#define TIMES_ARGS(lg) (unsigned long long)(l2d_mono_us() - (lg)->t0_us), \
	(unsigned long long)(lg)->kernel_us, (unsigned long long)(lg)->tunnel_us, \
	(unsigned long long)(lg)->call_us, (unsigned long long)(lg)->bridge_us

/*
 * An event of a login: the log line "login ID (USER): EVENT" at @level
 * and, to the API client, EVENT (at most 511 bytes), whatever the level.
 * Formatted once, into one buffer both read, the prefix only when the
 * line is logged (a storm of logins makes thousands a second).  @save,
 * when not NULL, keeps EVENT.
 */
static void login_event_v(struct l2d_login *lg, int level, const char *fmt, va_list ap)
{
	char line[L2D_LOG_LINE];
	bool log = l2d_log_on(lg->d, level);
	size_t p = 0, n;

	if (log)
		p = l2d_fmt(line, sizeof(line) - 512, "login %u (%-s): ", lg->id, lg->user);
	n = l2d_vfmt(line + p, 512, fmt, ap);
	if (log)
		l2d_log_str(lg->d, level, line, p + n);
	if ((lg->client || lg->d->login_watchers) && lg->d->env->login_event)
		lg->d->env->login_event(lg->d, lg, line + p);
}

void l2d_login_event(struct l2d_login *lg, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	login_event_v(lg, L2D_LOG_INFO, fmt, ap);
	va_end(ap);
}

/*
 * The steps of a login that succeeds are logged at debug: at info a
 * login is one line, its result ("done"), and a failed attempt adds its
 * "attempt" and "outcome" lines.  A storm of logins would otherwise log
 * five lines each, thousands a second (journald keeps 10000 a service in
 * 30 s by default).  The API client gets every line, unless it asked for
 * the "done" line only (brief), and so does a connection that watches
 * every login.  A step nobody reads is not formatted.
 */
static bool steps_wanted(const struct l2d_login *lg)
{
	return l2d_log_on(lg->d, L2D_LOG_DEBUG) ||
	       (((lg->client && !lg->brief) || lg->d->login_watchers) && lg->d->env->login_event);
}

static void login_step(struct l2d_login *lg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void login_step(struct l2d_login *lg, const char *fmt, ...)
{
	va_list ap;

	if (!steps_wanted(lg))
		return;
	va_start(ap, fmt);
	login_event_v(lg, L2D_LOG_DEBUG, fmt, ap);
	va_end(ap);
}

void l2d_login_free(struct l2d_login *lg)
{
	struct l2d *d = lg->d;

	if (lg->pprev) {
		*lg->pprev = lg->next;
		if (lg->next)
			lg->next->pprev = lg->pprev;
		lg->pprev = NULL;
		l2d_idmap_del(&d->logins_by_id, &lg->by_id);
	}
	if (lg->s)
		lg->s->login = NULL;
	if (d->kops->login_end)
		d->kops->login_end(d, lg);
	if (lg->client && d->env->login_event)
		d->env->login_event(d, lg, NULL);	/* detach from the client */
	if (lg->access && d->aops)
		d->aops->login_done(d, lg, lg->ok_s, lg->why[0] ? lg->why : "login failed");
	free(lg->set);
	free(lg);
}

/* The profile a login's end is counted under: its steps', else the one asked for. */
static const char *login_profile(const struct l2d_login *lg)
{
	return lg->step.profile[0] ? lg->step.profile : lg->profile;
}

const uint32_t l2d_setup_bounds_ms[L2D_SETUP_BUCKETS] = {
	5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000
};

const char *l2d_login_result_name(unsigned int r)
{
	switch (r) {
	case L2D_LR_OK: return "ok";
	case L2D_LR_REFUSED: return "refused";
	case L2D_LR_INTERNAL: return "internal";
	case L2D_LR_KERNEL_ERROR: return "kernel-error";
	}
	return l2s_why_name(r);
}

struct l2d_pstat *l2d_pstat_of(struct l2d *d, const char *name)
{
	unsigned int i;

	for (i = 0; i < d->n_pstats; i++)
		if (!strcmp(d->pstats[i].name, name))
			return &d->pstats[i];
	if (d->n_pstats == L2D_MAX_PSTATS)
		return NULL;
	if (!d->pstats && !(d->pstats = calloc(L2D_MAX_PSTATS, sizeof(*d->pstats))))
		return NULL;
	l2d_strcpy(d->pstats[d->n_pstats].name, L2D_NAME_MAX, name);
	return &d->pstats[d->n_pstats++];
}

void l2d_login_count(struct l2d *d, const char *profile, unsigned int r, uint64_t setup_us,
		     struct l2d_session *s)
{
	struct l2d_pstat *p = profile && profile[0] ? l2d_pstat_of(d, profile) : NULL;
	unsigned int i;

	if (r < L2D_LR_N)
		d->stats.logins_by[r]++;
	if (p && r == L2D_LR_OK) {
		p->logins_ok++;
		if (s && !s->pstat) {
			p->sessions++;
			s->pstat = (uint16_t)(p - d->pstats + 1);
		}
	}
	else if (p)
		p->logins_failed++;
	if (r != L2D_LR_OK)
		return;
	for (i = 0; i < L2D_SETUP_BUCKETS; i++)
		if (setup_us <= (uint64_t)l2d_setup_bounds_ms[i] * 1000)
			d->stats.setup_le[i]++;
	d->stats.setup_le[L2D_SETUP_BUCKETS]++;
	d->stats.setup_sum_us += setup_us;
}

static void step_done(struct l2d_login *lg, const struct l2d_step *st)
{
	struct l2d *d = lg->d;

	if (!st->ok) {
		d->stats.logins_failed++;
		l2d_login_count(d, login_profile(lg), st->why <= L2TPSEL_WHY_ADMISSION && st->why ?
				st->why : L2D_LR_INTERNAL, 0, NULL);
		l2d_login_event(lg, "done fail reason %s attempts %u " TIMES_FMT,
				l2s_why_name(st->why), lg->attempts, TIMES_ARGS(lg));
		snprintf(lg->why, sizeof(lg->why), "%s", st->why == L2TPSEL_WHY_EXHAUSTED ?
			 "no LNS answered for this domain" : st->why == L2TPSEL_WHY_NO_TUNNELS ?
			 "no tunnel is configured for this domain" : st->why == L2TPSEL_WHY_CDN ?
			 "the LNS refused the call" : st->why == L2TPSEL_WHY_STOPCCN ?
			 "the LNS closed the tunnel" : st->why == L2TPSEL_WHY_DRAINED ?
			 "every tunnel for this domain is drained" : "login failed");
	} else {
		/* reached only when the kernel says ok with no session up: a bug */
		d->stats.logins_failed++;
		l2d_login_count(d, login_profile(lg), L2D_LR_INTERNAL, 0, NULL);
		l2d_login_event(lg, "done fail reason internal attempts %u " TIMES_FMT, lg->attempts,
				TIMES_ARGS(lg));
	}
	l2d_login_free(lg);
}

/*
 * A tunnel the attempt opens: the configured secret of its kernel tunnel,
 * or, for an entry of RADIUS's set, that tag's Tunnel-Password and
 * Tunnel-Client-Auth-Id (RFC 2868 sections 3.5, 3.9).
 */
static void tunnel_auth(const struct l2d_login *lg, const struct l2d_step *st,
			const char **secret, const char **host)
{
	unsigned int i;

	for (i = 0; i < lg->nset && st->profile[0] == '~'; i++) {
		if (!strcmp(lg->set[i].name, st->tunnel)) {
			*secret = lg->set[i].secret;
			*host = lg->set[i].client_auth;
			return;
		}
	}
	*secret = l2d_conf_secret(lg->d->conf, false, st->tunnel);
	*host = "";
}

static void set_tunnel(struct l2d_tunnel *t, const char *secret, const char *host)
{
	l2d_tunnel_set_secret(t, secret);
	l2d_strcpy(t->host, sizeof(t->host), host);
}

/* The current attempt's event line (lg->step, lg->attempt_kind). */
static void attempt_line(const struct l2d_login *lg, char *buf, size_t len)
{
	const struct l2d_step *st = &lg->step;
	char remote[64], local[64];

	l2d_addr_str(&st->remote, remote, sizeof(remote), false);
	if (st->has_local)
		l2d_addr_str(&st->local, local, sizeof(local), false);
	else
		strcpy(local, "any");
	snprintf(buf, len, "attempt %u tunnel %s profile %s remote %s port %u local %s level %u %s",
		 lg->attempts, st->tunnel, st->profile, remote, l2d_port(&st->remote), local,
		 st->level, lg->attempt_kind);
}

/* Try the step's destination; return false when the attempt failed at once. */
static bool attempt(struct l2d_login *lg)
{
	struct l2d *d = lg->d;
	struct l2d_step *st = &lg->step;
	struct l2d_tunnel *t;
	struct l2d_session *s;
	const char *secret, *host;

	lg->attempts++;
	lg->attempt_us = l2d_mono_us();
	lg->attempt_kind = NULL;
	/* an attempt our own rate limiter refuses is not sent: a local failure */
	if (l2d_rl_count(d, L2TPSEL_RL_MSG_ATTEMPT, &st->rl_attempt) != L2TPSEL_RL_PASS) {
		char remote[64];

		l2d_addr_str(&st->remote, remote, sizeof(remote), false);
		l2d_login_event(lg, "attempt %u tunnel %s profile %s remote %s rate-limited by %s",
				lg->attempts, st->tunnel, st->profile, remote,
				st->rl_attempt.name[0] ? st->rl_attempt.name : "?");
		return false;
	}
	/* the access side's veto: a switched call's loop (S-LTS-2), a local failure */
	if (lg->access && d->aops && d->aops->attempt_check) {
		const char *why = d->aops->attempt_check(d, lg);

		if (why) {
			char remote[64];

			l2d_addr_str(&st->remote, remote, sizeof(remote), false);
			l2d_login_event(lg, "attempt %u tunnel %s profile %s remote %s refused: %s",
					lg->attempts, st->tunnel, st->profile, remote, why);
			l2d_log(d, L2D_LOG_INFO, "login %u (%-s): attempt %u remote %s refused: %s",
				lg->id, lg->user, lg->attempts, remote, why);
			return false;
		}
	}
	/* only a LAC-role tunnel that authenticates as a new one would (S-SEC-7) */
	tunnel_auth(lg, st, &secret, &host);
	t = l2d_tunnel_find_dest(d, &st->remote, &st->local, st->has_local, secret, host);
	lg->attempt_kind = t ? (t->state == L2D_T_ESTABLISHED ? "reuse" : "join") : "sccrq";
	if (steps_wanted(lg)) {
		char line[512];

		attempt_line(lg, line, sizeof(line));
		login_step(lg, "%s", line);
	}
	if (!t) {
		t = l2d_tunnel_new(d, &st->remote, st->has_local ? &st->local : NULL, true);
		if (!t)
			return false;
		l2d_strcpy(t->name, sizeof(t->name), st->tunnel);
		l2d_strcpy(t->profile, sizeof(t->profile), st->profile);
		set_tunnel(t, secret, host);
		s = l2d_session_new(t, true);
		if (!s) {
			l2d_tunnel_stop(t, L2TP_STOPCCN_CLEAR, 0, NULL);
			return false;
		}
	} else {
		s = l2d_session_new(t, true);
		if (!s)
			return false;
	}
	l2d_strcpy(s->user, sizeof(s->user), lg->user);
	s->access = lg->access;
	l2d_strcpy(s->calling, sizeof(s->calling), lg->calling);
	l2d_strcpy(s->called, sizeof(s->called), lg->called);
	s->login = lg;
	l2d_session_set_api_id(s, lg->id);
	lg->s = s;
	if (t->state == L2D_T_ESTABLISHED)
		l2d_session_tunnel_up(s);
	else if (t->state == L2D_T_IDLE && l2d_tunnel_connect(t))
		l2d_session_close(s, L2D_END_ERROR, false, 0, 0, NULL);
	return true;
}

/* Follow the kernel's answer until an attempt is in flight or the login ends. */
static void follow(struct l2d_login *lg, const struct l2d_step *st)
{
	if (st->done)
		return step_done(lg, st);
	lg->step = *st;
	if (!attempt(lg)) {
		/* a local failure (no id, no socket, own rate limit): no blame */
		l2d_login_attempt_end(lg, L2D_END_ERROR, 0, 0);
	}
}

struct l2d_login *l2d_login_find(struct l2d *d, uint32_t id)
{
	struct l2d_idnode *e = l2d_idmap_find(&d->logins_by_id, id);

	return e ? l2d_idmap_entry(e, struct l2d_login, by_id) : NULL;
}

/* A login refused by a rate limit: the API's error line. */
static bool rl_refused(unsigned int verdict, const struct l2d_rlans *a, char *err, size_t errlen)
{
	if (verdict == L2TPSEL_RL_REJECTED)
		snprintf(err, errlen, "rate limited by %s: %s", a->name, a->message);
	else if (verdict == L2TPSEL_RL_DROPPED)
		snprintf(err, errlen, "rate limited");
	return verdict != L2TPSEL_RL_PASS;
}

/* Whether @d takes the login @req asks for; why not in @err. */
static bool login_req_ok(struct l2d *d, const struct l2d_login_req *req, char *err, size_t errlen)
{
	const char *user = req->user, *profile = req->profile, *key = req->key;

	if (req->client && req->access) {
		snprintf(err, errlen, "a login is an API client's or a subscriber's, not both");
		return false;
	}
	if (req->nset && !req->set) {
		snprintf(err, errlen, "a tunnel set without its entries");
		return false;
	}
	if ((!user || !*user) && (!profile || !*profile)) {
		snprintf(err, errlen, "give USER@DOMAIN or profile PROFILE");
		return false;
	}
	if ((user && strlen(user) >= L2D_USER_MAX) || (key && strlen(key) >= L2D_USER_MAX) ||
	    (profile && strlen(profile) >= L2D_NAME_MAX)) {
		snprintf(err, errlen, "user and key are at most %d bytes, profile %d",
			 L2D_USER_MAX - 1, L2D_NAME_MAX - 1);
		return false;
	}
	if (d->shutting_down) {
		snprintf(err, errlen, "shutting down");
		return false;
	}
	if (l2d_draining(d)) {
		d->stats.logins_drained++;
		snprintf(err, errlen, "drained: this LAC takes no new login");
		return false;
	}
	return true;
}

uint32_t l2d_login_start(struct l2d *d, const struct l2d_login_req *req, char *err, size_t errlen)
{
	struct l2d_login *lg;
	struct l2d_step st;
	uint32_t id;
	const char *user = req->user, *profile = req->profile, *key = req->key;
	unsigned int nset = req->nset;
	int ret;

	if (!login_req_ok(d, req, err, errlen))
		return 0;
	lg = calloc(1, sizeof(*lg));
	if (!lg) {
		snprintf(err, errlen, "out of memory");
		return 0;
	}
	lg->d = d;
	lg->id = ++d->next_login_id;
	lg->client = req->client;
	lg->brief = req->brief;
	lg->access = req->access;
	l2d_strcpy(lg->calling, sizeof(lg->calling), req->calling ? req->calling : "");
	l2d_strcpy(lg->called, sizeof(lg->called), req->called ? req->called : "");
	l2d_strcpy(lg->user, sizeof(lg->user), user ? user : "");
	l2d_strcpy(lg->profile, sizeof(lg->profile), profile ? profile : "");
	l2d_strcpy(lg->key, sizeof(lg->key), key ? key : "");
	if (nset) {
		lg->set = malloc(nset * sizeof(*req->set));
		if (!lg->set) {
			free(lg);
			snprintf(err, errlen, "out of memory");
			return 0;
		}
		memcpy(lg->set, req->set, nset * sizeof(*req->set));
		lg->nset = nset;
	}
	lg->next = d->logins;
	if (lg->next)
		lg->next->pprev = &lg->next;
	lg->pprev = &d->logins;
	d->logins = lg;
	l2d_idmap_add(&d->logins_by_id, &lg->by_id, lg->id);
	lg->t0_us = l2d_mono_us();
	ret = d->kops->login_begin(d, lg, &st);
	lg->kernel_us += l2d_mono_us() - lg->t0_us;
	if (!ret && rl_refused(l2d_rl_count(d, L2TPSEL_RL_MSG_LOGIN, &st.rl_login), &st.rl_login,
			       err, errlen)) {
		lg->client = NULL;
		lg->access = NULL;	/* the caller has the error */
		l2d_login_free(lg);
		return 0;
	}
	if (ret) {
		const char *km = d->kops->errmsg ? d->kops->errmsg(d) : NULL;

		snprintf(err, errlen, "kernel: %s", km ? km : ret == -2 ?
			 "no such profile or domain" : "login begin failed");
		l2d_log(d, L2D_LOG_ERR, "login %u: LOGIN_BEGIN: %d", lg->id, ret);
		lg->client = NULL;
		lg->access = NULL;	/* the caller has the error */
		l2d_login_free(lg);
		return 0;
	}
	id = lg->id;
	login_step(lg, "login %u user %-s", lg->id, lg->user);
	l2d_test_pause("begin");
	follow(lg, &st);
	return id;
}

static unsigned int outcome_of(enum l2d_end end)
{
	switch (end) {
	case L2D_END_NONE:
		return L2TPSEL_OUTCOME_OK;
	case L2D_END_CDN:
		return L2TPSEL_OUTCOME_CDN;
	case L2D_END_STOPCCN:
		return L2TPSEL_OUTCOME_STOPCCN;
	case L2D_END_CLIENT_GONE:
	case L2D_END_LOCAL:
		return L2TPSEL_OUTCOME_CLIENT_GONE;
	case L2D_END_ERROR:
		return L2TPSEL_OUTCOME_LOCAL;	/* ours: the destination is not blamed */
	case L2D_END_NO_REPLY:
	default:
		return L2TPSEL_OUTCOME_NO_REPLY;
	}
}

static const char *outcome_name(unsigned int o)
{
	switch (o) {
	case L2TPSEL_OUTCOME_OK: return "ok";
	case L2TPSEL_OUTCOME_NO_REPLY: return "no-reply";
	case L2TPSEL_OUTCOME_CDN: return "cdn";
	case L2TPSEL_OUTCOME_STOPCCN: return "stopccn";
	case L2TPSEL_OUTCOME_CLIENT_GONE: return "client-gone";
	case L2TPSEL_OUTCOME_LOCAL: return "local";
	}
	return "?";
}

/* The session is up and the kernel counted it, for selection and admission. */
static void login_ok(struct l2d_login *lg, struct l2d_session *s, const struct l2d_step *st)
{
	struct l2d *d = lg->d;

	s->admitted = true;
	d->stats.logins_ok++;
	l2d_login_count(d, st->profile[0] ? st->profile : login_profile(lg), L2D_LR_OK,
			l2d_mono_us() - lg->t0_us, s);
	l2d_login_event(lg, "done ok session %u tunnel %s profile %s tid %u peer-tid %u sid %u peer-sid %u attempts %u " TIMES_FMT,
			lg->id, st->tunnel, st->profile, s->t->tid,
			s->t->peer_tid, s->sid, s->peer_sid, lg->attempts, TIMES_ARGS(lg));
	s->login = NULL;
	lg->s = NULL;
	lg->ok_s = s;
	l2d_login_free(lg);
}

/* The LNS took the call, a session limit of ours did not (S-LIM-1): no lockout. */
static void login_refused(struct l2d_login *lg, struct l2d_session *s, const struct l2d_admit *a)
{
	struct l2d *d = lg->d;

	d->stats.sessions_refused++;
	d->stats.logins_failed++;
	l2d_login_count(d, login_profile(lg), L2D_LR_REFUSED, 0, NULL);
	l2d_login_event(lg, "done fail reason refused level %u", a->level);
	snprintf(lg->why, sizeof(lg->why), "session limit reached");
	s->login = NULL;
	s->access = NULL;	/* the login tells the subscriber */
	lg->s = NULL;
	l2d_session_close(s, L2D_END_LOCAL, true, a->result, a->error, "session limit");
	l2d_login_free(lg);
}

void l2d_login_attempt_end(struct l2d_login *lg, enum l2d_end end, uint16_t result, uint16_t error)
{
	struct l2d *d = lg->d;
	struct l2d_session *s = lg->s;
	unsigned int o = outcome_of(end);
	struct l2d_step st;
	uint64_t t0;
	int ret;

	/* a failed attempt is logged at info, with the attempt line debug held back */
	if (o != L2TPSEL_OUTCOME_OK && lg->attempt_kind && !l2d_log_on(d, L2D_LOG_DEBUG) &&
	    l2d_log_on(d, L2D_LOG_INFO)) {
		char line[512];

		attempt_line(lg, line, sizeof(line));
		l2d_log(d, L2D_LOG_INFO, "login %u (%-s): %s", lg->id, lg->user, line);
	}
	if (o == L2TPSEL_OUTCOME_CDN || o == L2TPSEL_OUTCOME_STOPCCN)
		l2d_login_event(lg, "outcome %u %s result %u error %u", lg->attempts, outcome_name(o),
				result, error);
	else if (o != L2TPSEL_OUTCOME_OK)
		l2d_login_event(lg, "outcome %u %s", lg->attempts, outcome_name(o));
	else
		login_step(lg, "outcome %u %s", lg->attempts, outcome_name(o));
	if (o != L2TPSEL_OUTCOME_OK && lg->access && d->aops && d->aops->attempt_failed)
		d->aops->attempt_failed(d, lg, o);
	t0 = l2d_mono_us();
	ret = d->kops->login_report(d, lg, o, result, error, &st);
	lg->kernel_us += l2d_mono_us() - t0;
	if (ret) {
		l2d_log(d, L2D_LOG_ERR, "login %u: LOGIN_REPORT: %d", lg->id, ret);
		l2d_login_event(lg, "done fail reason kernel-error");
		snprintf(lg->why, sizeof(lg->why), "selection unavailable");
		d->stats.logins_failed++;
		l2d_login_count(d, login_profile(lg), L2D_LR_KERNEL_ERROR, 0, NULL);
		if (s) {
			s->login = NULL;
			s->access = NULL;
			lg->s = NULL;
			l2d_session_close(s, L2D_END_LOCAL, true, L2TP_CDN_ADMIN, 0, NULL);
		}
		l2d_login_free(lg);
		return;
	}
	if (o == L2TPSEL_OUTCOME_OK && s) {
		l2d_test_pause("ok");
		if (st.done && st.ok)
			return login_ok(lg, s, &st);
		if (st.done && st.why == L2TPSEL_WHY_ADMISSION)
			return login_refused(lg, s, &st.admit);
		/* the kernel did not take the success: the call goes */
		s->login = NULL;
		s->access = NULL;
		lg->s = NULL;
		l2d_session_close(s, L2D_END_LOCAL, true, L2TP_CDN_ADMIN, 0, NULL);
	}
	follow(lg, &st);
}

void l2d_login_client_gone(struct l2d_login *lg)
{
	struct l2d_session *s = lg->s;

	if (lg->client && lg->d->env->login_event)
		lg->d->env->login_event(lg->d, lg, NULL);
	lg->client = NULL;
	if (s) {
		/* the attempt ends as client-gone: the report follows from the close */
		l2d_session_close(s, L2D_END_CLIENT_GONE, true, L2TP_CDN_ADMIN, 0, "client gone");
		return;
	}
	l2d_login_free(lg);
}

int l2d_logout(struct l2d *d, uint32_t id)
{
	struct l2d_idnode *e;

	/* the sessions of a login's attempts: the one established counts */
	for (e = l2d_idmap_find(&d->sessions_by_api_id, id); e; e = l2d_idmap_next(e)) {
		struct l2d_session *s = l2d_idmap_entry(e, struct l2d_session, by_api_id);

		if (s->state == L2D_S_ESTABLISHED && !s->login) {
			l2d_session_close(s, L2D_END_LOCAL, true, L2TP_CDN_ADMIN, 0, "logout");
			return 0;
		}
	}
	return -1;
}

const struct l2d_login_ops l2d_login_ops = {
	.client_gone = l2d_login_client_gone,
	.free = l2d_login_free,
	.attempt_end = l2d_login_attempt_end,
	.pstat_of = l2d_pstat_of,
};
