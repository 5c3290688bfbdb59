/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * l2tpsel: L2TP tunnel selection and session admission.
 *
 * Generic netlink family "l2tpsel", the single source of truth for the API
 * between the l2tpsel kernel module, the l2tpsel CLI and the l2tpseld agent.
 *
 * All state is per network namespace: a request acts on the namespace of the
 * socket it arrives on, never sees another namespace's objects, and events
 * go only to listeners in the namespace they concern.
 *
 * Validation: every command has its own strict policy.  An attribute the
 * command does not take, a wrong type or length, a missing required attribute
 * or a value out of range is refused with -EINVAL (or -ERANGE, -ENOENT,
 * -EEXIST, -EBUSY, -ENOSPC) and an extended ACK message that names the
 * attribute or the bound.
 *
 * Permissions: every command that changes state needs CAP_NET_ADMIN in the
 * user namespace that owns the network namespace (GENL_UNS_ADMIN_PERM): all
 * state is per network namespace, so its owner may manage it, as with
 * addresses and routes.  Reads expose no secret and need no privilege.
 *
 * Names (groups, clients, ...) are NUL-terminated strings of 1 to
 * L2TPSEL_NAME_MAX - 1 bytes.  A limit of 0 means "no limit".
 *
 * Dumps resume from a cursor (the object id after the last one sent) and set
 * NLM_F_DUMP_INTR on a message when the namespace's configuration changed
 * since the dump began.
 *
 * Commands and their attributes ("req" required, "opt" optional)
 * ----------------------------------------------------------------
 *
 * L2TPSEL_CMD_GET_INFO                       (do)
 *   reply: INFO_VERSION, INFO_API_VERSION, INFO_NETNS_COOKIE
 *
 * L2TPSEL_CMD_LIMIT_SET                      (do, admin)
 *   opt: CHASSIS_MAX     u32  hard ceiling for every limit (default 1000000, >= 1)
 *   opt: CHASSIS_LIMIT   u32  configured chassis limit
 *   opt: TUNNEL_LIMIT    u32  one limit applied to every tunnel separately
 *   At least one; no limit may exceed the chassis maximum (S-LIM-6).
 *
 * L2TPSEL_CMD_LIMIT_GET                      (do)
 *   reply: CHASSIS_MAX, CHASSIS_LIMIT, TUNNEL_LIMIT, COUNT (chassis sessions)
 *
 * L2TPSEL_CMD_TGROUP_NEW / _SET              (do, admin)
 *   req: NAME; opt: LIMIT.  NEW fails with -EEXIST, SET with -ENOENT.
 * L2TPSEL_CMD_TGROUP_DEL                     (do, admin)
 *   req: NAME.  The group's limit goes; its live sessions stay counted.
 * L2TPSEL_CMD_TGROUP_GET                     (do with NAME, or dump)
 *   reply: NAME, LIMIT, COUNT
 *
 * L2TPSEL_CMD_SLG_NEW / _SET / _DEL / _GET   session-limit groups, as TGROUP.
 *   DEL of a group that still has member clients is refused (-EBUSY).
 *   reply: NAME, LIMIT, COUNT (sum of its clients' sessions), MEMBERS
 *
 * L2TPSEL_CMD_CLIENT_NEW / _SET              (do, admin)
 *   req: NAME (the peer's Host Name); opt: LIMIT (per tunnel group, S-LIM-5),
 *   opt: SLG (session-limit group name; "" = none).  Joining or leaving a
 *   group moves the client's live sessions with it (S-LIM-4).
 * L2TPSEL_CMD_CLIENT_DEL / _GET
 *   reply: NAME, LIMIT, SLG, COUNT (all tunnel groups),
 *          TGROUP_COUNTS (nest of TGC: nest of NAME, COUNT)
 *
 * L2TPSEL_CMD_SESSION_UP                     (do, admin)
 *   req: SESSION_KEY u64 (chosen by the agent, unique in the namespace),
 *        ROLE u8 (enum l2tpsel_role), TUNNEL_ID u32 (the L2TP tunnel)
 *   opt: TGROUP, CLIENT (LNS role; the LAC ignores neither but checks
 *        only chassis and tunnel, S-LIM-1)
 *   reply: ADMIT u8 (enum l2tpsel_level: L2TPSEL_LEVEL_PASS when admitted and
 *          counted, else the level that refused), RESULT_CODE/ERROR_CODE u16
 *          for the CDN to send on refusal (4/4, S-LIM-7)
 *   An existing SESSION_KEY is refused with -EEXIST.
 * L2TPSEL_CMD_SESSION_DOWN                   (do, admin)
 *   req: SESSION_KEY.  -ENOENT when no such session.
 * L2TPSEL_CMD_SESSION_GET                    (dump)
 *   reply: SESSION_KEY, ROLE, TUNNEL_ID, TGROUP, CLIENT
 *
 * L2TPSEL_CMD_SUMMARY_GET                    (do)
 *   The view of "show services l2tp summary": CHASSIS_MAX, CHASSIS_LIMIT,
 *   TUNNEL_LIMIT, COUNT (sessions), N_TUNNELS, N_TGROUPS, N_SLGS, N_CLIENTS
 *
 * Events (multicast group L2TPSEL_MCGRP_EVENTS, this namespace only)
 * ------------------------------------------------------------------
 * L2TPSEL_CMD_EV_LIMIT_REACHED / _CLEARED: LEVEL u8, NAME (group/client name,
 *   absent for chassis), TUNNEL_ID (tunnel level), LIMIT, COUNT.
 */
#ifndef _UAPI_LINUX_L2TPSEL_H
#define _UAPI_LINUX_L2TPSEL_H

#define L2TPSEL_GENL_NAME	"l2tpsel"
#define L2TPSEL_GENL_VERSION	1
#define L2TPSEL_MCGRP_EVENTS	"events"

#define L2TPSEL_NAME_MAX	64	/* including the NUL */

enum l2tpsel_cmd {
	L2TPSEL_CMD_UNSPEC,
	L2TPSEL_CMD_GET_INFO,
	L2TPSEL_CMD_LIMIT_SET,
	L2TPSEL_CMD_LIMIT_GET,
	L2TPSEL_CMD_TGROUP_NEW,
	L2TPSEL_CMD_TGROUP_SET,
	L2TPSEL_CMD_TGROUP_DEL,
	L2TPSEL_CMD_TGROUP_GET,
	L2TPSEL_CMD_SLG_NEW,
	L2TPSEL_CMD_SLG_SET,
	L2TPSEL_CMD_SLG_DEL,
	L2TPSEL_CMD_SLG_GET,
	L2TPSEL_CMD_CLIENT_NEW,
	L2TPSEL_CMD_CLIENT_SET,
	L2TPSEL_CMD_CLIENT_DEL,
	L2TPSEL_CMD_CLIENT_GET,
	L2TPSEL_CMD_SESSION_UP,
	L2TPSEL_CMD_SESSION_DOWN,
	L2TPSEL_CMD_SESSION_GET,
	L2TPSEL_CMD_SUMMARY_GET,
	L2TPSEL_CMD_EV_LIMIT_REACHED,
	L2TPSEL_CMD_EV_LIMIT_CLEARED,

	__L2TPSEL_CMD_MAX
};
#define L2TPSEL_CMD_MAX (__L2TPSEL_CMD_MAX - 1)

enum l2tpsel_attr {
	L2TPSEL_A_UNSPEC,
	L2TPSEL_A_INFO_VERSION,		/* NLA_NUL_STRING */
	L2TPSEL_A_INFO_API_VERSION,	/* NLA_U32 */
	L2TPSEL_A_INFO_NETNS_COOKIE,	/* NLA_U64 */
	L2TPSEL_A_PAD,
	L2TPSEL_A_NAME,			/* NLA_NUL_STRING */
	L2TPSEL_A_LIMIT,		/* NLA_U32 */
	L2TPSEL_A_COUNT,		/* NLA_U32 */
	L2TPSEL_A_CHASSIS_MAX,		/* NLA_U32 */
	L2TPSEL_A_CHASSIS_LIMIT,	/* NLA_U32 */
	L2TPSEL_A_TUNNEL_LIMIT,		/* NLA_U32 */
	L2TPSEL_A_SLG,			/* NLA_NUL_STRING */
	L2TPSEL_A_MEMBERS,		/* NLA_U32 */
	L2TPSEL_A_TGROUP,		/* NLA_NUL_STRING */
	L2TPSEL_A_CLIENT,		/* NLA_NUL_STRING */
	L2TPSEL_A_TGROUP_COUNTS,	/* nest of L2TPSEL_A_TGC */
	L2TPSEL_A_TGC,			/* nest: NAME, COUNT */
	L2TPSEL_A_SESSION_KEY,		/* NLA_U64 */
	L2TPSEL_A_ROLE,			/* NLA_U8, enum l2tpsel_role */
	L2TPSEL_A_TUNNEL_ID,		/* NLA_U32 */
	L2TPSEL_A_ADMIT,		/* NLA_U8, enum l2tpsel_level */
	L2TPSEL_A_RESULT_CODE,		/* NLA_U16 */
	L2TPSEL_A_ERROR_CODE,		/* NLA_U16 */
	L2TPSEL_A_LEVEL,		/* NLA_U8, enum l2tpsel_level */
	L2TPSEL_A_N_TUNNELS,		/* NLA_U32 */
	L2TPSEL_A_N_TGROUPS,		/* NLA_U32 */
	L2TPSEL_A_N_SLGS,		/* NLA_U32 */
	L2TPSEL_A_N_CLIENTS,		/* NLA_U32 */

	__L2TPSEL_A_MAX
};
#define L2TPSEL_A_MAX (__L2TPSEL_A_MAX - 1)

enum l2tpsel_role {
	L2TPSEL_ROLE_LAC,
	L2TPSEL_ROLE_LNS,
};

/* The admission levels, in the order they are checked (S-LIM-1). */
enum l2tpsel_level {
	L2TPSEL_LEVEL_CHASSIS,
	L2TPSEL_LEVEL_TUNNEL,
	L2TPSEL_LEVEL_TGROUP,
	L2TPSEL_LEVEL_SLG,
	L2TPSEL_LEVEL_CLIENT,
	L2TPSEL_LEVEL_PASS,
};

#endif /* _UAPI_LINUX_L2TPSEL_H */
