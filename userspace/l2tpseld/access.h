/* SPDX-License-Identifier: GPL-2.0 */
/*
 * l2tpseld's access role (Documentation/access.md): PPPoE subscribers
 * brought to an LNS, and tunnel switching (S-LTS-1).  What the rest of the
 * agent uses; the access files share access_int.h among themselves.
 * The RADIUS server's requests (RFC 5176) reach it through
 * l2d_access_disconnect() and l2d_access_coa() (radius.h).
 */
#ifndef L2D_ACCESS_H
#define L2D_ACCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct l2d;

/* main.c: open (0, or -errno with @err), PADT to everyone, close. */
int l2d_access_open(struct l2d *d, char *err, size_t errlen);
void l2d_access_shutdown(struct l2d *d);
void l2d_access_close(struct l2d *d);
/* The "access" line of the API's stats; 0 without the access role. */
int l2d_access_stats(struct l2d *d, char *buf, size_t len);
/* The "switch" line of the API's stats (S-LTS-1); 0 when lns-switch is off. */
int l2d_access_lts_stats(struct l2d *d, char *buf, size_t len);
/* Tunnel switching's counters (S-LTS-1, S-OPS-3). */
struct l2d_lts_stats {
	unsigned int calls_now;
	uint64_t calls, up, loops_refused, hops_refused;
};
/* Return: false when lns-switch is off (or the access side is not open). */
bool l2d_access_lts_get(struct l2d *d, struct l2d_lts_stats *out);
/* One access interface's counters (S-OPS-3), by index from 0. */
struct l2d_access_if_stats {
	const char *ifname;
	unsigned int subscribers;
	uint64_t padi, pado, padr, pads, pads_refused, padt_rx, padt_tx;
	uint64_t bad, rate_dropped, no_service, logins, up, refused;
};
/* Return: false past the last interface (or without the access role). */
bool l2d_access_if_stats(struct l2d *d, unsigned int i, struct l2d_access_if_stats *out);

#endif
