// SPDX-License-Identifier: GPL-2.0
/*
 * Parser of the configuration grammar (see conf.h).  It only turns words into
 * a struct conf_cmd and checks syntax and value ranges; the bounds of the
 * objects (S-OBJ-*) are checked by the core when the command is applied, so
 * the CLI, the module and the simulator refuse the same things with the same
 * message.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"

static const char *const lb_names[] = {
	[L2S_LB_RANDOM] = "random",
	[L2S_LB_WEIGHTED] = "weighted",
	[L2S_LB_DEST_EQUAL] = "destination-equal",
	[L2S_LB_HASH] = "hash",
	[L2S_LB_MINMISS_HASH] = "minmiss-hash",
};

static const char *const failover_names[] = {
	[L2S_FAILOVER_BETWEEN_LEVELS] = "between-levels",
	[L2S_FAILOVER_WITHIN_LEVEL] = "within-level",
};

const char *conf_lb_name(unsigned int lb)
{
	return lb < L2S_ARRAY_SIZE(lb_names) ? lb_names[lb] : "?";
}

const char *conf_failover_name(unsigned int fo)
{
	return fo < L2S_ARRAY_SIZE(failover_names) ? failover_names[fo] : "?";
}

static bool conf_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

int conf_words(char *line, char **argv, int max, bool quotes)
{
	int argc = 0;
	char *p = line;

	while (*p) {
		char q = 0, *out;

		while (conf_blank(*p))
			p++;
		if (!*p || *p == '#')
			break;
		if (argc == max)
			return -1;
		if (quotes && (*p == '"' || *p == '\''))
			q = *p++;
		argv[argc++] = out = p;
		while (*p && (q ? *p != q : !conf_blank(*p)))
			*out++ = *p++;
		if (q && *p != q)
			return -2;
		if (*p)
			p++;
		*out = '\0';
	}
	return argc;
}

int conf_split(char *line, char **argv, int max)
{
	return conf_words(line, argv, max, false);
}

int conf_parse_ull(const char *s, int base, unsigned long long min,
		   unsigned long long max, unsigned long long *v)
{
	unsigned long long x;
	char *end;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	x = strtoull(s, &end, base);
	if (errno || *end || x < min || x > max)
		return -1;
	*v = x;
	return 0;
}

int conf_parse_u32(const char *s, u32 max, u32 *v)
{
	unsigned long long x;

	if (!s || *s == '+' || conf_parse_ull(s, 10, 0, max, &x))
		return -1;
	*v = (u32)x;
	return 0;
}

int conf_parse_addr(const char *s, struct l2s_addr *a)
{
	memset(a, 0, sizeof(*a));
	if (inet_pton(AF_INET, s, a->bytes) == 1) {
		a->family = 4;
		return 0;
	}
	if (inet_pton(AF_INET6, s, a->bytes) == 1) {
		a->family = 6;
		return 0;
	}
	return -1;
}

void conf_format_addr(const struct l2s_addr *a, char *buf, size_t len)
{
	if (a->family == 4)
		inet_ntop(AF_INET, a->bytes, buf, (socklen_t)len);
	else if (a->family == 6)
		inet_ntop(AF_INET6, a->bytes, buf, (socklen_t)len);
	else
		snprintf(buf, len, "-");
}

__attribute__((format(printf, 3, 4)))
static int bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static int copy_name(char *dst, size_t size, const char *what, const char *s,
		     char *err, size_t errlen)
{
	if (strlen(s) >= size)
		return bad(err, errlen, "%s \"%s\" too long: at most %zu bytes",
			   what, s, size - 1);
	snprintf(dst, size, "%s", s);
	return 0;
}

static int lookup(const char *const *names, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(names[i], s))
			return (int)i;
	return -1;
}

/* "4,5,9" -> bit mask of result codes 0..31 */
static int parse_codes(const char *s, u32 *mask)
{
	char buf[128], *tok, *save = NULL;
	u32 v;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	*mask = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (conf_parse_u32(tok, 31, &v))
			return -1;
		*mask |= 1u << v;
	}
	return *mask ? 0 : -1;
}

#define NEED(i, what) do {						\
	if ((i) >= argc)						\
		return bad(err, errlen, "%s: missing %s", argv[0], what); \
} while (0)

