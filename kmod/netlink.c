// SPDX-License-Identifier: GPL-2.0
/*
 * The helpers every handler uses to read a request's attributes, to
 * reply and to dump.  The family and its operations table are in
 * family.c, the handlers in the nl_*.c files, the events in events.c;
 * the API is documented in uapi/linux/l2tpsel.h.
 */
#include <net/genetlink.h>
#include <net/sock.h>
#include <linux/l2tpsel.h>

#include "l2tpsel.h"

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

/**
 * ks_dump_begin() - start one part of a dump: takes ln->lock
 * @cb: the dump
 * @ln: the namespace
 *
 * cb->seq takes the namespace's generation, so that a change between two
 * parts flags the next one NLM_F_DUMP_INTR.
 *
 * Return: true when the namespace changed since the part before, and for
 * the first part.
 */
bool ks_dump_begin(struct netlink_callback *cb, struct l2tpsel_net *ln)
{
	bool changed;

	ks_lock(ln);
	changed = cb->seq != ln->gen;
	cb->seq = ln->gen;
	return changed;
}

/**
 * ks_dump_put() - the header of one entry of a dump part
 * @skb: the part
 * @cb: the dump
 * @cmd: the entry's command
 *
 * Return: the header, or NULL when the part is full.
 */
void *ks_dump_put(struct sk_buff *skb, struct netlink_callback *cb, u8 cmd)
{
	void *hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
				&l2tpsel_genl_family, NLM_F_MULTI, cmd);

	if (hdr)
		genl_dump_check_consistent(cb, hdr);
	return hdr;
}

/**
 * ks_dump_close() - keep an entry filled whole, or take it back
 * @skb: the part
 * @hdr: the entry's header from ks_dump_put(), or NULL
 * @fill_err: non-zero when an attribute did not fit
 *
 * Return: 0, or -EMSGSIZE (the part is full) when @hdr is NULL or
 * @fill_err is set.
 */
int ks_dump_close(struct sk_buff *skb, void *hdr, int fill_err)
{
	if (!hdr)
		return -EMSGSIZE;
	if (fill_err) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/**
 * ks_dump_end() - end one part of a dump: lets ln->lock go
 * @skb: the part
 * @ln: the namespace
 * @ret: -EMSGSIZE when the part ended full
 *
 * An entry too big for an empty message is an error, not an endless dump.
 *
 * Return: the part's length, or -EMSGSIZE.
 */
int ks_dump_end(struct sk_buff *skb, struct l2tpsel_net *ln, int ret)
{
	ks_unlock(ln);
	if (ret == -EMSGSIZE && !skb->len)
		return -EMSGSIZE;
	return skb->len;
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
