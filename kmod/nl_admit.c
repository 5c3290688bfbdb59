// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink handlers of admission: the chassis and tunnel limits, tunnel
 * groups, session-limit groups, clients, sessions and the summary, and the
 * limit event (documented in uapi/linux/l2tpsel.h).  The state and its
 * rules are in admit.c and the core; this file checks the attributes, takes
 * ln->lock and builds replies, dumps and events.
 */
#include <net/genetlink.h>
#include <net/sock.h>
#include <linux/l2tpsel.h>

#include "l2tpsel.h"

#define NAME_POLICY { .type = NLA_NUL_STRING, .len = L2TPSEL_NAME_MAX - 1 }

const struct nla_policy ks_limit_set_policy[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_CHASSIS_MAX]   = NLA_POLICY_MIN(NLA_U32, 1),
	[L2TPSEL_A_CHASSIS_LIMIT] = { .type = NLA_U32 },
	[L2TPSEL_A_TUNNEL_LIMIT]  = { .type = NLA_U32 },
};

const struct nla_policy ks_group_policy[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_NAME]  = NAME_POLICY,
	[L2TPSEL_A_LIMIT] = { .type = NLA_U32 },
};

const struct nla_policy ks_name_policy[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_NAME] = NAME_POLICY,
};

const struct nla_policy ks_client_policy[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_NAME]  = NAME_POLICY,
	[L2TPSEL_A_LIMIT] = { .type = NLA_U32 },
	[L2TPSEL_A_SLG]   = NAME_POLICY,
};

const struct nla_policy ks_session_up_policy[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_SESSION_KEY] = { .type = NLA_U64 },
	[L2TPSEL_A_ROLE]        = NLA_POLICY_MAX(NLA_U8, L2TPSEL_ROLE_LNS),
	[L2TPSEL_A_TUNNEL_ID]   = { .type = NLA_U32 },
	[L2TPSEL_A_TGROUP]      = NAME_POLICY,
	[L2TPSEL_A_CLIENT]      = NAME_POLICY,
	[L2TPSEL_A_DETACHED]    = { .type = NLA_FLAG },
};

const struct nla_policy ks_session_down_policy[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_SESSION_KEY] = { .type = NLA_U64 },
};

/* ---- chassis and tunnel limits -------------------------------------- */

int ks_nl_limit_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct lim_chassis next, probe;
	struct l2tpsel_net *ln = ks_ln(info);
	struct l2s_err err = { };
	int ret;

	if (!a[L2TPSEL_A_CHASSIS_MAX] && !a[L2TPSEL_A_CHASSIS_LIMIT] &&
	    !a[L2TPSEL_A_TUNNEL_LIMIT]) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "nothing to set: give CHASSIS_MAX, CHASSIS_LIMIT or TUNNEL_LIMIT");
		return -EINVAL;
	}
	next = ln->chassis;
	if (a[L2TPSEL_A_CHASSIS_MAX])
		next.maximum = nla_get_u32(a[L2TPSEL_A_CHASSIS_MAX]);
	if (a[L2TPSEL_A_CHASSIS_MAX] && ks_in_userns(ln) &&
	    next.maximum > READ_ONCE(ks_max_sessions_userns)) {
		ks_msg(info, a[L2TPSEL_A_CHASSIS_MAX],
		       "CHASSIS_MAX %u: at most %u outside the initial user namespace (%s)",
		       next.maximum, READ_ONCE(ks_max_sessions_userns),
		       "module parameter max_sessions_userns");
		return -EPERM;
	}
	if (a[L2TPSEL_A_CHASSIS_LIMIT])
		next.limit = nla_get_u32(a[L2TPSEL_A_CHASSIS_LIMIT]);
	if (a[L2TPSEL_A_TUNNEL_LIMIT])
		next.tunnel_limit = nla_get_u32(a[L2TPSEL_A_TUNNEL_LIMIT]);

	/* S-LIM-6: every limit, old or new, must fit under the (new) maximum. */
	ret = lim_check_value(&next, next.limit, "chassis", &err);
	if (ret) {
		ks_nl_err(info, a[L2TPSEL_A_CHASSIS_LIMIT] ?: a[L2TPSEL_A_CHASSIS_MAX], &err, ret);
		return ret;
	}
	ret = lim_check_value(&next, next.tunnel_limit, "tunnel", &err);
	if (ret) {
		ks_nl_err(info, a[L2TPSEL_A_TUNNEL_LIMIT] ?: a[L2TPSEL_A_CHASSIS_MAX], &err, ret);
		return ret;
	}
	probe = ln->chassis;
	ret = lim_set_maximum(&probe, next.maximum, ks_highest_limit(ln), &err);
	if (ret) {
		ks_nl_err(info, a[L2TPSEL_A_CHASSIS_MAX], &err, ret);
		return ret;
	}
	ln->chassis = next;
	ks_gen_bump(ln);
	return ret;
}

