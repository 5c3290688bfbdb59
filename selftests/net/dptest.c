// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpsel-dptest: drives l2tpseld's data-path handoff (dp.c) without any
 * control plane, and two small peers for the VM tests (selftests/peers.sh).
 *
 *   l2tpsel-dptest up LOCAL REMOTE TID PEER_TID SID PEER_SID [lns] [optfile F]
 *                     [logfile F] [unit N]
 *       UDP socket LOCAL -> REMOTE, kernel tunnel + PPP session, PPPoL2TP
 *       socket, pppd; "ready" once pppd runs.  SIGTERM tears it all down
 *       (pppd, session, PPPoL2TP socket, tunnel) and says how each step went.
 *   l2tpsel-dptest errors LOCAL REMOTE
 *       every refusal of dp.c, checked against the errno dp.h promises.
 *   l2tpsel-dptest list
 *       the kernel's L2TP tunnels and sessions in this namespace.
 *   l2tpsel-dptest probe DEST [from LOCAL] [timeout MS]
 *       send an SCCRQ (RFC 2661 5.1) to DEST; exit 0 on SCCRP (then StopCCN),
 *       2 on no reply within MS (default 3000), 3 on an ICMP error, 1 else.
 *   l2tpsel-dptest sink LOCAL COUNTFILE
 *       a silent destination: read and discard datagrams on LOCAL (which
 *       may be a wildcard address), keep "total N" and one "ADDR N" line per
 *       destination address in COUNTFILE; never answers, so no ICMP either.
 *   l2tpsel-dptest lac DEST [from LOCAL] [host NAME] [calls N] [hold]
 *       a minimal LAC: tunnel (SCCRQ/SCCRP/SCCCN, Host Name NAME), then N
 *       calls (ICRQ, then ICCN on ICRP) one after the other, each printed
 *       as "call K: ok sid S peer-sid P" or "call K: cdn result R error E"
 *       (the codes as on the wire); "hold" keeps the tunnel and sessions
 *       until SIGTERM; then StopCCN.  Exit 0 once the tunnel was up, 2 when
 *       the SCCRQ got no answer, 3 on an ICMP error.
 *   l2tpsel-dptest dstrace LOCAL REMOTE SECONDS connected|separate
 *       kernel data frames on a tunnel (PPPoL2TP writes) while control-like
 *       datagrams go to REMOTE and the route cache is flushed, for SECONDS:
 *       "connected" sends them on the tunnel's own socket (send(), which
 *       races the kernel's transmit over the socket's route cache on Linux
 *       6.1: "dst_release underflow"), "separate" on a second socket bound
 *       to the same address and port, as l2tpseld does (main.c).  Prints
 *       the frames and datagrams sent; the verdict is the kernel log's.
 *
 * Addresses: A.B.C.D[:PORT] or [V6][:PORT]; the port defaults to 1701.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "dp.h"

static int usage(void)
{
	fprintf(stderr,
		"usage: l2tpsel-dptest up LOCAL REMOTE TID PEER_TID SID PEER_SID [lns] [optfile F] [logfile F] [unit N]\n"
		"       l2tpsel-dptest errors LOCAL REMOTE\n"
		"       l2tpsel-dptest list\n"
		"       l2tpsel-dptest probe DEST [from LOCAL] [timeout MS]\n"
		"       l2tpsel-dptest sink LOCAL COUNTFILE\n"
		"       l2tpsel-dptest lac DEST [from LOCAL] [host NAME] [calls N] [hold]\n"
		"       l2tpsel-dptest dstrace LOCAL REMOTE SECONDS connected|separate\n"
		"LOCAL, REMOTE, DEST: A.B.C.D[:PORT] or [V6ADDR][:PORT] (port 1701 if not given)\n");
	return 1;
}

/* --- helpers --------------------------------------------------------------- */

static int parse_addr(const char *s, struct sockaddr_storage *ss, socklen_t *len)
{
	char host[INET6_ADDRSTRLEN + 2];
	const char *port = NULL;
	unsigned long p = 1701;
	char *end;

	memset(ss, 0, sizeof(*ss));
	if (s[0] == '[') {
		const char *rb = strchr(s, ']');

		if (!rb || (size_t)(rb - s - 1) >= sizeof(host))
			return -1;
		memcpy(host, s + 1, (size_t)(rb - s - 1));
		host[rb - s - 1] = '\0';
		if (rb[1] == ':')
			port = rb + 2;
		else if (rb[1])
			return -1;
	} else {
		const char *c = strchr(s, ':');
		size_t n = c ? (size_t)(c - s) : strlen(s);

		if (n >= sizeof(host))
			return -1;
		memcpy(host, s, n);
		host[n] = '\0';
		if (c)
			port = c + 1;
	}
	if (port) {
		errno = 0;
		p = strtoul(port, &end, 10);
		if (errno || *end || !*port || p > 65535)
			return -1;
	}
	if (inet_pton(AF_INET, host, &((struct sockaddr_in *)ss)->sin_addr) == 1) {
		struct sockaddr_in *sin = (struct sockaddr_in *)ss;

		sin->sin_family = AF_INET;
		sin->sin_port = htons((uint16_t)p);
		*len = sizeof(*sin);
		return 0;
	}
	if (inet_pton(AF_INET6, host, &((struct sockaddr_in6 *)ss)->sin6_addr) == 1) {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons((uint16_t)p);
		*len = sizeof(*sin6);
		return 0;
	}
	return -1;
}

