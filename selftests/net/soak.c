// SPDX-License-Identifier: GPL-2.0
/*
 * soak: a bounded load test of the module's counters (S-LIM-1,
 * S-LIM-4, S-LIM-9, S-SEL-4, S-LB-3).
 *
 *   soak [-P PROCS] [-H HELD] [-t SECS] [-i SECS] [-s SEED] PROFILE
 *
 * PROCS worker processes (default 4), each an agent on a netlink socket of
 * its own, together hold HELD calls (default 4000) and churn them for SECS
 * seconds (default 40, the fill included):
 *
 *   below its share a worker logs in (LOGIN_BEGIN profile PROFILE, then
 *   LOGIN_REPORT per attempt: 3 % no reply, which locks the destination out
 *   for the namespace's lockout time and fails over, else ok).  The ok
 *   carries the call's session key KEY and L2TP tunnel id (1 of 4 calls,
 *   "LAC" ones: 101..108; 3 of 4, "LNS" ones: 1..32) and counts, in one
 *   step, the selection counts and a session of role LAC.  An LNS call adds
 *   a second session: SESSION_UP role LNS, key KEY | LNS_BIT, the same
 *   tunnel id, tunnel group tg0..tg3 and client c0..c15.  A refusal of that
 *   one (tg0 has a limit) ends the login's session (SESSION_DOWN of KEY,
 *   which ends the selection counts too), as the agent does after its CDN
 *   4/4.  At its share it ends a random one of its calls first
 *   (SESSION_DOWN of each key): the namespace holds HELD calls while they
 *   are replaced all the time.  The sessions belong to the worker's socket.
 *
 * Every SECS/… -i seconds (default 5) the parent stops the workers between
 * two cycles, reads every counter of the namespace and compares it with the
 * calls the workers hold (kept in shared memory), exactly:
 *
 *   the chassis count (LIMIT_GET and SUMMARY_GET: two sessions per LNS
 *   call, one per LAC call), the L2TP tunnels counted (SUMMARY_GET
 *   N_TUNNELS = distinct tunnel ids held), the session dump (its length,
 *   the entries a login counted (PROFILE) = the calls, none DETACHED), each
 *   destination's and each selection tunnel's SESSIONS, each tunnel
 *   group's, client's and session-limit group's COUNT (an SLG counts its
 *   clients' sessions), the logins in progress (0);
 *
 * then lets them go on.  At the end every worker ends all its sessions and
 * the last check wants every counter at 0 (a worker that failed holds
 * nothing: its socket's close ended its sessions).  Every difference is
 * printed ("MISMATCH"); exit 0 all equal, 1 a difference or an error, 2
 * usage.
 *
 * soak.sh sets up the namespace (tunnels T1..T8 over 4 destinations, the
 * groups and clients) and runs it.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/l2tpsel.h>

#include "nl.h"
#include "kclient.h"

#define MAX_PROCS	16
#define MAX_HELD	200000
#define MAX_DESTS	16
#define MAX_TUNNELS	32
#define N_TGROUPS	4
#define N_CLIENTS	16
#define N_SLGS		2
#define LNS_TIDS	32	/* 1..32 */
#define LAC_TIDS	8	/* 101..108 */
#define N_TIDS		(LNS_TIDS + LAC_TIDS)
#define LNS_BIT		(1ull << 63)	/* in the key of an LNS call's SESSION_UP */

/* A call: the login's session (key), for an LNS call also key | LNS_BIT. */
struct live {
	uint64_t key;
	int8_t dest, tunnel, tg, client;	/* tg, client -1: role LAC */
	uint8_t tid;				/* index 0..N_TIDS-1 */
};

/* One worker's state, in memory shared with the parent. */
struct worker {
	volatile int paused, done;
	uint32_t n;				/* calls held */
	uint32_t sessions;			/* their sessions: 1 LAC, 2 LNS */
	uint32_t dest[MAX_DESTS], tun[MAX_TUNNELS], tg[N_TGROUPS], client[N_CLIENTS], tid[N_TIDS];
	uint64_t cycles, logins_ok, logins_failed, noreply, refused, downs;
	char error[512];
	struct live live[];			/* [quota] */
};

