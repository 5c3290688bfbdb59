// SPDX-License-Identifier: GPL-2.0
/*
 * The "l2tpsel" generic netlink family: policies, the operations table,
 * replies, dumps and events.  The API is documented in uapi/linux/l2tpsel.h.
 */
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/sock.h>
#include <linux/l2tpsel.h>

#include "l2tpsel.h"
#include "version.h"

#define NAME_POLICY { .type = NLA_NUL_STRING, .len = L2TPSEL_NAME_MAX - 1 }

static const struct nla_policy ks_none_policy[L2TPSEL_A_MAX + 1] = {
};

static const struct nla_policy ks_limit_set_policy[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_CHASSIS_MAX]   = NLA_POLICY_MIN(NLA_U32, 1),
	[L2TPSEL_A_CHASSIS_LIMIT] = { .type = NLA_U32 },
	[L2TPSEL_A_TUNNEL_LIMIT]  = { .type = NLA_U32 },
};

static const struct nla_policy ks_group_policy[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_NAME]  = NAME_POLICY,
	[L2TPSEL_A_LIMIT] = { .type = NLA_U32 },
};

static const struct nla_policy ks_name_policy[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_NAME] = NAME_POLICY,
};

static const struct nla_policy ks_client_policy[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_NAME]  = NAME_POLICY,
	[L2TPSEL_A_LIMIT] = { .type = NLA_U32 },
	[L2TPSEL_A_SLG]   = NAME_POLICY,
};

static const struct nla_policy ks_session_up_policy[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_SESSION_KEY] = { .type = NLA_U64 },
	[L2TPSEL_A_ROLE]        = NLA_POLICY_MAX(NLA_U8, L2TPSEL_ROLE_LNS),
	[L2TPSEL_A_TUNNEL_ID]   = { .type = NLA_U32 },
	[L2TPSEL_A_TGROUP]      = NAME_POLICY,
	[L2TPSEL_A_CLIENT]      = NAME_POLICY,
	[L2TPSEL_A_DETACHED]    = { .type = NLA_FLAG },
};

static const struct nla_policy ks_session_down_policy[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_SESSION_KEY] = { .type = NLA_U64 },
};

/**
 * ks_lock() - the namespace of a request, locked
 * @net: the request's namespace
 *
 * Return: its state, with ln->lock held.
 */
struct l2tpsel_net *ks_lock(struct net *net)
{
	struct l2tpsel_net *ln = l2tpsel_pernet(net);

	mutex_lock(&ln->lock);
	return ln;
}

/**
 * ks_unlock() - release what ks_lock() took
 * @ln: the namespace
 */
void ks_unlock(struct l2tpsel_net *ln)
{
	mutex_unlock(&ln->lock);
}

/**
 * ks_wlock() - the namespace of a request that may change what lock-free
 * readers see, locked; released with ks_wunlock()
 * @net: the request's namespace
 *
 * ks_lock() is for the rate limits, which are read under the mutex: a
 * reader must not move the generation of its own dump.
 *
 * Return: its state, with ln->lock held and the generation odd.
 */
struct l2tpsel_net *ks_wlock(struct net *net)
{
	struct l2tpsel_net *ln = l2tpsel_pernet(net);

	ks_wlock_ln(ln);
	return ln;
}

/**
 * ks_dump_mark_intr() - flag the messages of one dump part NLM_F_DUMP_INTR
 * @skb: the part
 * @start: its length before this call's messages
 *
 * For a part built lock-free while a writer held ln->lock (ks_read_retry()):
 * what it shows may mix the state before and after that change.
 */
void ks_dump_mark_intr(struct sk_buff *skb, int start)
{
	int len = skb->len - start;
	struct nlmsghdr *nlh = (struct nlmsghdr *)(skb->data + start);

	for (; nlmsg_ok(nlh, len); nlh = nlmsg_next(nlh, &len))
		nlh->nlmsg_flags |= NLM_F_DUMP_INTR;
}

/*
 * A thread's extack message buffer.  Linux 6.1 has no formatted extack
 * (NL_SET_ERR_MSG_FMT came with 6.2), and netlink_ack() reads the message
 * after the handler has returned, so a formatted message needs storage that
 * outlives the handler and that nothing else touches until the ACK is built.
 *
 * That storage is a buffer per sending thread (and namespace):
 *
 *  - it is written only by its thread: ks_msg() finds it by the current
 *    task's struct pid;
 *  - a thread handles one request at a time, and netlink_rcv_skb() builds a
 *    request's ACK in that thread before it handles the thread's next
 *    request, so a rewrite never comes before the previous request's ACK
 *    (two threads on one socket run in parallel, parallel_ops; each has its
 *    own buffer);
 *  - it is freed only once its thread has exited (pid_task() is NULL: the
 *    task is released and runs no request any more) or with the namespace
 *    (no socket, hence no request, is left in it).
 *
 * A buffer holds a reference to its struct pid, so the pid cannot become
 * another thread's while the buffer exists.
 */
