// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld's L2TP sockets (the tunnel hooks of struct l2d_env; main.c
 * wires them, the unit tests drive them on loopback).
 *
 * Every tunnel has a UDP socket of its own bound to its local address and
 * port and connected to the peer: the kernel data path needs one per
 * tunnel, and a connected socket gets only its peer's datagrams.  Once the
 * kernel holds it, control messages leave on a second socket bound to the
 * same address and port (tx_socket()), so the peer sees control and data
 * from one address and port.  Datagrams are demultiplexed by Tunnel ID
 * whatever socket they arrive on.
 *
 * Ports (S-SEC-5, S-SEC-9):
 * - LNS tunnels share their listen port with the listener (SO_REUSEPORT,
 *   which takes only sockets of this effective UID; SO_REUSEADDR is never
 *   set, so no other user's socket can bind an address and port that
 *   overlaps one of ours, wildcards included).
 * - LAC tunnels leave from a port the kernel picks (lac-port 0; RFC 2661
 *   section 8.1 lets the initiator choose its source port and the LNS
 *   answers to it), as does an LNS tunnel answering from a port of its
 *   own: a port no socket held, so no local user can have taken it first.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "l2d.h"
#include "sock.h"
#include "tunnel.h"

void l2d_set_port(struct l2d_addr *a, uint16_t port)
{
	if (a->ss.ss_family == AF_INET)
		((struct sockaddr_in *)&a->ss)->sin_port = htons(port);
	else if (a->ss.ss_family == AF_INET6)
		((struct sockaddr_in6 *)&a->ss)->sin6_port = htons(port);
}

/*
 * At most this many datagrams from one socket per loop turn: the sockets are
 * level-triggered, so the rest waits for the next turn, after the timers
 * (retransmissions, HELLOs, reaping) and the other sockets and the API have
 * had theirs.  A flooded socket cannot starve them.
 */
#define L2D_RX_BURST	64

void l2d_sock_drain(struct l2d *d, int fd, const struct l2d_addr *fixed_local, uint16_t local_port)
{
	static uint8_t buf[4096];
	unsigned int burst;

	for (burst = 0; burst < L2D_RX_BURST; burst++) {
		struct l2d_addr peer = { .len = sizeof(peer.ss) }, local;
		char cbuf[256];
		struct iovec iov = { buf, sizeof(buf) };
		struct msghdr mh = {
			.msg_name = &peer.ss, .msg_namelen = sizeof(peer.ss),
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
		};
		struct cmsghdr *cm;
		ssize_t n = recvmsg(fd, &mh, MSG_DONTWAIT);

		if (n < 0)
			return;
		peer.len = mh.msg_namelen;
		local = *fixed_local;
		for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
			if (cm->cmsg_level == IPPROTO_IP && cm->cmsg_type == IP_PKTINFO) {
				struct in_pktinfo pi;
				struct sockaddr_in *s = (struct sockaddr_in *)&local.ss;

				memcpy(&pi, CMSG_DATA(cm), sizeof(pi));
				memset(&local, 0, sizeof(local));
				s->sin_family = AF_INET;
				s->sin_addr = pi.ipi_addr;
				local.len = sizeof(*s);
			} else if (cm->cmsg_level == IPPROTO_IPV6 && cm->cmsg_type == IPV6_PKTINFO) {
				struct in6_pktinfo pi;
				struct sockaddr_in6 *s = (struct sockaddr_in6 *)&local.ss;

				memcpy(&pi, CMSG_DATA(cm), sizeof(pi));
				memset(&local, 0, sizeof(local));
				s->sin6_family = AF_INET6;
				s->sin6_addr = pi.ipi6_addr;
				local.len = sizeof(*s);
			}
		}
		l2d_set_port(&local, local_port);
		l2d_input(d, &local, &peer, buf, (size_t)n);
	}
}

static void tunnel_readable(struct l2d_fd *f, uint32_t events)
{
	struct l2d_tunnel *t = f->arg;
	struct l2d_addr local = t->local;

	l2d_sock_drain(t->d, f->fd, &local, l2d_port(&local));
}

/*
 * A UDP socket bound to @bind_to.  At a fixed port, SO_REUSEPORT is set
 * before the bind: the socket joins the group of ours there (a tunnel's
 * socket the listener's; with ports below 1024 another user would need
 * CAP_NET_BIND_SERVICE or a lowered net.ipv4.ip_unprivileged_port_start,
 * as containers have, but the UID check keeps them out at any port).
 * Unconnected datagrams go to an unconnected member, the listener: the
 * kernel never picks a connected socket from the group for them.
 *
 * At port 0 it is set after the bind: with it set before, the kernel's
 * choice may fall on a port another socket of ours holds (a reuseport
 * group of the same UID does not count as taken), and two kernel tunnels
 * on one 4-tuple black-hole data.  Without it the kernel takes a port no
 * socket holds.  Set afterwards, it lets the tunnel's control socket
 * (tx_socket()) join that port.
 */
