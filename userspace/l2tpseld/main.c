// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld: the L2TPv2 agent (Documentation/l2tpseld.md, l2tpseld.8).
 *
 *   l2tpseld [-c FILE] [-o 'LINE']... [-t]
 *
 * Sockets: the LNS role listens on each "listen" address; the tunnels'
 * sockets are sock.c's.
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
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../kmod/version.h"
#include "access.h"
#include "api.h"
#include "dataplane_kernel.h"
#include "fdstore.h"
#include "kernel.h"
#include "kernel_netlink.h"
#include "kernel_none.h"
#include "agent.h"
#include "l2d.h"
#include "metrics.h"
#include "nl.h"
#include "radius.h"
#include "snap.h"
#include "sock.h"


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
static char **saved_argv;

static void listener_readable(struct l2d_fd *f, uint32_t events)
{
	struct listener *l = f->arg;

	l2d_sock_drain(D, f->fd, &l->addr, l2d_port(&l->addr));
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
	.tunnel_open = l2d_sock_tunnel_open,
	.tunnel_close = l2d_sock_tunnel_close,
	.tunnel_connect = l2d_sock_tunnel_connect,
	.send = l2d_sock_send,
	.login_event = l2d_api_login_event,
	.random = env_random,
	.tunnel_adopt = l2d_sock_tunnel_adopt,
};

/* The file's own checks, then the core its route lines make (kernel none). */
static int conf_check(struct l2d_conf *c, char *err, size_t errlen)
{
	return l2d_conf_check(c, err, errlen) || l2d_kernel_none_check(c, err, errlen) ? -1 : 0;
}

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
	return conf_check(c, err, errlen);
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
				l2d_dataplane_kernel_child_exit(D, pid, status);
		} else if (si.ssi_signo == SIGHUP) {
			if (!D->shutting_down)
				reload();
		} else if (si.ssi_signo == SIGUSR2) {
			if (!D->shutting_down)
				D->upgrade_asked = true;
		} else if (!D->shutting_down) {
			l2d_log(D, L2D_LOG_INFO, "signal %u: StopCCN to every tunnel, exiting", si.ssi_signo);
			l2d_fdstore_release();
			l2d_access_shutdown(D);
			l2d_shutdown(D);
			stop_deadline = l2d_now(D->loop) + 1000;
		} else {
			D->loop->stop = true;
		}
	}
}

/*
 * The binary to re-execute: the one at the path this process was started
 * from, which a package upgrade has replaced (/proc/self/exe then names the
 * old file, " (deleted)").
 */
static int exe_path(char *buf, size_t len)
{
	static const char deleted[] = " (deleted)";
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	size_t dl = sizeof(deleted) - 1;

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if ((size_t)n > dl && !strcmp(buf + n - dl, deleted))
		buf[n - dl] = '\0';
	return 0;
}

static void set_cloexec(const struct l2d_snap_wr *w, bool on)
{
	unsigned int i;

	for (i = 0; i < w->nfds; i++)
		fcntl(w->fds[i], F_SETFD, on ? FD_CLOEXEC : 0);
}

/*
 * S-OPS-2, upgrade without loss: what is half way ends (l2d_snap_prepare()),
 * the rest goes into a snapshot in a memfd, the descriptors it names lose
 * close-on-exec, and the binary at our path is executed with the same
 * arguments and L2TPSELD_SNAPSHOT naming the memfd.  Every other
 * descriptor (API, listeners, discovery, RADIUS) closes and is opened
 * anew.  When execve() fails the agent goes on with what it kept.
 */
