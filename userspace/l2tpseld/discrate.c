// SPDX-License-Identifier: GPL-2.0
/* Fair budgets for PPPoE discovery, S-SEC-6 (discrate.h). */
#include <string.h>

#include "discrate.h"

void disc_rate_init(struct disc_rate *r, const struct disc_rate_conf *conf, const uint8_t key[16])
{
	memset(r, 0, sizeof(*r));
	r->conf = *conf;
	memcpy(r->key, key, sizeof(r->key));
}

/*
 * A keyed hash of @len bytes into a slot: FNV-1a over the bytes, seeded
 * and finished with the key (a multiply-xorshift mix), so that lines or
 * MAC addresses chosen to share a slot cannot be picked from outside.
 */
static unsigned int slot_of(const struct disc_rate *r, uint64_t salt, const uint8_t *p, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ r->key[0] ^ salt;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	h ^= r->key[1];
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return (unsigned int)(h % DISC_RATE_SLOTS);
}

/* Room in @s this second under @limit (0: no limit)? */
static bool room(struct disc_slot *s, uint64_t sec, uint32_t limit)
{
	if (s->sec != sec) {
		s->sec = sec;
		s->n = 0;
	}
	return !limit || s->n < limit;
}

enum disc_verdict disc_rate_padi(struct disc_rate *r, uint64_t sec, unsigned int ifidx,
				 const uint8_t *line, size_t line_len, const uint8_t mac[6])
{
	struct disc_slot *fi = &r->ifs[ifidx % DISC_RATE_IFS], *li = NULL, *mi;

	mi = &r->mac[slot_of(r, 1, mac, 6)];
	if (line && line_len)
		li = &r->line[slot_of(r, 2 + ifidx, line, line_len)];
	/* the line and the MAC first: a flooding line spends its own budget only */
	if (li && !room(li, sec, r->conf.per_line))
		return DISC_OVER_LINE;
	if (!room(mi, sec, r->conf.per_mac))
		return DISC_OVER_MAC;
	if (!room(fi, sec, r->conf.per_if))
		return DISC_OVER_IF;
	if (li)
		li->n++;
	mi->n++;
	fi->n++;
	return DISC_PASS;
}

enum disc_verdict disc_rate_padr(struct disc_rate *r, uint64_t sec, const uint8_t mac[6])
{
	struct disc_slot *mi = &r->mac[slot_of(r, 1, mac, 6)];

	if (!room(mi, sec, r->conf.per_mac))
		return DISC_OVER_MAC;
	mi->n++;
	return DISC_PASS;
}

const char *disc_verdict_name(enum disc_verdict v)
{
	switch (v) {
	case DISC_PASS:
		return "pass";
	case DISC_OVER_IF:
		return "over the interface's discovery rate";
	case DISC_OVER_LINE:
		return "over the line's discovery rate";
	case DISC_OVER_MAC:
		return "over the MAC address's discovery rate";
	}
	return "?";
}