/* The chassis limits and count (LIMIT_GET, and the start of SUMMARY_GET). */
static int ks_admit_limit_fill(struct sk_buff *msg, struct l2tpsel_net *ln, const void *unused)
{
	const struct lim_chassis *ch = &ln->chassis;

	return nla_put_u32(msg, L2TPSEL_A_CHASSIS_MAX, ch->maximum) ||
	       nla_put_u32(msg, L2TPSEL_A_CHASSIS_LIMIT, ch->limit) ||
	       nla_put_u32(msg, L2TPSEL_A_TUNNEL_LIMIT, ch->tunnel_limit) ||
	       nla_put_u32(msg, L2TPSEL_A_COUNT, ch->count) ? -EMSGSIZE : 0;
}

int ks_nl_limit_get(struct sk_buff *skb, struct genl_info *info)
{
	return ks_reply_get(info, L2TPSEL_CMD_LIMIT_GET, ks_admit_limit_fill, NULL);
}

/*
 * NEW of an object already configured, or SET/DEL of one that is not (it
 * may exist unconfigured, held by sessions): an errno with a message.
 */
static int ks_nl_configured(struct genl_info *info, const char *what, const char *name,
			    bool is_new, bool configured)
{
	if (is_new != configured)
		return 0;
	ks_msg(info, info->attrs[L2TPSEL_A_NAME],
	       configured ? "%s \"%s\" already exists" : "%s \"%s\" does not exist",
	       what, name);
	return configured ? -EEXIST : -ENOENT;
}

/* ---- tunnel groups and session-limit groups ------------------------- */

int ks_nl_group_change(struct sk_buff *skb, struct genl_info *info)
{
	u8 cmd = info->genlhdr->cmd;
	bool is_slg = cmd == L2TPSEL_CMD_SLG_NEW || cmd == L2TPSEL_CMD_SLG_SET ||
		      cmd == L2TPSEL_CMD_SLG_DEL;
	bool is_new = cmd == L2TPSEL_CMD_TGROUP_NEW || cmd == L2TPSEL_CMD_SLG_NEW;
	bool is_del = cmd == L2TPSEL_CMD_TGROUP_DEL || cmd == L2TPSEL_CMD_SLG_DEL;
	const char *what = is_slg ? "session-limit group" : "tunnel group";
	struct nlattr *name_attr = info->attrs[L2TPSEL_A_NAME];
	struct nlattr *limit_attr = info->attrs[L2TPSEL_A_LIMIT];
	struct ks_tgroup *tg = NULL;
	struct ks_slg *slg = NULL;
	struct l2tpsel_net *ln = ks_ln(info);
	struct l2s_err err = { };
	bool *configured;
	const char *name;
	u32 *limit;
	int ret = 0;

	name = ks_nl_name(info, L2TPSEL_A_NAME, what);
	if (!name)
		return -EINVAL;
	if (limit_attr) {
		ret = lim_check_value(&ln->chassis, nla_get_u32(limit_attr), what, &err);
		if (ret) {
			ks_nl_err(info, limit_attr, &err, ret);
			goto out;
		}
	}
	if (is_slg)
		slg = ks_slg_get(ln, name, is_new, &err);
	else
		tg = ks_tgroup_get(ln, name, is_new, &err);
	if (IS_ERR(slg) || IS_ERR(tg)) {
		ret = PTR_ERR(is_slg ? (void *)slg : (void *)tg);
		ks_nl_err(info, name_attr, &err, ret);
		slg = NULL;
		tg = NULL;
		goto out;
	}
	if (!slg && !tg) {
		ks_msg(info, name_attr, "%s \"%s\" does not exist", what, name);
		ret = -ENOENT;
		goto out;
	}
	configured = is_slg ? &slg->configured : &tg->configured;
	limit = is_slg ? &slg->lim.limit : &tg->limit;

	ret = ks_nl_configured(info, what, name, is_new, *configured);
	if (ret)
		goto out;
	if (is_del) {
		if (is_slg && slg->members) {
			ks_msg(info, name_attr,
			       "session-limit group \"%s\" still has %u client(s); move them out first",
			       name, slg->members);
			ret = -EBUSY;
			goto out;
		}
		/* The limit goes; live sessions stay counted (S-LIM-9). */
		*configured = false;
		*limit = 0;
	} else {
		*configured = true;
		if (limit_attr)
			*limit = nla_get_u32(limit_attr);
	}
	ks_gen_bump(ln);
out:
	if (slg)
		ks_slg_put(ln, slg);
	if (tg)
		ks_tgroup_put(ln, tg);
	return ret;
}

