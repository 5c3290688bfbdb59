// SPDX-License-Identifier: GPL-2.0
/*
 * A generator of malformed and random l2tpsel netlink messages,
 * run against the real module in the VM by nl_fuzz.sh.
 *
 * Messages: valid requests of every command drawn from small name pools (so
 * that state is built up and torn down: profiles, tunnels, domains, groups,
 * clients, sessions, logins that are begun, reported and abandoned, lockouts
 * that expire; a login's OK counts a session, its key at times another's,
 * which SESSION_DOWN or its socket's close ends), the same mutated
 * (attributes dropped, duplicated, retyped, truncated, extended,
 * NLA_F_NESTED flipped, huge strings, nested garbage, unknown types,
 * trailing bytes, broken nla_len), random attribute soups, random commands
 * (a number the module serves no more among them), flags and header bytes,
 * and dumps.  Several worker processes send at once (two as root, one as
 * uid 65534), one listens to the events group.
 *
 * Oracles while it runs: every request gets an answer; every refusal's
 * errno is one the API documents and, when it is the family's own refusal,
 * carries an extack message (or the missing attribute's type); the
 * unprivileged worker gets EPERM on every admin command; no reply, dump or
 * event carries the SECRET attribute or a secret's bytes.  After the run:
 * counters are consistent (summary, limits, groups, clients, destinations
 * and profiles agree with the session and tunnel dumps; a profile's tunnels
 * count the sessions its logins counted), no login and no session but
 * DETACHED ones is left once the sockets are closed, ending every session
 * (SESSION_DOWN) brings every tunnel's and destination's sessions to zero,
 * and tearing everything down brings every count to zero.  nl_fuzz.sh then
 * unloads the module; the VM fails the run on any kernel warning.
 *
 *   nl_fuzz [-n MESSAGES] [-s SEED] [-w WORKERS] [-V] [-v N]
 *     -V  valid requests only; -v N  show the first N refusals of valid ones
 *   NL_FUZZ_MESSAGES, NL_FUZZ_SEED: the same from the environment
 *
 * The seed is printed; with -w 1 the message sequence is exactly
 * reproducible (the kernel's own random draws are not).
 */
#include <errno.h>
#include <grp.h>
#include <malloc.h>
#include <sched.h>
#include <stddef.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "l2s_nltest.h"

#define SECRET		"fz-Secret-9f3e1c"
#define MAX_ATTRS	32
#define ARENA		(192 * 1024)

/* ---- random numbers ------------------------------------------------------ */

static uint64_t rng_state;