struct ctl {
	volatile int pause, stop;
};

struct snap {
	uint32_t ndest, ntun;
	struct {
		uint8_t addr[16];
		uint16_t port, alen;
		uint32_t sessions;
	} dest[MAX_DESTS];
	struct {
		char name[L2TPSEL_NAME_MAX];
		uint32_t sessions;
	} tun[MAX_TUNNELS];
	uint32_t tg[N_TGROUPS], client[N_CLIENTS], slg[N_SLGS], slg_members[N_SLGS];
	uint32_t chassis, summary, n_ltuns, n_logins;
	uint32_t n_sessions, n_login_sessions, n_detached;	/* the session dump */
};

static const char *profile;
static struct snap layout;	/* taken before the workers start: indexes */
static struct ctl *ctl;
static struct worker *me;
static uint64_t rng;

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("soak: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static uint32_t rnd(uint32_t bound)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(((rng >> 32) * bound) >> 32);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* "tg3" -> 3 for prefix "tg" below n, else -1 */
static int name_index(const struct nlattr *a, const char *prefix, int n)
{
	const char *s;
	size_t l = strlen(prefix);
	char *end;
	long v;

	if (!a)
		return -1;
	s = mnl_attr_get_str(a);
	if (strncmp(s, prefix, l) || !s[l])
		return -1;
	v = strtol(s + l, &end, 10);
	return *end || v < 0 || v >= n ? -1 : (int)v;
}

/* ---- the snapshot ------------------------------------------------------ */

static int dest_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];
	struct snap *s = data;
	uint32_t i = s->ndest;

	l2s_attr_parse(nlh, tb);
	if (!tb[L2TPSEL_A_REMOTE] || i == MAX_DESTS)
		return MNL_CB_ERROR;
	s->dest[i].alen = l2s_attr_addr(tb, L2TPSEL_A_REMOTE, s->dest[i].addr);
	s->dest[i].port = l2s_attr_u16(tb, L2TPSEL_A_PORT, 0);
	s->dest[i].sessions = l2s_attr_u32(tb, L2TPSEL_A_SESSIONS, 0);
	s->ndest++;
	return MNL_CB_OK;
}

static int tun_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];
	struct snap *s = data;
	uint32_t i = s->ntun;

	l2s_attr_parse(nlh, tb);
	if (!tb[L2TPSEL_A_PROFILE] || strcmp(mnl_attr_get_str(tb[L2TPSEL_A_PROFILE]), profile))
		return MNL_CB_OK;
	if (!tb[L2TPSEL_A_NAME] || i == MAX_TUNNELS)
		return MNL_CB_ERROR;
	snprintf(s->tun[i].name, sizeof(s->tun[i].name), "%s", mnl_attr_get_str(tb[L2TPSEL_A_NAME]));
	s->tun[i].sessions = l2s_attr_u32(tb, L2TPSEL_A_SESSIONS, 0);
	s->ntun++;
	return MNL_CB_OK;
}

struct named_ctx {
	const char *prefix;
	int n;
	uint32_t *count, *members;
};

static int named_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];
	struct named_ctx *c = data;
	int i;

	l2s_attr_parse(nlh, tb);
	i = name_index(tb[L2TPSEL_A_NAME], c->prefix, c->n);
	if (i < 0)
		return MNL_CB_OK;
	c->count[i] = l2s_attr_u32(tb, L2TPSEL_A_COUNT, 0);
	if (c->members)
		c->members[i] = l2s_attr_u32(tb, L2TPSEL_A_MEMBERS, 0);
	return MNL_CB_OK;
}

static int session_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];
	struct snap *s = data;

	l2s_attr_parse(nlh, tb);
	s->n_sessions++;
	if (tb[L2TPSEL_A_PROFILE] && !strcmp(mnl_attr_get_str(tb[L2TPSEL_A_PROFILE]), profile))
		s->n_login_sessions++;
	if (tb[L2TPSEL_A_DETACHED])
		s->n_detached++;
	return MNL_CB_OK;
}

static void talk(struct l2s_nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data,
		 const char *what)
{
	int err = l2s_nl_talk(nl, nlh, cb, data);

	if (err)
		die("%s: %s%s%s", what, strerror(-err), nl->errmsg[0] ? ": " : "", nl->errmsg);
}

