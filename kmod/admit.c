// SPDX-License-Identifier: GPL-2.0
/*
 * Session admission in the kernel: the objects that hold the counters of
 * SPEC §4 (tunnel groups, session-limit groups, clients, tunnels, sessions),
 * their lifetimes, and session up/down around core/lim.c.
 *
 * Every function here runs under ln->lock.
 *
 * Lifetimes: a tunnel group, session-limit group or client exists while it is
 * configured or while live sessions (or member clients) refer to it; deleting
 * its configuration removes its limit and keeps the sessions counted (S-LIM-9:
 * reconfiguration never drops a session nor loses a count).
 */
#include <linux/slab.h>
#include <net/sock.h>

#include "events.h"
#include "l2tpsel.h"

static const struct rhashtable_params ks_tunnel_count_params = {
	.key_len	= sizeof(u32),
	.key_offset	= offsetof(struct ks_tunnel_count, tid),
	.head_offset	= offsetof(struct ks_tunnel_count, node),
	.automatic_shrinking = true,
	.nelem_hint = KS_HT_HINT,
};

static const struct rhashtable_params ks_session_params = {
	.key_len	= sizeof(u64),
	.key_offset	= offsetof(struct ks_session, key),
	.head_offset	= offsetof(struct ks_session, node),
	.automatic_shrinking = true,
	.nelem_hint = KS_HT_HINT,
};

/*
 * Look up a named object, or create an unconfigured one of @size bytes,
 * unless the table holds @max objects already.  The object is charged to the
 * caller's memory cgroup.
 */
static struct ks_obj *ks_obj_get(struct ks_table *t, const char *name, bool create,
				 size_t size, unsigned int max, const char *what,
				 const char *param, void (*init)(struct ks_obj *obj),
				 struct l2s_err *err)
{
	struct ks_obj *obj = ks_table_find(t, name);
	int ret;

	if (obj || !create)
		return obj;
	if (t->n >= max) {
		l2s_errf(err, "at most %u %s per namespace (module parameter %s)", max, what,
			 param);
		return ERR_PTR(-ENOSPC);
	}
	obj = kzalloc(size, GFP_KERNEL_ACCOUNT);
	if (!obj)
		goto nomem;
	if (init)		/* before the table publishes it */
		init(obj);
	ret = ks_table_add(t, obj, name);
	if (ret) {
		kfree(obj);
		if (ret != -ENOMEM) {
			l2s_errf(err, "no room for another of the %s (%d)", what, ret);
			return ERR_PTR(ret);
		}
		goto nomem;
	}
	return obj;
nomem:
	l2s_errf(err, "out of memory for another of the %s", what);
	return ERR_PTR(-ENOMEM);
}

/**
 * ks_tgroup_get() - find a tunnel group, or create an unconfigured one
 * @ln: the namespace
 * @name: its name
 * @create: create it when missing
 * @err: receives the reason when it cannot be created
 *
 * Return: the group; NULL when missing; with @create, an ERR_PTR (-ENOSPC at
 * the namespace's cap, -ENOMEM) when it cannot be created.
 */
struct ks_tgroup *ks_tgroup_get(struct l2tpsel_net *ln, const char *name, bool create,
				struct l2s_err *err)
{
	struct ks_obj *o = ks_obj_get(&ln->tgroups, name, create, sizeof(struct ks_tgroup),
				      READ_ONCE(ks_max_tgroups), "tunnel groups",
				      "max_tgroups", NULL, err);

	return IS_ERR_OR_NULL(o) ? ERR_CAST(o) : container_of(o, struct ks_tgroup, obj);
}

/**
 * ks_slg_get() - find a session-limit group, or create an unconfigured one
 * @ln: the namespace
 * @name: its name
 * @create: create it when missing
 * @err: receives the reason when it cannot be created
 *
 * Return: as ks_tgroup_get().
 */
struct ks_slg *ks_slg_get(struct l2tpsel_net *ln, const char *name, bool create,
			  struct l2s_err *err)
{
	struct ks_obj *o = ks_obj_get(&ln->slgs, name, create, sizeof(struct ks_slg),
				      READ_ONCE(ks_max_slgs), "session-limit groups",
				      "max_slgs", NULL, err);

	return IS_ERR_OR_NULL(o) ? ERR_CAST(o) : container_of(o, struct ks_slg, obj);
}

static void ks_client_init(struct ks_obj *obj)
{
	INIT_LIST_HEAD(&container_of(obj, struct ks_client, obj)->tgs);
}

