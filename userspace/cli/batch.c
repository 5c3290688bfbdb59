// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpsel -b FILE: configuration lines, applied so that running a file
 * twice leaves the state the first run made (Documentation/install.md,
 * "Boot-time configuration").  In a batch an "add" of an object that
 * exists makes it what the line says: the objects' files do that on
 * -EEXIST when cli->replace is set (cli_request()); the file adding one
 * object twice is refused.  With -sync the file
 * is the whole configuration: afterwards, every profile, tunnel, domain,
 * group, client, rate limit and throttle profile that no line of it names
 * is deleted.  Nothing is deleted when a line failed, and a tunnel with
 * live sessions is kept with a warning: a reload never ends a session.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/l2tpsel.h>

#include "cli.h"
#include "obj.h"
#include "print.h"

/* What -sync keeps and deletes, in the order it deletes them: users first. */
enum batch_kind {
	BK_DOMAIN, BK_TUNNEL, BK_PROFILE, BK_RL, BK_THROTTLE, BK_CLIENT, BK_SLG, BK_TGROUP,
	BK_NR
};

static const struct {
	const char *what;
	uint8_t get, del;
	uint16_t name_attr;
} batch_kinds[BK_NR] = {
	[BK_DOMAIN]	= { "domain", L2TPSEL_CMD_DOMAIN_GET, L2TPSEL_CMD_DOMAIN_DEL, L2TPSEL_A_DOMAIN },
	[BK_TUNNEL]	= { "tunnel", L2TPSEL_CMD_TUNNEL_GET, L2TPSEL_CMD_TUNNEL_DEL, L2TPSEL_A_NAME },
	[BK_PROFILE]	= { "profile", L2TPSEL_CMD_PROFILE_GET, L2TPSEL_CMD_PROFILE_DEL, L2TPSEL_A_NAME },
	[BK_RL]		= { "ratelimit", L2TPSEL_CMD_RL_GET, L2TPSEL_CMD_RL_DEL, L2TPSEL_A_NAME },
	[BK_THROTTLE]	= { "throttle", L2TPSEL_CMD_THROTTLE_GET, L2TPSEL_CMD_THROTTLE_DEL,
			    L2TPSEL_A_NAME },
	[BK_CLIENT]	= { "client", L2TPSEL_CMD_CLIENT_GET, L2TPSEL_CMD_CLIENT_DEL, L2TPSEL_A_NAME },
	[BK_SLG]	= { "slg group", L2TPSEL_CMD_SLG_GET, L2TPSEL_CMD_SLG_DEL, L2TPSEL_A_NAME },
	[BK_TGROUP]	= { "tunnel group", L2TPSEL_CMD_TGROUP_GET, L2TPSEL_CMD_TGROUP_DEL,
			    L2TPSEL_A_NAME },
};

/* One object: its kind, name and (a tunnel) profile; sessions as dumped. */
struct batch_obj {
	enum batch_kind kind;
	char *name, *profile;
	uint32_t sessions;
	int line;		/* the file's line that added it; 0: set, or dumped */
	bool gone;		/* a later line deleted it */
};

/* The objects, with an open-addressing index (a file may name 100000 of them). */
struct batch_set {
	struct batch_obj *v;
	size_t n, cap;
	size_t *idx;		/* slot -> position + 1; 0: empty */
	size_t slots;		/* a power of two, at least twice n */
};

static size_t obj_hash(enum batch_kind kind, const char *name, const char *profile)
{
	size_t h = 2166136261u ^ (size_t)kind;	/* FNV-1a */

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 16777619u;
	h = (h ^ 0xff) * 16777619u;
	for (; *profile; profile++)
		h = (h ^ (unsigned char)*profile) * 16777619u;
	return h;
}

static void idx_put(struct batch_set *s, size_t pos)
{
	const struct batch_obj *o = &s->v[pos];
	size_t i = obj_hash(o->kind, o->name, o->profile) & (s->slots - 1);

	while (s->idx[i])
		i = (i + 1) & (s->slots - 1);
	s->idx[i] = pos + 1;
}

static int idx_grow(struct batch_set *s)
{
	size_t slots = s->slots ? 2 * s->slots : 128, i;
	size_t *idx = calloc(slots, sizeof(*idx));

	if (!idx)
		return cli_err("out of memory");
	free(s->idx);
	s->idx = idx;
	s->slots = slots;
	for (i = 0; i < s->n; i++)
		idx_put(s, i);
	return 0;
}

static int set_add(struct batch_set *s, enum batch_kind kind, const char *name,
		   const char *profile, uint32_t sessions, int line)
{
	struct batch_obj *o;

	if (2 * (s->n + 1) > s->slots && idx_grow(s))
		return -1;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;

		o = realloc(s->v, cap * sizeof(*o));
		if (!o)
			return cli_err("out of memory");
		s->v = o;
		s->cap = cap;
	}
	o = &s->v[s->n];
	o->kind = kind;
	o->name = strdup(name);
	o->profile = strdup(profile ?: "");
	o->sessions = sessions;
	o->line = line;
	o->gone = false;
	if (!o->name || !o->profile) {
		free(o->name);
		free(o->profile);
		return cli_err("out of memory");
	}
	idx_put(s, s->n++);
	return 0;
}