int l2d_udp_socket(int family, const struct l2d_addr *bind_to, bool pktinfo, uint32_t rcvbuf)
{
	int one = 1, fd = socket(family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	bool ephemeral = !l2d_port(bind_to);

	if (fd < 0)
		return -errno;
	l2d_sock_rcvbuf(fd, rcvbuf);
	if (!ephemeral && setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one)) < 0)
		goto fail;
	if (pktinfo) {
		if (family == AF_INET)
			setsockopt(fd, IPPROTO_IP, IP_PKTINFO, &one, sizeof(one));
		else
			setsockopt(fd, IPPROTO_IPV6, IPV6_RECVPKTINFO, &one, sizeof(one));
	}
	if (bind(fd, (const struct sockaddr *)&bind_to->ss, bind_to->len) < 0)
		goto fail;
	if (ephemeral && setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one)) < 0)
		goto fail;
	return fd;
fail:
	one = -errno;
	close(fd);
	return one;
}

/*
 * The socket for a tunnel's control messages once its UDP socket carries a
 * kernel tunnel: another one, bound to the same address and port, not
 * connected.  A send() on the kernel's socket would race the kernel's own
 * transmit over the socket's route cache: udp_sendmsg() checks and resets
 * it with atomic exchanges, while l2tp_xmit_core() -> ip_queue_xmit() (and
 * inet6_csk_xmit()) use __sk_dst_check() under the socket spinlock only, so
 * an obsolete route (any address or route change bumps the generation) can
 * be released twice: "dst_release underflow", a use-after-free (Linux 6.1;
 * l2tpsel-dptest dstrace shows it).  IPv6 checks the socket's cache even
 * for a send with an address, so only a second socket avoids it.
 *
 * Bound to the same address as the tunnel's socket (a wildcard stays a
 * wildcard) and port (t->bound: the one the kernel picked when it did), it
 * is in the same lookup slot and SO_REUSEPORT group, where the connected
 * socket matches more of the 4-tuple and keeps the tunnel's datagrams;
 * bound to the specific address it would take them all (the kernel looks
 * there first).  A stray datagram it gets (a new peer's SCCRQ) is handled
 * as on any socket, with the address it reached (IP_PKTINFO).  The source
 * address is set per message (IP_PKTINFO) to the one the tunnel's socket
 * uses.
 */
/*
 * "tunnel-df" (S-MTU-1): the outer DF bit of what a tunnel's sockets send.
 * clear: IP_PMTUDISC_DONT, DF never set, a router on a narrower path
 * fragments; set: IP_PMTUDISC_DO, DF set, the sender fragments nothing;
 * kernel: the socket's default (net.ipv4.ip_no_pmtu_disc, normally DF set
 * and fragments where the path MTU learnt asks).  The kernel's L2TP
 * transmit marks every data packet ignore_df (l2tp_xmit_queue(), Linux
 * 6.1): its DF bit is clear, and one larger than the route's MTU is
 * fragmented by the LAC, whatever is asked here.  The setting governs the
 * control messages; an MRU that fits the path (access.c, mtu.h) keeps
 * data packets from needing fragments at all.
 */
static void tunnel_df(struct l2d *d, int fd, int family)
{
	int v4[] = { IP_PMTUDISC_DONT, IP_PMTUDISC_DO };
	int v6[] = { IPV6_PMTUDISC_DONT, IPV6_PMTUDISC_DO };
	enum l2d_tunnel_df df = d->conf->tunnel_df;
	int r;

	if (df == L2D_DF_KERNEL)
		return;
	if (family == AF_INET6)
		r = setsockopt(fd, IPPROTO_IPV6, IPV6_MTU_DISCOVER, &v6[df == L2D_DF_SET], sizeof(int));
	else
		r = setsockopt(fd, IPPROTO_IP, IP_MTU_DISCOVER, &v4[df == L2D_DF_SET], sizeof(int));
	if (r < 0)
		l2d_log(d, L2D_LOG_ERR, "tunnel socket: IP_MTU_DISCOVER: %s", strerror(errno));
}

