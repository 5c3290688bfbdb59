/* SPDX-License-Identifier: GPL-2.0 */
/*
 * l2tpseld's data-path handoff (S-L2TP-5): once the control plane has set up a
 * tunnel and a session, the kernel carries the PPP frames, never the agent.
 *
 *   udp_fd (the tunnel's connected UDP socket, owned by the agent)
 *     -> l2d_dp_tunnel_add()   kernel L2TPv2 tunnel, UDP encapsulation on udp_fd
 *     -> l2d_dp_session_add()  kernel session, pseudowire type PPP
 *     -> l2d_dp_ppp_open()     PPPoL2TP socket connected to that session
 *     -> l2d_dp_pppd_start()   pppd with the pppol2tp plugin on that socket
 *
 * The kernel's own "l2tp" generic-netlink family (linux/l2tp.h) does the
 * work; its family id is resolved once, in l2d_dp_open().
 *
 * Control messages keep arriving on udp_fd after l2d_dp_tunnel_add(): the
 * kernel passes every packet with the T bit (and data for sessions it does
 * not know) up to the socket.  Each kernel tunnel needs a socket of its own
 * (-EBUSY otherwise, also after l2d_dp_tunnel_del: the socket stays marked
 * as a tunnel's until it is closed), and on the Debian 6.1 kernel two tunnels
 * must not share a local/remote address and port pair: the data packets of
 * all of them reach one socket.
 *
 * Lifetimes, as the 6.1 kernel has them:
 *   - closing the last descriptor of a PPPoL2TP socket (ours and pppd's)
 *     deletes its kernel session;
 *   - deleting a tunnel deletes its sessions; closing its UDP socket deletes
 *     the tunnel;
 *   so after a crash nothing is left in the kernel but orphaned pppd
 *   processes, whose channel is gone.
 *
 * Errors: every function returns 0 (or a descriptor / pid) on success and a
 * negative errno on failure, and leaves a sentence saying what was being done
 * and why it failed (strerror, plus the kernel's extack message when it sent
 * one) in l2d_dp_strerror(dp).  The handle is not thread-safe; the agent's
 * single event loop owns it.
 */
#ifndef L2D_DP_H
#define L2D_DP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct l2d_dp;

/*
 * Open a generic-netlink socket (close-on-exec) and resolve the "l2tp"
 * family (asking for it makes the kernel load l2tp_netlink).  On failure
 * *dpp is NULL and @err (if not NULL) holds the reason.
 */
int l2d_dp_open(struct l2d_dp **dpp, char *err, size_t errlen);
void l2d_dp_close(struct l2d_dp *dp);

/* The last failure's sentence ("" if none yet). */
const char *l2d_dp_strerror(const struct l2d_dp *dp);

/*
 * Kernel L2TPv2 tunnel @tid (peer's id @peer_tid) using the agent's UDP socket
 * @udp_fd (connected to the peer, IPv4 or IPv6).  The socket stays the
 * agent's: it keeps receiving control messages and must outlive the tunnel.
 * -EEXIST: tunnel id in use; -EBUSY: the socket already carries a tunnel;
 * -ENOTSOCK/-EPROTONOSUPPORT: @udp_fd is not a UDP socket.
 */
int l2d_dp_tunnel_add(struct l2d_dp *dp, int udp_fd, uint16_t tid, uint16_t peer_tid);

/* Delete tunnel @tid and all its sessions.  -ENOENT: no such tunnel. */
int l2d_dp_tunnel_del(struct l2d_dp *dp, uint16_t tid);

/*
 * Kernel session @sid (peer's id @peer_sid) of pseudowire type PPP in tunnel
 * @tid.  @peer_tid is checked against nothing by the kernel (the tunnel knows
 * its peer); it is only used in messages.  @seq: data messages carry
 * sequence numbers both ways (RFC 2661 section 4.4.6, the kernel's SEND_SEQ
 * and RECV_SEQ).  -ENOENT: no such tunnel; -EEXIST: session id in use in
 * that tunnel.
 */
int l2d_dp_session_add(struct l2d_dp *dp, uint16_t tid, uint16_t sid,
		       uint16_t peer_tid, uint16_t peer_sid, bool seq);

/* Delete session @sid of tunnel @tid.  -ENOENT: no such session (already gone). */
int l2d_dp_session_del(struct l2d_dp *dp, uint16_t tid, uint16_t sid);

