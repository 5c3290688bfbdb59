// SPDX-License-Identifier: GPL-2.0
/*
 * The configuration / batch grammar parser (userspace/lib/conf.c) that the
 * CLI's batch mode and the simulator share; and l2tpseld's access role lines
 * (userspace/l2tpseld/config.c, conf_access_*).
 */
#include <arpa/inet.h>
#include <netinet/in.h>

#include "harness.h"
#include "conf.h"
#include "../../userspace/l2tpseld/l2d_conf.h"

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

TEST(conf_valid_lines)
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

TEST(conf_errors_say_what_is_wrong)
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
TEST(conf_random_lines_never_crash)
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

/*
 * l2tpseld's access role lines (userspace/l2tpseld/config.c,
 * Documentation/access.md): "access pppoe IFNAME [service NAME...]
 * [ac-name NAME]", access-auth, access-calling-number, access-auth-timeout,
 * pppoe-padi-rate, pppoe-padi-rate-per-mac; every refusal's exact text;
 * SIGHUP keeping the access lines.  The discovery rate (S-ACC-1), what the
 * LAC asks the subscriber for (S-ACC-2) and where the ICRQ's Calling Number
 * comes from (S-ACC-3) are set here; the exchanges themselves are
 * test_pppoe.c, test_ppp.c, test_l2tpseld_access.c and
 * selftests/net/access_pppoe.sh.
 */
static struct l2d_conf lc;
static char lerr[256];

static int aline(const char *line)
{
	lerr[0] = '\0';
	return l2d_conf_line(&lc, line, lerr, sizeof(lerr));
}

/* @line refused with exactly @msg, and nothing added */
#define EXPECT_REFUSED(line, msg) do {					\
	unsigned int _n = lc.n_access;					\
	EXPECT_EQ(aline(line), -1);					\
	EXPECT_STREQ(lerr, msg);					\
	EXPECT_EQ(lc.n_access, _n);					\
} while (0)

#define NAME63 "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijk"

TEST(conf_access_defaults)
{
	l2d_conf_defaults(&lc);
	EXPECT_EQ(lc.n_access, 0);
	EXPECT_TRUE(lc.access_pap);
	EXPECT_TRUE(lc.access_chap);
	EXPECT_EQ(lc.access_auth_timeout_ms, 30000);
	EXPECT_EQ(lc.padi_rate, 500);
	EXPECT_EQ(lc.padi_rate_per_line, 10);
	EXPECT_EQ(lc.padi_rate_per_mac, 5);
	EXPECT_EQ(lc.access_calling, L2D_CALLING_MAC);
	/* without access lines the access role needs nothing */
	EXPECT_EQ(l2d_conf_check(&lc, lerr, sizeof(lerr)), 0);
}

