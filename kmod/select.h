/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of tunnel selection share among themselves; what the
 * handlers and the rest of the module call is in l2tpsel.h.  The files,
 * each calling only files below it:
 *
 *   select.c      the selection state of a namespace: made, stopped, freed
 *   login.c       the logins held for agents between netlink calls
 *   login_test.c  LOGIN_TEST's dry run
 *   tunnel_set.c  logins' own tunnel sets (LOGIN_BEGIN TUNNELS)
 *   profile.c     profiles and their tunnels, the domain map
 *   lockout.c     the core's environment (time, draws, events), lockout
 *                 expiry, lockouts by hand
 *
 * Everything here runs under ln->lock.
 */
#ifndef KS_SELECT_H
#define KS_SELECT_H

#include <linux/ktime.h>
#include <linux/timekeeping.h>

#include "l2tpsel.h"

/* Selection's clock: milliseconds of boot time, suspend included. */
static inline u64 ks_now_ms(void)
{
	return ktime_to_ms(ktime_get_boottime());
}

/* lockout.c */
void ks_expire_work(struct work_struct *work);
void ks_sel_env_dry(struct l2s_env *env, struct ks_env_ctx *ec);

/* profile.c */
int ks_profile_make(struct l2tpsel_net *ln, const char *name, struct ks_profile **kpp);
void ks_profile_drop(struct l2tpsel_net *ln, struct ks_profile *kp);

/* tunnel_set.c */
void ks_set_reap(struct l2tpsel_net *ln, u64 now, bool room);

#endif /* KS_SELECT_H */
