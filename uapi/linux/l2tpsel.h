/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * l2tpsel: L2TP tunnel selection and session admission.
 *
 * Generic netlink family "l2tpsel", the single source of truth for the API
 * between the l2tpsel kernel module, the l2tpsel CLI and the l2tpseld agent.
 *
 * All state is per network namespace: a request acts on the namespace of the
 * socket it arrives on and never sees another namespace's objects.
 *
 * Commands
 * --------
 *
 * L2TPSEL_CMD_GET_INFO
 *   Request: no attributes.
 *   Reply:   L2TPSEL_CMD_GET_INFO with
 *     L2TPSEL_A_INFO_VERSION      NLA_NUL_STRING  module version, "MAJOR.MINOR.PATCH"
 *     L2TPSEL_A_INFO_API_VERSION  NLA_U32         L2TPSEL_GENL_VERSION
 *     L2TPSEL_A_INFO_NETNS_COOKIE NLA_U64         cookie of the namespace that answered
 *   Unprivileged: it exposes no configuration.
 *
 * Every request is validated against a strict per-command policy: unknown
 * attributes, wrong types and wrong lengths are refused with an extended ACK
 * message naming the attribute.
 */
#ifndef _UAPI_LINUX_L2TPSEL_H
#define _UAPI_LINUX_L2TPSEL_H

#define L2TPSEL_GENL_NAME	"l2tpsel"
#define L2TPSEL_GENL_VERSION	1

enum l2tpsel_cmd {
	L2TPSEL_CMD_UNSPEC,
	L2TPSEL_CMD_GET_INFO,

	__L2TPSEL_CMD_MAX
};
#define L2TPSEL_CMD_MAX (__L2TPSEL_CMD_MAX - 1)

enum l2tpsel_attr {
	L2TPSEL_A_UNSPEC,
	L2TPSEL_A_INFO_VERSION,		/* NLA_NUL_STRING */
	L2TPSEL_A_INFO_API_VERSION,	/* NLA_U32 */
	L2TPSEL_A_INFO_NETNS_COOKIE,	/* NLA_U64 */
	L2TPSEL_A_PAD,

	__L2TPSEL_A_MAX
};
#define L2TPSEL_A_MAX (__L2TPSEL_A_MAX - 1)

#endif /* _UAPI_LINUX_L2TPSEL_H */