static uint64_t rnd64(void)
{
	/* splitmix64 */
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t rnd(uint32_t n)
{
	return n ? (uint32_t)(rnd64() % n) : 0;
}

static bool chance(uint32_t percent)
{
	return rnd(100) < percent;
}

/* ---- the API's shape (uapi/linux/l2tpsel.h) ----------------------------- */

/* Admin commands (GENL_UNS_ADMIN_PERM), and the ones that can be dumped. */
static bool is_admin(uint8_t cmd)
{
	switch (cmd) {
	case L2TPSEL_CMD_LIMIT_SET: case L2TPSEL_CMD_TGROUP_NEW: case L2TPSEL_CMD_TGROUP_SET:
	case L2TPSEL_CMD_TGROUP_DEL: case L2TPSEL_CMD_SLG_NEW: case L2TPSEL_CMD_SLG_SET:
	case L2TPSEL_CMD_SLG_DEL: case L2TPSEL_CMD_CLIENT_NEW: case L2TPSEL_CMD_CLIENT_SET:
	case L2TPSEL_CMD_CLIENT_DEL: case L2TPSEL_CMD_SESSION_UP: case L2TPSEL_CMD_SESSION_DOWN:
	case L2TPSEL_CMD_PROFILE_NEW: case L2TPSEL_CMD_PROFILE_SET: case L2TPSEL_CMD_PROFILE_DEL:
	case L2TPSEL_CMD_TUNNEL_NEW: case L2TPSEL_CMD_TUNNEL_DEL: case L2TPSEL_CMD_DOMAIN_NEW:
	case L2TPSEL_CMD_DOMAIN_DEL: case L2TPSEL_CMD_LOCKOUT_SET: case L2TPSEL_CMD_LOCKOUT_CLEAR:
	case L2TPSEL_CMD_LOGIN_BEGIN: case L2TPSEL_CMD_LOGIN_REPORT: case L2TPSEL_CMD_LOGIN_TEST:
	case L2TPSEL_CMD_DEST_LOCK: case L2TPSEL_CMD_TUNNEL_DRAIN: case L2TPSEL_CMD_DEST_DRAIN:
	case L2TPSEL_CMD_RL_NEW: case L2TPSEL_CMD_RL_SET: case L2TPSEL_CMD_RL_DEL:
	case L2TPSEL_CMD_RL_CHECK: case L2TPSEL_CMD_THROTTLE_NEW: case L2TPSEL_CMD_THROTTLE_SET:
	case L2TPSEL_CMD_THROTTLE_DEL: case L2TPSEL_CMD_THROTTLE_LOAD:
	/* the reads too: only GET_INFO is open */
	case L2TPSEL_CMD_LIMIT_GET: case L2TPSEL_CMD_TGROUP_GET: case L2TPSEL_CMD_SLG_GET:
	case L2TPSEL_CMD_CLIENT_GET: case L2TPSEL_CMD_SESSION_GET: case L2TPSEL_CMD_SUMMARY_GET:
	case L2TPSEL_CMD_PROFILE_GET: case L2TPSEL_CMD_TUNNEL_GET: case L2TPSEL_CMD_DOMAIN_GET:
	case L2TPSEL_CMD_DEST_GET: case L2TPSEL_CMD_LOCKOUT_GET: case L2TPSEL_CMD_RL_GET:
	case L2TPSEL_CMD_THROTTLE_GET:
		return true;
	}
	return false;
}

static bool is_dump(uint8_t cmd)
{
	switch (cmd) {
	case L2TPSEL_CMD_TGROUP_GET: case L2TPSEL_CMD_SLG_GET: case L2TPSEL_CMD_CLIENT_GET:
	case L2TPSEL_CMD_SESSION_GET: case L2TPSEL_CMD_PROFILE_GET: case L2TPSEL_CMD_TUNNEL_GET:
	case L2TPSEL_CMD_DOMAIN_GET: case L2TPSEL_CMD_DEST_GET: case L2TPSEL_CMD_RL_GET:
	case L2TPSEL_CMD_THROTTLE_GET:
		return true;
	}
	return false;
}

/*
 * Commands that exist (the events are not requests; TUNNEL_SESSION_DOWN is
 * not served, EOPNOTSUPP as for any number without an op: the header games
 * still send it).
 */
static bool is_cmd(uint8_t cmd)
{
	return cmd >= L2TPSEL_CMD_GET_INFO && cmd <= L2TPSEL_CMD_MAX &&
	       cmd != L2TPSEL_CMD_EV_LIMIT_REACHED && cmd != L2TPSEL_CMD_EV_LIMIT_CLEARED &&
	       cmd != L2TPSEL_CMD_EV_LOCKOUT && cmd != L2TPSEL_CMD_EV_UNLOCK &&
	       cmd != L2TPSEL_CMD_EV_LOGIN && cmd != L2TPSEL_CMD_EV_THROTTLE &&
	       cmd != L2TPSEL_CMD_TUNNEL_SESSION_DOWN;
}

/* ---- requests ------------------------------------------------------------ */

struct fattr {
	uint16_t type;		/* with NLA_F_* flags */
	uint32_t len;
	uint8_t *data;
};

struct freq {
	uint8_t cmd, version, reserved;
	uint16_t flags;
	int n;
	struct fattr a[MAX_ATTRS];
	uint8_t tail[3];
	int ntail;		/* bytes after the last attribute */
	int bad_len;		/* 1: the last attribute's nla_len lies */
	uint8_t arena[ARENA];
	size_t used;
};

static uint8_t *arena_get(struct freq *r, size_t len)
{
	uint8_t *p;

	if (r->used + len > ARENA)
		return NULL;
	p = r->arena + r->used;
	r->used += (len + 3) & ~(size_t)3;
	return p;
}

static void add(struct freq *r, uint16_t type, const void *data, uint32_t len)
{
	uint8_t *p;

	if (r->n == MAX_ATTRS || !(p = arena_get(r, len)))
		return;
	memcpy(p, data, len);
	r->a[r->n++] = (struct fattr){ type, len, p };
}

static void add_u8(struct freq *r, uint16_t t, uint8_t v) { add(r, t, &v, 1); }
static void add_u16(struct freq *r, uint16_t t, uint16_t v) { add(r, t, &v, 2); }
static void add_u32(struct freq *r, uint16_t t, uint32_t v) { add(r, t, &v, 4); }
static void add_u64(struct freq *r, uint16_t t, uint64_t v) { add(r, t, &v, 8); }
static void add_str(struct freq *r, uint16_t t, const char *s) { add(r, t, s, (uint32_t)strlen(s) + 1); }
static void add_flag(struct freq *r, uint16_t t) { add(r, t, "", 0); }

/* ---- pools: small, so that requests meet each other's objects ----------- */

static const char *const profiles[] = { "P0", "P1", "P2", "P3", "P4", "P5" };
static const char *const tunnels[] = { "T0", "T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9" };
static const char *const domains[] = { "d0.example", "d1.example", "d2.example", "d3.example" };
static const char *const tgroups[] = { "G0", "G1", "G2", "G3" };
static const char *const slgs[] = { "S0", "S1", "S2" };
static const char *const clients[] = { "C0", "C1", "C2", "C3", "C4", "C5" };
static const char *const rlimits[] = { "R0", "R1", "R2", "R3", "R4" };
static const char *const throttles[] = { "H0", "H1", "H2" };
#define PICK(arr) (arr[rnd(sizeof(arr) / sizeof(arr[0]))])

static void add_addr(struct freq *r, uint16_t type)
{
	uint8_t a[16] = { 10, 77, 0, 0 };

	if (chance(10)) {
		memset(a, 0, sizeof(a));
		a[0] = 0xfd;
		a[15] = (uint8_t)(1 + rnd(4));
		add(r, type, a, 16);
		return;
	}
	a[3] = (uint8_t)(1 + rnd(12));
	add(r, type, a, 4);
}

static char userbuf[64];

static const char *a_user(void)
{
	snprintf(userbuf, sizeof(userbuf), "u%u@%s", rnd(50), PICK(domains));
	return userbuf;
}

/* Per worker: logins begun and not finished, sessions up (by key). */
struct wstate {
	uint32_t logins[64];
	unsigned int nlogins;
};

static struct wstate ws;

/* A valid request of @cmd, optional attributes at random. */
static void build_valid(struct freq *r, uint8_t cmd)
{
	r->cmd = cmd;
	switch (cmd) {
	case L2TPSEL_CMD_LIMIT_SET:
		if (chance(30))
			add_u32(r, L2TPSEL_A_CHASSIS_MAX, chance(50) ? 1000000 : 50 + rnd(200));
		if (chance(60) || !r->n)
			add_u32(r, L2TPSEL_A_CHASSIS_LIMIT, chance(50) ? 0 : rnd(300));
		if (chance(40))
			add_u32(r, L2TPSEL_A_TUNNEL_LIMIT, chance(50) ? 0 : rnd(20));
		break;
	case L2TPSEL_CMD_TGROUP_NEW: case L2TPSEL_CMD_TGROUP_SET:
		add_str(r, L2TPSEL_A_NAME, PICK(tgroups));
		if (chance(60))
			add_u32(r, L2TPSEL_A_LIMIT, rnd(30));
		break;
	case L2TPSEL_CMD_SLG_NEW: case L2TPSEL_CMD_SLG_SET:
		add_str(r, L2TPSEL_A_NAME, PICK(slgs));
		if (chance(60))
			add_u32(r, L2TPSEL_A_LIMIT, rnd(30));
		break;
	case L2TPSEL_CMD_TGROUP_DEL: case L2TPSEL_CMD_TGROUP_GET:
		add_str(r, L2TPSEL_A_NAME, PICK(tgroups));
		break;
	case L2TPSEL_CMD_SLG_DEL: case L2TPSEL_CMD_SLG_GET:
		add_str(r, L2TPSEL_A_NAME, PICK(slgs));
		break;
	case L2TPSEL_CMD_CLIENT_NEW: case L2TPSEL_CMD_CLIENT_SET:
		add_str(r, L2TPSEL_A_NAME, PICK(clients));
		if (chance(50))
			add_u32(r, L2TPSEL_A_LIMIT, rnd(20));
		if (chance(50))
			add_str(r, L2TPSEL_A_SLG, chance(25) ? "" : PICK(slgs));
		break;
	case L2TPSEL_CMD_CLIENT_DEL: case L2TPSEL_CMD_CLIENT_GET:
		add_str(r, L2TPSEL_A_NAME, PICK(clients));
		break;
	case L2TPSEL_CMD_SESSION_UP: {
		uint8_t role = (uint8_t)rnd(2);

		add_u64(r, L2TPSEL_A_SESSION_KEY, 1 + rnd(400));
		add_u8(r, L2TPSEL_A_ROLE, role);
		add_u32(r, L2TPSEL_A_TUNNEL_ID, 1 + rnd(24));
		if (role == L2TPSEL_ROLE_LNS && chance(60))
			add_str(r, L2TPSEL_A_TGROUP, PICK(tgroups));
		if (role == L2TPSEL_ROLE_LNS && chance(60))
			add_str(r, L2TPSEL_A_CLIENT, PICK(clients));
		if (chance(30))
			add_flag(r, L2TPSEL_A_DETACHED);
		break;
	}
	case L2TPSEL_CMD_SESSION_DOWN:
		add_u64(r, L2TPSEL_A_SESSION_KEY, 1 + rnd(400));
		break;
	case L2TPSEL_CMD_PROFILE_NEW: case L2TPSEL_CMD_PROFILE_SET:
		add_str(r, L2TPSEL_A_NAME, PICK(profiles));
		if (chance(40))
			add_u8(r, L2TPSEL_A_FAILOVER, (uint8_t)rnd(2));
		if (chance(40))
			add_u8(r, L2TPSEL_A_LB, (uint8_t)rnd(5));
		if (chance(20))
			add_u32(r, L2TPSEL_A_FAILOVER_CDN, (uint32_t)rnd64());
		if (chance(20))
			add_u32(r, L2TPSEL_A_FAILOVER_STOPCCN, (uint32_t)rnd64());
		break;
	case L2TPSEL_CMD_PROFILE_DEL: case L2TPSEL_CMD_PROFILE_GET:
		add_str(r, L2TPSEL_A_NAME, PICK(profiles));
		break;
	case L2TPSEL_CMD_TUNNEL_NEW:
		add_str(r, L2TPSEL_A_NAME, PICK(tunnels));
		add_str(r, L2TPSEL_A_PROFILE, PICK(profiles));
		add_u8(r, L2TPSEL_A_SEL_LEVEL, (uint8_t)rnd(chance(5) ? 9 : 4));
		add_addr(r, L2TPSEL_A_REMOTE);
		if (chance(30))
			add_u16(r, L2TPSEL_A_PORT, chance(50) ? 1701 : (uint16_t)(1702 + rnd(3)));
		if (chance(15))
			add_addr(r, L2TPSEL_A_LOCAL);
		if (chance(40))
			add_u32(r, L2TPSEL_A_MAX_SESSIONS, rnd(5));
		if (chance(30))
			add_str(r, L2TPSEL_A_TGROUP, PICK(tgroups));
		if (chance(40))
			add_str(r, L2TPSEL_A_SECRET, SECRET);
		break;
	case L2TPSEL_CMD_TUNNEL_DEL:
		add_str(r, L2TPSEL_A_NAME, PICK(tunnels));
		add_str(r, L2TPSEL_A_PROFILE, PICK(profiles));
		break;
	case L2TPSEL_CMD_TUNNEL_DRAIN:
		add_str(r, L2TPSEL_A_NAME, PICK(tunnels));
		add_str(r, L2TPSEL_A_PROFILE, PICK(profiles));
		add_u8(r, L2TPSEL_A_DRAIN, (uint8_t)rnd(chance(5) ? 3 : 2));
		break;
	case L2TPSEL_CMD_DEST_DRAIN:
		add_addr(r, L2TPSEL_A_REMOTE);
		add_u8(r, L2TPSEL_A_DRAIN, (uint8_t)rnd(chance(5) ? 3 : 2));
		if (chance(30))
			add_u16(r, L2TPSEL_A_PORT, 1701);
		break;
	case L2TPSEL_CMD_TUNNEL_GET:
		if (chance(40))
			add_str(r, L2TPSEL_A_PROFILE, PICK(profiles));
		break;
	case L2TPSEL_CMD_DOMAIN_NEW:
		add_str(r, L2TPSEL_A_DOMAIN, PICK(domains));
		add_str(r, L2TPSEL_A_PROFILE, PICK(profiles));
		break;
	case L2TPSEL_CMD_DOMAIN_DEL: case L2TPSEL_CMD_DOMAIN_GET:
		add_str(r, L2TPSEL_A_DOMAIN, PICK(domains));
		break;
	case L2TPSEL_CMD_LOCKOUT_SET:
		if (chance(70) || chance(50))
			add_u32(r, L2TPSEL_A_LOCKOUT_TIME, 1 + rnd(4));
		if (chance(30) || !r->n)
			add_u32(r, L2TPSEL_A_MAX_LOGINS, 1 + rnd(100));
		break;
	case L2TPSEL_CMD_LOCKOUT_CLEAR:
		if (chance(30))
			add_addr(r, L2TPSEL_A_REMOTE);
		else if (chance(20))
			add_addr(r, L2TPSEL_A_LOCAL);
		break;
	case L2TPSEL_CMD_DEST_LOCK:
		add_addr(r, L2TPSEL_A_REMOTE);
		add_u32(r, L2TPSEL_A_LOCKOUT_REMAINING, chance(30) ? 0 : rnd(3000));
		if (chance(30))
			add_u16(r, L2TPSEL_A_PORT, 1701);
		break;
	case L2TPSEL_CMD_LOGIN_BEGIN: case L2TPSEL_CMD_LOGIN_TEST:
		if (chance(60))
			add_str(r, L2TPSEL_A_USER, a_user());
		if (chance(50) || !r->n)
			add_str(r, L2TPSEL_A_PROFILE, PICK(profiles));
		if (chance(20))
			add_str(r, L2TPSEL_A_KEY, a_user());
		if (cmd == L2TPSEL_CMD_LOGIN_BEGIN && chance(15)) {
			uint8_t nest[8 * 12];
			size_t o = 0;
			unsigned int k, n = rnd(4);

			for (k = 0; k < n; k++) {
				const char *t = PICK(tunnels);
				struct nlattr *na = (struct nlattr *)(nest + o);

				na->nla_type = L2TPSEL_A_NAME;
				na->nla_len = (uint16_t)(4 + strlen(t) + 1);
				memcpy(nest + o + 4, t, strlen(t) + 1);
				o += (na->nla_len + 3u) & ~3u;
			}
			add(r, L2TPSEL_A_PICKS | NLA_F_NESTED, nest, (uint32_t)o);
		}
		break;
	case L2TPSEL_CMD_LOGIN_REPORT: {
		uint8_t o = (uint8_t)(1 + rnd(5));

		add_u32(r, L2TPSEL_A_LOGIN_ID, ws.nlogins && chance(90) ?
			ws.logins[rnd(ws.nlogins)] : rnd(5000));
		add_u8(r, L2TPSEL_A_OUTCOME, o);
		if (o == L2TPSEL_OUTCOME_CDN || o == L2TPSEL_OUTCOME_STOPCCN || chance(10))
			add_u16(r, L2TPSEL_A_RESULT_CODE, (uint16_t)rnd(12));
		if (chance(30))
			add_u16(r, L2TPSEL_A_ERROR_CODE, (uint16_t)rnd(12));
		/* The session an OK counts: keys of SESSION_UP's range, EEXIST at times. */
		if (o == L2TPSEL_OUTCOME_OK || chance(10)) {
			add_u64(r, L2TPSEL_A_SESSION_KEY, 1 + rnd(400));
			add_u32(r, L2TPSEL_A_TUNNEL_ID, 1 + rnd(24));
			if (chance(30))
				add_flag(r, L2TPSEL_A_DETACHED);
		}
		break;
	}
	case L2TPSEL_CMD_RL_NEW: case L2TPSEL_CMD_RL_SET: {
		bool is_new = cmd == L2TPSEL_CMD_RL_NEW;
		uint8_t dir = (uint8_t)rnd(2);

		add_str(r, L2TPSEL_A_NAME, PICK(rlimits));
		if (is_new || chance(50))
			add_u32(r, L2TPSEL_A_RL_RATE, 1 + rnd(chance(50) ? 20 : 100000));
		if (is_new || chance(50))
			add_u32(r, L2TPSEL_A_RL_BURST, 1 + rnd(50));
		if (is_new && chance(70)) {
			add_u8(r, L2TPSEL_A_RL_DIR, dir);
			add_u8(r, L2TPSEL_A_RL_MSG, dir ? (uint8_t)(chance(50) ? 0 : 4) :
			       (uint8_t)rnd(4));
			switch (rnd(5)) {
			case 0: add_str(r, L2TPSEL_A_RL_PEER, PICK(clients)); break;
			case 1: add_addr(r, L2TPSEL_A_REMOTE); break;
			case 2: add_str(r, L2TPSEL_A_DOMAIN, PICK(domains)); break;
			case 3: add_str(r, L2TPSEL_A_PROFILE, PICK(profiles)); break;
			default: break;
			}
		}
		if (chance(30))
			add_u8(r, L2TPSEL_A_RL_ACTION, (uint8_t)rnd(2));
		if (chance(20))
			add_str(r, L2TPSEL_A_RL_MESSAGE, "slow down");
		if (chance(30))
			add_str(r, L2TPSEL_A_RL_THROTTLE, chance(20) ? "" : PICK(throttles));
		if (!is_new && chance(20))
			add_u8(r, L2TPSEL_A_RL_RESET, 1);
		break;
	}
	case L2TPSEL_CMD_RL_DEL: case L2TPSEL_CMD_RL_GET:
		add_str(r, L2TPSEL_A_NAME, PICK(rlimits));
		break;
	case L2TPSEL_CMD_RL_CHECK: {
		uint8_t dir = (uint8_t)rnd(2);

		add_u8(r, L2TPSEL_A_RL_DIR, dir);
		add_u8(r, L2TPSEL_A_RL_MSG, dir ? 4 : (uint8_t)(1 + rnd(3)));
		if (chance(50))
			add_str(r, L2TPSEL_A_RL_PEER, PICK(clients));
		if (chance(50))
			add_addr(r, L2TPSEL_A_REMOTE);
		if (chance(30))
			add_str(r, L2TPSEL_A_DOMAIN, PICK(domains));
		if (chance(30))
			add_str(r, L2TPSEL_A_PROFILE, PICK(profiles));
		if (chance(30))
			add_u32(r, L2TPSEL_A_RL_COUNT, 1 + rnd(chance(90) ? 20 : 10000));
		break;
	}
	case L2TPSEL_CMD_THROTTLE_NEW: case L2TPSEL_CMD_THROTTLE_SET: {
		bool is_new = cmd == L2TPSEL_CMD_THROTTLE_NEW;

		add_str(r, L2TPSEL_A_NAME, PICK(throttles));
		if (is_new || chance(40))
			add_u32(r, L2TPSEL_A_RL_HOLD, 1 + rnd(3000));
		if (is_new || chance(40))
			add_u8(r, L2TPSEL_A_RL_STEP, (uint8_t)(1 + rnd(50)));
		if (is_new || chance(40)) {
			uint8_t nest[8 * 16];
			unsigned int k, n = 1 + rnd(4), load = 0, pct = 0;
			size_t o = 0;

			for (k = 0; k < n; k++) {
				struct nlattr *band = (struct nlattr *)(nest + o);
				struct nlattr *l = (struct nlattr *)(nest + o + 4);
				struct nlattr *p = (struct nlattr *)(nest + o + 12);

				load += 1 + rnd(25);
				pct += rnd(30);
				band->nla_type = L2TPSEL_A_RL_BAND | NLA_F_NESTED;
				band->nla_len = 4 + 8 + 8;
				l->nla_type = L2TPSEL_A_RL_BAND_LOAD;
				l->nla_len = 5;
				memset(nest + o + 8, 0, 4);
				nest[o + 8] = (uint8_t)(load > 100 ? 100 : load);
				p->nla_type = L2TPSEL_A_RL_BAND_PERCENT;
				p->nla_len = 5;
				memset(nest + o + 16, 0, 4);
				nest[o + 16] = (uint8_t)(pct > 100 ? 100 : pct);
				o += 20;
			}
			add(r, L2TPSEL_A_RL_BANDS | NLA_F_NESTED, nest, (uint32_t)o);
		}
		if (chance(20))
			add_u8(r, L2TPSEL_A_RL_SOURCE, (uint8_t)(chance(80) ? 0 : 1));
		if (chance(20))
			add_u32(r, L2TPSEL_A_RL_PERIOD, 100 + rnd(2000));
		break;
	}
	case L2TPSEL_CMD_THROTTLE_DEL: case L2TPSEL_CMD_THROTTLE_GET:
		add_str(r, L2TPSEL_A_NAME, PICK(throttles));
		break;
	case L2TPSEL_CMD_THROTTLE_LOAD:
		add_u8(r, L2TPSEL_A_RL_LOAD, (uint8_t)rnd(chance(95) ? 101 : 256));
		if (chance(40))
			add_str(r, L2TPSEL_A_NAME, PICK(throttles));
		break;
	default:
		break;
	}
}

/* ---- mutations ----------------------------------------------------------- */

static void fill_random(uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)rnd64();
}

