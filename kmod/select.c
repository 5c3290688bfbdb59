// SPDX-License-Identifier: GPL-2.0
/*
 * Tunnel selection in the kernel (SPEC §1-§3): the selection state of a
 * namespace (struct ks_sel) made, stopped and freed.  Its parts are in
 * the files select.h lists.
 */
#include <linux/workqueue.h>

#include "l2tpsel.h"
#include "select.h"

/**
 * ks_sel_init() - empty selection state for a new namespace
 * @ln: the namespace
 *
 * Return: 0 or -ENOMEM.
 */
int ks_sel_init(struct l2tpsel_net *ln)
{
	struct ks_sel *s = &ln->sel;
	int err;

	BUILD_BUG_ON(L2S_DOMAIN_LEN != L2TPSEL_NAME_MAX);
	/* The destination table by need (64 slots at a time), an empty domain map. */
	l2s_core_init(&s->core, NULL, KS_DESTS);
	err = ks_table_init(&s->profiles);
	if (err)
		return err;
	xa_init_flags(&s->logins, XA_FLAGS_ALLOC1);
	INIT_LIST_HEAD(&s->lru);
	INIT_LIST_HEAD(&s->sets);
	INIT_LIST_HEAD(&s->idle_sets);
	s->max_logins = KS_MAX_LOGINS_DEFAULT;
	INIT_DELAYED_WORK(&s->expire_work, ks_expire_work);
	return 0;
}

/**
 * ks_sel_stop() - stop the expiry work; called without ln->lock
 * @ln: the namespace, ln->stopped set: nothing arms the work again
 */
void ks_sel_stop(struct l2tpsel_net *ln)
{
	cancel_delayed_work_sync(&ln->sel.expire_work);
}

/**
 * ks_sel_exit() - free the selection state of a dying namespace
 * @ln: the namespace, after ks_sel_stop()
 */
void ks_sel_exit(struct l2tpsel_net *ln)
{
	struct ks_sel *s = &ln->sel;
	struct ks_login *kl, *tmp;
	struct ks_obj *o;
	unsigned long id;

	list_for_each_entry_safe(kl, tmp, &s->lru, lru)
		ks_login_finish(ln, kl);
	xa_destroy(&s->logins);
	xa_for_each(&s->profiles.xa, id, o)
		ks_profile_drop(ln, container_of(o, struct ks_profile, obj));
	ks_table_destroy(&s->profiles, NULL);
	l2s_core_release(&s->core);
}