struct ks_msgbuf {
	struct pid *pid;		/* the thread that writes it */
	char text[L2S_MSG_LEN];
};

/* Buffers per namespace; when all belong to live threads, the message is a fixed text. */
#define KS_MSGBUFS_MAX	1024

/**
 * ks_msg_init() - no message buffers yet
 * @ln: a new namespace
 */
void ks_msg_init(struct l2tpsel_net *ln)
{
	mutex_init(&ln->msg_lock);
	xa_init(&ln->msg_bufs);
	ln->n_msg_bufs = 0;
}

static void ks_msgbuf_free(struct ks_msgbuf *mb)
{
	put_pid(mb->pid);
	kfree(mb);
}

/**
 * ks_msg_exit() - free the message buffers of a dying namespace
 * @ln: the namespace; no request runs in it any more
 */
void ks_msg_exit(struct l2tpsel_net *ln)
{
	struct ks_msgbuf *mb;
	unsigned long nr;

	xa_for_each(&ln->msg_bufs, nr, mb)
		ks_msgbuf_free(mb);
	xa_destroy(&ln->msg_bufs);
	mutex_destroy(&ln->msg_lock);
}

/* True when the thread of @pid has exited: it handles no request any more. */
static bool ks_msgbuf_dead(const struct ks_msgbuf *mb)
{
	bool dead;

	rcu_read_lock();
	dead = !pid_task(mb->pid, PIDTYPE_PID);
	rcu_read_unlock();
	return dead;
}

/* Free the buffers of threads that have exited; under msg_lock. */
static void ks_msg_reap(struct l2tpsel_net *ln)
{
	struct ks_msgbuf *mb;
	unsigned long nr;

	xa_for_each(&ln->msg_bufs, nr, mb) {
		if (!ks_msgbuf_dead(mb))
			continue;
		xa_erase(&ln->msg_bufs, nr);
		ks_msgbuf_free(mb);
		ln->n_msg_bufs--;
	}
}

/* The current thread's buffer, made when it has none; NULL when none is free.  Under msg_lock. */
static struct ks_msgbuf *ks_msgbuf_get(struct l2tpsel_net *ln)
{
	struct pid *me = task_pid(current);
	unsigned long nr = pid_nr(me);
	struct ks_msgbuf *mb = xa_load(&ln->msg_bufs, nr);

	if (mb && mb->pid == me)
		return mb;
	if (mb) {
		/* Its number is ours now: its thread has exited. */
		put_pid(mb->pid);
		mb->pid = get_pid(me);
		return mb;
	}
	if (ln->n_msg_bufs >= KS_MSGBUFS_MAX)
		ks_msg_reap(ln);
	if (ln->n_msg_bufs >= KS_MSGBUFS_MAX)
		return NULL;
	mb = kmalloc(sizeof(*mb), GFP_KERNEL_ACCOUNT);
	if (!mb)
		return NULL;
	mb->pid = get_pid(me);
	if (xa_err(xa_store(&ln->msg_bufs, nr, mb, GFP_KERNEL_ACCOUNT))) {
		ks_msgbuf_free(mb);
		return NULL;
	}
	ln->n_msg_bufs++;
	return mb;
}

/**
 * ks_msg() - a formatted extack message
 * @info: the request
 * @attr: the attribute to point at, may be NULL
 * @fmt: printf format
 *
 * The message goes to the sending thread's buffer (struct ks_msgbuf, which
 * says why it stays the request's own until the ACK is built).  Without a
 * buffer (KS_MSGBUFS_MAX live threads, or no memory) it is a fixed text.
 * Takes a mutex: not under rcu_read_lock().
 */
void ks_msg(struct genl_info *info, const struct nlattr *attr, const char *fmt, ...)
{
	struct l2tpsel_net *ln = l2tpsel_pernet(genl_info_net(info));
	struct netlink_ext_ack *extack = info->extack;
	struct ks_msgbuf *mb;
	va_list ap;

	if (!extack)
		return;
	mutex_lock(&ln->msg_lock);
	mb = ks_msgbuf_get(ln);
	mutex_unlock(&ln->msg_lock);
	/* Only this thread writes its buffer: no lock needed for the text. */
	if (mb) {
		va_start(ap, fmt);
		vsnprintf(mb->text, sizeof(mb->text), fmt, ap);
		va_end(ap);
		extack->_msg = mb->text;
	} else {
		extack->_msg = "refused (no buffer free for the detailed message)";
	}
	extack->bad_attr = attr;
}

