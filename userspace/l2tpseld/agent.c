// SPDX-License-Identifier: GPL-2.0
/*
 * The agent assembled: the core (l2d.c) knows its parts only through the
 * tables of l2d.h; here each part's table is set.  The one place that
 * names them all.
 */
#include "agent.h"
#include "lac.h"
#include "session.h"
#include "tunnel.h"

int l2d_agent_init(struct l2d *d, struct l2d_conf *conf, struct l2d_loop *loop,
		   const struct l2d_env *env, const struct l2d_kops *kops)
{
	int err = l2d_init(d, conf, loop, env, kops);

	if (err)
		return err;
	d->tops = &l2d_tunnel_ops;
	d->sops = &l2d_session_ops;
	d->lops = &l2d_login_ops;
	return 0;
}