static int parse_u16(const char *s, uint16_t *v)
{
	unsigned long x;
	char *end;

	errno = 0;
	x = strtoul(s, &end, 10);
	if (errno || *end || !*s || x > 65535)
		return -1;
	*v = (uint16_t)x;
	return 0;
}

/* A UDP socket bound to @local (if not NULL) and connected to @remote (if not NULL). */
static int udp_open(const char *local, const char *remote)
{
	struct sockaddr_storage la, ra;
	socklen_t ll = 0, rl = 0;
	int fd, one = 1, fam;

	if (local && parse_addr(local, &la, &ll) < 0) {
		fprintf(stderr, "bad address \"%s\"\n", local);
		return -1;
	}
	if (remote && parse_addr(remote, &ra, &rl) < 0) {
		fprintf(stderr, "bad address \"%s\"\n", remote);
		return -1;
	}
	fam = local ? la.ss_family : remote ? ra.ss_family : AF_INET;
	fd = socket(fam, SOCK_DGRAM | SOCK_CLOEXEC, IPPROTO_UDP);
	if (fd < 0) {
		fprintf(stderr, "UDP socket: %s\n", strerror(errno));
		return -1;
	}
	/* Several tunnels of one agent share the local port 1701. */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (local && bind(fd, (struct sockaddr *)&la, ll) < 0) {
		fprintf(stderr, "binding a UDP socket to %s: %s\n", local, strerror(errno));
		close(fd);
		return -1;
	}
	if (remote && connect(fd, (struct sockaddr *)&ra, rl) < 0) {
		fprintf(stderr, "connecting a UDP socket to %s: %s\n", remote, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* --- list ------------------------------------------------------------------ */

static int print_obj(const struct l2d_dp_obj *o, void *arg)
{
	int *n = arg;

	if (o->sid)
		printf("session %u in tunnel %u peer %u/%u pw %u%s%s\n", o->sid, o->tid,
		       o->peer_tid, o->peer_sid, o->pw_type, o->ifname[0] ? " ifname " : "",
		       o->ifname);
	else
		printf("tunnel %u peer %u version %u\n", o->tid, o->peer_tid, o->proto_version);
	(*n)++;
	return 0;
}

static int cmd_list(void)
{
	struct l2d_dp *dp;
	char err[384];
	int n = 0;

	if (l2d_dp_open(&dp, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	if (l2d_dp_dump(dp, false, print_obj, &n) < 0 || l2d_dp_dump(dp, true, print_obj, &n) < 0) {
		fprintf(stderr, "%s\n", l2d_dp_strerror(dp));
		l2d_dp_close(dp);
		return 1;
	}
	printf("%d object(s)\n", n);
	l2d_dp_close(dp);
	return 0;
}

/* --- up -------------------------------------------------------------------- */

static int cmd_up(int argc, char **argv)
{
	struct l2d_pppd_opts o = { 0 };
	uint16_t tid, ptid, sid, psid;
	struct l2d_dp *dp = NULL;
	int udp = -1, ppp = -1, rc = 0, i, sig, st;
	pid_t pppd = -1;
	char err[384];
	sigset_t set;
	long t0;

	if (argc < 6 || parse_u16(argv[2], &tid) || parse_u16(argv[3], &ptid) ||
	    parse_u16(argv[4], &sid) || parse_u16(argv[5], &psid))
		return usage();
	for (i = 6; i < argc; i++) {
		if (!strcmp(argv[i], "lns")) {
			o.lns = true;
		} else if (!strcmp(argv[i], "optfile") && i + 1 < argc) {
			o.optfile = argv[++i];
		} else if (!strcmp(argv[i], "logfile") && i + 1 < argc) {
			o.logfile = argv[++i];
		} else if (!strcmp(argv[i], "unit") && i + 1 < argc) {
			o.has_unit = true;
			o.unit = atoi(argv[++i]);
		} else {
			fprintf(stderr, "unknown option \"%s\"\n", argv[i]);
			return usage();
		}
	}
	o.tid = tid;
	o.sid = sid;
	o.out_fd = STDOUT_FILENO;

	/* Signals are taken with sigwait(); pppd gets an empty mask (dp.c). */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);

	t0 = now_ms();
	udp = udp_open(argv[0], argv[1]);
	if (udp < 0)
		return 1;
	if (l2d_dp_open(&dp, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		close(udp);
		return 1;
	}
	if (l2d_dp_tunnel_add(dp, udp, tid, ptid) < 0)
		goto fail;
	printf("tunnel %u (peer %u) on %s -> %s: created\n", tid, ptid, argv[0], argv[1]);
	if (l2d_dp_session_add(dp, tid, sid, ptid, psid, false) < 0)
		goto fail;
	printf("session %u/%u (peer %u/%u): created\n", tid, sid, ptid, psid);
	ppp = l2d_dp_ppp_open(dp, udp, tid, sid, ptid, psid);
	if (ppp < 0)
		goto fail;
	printf("PPPoL2TP socket %d connected\n", ppp);
	pppd = l2d_dp_pppd_start(dp, ppp, &o);
	if (pppd < 0)
		goto fail;
	printf("pppd %d started (%s mode) after %ld ms\nready\n", (int)pppd,
	       o.lns ? "LNS" : "dialer", now_ms() - t0);
	fflush(stdout);

	for (;;) {
		if (sigwait(&set, &sig))
			continue;
		if (sig == SIGCHLD) {
			if (pppd > 0 && waitpid(pppd, &st, WNOHANG) == pppd) {
				printf("pppd %d exited (%s %d)\n", (int)pppd,
				       WIFEXITED(st) ? "status" : "signal",
				       WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
				fflush(stdout);
				pppd = -1;
			}
			continue;
		}
		break;
	}

	/* Teardown, in the order the agent uses on logout. */
	if (pppd > 0) {
		if (l2d_dp_pppd_stop(dp, pppd, 3000, &st) < 0) {
			printf("FAIL %s\n", l2d_dp_strerror(dp));
			rc = 1;
		} else {
			printf("pppd %d stopped\n", (int)pppd);
		}
	}
	if (l2d_dp_session_del(dp, tid, sid) < 0) {
		printf("FAIL %s\n", l2d_dp_strerror(dp));
		rc = 1;
	} else {
		printf("session %u/%u: deleted\n", tid, sid);
	}
	close(ppp);
	if (l2d_dp_tunnel_del(dp, tid) < 0) {
		printf("FAIL %s\n", l2d_dp_strerror(dp));
		rc = 1;
	} else {
		printf("tunnel %u: deleted\n", tid);
	}
	close(udp);
	l2d_dp_close(dp);
	return rc;

fail:
	printf("FAIL %s\n", l2d_dp_strerror(dp));
	if (pppd > 0)
		l2d_dp_pppd_stop(dp, pppd, 3000, NULL);
	if (ppp >= 0)
		close(ppp);
	l2d_dp_tunnel_del(dp, tid);
	close(udp);
	l2d_dp_close(dp);
	return 1;
}

/* --- errors ---------------------------------------------------------------- */

static int failures;

/* @rc must be @want (both -errno, or 0 / >= 0 for success). */
static void expect(struct l2d_dp *dp, const char *what, int rc, int want)
{
	bool ok = want == 0 ? rc >= 0 : rc == want;

	if (ok && rc < 0)
		printf("ok   %-44s -> %s\n", what, l2d_dp_strerror(dp));
	else if (ok)
		printf("ok   %-44s -> success\n", what);
	else {
		printf("FAIL %-44s -> %s (%s), expected %s\n", what,
		       rc < 0 ? strerror(-rc) : "success", rc < 0 ? l2d_dp_strerror(dp) : "",
		       want < 0 ? strerror(-want) : "success");
		failures++;
	}
}

struct find {
	uint32_t tid, sid;
	int found;
};

static int find_cb(const struct l2d_dp_obj *o, void *arg)
{
	struct find *f = arg;

	if (o->tid == f->tid && o->sid == f->sid)
		f->found++;
	return 0;
}

/* Is tunnel @tid (sid 0) or session @tid/@sid in the kernel's dump? */
static int present(struct l2d_dp *dp, uint32_t tid, uint32_t sid)
{
	struct find f = { .tid = tid, .sid = sid };

	if (l2d_dp_dump(dp, sid != 0, find_cb, &f) < 0)
		return -1;
	return f.found;
}

struct seq_find {
	uint32_t tid, sid;
	int seq;	/* -1 not found; bit 0 send, bit 1 receive */
};

static int seq_cb(const struct l2d_dp_obj *o, void *arg)
{
	struct seq_find *f = arg;

	if (o->tid == f->tid && o->sid == f->sid)
		f->seq = (o->send_seq ? 1 : 0) | (o->recv_seq ? 2 : 0);
	return 0;
}

/* Session @tid/@sid's sequencing as the kernel dumps it, -1 when not there. */
static int seq_of(struct l2d_dp *dp, uint32_t tid, uint32_t sid)
{
	struct seq_find f = { .tid = tid, .sid = sid, .seq = -1 };

	if (l2d_dp_dump(dp, true, seq_cb, &f) < 0)
		return -1;
	return f.seq;
}

/* Wait up to @ms for the object to be (@want 1) or not be (0) there. */
static bool settle(struct l2d_dp *dp, uint32_t tid, uint32_t sid, int want, int ms)
{
	long end = now_ms() + ms;
	struct timespec tick = { 0, 20 * 1000 * 1000 };

	do {
		if ((present(dp, tid, sid) > 0) == want)
			return true;
		nanosleep(&tick, NULL);
	} while (now_ms() < end);
	return false;
}

static int cmd_errors(int argc, char **argv)
{
	const struct l2d_pppd_opts bad_pppd = { .pppd = "/nonexistent/pppd" };
	struct l2d_dp *dp;
	int udp, udp2, tcp, ppp, ppp2, rc;
	char err[384];
	pid_t pid;

	if (argc < 2)
		return usage();
	udp = udp_open(argv[0], argv[1]);
	udp2 = udp_open(NULL, argv[1]);
	tcp = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (udp < 0 || udp2 < 0 || tcp < 0)
		return 1;
	if (l2d_dp_open(&dp, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}

	expect(dp, "tunnel on a TCP socket", l2d_dp_tunnel_add(dp, tcp, 100, 200), -EPROTONOSUPPORT);
	expect(dp, "tunnel on a closed descriptor", l2d_dp_tunnel_add(dp, 999, 100, 200), -EBADF);
	expect(dp, "tunnel id 0", l2d_dp_tunnel_add(dp, udp, 0, 200), -EINVAL);
	expect(dp, "tunnel 100", l2d_dp_tunnel_add(dp, udp, 100, 200), 0);
	expect(dp, "tunnel 100 again (other socket)", l2d_dp_tunnel_add(dp, udp2, 100, 201), -EEXIST);
	expect(dp, "tunnel 101 on tunnel 100's socket", l2d_dp_tunnel_add(dp, udp, 101, 201), -EBUSY);
	expect(dp, "session in missing tunnel 999", l2d_dp_session_add(dp, 999, 1, 200, 2, false), -ENOENT);
	expect(dp, "session id 0", l2d_dp_session_add(dp, 100, 0, 200, 2, false), -EINVAL);
	expect(dp, "session 100/1", l2d_dp_session_add(dp, 100, 1, 200, 2, false), 0);
	expect(dp, "session 100/1 again", l2d_dp_session_add(dp, 100, 1, 200, 3, false), -EEXIST);
	expect(dp, "PPPoL2TP on missing tunnel 999", l2d_dp_ppp_open(dp, udp, 999, 1, 200, 2), -ENOENT);
	ppp = l2d_dp_ppp_open(dp, udp, 100, 1, 200, 2);
	expect(dp, "PPPoL2TP on session 100/1", ppp, 0);
	ppp2 = l2d_dp_ppp_open(dp, udp, 100, 1, 200, 2);
	expect(dp, "second PPPoL2TP on session 100/1", ppp2, -EEXIST);
	expect(dp, "dump lists tunnel 100", present(dp, 100, 0) == 1 ? 0 : -ENOENT, 0);
	expect(dp, "dump lists session 100/1", present(dp, 100, 1) == 1 ? 0 : -ENOENT, 0);
	expect(dp, "delete missing session 100/55", l2d_dp_session_del(dp, 100, 55), -ENOENT);
	expect(dp, "delete missing tunnel 999", l2d_dp_tunnel_del(dp, 999), -ENOENT);
	pid = ppp >= 0 ? l2d_dp_pppd_start(dp, ppp, &bad_pppd) : -EBADF;
	expect(dp, "pppd that does not exist", pid, -ENOENT);
	expect(dp, "pppd on a closed descriptor", l2d_dp_pppd_start(dp, 999, NULL), -EBADF);
	expect(dp, "stop a pppd that is not there", l2d_dp_pppd_stop(dp, 0x3ffffff0, 100, NULL), -ESRCH);

	/* dp.h: closing the last PPPoL2TP descriptor deletes the session. */
	if (ppp >= 0)
		close(ppp);
	expect(dp, "closing the PPPoL2TP socket deletes 100/1",
	       settle(dp, 100, 1, 0, 2000) ? 0 : -EEXIST, 0);
	expect(dp, "session 100/2", l2d_dp_session_add(dp, 100, 2, 200, 4, false), 0);
	expect(dp, "delete session 100/2", l2d_dp_session_del(dp, 100, 2), 0);
	expect(dp, "delete session 100/2 again", l2d_dp_session_del(dp, 100, 2), -ENOENT);
	/* RFC 2661 section 4.4.6: a session with numbered data both ways */
	expect(dp, "session 100/6 with sequencing", l2d_dp_session_add(dp, 100, 6, 200, 7, true), 0);
	expect(dp, "dump shows 100/6 sequenced both ways", seq_of(dp, 100, 6) == 3 ? 0 : -EPROTO, 0);
	expect(dp, "session 100/3 (left for the tunnel)", l2d_dp_session_add(dp, 100, 3, 200, 5, false), 0);
	expect(dp, "dump shows 100/3 unsequenced", seq_of(dp, 100, 3) == 0 ? 0 : -EPROTO, 0);
	expect(dp, "delete tunnel 100", l2d_dp_tunnel_del(dp, 100), 0);
	expect(dp, "tunnel 100 and its session gone",
	       settle(dp, 100, 0, 0, 2000) && settle(dp, 100, 3, 0, 100) ? 0 : -EEXIST, 0);
	/* Not promised by dp.h; shown for the agent's sake. */
	rc = l2d_dp_tunnel_add(dp, udp, 102, 202);
	printf("info a deleted tunnel's UDP socket takes a new tunnel: %s\n",
	       rc < 0 ? l2d_dp_strerror(dp) : "yes");
	if (rc == 0)
		l2d_dp_tunnel_del(dp, 102);
	expect(dp, "closing a tunnel's UDP socket deletes it",
	       l2d_dp_tunnel_add(dp, udp2, 103, 203), 0);
	close(udp2);
	expect(dp, "tunnel 103 gone after close", settle(dp, 103, 0, 0, 2000) ? 0 : -EEXIST, 0);

	close(udp);
	close(tcp);
	l2d_dp_close(dp);
	printf("%d failure(s)\n", failures);
	return failures ? 1 : 0;
}

/* --- probe: one SCCRQ, RFC 2661 ------------------------------------------------ */

#define L2TP_HDR_CTRL 0xc802	/* T, L, S, version 2 */
#define AVP_M 0x8000

static size_t put16(uint8_t *p, size_t off, uint16_t v)
{
	p[off] = (uint8_t)(v >> 8);
	p[off + 1] = (uint8_t)v;
	return off + 2;
}

/* An AVP with M set, vendor 0: header and value. */
static size_t put_avp(uint8_t *p, size_t off, uint16_t type, const void *val, size_t len)
{
	off = put16(p, off, (uint16_t)(AVP_M | (6 + len)));
	off = put16(p, off, 0);
	off = put16(p, off, type);
	memcpy(p + off, val, len);
	return off + len;
}

static size_t put_avp16(uint8_t *p, size_t off, uint16_t type, uint16_t v)
{
	uint8_t b[2] = { (uint8_t)(v >> 8), (uint8_t)v };

	return put_avp(p, off, type, b, 2);
}

static size_t put_avp32(uint8_t *p, size_t off, uint16_t type, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v };

	return put_avp(p, off, type, b, 4);
}

static size_t ctrl_hdr_s(uint8_t *p, uint16_t tid, uint16_t sid, uint16_t ns, uint16_t nr)
{
	size_t off = put16(p, 0, L2TP_HDR_CTRL);

	off = put16(p, off, 0);		/* length, filled in by ctrl_len() */
	off = put16(p, off, tid);
	off = put16(p, off, sid);
	off = put16(p, off, ns);
	return put16(p, off, nr);
}

static size_t ctrl_hdr(uint8_t *p, uint16_t tid, uint16_t ns, uint16_t nr)
{
	return ctrl_hdr_s(p, tid, 0, ns, nr);
}

static void ctrl_len(uint8_t *p, size_t len)
{
	put16(p, 2, (uint16_t)len);
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

struct reply {
	int msg_type;		/* -1: none seen (a ZLB) */
	uint16_t peer_tid;	/* Assigned Tunnel ID */
	uint16_t peer_sid;	/* Assigned Session ID */
	uint16_t ns, nr;
	int result, error;	/* Result Code, -1 if absent */
	char host[64];
};

/* Parse a control message; 0 if it is one, -1 if not. */
static int parse_reply(const uint8_t *p, size_t n, struct reply *r)
{
	size_t off, len;

	r->msg_type = -1;
	r->result = r->error = -1;
	if (n < 12 || (get16(p) & 0xcb0f) != L2TP_HDR_CTRL)
		return -1;
	len = get16(p + 2);
	if (len < 12 || len > n)
		return -1;
	r->ns = get16(p + 8);
	r->nr = get16(p + 10);
	for (off = 12; off + 6 <= len;) {
		uint16_t fl = get16(p + off), vendor = get16(p + off + 2), type = get16(p + off + 4);
		size_t alen = fl & 0x3ff;

		if (alen < 6 || off + alen > len)
			return -1;
		if (vendor == 0 && !(fl & 0x4000)) {
			if (type == 0 && alen == 8)
				r->msg_type = get16(p + off + 6);
			else if (type == 9 && alen == 8)
				r->peer_tid = get16(p + off + 6);
			else if (type == 14 && alen == 8)
				r->peer_sid = get16(p + off + 6);
			else if (type == 1 && alen >= 8) {
				r->result = get16(p + off + 6);
				if (alen >= 10)
					r->error = get16(p + off + 8);
			}
			else if (type == 7) {
				size_t h = alen - 6 < sizeof(r->host) - 1 ? alen - 6 : sizeof(r->host) - 1;

				memcpy(r->host, p + off + 6, h);
				r->host[h] = '\0';
			}
		}
		off += alen;
	}
	return 0;
}

static int cmd_probe(int argc, char **argv)
{
	const char *from = NULL, *dest;
	uint8_t pkt[256], in[2048];
	uint8_t ver[2] = { 1, 0 }, fr[4] = { 0, 0, 0, 3 };
	const char host[] = "l2tpsel-probe";
	uint16_t my_tid = (uint16_t)(getpid() % 60000 + 1);
	long timeout = 3000, t0, next = 0;
	struct reply r;
	size_t len;
	ssize_t n;
	int fd, i;

	if (argc < 1)
		return usage();
	dest = argv[0];
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "from") && i + 1 < argc)
			from = argv[++i];
		else if (!strcmp(argv[i], "timeout") && i + 1 < argc)
			timeout = atol(argv[++i]);
		else
			return usage();
	}
	fd = udp_open(from, dest);
	if (fd < 0)
		return 1;

	len = ctrl_hdr(pkt, 0, 0, 0);
	len = put_avp16(pkt, len, 0, 1);			/* Message Type: SCCRQ */
	len = put_avp(pkt, len, 2, ver, sizeof(ver));		/* Protocol Version 1.0 */
	len = put_avp(pkt, len, 7, host, sizeof(host) - 1);	/* Host Name */
	len = put_avp(pkt, len, 3, fr, sizeof(fr));		/* Framing Capabilities */
	len = put_avp16(pkt, len, 9, my_tid);			/* Assigned Tunnel ID */
	ctrl_len(pkt, len);

	t0 = now_ms();
	for (;;) {
		long now = now_ms(), wait;
		struct pollfd pfd = { .fd = fd, .events = POLLIN };

		if (now - t0 >= timeout) {
			printf("%s: no reply within %ld ms\n", dest, timeout);
			return 2;
		}
		if (now >= next) {	/* (re)send every second, as a LAC would */
			if (send(fd, pkt, len, 0) < 0 && errno != ECONNREFUSED) {
				printf("%s: sending SCCRQ: %s\n", dest, strerror(errno));
				return 3;
			}
			next = now + 1000;
		}
		wait = next - now < t0 + timeout - now ? next - now : t0 + timeout - now;
		if (poll(&pfd, 1, (int)wait) <= 0)
			continue;
		n = recv(fd, in, sizeof(in), 0);
		if (n < 0) {
			/* An ICMP error: a port unreachable is not a silent destination. */
			printf("%s: %s after %ld ms\n", dest, strerror(errno), now_ms() - t0);
			return 3;
		}
		if (parse_reply(in, (size_t)n, &r) < 0 || r.msg_type < 0)
			continue;	/* a ZLB or garbage: keep waiting */
		if (r.msg_type != 2) {
			printf("%s: message type %d, not SCCRP\n", dest, r.msg_type);
			return 1;
		}
		printf("%s: SCCRP after %ld ms, host name \"%s\", tunnel id %u\n", dest,
		       now_ms() - t0, r.host, r.peer_tid);
		/* Be a good peer: StopCCN (Ns 1, acknowledging its Ns). */
		len = ctrl_hdr(pkt, r.peer_tid, 1, (uint16_t)(r.ns + 1));
		len = put_avp16(pkt, len, 0, 4);
		len = put_avp16(pkt, len, 9, my_tid);
		len = put_avp16(pkt, len, 1, 1);		/* Result Code: clear */
		ctrl_len(pkt, len);
		if (send(fd, pkt, len, 0) < 0)
			printf("%s: sending StopCCN: %s\n", dest, strerror(errno));
		close(fd);
		return 0;
	}
}


/* --- lac: a minimal LAC for the LNS-role tests (RFC 2661 5.1, 5.2) --------------- */

struct mini_lac {
	int fd;
	uint16_t my_tid, peer_tid, ns, nr;
	uint8_t last[256];	/* the last message sent, for retransmission */
	size_t last_len;
};

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

/* Send the message in @p (header Ns/Nr patched in); a ZLB does not use up an Ns. */
static int lac_send(struct mini_lac *l, uint8_t *p, size_t len, bool zlb)
{
	put16(p, 8, l->ns);
	put16(p, 10, l->nr);
	ctrl_len(p, len);
	if (!zlb) {
		memcpy(l->last, p, len);
		l->last_len = len;
		l->ns++;
	}
	return send(l->fd, p, len, 0) < 0 && errno != ECONNREFUSED ? -1 : 0;
}

static void lac_zlb(struct mini_lac *l, uint16_t sid)
{
	uint8_t z[12];

	ctrl_hdr_s(z, l->peer_tid, sid, 0, 0);
	lac_send(l, z, sizeof(z), true);
}

/*
 * The next new message from the LNS within @ms (retransmitting our last one
 * every second, acking duplicates): 0 with @r filled, -1 on timeout or stop,
 * -2 on an ICMP error.
 */
static int lac_wait(struct mini_lac *l, struct reply *r, long ms)
{
	long end = now_ms() + ms, next = now_ms() + 1000;
	uint8_t in[2048];

	for (;;) {
		struct pollfd pfd = { .fd = l->fd, .events = POLLIN };
		long now = now_ms(), wait = (next < end ? next : end) - now;
		ssize_t n;

		if (stop || now >= end)
			return -1;
		if (now >= next) {
			if (l->last_len && send(l->fd, l->last, l->last_len, 0) < 0 && errno != ECONNREFUSED)
				return -2;
			next = now + 1000;
			continue;
		}
		if (poll(&pfd, 1, (int)(wait > 0 ? wait : 0)) <= 0)
			continue;
		n = recv(l->fd, in, sizeof(in), 0);
		if (n < 0)
			return -2;
		if (parse_reply(in, (size_t)n, r) < 0 || r->msg_type < 0)
			continue;		/* a ZLB or garbage */
		if (r->ns != l->nr) {		/* a duplicate: ack again */
			lac_zlb(l, 0);
			continue;
		}
		l->nr++;
		return 0;
	}
}

static int cmd_lac(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_term };
	const char *from = NULL, *host = "l2tpsel-mini-lac";
	unsigned int calls = 1, k;
	bool hold = false;
	struct mini_lac l = { .fd = -1 };
	uint8_t ver[2] = { 1, 0 }, fr[4] = { 0, 0, 0, 3 }, pkt[256];
	struct reply r;
	size_t len;
	int i, rc;

	if (argc < 1)
		return usage();
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "from") && i + 1 < argc)
			from = argv[++i];
		else if (!strcmp(argv[i], "host") && i + 1 < argc)
			host = argv[++i];
		else if (!strcmp(argv[i], "calls") && i + 1 < argc)
			calls = (unsigned int)atoi(argv[++i]);
		else if (!strcmp(argv[i], "hold"))
			hold = true;
		else
			return usage();
	}
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	l.fd = udp_open(from, argv[0]);
	if (l.fd < 0)
		return 1;
	l.my_tid = (uint16_t)(getpid() % 60000 + 1);

	len = ctrl_hdr(pkt, 0, 0, 0);
	len = put_avp16(pkt, len, 0, 1);			/* SCCRQ */
	len = put_avp(pkt, len, 2, ver, sizeof(ver));
	len = put_avp(pkt, len, 7, host, strlen(host));
	len = put_avp(pkt, len, 3, fr, sizeof(fr));
	len = put_avp16(pkt, len, 9, l.my_tid);
	lac_send(&l, pkt, len, false);
	rc = lac_wait(&l, &r, 5000);
	if (rc < 0 || r.msg_type != 2) {
		printf("%s: %s\n", argv[0], rc == -2 ? "ICMP error" : rc < 0 ? "no SCCRP" :
		       "not an SCCRP");
		return rc == -2 ? 3 : rc < 0 ? 2 : 1;
	}
	l.peer_tid = r.peer_tid;
	len = ctrl_hdr(pkt, l.peer_tid, 0, 0);
	len = put_avp16(pkt, len, 0, 3);			/* SCCCN */
	lac_send(&l, pkt, len, false);
	printf("tunnel %u peer %u up (host name \"%s\")\n", l.my_tid, l.peer_tid, host);

	for (k = 1; k <= calls && !stop; k++) {
		uint16_t sid = (uint16_t)(1000 + k);

		len = ctrl_hdr(pkt, l.peer_tid, 0, 0);
		len = put_avp16(pkt, len, 0, 10);		/* ICRQ */
		len = put_avp16(pkt, len, 14, sid);		/* Assigned Session ID */
		len = put_avp32(pkt, len, 15, k);		/* Call Serial Number */
		lac_send(&l, pkt, len, false);
		rc = lac_wait(&l, &r, 5000);
		if (rc < 0) {
			printf("call %u: no answer\n", k);
			continue;
		}
		if (r.msg_type == 14) {				/* CDN */
			lac_zlb(&l, sid);
			printf("call %u: cdn result %d error %d\n", k, r.result, r.error);
			continue;
		}
		if (r.msg_type != 11) {
			printf("call %u: message type %d, not ICRP or CDN\n", k, r.msg_type);
			continue;
		}
		len = ctrl_hdr_s(pkt, l.peer_tid, r.peer_sid, 0, 0);
		len = put_avp16(pkt, len, 0, 12);		/* ICCN */
		len = put_avp32(pkt, len, 24, 10000000);	/* Tx Connect Speed */
		len = put_avp32(pkt, len, 19, 1);		/* Framing Type: sync */
		lac_send(&l, pkt, len, false);
		printf("call %u: ok sid %u peer-sid %u\n", k, sid, r.peer_sid);
	}
	if (hold) {
		printf("holding\n");
		fflush(stdout);
		l.last_len = 0;		/* nothing to retransmit: just ack */
		while (!stop) {
			if (lac_wait(&l, &r, 1000) == 0) {
				lac_zlb(&l, 0);
				if (r.msg_type == 4) {
					printf("StopCCN result %d error %d\n", r.result, r.error);
					return 0;
				}
				if (r.msg_type == 14)
					printf("cdn result %d error %d\n", r.result, r.error);
			}
		}
	}
	len = ctrl_hdr(pkt, l.peer_tid, 0, 0);
	len = put_avp16(pkt, len, 0, 4);			/* StopCCN */
	len = put_avp16(pkt, len, 9, l.my_tid);
	len = put_avp16(pkt, len, 1, 1);
	lac_send(&l, pkt, len, false);
	printf("tunnel %u: StopCCN sent\n", l.my_tid);
	close(l.fd);
	return 0;
}

