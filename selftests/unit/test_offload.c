// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld's offload (userspace/l2tpseld/offload.c): system calls that sleep
 * in the kernel, made by a pool of threads while the event loop goes on.
 * The work here stands in for PPPIOCGCHAN (an RCU grace period in the
 * kernel): it sleeps 100 ms.  32 such calls finish in about the time of two
 * (16 threads), a timer of the loop fires on time meanwhile, every result
 * comes back on the loop's thread in order, and a cancelled job never calls
 * back and its descriptor is closed once the worker is done with it.
 * Closes (a PPPoL2TP or PPPoE socket's last close waits for a grace period
 * too) are made by a worker, then told on the loop; without a worker, at
 * once; an upgrade drains them all first.  A free worker takes a call
 * under way before a new subscriber, and both before a close.  Jobs that
 * end while the loop is busy wake it once.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "../../userspace/l2tpseld/offload.h"

#define NJOBS	32
#define WORK_MS	100

static pthread_t loop_thread;
static unsigned int ndone, off_thread;
static int results[NJOBS];

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* the fd's number plus 1000, after a nap as long as a grace period under load */
static int slow_work(int fd)
{
	struct timespec ts = { 0, WORK_MS * 1000000L };

	nanosleep(&ts, NULL);
	return fd + 1000;
}

static void done(void *arg, int res)
{
	int *slot = arg;

	if (!pthread_equal(pthread_self(), loop_thread))
		off_thread++;
	*slot = res;
	ndone++;
}

static uint64_t timer_at;

static void timer_fire(struct l2d_timer *t)
{
	timer_at = mono_ms();
}

TEST(offload_calls_overlap_and_the_loop_goes_on)
{
	struct l2d_loop loop;
	struct l2d_offload o;
	struct l2d_timer tm;
	uint64_t t0, took;
	int fds[NJOBS], i;

	loop_thread = pthread_self();
	ndone = off_thread = 0;
	ASSERT_EQ(l2d_loop_init(&loop, true), 0);
	l2d_offload_init(&o, &loop);
	for (i = 0; i < NJOBS; i++) {
		fds[i] = open("/dev/null", O_RDONLY | O_CLOEXEC);
		ASSERT_TRUE(fds[i] >= 0);
		results[i] = -1;
	}
	t0 = mono_ms();
	for (i = 0; i < NJOBS; i++)
		ASSERT_TRUE(l2d_offload_submit(&o, L2D_JOB_NEW, fds[i], slow_work, done, &results[i]) != NULL);
	/* the loop is not held up: a timer 10 ms away fires long before the work ends */
	l2d_timer_init(&tm, timer_fire, NULL);
	timer_at = 0;
	l2d_timer_arm(&loop, &tm, l2d_now(&loop) + 10);
	while (ndone < NJOBS && mono_ms() - t0 < 5000)
		l2d_loop_once(&loop, 50);
	took = mono_ms() - t0;
	EXPECT_EQ(ndone, NJOBS);
	EXPECT_EQ(off_thread, 0);
	for (i = 0; i < NJOBS; i++)
		EXPECT_EQ(results[i], fds[i] + 1000);
	/* one after another they take 3.2 s; 16 at a time, two rounds */
	EXPECT_TRUE(took < NJOBS * WORK_MS / 2) TH_LOG("32 calls of 100 ms took %llu ms",
						      (unsigned long long)took);
	EXPECT_TRUE(timer_at && timer_at - t0 < WORK_MS) TH_LOG("the timer fired after %llu ms",
							(unsigned long long)(timer_at - t0));
	EXPECT_TRUE(o.nth <= L2D_OFFLOAD_THREADS);
	l2d_offload_fini(&o);
	for (i = 0; i < NJOBS; i++)
		close(fds[i]);
	l2d_loop_fini(&loop);
}

