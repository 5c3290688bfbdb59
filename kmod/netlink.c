// SPDX-License-Identifier: GPL-2.0
/*
 * The "l2tpsel" generic netlink family: the one operations table, and the
 * helpers every handler uses to read a request's attributes, reply, dump
 * and send an event.  The handlers are in nl_admit.c, nl_select.c and
 * nl_ratelimit.c, each file with its commands' policies; the API is
 * documented in uapi/linux/l2tpsel.h.
 */
#include <net/genetlink.h>
#include <net/sock.h>
#include <linux/l2tpsel.h>

#include "l2tpsel.h"
#include "version.h"

/* The commands that take no attribute. */
static const struct nla_policy ks_none_policy[L2TPSEL_A_MAX + 1] = {
};

/*
 * The uapi names of the attributes a command may require, for messages:
 * each entry is the name of its L2TPSEL_A_ constant.
 */
#define KS_ATTR_NAME(a) \
	[L2TPSEL_A_##a] = #a
static const char *const ks_req_attr_names[L2TPSEL_A_MAX + 1] = {
	KS_ATTR_NAME(NAME), KS_ATTR_NAME(SESSION_KEY), KS_ATTR_NAME(ROLE),
	KS_ATTR_NAME(TUNNEL_ID), KS_ATTR_NAME(PROFILE), KS_ATTR_NAME(SEL_LEVEL),
	KS_ATTR_NAME(REMOTE), KS_ATTR_NAME(DOMAIN), KS_ATTR_NAME(LOCKOUT_REMAINING),
	KS_ATTR_NAME(LOGIN_ID), KS_ATTR_NAME(OUTCOME), KS_ATTR_NAME(RESULT_CODE),
	KS_ATTR_NAME(RL_DIR), KS_ATTR_NAME(RL_MSG), KS_ATTR_NAME(RL_RATE),
	KS_ATTR_NAME(RL_BURST), KS_ATTR_NAME(RL_HOLD), KS_ATTR_NAME(RL_STEP),
	KS_ATTR_NAME(RL_BANDS), KS_ATTR_NAME(RL_LOAD), KS_ATTR_NAME(DRAIN),
};

/**
 * ks_nl_missing() - check that a required attribute is there
 * @info: the request
 * @attr: the attribute type
 *
 * GENL_REQ_ATTR_CHECK() only sets NLMSGERR_ATTR_MISS_TYPE; the API promises
 * a message naming the attribute too.
 *
 * Return: true, with the extack set, when @attr is missing.
 */
bool ks_nl_missing(struct genl_info *info, int attr)
{
	const char *name = ks_req_attr_names[attr];

	if (!GENL_REQ_ATTR_CHECK(info, attr))
		return false;
	if (name)
		ks_msg(info, NULL, "missing attribute %s", name);
	else
		ks_msg(info, NULL, "missing attribute %d", attr);
	return true;
}

/**
 * ks_nl_name() - a required, non-empty name attribute
 * @info: the request
 * @attr: the attribute type
 * @what: what it names, for the message
 *
 * Return: the name, or NULL with an extack message.
 */
const char *ks_nl_name(struct genl_info *info, int attr, const char *what)
{
	const char *name;

	if (ks_nl_missing(info, attr))
		return NULL;
	name = nla_data(info->attrs[attr]);
	if (!*name) {
		ks_msg(info, info->attrs[attr], "%s name is empty", what);
		return NULL;
	}
	return name;
}

/* An optional non-empty name attribute: NULL when absent, ERR_PTR when empty. */
const char *ks_nl_opt_name(struct genl_info *info, int attr, const char *what)
{
	const char *name;

	if (!info->attrs[attr])
		return NULL;
	name = nla_data(info->attrs[attr]);
	if (!*name) {
		ks_msg(info, info->attrs[attr], "%s name is empty", what);
		return ERR_PTR(-EINVAL);
	}
	return name;
}

/**
 * ks_nl_err() - copy a core refusal into the extack
 * @info: the request
 * @attr: the attribute to point at, may be NULL
 * @err: the refusal
 * @ret: the errno to return
 *
 * Return: @ret.
 */
int ks_nl_err(struct genl_info *info, const struct nlattr *attr,
	      const struct l2s_err *err, int ret)
{
	if (err->msg)
		ks_msg(info, attr, "%s", err->msg);
	return ret;
}

/*
 * A new message of @cmd to @portid (0: a multicast) with room for @size
 * bytes of attributes, or NULL on allocation failure.
 */
static struct sk_buff *ks_nl_new(u32 portid, u32 seq, u8 cmd, size_t size, void **hdr)
{
	struct sk_buff *msg = genlmsg_new(size, GFP_KERNEL);

	if (!msg)
		return NULL;
	*hdr = genlmsg_put(msg, portid, seq, &l2tpsel_genl_family, 0, cmd);
	if (!*hdr) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/* End a message filled without error; free it and return -EMSGSIZE otherwise. */
static int ks_nl_end(struct sk_buff *msg, void *hdr, int fill_err)
{
	if (fill_err) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return 0;
}

/**
 * ks_reply_new() - a new reply of @cmd
 * @info: the request
 * @cmd: the reply's command
 * @hdr: receives the genetlink header
 *
 * Return: the message, or NULL on allocation failure.
 */
struct sk_buff *ks_reply_new(struct genl_info *info, u8 cmd, void **hdr)
{
	return ks_reply_new_size(info, cmd, NLMSG_DEFAULT_SIZE, hdr);
}

/**
 * ks_reply_new_size() - a new reply of @cmd with room for @size bytes of attributes
 * @info: the request
 * @cmd: the reply's command
 * @size: the most its attributes take (nla_total_size() of each)
 * @hdr: receives the genetlink header
 *
 * For the replies of the login path: a page-sized reply costs an
 * allocation cleared in full (init_on_alloc) and another in
 * netlink_trim() to shrink it, for a few hundred bytes of attributes.
 *
 * Return: the message, or NULL on allocation failure.
 */
struct sk_buff *ks_reply_new_size(struct genl_info *info, u8 cmd, size_t size, void **hdr)
{
	return ks_nl_new(info->snd_portid, info->snd_seq, cmd, size, hdr);
}

/**
 * ks_reply_send() - finish and send a reply, or free it when filling failed
 * @info: the request
 * @msg: the reply
 * @hdr: its genetlink header
 * @fill_err: non-zero when an attribute did not fit
 *
 * Return: 0 or a negative errno.
 */
int ks_reply_send(struct genl_info *info, struct sk_buff *msg, void *hdr, int fill_err)
{
	if (ks_nl_end(msg, hdr, fill_err)) {
		NL_SET_ERR_MSG_MOD(info->extack, "reply does not fit in a message");
		return -EMSGSIZE;
	}
	return genlmsg_reply(msg, info);
}

/**
 * ks_reply_get() - answer a read request, the reply filled under ln->lock
 * @info: the request
 * @cmd: the reply's command
 * @fill: finds the object and puts it into the reply; returns -ENOENT when
 *	it does not exist, else 0 or non-zero when an attribute did not fit
 * @key: what @fill looks for
 *
 * Return: 0, -ENOENT when @fill found nothing (no reply sent; the caller
 * says what was missing), or another negative errno.
 */
int ks_reply_get(struct genl_info *info, u8 cmd, ks_get_fill_fn fill, const void *key)
{
	struct l2tpsel_net *ln = ks_ln(info);
	struct sk_buff *msg;
	void *hdr;
	int fail;

	msg = ks_reply_new(info, cmd, &hdr);
	if (!msg)
		return -ENOMEM;
	ks_lock(ln);
	fail = fill(msg, ln, key);
	ks_unlock(ln);
	if (fail == -ENOENT) {
		nlmsg_free(msg);
		return -ENOENT;
	}
	return ks_reply_send(info, msg, hdr, fail);
}

/* An optional address attribute; -EINVAL with a message when malformed. */
int ks_nl_addr(struct genl_info *info, int type, struct l2s_addr *a)
{
	return ks_nl_addr_attr(info, info->attrs[type], "", a);
}

/**
 * ks_nl_addr_attr() - an address attribute, 4 or 16 bytes
 * @info: the request
 * @attr: the attribute, or NULL (then @a has family 0)
 * @where: a prefix of the message ("" or "TUNNELS entry N: ")
 * @a: receives the address
 *
 * Return: 0, or -EINVAL with a message.
 */
int ks_nl_addr_attr(struct genl_info *info, const struct nlattr *attr, const char *where,
		    struct l2s_addr *a)
{
	int len;

	memset(a, 0, sizeof(*a));
	if (!attr)
		return 0;
	len = nla_len(attr);
	if (len != 4 && len != 16) {
		ks_msg(info, attr, "%saddress of %d bytes: 4 (IPv4) or 16 (IPv6)", where, len);
		return -EINVAL;
	}
	a->family = len == 4 ? 4 : 6;
	memcpy(a->bytes, nla_data(attr), len);
	return 0;
}

/**
 * ks_event_new() - a new event for the namespace's "events" group
 * @ln: the namespace
 * @cmd: the event's command
 * @hdr: receives the genetlink header
 *
 * Return: the message, or NULL when nobody listens or on allocation failure.
 */
struct sk_buff *ks_event_new(struct l2tpsel_net *ln, u8 cmd, void **hdr)
{
	if (!genl_has_listeners(&l2tpsel_genl_family, ln->net, 0))
		return NULL;
	return ks_nl_new(0, 0, cmd, NLMSG_DEFAULT_SIZE, hdr);
}

/**
 * ks_event_send() - finish and multicast an event, or free it when filling failed
 * @ln: the namespace; only its listeners get it
 * @msg: the event
 * @hdr: its genetlink header
 * @fill_err: non-zero when an attribute did not fit
 */
void ks_event_send(struct l2tpsel_net *ln, struct sk_buff *msg, void *hdr, int fill_err)
{
	if (!ks_nl_end(msg, hdr, fill_err))
		genlmsg_multicast_netns(&l2tpsel_genl_family, ln->net, msg, 0, 0, GFP_KERNEL);
}

/* ---- info ---------------------------------------------------------- */

static int ks_nl_get_info(struct sk_buff *skb, struct genl_info *info)
{
	struct net *net = genl_info_net(info);
	struct sk_buff *msg;
	void *hdr;

	msg = ks_reply_new(info, L2TPSEL_CMD_GET_INFO, &hdr);
	if (!msg)
		return -ENOMEM;
	return ks_reply_send(info, msg, hdr,
		nla_put_string(msg, L2TPSEL_A_INFO_VERSION, L2TPSEL_VERSION) ||
		nla_put_u32(msg, L2TPSEL_A_INFO_API_VERSION, L2TPSEL_GENL_VERSION) ||
		nla_put_u64_64bit(msg, L2TPSEL_A_INFO_NETNS_COOKIE, net->net_cookie,
				  L2TPSEL_A_PAD));
}

/* ---- the family ----------------------------------------------------- */

#define L2S_DO(c, fn, pol, fl) \
	{ .cmd = (c), .doit = (fn), .policy = (pol), .maxattr = L2TPSEL_A_MAX, .flags = (fl) }
#define ADMIN GENL_UNS_ADMIN_PERM
/*
 * Reads need CAP_NET_ADMIN over the namespace's user namespace too, as the
 * kernel's l2tp family asks for its GETs: the tables name peers, LNS
 * addresses and their lockouts, domains, clients and session keys.  Only
 * GET_INFO (version, API, netns cookie) is open, like L2TP_CMD_NOOP.
 */
#define L2S_DO_DUMP(c, fn, dump, pol) \
	{ .cmd = (c), .doit = (fn), .dumpit = (dump), .policy = (pol), \
	  .maxattr = L2TPSEL_A_MAX, .flags = ADMIN }
#define L2S_DUMP(c, dump, pol) \
	{ .cmd = (c), .dumpit = (dump), .policy = (pol), .maxattr = L2TPSEL_A_MAX, .flags = ADMIN }

/*
 * Every command of the family; GET_INFO is here, the other handlers and
 * their policies in nl_admit.c, nl_select.c and nl_ratelimit.c.
 */
static const struct genl_ops l2tpsel_genl_ops[] = {
	L2S_DO(L2TPSEL_CMD_GET_INFO, ks_nl_get_info, ks_none_policy, 0),
	L2S_DO(L2TPSEL_CMD_LIMIT_SET, ks_nl_limit_set, ks_limit_set_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_LIMIT_GET, ks_nl_limit_get, ks_none_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_TGROUP_NEW, ks_nl_group_change, ks_group_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_TGROUP_SET, ks_nl_group_change, ks_group_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_TGROUP_DEL, ks_nl_group_change, ks_name_policy, ADMIN),
	L2S_DO_DUMP(L2TPSEL_CMD_TGROUP_GET, ks_nl_admit_get, ks_nl_admit_dump, ks_name_policy),
	L2S_DO(L2TPSEL_CMD_SLG_NEW, ks_nl_group_change, ks_group_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_SLG_SET, ks_nl_group_change, ks_group_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_SLG_DEL, ks_nl_group_change, ks_name_policy, ADMIN),
	L2S_DO_DUMP(L2TPSEL_CMD_SLG_GET, ks_nl_admit_get, ks_nl_admit_dump, ks_name_policy),
	L2S_DO(L2TPSEL_CMD_CLIENT_NEW, ks_nl_client_change, ks_client_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_CLIENT_SET, ks_nl_client_change, ks_client_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_CLIENT_DEL, ks_nl_client_change, ks_name_policy, ADMIN),
	L2S_DO_DUMP(L2TPSEL_CMD_CLIENT_GET, ks_nl_admit_get, ks_nl_admit_dump, ks_name_policy),
	L2S_DO(L2TPSEL_CMD_SESSION_UP, ks_nl_session_up, ks_session_up_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_SESSION_DOWN, ks_nl_session_down, ks_session_down_policy, ADMIN),
	L2S_DUMP(L2TPSEL_CMD_SESSION_GET, ks_nl_admit_dump, ks_none_policy),
	L2S_DO(L2TPSEL_CMD_SUMMARY_GET, ks_nl_summary_get, ks_none_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_PROFILE_NEW, ks_nl_profile_change, ks_profile_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_PROFILE_SET, ks_nl_profile_change, ks_profile_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_PROFILE_DEL, ks_nl_profile_change, ks_sname_policy, ADMIN),
	L2S_DO_DUMP(L2TPSEL_CMD_PROFILE_GET, ks_nl_profile_get, ks_nl_profile_dump,
		    ks_sname_policy),
	L2S_DO(L2TPSEL_CMD_TUNNEL_NEW, ks_nl_tunnel_new, ks_tunnel_new_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_TUNNEL_DEL, ks_nl_tunnel_del, ks_tunnel_del_policy, ADMIN),
	L2S_DUMP(L2TPSEL_CMD_TUNNEL_GET, ks_nl_tunnel_dump, ks_tunnel_get_policy),
	L2S_DO(L2TPSEL_CMD_DOMAIN_NEW, ks_nl_domain_new, ks_domain_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_DOMAIN_DEL, ks_nl_domain_del, ks_domain_del_policy, ADMIN),
	L2S_DO_DUMP(L2TPSEL_CMD_DOMAIN_GET, ks_nl_domain_get, ks_nl_domain_dump,
		    ks_domain_del_policy),
	L2S_DUMP(L2TPSEL_CMD_DEST_GET, ks_nl_dest_dump, ks_none_policy),
	L2S_DO(L2TPSEL_CMD_LOCKOUT_SET, ks_nl_lockout_set, ks_lockout_set_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_LOCKOUT_GET, ks_nl_lockout_get, ks_none_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_LOCKOUT_CLEAR, ks_nl_lockout_clear, ks_lockout_clear_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_DEST_LOCK, ks_nl_dest_lock, ks_dest_lock_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_TUNNEL_DRAIN, ks_nl_tunnel_drain, ks_tunnel_drain_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_DEST_DRAIN, ks_nl_dest_drain, ks_dest_drain_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_LOGIN_BEGIN, ks_nl_login_begin, ks_login_begin_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_LOGIN_REPORT, ks_nl_login_report, ks_login_report_policy, ADMIN),
	/* Admin: a dry run copies the destination table (KS_DESTS slots). */
	L2S_DO(L2TPSEL_CMD_LOGIN_TEST, ks_nl_login_test, ks_login_test_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_RL_NEW, ks_nl_rl_change, ks_rl_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_RL_SET, ks_nl_rl_change, ks_rl_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_RL_DEL, ks_nl_rl_del, ks_rl_name_policy, ADMIN),
	L2S_DO_DUMP(L2TPSEL_CMD_RL_GET, ks_nl_rl_get, ks_nl_rl_dump, ks_rl_name_policy),
	/* Admin: a check takes tokens and counts. */
	L2S_DO(L2TPSEL_CMD_RL_CHECK, ks_nl_rl_check, ks_rl_check_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_THROTTLE_NEW, ks_nl_th_change, ks_th_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_THROTTLE_SET, ks_nl_th_change, ks_th_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_THROTTLE_DEL, ks_nl_th_del, ks_rl_name_policy, ADMIN),
	L2S_DO_DUMP(L2TPSEL_CMD_THROTTLE_GET, ks_nl_th_get, ks_nl_th_dump,
		    ks_rl_name_policy),
	L2S_DO(L2TPSEL_CMD_THROTTLE_LOAD, ks_nl_th_load, ks_th_load_policy, ADMIN),
};

/*
 * Joining "events" needs CAP_NET_ADMIN over the namespace's user namespace
 * (genl_bind() checks ns_capable() when the socket joins): the events name
 * LNS addresses, clients and groups, like the reads.
 */
static const struct genl_multicast_group l2tpsel_mcgrps[] = {
	{ .name = L2TPSEL_MCGRP_EVENTS, .flags = GENL_MCAST_CAP_NET_ADMIN },
};

struct genl_family l2tpsel_genl_family __ro_after_init = {
	.name		= L2TPSEL_GENL_NAME,
	.version	= L2TPSEL_GENL_VERSION,
	.maxattr	= L2TPSEL_A_MAX,
	.netnsok	= true,
	/* Requests of different namespaces run in parallel; each takes its ln->lock. */
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.ops		= l2tpsel_genl_ops,
	.n_ops		= ARRAY_SIZE(l2tpsel_genl_ops),
	.mcgrps		= l2tpsel_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(l2tpsel_mcgrps),
	/* Every command is new: validate all of them strictly. */
	.resv_start_op	= L2TPSEL_CMD_UNSPEC + 1,
};

/**
 * l2tpsel_genl_init() - register the l2tpsel generic netlink family
 *
 * Return: 0 on success, a negative errno otherwise.
 */
int __init l2tpsel_genl_init(void)
{
	BUILD_BUG_ON((int)L2TPSEL_LEVEL_PASS != (int)LIM_PASS);
	BUILD_BUG_ON((int)L2TPSEL_LEVEL_CLIENT != (int)LIM_CLIENT);
	return genl_register_family(&l2tpsel_genl_family);
}

/**
 * l2tpsel_genl_exit() - unregister the family; no request runs after it returns
 */
void l2tpsel_genl_exit(void)
{
	genl_unregister_family(&l2tpsel_genl_family);
}

MODULE_ALIAS_GENL_FAMILY(L2TPSEL_GENL_NAME);
