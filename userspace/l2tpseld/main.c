// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld: the L2TPv2 agent (Documentation/l2tpseld.md, l2tpseld.8).
 *
 *   l2tpseld [-c FILE] [-o 'LINE']... [-t]
 *
 * Sockets: the LNS role listens on each "listen" address; every tunnel gets
 * its own UDP socket bound to its local address and port and connected to
 * the peer (the kernel data path needs one socket per tunnel); once the
 * kernel holds it, control messages leave on a second one (tx_socket()).
 * Datagrams are demultiplexed by Tunnel ID whatever socket they arrive on.
 *
 * Secrets: read from the -c file only (never -o: /proc/PID/cmdline); the
 * process is not dumpable and has no core size (it holds them in memory).
 * SIGHUP reads the same -c files and -o lines again (reload()).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "l2d.h"
#include "radius.h"
#include "nl.h"
#include "../../kmod/version.h"


struct listener {
	struct l2d_fd fdw;
	struct l2d_addr addr;
};

static struct l2d *D;
static struct l2d_conf conf;
/* what the configuration was read from, in order: -c FILE (file) or -o LINE */
#define MAX_SOURCES 256
static struct { bool file; const char *text; } sources[MAX_SOURCES];
static unsigned int n_sources;
static struct listener listeners[L2D_MAX_LISTEN];
static unsigned int n_listeners;
static struct l2d_fd sigw;
static uint64_t stop_deadline;

static void set_port(struct l2d_addr *a, uint16_t port)
{
	if (a->ss.ss_family == AF_INET)
		((struct sockaddr_in *)&a->ss)->sin_port = htons(port);
	else
		((struct sockaddr_in6 *)&a->ss)->sin6_port = htons(port);
}

/*
 * At most this many datagrams from one socket per loop turn: the sockets are
 * level-triggered, so the rest waits for the next turn, after the timers
 * (retransmissions, HELLOs, reaping) and the other sockets and the API have
 * had theirs.  A flooded socket cannot starve them.
 */
#define L2D_RX_BURST	64

static void drain(int fd, const struct l2d_addr *fixed_local, uint16_t local_port)
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
		set_port(&local, local_port);
		l2d_input(D, &local, &peer, buf, (size_t)n);
	}
}

static void listener_readable(struct l2d_fd *f, uint32_t events)
{
	struct listener *l = f->arg;

	drain(f->fd, &l->addr, l2d_port(&l->addr));
}

static void tunnel_readable(struct l2d_fd *f, uint32_t events)
{
	struct l2d_tunnel *t = f->arg;
	struct l2d_addr local = t->local;

	drain(f->fd, &local, l2d_port(&local));
}

/*
 * Every tunnel has a socket of its own on the listening address and port
 * (the kernel data path needs one per tunnel), so they share the port.
 * SO_REUSEPORT lets only sockets of this effective UID join; SO_REUSEADDR
 * would let any local user bind the same address and port and take new
 * peers' SCCRQs (with ports below 1024 that needs CAP_NET_BIND_SERVICE or
 * a lowered net.ipv4.ip_unprivileged_port_start, as containers have).
 * Unconnected datagrams go to an unconnected member, the listener: the
 * kernel never picks a connected socket from the group for them.
 */
static int udp_socket(int family, const struct l2d_addr *bind_to, bool pktinfo)
{
	int one = 1, fd = socket(family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one)) < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	if (pktinfo) {
		if (family == AF_INET)
			setsockopt(fd, IPPROTO_IP, IP_PKTINFO, &one, sizeof(one));
		else
			setsockopt(fd, IPPROTO_IPV6, IPV6_RECVPKTINFO, &one, sizeof(one));
	}
	if (bind(fd, (const struct sockaddr *)&bind_to->ss, bind_to->len) < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	return fd;
}

