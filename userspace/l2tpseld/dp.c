// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld's data-path handoff (S-L2TP-5): the kernel's "l2tp" generic-netlink
 * family, PPPoL2TP sockets and pppd.  Interface and lifetimes: dp.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/l2tp.h>
#include <linux/if_pppox.h>
#include <libmnl/libmnl.h>

#include "dp.h"
#include "nl.h"

#ifndef SOL_PPPOL2TP
#define SOL_PPPOL2TP 273
#endif

struct l2d_dp {
	struct mnl_socket *nl;
	uint16_t family;
	uint32_t seq;
	char ext[160];		/* the kernel's extack message of the last request */
	char err[384];		/* the last failure, as a sentence */
	char buf[16384];	/* >= MNL_SOCKET_BUFFER_SIZE (8 KiB on 4 KiB pages) */
};

/* Record "WHAT: strerror(-rc) (kernel: EXTACK)" and return rc. */
__attribute__((format(printf, 3, 4)))
static int dp_fail(struct l2d_dp *dp, int rc, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	/* A long sentence is cut, never overrun. */
	if (snprintf(dp->err, sizeof(dp->err), dp->ext[0] ? "%s: %s (kernel: %s)" : "%s: %s",
		     what, strerror(-rc), dp->ext) >= (int)sizeof(dp->err))
		dp->err[sizeof(dp->err) - 1] = '\0';
	return rc;
}

const char *l2d_dp_strerror(const struct l2d_dp *dp)
{
	return dp ? dp->err : "no data-path handle";
}

/* --- netlink plumbing --------------------------------------------------- */

static void dp_extack(struct l2d_dp *dp, const struct nlmsghdr *nlh, unsigned int off)
{
	const struct nlattr *a;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	mnl_attr_for_each(a, nlh, off) {
		if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG &&
		    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0) {
			snprintf(dp->ext, sizeof(dp->ext), "%s", mnl_attr_get_str(a));
			return;
		}
	}
}

struct dp_talk {
	struct l2d_dp *dp;
	mnl_cb_t cb;
	void *data;
	int cb_rc;		/* a non-zero return of the caller's callback */
};

static int dp_error_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dp_talk *t = data;
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	unsigned int off = sizeof(*e);

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*e))) {
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += mnl_nlmsg_get_payload_len(&e->msg);
	dp_extack(t->dp, nlh, off);
	if (e->error) {
		errno = -e->error;
		return MNL_CB_ERROR;
	}
	return MNL_CB_STOP;
}

static int dp_done_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dp_talk *t = data;

	if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(int)) {
		int e;

		memcpy(&e, mnl_nlmsg_get_payload(nlh), sizeof(e));
		dp_extack(t->dp, nlh, sizeof(int));
		if (e < 0) {
			errno = -e;
			return MNL_CB_ERROR;
		}
	}
	return MNL_CB_STOP;
}

static int dp_data_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dp_talk *t = data;
	int rc;

	if (!t->cb)
		return MNL_CB_OK;
	rc = t->cb(nlh, t->data);
	if (rc < 0) {
		/* The callback's own verdict, kept apart from netlink errors. */
		t->cb_rc = rc;
		return MNL_CB_STOP;
	}
	return MNL_CB_OK;
}