static struct batch_obj *set_find(const struct batch_set *s, enum batch_kind kind,
				  const char *name, const char *profile)
{
	size_t i;

	profile = profile ?: "";
	if (!s->slots)
		return NULL;
	for (i = obj_hash(kind, name, profile) & (s->slots - 1); s->idx[i];
	     i = (i + 1) & (s->slots - 1)) {
		struct batch_obj *o = &s->v[s->idx[i] - 1];

		if (!o->gone && o->kind == kind && !strcmp(o->name, name) &&
		    !strcmp(o->profile, profile))
			return o;
	}
	return NULL;
}

static bool set_has(const struct batch_set *s, enum batch_kind kind, const char *name,
		    const char *profile)
{
	return set_find(s, kind, name, profile) != NULL;
}

static void set_free(struct batch_set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->v[i].name);
		free(s->v[i].profile);
	}
	free(s->v);
	free(s->idx);
	memset(s, 0, sizeof(*s));
}

/* The value after keyword @key among @argv, or NULL. */
static const char *arg_after(int argc, char **argv, const char *key)
{
	int i;

	for (i = 0; i + 1 < argc; i++)
		if (!strcmp(argv[i], key))
			return argv[i + 1];
	return NULL;
}

enum batch_verb { BV_ADD = 1, BV_SET, BV_DEL };

/*
 * The object a configuration line names ("OBJECT VERB NAME ..." with VERB
 * add, set or del) into *@kind, *@name, *@profile.  Return: the verb, or 0
 * for the other lines.
 */
static int line_object(int argc, char **argv, enum batch_kind *kind, const char **name,
		       const char **profile)
{
	const struct cli_object *o;
	const char *verb, *type;
	int v;

	if (argc < 3)
		return 0;
	o = cli_find_object(argv[0]);
	verb = argv[1];
	if (cli_matches(verb, "add"))
		v = BV_ADD;
	else if ((strlen(verb) > 1 && cli_matches(verb, "set")) || cli_matches(verb, "change"))
		v = BV_SET;
	else if (cli_matches(verb, "delete"))
		v = BV_DEL;
	else
		return 0;
	*name = argv[2];
	*profile = NULL;
	if (o == &cli_obj_profile) {
		*kind = BK_PROFILE;
	} else if (o == &cli_obj_tunnel) {
		*kind = BK_TUNNEL;
		*profile = arg_after(argc, argv, "profile");
	} else if (o == &cli_obj_domain) {
		*kind = BK_DOMAIN;
	} else if (o == &cli_obj_group) {
		type = arg_after(argc, argv, "type");
		*kind = type && (!strcmp(type, "slg") || cli_matches(type, "session-limit")) ?
			BK_SLG : BK_TGROUP;
	} else if (o == &cli_obj_client) {
		*kind = BK_CLIENT;
	} else if (o == &cli_obj_ratelimit) {
		*kind = BK_RL;
	} else if (o == &cli_obj_throttle) {
		*kind = BK_THROTTLE;
	} else {
		return 0;
	}
	return v;
}

/* What a line that ran did to the set of the file's objects. */
static int note_line(struct batch_set *keep, int verb, enum batch_kind kind, const char *name,
		     const char *profile, int lineno)
{
	struct batch_obj *o = set_find(keep, kind, name, profile);
	size_t i;

	if (verb == BV_DEL) {
		if (o)
			o->gone = true;
		/* a profile goes with its tunnels */
		for (i = 0; kind == BK_PROFILE && i < keep->n; i++)
			if (keep->v[i].kind == BK_TUNNEL && !strcmp(keep->v[i].profile, name))
				keep->v[i].gone = true;
		return 0;
	}
	if (o)
		return 0;
	/* a domain line points the domain anew: a second one is no mistake */
	return set_add(keep, kind, name, profile, 0, verb == BV_ADD && kind != BK_DOMAIN ? lineno : 0);
}

struct dump_ctx {
	struct batch_set *have;
	enum batch_kind kind;
};

static int dump_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];
	struct dump_ctx *d = data;
	const char *name, *profile = NULL;
	uint32_t sessions = 0;

	l2s_attr_parse(nlh, tb);
	name = l2s_attr_str(tb, batch_kinds[d->kind].name_attr, NULL);
	if (!name)
		return MNL_CB_OK;
	/* A login's own tunnel set ("~N") is the kernel's, not configuration. */
	if (d->kind == BK_PROFILE && l2s_profile_is_set(name))
		return MNL_CB_OK;
	if (d->kind == BK_TUNNEL) {
		profile = l2s_attr_str(tb, L2TPSEL_A_PROFILE, NULL);
		if (!profile || l2s_profile_is_set(profile))
			return MNL_CB_OK;
		sessions = l2s_attr_u32(tb, L2TPSEL_A_SESSIONS, 0);
	}
	/* A client in many tunnel groups comes in several parts. */
	if (set_has(d->have, d->kind, name, profile))
		return MNL_CB_OK;
	return set_add(d->have, d->kind, name, profile, sessions, 0) ?
	       MNL_CB_ERROR : MNL_CB_OK;
}

