/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the selection handlers (nl_select.c) share with the login handlers
 * (nl_login.c): the policies' common parts, the profile lookup, the tunnel
 * settings of a request and the fill of a login step.
 */
#ifndef KS_NL_SELECT_H
#define KS_NL_SELECT_H

#include "l2tpsel.h"

/* Lengths are checked by the core, so that its message names the bound. */
#define SNAME_POLICY	{ .type = NLA_NUL_STRING, .len = 255 }
#define ADDR_POLICY	NLA_POLICY_RANGE(NLA_BINARY, 4, 16)

/* A tunnel's own attributes: TUNNEL_NEW's, and each entry of a login's TUNNELS. */
#define KS_TUNNEL_POLICY						\
	[L2TPSEL_A_NAME]		= SNAME_POLICY,			\
	[L2TPSEL_A_SEL_LEVEL]		= { .type = NLA_U8 },		\
	[L2TPSEL_A_REMOTE]		= ADDR_POLICY,			\
	[L2TPSEL_A_LOCAL]		= ADDR_POLICY,			\
	[L2TPSEL_A_PORT]		= { .type = NLA_U16 },		\
	[L2TPSEL_A_MAX_SESSIONS]	= { .type = NLA_U32 },		\
	[L2TPSEL_A_TGROUP]		= SNAME_POLICY,			\
	[L2TPSEL_A_SECRET]		= SNAME_POLICY

struct ks_profile *ks_nl_profile(struct genl_info *info, struct l2tpsel_net *ln, int type);
int ks_nl_tunnel_conf(struct genl_info *info, struct nlattr **a, const char *where,
		      struct l2s_tunnel_conf *tc);
int ks_sel_fill_step(struct sk_buff *msg, const struct l2s_core *c,
		     const struct l2s_profile *p, const struct l2s_step *st);

#endif /* KS_NL_SELECT_H */