static int env_tunnel_open(struct l2d *d, struct l2d_tunnel *t)
{
	struct l2d_addr local = t->local;
	char a[64];
	int fd;

	if (!local.ss.ss_family) {
		memset(&local, 0, sizeof(local));
		local.ss.ss_family = t->peer.ss.ss_family;
		local.len = t->peer.len;
	}
	if (t->own_port)
		set_port(&local, 0);	/* an LNS answering from a port of its own */
	else if (!l2d_port(&local))
		set_port(&local, d->conf->port);
	/*
	 * A LAC's socket stays unconnected until the SCCRP, which may come from
	 * another port (RFC 2661 section 8.1); meanwhile it may receive what
	 * is meant for the listener, hence the destination address (pktinfo).
	 */
	fd = udp_socket(t->peer.ss.ss_family, &local, t->initiator);
	if (fd >= 0 && !t->initiator && connect(fd, (const struct sockaddr *)&t->peer.ss, t->peer.len) < 0) {
		int e = -errno;

		close(fd);
		fd = e;
	}
	if (fd < 0) {
		l2d_addr_str(&local, a, sizeof(a), true);
		l2d_log(d, L2D_LOG_ERR, "tunnel socket on %s: %s", a, strerror(-fd));
		return fd;
	}
	t->bound = local;
	t->connected = !t->initiator;
	t->local.len = sizeof(t->local.ss);
	getsockname(fd, (struct sockaddr *)&t->local.ss, &t->local.len);
	if (t->own_port)	/* the control socket (tx_socket()) joins that port */
		set_port(&t->bound, l2d_port(&t->local));
	t->fd = fd;
	t->fdw.fd = fd;
	t->fdw.fn = tunnel_readable;
	t->fdw.arg = t;
	if (l2d_fd_add(d->loop, &t->fdw, EPOLLIN)) {
		close(fd);
		t->fd = -1;
		return -1;
	}
	return 0;
}

/*
 * The tunnel's socket to t->peer: a LAC's once the SCCRP said from where the
 * LNS answers, any tunnel's again when its peer's port moved (a NAT).  Under
 * a kernel tunnel too: connect() holds the socket lock, and the kernel's
 * transmit drops what it sends meanwhile (l2tp_xmit_core()).
 */
static int env_tunnel_connect(struct l2d *d, struct l2d_tunnel *t)
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

static void env_tunnel_close(struct l2d *d, struct l2d_tunnel *t)
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
 * wildcard), it is in the same lookup slot and SO_REUSEPORT group, where
 * the connected socket matches more of the 4-tuple and keeps the tunnel's
 * datagrams; bound to the specific address it would take them all (the
 * kernel looks there first).  A stray datagram it gets (a new peer's
 * SCCRQ) is handled as on any socket, with the address it reached
 * (IP_PKTINFO).  The source address is set per message (IP_PKTINFO) to the
 * one the tunnel's socket uses.
 */
