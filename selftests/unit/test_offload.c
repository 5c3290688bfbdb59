// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld's offload (userspace/l2tpseld/offload.c): system calls that sleep
 * in the kernel, made by a pool of threads while the event loop goes on.
 * The work here stands in for PPPIOCGCHAN (an RCU grace period in the
 * kernel): it sleeps 100 ms.  32 such calls finish in about the time of two
 * (16 threads), a timer of the loop fires on time meanwhile, every result
 * comes back on the loop's thread in order, and a cancelled job never calls
 * back and its descriptor is closed once the worker is done with it.
 */
#include <fcntl.h>
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
	ASSERT_EQ(l2d_offload_init(&o, &loop), 0);
	for (i = 0; i < NJOBS; i++) {
		fds[i] = open("/dev/null", O_RDONLY | O_CLOEXEC);
		ASSERT_TRUE(fds[i] >= 0);
		results[i] = -1;
	}
	t0 = mono_ms();
	for (i = 0; i < NJOBS; i++)
		ASSERT_TRUE(l2d_offload_submit(&o, fds[i], slow_work, done, &results[i]) != NULL);
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
	ASSERT_EQ(l2d_offload_init(&o, &loop), 0);
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	ASSERT_TRUE(fd >= 0);
	j = l2d_offload_submit(&o, fd, slow_work, done, &slot);
	ASSERT_TRUE(j != NULL);
	l2d_offload_cancel(&o, j);
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
	j = l2d_offload_submit(&o, fd, slow_work, done, &slot);
	ASSERT_TRUE(j != NULL);
	l2d_offload_fini(&o);
	EXPECT_EQ(ndone, 1);
	EXPECT_EQ(slot, fd + 1000);
	close(fd);
	l2d_loop_fini(&loop);
}
