/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Raw generic-netlink plumbing for the l2tpsel selftests (nl_contract,
 * nl_fuzz), on libmnl; the family is resolved with userspace/lib/nl.c's
 * GETFAMILY.  Unlike userspace/lib/nl.c it keeps everything a test
 * wants to look at: the errno, the extack message, the offset of the
 * attribute the kernel blamed, the missing attribute's type, the number of
 * datagrams a dump took, NLM_F_DUMP_INTR, and every datagram's raw bytes
 * (to prove a secret is never in any of them).
 */
#ifndef L2S_NLTEST_H
#define L2S_NLTEST_H

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/l2tpsel.h>

#include "attr.h"
#include "nl.h"

#define NLT_BUF		(64 * 1024)

struct nlt {
	struct mnl_socket *sk;
	uint16_t fam;		/* the l2tpsel family id */
	uint32_t grp;		/* the "events" group id */
	uint32_t seq;
	char *rx;		/* NLT_BUF receive buffer */
	size_t rxlen;		/* bytes read at a time: 0 for NLT_BUF */
	/* Called with every datagram received (raw bytes), if set. */
	void (*raw)(const void *buf, size_t len, void *arg);
	void *raw_arg;
};

/* What came back for one request. */
struct nlt_ack {
	int err;		/* 0 or -errno */
	char msg[512];		/* the extack message, "" when none */
	bool has_offs;
	uint32_t offs;		/* NLMSGERR_ATTR_OFFS: the blamed attribute */
	bool has_miss;
	uint32_t miss_type;	/* NLMSGERR_ATTR_MISS_TYPE */
	unsigned int nmsgs;	/* data messages (replies, dump entries) */
	unsigned int nrecv;	/* datagrams */
	bool intr;		/* a message carried NLM_F_DUMP_INTR */
	bool done;		/* the exchange ended (ACK, error or DONE) */
};

typedef int (*nlt_cb)(const struct nlmsghdr *nlh, void *arg);

static int nlt_send(struct nlt *t, struct nlmsghdr *nlh)
{
	if (mnl_socket_sendto(t->sk, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	return 0;
}

/* Parse an NLMSG_ERROR (or a DONE carrying an error) into @ack. */
static void nlt_parse_err(const struct nlmsghdr *nlh, struct nlt_ack *ack)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	unsigned int off = sizeof(*e);
	const struct nlattr *a;

	ack->err = e->error;
	ack->done = true;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
	mnl_attr_for_each(a, nlh, off) {
		switch (mnl_attr_get_type(a)) {
		case NLMSGERR_ATTR_MSG:
			snprintf(ack->msg, sizeof(ack->msg), "%.*s",
				 (int)mnl_attr_get_payload_len(a), (const char *)mnl_attr_get_payload(a));
			break;
		case NLMSGERR_ATTR_OFFS:
			ack->has_offs = true;
			ack->offs = mnl_attr_get_u32(a);
			break;
		case NLMSGERR_ATTR_MISS_TYPE:
			ack->has_miss = true;
			ack->miss_type = mnl_attr_get_u32(a);
			break;
		}
	}
}

/*
 * Read until the exchange of @seq ends.  Data messages go to @cb (may be
 * NULL).  With @timeout_ms >= 0, give up after that long without a datagram
 * (ack->done stays false).  Returns 0, or -errno of the socket itself.
 */
static int nlt_recv(struct nlt *t, uint32_t seq, nlt_cb cb, void *arg,
		    struct nlt_ack *ack, int timeout_ms)
{
	while (!ack->done) {
		const struct nlmsghdr *nlh;
		ssize_t n;
		int left;

		if (timeout_ms >= 0) {
			struct pollfd p = { .fd = mnl_socket_get_fd(t->sk), .events = POLLIN };

			if (poll(&p, 1, timeout_ms) <= 0)
				return 0;
		}
		n = recv(mnl_socket_get_fd(t->sk), t->rx, t->rxlen ? t->rxlen : NLT_BUF, MSG_TRUNC);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if ((size_t)n > (t->rxlen ? t->rxlen : NLT_BUF))
			return -EMSGSIZE;	/* truncated: the test's buffer is too small */
		ack->nrecv++;
		if (t->raw)
			t->raw(t->rx, (size_t)n, t->raw_arg);
		left = (int)n;
		for (nlh = (const struct nlmsghdr *)t->rx; mnl_nlmsg_ok(nlh, left);
		     nlh = mnl_nlmsg_next(nlh, &left)) {
			if (nlh->nlmsg_seq != seq)
				continue;	/* a late answer to an earlier request */
			if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
				ack->intr = true;
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				nlt_parse_err(nlh, ack);
				break;
			}
			if (nlh->nlmsg_type == NLMSG_DONE) {
				ack->done = true;
				if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(int))
					ack->err = *(const int *)mnl_nlmsg_get_payload(nlh);
				if (ack->err)
					nlt_parse_err(nlh, ack);
				break;
			}
			if (nlh->nlmsg_type < NLMSG_MIN_TYPE)
				continue;
			ack->nmsgs++;
			if (cb)
				cb(nlh, arg);
		}
	}
	return 0;
}

