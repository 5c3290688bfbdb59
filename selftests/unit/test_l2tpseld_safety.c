// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld's operational safety in the unit build:
 * the LNS role's pppd arguments, test switches, the SIGHUP merge and the
 * quoting of peer strings in log lines.  The real binary's side (secrets,
 * the API socket, SIGHUP, getrandom) is selftests/unit/l2tpseld_safety.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/l2tpsel.h>

#include "harness.h"
#include "l2tpseld_harness.h"

#define TOP_DIR "selftests/unit/../.."

static bool has_word(char *const *argv, const char *w)
{
	for (; *argv; argv++)
		if (!strcmp(*argv, w))
			return true;
	return false;
}

/* the contrib example, as installed (its mode checked apart) */
static int read_example(struct l2d_conf *c, char *err, size_t errlen)
{
	char path[] = "/tmp/l2tpseld-example.XXXXXX", buf[4096];
	FILE *in = fopen(TOP_DIR "/contrib/l2tpseld.conf.example", "r");
	int fd = mkstemp(path), ret = -1;
	size_t n;

	if (!in || fd < 0)
		goto out;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (write(fd, buf, n) != (ssize_t)n)
			goto out;
	l2d_conf_defaults(c);
	ret = l2d_conf_file(c, path, err, errlen);
	if (!ret)
		ret = l2d_conf_check(c, err, errlen);
out:
	if (in)
		fclose(in);
	if (fd >= 0) {
		close(fd);
		unlink(path);
	}
	return ret;
}

/* The example configuration must not turn the LNS's authentication off */
TEST(l2tpseld_lns_pppd_has_no_lac_noauth)
{
	static struct l2d_conf c;
	char err[512], buf[256], *argv[40];
	const char *file;
	int n;

	ASSERT_EQ(read_example(&c, err, sizeof(err)), 0);
	n = l2d_conf_pppd_args(&c, true, &file, buf, sizeof(buf), argv, 40);
	ASSERT_TRUE(n >= 0);
	EXPECT_TRUE(!has_word(argv, "noauth"));
	n = l2d_conf_pppd_args(&c, false, &file, buf, sizeof(buf), argv, 40);
	ASSERT_TRUE(n >= 0);
	EXPECT_TRUE(has_word(argv, "noauth"));	/* the LAC's dialer pppd */

	/* pppd-options is the LAC's: never appended to an LNS pppd */
	l2d_conf_defaults(&c);
	EXPECT_EQ(l2d_conf_line(&c, "pppd-options noauth mtu 1400", err, sizeof(err)), 0);
	EXPECT_EQ(l2d_conf_line(&c, "pppd-file /etc/ppp/lac", err, sizeof(err)), 0);
	EXPECT_EQ(l2d_conf_line(&c, "lns-pppd-file /etc/ppp/lns", err, sizeof(err)), 0);
	n = l2d_conf_pppd_args(&c, true, &file, buf, sizeof(buf), argv, 40);
	EXPECT_EQ(n, 0);
	EXPECT_STREQ(file, "/etc/ppp/lns");
	n = l2d_conf_pppd_args(&c, false, &file, buf, sizeof(buf), argv, 40);
	EXPECT_EQ(n, 3);
	EXPECT_STREQ(file, "/etc/ppp/lac");
	/* unless the operator wrote it for the LNS */
	EXPECT_EQ(l2d_conf_line(&c, "lns-pppd-options noauth", err, sizeof(err)), 0);
	n = l2d_conf_pppd_args(&c, true, &file, buf, sizeof(buf), argv, 40);
	EXPECT_EQ(n, 1);
	EXPECT_TRUE(has_word(argv, "noauth"));
	/* and pppd's password never goes on a command line */
	EXPECT_EQ(l2d_conf_line(&c, "lns-pppd-options password x", err, sizeof(err)), -1);
	EXPECT_TRUE(strstr(err, "/proc/PID/cmdline") != NULL);
}

/* The test switches say what they do; their old names are no keywords. */
TEST(l2tpseld_test_switches_old_names_unknown)
{
	static struct l2d_conf c;
	char err[300];

	l2d_conf_defaults(&c);
	EXPECT_EQ(l2d_conf_line(&c, "stub-limit 1", err, sizeof(err)), -1);
	EXPECT_STREQ(err, "unknown keyword \"stub-limit\"");
	EXPECT_EQ(l2d_conf_line(&c, "stub-rl icrq drop", err, sizeof(err)), -1);
	EXPECT_STREQ(err, "unknown keyword \"stub-rl\"");
	EXPECT_EQ(l2d_conf_line(&c, "test-chassis-limit 3", err, sizeof(err)), 0);
	EXPECT_EQ(c.test_chassis_limit, 3u);
	EXPECT_EQ(l2d_conf_line(&c, "test-ratelimit-verdict icrq drop", err, sizeof(err)), 0);
	EXPECT_EQ(c.test_rl_verdict[L2TPSEL_RL_MSG_ICRQ], L2TPSEL_RL_DROPPED);
}

