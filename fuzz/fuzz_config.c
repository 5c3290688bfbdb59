// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for l2tpseld's configuration parser (config*.c) from a
 * buffer: the input is a configuration file, read line by line as
 * l2d_conf_file() reads one (a line longer than its buffer, or the first
 * refused line, ends it), then checked (l2d_conf_check(), which builds
 * the "kernel none" core from the route lines, kernel_none.c), then taken over
 * by a running configuration as SIGHUP does (l2d_conf_reload()), and its
 * pppd arguments split for both roles.  A refusal must come with a
 * message; what is accepted must stay within its arrays.
 *
 *	make fuzz-smoke FUZZ_TARGETS=config	bounded run (mk/fuzz.mk)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <stdio.h>

#include "kernel_none.h"
#include "l2d.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static struct l2d_conf c, run;

/*
 * kernel_none.c's running half names addresses with l2d.c's helpers, which
 * would bring the whole agent in; l2d_kernel_none_check() never calls them.
 */
bool l2d_addr_set(struct l2d_addr *out, const void *bytes, unsigned int len, uint16_t port)
{
	memset(out, 0, sizeof(*out));
	return false;
}

void l2d_addr_str(const struct l2d_addr *a, char *buf, size_t len, bool port)
{
	snprintf(buf, len, "?");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char line[1100], err[200], kept[256], argbuf[1024], *argv[64];
	const char *file;
	size_t off = 0;
	int ok = 0, na;

	l2d_conf_defaults(&c);
	while (off < size) {
		const uint8_t *nl = memchr(data + off, '\n', size - off);
		size_t n = nl ? (size_t)(nl - (data + off)) : size - off;

		if (n >= sizeof(line) - 1)
			return 0;	/* "line too long" */
		memcpy(line, data + off, n);
		line[n] = '\0';
		off += n + 1;
		err[0] = '\0';
		if (l2d_conf_line(&c, line, err, sizeof(err))) {
			CHECK(err[0] && memchr(err, '\0', sizeof(err)));
			return 0;
		}
	}
	err[0] = '\0';
	if (l2d_conf_check(&c, err, sizeof(err)) || l2d_kernel_none_check(&c, err, sizeof(err))) {
		CHECK(err[0] && memchr(err, '\0', sizeof(err)));
		ok = -1;
	}
	CHECK(c.n_routes <= L2D_MAX_ROUTES);
	l2d_conf_secret(&c, false, "t1");
	l2d_conf_secret(&c, true, "lac1");
	l2d_conf_n_secrets(&c);
	na = l2d_conf_pppd_args(&c, false, &file, argbuf, sizeof(argbuf), argv, 64);
	CHECK(na < 64 && (na < 0 || !argv[na]));
	na = l2d_conf_pppd_args(&c, true, &file, argbuf, sizeof(argbuf), argv, 64);
	CHECK(na < 64 && (na < 0 || !argv[na]));
	if (!ok) {
		l2d_conf_defaults(&run);
		l2d_conf_reload(&run, &c, kept, sizeof(kept));
		CHECK(memchr(kept, '\0', sizeof(kept)));
	}
	return 0;
}