/* --- sink: the silent destination ---------------------------------------------- */

/* Datagrams per destination address (IPv4 and IPv6), and in all. */
#define SINK_MAX 64
struct sink_count {
	char addr[INET6_ADDRSTRLEN];
	unsigned long n;
};

static int write_counts(const char *file, const struct sink_count *c, int nc, unsigned long total)
{
	char tmp[4096];
	FILE *f;
	int i;

	snprintf(tmp, sizeof(tmp), "%s.tmp", file);
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	fprintf(f, "total %lu\n", total);
	for (i = 0; i < nc; i++)
		fprintf(f, "%s %lu\n", c[i].addr, c[i].n);
	if (fclose(f) != 0)
		return -1;
	return rename(tmp, file);
}

/* The destination address of a datagram, from IP_PKTINFO / IPV6_PKTINFO. */
static void dest_addr(struct msghdr *mh, char *buf, size_t len)
{
	struct cmsghdr *cm;

	snprintf(buf, len, "?");
	for (cm = CMSG_FIRSTHDR(mh); cm; cm = CMSG_NXTHDR(mh, cm)) {
		if (cm->cmsg_level == IPPROTO_IP && cm->cmsg_type == IP_PKTINFO) {
			struct in_pktinfo pi;

			memcpy(&pi, CMSG_DATA(cm), sizeof(pi));
			inet_ntop(AF_INET, &pi.ipi_addr, buf, (socklen_t)len);
		} else if (cm->cmsg_level == IPPROTO_IPV6 && cm->cmsg_type == IPV6_PKTINFO) {
			struct in6_pktinfo pi6;

			memcpy(&pi6, CMSG_DATA(cm), sizeof(pi6));
			inet_ntop(AF_INET6, &pi6.ipi6_addr, buf, (socklen_t)len);
		}
	}
}