TEST(l2tpseld_test_switches_need_test_mode)
{
	static const char *const sw[] = { "lns-mode silent", "lns-mode silent-after-zlb",
					   "lns-mode cdn 2 6", "test-chassis-limit 1",
					   "test-ratelimit-verdict icrq drop" };
	static struct l2d_conf c;
	char err[300];
	unsigned int i;

	for (i = 0; i < sizeof(sw) / sizeof(sw[0]); i++) {
		l2d_conf_defaults(&c);
		c.kernel = L2D_KERNEL_NONE;
		EXPECT_EQ(l2d_conf_line(&c, sw[i], err, sizeof(err)), 0);
		EXPECT_EQ(l2d_conf_check(&c, err, sizeof(err)), -1);
		EXPECT_TRUE(strstr(err, "is a test switch: refused without \"test-mode yes\"") != NULL);
		EXPECT_EQ(l2d_conf_line(&c, "test-mode yes", err, sizeof(err)), 0);
		EXPECT_EQ(l2d_conf_check(&c, err, sizeof(err)), 0);
	}
	l2d_conf_defaults(&c);
	EXPECT_EQ(l2d_conf_line(&c, "lns-mode silent", err, sizeof(err)), 0);
	EXPECT_EQ(l2d_conf_check(&c, err, sizeof(err)), -1);
	EXPECT_STREQ(err, "lns-mode silent is a test switch: refused without \"test-mode yes\" "
		     "(never on a production agent)");
}

TEST(l2tpseld_reload_keeps_restart_keys)
{
	static struct l2d_conf run, fresh;
	char err[200], kept[200];

	l2d_conf_defaults(&run);
	EXPECT_EQ(l2d_conf_line(&run, "listen 10.0.0.1", err, sizeof(err)), 0);
	EXPECT_EQ(l2d_conf_check(&run, err, sizeof(err)), 0);
	fresh = run;
	EXPECT_EQ(l2d_conf_line(&fresh, "lns-secret * new", err, sizeof(err)), 0);
	EXPECT_EQ(l2d_conf_line(&fresh, "hello-interval 5s", err, sizeof(err)), 0);
	EXPECT_EQ(l2d_conf_line(&fresh, "log-level 2", err, sizeof(err)), 0);
	l2d_conf_reload(&run, &fresh, kept, sizeof(kept));
	EXPECT_STREQ(kept, "");
	EXPECT_STREQ(l2d_conf_secret(&run, true, "x"), "new");
	EXPECT_EQ(run.hello_ms, 5000);
	EXPECT_EQ(run.log_level, 2);

	fresh = run;
	EXPECT_EQ(l2d_conf_line(&fresh, "port 1702", err, sizeof(err)), 0);
	EXPECT_EQ(l2d_conf_line(&fresh, "lac-port 1701", err, sizeof(err)), 0);
	EXPECT_EQ(l2d_conf_line(&fresh, "listen 10.0.0.2", err, sizeof(err)), 0);
	EXPECT_EQ(l2d_conf_line(&fresh, "agent-id 3", err, sizeof(err)), 0);
	EXPECT_EQ(l2d_conf_line(&fresh, "socket /run/other.sock", err, sizeof(err)), 0);
	EXPECT_EQ(l2d_conf_line(&fresh, "tie-breaker no", err, sizeof(err)), 0);
	l2d_conf_reload(&run, &fresh, kept, sizeof(kept));
	EXPECT_STREQ(kept, "port, lac-port, listen, socket, agent-id");
	EXPECT_EQ(run.port, 1701);
	EXPECT_EQ(run.lac_port, 0);
	EXPECT_EQ(run.n_listen, 1);
	EXPECT_EQ(run.agent_id, 1);
	EXPECT_STREQ(run.socket_path, "/run/l2tpseld.sock");
	EXPECT_TRUE(!run.tie_breaker);
}

TEST(l2tpseld_quote)
{
	static const char hostile[] = "a b\\c\"d\ne\rf\x1b[31m\xff\xc3\x28\x7f";
	char out[L2D_QUOTED_SIZE(sizeof(hostile))], small[8];

	l2d_quote(out, sizeof(out), hostile, sizeof(hostile) - 1, L2D_QUOTE_FIELD);
	EXPECT_STREQ(out, "a\\x20b\\x5cc\\x22d\\x0ae\\x0df\\x1b[31m\\xff\\xc3(\\x7f");
	l2d_quote(out, sizeof(out), hostile, sizeof(hostile) - 1, 0);
	EXPECT_STREQ(out, "a b\\c\"d\\x0ae\\x0df\\x1b[31m\\xff\\xc3(\\x7f");
	/* an escape is never cut */
	l2d_quote(small, sizeof(small), "ab\n\n", 4, 0);
	EXPECT_STREQ(small, "ab\\x0a");
	EXPECT_STREQ(l2d_quote_str(out, sizeof(out), ""), "-");
}

