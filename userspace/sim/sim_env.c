// SPDX-License-Identifier: GPL-2.0
/*
 * What every part of l2tpsel-sim uses (sim.h): the core's environment
 * (clock, random source with the pinned picks, events as JSON lines), the
 * scenario's errors, its names and numbers.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

void sim_die(struct sim *s, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s:%d: ", s->file, s->line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* JSON string body: names come from the scenario, escape what JSON needs. */
void sim_jstr(const char *str)
{
	putchar('"');
	for (; *str; str++) {
		if (*str == '"' || *str == '\\')
			printf("\\%c", *str);
		else if ((unsigned char)*str < 0x20)
			printf("\\u%04x", *str);
		else
			putchar(*str);
	}
	putchar('"');
}

const char *sim_dest_str(struct sim *s, u16 slot)
{
	static char buf[4][64];
	static int i;

	i = (i + 1) % 4;
	conf_format_addr(&l2s_dest_at(&s->core, slot)->key.remote, buf[i], sizeof(buf[i]));
	return buf[i];
}

/* splitmix64: small, seedable, good enough for a simulator. */
static u32 rng_next(struct sim *s)
{
	u64 z = (s->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (u32)((z ^ (z >> 31)) >> 32);
}

/* The core's random source: a pinned choice if one is queued, else the PRNG. */
static u32 sim_rand(void *ctx, const struct l2s_draw *d)
{
	struct sim *s = ctx;
	struct pin *p;
	u32 i, v = 0;

	if (s->pin_head == s->pin_tail)
		return (u32)(((u64)rng_next(s) * d->bound) >> 32);
	p = &s->pins[s->pin_head++ % SIM_PINS];
	if (!p->by_name) {
		if (p->value >= d->bound)
			sim_die(s, "pick next %u (from line %d): the choice is among %u", p->value,
			    p->line, d->bound);
		return p->value;
	}
	for (i = 0; i < d->n; i++) {
		if (!strcmp(s->cur->t[d->cand[i]].name, p->name))
			return v;
		v += d->weighted ? l2s_lb_weight(s->cur, d->lvl, d->cand[i]) : 1;
	}
	fflush(stdout);
	fprintf(stderr, "%s:%d: pick next tunnel %s (from line %d): not among the choices:",
		s->file, s->line, p->name, p->line);
	for (i = 0; i < d->n; i++)
		fprintf(stderr, " %s", s->cur->t[d->cand[i]].name);
	fputc('\n', stderr);
	exit(1);
}

static void sim_event(void *ctx, const struct l2s_event *ev)
{
	struct sim *s = ctx;

	if (s->quiet)
		return;
	switch (ev->kind) {
	case L2S_EV_DLNC:
		printf("{\"ev\":\"dlnc\",\"login\":%u,\"dest\":\"%s\"}\n",
		       s->cur_login, sim_dest_str(s, ev->dest));
		break;
	case L2S_EV_LOCKOUT:
		printf("{\"ev\":\"lockout\",\"dest\":\"%s\",\"secs\":%u}\n",
		       sim_dest_str(s, ev->dest), ev->ms / 1000);
		break;
	case L2S_EV_UNLOCK: {
		static const char *const why[] = {
			[L2S_UNLOCK_DLNC] = "dlnc",
			[L2S_UNLOCK_SHORTEST] = "shortest",
			[L2S_UNLOCK_CLEAR] = "clear",
			[L2S_UNLOCK_EXPIRED] = "expired",
		};

		printf("{\"ev\":\"unlock\",\"dest\":\"%s\",\"why\":\"%s\"}\n",
		       sim_dest_str(s, ev->dest), ev->why < 5 ? why[ev->why] : "?");
		break;
	}
	}
}

struct l2s_env sim_env(struct sim *s)
{
	struct l2s_env env = {
		.now = s->now, .rand = sim_rand, .event = sim_event, .ctx = s,
	};

	return env;
}

struct l2s_profile *sim_find_profile(struct sim *s, const char *name)
{
	int i;

	for (i = 0; i < s->nprof; i++)
		if (!strcmp(s->prof[i]->name, name))
			return s->prof[i];
	return NULL;
}

struct l2s_profile *sim_need_profile(struct sim *s, const char *name)
{
	struct l2s_profile *p = sim_find_profile(s, name);

	if (!p)
		sim_die(s, "no profile %s", name);
	return p;
}

/* A tunnel by name, in @pname or in the only profile that has it. */
int sim_find_tunnel(struct sim *s, const char *name, const char *pname,
		    struct l2s_profile **pp)
{
	int i, t, found = -1;

	for (i = 0; i < s->nprof; i++) {
		if (pname && strcmp(s->prof[i]->name, pname))
			continue;
		t = l2s_tunnel_find(s->prof[i], name);
		if (t < 0)
			continue;
		if (found >= 0)
			sim_die(s, "tunnel %s is in several profiles: add \"profile NAME\"", name);
		found = t;
		*pp = s->prof[i];
	}
	if (found < 0)
		sim_die(s, "no tunnel %s%s%s", name, pname ? " in profile " : "", pname ? pname : "");
	return found;
}

u32 sim_num(struct sim *s, const char *str, u32 max, const char *what)
{
	u32 v;

	if (conf_parse_u32(str, max, &v))
		sim_die(s, "%s \"%s\": a number 0..%u", what, str, max);
	return v;
}

void sim_addr(struct sim *s, const char *str, struct l2s_addr *a)
{
	if (conf_parse_addr(str, a))
		sim_die(s, "\"%s\" is not an IPv4 or IPv6 address", str);
}

bool sim_onoff(struct sim *s, const char *w)
{
	if (!strcmp(w, "on"))
		return true;
	if (!strcmp(w, "off"))
		return false;
	sim_die(s, "\"%s\": on or off", w);
	return false;
}
