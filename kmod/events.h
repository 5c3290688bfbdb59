/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Events of one namespace (the "events" multicast group).  What decides
 * (admit.c, lockout.c, ratelimit.c and the handlers) queues a record of
 * what happened on ln->events, under ln->lock; ks_unlock() hands the queue
 * to events.c, which builds and multicasts the messages in queue order
 * before the lock is let go, so listeners hear of changes in the order
 * they were made.  Nothing is queued while nobody listens.
 */
#ifndef KS_EVENTS_H
#define KS_EVENTS_H

#include <linux/slab.h>
#include "l2tpsel.h"

struct ks_event {
	struct list_head node;
	u8 cmd;				/* L2TPSEL_CMD_EV_* */
	union {
		struct {
			u8 level;	/* enum lim_level */
			u32 tid, limit, count;
			char name[L2TPSEL_NAME_MAX];	/* "": none */
		} limit;
		struct {
			struct l2s_dest_key key;
			u8 why;		/* EV_UNLOCK: enum l2s_unlock_why */
			u32 ms;		/* EV_LOCKOUT: its length */
		} lockout;
		struct {
			u8 load, percent;
			u32 users;
			char name[L2TPSEL_NAME_MAX];
		} throttle;
		struct {
			u32 id;
			u8 ok, why;
			char profile[L2TPSEL_NAME_MAX];	/* "": deleted */
			char tunnel[L2TPSEL_NAME_MAX];	/* "": none */
		} login;
	};
};

/* A new record at the tail of the queue, or NULL (nobody listens, no memory). */
static inline struct ks_event *ks_event_add(struct l2tpsel_net *ln, u8 cmd)
{
	struct ks_event *ev;

	lockdep_assert_held(&ln->lock);
	if (!genl_has_listeners(&l2tpsel_genl_family, ln->net, 0))
		return NULL;
	ev = kzalloc(sizeof(*ev), GFP_KERNEL);
	if (!ev)
		return NULL;
	ev->cmd = cmd;
	list_add_tail(&ev->node, &ln->events);
	return ev;
}

static inline void ks_event_name(char *dst, const char *src)
{
	if (src)
		strscpy(dst, src, L2TPSEL_NAME_MAX);
}

/**
 * ks_event_limit() - a limit was reached or cleared
 * @ln: the namespace
 * @reached: true when the count reached the limit, false when it fell below
 * @level: the level
 * @name: the group or client name, or NULL
 * @tid: the tunnel id for the tunnel level, else 0
 * @limit: the limit
 * @count: the count now
 */
static inline void ks_event_limit(struct l2tpsel_net *ln, bool reached, enum lim_level level,
				  const char *name, u32 tid, u32 limit, u32 count)
{
	struct ks_event *ev = ks_event_add(ln, reached ? L2TPSEL_CMD_EV_LIMIT_REACHED :
							 L2TPSEL_CMD_EV_LIMIT_CLEARED);

	if (!ev)
		return;
	ev->limit.level = level;
	ev->limit.tid = tid;
	ev->limit.limit = limit;
	ev->limit.count = count;
	ks_event_name(ev->limit.name, name);
}

/**
 * ks_event_lockout() - a destination's lockout started or ended
 * @ln: the namespace
 * @d: the destination
 * @start: true when it started
 * @why: enum l2s_unlock_why when it ended
 * @ms: the lockout length when it started
 */
static inline void ks_event_lockout(struct l2tpsel_net *ln, const struct l2s_dest *d,
				    bool start, u8 why, u32 ms)
{
	struct ks_event *ev = ks_event_add(ln, start ? L2TPSEL_CMD_EV_LOCKOUT :
						       L2TPSEL_CMD_EV_UNLOCK);

	if (!ev)
		return;
	ev->lockout.key = d->key;
	ev->lockout.why = why;
	ev->lockout.ms = ms;
}

/**
 * ks_event_throttle() - a throttle profile's percent changed
 * @ln: the namespace
 * @name: the profile
 * @load: its load now
 * @percent: its percent now
 * @users: limits naming it
 */
static inline void ks_event_throttle(struct l2tpsel_net *ln, const char *name, u8 load,
				     u8 percent, u32 users)
{
	struct ks_event *ev = ks_event_add(ln, L2TPSEL_CMD_EV_THROTTLE);

	if (!ev)
		return;
	ev->throttle.load = load;
	ev->throttle.percent = percent;
	ev->throttle.users = users;
	ks_event_name(ev->throttle.name, name);
}

/**
 * ks_event_login() - a login held for an agent ended
 * @ln: the namespace
 * @id: the login's id
 * @profile: its profile's name, NULL when it was deleted
 * @st: the final step
 * @tunnel: the tunnel on success, else NULL
 */
static inline void ks_event_login(struct l2tpsel_net *ln, u32 id, const char *profile,
				  const struct l2s_step *st, const char *tunnel)
{
	struct ks_event *ev = ks_event_add(ln, L2TPSEL_CMD_EV_LOGIN);

	if (!ev)
		return;
	ev->login.id = id;
	ev->login.ok = st->ok;
	ev->login.why = st->why;
	ks_event_name(ev->login.profile, profile);
	ks_event_name(ev->login.tunnel, tunnel);
}

#endif /* KS_EVENTS_H */
