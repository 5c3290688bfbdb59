// SPDX-License-Identifier: GPL-2.0
/*
 * A crash without loss (S-OPS-2, "fd-store yes"): the descriptors the
 * snapshot names and the snapshot itself are parked in the service
 * manager's file descriptor store (sd_notify(3): FDSTORE=1 with FDNAME=,
 * FDSTOREREMOVE=1; systemd.service(5) FileDescriptorStoreMax=), kept up to
 * date as the agent runs, and handed back to the process restarted after a
 * crash (sd_listen_fds(3): LISTEN_PID, LISTEN_FDS, LISTEN_FDNAMES).
 *
 * The protocol is a datagram with SCM_RIGHTS to $NOTIFY_SOCKET, a dozen
 * lines: written here rather than linking libsystemd for two calls (the
 * agent has no other use for it, and the VM's supervisor speaks the same
 * protocol, selftests/fdstore_sup.py).
 *
 * Names: "fdN" for the descriptor the agent holds as number N (so the
 * snapshot's numbers stay right: a restarted agent moves each one back to
 * N), "snapshot-G" for the snapshot of generation G (a new memfd each time,
 * stored before the previous one is removed: a crash in between leaves
 * both, and the restarted agent takes the newest that reads).
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "fdstore.h"
#include "l2d.h"
#include "snap.h"

struct held {
	bool set;
	dev_t dev;
	ino_t ino;
	uint32_t seen;
};

static struct {
	int sock;
	struct held *byfd;		/* by descriptor number */
	unsigned int cap;
	uint32_t pass;
	uint64_t gen;			/* the stored snapshot's, 0: none */
	uint64_t sig;			/* what the last sync saw */
	uint64_t last_ms;
} S = { .sock = -1 };

static int notify(const char *msg, int fd)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	union {
		char b[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} cb;
	struct iovec iov = { (void *)msg, strlen(msg) };
	struct msghdr mh = { .msg_name = &sa, .msg_iov = &iov, .msg_iovlen = 1 };
	size_t len;

	if (!path || (path[0] != '/' && path[0] != '@') ||
	    (len = strlen(path)) >= sizeof(sa.sun_path))
		return -EINVAL;
	memcpy(sa.sun_path, path, len);
	if (path[0] == '@')
		sa.sun_path[0] = '\0';	/* an abstract address */
	mh.msg_namelen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len);
	if (S.sock < 0)
		S.sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (S.sock < 0)
		return -errno;
	if (fd >= 0) {
		struct cmsghdr *cm;

		mh.msg_control = cb.b;
		mh.msg_controllen = sizeof(cb.b);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	}
	return sendmsg(S.sock, &mh, MSG_NOSIGNAL) < 0 ? -errno : 0;
}

static int store(int fd, const char *name)
{
	char msg[96];

	snprintf(msg, sizeof(msg), "FDSTORE=1\nFDNAME=%s", name);
	return notify(msg, fd);
}

static void unstore(const char *name)
{
	char msg[96];

	snprintf(msg, sizeof(msg), "FDSTOREREMOVE=1\nFDNAME=%s", name);
	notify(msg, -1);
}