/* The uapi names of the attributes a command may require, for messages. */
static const char *const ks_req_attr_names[L2TPSEL_A_MAX + 1] = {
	[L2TPSEL_A_NAME]		= "NAME",
	[L2TPSEL_A_SESSION_KEY]		= "SESSION_KEY",
	[L2TPSEL_A_ROLE]		= "ROLE",
	[L2TPSEL_A_TUNNEL_ID]		= "TUNNEL_ID",
	[L2TPSEL_A_PROFILE]		= "PROFILE",
	[L2TPSEL_A_SEL_LEVEL]		= "SEL_LEVEL",
	[L2TPSEL_A_REMOTE]		= "REMOTE",
	[L2TPSEL_A_DOMAIN]		= "DOMAIN",
	[L2TPSEL_A_LOCKOUT_REMAINING]	= "LOCKOUT_REMAINING",
	[L2TPSEL_A_LOGIN_ID]		= "LOGIN_ID",
	[L2TPSEL_A_OUTCOME]		= "OUTCOME",
	[L2TPSEL_A_RESULT_CODE]		= "RESULT_CODE",
	[L2TPSEL_A_RL_DIR]		= "RL_DIR",
	[L2TPSEL_A_RL_MSG]		= "RL_MSG",
	[L2TPSEL_A_RL_RATE]		= "RL_RATE",
	[L2TPSEL_A_RL_BURST]		= "RL_BURST",
	[L2TPSEL_A_RL_HOLD]		= "RL_HOLD",
	[L2TPSEL_A_RL_STEP]		= "RL_STEP",
	[L2TPSEL_A_RL_BANDS]		= "RL_BANDS",
	[L2TPSEL_A_RL_LOAD]		= "RL_LOAD",
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
static const char *ks_nl_opt_name(struct genl_info *info, int attr, const char *what)
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
	struct sk_buff *msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);

	if (!msg)
		return NULL;
	*hdr = genlmsg_put_reply(msg, info, &l2tpsel_genl_family, 0, cmd);
	if (!*hdr) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
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
	if (fill_err) {
		nlmsg_free(msg);
		NL_SET_ERR_MSG_MOD(info->extack, "reply does not fit in a message");
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/**
 * ks_get_fill() - fill a GET reply from a stable view of the tables
 * @ln: the namespace
 * @msg: the reply
 * @fill: finds the object under rcu_read_lock() and puts it into @msg;
 *	returns -ENOENT when it does not exist, else 0 or non-zero when an
 *	attribute did not fit
 * @key: what @fill looks for
 * @tries: 0, or KS_GET_TRIES for a fill under ln->lock at once
 *
 * Lock-free while no writer overlaps the fill; after KS_GET_TRIES overlaps,
 * under ln->lock, so that the reply never mixes two states (a client's total
 * and its per-group counts always agree).
 *
 * Return: what @fill returned on its last run.
 */
static int ks_get_fill(struct l2tpsel_net *ln, struct sk_buff *msg, ks_get_fill_fn fill,
		       const void *key, int tries)
{
	void *mark = skb_tail_pointer(msg);
	int ret;

	for (; ; tries++) {
		bool locked = tries == KS_GET_TRIES;
		u32 g = 0;

		if (locked)
			mutex_lock(&ln->lock);
		else
			g = ks_read_begin(ln);
		rcu_read_lock();
		ret = fill(msg, ln, key);
		rcu_read_unlock();
		if (locked)
			mutex_unlock(&ln->lock);
		if (locked || ret == -ENOENT || !ks_read_retry(ln, g))
			return ret;
		nlmsg_trim(msg, mark);
	}
}

static int ks_reply_get_from(struct genl_info *info, u8 cmd, ks_get_fill_fn fill,
			     const void *key, int tries)
{
	struct sk_buff *msg;
	void *hdr;
	int fail;

	msg = ks_reply_new(info, cmd, &hdr);
	if (!msg)
		return -ENOMEM;
	fail = ks_get_fill(l2tpsel_pernet(genl_info_net(info)), msg, fill, key, tries);
	if (fail == -ENOENT) {
		nlmsg_free(msg);
		return -ENOENT;
	}
	return ks_reply_send(info, msg, hdr, fail);
}

/**
 * ks_reply_get() - answer a read request with one stable view (ks_get_fill())
 * @info: the request
 * @cmd: the reply's command
 * @fill: as for ks_get_fill()
 * @key: what @fill looks for
 *
 * Return: 0, -ENOENT when @fill found nothing (no reply sent; the caller
 * says what was missing), or another negative errno.
 */
int ks_reply_get(struct genl_info *info, u8 cmd, ks_get_fill_fn fill, const void *key)
{
	return ks_reply_get_from(info, cmd, fill, key, 0);
}

/* The same with @fill under ln->lock (objects not freed through RCU). */
int ks_reply_get_locked(struct genl_info *info, u8 cmd, ks_get_fill_fn fill, const void *key)
{
	return ks_reply_get_from(info, cmd, fill, key, KS_GET_TRIES);
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

/* ---- chassis and tunnel limits -------------------------------------- */

static int ks_nl_limit_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct lim_chassis next, probe;
	struct l2tpsel_net *ln;
	struct l2s_err err = { };
	int ret;

	if (!a[L2TPSEL_A_CHASSIS_MAX] && !a[L2TPSEL_A_CHASSIS_LIMIT] &&
	    !a[L2TPSEL_A_TUNNEL_LIMIT]) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "nothing to set: give CHASSIS_MAX, CHASSIS_LIMIT or TUNNEL_LIMIT");
		return -EINVAL;
	}
	ln = ks_wlock(genl_info_net(info));
	next = ln->chassis;
	if (a[L2TPSEL_A_CHASSIS_MAX])
		next.maximum = nla_get_u32(a[L2TPSEL_A_CHASSIS_MAX]);
	if (a[L2TPSEL_A_CHASSIS_MAX] && ks_in_userns(ln) &&
	    next.maximum > READ_ONCE(ks_max_sessions_userns)) {
		ks_msg(info, a[L2TPSEL_A_CHASSIS_MAX],
		       "CHASSIS_MAX %u: at most %u outside the initial user namespace (%s)",
		       next.maximum, READ_ONCE(ks_max_sessions_userns),
		       "module parameter max_sessions_userns");
		ret = -EPERM;
		goto out;
	}
	if (a[L2TPSEL_A_CHASSIS_LIMIT])
		next.limit = nla_get_u32(a[L2TPSEL_A_CHASSIS_LIMIT]);
	if (a[L2TPSEL_A_TUNNEL_LIMIT])
		next.tunnel_limit = nla_get_u32(a[L2TPSEL_A_TUNNEL_LIMIT]);

	/* S-LIM-6: every limit, old or new, must fit under the (new) maximum. */
	ret = lim_check_value(&next, next.limit, "chassis", &err);
	if (ret) {
		ks_nl_err(info, a[L2TPSEL_A_CHASSIS_LIMIT] ?: a[L2TPSEL_A_CHASSIS_MAX], &err, ret);
		goto out;
	}
	ret = lim_check_value(&next, next.tunnel_limit, "tunnel", &err);
	if (ret) {
		ks_nl_err(info, a[L2TPSEL_A_TUNNEL_LIMIT] ?: a[L2TPSEL_A_CHASSIS_MAX], &err, ret);
		goto out;
	}
	probe = ln->chassis;
	ret = lim_set_maximum(&probe, next.maximum, ks_highest_limit(ln), &err);
	if (ret) {
		ks_nl_err(info, a[L2TPSEL_A_CHASSIS_MAX], &err, ret);
		goto out;
	}
	/* Lock-free readers copy the chassis whole (ks_chassis_snap()). */
	write_seqlock(&ln->cfg_seq);
	ln->chassis = next;
	write_sequnlock(&ln->cfg_seq);
	ks_gen_bump(ln);