static int parse_profile(int argc, char **argv, struct conf_cmd *c,
			 char *err, size_t errlen)
{
	int i, v;

	NEED(2, "profile name");
	if (copy_name(c->name, L2S_NAME_LEN, "profile name", argv[2], err, errlen))
		return -1;
	if (!strcmp(argv[1], "del")) {
		c->kind = CONF_PROFILE_DEL;
		if (argc > 3)
			return bad(err, errlen, "profile del: unexpected \"%s\"", argv[3]);
		return 0;
	}
	if (!strcmp(argv[1], "add"))
		c->kind = CONF_PROFILE_ADD;
	else if (!strcmp(argv[1], "set"))
		c->kind = CONF_PROFILE_SET;
	else
		return bad(err, errlen, "profile: unknown command \"%s\" (add, set, del)", argv[1]);
	for (i = 3; i < argc; i += 2) {
		const char *k = argv[i];

		NEED(i + 1, k);
		if (!strcmp(k, "failover")) {
			v = lookup(failover_names, L2S_ARRAY_SIZE(failover_names), argv[i + 1]);
			if (v < 0)
				return bad(err, errlen, "profile: failover \"%s\": between-levels or within-level", argv[i + 1]);
			c->has_failover = true;
			c->failover = (u8)v;
		} else if (!strcmp(k, "lb")) {
			v = lookup(lb_names, L2S_ARRAY_SIZE(lb_names), argv[i + 1]);
			if (v < 0)
				return bad(err, errlen, "profile: lb \"%s\": random, weighted, destination-equal, hash or minmiss-hash", argv[i + 1]);
			c->has_lb = true;
			c->lb = (u8)v;
		} else if (!strcmp(k, "failover-on")) {
			u32 *mask;

			NEED(i + 2, "result codes");
			if (!strcmp(argv[i + 1], "cdn")) {
				c->has_fo_cdn = true;
				mask = &c->fo_cdn;
			} else if (!strcmp(argv[i + 1], "stopccn")) {
				c->has_fo_stopccn = true;
				mask = &c->fo_stopccn;
			} else {
				return bad(err, errlen, "profile: failover-on \"%s\": cdn or stopccn", argv[i + 1]);
			}
			if (parse_codes(argv[i + 2], mask))
				return bad(err, errlen, "profile: failover-on %s \"%s\": result codes 0..31, comma separated", argv[i + 1], argv[i + 2]);
			i++;
		} else {
			return bad(err, errlen, "profile: unknown option \"%s\"", k);
		}
	}
	return 0;
}

static int parse_tunnel(int argc, char **argv, struct conf_cmd *c,
			char *err, size_t errlen)
{
	bool have_profile = false, have_level = false, have_dest = false;
	int i;

	NEED(2, "tunnel name");
	if (copy_name(c->name, L2S_NAME_LEN, "tunnel name", argv[2], err, errlen))
		return -1;
	if (!strcmp(argv[1], "add"))
		c->kind = CONF_TUNNEL_ADD;
	else if (!strcmp(argv[1], "del"))
		c->kind = CONF_TUNNEL_DEL;
	else
		return bad(err, errlen, "tunnel: unknown command \"%s\" (add, del)", argv[1]);
	c->dest.port = L2S_DEFAULT_PORT;
	for (i = 3; i < argc; i += 2) {
		const char *k = argv[i], *v;

		NEED(i + 1, k);
		v = argv[i + 1];
		if (!strcmp(k, "profile")) {
			if (copy_name(c->profile, L2S_NAME_LEN, "profile name", v, err, errlen))
				return -1;
			have_profile = true;
		} else if (c->kind == CONF_TUNNEL_DEL) {
			return bad(err, errlen, "tunnel del: unexpected \"%s\"", k);
		} else if (!strcmp(k, "level")) {
			if (conf_parse_u32(v, 255, &c->level))
				return bad(err, errlen, "tunnel: level \"%s\" is not a number", v);
			have_level = true;
		} else if (!strcmp(k, "dest")) {
			if (conf_parse_addr(v, &c->dest.remote))
				return bad(err, errlen, "tunnel: dest \"%s\" is not an IPv4 or IPv6 address", v);
			have_dest = true;
		} else if (!strcmp(k, "local")) {
			if (conf_parse_addr(v, &c->dest.local))
				return bad(err, errlen, "tunnel: local \"%s\" is not an IPv4 or IPv6 address", v);
		} else if (!strcmp(k, "port")) {
			u32 port;

			if (conf_parse_u32(v, 65535, &port) || !port)
				return bad(err, errlen, "tunnel: port \"%s\": 1..65535", v);
			c->dest.port = (u16)port;
		} else if (!strcmp(k, "max-sessions")) {
			if (conf_parse_u32(v, 0xffffffffu, &c->max_sessions))
				return bad(err, errlen, "tunnel: max-sessions \"%s\" is not a number", v);
		} else if (!strcmp(k, "group")) {
			if (copy_name(c->group, L2S_NAME_LEN, "group name", v, err, errlen))
				return -1;
		} else if (!strcmp(k, "secret")) {
			if (copy_name(c->secret, L2S_SECRET_LEN, "secret", v, err, errlen))
				return -1;
		} else {
			return bad(err, errlen, "tunnel: unknown option \"%s\"", k);
		}
	}
	if (!have_profile)
		return bad(err, errlen, "tunnel %s: missing \"profile NAME\"", argv[1]);
	if (c->kind == CONF_TUNNEL_ADD && !have_level)
		return bad(err, errlen, "tunnel add: missing \"level LEVEL\"");
	if (c->kind == CONF_TUNNEL_ADD && !have_dest)
		return bad(err, errlen, "tunnel add: missing \"dest ADDR\"");
	if (c->dest.local.family && c->dest.local.family != c->dest.remote.family)
		return bad(err, errlen, "tunnel add: local and dest addresses of different families");
	return 0;
}