static int tx_socket(struct l2d *d, struct l2d_tunnel *t)
{
	char a[64];
	int fd = l2d_udp_socket(t->bound.ss.ss_family, &t->bound, true, d->conf->sock_rcvbuf);

	if (fd < 0) {
		l2d_addr_str(&t->bound, a, sizeof(a), true);
		l2d_log(d, L2D_LOG_ERR, "tunnel %u: control socket on %s: %s", t->tid, a,
			strerror(-fd));
		return -1;
	}
	tunnel_df(d, fd, t->bound.ss.ss_family);
	t->txw.fd = fd;
	t->txw.fn = tunnel_readable;
	t->txw.arg = t;
	if (l2d_fd_add(d->loop, &t->txw, EPOLLIN)) {
		close(fd);
		return -1;
	}
	t->txfd = fd;
	return 0;
}

int l2d_sock_tunnel_open(struct l2d *d, struct l2d_tunnel *t)
{
	struct l2d_addr local = t->local, got;
	char a[64];
	int fd;

	if (!local.ss.ss_family) {
		memset(&local, 0, sizeof(local));
		local.ss.ss_family = t->peer.ss.ss_family;
		local.len = t->peer.len;
	}
	if (t->own_port)
		l2d_set_port(&local, 0);	/* an LNS answering from a port of its own */
	else if (t->initiator)
		l2d_set_port(&local, d->conf->lac_port);	/* 0: the kernel's choice */
	else if (!l2d_port(&local))
		l2d_set_port(&local, d->conf->port);
	/*
	 * A LAC's socket stays unconnected until the SCCRP, which may come from
	 * another port (RFC 2661 section 8.1); meanwhile it may receive what
	 * is meant for the listener, hence the destination address (pktinfo).
	 */
	fd = l2d_udp_socket(t->peer.ss.ss_family, &local, t->initiator, d->conf->sock_rcvbuf);
	if (fd < 0) {
		l2d_addr_str(&local, a, sizeof(a), true);
		l2d_log(d, L2D_LOG_ERR, "tunnel %u: socket on %s: %s%s", t->tid, a, strerror(-fd),
			fd == -EADDRINUSE && t->initiator ?
			" (another socket holds lac-port; lac-port 0 lets the kernel choose)" : "");
		return fd;
	}
	tunnel_df(d, fd, t->peer.ss.ss_family);
	got.len = sizeof(got.ss);
	getsockname(fd, (struct sockaddr *)&got.ss, &got.len);
	t->bound = local;
	l2d_set_port(&t->bound, l2d_port(&got));
	t->fd = fd;
	t->fdw.fd = fd;
	t->fdw.fn = tunnel_readable;
	t->fdw.arg = t;
	t->local = got;
	if (l2d_fd_add(d->loop, &t->fdw, EPOLLIN))
		goto fail;
	/*
	 * At a port the kernel picked, the control socket joins it now, before
	 * the tunnel's socket is connected: connect() marks the SO_REUSEPORT
	 * group as holding a connected socket only when there is a group then,
	 * and without that mark the kernel hands every datagram to the
	 * group's unconnected member (udp4_lib_lookup2(): no rescoring), the
	 * control socket, and the kernel tunnel gets no data.
	 */
	if (!l2d_port(&local) && tx_socket(d, t))
		goto fail;
	if (!t->initiator && connect(fd, (const struct sockaddr *)&t->peer.ss, t->peer.len) < 0) {
		l2d_addr_str(&t->peer, a, sizeof(a), true);
		l2d_log(d, L2D_LOG_ERR, "tunnel %u: connect to %s: %s", t->tid, a, strerror(errno));
		goto fail;
	}
	t->connected = !t->initiator;
	t->local.len = sizeof(t->local.ss);
	getsockname(fd, (struct sockaddr *)&t->local.ss, &t->local.len);
	return 0;
fail:
	l2d_sock_tunnel_close(d, t);
	return -1;
}

/*
 * The tunnel's socket to t->peer: a LAC's once the SCCRP said from where the
 * LNS answers, any tunnel's again when its peer's port moved (a NAT).  Under
 * a kernel tunnel too: connect() holds the socket lock, and the kernel's
 * transmit drops what it sends meanwhile (l2tp_xmit_core()).
 */
int l2d_sock_tunnel_connect(struct l2d *d, struct l2d_tunnel *t)
{
	char a[64];

	if (t->fd < 0)
		return 0;
	if (connect(t->fd, (const struct sockaddr *)&t->peer.ss, t->peer.len) < 0) {
		l2d_addr_str(&t->peer, a, sizeof(a), true);
		l2d_log(d, L2D_LOG_ERR, "tunnel %u: connect to %s: %s", t->tid, a, strerror(errno));
		return -1;
	}
	t->connected = true;
	/* the source address the route picked, for the kernel tunnel and the records */
	t->local.len = sizeof(t->local.ss);
	getsockname(t->fd, (struct sockaddr *)&t->local.ss, &t->local.len);
	return 0;
}

