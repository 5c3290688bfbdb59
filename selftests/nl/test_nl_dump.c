// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of l2s_nl_talk()'s dump retry (userspace/lib/nl.c):
 * scripted datagrams in place of the socket, so that NLM_F_DUMP_INTR comes
 * exactly where a test wants it.
 */
#include <errno.h>
#include <stdlib.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "harness.h"
#include "nl.h"

#define T_PORTID	4242
#define T_SEQ		77
#define T_FAMILY	0x42
#define T_MAX_DGRAMS	8
#define T_MAX_TRIES	8

/* One attempt's datagrams: entries per datagram, which are flagged, how it ends. */
struct t_attempt {
	int ndgrams;
	int per;			/* entries in each datagram */
	int intr_dgram;			/* datagram whose messages carry DUMP_INTR, -1 none */
	int intr_done;			/* the DONE carries DUMP_INTR */
	int error;			/* end with NLMSG_ERROR of -error instead of DONE */
	int bare;			/* neither: a reply to a request without NLM_F_ACK */
	uint32_t base;			/* first entry's value */
};

struct t_io {
	struct t_attempt att[T_MAX_TRIES];
	int natt;
	int sends, recvs;		/* calls so far */
	int dgram;			/* next datagram of the current attempt */
	uint16_t last_flags;		/* of the last request sent */
};

static char t_buf[65536];	/* at least MNL_SOCKET_BUFFER_SIZE */

static ssize_t t_send(void *ctx, const void *buf, size_t len)
{
	struct t_io *io = ctx;
	const struct nlmsghdr *h = buf;

	io->last_flags = h->nlmsg_flags;
	io->sends++;
	io->dgram = 0;
	return (ssize_t)len;
}

static struct nlmsghdr *t_put(char *at, uint16_t type, uint16_t flags)
{
	struct nlmsghdr *h = mnl_nlmsg_put_header(at);

	h->nlmsg_type = type;
	h->nlmsg_flags = flags;
	h->nlmsg_seq = T_SEQ;
	h->nlmsg_pid = T_PORTID;
	return h;
}

/* The next datagram of the attempt the last send started. */
static ssize_t t_recv(void *ctx, void *buf, size_t len)
{
	struct t_io *io = ctx;
	const struct t_attempt *a = &io->att[io->sends - 1 < io->natt ? io->sends - 1 : io->natt - 1];
	int d = io->dgram++, i;
	size_t off = 0;

	io->recvs++;
	if (d >= a->ndgrams) {
		errno = EAGAIN;		/* read past the end: the code under test is wrong */
		return -1;
	}
	for (i = 0; i < a->per; i++) {
		uint16_t fl = NLM_F_MULTI | (d == a->intr_dgram ? NLM_F_DUMP_INTR : 0);
		struct nlmsghdr *h = t_put((char *)buf + off, T_FAMILY, fl);
		struct genlmsghdr *g = mnl_nlmsg_put_extra_header(h, sizeof(*g));

		g->cmd = 1;
		mnl_attr_put_u32(h, 1, a->base + (uint32_t)(d * a->per + i));
		off += h->nlmsg_len;
	}
	if (d == a->ndgrams - 1 && !a->bare) {
		struct nlmsghdr *h;

		if (a->error) {
			struct nlmsgerr *e;

			h = t_put((char *)buf + off, NLMSG_ERROR, NLM_F_ACK_TLVS | NLM_F_CAPPED);
			e = mnl_nlmsg_put_extra_header(h, sizeof(*e));
			e->error = -a->error;
			mnl_attr_put_strz(h, NLMSGERR_ATTR_MSG, "refused for the test");
		} else {
			int *done;

			h = t_put((char *)buf + off, NLMSG_DONE,
				  NLM_F_MULTI | (a->intr_done ? NLM_F_DUMP_INTR : 0));
			done = mnl_nlmsg_put_extra_header(h, sizeof(int));
			*done = 0;
		}
		off += h->nlmsg_len;
	}
	(void)len;
	return (ssize_t)off;
}

struct t_seen {
	uint32_t v[256];
	int n;
};

static int t_cb(const struct nlmsghdr *nlh, void *data)
{
	struct t_seen *s = data;
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == 1 && s->n < 256)
			s->v[s->n++] = mnl_attr_get_u32(a);
	return MNL_CB_OK;
}

static void t_setup(struct l2s_nl *nl, struct l2s_nl_io *nio, struct t_io *io)
{
	memset(nl, 0, sizeof(*nl));
	nio->send = t_send;
	nio->recv = t_recv;
	nio->ctx = io;
	nio->portid = T_PORTID;
	nl->io = nio;
	nl->buf = t_buf;
}

static int t_talk(struct l2s_nl *nl, uint16_t flags, struct t_seen *seen)
{
	char req[256];
	struct nlmsghdr *h = t_put(req, T_FAMILY, NLM_F_REQUEST | flags);
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(h, sizeof(*g));

	g->cmd = 1;
	return l2s_nl_talk(nl, h, t_cb, seen);
}

/* An uninterrupted dump over three datagrams: every entry once, in order. */
TEST(nl_dump_clean_once)
{
	static struct t_io io = { .natt = 1,
		.att = { { .ndgrams = 3, .per = 2, .intr_dgram = -1, .base = 10 } } };
	static struct t_seen seen;
	struct l2s_nl_io nio;
	struct l2s_nl nl;
	int i;

	t_setup(&nl, &nio, &io);
	EXPECT_EQ(t_talk(&nl, NLM_F_DUMP, &seen), 0);
	EXPECT_EQ(io.sends, 1);
	EXPECT_EQ(nl.dump_tries, 1);
	ASSERT_EQ(seen.n, 6);
	for (i = 0; i < 6; i++)
		EXPECT_EQ(seen.v[i], 10 + i);
}

