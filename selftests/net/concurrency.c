// SPDX-License-Identifier: GPL-2.0
/*
 * concurrency: several agents at once against the l2tpsel module, then every
 * counter compared with what the agents did (S-LIM-1, S-LIM-9,
 * S-SEL-4, S-LB-3).
 *
 *   concurrency [-P PROCS] [-n CYCLES] [-u UP] [-k KEYBASE] [-s SEED] PROFILE
 *
 * PROCS processes (default 4), each on its own netlink socket, run CYCLES
 * (default 10000) cycles of an LNS-side agent:
 *
 *   LOGIN_BEGIN profile PROFILE -> ATTEMPT ... LOGIN_REPORT (5 % no reply,
 *   which locks the destination out and fails over; 3 % client gone; else
 *   ok, which counts the LAC session KEY | LAC_BIT on tunnel id 100..115)
 *   until DONE; on success SESSION_UP (role LNS, key KEY, the same tunnel
 *   id, tunnel group tg0..tg2, client c0..c7; must be admitted), then
 *   SESSION_DOWN of both (the LAC one ends the selection counts too)
 *
 * except that the first UP successful logins of each process stay up.
 * Outcomes come from a per-process generator seeded with SEED + process.
 *
 * Before and after, the parent reads every counter of the namespace: per
 * destination sessions / attempts / failures, per tunnel of PROFILE its
 * sessions, per tunnel group, session-limit group and client the session
 * count, the chassis count, the L2TP tunnels counted, the logins in
 * progress.  After must equal before plus what the agents did, exactly:
 * for UP 0 every live count is back where it was, the attempt and failure
 * counts grew by the agents' attempts and no-replies.  Every difference is
 * printed; exit 0 all equal, 1 a difference or an error, 2 usage.
 *
 * The configuration (PROFILE, groups tg0..tg2 and s0..s1, clients c0..c7)
 * is set up by concurrency.sh.  Session keys are KEYBASE + (process << 24) +
 * cycle, and that with LAC_BIT for the LAC side.  Both are DETACHED (no
 * socket's), so that the sessions left up outlive the agents.
 */
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <signal.h>
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
#define MAX_DESTS	64
#define MAX_TUNNELS	64
#define MAX_NAMED	64
#define N_TGROUPS	3
#define N_CLIENTS	8
#define N_TIDS		16
#define LAC_BIT		(1ull << 63)
#define TID_BASE	100

/* What one process did, in memory shared with the parent. */
struct agent {
	uint32_t attempts[MAX_DESTS];
	uint32_t noreply[MAX_DESTS];
	uint32_t dest_up[MAX_DESTS];	/* sessions left up, by destination */
	uint32_t tun_up[MAX_TUNNELS];
	uint32_t tg_up[N_TGROUPS];
	uint32_t client_up[N_CLIENTS];
	uint32_t tid_up[N_TIDS];
	uint32_t up;
	uint32_t logins_ok, logins_failed, cycles, errors;
	char error[640];
};

struct named {
	char name[L2TPSEL_NAME_MAX];
	uint32_t count;
};

/* Every counter of the namespace that the agents change. */
struct snap {
	uint32_t ndest;
	struct {
		uint8_t remote[16];
		uint16_t port, alen;
		uint32_t sessions, attempts, failures;
	} dest[MAX_DESTS];
	uint32_t ntun;
	struct named tun[MAX_TUNNELS];
	uint32_t ntg, nslg, nclient;
	struct named tg[MAX_NAMED], slg[MAX_NAMED], client[MAX_NAMED];
	uint32_t chassis, summary_count, n_ltuns, n_logins;
};

static const char *profile;
static struct snap before;