/*
 * S-OPS-2: the sockets of a tunnel handed over across execve() (snap.c):
 * each must be a UDP socket (a number the snapshot got wrong is refused,
 * never read as something else), close-on-exec again, in the loop.
 */
static int adopt_fd(struct l2d *d, struct l2d_tunnel *t, int fd, struct l2d_fd *w)
{
	int type = 0;
	socklen_t len = sizeof(type);

	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) || type != SOCK_DGRAM) {
		l2d_log(d, L2D_LOG_ERR, "tunnel %u: descriptor %d is not a UDP socket", t->tid, fd);
		return -1;
	}
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	w->fd = fd;
	w->fn = tunnel_readable;
	w->arg = t;
	return l2d_fd_add(d->loop, w, EPOLLIN) ? -1 : 0;
}

int l2d_sock_tunnel_adopt(struct l2d *d, struct l2d_tunnel *t)
{
	if (t->fd < 0 || adopt_fd(d, t, t->fd, &t->fdw))
		return -1;
	if (t->txfd >= 0 && adopt_fd(d, t, t->txfd, &t->txw)) {
		l2d_fd_del(d->loop, &t->fdw);
		return -1;
	}
	return 0;
}

void l2d_sock_tunnel_close(struct l2d *d, struct l2d_tunnel *t)
{
	if (t->txfd >= 0) {
		l2d_fd_del(d->loop, &t->txw);
		close(t->txfd);
		t->txfd = -1;
	}
	if (t->fd < 0)
		return;
	l2d_fd_del(d->loop, &t->fdw);
	close(t->fd);
	t->fd = -1;
}

static int tx_send(struct l2d_tunnel *t, const uint8_t *buf, size_t len)
{
	union {
		char b[CMSG_SPACE(sizeof(struct in6_pktinfo))];
		struct cmsghdr align;
	} cb;
	struct iovec iov = { (void *)buf, len };
	struct msghdr mh = {
		.msg_name = &t->peer.ss, .msg_namelen = t->peer.len,
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cb.b,
	};
	struct cmsghdr *cm = (struct cmsghdr *)cb.b;

	memset(&cb, 0, sizeof(cb));
	if (t->local.ss.ss_family == AF_INET) {
		struct in_pktinfo pi = {
			.ipi_spec_dst = ((struct sockaddr_in *)&t->local.ss)->sin_addr,
		};

		cm->cmsg_level = IPPROTO_IP;
		cm->cmsg_type = IP_PKTINFO;
		cm->cmsg_len = CMSG_LEN(sizeof(pi));
		memcpy(CMSG_DATA(cm), &pi, sizeof(pi));
		mh.msg_controllen = CMSG_SPACE(sizeof(pi));
	} else {
		const struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&t->local.ss;
		struct in6_pktinfo pi = { .ipi6_addr = s6->sin6_addr,
					  .ipi6_ifindex = s6->sin6_scope_id };

		cm->cmsg_level = IPPROTO_IPV6;
		cm->cmsg_type = IPV6_PKTINFO;
		cm->cmsg_len = CMSG_LEN(sizeof(pi));
		memcpy(CMSG_DATA(cm), &pi, sizeof(pi));
		mh.msg_controllen = CMSG_SPACE(sizeof(pi));
	}
	return sendmsg(t->txfd, &mh, MSG_DONTWAIT) < 0 ? -errno : 0;
}

/* 0, or -errno: tunnel.c tells a local failure from a lost datagram. */
int l2d_sock_send(struct l2d *d, struct l2d_tunnel *t, const uint8_t *buf, size_t len)
{
	if (t->fd < 0)
		return -EBADF;
	/* kept until the tunnel closes: the kernel may still hold the socket */
	if (t->txfd < 0 && t->dp_added && tx_socket(d, t))
		return -EMFILE;
	if (t->txfd >= 0)
		return tx_send(t, buf, len);
	if (!t->connected)
		return sendto(t->fd, buf, len, MSG_DONTWAIT, (const struct sockaddr *)&t->peer.ss,
			      t->peer.len) < 0 ? -errno : 0;
	return send(t->fd, buf, len, MSG_DONTWAIT) < 0 ? -errno : 0;
}
