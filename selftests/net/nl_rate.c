// SPDX-License-Identifier: GPL-2.0
/*
 * nl_rate: round trips per second of three kinds of request, one at a time on
 * one socket, to compare kernels (Documentation/debug-kernel.md, "Netlink
 * cost"):
 *
 *   nl_rate getfamily N          nlctrl GETFAMILY "l2tpsel" (the kernel's own
 *                                genl path, none of the module's code)
 *   nl_rate info N               l2tpsel GET_INFO (the module's cheapest do)
 *   nl_rate cycle N PROFILE      an agent's cycle: LOGIN_BEGIN, LOGIN_REPORT ok
 *                                (session key, L2TP tunnel id 100) until DONE,
 *                                SESSION_DOWN of the key (PROFILE needs
 *                                tunnels)
 *   nl_rate sock N               open, bind, GETFAMILY, close a socket
 *
 * Prints "KIND n=N secs=S rate=R/s" and exits 0, or the kernel's message and 1.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/genetlink.h>
#include <linux/l2tpsel.h>

#include "attr.h"
#include "nl.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void fail(struct l2s_nl *nl, const char *what, int err)
{
	fprintf(stderr, "nl_rate: %s: %s%s%s\n", what, strerror(-err),
		nl->errmsg[0] ? ": " : "", nl->errmsg);
	exit(1);
}

struct step {
	uint8_t kind, ok;
	uint32_t id;
	char tunnel[L2TPSEL_NAME_MAX];
};

static int step_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];
	struct step *st = data;

	l2s_attr_parse(nlh, tb);
	st->kind = l2s_attr_u8(tb, L2TPSEL_A_STEP, 0);
	st->ok = l2s_attr_u8(tb, L2TPSEL_A_OK, st->ok);
	st->id = l2s_attr_u32(tb, L2TPSEL_A_LOGIN_ID, st->id);
	if (tb[L2TPSEL_A_NAME])
		snprintf(st->tunnel, sizeof(st->tunnel), "%s", l2s_attr_str(tb, L2TPSEL_A_NAME, ""));
	return MNL_CB_OK;
}

static void getfamily(struct l2s_nl *nl)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	int err;

	err = l2s_nl_talk(nl, l2s_nl_getfamily_req(buf, ++nl->seq, L2TPSEL_GENL_NAME), NULL, NULL);
	if (err)
		fail(nl, "getfamily", err);
}

static void cycle(struct l2s_nl *nl, const char *profile, uint64_t key)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	struct step st = { 0 };
	int err;

	nlh = l2s_nl_req(nl, buf, L2TPSEL_CMD_LOGIN_BEGIN, 0);
	mnl_attr_put_strz(nlh, L2TPSEL_A_PROFILE, profile);
	err = l2s_nl_talk(nl, nlh, step_cb, &st);
	if (err)
		fail(nl, "login begin", err);
	while (st.kind == L2TPSEL_STEP_ATTEMPT) {
		nlh = l2s_nl_req(nl, buf, L2TPSEL_CMD_LOGIN_REPORT, 0);
		mnl_attr_put_u32(nlh, L2TPSEL_A_LOGIN_ID, st.id);
		mnl_attr_put_u8(nlh, L2TPSEL_A_OUTCOME, L2TPSEL_OUTCOME_OK);
		mnl_attr_put_u64(nlh, L2TPSEL_A_SESSION_KEY, key);
		mnl_attr_put_u32(nlh, L2TPSEL_A_TUNNEL_ID, 100);
		err = l2s_nl_talk(nl, nlh, step_cb, &st);
		if (err)
			fail(nl, "login report", err);
	}
	if (st.kind != L2TPSEL_STEP_DONE || !st.ok || !st.tunnel[0]) {
		fprintf(stderr, "nl_rate: the login did not end in DONE ok with a tunnel\n");
		exit(1);
	}
	nlh = l2s_nl_req(nl, buf, L2TPSEL_CMD_SESSION_DOWN, 0);
	mnl_attr_put_u64(nlh, L2TPSEL_A_SESSION_KEY, key);
	err = l2s_nl_talk(nl, nlh, NULL, NULL);
	if (err)
		fail(nl, "session down", err);
}

int main(int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct l2s_nl nl;
	unsigned long i, n;
	const char *kind;
	double t0, t;
	char *end;
	int err;

	if (argc < 3 || (strcmp(argv[1], "cycle") == 0) != (argc == 4) || argc > 4) {
		fprintf(stderr, "usage: nl_rate {getfamily|info|sock} N | nl_rate cycle N PROFILE\n");
		return 2;
	}
	kind = argv[1];
	n = strtoul(argv[2], &end, 0);
	if (*end || !n) {
		fprintf(stderr, "nl_rate: N must be a positive number\n");
		return 2;
	}
	err = l2s_nl_open(&nl);
	if (!err)
		err = l2s_nl_resolve(&nl);
	if (err)
		fail(&nl, "netlink socket", err);
	t0 = now();
	for (i = 0; i < n; i++) {
		if (!strcmp(kind, "getfamily")) {
			getfamily(&nl);
		} else if (!strcmp(kind, "info")) {
			err = l2s_nl_talk(&nl, l2s_nl_req(&nl, buf, L2TPSEL_CMD_GET_INFO, 0),
					  NULL, NULL);
			if (err)
				fail(&nl, "get info", err);
		} else if (!strcmp(kind, "cycle")) {
			cycle(&nl, argv[3], (3ull << 40) + i);
		} else if (!strcmp(kind, "sock")) {
			struct l2s_nl s;

			err = l2s_nl_open(&s);
			if (!err)
				err = l2s_nl_resolve(&s);
			if (err)
				fail(&s, "netlink socket", err);
			l2s_nl_close(&s);
		} else {
			fprintf(stderr, "nl_rate: unknown kind %s\n", kind);
			return 2;
		}
	}
	t = now() - t0;
	printf("%s n=%lu secs=%.3f rate=%.0f/s\n", kind, n, t, n / t);
	l2s_nl_close(&nl);
	return 0;
}