/* Start a request of @cmd in @buf (NLT_BUF bytes). */
static struct nlmsghdr *nlt_req(struct nlt *t, void *buf, uint8_t cmd, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = t->fam;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++t->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = L2TPSEL_GENL_VERSION;
	return nlh;
}

/*
 * Send @nlh (NLM_F_ACK added unless it is a dump) and read its answer.
 * Returns ack->err, or -errno when the socket failed (ack->done false).
 */
static int nlt_talk(struct nlt *t, struct nlmsghdr *nlh, nlt_cb cb, void *arg,
		    struct nlt_ack *ack)
{
	int ret;

	memset(ack, 0, sizeof(*ack));
	if ((nlh->nlmsg_flags & NLM_F_DUMP) != NLM_F_DUMP)
		nlh->nlmsg_flags |= NLM_F_ACK;
	ret = nlt_send(t, nlh);
	if (ret)
		return ret;
	ret = nlt_recv(t, nlh->nlmsg_seq, cb, arg, ack, -1);
	return ret ? ret : ack->err;
}

static int nlt_open_raw(struct nlt *t)
{
	int one = 1;

	memset(t, 0, sizeof(*t));
	t->rx = malloc(NLT_BUF);
	t->sk = mnl_socket_open(NETLINK_GENERIC);
	if (!t->rx || !t->sk)
		return -errno;
	mnl_socket_setsockopt(t->sk, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(t->sk, NETLINK_CAP_ACK, &one, sizeof(one));
	if (mnl_socket_bind(t->sk, 0, MNL_SOCKET_AUTOPID) < 0)
		return -errno;
	t->seq = (uint32_t)getpid() << 12;
	return 0;
}

/*
 * Open a socket in the current namespace and resolve the family.  The
 * kernel sizes dump datagrams by the largest read it has seen on the
 * socket: @rxlen (0: NLT_BUF) is the size of every read, from the first.
 */
static int nlt_open_rx(struct nlt *t, size_t rxlen)
{
	struct l2s_nl_family fam = { 0 };
	char buf[256];
	struct nlt_ack ack;
	int ret;

	ret = nlt_open_raw(t);
	if (ret)
		return ret;
	t->rxlen = rxlen;
	ret = nlt_talk(t, l2s_nl_getfamily_req(buf, ++t->seq, L2TPSEL_GENL_NAME),
		       l2s_nl_family_cb, &fam, &ack);
	if (ret)
		return ret;
	t->fam = fam.id;
	t->grp = fam.events_grp;
	return t->fam ? 0 : -ENOENT;
}

static inline int nlt_open(struct nlt *t)
{
	return nlt_open_rx(t, 0);
}

/* Read one datagram (events: sequence 0) within @timeout_ms; 0 when none came. */
static int nlt_recv_one(struct nlt *t, nlt_cb cb, void *arg, int timeout_ms)
{
	struct pollfd p = { .fd = mnl_socket_get_fd(t->sk), .events = POLLIN };
	const struct nlmsghdr *nlh;
	ssize_t n;
	int left, got = 0;

	if (poll(&p, 1, timeout_ms) <= 0)
		return 0;
	n = recv(p.fd, t->rx, NLT_BUF, MSG_DONTWAIT);
	if (n <= 0)
		return 0;
	if (t->raw)
		t->raw(t->rx, (size_t)n, t->raw_arg);
	left = (int)n;
	for (nlh = (const struct nlmsghdr *)t->rx; mnl_nlmsg_ok(nlh, left);
	     nlh = mnl_nlmsg_next(nlh, &left)) {
		if (nlh->nlmsg_type < NLMSG_MIN_TYPE)
			continue;
		got++;
		if (cb)
			cb(nlh, arg);
	}
	return got;
}

static void nlt_close(struct nlt *t)
{
	if (t->sk)
		mnl_socket_close(t->sk);
	free(t->rx);
	t->sk = NULL;
	t->rx = NULL;
}

static int nlt_subscribe(struct nlt *t)
{
	uint32_t g = t->grp;

	if (!g)
		return -ENOENT;
	if (mnl_socket_setsockopt(t->sk, NETLINK_ADD_MEMBERSHIP, &g, sizeof(g)) < 0)
		return -errno;
	return 0;
}

/* ---- reading attributes ---------------------------------------------- */

/* A message's top-level attributes: the last of each type, and a bit per type seen. */
struct nlt_attrs {
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];
	uint64_t seen[2];	/* bit per type, types up to 127 */
	unsigned int n, unknown, dups;
	uint8_t cmd;
};

