// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld configuration: the access role's lines (access, access-auth,
 * access-line, lns-switch) and the PADO delay (S-OPS-1).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "config_int.h"
#include "l2d_conf.h"
#include "mtu.h"

static bool access_kw(const char *w)
{
	return !strcmp(w, "ac-name") || !strcmp(w, "service") || !strcmp(w, "path-mtu") ||
	       !strcmp(w, "path-family") || !strcmp(w, "pado-delay");
}

/**
 * l2d_pado_parse() - read a pado-delay (S-OPS-1)
 * @a: the access interface
 * @spec: "MS" (every PADO waits MS) or "N:MS[,N:MS...]": from N
 *        subscribers on, MS; N rising; MS a number of ms (0..30000) or
 *        "off" (no PADO); below the first N, no wait
 * @err: the refusal
 * @errlen: its room
 *
 * Return: 0, or -1 with @err saying what was wrong.
 */
int l2d_pado_parse(struct l2d_access_conf *a, const char *spec, char *err, size_t errlen)
{
	char buf[256], *tok, *save = NULL;
	unsigned int n = 0;

	if (strlen(spec) >= sizeof(buf))
		return cfg_err(err, errlen, "access: pado-delay \"%.20s...\" longer than %zu bytes",
			    spec, sizeof(buf) - 1);
	strcpy(buf, spec);
	if (!strchr(buf, ':')) {
		if (cfg_u32(buf, 0, L2D_PADO_MAX_MS, &a->pado[0].ms))
			return cfg_err(err, errlen, "access: pado-delay \"%s\": MS (0..%u) or N:MS,...",
				    spec, L2D_PADO_MAX_MS);
		a->pado[0].sessions = 0;
		a->n_pado = 1;
		return 0;
	}
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':');
		struct l2d_pado_step *st = &a->pado[n];

		if (n == L2D_PADO_STEPS)
			return cfg_err(err, errlen, "access: pado-delay: at most %d steps", L2D_PADO_STEPS);
		if (!colon)
			return cfg_err(err, errlen, "access: pado-delay step \"%s\" is not N:MS", tok);
		*colon = '\0';
		if (cfg_u32(tok, 0, UINT32_MAX - 1, &st->sessions))
			return cfg_err(err, errlen, "access: pado-delay: \"%s\" is not a session count", tok);
		if (n && st->sessions <= a->pado[n - 1].sessions)
			return cfg_err(err, errlen, "access: pado-delay: session counts must rise (%u after %u)",
				    st->sessions, a->pado[n - 1].sessions);
		if (!strcmp(colon + 1, "off"))
			st->ms = L2D_PADO_NONE;
		else if (cfg_u32(colon + 1, 0, L2D_PADO_MAX_MS, &st->ms))
			return cfg_err(err, errlen, "access: pado-delay: \"%s\" is not 0..%u ms or off",
				    colon + 1, L2D_PADO_MAX_MS);
		n++;
	}
	if (!n)
		return cfg_err(err, errlen, "access: pado-delay needs N:MS steps");
	a->n_pado = n;
	return 0;
}

/**
 * l2d_pado_delay() - how long a PADO waits (S-OPS-1)
 * @a: the access interface
 * @sessions: the agent's subscribers now
 *
 * Return: ms, the last step at or below @sessions (0 below the first), or
 * L2D_PADO_NONE: no PADO.
 */
uint32_t l2d_pado_delay(const struct l2d_access_conf *a, uint32_t sessions)
{
	uint32_t ms = 0;
	unsigned int i;

	for (i = 0; i < a->n_pado && a->pado[i].sessions <= sessions; i++)
		ms = a->pado[i].ms;
	return ms;
}

/*
 * access pppoe IFNAME [service NAME...] [ac-name NAME] [path-mtu N]
 * [path-family ipv4|ipv6] [pado-delay SPEC]
 */
