/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The MRU the LAC asks of a PPPoE subscriber (S-MTU-1): the largest PPP
 * Information field whose frame, carried by the kernel's L2TPv2 data path,
 * fits a path of a given MTU to the LNS unfragmented.  Plain C, no I/O.
 *
 * A subscriber's frame leaves the LAC as (Linux 6.1, net/l2tp):
 *
 *	outer IP	20 (IPv4) or 40 (IPv6, no extension headers)
 *	UDP		 8
 *	L2TP		 6 flags/version, Tunnel ID, Session ID: the kernel never
 *			   sets L or O on data (l2tp_build_l2tpv2_header())
 *			+4 Ns, Nr when the session sends sequence numbers
 *			   (send_seq, "data-sequencing yes")
 *	PPP		 2 address 0xff, control 0x03: pppol2tp_xmit() always
 *			   puts them, ACFC or not
 *			+2 protocol field (PFC is refused on PPPoE, RFC 2516
 *			   section 7; the LNS may still ask for it: 2 is the
 *			   worst case)
 *	Information	the MRU (RFC 1661 section 6.1)
 *
 * so 1500 - 38 = 1462 over IPv4, 1442 over IPv6, 4 less with sequencing.
 */
#ifndef L2D_MTU_H
#define L2D_MTU_H

#include <stdbool.h>
#include <stdint.h>

#define L2D_MTU_IPV4_HDR	20
#define L2D_MTU_IPV6_HDR	40
#define L2D_MTU_UDP_HDR		8
#define L2D_MTU_L2TP_HDR	6
#define L2D_MTU_L2TP_SEQ	4
#define L2D_MTU_PPP_HDR		4

#define L2D_PATH_MTU_DEFAULT	1500
#define L2D_PATH_MTU_MIN	576	/* RFC 791's datagram every host takes */
#define L2D_PATH_MTU_MIN6	1280	/* RFC 8200 section 5 */
#define L2D_PATH_MTU_MAX	65535
/* RFC 2516 section 7: never more than 1492 on PPPoE */
#define L2D_PPPOE_MRU_MAX	1492

/* Bytes the path carries besides the MRU: outer IP, UDP, L2TP, PPP. */
unsigned int l2d_mtu_overhead(bool ipv6, bool seq);

/*
 * The MRU for a path of @path_mtu bytes: @path_mtu less the overhead,
 * at most L2D_PPPOE_MRU_MAX.  Return: 0 when not even a 64-byte MRU fits
 * (RFC 1661's smallest sensible; the configuration refuses such paths).
 */
uint16_t l2d_access_mru(unsigned int path_mtu, bool ipv6, bool seq);

#endif
