// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpsel login start / stop: talk to the l2tpseld agent over its local API
 * (a UNIX socket, Documentation/l2tpseld.md) rather than to the kernel.
 *
 *   l2tpsel login start { USER | profile P } [profile P] [key K] [brief] [socket PATH]
 *   l2tpsel login stop ID [socket PATH]
 *   l2tpsel login { show | stats | watch } [socket PATH]
 *   l2tpsel login drain [ tunnel NAME | destination ADDR ] [ on | off ] [socket PATH]
 *	(S-OPS-1: the whole LAC; kernel none: the agent's tunnels, destinations)
 *
 * start prints every line the agent sends (each attempt, its outcome, the
 * result) and exits 0 when the login succeeded, 2 when it failed, 1 on an
 * error.  watch prints every login's lines until the agent goes away.
 * With -j each line is one JSON object (agent_line_json()).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "cli.h"
#include "print.h"

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

static bool is_number(const char *w)
{
	if (!*w || strlen(w) > 19)
		return false;
	for (; *w; w++)
		if (!isdigit((unsigned char)*w))
			return false;
	return true;
}

/* KEY VALUE as a JSON member: "peer-tid" is "peer_tid", as in the CLI's keys */
static void json_field(const char *key, const char *val)
{
	char k[64], *p;

	snprintf(k, sizeof(k), "%s", key);
	for (p = k; (p = strchr(p, '-')); )
		*p = '_';
	if (is_number(val))
		pr_u64(k, NULL, strtoull(val, NULL, 10));
	else
		pr_str(k, NULL, val);
}

/*
 * One line of the agent's API as a JSON object.  Every line reads
 * "[login ID] EVENT [NUMBER] [WORD] KEY VALUE ... [WORD]": EVENT is
 * "event", its NUMBER goes under EVENT's own name ("attempt": 2), a word
 * that opens an odd run of the rest is the "result" of "done" and
 * "outcome" lines, the "state" of a "drain" line and the "name" of
 * others, one that closes it the
 * "kind" (an attempt's sccrq, join or reuse).  So a reader keys on
 * fields, never on the wording of a line.
 */
static void agent_line_json(const char *text)
{
	char line[4096], *w[64], *save = NULL, *p;
	const char *ev;
	int n = 0, i = 0;

	snprintf(line, sizeof(line), "%s", text);
	for (p = strtok_r(line, " ", &save); p && n < 64; p = strtok_r(NULL, " ", &save))
		w[n++] = p;
	if (!n)
		return;
	pr_reset();
	pr_open_obj(NULL);
	if (n >= 3 && !strcmp(w[0], "login") && is_number(w[1]) && strcmp(w[2], "user")) {
		json_field("login", w[1]);	/* a watched login's line */
		i = 2;
	}
	ev = w[i++];
	pr_str("event", NULL, ev);
	if (i < n && is_number(w[i])) {
		json_field(ev, w[i]);
		i++;
	}
	if ((n - i) % 2) {
		if (!strcmp(ev, "done") || !strcmp(ev, "outcome"))
			pr_str("result", NULL, w[i++]);
		else if (!strcmp(ev, "attempt"))
			pr_str("kind", NULL, w[--n]);
		else if (!strcmp(ev, "drain"))
			pr_str("state", NULL, w[i++]);	/* draining, drained, off */
		else
			pr_str("name", NULL, w[i++]);
	}
	for (; i + 1 < n; i += 2)
		json_field(w[i], w[i + 1]);
	pr_close_obj();
	pr_done();
}

static void agent_print_line(const char *line)
{
	if (pr_is_json())
		agent_line_json(line);
	else
		printf("%s\n", line);
	fflush(stdout);
}

/*
 * Send @req, print lines until a final one (@watch: until the agent
 * closes).  Return: 0 ok, 2 refused/failed, -1 error.
 */
static int agent_talk(const char *path, const char *req, bool watch)
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
			if (watch && n == 0) {
				ret = 0;
				break;
			}
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
			agent_print_line(buf);
			if (!watch && (!strncmp(buf, "done ", 5) || !strcmp(buf, "ok"))) {
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
	if (!strcmp(argv[0], "show") || !strcmp(argv[0], "stats") || !strcmp(argv[0], "watch")) {
		char name[16], usage[64];

		snprintf(name, sizeof(name), "login %s", argv[0]);
		snprintf(usage, sizeof(usage), "login %s [socket PATH]", argv[0]);
		if (agent_socket_arg(name, usage, argc - 1, argv + 1, &path))
			return -1;
		snprintf(req, sizeof(req), "%s\n", argv[0]);
		return agent_talk(path, req, argv[0][0] == 'w');
	}
	/* the whole LAC: no new login, no PADO; its sessions stay (S-OPS-1) */
	if (!strcmp(argv[0], "drain")) {
		static const char usage[] =
			"login drain [ tunnel NAME | destination ADDR ] [ on | off ] [socket PATH]";
		const char *onoff = "";
		char what[300] = "";

		/* kernel none: the agent's own selection (S-OPS-1) */
		if (argc > 2 && (!strcmp(argv[1], "tunnel") || !strcmp(argv[1], "destination"))) {
			if (strpbrk(argv[2], " \t\r\n") || strlen(argv[2]) > 256)
				return cli_err("login drain: \"%s\": no blanks, at most 256 bytes", argv[2]);
			snprintf(what, sizeof(what), " %s %s", argv[1], argv[2]);
			NEXT_ARG_FWD();
			NEXT_ARG_FWD();
		}
		if (argc > 1 && (!strcmp(argv[1], "on") || !strcmp(argv[1], "off"))) {
			onoff = argv[1];
			NEXT_ARG_FWD();
		}
		if (agent_socket_arg("login drain", usage, argc - 1, argv + 1, &path))
			return -1;
		snprintf(req, sizeof(req), "drain%s%s%s\n", what, *onoff ? " " : "", onoff);
		return agent_talk(path, req, false);
	}
	if (!strcmp(argv[0], "stop")) {
		if (argc < 2)
			return cli_err("login stop: usage: login stop ID [socket PATH]");
		if (agent_socket_arg("login stop", "login stop ID [socket PATH]", argc - 2, argv + 2,
				     &path))
			return -1;
		snprintf(req, sizeof(req), "logout %s\n", argv[1]);
		return agent_talk(path, req, false);
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
	return agent_talk(path, req, false);
}