TEST(conf_access_pppoe_forms)
{
	const struct l2d_access_conf *a = lc.access;

	l2d_conf_defaults(&lc);
	/* no service: any Service-Name; no ac-name: the hostname (access_disc.c) */
	EXPECT_EQ(aline("access pppoe acc0"), 0);
	EXPECT_EQ(lc.n_access, 1);
	EXPECT_STREQ(a[0].ifname, "acc0");
	EXPECT_STREQ(a[0].ac_name, "");
	EXPECT_EQ(a[0].n_services, 0);
	/* S-MTU-1: a 1500-byte path, an LNS maybe over IPv6 */
	EXPECT_EQ(a[0].path_mtu, 1500);
	EXPECT_TRUE(a[0].path_ipv6);

	EXPECT_EQ(aline("access pppoe acc1 ac-name my-ac"), 0);
	EXPECT_STREQ(a[1].ac_name, "my-ac");
	EXPECT_EQ(a[1].n_services, 0);

	EXPECT_EQ(aline("access pppoe acc2 service isp1"), 0);
	EXPECT_EQ(a[2].n_services, 1);
	EXPECT_STREQ(a[2].services[0], "isp1");
	EXPECT_STREQ(a[2].ac_name, "");

	/* services before ac-name */
	EXPECT_EQ(aline("access pppoe acc3 service isp1 isp2 isp3 ac-name AC3"), 0);
	EXPECT_EQ(a[3].n_services, 3);
	EXPECT_STREQ(a[3].services[0], "isp1");
	EXPECT_STREQ(a[3].services[1], "isp2");
	EXPECT_STREQ(a[3].services[2], "isp3");
	EXPECT_STREQ(a[3].ac_name, "AC3");

	/* services after ac-name, blanks and a comment around */
	EXPECT_EQ(aline("\taccess  pppoe eth1.100 ac-name AC4   service isp1 isp2 # vlan 100"), 0);
	EXPECT_STREQ(a[4].ifname, "eth1.100");
	EXPECT_STREQ(a[4].ac_name, "AC4");
	EXPECT_EQ(a[4].n_services, 2);
	EXPECT_STREQ(a[4].services[1], "isp2");

	/* "service" again adds to the list; it is never a service name */
	EXPECT_EQ(aline("access pppoe acc5 service a service b"), 0);
	EXPECT_EQ(a[5].n_services, 2);
	EXPECT_STREQ(a[5].services[0], "a");
	EXPECT_STREQ(a[5].services[1], "b");

	/* the most one line holds: 8 services and an ac-name (14 words) */
	EXPECT_EQ(aline("access pppoe acc6 service s1 s2 s3 s4 s5 s6 s7 s8 ac-name AC6"), 0);
	EXPECT_EQ(a[6].n_services, 8);
	EXPECT_STREQ(a[6].services[7], "s8");
	EXPECT_STREQ(a[6].ac_name, "AC6");

	/* the most one line holds: 8 services, an ac-name and the path (18 words) */
	EXPECT_EQ(aline("access pppoe acc6b service s1 s2 s3 s4 s5 s6 s7 s8 ac-name AC6 "
			"path-mtu 1530 path-family ipv4"), 0);
	EXPECT_EQ(a[7].n_services, 8);
	EXPECT_EQ(a[7].path_mtu, 1530);
	EXPECT_TRUE(!a[7].path_ipv6);
	lc.n_access--;

	/* the longest names: IFNAMSIZ - 1, and 63 bytes */
	EXPECT_EQ(aline("access pppoe 0123456789abcde service " NAME63 " ac-name " NAME63), 0);
	EXPECT_STREQ(a[7].ifname, "0123456789abcde");
	EXPECT_STREQ(a[7].services[0], NAME63);
	EXPECT_STREQ(a[7].ac_name, NAME63);
	EXPECT_EQ(lc.n_access, 8);

	/* with the data path the calls are bridged in */
	EXPECT_EQ(aline("dataplane kernel"), 0);
	EXPECT_EQ(l2d_conf_check(&lc, lerr, sizeof(lerr)), 0);
}

TEST(conf_access_pppoe_refusals)
{
	static const char usage[] = "access: usage: access pppoe IFNAME [service NAME...] [ac-name NAME] "
				    "[path-mtu N] [path-family ipv4|ipv6] [pado-delay SPEC]";
	char line[128];
	int i;

	l2d_conf_defaults(&lc);
	EXPECT_REFUSED("access", usage);
	EXPECT_REFUSED("access pppoe", usage);
	EXPECT_REFUSED("access acc0", usage);
	EXPECT_REFUSED("access l2tp acc0", usage);
	EXPECT_REFUSED("access PPPoE acc0", usage);
	EXPECT_REFUSED("access pppoe 0123456789abcdef",
		       "access: interface name \"0123456789abcdef\" longer than 15 bytes");
	EXPECT_REFUSED("access pppoe acc0 vlan 100",
		       "access: unexpected \"vlan\" (service NAME..., ac-name NAME, path-mtu N, "
		       "path-family ipv4|ipv6, pado-delay SPEC)");
	EXPECT_REFUSED("access pppoe acc0 ac-name", "access: ac-name needs a NAME");
	EXPECT_REFUSED("access pppoe acc0 service isp1 ac-name", "access: ac-name needs a NAME");
	EXPECT_REFUSED("access pppoe acc0 ac-name A ac-name B", "access: ac-name given twice");
	EXPECT_REFUSED("access pppoe acc0 service", "access: service needs a NAME");
	EXPECT_REFUSED("access pppoe acc0 service ac-name AC", "access: service needs a NAME");
	EXPECT_REFUSED("access pppoe acc0 ac-name AC service", "access: service needs a NAME");
	EXPECT_REFUSED("access pppoe acc0 service a service", "access: service needs a NAME");
	EXPECT_REFUSED("access pppoe acc0 service s1 s2 s3 s4 s5 s6 s7 s8 s9",
		       "access: at most 8 services");
	EXPECT_REFUSED("access pppoe acc0 service s1 s2 s3 s4 service s5 s6 s7 s8 s9",
		       "access: at most 8 services");
	EXPECT_REFUSED("access pppoe acc0 service " NAME63 "x",
		       "access: service name of 1..63 bytes");
	EXPECT_REFUSED("access pppoe acc0 ac-name " NAME63 "x", "access: ac-name of 1..63 bytes");
	EXPECT_REFUSED("access pppoe acc0 service s1 s2 s3 s4 s5 s6 s7 s8 s9 s10 s11 s12 s13 s14 "
		       "s15 s16 s17", "more than 20 words");
	EXPECT_EQ(lc.n_access, 0);

	/* the same interface twice, then a 9th */
	EXPECT_EQ(aline("access pppoe acc0 service isp1"), 0);
	EXPECT_REFUSED("access pppoe acc0", "access: interface acc0 given twice");
	EXPECT_REFUSED("access pppoe acc0 service isp2", "access: interface acc0 given twice");
	for (i = 1; i < 8; i++) {
		snprintf(line, sizeof(line), "access pppoe acc%d", i);
		EXPECT_EQ(aline(line), 0);
	}
	EXPECT_EQ(lc.n_access, 8);
	EXPECT_REFUSED("access pppoe acc8", "access: at most 8 interfaces");
	EXPECT_STREQ(lc.access[0].services[0], "isp1");

	/* the calls are bridged in the kernel: refused by -t already */
	EXPECT_EQ(l2d_conf_check(&lc, lerr, sizeof(lerr)), -1);
	EXPECT_STREQ(lerr, "access pppoe needs \"dataplane kernel\" "
		     "(the calls are bridged in the kernel)");
}

