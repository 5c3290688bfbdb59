// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpsel-sim's world around the core (sim.h): how each LNS answers
 * ("lns"), the state a scenario presets ("state": lockouts, session
 * counts, drain) and the choices it pins ("pick").
 */
#include <stdio.h>
#include <string.h>

#include "sim.h"

void sim_do_lns(struct sim *s, int argc, char **argv)
{
	struct l2s_outcome out = { 0 };
	struct l2s_addr a;
	int i;

	if (argc < 4 || strcmp(argv[2], "answer"))
		sim_die(s, "usage: lns ADDR answer { ok | silent | cdn RESULT ERROR | stopccn RESULT ERROR | client-gone }");
	sim_addr(s, argv[1], &a);
	if (!strcmp(argv[3], "ok") && argc == 4) {
		out.kind = L2S_OUT_OK;
	} else if (!strcmp(argv[3], "silent") && argc == 4) {
		out.kind = L2S_OUT_NO_REPLY;
	} else if (!strcmp(argv[3], "client-gone") && argc == 4) {
		out.kind = L2S_OUT_CLIENT_GONE;
	} else if ((!strcmp(argv[3], "cdn") || !strcmp(argv[3], "stopccn")) && argc == 6) {
		out.kind = argv[3][0] == 'c' ? L2S_OUT_CDN : L2S_OUT_STOPCCN;
		out.result = (u16)sim_num(s, argv[4], 65535, "result code");
		out.error = (u16)sim_num(s, argv[5], 65535, "error code");
	} else {
		sim_die(s, "usage: lns ADDR answer { ok | silent | cdn RESULT ERROR | stopccn RESULT ERROR | client-gone }");
	}
	for (i = 0; i < s->nlns; i++) {
		if (l2s_addr_equal(&s->lns[i].addr, &a)) {
			s->lns[i].out = out;
			return;
		}
	}
	if (s->nlns == SIM_LNS)
		sim_die(s, "at most %d lns lines", SIM_LNS);
	s->lns[s->nlns].addr = a;
	s->lns[s->nlns++].out = out;
}

struct l2s_outcome sim_lns_answer(struct sim *s, u16 slot)
{
	struct l2s_outcome ok = { .kind = L2S_OUT_OK };
	int i;

	for (i = 0; i < s->nlns; i++)
		if (l2s_addr_equal(&s->lns[i].addr, &l2s_dest_at(&s->core, slot)->key.remote))
			return s->lns[i].out;
	return ok;	/* an LNS nobody described answers */
}

void sim_do_state(struct sim *s, int argc, char **argv)
{
	struct l2s_profile *p;
	struct l2s_addr a;
	u32 i, n = 0, v;

	if (argc == 5 && !strcmp(argv[1], "lock") && !strcmp(argv[3], "remaining")) {
		sim_addr(s, argv[2], &a);
		v = sim_num(s, argv[4], 86400, "remaining seconds");
		for (i = 0; i < SIM_DESTS; i++) {
			if (s->dests[i].refs && l2s_addr_equal(&s->dests[i].key.remote, &a)) {
				s->dests[i].lock_until = v ? s->now + (u64)v * 1000 : 0;
				n++;
			}
		}
		if (!n)
			sim_die(s, "no destination %s", argv[2]);
		return;
	}
	if (argc >= 5 && !strcmp(argv[1], "sessions") && !strcmp(argv[2], "tunnel")) {
		const char *pname = NULL;
		struct l2s_dest *d;
		int t;

		if (argc == 7 && !strcmp(argv[4], "profile"))
			pname = argv[5];
		else if (argc != 5)
			sim_die(s, "usage: state sessions tunnel NAME [ profile PROFILE ] COUNT");
		t = sim_find_tunnel(s, argv[3], pname, &p);
		v = sim_num(s, argv[argc - 1], L2S_MAX_SESSIONS_LIMIT, "session count");
		d = l2s_dest_at(&s->core, p->t[t].dest);
		if (d->sessions + v < p->t[t].sessions)
			sim_die(s, "destination count would go negative");
		d->sessions = d->sessions + v - p->t[t].sessions;
		p->t[t].sessions = v;
		return;
	}
	if (argc == 5 && !strcmp(argv[1], "sessions") && !strcmp(argv[2], "dest")) {
		sim_addr(s, argv[3], &a);
		v = sim_num(s, argv[4], L2S_MAX_SESSIONS_LIMIT, "session count");
		for (i = 0; i < SIM_DESTS; i++) {
			if (s->dests[i].refs && l2s_addr_equal(&s->dests[i].key.remote, &a)) {
				s->dests[i].sessions = v;
				n++;
			}
		}
		if (!n)
			sim_die(s, "no destination %s", argv[3]);
		return;
	}
	/* S-OPS-1: drain a tunnel or the destinations of an address, or end the drain */
	if (argc >= 5 && !strcmp(argv[1], "drain") && !strcmp(argv[2], "tunnel")) {
		const char *pname = NULL;
		int t;

		if (argc == 7 && !strcmp(argv[4], "profile"))
			pname = argv[5];
		else if (argc != 5)
			sim_die(s, "usage: state drain tunnel NAME [ profile PROFILE ] { on | off }");
		t = sim_find_tunnel(s, argv[3], pname, &p);
		p->t[t].drain = sim_onoff(s, argv[argc - 1]);
		return;
	}
	if (argc == 5 && !strcmp(argv[1], "drain") && !strcmp(argv[2], "dest")) {
		struct l2s_dest_key k = { 0 };

		sim_addr(s, argv[3], &k.remote);
		if (!l2s_dest_drain_match(&s->core, &k, false, false, sim_onoff(s, argv[4])))
			sim_die(s, "no destination %s", argv[3]);
		return;
	}
	sim_die(s, "usage: state { lock ADDR remaining SECS | sessions tunnel NAME [ profile P ] COUNT | sessions dest ADDR COUNT | drain tunnel NAME [ profile P ] { on | off } | drain dest ADDR { on | off } }");
}

void sim_do_pick(struct sim *s, int argc, char **argv)
{
	struct pin *p;

	if (argc < 3 || strcmp(argv[1], "next"))
		sim_die(s, "usage: pick next { N | tunnel NAME }");
	if (s->pin_tail - s->pin_head == SIM_PINS)
		sim_die(s, "at most %d pending picks", SIM_PINS);
	p = &s->pins[s->pin_tail++ % SIM_PINS];
	memset(p, 0, sizeof(*p));
	p->line = s->line;
	if (argc == 4 && !strcmp(argv[2], "tunnel")) {
		p->by_name = true;
		snprintf(p->name, sizeof(p->name), "%s", argv[3]);
	} else if (argc == 3) {
		p->value = sim_num(s, argv[2], 0xffffffffu, "pick");
	} else {
		sim_die(s, "usage: pick next { N | tunnel NAME }");
	}
}