static int die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static int die(const char *fmt, ...)
{
	va_list ap;

	fputs("concurrency: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
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
	s->dest[i].alen = l2s_attr_addr(tb, L2TPSEL_A_REMOTE, s->dest[i].remote);
	s->dest[i].port = l2s_attr_u16(tb, L2TPSEL_A_PORT, 0);
	s->dest[i].sessions = l2s_attr_u32(tb, L2TPSEL_A_SESSIONS, 0);
	s->dest[i].attempts = l2s_attr_u32(tb, L2TPSEL_A_ATTEMPTS, 0);
	s->dest[i].failures = l2s_attr_u32(tb, L2TPSEL_A_FAILURES, 0);
	s->ndest++;
	return MNL_CB_OK;
}

struct named_list {
	struct named *v;
	uint32_t *n;
	int name_attr, count_attr;
	const char *only_profile;
};

static int named_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];
	struct named_list *l = data;

	l2s_attr_parse(nlh, tb);
	if (l->only_profile && (!tb[L2TPSEL_A_PROFILE] ||
				strcmp(mnl_attr_get_str(tb[L2TPSEL_A_PROFILE]), l->only_profile)))
		return MNL_CB_OK;
	if (!tb[l->name_attr] || *l->n == MAX_NAMED)
		return MNL_CB_ERROR;
	snprintf(l->v[*l->n].name, sizeof(l->v[0].name), "%s", mnl_attr_get_str(tb[l->name_attr]));
	l->v[*l->n].count = l2s_attr_u32(tb, l->count_attr, 0);
	(*l->n)++;
	return MNL_CB_OK;
}

static void talk(struct l2s_nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data,
		 const char *what)
{
	int err = l2s_nl_talk(nl, nlh, cb, data);

	if (err)
		die("%s: %s%s%s", what, strerror(-err), nl->errmsg[0] ? ": " : "", nl->errmsg);
}

static void dump_named(struct l2s_nl *nl, uint8_t cmd, struct named *v, uint32_t *n,
		       int name_attr, const char *only_profile, const char *what)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct named_list l = {
		.v = v, .n = n, .name_attr = name_attr,
		.count_attr = cmd == L2TPSEL_CMD_TUNNEL_GET ? L2TPSEL_A_SESSIONS : L2TPSEL_A_COUNT,
		.only_profile = only_profile,
	};

	*n = 0;
	talk(nl, l2s_nl_req(nl, buf, cmd, NLM_F_DUMP), named_cb, &l, what);
}

static void take_snap(struct l2s_nl *nl, struct snap *s)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct kc_one o;

	memset(s, 0, sizeof(*s));
	talk(nl, l2s_nl_req(nl, buf, L2TPSEL_CMD_DEST_GET, NLM_F_DUMP), dest_cb, s,
	     "destination dump");
	dump_named(nl, L2TPSEL_CMD_TUNNEL_GET, s->tun, &s->ntun, L2TPSEL_A_NAME, profile,
		   "tunnel dump");
	dump_named(nl, L2TPSEL_CMD_TGROUP_GET, s->tg, &s->ntg, L2TPSEL_A_NAME, NULL,
		   "tunnel group dump");
	dump_named(nl, L2TPSEL_CMD_SLG_GET, s->slg, &s->nslg, L2TPSEL_A_NAME, NULL, "slg dump");
	dump_named(nl, L2TPSEL_CMD_CLIENT_GET, s->client, &s->nclient, L2TPSEL_A_NAME, NULL,
		   "client dump");
	o = (struct kc_one){ { L2TPSEL_A_COUNT, 0 }, { &s->chassis, NULL } };
	talk(nl, l2s_nl_req(nl, buf, L2TPSEL_CMD_LIMIT_GET, 0), kc_one_cb, &o, "limit get");
	o = (struct kc_one){ { L2TPSEL_A_COUNT, L2TPSEL_A_N_TUNNELS },
			      { &s->summary_count, &s->n_ltuns } };
	talk(nl, l2s_nl_req(nl, buf, L2TPSEL_CMD_SUMMARY_GET, 0), kc_one_cb, &o, "summary get");
	o = (struct kc_one){ { L2TPSEL_A_N_LOGINS, 0 }, { &s->n_logins, NULL } };
	talk(nl, l2s_nl_req(nl, buf, L2TPSEL_CMD_LOCKOUT_GET, 0), kc_one_cb, &o, "lockout get");
}