/* An attribute of a random type with random contents. */
static void add_random_attr(struct freq *r, int depth);

static void add_random_nest(struct freq *r, uint16_t type, int depth)
{
	struct freq *in = malloc(sizeof(*in));
	uint8_t *p, *out;
	size_t o = 0;
	int i, n = (int)rnd(5);

	if (!in)
		return;
	memset(in, 0, offsetof(struct freq, arena));
	for (i = 0; i < n; i++)
		add_random_attr(in, depth + 1);
	out = malloc(ARENA);
	for (i = 0; out && i < in->n; i++) {
		struct nlattr *na = (struct nlattr *)(out + o);
		uint32_t len = in->a[i].len;

		if (o + 4 + len + 4 > 16384)
			break;
		na->nla_type = in->a[i].type;
		na->nla_len = (uint16_t)(4 + len);
		memcpy(out + o + 4, in->a[i].data, len);
		o += (4 + len + 3) & ~3u;
	}
	p = out;
	if (p)
		add(r, type | (chance(80) ? NLA_F_NESTED : 0), p, (uint32_t)o);
	free(out);
	free(in);
}

static void add_random_attr(struct freq *r, int depth)
{
	uint16_t type = (uint16_t)(chance(90) ? rnd(L2TPSEL_A_MAX + 1) : rnd(0x4000));
	uint8_t buf[64];
	uint32_t len;

	if (depth < 6 && chance(depth ? 30 : 10)) {
		add_random_nest(r, type, depth);
		return;
	}
	/* A well-typed value, of the type the one table (lib/attr.c) gives. */
	switch (type <= L2TPSEL_A_MAX && chance(60) ? l2s_attr_table[type].type : MNL_TYPE_UNSPEC) {
	case MNL_TYPE_U8: add_u8(r, type, (uint8_t)rnd64()); return;
	case MNL_TYPE_U16: add_u16(r, type, (uint16_t)rnd64()); return;
	case MNL_TYPE_U32: add_u32(r, type, chance(50) ? rnd(10) : (uint32_t)rnd64()); return;
	case MNL_TYPE_U64: add_u64(r, type, chance(50) ? rnd(500) : rnd64()); return;
	case MNL_TYPE_NUL_STRING: add_str(r, type, chance(50) ? PICK(tunnels) : a_user()); return;
	default:
		len = rnd(sizeof(buf));
		fill_random(buf, len);
		add(r, type | (chance(5) ? NLA_F_NESTED : 0), buf, len);
	}
}