/**
 * ks_client_get() - find a client, or create an unconfigured one
 * @ln: the namespace
 * @name: the peer's Host Name
 * @create: create it when missing
 * @err: receives the reason when it cannot be created
 *
 * Return: as ks_tgroup_get().
 */
struct ks_client *ks_client_get(struct l2tpsel_net *ln, const char *name, bool create,
				struct l2s_err *err)
{
	struct ks_obj *o = ks_obj_get(&ln->clients, name, create, sizeof(struct ks_client),
				      READ_ONCE(ks_max_clients), "clients", "max_clients",
				      ks_client_init, err);

	return IS_ERR_OR_NULL(o) ? ERR_CAST(o) : container_of(o, struct ks_client, obj);
}

/**
 * ks_tgroup_put() - free a tunnel group nothing needs any more
 * @ln: the namespace
 * @tg: the group, may be NULL
 */
void ks_tgroup_put(struct l2tpsel_net *ln, struct ks_tgroup *tg)
{
	if (!tg || tg->configured || tg->count)
		return;
	ks_table_del(&ln->tgroups, &tg->obj);
	kfree(tg);
}

/**
 * ks_slg_put() - free a session-limit group nothing needs any more
 * @ln: the namespace
 * @slg: the group, may be NULL
 */
void ks_slg_put(struct l2tpsel_net *ln, struct ks_slg *slg)
{
	if (!slg || slg->configured || slg->members)
		return;
	ks_table_del(&ln->slgs, &slg->obj);
	kfree(slg);
}

/**
 * ks_client_put() - free a client nothing needs any more
 * @ln: the namespace
 * @cl: the client, may be NULL
 */
void ks_client_put(struct l2tpsel_net *ln, struct ks_client *cl)
{
	if (!cl || cl->configured || cl->total || cl->slg)
		return;
	WARN_ON_ONCE(!list_empty(&cl->tgs));
	ks_table_del(&ln->clients, &cl->obj);
	kfree(cl);
}

/**
 * ks_client_set_slg() - move a client into another session-limit group (S-LIM-4)
 * @cl: the client
 * @slg: the new group, or NULL for none
 * @err: receives the reason on refusal
 *
 * The client's live sessions leave the old group's count and join the new
 * one's; none is dropped.  The caller frees the old group if it is unused.
 *
 * Return: 0, or -ERANGE if the old group's count is inconsistent.
 */
int ks_client_set_slg(struct ks_client *cl, struct ks_slg *slg, struct l2s_err *err)
{
	struct ks_slg *old = cl->slg;
	int ret;

	if (old == slg)
		return 0;
	if (old) {
		ret = lim_slg_remove_client(&old->lim, cl->total, err);
		if (ret)
			return ret;
		old->members--;
	}
	cl->slg = slg;
	if (slg) {
		lim_slg_add_client(&slg->lim, cl->total);
		slg->members++;
	}
	return 0;
}

/**
 * ks_highest_limit() - the highest limit configured on a group or client
 * @ln: the namespace
 *
 * Return: the highest tunnel group, session-limit group and client limit;
 * with the chassis and tunnel limits, what the chassis maximum may not go
 * below.
 */
u32 ks_highest_limit(struct l2tpsel_net *ln)
{
	u32 hi = 0;
	struct ks_obj *o;
	unsigned long id;

	xa_for_each(&ln->tgroups.xa, id, o)
		hi = max(hi, container_of(o, struct ks_tgroup, obj)->limit);
	xa_for_each(&ln->slgs.xa, id, o)
		hi = max(hi, container_of(o, struct ks_slg, obj)->lim.limit);
	xa_for_each(&ln->clients.xa, id, o)
		hi = max(hi, container_of(o, struct ks_client, obj)->limit);
	return hi;
}

static struct ks_client_tg *ks_client_tg_get(struct ks_client *cl, struct ks_tgroup *tg,
					     bool create)
{
	struct ks_client_tg *ctg;

	list_for_each_entry(ctg, &cl->tgs, node)
		if (ctg->tg == tg)
			return ctg;
	if (!create)
		return NULL;
	ctg = kzalloc(sizeof(*ctg), GFP_KERNEL_ACCOUNT);
	if (!ctg)
		return NULL;
	ctg->tg = tg;
	list_add(&ctg->node, &cl->tgs);
	return ctg;
}

static void ks_client_tg_put(struct ks_client_tg *ctg)
{
	if (!ctg || ctg->count)
		return;
	list_del(&ctg->node);
	kfree(ctg);
}