/*
 * S-MTU-1: the path to the LNS on the access line (path-mtu, path-family,
 * among the services and the ac-name, never taken for a service name) and
 * the tunnel sockets' DF policy, with every refusal's text.
 */
TEST(conf_access_path_mtu)
{
	const struct l2d_access_conf *a = lc.access;

	l2d_conf_defaults(&lc);
	EXPECT_EQ(lc.tunnel_df, L2D_DF_CLEAR);
	EXPECT_EQ(aline("access pppoe acc0 path-mtu 1530 path-family ipv4"), 0);
	EXPECT_EQ(a[0].path_mtu, 1530);
	EXPECT_TRUE(!a[0].path_ipv6);
	EXPECT_EQ(aline("access pppoe acc1 service isp1 isp2 path-mtu 9000 ac-name X service isp3"), 0);
	EXPECT_EQ(a[1].n_services, 3);
	EXPECT_STREQ(a[1].services[2], "isp3");
	EXPECT_EQ(a[1].path_mtu, 9000);
	EXPECT_TRUE(a[1].path_ipv6);
	EXPECT_EQ(aline("access pppoe acc2 path-family ipv6 path-mtu 1280"), 0);
	EXPECT_EQ(a[2].path_mtu, 1280);
	EXPECT_EQ(aline("access pppoe acc3 path-family ipv4 path-mtu 576 service path"), 0);
	EXPECT_EQ(a[3].path_mtu, 576);
	EXPECT_STREQ(a[3].services[0], "path");
	EXPECT_EQ(aline("access pppoe acc4 path-mtu 65535"), 0);
	EXPECT_EQ(a[4].path_mtu, 65535);
	EXPECT_EQ(lc.n_access, 5);

	l2d_conf_defaults(&lc);
	EXPECT_REFUSED("access pppoe acc0 path-mtu", "access: path-mtu needs a number");
	EXPECT_REFUSED("access pppoe acc0 service path-mtu 1500", "access: service needs a NAME");
	EXPECT_REFUSED("access pppoe acc0 path-mtu 575 path-family ipv4",
		       "access: path-mtu \"575\": a number of bytes 576..65535");
	EXPECT_REFUSED("access pppoe acc0 path-mtu 65536",
		       "access: path-mtu \"65536\": a number of bytes 576..65535");
	EXPECT_REFUSED("access pppoe acc0 path-mtu -1500",
		       "access: path-mtu \"-1500\": a number of bytes 576..65535");
	EXPECT_REFUSED("access pppoe acc0 path-mtu 1500b",
		       "access: path-mtu \"1500b\": a number of bytes 576..65535");
	EXPECT_REFUSED("access pppoe acc0 path-mtu 1279",
		       "access: path-mtu 1279 below IPv6's 1280: add path-family ipv4 if every LNS "
		       "is reached over IPv4");
	EXPECT_REFUSED("access pppoe acc0 path-mtu 1000 path-family ipv6",
		       "access: path-mtu 1000 below IPv6's 1280: add path-family ipv4 if every LNS "
		       "is reached over IPv4");
	EXPECT_REFUSED("access pppoe acc0 path-family", "access: path-family: expected ipv4 or ipv6");
	EXPECT_REFUSED("access pppoe acc0 path-family inet", "access: path-family: expected ipv4 or ipv6");

	EXPECT_EQ(aline("tunnel-df set"), 0);
	EXPECT_EQ(lc.tunnel_df, L2D_DF_SET);
	EXPECT_EQ(aline("tunnel-df kernel"), 0);
	EXPECT_EQ(lc.tunnel_df, L2D_DF_KERNEL);
	EXPECT_EQ(aline("tunnel-df clear"), 0);
	EXPECT_EQ(lc.tunnel_df, L2D_DF_CLEAR);
	EXPECT_EQ(aline("tunnel-df on"), -1);
	EXPECT_STREQ(lerr, "tunnel-df: expected clear, set or kernel");
	EXPECT_EQ(lc.tunnel_df, L2D_DF_CLEAR);
}