static void mutate(struct freq *r)
{
	int i = r->n ? (int)rnd((uint32_t)r->n) : 0;
	struct fattr *a = r->n ? &r->a[i] : NULL;
	uint8_t *p;
	uint32_t len;

	switch (rnd(13)) {
	case 0:		/* drop one */
		if (a) {
			memmove(a, a + 1, (size_t)(r->n - i - 1) * sizeof(*a));
			r->n--;
		}
		break;
	case 1:		/* duplicate one */
		if (a && r->n < MAX_ATTRS)
			r->a[r->n++] = *a;
		break;
	case 2:		/* retype one */
		if (a)
			a->type = (uint16_t)(rnd(L2TPSEL_A_MAX + 3) | (a->type & NLA_F_NESTED));
		break;
	case 3:		/* truncate */
		if (a && a->len)
			a->len = rnd(a->len);
		break;
	case 4:		/* extend with random bytes */
		if (a) {
			len = a->len + 1 + rnd(16);
			p = arena_get(r, len);
			if (p) {
				memcpy(p, a->data, a->len);
				fill_random(p + a->len, len - a->len);
				a->data = p;
				a->len = len;
			}
		}
		break;
	case 5:		/* flip NLA_F_NESTED / NLA_F_NET_BYTEORDER */
		if (a)
			a->type ^= chance(70) ? NLA_F_NESTED : NLA_F_NET_BYTEORDER;
		break;
	case 6:		/* random contents */
		if (a)
			fill_random(a->data, a->len);
		break;
	case 7: {	/* a huge string in a string attribute, or anywhere */
		static const uint16_t strs[] = { L2TPSEL_A_NAME, L2TPSEL_A_PROFILE, L2TPSEL_A_DOMAIN,
						 L2TPSEL_A_USER, L2TPSEL_A_KEY, L2TPSEL_A_SECRET,
						 L2TPSEL_A_TGROUP, L2TPSEL_A_CLIENT, L2TPSEL_A_SLG };
		uint32_t sizes[] = { 32, 33, 63, 64, 65, 255, 256, 257, 1000, 4096, 16000, 65000 };

		len = sizes[rnd(chance(90) ? 9 : 12)];
		p = arena_get(r, len);
		if (p && r->n < MAX_ATTRS) {
			memset(p, 'A' + (int)rnd(26), len);
			if (chance(80))
				p[len - 1] = 0;
			r->a[r->n++] = (struct fattr){ a && chance(50) ? (uint16_t)(a->type & ~NLA_F_NESTED) :
						       strs[rnd(sizeof(strs) / sizeof(strs[0]))], len, p };
		}
		break;
	}
	case 8:		/* nested garbage */
		add_random_nest(r, chance(50) ? L2TPSEL_A_PICKS : (uint16_t)rnd(L2TPSEL_A_MAX + 1), 0);
		break;
	case 9:		/* an unknown attribute */
		add_random_attr(r, 0);
		break;
	case 10:	/* bytes after the last attribute */
		r->ntail = 1 + (int)rnd(3);
		fill_random(r->tail, sizeof(r->tail));
		break;
	case 11:	/* the last attribute's nla_len lies */
		r->bad_len = 1;
		break;
	default:	/* swap two */
		if (r->n > 1) {
			int j = (int)rnd((uint32_t)r->n);
			struct fattr tmp = r->a[i];

			r->a[i] = r->a[j];
			r->a[j] = tmp;
		}
		break;
	}
}

/* Serialize; returns the message length. */
/*
 * The secret's bytes are sent only as a SECRET attribute: a mutation that
 * retypes it into a name (a tunnel group called the secret) would have the
 * module echo a name, which is no leak.  Such a copy is sent altered.
 */
static void unsecret(uint8_t *p, size_t len)
{
	uint8_t *hit;

	while ((hit = memmem(p, len, SECRET, strlen(SECRET))))
		hit[3] = 's';
}

static size_t serialize(struct nlt *t, const struct freq *r, uint8_t *buf, size_t cap)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct genlmsghdr *g = (struct genlmsghdr *)(buf + NLMSG_HDRLEN);
	size_t o = NLMSG_HDRLEN + GENL_HDRLEN, last = 0;
	int i;

	memset(buf, 0, o);
	nlh->nlmsg_type = t->fam;
	nlh->nlmsg_flags = NLM_F_REQUEST | r->flags;
	nlh->nlmsg_seq = ++t->seq;
	g->cmd = r->cmd;
	g->version = r->version;
	g->reserved = r->reserved;
	for (i = 0; i < r->n; i++) {
		const struct fattr *a = &r->a[i];
		uint32_t len = a->len;
		struct nlattr *na;

		if (len > 65535 - 4)
			len = 65535 - 4;
		if (o + 4 + len + 4 > cap)
			break;
		na = (struct nlattr *)(buf + o);
		na->nla_type = a->type;
		na->nla_len = (uint16_t)(4 + len);
		memcpy(buf + o + 4, a->data, len);
		memset(buf + o + 4 + len, 0, 3);
		if ((a->type & NLA_TYPE_MASK) != L2TPSEL_A_SECRET)
			unsecret(buf + o + 4, len);
		last = o;
		o += (4 + len + 3) & ~3u;
	}
	if (r->bad_len && last) {
		struct nlattr *na = (struct nlattr *)(buf + last);

		na->nla_len = chance(50) ? (uint16_t)rnd(4) : (uint16_t)(na->nla_len + 4 + rnd(200));
	}
	if (r->ntail && o + 3 < cap) {
		memcpy(buf + o, r->tail, (size_t)r->ntail);
		o += (size_t)r->ntail;
	}
	nlh->nlmsg_len = (uint32_t)o;
	return o;
}

/* ---- statistics ---------------------------------------------------------- */

struct stats {
	uint64_t sent, accepted, refused, dumps, dump_entries, lost_answers;
	uint64_t by_errno[140];
	uint64_t no_message;		/* family refusals without an extack message */
	uint64_t odd_errno;		/* errnos the API does not document */
	uint64_t unpriv_not_eperm;	/* admin commands the unprivileged worker got through */
	uint64_t secret_seen;
	uint64_t by_cmd_ok[L2TPSEL_CMD_MAX + 1];
	uint64_t reopen;
};

static struct stats st;
static int examples;
static int verbose;		/* -v N: show the first N refusals of valid requests */
static bool valid_only;		/* -V: valid requests only (to tune the generator) */
static bool cur_valid;

static void example(const char *what, const struct freq *r, const struct nlt_ack *ack)
{
	char types[256];
	size_t o = 0;
	int i;

	if (examples++ >= 20)
		return;
	types[0] = 0;
	for (i = 0; i < r->n && o < sizeof(types) - 16; i++)
		o += (size_t)snprintf(types + o, sizeof(types) - o, " %u/%u", r->a[i].type,
				      r->a[i].len);
	printf("# %s: cmd %u flags %#x ver %u rsv %u attrs(type/len):%s%s%s -> %d \"%s\"%s\n",
	       what, r->cmd, r->flags, r->version, r->reserved, types, r->ntail ? " +tail" : "",
	       r->bad_len ? " +bad_len" : "", ack->err, ack->msg,
	       ack->has_miss ? " (missing attr)" : "");
}

/* A secret in a reply: count it and say where (the first few), to fix it. */
static void secret_hit(const struct nlmsghdr *nlh, const uint8_t *hit)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *na;
	int where = -1;

	if (st.secret_seen++ >= 5)
		return;
	if (nlh->nlmsg_type >= NLMSG_MIN_TYPE &&
	    mnl_nlmsg_get_payload_len(nlh) >= sizeof(*g)) {
		mnl_attr_for_each(na, nlh, sizeof(*g))
			if (hit && hit >= (const uint8_t *)na &&
			    hit < (const uint8_t *)na + mnl_attr_get_len(na))
				where = mnl_attr_get_type(na);
		printf("# secret in a reply: cmd %u, %s attribute %d\n", g->cmd,
		       hit ? "bytes in" : "the SECRET", hit ? where : L2TPSEL_A_SECRET);
	} else {
		printf("# secret in a netlink message of type %u (offset %td)\n",
		       nlh->nlmsg_type, hit ? hit - (const uint8_t *)nlh : -1);
	}
}

static void scan_raw(const void *buf, size_t len, void *arg)
{
	const struct nlmsghdr *nlh;
	int left = (int)len;

	(void)arg;
	for (nlh = buf; mnl_nlmsg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left)) {
		const uint8_t *hit = memmem(nlh, nlh->nlmsg_len, SECRET, strlen(SECRET));
		struct nlt_attrs at;

		if (hit)
			secret_hit(nlh, hit);
		if (nlh->nlmsg_type < NLMSG_MIN_TYPE ||
		    mnl_nlmsg_get_payload_len(nlh) < sizeof(struct genlmsghdr))
			continue;
		nlt_parse(nlh, &at);
		if (at.tb[L2TPSEL_A_SECRET] && !hit)
			secret_hit(nlh, NULL);
	}
}

static int reply_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct freq *r = arg;
	struct nlt_attrs at;

	nlt_parse(nlh, &at);
	if (r->cmd == L2TPSEL_CMD_LOGIN_BEGIN && at.tb[L2TPSEL_A_LOGIN_ID] &&
	    nlt_u8(&at, L2TPSEL_A_STEP) == L2TPSEL_STEP_ATTEMPT) {
		if (ws.nlogins < sizeof(ws.logins) / sizeof(ws.logins[0]))
			ws.logins[ws.nlogins++] = nlt_u32(&at, L2TPSEL_A_LOGIN_ID);
		else
			ws.logins[rnd(ws.nlogins)] = nlt_u32(&at, L2TPSEL_A_LOGIN_ID);
	}
	if (r->flags & NLM_F_DUMP)
		st.dump_entries++;
	return MNL_CB_OK;
}