/* Start a request in dp->buf. */
static struct nlmsghdr *dp_req(struct l2d_dp *dp, uint16_t type, uint8_t cmd,
			       uint8_t version, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(dp->buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++dp->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = version;
	return nlh;
}

/*
 * Send @nlh, run @cb on each reply until the ACK or DONE.  0 or -errno; a
 * negative return of @cb is returned as is.
 */
static int dp_talk(struct l2d_dp *dp, struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	struct dp_talk t = { .dp = dp, .cb = cb, .data = data };
	mnl_cb_t ctl[NLMSG_MIN_TYPE] = {
		[NLMSG_ERROR] = dp_error_cb,
		[NLMSG_DONE] = dp_done_cb,
	};
	unsigned int portid = mnl_socket_get_portid(dp->nl);
	uint32_t seq = nlh->nlmsg_seq;
	ssize_t n;
	int ret;

	dp->ext[0] = '\0';
	if (mnl_socket_sendto(dp->nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		n = mnl_socket_recvfrom(dp->nl, dp->buf, sizeof(dp->buf));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		ret = mnl_cb_run2(dp->buf, (size_t)n, seq, portid, dp_data_cb, &t,
				  ctl, NLMSG_MIN_TYPE);
		if (t.cb_rc)
			return t.cb_rc;
		if (ret == MNL_CB_ERROR)
			return errno ? -errno : -EIO;
		if (ret == MNL_CB_STOP)
			return 0;
	}
}

int l2d_dp_open(struct l2d_dp **dpp, char *err, size_t errlen)
{
	struct l2s_nl_family fam = { 0 };
	struct l2d_dp *dp;
	struct nlmsghdr *nlh;
	int one = 1, rc;

	*dpp = NULL;
	dp = calloc(1, sizeof(*dp));
	if (!dp) {
		if (err)
			snprintf(err, errlen, "allocating the data-path handle: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	dp->nl = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	if (!dp->nl) {
		rc = dp_fail(dp, -errno, "opening a generic netlink socket");
		goto fail;
	}
	mnl_socket_setsockopt(dp->nl, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(dp->nl, NETLINK_CAP_ACK, &one, sizeof(one));
	if (mnl_socket_bind(dp->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		rc = dp_fail(dp, -errno, "binding the generic netlink socket");
		goto fail;
	}
	dp->seq = (uint32_t)time(NULL);

	/* Resolve once per process: asking for a missing family runs modprobe. */
	nlh = l2s_nl_getfamily_req(dp->buf, ++dp->seq, L2TP_GENL_NAME);
	rc = dp_talk(dp, nlh, l2s_nl_family_cb, &fam);
	dp->family = fam.id;
	if (rc == 0 && !dp->family)
		rc = -ENOENT;
	if (rc < 0) {
		dp_fail(dp, rc, "resolving the kernel's \"%s\" generic netlink family%s",
			L2TP_GENL_NAME,
			rc == -ENOENT ? " (is the l2tp_netlink module available?)" : "");
		goto fail;
	}
	dp->err[0] = '\0';
	*dpp = dp;
	return 0;
fail:
	if (err)
		snprintf(err, errlen, "%s", dp->err);
	l2d_dp_close(dp);
	return rc;
}

void l2d_dp_close(struct l2d_dp *dp)
{
	if (!dp)
		return;
	if (dp->nl)
		mnl_socket_close(dp->nl);
	free(dp);
}

/* --- tunnels and sessions ------------------------------------------------ */

/* A clear answer before the kernel's terse one: is @fd a UDP socket at all? */
static int dp_check_udp(struct l2d_dp *dp, int fd, uint16_t tid)
{
	int type = 0, proto = 0;
	socklen_t len = sizeof(type);

	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) < 0)
		return dp_fail(dp, -errno, "creating L2TP tunnel %u: descriptor %d", tid, fd);
	len = sizeof(proto);
	if (getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &proto, &len) < 0)
		return dp_fail(dp, -errno, "creating L2TP tunnel %u: descriptor %d", tid, fd);
	if (type != SOCK_DGRAM || proto != IPPROTO_UDP)
		return dp_fail(dp, -EPROTONOSUPPORT,
			       "creating L2TP tunnel %u: descriptor %d is not a UDP socket (type %d, protocol %d)",
			       tid, fd, type, proto);
	return 0;
}

int l2d_dp_tunnel_add(struct l2d_dp *dp, int udp_fd, uint16_t tid, uint16_t peer_tid)
{
	struct nlmsghdr *nlh;
	int rc;

	if (!tid || !peer_tid)
		return dp_fail(dp, -EINVAL, "creating L2TP tunnel %u (peer %u): tunnel ids must not be 0",
			       tid, peer_tid);
	rc = dp_check_udp(dp, udp_fd, tid);
	if (rc < 0)
		return rc;
	nlh = dp_req(dp, dp->family, L2TP_CMD_TUNNEL_CREATE, L2TP_GENL_VERSION, NLM_F_ACK);
	mnl_attr_put_u32(nlh, L2TP_ATTR_CONN_ID, tid);
	mnl_attr_put_u32(nlh, L2TP_ATTR_PEER_CONN_ID, peer_tid);
	mnl_attr_put_u8(nlh, L2TP_ATTR_PROTO_VERSION, 2);
	mnl_attr_put_u16(nlh, L2TP_ATTR_ENCAP_TYPE, L2TP_ENCAPTYPE_UDP);
	mnl_attr_put_u32(nlh, L2TP_ATTR_FD, (uint32_t)udp_fd);
	rc = dp_talk(dp, nlh, NULL, NULL);
	if (rc < 0)
		return dp_fail(dp, rc, "creating L2TP tunnel %u (peer %u) on UDP socket %d%s",
			       tid, peer_tid, udp_fd,
			       rc == -EEXIST ? " (tunnel id in use)" :
			       rc == -EBUSY ? " (the socket already carries a tunnel)" : "");
	return 0;
}

int l2d_dp_tunnel_del(struct l2d_dp *dp, uint16_t tid)
{
	struct nlmsghdr *nlh;
	int rc;

	nlh = dp_req(dp, dp->family, L2TP_CMD_TUNNEL_DELETE, L2TP_GENL_VERSION, NLM_F_ACK);
	mnl_attr_put_u32(nlh, L2TP_ATTR_CONN_ID, tid);
	rc = dp_talk(dp, nlh, NULL, NULL);
	if (rc == -ENODEV)	/* what 6.1 says for a missing tunnel */
		rc = -ENOENT;
	if (rc < 0)
		return dp_fail(dp, rc, "deleting L2TP tunnel %u%s", tid,
			       rc == -ENOENT ? " (no such tunnel)" : "");
	return 0;
}

int l2d_dp_session_add(struct l2d_dp *dp, uint16_t tid, uint16_t sid,
		       uint16_t peer_tid, uint16_t peer_sid, bool seq)
{
	struct nlmsghdr *nlh;
	int rc;

	if (!tid || !sid || !peer_sid)
		return dp_fail(dp, -EINVAL,
			       "creating L2TP session %u/%u (peer %u/%u): ids must not be 0",
			       tid, sid, peer_tid, peer_sid);
	nlh = dp_req(dp, dp->family, L2TP_CMD_SESSION_CREATE, L2TP_GENL_VERSION, NLM_F_ACK);
	mnl_attr_put_u32(nlh, L2TP_ATTR_CONN_ID, tid);
	mnl_attr_put_u32(nlh, L2TP_ATTR_SESSION_ID, sid);
	mnl_attr_put_u32(nlh, L2TP_ATTR_PEER_SESSION_ID, peer_sid);
	mnl_attr_put_u16(nlh, L2TP_ATTR_PW_TYPE, L2TP_PWTYPE_PPP);
	if (seq) {
		mnl_attr_put_u8(nlh, L2TP_ATTR_SEND_SEQ, 1);
		mnl_attr_put_u8(nlh, L2TP_ATTR_RECV_SEQ, 1);
	}
	rc = dp_talk(dp, nlh, NULL, NULL);
	/* The 6.1 kernel says ENODEV for a missing tunnel: say ENOENT as dp.h does. */
	if (rc == -ENODEV)
		rc = -ENOENT;
	if (rc < 0)
		return dp_fail(dp, rc, "creating PPP session %u in L2TP tunnel %u (peer %u/%u)%s",
			       sid, tid, peer_tid, peer_sid,
			       rc == -ENOENT ? " (no such tunnel)" :
			       rc == -EEXIST ? " (session id in use)" :
			       rc == -EPROTONOSUPPORT ? " (is the l2tp_ppp module available?)" : "");
	return 0;
}

int l2d_dp_session_del(struct l2d_dp *dp, uint16_t tid, uint16_t sid)
{
	struct nlmsghdr *nlh;
	int rc;

	nlh = dp_req(dp, dp->family, L2TP_CMD_SESSION_DELETE, L2TP_GENL_VERSION, NLM_F_ACK);
	mnl_attr_put_u32(nlh, L2TP_ATTR_CONN_ID, tid);
	mnl_attr_put_u32(nlh, L2TP_ATTR_SESSION_ID, sid);
	rc = dp_talk(dp, nlh, NULL, NULL);
	if (rc == -ENODEV)
		rc = -ENOENT;
	if (rc < 0)
		return dp_fail(dp, rc, "deleting session %u of L2TP tunnel %u%s", sid, tid,
			       rc == -ENOENT ? " (no such session)" : "");
	return 0;
}

/* --- dumps --------------------------------------------------------------- */

struct dp_dump {
	int (*cb)(const struct l2d_dp_obj *obj, void *arg);
	void *arg;
};

static int dp_attr_cb(const struct nlattr *a, void *data)
{
	const struct nlattr **tb = data;
	uint16_t type = mnl_attr_get_type(a);
	enum mnl_attr_data_type want;

	switch (type) {
	case L2TP_ATTR_CONN_ID:
	case L2TP_ATTR_PEER_CONN_ID:
	case L2TP_ATTR_SESSION_ID:
	case L2TP_ATTR_PEER_SESSION_ID:
		want = MNL_TYPE_U32;
		break;
	case L2TP_ATTR_PROTO_VERSION:
	case L2TP_ATTR_SEND_SEQ:
	case L2TP_ATTR_RECV_SEQ:
		want = MNL_TYPE_U8;
		break;
	case L2TP_ATTR_PW_TYPE:
		want = MNL_TYPE_U16;
		break;
	case L2TP_ATTR_IFNAME:
		want = MNL_TYPE_NUL_STRING;
		break;
	default:
		return MNL_CB_OK;	/* not read */
	}
	if (mnl_attr_validate(a, want) < 0)
		return MNL_CB_OK;	/* malformed: as if absent */
	tb[type] = a;
	return MNL_CB_OK;
}

static int dp_dump_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TP_ATTR_MAX + 1] = { NULL };
	struct dp_dump *d = data;
	struct l2d_dp_obj o;

	memset(&o, 0, sizeof(o));
	mnl_attr_parse(nlh, sizeof(struct genlmsghdr), dp_attr_cb, tb);
	if (tb[L2TP_ATTR_CONN_ID])
		o.tid = mnl_attr_get_u32(tb[L2TP_ATTR_CONN_ID]);
	if (tb[L2TP_ATTR_PEER_CONN_ID])
		o.peer_tid = mnl_attr_get_u32(tb[L2TP_ATTR_PEER_CONN_ID]);
	if (tb[L2TP_ATTR_SESSION_ID])
		o.sid = mnl_attr_get_u32(tb[L2TP_ATTR_SESSION_ID]);
	if (tb[L2TP_ATTR_PEER_SESSION_ID])
		o.peer_sid = mnl_attr_get_u32(tb[L2TP_ATTR_PEER_SESSION_ID]);
	if (tb[L2TP_ATTR_PROTO_VERSION])
		o.proto_version = mnl_attr_get_u8(tb[L2TP_ATTR_PROTO_VERSION]);
	if (tb[L2TP_ATTR_PW_TYPE])
		o.pw_type = mnl_attr_get_u16(tb[L2TP_ATTR_PW_TYPE]);
	o.send_seq = tb[L2TP_ATTR_SEND_SEQ] && mnl_attr_get_u8(tb[L2TP_ATTR_SEND_SEQ]);
	o.recv_seq = tb[L2TP_ATTR_RECV_SEQ] && mnl_attr_get_u8(tb[L2TP_ATTR_RECV_SEQ]);
	if (tb[L2TP_ATTR_IFNAME])
		snprintf(o.ifname, sizeof(o.ifname), "%s", mnl_attr_get_str(tb[L2TP_ATTR_IFNAME]));
	return d->cb(&o, d->arg);
}

