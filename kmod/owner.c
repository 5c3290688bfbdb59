// SPDX-License-Identifier: GPL-2.0
/*
 * What one netlink socket holds (struct ks_owner): its sessions (admit.c)
 * and its logins (login.c) hang on its record.  Making and freeing the
 * record is here; ending what a closed socket held is in release.c.
 */
#include <net/sock.h>

#include "l2tpsel.h"

/**
 * ks_owner_get() - the record of a socket, made on its first session or login
 * @ln: the namespace
 * @portid: the socket's port id
 * @sk: the socket (NETLINK_CB(skb).sk of its request)
 *
 * The request that makes it ran ks_owner_sync() first, under the same
 * lock: a record at @portid of another socket (one that closed, its port
 * id free for @sk to take, its release notifier not run yet) was ended
 * there, so that nothing of @sk joins it.
 *
 * Return: the record, or an ERR_PTR (-ENOMEM).
 */
struct ks_owner *ks_owner_get(struct l2tpsel_net *ln, u32 portid, struct sock *sk)
{
	struct ks_owner *o;
	int ret;

	o = xa_load(&ln->owners, portid);
	/* ks_owner_sync() ran first: a record at @portid is @sk's own. */
	if (o)
		return WARN_ON_ONCE(o->sk != sk) ? ERR_PTR(-EBUSY) : o;
	o = kzalloc(sizeof(*o), GFP_KERNEL_ACCOUNT);
	if (!o)
		return ERR_PTR(-ENOMEM);
	o->portid = portid;
	INIT_LIST_HEAD(&o->sessions);
	INIT_LIST_HEAD(&o->logins);
	ret = xa_err(xa_store(&ln->owners, portid, o, GFP_KERNEL_ACCOUNT));
	if (ret) {
		kfree(o);
		return ERR_PTR(ret);
	}
	/* Released by the notifier at the socket's close at the latest. */
	sock_hold(sk);
	o->sk = sk;
	return o;
}

void ks_owner_free(struct l2tpsel_net *ln, struct ks_owner *o)
{
	xa_erase(&ln->owners, o->portid);
	sock_put(o->sk);
	kfree(o);	/* the notifier's unlocked look only tests the slot */
}

/**
 * ks_owner_put() - free a socket's record once it holds nothing
 * @ln: the namespace
 * @o: the record; a session or login was just taken off it
 */
void ks_owner_put(struct l2tpsel_net *ln, struct ks_owner *o)
{
	if (!o->releasing && list_empty(&o->sessions) && list_empty(&o->logins))
		ks_owner_free(ln, o);
}