TEST(conf_access_auth)
{
	static const char msg[] = "access-auth: expected chap, pap, or chap pap";

	l2d_conf_defaults(&lc);
	EXPECT_EQ(aline("access-auth pap"), 0);
	EXPECT_TRUE(lc.access_pap && !lc.access_chap);
	EXPECT_EQ(aline("access-auth chap"), 0);
	EXPECT_TRUE(!lc.access_pap && lc.access_chap);
	EXPECT_EQ(aline("access-auth chap pap"), 0);
	EXPECT_TRUE(lc.access_pap && lc.access_chap);
	EXPECT_EQ(aline("access-auth pap"), 0);
	EXPECT_EQ(aline("access-auth pap chap"), 0);
	EXPECT_TRUE(lc.access_pap && lc.access_chap);

	/* a refusal leaves what was set */
	EXPECT_EQ(aline("access-auth chap"), 0);
	EXPECT_EQ(aline("access-auth"), -1);
	EXPECT_STREQ(lerr, msg);
	EXPECT_EQ(aline("access-auth both"), -1);
	EXPECT_STREQ(lerr, msg);
	EXPECT_EQ(aline("access-auth mschap"), -1);
	EXPECT_STREQ(lerr, msg);
	EXPECT_EQ(aline("access-auth pap md5"), -1);
	EXPECT_STREQ(lerr, msg);
	EXPECT_EQ(aline("access-auth PAP"), -1);
	EXPECT_STREQ(lerr, msg);
	EXPECT_TRUE(!lc.access_pap && lc.access_chap);
}

TEST(conf_access_calling_number)
{
	static const char msg[] = "access-calling-number: expected mac, circuit-id or remote-id";

	l2d_conf_defaults(&lc);
	EXPECT_EQ(aline("access-calling-number circuit-id"), 0);
	EXPECT_EQ(lc.access_calling, L2D_CALLING_CIRCUIT_ID);
	EXPECT_EQ(aline("access-calling-number remote-id"), 0);
	EXPECT_EQ(lc.access_calling, L2D_CALLING_REMOTE_ID);
	EXPECT_EQ(aline("access-calling-number mac"), 0);
	EXPECT_EQ(lc.access_calling, L2D_CALLING_MAC);

	EXPECT_EQ(aline("access-calling-number remote-id"), 0);
	EXPECT_EQ(aline("access-calling-number"), -1);
	EXPECT_STREQ(lerr, msg);
	EXPECT_EQ(aline("access-calling-number ip"), -1);
	EXPECT_STREQ(lerr, msg);
	EXPECT_EQ(aline("access-calling-number mac circuit-id"), -1);
	EXPECT_STREQ(lerr, msg);
	EXPECT_EQ(lc.access_calling, L2D_CALLING_REMOTE_ID);
}

TEST(conf_access_auth_timeout)
{
	static const char msg[] =
		"access-auth-timeout: expected a duration (e.g. 10s, 500ms) of at least 1000 ms";

	l2d_conf_defaults(&lc);
	EXPECT_EQ(aline("access-auth-timeout 10s"), 0);
	EXPECT_EQ(lc.access_auth_timeout_ms, 10000);
	EXPECT_EQ(aline("access-auth-timeout 45"), 0);
	EXPECT_EQ(lc.access_auth_timeout_ms, 45000);
	EXPECT_EQ(aline("access-auth-timeout 1500ms"), 0);
	EXPECT_EQ(lc.access_auth_timeout_ms, 1500);
	EXPECT_EQ(aline("access-auth-timeout 1000ms"), 0);
	EXPECT_EQ(lc.access_auth_timeout_ms, 1000);
	EXPECT_EQ(aline("access-auth-timeout 1s"), 0);
	EXPECT_EQ(lc.access_auth_timeout_ms, 1000);

	EXPECT_EQ(aline("access-auth-timeout 20s"), 0);
	EXPECT_EQ(aline("access-auth-timeout 999ms"), -1);
	EXPECT_STREQ(lerr, msg);
	EXPECT_EQ(aline("access-auth-timeout 0"), -1);
	EXPECT_STREQ(lerr, msg);
	EXPECT_EQ(aline("access-auth-timeout 10m"), -1);
	EXPECT_STREQ(lerr, msg);
	EXPECT_EQ(aline("access-auth-timeout -5s"), -1);
	EXPECT_STREQ(lerr, msg);
	EXPECT_EQ(aline("access-auth-timeout"), -1);
	EXPECT_STREQ(lerr, msg);
	EXPECT_EQ(aline("access-auth-timeout 10s 20s"), -1);
	EXPECT_STREQ(lerr, msg);
	EXPECT_EQ(lc.access_auth_timeout_ms, 20000);
}