int l2d_dp_dump(struct l2d_dp *dp, bool sessions,
		int (*cb)(const struct l2d_dp_obj *obj, void *arg), void *arg)
{
	struct dp_dump d = { .cb = cb, .arg = arg };
	struct nlmsghdr *nlh;
	int rc;

	nlh = dp_req(dp, dp->family, sessions ? L2TP_CMD_SESSION_GET : L2TP_CMD_TUNNEL_GET,
		     L2TP_GENL_VERSION, NLM_F_DUMP);
	rc = dp_talk(dp, nlh, dp_dump_cb, &d);
	if (rc < 0)
		return dp_fail(dp, rc, "listing the kernel's L2TP %s", sessions ? "sessions" : "tunnels");
	return 0;
}

/* --- PPPoL2TP and pppd ------------------------------------------------------ */

int l2d_dp_ppp_open(struct l2d_dp *dp, int udp_fd, uint16_t tid, uint16_t sid,
		    uint16_t peer_tid, uint16_t peer_sid)
{
	struct sockaddr_pppol2tp sa;
	int fd, rc;

	if (!tid || !sid || !peer_tid || !peer_sid)
		return dp_fail(dp, -EINVAL,
			       "connecting a PPPoL2TP socket to session %u/%u (peer %u/%u): ids must not be 0",
			       tid, sid, peer_tid, peer_sid);
	fd = socket(AF_PPPOX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, PX_PROTO_OL2TP);
	if (fd < 0) {
		rc = -errno;
		return dp_fail(dp, rc, "opening a PPPoL2TP socket%s",
			       rc == -EAFNOSUPPORT || rc == -EPROTONOSUPPORT ?
			       " (are the pppox and l2tp_ppp modules available?)" : "");
	}
	/*
	 * The tunnel exists (l2d_dp_tunnel_add): the kernel takes it by id and
	 * ignores fd and addr; a session id of 0 would make this the legacy
	 * "tunnel management" socket instead.
	 */
	memset(&sa, 0, sizeof(sa));
	sa.sa_family = AF_PPPOX;
	sa.sa_protocol = PX_PROTO_OL2TP;
	sa.pppol2tp.pid = 0;
	sa.pppol2tp.fd = udp_fd;
	sa.pppol2tp.s_tunnel = tid;
	sa.pppol2tp.s_session = sid;
	sa.pppol2tp.d_tunnel = peer_tid;
	sa.pppol2tp.d_session = peer_sid;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		rc = -errno;
		close(fd);
		return dp_fail(dp, rc,
			       "connecting a PPPoL2TP socket to session %u/%u (peer %u/%u, UDP socket %d)%s",
			       tid, sid, peer_tid, peer_sid, udp_fd,
			       rc == -ENOENT ? " (no such tunnel)" :
			       rc == -EEXIST ? " (the session already has a PPPoL2TP socket)" : "");
	}
	return fd;
}