out:
	ks_wunlock(ln);
	return ret;
}

/*
 * The chassis limits as one snapshot, lock-free: LIMIT_SET rewrites them
 * together inside ln->cfg_seq; the count moves on its own (WRITE_ONCE).
 */
static void ks_chassis_snap(struct l2tpsel_net *ln, struct lim_chassis *out)
{
	unsigned int seq;

	do {
		seq = read_seqbegin(&ln->cfg_seq);
		out->maximum = READ_ONCE(ln->chassis.maximum);
		out->limit = READ_ONCE(ln->chassis.limit);
		out->tunnel_limit = READ_ONCE(ln->chassis.tunnel_limit);
	} while (read_seqretry(&ln->cfg_seq, seq));
	out->count = READ_ONCE(ln->chassis.count);
}

/* The chassis limits and count (LIMIT_GET, and the start of SUMMARY_GET). */
static int ks_limit_fill(struct sk_buff *msg, struct l2tpsel_net *ln, const void *unused)
{
	struct lim_chassis ch;

	ks_chassis_snap(ln, &ch);
	return nla_put_u32(msg, L2TPSEL_A_CHASSIS_MAX, ch.maximum) ||
	       nla_put_u32(msg, L2TPSEL_A_CHASSIS_LIMIT, ch.limit) ||
	       nla_put_u32(msg, L2TPSEL_A_TUNNEL_LIMIT, ch.tunnel_limit) ||
	       nla_put_u32(msg, L2TPSEL_A_COUNT, ch.count) ? -EMSGSIZE : 0;
}

static int ks_nl_limit_get(struct sk_buff *skb, struct genl_info *info)
{
	return ks_reply_get(info, L2TPSEL_CMD_LIMIT_GET, ks_limit_fill, NULL);
}

/* ---- tunnel groups and session-limit groups ------------------------- */