static struct ks_tunnel_count *ks_tunnel_count_get(struct l2tpsel_net *ln, u32 tid)
{
	struct ks_tunnel_count *t = rhashtable_lookup_fast(&ln->tunnel_counts, &tid,
							   ks_tunnel_count_params);

	if (t)
		return t;
	t = kzalloc(sizeof(*t), GFP_KERNEL_ACCOUNT);
	if (!t)
		return NULL;
	t->tid = tid;
	if (rhashtable_lookup_insert_fast(&ln->tunnel_counts, &t->node, ks_tunnel_count_params)) {
		kfree(t);
		return NULL;
	}
	ln->n_tunnel_counts++;
	return t;
}

static void ks_tunnel_count_put(struct l2tpsel_net *ln, struct ks_tunnel_count *t)
{
	if (!t || t->count)
		return;
	rhashtable_remove_fast(&ln->tunnel_counts, &t->node, ks_tunnel_count_params);
	ln->n_tunnel_counts--;
	kfree(t);
}

/* The counters one session touches, with the limits in force now. */
static void ks_session_path(struct l2tpsel_net *ln, const struct ks_session *s,
			    struct lim_path *p)
{
	memset(p, 0, sizeof(*p));
	p->slot[LIM_CHASSIS] = lim_chassis_slot(&ln->chassis);
	p->slot[LIM_TUNNEL].count = &s->tun->count;
	p->slot[LIM_TUNNEL].limit = ln->chassis.tunnel_limit;
	if (s->tg) {
		p->slot[LIM_TUNNEL_GROUP].count = &s->tg->count;
		p->slot[LIM_TUNNEL_GROUP].limit = s->tg->limit;
	}
	if (s->client) {
		/* The group the client belongs to now: membership moves counts (S-LIM-4). */
		struct ks_slg *slg = s->client->slg;

		if (slg) {
			p->slot[LIM_SLG].count = &slg->lim.count;
			p->slot[LIM_SLG].limit = slg->lim.limit;
		}
		p->slot[LIM_CLIENT].count = &s->ctg->count;
		p->slot[LIM_CLIENT].limit = s->client->limit;
		p->client_total = &s->client->total;
	}
}

/* Name and tunnel id of a level's object, for limit events. */
static void ks_level_events(struct l2tpsel_net *ln, const struct ks_session *s,
			    const struct lim_path *p, u32 bits, bool reached)
{
	enum lim_level l;

	for (l = LIM_CHASSIS; l < LIM_NLEVELS; l++) {
		const char *name = NULL;

		if (!(bits & (1u << l)))
			continue;
		if (l == LIM_TUNNEL_GROUP)
			name = s->tg->obj.name;
		else if (l == LIM_SLG)
			name = s->client->slg->obj.name;
		else if (l == LIM_CLIENT)
			name = s->client->obj.name;
		ks_event_limit(ln, reached, l, name, l == LIM_TUNNEL ? s->tun->tid : 0,
			       p->slot[l].limit, *p->slot[l].count);
	}
}

/* Put @s on its socket's list. */
static int ks_owner_add(struct l2tpsel_net *ln, struct ks_session *s, struct sock *sk)
{
	struct ks_owner *o = ks_owner_get(ln, s->portid, sk);

	if (IS_ERR(o))
		return PTR_ERR(o);
	list_add_tail(&s->owner_node, &o->sessions);
	s->owner = o;
	return 0;
}

static void ks_owner_del(struct l2tpsel_net *ln, struct ks_session *s)
{
	struct ks_owner *o = s->owner;

	if (!o)
		return;
	list_del(&s->owner_node);
	s->owner = NULL;
	ks_owner_put(ln, o);
}

static void ks_session_release_objs(struct l2tpsel_net *ln, struct ks_session *s)
{
	ks_client_tg_put(s->ctg);
	ks_client_put(ln, s->client);
	ks_tgroup_put(ln, s->tg);
	ks_tunnel_count_put(ln, s->tun);
}

/* The objects a new session counts on: its tunnel, tunnel group and client. */
static int ks_session_objs(struct l2tpsel_net *ln, struct ks_session *s,
			   const struct ks_session_req *req, struct l2s_err *err)
{
	int ret;

	s->tun = ks_tunnel_count_get(ln, req->tid);
	if (!s->tun)
		goto err_nomem;
	if (req->tgroup) {
		s->tg = ks_tgroup_get(ln, req->tgroup, true, err);
		if (IS_ERR(s->tg)) {
			ret = PTR_ERR(s->tg);
			s->tg = NULL;
			return ret;
		}
	}
	if (req->client) {
		s->client = ks_client_get(ln, req->client, true, err);
		if (IS_ERR(s->client)) {
			ret = PTR_ERR(s->client);
			s->client = NULL;
			return ret;
		}
		s->ctg = ks_client_tg_get(s->client, s->tg, true);
		if (!s->ctg)
			goto err_nomem;
	}
	return 0;

err_nomem:
	l2s_errf(err, "out of memory for session %llu", (unsigned long long)req->key);
	return -ENOMEM;
}