static struct held *slot(int fd)
{
	if ((unsigned int)fd >= S.cap) {
		unsigned int cap = S.cap ? S.cap : 256;
		struct held *h;

		while (cap <= (unsigned int)fd)
			cap *= 2;
		h = realloc(S.byfd, cap * sizeof(*h));
		if (!h)
			return NULL;
		memset(h + S.cap, 0, (cap - S.cap) * sizeof(*h));
		S.byfd = h;
		S.cap = cap;
	}
	return &S.byfd[fd];
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/*
 * Across an upgrade's execve() the store keeps its names: the snapshot's
 * generation goes in the environment, so that the new process's first
 * snapshot replaces it rather than leave it there.
 */
void l2d_fdstore_exec(bool going)
{
	char v[24];

	if (!going) {
		unsetenv(L2D_FDSTORE_GEN_ENV);
		return;
	}
	if (!S.gen)
		return;
	snprintf(v, sizeof(v), "%llu", (unsigned long long)S.gen);
	setenv(L2D_FDSTORE_GEN_ENV, v, 1);
}

bool l2d_fdstore_on(const struct l2d *d)
{
	return d->conf->fd_store && getenv("NOTIFY_SOCKET");
}

void l2d_fdstore_sync(struct l2d *d, bool force)
{
	struct l2d_snap_wr w;
	uint64_t now = mono_ms(), sig, gen;
	char name[32];
	unsigned int i;
	int mfd;

	if (!l2d_fdstore_on(d))
		return;
	/* a control message in or out, a tunnel or call more or less: at once;
	 * else once a second (Interim-Update times, the peers' HELLOs) */
	sig = d->stats.rx ^ d->stats.tx << 20 ^ (uint64_t)d->n_tunnels << 40 ^
	      (uint64_t)d->n_sessions << 52;
	if (!force && sig == S.sig && now - S.last_ms < 1000)
		return;
	if (l2d_snap_write(d, &w))
		return;
	S.sig = sig;
	S.last_ms = now;
	/* the descriptors first: the snapshot may name only stored ones */
	S.pass++;
	for (i = 0; i < w.nfds; i++) {
		int fd = w.fds[i];
		struct held *h = slot(fd);
		struct stat st;

		if (!h || fstat(fd, &st))
			continue;
		snprintf(name, sizeof(name), "fd%d", fd);
		if (h->set && (h->dev != st.st_dev || h->ino != st.st_ino)) {
			unstore(name);	/* the number was closed and given again */
			h->set = false;
		}
		if (!h->set) {
			if (store(fd, name))
				continue;
			h->set = true;
			h->dev = st.st_dev;
			h->ino = st.st_ino;
		}
		h->seen = S.pass;
	}
	for (i = 0; i < S.cap; i++)
		if (S.byfd[i].set && S.byfd[i].seen != S.pass) {
			snprintf(name, sizeof(name), "fd%u", i);
			unstore(name);
			S.byfd[i].set = false;
		}
	/* then the snapshot, a new memfd stored before the old one goes */
	mfd = memfd_create("l2tpseld-snapshot", MFD_CLOEXEC);
	if (mfd >= 0 && write(mfd, w.buf, w.len) == (ssize_t)w.len) {
		gen = now > S.gen ? now : S.gen + 1;
		snprintf(name, sizeof(name), "snapshot-%llu", (unsigned long long)gen);
		if (!store(mfd, name)) {
			if (S.gen) {
				snprintf(name, sizeof(name), "snapshot-%llu", (unsigned long long)S.gen);
				unstore(name);
			}
			S.gen = gen;
		}
	}
	if (mfd >= 0)
		close(mfd);
	l2d_snap_wr_free(&w);
}

/* @s is "PREFIX" followed by a decimal number only: that number, else -1. */
static long long num_after(const char *s, size_t n, const char *prefix)
{
	size_t pl = strlen(prefix);
	long long v = 0;
	size_t i;

	if (n <= pl || memcmp(s, prefix, pl) || n - pl > 18)
		return -1;
	for (i = pl; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

void l2d_fdstore_release(void)
{
	char name[32];
	unsigned int i;

	for (i = 0; i < S.cap; i++)
		if (S.byfd[i].set) {
			snprintf(name, sizeof(name), "fd%u", i);
			unstore(name);
			S.byfd[i].set = false;
		}
	if (S.gen) {
		snprintf(name, sizeof(name), "snapshot-%llu", (unsigned long long)S.gen);
		unstore(name);
		S.gen = 0;
	}
}

/*
 * LISTEN_FDNAMES @ln, @n names: each name into @names, fdN to move to N into
 * @want (-1: none), the highest N into *@top; the newest snapshot-G is the
 * index returned (-1: none), G into *@best_gen.  A snapshot this binary
 * refuses is let go with the rest (no restart loop); the others are closed.
 */
static int fd_names(const char *ln, int n, char (*names)[64], int *want, int *top,
		    long long *best_gen)
{
	const char *p = ln ? ln : "";
	int i, best = -1;

	for (i = 0; i < n; i++) {
		const char *e = strchr(p, ':');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		long long v;

		snprintf(names[i], sizeof(names[i]), "%.*s", (int)(l < 63 ? l : 63), p);
		want[i] = -1;
		if ((v = num_after(p, l, "fd")) >= 3 && v < INT32_MAX) {
			want[i] = (int)v;
			if (want[i] > *top)
				*top = want[i];
		} else if ((v = num_after(p, l, "snapshot-")) > *best_gen) {
			*best_gen = v;
			best = i;
		}
		p = e ? e + 1 : p + l;
	}
	return best;
}

/* The snapshot in @fd when l2d_snap_check() takes it (its size in *@len), else NULL. */
static uint8_t *snap_read(int fd, size_t *len)
{
	struct l2d_snap_info si;
	struct stat st;
	char why[256];
	uint8_t *buf;

	if (fstat(fd, &st) || st.st_size <= 0 || !(buf = malloc((size_t)st.st_size)))
		return NULL;
	if (pread(fd, buf, (size_t)st.st_size, 0) != st.st_size ||
	    l2d_snap_check(buf, (size_t)st.st_size, &si, why, sizeof(why))) {
		free(buf);
		return NULL;
	}
	*len = (size_t)st.st_size;
	return buf;
}

uint8_t *l2d_fdstore_take(bool on, size_t *len, char *err, size_t errlen)
{
	const char *lp = getenv("LISTEN_PID"), *lf = getenv("LISTEN_FDS");
	const char *ln = getenv("LISTEN_FDNAMES");
	long long best_gen = -1;
	int best, n, i, top = 0, *tmp, *want;
	char (*names)[64];
	uint8_t *buf = NULL;

	*len = 0;
	err[0] = '\0';
	if (getenv(L2D_FDSTORE_GEN_ENV)) {
		S.gen = strtoull(getenv(L2D_FDSTORE_GEN_ENV), NULL, 10);
		unsetenv(L2D_FDSTORE_GEN_ENV);
	}
	if (!lp || !lf || atoll(lp) != (long long)getpid())
		return NULL;
	n = atoi(lf);
	if (n <= 0 || n > 1 << 20)
		return NULL;
	tmp = calloc((size_t)n, sizeof(*tmp));
	want = calloc((size_t)n, sizeof(*want));
	names = calloc((size_t)n, sizeof(*names));
	if (!tmp || !want || !names) {
		snprintf(err, errlen, "descriptor store: out of memory");
		free(tmp);
		free(want);
		free(names);
		return NULL;
	}
	best = fd_names(ln, n, names, want, &top, &best_gen);
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	unsetenv("LISTEN_FDNAMES");
	if (on && best >= 0 && (buf = snap_read(3 + best, len)))
		S.gen = (uint64_t)best_gen;
	if (!buf)
		snprintf(err, errlen, "descriptor store: %d descriptors, %s; starting afresh", n,
			 !on ? "fd-store is off" : best < 0 ? "no snapshot among them" :
			 "the snapshot unreadable");
	/*
	 * Every descriptor out of the way first, then each to its number.  What
	 * is not taken leaves the store too: a socket kept there would keep its
	 * kernel tunnel, session or the module's counts alive.
	 */
	for (i = 0; i < n; i++) {
		tmp[i] = buf && want[i] >= 0 ? fcntl(3 + i, F_DUPFD_CLOEXEC, top + n + 3) : -1;
		close(3 + i);
		if (tmp[i] < 0 && (!buf || i != best))
			unstore(names[i]);
	}
	for (i = 0; i < n; i++) {
		struct held *h;
		struct stat st;

		if (tmp[i] < 0)
			continue;
		if (dup2(tmp[i], want[i]) == want[i] && !fstat(want[i], &st) &&
		    (h = slot(want[i]))) {
			h->set = true;
			h->dev = st.st_dev;
			h->ino = st.st_ino;
		}
		close(tmp[i]);
	}
	free(tmp);
	free(want);
	free(names);
	return buf;
}
