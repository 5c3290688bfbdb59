// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpsel: L2TP tunnel selection and session admission for Linux access routers.
 *
 * Module entry: per-namespace state and the generic netlink family.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/init.h>
#include <linux/slab.h>

#include "l2tpsel.h"
#include "version.h"

unsigned int l2tpsel_net_id __read_mostly;

unsigned int ks_max_profiles __read_mostly = 4096;
unsigned int ks_max_domains __read_mostly = 16384;
unsigned int ks_max_tgroups __read_mostly = 16384;
unsigned int ks_max_slgs __read_mostly = 16384;
unsigned int ks_max_clients __read_mostly = 65536;
unsigned int ks_max_sessions_userns __read_mostly = 65536;
unsigned int ks_max_tunnel_sets __read_mostly = 1024;
module_param_named(max_profiles, ks_max_profiles, uint, 0644);
MODULE_PARM_DESC(max_profiles, "profiles per network namespace (4096)");
module_param_named(max_domains, ks_max_domains, uint, 0644);
MODULE_PARM_DESC(max_domains, "domain mappings per network namespace (16384)");
module_param_named(max_tgroups, ks_max_tgroups, uint, 0644);
MODULE_PARM_DESC(max_tgroups, "tunnel groups per network namespace (16384)");
module_param_named(max_slgs, ks_max_slgs, uint, 0644);
MODULE_PARM_DESC(max_slgs, "session-limit groups per network namespace (16384)");
module_param_named(max_clients, ks_max_clients, uint, 0644);
MODULE_PARM_DESC(max_clients, "clients per network namespace (65536)");
module_param_named(max_tunnel_sets, ks_max_tunnel_sets, uint, 0644);
MODULE_PARM_DESC(max_tunnel_sets, "logins' own tunnel sets per network namespace (1024)");
module_param_named(max_sessions_userns, ks_max_sessions_userns, uint, 0644);
MODULE_PARM_DESC(max_sessions_userns,
		 "highest CHASSIS_MAX, and the default, outside the initial user namespace (65536)");

static int __net_init l2tpsel_net_init(struct net *net)
{
	struct l2tpsel_pernet_slot *slot = net_generic(net, l2tpsel_net_id);
	struct l2tpsel_net *ln;
	int err;

	ln = kzalloc(sizeof(*ln), GFP_KERNEL_ACCOUNT);
	if (!ln)
		return -ENOMEM;
	ln->net = net;
	mutex_init(&ln->lock);
	INIT_LIST_HEAD(&ln->events);
	ks_msg_init(ln);
	/* Not 0, which genl_dump_check_consistent() takes for "unset". */
	ln->gen = 1;
	err = ks_admit_init(ln);
	if (err)
		goto err_admit;
	err = ks_sel_init(ln);
	if (err)
		goto err_sel;
	err = ks_rl_init(ln);
	if (err)
		goto err_rl;
	slot->ln = ln;
	return 0;

err_rl:
	ks_sel_exit(ln);
err_sel:
	ks_admit_exit(ln);
err_admit:
	ks_msg_exit(ln);
	mutex_destroy(&ln->lock);
	kfree(ln);
	return err;
}

/*
 * The family is unregistered or the namespace unreachable: no request runs.
 * The works were stopped by l2tpsel_work_ops' exit, which runs first.
 */
static void __net_exit l2tpsel_net_exit(struct net *net)
{
	struct l2tpsel_net *ln = l2tpsel_pernet(net);

	ks_lock(ln);
	ks_rl_exit(ln);
	ks_sel_exit(ln);
	ks_admit_exit(ln);
	ks_unlock(ln);
	ks_msg_exit(ln);
	mutex_destroy(&ln->lock);
	((struct l2tpsel_pernet_slot *)net_generic(net, l2tpsel_net_id))->ln = NULL;
	kfree(ln);
}

static struct pernet_operations l2tpsel_net_ops = {
	.init = l2tpsel_net_init,
	.exit = l2tpsel_net_exit,
	.id   = &l2tpsel_net_id,
	.size = sizeof(struct l2tpsel_pernet_slot),
};

/*
 * The works (lockout expiry, throttle steps) send events through the
 * family, so they stop before it is unregistered: a work running after
 * genl_unregister_family() would multicast on a group id that another
 * family may have taken since.  They stop in an exit of their own,
 * registered after l2tpsel_net_ops: a dying namespace runs it before that
 * one's exit (pernet exits run in reverse order), and the module's exit
 * unregisters it before the family.  A request that runs after it (the
 * family is still there at module exit) arms no work (ln->stopped).
 */
static void __net_exit l2tpsel_work_exit(struct net *net)
{
	struct l2tpsel_net *ln = l2tpsel_pernet(net);

	ks_lock(ln);
	ln->stopped = true;
	ks_unlock(ln);
	ks_sel_stop(ln);
	ks_rl_stop(ln);
}

static struct pernet_operations l2tpsel_work_ops = {
	.exit = l2tpsel_work_exit,
};

static int __init l2tpsel_init(void)
{
	int err;

	err = ks_profile_cache_init();
	if (err)
		return err;

	err = register_pernet_subsys(&l2tpsel_net_ops);
	if (err)
		goto err_pernet;
	err = register_pernet_subsys(&l2tpsel_work_ops);
	if (err)
		goto err_work;

	/* Logins held for an agent are freed when its socket closes. */
	err = ks_release_init();
	if (err)
		goto err_notifier;

	err = l2tpsel_genl_init();
	if (err)
		goto err_genl;

	pr_info("version %s loaded\n", L2TPSEL_VERSION);
	return 0;

err_genl:
	ks_release_exit();
err_notifier:
	unregister_pernet_subsys(&l2tpsel_work_ops);
err_work:
	unregister_pernet_subsys(&l2tpsel_net_ops);
err_pernet:
	ks_profile_cache_exit();
	return err;
}

/*
 * Works first (they send through the family), then the family (no request
 * runs after it), then the state the requests and works used.
 */
static void __exit l2tpsel_exit(void)
{
	unregister_pernet_subsys(&l2tpsel_work_ops);
	l2tpsel_genl_exit();
	ks_release_exit();
	unregister_pernet_subsys(&l2tpsel_net_ops);
	ks_profile_cache_exit();
}

module_init(l2tpsel_init);
module_exit(l2tpsel_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("L2TP tunnel selection and session admission");
MODULE_VERSION(L2TPSEL_VERSION);
