/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tunnel switching's hop count (S-LTS-2).  RFC 2661 has no hop-count AVP,
 * so a switched call carries its count in a vendor-specific AVP of its own
 * in the ICRQ: Vendor ID 32473, Attribute Type 1, M bit 0, never hidden, a
 * 2-byte count of the switches the call has passed (1 after the first).
 * With the M bit clear an RFC-compliant peer that does not know it ignores
 * it (RFC 2661 section 4.1); another l2tpsel switch reads it and refuses a
 * call that reached its lns-switch-hops.  l2tpsel has no IANA enterprise
 * number: 32473 is RFC 5612's number for documentation, kept apart from
 * every assigned vendor's.
 *
 * Plain C, no I/O: session.c, the unit tests and the fuzz target call it.
 */
#ifndef L2D_LTS_H
#define L2D_LTS_H

#include <stddef.h>
#include <stdint.h>

#include "avp.h"

#define LTS_VENDOR		32473
#define LTS_AVP_HOPS		1
#define LTS_HOPS_LEN		2

/*
 * The hop count of control message @buf (@len bytes, header first) into
 * *@hops.  Return: 1 found, 0 none (*@hops 0), -EBADMSG when the AVP is
 * hidden, not 2 bytes, or there twice (*@hops 0: the caller refuses what
 * it cannot count, a loop hidden by a malformed AVP included).
 */
int lts_hops_from_msg(const uint8_t *buf, size_t len, unsigned int *hops);
/* Append the AVP carrying @hops. Return: 0 or the builder's error. */
int lts_put_hops(struct l2tp_builder *b, unsigned int hops);

#endif