/* Delete one object the file does not name. */
static int prune_one(struct cli *c, const struct batch_obj *o)
{
	char buf[MNL_SOCKET_BUFFER_SIZE], what[64];
	struct nlmsghdr *nlh;
	int err;

	snprintf(what, sizeof(what), "-sync: %s del %s", batch_kinds[o->kind].what, o->name);
	if (o->kind == BK_TUNNEL && o->sessions) {
		fprintf(stderr, "l2tpsel: warning: -sync: tunnel %s (profile %s) has %u live session%s: "
			"kept until they end (a reload never ends a session); run the file again then\n",
			o->name, o->profile, o->sessions, o->sessions == 1 ? "" : "s");
		return 0;
	}
	nlh = l2s_nl_req(&c->nl, buf, batch_kinds[o->kind].del, 0);
	mnl_attr_put_strz(nlh, batch_kinds[o->kind].name_attr, o->name);
	if (o->kind == BK_TUNNEL)
		mnl_attr_put_strz(nlh, L2TPSEL_A_PROFILE, o->profile);
	err = l2s_nl_talk(&c->nl, nlh, NULL, NULL);
	/* A group or client that only counts sessions (never added) is not configuration. */
	if (err == -ENOENT && (o->kind == BK_CLIENT || o->kind == BK_SLG || o->kind == BK_TGROUP))
		return 0;
	if (err == -EBUSY) {
		fprintf(stderr, "l2tpsel: warning: %s: kept: %s\n", what,
			c->nl.errmsg[0] ? c->nl.errmsg : strerror(-err));
		return 0;
	}
	if (err)
		return cli_nl_err(c, what, err);
	if (!c->json)
		printf("-sync: deleted %s %s%s%s\n", batch_kinds[o->kind].what, o->name,
		       o->kind == BK_TUNNEL ? " profile " : "", o->kind == BK_TUNNEL ? o->profile : "");
	return 0;
}

/* Delete, kind by kind, what the kernel has and @keep does not name. */
static int prune(struct cli *c, const struct batch_set *keep)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct batch_set have = { 0 };
	struct nlmsghdr *nlh;
	int kind, err, errors = 0;
	size_t i;

	if (cli_nl(c))
		return -1;
	for (kind = 0; kind < BK_NR; kind++) {
		struct dump_ctx d = { .have = &have, .kind = kind };

		set_free(&have);
		nlh = l2s_nl_req(&c->nl, buf, batch_kinds[kind].get, NLM_F_DUMP);
		err = l2s_nl_talk(&c->nl, nlh, dump_cb, &d);
		if (err) {
			cli_nl_err(c, "-sync: reading the configuration", err);
			errors++;
			break;
		}
		for (i = 0; i < have.n; i++)
			if (!set_has(keep, kind, have.v[i].name, have.v[i].profile) &&
			    prune_one(c, &have.v[i]))
				errors++;
	}
	set_free(&have);
	return errors ? -1 : 0;
}

int cli_run_batch(struct cli *c, const char *file)
{
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	char *line = NULL, *argv[64];
	struct batch_set keep = { 0 };
	const struct batch_obj *prev;
	const char *name, *profile;
	enum batch_kind kind;
	int verb;
	size_t cap = 0;
	int lineno = 0, errors = 0;

	if (!f)
		return cli_err("cannot open batch file %s: %s", file, strerror(errno));
	c->replace = true;
	while (getline(&line, &cap, f) > 0) {
		int argc = conf_words(line, argv, 64, true);

		lineno++;
		if (argc == -1 || argc == -2) {
			cli_err("%s:%d: %s", file, lineno,
				argc == -1 ? "more than 64 words" : "unterminated quote");
			errors++;
			continue;
		}
		if (!argc)
			continue;
		verb = line_object(argc, argv, &kind, &name, &profile);
		/* the file adding one object twice is a mistake in it, not a replace */
		prev = verb == BV_ADD ? set_find(&keep, kind, name, profile) : NULL;
		if (prev && prev->line) {
			cli_err("%s:%d: %s %s was added on line %d already", file, lineno,
				batch_kinds[kind].what, name, prev->line);
			errors++;
			continue;
		}
		if (cli_run_object(c, argc, argv)) {
			fprintf(stderr, "l2tpsel: %s:%d: command failed\n", file, lineno);
			errors++;
		} else if (verb && note_line(&keep, verb, kind, name, profile, lineno)) {
			errors++;
		}
	}
	free(line);
	if (f != stdin)
		fclose(f);
	if (c->sync) {
		if (errors)
			cli_err("-sync: %d line%s of %s failed: nothing deleted", errors,
				errors == 1 ? "" : "s", file);
		else if (prune(c, &keep))
			errors++;
	}
	set_free(&keep);
	return errors ? -1 : 0;
}