static void upgrade(void)
{
	struct l2d_snap_wr w;
	char path[4096], num[16];
	size_t off;
	int mfd;

	D->upgrade_asked = false;
	if (conf.kernel != L2D_KERNEL_NETLINK) {
		l2d_log(D, L2D_LOG_ERR, "upgrade refused: kernel none counts sessions in this "
			"process; only kernel netlink hands them over");
		return;
	}
	if (exe_path(path, sizeof(path)) || access(path, X_OK)) {
		l2d_log(D, L2D_LOG_ERR, "upgrade refused: no binary to execute at %s: %s",
			path, strerror(errno));
		return;
	}
	l2d_snap_prepare(D);
	/* the closes the workers still owe are made before the snapshot */
	l2d_offload_drain(&D->off);
	if (l2d_snap_write(D, &w)) {
		l2d_log(D, L2D_LOG_ERR, "upgrade refused: snapshot: out of memory");
		return;
	}
	mfd = memfd_create("l2tpseld-snapshot", 0);
	for (off = 0; mfd >= 0 && off < w.len;) {
		ssize_t n = write(mfd, w.buf + off, w.len - off);

		if (n <= 0) {
			close(mfd);
			mfd = -1;
			break;
		}
		off += (size_t)n;
	}
	if (mfd < 0 || lseek(mfd, 0, SEEK_SET)) {
		l2d_log(D, L2D_LOG_ERR, "upgrade refused: snapshot memfd: %s", strerror(errno));
		l2d_snap_wr_free(&w);
		return;
	}
	snprintf(num, sizeof(num), "%d", mfd);
	setenv(L2D_SNAP_ENV, num, 1);
	l2d_fdstore_exec(true);
	set_cloexec(&w, false);
	l2d_log(D, L2D_LOG_INFO, "upgrade: executing %s with a snapshot of %zu bytes, %u "
		"descriptors", path, w.len, w.nfds);
	l2d_api_flush();
	fflush(stderr);
	execv(path, saved_argv);
	l2d_log(D, L2D_LOG_ERR, "upgrade: execv %s: %s; going on", path, strerror(errno));
	set_cloexec(&w, true);
	unsetenv(L2D_SNAP_ENV);
	l2d_fdstore_exec(false);
	close(mfd);
	l2d_snap_wr_free(&w);
}

/*
 * The snapshot an upgrading agent left in the memfd L2TPSELD_SNAPSHOT names
 * (S-OPS-2): read whole, checked, the variable dropped.  NULL without one;
 * exit 1 when it cannot be read or is refused: the message says why.
 */
static uint8_t *snapshot_take(size_t *len, struct l2d_snap_info *si)
{
	const char *var = getenv(L2D_SNAP_ENV);
	char err[512], *end;
	uint8_t *buf = NULL;
	size_t cap = 0;
	long fd;

	*len = 0;
	if (!var)
		return NULL;
	fd = strtol(var, &end, 10);
	if (*end || fd < 0 || fd > INT32_MAX) {
		fprintf(stderr, "l2tpseld: %s=\"%s\" is not a descriptor\n", L2D_SNAP_ENV, var);
		exit(1);
	}
	unsetenv(L2D_SNAP_ENV);
	for (;;) {
		ssize_t n;

		if (*len == cap) {
			uint8_t *b = realloc(buf, cap = cap ? 2 * cap : 65536);

			if (!b) {
				fprintf(stderr, "l2tpseld: snapshot: out of memory\n");
				exit(1);
			}
			buf = b;
		}
		n = read((int)fd, buf + *len, cap - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fprintf(stderr, "l2tpseld: snapshot: reading descriptor %ld: %s\n", fd,
				strerror(errno));
			exit(1);
		}
		if (!n)
			break;
		*len += (size_t)n;
	}
	close((int)fd);
	if (l2d_snap_check(buf, *len, si, err, sizeof(err))) {
		fprintf(stderr, "l2tpseld: %s; the sessions it held end\n", err);
		exit(1);
	}
	if (conf.kernel == L2D_KERNEL_NETLINK && si->knl_fd < 0) {
		fprintf(stderr, "l2tpseld: snapshot refused: no module socket in it, and kernel "
			"netlink configured\n");
		exit(1);
	}
	return buf;
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

/*
 * The command line: -c files and -o lines into conf, then checked.
 * Return: -1 to go on, else the exit code (-h, -V, an error).
 */
static int read_options(int argc, char **argv, bool *check_only)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "option", required_argument, NULL, 'o' },
		{ "check", no_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int n_secrets;
	char err[512];
	int opt;

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
			*check_only = true;
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
	if (conf_check(&conf, err, sizeof(err))) {
		fprintf(stderr, "l2tpseld: %s\n", err);
		return 1;
	}
	return -1;
}

