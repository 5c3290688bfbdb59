// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/l2tpsel.h>

#include "nl.h"

int l2s_nl_open(struct l2s_nl *nl)
{
	int one = 1;

	memset(nl, 0, sizeof(*nl));
	nl->buf = malloc(MNL_SOCKET_BUFFER_SIZE);
	if (!nl->buf)
		return -ENOMEM;
	/*
	 * Close-on-exec: the agent's socket owns its sessions' counts in the
	 * module, and no pppd or script it starts may hold it (an upgrade
	 * hands it on by clearing the flag itself).
	 */
	nl->sock = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	if (!nl->sock)
		goto err;
	/* Ask for the kernel's error strings, and only the header of a failed request back. */
	mnl_socket_setsockopt(nl->sock, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl->sock, NETLINK_CAP_ACK, &one, sizeof(one));
	if (mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0)
		goto err;
	nl->seq = (uint32_t)getpid() << 8;
	return 0;
err:
	{
		int e = -errno;

		if (nl->sock)
			mnl_socket_close(nl->sock);
		free(nl->buf);
		nl->sock = NULL;
		nl->buf = NULL;
		return e;
	}
}

int l2s_nl_fdopen(struct l2s_nl *nl, int fd)
{
	int dom = 0, proto = -1;
	socklen_t len = sizeof(dom);

	memset(nl, 0, sizeof(*nl));
	if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &dom, &len) || dom != AF_NETLINK)
		return -ENOTSOCK;
	len = sizeof(proto);
	if (getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &proto, &len) || proto != NETLINK_GENERIC)
		return -EPROTONOSUPPORT;
	nl->buf = malloc(MNL_SOCKET_BUFFER_SIZE);
	if (!nl->buf)
		return -ENOMEM;
	fcntl(fd, F_SETFD, FD_CLOEXEC);	/* as l2s_nl_open()'s */
	nl->sock = mnl_socket_fdopen(fd);
	if (!nl->sock) {
		int e = -errno;

		free(nl->buf);
		nl->buf = NULL;
		return e;
	}
	nl->seq = (uint32_t)getpid() << 8 | 0x80;
	return 0;
}

void l2s_nl_close(struct l2s_nl *nl)
{
	if (nl->sock)
		mnl_socket_close(nl->sock);
	free(nl->buf);
	nl->sock = NULL;
	nl->buf = NULL;
}

/* Pull the extack message (NLMSGERR_ATTR_MSG) out of an NLMSG_ERROR. */
static void nl_extack(struct l2s_nl *nl, const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	unsigned int off = sizeof(*err);
	const struct nlattr *a;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += mnl_nlmsg_get_payload_len(&err->msg);
	mnl_attr_for_each(a, nlh, off) {
		if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG &&
		    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0) {
			snprintf(nl->errmsg, sizeof(nl->errmsg), "%s", mnl_attr_get_str(a));
			return;
		}
	}
}

struct nl_talk_ctx {
	struct l2s_nl *nl;
	mnl_cb_t cb;
	void *data;
};

static int nl_error_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nl_talk_ctx *ctx = data;
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*err))) {
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	nl_extack(ctx->nl, nlh);
	if (err->error) {
		errno = -err->error;
		return MNL_CB_ERROR;
	}
	return MNL_CB_STOP;
}

static int nl_data_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nl_talk_ctx *ctx = data;

	return ctx->cb ? ctx->cb(nlh, ctx->data) : MNL_CB_OK;
}

static int nl_done_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nl_talk_ctx *ctx = data;

	/* A dump's DONE carries an int error and may carry extack too. */
	if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(int)) {
		int e = *(int *)mnl_nlmsg_get_payload(nlh);

		if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
			const struct nlattr *a;

			mnl_attr_for_each(a, nlh, sizeof(int))
				if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG &&
				    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
					snprintf(ctx->nl->errmsg, sizeof(ctx->nl->errmsg), "%s",
						 mnl_attr_get_str(a));
		}
		if (e < 0) {
			errno = -e;
			return MNL_CB_ERROR;
		}
	}
	return MNL_CB_STOP;
}

static ssize_t nl_send(struct l2s_nl *nl, const struct nlmsghdr *nlh)
{
	if (nl->io)
		return nl->io->send(nl->io->ctx, nlh, nlh->nlmsg_len);
	return mnl_socket_sendto(nl->sock, nlh, nlh->nlmsg_len);
}

static ssize_t nl_recv(struct l2s_nl *nl)
{
	if (nl->io)
		return nl->io->recv(nl->io->ctx, nl->buf, MNL_SOCKET_BUFFER_SIZE);
	return mnl_socket_recvfrom(nl->sock, nl->buf, MNL_SOCKET_BUFFER_SIZE);
}

static unsigned int nl_portid(struct l2s_nl *nl)
{
	return nl->io ? nl->io->portid : mnl_socket_get_portid(nl->sock);
}