/* The byte-at-a-time quoting l2d_quote() must equal: the model. */
static void quote_model(char *dst, size_t cap, const unsigned char *p, size_t len, bool field)
{
	size_t i, o = 0;

	for (i = 0; i < len; i++) {
		bool q = p[i] < 0x20 || p[i] >= 0x7f ||
			 (field && (p[i] == ' ' || p[i] == '\\' || p[i] == '"'));

		if (!q) {
			if (o + 1 >= cap)
				break;
			dst[o++] = (char)p[i];
			continue;
		}
		if (o + 4 >= cap)
			break;
		o += (size_t)sprintf(dst + o, "\\x%02x", p[i]);
	}
	dst[o] = '\0';
}

/* Runs of plain bytes are copied at once: every byte, length and cut agrees. */
TEST(l2tpseld_quote_matches_model)
{
	unsigned char in[64];
	char got[L2D_QUOTED_SIZE(64)], want[L2D_QUOTED_SIZE(64)];
	unsigned int seed = 1, round, b;

	for (b = 0; b < 256; b++) {	/* every byte, alone and in a run */
		unsigned char one[3] = { 'a', (unsigned char)b, 'z' };

		for (int field = 0; field < 2; field++) {
			l2d_quote(got, sizeof(got), one, 3, field ? L2D_QUOTE_FIELD : 0);
			quote_model(want, sizeof(want), one, 3, field);
			EXPECT_STREQ(got, want);
		}
	}
	for (round = 0; round < 20000; round++) {
		size_t len = rand_r(&seed) % sizeof(in), cap = 1 + rand_r(&seed) % sizeof(got);
		bool field = rand_r(&seed) & 1;
		size_t i;

		for (i = 0; i < len; i++)	/* mostly printable, as log lines are */
			in[i] = (unsigned char)(rand_r(&seed) % 4 ? 0x20 + rand_r(&seed) % 0x5f :
						rand_r(&seed) % 256);
		l2d_quote(got, cap, in, len, field ? L2D_QUOTE_FIELD : 0);
		quote_model(want, cap, in, len, field);
		ASSERT_STREQ(got, want);
	}
}

/* l2d_fmt() writes what snprintf() writes, cut to fit the same way. */
TEST(l2tpseld_fmt_matches_snprintf)
{
	static const char *const strs[] = { "", "t-sel", "a b\n", "x@example.net" };
	const char *volatile nul = NULL;
	char got[96], want[96];
	unsigned int seed = 7, round;

	for (round = 0; round < 20000; round++) {
		const char *s = strs[rand_r(&seed) % 4];
		unsigned int u = rand_r(&seed) % 3 ? (unsigned int)rand_r(&seed) : 0xffffffffu;
		unsigned long long ll = (unsigned long long)rand_r(&seed) << (rand_r(&seed) % 34);
		size_t cap = 1 + rand_r(&seed) % sizeof(got);

		if (round % 5 == 0)
			ll = ~0ull;
		EXPECT_EQ(l2d_fmt(got, cap, "done ok session %u tunnel %s%% us %llu end", u, s, ll),
			  (size_t)snprintf(want, cap, "done ok session %u tunnel %s%% us %llu end",
					   u, s, ll) >= cap ? cap - 1 : strlen(want));
		ASSERT_STREQ(got, want);
		/* other conversions go to snprintf, one at a time */
		l2d_fmt(got, cap, "%s %04x %u", s, u, u);
		snprintf(want, cap, "%s %04x %u", s, u, u);
		ASSERT_STREQ(got, want);
	}
	/* the same with a field, the width and precision of '*' included */
	l2d_fmt(got, sizeof(got), "%-s|%*.*s|%5d|%-6lu|%zu|%c|%%|%.3f", "a b", 4, 2, "xyz", -3,
		7ul, (size_t)9, 'q', 1.5);
	EXPECT_STREQ(got, "a\\x20b|  xy|   -3|7     |9|q|%|1.500");
	EXPECT_EQ(l2d_fmt(got, sizeof(got), "%u%s", 0u, "x"), 2u);
	EXPECT_STREQ(got, "0x");
	EXPECT_EQ(l2d_fmt(got, sizeof(got), "%s", nul), 6u);	/* as glibc's */
	EXPECT_STREQ(got, "(null)");
}