/* Arguments for pppd, in @argv (room for @max entries, NULL-terminated). */
static int dp_pppd_argv(const char **argv, int max, const struct l2d_pppd_opts *o,
			char *fdbuf, char *tidbuf, char *sidbuf, char *unitbuf, char *mrubuf)
{
	int n = 0, i;

#define ARG(s) do { if (n >= max - 1) return -E2BIG; argv[n++] = (s); } while (0)
	ARG(o->pppd && *o->pppd ? o->pppd : "/usr/sbin/pppd");
	ARG("plugin");
	ARG(o->plugin && *o->plugin ? o->plugin : "pppol2tp.so");
	ARG("pppol2tp");
	ARG(fdbuf);
	/*
	 * An LNS authenticates its subscribers: "auth" comes before the
	 * options file and the extra arguments, so only the operator's own
	 * "noauth" there turns it off.
	 */
	if (o->lns) {
		ARG("pppol2tp_lns_mode");
		ARG("auth");
	}
	if (o->tid) {
		ARG("pppol2tp_tunnel_id");
		ARG(tidbuf);
	}
	if (o->sid) {
		ARG("pppol2tp_session_id");
		ARG(sidbuf);
	}
	if (o->plugin2) {
		ARG("plugin");
		ARG(o->plugin2);
	}
	/* The agent tracks the pid it forked: pppd must not fork away. */
	ARG("nodetach");
	if (o->mru) {
		ARG("mru");
		ARG(mrubuf);
	}
	if (o->optfile) {
		ARG("file");
		ARG(o->optfile);
	}
	if (o->ifname) {
		ARG("ifname");
		ARG(o->ifname);
	}
	if (o->has_unit) {
		ARG("unit");
		ARG(unitbuf);
	}
	if (o->user) {
		ARG("user");
		ARG(o->user);
	}
	if (o->ipparam) {
		ARG("ipparam");
		ARG(o->ipparam);
	}
	if (o->logfile) {
		ARG("logfile");
		ARG(o->logfile);
	}
	for (i = 0; o->extra && o->extra[i]; i++)
		ARG(o->extra[i]);
	argv[n] = NULL;
	return n;
#undef ARG
}

