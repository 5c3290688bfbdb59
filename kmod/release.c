// SPDX-License-Identifier: GPL-2.0
/*
 * A netlink socket closed, or another socket took its port id: the logins
 * (login.c) and sessions (admit.c) it held end, and its record
 * (owner.c) with them.
 */
#include <linux/netlink.h>
#include <linux/notifier.h>
#include <net/sock.h>

#include "l2tpsel.h"

/**
 * ks_owner_release() - a socket closed: its logins and sessions end
 * @ln: the namespace, locked
 * @o: its record, freed here
 */
void ks_owner_release(struct l2tpsel_net *ln, struct ks_owner *o)
{
	o->releasing = true;
	while (!list_empty(&o->logins))
		ks_login_finish(ln, list_first_entry(&o->logins, struct ks_login, owner_node));
	while (!list_empty(&o->sessions))
		ks_session_end(ln, list_first_entry(&o->sessions, struct ks_session, owner_node));
	ks_owner_free(ln, o);
}

/**
 * ks_owner_sync() - end the record at @portid unless it is @sk's
 * @ln: the namespace, locked
 * @portid: the port id of a request
 * @sk: the socket that sent it
 *
 * Called before a request looks up what belongs to @portid (a login, a
 * session): then only what @sk itself made can match.
 */
void ks_owner_sync(struct l2tpsel_net *ln, u32 portid, const struct sock *sk)
{
	struct ks_owner *o = xa_load(&ln->owners, portid);

	if (o && o->sk != sk)
		ks_owner_release(ln, o);
}

static int ks_netlink_notify(struct notifier_block *nb, unsigned long state, void *data)
{
	struct netlink_notify *n = data;
	struct l2tpsel_net *ln;
	struct ks_owner *o;

	if (state != NETLINK_URELEASE || n->protocol != NETLINK_GENERIC)
		return NOTIFY_DONE;
	/*
	 * Every genetlink socket of the system that closes comes here; only its
	 * own namespace can hold its logins and sessions, on its record
	 * (struct ks_owner).  A socket without one is left alone, the mutex
	 * untaken: its requests, which made any record it has, completed
	 * before its release.  The port id is free again already: a record
	 * at it may be a new socket's, which stays; the closing socket is
	 * orphaned (SOCK_DEAD) before the notifier runs.
	 */
	ln = l2tpsel_pernet(n->net);
	if (!ln || !xa_load(&ln->owners, n->portid))
		return NOTIFY_DONE;
	ks_lock(ln);
	o = xa_load(&ln->owners, n->portid);
	if (o && sock_flag(o->sk, SOCK_DEAD))
		ks_owner_release(ln, o);
	ks_unlock(ln);
	return NOTIFY_DONE;
}

static struct notifier_block ks_netlink_nb = {
	.notifier_call = ks_netlink_notify,
};

/**
 * ks_release_init() - watch netlink sockets close, to end what they held
 *
 * Return: 0 or a negative errno.
 */
int ks_release_init(void)
{
	return netlink_register_notifier(&ks_netlink_nb);
}

/**
 * ks_release_exit() - stop watching netlink sockets
 */
void ks_release_exit(void)
{
	netlink_unregister_notifier(&ks_netlink_nb);
}