static void take_snap(struct l2s_nl *nl, struct snap *s)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct named_ctx nc;
	struct kc_one o;

	memset(s, 0, sizeof(*s));
	talk(nl, l2s_nl_req(nl, buf, L2TPSEL_CMD_DEST_GET, NLM_F_DUMP), dest_cb, s, "destination dump");
	talk(nl, l2s_nl_req(nl, buf, L2TPSEL_CMD_TUNNEL_GET, NLM_F_DUMP), tun_cb, s, "tunnel dump");
	nc = (struct named_ctx){ "tg", N_TGROUPS, s->tg, NULL };
	talk(nl, l2s_nl_req(nl, buf, L2TPSEL_CMD_TGROUP_GET, NLM_F_DUMP), named_cb, &nc, "tunnel group dump");
	nc = (struct named_ctx){ "c", N_CLIENTS, s->client, NULL };
	talk(nl, l2s_nl_req(nl, buf, L2TPSEL_CMD_CLIENT_GET, NLM_F_DUMP), named_cb, &nc, "client dump");
	nc = (struct named_ctx){ "s", N_SLGS, s->slg, s->slg_members };
	talk(nl, l2s_nl_req(nl, buf, L2TPSEL_CMD_SLG_GET, NLM_F_DUMP), named_cb, &nc, "slg dump");
	o = (struct kc_one){ { L2TPSEL_A_COUNT, 0 }, { &s->chassis, NULL } };
	talk(nl, l2s_nl_req(nl, buf, L2TPSEL_CMD_LIMIT_GET, 0), kc_one_cb, &o, "limit get");
	o = (struct kc_one){ { L2TPSEL_A_COUNT, L2TPSEL_A_N_TUNNELS }, { &s->summary, &s->n_ltuns } };
	talk(nl, l2s_nl_req(nl, buf, L2TPSEL_CMD_SUMMARY_GET, 0), kc_one_cb, &o, "summary get");
	o = (struct kc_one){ { L2TPSEL_A_N_LOGINS, 0 }, { &s->n_logins, NULL } };
	talk(nl, l2s_nl_req(nl, buf, L2TPSEL_CMD_LOCKOUT_GET, 0), kc_one_cb, &o, "lockout get");
	talk(nl, l2s_nl_req(nl, buf, L2TPSEL_CMD_SESSION_GET, NLM_F_DUMP), session_cb, s,
	     "session dump");
}

static int dest_index(const struct nlattr *remote, uint16_t port)
{
	uint32_t i, len = mnl_attr_get_payload_len(remote);

	for (i = 0; i < layout.ndest; i++)
		if (layout.dest[i].alen == len && layout.dest[i].port == port &&
		    !memcmp(layout.dest[i].addr, mnl_attr_get_payload(remote), len))
			return (int)i;
	return -1;
}

static int tunnel_index(const char *name)
{
	uint32_t i;

	for (i = 0; i < layout.ntun; i++)
		if (!strcmp(layout.tun[i].name, name))
			return (int)i;
	return -1;
}

/* ---- one worker --------------------------------------------------------- */

struct step {
	uint8_t kind, ok, why;
	uint32_t id;
	int dest, tunnel;
};

static int step_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];
	struct step *st = data;

	l2s_attr_parse(nlh, tb);
	st->kind = l2s_attr_u8(tb, L2TPSEL_A_STEP, 0);
	st->ok = l2s_attr_u8(tb, L2TPSEL_A_OK, 0);
	st->why = l2s_attr_u8(tb, L2TPSEL_A_WHY, 0);
	if (tb[L2TPSEL_A_LOGIN_ID])
		st->id = mnl_attr_get_u32(tb[L2TPSEL_A_LOGIN_ID]);
	st->dest = st->tunnel = -1;
	if (tb[L2TPSEL_A_REMOTE])
		st->dest = dest_index(tb[L2TPSEL_A_REMOTE],
				      l2s_attr_u16(tb, L2TPSEL_A_PORT, 0));
	if (tb[L2TPSEL_A_NAME])
		st->tunnel = tunnel_index(mnl_attr_get_str(tb[L2TPSEL_A_NAME]));
	return MNL_CB_OK;
}