TEST(conf_access_padi_rate)
{
	static const char *const kw[] = { "pppoe-padi-rate", "pppoe-padi-rate-per-mac",
					  "pppoe-padi-rate-per-line" };
	char line[96], msg[96];
	unsigned int i;

	for (i = 0; i < 3; i++) {
		uint32_t *v = i == 2 ? &lc.padi_rate_per_line : i ? &lc.padi_rate_per_mac : &lc.padi_rate;
		uint32_t *other = i ? &lc.padi_rate : &lc.padi_rate_per_mac;

		l2d_conf_defaults(&lc);
		snprintf(msg, sizeof(msg), "%s: expected 0..1000000", kw[i]);
		/* 0: no limit */
		snprintf(line, sizeof(line), "%s 0", kw[i]);
		EXPECT_EQ(aline(line), 0);
		EXPECT_EQ(*v, 0);
		snprintf(line, sizeof(line), "%s 1000000", kw[i]);
		EXPECT_EQ(aline(line), 0);
		EXPECT_EQ(*v, 1000000);
		snprintf(line, sizeof(line), "%s 20", kw[i]);
		EXPECT_EQ(aline(line), 0);
		EXPECT_EQ(*v, 20);
		EXPECT_EQ(*other, i ? 500 : 5);

		snprintf(line, sizeof(line), "%s 1000001", kw[i]);
		EXPECT_EQ(aline(line), -1);
		EXPECT_STREQ(lerr, msg);
		snprintf(line, sizeof(line), "%s -1", kw[i]);
		EXPECT_EQ(aline(line), -1);
		EXPECT_STREQ(lerr, msg);
		snprintf(line, sizeof(line), "%s 5/s", kw[i]);
		EXPECT_EQ(aline(line), -1);
		EXPECT_STREQ(lerr, msg);
		snprintf(line, sizeof(line), "%s", kw[i]);
		EXPECT_EQ(aline(line), -1);
		EXPECT_STREQ(lerr, msg);
		snprintf(line, sizeof(line), "%s 1 2", kw[i]);
		EXPECT_EQ(aline(line), -1);
		EXPECT_STREQ(lerr, msg);
		EXPECT_EQ(*v, 20);
	}
}

static struct l2d_conf fresh;

static int fline(const char *line)
{
	lerr[0] = '\0';
	return l2d_conf_line(&fresh, line, lerr, sizeof(lerr));
}

/* SIGHUP: the access lines need a restart, access-auth and the rest apply */
TEST(conf_access_reload)
{
	char kept[256];

	l2d_conf_defaults(&lc);
	EXPECT_EQ(aline("access pppoe acc0 service isp1 ac-name AC"), 0);
	EXPECT_EQ(aline("dataplane kernel"), 0);

	/* the same access lines, other access settings: all taken, nothing kept */
	l2d_conf_defaults(&fresh);
	EXPECT_EQ(fline("access pppoe acc0 service isp1 ac-name AC"), 0);
	EXPECT_EQ(fline("dataplane kernel"), 0);
	EXPECT_EQ(fline("access-auth pap"), 0);
	EXPECT_EQ(fline("access-calling-number circuit-id"), 0);
	EXPECT_EQ(fline("access-auth-timeout 5s"), 0);
	EXPECT_EQ(fline("pppoe-padi-rate 100"), 0);
	EXPECT_EQ(fline("pppoe-padi-rate-per-mac 0"), 0);
	l2d_conf_reload(&lc, &fresh, kept, sizeof(kept));
	EXPECT_STREQ(kept, "");
	EXPECT_TRUE(lc.access_pap && !lc.access_chap);
	EXPECT_EQ(lc.access_calling, L2D_CALLING_CIRCUIT_ID);
	EXPECT_EQ(lc.access_auth_timeout_ms, 5000);
	EXPECT_EQ(lc.padi_rate, 100);
	EXPECT_EQ(lc.padi_rate_per_mac, 0);

	/* other access lines: the running ones stay, said in kept; access-auth applies */
	l2d_conf_defaults(&fresh);
	EXPECT_EQ(fline("access pppoe acc1"), 0);
	EXPECT_EQ(fline("access pppoe acc2"), 0);
	EXPECT_EQ(fline("dataplane kernel"), 0);
	EXPECT_EQ(fline("access-auth chap"), 0);
	l2d_conf_reload(&lc, &fresh, kept, sizeof(kept));
	EXPECT_TRUE(strstr(kept, "access") != NULL);
	EXPECT_EQ(lc.n_access, 1);
	EXPECT_STREQ(lc.access[0].ifname, "acc0");
	EXPECT_STREQ(lc.access[0].services[0], "isp1");
	EXPECT_STREQ(lc.access[0].ac_name, "AC");
	EXPECT_TRUE(!lc.access_pap && lc.access_chap);
	EXPECT_EQ(lc.access_calling, L2D_CALLING_MAC);

	/* a changed service or ac-name alone is a change too */
	l2d_conf_defaults(&fresh);
	EXPECT_EQ(fline("access pppoe acc0 service isp1 ac-name OTHER"), 0);
	EXPECT_EQ(fline("dataplane kernel"), 0);
	l2d_conf_reload(&lc, &fresh, kept, sizeof(kept));
	EXPECT_STREQ(kept, "access");
	EXPECT_STREQ(lc.access[0].ac_name, "AC");

	/* access lines removed: kept as well */
	l2d_conf_defaults(&fresh);
	EXPECT_EQ(fline("dataplane kernel"), 0);
	l2d_conf_reload(&lc, &fresh, kept, sizeof(kept));
	EXPECT_STREQ(kept, "access");
	EXPECT_EQ(lc.n_access, 1);
}

