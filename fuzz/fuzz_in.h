/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fuzz targets that drive a state machine read their input as a
 * stream of bytes: each byte an operation or an argument, 0 once the
 * input is used up.
 */
#ifndef L2TPSEL_FUZZ_IN_H
#define L2TPSEL_FUZZ_IN_H

#include <stddef.h>
#include <stdint.h>

struct in {
	const uint8_t *p;
	size_t n;
};

static inline uint8_t next(struct in *in)
{
	uint8_t b;

	if (!in->n)
		return 0;
	b = *in->p++;
	in->n--;
	return b;
}

#endif
