/* SPDX-License-Identifier: GPL-2.0 */
/*
 * l2tpseld: the service manager's file descriptor store (S-OPS-2,
 * "fd-store yes", fdstore.c): what a restart after a crash adopts.
 */
#ifndef L2D_FDSTORE_H
#define L2D_FDSTORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct l2d;

#define L2D_FDSTORE_GEN_ENV	"L2TPSELD_FDSTORE_GEN"

/* Before an upgrade's execve() (@going), or after it failed. */
void l2d_fdstore_exec(bool going);
/* fd-store is on and there is a store ($NOTIFY_SOCKET) */
bool l2d_fdstore_on(const struct l2d *d);
/*
 * Bring the store up to date with @d's snapshot: its descriptors stored
 * ("fdN"), those gone removed, then the snapshot ("snapshot-G").  Does
 * nothing unless @force, a control message or a tunnel or call changed,
 * or a second passed.
 */
void l2d_fdstore_sync(struct l2d *d, bool force);
/* Everything this process stored leaves the store (a clean stop). */
void l2d_fdstore_release(void);
/*
 * At start-up: the descriptors handed over (LISTEN_PID, LISTEN_FDS,
 * LISTEN_FDNAMES), each "fdN" moved to number N, and the newest snapshot
 * read (malloc'ed, *len bytes).  NULL when there is none; then @err says
 * why when descriptors came (they are closed and leave the store).
 * @on: fd-store is on (else everything handed over is let go).
 */
uint8_t *l2d_fdstore_take(bool on, size_t *len, char *err, size_t errlen);

#endif