/*
 * RADIUS lines (Documentation/radius.md, S-RAD-1, S-RAD-3): defaults, the
 * server forms, every refusal's message, and radius-server needing the
 * access role.
 */
TEST(conf_radius_lines)
{
	const struct sockaddr_in *a;

	l2d_conf_defaults(&lc);
	EXPECT_EQ(lc.n_radius, 0u);
	EXPECT_EQ(lc.radius_timeout_ms, 3000);
	EXPECT_EQ(lc.radius_tries, 3);
	EXPECT_EQ(lc.radius_dead_ms, 60000);
	EXPECT_TRUE(!lc.radius_fallback);
	EXPECT_EQ(lc.radius_profile_vendor, 2636);
	EXPECT_EQ(lc.radius_profile_type, 64);
	EXPECT_EQ(aline("radius-server 192.0.2.1 secret s3cret"), 0);
	EXPECT_EQ(aline("radius-server 192.0.2.2 port 1645 secret other"), 0);
	EXPECT_EQ(lc.n_radius, 2u);
	a = (const struct sockaddr_in *)&lc.radius[0].addr;
	EXPECT_EQ(ntohs(a->sin_port), 1812);
	a = (const struct sockaddr_in *)&lc.radius[1].addr;
	EXPECT_EQ(ntohs(a->sin_port), 1645);
	EXPECT_STREQ(lc.radius[1].secret, "other");
	EXPECT_EQ(lc.radius[0].acct_port, 1813);
	EXPECT_EQ(lc.radius[1].acct_port, 1646);
	EXPECT_TRUE(!lc.radius_accounting);
	EXPECT_EQ(aline("radius-accounting yes"), 0);
	EXPECT_TRUE(lc.radius_accounting);
	/* Interim-Update and RFC 2867's tunnel records: off unless asked for */
	EXPECT_EQ(lc.radius_interim_ms, 0u);
	EXPECT_TRUE(!lc.radius_acct_tunnel);
	EXPECT_EQ(aline("radius-acct-interim 300s"), 0);
	EXPECT_EQ(lc.radius_interim_ms, 300000u);
	EXPECT_EQ(aline("radius-acct-interim 0"), 0);
	EXPECT_EQ(lc.radius_interim_ms, 0u);
	EXPECT_TRUE(aline("radius-acct-interim soon") != 0);
	EXPECT_EQ(aline("radius-accounting-tunnel yes"), 0);
	EXPECT_TRUE(lc.radius_acct_tunnel);
	EXPECT_TRUE(aline("radius-accounting-tunnel maybe") != 0);
	EXPECT_TRUE(strstr(lerr, "radius-accounting-tunnel: expected yes or no") != NULL);
	EXPECT_EQ(aline("radius-fallback domain-map"), 0);
	EXPECT_TRUE(lc.radius_fallback);
	EXPECT_EQ(aline("radius-profile-attribute 25"), 0);
	EXPECT_EQ(lc.radius_profile_vendor, 0);
	EXPECT_EQ(lc.radius_profile_type, 25);
	EXPECT_EQ(aline("radius-profile-attribute 4874:13"), 0);
	EXPECT_EQ(lc.radius_profile_vendor, 4874);
	EXPECT_EQ(lc.radius_profile_type, 13);
	EXPECT_EQ(aline("radius-timeout 500ms"), 0);
	EXPECT_EQ(lc.radius_timeout_ms, 500);
	EXPECT_EQ(aline("radius-tries 10"), 0);
	EXPECT_EQ(aline("radius-tries 11"), -1);
	EXPECT_EQ(aline("radius-server 192.0.2.3 secret"), -1);
	EXPECT_STREQ(lerr, "radius-server: usage: radius-server ADDRESS [port N] [acct-port N] "
			   "secret SECRET");
	EXPECT_EQ(aline("radius-server nowhere secret x"), -1);
	EXPECT_STREQ(lerr, "radius-server: \"nowhere\" is not an IPv4 or IPv6 address");
	EXPECT_EQ(aline("radius-server 192.0.2.3 port 0 secret x"), -1);
	EXPECT_STREQ(lerr, "radius-server: port \"0\": 1..65535");
	EXPECT_EQ(aline("radius-server 192.0.2.3 acct-port 1700 secret a"), 0);
	EXPECT_EQ(lc.radius[2].acct_port, 1700);
	EXPECT_EQ(aline("radius-server 192.0.2.4 secret a"), 0);
	EXPECT_EQ(aline("radius-server 192.0.2.5 secret a"), -1);
	EXPECT_STREQ(lerr, "radius-server: at most 4 servers");
	EXPECT_EQ(aline("radius-fallback maybe"), -1);
	EXPECT_STREQ(lerr, "radius-fallback: domain-map or refuse");
	EXPECT_EQ(aline("radius-profile-attribute 26"), -1);
	EXPECT_EQ(aline("radius-profile-attribute 2636:0"), -1);
	EXPECT_EQ(aline("radius-profile-attribute 0:64"), -1);
	/* servers without an access interface have no one to ask about */
	EXPECT_EQ(l2d_conf_check(&lc, lerr, sizeof(lerr)), -1);
	EXPECT_STREQ(lerr, "radius-server is for the access role or the LNS role's accounting: "
		     "no \"access pppoe\" line, nor listen with radius-accounting yes");
	/* the LNS role's accounting (S-AL-1): listen and radius-accounting yes */
	EXPECT_EQ(aline("listen 127.0.0.1"), 0);
	EXPECT_EQ(aline("radius-accounting no"), 0);
	EXPECT_EQ(l2d_conf_check(&lc, lerr, sizeof(lerr)), -1);
	EXPECT_EQ(aline("radius-accounting yes"), 0);
	EXPECT_EQ(l2d_conf_check(&lc, lerr, sizeof(lerr)), 0);
}