static int admit_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];

	l2s_attr_parse(nlh, tb);
	*(int *)data = tb[L2TPSEL_A_ADMIT] ? l2s_attr_u8(tb, L2TPSEL_A_ADMIT, 0) : -1;
	return MNL_CB_OK;
}

static void worker_fail(struct l2s_nl *nl, const char *what, int err)
{
	snprintf(me->error, sizeof(me->error), "cycle %" PRIu64 ": %s: %s%s%s", me->cycles, what,
		 err < 0 ? strerror(-err) : "unexpected reply", nl->errmsg[0] ? ": " : "", nl->errmsg);
	me->done = 1;
	exit(1);
}

static void wtalk(struct l2s_nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data, const char *what)
{
	int err = l2s_nl_talk(nl, nlh, cb, data);

	if (err)
		worker_fail(nl, what, err);
}

static void session_down(struct l2s_nl *nl, uint64_t key, const char *what)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = l2s_nl_req(nl, buf, L2TPSEL_CMD_SESSION_DOWN, 0);

	mnl_attr_put_u64(nlh, L2TPSEL_A_SESSION_KEY, key);
	wtalk(nl, nlh, NULL, NULL, what);
}

/* The L2TP tunnel id of a call: 1..32 for an LNS call, 101..108 for a LAC's. */
static uint32_t call_tid(const struct live *l)
{
	return l->tg < 0 ? 101u + l->tid - LNS_TIDS : 1u + l->tid;
}

/* End the call in slot i (the last one moves into its place). */
static void end_session(struct l2s_nl *nl, uint32_t i)
{
	struct live *l = &me->live[i];

	if (l->tg >= 0) {
		session_down(nl, l->key | LNS_BIT, "session down (LNS)");
		me->tg[l->tg]--;
		me->client[l->client]--;
		me->sessions--;
	}
	/* the login's session: its selection counts go with it */
	session_down(nl, l->key, "session down");
	me->dest[l->dest]--;
	me->tun[l->tunnel]--;
	me->tid[l->tid]--;
	me->sessions--;
	me->downs++;
	*l = me->live[--me->n];
}

