// SPDX-License-Identifier: GPL-2.0
/*
 * Two threads on ONE netlink socket send refused requests as fast as they
 * can; every ACK must carry exactly the extack message of its own request.
 * The family has parallel_ops, so two requests of one
 * socket run at the same time, and netlink_ack() reads the message after
 * the handler returned.  A message kept in storage that another request
 * may rewrite (or free) before that shows up here as another request's
 * text, a mix of two, or a WARN in netlink_ack() (the length it measured
 * first no longer fits), which the VM turns into a panic.
 *
 * Thread 0 asks for tunnel groups, thread 1 (and the short-lived threads
 * below) for clients, none of which exist, with names of lengths 1..40
 * that change with every request: the expected text follows from the
 * sequence number alone, so either thread may read either thread's ACK
 * (both read the one socket).
 *
 * Then CHURN threads, one after the other, each send one refused request
 * and exit: more threads than the module keeps message buffers for, so
 * the buffers of exited threads are freed and numbers reused while
 * requests go on (KASAN on the debug kernel watches that).
 *
 *   extack_race [-s SECONDS] [-n REQUESTS_PER_THREAD]
 *
 * Exits 0 when every ACK was right, 1 when one was not, 2 on a setup error.
 * Runs in a network namespace of its own (an empty l2tpsel state).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "l2s_nltest.h"

#define THREADS		2
/* Then short-lived threads, one after the other: more than the module keeps buffers for (1024). */
#define CHURN		1300
#define SEQ_THREAD(s)	((s) >> 24)
#define SEQ_K(s)	((s) & 0xffffff)

static struct nlt sk;
static double deadline;
static unsigned long max_reqs = 0xffffff;
static atomic_ulong n_acks, n_wrong, n_other;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The name request k of thread @th sends: 1..40 characters. */
static void req_name(unsigned int th, unsigned long k, char *out, size_t len)
{
	int n = 1 + (int)((k * 7 + th * 13) % 40);

	snprintf(out, len, "%c%0*lu", th ? 'c' : 'g', n - 1, k % 1000000000ul);
	out[n] = 0;
}

/* What the kernel must answer to that request. */
static void req_want(unsigned int th, unsigned long k, char *out, size_t len)
{
	char name[48];

	req_name(th, k, name, sizeof(name));
	snprintf(out, len, "%s \"%s\" does not exist", th ? "client" : "tunnel group", name);
}

/* Check one ACK, whichever thread's request it answers. */
static void check_ack(const struct nlmsghdr *nlh)
{
	unsigned int th = SEQ_THREAD(nlh->nlmsg_seq);
	unsigned long k = SEQ_K(nlh->nlmsg_seq);
	struct nlt_ack ack = { 0 };
	char want[128];

	if (nlh->nlmsg_type != NLMSG_ERROR || th > THREADS) {
		atomic_fetch_add(&n_other, 1);
		return;
	}
	nlt_parse_err(nlh, &ack);
	atomic_fetch_add(&n_acks, 1);
	req_want(th, k, want, sizeof(want));
	if (ack.err == -ENOENT && !strcmp(ack.msg, want))
		return;
	if (atomic_fetch_add(&n_wrong, 1) < 10) {
		pthread_mutex_lock(&log_lock);
		printf("# wrong ACK for thread %u request %lu: expected %d \"%s\", got %d \"%s\"\n",
		       th, k, -ENOENT, want, ack.err, ack.msg);
		pthread_mutex_unlock(&log_lock);
	}
}

struct job {
	unsigned int th;
	unsigned long first, n;	/* requests first..first+n-1; n 0: until the deadline */
};

static void *worker(void *arg)
{
	const struct job *job = arg;
	unsigned int th = job->th;
	char *buf = malloc(NLT_BUF), *rx = malloc(NLT_BUF);
	unsigned long k;

	if (!buf || !rx)
		return (void *)1;
	for (k = job->first; job->n ? k < job->first + job->n :
	     k < max_reqs && (k % 64 || now() < deadline); k++) {
		struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
		struct genlmsghdr *g;
		const struct nlmsghdr *h;
		char name[48];
		ssize_t n;
		int left;

		nlh->nlmsg_type = sk.fam;
		nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
		nlh->nlmsg_seq = (th << 24) | (uint32_t)k;
		g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
		g->cmd = th ? L2TPSEL_CMD_CLIENT_GET : L2TPSEL_CMD_TGROUP_GET;
		g->version = L2TPSEL_GENL_VERSION;
		req_name(th, k, name, sizeof(name));
		mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, name);
		if (mnl_socket_sendto(sk.sk, nlh, nlh->nlmsg_len) < 0) {
			perror("# sendto");
			return (void *)1;
		}
		/*
		 * One datagram back per request sent, from whichever request:
		 * the two threads together read exactly as many as they sent.
		 */
		do
			n = recv(mnl_socket_get_fd(sk.sk), rx, NLT_BUF, 0);
		while (n < 0 && errno == EINTR);
		if (n < 0) {
			perror("# recv");
			return (void *)1;
		}
		left = (int)n;
		for (h = (const struct nlmsghdr *)rx; mnl_nlmsg_ok(h, left); h = mnl_nlmsg_next(h, &left))
			check_ack(h);
	}
	free(buf);
	free(rx);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t tids[THREADS];
	struct job jobs[THREADS], churn;
	double secs = 10, start;
	unsigned int i;
	void *res;
	int opt, bad = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((opt = getopt(argc, argv, "s:n:")) != -1) {
		switch (opt) {
		case 's':
			secs = atof(optarg);
			break;
		case 'n':
			max_reqs = strtoul(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: %s [-s SECONDS] [-n REQUESTS_PER_THREAD]\n", argv[0]);
			return 2;
		}
	}
	if (max_reqs > 0xffffff)
		max_reqs = 0xffffff;
	if (unshare(CLONE_NEWNET)) {
		perror("# unshare(CLONE_NEWNET)");
		return 2;
	}
	if (nlt_open(&sk)) {
		fprintf(stderr, "# cannot open the l2tpsel family\n");
		return 2;
	}
	start = now();
	deadline = start + secs;
	for (i = 0; i < THREADS; i++) {
		jobs[i] = (struct job){ .th = i };
		if (pthread_create(&tids[i], NULL, worker, &jobs[i])) {
			perror("# pthread_create");
			return 2;
		}
	}
	for (i = 0; i < THREADS; i++) {
		pthread_join(tids[i], &res);
		bad |= res != NULL;
	}
	printf("# %lu ACKs from %d threads on one socket in %.1f s, %lu with a wrong message, %lu other datagrams\n",
	       atomic_load(&n_acks), THREADS, now() - start, atomic_load(&n_wrong),
	       atomic_load(&n_other));
	start = now();
	atomic_store(&n_acks, 0);
	for (i = 0; i < CHURN; i++) {
		churn = (struct job){ .th = THREADS, .first = i, .n = 1 };
		if (pthread_create(&tids[0], NULL, worker, &churn)) {
			perror("# pthread_create");
			return 2;
		}
		pthread_join(tids[0], &res);
		bad |= res != NULL;
	}
	printf("# %lu ACKs from %d threads one after the other in %.1f s, %lu wrong in all\n",
	       atomic_load(&n_acks), CHURN, now() - start, atomic_load(&n_wrong));
	nlt_close(&sk);
	if (bad)
		return 2;
	return atomic_load(&n_wrong) || atomic_load(&n_other) ? 1 : 0;
}