/*
 * radius-das and radius-das-client (Documentation/radius.md, S-RAD-5): the
 * forms, each refusal's message, the pairing check, and the secret counted
 * as one (so that -o refuses it and a world-readable file is refused).
 */
TEST(conf_radius_das_lines)
{
	const struct sockaddr_in *a;

	l2d_conf_defaults(&lc);
	EXPECT_EQ(lc.das_len, 0u);
	EXPECT_EQ(aline("radius-das 192.0.2.1"), 0);
	a = (const struct sockaddr_in *)&lc.das_addr;
	EXPECT_EQ(ntohs(a->sin_port), 3799);
	EXPECT_EQ(aline("radius-das 192.0.2.1 port 1700"), 0);
	EXPECT_EQ(ntohs(a->sin_port), 1700);
	EXPECT_EQ(aline("radius-das 192.0.2.1 port 0"), -1);
	EXPECT_STREQ(lerr, "radius-das: usage: radius-das ADDRESS [port N] (1..65535, 3799 by default)");
	EXPECT_EQ(aline("radius-das here"), -1);
	EXPECT_STREQ(lerr, "radius-das: \"here\" is not an IPv4 or IPv6 address");
	/* a server nobody may use is refused at the check */
	EXPECT_EQ(aline("access pppoe eth0"), 0);
	EXPECT_EQ(aline("dataplane kernel"), 0);
	EXPECT_EQ(l2d_conf_check(&lc, lerr, sizeof(lerr)), -1);
	EXPECT_STREQ(lerr, "radius-das needs a radius-das-client line: nobody may send a "
			   "Disconnect-Request");
	EXPECT_EQ(l2d_conf_n_secrets(&lc), 0u);
	EXPECT_EQ(aline("radius-das-client 192.0.2.9 secret dm"), 0);
	EXPECT_EQ(l2d_conf_n_secrets(&lc), 1u);
	EXPECT_STREQ(lc.das_clients[0].secret, "dm");
	EXPECT_EQ(l2d_conf_check(&lc, lerr, sizeof(lerr)), 0);
	EXPECT_EQ(aline("radius-das-client 192.0.2.9"), -1);
	EXPECT_STREQ(lerr, "radius-das-client: usage: radius-das-client ADDRESS secret SECRET");
	EXPECT_EQ(aline("radius-das-client 192.0.2.10 secret b"), 0);
	EXPECT_EQ(aline("radius-das-client 192.0.2.11 secret c"), 0);
	EXPECT_EQ(aline("radius-das-client 192.0.2.12 secret d"), 0);
	EXPECT_EQ(aline("radius-das-client 192.0.2.13 secret e"), -1);
	EXPECT_STREQ(lerr, "radius-das-client: at most 4 clients");
	/* clients without the server */
	l2d_conf_defaults(&lc);
	EXPECT_EQ(aline("access pppoe eth0"), 0);
	EXPECT_EQ(aline("dataplane kernel"), 0);
	EXPECT_EQ(aline("radius-das-client 192.0.2.9 secret dm"), 0);
	EXPECT_EQ(l2d_conf_check(&lc, lerr, sizeof(lerr)), -1);
	EXPECT_STREQ(lerr, "radius-das-client needs a radius-das line (where to listen)");
	/* the replay window (S-SEC-8): 300 s and an Event-Timestamp required by default */
	l2d_conf_defaults(&lc);
	EXPECT_EQ(lc.das_window_ms, 300000u);
	EXPECT_TRUE(lc.das_require_ts);
	EXPECT_EQ(aline("radius-das-event-window 60s"), 0);
	EXPECT_EQ(lc.das_window_ms, 60000u);
	EXPECT_EQ(aline("radius-das-event-window 999ms"), -1);
	EXPECT_STREQ(lerr, "radius-das-event-window: expected a duration (e.g. 10s, 500ms) of at "
			   "least 1000 ms");
	EXPECT_EQ(aline("radius-das-require-event-timestamp no"), 0);
	EXPECT_TRUE(!lc.das_require_ts);
	EXPECT_EQ(aline("radius-das-require-event-timestamp maybe"), -1);
}