/* One login; on success the call is up and held. */
static void start_session(struct l2s_nl *nl, int proc, uint64_t key)
{
	char buf[MNL_SOCKET_BUFFER_SIZE], name[8];
	struct nlmsghdr *nlh;
	struct step st;
	struct live l = { 0 };
	int admit = -1, last = -1;
	bool lac = rnd(4) == 0;

	l.key = key;
	if (lac) {
		l.tg = l.client = -1;
		l.tid = (uint8_t)(LNS_TIDS + rnd(LAC_TIDS));
	} else {
		l.tg = (int8_t)rnd(N_TGROUPS);
		l.client = (int8_t)rnd(N_CLIENTS);
		l.tid = (uint8_t)rnd(LNS_TIDS);
	}
	nlh = l2s_nl_req(nl, buf, L2TPSEL_CMD_LOGIN_BEGIN, 0);
	mnl_attr_put_strz(nlh, L2TPSEL_A_PROFILE, profile);
	wtalk(nl, nlh, step_cb, &st, "login begin");
	while (st.kind == L2TPSEL_STEP_ATTEMPT) {
		uint8_t outcome = rnd(100) < 3 ? L2TPSEL_OUTCOME_NO_REPLY : L2TPSEL_OUTCOME_OK;

		if (st.dest < 0 || st.tunnel < 0)
			worker_fail(nl, "attempt on an unknown destination or tunnel", 0);
		if (outcome == L2TPSEL_OUTCOME_NO_REPLY)
			me->noreply++;
		last = st.tunnel;
		l.dest = (int8_t)st.dest;
		nlh = l2s_nl_req(nl, buf, L2TPSEL_CMD_LOGIN_REPORT, 0);
		mnl_attr_put_u32(nlh, L2TPSEL_A_LOGIN_ID, st.id);
		mnl_attr_put_u8(nlh, L2TPSEL_A_OUTCOME, outcome);
		if (outcome == L2TPSEL_OUTCOME_OK) {
			mnl_attr_put_u64(nlh, L2TPSEL_A_SESSION_KEY, key);
			mnl_attr_put_u32(nlh, L2TPSEL_A_TUNNEL_ID, call_tid(&l));
		}
		wtalk(nl, nlh, step_cb, &st, "login report");
	}
	if (st.kind != L2TPSEL_STEP_DONE)
		worker_fail(nl, "login: neither ATTEMPT nor DONE", 0);
	if (!st.ok) {
		/* nothing counted; no LAC-level limit is set, but count it right */
		if (st.why == L2TPSEL_WHY_ADMISSION)
			me->refused++;
		else
			me->logins_failed++;
		return;
	}
	if (st.tunnel != last || last < 0)
		worker_fail(nl, "login ok on another tunnel than the last attempt", 0);
	me->logins_ok++;
	l.tunnel = (int8_t)last;
	if (!lac) {
		nlh = l2s_nl_req(nl, buf, L2TPSEL_CMD_SESSION_UP, 0);
		mnl_attr_put_u64(nlh, L2TPSEL_A_SESSION_KEY, key | LNS_BIT);
		mnl_attr_put_u8(nlh, L2TPSEL_A_ROLE, L2TPSEL_ROLE_LNS);
		mnl_attr_put_u32(nlh, L2TPSEL_A_TUNNEL_ID, call_tid(&l));
		snprintf(name, sizeof(name), "tg%d", l.tg);
		mnl_attr_put_strz(nlh, L2TPSEL_A_TGROUP, name);
		snprintf(name, sizeof(name), "c%d", l.client);
		mnl_attr_put_strz(nlh, L2TPSEL_A_CLIENT, name);
		wtalk(nl, nlh, admit_cb, &admit, "session up");
		if (admit < 0)
			worker_fail(nl, "session up without ADMIT", 0);
		if (admit != L2TPSEL_LEVEL_PASS) {
			/* refused: the agent clears the call; the login's session goes */
			me->refused++;
			session_down(nl, key, "session down (refused call)");
			return;
		}
		me->tg[l.tg]++;
		me->client[l.client]++;
		me->sessions++;
	}
	me->dest[l.dest]++;
	me->tun[l.tunnel]++;
	me->tid[l.tid]++;
	me->sessions++;
	me->live[me->n++] = l;
	(void)proc;
}

static void worker_run(int proc, uint32_t quota, uint64_t seed)
{
	struct l2s_nl nl = { 0 };
	uint64_t key = ((uint64_t)(proc + 1) << 40);
	int err;

	rng = seed + (uint64_t)proc * 0x9e3779b97f4a7c15ull + 1;
	err = l2s_nl_open(&nl);
	if (!err)
		err = l2s_nl_resolve(&nl);
	if (err)
		worker_fail(&nl, "netlink socket", err);
	while (!ctl->stop) {
		if (ctl->pause) {
			me->paused = 1;
			while (ctl->pause && !ctl->stop)
				usleep(1000);
			me->paused = 0;
			continue;
		}
		if (me->n >= quota)
			end_session(&nl, rnd(me->n));
		start_session(&nl, proc, ++key);
		me->cycles++;
	}
	while (me->n)
		end_session(&nl, me->n - 1);
	l2s_nl_close(&nl);
	me->done = 1;
	exit(0);
}

/* ---- the check ----------------------------------------------------------- */

static int diffs;

static void expect(const char *what, const char *name, uint64_t got, uint64_t want)
{
	if (got == want)
		return;
	printf("MISMATCH %s %s: kernel %" PRIu64 ", held %" PRIu64 "\n", what, name, got, want);
	diffs++;
}

static struct worker *wk(char *area, size_t stride, int i)
{
	return (struct worker *)(area + stride * (size_t)i);
}

/*
 * Compare the namespace with what the workers hold; returns the sessions
 * held, *calls the calls.
 */
