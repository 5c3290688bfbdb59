// SPDX-License-Identifier: GPL-2.0
/*
 * The "l2tpsel" generic netlink family: its one operations table, its
 * "events" group and GET_INFO.  The other handlers and their policies are
 * in the nl_*.c files.
 */
#include <net/genetlink.h>
#include <net/sock.h>
#include <linux/l2tpsel.h>

#include "l2tpsel.h"
#include "version.h"

/* The commands that take no attribute. */
static const struct nla_policy ks_none_policy[L2TPSEL_A_MAX + 1] = {
};

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
/* A change that only ACKs: it runs whole under ln->lock (ks_nl_pre_doit()). */
#define L2S_CHANGE(c, fn, pol) \
	{ .cmd = (c), .doit = (fn), .policy = (pol), .maxattr = L2TPSEL_A_MAX, .flags = ADMIN, \
	  .internal_flags = KS_NL_LOCKED }
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
 * their policies in the nl_*.c files.
 */
static const struct genl_ops l2tpsel_genl_ops[] = {
	L2S_DO(L2TPSEL_CMD_GET_INFO, ks_nl_get_info, ks_none_policy, 0),
	L2S_CHANGE(L2TPSEL_CMD_LIMIT_SET, ks_nl_limit_set, ks_limit_set_policy),
	L2S_DO(L2TPSEL_CMD_LIMIT_GET, ks_nl_limit_get, ks_none_policy, ADMIN),
	L2S_CHANGE(L2TPSEL_CMD_TGROUP_NEW, ks_nl_group_change, ks_group_policy),
	L2S_CHANGE(L2TPSEL_CMD_TGROUP_SET, ks_nl_group_change, ks_group_policy),
	L2S_CHANGE(L2TPSEL_CMD_TGROUP_DEL, ks_nl_group_change, ks_name_policy),
	L2S_DO_DUMP(L2TPSEL_CMD_TGROUP_GET, ks_nl_admit_get, ks_nl_admit_dump, ks_name_policy),
	L2S_CHANGE(L2TPSEL_CMD_SLG_NEW, ks_nl_group_change, ks_group_policy),
	L2S_CHANGE(L2TPSEL_CMD_SLG_SET, ks_nl_group_change, ks_group_policy),
	L2S_CHANGE(L2TPSEL_CMD_SLG_DEL, ks_nl_group_change, ks_name_policy),
	L2S_DO_DUMP(L2TPSEL_CMD_SLG_GET, ks_nl_admit_get, ks_nl_admit_dump, ks_name_policy),
	L2S_CHANGE(L2TPSEL_CMD_CLIENT_NEW, ks_nl_client_change, ks_client_policy),
	L2S_CHANGE(L2TPSEL_CMD_CLIENT_SET, ks_nl_client_change, ks_client_policy),
	L2S_CHANGE(L2TPSEL_CMD_CLIENT_DEL, ks_nl_client_change, ks_name_policy),
	L2S_DO_DUMP(L2TPSEL_CMD_CLIENT_GET, ks_nl_admit_get, ks_nl_admit_dump, ks_name_policy),
	L2S_DO(L2TPSEL_CMD_SESSION_UP, ks_nl_session_up, ks_session_up_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_SESSION_DOWN, ks_nl_session_down, ks_session_down_policy, ADMIN),
	L2S_DUMP(L2TPSEL_CMD_SESSION_GET, ks_nl_admit_dump, ks_none_policy),
	L2S_DO(L2TPSEL_CMD_SUMMARY_GET, ks_nl_summary_get, ks_none_policy, ADMIN),
	L2S_CHANGE(L2TPSEL_CMD_PROFILE_NEW, ks_nl_profile_change, ks_profile_policy),
	L2S_CHANGE(L2TPSEL_CMD_PROFILE_SET, ks_nl_profile_change, ks_profile_policy),
	L2S_CHANGE(L2TPSEL_CMD_PROFILE_DEL, ks_nl_profile_change, ks_sname_policy),
	L2S_DO_DUMP(L2TPSEL_CMD_PROFILE_GET, ks_nl_profile_get, ks_nl_profile_dump,
		    ks_sname_policy),
	L2S_CHANGE(L2TPSEL_CMD_TUNNEL_NEW, ks_nl_tunnel_new, ks_tunnel_new_policy),
	L2S_CHANGE(L2TPSEL_CMD_TUNNEL_DEL, ks_nl_tunnel_del, ks_tunnel_del_policy),
	L2S_DUMP(L2TPSEL_CMD_TUNNEL_GET, ks_nl_tunnel_dump, ks_tunnel_get_policy),
	L2S_CHANGE(L2TPSEL_CMD_DOMAIN_NEW, ks_nl_domain_new, ks_domain_policy),
	L2S_CHANGE(L2TPSEL_CMD_DOMAIN_DEL, ks_nl_domain_del, ks_domain_del_policy),
	L2S_DO_DUMP(L2TPSEL_CMD_DOMAIN_GET, ks_nl_domain_get, ks_nl_domain_dump,
		    ks_domain_del_policy),
	L2S_DUMP(L2TPSEL_CMD_DEST_GET, ks_nl_dest_dump, ks_none_policy),
	L2S_CHANGE(L2TPSEL_CMD_LOCKOUT_SET, ks_nl_lockout_set, ks_lockout_set_policy),
	L2S_DO(L2TPSEL_CMD_LOCKOUT_GET, ks_nl_lockout_get, ks_none_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_LOCKOUT_CLEAR, ks_nl_lockout_clear, ks_lockout_clear_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_DEST_LOCK, ks_nl_dest_lock, ks_dest_lock_policy, ADMIN),
	L2S_CHANGE(L2TPSEL_CMD_TUNNEL_DRAIN, ks_nl_tunnel_drain, ks_tunnel_drain_policy),
	L2S_DO(L2TPSEL_CMD_DEST_DRAIN, ks_nl_dest_drain, ks_dest_drain_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_LOGIN_BEGIN, ks_nl_login_begin, ks_login_begin_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_LOGIN_REPORT, ks_nl_login_report, ks_login_report_policy, ADMIN),
	/* Admin: a dry run copies the destination table (KS_DESTS slots). */
	L2S_DO(L2TPSEL_CMD_LOGIN_TEST, ks_nl_login_test, ks_login_test_policy, ADMIN),
	L2S_CHANGE(L2TPSEL_CMD_RL_NEW, ks_nl_rl_change, ks_rl_policy),
	L2S_CHANGE(L2TPSEL_CMD_RL_SET, ks_nl_rl_change, ks_rl_policy),
	L2S_CHANGE(L2TPSEL_CMD_RL_DEL, ks_nl_rl_del, ks_rl_name_policy),
	L2S_DO_DUMP(L2TPSEL_CMD_RL_GET, ks_nl_rl_get, ks_nl_rl_dump, ks_rl_name_policy),
	/* Admin: a check takes tokens and counts. */
	L2S_DO(L2TPSEL_CMD_RL_CHECK, ks_nl_rl_check, ks_rl_check_policy, ADMIN),
	L2S_CHANGE(L2TPSEL_CMD_THROTTLE_NEW, ks_nl_th_change, ks_th_policy),
	L2S_CHANGE(L2TPSEL_CMD_THROTTLE_SET, ks_nl_th_change, ks_th_policy),
	L2S_CHANGE(L2TPSEL_CMD_THROTTLE_DEL, ks_nl_th_del, ks_rl_name_policy),
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

/*
 * The handlers of KS_NL_LOCKED commands run under the namespace's lock,
 * taken here and let go in ks_nl_post_doit() (which sends the events
 * they queued, before the ACK); the others take it themselves, for the
 * part that needs it.
 */
static int ks_nl_pre_doit(const struct genl_ops *ops, struct sk_buff *skb,
			  struct genl_info *info)
{
	if (ops->internal_flags & KS_NL_LOCKED)
		ks_lock(ks_ln(info));
	return 0;
}

static void ks_nl_post_doit(const struct genl_ops *ops, struct sk_buff *skb,
			    struct genl_info *info)
{
	if (ops->internal_flags & KS_NL_LOCKED)
		ks_unlock(ks_ln(info));
}

struct genl_family l2tpsel_genl_family __ro_after_init = {
	.name		= L2TPSEL_GENL_NAME,
	.version	= L2TPSEL_GENL_VERSION,
	.maxattr	= L2TPSEL_A_MAX,
	.netnsok	= true,
	/* Requests of different namespaces run in parallel; each takes its ln->lock. */
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.pre_doit	= ks_nl_pre_doit,
	.post_doit	= ks_nl_post_doit,
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