static int ks_nl_group_change(struct sk_buff *skb, struct genl_info *info)
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
	struct l2tpsel_net *ln;
	struct l2s_err err = { };
	bool *configured;
	const char *name;
	u32 *limit;
	int ret = 0;

	name = ks_nl_name(info, L2TPSEL_A_NAME, what);
	if (!name)
		return -EINVAL;
	ln = ks_wlock(genl_info_net(info));
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

	if (is_new && *configured) {
		ks_msg(info, name_attr, "%s \"%s\" already exists", what, name);
		ret = -EEXIST;
		goto out;
	}
	if (!is_new && !*configured) {
		ks_msg(info, name_attr, "%s \"%s\" does not exist", what, name);
		ret = -ENOENT;
		goto out;
	}
	if (is_del) {
		if (is_slg && slg->members) {
			ks_msg(info, name_attr,
			       "session-limit group \"%s\" still has %u client(s); move them out first",
			       name, slg->members);
			ret = -EBUSY;
			goto out;
		}
		/* The limit goes; live sessions stay counted (S-LIM-9). */
		WRITE_ONCE(*configured, false);
		WRITE_ONCE(*limit, 0);
	} else {
		WRITE_ONCE(*configured, true);
		if (limit_attr)
			WRITE_ONCE(*limit, nla_get_u32(limit_attr));
	}
	ks_gen_bump(ln);
out:
	if (slg)
		ks_slg_put(ln, slg);
	if (tg)
		ks_tgroup_put(ln, tg);
	ks_wunlock(ln);
	return ret;
}

/* ---- clients -------------------------------------------------------- */

static int ks_nl_client_change(struct sk_buff *skb, struct genl_info *info)
{
	u8 cmd = info->genlhdr->cmd;
	bool is_new = cmd == L2TPSEL_CMD_CLIENT_NEW;
	bool is_del = cmd == L2TPSEL_CMD_CLIENT_DEL;
	struct nlattr *name_attr = info->attrs[L2TPSEL_A_NAME];
	struct nlattr *limit_attr = info->attrs[L2TPSEL_A_LIMIT];
	struct nlattr *slg_attr = info->attrs[L2TPSEL_A_SLG];
	struct ks_slg *slg = NULL, *old;
	struct ks_client *cl;
	struct l2tpsel_net *ln;
	struct l2s_err err = { };
	const char *name;
	int ret = 0;

	name = ks_nl_name(info, L2TPSEL_A_NAME, "client");
	if (!name)
		return -EINVAL;
	ln = ks_wlock(genl_info_net(info));
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
	if (is_new && cl->configured) {
		ks_msg(info, name_attr, "client \"%s\" already exists", name);
		ret = -EEXIST;
		goto out;
	}
	if (!is_new && !cl->configured) {
		ks_msg(info, name_attr, "client \"%s\" does not exist", name);
		ret = -ENOENT;
		goto out;
	}
	old = ks_client_slg(cl);
	if (is_del) {
		ret = ks_client_set_slg(cl, NULL, &err);
		if (ret) {
			ks_nl_err(info, name_attr, &err, ret);
			goto out;
		}
		WRITE_ONCE(cl->configured, false);
		WRITE_ONCE(cl->limit, 0);
	} else {
		if (slg_attr) {
			ret = ks_client_set_slg(cl, slg, &err);
			if (ret) {
				ks_nl_err(info, slg_attr, &err, ret);
				goto out;
			}
		}
		WRITE_ONCE(cl->configured, true);
		if (limit_attr)
			WRITE_ONCE(cl->limit, nla_get_u32(limit_attr));
	}
	if (old != ks_client_slg(cl))
		ks_slg_put(ln, old);
	ks_gen_bump(ln);
out:
	ks_client_put(ln, cl);
out_unlock:
	ks_wunlock(ln);
	return ret;
}

/*
 * ---- fills shared by GET and dumps ------------------------------------
 *
 * They run under rcu_read_lock() (lock-free readers): objects are freed after
 * a grace period (kfree_rcu), counters and limits are single values read
 * once, a client's group and its list of per-group counts are RCU-published.
 */

static int ks_fill_tgroup(struct sk_buff *msg, struct l2tpsel_net *ln, void *entry)
{
	struct ks_tgroup *tg = container_of((struct ks_obj *)entry, struct ks_tgroup, obj);

	return nla_put_string(msg, L2TPSEL_A_NAME, tg->obj.name) ||
	       nla_put_u32(msg, L2TPSEL_A_LIMIT, READ_ONCE(tg->limit)) ||
	       nla_put_u32(msg, L2TPSEL_A_COUNT, READ_ONCE(tg->count)) ? -EMSGSIZE : 0;
}

