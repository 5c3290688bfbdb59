// SPDX-License-Identifier: GPL-2.0
/*
 * What the server of dynamic authorization (das.c) does before it acts on a
 * Disconnect-Request (RFC 5176): the request parsed and authenticated
 * (radius.c's rad_dm_parse()), the duplicate cache (section 2.3) and the
 * Event-Timestamp window (the attribute: RFC 2869 section 5.3).  Plain C,
 * no sockets; fuzzed by fuzz/fuzz_das.c.
 */
#include <stdlib.h>
#include <string.h>

#include "radius.h"

int rad_das_cache_init(struct rad_das_cache *c, unsigned int cap)
{
	c->e = calloc(cap, sizeof(*c->e));
	c->cap = c->e ? cap : 0;
	return c->e ? 0 : -1;
}

static void seen_forget(struct rad_das_seen *e)
{
	free(e->answer);
	memset(e, 0, sizeof(*e));
}

void rad_das_cache_free(struct rad_das_cache *c)
{
	unsigned int i;

	for (i = 0; i < c->cap; i++)
		seen_forget(&c->e[i]);
	free(c->e);
	c->e = NULL;
	c->cap = 0;
}

enum rad_das_verdict rad_das_check(struct rad_das_cache *c, unsigned int client, const uint8_t *buf,
				   size_t len, const uint8_t *secret, size_t slen,
				   uint64_t window_ms, bool require_ts, uint64_t now_ms,
				   struct rad_dm *m, const uint8_t **answer, size_t *answer_len,
				   const char **why)
{
	bool room = false;
	unsigned int i;
	int64_t off;

	*answer = NULL;
	*answer_len = 0;
	/* first authentic: nothing of an unauthenticated packet is looked up */
	if (rad_dm_parse(buf, len, secret, slen, m, why))
		return RAD_DAS_BAD;
	*why = NULL;
	for (i = 0; i < c->cap; i++) {
		struct rad_das_seen *e = &c->e[i];

		/* kept through until_ms: one ms later its Event-Timestamp is stale */
		if (e->until_ms && e->until_ms < now_ms)
			seen_forget(e);
		if (!e->until_ms) {
			room = true;
			continue;
		}
		/* section 2.3: the same request again, whatever its source port */
		if (e->client == client && e->id == m->id && !memcmp(e->auth, m->auth, RAD_AUTH_LEN)) {
			*answer = e->answer;
			*answer_len = e->len;
			return RAD_DAS_RESEND;
		}
	}
	if (m->has_ts) {
		off = (int64_t)m->ts * 1000 - (int64_t)now_ms;
		if (off > (int64_t)window_ms || -off > (int64_t)window_ms) {
			*why = "Event-Timestamp outside radius-das-event-window of the agent's clock "
			       "(a replay, or a clock out of step)";
			return RAD_DAS_STALE;
		}
	} else if (require_ts && !m->cause) {
		m->cause = RAD_EC_MISSING_ATTRIBUTE;
		*why = "no Event-Timestamp (radius-das-require-event-timestamp)";
	}
	if (!room && !m->cause) {
		/* forgetting a current request would let its replay act again */
		m->cause = RAD_EC_RESOURCES_UNAVAILABLE;
		*why = "every remembered request is still current (radius-das-event-window)";
	}
	return RAD_DAS_NEW;
}

void rad_das_remember(struct rad_das_cache *c, unsigned int client, const struct rad_dm *m,
		      uint64_t window_ms, uint64_t now_ms, const uint8_t *answer, size_t len)
{
	uint64_t from = now_ms, ts_ms = (uint64_t)m->ts * 1000;
	unsigned int i;

	/* until the Event-Timestamp leaves the window, and at least the window's length */
	if (m->has_ts && ts_ms > from)
		from = ts_ms;
	for (i = 0; i < c->cap; i++) {
		struct rad_das_seen *e = &c->e[i];

		if (e->until_ms)
			continue;
		e->answer = malloc(len ? len : 1);
		if (!e->answer)
			return;
		memcpy(e->answer, answer, len);
		e->len = (uint16_t)len;
		e->until_ms = (from + window_ms) ?: 1;	/* 0 is a free slot */
		e->client = (uint8_t)client;
		e->id = m->id;
		memcpy(e->auth, m->auth, RAD_AUTH_LEN);
		return;
	}
}
