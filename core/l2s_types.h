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
#define L2S_READ_ONCE(x)	READ_ONCE(x)
#define L2S_WRITE_ONCE(x, v)	WRITE_ONCE(x, v)
#else
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#define L2S_READ_ONCE(x)	(x)
#define L2S_WRITE_ONCE(x, v)	((x) = (v))
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
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
	if (e) {							\
		snprintf((e)->buf, sizeof((e)->buf), __VA_ARGS__);	\
		(e)->msg = (e)->buf;					\
	}								\
} while (0)
#define l2s_errs(e, s) do { if (e) (e)->msg = (s); } while (0)

#endif /* L2S_TYPES_H */