int cfg_access_line(struct l2d_conf *c, char **t, int n, char *err, size_t errlen)
{
	struct l2d_access_conf *a;
	unsigned int i;
	int k;

	if (n < 3 || strcmp(t[1], "pppoe"))
		return cfg_err(err, errlen, "access: usage: access pppoe IFNAME [service NAME...] "
			    "[ac-name NAME] [path-mtu N] [path-family ipv4|ipv6] [pado-delay SPEC]");
	if (strlen(t[2]) >= sizeof(a->ifname))
		return cfg_err(err, errlen, "access: interface name \"%s\" longer than %zu bytes", t[2],
			    sizeof(a->ifname) - 1);
	for (i = 0; i < c->n_access; i++)
		if (!strcmp(c->access[i].ifname, t[2]))
			return cfg_err(err, errlen, "access: interface %s given twice", t[2]);
	if (c->n_access == L2D_MAX_ACCESS)
		return cfg_err(err, errlen, "access: at most %d interfaces", L2D_MAX_ACCESS);
	a = &c->access[c->n_access];
	memset(a, 0, sizeof(*a));
	strcpy(a->ifname, t[2]);
	a->path_mtu = L2D_PATH_MTU_DEFAULT;
	a->path_ipv6 = true;
	for (k = 3; k < n; k++) {
		if (!strcmp(t[k], "pado-delay")) {
			if (k + 1 == n)
				return cfg_err(err, errlen, "access: pado-delay needs MS or N:MS,...");
			if (a->n_pado)
				return cfg_err(err, errlen, "access: pado-delay given twice");
			if (l2d_pado_parse(a, t[++k], err, errlen))
				return -1;
		} else if (!strcmp(t[k], "ac-name")) {
			if (k + 1 == n)
				return cfg_err(err, errlen, "access: ac-name needs a NAME");
			if (a->ac_name[0])
				return cfg_err(err, errlen, "access: ac-name given twice");
			if (cfg_name(a->ac_name, sizeof(a->ac_name), t[++k]))
				return cfg_err(err, errlen, "access: ac-name of 1..%d bytes", L2D_NAME_MAX - 1);
		} else if (!strcmp(t[k], "service")) {
			/* the names run to the next keyword; "service" again adds more */
			if (k + 1 == n || access_kw(t[k + 1]))
				return cfg_err(err, errlen, "access: service needs a NAME");
			while (k + 1 < n && !access_kw(t[k + 1])) {
				if (a->n_services == L2D_MAX_SERVICES)
					return cfg_err(err, errlen, "access: at most %d services", L2D_MAX_SERVICES);
				if (cfg_name(a->services[a->n_services], L2D_NAME_MAX, t[++k]))
					return cfg_err(err, errlen, "access: service name of 1..%d bytes",
						    L2D_NAME_MAX - 1);
				a->n_services++;
			}
		} else if (!strcmp(t[k], "path-mtu")) {
			char *end;
			unsigned long v;

			if (k + 1 == n)
				return cfg_err(err, errlen, "access: path-mtu needs a number");
			errno = 0;
			v = strtoul(t[++k], &end, 10);
			if (errno || *end || end == t[k] || t[k][0] == '-' || v < L2D_PATH_MTU_MIN ||
			    v > L2D_PATH_MTU_MAX)
				return cfg_err(err, errlen, "access: path-mtu \"%s\": a number of bytes "
					    "%d..%d", t[k], L2D_PATH_MTU_MIN, L2D_PATH_MTU_MAX);
			a->path_mtu = (uint16_t)v;
		} else if (!strcmp(t[k], "path-family")) {
			if (k + 1 == n || (strcmp(t[k + 1], "ipv4") && strcmp(t[k + 1], "ipv6")))
				return cfg_err(err, errlen, "access: path-family: expected ipv4 or ipv6");
			a->path_ipv6 = !strcmp(t[++k], "ipv6");
		} else {
			return cfg_err(err, errlen, "access: unexpected \"%s\" (service NAME..., ac-name NAME, "
				    "path-mtu N, path-family ipv4|ipv6, pado-delay SPEC)", t[k]);
		}
	}
	/* an IPv6 path is never below 1280 (RFC 8200 section 5) */
	if (a->path_ipv6 && a->path_mtu < L2D_PATH_MTU_MIN6)
		return cfg_err(err, errlen, "access: path-mtu %u below IPv6's %d: add path-family ipv4 "
			    "if every LNS is reached over IPv4", a->path_mtu, L2D_PATH_MTU_MIN6);
	c->n_access++;
	return 0;
}