static int tx_socket(struct l2d *d, struct l2d_tunnel *t)
{
	char a[64];
	int fd = udp_socket(t->bound.ss.ss_family, &t->bound, true);

	if (fd < 0) {
		l2d_addr_str(&t->bound, a, sizeof(a), true);
		l2d_log(d, L2D_LOG_ERR, "tunnel %u: control socket on %s: %s", t->tid, a,
			strerror(-fd));
		return -1;
	}
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
static int env_send(struct l2d *d, struct l2d_tunnel *t, const uint8_t *buf, size_t len)
{
	if (t->fd < 0)
		return -EBADF;
	/* kept until the tunnel closes: the kernel may still hold the socket */
	if (t->txfd < 0 && t->dp_added && tx_socket(d, t))
		return -EMFILE;
	if (t->txfd < 0 && !t->connected)
		return sendto(t->fd, buf, len, MSG_DONTWAIT, (const struct sockaddr *)&t->peer.ss,
			      t->peer.len) < 0 ? -errno : 0;
	if (t->txfd < 0)
		return send(t->fd, buf, len, MSG_DONTWAIT) < 0 ? -errno : 0;
	return tx_send(t, buf, len);
}

/*
 * Tunnel and session ids, challenges and tie breakers: without a working
 * random source the agent cannot go on, and must not spin.  An interrupted
 * call is retried; any other failure ends the agent with a message (its
 * pppd, kernel tunnels and the module's counts go with it).
 */
/* getrandom() into @buf, all of it, or exit: nothing goes on without random numbers. */
static void fill_random(struct l2d *d, uint8_t *p, size_t len)
{
	while (len) {
		ssize_t n = getrandom(p, len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			l2d_log(d, L2D_LOG_ERR, "getrandom: %s: no random numbers, exiting",
				n < 0 ? strerror(errno) : "returned nothing");
			exit(1);
		}
		p += n;
		len -= (size_t)n;
	}
}

/*
 * Random numbers (IDs, session keys, challenges) come from a pool of the
 * kernel's, refilled a block at a time: one getrandom() per many logins, not
 * one per request.  Each byte is handed out once.
 */
static void env_random(struct l2d *d, void *buf, size_t len)
{
	static uint8_t pool[512];
	static size_t left;

	if (len > sizeof(pool)) {
		fill_random(d, buf, len);
		return;
	}
	if (len > left) {
		fill_random(d, pool, sizeof(pool));
		left = sizeof(pool);
	}
	memcpy(buf, pool + sizeof(pool) - left, len);
	memset(pool + sizeof(pool) - left, 0, len);
	left -= len;
}

static const struct l2d_env env = {
	.tunnel_open = env_tunnel_open,
	.tunnel_close = env_tunnel_close,
	.tunnel_connect = env_tunnel_connect,
	.send = env_send,
	.login_event = l2d_api_login_event,
	.random = env_random,
};

/* Read the sources again into @c and check it: 0, or -1 with @err. */
static int conf_read(struct l2d_conf *c, char *err, size_t errlen)
{
	char msg[400];
	unsigned int i;

	l2d_conf_defaults(c);
	for (i = 0; i < n_sources; i++) {
		if (sources[i].file) {
			if (l2d_conf_file(c, sources[i].text, err, errlen))
				return -1;
		} else if (l2d_conf_line(c, sources[i].text, msg, sizeof(msg))) {
			snprintf(err, errlen, "-o: %s", msg);
			return -1;
		}
	}
	return l2d_conf_check(c, err, errlen);
}

/*
 * SIGHUP: everything that can change under running tunnels does so (secrets,
 * timers, retries, limits, rate limiting, LNS policy, pppd options, log
 * level; tunnels and sessions already up keep what they were set up with);
 * sockets, identity, kernel and data path keep their running values until
 * a restart (l2d_conf_reload).  A configuration that does not read or
 * check is not taken: the running one stays, and the log says why.
 */
static void reload(void)
{
	static struct l2d_conf fresh;
	char err[512], kept[256];

	if (conf_read(&fresh, err, sizeof(err))) {
		l2d_log(D, L2D_LOG_ERR, "SIGHUP: configuration not reloaded, the running one stays: %s",
			err);
		return;
	}
	l2d_conf_reload(&conf, &fresh, kept, sizeof(kept));
	l2d_lns_acct_open(D);
	D->log_level = conf.log_level;
	l2d_log(D, L2D_LOG_ERR, "SIGHUP: configuration reloaded%s%s",
		kept[0] ? "; changed but kept until a restart: " : "", kept);
}

static void signal_readable(struct l2d_fd *f, uint32_t events)
{
	struct signalfd_siginfo si;

	while (read(f->fd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo == SIGCHLD) {
			int status;
			pid_t pid;

			while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
				l2d_dp_child_exit(D, pid, status);
		} else if (si.ssi_signo == SIGHUP) {
			if (!D->shutting_down)
				reload();
		} else if (!D->shutting_down) {
			l2d_log(D, L2D_LOG_INFO, "signal %u: StopCCN to every tunnel, exiting", si.ssi_signo);
			l2d_access_shutdown(D);
			l2d_shutdown(D);
			stop_deadline = l2d_now(D->loop) + 1000;
		} else {
			D->loop->stop = true;
		}
	}
}

static void usage(void)
{
	printf("Usage: l2tpseld [-c FILE] [-o 'LINE']... [-t] [-h] [-V]\n"
	       "  -c, --config FILE   configuration file (Documentation/l2tpseld.md)\n"
	       "  -o, --option LINE   one configuration line, after the file (repeatable)\n"
	       "  -t, --check         check the configuration and exit\n"
	       "  -h, --help          this text\n"
	       "  -V, --version       the version\n"
	       "Examples: l2tpseld -c /etc/l2tpsel/l2tpseld.conf\n"
	       "          l2tpseld -o 'kernel none' -o 'listen 127.0.0.1' -o 'socket none'\n");
}

/*
 * A login storm holds one API connection per login in progress and a
 * socket per tunnel: take the hard limit on descriptors, not the soft 1024
 * that systemd and shells give.
 */
static void raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur >= rl.rlim_max)
		return;
	rl.rlim_cur = rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		fprintf(stderr, "l2tpseld: cannot raise the descriptor limit: %s\n", strerror(errno));
}

