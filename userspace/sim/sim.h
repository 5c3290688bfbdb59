/* SPDX-License-Identifier: GPL-2.0 */
/*
 * l2tpsel-sim (Documentation/selection.md): what its files share.
 *
 *   sim.c        main, the scenario read line by line, configuration lines;
 *   sim_env.c    the core's environment (clock, random source, events),
 *                errors, names and numbers: what every other file uses;
 *   sim_state.c  "lns" answers, "state" presets, "pick";
 *   sim_login.c  "login", "logout", "limit" (LAC admission), "show sessions";
 *   sim_rl.c     "throttle", "ratelimit", "load", "offer", "show ratelimits",
 *                the clock moving on.
 *
 * Calls go one way: sim.c to the others, sim_login.c to sim_state.c, all
 * to sim_env.c.  Output is one JSON object a line on stdout.
 */
#ifndef L2TPSEL_SIM_H
#define L2TPSEL_SIM_H

#include <stdbool.h>

#include "conf.h"
#include "hash.h"
#include "lb.h"
#include "lim.h"
#include "obj.h"
#include "rl.h"
#include "sel.h"

#define SIM_DESTS	1024
#define SIM_PROFILES	64
#define SIM_LNS		256
#define SIM_PINS	256
#define SIM_RL		64
#define SIM_THROTTLES	16

/* A rate limit and its counters (S-RL-1, S-RL-2). */
struct sim_rl {
	char name[L2S_NAME_LEN];
	struct rl_limiter l;
	int th;				/* index into sim.th, -1 = static */
	u32 passed, over;
};

/* A dynamic profile (S-RL-3). */
struct sim_th {
	char name[L2S_NAME_LEN];
	struct rl_throttle th;
};

struct pin {
	bool by_name;
	u32 value;
	char name[L2S_NAME_LEN];
	int line;
};

struct lns {
	struct l2s_addr addr;
	struct l2s_outcome out;
};

struct live {
	u32 login;
	struct l2s_profile *prof;
	u16 tunnel;
};

struct sim {
	const char *file;
	int line;
	struct l2s_core core;
	struct l2s_dest dests[SIM_DESTS];
	struct l2s_profile *prof[SIM_PROFILES];
	int nprof;
	struct lns lns[SIM_LNS];
	int nlns;
	struct pin pins[SIM_PINS];
	int pin_head, pin_tail;
	u64 now;
	u64 rng;
	u32 nlogin;
	const struct l2s_profile *cur;	/* profile of the login being walked */
	u32 cur_login;
	bool quiet;			/* inside "login ... count N" */
	/* LAC admission (S-LIM-1): checked and traced once a "limit" line is seen. */
	struct lim_chassis chassis;
	bool limits_on;
	int refused_level;		/* LIM_PASS, or the level that refused this login */
	struct live *live;
	size_t nlive, cap;
	/* Rate limiting: "ratelimit", "throttle", "load", "offer". */
	struct sim_rl rl[SIM_RL];
	int nrl;
	struct sim_th th[SIM_THROTTLES];
	int nth;
};


/* sim_env.c */
/* The scenario's error at its current line, to stderr; exit 1. */
__attribute__((format(printf, 2, 3), noreturn))
void sim_die(struct sim *s, const char *fmt, ...);
/* @str as a JSON string on stdout. */
void sim_jstr(const char *str);
/* The remote address of destination @slot (one of four rotating buffers). */
const char *sim_dest_str(struct sim *s, u16 slot);
/* The core's environment at the simulated now. */
struct l2s_env sim_env(struct sim *s);
struct l2s_profile *sim_find_profile(struct sim *s, const char *name);
/* The profile @name, or the scenario fails. */
struct l2s_profile *sim_need_profile(struct sim *s, const char *name);
int sim_find_tunnel(struct sim *s, const char *name, const char *pname, struct l2s_profile **pp);
/* @str as a number 0..@max (@what names it in the error), or the scenario fails. */
u32 sim_num(struct sim *s, const char *str, u32 max, const char *what);
void sim_addr(struct sim *s, const char *str, struct l2s_addr *a);
bool sim_onoff(struct sim *s, const char *w);

/* sim_state.c */
void sim_do_lns(struct sim *s, int argc, char **argv);
/* How the LNS of destination @slot answers ("lns" lines; ok when none). */
struct l2s_outcome sim_lns_answer(struct sim *s, u16 slot);
void sim_do_state(struct sim *s, int argc, char **argv);
void sim_do_pick(struct sim *s, int argc, char **argv);

/* sim_login.c */
void sim_do_limit(struct sim *s, int argc, char **argv);
void sim_do_login(struct sim *s, int argc, char **argv);
void sim_do_logout(struct sim *s, int argc, char **argv);
void sim_show_sessions(struct sim *s);

/* sim_rl.c */
void sim_do_throttle(struct sim *s, int argc, char **argv);
void sim_do_ratelimit(struct sim *s, int argc, char **argv);
void sim_do_load(struct sim *s, int argc, char **argv);
void sim_do_offer(struct sim *s, int argc, char **argv);
void sim_show_ratelimits(struct sim *s);
/* The clock moves on @ms: lockouts expire, the throttles' steps due are taken. */
void sim_advance(struct sim *s, u64 ms);

#endif