static int ks_fill_slg(struct sk_buff *msg, struct l2tpsel_net *ln, void *entry)
{
	struct ks_slg *slg = container_of((struct ks_obj *)entry, struct ks_slg, obj);

	return nla_put_string(msg, L2TPSEL_A_NAME, slg->obj.name) ||
	       nla_put_u32(msg, L2TPSEL_A_LIMIT, READ_ONCE(slg->lim.limit)) ||
	       nla_put_u32(msg, L2TPSEL_A_COUNT, READ_ONCE(slg->lim.count)) ||
	       nla_put_u32(msg, L2TPSEL_A_MEMBERS, READ_ONCE(slg->members)) ? -EMSGSIZE : 0;
}

/*
 * A client, its per-tunnel-group counts from the *@sub-th on (0: the whole
 * entry).  A client in many tunnel groups may not fit one message: then
 * what fits goes with MORE, *@sub says where the next entry resumes (NAME
 * again, then the rest of the counts), and the return is 1.  The list is
 * RCU and new groups join at its head: a change between two parts moves
 * the generation, so the dump flags the next part NLM_F_DUMP_INTR.
 *
 * Return: 0 (all of it), 1 (a part), or -EMSGSIZE (not one count fit).
 */
static int ks_fill_client_part(struct sk_buff *msg, struct ks_client *cl, u32 *sub)
{
	struct nlattr *list, *one, *prev = NULL;
	u32 i = 0, from = *sub;
	struct ks_slg *slg;
	struct ks_ctg *ctg;

	if (nla_put_string(msg, L2TPSEL_A_NAME, cl->obj.name))
		return -EMSGSIZE;
	slg = rcu_dereference(cl->slg);
	if (!from &&
	    (nla_put_u32(msg, L2TPSEL_A_LIMIT, READ_ONCE(cl->limit)) ||
	     nla_put_u32(msg, L2TPSEL_A_COUNT, READ_ONCE(cl->total)) ||
	     (slg && nla_put_string(msg, L2TPSEL_A_SLG, slg->obj.name))))
		return -EMSGSIZE;
	list = nla_nest_start(msg, L2TPSEL_A_TGROUP_COUNTS);
	if (!list)
		return -EMSGSIZE;
	list_for_each_entry_rcu(ctg, &cl->ctgs, node) {
		if (i < from) {
			i++;
			continue;
		}
		one = nla_nest_start(msg, L2TPSEL_A_TGC);
		if (!one ||
		    (ctg->tg && nla_put_string(msg, L2TPSEL_A_NAME, ctg->tg->obj.name)) ||
		    nla_put_u32(msg, L2TPSEL_A_COUNT, READ_ONCE(ctg->count))) {
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
static int ks_fill_client(struct sk_buff *msg, struct l2tpsel_net *ln, void *entry)
{
	u32 sub = 0;

	return ks_fill_client_part(msg, container_of((struct ks_obj *)entry,
						     struct ks_client, obj), &sub) ? -EMSGSIZE : 0;
}

static int ks_fill_session(struct sk_buff *msg, struct l2tpsel_net *ln, void *entry)
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

typedef int (*ks_fill_fn)(struct sk_buff *msg, struct l2tpsel_net *ln, void *entry);

struct ks_kind {
	u8 cmd;
	const char *what;
	struct ks_table *(*table)(struct l2tpsel_net *ln);
	struct xarray *(*xa)(struct l2tpsel_net *ln);
	ks_fill_fn fill;
};

static struct ks_table *ks_tgroups(struct l2tpsel_net *ln) { return &ln->tgroups; }
static struct ks_table *ks_slgs(struct l2tpsel_net *ln) { return &ln->slgs; }
static struct ks_table *ks_clients(struct l2tpsel_net *ln) { return &ln->clients; }
static struct xarray *ks_tgroups_xa(struct l2tpsel_net *ln) { return &ln->tgroups.xa; }
static struct xarray *ks_slgs_xa(struct l2tpsel_net *ln) { return &ln->slgs.xa; }
static struct xarray *ks_clients_xa(struct l2tpsel_net *ln) { return &ln->clients.xa; }
static struct xarray *ks_sessions_xa(struct l2tpsel_net *ln) { return &ln->session_xa; }

static const struct ks_kind ks_kinds[] = {
	{ L2TPSEL_CMD_TGROUP_GET, "tunnel group", ks_tgroups, ks_tgroups_xa, ks_fill_tgroup },
	{ L2TPSEL_CMD_SLG_GET, "session-limit group", ks_slgs, ks_slgs_xa, ks_fill_slg },
	{ L2TPSEL_CMD_CLIENT_GET, "client", ks_clients, ks_clients_xa, ks_fill_client },
	{ L2TPSEL_CMD_SESSION_GET, "session", NULL, ks_sessions_xa, ks_fill_session },
};

static const struct ks_kind *ks_kind_of(u8 cmd)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ks_kinds); i++)
		if (ks_kinds[i].cmd == cmd)
			return &ks_kinds[i];
	return NULL;
}