static bool documented_errno(int e)
{
	switch (e) {
	case EINVAL: case ERANGE: case ENOENT: case EEXIST: case EBUSY: case ENOSPC:
	case EOPNOTSUPP: case EPERM: case EMSGSIZE:
		return true;
	}
	return false;
}

/* Send one request and judge the answer. */
static void one(struct nlt *t, struct freq *r, bool unpriv, uint8_t *buf)
{
	struct nlt_ack ack;
	size_t len = serialize(t, r, buf, NLT_BUF);
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	int e;

	memset(&ack, 0, sizeof(ack));
	if ((nlh->nlmsg_flags & NLM_F_DUMP) != NLM_F_DUMP)
		nlh->nlmsg_flags |= NLM_F_ACK;
	st.sent++;
	if (mnl_socket_sendto(t->sk, buf, len) < 0) {
		printf("# send: %s\n", strerror(errno));
		st.lost_answers++;
		return;
	}
	if (nlt_recv(t, nlh->nlmsg_seq, reply_cb, r, &ack, 10000) || !ack.done) {
		st.lost_answers++;
		example("no answer", r, &ack);
		return;
	}
	if ((nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP)
		st.dumps++;
	if (!ack.err) {
		st.accepted++;
		if (r->cmd <= L2TPSEL_CMD_MAX)
			st.by_cmd_ok[r->cmd]++;
		if (unpriv && is_admin(r->cmd)) {
			st.unpriv_not_eperm++;
			example("unprivileged admin command accepted", r, &ack);
		}
		return;
	}
	st.refused++;
	e = -ack.err;
	if (verbose > 0 && cur_valid) {
		verbose--;
		examples--;
		example("valid request refused", r, &ack);
	}
	if (e > 0 && e < 140)
		st.by_errno[e]++;
	if (!documented_errno(e)) {
		st.odd_errno++;
		example("errno the API does not document", r, &ack);
	}
	/*
	 * The family's own refusals carry a message.  EPERM and EOPNOTSUPP come
	 * from the genetlink core before the family sees the request.
	 */
	if ((e == EINVAL || e == ERANGE || e == ENOENT || e == EEXIST || e == EBUSY ||
	     e == ENOSPC) && !ack.msg[0] && !ack.has_miss) {
		st.no_message++;
		example("refused without a message", r, &ack);
	}
	/*
	 * The genetlink core checks the header before the permission: a
	 * reserved byte, or only one of NLM_F_DUMP's two bits (NLM_F_ROOT or
	 * NLM_F_MATCH alone: "ambiguous or reserved bits set in nlmsg_flags"),
	 * is EINVAL whoever sends it.  Every other admin request of the
	 * unprivileged worker must be EPERM.
	 */
	if (unpriv && is_admin(r->cmd) && !r->reserved &&
	    !(r->flags & ~(NLM_F_ACK | NLM_F_DUMP)) &&
	    ((r->flags & NLM_F_DUMP) == 0 || (r->flags & NLM_F_DUMP) == NLM_F_DUMP) &&
	    e != EPERM) {
		st.unpriv_not_eperm++;
		example("unprivileged admin command not refused with EPERM", r, &ack);
	}
}

static uint8_t pick_cmd(void)
{
	uint8_t c;

	do
		c = (uint8_t)(1 + rnd(L2TPSEL_CMD_MAX));
	while (!is_cmd(c));
	/* Logins and sessions carry most of the state: favour them. */
	if (chance(25)) {
		static const uint8_t hot[] = {
			L2TPSEL_CMD_LOGIN_BEGIN, L2TPSEL_CMD_LOGIN_REPORT, L2TPSEL_CMD_LOGIN_REPORT,
			L2TPSEL_CMD_SESSION_UP, L2TPSEL_CMD_SESSION_DOWN, L2TPSEL_CMD_TUNNEL_NEW,
			L2TPSEL_CMD_PROFILE_NEW, L2TPSEL_CMD_DOMAIN_NEW, L2TPSEL_CMD_SESSION_DOWN,
		};
		c = hot[rnd(sizeof(hot))];
	}
	return c;
}

static void make_request(struct freq *r)
{
	uint32_t mode = rnd(100);
	int k;

	memset(r, 0, offsetof(struct freq, arena));
	r->version = L2TPSEL_GENL_VERSION;
	cur_valid = false;
	if (valid_only || mode < 45) {		/* valid */
		build_valid(r, pick_cmd());
		/* Dump-only commands, and GETs without a name, as dumps. */
		if (is_dump(r->cmd) && (r->cmd == L2TPSEL_CMD_SESSION_GET ||
					r->cmd == L2TPSEL_CMD_TUNNEL_GET ||
					r->cmd == L2TPSEL_CMD_DEST_GET || chance(30))) {
			r->flags = NLM_F_DUMP;
			if (r->cmd != L2TPSEL_CMD_TUNNEL_GET)
				r->n = 0;
		}
		cur_valid = true;
	} else if (mode < 80) {			/* valid, then mutated */
		build_valid(r, pick_cmd());
		for (k = 1 + (int)rnd(3); k > 0; k--)
			mutate(r);
	} else if (mode < 88) {			/* a soup of random attributes */
		r->cmd = pick_cmd();
		for (k = (int)rnd(8); k > 0; k--)
			add_random_attr(r, 0);
	} else if (mode < 94) {			/* a dump, maybe with attributes */
		static const uint8_t dumps[] = {
			L2TPSEL_CMD_TGROUP_GET, L2TPSEL_CMD_SLG_GET, L2TPSEL_CMD_CLIENT_GET,
			L2TPSEL_CMD_SESSION_GET, L2TPSEL_CMD_PROFILE_GET, L2TPSEL_CMD_TUNNEL_GET,
			L2TPSEL_CMD_DOMAIN_GET, L2TPSEL_CMD_DEST_GET, L2TPSEL_CMD_RL_GET,
			L2TPSEL_CMD_THROTTLE_GET,
		};
		r->cmd = dumps[rnd(sizeof(dumps))];
		r->flags = NLM_F_DUMP;
		if (r->cmd == L2TPSEL_CMD_TUNNEL_GET || chance(20))
			build_valid(r, r->cmd == L2TPSEL_CMD_TUNNEL_GET ? r->cmd : pick_cmd());
		if (chance(30))
			mutate(r);
	} else {				/* header games */
		build_valid(r, pick_cmd());
		switch (rnd(5)) {
		case 0: r->cmd = (uint8_t)rnd(256); break;
		case 1: r->flags = (uint16_t)(rnd64() & 0x0fff & ~NLM_F_ACK); break;
		case 2: r->reserved = (uint8_t)(1 + rnd(255)); break;
		case 3: r->version = (uint8_t)rnd(256); break;
		default: r->flags = NLM_F_DUMP; break;
		}
	}
}

/* The dump requests must not keep the last command's attributes by mistake. */
static void fix_dump(struct freq *r)
{
	if ((r->flags & NLM_F_DUMP) == NLM_F_DUMP && !is_dump(r->cmd) && chance(50))
		r->flags &= (uint16_t)~NLM_F_DUMP;
}

static int worker(uint64_t seed, uint64_t n, bool unpriv, int fd)
{
	struct freq *r = malloc(sizeof(*r));
	uint8_t *buf = malloc(NLT_BUF);
	struct nlt t;
	uint64_t i;

	rng_state = seed;
	if (!r || !buf)
		return 1;
	if (unpriv && (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
		       setresuid(65534, 65534, 65534))) {
		perror("setresuid");
		return 1;
	}
	if (nlt_open(&t)) {
		perror("nlt_open");
		return 1;
	}
	t.raw = scan_raw;
	for (i = 0; i < n; i++) {
		/* Now and then the agent goes away: its logins and sessions go with it. */
		if (rnd(4000) == 0) {
			nlt_close(&t);
			if (nlt_open(&t))
				return 1;
			t.raw = scan_raw;
			ws.nlogins = 0;
			st.reopen++;
		}
		make_request(r);
		fix_dump(r);
		one(&t, r, unpriv, buf);
	}
	nlt_close(&t);
	if (write(fd, &st, sizeof(st)) != sizeof(st))
		return 1;
	return 0;
}

/* ---- the health check after the run ------------------------------------- */

static int failures;

#define CHECK(cond, fmt, ...) do {						\
	if (!(cond)) {								\
		printf("# FAIL: " fmt "\n", ##__VA_ARGS__);			\
		failures++;							\
	}									\
} while (0)

struct coll {
	unsigned int n, cap;
	struct nlmsghdr **m;
};

static int coll_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct coll *c = arg;

	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 64;
		c->m = realloc(c->m, c->cap * sizeof(*c->m));
	}
	c->m[c->n] = malloc(nlh->nlmsg_len);
	memcpy(c->m[c->n++], nlh, nlh->nlmsg_len);
	return MNL_CB_OK;
}

static void coll_free(struct coll *c)
{
	unsigned int i;

	for (i = 0; i < c->n; i++)
		free(c->m[i]);
	free(c->m);
	memset(c, 0, sizeof(*c));
}

static uint8_t hbuf[NLT_BUF];

