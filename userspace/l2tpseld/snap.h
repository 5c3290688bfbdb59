/* SPDX-License-Identifier: GPL-2.0 */
/*
 * l2tpseld's snapshot (S-OPS-2): what an agent hands the binary it
 * re-executes (Documentation/l2tpseld.md, "Upgrade without loss").  The
 * descriptors themselves cross execve() (close-on-exec cleared); the
 * snapshot says which is which and what state goes with each: the
 * established tunnels (IDs, addresses, Ns/Nr, window, unacknowledged
 * messages), their established calls, the access role's subscribers and
 * the module's counting socket.
 *
 * Format, all integers big-endian:
 *   header  "L2DSNAP\0" (8 bytes), u16 version, u16 0, u32 body length
 *   body    records: u16 type, u16 length, that many bytes
 * A version other than L2D_SNAP_VERSION, a record type the version does
 * not define, a record cut short or longer than its fields, or bytes past
 * the body are refused with a sentence naming what was wrong.
 */
#ifndef L2D_SNAP_H
#define L2D_SNAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct l2d;
struct l2d_addr;

#define L2D_SNAP_MAGIC		"L2DSNAP"	/* with its NUL: 8 bytes */
#define L2D_SNAP_VERSION	1
#define L2D_SNAP_HDR_LEN	16
#define L2D_SNAP_ENV		"L2TPSELD_SNAPSHOT"	/* the memfd's number */

enum l2d_snap_rec {
	L2D_SNAP_AGENT = 1,	/* counters that go on, the module's socket */
	L2D_SNAP_TUNNEL,	/* an established tunnel */
	L2D_SNAP_TXMSG,		/* a message of its send queue, in Ns order */
	L2D_SNAP_SESSION,	/* an established call */
	L2D_SNAP_SUB,		/* an access subscriber (access_sub.c) */
	L2D_SNAP_REC_MAX = L2D_SNAP_SUB,
};

struct l2d_snap_wr {
	uint8_t *buf;
	size_t len, cap;
	size_t rec;		/* where the open record's header is */
	bool oom;
	int *fds;		/* every descriptor named (l2d_snap_fd()): kept across execve() */
	unsigned int nfds, fdcap;
};

struct l2d_snap_rd {
	const uint8_t *p;
	size_t left;
	bool bad;		/* read past the end */
};

/* Writing: a record at a time. */
void l2d_snap_rec_begin(struct l2d_snap_wr *w, uint16_t type);
void l2d_snap_rec_end(struct l2d_snap_wr *w);
void l2d_snap_u8(struct l2d_snap_wr *w, uint8_t v);
void l2d_snap_u16(struct l2d_snap_wr *w, uint16_t v);
void l2d_snap_u32(struct l2d_snap_wr *w, uint32_t v);
void l2d_snap_u64(struct l2d_snap_wr *w, uint64_t v);
void l2d_snap_bytes(struct l2d_snap_wr *w, const void *p, size_t n);	/* u16 length first */
void l2d_snap_str(struct l2d_snap_wr *w, const char *s);
void l2d_snap_addr(struct l2d_snap_wr *w, const struct l2d_addr *a);
/* A descriptor's number (-1: none), remembered in w->fds when >= 0. */
void l2d_snap_fd(struct l2d_snap_wr *w, int fd);
/* Free what l2d_snap_write() allocated. */
void l2d_snap_wr_free(struct l2d_snap_wr *w);

/* Reading: past the end sets r->bad and gives zeroes. */
uint8_t l2d_snap_get_u8(struct l2d_snap_rd *r);
uint16_t l2d_snap_get_u16(struct l2d_snap_rd *r);
uint32_t l2d_snap_get_u32(struct l2d_snap_rd *r);
uint64_t l2d_snap_get_u64(struct l2d_snap_rd *r);
/* Into @dst of @cap bytes; its length, or bad when it does not fit. */
size_t l2d_snap_get_bytes(struct l2d_snap_rd *r, void *dst, size_t cap);
/* NUL-terminated into @dst of @cap; bad when longer or holding a NUL. */
void l2d_snap_get_str(struct l2d_snap_rd *r, char *dst, size_t cap);
void l2d_snap_get_addr(struct l2d_snap_rd *r, struct l2d_addr *a);

/*
 * The whole snapshot of @d into @w (l2d_snap_wr_free() it), w->fds the
 * descriptors it names.  The caller
 * has ended what was half way (l2d_snap_prepare()).  Return 0, or -ENOMEM.
 */
int l2d_snap_write(struct l2d *d, struct l2d_snap_wr *w);

/*
 * Before an upgrade: every login in progress ends (its client told), every
 * tunnel not established is stopped and every call not established is
 * cleared (CDN queued on its tunnel, so it crosses with the tunnel's
 * queue), so that only what is established is handed over.
 */
void l2d_snap_prepare(struct l2d *d);

/* What the start-up needs before it opens anything (the module's socket). */
struct l2d_snap_info {
	unsigned int version;
	int knl_fd;			/* -1: none */
	unsigned int tunnels, sessions, subs;
};

/* Check the header and every record's framing: 0, or -EINVAL with @err. */
int l2d_snap_check(const uint8_t *buf, size_t len, struct l2d_snap_info *info, char *err,
		   size_t errlen);

/*
 * Rebuild @d's tunnels, calls and (through d->aops) subscribers from the
 * snapshot: 0, or -EINVAL with @err (what was adopted so far stays; the
 * caller exits).
 */
int l2d_snap_adopt(struct l2d *d, const uint8_t *buf, size_t len, char *err, size_t errlen);

#endif