/* The datagrams of one dump, each behind its length. */
struct nl_dump_buf {
	char *data;
	size_t len, cap;
};

static int nl_dump_keep(struct nl_dump_buf *b, const char *dgram, size_t len)
{
	size_t need = b->len + sizeof(size_t) + len;

	if (need > b->cap) {
		size_t cap = b->cap ? b->cap : 65536;
		char *p;

		while (cap < need)
			cap *= 2;
		p = realloc(b->data, cap);
		if (!p)
			return -ENOMEM;
		b->data = p;
		b->cap = cap;
	}
	memcpy(b->data + b->len, &len, sizeof(len));
	memcpy(b->data + b->len + sizeof(len), dgram, len);
	b->len = need;
	return 0;
}

/*
 * Receive one whole dump into @b.  Returns 1 when it ended (DONE or ERROR of
 * @seq), with *@intr set when any of its messages carried NLM_F_DUMP_INTR;
 * or -errno.
 */
static int nl_dump_read(struct l2s_nl *nl, uint32_t seq, struct nl_dump_buf *b, bool *intr)
{
	for (;;) {
		ssize_t n = nl_recv(nl);
		const struct nlmsghdr *h;
		bool end = false;
		int left;

		if (n < 0)
			return -errno;
		left = (int)n;
		for (h = (const struct nlmsghdr *)nl->buf; mnl_nlmsg_ok(h, left);
		     h = mnl_nlmsg_next(h, &left)) {
			if (h->nlmsg_seq != seq)
				continue;
			if (h->nlmsg_flags & NLM_F_DUMP_INTR)
				*intr = true;
			if (h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_ERROR)
				end = true;
		}
		if (nl_dump_keep(b, nl->buf, (size_t)n))
			return -ENOMEM;
		if (end)
			return 1;
	}
}

static int nl_dump(struct l2s_nl *nl, struct nlmsghdr *nlh, struct nl_talk_ctx *ctx,
		   mnl_cb_t *ctl)
{
	struct nl_dump_buf b = { 0 };
	uint32_t seq = nlh->nlmsg_seq;
	unsigned int portid = nl_portid(nl);
	bool intr = false;
	size_t off;
	int ret = 0;

	for (nl->dump_tries = 1;; nl->dump_tries++) {
		b.len = 0;
		intr = false;
		if (nl_send(nl, nlh) < 0) {
			ret = -errno;
			goto out;
		}
		ret = nl_dump_read(nl, seq, &b, &intr);
		if (ret < 0)
			goto out;
		if (!intr)
			break;
		if (nl->dump_tries == L2S_NL_DUMP_TRIES) {
			snprintf(nl->errmsg, sizeof(nl->errmsg),
				 "dump interrupted by concurrent changes %u times in a row (NLM_F_DUMP_INTR); try again",
				 nl->dump_tries);
			ret = -EINTR;
			goto out;
		}
	}
	/* One uninterrupted dump: now the callback sees it. */
	ret = -EIO;
	for (off = 0; off < b.len;) {
		size_t len;

		memcpy(&len, b.data + off, sizeof(len));
		off += sizeof(len);
		ret = mnl_cb_run2(b.data + off, len, seq, portid, nl_data_cb, ctx, ctl,
				  NLMSG_MIN_TYPE);
		off += len;
		if (ret < 0) {
			ret = errno ? -errno : -EIO;
			goto out;
		}
		if (ret == MNL_CB_STOP) {
			ret = 0;
			goto out;
		}
	}
	ret = -EIO;
out:
	free(b.data);
	return ret;
}

/* The l2tpsel commands that only read. */
static bool nl_cmd_reads(uint8_t cmd)
{
	switch (cmd) {
	case L2TPSEL_CMD_GET_INFO:
	case L2TPSEL_CMD_LIMIT_GET:
	case L2TPSEL_CMD_TGROUP_GET:
	case L2TPSEL_CMD_SLG_GET:
	case L2TPSEL_CMD_CLIENT_GET:
	case L2TPSEL_CMD_SESSION_GET:
	case L2TPSEL_CMD_SUMMARY_GET:
	case L2TPSEL_CMD_PROFILE_GET:
	case L2TPSEL_CMD_TUNNEL_GET:
	case L2TPSEL_CMD_DOMAIN_GET:
	case L2TPSEL_CMD_DEST_GET:
	case L2TPSEL_CMD_LOCKOUT_GET:
	case L2TPSEL_CMD_LOGIN_TEST:
	case L2TPSEL_CMD_RL_GET:
	case L2TPSEL_CMD_THROTTLE_GET:
		return true;
	default:
		return false;
	}
}

/*
 * The generic-netlink core refuses a command without its permission with a
 * bare EPERM: say what is missing (the family asks for CAP_NET_ADMIN over
 * the network namespace's user namespace, reads included).
 */
