/* SPDX-License-Identifier: GPL-2.0 */
/*
 * l2tpsel module internals shared between its files.  Kernel-side names
 * start with ks_ ("kernel state"); l2s_ names belong to the shared core.
 */
#ifndef L2TPSEL_H
#define L2TPSEL_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rhashtable.h>
#include <linux/xarray.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <linux/l2tpsel.h>

#include "lim.h"

/*
 * A table of named objects: found by name through a hash table, walked in id
 * order through an xarray so that a dump resumes from a cursor in O(1).
 */
struct ks_obj {
	struct rhash_head node;
	u32 id;
	char name[L2TPSEL_NAME_MAX];	/* zero padded: the hash key */
};

struct ks_table {
	struct rhashtable ht;
	struct xarray xa;
	u32 n;
};

/* A tunnel group: configured (with a limit) or only counted (sessions name it). */
struct ks_tgroup {
	struct ks_obj obj;
	u32 limit;
	u32 count;
	bool configured;
};

/* A session-limit group (S-LIM-4). */
struct ks_slg {
	struct ks_obj obj;
	struct lim_slg lim;
	u32 members;
	bool configured;
};

/* A client's sessions in one tunnel group (S-LIM-5); exists while count > 0. */
struct ks_ctg {
	struct list_head node;
	struct ks_tgroup *tg;		/* NULL: sessions in no tunnel group */
	u32 count;
};

/* A client: the peer's Host Name (S-LIM-5). */
struct ks_client {
	struct ks_obj obj;
	u32 limit;			/* per tunnel group */
	u32 total;			/* sessions over all tunnel groups */
	struct ks_slg *slg;
	struct list_head ctgs;
	bool configured;
};

/* An L2TP tunnel as the admission check counts it; exists while count > 0. */
struct ks_ltun {
	struct rhash_head node;
	u32 tid;
	u32 count;
};

/* A live session, counted on every level of its path. */
struct ks_session {
	struct rhash_head node;
	u64 key;
	u32 id;
	u8 role;
	struct ks_ltun *tun;
	struct ks_tgroup *tg;
	struct ks_client *client;
	struct ks_ctg *ctg;
};

#define L2S_MSG_RING	32
#define L2S_MSG_LEN	160

/* Per network namespace state: everything the module holds lives here. */
struct l2tpsel_net {
	struct net *net;
	/* Serialises every request of this namespace; never held across namespaces. */
	struct mutex lock;
	/* Bumped on every change; dumps report NLM_F_DUMP_INTR when it moved. */
	u32 gen;
	struct lim_chassis chassis;
	struct ks_table tgroups, slgs, clients;
	struct rhashtable ltuns;
	u32 n_ltuns;
	struct rhashtable sessions;
	struct xarray session_xa;
	u32 n_sessions;
	/* Formatted extack messages on kernels without NL_SET_ERR_MSG_FMT. */
	atomic_t msg_next;
	char msgs[L2S_MSG_RING][L2S_MSG_LEN];
};

extern unsigned int l2tpsel_net_id;

static inline struct l2tpsel_net *l2tpsel_pernet(const struct net *net)
{
	return net_generic(net, l2tpsel_net_id);
}

/* netlink.c */
extern struct genl_family l2tpsel_genl_family;
int l2tpsel_genl_init(void);
void l2tpsel_genl_exit(void);

/* tables.c */
int ks_table_init(struct ks_table *t);
void ks_table_destroy(struct ks_table *t, void (*free_fn)(struct ks_obj *obj));
struct ks_obj *ks_table_find(struct ks_table *t, const char *name);
int ks_table_add(struct ks_table *t, struct ks_obj *obj, const char *name);
void ks_table_del(struct ks_table *t, struct ks_obj *obj);

/* admit.c */
int ks_admit_init(struct l2tpsel_net *ln);
void ks_admit_exit(struct l2tpsel_net *ln);
struct ks_tgroup *ks_tgroup_get(struct l2tpsel_net *ln, const char *name, bool create);
struct ks_slg *ks_slg_get(struct l2tpsel_net *ln, const char *name, bool create);
struct ks_client *ks_client_get(struct l2tpsel_net *ln, const char *name, bool create);
void ks_tgroup_put(struct l2tpsel_net *ln, struct ks_tgroup *tg);
void ks_slg_put(struct l2tpsel_net *ln, struct ks_slg *slg);
void ks_client_put(struct l2tpsel_net *ln, struct ks_client *cl);
int ks_client_set_slg(struct ks_client *cl, struct ks_slg *slg, struct l2s_err *err);
u32 ks_highest_limit(struct l2tpsel_net *ln);

struct ks_session_req {
	u64 key;
	u8 role;
	u32 tid;
	const char *tgroup;	/* NULL: none */
	const char *client;	/* NULL: none */
};
int ks_session_up(struct l2tpsel_net *ln, const struct ks_session_req *req,
		   enum lim_level *verdict, struct l2s_err *err);
int ks_session_down(struct l2tpsel_net *ln, u64 key, struct l2s_err *err);

/* netlink.c: events */
void ks_event_limit(struct l2tpsel_net *ln, bool reached, enum lim_level level,
		     const char *name, u32 tid, u32 limit, u32 count);

#endif /* L2TPSEL_H */
