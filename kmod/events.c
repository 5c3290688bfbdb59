// SPDX-License-Identifier: GPL-2.0
/*
 * The namespace's events leave here: ks_events_flush() turns the records
 * queued on ln->events (events.h) into messages of the "events" group.
 * Only the family is used from here; nothing of the selection, admission
 * or rate limit state.
 */
#include <net/genetlink.h>
#include <linux/l2tpsel.h>

#include "events.h"

static int ks_put_addr(struct sk_buff *msg, int type, const struct l2s_addr *a)
{
	if (a->family != 4 && a->family != 6)
		return 0;
	return nla_put(msg, type, a->family == 4 ? 4 : 16, a->bytes);
}

/* The attributes of @ev; non-zero when one did not fit. */
static int ks_event_fill(struct sk_buff *msg, const struct ks_event *ev)
{
	switch (ev->cmd) {
	case L2TPSEL_CMD_EV_LIMIT_REACHED:
	case L2TPSEL_CMD_EV_LIMIT_CLEARED:
		return nla_put_u8(msg, L2TPSEL_A_LEVEL, ev->limit.level) ||
		       (ev->limit.name[0] &&
			nla_put_string(msg, L2TPSEL_A_NAME, ev->limit.name)) ||
		       (ev->limit.level == LIM_TUNNEL &&
			nla_put_u32(msg, L2TPSEL_A_TUNNEL_ID, ev->limit.tid)) ||
		       nla_put_u32(msg, L2TPSEL_A_LIMIT, ev->limit.limit) ||
		       nla_put_u32(msg, L2TPSEL_A_COUNT, ev->limit.count);
	case L2TPSEL_CMD_EV_LOCKOUT:
	case L2TPSEL_CMD_EV_UNLOCK:
		return ks_put_addr(msg, L2TPSEL_A_REMOTE, &ev->lockout.key.remote) ||
		       nla_put_u16(msg, L2TPSEL_A_PORT, ev->lockout.key.port) ||
		       ks_put_addr(msg, L2TPSEL_A_LOCAL, &ev->lockout.key.local) ||
		       (ev->cmd == L2TPSEL_CMD_EV_LOCKOUT &&
			nla_put_u32(msg, L2TPSEL_A_LOCKOUT_REMAINING, ev->lockout.ms)) ||
		       (ev->cmd == L2TPSEL_CMD_EV_UNLOCK &&
			nla_put_u8(msg, L2TPSEL_A_UNLOCK_WHY, ev->lockout.why));
	case L2TPSEL_CMD_EV_THROTTLE:
		return nla_put_string(msg, L2TPSEL_A_NAME, ev->throttle.name) ||
		       nla_put_u8(msg, L2TPSEL_A_RL_LOAD, ev->throttle.load) ||
		       nla_put_u8(msg, L2TPSEL_A_RL_PERCENT, ev->throttle.percent) ||
		       nla_put_u32(msg, L2TPSEL_A_RL_USERS, ev->throttle.users);
	case L2TPSEL_CMD_EV_LOGIN:
		return nla_put_u32(msg, L2TPSEL_A_LOGIN_ID, ev->login.id) ||
		       (ev->login.profile[0] &&
			nla_put_string(msg, L2TPSEL_A_PROFILE, ev->login.profile)) ||
		       nla_put_u8(msg, L2TPSEL_A_OK, ev->login.ok) ||
		       nla_put_u8(msg, L2TPSEL_A_WHY, ev->login.why) ||
		       (ev->login.tunnel[0] &&
			nla_put_string(msg, L2TPSEL_A_NAME, ev->login.tunnel));
	}
	return -EINVAL;
}

/* Multicast one event to the namespace's listeners; dropped when it cannot be built. */
static void ks_event_send(struct l2tpsel_net *ln, const struct ks_event *ev)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, 0, 0, &l2tpsel_genl_family, 0, ev->cmd);
	if (!hdr || ks_event_fill(msg, ev)) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(&l2tpsel_genl_family, ln->net, msg, 0, 0, GFP_KERNEL);
}

/**
 * ks_events_flush() - send the queued events in order and empty the queue
 * @ln: the namespace, its lock held (ks_unlock() calls this last)
 */
void ks_events_flush(struct l2tpsel_net *ln)
{
	struct ks_event *ev, *tmp;

	lockdep_assert_held(&ln->lock);
	list_for_each_entry_safe(ev, tmp, &ln->events, node) {
		list_del(&ev->node);
		ks_event_send(ln, ev);
		kfree(ev);
	}
}