static int hdump(struct nlt *t, uint8_t cmd, struct coll *c)
{
	struct nlt_ack ack;
	int ret;

	ret = nlt_talk(t, nlt_req(t, hbuf, cmd, NLM_F_DUMP), coll_cb, c, &ack);
	CHECK(!ret, "dump %u: %d %s", cmd, ret, ack.msg);
	CHECK(!ack.intr, "dump %u flagged NLM_F_DUMP_INTR with nothing changing", cmd);
	return ret;
}

static int hget(struct nlt *t, uint8_t cmd, struct nlt_attrs *at, struct coll *c)
{
	struct nlt_ack ack;
	int ret;

	ret = nlt_talk(t, nlt_req(t, hbuf, cmd, 0), coll_cb, c, &ack);
	CHECK(!ret && c->n == 1, "get %u: %d %s", cmd, ret, ack.msg);
	if (!ret && c->n)
		nlt_parse(c->m[c->n - 1], at);
	else
		memset(at, 0, sizeof(*at));
	return ret;
}

static int hdo(struct nlt *t, struct nlmsghdr *nlh, struct nlt_ack *ack)
{
	return nlt_talk(t, nlh, NULL, NULL, ack);
}

static bool str_eq(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/* Do the counters agree with each other and with the session and tunnel dumps? */
static void check_counters(struct nlt *t, const char *when)
{
	struct coll sess = { }, tg = { }, slg = { }, cl = { }, tun = { }, dst = { }, prof = { };
	struct coll one = { };
	struct nlt_attrs sum, lim, lo, at, bt;
	unsigned int i, j, nsess, ntids = 0;
	uint32_t tids[512];

	printf("# health check %s\n", when);
	hdump(t, L2TPSEL_CMD_SESSION_GET, &sess);
	hdump(t, L2TPSEL_CMD_TGROUP_GET, &tg);
	hdump(t, L2TPSEL_CMD_SLG_GET, &slg);
	hdump(t, L2TPSEL_CMD_CLIENT_GET, &cl);
	hdump(t, L2TPSEL_CMD_TUNNEL_GET, &tun);
	hdump(t, L2TPSEL_CMD_DEST_GET, &dst);
	hdump(t, L2TPSEL_CMD_PROFILE_GET, &prof);
	hget(t, L2TPSEL_CMD_SUMMARY_GET, &sum, &one);
	coll_free(&one);
	hget(t, L2TPSEL_CMD_LIMIT_GET, &lim, &one);
	coll_free(&one);
	hget(t, L2TPSEL_CMD_LOCKOUT_GET, &lo, &one);
	coll_free(&one);
	/* nlt_attrs point into the collected messages: parse again as needed. */
	nsess = sess.n;
	printf("#   %u sessions, %u tunnel groups, %u session-limit groups, %u clients, "
	       "%u tunnels, %u destinations, %u profiles\n",
	       nsess, tg.n, slg.n, cl.n, tun.n, dst.n, prof.n);
	for (i = 0; i < sess.n; i++) {
		uint32_t tid;

		nlt_parse(sess.m[i], &at);
		tid = nlt_u32(&at, L2TPSEL_A_TUNNEL_ID);
		for (j = 0; j < ntids && tids[j] != tid; j++)
			;
		if (j == ntids && ntids < 512)
			tids[ntids++] = tid;
	}
	{
		struct coll s1 = { }, s2 = { }, s3 = { };

		hget(t, L2TPSEL_CMD_SUMMARY_GET, &sum, &s1);
		hget(t, L2TPSEL_CMD_LIMIT_GET, &lim, &s2);
		hget(t, L2TPSEL_CMD_LOCKOUT_GET, &lo, &s3);
		CHECK(nlt_u32(&sum, L2TPSEL_A_COUNT) == nsess, "summary COUNT %u, %u sessions dumped",
		      nlt_u32(&sum, L2TPSEL_A_COUNT), nsess);
		CHECK(nlt_u32(&lim, L2TPSEL_A_COUNT) == nsess, "LIMIT_GET COUNT %u, %u sessions dumped",
		      nlt_u32(&lim, L2TPSEL_A_COUNT), nsess);
		CHECK(nlt_u32(&sum, L2TPSEL_A_N_TUNNELS) == ntids,
		      "summary N_TUNNELS %u, %u tunnel ids among the sessions",
		      nlt_u32(&sum, L2TPSEL_A_N_TUNNELS), ntids);
		CHECK(nlt_u32(&sum, L2TPSEL_A_N_TGROUPS) == tg.n, "summary N_TGROUPS %u, %u dumped",
		      nlt_u32(&sum, L2TPSEL_A_N_TGROUPS), tg.n);
		CHECK(nlt_u32(&sum, L2TPSEL_A_N_SLGS) == slg.n, "summary N_SLGS %u, %u dumped",
		      nlt_u32(&sum, L2TPSEL_A_N_SLGS), slg.n);
		CHECK(nlt_u32(&sum, L2TPSEL_A_N_CLIENTS) == cl.n, "summary N_CLIENTS %u, %u dumped",
		      nlt_u32(&sum, L2TPSEL_A_N_CLIENTS), cl.n);
		CHECK(nlt_u32(&lo, L2TPSEL_A_N_LOGINS) <= nlt_u32(&lo, L2TPSEL_A_MAX_LOGINS),
		      "%u logins held, max-logins %u", nlt_u32(&lo, L2TPSEL_A_N_LOGINS),
		      nlt_u32(&lo, L2TPSEL_A_MAX_LOGINS));
		coll_free(&s1);
		coll_free(&s2);
		coll_free(&s3);
	}
	/* Tunnel groups: COUNT = sessions naming them. */
	for (i = 0; i < tg.n; i++) {
		unsigned int n = 0;

		nlt_parse(tg.m[i], &at);
		for (j = 0; j < sess.n; j++) {
			nlt_parse(sess.m[j], &bt);
			n += str_eq(nlt_str(&bt, L2TPSEL_A_TGROUP), nlt_str(&at, L2TPSEL_A_NAME));
		}
		CHECK(nlt_u32(&at, L2TPSEL_A_COUNT) == n, "tunnel group %s: COUNT %u, %u sessions",
		      nlt_str(&at, L2TPSEL_A_NAME), nlt_u32(&at, L2TPSEL_A_COUNT), n);
	}
	/* Clients: COUNT = sessions naming them; session-limit groups: sums. */
	for (i = 0; i < slg.n; i++) {
		unsigned int members = 0, count = 0;

		nlt_parse(slg.m[i], &at);
		for (j = 0; j < cl.n; j++) {
			nlt_parse(cl.m[j], &bt);
			if (str_eq(nlt_str(&bt, L2TPSEL_A_SLG), nlt_str(&at, L2TPSEL_A_NAME))) {
				members++;
				count += nlt_u32(&bt, L2TPSEL_A_COUNT);
			}
		}
		CHECK(nlt_u32(&at, L2TPSEL_A_MEMBERS) == members && nlt_u32(&at, L2TPSEL_A_COUNT) == count,
		      "session-limit group %s: MEMBERS %u COUNT %u; its clients: %u, %u sessions",
		      nlt_str(&at, L2TPSEL_A_NAME), nlt_u32(&at, L2TPSEL_A_MEMBERS),
		      nlt_u32(&at, L2TPSEL_A_COUNT), members, count);
	}
	for (i = 0; i < cl.n; i++) {
		unsigned int n = 0;

		nlt_parse(cl.m[i], &at);
		for (j = 0; j < sess.n; j++) {
			nlt_parse(sess.m[j], &bt);
			n += str_eq(nlt_str(&bt, L2TPSEL_A_CLIENT), nlt_str(&at, L2TPSEL_A_NAME));
		}
		CHECK(nlt_u32(&at, L2TPSEL_A_COUNT) == n, "client %s: COUNT %u, %u sessions",
		      nlt_str(&at, L2TPSEL_A_NAME), nlt_u32(&at, L2TPSEL_A_COUNT), n);
	}
	/* Destinations: SESSIONS = sum over the tunnels naming them; N_TUNNELS = those tunnels. */
	for (i = 0; i < dst.n; i++) {
		unsigned int ntun = 0, nses = 0;

		nlt_parse(dst.m[i], &at);
		for (j = 0; j < tun.n; j++) {
			const struct nlattr *r1, *r2, *l1, *l2;

			nlt_parse(tun.m[j], &bt);
			r1 = at.tb[L2TPSEL_A_REMOTE];
			r2 = bt.tb[L2TPSEL_A_REMOTE];
			l1 = at.tb[L2TPSEL_A_LOCAL];
			l2 = bt.tb[L2TPSEL_A_LOCAL];
			if (!r1 || !r2 || mnl_attr_get_payload_len(r1) != mnl_attr_get_payload_len(r2) ||
			    memcmp(mnl_attr_get_payload(r1), mnl_attr_get_payload(r2),
				   mnl_attr_get_payload_len(r1)))
				continue;
			if (!at.tb[L2TPSEL_A_PORT] || !bt.tb[L2TPSEL_A_PORT] ||
			    mnl_attr_get_u16(at.tb[L2TPSEL_A_PORT]) != mnl_attr_get_u16(bt.tb[L2TPSEL_A_PORT]))
				continue;
			if (!l1 != !l2 || (l1 && (mnl_attr_get_payload_len(l1) != mnl_attr_get_payload_len(l2) ||
						  memcmp(mnl_attr_get_payload(l1), mnl_attr_get_payload(l2),
							 mnl_attr_get_payload_len(l1)))))
				continue;
			ntun++;
			nses += nlt_u32(&bt, L2TPSEL_A_SESSIONS);
		}
		CHECK(nlt_u32(&at, L2TPSEL_A_N_TUNNELS) == ntun && nlt_u32(&at, L2TPSEL_A_SESSIONS) == nses,
		      "destination %u: N_TUNNELS %u SESSIONS %u; tunnels naming it: %u, %u sessions",
		      i, nlt_u32(&at, L2TPSEL_A_N_TUNNELS), nlt_u32(&at, L2TPSEL_A_SESSIONS), ntun, nses);
	}
	/*
	 * Profiles: N_TUNNELS = their tunnels in the dump; their tunnels'
	 * SESSIONS = the sessions their logins counted (PROFILE in the dump).
	 */
	for (i = 0; i < prof.n; i++) {
		unsigned int n = 0, nses = 0, nlog = 0;

		nlt_parse(prof.m[i], &at);
		for (j = 0; j < tun.n; j++) {
			nlt_parse(tun.m[j], &bt);
			if (str_eq(nlt_str(&bt, L2TPSEL_A_PROFILE), nlt_str(&at, L2TPSEL_A_NAME))) {
				n++;
				nses += nlt_u32(&bt, L2TPSEL_A_SESSIONS);
			}
		}
		for (j = 0; j < sess.n; j++) {
			nlt_parse(sess.m[j], &bt);
			nlog += str_eq(nlt_str(&bt, L2TPSEL_A_PROFILE), nlt_str(&at, L2TPSEL_A_NAME));
		}
		CHECK(nlt_u32(&at, L2TPSEL_A_N_TUNNELS) == n, "profile %s: N_TUNNELS %u, %u dumped",
		      nlt_str(&at, L2TPSEL_A_NAME), nlt_u32(&at, L2TPSEL_A_N_TUNNELS), n);
		CHECK(nses == nlog, "profile %s: its tunnels count %u sessions, %u sessions name it",
		      nlt_str(&at, L2TPSEL_A_NAME), nses, nlog);
	}
	/* All the tunnels' SESSIONS = the sessions logins counted, whatever the profile. */
	{
		unsigned int nses = 0, nlog = 0;

		for (j = 0; j < tun.n; j++) {
			nlt_parse(tun.m[j], &bt);
			nses += nlt_u32(&bt, L2TPSEL_A_SESSIONS);
		}
		for (j = 0; j < sess.n; j++) {
			nlt_parse(sess.m[j], &bt);
			nlog += bt.tb[L2TPSEL_A_PROFILE] != NULL;
		}
		CHECK(nses == nlog, "the tunnels count %u sessions, %u sessions name a profile",
		      nses, nlog);
	}
	/* Throttle profiles: RL_USERS = rate limits naming them. */
	{
		struct coll rl = { }, th = { };

		hdump(t, L2TPSEL_CMD_RL_GET, &rl);
		hdump(t, L2TPSEL_CMD_THROTTLE_GET, &th);
		printf("#   %u rate limits, %u throttle profiles\n", rl.n, th.n);
		for (i = 0; i < th.n; i++) {
			unsigned int n = 0;

			nlt_parse(th.m[i], &at);
			for (j = 0; j < rl.n; j++) {
				nlt_parse(rl.m[j], &bt);
				n += str_eq(nlt_str(&bt, L2TPSEL_A_RL_THROTTLE), nlt_str(&at, L2TPSEL_A_NAME));
			}
			CHECK(nlt_u32(&at, L2TPSEL_A_RL_USERS) == n,
			      "throttle profile %s: RL_USERS %u, %u rate limits name it",
			      nlt_str(&at, L2TPSEL_A_NAME), nlt_u32(&at, L2TPSEL_A_RL_USERS), n);
		}
		for (j = 0; j < rl.n; j++) {
			nlt_parse(rl.m[j], &bt);
			CHECK(nlt_u32(&bt, L2TPSEL_A_RL_TOKENS) <= nlt_u32(&bt, L2TPSEL_A_RL_BURST),
			      "rate limit %s: %u tokens in a bucket %u deep", nlt_str(&bt, L2TPSEL_A_NAME),
			      nlt_u32(&bt, L2TPSEL_A_RL_TOKENS), nlt_u32(&bt, L2TPSEL_A_RL_BURST));
		}
		coll_free(&rl);
		coll_free(&th);
	}
	coll_free(&sess);
	coll_free(&tg);
	coll_free(&slg);
	coll_free(&cl);
	coll_free(&tun);
	coll_free(&dst);
	coll_free(&prof);
}

/*
 * Tear everything down through the API; every count must reach zero.  The
 * workers' sockets are closed, so the sessions left are DETACHED ones, which
 * this socket may end; ending a login's session ends its counts on its
 * tunnel and destination.
 */
static void teardown(struct nlt *t)
{
	struct coll c = { };
	struct nlt_attrs at;
	struct nlt_ack ack;
	struct nlmsghdr *nlh;
	unsigned int i, k, downs = 0, logins = 0;
	int ret;

	hdump(t, L2TPSEL_CMD_SESSION_GET, &c);
	for (i = 0; i < c.n; i++) {
		nlt_parse(c.m[i], &at);
		CHECK(at.tb[L2TPSEL_A_DETACHED], "session %llu is up, its socket closed",
		      (unsigned long long)nlt_u64(&at, L2TPSEL_A_SESSION_KEY));
		nlh = nlt_req(t, hbuf, L2TPSEL_CMD_SESSION_DOWN, 0);
		mnl_attr_put_u64(nlh, L2TPSEL_A_SESSION_KEY, nlt_u64(&at, L2TPSEL_A_SESSION_KEY));
		ret = hdo(t, nlh, &ack);
		CHECK(!ret, "SESSION_DOWN %llu: %d %s",
		      (unsigned long long)nlt_u64(&at, L2TPSEL_A_SESSION_KEY), ret, ack.msg);
		downs += !ret;
		logins += !ret && at.tb[L2TPSEL_A_PROFILE];
	}
	coll_free(&c);
	printf("#   %u sessions ended, %u of them a login's\n", downs, logins);
	/* No session is left: nothing is counted on a destination or a tunnel. */
	hdump(t, L2TPSEL_CMD_DEST_GET, &c);
	for (i = 0; i < c.n; i++) {
		nlt_parse(c.m[i], &at);
		CHECK(nlt_u32(&at, L2TPSEL_A_SESSIONS) == 0,
		      "destination %u: SESSIONS %u with no session up", i,
		      nlt_u32(&at, L2TPSEL_A_SESSIONS));
	}
	coll_free(&c);
	hdump(t, L2TPSEL_CMD_TUNNEL_GET, &c);
	for (i = 0; i < c.n; i++) {
		nlt_parse(c.m[i], &at);
		CHECK(nlt_u32(&at, L2TPSEL_A_SESSIONS) == 0, "tunnel %s/%s: SESSIONS %u with no session up",
		      nlt_str(&at, L2TPSEL_A_PROFILE), nlt_str(&at, L2TPSEL_A_NAME),
		      nlt_u32(&at, L2TPSEL_A_SESSIONS));
		nlh = nlt_req(t, hbuf, L2TPSEL_CMD_TUNNEL_DEL, 0);
		mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, nlt_str(&at, L2TPSEL_A_NAME));
		mnl_attr_put_strz(nlh, L2TPSEL_A_PROFILE, nlt_str(&at, L2TPSEL_A_PROFILE));
		ret = hdo(t, nlh, &ack);
		CHECK(!ret, "TUNNEL_DEL %s/%s: %d %s", nlt_str(&at, L2TPSEL_A_PROFILE),
		      nlt_str(&at, L2TPSEL_A_NAME), ret, ack.msg);
	}
	coll_free(&c);
	{
		static const struct { uint8_t dump, del; uint16_t attr; } kinds[] = {
			{ L2TPSEL_CMD_RL_GET, L2TPSEL_CMD_RL_DEL, L2TPSEL_A_NAME },
			{ L2TPSEL_CMD_THROTTLE_GET, L2TPSEL_CMD_THROTTLE_DEL, L2TPSEL_A_NAME },
			{ L2TPSEL_CMD_PROFILE_GET, L2TPSEL_CMD_PROFILE_DEL, L2TPSEL_A_NAME },
			{ L2TPSEL_CMD_DOMAIN_GET, L2TPSEL_CMD_DOMAIN_DEL, L2TPSEL_A_DOMAIN },
			{ L2TPSEL_CMD_CLIENT_GET, L2TPSEL_CMD_CLIENT_DEL, L2TPSEL_A_NAME },
			{ L2TPSEL_CMD_SLG_GET, L2TPSEL_CMD_SLG_DEL, L2TPSEL_A_NAME },
			{ L2TPSEL_CMD_TGROUP_GET, L2TPSEL_CMD_TGROUP_DEL, L2TPSEL_A_NAME },
		};
		for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
			hdump(t, kinds[k].dump, &c);
			for (i = 0; i < c.n; i++) {
				nlt_parse(c.m[i], &at);
				nlh = nlt_req(t, hbuf, kinds[k].del, 0);
				mnl_attr_put_strz(nlh, kinds[k].attr, nlt_str(&at, kinds[k].attr));
				ret = hdo(t, nlh, &ack);
				CHECK(!ret, "delete %s (command %u): %d %s", nlt_str(&at, kinds[k].attr),
				      kinds[k].del, ret, ack.msg);
			}
			coll_free(&c);
		}
	}
	nlh = nlt_req(t, hbuf, L2TPSEL_CMD_LOCKOUT_CLEAR, 0);
	hdo(t, nlh, &ack);
	/* Nothing left anywhere. */
	{
		static const uint8_t dumps[] = {
			L2TPSEL_CMD_TGROUP_GET, L2TPSEL_CMD_SLG_GET, L2TPSEL_CMD_CLIENT_GET,
			L2TPSEL_CMD_SESSION_GET, L2TPSEL_CMD_PROFILE_GET, L2TPSEL_CMD_TUNNEL_GET,
			L2TPSEL_CMD_DOMAIN_GET, L2TPSEL_CMD_DEST_GET, L2TPSEL_CMD_RL_GET,
			L2TPSEL_CMD_THROTTLE_GET,
		};
		for (k = 0; k < sizeof(dumps); k++) {
			hdump(t, dumps[k], &c);
			CHECK(c.n == 0, "after the teardown, dump %u still has %u entries", dumps[k], c.n);
			coll_free(&c);
		}
	}
	hget(t, L2TPSEL_CMD_SUMMARY_GET, &at, &c);
	CHECK(nlt_u32(&at, L2TPSEL_A_COUNT) == 0 && nlt_u32(&at, L2TPSEL_A_N_TUNNELS) == 0 &&
	      nlt_u32(&at, L2TPSEL_A_N_TGROUPS) == 0 && nlt_u32(&at, L2TPSEL_A_N_SLGS) == 0 &&
	      nlt_u32(&at, L2TPSEL_A_N_CLIENTS) == 0,
	      "after the teardown: COUNT %u N_TUNNELS %u N_TGROUPS %u N_SLGS %u N_CLIENTS %u",
	      nlt_u32(&at, L2TPSEL_A_COUNT), nlt_u32(&at, L2TPSEL_A_N_TUNNELS),
	      nlt_u32(&at, L2TPSEL_A_N_TGROUPS), nlt_u32(&at, L2TPSEL_A_N_SLGS),
	      nlt_u32(&at, L2TPSEL_A_N_CLIENTS));
	coll_free(&c);
}