static void nl_perm_msg(struct l2s_nl *nl, const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);

	if (nl->errmsg[0] || nlh->nlmsg_type != nl->family || !nl->family)
		return;
	snprintf(nl->errmsg, sizeof(nl->errmsg), L2S_NL_PERM_MSG,
		 nl_cmd_reads(g->cmd) ? "reading" : "changing");
}

static int nl_talk(struct l2s_nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data);

int l2s_nl_talk(struct l2s_nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	int ret = nl_talk(nl, nlh, cb, data);

	if (ret == -EPERM)
		nl_perm_msg(nl, nlh);
	return ret;
}

static int nl_talk(struct l2s_nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	struct nl_talk_ctx ctx = { .nl = nl, .cb = cb, .data = data };
	mnl_cb_t ctl[NLMSG_MIN_TYPE] = {
		[NLMSG_ERROR] = nl_error_cb,
		[NLMSG_DONE] = nl_done_cb,
	};
	unsigned int portid = nl_portid(nl);
	uint32_t seq = nlh->nlmsg_seq;
	ssize_t n;
	int ret;

	nl->errmsg[0] = '\0';
	if ((nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP)
		return nl_dump(nl, nlh, &ctx, ctl);
	if (nl_send(nl, nlh) < 0)
		return -errno;
	for (;;) {
		n = nl_recv(nl);
		if (n < 0)
			return -errno;
		ret = mnl_cb_run2(nl->buf, (size_t)n, seq, portid, nl_data_cb, &ctx, ctl,
				  NLMSG_MIN_TYPE);
		if (ret < 0)
			return errno ? -errno : -EIO;
		/* without NLM_F_ACK the reply is the end: no ACK follows it */
		if (ret == MNL_CB_STOP || !(nlh->nlmsg_flags & NLM_F_ACK))
			return 0;
	}
}

/* Record the "events" group id from CTRL_ATTR_MCAST_GROUPS. */
static void nl_family_groups(struct l2s_nl_family *fam, const struct nlattr *groups)
{
	const struct nlattr *grp, *a;

	mnl_attr_for_each_nested(grp, groups) {
		const char *name = NULL;
		uint32_t id = 0;

		mnl_attr_for_each_nested(a, grp) {
			if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_NAME &&
			    !mnl_attr_validate(a, MNL_TYPE_NUL_STRING))
				name = mnl_attr_get_str(a);
			else if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_ID &&
				 !mnl_attr_validate(a, MNL_TYPE_U32))
				id = mnl_attr_get_u32(a);
		}
		if (name && !strcmp(name, L2TPSEL_MCGRP_EVENTS)) {
			fam->events_grp = id;
			fam->has_events = true;
		}
	}
}

int l2s_nl_family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct l2s_nl_family *fam = data;
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID &&
		    mnl_attr_validate(a, MNL_TYPE_U16) == 0)
			fam->id = mnl_attr_get_u16(a);
		else if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GROUPS)
			nl_family_groups(fam, a);
	}
	return MNL_CB_OK;
}

struct nlmsghdr *l2s_nl_getfamily_req(void *buf, uint32_t seq, const char *name)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = CTRL_CMD_GETFAMILY;
	g->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, name);
	return nlh;
}

struct nlmsghdr *l2s_nl_req(struct l2s_nl *nl, char *buf, uint8_t cmd, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = nl->family;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	nlh->nlmsg_seq = ++nl->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = L2TPSEL_GENL_VERSION;
	return nlh;
}

int l2s_nl_resolve(struct l2s_nl *nl)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct l2s_nl_family fam = { 0 };
	struct nlmsghdr *nlh;
	int ret;

	if (nl->family)
		return 0;
	nlh = l2s_nl_getfamily_req(buf, ++nl->seq, L2TPSEL_GENL_NAME);
	ret = l2s_nl_talk(nl, nlh, l2s_nl_family_cb, &fam);
	if (fam.has_events)
		nl->events_grp = fam.events_grp;
	if (ret == -ENOENT) {
		snprintf(nl->errmsg, sizeof(nl->errmsg),
			 "the l2tpsel kernel module is not loaded (generic netlink family \"%s\" not found); load it with 'insmod l2tpsel.ko'",
			 L2TPSEL_GENL_NAME);
		return ret;
	}
	if (ret)
		return ret;
	if (!fam.id) {
		snprintf(nl->errmsg, sizeof(nl->errmsg), "the kernel answered GETFAMILY without a family id");
		return -EPROTO;
	}
	nl->family = fam.id;
	return 0;
}

int l2s_netns_enter(const char *name)
{
	char path[512];
	int fd, ret = 0;

	if (strchr(name, '/'))
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "/run/netns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (setns(fd, CLONE_NEWNET) < 0)
		ret = -errno;
	close(fd);
	return ret;
}
