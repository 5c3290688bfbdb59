// SPDX-License-Identifier: GPL-2.0
/*
 * Raw sockets, frame builders, timer queues and helpers of the subscriber
 * load generator and its responder (sg.h).
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/ethernet.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <linux/filter.h>

#include "conf.h"
#include "sg.h"

/* ---- raw sockets ---------------------------------------------------------- */

/*
 * One socket for both ethertypes, so that a PADS and the LCP packet right
 * behind it are read in the order they came: every frame (ETH_P_ALL), a
 * filter keeping discovery and session, none of our own sent frames.
 */
static int sg_sock(struct sg_if *i, bool promisc, int rcvbuf)
{
	static struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 12),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SG_ETH_DISC, 1, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SG_ETH_SESS, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, 0xffff),
		BPF_STMT(BPF_RET | BPF_K, 0),
	};
	struct sock_fprog prog = { .len = sizeof(code) / sizeof(code[0]), .filter = code };
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_ALL),
		.sll_ifindex = i->ifindex,
	};
	struct packet_mreq mr = {
		.mr_ifindex = i->ifindex,
		.mr_type = PACKET_MR_PROMISC,
	};
	int fd, one = 1;

	/* bound to no protocol until the filter is on: nothing else queues up */
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)) ||
	    setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one)))
		goto fail;
	if (rcvbuf > 0 && setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)))
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	if (rcvbuf > 0 && setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &rcvbuf, sizeof(rcvbuf)))
		(void)setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &rcvbuf, sizeof(rcvbuf));
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)))
		goto fail;
	if (promisc && setsockopt(fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr, sizeof(mr)))
		goto fail;
	return fd;
fail:
	close(fd);
	return -1;
}

int sg_if_open(struct sg_if *i, const char *name, bool promisc, int rcvbuf)
{
	struct ifreq ifr;
	unsigned int k;
	int fd, e;

	memset(i, 0, sizeof(*i));
	i->fd = -1;
	if (strlen(name) >= sizeof(i->name)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(i->name, name);
	i->ifindex = if_nametoindex(name);
	if (!i->ifindex)
		return -1;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, name);
	e = ioctl(fd, SIOCGIFHWADDR, &ifr);
	close(fd);
	if (e)
		return -1;
	memcpy(i->mac, ifr.ifr_hwaddr.sa_data, SG_ETH_ALEN);
	i->txb = calloc(SG_BATCH, SG_FRAME);
	if (!i->txb)
		return -1;
	for (k = 0; k < SG_BATCH; k++) {
		i->txa[k].sll_family = AF_PACKET;
		i->txa[k].sll_ifindex = i->ifindex;
		i->txa[k].sll_halen = SG_ETH_ALEN;
		i->txv[k].iov_base = i->txb[k];
		i->txm[k].msg_hdr.msg_iov = &i->txv[k];
		i->txm[k].msg_hdr.msg_iovlen = 1;
		i->txm[k].msg_hdr.msg_name = &i->txa[k];
		i->txm[k].msg_hdr.msg_namelen = sizeof(i->txa[k]);
	}
	i->fd = sg_sock(i, promisc, rcvbuf);
	if (i->fd < 0)
		goto fail;
	return 0;
fail:
	e = errno;
	sg_if_close(i);
	errno = e;
	return -1;
}

void sg_if_close(struct sg_if *i)
{
	if (i->fd >= 0)
		close(i->fd);
	i->fd = -1;
	free(i->txb);
	i->txb = NULL;
}

uint8_t *sg_tx_slot(struct sg_if *i)
{
	if (i->ntx == SG_BATCH)
		sg_tx_flush(i);
	return i->txb[i->ntx];
}

void sg_tx_commit(struct sg_if *i, size_t len)
{
	const uint8_t *b = i->txb[i->ntx];

	i->txv[i->ntx].iov_len = len;
	i->txa[i->ntx].sll_protocol = htons(sg_get16(b + 12));
	memcpy(i->txa[i->ntx].sll_addr, b, SG_ETH_ALEN);
	i->ntx++;
}

