/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The one place where the shared core meets its environment.
 *
 * Files in core/ are plain C that build unchanged into the kernel module
 * (L2S_KERNEL defined by Kbuild) and into userspace (tests, simulator,
 * benchmarks).  They include only this header for types and the few
 * freestanding helpers they use; they never call libc or kernel services of
 * their own: time, randomness, memory and locking come from the caller.
 */
#ifndef L2S_TYPES_H
#define L2S_TYPES_H

#ifdef L2S_KERNEL
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/types.h>
#include <linux/string.h>
#include <linux/stddef.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/bitops.h>
#include <linux/overflow.h>
/* The kernel's own helpers where the kernel has them. */
#define l2s_popcount(x)			hweight32(x)
#define l2s_mul_overflow(a, b, d)	check_mul_overflow(a, b, d)
#else
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s32 s32;
typedef __s64 s64;

static inline u32 l2s_popcount(u32 x)
{
	return (u32)__builtin_popcount(x);
}

#define l2s_mul_overflow(a, b, d)	__builtin_mul_overflow(a, b, d)
#endif

#define L2S_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Why a request was refused: a short message naming what was wrong and the
 * bound it broke.  The kernel copies it into the netlink extack, userspace
 * prints it.  Messages are static strings or formatted into @buf.
 */
struct l2s_err {
	const char *msg;
	char buf[128];
};

/* Fill @e (may be NULL) with a formatted or a static message. */
#define l2s_errf(e, ...) do {						\
	struct l2s_err *_l2s_e = (e);					\
									\
	if (_l2s_e) {							\
		snprintf(_l2s_e->buf, sizeof(_l2s_e->buf), __VA_ARGS__); \
		_l2s_e->msg = _l2s_e->buf;				\
	}								\
} while (0)
#define l2s_errs(e, s) do {						\
	struct l2s_err *_l2s_e = (e);					\
									\
	if (_l2s_e)							\
		_l2s_e->msg = (s);					\
} while (0)

/* Fill @err and evaluate to @rc: "return L2S_REFUSE(-EINVAL, err, ...);". */
#define L2S_REFUSE(rc, err, ...) ({ l2s_errf(err, __VA_ARGS__); (rc); })

/* How long the names of the core's objects may be (S-OBJ-*), NUL included. */
#define L2S_NAME_LEN			32	/* names: 1..31 bytes */
#define L2S_DOMAIN_LEN			64	/* domain names: 1..63 bytes */

#endif /* L2S_TYPES_H */
