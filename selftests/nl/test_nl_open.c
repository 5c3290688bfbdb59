// SPDX-License-Identifier: GPL-2.0
/*
 * The netlink socket of userspace/lib/nl.c is close-on-exec whether it was
 * opened or adopted (an upgrade's, or systemd's store's): the agent's
 * socket owns its sessions' counts in the module, and a pppd or script it
 * starts must not keep it open.
 */
#include <fcntl.h>
#include <unistd.h>
#include <sys/socket.h>
#include <libmnl/libmnl.h>

#include "harness.h"
#include "nl.h"

static int cloexec(const struct l2s_nl *nl)
{
	return fcntl(mnl_socket_get_fd(nl->sock), F_GETFD) & FD_CLOEXEC;
}

TEST(nl_socket_close_on_exec)
{
	struct l2s_nl nl, adopted;
	int fd;

	ASSERT_EQ(l2s_nl_open(&nl), 0);
	EXPECT_TRUE(cloexec(&nl));
	/* as a new process finds it: inherited, the flag cleared for the exec */
	fd = dup(mnl_socket_get_fd(nl.sock));
	ASSERT_TRUE(fd >= 0);
	EXPECT_FALSE(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	ASSERT_EQ(l2s_nl_fdopen(&adopted, fd), 0);
	EXPECT_TRUE(cloexec(&adopted));
	l2s_nl_close(&adopted);
	l2s_nl_close(&nl);
}