/* close_range(lo, hi) for a range that may be empty; 0 or -1. */
static int dp_close_span(unsigned int lo, unsigned int hi)
{
	return lo > hi ? 0 : close_range(lo, hi, 0);
}

/* Close every descriptor from 3 up but @a < @b. */
static void dp_close_others(int a, int b)
{
	int i;

	if (dp_close_span(3, (unsigned int)a - 1) == 0 &&
	    dp_close_span((unsigned int)a + 1, (unsigned int)b - 1) == 0 &&
	    dp_close_span((unsigned int)b + 1, ~0U) == 0)
		return;
	for (i = 3; i < 4096; i++)	/* a kernel without close_range */
		if (i != a && i != b)
			close(i);
}

/* In the child, before exec: only async-signal-safe calls. */
__attribute__((noreturn))
static void dp_pppd_child(const char **argv, int ppp_fd, int out_fd, int in_fd, int report_fd,
			  char *fdbuf, pid_t agent)
{
	struct sigaction dfl;
	sigset_t none;
	int nul, sig, e, i, len;
	char tmp[12];

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	for (sig = 1; sig < NSIG; sig++)
		sigaction(sig, &dfl, NULL);
	setsid();
	/*
	 * pppd ends with the agent, however the agent ends (kill -9 too): its
	 * kernel session goes with the agent's tunnel sockets, and nothing
	 * would tell a pppd without LCP echo that its link is dead.  SIGTERM
	 * lets it run its ip-down script.  The setting survives the exec of
	 * Debian's setuid pppd because the agent runs as root (no privilege
	 * change, no secure exec).  An agent gone before the prctl: exit now.
	 */
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0 || getppid() != agent)
		goto fail;

	/* Keep ppp_fd and out_fd clear of 0..2, which get /dev/null and out_fd. */
	if (ppp_fd <= 2)
		ppp_fd = fcntl(ppp_fd, F_DUPFD_CLOEXEC, 3);
	if (out_fd >= 0 && out_fd <= 2)
		out_fd = fcntl(out_fd, F_DUPFD_CLOEXEC, 3);
	nul = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (ppp_fd < 0 || nul < 0)
		goto fail;
	if (dup2(in_fd > 2 ? in_fd : nul, 0) < 0 || dup2(out_fd > 2 ? out_fd : nul, 1) < 0 ||
	    dup2(out_fd > 2 ? out_fd : nul, 2) < 0)
		goto fail;
	/* Nothing else of the agent's (netlink, epoll, other tunnels) leaks. */
	dp_close_others(ppp_fd < report_fd ? ppp_fd : report_fd,
			ppp_fd < report_fd ? report_fd : ppp_fd);
	if (fcntl(ppp_fd, F_SETFD, 0) < 0)
		goto fail;
	/* The descriptor number goes into the argument "pppol2tp N". */
	len = 0;
	e = ppp_fd;
	do {
		tmp[len++] = (char)('0' + e % 10);
		e /= 10;
	} while (e && len < (int)sizeof(tmp));
	for (i = 0; i < len; i++)
		fdbuf[i] = tmp[len - 1 - i];
	fdbuf[len] = '\0';
	execv(argv[0], (char *const *)argv);