TEST(offload_cancelled_job_never_calls_back_and_its_fd_is_closed)
{
	struct l2d_loop loop;
	struct l2d_offload o;
	struct l2d_job *j;
	int fd, keep, slot = -1;
	uint64_t t0;

	loop_thread = pthread_self();
	ndone = 0;
	ASSERT_EQ(l2d_loop_init(&loop, true), 0);
	l2d_offload_init(&o, &loop);
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	ASSERT_TRUE(fd >= 0);
	j = l2d_offload_submit(&o, L2D_JOB_NEW, fd, slow_work, done, &slot);
	ASSERT_TRUE(j != NULL);
	l2d_offload_cancel(&o, j, NULL, NULL);
	/* the worker still has it: the fd stays open until the work is done */
	EXPECT_TRUE(fcntl(fd, F_GETFD) >= 0);
	t0 = mono_ms();
	while (o.pending && mono_ms() - t0 < 2000)
		l2d_loop_once(&loop, 20);
	EXPECT_EQ(o.pending, 0);
	EXPECT_EQ(ndone, 0);
	EXPECT_EQ(slot, -1);
	/* closed by the offload: the next open gets the same number back */
	keep = open("/dev/null", O_RDONLY | O_CLOEXEC);
	EXPECT_EQ(keep, fd);
	close(keep);
	/* a job still queued at the end is finished and its owner told, or closed */
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	j = l2d_offload_submit(&o, L2D_JOB_NEW, fd, slow_work, done, &slot);
	ASSERT_TRUE(j != NULL);
	l2d_offload_fini(&o);
	EXPECT_EQ(ndone, 1);
	EXPECT_EQ(slot, fd + 1000);
	close(fd);
	l2d_loop_fini(&loop);
}

static int quick_work(int fd)
{
	return fd + 1000;
}

/*
 * Jobs done while the loop is busy elsewhere: the done list, counted under
 * mu (a job's first member is its next, offload.c).
 */
static unsigned int done_listed(struct l2d_offload *o)
{
	struct l2d_job *j;
	unsigned int n = 0;

	pthread_mutex_lock(&o->mu);
	for (j = o->done; j; j = *(struct l2d_job **)j)
		n++;
	pthread_mutex_unlock(&o->mu);
	return n;
}

/*
 * Jobs that end while the loop is busy wake it once: the first makes the
 * done list non-empty and writes the eventfd, the loop takes the whole
 * list.  A write for each was a wake-up and a read of the loop's each
 * (a system call and, across CPUs, an interrupt) in a storm.
 */
TEST(offload_jobs_done_together_wake_the_loop_once)
{
	struct l2d_loop loop;
	struct l2d_offload o;
	int fds[NJOBS], i;
	uint64_t t0, count = 0;

	loop_thread = pthread_self();
	ndone = off_thread = 0;
	ASSERT_EQ(l2d_loop_init(&loop, true), 0);
	l2d_offload_init(&o, &loop);
	for (i = 0; i < NJOBS; i++) {
		fds[i] = open("/dev/null", O_RDONLY | O_CLOEXEC);
		ASSERT_TRUE(fds[i] >= 0);
		results[i] = -1;
		ASSERT_TRUE(l2d_offload_submit(&o, L2D_JOB_NEW, fds[i], quick_work, done, &results[i]) != NULL);
	}
	/* the loop does not run meanwhile */
	t0 = mono_ms();
	while (done_listed(&o) < NJOBS && mono_ms() - t0 < 5000)
		usleep(1000);
	ASSERT_EQ(done_listed(&o), NJOBS);
	ASSERT_EQ(read(o.efd, &count, sizeof(count)), (ssize_t)sizeof(count));
	EXPECT_EQ(count, 1) TH_LOG("%d jobs done together wrote the eventfd %llu times", NJOBS,
				   (unsigned long long)count);
	/* that one wake-up was enough: the loop takes every job from the list */
	count = 1;
	ASSERT_EQ(write(o.efd, &count, sizeof(count)), (ssize_t)sizeof(count));
	l2d_loop_once(&loop, 100);
	EXPECT_EQ(ndone, NJOBS);
	EXPECT_EQ(o.pending, 0);
	for (i = 0; i < NJOBS; i++)
		EXPECT_EQ(results[i], fds[i] + 1000);
	l2d_offload_fini(&o);
	for (i = 0; i < NJOBS; i++)
		close(fds[i]);
	l2d_loop_fini(&loop);
}

static unsigned int nclosed;

static void closed(void *arg, int res)
{
	if (!pthread_equal(pthread_self(), loop_thread))
		off_thread++;
	nclosed++;
}

/* Both ends of a pipe: its write end's close shows at the read end. */
static void pipe_pair(int *r, int *w)
{
	int p[2];

	ASSERT_EQ(pipe2(p, O_CLOEXEC | O_NONBLOCK), 0);
	*r = p[0];
	*w = p[1];
}

static bool closed_fd(int fd)
{
	return fcntl(fd, F_GETFD) < 0 && errno == EBADF;
}