int cfg_access_auth_line(struct l2d_conf *c, char **t, int n, char *err, size_t errlen)
{
	bool pap = false, chap = false;
	int k;

	for (k = 1; k < n; k++) {
		if (!strcmp(t[k], "pap"))
			pap = true;
		else if (!strcmp(t[k], "chap"))
			chap = true;
		else
			break;
	}
	if (n < 2 || k < n)
		return cfg_err(err, errlen, "access-auth: expected chap, pap, or chap pap");
	c->access_pap = pap;
	c->access_chap = chap;
	return 0;
}

/* access-line no | yes | PROFILE... (S-AL-1, RFC 5515) */
int cfg_access_line_line(struct l2d_conf *c, char **t, int n, char *err, size_t errlen)
{
	int k;

	c->access_line_all = false;
	c->n_access_line_profiles = 0;
	if (n == 2 && (!strcmp(t[1], "yes") || !strcmp(t[1], "no"))) {
		c->access_line_all = !strcmp(t[1], "yes");
		return 0;
	}
	if (n < 2 || n - 1 > L2D_MAX_AL_PROFILES)
		return cfg_err(err, errlen, "access-line: usage: access-line no | yes | PROFILE... "
			    "(at most %d profiles)", L2D_MAX_AL_PROFILES);
	for (k = 1; k < n; k++)
		if (cfg_name(c->access_line_profiles[k - 1], L2D_NAME_MAX, t[k]))
			return cfg_err(err, errlen, "access-line: profile name \"%s\" longer than %d bytes",
				    t[k], L2D_NAME_MAX - 1);
	c->n_access_line_profiles = (unsigned int)(n - 1);
	return 0;
}

bool l2d_conf_access_line(const struct l2d_conf *c, const char *profile)
{
	unsigned int i;

	if (c->access_line_all)
		return true;
	for (i = 0; profile && i < c->n_access_line_profiles; i++)
		if (!strcmp(c->access_line_profiles[i], profile))
			return true;
	return false;
}

/* lns-switch no | yes | PROFILE... (S-LTS-1) */
int cfg_lns_switch_line(struct l2d_conf *c, char **t, int n, char *err, size_t errlen)
{
	int k;

	c->lns_switch_all = false;
	c->n_lns_switch_profiles = 0;
	if (n == 2 && (!strcmp(t[1], "yes") || !strcmp(t[1], "no"))) {
		c->lns_switch_all = !strcmp(t[1], "yes");
		return 0;
	}
	if (n < 2 || n - 1 > L2D_MAX_AL_PROFILES)
		return cfg_err(err, errlen, "lns-switch: usage: lns-switch no | yes | PROFILE... "
			    "(at most %d profiles)", L2D_MAX_AL_PROFILES);
	for (k = 1; k < n; k++)
		if (cfg_name(c->lns_switch_profiles[k - 1], L2D_NAME_MAX, t[k]))
			return cfg_err(err, errlen, "lns-switch: profile name \"%s\" longer than %d bytes",
				    t[k], L2D_NAME_MAX - 1);
	c->n_lns_switch_profiles = (unsigned int)(n - 1);
	return 0;
}

bool l2d_conf_lns_switch_on(const struct l2d_conf *c)
{
	return c->lns_switch_all || c->n_lns_switch_profiles;
}

bool l2d_conf_lns_switch(const struct l2d_conf *c, const char *profile)
{
	unsigned int i;

	if (c->lns_switch_all)
		return true;
	for (i = 0; profile && i < c->n_lns_switch_profiles; i++)
		if (!strcmp(c->lns_switch_profiles[i], profile))
			return true;
	return false;
}