void sg_tx_flush(struct sg_if *i)
{
	unsigned int done = 0;
	int r;

	while (done < i->ntx) {
		r = sendmmsg(i->fd, i->txm + done, i->ntx - done, 0);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			/* ENOBUFS and the like: the frame is lost, the protocol resends */
			i->tx_errors++;
			done++;
			continue;
		}
		done += r;
		i->tx_frames += r;
	}
	i->ntx = 0;
}

void sg_if_stats(struct sg_if *i)
{
	struct tpacket_stats st;
	socklen_t sl = sizeof(st);

	if (i->fd >= 0 && !getsockopt(i->fd, SOL_PACKET, PACKET_STATISTICS, &st, &sl))
		i->rx_drops += st.tp_drops;
}

int sg_rx_init(struct sg_rx *rx)
{
	unsigned int k;

	memset(rx, 0, sizeof(*rx));
	rx->b = malloc((size_t)SG_BATCH * SG_FRAME);
	if (!rx->b)
		return -1;
	for (k = 0; k < SG_BATCH; k++) {
		rx->v[k].iov_base = rx->b[k];
		rx->v[k].iov_len = SG_FRAME;
		rx->m[k].msg_hdr.msg_iov = &rx->v[k];
		rx->m[k].msg_hdr.msg_iovlen = 1;
	}
	return 0;
}

int sg_rx(int fd, struct sg_rx *rx)
{
	int r;

	do
		r = recvmmsg(fd, rx->m, SG_BATCH, MSG_DONTWAIT, NULL);
	while (r < 0 && errno == EINTR);
	return r;
}

/* ---- frames --------------------------------------------------------------- */

uint8_t *sg_hdr(uint8_t *b, const uint8_t *dst, const uint8_t *src, uint16_t ethertype,
		uint8_t code, uint16_t sid)
{
	memcpy(b, dst, SG_ETH_ALEN);
	memcpy(b + SG_ETH_ALEN, src, SG_ETH_ALEN);
	sg_put16(b + 12, ethertype);
	b[SG_ETH_HLEN] = SG_VER_TYPE;
	b[SG_ETH_HLEN + 1] = code;
	sg_put16(b + SG_ETH_HLEN + 2, sid);
	sg_put16(b + SG_ETH_HLEN + 4, 0);
	return b + SG_HDRS;
}

size_t sg_end(uint8_t *b, const uint8_t *end)
{
	size_t len = end - b;

	sg_put16(b + SG_ETH_HLEN + 4, (uint16_t)(len - SG_HDRS));
	return len;
}

uint8_t *sg_put_tag(uint8_t *p, uint16_t type, const void *v, uint16_t len)
{
	sg_put16(p, type);
	sg_put16(p + 2, len);
	if (len)
		memcpy(p + 4, v, len);
	return p + 4 + len;
}

uint8_t *sg_cp(uint8_t *b, const uint8_t *dst, const uint8_t *src, uint16_t sid,
	       uint16_t proto, uint8_t code, uint8_t id)
{
	uint8_t *p = sg_hdr(b, dst, src, SG_ETH_SESS, SG_SESSION, sid);

	sg_put16(p, proto);
	p[2] = code;
	p[3] = id;
	return p + 6;
}

size_t sg_cp_end(uint8_t *b, const uint8_t *end)
{
	sg_put16(b + SG_HDRS + 4, (uint16_t)(end - (b + SG_HDRS + 2)));
	return sg_end(b, end);
}

