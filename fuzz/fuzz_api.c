// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for l2tpseld's local API line parser (api.c): the
 * bytes a client writes to the API socket, in as many reads as the input
 * says, through the real connection code (api.c is included here, so
 * its static parser runs as the agent runs it) on a socketpair.  The
 * agent's state behind it is a stand-in: two tunnels with a call each
 * for "show", and a login that fails or starts and at once ends.
 *
 *	byte 0		bits 0-3: the read size is (1 + that) * 16 bytes, so
 *			a line arrives in pieces; bit 4: the client watches
 *	the rest	what the client writes
 *
 * Every answer line must end with a newline, hold no control byte and be
 * at most API_LINE_MAX long; a line longer than the buffer closes the
 * connection with "error line too long".
 *
 *	make fuzz-smoke FUZZ_TARGETS=api	bounded run (mk/fuzz.mk)
 */
#include "../userspace/l2tpseld/api.c"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static struct l2d_login stub_login;

uint32_t l2d_login_start(struct l2d *d, const struct l2d_login_req *req, char *err, size_t errlen)
{
	const char *user = req->user, *profile = req->profile;

	/* a user from the line: its event lines quote it, as lac.c does */
	if (!user || user[0] == 'x') {
		snprintf(err, errlen, "no route");
		return 0;
	}
	memset(&stub_login, 0, sizeof(stub_login));
	stub_login.d = d;
	stub_login.id = ++d->next_login_id;
	stub_login.client = req->client;
	l2d_strcpy(stub_login.user, sizeof(stub_login.user), user);
	{
		char line[512];

		l2d_fmt(line, sizeof(line), "login %u user %-s", stub_login.id, user);
		l2d_api_login_event(d, &stub_login, line);
		l2d_fmt(line, sizeof(line), "done fail reason exhausted profile %-s",
			profile ? profile : "");
		l2d_api_login_event(d, &stub_login, line);
		l2d_api_login_event(d, &stub_login, NULL);
	}
	return stub_login.id;
}

struct l2d_login *l2d_login_find(struct l2d *d, uint32_t id)
{
	return NULL;
}

void l2d_login_client_gone(struct l2d_login *lg)
{
}

int l2d_logout(struct l2d *d, uint32_t id)
{
	return id == 7 ? 0 : -1;
}

int l2d_kernel_none_drain(struct l2d *d, bool dest, const char *what, bool on, char *err,
			  size_t errlen)
{
	if (!strcmp(what, "t1"))
		return 1;
	snprintf(err, errlen, "no %s %s", dest ? "destination" : "tunnel", what);
	return -1;
}

int l2d_access_stats(struct l2d *d, char *buf, size_t len)
{
	return snprintf(buf, len, "access padi 1");
}

int l2d_access_lts_stats(struct l2d *d, char *buf, size_t len)
{
	return snprintf(buf, len, "switch calls 1");
}

bool l2d_access_lts_get(struct l2d *d, struct l2d_lts_stats *out)
{
	memset(out, 0, sizeof(*out));
	out->calls = 1;
	return true;
}

bool l2d_access_if_stats(struct l2d *d, unsigned int i, struct l2d_access_if_stats *out)
{
	if (i)
		return false;
	memset(out, 0, sizeof(*out));
	out->ifname = "eth1";
	out->padi = 1;
	return true;
}

bool l2d_radius_srv_stats(struct l2d *d, unsigned int i, struct l2d_radius_srv_stats *out)
{
	if (i)
		return false;
	memset(out, 0, sizeof(*out));
	out->index = 1;
	out->kind = "auth";
	snprintf(out->address, sizeof(out->address), "192.0.2.9:1812");
	return true;
}

int l2d_dests(struct l2d *d, l2d_dest_fn fn, void *ctx)
{
	struct l2d_dest_info di = { .remote = "192.0.2.2", .port = 1701, .sessions = 1 };

	fn(ctx, &di);
	return 0;
}

int l2d_dest_line(const struct l2d_dest_info *di, char *buf, size_t len)
{
	return snprintf(buf, len, "destination %s port %u", di->remote, di->port);
}

const uint32_t l2d_setup_bounds_ms[L2D_SETUP_BUCKETS] = { 5, 10, 25, 50, 100, 250, 500, 1000,
							  2500, 5000, 10000, 30000 };

const char *l2d_login_result_name(unsigned int r)
{
	return r ? "exhausted" : "ok";
}

int l2d_das_stats(struct l2d *d, char *buf, size_t len)
{
	return 0;
}

int l2d_radius_stats(struct l2d *d, char *buf, size_t len)
{
	return 0;
}

const char *l2d_tstate_name(enum l2d_tstate s)
{
	return "established";
}

const char *l2d_sstate_name(enum l2d_sstate s)
{
	return "established";
}

void l2d_addr_str(const struct l2d_addr *a, char *buf, size_t len, bool port)
{
	snprintf(buf, len, "192.0.2.1:1701");
}

static struct l2d d;
static struct l2d_conf conf;
static struct l2d_loop loop;
static struct l2d_tunnel tun[2];
static struct l2d_session sess[2];

/* Every answer line well formed. */
static void check_answers(int fd)
{
	static char buf[1 << 16];
	static size_t have;
	ssize_t n;

	while ((n = recv(fd, buf + have, sizeof(buf) - have, MSG_DONTWAIT)) > 0) {
		char *p = buf, *nl;

		have += (size_t)n;
		while ((nl = memchr(p, '\n', have - (size_t)(p - buf)))) {
			char *q;

			CHECK(nl - p <= API_LINE_MAX);
			for (q = p; q < nl; q++)
				CHECK((unsigned char)*q >= 0x20 && (unsigned char)*q < 0x7f);
			p = nl + 1;
		}
		have -= (size_t)(p - buf);
		memmove(buf, p, have);
		CHECK(have <= API_LINE_MAX);
	}
	have = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct api_conn *c;
	size_t off = 1, chunk;
	int sv[2];

	if (!size)
		return 0;
	chunk = (size_t)(1 + (data[0] & 15)) * 16;
	if (!d.conf) {
		d.conf = &conf;
		d.loop = &loop;
		loop.epfd = -1;
		tun[0].next = &tun[1];
		tun[0].sessions = &sess[0];
		tun[1].sessions = &sess[1];
		strcpy(tun[0].peer_host, "lns one");
		strcpy(sess[1].user, "bob\n");
	}
	d.tunnels = tun;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv))
		return 0;
	c = calloc(1, sizeof(*c));
	c->d = &d;
	c->fdw.fd = sv[0];
	c->fdw.fn = conn_event;
	c->fdw.arg = c;
	c->next = the_api.conns;
	the_api.conns = c;
	the_api.d = &d;
	if (data[0] & 16) {
		c->watch = true;
		d.login_watchers++;
	}
	while (off < size && the_api.conns) {
		size_t n = size - off < chunk ? size - off : chunk;

		if (send(sv[1], data + off, n, MSG_DONTWAIT) != (ssize_t)n)
			break;
		off += n;
		conn_event(&c->fdw, EPOLLIN);
		if (!the_api.conns)
			break;		/* closed: "line too long" */
		l2d_api_flush();
		check_answers(sv[1]);
	}
	if (the_api.conns)
		conn_close(c);
	check_answers(sv[1]);
	close(sv[1]);
	CHECK(!the_api.pending && !d.login_watchers);
	return 0;
}
