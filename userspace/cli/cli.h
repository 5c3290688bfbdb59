/* SPDX-License-Identifier: GPL-2.0 */
/*
 * l2tpsel CLI: shared state and helpers for the per-object files.
 * Grammar: l2tpsel [OPTIONS] OBJECT { COMMAND | help } (iproute2 style).
 */
#ifndef L2S_CLI_H
#define L2S_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "attr.h"
#include "nl.h"

struct cli {
	struct l2s_nl nl;
	bool nl_open;
	bool json;
	bool pretty;
	bool replace;	/* in a batch: an add of an existing object makes it what the line says */
	bool sync;	/* -sync: a batch deletes what its file does not name (batch.c) */
};

struct cli_object {
	const char *name;
	int (*run)(struct cli *c, int argc, char **argv);
	void (*usage)(void);
};

/* True when @arg is a non-empty prefix of @word ("sh" matches "show"). */
bool cli_matches(const char *arg, const char *word);

/* Print "l2tpsel: " + message to stderr; returns -1 for "return cli_err(...)". */
int cli_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Report a failed netlink request: the kernel's extack message when there is one. */
int cli_nl_err(struct cli *c, const char *what, int err);

/*
 * Send @nlh, print each reply with @cb (NULL: none), report a refusal naming
 * @what.  With c->replace, -EEXIST comes back unreported: the caller makes
 * the existing object what its line says.
 */
int cli_request(struct cli *c, struct nlmsghdr *nlh, mnl_cb_t cb, const char *what);

/* Open the socket and resolve the family on first use. */
int cli_nl(struct cli *c);

/* Parse a number; print a message naming @what and return -1 when it is not one. */
int cli_parse_u32(const char *what, const char *s, uint32_t *v);
int cli_parse_u64(const char *what, const char *s, uint64_t *v);
const char *cli_level_name(unsigned int level);

/* The object a command word names (a prefix, in the usage's order), or NULL. */
const struct cli_object *cli_find_object(const char *word);
int cli_run_object(struct cli *c, int argc, char **argv);
/* -b FILE (batch.c) */
int cli_run_batch(struct cli *c, const char *file);

/* login start / stop through the l2tpseld agent (agent.c) */
int agent_login_run(struct cli *c, int argc, char **argv);

extern const struct cli_object cli_obj_info;
extern const struct cli_object cli_obj_limit;
extern const struct cli_object cli_obj_group;
extern const struct cli_object cli_obj_client;
extern const struct cli_object cli_obj_session;
extern const struct cli_object cli_obj_summary;
extern const struct cli_object cli_obj_monitor;
extern const struct cli_object cli_obj_profile;
extern const struct cli_object cli_obj_tunnel;
extern const struct cli_object cli_obj_domain;
extern const struct cli_object cli_obj_destination;
extern const struct cli_object cli_obj_lockout;
extern const struct cli_object cli_obj_clear;
extern const struct cli_object cli_obj_login;
extern const struct cli_object cli_obj_ratelimit;
extern const struct cli_object cli_obj_throttle;
extern const struct cli_object cli_obj_load;

/* ratelimit.c: the fields of an L2TPSEL_CMD_EV_THROTTLE, for the monitor. */
void cli_print_throttle_event(const struct nlmsghdr *nlh);

#endif