static int dest_index(const struct snap *s, const struct nlattr *remote, uint16_t port)
{
	uint32_t i, len = mnl_attr_get_payload_len(remote);

	for (i = 0; i < s->ndest; i++)
		if (s->dest[i].alen == len && s->dest[i].port == port &&
		    !memcmp(s->dest[i].remote, mnl_attr_get_payload(remote), len))
			return (int)i;
	return -1;
}

static int named_index(const struct named *v, uint32_t n, const char *name)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return (int)i;
	return -1;
}

/* ---- one agent --------------------------------------------------------- */

struct step {
	uint8_t kind, ok;
	uint32_t id;
	int dest, tunnel;
};

static struct agent *me;

static int step_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];
	struct step *st = data;

	l2s_attr_parse(nlh, tb);
	st->kind = l2s_attr_u8(tb, L2TPSEL_A_STEP, 0);
	st->ok = l2s_attr_u8(tb, L2TPSEL_A_OK, 0);
	if (tb[L2TPSEL_A_LOGIN_ID])
		st->id = mnl_attr_get_u32(tb[L2TPSEL_A_LOGIN_ID]);
	st->dest = st->tunnel = -1;
	if (tb[L2TPSEL_A_REMOTE])
		st->dest = dest_index(&before, tb[L2TPSEL_A_REMOTE],
				      l2s_attr_u16(tb, L2TPSEL_A_PORT, 0));
	if (tb[L2TPSEL_A_NAME])
		st->tunnel = named_index(before.tun, before.ntun, mnl_attr_get_str(tb[L2TPSEL_A_NAME]));
	return MNL_CB_OK;
}

static int admit_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];

	l2s_attr_parse(nlh, tb);
	*(int *)data = tb[L2TPSEL_A_ADMIT] ? l2s_attr_u8(tb, L2TPSEL_A_ADMIT, 0) : -1;
	return MNL_CB_OK;
}

static uint64_t rng;

static uint32_t rnd(uint32_t bound)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(((rng >> 32) * bound) >> 32);
}

/* Stop this agent: the message goes to the parent through shared memory. */
static void agent_fail(struct l2s_nl *nl, const char *what, int err)
{
	snprintf(me->error, sizeof(me->error), "cycle %u: %s: %s%s%s", me->cycles, what,
		 err < 0 ? strerror(-err) : "unexpected reply", nl->errmsg[0] ? ": " : "",
		 nl->errmsg);
	me->errors++;
	exit(1);
}

static void agent_talk(struct l2s_nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data,
		       const char *what)
{
	int err = l2s_nl_talk(nl, nlh, cb, data);

	if (err)
		agent_fail(nl, what, err);
}