/*
 * Interrupted twice (a middle datagram, then only the DONE): the rest of each
 * interrupted dump is drained, the dump sent again, and the callback sees the
 * third one only, each entry once.
 */
TEST(nl_dump_interrupted_retried)
{
	static struct t_io io = { .natt = 3, .att = {
		{ .ndgrams = 3, .per = 2, .intr_dgram = 1, .base = 100 },
		{ .ndgrams = 2, .per = 3, .intr_dgram = -1, .intr_done = 1, .base = 200 },
		{ .ndgrams = 2, .per = 2, .intr_dgram = -1, .base = 300 },
	} };
	static struct t_seen seen;
	struct l2s_nl_io nio;
	struct l2s_nl nl;
	int i;

	t_setup(&nl, &nio, &io);
	EXPECT_EQ(t_talk(&nl, NLM_F_DUMP, &seen), 0);
	EXPECT_EQ(io.sends, 3);
	EXPECT_EQ(nl.dump_tries, 3);
	/* every datagram read, none past the end */
	EXPECT_EQ(io.recvs, 3 + 2 + 2);
	EXPECT_TRUE((io.last_flags & NLM_F_DUMP) == NLM_F_DUMP);
	ASSERT_EQ(seen.n, 4);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(seen.v[i], 300 + i);
}

/* Interrupted every time: bounded, a clear error, nothing handed to the callback. */
TEST(nl_dump_interrupted_gives_up)
{
	static struct t_io io = { .natt = 1,
		.att = { { .ndgrams = 2, .per = 2, .intr_dgram = 0, .base = 1 } } };
	static struct t_seen seen;
	struct l2s_nl_io nio;
	struct l2s_nl nl;

	t_setup(&nl, &nio, &io);
	EXPECT_EQ(t_talk(&nl, NLM_F_DUMP, &seen), -EINTR);
	EXPECT_EQ(io.sends, L2S_NL_DUMP_TRIES);
	EXPECT_EQ(io.recvs, 2 * L2S_NL_DUMP_TRIES);
	EXPECT_EQ(seen.n, 0);
	EXPECT_STREQ(nl.errmsg,
		     "dump interrupted by concurrent changes 5 times in a row (NLM_F_DUMP_INTR); try again");
}

/* A dump the kernel refuses is not retried: its errno and message come back. */
TEST(nl_dump_refused_not_retried)
{
	static struct t_io io = { .natt = 1,
		.att = { { .ndgrams = 1, .per = 0, .intr_dgram = -1, .error = EPERM } } };
	static struct t_seen seen;
	struct l2s_nl_io nio;
	struct l2s_nl nl;

	t_setup(&nl, &nio, &io);
	EXPECT_EQ(t_talk(&nl, NLM_F_DUMP, &seen), -EPERM);
	EXPECT_EQ(io.sends, 1);
	EXPECT_STREQ(nl.errmsg, "refused for the test");
}

/* A request that is not a dump is read as before: entries, then the DONE. */
TEST(nl_not_a_dump_unchanged)
{
	static struct t_io io = { .natt = 2, .att = {
		{ .ndgrams = 1, .per = 1, .intr_dgram = -1, .base = 7 },
		{ .ndgrams = 1, .per = 1, .intr_dgram = -1, .base = 8 },
	} };
	static struct t_seen seen;
	struct l2s_nl_io nio;
	struct l2s_nl nl;

	t_setup(&nl, &nio, &io);
	EXPECT_EQ(t_talk(&nl, NLM_F_ACK, &seen), 0);
	EXPECT_EQ(io.sends, 1);
	ASSERT_EQ(seen.n, 1);
	EXPECT_EQ(seen.v[0], 7);
}

/*
 * A request without NLM_F_ACK (LOGIN_BEGIN, LOGIN_REPORT from l2tpseld):
 * its reply datagram is the end, nothing more is read.
 */
TEST(nl_no_ack_reply_ends)
{
	static struct t_io io = { .natt = 1,
		.att = { { .ndgrams = 1, .per = 1, .intr_dgram = -1, .bare = 1, .base = 9 } } };
	static struct t_seen seen;
	struct l2s_nl_io nio;
	struct l2s_nl nl;

	t_setup(&nl, &nio, &io);
	EXPECT_EQ(t_talk(&nl, 0, &seen), 0);
	EXPECT_EQ(io.sends, 1);
	EXPECT_EQ(io.recvs, 1);
	ASSERT_EQ(seen.n, 1);
	EXPECT_EQ(seen.v[0], 9);
}

/* Refused without NLM_F_ACK: the error and its message, as with it. */
TEST(nl_no_ack_refusal_has_message)
{
	static struct t_io io = { .natt = 1,
		.att = { { .ndgrams = 1, .per = 0, .intr_dgram = -1, .error = ENOENT } } };
	static struct t_seen seen;
	struct l2s_nl_io nio;
	struct l2s_nl nl;

	t_setup(&nl, &nio, &io);
	EXPECT_EQ(t_talk(&nl, 0, &seen), -ENOENT);
	EXPECT_EQ(io.recvs, 1);
	EXPECT_EQ(seen.n, 0);
	EXPECT_STREQ(nl.errmsg, "refused for the test");
}
