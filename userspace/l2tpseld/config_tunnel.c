// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld configuration: the tunnels' lines (secret, lns-secret, route,
 * tgroup-map, lns-mode).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "config_int.h"
#include "l2d_conf.h"

/* secret TUNNEL|* SECRET;  lns-secret HOSTNAME|* SECRET */
int cfg_secret_line(struct l2d_conf *c, char **t, int n, char *err, size_t errlen)
{
	struct l2d_secret_ent *e;

	if (n != 3)
		return cfg_err(err, errlen, "%s: usage: %s %s SECRET", t[0], t[0],
			    t[0][0] == 'l' ? "{ HOSTNAME | * }" : "{ TUNNEL | * }");
	if (c->n_secrets == L2D_MAX_SECRETS)
		return cfg_err(err, errlen, "%s: at most %d secrets", t[0], L2D_MAX_SECRETS);
	e = &c->secrets[c->n_secrets];
	if (cfg_name(e->match, sizeof(e->match), t[1]) ||
	    cfg_name(e->secret, sizeof(e->secret), t[2]))
		return cfg_err(err, errlen, "%s: names are 1..%d bytes, secrets 1..%d", t[0],
			    L2D_NAME_MAX - 1, L2D_SECRET_MAX - 1);
	e->lns = t[0][0] == 'l';
	c->n_secrets++;
	return 0;
}

/* route PROFILE|* TUNNEL REMOTE [port N] [local ADDR] */
int cfg_route_line(struct l2d_conf *c, char **t, int n, char *err, size_t errlen)
{
	struct l2d_route *r;
	uint32_t port = 1701;
	int k;

	if (n < 4)
		return cfg_err(err, errlen, "route: usage: route { PROFILE | * } TUNNEL REMOTE [port N] [local ADDRESS]");
	if (c->n_routes == L2D_MAX_ROUTES)
		return cfg_err(err, errlen, "route: at most %d routes", L2D_MAX_ROUTES);
	r = &c->routes[c->n_routes];
	memset(r, 0, sizeof(*r));
	if (cfg_name(r->profile, sizeof(r->profile), t[1]) ||
	    cfg_name(r->tunnel, sizeof(r->tunnel), t[2]))
		return cfg_err(err, errlen, "route: names are 1..%d bytes", L2D_NAME_MAX - 1);
	for (k = 4; k < n; k += 2) {
		if (k + 1 >= n)
			return cfg_err(err, errlen, "route: \"%s\" needs a value", t[k]);
		if (!strcmp(t[k], "port")) {
			if (cfg_u32(t[k + 1], 1, 65535, &port))
				return cfg_err(err, errlen, "route: port: expected 1..65535");
		} else if (!strcmp(t[k], "local")) {
			if (l2d_parse_addr(t[k + 1], 0, &r->local, &r->local_len))
				return cfg_err(err, errlen, "route: local: \"%s\" is not an address", t[k + 1]);
		} else {
			return cfg_err(err, errlen, "route: unknown option \"%s\"", t[k]);
		}
	}
	if (l2d_parse_addr(t[3], (uint16_t)port, &r->remote, &r->remote_len))
		return cfg_err(err, errlen, "route: \"%s\" is not an IPv4 or IPv6 address", t[3]);
	c->n_routes++;
	return 0;
}

int cfg_tgroup_map_line(struct l2d_conf *c, char **t, int n, char *err, size_t errlen)
{
	struct l2d_tgmap *m;

	if (n != 3)
		return cfg_err(err, errlen, "tgroup-map: usage: tgroup-map LOCAL-ADDRESS TGROUP");
	if (c->n_tgmap == L2D_MAX_TGMAP)
		return cfg_err(err, errlen, "tgroup-map: at most %d entries", L2D_MAX_TGMAP);
	m = &c->tgmap[c->n_tgmap];
	if (l2d_parse_addr(t[1], 0, &m->addr, &m->len))
		return cfg_err(err, errlen, "tgroup-map: \"%s\" is not an address", t[1]);
	if (cfg_name(m->tgroup, sizeof(m->tgroup), t[2]))
		return cfg_err(err, errlen, "tgroup-map: group names are 1..%d bytes", L2D_NAME_MAX - 1);
	c->n_tgmap++;
	return 0;
}

/* lns-mode normal | silent | silent-after-zlb | cdn [RESULT [ERROR]] */
int cfg_lns_mode_line(struct l2d_conf *c, char **t, int n, char *err, size_t errlen)
{
	if (n == 2 && !strcmp(t[1], "normal")) {
		c->lns_mode = L2D_LNS_NORMAL;
	} else if (n == 2 && !strcmp(t[1], "silent")) {
		c->lns_mode = L2D_LNS_SILENT;
	} else if (n == 2 && !strcmp(t[1], "silent-after-zlb")) {
		c->lns_mode = L2D_LNS_SILENT_AFTER_ZLB;
	} else if (n >= 2 && n <= 4 && !strcmp(t[1], "cdn")) {
		uint32_t r = 2, e = 0;

		if ((n > 2 && cfg_u32(t[2], 1, 65535, &r)) || (n > 3 && cfg_u32(t[3], 0, 65535, &e)))
			return cfg_err(err, errlen, "lns-mode cdn: RESULT is 1..65535, ERROR 0..65535");
		c->lns_mode = L2D_LNS_CDN;
		c->lns_cdn_result = (uint16_t)r;
		c->lns_cdn_error = (uint16_t)e;
	} else {
		return cfg_err(err, errlen, "lns-mode: expected normal, silent, silent-after-zlb or cdn [RESULT [ERROR]]");
	}
	if (c->lns_mode != L2D_LNS_NORMAL)
		cfg_test_switch(c, "lns-mode", t[1]);
	return 0;
}