/* ---- clients -------------------------------------------------------- */

int ks_nl_client_change(struct sk_buff *skb, struct genl_info *info)
{
	u8 cmd = info->genlhdr->cmd;
	bool is_new = cmd == L2TPSEL_CMD_CLIENT_NEW;
	bool is_del = cmd == L2TPSEL_CMD_CLIENT_DEL;
	struct nlattr *name_attr = info->attrs[L2TPSEL_A_NAME];
	struct nlattr *limit_attr = info->attrs[L2TPSEL_A_LIMIT];
	struct nlattr *slg_attr = info->attrs[L2TPSEL_A_SLG];
	struct ks_slg *slg = NULL, *old;
	struct ks_client *cl;
	struct l2tpsel_net *ln = ks_ln(info);
	struct l2s_err err = { };
	const char *name;
	int ret = 0;

	name = ks_nl_name(info, L2TPSEL_A_NAME, "client");
	if (!name)
		return -EINVAL;
	if (limit_attr) {
		ret = lim_check_value(&ln->chassis, nla_get_u32(limit_attr), "client", &err);
		if (ret) {
			ks_nl_err(info, limit_attr, &err, ret);
			goto out_unlock;
		}
	}
	if (slg_attr && *(char *)nla_data(slg_attr)) {
		slg = ks_slg_get(ln, nla_data(slg_attr), false, NULL);
		if (!slg || !slg->configured) {
			ks_msg(info, slg_attr,
			       "session-limit group \"%s\" does not exist",
			       (char *)nla_data(slg_attr));
			ret = -ENOENT;
			goto out_unlock;
		}
	}
	cl = ks_client_get(ln, name, is_new, &err);
	if (IS_ERR(cl)) {
		ret = PTR_ERR(cl);
		ks_nl_err(info, name_attr, &err, ret);
		goto out_unlock;
	}
	if (!cl) {
		ks_msg(info, name_attr, "client \"%s\" does not exist", name);
		ret = -ENOENT;
		goto out_unlock;
	}
	ret = ks_nl_configured(info, "client", name, is_new, cl->configured);
	if (ret)
		goto out;
	old = cl->slg;
	if (is_del) {
		ret = ks_client_set_slg(cl, NULL, &err);
		if (ret) {
			ks_nl_err(info, name_attr, &err, ret);
			goto out;
		}
		cl->configured = false;
		cl->limit = 0;
	} else {
		if (slg_attr) {
			ret = ks_client_set_slg(cl, slg, &err);
			if (ret) {
				ks_nl_err(info, slg_attr, &err, ret);
				goto out;
			}
		}
		cl->configured = true;
		if (limit_attr)
			cl->limit = nla_get_u32(limit_attr);
	}
	if (old != cl->slg)
		ks_slg_put(ln, old);
	ks_gen_bump(ln);
out:
	ks_client_put(ln, cl);
out_unlock:
	return ret;
}

