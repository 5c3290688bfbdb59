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
 * learns of results through an eventfd, written by the job that finds no
 * other done before it, and calls each job's done function on its own
 * thread: nothing else of the agent runs on a worker.
 *
 * The last close of those descriptors waits for a grace period too: a
 * PPPoL2TP socket deletes its session (l2tp_session_unhash() calls
 * synchronize_rcu()), a bridged channel unbridges (ppp_unbridge_channels())
 * and a PPPoE socket unregisters its channel.  Made on the loop, three
 * grace periods a subscriber that hangs up held every other subscriber's
 * discovery, LCP and call behind them, so that a storm with hang-ups in it
 * slowed itself down; l2d_offload_close() makes those closes on a worker.
 * The pool is the agent's (struct l2d), made by l2d_init().
 */
#ifndef L2D_OFFLOAD_H
#define L2D_OFFLOAD_H

#include <pthread.h>
#include <stdbool.h>

#include "l2d_loop.h"

#define L2D_OFFLOAD_THREADS	16

struct l2d_job;
struct l2d;

/*
 * Which job a free worker takes first: a call under way (its bridge, whose
 * LNS may have started PPP already), then a new subscriber (its PPPoE
 * channel, before its PADS), then a close nobody waits for.
 */
enum l2d_job_class {
	L2D_JOB_CALL,
	L2D_JOB_NEW,
	L2D_JOB_CLOSE,
	L2D_JOB_CLASSES
};
/* On a worker: the blocking call on @fd; its result (>= 0, or -errno). */
typedef int (*l2d_job_work)(int fd);
/* On the loop's thread: the result of a job not cancelled. */
typedef void (*l2d_job_done)(void *arg, int res);

struct l2d_offload {
	struct l2d_loop *loop;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	/* FIFOs under mu, by enum l2d_job_class */
	struct l2d_job *todo[L2D_JOB_CLASSES], **todo_tail[L2D_JOB_CLASSES];
	struct l2d_job *done;			/* under mu */
	unsigned int pending;			/* submitted, not yet done (loop thread) */
	int efd;
	struct l2d_fd fdw;
	pthread_t th[L2D_OFFLOAD_THREADS];
	unsigned int nth;
	bool stop;
};

/* The eventfd and the threads are made with the first job. */
void l2d_offload_init(struct l2d_offload *o, struct l2d_loop *loop);
/* Stops the threads after the calls they are in; cancelled jobs' fds closed. */
void l2d_offload_fini(struct l2d_offload *o);
/*
 * Run @work(@fd) on a worker, after the jobs of a class before @cls, then
 * @done(@arg, result) on the loop.  The caller keeps @fd open until @done,
 * or hands it over with l2d_offload_cancel().  NULL when out of memory or
 * no thread starts.
 */
struct l2d_job *l2d_offload_submit(struct l2d_offload *o, enum l2d_job_class cls, int fd,
				   l2d_job_work work, l2d_job_done done, void *arg);
/*
 * @j's done will not be called; its fd belongs to the offload now, closed
 * on a worker once the job is over (l2d_offload_close(), @closed and @arg
 * its done; @closed may be NULL).
 */
void l2d_offload_cancel(struct l2d_offload *o, struct l2d_job *j, l2d_job_done closed, void *arg);

/*
 * Close @fd, then @fd2 when >= 0, on a worker, then @done(@arg, 0) on the
 * loop (@done may be NULL).  Without a worker both are closed here and
 * @done is called before this returns.
 */
void l2d_offload_close(struct l2d_offload *o, int fd, int fd2, l2d_job_done done, void *arg);
/* Wait until every job is done (before an upgrade's execve()). */
void l2d_offload_drain(struct l2d_offload *o);

/* PPPIOCGCHAN: the channel index of a connected PPPoX socket. */
int l2d_offload_gchan(int fd);

#endif
