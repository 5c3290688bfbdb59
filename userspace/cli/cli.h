/* SPDX-License-Identifier: GPL-2.0 */
/*
 * l2tpsel CLI: shared state and helpers for the per-object files.
 * Grammar: l2tpsel [OPTIONS] OBJECT { COMMAND | help } (iproute2 style).
 */
#ifndef L2S_CLI_H
#define L2S_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "args.h"
#include "attr.h"
#include "conf.h"
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

/* cli_request(), and the end of the document (pr_done()) after @cb's replies. */
int cli_talk(struct cli *c, struct nlmsghdr *nlh, mnl_cb_t cb, const char *what);
/*
 * Send @nlh (a GET or a dump), print every reply with @cb as one JSON array
 * (or lines of text), report a refusal naming @what.
 */
int cli_show(struct cli *c, struct nlmsghdr *nlh, mnl_cb_t cb, const char *what);
/*
 * cli_show() of @cmd: a GET of the object @name in attribute @attr, or a
 * dump when @name is NULL.  A GET too big for one message (a client in
 * many groups) is asked again as a dump of that name, which has it in parts.
 */
int cli_show_named(struct cli *c, uint8_t cmd, uint16_t attr, const char *name, mnl_cb_t cb,
		   const char *what);
/*
 * "OBJECT [ show [ NAME ] ]" with @argv at the verb: cli_show_named() of
 * NAME, or of every object; another word after NAME is refused.
 */
int cli_show_args(struct cli *c, uint8_t cmd, uint16_t attr, int argc, char **argv, mnl_cb_t cb,
		  const char *what);

/* The request of an add, set (or change) or del(ete): @ops[0], [1] or [2]; 0: another verb. */
uint8_t cli_edit_op(const char *verb, const uint8_t ops[3]);

/* The number of entries of an array, and an entry's name or "unknown". */
#define N_OF(t) (sizeof(t) / sizeof((t)[0]))
#define NAME_OF(t, v) ((v) < N_OF(t) && (t)[v] ? (t)[v] : "unknown")

/* An admission level's name (L2TPSEL_LEVEL_*). */
const char *cli_level_name(unsigned int level);
/* A limit: "limit 0" reads as " LABEL none" in text and stays 0 in JSON. */
void cli_print_limit(const char *key, const char *label, uint32_t v);

/* Addresses (struct l2s_addr, conf.h): an attribute of @nlh, if @a has a family. */
void cli_put_addr(struct nlmsghdr *nlh, int type, const struct l2s_addr *a);
/* An address attribute of a reply; family 0 when absent. */
void cli_get_addr(const struct nlattr *const *tb, int type, struct l2s_addr *a);
/* An address attribute as text in @buf, or @absent when there is none. */
const char *cli_addr_text(const struct nlattr *const *tb, int type, char *buf, size_t len,
			  const char *absent);

/*
 * A configuration line of the batch grammar (userspace/lib/conf.h): run
 * "OBJECT VERB ARGS..." through conf_parse() and hand what it read to
 * @apply.  @verbs are the object's verbs in the grammar, so that a prefix
 * ("prof a") reads as the full word.
 */
int cli_run_conf(struct cli *c, const char *object, const char *const *verbs, int argc,
		 char **argv, int (*apply)(struct cli *c, const struct conf_cmd *k));

/* objects.c: the usage line listing every object. */
void cli_usage(FILE *f);
/* The object a command word names (a prefix, in the usage's order), or NULL. */
const struct cli_object *cli_find_object(const char *word);
/* "OBJECT ARGS..." (or "help"), run by its object. */
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

/* throttle.c: the fields of an L2TPSEL_CMD_EV_THROTTLE, for the monitor. */
void cli_print_throttle_event(const struct nlmsghdr *nlh);
/* tunnel.c: the tunnel attributes of a reply, a login step or a candidate. */
void cli_print_tunnel(const struct nlattr **tb, bool full);
/* tunnel.c: "drain draining|drained" and what drains it, when DRAIN is set (S-OPS-1). */
void cli_print_drain(const struct nlattr **tb);
/* limit.c: LIMIT_GET's and SUMMARY_GET's reply. */
int cli_limit_show(struct cli *c, uint8_t cmd, const char *what);

#endif