fail:
	e = errno;
	if (write(report_fd, &e, sizeof(e)) < 0)
		_exit(126);
	_exit(127);
}

pid_t l2d_dp_pppd_start(struct l2d_dp *dp, int ppp_fd, const struct l2d_pppd_opts *o)
{
	static const struct l2d_pppd_opts none;
	const char *argv[64];
	char fdbuf[16], tidbuf[8], sidbuf[8], unitbuf[16], mrubuf[8];
	int pipefd[2], infd[2] = { -1, -1 }, e, n, out_fd;
	ssize_t r;
	pid_t pid, agent;

	if (!o)
		o = &none;
	if (fcntl(ppp_fd, F_GETFD) < 0)
		return dp_fail(dp, -errno, "starting pppd on PPPoL2TP socket %d", ppp_fd);
	snprintf(fdbuf, sizeof(fdbuf), "%d", ppp_fd);
	snprintf(tidbuf, sizeof(tidbuf), "%u", o->tid);
	snprintf(sidbuf, sizeof(sidbuf), "%u", o->sid);
	snprintf(unitbuf, sizeof(unitbuf), "%d", o->unit);
	snprintf(mrubuf, sizeof(mrubuf), "%u", o->mru);
	n = dp_pppd_argv(argv, (int)(sizeof(argv) / sizeof(argv[0])), o, fdbuf, tidbuf, sidbuf,
			 unitbuf, mrubuf);
	if (n < 0)
		return dp_fail(dp, n, "starting pppd: more than %zu arguments",
			       sizeof(argv) / sizeof(argv[0]) - 1);
	if (o->has_unit && o->unit < 0)
		return dp_fail(dp, -EINVAL, "starting pppd: unit %d", o->unit);
	out_fd = o->out_fd > 0 ? o->out_fd : -1;

	/*
	 * pppd's stdin: a pipe already holding @in_data and closed for writing
	 * (at most PIPE_BUF bytes: the write neither blocks nor splits).
	 */
	if (o->in_data) {
		if (o->in_len > PIPE_BUF)
			return dp_fail(dp, -EINVAL, "starting pppd: %zu bytes for its stdin", o->in_len);
		if (pipe2(infd, O_CLOEXEC) < 0)
			return dp_fail(dp, -errno, "starting pppd: pipe");
		r = write(infd[1], o->in_data, o->in_len);
		e = errno;
		close(infd[1]);
		if (r != (ssize_t)o->in_len) {
			close(infd[0]);
			return dp_fail(dp, r < 0 ? -e : -EIO, "starting pppd: writing its stdin");
		}
	}
	/* A close-on-exec pipe tells us whether the exec itself worked. */
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		e = -errno;
		if (infd[0] >= 0)
			close(infd[0]);
		return dp_fail(dp, e, "starting pppd: pipe");
	}
	agent = getpid();
	pid = fork();
	if (pid < 0) {
		e = -errno;
		close(pipefd[0]);
		close(pipefd[1]);
		if (infd[0] >= 0)
			close(infd[0]);
		return dp_fail(dp, e, "starting pppd: fork");
	}
	if (pid == 0)
		dp_pppd_child(argv, ppp_fd, out_fd, infd[0], pipefd[1], fdbuf, agent);
	close(pipefd[1]);
	if (infd[0] >= 0)
		close(infd[0]);
	do
		r = read(pipefd[0], &e, sizeof(e));
	while (r < 0 && errno == EINTR);
	close(pipefd[0]);
	if (r == (ssize_t)sizeof(e)) {
		/* The child failed before or at exec: reap it now. */
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		return dp_fail(dp, -e, "starting pppd: executing %s", argv[0]);
	}
	return pid;
}

int l2d_dp_pppd_stop(struct l2d_dp *dp, pid_t pid, int wait_ms, int *status)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	int st = 0, waited = 0, rc = 0;
	pid_t r;

	if (pid <= 0)
		return dp_fail(dp, -EINVAL, "stopping pppd: pid %d", (int)pid);
	if (kill(pid, SIGTERM) < 0)
		return dp_fail(dp, -errno, "stopping pppd %d", (int)pid);
	if (wait_ms <= 0)
		return 0;
	for (;;) {
		r = waitpid(pid, &st, WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno == ECHILD)
			return 0;	/* reaped elsewhere: gone */
		if (r < 0 && errno != EINTR)
			return dp_fail(dp, -errno, "waiting for pppd %d", (int)pid);
		if (waited >= wait_ms) {
			kill(pid, SIGKILL);
			while ((r = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
				;
			rc = dp_fail(dp, -ETIMEDOUT, "stopping pppd %d: still running %d ms after SIGTERM, killed",
				     (int)pid, wait_ms);
			break;
		}
		nanosleep(&tick, NULL);
		waited += 10;
	}
	if (status)
		*status = st;
	return rc;
}