uint16_t sg_csum(const uint8_t *p, size_t len)
{
	uint32_t s = 0;

	while (len > 1) {
		s += sg_get16(p);
		p += 2;
		len -= 2;
	}
	if (len)
		s += (uint32_t)p[0] << 8;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

/* ---- timer queues --------------------------------------------------------- */

void sg_tq_init(struct sg_tq *q, uint64_t dur)
{
	q->head.prev = q->head.next = &q->head;
	q->head.when = UINT64_MAX;
	q->dur = dur;
}

void sg_tq_disarm(struct sg_tnode *n)
{
	if (!n->next)
		return;
	n->prev->next = n->next;
	n->next->prev = n->prev;
	n->prev = n->next = NULL;
}

void sg_tq_arm(struct sg_tq *q, struct sg_tnode *n, uint64_t now)
{
	sg_tq_disarm(n);
	n->when = now + q->dur;
	n->prev = q->head.prev;
	n->next = &q->head;
	q->head.prev->next = n;
	q->head.prev = n;
}

uint64_t sg_tq_next(struct sg_tq *q, unsigned int nq)
{
	uint64_t m = UINT64_MAX;
	unsigned int k;

	for (k = 0; k < nq; k++)
		if (q[k].head.next != &q[k].head && q[k].head.next->when < m)
			m = q[k].head.next->when;
	return m;
}

struct sg_tnode *sg_tq_pop(struct sg_tq *q, uint64_t now)
{
	struct sg_tnode *n = q->head.next;

	if (n == &q->head || n->when > now)
		return NULL;
	sg_tq_disarm(n);
	return n;
}

/* ---- helpers -------------------------------------------------------------- */

uint64_t sg_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + ts.tv_nsec;
}

static uint64_t sg_rng = 0x9e3779b97f4a7c15ULL;

void sg_rand_seed(uint64_t s)
{
	sg_rng = s ? s : 0x9e3779b97f4a7c15ULL;
}

/* xorshift64*: not for secrets, for magic numbers and challenges in a test */
uint64_t sg_rand(void)
{
	sg_rng ^= sg_rng >> 12;
	sg_rng ^= sg_rng << 25;
	sg_rng ^= sg_rng >> 27;
	return sg_rng * 0x2545f4914f6cdd1dULL;
}

static int sg_hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int sg_parse_mac_prefix(const char *s, uint8_t *out, unsigned int *n)
{
	unsigned int k = 0;
	int h, l;

	for (;;) {
		if (k == 5)
			return -1;
		h = sg_hex(s[0]);
		l = h < 0 ? -1 : sg_hex(s[1]);
		if (l < 0)
			return -1;
		out[k++] = (uint8_t)(h << 4 | l);
		s += 2;
		if (!*s)
			break;
		if (*s != ':' && *s != '-')
			return -1;
		s++;
	}
	*n = k;
	return 0;
}

int sg_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *v)
{
	unsigned long long x;

	if (conf_parse_ull(s, 10, min, max, &x))
		return -1;
	*v = x;
	return 0;
}

enum sg_ppp sg_ppp_of(uint16_t proto)
{
	switch (proto) {
	case SG_PROTO_LCP:
		return SG_PPP_LCP;
	case SG_PROTO_PAP:
		return SG_PPP_PAP;
	case SG_PROTO_CHAP:
		return SG_PPP_CHAP;
	case SG_PROTO_IPCP:
		return SG_PPP_IPCP;
	case SG_PROTO_IP:
		return SG_PPP_IP;
	default:
		return SG_PPP_OTHER;
	}
}

int sg_parse_ms(const char *s, uint64_t *ns)
{
	double d;
	char *end;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	d = strtod(s, &end);
	if (errno || *end || d < 0 || d > 86400e3)
		return -1;
	*ns = (uint64_t)(d * 1e6 + 0.5);
	return 0;
}

static int sg_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void sg_sort_u64(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), sg_cmp_u64);
}

uint64_t sg_pct(const uint64_t *v, size_t n, unsigned int pct)
{
	size_t r;

	if (!n)
		return 0;
	r = (n * pct + 99) / 100;	/* nearest rank, 1-based */
	if (r < 1)
		r = 1;
	return v[r - 1];
}

double sg_cpu_seconds(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static volatile int *sg_sigflag;

static void sg_sig(int sig)
{
	if (sg_sigflag)
		*sg_sigflag = sig;
}

void sg_on_signal(volatile int *flag)
{
	struct sigaction sa;

	/* wake up when asked: the start schedule is in microseconds */
	(void)prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	memset(&sa, 0, sizeof(sa));
	sg_sigflag = flag;
	sa.sa_handler = sg_sig;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}
