// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpseld restart reconciliation (issue 5: "counters stay exact after
 * kill -9").
 *
 * Two kernel counts belong to a live session of this agent:
 *  - admission (SESSION_UP, keyed by a 64-bit key whose high 32 bits are
 *    this agent's agent-id): found again with a SESSION_GET dump;
 *  - selection (the login's OK counted the session on its tunnel and
 *    destination until TUNNEL_SESSION_DOWN, which names the tunnel and the
 *    profile): the kernel does not list these per agent, so the agent keeps
 *    an append-only journal, "up KEY TUNNEL PROFILE" when a login succeeds
 *    and "down KEY" when its session ends.  write(2) reaches the page cache
 *    before the call returns, so the journal survives kill -9 (not a power
 *    cut: the kernel counts do not survive that either).
 *
 * On start, before anything else: every journal entry without its "down"
 * gets TUNNEL_SESSION_DOWN, every kernel session with our agent-id gets
 * SESSION_DOWN, and the journal starts empty.  A crash between the login's
 * OK and the journal line leaves one selection count behind (never one too
 * few: a count is never driven below the live sessions).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "l2d.h"

int l2d_journal_open(struct l2d *d, const char *path)
{
	if (!path || !*path)
		return 0;
	d->journal_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_TRUNC | O_CLOEXEC, 0600);
	return d->journal_fd < 0 ? -errno : 0;
}

static void journal_write(struct l2d *d, const char *line, size_t len)
{
	if (d->journal_fd >= 0 && write(d->journal_fd, line, len) != (ssize_t)len)
		l2d_log(d, L2D_LOG_ERR, "journal: write failed: %s", strerror(errno));
}

void l2d_journal_up(struct l2d *d, const struct l2d_session *s)
{
	char line[256];
	int n = snprintf(line, sizeof(line), "up %" PRIu64 " %s %s\n", s->key, s->ktunnel, s->kprofile);

	if (n > 0 && (size_t)n < sizeof(line))
		journal_write(d, line, (size_t)n);
}

void l2d_journal_down(struct l2d *d, const struct l2d_session *s)
{
	char line[64];
	int n = snprintf(line, sizeof(line), "down %" PRIu64 "\n", s->key);

	journal_write(d, line, (size_t)n);
}

struct jent {
	uint64_t key;
	char tunnel[L2D_NAME_MAX], profile[L2D_NAME_MAX];
	bool live;
};

struct rec_ctx {
	unsigned int released;
	int err;
};

static void rec_one(struct l2d *d, const struct l2d_ksess *k, void *arg)
{
	struct rec_ctx *c = arg;
	int err;

	if (k->key >> 32 != d->conf->agent_id)
		return;
	err = d->kops->session_down(d, k->key);
	if (err && !c->err)
		c->err = err;
	if (!err)
		c->released++;
}

int l2d_reconcile(struct l2d *d, const char *path)
{
	struct jent *ents = NULL;
	size_t n = 0, cap = 0, i;
	struct rec_ctx c = { 0 };
	char line[300];
	FILE *f = path && *path ? fopen(path, "r") : NULL;

	if (f) {
		while (fgets(line, sizeof(line), f)) {
			char tun[L2D_NAME_MAX], prof[L2D_NAME_MAX];
			uint64_t key;

			if (sscanf(line, "up %" SCNu64 " %63s %63s", &key, tun, prof) == 3) {
				if (n == cap) {
					struct jent *e;

					cap = cap ? 2 * cap : 64;
					e = realloc(ents, cap * sizeof(*e));
					if (!e)
						break;
					ents = e;
				}
				ents[n].key = key;
				strcpy(ents[n].tunnel, tun);
				strcpy(ents[n].profile, prof);
				ents[n].live = true;
				n++;
			} else if (sscanf(line, "down %" SCNu64, &key) == 1) {
				for (i = n; i-- > 0;)
					if (ents[i].key == key && ents[i].live) {
						ents[i].live = false;
						break;
					}
			}
		}
		fclose(f);
	}
	for (i = 0; i < n; i++) {
		int err;

		if (!ents[i].live)
			continue;
		err = d->kops->tunnel_session_down(d, ents[i].tunnel, ents[i].profile);
		l2d_log(d, L2D_LOG_INFO, "reconcile: session %" PRIu64 " on tunnel %s profile %s: %s",
			ents[i].key, ents[i].tunnel, ents[i].profile, err ? "not counted" : "released");
	}
	free(ents);
	if (d->kops->session_dump) {
		int err = d->kops->session_dump(d, rec_one, &c);

		if (err)
			return err;
	}
	if (c.released)
		l2d_log(d, L2D_LOG_INFO, "reconcile: %u admitted sessions of agent %u reported down",
			c.released, d->conf->agent_id);
	return c.err ? c.err : (int)c.released;
}