static void nlt_parse(const struct nlmsghdr *nlh, struct nlt_attrs *at)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *a;

	memset(at, 0, sizeof(*at));
	at->cmd = g->cmd;
	mnl_attr_for_each(a, nlh, sizeof(*g)) {
		uint16_t type = mnl_attr_get_type(a);

		at->n++;
		if (type > L2TPSEL_A_MAX || type == 0) {
			at->unknown++;
			continue;
		}
		if (at->tb[type])
			at->dups++;
		at->tb[type] = a;
		at->seen[type / 64] |= 1ull << (type % 64);
	}
}

static inline uint64_t nlt_bit(unsigned int type)
{
	return 1ull << (type % 64);
}

static inline uint32_t nlt_u32(const struct nlt_attrs *at, int type)
{
	return at->tb[type] && mnl_attr_get_payload_len(at->tb[type]) == 4 ?
	       mnl_attr_get_u32(at->tb[type]) : 0xdeadbeef;
}

static inline uint8_t nlt_u8(const struct nlt_attrs *at, int type)
{
	return at->tb[type] && mnl_attr_get_payload_len(at->tb[type]) == 1 ?
	       mnl_attr_get_u8(at->tb[type]) : 0xee;
}

static inline uint16_t nlt_u16(const struct nlt_attrs *at, int type)
{
	return at->tb[type] && mnl_attr_get_payload_len(at->tb[type]) == 2 ?
	       mnl_attr_get_u16(at->tb[type]) : 0xeeee;
}

static inline uint64_t nlt_u64(const struct nlt_attrs *at, int type)
{
	return at->tb[type] && mnl_attr_get_payload_len(at->tb[type]) == 8 ?
	       mnl_attr_get_u64(at->tb[type]) : 0xdeadbeefdeadbeefull;
}

static inline const char *nlt_str(const struct nlt_attrs *at, int type)
{
	const struct nlattr *a = at->tb[type];

	if (!a || !mnl_attr_get_payload_len(a) ||
	    ((const char *)mnl_attr_get_payload(a))[mnl_attr_get_payload_len(a) - 1])
		return NULL;
	return mnl_attr_get_str(a);
}

/* The attribute types of a message as text: "REMOTE PORT" (names: lib/attr.c). */
static inline void nlt_types(const struct nlt_attrs *at, char *out, size_t len)
{
	unsigned int t;
	size_t o = 0;

	out[0] = 0;
	for (t = 1; t <= L2TPSEL_A_MAX && o < len; t++)
		if (at->seen[t / 64] & nlt_bit(t))
			o += (size_t)snprintf(out + o, len - o, "%s%s", o ? " " : "",
					      l2s_attr_name(t) ?: "?");
}

#endif /* L2S_NLTEST_H */
