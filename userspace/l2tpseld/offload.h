/* SPDX-License-Identifier: GPL-2.0 */
/*
 * System calls that sleep in the kernel, made off the event loop.
 *
 * PPPIOCGCHAN on a PPPoX socket (the channel's index, needed to attach
 * /dev/ppp to a PPPoE channel and to bridge it to the call's PPPoL2TP
 * channel) waits for an RCU grace period in the kernel (pppox_ioctl()
 * calls synchronize_net() before it drains the socket's queue into the
 * channel): milliseconds to tens of milliseconds of nothing, twice per
 * subscriber.  Made on the event loop, one after another, they bounded
 * PPPoE logins to a few dozen a second with the CPU idle.  A small pool of
 * threads makes them instead; grace periods overlap, so many calls wait
 * one grace period together, and the loop goes on meanwhile.  The loop
 * learns of each result through an eventfd and calls the job's done
 * function on its own thread: nothing else of the agent runs on a worker.
 */
#ifndef L2D_OFFLOAD_H
#define L2D_OFFLOAD_H

#include <pthread.h>
#include <stdbool.h>

#include "l2d_loop.h"

#define L2D_OFFLOAD_THREADS	16

struct l2d_job;
/* On a worker: the blocking call on @fd; its result (>= 0, or -errno). */
typedef int (*l2d_job_work)(int fd);
/* On the loop's thread: the result of a job not cancelled. */
typedef void (*l2d_job_done)(void *arg, int res);

struct l2d_offload {
	struct l2d_loop *loop;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct l2d_job *todo, **todo_tail;	/* FIFO, under mu */
	struct l2d_job *done;			/* under mu */
	unsigned int pending;			/* submitted, not yet done (loop thread) */
	int efd;
	struct l2d_fd fdw;
	pthread_t th[L2D_OFFLOAD_THREADS];
	unsigned int nth;
	bool stop;
};

/* Threads are started on the first job; 0 or -errno. */
int l2d_offload_init(struct l2d_offload *o, struct l2d_loop *loop);
/* Stops the threads after the calls they are in; cancelled jobs' fds closed. */
void l2d_offload_fini(struct l2d_offload *o);
/*
 * Run @work(@fd) on a worker, then @done(@arg, result) on the loop.  The
 * caller keeps @fd open until @done, or hands it over with
 * l2d_offload_cancel().  NULL when out of memory or no thread starts.
 */
struct l2d_job *l2d_offload_submit(struct l2d_offload *o, int fd, l2d_job_work work,
				   l2d_job_done done, void *arg);
/*
 * @done will not be called; @j's fd belongs to the offload now, closed on
 * the loop's thread once the worker is done with it.
 */
void l2d_offload_cancel(struct l2d_offload *o, struct l2d_job *j);

/* PPPIOCGCHAN: the channel index of a connected PPPoX socket. */
int l2d_offload_gchan(int fd);

#endif
