/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generic netlink plumbing shared by the l2tpsel CLI and the l2tpseld agent (libmnl).
 */
#ifndef L2S_NL_H
#define L2S_NL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <libmnl/libmnl.h>

/*
 * What l2s_nl_talk() sends and receives through: the socket when NULL (what
 * l2s_nl_open() sets); the unit tests of the dump retry put scripted
 * datagrams here.
 */
struct l2s_nl_io {
	ssize_t (*send)(void *ctx, const void *buf, size_t len);
	ssize_t (*recv)(void *ctx, void *buf, size_t len);
	void *ctx;
	unsigned int portid;
};

/* Times a dump is sent when the kernel flags it NLM_F_DUMP_INTR, before l2s_nl_talk() gives up. */
#define L2S_NL_DUMP_TRIES	5

struct l2s_nl {
	struct mnl_socket *sock;
	uint16_t family;	/* resolved id of "l2tpsel", 0 until resolved */
	uint32_t events_grp;	/* multicast group id of "events", 0 if none */
	uint32_t seq;
	char *buf;		/* MNL_SOCKET_BUFFER_SIZE receive buffer */
	char errmsg[256];	/* last error: the kernel's extack message when it sent one */
	const struct l2s_nl_io *io;	/* NULL: the socket */
	unsigned int dump_tries;	/* sends of the last dump (1 when not interrupted) */
};

/* Open a NETLINK_GENERIC socket with extended ACKs; -errno on failure. */
int l2s_nl_open(struct l2s_nl *nl);
/* The same on an open, bound NETLINK_GENERIC socket @fd (one inherited across execve()). */
int l2s_nl_fdopen(struct l2s_nl *nl, int fd);
void l2s_nl_close(struct l2s_nl *nl);

/*
 * Resolve the l2tpsel family id once per process. Returns 0, -ENOENT when the
 * module is not loaded (nl->errmsg says so plainly), or another -errno.
 */
int l2s_nl_resolve(struct l2s_nl *nl);

/* What a GETFAMILY reply says of a family: its id and its "events" group. */
struct l2s_nl_family {
	uint16_t id;		/* 0 when the reply had none */
	uint32_t events_grp;	/* the id of the group named "events" */
	bool has_events;	/* there was such a group */
};

/*
 * An nlctrl GETFAMILY of the family @name in @buf (MNL_SOCKET_BUFFER_SIZE,
 * or a few hundred bytes), asking for an ACK, with sequence number @seq.
 * Every program resolves and times a family with this one request.
 */
struct nlmsghdr *l2s_nl_getfamily_req(void *buf, uint32_t seq, const char *name);
/* The reply's callback: fills the struct l2s_nl_family @data points to. */
int l2s_nl_family_cb(const struct nlmsghdr *nlh, void *data);

/* Start a request of @cmd for the l2tpsel family in nl's buffer. */
struct nlmsghdr *l2s_nl_req(struct l2s_nl *nl, char *buf, uint8_t cmd, uint16_t flags);

/*
 * What nl->errmsg says when the kernel refuses a request for lack of
 * privilege (EPERM without a message); %s is "reading" or "changing".
 */
#define L2S_NL_PERM_MSG "%s needs CAP_NET_ADMIN in the network namespace's user namespace"

/*
 * Send @nlh and process replies with @cb until the ACK/DONE; a request
 * without NLM_F_ACK (a command that always answers) ends with its reply's
 * datagram, a refusal still comes as an error with its message. Returns 0 or
 * -errno; on error nl->errmsg holds the kernel's extack message if any, or
 * for EPERM without one, L2S_NL_PERM_MSG.
 *
 * A dump (NLM_F_DUMP) is read whole before @cb sees any of it: when the
 * kernel flags a message NLM_F_DUMP_INTR (the namespace changed between two
 * of its datagrams), the rest is drained and discarded and the dump sent
 * again, up to L2S_NL_DUMP_TRIES times; then -EINTR, with nl->errmsg saying
 * so.  @cb sees one uninterrupted dump, exactly once.
 */
int l2s_nl_talk(struct l2s_nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data);

/* Enter the named network namespace (/run/netns/NAME); -errno on failure. */
int l2s_netns_enter(const char *name);

#endif
