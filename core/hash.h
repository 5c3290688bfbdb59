/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Persistent key -> member mapping for S-LB-4: plain hash and minmiss hash
 * (reference 003), over a member list of at most 32 entries.
 */
#ifndef L2S_HASH_H
#define L2S_HASH_H

#include "l2s_types.h"

/*
 * Slots per member of the (virtual) minmiss list.  The list has n * this many
 * slots; slot s belongs to member s % n, so every member owns the same
 * number of slots and the list is never stored.
 */
#define L2S_MM_SLOTS_PER_MEMBER	64

u32 l2s_hash_key(const void *buf, u32 len);
int l2s_hash_pick(u32 key, u32 n, u32 up);
int l2s_minmiss_pick(u32 key, u32 n, u32 up);

#endif /* L2S_HASH_H */