/* GET of one named object. */
struct ks_get_key {
	const struct ks_kind *kind;
	const char *name;
};

static int ks_get_named_fill(struct sk_buff *msg, struct l2tpsel_net *ln, const void *arg)
{
	const struct ks_get_key *key = arg;
	struct ks_obj *obj = ks_table_find(key->kind->table(ln), key->name);

	return obj ? key->kind->fill(msg, ln, obj) : -ENOENT;
}

static int ks_nl_get_named(struct sk_buff *skb, struct genl_info *info)
{
	struct ks_get_key key = { .kind = ks_kind_of(info->genlhdr->cmd) };
	int ret;

	key.name = ks_nl_name(info, L2TPSEL_A_NAME, key.kind->what);
	if (!key.name)
		return -EINVAL;
	ret = ks_reply_get(info, key.kind->cmd, ks_get_named_fill, &key);
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
 * A dump in id order.  cb->ctx keeps the next id to send, so each message
 * resumes where the last one stopped; cb->seq carries the namespace's
 * generation so that a change between messages is flagged NLM_F_DUMP_INTR.
 * Lock-free: under rcu_read_lock(), not ln->lock.
 */
struct ks_dump_ctx {
	unsigned long next;
	u32 sub;		/* a client sent in parts: its next count */
};

/*
 * One entry of a dump; a client may be sent in parts (ks_fill_client_part()),
 * but only when it is alone in its message: one that does not fit behind
 * others waits for the next message.
 *
 * Return: 0 (sent whole), 1 (a part sent, ctx->sub set), or -EMSGSIZE.
 */
static int ks_dump_entry(struct sk_buff *skb, const struct ks_kind *k, struct l2tpsel_net *ln,
			 void *entry, struct ks_dump_ctx *ctx, bool first)
{
	u32 sub = ctx->sub;
	int ret;

	if (k->cmd != L2TPSEL_CMD_CLIENT_GET)
		return k->fill(skb, ln, entry);
	ret = ks_fill_client_part(skb, container_of((struct ks_obj *)entry,
						    struct ks_client, obj), &sub);
	if (ret == 1 && !first)
		return -EMSGSIZE;
	if (ret >= 0)
		ctx->sub = sub;
	return ret;
}

static int ks_nl_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_dumpit_info *di = genl_dumpit_info(cb);
	const struct ks_kind *k = ks_kind_of(di->op.cmd);
	struct ks_dump_ctx *ctx = (void *)cb->ctx;
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
	cb->seq = ks_read_begin(ln);
	rcu_read_lock();
	xa_for_each_start(k->xa(ln), id, entry, ctx->next) {
		/* A dump with NAME: that object only. */
		if (name && strcmp(((struct ks_obj *)entry)->name, nla_data(name)))
			continue;
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
				  &l2tpsel_genl_family, NLM_F_MULTI, k->cmd);
		if (!hdr) {
			ret = -EMSGSIZE;
			break;
		}
		genl_dump_check_consistent(cb, hdr);
		part = ks_dump_entry(skb, k, ln, entry, ctx, !start && !n);
		if (part < 0) {
			genlmsg_cancel(skb, hdr);
			ret = -EMSGSIZE;
			break;
		}
		genlmsg_end(skb, hdr);
		n++;
		if (part) {
			/* The rest of this entry in the next message. */
			ctx->next = id;
			ret = -EMSGSIZE;
			break;
		}
		ctx->next = id + 1;
	}
	rcu_read_unlock();
	if (ks_read_retry(ln, cb->seq))
		ks_dump_mark_intr(skb, start);
	/* An object too big for an empty message is an error, not an endless dump. */
	if (ret == -EMSGSIZE && !skb->len)
		return -EMSGSIZE;
	return skb->len;
}

/* ---- sessions ------------------------------------------------------- */

