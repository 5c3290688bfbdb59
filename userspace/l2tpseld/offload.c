// SPDX-License-Identifier: GPL-2.0
/*
 * System calls that sleep in the kernel, made by a pool of threads so that
 * the event loop does not wait for them (offload.h says which and why).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <linux/ppp-ioctl.h>

#include "offload.h"

struct l2d_job {
	struct l2d_job *next;
	int fd;
	int fd2;			/* a close job's second descriptor, -1 */
	int res;
	bool cancelled;			/* read and written on the loop's thread only */
	l2d_job_work work;		/* NULL: close fd, then fd2 */
	l2d_job_done done;
	void *arg;
};

int l2d_offload_gchan(int fd)
{
	int chan;

	return ioctl(fd, PPPIOCGCHAN, &chan) < 0 ? -errno : chan;
}

/* The class of the job a free worker takes, L2D_JOB_CLASSES when none (under mu). */
static int next_class(const struct l2d_offload *o)
{
	int q;

	for (q = 0; q < L2D_JOB_CLASSES && !o->todo[q]; q++)
		;
	return q;
}

static void *worker(void *arg)
{
	struct l2d_offload *o = arg;
	uint64_t one = 1;
	bool wake;
	int q;

	pthread_mutex_lock(&o->mu);
	for (;;) {
		struct l2d_job *j;

		while ((q = next_class(o)) == L2D_JOB_CLASSES && !o->stop)
			pthread_cond_wait(&o->cv, &o->mu);
		if (q == L2D_JOB_CLASSES)
			break;
		j = o->todo[q];
		o->todo[q] = j->next;
		if (!o->todo[q])
			o->todo_tail[q] = &o->todo[q];
		pthread_mutex_unlock(&o->mu);
		if (j->work) {
			j->res = j->work(j->fd);
		} else {
			close(j->fd);
			if (j->fd2 >= 0)
				close(j->fd2);
		}
		pthread_mutex_lock(&o->mu);
		wake = !o->done;
		j->next = o->done;
		o->done = j;
		pthread_mutex_unlock(&o->mu);
		/*
		 * Only the job that makes the list non-empty wakes the loop:
		 * finish() takes the whole list, and a wake-up arriving after
		 * it took this job finds an empty list, nothing lost.  Out of
		 * the lock, which the loop takes too.  An eventfd write of 1
		 * cannot fail short of a counter at its maximum.
		 */
		if (wake)
			(void)!write(o->efd, &one, sizeof(one));
		pthread_mutex_lock(&o->mu);
	}
	pthread_mutex_unlock(&o->mu);
	return NULL;
}

/* Hand the finished jobs to their owners, on the loop's thread. */
static void finish(struct l2d_offload *o)
{
	struct l2d_job *j, *list, *rev = NULL;

	pthread_mutex_lock(&o->mu);
	list = o->done;
	o->done = NULL;
	pthread_mutex_unlock(&o->mu);
	while (list) {			/* in the order they finished */
		j = list;
		list = j->next;
		j->next = rev;
		rev = j;
	}
	while (rev) {
		j = rev;
		rev = j->next;
		o->pending--;
		if (j->cancelled)
			l2d_offload_close(o, j->fd, -1, j->done, j->arg);
		else if (j->done)
			j->done(j->arg, j->res);
		free(j);
	}
}

static void readable(struct l2d_fd *f, uint32_t events)
{
	struct l2d_offload *o = f->arg;
	uint64_t n;

	(void)!read(o->efd, &n, sizeof(n));
	finish(o);
}

void l2d_offload_init(struct l2d_offload *o, struct l2d_loop *loop)
{
	int q;

	*o = (struct l2d_offload){ .loop = loop, .efd = -1 };
	for (q = 0; q < L2D_JOB_CLASSES; q++)
		o->todo_tail[q] = &o->todo[q];
	pthread_mutex_init(&o->mu, NULL);
	pthread_cond_init(&o->cv, NULL);
}

/* The eventfd the workers wake the loop with, made with the first job. */
static bool start(struct l2d_offload *o)
{
	if (o->efd >= 0)
		return true;
	o->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (o->efd < 0)
		return false;
	o->fdw.fd = o->efd;
	o->fdw.fn = readable;
	o->fdw.arg = o;
	if (l2d_fd_add(o->loop, &o->fdw, EPOLLIN) < 0) {
		close(o->efd);
		o->efd = -1;
		return false;
	}
	return true;
}

void l2d_offload_fini(struct l2d_offload *o)
{
	unsigned int i;

	pthread_mutex_lock(&o->mu);
	o->stop = true;
	pthread_cond_broadcast(&o->cv);
	pthread_mutex_unlock(&o->mu);
	for (i = 0; i < o->nth; i++)
		pthread_join(o->th[i], NULL);
	o->nth = 0;
	/* every job is done now: owners still waiting are told, cancelled fds closed */
	finish(o);
	if (o->efd >= 0) {
		l2d_fd_del(o->loop, &o->fdw);
		close(o->efd);
		o->efd = -1;
	}
	pthread_cond_destroy(&o->cv);
	pthread_mutex_destroy(&o->mu);
}

static struct l2d_job *queue(struct l2d_offload *o, enum l2d_job_class cls, int fd, int fd2,
			     l2d_job_work work, l2d_job_done done, void *arg)
{
	struct l2d_job *j;

	if (o->stop || !start(o))	/* stopped: no worker would run it */
		return NULL;
	/* threads as the work grows, up to the pool's size */
	if (o->nth < L2D_OFFLOAD_THREADS && o->pending >= o->nth) {
		sigset_t all, old;
		int err;

		/* signals are the loop's: a worker blocks them all */
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		err = pthread_create(&o->th[o->nth], NULL, worker, o);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (!err)
			o->nth++;
		else if (!o->nth)
			return NULL;
	}
	j = calloc(1, sizeof(*j));
	if (!j)
		return NULL;
	j->fd = fd;
	j->fd2 = fd2;
	j->work = work;
	j->done = done;
	j->arg = arg;
	pthread_mutex_lock(&o->mu);
	*o->todo_tail[cls] = j;
	o->todo_tail[cls] = &j->next;
	pthread_cond_signal(&o->cv);
	pthread_mutex_unlock(&o->mu);
	o->pending++;
	return j;
}

struct l2d_job *l2d_offload_submit(struct l2d_offload *o, enum l2d_job_class cls, int fd,
				   l2d_job_work work, l2d_job_done done, void *arg)
{
	return queue(o, cls, fd, -1, work, done, arg);
}

void l2d_offload_close(struct l2d_offload *o, int fd, int fd2, l2d_job_done done, void *arg)
{
	if (fd < 0) {
		fd = fd2;
		fd2 = -1;
	}
	if (fd < 0 || !queue(o, L2D_JOB_CLOSE, fd, fd2, NULL, done, arg)) {
		if (fd >= 0)
			close(fd);
		if (fd2 >= 0)
			close(fd2);
		if (done)
			done(arg, 0);
	}
}

void l2d_offload_drain(struct l2d_offload *o)
{
	struct pollfd p = { .fd = o->efd, .events = POLLIN };
	uint64_t n;

	while (o->efd >= 0 && o->pending) {
		if (poll(&p, 1, -1) < 0 && errno != EINTR)
			break;
		(void)!read(o->efd, &n, sizeof(n));
		finish(o);
	}
}

void l2d_offload_cancel(struct l2d_offload *o, struct l2d_job *j, l2d_job_done closed, void *arg)
{
	j->cancelled = true;
	j->done = closed;
	j->arg = arg;
}
