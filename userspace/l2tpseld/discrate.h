/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fair budgets for PPPoE discovery (S-SEC-6): a flood on one line cannot
 * starve another.  A PADI is counted against its access interface, its
 * line (the access node's Agent-Circuit-Id, when the PADI carries one) and
 * its MAC address; a PADR whose AC-Cookie is valid (so one of our PADOs,
 * already counted, invited it) against its MAC address only.  Windows of
 * one second; 0 turns a budget off.  Plain C, no sockets.
 */
#ifndef L2D_DISCRATE_H
#define L2D_DISCRATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DISC_RATE_IFS	8	/* L2D_MAX_ACCESS */
#define DISC_RATE_SLOTS	4096	/* lines and MAC addresses, each */

struct disc_rate_conf {
	uint32_t per_if;	/* PADI per second on one access interface */
	uint32_t per_line;	/* from one Agent-Circuit-Id */
	uint32_t per_mac;	/* PADI and PADR from one MAC address */
};

struct disc_slot {
	uint64_t sec;
	uint32_t n;
};

struct disc_rate {
	struct disc_rate_conf conf;
	uint64_t key[2];	/* the slots' hash key: lines and MACs an attacker cannot aim */
	struct disc_slot ifs[DISC_RATE_IFS];
	struct disc_slot line[DISC_RATE_SLOTS];
	struct disc_slot mac[DISC_RATE_SLOTS];
};

enum disc_verdict {
	DISC_PASS,
	DISC_OVER_IF,
	DISC_OVER_LINE,
	DISC_OVER_MAC,
};

/* @key: 16 random bytes. */
void disc_rate_init(struct disc_rate *r, const struct disc_rate_conf *conf, const uint8_t key[16]);
/*
 * A PADI at second @sec on interface @ifidx (< DISC_RATE_IFS) from @mac,
 * with Agent-Circuit-Id @line of @line_len bytes (NULL: none).  Counted
 * only when it passes every budget.
 */
enum disc_verdict disc_rate_padi(struct disc_rate *r, uint64_t sec, unsigned int ifidx,
				 const uint8_t *line, size_t line_len, const uint8_t mac[6]);
/* A PADR with a valid AC-Cookie from @mac. */
enum disc_verdict disc_rate_padr(struct disc_rate *r, uint64_t sec, const uint8_t mac[6]);
const char *disc_verdict_name(enum disc_verdict v);

#endif