static uint64_t check(struct l2s_nl *nl, char *area, size_t stride, int procs, uint64_t *calls)
{
	uint64_t dest[MAX_DESTS] = { 0 }, tun[MAX_TUNNELS] = { 0 }, tg[N_TGROUPS] = { 0 };
	uint64_t client[N_CLIENTS] = { 0 }, slg[N_SLGS] = { 0 }, tid[N_TIDS] = { 0 };
	uint64_t total = 0, ncalls = 0, ltuns = 0;
	struct snap s;
	char name[64];
	uint32_t i;
	int p;

	for (p = 0; p < procs; p++) {
		struct worker *w = wk(area, stride, p);

		total += w->sessions;
		ncalls += w->n;
		for (i = 0; i < MAX_DESTS; i++)
			dest[i] += w->dest[i];
		for (i = 0; i < MAX_TUNNELS; i++)
			tun[i] += w->tun[i];
		for (i = 0; i < N_TGROUPS; i++)
			tg[i] += w->tg[i];
		for (i = 0; i < N_CLIENTS; i++)
			client[i] += w->client[i];
		for (i = 0; i < N_TIDS; i++)
			tid[i] += w->tid[i];
	}
	for (i = 0; i < N_CLIENTS; i++)
		slg[i < N_CLIENTS / 2 ? 0 : 1] += client[i];
	for (i = 0; i < N_TIDS; i++)
		ltuns += tid[i] > 0;
	take_snap(nl, &s);
	expect("chassis", "limit", s.chassis, total);
	expect("chassis", "summary", s.summary, total);
	expect("sessions", "dump", s.n_sessions, total);
	expect("sessions", "dump, of a login", s.n_login_sessions, ncalls);
	expect("sessions", "dump, detached", s.n_detached, 0);
	expect("l2tp tunnels", "summary", s.n_ltuns, ltuns);
	expect("logins", "in progress", s.n_logins, 0);
	if (s.ndest != layout.ndest || s.ntun != layout.ntun)
		expect("objects", "destinations + tunnels", s.ndest + s.ntun, layout.ndest + layout.ntun);
	for (i = 0; i < s.ndest && i < layout.ndest; i++) {
		snprintf(name, sizeof(name), "#%u", i);
		expect("destination", name, s.dest[i].sessions, dest[i]);
	}
	for (i = 0; i < s.ntun && i < layout.ntun; i++)
		expect("tunnel", s.tun[i].name, s.tun[i].sessions, tun[i]);
	for (i = 0; i < N_TGROUPS; i++) {
		snprintf(name, sizeof(name), "tg%u", i);
		expect("tunnel group", name, s.tg[i], tg[i]);
	}
	for (i = 0; i < N_CLIENTS; i++) {
		snprintf(name, sizeof(name), "c%u", i);
		expect("client", name, s.client[i], client[i]);
	}
	for (i = 0; i < N_SLGS; i++) {
		snprintf(name, sizeof(name), "s%u", i);
		expect("slg", name, s.slg[i], slg[i]);
		expect("slg members", name, s.slg_members[i], N_CLIENTS / N_SLGS);
	}
	*calls = ncalls;
	return total;
}

