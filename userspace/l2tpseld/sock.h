/* SPDX-License-Identifier: GPL-2.0 */
/*
 * l2tpseld: the tunnels' UDP sockets (sock.c), main.c's l2d_env hooks.
 */
#ifndef L2D_SOCK_H
#define L2D_SOCK_H

#include "l2d.h"

/*
 * A UDP socket bound to @bind_to (port 0: one the kernel picks that no
 * socket held); 0 or -errno.
 */
int l2d_udp_socket(int family, const struct l2d_addr *bind_to, bool pktinfo, uint32_t rcvbuf);
/* Up to a burst of datagrams from @fd into l2d_input(), with the local
 * address they reached (IP_PKTINFO, else @fixed_local) and @local_port. */
void l2d_sock_drain(struct l2d *d, int fd, const struct l2d_addr *fixed_local, uint16_t local_port);
int l2d_sock_tunnel_open(struct l2d *d, struct l2d_tunnel *t);
int l2d_sock_tunnel_connect(struct l2d *d, struct l2d_tunnel *t);
void l2d_sock_tunnel_close(struct l2d *d, struct l2d_tunnel *t);
int l2d_sock_tunnel_adopt(struct l2d *d, struct l2d_tunnel *t);
int l2d_sock_send(struct l2d *d, struct l2d_tunnel *t, const uint8_t *buf, size_t len);

#endif
