// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Hash and minmiss hash (S-LB-4, reference 003).
 *
 * Plain hash: the list holds the members that are up, in order; the key picks
 * entry key % count.  When a member goes, the list is rebuilt and most keys
 * move; when it returns the original list, and mapping, is back.
 *
 * Minmiss hash: a list of n * L2S_MM_SLOTS_PER_MEMBER slots, slot s owned by
 * member s % n.  A key goes to slot key % size.  If the owner is up, the key
 * goes to the owner, so keys of surviving members never move.  If the owner
 * is down, the slot is refilled with the up member that scores highest for
 * (slot, member) — a pure function of the slot and the set of up members.
 * Hence losing one member moves only its own keys (1/n of them, spread over
 * the survivors), and its return moves exactly those keys back.  A second
 * failure only moves the slots refilled with, or owned by, the member that
 * failed.
 */
#include "hash.h"

/* The finaliser of MurmurHash3 (public domain), a good 32-bit mixer. */
static u32 mix32(u32 h)
{
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h;
}

/**
 * l2s_hash_key() - hash a login key (subscriber name or supplied key)
 * @buf: the key bytes
 * @len: their number
 *
 * FNV-1a over the bytes, then a final mix so that keys differing only in the
 * last byte spread over all bits (the pick takes a remainder).
 *
 * Return: the 32-bit hash.
 */
u32 l2s_hash_key(const void *buf, u32 len)
{
	const u8 *p = buf;
	u32 h = 2166136261u;
	u32 i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= 16777619u;
	}
	return mix32(h);
}

/**
 * l2s_hash_pick() - plain hash over the members that are up
 * @key: the key's hash
 * @n: number of members (1..32)
 * @up: bit i set when member i is up
 *
 * Return: the member, or -1 when none is up.
 */
int l2s_hash_pick(u32 key, u32 n, u32 up)
{
	u32 cnt, k, i;

	if (n < 32)
		up &= (1u << n) - 1;
	cnt = (u32)l2s_popcount(up);
	if (!cnt)
		return -1;
	k = key % cnt;
	for (i = 0; i < n; i++) {
		if (!(up & (1u << i)))
			continue;
		if (!k--)
			return (int)i;
	}
	return -1;
}

/**
 * l2s_minmiss_pick() - minmiss hash over a fixed member list
 * @key: the key's hash
 * @n: number of members (1..32), in their configured order
 * @up: bit i set when member i is up
 *
 * Return: the member, or -1 when none is up.
 */
int l2s_minmiss_pick(u32 key, u32 n, u32 up)
{
	u32 slot, owner, i, best_score = 0;
	int best = -1;

	if (!n || n > 32)
		return -1;
	if (n < 32)
		up &= (1u << n) - 1;
	if (!up)
		return -1;
	slot = key % (n * L2S_MM_SLOTS_PER_MEMBER);
	owner = slot % n;
	if (up & (1u << owner))
		return (int)owner;
	/* Refill: highest score wins, ties to the lower index. */
	for (i = 0; i < n; i++) {
		u32 score;

		if (!(up & (1u << i)))
			continue;
		score = mix32(slot * 0x9e3779b1u ^ mix32(i + 1));
		if (best < 0 || score > best_score) {
			best = (int)i;
			best_score = score;
		}
	}
	return best;
}
