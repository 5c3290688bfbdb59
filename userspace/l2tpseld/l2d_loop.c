// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld event loop: epoll plus a binary min-heap of timers.  Every timer
 * is a struct embedded in its owner (tunnel, session, login), so arming and
 * cancelling never allocate except when the heap grows.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "l2d_loop.h"

uint64_t l2d_clock_mono(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

int l2d_loop_init(struct l2d_loop *l, bool epoll)
{
	*l = (struct l2d_loop){ .epfd = -1, .clock = l2d_clock_mono };
	if (epoll) {
		l->epfd = epoll_create1(EPOLL_CLOEXEC);
		if (l->epfd < 0)
			return -errno;
	}
	return 0;
}

void l2d_loop_fini(struct l2d_loop *l)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		l->heap[i]->idx = 0;
	free(l->heap);
	l->heap = NULL;
	l->n = l->cap = 0;
	if (l->epfd >= 0)
		close(l->epfd);
	l->epfd = -1;
}

uint64_t l2d_now(const struct l2d_loop *l)
{
	return l->clock(l->clock_ctx);
}

void l2d_timer_init(struct l2d_timer *t, l2d_timer_fn fn, void *arg)
{
	*t = (struct l2d_timer){ .fn = fn, .arg = arg };
}

static void heap_set(struct l2d_loop *l, unsigned int i, struct l2d_timer *t)
{
	l->heap[i] = t;
	t->idx = i + 1;
}

static void heap_up(struct l2d_loop *l, unsigned int i)
{
	struct l2d_timer *t = l->heap[i];

	while (i) {
		unsigned int p = (i - 1) / 2;

		if (l->heap[p]->when <= t->when)
			break;
		heap_set(l, i, l->heap[p]);
		i = p;
	}
	heap_set(l, i, t);
}

static void heap_down(struct l2d_loop *l, unsigned int i)
{
	struct l2d_timer *t = l->heap[i];

	for (;;) {
		unsigned int c = 2 * i + 1;

		if (c >= l->n)
			break;
		if (c + 1 < l->n && l->heap[c + 1]->when < l->heap[c]->when)
			c++;
		if (t->when <= l->heap[c]->when)
			break;
		heap_set(l, i, l->heap[c]);
		i = c;
	}
	heap_set(l, i, t);
}

void l2d_timer_cancel(struct l2d_loop *l, struct l2d_timer *t)
{
	unsigned int i;

	if (!t->idx)
		return;
	i = t->idx - 1;
	t->idx = 0;
	if (--l->n != i) {
		struct l2d_timer *m = l->heap[l->n];

		heap_set(l, i, m);
		heap_up(l, i);
		heap_down(l, m->idx - 1);
	}
}

int l2d_timer_arm(struct l2d_loop *l, struct l2d_timer *t, uint64_t when)
{
	if (t->idx) {
		unsigned int i = t->idx - 1;

		t->when = when;
		heap_up(l, i);
		heap_down(l, t->idx - 1);
		return 0;
	}
	if (l->n == l->cap) {
		unsigned int cap = l->cap ? 2 * l->cap : 64;
		struct l2d_timer **h = realloc(l->heap, cap * sizeof(*h));

		if (!h)
			return -ENOMEM;
		l->heap = h;
		l->cap = cap;
	}
	t->when = when;
	heap_set(l, l->n++, t);
	heap_up(l, l->n - 1);
	return 0;
}

uint64_t l2d_timer_next(const struct l2d_loop *l)
{
	return l->n ? l->heap[0]->when : UINT64_MAX;
}

unsigned int l2d_timers_run(struct l2d_loop *l, uint64_t now)
{
	unsigned int ran = 0;

	while (l->n && l->heap[0]->when <= now) {
		struct l2d_timer *t = l->heap[0];

		l2d_timer_cancel(l, t);
		t->fn(t);
		ran++;
	}
	return ran;
}

int l2d_fd_add(struct l2d_loop *l, struct l2d_fd *f, uint32_t events)
{
	struct epoll_event ev = { .events = events, .data.ptr = f };

	if (epoll_ctl(l->epfd, EPOLL_CTL_ADD, f->fd, &ev) < 0)
		return -errno;
	return 0;
}

int l2d_fd_mod(struct l2d_loop *l, struct l2d_fd *f, uint32_t events)
{
	struct epoll_event ev = { .events = events, .data.ptr = f };

	if (epoll_ctl(l->epfd, EPOLL_CTL_MOD, f->fd, &ev) < 0)
		return -errno;
	return 0;
}

void l2d_fd_del(struct l2d_loop *l, struct l2d_fd *f)
{
	if (l->epfd >= 0 && f->fd >= 0)
		epoll_ctl(l->epfd, EPOLL_CTL_DEL, f->fd, NULL);
}

int l2d_loop_once(struct l2d_loop *l, int max_wait_ms)
{
	struct epoll_event ev[64];
	uint64_t now = l2d_now(l), next = l2d_timer_next(l);
	int wait = max_wait_ms, n, i;

	if (next != UINT64_MAX) {
		uint64_t d = next > now ? next - now : 0;

		if (wait < 0 || d < (uint64_t)wait)
			wait = (int)d;
	}
	n = epoll_wait(l->epfd, ev, 64, wait);
	if (n < 0 && errno != EINTR)
		return -errno;
	for (i = 0; i < n; i++) {
		struct l2d_fd *f = ev[i].data.ptr;

		f->fn(f, ev[i].events);
	}
	l2d_timers_run(l, l2d_now(l));
	return 0;
}

int l2d_loop_run(struct l2d_loop *l)
{
	int err = 0;

	while (!l->stop && !err)
		err = l2d_loop_once(l, -1);
	return err;
}

/*
 * A storm's replies arrive together (every ICRP and ZLB of a window, every
 * PADI of an access node's reboot) while the agent may be busy for a while
 * with what came before.  The kernel's default buffer (net.core.rmem_default,
 * 208 KiB: some 200 small datagrams at their truesize) overflows then, and
 * every datagram it drops costs a retransmission timeout at the peer
 * (RFC 2661 section 5.8) or a subscriber's PADI retry.
 */
void l2d_sock_rcvbuf(int fd, uint32_t bytes)
{
	int v = (int)bytes;

	if (!bytes)
		return;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &v, sizeof(v)) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v));
}
