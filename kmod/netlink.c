// SPDX-License-Identifier: GPL-2.0
/*
 * The "l2tpsel" generic netlink family: policies, operations, replies.
 * The API itself is documented in uapi/linux/l2tpsel.h.
 */
#include <net/genetlink.h>
#include <linux/l2tpsel.h>

#include "l2tpsel.h"
#include "version.h"

static struct genl_family l2tpsel_genl_family;

/* GET_INFO takes no attributes: anything sent is refused by strict validation. */
static const struct nla_policy l2tpsel_info_policy[L2TPSEL_A_MAX + 1] = {
};

static int l2tpsel_nl_get_info(struct sk_buff *skb, struct genl_info *info)
{
	struct net *net = genl_info_net(info);
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;

	hdr = genlmsg_put_reply(msg, info, &l2tpsel_genl_family, 0, L2TPSEL_CMD_GET_INFO);
	if (!hdr)
		goto err_size;

	if (nla_put_string(msg, L2TPSEL_A_INFO_VERSION, L2TPSEL_VERSION) ||
	    nla_put_u32(msg, L2TPSEL_A_INFO_API_VERSION, L2TPSEL_GENL_VERSION) ||
	    nla_put_u64_64bit(msg, L2TPSEL_A_INFO_NETNS_COOKIE, net->net_cookie, L2TPSEL_A_PAD))
		goto err_size;

	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

err_size:
	nlmsg_free(msg);
	NL_SET_ERR_MSG_MOD(info->extack, "reply does not fit in a message");
	return -EMSGSIZE;
}

static const struct genl_ops l2tpsel_genl_ops[] = {
	{
		.cmd    = L2TPSEL_CMD_GET_INFO,
		.doit   = l2tpsel_nl_get_info,
		.policy = l2tpsel_info_policy,
		.maxattr = L2TPSEL_A_MAX,
	},
};

static struct genl_family l2tpsel_genl_family __ro_after_init = {
	.name		= L2TPSEL_GENL_NAME,
	.version	= L2TPSEL_GENL_VERSION,
	.maxattr	= L2TPSEL_A_MAX,
	.netnsok	= true,
	.module		= THIS_MODULE,
	.ops		= l2tpsel_genl_ops,
	.n_ops		= ARRAY_SIZE(l2tpsel_genl_ops),
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