/* A UDP socket on each listen address into the loop.  Return: 0, or -1 (said why). */
static int open_listeners(struct l2d_loop *loop)
{
	unsigned int i;

	for (i = 0; i < conf.n_listen; i++) {
		struct listener *l = &listeners[n_listeners];
		char a[64];
		int fd;

		memcpy(&l->addr.ss, &conf.listen[i], sizeof(conf.listen[i]));
		l->addr.len = conf.listen_len[i];
		fd = l2d_udp_socket(l->addr.ss.ss_family, &l->addr, true, conf.sock_rcvbuf);
		if (fd < 0) {
			l2d_addr_str(&l->addr, a, sizeof(a), true);
			fprintf(stderr, "l2tpseld: listen %s: %s\n", a, strerror(-fd));
			return -1;
		}
		l->fdw.fd = fd;
		l->fdw.fn = listener_readable;
		l->fdw.arg = l;
		l2d_fd_add(loop, &l->fdw, EPOLLIN);
		n_listeners++;
	}
	return 0;
}

/* SIGTERM, SIGINT, SIGCHLD, SIGHUP and SIGUSR2: the loop's (signals_to_loop()). */
static void loop_signals(sigset_t *ss)
{
	sigemptyset(ss);
	sigaddset(ss, SIGTERM);
	sigaddset(ss, SIGINT);
	sigaddset(ss, SIGCHLD);
	sigaddset(ss, SIGHUP);
	sigaddset(ss, SIGUSR2);
}

/*
 * Blocked before anything is opened: a SIGHUP that comes once the API
 * socket is there, before the loop runs, waits for the signalfd instead of
 * ending the agent (SIGHUP's default).
 */
static void block_signals(void)
{
	sigset_t ss;

	signal(SIGPIPE, SIG_IGN);
	loop_signals(&ss);
	sigprocmask(SIG_BLOCK, &ss, NULL);
}

/* The blocked signals, those pending since the start included, read on the loop. */
static void signals_to_loop(struct l2d_loop *loop)
{
	sigset_t ss;

	loop_signals(&ss);
	sigw.fd = signalfd(-1, &ss, SFD_NONBLOCK | SFD_CLOEXEC);
	sigw.fn = signal_readable;
	l2d_fd_add(loop, &sigw, EPOLLIN);
}

/* Turns of the loop until it stops, or a stop's tunnels and accounting are done. */
static void run(struct l2d_loop *loop)
{
	while (!loop->stop) {
		/* what the last turn wrote goes out before the agent waits */
		l2d_api_flush();
		fflush(stderr);
		if (l2d_loop_once(loop, stop_deadline ? 100 : -1))
			break;
		if (D->upgrade_asked) {
			l2d_api_flush();
			upgrade();
		}
		if (!stop_deadline)
			l2d_fdstore_sync(D, false);
		/* stopping: until the tunnels are closed and the accounting Stops taken */
		if (stop_deadline && ((!D->n_tunnels && !l2d_radius_pending(D)) ||
				      l2d_now(loop) >= stop_deadline))
			break;
	}
}

/*
 * The snapshot to adopt into *@snap (NULL: none): an upgrading agent's, or
 * after a crash what the descriptor store kept (fdstore.c).  0, or -1 said.
 */