static int ks_nl_session_up(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct ks_session_req req = { };
	enum lim_level verdict = LIM_PASS;
	struct l2tpsel_net *ln;
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
	ln = ks_wlock(genl_info_net(info));
	ret = ks_session_up(ln, &req, &verdict, &err);
	ks_wunlock(ln);
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

static int ks_nl_session_down(struct sk_buff *skb, struct genl_info *info)
{
	struct l2tpsel_net *ln;
	struct l2s_err err = { };
	int ret;

	if (ks_nl_missing(info, L2TPSEL_A_SESSION_KEY))
		return -EINVAL;
	ln = ks_wlock(genl_info_net(info));
	ret = ks_session_down(ln, info->snd_portid,
			      nla_get_u64(info->attrs[L2TPSEL_A_SESSION_KEY]), &err);
	ks_wunlock(ln);
	return ret ? ks_nl_err(info, info->attrs[L2TPSEL_A_SESSION_KEY], &err, ret) : 0;
}

/* ---- summary -------------------------------------------------------- */

static int ks_summary_fill(struct sk_buff *msg, struct l2tpsel_net *ln, const void *unused)
{
	return ks_limit_fill(msg, ln, NULL) ||
	       nla_put_u32(msg, L2TPSEL_A_N_TUNNELS, READ_ONCE(ln->n_ltuns)) ||
	       nla_put_u32(msg, L2TPSEL_A_N_TGROUPS, READ_ONCE(ln->tgroups.n)) ||
	       nla_put_u32(msg, L2TPSEL_A_N_SLGS, READ_ONCE(ln->slgs.n)) ||
	       nla_put_u32(msg, L2TPSEL_A_N_CLIENTS, READ_ONCE(ln->clients.n)) ?
	       -EMSGSIZE : 0;
}

/* The counts as one state: a change between two of them is read again. */
static int ks_nl_summary_get(struct sk_buff *skb, struct genl_info *info)
{
	return ks_reply_get(info, L2TPSEL_CMD_SUMMARY_GET, ks_summary_fill, NULL);
}

/* ---- events --------------------------------------------------------- */

/**
 * ks_event_limit() - tell the namespace's listeners a limit was reached or cleared
 * @ln: the namespace
 * @reached: true when the count reached the limit, false when it fell below
 * @level: the level
 * @name: the group or client name, or NULL
 * @tid: the tunnel id for the tunnel level, else 0
 * @limit: the limit
 * @count: the count now
 */
void ks_event_limit(struct l2tpsel_net *ln, bool reached, enum lim_level level,
		    const char *name, u32 tid, u32 limit, u32 count)
{
	struct sk_buff *msg;
	void *hdr;

	if (!genl_has_listeners(&l2tpsel_genl_family, ln->net, 0))
		return;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, 0, 0, &l2tpsel_genl_family, 0,
			  reached ? L2TPSEL_CMD_EV_LIMIT_REACHED : L2TPSEL_CMD_EV_LIMIT_CLEARED);
	if (!hdr ||
	    nla_put_u8(msg, L2TPSEL_A_LEVEL, level) ||
	    (name && nla_put_string(msg, L2TPSEL_A_NAME, name)) ||
	    (level == LIM_TUNNEL && nla_put_u32(msg, L2TPSEL_A_TUNNEL_ID, tid)) ||
	    nla_put_u32(msg, L2TPSEL_A_LIMIT, limit) ||
	    nla_put_u32(msg, L2TPSEL_A_COUNT, count)) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(&l2tpsel_genl_family, ln->net, msg, 0, 0, GFP_KERNEL);
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

/* Every command of the family; handlers in netlink.c, nl_select.c, nl_ratelimit.c. */
static const struct genl_ops l2tpsel_genl_ops[] = {
	L2S_DO(L2TPSEL_CMD_GET_INFO, ks_nl_get_info, ks_none_policy, 0),
	L2S_DO(L2TPSEL_CMD_LIMIT_SET, ks_nl_limit_set, ks_limit_set_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_LIMIT_GET, ks_nl_limit_get, ks_none_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_TGROUP_NEW, ks_nl_group_change, ks_group_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_TGROUP_SET, ks_nl_group_change, ks_group_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_TGROUP_DEL, ks_nl_group_change, ks_name_policy, ADMIN),
	L2S_DO_DUMP(L2TPSEL_CMD_TGROUP_GET, ks_nl_get_named, ks_nl_dump, ks_name_policy),
	L2S_DO(L2TPSEL_CMD_SLG_NEW, ks_nl_group_change, ks_group_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_SLG_SET, ks_nl_group_change, ks_group_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_SLG_DEL, ks_nl_group_change, ks_name_policy, ADMIN),
	L2S_DO_DUMP(L2TPSEL_CMD_SLG_GET, ks_nl_get_named, ks_nl_dump, ks_name_policy),
	L2S_DO(L2TPSEL_CMD_CLIENT_NEW, ks_nl_client_change, ks_client_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_CLIENT_SET, ks_nl_client_change, ks_client_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_CLIENT_DEL, ks_nl_client_change, ks_name_policy, ADMIN),
	L2S_DO_DUMP(L2TPSEL_CMD_CLIENT_GET, ks_nl_get_named, ks_nl_dump, ks_name_policy),
	L2S_DO(L2TPSEL_CMD_SESSION_UP, ks_nl_session_up, ks_session_up_policy, ADMIN),
	L2S_DO(L2TPSEL_CMD_SESSION_DOWN, ks_nl_session_down, ks_session_down_policy, ADMIN),
	L2S_DUMP(L2TPSEL_CMD_SESSION_GET, ks_nl_dump, ks_none_policy),
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