static int cmd_sink(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_term };
	static struct sink_count counts[SINK_MAX];
	unsigned long total = 0;
	int fd, one = 1, nc = 0, i;
	uint8_t buf[2048];
	char cbuf[256], addr[INET6_ADDRSTRLEN];

	if (argc < 2)
		return usage();
	fd = udp_open(argv[0], NULL);
	if (fd < 0)
		return 1;
	/* Bound to a wildcard address, one sink swallows for many addresses. */
	setsockopt(fd, IPPROTO_IP, IP_PKTINFO, &one, sizeof(one));
	setsockopt(fd, IPPROTO_IPV6, IPV6_RECVPKTINFO, &one, sizeof(one));
	if (write_counts(argv[1], counts, 0, 0) < 0) {
		fprintf(stderr, "writing %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	while (!stop) {
		struct iovec iov = { buf, sizeof(buf) };
		struct msghdr mh = {
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
		};
		ssize_t n = recvmsg(fd, &mh, 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "sink %s: %s\n", argv[0], strerror(errno));
			return 1;
		}
		dest_addr(&mh, addr, sizeof(addr));
		for (i = 0; i < nc && strcmp(counts[i].addr, addr); i++)
			;
		if (i == nc && nc < SINK_MAX)
			snprintf(counts[nc++].addr, sizeof(counts[0].addr), "%s", addr);
		if (i < nc)
			counts[i].n++;
		write_counts(argv[1], counts, nc, ++total);
	}
	close(fd);
	return 0;
}