/* ---- fills shared by GET and dumps (under ln->lock) ------------------ */

static int ks_admit_fill_tgroup(struct sk_buff *msg, struct l2tpsel_net *ln, void *entry)
{
	struct ks_tgroup *tg = container_of((struct ks_obj *)entry, struct ks_tgroup, obj);

	return nla_put_string(msg, L2TPSEL_A_NAME, tg->obj.name) ||
	       nla_put_u32(msg, L2TPSEL_A_LIMIT, tg->limit) ||
	       nla_put_u32(msg, L2TPSEL_A_COUNT, tg->count) ? -EMSGSIZE : 0;
}

static int ks_admit_fill_slg(struct sk_buff *msg, struct l2tpsel_net *ln, void *entry)
{
	struct ks_slg *slg = container_of((struct ks_obj *)entry, struct ks_slg, obj);

	return nla_put_string(msg, L2TPSEL_A_NAME, slg->obj.name) ||
	       nla_put_u32(msg, L2TPSEL_A_LIMIT, slg->lim.limit) ||
	       nla_put_u32(msg, L2TPSEL_A_COUNT, slg->lim.count) ||
	       nla_put_u32(msg, L2TPSEL_A_MEMBERS, slg->members) ? -EMSGSIZE : 0;
}

/*
 * A client, its per-tunnel-group counts from the *@sub-th on (0: the whole
 * entry).  A client in many tunnel groups may not fit one message: then
 * what fits goes with MORE, *@sub says where the next entry resumes (NAME
 * again, then the rest of the counts), and the return is 1.  New groups
 * join at the list's head: a change between two parts moves the
 * generation, so the dump flags the next part NLM_F_DUMP_INTR.
 *
 * Return: 0 (all of it), 1 (a part), or -EMSGSIZE (not one count fit).
 */
static int ks_admit_fill_client_part(struct sk_buff *msg, struct ks_client *cl, u32 *sub)
{
	struct nlattr *list, *one, *prev = NULL;
	u32 i = 0, from = *sub;
	struct ks_slg *slg;
	struct ks_client_tg *ctg;

	if (nla_put_string(msg, L2TPSEL_A_NAME, cl->obj.name))
		return -EMSGSIZE;
	slg = cl->slg;
	if (!from &&
	    (nla_put_u32(msg, L2TPSEL_A_LIMIT, cl->limit) ||
	     nla_put_u32(msg, L2TPSEL_A_COUNT, cl->total) ||
	     (slg && nla_put_string(msg, L2TPSEL_A_SLG, slg->obj.name))))
		return -EMSGSIZE;
	list = nla_nest_start(msg, L2TPSEL_A_TGROUP_COUNTS);
	if (!list)
		return -EMSGSIZE;
	list_for_each_entry(ctg, &cl->tgs, node) {
		if (i < from) {
			i++;
			continue;
		}
		one = nla_nest_start(msg, L2TPSEL_A_TGC);
		if (!one ||
		    (ctg->tg && nla_put_string(msg, L2TPSEL_A_NAME, ctg->tg->obj.name)) ||
		    nla_put_u32(msg, L2TPSEL_A_COUNT, ctg->count)) {
			if (one)
				nla_nest_cancel(msg, one);
			goto part;
		}
		nla_nest_end(msg, one);
		prev = one;
		i++;
	}
	nla_nest_end(msg, list);
	*sub = 0;
	return 0;

part:
	/* Room for MORE, at the cost of the last count if need be. */
	if (skb_tailroom(msg) < nla_total_size(0) && prev) {
		nla_nest_cancel(msg, prev);
		prev = NULL;
		i--;
	}
	if (i == from)
		return -EMSGSIZE;
	nla_nest_end(msg, list);
	if (nla_put_flag(msg, L2TPSEL_A_MORE))
		return -EMSGSIZE;
	*sub = i;
	return 1;
}