static int snapshot_get(uint8_t **snap, size_t *len, struct l2d_snap_info *si)
{
	char err[512];

	*snap = snapshot_take(len, si);
	if (*snap) {
		size_t none;

		/* after an upgrade: the store's snapshot generation only */
		free(l2d_fdstore_take(false, &none, err, sizeof(err)));
		return 0;
	}
	*snap = l2d_fdstore_take(conf.fd_store, len, err, sizeof(err));
	if (err[0])
		fprintf(stderr, "l2tpseld: %s\n", err);
	if (*snap && l2d_snap_check(*snap, *len, si, err, sizeof(err))) {
		fprintf(stderr, "l2tpseld: %s\n", err);	/* checked already */
		return -1;
	}
	return 0;
}

/* The module, the data path, RADIUS, access, listeners, API, metrics: 0, or -1 said. */
static int open_all(struct l2d_loop *loop, const struct l2d_snap_info *si)
{
	char err[512];

	if (conf.kernel == L2D_KERNEL_NETLINK &&
	    l2d_kernel_netlink_open(D, si->knl_fd, err, sizeof(err))) {
		fprintf(stderr, "l2tpseld: %s (\"kernel none\" runs without the module)\n", err);
		return -1;
	}
	if ((conf.dataplane == L2D_DP_KERNEL && l2d_dataplane_kernel_open(D, err, sizeof(err))) ||
	    l2d_radius_open(D, err, sizeof(err)) || l2d_access_open(D, err, sizeof(err)) ||
	    l2d_das_open(D, err, sizeof(err)))
		goto fail;
	l2d_lns_acct_open(D);
	if (open_listeners(loop))
		return -1;
	if ((conf.socket_path[0] && l2d_api_open(D, conf.socket_path, err, sizeof(err))) ||
	    l2d_metrics_open(D, err, sizeof(err)))
		goto fail;
	return 0;
fail:
	fprintf(stderr, "l2tpseld: %s\n", err);
	return -1;
}

int main(int argc, char **argv)
{
	struct l2d_loop loop;
	struct l2d_snap_info si = { .knl_fd = -1 };
	uint8_t *snap = NULL;
	size_t snap_len = 0;
	struct rlimit nocore = { 0, 0 };
	char err[512];
	bool check_only = false;
	unsigned int i;
	int ret;

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
	ret = read_options(argc, argv, &check_only);
	if (ret >= 0)
		return ret;
	if (check_only)
		return 0;
	saved_argv = argv;
	block_signals();
	raise_nofile();
	if (snapshot_get(&snap, &snap_len, &si))
		return 1;
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
	l2d_agent_init(D, &conf, &loop, &env,
		       conf.kernel == L2D_KERNEL_NONE ? &l2d_kops_none : &l2d_kops_netlink);
	if (open_all(&loop, &si))
		return 1;
	if (snap) {
		int r = l2d_snap_adopt(D, snap, snap_len, err, sizeof(err));

		free(snap);
		if (r) {
			fprintf(stderr, "l2tpseld: %s; the sessions it held end\n", err);
			l2d_fdstore_release();
			return 1;
		}
	}
	l2d_fdstore_sync(D, true);
	signals_to_loop(&loop);
	l2d_log(D, L2D_LOG_INFO, "started: kernel %s, dataplane %s, %u listen, api %s, agent-id %u",
		D->kops->name, conf.dataplane == L2D_DP_KERNEL ? "kernel" : "none", n_listeners,
		conf.socket_path[0] ? conf.socket_path : "none", conf.agent_id);

	run(&loop);
	l2d_metrics_close();
	l2d_api_close();
	l2d_das_close(D);
	l2d_access_close(D);
	l2d_radius_close(D);
	l2d_fini(D);
	l2d_dataplane_kernel_close(D);
	for (i = 0; i < n_listeners; i++)
		close(listeners[i].fdw.fd);
	l2d_loop_fini(&loop);
	free(D);
	return 0;
}
