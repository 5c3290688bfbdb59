// SPDX-License-Identifier: GPL-2.0
/* The LCP option walk (RFC 1661 section 6): see lcp_opt.h. */
#include "lcp_opt.h"

bool lcp_opt_next(const uint8_t *o, size_t n, size_t *off, struct lcp_opt *opt)
{
	size_t at = *off;

	if (at >= n || n - at < 2 || o[at + 1] < 2 || o[at + 1] > n - at)
		return false;
	opt->at = o + at;
	opt->type = o[at];
	opt->len = o[at + 1];
	opt->v = o + at + 2;
	*off = at + opt->len;
	return true;
}

bool lcp_opts_valid(const uint8_t *o, size_t n)
{
	struct lcp_opt opt;
	size_t off = 0;

	while (lcp_opt_next(o, n, &off, &opt))
		;
	return off == n;
}