/* A GET: the whole client in one message, or -EMSGSIZE. */
static int ks_admit_fill_client(struct sk_buff *msg, struct l2tpsel_net *ln, void *entry)
{
	u32 sub = 0;

	return ks_admit_fill_client_part(msg, container_of((struct ks_obj *)entry,
						     struct ks_client, obj), &sub) ? -EMSGSIZE : 0;
}

static int ks_admit_fill_session(struct sk_buff *msg, struct l2tpsel_net *ln, void *entry)
{
	struct ks_session *s = entry;

	return nla_put_u64_64bit(msg, L2TPSEL_A_SESSION_KEY, s->key, L2TPSEL_A_PAD) ||
	       nla_put_u8(msg, L2TPSEL_A_ROLE, s->role) ||
	       nla_put_u32(msg, L2TPSEL_A_TUNNEL_ID, s->tun->tid) ||
	       (s->tg && nla_put_string(msg, L2TPSEL_A_TGROUP, s->tg->obj.name)) ||
	       (s->client && nla_put_string(msg, L2TPSEL_A_CLIENT, s->client->obj.name)) ||
	       (s->detached && nla_put_flag(msg, L2TPSEL_A_DETACHED)) ||
	       (s->kp && nla_put_string(msg, L2TPSEL_A_PROFILE, s->kp->obj.name)) ?
	       -EMSGSIZE : 0;
}

typedef int (*ks_admit_fill_fn)(struct sk_buff *msg, struct l2tpsel_net *ln, void *entry);

struct ks_admit_kind {
	u8 cmd;
	const char *what;
	struct ks_table *(*table)(struct l2tpsel_net *ln);
	struct xarray *(*xa)(struct l2tpsel_net *ln);
	ks_admit_fill_fn fill;
};

static struct ks_table *ks_tgroups(struct l2tpsel_net *ln) { return &ln->tgroups; }
static struct ks_table *ks_slgs(struct l2tpsel_net *ln) { return &ln->slgs; }
static struct ks_table *ks_clients(struct l2tpsel_net *ln) { return &ln->clients; }
static struct xarray *ks_tgroups_xa(struct l2tpsel_net *ln) { return &ln->tgroups.xa; }
static struct xarray *ks_slgs_xa(struct l2tpsel_net *ln) { return &ln->slgs.xa; }
static struct xarray *ks_clients_xa(struct l2tpsel_net *ln) { return &ln->clients.xa; }
static struct xarray *ks_sessions_xa(struct l2tpsel_net *ln) { return &ln->session_xa; }

static const struct ks_admit_kind ks_admit_kinds[] = {
	{ L2TPSEL_CMD_TGROUP_GET, "tunnel group", ks_tgroups, ks_tgroups_xa, ks_admit_fill_tgroup },
	{ L2TPSEL_CMD_SLG_GET, "session-limit group", ks_slgs, ks_slgs_xa, ks_admit_fill_slg },
	{ L2TPSEL_CMD_CLIENT_GET, "client", ks_clients, ks_clients_xa, ks_admit_fill_client },
	{ L2TPSEL_CMD_SESSION_GET, "session", NULL, ks_sessions_xa, ks_admit_fill_session },
};

static const struct ks_admit_kind *ks_admit_kind_of(u8 cmd)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ks_admit_kinds); i++)
		if (ks_admit_kinds[i].cmd == cmd)
			return &ks_admit_kinds[i];
	return NULL;
}

/* GET of one named object. */
struct ks_admit_key {
	const struct ks_admit_kind *kind;
	const char *name;
};

static int ks_admit_get_fill(struct sk_buff *msg, struct l2tpsel_net *ln, const void *arg)
{
	const struct ks_admit_key *key = arg;
	struct ks_obj *obj = ks_table_find(key->kind->table(ln), key->name);

	return obj ? key->kind->fill(msg, ln, obj) : -ENOENT;
}