static void usage(void)
{
	fprintf(stderr, "usage: soak [-P PROCS] [-H HELD] [-t SECS] [-i SECS] [-s SEED] PROFILE\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int procs = 4, opt, p, checks = 0, failed = 0;
	uint32_t held = 4000, quota;
	double secs = 40, interval = 5, t0, next, t;
	uint64_t seed = (uint64_t)time(NULL), sum_cycles = 0;
	struct l2s_nl nl = { 0 };
	pid_t pids[MAX_PROCS];
	size_t stride, size;
	char *area;
	int err;

	while ((opt = getopt(argc, argv, "P:H:t:i:s:")) != -1) {
		switch (opt) {
		case 'P': procs = atoi(optarg); break;
		case 'H': held = (uint32_t)strtoul(optarg, NULL, 10); break;
		case 't': secs = atof(optarg); break;
		case 'i': interval = atof(optarg); break;
		case 's': seed = strtoull(optarg, NULL, 10); break;
		default: usage();
		}
	}
	if (optind != argc - 1 || procs < 1 || procs > MAX_PROCS || held < (uint32_t)procs ||
	    held > MAX_HELD || secs <= 0 || interval <= 0)
		usage();
	profile = argv[optind];
	quota = held / (uint32_t)procs;
	held = quota * (uint32_t)procs;
	printf("soak: seed %" PRIu64 ", %d workers holding %u sessions (%u each) for %.0f s, a check every %.0f s\n",
	       seed, procs, held, quota, secs, interval);
	fflush(stdout);

	err = l2s_nl_open(&nl);
	if (!err)
		err = l2s_nl_resolve(&nl);
	if (err)
		die("netlink: %s", nl.errmsg[0] ? nl.errmsg : strerror(-err));
	take_snap(&nl, &layout);
	if (!layout.ntun)
		die("profile %s has no tunnels", profile);
	if (layout.chassis || layout.n_sessions)
		die("the namespace already holds %u sessions", layout.chassis);

	stride = (sizeof(struct worker) + sizeof(struct live) * quota + 63) & ~(size_t)63;
	size = 4096 + stride * (size_t)procs;
	area = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
		die("mmap: %s", strerror(errno));
	ctl = (struct ctl *)area;
	area += 4096;
	for (p = 0; p < procs; p++) {
		pids[p] = fork();
		if (pids[p] < 0)
			die("fork: %s", strerror(errno));
		if (!pids[p]) {
			me = wk(area, stride, p);
			worker_run(p, quota, seed);
		}
	}

	t0 = now();
	next = t0 + interval;
	for (;;) {
		bool any_done = false, stop;

		usleep(20000);
		t = now();
		for (p = 0; p < procs; p++)
			any_done |= wk(area, stride, p)->done;
		stop = any_done || t - t0 >= secs;
		if (!stop && t < next)
			continue;
		if (stop)
			break;
		ctl->pause = 1;
		for (p = 0; p < procs; p++)
			while (!wk(area, stride, p)->paused && !wk(area, stride, p)->done)
				usleep(1000);
		{
			int before = diffs;
			uint64_t calls, live = check(&nl, area, stride, procs, &calls), cycles = 0;

			for (p = 0; p < procs; p++)
				cycles += wk(area, stride, p)->cycles;
			checks++;
			failed += diffs != before;
			printf("check %d at %.1f s: %" PRIu64 " sessions held (%" PRIu64 " calls), %" PRIu64
			       " cycles, %s\n", checks, now() - t0, live, calls, cycles,
			       diffs != before ? "MISMATCH" : "every counter equal");
			fflush(stdout);
		}
		ctl->pause = 0;
		next = now() + interval;
	}
	ctl->stop = 1;
	ctl->pause = 0;
	for (p = 0; p < procs; p++) {
		struct worker *w = wk(area, stride, p);
		int status;

		waitpid(pids[p], &status, 0);
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			printf("worker %d failed: %s\n", p, w->error[0] ? w->error : "died");
			failed++;
			/* its socket closed when it exited: its sessions ended there */
			w->n = w->sessions = 0;
			memset(w->dest, 0, sizeof(w->dest));
			memset(w->tun, 0, sizeof(w->tun));
			memset(w->tg, 0, sizeof(w->tg));
			memset(w->client, 0, sizeof(w->client));
			memset(w->tid, 0, sizeof(w->tid));
		}
	}
	{
		uint64_t ok = 0, fl = 0, nr = 0, rf = 0, dn = 0, calls, live;
		int before = diffs;

		for (p = 0; p < procs; p++) {
			struct worker *w = wk(area, stride, p);

			sum_cycles += w->cycles;
			ok += w->logins_ok;
			fl += w->logins_failed;
			nr += w->noreply;
			rf += w->refused;
			dn += w->downs;
		}
		live = check(&nl, area, stride, procs, &calls);
		checks++;
		failed += diffs != before;
		t = now() - t0;
		printf("final check after teardown: %" PRIu64 " sessions held, %s\n", live,
		       diffs != before ? "MISMATCH" : "every counter 0");
		printf("soak: %.1f s, %" PRIu64 " cycles (%.0f/s), logins ok %" PRIu64 " failed %" PRIu64
		       ", no-replies %" PRIu64 ", refused %" PRIu64 ", calls ended %" PRIu64
		       ", %d checks, %d with a mismatch\n",
		       t, sum_cycles, sum_cycles / t, ok, fl, nr, rf, dn, checks, failed);
	}
	l2s_nl_close(&nl);
	return failed || diffs ? 1 : 0;
}