/*
 * A PPPoL2TP socket (close-on-exec, non-blocking) connected to session @sid of
 * tunnel @tid.  The session should exist (l2d_dp_session_add); if it does
 * not, the kernel creates it.  Returns the descriptor, or -errno: -ENOENT no
 * such tunnel, -EEXIST the session already has a PPPoL2TP socket,
 * -EAFNOSUPPORT l2tp_ppp is not loaded and could not be.
 */
int l2d_dp_ppp_open(struct l2d_dp *dp, int udp_fd, uint16_t tid, uint16_t sid,
		    uint16_t peer_tid, uint16_t peer_sid);

/* How to run pppd on a PPPoL2TP socket.  Zeroed fields take the defaults. */
struct l2d_pppd_opts {
	const char *pppd;	/* executable; default "/usr/sbin/pppd" */
	const char *plugin;	/* default "pppol2tp.so" (pppd's plugin dir) */
	bool lns;		/* LNS mode (pppol2tp_lns_mode auth); else dialer (LAC) mode */
	uint16_t tid, sid;	/* pppol2tp_tunnel_id / _session_id (for pppd's logs) */
	uint16_t mru;		/* "mru N" before the options file (which may say otherwise); 0 none */
	const char *optfile;	/* "file PATH": the profile's pppd options */
	const char *ifname;	/* "ifname NAME" (pppd >= 2.4.8) */
	bool has_unit;		/* "unit N": ask for interface pppN */
	int unit;
	const char *user;	/* "user NAME" (dialer mode) */
	const char *ipparam;	/* "ipparam STR" (handed to ip-up scripts) */
	const char *logfile;	/* "logfile PATH" */
	const char *const *extra; /* more arguments, NULL-terminated */
	int out_fd;		/* pppd's stdout and stderr; -1 or 0: /dev/null */
	const char *plugin2;	/* "plugin PATH" after the pppol2tp arguments; NULL none */
	const void *in_data;	/* pppd's stdin: a pipe holding these bytes (at most */
	size_t in_len;		/* PIPE_BUF); NULL: /dev/null */
};

/*
 * Fork and exec pppd on @ppp_fd (which must stay open in the caller until
 * pppd has started; closing the caller's copy afterwards is fine): arguments
 * `plugin PLUGIN pppol2tp FD [pppol2tp_lns_mode auth] pppol2tp_tunnel_id T
 * pppol2tp_session_id S [plugin PLUGIN2] nodetach [file ..] [ifname ..] [unit ..] [user ..]
 * [ipparam ..] [logfile ..] EXTRA...`.  The child starts with every other
 * descriptor closed, an empty signal mask and default signal dispositions, in
 * a session of its own.  Returns pppd's pid (the caller reaps it), or -errno
 * if the fork failed.  A failed exec shows as exit status 127.
 */
pid_t l2d_dp_pppd_start(struct l2d_dp *dp, int ppp_fd, const struct l2d_pppd_opts *o);

/*
 * SIGTERM pppd @pid.  With @wait_ms > 0, wait up to that long for it to exit,
 * then SIGKILL it, and reap it; *status (if not NULL) gets its wait status.
 * With @wait_ms == 0, only signal it (the caller's SIGCHLD handling reaps).
 * Returns 0, -ESRCH if it was already gone, -ETIMEDOUT if it needed SIGKILL.
 */
int l2d_dp_pppd_stop(struct l2d_dp *dp, pid_t pid, int wait_ms, int *status);

/* One kernel L2TP tunnel or session, as a dump returns it. */
struct l2d_dp_obj {
	uint32_t tid, peer_tid;
	uint32_t sid, peer_sid;	/* 0 for a tunnel */
	uint8_t proto_version;	/* tunnels */
	uint16_t pw_type;	/* sessions: L2TP_PWTYPE_* */
	bool send_seq, recv_seq;	/* sessions: data sequencing */
	char ifname[32];	/* sessions: the kernel's interface name, if any */
};

/*
 * Call @cb for each kernel tunnel (@sessions false) or session (true) of this
 * network namespace (l2tpsel-dptest's listing and checks).
 * A non-zero return from @cb stops the walk and is returned.
 */
int l2d_dp_dump(struct l2d_dp *dp, bool sessions,
		int (*cb)(const struct l2d_dp_obj *obj, void *arg), void *arg);

#endif
