// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld configuration: the RADIUS lines (radius-server, radius-das,
 * radius-das-client, radius-profile-attribute, radius-fallback) and metrics.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "config_int.h"
#include "l2d_conf.h"

/* radius-server ADDR [port N] [acct-port N] secret SECRET */
int cfg_radius_line(struct l2d_conf *c, char **t, int n, char *err, size_t errlen)
{
	struct l2d_radius_conf *r = &c->radius[c->n_radius];
	uint32_t port = 1812, acct = 0;
	int k = 2;

	while (k + 1 < n && (!strcmp(t[k], "port") || !strcmp(t[k], "acct-port"))) {
		uint32_t *v = t[k][0] == 'p' ? &port : &acct;

		if (cfg_u32(t[k + 1], 1, 65535, v))
			return cfg_err(err, errlen, "radius-server: %s \"%s\": 1..65535", t[k], t[k + 1]);
		k += 2;
	}
	if (n != k + 2 || strcmp(t[k], "secret"))
		return cfg_err(err, errlen, "radius-server: usage: radius-server ADDRESS [port N] "
			    "[acct-port N] secret SECRET");
	if (c->n_radius == L2D_MAX_RADIUS)
		return cfg_err(err, errlen, "radius-server: at most %d servers", L2D_MAX_RADIUS);
	if (l2d_parse_addr(t[1], (uint16_t)port, &r->addr, &r->len))
		return cfg_err(err, errlen, "radius-server: \"%s\" is not an IPv4 or IPv6 address", t[1]);
	if (cfg_name(r->secret, sizeof(r->secret), t[k + 1]))
		return cfg_err(err, errlen, "radius-server: a secret of 1..%zu bytes", sizeof(r->secret) - 1);
	/* 1812 and 1813, or the port given and the next (RFC 2866 section 3) */
	r->acct_port = (uint16_t)(acct ? acct : port == 65535 ? 65535 : port + 1);
	c->n_radius++;
	return 0;
}

/* radius-das ADDR [port N]: the server of dynamic authorization (RFC 5176) */
int cfg_das_line(struct l2d_conf *c, char **t, int n, char *err, size_t errlen)
{
	uint32_t port = 3799;	/* RFC 5176 section 2.2 */

	if ((n != 2 && n != 4) || (n == 4 && (strcmp(t[2], "port") ||
					      cfg_u32(t[3], 1, 65535, &port))))
		return cfg_err(err, errlen, "radius-das: usage: radius-das ADDRESS [port N] (1..65535, "
			    "3799 by default)");
	if (l2d_parse_addr(t[1], (uint16_t)port, &c->das_addr, &c->das_len))
		return cfg_err(err, errlen, "radius-das: \"%s\" is not an IPv4 or IPv6 address", t[1]);
	return 0;
}

/* metrics ADDR [port N]: the Prometheus endpoint (Documentation/metrics.md) */
int cfg_metrics_line(struct l2d_conf *c, char **t, int n, char *err, size_t errlen)
{
	uint32_t port = L2D_METRICS_PORT;

	if ((n != 2 && n != 4) || (n == 4 && (strcmp(t[2], "port") ||
					      cfg_u32(t[3], 1, 65535, &port))))
		return cfg_err(err, errlen, "metrics: usage: metrics ADDRESS [port N] (1..65535, "
			    "%u by default)", L2D_METRICS_PORT);
	if (l2d_parse_addr(t[1], (uint16_t)port, &c->metrics_addr, &c->metrics_len))
		return cfg_err(err, errlen, "metrics: \"%s\" is not an IPv4 or IPv6 address", t[1]);
	return 0;
}

/* radius-das-client ADDR secret SECRET */
int cfg_das_client_line(struct l2d_conf *c, char **t, int n, char *err, size_t errlen)
{
	struct l2d_das_client *k = &c->das_clients[c->n_das_clients];

	if (n != 4 || strcmp(t[2], "secret"))
		return cfg_err(err, errlen, "radius-das-client: usage: radius-das-client ADDRESS secret SECRET");
	if (c->n_das_clients == L2D_MAX_DAS_CLIENTS)
		return cfg_err(err, errlen, "radius-das-client: at most %d clients", L2D_MAX_DAS_CLIENTS);
	if (l2d_parse_addr(t[1], 0, &k->addr, &k->len))
		return cfg_err(err, errlen, "radius-das-client: \"%s\" is not an IPv4 or IPv6 address", t[1]);
	if (cfg_name(k->secret, sizeof(k->secret), t[3]))
		return cfg_err(err, errlen, "radius-das-client: a secret of 1..%zu bytes",
			    sizeof(k->secret) - 1);
	c->n_das_clients++;
	return 0;
}

/* radius-profile-attribute TYPE | VENDOR:TYPE (26-VENDOR-TYPE) */
int cfg_radius_attr_line(struct l2d_conf *c, char **t, int n, char *err, size_t errlen)
{
	uint32_t vendor = 0, type;
	char *colon = n == 2 ? strchr(t[1], ':') : NULL;

	if (colon) {
		*colon = '\0';
		if (cfg_u32(t[1], 1, 0xffffff, &vendor) || cfg_u32(colon + 1, 1, 255, &type))
			return cfg_err(err, errlen, "radius-profile-attribute: VENDOR:TYPE with a vendor "
				    "1..16777215 and a type 1..255");
	} else if (n != 2 || cfg_u32(t[1], 1, 255, &type) || type == 26) {
		return cfg_err(err, errlen, "radius-profile-attribute: usage: radius-profile-attribute "
			    "TYPE | VENDOR:TYPE (a type 1..255 other than 26; 2636:64 by default)");
	}
	c->radius_profile_vendor = vendor;
	c->radius_profile_type = (uint8_t)type;
	return 0;
}

int cfg_radius_fallback_line(struct l2d_conf *c, char **t, int n, char *err, size_t errlen)
{
	if (n != 2 || (strcmp(t[1], "domain-map") && strcmp(t[1], "refuse")))
		return cfg_err(err, errlen, "radius-fallback: domain-map or refuse");
	c->radius_fallback = !strcmp(t[1], "domain-map");
	return 0;
}