static void agent_run(int proc, uint32_t cycles, uint32_t up, uint64_t keybase, uint64_t seed)
{
	char buf[MNL_SOCKET_BUFFER_SIZE], tg[8], client[8];
	struct l2s_nl nl = { 0 };
	struct nlmsghdr *nlh;
	uint32_t i;
	int err;

	rng = seed + (uint64_t)proc * 0x9e3779b97f4a7c15ull + 1;
	err = l2s_nl_open(&nl);
	if (!err)
		err = l2s_nl_resolve(&nl);
	if (err)
		agent_fail(&nl, "netlink socket", err);
	for (i = 0; i < cycles; i++, me->cycles++) {
		uint64_t key = keybase + ((uint64_t)proc << 24) + i;
		struct step st;
		int admit = -1, last_tunnel = -1;

		nlh = l2s_nl_req(&nl, buf, L2TPSEL_CMD_LOGIN_BEGIN, 0);
		mnl_attr_put_strz(nlh, L2TPSEL_A_PROFILE, profile);
		agent_talk(&nl, nlh, step_cb, &st, "login begin");
		while (st.kind == L2TPSEL_STEP_ATTEMPT) {
			uint32_t r = rnd(100);
			uint8_t outcome = r < 5 ? L2TPSEL_OUTCOME_NO_REPLY :
					  r < 8 ? L2TPSEL_OUTCOME_CLIENT_GONE : L2TPSEL_OUTCOME_OK;

			if (st.dest < 0 || st.tunnel < 0)
				agent_fail(&nl, "attempt on an unknown destination or tunnel", 0);
			me->attempts[st.dest]++;
			if (outcome == L2TPSEL_OUTCOME_NO_REPLY)
				me->noreply[st.dest]++;
			last_tunnel = st.tunnel;
			nlh = l2s_nl_req(&nl, buf, L2TPSEL_CMD_LOGIN_REPORT, 0);
			mnl_attr_put_u32(nlh, L2TPSEL_A_LOGIN_ID, st.id);
			mnl_attr_put_u8(nlh, L2TPSEL_A_OUTCOME, outcome);
			if (outcome == L2TPSEL_OUTCOME_OK) {
				mnl_attr_put_u64(nlh, L2TPSEL_A_SESSION_KEY, key | LAC_BIT);
				mnl_attr_put_u32(nlh, L2TPSEL_A_TUNNEL_ID, TID_BASE + i % N_TIDS);
				mnl_attr_put(nlh, L2TPSEL_A_DETACHED, 0, NULL);
			}
			agent_talk(&nl, nlh, step_cb, &st, "login report");
		}
		if (st.kind != L2TPSEL_STEP_DONE)
			agent_fail(&nl, "login: neither ATTEMPT nor DONE", 0);
		if (!st.ok) {
			me->logins_failed++;
			continue;
		}
		me->logins_ok++;
		if (st.tunnel != last_tunnel || st.dest < 0)
			agent_fail(&nl, "login ok on another tunnel than the last attempt", 0);

		snprintf(tg, sizeof(tg), "tg%u", i % N_TGROUPS);
		snprintf(client, sizeof(client), "c%u", (proc + i) % N_CLIENTS);
		nlh = l2s_nl_req(&nl, buf, L2TPSEL_CMD_SESSION_UP, 0);
		mnl_attr_put_u64(nlh, L2TPSEL_A_SESSION_KEY, key);
		mnl_attr_put_u8(nlh, L2TPSEL_A_ROLE, L2TPSEL_ROLE_LNS);
		mnl_attr_put_u32(nlh, L2TPSEL_A_TUNNEL_ID, TID_BASE + i % N_TIDS);
		mnl_attr_put_strz(nlh, L2TPSEL_A_TGROUP, tg);
		mnl_attr_put_strz(nlh, L2TPSEL_A_CLIENT, client);
		mnl_attr_put(nlh, L2TPSEL_A_DETACHED, 0, NULL);
		agent_talk(&nl, nlh, admit_cb, &admit, "session up");
		if (admit != L2TPSEL_LEVEL_PASS)
			agent_fail(&nl, "session up not admitted (no limit is set)", 0);

		if (me->up < up) {
			me->up++;
			me->dest_up[st.dest]++;
			me->tun_up[st.tunnel]++;
			me->tg_up[i % N_TGROUPS]++;
			me->client_up[(proc + i) % N_CLIENTS]++;
			me->tid_up[i % N_TIDS]++;
			continue;
		}
		nlh = l2s_nl_req(&nl, buf, L2TPSEL_CMD_SESSION_DOWN, 0);
		mnl_attr_put_u64(nlh, L2TPSEL_A_SESSION_KEY, key);
		agent_talk(&nl, nlh, NULL, NULL, "session down");
		nlh = l2s_nl_req(&nl, buf, L2TPSEL_CMD_SESSION_DOWN, 0);
		mnl_attr_put_u64(nlh, L2TPSEL_A_SESSION_KEY, key | LAC_BIT);
		agent_talk(&nl, nlh, NULL, NULL, "session down (LAC)");
	}
	l2s_nl_close(&nl);
	exit(0);
}