/* access-line no | yes | PROFILE... (S-AL-1): which calls' ICRQs carry RFC 5515's AVPs. */
TEST(conf_access_line)
{
	static const char usage[] = "access-line: usage: access-line no | yes | PROFILE... "
				    "(at most 8 profiles)";
	char line[1200];
	int i;

	l2d_conf_defaults(&lc);
	EXPECT_FALSE(l2d_conf_access_line(&lc, "P"));		/* the default: no */
	EXPECT_EQ(aline("access-line yes"), 0);
	EXPECT_TRUE(l2d_conf_access_line(&lc, "P") && l2d_conf_access_line(&lc, NULL));
	EXPECT_EQ(aline("access-line P wholesale"), 0);
	EXPECT_TRUE(l2d_conf_access_line(&lc, "P") && l2d_conf_access_line(&lc, "wholesale"));
	EXPECT_FALSE(l2d_conf_access_line(&lc, "Q") || l2d_conf_access_line(&lc, NULL));
	EXPECT_EQ(aline("access-line no"), 0);
	EXPECT_FALSE(l2d_conf_access_line(&lc, "P"));
	EXPECT_EQ(aline("access-line"), -1);
	EXPECT_STREQ(lerr, usage);
	strcpy(line, "access-line");
	for (i = 0; i < 9; i++)
		sprintf(line + strlen(line), " p%d", i);
	EXPECT_EQ(aline(line), -1);
	EXPECT_STREQ(lerr, usage);
	memset(line, 0, sizeof(line));
	strcpy(line, "access-line ");
	memset(line + 12, 'x', 64);
	EXPECT_EQ(aline(line), -1);
	EXPECT_EQ(strncmp(lerr, "access-line: profile name \"xxx", 30), 0);
	EXPECT_TRUE(strstr(lerr, "longer than 63 bytes") != NULL);
}

/* The LNS role's proxy-lcp and its pppd plugin (Documentation/l2tpseld.md) */
TEST(conf_proxy_lcp)
{
	l2d_conf_defaults(&lc);
	EXPECT_TRUE(!lc.proxy_lcp);
	EXPECT_STREQ(lc.proxy_lcp_plugin, "/usr/lib/l2tpsel/pppd_proxy_lcp.so");
	EXPECT_EQ(aline("proxy-lcp yes"), 0);
	EXPECT_TRUE(lc.proxy_lcp);
	EXPECT_EQ(aline("proxy-lcp-plugin /opt/l2tpsel/p.so"), 0);
	EXPECT_STREQ(lc.proxy_lcp_plugin, "/opt/l2tpsel/p.so");
	EXPECT_EQ(aline("proxy-lcp maybe"), -1);
	EXPECT_TRUE(strstr(lerr, "proxy-lcp") != NULL);
	EXPECT_EQ(aline("proxy-lcp-plugin"), -1);
	EXPECT_TRUE(strstr(lerr, "proxy-lcp-plugin") != NULL);
	EXPECT_STREQ(lc.proxy_lcp_plugin, "/opt/l2tpsel/p.so");
	EXPECT_EQ(aline("proxy-lcp no"), 0);
	EXPECT_TRUE(!lc.proxy_lcp);
}
