// SPDX-License-Identifier: GPL-2.0
/*
 * The access role's fake kernel (fakes.h says what each call does), one
 * copy for its unit tests and its fuzz target.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <linux/if_packet.h>
#include <linux/if_pppox.h>
#include <linux/ppp-ioctl.h>

#include "fakes.h"

struct fake_kernel fake_kernel;

static int peers[FAKE_MAX_PEERS];
static unsigned int n_peers;
static int peer_of[FAKE_MAX_FD];
/* a PPPoX socket or /dev/ppp: its last close waits for a grace period */
static bool slow_close[FAKE_MAX_FD];

int __real_socket(int domain, int type, int proto);
int __real_connect(int fd, const struct sockaddr *addr, socklen_t len);
int __real_ioctl(int fd, unsigned long req, ...);
int __real_open(const char *path, int flags, ...);
ssize_t __real_sendto(int fd, const void *buf, size_t len, int flags, const struct sockaddr *to,
		      socklen_t tolen);

int __real_close(int fd);
int __wrap_close(int fd);
void __wrap_l2d_offload_close(struct l2d_offload *o, int fd, int fd2, l2d_job_done done, void *arg);
int __wrap_socket(int domain, int type, int proto);
int __wrap_connect(int fd, const struct sockaddr *addr, socklen_t len);
int __wrap_ioctl(int fd, unsigned long req, ...);
int __wrap_open(const char *path, int flags, ...);
ssize_t __wrap_sendto(int fd, const void *buf, size_t len, int flags, const struct sockaddr *to,
		      socklen_t tolen);
struct l2d_job *__wrap_l2d_offload_submit(struct l2d_offload *o, enum l2d_job_class cls, int fd,
					  l2d_job_work work, l2d_job_done done, void *arg);

uint64_t fake_now_ms;

uint64_t fake_clock(void *ctx)
{
	return fake_now_ms;
}

static void fake_random(struct l2d *d, void *buf, size_t len)
{
	static uint32_t x = 5;
	uint8_t *p = buf;

	while (len--)
		*p++ = (uint8_t)((x = x * 1103515245u + 12345u) >> 16);
}

static int fake_send(struct l2d *d, struct l2d_tunnel *t, const uint8_t *buf, size_t len)
{
	return 0;	/* the LNS never answers */
}

static int fake_tunnel_open(struct l2d *d, struct l2d_tunnel *t)
{
	return 0;
}

const struct l2d_env fake_env = {
	.send = fake_send, .tunnel_open = fake_tunnel_open, .random = fake_random,
};

int fake_pair(void)
{
	int sv[2];

	if (n_peers == FAKE_MAX_PEERS ||
	    socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv))
		return -1;
	if (sv[0] >= FAKE_MAX_FD) {
		close(sv[0]);
		close(sv[1]);
		errno = EMFILE;
		return -1;
	}
	peer_of[sv[0]] = sv[1];
	peers[n_peers++] = sv[1];
	return sv[0];
}

int fake_peer_of(int fd)
{
	return fd >= 0 && fd < FAKE_MAX_FD && peer_of[fd] ? peer_of[fd] : -1;
}

void fake_reset(void)
{
	unsigned int i;

	for (i = 0; i < n_peers; i++)
		close(peers[i]);
	n_peers = 0;
	memset(peer_of, 0, sizeof(peer_of));
	memset(slow_close, 0, sizeof(slow_close));
	memset(&fake_kernel, 0, sizeof(fake_kernel));
}

size_t fake_put_tag(uint8_t *b, size_t o, uint16_t type, const void *v, size_t len)
{
	b[o] = (uint8_t)(type >> 8);
	b[o + 1] = (uint8_t)type;
	b[o + 2] = (uint8_t)(len >> 8);
	b[o + 3] = (uint8_t)len;
	memcpy(b + o + 4, v, len);
	return o + 4 + len;
}

struct acc *fake_access_up(struct l2d *d)
{
	char err[128];
	struct acc *a = acc_new(d, err, sizeof(err));

	if (!a)
		return NULL;
	acc_if_init(&a->ifs[0], a, &d->conf->access[0]);
	a->ifs[0].ifindex = 7;
	a->n_ifs = 1;
	d->actx = a;
	d->aops = &acc_ops;
	return a;
}

/* the kernel's PPPoE session socket: any socket will do, nothing reads it */
int __wrap_socket(int domain, int type, int proto)
{
	int fd;

	if (domain != AF_PPPOX)
		return __real_socket(domain, type, proto);
	fd = __real_socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && fd < FAKE_MAX_FD)
		slow_close[fd] = true;
	return fd;
}

/* @fd's close, counted in @count when it stands for a slow one */
static int count_close(int fd, unsigned int *count)
{
	if (fd >= 0 && fd < FAKE_MAX_FD && slow_close[fd]) {
		slow_close[fd] = false;
		(*count)++;
	}
	return __real_close(fd);
}

int __wrap_close(int fd)
{
	return count_close(fd, &fake_kernel.closed_inline);
}

void __wrap_l2d_offload_close(struct l2d_offload *o, int fd, int fd2, l2d_job_done done, void *arg)
{
	if (fd >= 0)
		count_close(fd, &fake_kernel.closed_offload);
	if (fd2 >= 0)
		count_close(fd2, &fake_kernel.closed_offload);
	if (done)
		done(arg, 0);
}

int __wrap_connect(int fd, const struct sockaddr *addr, socklen_t len)
{
	if (addr && addr->sa_family == AF_PPPOX)
		return 0;
	return __real_connect(fd, addr, len);
}

int __wrap_ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	switch (req) {
	case PPPIOCGCHAN:
		*(int *)arg = 1;
		return 0;
	case PPPIOCBRIDGECHAN:
		fake_kernel.bridges++;
		return 0;
	case PPPIOCATTCHAN:
		return 0;
	default:
		return __real_ioctl(fd, req, arg);
	}
}

/* /dev/ppp: one end of a datagram socketpair, the other the test's */
int __wrap_open(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode = 0;
	int fd;

	if (!strcmp(path, "/dev/ppp")) {
		fd = fake_pair();
		if (fd >= 0)
			slow_close[fd] = true;
		return fd;
	}
	if (flags & (O_CREAT | O_TMPFILE)) {
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	return __real_open(path, flags, mode);
}

ssize_t __wrap_sendto(int fd, const void *buf, size_t len, int flags, const struct sockaddr *to,
		      socklen_t tolen)
{
	struct fake_kernel *k = &fake_kernel;
	const uint8_t *b = buf;

	if (!to || to->sa_family != AF_PACKET)
		return __real_sendto(fd, buf, len, flags, to, tolen);
	if (len > sizeof(k->last) || len < 2)
		abort();	/* no PPPoE frame is larger, none shorter */
	k->disc++;
	k->pado += b[1] == PPPOE_CODE_PADO;
	k->pads += b[1] == PPPOE_CODE_PADS;
	memcpy(k->last, buf, len);
	k->last_len = len;
	if (b[1] == PPPOE_CODE_PADO) {
		memcpy(k->last_pado, buf, len);
		k->last_pado_len = len;
	}
	return (ssize_t)len;
}

struct l2d_job *__wrap_l2d_offload_submit(struct l2d_offload *o, enum l2d_job_class cls, int fd,
					  l2d_job_work work, l2d_job_done done, void *arg)
{
	return NULL;
}
