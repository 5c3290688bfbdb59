/* SPDX-License-Identifier: GPL-2.0 */
/*
 * l2tpseld's event loop: epoll for file descriptors, a binary min-heap of
 * timers on a millisecond clock.  The clock is a function pointer so that
 * the unit tests drive the state machines with a fake one.
 */
#ifndef L2D_LOOP_H
#define L2D_LOOP_H

#include <stdbool.h>
#include <stdint.h>

struct l2d_timer;
typedef void (*l2d_timer_fn)(struct l2d_timer *t);

struct l2d_timer {
	uint64_t when;		/* ms on the loop's clock */
	unsigned int idx;	/* heap index + 1; 0 when not armed */
	l2d_timer_fn fn;
	void *arg;
};

struct l2d_fd;
typedef void (*l2d_fd_fn)(struct l2d_fd *f, uint32_t events);

struct l2d_fd {
	int fd;
	l2d_fd_fn fn;
	void *arg;
};

struct l2d_loop {
	int epfd;		/* -1: timers only (the unit tests) */
	struct l2d_timer **heap;
	unsigned int n, cap;
	uint64_t (*clock)(void *ctx);
	void *clock_ctx;
	bool stop;
};

/* CLOCK_MONOTONIC in milliseconds. */
uint64_t l2d_clock_mono(void *ctx);

/* @epoll: false for a loop that only runs timers.  Return: 0 or -errno. */
int l2d_loop_init(struct l2d_loop *l, bool epoll);
void l2d_loop_fini(struct l2d_loop *l);
uint64_t l2d_now(const struct l2d_loop *l);

void l2d_timer_init(struct l2d_timer *t, l2d_timer_fn fn, void *arg);
/* (Re)arm at the absolute time @when. Return: 0 or -ENOMEM. */
int l2d_timer_arm(struct l2d_loop *l, struct l2d_timer *t, uint64_t when);
void l2d_timer_cancel(struct l2d_loop *l, struct l2d_timer *t);
static inline bool l2d_timer_armed(const struct l2d_timer *t)
{
	return t->idx != 0;
}
/* Return: the earliest deadline, UINT64_MAX when no timer is armed. */
uint64_t l2d_timer_next(const struct l2d_loop *l);
/* Run every timer due at @now (a timer may re-arm itself). Return: count. */
unsigned int l2d_timers_run(struct l2d_loop *l, uint64_t now);

int l2d_fd_add(struct l2d_loop *l, struct l2d_fd *f, uint32_t events);
/* The events of an fd already added (EPOLLOUT while output waits). */
int l2d_fd_mod(struct l2d_loop *l, struct l2d_fd *f, uint32_t events);
void l2d_fd_del(struct l2d_loop *l, struct l2d_fd *f);

/* One turn: wait for fds (at most @max_wait_ms), dispatch, run timers. */
int l2d_loop_once(struct l2d_loop *l, int max_wait_ms);
/* Until l->stop. Return: 0 or -errno of a failed epoll_wait. */
int l2d_loop_run(struct l2d_loop *l);

/*
 * @fd's receive buffer to @bytes (0: left as the kernel made it): with
 * SO_RCVBUFFORCE where the agent has CAP_NET_ADMIN, else SO_RCVBUF, which
 * net.core.rmem_max caps.
 */
void l2d_sock_rcvbuf(int fd, uint32_t bytes);

#endif
