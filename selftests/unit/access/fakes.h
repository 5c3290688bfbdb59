/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel objects of l2tpseld's access role, faked for its unit tests
 * (access/, lts/) and its fuzz target (fuzz/fuzz_access.c).  The access
 * files are linked as they are, with ACCESS_FAKE_LDFLAGS (mk/l2tpseld.mk):
 * ld's --wrap sends their calls below to these fakes, which take what is
 * the access role's and hand everything else to the real call.
 *
 *	socket(AF_PPPOX)		a datagram socket nobody reads
 *	connect(a sockaddr_pppox)	0
 *	open("/dev/ppp")		one end of a datagram socketpair; the
 *					other is the test's (fake_peer_of())
 *	ioctl(PPPIOCATTCHAN)		0
 *	ioctl(PPPIOCGCHAN)		channel 1
 *	ioctl(PPPIOCBRIDGECHAN)		0, counted
 *	sendto(an AF_PACKET address)	a discovery frame: counted and kept
 *	l2d_offload_submit()		NULL: no channel worker, so that every
 *					run takes one thread and one order
 *	l2d_offload_close()		closed here, counted
 *	close()				counted when of a PPPoX socket or
 *					/dev/ppp, whose last close in the
 *					kernel waits for a grace period
 */
#ifndef ACCESS_FAKES_H
#define ACCESS_FAKES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "access_int.h"

#define FAKE_MAX_PEERS	512	/* far ends of socketpairs at once */
#define FAKE_MAX_FD	1024	/* fake_peer_of() knows descriptors below this */

/* What the access role did to its fake kernel. */
struct fake_kernel {
	unsigned int disc, pado, pads;		/* discovery frames sent; PADOs, PADSes */
	uint8_t last[PPPOE_MAX_PAYLOAD];	/* the last discovery frame */
	size_t last_len;
	uint8_t last_pado[PPPOE_MAX_PAYLOAD];	/* the last PADO */
	size_t last_pado_len;
	unsigned int bridges;			/* PPPIOCBRIDGECHANs */
	/* PPPoX sockets and /dev/ppp descriptors closed by the caller (on
	 * the loop), and handed to l2d_offload_close() */
	unsigned int closed_inline, closed_offload;
};
extern struct fake_kernel fake_kernel;

/* The clock of fake_env's loop (l2d_loop.clock = fake_clock), ms. */
extern uint64_t fake_now_ms;
uint64_t fake_clock(void *ctx);
/* An agent's environment: its random bytes a fixed sequence, its LNS silent. */
extern const struct l2d_env fake_env;

/* A datagram socketpair: one end returned, the far end kept.  -1: none left. */
int fake_pair(void);
/* The far end of @fd, a fake channel or fake_pair()'s; -1 when not one. */
int fake_peer_of(int fd);
/* Every far end closed, every count 0. */
void fake_reset(void);

/* A PPPoE tag (RFC 2516 section 5) at offset @o of frame @b. Return: the offset after it. */
size_t fake_put_tag(uint8_t *b, size_t o, uint16_t type, const void *v, size_t len);

/*
 * The access role of @d (acc_new()) with d->conf's first access line as
 * interface 0 (ifindex 7) and no packet socket; l2d_access_close() ends
 * it.  Return: NULL when acc_new() failed.
 */
struct acc *fake_access_up(struct l2d *d);

#endif