static int parse_domain(int argc, char **argv, struct conf_cmd *c,
			char *err, size_t errlen)
{
	NEED(2, "domain name");
	if (copy_name(c->name, L2S_DOMAIN_LEN, "domain name", argv[2], err, errlen))
		return -1;
	if (!strcmp(argv[1], "del")) {
		c->kind = CONF_DOMAIN_DEL;
		if (argc > 3)
			return bad(err, errlen, "domain del: unexpected \"%s\"", argv[3]);
		return 0;
	}
	if (strcmp(argv[1], "add"))
		return bad(err, errlen, "domain: unknown command \"%s\" (add, del)", argv[1]);
	c->kind = CONF_DOMAIN_ADD;
	if (argc != 5 || strcmp(argv[3], "profile"))
		return bad(err, errlen, "domain add: usage: domain add DOMAIN profile PROFILE");
	return copy_name(c->profile, L2S_NAME_LEN, "profile name", argv[4], err, errlen);
}

/*
 * Parse one command.  Returns 0 when @argv is a config command (in @cmd), 1
 * when its first word is not one this grammar knows (the caller may have its
 * own, as the simulator does), -1 on a syntax error (message in @err).
 */
int conf_parse(int argc, char **argv, struct conf_cmd *cmd, char *err, size_t errlen)
{
	memset(cmd, 0, sizeof(*cmd));
	if (argc < 1)
		return 1;
	if (!strcmp(argv[0], "profile") || !strcmp(argv[0], "tunnel") ||
	    !strcmp(argv[0], "domain")) {
		if (argc < 2)
			return bad(err, errlen, "%s: missing command", argv[0]);
		if (argv[0][0] == 'p')
			return parse_profile(argc, argv, cmd, err, errlen);
		if (argv[0][0] == 't')
			return parse_tunnel(argc, argv, cmd, err, errlen);
		return parse_domain(argc, argv, cmd, err, errlen);
	}
	if (!strcmp(argv[0], "lockout")) {
		if (argc != 3 || strcmp(argv[1], "time"))
			return bad(err, errlen, "lockout: usage: lockout time SECS");
		if (conf_parse_u32(argv[2], 0xffffffffu, &cmd->secs))
			return bad(err, errlen, "lockout time \"%s\" is not a number", argv[2]);
		cmd->kind = CONF_LOCKOUT_TIME;
		return 0;
	}
	if (!strcmp(argv[0], "clear")) {
		if (argc < 2 || strcmp(argv[1], "lockout"))
			return bad(err, errlen, "clear: usage: clear lockout [ local ADDR | remote ADDR ]");
		cmd->kind = CONF_CLEAR_LOCKOUT;
		if (argc == 2)
			return 0;
		if (argc != 4)
			return bad(err, errlen, "clear: usage: clear lockout [ local ADDR | remote ADDR ]");
		if (!strcmp(argv[2], "local")) {
			cmd->has_local = true;
			if (conf_parse_addr(argv[3], &cmd->local))
				return bad(err, errlen, "clear lockout: local \"%s\" is not an address", argv[3]);
		} else if (!strcmp(argv[2], "remote")) {
			cmd->has_remote = true;
			if (conf_parse_addr(argv[3], &cmd->remote))
				return bad(err, errlen, "clear lockout: remote \"%s\" is not an address", argv[3]);
		} else {
			return bad(err, errlen, "clear lockout: \"%s\": local or remote", argv[2]);
		}
		return 0;
	}
	return 1;
}