TEST(offload_closes_on_a_worker_and_tells_the_loop)
{
	struct l2d_loop loop;
	struct l2d_offload o;
	struct l2d_job *j;
	int r1, w1, r2, w2, fd;
	uint64_t t0;

	loop_thread = pthread_self();
	nclosed = off_thread = 0;
	ASSERT_EQ(l2d_loop_init(&loop, true), 0);
	l2d_offload_init(&o, &loop);
	pipe_pair(&r1, &w1);
	pipe_pair(&r2, &w2);
	l2d_offload_close(&o, w1, w2, closed, NULL);
	EXPECT_EQ(o.pending, 1u);
	t0 = mono_ms();
	while (nclosed < 1 && mono_ms() - t0 < 2000)
		l2d_loop_once(&loop, 20);
	EXPECT_EQ(nclosed, 1u);
	EXPECT_EQ(off_thread, 0u);
	EXPECT_TRUE(closed_fd(w1));
	EXPECT_TRUE(closed_fd(w2));
	EXPECT_EQ(read(r1, &fd, 1), 0);		/* end of file: the write end is gone */
	/* a cancelled call's descriptor is closed, and the canceller told */
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	j = l2d_offload_submit(&o, L2D_JOB_NEW, fd, slow_work, done, NULL);
	ASSERT_TRUE(j != NULL);
	l2d_offload_cancel(&o, j, closed, NULL);
	/* an upgrade waits for all of it */
	l2d_offload_drain(&o);
	EXPECT_EQ(o.pending, 0u);
	EXPECT_EQ(nclosed, 2u);
	EXPECT_TRUE(closed_fd(fd));
	l2d_offload_fini(&o);
	/* stopped: closed at once, told at once */
	close(r2);
	pipe_pair(&r2, &w2);
	l2d_offload_close(&o, -1, w2, closed, NULL);
	EXPECT_EQ(nclosed, 3u);
	EXPECT_TRUE(closed_fd(w2));
	close(r1);
	close(r2);
	l2d_loop_fini(&loop);
}

static int block_fd[L2D_OFFLOAD_THREADS];

/* holds its worker until the test writes a byte to its pipe */
static int blocked_work(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char c;

	poll(&p, 1, 5000);
	return read(fd, &c, 1) == 1 ? 0 : -1;
}

static unsigned int order[4], norder;

static void ordered(void *arg, int res)
{
	if (norder < 4)
		order[norder++] = (unsigned int)(uintptr_t)arg;
}

TEST(offload_call_under_way_goes_first)
{
	struct l2d_loop loop;
	struct l2d_offload o;
	int w[L2D_OFFLOAD_THREADS], r1, w1, r2, w2, i;
	uint64_t t0;

	loop_thread = pthread_self();
	norder = 0;
	ASSERT_EQ(l2d_loop_init(&loop, true), 0);
	l2d_offload_init(&o, &loop);
	/* every worker held */
	for (i = 0; i < L2D_OFFLOAD_THREADS; i++) {
		pipe_pair(&block_fd[i], &w[i]);
		ASSERT_TRUE(l2d_offload_submit(&o, L2D_JOB_NEW, block_fd[i], blocked_work, ordered,
					       (void *)(uintptr_t)100) != NULL);
	}
	for (;;) {		/* until every one is taken */
		bool queued;

		pthread_mutex_lock(&o.mu);
		queued = o.todo[L2D_JOB_NEW] != NULL;
		pthread_mutex_unlock(&o.mu);
		if (!queued)
			break;
		usleep(1000);
	}
	/* queued in the worst order: a close, a new subscriber, a call */
	pipe_pair(&r1, &w1);
	pipe_pair(&r2, &w2);
	l2d_offload_close(&o, w1, -1, ordered, (void *)(uintptr_t)3);
	ASSERT_TRUE(l2d_offload_submit(&o, L2D_JOB_NEW, r2, slow_work, ordered,
				       (void *)(uintptr_t)2) != NULL);
	ASSERT_TRUE(l2d_offload_submit(&o, L2D_JOB_CALL, r1, slow_work, ordered,
				       (void *)(uintptr_t)1) != NULL);
	/* one worker freed: it takes the call, then the subscriber, then the close */
	ASSERT_EQ(write(w[0], "x", 1), 1);
	t0 = mono_ms();
	while (norder < 4 && mono_ms() - t0 < 3000)
		l2d_loop_once(&loop, 20);
	EXPECT_EQ(norder, 4u);
	EXPECT_EQ(order[0], 100u);	/* the one released */
	EXPECT_EQ(order[1], 1u);
	EXPECT_EQ(order[2], 2u);
	EXPECT_EQ(order[3], 3u);
	for (i = 1; i < L2D_OFFLOAD_THREADS; i++)
		ASSERT_EQ(write(w[i], "x", 1), 1);
	l2d_offload_fini(&o);
	for (i = 0; i < L2D_OFFLOAD_THREADS; i++) {
		close(block_fd[i]);
		close(w[i]);
	}
	close(r1);
	close(r2);
	close(w2);
	l2d_loop_fini(&loop);
}
