// SPDX-License-Identifier: GPL-2.0
/*
 * LOGIN_TEST's dry run: the candidates a login would try now, walked on
 * copies of the profile and of the destination table, so that nothing of
 * the namespace is written.
 *
 * Runs under ln->lock.
 */
#include <linux/mm.h>
#include <linux/slab.h>

#include "l2tpsel.h"
#include "select.h"

/* The dry run's copy of a profile takes its array from the buffer (no allocation). */
static void *ks_tb_alloc(void *ctx, size_t size)
{
	struct ks_test_buf *tb = ctx;

	if (tb->used || size > l2s_tunnels_size(L2S_TUNNELS_PER_PROFILE))
		return NULL;
	tb->used = true;
	return tb->tunnels;
}

static void ks_tb_free(void *ctx, void *ptr, size_t size)
{
	struct ks_test_buf *tb = ctx;

	if (ptr == tb->tunnels)
		tb->used = false;
}

/* The namespace's destination slots into @to (KS_DESTS of them, zeroed): the chunks that exist. */
static void ks_dests_copy(struct l2tpsel_net *ln, struct l2s_dest *to)
{
	const struct l2s_dest *d;
	u32 i;

	for (i = 0; i < KS_DESTS; i += L2S_DEST_CHUNK) {
		d = l2s_dest_chunk(&ln->sel.core, i);
		if (!d)
			break;
		memcpy(to + i, d, L2S_DEST_CHUNK * sizeof(*d));
	}
}

/**
 * ks_test_buf_alloc() - room for a dry run
 * @tb: the buffer
 *
 * Return: 0 or -ENOMEM.
 */
int ks_test_buf_alloc(struct ks_test_buf *tb)
{
	memset(tb, 0, sizeof(*tb));
	tb->core = kmalloc(sizeof(*tb->core), GFP_KERNEL_ACCOUNT);
	tb->dests = kvmalloc_array(KS_DESTS, sizeof(*tb->dests), GFP_KERNEL_ACCOUNT);
	tb->tunnels = kvmalloc(l2s_tunnels_size(L2S_TUNNELS_PER_PROFILE),
			       GFP_KERNEL_ACCOUNT);
	if (!tb->core || !tb->dests || !tb->tunnels) {
		ks_test_buf_free(tb);
		return -ENOMEM;
	}
	return 0;
}

/**
 * ks_test_buf_free() - free a dry run's buffer
 * @tb: the buffer
 */
void ks_test_buf_free(struct ks_test_buf *tb)
{
	kvfree(tb->tunnels);
	kvfree(tb->dests);
	kfree(tb->core);
	tb->tunnels = NULL;
	tb->dests = NULL;
	tb->core = NULL;
}

/**
 * ks_login_test() - the candidates a login would try now, changing nothing
 * @ln: the namespace
 * @src: the profile
 * @key: the hash key
 * @tb: the buffer from ks_test_buf_alloc(): receives the copies the run used
 *      (tb->p, and tb->dests as tb->core's table), which the caller's reply reads
 * @steps: receives the attempts in order
 * @max: room in @steps
 * @nsteps: receives the number of attempts
 * @last: receives the final step
 * @err: refusal message
 *
 * A dry run on copies of the destination table and of the profile, every
 * attempt assumed to fail with no reply; random picks take the first
 * candidate and report how many there were.  Nothing of the namespace is
 * written.
 *
 * Return: 0, or -ENOMEM (cannot happen with @tb's room).
 */
int ks_login_test(struct l2tpsel_net *ln, const struct l2s_profile *src, u32 key,
		  struct ks_test_buf *tb, struct ks_test_step *steps, u32 max, u32 *nsteps,
		  struct l2s_step *last, struct l2s_err *err)
{
	const struct l2s_outcome fail = { .kind = L2S_OUT_NO_REPLY };
	struct ks_env_ctx ec = { .ln = ln, .p = &tb->p, .dry = true };
	const struct l2s_mem mem = { .alloc = ks_tb_alloc, .free = ks_tb_free, .ctx = tb };
	struct l2s_core *c = tb->core;
	struct l2s_login lg;
	struct l2s_env env;
	struct l2s_step st;
	u32 n = 0;
	int ret;

	*nsteps = 0;
	memset(last, 0, sizeof(*last));
	last->kind = L2S_STEP_DONE;
	last->why = L2S_FAIL_NO_TUNNELS;
	memset(&tb->p, 0, sizeof(tb->p));
	if (!src->ntunnels)
		return 0;
	l2s_core_init(c, tb->dests, KS_DESTS);
	ks_dests_copy(ln, tb->dests);
	memcpy(c->dest_drain, ln->sel.core.dest_drain, sizeof(c->dest_drain));
	c->lockout_ms = ln->sel.core.lockout_ms;
	c->mem = &mem;
	ret = l2s_profile_copy(c, &tb->p, src, 0, err);
	if (ret)
		return ret;
	ks_sel_env_dry(&env, &ec);
	ec.ncand = 1;
	l2s_sel_begin(&lg, c, &tb->p, key, &env, &st);
	while (st.kind == L2S_STEP_ATTEMPT && n < max) {
		steps[n].st = st;
		steps[n].ncand = ec.ncand;
		n++;
		ec.ncand = 1;
		if (l2s_sel_report(&lg, c, &tb->p, &fail, &env, &st) < 0)
			break;
	}
	*last = st;
	*nsteps = n;
	return 0;
}
