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
 * Permissions: every command but GET_INFO, reads included, needs
 * CAP_NET_ADMIN in the user namespace that owns the network namespace
 * (GENL_UNS_ADMIN_PERM), as the kernel's l2tp family asks for its GETs: all
 * state is per network namespace, so its owner may manage and read it, as
 * with addresses and routes, and the tables name peers, LNS addresses,
 * domains, clients and session keys.  Without it a command is refused with
 * -EPERM.  Joining the events group needs the same (GENL_MCAST_CAP_NET_ADMIN,
 * checked when the socket joins).  GET_INFO (version, API, netns cookie)
 * needs no privilege.
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
 * L2TPSEL_CMD_LIMIT_GET                      (do, admin)
 *   reply: CHASSIS_MAX, CHASSIS_LIMIT, TUNNEL_LIMIT, COUNT (chassis sessions)
 *
 * L2TPSEL_CMD_TGROUP_NEW / _SET              (do, admin)
 *   req: NAME; opt: LIMIT.  NEW fails with -EEXIST, SET with -ENOENT.
 * L2TPSEL_CMD_TGROUP_DEL                     (do, admin)
 *   req: NAME.  The group's limit goes; its live sessions stay counted.
 * L2TPSEL_CMD_TGROUP_GET                     (do with NAME, or dump, admin)
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
 * L2TPSEL_CMD_CLIENT_DEL / _GET              (do, admin; GET: or dump)
 *   reply: NAME, LIMIT, SLG, COUNT (all tunnel groups),
 *          TGROUP_COUNTS (nest of TGC: nest of NAME, COUNT)
 *   A client whose counts do not fit one message: a do GET is refused
 *   (-EMSGSIZE, with a message); a dump sends it in several entries, each
 *   but the last with MORE, the next one NAME and the rest of TGROUP_COUNTS.
 *   A dump with NAME dumps that client only.
 *
 * L2TPSEL_CMD_SESSION_UP                     (do, admin)
 *   req: SESSION_KEY u64 (chosen by the agent, unique in the namespace),
 *        ROLE u8 (enum l2tpsel_role), TUNNEL_ID u32 (the L2TP tunnel)
 *   opt: TGROUP, CLIENT (LNS role; the LAC ignores neither but checks
 *        only chassis and tunnel, S-LIM-1), DETACHED flag
 *   reply: ADMIT u8 (enum l2tpsel_level: L2TPSEL_LEVEL_PASS when admitted and
 *          counted, else the level that refused), RESULT_CODE/ERROR_CODE u16
 *          for the CDN to send on refusal (4/4, S-LIM-7)
 *   An existing SESSION_KEY is refused with -EEXIST.  A LAC's session is
 *   counted by LOGIN_REPORT instead, with its selection counts.
 *   Ownership: a session belongs to the socket that counted it.  Only that
 *   socket may end it, and it ends when that socket closes (an agent that
 *   dies leaves no count behind).  DETACHED makes a session nobody's: it
 *   stays until a SESSION_DOWN from any socket (the CLI's "session up",
 *   for operators and tests; an agent never sends it).
 * L2TPSEL_CMD_SESSION_DOWN                   (do, admin)
 *   req: SESSION_KEY.  Ends the session and every count it holds
 *   (admission, and a login's selection counts on its tunnel and
 *   destination).  -ENOENT when no such session, -EPERM when it belongs to
 *   another socket.
 * L2TPSEL_CMD_SESSION_GET                    (dump, admin)
 *   reply: SESSION_KEY, ROLE, TUNNEL_ID, TGROUP, CLIENT, DETACHED when it
 *          is nobody's, PROFILE when a login counted it
 *
 * L2TPSEL_CMD_SUMMARY_GET                    (do, admin)
 *   The view of "show services l2tp summary": CHASSIS_MAX, CHASSIS_LIMIT,
 *   TUNNEL_LIMIT, COUNT (sessions), N_TUNNELS, N_TGROUPS, N_SLGS, N_CLIENTS
 *
 * Events (multicast group L2TPSEL_MCGRP_EVENTS, this namespace only, admin)
 * -------------------------------------------------------------------------
 * L2TPSEL_CMD_EV_LIMIT_REACHED / _CLEARED: LEVEL u8, NAME (group/client name,
 *   absent for chassis), TUNNEL_ID (tunnel level), LIMIT, COUNT.
 *
 * Tunnel selection (SPEC §1-§3)
 * -----------------------------
 * Profiles and tunnel names are 1..31 bytes, domains 1..63 bytes, secrets
 * 0..63 bytes (the core's bounds, refused with a message naming them).
 * Addresses (REMOTE, LOCAL) are binary, 4 bytes (IPv4) or 16 bytes (IPv6),
 * network order.  A destination is (REMOTE, PORT, LOCAL) and is shared by
 * every tunnel of every profile that names it (S-OBJ-1).
 *
 * L2TPSEL_CMD_PROFILE_NEW / _SET             (do, admin)
 *   req: NAME; opt: FAILOVER u8 (enum l2tpsel_failover), LB u8
 *   (enum l2tpsel_lb), FAILOVER_CDN u32 / FAILOVER_STOPCCN u32 (bit n set:
 *   result code n, 0..31, also locks out and fails over).  SET changes only
 *   what it is given.
 * L2TPSEL_CMD_PROFILE_DEL                    (do, admin)
 *   req: NAME.  Refused (-EBUSY) while a tunnel of it has live sessions.
 * L2TPSEL_CMD_PROFILE_GET                    (do with NAME, or dump, admin)
 *   reply: NAME, FAILOVER, LB, FAILOVER_CDN, FAILOVER_STOPCCN, N_TUNNELS,
 *          N_LEVELS, N_DESTS, DYNAMIC u8 (1: a login's tunnel set, "~N")
 *
 * L2TPSEL_CMD_TUNNEL_NEW                     (do, admin)
 *   req: NAME, PROFILE, SEL_LEVEL u8 (0..7), REMOTE
 *   opt: PORT u16 (default 1701), LOCAL, MAX_SESSIONS u32 (0 = unlimited),
 *        TGROUP (tunnel group), SECRET (checked, 0..63 bytes, and dropped:
 *        the module keeps only that one was given, HAS_SECRET; l2tpseld
 *        holds the secrets)
 * L2TPSEL_CMD_TUNNEL_DEL                     (do, admin)
 *   req: NAME, PROFILE.  Refused (-EBUSY) while it has live sessions.
 * L2TPSEL_CMD_TUNNEL_GET                     (dump; opt PROFILE filters, admin)
 *   reply: NAME, PROFILE, SEL_LEVEL, REMOTE, PORT, LOCAL (when set),
 *          MAX_SESSIONS, TGROUP (when set), SESSIONS, HAS_SECRET u8,
 *          IN_FLIGHT u32 (logins whose attempt holds a place on it: picked by
 *          LOGIN_BEGIN or LOGIN_REPORT, not yet reported; S-STORM-1/2)
 *
 * L2TPSEL_CMD_DOMAIN_NEW                     (do, admin)
 *   req: DOMAIN, PROFILE (need not exist yet).  An existing DOMAIN is
 *   remapped.  L2TPSEL_CMD_DOMAIN_DEL: req DOMAIN.
 * L2TPSEL_CMD_DOMAIN_GET                     (do with DOMAIN, or dump, admin)
 *   reply: DOMAIN, PROFILE
 *
 * L2TPSEL_CMD_DEST_GET                       (dump, admin)
 *   reply: REMOTE, PORT, LOCAL (when set), LOCKOUT_REMAINING u32 (ms, 0 when
 *          unlocked), SESSIONS (destination session count), N_TUNNELS
 *          (tunnels naming it), ATTEMPTS u32, FAILURES u32 (attempts that
 *          locked it out), IN_FLIGHT u32 (logins on their way to it)
 *   Load balancing and max-sessions count a login in flight as a session
 *   of its tunnel and destination, from the step that names the attempt to
 *   the LOGIN_REPORT of its outcome, or until the login ends otherwise
 *   (idle timeout, the owning socket's close, its profile or tunnel
 *   deleted): S-STORM-1, S-STORM-2.
 *
 * L2TPSEL_CMD_LOCKOUT_SET                    (do, admin)
 *   opt: LOCKOUT_TIME u32 (seconds, 1..86400, default 300), MAX_LOGINS u32
 *   (concurrent logins held for agents, 1..65536, default 4096).  At least one.
 * L2TPSEL_CMD_LOCKOUT_GET                    (do, admin)
 *   reply: LOCKOUT_TIME, MAX_LOGINS, N_LOGINS, N_LOCKED (destinations locked
 *          now)
 * L2TPSEL_CMD_LOCKOUT_CLEAR                  (do, admin)
 *   opt: LOCAL or REMOTE (only destinations with that address; at most one).
 *   reply: N_LOCKED (destinations unlocked).  S-SEL-11.
 *
 * L2TPSEL_CMD_LOGIN_BEGIN                    (do, admin)
 *   req: USER ("name@domain"), PROFILE (takes precedence over the domain
 *   map) or TUNNELS; opt: KEY (hash key for the hash modes, default USER),
 *   PICKS (nest of up to 8 NAME: tunnels to choose at the next random draws
 *   whose candidates include them, in order; for replaying a scenario).
 *   TUNNELS (S-OBJ-4, what a RADIUS server's tunnel attributes give): the
 *   login's own tunnel set, a nest of 1..31 TUNNEL_ENTRY, each a nest of
 *   the TUNNEL_NEW attributes without PROFILE (req NAME, SEL_LEVEL, REMOTE;
 *   opt PORT, LOCAL, MAX_SESSIONS, TGROUP, SECRET); it excludes PROFILE.
 *   The set becomes a profile of the kernel's own, named "~N", selected
 *   with the default settings (failover between levels, random); its
 *   destinations are the global ones (lockout and counts shared with the
 *   configured tunnels, S-OBJ-1).  Logins giving an equal set (same
 *   entries, in any order; a SECRET counts only as given or not) share
 *   one such profile, so that MAX_SESSIONS
 *   and the tunnel counts hold across them.  It lives while a login is on
 *   it or a tunnel of it has a session, and then for the lockout time;
 *   at most max_tunnel_sets (module parameter, default 1024) per namespace
 *   (-ENOSPC beyond, when none is idle).  PROFILE_GET and TUNNEL_GET show
 *   it (DYNAMIC 1).  Names beginning
 *   with "~" are refused everywhere else (PROFILE_NEW, DOMAIN_NEW, a
 *   login's PROFILE), and the profile and its tunnels cannot be changed
 *   or deleted (-EPERM).
 *   reply: LOGIN_ID u32, then the step: STEP u8 (enum l2tpsel_step);
 *     ATTEMPT: the tunnel's attributes as TUNNEL_GET gives them (NAME,
 *              PROFILE, SEL_LEVEL, REMOTE, PORT, LOCAL, ...; never the
 *              secret: the agent is configured with it), SETUP u8 (1: the
 *              tunnel has no session, send SCCRQ first), SHORTEST u8 (the
 *              S-SEL-8 case);
 *     DONE:    OK u8, WHY u8 (enum l2tpsel_why), on success also the tunnel.
 *   opt RL_ASK (flag): the login's own RL_CHECKs ride on this request and
 *   on its LOGIN_REPORTs, as RL_CHECK would decide them: the ingress LOGIN
 *   check (DOMAIN of USER, PROFILE) before the login begins, and the
 *   egress ATTEMPT check (REMOTE, PORT, PROFILE) of every ATTEMPT step a
 *   reply names.  A refusal is a nest of RL_CHECK's reply attributes
 *   (RL_VERDICT, NAME, RESULT_CODE, ERROR_CODE, RL_MESSAGE): RL_LOGIN
 *   is the whole reply (no login began); RL_ATTEMPT rides on the step,
 *   which the agent then reports as LOCAL (nothing was sent, no blame).
 *   A pass puts nothing.
 *   The login belongs to the socket that began it: it is freed when it is
 *   DONE, when that socket closes, or, once idle for 120 s, at the next
 *   LOGIN_BEGIN / LOGIN_REPORT of the namespace.  At most MAX_LOGINS at
 *   once (-ENOSPC beyond).
 * L2TPSEL_CMD_LOGIN_REPORT                   (do, admin)
 *   req: LOGIN_ID, OUTCOME u8 (enum l2tpsel_outcome); RESULT_CODE and
 *   ERROR_CODE u16 for CDN / StopCCN; SESSION_KEY and TUNNEL_ID (the L2TP
 *   tunnel) for OK, opt DETACHED (as SESSION_UP's), RL_ASK (the next
 *   step's ATTEMPT check, as LOGIN_BEGIN's).  reply: as LOGIN_BEGIN.
 *   Only the socket that began the login may report (-ENOENT otherwise).
 *   OK is one step for both ledgers: the session is admitted at the LAC's
 *   levels (chassis, L2TP tunnel; S-LIM-1) and, when it passes, counted
 *   there and on the selected tunnel and its destination (S-SEL-10,
 *   S-LB-3) as one session of this socket (see SESSION_UP), which
 *   SESSION_DOWN or the socket's close ends.  A refusal by a limit counts
 *   nothing: DONE with OK 0, WHY L2TPSEL_WHY_ADMISSION, ADMIT (the level)
 *   and the RESULT_CODE/ERROR_CODE for the CDN.
 * L2TPSEL_CMD_LOGIN_TEST                     (do, admin)
 *   req/opt as LOGIN_BEGIN (without PICKS and TUNNELS).  A dry run on a
 *   copy of the state: every attempt is assumed to fail with no reply.
 *   Nothing changes.
 *   Admin although it only reads: each call copies the destination table
 *   (4096 x 56 bytes) and the profile (35 KB).
 *   reply: STEPS (nest of STEP_ENTRY: nest of the ATTEMPT attributes plus
 *   N_CANDIDATES u32, the candidates a random pick was among, 1 when forced),
 *   then OK, WHY of the final DONE.
 *
 * L2TPSEL_CMD_TUNNEL_SESSION_DOWN: no longer served (-EOPNOTSUPP); a
 *   login's session ends with SESSION_DOWN.
 *
 * L2TPSEL_CMD_DEST_LOCK                      (do, admin)
 *   req: REMOTE, LOCKOUT_REMAINING (ms, 0..86400000); opt: PORT, LOCAL.
 *   Lock out by hand (an LNS going into maintenance) every destination with
 *   that remote address, narrowed by PORT and LOCAL when given, for the
 *   given time; 0 unlocks them.  Not counted as a failure.
 *   reply: N_LOCKED (destinations changed).  -ENOENT when none matches.
 *
 * Drain (S-OPS-1): a drained tunnel, or any tunnel to a drained
 * destination, takes no new login; its sessions stay and end as they
 * would.  Selection passes it over as it passes over a full tunnel: the
 * login goes to the next eligible tunnel of the level, then down the
 * levels.  A drain is not a lockout and not a failure (no event, no
 * ATTEMPTS, no FAILURES); a login that attempts nothing because all it
 * could take is drained ends with WHY L2TPSEL_WHY_DRAINED.  TUNNEL_GET
 * and DEST_GET (and a step's tunnel) carry DRAIN u8, the bits of enum
 * l2tpsel_drain, 0 when not drained.
 * L2TPSEL_CMD_TUNNEL_DRAIN                   (do, admin)
 *   req: NAME, PROFILE, DRAIN u8 (1 drain, 0 end the drain).  -EPERM on a
 *   login's own tunnel set ("~N").
 * L2TPSEL_CMD_DEST_DRAIN                     (do, admin)
 *   req: REMOTE, DRAIN u8; opt: PORT, LOCAL.  Every destination with that
 *   remote address, narrowed by PORT and LOCAL when given, in every profile
 *   and tunnel set.  The mark lives as long as the destination: one that no
 *   tunnel names any more is forgotten.
 *   reply: N_DESTS (destinations matched).  -ENOENT when none matches.
 *
 * Events: L2TPSEL_CMD_EV_LOCKOUT (REMOTE, PORT, LOCAL, LOCKOUT_REMAINING:
 * the lockout length in ms) when a destination is locked out;
 * L2TPSEL_CMD_EV_UNLOCK (REMOTE, PORT, LOCAL, UNLOCK_WHY u8, enum
 * l2tpsel_unlock) when a lockout ends: expired (sent by a per-namespace
 * timer at the deadline), cleared, or unlocked by the walk (S-SEL-8/9);
 * L2TPSEL_CMD_EV_LOGIN (LOGIN_ID, PROFILE, OK, WHY, NAME of the tunnel on
 * success) when a login held for an agent ends.
 *
 * Rate limiting and throttling of signalling (SPEC §5, reference 004)
 * -------------------------------------------------------------------
 * A rate limit is a named token bucket (RL_RATE requests per second, RL_BURST
 * deep, full when created) with a match and an action.  The agent asks the
 * kernel with RL_CHECK before it acts on an incoming SCCRQ or ICRQ (LNS
 * role), a subscriber login or a PPPoE PADI or PADR (LAC role), and before
 * it sends an attempt toward an LNS (LAC role).  Documentation/ratelimit.md has the examples.
 *
 * The match: RL_DIR (enum l2tpsel_rl_dir), RL_MSG (enum l2tpsel_rl_msg; ANY
 * matches every message of the direction) and at most one key:
 *   ingress SCCRQ / ICRQ (LNS role): RL_PEER (the peer's Host Name) or
 *                                    REMOTE (the peer's address);
 *   ingress LOGIN (LAC role):        DOMAIN or PROFILE;
 *   ingress PPPOE (LAC role):        RL_PEER (the access interface's name);
 *   ingress ANY:                     any of the four;
 *   egress ATTEMPT / ANY:            REMOTE (+ PORT: the destination, PORT
 *                                    absent = any port) or PROFILE.
 * No key matches every request of that direction and message type (one
 * bucket shared by all of them).  Several limits may have the same match
 * (a short burst limit beside a long-term one): a request needs them all.
 *
 * L2TPSEL_CMD_RL_NEW                         (do, admin)
 *   req: NAME (1..63 bytes), RL_RATE u32 (1..10000000), RL_BURST u32
 *        (1..1000000)
 *   opt: RL_DIR u8 (default INGRESS), RL_MSG u8 (default ANY), the key,
 *        RL_ACTION u8 (enum l2tpsel_rl_action, default REJECT),
 *        RESULT_CODE u16 (default 2, "general error"), ERROR_CODE u16
 *        (default 4, "insufficient resources"), RL_MESSAGE (0..127 bytes,
 *        default "rate limit exceeded"; the Result Code AVP's message),
 *        RL_THROTTLE (a throttle profile's name: the limit is throttled by
 *        it, S-RL-3; without one it never is).
 *   At most 1024 limits per namespace (-ENOSPC).  -EEXIST for a taken NAME.
 * L2TPSEL_CMD_RL_SET                         (do, admin)
 *   req: NAME; opt: RL_RATE, RL_BURST, RL_ACTION, RESULT_CODE, ERROR_CODE,
 *   RL_MESSAGE, RL_THROTTLE ("" = none), RL_RESET u8 (1: counters to 0).
 *   Only what is given changes; the bucket keeps what it earned.  The match
 *   cannot change (-EINVAL: delete and add the limit again).
 * L2TPSEL_CMD_RL_DEL                         (do, admin)
 *   req: NAME.
 * L2TPSEL_CMD_RL_GET                         (do with NAME, or dump, admin)
 *   reply: NAME, RL_DIR, RL_MSG, RL_KEY u8 (enum l2tpsel_rl_key) and the key
 *          attribute (RL_PEER, REMOTE [+ PORT], DOMAIN or PROFILE), RL_RATE,
 *          RL_BURST, RL_ACTION, RESULT_CODE, ERROR_CODE, RL_MESSAGE,
 *          RL_THROTTLE (when set), RL_PERCENT u8 (throttle in force),
 *          RL_EFFECTIVE u32 (RL_RATE x (100 - RL_PERCENT) / 100, rounded
 *          down), RL_TOKENS u32 (whole tokens in the bucket now),
 *          RL_PASSED, RL_REJECTED, RL_DROPPED u64 (S-RL-2).
 *
 * L2TPSEL_CMD_RL_CHECK                       (do, admin)
 *   The decision for one request, or RL_COUNT requests at the same instant.
 *   req: RL_DIR, RL_MSG (SCCRQ, ICRQ or LOGIN for INGRESS; ATTEMPT for
 *        EGRESS; not ANY)
 *   opt: every key the agent knows: RL_PEER, REMOTE, PORT (default 1701),
 *        DOMAIN, PROFILE; RL_COUNT u32 (1..10000, default 1).
 *   Every limit whose match fits is consulted, in creation order.  When all
 *   have a token, each gives one and the request passes (RL_PASSED of each
 *   counts it).  Otherwise the first limit without a token decides: it
 *   counts the request as RL_REJECTED or RL_DROPPED by its action, and no
 *   limit gives a token.  No fitting limit: the request passes.
 *   reply: RL_VERDICT u8 (enum l2tpsel_rl_verdict; with RL_COUNT, the last
 *          request's), RL_MATCHED u32 (limits consulted); when refused also
 *          NAME (the deciding limit) and, for REJECT, RESULT_CODE,
 *          ERROR_CODE and RL_MESSAGE: for an SCCRQ the StopCCN to send, for
 *          an ICRQ the CDN, for a login the reason to give the subscriber;
 *          DROP means send nothing.  With RL_COUNT also RL_PASSED,
 *          RL_REJECTED, RL_DROPPED: this call's requests by verdict.
 *   Admin although it changes only counters: it takes tokens.  A large
 *   RL_COUNT is decided in slices between which the namespace's other
 *   requests run (a limit changed meanwhile counts from then on); a fatal
 *   signal ends it with EINTR.
 *
 * A throttle profile (004 "Dynamic Throttling ... Profile", S-RL-3) turns a
 * load metric into a throttle percent through a band table: a load at or
 * above a band's RL_BAND_LOAD (and below the next band's) sets its
 * RL_BAND_PERCENT at once; below the lowest band the throttle loses RL_STEP
 * percentage points after each full RL_HOLD spent there, down to 0.  Every
 * limit naming the profile refills at rate x (100 - percent) / 100.
 *
 * L2TPSEL_CMD_THROTTLE_NEW / _SET            (do, admin)
 *   req: NAME; NEW also requires RL_HOLD u32 (ms, 1..86400000), RL_STEP u8
 *   (1..100) and RL_BANDS (nest of 1..8 RL_BAND: nest of RL_BAND_LOAD u8
 *   1..100 strictly increasing, RL_BAND_PERCENT u8 0..100 never decreasing)
 *   opt: RL_SOURCE u8 (enum l2tpsel_rl_source, default PUSH), RL_PERIOD u32
 *   (CPU sampling period, ms, 100..60000, default 1000).  SET changes only
 *   what it is given (RL_BANDS replaces the whole table); the last load is
 *   judged again against the new bands at once.  At most 64 profiles.
 * L2TPSEL_CMD_THROTTLE_DEL                   (do, admin)
 *   req: NAME.  Refused (-EBUSY) while a limit names it.
 * L2TPSEL_CMD_THROTTLE_GET                   (do with NAME, or dump, admin)
 *   reply: NAME, RL_SOURCE, RL_PERIOD, RL_HOLD, RL_STEP, RL_BANDS, RL_LOAD
 *          u8 (last load), RL_PERCENT (throttle in force), RL_USERS u32
 *          (limits naming it), RL_CHANGES u32 (throttle changes so far),
 *          RL_SAMPLES u32 (loads taken: pushed or sampled)
 * L2TPSEL_CMD_THROTTLE_LOAD                  (do, admin)
 *   req: RL_LOAD u8 (0..100); opt: NAME (default: every PUSH profile).
 *   Push a load sample.  Refused (-EINVAL) for a CPU profile.
 *   reply: RL_CHANGES u32 (profiles whose throttle changed)
 *
 * The CPU source: the module samples the box's CPU use (busy time of the
 * online CPUs from kcpustat over the wall time of the period) every
 * RL_PERIOD from a per-namespace delayed work, which also takes the revert
 * steps at their due time.
 *
 * Event: L2TPSEL_CMD_EV_THROTTLE (NAME, RL_LOAD, RL_PERCENT, RL_USERS) at
 * every change of a profile's throttle percent, whatever caused it (a load
 * pushed or sampled, a revert step, a SET).
 */
#ifndef _UAPI_LINUX_L2TPSEL_H
#define _UAPI_LINUX_L2TPSEL_H

#define L2TPSEL_GENL_NAME	"l2tpsel"
#define L2TPSEL_GENL_VERSION	2
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
	L2TPSEL_CMD_PROFILE_NEW,
	L2TPSEL_CMD_PROFILE_SET,
	L2TPSEL_CMD_PROFILE_DEL,
	L2TPSEL_CMD_PROFILE_GET,
	L2TPSEL_CMD_TUNNEL_NEW,
	L2TPSEL_CMD_TUNNEL_DEL,
	L2TPSEL_CMD_TUNNEL_GET,
	L2TPSEL_CMD_DOMAIN_NEW,
	L2TPSEL_CMD_DOMAIN_DEL,
	L2TPSEL_CMD_DOMAIN_GET,
	L2TPSEL_CMD_DEST_GET,
	L2TPSEL_CMD_LOCKOUT_SET,
	L2TPSEL_CMD_LOCKOUT_GET,
	L2TPSEL_CMD_LOCKOUT_CLEAR,
	L2TPSEL_CMD_LOGIN_BEGIN,
	L2TPSEL_CMD_LOGIN_REPORT,
	L2TPSEL_CMD_LOGIN_TEST,
	L2TPSEL_CMD_EV_LOCKOUT,
	L2TPSEL_CMD_EV_UNLOCK,
	L2TPSEL_CMD_EV_LOGIN,
	L2TPSEL_CMD_TUNNEL_SESSION_DOWN,
	L2TPSEL_CMD_DEST_LOCK,
	L2TPSEL_CMD_RL_NEW,
	L2TPSEL_CMD_RL_SET,
	L2TPSEL_CMD_RL_DEL,
	L2TPSEL_CMD_RL_GET,
	L2TPSEL_CMD_RL_CHECK,
	L2TPSEL_CMD_THROTTLE_NEW,
	L2TPSEL_CMD_THROTTLE_SET,
	L2TPSEL_CMD_THROTTLE_DEL,
	L2TPSEL_CMD_THROTTLE_GET,
	L2TPSEL_CMD_THROTTLE_LOAD,
	L2TPSEL_CMD_EV_THROTTLE,
	L2TPSEL_CMD_TUNNEL_DRAIN,
	L2TPSEL_CMD_DEST_DRAIN,

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
	L2TPSEL_A_PROFILE,		/* NLA_NUL_STRING */
	L2TPSEL_A_FAILOVER,		/* NLA_U8, enum l2tpsel_failover */
	L2TPSEL_A_LB,			/* NLA_U8, enum l2tpsel_lb */
	L2TPSEL_A_FAILOVER_CDN,		/* NLA_U32, bit mask of result codes */
	L2TPSEL_A_FAILOVER_STOPCCN,	/* NLA_U32, bit mask of result codes */
	L2TPSEL_A_N_LEVELS,		/* NLA_U32 */
	L2TPSEL_A_N_DESTS,		/* NLA_U32 */
	L2TPSEL_A_SEL_LEVEL,		/* NLA_U8, preference level 0..7 */
	L2TPSEL_A_REMOTE,		/* NLA_BINARY, 4 or 16 bytes */
	L2TPSEL_A_LOCAL,		/* NLA_BINARY, 4 or 16 bytes */
	L2TPSEL_A_PORT,			/* NLA_U16 */
	L2TPSEL_A_MAX_SESSIONS,		/* NLA_U32 */
	L2TPSEL_A_SECRET,		/* NLA_NUL_STRING, write only */
	L2TPSEL_A_HAS_SECRET,		/* NLA_U8 */
	L2TPSEL_A_SESSIONS,		/* NLA_U32 */
	L2TPSEL_A_DOMAIN,		/* NLA_NUL_STRING */
	L2TPSEL_A_LOCKOUT_TIME,		/* NLA_U32, seconds */
	L2TPSEL_A_LOCKOUT_REMAINING,	/* NLA_U32, ms */
	L2TPSEL_A_ATTEMPTS,		/* NLA_U32 */
	L2TPSEL_A_FAILURES,		/* NLA_U32 */
	L2TPSEL_A_MAX_LOGINS,		/* NLA_U32 */
	L2TPSEL_A_N_LOGINS,		/* NLA_U32 */
	L2TPSEL_A_N_LOCKED,		/* NLA_U32 */
	L2TPSEL_A_LOGIN_ID,		/* NLA_U32 */
	L2TPSEL_A_USER,			/* NLA_NUL_STRING */
	L2TPSEL_A_KEY,			/* NLA_NUL_STRING */
	L2TPSEL_A_PICKS,		/* nest of L2TPSEL_A_NAME */
	L2TPSEL_A_STEP,			/* NLA_U8, enum l2tpsel_step */
	L2TPSEL_A_SETUP,		/* NLA_U8 */
	L2TPSEL_A_SHORTEST,		/* NLA_U8 */
	L2TPSEL_A_OK,			/* NLA_U8 */
	L2TPSEL_A_WHY,			/* NLA_U8, enum l2tpsel_why */
	L2TPSEL_A_OUTCOME,		/* NLA_U8, enum l2tpsel_outcome */
	L2TPSEL_A_STEPS,		/* nest of L2TPSEL_A_STEP_ENTRY */
	L2TPSEL_A_STEP_ENTRY,		/* nest: an ATTEMPT step */
	L2TPSEL_A_N_CANDIDATES,		/* NLA_U32 */
	L2TPSEL_A_UNLOCK_WHY,		/* NLA_U8, enum l2tpsel_unlock */
	L2TPSEL_A_RL_DIR,		/* NLA_U8, enum l2tpsel_rl_dir */
	L2TPSEL_A_RL_MSG,		/* NLA_U8, enum l2tpsel_rl_msg */
	L2TPSEL_A_RL_KEY,		/* NLA_U8, enum l2tpsel_rl_key */
	L2TPSEL_A_RL_PEER,		/* NLA_NUL_STRING, the peer's Host Name */
	L2TPSEL_A_RL_RATE,		/* NLA_U32, requests per second */
	L2TPSEL_A_RL_BURST,		/* NLA_U32, requests */
	L2TPSEL_A_RL_ACTION,		/* NLA_U8, enum l2tpsel_rl_action */
	L2TPSEL_A_RL_MESSAGE,		/* NLA_NUL_STRING, 0..127 bytes */
	L2TPSEL_A_RL_THROTTLE,		/* NLA_NUL_STRING, a throttle profile */
	L2TPSEL_A_RL_RESET,		/* NLA_U8 */
	L2TPSEL_A_RL_PERCENT,		/* NLA_U8, throttle percent */
	L2TPSEL_A_RL_EFFECTIVE,		/* NLA_U32, requests per second */
	L2TPSEL_A_RL_TOKENS,		/* NLA_U32 */
	L2TPSEL_A_RL_PASSED,		/* NLA_U64 */
	L2TPSEL_A_RL_REJECTED,		/* NLA_U64 */
	L2TPSEL_A_RL_DROPPED,		/* NLA_U64 */
	L2TPSEL_A_RL_COUNT,		/* NLA_U32 */
	L2TPSEL_A_RL_VERDICT,		/* NLA_U8, enum l2tpsel_rl_verdict */
	L2TPSEL_A_RL_MATCHED,		/* NLA_U32 */
	L2TPSEL_A_RL_SOURCE,		/* NLA_U8, enum l2tpsel_rl_source */
	L2TPSEL_A_RL_PERIOD,		/* NLA_U32, ms */
	L2TPSEL_A_RL_HOLD,		/* NLA_U32, ms */
	L2TPSEL_A_RL_STEP,		/* NLA_U8, percentage points */
	L2TPSEL_A_RL_BANDS,		/* nest of L2TPSEL_A_RL_BAND */
	L2TPSEL_A_RL_BAND,		/* nest: RL_BAND_LOAD, RL_BAND_PERCENT */
	L2TPSEL_A_RL_BAND_LOAD,		/* NLA_U8, percent */
	L2TPSEL_A_RL_BAND_PERCENT,	/* NLA_U8, percent */
	L2TPSEL_A_RL_LOAD,		/* NLA_U8, percent */
	L2TPSEL_A_RL_USERS,		/* NLA_U32 */
	L2TPSEL_A_RL_CHANGES,		/* NLA_U32 */
	L2TPSEL_A_RL_SAMPLES,		/* NLA_U32 */
	L2TPSEL_A_MORE,			/* NLA_FLAG: the next entry continues this one */
	L2TPSEL_A_TUNNELS,		/* nest of L2TPSEL_A_TUNNEL_ENTRY */
	L2TPSEL_A_TUNNEL_ENTRY,		/* nest: a tunnel of a login's own set */
	L2TPSEL_A_DYNAMIC,		/* NLA_U8 */
	L2TPSEL_A_DETACHED,		/* NLA_FLAG: a session of no socket */
	L2TPSEL_A_RL_ASK,		/* NLA_FLAG: LOGIN_BEGIN/REPORT run the login's rate-limit checks */
	L2TPSEL_A_RL_LOGIN,		/* nest: the login's refusal (RL_VERDICT, NAME, ...) */
	L2TPSEL_A_RL_ATTEMPT,		/* nest: the step's attempt refused (RL_VERDICT, NAME, ...) */
	L2TPSEL_A_IN_FLIGHT,		/* NLA_U32: logins in flight (TUNNEL_GET, DEST_GET) */
	L2TPSEL_A_DRAIN,		/* NLA_U8: set 0/1; GET: enum l2tpsel_drain bits */

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

enum l2tpsel_failover {
	L2TPSEL_FAILOVER_BETWEEN_LEVELS,	/* S-SEL-5, the default */
	L2TPSEL_FAILOVER_WITHIN_LEVEL,		/* S-SEL-6 */
};

enum l2tpsel_lb {
	L2TPSEL_LB_RANDOM,		/* S-LB-1, the default */
	L2TPSEL_LB_WEIGHTED,		/* S-LB-2 */
	L2TPSEL_LB_DEST_EQUAL,		/* S-LB-3 */
	L2TPSEL_LB_HASH,		/* S-LB-4 */
	L2TPSEL_LB_MINMISS_HASH,	/* S-LB-4 */
};

enum l2tpsel_step {
	L2TPSEL_STEP_ATTEMPT = 1,
	L2TPSEL_STEP_DONE = 2,
};

/* How an attempt ended (LOGIN_REPORT). */
enum l2tpsel_outcome {
	L2TPSEL_OUTCOME_OK = 1,		/* session up: the login succeeds */
	L2TPSEL_OUTCOME_NO_REPLY,	/* no SCCRP/ICRP after the last retransmission */
	L2TPSEL_OUTCOME_CDN,		/* CDN during session setup */
	L2TPSEL_OUTCOME_STOPCCN,	/* StopCCN from the LNS */
	L2TPSEL_OUTCOME_CLIENT_GONE,	/* the PPP client went away */
	L2TPSEL_OUTCOME_LOCAL,		/* not attempted for a local reason: no blame */
};

/* Why a login failed (DONE with OK 0). */
enum l2tpsel_why {
	L2TPSEL_WHY_NONE,
	L2TPSEL_WHY_EXHAUSTED,		/* every valid destination tried */
	L2TPSEL_WHY_CDN,
	L2TPSEL_WHY_STOPCCN,
	L2TPSEL_WHY_CLIENT_GONE,
	L2TPSEL_WHY_NO_TUNNELS,		/* the profile is empty */
	L2TPSEL_WHY_PROFILE_CHANGED,	/* changed or deleted during the login */
	L2TPSEL_WHY_RESTARTS,		/* restart bound reached */
	L2TPSEL_WHY_ADMISSION,		/* OK refused by a session limit */
	L2TPSEL_WHY_DRAINED,		/* nothing attempted: every tunnel drained (S-OPS-1) */
};

/* What drains a tunnel or destination (DRAIN in TUNNEL_GET, DEST_GET; S-OPS-1). */
enum l2tpsel_drain {
	L2TPSEL_DRAIN_TUNNEL = 1,	/* the tunnel's own mark (TUNNEL_DRAIN) */
	L2TPSEL_DRAIN_DEST = 2,		/* its destination's (DEST_DRAIN) */
};

/* Why a lockout ended (EV_UNLOCK). */
enum l2tpsel_unlock {
	L2TPSEL_UNLOCK_DLNC = 1,	/* S-SEL-9 */
	L2TPSEL_UNLOCK_SHORTEST,	/* S-SEL-8 */
	L2TPSEL_UNLOCK_CLEAR,		/* S-SEL-11 */
	L2TPSEL_UNLOCK_EXPIRED,		/* its time ran out */
};

/* Rate limits (SPEC §5): where a request is checked. */
enum l2tpsel_rl_dir {
	L2TPSEL_RL_INGRESS,	/* received: SCCRQ, ICRQ (LNS role), login, PPPoE (LAC role) */
	L2TPSEL_RL_EGRESS,	/* about to be sent: an attempt toward an LNS */
};

enum l2tpsel_rl_msg {
	L2TPSEL_RL_MSG_ANY,	/* in a limit: every message of its direction */
	L2TPSEL_RL_MSG_SCCRQ,
	L2TPSEL_RL_MSG_ICRQ,
	L2TPSEL_RL_MSG_LOGIN,
	L2TPSEL_RL_MSG_ATTEMPT,
	L2TPSEL_RL_MSG_PPPOE,	/* a subscriber's PADI or PADR (RFC 2516 section 5) */
};

/* What a limit is keyed on (RL_GET). */
enum l2tpsel_rl_key {
	L2TPSEL_RL_KEY_ANY,	/* every request of the direction and type */
	L2TPSEL_RL_KEY_PEER,	/* RL_PEER */
	L2TPSEL_RL_KEY_ADDRESS,	/* REMOTE, ingress: the peer's address */
	L2TPSEL_RL_KEY_DOMAIN,	/* DOMAIN */
	L2TPSEL_RL_KEY_PROFILE,	/* PROFILE */
	L2TPSEL_RL_KEY_DEST,	/* REMOTE (+ PORT), egress: the destination */
};

enum l2tpsel_rl_action {
	L2TPSEL_RL_REJECT,	/* answer with RESULT_CODE, ERROR_CODE, RL_MESSAGE */
	L2TPSEL_RL_DROP,	/* send nothing */
};

enum l2tpsel_rl_verdict {
	L2TPSEL_RL_PASS,
	L2TPSEL_RL_REJECTED,
	L2TPSEL_RL_DROPPED,
};

enum l2tpsel_rl_source {
	L2TPSEL_RL_SOURCE_PUSH,	/* THROTTLE_LOAD by the operator or the agent */
	L2TPSEL_RL_SOURCE_CPU,	/* the box's CPU use, sampled every RL_PERIOD */
};

#endif /* _UAPI_LINUX_L2TPSEL_H */