/* Record an admitted session: on its socket, by id and by key; undone on failure. */
static int ks_session_record(struct l2tpsel_net *ln, struct ks_session *s, struct sock *sk)
{
	int ret;

	ret = s->detached ? 0 : ks_owner_add(ln, s, sk);
	if (ret)
		return ret;
	ret = xa_alloc(&ln->session_xa, &s->id, s, xa_limit_32b, GFP_KERNEL_ACCOUNT);
	if (ret)
		goto err_owner;
	ret = rhashtable_lookup_insert_fast(&ln->sessions, &s->node, ks_session_params);
	if (ret)
		goto err_xa;
	return 0;

err_xa:
	xa_erase(&ln->session_xa, s->id);
err_owner:
	ks_owner_del(ln, s);
	return ret;
}

/**
 * ks_session_up() - admit a session and count it (S-LIM-1)
 * @ln: the namespace
 * @req: what the agent knows of the session
 * @verdict: LIM_PASS when admitted, else the level that refused
 * @err: receives the reason when the request itself is refused
 *
 * A refusal by a limit is not an error: it returns 0 with the level in
 * @verdict and counts nothing.
 *
 * Return: 0, -EEXIST (key in use), -ENOSPC (a cap of the namespace), or
 * -ENOMEM.
 */
int ks_session_up(struct l2tpsel_net *ln, const struct ks_session_req *req,
		  enum lim_level *verdict, struct l2s_err *err)
{
	struct ks_session *s;
	struct lim_path p;
	u32 reached = 0;
	int ret;

	if (rhashtable_lookup_fast(&ln->sessions, &req->key, ks_session_params)) {
		l2s_errf(err, "session key %llu is already up", (unsigned long long)req->key);
		return -EEXIST;
	}
	/* CHASSIS_MAX bounds them there too; this holds if the bound was lowered since. */
	if (ks_in_userns(ln) && ln->n_sessions >= READ_ONCE(ks_max_sessions_userns)) {
		l2s_errf(err, "at most %u sessions outside the initial user namespace (%s)",
			 READ_ONCE(ks_max_sessions_userns), "module parameter max_sessions_userns");
		return -ENOSPC;
	}
	s = kzalloc(sizeof(*s), GFP_KERNEL_ACCOUNT);
	if (!s) {
		l2s_errf(err, "out of memory for a session");
		return -ENOMEM;
	}
	s->key = req->key;
	s->role = req->role;
	s->portid = req->portid;
	s->detached = req->detached;
	s->kp = req->kp;
	s->tuid = req->tuid;
	ret = ks_session_objs(ln, s, req, err);
	if (ret)
		goto err_objs;

	ks_session_path(ln, s, &p);
	*verdict = lim_admit(&p, req->role == L2TPSEL_ROLE_LNS ? LIM_ROLE_LNS : LIM_ROLE_LAC,
			     NULL, NULL, &reached);
	if (*verdict != LIM_PASS) {
		ret = 0;
		goto err_objs;
	}

	ret = ks_session_record(ln, s, req->sk);
	if (ret) {
		/* Undo the count: nothing may be left counted for a session not recorded. */
		WARN_ON_ONCE(lim_release(&p, NULL, NULL));
		l2s_errf(err, "no room to record session %llu (%d)",
			 (unsigned long long)req->key, ret);
		goto err_objs;
	}
	ln->n_sessions++;
	ks_gen_bump(ln);
	ks_level_events(ln, s, &p, reached, true);
	return 0;

err_objs:
	ks_session_release_objs(ln, s);
	kfree(s);
	return ret;
}

/* @events false: the namespace goes, its selection state with it. */
static void ks_session_free(struct l2tpsel_net *ln, struct ks_session *s, bool events)
{
	struct lim_path p;
	u32 cleared = 0;

	if (s->kp && events)
		ks_sel_session_down(ln, s->kp, s->tuid);
	ks_owner_del(ln, s);
	ks_session_path(ln, s, &p);
	WARN_ON_ONCE(lim_release(&p, &cleared, NULL));
	if (events)
		ks_level_events(ln, s, &p, cleared, false);
	rhashtable_remove_fast(&ln->sessions, &s->node, ks_session_params);
	xa_erase(&ln->session_xa, s->id);
	ln->n_sessions--;
	ks_gen_bump(ln);
	ks_session_release_objs(ln, s);
	kfree(s);
}