/* ---- the comparison ---------------------------------------------------- */

static int diffs;

static void expect(const char *what, const char *name, uint32_t got, uint64_t want)
{
	if (got == want)
		return;
	printf("MISMATCH %s %s: kernel %u, expected %" PRIu64 "\n", what, name, got, want);
	diffs++;
}

static uint32_t named_count(const struct named *v, uint32_t n, const char *name)
{
	int i = named_index(v, n, name);

	return i < 0 ? 0 : v[i].count;
}

int main(int argc, char **argv)
{
	uint32_t procs = 4, cycles = 10000, up = 0, i, p, c;
	uint64_t keybase = 1ull << 40, seed = 1;
	struct l2s_nl nl = { 0 };
	struct agent *agents, sum;
	struct timespec t0, t1;
	pid_t pid[MAX_PROCS];
	struct snap after;
	char name[80];
	int opt, err, failed = 0;
	uint64_t ltuns = 0;
	double secs;

	while ((opt = getopt(argc, argv, "P:n:u:k:s:")) != -1) {
		char *end;
		unsigned long long v;

		errno = 0;
		v = strtoull(optarg, &end, 0);
		if (errno || *end || end == optarg) {
			fprintf(stderr, "concurrency: -%c %s: not a number\n", opt, optarg);
			return 2;
		}
		switch (opt) {
		case 'P': procs = v; break;
		case 'n': cycles = v; break;
		case 'u': up = v; break;
		case 'k': keybase = v; break;
		case 's': seed = v; break;
		default: return 2;
		}
	}
	if (optind != argc - 1 || !procs || procs > MAX_PROCS || cycles >= 1u << 24 || up > cycles) {
		fprintf(stderr, "usage: concurrency [-P PROCS 1..%u] [-n CYCLES] [-u UP <= CYCLES] [-k KEYBASE] [-s SEED] PROFILE\n",
			MAX_PROCS);
		return 2;
	}
	profile = argv[optind];
	err = l2s_nl_open(&nl);
	if (!err)
		err = l2s_nl_resolve(&nl);
	if (err)
		die("cannot reach the l2tpsel family: %s %s", strerror(-err), nl.errmsg);
	take_snap(&nl, &before);
	if (!before.ntun)
		die("profile %s has no tunnels (concurrency.sh sets it up)", profile);

	agents = mmap(NULL, sizeof(*agents) * procs, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (agents == MAP_FAILED)
		die("mmap: %s", strerror(errno));
	memset(agents, 0, sizeof(*agents) * procs);
	fflush(NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (p = 0; p < procs; p++) {
		pid[p] = fork();
		if (pid[p] < 0)
			die("fork: %s", strerror(errno));
		if (!pid[p]) {
			me = &agents[p];
			agent_run((int)p, cycles, up, keybase, seed);
		}
	}
	for (p = 0; p < procs; p++) {
		int status;

		if (waitpid(pid[p], &status, 0) < 0)
			die("waitpid: %s", strerror(errno));
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			printf("agent %u failed: %s\n", p, agents[p].error[0] ? agents[p].error :
			       "killed");
			failed++;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	take_snap(&nl, &after);
	l2s_nl_close(&nl);

	memset(&sum, 0, sizeof(sum));
	for (p = 0; p < procs; p++) {
		for (i = 0; i < MAX_DESTS; i++) {
			sum.attempts[i] += agents[p].attempts[i];
			sum.noreply[i] += agents[p].noreply[i];
			sum.dest_up[i] += agents[p].dest_up[i];
		}
		for (i = 0; i < MAX_TUNNELS; i++)
			sum.tun_up[i] += agents[p].tun_up[i];
		for (i = 0; i < N_TGROUPS; i++)
			sum.tg_up[i] += agents[p].tg_up[i];
		for (i = 0; i < N_CLIENTS; i++)
			sum.client_up[i] += agents[p].client_up[i];
		for (i = 0; i < N_TIDS; i++)
			sum.tid_up[i] += agents[p].tid_up[i];
		sum.up += agents[p].up;
		sum.logins_ok += agents[p].logins_ok;
		sum.logins_failed += agents[p].logins_failed;
		sum.cycles += agents[p].cycles;
	}
	for (i = 0; i < N_TIDS; i++)
		ltuns += sum.tid_up[i] > 0;
	printf("%u processes x %u cycles in %.1f s (%.0f cycles/s): %u logins ok, %u failed, %u sessions left up\n",
	       procs, cycles, secs, sum.cycles / secs, sum.logins_ok, sum.logins_failed, sum.up);

	if (after.ndest != before.ndest || after.ntun != before.ntun)
		die("the configuration changed during the run");
	for (i = 0; i < before.ndest; i++) {
		snprintf(name, sizeof(name), "#%u (port %u)", i, before.dest[i].port);
		printf("destination %s: attempts +%u, failures +%u, sessions %u\n", name,
		       sum.attempts[i], sum.noreply[i], after.dest[i].sessions);
		expect("destination attempts", name, after.dest[i].attempts,
		       (uint64_t)before.dest[i].attempts + sum.attempts[i]);
		expect("destination failures", name, after.dest[i].failures,
		       (uint64_t)before.dest[i].failures + sum.noreply[i]);
		expect("destination sessions", name, after.dest[i].sessions,
		       (uint64_t)before.dest[i].sessions + sum.dest_up[i]);
	}
	for (i = 0; i < before.ntun; i++)
		expect("tunnel sessions", before.tun[i].name, after.tun[i].count,
		       (uint64_t)before.tun[i].count + sum.tun_up[i]);
	for (c = 0; c < N_TGROUPS; c++) {
		snprintf(name, sizeof(name), "tg%u", c);
		expect("tunnel group count", name, named_count(after.tg, after.ntg, name),
		       (uint64_t)named_count(before.tg, before.ntg, name) + sum.tg_up[c]);
	}
	for (c = 0; c < N_CLIENTS; c++) {
		snprintf(name, sizeof(name), "c%u", c);
		expect("client count", name, named_count(after.client, after.nclient, name),
		       (uint64_t)named_count(before.client, before.nclient, name) + sum.client_up[c]);
	}
	/* concurrency.sh puts c0..c3 in s0 and c4..c7 in s1 (S-LIM-4). */
	for (c = 0; c < 2; c++) {
		uint64_t want = 0;

		snprintf(name, sizeof(name), "s%u", c);
		for (i = c * 4; i < c * 4 + 4; i++)
			want += sum.client_up[i];
		expect("slg count", name, named_count(after.slg, after.nslg, name),
		       named_count(before.slg, before.nslg, name) + want);
	}
	/* each login left up is two sessions: the LAC's and the LNS's */
	expect("chassis count", "", after.chassis, (uint64_t)before.chassis + 2 * sum.up);
	expect("summary count", "", after.summary_count,
	       (uint64_t)before.summary_count + 2 * sum.up);
	expect("L2TP tunnels counted", "", after.n_ltuns, before.n_ltuns + ltuns);
	expect("logins in progress", "", after.n_logins, 0);
	if (sum.cycles != (uint64_t)procs * cycles)
		printf("only %u of %" PRIu64 " cycles ran\n", sum.cycles, (uint64_t)procs * cycles);
	printf("%s: %d counter(s) differ, %d agent(s) failed\n",
	       diffs || failed ? "FAIL" : "OK", diffs, failed);
	return diffs || failed || sum.cycles != (uint64_t)procs * cycles ? 1 : 0;
}