/* ---- main ---------------------------------------------------------------- */

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

/* The events listener: counts events, looks for secrets, until SIGTERM. */
static int listener(int fd)
{
	struct nlt ev;
	uint64_t n = 0;
	int one = 1;

	signal(SIGTERM, on_term);
	if (nlt_open(&ev) || nlt_subscribe(&ev))
		return 1;
	/* A slow reader loses events (ENOBUFS), it must not stop. */
	setsockopt(mnl_socket_get_fd(ev.sk), SOL_NETLINK, NETLINK_NO_ENOBUFS, &one, sizeof(one));
	ev.raw = scan_raw;
	while (!stop)
		n += (uint64_t)nlt_recv_one(&ev, NULL, NULL, 100);
	st.dump_entries = n;	/* events, reported in this field */
	return write(fd, &st, sizeof(st)) == sizeof(st) ? 0 : 1;
}

int main(int argc, char **argv)
{
	uint64_t n = 100000, seed;
	int workers = 3, opt, pfd[2], i, status;
	pid_t pids[16], lpid;
	struct stats total = { }, one_st;
	struct timespec t0, t1;
	struct nlt t;
	double secs;
	const char *env;

	seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20);
	if ((env = getenv("NL_FUZZ_MESSAGES")) && *env)
		n = strtoull(env, NULL, 0);
	if ((env = getenv("NL_FUZZ_SEED")) && *env)
		seed = strtoull(env, NULL, 0);
	while ((opt = getopt(argc, argv, "n:s:w:v:V")) != -1) {
		switch (opt) {
		case 'v': verbose = atoi(optarg); break;
		case 'V': valid_only = true; break;
		case 'n': n = strtoull(optarg, NULL, 0); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'w': workers = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: %s [-n MESSAGES] [-s SEED] [-w WORKERS 1..16] [-V] [-v N]\n",
				argv[0]);
			return 2;
		}
	}
	if (workers < 1 || workers > 16)
		workers = 3;
	/*
	 * Keep freed memory: a nest's two ~200 KB buffers otherwise grow and
	 * trim the heap (brk) for every message, and on the debug kernel
	 * (KASAN, kmemleak) those brk calls were a fifth of the run's time.
	 */
	mallopt(M_MMAP_THRESHOLD, 4 << 20);
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("# nl_fuzz: seed %llu, %llu messages, %d workers (reproduce: NL_FUZZ_SEED=%llu)\n",
	       (unsigned long long)seed, (unsigned long long)n, workers, (unsigned long long)seed);

	/* A namespace of its own: the run's state dies with it. */
	if (unshare(CLONE_NEWNET)) {
		perror("unshare(CLONE_NEWNET)");
		return 1;
	}
	if (pipe(pfd))
		return 1;
	lpid = fork();
	if (lpid == 0)
		_exit(listener(pfd[1]));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < workers; i++) {
		/* The last worker of several is unprivileged and sends a tenth as much. */
		bool unpriv = workers > 1 && i == workers - 1;
		uint64_t share = unpriv ? n / 10 : (n - (workers > 1 ? n / 10 : 0)) / (uint64_t)(workers - (workers > 1));

		if (i == 0 && !unpriv)
			share += (n - (workers > 1 ? n / 10 : 0)) % (uint64_t)(workers - (workers > 1));
		pids[i] = fork();
		if (pids[i] == 0)
			_exit(worker(seed + (uint64_t)i * 0x1000193, share, unpriv, pfd[1]));
	}
	for (i = 0; i < workers; i++) {
		waitpid(pids[i], &status, 0);
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			printf("# FAIL: worker %d ended with status %#x\n", i, status);
			failures++;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	kill(lpid, SIGTERM);
	waitpid(lpid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		printf("# FAIL: the events listener ended with status %#x\n", status);
		failures++;
	}
	for (i = 0; i < workers + 1; i++) {
		unsigned int e;

		if (read(pfd[0], &one_st, sizeof(one_st)) != sizeof(one_st))
			break;
		if (i == workers) {	/* the listener's */
			total.secret_seen += one_st.secret_seen;
			printf("# events received by the listener: %llu\n",
			       (unsigned long long)one_st.dump_entries);
			continue;
		}
		total.sent += one_st.sent;
		total.accepted += one_st.accepted;
		total.refused += one_st.refused;
		total.dumps += one_st.dumps;
		total.dump_entries += one_st.dump_entries;
		total.lost_answers += one_st.lost_answers;
		total.no_message += one_st.no_message;
		total.odd_errno += one_st.odd_errno;
		total.unpriv_not_eperm += one_st.unpriv_not_eperm;
		total.secret_seen += one_st.secret_seen;
		total.reopen += one_st.reopen;
		for (e = 0; e < 140; e++)
			total.by_errno[e] += one_st.by_errno[e];
		for (e = 0; e <= L2TPSEL_CMD_MAX; e++)
			total.by_cmd_ok[e] += one_st.by_cmd_ok[e];
	}
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("# messages sent %llu, accepted %llu, refused %llu, in %.1f s: %.0f messages/s\n",
	       (unsigned long long)total.sent, (unsigned long long)total.accepted,
	       (unsigned long long)total.refused, secs, (double)total.sent / (secs > 0 ? secs : 1));
	printf("# dumps %llu (%llu entries), sockets reopened %llu\n",
	       (unsigned long long)total.dumps, (unsigned long long)total.dump_entries,
	       (unsigned long long)total.reopen);
	{
		char line[1024];
		size_t o = 0;
		unsigned int e;

		for (e = 1; e < 140; e++)
			if (total.by_errno[e])
				o += (size_t)snprintf(line + o, sizeof(line) - o, " %s %llu",
						      strerrorname_np((int)e),
						      (unsigned long long)total.by_errno[e]);
		printf("# refused by errno:%s\n", line);
		o = 0;
		line[0] = 0;
		for (e = 1; e <= L2TPSEL_CMD_MAX; e++)
			if (total.by_cmd_ok[e])
				o += (size_t)snprintf(line + o, sizeof(line) - o, " %u:%llu", e,
						      (unsigned long long)total.by_cmd_ok[e]);
		printf("# accepted by command:%s\n", line);
	}
	CHECK(total.sent >= n, "only %llu of %llu messages sent", (unsigned long long)total.sent,
	      (unsigned long long)n);
	CHECK(!total.lost_answers, "%llu requests got no answer", (unsigned long long)total.lost_answers);
	CHECK(!total.odd_errno, "%llu refusals with an errno the API does not document",
	      (unsigned long long)total.odd_errno);
	CHECK(!total.no_message, "%llu refusals by the family without an extack message",
	      (unsigned long long)total.no_message);
	CHECK(!total.unpriv_not_eperm, "%llu admin requests of uid 65534 were not refused with EPERM",
	      (unsigned long long)total.unpriv_not_eperm);
	CHECK(!total.secret_seen, "a tunnel secret came back %llu times",
	      (unsigned long long)total.secret_seen);
	CHECK(total.accepted > total.sent / 20, "only %llu requests accepted: the generator builds no state",
	      (unsigned long long)total.accepted);

	/* The module is still healthy: consistent, and it tears down to zero. */
	if (nlt_open(&t)) {
		printf("# FAIL: cannot open a socket after the run\n");
		return 1;
	}
	check_counters(&t, "after the run");
	{
		struct coll c = { };
		struct nlt_attrs lo;

		hget(&t, L2TPSEL_CMD_LOCKOUT_GET, &lo, &c);
		CHECK(nlt_u32(&lo, L2TPSEL_A_N_LOGINS) == 0,
		      "%u logins still held after every worker's socket closed",
		      nlt_u32(&lo, L2TPSEL_A_N_LOGINS));
		coll_free(&c);
	}
	teardown(&t);
	nlt_close(&t);
	printf("# %s: %d failed check(s)\n", failures ? "FAIL" : "PASS", failures);
	return failures ? 1 : 0;
}
