/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The options of an LCP Configure-Request, -Ack, -Nak or -Reject as RFC
 * 1661 section 6 lays them out (Type, Length, Data; Length counts the
 * whole option, at least 2): one walk for the LAC's own LCP (ppp.c) and
 * the LNS role's reading of a proxied LCP (proxy_lcp.c).  Plain C, no I/O:
 * it may be given any bytes (fuzz/fuzz_ppp.c drives both callers).
 */
#ifndef L2D_LCP_OPT_H
#define L2D_LCP_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum lcp_opt_type {			/* RFC 1661 section 6 */
	LCP_OPT_MRU = 1, LCP_OPT_ACCM = 2, LCP_OPT_AUTH = 3, LCP_OPT_QUALITY = 4,
	LCP_OPT_MAGIC = 5, LCP_OPT_PFC = 7, LCP_OPT_ACFC = 8,
};

/* One option: where it starts, its Type and Length, its Length - 2 bytes of Data. */
struct lcp_opt {
	const uint8_t *at;
	uint8_t type, len;
	const uint8_t *v;
};

/*
 * The option at *@off of @o (@n bytes) into *@opt, *@off past it.
 * Return: true, or false at the end or at an option whose Length is below
 * 2 or runs past the end (*@off then stays on it).
 */
bool lcp_opt_next(const uint8_t *o, size_t n, size_t *off, struct lcp_opt *opt);
/* Every option of @o (@n bytes) well formed, as lcp_opt_next() has it? */
bool lcp_opts_valid(const uint8_t *o, size_t n);

#endif