/* Children of dstrace: each loops until SIGTERM. */
static void dstrace_data(int ppp)
{
	uint8_t f[64] = { 0x00, 0x21, 0x45 };	/* PPP protocol IPv4, then junk */
	unsigned long n = 0;

	while (!stop)
		if (write(ppp, f, sizeof(f)) > 0)
			n++;
	printf("data frames %lu\n", n);
	exit(0);
}

static void dstrace_ctrl(int fd, const struct sockaddr_storage *to, socklen_t tolen)
{
	uint8_t m[12] = { 0xc8, 0x02, 0x00, 0x0c };	/* T, L, S, version 2: a ZLB */
	unsigned long n = 0;

	while (!stop)
		if ((to ? sendto(fd, m, sizeof(m), 0, (const struct sockaddr *)to, tolen)
			: send(fd, m, sizeof(m), 0)) > 0)
			n++;
	printf("control datagrams %lu (%s)\n", n, to ? "separate socket" : "tunnel socket");
	exit(0);
}

static void dstrace_flush(void)
{
	unsigned long n = 0, i = 0;

	while (!stop) {
		int fd = open(i++ & 1 ? "/proc/sys/net/ipv6/route/flush" :
			      "/proc/sys/net/ipv4/route/flush", O_WRONLY);

		if (fd >= 0 && write(fd, "1\n", 2) == 2)
			n++;
		if (fd >= 0)
			close(fd);
	}
	printf("route cache flushes %lu\n", n);
	exit(0);
}