int ks_nl_admit_get(struct sk_buff *skb, struct genl_info *info)
{
	struct ks_admit_key key = { .kind = ks_admit_kind_of(info->genlhdr->cmd) };
	int ret;

	key.name = ks_nl_name(info, L2TPSEL_A_NAME, key.kind->what);
	if (!key.name)
		return -EINVAL;
	ret = ks_reply_get(info, key.kind->cmd, ks_admit_get_fill, &key);
	if (ret == -ENOENT)
		ks_msg(info, info->attrs[L2TPSEL_A_NAME],
		       "%s \"%s\" does not exist", key.kind->what, key.name);
	else if (ret == -EMSGSIZE)
		ks_msg(info, info->attrs[L2TPSEL_A_NAME],
		       "%s \"%s\" does not fit one message: dump it (NLM_F_DUMP with NAME)",
		       key.kind->what, key.name);
	return ret;
}

/*
 * A dump in id order, each part under ln->lock.  cb->ctx keeps the next id
 * to send, so each part resumes where the last one stopped; cb->seq carries
 * the namespace's generation so that a change between parts is flagged
 * NLM_F_DUMP_INTR.  A client sent in parts continues only if nothing
 * changed since its last part: otherwise the client at the cursor may be
 * gone, or another one with its id, and the next client is sent whole.
 */
struct ks_admit_dump_ctx {
	unsigned long next;
	u32 sub;		/* a client sent in parts: its next count at @next */
};

/*
 * One entry of a dump; a client may be sent in parts (ks_admit_fill_client_part()),
 * but only when it is alone in its message: one that does not fit behind
 * others waits for the next message.
 *
 * Return: 0 (sent whole), 1 (a part sent, ctx->sub set), or -EMSGSIZE.
 */
static int ks_admit_dump_entry(struct sk_buff *skb, const struct ks_admit_kind *k,
			       struct l2tpsel_net *ln, void *entry, struct ks_admit_dump_ctx *ctx,
			       bool first)
{
	u32 sub = ctx->sub;
	int ret;

	if (k->cmd != L2TPSEL_CMD_CLIENT_GET)
		return k->fill(skb, ln, entry);
	ret = ks_admit_fill_client_part(skb, container_of((struct ks_obj *)entry,
							  struct ks_client, obj), &sub);
	if (ret == 1 && !first)
		return -EMSGSIZE;
	if (ret >= 0)
		ctx->sub = sub;
	return ret;
}

int ks_nl_admit_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_dumpit_info *di = genl_dumpit_info(cb);
	const struct ks_admit_kind *k = ks_admit_kind_of(di->op.cmd);
	struct ks_admit_dump_ctx *ctx = (void *)cb->ctx;
	const struct nlattr *name = NULL;
	struct l2tpsel_net *ln;
	unsigned long id;
	void *entry, *hdr;
	int ret = 0, start, part, n = 0;

	BUILD_BUG_ON(sizeof(*ctx) > sizeof(cb->ctx));
	ln = l2tpsel_pernet(sock_net(skb->sk));
	if (k->table && di->attrs)
		name = di->attrs[L2TPSEL_A_NAME];
	start = skb->len;
	/* A change since the last part restarts the client. */
	if (ks_dump_begin(cb, ln))
		ctx->sub = 0;
	xa_for_each_start(k->xa(ln), id, entry, ctx->next) {
		/* The client the counts index belonged to is gone. */
		if (id != ctx->next)
			ctx->sub = 0;
		/* A dump with NAME: that object only. */
		if (name && strcmp(((struct ks_obj *)entry)->name, nla_data(name)))
			continue;
		hdr = ks_dump_put(skb, cb, k->cmd);
		part = hdr ? ks_admit_dump_entry(skb, k, ln, entry, ctx, !start && !n) : -EMSGSIZE;
		ret = ks_dump_close(skb, hdr, part < 0);
		if (ret)
			break;
		n++;
		if (part) {
			/* The rest of this entry in the next message. */
			ctx->next = id;
			ret = -EMSGSIZE;
			break;
		}
		ctx->next = id + 1;
	}
	return ks_dump_end(skb, ln, ret);
}

/* ---- sessions ------------------------------------------------------- */