/**
 * ks_session_down() - uncount a session that went down, on every ledger
 * @ln: the namespace
 * @portid: the asking socket: the session's own, unless it is detached
 * @key: its key
 * @err: receives the reason on refusal
 *
 * Return: 0, -ENOENT when no session has @key, -EPERM when it belongs to
 * another socket.
 */
int ks_session_down(struct l2tpsel_net *ln, u32 portid, u64 key, struct l2s_err *err)
{
	struct ks_session *s = rhashtable_lookup_fast(&ln->sessions, &key, ks_session_params);

	if (!s) {
		l2s_errf(err, "no session with key %llu is up", (unsigned long long)key);
		return -ENOENT;
	}
	if (!s->detached && s->portid != portid) {
		l2s_errf(err, "session %llu belongs to another socket (portid %u)",
			 (unsigned long long)key, s->portid);
		return -EPERM;
	}
	ks_session_free(ln, s, true);
	return 0;
}

/**
 * ks_admit_init() - empty admission state for a new namespace
 * @ln: the namespace
 *
 * Return: 0 or -ENOMEM.
 */
int ks_admit_init(struct l2tpsel_net *ln)
{
	int err;

	lim_chassis_init(&ln->chassis);
	/* A user namespace's owner starts, and stays, under the module's bound. */
	if (ks_in_userns(ln))
		ln->chassis.maximum = min(ln->chassis.maximum,
					  max(READ_ONCE(ks_max_sessions_userns), 1u));
	err = ks_table_init(&ln->tgroups);
	if (err)
		goto err_tgroups;
	err = ks_table_init(&ln->slgs);
	if (err)
		goto err_slgs;
	err = ks_table_init(&ln->clients);
	if (err)
		goto err_clients;
	err = rhashtable_init(&ln->tunnel_counts, &ks_tunnel_count_params);
	if (err)
		goto err_tunnel_counts;
	err = rhashtable_init(&ln->sessions, &ks_session_params);
	if (err)
		goto err_sessions;
	xa_init_flags(&ln->session_xa, XA_FLAGS_ALLOC1);
	xa_init(&ln->owners);
	return 0;

err_sessions:
	rhashtable_destroy(&ln->tunnel_counts);
err_tunnel_counts:
	ks_table_destroy(&ln->clients, NULL);
err_clients:
	ks_table_destroy(&ln->slgs, NULL);
err_slgs:
	ks_table_destroy(&ln->tgroups, NULL);
err_tgroups:
	return err;
}

static void ks_free_obj(struct ks_obj *obj)
{
	kfree(obj);
}

/**
 * ks_admit_exit() - free every session and object of a dying namespace
 * @ln: the namespace
 *
 * Sessions go first, through the same path as a session down, so that every
 * counter returns to zero and every unconfigured object is freed by it.
 */
void ks_admit_exit(struct l2tpsel_net *ln)
{
	struct ks_session *s;
	struct ks_client *cl;
	struct ks_obj *o;
	unsigned long id;

	xa_for_each(&ln->session_xa, id, s)
		ks_session_free(ln, s, false);
	WARN_ON_ONCE(ln->chassis.count || ln->n_tunnel_counts);
	xa_for_each(&ln->clients.xa, id, o) {
		cl = container_of(o, struct ks_client, obj);
		WARN_ON_ONCE(cl->total || !list_empty(&cl->tgs));
	}
	xa_destroy(&ln->session_xa);
	WARN_ON_ONCE(!xa_empty(&ln->owners));
	xa_destroy(&ln->owners);
	rhashtable_destroy(&ln->sessions);
	rhashtable_destroy(&ln->tunnel_counts);
	ks_table_destroy(&ln->clients, ks_free_obj);
	ks_table_destroy(&ln->slgs, ks_free_obj);
	ks_table_destroy(&ln->tgroups, ks_free_obj);
}

/**
 * ks_session_end() - a session ends with its socket: uncounted, listeners told
 * @ln: the namespace, locked
 * @s: the session, freed here
 */
void ks_session_end(struct l2tpsel_net *ln, struct ks_session *s)
{
	ks_session_free(ln, s, true);
}