/* A LAC with a hostile Host Name: every line the LNS logs stays one line. */
TEST(l2tpseld_hostile_host_name_logs_one_line)
{
	static const char *const lac_c[] = { "route p t1 10.0.0.2", NULL };
	static const char *const lns_c[] = { "listen 10.0.0.2", NULL };
	static const char hostile[] = "evil\nl2tpseld: FORGED\r\x1b[2J\xff\xfe";
	char path[] = "/tmp/l2tpseld-log.XXXXXX", line[2048];
	struct h_node *lac, *lns;
	int fd = mkstemp(path), saved = dup(2);
	unsigned int lines = 0, escaped = 0;
	FILE *f;

	ASSERT_TRUE(fd >= 0 && saved >= 0);
	h_reset();
	lac = h_node(lac_c);
	lns = h_node(lns_c);
	ASSERT_TRUE(lac && lns);
	memcpy(lac->conf.hostname, hostile, sizeof(hostile));
	lns->d->log_level = 2;
	fflush(stderr);
	dup2(fd, 2);
	h_login(lac, "alice@example", NULL);
	h_run_for(200);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	EXPECT_TRUE(h_line(lac, "done ok") != NULL);
	f = fdopen(fd, "r");
	ASSERT_TRUE(f != NULL);
	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		const char *p;

		lines++;
		EXPECT_TRUE(!strncmp(line, "l2tpseld: ", 10));
		EXPECT_TRUE(strncmp(line, "l2tpseld: FORGED", 16) != 0);
		for (p = line; *p && *p != '\n'; p++)
			EXPECT_TRUE((unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f);
		if (strstr(line, "evil\\x0al2tpseld:\\x20FORGED\\x0d\\x1b[2J\\xff\\xfe"))
			escaped++;
	}
	fclose(f);
	unlink(path);
	EXPECT_TRUE(lines > 0);
	EXPECT_TRUE(escaped > 0);	/* "tunnel ... (HOST) established as LNS" */
}

/* %-s: a field someone chose stays one word, and an empty one is "-". */
TEST(l2tpseld_fmt_field)
{
	char got[128];

	l2d_fmt(got, sizeof(got), "login %u (%-s): x", 3u, "bob outcome=ok\nl2tpseld: y");
	EXPECT_STREQ(got, "login 3 (bob\\x20outcome=ok\\x0al2tpseld:\\x20y): x");
	l2d_fmt(got, sizeof(got), "user %-s end", "");
	EXPECT_STREQ(got, "user - end");
	l2d_fmt(got, sizeof(got), "%-s %d", "a\"b\\", 1);
	EXPECT_STREQ(got, "a\\x22b\\x5c 1");
	/* cut to fit, never inside an escape */
	l2d_fmt(got, 6, "%-s", "ab cd");
	EXPECT_STREQ(got, "ab");
}

/*
 * A user name that would add fields (" outcome ok", a line of its own):
 * the LAC's log lines and its API lines hold it as one quoted word.
 */
TEST(l2tpseld_hostile_user_is_one_field)
{
	static const char *const lac_c[] = { "route p t1 10.0.0.2", NULL };
	static const char *const lns_c[] = { "listen 10.0.0.2", NULL };
	static const char user[] = "bob outcome=ok\nl2tpseld: login 9 (x): done ok";
	char path[] = "/tmp/l2tpseld-log.XXXXXX", line[2048];
	struct h_node *lac, *lns;
	int fd = mkstemp(path), saved = dup(2);
	unsigned int lines = 0, named = 0, i;
	FILE *f;

	ASSERT_TRUE(fd >= 0 && saved >= 0);
	h_reset();
	lac = h_node(lac_c);
	lns = h_node(lns_c);
	ASSERT_TRUE(lac && lns);
	lac->d->log_level = 2;
	fflush(stderr);
	dup2(fd, 2);
	h_login(lac, user, NULL);
	h_run_for(200);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	/* the API's first line: the user one word ("login ID user U") */
	EXPECT_STREQ(h_line(lac, "login "),
		     "login 1 user bob\\x20outcome=ok\\x0al2tpseld:\\x20login\\x209\\x20(x):\\x20done\\x20ok");
	for (i = 0; i < lac->n_lines; i++)
		EXPECT_TRUE(strstr(lac->lines[i], " outcome=ok") == NULL);
	f = fdopen(fd, "r");
	ASSERT_TRUE(f != NULL);
	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		lines++;
		EXPECT_TRUE(strncmp(line, "l2tpseld: login 9", 17) != 0);
		EXPECT_TRUE(strstr(line, " outcome=ok") == NULL);
		if (strstr(line, "(bob\\x20outcome=ok\\x0al2tpseld:\\x20login"))
			named++;
	}
	fclose(f);
	unlink(path);
	lac->d->log_level = 0;
	h_fini();
	EXPECT_TRUE(lines > 0);
	EXPECT_TRUE(named > 0);
}
