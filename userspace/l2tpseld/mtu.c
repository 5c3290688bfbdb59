// SPDX-License-Identifier: GPL-2.0
/* The access MRU from the path MTU to the LNS (S-MTU-1; mtu.h). */
#include "mtu.h"

#define MRU_MIN	64

unsigned int l2d_mtu_overhead(bool ipv6, bool seq)
{
	return (ipv6 ? L2D_MTU_IPV6_HDR : L2D_MTU_IPV4_HDR) + L2D_MTU_UDP_HDR + L2D_MTU_L2TP_HDR +
	       (seq ? L2D_MTU_L2TP_SEQ : 0) + L2D_MTU_PPP_HDR;
}

uint16_t l2d_access_mru(unsigned int path_mtu, bool ipv6, bool seq)
{
	unsigned int over = l2d_mtu_overhead(ipv6, seq);

	if (path_mtu < over + MRU_MIN)
		return 0;
	if (path_mtu - over > L2D_PPPOE_MRU_MAX)
		return L2D_PPPOE_MRU_MAX;
	return (uint16_t)(path_mtu - over);
}
