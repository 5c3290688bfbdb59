/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What l2tpsel-subgen and l2tpsel-subresp share (bench/subgen/): raw
 * AF_PACKET sockets with batched receive and send, frame builders, timer
 * queues, the clock and a few helpers.
 */
#ifndef SG_H
#define SG_H

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <linux/if_packet.h>

#include "sg_parse.h"

#define SG_BATCH	64	/* frames a recvmmsg() or sendmmsg() moves */
#define SG_FRAME	2048	/* bytes of a receive or send slot */
#define SG_MAX_IFS	8

#define NS_PER_MS	1000000ULL
#define NS_PER_S	1000000000ULL

#define SG_CONTAINER(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

/* ---- raw sockets ---------------------------------------------------------- */

struct sg_if {
	char name[IF_NAMESIZE];
	int ifindex;
	uint8_t mac[SG_ETH_ALEN];
	int fd;				/* discovery and session frames */
	/* frames waiting for sendmmsg() */
	unsigned int ntx;
	struct mmsghdr txm[SG_BATCH];
	struct iovec txv[SG_BATCH];
	struct sockaddr_ll txa[SG_BATCH];
	uint8_t (*txb)[SG_FRAME];
	uint64_t tx_frames, tx_errors, rx_drops;
};

struct sg_rx {
	struct mmsghdr m[SG_BATCH];
	struct iovec v[SG_BATCH];
	uint8_t (*b)[SG_FRAME];
};

/* Opens the socket on @name; promiscuous when @promisc.  0 or -1 (errno). */
int sg_if_open(struct sg_if *i, const char *name, bool promisc, int rcvbuf);
void sg_if_close(struct sg_if *i);
/* A send slot of SG_FRAME bytes (flushes the batch when it is full). */
uint8_t *sg_tx_slot(struct sg_if *i);
/* Queues the slot last returned, @len bytes, its ethertype from the frame. */
void sg_tx_commit(struct sg_if *i, size_t len);
void sg_tx_flush(struct sg_if *i);
/* Adds the socket's drops (PACKET_STATISTICS) to i->rx_drops. */
void sg_if_stats(struct sg_if *i);

int sg_rx_init(struct sg_rx *rx);
/* Frames waiting on @fd, up to SG_BATCH; their lengths in rx->m[k].msg_len. */
int sg_rx(int fd, struct sg_rx *rx);

/* ---- frames --------------------------------------------------------------- */

/* Ethernet and PPPoE headers; returns the payload. */
uint8_t *sg_hdr(uint8_t *b, const uint8_t *dst, const uint8_t *src, uint16_t ethertype,
		uint8_t code, uint16_t sid);
/* Sets the PPPoE LENGTH from @end, returns the frame's length. */
size_t sg_end(uint8_t *b, const uint8_t *end);
uint8_t *sg_put_tag(uint8_t *p, uint16_t type, const void *v, uint16_t len);
/* A PPP control packet: the headers up to its data; finish with sg_cp_end(). */
uint8_t *sg_cp(uint8_t *b, const uint8_t *dst, const uint8_t *src, uint16_t sid,
	       uint16_t proto, uint8_t code, uint8_t id);
size_t sg_cp_end(uint8_t *b, const uint8_t *end);
uint16_t sg_csum(const uint8_t *p, size_t len);

/* ---- timer queues ----------------------------------------------------------
 * Every timer of a queue has the queue's duration, so a queue is in expiry
 * order when timers are added at its tail: arming, disarming and expiring
 * are O(1), the earliest expiry is the smallest head of a few queues.
 */
struct sg_tnode {
	struct sg_tnode *prev, *next;
	uint64_t when;
};

struct sg_tq {
	struct sg_tnode head;
	uint64_t dur;
};

void sg_tq_init(struct sg_tq *q, uint64_t dur);
void sg_tq_arm(struct sg_tq *q, struct sg_tnode *n, uint64_t now);
void sg_tq_disarm(struct sg_tnode *n);
static inline bool sg_tq_armed(const struct sg_tnode *n)
{
	return n->next != NULL;
}
/* The earliest expiry of @nq queues, UINT64_MAX if none is armed. */
uint64_t sg_tq_next(struct sg_tq *q, unsigned int nq);
/* An expired timer of queue @q (disarmed), or NULL. */
struct sg_tnode *sg_tq_pop(struct sg_tq *q, uint64_t now);

/* ---- PPP dispatch --------------------------------------------------------- */

/*
 * Where a session's PPP frame goes: the index, by protocol, of the table
 * of handlers each side keeps (subgen.c, subresp.c), so that both hand
 * frames on the same way and differ only in what their handlers do.
 */
enum sg_ppp {
	SG_PPP_LCP,
	SG_PPP_PAP,
	SG_PPP_CHAP,
	SG_PPP_IPCP,
	SG_PPP_IP,
	SG_PPP_OTHER,	/* every other protocol */
	SG_PPP_N
};

enum sg_ppp sg_ppp_of(uint16_t proto);

/* ---- helpers -------------------------------------------------------------- */

uint64_t sg_now(void);
uint64_t sg_rand(void);
void sg_rand_seed(uint64_t s);
/* "a:b:c" (1 to 5 bytes): 0 and *n, or -1 */
int sg_parse_mac_prefix(const char *s, uint8_t *out, unsigned int *n);
int sg_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *v);
/* milliseconds, "1.5" allowed: ns */
int sg_parse_ms(const char *s, uint64_t *ns);
void sg_sort_u64(uint64_t *v, size_t n);
/* nearest-rank percentile of a sorted array; 0 when empty */
uint64_t sg_pct(const uint64_t *v, size_t n, unsigned int pct);
double sg_cpu_seconds(void);
/* SIGINT and SIGTERM set *flag to their number. */
void sg_on_signal(volatile int *flag);

#endif