int ks_nl_session_up(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct ks_session_req req = { };
	enum lim_level verdict = LIM_PASS;
	struct l2tpsel_net *ln = ks_ln(info);
	struct l2s_err err = { };
	struct sk_buff *msg;
	void *hdr;
	int ret;

	if (ks_nl_missing(info, L2TPSEL_A_SESSION_KEY) ||
	    ks_nl_missing(info, L2TPSEL_A_ROLE) ||
	    ks_nl_missing(info, L2TPSEL_A_TUNNEL_ID))
		return -EINVAL;
	req.key = nla_get_u64(a[L2TPSEL_A_SESSION_KEY]);
	req.role = nla_get_u8(a[L2TPSEL_A_ROLE]);
	req.tid = nla_get_u32(a[L2TPSEL_A_TUNNEL_ID]);
	req.portid = info->snd_portid;
	req.sk = NETLINK_CB(skb).sk;
	req.detached = nla_get_flag(a[L2TPSEL_A_DETACHED]);
	req.tgroup = ks_nl_opt_name(info, L2TPSEL_A_TGROUP, "tunnel group");
	req.client = ks_nl_opt_name(info, L2TPSEL_A_CLIENT, "client");
	if (IS_ERR(req.tgroup) || IS_ERR(req.client))
		return -EINVAL;
	if (req.role == L2TPSEL_ROLE_LAC && (req.tgroup || req.client)) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[L2TPSEL_A_TGROUP] ?: a[L2TPSEL_A_CLIENT],
				    "tunnel groups and clients are LNS-role levels; the LAC checks chassis and tunnel only");
		return -EINVAL;
	}
	msg = ks_reply_new(info, L2TPSEL_CMD_SESSION_UP, &hdr);
	if (!msg)
		return -ENOMEM;
	ks_lock(ln);
	/* What a former socket at this port id held ends first. */
	ks_owner_sync(ln, req.portid, req.sk);
	ret = ks_session_up(ln, &req, &verdict, &err);
	ks_unlock(ln);
	if (ret) {
		nlmsg_free(msg);
		return ks_nl_err(info, a[L2TPSEL_A_SESSION_KEY], &err, ret);
	}
	return ks_reply_send(info, msg, hdr,
		nla_put_u8(msg, L2TPSEL_A_ADMIT, verdict) ||
		(verdict != LIM_PASS &&
		 (nla_put_u16(msg, L2TPSEL_A_RESULT_CODE, LIM_CDN_RESULT) ||
		  nla_put_u16(msg, L2TPSEL_A_ERROR_CODE, LIM_CDN_ERROR))));
}

int ks_nl_session_down(struct sk_buff *skb, struct genl_info *info)
{
	struct l2tpsel_net *ln = ks_ln(info);
	struct l2s_err err = { };
	int ret;

	if (ks_nl_missing(info, L2TPSEL_A_SESSION_KEY))
		return -EINVAL;
	ks_lock(ln);
	/* Only a session of this very socket matches its port id. */
	ks_owner_sync(ln, info->snd_portid, NETLINK_CB(skb).sk);
	ret = ks_session_down(ln, info->snd_portid,
			      nla_get_u64(info->attrs[L2TPSEL_A_SESSION_KEY]), &err);
	ks_unlock(ln);
	return ret ? ks_nl_err(info, info->attrs[L2TPSEL_A_SESSION_KEY], &err, ret) : 0;
}

/* ---- summary -------------------------------------------------------- */

static int ks_admit_summary_fill(struct sk_buff *msg, struct l2tpsel_net *ln, const void *unused)
{
	return ks_admit_limit_fill(msg, ln, NULL) ||
	       nla_put_u32(msg, L2TPSEL_A_N_TUNNELS, ln->n_tunnel_counts) ||
	       nla_put_u32(msg, L2TPSEL_A_N_TGROUPS, ln->tgroups.n) ||
	       nla_put_u32(msg, L2TPSEL_A_N_SLGS, ln->slgs.n) ||
	       nla_put_u32(msg, L2TPSEL_A_N_CLIENTS, ln->clients.n) ?
	       -EMSGSIZE : 0;
}

int ks_nl_summary_get(struct sk_buff *skb, struct genl_info *info)
{
	return ks_reply_get(info, L2TPSEL_CMD_SUMMARY_GET, ks_admit_summary_fill, NULL);
}