int main(int argc, char **argv)
{
	struct l2d_loop loop;
	struct rlimit nocore = { 0, 0 };
	char err[512];
	sigset_t ss;
	bool check_only = false;
	unsigned int i, n_secrets;
	int opt, ret;

	/*
	 * Log lines are written a turn of the loop at a time (the loop flushes
	 * before it waits), not one write() each: a storm of logins writes
	 * thousands a second.
	 */
	setvbuf(stderr, NULL, _IOFBF, 1 << 16);
	/* secrets are read below: no core file, no ptrace by other users */
	if (setrlimit(RLIMIT_CORE, &nocore) || prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)) {
		fprintf(stderr, "l2tpseld: turning core dumps off: %s\n", strerror(errno));
		return 1;
	}
	l2d_conf_defaults(&conf);
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "option", required_argument, NULL, 'o' },
		{ "check", no_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};

	while ((opt = getopt_long(argc, argv, "c:o:thV", longopts, NULL)) != -1) {
		if ((opt == 'c' || opt == 'o') && n_sources == MAX_SOURCES) {
			fprintf(stderr, "l2tpseld: more than %d -c and -o options\n", MAX_SOURCES);
			return 1;
		}
		switch (opt) {
		case 'c':
			if (l2d_conf_file(&conf, optarg, err, sizeof(err))) {
				fprintf(stderr, "l2tpseld: %s\n", err);
				return 1;
			}
			sources[n_sources].file = true;
			sources[n_sources++].text = optarg;
			break;
		case 'o':
			/* the message names the keyword, never the line: it may hold a secret */
			n_secrets = l2d_conf_n_secrets(&conf);
			if (l2d_conf_line(&conf, optarg, err, sizeof(err))) {
				fprintf(stderr, "l2tpseld: -o: %s\n", err);
				return 1;
			}
			if (l2d_conf_n_secrets(&conf) != n_secrets) {
				fprintf(stderr, "l2tpseld: -o: secrets are refused on the command line "
					"(every local user reads /proc/PID/cmdline): put the secret line in "
					"the -c file (mode 0600) or a pipe (-c <(...))\n");
				return 1;
			}
			sources[n_sources].file = false;
			sources[n_sources++].text = optarg;
			break;
		case 't':
			check_only = true;
			break;
		case 'h':
			usage();
			return 0;
		case 'V':
			printf("l2tpseld %s\n", L2TPSEL_VERSION);
			return 0;
		default:
			fprintf(stderr, "l2tpseld: -h or --help lists the options\n");
			return 1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "l2tpseld: unexpected argument \"%s\"\n", argv[optind]);
		return 1;
	}
	if (l2d_conf_check(&conf, err, sizeof(err))) {
		fprintf(stderr, "l2tpseld: %s\n", err);
		return 1;
	}
	if (check_only)
		return 0;
	raise_nofile();
	if (conf.netns[0] && (ret = l2s_netns_enter(conf.netns))) {
		fprintf(stderr, "l2tpseld: netns %s: %s\n", conf.netns, strerror(-ret));
		return 1;
	}
	if ((ret = l2d_loop_init(&loop, true))) {
		fprintf(stderr, "l2tpseld: epoll: %s\n", strerror(-ret));
		return 1;
	}
	D = calloc(1, sizeof(*D));
	if (!D)
		return 1;
	l2d_init(D, &conf, &loop, &env, conf.kernel == L2D_KERNEL_NONE ? &l2d_kops_core : &l2d_kops_netlink);
	if (conf.kernel == L2D_KERNEL_NETLINK && l2d_knl_open(D, err, sizeof(err))) {
		fprintf(stderr, "l2tpseld: %s (\"kernel none\" runs without the module)\n", err);
		return 1;
	}
	if (conf.dataplane == L2D_DP_KERNEL && l2d_dp_glue_open(D, err, sizeof(err))) {
		fprintf(stderr, "l2tpseld: %s\n", err);
		return 1;
	}
	if (l2d_radius_open(D, err, sizeof(err)) || l2d_access_open(D, err, sizeof(err)) ||
	    l2d_das_open(D, err, sizeof(err))) {
		fprintf(stderr, "l2tpseld: %s\n", err);
		return 1;
	}
	l2d_lns_acct_open(D);
	for (i = 0; i < conf.n_listen; i++) {
		struct listener *l = &listeners[n_listeners];
		char a[64];
		int fd;

		memcpy(&l->addr.ss, &conf.listen[i], sizeof(conf.listen[i]));
		l->addr.len = conf.listen_len[i];
		fd = udp_socket(l->addr.ss.ss_family, &l->addr, true);
		if (fd < 0) {
			l2d_addr_str(&l->addr, a, sizeof(a), true);
			fprintf(stderr, "l2tpseld: listen %s: %s\n", a, strerror(-fd));
			return 1;
		}
		l->fdw.fd = fd;
		l->fdw.fn = listener_readable;
		l->fdw.arg = l;
		l2d_fd_add(&loop, &l->fdw, EPOLLIN);
		n_listeners++;
	}
	if (conf.socket_path[0] && l2d_api_open(D, conf.socket_path, err, sizeof(err))) {
		fprintf(stderr, "l2tpseld: %s\n", err);
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&ss);
	sigaddset(&ss, SIGTERM);
	sigaddset(&ss, SIGINT);
	sigaddset(&ss, SIGCHLD);
	sigaddset(&ss, SIGHUP);
	sigprocmask(SIG_BLOCK, &ss, NULL);
	sigw.fd = signalfd(-1, &ss, SFD_NONBLOCK | SFD_CLOEXEC);
	sigw.fn = signal_readable;
	l2d_fd_add(&loop, &sigw, EPOLLIN);
	l2d_log(D, L2D_LOG_INFO, "started: kernel %s, dataplane %s, %u listen, api %s, agent-id %u",
		D->kops->name, conf.dataplane == L2D_DP_KERNEL ? "kernel" : "none", n_listeners,
		conf.socket_path[0] ? conf.socket_path : "none", conf.agent_id);

	while (!loop.stop) {
		/* what the last turn wrote goes out before the agent waits */
		l2d_api_flush();
		fflush(stderr);
		ret = l2d_loop_once(&loop, stop_deadline ? 100 : -1);
		if (ret)
			break;
		/* stopping: until the tunnels are closed and the accounting Stops taken */
		if (stop_deadline && ((!D->n_tunnels && !l2d_radius_pending(D)) ||
				      l2d_now(&loop) >= stop_deadline))
			break;
	}
	l2d_api_close();
	l2d_das_close(D);
	l2d_access_close(D);
	l2d_radius_close(D);
	l2d_fini(D);
	l2d_dp_glue_close(D);
	for (i = 0; i < n_listeners; i++)
		close(listeners[i].fdw.fd);
	l2d_loop_fini(&loop);
	free(D);
	return 0;
}
