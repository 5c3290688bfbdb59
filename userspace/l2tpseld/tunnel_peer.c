// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld: a tunnel's peer (an address, or an IPv6 /64) in a seeded hash,
 * and what the LNS role counts there and in all: tunnels in setup and
 * established ones, for the caps (S-SEC-7).  Called by the tunnel files
 * (tunnel_int.h); calls none of them.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/l2tpsel.h>

#include "l2d.h"
#include "tunnel.h"
#include "tunnel_int.h"

/* LNS tunnels in setup, oldest first (lns-max-setup, lns_setup_room()). */
void l2d_lns_setup_add(struct l2d_tunnel *t)
{
	struct l2d *d = t->d;

	t->lns_setup = true;
	t->p->lns_setup++;
	t->setup_prev = d->setup_last;
	t->setup_next = NULL;
	if (d->setup_last)
		d->setup_last->setup_next = t;
	else
		d->setup_first = t;
	d->setup_last = t;
	d->n_lns_setup++;
}

void l2d_lns_setup_done(struct l2d_tunnel *t)
{
	struct l2d *d = t->d;

	if (!t->lns_setup)
		return;
	if (t->setup_prev)
		t->setup_prev->setup_next = t->setup_next;
	else
		d->setup_first = t->setup_next;
	if (t->setup_next)
		t->setup_next->setup_prev = t->setup_prev;
	else
		d->setup_last = t->setup_prev;
	t->lns_setup = false;
	t->p->lns_setup--;
	d->n_lns_setup--;
}

/* ---- peers: an address or an IPv6 /64, by a seeded hash (S-SEC-7) ---- */

/* @a's key: false for an address of no known family */
static bool peer_key(const struct l2d_addr *a, uint8_t key[9])
{
	const struct sockaddr_in6 *s6 = (const void *)&a->ss;
	const struct sockaddr_in *s4 = (const void *)&a->ss;

	memset(key, 0, 9);
	if (a->ss.ss_family == AF_INET) {
		key[0] = 4;
		memcpy(key + 1, &s4->sin_addr, 4);
		return true;
	}
	if (a->ss.ss_family != AF_INET6)
		return false;
	if (IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr)) {
		key[0] = 4;
		memcpy(key + 1, s6->sin6_addr.s6_addr + 12, 4);
	} else {
		key[0] = 6;
		memcpy(key + 1, s6->sin6_addr.s6_addr, 8);	/* the /64 */
	}
	return true;
}

/* Seeded: a peer cannot pick addresses that share a chain. */
static unsigned int peer_hash(struct l2d *d, const uint8_t key[9])
{
	uint64_t h;
	unsigned int i;

	if (!d->peer_seeded) {
		d->env->random(d, &d->peer_seed, sizeof(d->peer_seed));
		d->peer_seeded = true;
	}
	h = d->peer_seed ^ 0xcbf29ce484222325ull;
	for (i = 0; i < 9; i++)
		h = (h ^ key[i]) * 0x100000001b3ull;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return (unsigned int)(h & (L2D_PEER_HASH - 1));
}

struct l2d_peer *l2d_peer_find(struct l2d *d, const struct l2d_addr *a)
{
	struct l2d_peer *p;
	uint8_t key[9];

	if (!peer_key(a, key))
		return NULL;
	for (p = d->peers[peer_hash(d, key)]; p; p = p->next)
		if (!memcmp(p->key, key, sizeof(key)))
			return p;
	return NULL;
}

int l2d_peer_attach(struct l2d_tunnel *t)
{
	struct l2d *d = t->d;
	struct l2d_peer *p = l2d_peer_find(d, &t->peer);
	uint8_t key[9];

	if (!p) {
		unsigned int h;

		if (!peer_key(&t->peer, key))
			return -1;
		p = calloc(1, sizeof(*p));
		if (!p)
			return -1;
		memcpy(p->key, key, sizeof(key));
		h = peer_hash(d, key);
		p->next = d->peers[h];
		d->peers[h] = p;
		d->n_peers++;
	}
	t->p = p;
	t->pnext = p->tunnels;
	if (t->pnext)
		t->pnext->ppprev = &t->pnext;
	t->ppprev = &p->tunnels;
	p->tunnels = t;
	return 0;
}

void l2d_peer_detach(struct l2d_tunnel *t)
{
	struct l2d *d = t->d;
	struct l2d_peer *p = t->p, **pp;

	if (!p)
		return;
	*t->ppprev = t->pnext;
	if (t->pnext)
		t->pnext->ppprev = t->ppprev;
	t->p = NULL;
	if (p->tunnels)
		return;
	for (pp = &d->peers[peer_hash(d, p->key)]; *pp; pp = &(*pp)->next) {
		if (*pp == p) {
			*pp = p->next;
			break;
		}
	}
	d->n_peers--;
	free(p);
}

/*
 * Established LNS-role tunnels (until freed: closing ones hold their IDs
 * too) are capped per peer (lns-max-tunnels-per-peer) and in all
 * (lns-max-tunnels).  Checked when the SCCRQ comes and again when the
 * SCCCN would establish it.  Return: true with @why set when full.
 */
bool l2d_lns_full(struct l2d *d, const struct l2d_peer *p, char *why, size_t len)
{
	if (p && p->lns_up >= d->conf->lns_max_tunnels_per_peer)
		snprintf(why, len, "tunnel limit: lns-max-tunnels-per-peer %u reached",
			 d->conf->lns_max_tunnels_per_peer);
	else if (d->n_lns_up >= d->conf->lns_max_tunnels)
		snprintf(why, len, "tunnel limit: lns-max-tunnels %u reached", d->conf->lns_max_tunnels);
	else
		return false;
	return true;
}