static void dstrace_sink(int fd)
{
	uint8_t buf[256];

	while (!stop)
		if (recv(fd, buf, sizeof(buf), 0) < 0 && errno != EINTR)
			break;
	exit(0);
}

static int cmd_dstrace(int argc, char **argv)
{
	struct sockaddr_storage ra, la;
	socklen_t rl, ll = sizeof(la);
	struct sigaction sa = { .sa_handler = on_term };
	struct l2d_dp *dp = NULL;
	int udp, sink, ctl, ppp, one = 1, secs, i, st;
	pid_t kids[4];
	bool separate;
	char err[384];

	if (argc != 4 || (strcmp(argv[3], "connected") && strcmp(argv[3], "separate")) ||
	    (secs = atoi(argv[2])) <= 0 || parse_addr(argv[1], &ra, &rl) < 0)
		return usage();
	separate = !strcmp(argv[3], "separate");
	sink = udp_open(argv[1], NULL);
	udp = udp_open(argv[0], argv[1]);
	if (sink < 0 || udp < 0)
		return 1;
	if (l2d_dp_open(&dp, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	if (l2d_dp_tunnel_add(dp, udp, 100, 200) < 0 ||
	    l2d_dp_session_add(dp, 100, 1, 200, 2, false) < 0 ||
	    (ppp = l2d_dp_ppp_open(dp, udp, 100, 1, 200, 2)) < 0) {
		fprintf(stderr, "%s\n", l2d_dp_strerror(dp));
		return 1;
	}
	ctl = udp;
	if (separate) {
		getsockname(udp, (struct sockaddr *)&la, &ll);
		ctl = socket(la.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		setsockopt(ctl, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (ctl < 0 || bind(ctl, (struct sockaddr *)&la, ll) < 0) {
			fprintf(stderr, "second socket: %s\n", strerror(errno));
			return 1;
		}
	}
	sigaction(SIGTERM, &sa, NULL);
	for (i = 0; i < 4; i++) {
		kids[i] = fork();
		if (kids[i] < 0) {
			perror("fork");
			return 1;
		}
		if (kids[i])
			continue;
		if (i == 0)
			dstrace_data(ppp);
		if (i == 1)
			dstrace_ctrl(ctl, separate ? &ra : NULL, rl);
		if (i == 2)
			dstrace_flush();
		dstrace_sink(sink);
	}
	sleep(secs);
	for (i = 0; i < 4; i++)
		kill(kids[i], SIGTERM);
	for (i = 0; i < 4; i++)
		waitpid(kids[i], &st, 0);
	close(ppp);
	l2d_dp_session_del(dp, 100, 1);
	l2d_dp_tunnel_del(dp, 100);
	l2d_dp_close(dp);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[1], "up"))
		return cmd_up(argc - 2, argv + 2);
	if (!strcmp(argv[1], "errors"))
		return cmd_errors(argc - 2, argv + 2);
	if (!strcmp(argv[1], "list"))
		return cmd_list();
	if (!strcmp(argv[1], "probe"))
		return cmd_probe(argc - 2, argv + 2);
	if (!strcmp(argv[1], "sink"))
		return cmd_sink(argc - 2, argv + 2);
	if (!strcmp(argv[1], "lac"))
		return cmd_lac(argc - 2, argv + 2);
	if (!strcmp(argv[1], "dstrace"))
		return cmd_dstrace(argc - 2, argv + 2);
	return usage();
}
