// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpsel login start / stop: talk to the l2tpseld agent over its local API
 * (a UNIX socket, Documentation/l2tpseld.md) rather than to the kernel.
 *
 *   l2tpsel login start { USER | profile P } [profile P] [key K] [brief] [socket PATH]
 *   l2tpsel login stop ID [socket PATH]
 *   l2tpsel login { show | stats } [socket PATH]
 *
 * start prints every line the agent sends (each attempt, its outcome, the
 * result) and exits 0 when the login succeeded, 2 when it failed, 1 on an
 * error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "cli.h"

#define AGENT_SOCKET_DEFAULT "/run/l2tpseld.sock"

static int agent_connect(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path))
		return cli_err("login: socket path \"%s\" is too long", path);
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		return cli_err("login: cannot reach l2tpseld at %s: %s", path, strerror(e));
	}
	return fd;
}

/* Send @req, print lines until a final one. Return: 0 ok, 2 refused/failed, -1 error. */
static int agent_talk(const char *path, const char *req)
{
	char buf[4096], *nl;
	size_t len = 0;
	int fd = agent_connect(path), ret = -1;

	if (fd < 0)
		return -1;
	if (write(fd, req, strlen(req)) != (ssize_t)strlen(req)) {
		close(fd);
		return cli_err("login: write to l2tpseld: %s", strerror(errno));
	}
	for (;;) {
		ssize_t n = read(fd, buf + len, sizeof(buf) - 1 - len);

		if (n <= 0) {
			cli_err("login: l2tpseld closed the connection before the end");
			break;
		}
		len += (size_t)n;
		buf[len] = '\0';
		while ((nl = strchr(buf, '\n'))) {
			*nl = '\0';
			if (!strncmp(buf, "error ", 6)) {
				cli_err("login: %s", buf + 6);
				close(fd);
				return -1;
			}
			if (!strcmp(buf, "end")) {
				close(fd);
				return 0;
			}
			printf("%s\n", buf);
			fflush(stdout);
			if (!strncmp(buf, "done ", 5) || !strcmp(buf, "ok")) {
				ret = !strncmp(buf, "done fail", 9) ? 2 : 0;
				close(fd);
				return ret;
			}
			len -= (size_t)(nl + 1 - buf);
			memmove(buf, nl + 1, len + 1);
		}
		if (len == sizeof(buf) - 1) {
			cli_err("login: line from l2tpseld too long");
			break;
		}
	}
	close(fd);
	return ret;
}

/* [ socket PATH ], the last words of @cmd: anything else gets @cmd's usage. */
static int agent_socket_arg(const char *cmd, const char *usage, int argc, char **argv,
			    const char **path)
{
	for (; argc > 0; NEXT_ARG_FWD()) {
		if (strcmp(*argv, "socket"))
			return cli_err("%s: usage: %s", cmd, usage);
		NEXT_ARG(cmd, "a path");
		*path = *argv;
	}
	return 0;
}

int agent_login_run(struct cli *c, int argc, char **argv)
{
	const char *path = getenv("L2TPSELD_SOCKET"), *cmd = "login start";
	char req[1024];
	size_t off;
	int words = argc;

	if (!path || !*path)
		path = AGENT_SOCKET_DEFAULT;
	if (!strcmp(argv[0], "show") || !strcmp(argv[0], "stats")) {
		bool show = argv[0][1] == 'h';

		if (agent_socket_arg(show ? "login show" : "login stats",
				     show ? "login show [socket PATH]" : "login stats [socket PATH]",
				     argc - 1, argv + 1, &path))
			return -1;
		snprintf(req, sizeof(req), "%s\n", argv[0]);
		return agent_talk(path, req);
	}
	if (!strcmp(argv[0], "stop")) {
		if (argc < 2)
			return cli_err("login stop: usage: login stop ID [socket PATH]");
		if (agent_socket_arg("login stop", "login stop ID [socket PATH]", argc - 2, argv + 2,
				     &path))
			return -1;
		snprintf(req, sizeof(req), "logout %s\n", argv[1]);
		return agent_talk(path, req);
	}
	/* start */
	off = (size_t)snprintf(req, sizeof(req), "login");
	for (NEXT_ARG_FWD(); argc > 0; NEXT_ARG_FWD()) {
		if (!strcmp(*argv, "socket")) {
			NEXT_ARG(cmd, "a path");
			path = *argv;
			continue;
		}
		if (!strcmp(*argv, "profile") && !NEXT_ARG_OK())
			return missarg(cmd, *argv, "a profile name");
		if (!strcmp(*argv, "key") && !NEXT_ARG_OK())
			return missarg(cmd, *argv, "a load-balancing key");
		if (strpbrk(*argv, " \t\r\n"))
			return cli_err("login start: \"%s\": no blanks allowed", *argv);
		off += (size_t)snprintf(req + off, sizeof(req) - off, " %s", *argv);
		if (off >= sizeof(req) - 2)
			return cli_err("login start: arguments too long");
	}
	if (words < 2)
		return cli_err("login start: give USER@DOMAIN or profile PROFILE");
	strcat(req, "\n");
	return agent_talk(path, req);
}
