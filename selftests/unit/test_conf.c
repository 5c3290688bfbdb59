// SPDX-License-Identifier: GPL-2.0
/*
 * The configuration / batch grammar parser (userspace/lib/conf.c) that the
 * CLI's batch mode and the simulator share.
 */
#include "unit.h"
#include "conf.h"

static int parse(const char *line, struct conf_cmd *c, char *err)
{
	static char buf[512];
	char *argv[CONF_MAX_ARGS];
	int argc;

	snprintf(buf, sizeof(buf), "%s", line);
	argc = conf_split(buf, argv, CONF_MAX_ARGS);
	err[0] = '\0';
	return conf_parse(argc, argv, c, err, 256);
}

UNIT_TEST(conf_valid_lines)
{
	struct conf_cmd c;
	char err[256], buf[64];

	EXPECT_EQ(parse("profile add P failover within-level lb minmiss-hash failover-on cdn 4,5 failover-on stopccn 2", &c, err), 0);
	EXPECT_EQ(c.kind, CONF_PROFILE_ADD);
	EXPECT_STREQ(c.name, "P");
	EXPECT_EQ(c.failover, L2S_FAILOVER_WITHIN_LEVEL);
	EXPECT_EQ(c.lb, L2S_LB_MINMISS_HASH);
	EXPECT_EQ(c.fo_cdn, (1u << 4) | (1u << 5));
	EXPECT_EQ(c.fo_stopccn, 1u << 2);

	EXPECT_EQ(parse("tunnel add T1 profile P level 3 dest 2001:db8::1 port 1702 local 2001:db8::2 max-sessions 10 group G secret s", &c, err), 0);
	EXPECT_EQ(c.kind, CONF_TUNNEL_ADD);
	EXPECT_EQ(c.level, 3);
	EXPECT_EQ(c.dest.port, 1702);
	EXPECT_EQ(c.dest.remote.family, 6);
	EXPECT_EQ(c.max_sessions, 10);
	EXPECT_STREQ(c.group, "G");
	conf_format_addr(&c.dest.local, buf, sizeof(buf));
	EXPECT_STREQ(buf, "2001:db8::2");

	EXPECT_EQ(parse("  tunnel add T2 profile P level 0 dest 10.0.0.1   # comment", &c, err), 0);
	EXPECT_EQ(c.dest.port, 1701);
	EXPECT_EQ(parse("domain add example.com profile P", &c, err), 0);
	EXPECT_EQ(c.kind, CONF_DOMAIN_ADD);
	EXPECT_EQ(parse("lockout time 120", &c, err), 0);
	EXPECT_EQ(c.secs, 120);
	EXPECT_EQ(parse("clear lockout remote 10.0.0.1", &c, err), 0);
	EXPECT_TRUE(c.has_remote && !c.has_local);
	EXPECT_EQ(parse("clear lockout", &c, err), 0);
	EXPECT_EQ(parse("# only a comment", &c, err), 1);
	EXPECT_EQ(parse("login user@example.com", &c, err), 1);
}

UNIT_TEST(conf_errors_say_what_is_wrong)
{
	struct conf_cmd c;
	char err[256];

	EXPECT_EQ(parse("profile add P lb fastest", &c, err), -1);
	EXPECT_STREQ(err, "profile: lb \"fastest\": random, weighted, destination-equal, hash or minmiss-hash");
	EXPECT_EQ(parse("tunnel add T profile P dest 10.0.0.1", &c, err), -1);
	EXPECT_STREQ(err, "tunnel add: missing \"level LEVEL\"");
	EXPECT_EQ(parse("tunnel add T profile P level 0 dest 10.0.0.1 port 0", &c, err), -1);
	EXPECT_STREQ(err, "tunnel: port \"0\": 1..65535");
	EXPECT_EQ(parse("tunnel add T profile P level 0 dest 10.0.0.1 local ::1", &c, err), -1);
	EXPECT_STREQ(err, "tunnel add: local and dest addresses of different families");
	EXPECT_EQ(parse("tunnel add T profile P level -1 dest 10.0.0.1", &c, err), -1);
	EXPECT_EQ(parse("profile add P failover-on cdn 32", &c, err), -1);
	EXPECT_EQ(parse("profile add P lb", &c, err), -1);
	EXPECT_STREQ(err, "profile: missing lb");
	EXPECT_EQ(parse("domain add example.com P", &c, err), -1);
	EXPECT_EQ(parse("clear lockout peer 1.2.3.4", &c, err), -1);
	EXPECT_EQ(parse("profile add 0123456789012345678901234567890123", &c, err), -1);
	EXPECT_STREQ(err, "profile name \"0123456789012345678901234567890123\" too long: at most 31 bytes");
}

/* Robustness: 50000 random lines of grammar words, numbers, addresses and
 * junk never crash the parser (ASan/UBSan), and every refusal has a message.
 */
UNIT_TEST(conf_random_lines_never_crash)
{
	static const char *const words[] = {
		"profile", "tunnel", "domain", "lockout", "clear", "add", "set", "del",
		"time", "lockout", "failover", "lb", "failover-on", "cdn", "stopccn",
		"between-levels", "within-level", "random", "weighted", "hash",
		"destination-equal", "minmiss-hash", "level", "dest", "port", "local",
		"max-sessions", "group", "secret", "remote", "P", "T1", "0", "7", "8",
		"4,5", "31", "32", ",", "1,,2", "65535", "65536", "4294967296", "-1",
		"10.0.0.1", "::1", "2001:db8::1", "1.2.3", "example.com", "#", "",
		"01234567890123456789012345678901234567890123456789012345678901234567",
	};
	u64 s = 42;
	int i, bad = 0;

	for (i = 0; i < 50000; i++) {
		char line[512] = "", err[256];
		struct conf_cmd c;
		char *argv[CONF_MAX_ARGS];
		int n = (int)(s % 12), k, argc, rc;

		for (k = 0; k < n; k++) {
			s ^= s << 13;
			s ^= s >> 7;
			s ^= s << 17;
			if (s % 17 == 0) {
				char junk[4] = { (char)(s >> 8), (char)(s >> 16), ' ', 0 };

				strncat(line, junk, sizeof(line) - strlen(line) - 1);
			} else {
				strncat(line, words[(s >> 20) % L2S_ARRAY_SIZE(words)],
					sizeof(line) - strlen(line) - 1);
				strncat(line, " ", sizeof(line) - strlen(line) - 1);
			}
		}
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		argc = conf_split(line, argv, CONF_MAX_ARGS);
		err[0] = '\0';
		rc = conf_parse(argc, argv, &c, err, sizeof(err));
		bad += rc < -1 || rc > 1 || (rc == -1 && !err[0]);
	}
	EXPECT_EQ(bad, 0);
}
